/*
 * mcb.h - the critical value of Hsu's multiple comparisons with the best
 * (Hsu 1981, 1996 ch. 4), one-sided.
 *
 * For k means, the one-sided critical value d of the comparisons of one
 * of them with each of the other k - 1 (Dunnett 1955, one-sided, the
 * comparisons correlated 1/2 as with equal variances): with k standard
 * normals Z_0..Z_{k-1} and an independent s = sqrt(chi2_df / df),
 *   P(max_i (Z_i - Z_0) / sqrt 2 <= d s) = 1 - alpha,
 *   that is  Int f_df(s) Int phi(z) Phi(z + sqrt 2 d s)^(k-1) dz ds = 1 - alpha.
 * Hsu's constrained intervals for "how far from the best" use it; an
 * interval of log R +- d se is a 1 - 2 alpha two-sided interval, the one
 * two one-sided tests at level alpha read (Schuirmann 1987). Written by
 * hand: GSL has no multivariate t; R's mvtnorm was not used either, the
 * tests check it against R's integrate() and qt() (k = 2).
 */
#ifndef RUNDOWN_STATS_MCB_H
#define RUNDOWN_STATS_MCB_H

/**
 * P(max of the k - 1 comparisons <= d) for k >= 2 means at df > 0 degrees
 * of freedom (INFINITY: a known sd). NaN for k < 2, df <= 0 or NaN input.
 * Absolute error below about 1e-9.
 */
double rd_mcb_cdf(double d, double k, double df);

/**
 * The d with rd_mcb_cdf(d, k, df) = p, 0 < p < 1; for k = 2 Student's t
 * quantile at p. NaN where rd_mcb_cdf is.
 */
double rd_mcb_quantile(double p, double k, double df);

#endif
