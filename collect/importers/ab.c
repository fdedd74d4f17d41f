/*
 * ab - the importer for ApacheBench's report (httpd support/ab.c,
 * output_results(); notes in ../shared/formats/ab.md).
 *
 * The report is "Label:   value" lines, a Connection Times table and a
 * percentile table. Lines are told apart by their label (the text before the
 * first ':'), not by position: optional lines (TLS, failure breakdown,
 * Non-2xx, Keep-Alive, body sent) come and go, and trunk builds add labels of
 * their own, which are skipped. Anything else inside the report is an error,
 * so a garbled or cut report is never taken for a good one.
 *
 * ab stops without a report on a fatal error (connection refused, timeout,
 * too many failures); its stdout then ends after "Benchmarking ..." or with
 * "Total of N requests completed". Such a run is kept as a failed run. Failed
 * requests are split by cause: Connect, Receive and Exceptions are errors,
 * Length only says a body differed from the first one (dynamic pages) and
 * does not fail a run on its own. Non-2xx is ab's count, which includes 3xx.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "httpcommon.h"
#include "importer.h"
#include "loadjudge.h"

#define MAX_TOKENS 16

struct ab_run {
    const struct rd_import_input *in;
    struct rd_diag *d;
    struct rd_record *r;
    bool report;          /* "Server Software:" seen */
    bool tls;
    const char *host, *port, *path;
    double failed_connect, failed_receive, failed_exceptions, failed_length, write_errors;
    bool seen_concurrency, seen_time, seen_complete, seen_failed, seen_total, seen_html;
    bool seen_times, seen_percentiles;  /* the two tables */
    double complete;
    struct rd_buf failure;
    const char *last_rate;  /* the metric the next "kb/s" continuation line follows */
};

static rd_status fail_line(struct ab_run *a, const struct rd_line *l, const char *what)
{
    return rd_line_fail(a->d, a->in->path, l, what);
}

static bool is_banner(const struct rd_line *l)
{
    return rd_line_starts_with(l, "This is ApacheBench");
}

/* The value of a "Label:   value" line: after the first ':' and blanks. */
static struct rd_line value_of(const struct rd_line *l, size_t colon)
{
    struct rd_line v = { l->ptr + colon + 1, l->len - colon - 1, l->no };
    return rd_line_trim(v);
}

static char *arena_copy(struct ab_run *a, struct rd_line v)
{
    return rd_arena_strndup(a->r->arena, v.ptr, v.len);
}

/* A value "<N> <unit>" (unit may be NULL for a bare number). Returns the
 * tokens so callers can check more words. */
static rd_status number_unit(struct ab_run *a, const struct rd_line *l, struct rd_line v,
                             const char *unit, bool integer, double *out)
{
    struct rd_line vl = { v.ptr, v.len, l->no };
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(&vl, tok, MAX_TOKENS);
    /* Columns were counted within the value; make them columns of the line. */
    unsigned off = rd_line_col(l, v.ptr) - 1;
    for (size_t i = 0; i < n && i < MAX_TOKENS; i++)
        tok[i].col += off;
    if (n == 0)
        return rd_expect_fail(a->d, l, NULL, integer ? "a count like '42'" : "a number");
    if (integer)
        RD_TRY(rd_tok_uint(l, &tok[0], out, a->d));
    else
        RD_TRY(rd_tok_double(l, &tok[0], out, a->d));
    if (!integer && *out < 0)
        return rd_expect_fail(a->d, l, &tok[0], "a number that is not negative");
    if (unit) {
        if (n < 2 || !rd_token_is(&tok[1], unit)) {
            char what[48];
            snprintf(what, sizeof what, "'%s'", unit);
            return rd_expect_fail(a->d, l, n < 2 ? NULL : &tok[1], what);
        }
    } else if (n > 1) {
        return rd_expect_fail(a->d, l, &tok[1], "end of line");
    }
    return RD_OK;
}

