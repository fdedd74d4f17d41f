/*
 * chartplan - which charts a report has and which configs each draws: the
 * same input, the same plan. Past RD_CHART_MAX_CONFIGS a chart draws the
 * recommended config, the best one and then the best means, and its
 * caption says so.
 */
#include "chartplan.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "derive.h"
#include "escape.h"
#include "rundown/array.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"
#include "lookup.h"
#include "verdicts.h"

double rd_latency_percentile(const char *metric)
{
    if (strcmp(metric, "latency_max_ms") == 0)
        return 100;
    /* latency_p<N>[_<decimals>]_ms */
    if (strncmp(metric, "latency_p", 9) != 0)
        return NAN;
    const char *p = metric + 9;
    char num[32];
    size_t n = 0;
    while (*p && n + 1 < sizeof num) {
        if (*p >= '0' && *p <= '9')
            num[n++] = *p;
        else if (*p == '_' && p[1] >= '0' && p[1] <= '9')
            num[n++] = '.';
        else
            break;
        p++;
    }
    num[n] = '\0';
    if (n == 0 || strcmp(p, "_ms") != 0 || strchr(num, '.') != strrchr(num, '.'))
        return NAN;
    double v = strtod(num, NULL);
    return v >= 0 && v < 100 ? v : NAN;
}

/* The configs a chart draws are some of its workload's; these helpers
 * look at those only, since a chart is planned for what it will show. */

/* A latency chart needs two percentiles (p50 and more) of some config. */
static bool has_latency(const struct rd_rworkload *w, const size_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct rd_rconfig *c = &w->configs[idx[i]];
        size_t found = 0;
        for (size_t m = 0; m < c->nmetrics; m++)
            found += rd_latency_percentile(c->metrics[m].metric) >= 50 &&
                     isfinite(c->metrics[m].mean);
        if (found >= 2)
            return true;
    }
    return false;
}

/* The most per-run values a config has, 0 when none has any. */
static size_t most_values(const struct rd_rworkload *w, const size_t *idx, size_t n)
{
    size_t most = 0;
    for (size_t i = 0; i < n; i++) {
        size_t v = rd_primary(&w->configs[idx[i]])->nvalues;
        if (v > most)
            most = v;
    }
    return most;
}

/* gnuplot stops with "all points undefined" on a chart without one number. */
static bool has_means(const struct rd_rworkload *w, const size_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isfinite(rd_primary(&w->configs[idx[i]])->mean))
            return true;
    return false;
}

/* The configs a chart of w draws. */
struct selection {
    size_t *idx;       /* ascending */
    size_t n;
    size_t of;         /* the workload's configs */
    const char *rule;  /* how they were picked, when n < of */
};

static rd_status plan_add(struct rd_chart_plan *p, size_t *cap, size_t wi,
                          enum rd_chart_kind kind, const char *key,
                          const struct selection *sel, struct rd_buf *stem,
                          struct rd_buf *title)
{
    RD_TRY(RD_ARRAY_GROW(p->items, *cap, p->n + 1));
    /* Two label keys may sanitise alike ("a b", "a_b"): keep stems unique. */
    if (rd_name_unique(stem, 2, p->items, p->n, sizeof *p->items,
                       offsetof(struct rd_chart, stem)) != RD_OK)
        return RD_ERR_NOMEM;
    /* The caption must say when not every config is drawn. */
    if (sel->n < sel->of)
        RD_TRY(rd_buf_addf(title, " (%zu of %zu configs: %s)", sel->n, sel->of, sel->rule));
    struct rd_chart *c = &p->items[p->n];
    c->workload = wi;
    c->kind = kind;
    c->key = key;
    c->stem = strdup(stem->ptr);
    c->title = strdup(title->ptr);
    c->left_out = NULL;
    c->configs = malloc((sel->n ? sel->n : 1) * sizeof *c->configs);
    c->nconfigs = sel->n;
    if (!c->stem || !c->title || !c->configs) {
        free(c->stem);
        free(c->title);
        free(c->configs);
        return RD_ERR_NOMEM;
    }
    memcpy(c->configs, sel->idx, sel->n * sizeof *c->configs);
    p->n++;
    rd_buf_reset(stem);
    rd_buf_reset(title);
    return RD_OK;
}

