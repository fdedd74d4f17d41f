/*
 * autocannon_text - the reader of autocannon's text report: the cli-table3
 * tables it writes to stderr, and the lines around them.
 *
 * The report is read table cell by table cell; its Req/Sec row is
 * locale-formatted (toLocaleString since 7.14: 25,131.2, 25.131,2,
 * 25 131,2) and its footer counts are rounded to thousands ("251k"), so
 * rounded counts are kept as info strings, never as exact metrics. Several
 * runs in one capture are split at each "Running ..." line.
 * Depends on core, textscan, loadjudge and jsonimport's unit scaling only.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autocannon.h"
#include "autocannon_text.h"
#include "jsonimport.h"
#include "textscan.h"
#include "rundown/buf.h"
#include "rundown/units.h"
#include "rundown/utf8.h"

#define MAXCELLS 16

struct cell {
    const char *ptr;
    size_t len;
    unsigned col;
};

struct textrun {
    bool any, footer, have_lat, have_req, have_errors;
    double sent_min; /* the least "N requests in" can mean ("1176k": 1175500) */
    unsigned line;
    double interval_ms;
    struct rd_record *rec;
    size_t index; /* in the recordset: records move as the set grows */
    double errors, timeouts, non2xx, mism;
    /* The footer's counts as printed when it rounded them ("2k (1k
     * timeouts)", "1k"), for the failure; "" when exact. */
    char errors_shown[64], mism_shown[32];
};

/* Splits a table row into trimmed cells; returns the count, or -1 when the
 * row has more cells than any autocannon table. */
static int split_cells(const struct rd_line *ln, struct cell *cells)
{
    const char *p = ln->ptr, *end = ln->ptr + ln->len;
    const char *bar = memmem(p, (size_t)(end - p), RD_AUTOCANNON_BAR, 3);
    int n = 0;
    if (!bar)
        return 0;
    p = bar + 3;
    while (p < end) {
        bar = memmem(p, (size_t)(end - p), RD_AUTOCANNON_BAR, 3);
        if (!bar)
            break; /* text after the last bar is not a cell */
        const char *a = p, *b = bar;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (n == MAXCELLS)
            return -1;
        cells[n++] = (struct cell){ a, (size_t)(b - a), rd_line_col(ln, a) };
        p = bar + 3;
    }
    return n;
}

static bool cell_is(const struct cell *c, const char *s)
{
    return c->len == strlen(s) && memcmp(c->ptr, s, c->len) == 0;
}

static rd_status cell_fail(struct rd_diag *d, const char *path, unsigned line,
                           const struct cell *c, const char *what)
{
    char got[64];
    rd_excerpt(c->ptr, c->len, 32, got, sizeof got);
    return rd_diag_set(d, RD_ERR_PARSE, path, line, c->col, "expected %s, got '%s'", what,
                       got);
}

/* Group separators toLocaleString uses: , . ' and the no-break spaces
 * U+00A0, U+202F and the right single quote U+2019 (de-CH). */
static size_t group_sep_len(const char *p, const char *end)
{
    if (*p == ',' || *p == '.' || *p == '\'' || *p == ' ')
        return 1;
    uint32_t cp;
    size_t n = rd_utf8_decode((const unsigned char *)p, (size_t)(end - p), &cp);
    return n > 1 && (cp == 0xA0 || cp == 0x202F || cp == 0x2019) ? n : 0;
}

/*
 * A Req/Sec cell as toLocaleString printed it, in any locale. The decimal
 * mark is told from grouping by the digits after it: autocannon rounds
 * averages up to two decimals and prints percentiles as integers, so a
 * separator followed by exactly three digits always groups thousands.
 */
