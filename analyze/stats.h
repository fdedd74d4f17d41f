/*
 * stats.h - pure numerics over arrays of doubles (the only user of GSL).
 *
 * Every routine takes plain arrays and returns plain numbers. A result that
 * is undefined for the input (the sd of one value, a test between two
 * zero-variance groups, a ratio whose denominator CI contains 0) is NaN; the
 * caller writes it as JSON null and adds a warning. A result beyond the
 * double range is +-infinity (never 0): the writer makes it null too and
 * warnings.c names it (`overflow`). Sums of squares are taken on values
 * scaled by a power of two, so data at 1e-170, 1e300 or among the
 * denormals get their right sd and tests. Nothing here prints, exits or
 * lets GSL abort once main() has called rd_stats_init() (process-wide
 * state: only a main(), or a test standing in for one, calls it).
 *
 * Formulas and references: docs/methods.md.
 */
#ifndef RUNDOWN_ANALYZE_STATS_H
#define RUNDOWN_ANALYZE_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "rundown/status.h"

/** Turns GSL's abort-on-error handler off; idempotent. */
void rd_stats_init(void);
/** Frees what the calling thread keeps between calls (the last exact
 * Mann-Whitney null distribution, the exact Mann-Kendall ones, the
 * studentized range's tables); call it before a thread ends. */
void rd_stats_release_thread(void);

/** Arithmetic mean; NaN when n == 0. */
double rd_stats_mean(const double *x, size_t n);
/** Sample variance (divisor n - 1); NaN when n < 2; +inf or 0 when it
 * overflows or underflows the double range (sd of 1e200 or 1e-170):
 * prefer rd_stats_sd, which does not. */
double rd_stats_var(const double *x, size_t n);
/** Sample standard deviation (divisor n - 1), right for any finite data;
 * NaN when n < 2; +inf only beyond the double range. */
double rd_stats_sd(const double *x, size_t n);
/** Sorts ascending in place (a radix sort from 64 values on, else a
 *  quicksort with GSL's heapsort as its fallback; NaN only by the latter). */
void rd_stats_sort(double *x, size_t n);
/** Hyndman-Fan type 7 quantile (R, numpy default) of sorted data; NaN for n == 0. */
double rd_stats_quantile_sorted(const double *sorted, size_t n, double p);
/** Geometric mean; NaN when n == 0 or any value is <= 0. */
double rd_stats_geomean(const double *x, size_t n);
/**
 * Median absolute deviation scaled by 1.482602218505602 (consistent with the
 * sd of a normal distribution). 'scratch' holds n doubles. NaN when n == 0.
 */
double rd_stats_mad(const double *x, size_t n, double *scratch);

/** Student t quantile: the t with P(T <= t) = p for 'df' degrees of freedom. */
double rd_stats_t_quantile(double p, double df);

/** Descriptive statistics of one sample (DESIGN.md section 3 keys). */
struct rd_summary {
    size_t n;
    double mean, sd, se, ci_low, ci_high;  /* Student t CI of the mean */
    double median, min, max, q1, q3, p90, p95, p99;
    double mad, cv, geomean;               /* cv = sd / mean (a fraction); NaN
                                            * unless mean > 0 */
    /* The variance as the sd was worked from it: var 4^var_e (n >= 2;
     * else NaN and 0), so the ANOVAs of summarized groups need no pass
     * over their values for it (rd_stats_welch_anova_moments). */
    double var;
    int var_e;
};

/**
 * Fills out for x[0..n-1] with a CI at 'confidence' (e.g. 0.95). 'scratch'
 * holds n doubles. n == 0 gives n = 0 and every other field NaN.
 */
void rd_stats_summarize(const double *x, size_t n, double confidence,
                        double *scratch, struct rd_summary *out);
/**
 * rd_stats_summarize() for a caller that already has x sorted: 'sorted' is
 * x[0..n-1] ascending (x stays in run order for the sums). Same results.
 */
