/*
 * machines.h - one ratio measured on several machines: the interval for
 * it with machines as a random level, and whether the machines agree
 * (issue 30, "claims across machines"; docs/methods.md).
 *
 * Each machine gives the log of its ratio (config / reference) and that
 * log's standard error. Machines are a sample of machines: the interval
 * is Student's t on the machines' log ratios, mean +- t(k-1) sd / sqrt k,
 * so its width comes from how far the machines differ (Kalibera and Jones
 * 2013: replicate at the level where the variance is), and it is made
 * back into a ratio with exp. Whether they agree is Cochran's Q on the
 * same logs with weights 1 / se^2: Q ~ chi-square(k - 1) when every
 * machine measures the same ratio. An interim module of its own (log-ratio
 * intervals): when the verdicts' shared log-scale interval lands, the
 * per-machine logs and errors come from it.
 *
 * Pure numerics: no analysis structures, no I/O. GSL gives the quantiles.
 */
#ifndef RUNDOWN_STATS_MACHINES_H
#define RUNDOWN_STATS_MACHINES_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

/** One machine's ratio of two means, on the log scale. */
struct rd_log_ratio {
    double log_ratio;   /* log(mean1 / mean2); NaN when not estimable */
    double se;          /* its standard error (delta method) */
    double df;          /* Welch-Satterthwaite degrees of freedom */
    double low, high;   /* the ratio's interval: exp(log_ratio -+ t(df) se) */
};

/**
 * The ratio mean1 / mean2 of two samples (mean, sd, n each) on the log
 * scale: log(mean1) - log(mean2) with the delta method's standard error
 * sqrt(sd1^2 / (n1 mean1^2) + sd2^2 / (n2 mean2^2)) and Welch's degrees
 * of freedom for those two parts, so the interval is always positive. Not
 * estimable (NaN) when a mean is not positive or an n is below 2; a zero
 * standard error gives the point as its interval. RD_ERR_USAGE for a
 * confidence outside (0, 1), RD_ERR_STATS when the quantile fails.
 */
rd_status rd_log_ratio(double mean1, double sd1, double n1, double mean2, double sd2, double n2,
                       double confidence, struct rd_log_ratio *out);

/** One machine's ratio: the log of it and the log's standard error. */
struct rd_machine_ratio {
    double log_ratio;
    double se;          /* > 0; NaN or <= 0: the machine's ratio is not estimable */
};

/** The ratio across machines. */
struct rd_between_machines {
    size_t k;           /* machines with an estimable ratio */
    double ratio;       /* exp(mean of their log ratios) */
    double low, high;   /* the between-machine interval; NaN with k < 2 */
    double q, q_p;      /* Cochran's Q and its p (chi-square, k - 1 df); NaN with k < 2 */
    bool consistent;    /* k >= 2 and q_p >= alpha: no sign that machines differ */
};

/**
 * The between-machine interval at 'confidence' (0.95) and the agreement
 * test at 'alpha' over the machines of m[0..n) whose ratio is estimable.
 * RD_ERR_USAGE for confidence or alpha outside (0, 1); RD_ERR_STATS when
 * a quantile fails. With fewer than 2 estimable machines, out->k says how
 * many and the rest is NaN (there is no between-machine claim).
 */
rd_status rd_between_machines(const struct rd_machine_ratio *m, size_t n, double confidence,
                              double alpha, struct rd_between_machines *out);

#endif