static rd_status parse_locale_number(const char *s, size_t n, double *out)
{
    if (rd_is_nan_spelling(s, n)) {
        *out = NAN;
        return RD_OK;
    }
    const char *p = s, *end = s + n;
    bool neg = p < end && *p == '-';
    if (neg)
        p++;
    /* Digit groups and the separator after each. */
    const char *gptr[24], *sep[24];
    size_t glen[24], sepl[24], ng = 0;
    while (p < end) {
        size_t k = 0;
        while (p + k < end && p[k] >= '0' && p[k] <= '9')
            k++;
        if (k == 0 || ng == 24)
            return RD_ERR_PARSE;
        gptr[ng] = p;
        glen[ng] = k;
        p += k;
        sep[ng] = p;
        sepl[ng] = p < end ? group_sep_len(p, end) : 0;
        if (p < end && !sepl[ng])
            return RD_ERR_PARSE;
        p += sepl[ng++];
        if (p == end && sepl[ng - 1])
            return RD_ERR_PARSE; /* a trailing separator */
    }
    if (ng == 0)
        return RD_ERR_PARSE;
    size_t last = ng - 1;
    bool has_dec = ng >= 2 && glen[last] != 3 && sepl[last - 1] == 1 &&
                   (*sep[last - 1] == '.' || *sep[last - 1] == ',');
    size_t nint = has_dec ? ng - 1 : ng; /* groups of the integer part */
    if (nint > 1 && glen[0] > 3)
        return RD_ERR_PARSE;
    for (size_t g = 1; g < nint; g++) {
        /* Thousands groups have three digits; en-IN's lakh grouping has two
         * before the last group (2,51,312). One separator throughout. */
        if (glen[g] != 3 && !(glen[g] == 2 && g + 1 < nint))
            return RD_ERR_PARSE;
        if (sepl[g - 1] != sepl[0] || memcmp(sep[g - 1], sep[0], sepl[0]) != 0)
            return RD_ERR_PARSE;
    }
    if (has_dec && nint > 1 && sepl[0] == 1 && *sep[0] == *sep[last - 1])
        return RD_ERR_PARSE; /* one mark cannot both group and split */
    char buf[80];
    size_t w = 0;
    if (neg)
        buf[w++] = '-';
    for (size_t g = 0; g < ng; g++) {
        if (w + glen[g] + 2 >= sizeof buf)
            return RD_ERR_PARSE;
        if (has_dec && g == last)
            buf[w++] = '.';
        memcpy(buf + w, gptr[g], glen[g]);
        w += glen[g];
    }
    buf[w] = '\0';
    return rd_parse_double(buf, w, out);
}

/* "12.5 ms" (or a bare number in the old "Latency (ms)" row). */
static rd_status parse_ms_cell(const struct cell *c, bool unit_required, double *out)
{
    const char *sp = memchr(c->ptr, ' ', c->len);
    size_t nl = sp ? (size_t)(sp - c->ptr) : c->len;
    if (sp && (c->len - nl - 1 != 2 || memcmp(sp + 1, "ms", 2) != 0))
        return RD_ERR_PARSE;
    if (rd_is_nan_spelling(c->ptr, nl)) {
        *out = NAN;
        return RD_OK;
    }
    if (!sp && unit_required)
        return RD_ERR_PARSE;
    return rd_parse_double(c->ptr, nl, out);
}

/* pretty-bytes v5: decimal SI units, a space before the unit. */
static rd_status parse_si_bytes(const char *s, size_t n, double *out)
{
    static const struct { const char *u; int exp; } units[] = {
        { "B", 0 }, { "kB", 3 }, { "MB", 6 }, { "GB", 9 }, { "TB", 12 },
        { "PB", 15 }, { "EB", 18 }, { "ZB", 21 }, { "YB", 24 }
    };
    const char *sp = memchr(s, ' ', n);
    if (!sp)
        return RD_ERR_PARSE;
    size_t nl = (size_t)(sp - s), ul = n - nl - 1;
    double v;
    if (rd_parse_double(s, nl, &v) || v < 0)
        return RD_ERR_PARSE;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (ul == strlen(units[i].u) && memcmp(sp + 1, units[i].u, ul) == 0)
            return rd_scale10_finite(v, units[i].exp, out);
    return RD_ERR_PARSE;
}

