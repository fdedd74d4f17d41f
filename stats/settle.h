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
 * too often to be compared is dropped, and one the race below shows
 * slower than the best is eliminated. The collector (collect/suiterun.c)
 * and the analysis (which says why collection stopped) call the same
 * functions.
 *
 * Pure numerics, no I/O.
 */
#ifndef RUNDOWN_STATS_SETTLE_H
#define RUNDOWN_STATS_SETTLE_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"
#include "verdict.h"

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
    RD_SETTLE_MAX,      /* runs_max runs and not precise */
    RD_SETTLE_ELIMINATED /* shown slower than the best at a look of the
                            race (rd_settle_race): no more runs, its runs
                            stay in the family */
};

/** Why a workload's collection stopped. */
enum rd_settle_stop {
    RD_STOP_SETTLED,    /* every config precise (or unusable) */
    RD_STOP_MAX,        /* some config reached runs_max unsettled */
    RD_STOP_BUDGET,     /* the suite's time budget was spent first */
    RD_STOP_INCOMPLETE, /* stopped with configs open: interrupted, --only */
    RD_STOP_DISQUALIFIED /* no config usable: every one unusable */
};

/** "settled", "max", "budget", "incomplete", "disqualified" (the
 *  analysis.json words). */
const char *rd_settle_stop_name(enum rd_settle_stop stop);

/** "open", "precise", "unusable", "max", "eliminated" (the analysis.json
 *  words). */
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

/**
 * The paired spread of a workload whose configs are compared within
 * rounds (verdict.h, struct rd_verdict_pairing): the widest sd of the
 * within-round log ratios over the pairs of configs i, j with in[i] and
 * in[j] (with c < k, only the pairs of c), read through pg; *n gets the
 * fewest rounds of those pairs (INFINITY when there is no pair). A spread of
 * one run of log a - log b, never a difference of means: the precision
 * rule and the budget that read it stay blind to the differences
 * (docs/methods.md §6b). INFINITY when some pair has fewer than 2 rounds
 * (no spread yet) or pg cannot work one out.
 */
double rd_settle_paired_spread(const struct rd_verdict_pairing *pg, const bool *in, size_t k,
                               size_t c, double *n);

/**
 * The precision rule of a config of a paired workload: rd_settle_config
 * with its paired spread (rd_settle_paired_spread of the config with the
 * other contenders) over sqrt 2, one config's CV's footing, which the
 * target is set on, in place of its own CV, which holds the rounds'
 * offsets the paired verdicts do not read; at the n_pairs rounds of those
 * pairs and the paired verdicts' critical value
 * (rd_verdict_paired_critical_value): the interval the analysis draws.
 * n is its good values: below 2 after runs_min it is unusable, as
 * unpaired; fewer than 2 rounds, or a spread not finite, the spread is
 * unknown and the config open (or at max).
 */
enum rd_settle_state rd_settle_config_paired(const struct rd_settle_rule *r, long runs, double n,
                                             double spread, double n_pairs, size_t k);

/** The relative half-width rd_settle_config_paired compares with the
 *  target: the paired critical value at n_pairs - 1 df times spread /
 *  sqrt 2 / sqrt n_pairs; NaN below 2 rounds or for a spread not finite. */
double rd_settle_halfwidth_paired(double spread, double n_pairs, size_t k, double alpha);

/** True when collection of the workload is done: no config is open, or
 *  the race eliminated every config but one (the answer is clear). */
bool rd_settle_done(const enum rd_settle_state *states, size_t k);

/** Whether a config in 'state' gets a run in the next round of a
 *  workload whose collection is 'done' or not: every config that can
 *  still be compared does, precise or not, until the workload is done. */
bool rd_settle_collects(enum rd_settle_state state, bool done);

/**
 * Why collection of a workload stopped, from its configs' states: settled
 * (every config precise or eliminated, some usable), max or disqualified
 * (every config unusable) when none is open, else 'open_reason'
 * (RD_STOP_BUDGET or RD_STOP_INCOMPLETE, which the caller knows).
 */
enum rd_settle_stop rd_settle_stop_reason(const enum rd_settle_state *states, size_t k,
                                          enum rd_settle_stop open_reason);

/*
 * Racing (docs/methods.md §6b). After each round r >= runs_min of an
 * adaptive workload the verdicts (verdict.h) are decided on everything
 * collected, at the level the round spends, and a config they show slower
 * than the best is eliminated: it gets no more runs, but its runs stay in
 * the family (and in the analysis). The level of round r is the increment
 * of a Pocock-type alpha-spending function (Lan and DeMets 1983),
 * a(t) = alpha ln(1 + (e - 1) t), over the information fraction
 * t = r / runs_max. The first look is after round r0 =
 * rd_settle_race_first: runs_min, but not before RD_SETTLE_RACE_FIRST
 * runs (unless runs_max is smaller). It spends a(r0 / runs_max), all that
 * the rounds before it would have; each later look r spends a(r / max) -
 * a((r - 1) / max). The increments sum to at most alpha over all looks up
 * to runs_max, and using each as the level of its own look is the
 * Bonferroni bound on their union, which the correlation of the looks
 * only makes safer. Why not look before 5 runs: a config's relative
 * standard error has n - 1 df, so a pair of configs of unequal CVs has a
 * Welch df near 2 at n = 3, where the critical values at these levels are
 * 40-50 (qtukey(1 - 0.0008, 21, 2.5) / sqrt(2) = 43.2, R); spread over
 * looks at 3, 4 and 5 runs the alpha bought almost nothing at 3 and 4 and
 * left the look at 5 too little to eliminate the study's 9x slower
 * configs (docs/methods.md §6b). The race spends alpha / 10 (a tenth of
 * the rule's alpha): the analysis judges everything collected at alpha
 * again, and the two add. The stopping rule of the contenders stays
 * the precision rule above, which reads spreads and spends nothing.
 */

