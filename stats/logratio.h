/*
 * logratio.h - the ratio of two means on the log scale, by the delta
 * method: the one spelling of that standard error and its Welch degrees
 * of freedom. The verdicts (verdict.c: config / best) and the claims
 * across machines (machines.c, analyze/crossmachine.c: each machine's
 * ratio) both read it, so a machine's ratio in the cross-machine section
 * has the same standard error as the verdict behind it.
 *
 *   log R = log m1 - log m2
 *   se^2  = s1^2 / (n1 m1^2) + s2^2 / (n2 m2^2)       (v1 + v2)
 *   df    = (v1 + v2)^2 / (v1^2 / (n1 - 1) + v2^2 / (n2 - 1))
 *
 * Pure numerics: no analysis structures, no I/O. GSL gives the quantile.
 */
#ifndef RUNDOWN_STATS_LOGRATIO_H
#define RUNDOWN_STATS_LOGRATIO_H

#include "rundown/status.h"

/**
 * The delta method's standard error of log(mean1) - log(mean2) (above);
 * *df (may be NULL) gets Welch-Satterthwaite's degrees of freedom of its
 * two parts, NaN when both parts are 0 or a mean is 0. The caller checks
 * that the means are positive and each n at least 2.
 */
double rd_log_ratio_se(double mean1, double sd1, double n1, double mean2, double sd2, double n2,
                       double *df);

/** One ratio of two means, on the log scale. */
struct rd_log_ratio {
    double log_ratio;   /* log(mean1 / mean2); NaN when not estimable */
    double se;          /* its standard error (rd_log_ratio_se) */
    double df;          /* Welch-Satterthwaite degrees of freedom */
    double low, high;   /* the ratio's interval: exp(log_ratio -+ t(df) se) */
};

/**
 * The ratio mean1 / mean2 of two samples (mean, sd, n each) with its
 * interval at 'confidence' on the log scale (rd_log_ratio_se, Student's t
 * at Welch's df), so the interval is always positive. Not estimable (NaN)
 * when a mean is not positive or an n is below 2; a zero standard error
 * gives the point as its interval. RD_ERR_USAGE for a confidence outside
 * (0, 1), RD_ERR_STATS when the quantile fails.
 */
rd_status rd_log_ratio(double mean1, double sd1, double n1, double mean2, double sd2, double n2,
                       double confidence, struct rd_log_ratio *out);

#endif