static rd_status set(struct ab_run *a, const char *name, double v)
{
    return rd_record_set_metric(a->r, name, v);
}

/* "   (Connect: 0, Receive: 3, Length: 1271, Exceptions: 14)" */
static rd_status breakdown_line(struct ab_run *a, const struct rd_line *l)
{
    static const char *const labels[] = { "(Connect:", "Receive:", "Length:", "Exceptions:" };
    static const char *const metrics[] = { "failed_connect", "failed_receive", "failed_length",
                                           "failed_exceptions" };
    double *fields[] = { &a->failed_connect, &a->failed_receive, &a->failed_length,
                         &a->failed_exceptions };
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 8)
        return fail_line(a, l, "'(Connect: <N>, Receive: <N>, Length: <N>, Exceptions: <N>)'");
    for (int i = 0; i < 4; i++) {
        if (!rd_token_is(&tok[2 * i], labels[i])) {
            char what[32];
            snprintf(what, sizeof what, "'%s'", labels[i]);
            return rd_expect_fail(a->d, l, &tok[2 * i], what);
        }
        struct rd_token num = tok[2 * i + 1];
        char tail = i < 3 ? ',' : ')';
        if (num.len < 2 || num.ptr[num.len - 1] != tail) {
            char what[40];
            snprintf(what, sizeof what, "a count followed by '%c'", tail);
            return rd_expect_fail(a->d, l, &num, what);
        }
        num.len--;
        RD_TRY(rd_tok_uint(l, &num, fields[i], a->d));
        RD_TRY(set(a, metrics[i], *fields[i]));
    }
    return RD_OK;
}

