/*
 * bombardier - importer for bombardier's plain-text result and its -o json
 * result (with or without the intro, progress bar and "Done!" that precede
 * the JSON unless -p r is given).
 *
 * Everything bombardier prints goes to stdout, so a capture holds the
 * banner and the \r-redrawn progress bar before the result; those lines are
 * skipped. Latencies are microseconds in JSON and us/ms/s/m/h in text (m is
 * minutes); sizes are 1024-based. bombardier counts every request that
 * failed on the client side under "others" and lists the messages under
 * Errors, so a run with others, errors or non-2xx codes is failed with its
 * counts kept. Depends on core, textscan and jsonimport only.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importer.h"
#include "jsonimport.h"
#include "loadjudge.h"
#include "textscan.h"
#include "rundown/buf.h"
#include "rundown/units.h"

#define TOOL "bombardier"

/* Error counts by kind, from bombardier's Go error strings. */
struct errsum {
    double total, timeout, connect, read, write;
    struct rd_buf text; /* "message: count; ..." for info */
};

static void classify(struct errsum *e, const char *msg, size_t len, double count)
{
    e->total += count;
    if (memmem(msg, len, "timeout", 7) || memmem(msg, len, "Timeout", 7))
        e->timeout += count;
    else if (memmem(msg, len, "connect:", 8) || memmem(msg, len, "dial ", 5))
        e->connect += count;
    else if (memmem(msg, len, "read:", 5) || memmem(msg, len, "read tcp", 8))
        e->read += count;
    else if (memmem(msg, len, "write:", 6) || memmem(msg, len, "write tcp", 9))
        e->write += count;
}

static rd_status add_error_text(struct errsum *e, const char *msg, size_t len,
                                double count)
{
    rd_status s = e->text.len ? rd_buf_addstr(&e->text, "; ") : RD_OK;
    if (!s)
        s = rd_buf_addf(&e->text, "%.*s: %.0f", (int)len, msg, count);
    return s;
}

/* Sets the derived counts and the status once a run is complete. */
static rd_status finish(struct rd_record *r, const struct errsum *e, bool have_stats)
{
    double c[6] = { 0 }, others = 0, v;
    rd_status s = RD_OK;
    for (int k = 1; k <= 5; k++) {
        char name[16];
        snprintf(name, sizeof name, "status_%dxx", k);
        if (rd_record_metric(r, name, &v))
            c[k] = v;
    }
    rd_record_metric(r, "others", &others);
    /* bombardier prints no total; every request ends in a class or others. */
    if ((s = rd_record_set_metric(r, "requests", c[1] + c[2] + c[3] + c[4] + c[5] + others)) ||
        (s = rd_record_set_metric(r, "non_2xx", c[1] + c[3] + c[4] + c[5])) ||
        (s = rd_record_set_metric(r, "errors", e->total)) ||
        (s = rd_record_set_metric(r, "errors_timeout", e->timeout)) ||
        (s = rd_record_set_metric(r, "errors_connect", e->connect)) ||
        (s = rd_record_set_metric(r, "errors_read", e->read)) ||
        (s = rd_record_set_metric(r, "errors_write", e->write)))
        return s;
    if (e->text.len && (s = rd_record_set_info(r, "error_messages", e->text.ptr)))
        return s;
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    /* Completed requests have a status; each of the others failed without
     * one, and is among the errors below. */
    t.requests = c[1] + c[2] + c[3] + c[4] + c[5];
    t.responses_2xx = c[2];
    t.non_2xx = c[1] + c[3] + c[4] + c[5];
    t.errors_timeout = e->timeout;
    t.errors_connect = e->connect;
    t.errors_read = e->read;
    t.errors_write = e->write;
    /* Errors of no known kind, and "others" beyond the errors listed (each
     * request that failed without a status is one of the others). */
    double classified = e->timeout + e->connect + e->read + e->write;
    t.errors_other = (e->total - classified) + (others > e->total ? others - e->total : 0);
    if (!have_stats)
        rd_load_add_fact(&t, "no latency or request rate statistics");
    return rd_load_judge(r, &t);
}

