/*
 * view - builds the tree report.md.tmpl renders: every number already
 * formatted for reading, every decision (best, tied, significant, which
 * columns exist) already taken, every string still raw so the template
 * engine escapes it for its destination.
 *
 * Reads the model only; knows nothing about Markdown syntax except the
 * anchors and chart file names it hands over.
 */
#include "backends.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "numfmt.h"
#include "rundown/metrics.h"

/* cJSON reports allocation failure by returning NULL; the view is built in
 * one go, so one flag collects every failure and is checked at the end. */
struct vb {
    bool oom;
    struct rd_buf b;
};

static cJSON *obj(struct vb *v, cJSON *parent, const char *key)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        v->oom = true;
        return NULL;
    }
    if (parent && !(key ? cJSON_AddItemToObject(parent, key, o) : cJSON_AddItemToArray(parent, o))) {
        cJSON_Delete(o);
        v->oom = true;
        return NULL;
    }
    return o;
}

static cJSON *arr(struct vb *v, cJSON *parent, const char *key)
{
    cJSON *a = cJSON_CreateArray();
    if (!a) {
        v->oom = true;
        return NULL;
    }
    if (parent && !(key ? cJSON_AddItemToObject(parent, key, a) : cJSON_AddItemToArray(parent, a))) {
        cJSON_Delete(a);
        v->oom = true;
        return NULL;
    }
    return a;
}

/* Adds a string (NULL adds null, which the template prints as a dash). */
static void str(struct vb *v, cJSON *parent, const char *key, const char *s)
{
    if (!parent)
        return;
    cJSON *item = s ? cJSON_CreateString(s) : cJSON_CreateNull();
    if (!item || !(key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item))) {
        cJSON_Delete(item);
        v->oom = true;
    }
}

/* Adds the text accumulated in v->b and empties it. */
static void take(struct vb *v, cJSON *parent, const char *key)
{
    str(v, parent, key, v->b.ptr);
    rd_buf_reset(&v->b);
}

static void flag(struct vb *v, cJSON *parent, const char *key, bool on)
{
    if (parent && !cJSON_AddBoolToObject(parent, key, on))
        v->oom = true;
}

static void chk(struct vb *v, rd_status st)
{
    if (st != RD_OK)
        v->oom = true;
}

rd_status rd_fmt_relative(struct rd_buf *out, double ratio, double lo, double hi)
{
    if (!isfinite(ratio))
        return rd_buf_addstr(out, RD_UNDEF);
    rd_status st;
    /* Big gaps read best as factors, small ones as percentages. */
    if (ratio >= 1.5 || ratio <= 1 / 1.5) {
        st = rd_fmt_ratio(out, ratio);
        if (st == RD_OK && isfinite(lo) && isfinite(hi)) {
            st = rd_buf_addstr(out, " (");
            if (st == RD_OK) st = rd_fmt_num(out, lo, 3);
            if (st == RD_OK) st = rd_buf_addstr(out, " to ");
            if (st == RD_OK) st = rd_fmt_ratio(out, hi);
            if (st == RD_OK) st = rd_buf_addch(out, ')');
        }
        return st;
    }
    st = rd_fmt_pct(out, ratio - 1);
    if (st == RD_OK && isfinite(lo) && isfinite(hi)) {
        st = rd_buf_addstr(out, " (");
        if (st == RD_OK) st = rd_fmt_pct(out, lo - 1);
        if (st == RD_OK) st = rd_buf_addstr(out, " to ");
        if (st == RD_OK) st = rd_fmt_pct(out, hi - 1);
        if (st == RD_OK) st = rd_buf_addch(out, ')');
    }
    return st;
}

void rd_compare(const struct rd_rworkload *w, int x, int ref, double *ratio,
                double *lo, double *hi, double *p_holm)
{
    *ratio = *lo = *hi = *p_holm = NAN;
    if (x < 0 || ref < 0)
        return;
    bool swapped;
    const cJSON *p = rd_workload_pair(w, w->configs[x].id, w->configs[ref].id, &swapped);
    if (p) {
        double r = rd_num(p, "ratio"), l = rd_num(p, "ratio_ci_low"), h = rd_num(p, "ratio_ci_high");
        *p_holm = rd_num(p, "p_holm");
        /* The stored pair is (a, b) with ratio = mean(a) / mean(b); seen
         * from the other side the ratio and its interval invert. */
        if (swapped) {
            *ratio = r != 0 ? 1 / r : NAN;
            *lo = h > 0 ? 1 / h : NAN;
            *hi = l > 0 ? 1 / l : NAN;
        } else {
            *ratio = r;
            *lo = l;
            *hi = h;
        }
        return;
    }
    double mx = rd_num(w->configs[x].primary, "mean");
    double mr = rd_num(w->configs[ref].primary, "mean");
    if (isfinite(mx) && isfinite(mr) && mr != 0)
        *ratio = mx / mr;
}

