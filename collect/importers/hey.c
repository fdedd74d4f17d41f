/*
 * hey - the importer for rakyll/hey's summary report and its -o csv rows.
 *
 * The report is a Go template (requester/print.go; notes in
 * ../shared/formats/hey.md): a Summary block of "Label:\tvalue secs" lines,
 * then titled sections (histogram, latency distribution, details, status
 * codes, errors). It is read section by section, dispatching on each line's
 * label, because the optional lines (sizes, errors) and the empty sections of
 * an all-failed run move everything else around.
 *
 * What hey does not say directly is derived only by adding its own counts:
 * requests is the sum of the status code distribution (responses received),
 * non_2xx the part of it outside 200..299, and the error counts are the
 * error distribution sorted into connect / timeout / read / write / other by
 * the Go error text. hey's rps counts errored requests too; it is kept as
 * printed. The -o csv rows are per request and are summarised into one run
 * with hey's own percentile rule, so a csv and a text report of the same run
 * give the same percentiles.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "httpcommon.h"
#include "importer.h"
#include "loadjudge.h"
#include "rundown/array.h"

#define MAX_TOKENS 16
/* hey keeps the first 1,000,000 results (maxRes in requester/report.go). */
#define HEY_MAX_RESULTS 1000000.0

static const char csv_header[] =
    "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,"
    "status-code,offset";

enum section { S_SUMMARY, S_HISTOGRAM, S_LATENCY, S_DETAILS, S_STATUS, S_ERRORS };

struct hey_run {
    struct rd_record *r;
    const struct rd_import_input *in;
    struct rd_diag *d;
    bool seen[6];            /* which section headers appeared */
    bool have_total, have_rps, have_slowest, have_fastest, have_average;
    double responses, non_2xx;
    double err_connect, err_timeout, err_read, err_write, err_other, err_total;
    struct rd_buf errors;    /* the error distribution, for info */
};

static rd_status fail_line(struct rd_diag *d, const char *path, const struct rd_line *l,
                           const char *what)
{
    return rd_line_fail(d, path, l, what);
}

/* "<N> secs" as the two tokens starting at tok[i]; the value in ms. */
static rd_status secs(const struct rd_line *l, const struct rd_token *tok, size_t n, size_t i,
                      double *ms, struct rd_diag *d)
{
    if (i >= n)
        return rd_expect_fail(d, l, NULL, "a time in seconds like '0.0123'");
    /* Go prints NaN (no successful request) as " NaN". */
    if (rd_is_nan_spelling(tok[i].ptr, tok[i].len))
        *ms = NAN;
    else
        RD_TRY(rd_tok_seconds_as_ms(l, &tok[i], ms, d));
    if (i + 1 >= n)
        return rd_expect_fail(d, l, NULL, "'secs'");
    struct rd_token unit = tok[i + 1];
    if (unit.len && unit.ptr[unit.len - 1] == ',')
        unit.len--;
    if (!rd_token_is(&unit, "secs"))
        return rd_expect_fail(d, l, &tok[i + 1], "'secs'");
    return RD_OK;
}

/* "[200]" or "[5]": a bracketed unsigned number. */
static rd_status bracketed(const struct rd_line *l, const struct rd_token *t, double *v,
                           struct rd_diag *d, const char *what)
{
    if (t->len < 3 || t->ptr[0] != '[' || t->ptr[t->len - 1] != ']')
        return rd_expect_fail(d, l, t, what);
    struct rd_token inner = { t->ptr + 1, t->len - 2, t->col + 1 };
    unsigned long long u;
    if (rd_parse_uint(inner.ptr, inner.len, &u) != RD_OK)
        return rd_expect_fail(d, l, t, what);
    *v = (double)u;
    return RD_OK;
}

