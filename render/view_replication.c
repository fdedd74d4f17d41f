/*
 * view_replication - the Replication section: each published study's
 * relative claims (ratios, orders) beside this machine's ratio with its
 * CI and the judgement, a count per study, then the absolute figures as
 * context (docs/render.md, "Replication"). Reads the model only.
 */
#include "lookup.h"
#include "view.h"
#include "view_replication.h"
#include "viewtext.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rundown/metrics.h"
#include "rundown/numfmt.h"

/* "30,500 req/s (sd 1,200, n = 5)", "~4.000 ms", "103,821 req/s (best of
 * 10)": the sd is labelled, since ± is a CI everywhere else. */
static void replication_value(struct vb *v, double value, double sd, double n,
                              const char *unit, const char *stat, bool approx)
{
    if (!isfinite(value)) {
        chk(v, rd_buf_addstr(&v->b, RD_UNDEF));
        return;
    }
    if (approx)
        chk(v, rd_buf_addch(&v->b, '~'));
    double scale;
    const char *shown = rd_unit_shown(unit, &scale);
    chk(v, rd_fmt_num(&v->b, value * scale, 4));
    if (*shown)
        chk(v, rd_buf_addf(&v->b, " %s", shown));
    /* best, min, max, median: the statistic itself; mean or a bare value:
     * only the spread and n. */
    bool mean = !stat || !(strcmp(stat, "best") == 0 || strcmp(stat, "min") == 0 ||
                           strcmp(stat, "max") == 0 || strcmp(stat, "median") == 0);
    size_t open = v->b.len;
    chk(v, rd_buf_addstr(&v->b, " ("));
    size_t body = v->b.len;
    if (isfinite(sd)) {
        chk(v, rd_buf_addstr(&v->b, "sd "));
        chk(v, rd_fmt_fixed(&v->b, sd * scale, rd_fmt_decimals(value * scale, 4)));
    }
    const char *sep = v->b.len > body ? ", " : "";
    if (!mean && isfinite(n))
        chk(v, rd_buf_addf(&v->b, "%s%s of %g", sep, stat, n));
    else if (!mean)
        chk(v, rd_buf_addf(&v->b, "%s%s", sep, stat));
    else if (isfinite(n))
        chk(v, rd_buf_addf(&v->b, "%sn = %g", sep, n));
    if (v->b.len == body)
        rd_buf_truncate(&v->b, open);
    else
        chk(v, rd_buf_addch(&v->b, ')'));
}

static void view_figures(struct vb *v, const struct rd_report *r, struct rd_tval *rep)
{
    struct rd_tval *rows = arr(v, rep, "rows");
    for (size_t i = 0; i < r->nreplication; i++) {
        const struct rd_rreplication *x = &r->replication[i];
        struct rd_tval *row = obj(v, rows, NULL);
        str(v, row, "study", x->title ? x->title : x->study);
        str(v, row, "machine", x->machine);
        str(v, row, "workload", x->workload);
        /* The config as this report names it when we measured it, else
         * the published labels, so rows of one study stay apart. */
        const char *cfg = x->config;
        for (size_t wi = 0; cfg && x->workload && wi < r->nworkloads; wi++)
            if (strcmp(r->workloads[wi].name, x->workload) == 0)
                cfg = rd_workload_config_name(&r->workloads[wi], cfg);
        if (cfg) {
            str(v, row, "config", cfg);
        } else {
            chk(v, rd_fmt_config_name(&v->b, x->labels, x->nlabels));
            chk(v, rd_buf_addstr(&v->b, v->b.len ? " (not measured here)" : "not measured here"));
            take(v, row, "config");
        }
        rd_view_metric(v, x->metric, false);
        take(v, row, "metric");
        struct rd_metric_def def;
        rd_metric_describe(x->metric ? x->metric : "", &def);
        const char *unit = x->metric ? def.unit : "";
        const char *stat = x->statistic;
        replication_value(v, x->pub_mean, x->pub_sd, x->pub_n, unit, stat, x->approx);
        take(v, row, "published");
        bool mean = !stat || !(strcmp(stat, "best") == 0 || strcmp(stat, "min") == 0 ||
                               strcmp(stat, "max") == 0 || strcmp(stat, "median") == 0);
        replication_value(v, mean ? x->ours_mean : x->ours_statistic, mean ? x->ours_sd : NAN,
                          x->ours_n, unit, stat, false);
        take(v, row, "ours");
        chk(v, rd_fmt_relative(&v->b, x->ratio, x->ratio_ci_low, x->ratio_ci_high, unit));
        take(v, row, "ratio");
        chk(v, rd_fmt_p(&v->b, x->p));
        take(v, row, "p");
        /* What makes the comparison weaker, in words. */
        if (x->note)
            chk(v, rd_buf_addstr(&v->b, x->note));
        if (x->params_differ)
            chk(v, rd_buf_addstr(&v->b, v->b.len ? "; their parameters differ from ours"
                                                 : "their parameters differ from ours"));
        if (v->b.len)
            take(v, row, "note");
        else
            str(v, row, "note", "");
    }
}