/* Counts and degrees of freedom: whole numbers print without decimals. */
static rd_status fmt_count(struct rd_buf *b, double x, int sig)
{
    if (isfinite(x) && x == floor(x) && fabs(x) < 1e15)
        return rd_fmt_fixed(b, x, 0);
    return rd_fmt_num(b, x, sig);
}

static const char *unit_of(const char *metric, struct rd_metric_def *def)
{
    if (!metric)
        return "";
    rd_metric_describe(metric, def);
    return def->unit ? def->unit : "";
}

static bool is_kib(const char *metric)
{
    size_t n = strlen(metric);
    return n > 4 && strcmp(metric + n - 4, "_kib") == 0;
}

static const char *config_name(const struct rd_rworkload *w, const char *id)
{
    int i = rd_workload_find(w, id);
    return i >= 0 ? w->configs[i].name : id;
}

static void view_header(struct vb *v, const struct rd_report *r, cJSON *root)
{
    str(v, root, "title", r->title);
    chk(v, rd_buf_addstr(&v->b, "Generated by rundown " RD_VERSION));
    if (r->runs >= 0) {
        chk(v, rd_buf_addstr(&v->b, " from "));
        chk(v, rd_fmt_fixed(&v->b, (double)r->runs, 0));
        chk(v, rd_buf_addstr(&v->b, r->runs == 1 ? " run" : " runs"));
    }
    if (r->date) {
        /* Only the date of an ISO timestamp: the report is about the day. */
        chk(v, rd_buf_addf(&v->b, " (%.10s)", r->date));
    }
    chk(v, rd_buf_addch(&v->b, '.'));
    if (isfinite(r->alpha)) {
        chk(v, rd_buf_addstr(&v->b, " Alpha "));
        chk(v, rd_buf_addf(&v->b, "%g", r->alpha));
        chk(v, rd_buf_addch(&v->b, ','));
    }
    chk(v, rd_buf_addf(&v->b, " %g %% confidence intervals (Student t), pairwise Welch "
                              "tests with Holm correction.",
                       isfinite(r->confidence) ? r->confidence * 100 : 95));
    take(v, root, "summary");
}

static void view_recommendations(struct vb *v, const struct rd_report *r, cJSON *root)
{
    cJSON *rows = arr(v, root, "recommendations");
    for (size_t wi = 0; wi < r->nworkloads; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        cJSON *row = obj(v, rows, NULL);
        str(v, row, "name", w->name);
        str(v, row, "slug", w->slug);
        str(v, row, "class", w->klass);
        int rec = w->recommended;
        str(v, row, "recommended", rec >= 0 ? w->configs[rec].name : NULL);
        if (rec >= 0 && w->configs[rec].primary) {
            const cJSON *s = w->configs[rec].primary;
            struct rd_metric_def def;
            const char *unit = unit_of(w->metric, &def);
            chk(v, rd_fmt_mean_ci(&v->b, rd_num(s, "mean"), rd_num(s, "ci_low"), rd_num(s, "ci_high")));
            chk(v, rd_buf_addf(&v->b, " %s", unit));
            take(v, row, "primary");
        } else {
            str(v, row, "primary", NULL);
        }
        str(v, row, "metric", w->metric);
        if (rec >= 0 && w->runner_up >= 0) {
            double ratio, lo, hi, ph;
            rd_compare(w, w->runner_up, rec, &ratio, &lo, &hi, &ph);
            chk(v, rd_buf_addf(&v->b, "%s (%s): ", w->configs[w->runner_up].name, rd_other_role(w)));
            chk(v, rd_fmt_relative(&v->b, ratio, lo, hi));
            if (isfinite(ph)) {
                chk(v, rd_buf_addstr(&v->b, ", p_holm "));
                chk(v, rd_fmt_p(&v->b, ph));
            }
            take(v, row, "margin");
        } else {
            str(v, row, "margin", NULL);
        }
        chk(v, rd_tied_text(w, &v->b));
        if (v->b.len)
            take(v, row, "tied");
        else
            str(v, row, "tied", NULL);
    }
}

