/*
 * model - reads analysis.json into the structs of model.h. The only file
 * of render/ that includes cJSON: every key it reads is spelled through
 * rundown/analysis_keys.h, the header analyze/ writes with.
 *
 * Only the fields the report cannot do without are validated; everything
 * optional (tests, pairs, recommendation, warnings, environments,
 * replication, inputs) may be absent, null or of another type, and then
 * reads as absent. Everything kept (strings too) is copied into the
 * report's arena and the parsed JSON is freed: an analysis of a MiB or
 * more is parsed a part at a time (rundown/json_lazy.h), each config,
 * pair, verdict and embedded run freed as soon as it is read, so that 10^5
 * configs never stand as one cJSON tree (about four times the text).
 */
#include "model.h"
#include "derive.h"
#include "lookup.h"
#include "verdicts.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/analysis_keys.h"
#include "rundown/loadjudge.h"
#include "rundown/fsutil.h"
#include "rundown/record.h"
#include "rundown/json.h"
#include "rundown/json_lazy.h"
#include "rundown/strmap.h"
#include "rundown/verdict_words.h"
#include "rundown/utf8.h"

/*
 * Keys no part of rundown writes, read because the render fixtures of
 * tests/cases/render (written by hand before rundown-analyze existed) carry
 * them and their golden outputs show them: the analysis's date, runs,
 * warmups and order in settings, and a workload's "title" (a description;
 * only the top level's title is the contract's).
 */
#define FIXTURE_DATE "date"
#define FIXTURE_RUNS "runs"
#define FIXTURE_WARMUPS "warmups"
#define FIXTURE_ORDER "order"

/* A number member; NaN when missing, null, not a number or not finite. */
static double num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return NAN;
    return v->valuedouble;
}

/* A number member by name, at an offset of the struct it is read into. */
struct num_key {
    const char *key;
    size_t off;
};

/*
 * The numbers 'keys' names (at most 64) of obj into 'dst', each as num()
 * reads it: NaN when missing, null, not a number or not finite, and the
 * first member of a repeated name. One walk over the members instead of a
 * search from the first member per key: a config's statistics and a
 * pair are 16 to 18 numbers each, 10^5 of them at 10^5 configs. The keys
 * are listed in the order analyze writes them, so the key after the last
 * one met is tried first. The walk stops where cJSON's lookup stops: at
 * the end, or at a member without a name (obj not an object).
 */
static void nums(const cJSON *obj, const struct num_key *keys, size_t n, void *dst)
{
    uint64_t seen = 0;
    size_t next = 0;
    for (size_t i = 0; i < n; i++)
        *(double *)((char *)dst + keys[i].off) = NAN;
    for (const cJSON *c = obj ? obj->child : NULL; c && c->string; c = c->next) {
        size_t i = next;
        if (i >= n || strcmp(c->string, keys[i].key) != 0)
            for (i = 0; i < n && strcmp(c->string, keys[i].key) != 0; i++)
                ;
        if (i == n)
            continue;
        next = i + 1;
        if (seen >> i & 1)
            continue;
        seen |= (uint64_t)1 << i;
        if (cJSON_IsNumber(c) && isfinite(c->valuedouble))
            *(double *)((char *)dst + keys[i].off) = c->valuedouble;
    }
}

#define NUM_KEY(type, name, field) { name, offsetof(type, field) }

/* A copy of s in the report's arena: an element of a big array is freed
 * as soon as it is read (rundown/json_lazy.h). NULL stays NULL; a copy
 * that fails is remembered and fails the read. */
static const char *keep(struct rd_report *r, const char *s)
{
    if (!s)
        return NULL;
    const char *c = rd_arena_strdup(&r->arena, s);
    r->oom = r->oom || !c;
    return c;
}

/* A string member (a copy); NULL when missing or not a string. */
static const char *str(struct rd_report *r, const cJSON *obj, const char *key)
{
    return keep(r, rd_json_str(obj, key));
}

/* The elements of an array, also one parsed a part at a time:
 *   EACH(r, it, v, arr) { ... }  RD_TRY(rd_json_each_end(r->lazy, &it)); */
#define EACH(r, it, v, arr)                                  \
    for (rd_json_each_begin((r)->lazy, &(it), (arr));       \
         ((v) = rd_json_each_next((r)->lazy, &(it))) != NULL;)

/* The elements of an array or members of an object. */
static size_t count(const struct rd_report *r, const cJSON *x)
{
    return rd_json_lazy_size(r->lazy, x);
}

/* A member that is an object (arrays alike with 'array'), else NULL. */
static const cJSON *member(const cJSON *obj, const char *key, bool array)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return (array ? cJSON_IsArray(v) : cJSON_IsObject(v)) ? v : NULL;
}

static void *alloc_array(struct rd_report *r, size_t n, size_t size)
{
    /* One more than asked, so an empty array is a valid pointer too. */
    if (n >= ((size_t)-1) / size - 1)
        return NULL;
    return rd_arena_alloc(&r->arena, (n + 1) * size);
}

#define ALLOC_ARRAY(r, ptr, n) ((ptr) = alloc_array((r), (n), sizeof *(ptr)))

/* ---- one config ---- */

static rd_status read_stats(struct rd_report *r, const cJSON *j, struct rd_rstats *s)
{
#define K(name, field) NUM_KEY(struct rd_rstats, name, field)
    static const struct num_key keys[] = {
        K(RD_AK_N, n), K(RD_AK_MEAN, mean), K(RD_AK_SD, sd), K(RD_AK_SE, se),
        K(RD_AK_CI_LOW, ci_low), K(RD_AK_CI_HIGH, ci_high), K(RD_AK_MEDIAN, median),
        K(RD_AK_MIN, min), K(RD_AK_MAX, max), K(RD_AK_Q1, q1), K(RD_AK_Q3, q3),
        K(RD_AK_P90, p90), K(RD_AK_P95, p95), K(RD_AK_P99, p99), K(RD_AK_MAD, mad),
        K(RD_AK_CV, cv), K(RD_AK_GEOMEAN, geomean),
    };
#undef K
    s->metric = keep(r, j->string);
    nums(j, keys, sizeof keys / sizeof keys[0], s);
    const cJSON *vals = member(j, RD_AK_VALUES, true), *v;
    double *out;
    if (!ALLOC_ARRAY(r, out, count(r, vals)))
        return RD_ERR_NOMEM;
    cJSON_ArrayForEach(v, vals)
        if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
            out[s->nvalues++] = v->valuedouble;
    s->values = out;
    return RD_OK;
}

/* Every metric once, the first of a repeated name (the one a lookup by
 * name finds in the document), and only when it is an object. */
static rd_status read_metrics(struct rd_report *r, const cJSON *metrics, struct rd_rconfig *c,
                              struct rd_strmap *seen)
{
    struct rd_rstats *out;
    if (!ALLOC_ARRAY(r, out, count(r, metrics)))
        return RD_ERR_NOMEM;
    c->metrics = out;
    rd_strmap_release(seen);
    const cJSON *m;
    cJSON_ArrayForEach(m, metrics) {
        int added;
        RD_TRY(rd_strmap_put(seen, m->string, 0, &added));
        if (added && cJSON_IsObject(m))
            RD_TRY(read_stats(r, m, &out[c->nmetrics++]));
    }
    return RD_OK;
}

