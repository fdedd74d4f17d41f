/*
 * comparestores.c - old runs against new runs: the comparisons and their
 * verdicts (see comparestores.h; the forms are in compareformat.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "comparestores.h"
#include "rundown/array.h"
#include "rundown/metrics.h"
#include "moments.h"
#include "stats.h"
#include "verdict.h"

const char *rd_change_name(enum rd_change c)
{
    switch (c) {
    case RD_CHANGE_FASTER: return "faster";
    case RD_CHANGE_SLOWER: return "slower";
    case RD_CHANGE_EQUIVALENT: return "equivalent";
    case RD_CHANGE_INCONCLUSIVE: return "inconclusive";
    case RD_CHANGE_NONE: break;
    }
    return "—";
}

void rd_compare_settings_init(struct rd_compare_settings *s)
{
    s->alpha = 0.05;
    s->margin = 0.05;
    s->fail_if_slower = NAN;
    s->fail_if_inconclusive = false;
    s->want_p = true;
}

static bool side_usable(const struct rd_compare_side *x)
{
    return x->n >= 2 && isfinite(x->mean) && isfinite(x->sd) && x->mean > 0;
}

static bool row_usable(const struct rd_compare_row *r)
{
    return side_usable(&r->old) && side_usable(&r->new_);
}

/* One comparison at the family's per-comparison level. The verdict
 * machinery compares a config with the better of the two, so its ratio
 * is new / old when old is the better and old / new otherwise; its
 * intervals are on the log scale, so the interval of new / old is then
 * the reciprocal one, ends swapped. */
static void flip(double *lo, double *hi)
{
    double l = *lo;
    *lo = 1 / *hi;
    *hi = 1 / l;
}

static rd_status decide_one(struct rd_compare_row *r, double alpha_each, size_t m,
                            const struct rd_compare_settings *s)
{
    struct rd_verdict_sample x[2] = {
        {r->old.n, r->old.mean, r->old.sd, true, 0, r->old.log_sd},
        {r->new_.n, r->new_.mean, r->new_.sd, true, 0, r->new_.log_sd},
    };
    struct rd_verdict_settings vs;
    rd_verdict_settings_init(&vs);
    vs.alpha = alpha_each;
    vs.margin = s->margin;
    vs.higher_is_better = r->higher_is_better;
    struct rd_verdict_row vr[2];
    struct rd_verdict_result res;
    RD_TRY(rd_verdict_decide(x, 2, &vs, vr, &res));
    size_t other = res.best == 0 ? 1 : 0;
    const struct rd_verdict_row *o = &vr[other];
    r->exact = o->exact;
    r->ratio = o->ratio;
    r->ratio_ci_low = o->ratio_ci_low;
    r->ratio_ci_high = o->ratio_ci_high;
    if (other == 0) {
        r->ratio = 1 / o->ratio;
        flip(&r->ratio_ci_low, &r->ratio_ci_high);
    }
    double lo = r->ratio_ci_low, hi = r->ratio_ci_high;
    bool worse = r->higher_is_better ? r->ratio < 1 : r->ratio > 1;
    /* The verdict's own reading: equivalence by two one-sided tests on
     * its 1 - 2 alpha interval, a change when its 1 - alpha one excludes 1. */
    if (o->verdict == RD_VERDICT_EQUIVALENT)
        r->change = RD_CHANGE_EQUIVALENT;
    else if (o->verdict == RD_VERDICT_WORSE)
        r->change = worse ? RD_CHANGE_SLOWER : RD_CHANGE_FASTER;
    else
        r->change = RD_CHANGE_INCONCLUSIVE;
    r->runs_needed = r->change == RD_CHANGE_INCONCLUSIVE ? o->runs_needed : 0;
    r->p_adjusted = NAN;
    if (s->want_p && !r->exact)
        r->p_adjusted = fmin(1, (double)m * rd_verdict_p_adjusted(o, &res));
    /* NaN bounds (an unbounded interval) never pass the comparisons. */
    if (!isnan(s->fail_if_slower))
        r->regression = r->higher_is_better ? hi < 1 - s->fail_if_slower
                                            : lo > 1 + s->fail_if_slower;
    return RD_OK;
}