static void env_add_row(struct vb *v, cJSON *rows, const struct rd_report *r,
                        const struct rd_env_row *row)
{
    bool any = false, is_null;
    const cJSON *e;
    cJSON_ArrayForEach(e, r->envs) {
        if (rd_env_value(e, row, &v->b, &is_null))
            any = true;
        rd_buf_reset(&v->b);
    }
    if (!any)
        return;
    cJSON *out = obj(v, rows, NULL);
    str(v, out, "label", row->label);
    cJSON *vals = arr(v, out, "values");
    cJSON_ArrayForEach(e, r->envs) {
        if (rd_env_value(e, row, &v->b, &is_null) && !is_null)
            take(v, vals, NULL);
        else
            str(v, vals, NULL, NULL);
        rd_buf_reset(&v->b);
    }
}

static void view_environment(struct vb *v, const struct rd_report *r, cJSON *root)
{
    if (cJSON_GetArraySize(r->envs) == 0)
        return;
    cJSON *env = obj(v, root, "environment");
    cJSON *ids = arr(v, env, "ids");
    const cJSON *e;
    cJSON_ArrayForEach(e, r->envs)
        str(v, ids, NULL, rd_str(e, "id"));
    cJSON *rows = arr(v, env, "rows");
    size_t n;
    const struct rd_env_row *known = rd_env_rows(&n);
    for (size_t i = 0; i < n; i++)
        env_add_row(v, rows, r, &known[i]);
    /* Fields this version does not know still reach the reader, once. */
    cJSON_ArrayForEach(e, r->envs) {
        const cJSON *f;
        cJSON_ArrayForEach(f, e) {
            if (rd_env_known_key(f->string))
                continue;
            bool seen = false;
            const cJSON *row;
            cJSON_ArrayForEach(row, rows)
                if (strcmp(rd_str(row, "label"), f->string) == 0)
                    seen = true;
            if (seen)
                continue;
            struct rd_env_row generic = { f->string, { f->string, NULL } };
            env_add_row(v, rows, r, &generic);
        }
    }
    flag(v, env, "has_rows", cJSON_GetArraySize(rows) > 0);
}

static void view_method(struct vb *v, const struct rd_report *r, cJSON *root)
{
    cJSON *items = arr(v, root, "method");
    const cJSON *s = r->settings;
    double runs = rd_num(s, "runs"), warmups = rd_num(s, "warmups");
    if (isfinite(runs)) {
        chk(v, rd_buf_addf(&v->b, "Runs: %g measured per config", runs));
        if (isfinite(warmups))
            chk(v, rd_buf_addf(&v->b, " after %g warmup%s", warmups, warmups == 1 ? "" : "s"));
        chk(v, rd_buf_addstr(&v->b, "; warmup runs are stored, never analysed."));
        take(v, items, NULL);
    }
    if (rd_str(s, "order")) {
        chk(v, rd_buf_addf(&v->b, "Run order: %s", rd_str(s, "order")));
        double seed = rd_num(s, "order_seed");
        if (isfinite(seed))
            chk(v, rd_buf_addf(&v->b, " (seed %g)", seed));
        chk(v, rd_buf_addch(&v->b, '.'));
        take(v, items, NULL);
    }
    chk(v, rd_buf_addf(&v->b, "Confidence intervals: %g %% for the mean with the Student t quantile "
                              "for n - 1 degrees of freedom.",
                       isfinite(r->confidence) ? r->confidence * 100 : 95));
    take(v, items, NULL);
    chk(v, rd_buf_addstr(&v->b, "Comparisons: Welch's t-test for every pair of configs, "
                                "p-values adjusted with Holm's method"));
    if (isfinite(r->alpha))
        chk(v, rd_buf_addf(&v->b, " and judged at alpha = %g", r->alpha));
    chk(v, rd_buf_addstr(&v->b, "; Mann-Whitney U, Hedges' g and the probability of superiority "
                                "alongside; one-way ANOVA, Welch's ANOVA and Kruskal-Wallis across "
                                "all configs."));
    take(v, items, NULL);
    const char *ratio = rd_str(s, "ratio_ci");
    if (!ratio)
        ratio = rd_str(s, "ratio_method");
    /* The analysis names methods by key; say them in words. */
    static const struct { const char *key, *words; } methods[] = {
        { "fieller", "Fieller's theorem" },
        { "log-welch", "Welch's t on log values" },
        { "log_welch", "Welch's t on log values" },
        { "bootstrap", "a seeded percentile bootstrap" },
    };
    for (size_t i = 0; ratio && i < sizeof methods / sizeof methods[0]; i++)
        if (strcmp(ratio, methods[i].key) == 0)
            ratio = methods[i].words;
    double boot = rd_num(s, "bootstrap"), seed = rd_num(s, "seed");
    /* Resamples and seed belong to a bootstrap, not to other methods. */
    if (ratio && !strstr(ratio, "bootstrap") && !strstr(ratio, "Bootstrap"))
        boot = NAN;
    if (ratio || isfinite(boot)) {
        chk(v, rd_buf_addstr(&v->b, "Ratio of means: confidence interval by "));
        chk(v, rd_buf_addstr(&v->b, ratio ? ratio : "bootstrap"));
        if (isfinite(boot))
            chk(v, rd_buf_addf(&v->b, " (%g resamples", boot));
        if (isfinite(boot) && isfinite(seed))
            chk(v, rd_buf_addf(&v->b, ", seed %g", seed));
        if (isfinite(boot))
            chk(v, rd_buf_addch(&v->b, ')'));
        chk(v, rd_buf_addch(&v->b, '.'));
        take(v, items, NULL);
    }
    chk(v, rd_buf_addstr(&v->b, "Recommendation: the best mean on the primary metric; configs not "
                                "significantly different from it after Holm correction are tied, and "
                                "among tied configs the one using the least memory is recommended."));
    take(v, items, NULL);
    chk(v, rd_buf_addstr(&v->b, "One run is one whole program or load-tool run; per-request data "
                                "never counts as n."));
    take(v, items, NULL);
}

