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
 *
 * Everything is written through a writer that remembers its first error
 * (rundown/buf.h, struct rd_bw): a table is written call after call and
 * its status looked at once.
 */
#include "backends.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"
#include "lookup.h"
#include "machineline.h"
#include "verdicts.h"

/* Text for LaTeX: escaped, with the number style's signs as commands. */
static void tex_text(struct rd_bw *o, const char *s)
{
    static const struct { const char *utf8, *tex; } signs[] = {
        { "\xc3\x97", "$\\times$" }, { "\xe2\x80\x93", "--" }, { "\xe2\x80\x94", "---" },
        { "\xc2\xb1", "$\\pm$" }, { "\xe2\x9c\x93", "\\rdpass{}" }, { "\xe2\x9c\x97", "\\rdfail{}" },
        { "\xce\xb1", "$\\alpha$" },
    };
    struct rd_buf chunk = RD_BUF_INIT;
    struct rd_bw c = RD_BW_INIT(&chunk);
    for (const char *p = s ? s : ""; *p && o->st == RD_OK && c.st == RD_OK;) {
        size_t i = 0;
        while (i < sizeof signs / sizeof signs[0] &&
               strncmp(p, signs[i].utf8, strlen(signs[i].utf8)) != 0)
            i++;
        if (i < sizeof signs / sizeof signs[0]) {
            rd_bw_ok(o, rd_escape_latex(o->b, chunk.ptr));
            rd_buf_reset(&chunk);
            rd_bw_str(o, signs[i].tex);
            p += strlen(signs[i].utf8);
        } else {
            rd_bw_ch(&c, *p++);
        }
    }
    if (rd_bw_ok(o, c.st))
        rd_bw_ok(o, rd_escape_latex(o->b, chunk.ptr));
    rd_buf_release(&chunk);
}

/* A number for an S column: plain digits, or {---} when undefined. */
static void tex_num(struct rd_bw *o, double v, int decimals)
{
    if (!isfinite(v)) {
        rd_bw_str(o, "{---}");
        return;
    }
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
    /* "-0.0" after rounding reads as a sign that is not there. */
    if (tmp[0] == '-' && strspn(tmp + 1, "0.") == strlen(tmp + 1))
        memmove(tmp, tmp + 1, strlen(tmp));
    rd_bw_str(o, tmp);
}

/* " & " then the cell's text. */
static void tex_cell(struct rd_bw *o, const char *s)
{
    rd_bw_str(o, " & ");
    tex_text(o, s);
}

