/*
 * claims.c - a published study's ratios and orders judged on this
 * machine's runs (docs/methods.md, "Claims"; the format in
 * docs/published.md).
 *
 * Each claim names its configs by labels, as figures do, but unlike a
 * figure a claim needs exactly one config on each side: a ratio of "Bun"
 * over "Node" means nothing while either names five mechanisms. The
 * numbers are the ones the pairwise tables use (Welch's test and
 * Fieller's interval from each config's mean, sd and n; stats.c), on every
 * measured value, at the analysis's confidence and alpha; the margin is
 * the workload's. Claims of workloads the stores do not hold are left out,
 * as figures are; the others are written, judged or with the reason they
 * could not be.
 */
#include "claims.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "cfghelp.h"
#include "directions.h"
#include "jw.h"
#include "rundown/analysis_keys.h"
#include "rundown/array.h"
#include "rundown/buf.h"
#include "rundown/json.h"
#include "recommend.h"
#include "stats.h"

const char *rd_claim_judgement_name(enum rd_claim_judgement j)
{
    switch (j) {
    case RD_CLAIM_CONSISTENT: return "consistent";
    case RD_CLAIM_CONTRADICTED: return "contradicted";
    case RD_CLAIM_INCONCLUSIVE: return "inconclusive";
    case RD_CLAIM_NOT_EVALUATED: break;
    }
    return NULL;
}

enum rd_claim_judgement rd_claim_judge_ratio(double claim_lo, double claim_hi, double margin,
                                             double ci_low, double ci_high)
{
    if (isnan(claim_lo) || isnan(claim_hi) || isnan(ci_low) || isnan(ci_high))
        return RD_CLAIM_INCONCLUSIVE;
    double lo = claim_lo * (1 - margin), hi = claim_hi * (1 + margin);
    if (ci_high < lo || ci_low > hi)
        return RD_CLAIM_CONTRADICTED;
    /* The CI meets the band. That alone says little when the CI also
     * holds the opposite direction, so a claimed difference needs this
     * machine's direction to be clear, and a claimed likeness (a band
     * around 1) needs the whole CI inside the band. */
    if (lo > 1)
        return ci_low > 1 ? RD_CLAIM_CONSISTENT : RD_CLAIM_INCONCLUSIVE;
    if (hi < 1)
        return ci_high < 1 ? RD_CLAIM_CONSISTENT : RD_CLAIM_INCONCLUSIVE;
    return ci_low >= lo && ci_high <= hi ? RD_CLAIM_CONSISTENT : RD_CLAIM_INCONCLUSIVE;
}

enum rd_claim_judgement rd_claim_judge_order(const bool *agrees, const double *p_holm, size_t n,
                                             double alpha)
{
    bool all = n > 0;
    for (size_t i = 0; i < n; i++) {
        bool sig = !isnan(p_holm[i]) && p_holm[i] < alpha;
        if (sig && !agrees[i])
            return RD_CLAIM_CONTRADICTED;
        all = all && sig && agrees[i];
    }
    return all ? RD_CLAIM_CONSISTENT : RD_CLAIM_INCONCLUSIVE;
}

/* ---- which config a claim names ---- */

/* One config as a claim names it: the claim's shared labels, this side's
 * own, and the value of its 'by' label (each may be absent). */
struct want {
    const cJSON *common, *side;
    const char *by, *value;
};

static bool cfg_has(const struct cfg *c, const char *key, const char *value)
{
    for (size_t i = 0; i < c->nlabels; i++)
        if (strcmp(c->labels[i].key, key) == 0)
            return strcmp(c->labels[i].value, value) == 0;
    return false;
}

bool rd_cfg_has_labels(const struct cfg *c, const cJSON *labels)
{
    const cJSON *l;
    cJSON_ArrayForEach(l, labels)
        if (!cJSON_IsString(l) || !cfg_has(c, l->string, l->valuestring))
            return false;
    return true;
}

static bool want_match(const struct cfg *c, const struct want *q)
{
    return rd_cfg_has_labels(c, q->common) && rd_cfg_has_labels(c, q->side) &&
           (!q->by || !q->value || cfg_has(c, q->by, q->value));
}

/* "mechanism=worker,runtime=node": the labels q asks for, as given. */
static rd_status want_text(const struct want *q, struct rd_buf *b)
{
    const cJSON *parts[2] = { q->common, q->side }, *l;
    for (int i = 0; i < 2; i++)
        cJSON_ArrayForEach(l, parts[i])
            if (cJSON_IsString(l))
                RD_TRY(rd_buf_addf(b, "%s%s=%s", b->len ? "," : "", l->string, l->valuestring));
    if (q->by && q->value)
        RD_TRY(rd_buf_addf(b, "%s%s=%s", b->len ? "," : "", q->by, q->value));
    return RD_OK;
}