static rd_status read_config(struct rd_report *r, const cJSON *j, struct rd_rconfig *c,
                             size_t wi, size_t ci, struct rd_strmap *seen, struct rd_diag *d)
{
    c->runtime = -1;
    c->id = str(r, j, RD_AK_ID);
    if (!cJSON_IsObject(j) || !c->id)
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                           "workloads[%zu].configs[%zu]: expected 'id' to be a string", wi, ci);
    const cJSON *labels = member(j, RD_AK_LABELS, false), *l;
    struct rd_kv *out;
    if (!ALLOC_ARRAY(r, out, count(r, labels)))
        return RD_ERR_NOMEM;
    cJSON_ArrayForEach(l, labels) {
        if (!cJSON_IsString(l))
            return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                               "workloads[%zu].configs[%zu].labels.%.64s: expected a string",
                               wi, ci, l->string);
        out[c->nlabels++] = (struct rd_kv){ keep(r, l->string), keep(r, l->valuestring) };
    }
    c->labels = out;
    c->failed_runs = num(j, RD_AK_FAILED_RUNS);
    c->contended_runs = num(j, RD_AK_CONTENDED_RUNS);
    return read_metrics(r, member(j, RD_AK_METRICS, false), c, seen);
}

/* ---- tests, recommendation, warnings ---- */

static struct rd_romnibus read_omnibus(const cJSON *t, const char *stat, const char *df1,
                                       const char *df2)
{
    struct rd_romnibus o = { cJSON_IsObject(t), num(t, stat), num(t, df1), NAN, num(t, RD_AK_P) };
    if (df2)
        o.df2 = num(t, df2);
    return o;
}

static rd_status read_tests(struct rd_report *r, const cJSON *j, struct rd_rworkload *w)
{
    if (!j)
        return RD_OK;
    struct rd_rtests *t;
    if (!ALLOC_ARRAY(r, t, 1))
        return RD_ERR_NOMEM;
    t->metric = str(r, j, RD_AK_METRIC);
    t->anova = read_omnibus(member(j, RD_AK_ANOVA, false), RD_AK_F, RD_AK_DF1, RD_AK_DF2);
    t->welch_anova = read_omnibus(member(j, RD_AK_WELCH_ANOVA, false), RD_AK_F, RD_AK_DF1,
                                  RD_AK_DF2);
    t->kruskal = read_omnibus(member(j, RD_AK_KRUSKAL, false), RD_AK_H, RD_AK_DF, NULL);
    const cJSON *pairs = member(j, RD_AK_PAIRS, true), *p;
    struct rd_rpair *out;
    if (!ALLOC_ARRAY(r, out, count(r, pairs)))
        return RD_ERR_NOMEM;
    /* Every entry is a row, even one that is not an object (all undefined). */
    struct rd_json_each it;
#define K(name, field) NUM_KEY(struct rd_rpair, name, field)
    static const struct num_key keys[] = {
        K(RD_AK_WELCH_T, welch_t), K(RD_AK_WELCH_DF, welch_df), K(RD_AK_P, p),
        K(RD_AK_P_HOLM, p_holm), K(RD_AK_MW_U, mw_u), K(RD_AK_MW_P, mw_p),
        K(RD_AK_HEDGES_G, hedges_g), K(RD_AK_PROB_SUPERIORITY, prob_superiority),
        K(RD_AK_DIFF, diff), K(RD_AK_DIFF_CI_LOW, diff_ci_low),
        K(RD_AK_DIFF_CI_HIGH, diff_ci_high), K(RD_AK_RATIO, ratio),
        K(RD_AK_RATIO_CI_LOW, ratio_ci_low), K(RD_AK_RATIO_CI_HIGH, ratio_ci_high),
    };
#undef K
    EACH(r, it, p, pairs) {
        struct rd_rpair *o = &out[t->npairs++];
        *o = (struct rd_rpair){ .a = str(r, p, RD_AK_A), .b = str(r, p, RD_AK_B) };
        nums(p, keys, sizeof keys / sizeof keys[0], o);
    }
    t->pairs = out;
    w->tests = t;
    return rd_json_each_end(r->lazy, &it);
}

/* The strings of a JSON array (other items are skipped) into *out. */
static rd_status read_strings(struct rd_report *r, const cJSON *arr, const char *const **out,
                              size_t *n)
{
    const char **v;
    if (!ALLOC_ARRAY(r, v, count(r, arr)))
        return RD_ERR_NOMEM;
    const cJSON *x;
    cJSON_ArrayForEach(x, arr)
        if (cJSON_IsString(x))
            v[(*n)++] = keep(r, x->valuestring);
    *out = v;
    return RD_OK;
}

/* A verdict's beyond_margin: 1, 0, or -1 when null or missing. */
static int beyond(const cJSON *v)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(v, RD_AK_BEYOND_MARGIN);
    return cJSON_IsBool(b) ? cJSON_IsTrue(b) : -1;
}

static int find_config(const struct rd_rworkload *w, const char *id)
{
    for (size_t i = 0; id && i < w->nconfigs; i++)
        if (strcmp(w->configs[i].id, id) == 0)
            return (int)i;
    return -1;
}

/* A word this version does not know is UNKNOWN (-1 + 1). */
static enum rd_verdict_kind verdict_kind(const char *s)
{
    return (enum rd_verdict_kind)(rd_word_index(rd_verdict_words, RD_NVERDICT_WORDS, s) + 1);
}

static enum rd_decision_kind decision_kind(const char *s)
{
    return (enum rd_decision_kind)(rd_word_index(rd_decision_words, RD_NDECISION_WORDS, s) + 1);
}

/* The decision keys shared by the recommendation and each key metric. */
static rd_status read_decision(struct rd_report *r, const cJSON *j, struct rd_rdecision *o)
{
    o->metric = str(r, j, RD_AK_METRIC);
    const char *better = str(r, j, RD_AK_BETTER);
    int b = better ? rd_better_parse(better) : -1;
    o->better = b >= 0 ? (enum rd_better)b : RD_BETTER_NONE;
    o->best = str(r, j, RD_AK_BEST);
    o->recommended = str(r, j, RD_AK_RECOMMENDED);
    o->decision = decision_kind(str(r, j, RD_AK_DECISION));
    o->family = num(j, RD_AK_FAMILY);
    o->alpha = num(j, RD_AK_VERDICT_ALPHA);
    o->critical_value = num(j, RD_AK_CRITICAL_VALUE);
    o->df = num(j, RD_AK_DF);
    o->runs_needed = num(j, RD_AK_RUNS_NEEDED);
    RD_TRY(read_strings(r, member(j, RD_AK_CANDIDATES, true), &o->candidates, &o->ncandidates));
    const cJSON *arr = member(j, RD_AK_VERDICTS, true), *v;
    struct rd_rverdict *out;
    if (!ALLOC_ARRAY(r, out, count(r, arr)))
        return RD_ERR_NOMEM;
    struct rd_json_each it;
    EACH(r, it, v, arr) {
        if (!cJSON_IsObject(v))
            continue;
        out[o->nverdicts++] = (struct rd_rverdict){
            .config = str(r, v, RD_AK_CONFIG), .index = -1,
            .verdict = verdict_kind(str(r, v, RD_AK_VERDICT)),
            .ratio = num(v, RD_AK_RATIO), .ratio_ci_low = num(v, RD_AK_RATIO_CI_LOW),
            .ratio_ci_high = num(v, RD_AK_RATIO_CI_HIGH), .p_adj = num(v, RD_AK_P_ADJ),
            .runs_needed = num(v, RD_AK_RUNS_NEEDED),
            .exact = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, RD_AK_EXACT)),
            .beyond_margin = beyond(v),
            .estimable = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(v, RD_AK_ESTIMABLE)),
            .why = str(r, v, RD_AK_WHY),
            .eliminated = cJSON_GetObjectItemCaseSensitive(v, RD_AK_ELIM_CI_LOW) != NULL,
            .elim_ci_low = num(v, RD_AK_ELIM_CI_LOW), .elim_ci_high = num(v, RD_AK_ELIM_CI_HIGH),
            .elim_note = str(r, v, RD_AK_ELIM_CI_NOTE),
        };
    }
    o->verdicts = out;
    return rd_json_each_end(r->lazy, &it);
}

