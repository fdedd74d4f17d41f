/*
 * verdicts - the verdicts and decisions of the analysis (docs/analysis.md,
 * "recommendation") said once for every back end, and the pass/fail
 * matrix of a categorical workload.
 *
 * Reads the model only, except that a matrix with a failed check looks
 * for the check's error text in the runs and their logs.
 */
#include "verdicts.h"
#include "lookup.h"


#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/metrics.h"
#include "rundown/numfmt.h"
#include "rundown/verdict_words.h"

/* The kinds follow core's word order, one up (0 is UNKNOWN). */
const char *rd_verdict_word(enum rd_verdict_kind v)
{
    return v > RD_VERDICT_UNKNOWN && (int)v <= (int)RD_NVERDICT_WORDS ? rd_verdict_words[v - 1]
                                                                      : NULL;
}

const char *rd_verdict_phrase(const struct rd_rverdict *v, enum rd_better better, double margin,
                              char *buf, size_t size)
{
    const char *word = v ? rd_verdict_word(v->verdict) : NULL;
    if (!word)
        return NULL;
    const char *worse = better == RD_BETTER_HIGHER ? "worse" : "slower";
    if (v->verdict == RD_VERDICT_EQUIVALENT && isfinite(margin))
        snprintf(buf, size, "equivalent within %g %%", 100 * margin);
    else if (v->verdict == RD_VERDICT_WORSE && v->beyond_margin == 1 && isfinite(margin))
        snprintf(buf, size, "more than %g %% %s", 100 * margin, worse);
    else if (v->verdict == RD_VERDICT_WORSE && v->eliminated)
        snprintf(buf, size, "%s, eliminated by the race", worse);
    else if (v->verdict == RD_VERDICT_WORSE)
        snprintf(buf, size, "%s", worse);
    else
        snprintf(buf, size, "%s", word);
    return buf;
}

const char *rd_config_verdict_phrase(const struct rd_rworkload *w, const struct rd_rverdict *v,
                                     char *buf, size_t size)
{
    if (!w->rec)
        return v ? rd_verdict_word(v->verdict) : NULL;
    return rd_verdict_phrase(v, w->rec->primary.better, w->rec->margin, buf, size);
}

const char *rd_decision_word(enum rd_decision_kind d)
{
    return d > RD_DECISION_UNKNOWN && (int)d <= (int)RD_NDECISION_WORDS ? rd_decision_words[d - 1]
                                                                      : NULL;
}

const struct rd_rverdict *rd_decision_verdict(const struct rd_rdecision *dc, int i)
{
    /* The analysis writes one verdict per config in config order, so the
     * i-th is config i's; a scan only for analyses that do not. */
    if (dc && i >= 0 && (size_t)i < dc->nverdicts && dc->verdicts[i].index == i)
        return &dc->verdicts[i];
    for (size_t k = 0; dc && i >= 0 && k < dc->nverdicts; k++)
        if (dc->verdicts[k].index == i)
            return &dc->verdicts[k];
    return NULL;
}

const struct rd_rverdict *rd_config_verdict(const struct rd_rworkload *w, int i)
{
    return w->rec ? rd_decision_verdict(&w->rec->primary, i) : NULL;
}

enum rd_decision_kind rd_workload_decision(const struct rd_rworkload *w)
{
    return w->rec ? w->rec->primary.decision : RD_DECISION_UNKNOWN;
}

int rd_workload_nearest(const struct rd_rworkload *w)
{
    int near = -1;
    double gap = INFINITY;
    for (size_t k = 0; w->rec && k < w->rec->primary.nverdicts; k++) {
        const struct rd_rverdict *v = &w->rec->primary.verdicts[k];
        if (v->index < 0 || v->verdict == RD_VERDICT_BEST ||
            v->verdict == RD_VERDICT_DISQUALIFIED || !(v->ratio > 0))
            continue;
        /* On the log scale, so 0.5× and 2× are as far from 1. */
        double g = fabs(log(v->ratio));
        if (g < gap) {
            gap = g;
            near = v->index;
        }
    }
    return near;
}

