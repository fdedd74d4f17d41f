/*
 * srange.h - the studentized range distribution (Tukey 1953).
 *
 * The range of k independent standard normal means divided by an
 * independent estimate of their sd with 'df' degrees of freedom. It gives
 * the one critical value that holds for every comparison with a best
 * config chosen from the same data (the largest of those differences is
 * the range), which is what the verdicts of analyze need (docs/methods.md,
 * "Verdicts"). Written by hand: GSL, the numerics library we use, has no
 * studentized range; R's ptukey/qtukey were the reference for the tests.
 */
#ifndef RUNDOWN_ANALYZE_SRANGE_H
#define RUNDOWN_ANALYZE_SRANGE_H

/**
 * P(Q <= q) for the studentized range of k >= 2 means with df > 0 degrees
 * of freedom (df = INFINITY: a known sd). NaN for k < 2, df <= 0 or a NaN
 * argument; 0 for q <= 0. Absolute error below 1e-9 (it is 1 minus
 * rd_srange_sf).
 */
double rd_srange_cdf(double q, double k, double df);

/**
 * P(Q > q), the p-value of an observed range q; see rd_srange_cdf. Small
 * values keep their relative precision (1e-8) down to about 1e-28, and
 * tails below about 1e-30 are 0. The first calls for a k build a table of
 * that k (milliseconds), kept per thread for the last sixteen k; later
 * calls with the same k cost tens of microseconds. From k = 200 on, the
 * tail of each (k, df) is tabled in turn, kept per thread for the last
 * eight: a workload of k configs asks for k - 1 tails at one k and df,
 * and after the first few hundred each costs about a microsecond, which
 * is what a p for each of 10^5 configs needs. The value depends on the
 * arguments alone, never on the calls before.
 */
double rd_srange_sf(double q, double k, double df);

/**
 * rd_srange_sf by the integral itself, never from a table of the tail:
 * the reference the tables are tested against (rd_srange_sf is this for
 * k < 200).
 */
double rd_srange_sf_integral(double q, double k, double df);

/**
 * The q with P(Q <= q) = p, for 0 < p < 1; NaN outside that range or for
 * the arguments rd_srange_cdf refuses.
 */
double rd_srange_quantile(double p, double k, double df);

/** Frees this thread's tables (they are made as first needed and kept
 *  for the thread's next calls); call it before a thread that used them
 *  ends. The next call makes them again. */
void rd_srange_release_thread(void);

#endif
