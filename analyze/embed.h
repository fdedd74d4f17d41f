/*
 * embed.h - the raw runs and failed checks' error texts that analysis.json
 * carries for rundown-render (docs/analysis.md, "raw_runs").
 */
#ifndef RUNDOWN_ANALYZE_EMBED_H
#define RUNDOWN_ANALYZE_EMBED_H

#include <stddef.h>

#include "jw.h"
#include "rundown/status.h"

struct rd_analysis;

/* At most this many runs are embedded: about 0.5 KiB each, so a store of a
 * million runs still gives an analysis.json of a few MiB. The count of all
 * runs is written beside, so render can say when the cap was hit. */
#define RD_EMBED_RUNS_MAX 10000

/**
 * Writes "raw_runs" (the first 'cap' records of the input stores, each with
 * its store, and how many there are) and "check_errors" (the first error
 * text of each failed check, per workload, config and metric, from the
 * record's info or its stdout log) as members of the open object of w.
 * Stores that cannot be read again (standard input) are left out.
 */
rd_status rd_embed_write(const struct rd_analysis *a, struct jw *w, size_t cap,
                         struct rd_diag *d);

#endif