/* One "Label: value" line of the report. */
static rd_status key_line(struct ab_run *a, const struct rd_line *l, size_t colon)
{
    struct rd_line key = { l->ptr, colon, l->no };
    key = rd_line_trim(key);
    struct rd_line v = value_of(l, colon);
    double x;
#define KEY(s) (key.len == strlen(s) && memcmp(key.ptr, s, key.len) == 0)
    if (KEY("Server Software"))  /* empty when the server sent no Server: header */
        return v.len ? rd_record_set_info(a->r, "server_software", arena_copy(a, v)) : RD_OK;
    if (KEY("Server Hostname")) {
        a->host = arena_copy(a, v);
        return rd_record_set_info(a->r, "server_hostname", a->host);
    }
    if (KEY("Server Port")) {
        RD_TRY(number_unit(a, l, v, NULL, true, &x));
        a->port = arena_copy(a, v);
        return RD_OK;
    }
    if (KEY("SSL/TLS Protocol")) {
        a->tls = true;
        return rd_record_set_info(a->r, "tls_protocol", arena_copy(a, v));
    }
    if (KEY("Server Temp Key"))
        return rd_record_set_info(a->r, "tls_temp_key", arena_copy(a, v));
    if (KEY("TLS Server Name"))
        return rd_record_set_info(a->r, "tls_server_name", arena_copy(a, v));
    if (KEY("Document Path")) {
        a->path = arena_copy(a, v);
        return RD_OK;
    }
    if (KEY("Document Length")) {
        if (v.len == 8 && memcmp(v.ptr, "Variable", 8) == 0)
            return rd_record_set_info(a->r, "document_length", "Variable");
        RD_TRY(number_unit(a, l, v, "bytes", true, &x));
        return set(a, "document_length_bytes", x);
    }
    if (KEY("Concurrency Level")) {
        RD_TRY(number_unit(a, l, v, NULL, true, &x));
        a->seen_concurrency = true;
        RD_TRY(rd_record_set_info(a->r, "concurrency", arena_copy(a, v)));
        return set(a, "connections", x);
    }
    if (KEY("Time taken for tests")) {
        RD_TRY(number_unit(a, l, v, "seconds", false, &x));
        a->seen_time = true;
        return set(a, "duration_s", x);
    }
    if (KEY("Complete requests")) {
        RD_TRY(number_unit(a, l, v, NULL, true, &x));
        a->seen_complete = true;
        a->complete = x;
        return set(a, "requests", x);
    }
    if (KEY("Failed requests")) {
        RD_TRY(number_unit(a, l, v, NULL, true, &x));
        a->seen_failed = true;
        return set(a, "failed_requests", x);
    }
    if (KEY("Write errors")) {
        RD_TRY(number_unit(a, l, v, NULL, true, &a->write_errors));
        return RD_OK;
    }
    if (KEY("Non-2xx responses")) {
        RD_TRY(number_unit(a, l, v, NULL, true, &x));
        return set(a, "non_2xx", x);
    }
    if (KEY("Keep-Alive requests")) {
        RD_TRY(number_unit(a, l, v, NULL, true, &x));
        return set(a, "keepalive_requests", x);
    }
    if (KEY("Total transferred")) {
        RD_TRY(number_unit(a, l, v, "bytes", true, &x));
        a->seen_total = true;
        return set(a, "bytes_total", x);
    }
    if (KEY("Total body sent")) {
        RD_TRY(number_unit(a, l, v, NULL, true, &x));
        return set(a, "body_sent_bytes", x);
    }
    if (KEY("HTML transferred")) {
        RD_TRY(number_unit(a, l, v, "bytes", true, &x));
        a->seen_html = true;
        return set(a, "html_transferred_bytes", x);
    }
    if (KEY("Requests per second")) {
        RD_TRY(number_unit(a, l, v, "[#/sec]", false, &x));
        return set(a, "rps", x);
    }
    if (KEY("Time per request")) {
        RD_TRY(number_unit(a, l, v, "[ms]", false, &x));
        /* Printed twice: "(mean)" is concurrency x time / done, "(mean,
         * across all concurrent requests)" is time / done. */
        bool across = rd_line_contains(&v, "across all");
        return set(a, across ? "time_per_request_all_ms" : "time_per_request_ms", x);
    }
    if (KEY("Transfer rate")) {
        RD_TRY(number_unit(a, l, v, "[Kbytes/sec]", false, &x));
        a->last_rate = "transfer";
        /* "Kbytes" are KiB: ab divides by 1024 (ab.md §3). */
        return set(a, "transfer_bytes_per_s", x * 1024);
    }
#undef KEY
    /* trunk (2.5) adds labels of its own ("Number of workers", ...). */
    return RD_OK;
}

/* "                        198.30 kb/s sent" after Transfer rate (-p/-u). */
static rd_status rate_continuation(struct ab_run *a, const struct rd_line *l)
{
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(l, tok, MAX_TOKENS);
    if (n != 3 || !rd_token_is(&tok[1], "kb/s") ||
        !(rd_token_is(&tok[2], "sent") || rd_token_is(&tok[2], "total")))
        return fail_line(a, l, "'<rate> kb/s sent' or '<rate> kb/s total'");
    double x;
    RD_TRY(rd_tok_double(l, &tok[0], &x, a->d));
    if (x < 0)
        return rd_expect_fail(a->d, l, &tok[0], "a rate that is not negative");
    return set(a, rd_token_is(&tok[2], "sent") ? "sent_bytes_per_s" : "total_bytes_per_s",
               x * 1024);
}