/** The alpha the Pocock-type spending function of Lan and DeMets (1983)
 *  has spent by information fraction t: alpha ln(1 + (e - 1) t), t taken
 *  into [0, 1]. The race's looks and the looks of the analysis (a
 *  workload's sessions, docs/methods.md §6 "Looks") both spend by it. */
double rd_settle_spent(double alpha, double t);

/** The level of a look at information fraction t whose last earlier look
 *  was at t_prev (0 for the first): the increment a(t) - a(t_prev) of
 *  rd_settle_spent, 0 when t does not exceed t_prev. The increments of
 *  looks up to t = 1 sum to at most alpha; each used as its own look's
 *  level is the Bonferroni bound on their union. */
double rd_settle_look_level(double alpha, double t_prev, double t);

/** The information fraction of n runs per config against a planned
 *  maximum of runs_max: n / runs_max, 1 from runs_max on, 0 when either
 *  is not positive. */
double rd_settle_fraction(double n, double runs_max);

/** The fewest runs per config before the race's first look. */
#define RD_SETTLE_RACE_FIRST 5

/** The round of the race's first look: runs_min, but at least
 *  RD_SETTLE_RACE_FIRST (or runs_max, when that is smaller). */
long rd_settle_race_first(long runs_min, long runs_max);

/** The level of the look after round 'round' (0 before
 *  rd_settle_race_first or past runs_max: no look). */
double rd_settle_race_level(double alpha, long round, long runs_min, long runs_max);

/**
 * One look of the race. x[0..k) are the configs' good values so far
 * (eligible false: unusable, out of the family); eliminated[i] is true for
 * configs eliminated at an earlier look (their values frozen, still in the
 * family) and is set for those this look eliminates: every eligible
 * config the verdicts at rd_settle_race_level(alpha / 10, ...) show worse than the best.
 * Nothing is eliminated when the best is itself eliminated, when fewer
 * than 2 configs are eligible or the level is 0. keep[i] true (keep NULL:
 * none) exempts config i: it stays a contender whatever the verdicts say
 * (a suite's "keep_racing": configs a published claim compares, which a
 * study must go on measuring). Exempting configs only removes
 * eliminations, so the race's error of eliminating the best cannot grow.
 * *neliminated receives the count of new eliminations. Errors of
 * rd_verdict_decide pass through.
 */
rd_status rd_settle_race(const struct rd_settle_rule *r, long round,
                         const struct rd_verdict_sample *x, size_t k,
                         const struct rd_verdict_settings *vs, const bool *keep,
                         bool *eliminated, size_t *neliminated);

/*
 * The final judgement of a raced workload (docs/methods.md §6b). The
 * race's looks spend at most alpha / 10 in all, whatever schedule of stops
 * happens, so the contenders (every eligible config not eliminated) are
 * judged among themselves only - their own family size and their own
 * Welch df - at the rest, rd_settle_final_alpha(alpha): the race's claims
 * and the final ones together hold at alpha (Bonferroni over the two).
 * An eliminated config keeps the verdict the race gave it, worse: its row
 * has the ratio of its mean to the best's but no verdict interval (NaN:
 * the claim was made at a look, on the runs it had then). What a reader
 * needs to see, how much slower, is in elim_ci_low and elim_ci_high: the
 * interval of its ratio to the best on all its runs, judged in the whole
 * family (contenders and eliminated) at the contenders' level, or
 * elim_note saying why there is none. Judging the eliminated
 * configs again with the contenders would hold the family's df at
 * runs_min - 1 and keep the contenders' interval from settling.
 */

/** alpha less the race's share: the level of a raced workload's final
 *  family, and of its contenders' precision rule. */
double rd_settle_final_alpha(double alpha);

/**
 * The verdicts of a raced workload: x[0..k) every config's good values,
 * eliminated[i] true for the configs the race eliminated (NULL: the
 * workload did not race; then rd_verdict_decide at vs->alpha). rows and
 * res as rd_verdict_decide fills them, with res->family the contenders'
 * count and res->n_worse counting the eliminated configs.
 */
rd_status rd_settle_judge(const struct rd_verdict_sample *x, size_t k,
                          const struct rd_verdict_settings *vs, const bool *eliminated,
                          struct rd_verdict_row *rows, struct rd_verdict_result *res);

#endif
