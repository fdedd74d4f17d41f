/*
 * verdict.h - which configs of a workload are best, equivalent, worse or
 * not yet known, on one metric (docs/methods.md, "Verdicts").
 *
 * Every eligible config is compared with the best one (the best mean in
 * the metric's better direction) by the ratio of means R = config / best,
 * on the log scale: log R +- c se, with the delta-method standard error
 * se = sqrt(s_a^2 / (n_a m_a^2) + s_b^2 / (n_b m_b^2)) and Welch-
 * Satterthwaite degrees of freedom of its two parts. The interval exp(...)
 * is positive by construction, and taking reciprocals swaps its ends
 * exactly, so "A / B" and "B / A" say the same. Two critical values, one
 * per claim, each for the whole family of comparisons with the best at
 * the smallest degrees of freedom rounded down:
 *
 * - "worse" (slower, or lower for a higher-is-better metric): the
 *   1 - alpha interval at c, the studentized range quantile over sqrt 2
 *   (Tukey's range as Games and Howell 1976 use it with unequal
 *   variances), excludes 1. Because the best is chosen from the same
 *   data, the largest of the comparisons is the range of the means, so
 *   the chance that any config of an A/A family is called worse is at
 *   most alpha. Hsu's one-sided MCB constant (below) would not do: its
 *   "not the best" claims hold only up to ties, and at k = 2 an A/A pair
 *   would be called worse 2 alpha of the time.
 * - "equivalent within the margin": Hsu's multiple comparisons with the
 *   best (Hsu 1996, ch. 4), one-sided constant d (mcb.h), as two one-sided
 *   tests at level alpha (Schuirmann 1987): the 1 - 2 alpha interval
 *   exp(log R +- d se), simultaneous over the family, lies wholly inside
 *   [1 - margin, 1 + margin].
 *
 * The verdict, read off those intervals, so a sentence can never
 * contradict them:
 *
 *   a mean not clearly positive at c (m - c s / sqrt n <= 0)
 *                                         inconclusive, "not estimable"
 *   1 - 2 alpha interval inside the margin   equivalent
 *   1 - alpha interval excludes 1            worse (beyond_margin when it
 *                                            lies wholly past the margin)
 *   otherwise                                inconclusive
 *
 * The workload's decision follows: clear (every other config worse),
 * equivalent (the best and an equivalent set, every other config worse),
 * inconclusive (some config neither), no-data (no eligible config).
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
    /* The degrees of freedom of sd^2 / n as the variance of the mean; 0:
     * n - 1 (one session of independent runs). Runs from several sessions
     * give sd^2 / n the two-level variance of the mean and df its
     * Satterthwaite df (nested.h): every interval, test and df below then
     * reads the variance between sessions as well as within. */
    double df;
    /* the sd of the log values on sd's footing (log_sd^2 / n the
     * variance of the mean of the logs, two-level with df as sd is); 0
     * when unknown: the relative variance is then (sd / mean)^2 alone,
     * else the larger of that and exp(log_sd^2) - 1 (logratio.h) */
    double log_sd;
};

/** The sample of the n values v, one session: n, mean, sd and log_sd
 *  (running moments, stats/moments.h): how the collector and the
 *  calibrations see a config. */
struct rd_verdict_sample rd_verdict_sample_of(const double *v, size_t n, bool eligible);

/**
 * Configs compared within rounds (docs/methods.md §6, "Paired within
 * rounds"): a suite that interleaves its configs runs every config's r-th
 * run in round r, and runs of one round share the host's state of that
 * minute. With a pairing, config a is compared with the best b by the
 * log ratios log a_r - log b_r of the rounds both have: their mean is the
 * estimate of log(a / b) (the row's ratio is its exp), their sd / sqrt n
 * its standard error on n - 1 df, and their sd the spread runs_needed
 * reads. The best is still the best mean; a config whose paired estimate
 * comes out better than the best's is never called worse.
 *
 * paired() fills the mean and sd of the within-round log ratios of a
 * against b and their count (n < 2: no estimate; the comparison is then
 * not estimable); it returns false only when it cannot work them out
 * (out of memory), which rd_verdict_decide returns as RD_ERR_NOMEM.
 */
struct rd_verdict_pairing {
    bool (*paired)(const void *ctx, size_t a, size_t b, double *mean_log, double *sd_log,
                   double *n);
    const void *ctx;
};

struct rd_verdict_settings {
    double alpha;          /* family-wise error rate of the claims, e.g. 0.05 */
    double margin;         /* relative equivalence margin, e.g. 0.05 */
    bool higher_is_better; /* else lower is better */
    double power;          /* for runs_needed, e.g. 0.8 */
    /* true: decide "worse" only, no equivalence test (crit_eq NaN, no
     * row equivalent): the racing looks, whose alpha changes every round
     * and would cost a fresh MCB root search each */
    bool skip_equivalence;
    /* NULL: independent samples, the delta method on their means */
    const struct rd_verdict_pairing *pairing;
};

