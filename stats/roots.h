/*
 * roots.h - the one root search of stats/: Brent's method (GSL) on a
 * bracket, and the quantile of a cdf by it, for srange.c and mcb.c.
 */
#ifndef RUNDOWN_STATS_ROOTS_H
#define RUNDOWN_STATS_ROOTS_H

#include <stdbool.h>

/**
 * The x in [lo, hi] with f(x, arg) = 0, f(lo) and f(hi) of opposite signs,
 * to an absolute width of tol; NaN when GSL cannot start or iterate.
 */
double rd_root_brent(double (*f)(double x, void *arg), void *arg, double lo, double hi,
                     double tol);

/**
 * The quantile of a continuous cdf at p in (0, 1): the x with
 * cdf(x, arg) = p, to an absolute width of tol. The bracket starts at
 * [lo, hi] (lo < hi): hi doubles while cdf(hi) < p, and with raise_lo lo
 * moves up to each hi that fell short (a narrower bracket; without it the
 * search keeps lo, and its last digits differ). NaN when hi would pass 1e6, when cdf(lo) > p, or
 * when the search fails; a NaN cdf at lo or hi gives NaN too.
 */
double rd_root_quantile(double (*cdf)(double x, void *arg), void *arg, double p, double lo,
                        double hi, bool raise_lo, double tol);

#endif