static void fmt_stat(struct vb *v, cJSON *row, const char *key, double x, int sig)
{
    chk(v, rd_fmt_num(&v->b, x, sig));
    take(v, row, key);
}

static void view_stats(struct vb *v, const struct rd_report *r, const struct rd_rworkload *w,
                       cJSON *wv)
{
    struct rd_metric_def def;
    const char *unit = unit_of(w->metric, &def);
    str(v, wv, "unit", unit);
    chk(v, rd_buf_addf(&v->b, *unit ? "mean \xc2\xb1 CI (%s)" : "mean \xc2\xb1 CI", unit));
    take(v, wv, "mean_header");
    cJSON *keys = arr(v, wv, "keys");
    for (size_t k = 0; k < w->nkeys; k++)
        str(v, keys, NULL, w->keys[k]);
    /* Configs without labels are known by their id alone. */
    if (w->nkeys == 0)
        str(v, keys, NULL, "config");
    bool has_rss = false;
    for (size_t i = 0; i < w->nconfigs; i++)
        if (isfinite(rd_config_rss_mib(&w->configs[i])))
            has_rss = true;
    flag(v, wv, "has_rss", has_rss);
    int ref = rd_workload_baseline(w) >= 0 ? rd_workload_baseline(w) : w->best;
    str(v, wv, "vs", ref == w->best ? "best" : "baseline");
    chk(v, rd_buf_addf(&v->b, "%g %% CI", isfinite(r->confidence) ? r->confidence * 100 : 95));
    take(v, wv, "ci_header");
    cJSON *rows = arr(v, wv, "rows");
    for (size_t i = 0; i < w->nconfigs; i++) {
        const struct rd_rconfig *c = &w->configs[i];
        const cJSON *s = c->primary;
        cJSON *row = obj(v, rows, NULL);
        str(v, row, "name", c->name);
        cJSON *cells = arr(v, row, "cells");
        for (size_t k = 0; k < w->nkeys; k++)
            str(v, cells, NULL, rd_str(c->labels, w->keys[k]));
        if (w->nkeys == 0)
            str(v, cells, NULL, c->name);
        chk(v, fmt_count(&v->b, rd_num(s, "n"), 6));
        take(v, row, "n");
        chk(v, rd_fmt_mean_ci(&v->b, rd_num(s, "mean"), rd_num(s, "ci_low"), rd_num(s, "ci_high")));
        take(v, row, "mean");
        chk(v, rd_fmt_range(&v->b, rd_num(s, "ci_low"), rd_num(s, "ci_high"), rd_num(s, "mean")));
        take(v, row, "ci");
        fmt_stat(v, row, "median", rd_num(s, "median"), 4);
        fmt_stat(v, row, "p99", rd_num(s, "p99"), 4);
        fmt_stat(v, row, "cv", isfinite(rd_num(s, "cv")) ? rd_num(s, "cv") * 100 : NAN, 2);
        fmt_stat(v, row, "rss", rd_config_rss_mib(c), 3);
        if ((int)i == ref) {
            str(v, row, "vs", ref == w->best ? "best" : "baseline");
        } else {
            double ratio, lo, hi, ph;
            rd_compare(w, (int)i, ref, &ratio, &lo, &hi, &ph);
            chk(v, rd_fmt_relative(&v->b, ratio, lo, hi));
            if (isfinite(ph)) {
                chk(v, rd_buf_addstr(&v->b, ", p_holm "));
                chk(v, rd_fmt_p(&v->b, ph));
            }
            take(v, row, "vs");
        }
        flag(v, row, "recommended", (int)i == w->recommended);
        chk(v, fmt_count(&v->b, rd_num(c->json, "failed_runs"), 6));
        take(v, row, "failed");
    }
    /* A failed-runs column only when some run failed: then it matters. */
    bool has_failed = false;
    for (size_t i = 0; i < w->nconfigs; i++) {
        double f = rd_num(w->configs[i].json, "failed_runs");
        if (isfinite(f) && f > 0)
            has_failed = true;
    }
    flag(v, wv, "has_failed", has_failed);
}