/* A recommendation; primary_better is its workload's direction, which the
 * analysis does not repeat for the primary metric (only its key metrics
 * carry `better`). */
static rd_status read_rec(struct rd_report *r, const cJSON *j, enum rd_better primary_better,
                          struct rd_rrecommendation **recp)
{
    struct rd_rrecommendation *rec;
    if (!ALLOC_ARRAY(r, rec, 1))
        return RD_ERR_NOMEM;
    *recp = rec;
    rec->best = str(r, j, RD_AK_BEST);
    rec->recommended = str(r, j, RD_AK_RECOMMENDED);
    rec->reason = str(r, j, RD_AK_REASON);
    rec->tie_breaker = str(r, j, RD_AK_TIE_BREAKER);
    rec->guards = str(r, j, RD_AK_GUARDS);
    rec->margin = num(j, RD_AK_MARGIN);
    rec->max_error_rate = num(j, RD_AK_MAX_ERROR_RATE);
    rec->alpha_look = num(j, RD_AK_ALPHA_LOOK);
    const char *blocks = str(r, j, RD_AK_BLOCKS);
    rec->paired = blocks && strcmp(blocks, "round") == 0;
    rec->fraction = num(j, RD_AK_INFORMATION_FRACTION);
    rec->fraction_before = num(j, RD_AK_INFORMATION_FRACTION_BEFORE);
    RD_TRY(read_decision(r, j, &rec->primary));
    rec->primary.metric = NULL;
    /* As the summary sentence reads it: a worse verdict on req/s says
     * "worse", not "slower". */
    if (rec->primary.better == RD_BETTER_NONE)
        rec->primary.better = primary_better;
    const cJSON *keys = member(j, RD_AK_KEY_METRICS, true), *k;
    struct rd_rdecision *out;
    if (!ALLOC_ARRAY(r, out, count(r, keys)))
        return RD_ERR_NOMEM;
    cJSON_ArrayForEach(k, keys)
        if (cJSON_IsObject(k))
            RD_TRY(read_decision(r, k, &out[rec->nkeys++]));
    rec->keys = out;
    const cJSON *settled = member(j, RD_AK_SETTLED_LABELS, false), *s;
    const char **sk, **sv;
    if (!ALLOC_ARRAY(r, sk, count(r, settled)) ||
        !ALLOC_ARRAY(r, sv, count(r, settled)))
        return RD_ERR_NOMEM;
    cJSON_ArrayForEach(s, settled)
        if (cJSON_IsString(s) && s->string) {
            sk[rec->nsettled] = keep(r, s->string);
            sv[rec->nsettled++] = keep(r, s->valuestring);
        }
    rec->settled_keys = sk;
    rec->settled_values = sv;
    RD_TRY(read_strings(r, member(j, RD_AK_OPEN_LABELS, true), &rec->open_keys, &rec->nopen));
    return read_strings(r, member(j, RD_AK_TIED, true), &rec->tied, &rec->ntied);
}

/* The workload's recommendation, and its decisions per value ("within",
 * a member of the workload beside it). */
static rd_status read_recommendation(struct rd_report *r, const cJSON *j, const cJSON *wj,
                                     struct rd_rworkload *w)
{
    if (!j)
        return RD_OK;
    RD_TRY(read_rec(r, j, w->better, &w->rec));
    const cJSON *arr = member(wj, RD_AK_WITHIN, true), *p;
    struct rd_rwithin *out;
    if (!ALLOC_ARRAY(r, out, count(r, arr)))
        return RD_ERR_NOMEM;
    cJSON_ArrayForEach(p, arr) {
        const cJSON *pr = member(p, RD_AK_RECOMMENDATION, false), *v;
        if (!cJSON_IsObject(pr))
            continue;
        struct rd_rwithin *o = &out[w->rec->nwithin];
        struct rd_buf name = RD_BUF_INIT;
        rd_status st = RD_OK;
        cJSON_ArrayForEach(v, member(p, RD_AK_VALUES, false))
            if (!st && cJSON_IsString(v) && v->string)
                st = rd_buf_addf(&name, "%s%s=%s", name.len ? ", " : "", v->string,
                                 v->valuestring);
        o->name = st ? NULL : rd_arena_strdup(&r->arena, name.len ? name.ptr : "");
        rd_buf_release(&name);
        if (st || !o->name)
            return st ? st : RD_ERR_NOMEM;
        RD_TRY(read_rec(r, pr, w->better, &o->rec));
        w->rec->nwithin++;
    }
    w->rec->within = out;
    return RD_OK;
}

static rd_status read_warnings(struct rd_report *r, const cJSON *arr, struct rd_rworkload *w)
{
    struct rd_rwarning *out;
    if (!ALLOC_ARRAY(r, out, count(r, arr)))
        return RD_ERR_NOMEM;
    const cJSON *x;
    cJSON_ArrayForEach(x, arr) {
        struct rd_rwarning *o = &out[w->nwarnings++];
        const char *level = str(r, x, RD_AK_LEVEL);
        double count = num(x, RD_AK_COUNT);
        *o = (struct rd_rwarning){
            .code = str(r, x, RD_AK_CODE), .config = str(r, x, RD_AK_CONFIG),
            .message = str(r, x, RD_AK_MESSAGE), .metric = str(r, x, RD_AK_METRIC),
            .level = !level ? RD_LEVEL_UNSET
                     : strcmp(level, "info") == 0 ? RD_LEVEL_INFO : RD_LEVEL_WARNING,
            .count = isfinite(count) && count >= 1 ? count : 1,
        };
        RD_TRY(read_strings(r, member(x, RD_AK_CONFIGS, true), &o->configs, &o->nconfigs));
    }
    w->warnings = out;
    return RD_OK;
}

/* ---- one workload ---- */