/* "a, b, c and 2 more": the configs of the primary decision with verdict
 * v (the best too when with_best). */
static rd_status list_names(const struct rd_rworkload *w, enum rd_verdict_kind v,
                            bool with_best, struct rd_buf *out)
{
    size_t shown = 0, total = 0;
    const struct rd_rdecision *dc = &w->rec->primary;
    for (size_t k = 0; k < dc->nverdicts; k++) {
        const struct rd_rverdict *x = &dc->verdicts[k];
        if (x->index < 0 || !(x->verdict == v || (with_best && x->verdict == RD_VERDICT_BEST)))
            continue;
        total++;
        if (shown == 3)
            continue;
        RD_TRY(rd_buf_addstr(out, shown ? ", " : ""));
        RD_TRY(rd_buf_addstr(out, w->configs[x->index].name));
        shown++;
    }
    return total > shown ? rd_buf_addf(out, " and %zu more", total - shown) : RD_OK;
}

/* The fewest runs among the configs still in question: what "more runs"
 * is counted from. */
static double fewest_runs(const struct rd_rworkload *w)
{
    double least = NAN;
    const struct rd_rdecision *dc = &w->rec->primary;
    for (size_t k = 0; k < dc->nverdicts; k++) {
        const struct rd_rverdict *x = &dc->verdicts[k];
        if (x->index < 0 ||
            !(x->verdict == RD_VERDICT_INCONCLUSIVE || x->verdict == RD_VERDICT_BEST))
            continue;
        double n = rd_primary(&w->configs[x->index])->n;
        if (isfinite(n) && !(n >= least))
            least = n;
    }
    return least;
}

static rd_status tie_text(const struct rd_rworkload *w, struct rd_buf *out)
{
    int rec = w->recommended, best = w->best;
    const char *tb = w->rec->tie_breaker;
    if (rec < 0)
        return RD_OK;
    if (!tb)
        return rd_buf_addf(out, "; %s has the best mean (no tie-breaker)", w->configs[rec].name);
    struct rd_metric_def def;
    rd_metric_describe(tb, &def);
    enum rd_better dir = def.better == RD_BETTER_HIGHER ? RD_BETTER_HIGHER : RD_BETTER_LOWER;
    RD_TRY(rd_buf_addf(out, "; %s chosen for the %s ", w->configs[rec].name,
                       dir == RD_BETTER_HIGHER ? "highest" : "lowest"));
    RD_TRY(rd_fmt_metric(out, tb, true));
    RD_TRY(rd_buf_addstr(out, " ("));
    RD_TRY(rd_fmt_amount(out, rd_config_mean(&w->configs[rec], tb), def.unit));
    if (best >= 0 && best != rec) {
        RD_TRY(rd_buf_addstr(out, " against "));
        RD_TRY(rd_fmt_amount(out, rd_config_mean(&w->configs[best], tb), def.unit));
        RD_TRY(rd_buf_addf(out, " for %s", w->configs[best].name));
    }
    return rd_buf_addch(out, ')');
}

/* "; runtime: bun (settled); mechanism, workers: open" after a decision
 * that leaves more than one config standing. */
static rd_status labels_text(const struct rd_rrecommendation *rec, struct rd_buf *out)
{
    if (!rec || (!rec->nsettled && !rec->nopen))
        return RD_OK;
    RD_TRY(rd_buf_addstr(out, "; "));
    for (size_t s = 0; s < rec->nsettled; s++)
        RD_TRY(rd_buf_addf(out, "%s%s: %s", s ? ", " : "", rec->settled_keys[s],
                           rec->settled_values[s]));
    if (rec->nsettled)
        RD_TRY(rd_buf_addstr(out, " (settled)"));
    for (size_t s = 0; s < rec->nopen; s++)
        RD_TRY(rd_buf_addf(out, "%s%s", s ? ", " : rec->nsettled ? "; " : "", rec->open_keys[s]));
    return rec->nopen ? rd_buf_addstr(out, ": open") : RD_OK;
}

/* One value's decision (within[]): "clear: bun", "equivalent within 5 %:
 * bun, deno", "inconclusive (3 candidates; about 12 runs per config would
 * settle it)", with the labels it settles or leaves open. */
