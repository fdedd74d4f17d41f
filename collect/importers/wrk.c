/*
 * wrk - the importer for wrk's text report, and the report parser that the
 * wrk2 importer shares (see wrkfamily.h).
 *
 * The report is a fixed sequence of printf lines (wg/wrk src/wrk.c; notes in
 * ../shared/formats/wrk.md and wrk2.md). Lines are located by their first
 * words and split on blanks, never by column: wrk pads one-letter units with
 * a trailing space, truncates the Avg column to 8 characters, and wrk2
 * inserts whole HdrHistogram blocks. Everything before "Running" is ignored
 * except a wrk command line (it is the only place wrk2's -R rate is
 * printed); everything after "Transfer/sec:" belongs to a Lua done() script
 * and is read only when it is JSON.
 *
 * Conversions: durations to ms with units.c (m is minutes), sizes with the
 * 1024 base (wrk's format_binary), Req/Sec with the 1000 base (k, M). The
 * Req/Sec row is per thread, so it is kept apart from the total rps.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "httpcommon.h"
#include "loadjudge.h"
#include "rundown/json.h"
#include "wrkdone.h"
#include "wrkfamily.h"

#define MAX_TOKENS 24

struct parser {
    const struct rd_import_input *in;
    struct rd_lines it;
    struct rd_diag *d;
    enum rd_wrk_flavour fl;
    /* A wrk command line seen before the next report, or NULL. */
    struct rd_line command;
    bool have_command;
};

/* ---- small helpers ---- */

static rd_status fail_eof(struct parser *p, const char *what)
{
    return rd_diag_set(p->d, RD_ERR_PARSE, p->in->path, p->it.no + 1, 1,
                       "expected %s, got end of input", what);
}

static rd_status fail_line(struct parser *p, const struct rd_line *l, const char *what)
{
    return rd_line_fail(p->d, p->in->path, l, what);
}

/* The next line, which must exist. */
static rd_status need_line(struct parser *p, struct rd_line *l, const char *what)
{
    if (!rd_lines_next(&p->it, l))
        return fail_eof(p, what);
    return RD_OK;
}

/* A copy of a token without one trailing character in 'strip' (the commas
 * and brackets glued to numbers in "30.00s," and "6.339,"). */
static struct rd_token strip_tail(struct rd_token t, const char *strip)
{
    if (t.len > 1 && strchr(strip, t.ptr[t.len - 1]))
        t.len--;
    return t;
}

static bool is_running_line(const struct rd_line *l)
{
    struct rd_token tok[6];
    size_t n = rd_tokenize(l, tok, 6);
    return n >= 5 && rd_token_is(&tok[0], "Running") && rd_token_is(&tok[2], "test") &&
           rd_token_is(&tok[3], "@");
}

/* wrk's fatal "unable to connect to %s:%s %s" (stderr, in a 2>&1 capture):
 * the run happened and measured nothing. */
static bool is_connect_failure(const struct rd_line *l)
{
    return rd_line_starts_with(l, "unable to connect to ");
}

/* True when the token names the wrk or wrk2 binary ("wrk", "./wrk2",
 * "/opt/wrk2/wrk"). */
static bool names_wrk(const struct rd_token *t)
{
    size_t start = t->len;
    while (start > 0 && t->ptr[start - 1] != '/')
        start--;
    struct rd_token base = { t->ptr + start, t->len - start, t->col };
    return rd_token_is(&base, "wrk") || rd_token_is(&base, "wrk2");
}

/* A shell line running wrk ("$ wrk -t2 ..."), kept for the next report:
 * wrk2 never prints its -R rate, so the command is the only record of it. */
static bool is_command_line(const struct rd_line *l)
{
    struct rd_token tok[3];
    size_t n = rd_tokenize(l, tok, 3);
    if (n == 0)
        return false;
    size_t i = 0;
    if (rd_token_is(&tok[0], "$") || rd_token_is(&tok[0], "#") || rd_token_is(&tok[0], "+"))
        i = 1;
    if (i >= n || !names_wrk(&tok[i]))
        return false;
    /* "wrk 4.2.0 [epoll] Copyright ..." (wrk -v) names wrk too, but has no
     * option and no URL. */
    struct rd_token all[64];
    size_t m = rd_tokenize(l, all, 64);
    for (size_t k = i + 1; k < m && k < 64; k++) {
        struct rd_line word = { all[k].ptr, all[k].len, l->no };
        if (all[k].ptr[0] == '-' || rd_line_contains(&word, "://"))
            return true;
    }
    return false;
}

/* ---- the report, line by line ---- */