/* ------------------------------------------------------------------ JSON */

static rd_status info_num(struct rd_record *r, const char *key, double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.17g", v);
    return rd_record_set_info(r, key, buf);
}

static rd_status json_spec(struct rd_jdoc *doc, struct rd_record *r, const cJSON *spec)
{
    static const struct { const char *key, *info; } strs[] = {
        { "url", "url" }, { "method", "method" }, { "testType", "test_type" },
        { "client", "client" }, { "bodyFilePath", "body_file" }
    };
    static const struct { const char *key, *info; } nums[] = {
        { "testDurationSeconds", "test_duration_s" }, { "numberOfRequests", "number_of_requests" },
        { "timeoutSeconds", "timeout_s" }, { "rate", "target_rate" }
    };
    const cJSON *v;
    double x;
    rd_status s;
    if ((s = rd_jdoc_metric(doc, r, spec, "numberOfConnections", "connections", 0,
                            RD_JN_NONNEG | RD_JN_INT, false, NULL)))
        return s;
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        if ((s = rd_jdoc_get(doc, spec, strs[i].key, RD_JT_STRING, false, "a string", &v)))
            return s;
        if (v && (s = rd_record_set_info(r, strs[i].info, v->valuestring)))
            return s;
    }
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if ((s = rd_jdoc_get(doc, spec, nums[i].key, RD_JT_NUMBER, false,
                             "a non-negative number", &v)))
            return s;
        if (!v)
            continue;
        if ((s = rd_jdoc_num(doc, v, RD_JN_NONNEG, "a non-negative number", &x)) ||
            (s = info_num(r, nums[i].info, x)))
            return s;
    }
    return RD_OK;
}

/* A {"50": v, ...} percentile map as <prefix>_p<key><suffix>. */
static rd_status json_pcts(struct rd_jdoc *doc, struct rd_record *r, const cJSON *obj,
                           const char *prefix, const char *suffix, int pow10)
{
    for (const cJSON *p = obj ? obj->child : NULL; p; p = p->next) {
        char name[64], frag[24];
        double x, pc;
        if (rd_parse_double(p->string, strlen(p->string), &pc) || pc < 0 || pc > 100)
            return rd_jdoc_fail_key(doc, p, "a percentile key such as \"99\"");
        rd_status s = rd_jdoc_num_scaled(doc, p, RD_JN_NONNEG, pow10,
                                         "a non-negative number", &x);
        if (s)
            return s;
        snprintf(name, sizeof name, "%s_p%s%s", prefix,
                 rd_metric_fragment(p->string, frag, sizeof frag), suffix);
        if ((s = rd_record_set_metric(r, name, x)))
            return s;
    }
    return RD_OK;
}

