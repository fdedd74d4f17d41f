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
    return "~";
}

void rd_compare_settings_init(struct rd_compare_settings *s)
{
    s->alpha = 0.05;
    s->margin = 0.05;
    s->fail_if_slower = NAN;
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
        {r->old.n, r->old.mean, r->old.sd, true, 0},
        {r->new_.n, r->new_.mean, r->new_.sd, true, 0},
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
        if (!row_usable(r))
            continue;
        RD_TRY(decide_one(r, s->alpha / (double)m, m, s));
        flagged += r->regression;
    }
    *family = m;
    *regressions = flagged;
    return RD_OK;
}

/* ---- the comparisons of two sets of runs ---- */

/* A comparison before its numbers: the config of each side. */
struct pending {
    const char *workload, *config;
    const struct cfg *side[2];
    const struct rd_analysis *from[2];
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
                          const char *config, int side)
{
    rd_buf_reset(&b->key);
    RD_TRY(rd_buf_addf(&b->key, "%s\x1f%s", cfg->workload, config));
    int64_t *slot;
    int added;
    RD_TRY(rd_strmap_slotn(&b->index, b->key.ptr, b->key.len, (int64_t)b->np, &slot, &added));
    size_t at = (size_t)*slot;
    if (added) {
        RD_TRY(RD_ARRAY_GROW(b->p, b->cap, b->np + 1));
        b->p[b->np++] = (struct pending){ .workload = cfg->workload, .config = config };
    }
    b->p[at].side[side] = cfg;
    b->p[at].from[side] = a;
    return RD_OK;
}