/** Sets alpha 0.05, margin 0.05, lower is better, power 0.8, no pairing. */
void rd_verdict_settings_init(struct rd_verdict_settings *s);

/** One config's comparison with the best. */
struct rd_verdict_row {
    enum rd_verdict verdict;
    /* mean / best mean, and its simultaneous 1 - alpha interval on the
     * log scale at crit (NaN when not estimable: a mean not clearly
     * positive at the family's critical value) */
    double ratio, ratio_ci_low, ratio_ci_high;
    /* The simultaneous 1 - 2 alpha interval at crit_eq that the
     * equivalence test reads (NaN when not estimable) */
    double eq_ci_low, eq_ci_high;
    /* log(ratio) / its delta-method standard error; +-INFINITY when both
     * configs are constant and differ, NaN for the best itself */
    double t;
    double df; /* its own Welch df, rounded down (the joint equivalence test
                * reads it unrounded) */
    /* Runs per config after which every open comparison of the family
     * settles with the given power at the observed spreads, whatever the
     * true ratio (the worst case over it; see runs_for in verdict.c).
     * 0 when settled; -1 when no number of runs would (a mean that is not
     * positive). */
    long runs_needed;
    /* 1: the 1 - alpha interval lies wholly beyond the margin on the
     * worse side ("more than 5 % slower"); 0: it does not; -1: no
     * interval (the best, disqualified, not estimable). */
    int beyond_margin;
    bool estimable; /* false: a mean not clearly positive; inconclusive */
    bool exact;     /* both configs constant: the ratio is exact, no test */
    /* equivalent by the workload's joint claim (intersection-union, each
     * comparison at level alpha), not by the family's MCB interval */
    bool joint;
    /* Only for a config a race eliminated (settle.h, rd_settle_judge; NaN
     * and NULL otherwise): its ratio's interval on all its runs, as if
     * judged with the contenders in the whole family; elim_note says in
     * words why there is none when the ends are NaN. */
    double elim_ci_low, elim_ci_high;
    const char *elim_note;
};

struct rd_verdict_result {
    enum rd_decision decision;
    size_t best;        /* index of the best config; k when no-data */
    size_t family;      /* eligible configs: the family's k */
    double df;          /* degrees of freedom of the critical value */
    double crit;        /* critical value of "worse" (range / sqrt 2); NaN if none */
    double crit_eq;     /* one-sided MCB critical value of "equivalent"; NaN if none */
    size_t n_equivalent, n_worse, n_inconclusive, n_disqualified;
    bool paired;        /* the settings paired the configs: Bonferroni's constants */
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
 * Runs per config after which 'open' comparisons with the best, in a family
 * of k configs, all settle (equivalent or worse) with the settings' power,
 * each of relative spread at most 'spread' (the sd of log a - log b for
 * one run of each: sqrt(cv_a^2 + cv_b^2)), whatever the true ratios: the
 * figure behind rd_verdict_row.runs_needed, which reads the spreads only,
 * never a difference between configs. INFINITY when no number of runs
 * would (k < 2, a spread that is not finite, a margin of 0); at most 1e6.
 */
double rd_verdict_runs_for(double spread, size_t k, size_t open,
                           const struct rd_verdict_settings *s);

/**
 * The critical value on the t scale of a family of k comparisons with the
 * best at df degrees of freedom (a whole number, or INFINITY): the
 * studentized range quantile at 1 - alpha over sqrt 2, which for k = 2 is
 * Student's two-sided t quantile. NaN when it cannot be computed.
 */
double rd_verdict_critical_value(double alpha, double k, double df);

/**
 * The critical value of "worse" of a family of k configs paired within
 * rounds at df (a whole number, or INFINITY): Bonferroni's two-sided
 * Student quantile over the k (k - 1) / 2 pairs, t(1 - alpha / (k (k -
 * 1)), df) (verdict.c says why not the studentized range). NaN when it
 * cannot be computed.
 */
double rd_verdict_paired_critical_value(double alpha, double k, double df);

/**
 * The one-sided critical value of Hsu's multiple comparisons with the
 * best for k configs at df (mcb.h) at level alpha: the equivalence
 * claims' 1 - 2 alpha simultaneous interval. For k = 2 Student's one-sided
 * t quantile. NaN when it cannot be computed.
 */
double rd_verdict_equivalence_critical_value(double alpha, double k, double df);

/**
 * The adjusted p of a row: P(studentized range of 'family' means > sqrt 2
 * |t|) at the result's degrees of freedom (paired: Bonferroni's, k (k - 1)
 * times Student's upper tail of |t|, at most 1). It is below alpha exactly when
 * the row's interval excludes 1. NaN for the best, a disqualified config,
 * a row that is not estimable or an exact row (no test: the ratio is known). Kept apart from the
 * decision because it costs a numerical integral per config and the
 * decision does not need it.
 */
double rd_verdict_p_adjusted(const struct rd_verdict_row *row,
                             const struct rd_verdict_result *res);

#endif
