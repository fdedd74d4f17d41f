/*
 * oha - importer for oha's JSON output (-j before 1.9, --output-format json
 * since), one run per JSON document.
 *
 * oha writes seconds; they become milliseconds by shifting the decimal
 * point. null (serde's NaN and infinities: no successful request) is kept
 * as "no value". Status codes and errors come as maps; "aborted due to
 * deadline" counts requests that -z cut off at the end of the run, which oha
 * itself leaves out of its success rate, so they are kept apart and do not
 * fail a run. The histograms and the rounded "metrics" block (1.15+) repeat
 * what the percentiles already say and are not stored.
 * Depends on core and jsonimport only.
 */
#include <stdio.h>
#include <string.h>

#include "importer.h"
#include "jsonimport.h"
#include "loadjudge.h"
#include "rundown/units.h"

#define TOOL "oha"
#define DEADLINE "aborted due to deadline"

/* A {"p50": seconds, ...} map as <prefix>_p50_ms. */
static rd_status pct_map(struct rd_jdoc *doc, struct rd_record *r, const cJSON *root,
                         const char *key, const char *prefix, int pow10, const char *suffix)
{
    const cJSON *obj;
    rd_status s = rd_jdoc_get(doc, root, key, RD_JT_OBJECT, false,
                              "a map of percentiles object", &obj);
    for (const cJSON *p = obj ? obj->child : NULL; p && !s; p = p->next) {
        char name[64], frag[24];
        double x, pc;
        const char *k = p->string;
        if (k[0] != 'p' || rd_parse_double(k + 1, strlen(k + 1), &pc) || pc < 0 || pc > 100)
            return rd_jdoc_fail_key(doc, p, "a percentile key such as \"p99.9\"");
        if ((s = rd_jdoc_num_scaled(doc, p, RD_JN_NONNEG | RD_JN_NULL_NAN, pow10,
                                    "a non-negative number or null", &x)))
            return s;
        snprintf(name, sizeof name, "%s_%s%s", prefix, rd_metric_fragment(k, frag, sizeof frag),
                 suffix);
        s = rd_record_set_metric(r, name, x);
    }
    return s;
}

static rd_status details(struct rd_jdoc *doc, struct rd_record *r, const cJSON *root)
{
    static const struct { const char *key, *prefix; } parts[] = {
        { "DNSDialup", "dns_dialup" }, { "DNSLookup", "dns_lookup" }, { "firstByte", "first_byte" }
    };
    static const struct { const char *key, *stat; } stats[] = {
        { "average", "mean" }, { "fastest", "min" }, { "slowest", "max" }
    };
    const cJSON *det, *part;
    rd_status s = rd_jdoc_get(doc, root, "details", RD_JT_OBJECT, false,
                              "the connection details object", &det);
    for (size_t i = 0; det && !s && i < sizeof parts / sizeof parts[0]; i++) {
        if ((s = rd_jdoc_get(doc, det, parts[i].key, RD_JT_OBJECT, false,
                             "an object of average, fastest, slowest", &part)) || !part)
            continue;
        for (size_t k = 0; k < sizeof stats / sizeof stats[0] && !s; k++) {
            char name[48];
            snprintf(name, sizeof name, "%s_%s_ms", parts[i].prefix, stats[k].stat);
            s = rd_jdoc_metric(doc, r, part, stats[k].key, name, 3,
                               RD_JN_NONNEG | RD_JN_NULL_NAN, false, NULL);
        }
    }
    return s;
}

