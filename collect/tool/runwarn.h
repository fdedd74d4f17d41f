/*
 * runwarn.h - the warnings `rundown-collect run` prints after its summary,
 * in hyperfine's tone and as briefly (issue 29): statistical outliers, a
 * first run much slower than the rest, failed runs, runs too short to time
 * well. Front end only: it prints.
 */
#ifndef RUNDOWN_TOOL_RUNWARN_H
#define RUNDOWN_TOOL_RUNWARN_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/record.h"

/** What one command's measured runs said, for the warnings. */
struct rd_run_watch {
    const char *name;       /* the command (borrowed) */
    double *walls;          /* wall_ms of the ok measured runs, in run order */
    size_t n, cap;
    long failed;            /* measured runs not ok */
    int exit_code;          /* the last failed run's exit code; -1: none */
};

void rd_run_watch_init(struct rd_run_watch *w, const char *name);

/** Notes measured run r. RD_ERR_NOMEM when its time cannot be kept. */
rd_status rd_run_watch_add(struct rd_run_watch *w, const struct rd_record *r);

void rd_run_watch_release(struct rd_run_watch *w);

/** How the runs were made, for the hints. */
struct rd_run_warn_ctx {
    long warmups;           /* -w */
    bool shell;             /* a shell ran each command (-S) */
    bool ignore_failure;    /* -i */
};

/**
 * Prints, through rd_warn, what hyperfine would warn about w's runs:
 *  - outliers: a modified z-score (0.6745 (x - median) / MAD, Iglewicz and
 *    Hoaglin) above 3.5, hyperfine's rule;
 *  - without warmups, a first run that is such an outlier on the slow side;
 *  - failed runs, with -i suggested;
 *  - a mean under 5 ms, with -N suggested when a shell ran the command.
 * Returns how many warnings it printed.
 */
int rd_run_watch_warn(const struct rd_run_watch *w, const struct rd_run_warn_ctx *c);

/** The modified z-score of x among the sorted values s[0..n); 0 when MAD is 0. */
double rd_run_modified_z(const double *sorted, size_t n, double x);

#endif