void rd_stats_summarize_sorted(const double *x, const double *sorted, size_t n,
                               double confidence, struct rd_summary *out);

/**
 * Indices (into x) of values outside Tukey's fences q1 - 1.5 IQR and
 * q3 + 1.5 IQR, ascending, written to idx (room for n). Returns the count.
 */
size_t rd_stats_tukey(const double *x, size_t n, double q1, double q3, size_t *idx);

/** A two-sample Welch comparison of means: a - b. */
struct rd_welch {
    double t, df, p;                 /* two-sided p */
    double diff, ci_low, ci_high;    /* mean_a - mean_b and its Welch CI */
};

/**
 * Welch's unequal-variance t-test from summary statistics (mean, sd, n of
 * each group): the replication test and the core of rd_stats_welch. Fields
 * that are undefined (n < 2, both variances 0, sd unknown) are NaN; diff is
 * defined whenever both means are.
 */
void rd_stats_welch_summary(double mean_a, double sd_a, double n_a,
                            double mean_b, double sd_b, double n_b,
                            double confidence, struct rd_welch *out);
/** Welch's t-test of two samples. */
void rd_stats_welch(const double *a, size_t na, const double *b, size_t nb,
                    double confidence, struct rd_welch *out);

/** Ratio of means mean_a / mean_b with Fieller's CI. */
struct rd_ratio {
    double ratio, ci_low, ci_high, df;
};

/**
 * Fieller's interval for mean_a / mean_b of two independent samples, with
 * Welch-Satterthwaite degrees of freedom for a - R b at the estimate R.
 * ratio is NaN unless mean_b > 0 and mean_a >= 0 (a ratio of amounts:
 * read as "x % faster" it means nothing for a negative mean); the CI is
 * NaN when it is unbounded (the denominator's own CI contains 0) or
 * undefined (n < 2, sd unknown).
 */
void rd_stats_ratio_fieller(double mean_a, double sd_a, double n_a,
                            double mean_b, double sd_b, double n_b,
                            double confidence, struct rd_ratio *out);

/**
 * The paired comparison of a over b from n within-round log ratios log a_r
 * - log b_r with mean mean_log and sd sd_log (docs/methods.md §7a, claims
 * on a workload paired within rounds): ratio exp(mean_log), its interval
 * exp(mean_log +- t sd_log / sqrt n) with Student's t at confidence on
 * n - 1 df (df), and *p the paired t test's two-sided p of mean_log = 0.
 * ratio is NaN when n < 1; the interval and p are NaN when n < 2 or sd_log
 * is not finite. Every ratio the same (sd_log 0): the interval is the
 * ratio itself, p 0 (NaN when that ratio is 1: no test).
 */
void rd_stats_paired_log_ratio(double mean_log, double sd_log, double n, double confidence,
                               struct rd_ratio *out, double *p);

/** Mann-Whitney U test, two-sided. */
struct rd_mwu {
    double u;      /* U of the first sample: R1 - n1 (n1 + 1) / 2 */
    double p;      /* NaN when every value is tied or a sample is empty */
    double a;      /* Vargha-Delaney A = U / (n1 n2) = P(a > b) + P(a = b) / 2 */
    int exact;     /* 1: exact null distribution, 0: normal approximation */
};

/**
 * Mann-Whitney U of samples a and b, each sorted ascending (ranked in one
 * merge, O(na + nb)). Exact p (as scipy.stats.mannwhitneyu method='exact')
 * when there are no ties and both n <= 50, else the normal approximation
 * with tie and continuity corrections (method='asymptotic').
 */
rd_status rd_stats_mann_whitney_sorted(const double *a, size_t na, const double *b, size_t nb,
                                       struct rd_mwu *out);
/** The same by the plain merge of tie blocks, which the one above must
 *  equal to the bit (and takes over past 200,000 values): for its tests. */