/* A footer count: exact ("951"), or rounded to thousands ("251k"). */
static rd_status parse_footer_count(const struct rd_token *t, double *v, bool *exact)
{
    unsigned long long n;
    *exact = !(t->len > 1 && t->ptr[t->len - 1] == 'k');
    if (rd_parse_uint(t->ptr, t->len - (*exact ? 0 : 1), &n))
        return RD_ERR_PARSE;
    *v = (double)n * (*exact ? 1 : 1000);
    return RD_OK;
}

/* Metric name for a header cell of the latency / requests tables. */
static bool stat_name(const struct cell *h, const char *prefix, const char *suffix,
                      bool mean_is_bare, char *out, size_t size)
{
    if (cell_is(h, "Avg"))
        snprintf(out, size, mean_is_bare ? "%s%s" : "%s_mean%s", prefix, suffix);
    else if (cell_is(h, "Stdev"))
        snprintf(out, size, "%s_stdev%s", prefix, suffix);
    else if (cell_is(h, "Max"))
        snprintf(out, size, "%s_max%s", prefix, suffix);
    else if (cell_is(h, "Min"))
        snprintf(out, size, "%s_min%s", prefix, suffix);
    else if (h->len >= 2 && h->len < 12 && h->ptr[h->len - 1] == '%') {
        char num[16], frag[16];
        double p;
        if (rd_parse_double(h->ptr, h->len - 1, &p) || p < 0 || p > 100)
            return false;
        memcpy(num, h->ptr, h->len - 1);
        num[h->len - 1] = '\0';
        snprintf(out, size, "%s_p%s%s", prefix, rd_metric_fragment(num, frag, sizeof frag),
                 suffix);
    } else {
        return false;
    }
    return true;
}

struct textctx {
    const struct rd_import_input *in;
    struct rd_recordset *out;
    struct rd_diag *d;
    struct textrun run;
    struct cell head[MAXCELLS];
    int nhead;
    bool in_table, want_header;
    unsigned runs;
};

static struct rd_record *cur(struct textctx *c)
{
    return &c->out->items[c->run.index];
}

static rd_status start_run(struct textctx *c, unsigned line)
{
    struct rd_record *r = rd_recordset_add(c->out);
    if (!r)
        return RD_ERR_NOMEM;
    memset(&c->run, 0, sizeof c->run);
    c->run.any = true;
    c->run.line = line;
    c->run.interval_ms = 1000;
    c->run.index = c->out->len - 1;
    r->source_line = line;
    return rd_record_set(r, &r->tool, RD_AUTOCANNON_TOOL);
}

/* A run that lacks a closing line: at the end of the input it is a cut
 * capture; before another run, a run missing a line. */
static rd_status run_cut(struct textctx *c, unsigned line, const char *what)
{
    if (line == 0)
        return rd_text_ends_early(c->d, c->in->path, c->in->data, c->in->len, what);
    return rd_diag_set(c->d, RD_ERR_PARSE, c->in->path, c->run.line, 1,
                       "expected %s in the run starting here, got none", what);
}