static rd_status read_workload(struct rd_report *r, const cJSON *j, size_t wi,
                               struct rd_rworkload *w, struct rd_strmap *seen, struct rd_diag *d)
{
    w->baseline = w->best = w->recommended = w->runner_up = -1;
    if (!cJSON_IsObject(j))
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                           "workloads[%zu]: expected an object", wi);
    w->name = str(r, j, RD_AK_NAME);
    if (!w->name || !*w->name)
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                           "workloads[%zu]: expected 'name' to be a non-empty string", wi);
    w->klass = str(r, j, RD_AK_CLASS);
    w->title = str(r, j, RD_AK_TITLE);
    w->env_unknown_runs = num(j, RD_AK_ENV_UNKNOWN_RUNS);
    const cJSON *cont = member(j, RD_AK_CONTENTION, false);
    w->cont_runs = num(cont, RD_AK_RUNS);
    w->cont_contended = num(cont, RD_AK_CONTENDED_RUNS);
    w->cont_unknown = num(cont, RD_AK_CONTENTION_UNKNOWN_RUNS);
    w->others_mean = num(cont, RD_AK_OTHERS_CPU_PCT_MEAN);
    w->others_max = num(cont, RD_AK_OTHERS_CPU_PCT_MAX);
    w->cont_waited_s = num(cont, RD_AK_WAITED_S);
    w->steal_mean = num(cont, RD_AK_STEAL_PCT_MEAN);
    w->steal_max = num(cont, RD_AK_STEAL_PCT_MAX);
    w->speed_min = num(cont, RD_AK_SPEED_PCT_MIN);
    w->slow_cpu_runs = num(cont, RD_AK_SLOW_CPU_RUNS);
    w->wakeup_min = num(cont, RD_AK_WAKEUP_PCT_MIN);
    w->slow_wakeup_runs = num(cont, RD_AK_SLOW_WAKEUP_RUNS);
    const cJSON *primary = member(j, RD_AK_PRIMARY, false);
    w->metric = str(r, primary, RD_AK_METRIC);
    const char *better = str(r, primary, RD_AK_BETTER);
    int b = better ? rd_better_parse(better) : -1;
    w->better = b >= 0 ? (enum rd_better)b : RD_BETTER_NONE;
    const cJSON *tests = member(j, RD_AK_TESTS, false);
    RD_TRY(read_tests(r, tests, w));
    RD_TRY(read_warnings(r, member(j, RD_AK_WARNINGS, true), w));

    const cJSON *configs = cJSON_GetObjectItemCaseSensitive(j, RD_AK_CONFIGS);
    if (configs && !cJSON_IsArray(configs) && !cJSON_IsNull(configs))
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                           "workloads[%zu].configs: expected an array", wi);
    if (!ALLOC_ARRAY(r, w->configs, count(r, configs)))
        return RD_ERR_NOMEM;
    const cJSON *c;
    struct rd_json_each it;
    EACH(r, it, c, configs) {
        struct rd_rconfig *rc = &w->configs[w->nconfigs];
        RD_TRY(read_config(r, c, rc, wi, w->nconfigs, seen, d));
        w->nconfigs++;
        rc->primary = rd_config_stats(rc, w->metric);
    }
    RD_TRY(rd_json_each_end(r->lazy, &it));
    /* A primary metric that no config has is a broken analysis, not an
     * empty chart: say so now instead of letting gnuplot fail on it. */
    if (w->metric && w->nconfigs > 0) {
        bool found = false;
        for (size_t i = 0; i < w->nconfigs && !found; i++)
            found = w->configs[i].primary != NULL;
        if (!found) {
            char ex[80];
            rd_excerpt(w->metric, strlen(w->metric), 60, ex, sizeof ex);
            return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                               "workloads[%zu]: expected the primary metric '%s' in at least one config",
                               wi, ex);
        }
    }
    RD_TRY(read_recommendation(r, member(j, RD_AK_RECOMMENDATION, false), j, w));
    const cJSON *base = cJSON_GetArrayItem(member(j, RD_AK_BASELINE, true), 0);
    w->baseline = cJSON_IsString(base) ? find_config(w, base->valuestring) : -1;
    return RD_OK;
}

/* ---- environments ---- */

/* One row of the environment table and where its value may be found. */
struct env_row {
    const char *label;        /* "CPU" */
    const char *paths[4];     /* "cpu.model", "cpu_model"; NULL-ended */
};

/* The rows every report shows (when present), in order. The first path of
 * each is where rundown.env/1 (collect/envinfo.c) puts it; the others are
 * the render fixtures' flat spellings (cpu_model, cores, governor) and the
 * host name, which only they carry. */
static const struct env_row env_rows[] = {
    { "Host", { "hostname", NULL } },
    { "CPU", { "cpu.model", "cpu_model", NULL } },
    { "Cores", { "cpu.cores_logical", "cores", NULL } },
    { "CPU MHz", { "cpu.mhz", NULL } },
    { "Governor", { "cpu.governor", "governor", NULL } },
    { "Turbo", { "cpu.turbo", NULL } },
    { "Memory", { "memory_kib", NULL } },
    { "OS", { "os", NULL } },
    { "Kernel", { "kernel", NULL } },
    { "Architecture", { "arch", NULL } },
    { "Container", { "container", NULL } },
    { "Load average at start", { "load_avg", NULL } },
    { "Quiet at start", { "check.quiet", NULL } },
    { "Runtimes", { "runtimes", NULL } },
    { "Load tools", { "tools", NULL } },
    { "Pinning", { "pinning", NULL } },
    { "CPU affinity", { "affinity", NULL } },
    { "Captured", { "captured_at", NULL } },
};

#define NENV_ROWS (sizeof env_rows / sizeof env_rows[0])

/* True when 'key' of an environment is covered by env_rows (or is
 * bookkeeping like id and schema), so no generic row repeats it. */
static bool env_known_key(const char *key)
{
    /* "checks": every collection's check, findings and all; the machine
     * line sums them up (contention), "check" (the latest) is Quiet at start. */
    static const char *skip[] = { RD_AK_ID, RD_AK_SCHEMA, "rundown_version", "kernel_build",
                                  "checks" };
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strcmp(key, skip[i]) == 0)
            return true;
    for (size_t i = 0; i < NENV_ROWS; i++)
        for (size_t k = 0; env_rows[i].paths[k]; k++) {
            const char *p = env_rows[i].paths[k];
            size_t n = strcspn(p, ".");
            if (strlen(key) == n && strncmp(key, p, n) == 0)
                return true;
        }
    return false;
}

/* A dotted path inside an object ("cpu.model"), or NULL. */
static const cJSON *json_path(const cJSON *obj, const char *path)
{
    char key[64];
    while (obj && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key || !cJSON_IsObject(obj))
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        obj = cJSON_GetObjectItemCaseSensitive(obj, key);
        path += n;
        if (*path == '.')
            path++;
    }
    return obj;
}

/* Appends any JSON value as one line of text (objects as "k v, k v"). */
static rd_status json_text(const cJSON *v, struct rd_buf *out)
{
    char number[32];
    if (cJSON_IsString(v))
        return rd_buf_addstr(out, v->valuestring);
    if (cJSON_IsNumber(v))
        return rd_buf_addstr(out, rd_fmt_double(v->valuedouble, number));
    if (cJSON_IsBool(v))
        return rd_buf_addstr(out, cJSON_IsTrue(v) ? "yes" : "no");
    if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
        return RD_OK;
    const cJSON *x;
    size_t i = 0;
    cJSON_ArrayForEach(x, v) {
        if (i++)
            RD_TRY(rd_buf_addstr(out, ", "));
        if (x->string && cJSON_IsObject(v)) {
            RD_TRY(rd_buf_addstr(out, x->string));
            /* A tool found by running it: {"version": "...", ...}. */
            if (cJSON_IsObject(x)) {
                const char *vs = rd_json_str(x, "version");
                /* "deno 2.9.6 (stable, ...)" already names the tool. */
                size_t kl = strlen(x->string);
                if (vs && strncmp(vs, x->string, kl) == 0 && vs[kl] == ' ')
                    vs += kl + 1;
                if (vs)
                    RD_TRY(rd_buf_addf(out, " %s", vs));
                else
                    RD_TRY(rd_buf_addstr(out, " (not found)"));
                continue;
            }
            if (!cJSON_IsNull(x))
                RD_TRY(rd_buf_addch(out, ' '));
        }
        RD_TRY(json_text(x, out));
    }
    return RD_OK;
}

/* The value of a row in one environment: *text gets it (in the arena) or
 * NULL for a null; false when the environment has none of the paths. */
static rd_status env_value(struct rd_report *r, const cJSON *env, const char *const *paths,
                           struct rd_buf *b, bool *present, const char **text)
{
    *present = false;
    *text = NULL;
    for (size_t k = 0; paths[k]; k++) {
        const cJSON *v = json_path(env, paths[k]);
        /* an empty object or list ("tools": {}) holds no fact */
        if (!v || ((cJSON_IsObject(v) || cJSON_IsArray(v)) && !v->child))
            continue;
        *present = true;
        if (cJSON_IsNull(v))
            return RD_OK;
        rd_buf_reset(b);
        if (cJSON_IsNumber(v) && strcmp(paths[k], "memory_kib") == 0)
            RD_TRY(rd_buf_addf(b, "%.1f GiB", v->valuedouble / (1024.0 * 1024.0)));
        else
            RD_TRY(json_text(v, b));
        /* The load judged against the CPUs that carry it: "2.53 on 2 CPUs: busy". */
        const cJSON *first = cJSON_IsArray(v) ? cJSON_GetArrayItem(v, 0) : NULL;
        const cJSON *cores = json_path(env, "cpu.cores_logical");
        if (strcmp(paths[k], "load_avg") == 0 && cJSON_IsNumber(first) && cJSON_IsNumber(cores) &&
            cores->valuedouble >= 1 && cores->valuedouble < 1e6) {
            char n[32];
            rd_buf_reset(b);
            RD_TRY(rd_buf_addf(b, "%s on %.0f CPUs: %s", rd_fmt_double(first->valuedouble, n),
                               cores->valuedouble,
                               rd_machine_load_judgement(first->valuedouble,
                                                         (int)cores->valuedouble)));
        }
        *text = rd_arena_strndup(&r->arena, b->ptr ? b->ptr : "", b->len);
        return *text ? RD_OK : RD_ERR_NOMEM;
    }
    return RD_OK;
}