rd_status rd_compare_decide(struct rd_compare_row *rows, size_t n,
                            const struct rd_compare_settings *s, size_t *family,
                            size_t *regressions)
{
    size_t m = 0, flagged = 0;
    for (size_t i = 0; i < n; i++)
        m += row_usable(&rows[i]);
    for (size_t i = 0; i < n; i++) {
        struct rd_compare_row *r = &rows[i];
        r->change = RD_CHANGE_NONE;
        r->ratio = r->ratio_ci_low = r->ratio_ci_high = r->p_adjusted = NAN;
        r->exact = r->regression = false;
        r->runs_needed = 0;
        if (!row_usable(r))
            continue;
        RD_TRY(decide_one(r, s->alpha / (double)m, m, s));
        flagged += r->regression;
    }
    *family = m;
    *regressions = flagged;
    return RD_OK;
}

/* ---- the comparisons of two or more sets of runs ---- */

/* A line of the table before its numbers: the config on each side
 * (side[0..nsides), NULL where absent) and the analysis it comes from. */
struct pending {
    const char *workload, *config;
    const struct cfg **side;
    const struct rd_analysis **from;
};

struct builder {
    struct rd_comparison *c;
    struct pending *p;
    size_t np, cap;
    struct rd_strmap index; /* "workload\x1fconfig" -> index into p */
    struct rd_buf key;
};

/* The config's id without label 'drop' ("" when nothing is left); a
 * string of the comparison's arena. */
static const char *id_without(struct rd_comparison *c, const struct cfg *cfg, const char *drop)
{
    struct rd_buf b = RD_BUF_INIT;
    rd_status s = RD_OK;
    for (size_t i = 0; i < cfg->nlabels && !s; i++) {
        if (strcmp(cfg->labels[i].key, drop) == 0)
            continue;
        if (b.len)
            s = rd_buf_addch(&b, ',');
        if (!s)
            s = rd_buf_addf(&b, "%s=%s", cfg->labels[i].key, cfg->labels[i].value);
    }
    const char *out = s ? NULL : rd_arena_strndup(&c->names, b.len ? b.ptr : "", b.len);
    rd_buf_release(&b);
    return out;
}

static const char *label_of(const struct cfg *cfg, const char *key)
{
    for (size_t i = 0; i < cfg->nlabels; i++)
        if (strcmp(cfg->labels[i].key, key) == 0)
            return cfg->labels[i].value;
    return NULL;
}

static rd_status add_side(struct builder *b, const struct rd_analysis *a, const struct cfg *cfg,
                          const char *config, size_t side)
{
    struct rd_comparison *c = b->c;
    rd_buf_reset(&b->key);
    RD_TRY(rd_buf_addf(&b->key, "%s\x1f%s", cfg->workload, config));
    int64_t *slot;
    int added;
    RD_TRY(rd_strmap_slotn(&b->index, b->key.ptr, b->key.len, (int64_t)b->np, &slot, &added));
    size_t at = (size_t)*slot;
    if (added) {
        RD_TRY(RD_ARRAY_GROW(b->p, b->cap, b->np + 1));
        struct pending *p = &b->p[b->np++];
        *p = (struct pending){ .workload = cfg->workload, .config = config };
        p->side = rd_arena_alloc(&c->names, c->nsides * sizeof *p->side);
        p->from = rd_arena_alloc(&c->names, c->nsides * sizeof *p->from);
        if (!p->side || !p->from)
            return RD_ERR_NOMEM;
        for (size_t k = 0; k < c->nsides; k++) {
            p->side[k] = NULL;
            p->from[k] = NULL;
        }
    }
    b->p[at].side[side] = cfg;
    b->p[at].from[side] = a;
    return RD_OK;
}

/* Which of the --compare-by values v is; -1: none. */
static long value_index(const struct rd_compare_input *in, const char *v)
{
    for (size_t k = 0; v && k < in->nvalues; k++)
        if (strcmp(v, in->by_values[k]) == 0)
            return (long)k;
    return -1;
}

