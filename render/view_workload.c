/*
 * view_workload - one workload's section of the report: the verdict
 * sentence, the stats table with each config's verdict against the best,
 * key metrics, charts, the other metrics and the omnibus tests; for a
 * pass/fail workload the matrix instead. Its pairwise tests go to the
 * appendix (rd_view_pairs), so the headline tables come first.
 */
#include "derive.h"
#include "lookup.h"
#include "machineline.h"
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/metrics.h"
#include "rundown/numfmt.h"
#include "verdicts.h"
#include "view_workload.h"
#include "viewtext.h"

/* Counts and degrees of freedom: whole numbers print without decimals. */
static rd_status fmt_count(struct rd_buf *b, double x, int sig)
{
    if (isfinite(x) && x == floor(x) && fabs(x) < 1e15)
        return rd_fmt_fixed(b, x, 0);
    return rd_fmt_num(b, x, sig);
}

static void fmt_stat(struct vb *v, struct rd_tval *row, const char *key, double x, int sig)
{
    chk(v, rd_fmt_num(&v->b, x, sig));
    take(v, row, key);
}

/* The configs the tables of a workload list: all of them, or past
 * RD_TABLE_MAX_ROWS the ones rd_workload_select picks (the charts pick the
 * same way); 'on' marks them then, for the pairs. */
struct shown {
    size_t *idx;
    size_t n;
    bool *on;
};

static rd_status shown_pick(const struct rd_rworkload *w, struct shown *sh)
{
    sh->on = NULL;
    RD_TRY(rd_workload_select(w, RD_TABLE_MAX_ROWS, &sh->idx, &sh->n));
    if (sh->n < w->nconfigs) {
        sh->on = calloc(w->nconfigs, sizeof *sh->on);
        if (!sh->on) {
            free(sh->idx);
            sh->idx = NULL;
            return RD_ERR_NOMEM;
        }
        for (size_t k = 0; k < sh->n; k++)
            sh->on[sh->idx[k]] = true;
    }
    return RD_OK;
}

static void shown_release(struct shown *sh)
{
    free(sh->idx);
    free(sh->on);
}

/* "Showing 200 of 100,000 configs (the best by mean); report.xlsx lists
 * every one.": a Markdown table of 10^5 rows is read by nobody, and its
 * HTML is a page browsers choke on. */
void rd_view_more(struct vb *v, struct rd_tval *parent, const char *key, size_t shown,
                  size_t all, const char *what, const char *rule)
{
    if (shown >= all)
        return;
    chk(v, rd_buf_addstr(&v->b, "Showing "));
    chk(v, fmt_count(&v->b, (double)shown, 15));
    chk(v, rd_buf_addstr(&v->b, " of "));
    chk(v, fmt_count(&v->b, (double)all, 15));
    chk(v, rd_buf_addf(&v->b, " %s%s%s%s; report.xlsx lists every one.", what,
                       rule ? " (" : "", rule ? rule : "", rule ? ")" : ""));
    take(v, parent, key);
}

/* "Class cpu; primary metric [Wall time](#methods "wall_ms") (ms, lower is
 * better); 21 configs." */
static void intro(struct vb *v, const struct rd_rworkload *w, struct rd_tval *wv)
{
    if (w->title) {
        rd_view_text(v, w->title);
        chk(v, rd_buf_addstr(&v->b, ". "));
    }
    /* What is unknown is left out or said in words, never a bare dash. */
    if (w->klass) {
        chk(v, rd_buf_addstr(&v->b, "Class "));
        rd_view_text(v, w->klass);
        chk(v, rd_buf_addstr(&v->b, "; primary metric "));
    } else {
        chk(v, rd_buf_addstr(&v->b, "Primary metric "));
    }
    if (!w->metric) {
        chk(v, rd_buf_addf(&v->b, "none (no run of it holds a metric), %zu config%s.",
                           w->nconfigs, w->nconfigs == 1 ? "" : "s"));
        take(v, wv, "intro");
        return;
    }
    rd_view_metric(v, w->metric, false);
    struct rd_metric_def def;
    rd_metric_describe(w->metric ? w->metric : "", &def);
    double scale;
    const char *unit = rd_unit_shown(def.unit, &scale);
    chk(v, rd_buf_addstr(&v->b, " ("));
    if (w->metric && *unit) {
        rd_view_text(v, unit);
        chk(v, rd_buf_addstr(&v->b, ", "));
    }
    chk(v, rd_buf_addf(&v->b, "%s), %zu config%s.", rd_better_words(w->better), w->nconfigs,
                       w->nconfigs == 1 ? "" : "s"));
    take(v, wv, "intro");
}