rd_status rd_stats_mann_whitney_sorted_blocks(const double *a, size_t na, const double *b,
                                              size_t nb, struct rd_mwu *out);
/** Smallest two-sided exact Mann-Whitney p reachable with these sizes: 2 / C(na+nb, na). */
double rd_stats_mw_min_p(size_t na, size_t nb);

/**
 * Hedges' g = J d, d = (mean_a - mean_b) / pooled sd, J the exact small-sample
 * correction Gamma(m/2) / (sqrt(m/2) Gamma((m-1)/2)), m = na + nb - 2.
 * NaN when m < 2 or the pooled sd is 0.
 */
double rd_stats_hedges_g(double mean_a, double sd_a, double n_a,
                         double mean_b, double sd_b, double n_b);

/** One-way analysis results. */
struct rd_anova {
    double f, df1, df2, p;
};

/** Classic one-way ANOVA of k groups; NaN when undefined (k < 2, zero within variance). */
void rd_stats_anova(const double *const *groups, const size_t *ns, size_t k,
                    struct rd_anova *out);
/** Welch's heteroscedastic one-way ANOVA; NaN when a group has n < 2 or zero variance. */
void rd_stats_welch_anova(const double *const *groups, const size_t *ns, size_t k,
                          struct rd_anova *out);
/**
 * The two ANOVAs above from each group's summary (rd_stats_summarize of
 * groups[g][0..ns[g])): the means and variances it holds are the ones the
 * functions above would work out again, so the results are the same bits,
 * less a pass or three over every value. sums[g] must be the summary of
 * exactly groups[g].
 */
void rd_stats_anova_summarized(const double *const *groups, const size_t *ns,
                               const struct rd_summary *const *sums, size_t k,
                               struct rd_anova *out);
void rd_stats_welch_anova_summarized(const size_t *ns, const struct rd_summary *const *sums,
                                     size_t k, struct rd_anova *out);

struct rd_kruskal {
    double h, df, p;
};
/** Kruskal-Wallis H with tie correction (as scipy.stats.kruskal). */
rd_status rd_stats_kruskal(const double *const *groups, const size_t *ns, size_t k,
                           struct rd_kruskal *out);
/**
 * rd_stats_kruskal of groups each sorted ascending (no NaN), without
 * sorting them again: the same bits as on the groups in any order.
 */
rd_status rd_stats_kruskal_sorted(const double *const *sorted, const size_t *ns, size_t k,
                                  struct rd_kruskal *out);

/**
 * What the Mann-Whitney test of every pair of k groups reads off the one
 * merge of all k that Kruskal-Wallis makes: per ordered pair (g, h) the
 * count of h's values below each of g's (below), per pair the products of
 * their counts in each block of equal values (tied) and the cross terms
 * of those blocks' t^3 - t (tie3), and per group its own tie term (own).
 * k is 0 when there is none (the pairs are then merged one by one).
 */
struct rd_mw_pool {
    size_t k;
    const size_t *ns;
    uint64_t *below, *tied, *tie3; /* [k * k] */
    uint64_t *own;                 /* [k] */
};
/**
 * rd_stats_kruskal_sorted that also fills *pool (released by
 * rd_mw_pool_release) when it merges the groups and they hold at most
 * 200,000 values: its pairs' rd_stats_mann_whitney_pooled then give the
 * bits rd_stats_mann_whitney_sorted gives, without merging each pair.
 */
rd_status rd_stats_kruskal_sorted_pool(const double *const *sorted, const size_t *ns, size_t k,
                                       struct rd_kruskal *out, struct rd_mw_pool *pool);
/** rd_stats_mann_whitney_sorted of groups a and b of a filled pool. */
rd_status rd_stats_mann_whitney_pooled(const struct rd_mw_pool *pool, size_t a, size_t b,
                                       struct rd_mwu *out);
void rd_mw_pool_release(struct rd_mw_pool *pool);