/* Every config of w, or past RD_CHART_MAX_CONFIGS the ones model.h's
 * rd_workload_select picks: a chart of 10^5 bars shows nothing and makes
 * an SVG no browser opens. */
static rd_status select_configs(const struct rd_rworkload *w, struct selection *sel)
{
    sel->of = w->nconfigs;
    sel->rule = rd_selection_rule(w);
    return rd_workload_select(w, RD_CHART_MAX_CONFIGS, &sel->idx, &sel->n);
}

rd_status rd_chart_plan_make(const struct rd_report *r, struct rd_chart_plan *p)
{
    memset(p, 0, sizeof *p);
    size_t cap = 0;
    struct rd_buf stem = RD_BUF_INIT, title = RD_BUF_INIT, label = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (size_t wi = 0; wi < rd_report_shown_workloads(r) && st == RD_OK; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        /* A pass/fail workload is its matrix: no mean to draw. */
        if (!w->metric || w->nconfigs == 0 || rd_workload_categorical(w))
            continue;
        struct selection sel;
        st = select_configs(w, &sel);
        if (st != RD_OK)
            break;
        rd_buf_reset(&label);
        st = rd_fmt_metric(&label, w->metric, true);
        bool means = has_means(w, sel.idx, sel.n);
        size_t most = most_values(w, sel.idx, sel.n);
        if (st == RD_OK && means) {
            st = rd_buf_addf(&stem, "%s-means", w->file);
            /* Paired within rounds the verdict reads each config's ratio
             * to the best, not its own mean: the chart says so. */
            if (st == RD_OK && rd_means_paired(w))
                st = rd_buf_addf(&title, "%s: the best's mean × the within-round ratio, with "
                                 "the verdict's interval", w->name);
            else if (st == RD_OK)
                st = rd_buf_addf(&title, "%s: mean %s with %s", w->name, label.ptr,
                                 w->rec && w->rec->primary.nverdicts
                                     ? "the verdict's simultaneous interval" : "its CI");
            if (st == RD_OK)
                st = plan_add(p, &cap, wi, RD_CHART_MEANS, NULL, &sel, &stem, &title);
        }
        if (st == RD_OK && most > 0) {
            st = rd_buf_addf(&stem, "%s-runs", w->file);
            if (st == RD_OK)
                st = rd_buf_addf(&title, "%s: %s of every run", w->name, label.ptr);
            /* The caption must say when the dots are not every run. */
            if (st == RD_OK && most > RD_RUNS_MAX_POINTS)
                st = rd_buf_addf(&title, " (over %d runs: %d evenly spaced quantiles)",
                                 RD_RUNS_MAX_POINTS, RD_RUNS_MAX_POINTS);
            if (st == RD_OK)
                st = plan_add(p, &cap, wi, RD_CHART_RUNS, NULL, &sel, &stem, &title);
        }
        if (st == RD_OK && has_latency(w, sel.idx, sel.n)) {
            st = rd_buf_addf(&stem, "%s-latency", w->file);
            if (st == RD_OK)
                st = rd_buf_addf(&title, "%s: latency by percentile (mean of runs)", w->name);
            if (st == RD_OK)
                st = plan_add(p, &cap, wi, RD_CHART_LATENCY, NULL, &sel, &stem, &title);
        }
        for (size_t k = 0; k < w->nkeys && st == RD_OK && means; k++) {
            if (!rd_label_numeric(w, w->keys[k]))
                continue;
            st = rd_buf_addf(&stem, "%s-scaling-", w->file);
            if (st == RD_OK)
                st = rd_sanitize_filename(&stem, w->keys[k], 32);
            if (st == RD_OK)
                st = rd_buf_addf(&title, "%s: mean %s against %s", w->name, label.ptr, w->keys[k]);
            if (st == RD_OK)
                st = plan_add(p, &cap, wi, RD_CHART_SCALING, w->keys[k], &sel, &stem, &title);
        }
        free(sel.idx);
    }
    rd_buf_release(&stem);
    rd_buf_release(&title);
    rd_buf_release(&label);
    if (st != RD_OK)
        rd_chart_plan_release(p);
    return st;
}

void rd_chart_plan_release(struct rd_chart_plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->items[i].stem);
        free(p->items[i].title);
        free(p->items[i].configs);
        free(p->items[i].left_out);
    }
    free(p->items);
    memset(p, 0, sizeof *p);
}

/* ---- data files: numbers only, '?' for undefined ---- */