static void view_stats(struct vb *v, const struct rd_report *r, const struct rd_rworkload *w,
                       const struct shown *sh, struct rd_tval *wv)
{
    struct rd_metric_def def;
    rd_metric_describe(w->metric ? w->metric : "", &def);
    double scale;
    const char *unit = w->metric ? rd_unit_shown(def.unit, &scale) : "";
    scale = w->metric ? scale : 1;
    str(v, wv, "unit", unit);
    chk(v, rd_buf_addf(&v->b, *unit ? "mean \xc2\xb1 CI (%s)" : "mean \xc2\xb1 CI", unit));
    take(v, wv, "mean_header");
    struct rd_tval *keys = arr(v, wv, "keys");
    for (size_t k = 0; k < w->nkeys; k++)
        str(v, keys, NULL, w->keys[k]);
    /* Configs without labels are known by their id alone. */
    if (w->nkeys == 0)
        str(v, keys, NULL, "config");
    bool has_rss = false, has_verdicts = w->rec && w->rec->primary.nverdicts > 0;
    for (size_t k = 0; k < sh->n; k++)
        if (isfinite(rd_config_rss_mib(&w->configs[sh->idx[k]])))
            has_rss = true;
    flag(v, wv, "has_rss", has_rss);
    flag(v, wv, "has_verdicts", has_verdicts);
    /* Against the baseline when the analysis names one (the pair test),
     * else against the best by the verdict's simultaneous interval. */
    bool baseline = w->baseline >= 0 || !has_verdicts;
    int ref = w->baseline >= 0 ? w->baseline : w->best;
    /* the level this workload's verdicts used, as its sentence says it
     * (%.4g: "96.27 %"), not the report's alpha */
    double level = rd_verdict_level(r, w);
    if (baseline)
        chk(v, rd_buf_addf(&v->b, "vs %s (%g %% CI)", ref == w->best ? "best" : "baseline",
                           isfinite(r->confidence) ? r->confidence * 100 : 95));
    else
        chk(v, rd_buf_addf(&v->b, "vs best (%.4g %% simultaneous CI)", level));
    take(v, wv, "vs_header");
    struct rd_tval *rows = arr(v, wv, "rows");
    for (size_t at = 0; at < sh->n; at++) {
        size_t i = sh->idx[at];
        const struct rd_rconfig *c = &w->configs[i];
        const struct rd_rstats *s = rd_primary(c);
        struct rd_tval *row = obj(v, rows, NULL);
        str(v, row, "name", c->name);
        struct rd_tval *cells = arr(v, row, "cells");
        for (size_t k = 0; k < w->nkeys; k++)
            str(v, cells, NULL, rd_config_label(c, w->keys[k]));
        if (w->nkeys == 0)
            str(v, cells, NULL, c->name);
        chk(v, fmt_count(&v->b, s->n, 6));
        take(v, row, "n");
        chk(v, rd_fmt_mean_ci(&v->b, s->mean * scale, s->ci_low * scale, s->ci_high * scale));
        take(v, row, "mean");
        fmt_stat(v, row, "median", s->median * scale, 4);
        fmt_stat(v, row, "p99", s->p99 * scale, 4);
        fmt_stat(v, row, "cv", isfinite(s->cv) ? s->cv * 100 : NAN, 2);
        fmt_stat(v, row, "rss", rd_config_rss_mib(c), 3);
        const struct rd_rverdict *x = rd_config_verdict(w, (int)i);
        chk(v, rd_verdict_text(w, x, &v->b));
        take(v, row, "verdict");
        chk(v, rd_fmt_p(&v->b, x ? x->p_adj : NAN));
        take(v, row, "p_adj");
        if ((int)i == ref) {
            str(v, row, "vs", ref == w->best && !baseline ? RD_UNDEF : ref == w->best ? "best" : "baseline");
        } else if (baseline) {
            double ratio, lo, hi, ph;
            rd_compare(w, (int)i, ref, &ratio, &lo, &hi, &ph);
            chk(v, rd_fmt_relative(&v->b, ratio, lo, hi, def.unit));
            if (isfinite(ph)) {
                chk(v, rd_buf_addstr(&v->b, ", p_holm "));
                chk(v, rd_fmt_p(&v->b, ph));
            }
            take(v, row, "vs");
        } else {
            chk(v, rd_verdict_ratio_text(w, x, NULL, &v->b));
            take(v, row, "vs");
        }
        flag(v, row, "recommended", (int)i == w->recommended);
        chk(v, fmt_count(&v->b, c->failed_runs, 6));
        take(v, row, "failed");
    }
    /* A failed-runs column only when some run failed: then it matters. */
    bool has_failed = false;
    for (size_t k = 0; k < sh->n; k++) {
        double f = w->configs[sh->idx[k]].failed_runs;
        if (isfinite(f) && f > 0)
            has_failed = true;
    }
    flag(v, wv, "has_failed", has_failed);
    rd_view_more(v, wv, "more", sh->n, w->nconfigs, "configs", rd_selection_rule(w));
}