/* " & " then the cell's number. */
static void tex_cell_num(struct rd_bw *o, double v, int decimals)
{
    rd_bw_str(o, " & ");
    tex_num(o, v, decimals);
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

/* The S columns, each after a blank. */
static void sfmt_cols(struct rd_bw *o, const struct sfmt *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rd_bw_f(o, "%sS[table-format=%s%d.%d]", i ? " " : "", f[i].sign ? "-" : "",
                f[i].ints ? f[i].ints : 1, f[i].decimals);
}

/* The float's head with its caption (LaTeX already) and label. */
static void begin_table(struct rd_bw *o, const struct rd_buf *caption_tex, const char *label)
{
    rd_bw_f(o, "\\begin{table}[htbp]\n\\centering\\small\n\\caption{%s}\n"
               "\\label{tab:rundown-%s}\n", caption_tex->ptr, label);
}

static rd_status end_table(struct rd_bw *o)
{
    rd_bw_str(o, "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n");
    return o->st;
}

/* " " and the sentence of rd_machine_line (how quiet the machine was over
 * the workload's runs), escaped, with a full stop; nothing without one. */
static void machine_sentence(struct rd_bw *cap, const struct rd_rworkload *w)
{
    struct rd_buf t = RD_BUF_INIT;
    if (rd_bw_ok(cap, rd_machine_line(w, &t)) && t.len) {
        t.ptr[0] = 'M'; /* "machine: ..." opens a sentence here */
        rd_bw_ch(cap, ' ');
        tex_text(cap, t.ptr);
        rd_bw_ch(cap, '.');
    }
    rd_buf_release(&t);
}

/* The decimals a mean is written with, and its CI half-width alike. */
static int mean_decimals(double mean)
{
    return rd_fmt_decimals(mean, 4);
}

/* The recommendations table's caption: what it holds, the cap on
 * workloads, the machine at the start of each collection. */
static void recommendations_caption(const struct rd_report *r, size_t shown, struct rd_bw *cap)
{
    double level = isfinite(r->confidence) ? r->confidence * 100 : 95;
    rd_bw_f(cap, "Recommendations. For each workload the decision of the verdicts against the "
                 "best config, the recommended config (or, without one, the config with the "
                 "best mean) with its mean and the half-width of its %g\\,\\%% confidence "
                 "interval.", level);
    if (shown < r->nworkloads)
        rd_bw_f(cap, " The first %zu of %zu workloads; summary.csv lists every one.", shown,
                r->nworkloads);
    struct rd_buf t = RD_BUF_INIT;
    if (rd_bw_ok(cap, rd_machine_start(r, &t)) && t.len) {
        rd_bw_str(cap, " The machine at the start of the collection: ");
        tex_text(cap, t.ptr);
        rd_bw_ch(cap, '.');
    }
    rd_buf_release(&t);
}

static rd_status recommendations(const struct rd_report *r, struct rd_bw *o)
{
    struct sfmt f[2] = { { 0 }, { 0 } };
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
        sfmt_add(&f[0], s->mean * scale, mean_decimals(s->mean * scale));
        sfmt_add(&f[1], (s->ci_high - s->ci_low) / 2 * scale, mean_decimals(s->mean * scale));
    }
    struct rd_buf cap = RD_BUF_INIT, t = RD_BUF_INIT;
    struct rd_bw c = RD_BW_INIT(&cap), tw = RD_BW_INIT(&t);
    recommendations_caption(r, shown, &c);
    if (rd_bw_ok(o, c.st))
        begin_table(o, &cap, "recommendations");
    rd_buf_release(&cap);
    rd_bw_str(o, "\\begin{tabular}{@{}l p{0.2\\linewidth} p{0.3\\linewidth} ");
    sfmt_cols(o, f, 2);
    rd_bw_str(o, " l@{}}\n\\toprule\nWorkload & Config & Decision & {Mean} & {$\\pm$} & "
                 "Unit \\\\\n\\midrule\n");
    for (size_t wi = 0; wi < shown && o->st == RD_OK; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        bool cat = rd_workload_categorical(w);
        int i = cat ? -1 : w->recommended >= 0 ? w->recommended : w->best;
        tex_text(o, w->name);
        tex_cell(o, i >= 0 ? w->configs[i].name : RD_UNDEF);
        rd_buf_reset(&t);
        rd_bw_ok(&tw, cat ? rd_buf_addstr(&t, "pass/fail (see its table)")
                          : rd_decision_text(w, &t));
        if (w->recommended < 0 && i >= 0)
            rd_bw_str(&tw, t.len ? "; best mean shown" : "best mean shown");
        if (rd_bw_ok(o, tw.st))
            tex_cell(o, t.len ? t.ptr : RD_UNDEF);
        struct rd_metric_def def;
        rd_metric_describe(w->metric ? w->metric : "", &def);
        double scale;
        const char *unit = rd_unit_shown(def.unit, &scale);
        const struct rd_rstats *s = i >= 0 ? rd_primary(&w->configs[i]) : &rd_rstats_none;
        int dec = mean_decimals(s->mean * scale);
        tex_cell_num(o, s->mean * scale, dec);
        tex_cell_num(o, (s->ci_high - s->ci_low) / 2 * scale, dec);
        tex_cell(o, i >= 0 ? unit : "");
        rd_bw_str(o, " \\\\\n");
    }
    rd_buf_release(&t);
    return end_table(o);
}

static rd_status matrix_table(const struct rd_rworkload *w, struct rd_bw *o)
{
    const struct rd_matrix m = *w->matrix;
    struct rd_buf cap = RD_BUF_INIT, mark = RD_BUF_INIT;
    struct rd_bw c = RD_BW_INIT(&cap);
    tex_text(&c, w->name);
    rd_bw_str(&c, ": pass/fail of each check per config (\\rdpass{} every run passed, "
                  "\\rdfail{} none did, \\rdfail{}~$k$/$n$ when $k$ of $n$ runs passed).");
    machine_sentence(&c, w);
    if (rd_bw_ok(o, c.st))
        begin_table(o, &cap, w->file);
    rd_buf_release(&cap);
    rd_bw_str(o, "\\begin{tabular}{l");
    for (size_t col = 0; col < m.ncols; col++)
        rd_bw_str(o, " c");
    rd_bw_str(o, "}\n\\toprule\nCheck");
    for (size_t col = 0; col < m.ncols; col++)
        tex_cell(o, w->configs[col].name);
    rd_bw_str(o, " \\\\\n\\midrule\n");
    for (size_t row = 0; row < m.nrows && o->st == RD_OK; row++) {
        tex_text(o, m.labels[row]);
        for (size_t col = 0; col < m.ncols && o->st == RD_OK; col++) {
            rd_buf_reset(&mark);
            if (rd_bw_ok(o, rd_mcell_mark(&m.cells[row * m.ncols + col], &mark)))
                tex_cell(o, mark.ptr);
        }
        rd_bw_str(o, " \\\\\n");
    }
    rd_buf_release(&mark);
    return end_table(o);
}