static void want_write(struct jw *w, const struct want *q)
{
    jw_obj(w, NULL, false);
    const cJSON *parts[2] = { q->common, q->side }, *l;
    for (int i = 0; i < 2; i++)
        cJSON_ArrayForEach(l, parts[i])
            if (cJSON_IsString(l))
                jw_str(w, l->string, l->valuestring);
    if (q->by && q->value)
        jw_str(w, q->by, q->value);
    jw_end(w, '}');
}

/* This machine's side of one config of a claim. */
struct side {
    struct want q;
    const struct cfg *c;    /* NULL: none or several match (nmatch says) */
    size_t nmatch;
    double mean, sd, n;     /* NaN when c lacks the metric */
};

static void side_find(const struct rd_analysis *a, const struct wl *wl, int64_t mid,
                      struct side *s)
{
    s->c = NULL;
    s->nmatch = 0;
    s->mean = s->sd = s->n = NAN;
    for (size_t i = 0; i < wl->ncfgs; i++) {
        const struct cfg *c = &a->cfgs[wl->cfgs[i]];
        if (want_match(c, &s->q) && s->nmatch++ == 0)
            s->c = c;
    }
    if (s->nmatch != 1)
        s->c = NULL;
    const struct series *ser = s->c && mid >= 0 ? rd_cfg_find_series(s->c, (uint32_t)mid) : NULL;
    if (ser && ser->len) {
        s->mean = rd_stats_mean(ser->v, ser->len);
        s->sd = rd_stats_sd(ser->v, ser->len);
        s->n = (double)ser->len;
    }
}

/* What is being written: one claim, and why it was judged as it was. */
struct claim_ctx {
    struct rd_analysis *a;
    struct jw *w;
    const struct wl *wl;
    int64_t mid;
    enum rd_better better;
    double margin;
    struct rd_buf why;
};

/* Appends to the claim's reason; a failure is the writer's (sticky). */
__attribute__((format(printf, 2, 3))) static void say(struct claim_ctx *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (rd_buf_vaddf(&x->why, fmt, ap) != RD_OK && !x->w->st)
        x->w->st = RD_ERR_NOMEM;
    va_end(ap);
}

/* Says why side s cannot be used; false when it can. */
static bool side_missing(struct claim_ctx *x, const struct side *s, const char *metric)
{
    if (s->c && !isnan(s->mean))
        return false;
    struct rd_buf l = RD_BUF_INIT;
    if (want_text(&s->q, &l) != RD_OK)
        x->w->st = RD_ERR_NOMEM;
    const char *labels = l.len ? l.ptr : "{}";
    if (s->nmatch == 0)
        say(x, "no config here has %s", labels);
    else if (s->nmatch > 1)
        say(x, "%zu configs here have %s, the claim needs one", s->nmatch, labels);
    else
        say(x, "no run of %s here has %s", labels, metric);
    rd_buf_release(&l);
    return true;
}

/* ---- one claim ---- */


static const char *claim_kind(const cJSON *cl)
{
    const char *k = rd_json_str(cl, "kind");
    if (k)
        return k;
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(cl, "ratio")))
        return "ratio";
    if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(cl, "order")))
        return "order";
    return rd_json_str(cl, "best") ? "best" : NULL;
}