static rd_status json_run(struct rd_jdoc *doc, void *ctx)
{
    struct rd_recordset *out = ctx;
    const cJSON *root = doc->root, *spec, *res, *v, *errs, *lat, *rps;
    rd_status s;
    double read = 0, written = 0, took = 0;
    bool fr, fw, ft;
    if (!cJSON_IsObject(root))
        return rd_jdoc_fail(doc, root, "a bombardier -o json object");
    if ((s = rd_jdoc_get(doc, root, "spec", RD_JT_OBJECT, true, "the test spec object",
                         &spec)) ||
        (s = rd_jdoc_get(doc, root, "result", RD_JT_OBJECT, true,
                         "the test result object", &res)))
        return s;
    struct rd_record *r;
    if ((s = rd_jdoc_new_record(doc, out, root, TOOL, &r)) || (s = json_spec(doc, r, spec)))
        return s;
    const unsigned cnt = RD_JN_NONNEG | RD_JN_INT;
    if ((s = rd_jdoc_metric(doc, r, res, "bytesRead", "bytes_total", 0, cnt, true, &fr)) ||
        (s = rd_jdoc_metric(doc, r, res, "bytesWritten", "bytes_sent", 0, cnt, true, &fw)) ||
        (s = rd_jdoc_metric(doc, r, res, "timeTakenSeconds", "duration_s", 0, RD_JN_NONNEG,
                            true, &ft)) ||
        (s = rd_jdoc_metric(doc, r, res, "req1xx", "status_1xx", 0, cnt, true, NULL)) ||
        (s = rd_jdoc_metric(doc, r, res, "req2xx", "status_2xx", 0, cnt, true, NULL)) ||
        (s = rd_jdoc_metric(doc, r, res, "req3xx", "status_3xx", 0, cnt, true, NULL)) ||
        (s = rd_jdoc_metric(doc, r, res, "req4xx", "status_4xx", 0, cnt, true, NULL)) ||
        (s = rd_jdoc_metric(doc, r, res, "req5xx", "status_5xx", 0, cnt, true, NULL)) ||
        (s = rd_jdoc_metric(doc, r, res, "others", "others", 0, cnt, true, NULL)))
        return s;
    rd_record_metric(r, "bytes_total", &read);
    rd_record_metric(r, "bytes_sent", &written);
    rd_record_metric(r, "duration_s", &took);
    /* The same figure bombardier's text prints as Throughput: bytes read
     * and written over the time taken. */
    if (took > 0 &&
        (s = rd_record_set_metric(r, "transfer_bytes_per_s", (read + written) / took)))
        return s;

    if ((s = rd_jdoc_get(doc, res, "latency", RD_JT_OBJECT, false,
                         "the latency statistics object", &lat)) ||
        (s = rd_jdoc_get(doc, res, "rps", RD_JT_OBJECT, false,
                         "the request rate statistics object", &rps)))
        return s;
    if (lat) {
        /* Microseconds: shift by -3 for milliseconds. */
        if ((s = rd_jdoc_metric(doc, r, lat, "mean", "latency_mean_ms", -3, RD_JN_NONNEG,
                                true, NULL)) ||
            (s = rd_jdoc_metric(doc, r, lat, "stddev", "latency_stdev_ms", -3,
                                RD_JN_NONNEG, false, NULL)) ||
            (s = rd_jdoc_metric(doc, r, lat, "max", "latency_max_ms", -3, RD_JN_NONNEG,
                                false, NULL)) ||
            (s = rd_jdoc_get(doc, lat, "percentiles", RD_JT_OBJECT, false,
                             "the latency percentiles object", &v)) ||
            (s = json_pcts(doc, r, v, "latency", "_ms", -3)))
            return s;
    }
    if (rps) {
        if ((s = rd_jdoc_metric(doc, r, rps, "mean", "rps", 0, RD_JN_NONNEG, true, NULL)) ||
            (s = rd_jdoc_metric(doc, r, rps, "stddev", "rps_stdev", 0, RD_JN_NONNEG, false,
                                NULL)) ||
            (s = rd_jdoc_metric(doc, r, rps, "max", "rps_max", 0, RD_JN_NONNEG, false,
                                NULL)) ||
            (s = rd_jdoc_get(doc, rps, "percentiles", RD_JT_OBJECT, false,
                             "the rate percentiles object", &v)) ||
            (s = json_pcts(doc, r, v, "rps", "", 0)))
            return s;
    }

    struct errsum e;
    memset(&e, 0, sizeof e);
    rd_buf_init(&e.text, 4096);
    s = rd_jdoc_get(doc, res, "errors", RD_JT_ARRAY, false, "the errors array", &errs);
    for (const cJSON *it = errs ? errs->child : NULL; it && !s; it = it->next) {
        const cJSON *desc, *c;
        double n;
        if ((s = rd_jdoc_get(doc, it, "description", RD_JT_STRING, true,
                             "the error message", &desc)) ||
            (s = rd_jdoc_get(doc, it, "count", RD_JT_NUMBER, true, "the error count", &c)) ||
            (s = rd_jdoc_num(doc, c, cnt, "a non-negative whole error count", &n)))
            break;
        classify(&e, desc->valuestring, strlen(desc->valuestring), n);
        s = add_error_text(&e, desc->valuestring, strlen(desc->valuestring), n);
    }
    if (!s)
        s = finish(r, &e, lat && rps);
    rd_buf_release(&e.text);
    return s;
}

