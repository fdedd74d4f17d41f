/*
 * logratio.h - the ratio of two means on the log scale, by the delta
 * method: the one spelling of that standard error and its Welch degrees
 * of freedom. The verdicts (verdict.c: config / best) and the claims
 * across machines (machines.c, analyze/crossmachine.c: each machine's
 * ratio) both read it, so a machine's ratio in the cross-machine section
 * has the same standard error as the verdict behind it.
 *
 *   log R = log m1 - log m2
 *   se^2  = c1 / n1 + c2 / n2                          (v1 + v2)
 *   df    = (v1 + v2)^2 / (v1^2 / (n1 - 1) + v2^2 / (n2 - 1))
 *
 * c the relative variance of one run (its CV^2), estimated as the larger
 * of (s / m)^2 and exp(s_log^2) - 1, s_log the sd of the log values
 * (rd_rel_var): the first alone runs liberal on right-skewed runs, whose
 * mean and sd rise and fall together (a sample that came out low also
 * looks precise), the second alone on a few high outliers among
 * symmetric runs; the larger of the two is neither (docs/methods.md §6).
 *
 * Pure numerics: no analysis structures, no I/O. GSL gives the quantile.
 */
#ifndef RUNDOWN_STATS_LOGRATIO_H
#define RUNDOWN_STATS_LOGRATIO_H

#include "rundown/status.h"

/** One sample as a ratio of means reads it. */
struct rd_ratio_side {
    double n, mean, sd;
    /* the sd of the log values, on sd's footing (log_sd^2 / n is the
     * variance of the mean of the logs); 0 when unknown or some value is
     * not positive: the linear estimate alone then */
    double log_sd;
};

/**
 * The relative variance of one run (CV^2) of a sample of mean 'mean',
 * sd 'sd' and log-scale sd 'log_sd' (struct rd_ratio_side): the larger of
 * (sd / mean)^2 and exp(log_sd^2) - 1. NaN when the mean is 0 or either
 * is not finite.
 */
double rd_rel_var(double mean, double sd, double log_sd);

/**
 * The delta method's standard error of log(mean1) - log(mean2) (above);
 * *df (may be NULL) gets Welch-Satterthwaite's degrees of freedom of its
 * two parts, NaN when both parts are 0 or a mean is 0. The caller checks
 * that the means are positive and each n at least 2.
 */
double rd_log_ratio_se(const struct rd_ratio_side *a, const struct rd_ratio_side *b, double *df);

/** One ratio of two means, on the log scale. */
struct rd_log_ratio {
    double log_ratio;   /* log(mean1 / mean2); NaN when not estimable */
    double se;          /* its standard error (rd_log_ratio_se) */
    double df;          /* Welch-Satterthwaite degrees of freedom */
    double low, high;   /* the ratio's interval: exp(log_ratio -+ t(df) se) */
};

/**
 * The ratio a.mean / b.mean of two samples with its
 * interval at 'confidence' on the log scale (rd_log_ratio_se, Student's t
 * at Welch's df), so the interval is always positive. Not estimable (NaN)
 * when a mean is not positive or an n is below 2; a zero standard error
 * gives the point as its interval. RD_ERR_USAGE for a confidence outside
 * (0, 1), RD_ERR_STATS when the quantile fails.
 */
rd_status rd_log_ratio(const struct rd_ratio_side *a, const struct rd_ratio_side *b,
                       double confidence, struct rd_log_ratio *out);

#endif