/* A workload table's caption: the name, the metric with its unit and
 * direction, what the columns hold, the decision's reason, the machine. */
static void workload_caption(const struct rd_report *r, const struct rd_rworkload *w,
                             const char *unit, struct rd_bw *cap)
{
    struct rd_buf t = RD_BUF_INIT;
    struct rd_bw tw = RD_BW_INIT(&t);
    tex_text(cap, w->name);
    rd_bw_str(cap, ": ");
    if (rd_bw_ok(cap, rd_fmt_metric(&t, w->metric, false)))
        tex_text(cap, t.ptr);
    if (*unit) {
        rd_buf_reset(&t);
        rd_bw_f(&tw, " (%s, %s)", unit, rd_better_words(w->better));
        if (rd_bw_ok(cap, tw.st))
            tex_text(cap, t.ptr);
    }
    rd_buf_release(&t);
    double conf = isfinite(r->confidence) ? r->confidence * 100 : 95;
    double level = rd_verdict_level(r, w);
    rd_bw_f(cap, ". Mean of $n$ runs with the half-width of its %g\\,\\%% confidence interval; "
                 "each config's verdict against the best, and its ratio to the best with the "
                 "simultaneous %.4g\\,\\%% interval the verdict used.", conf, level);
    if (w->rec && w->rec->reason && *w->rec->reason) {
        struct rd_buf reason = RD_BUF_INIT;
        rd_bw_ch(cap, ' ');
        if (rd_bw_ok(cap, rd_reason_with_look(w->rec, r->alpha, &reason)))
            tex_text(cap, reason.ptr);
        /* One full stop at the end: the look's clause ends on its own, and
         * a reason may end on one (or on a parenthesis, or a label). */
        if (reason.len && reason.ptr[reason.len - 1] != '.')
            rd_bw_ch(cap, '.');
        rd_buf_release(&reason);
    }
    machine_sentence(cap, w);
}