/* The pairs of an order or best claim: each (claimed better, worse). */
static enum rd_claim_judgement write_pairs(struct claim_ctx *x, const struct side *better,
                                           const struct side *worse, size_t n)
{
    size_t m = n ? n : 1;
    double *p = malloc(2 * m * sizeof *p);  /* p, then p_holm */
    bool *agrees = malloc(m * sizeof *agrees);
    struct rd_ratio *r = malloc(m * sizeof *r);
    if (!p || !agrees || !r) {
        free(p);
        free(agrees);
        free(r);
        x->w->st = RD_ERR_NOMEM;
        return RD_CLAIM_NOT_EVALUATED;
    }
    for (size_t i = 0; i < n; i++) {
        const struct side *u = &better[i], *v = &worse[i];
        struct rd_welch t;
        rd_stats_welch_summary(u->mean, u->sd, u->n, v->mean, v->sd, v->n, x->a->o.confidence,
                               &t);
        rd_stats_ratio_fieller(u->mean, u->sd, u->n, v->mean, v->sd, v->n, x->a->o.confidence,
                               &r[i]);
        p[i] = t.p;
        agrees[i] = rd_better_than(u->mean, v->mean, x->better);
    }
    if (n && rd_stats_holm(p, n, p + n) != RD_OK)
        x->w->st = RD_ERR_NOMEM;
    jw_arr(x->w, RD_AK_PAIRS, true);
    for (size_t i = 0; i < n; i++) {
        jw_obj(x->w, NULL, false);
        jw_str(x->w, RD_AK_A, better[i].c->id);
        jw_str(x->w, RD_AK_B, worse[i].c->id);
        jw_num(x->w, RD_AK_RATIO, r[i].ratio);
        jw_num(x->w, RD_AK_RATIO_CI_LOW, r[i].ci_low);
        jw_num(x->w, RD_AK_RATIO_CI_HIGH, r[i].ci_high);
        jw_num(x->w, RD_AK_P, p[i]);
        jw_num(x->w, RD_AK_P_HOLM, p[n + i]);
        jw_bool(x->w, RD_AK_AGREES, agrees[i]);
        jw_end(x->w, '}');
    }
    jw_end(x->w, ']');
    enum rd_claim_judgement j = rd_claim_judge_order(agrees, p + n, n, x->a->o.alpha);
    size_t sig = 0, against = 0;
    for (size_t i = 0; i < n; i++) {
        bool s = !isnan(p[n + i]) && p[n + i] < x->a->o.alpha;
        sig += s && agrees[i];
        against += s && !agrees[i];
    }
    say(x, "%zu of %zu pairs in the claimed order at Holm p < %g", sig, n,
                x->a->o.alpha);
    if (against)
        say(x, ", %zu significantly reversed", against);
    free(p);
    free(agrees);
    free(r);
    return j;
}

/* The two sides of ratio claim cl: a over b. */
static void ratio_sides(const cJSON *cl, const cJSON *common, const char *by, struct side s[2])
{
    const cJSON *rat = cJSON_GetObjectItemCaseSensitive(cl, "ratio");
    s[0] = (struct side){
        .q = { common, cJSON_GetObjectItemCaseSensitive(cl, "a"), by, rd_json_str(rat, "a") } };
    s[1] = (struct side){
        .q = { common, cJSON_GetObjectItemCaseSensitive(cl, "b"), by, rd_json_str(rat, "b") } };
}

bool rd_claim_ratio_configs(const struct rd_analysis *a, const struct wl *wl, const cJSON *cl,
                            const struct cfg *out[2])
{
    if (strcmp(claim_kind(cl) ? claim_kind(cl) : "", "ratio") != 0) {
        out[0] = out[1] = NULL;
        return false;
    }
    struct side s[2];
    ratio_sides(cl, cJSON_GetObjectItemCaseSensitive(cl, "labels"), rd_json_str(cl, "by"), s);
    for (int i = 0; i < 2; i++) {
        side_find(a, wl, -1, &s[i]);
        out[i] = s[i].c;
    }
    return true;
}