static rd_status collect(struct builder *b, const struct rd_compare_input *in)
{
    struct rd_comparison *c = b->c;
    for (size_t side = 0; side < c->nan; side++) {
        const struct rd_analysis *a = c->an[side];
        for (size_t i = 0; i < a->ncfgs; i++) {
            const struct cfg *cfg = &a->cfgs[i];
            if (!in->by_key) {
                RD_TRY(add_side(b, a, cfg, cfg->id, side));
                continue;
            }
            long which = value_index(in, label_of(cfg, in->by_key));
            if (which < 0)
                continue;
            const char *rest = id_without(c, cfg, in->by_key);
            if (!rest)
                return RD_ERR_NOMEM;
            RD_TRY(add_side(b, a, cfg, rest, (size_t)which));
        }
    }
    return RD_OK;
}

static int cmp_pending(const void *u, const void *v)
{
    const struct pending *a = u, *b = v;
    int w = strcmp(a->workload, b->workload);
    return w ? w : strcmp(a->config, b->config);
}

static const struct series *series_named(const struct rd_analysis *a, const struct cfg *c,
                                         const char *metric)
{
    int64_t id = a && c ? rd_analysis_metric_id(a, metric) : -1;
    return id < 0 ? NULL : rd_cfg_find_series(c, (uint32_t)id);
}

static bool group_has(const struct pending *p, size_t n, size_t nsides, const char *metric)
{
    for (size_t i = 0; metric && i < n; i++)
        for (size_t s = 0; s < nsides; s++)
            if (series_named(p[i].from[s], p[i].side[s], metric))
                return true;
    return false;
}

static const struct wl *workload_of(const struct pending *p, size_t nsides)
{
    for (size_t s = 0; s < nsides; s++) {
        const struct rd_analysis *a = p->from[s];
        const int64_t *at = a ? rd_strmap_find(&a->wl_map, p->workload) : NULL;
        if (at)
            return &a->wls[*at];
    }
    return NULL;
}

/* The workload's primary metric, by the analysis's rule (workload.c):
 * its info.primary_metric, --metric, rps, wall_ms, its first metric. */
static const char *pick_metric(const struct pending *p, size_t n, size_t nsides,
                               const char *opt_metric)
{
    const struct wl *w = workload_of(p, nsides);
    const char *first = NULL;
    for (size_t s = 0; s < nsides && !first; s++) {
        const struct rd_analysis *a = p->from[s];
        const int64_t *at = a ? rd_strmap_find(&a->wl_map, p->workload) : NULL;
        if (at && a->wls[*at].first_metric >= 0)
            first = a->metrics[a->wls[*at].first_metric];
    }
    const char *cand[] = { w ? w->primary : NULL, opt_metric, "rps", "wall_ms", first };
    for (size_t i = 0; i < sizeof cand / sizeof *cand; i++)
        if (group_has(p, n, nsides, cand[i]))
            return cand[i];
    return NULL;
}

/* The side's mean, sd, and the half-width of the mean's t interval at
 * 'confidence': t_{(1 + confidence) / 2, n - 1} sd / sqrt(n). */
static struct rd_compare_side side_of(const struct series *s, double confidence)
{
    if (!s || s->len == 0)
        return (struct rd_compare_side){ 0, NAN, NAN, NAN, 0 };
    double n = (double)s->len, sd = rd_stats_sd(s->v, s->len);
    double hw = s->len >= 2 ? rd_stats_t_quantile((1 + confidence) / 2, n - 1) * sd / sqrt(n)
                            : NAN;
    return (struct rd_compare_side){ n, rd_stats_mean(s->v, s->len), sd, hw,
                                     rd_log_sd(s->v, s->len) };
}