/* The metrics worth a column next to the primary one: the registry's
 * headline figures first, then a workload's own metrics (which have a
 * direction), at most 10; counts that are zero everywhere say nothing. */
static bool metric_all_zero(const struct rd_rworkload *w, const char *name)
{
    for (size_t i = 0; i < w->nconfigs; i++) {
        double m = rd_num(rd_config_stats(&w->configs[i], name), "mean");
        if (isfinite(m) && m != 0)
            return false;
    }
    return true;
}

static void view_other(struct vb *v, const struct rd_rworkload *w, cJSON *wv)
{
    static const char *headline[] = {
        "wall_ms", "user_ms", "sys_ms", "max_rss_kib", "rps", "latency_mean_ms",
        "latency_p50_ms", "latency_p75_ms", "latency_p90_ms", "latency_p99_ms", "latency_max_ms",
        "errors_connect", "errors_read", "errors_write", "errors_timeout", "non_2xx",
        "server_rss_peak_kib", "server_cpu_pct",
    };
    static const char *quiet[] = {
        "errors_connect", "errors_read", "errors_write", "errors_timeout", "non_2xx",
    };
    enum { MAX_OTHER = 10 };
    const char *names[MAX_OTHER];
    size_t nn = 0;
    for (size_t h = 0; h < sizeof headline / sizeof headline[0] && nn < MAX_OTHER; h++) {
        bool present = false;
        for (size_t i = 0; i < w->nconfigs; i++)
            if (rd_config_stats(&w->configs[i], headline[h]))
                present = true;
        if (!present || (w->metric && strcmp(headline[h], w->metric) == 0))
            continue;
        bool skip = false;
        for (size_t q = 0; q < sizeof quiet / sizeof quiet[0]; q++)
            if (strcmp(headline[h], quiet[q]) == 0 && metric_all_zero(w, headline[h]))
                skip = true;
        if (!skip)
            names[nn++] = headline[h];
    }
    for (size_t i = 0; i < w->nconfigs && nn < MAX_OTHER; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(w->configs[i].json, "metrics");
        const cJSON *x;
        cJSON_ArrayForEach(x, m) {
            if (nn == MAX_OTHER)
                break;
            if (!cJSON_IsObject(x) || rd_metric_find(x->string) ||
                (w->metric && strcmp(x->string, w->metric) == 0))
                continue;
            struct rd_metric_def def;
            rd_metric_describe(x->string, &def);
            bool seen = def.better == RD_BETTER_NONE;
            for (size_t k = 0; k < nn; k++)
                if (strcmp(names[k], x->string) == 0)
                    seen = true;
            if (!seen)
                names[nn++] = x->string;
        }
    }
    if (nn == 0)
        return;
    cJSON *other = obj(v, wv, "other");
    cJSON *headers = arr(v, other, "headers");
    for (size_t k = 0; k < nn; k++) {
        struct rd_metric_def def;
        const char *unit = unit_of(names[k], &def);
        if (is_kib(names[k]))
            unit = "MiB";
        chk(v, rd_buf_addf(&v->b, "%s (%s)", names[k], unit));
        take(v, headers, NULL);
    }
    cJSON *rows = arr(v, other, "rows");
    for (size_t i = 0; i < w->nconfigs; i++) {
        cJSON *row = obj(v, rows, NULL);
        str(v, row, "name", w->configs[i].name);
        cJSON *vals = arr(v, row, "values");
        for (size_t k = 0; k < nn; k++) {
            double m = rd_num(rd_config_stats(&w->configs[i], names[k]), "mean");
            if (is_kib(names[k]) && isfinite(m))
                m /= 1024;
            chk(v, rd_fmt_num(&v->b, m, 4));
            take(v, vals, NULL);
        }
    }
}