/* Adds the row when at least one environment has the value (null counts). */
static rd_status env_add_row(struct rd_report *r, const cJSON *envs, const char *label,
                             const char *const *paths, struct rd_renv_row *rows,
                             struct rd_buf *b)
{
    const char **values;
    if (!ALLOC_ARRAY(r, values, r->nenvs))
        return RD_ERR_NOMEM;
    bool any = false;
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, envs) {
        bool present;
        RD_TRY(env_value(r, e, paths, b, &present, &values[i++]));
        any = any || present;
    }
    if (any)
        rows[r->nenv_rows++] = (struct rd_renv_row){ label, values };
    return RD_OK;
}

static bool env_row_exists(const struct rd_report *r, const struct rd_renv_row *rows,
                           const char *label)
{
    for (size_t i = 0; i < r->nenv_rows; i++)
        if (strcmp(rows[i].label, label) == 0)
            return true;
    return false;
}

/* The known rows that any environment has, then one row per field this
 * version does not know (so it still reaches the reader), once each. */
static rd_status read_environments(struct rd_report *r, const cJSON *envs)
{
    r->envs_listed = envs != NULL;
    size_t fields = 0;
    const cJSON *e, *f;
    cJSON_ArrayForEach(e, envs)
        fields += cJSON_IsObject(e) ? (size_t)cJSON_GetArraySize(e) : 0;
    const char **ids;
    struct rd_renv_row *rows;
    if (!ALLOC_ARRAY(r, ids, count(r, envs)) ||
        !ALLOC_ARRAY(r, rows, NENV_ROWS + fields))
        return RD_ERR_NOMEM;
    cJSON_ArrayForEach(e, envs)
        ids[r->nenvs++] = str(r, e, RD_AK_ID);
    r->env_ids = ids;
    r->env_rows = rows;
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (size_t i = 0; i < NENV_ROWS && st == RD_OK; i++)
        st = env_add_row(r, envs, env_rows[i].label, env_rows[i].paths, rows, &b);
    cJSON_ArrayForEach(e, envs) {
        if (!cJSON_IsObject(e))
            continue;
        cJSON_ArrayForEach(f, e) {
            if (st != RD_OK)
                break;
            /* A local path (the suite's "root": /home/me/...) says where
             * one person kept the files, nothing about the machine, and a
             * report is shared: it is left out. */
            if (env_known_key(f->string) || env_row_exists(r, rows, f->string) ||
                (cJSON_IsString(f) && (f->valuestring[0] == '/' || f->valuestring[0] == '~')))
                continue;
            const char *paths[] = { f->string, NULL };
            st = env_add_row(r, envs, keep(r, f->string), paths, rows, &b);
        }
    }
    rd_buf_release(&b);
    return st;
}

/* ---- settings, replication, inputs ---- */

static rd_status read_settings(struct rd_report *r, const cJSON *s)
{
    r->alpha = num(s, RD_AK_ALPHA);
    r->confidence = num(s, RD_AK_CONFIDENCE);
    r->bootstrap = num(s, RD_AK_BOOTSTRAP);
    r->seed = num(s, RD_AK_SEED);
    r->ratio_ci = str(r, s, RD_AK_RATIO_CI);
    r->runs = num(s, FIXTURE_RUNS);
    r->warmups = num(s, FIXTURE_WARMUPS);
    r->order = str(r, s, FIXTURE_ORDER);
    struct rd_rsetting *out;
    if (!ALLOC_ARRAY(r, out, count(r, s)))
        return RD_ERR_NOMEM;
    r->settings = out;
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = RD_OK;
    const cJSON *x;
    cJSON_ArrayForEach(x, s) {
        struct rd_rsetting *o = &out[r->nsettings++];
        o->key = keep(r, x->string);
        o->is_number = cJSON_IsNumber(x);
        o->number = x->valuedouble;
        rd_buf_reset(&b);
        if (!o->is_number && (st = json_text(x, &b)) == RD_OK && b.len &&
            !(o->text = rd_arena_strndup(&r->arena, b.ptr, b.len)))
            st = RD_ERR_NOMEM;
        if (st != RD_OK)
            break;
    }
    rd_buf_release(&b);
    return st;
}

/* Labels (a published figure's, a failed check's config): every member,
 * NULL where not a string. */
static rd_status read_labels(struct rd_report *r, const cJSON *labels, const struct rd_kv **kv,
                             size_t *n)
{
    struct rd_kv *out;
    if (!ALLOC_ARRAY(r, out, count(r, labels)))
        return RD_ERR_NOMEM;
    const cJSON *l;
    cJSON_ArrayForEach(l, labels)
        out[(*n)++] = (struct rd_kv){ keep(r, l->string),
                                      cJSON_IsString(l) ? keep(r, l->valuestring) : NULL };
    *kv = out;
    return RD_OK;
}

static rd_status read_replication(struct rd_report *r, const cJSON *arr)
{
    struct rd_rreplication *out;
    if (!ALLOC_ARRAY(r, out, count(r, arr)))
        return RD_ERR_NOMEM;
    r->replication = out;
    const cJSON *j;
    cJSON_ArrayForEach(j, arr) {
        struct rd_rreplication *x = &out[r->nreplication++];
        const cJSON *pub = member(j, RD_AK_PUBLISHED, false), *ours = member(j, RD_AK_OURS, false);
        *x = (struct rd_rreplication){
            .title = str(r, j, RD_AK_TITLE), .study = str(r, j, RD_AK_STUDY),
            .machine = str(r, j, RD_AK_MACHINE), .workload = str(r, j, RD_AK_WORKLOAD),
            .config = str(r, j, RD_AK_CONFIG), .metric = str(r, j, RD_AK_METRIC),
            .statistic = str(r, j, RD_AK_STATISTIC), .note = str(r, j, RD_AK_NOTE),
            .approx = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, RD_AK_APPROX)),
            .params_differ = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, RD_AK_PARAMS_DIFFER)),
            .pub_mean = num(pub, RD_AK_MEAN), .pub_sd = num(pub, RD_AK_SD), .pub_n = num(pub, RD_AK_N),
            .ours_mean = num(ours, RD_AK_MEAN), .ours_sd = num(ours, RD_AK_SD),
            .ours_n = num(ours, RD_AK_N), .ours_statistic = num(ours, RD_AK_STATISTIC),
            .ratio = num(j, RD_AK_RATIO), .ratio_ci_low = num(j, RD_AK_RATIO_CI_LOW),
            .ratio_ci_high = num(j, RD_AK_RATIO_CI_HIGH), .p = num(j, RD_AK_P),
        };
        RD_TRY(read_labels(r, member(j, RD_AK_LABELS, false), &x->labels, &x->nlabels));
    }
    return RD_OK;
}