static rd_status summary_line(struct hey_run *h, const struct rd_line *l)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    struct rd_diag *d = h->d;
    double v;
    if (n > MAX_TOKENS)
        n = MAX_TOKENS;
    if (rd_token_is(&tok[0], "Total:")) {
        RD_TRY(secs(l, tok, n, 1, &v, d));
        h->have_total = true;
        return rd_record_set_metric(h->r, "duration_s", rd_decimal_scale(v, -3));
    }
    static const struct { const char *label, *metric; } lat[] = {
        { "Slowest:", "latency_max_ms" },
        { "Fastest:", "latency_min_ms" },
        { "Average:", "latency_mean_ms" },
    };
    bool *flags[] = { &h->have_slowest, &h->have_fastest, &h->have_average };
    for (size_t i = 0; i < 3; i++)
        if (rd_token_is(&tok[0], lat[i].label)) {
            RD_TRY(secs(l, tok, n, 1, &v, d));
            if (n != 3)
                return rd_expect_fail(d, l, &tok[3], "end of line");
            *flags[i] = true;
            return rd_record_set_metric(h->r, lat[i].metric, v);
        }
    if (rd_token_is(&tok[0], "Requests/sec:")) {
        if (n != 2)
            return fail_line(d, h->in->path, l, "'Requests/sec: <rate>'");
        if (rd_is_nan_spelling(tok[1].ptr, tok[1].len))
            v = NAN;
        else
            RD_TRY(rd_tok_double(l, &tok[1], &v, d));
        if (v < 0)
            return rd_expect_fail(d, l, &tok[1], "a rate that is not negative");
        h->have_rps = true;
        return rd_record_set_metric(h->r, "rps", v);
    }
    if (n == 4 && rd_token_is(&tok[0], "Total") && rd_token_is(&tok[1], "data:")) {
        RD_TRY(rd_tok_uint(l, &tok[2], &v, d));
        if (!rd_token_is(&tok[3], "bytes"))
            return rd_expect_fail(d, l, &tok[3], "'bytes'");
        return rd_record_set_metric(h->r, "bytes_total", v);
    }
    if (rd_token_is(&tok[0], "Size/request:")) {
        if (n != 3 || !rd_token_is(&tok[2], "bytes"))
            return fail_line(d, h->in->path, l, "'Size/request: <N> bytes'");
        RD_TRY(rd_tok_uint(l, &tok[1], &v, d));
        return rd_record_set_metric(h->r, "size_per_request_bytes", v);
    }
    return fail_line(d, h->in->path, l, "a Summary line such as 'Total: <s> secs'");
}

/* "  0.006 [1]\t|■■■■": checked, not stored (the percentiles say more). */
static rd_status histogram_line(struct hey_run *h, const struct rd_line *l)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    double v;
    if (n < 2 || n > 3)
        return fail_line(h->d, h->in->path, l, "a histogram row like '0.006 [1] |'");
    RD_TRY(rd_tok_double(l, &tok[0], &v, h->d));
    RD_TRY(bracketed(l, &tok[1], &v, h->d, "a count like '[125]'"));
    if (n == 3 && tok[2].ptr[0] != '|')
        return rd_expect_fail(h->d, l, &tok[2], "a bar starting with '|'");
    return RD_OK;
}

/* "  10% in 0.0137 secs"; "  0% in 0.0000 secs" is a percentile hey never
 * reached (too few results) and is not a measurement. */
static rd_status latency_line(struct hey_run *h, const struct rd_line *l)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 4 || !rd_token_is(&tok[1], "in"))
        return fail_line(h->d, h->in->path, l, "a percentile line like '10% in 0.0137 secs'");
    double ms;
    RD_TRY(secs(l, tok, n, 2, &ms, h->d));
    if (rd_token_is(&tok[0], "0%"))
        return RD_OK;
    char name[64];
    if (!rd_percentile_metric_name("latency", tok[0].ptr, tok[0].len, "_ms", name,
                                   sizeof name) ||
        tok[0].ptr[tok[0].len - 1] != '%')
        return rd_expect_fail(h->d, l, &tok[0], "a percentage like '10%'");
    return rd_record_set_metric(h->r, name, ms);
}

/* "  resp wait:\t0.0225 secs, 0.0063 secs, 0.0691 secs" (average, fastest,
 * slowest). */