static void omnibus_part(struct vb *v, const char *label, const cJSON *t, const char *stat,
                         bool two_df)
{
    if (!cJSON_IsObject(t))
        return;
    if (v->b.len)
        chk(v, rd_buf_addstr(&v->b, "; "));
    chk(v, rd_buf_addstr(&v->b, label));
    if (two_df) {
        chk(v, rd_buf_addstr(&v->b, " F("));
        chk(v, fmt_count(&v->b, rd_num(t, "df1"), 3));
        chk(v, rd_buf_addstr(&v->b, ", "));
        chk(v, fmt_count(&v->b, rd_num(t, "df2"), 3));
        chk(v, rd_buf_addstr(&v->b, ") = "));
    } else {
        chk(v, rd_buf_addf(&v->b, " %s = ", stat));
    }
    /* The JSON key is lower case ("h"); the label may not be ("H"). */
    char key[8];
    snprintf(key, sizeof key, "%s", stat);
    for (char *k = key; *k; k++)
        *k = (char)(*k >= 'A' && *k <= 'Z' ? *k - 'A' + 'a' : *k);
    chk(v, rd_fmt_num(&v->b, rd_num(t, key), 4));
    double p = rd_num(t, "p");
    chk(v, rd_buf_addstr(&v->b, isfinite(p) && p < 0.001 ? ", p " : ", p = "));
    chk(v, rd_fmt_p(&v->b, p));
}

static void view_tests(struct vb *v, const struct rd_report *r, const struct rd_rworkload *w,
                       cJSON *wv)
{
    if (w->tests) {
        omnibus_part(v, "One-way ANOVA", cJSON_GetObjectItemCaseSensitive(w->tests, "anova"), "f", true);
        omnibus_part(v, "Welch ANOVA", cJSON_GetObjectItemCaseSensitive(w->tests, "welch_anova"), "f", true);
        const cJSON *kw = cJSON_GetObjectItemCaseSensitive(w->tests, "kruskal");
        omnibus_part(v, "Kruskal-Wallis", kw, "H", false);
        if (v->b.len) {
            chk(v, rd_buf_addch(&v->b, '.'));
            take(v, wv, "omnibus");
        }
    }
    if (cJSON_GetArraySize(w->pairs) == 0)
        return;
    cJSON *pv = obj(v, wv, "pairs");
    const char *metric = rd_str(w->tests, "metric");
    str(v, pv, "metric", metric ? metric : w->metric);
    chk(v, rd_buf_addf(&v->b, "%g %%", isfinite(r->confidence) ? r->confidence * 100 : 95));
    take(v, pv, "conf");
    cJSON *rows = arr(v, pv, "rows");
    const cJSON *p;
    cJSON_ArrayForEach(p, w->pairs) {
        cJSON *row = obj(v, rows, NULL);
        str(v, row, "a", config_name(w, rd_str(p, "a")));
        str(v, row, "b", config_name(w, rd_str(p, "b")));
        double diff = rd_num(p, "diff");
        int dec = rd_fmt_decimals(diff, 3);
        chk(v, rd_fmt_fixed(&v->b, diff, dec));
        if (isfinite(rd_num(p, "diff_ci_low")) && isfinite(rd_num(p, "diff_ci_high"))) {
            chk(v, rd_buf_addstr(&v->b, " ("));
            chk(v, rd_fmt_fixed(&v->b, rd_num(p, "diff_ci_low"), dec));
            chk(v, rd_buf_addstr(&v->b, " to "));
            chk(v, rd_fmt_fixed(&v->b, rd_num(p, "diff_ci_high"), dec));
            chk(v, rd_buf_addch(&v->b, ')'));
        }
        take(v, row, "diff");
        chk(v, rd_fmt_num(&v->b, rd_num(p, "ratio"), 3));
        if (isfinite(rd_num(p, "ratio_ci_low")) && isfinite(rd_num(p, "ratio_ci_high"))) {
            chk(v, rd_buf_addstr(&v->b, " ("));
            chk(v, rd_fmt_num(&v->b, rd_num(p, "ratio_ci_low"), 3));
            chk(v, rd_buf_addstr(&v->b, " to "));
            chk(v, rd_fmt_num(&v->b, rd_num(p, "ratio_ci_high"), 3));
            chk(v, rd_buf_addch(&v->b, ')'));
        }
        take(v, row, "ratio");
        chk(v, rd_fmt_p(&v->b, rd_num(p, "p")));
        take(v, row, "p");
        double ph = rd_num(p, "p_holm");
        chk(v, rd_fmt_p(&v->b, ph));
        take(v, row, "p_holm");
        flag(v, row, "sig", isfinite(ph) && isfinite(r->alpha) && ph < r->alpha);
        chk(v, rd_fmt_p(&v->b, rd_num(p, "mw_p")));
        take(v, row, "mw_p");
        fmt_stat(v, row, "g", rd_num(p, "hedges_g"), 3);
        fmt_stat(v, row, "ps", rd_num(p, "prob_superiority"), 2);
    }
}