/* A claim's configs: labels[i] as given, configs[i] the id or null. */
static rd_status read_claim_configs(struct rd_report *r, const cJSON *j, struct rd_rclaim *x)
{
    const cJSON *labels = member(j, RD_AK_LABELS, true), *ids = member(j, RD_AK_CONFIGS, true);
    struct rd_rclaim_config *out;
    if (!ALLOC_ARRAY(r, out, count(r, labels)))
        return RD_ERR_NOMEM;
    x->configs = out;
    const cJSON *l;
    cJSON_ArrayForEach(l, labels) {
        struct rd_rclaim_config *c = &out[x->nconfigs];
        const cJSON *id = cJSON_GetArrayItem(ids, (int)x->nconfigs++);
        c->id = cJSON_IsString(id) ? keep(r, id->valuestring) : NULL;
        struct rd_kv *kv;
        if (!ALLOC_ARRAY(r, kv, count(r, l)))
            return RD_ERR_NOMEM;
        const cJSON *m, *given = cJSON_IsObject(l) ? l : NULL;
        cJSON_ArrayForEach(m, given)
            kv[c->nlabels++] = (struct rd_kv){
                keep(r, m->string), cJSON_IsString(m) ? keep(r, m->valuestring) : NULL };
        c->labels = kv;
    }
    return RD_OK;
}

static rd_status read_claims(struct rd_report *r, const cJSON *arr, const cJSON *summary)
{
    struct rd_rclaim *out;
    if (!ALLOC_ARRAY(r, out, count(r, arr)))
        return RD_ERR_NOMEM;
    r->claims = out;
    const cJSON *j;
    cJSON_ArrayForEach(j, arr) {
        struct rd_rclaim *x = &out[r->nclaims++];
        const cJSON *claimed = member(j, RD_AK_CLAIMED, false);
        *x = (struct rd_rclaim){
            .study = str(r, j, RD_AK_STUDY), .title = str(r, j, RD_AK_TITLE),
            .kind = str(r, j, RD_AK_KIND), .workload = str(r, j, RD_AK_WORKLOAD),
            .metric = str(r, j, RD_AK_METRIC), .better = str(r, j, RD_AK_BETTER),
            .text = str(r, j, RD_AK_TEXT), .from = str(r, j, RD_AK_FROM),
            .ref = str(r, j, RD_AK_REF),
            .note = str(r, j, RD_AK_NOTE), .statistic = str(r, j, RD_AK_STATISTIC),
            .judgement = str(r, j, RD_AK_JUDGEMENT), .reason = str(r, j, RD_AK_REASON),
            .approx = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, RD_AK_APPROX)),
            .params_differ = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, RD_AK_PARAMS_DIFFER)),
            .margin = num(j, RD_AK_MARGIN), .claimed_ratio = num(claimed, RD_AK_RATIO),
            .claimed_min = num(claimed, RD_AK_MIN), .claimed_max = num(claimed, RD_AK_MAX),
            .ratio = num(j, RD_AK_RATIO), .ratio_ci_low = num(j, RD_AK_RATIO_CI_LOW),
            .ratio_ci_high = num(j, RD_AK_RATIO_CI_HIGH), .p = num(j, RD_AK_P),
            .paired = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, RD_AK_PAIRED)),
            .rounds = num(j, RD_AK_ROUNDS),
        };
        RD_TRY(read_claim_configs(r, j, x));
        const cJSON *pairs = member(j, RD_AK_PAIRS, true), *pj;
        struct rd_rclaim_pair *pp;
        if (!ALLOC_ARRAY(r, pp, count(r, pairs)))
            return RD_ERR_NOMEM;
        x->pairs = pp;
        struct rd_json_each it;
        EACH(r, it, pj, pairs)
            pp[x->npairs++] = (struct rd_rclaim_pair){
                .a = str(r, pj, RD_AK_A), .b = str(r, pj, RD_AK_B), .ratio = num(pj, RD_AK_RATIO),
                .ratio_ci_low = num(pj, RD_AK_RATIO_CI_LOW),
                .ratio_ci_high = num(pj, RD_AK_RATIO_CI_HIGH), .p = num(pj, RD_AK_P),
                .p_holm = num(pj, RD_AK_P_HOLM),
                .published_ratio = num(pj, RD_AK_PUBLISHED_RATIO),
                .agrees = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pj, RD_AK_AGREES)),
                .alike = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pj, RD_AK_ALIKE)),
                .paired = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pj, RD_AK_PAIRED)),
            };
        RD_TRY(rd_json_each_end(r->lazy, &it));
    }
    struct rd_rclaim_study *st;
    if (!ALLOC_ARRAY(r, st, count(r, summary)))
        return RD_ERR_NOMEM;
    r->claim_studies = st;
    cJSON_ArrayForEach(j, summary)
        st[r->nclaim_studies++] = (struct rd_rclaim_study){
            .study = str(r, j, RD_AK_STUDY), .title = str(r, j, RD_AK_TITLE),
            .claims = num(j, RD_AK_CLAIMS), .consistent = num(j, RD_AK_CONSISTENT),
            .contradicted = num(j, RD_AK_CONTRADICTED),
            .inconclusive = num(j, RD_AK_INCONCLUSIVE),
            .not_evaluated = num(j, RD_AK_NOT_EVALUATED),
        };
    return RD_OK;
}

/* ---- machines[]: workloads measured on several machines ---- */

/* One entry of machines[] (or machine_claims[], same shape) into *m. */
static rd_status read_machine_entry(struct rd_report *r, const cJSON *j, struct rd_rmachines *m)
{
    *m = (struct rd_rmachines){
        .workload = str(r, j, RD_AK_WORKLOAD), .metric = str(r, j, RD_AK_METRIC),
        .better = str(r, j, RD_AK_BETTER), .reference = str(r, j, RD_AK_REFERENCE),
    };
    RD_TRY(read_strings(r, member(j, RD_AK_MACHINE_IDS, true), &m->machine_ids,
                        &m->nmachine_ids));
    const cJSON *cmps = member(j, RD_AK_COMPARISONS, true), *cj;
    struct rd_rmachine_cmp *cs;
    if (!ALLOC_ARRAY(r, cs, count(r, cmps)))
        return RD_ERR_NOMEM;
    m->cmps = cs;
    cJSON_ArrayForEach(cj, cmps) {
        struct rd_rmachine_cmp *c = &cs[m->ncmps++];
        *c = (struct rd_rmachine_cmp){
            .config = str(r, cj, RD_AK_CONFIG), .text = str(r, cj, RD_AK_TEXT),
            .k = num(cj, RD_AK_K), .ratio = num(cj, RD_AK_RATIO),
            .ratio_ci_low = num(cj, RD_AK_RATIO_CI_LOW),
            .ratio_ci_high = num(cj, RD_AK_RATIO_CI_HIGH), .q = num(cj, RD_AK_Q),
            .p = num(cj, RD_AK_P),
            .consistent = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cj, RD_AK_CONSISTENT)),
        };
        const cJSON *per = member(cj, RD_AK_PER_MACHINE, true), *pj;
        struct rd_rmachine_ratio *ps;
        if (!ALLOC_ARRAY(r, ps, count(r, per)))
            return RD_ERR_NOMEM;
        c->per = ps;
        cJSON_ArrayForEach(pj, per)
            ps[c->nper++] = (struct rd_rmachine_ratio){
                .machine = str(r, pj, RD_AK_MACHINE), .workload = str(r, pj, RD_AK_WORKLOAD),
                .ratio = num(pj, RD_AK_RATIO), .ratio_ci_low = num(pj, RD_AK_RATIO_CI_LOW),
                .ratio_ci_high = num(pj, RD_AK_RATIO_CI_HIGH), .n = num(pj, RD_AK_N),
                .n_reference = num(pj, RD_AK_N_REFERENCE),
            };
    }
    return RD_OK;
}

/* machines[], then machine_claims[]: a published study's ratio claim
 * across machines is shown as one more workload of the section, named
 * "WORKLOAD, claim N of STUDY" (its reference the claim's b). */