/* Several key metrics (mixed: req/s, p99 latency, background time): the
 * verdict of every config on each, with the best of each named. */
static void view_key_metrics(struct vb *v, const struct rd_rworkload *w, const struct shown *sh,
                             struct rd_tval *wv)
{
    if (!w->rec || w->rec->nkeys < 2)
        return;
    struct rd_tval *km = obj(v, wv, "key_metrics");
    struct rd_tval *heads = arr(v, km, "headers");
    for (size_t k = 0; k < w->rec->nkeys; k++) {
        rd_view_metric(v, w->rec->keys[k].metric, false);
        take(v, heads, NULL);
    }
    struct rd_tval *rows = arr(v, km, "rows");
    for (size_t at = 0; at < sh->n; at++) {
        size_t i = sh->idx[at];
        struct rd_tval *row = obj(v, rows, NULL);
        str(v, row, "name", w->configs[i].name);
        struct rd_tval *vals = arr(v, row, "values");
        for (size_t k = 0; k < w->rec->nkeys; k++) {
            const struct rd_rdecision *dc = &w->rec->keys[k];
            const struct rd_rverdict *x = rd_decision_verdict(dc, (int)i);
            char phrase[64];
            const char *word = rd_verdict_phrase(x, dc->better, w->rec->margin, phrase,
                                                 sizeof phrase);
            chk(v, rd_buf_addstr(&v->b, word ? word : RD_UNDEF));
            if (x && x->verdict != RD_VERDICT_BEST && x->verdict != RD_VERDICT_DISQUALIFIED) {
                chk(v, rd_buf_addstr(&v->b, ": "));
                chk(v, rd_verdict_ratio_text(w, x, dc->metric, &v->b));
            }
            take(v, vals, NULL);
        }
    }
}