/**
 * Holm's step-down adjusted p-values. NaN inputs stay NaN and do not count
 * in the number of tests m.
 */
rd_status rd_stats_holm(const double *p, size_t m, double *out);
/** Benjamini-Hochberg adjusted p-values (FDR); NaN handled as in rd_stats_holm. */
rd_status rd_stats_bh(const double *p, size_t m, double *out);

/** Mann-Kendall trend test of x in run order. */
struct rd_trend {
    double s;     /* number of concordant minus discordant pairs */
    double tau;   /* Kendall's tau-b against the run index */
    double z;     /* S / sd(S), the tie-corrected variance, no continuity correction */
    double p;     /* two-sided: exact when 'exact', else from z */
    int exact;    /* 1: the exact permutation distribution of S */
};

/* Largest n with the exact null distribution of S: without ties, and with ties. */
#define MK_EXACT_MAX_N 50
#define MK_EXACT_TIES_MAX_N 20

/**
 * Mann-Kendall test of x[0..n-1] (in run order), Kendall's tau-b of
 * (index, x). The p is exact, from the permutation distribution of S given
 * the tie groups, for n <= MK_EXACT_MAX_N without ties (then it equals
 * scipy.stats.kendalltau(method='exact')) and n <= MK_EXACT_TIES_MAX_N
 * with ties; above that the normal approximation with the tie-corrected
 * variance (scipy's method='asymptotic'). All NaN when n < 3, p and tau
 * NaN when every value is tied. RD_ERR_NOMEM leaves the fields NaN.
 */
rd_status rd_stats_mann_kendall(const double *x, size_t n, struct rd_trend *out);
/** rd_stats_mann_kendall with sorted, x's values ascending, given (no sort). */
rd_status rd_stats_mann_kendall_sorted(const double *x, const double *sorted, size_t n,
                                       struct rd_trend *out);

/**
 * Percentile bootstrap CI of the median (only with --bootstrap B): B resamples with replacement drawn
 * with GSL's mt19937 seeded with 'seed', the CI the type-7 quantiles of the B
 * medians at (1 - confidence)/2 and (1 + confidence)/2. Same seed, same
 * bytes. NaN when n == 0 or B == 0.
 */
rd_status rd_stats_bootstrap_median(const double *x, size_t n, size_t B,
                                    unsigned long seed, double confidence,
                                    double *lo, double *hi);

/**
 * The coverage of rd_stats_bootstrap_median's interval as B grows, for any
 * continuous distribution. For odd n the resample median is the order
 * statistic x*_((n+1)/2), and P*(x* <= x_(k)) = P(Binomial(n, k/n) >=
 * (n+1)/2) (Efron 1979, section 3): the interval tends to [x_(l), x_(u)] with
 * l, u where that crosses (1 - confidence)/2 and (1 + confidence)/2, which
 * holds the median with probability P(l <= B <= u - 1), B ~ Binomial(n,
 * 1/2). For even n the mean of the two odd neighbours (an approximation:
 * the resample median is then the midpoint of two order statistics). NaN
 * for n == 0 or n > 100000.
 */
double rd_stats_bootstrap_median_coverage(size_t n, double confidence);

/**
 * Distribution-free CI of the median from order statistics (Conover 1999,
 * section 3.2; Hollander and Wolfe 1999, section 3.6): [x_(l), x_(n-l+1)]
 * with l the largest rank such that P(Binomial(n, 1/2) <= l - 1) <=
 * (1 - confidence) / 2, so that P(l <= B <= n - l) >= confidence. 'sorted'
 * is ascending. *level is that exact coverage, 1 - 2 P(B <= l - 1). All
 * three are NaN when n is too small for any l (n <= 5 at 95 %).
 * O(log n) binomial CDF evaluations; no randomness.
 */
void rd_stats_median_ci_binomial(const double *sorted, size_t n, double confidence,
                                 double *lo, double *hi, double *level);

#endif
