/*
 * workload.c - one workload made ready for its tests: its configs sorted
 * by id, the metrics its runs hold, the primary metric, and each config's
 * values of a metric in run order with their descriptive statistics.
 *
 * Everything is computed from the values in run order, so the same
 * stores give the same bytes. Anything a method cannot define for the
 * data (the sd of one run) is NaN here, written as null and explained by
 * a warning, never replaced by a number.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"
#include "cfghelp.h"
#include "compare.h"
#include "directions.h"
#include "halves.h"
#include "levels.h"
#include "looks.h"
#include "recommend.h"
#include "sessions.h"
#include "rundown/array.h"
#include "rundown/numfmt.h"

/* Largest n for the bootstrap CI of the median, when --bootstrap asks for
 * it (see rd_prep_series). */
#define BOOTSTRAP_MAX_N 50

static int cmp_cfg(const void *x, const void *y)
{
    const struct cfg *const *a = x, *const *b = y;
    return strcmp((*a)->id, (*b)->id);
}

struct ordpos {
    uint32_t ord, pos;
};

static int cmp_ordpos(const void *x, const void *y)
{
    const struct ordpos *a = x, *b = y;
    if (a->ord != b->ord)
        return a->ord < b->ord ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Copies s's values (of config c) into out in run order, stable for equal
 * run numbers; with run_of, each value's run (an index into c->runs). */
static rd_status ordered_values(const struct cfg *c, const struct series *s, double *out,
                                uint32_t *run_of)
{
    bool sorted = true;
    for (uint32_t i = 1; i < s->len && sorted; i++)
        sorted = c->runs[rd_series_run(s, i - 1)].order <= c->runs[rd_series_run(s, i)].order;
    if (sorted) {
        memcpy(out, s->v, s->len * sizeof *out);
        for (uint32_t i = 0; run_of && i < s->len; i++)
            run_of[i] = rd_series_run(s, i);
        return RD_OK;
    }
    struct ordpos *op = malloc(s->len * sizeof *op);
    if (!op)
        return RD_ERR_NOMEM;
    for (uint32_t i = 0; i < s->len; i++) {
        op[i].ord = c->runs[rd_series_run(s, i)].order;
        op[i].pos = i;
    }
    qsort(op, s->len, sizeof *op, cmp_ordpos);
    for (uint32_t i = 0; i < s->len; i++) {
        out[i] = s->v[op[i].pos];
        if (run_of)
            run_of[i] = rd_series_run(s, op[i].pos);
    }
    free(op);
    return RD_OK;
}

static rd_status need_scratch(struct wctx *x, size_t n)
{
    return RD_ARRAY_GROW(x->scratch, x->scratch_cap, n ? n : 1);
}

void rd_prep_release(struct prep *p)
{
    if (p->used != p->all)
        free(p->used);
    free(p->all);
    free(p->outl);
    free(p->sorted);
    free(p->run_of);
    memset(p, 0, sizeof *p);
}

rd_status rd_prep_series(struct wctx *x, const struct cfg *c, const struct series *s,
                         bool full, struct prep *p)
{
    memset(p, 0, sizeof *p);
    p->med_lo = p->med_hi = p->med_level = NAN;
    p->trend.s = p->trend.tau = p->trend.z = p->trend.p = NAN;
    p->tested = full;
    if (!s || s->len == 0) {
        rd_stats_summarize(NULL, 0, x->a->o.confidence, NULL, &p->sum);
        return RD_OK;
    }
    p->have = true;
    size_t n = s->len;
    p->all = malloc(n * sizeof *p->all);
    p->outl = malloc(n * sizeof *p->outl);
    if (full && !(p->run_of = malloc(n * sizeof *p->run_of)))
        return RD_ERR_NOMEM;
    if (!p->all || !p->outl || need_scratch(x, n))
        return RD_ERR_NOMEM;
    RD_TRY(ordered_values(c, s, p->all, p->run_of));
    p->n_all = n;
    /* Outliers are judged on every value, so the flags do not depend on
     * whether they are then excluded. */
    memcpy(x->scratch, p->all, n * sizeof *p->all);
    rd_stats_sort(x->scratch, n);
    double q1 = rd_stats_quantile_sorted(x->scratch, n, 0.25);
    double q3 = rd_stats_quantile_sorted(x->scratch, n, 0.75);
    p->noutl = rd_stats_tukey(p->all, n, q1, q3, p->outl);
    p->used = p->all;
    p->n_used = n;
    if (x->a->o.exclude_outliers && p->noutl > 0) {
        p->used = malloc(n * sizeof *p->used);
        if (!p->used)
            return RD_ERR_NOMEM;
        size_t k = 0, o = 0;
        for (size_t i = 0; i < n; i++) {
            if (o < p->noutl && p->outl[o] == i) {
                o++;
                continue;
            }
            p->used[k++] = p->all[i];
        }
        p->n_used = k;
    }
    /* Without exclusions the sorted copy above is the sorted sample: one
     * sort per series serves the summary, the tests and the median CI. */
    if (p->used == p->all)
        rd_stats_summarize_sorted(p->used, x->scratch, n, x->a->o.confidence, &p->sum);
    else
        rd_stats_summarize(p->used, p->n_used, x->a->o.confidence, x->scratch, &p->sum);
    if (full) {
        p->sorted = malloc(p->n_used * sizeof *p->sorted + 1);
        if (!p->sorted)
            return RD_ERR_NOMEM;
        memcpy(p->sorted, x->scratch, p->n_used * sizeof *p->sorted);
        /* The exact order-statistic interval is the default: deterministic,
         * O(log n), and its coverage is known. The bootstrap only runs when
         * asked for (--bootstrap B > 0), and only up to BOOTSTRAP_MAX_N
         * values, past which it would cost B x n draws for nothing. */
        if (x->a->o.bootstrap > 0 && p->n_used <= BOOTSTRAP_MAX_N) {
            p->med_method = "bootstrap";
            RD_TRY(rd_stats_bootstrap_median(p->used, p->n_used, x->a->o.bootstrap,
                                             x->a->o.seed, x->a->o.confidence, &p->med_lo,
                                             &p->med_hi));
        } else {
            p->med_method = "binomial";
            rd_stats_median_ci_binomial(p->sorted, p->n_used, x->a->o.confidence, &p->med_lo,
                                        &p->med_hi, &p->med_level);
        }
        RD_TRY(rd_stats_mann_kendall_sorted(p->used, p->sorted, p->n_used, &p->trend));
    }
    return RD_OK;
}

/* The tested metric *ctx's prepared series of configs lo..hi-1. */
static rd_status prep_range(struct wctx *x, void *ctx, size_t lo, size_t hi)
{
    size_t ti = *(const size_t *)ctx;
    for (size_t i = lo; i < hi; i++)
        RD_TRY(rd_prep_series(x, x->cs[i], rd_cfg_find_series(x->cs[i], x->tested[ti]), true,
                              &x->preps[ti * x->k + i]));
    return RD_OK;
}

void rd_wctx_release(struct wctx *x)
{
    if (x->preps)
        for (size_t i = 0; i < x->ntested * x->k; i++)
            rd_prep_release(&x->preps[i]);
    if (x->tests)
        for (size_t i = 0; i < x->ntested; i++)
            free(x->tests[i].pairs);
    free(x->preps);
    free(x->tests);
    free(x->cs);
    free(x->mets);
    free(x->tested);
    rd_reco_release(&x->rc, x->k);
    rd_sessions_release(&x->sess, x->k);
    free(x->warns);
    free(x->scratch);
    rd_arena_release(&x->tmp);
}

/* Adds metric id to the tested metrics unless absent or already there. */
static void add_tested(struct wctx *x, int64_t id)
{
    if (!rd_wctx_has_metric(x, id))
        return;
    for (size_t i = 0; i < x->ntested; i++)
        if (x->tested[i] == (uint32_t)id)
            return;
    x->tested[x->ntested++] = (uint32_t)id;
}

static int64_t pick_primary(const struct wctx *x)
{
    const struct rd_analysis *a = x->a;
    int64_t id = rd_analysis_metric_id(a, x->w->primary);
    if (rd_wctx_has_metric(x, id))
        return id;
    if (rd_wctx_has_metric(x, id = rd_analysis_metric_id(a, a->o.metric)))
        return id;
    if (rd_wctx_has_metric(x, id = rd_analysis_metric_id(a, "rps")))
        return id;
    if (rd_wctx_has_metric(x, id = rd_analysis_metric_id(a, "wall_ms")))
        return id;
    if (rd_wctx_has_metric(x, x->w->first_metric))
        return x->w->first_metric;
    return x->nmets ? (int64_t)x->mets[0] : -1;
}

rd_status rd_wctx_analyse(struct wctx *x, struct rd_analysis *a, const uint32_t *by_name,
                          struct wl *wl)
{
    memset(x, 0, sizeof *x);
    x->a = a;
    x->w = wl;
    rd_arena_init(&x->tmp);
    x->k = wl->ncfgs;
    x->cs = malloc((x->k ? x->k : 1) * sizeof *x->cs);
    x->mets = malloc((a->nmetrics ? a->nmetrics : 1) * sizeof *x->mets);
    if (!x->cs || !x->mets)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < x->k; i++)
        x->cs[i] = &a->cfgs[wl->cfgs[i]];
    if (x->k > 1)
        qsort(x->cs, x->k, sizeof *x->cs, cmp_cfg);
    /* Metrics present in any config of the workload, by name. */
    {
        unsigned char *seen = calloc(a->nmetrics ? a->nmetrics : 1, 1);
        if (!seen)
            return RD_ERR_NOMEM;
        for (size_t i = 0; i < x->k; i++)
            for (uint32_t j = 0; j < x->cs[i]->nseries; j++)
                seen[x->cs[i]->series[j].metric] = 1;
        for (size_t m = 0; m < a->nmetrics; m++)
            if (seen[by_name[m]])
                x->mets[x->nmets++] = by_name[m];
        free(seen);
    }
    int64_t prim = pick_primary(x);
    x->have_primary = prim >= 0;
    x->primary = prim >= 0 ? (uint32_t)prim : 0;
    x->better = RD_BETTER_NONE;
    if (prim >= 0) {
        int b = wl->better ? rd_better_parse(wl->better) : -1;
        x->better = b >= 0 ? (enum rd_better)b : rd_wctx_metric_better(x, x->primary);
    }
    /* tested[0] is always the primary metric. */
    x->tested = malloc((x->nmets ? x->nmets : 1) * sizeof *x->tested);
    if (!x->tested)
        return RD_ERR_NOMEM;
    if (prim >= 0) {
        x->tested[x->ntested++] = x->primary;
        /* Then the workload's other key metrics, in the order it names them
         * (each gets its own verdicts), then with --all-metrics the rest. */
        for (const char *p = wl->key_metrics; p && *p;) {
            size_t len = strcspn(p, ",");
            char name[256];
            if (len < sizeof name) {
                memcpy(name, p, len);
                name[len] = '\0';
                add_tested(x, rd_analysis_metric_id(a, name));
            }
            p += len + (p[len] == ',');
        }
        x->nkeys = x->ntested;
        if (a->o.all_metrics)
            for (size_t m = 0; m < x->nmets; m++)
                add_tested(x, (int64_t)x->mets[m]);
    }
    x->preps = calloc(x->ntested * x->k > 0 ? x->ntested * x->k : 1, sizeof *x->preps);
    x->tests = calloc(x->ntested ? x->ntested : 1, sizeof *x->tests);
    if (!x->preps || !x->tests)
        return RD_ERR_NOMEM;
    for (size_t ti = 0; ti < x->ntested; ti++)
        RD_TRY(rd_wctx_halves(x, x->k, 2 * a->o.config_chunk, prep_range, &ti));
    RD_TRY(rd_levels_apply(x));
    RD_TRY(rd_looks_find(x));
    for (size_t ti = 0; ti < x->ntested; ti++)
        RD_TRY(rd_compare_metric(x, ti));
    if (x->ntested)
        RD_TRY(rd_recommend(x, &x->rc));
    return RD_OK;
}