static void view_rec(struct vb *v, const struct rd_rworkload *w, cJSON *wv)
{
    if (!w->rec)
        return;
    cJSON *rv = obj(v, wv, "rec");
    int rec = rd_workload_find(w, rd_str(w->rec, "recommended"));
    str(v, rv, "name", rec >= 0 ? w->configs[rec].name : rd_str(w->rec, "recommended"));
    str(v, rv, "reason", rd_str(w->rec, "reason"));
    flag(v, rv, "has_reason", rd_str(w->rec, "reason") != NULL);
}

static void view_warnings(struct vb *v, const struct rd_rworkload *w, cJSON *wv)
{
    if (cJSON_GetArraySize(w->warnings) == 0)
        return;
    cJSON *items = arr(v, wv, "warnings");
    const cJSON *x;
    cJSON_ArrayForEach(x, w->warnings) {
        cJSON *it = obj(v, items, NULL);
        str(v, it, "code", rd_str(x, "code") ? rd_str(x, "code") : "warning");
        const char *cfg = rd_str(x, "config");
        str(v, it, "config", cfg ? config_name(w, cfg) : NULL);
        flag(v, it, "has_config", cfg != NULL);
        str(v, it, "message", rd_str(x, "message") ? rd_str(x, "message") : "");
    }
}

static void view_charts(struct vb *v, const struct rd_chart_plan *p, size_t wi, cJSON *wv)
{
    if (!p)
        return;
    cJSON *charts = NULL;
    for (size_t i = 0; i < p->n; i++) {
        if (p->items[i].workload != wi)
            continue;
        if (!charts)
            charts = arr(v, wv, "charts");
        cJSON *c = obj(v, charts, NULL);
        str(v, c, "file", p->items[i].stem);
        str(v, c, "alt", p->items[i].title);
    }
}

/* "30,500 req/s (n = 5)", "~4.000 ms", "103,821 req/s (best of 10)". */
static void replication_value(struct vb *v, double value, double sd, double n,
                              const char *unit, const char *stat, bool approx)
{
    if (!isfinite(value)) {
        chk(v, rd_buf_addstr(&v->b, RD_UNDEF));
        return;
    }
    if (approx)
        chk(v, rd_buf_addch(&v->b, '~'));
    chk(v, rd_fmt_num(&v->b, value, 4));
    if (isfinite(sd)) {
        chk(v, rd_buf_addstr(&v->b, " \xc2\xb1 "));
        chk(v, rd_fmt_fixed(&v->b, sd, rd_fmt_decimals(value, 4)));
    }
    if (*unit)
        chk(v, rd_buf_addf(&v->b, " %s", unit));
    /* best, min, max, median: the statistic itself; mean or a bare value:
     * only the spread and n. */
    bool mean = !stat || !(strcmp(stat, "best") == 0 || strcmp(stat, "min") == 0 ||
                           strcmp(stat, "max") == 0 || strcmp(stat, "median") == 0);
    if (!mean && isfinite(n))
        chk(v, rd_buf_addf(&v->b, " (%s of %g)", stat, n));
    else if (!mean)
        chk(v, rd_buf_addf(&v->b, " (%s)", stat));
    else if (isfinite(n))
        chk(v, rd_buf_addf(&v->b, " (n = %g)", n));
}

