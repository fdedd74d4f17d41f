/*
 * chisq.c - chi-square quantiles at every df (chisq.h); no I/O, no records.
 *
 * Below LARGE_DF these are GSL's, which agree with SciPy to 1e-9
 * on df 1 to 1000 at the 1e-14 and 1e-15 tails. From there on GSL's
 * inverse goes wrong (its Newton steps on the gamma cdf stop early): the
 * upper 1e-15 quantile 5752.65 against SciPy's 5835.99 at df = 5000,
 * 62584.5 against 64155.9 at df = 61,333 (where its own tail is 1.9e-4,
 * not 1e-15), the lower 1e-14 one NaN from about df = 50,000 on, and at
 * df = 10^6 the upper one below df. GSL's cdfs stay right there (its
 * upper tail at SciPy's quantiles is 1e-15 to 13 digits at df = 61,333
 * and 10^6), so the quantile is found on them: Wilson and Hilferty's
 * cube root normal approximation (chi2_df / df)^(1/3) ~ N(1 - 2 / (9 df),
 * 2 / (9 df)) gives a start a few 1e-4 off at df = 1000 and closer
 * beyond, and Newton's method on the log of the tail (nearly linear in x
 * out there) takes it to the root in a few steps.
 */
#include "chisq.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

enum { NEWTON_STEPS = 20 };
static const double LARGE_DF = 1000;

/* The quantile whose tail (the upper one for upper, else the lower) is
 * tail, from Wilson-Hilferty's start. */
static double large_df_quantile(double tail, double df, int upper)
{
    double v = 2 / (9 * df), z = gsl_cdf_ugaussian_Qinv(tail);
    double c = 1 - v + (upper ? z : -z) * sqrt(v);
    double x = df * c * c * c, log_tail = log(tail);
    for (int i = 0; i < NEWTON_STEPS; i++) {
        double t = upper ? gsl_cdf_chisq_Q(x, df) : gsl_cdf_chisq_P(x, df);
        double pdf = gsl_ran_chisq_pdf(x, df);
        if (!(t > 0) || !(pdf > 0))
            return NAN;
        /* d log t / dx is -pdf / t for the upper tail, +pdf / t for the
         * lower one. */
        double step = (log(t) - log_tail) * t / pdf;
        x += upper ? step : -step;
        if (fabs(step) <= 1e-14 * x)
            break;
    }
    return x;
}

/* The quantile whose upper (upper) or lower tail is 'tail'. */
static double quantile(double tail, double df, int upper)
{
    if (!(tail > 0 && tail < 1) || !(df > 0) || isinf(df))
        return NAN;
    if (df < LARGE_DF)
        return upper ? gsl_cdf_chisq_Qinv(tail, df) : gsl_cdf_chisq_Pinv(tail, df);
    /* Newton on the smaller tail, whose log is the near-linear one. */
    if (tail > 0.5)
        return large_df_quantile(1 - tail, df, !upper);
    return large_df_quantile(tail, df, upper);
}

double rd_chisq_Pinv(double p, double df)
{
    return quantile(p, df, 0);
}

double rd_chisq_Qinv(double q, double df)
{
    return quantile(q, df, 1);
}