static void view_matrix(struct vb *v, const struct rd_report *r, const struct rd_rworkload *w,
                        struct rd_tval *wv)
{
    const struct rd_matrix m = *w->matrix;
    struct rd_tval *mv = obj(v, wv, "matrix");
    struct rd_tval *cols = arr(v, mv, "configs");
    for (size_t c = 0; c < m.ncols; c++)
        str(v, cols, NULL, w->configs[c].name);
    struct rd_tval *rows = arr(v, mv, "rows");
    struct rd_tval *errors = NULL;
    for (size_t row = 0; row < m.nrows; row++) {
        struct rd_tval *rv = obj(v, rows, NULL);
        str(v, rv, "check", m.labels[row]);
        struct rd_tval *cells = arr(v, rv, "cells");
        for (size_t c = 0; c < m.ncols; c++) {
            const struct rd_mcell *cell = &m.cells[row * m.ncols + c];
            chk(v, rd_mcell_mark(cell, &v->b));
            take(v, cells, NULL);
            if (!(cell->passed < cell->runs))
                continue;
            if (!errors)
                errors = arr(v, mv, "errors");
            struct rd_tval *e = obj(v, errors, NULL);
            str(v, e, "check", m.labels[row]);
            str(v, e, "config", w->configs[c].name);
            chk(v, rd_buf_addf(&v->b, "failed in %.0f of %.0f runs", cell->runs - cell->passed,
                               cell->runs));
            if (cell->error)
                chk(v, rd_buf_addf(&v->b, ": %s", cell->error));
            take(v, e, "message");
        }
    }
    chk(v, rd_buf_addf(&v->b, "%zu check%s \xc3\x97 %zu config%s", m.nrows,
                       m.nrows == 1 ? "" : "s", m.ncols, m.ncols == 1 ? "" : "s"));
    take(v, mv, "size");
}

/* The metrics worth a column next to the primary one: the registry's
 * headline figures first, then a workload's own metrics (which have a
 * direction), at most 10; counts that are zero everywhere say nothing. */
static bool metric_all_zero(const struct rd_rworkload *w, const char *name)
{
    for (size_t i = 0; i < w->nconfigs; i++) {
        double m = rd_config_mean(&w->configs[i], name);
        if (isfinite(m) && m != 0)
            return false;
    }
    return true;
}

static void view_other(struct vb *v, const struct rd_rworkload *w, const struct shown *sh,
                       struct rd_tval *wv)
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
        const struct rd_rconfig *c = &w->configs[i];
        for (size_t j = 0; j < c->nmetrics && nn < MAX_OTHER; j++) {
            const char *name = c->metrics[j].metric;
            if (rd_metric_find(name) || (w->metric && strcmp(name, w->metric) == 0))
                continue;
            struct rd_metric_def def;
            rd_metric_describe(name, &def);
            bool seen = def.better == RD_BETTER_NONE;
            for (size_t k = 0; k < nn; k++)
                if (strcmp(names[k], name) == 0)
                    seen = true;
            if (!seen)
                names[nn++] = name;
        }
    }
    if (nn == 0)
        return;
    struct rd_tval *other = obj(v, wv, "other");
    struct rd_tval *headers = arr(v, other, "headers");
    for (size_t k = 0; k < nn; k++) {
        struct rd_metric_def def;
        rd_metric_describe(names[k], &def);
        double scale;
        const char *unit = rd_unit_shown(def.unit, &scale);
        rd_view_metric(v, names[k], false);
        if (*unit) {
            chk(v, rd_buf_addstr(&v->b, " ("));
            rd_view_text(v, unit);
            chk(v, rd_buf_addch(&v->b, ')'));
        }
        take(v, headers, NULL);
    }
    struct rd_tval *rows = arr(v, other, "rows");
    for (size_t at = 0; at < sh->n; at++) {
        size_t i = sh->idx[at];
        struct rd_tval *row = obj(v, rows, NULL);
        str(v, row, "name", w->configs[i].name);
        struct rd_tval *vals = arr(v, row, "values");
        for (size_t k = 0; k < nn; k++) {
            struct rd_metric_def def;
            rd_metric_describe(names[k], &def);
            double scale;
            rd_unit_shown(def.unit, &scale);
            chk(v, rd_fmt_num(&v->b, rd_config_mean(&w->configs[i], names[k]) * scale, 4));
            take(v, vals, NULL);
        }
    }
}

