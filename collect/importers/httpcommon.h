/*
 * httpcommon.h - helpers shared by the HTTP load-tool importers (wrk, wrk2,
 * hey, ab; usable by autocannon, bombardier, oha, k6).
 *
 * Two kinds of help: reading one token as a number with a unit and, on
 * failure, writing the house message "expected X, got 'Y'" at the token's
 * line and column; and the percentile metric names every load-tool record
 * shares. When a run counts as failed is loadjudge.h's to say.
 */
#ifndef RUNDOWN_HTTPCOMMON_H
#define RUNDOWN_HTTPCOMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/record.h"
#include "rundown/status.h"
#include "importer.h"
#include "rundown/units.h"
#include "textscan.h"

/*
 * Token readers. Each parses the whole token (trailing garbage is an error),
 * stores the value in *out and returns RD_OK; otherwise fills d with
 * "expected <a ... like '...'>, got '<token>'" at the token and returns
 * RD_ERR_PARSE. A NULL token (missing field) reports "got end of line".
 * NaN spellings (nan, -nan, NaN) are accepted wherever a tool may print them
 * and give NAN; rd_tok_uint never accepts them.
 */
/** A duration with its unit ("635.91us"), in ms; a negative one is refused. */
rd_status rd_tok_duration_ms(const struct rd_line *l, const struct rd_token *t,
                             double *out, struct rd_diag *d);
/** Seconds as plain decimals ("0.0123"), returned in milliseconds; negative
 *  times and times whose milliseconds overflow are refused. */
rd_status rd_tok_seconds_as_ms(const struct rd_line *l, const struct rd_token *t,
                               double *out, struct rd_diag *d);
rd_status rd_tok_double(const struct rd_line *l, const struct rd_token *t,
                        double *out, struct rd_diag *d);
/** A non-negative integer count ("12345"); no sign, no NaN. */
rd_status rd_tok_uint(const struct rd_line *l, const struct rd_token *t,
                      double *out, struct rd_diag *d);
/** A count with an optional k/M/G/T suffix, or NaN ("56.20k", "-nan"). */
rd_status rd_tok_count(const struct rd_line *l, const struct rd_token *t,
                       double *out, struct rd_diag *d);
rd_status rd_tok_size_bytes(const struct rd_line *l, const struct rd_token *t,
                            enum rd_size_base base, double *out, struct rd_diag *d);
/** "75.00%" or "-nan%" (the % is required). */
rd_status rd_tok_percent(const struct rd_line *l, const struct rd_token *t,
                         double *out, struct rd_diag *d);

/**
 * Fills d with "expected <what>, got '<the line, trimmed>'" (or "got an
 * empty line") at the line's first non-blank byte and returns RD_ERR_PARSE:
 * the message for a line that is not what the format has there.
 */
rd_status rd_line_fail(struct rd_diag *d, const char *path, const struct rd_line *l,
                       const char *what);

/** True when the line holds nothing but blanks. */
bool rd_line_is_blank(const struct rd_line *l);

/** Reads one run of a text report into r, from its first line 'first' on
 *  through 'it' (leaving 'it' before the next run). */
typedef rd_status (*rd_text_run_fn)(const struct rd_import_input *in, struct rd_lines *it,
                                    const struct rd_line *first, struct rd_record *r,
                                    struct rd_diag *d);

/**
 * The parse() of a text report that holds one run or several: each line for
 * which starts_run() holds begins a record read by read_run(); other lines
 * between runs are skipped. Input with no run at all fails as
 * rd_no_run_fail() does, with 'what' ("an ab report starting with ...").
 */
rd_status rd_text_runs(const struct rd_import_input *in, bool (*starts_run)(const struct rd_line *),
                       rd_text_run_fn read_run, const char *what, struct rd_recordset *out,
                       struct rd_diag *d);

/**
 * The message for input in which an importer found no run at all: "expected
 * <what>, got '<first non-blank line>'" at that line, or "got empty input".
 * Returns RD_ERR_PARSE.
 */
rd_status rd_no_run_fail(struct rd_diag *d, const char *path, const char *data, size_t len,
                         const char *what);

/**
 * v times 10^exp10, computed in decimal from v's shortest representation, so
 * that 5421.37 us becomes exactly the double nearest 5.42137 ms (plain
 * division can land one ulp away and print as 5.421370000000001). For unit
 * conversions of numbers a tool printed in decimal.
 */
double rd_decimal_scale(double v, int exp10);

/**
 * Writes the metric name for a percentile printed as 'label' (digits with at
 * most one '.', optional trailing '%'): prefix "latency", label "99.900%",
 * suffix "_ms" give "latency_p99_9_ms"; "50" gives "latency_p50_ms".
 * Trailing zeros of the fraction are dropped, so every tool names the same
 * percentile the same way. False when the label is not such a number or out
 * of 0..100, or the name does not fit in 'size'.
 */
bool rd_percentile_metric_name(const char *prefix, const char *label, size_t len,
                               const char *suffix, char *out, size_t size);

#endif
