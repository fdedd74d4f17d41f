/*
 * tex - report.tex: the recommendations and each workload's table as
 * LaTeX floats, booktabs rules and siunitx S columns (aligned on the
 * decimal marker), a caption and a label each, ready to \input into a
 * paper whose preamble loads booktabs and siunitx. A pass/fail workload is
 * its matrix.
 *
 * Numbers are written without thousands separators (siunitx groups digits
 * itself) with the decimals rundown/numfmt.h gives the text report; text
 * from the analysis goes through rd_escape_latex, and the few non-ASCII
 * signs the number style uses (×, –, —, ±) become LaTeX commands so the
 * file needs no font with them.
 */
#include "backends.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"
#include "verdicts.h"

/* Text for LaTeX: escaped, with the number style's signs as commands. */
static rd_status tex_text(struct rd_buf *out, const char *s)
{
    static const struct { const char *utf8, *tex; } signs[] = {
        { "\xc3\x97", "$\\times$" }, { "\xe2\x80\x93", "--" }, { "\xe2\x80\x94", "---" },
        { "\xc2\xb1", "$\\pm$" }, { "\xe2\x9c\x93", "\\rdpass{}" }, { "\xe2\x9c\x97", "\\rdfail{}" },
    };
    struct rd_buf chunk = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (const char *p = s ? s : ""; *p && st == RD_OK;) {
        size_t i = 0;
        while (i < sizeof signs / sizeof signs[0] &&
               strncmp(p, signs[i].utf8, strlen(signs[i].utf8)) != 0)
            i++;
        if (i < sizeof signs / sizeof signs[0]) {
            st = rd_escape_latex(out, chunk.ptr);
            rd_buf_reset(&chunk);
            if (st == RD_OK)
                st = rd_buf_addstr(out, signs[i].tex);
            p += strlen(signs[i].utf8);
        } else {
            st = rd_buf_addch(&chunk, *p++);
        }
    }
    if (st == RD_OK)
        st = rd_escape_latex(out, chunk.ptr);
    rd_buf_release(&chunk);
    return st;
}

/* A number for an S column: plain digits, or {---} when undefined. */
static rd_status tex_num(struct rd_buf *out, double v, int decimals)
{
    if (!isfinite(v))
        return rd_buf_addstr(out, "{---}");
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
    /* "-0.0" after rounding reads as a sign that is not there. */
    if (tmp[0] == '-' && strspn(tmp + 1, "0.") == strlen(tmp + 1))
        memmove(tmp, tmp + 1, strlen(tmp));
    return rd_buf_addstr(out, tmp);
}

/* What an S column must hold: siunitx's table-format "-5.2". */
struct sfmt {
    int ints, decimals;
    bool sign;
};

static void sfmt_add(struct sfmt *f, double v, int decimals)
{
    if (!isfinite(v))
        return;
    double m = fabs(v);
    int ints = m >= 1 ? (int)floor(log10(m)) + 1 : 1;
    if (ints > f->ints)
        f->ints = ints;
    if (decimals > f->decimals)
        f->decimals = decimals;
    f->sign = f->sign || v < 0;
}

static rd_status sfmt_col(struct rd_buf *out, const struct sfmt *f)
{
    return rd_buf_addf(out, "S[table-format=%s%d.%d]", f->sign ? "-" : "", f->ints ? f->ints : 1,
                       f->decimals);
}

static rd_status begin_table(struct rd_buf *out, const char *caption_tex, const char *label)
{
    RD_TRY(rd_buf_addstr(out, "\\begin{table}[htbp]\n\\centering\\small\n\\caption{"));
    RD_TRY(rd_buf_addstr(out, caption_tex));
    RD_TRY(rd_buf_addstr(out, "}\n\\label{tab:rundown-"));
    RD_TRY(rd_buf_addstr(out, label));
    return rd_buf_addstr(out, "}\n");
}

static rd_status end_table(struct rd_buf *out)
{
    return rd_buf_addstr(out, "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n");
}

/* The decimals a mean is written with, and its CI half-width alike. */
static int mean_decimals(double mean)
{
    return rd_fmt_decimals(mean, 4);
}