static rd_status parse_running(struct parser *p, const struct rd_line *l, struct rd_record *r)
{
    struct rd_token tok[MAX_TOKENS];
    rd_tokenize(l, tok, MAX_TOKENS);  /* is_running_line() saw 5 or more */
    double ms;
    /* The planned duration is format_time_s: "30s", "1m", "2m". */
    RD_TRY(rd_tok_duration_ms(l, &tok[1], &ms, p->d));
    if (!(ms >= 0))
        return rd_expect_fail(p->d, l, &tok[1], "a test duration like '30s'");
    char dur[64];
    rd_excerpt(tok[1].ptr, tok[1].len, 40, dur, sizeof dur);
    RD_TRY(rd_record_set_info(r, "test_duration", dur));
    /* The URL is the rest of the line (it has no blanks, but keep it whole
     * if a script-built one does). */
    struct rd_line rest = { tok[4].ptr, l->len - (size_t)(tok[4].ptr - l->ptr), l->no };
    rest = rd_line_trim(rest);
    char *url = rd_arena_strndup(r->arena, rest.ptr, rest.len);
    if (!url)
        return RD_ERR_NOMEM;
    RD_TRY(rd_record_set_info(r, "url", url));
    return RD_OK;
}

static rd_status parse_threads(struct parser *p, const struct rd_line *l, struct rd_record *r)
{
    static const char what[] = "'<N> threads and <N> connections'";
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 5 || !rd_token_is(&tok[1], "threads") || !rd_token_is(&tok[2], "and") ||
        !rd_token_is(&tok[4], "connections"))
        return fail_line(p, l, what);
    double threads, conns;
    RD_TRY(rd_tok_uint(l, &tok[0], &threads, p->d));
    RD_TRY(rd_tok_uint(l, &tok[3], &conns, p->d));
    RD_TRY(rd_record_set_metric(r, "threads", threads));
    RD_TRY(rd_record_set_metric(r, "connections", conns));
    char buf[64];
    rd_excerpt(tok[0].ptr, tok[0].len, 30, buf, sizeof buf);
    RD_TRY(rd_record_set_info(r, "threads", buf));
    rd_excerpt(tok[3].ptr, tok[3].len, 30, buf, sizeof buf);
    RD_TRY(rd_record_set_info(r, "connections", buf));
    return RD_OK;
}

/* wrk2: "  Thread calibration: mean lat.: 1.731ms, rate sampling interval: 10ms".
 * Kept as one info string per run: they are per-thread set-up facts, not
 * measurements of the server. */
static rd_status parse_calibration(struct parser *p, const struct rd_line *l,
                                   struct rd_buf *calib)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 9 || !rd_token_is(&tok[2], "mean") || !rd_token_is(&tok[5], "rate") ||
        !rd_token_is(&tok[7], "interval:"))
        return fail_line(p, l,
                         "'Thread calibration: mean lat.: <ms>, rate sampling interval: <ms>'");
    if (tok[4].len < 2 || tok[4].ptr[tok[4].len - 1] != ',')
        return rd_expect_fail(p->d, l, &tok[4], "a duration followed by ','");
    struct rd_token lat = strip_tail(tok[4], ",");
    double v;
    RD_TRY(rd_tok_duration_ms(l, &lat, &v, p->d));
    RD_TRY(rd_tok_duration_ms(l, &tok[8], &v, p->d));
    if (calib->len)
        RD_TRY(rd_buf_addstr(calib, "; "));
    return rd_buf_addf(calib, "mean lat. %.*s, interval %.*s", (int)lat.len, lat.ptr,
                       (int)tok[8].len, tok[8].ptr);
}

/*
 * The Thread Stats rows, one table: "    Latency   635.91us    0.89ms
 * 12.92ms   93.69%" (durations) and "    Req/Sec    56.20k     8.07k
 * 62.00k    86.54%" (counts with k and M, per thread). Each row is its
 * label, then Avg, Stdev, Max and +/- Stdev, stored under the row's four
 * metric names.
 */
struct stats_row {
    const char *label;
    bool duration;             /* durations in ms; else counts (k, M) */
    const char *metrics[4];    /* Avg, Stdev, Max, +/- Stdev (a percent) */
};

static const struct stats_row stats_rows[] = {
    { "Latency", true, { "latency_mean_ms", "latency_stdev_ms", "latency_max_ms",
                         "latency_within_stdev_pct" } },
    { "Req/Sec", false, { "req_per_thread_mean", "req_per_thread_stdev",
                          "req_per_thread_max", "req_per_thread_within_stdev_pct" } },
};