static rd_status read_machines(struct rd_report *r, const cJSON *arr, const cJSON *claims)
{
    struct rd_rmachines *out;
    if (!ALLOC_ARRAY(r, out, count(r, arr) +
                                 count(r, claims)))
        return RD_ERR_NOMEM;
    r->machines = out;
    const cJSON *j;
    cJSON_ArrayForEach(j, arr)
        RD_TRY(read_machine_entry(r, j, &out[r->nmachines++]));
    cJSON_ArrayForEach(j, claims) {
        struct rd_rmachines *m = &out[r->nmachines++];
        RD_TRY(read_machine_entry(r, j, m));
        const cJSON *cl = member(j, RD_AK_CLAIM, false);
        const char *study = str(r, cl, RD_AK_STUDY);
        if (!study)
            study = str(r, cl, RD_AK_FILE);
        struct rd_buf b = RD_BUF_INIT;
        rd_status st = rd_buf_addf(&b, "%s, claim %.0f of %s", m->workload ? m->workload : "",
                                   num(cl, RD_AK_INDEX), study ? study : "a study");
        if (!st && !(m->workload = rd_arena_strndup(&r->arena, b.ptr, b.len)))
            st = RD_ERR_NOMEM;
        rd_buf_release(&b);
        RD_TRY(st);
    }
    return RD_OK;
}

/* ---- raw_runs and check_errors: what analyze embedded for render ---- */

static rd_status read_check_errors(struct rd_report *r, const cJSON *arr)
{
    struct rd_rcheck_error *out;
    if (!ALLOC_ARRAY(r, out, count(r, arr)))
        return RD_ERR_NOMEM;
    r->check_errors = out;
    const cJSON *j;
    cJSON_ArrayForEach(j, arr) {
        struct rd_rcheck_error *x = &out[r->ncheck_errors];
        *x = (struct rd_rcheck_error){ .workload = str(r, j, RD_AK_WORKLOAD),
                                       .metric = str(r, j, RD_AK_METRIC),
                                       .error = str(r, j, RD_AK_ERROR) };
        RD_TRY(read_labels(r, member(j, RD_AK_CONFIG, false), &x->labels, &x->nlabels));
        if (x->workload && x->metric && x->error)
            r->ncheck_errors++;
    }
    return RD_OK;
}

/* The store reader accepts only the three statuses of rundown.run/1. */
static enum rd_run_status run_status(const char *s)
{
    if (s && strcmp(s, "failed") == 0)
        return RD_RUN_FAILED;
    if (s && strcmp(s, "timeout") == 0)
        return RD_RUN_TIMEOUT;
    return RD_RUN_OK;
}

/* raw_runs.items: each run's store and its record as compact JSON text
 * (what the runs sheet reads, one at a time, in rd_report_for_each_run). */
static rd_status read_raw_runs(struct rd_report *r, const cJSON *items)
{
    struct rd_rraw *out;
    if (!ALLOC_ARRAY(r, out, count(r, items)))
        return RD_ERR_NOMEM;
    r->raw_items = out;
    const cJSON *it;
    struct rd_json_each each;
    EACH(r, each, it, items) {
        const cJSON *store = cJSON_GetObjectItemCaseSensitive(it, RD_AK_STORE);
        const cJSON *rec = cJSON_GetObjectItemCaseSensitive(it, RD_AK_RECORD);
        if (!cJSON_IsString(store) || !cJSON_IsObject(rec))
            continue;
        char *text = cJSON_PrintUnformatted(rec);
        const char *copy = keep(r, text);
        cJSON_free(text);
        if (!copy)
            return RD_ERR_NOMEM;
        out[r->nraw_items++] = (struct rd_rraw){ keep(r, store->valuestring), copy };
    }
    return rd_json_each_end(r->lazy, &each);
}

size_t rd_report_for_each_run(const struct rd_report *r,
                              void (*fn)(const struct rd_rrun *run, void *arg), void *arg)
{
    size_t n = 0;
    struct rd_arena arena;
    rd_arena_init(&arena);
    for (size_t i = 0; i < r->nraw_items; i++) {
        /* Through the store's own parser, so a run reads as it did from
         * the store: a malformed one is skipped (analyze wrote it). */
        const char *text = r->raw_items[i].record;
        struct rd_record run_rec;
        struct rd_diag d;
        rd_diag_init(&d, r->path);
        rd_arena_reset(&arena);
        if (rd_record_from_json(&run_rec, &arena, text, strlen(text), &d) == RD_OK) {
            struct rd_rrun run = { r->raw_items[i].store, &run_rec, run_status(run_rec.status) };
            fn(&run, arg);
            n++;
        }
    }
    rd_arena_release(&arena);
    return n;
}

/* ---- the document ---- */

static rd_status read_document(struct rd_report *r, const cJSON *root, struct rd_diag *d)
{
    if (!cJSON_IsObject(root))
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0, "expected a JSON object");
    const char *schema = str(r, root, RD_AK_SCHEMA);
    if (!schema || strcmp(schema, RD_ANALYSIS_SCHEMA) != 0) {
        char got[80];
        rd_excerpt(schema ? schema : "", schema ? strlen(schema) : 0, 60, got, sizeof got);
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                           "expected schema '" RD_ANALYSIS_SCHEMA "', got '%s'", got);
    }
    const cJSON *envs = member(root, RD_AK_ENVIRONMENTS, true);
    RD_TRY(read_settings(r, member(root, RD_AK_SETTINGS, false)));
    RD_TRY(read_environments(r, envs));
    RD_TRY(read_replication(r, member(root, RD_AK_REPLICATION, true)));
    RD_TRY(read_claims(r, member(root, RD_AK_REPLICATION_CLAIMS, true),
                       member(root, RD_AK_REPLICATION_SUMMARY, true)));
    RD_TRY(read_machines(r, member(root, RD_AK_MACHINES, true),
                          member(root, RD_AK_MACHINE_CLAIMS, true)));
    RD_TRY(read_strings(r, member(root, RD_AK_INPUTS, true), &r->inputs, &r->ninputs));
    RD_TRY(read_check_errors(r, member(root, RD_AK_CHECK_ERRORS, true)));
    const cJSON *raw = member(root, RD_AK_RAW_RUNS, false);
    RD_TRY(read_raw_runs(r, member(raw, RD_AK_ITEMS, true)));
    r->raw_total = num(raw, RD_AK_TOTAL);
    r->raw_embedded = num(raw, RD_AK_EMBEDDED);
    r->title = str(r, root, RD_AK_TITLE);
    if (!r->title || !*r->title)
        r->title = "Benchmark report";
    r->date = str(r, root, FIXTURE_DATE);
    /* Else the day the runs were taken, which is in the analysis too. */
    if (!r->date)
        r->date = str(r, cJSON_GetArrayItem(envs, 0), "captured_at");

    const cJSON *wls = cJSON_GetObjectItemCaseSensitive(root, RD_AK_WORKLOADS);
    if (!cJSON_IsArray(wls))
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0, "expected 'workloads' to be an array");
    if (!ALLOC_ARRAY(r, r->workloads, count(r, wls)))
        return RD_ERR_NOMEM;
    struct rd_strmap seen;
    rd_strmap_init(&seen);
    rd_status st = RD_OK;
    const cJSON *j;
    struct rd_json_each it;
    EACH(r, it, j, wls) {
        st = read_workload(r, j, r->nworkloads, &r->workloads[r->nworkloads], &seen, d);
        if (st != RD_OK)
            break;
        r->nworkloads++;
    }
    rd_strmap_release(&seen);
    RD_TRY(st);
    RD_TRY(rd_json_each_end(r->lazy, &it));
    return r->oom ? RD_ERR_NOMEM : RD_OK;
}

