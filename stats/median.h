/*
 * median.h - the median of a sample, by GSL (gsl_sort and
 * gsl_stats_median_from_sorted_data), for stages that do not link GSL
 * themselves: rundown-collect's end-of-run summary (collect/runsummary.c)
 * prints the median its hyperfine-style lines promise.
 */
#ifndef RUNDOWN_STATS_MEDIAN_H
#define RUNDOWN_STATS_MEDIAN_H

#include <stddef.h>

/**
 * The median of v[0..n): the middle value of the sorted sample, the mean
 * of the two middle ones for even n (R's median(), Hyndman-Fan type 7 at
 * 1/2). Sorts v in place. NaN when n is 0.
 */
double rd_median_sort(double *v, size_t n);

#endif
