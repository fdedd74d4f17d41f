/*
 * write.c - the rundown.analysis/1 document: settings, environments,
 * inputs, then per workload its configs with each metric's descriptives,
 * the tests, the recommendation and the warnings, then the replication
 * section. Keys are written in a fixed order and numbers that are not
 * defined (NaN) as null, so the same stores give the same bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jw.h"
#include "workload.h"

static int cmp_env(const void *x, const void *y)
{
    const struct envref *a = x, *b = y;
    return strcmp(a->id, b->id);
}

static void write_summary(struct jw *w, const char *name, const struct prep *p,
                          const struct rd_analysis *a)
{
    struct rd_metric_def def;
    rd_metric_describe(name, &def);
    const struct rd_summary *s = &p->sum;
    jw_obj(w, name, true);
    jw_num(w, "n", (double)p->n_used);
    jw_num(w, "mean", s->mean);
    jw_num(w, "sd", s->sd);
    jw_num(w, "se", s->se);
    jw_num(w, "ci_low", s->ci_low);
    jw_num(w, "ci_high", s->ci_high);
    jw_num(w, "median", s->median);
    jw_num(w, "min", s->min);
    jw_num(w, "max", s->max);
    jw_num(w, "q1", s->q1);
    jw_num(w, "q3", s->q3);
    jw_num(w, "p90", s->p90);
    jw_num(w, "p95", s->p95);
    jw_num(w, "p99", s->p99);
    jw_num(w, "mad", s->mad);
    jw_num(w, "cv", s->cv);
    jw_num(w, "geomean", s->geomean);
    jw_arr(w, "outliers", false);
    for (size_t i = 0; i < p->noutl; i++)
        jw_num(w, NULL, (double)p->outl[i]);
    jw_end(w, ']');
    jw_arr(w, "values", false);
    for (size_t i = 0; i < p->n_all; i++)
        jw_num(w, NULL, p->all[i]);
    jw_end(w, ']');
    jw_str(w, "unit", def.unit);
    jw_str(w, "better", rd_better_name(def.better));
    if (a->o.exclude_outliers)
        jw_num(w, "excluded", (double)(p->n_all - p->n_used));
    if (p->tested) {
        jw_num(w, "median_ci_low", p->med_lo);
        jw_num(w, "median_ci_high", p->med_hi);
        jw_str(w, "median_ci_method", p->med_method);
        /* The bootstrap's coverage is nominal; only the exact interval has one. */
        if (p->med_method && strcmp(p->med_method, "binomial") == 0)
            jw_num(w, "median_ci_level", p->med_level);
        jw_obj(w, "trend", false);
        jw_num(w, "s", p->trend.s);
        jw_num(w, "tau", p->trend.tau);
        jw_num(w, "p", p->trend.p);
        jw_end(w, '}');
    }
    jw_end(w, '}');
}

static void write_config(struct wctx *x, struct jw *w, size_t i)
{
    const struct cfg *c = x->cs[i];
    struct rd_analysis *a = x->a;
    char disp[256];
    rd_cfg_display_name(c, disp, sizeof disp);
    jw_obj(w, NULL, true);
    jw_str(w, "id", c->id);
    jw_obj(w, "labels", false);
    for (size_t l = 0; l < c->nlabels; l++)
        jw_str(w, c->labels[l].key, c->labels[l].value);
    jw_end(w, '}');
    jw_str(w, "display", disp);
    jw_str(w, "env", c->env);
    jw_num(w, "runs", (double)(c->ok_runs + c->failed + c->timeouts));
    jw_num(w, "failed_runs", (double)(c->failed + c->timeouts));
    jw_num(w, "timeout_runs", (double)c->timeouts);
    jw_num(w, "load_error_runs", (double)c->load_error_runs);
    jw_obj(w, "metrics", true);
    for (size_t m = 0; m < x->nmets && !w->st; m++) {
        uint32_t id = x->mets[m];
        const struct series *s = rd_cfg_find_series(c, id);
        if (!s)
            continue;
        size_t ti = SIZE_MAX;
        for (size_t t = 0; t < x->ntested; t++)
            if (x->tested[t] == id)
                ti = t;
        if (ti != SIZE_MAX) {
            write_summary(w, a->metrics[id], &x->preps[ti * x->k + i], a);
        } else {
            struct prep p;
            if (rd_prep_series(x, s, false, &p)) {
                w->st = RD_ERR_NOMEM;
                rd_prep_release(&p);
                break;
            }
            write_summary(w, a->metrics[id], &p, a);
            rd_prep_release(&p);
        }
    }
    jw_end(w, '}');
    if (a->o.baseline_key) {
        struct baseline_cmp bc;
        if (!rd_compare_baseline(x, i, &bc)) {
            jw_null(w, "baseline");
        } else {
            jw_obj(w, "baseline", true);
            jw_str(w, "config", x->cs[bc.config]->id);
            jw_str(w, "metric", a->metrics[x->primary]);
            jw_num(w, "ratio", bc.r.ratio);
            jw_num(w, "ratio_ci_low", bc.r.ci_low);
            jw_num(w, "ratio_ci_high", bc.r.ci_high);
            jw_num(w, "diff", bc.w.diff);
            jw_num(w, "diff_ci_low", bc.w.ci_low);
            jw_num(w, "diff_ci_high", bc.w.ci_high);
            jw_num(w, "welch_t", bc.w.t);
            jw_num(w, "welch_df", bc.w.df);
            jw_num(w, "p", bc.w.p);
            jw_end(w, '}');
        }
    }
    jw_end(w, '}');
}

