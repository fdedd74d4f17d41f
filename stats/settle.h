/*
 * settle.h - when an adaptive suite has run a config often enough
 * (docs/methods.md, "Adaptive collection").
 *
 * The rule is a fixed-width sequential confidence interval (Chow and
 * Robbins 1965) on the relative scale, applied to the workload as a
 * whole: every config gets a run per round until the half-width of each
 * config's mean's interval, at the critical value the verdicts use for the
 * workload's k configs (verdict.h), is at most 'target' times its mean, or
 * until runs_max. It looks at each config's own spread and mean, never at
 * the differences between configs, so it cannot steer a comparison
 * towards significance. Stopping each config on its own as soon as it is
 * precise does inflate false positives (it keeps the runs whose spread
 * happened to come out small: 14 % instead of 5 % at k = 10 in
 * simulation); stopping all of them together when the widest is precise
 * does not (tests/unit/test_settle_calibration.c). A config that fails
 * too often to be compared is dropped. The collector (collect/suiterun.c)
 * and the analysis (which says why collection stopped) call the same
 * functions.
 *
 * Pure numerics, no I/O.
 */
#ifndef RUNDOWN_STATS_SETTLE_H
#define RUNDOWN_STATS_SETTLE_H

#include <stdbool.h>
#include <stddef.h>

/** The stopping rule of one workload. */
struct rd_settle_rule {
    long runs_min, runs_max; /* measured runs per config, 1 <= min <= max */
    double target;           /* relative half-width to reach, e.g. 0.025 */
    double alpha;            /* level of the critical value, e.g. 0.05 */
};

/** Where one config stands. */
enum rd_settle_state {
    RD_SETTLE_OPEN,     /* needs more runs */
    RD_SETTLE_PRECISE,  /* its interval is as narrow as the target (for
                           now: it still runs while others are open) */
    RD_SETTLE_UNUSABLE, /* min runs and still fewer than 2 good values:
                           disqualified, more runs are not spent on it */
    RD_SETTLE_MAX       /* runs_max runs and not precise */
};

/** Why a workload's collection stopped. */
enum rd_settle_stop {
    RD_STOP_SETTLED,    /* every config precise (or unusable) */
    RD_STOP_MAX,        /* some config reached runs_max unsettled */
    RD_STOP_BUDGET,     /* the suite's time budget was spent first */
    RD_STOP_INCOMPLETE  /* stopped with configs open: interrupted, --only */
};

/** "settled", "max", "budget", "incomplete" (the analysis.json words). */
const char *rd_settle_stop_name(enum rd_settle_stop stop);

/** "open", "precise", "unusable", "max" (the analysis.json words). */
const char *rd_settle_state_name(enum rd_settle_state state);

/**
 * The half-width of the interval of a mean of n good values with sample
 * sd, over the mean, at the critical value of a family of k comparisons
 * with the best at n - 1 degrees of freedom (k < 2 counts as 2: Student's
 * t). 0 when sd is 0 (a constant config is as precise as it gets); NaN
 * when n < 2 or the mean is not positive (no relative width).
 */
double rd_settle_halfwidth(double n, double mean, double sd, size_t k, double alpha);

/**
 * The state of a config with 'runs' measured runs (any status), of which
 * n are good values of the primary metric with that mean and sd, in a
 * workload of k configs.
 */
enum rd_settle_state rd_settle_config(const struct rd_settle_rule *r, long runs, double n,
                                      double mean, double sd, size_t k);

/** True when collection of the workload is done: no config is open. */
bool rd_settle_done(const enum rd_settle_state *states, size_t k);

/** Whether a config in 'state' gets a run in the next round of a
 *  workload whose collection is 'done' or not: every config that can
 *  still be compared does, precise or not, until the workload is done. */
bool rd_settle_collects(enum rd_settle_state state, bool done);

/**
 * Why collection of a workload stopped, from its configs' states: settled
 * or max when none is open, else 'open_reason' (RD_STOP_BUDGET or
 * RD_STOP_INCOMPLETE, which the caller knows).
 */
enum rd_settle_stop rd_settle_stop_reason(const enum rd_settle_state *states, size_t k,
                                          enum rd_settle_stop open_reason);

#endif