/* The Connection Times table after "Connection Times (ms)". */
static rd_status connection_times(struct ab_run *a, struct rd_lines *it)
{
    struct rd_line l;
    if (!rd_lines_next(it, &l))
        return rd_diag_set(a->d, RD_ERR_PARSE, a->in->path, it->no + 1, 1,
                           "expected the Connection Times header, got end of input");
    struct rd_token tok[MAX_TOKENS];
    size_t n = rd_tokenize(&l, tok, MAX_TOKENS);
    bool confidence;
    if (n == 4 && rd_token_is(&tok[0], "min") && rd_token_is(&tok[1], "mean[+/-sd]"))
        confidence = true;
    else if (n == 3 && rd_token_is(&tok[0], "min") && rd_token_is(&tok[1], "avg"))
        confidence = false;  /* -S */
    else
        return fail_line(a, &l, "'min  mean[+/-sd] median   max'");

    static const char *const rows[] = { "Connect:", "Processing:", "Waiting:", "Total:" };
    static const char *const prefix[] = { "connect", "processing", "waiting", "total" };
    for (int i = 0; i < 4; i++) {
        if (!rd_lines_next(it, &l))
            return rd_diag_set(a->d, RD_ERR_PARSE, a->in->path, it->no + 1, 1,
                               "expected the '%s' row of Connection Times, got end of input",
                               rows[i]);
        n = rd_tokenize(&l, tok, MAX_TOKENS);
        if (n == 0 || !rd_token_is(&tok[0], rows[i])) {
            char what[64];
            snprintf(what, sizeof what, "the '%s' row of Connection Times", rows[i]);
            return fail_line(a, &l, what);
        }
        double v[5];
        static const char *const conf_names[] = { "min", "mean", "sd", "median", "max" };
        static const char *const s_names[] = { "min", "mean", "max" };
        const char *const *names = confidence ? conf_names : s_names;
        size_t want = confidence ? 5 : 3;
        struct rd_token vals[5];
        if (n == want + 1) {
            memcpy(vals, tok + 1, want * sizeof *vals);
        } else if (!confidence && n == 3 && l.len >= 28) {
            /* -S prints "%5d %5d%5d": avg and max can run together, so cut
             * the 12-character label and the fixed fields. */
            static const size_t at[] = { 12, 18, 23 };
            for (int k = 0; k < 3; k++) {
                struct rd_line f = { l.ptr + at[k], 5, l.no };
                f = rd_line_trim(f);
                vals[k] = (struct rd_token){ f.ptr, f.len, rd_line_col(&l, f.ptr) };
            }
        } else {
            return fail_line(a, &l, confidence ? "'<row>: min mean sd median max'"
                                               : "'<row>: min avg max'");
        }
        for (size_t k = 0; k < want; k++) {
            /* Integer ms except sd (%5.1f). */
            if (confidence && k == 2)
                RD_TRY(rd_tok_double(&l, &vals[k], &v[k], a->d));
            else
                RD_TRY(rd_tok_uint(&l, &vals[k], &v[k], a->d));
            if (v[k] < 0)
                return rd_expect_fail(a->d, &l, &vals[k], "a time that is not negative");
            char name[48];
            snprintf(name, sizeof name, "%s_%s_ms", prefix[i], names[k]);
            RD_TRY(set(a, name, v[k]));
        }
        /* With one request the Total row closes the report; cut without
         * its newline, its max may be half a number. */
        if (l.ptr + l.len == a->in->data + a->in->len)
            return rd_text_ends_early(a->d, a->in->path, a->in->data, a->in->len,
                                      "a newline after the last line");
        if (i == 3) {
            /* The Total row is the per-request latency. */
            RD_TRY(set(a, "latency_min_ms", v[0]));
            RD_TRY(set(a, "latency_mean_ms", v[1]));
            if (confidence)
                RD_TRY(set(a, "latency_stdev_ms", v[2]));
            RD_TRY(set(a, "latency_max_ms", v[want - 1]));
        }
    }
    return RD_OK;
}