static rd_status recommendations(const struct rd_report *r, struct rd_buf *out)
{
    struct sfmt fm = { 0 }, fh = { 0 };
    const size_t shown = rd_report_shown_workloads(r);
    for (size_t wi = 0; wi < shown; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        int i = w->recommended >= 0 ? w->recommended : w->best;
        if (i < 0 || rd_workload_categorical(w))
            continue;
        const struct rd_rstats *s = rd_primary(&w->configs[i]);
        double scale;
        struct rd_metric_def def;
        rd_metric_describe(w->metric ? w->metric : "", &def);
        rd_unit_shown(def.unit, &scale);
        sfmt_add(&fm, s->mean * scale, mean_decimals(s->mean * scale));
        sfmt_add(&fh, (s->ci_high - s->ci_low) / 2 * scale, mean_decimals(s->mean * scale));
    }
    double level = isfinite(r->confidence) ? r->confidence * 100 : 95;
    struct rd_buf cap = RD_BUF_INIT;
    rd_status st = rd_buf_addf(&cap, "Recommendations. For each workload the decision of the "
                                     "verdicts against the best config, the recommended config "
                                     "(or, without one, the config with the best mean) with its "
                                     "mean and the half-width of its %g\\,\\%% confidence "
                                     "interval.", level);
    if (st == RD_OK && shown < r->nworkloads)
        st = rd_buf_addf(&cap, " The first %zu of %zu workloads; summary.csv lists every one.",
                         shown, r->nworkloads);
    if (st == RD_OK) st = begin_table(out, cap.ptr, "recommendations");
    rd_buf_release(&cap);
    if (st == RD_OK) st = rd_buf_addstr(out, "\\begin{tabular}{@{}l p{0.2\\linewidth} p{0.3\\linewidth} ");
    if (st == RD_OK) st = sfmt_col(out, &fm);
    if (st == RD_OK) st = rd_buf_addch(out, ' ');
    if (st == RD_OK) st = sfmt_col(out, &fh);
    if (st == RD_OK)
        st = rd_buf_addstr(out, " l@{}}\n\\toprule\nWorkload & Config & Decision & {Mean} & "
                                "{$\\pm$} & Unit \\\\\n\\midrule\n");
    struct rd_buf t = RD_BUF_INIT;
    for (size_t wi = 0; wi < shown && st == RD_OK; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        bool cat = rd_workload_categorical(w);
        int i = cat ? -1 : w->recommended >= 0 ? w->recommended : w->best;
        st = tex_text(out, w->name);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        if (st == RD_OK) st = tex_text(out, i >= 0 ? w->configs[i].name : RD_UNDEF);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        rd_buf_reset(&t);
        if (st == RD_OK)
            st = cat ? rd_buf_addstr(&t, "pass/fail (see its table)") : rd_decision_text(w, &t);
        if (st == RD_OK && w->recommended < 0 && i >= 0)
            st = rd_buf_addstr(&t, t.len ? "; best mean shown" : "best mean shown");
        if (st == RD_OK) st = tex_text(out, t.len ? t.ptr : RD_UNDEF);
        struct rd_metric_def def;
        rd_metric_describe(w->metric ? w->metric : "", &def);
        double scale;
        const char *unit = rd_unit_shown(def.unit, &scale);
        const struct rd_rstats *s = i >= 0 ? rd_primary(&w->configs[i]) : &rd_rstats_none;
        int dec = mean_decimals(s->mean * scale);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        if (st == RD_OK) st = tex_num(out, s->mean * scale, dec);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        if (st == RD_OK) st = tex_num(out, (s->ci_high - s->ci_low) / 2 * scale, dec);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        if (st == RD_OK) st = tex_text(out, i >= 0 ? unit : "");
        if (st == RD_OK) st = rd_buf_addstr(out, " \\\\\n");
    }
    rd_buf_release(&t);
    return st == RD_OK ? end_table(out) : st;
}