/* "One-way ANOVA F(2, 12) = 3.41, p = 0.067": two_df for an F test. */
static void omnibus_part(struct vb *v, const char *label, const struct rd_romnibus *t,
                         const char *stat, bool two_df, const char *needs)
{
    if (!t->present)
        return;
    if (v->b.len)
        chk(v, rd_buf_addstr(&v->b, "; "));
    chk(v, rd_buf_addstr(&v->b, label));
    if (!isfinite(t->stat) || !isfinite(t->p) ||
        (two_df && (!isfinite(t->df1) || !isfinite(t->df2)))) {
        /* Said why, not printed as dashes. */
        chk(v, rd_buf_addf(&v->b, " undefined here (it needs %s)", needs));
        return;
    }
    if (two_df) {
        chk(v, rd_buf_addstr(&v->b, " F("));
        chk(v, fmt_count(&v->b, t->df1, 3));
        chk(v, rd_buf_addstr(&v->b, ", "));
        chk(v, fmt_count(&v->b, t->df2, 3));
        chk(v, rd_buf_addstr(&v->b, ") = "));
    } else {
        chk(v, rd_buf_addf(&v->b, " %s = ", stat));
    }
    chk(v, rd_fmt_num(&v->b, t->stat, 4));
    chk(v, rd_buf_addstr(&v->b, isfinite(t->p) && t->p < 0.001 ? ", p " : ", p = "));
    chk(v, rd_fmt_p(&v->b, t->p));
}


/* The sentence, with the look's level when it spent less than alpha
 * (rd_reason_with_look). */
static void view_reason(struct vb *v, const struct rd_rworkload *w, struct rd_tval *rv)
{
    const struct rd_rrecommendation *rec = w->rec;
    if (rec->reason) {
        chk(v, rd_reason_with_look(rec, v->r->alpha, &v->b));
        take(v, rv, "reason");
    } else {
        str(v, rv, "reason", NULL);
    }
    flag(v, rv, "has_reason", rec->reason != NULL);
}

static void view_rec(struct vb *v, const struct rd_rworkload *w, struct rd_tval *wv)
{
    if (!w->rec)
        return;
    struct rd_tval *rv = obj(v, wv, "rec");
    int rec = w->recommended;
    if (w->rec->nwithin) {
        /* Decided within a label: one decision per value. */
        chk(v, rd_buf_addstr(&v->b, "Decided per value: "));
        chk(v, rd_decision_text(w, &v->b));
        chk(v, rd_buf_addch(&v->b, '.'));
        take(v, rv, "headline");
        view_reason(v, w, rv);
        return;
    }
    switch (rd_workload_decision(w)) {
    case RD_DECISION_CLEAR:
    case RD_DECISION_EQUIVALENT:
    case RD_DECISION_UNKNOWN:
        chk(v, rd_buf_addf(&v->b, "Recommended: %s.", rec >= 0 ? w->configs[rec].name : RD_UNDEF));
        break;
    case RD_DECISION_INCONCLUSIVE:
        chk(v, rd_buf_addstr(&v->b, "No recommendation yet."));
        break;
    case RD_DECISION_NO_DATA:
        chk(v, rd_buf_addstr(&v->b, "No decision."));
        break;
    }
    take(v, rv, "headline");
    view_reason(v, w, rv);
}

/* "3 warnings (2 outliers, 1 trend)": the details are in the Warnings
 * section, grouped by kind. */
static void view_warning_line(struct vb *v, const struct rd_rworkload *w, struct rd_tval *wv)
{
    if (w->nwarnings == 0)
        return;
    double total = 0;
    for (size_t i = 0; i < w->nwarnings; i++)
        total += w->warnings[i].count;
    chk(v, rd_buf_addf(&v->b, "%.0f warning%s (", total, total == 1 ? "" : "s"));
    for (size_t i = 0; i < w->nwarnings; i++) {
        const char *code = w->warnings[i].code ? w->warnings[i].code : "warning";
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(w->warnings[j].code ? w->warnings[j].code : "warning", code) != 0;
        if (!first)
            continue;
        double n = 0;
        for (size_t j = i; j < w->nwarnings; j++)
            if (strcmp(w->warnings[j].code ? w->warnings[j].code : "warning", code) == 0)
                n += w->warnings[j].count;
        chk(v, rd_buf_addf(&v->b, "%s%.0f %s", i ? ", " : "", n, code));
    }
    chk(v, rd_buf_addch(&v->b, ')'));
    take(v, wv, "warning_line");
}

