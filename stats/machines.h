/*
 * machines.h - one ratio measured on several machines: the interval for
 * it with machines as a random level, and whether the machines agree
 * (issue 30, "claims across machines"; docs/methods.md §7b).
 *
 * Each machine gives the log of its ratio (config / reference) y_i and
 * that log's standard error s_i (logratio.h, the verdicts' delta method).
 * Machines are a sample of machines (Kalibera and Jones 2013: replicate
 * at the level where the variance is), so the ratios are pooled by a
 * random-effects meta-analysis: DerSimonian and Laird's (1986) moment
 * estimate of the between-machine variance tau^2, the weights
 * 1 / (s_i^2 + tau^2), and the Hartung-Knapp-Sidik-Jonkman interval
 * (Hartung and Knapp 2001, Sidik and Jonkman 2002): Student's t at k - 1
 * df on the weighted spread of the y_i, which holds its level with few
 * machines where the normal interval does not (IntHout et al. 2014), with
 * Roever, Knapp and Friede's (2015) floor (the spread factor at least 1),
 * so machines that happen to agree closely never give an interval
 * narrower than their own errors allow. Whether they agree is Cochran's
 * Q on the same logs with weights 1 / s_i^2: Q ~ chi-square(k - 1) when
 * every machine measures the same ratio.
 *
 * Pure numerics: no analysis structures, no I/O. GSL gives the quantiles.
 */
#ifndef RUNDOWN_STATS_MACHINES_H
#define RUNDOWN_STATS_MACHINES_H

#include <stdbool.h>
#include <stddef.h>

#include "logratio.h"
#include "rundown/status.h"

/** One machine's ratio: the log of it and the log's standard error. */
struct rd_machine_ratio {
    double log_ratio;
    double se;          /* > 0; NaN or <= 0: the machine's ratio is not estimable */
};

/** The ratio across machines. */
struct rd_between_machines {
    size_t k;           /* machines with an estimable ratio */
    double ratio;       /* exp(the random-effects mean of their log ratios) */
    double low, high;   /* the between-machine interval (DL, HKSJ); NaN with k < 2 */
    double tau2;        /* DerSimonian-Laird between-machine variance of the logs */
    double q, q_p;      /* Cochran's Q and its p (chi-square, k - 1 df); NaN with k < 2 */
    bool consistent;    /* k >= 2 and q_p >= alpha: no sign that machines differ */
};

/**
 * The between-machine interval at 'confidence' (0.95) and the agreement
 * test at 'alpha' (above) over the machines of m[0..n) whose ratio is estimable.
 * RD_ERR_USAGE for confidence or alpha outside (0, 1); RD_ERR_STATS when
 * a quantile fails. With fewer than 2 estimable machines, out->k says how
 * many and the rest is NaN (there is no between-machine claim).
 */
rd_status rd_between_machines(const struct rd_machine_ratio *m, size_t n, double confidence,
                              double alpha, struct rd_between_machines *out);

#endif