static rd_status parse_stats_row(struct parser *p, const struct rd_line *l,
                                 const struct stats_row *row, struct rd_record *r)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    char what[64];
    if (n == 0 || !rd_token_is(&tok[0], row->label)) {
        snprintf(what, sizeof what, "the '%s' row of Thread Stats", row->label);
        return fail_line(p, l, what);
    }
    if (n > 5) {
        snprintf(what, sizeof what, "end of line after the %s row", row->label);
        return rd_expect_fail(p->d, l, &tok[5], what);
    }
    double v[4];
    for (size_t i = 0; i < 3; i++) {
        const struct rd_token *t = n > i + 1 ? &tok[i + 1] : NULL;
        RD_TRY(row->duration ? rd_tok_duration_ms(l, t, &v[i], p->d)
                             : rd_tok_count(l, t, &v[i], p->d));
    }
    RD_TRY(rd_tok_percent(l, n > 4 ? &tok[4] : NULL, &v[3], p->d));
    /* The Avg column is "%8.8s": a mean of 999995..999999 us prints as
     * "1000.00m" (cut from "1000.00ms"), which reads as 1000 minutes. A mean
     * above the maximum is impossible, so such a value was milliseconds. */
    const struct rd_token *a = &tok[1];
    if (row->duration && a->len >= 2 && a->ptr[a->len - 1] == 'm' && isfinite(v[2]) &&
        v[0] > v[2]) {
        double ms;
        if (rd_parse_double(a->ptr, a->len - 1, &ms) == RD_OK)
            v[0] = ms;
    }
    for (size_t i = 0; i < 4; i++)
        RD_TRY(rd_record_set_metric(r, row->metrics[i], v[i]));
    return RD_OK;
}

/* One "     50%   21.34ms" (wrk) or " 99.900%   17.71ms" (wrk2) line. */
static rd_status parse_percentile_line(struct parser *p, const struct rd_line *l,
                                       const char *prefix, struct rd_record *r)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 2 || tok[0].len < 2 || tok[0].ptr[tok[0].len - 1] != '%')
        return fail_line(p, l, "a percentile line like '99%  1.56s'");
    char name[96];
    if (!rd_percentile_metric_name(prefix, tok[0].ptr, tok[0].len, "_ms", name, sizeof name))
        return rd_expect_fail(p->d, l, &tok[0], "a percentile from 0% to 100%");
    double v;
    RD_TRY(rd_tok_duration_ms(l, &tok[1], &v, p->d));
    return rd_record_set_metric(r, name, v);
}

/* wrk's --latency block: four percentile lines after "Latency Distribution". */
static rd_status parse_wrk_distribution(struct parser *p, struct rd_record *r)
{
    struct rd_line l;
    for (int i = 0; i < 4; i++) {
        RD_TRY(need_line(p, &l, "a percentile line like '50%  21.34ms'"));
        RD_TRY(parse_percentile_line(p, &l, "latency", r));
    }
    return RD_OK;
}

/* A footer value "6.339," or "2.266]" (NaN when the histogram is empty). */
static rd_status footer_value(struct parser *p, const struct rd_line *l,
                              const struct rd_token *t, double *v)
{
    struct rd_token s = strip_tail(*t, ",]");
    if (rd_is_nan_spelling(s.ptr, s.len)) {
        *v = NAN;
        return RD_OK;
    }
    return rd_tok_double(l, &s, v, p->d);
}

/*
 * wrk2's HdrHistogram block, after its "Latency Distribution (HdrHistogram -
 * ...)" header: eight percentile lines, a blank line, the detailed spectrum
 * (checked, not stored: it is the histogram, not a run's figure), the
 * three-line footer and a line of dashes. 'prefix' is "latency" for the
 * recorded (corrected) block and "latency_uncorrected" for -U's.
 */