static enum rd_claim_judgement claim_ratio(struct claim_ctx *x, const cJSON *cl,
                                           const cJSON *common, const char *by)
{
    const cJSON *rat = cJSON_GetObjectItemCaseSensitive(cl, "ratio");
    struct side s[2];
    ratio_sides(cl, common, by, s);
    double value = NAN, lo = NAN, hi = NAN;
    if (rd_json_num(rat, "value", &value))
        lo = hi = value;
    else if (rd_json_num(rat, "min", &lo))
        hi = INFINITY;
    else if (rd_json_num(rat, "max", &hi))
        lo = 0;
    jw_obj(x->w, RD_AK_CLAIMED, false);
    jw_num(x->w, RD_AK_RATIO, value);
    jw_num(x->w, RD_AK_MIN, isinf(hi) ? lo : NAN);
    jw_num(x->w, RD_AK_MAX, lo == 0 ? hi : NAN);
    jw_end(x->w, '}');
    jw_arr(x->w, RD_AK_LABELS, false);
    for (int i = 0; i < 2; i++) {
        side_find(x->a, x->wl, x->mid, &s[i]);
        want_write(x->w, &s[i].q);
    }
    jw_end(x->w, ']');
    jw_arr(x->w, RD_AK_CONFIGS, false);
    for (int i = 0; i < 2; i++)
        jw_str(x->w, NULL, s[i].c ? s[i].c->id : NULL);
    jw_end(x->w, ']');
    struct rd_ratio r = { NAN, NAN, NAN, NAN };
    struct rd_welch t = { NAN, NAN, NAN, NAN, NAN, NAN };
    bool missing = side_missing(x, &s[0], rd_json_str(cl, "metric")) ||
                   side_missing(x, &s[1], rd_json_str(cl, "metric"));
    if (!missing) {
        rd_stats_ratio_fieller(s[0].mean, s[0].sd, s[0].n, s[1].mean, s[1].sd, s[1].n,
                               x->a->o.confidence, &r);
        rd_stats_welch_summary(s[0].mean, s[0].sd, s[0].n, s[1].mean, s[1].sd, s[1].n,
                               x->a->o.confidence, &t);
    }
    jw_num(x->w, RD_AK_RATIO, r.ratio);
    jw_num(x->w, RD_AK_RATIO_CI_LOW, r.ci_low);
    jw_num(x->w, RD_AK_RATIO_CI_HIGH, r.ci_high);
    jw_num(x->w, RD_AK_P, t.p);
    if (missing)
        return RD_CLAIM_NOT_EVALUATED;
    enum rd_claim_judgement j = rd_claim_judge_ratio(lo, hi, x->margin, r.ci_low, r.ci_high);
    if (isnan(r.ci_low))
        say(x, "%s", "no interval of the ratio here (fewer than 2 runs, or the "
                               "denominator's interval holds 0)");
    else if (isinf(hi))
        say(x, "%g %% interval %.3g to %.3g; the claim's band with the %g %% margin: at least "
               "%.3g", 100 * x->a->o.confidence, r.ci_low, r.ci_high, 100 * x->margin,
            lo * (1 - x->margin));
    else
        say(x, "%g %% interval %.3g to %.3g; the claim's band with the %g %% margin: %.3g to "
               "%.3g", 100 * x->a->o.confidence, r.ci_low, r.ci_high, 100 * x->margin,
            lo * (1 - x->margin), hi * (1 + x->margin));
    return j;
}

static int cmp_side(const void *u, const void *v)
{
    const struct side *a = u, *b = v;
    return strcmp(a->c->id, b->c->id);
}

/* Order: each config and the next. Best: the best against every other
 * config that has the shared labels and another value of 'by'. */
static enum rd_claim_judgement claim_rank(struct claim_ctx *x, const cJSON *cl,
                                          const cJSON *common, const char *by, bool best)
{
    const cJSON *order = cJSON_GetObjectItemCaseSensitive(cl, "order");
    size_t k = best ? x->wl->ncfgs + 1 : (size_t)cJSON_GetArraySize(order);
    struct side *s = calloc(k ? k : 1, sizeof *s);
    if (!s) {
        x->w->st = RD_ERR_NOMEM;
        return RD_CLAIM_NOT_EVALUATED;
    }
    size_t n = 0;
    if (best) {
        s[n++].q = (struct want){ common, NULL, by, rd_json_str(cl, "best") };
        /* The others, one 'by' value each, in config order. */
        for (size_t i = 0; i < x->wl->ncfgs; i++) {
            const struct cfg *c = &x->a->cfgs[x->wl->cfgs[i]];
            const char *v = NULL;
            for (size_t l = 0; l < c->nlabels && !v; l++)
                if (strcmp(c->labels[l].key, by) == 0)
                    v = c->labels[l].value;
            bool seen = !v || strcmp(v, s[0].q.value) == 0 || !rd_cfg_has_labels(c, common);
            for (size_t j = 1; j < n && !seen; j++)
                seen = strcmp(s[j].q.value, v) == 0;
            if (!seen)
                s[n++].q = (struct want){ common, NULL, by, v };
        }
    } else {
        const cJSON *o;
        cJSON_ArrayForEach(o, order)
            s[n++].q = (struct want){ common, o, NULL, NULL };
    }
    bool missing = false;
    jw_arr(x->w, RD_AK_LABELS, false);
    for (size_t i = 0; i < n; i++) {
        side_find(x->a, x->wl, x->mid, &s[i]);
        want_write(x->w, &s[i].q);
        if (!missing)
            missing = side_missing(x, &s[i], rd_json_str(cl, "metric"));
    }
    jw_end(x->w, ']');
    if (best && n > 2 && !missing)
        qsort(s + 1, n - 1, sizeof *s, cmp_side);
    jw_arr(x->w, RD_AK_CONFIGS, false);
    for (size_t i = 0; i < n; i++)
        jw_str(x->w, NULL, s[i].c ? s[i].c->id : NULL);
    jw_end(x->w, ']');
    enum rd_claim_judgement j = RD_CLAIM_NOT_EVALUATED;
    if (n < 2 && !missing) {
        say(x, "%s", "the claim names fewer than two configs here");
        missing = true;
    } else if (!missing && x->better == RD_BETTER_NONE) {
        say(x, "%s", "the metric has no better direction");
        missing = true;
    }
    if (missing) {
        jw_arr(x->w, RD_AK_PAIRS, true);
        jw_end(x->w, ']');
    } else if (best) {
        struct side *first = malloc((n - 1) * sizeof *first);
        if (!first)
            x->w->st = RD_ERR_NOMEM;
        for (size_t i = 0; first && i + 1 < n; i++)
            first[i] = s[0];
        j = first ? write_pairs(x, first, s + 1, n - 1) : RD_CLAIM_NOT_EVALUATED;
        free(first);
    } else {
        j = write_pairs(x, s, s + 1, n - 1);
    }
    free(s);
    return j;
}