static rd_status within_part_text(const struct rd_rworkload *w, const struct rd_rwithin *p,
                                  double margin, struct rd_buf *out)
{
    const struct rd_rrecommendation *rec = p->rec;
    const struct rd_rdecision *dc = &rec->primary;
    int r = dc->recommended ? rd_workload_find(w, dc->recommended) : -1;
    RD_TRY(rd_buf_addf(out, "%s: ", p->name));
    switch (dc->decision) {
    case RD_DECISION_CLEAR:
        return rd_buf_addf(out, "clear, %s", r >= 0 ? w->configs[r].name : RD_UNDEF);
    case RD_DECISION_EQUIVALENT: {
        RD_TRY(rd_buf_addstr(out, "equivalent"));
        if (isfinite(margin))
            RD_TRY(rd_buf_addf(out, " within %g %%", margin));
        size_t n = 0;
        for (size_t k = 0; k < dc->nverdicts; k++) {
            const struct rd_rverdict *v = &dc->verdicts[k];
            int i = rd_workload_find(w, v->config);
            if (i < 0 || (v->verdict != RD_VERDICT_BEST && v->verdict != RD_VERDICT_EQUIVALENT))
                continue;
            RD_TRY(rd_buf_addf(out, "%s%s", n++ ? ", " : ": ", w->configs[i].name));
        }
        if (r >= 0)
            RD_TRY(rd_buf_addf(out, " (%s chosen)", w->configs[r].name));
        return labels_text(rec, out);
    }
    case RD_DECISION_INCONCLUSIVE: {
        size_t n = 0;
        for (size_t k = 0; k < dc->nverdicts; k++)
            n += dc->verdicts[k].verdict == RD_VERDICT_INCONCLUSIVE ||
                 dc->verdicts[k].verdict == RD_VERDICT_BEST;
        RD_TRY(rd_buf_addf(out, "inconclusive (%zu candidates", n));
        if (isfinite(dc->runs_needed))
            RD_TRY(rd_buf_addf(out, "; about %.0f runs per config would settle it",
                               dc->runs_needed));
        RD_TRY(rd_buf_addch(out, ')'));
        return labels_text(rec, out);
    }
    default:
        return rd_buf_addstr(out, "no decision");
    }
}

rd_status rd_decision_text(const struct rd_rworkload *w, struct rd_buf *out)
{
    const struct rd_rrecommendation *rec = w->rec;
    if (rec && rec->nwithin) {
        /* Decided within a label: a decision per value, not one. */
        double m = isfinite(rec->margin) ? rec->margin * 100 : NAN;
        for (size_t p = 0; p < rec->nwithin; p++) {
            RD_TRY(rd_buf_addstr(out, p ? "; " : ""));
            RD_TRY(within_part_text(w, &rec->within[p], m, out));
        }
        return RD_OK;
    }
    double margin = rec && isfinite(rec->margin) ? rec->margin * 100 : NAN;
    switch (rd_workload_decision(w)) {
    case RD_DECISION_CLEAR:
        return rd_buf_addstr(out, "clear");
    case RD_DECISION_EQUIVALENT:
        RD_TRY(rd_buf_addstr(out, "equivalent"));
        if (isfinite(margin))
            RD_TRY(rd_buf_addf(out, " within %g %%", margin));
        RD_TRY(rd_buf_addstr(out, ": "));
        RD_TRY(list_names(w, RD_VERDICT_EQUIVALENT, true, out));
        RD_TRY(tie_text(w, out));
        return labels_text(rec, out);
    case RD_DECISION_INCONCLUSIVE: {
        RD_TRY(rd_buf_addstr(out, "inconclusive: "));
        double need = rec->primary.runs_needed, have = fewest_runs(w);
        if (isfinite(need)) {
            bool more = isfinite(have) && need > have;
            RD_TRY(rd_buf_addstr(out, "about "));
            /* thousands separated, as every other count of the report */
            RD_TRY(rd_fmt_fixed(out, more ? need - have : need, 0));
            RD_TRY(rd_buf_addstr(out, more ? " more runs per config would settle it"
                                           : " runs per config would settle it"));
        } else
            RD_TRY(rd_buf_addstr(out, "a difference at the margin may not settle with more runs"));
        size_t n = 0;
        for (size_t k = 0; k < rec->primary.nverdicts; k++)
            n += rec->primary.verdicts[k].verdict == RD_VERDICT_INCONCLUSIVE ||
                 rec->primary.verdicts[k].verdict == RD_VERDICT_BEST;
        RD_TRY(rd_buf_addf(out, " (%zu candidates)", n));
        return labels_text(rec, out);
    }
    case RD_DECISION_NO_DATA:
        return rd_buf_addstr(out, "no decision: no config has enough good runs within its limits");
    case RD_DECISION_UNKNOWN:
        break;
    }
    return RD_OK;
}