static rd_status collect(struct builder *b, const struct rd_compare_input *in)
{
    struct rd_comparison *c = b->c;
    for (int side = 0; side < (in->by_key ? 1 : 2); side++) {
        const struct rd_analysis *a = c->an[side];
        for (size_t i = 0; i < a->ncfgs; i++) {
            const struct cfg *cfg = &a->cfgs[i];
            if (!in->by_key) {
                RD_TRY(add_side(b, a, cfg, cfg->id, side));
                continue;
            }
            const char *v = label_of(cfg, in->by_key);
            int which = !v ? -1 : strcmp(v, in->by_old) == 0 ? 0
                              : strcmp(v, in->by_new) == 0 ? 1 : -1;
            if (which < 0)
                continue;
            const char *rest = id_without(c, cfg, in->by_key);
            if (!rest)
                return RD_ERR_NOMEM;
            RD_TRY(add_side(b, a, cfg, rest, which));
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

static bool group_has(const struct pending *p, size_t n, const char *metric)
{
    for (size_t i = 0; metric && i < n; i++)
        for (int s = 0; s < 2; s++)
            if (series_named(p[i].from[s], p[i].side[s], metric))
                return true;
    return false;
}

static const struct wl *workload_of(const struct pending *p)
{
    for (int s = 0; s < 2; s++) {
        const struct rd_analysis *a = p->from[s];
        const int64_t *at = a ? rd_strmap_find(&a->wl_map, p->workload) : NULL;
        if (at)
            return &a->wls[*at];
    }
    return NULL;
}

/* The workload's primary metric, by the analysis's rule (workload.c):
 * its info.primary_metric, --metric, rps, wall_ms, its first metric. */
static const char *pick_metric(const struct pending *p, size_t n, const char *opt_metric)
{
    const struct wl *w = workload_of(p);
    const char *first = NULL;
    for (int s = 0; s < 2 && !first; s++) {
        const struct rd_analysis *a = p->from[s];
        const int64_t *at = a ? rd_strmap_find(&a->wl_map, p->workload) : NULL;
        if (at && a->wls[*at].first_metric >= 0)
            first = a->metrics[a->wls[*at].first_metric];
    }
    const char *cand[] = { w ? w->primary : NULL, opt_metric, "rps", "wall_ms", first };
    for (size_t i = 0; i < sizeof cand / sizeof *cand; i++)
        if (group_has(p, n, cand[i]))
            return cand[i];
    return NULL;
}

static struct rd_compare_side side_of(const struct series *s)
{
    if (!s || s->len == 0)
        return (struct rd_compare_side){ 0, NAN, NAN };
    return (struct rd_compare_side){ s->len, rd_stats_mean(s->v, s->len),
                                     rd_stats_sd(s->v, s->len) };
}

static rd_status fill_rows(struct rd_comparison *c, struct pending *p, size_t np,
                           const char *opt_metric)
{
    c->rows = calloc(np ? np : 1, sizeof *c->rows);
    if (!c->rows)
        return RD_ERR_NOMEM;
    for (size_t g = 0; g < np;) {
        size_t end = g;
        while (end < np && strcmp(p[end].workload, p[g].workload) == 0)
            end++;
        const char *metric = pick_metric(&p[g], end - g, opt_metric);
        const struct wl *w = workload_of(&p[g]);
        int better = w && w->better ? rd_better_parse(w->better) : -1;
        if (better < 0 && metric) {
            struct rd_metric_def def;
            rd_metric_describe(metric, &def);
            better = (int)def.better;
        }
        for (size_t i = g; i < end; i++) {
            struct rd_compare_row *r = &c->rows[c->nrows++];
            r->workload = p[i].workload;
            r->config = p[i].config;
            r->metric = metric;
            r->higher_is_better = better == RD_BETTER_HIGHER;
            r->old = side_of(metric ? series_named(p[i].from[0], p[i].side[0], metric) : NULL);
            r->new_ = side_of(metric ? series_named(p[i].from[1], p[i].side[1], metric) : NULL);
        }
        g = end;
    }
    return RD_OK;
}

static rd_status read_side(struct rd_analysis **out, const struct rd_analyze_opts *o,
                           const char *const *stores, size_t n, struct rd_diag *d)
{
    RD_TRY(rd_analysis_new(o, out));
    for (size_t i = 0; i < n; i++)
        RD_TRY(rd_analysis_add_store(*out, stores[i], d));
    return RD_OK;
}

rd_status rd_comparison_build(struct rd_comparison *c, const struct rd_analyze_opts *o,
                              const struct rd_compare_input *in,
                              const struct rd_compare_settings *s, struct rd_diag *d)
{
    memset(c, 0, sizeof *c);
    c->s = *s;
    rd_arena_init(&c->names);
    c->old_name = in->by_key ? in->by_old : "old";
    c->new_name = in->by_key ? in->by_new : "new";
    RD_TRY(read_side(&c->an[0], o, in->old_stores, in->nold, d));
    if (in->by_key)
        c->an[1] = c->an[0]; /* both sides come from one analysis */
    else
        RD_TRY(read_side(&c->an[1], o, in->new_stores, in->nnew, d));

    struct builder b = { .c = c };
    rd_strmap_init(&b.index);
    b.key = (struct rd_buf)RD_BUF_INIT;
    rd_status st = collect(&b, in);
    if (!st && b.np > 1)
        qsort(b.p, b.np, sizeof *b.p, cmp_pending);
    if (!st)
        st = fill_rows(c, b.p, b.np, o->metric);
    free(b.p);
    rd_strmap_release(&b.index);
    rd_buf_release(&b.key);
    if (c->an[1] == c->an[0])
        c->an[1] = NULL;
    RD_TRY(st);
    if (c->nrows == 0) {
        if (in->by_key)
            return rd_diag_set(d, RD_ERR_PARSE, in->old_stores[0], 0, 0,
                               "no measured run has label %s=%s or %s=%s", in->by_key,
                               in->by_old, in->by_key, in->by_new);
        return rd_diag_set(d, RD_ERR_PARSE, in->old_stores[0], 0, 0,
                           "no measured run to compare in either set of stores");
    }
    st = rd_compare_decide(c->rows, c->nrows, s, &c->family, &c->regressions);
    if (st)
        return rd_diag_set(d, st, NULL, 0, 0, "cannot compute the critical value");
    return RD_OK;
}

void rd_comparison_release(struct rd_comparison *c)
{
    free(c->rows);
    c->rows = NULL;
    for (int i = 0; i < 2; i++)
        if (c->an[i])
            rd_analysis_free(c->an[i]);
    c->an[0] = c->an[1] = NULL;
    rd_arena_release(&c->names);
}