static rd_status finish_run(struct textctx *c, unsigned line)
{
    if (!c->run.any)
        return RD_OK;
    struct rd_record *r = cur(c);
    /* autocannon prints no tables for a -W warmup, only its banner: there
     * is nothing to record, and the measured run follows. */
    if (!c->run.have_lat && !c->run.have_req && strcmp(r->phase, "warmup") == 0 &&
        c->run.index == c->out->len - 1) {
        c->out->len--;
        c->run.any = false;
        return RD_OK;
    }
    if (!c->run.have_lat || !c->run.have_req)
        return rd_diag_set(c->d, RD_ERR_PARSE, c->in->path, c->run.line, 1,
                           "expected autocannon's %s table (a '│ %s │' row) in the run "
                           "starting here, got none",
                           !c->run.have_lat ? "Latency" : "Req/Sec",
                           !c->run.have_lat ? "Latency" : "Req/Sec");
    /* The footer closes every report; a run without it was cut short,
     * whatever its tables say. */
    if (!c->run.footer)
        return run_cut(c, line, "the line '<N> requests in <s>, <size> read'");
    /* The errors line is optional, so a cut right before it leaves a report
     * that looks whole. The counts give it away: requests sent beyond the
     * responses and what the connections can hold in flight at the end were
     * errors, and autocannon prints them. */
    double c2xx_seen, conns = 1, pipe = 1;
    if (!c->run.have_errors && rd_record_metric(r, "status_2xx", &c2xx_seen)) {
        rd_record_metric(r, "connections", &conns);
        rd_record_metric(r, "pipelining", &pipe);
        if (c->run.sent_min - (c2xx_seen + c->run.non2xx) > conns * (pipe > 1 ? pipe : 1))
            return run_cut(c, line, "the line '<N> errors (<M> timeouts)' (more requests "
                                    "were sent than answered)");
    }
    /* Req/Sec and Bytes/Sec count per sample interval. */
    if (c->run.interval_ms != 1000) {
        for (size_t i = 0; i < r->nmetrics; i++) {
            const char *n = r->metrics[i].name;
            if ((strncmp(n, "rps", 3) == 0 || strncmp(n, "transfer_", 9) == 0) &&
                rd_autocannon_per_second(r->metrics[i].value, c->run.interval_ms, &r->metrics[i].value))
                return rd_diag_set(c->d, RD_ERR_PARSE, c->in->path, c->run.line, 1,
                                   "expected a finite '%s' per second in the run starting "
                                   "here, got %g per %g ms", n, r->metrics[i].value,
                                   c->run.interval_ms);
        }
    }
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    if (c->run.errors_shown[0])
        rd_load_add_failed(&t, "socket errors", c->run.errors, c->run.errors_shown);
    else
        rd_autocannon_socket_errors(&t, c->run.errors, c->run.timeouts);
    t.non_2xx = c->run.non2xx;
    rd_load_add_failed_responses(&t, "mismatched responses", c->run.mism,
                                 c->run.mism_shown[0] ? c->run.mism_shown : NULL);
    /* The completed requests are the exact "A 2xx responses, B non 2xx
     * responses"; without that line, a mean rate of 0 (or none) means no
     * sample interval completed one. */
    double rps = NAN, c2xx;
    rd_record_metric(r, "rps", &rps);
    double sent;
    if (rd_record_metric(r, "status_2xx", &c2xx)) {
        t.requests = c2xx + c->run.non2xx;
        t.responses_2xx = c2xx;
    } else if (rd_record_metric(r, "requests_sent", &sent)) {
        /* No response counts (autocannon before 7): the exact "N requests
         * in" are the attempts. */
        t.attempted = sent;
    }
    if (!(rps > 0))
        t.requests = 0;
    c->run.any = false;
    return rd_load_judge(r, &t);
}

