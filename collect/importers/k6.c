/*
 * k6 - importer for k6's machine-readable summaries: the legacy
 * --summary-export file (shape A), the data object handed to handleSummary
 * (shape B) and the opt-in new machine-readable summary (shape C,
 * --new-machine-readable-summary, k6 >= 1.5). One file is one run.
 *
 * The three shapes hold the same metrics in different wrappers, so each is
 * reduced to (name, type, values, thresholds) and mapped once. Traps kept in
 * mind (../shared/formats/k6.md): http_req_failed's "passes" are FAILED
 * requests; shape A's threshold booleans are true when the threshold FAILED,
 * shape B's {"ok": true} when it passed; key order is random; sub-metrics
 * ("http_req_duration{expected_response:true}") repeat their parent and are
 * not stored, though their failed thresholds still fail the run.
 * Depends on core and jsonimport only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importer.h"
#include "jsonimport.h"
#include "loadjudge.h"
#include "rundown/buf.h"

#define TOOL "k6"

enum shape { SHAPE_A, SHAPE_B, SHAPE_C };

struct k6run {
    struct rd_jdoc *doc;
    struct rd_record *r;
    enum shape shape;
    double duration_s;        /* NaN when the file does not say */
    double failed_requests, failed_checks, http_reqs;
    bool have_http_reqs;
    int thresholds_failed;
    struct rd_buf failed_text;
};

/* A stat key as a metric-name fragment: avg -> mean, med -> p50, p(99.9) -> p99_9. */
static const char *stat_fragment(const char *key, char *out, size_t size)
{
    if (strcmp(key, "avg") == 0)
        return "mean";
    if (strcmp(key, "med") == 0)
        return "p50";
    if (strcmp(key, "count") == 0)
        return "samples";
    size_t n = strlen(key);
    if (n > 3 && key[0] == 'p' && key[1] == '(' && key[n - 1] == ')' && size > 2) {
        char inner[32];
        snprintf(inner, sizeof inner, "%.*s", (int)(n - 3), key + 2);
        out[0] = 'p';
        rd_metric_fragment(inner, out + 1, size - 1);
        return out;
    }
    return rd_metric_fragment(key, out, size);
}

static rd_status val(struct k6run *k, const cJSON *values, const char *key, unsigned flags,
                     double *x, bool *found)
{
    const cJSON *v;
    *found = false;
    rd_status s = rd_jdoc_get(k->doc, values, key, RD_JT_NUMBER | RD_JT_NULL, false,
                              "a number", &v);
    if (s || !v)
        return s;
    if ((s = rd_jdoc_num(k->doc, v, flags | RD_JN_NULL_NAN,
                         flags & RD_JN_NONNEG ? "a non-negative number" : "a number", x)))
        return s;
    *found = true;
    return RD_OK;
}

static rd_status set_if(struct k6run *k, const cJSON *values, const char *key,
                        const char *name, unsigned flags, double *x)
{
    bool found;
    double v;
    rd_status s = val(k, values, key, flags, &v, &found);
    if (!s && found) {
        s = rd_record_set_metric(k->r, name, v);
        if (x)
            *x = v;
    }
    return s;
}

static bool is_time_trend(const char *name, const char *contains)
{
    if (contains)
        return strcmp(contains, "time") == 0;
    /* Shape A does not say what a trend holds; k6's own trends are times. */
    return strncmp(name, "http_req_", 9) == 0 || strcmp(name, "iteration_duration") == 0 ||
           strncmp(name, "grpc_req_", 9) == 0 || strncmp(name, "ws_", 3) == 0;
}

static rd_status trend(struct k6run *k, const char *name, const char *contains,
                       const cJSON *values)
{
    char prefix[96], frag[48], mname[160];
    bool ms = is_time_trend(name, contains);
    if (strcmp(name, "http_req_duration") == 0)
        snprintf(prefix, sizeof prefix, "latency");
    else
        rd_metric_fragment(name, prefix, sizeof prefix);
    for (const cJSON *v = values->child; v; v = v->next) {
        if (!strcmp(v->string, "thresholds"))
            continue;
        const char *f = stat_fragment(v->string, frag, sizeof frag);
        snprintf(mname, sizeof mname, "%s_%s%s", prefix, f,
                 ms && strcmp(f, "samples") ? "_ms" : "");
        double x;
        /* A time trend (http_req_duration, ...) cannot be negative; a
         * custom Trend of other values may be. */
        rd_status s = ms ? rd_jdoc_num(k->doc, v, RD_JN_NULL_NAN | RD_JN_NONNEG,
                                       "a duration in ms (a non-negative number or null)", &x)
                         : rd_jdoc_num(k->doc, v, RD_JN_NULL_NAN, "a number or null", &x);
        if (!s)
            s = rd_record_set_metric(k->r, mname, x);
        if (s)
            return s;
    }
    return RD_OK;
}