static rd_status parse_hdr_block(struct parser *p, const char *prefix, struct rd_record *r)
{
    struct rd_line l;
    char name[96];
    for (;;) {
        RD_TRY(need_line(p, &l, "a percentile line like ' 99.900%   17.71ms'"));
        if (rd_line_is_blank(&l))
            break;
        RD_TRY(parse_percentile_line(p, &l, prefix, r));
    }
    RD_TRY(need_line(p, &l, "'Detailed Percentile spectrum:'"));
    if (!rd_line_starts_with(&l, "Detailed Percentile spectrum:"))
        return fail_line(p, &l, "'Detailed Percentile spectrum:'");
    RD_TRY(need_line(p, &l, "the spectrum header 'Value Percentile TotalCount ...'"));
    if (!rd_line_starts_with(&l, "Value") || !rd_line_contains(&l, "TotalCount"))
        return fail_line(p, &l, "the spectrum header 'Value Percentile TotalCount ...'");

    struct rd_token tok[MAX_TOKENS];
    for (;;) {
        RD_TRY(need_line(p, &l, "a spectrum row or the '#[Mean = ...]' footer"));
        if (rd_line_is_blank(&l))
            continue;
        if (rd_line_starts_with(&l, "#[Mean"))
            break;
        size_t n = rd_tokenize(&l, tok, MAX_TOKENS);
        if (n != 4)
            return fail_line(p, &l, "a spectrum row 'Value Percentile TotalCount 1/(1-Percentile)'");
        double v;
        RD_TRY(rd_tok_double(&l, &tok[0], &v, p->d));
        RD_TRY(rd_tok_double(&l, &tok[1], &v, p->d));
        if (!(v >= 0 && v <= 1))
            return rd_expect_fail(p->d, &l, &tok[1], "a percentile fraction from 0 to 1");
        RD_TRY(rd_tok_uint(&l, &tok[2], &v, p->d));
        if (!rd_token_is(&tok[3], "inf"))
            RD_TRY(rd_tok_double(&l, &tok[3], &v, p->d));
    }

    /* "#[Mean    =        6.339, StdDeviation   =        2.266]" */
    size_t n = rd_tokenize(&l, tok, MAX_TOKENS);
    if (n != 6 || !rd_token_is(&tok[1], "=") || !rd_token_is(&tok[3], "StdDeviation"))
        return fail_line(p, &l, "'#[Mean = <ms>, StdDeviation = <ms>]'");
    double mean, sd, max, count;
    RD_TRY(footer_value(p, &l, &tok[2], &mean));
    RD_TRY(footer_value(p, &l, &tok[5], &sd));
    RD_TRY(need_line(p, &l, "'#[Max = <ms>, Total count = <N>]'"));
    n = rd_tokenize(&l, tok, MAX_TOKENS);
    if (n != 7 || !rd_token_is(&tok[0], "#[Max") || !rd_token_is(&tok[4], "count"))
        return fail_line(p, &l, "'#[Max = <ms>, Total count = <N>]'");
    RD_TRY(footer_value(p, &l, &tok[2], &max));
    struct rd_token c = strip_tail(tok[6], "]");
    RD_TRY(rd_tok_uint(&l, &c, &count, p->d));
    RD_TRY(need_line(p, &l, "'#[Buckets = <N>, SubBuckets = <N>]'"));
    if (!rd_line_starts_with(&l, "#[Buckets"))
        return fail_line(p, &l, "'#[Buckets = <N>, SubBuckets = <N>]'");
    RD_TRY(need_line(p, &l, "the line of dashes that ends the histogram"));
    if (!rd_line_starts_with(&l, "---"))
        return fail_line(p, &l, "the line of dashes that ends the histogram");

    /* The footer is the histogram's own mean, population sd and max, in ms
     * with 3 decimals: finer than the Latency row, and for -U the only mean
     * of the uncorrected latencies. */
    static const char *const suffix[] = { "_hist_mean_ms", "_hist_stdev_ms",
                                          "_hist_max_ms", "_hist_count" };
    double vals[] = { mean, sd, max, count };
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "%s%s", prefix, suffix[i]);
        RD_TRY(rd_record_set_metric(r, name, vals[i]));
    }
    return RD_OK;
}

/* "  22464657 requests in 30.00s, 17.76GB read" */
static rd_status parse_requests_line(struct parser *p, const struct rd_line *l,
                                     struct rd_record *r)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 6 || !rd_token_is(&tok[1], "requests") || !rd_token_is(&tok[2], "in") ||
        !rd_token_is(&tok[5], "read"))
        return fail_line(p, l, "'<N> requests in <time>, <size> read'");
    double requests, runtime_ms, bytes;
    RD_TRY(rd_tok_uint(l, &tok[0], &requests, p->d));
    if (tok[3].len < 2 || tok[3].ptr[tok[3].len - 1] != ',')
        return rd_expect_fail(p->d, l, &tok[3], "a duration followed by ','");
    struct rd_token rt = strip_tail(tok[3], ",");
    RD_TRY(rd_tok_duration_ms(l, &rt, &runtime_ms, p->d));
    if (!(runtime_ms >= 0))
        return rd_expect_fail(p->d, l, &rt, "a duration like '30.00s'");
    RD_TRY(rd_tok_size_bytes(l, &tok[4], RD_SIZE_BINARY, &bytes, p->d));
    RD_TRY(rd_record_set_metric(r, "requests", requests));
    RD_TRY(rd_record_set_metric(r, "duration_s", rd_decimal_scale(runtime_ms, -3)));
    RD_TRY(rd_record_set_metric(r, "bytes_total", bytes));
    return RD_OK;
}

