/*
 * numfmt.h - numbers as a reader wants to see them in a report.
 *
 * Significant digits instead of a fixed number of decimals, thousands
 * separators, "< 0.001" for small p-values, and an em dash for a value that
 * is undefined (NaN, which is how the model carries JSON null): the report
 * never prints a number that the analysis did not produce.
 */
#ifndef RD_RENDER_NUMFMT_H
#define RD_RENDER_NUMFMT_H

#include "rundown/buf.h"

/** What an undefined value prints as (UTF-8 em dash). */
#define RD_UNDEF "\xe2\x80\x94"

/**
 * Decimals that show 'sig' significant digits of v (0 for |v| >= 10^(sig-1),
 * at most 12); 0 for NaN or 0.
 */
int rd_fmt_decimals(double v, int sig);

/** Appends v with 'decimals' decimals and thousands separators ("41,230.5"). */
rd_status rd_fmt_fixed(struct rd_buf *out, double v, int decimals);

/** Appends v with 'sig' significant digits (rd_fmt_decimals) and separators;
 *  very small magnitudes (< 1e-4) use e-notation ("3.2e-07"). */
rd_status rd_fmt_num(struct rd_buf *out, double v, int sig);

/** Appends a p-value: "< 0.001", "0.004", "0.61", or the em dash. */
rd_status rd_fmt_p(struct rd_buf *out, double p);

/** Appends a ratio with 3 significant digits and a multiplication sign. */
rd_status rd_fmt_ratio(struct rd_buf *out, double r);

/** Appends a relative change (0.008 -> "+0.8 %") with a sign. */
rd_status rd_fmt_pct(struct rd_buf *out, double frac);

/**
 * Appends "mean ± half" where half = (hi - lo) / 2, both with the decimals
 * that give the mean 4 significant digits; just the mean when the CI is
 * undefined, the em dash when the mean is.
 */
rd_status rd_fmt_mean_ci(struct rd_buf *out, double mean, double lo, double hi);

/** Appends "lo to hi" with the decimals of 'ref' at 4 significant digits. */
rd_status rd_fmt_range(struct rd_buf *out, double lo, double hi, double ref);

#endif
