/*
 * numfmt.h - one way to say a number, for every text rundown writes: the
 * report's tables (render/) and the analysis's sentences (analyze/'s
 * recommendation reason) call the same functions, so a comparison reads
 * "2.73× slower" in a table and in the sentence beside it.
 *
 * The rules, each in one place:
 * - significant digits instead of a fixed number of decimals, thousands
 *   separators, "< 0.001" for small p-values, an em dash for a value that
 *   is undefined (NaN, which is how JSON null travels): nothing is printed
 *   that the analysis did not produce;
 * - a ratio X / ref is a factor with words when one side is at least 1.5
 *   times the other ("2.73× slower", "1.54× faster", always >= 1), and a
 *   signed percentage below that ("+3.1 %", "-22 %"): rd_rel_is_factor;
 * - "±" is always a CI half-width (rd_fmt_mean_ci); an sd is labelled sd
 *   by the caller;
 * - KiB figures are shown in MiB, in tables and sentences alike
 *   (rd_unit_shown);
 * - a metric is named by its registry label ("server RSS peak"), a config
 *   by its label values in one order: runtime, mechanism, then the other
 *   keys alphabetically, numeric values as key=value ("bun / worker /
 *   workers=4").
 *
 * Every function appends to an rd_buf and returns RD_OK or RD_ERR_NOMEM.
 */
#ifndef RUNDOWN_NUMFMT_H
#define RUNDOWN_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/buf.h"
#include "rundown/record.h"

/** What an undefined value prints as (UTF-8 em dash). */
#define RD_UNDEF "\xe2\x80\x94"

/** A ratio is said as a factor from this far on either side of 1. */
#define RD_FACTOR_FROM 1.5

/**
 * Decimals that show 'sig' significant digits of v (0 for |v| >= 10^(sig-1),
 * at most 12); sig - 1 for NaN or 0.
 */
int rd_fmt_decimals(double v, int sig);

/** Appends v with 'decimals' decimals and thousands separators ("41,230.5"). */
rd_status rd_fmt_fixed(struct rd_buf *out, double v, int decimals);

/** Appends v with 'sig' significant digits (rd_fmt_decimals) and separators;
 *  very small magnitudes (< 1e-4) use e-notation ("3.2e-07"). */
rd_status rd_fmt_num(struct rd_buf *out, double v, int sig);

/** Appends a p-value: "< 0.001", "0.004", "0.61", or the em dash. */
rd_status rd_fmt_p(struct rd_buf *out, double p);

/** Appends a bare ratio with 3 significant digits and "×" ("0.366×"). */
rd_status rd_fmt_ratio(struct rd_buf *out, double r);

/** Appends a bare ratio and its interval, "1.82× (1.55–2.12×)"; just the
 *  ratio when an end is undefined. */
rd_status rd_fmt_ratio_ci(struct rd_buf *out, double r, double lo, double hi);

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

/** True when ratio is said as a factor (>= 1.5 or <= 1/1.5), false for a
 *  percentage (and for NaN). */
bool rd_rel_is_factor(double ratio);

/**
 * Appends ratio = X / ref in words: "2.73× slower" (a time, X the larger),
 * "1.60× slower" (a rate, X the smaller), "2.1× larger" (a size), "1.8×
 * higher" (anything else), or "+3.1 %" / "-22 %" below 1.5×; the em dash
 * when undefined. 'unit' is the metric's unit ("ms", "req/s", "KiB", ...;
 * NULL or "" for none).
 */
rd_status rd_fmt_rel(struct rd_buf *out, double ratio, const char *unit);

/**
 * Appends the interval lo..hi of that ratio in the same words' terms:
 * "2.63–2.84×" for a factor (inverted, like the factor, when X is the
 * smaller) or "-25 to +38 %" for a percentage. Appends nothing when an end
 * is undefined or, for an inverted factor, not positive.
 */
rd_status rd_fmt_rel_interval(struct rd_buf *out, double ratio, double lo, double hi);

/** rd_fmt_rel, then " (interval)" when rd_fmt_rel_interval has one. */
rd_status rd_fmt_relative(struct rd_buf *out, double ratio, double lo, double hi,
                          const char *unit);

/**
 * The unit a value of 'unit' is shown in, and the factor that converts it:
 * KiB are shown as MiB (scale 1/1024); any other unit as itself (1). NULL
 * reads as "".
 */
const char *rd_unit_shown(const char *unit, double *scale);

/** Appends v in its shown unit at 4 significant digits: "47.11 MiB",
 *  "326.1 ms"; the em dash when undefined. */
rd_status rd_fmt_amount(struct rd_buf *out, double v, const char *unit);

/** Appends "mean ± half unit" in the shown unit (rd_fmt_mean_ci). */
rd_status rd_fmt_amount_ci(struct rd_buf *out, double mean, double lo, double hi,
                           const char *unit);

/**
 * Appends a metric's registry label ("Server RSS peak"), or the name itself
 * for a metric the registry does not know. With 'inline_text' the first
 * letter is lower-cased when the second is lower case too ("server RSS
 * peak", "wall time"), for use inside a sentence.
 */
rd_status rd_fmt_metric(struct rd_buf *out, const char *metric, bool inline_text);

/** The order of label keys in a config name and in label columns:
 *  runtime, then mechanism, then the others by strcmp. */
int rd_label_key_cmp(const char *a, const char *b);

/** True when a label value is a whole number or decimal ("4", "0.5"). */
bool rd_label_is_number(const char *value);

/**
 * Appends a config's display name: its label values in rd_label_key_cmp
 * order joined by " / ", numeric values as "key=value". Labels without a
 * value are skipped; appends nothing for none.
 */
rd_status rd_fmt_config_name(struct rd_buf *out, const struct rd_kv *labels, size_t n);

#endif