/* "  Socket errors: connect 0, read 1243, write 0, timeout 387" */
static rd_status parse_socket_errors(struct parser *p, const struct rd_line *l,
                                     struct rd_record *r)
{
    static const char *const names[] = { "connect", "read", "write", "timeout" };
    static const char *const metrics[] = { "errors_connect", "errors_read",
                                           "errors_write", "errors_timeout" };
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 10)
        return fail_line(p, l, "'Socket errors: connect <N>, read <N>, write <N>, timeout <N>'");
    for (int i = 0; i < 4; i++) {
        const struct rd_token *name = &tok[2 + 2 * i];
        if (!rd_token_is(name, names[i])) {
            char what[32];
            snprintf(what, sizeof what, "'%s'", names[i]);
            return rd_expect_fail(p->d, l, name, what);
        }
        struct rd_token num = tok[3 + 2 * i];
        if (i < 3) {
            if (num.len < 2 || num.ptr[num.len - 1] != ',')
                return rd_expect_fail(p->d, l, &num, "a count followed by ','");
            num.len--;
        }
        double v;
        RD_TRY(rd_tok_uint(l, &num, &v, p->d));
        RD_TRY(rd_record_set_metric(r, metrics[i], v));
    }
    return RD_OK;
}

/* "Requests/sec: 748868.53" or "Transfer/sec:    606.33MB" */
static rd_status parse_rate_line(struct parser *p, const struct rd_line *l, bool transfer,
                                 struct rd_record *r)
{
    const char *label = transfer ? "Transfer/sec:" : "Requests/sec:";
    struct rd_token tok[4];
    size_t n = rd_tokenize(l, tok, 4);
    if (n == 0 || !rd_token_is(&tok[0], label)) {
        char what[48];
        snprintf(what, sizeof what, "'%s <value>'", label);
        return fail_line(p, l, what);
    }
    if (n > 2)
        return rd_expect_fail(p->d, l, &tok[2], "end of line");
    double v;
    if (transfer) {
        RD_TRY(rd_tok_size_bytes(l, n > 1 ? &tok[1] : NULL, RD_SIZE_BINARY, &v, p->d));
        return rd_record_set_metric(r, "transfer_bytes_per_s", v);
    }
    const struct rd_token *t = n > 1 ? &tok[1] : NULL;
    if (t && rd_is_nan_spelling(t->ptr, t->len))
        v = NAN;  /* 0/0 when the measured runtime was 0 */
    else
        RD_TRY(rd_tok_double(l, t, &v, p->d));
    if (v < 0)
        return rd_expect_fail(p->d, l, t, "a rate that is not negative");
    return rd_record_set_metric(r, "rps", v);
}

/* "Non-2xx or 3xx responses: 12" */
static rd_status parse_non2xx(struct parser *p, const struct rd_line *l, struct rd_record *r)
{
    struct rd_token tok[8];
    size_t n = rd_tokenize(l, tok, 8);
    if (n != 5)
        return fail_line(p, l, "'Non-2xx or 3xx responses: <N>'");
    double v;
    RD_TRY(rd_tok_uint(l, &tok[4], &v, p->d));
    return rd_record_set_metric(r, "non_2xx", v);
}

static rd_status parse_rps(struct parser *p, const struct rd_line *l, struct rd_record *r)
{
    return parse_rate_line(p, l, false, r);
}

static rd_status parse_transfer(struct parser *p, const struct rd_line *l, struct rd_record *r)
{
    return parse_rate_line(p, l, true, r);
}

/*
 * The lines after "<N> requests in <time>, <size> read", in wrk's order, as
 * one table: the error lines wrk prints only when a count is not zero, then
 * the two rates every report ends with. A line is matched by its start; a
 * required one that does not match is parsed anyway, for its message.
 */
static const struct closing_line {
    const char *start;
    const char *what;  /* NULL: optional */
    rd_status (*parse)(struct parser *p, const struct rd_line *l, struct rd_record *r);
} closing_lines[] = {
    { "Socket errors:", NULL, parse_socket_errors },
    { "Non-2xx or 3xx responses:", NULL, parse_non2xx },
    { "Requests/sec:", "'Requests/sec: <rate>'", parse_rps },
    { "Transfer/sec:", "'Transfer/sec: <size>'", parse_transfer },
};

static rd_status parse_closing_lines(struct parser *p, struct rd_record *r)
{
    const size_t n = sizeof closing_lines / sizeof closing_lines[0];
    struct rd_line l;
    bool have = false;  /* l is read and not yet taken */
    for (size_t i = 0; i < n; i++) {
        const struct closing_line *c = &closing_lines[i];
        if (!have) {
            /* At the end of input the message names the next required line. */
            size_t k = i;
            while (!closing_lines[k].what)
                k++;
            RD_TRY(need_line(p, &l, closing_lines[k].what));
            have = true;
        }
        if (!c->what && !rd_line_starts_with(&l, c->start))
            continue;
        RD_TRY(c->parse(p, &l, r));
        have = false;
    }
    return RD_OK;
}

/* ---- Lua done() output ---- */

/* Reads the script output after Transfer/sec up to the next report or
 * command line; parses the first line starting with '{' (and, when that
 * line alone is not a whole document, the lines after it) as JSON. */