static rd_status run(struct rd_jdoc *doc, void *ctx)
{
    struct rd_recordset *out = ctx;
    const cJSON *root = doc->root, *sum, *rps, *codes, *errs;
    const unsigned nn = RD_JN_NONNEG | RD_JN_NULL_NAN;
    rd_status s;
    if (!cJSON_IsObject(root))
        return rd_jdoc_fail(doc, root, "an oha JSON result object");
    if ((s = rd_jdoc_get(doc, root, "summary", RD_JT_OBJECT, true,
                         "the summary object", &sum)))
        return s;
    struct rd_record *r;
    if ((s = rd_jdoc_new_record(doc, out, root, TOOL, &r)) ||
        (s = rd_jdoc_metric(doc, r, sum, "requestsPerSec", "rps", 0, nn, true, NULL)) ||
        (s = rd_jdoc_metric(doc, r, sum, "total", "duration_s", 0, RD_JN_NONNEG, true, NULL)) ||
        (s = rd_jdoc_metric(doc, r, sum, "successRate", "success_ratio", 0, nn, false, NULL)) ||
        (s = rd_jdoc_metric(doc, r, sum, "average", "latency_mean_ms", 3, nn, false, NULL)) ||
        (s = rd_jdoc_metric(doc, r, sum, "fastest", "latency_min_ms", 3, nn, false, NULL)) ||
        (s = rd_jdoc_metric(doc, r, sum, "slowest", "latency_max_ms", 3, nn, false, NULL)) ||
        (s = pct_map(doc, r, root, "latencyPercentiles", "latency", 3, "_ms")) ||
        (s = rd_jdoc_metric(doc, r, sum, "totalData", "bytes_total", 0, RD_JN_NONNEG | RD_JN_INT,
                            false, NULL)) ||
        (s = rd_jdoc_metric(doc, r, sum, "sizePerRequest", "bytes_per_request", 0,
                            nn | RD_JN_INT, false, NULL)) ||
        (s = rd_jdoc_metric(doc, r, sum, "sizePerSec", "transfer_bytes_per_s", 0, nn, false,
                            NULL)) ||
        (s = pct_map(doc, r, root, "firstBytePercentiles", "first_byte", 3, "_ms")) ||
        (s = details(doc, r, root)))
        return s;

    /* The rate over 10 ms windows: its own mean, beside oha's headline rps. */
    if ((s = rd_jdoc_get(doc, root, "rps", RD_JT_OBJECT, false,
                         "the request rate statistics object", &rps)))
        return s;
    if (rps && ((s = rd_jdoc_metric(doc, r, rps, "mean", "rps_mean", 0, nn, false, NULL)) ||
                (s = rd_jdoc_metric(doc, r, rps, "stddev", "rps_stdev", 0, nn, false, NULL)) ||
                (s = rd_jdoc_metric(doc, r, rps, "min", "rps_min", 0, nn, false, NULL)) ||
                (s = rd_jdoc_metric(doc, r, rps, "max", "rps_max", 0, nn, false, NULL)) ||
                (s = pct_map(doc, r, rps, "percentiles", "rps", 0, ""))))
        return s;

    double ok2xx = 0, non2xx = 0, errors = 0, aborted = 0, timeouts = 0, connect = 0, x;
    if ((s = rd_jdoc_get(doc, root, "statusCodeDistribution", RD_JT_OBJECT, false,
                         "the status code counts object", &codes)))
        return s;
    for (const cJSON *c = codes ? codes->child : NULL; c; c = c->next) {
        unsigned long long code;
        char name[24];
        if (rd_parse_uint(c->string, strlen(c->string), &code) || code > 999)
            return rd_jdoc_fail_key(doc, c, "a status code key such as \"200\"");
        if ((s = rd_jdoc_num(doc, c, RD_JN_NONNEG | RD_JN_INT, "a response count", &x)))
            return s;
        snprintf(name, sizeof name, "status_%llu", code);
        if ((s = rd_record_set_metric(r, name, x)))
            return s;
        if (code >= 200 && code < 300)
            ok2xx += x;
        else
            non2xx += x;
    }
    if ((s = rd_jdoc_get(doc, root, "errorDistribution", RD_JT_OBJECT, false,
                         "the error counts object", &errs)))
        return s;
    for (const cJSON *e = errs ? errs->child : NULL; e; e = e->next) {
        if ((s = rd_jdoc_num(doc, e, RD_JN_NONNEG | RD_JN_INT, "an error count", &x)))
            return s;
        const char *m = e->string;
        if (strcmp(m, DEADLINE) == 0) {
            aborted += x;
            continue;
        }
        errors += x;
        if (strstr(m, "timeout") || strstr(m, "timed out"))
            timeouts += x;
        else if (strstr(m, "onnect") || strstr(m, "refused") || strstr(m, "dns error"))
            connect += x;
    }
    if (codes && ((s = rd_record_set_metric(r, "status_2xx", ok2xx)) ||
                  (s = rd_record_set_metric(r, "non_2xx", non2xx))))
        return s;
    if ((s = rd_record_set_metric(r, "requests", ok2xx + non2xx + errors + aborted)) ||
        (s = rd_record_set_metric(r, "errors", errors)) ||
        (s = rd_record_set_metric(r, "errors_timeout", timeouts)) ||
        (s = rd_record_set_metric(r, "errors_connect", connect)) ||
        (s = rd_record_set_metric(r, "aborted_deadline", aborted)))
        return s;
    if (errs && errs->child) {
        struct rd_buf text = RD_BUF_INIT;
        for (const cJSON *e = errs->child; e && !s; e = e->next)
            s = rd_buf_addf(&text, "%s%s: %.0f", text.len ? "; " : "", e->string,
                            e->valuedouble);
        if (!s)
            s = rd_record_set_info(r, "error_messages", text.ptr);
        rd_buf_release(&text);
        if (s)
            return s;
    }
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    /* Completed requests have a status; requests cut off at the deadline
     * were not failures, and are no attempts either. */
    t.requests = ok2xx + non2xx;
    t.responses_2xx = ok2xx;
    t.non_2xx = non2xx;
    t.errors_timeout = timeouts;
    t.errors_connect = connect;
    t.errors_other = errors - timeouts - connect;
    return rd_load_judge(r, &t);
}

static int detect(const struct rd_import_input *in)
{
    static const char *const needles[] = { "\"summary\"", "\"successRate\"",
                                           "\"requestsPerSec\"" };
    return rd_json_looks_like(in->data, in->len, needles, 3) ? 95 : 0;
}

static rd_status parse(const struct rd_import_input *in, struct rd_recordset *out,
                       struct rd_diag *d)
{
    /* One document per run; several captures may be concatenated. */
    size_t n;
    rd_status s = rd_json_each(in, 0, 1, false, run, out, d, &n);
    if (!s && n == 0)
        s = rd_diag_set(d, RD_ERR_PARSE, in->path, 1, 1,
                        "expected oha's JSON output, got empty input");
    return s;
}

static const char *const version_argv[] = { "oha", "--version", NULL };

const struct rd_importer rd_importer_oha = {
    .name = TOOL,
    .description = "oha JSON (-j before 1.9, --output-format json since)",
    .version_argv = version_argv,
    .load = true,
    .detect = detect,
    .parse = parse,
};