static rd_status table_row(struct textctx *c, const struct rd_line *ln)
{
    struct cell cells[MAXCELLS];
    int n = split_cells(ln, cells);
    const char *path = c->in->path;
    if (n <= 0)
        return rd_diag_set(c->d, RD_ERR_PARSE, path, ln->no, 1,
                           "expected a table row of cells between '│', got %s",
                           n < 0 ? "too many cells" : "none");
    if (c->want_header) {
        memcpy(c->head, cells, sizeof cells[0] * (size_t)n);
        c->nhead = n;
        c->want_header = false;
        return RD_OK;
    }
    if (n != c->nhead)
        return rd_diag_set(c->d, RD_ERR_PARSE, path, ln->no, cells[0].col,
                           "expected %d cells as in the table header, got %d", c->nhead,
                           n);
    struct rd_record *r = cur(c);
    rd_status s = RD_OK;
    char name[64];
    double v;
    if (cell_is(&c->head[0], "Code")) {
        unsigned long long code, cnt;
        if (n != 2)
            return cell_fail(c->d, path, ln->no, &cells[0], "a row '│ code │ count │'");
        if (rd_parse_uint(cells[0].ptr, cells[0].len, &code) || code > 999)
            return cell_fail(c->d, path, ln->no, &cells[0], "an HTTP status code");
        if (rd_parse_uint(cells[1].ptr, cells[1].len, &cnt))
            return cell_fail(c->d, path, ln->no, &cells[1], "a response count");
        snprintf(name, sizeof name, "status_%llu", code);
        return rd_record_set_metric(r, name, (double)cnt);
    }
    if (cell_is(&c->head[0], "Percentile")) {
        char num[24], frag[24];
        if (n != 2 || cells[0].len >= sizeof num ||
            rd_parse_double(cells[0].ptr, cells[0].len, &v) || v < 0 || v > 100)
            return cell_fail(c->d, path, ln->no, &cells[0], "a percentile such as 99.9");
        memcpy(num, cells[0].ptr, cells[0].len);
        num[cells[0].len] = '\0';
        struct cell *val = &cells[1];
        if (parse_ms_cell(val, false, &v) || v < 0)
            return cell_fail(c->d, path, ln->no, val, "a latency in ms");
        snprintf(name, sizeof name, "latency_p%s_ms", rd_metric_fragment(num, frag, sizeof frag));
        return rd_record_set_metric(r, name, v);
    }
    enum { LAT, REQ, BYTES } kind;
    bool unit_required = true;
    if (cell_is(&cells[0], "Latency")) {
        kind = LAT;
    } else if (cell_is(&cells[0], "Latency (ms)")) {
        kind = LAT; /* autocannon <= 2 printed bare numbers */
        unit_required = false;
    } else if (cell_is(&cells[0], "Req/Sec")) {
        kind = REQ;
    } else if (cell_is(&cells[0], "Bytes/Sec")) {
        kind = BYTES;
    } else {
        return cell_fail(c->d, path, ln->no, &cells[0],
                         "a row 'Latency', 'Req/Sec' or 'Bytes/Sec'");
    }
    for (int i = 1; i < n && !s; i++) {
        const struct cell *h = &c->head[i], *x = &cells[i];
        bool ok;
        if (kind == LAT)
            ok = stat_name(h, "latency", "_ms", false, name, sizeof name);
        else if (kind == REQ)
            ok = stat_name(h, "rps", "", true, name, sizeof name);
        else
            ok = stat_name(h, "transfer", "_bytes_per_s", true, name, sizeof name);
        if (!ok)
            return cell_fail(c->d, path, ln->no - 0, h,
                             "a column 'Avg', 'Stdev', 'Min', 'Max' or 'N%'");
        if (kind == LAT) {
            if (parse_ms_cell(x, unit_required, &v) || v < 0)
                return cell_fail(c->d, path, ln->no, x, "a latency like '12.5 ms'");
        } else if (kind == REQ) {
            if (parse_locale_number(x->ptr, x->len, &v) || v < 0)
                return cell_fail(c->d, path, ln->no, x, "a request rate like '25,131.2'");
        } else {
            if (rd_is_nan_spelling(x->ptr, x->len))
                v = NAN;
            else if (parse_si_bytes(x->ptr, x->len, &v))
                return cell_fail(c->d, path, ln->no, x, "a byte rate like '2.29 MB'");
        }
        s = rd_record_set_metric(r, name, v);
    }
    if (kind == LAT)
        c->run.have_lat = true;
    if (kind == REQ)
        c->run.have_req = true;
    return s;
}

static rd_status token_fail(struct textctx *c, const struct rd_line *ln,
                            const struct rd_token *t, const char *what)
{
    return rd_expect_fail(c->d, ln, t, what);
}

/* The lines around the tables. Unknown lines (node warnings, progress bars)
 * are skipped; the tables themselves are strict. */