static rd_status parse_trailer(struct parser *p, struct rd_record *r)
{
    struct rd_line l, json_line = { 0 };
    bool have_json = false;
    size_t block_end = p->it.pos;
    while (rd_lines_peek(&p->it, &l)) {
        if (is_running_line(&l) || is_command_line(&l) || is_connect_failure(&l))
            break;
        rd_lines_next(&p->it, &l);
        block_end = p->it.pos;
        if (!have_json && rd_line_starts_with(&l, "{")) {
            json_line = l;
            have_json = true;
        }
    }
    if (!have_json)
        return RD_OK;

    cJSON *root = NULL;
    struct rd_diag one;
    rd_diag_init(&one, p->in->path);
    rd_status s = rd_json_parse(json_line.ptr, json_line.len, p->in->path, json_line.no,
                                &root, &one);
    if (s == RD_ERR_PARSE) {
        /* Pretty-printed JSON spans several lines: try the rest of the block. */
        size_t len = (size_t)(p->in->data + block_end - json_line.ptr);
        if (len > json_line.len) {
            struct rd_diag many;
            rd_diag_init(&many, p->in->path);
            s = rd_json_parse(json_line.ptr, len, p->in->path, json_line.no, &root, &many);
            if (s == RD_ERR_PARSE) {
                if (p->d)
                    *p->d = many;
                return s;
            }
        }
    }
    if (s != RD_OK) {
        if (p->d)
            *p->d = one;
        return s;
    }
    /* rd_json_parse columns count from the start of the text, which is the
     * start of the line here, so its messages already point at the file. */
    s = rd_wrk_apply_done_json(root, r);
    cJSON_Delete(root);
    return s;
}

/* ---- a whole report ---- */

static rd_status set_command_facts(struct parser *p, struct rd_record *r)
{
    if (!p->have_command)
        return RD_OK;
    p->have_command = false;
    struct rd_line cmd = rd_line_trim(p->command);
    struct rd_token tok[64];
    size_t n = rd_tokenize(&cmd, tok, 64);
    if (n > 64)
        n = 64;
    size_t i = 0;
    if (n && (rd_token_is(&tok[0], "$") || rd_token_is(&tok[0], "#") ||
              rd_token_is(&tok[0], "+")))
        i = 1;
    const char *start = tok[i].ptr;
    char *command = rd_arena_strndup(r->arena, start, cmd.len - (size_t)(start - cmd.ptr));
    if (!command)
        return RD_ERR_NOMEM;
    RD_TRY(rd_record_set_info(r, "command", command));
    /* wrk2's -R/--rate: "-R 2000", "-R2000", "--rate 2k", "--rate=2000". */
    for (i++; i < n; i++) {
        struct rd_token v = { 0 };
        bool found = false;
        if ((rd_token_is(&tok[i], "-R") || rd_token_is(&tok[i], "--rate")) && i + 1 < n) {
            v = tok[i + 1];
            found = true;
        } else if (tok[i].len > 2 && memcmp(tok[i].ptr, "-R", 2) == 0) {
            v = (struct rd_token){ tok[i].ptr + 2, tok[i].len - 2, tok[i].col + 2 };
            found = true;
        } else if (tok[i].len > 7 && memcmp(tok[i].ptr, "--rate=", 7) == 0) {
            v = (struct rd_token){ tok[i].ptr + 7, tok[i].len - 7, tok[i].col + 7 };
            found = true;
        }
        double rate;
        if (found && rd_parse_count(v.ptr, v.len, &rate) == RD_OK && rate >= 0) {
            char *text = rd_arena_strndup(r->arena, v.ptr, v.len);
            if (!text)
                return RD_ERR_NOMEM;
            RD_TRY(rd_record_set_info(r, "target_rate", text));
            RD_TRY(rd_record_set_metric(r, "target_rps", rate));
            break;
        }
    }
    return RD_OK;
}

static rd_status parse_report(struct parser *p, const struct rd_line *running,
                              struct rd_record *r)
{
    struct rd_line l;
    r->source_line = running->no;
    RD_TRY(rd_record_set(r, &r->tool, p->fl == RD_WRK2 ? "wrk2" : "wrk"));
    RD_TRY(set_command_facts(p, r));
    RD_TRY(parse_running(p, running, r));

