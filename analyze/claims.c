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
 * the workload's; a workload paired within rounds (blocks "round") is
 * compared by its within-round log ratios instead (pairs.h, methods §7a).
 * Claims of workloads the stores do not hold are left out,
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
#include "pairs.h"
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

enum rd_claim_judgement rd_claim_judge_order(const bool *agrees, const double *p_holm,
                                             const bool *alike, size_t n, double alpha)
{
    bool all = n > 0;
    for (size_t i = 0; i < n; i++) {
        bool sig = !isnan(p_holm[i]) && p_holm[i] < alpha;
        if ((sig && !agrees[i]) || (alike && alike[i]))
            return RD_CLAIM_CONTRADICTED;
        all = all && sig && agrees[i];
    }
    return all ? RD_CLAIM_CONSISTENT : RD_CLAIM_INCONCLUSIVE;
}

bool rd_claim_pair_alike(double published, double margin, double ci_low, double ci_high)
{
    if (isnan(published) || isnan(ci_low) || isnan(ci_high) || !(published > 0))
        return false;
    /* An order states a difference. Where the study's figures put the
     * pair apart by more than the margin, an interval that rules out a
     * difference of the margin (in the claimed direction) says the order
     * is not there: the pair is alike here, or the other way round. */
    if (published * (1 - margin) > 1)
        return ci_high < 1 + margin;
    if (published * (1 + margin) < 1)
        return ci_low > 1 - margin;
    return false;
}

/* ---- which config a claim names ---- */

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

static bool want_match(const struct cfg *c, const struct rd_claim_want *q)
{
    return rd_cfg_has_labels(c, q->common) && rd_cfg_has_labels(c, q->side) &&
           (!q->by || !q->value || cfg_has(c, q->by, q->value));
}

/* "mechanism=worker,runtime=node": the labels q asks for, as given. */
static rd_status want_text(const struct rd_claim_want *q, struct rd_buf *b)
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

static void want_write(struct jw *w, const struct rd_claim_want *q)
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
    struct rd_claim_want q;
    const struct cfg *c;    /* NULL: none or several match (nmatch says) */
    size_t nmatch, pos;     /* pos: c's place in the workload's configs */
    double mean, sd, n;     /* NaN when c lacks the metric */
    double published;       /* the study's figure for it (order 'values'; NaN: none) */
};

