/*
 * chisq.h - quantiles of the chi-square distribution that hold at every
 * df: GSL's (gsl_cdf_chisq_Pinv, _Qinv) are wrong or NaN for large df
 * (chisq.c), and the quadratures over s = sqrt(chi2_df / df) in mcb.c and
 * srange.c bound their integrals with these.
 */
#ifndef RUNDOWN_STATS_CHISQ_H
#define RUNDOWN_STATS_CHISQ_H

/**
 * The x with P(chi2_df <= x) = p, for 0 < p < 1 and df > 0; NaN otherwise.
 * Relative error below 1e-12 against SciPy's chi2.ppf for df up to 10^6
 * and p down to 1e-15 (tests/unit/test_chisq.c).
 */
double rd_chisq_Pinv(double p, double df);

/**
 * The x with P(chi2_df > x) = q, for 0 < q < 1 and df > 0; NaN otherwise.
 * As rd_chisq_Pinv, against chi2.isf.
 */
double rd_chisq_Qinv(double q, double df);

#endif