/* The nine rows after "Percentage of the requests served ...". */
static rd_status percentiles(struct ab_run *a, struct rd_lines *it)
{
    static const char *const want[] = { "50%", "66%", "75%", "80%", "90%",
                                        "95%", "98%", "99%", "100%" };
    struct rd_line l;
    for (int i = 0; i < 9; i++) {
        if (!rd_lines_next(it, &l))
            return rd_diag_set(a->d, RD_ERR_PARSE, a->in->path, it->no + 1, 1,
                               "expected the '%s' percentile row, got end of input", want[i]);
        struct rd_token tok[MAX_TOKENS];
        size_t n = rd_tokenize(&l, tok, MAX_TOKENS);
        if (n < 2 || !rd_token_is(&tok[0], want[i]) || (i < 8 && n != 2) ||
            (i == 8 && n != 4)) {
            char what[64];
            snprintf(what, sizeof what, "the percentile row '%s  <ms>'", want[i]);
            return fail_line(a, &l, what);
        }
        double v;
        RD_TRY(rd_tok_uint(&l, &tok[1], &v, a->d));
        char name[32];
        rd_percentile_metric_name("latency", tok[0].ptr, tok[0].len, "_ms", name, sizeof name);
        RD_TRY(set(a, name, v));
    }
    return RD_OK;
}

/* "apr_socket_recv: Connection refused (111)", "Test aborted after 10
 * failures": the fatal errors ab prints instead of a report. */
static bool is_fatal(const struct rd_line *l)
{
    struct rd_line t = rd_line_trim(*l);
    if (rd_line_starts_with(&t, "Test aborted after"))
        return true;
    return rd_line_starts_with(&t, "apr_") && rd_line_contains(&t, ": ") && t.len &&
           t.ptr[t.len - 1] == ')';
}

/* Adds a message line; 'sep' joins it to what is there ("; " between
 * messages, " " for the second line of one message). */
static rd_status add_failure(struct ab_run *a, struct rd_line t, const char *sep)
{
    t = rd_line_trim(t);
    if (a->failure.len > 2048)  /* a message for a reader, not a log */
        return RD_OK;
    if (a->failure.len)
        RD_TRY(rd_buf_addstr(&a->failure, sep));
    return rd_buf_add(&a->failure, t.ptr, t.len > 300 ? 300 : t.len);
}

/* What ab's "Complete requests" holds: rundown/loadrate.h. */
#define AB_IN_REQUESTS RD_LOAD_IN_REQUESTS_AB

static rd_status finish(struct ab_run *a, const struct rd_line *start)
{
    struct rd_record *r = a->r;
    if (!a->report) {
        /* No report: ab hit a fatal error. It prints "Total of N requests
         * completed" only when N > 0, so its absence means none. */
        double v;
        if (!rd_record_metric(r, "requests", &v))
            RD_TRY(set(a, "requests", 0));
        /* Requests may have completed before the abort: the run failed
         * anyway, whatever the counts say. */
        struct rd_buf why = RD_BUF_INIT;
        rd_status s = rd_buf_addstr(&why, "ab stopped without a report: ");
        if (!s)
            s = a->failure.len ? rd_buf_add(&why, a->failure.ptr, a->failure.len)
                               : rd_buf_addstr(&why, "a fatal error (its message is on "
                                                     "ab's stderr)");
        if (!s) {
            struct rd_load_tally tally;
            rd_load_tally_from_metrics(&tally, r, AB_IN_REQUESTS);
            tally.stopped = why.ptr;
            s = rd_load_judge(r, &tally);
        }
        rd_buf_release(&why);
        return s;
    }
    static const char *const need[] = { "'Concurrency Level:'", "'Time taken for tests:'",
                                        "'Complete requests:'", "'Failed requests:'",
                                        "'Total transferred:'", "'HTML transferred:'" };
    bool have[] = { a->seen_concurrency, a->seen_time, a->seen_complete, a->seen_failed,
                    a->seen_total, a->seen_html };
    for (int i = 0; i < 6; i++)
        if (!have[i])
            return rd_diag_set(a->d, RD_ERR_PARSE, a->in->path, start->no, 1,
                               "expected %s in the ab report, got none", need[i]);
    /* ab closes its report with the Connection Times table (when a request
     * completed) and the percentile table (when two did: output_results()).
     * Without them the report was cut, and its last line may be half a
     * number. */
    const char *closing = NULL;
    if (a->complete > 0 && !a->seen_times)
        closing = "the Connection Times table";
    else if (a->complete > 1 && !a->seen_percentiles)
        closing = "the table 'Percentage of the requests served within a certain time'";
    if (closing)
        return rd_text_ends_early(a->d, a->in->path, a->in->data, a->in->len, closing);
    if (a->host && a->port && a->path) {
        char *url = NULL;
        struct rd_buf b = RD_BUF_INIT;
        rd_status s = rd_buf_addf(&b, "%s://%s:%s%s", a->tls ? "https" : "http", a->host,
                                  a->port, a->path);
        if (!s)
            url = rd_arena_strdup(r->arena, b.ptr);
        rd_buf_release(&b);
        if (s || !url)
            return RD_ERR_NOMEM;
        RD_TRY(rd_record_set_info(r, "url", url));
    }
    double v;
    if (!rd_record_metric(r, "non_2xx", &v))
        RD_TRY(set(a, "non_2xx", 0));
    RD_TRY(set(a, "errors_connect", a->failed_connect));
    RD_TRY(set(a, "errors_read", a->failed_receive));
    RD_TRY(set(a, "errors_write", a->write_errors));
    RD_TRY(set(a, "errors_other", a->failed_exceptions));
    if (a->failed_length > 0)
        RD_TRY(rd_record_set_info(r, "note",
                                  "failed_length counts responses whose length differed from "
                                  "the first one (dynamic pages); it does not fail the run"));
    RD_TRY(rd_load_judge_metrics(r, AB_IN_REQUESTS));
    if (a->failure.len) {
        /* A SANE() warning about the statistics is not a failure. */
        RD_TRY(rd_record_set_info(r, "ab_warning", a->failure.ptr));
    }
    return RD_OK;
}