static void view_replication(struct vb *v, const struct rd_report *r, cJSON *root)
{
    if (cJSON_GetArraySize(r->replication) == 0)
        return;
    cJSON *rep = obj(v, root, "replication");
    cJSON *rows = arr(v, rep, "rows");
    const cJSON *x;
    cJSON_ArrayForEach(x, r->replication) {
        cJSON *row = obj(v, rows, NULL);
        const char *study = rd_str(x, "title") ? rd_str(x, "title") : rd_str(x, "study");
        str(v, row, "study", study);
        str(v, row, "machine", rd_str(x, "machine"));
        const char *wname = rd_str(x, "workload");
        str(v, row, "workload", wname);
        /* The config as this report names it when we measured it, else
         * the published labels, so rows of one study stay apart. */
        const char *cfg = rd_str(x, "config");
        for (size_t wi = 0; cfg && wname && wi < r->nworkloads; wi++)
            if (strcmp(r->workloads[wi].name, wname) == 0)
                cfg = config_name(&r->workloads[wi], cfg);
        if (cfg) {
            str(v, row, "config", cfg);
        } else {
            const cJSON *labels = cJSON_GetObjectItemCaseSensitive(x, "labels");
            chk(v, rd_labels_name(labels, NULL, 0, &v->b));
            chk(v, rd_buf_addstr(&v->b, v->b.len ? " (not measured here)" : "not measured here"));
            take(v, row, "config");
        }
        const char *metric = rd_str(x, "metric");
        str(v, row, "metric", metric);
        struct rd_metric_def def;
        const char *unit = metric ? unit_of(metric, &def) : "";
        const char *stat = rd_str(x, "statistic");
        bool approx = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "approx"));
        const cJSON *pub = cJSON_GetObjectItemCaseSensitive(x, "published");
        replication_value(v, rd_num(pub, "mean"), rd_num(pub, "sd"), rd_num(pub, "n"),
                          unit, stat, approx);
        take(v, row, "published");
        const cJSON *ours = cJSON_GetObjectItemCaseSensitive(x, "ours");
        bool mean = !stat || !(strcmp(stat, "best") == 0 || strcmp(stat, "min") == 0 ||
                               strcmp(stat, "max") == 0 || strcmp(stat, "median") == 0);
        double here = mean ? rd_num(ours, "mean") : rd_num(ours, "statistic");
        replication_value(v, here, mean ? rd_num(ours, "sd") : NAN, rd_num(ours, "n"),
                          unit, stat, false);
        take(v, row, "ours");
        chk(v, rd_fmt_num(&v->b, rd_num(x, "ratio"), 3));
        if (isfinite(rd_num(x, "ratio_ci_low")) && isfinite(rd_num(x, "ratio_ci_high"))) {
            chk(v, rd_buf_addstr(&v->b, " ("));
            chk(v, rd_fmt_num(&v->b, rd_num(x, "ratio_ci_low"), 3));
            chk(v, rd_buf_addstr(&v->b, " to "));
            chk(v, rd_fmt_num(&v->b, rd_num(x, "ratio_ci_high"), 3));
            chk(v, rd_buf_addch(&v->b, ')'));
        }
        take(v, row, "ratio");
        chk(v, rd_fmt_p(&v->b, rd_num(x, "p")));
        take(v, row, "p");
        /* What makes the comparison weaker, in words. */
        if (rd_str(x, "note"))
            chk(v, rd_buf_addstr(&v->b, rd_str(x, "note")));
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "params_differ")))
            chk(v, rd_buf_addstr(&v->b, v->b.len ? "; their parameters differ from ours"
                                                 : "their parameters differ from ours"));
        if (v->b.len)
            take(v, row, "note");
        else
            str(v, row, "note", "");
    }
}

rd_status rd_md_view(const struct rd_report *r, const struct rd_chart_plan *p, cJSON **out)
{
    struct vb v = { .oom = false };
    rd_buf_init(&v.b, 0);
    cJSON *root = obj(&v, NULL, NULL);
    if (root) {
        view_header(&v, r, root);
        view_recommendations(&v, r, root);
        view_environment(&v, r, root);
        view_method(&v, r, root);
        cJSON *wls = arr(&v, root, "workloads");
        for (size_t wi = 0; wi < r->nworkloads; wi++) {
            const struct rd_rworkload *w = &r->workloads[wi];
            cJSON *wv = obj(&v, wls, NULL);
            str(&v, wv, "name", w->name);
            str(&v, wv, "slug", w->slug);
            str(&v, wv, "title", w->title);
            str(&v, wv, "class", w->klass);
            str(&v, wv, "metric", w->metric);
            str(&v, wv, "better", w->higher ? "higher" : "lower");
            str(&v, wv, "direction", w->direction);
            chk(&v, rd_buf_addf(&v.b, "%zu config%s", w->nconfigs, w->nconfigs == 1 ? "" : "s"));
            take(&v, wv, "nconfigs");
            flag(&v, wv, "has_configs", w->nconfigs > 0);
            view_stats(&v, r, w, wv);
            view_other(&v, w, wv);
            view_charts(&v, p, wi, wv);
            view_tests(&v, r, w, wv);
            view_rec(&v, w, wv);
            view_warnings(&v, w, wv);
        }
        view_replication(&v, r, root);
    }
    rd_buf_release(&v.b);
    if (v.oom || !root) {
        cJSON_Delete(root);
        return RD_ERR_NOMEM;
    }
    *out = root;
    return RD_OK;
}