static rd_status matrix_table(const struct rd_report *r, const struct rd_rworkload *w,
                              struct rd_buf *out)
{
    const struct rd_matrix m = *w->matrix;
    rd_status st = RD_OK;
    struct rd_buf cap = RD_BUF_INIT;
    if (st == RD_OK) st = tex_text(&cap, w->name);
    if (st == RD_OK)
        st = rd_buf_addstr(&cap, ": pass/fail of each check per config (\\rdpass{} every run "
                                 "passed, \\rdfail{} none did, \\rdfail{}~$k$/$n$ when $k$ of "
                                 "$n$ runs passed).");
    if (st == RD_OK) st = begin_table(out, cap.ptr, w->file);
    rd_buf_release(&cap);
    if (st == RD_OK) st = rd_buf_addstr(out, "\\begin{tabular}{l");
    for (size_t c = 0; c < m.ncols && st == RD_OK; c++)
        st = rd_buf_addstr(out, " c");
    if (st == RD_OK) st = rd_buf_addstr(out, "}\n\\toprule\nCheck");
    for (size_t c = 0; c < m.ncols && st == RD_OK; c++) {
        st = rd_buf_addstr(out, " & ");
        if (st == RD_OK) st = tex_text(out, w->configs[c].name);
    }
    if (st == RD_OK) st = rd_buf_addstr(out, " \\\\\n\\midrule\n");
    struct rd_buf mark = RD_BUF_INIT;
    for (size_t row = 0; row < m.nrows && st == RD_OK; row++) {
        st = tex_text(out, m.labels[row]);
        for (size_t c = 0; c < m.ncols && st == RD_OK; c++) {
            rd_buf_reset(&mark);
            st = rd_mcell_mark(&m.cells[row * m.ncols + c], &mark);
            if (st == RD_OK) st = rd_buf_addstr(out, " & ");
            if (st == RD_OK) st = tex_text(out, mark.ptr);
        }
        if (st == RD_OK) st = rd_buf_addstr(out, " \\\\\n");
    }
    rd_buf_release(&mark);
    return st == RD_OK ? end_table(out) : st;
}

static rd_status workload_table(const struct rd_report *r, const struct rd_rworkload *w,
                                struct rd_buf *out)
{
    if (rd_workload_categorical(w))
        return matrix_table(r, w, out);
    if (!w->metric || w->nconfigs == 0)
        return RD_OK;
    struct rd_metric_def def;
    rd_metric_describe(w->metric, &def);
    double scale;
    const char *unit = rd_unit_shown(def.unit, &scale);
    struct sfmt fn = { 0 }, fm = { 0 }, fh = { 0 };
    for (size_t i = 0; i < w->nconfigs; i++) {
        const struct rd_rstats *s = rd_primary(&w->configs[i]);
        int dec = mean_decimals(s->mean * scale);
        sfmt_add(&fn, s->n, 0);
        sfmt_add(&fm, s->mean * scale, dec);
        sfmt_add(&fh, (s->ci_high - s->ci_low) / 2 * scale, dec);
    }
    double conf = isfinite(r->confidence) ? r->confidence * 100 : 95;
    double level = isfinite(r->alpha) ? (1 - r->alpha) * 100 : 95;
    struct rd_buf cap = RD_BUF_INIT, t = RD_BUF_INIT;
    rd_status st = tex_text(&cap, w->name);
    if (st == RD_OK) st = rd_buf_addstr(&cap, ": ");
    if (st == RD_OK) st = rd_fmt_metric(&t, w->metric, false);
    if (st == RD_OK) st = tex_text(&cap, t.ptr);
    if (st == RD_OK && *unit) {
        rd_buf_reset(&t);
        st = rd_buf_addf(&t, " (%s, %s)", unit, rd_better_words(w->better));
        if (st == RD_OK) st = tex_text(&cap, t.ptr);
    }
    if (st == RD_OK)
        st = rd_buf_addf(&cap, ". Mean of $n$ runs with the half-width of its %g\\,\\%% "
                               "confidence interval; each config's verdict against the best, and "
                               "its ratio to the best with the simultaneous %g\\,\\%% interval "
                               "the verdict used.", conf, level);
    if (st == RD_OK && w->rec && w->rec->reason) {
        st = rd_buf_addch(&cap, ' ');
        if (st == RD_OK) st = tex_text(&cap, w->rec->reason);
        if (st == RD_OK) st = rd_buf_addch(&cap, '.');
    }
    if (st == RD_OK) st = begin_table(out, cap.ptr, w->file);
    rd_buf_release(&cap);
    if (st == RD_OK) st = rd_buf_addstr(out, "\\begin{tabular}{l ");
    if (st == RD_OK) st = sfmt_col(out, &fn);
    if (st == RD_OK) st = rd_buf_addch(out, ' ');
    if (st == RD_OK) st = sfmt_col(out, &fm);
    if (st == RD_OK) st = rd_buf_addch(out, ' ');
    if (st == RD_OK) st = sfmt_col(out, &fh);
    if (st == RD_OK)
        st = rd_buf_addstr(out, " l l}\n\\toprule\nConfig & {$n$} & {Mean} & {$\\pm$} & "
                                "Verdict & Ratio to the best \\\\\n\\midrule\n");
    for (size_t i = 0; i < w->nconfigs && st == RD_OK; i++) {
        const struct rd_rconfig *c = &w->configs[i];
        const struct rd_rstats *s = rd_primary(c);
        const struct rd_rverdict *v = rd_config_verdict(w, (int)i);
        int dec = mean_decimals(s->mean * scale);
        st = tex_text(out, c->name);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        if (st == RD_OK) st = tex_num(out, s->n, 0);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        if (st == RD_OK) st = tex_num(out, s->mean * scale, dec);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        if (st == RD_OK) st = tex_num(out, (s->ci_high - s->ci_low) / 2 * scale, dec);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        char phrase[64];
        const char *word = rd_config_verdict_phrase(w, v, phrase, sizeof phrase);
        if (st == RD_OK) st = tex_text(out, word ? word : RD_UNDEF);
        if (st == RD_OK) st = rd_buf_addstr(out, " & ");
        rd_buf_reset(&t);
        if (st == RD_OK) st = rd_verdict_ratio_text(w, v, NULL, &t);
        if (st == RD_OK) st = tex_text(out, t.ptr);
        if (st == RD_OK) st = rd_buf_addstr(out, " \\\\\n");
    }
    rd_buf_release(&t);
    return st == RD_OK ? end_table(out) : st;
}