static rd_status fill_rows(struct rd_comparison *c, struct pending *p, size_t np,
                           const char *opt_metric)
{
    size_t per = c->nsides - 1;
    c->rows = calloc(np ? np * per : 1, sizeof *c->rows);
    if (!c->rows)
        return RD_ERR_NOMEM;
    for (size_t g = 0; g < np;) {
        size_t end = g;
        while (end < np && strcmp(p[end].workload, p[g].workload) == 0)
            end++;
        const char *metric = pick_metric(&p[g], end - g, c->nsides, opt_metric);
        const struct wl *w = workload_of(&p[g], c->nsides);
        int better = w && w->better ? rd_better_parse(w->better) : -1;
        if (better < 0 && metric) {
            struct rd_metric_def def;
            rd_metric_describe(metric, &def);
            better = (int)def.better;
        }
        for (size_t i = g; i < end; i++) {
            struct rd_compare_side base = side_of(
                metric ? series_named(p[i].from[0], p[i].side[0], metric) : NULL, c->confidence);
            for (size_t k = 1; k < c->nsides; k++) {
                struct rd_compare_row *r = &c->rows[c->nrows++];
                r->workload = p[i].workload;
                r->config = p[i].config;
                r->metric = metric;
                r->higher_is_better = better == RD_BETTER_HIGHER;
                r->side = k;
                r->old = base;
                r->new_ = side_of(metric ? series_named(p[i].from[k], p[i].side[k], metric)
                                         : NULL, c->confidence);
            }
        }
        g = end;
    }
    return RD_OK;
}

static rd_status read_side(struct rd_analysis **out, const struct rd_analyze_opts *o,
                           const struct rd_compare_group *g, struct rd_diag *d)
{
    RD_TRY(rd_analysis_new(o, out));
    for (size_t i = 0; i < g->nstores; i++)
        RD_TRY(rd_analysis_add_store(*out, g->stores[i], d));
    return RD_OK;
}

static rd_status build_rows(struct rd_comparison *c, const struct rd_compare_input *in,
                            const char *opt_metric)
{
    struct builder b = { .c = c };
    rd_strmap_init(&b.index);
    b.key = (struct rd_buf)RD_BUF_INIT;
    rd_status st = collect(&b, in);
    if (!st && b.np > 1)
        qsort(b.p, b.np, sizeof *b.p, cmp_pending);
    if (!st)
        st = fill_rows(c, b.p, b.np, opt_metric);
    free(b.p);
    rd_strmap_release(&b.index);
    rd_buf_release(&b.key);
    return st;
}

rd_status rd_comparison_build(struct rd_comparison *c, const struct rd_analyze_opts *o,
                              const struct rd_compare_input *in,
                              const struct rd_compare_settings *s, struct rd_diag *d)
{
    memset(c, 0, sizeof *c);
    c->s = *s;
    c->confidence = o->confidence;
    rd_arena_init(&c->names);
    c->nsides = in->by_key ? in->nvalues : in->ngroups;
    c->nan = in->by_key ? 1 : in->ngroups;
    if (c->nsides < 2 || c->nan < 1)
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "expected two sides or more");
    c->side_names = calloc(c->nsides, sizeof *c->side_names);
    c->an = calloc(c->nan, sizeof *c->an);
    if (!c->side_names || !c->an)
        return RD_ERR_NOMEM;
    for (size_t k = 0; k < c->nsides; k++)
        c->side_names[k] = in->by_key ? in->by_values[k] : in->groups[k].name;
    for (size_t k = 0; k < c->nan; k++)
        RD_TRY(read_side(&c->an[k], o, &in->groups[k], d));
    RD_TRY(build_rows(c, in, o->metric));
    const char *first = in->groups[0].nstores ? in->groups[0].stores[0] : NULL;
    if (c->nrows == 0) {
        if (in->by_key)
            return rd_diag_set(d, RD_ERR_PARSE, first, 0, 0,
                               "no measured run has label %s with any of the values compared",
                               in->by_key);
        return rd_diag_set(d, RD_ERR_PARSE, first, 0, 0,
                           "no measured run to compare in any set of stores");
    }
    rd_status st = rd_compare_decide(c->rows, c->nrows, s, &c->family, &c->regressions);
    if (st)
        return rd_diag_set(d, st, NULL, 0, 0, "cannot compute the critical value");
    for (size_t i = 0; i < c->nrows; i++)
        c->inconclusive += c->rows[i].change == RD_CHANGE_INCONCLUSIVE;
    return RD_OK;
}

void rd_comparison_release(struct rd_comparison *c)
{
    free(c->rows);
    c->rows = NULL;
    for (size_t i = 0; c->an && i < c->nan; i++)
        if (c->an[i])
            rd_analysis_free(c->an[i]);
    free(c->an);
    free(c->side_names);
    c->an = NULL;
    c->side_names = NULL;
    c->nan = c->nsides = 0;
    rd_arena_release(&c->names);
}