static rd_status counter(struct k6run *k, const char *name, const char *contains,
                         const cJSON *values)
{
    const unsigned nn = RD_JN_NONNEG;
    char frag[96], n1[128], n2[128];
    double count = 0, rate;
    bool found, have_rate;
    rd_status s = val(k, values, "count", nn, &count, &found);
    if (s || (s = val(k, values, "rate", nn, &rate, &have_rate)))
        return s;
    /* Shape C has no rate: the count over the run's duration is k6's own
     * definition of it. */
    if (!have_rate && found && k->duration_s > 0) {
        rate = count / k->duration_s;
        have_rate = true;
    }
    if (strcmp(name, "http_reqs") == 0) {
        snprintf(n1, sizeof n1, "requests");
        snprintf(n2, sizeof n2, "rps");
        k->have_http_reqs = found;
        k->http_reqs = count;
    } else if (strcmp(name, "data_received") == 0) {
        snprintf(n1, sizeof n1, "bytes_total");
        snprintf(n2, sizeof n2, "transfer_bytes_per_s");
    } else if (strcmp(name, "data_sent") == 0) {
        snprintf(n1, sizeof n1, "bytes_sent");
        snprintf(n2, sizeof n2, "bytes_sent_per_s");
    } else {
        bool data = contains && strcmp(contains, "data") == 0;
        rd_metric_fragment(name, frag, sizeof frag);
        snprintf(n1, sizeof n1, "%s%s", frag, data ? "_bytes" : "");
        snprintf(n2, sizeof n2, "%s%s_per_s", frag, data ? "_bytes" : "");
    }
    if (found && (s = rd_record_set_metric(k->r, n1, count)))
        return s;
    if (have_rate && (s = rd_record_set_metric(k->r, n2, rate)))
        return s;
    return RD_OK;
}

static rd_status rate_metric(struct k6run *k, const char *name, const cJSON *values)
{
    const unsigned cnt = RD_JN_NONNEG | RD_JN_INT;
    double passes = 0, fails = 0, ratio = 0;
    bool hp, hf, hr;
    rd_status s;
    if (k->shape == SHAPE_C) {
        double total = 0;
        bool ht;
        if ((s = val(k, values, "matches", cnt, &passes, &hp)) ||
            (s = val(k, values, "total", cnt, &total, &ht)))
            return s;
        hf = hp && ht && total >= passes;
        fails = total - passes;
    } else if ((s = val(k, values, "passes", cnt, &passes, &hp)) ||
               (s = val(k, values, "fails", cnt, &fails, &hf))) {
        return s;
    }
    if ((s = val(k, values, k->shape == SHAPE_A ? "value" : "rate", RD_JN_NONNEG, &ratio, &hr)))
        return s;
    char frag[96], n[128];
    rd_metric_fragment(name, frag, sizeof frag);
    if (strcmp(name, "http_req_failed") == 0) {
        /* Inverted: a "pass" of http_req_failed is a failed request. */
        if (hp) {
            k->failed_requests = passes;
            if ((s = rd_record_set_metric(k->r, "requests_failed", passes)))
                return s;
        }
        return hr ? rd_record_set_metric(k->r, "requests_failed_ratio", ratio) : RD_OK;
    }
    if (strcmp(name, "checks") == 0 && hf)
        k->failed_checks = fails;
    snprintf(n, sizeof n, "%s_passed", frag);
    if (hp && (s = rd_record_set_metric(k->r, n, passes)))
        return s;
    snprintf(n, sizeof n, "%s_failed", frag);
    if (hf && (s = rd_record_set_metric(k->r, n, fails)))
        return s;
    snprintf(n, sizeof n, "%s_ratio", frag);
    return hr ? rd_record_set_metric(k->r, n, ratio) : RD_OK;
}

static rd_status gauge(struct k6run *k, const char *name, const cJSON *values)
{
    char frag[96], n[128];
    rd_metric_fragment(name, frag, sizeof frag);
    if (strcmp(name, "vus") == 0)
        /* The last value of vus is what was left at the end; its max is the
         * load the run reached. */
        return set_if(k, values, "max", "vus_peak", RD_JN_NONNEG, NULL);
    if (strcmp(name, "vus_max") == 0)
        return set_if(k, values, "value", "vus_max", RD_JN_NONNEG, NULL);
    rd_status s = set_if(k, values, "value", frag, 0, NULL);
    snprintf(n, sizeof n, "%s_min", frag);
    if (!s)
        s = set_if(k, values, "min", n, 0, NULL);
    snprintf(n, sizeof n, "%s_max", frag);
    if (!s)
        s = set_if(k, values, "max", n, 0, NULL);
    return s;
}

