/*
 * roots.c - Brent's method on a bracket, a cdf's quantile by it (see roots.h).
 */
#include <math.h>
#include <stdbool.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "roots.h"

double rd_root_brent(double (*f)(double x, void *arg), void *arg, double lo, double hi,
                     double tol)
{
    gsl_function fn = { f, arg };
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!s)
        return NAN;
    double root = NAN;
    if (gsl_root_fsolver_set(s, &fn, lo, hi) == GSL_SUCCESS) {
        for (int iter = 0; iter < 200; iter++) {
            if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
                break;
            double a = gsl_root_fsolver_x_lower(s), b = gsl_root_fsolver_x_upper(s);
            root = gsl_root_fsolver_root(s);
            if (gsl_root_test_interval(a, b, 0, tol) == GSL_SUCCESS)
                break;
        }
    }
    gsl_root_fsolver_free(s);
    return root;
}

struct quantile {
    double (*cdf)(double x, void *arg);
    void *arg;
    double p;
};

static double cdf_minus_p(double x, void *arg)
{
    const struct quantile *q = arg;
    return q->cdf(x, q->arg) - q->p;
}

double rd_root_quantile(double (*cdf)(double x, void *arg), void *arg, double p, double lo,
                        double hi, bool raise_lo, double tol)
{
    struct quantile q = { cdf, arg, p };
    double at_hi;
    while ((at_hi = cdf_minus_p(hi, &q)) < 0) {
        if (raise_lo)
            lo = hi;
        hi *= 2;
        if (hi > 1e6)
            return NAN;
    }
    if (isnan(at_hi) || !(cdf_minus_p(lo, &q) <= 0))
        return NAN;
    return rd_root_brent(cdf_minus_p, &q, lo, hi, tol);
}