/* "3.21×", "at least 2.00×", "at most 0.500×". */
static rd_status claimed_text(struct rd_buf *t, const struct rd_rclaim *c)
{
    if (isfinite(c->claimed_ratio))
        return rd_fmt_ratio(t, c->claimed_ratio);
    bool min = isfinite(c->claimed_min);
    RD_TRY(rd_buf_addstr(t, min ? "at least " : "at most "));
    return rd_fmt_ratio(t, min ? c->claimed_min : c->claimed_max);
}

/* The published studies' claims judged here (the Replication section's
 * first table; the figures stay in report.md and report.xlsx). */
static rd_status claims_table(const struct rd_report *r, struct rd_buf *out)
{
    if (r->nclaims == 0)
        return RD_OK;
    struct rd_buf cap = RD_BUF_INIT, t = RD_BUF_INIT;
    rd_status st = rd_buf_addf(&cap, "Published claims set against this machine. Each study's "
                                     "ratio of two configs (or order of configs) beside this "
                                     "machine's ratio of means with its %g\\,\\%% Fieller "
                                     "interval, or each pair of an order with its Holm-adjusted "
                                     "p, and the judgement.",
                               isfinite(r->confidence) ? r->confidence * 100 : 95);
    if (st == RD_OK) st = begin_table(out, cap.ptr, "claims");
    if (st == RD_OK)
        st = rd_buf_addstr(out, "\\begin{tabular}{@{}l p{0.3\\linewidth} l l p{0.25\\linewidth} "
                                "l@{}}\n\\toprule\nStudy & Claim & Metric & Published & Here & "
                                "Judgement \\\\\n\\midrule\n");
    for (size_t i = 0; i < r->nclaims && st == RD_OK; i++) {
        const struct rd_rclaim *c = &r->claims[i];
        bool ratio = c->kind && strcmp(c->kind, "ratio") == 0;
        const char *cells[6] = { c->study, c->text, c->metric, NULL, NULL,
                                 c->judgement ? c->judgement : "not evaluated" };
        for (size_t k = 0; k < 6 && st == RD_OK; k++) {
            rd_buf_reset(&t);
            if (k == 3 && ratio)
                st = claimed_text(&t, c);
            else if (k == 3)
                st = rd_buf_addstr(&t, c->kind && strcmp(c->kind, "best") == 0 ? "the best"
                                                                               : "in this order");
            else if (k == 4 && ratio)
                st = rd_fmt_ratio_ci(&t, c->ratio, c->ratio_ci_low, c->ratio_ci_high);
            for (size_t p = 0; k == 4 && !ratio && p < c->npairs && st == RD_OK; p++) {
                st = rd_fmt_ratio_ci(&t, c->pairs[p].ratio, c->pairs[p].ratio_ci_low,
                                c->pairs[p].ratio_ci_high);
                if (st == RD_OK) st = rd_buf_addstr(&t, ", Holm p ");
                if (st == RD_OK) st = rd_fmt_p(&t, c->pairs[p].p_holm);
                if (st == RD_OK && p + 1 < c->npairs) st = rd_buf_addstr(&t, "; ");
            }
            if (st == RD_OK && k > 0) st = rd_buf_addstr(out, " & ");
            if (st == RD_OK && k == 3 && ratio && c->approx) st = rd_buf_addstr(out, "$\\sim$");
            if (st == RD_OK) st = tex_text(out, k == 3 || k == 4 ? (t.len ? t.ptr : RD_UNDEF)
                                                                 : cells[k] ? cells[k] : RD_UNDEF);
        }
        if (st == RD_OK) st = rd_buf_addstr(out, " \\\\\n");
    }
    rd_buf_release(&cap);
    rd_buf_release(&t);
    return st == RD_OK ? end_table(out) : st;
}