static rd_status details_line(struct hey_run *h, const struct rd_line *l)
{
    static const struct { const char *label, *prefix; } rows[] = {
        { "DNS+dialup:", "dns_dialup" }, { "DNS-lookup:", "dns_lookup" },
        { "req write:", "req_write" },   { "resp wait:", "resp_wait" },
        { "resp read:", "resp_read" },
    };
    size_t which = sizeof rows / sizeof rows[0];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rd_line_starts_with(l, rows[i].label))
            which = i;
    if (which == sizeof rows / sizeof rows[0])
        return fail_line(h->d, h->in->path, l,
                         "a Details line like 'resp wait: <s> secs, <s> secs, <s> secs'");
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    size_t first = which == 2 || which == 3 || which == 4 ? 2 : 1;  /* two-word labels */
    if (n != first + 6)
        return fail_line(h->d, h->in->path, l,
                         "a Details line like 'resp wait: <s> secs, <s> secs, <s> secs'");
    double v[3];
    for (int k = 0; k < 3; k++)
        RD_TRY(secs(l, tok, n, first + 2 * (size_t)k, &v[k], h->d));
    char name[64];
    snprintf(name, sizeof name, "%s_mean_ms", rows[which].prefix);
    RD_TRY(rd_record_set_metric(h->r, name, v[0]));
    /* hey 0.1.4 prints the request Fastest/Slowest in the DNS+dialup row
     * (fixed on master by 01fa416): equal values are that bug, not dial
     * times, and are dropped. */
    if (which == 0) {
        double fastest, slowest;
        if (rd_record_metric(h->r, "latency_min_ms", &fastest) &&
            rd_record_metric(h->r, "latency_max_ms", &slowest) && fastest == v[1] &&
            slowest == v[2])
            return RD_OK;
    }
    snprintf(name, sizeof name, "%s_min_ms", rows[which].prefix);
    RD_TRY(rd_record_set_metric(h->r, name, v[1]));
    snprintf(name, sizeof name, "%s_max_ms", rows[which].prefix);
    return rd_record_set_metric(h->r, name, v[2]);
}

/* "  [200]\t2000 responses" */
static rd_status status_line(struct hey_run *h, const struct rd_line *l)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 3 || !rd_token_is(&tok[2], "responses"))
        return fail_line(h->d, h->in->path, l, "a status line like '[200] 2000 responses'");
    double code = 0, count = 0; /* set by the calls below; gcc -O3 cannot tell */
    RD_TRY(bracketed(l, &tok[0], &code, h->d, "a status code like '[200]'"));
    if (code > 999)
        return rd_expect_fail(h->d, l, &tok[0], "a status code like '[200]'");
    RD_TRY(rd_tok_uint(l, &tok[1], &count, h->d));
    char name[32];
    snprintf(name, sizeof name, "status_%03.0f", code);
    double before = 0;
    rd_record_metric(h->r, name, &before);
    RD_TRY(rd_record_set_metric(h->r, name, before + count));
    h->responses += count;
    if (code < 200 || code > 299)
        h->non_2xx += count;
    return RD_OK;
}

/* "  [5]\tGet "http://...": context deadline exceeded (...)" */
static rd_status error_line(struct hey_run *h, const struct rd_line *l)
{
    struct rd_token tok[2];
    size_t n = rd_tokenize(l, tok, 2);
    if (n < 2)
        return fail_line(h->d, h->in->path, l, "an error line like '[5] Get ...: EOF'");
    double count = 0; /* set by bracketed(); gcc -O3 cannot tell */
    RD_TRY(bracketed(l, &tok[0], &count, h->d, "an error count like '[5]'"));
    struct rd_line msg = { tok[1].ptr, l->len - (size_t)(tok[1].ptr - l->ptr), l->no };
    msg = rd_line_trim(msg);
    /* Go's net/http texts; there are no fixed categories (hey.md §4). */
    double *bucket = &h->err_other;
    if (rd_line_contains(&msg, "Client.Timeout") || rd_line_contains(&msg, "deadline exceeded") ||
        rd_line_contains(&msg, "i/o timeout") || rd_line_contains(&msg, "timeout"))
        bucket = &h->err_timeout;
    else if (rd_line_contains(&msg, "connection refused") || rd_line_contains(&msg, "dial tcp") ||
             rd_line_contains(&msg, "no such host") || rd_line_contains(&msg, "connect:"))
        bucket = &h->err_connect;
    else if (rd_line_contains(&msg, "broken pipe") || rd_line_contains(&msg, "write:"))
        bucket = &h->err_write;
    else if (rd_line_contains(&msg, "EOF") || rd_line_contains(&msg, "connection reset") ||
             rd_line_contains(&msg, "read:") || rd_line_contains(&msg, "malformed"))
        bucket = &h->err_read;
    *bucket += count;
    h->err_total += count;
    /* The info string is for a reader: keep it short, the counts are exact
     * anyway. */
    if (h->errors.len > 2048) {
        if (h->errors.ptr[h->errors.len - 1] != '.')
            RD_TRY(rd_buf_addstr(&h->errors, "; ..."));
        return RD_OK;
    }
    if (h->errors.len)
        RD_TRY(rd_buf_addstr(&h->errors, "; "));
    return rd_buf_addf(&h->errors, "%.0f x %.*s", count, (int)(msg.len > 300 ? 300 : msg.len),
                       msg.ptr);
}