static const struct rd_rworkload *find_workload(const struct rd_report *r, const char *name)
{
    for (size_t i = 0; name && i < r->nworkloads; i++)
        if (strcmp(r->workloads[i].name, name) == 0)
            return &r->workloads[i];
    return NULL;
}

/* A claim's config as this report names it, else its labels as given. */
static void claim_config(struct vb *v, const struct rd_rworkload *w,
                         const struct rd_rclaim_config *c)
{
    if (c->id) {
        chk(v, rd_buf_addstr(&v->b, w ? rd_workload_config_name(w, c->id) : c->id));
        return;
    }
    size_t at = v->b.len;
    chk(v, rd_fmt_config_name(&v->b, c->labels, c->nlabels));
    chk(v, rd_buf_addstr(&v->b, v->b.len > at ? " (not here)" : "(not here)"));
}

static void claim_row(struct vb *v, const struct rd_rclaim *c, struct rd_tval *rows)
{
    const struct rd_rworkload *w = find_workload(v->r, c->workload);
    bool ratio = c->kind && strcmp(c->kind, "ratio") == 0;
    bool best = c->kind && strcmp(c->kind, "best") == 0;
    struct rd_tval *row = obj(v, rows, NULL);
    str(v, row, "study", c->study ? c->study : c->title);
    str(v, row, "text", c->text);
    str(v, row, "workload", c->workload);
    /* Ratio: A ÷ B; order: better first; best: the best against the rest. */
    for (size_t i = 0; i < c->nconfigs; i++) {
        if (i)
            chk(v, rd_buf_addstr(&v->b, ratio ? " \xc3\xb7 " : best && i == 1 ? " vs " : ", "));
        claim_config(v, w, &c->configs[i]);
    }
    take(v, row, "configs");
    rd_view_metric(v, c->metric, false);
    take(v, row, "metric");
    const char *dir = c->better && strcmp(c->better, "higher") == 0  ? "higher is better"
                      : c->better && strcmp(c->better, "lower") == 0 ? "lower is better"
                                                                      : NULL;
    if (ratio) {
        if (c->approx)
            chk(v, rd_buf_addch(&v->b, '~'));
        if (isfinite(c->claimed_ratio)) {
            chk(v, rd_fmt_ratio(&v->b, c->claimed_ratio));
        } else if (isfinite(c->claimed_min)) {
            chk(v, rd_buf_addstr(&v->b, "at least "));
            chk(v, rd_fmt_ratio(&v->b, c->claimed_min));
        } else if (isfinite(c->claimed_max)) {
            chk(v, rd_buf_addstr(&v->b, "at most "));
            chk(v, rd_fmt_ratio(&v->b, c->claimed_max));
        }
    } else {
        chk(v, rd_buf_addstr(&v->b, best ? "the best" : "in this order"));
        if (dir)
            chk(v, rd_buf_addf(&v->b, " (%s)", dir));
    }
    take(v, row, "published");
    if (ratio) {
        chk(v, rd_fmt_ratio_ci(&v->b, c->ratio, c->ratio_ci_low, c->ratio_ci_high));
    } else {
        for (size_t i = 0; i < c->npairs; i++) {
            const struct rd_rclaim_pair *p = &c->pairs[i];
            if (i)
                chk(v, rd_buf_addstr(&v->b, "; "));
            chk(v, rd_fmt_ratio_ci(&v->b, p->ratio, p->ratio_ci_low, p->ratio_ci_high));
            chk(v, rd_buf_addstr(&v->b, ", Holm p "));
            chk(v, rd_fmt_p(&v->b, p->p_holm));
            if (p->alike) {
                chk(v, rd_buf_addstr(&v->b, ", alike here (the study: "));
                chk(v, rd_fmt_ratio(&v->b, p->published_ratio));
                chk(v, rd_buf_addstr(&v->b, ")"));
            }
        }
        if (c->npairs == 0)
            chk(v, rd_buf_addstr(&v->b, RD_UNDEF));
    }
    take(v, row, "here");
    str(v, row, "judgement", c->judgement ? c->judgement : "not evaluated");
    flag(v, row, "strong", c->judgement && strcmp(c->judgement, "inconclusive") != 0);
    /* Where it was stated, what weakens it, why it could not be judged,
     * and how it was compared where not on the means. */
    const char *parts[] = { c->ref, c->note, c->params_differ ? "their parameters differ from ours"
                                                              : NULL,
                            c->judgement ? NULL : c->reason };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i])
            chk(v, rd_buf_addf(&v->b, "%s%s", v->b.len ? "; " : "", parts[i]));
    if (c->paired && ratio && isfinite(c->rounds))
        chk(v, rd_buf_addf(&v->b, "%scompared within rounds (%.0f rounds)", v->b.len ? "; " : "",
                           c->rounds));
    else if (c->paired)
        chk(v, rd_buf_addf(&v->b, "%scompared within rounds", v->b.len ? "; " : ""));
    size_t np = 0;
    for (size_t i = 0; i < c->npairs; i++)
        np += c->pairs[i].paired;
    if (!c->paired && np)
        chk(v, rd_buf_addf(&v->b, "%s%zu of %zu pairs compared within rounds",
                           v->b.len ? "; " : "", np, c->npairs));
    take(v, row, "note");
}

