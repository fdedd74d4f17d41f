/*
 * nested.h - the variance of a mean whose values come from several
 * sessions (docs/methods.md §6a, "Sessions as a level of variance";
 * Kalibera and Jones 2013).
 *
 * Runs of one config taken in m sessions (collections, machines' boots,
 * days) are not m n independent draws: each session adds an offset of its
 * own, drawn once for all its runs. The one-way random-effects model
 * y_jr = mu + b_j + e_jr, b_j ~ (0, s_b^2), e_jr ~ (0, s_w^2), gives the
 * plain mean of all N = sum n_j values the variance
 *   var(mean) = s_b^2 sum n_j^2 / N^2 + s_w^2 / N,
 * which for m sessions of n runs each is s_b^2 / m + s_w^2 / (m n). Its
 * parts are estimated by the ANOVA method of moments (Searle, Casella
 * and McCulloch 1992, §3.5): s_w^2 = MSW, s_b^2 = max(0, (MSB - MSW) / n0)
 * with n0 = (N - sum n_j^2 / N) / (m - 1); the estimate of var(mean) is
 * then a linear combination a MSB + b MSW, and its degrees of freedom
 * Satterthwaite's (m - 1 when the sessions are of one size: the variance
 * of the session means over m), at least min(m - 1, N - m): with unequal
 * sessions b < 0, where Satterthwaite's df can fall below both. When s_b^2 is estimated 0 the estimate is
 * MSW / N at N - m degrees of freedom.
 *
 * Pure numerics, no I/O.
 */
#ifndef RUNDOWN_STATS_NESTED_H
#define RUNDOWN_STATS_NESTED_H

#include <stddef.h>
#include <stdint.h>

struct rd_nested {
    size_t sessions;     /* sessions holding at least one value */
    double var_between;  /* s_b^2 (>= 0) */
    double var_within;   /* s_w^2 */
    double share;        /* s_b^2 / (s_b^2 + s_w^2); 0 when both are 0 */
    double var_mean;     /* the variance of the plain mean of all values */
    double df;           /* Satterthwaite's degrees of freedom of var_mean */
};

/**
 * The two-level variance of the mean of x[0..n), value i from session
 * session[i] (any numbers below nsessions). Fills out and returns 1 when
 * the values come from 2 sessions or more and some session holds 2 values
 * or more (N > m: a within-session spread exists); returns 0 otherwise
 * (out->sessions still counts the sessions; the other fields NaN), when
 * the single-level variance s^2 / N is the right one. -1 when the scratch
 * space cannot be had.
 */
int rd_nested_mean_var(const double *x, const uint32_t *session, size_t n, size_t nsessions,
                       struct rd_nested *out);

#endif