static void side_find(const struct rd_analysis *a, const struct wl *wl, int64_t mid,
                      struct side *s)
{
    s->c = NULL;
    s->nmatch = 0;
    s->mean = s->sd = s->n = NAN;
    for (size_t i = 0; i < wl->ncfgs; i++) {
        const struct cfg *c = &a->cfgs[wl->cfgs[i]];
        if (want_match(c, &s->q) && s->nmatch++ == 0) {
            s->c = c;
            s->pos = i;
        }
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

/* What is being judged: one claim into res, and why it was judged as it
 * was. A failure (RD_ERR_NOMEM) is kept in st, the first one only. */
struct claim_ctx {
    struct rd_analysis *a;
    struct rd_claim_result *res;
    rd_status st;
    const struct wl *wl;
    int64_t mid;
    enum rd_better better;
    double margin;
    struct rd_buf why;
    /* the workload's rounds of the metric (blocks "round"): pairs.h */
    bool blocks_round;
    struct rd_pairs pairs;
};

static void fail(struct claim_ctx *x, rd_status st)
{
    if (!x->st)
        x->st = st;
}

/* Appends to the claim's reason. */
__attribute__((format(printf, 2, 3))) static void say(struct claim_ctx *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (rd_buf_vaddf(&x->why, fmt, ap) != RD_OK)
        fail(x, RD_ERR_NOMEM);
    va_end(ap);
}

/* Says why side s cannot be used; false when it can. */
static bool side_missing(struct claim_ctx *x, const struct side *s, const char *metric)
{
    if (s->c && !isnan(s->mean))
        return false;
    struct rd_buf l = RD_BUF_INIT;
    if (want_text(&s->q, &l) != RD_OK)
        fail(x, RD_ERR_NOMEM);
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

/* u over v within rounds (docs/methods.md §7a): true, with r (at
 * confidence) and p the paired t's, when the workload pairs its configs
 * and the two share 2 rounds or more; *rounds gets the rounds they share. */
static bool compare_paired(struct claim_ctx *x, const struct side *u, const struct side *v,
                           double confidence, struct rd_ratio *r, double *p, double *rounds)
{
    *rounds = 0;
    if (!x->blocks_round)
        return false;
    double m, sd, n;
    if (!x->pairs.pairing.paired(x->pairs.pairing.ctx, u->pos, v->pos, &m, &sd, &n)) {
        fail(x, RD_ERR_NOMEM);
        return false;
    }
    *rounds = n;
    if (!(n >= 2))
        return false;
    rd_stats_paired_log_ratio(m, sd, n, confidence, r, p);
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

/* Notes the n sides' labels (as the claim names them) and configs (each
 * its id, or NULL) in the result; false on no memory. */
static bool note_labels(struct claim_ctx *x, const struct side *s, size_t n)
{
    struct rd_claim_result *res = x->res;
    res->labels = malloc((n ? n : 1) * sizeof *res->labels);
    res->configs = malloc((n ? n : 1) * sizeof *res->configs);
    if (!res->labels || !res->configs) {
        fail(x, RD_ERR_NOMEM);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        res->labels[i] = s[i].q;
    res->nconfigs = n;
    return true;
}

static void note_configs(struct claim_ctx *x, const struct side *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x->res->configs[i] = s[i].c ? s[i].c->id : NULL;
}

/* The pairs of an order or best claim: each (claimed better, worse). A
 * pair whose sides carry the study's figures is also tested for being
 * alike here (rd_claim_pair_alike) on its Fieller interval at 1 - alpha/n
 * (Bonferroni over the claim's pairs: one side of it is a test at
 * alpha / 2n, so a true order is called alike at most alpha/2 of the
 * time; docs/methods.md §7a). */
static enum rd_claim_judgement judge_pairs(struct claim_ctx *x, const struct side *better,
                                           const struct side *worse, size_t n)
{
    size_t m = n ? n : 1;
    double *p = malloc(2 * m * sizeof *p);  /* p, then p_holm */
    bool *agrees = calloc(2 * m, sizeof *agrees); /* agrees, then alike */
    struct rd_claim_pair *pairs = calloc(m, sizeof *pairs);
    if (!p || !agrees || !pairs) {
        free(p);
        free(agrees);
        free(pairs);
        fail(x, RD_ERR_NOMEM);
        return RD_CLAIM_NOT_EVALUATED;
    }
    bool *alike = agrees + m;
    const double alike_conf = 1 - x->a->o.alpha / (double)m;
    for (size_t i = 0; i < n; i++) {
        const struct side *u = &better[i], *v = &worse[i];
        struct rd_welch t = { .p = NAN };
        struct rd_ratio r, ra = { .ci_low = NAN, .ci_high = NAN };
        double published = u->published / v->published, rounds, ignore;
        bool paired = compare_paired(x, u, v, x->a->o.confidence, &r, &t.p, &rounds);
        if (paired) {
            if (!isnan(published))
                compare_paired(x, u, v, alike_conf, &ra, &ignore, &rounds);
            /* the paired estimate's direction, as the verdicts read it */
            agrees[i] = rd_better_than(r.ratio, 1, x->better);
        } else {
            rd_stats_welch_summary(u->mean, u->sd, u->n, v->mean, v->sd, v->n,
                                   x->a->o.confidence, &t);
            rd_stats_ratio_fieller(u->mean, u->sd, u->n, v->mean, v->sd, v->n,
                                   x->a->o.confidence, &r);
            if (!isnan(published))
                rd_stats_ratio_fieller(u->mean, u->sd, u->n, v->mean, v->sd, v->n, alike_conf,
                                       &ra);
            agrees[i] = rd_better_than(u->mean, v->mean, x->better);
        }
        p[i] = t.p;
        alike[i] = rd_claim_pair_alike(published, x->margin, ra.ci_low, ra.ci_high);
        pairs[i] = (struct rd_claim_pair){ .a = u->c->id, .b = v->c->id, .ratio = r.ratio,
                                           .ci_low = r.ci_low, .ci_high = r.ci_high,
                                           .p = t.p, .agrees = agrees[i],
                                           .published = published, .alike_low = ra.ci_low,
                                           .alike_high = ra.ci_high, .alike = alike[i],
                                           .paired = paired, .rounds = rounds };
    }
    if (n && rd_stats_holm(p, n, p + n) != RD_OK)
        fail(x, RD_ERR_NOMEM);
    for (size_t i = 0; i < n; i++)
        pairs[i].p_holm = p[n + i];
    x->res->pairs = pairs;
    x->res->npairs = n;
    enum rd_claim_judgement j = rd_claim_judge_order(agrees, p + n, alike, n, x->a->o.alpha);
    size_t sig = 0, against = 0, nalike = 0, npaired = 0;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++) {
        bool s = !isnan(p[n + i]) && p[n + i] < x->a->o.alpha;
        sig += s && agrees[i];
        against += s && !agrees[i];
        nalike += alike[i];
        npaired += pairs[i].paired;
        if (pairs[i].paired) {
            lo = fmin(lo, pairs[i].rounds);
            hi = fmax(hi, pairs[i].rounds);
        }
    }
    x->res->paired = x->blocks_round && npaired == n;
    say(x, "%zu of %zu pairs in the claimed order at Holm p < %g", sig, n,
                x->a->o.alpha);
    if (against)
        say(x, ", %zu significantly reversed", against);
    if (nalike)
        say(x, ", %zu within %g %% here (%g %% interval) where the study's figures differ by more",
            nalike, 100 * x->margin, 100 * alike_conf);
    if (x->blocks_round && npaired == n && lo == hi)
        say(x, "; compared within rounds (%g rounds)", lo);
    else if (x->blocks_round && npaired == n)
        say(x, "; compared within rounds (%g to %g rounds)", lo, hi);
    else if (npaired)
        say(x, "; %zu of %zu pairs compared within rounds, the rest on the means (fewer "
               "than 2 rounds with both)", npaired, n);
    else if (x->blocks_round)
        say(x, "%s", "; not compared within rounds (fewer than 2 rounds with both), on the "
                     "means");
    free(p);
    free(agrees);
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
    struct rd_claim_result *res = x->res;
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
    res->ratio_kind = true;
    res->claimed = value;
    res->claimed_min = isinf(hi) ? lo : NAN;
    res->claimed_max = lo == 0 ? hi : NAN;
    for (int i = 0; i < 2; i++)
        side_find(x->a, x->wl, x->mid, &s[i]);
    if (!note_labels(x, s, 2))
        return RD_CLAIM_NOT_EVALUATED;
    note_configs(x, s, 2);
    struct rd_ratio r = { NAN, NAN, NAN, NAN };
    struct rd_welch t = { NAN, NAN, NAN, NAN, NAN, NAN };
    bool missing = side_missing(x, &s[0], rd_json_str(cl, "metric")) ||
                   side_missing(x, &s[1], rd_json_str(cl, "metric"));
    if (!missing)
        res->paired = compare_paired(x, &s[0], &s[1], x->a->o.confidence, &r, &t.p,
                                     &res->rounds);
    if (!missing && !res->paired) {
        rd_stats_ratio_fieller(s[0].mean, s[0].sd, s[0].n, s[1].mean, s[1].sd, s[1].n,
                               x->a->o.confidence, &r);
        rd_stats_welch_summary(s[0].mean, s[0].sd, s[0].n, s[1].mean, s[1].sd, s[1].n,
                               x->a->o.confidence, &t);
    }
    res->ratio = r.ratio;
    res->ci_low = r.ci_low;
    res->ci_high = r.ci_high;
    res->p = t.p;
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
    if (res->paired)
        say(x, "; compared within rounds (%g rounds)", res->rounds);
    else if (x->blocks_round)
        say(x, "; not compared within rounds (%g round%s with both, fewer than 2), on the means",
            res->rounds, res->rounds == 1 ? "" : "s");
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
        fail(x, RD_ERR_NOMEM);
        return RD_CLAIM_NOT_EVALUATED;
    }
    size_t n = 0;
    if (best) {
        s[n++].q = (struct rd_claim_want){ common, NULL, by, rd_json_str(cl, "best") };
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
                s[n++].q = (struct rd_claim_want){ common, NULL, by, v };
        }
    } else {
        const cJSON *o;
        cJSON_ArrayForEach(o, order)
            s[n++].q = (struct rd_claim_want){ common, o, NULL, NULL };
    }
    /* The study's figures, one per config of an order (check_claim saw
     * to it); a best claim has none, and only its order is tested. */
    const cJSON *values = best ? NULL : cJSON_GetObjectItemCaseSensitive(cl, "values");
    for (size_t i = 0; i < n; i++)
        s[i].published = values ? cJSON_GetArrayItem(values, (int)i)->valuedouble : NAN;
    bool missing = false;
    for (size_t i = 0; i < n; i++) {
        side_find(x->a, x->wl, x->mid, &s[i]);
        if (!missing)
            missing = side_missing(x, &s[i], rd_json_str(cl, "metric"));
    }
    /* The labels as the claim gave them; the configs in the order judged. */
    if (!note_labels(x, s, n)) {
        free(s);
        return RD_CLAIM_NOT_EVALUATED;
    }
    if (best && n > 2 && !missing)
        qsort(s + 1, n - 1, sizeof *s, cmp_side);
    note_configs(x, s, n);
    enum rd_claim_judgement j = RD_CLAIM_NOT_EVALUATED;
    if (n < 2 && !missing) {
        say(x, "%s", "the claim names fewer than two configs here");
        missing = true;
    } else if (!missing && x->better == RD_BETTER_NONE) {
        say(x, "%s", "the metric has no better direction");
        missing = true;
    }
    if (missing) {
        /* no pairs */
    } else if (best) {
        struct side *first = malloc((n - 1) * sizeof *first);
        if (!first)
            fail(x, RD_ERR_NOMEM);
        for (size_t i = 0; first && i + 1 < n; i++)
            first[i] = s[0];
        j = first ? judge_pairs(x, first, s + 1, n - 1) : RD_CLAIM_NOT_EVALUATED;
        free(first);
    } else {
        j = judge_pairs(x, s, s + 1, n - 1);
    }
    free(s);
    return j;
}

/* Judges claim cl of doc into x->res. */
static rd_status judge_claim(struct claim_ctx *x, const cJSON *doc, const cJSON *cl,
                             const char *file, size_t idx)
{
    struct rd_claim_result *res = x->res;
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
    /* A workload that pairs its verdicts within rounds pairs its claims
     * too: the round-to-round offsets of the host cancel in each ratio. */
    x->blocks_round = rd_pairs_wanted(x->wl) && x->mid >= 0;
    if (x->blocks_round) {
        rd_status ps = rd_pairs_of_series(x->a, x->wl, (uint32_t)x->mid, &x->pairs);
        if (ps) {
            rd_pairs_release(&x->pairs);
            return ps;
        }
    }
    *res = (struct rd_claim_result){
        .doc = doc, .cl = cl, .file = file, .idx = idx, .kind = kind, .metric = metric,
        .statistic = stat ? stat : "mean",
        .better = x->better == RD_BETTER_HIGHER  ? "higher"
                  : x->better == RD_BETTER_LOWER ? "lower"
                                                 : NULL,
        .margin = x->margin,
        .params_differ = cJSON_IsObject(params) && params->child != NULL,
        .claimed = NAN, .claimed_min = NAN, .claimed_max = NAN,
        .ratio = NAN, .ci_low = NAN, .ci_high = NAN, .p = NAN,
        .blocks_round = x->blocks_round,
    };
    if (strcmp(kind, "ratio") == 0)
        res->judgement = claim_ratio(x, cl, common, by);
    else
        res->judgement = claim_rank(x, cl, common, by, strcmp(kind, "best") == 0);
    if (x->why.len && !x->st) {
        res->reason = strdup(x->why.ptr);
        if (!res->reason)
            fail(x, RD_ERR_NOMEM);
    }
    if (x->blocks_round)
        rd_pairs_release(&x->pairs);
    return x->st;
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
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cl, "values");
        if (!what && v) {
            bool ok = cJSON_IsArray(v) && cJSON_GetArraySize(v) == cJSON_GetArraySize(o);
            for (e = ok ? v->child : NULL; e; e = e->next)
                ok = ok && cJSON_IsNumber(e) && e->valuedouble > 0 && isfinite(e->valuedouble);
            if (!ok)
                what = "'values': one positive number per config of 'order'";
        }
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

rd_status rd_claims_judge(struct rd_analysis *a, cJSON *const *docs, const char *const *paths,
                          const char *const *files, size_t n, struct rd_claims *out,
                          struct rd_diag *d)
{
    *out = (struct rd_claims){ .docs = docs, .ndocs = n };
    out->counts = calloc(n ? n : 1, sizeof *out->counts);
    if (!out->counts)
        return RD_ERR_NOMEM;
    struct claim_ctx x = { .a = a };
    rd_buf_init(&x.why, 0);
    rd_status st = RD_OK;
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
            if ((st = RD_ARRAY_GROW(out->items, out->cap, out->n + 1)))
                break;
            x.res = &out->items[out->n++];
            if ((st = judge_claim(&x, docs[i], cl, files[i], idx)))
                break;
            out->counts[i][x.res->judgement]++;
            out->counts[i][4]++;
        }
    }
    rd_buf_release(&x.why);
    return st;
}