/* One run: from its start line to the next banner or the end. */
static rd_status parse_run(const struct rd_import_input *in, struct rd_lines *it,
                           const struct rd_line *start, struct rd_record *r,
                           struct rd_diag *d)
{
    struct ab_run a = { .in = in, .d = d, .r = r };
    rd_buf_init(&a.failure, 1 << 14);
    r->source_line = start->no;
    rd_status s = rd_record_set(r, &r->tool, "ab");
    bool after_table = false;
    struct rd_line l = *start;
    bool first = true;
    while (s == RD_OK) {
        if (!first) {
            struct rd_line peek;
            if (!rd_lines_peek(it, &peek) || is_banner(&peek))
                break;
            rd_lines_next(it, &l);
        }
        first = false;
        if (rd_line_is_blank(&l) || is_banner(&l))
            continue;
        struct rd_line t = rd_line_trim(l);
        if (!a.report) {
            /* Before the report: banner, progress (stderr in 2>&1), fatal
             * errors, "Total of N requests completed". */
            if (rd_line_starts_with(&l, "Server Software:")) {
                a.report = true;
            } else if (rd_line_starts_with(&l, "Benchmarking ")) {
                struct rd_token tok[4];
                if (rd_tokenize(&l, tok, 4) >= 2) {
                    char *host = rd_arena_strndup(r->arena, tok[1].ptr, tok[1].len);
                    s = host ? rd_record_set_info(r, "host", host) : RD_ERR_NOMEM;
                }
                /* Without heartbeat lines ab prints "(be patient)..." with no
                 * newline, so in a 2>&1 capture the fatal error follows on
                 * the same line. */
                static const char patient[] = "(be patient)";
                const char *p = NULL;
                for (size_t k = 0; k + sizeof patient - 1 <= l.len && !p; k++)
                    if (memcmp(l.ptr + k, patient, sizeof patient - 1) == 0)
                        p = l.ptr + k + sizeof patient - 1;
                if (p && s == RD_OK) {
                    struct rd_line rest = { p, l.len - (size_t)(p - l.ptr), l.no };
                    while (rest.len && rest.ptr[0] == '.') {
                        rest.ptr++;
                        rest.len--;
                    }
                    if (is_fatal(&rest))
                        s = add_failure(&a, rest, "; ");
                }
                continue;
            } else if (rd_line_starts_with(&l, "Total of ")) {
                struct rd_token tok[6];
                size_t n = rd_tokenize(&l, tok, 6);
                double v;
                if (n != 5 || !rd_token_is(&tok[3], "requests"))
                    s = fail_line(&a, &l, "'Total of <N> requests completed'");
                else if ((s = rd_tok_uint(&l, &tok[2], &v, d)) == RD_OK)
                    s = set(&a, "requests", v);
                if (s == RD_OK)
                    s = add_failure(&a, t, "; ");
                continue;
            } else if (is_fatal(&l)) {
                s = add_failure(&a, t, "; ");
                continue;
            } else {
                /* Copyright lines, "Completed 100 requests", "..done". */
                continue;
            }
        }
        if (rd_line_starts_with(&l, "Connection Times (ms)")) {
            s = connection_times(&a, it);
            a.seen_times = true;
            after_table = true;
            continue;
        }
        if (rd_line_starts_with(&l, "Percentage of the requests served")) {
            s = percentiles(&a, it);
            a.seen_percentiles = true;
            continue;
        }
        if (after_table && (rd_line_starts_with(&l, "ERROR:") ||
                            rd_line_starts_with(&l, "WARNING:"))) {
            /* SANE(): a two-line note; the second line is indented. */
            struct rd_line next;
            s = add_failure(&a, t, "; ");
            if (s == RD_OK && rd_lines_peek(it, &next) && !rd_line_is_blank(&next) &&
                (next.ptr[0] == ' ' || next.ptr[0] == '\t')) {
                rd_lines_next(it, &next);
                s = add_failure(&a, next, " ");
            }
            continue;
        }
        if (rd_line_starts_with(&l, "(Connect:")) {
            s = breakdown_line(&a, &l);
            continue;
        }
        if (rd_line_contains(&l, " kb/s ")) {
            s = a.last_rate ? rate_continuation(&a, &l)
                            : fail_line(&a, &l, "an ab report line");
            continue;
        }
        const char *colon = memchr(l.ptr, ':', l.len);
        if (!colon || after_table) {
            s = fail_line(&a, &l, "an ab report line 'Label:   value'");
            continue;
        }
        s = key_line(&a, &l, (size_t)(colon - l.ptr));
    }
    if (s == RD_OK)
        s = finish(&a, start);
    rd_buf_release(&a.failure);
    return s;
}