/* Writes claim cl of doc; *out is its judgement (written or not). */
static rd_status write_claim(struct claim_ctx *x, const cJSON *doc, const cJSON *cl,
                             const char *file, size_t idx, enum rd_claim_judgement *out)
{
    struct jw *w = x->w;
    const char *kind = claim_kind(cl);
    const cJSON *common = cJSON_GetObjectItemCaseSensitive(cl, "labels");
    const char *by = rd_json_str(cl, "by");
    const char *metric = rd_json_str(cl, "metric");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(cl, "params");
    const char *stat = rd_json_str(cl, "statistic");
    if (!stat)
        stat = rd_json_str(doc, "statistic");
    x->mid = rd_analysis_metric_id(x->a, metric);
    x->better = x->mid >= 0 ? rd_wl_metric_better(x->a, x->wl, (uint32_t)x->mid) : RD_BETTER_NONE;
    /* The workload's own direction for its primary metric, as its verdicts. */
    if (x->wl->primary && metric && strcmp(x->wl->primary, metric) == 0 && x->wl->better)
        x->better = strcmp(x->wl->better, "higher") == 0  ? RD_BETTER_HIGHER
                    : strcmp(x->wl->better, "lower") == 0 ? RD_BETTER_LOWER
                                                          : x->better;
    x->margin = rd_workload_margin(x->a, x->wl);
    rd_buf_reset(&x->why);
    jw_obj(w, NULL, true);
    jw_str(w, RD_AK_FILE, file);
    jw_str(w, RD_AK_STUDY, rd_json_str(doc, "study"));
    jw_str(w, RD_AK_TITLE, rd_json_str(doc, "title"));
    jw_num(w, RD_AK_INDEX, (double)idx);
    jw_str(w, RD_AK_KIND, kind);
    jw_str(w, RD_AK_WORKLOAD, rd_json_str(cl, "workload"));
    jw_str(w, RD_AK_METRIC, metric);
    jw_str(w, RD_AK_BETTER, x->better == RD_BETTER_HIGHER  ? "higher"
                            : x->better == RD_BETTER_LOWER ? "lower"
                                                           : NULL);
    jw_str(w, RD_AK_TEXT, rd_json_str(cl, "text"));
    jw_str(w, RD_AK_FROM, rd_json_str(cl, "from"));
    jw_str(w, RD_AK_REF, rd_json_str(cl, "ref"));
    jw_str(w, RD_AK_NOTE, rd_json_str(cl, "note"));
    jw_str(w, RD_AK_STATISTIC, stat ? stat : "mean");
    jw_bool(w, RD_AK_APPROX, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cl, "approx")));
    jw_bool(w, RD_AK_PARAMS_DIFFER, cJSON_IsObject(params) && params->child != NULL);
    jw_num(w, RD_AK_MARGIN, x->margin);
    enum rd_claim_judgement j;
    if (strcmp(kind, "ratio") == 0)
        j = claim_ratio(x, cl, common, by);
    else
        j = claim_rank(x, cl, common, by, strcmp(kind, "best") == 0);
    jw_str(w, RD_AK_JUDGEMENT, rd_claim_judgement_name(j));
    jw_str(w, RD_AK_REASON, x->why.len ? x->why.ptr : NULL);
    jw_end(w, '}');
    *out = j;
    return w->st;
}