static rd_status parse_json(const struct rd_import_input *in, struct rd_recordset *out,
                            struct rd_diag *d)
{
    /* The banner, progress bar and "Done!" before the JSON are skipped. */
    size_t n;
    rd_status s = rd_json_each(in, 0, 1, true, json_run, out, d, &n);
    if (!s && n == 0)
        s = rd_diag_set(d, RD_ERR_PARSE, in->path, 1, 1,
                        "expected bombardier's JSON result, got none");
    return s;
}

/* ------------------------------------------------------------------ text */

struct textrun {
    bool open, have_rps, have_lat;
    size_t index;
    struct errsum e;
    enum { S_MAIN, S_DIST, S_CODES, S_ERRORS } section;
};

/*
 * A bombardier duration ("721.44us", "1.17s", "0.85m", "1.02h") in ms. The
 * decimal point is shifted rather than the value divided, so 721.44us is
 * exactly 0.72144 ms; m is minutes, as in Go's formatting of long runs.
 */
static rd_status parse_duration(const char *p, size_t n, double *ms)
{
    static const struct { const char *unit; int pow10; double mul; } units[] = {
        { "us", -3, 1 }, { "\xc2\xb5s", -3, 1 }, { "ms", 0, 1 }, { "ns", -6, 1 },
        { "s", 3, 1 },   { "m", 3, 60 },          { "h", 3, 3600 }
    };
    size_t k = 0;
    while (k < n && ((p[k] >= '0' && p[k] <= '9') || p[k] == '.' || p[k] == '-' || p[k] == '+'))
        k++;
    double v;
    if (k == 0 || rd_parse_double(p, k, &v))
        return RD_ERR_PARSE;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (n - k == strlen(units[i].unit) && memcmp(p + k, units[i].unit, n - k) == 0) {
            /* 1e308h overflows: refused like any other bad duration. */
            if (rd_scale10_finite(v, units[i].pow10, ms) || isinf(*ms * units[i].mul))
                return RD_ERR_PARSE;
            *ms *= units[i].mul;
            return RD_OK;
        }
    return RD_ERR_PARSE;
}

/* Parses "a b c" after a row label with 'conv' for each column. */
static rd_status stats_row(const struct rd_line *ln, const struct rd_token *t, size_t n,
                           struct rd_record *r, const char *const names[3], bool duration,
                           struct rd_diag *d)
{
    if (n != 4)
        return rd_expect_fail(d, ln, n > 4 ? &t[4] : NULL,
                              duration ? "three durations (avg, stdev, max)"
                                       : "three numbers (avg, stdev, max)");
    for (int k = 0; k < 3; k++) {
        double v;
        rd_status s = duration ? parse_duration(t[k + 1].ptr, t[k + 1].len, &v)
                               : rd_parse_double(t[k + 1].ptr, t[k + 1].len, &v);
        if (s || v < 0)
            return rd_expect_fail(d, ln, &t[k + 1],
                                  duration ? "a duration like '212.52ms'" : "a rate like '1647.31'");
        if ((s = rd_record_set_metric(r, names[k], v)))
            return s;
    }
    return RD_OK;
}