rd_status rd_verdict_ratio_text(const struct rd_rworkload *w, const struct rd_rverdict *v,
                                const char *metric, struct rd_buf *out)
{
    if (!v || v->verdict == RD_VERDICT_BEST || v->verdict == RD_VERDICT_DISQUALIFIED)
        return rd_buf_addstr(out, RD_UNDEF);
    struct rd_metric_def def;
    rd_metric_describe(metric ? metric : w->metric ? w->metric : "", &def);
    double lo, hi;
    rd_verdict_shown_ci(v, &lo, &hi);
    RD_TRY(rd_fmt_relative(out, v->ratio, lo, hi, def.unit));
    if (v->eliminated && isnan(lo) && v->elim_note)
        return rd_buf_addf(out, "; %s", v->elim_note);
    return v->exact ? rd_buf_addstr(out, ", exact") : RD_OK;
}

double rd_verdict_level(const struct rd_report *r, const struct rd_rworkload *w)
{
    /* verdict_alpha is the primary's level as its verdicts used it: the
     * look's, the race's share taken off. An analysis before it has
     * alpha_look with a planned maximum, and the report-wide alpha is
     * only the plan's (a race without a planned maximum judged at 0.9 of
     * it, which such an analysis does not say). */
    if (w->rec && isfinite(w->rec->primary.alpha))
        return 100 * (1 - w->rec->primary.alpha);
    if (w->rec && isfinite(w->rec->alpha_look))
        return 100 * (1 - w->rec->alpha_look);
    return isfinite(r->alpha) ? 100 * (1 - r->alpha) : 95;
}

bool rd_means_paired(const struct rd_rworkload *w)
{
    return w->rec && w->rec->paired && w->rec->primary.nverdicts;
}

void rd_verdict_shown_ci(const struct rd_rverdict *v, double *lo, double *hi)
{
    bool elim = v->eliminated && isnan(v->ratio_ci_low);
    *lo = elim ? v->elim_ci_low : v->ratio_ci_low;
    *hi = elim ? v->elim_ci_high : v->ratio_ci_high;
}

rd_status rd_verdict_text(const struct rd_rworkload *w, const struct rd_rverdict *v,
                          struct rd_buf *out)
{
    char phrase[64];
    const char *word = rd_config_verdict_phrase(w, v, phrase, sizeof phrase);
    if (!word)
        return rd_buf_addstr(out, RD_UNDEF);
    RD_TRY(rd_buf_addstr(out, word));
    if (v->verdict == RD_VERDICT_INCONCLUSIVE && isfinite(v->runs_needed))
        return rd_buf_addf(out, " (%.0f runs)", v->runs_needed);
    if (v->verdict == RD_VERDICT_DISQUALIFIED && v->why)
        return rd_buf_addf(out, ": %s", v->why);
    return RD_OK;
}