/* A claim's members the kinds need, or an error naming what is wrong. */
static rd_status check_claim(const cJSON *cl, const char *path, size_t idx, struct rd_diag *d)
{
    const char *kind = claim_kind(cl);
    const char *what = NULL;
    if (!rd_json_str(cl, "workload") || !rd_json_str(cl, "metric"))
        what = "'workload' and 'metric' strings";
    else if (!kind)
        what = "a 'kind' ('ratio', 'order' or 'best')";
    else if (strcmp(kind, "ratio") == 0) {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(cl, "ratio");
        double v;
        if (!cJSON_IsObject(r) || !(rd_json_num(r, "value", &v) || rd_json_num(r, "min", &v) ||
                                    rd_json_num(r, "max", &v)))
            what = "a 'ratio' object with 'value', 'min' or 'max'";
        else if (!(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(cl, "a")) ||
                   (rd_json_str(cl, "by") && rd_json_str(r, "a"))) ||
                 !(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(cl, "b")) ||
                   (rd_json_str(cl, "by") && rd_json_str(r, "b"))))
            what = "'a' and 'b' label objects (or 'by' with 'ratio.a' and 'ratio.b')";
    } else if (strcmp(kind, "order") == 0) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(cl, "order"), *e;
        if (!cJSON_IsArray(o))
            what = "an 'order' array of label objects";
        cJSON_ArrayForEach(e, o)
            if (!cJSON_IsObject(e))
                what = "an 'order' array of label objects";
    } else if (strcmp(kind, "best") == 0) {
        if (!rd_json_str(cl, "by") || !rd_json_str(cl, "best"))
            what = "'by' and 'best' strings";
    } else {
        what = "a 'kind' of 'ratio', 'order' or 'best'";
    }
    const cJSON *labels = cJSON_GetObjectItemCaseSensitive(cl, "labels");
    if (!what && labels && !cJSON_IsObject(labels))
        what = "a 'labels' object";
    if (!what)
        return RD_OK;
    return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0, "claim %zu: expected %s", idx, what);
}

/* The per-study counts, by judgement. */
struct tally {
    size_t n[4];
    size_t total;
};

rd_status rd_claims_write(struct rd_analysis *a, struct jw *w, cJSON *const *docs,
                          const char *const *paths, const char *const *files, size_t n,
                          struct rd_diag *d)
{
    struct tally *t = calloc(n ? n : 1, sizeof *t);
    if (!t)
        return RD_ERR_NOMEM;
    struct claim_ctx x = { .a = a, .w = w };
    rd_buf_init(&x.why, 0);
    rd_status st = RD_OK;
    jw_arr(w, RD_AK_REPLICATION_CLAIMS, true);
    for (size_t i = 0; i < n && !st; i++) {
        const cJSON *cl, *claims = cJSON_GetObjectItemCaseSensitive(docs[i], "claims");
        size_t idx = 0;
        cJSON_ArrayForEach(cl, claims) {
            idx++;
            if ((st = check_claim(cl, paths[i], idx, d)))
                break;
            const int64_t *f = rd_strmap_find(&a->wl_map, rd_json_str(cl, "workload"));
            if (!f)
                continue; /* a workload we did not run, as for figures */
            x.wl = &a->wls[*f];
            enum rd_claim_judgement j;
            if ((st = write_claim(&x, docs[i], cl, files[i], idx, &j)))
                break;
            t[i].n[j]++;
            t[i].total++;
        }
    }
    jw_end(w, ']');
    jw_arr(w, RD_AK_REPLICATION_SUMMARY, true);
    for (size_t i = 0; i < n && !st; i++) {
        if (t[i].total == 0)
            continue;
        jw_obj(w, NULL, false);
        jw_str(w, RD_AK_STUDY, rd_json_str(docs[i], "study"));
        jw_str(w, RD_AK_TITLE, rd_json_str(docs[i], "title"));
        jw_num(w, RD_AK_CLAIMS, (double)t[i].total);
        jw_num(w, RD_AK_CONSISTENT, (double)t[i].n[RD_CLAIM_CONSISTENT]);
        jw_num(w, RD_AK_CONTRADICTED, (double)t[i].n[RD_CLAIM_CONTRADICTED]);
        jw_num(w, RD_AK_INCONCLUSIVE, (double)t[i].n[RD_CLAIM_INCONCLUSIVE]);
        jw_num(w, RD_AK_NOT_EVALUATED, (double)t[i].n[RD_CLAIM_NOT_EVALUATED]);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    rd_buf_release(&x.why);
    free(t);
    return st ? st : w->st;
}