static rd_status thresholds(struct k6run *k, const char *name, const cJSON *metric)
{
    const cJSON *th;
    rd_status s = rd_jdoc_get(k->doc, metric, "thresholds", RD_JT_OBJECT, false,
                              "the thresholds object", &th);
    for (const cJSON *t = th ? th->child : NULL; t && !s; t = t->next) {
        bool failed;
        if (k->shape == SHAPE_A) {
            if (!cJSON_IsBool(t))
                return rd_jdoc_fail(k->doc, t, "true (failed) or false (passed)");
            failed = cJSON_IsTrue(t);
        } else {
            const cJSON *ok;
            if ((s = rd_jdoc_get(k->doc, t, "ok", RD_JT_BOOL, true,
                                 "true (passed) or false (failed)", &ok)))
                return s;
            failed = !cJSON_IsTrue(ok);
        }
        if (failed) {
            k->thresholds_failed++;
            s = rd_buf_addf(&k->failed_text, "%s%s: %s", k->failed_text.len ? "; " : "",
                            name, t->string);
        }
    }
    return s;
}

static rd_status one_metric(struct k6run *k, const cJSON *m, const char *name,
                            const char *type, const char *contains, const cJSON *values)
{
    rd_status s = RD_OK;
    if (k->shape != SHAPE_C && (s = thresholds(k, name, m)))
        return s;
    if (strchr(name, '{'))
        return RD_OK; /* a sub-metric: its parent holds the same data */
    if (!cJSON_IsObject(values))
        return rd_jdoc_fail(k->doc, values, "the metric's values object");
    if (!type) {
        /* Shape A: the type shows in the keys. */
        if (cJSON_GetObjectItemCaseSensitive(values, "passes"))
            type = "rate";
        else if (cJSON_GetObjectItemCaseSensitive(values, "count") &&
                 cJSON_GetObjectItemCaseSensitive(values, "rate"))
            type = "counter";
        else if (cJSON_GetObjectItemCaseSensitive(values, "value"))
            type = "gauge";
        else
            type = "trend";
    }
    if (strcmp(type, "trend") == 0)
        return trend(k, name, contains, values);
    if (strcmp(type, "counter") == 0)
        return counter(k, name, contains, values);
    if (strcmp(type, "rate") == 0)
        return rate_metric(k, name, values);
    if (strcmp(type, "gauge") == 0)
        return gauge(k, name, values);
    return rd_jdoc_fail(k->doc, cJSON_GetObjectItemCaseSensitive(m, "type"),
                        "a metric type: counter, gauge, rate or trend");
}

/* A metric of shapes B and C: {"type", "contains", "values"}. */
static rd_status typed_metric(struct k6run *k, const cJSON *m, const char *name)
{
    const cJSON *type, *contains, *values;
    rd_status s;
    if ((s = rd_jdoc_get(k->doc, m, "type", RD_JT_STRING, true, "the metric type", &type)) ||
        (s = rd_jdoc_get(k->doc, m, "contains", RD_JT_STRING, false,
                         "what the metric contains", &contains)) ||
        (s = rd_jdoc_get(k->doc, m, "values", RD_JT_OBJECT, true,
                         "the metric's values object", &values)))
        return s;
    return one_metric(k, m, name, type->valuestring,
                      contains ? contains->valuestring : NULL, values);
}

/* Shapes A and B: an object of metrics by name. */
static rd_status metrics_ab(struct k6run *k, const cJSON *metrics)
{
    rd_status s = RD_OK;
    for (const cJSON *m = metrics->child; m && !s; m = m->next) {
        if (!cJSON_IsObject(m))
            return rd_jdoc_fail(k->doc, m, "a metric object");
        s = k->shape == SHAPE_A ? one_metric(k, m, m->string, NULL, NULL, m)
                                : typed_metric(k, m, m->string);
    }
    return s;
}

/* Shape C: an array of metrics, each naming itself. */
static rd_status metrics_c(struct k6run *k, const cJSON *metrics)
{
    rd_status s = RD_OK;
    for (const cJSON *m = metrics->child; m && !s; m = m->next) {
        const cJSON *name;
        if (!(s = rd_jdoc_get(k->doc, m, "name", RD_JT_STRING, true, "the metric name",
                              &name)))
            s = typed_metric(k, m, name->valuestring);
    }
    return s;
}