/* "1xx - 0, 2xx - 99214, 3xx - 0, 4xx - 311, 5xx - 440" */
static rd_status codes_row(const struct rd_line *ln, struct rd_record *r, struct rd_diag *d)
{
    struct rd_token t[16];
    size_t n = rd_tokenize(ln, t, 16);
    if (n != 15)
        return rd_expect_fail(d, ln, n ? &t[0] : NULL,
                              "'1xx - N, 2xx - N, 3xx - N, 4xx - N, 5xx - N'");
    for (int k = 0; k < 5; k++) {
        const struct rd_token *cls = &t[3 * k], *num = &t[3 * k + 2];
        char want[4] = { (char)('1' + k), 'x', 'x', '\0' }, name[16];
        size_t len = num->len - (k < 4 && num->len && num->ptr[num->len - 1] == ',');
        unsigned long long v;
        if (!rd_token_is(cls, want) || !rd_token_is(&t[3 * k + 1], "-"))
            return rd_expect_fail(d, ln, cls, "a status class like '2xx -'");
        if ((k < 4 && len == num->len) || rd_parse_uint(num->ptr, len, &v))
            return rd_expect_fail(d, ln, num, "a response count");
        snprintf(name, sizeof name, "status_%s", want);
        rd_status s = rd_record_set_metric(r, name, (double)v);
        if (s)
            return s;
    }
    return RD_OK;
}