    /* Between "Running" and "Thread Stats": the threads line, wrk2's
     * calibration lines, and whatever a Lua script printed while running. */
    bool have_threads = false;
    struct rd_buf calib = RD_BUF_INIT;
    rd_status s = RD_OK;
    for (;;) {
        s = need_line(p, &l, have_threads ? "the 'Thread Stats' header"
                                          : "'<N> threads and <N> connections'");
        if (s != RD_OK)
            break;
        if (is_running_line(&l)) {
            s = fail_line(p, &l, have_threads ? "the 'Thread Stats' header"
                                              : "'<N> threads and <N> connections'");
            break;
        }
        if (rd_line_starts_with(&l, "Thread Stats")) {
            if (!have_threads)
                s = fail_line(p, &l, "'<N> threads and <N> connections'");
            break;
        }
        if (rd_line_starts_with(&l, "Thread calibration:")) {
            if ((s = parse_calibration(p, &l, &calib)) != RD_OK)
                break;
            continue;
        }
        if (!have_threads && rd_line_contains(&l, " threads and ")) {
            if ((s = parse_threads(p, &l, r)) != RD_OK)
                break;
            have_threads = true;
        }
    }
    if (s == RD_OK && calib.len)
        s = rd_record_set_info(r, "thread_calibration", calib.ptr);
    rd_buf_release(&calib);
    RD_TRY(s);

    for (size_t i = 0; i < sizeof stats_rows / sizeof stats_rows[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "the '%s' row of Thread Stats", stats_rows[i].label);
        RD_TRY(need_line(p, &l, what));
        RD_TRY(parse_stats_row(p, &l, &stats_rows[i], r));
    }

    static const char requests_what[] = "'<N> requests in <time>, <size> read'";
    RD_TRY(need_line(p, &l, requests_what));
    while (rd_line_starts_with(&l, "Latency Distribution")) {
        if (rd_line_contains(&l, "(HdrHistogram")) {
            bool uncorrected = rd_line_contains(&l, "Uncorrected");
            RD_TRY(parse_hdr_block(p, uncorrected ? "latency_uncorrected" : "latency", r));
        } else {
            struct rd_line t = rd_line_trim(l);
            if (t.len != strlen("Latency Distribution"))
                return fail_line(p, &l, "'Latency Distribution'");
            RD_TRY(parse_wrk_distribution(p, r));
        }
        /* wrk2 puts a blank line before the uncorrected block. */
        do
            RD_TRY(need_line(p, &l, requests_what));
        while (rd_line_is_blank(&l));
    }
    RD_TRY(parse_requests_line(p, &l, r));

    /* A missing error line means zero (wrk prints them only when non-zero). */
    static const char *const zero[] = { "errors_connect", "errors_read", "errors_write",
                                        "errors_timeout", "non_2xx" };
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        RD_TRY(rd_record_set_metric(r, zero[i], 0));
    RD_TRY(parse_closing_lines(p, r));
    RD_TRY(parse_trailer(p, r));

    /* With no completed request wrk prints its guard values (0.00us) in
     * every latency cell: they are not measurements, so they become null.
     * The histogram's count (0) is a measurement and stays. */
    double requests;
    if (rd_record_metric(r, "requests", &requests) && requests == 0)
        for (size_t i = 0; i < r->nmetrics; i++)
            if (strncmp(r->metrics[i].name, "latency_", 8) == 0 &&
                !strstr(r->metrics[i].name, "_count"))
                r->metrics[i].value = NAN;

    /* wrk2's runtime clock can be wrong with many threads (giltene/wrk2#138:
     * 1.25ms for a 5s test): keep the numbers, but say so. */
    double measured, planned;
    if (rd_record_metric(r, "duration_s", &measured) &&
        rd_parse_duration_ms(rd_record_info(r, "test_duration"),
                             strlen(rd_record_info(r, "test_duration")), &planned, 0) == RD_OK &&
        planned >= 1000 && measured * 1000.0 < planned / 2)
        RD_TRY(rd_record_set_info(r, "warning",
                                  "measured runtime is under half the test duration; "
                                  "rates may be wrong"));
    /* A response after wrk's --timeout is counted as a request and as a
     * timeout. */
    return rd_load_judge_metrics(r, RD_LOAD_IN_REQUESTS_WRK);
}

/* A run that never started: wrk could not connect and printed no report.
 * It is kept as a failed run with no completed request, so that a capture
 * of an unreachable server is never mistaken for a good run nor dropped. */
static rd_status parse_connect_failure(struct parser *p, const struct rd_line *l,
                                       struct rd_record *r)
{
    r->source_line = l->no;
    RD_TRY(rd_record_set(r, &r->tool, p->fl == RD_WRK2 ? "wrk2" : "wrk"));
    RD_TRY(set_command_facts(p, r));
    RD_TRY(rd_record_set_metric(r, "requests", 0));
    struct rd_line t = rd_line_trim(*l);
    char *msg = rd_arena_strndup(r->arena, t.ptr, t.len);
    if (!msg)
        return RD_ERR_NOMEM;
    struct rd_load_tally tally;
    rd_load_tally_from_metrics(&tally, r, RD_LOAD_IN_REQUESTS_WRK);
    tally.stopped = msg;
    return rd_load_judge(r, &tally);
}