static void write_anova(struct jw *w, const char *key, const struct rd_anova *an)
{
    jw_obj(w, key, false);
    jw_num(w, "f", an->f);
    jw_num(w, "df1", an->df1);
    jw_num(w, "df2", an->df2);
    jw_num(w, "p", an->p);
    jw_end(w, '}');
}

static void write_tests(struct wctx *x, struct jw *w, const char *key, size_t ti)
{
    const struct tests *t = &x->tests[ti];
    jw_obj(w, key, true);
    jw_str(w, "metric", x->a->metrics[t->metric]);
    jw_str(w, "better", rd_better_name(t->better));
    if (t->have_multi) {
        write_anova(w, "anova", &t->anova);
        write_anova(w, "welch_anova", &t->wanova);
        jw_obj(w, "kruskal", false);
        jw_num(w, "h", t->kw.h);
        jw_num(w, "df", t->kw.df);
        jw_num(w, "p", t->kw.p);
        jw_end(w, '}');
    } else {
        jw_null(w, "anova");
        jw_null(w, "welch_anova");
        jw_null(w, "kruskal");
    }
    jw_str(w, "pairs_scope", t->scope);
    jw_str(w, "ratio_method", "fieller");
    jw_arr(w, "pairs", true);
    for (size_t i = 0; i < t->npairs; i++) {
        const struct pair *pr = &t->pairs[i];
        jw_obj(w, NULL, true);
        jw_str(w, "a", x->cs[pr->a]->id);
        jw_str(w, "b", x->cs[pr->b]->id);
        jw_num(w, "welch_t", pr->w.t);
        jw_num(w, "welch_df", pr->w.df);
        jw_num(w, "p", pr->w.p);
        jw_num(w, "p_holm", pr->p_holm);
        jw_num(w, "p_bh", pr->p_bh);
        jw_num(w, "mw_u", pr->mw.u);
        jw_num(w, "mw_p", pr->mw.p);
        jw_str(w, "mw_method", isnan(pr->mw.p) ? NULL : pr->mw.exact ? "exact" : "asymptotic");
        jw_num(w, "hedges_g", pr->g);
        jw_num(w, "prob_superiority", pr->mw.a);
        jw_num(w, "diff", pr->w.diff);
        jw_num(w, "diff_ci_low", pr->w.ci_low);
        jw_num(w, "diff_ci_high", pr->w.ci_high);
        jw_num(w, "ratio", pr->r.ratio);
        jw_num(w, "ratio_ci_low", pr->r.ci_low);
        jw_num(w, "ratio_ci_high", pr->r.ci_high);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
}

rd_status rd_workload_write(struct rd_analysis *a, const uint32_t *by_name, struct wl *wl,
                            struct jw *w)
{
    struct wctx x;
    rd_status st = rd_wctx_analyse(&x, a, by_name, wl);
    if (st)
        goto out;
    const struct reco *rc = &x.rc;
    jw_obj(w, NULL, true);
    jw_str(w, "name", wl->name);
    jw_str(w, "class", wl->class_);
    jw_obj(w, "primary", false);
    jw_str(w, "metric", x.have_primary ? a->metrics[x.primary] : NULL);
    jw_str(w, "better", rd_better_name(x.better));
    if (x.have_primary) {
        struct rd_metric_def def;
        rd_metric_describe(a->metrics[x.primary], &def);
        jw_str(w, "unit", def.unit);
        jw_str(w, "display", def.display);
    }
    jw_end(w, '}');
    if (a->o.baseline_key) {
        jw_arr(w, "baseline", false);
        for (size_t i = 0; i < x.k; i++)
            if (rd_cfg_is_baseline(a, x.cs[i]))
                jw_str(w, NULL, x.cs[i]->id);
        jw_end(w, ']');
    }
    jw_arr(w, "configs", true);
    for (size_t i = 0; i < x.k && !w->st; i++)
        write_config(&x, w, i);
    jw_end(w, ']');
    if (x.ntested) {
        write_tests(&x, w, "tests", 0);
        if (a->o.all_metrics) {
            jw_obj(w, "tests_by_metric", true);
            for (size_t ti = 0; ti < x.ntested; ti++)
                write_tests(&x, w, a->metrics[x.tested[ti]], ti);
            jw_end(w, '}');
        }
    } else {
        jw_null(w, "tests");
    }
    jw_obj(w, "recommendation", true);
    if (rc->have) {
        jw_str(w, "best", x.cs[rc->best]->id);
        jw_arr(w, "tied", false);
        for (size_t i = 0; i < rc->ntied; i++)
            jw_str(w, NULL, x.cs[rc->tied[i]]->id);
        jw_end(w, ']');
        jw_str(w, "recommended", x.cs[rc->recommended]->id);
        jw_str(w, "reason", rc->reason);
        jw_str(w, "tie_breaker", rc->tie_metric >= 0 ? a->metrics[rc->tie_metric] : NULL);
    } else {
        jw_null(w, "best");
        jw_arr(w, "tied", false);
        jw_end(w, ']');
        jw_null(w, "recommended");
        jw_null(w, "reason");
        jw_null(w, "tie_breaker");
    }
    jw_end(w, '}');
    jw_arr(w, "warnings", true);
    for (size_t i = 0; i < x.nwarns; i++) {
        jw_obj(w, NULL, false);
        jw_str(w, "code", x.warns[i].code);
        jw_str(w, "config", x.warns[i].config);
        jw_str(w, "metric", x.warns[i].metric);
        jw_str(w, "message", x.warns[i].msg);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
    st = w->st;
out:
    rd_wctx_release(&x);
    return st;
}

/* The environments by id, each the object read with the store that named
 * it (ingest.c), or only its id when it had no file. */
static void write_envs(struct rd_analysis *a, struct jw *w)
{
    if (a->nenvs > 1)
        qsort(a->envs, a->nenvs, sizeof *a->envs, cmp_env);
    jw_arr(w, "environments", true);
    for (size_t i = 0; i < a->nenvs; i++) {
        const struct envref *e = &a->envs[i];
        if (e->json) {
            jw_raw(w, NULL, e->json, e->json_len);
        } else {
            jw_obj(w, NULL, false);
            jw_str(w, "id", e->id);
            jw_end(w, '}');
        }
    }
    jw_end(w, ']');
}

/* The document into out; with a sink, out is handed to it whenever it
 * has grown past a mebibyte between workloads (pool.c), and the rest
 * stays in out. */
static rd_status write_document(struct rd_analysis *a, struct rd_buf *out,
                                const struct rd_analysis_sink *sink, struct rd_diag *d)
{
    rd_stats_init();
    struct jw w;
    jw_init(&w, out);
    const struct rd_analyze_opts *o = &a->o;
    jw_obj(&w, NULL, true);
    jw_str(&w, "schema", RD_ANALYSIS_SCHEMA);
    if (o->title)
        jw_str(&w, "title", o->title);
    jw_obj(&w, "settings", true);
    jw_num(&w, "alpha", o->alpha);
    jw_num(&w, "confidence", o->confidence);
    jw_num(&w, "bootstrap", (double)o->bootstrap);
    jw_num(&w, "seed", (double)o->seed);
    jw_str(&w, "metric", o->metric);
    jw_bool(&w, "all_metrics", o->all_metrics);
    jw_bool(&w, "exclude_outliers", o->exclude_outliers);
    jw_bool(&w, "pool_envs", o->pool_envs);
    if (o->baseline_key) {
        jw_obj(&w, "baseline", false);
        jw_str(&w, o->baseline_key, o->baseline_val);
        jw_end(&w, '}');
    } else {
        jw_null(&w, "baseline");
    }
    jw_str(&w, "quantiles", "hyndman-fan-7");
    jw_str(&w, "ratio_ci", "fieller");
    jw_str(&w, "adjust", "holm");
    jw_end(&w, '}');
    write_envs(a, &w);
    jw_arr(&w, "inputs", true);
    for (size_t i = 0; i < a->ninputs; i++)
        jw_str(&w, NULL, a->inputs[i]);
    jw_end(&w, ']');

    jw_arr(&w, "workloads", true);
    RD_TRY(rd_workloads_write(a, &w, sink, d));
    jw_end(&w, ']');
    if (o->published_dir)
        RD_TRY(rd_replication_write(a, &w, d));
    jw_end(&w, '}');
    return w.st;
}

rd_status rd_analysis_write(struct rd_analysis *a, struct rd_buf *out, struct rd_diag *d)
{
    return write_document(a, out, NULL, d);
}

rd_status rd_analysis_write_to(struct rd_analysis *a, const struct rd_analysis_sink *sink,
                               struct rd_diag *d)
{
    struct rd_buf rest = RD_BUF_INIT;
    rd_status st = write_document(a, &rest, sink, d);
    if (!st && rest.len)
        st = sink->write(sink->ctx, rest.ptr, rest.len, d);
    rd_buf_release(&rest);
    return st;
}