static const struct { const char *title; enum section s; } titles[] = {
    { "Response time histogram:", S_HISTOGRAM },
    { "Latency distribution:", S_LATENCY },
    { "Details (average, fastest, slowest):", S_DETAILS },
    { "Status code distribution:", S_STATUS },
    { "Error distribution:", S_ERRORS },
};

static bool is_summary(const struct rd_line *l)
{
    struct rd_line t = rd_line_trim(*l);
    return t.len == 8 && memcmp(t.ptr, "Summary:", 8) == 0;
}

static rd_status finish_run(struct hey_run *h)
{
    struct rd_record *r = h->r;
    static const char *const need[] = { "'Total: <s> secs'", "'Slowest: <s> secs'",
                                        "'Fastest: <s> secs'", "'Average: <s> secs'",
                                        "'Requests/sec: <rate>'" };
    bool have[] = { h->have_total, h->have_slowest, h->have_fastest, h->have_average,
                    h->have_rps };
    for (size_t i = 0; i < 5; i++)
        if (!have[i])
            return rd_diag_set(h->d, RD_ERR_PARSE, h->in->path, r->source_line, 1,
                               "expected %s in the Summary block, got none", need[i]);
    RD_TRY(rd_record_set_metric(r, "requests", h->responses));
    RD_TRY(rd_record_set_metric(r, "non_2xx", h->non_2xx));
    RD_TRY(rd_record_set_metric(r, "errors_connect", h->err_connect));
    RD_TRY(rd_record_set_metric(r, "errors_read", h->err_read));
    RD_TRY(rd_record_set_metric(r, "errors_write", h->err_write));
    RD_TRY(rd_record_set_metric(r, "errors_timeout", h->err_timeout));
    RD_TRY(rd_record_set_metric(r, "errors_other", h->err_other));
    RD_TRY(rd_record_set_metric(r, "errors_total", h->err_total));
    if (h->errors.len)
        RD_TRY(rd_record_set_info(r, "error_distribution", h->errors.ptr));
    /* With no response hey prints 0.0000 for Fastest/Slowest and the Details
     * extremes (zero values of empty arrays): not measurements, so null. */
    if (h->responses == 0)
        for (size_t i = 0; i < r->nmetrics; i++) {
            size_t len = strlen(r->metrics[i].name);
            if (len > 3 && strcmp(r->metrics[i].name + len - 3, "_ms") == 0)
                r->metrics[i].value = NAN;
        }
    if (h->responses >= HEY_MAX_RESULTS)
        RD_TRY(rd_record_set_info(r, "warning",
                                  "hey keeps only the first 1000000 results: status counts, "
                                  "percentiles and averages cover those"));
    /* hey's status counts are responses; its errors got none. */
    return rd_load_judge_metrics(r, RD_LOAD_IN_REQUESTS_HEY);
}

/* One report from its "Summary:" line up to the next one or the end. */
static rd_status parse_report(const struct rd_import_input *in, struct rd_lines *it,
                              const struct rd_line *summary, struct rd_record *r,
                              struct rd_diag *d)
{
    struct hey_run h = { .r = r, .in = in, .d = d };
    rd_buf_init(&h.errors, 1 << 16);
    r->source_line = summary->no;
    rd_status s = rd_record_set(r, &r->tool, "hey");
    enum section sec = S_SUMMARY;
    struct rd_line l;
    unsigned blanks = 0; /* blank lines since the last text */
    while (s == RD_OK && rd_lines_peek(it, &l)) {
        if (is_summary(&l))
            break;
        rd_lines_next(it, &l);
        if (rd_line_is_blank(&l)) {
            blanks++;
            continue;
        }
        blanks = 0;
        bool title = false;
        for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
            if (rd_line_starts_with(&l, titles[i].title)) {
                sec = titles[i].s;
                h.seen[sec] = true;
                title = true;
            }
        if (title)
            continue;
        switch (sec) {
        case S_SUMMARY: s = summary_line(&h, &l); break;
        case S_HISTOGRAM: s = histogram_line(&h, &l); break;
        case S_LATENCY: s = latency_line(&h, &l); break;
        case S_DETAILS: s = details_line(&h, &l); break;
        case S_STATUS: s = status_line(&h, &l); break;
        case S_ERRORS: s = error_line(&h, &l); break;
        }
    }
    /* Every report ends with the status code section (empty when all
     * requests failed); without it the output was cut short. */
    if (s == RD_OK && !h.seen[S_STATUS])
        s = rd_diag_set(d, RD_ERR_PARSE, in->path, it->no + 1, 1,
                        "expected 'Status code distribution:', got end of input");
    /* The status and error sections have no count, so a cut between two of
     * their lines reads like a whole section. The blank lines hey's template
     * prints after them close the report: two after the status codes (the
     * second stands for the empty error section), one after the errors. */
    unsigned need = sec == S_ERRORS ? 1 : 2;
    if (s == RD_OK && (sec == S_STATUS || sec == S_ERRORS) && blanks < need)
        s = rd_text_ends_early(d, in->path, in->data, it->pos,
                               sec == S_ERRORS ? "a blank line after the error distribution"
                                               : "two blank lines after the status code "
                                                 "distribution");
    if (s == RD_OK)
        s = finish_run(&h);
    rd_buf_release(&h.errors);
    return s;
}