void rd_compare(const struct rd_rworkload *w, int x, int ref, double *ratio,
                double *lo, double *hi, double *p_holm)
{
    *ratio = *lo = *hi = *p_holm = NAN;
    if (x < 0 || ref < 0)
        return;
    bool swapped;
    const struct rd_rpair *p = rd_workload_pair(w, w->configs[x].id, w->configs[ref].id, &swapped);
    if (p) {
        double r = p->ratio, l = p->ratio_ci_low, h = p->ratio_ci_high;
        *p_holm = p->p_holm;
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
    double mx = rd_primary(&w->configs[x])->mean;
    double mr = rd_primary(&w->configs[ref])->mean;
    if (isfinite(mx) && isfinite(mr) && mr != 0)
        *ratio = mx / mr;
}

/* ---- the pass/fail matrix ---- */

static bool is_bool_metric(const char *name)
{
    struct rd_metric_def def;
    rd_metric_describe(name, &def);
    return def.unit && strcmp(def.unit, "bool") == 0;
}

bool rd_workload_categorical(const struct rd_rworkload *w)
{
    if (!w->metric || w->nconfigs == 0)
        return false;
    struct rd_metric_def def;
    rd_metric_describe(w->metric, &def);
    if (def.unit && strcmp(def.unit, "bool") == 0)
        return true;
    if (!def.unit || strcmp(def.unit, "count") != 0)
        return false;
    for (size_t i = 0; i < w->nconfigs; i++)
        for (size_t m = 0; m < w->configs[i].nmetrics; m++)
            if (is_bool_metric(w->configs[i].metrics[m].metric))
                return true;
    return false;
}

/* The rows: every bool metric of any config, in first-seen order (the
 * analysis sorts metrics by name); with a bool primary, just that one. */
static rd_status matrix_rows(const struct rd_rworkload *w, struct rd_matrix *m)
{
    size_t cap = 1;
    for (size_t i = 0; i < w->nconfigs; i++)
        cap += w->configs[i].nmetrics;
    m->metrics = rd_arena_alloc(&m->arena, cap * sizeof *m->metrics);
    m->labels = rd_arena_alloc(&m->arena, cap * sizeof *m->labels);
    if (!m->metrics || !m->labels)
        return RD_ERR_NOMEM;
    if (is_bool_metric(w->metric)) {
        m->metrics[m->nrows++] = w->metric;
    } else {
        for (size_t i = 0; i < w->nconfigs; i++) {
            for (size_t k = 0; k < w->configs[i].nmetrics; k++) {
                const char *name = w->configs[i].metrics[k].metric;
                bool seen = !is_bool_metric(name);
                for (size_t r = 0; r < m->nrows && !seen; r++)
                    seen = strcmp(m->metrics[r], name) == 0;
                if (!seen)
                    m->metrics[m->nrows++] = name;
            }
        }
    }
    /* "compat_express_ok" is "express": without the prefix every row
     * shares (up to an underscore) and the _ok suffix. */
    size_t pre = m->nrows > 1 ? strlen(m->metrics[0]) : 0;
    for (size_t r = 1; r < m->nrows; r++) {
        size_t k = 0;
        while (k < pre && m->metrics[r][k] == m->metrics[0][k])
            k++;
        pre = k;
    }
    while (pre > 0 && m->metrics[0][pre - 1] != '_')
        pre--;
    for (size_t r = 0; r < m->nrows; r++) {
        const char *s = m->metrics[r] + pre;
        size_t n = strlen(s);
        if (n > 3 && strcmp(s + n - 3, "_ok") == 0)
            n -= 3;
        if (n == 0) {
            s = m->metrics[r];
            n = strlen(s);
        }
        if (!(m->labels[r] = rd_arena_strndup(&m->arena, s, n)))
            return RD_ERR_NOMEM;
    }
    return RD_OK;
}

/* The failed checks' error texts analyze embedded (check_errors[]): a
 * config's cell takes the first one of its workload, labels and metric. */
static void cell_errors(const struct rd_report *r, const struct rd_rworkload *w,
                        struct rd_matrix *m)
{
    for (size_t e = 0; e < r->ncheck_errors; e++) {
        const struct rd_rcheck_error *x = &r->check_errors[e];
        if (strcmp(x->workload, w->name) != 0)
            continue;
        int col = -1;
        for (size_t i = 0; i < w->nconfigs && col < 0; i++) {
            const struct rd_rconfig *c = &w->configs[i];
            bool same = c->nlabels == x->nlabels;
            for (size_t l = 0; l < c->nlabels && same; l++) {
                const char *v = NULL;
                for (size_t k = 0; k < x->nlabels && !v; k++)
                    if (x->labels[k].key && strcmp(x->labels[k].key, c->labels[l].key) == 0)
                        v = x->labels[k].value;
                same = v && c->labels[l].value && strcmp(v, c->labels[l].value) == 0;
            }
            if (same)
                col = (int)i;
        }
        for (size_t row = 0; col >= 0 && row < m->nrows; row++) {
            struct rd_mcell *cell = &m->cells[row * m->ncols + (size_t)col];
            if (!cell->error && cell->passed < cell->runs &&
                strcmp(m->metrics[row], x->metric) == 0)
                cell->error = x->error;
        }
    }
}

rd_status rd_matrix_make(const struct rd_report *r, const struct rd_rworkload *w,
                         struct rd_matrix *m)
{
    memset(m, 0, sizeof *m);
    rd_arena_init(&m->arena);
    RD_TRY(matrix_rows(w, m));
    m->ncols = w->nconfigs;
    m->cells = rd_arena_alloc(&m->arena, (m->nrows * m->ncols + 1) * sizeof *m->cells);
    if (!m->cells)
        return RD_ERR_NOMEM;
    bool failed = false;
    for (size_t row = 0; row < m->nrows; row++) {
        for (size_t c = 0; c < m->ncols; c++) {
            const struct rd_rstats *s = rd_config_stats(&w->configs[c], m->metrics[row]);
            struct rd_mcell *cell = &m->cells[row * m->ncols + c];
            *cell = (struct rd_mcell){ 0, NAN, NULL };
            if (!s || s->nvalues == 0)
                continue;
            cell->runs = (double)s->nvalues;
            for (size_t k = 0; k < s->nvalues; k++)
                cell->passed += s->values[k] > 0;
            failed = failed || cell->passed < cell->runs;
        }
    }
    if (!failed)
        return RD_OK;
    cell_errors(r, w, m);
    return RD_OK;
}

void rd_matrix_release(struct rd_matrix *m)
{
    rd_arena_release(&m->arena);
    memset(m, 0, sizeof *m);
}

rd_status rd_mcell_mark(const struct rd_mcell *c, struct rd_buf *out)
{
    if (!isfinite(c->runs))
        return rd_buf_addstr(out, RD_UNDEF);
    if (c->passed >= c->runs)
        return rd_buf_addstr(out, "\xe2\x9c\x93");
    if (c->passed == 0)
        return rd_buf_addstr(out, "\xe2\x9c\x97");
    return rd_buf_addf(out, "\xe2\x9c\x97 %.0f/%.0f", c->passed, c->runs);
}

rd_status rd_reason_with_look(const struct rd_rrecommendation *rec, double alpha,
                              struct rd_buf *out)
{
    if (!rec || !rec->reason)
        return RD_OK;
    RD_TRY(rd_buf_addstr(out, rec->reason));
    bool early = rec->fraction < 1, later = rec->fraction_before > 0;
    bool look = isfinite(rec->alpha_look) && (early || later);
    if (!look && !rec->paired)
        return RD_OK;
    /* the reason may end on a parenthesis, not a full stop */
    size_t n = strlen(rec->reason);
    if (n && rec->reason[n - 1] != '.')
        RD_TRY(rd_buf_addstr(out, "."));
    if (look) {
        RD_TRY(rd_buf_addf(out, " Judged at α = %.3g, below %g: ", rec->alpha_look,
                           isfinite(alpha) ? alpha : 0.05));
        if (early)
            RD_TRY(rd_buf_addf(out, "the runs are %.0f %% of the planned maximum%s.",
                               100 * rec->fraction,
                               later ? ", and earlier looks spent some" : ""));
        else
            RD_TRY(rd_buf_addstr(out, "earlier looks spent the rest."));
    }
    if (rec->paired)
        RD_TRY(rd_buf_addstr(out, " Compared within rounds: each config against the best by "
                                  "the ratios of their runs of the same round, at Bonferroni's "
                                  "critical values."));
    return RD_OK;
}