static rd_status text_line(struct textctx *c, const struct rd_line *ln)
{
    struct rd_token t[12];
    size_t n = rd_tokenize(ln, t, 12), nt = n < 12 ? n : 12;
    struct rd_record *r;
    double v;
    bool exact;
    rd_status s = RD_OK;
    char buf[32];
    if (n == 0)
        return RD_OK;
    if (rd_token_is(&t[0], "Running") && n >= 5 &&
        (rd_token_is(&t[nt - 2], "@") || rd_token_is(&t[3], "@") ||
         rd_token_is(&t[4], "@"))) {
        if ((s = finish_run(c, ln->no)) || (s = start_run(c, ln->no)))
            return s;
        c->runs++;
        r = cur(c);
        for (size_t i = 1; i + 1 < nt; i++)
            if (rd_token_is(&t[i], "@")) {
                char url[1024];
                size_t len = ln->len - (size_t)(t[i + 1].ptr - ln->ptr);
                while (len && (t[i + 1].ptr[len - 1] == ' ' || t[i + 1].ptr[len - 1] == '\r'))
                    len--;
                if (len >= sizeof url)
                    len = sizeof url - 1;
                memcpy(url, t[i + 1].ptr, len);
                url[len] = '\0';
                s = rd_record_set_info(r, "url", url);
                if (!s && rd_token_is(&t[i - 1], "warmup"))
                    r->phase = "warmup";
                break;
            }
        return s;
    }
    if (!c->run.any) {
        /* Output before any "Running" line: a run starts at its first table. */
        return RD_OK;
    }
    r = cur(c);
    bool tables = c->run.have_lat || c->run.have_req;
    if (n >= 2 && rd_token_is(&t[1], "connections")) {
        unsigned long long k;
        if (rd_parse_uint(t[0].ptr, t[0].len, &k))
            return token_fail(c, ln, &t[0], "a connection count");
        s = rd_record_set_metric(r, "connections", (double)k);
        if (!s && n >= 4 && rd_token_is(&t[2], "with")) {
            if (rd_parse_uint(t[3].ptr, t[3].len, &k))
                return token_fail(c, ln, &t[3], "a pipelining factor");
            s = rd_record_set_metric(r, "pipelining", (double)k);
        }
        return s;
    }
    if (n == 2 && rd_token_is(&t[1], "workers")) {
        unsigned long long k;
        if (rd_parse_uint(t[0].ptr, t[0].len, &k))
            return token_fail(c, ln, &t[0], "a worker count");
        return rd_record_set_metric(r, "workers", (double)k);
    }
    /* The summary lines follow the tables; before them, a line that merely
     * looks like one (wrk's "N requests in") is not autocannon's. */
    if (!tables)
        return RD_OK;
    if (rd_line_starts_with(ln, "Req/Bytes counts sampled")) {
        if (rd_line_contains(ln, "once per second"))
            c->run.interval_ms = 1000;
        else if (n >= 6 && rd_token_is(&t[3], "every")) {
            if (rd_parse_double(t[4].ptr, t[4].len, &v) || !(v > 0))
                return token_fail(c, ln, &t[4], "a sample interval in seconds");
            c->run.interval_ms = rd_scale10(v, 3);
        } else {
            return token_fail(c, ln, n > 3 ? &t[3] : NULL, "'once' or 'every'");
        }
        snprintf(buf, sizeof buf, "%.17g", c->run.interval_ms);
        return rd_record_set_info(r, "sample_interval_ms", buf);
    }
    if (rd_line_starts_with(ln, "# of samples:") && n == 4) {
        unsigned long long k;
        if (rd_parse_uint(t[3].ptr, t[3].len, &k))
            return token_fail(c, ln, &t[3], "a sample count");
        return rd_record_set_metric(r, "samples", (double)k);
    }
    if (n == 7 && rd_token_is(&t[1], "2xx") && rd_token_is(&t[2], "responses,") &&
        rd_token_is(&t[4], "non")) {
        unsigned long long a, b;
        if (rd_parse_uint(t[0].ptr, t[0].len, &a))
            return token_fail(c, ln, &t[0], "a count of 2xx responses");
        if (rd_parse_uint(t[3].ptr, t[3].len, &b))
            return token_fail(c, ln, &t[3], "a count of non-2xx responses");
        c->run.non2xx = (double)b;
        if ((s = rd_record_set_metric(r, "status_2xx", (double)a)))
            return s;
        return rd_record_set_metric(r, "non_2xx", (double)b);
    }
    if (n >= 5 && rd_token_is(&t[1], "requests") && rd_token_is(&t[2], "in")) {
        /* "251k requests in 10.05s, 27.9 MB read" */
        if (parse_footer_count(&t[0], &v, &exact))
            return token_fail(c, ln, &t[0], "a request count like '951' or '251k'");
        c->run.sent_min = exact ? v : v - 500;
        s = exact ? rd_record_set_metric(r, "requests_sent", v)
                  : rd_record_set_info(r, "requests_sent", (snprintf(buf, sizeof buf, "%.*s",
                                                                      (int)t[0].len, t[0].ptr),
                                                             buf));
        if (s)
            return s;
        if (t[3].len < 3 || t[3].ptr[t[3].len - 2] != 's' || t[3].ptr[t[3].len - 1] != ',' ||
            rd_parse_double(t[3].ptr, t[3].len - 2, &v) || v < 0)
            return token_fail(c, ln, &t[3], "a duration like '10.05s,'");
        if ((s = rd_record_set_metric(r, "duration_s", v)))
            return s;
        if (n != 7 || !rd_token_is(&t[6], "read"))
            return token_fail(c, ln, n > 6 ? &t[6] : NULL, "'<size> read'");
        size_t len = (size_t)(t[5].ptr + t[5].len - t[4].ptr);
        if (parse_si_bytes(t[4].ptr, len, &v))
            return token_fail(c, ln, &t[4], "a size like '27.9 MB'");
        c->run.footer = true;
        return rd_record_set_metric(r, "bytes_total", v);
    }
    if (n == 4 && rd_token_is(&t[1], "errors") && t[2].len > 1 && t[2].ptr[0] == '(' &&
        rd_token_is(&t[3], "timeouts)")) {
        struct rd_token num = { t[2].ptr + 1, t[2].len - 1, t[2].col + 1 };
        bool errors_exact;
        if (parse_footer_count(&t[0], &v, &errors_exact))
            return token_fail(c, ln, &t[0], "an error count like '12' or '2k'");
        c->run.errors = v;
        c->run.have_errors = true;
        snprintf(buf, sizeof buf, "%.*s", (int)t[0].len, t[0].ptr);
        s = errors_exact ? rd_record_set_metric(r, "errors", v)
                         : rd_record_set_info(r, "errors", buf);
        if (s)
            return s;
        if (parse_footer_count(&num, &v, &exact))
            return token_fail(c, ln, &num, "a timeout count like '10' or '1k'");
        c->run.timeouts = v;
        /* Rounded counts cannot be split into connect errors and timeouts:
         * the failure shows them as autocannon printed them. */
        c->run.errors_shown[0] = '\0';
        if (!errors_exact || !exact)
            snprintf(c->run.errors_shown, sizeof c->run.errors_shown, "%.*s (%.*s timeouts)",
                     (int)t[0].len, t[0].ptr, (int)num.len, num.ptr);
        snprintf(buf, sizeof buf, "%.*s", (int)num.len, num.ptr);
        return exact ? rd_record_set_metric(r, "errors_timeout", v)
                     : rd_record_set_info(r, "errors_timeout", buf);
    }
    if (n == 5 && rd_token_is(&t[1], "requests") && rd_token_is(&t[3], "mismatched")) {
        if (parse_footer_count(&t[0], &v, &exact))
            return token_fail(c, ln, &t[0], "a mismatch count");
        c->run.mism = v;
        snprintf(buf, sizeof buf, "%.*s", (int)t[0].len, t[0].ptr);
        snprintf(c->run.mism_shown, sizeof c->run.mism_shown, "%s", exact ? "" : buf);
        return exact ? rd_record_set_metric(r, "mismatches", v)
                     : rd_record_set_info(r, "mismatches", buf);
    }
    if (rd_line_starts_with(ln, "request pipeline was reset") && n == 6) {
        if (parse_footer_count(&t[4], &v, &exact))
            return token_fail(c, ln, &t[4], "a reset count");
        snprintf(buf, sizeof buf, "%.*s", (int)t[4].len, t[4].ptr);
        return exact ? rd_record_set_metric(r, "resets", v)
                     : rd_record_set_info(r, "resets", buf);
    }
    return RD_OK;
}