static rd_status workload_table(const struct rd_report *r, const struct rd_rworkload *w,
                                struct rd_bw *o)
{
    if (rd_workload_categorical(w))
        return matrix_table(w, o);
    if (!w->metric || w->nconfigs == 0)
        return RD_OK;
    struct rd_metric_def def;
    rd_metric_describe(w->metric, &def);
    double scale;
    const char *unit = rd_unit_shown(def.unit, &scale);
    struct sfmt f[3] = { { 0 }, { 0 }, { 0 } };
    for (size_t i = 0; i < w->nconfigs; i++) {
        const struct rd_rstats *s = rd_primary(&w->configs[i]);
        int dec = mean_decimals(s->mean * scale);
        sfmt_add(&f[0], s->n, 0);
        sfmt_add(&f[1], s->mean * scale, dec);
        sfmt_add(&f[2], (s->ci_high - s->ci_low) / 2 * scale, dec);
    }
    struct rd_buf cap = RD_BUF_INIT, t = RD_BUF_INIT;
    struct rd_bw c = RD_BW_INIT(&cap);
    workload_caption(r, w, unit, &c);
    if (rd_bw_ok(o, c.st))
        begin_table(o, &cap, w->file);
    rd_buf_release(&cap);
    rd_bw_str(o, "\\begin{tabular}{l ");
    sfmt_cols(o, f, 3);
    rd_bw_str(o, " l l}\n\\toprule\nConfig & {$n$} & {Mean} & {$\\pm$} & Verdict & Ratio to "
                 "the best \\\\\n\\midrule\n");
    for (size_t i = 0; i < w->nconfigs && o->st == RD_OK; i++) {
        const struct rd_rconfig *cf = &w->configs[i];
        const struct rd_rstats *s = rd_primary(cf);
        const struct rd_rverdict *v = rd_config_verdict(w, (int)i);
        int dec = mean_decimals(s->mean * scale);
        tex_text(o, cf->name);
        tex_cell_num(o, s->n, 0);
        tex_cell_num(o, s->mean * scale, dec);
        tex_cell_num(o, (s->ci_high - s->ci_low) / 2 * scale, dec);
        char phrase[64];
        const char *word = rd_config_verdict_phrase(w, v, phrase, sizeof phrase);
        tex_cell(o, word ? word : RD_UNDEF);
        rd_buf_reset(&t);
        if (rd_bw_ok(o, rd_verdict_ratio_text(w, v, NULL, &t)))
            tex_cell(o, t.ptr);
        rd_bw_str(o, " \\\\\n");
    }
    rd_buf_release(&t);
    return end_table(o);
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

/* A claim's "Here" cell: the ratio with its interval, or each pair of an
 * order with its Holm-adjusted p. */
static void claim_here(struct rd_bw *t, const struct rd_rclaim *c, bool ratio)
{
    if (ratio) {
        rd_bw_ok(t, rd_fmt_ratio_ci(t->b, c->ratio, c->ratio_ci_low, c->ratio_ci_high));
        return;
    }
    for (size_t p = 0; p < c->npairs && t->st == RD_OK; p++) {
        rd_bw_ok(t, rd_fmt_ratio_ci(t->b, c->pairs[p].ratio, c->pairs[p].ratio_ci_low,
                                    c->pairs[p].ratio_ci_high));
        rd_bw_str(t, ", Holm p ");
        rd_bw_ok(t, rd_fmt_p(t->b, c->pairs[p].p_holm));
        if (c->pairs[p].alike) {
            rd_bw_str(t, ", alike here (the study: ");
            rd_bw_ok(t, rd_fmt_ratio(t->b, c->pairs[p].published_ratio));
            rd_bw_str(t, ")");
        }
        if (p + 1 < c->npairs)
            rd_bw_str(t, "; ");
    }
}

/* The published studies' claims judged here (the Replication section's
 * first table; the figures stay in report.md and report.xlsx). */
static rd_status claims_table(const struct rd_report *r, struct rd_bw *o)
{
    if (r->nclaims == 0)
        return RD_OK;
    struct rd_buf cap = RD_BUF_INIT, t = RD_BUF_INIT;
    struct rd_bw c = RD_BW_INIT(&cap), tw = RD_BW_INIT(&t);
    rd_bw_f(&c, "Published claims set against this machine. Each study's ratio of two configs "
                "(or order of configs) beside this machine's ratio of means with its "
                "%g\\,\\%% Fieller interval, or each pair of an order with its Holm-adjusted p, "
                "and the judgement.", isfinite(r->confidence) ? r->confidence * 100 : 95);
    if (rd_report_claims_paired(r))
        rd_bw_str(&c, " Where a workload compares its configs within rounds, its claims' "
                      "ratio is the geometric mean of the within-round ratios, with the paired "
                      "t interval.");
    if (rd_bw_ok(o, c.st))
        begin_table(o, &cap, "claims");
    rd_bw_str(o, "\\begin{tabular}{@{}l p{0.3\\linewidth} l l p{0.25\\linewidth} l@{}}\n"
                 "\\toprule\nStudy & Claim & Metric & Published & Here & Judgement \\\\\n"
                 "\\midrule\n");
    for (size_t i = 0; i < r->nclaims && o->st == RD_OK; i++) {
        const struct rd_rclaim *cl = &r->claims[i];
        bool ratio = cl->kind && strcmp(cl->kind, "ratio") == 0;
        const char *cells[6] = { cl->study, cl->text, cl->metric, NULL, NULL,
                                 cl->judgement ? cl->judgement : "not evaluated" };
        for (size_t k = 0; k < 6 && o->st == RD_OK; k++) {
            rd_buf_reset(&t);
            if (k == 3 && ratio)
                rd_bw_ok(&tw, claimed_text(&t, cl));
            else if (k == 3)
                rd_bw_str(&tw, cl->kind && strcmp(cl->kind, "best") == 0 ? "the best"
                                                                        : "in this order");
            else if (k == 4)
                claim_here(&tw, cl, ratio);
            rd_bw_ok(o, tw.st);
            if (k > 0)
                rd_bw_str(o, " & ");
            if (k == 3 && ratio && cl->approx)
                rd_bw_str(o, "$\\sim$");
            tex_text(o, k == 3 || k == 4 ? (t.len ? t.ptr : RD_UNDEF)
                                         : cells[k] ? cells[k] : RD_UNDEF);
        }
        rd_bw_str(o, " \\\\\n");
    }
    rd_buf_release(&cap);
    rd_buf_release(&t);
    return end_table(o);
}

/* The cell k of a machine comparison's row. */
static void machines_cell(struct rd_bw *t, const struct rd_rmachines *m,
                          const struct rd_rmachine_cmp *x, size_t k)
{
    if (k == 0)
        rd_bw_str(t, m->workload ? m->workload : RD_UNDEF);
    else if (k == 1)
        rd_bw_f(t, "%s / %s", x->config ? x->config : RD_UNDEF,
                m->reference ? m->reference : RD_UNDEF);
    for (size_t p = 0; k == 2 && p < x->nper && t->st == RD_OK; p++) {
        rd_bw_f(t, "%s%s ", p ? "; " : "", x->per[p].machine ? x->per[p].machine : RD_UNDEF);
        rd_bw_ok(t, rd_fmt_ratio_ci(t->b, x->per[p].ratio, x->per[p].ratio_ci_low,
                                    x->per[p].ratio_ci_high));
    }
    if (k == 3)
        rd_bw_ok(t, rd_fmt_ratio_ci(t->b, x->k >= 2 ? x->ratio : NAN, x->ratio_ci_low,
                                    x->ratio_ci_high));
    if (k == 4 && !(x->k >= 2)) {
        rd_bw_str(t, "one machine only");
    } else if (k == 4) {
        rd_bw_str(t, x->consistent ? "agree (p " : "differ (p ");
        rd_bw_ok(t, rd_fmt_p(t->b, x->p));
        rd_bw_ch(t, ')');
    }
}

/* The Across machines table: every config against the reference on each
 * machine and between machines, and whether the machines agree. */
static rd_status machines_table(const struct rd_report *r, struct rd_bw *o)
{
    if (r->nmachines == 0)
        return RD_OK;
    struct rd_buf cap = RD_BUF_INIT, t = RD_BUF_INIT;
    struct rd_bw c = RD_BW_INIT(&cap), tw = RD_BW_INIT(&t);
    rd_bw_f(&c, "Across machines. Each config against the reference (the config best on most "
                "machines) by the ratio of means, on each machine with its %g\\,\\%% interval "
                "(log scale) and between machines (machines as a random level); the machines "
                "differ when Cochran's Q is significant.",
            isfinite(r->confidence) ? r->confidence * 100 : 95);
    if (rd_bw_ok(o, c.st))
        begin_table(o, &cap, "machines");
    rd_bw_str(o, "\\begin{tabular}{@{}l l p{0.35\\linewidth} l l@{}}\n\\toprule\n"
                 "Workload & Config / reference & Each machine & Between machines & "
                 "Machines \\\\\n\\midrule\n");
    for (size_t i = 0; i < r->nmachines && o->st == RD_OK; i++) {
        const struct rd_rmachines *m = &r->machines[i];
        for (size_t x = 0; x < m->ncmps && o->st == RD_OK; x++) {
            for (size_t k = 0; k < 5 && o->st == RD_OK; k++) {
                rd_buf_reset(&t);
                machines_cell(&tw, m, &m->cmps[x], k);
                if (rd_bw_ok(o, tw.st) && k > 0)
                    rd_bw_str(o, " & ");
                tex_text(o, t.len ? t.ptr : RD_UNDEF);
            }
            rd_bw_str(o, " \\\\\n");
        }
    }
    rd_buf_release(&cap);
    rd_buf_release(&t);
    return end_table(o);
}

rd_status rd_render_tex(const struct rd_report *r, struct rd_buf *out)
{
    struct rd_bw o = RD_BW_INIT(out);
    rd_bw_str(&o, "% report.tex - written by rundown " RD_VERSION " from the analysis");
    rd_bw_str(&o, ".\n% \\input{report.tex} in a document whose preamble has\n"
                  "%   \\usepackage{booktabs}\n%   \\usepackage{siunitx}\n"
                  "% Every table is a float with a caption and a label "
                  "(tab:rundown-recommendations,\n% tab:rundown-<workload>).\n"
                  "\\providecommand{\\rdpass}{$\\surd$}\n"
                  "\\providecommand{\\rdfail}{$\\times$}\n\n");
    RD_TRY(o.st);
    RD_TRY(recommendations(r, &o));
    for (size_t wi = 0; wi < rd_report_shown_workloads(r); wi++)
        RD_TRY(workload_table(r, &r->workloads[wi], &o));
    RD_TRY(machines_table(r, &o));
    return claims_table(r, &o);
}