static rd_status parse_lines(const struct rd_import_input *in, struct rd_recordset *out,
                             struct rd_diag *d, struct textrun *run)
{
    struct rd_lines it;
    struct rd_line raw;
    rd_status s = RD_OK;
    char pending_url[1024] = "", pending_conn[32] = "", pending_len[64] = "";
    bool pending_n = false;
    rd_lines_init(&it, in->data, in->len);
    while (!s && rd_lines_next(&it, &raw)) {
        struct rd_line ln = rd_line_trim(raw);
        struct rd_token t[8];
        size_t n = rd_tokenize(&ln, t, 8);
        struct rd_record *r = run->open ? &out->items[run->index] : NULL;
        if (n == 0)
            continue;
        if (rd_token_is(&t[0], "Bombarding") && !run->open) {
            /* "Bombarding URL for 10s using 125 connection(s)" or
             * "Bombarding URL with N request(s) using C connection(s)" */
            if ((n != 7 && n != 8) || !rd_token_is(&t[n - 1], "connection(s)") ||
                !rd_token_is(&t[n - 3], "using"))
                continue; /* not the banner shape: not ours to judge */
            snprintf(pending_url, sizeof pending_url, "%.*s", (int)t[1].len, t[1].ptr);
            snprintf(pending_conn, sizeof pending_conn, "%.*s", (int)t[n - 2].len,
                     t[n - 2].ptr);
            pending_n = rd_token_is(&t[2], "with");
            snprintf(pending_len, sizeof pending_len, "%.*s", (int)t[3].len, t[3].ptr);
            continue;
        }
        if (rd_token_is(&t[0], "Statistics")) {
            if (run->open)
                return rd_expect_fail(d, &ln, &t[0], "'Throughput:' ending the previous result");
            if (n != 4 || !rd_token_is(&t[1], "Avg") || !rd_token_is(&t[2], "Stdev") ||
                !rd_token_is(&t[3], "Max"))
                return rd_expect_fail(d, &ln, n > 1 ? &t[1] : NULL, "'Avg Stdev Max'");
            r = rd_recordset_add(out);
            if (!r)
                return RD_ERR_NOMEM;
            memset(&run->e, 0, offsetof(struct errsum, text));
            rd_buf_reset(&run->e.text);
            run->open = true;
            run->have_rps = run->have_lat = false;
            run->section = S_MAIN;
            run->index = out->len - 1;
            r->source_line = ln.no;
            s = rd_record_set(r, &r->tool, TOOL);
            if (!s && pending_url[0])
                s = rd_record_set_info(r, "url", pending_url);
            if (!s && pending_url[0])
                s = rd_record_set_info(r, pending_n ? "number_of_requests" : "test_duration",
                                       pending_len);
            if (!s && pending_conn[0]) {
                unsigned long long c;
                if (rd_parse_uint(pending_conn, strlen(pending_conn), &c) == RD_OK)
                    s = rd_record_set_metric(r, "connections", (double)c);
            }
            pending_url[0] = pending_conn[0] = pending_len[0] = '\0';
            continue;
        }
        if (!run->open)
            continue; /* progress bar, "Done!", other noise before the result */
        if (rd_token_is(&t[0], "Reqs/sec")) {
            static const char *const names[3] = { "rps", "rps_stdev", "rps_max" };
            s = stats_row(&ln, t, n, r, names, false, d);
            run->have_rps = true;
        } else if (rd_line_starts_with(&ln, "There wasn't enough data")) {
            run->section = S_MAIN; /* an empty histogram: the run has no stats */
        } else if (rd_token_is(&t[0], "Latency") && n >= 2 &&
                   rd_token_is(&t[1], "Distribution")) {
            run->section = S_DIST;
        } else if (rd_token_is(&t[0], "Latency")) {
            static const char *const names[3] = { "latency_mean_ms", "latency_stdev_ms",
                                                  "latency_max_ms" };
            s = stats_row(&ln, t, n, r, names, true, d);
            run->have_lat = true;
        } else if (rd_token_is(&t[0], "HTTP") && n == 2 && rd_token_is(&t[1], "codes:")) {
            run->section = S_CODES;
            struct rd_line next;
            if (!rd_lines_next(&it, &next))
                return rd_expect_fail(d, &ln, NULL, "the HTTP codes line after this one");
            next = rd_line_trim(next);
            s = codes_row(&next, r, d);
        } else if (rd_token_is(&t[0], "others") && n == 3 && rd_token_is(&t[1], "-")) {
            unsigned long long v;
            if (rd_parse_uint(t[2].ptr, t[2].len, &v))
                return rd_expect_fail(d, &ln, &t[2], "a count of other responses");
            s = rd_record_set_metric(r, "others", (double)v);
        } else if (rd_token_is(&t[0], "Errors:") && n == 1) {
            run->section = S_ERRORS;
        } else if (rd_token_is(&t[0], "Throughput:")) {
            double v;
            if (n != 2 || t[1].len < 3 || memcmp(t[1].ptr + t[1].len - 2, "/s", 2) != 0)
                return rd_expect_fail(d, &ln, n > 1 ? &t[1] : NULL, "a rate like '19.57MB/s'");
            size_t len = t[1].len - 2;
            char last = t[1].ptr[len - 1];
            /* Below 870 bytes bombardier prints no unit at all. */
            s = (last >= '0' && last <= '9')
                    ? rd_parse_double(t[1].ptr, len, &v)
                    : rd_parse_size_bytes(t[1].ptr, len, RD_SIZE_BINARY, &v);
            if (s || v < 0)
                return rd_expect_fail(d, &ln, &t[1], "a rate like '19.57MB/s'");
            if ((s = rd_record_set_metric(r, "transfer_bytes_per_s", v)))
                return s;
            s = finish(r, &run->e, run->have_rps && run->have_lat);
            run->open = false;
        } else if (run->section == S_DIST && n == 2 && t[0].len >= 2 &&
                   t[0].ptr[t[0].len - 1] == '%') {
            double v, pc;
            char name[48], num[16], frag[16];
            if (t[0].len >= sizeof num || rd_parse_double(t[0].ptr, t[0].len - 1, &pc) ||
                pc < 0 || pc > 100)
                return rd_expect_fail(d, &ln, &t[0], "a percentile like '99%'");
            if (parse_duration(t[1].ptr, t[1].len, &v) || v < 0)
                return rd_expect_fail(d, &ln, &t[1], "a duration like '75.40ms'");
            snprintf(num, sizeof num, "%.*s", (int)(t[0].len - 1), t[0].ptr);
            snprintf(name, sizeof name, "latency_p%s_ms", rd_metric_fragment(num, frag, sizeof frag));
            s = rd_record_set_metric(r, name, v);
        } else if (run->section == S_ERRORS) {
            /* "<message> - <count>": messages may hold " - " themselves. */
            const char *p = ln.ptr + ln.len;
            while (p > ln.ptr + 2 && !(p[-3] == ' ' && p[-2] == '-' && p[-1] == ' '))
                p--;
            unsigned long long v;
            if (p <= ln.ptr + 2 || rd_parse_uint(p, (size_t)(ln.ptr + ln.len - p), &v)) {
                struct rd_token whole = { ln.ptr, ln.len, rd_line_col(&ln, ln.ptr) };
                return rd_expect_fail(d, &ln, &whole, "an error line '<message> - <count>'");
            }
            size_t mlen = (size_t)(p - 3 - ln.ptr);
            classify(&run->e, ln.ptr, mlen, (double)v);
            s = add_error_text(&run->e, ln.ptr, mlen, (double)v);
        } else {
            return rd_expect_fail(d, &ln, &t[0], "a line of bombardier's result");
        }
    }
    if (s)
        return s;
    if (run->open)
        return rd_diag_set(d, RD_ERR_PARSE, in->path, it.no ? it.no : 1, 1,
                           "expected 'Throughput:' ending the result, got end of input "
                           "(truncated?)");
    return RD_OK;
}