/* ---- -o csv ---- */

struct csv_row {
    double t, status;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static rd_status parse_csv(const struct rd_import_input *in, struct rd_lines *it,
                           const struct rd_line *header, struct rd_record *r,
                           struct rd_diag *d)
{
    r->source_line = header->no;
    RD_TRY(rd_record_set(r, &r->tool, "hey"));
    RD_TRY(rd_record_set_info(r, "format", "csv"));
    double *lat = NULL;
    size_t n = 0, cap = 0;
    /* Sums in whole tenths of a millisecond: hey prints 4 decimals of a
     * second, so integer sums are exact and the means print as decimals
     * (4.436, not 4.435999999999999). */
    long long sums[6] = { 0 };
    double non_2xx = 0;
    rd_status s = RD_OK;
    struct rd_line l;
    while (s == RD_OK && rd_lines_next(it, &l)) {
        if (rd_line_is_blank(&l))
            continue;
        /* Split on commas; each field is one token. */
        struct rd_token f[9];
        size_t nf = 0;
        const char *p = l.ptr, *end = l.ptr + l.len;
        while (nf < 9) {
            const char *c = memchr(p, ',', (size_t)(end - p));
            const char *fe = c ? c : end;
            f[nf].ptr = p;
            f[nf].len = (size_t)(fe - p);
            f[nf].col = rd_line_col(&l, p);
            nf++;
            if (!c)
                break;
            p = c + 1;
        }
        if (nf != 8) {
            s = fail_line(d, in->path, &l, "a csv row of 8 fields");
            break;
        }
        double v[8];
        for (size_t k = 0; k < 8 && s == RD_OK; k++) {
            if (k == 6)
                s = rd_tok_uint(&l, &f[k], &v[k], d);
            else
                s = rd_tok_seconds_as_ms(&l, &f[k], &v[k], d);
        }
        if (s != RD_OK)
            break;
        if ((s = RD_ARRAY_GROW(lat, cap, n + 1)) != RD_OK)
            break;
        lat[n++] = v[0];
        /* llround is undefined past long long, and so is an overflowing sum:
         * a time of 10^14 ms (3,000 years) per request is far past any run. */
        for (int k = 0; k < 6 && s == RD_OK; k++) {
            double tenths = v[k] * 10.0;
            long long t = tenths < 1e15 ? llround(tenths) : 0;
            if (!(tenths < 1e15))
                s = rd_expect_fail(d, &l, &f[k], "a time in seconds like '0.0123'");
            else if (sums[k] > LLONG_MAX - t)
                s = rd_expect_fail(d, &l, &f[k], "times whose sum fits (the column's sum "
                                                 "overflows)");
            else
                sums[k] += t;
        }
        if (s != RD_OK)
            break;
        if (v[6] < 200 || v[6] > 299)
            non_2xx++;
        char name[32];
        if (v[6] > 999) {
            s = rd_expect_fail(d, &l, &f[6], "a status code like '200'");
            break;
        }
        snprintf(name, sizeof name, "status_%03.0f", v[6]);
        double before = 0;
        rd_record_metric(r, name, &before);
        s = rd_record_set_metric(r, name, before + 1);
    }
    if (s == RD_OK) {
        if (n > 1) /* lat is NULL when there are no rows, and qsort's base must not be */
            qsort(lat, n, sizeof *lat, cmp_double);
        s = rd_record_set_metric(r, "requests", (double)n);
        if (!s)
            s = rd_record_set_metric(r, "non_2xx", non_2xx);
        if (!s && n) {
            s = rd_record_set_metric(r, "latency_mean_ms",
                                     rd_decimal_scale((double)sums[0] / (double)n, -1));
            if (!s)
                s = rd_record_set_metric(r, "latency_min_ms", lat[0]);
            if (!s)
                s = rd_record_set_metric(r, "latency_max_ms", lat[n - 1]);
            /* hey's loop (requester/report.go latencies()): walking the
             * sorted latencies, index i serves the next p when
             * i*100/n >= p in integer division, one p per i at most.
             * Unreached ones print as "0% in 0.0000 secs" and are omitted. */
            static const int pctls[] = { 10, 25, 50, 75, 90, 95, 99 };
            size_t j = 0;
            for (size_t i = 0; i < n && j < 7 && !s; i++) {
                if ((i * 100) / n >= (size_t)pctls[j]) {
                    char name[32];
                    snprintf(name, sizeof name, "latency_p%d_ms", pctls[j]);
                    s = rd_record_set_metric(r, name, lat[i]);
                    j++;
                }
            }
            static const char *const phases[] = { "dns_dialup_mean_ms", "dns_lookup_mean_ms",
                                                  "req_write_mean_ms", "resp_wait_mean_ms",
                                                  "resp_read_mean_ms" };
            for (int k = 0; k < 5 && !s; k++)
                s = rd_record_set_metric(r, phases[k],
                                         rd_decimal_scale((double)sums[k + 1] / (double)n, -1));
        }
        if (!s)
            s = rd_record_set_info(r, "note",
                                   "summarised from -o csv rows; hey leaves failed requests "
                                   "out of the csv, so errors are unknown");
        if (!s) {
            struct rd_load_tally t;
            rd_load_tally_from_metrics(&t, r, RD_LOAD_IN_REQUESTS_HEY);
            t.errors_unknown = true;
            s = rd_load_judge(r, &t);
        }
    }
    free(lat);
    return s;
}

/* ---- entry points ---- */

static bool is_csv_header(const struct rd_line *l)
{
    struct rd_line t = rd_line_trim(*l);
    return t.len == strlen(csv_header) && memcmp(t.ptr, csv_header, t.len) == 0;
}

static bool starts_run(const struct rd_line *l)
{
    return is_csv_header(l) || is_summary(l);
}

static rd_status parse_run(const struct rd_import_input *in, struct rd_lines *it,
                           const struct rd_line *first, struct rd_record *r, struct rd_diag *d)
{
    return is_csv_header(first) ? parse_csv(in, it, first, r, d)
                                : parse_report(in, it, first, r, d);
}

static rd_status parse_hey(const struct rd_import_input *in, struct rd_recordset *out,
                           struct rd_diag *d)
{
    RD_TRY(rd_text_runs(in, starts_run, parse_run,
                        "a hey report starting with 'Summary:' or its -o csv header", out, d));
    /* A csv row or a report line cut without its newline may be half a
     * number. */
    return rd_text_closed(d, in->path, in->data, in->len);
}

static int detect_hey(const struct rd_import_input *in)
{
    struct rd_lines it;
    struct rd_line l;
    rd_lines_init(&it, in->data, in->len);
    int score = 0;
    bool summary = false;
    for (int i = 0; i < 200 && rd_lines_next(&it, &l); i++) {
        if (i < 3 && is_csv_header(&l))
            return 95;
        if (is_summary(&l))
            summary = true;
        else if (summary && (rd_line_starts_with(&l, "Total:\t") ||
                             rd_line_starts_with(&l, "Slowest:\t")))
            score += 15;
        else
            for (size_t k = 0; k < sizeof titles / sizeof titles[0]; k++)
                if (rd_line_starts_with(&l, titles[k].title))
                    score += 15;
    }
    if (!summary)
        return score > 30 ? 30 : score;
    score += 30;
    return score > 95 ? 95 : score;
}

/* hey has no version flag: the Debian package says which it is. */
static const char *const version_argv[] = { "dpkg-query", "-W", "-f=hey ${Version}", "hey",
                                             NULL };

const struct rd_importer rd_importer_hey = {
    .name = "hey",
    .description = "hey summary report, or its -o csv rows summarised into one run",
    .version_argv = version_argv,
    .load = true,
    .detect = detect_hey,
    .parse = parse_hey,
};