static rd_status parse_tables(const struct rd_import_input *in, struct rd_recordset *out,
                             struct rd_diag *d)
{
    struct textctx c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.out = out;
    c.d = d;
    struct rd_lines it;
    struct rd_line ln;
    rd_status s = RD_OK;
    rd_lines_init(&it, in->data, in->len);
    while (!s && rd_lines_next(&it, &ln)) {
        struct rd_line tr = rd_line_trim(ln);
        bool top = rd_line_starts_with(&tr, "\xe2\x94\x8c");    /* ┌ */
        bool sep = rd_line_starts_with(&tr, "\xe2\x94\x9c");    /* ├ */
        bool bottom = rd_line_starts_with(&tr, "\xe2\x94\x94"); /* └ */
        bool row = rd_line_starts_with(&tr, RD_AUTOCANNON_BAR);
        if (top) {
            if (c.in_table)
                return rd_diag_set(d, RD_ERR_PARSE, in->path, ln.no, 1,
                                   "expected the end of the table ('└'), got a new table");
            /* A table after a finished footer belongs to the next run. */
            if (c.run.any && c.run.footer && (s = finish_run(&c, ln.no)))
                return s;
            if (!c.run.any && (s = start_run(&c, ln.no)))
                return s;
            c.runs++;
            c.in_table = true;
            c.want_header = true;
        } else if (sep || bottom) {
            if (!c.in_table)
                return rd_diag_set(d, RD_ERR_PARSE, in->path, ln.no, 1,
                                   "expected a table top ('┌') first, got a table border");
            if (bottom)
                c.in_table = false;
        } else if (row) {
            if (!c.in_table)
                return rd_diag_set(d, RD_ERR_PARSE, in->path, ln.no, 1,
                                   "expected a table top ('┌') first, got a table row");
            s = table_row(&c, &ln);
        } else {
            if (c.in_table)
                return rd_diag_set(d, RD_ERR_PARSE, in->path, ln.no, 1,
                                   "expected a table row or border, got text (truncated "
                                   "table?)");
            s = text_line(&c, &tr);
        }
    }
    if (s)
        return s;
    if (c.in_table)
        return rd_diag_set(d, RD_ERR_PARSE, in->path, it.no ? it.no : 1, 1,
                           "expected the end of the table ('└'), got end of input "
                           "(truncated?)");
    if (c.runs == 0) {
        /* Nothing like autocannon: show the first non-blank line. */
        struct rd_lines it2;
        struct rd_line first = { in->data, 0, 1 };
        rd_lines_init(&it2, in->data, in->len);
        while (rd_lines_next(&it2, &first) && rd_line_trim(first).len == 0)
            ;
        char got[80];
        if (rd_line_trim(first).len == 0)
            return rd_diag_set(d, RD_ERR_PARSE, in->path, 1, 1,
                               "expected autocannon's result tables or --json output, "
                               "got empty input");
        rd_excerpt(first.ptr, first.len, 40, got, sizeof got);
        return rd_diag_set(d, RD_ERR_PARSE, in->path, first.no, 1,
                           "expected autocannon's result tables or --json output, got '%s'",
                           got);
    }
    RD_TRY(finish_run(&c, 0));
    return rd_text_closed(d, in->path, in->data, in->len);
}

/* Colour codes (chalk, when stderr was a terminal) are dropped before
 * parsing; positions in messages then refer to the uncoloured text. */
static char *strip_ansi(const char *s, size_t n, size_t *outlen)
{
    char *o = malloc(n + 1);
    size_t w = 0;
    if (!o)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == 0x1b && i + 1 < n && s[i + 1] == '[') {
            size_t j = i + 2;
            while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';'))
                j++;
            if (j < n && s[j] == 'm') {
                i = j;
                continue;
            }
        }
        o[w++] = s[i];
    }
    o[w] = '\0';
    *outlen = w;
    return o;
}

rd_status rd_autocannon_parse_text(const struct rd_import_input *in, struct rd_recordset *out,
                                   struct rd_diag *d)
{
    if (!memchr(in->data, 0x1b, in->len))
        return parse_tables(in, out, d);
    struct rd_import_input plain = *in;
    char *copy = strip_ansi(in->data, in->len, &plain.len);
    if (!copy)
        return RD_ERR_NOMEM;
    plain.data = copy;
    rd_status s = parse_tables(&plain, out, d);
    free(copy);
    return s;
}