/* Writes one judged claim. */
static void write_claim(struct jw *w, const struct rd_claim_result *c)
{
    jw_obj(w, NULL, true);
    jw_str(w, RD_AK_FILE, c->file);
    jw_str(w, RD_AK_STUDY, rd_json_str(c->doc, "study"));
    jw_str(w, RD_AK_TITLE, rd_json_str(c->doc, "title"));
    jw_num(w, RD_AK_INDEX, (double)c->idx);
    jw_str(w, RD_AK_KIND, c->kind);
    jw_str(w, RD_AK_WORKLOAD, rd_json_str(c->cl, "workload"));
    jw_str(w, RD_AK_METRIC, c->metric);
    jw_str(w, RD_AK_BETTER, c->better);
    jw_str(w, RD_AK_TEXT, rd_json_str(c->cl, "text"));
    jw_str(w, RD_AK_FROM, rd_json_str(c->cl, "from"));
    jw_str(w, RD_AK_REF, rd_json_str(c->cl, "ref"));
    jw_str(w, RD_AK_NOTE, rd_json_str(c->cl, "note"));
    jw_str(w, RD_AK_STATISTIC, c->statistic);
    jw_bool(w, RD_AK_APPROX, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c->cl, "approx")));
    jw_bool(w, RD_AK_PARAMS_DIFFER, c->params_differ);
    jw_num(w, RD_AK_MARGIN, c->margin);
    if (c->ratio_kind) {
        jw_obj(w, RD_AK_CLAIMED, false);
        jw_num(w, RD_AK_RATIO, c->claimed);
        jw_num(w, RD_AK_MIN, c->claimed_min);
        jw_num(w, RD_AK_MAX, c->claimed_max);
        jw_end(w, '}');
    }
    jw_arr(w, RD_AK_LABELS, false);
    for (size_t i = 0; i < c->nconfigs; i++)
        want_write(w, &c->labels[i]);
    jw_end(w, ']');
    jw_arr(w, RD_AK_CONFIGS, false);
    for (size_t i = 0; i < c->nconfigs; i++)
        jw_str(w, NULL, c->configs[i]);
    jw_end(w, ']');
    if (c->ratio_kind) {
        jw_num(w, RD_AK_RATIO, c->ratio);
        jw_num(w, RD_AK_RATIO_CI_LOW, c->ci_low);
        jw_num(w, RD_AK_RATIO_CI_HIGH, c->ci_high);
        jw_num(w, RD_AK_P, c->p);
        if (c->paired)
            jw_num(w, RD_AK_ROUNDS, c->rounds);
    } else {
        jw_arr(w, RD_AK_PAIRS, true);
        for (size_t i = 0; i < c->npairs; i++) {
            const struct rd_claim_pair *p = &c->pairs[i];
            jw_obj(w, NULL, false);
            jw_str(w, RD_AK_A, p->a);
            jw_str(w, RD_AK_B, p->b);
            jw_num(w, RD_AK_RATIO, p->ratio);
            jw_num(w, RD_AK_RATIO_CI_LOW, p->ci_low);
            jw_num(w, RD_AK_RATIO_CI_HIGH, p->ci_high);
            jw_num(w, RD_AK_P, p->p);
            jw_num(w, RD_AK_P_HOLM, p->p_holm);
            jw_bool(w, RD_AK_AGREES, p->agrees);
            if (!isnan(p->published)) {
                jw_num(w, RD_AK_PUBLISHED_RATIO, p->published);
                jw_num(w, RD_AK_ALIKE_CI_LOW, p->alike_low);
                jw_num(w, RD_AK_ALIKE_CI_HIGH, p->alike_high);
                jw_bool(w, RD_AK_ALIKE, p->alike);
            }
            if (c->blocks_round) {
                jw_bool(w, RD_AK_PAIRED, p->paired);
                if (p->paired)
                    jw_num(w, RD_AK_ROUNDS, p->rounds);
            }
            jw_end(w, '}');
        }
        jw_end(w, ']');
    }
    if (c->blocks_round)
        jw_bool(w, RD_AK_PAIRED, c->paired);
    jw_str(w, RD_AK_JUDGEMENT, rd_claim_judgement_name(c->judgement));
    jw_str(w, RD_AK_REASON, c->reason);
    jw_end(w, '}');
}

