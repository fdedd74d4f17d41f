/*
 * runwarn.h - the warnings `rundown-collect run`, `http` and `suite` print
 * after their runs, in hyperfine's tone and as briefly (issue 29):
 * statistical outliers, a first run much slower than the rest, failed runs,
 * runs too short to time well. Front end only: it prints.
 */
#ifndef RUNDOWN_TOOL_RUNWARN_H
#define RUNDOWN_TOOL_RUNWARN_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/record.h"

/** What one command's measured runs said, for the warnings. */
struct rd_run_watch {
    const char *name;       /* the command (borrowed) */
    /* the metric watched: NULL, wall_ms; a set's watch takes rps when its
     * first run has it (a load run's time is its fixed duration) */
    const char *metric;
    bool higher;            /* a larger value of it is better (not rps's own rule) */
    double *walls;          /* the metric of the ok measured runs, in run order */
    size_t n, cap;
    long failed;            /* measured runs not ok */
    long warmups_seen;      /* warmup runs stored */
    int exit_code;          /* the last failed run's exit code; -1: none */
};

void rd_run_watch_init(struct rd_run_watch *w, const char *name);

/** Notes measured run r. RD_ERR_NOMEM when its time cannot be kept. */
rd_status rd_run_watch_add(struct rd_run_watch *w, const struct rd_record *r);

void rd_run_watch_release(struct rd_run_watch *w);

/** How the runs were made, for the hints. */
struct rd_run_warn_ctx {
    long warmups;           /* -w; -1: as many as the watch saw stored */
    bool shell;             /* a shell ran each command (-S) */
    bool ignore_failure;    /* -i */
    /* how to ask for warmups: NULL, "-w/--warmup" (run's) */
    const char *warmup_hint;
    bool no_failures;       /* failed runs were warned one by one already */
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

/**
 * The watches of a session of many configs (http, suite): one per
 * config, named "WORKLOAD CONFIG", fed from the session's stored runs.
 */
struct rd_run_watchset {
    struct rd_run_watch *w;
    char **names;
    size_t n;
};

/** Notes stored run r of session config 'index' (NULL config: ignored).
 *  metric: the one to watch (a suite workload's primary metric, 'higher'
 *  when larger is better); NULL: rps when the first run has it, else
 *  wall_ms. */
rd_status rd_run_watchset_add(struct rd_run_watchset *s, size_t index,
                              const struct rd_record *r, const char *metric, bool higher);
/** rd_run_watch_warn on every watch, in the order the configs were added. */
int rd_run_watchset_warn(const struct rd_run_watchset *s, const struct rd_run_warn_ctx *c);
void rd_run_watchset_release(struct rd_run_watchset *s);

/** The modified z-score of x among the sorted values s[0..n); 0 when MAD is 0. */
double rd_run_modified_z(const double *sorted, size_t n, double x);

#endif