static rd_status parse_text(const struct rd_import_input *in, struct rd_recordset *out,
                            struct rd_diag *d)
{
    /* The error text buffer outlives every early return of parse_lines. */
    struct textrun run;
    memset(&run, 0, sizeof run);
    rd_buf_init(&run.e.text, 4096);
    rd_status s = parse_lines(in, out, d, &run);
    rd_buf_release(&run.e.text);
    return s;
}

/* ------------------------------------------------------------- the entry */

/* True when the input holds the literal text 'lit'. */
#define HAS(in, lit) (memmem((in)->data, (in)->len, lit, sizeof(lit) - 1) != NULL)

static int detect(const struct rd_import_input *in)
{
    if (HAS(in, "{\"spec\":{\"numberOfConnections\"") &&
        HAS(in, "\"result\":{"))
        return 95;
    if (HAS(in, "Statistics        Avg      Stdev        Max"))
        return 95;
    if (HAS(in, "Reqs/sec") && HAS(in, "HTTP codes:"))
        return 85;
    return 0;
}

static rd_status parse(const struct rd_import_input *in, struct rd_recordset *out,
                       struct rd_diag *d)
{
    unsigned line;
    size_t before = out->len;
    rd_status s;
    if (rd_json_start(in->data, in->len, &line) < in->len)
        s = parse_json(in, out, d);
    else
        s = parse_text(in, out, d);
    if (!s && out->len == before) {
        const char *p = in->data, *end = in->data + in->len;
        while (p < end && strchr(" \t\n", *p))
            p++;
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        char got[80];
        rd_excerpt(p, eol ? (size_t)(eol - p) : (size_t)(end - p), 40, got, sizeof got);
        if (p == end)
            return rd_diag_set(d, RD_ERR_PARSE, in->path, 1, 1,
                               "expected bombardier's result ('Statistics' table or JSON), "
                               "got empty input");
        s = rd_diag_set(d, RD_ERR_PARSE, in->path, 1, 1,
                        "expected bombardier's result ('Statistics' table or JSON), got '%s'",
                        got);
    }
    return s;
}

static const char *const version_argv[] = { "bombardier", "--version", NULL };

const struct rd_importer rd_importer_bombardier = {
    .name = TOOL,
    .description = "bombardier text result (with -l) and -o json (with or without -p r)",
    .version_argv = version_argv,
    .load = true,
    .detect = detect,
    .parse = parse,
};
