/*
 * verdict.h - which configs of a workload are best, equivalent, worse or
 * not yet known, on one metric (docs/methods.md, "Verdicts").
 *
 * Every eligible config is compared with the best one (the best mean in
 * the metric's better direction) by the ratio of means, config / best,
 * with Fieller's interval at one critical value for the whole family of
 * comparisons with the best. Because the best is chosen from the same
 * data, the largest of those comparisons is the range of the means: the
 * critical value is the studentized range quantile (Tukey 1953) divided
 * by sqrt 2, at the Welch degrees of freedom of the comparisons (Games
 * and Howell 1976), taken as the smallest of them rounded down, which
 * errs on the safe side for small samples. The verdict is read off the
 * interval, so a sentence can never contradict it:
 *
 *   wholly inside [1 - margin, 1 + margin]          equivalent
 *   excluding 1, not wholly inside the margin       worse
 *   containing 1 and reaching past the margin       inconclusive
 *
 * An interval inside the margin is a two one-sided tests equivalence
 * claim (Schuirmann 1987) at the family's level. The workload's decision
 * follows: clear (every other config worse), equivalent (the best and an
 * equivalent set, every other config worse), inconclusive (some config
 * neither), no-data (no eligible config).
 *
 * Pure numerics: no analysis structures, no I/O, callable from the
 * analysis, the adaptive suite runner and the tests alike.
 */
#ifndef RUNDOWN_ANALYZE_VERDICT_H
#define RUNDOWN_ANALYZE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

enum rd_verdict {
    RD_VERDICT_BEST,
    RD_VERDICT_EQUIVALENT,
    RD_VERDICT_WORSE,
    RD_VERDICT_INCONCLUSIVE,
    RD_VERDICT_DISQUALIFIED /* set by the caller: not compared */
};

enum rd_decision {
    RD_DECISION_CLEAR,
    RD_DECISION_EQUIVALENT,
    RD_DECISION_INCONCLUSIVE,
    RD_DECISION_NO_DATA
};

/** The analysis.json spelling: "best", "equivalent", ... */
const char *rd_verdict_name(enum rd_verdict v);
/** "clear", "equivalent", "inconclusive", "no-data". */
const char *rd_decision_name(enum rd_decision d);

/** One config's good runs of the metric. */
struct rd_verdict_sample {
    double n, mean, sd;
    bool eligible; /* false: disqualified by the caller, left out */
};

struct rd_verdict_settings {
    double alpha;          /* family-wise error rate of the claims, e.g. 0.05 */
    double margin;         /* relative equivalence margin, e.g. 0.05 */
    bool higher_is_better; /* else lower is better */
    double power;          /* for runs_needed, e.g. 0.8 */
};

/** Sets alpha 0.05, margin 0.05, lower is better, power 0.8. */
void rd_verdict_settings_init(struct rd_verdict_settings *s);

/** One config's comparison with the best. */
struct rd_verdict_row {
    enum rd_verdict verdict;
    /* mean / best mean, and its simultaneous interval (NaN when
     * unbounded: the best's mean is not clearly away from zero) */
    double ratio, ratio_ci_low, ratio_ci_high;
    /* (mean - best mean) / its Welch standard error; +-INFINITY when both
     * configs are constant and differ, NaN for the best itself */
    double t;
    /* Runs per config that would settle an inconclusive comparison with
     * the given power at the observed spread: for the observed difference
     * or for equivalence within the margin, whichever needs fewer. 0 when
     * settled; -1 when no number of runs would (a ratio at the margin). */
    long runs_needed;
    bool exact; /* both configs constant: the ratio is exact, no test */
};

struct rd_verdict_result {
    enum rd_decision decision;
    size_t best;        /* index of the best config; k when no-data */
    size_t family;      /* eligible configs: the family's k */
    double df;          /* degrees of freedom of the critical value */
    double crit;        /* critical value on the t scale; NaN if none */
    size_t n_equivalent, n_worse, n_inconclusive, n_disqualified;
};

/**
 * Decides verdicts for the k configs of one workload. rows[0..k) receives
 * one row per config (disqualified ones keep RD_VERDICT_DISQUALIFIED and
 * NaN numbers). Means and sds of any finite size are decided (scaled by a
 * power of two first when their squares would leave the double range,
 * which needs a copy of the samples: RD_ERR_NOMEM when it cannot be had).
 * Returns RD_ERR_STATS when the critical value cannot be computed; the
 * decision is then no-data.
 */
rd_status rd_verdict_decide(const struct rd_verdict_sample *samples, size_t k,
                            const struct rd_verdict_settings *s,
                            struct rd_verdict_row *rows, struct rd_verdict_result *res);

/**
 * The critical value on the t scale of a family of k comparisons with the
 * best at df degrees of freedom (a whole number, or INFINITY): the
 * studentized range quantile at 1 - alpha over sqrt 2, which for k = 2 is
 * Student's two-sided t quantile. NaN when it cannot be computed.
 */
double rd_verdict_critical_value(double alpha, double k, double df);

/**
 * The adjusted p of a row: P(studentized range of 'family' means > sqrt 2
 * |t|) at the result's degrees of freedom. It is below alpha exactly when
 * the row's interval excludes 1. NaN for the best, a disqualified config
 * or an exact row (no test: the ratio is known). Kept apart from the
 * decision because it costs a numerical integral per config and the
 * decision does not need it.
 */
double rd_verdict_p_adjusted(const struct rd_verdict_row *row,
                             const struct rd_verdict_result *res);

#endif