static void view_charts(struct vb *v, const struct rd_chart_plan *p, size_t wi, struct rd_tval *wv)
{
    if (!p)
        return;
    struct rd_tval *charts = NULL;
    for (size_t i = 0; i < p->n; i++) {
        if (p->items[i].workload != wi)
            continue;
        if (!charts)
            charts = arr(v, wv, "charts");
        struct rd_tval *c = obj(v, charts, NULL);
        str(v, c, "file", p->items[i].stem);
        str(v, c, "alt", p->items[i].title);
        /* gnuplot failed on it: the report says so where it would be */
        if (p->items[i].left_out)
            str(v, c, "left_out", p->items[i].left_out);
    }
}

/* "machine: 0 of 120 runs contended; others used 0.8 % of a CPU on
 * average, at most 3.1 %" (rd_machine_line). */
static void view_machine_line(struct vb *v, const struct rd_rworkload *w, struct rd_tval *wv)
{
    size_t before = v->b.len;
    chk(v, rd_machine_line(w, &v->b));
    if (v->b.len == before)
        return;
    flag(v, wv, "has_machine_line", true);
    take(v, wv, "machine_line");
}

void rd_view_workload(struct vb *v, const struct rd_chart_plan *p, size_t wi, struct rd_tval *wls)
{
    const struct rd_report *r = v->r;
    const struct rd_rworkload *w = &r->workloads[wi];
    struct rd_tval *wv = obj(v, wls, NULL);
    str(v, wv, "name", w->name);
    str(v, wv, "slug", w->slug);
    str(v, wv, "title", w->title);
    str(v, wv, "class", w->klass);
    str(v, wv, "metric", w->metric);
    str(v, wv, "better", rd_better_name(w->better));
    str(v, wv, "direction", rd_better_words(w->better));
    intro(v, w, wv);
    view_machine_line(v, w, wv);
    flag(v, wv, "has_configs", w->nconfigs > 0);
    /* Kept for templates written before the verdicts (docs/render.md). */
    chk(v, rd_buf_addf(&v->b, "%zu config%s", w->nconfigs, w->nconfigs == 1 ? "" : "s"));
    take(v, wv, "nconfigs");
    if (w->nwarnings > 0) {
        struct rd_tval *items = arr(v, wv, "warnings");
        size_t listed = w->nwarnings < RD_TABLE_MAX_ROWS ? w->nwarnings : RD_TABLE_MAX_ROWS;
        rd_view_more(v, wv, "more_warnings", listed, w->nwarnings, "warnings", "the first");
        for (size_t i = 0; i < listed; i++) {
            const struct rd_rwarning *x = &w->warnings[i];
            struct rd_tval *it = obj(v, items, NULL);
            str(v, it, "code", x->code ? x->code : "warning");
            str(v, it, "config", x->config ? rd_workload_config_name(w, x->config) : NULL);
            flag(v, it, "has_config", x->config != NULL);
            str(v, it, "message", x->message ? x->message : "");
        }
    }
    view_warning_line(v, w, wv);
    if (rd_workload_categorical(w)) {
        view_matrix(v, r, w, wv);
        return;
    }
    flag(v, wv, "has_stats", w->nconfigs > 0);
    view_rec(v, w, wv);
    struct shown sh;
    if (shown_pick(w, &sh) != RD_OK) {
        v->oom = true;
        return;
    }
    view_stats(v, r, w, &sh, wv);
    view_key_metrics(v, w, &sh, wv);
    view_other(v, w, &sh, wv);
    shown_release(&sh);
    view_charts(v, p, wi, wv);
    const struct rd_rtests *t = w->tests;
    if (t) {
        omnibus_part(v, "One-way ANOVA", &t->anova, "F", true,
                     "some spread within the configs");
        omnibus_part(v, "Welch ANOVA", &t->welch_anova, "F", true,
                     "two runs or more of each config, not all equal");
        omnibus_part(v, "Kruskal-Wallis", &t->kruskal, "H", false,
                     "runs that are not all tied");
        if (v->b.len) {
            chk(v, rd_buf_addch(&v->b, '.'));
            take(v, wv, "omnibus");
        }
    }
}

