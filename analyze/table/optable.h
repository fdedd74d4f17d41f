/*
 * optable.h - the option table of rundown-analyze (rundown/opts.h): what
 * main.c parses, what --help prints and what the man page lists.
 */
#ifndef RUNDOWN_ANALYZE_OPTABLE_H
#define RUNDOWN_ANALYZE_OPTABLE_H

#include "rundown/opts.h"

/* Codes of the long options that have no short spelling. */
enum {
    OPT_ALPHA = 256, OPT_CONFIDENCE, OPT_BASELINE, OPT_METRIC, OPT_ALL_METRICS,
    OPT_BOOTSTRAP, OPT_SEED, OPT_EXCLUDE_OUTLIERS, OPT_POOL_ENVS, OPT_INCLUDE_CONTENDED, OPT_PUBLISHED,
    OPT_TITLE, OPT_THREADS, OPT_MARGIN, OPT_MAX_ERROR_RATE, OPT_SET, OPT_NO_CACHE, OPT_CACHE_DIR,
};

/* Codes of the comparison of two sets of runs (kept apart). */
enum { OPT_COMPARE = 512, OPT_COMPARE_BY, OPT_FAIL_IF_SLOWER, OPT_FORMAT, OPT_JSON,
       OPT_MARKDOWN, OPT_FAIL_IF_INCONCLUSIVE };

extern const struct rd_cmd_spec rd_analyze_spec;

#endif