/* cJSON copies bytes inside strings as they are, so without this check a
 * stray 0xff reaches report.md, the HTML and the workbook (which Excel then
 * refuses to open). JSON escapes need no check: cJSON rejects lone
 * surrogates. */
static rd_status check_utf8(const char *text, size_t len, const char *path,
                            struct rd_diag *d)
{
    size_t bad = rd_utf8_invalid_at(text, len);
    if (bad < len)
        return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                           "expected UTF-8 text, got byte 0x%02x", (unsigned char)text[bad]);
    return RD_OK;
}

/* The arrays that may be read an element at a time: those that grow with
 * the configs (and the embedded runs). */
static const char *const deferred_keys[] = {
    RD_AK_WORKLOADS, RD_AK_CONFIGS, RD_AK_PAIRS, RD_AK_VERDICTS, RD_AK_ITEMS,
};

/* Arrays from this size on are read an element at a time: a small
 * analysis is parsed whole, as before. RUNDOWN_RENDER_DEFER_BYTES sets
 * it (the tests read every golden with 0: everything cut out). */
static size_t defer_bytes(void)
{
    const char *e = getenv("RUNDOWN_RENDER_DEFER_BYTES");
    char *end;
    unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
    return e && *e && !*end ? (size_t)v : (size_t)1 << 20;
}

/* Reads the document with the arrays of deferred_keys parsed an element
 * at a time when they are at least 'min_span' bytes. */
static rd_status read_lazily(struct rd_report *r, const char *text, size_t len,
                             const char *shown, size_t min_span, struct rd_diag *d)
{
    struct rd_json_lazy lz;
    cJSON *root = NULL;
    rd_json_lazy_init(&lz, text, len, deferred_keys, sizeof deferred_keys / sizeof *deferred_keys,
                      min_span);
    r->lazy = &lz;
    rd_status st = rd_json_lazy_root(&lz, &root);
    if (st == RD_OK)
        st = read_document(r, root, d);
    if (st == RD_OK)
        st = rd_json_lazy_finish(&lz);
    /* A failure is the whole parse's when the text is not JSON (which may
     * be after the part that failed): the same message as before. That
     * parse costs the memory the parts save, but only on the way out. */
    if (st == RD_ERR_PARSE) {
        rd_json_lazy_release(&lz);
        struct rd_diag whole;
        struct rd_arena tree;
        rd_diag_init(&whole, shown);
        rd_arena_init(&tree);
        rd_status wst = rd_json_parse_arena(text, len, shown, 1, &tree, &root, &whole);
        rd_arena_release(&tree);
        if (wst != RD_OK) {
            st = wst;
            if (d)
                *d = whole;
        } else if (lz.json_error) {     /* the scan and cJSON disagree: never seen */
            st = rd_diag_set(d, RD_ERR_PARSE, shown, 0, 0, "expected JSON");
        }
    }
    rd_json_lazy_release(&lz);
    r->lazy = NULL;
    return st;
}

/* The UTF-8 check of a big analysis, on a thread of its own while the
 * text is read (utf8_check_start). */
struct utf8_check {
    const char *text;
    size_t len, bad;        /* bad: the first byte that is not UTF-8, or len */
    pthread_t thread;
    bool started;
};

static void *utf8_check_run(void *arg)
{
    struct utf8_check *c = arg;
    c->bad = rd_utf8_invalid_at(c->text, c->len);
    return NULL;
}

/* At 10^5 configs the check is a pass over 470 MB that also maps its
 * pages in, a tenth of the reading: beside it, on the second core. When
 * no thread can be started it runs here, first. */
static void utf8_check_start(struct utf8_check *c, const char *text, size_t len)
{
    *c = (struct utf8_check){ .text = text, .len = len, .bad = len };
    c->started = pthread_create(&c->thread, NULL, utf8_check_run, c) == 0;
    if (!c->started)
        utf8_check_run(c);
}

/* True when the text is UTF-8 throughout. */
static bool utf8_check_finish(struct utf8_check *c)
{
    if (c->started)
        pthread_join(c->thread, NULL);
    c->started = false;
    return c->bad >= c->len;
}

static void report_init(struct rd_report *r, const char *path)
{
    memset(r, 0, sizeof *r);
    rd_arena_init(&r->arena);
    r->path = path;
    r->total_runs = -1;
}

rd_status rd_report_parse(struct rd_report *r, const char *text, size_t len,
                          const char *shown, const char *path, struct rd_diag *d)
{
    report_init(r, path);
    /* JSON first: for a file that is not JSON at all, "expected JSON at
     * 1:1" says more than the first odd byte. Everything the model keeps
     * is copied into the report's arena; the parsed trees are freed once
     * read (a big array's elements one by one as they are read). */
    size_t min_span = defer_bytes();
    struct rd_json_lazy whole;    /* cuts nothing: its walks are cJSON's */
    struct rd_arena tree;
    cJSON *root = NULL;
    rd_json_lazy_init(&whole, text, len, NULL, 0, (size_t)-1);
    rd_arena_init(&tree);
    rd_status st = RD_OK;
    /* A text with a byte that is not UTF-8 is refused; which message it
     * gets (its JSON's or the byte's) is the whole parse's. A big text is
     * read lazily while it is checked; when the check fails, what was
     * read goes and the whole parse below says why, as it did when the
     * check came first. */
    bool lazily = false;
    if (len > min_span) {
        struct utf8_check check;
        utf8_check_start(&check, text, len);
        st = read_lazily(r, text, len, shown, min_span, d);
        lazily = utf8_check_finish(&check);
        if (!lazily) {
            rd_report_release(r);
            report_init(r, path);
            st = RD_OK;
        }
    }
    if (!lazily) {
        st = rd_json_parse_arena(text, len, shown, 1, &tree, &root, d);
        if (st == RD_OK)
            st = check_utf8(text, len, shown, d);
        r->lazy = &whole;
        if (st == RD_OK)
            st = read_document(r, root, d);
        r->lazy = NULL;
    }
    rd_json_lazy_release(&whole);
    rd_arena_release(&tree);
    if (st == RD_OK)
        st = rd_report_derive(r);
    return st;
}

rd_status rd_report_load(struct rd_report *r, const char *path, size_t max_input,
                         struct rd_diag *d)
{
    struct rd_input text;
    const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
    memset(r, 0, sizeof *r);
    rd_arena_init(&r->arena);
    /* A named file's size is checked before reading; standard input is
     * also stopped at its first NUL byte, so `< /dev/zero` ends at once.
     * A file with a NUL gets the JSON parser's message, which says more. */
    const struct rd_read_limits lim = {
        max_input, RD_READ_REGULAR | (strcmp(path, "-") == 0 ? RD_READ_TEXT : 0),
        "--max-input SIZE"
    };
    /* Mapped, not read: the text is read once, front to back. */
    rd_status st = rd_map_input(path, &lim, &text, d);
    if (st == RD_OK)
        st = rd_report_parse(r, text.ptr, text.len, shown, path, d);
    rd_input_release(&text);
    return st;
}

void rd_report_release(struct rd_report *r)
{
    for (size_t i = 0; i < r->nworkloads; i++) {
        rd_strmap_release(&r->workloads[i].config_ids);
        rd_strmap_release(&r->workloads[i].pair_index);
        if (r->workloads[i].matrix)
            rd_matrix_release(r->workloads[i].matrix);
    }
    rd_arena_release(&r->arena);
    memset(r, 0, sizeof *r);
}

bool rd_report_claims_paired(const struct rd_report *r)
{
    for (size_t i = 0; i < r->nclaims; i++) {
        if (r->claims[i].paired)
            return true;
        for (size_t j = 0; j < r->claims[i].npairs; j++)
            if (r->claims[i].pairs[j].paired)
                return true;
    }
    return false;
}
