/*
 * moments.h - a sample's mean and spread, of its values and of their
 * logs, for the relative variance of a ratio of means (logratio.h,
 * rd_rel_var): the running form for the collector and the race replay,
 * which see one value at a time, and the sd of the logs of an array.
 *
 * Why by hand: GSL's gsl_rstat keeps a heap workspace (with a median
 * estimator) per sample, which the collector's per-config state, copied
 * and reset freely, would have to own; Welford's update is three lines.
 */
#ifndef RUNDOWN_STATS_MOMENTS_H
#define RUNDOWN_STATS_MOMENTS_H

#include <stdbool.h>
#include <stddef.h>

/** Welford's running moments; all zero is the sample of no values. */
struct rd_moments {
    double n, mean, m2;       /* the values */
    double log_mean, log_m2;  /* their logs, while every value is positive */
    bool nonpositive;         /* a value was 0 or negative: no logs */
};

/** Adds the value x (finite). */
void rd_moments_add(struct rd_moments *m, double x);

/** The sample sd of the values; NaN below 2. */
double rd_moments_sd(const struct rd_moments *m);

/** The sample sd of the logs; 0 below 2 values or when one was not
 *  positive (struct rd_ratio_side's "unknown"). */
double rd_moments_log_sd(const struct rd_moments *m);

/** rd_moments_log_sd of the n values x[0..n). */
double rd_log_sd(const double *x, size_t n);

#endif