static rd_status run(struct k6run *k, struct rd_recordset *out)
{
    struct rd_jdoc *doc = k->doc;
    const cJSON *root = doc->root, *metrics, *v;
    rd_status s;
    if (!cJSON_IsObject(root))
        return rd_jdoc_fail(doc, root, "a k6 summary object");
    struct rd_record *r = rd_recordset_add(out);
    if (!r)
        return RD_ERR_NOMEM;
    k->r = r;
    r->source_line = 1;
    k->duration_s = NAN;
    if ((s = rd_record_set(r, &r->tool, TOOL)))
        return s;
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    if (cJSON_IsObject(results) && !cJSON_GetObjectItemCaseSensitive(root, "root_group")) {
        const cJSON *config, *meta;
        k->shape = SHAPE_C;
        if ((s = rd_jdoc_get(doc, root, "config", RD_JT_OBJECT, false, "the config object",
                             &config)) ||
            (s = rd_jdoc_get(doc, root, "metadata", RD_JT_OBJECT, false,
                             "the metadata object", &meta)) ||
            (s = rd_jdoc_get(doc, results, "metrics", RD_JT_ARRAY, true,
                             "the metrics array", &metrics)))
            return s;
        if (config) {
            bool found;
            if ((s = val(k, config, "duration", RD_JN_NONNEG, &k->duration_s, &found)))
                return s;
            if (found && (s = rd_record_set_metric(r, "duration_s", k->duration_s)))
                return s;
            if ((s = rd_jdoc_get(doc, config, "script", RD_JT_STRING, false, "a string", &v)) ||
                (v && (s = rd_record_set_info(r, "script", v->valuestring))))
                return s;
        }
        if (meta && ((s = rd_jdoc_get(doc, meta, "k6Version", RD_JT_STRING, false, "a string",
                                      &v)) ||
                     (v && (s = rd_record_set_info(r, "tool_version", v->valuestring))) ||
                     (s = rd_jdoc_get(doc, meta, "generatedAt", RD_JT_STRING, false, "a string",
                                      &v)) ||
                     (v && (s = rd_record_set_info(r, "generated_at", v->valuestring)))))
            return s;
        s = metrics_c(k, metrics);
    } else {
        const cJSON *state;
        if ((s = rd_jdoc_get(doc, root, "metrics", RD_JT_OBJECT, true,
                             "the metrics object", &metrics)) ||
            (s = rd_jdoc_get(doc, root, "state", RD_JT_OBJECT, false, "the state object",
                             &state)))
            return s;
        /* handleSummary data wraps each metric's numbers in "values". */
        k->shape = SHAPE_A;
        for (const cJSON *m = metrics->child; m; m = m->next)
            if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(m, "values")) &&
                cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m, "type")))
                k->shape = SHAPE_B;
        if (state) {
            bool found;
            double ms;
            if ((s = val(k, state, "testRunDurationMs", RD_JN_NONNEG, &ms, &found)))
                return s;
            if (found) {
                k->duration_s = rd_scale10(ms, -3);
                if ((s = rd_record_set_metric(r, "duration_s", k->duration_s)))
                    return s;
            }
        }
        s = metrics_ab(k, metrics);
    }
    if (s)
        return s;
    if ((s = rd_record_set_metric(r, "thresholds_failed", k->thresholds_failed)))
        return s;
    if (k->failed_text.len && (s = rd_record_set_info(r, "thresholds_failed", k->failed_text.ptr)))
        return s;
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    /* http_reqs counts every request made; k6 does not tell a network
     * error from an unexpected status, so the completed ones are those it
     * did not count as failed. */
    if (k->have_http_reqs) {
        t.attempted = k->http_reqs;
        t.requests = k->http_reqs - (k->failed_requests > 0 ? k->failed_requests : 0);
    }
    rd_load_add_failed(&t, "failed requests", k->failed_requests, NULL);
    rd_load_add_reason(&t, "failed checks", k->failed_checks, NULL);
    rd_load_add_reason(&t, "thresholds failed", k->thresholds_failed, k->failed_text.ptr);
    return rd_load_judge(r, &t);
}

static int detect(const struct rd_import_input *in)
{
    static const char *const legacy[] = { "\"root_group\"", "\"metrics\"" };
    static const char *const fresh[] = { "\"results\"", "\"metadata\"", "\"k6Version\"" };
    if (rd_json_looks_like(in->data, in->len, legacy, 2))
        return 95;
    if (rd_json_looks_like(in->data, in->len, fresh, 3))
        return 95;
    return 0;
}

static rd_status parse(const struct rd_import_input *in, struct rd_recordset *out,
                       struct rd_diag *d)
{
    struct rd_jdoc doc;
    struct k6run k;
    rd_status s = rd_jdoc_parse(&doc, in->data, in->len, in->path, 1, d);
    memset(&k, 0, sizeof k);
    k.doc = &doc;
    rd_buf_init(&k.failed_text, 1 << 16);
    if (!s)
        s = run(&k, out);
    rd_buf_release(&k.failed_text);
    rd_jdoc_release(&doc);
    return s;
}

static const char *const version_argv[] = { "k6", "version", NULL };

const struct rd_importer rd_importer_k6 = {
    .name = TOOL,
    .description = "k6 --summary-export, handleSummary data, new machine-readable summary",
    .version_argv = version_argv,
    .load = true,
    .detect = detect,
    .parse = parse,
};