/* The Across machines table: every config against the reference on each
 * machine and between machines, and whether the machines agree. */
static rd_status machines_table(const struct rd_report *r, struct rd_buf *out)
{
    if (r->nmachines == 0)
        return RD_OK;
    struct rd_buf cap = RD_BUF_INIT, t = RD_BUF_INIT;
    rd_status st = rd_buf_addf(&cap, "Across machines. Each config against the reference (the "
                                     "config best on most machines) by the ratio of means, on "
                                     "each machine with its %g\\,\\%% interval (log scale) and "
                                     "between machines (machines as a random level); the "
                                     "machines differ when Cochran's Q is significant.",
                               isfinite(r->confidence) ? r->confidence * 100 : 95);
    if (st == RD_OK) st = begin_table(out, cap.ptr, "machines");
    if (st == RD_OK)
        st = rd_buf_addstr(out, "\\begin{tabular}{@{}l l p{0.35\\linewidth} l l@{}}\n\\toprule\n"
                                "Workload & Config / reference & Each machine & Between "
                                "machines & Machines \\\\\n\\midrule\n");
    for (size_t i = 0; i < r->nmachines && st == RD_OK; i++) {
        const struct rd_rmachines *m = &r->machines[i];
        for (size_t c = 0; c < m->ncmps && st == RD_OK; c++) {
            const struct rd_rmachine_cmp *x = &m->cmps[c];
            for (size_t k = 0; k < 5 && st == RD_OK; k++) {
                rd_buf_reset(&t);
                if (k == 0)
                    st = rd_buf_addstr(&t, m->workload ? m->workload : RD_UNDEF);
                else if (k == 1)
                    st = rd_buf_addf(&t, "%s / %s", x->config ? x->config : RD_UNDEF,
                                     m->reference ? m->reference : RD_UNDEF);
                for (size_t p = 0; k == 2 && p < x->nper && st == RD_OK; p++) {
                    st = rd_buf_addf(&t, "%s%s ", p ? "; " : "",
                                     x->per[p].machine ? x->per[p].machine : RD_UNDEF);
                    if (st == RD_OK)
                        st = rd_fmt_ratio_ci(&t, x->per[p].ratio, x->per[p].ratio_ci_low,
                                             x->per[p].ratio_ci_high);
                }
                if (k == 3)
                    st = rd_fmt_ratio_ci(&t, x->k >= 2 ? x->ratio : NAN, x->ratio_ci_low,
                                         x->ratio_ci_high);
                if (k == 4 && !(x->k >= 2)) {
                    st = rd_buf_addstr(&t, "one machine only");
                } else if (k == 4) {
                    st = rd_buf_addstr(&t, x->consistent ? "agree (p " : "differ (p ");
                    if (st == RD_OK) st = rd_fmt_p(&t, x->p);
                    if (st == RD_OK) st = rd_buf_addch(&t, ')');
                }
                if (st == RD_OK && k > 0) st = rd_buf_addstr(out, " & ");
                if (st == RD_OK) st = tex_text(out, t.len ? t.ptr : RD_UNDEF);
            }
            if (st == RD_OK) st = rd_buf_addstr(out, " \\\\\n");
        }
    }
    rd_buf_release(&cap);
    rd_buf_release(&t);
    return st == RD_OK ? end_table(out) : st;
}

rd_status rd_render_tex(const struct rd_report *r, struct rd_buf *out)
{
    RD_TRY(rd_buf_addstr(out, "% report.tex - written by rundown " RD_VERSION " from the analysis"));
    RD_TRY(rd_buf_addstr(out, ".\n% \\input{report.tex} in a document whose preamble has\n"
                              "%   \\usepackage{booktabs}\n%   \\usepackage{siunitx}\n"
                              "% Every table is a float with a caption and a label "
                              "(tab:rundown-recommendations,\n% tab:rundown-<workload>).\n"
                              "\\providecommand{\\rdpass}{$\\surd$}\n"
                              "\\providecommand{\\rdfail}{$\\times$}\n\n"));
    RD_TRY(recommendations(r, out));
    for (size_t wi = 0; wi < rd_report_shown_workloads(r); wi++)
        RD_TRY(workload_table(r, &r->workloads[wi], out));
    RD_TRY(machines_table(r, out));
    return claims_table(r, out);
}
