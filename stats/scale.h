/*
 * scale.h - scaling by powers of two, so that sums of squares stay in the
 * double range.
 *
 * Multiplying by 2^e is exact short of overflow and underflow, so a sum of
 * squares of values scaled near 1 rounds exactly as the plain sum does
 * whenever the plain one stays in range, and stays right when it would
 * not: the squares of deviations of 1e300 are 1e600 (infinite in double)
 * and those of 1e-170 are 1e-340 (zero). Callers scale only when a value
 * is outside [RD_SCALE_SAFE_LOW, RD_SCALE_SAFE_HIGH], so ordinary data give
 * the same bits as the formulas written plainly.
 */
#ifndef RUNDOWN_STATS_SCALE_H
#define RUNDOWN_STATS_SCALE_H

#define RD_SCALE_SAFE_LOW 0x1p-400
#define RD_SCALE_SAFE_HIGH 0x1p400

/** The e that brings |m| into [0.5, 1) as m 2^-e when |m| is outside the
 *  safe range; 0 inside it (and for 0, infinities and NaN). */
int rd_scale_exp(double m);

#endif