/* The workload settings a run record's info may carry, and where each
 * lands in struct wl. */
static const char **setting_field(struct wl *w, const char *key, size_t len)
{
    static const struct {
        const char *key;
        size_t offset;
    } fields[] = {
        {"primary_metric", offsetof(struct wl, primary)},
        {"primary_better", offsetof(struct wl, better)},
        {"tie_breaker", offsetof(struct wl, tie_breaker)},
        {"margin", offsetof(struct wl, margin)},
        {"key_metrics", offsetof(struct wl, key_metrics)},
        {"guards", offsetof(struct wl, guards)},
        {"max_error_rate", offsetof(struct wl, max_error_rate)},
        {"compare_within", offsetof(struct wl, compare_within)},
        {"blocks", offsetof(struct wl, blocks)},
        {"runs_max", offsetof(struct wl, runs_max)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strlen(fields[i].key) == len && memcmp(fields[i].key, key, len) == 0)
            return (const char **)((char *)w + fields[i].offset);
    return NULL;
}

rd_status rd_analysis_apply_settings(struct rd_analysis *a, struct rd_diag *d)
{
    for (size_t i = 0; i < a->o.nsettings; i++) {
        const char *s = a->o.settings[i];
        const char *eq = strchr(s, '=');
        /* The workload's name may hold dots: the key is after the last one
         * before '='. */
        const char *dot = NULL;
        for (const char *p = s; p < eq; p++)
            if (*p == '.')
                dot = p;
        if (!eq || !dot || dot == s)
            return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                               "--set: expected WORKLOAD.KEY=VALUE, got '%s'", s);
        char *name = rd_arena_strndup(&a->strings, s, (size_t)(dot - s));
        if (!name)
            return RD_ERR_NOMEM;
        /* A workload measured on several machines is one per machine
         * (NAME@ENV, base NAME): the setting holds for each of them. */
        size_t matched = 0;
        for (size_t wi = 0; wi < a->nwls; wi++) {
            struct wl *wl = &a->wls[wi];
            if (strcmp(wl->name, name) != 0 && !(wl->base && strcmp(wl->base, name) == 0))
                continue;
            const char **field = setting_field(wl, dot + 1, (size_t)(eq - dot - 1));
            if (!field)
                return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                                   "--set: unknown setting '%.*s' (expected margin, "
                                   "key_metrics, guards, max_error_rate, tie_breaker, "
                                   "primary_metric, primary_better, compare_within, blocks "
                                   "or runs_max)",
                                   (int)(eq - dot - 1), dot + 1);
            *field = eq + 1;
            if (field == &wl->compare_within)
                wl->within_path = NULL; /* the option's, for its messages */
            matched++;
        }
        if (!matched)
            return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                               "--set: no workload '%s' in the stores", name);
    }
    return RD_OK;
}