rd_status rd_claims_write(const struct rd_claims *c, struct jw *w)
{
    jw_arr(w, RD_AK_REPLICATION_CLAIMS, true);
    for (size_t i = 0; i < c->n; i++)
        write_claim(w, &c->items[i]);
    jw_end(w, ']');
    jw_arr(w, RD_AK_REPLICATION_SUMMARY, true);
    for (size_t i = 0; i < c->ndocs; i++) {
        const size_t *t = c->counts[i];
        if (t[4] == 0)
            continue;
        jw_obj(w, NULL, false);
        jw_str(w, RD_AK_STUDY, rd_json_str(c->docs[i], "study"));
        jw_str(w, RD_AK_TITLE, rd_json_str(c->docs[i], "title"));
        jw_num(w, RD_AK_CLAIMS, (double)t[4]);
        jw_num(w, RD_AK_CONSISTENT, (double)t[RD_CLAIM_CONSISTENT]);
        jw_num(w, RD_AK_CONTRADICTED, (double)t[RD_CLAIM_CONTRADICTED]);
        jw_num(w, RD_AK_INCONCLUSIVE, (double)t[RD_CLAIM_INCONCLUSIVE]);
        jw_num(w, RD_AK_NOT_EVALUATED, (double)t[RD_CLAIM_NOT_EVALUATED]);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    return w->st;
}

void rd_claims_release(struct rd_claims *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->items[i].labels);
        free(c->items[i].configs);
        free(c->items[i].pairs);
        free(c->items[i].reason);
    }
    free(c->items);
    free(c->counts);
    *c = (struct rd_claims){ 0 };
}