rd_status rd_wrk_family_parse(const struct rd_import_input *in, enum rd_wrk_flavour fl,
                              struct rd_recordset *out, struct rd_diag *d)
{
    struct parser p = { .in = in, .d = d, .fl = fl };
    rd_lines_init(&p.it, in->data, in->len);
    if (d && !d->path)
        d->path = in->path;

    size_t found = 0;
    struct rd_line l;
    while (rd_lines_next(&p.it, &l)) {
        if (is_command_line(&l)) {
            p.command = l;
            p.have_command = true;
            continue;
        }
        if (is_connect_failure(&l)) {
            struct rd_record *r = rd_recordset_add(out);
            if (!r)
                return RD_ERR_NOMEM;
            RD_TRY(parse_connect_failure(&p, &l, r));
            found++;
            continue;
        }
        if (!is_running_line(&l))
            continue;
        struct rd_record *r = rd_recordset_add(out);
        if (!r)
            return RD_ERR_NOMEM;
        RD_TRY(parse_report(&p, &l, r));
        found++;
        /* parse_trailer stopped before the next report or command line. */
    }
    if (found)
        return rd_text_closed(d, in->path, in->data, in->len);
    return rd_no_run_fail(d, in->path, in->data, in->len,
                          fl == RD_WRK2
                              ? "a wrk2 report starting with 'Running <time> test @ <url>'"
                              : "a wrk report starting with 'Running <time> test @ <url>'");
}

int rd_wrk_family_detect(const struct rd_import_input *in, int *wrk2_marks)
{
    struct rd_lines it;
    struct rd_line l;
    rd_lines_init(&it, in->data, in->len);
    bool running = false, threads = false, stats = false, reqsec = false, transfer = false;
    bool connect_failure = false;
    *wrk2_marks = 0;
    /* The report's landmarks sit in its first lines; a long trailer or a
     * huge spectrum need not be read to recognise it. */
    for (int i = 0; i < 400 && rd_lines_next(&it, &l); i++) {
        if (is_running_line(&l))
            running = true;
        else if (is_connect_failure(&l))
            connect_failure = true;
        else if (rd_line_contains(&l, " threads and ") && rd_line_contains(&l, " connections"))
            threads = true;
        else if (rd_line_starts_with(&l, "Thread Stats"))
            stats = true;
        else if (rd_line_starts_with(&l, "Requests/sec:"))
            reqsec = true;
        else if (rd_line_starts_with(&l, "Transfer/sec:"))
            transfer = true;
        else if (rd_line_starts_with(&l, "Thread calibration:") ||
                 rd_line_contains(&l, "(HdrHistogram - ") ||
                 rd_line_starts_with(&l, "Detailed Percentile spectrum:"))
            *wrk2_marks = 1;
        else if (rd_line_starts_with(&l, "Req/Sec") || rd_line_starts_with(&l, "Latency ")) {
            /* wrk guards an empty Req/Sec or Latency row to 0.00; wrk2's
             * hdr_mean divides 0/0 and prints -nan in the Avg column. */
            struct rd_token tok[3];
            if (rd_tokenize(&l, tok, 3) >= 2 && rd_is_nan_spelling(tok[1].ptr, tok[1].len))
                *wrk2_marks = 1;
        }
    }
    int score = 0;
    if (running)
        score += 40;
    if (threads)
        score += 20;
    if (stats)
        score += 20;
    if (reqsec)
        score += 10;
    if (transfer)
        score += 10;
    /* A "Running" line alone is too weak to claim the input. */
    if (!running || !(threads || stats))
        score = score > 40 ? 40 : score;
    /* wrk's "unable to connect to HOST:PORT REASON" is all a 2>&1 capture
     * of an unreachable server holds; no other tool words it so. */
    if (connect_failure && score < 60)
        score = 60;
    return score;
}

static int detect_wrk(const struct rd_import_input *in)
{
    int wrk2;
    int score = rd_wrk_family_detect(in, &wrk2);
    /* wrk2 output is wrk output plus more; leave it to the wrk2 importer. */
    return wrk2 && score > 60 ? 60 : score;
}

static rd_status parse_wrk(const struct rd_import_input *in, struct rd_recordset *out,
                           struct rd_diag *d)
{
    return rd_wrk_family_parse(in, RD_WRK, out, d);
}

static const char *const version_argv[] = { "wrk", "-v", NULL };

const struct rd_importer rd_importer_wrk = {
    .name = "wrk",
    .description = "wrk text report (with or without --latency, Lua done() JSON)",
    .version_argv = version_argv,
    .load = true,
    .detect = detect_wrk,
    .parse = parse_wrk,
};
