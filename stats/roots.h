/*
 * roots.h - the one root search of stats/: Brent's method (GSL) on a
 * bracket, for the quantiles of srange.c and mcb.c.
 */
#ifndef RUNDOWN_STATS_ROOTS_H
#define RUNDOWN_STATS_ROOTS_H

/**
 * The x in [lo, hi] with f(x, arg) = 0, f(lo) and f(hi) of opposite signs,
 * to an absolute width of tol; NaN when GSL cannot start or iterate.
 */
double rd_root_brent(double (*f)(double x, void *arg), void *arg, double lo, double hi,
                     double tol);

#endif
