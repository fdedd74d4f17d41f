/*
 * autocannon - importer for autocannon's --json result lines and for its
 * text report (the cli-table3 tables it writes to stderr, read by
 * autocannon_text.c).
 *
 * JSON is exact and preferred: every JSON value in the input is one run (a
 * -W warmup line, -f rounds and concatenated captures give several). When
 * a capture mixes the text report with JSON lines (2>&1), the JSON lines win
 * and the text is ignored.
 * Depends on core, jsonimport and loadjudge only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "autocannon.h"
#include "autocannon_text.h"
#include "jsonimport.h"
#include "rundown/buf.h"
#include "rundown/units.h"

#define TOOL RD_AUTOCANNON_TOOL

/* ------------------------------------------------------------------ JSON */

/* Percentile keys written by hdr-histogram-percentiles-obj. */
static const char *const pct_keys[] = { "p0_001", "p0_01", "p0_1", "p1",   "p2_5",
                                        "p10",    "p25",   "p50",  "p75",  "p90",
                                        "p97_5",  "p99",   "p99_9", "p99_99",
                                        "p99_999" };
/* The requests/throughput percentiles the text table shows; the JSON keeps
 * the same set so text and JSON records of one run carry the same metrics. */
static const char *const rate_pct_keys[] = { "p1", "p2_5", "p50", "p97_5" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A JSON rate per sample as a per-second metric; node is where it was read. */
static rd_status set_per_second(struct rd_jdoc *doc, struct rd_record *r, const cJSON *node,
                                const char *what, const char *name, double x,
                                double interval_ms)
{
    double ps;
    if (rd_autocannon_per_second(x, interval_ms, &ps))
        return rd_jdoc_fail(doc, node, what);
    return rd_record_set_metric(r, name, ps);
}

static rd_status json_count(struct rd_jdoc *doc, struct rd_record *r, const cJSON *obj,
                            const char *key, const char *name, double *v)
{
    bool found;
    rd_status s = rd_jdoc_metric(doc, r, obj, key, name, 0, RD_JN_NONNEG | RD_JN_INT,
                                 false, &found);
    if (v) {
        *v = 0;
        if (!s && found)
            rd_record_metric(r, name, v);
    }
    return s;
}

/* Reads a per-sample-interval histogram summary (requests or throughput)
 * as per-second metrics named prefix + stat + suffix. */
static rd_status json_rate(struct rd_jdoc *doc, struct rd_record *r, const cJSON *obj,
                           const char *prefix, const char *suffix, double interval_ms)
{
    static const struct { const char *key, *stat; } stats[] = {
        { "stddev", "stdev" }, { "min", "min" }, { "max", "max" }
    };
    char name[64];
    const cJSON *v;
    double x;
    rd_status s;
    const char *mean_key = cJSON_GetObjectItemCaseSensitive(obj, "mean") ? "mean"
                                                                         : "average";
    if ((s = rd_jdoc_get(doc, obj, mean_key, RD_JT_NUMBER, true,
                         "the mean per sample (a number)", &v)) ||
        (s = rd_jdoc_num(doc, v, RD_JN_NONNEG, "a non-negative mean", &x)))
        return s;
    snprintf(name, sizeof name, "%s%s", prefix, suffix);
    if ((s = set_per_second(doc, r, v, "a non-negative mean", name, x, interval_ms)))
        return s;
    for (size_t i = 0; i < NELEM(stats); i++) {
        if ((s = rd_jdoc_get(doc, obj, stats[i].key, RD_JT_NUMBER, false, "a number", &v)))
            return s;
        if (!v)
            continue;
        if ((s = rd_jdoc_num(doc, v, RD_JN_NONNEG, "a non-negative number", &x)))
            return s;
        snprintf(name, sizeof name, "%s_%s%s", prefix, stats[i].stat, suffix);
        if ((s = set_per_second(doc, r, v, "a non-negative number", name, x, interval_ms)))
            return s;
    }
    for (size_t i = 0; i < NELEM(rate_pct_keys); i++) {
        if ((s = rd_jdoc_get(doc, obj, rate_pct_keys[i], RD_JT_NUMBER, false, "a number",
                             &v)))
            return s;
        if (!v)
            continue;
        if ((s = rd_jdoc_num(doc, v, RD_JN_NONNEG, "a non-negative number", &x)))
            return s;
        snprintf(name, sizeof name, "%s_%s%s", prefix, rate_pct_keys[i], suffix);
        if ((s = set_per_second(doc, r, v, "a non-negative number", name, x, interval_ms)))
            return s;
    }
    return RD_OK;
}

static rd_status json_info_str(struct rd_jdoc *doc, struct rd_record *r,
                               const cJSON *root, const char *key, const char *info)
{
    const cJSON *v;
    rd_status s = rd_jdoc_get(doc, root, key, RD_JT_STRING, false, "a string", &v);
    if (!s && v)
        s = rd_record_set_info(r, info, v->valuestring);
    return s;
}

static rd_status json_run(struct rd_jdoc *doc, void *ctx)
{
    struct rd_recordset *out = ctx;
    const cJSON *root = doc->root, *v, *lat, *req, *thr;
    rd_status s;
    double x;
    if (!cJSON_IsObject(root))
        return rd_jdoc_fail(doc, root, "an autocannon --json result object");
    if ((s = rd_jdoc_get(doc, root, "latency", RD_JT_OBJECT, true,
                         "the latency summary object", &lat)) ||
        (s = rd_jdoc_get(doc, root, "requests", RD_JT_OBJECT, true,
                         "the requests summary object", &req)) ||
        (s = rd_jdoc_get(doc, root, "throughput", RD_JT_OBJECT, true,
                         "the throughput summary object", &thr)))
        return s;

    struct rd_record *r;
    if ((s = rd_jdoc_new_record(doc, out, root, TOOL, &r)))
        return s;

    /* url is a string, or an array of strings when several were given. */
    if ((s = rd_jdoc_get(doc, root, "url", RD_JT_STRING | RD_JT_ARRAY, false,
                         "the url (a string or an array of strings)", &v)))
        return s;
    if (v && cJSON_IsString(v)) {
        s = rd_record_set_info(r, "url", v->valuestring);
    } else if (v) {
        struct rd_buf urls = RD_BUF_INIT;
        for (const cJSON *u = v->child; u && !s; u = u->next) {
            if (!cJSON_IsString(u))
                s = rd_jdoc_fail(doc, u, "a url string");
            else if (!(s = urls.len ? rd_buf_addch(&urls, ' ') : RD_OK))
                s = rd_buf_addstr(&urls, u->valuestring);
        }
        if (!s)
            s = rd_record_set_info(r, "url", urls.ptr);
        rd_buf_release(&urls);
    }
    if (s || (s = json_info_str(doc, r, root, "title", "title")) ||
        (s = json_info_str(doc, r, root, "socketPath", "socket_path")) ||
        (s = json_info_str(doc, r, root, "finish", "finished_at")))
        return s;
    if ((s = rd_jdoc_get(doc, root, "start", RD_JT_STRING, false, "a start time string",
                         &v)))
        return s;
    if (v && (s = rd_record_set(r, &r->started_at, v->valuestring)))
        return s;

    /* Requests and bytes are counted per sample interval (sampleInt ms). */
    double interval_ms = 1000;
    if ((s = rd_jdoc_get(doc, root, "sampleInt", RD_JT_NUMBER, false,
                         "the sample interval in ms", &v)))
        return s;
    if (v) {
        if ((s = rd_jdoc_num(doc, v, RD_JN_NONNEG, "a positive sample interval in ms", &x)))
            return s;
        if (x <= 0)
            return rd_jdoc_fail(doc, v, "a positive sample interval in ms");
        char buf[32];
        snprintf(buf, sizeof buf, "%.17g", x);
        if ((s = rd_record_set_info(r, "sample_interval_ms", buf)))
            return s;
        interval_ms = x;
    }

    double errors = 0, timeouts = 0, non2xx = 0, mism = 0, c2xx = -1;
    bool found;
    if ((s = json_count(doc, r, root, "connections", "connections", NULL)) ||
        (s = json_count(doc, r, root, "pipelining", "pipelining", NULL)) ||
        (s = rd_jdoc_metric(doc, r, root, "duration", "duration_s", 0, RD_JN_NONNEG,
                            false, NULL)) ||
        (s = json_count(doc, r, root, "samples", "samples", NULL)) ||
        (s = json_count(doc, r, root, "errors", "errors", &errors)) ||
        (s = json_count(doc, r, root, "timeouts", "errors_timeout", &timeouts)) ||
        (s = json_count(doc, r, root, "mismatches", "mismatches", &mism)) ||
        (s = json_count(doc, r, root, "non2xx", "non_2xx", &non2xx)) ||
        (s = json_count(doc, r, root, "resets", "resets", NULL)))
        return s;
    /* autocannon's errors are connection errors plus timeouts. */
    double e_, t_;
    if (rd_record_metric(r, "errors", &e_) && rd_record_metric(r, "errors_timeout", &t_) &&
        e_ >= t_ &&
        (s = rd_record_set_metric(r, "errors_connect", errors - timeouts)))
        return s;
    if ((s = rd_jdoc_get(doc, root, "workers", RD_JT_NUMBER, false, "a worker count", &v)))
        return s;
    if (v && v->valuedouble > 0 && (s = json_count(doc, r, root, "workers", "workers", NULL)))
        return s;
    for (int k = 1; k <= 5; k++) {
        char key[8], name[16];
        snprintf(key, sizeof key, "%dxx", k);
        snprintf(name, sizeof name, "status_%dxx", k);
        if ((s = json_count(doc, r, root, key, name, k == 2 ? &x : NULL)))
            return s;
        if (k == 2 && rd_record_metric(r, name, &x))
            c2xx = x;
    }
    if ((s = rd_jdoc_get(doc, root, "statusCodeStats", RD_JT_OBJECT, false,
                         "the status code counts object", &v)))
        return s;
    for (const cJSON *c = v ? v->child : NULL; c; c = c->next) {
        char name[48], frag[24];
        const cJSON *cnt;
        if ((s = rd_jdoc_get(doc, c, "count", RD_JT_NUMBER | RD_JT_STRING, true,
                             "a response count", &cnt)))
            return s;
        if (!cJSON_IsObject(c))
            return rd_jdoc_fail(doc, c, "an object {\"count\": N}");
        unsigned long long code;
        if (rd_parse_uint(c->string, strlen(c->string), &code) || code > 999)
            return rd_jdoc_fail_key(doc, c, "a status code key such as \"200\"");
        if (cJSON_IsString(cnt)) {
            /* The README documents string counts; the code writes numbers. */
            unsigned long long n;
            if (rd_parse_uint(cnt->valuestring, strlen(cnt->valuestring), &n))
                return rd_jdoc_fail(doc, cnt, "a response count");
            x = (double)n;
        } else if ((s = rd_jdoc_num(doc, cnt, RD_JN_NONNEG | RD_JN_INT,
                                    "a response count", &x))) {
            return s;
        }
        snprintf(name, sizeof name, "status_%s", rd_metric_fragment(c->string, frag,
                                                                    sizeof frag));
        if ((s = rd_record_set_metric(r, name, x)))
            return s;
    }

    /* Latency: milliseconds throughout. */
    const char *mean_key = cJSON_GetObjectItemCaseSensitive(lat, "mean") ? "mean"
                                                                         : "average";
    if ((s = rd_jdoc_metric(doc, r, lat, mean_key, "latency_mean_ms", 0,
                            RD_JN_NONNEG, true, NULL)) ||
        (s = rd_jdoc_metric(doc, r, lat, "stddev", "latency_stdev_ms", 0, RD_JN_NONNEG,
                            false, NULL)) ||
        (s = rd_jdoc_metric(doc, r, lat, "min", "latency_min_ms", 0, RD_JN_NONNEG, false,
                            NULL)) ||
        (s = rd_jdoc_metric(doc, r, lat, "max", "latency_max_ms", 0, RD_JN_NONNEG, false,
                            NULL)))
        return s;
    for (size_t i = 0; i < NELEM(pct_keys); i++) {
        char name[48];
        snprintf(name, sizeof name, "latency_%s_ms", pct_keys[i]);
        if ((s = rd_jdoc_metric(doc, r, lat, pct_keys[i], name, 0, RD_JN_NONNEG, false,
                                NULL)))
            return s;
    }
    if ((s = json_count(doc, r, lat, "totalCount", "latency_samples", NULL)))
        return s;

    double completed = -1;
    if ((s = json_rate(doc, r, req, "rps", "", interval_ms)) ||
        (s = rd_jdoc_metric(doc, r, req, "total", "requests", 0, RD_JN_NONNEG | RD_JN_INT,
                            false, &found)))
        return s;
    if (found)
        rd_record_metric(r, "requests", &completed);
    if ((s = json_count(doc, r, req, "sent", "requests_sent", NULL)) ||
        (s = json_rate(doc, r, thr, "transfer", "_bytes_per_s", interval_ms)) ||
        (s = json_count(doc, r, thr, "total", "bytes_total", NULL)))
        return s;

    struct rd_load_tally t;
    rd_load_tally_init(&t);
    rd_autocannon_socket_errors(&t, errors, timeouts);
    t.non_2xx = non2xx;
    rd_load_add_failed_responses(&t, "mismatched responses", mism, NULL);
    if (completed >= 0)
        t.requests = completed;
    if (c2xx >= 0)
        t.responses_2xx = c2xx;
    return rd_load_judge(r, &t);
}

/* ------------------------------------------------------------- the entry */

static bool has_json_line(const struct rd_import_input *in, size_t *start, unsigned *line)
{
    size_t i = 0;
    unsigned no = 1;
    while (i < in->len) {
        if (in->len - i >= 2 && in->data[i] == '{' && in->data[i + 1] == '"') {
            *start = i;
            *line = no;
            return true;
        }
        const char *eol = memchr(in->data + i, '\n', in->len - i);
        if (!eol)
            break;
        i = (size_t)(eol - in->data) + 1;
        no++;
    }
    return false;
}

/* True when the input holds the literal text 'lit'. */
#define HAS(in, lit) (memmem((in)->data, (in)->len, lit, sizeof(lit) - 1) != NULL)

static int detect(const struct rd_import_input *in)
{
    static const char *const needles[] = { "\"latency\"", "\"requests\"", "\"throughput\"",
                                           "\"non2xx\"" };
    if (rd_json_looks_like(in->data, in->len, needles, 4))
        return 95;
    if (HAS(in, RD_AUTOCANNON_BAR " Req/Sec") &&
        HAS(in, RD_AUTOCANNON_BAR " Latency"))
        return 95;
    if (HAS(in, "Req/Bytes counts sampled"))
        return 80;
    size_t st;
    unsigned line;
    if (has_json_line(in, &st, &line) &&
        HAS(in, "\"throughput\":{") &&
        HAS(in, "\"non2xx\":"))
        return 90;
    return 0;
}

static rd_status parse(const struct rd_import_input *in, struct rd_recordset *out,
                       struct rd_diag *d)
{
    size_t i = 0;
    while (i < in->len && strchr(" \t\r\n", in->data[i]) && in->data[i])
        i++;
    size_t start, n;
    unsigned line;
    if (i < in->len && in->data[i] == '{')
        return rd_json_each(in, 0, 1, false, json_run, out, d, &n);
    /* A capture of both streams: the exact JSON lines win over the text. */
    if (has_json_line(in, &start, &line))
        return rd_json_each(in, start, line, true, json_run, out, d, &n);
    return rd_autocannon_parse_text(in, out, d);
}

static const char *const version_argv[] = { "autocannon", "--version", NULL };

const struct rd_importer rd_importer_autocannon = {
    .name = TOOL,
    .description = "autocannon --json lines and text report (stderr tables)",
    .version_argv = version_argv,
    .load = true,
    .detect = detect,
    .parse = parse,
};