void rd_view_pairs(struct vb *v, size_t wi, struct rd_tval *list)
{
    const struct rd_report *r = v->r;
    const struct rd_rworkload *w = &r->workloads[wi];
    const struct rd_rtests *t = w->tests;
    struct rd_tval *pv = obj(v, list, NULL);
    str(v, pv, "name", w->name);
    str(v, pv, "slug", w->slug);
    const char *metric = t->metric ? t->metric : w->metric;
    rd_view_metric(v, metric, true);
    take(v, pv, "metric");
    chk(v, rd_buf_addf(&v->b, "%g %%", isfinite(r->confidence) ? r->confidence * 100 : 95));
    take(v, pv, "conf");
    chk(v, rd_buf_addf(&v->b, "%zu pair%s", t->npairs, t->npairs == 1 ? "" : "s"));
    take(v, pv, "count");
    struct rd_metric_def def;
    rd_metric_describe(metric ? metric : "", &def);
    double scale;
    rd_unit_shown(def.unit, &scale);
    struct shown sh;
    if (shown_pick(w, &sh) != RD_OK) {
        v->oom = true;
        return;
    }
    struct rd_tval *rows = arr(v, pv, "rows");
    size_t listed = 0;
    for (size_t i = 0; i < t->npairs; i++) {
        const struct rd_rpair *p = &t->pairs[i];
        /* Past the cap, the pairs of configs the stats table lists. */
        if (sh.on) {
            int a = rd_workload_find(w, p->a), b = rd_workload_find(w, p->b);
            if (listed == RD_TABLE_MAX_ROWS || a < 0 || b < 0 || !sh.on[a] || !sh.on[b])
                continue;
        }
        listed++;
        struct rd_tval *row = obj(v, rows, NULL);
        str(v, row, "a", rd_workload_config_name(w, p->a));
        str(v, row, "b", rd_workload_config_name(w, p->b));
        int dec = rd_fmt_decimals(p->diff * scale, 3);
        chk(v, rd_fmt_fixed(&v->b, p->diff * scale, dec));
        if (isfinite(p->diff_ci_low) && isfinite(p->diff_ci_high)) {
            chk(v, rd_buf_addstr(&v->b, " ("));
            chk(v, rd_fmt_fixed(&v->b, p->diff_ci_low * scale, dec));
            chk(v, rd_buf_addstr(&v->b, " to "));
            chk(v, rd_fmt_fixed(&v->b, p->diff_ci_high * scale, dec));
            chk(v, rd_buf_addch(&v->b, ')'));
        }
        take(v, row, "diff");
        chk(v, rd_fmt_relative(&v->b, p->ratio, p->ratio_ci_low, p->ratio_ci_high, def.unit));
        take(v, row, "ratio");
        chk(v, rd_fmt_p(&v->b, p->p));
        take(v, row, "p");
        chk(v, rd_fmt_p(&v->b, p->p_holm));
        take(v, row, "p_holm");
        flag(v, row, "sig", isfinite(p->p_holm) && isfinite(r->alpha) && p->p_holm < r->alpha);
        chk(v, rd_fmt_p(&v->b, p->mw_p));
        take(v, row, "mw_p");
        fmt_stat(v, row, "g", p->hedges_g, 3);
        fmt_stat(v, row, "ps", p->prob_superiority, 2);
    }
    rd_view_more(v, pv, "more", listed, t->npairs, "pairs", "those between the configs listed");
    shown_release(&sh);
}