/* "Study A: 4 consistent, 1 contradicted, 2 inconclusive" (and how many
 * could not be judged here, when some could not). */
static void claim_studies(struct vb *v, const struct rd_report *r, struct rd_tval *rep)
{
    struct rd_tval *list = arr(v, rep, "studies");
    for (size_t i = 0; i < r->nclaim_studies; i++) {
        const struct rd_rclaim_study *s = &r->claim_studies[i];
        struct rd_tval *row = obj(v, list, NULL);
        chk(v, rd_buf_addf(&v->b, "Study %s", s->study ? s->study : "?"));
        take(v, row, "study");
        str(v, row, "title", s->title);
        double n[] = { s->consistent, s->contradicted, s->inconclusive };
        const char *words[] = { "consistent", "contradicted", "inconclusive" };
        for (size_t k = 0; k < 3; k++)
            chk(v, rd_buf_addf(&v->b, "%s%.0f %s", k ? ", " : "", isfinite(n[k]) ? n[k] : 0,
                               words[k]));
        if (isfinite(s->not_evaluated) && s->not_evaluated > 0)
            chk(v, rd_buf_addf(&v->b, "; %.0f not evaluated here", s->not_evaluated));
        take(v, row, "counts");
    }
}

void rd_view_replication(struct vb *v, const struct rd_report *r, struct rd_tval *root)
{
    if (r->nreplication == 0 && r->nclaims == 0)
        return;
    struct rd_tval *rep = obj(v, root, "replication");
    flag(v, rep, "has_claims", r->nclaims > 0);
    flag(v, rep, "has_figures", r->nreplication > 0);
    flag(v, rep, "paired_claims", rd_report_claims_paired(r));
    chk(v, rd_buf_addf(&v->b, "%g %%", isfinite(r->confidence) ? r->confidence * 100 : 95));
    take(v, rep, "conf");
    if (r->nclaims) {
        claim_studies(v, r, rep);
        struct rd_tval *rows = arr(v, rep, "claims");
        for (size_t i = 0; i < r->nclaims; i++)
            claim_row(v, &r->claims[i], rows);
    }
    if (r->nreplication)
        view_figures(v, r, rep);
}