static bool starts_run(const struct rd_line *l)
{
    return is_banner(l) || rd_line_starts_with(l, "Benchmarking ") ||
           rd_line_starts_with(l, "Server Software:");
}

static rd_status parse_ab(const struct rd_import_input *in, struct rd_recordset *out,
                          struct rd_diag *d)
{
    return rd_text_runs(in, starts_run, parse_run,
                        "an ab report starting with 'This is ApacheBench'", out, d);
}

static int detect_ab(const struct rd_import_input *in)
{
    struct rd_lines it;
    struct rd_line l;
    rd_lines_init(&it, in->data, in->len);
    int score = 0;
    for (int i = 0; i < 200 && rd_lines_next(&it, &l); i++) {
        if (is_banner(&l))
            score += 60;
        else if (rd_line_starts_with(&l, "Benchmarking ") && rd_line_contains(&l, "(be patient)"))
            score += 30;
        else if (rd_line_starts_with(&l, "Server Software:") ||
                 rd_line_starts_with(&l, "Concurrency Level:") ||
                 rd_line_starts_with(&l, "Time taken for tests:") ||
                 rd_line_starts_with(&l, "Requests per second:"))
            score += 10;
    }
    return score > 95 ? 95 : score;
}

static const char *const version_argv[] = { "ab", "-V", NULL };

const struct rd_importer rd_importer_ab = {
    .name = "ab",
    .description = "ApacheBench report (or the banner and error of a run that stopped)",
    .version_argv = version_argv,
    .load = true,
    .detect = detect_ab,
    .parse = parse_ab,
};
