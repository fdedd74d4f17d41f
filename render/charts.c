/*
 * charts - the gnuplot script and data files that draw every chart of a
 * report, and the run of the one gnuplot process over them (gnuplot.c);
 * chartplan.c decides which charts there are and which configs each draws.
 *
 * The charts are made for many configs: means and runs are horizontal,
 * one row per config sorted by the primary metric, labelled on the axis,
 * one panel per mechanism (or another label) past 8 configs, coloured by
 * runtime with a legend above the plot; the means chart draws the interval
 * the verdict used (the simultaneous interval of the ratio to the best,
 * times the best's mean) and the margin as a band around the best; the
 * latency chart is a percentile spectrum on a log 1/(1 - p) axis, at most 6
 * series a panel with its legend beside the plot. Every size follows the
 * number of rows, so no label meets another at 3 or 50 configs. Each chart
 * is drawn as SVG and, on request, as PDF and as a 300 dpi PNG: the body is
 * written once per terminal (a multiplot cannot be replotted), every
 * position in screen fractions, so the three agree.
 *
 * The script is written to be re-run by a user (cd charts && gnuplot
 * report.gp): all chart files are named in it relative to its folder. The
 * render runs it in the staging folder's charts/ (stage.h), so gnuplot
 * reads the staged data and writes staged images, and the commit moves the
 * whole folder into place with the rest of the report.
 *
 * Safety: gnuplot runs `commands` in backquotes anywhere on a command line,
 * even inside double quotes, and expands @macros outside quotes. Every
 * string that comes from input is therefore written single-quoted
 * (rd_escape_gnuplot), labels are noenhanced, data files hold numbers only,
 * and file names come from rd_sanitize_filename.
 */
#include "chartgp.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "derive.h"
#include "escape.h"
#include "gnuplot.h"
#include "rundown/array.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"
#include "lookup.h"
#include "verdicts.h"

/* ---- means: dots with the verdict's interval, the margin as a band ---- */

/* A note's font size, and the characters of it that fit in 'px'. */
#define NOTE_PT 11.0
static size_t note_fits(double px)
{
    /* Glyphs of the note's size run about 0.55 em wide. */
    double n = px / (NOTE_PT * 0.55) - 1;
    return n > 8 ? (size_t)n : 8;
}

/* The note of row i (at 'y' in its panel), beside its dot on the side
 * with more room, or at the axis' start without a dot; cut to fit. */
static rd_status means_note(struct rd_buf *g, const struct rd_layout *l, const struct rd_mrow *m,
                            size_t i, size_t y, double lo, double hi)
{
    double plot = (l->xr - l->xl) * CHART_W;
    double frac = isfinite(m->mean) && hi > lo ? (m->mean - lo) / (hi - lo) : 0;
    bool left = frac > 0.5;
    size_t fits = note_fits(plot * (left ? frac : 1 - frac));
    struct rd_buf t = RD_BUF_INIT;
    struct rd_bw w = RD_BW_INIT(g), tw = RD_BW_INIT(&t);
    rd_bw_str(&tw, m->note);
    if (tw.st == RD_OK && strlen(m->note) > fits) {
        size_t cut = fits;
        while (cut > 0 && ((unsigned char)m->note[cut] & 0xC0) == 0x80)
            cut--;   /* not inside a character */
        rd_buf_truncate(&t, cut);
        rd_bw_str(&tw, "\xe2\x80\xa6");
    }
    rd_bw_ok(&w, tw.st);
    rd_bw_f(&w, "set label %zu ", 200 + i);
    RD_BW_DO(&w, rd_gp_str(g, t.ptr));
    if (isfinite(m->mean))
        rd_bw_f(&w, " at first %.17g, first %zu %s offset char %s,0", m->mean, y,
                left ? "right" : "left", left ? "-1.2" : "1.2");
    else
        rd_bw_f(&w, " at graph 0.01, first %zu left", y);
    rd_bw_f(&w, " noenhanced tc rgb '#555555' font sprintf(',%%g', %g * rd_fs) front\n", NOTE_PT);
    rd_buf_release(&t);
    return w.st;
}

/* What a means chart draws: a row per config of the layout, the span its
 * axis covers, the best's mean and the margin around it. */
struct means {
    struct rd_layout l;
    struct rd_mrow *rows;
    struct rd_span sp;
    double best, margin;
    bool any_out, any_open;
};

static rd_status means_rows(const struct rd_rworkload *w, const struct rd_chart *c,
                            struct means *m)
{
    m->best = w->best >= 0 ? rd_primary(&w->configs[w->best])->mean : NAN;
    m->margin = w->rec && isfinite(w->rec->margin) ? w->rec->margin : NAN;
    m->sp = (struct rd_span){ NAN, NAN };
    RD_TRY(rd_layout_make(w, c, 24, &m->l));
    if (!(m->rows = calloc(m->l.n + 1, sizeof *m->rows)))
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < m->l.n; i++) {
        rd_means_row(w, m->l.rows[i], m->best, &m->rows[i]);
        rd_means_span(&m->sp, &m->rows[i]);
        m->any_out = m->any_out || m->l.out[i];
        m->any_open = m->any_open || m->rows[i].open;
    }
    if (isfinite(m->best) && isfinite(m->margin)) {
        rd_gp_span_add(&m->sp, m->best * (1 - m->margin));
        rd_gp_span_add(&m->sp, m->best * (1 + m->margin));
    }
    return RD_OK;
}

/* The data file: one block per panel, a line per row. */
static void means_data(const struct rd_report *r, const struct rd_rworkload *w,
                       const struct rd_chart *c, const struct means *m, struct rd_bw *d)
{
    const struct rd_layout *l = &m->l;
    RD_BW_DO(d, rd_gp_comment(d->b, "# ", c->title));
    rd_bw_str(d, "# one block per panel: mean\trow\tlow\thigh\tcolour\tdisqualified\n");
    rd_bw_str(d, rd_means_paired(w)
        ? "# compared within rounds: mean is the best's mean times the config's ratio to "
          "the best (the geometric mean of its within-round ratios, as the verdict reads "
          "it); low..high its paired interval, times the best's mean; the best has none "
          "('?'); '?' also where there is none (disqualified, or not estimable: drawn as "
          "open arrows)\n"
        : w->rec && w->rec->primary.nverdicts
        ? "# low..high: the simultaneous interval of the verdict (the ratio to the best on "
          "the log scale, times the best's mean); the best's own CI on the log scale; '?' "
          "where there is none (disqualified, or not estimable: drawn as open arrows)\n"
        : "# low..high: the config's CI\n");
    for (size_t p = 0; p < l->npanels && d->st == RD_OK; p++) {
        if (p)
            rd_bw_str(d, "\n\n");
        for (size_t i = 0; i < l->panels[p].n && d->st == RD_OK; i++) {
            size_t row = l->panels[p].first + i;
            const struct rd_rconfig *rc = &w->configs[l->rows[row]];
            RD_BW_DO(d, rd_gp_comment(d->b, "# ", rc->name));
            if (m->rows[row].open)
                rd_bw_str(d, "# not estimable: no interval\n");
            RD_BW_DO(d, rd_gp_num(d->b, m->rows[row].mean));
            rd_bw_f(d, "\t%zu\t", i);
            RD_BW_DO(d, rd_gp_num(d->b, m->rows[row].lo));
            rd_bw_ch(d, '\t');
            RD_BW_DO(d, rd_gp_num(d->b, m->rows[row].hi));
            rd_bw_f(d, "\t%u\t%d\n", rd_gp_colour(rd_runtime_colour(r, rc->runtime)),
                    l->out[row] ? 1 : 0);
        }
    }
}

/* Panel p of the script: the margin's band, the best's line, the open
 * arrows and notes of its rows, then the dots with their bars. */
static void means_panel(const struct rd_report *r, const struct rd_rworkload *w,
                        const struct rd_chart *c, const struct means *m, size_t p,
                        const char *xlabel, double axis_lo, double axis_hi, struct rd_bw *g)
{
    const struct rd_layout *l = &m->l;
    double best = m->best, margin = m->margin;
    RD_BW_DO(g, rd_gp_panel_start(g->b, l, p, xlabel, &m->sp));
    if (isfinite(best * (1 - margin)) && isfinite(best * (1 + margin)))
        rd_bw_f(g, "set object 1 rect from %.17g, graph 0 to %.17g, graph 1 "
                   "behind fc rgb '#e4e4e4' fs solid 1.0 noborder\n",
                best * (1 - margin), best * (1 + margin));
    if (isfinite(best))
        rd_bw_f(g, "set arrow 1 from %.17g, graph 0 to %.17g, graph 1 nohead "
                   "back lc rgb '#888888' dt 2\n", best, best);
    /* Not estimable: the bounds are unknown, so open arrows run from
     * the dot to both edges; a row without a dot gets its note. */
    for (size_t i = 0; i < l->panels[p].n && g->st == RD_OK; i++) {
        size_t row = l->panels[p].first + i;
        const struct rd_mrow *mr = &m->rows[row];
        const char *col = rd_runtime_colour(r, w->configs[l->rows[row]].runtime);
        for (int side = 0; side < 2 && mr->open && isfinite(mr->mean); side++)
            rd_bw_f(g, "set arrow %zu from first %.17g, first %zu to graph %d, first %zu "
                       "head nofilled size screen 0.01,25 lw 1.2 lc rgb '%s' front\n",
                    20 + 2 * i + (size_t)side, mr->mean, i, side, i, col);
        if (mr->note)
            RD_BW_DO(g, means_note(g->b, l, mr, i, i, axis_lo, axis_hi));
    }
    rd_bw_str(g, "plot ");
    /* Filled dots, open (disqualified) ones; a row without an
     * interval ('?') keeps its dot, without a bar. */
    for (int k = 0; k < 4; k++) {
        bool out = k % 2, bars = k < 2;
        rd_bw_str(g, k ? ", \\\n     " : "");
        RD_BW_DO(g, rd_gp_file(g->b, c->stem, "dat"));
        rd_bw_f(g, bars ? " index %zu using 1:(%s && valid(3) ? $2 : NaN):3:4:5 "
                          "with xerrorbars pt %d ps 1.1 lw 1.5 lc rgb variable"
                        : " index %zu using 1:(%s && !valid(3) ? $2 : NaN):5 "
                          "with points pt %d ps 1.1 lc rgb variable",
                p, out ? "$6 > 0" : "$6 == 0", out ? 6 : 7);
    }
    rd_bw_ch(g, '\n');
    rd_bw_f(g, "unset object 1\nunset arrow 1\nunset label 2\n"
               "do for [i=20:%zu] { unset arrow i }\n"
               "do for [i=200:%zu] { unset label i }\n",
            21 + 2 * l->panels[p].n, 200 + l->panels[p].n);
}

rd_status rd_chart_means(const struct rd_report *r, const struct rd_rworkload *w,
                         const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                         double *h)
{
    struct means m = {0};
    struct rd_bw d = RD_BW_INIT(dat), gw = RD_BW_INIT(g);
    rd_bw_ok(&gw, means_rows(w, c, &m));
    if (gw.st == RD_OK)
        means_data(r, w, c, &m, &d);
    rd_bw_ok(&gw, d.st);
    double axis_lo, axis_hi;
    rd_gp_range_of(&m.sp, &axis_lo, &axis_hi);
    struct rd_buf xl = RD_BUF_INIT, band = RD_BUF_INIT;
    RD_BW_DO(&gw, rd_gp_ylabel(&xl, w->metric));
    if (isfinite(m.margin))
        RD_BW_DO(&gw, rd_buf_addf(&band, "within %g %% of the best", m.margin * 100));
    struct rd_entry extra[3];
    size_t nextra = 0;
    if (band.len)
        extra[nextra++] = (struct rd_entry){ "\xe2\x96\x88", "#d0d0d0", band.ptr };
    if (m.any_out)
        extra[nextra++] = (struct rd_entry){ "\xe2\x97\x8b", "#333333", "disqualified" };
    if (m.any_open)
        extra[nextra++] = (struct rd_entry){ "\xe2\x86\x94", "#333333", "interval not estimable" };
    RD_BW_DO(&gw, rd_gp_begin(g, r, w, &m.l, c->title, extra, nextra));
    for (size_t p = 0; p < m.l.npanels && gw.st == RD_OK; p++)
        means_panel(r, w, c, &m, p, xl.ptr, axis_lo, axis_hi, &gw);
    rd_bw_str(&gw, "unset multiplot\n");
    *h = m.l.h;
    free(m.rows);
    rd_buf_release(&xl);
    rd_buf_release(&band);
    rd_layout_release(&m.l);
    return gw.st;
}

/* ---- runs: every run as a dot, failed runs counted at the row's end ---- */

/* The dots of row i of a panel: every run, or past RD_RUNS_MAX_POINTS
 * order statistics at even steps from min to max (the same spread, a
 * bounded chart, and the same picture on every render). A fixed spread
 * instead of random jitter keeps the chart the same too. */
static void runs_row(const struct rd_report *r, const struct rd_rconfig *rc, size_t i, bool out,
                     double **sorted, size_t *cap, struct rd_span *sp, struct rd_bw *d)
{
    const double *vals = NULL;
    size_t n = 0;
    RD_BW_DO(d, rd_gp_config_values(rc, sorted, cap, &vals, &n));
    RD_BW_DO(d, rd_gp_comment(d->b, "# ", rc->name));
    size_t shown = n > RD_RUNS_MAX_POINTS ? RD_RUNS_MAX_POINTS : n;
    if (shown < n)
        rd_bw_f(d, "# %zu runs: %zu order statistics at even steps from the smallest to the largest\n",
                n, shown);
    for (size_t j = 0; j < shown && d->st == RD_OK; j++) {
        double y = shown < n ? vals[(size_t)((double)j * (double)(n - 1) / (double)(shown - 1) + 0.5)]
                             : vals[j];
        rd_gp_span_add(sp, y);
        RD_BW_DO(d, rd_gp_num(d->b, y));
        rd_bw_f(d, "\t%g\t%u\t%d\n", (double)i + ((double)(j % 7) - 3.0) * 0.07,
                rd_gp_colour(rd_runtime_colour(r, rc->runtime)), out ? 1 : 0);
    }
}

/* The data file: per panel a block of dots, then a block of means. */
static void runs_data(const struct rd_report *r, const struct rd_rworkload *w,
                      const struct rd_chart *c, const struct rd_layout *l, struct rd_span *sp,
                      struct rd_bw *d)
{
    RD_BW_DO(d, rd_gp_comment(d->b, "# ", c->title));
    rd_bw_str(d, "# per panel two blocks: value\trow + jitter\tcolour\tdisqualified; "
                 "then mean\trow (drawn as a tick)\n");
    double *sorted = NULL;
    size_t cap = 0;
    for (size_t p = 0; p < l->npanels && d->st == RD_OK; p++) {
        if (p)
            rd_bw_str(d, "\n\n");
        for (size_t i = 0; i < l->panels[p].n && d->st == RD_OK; i++) {
            size_t row = l->panels[p].first + i;
            runs_row(r, &w->configs[l->rows[row]], i, l->out[row], &sorted, &cap, sp, d);
        }
        rd_bw_str(d, "\n\n");
        for (size_t i = 0; i < l->panels[p].n && d->st == RD_OK; i++) {
            RD_BW_DO(d, rd_gp_num(d->b, rd_primary(&w->configs[l->rows[l->panels[p].first + i]])->mean));
            rd_bw_f(d, "\t%zu\n", i);
        }
    }
    free(sorted);
}

/* Panel p of the script: the failed runs' counts, then the dots, the
 * open dots of disqualified configs and the means' ticks. */
static void runs_panel(const struct rd_rworkload *w, const struct rd_chart *c,
                       const struct rd_layout *l, size_t p, const char *xlabel,
                       const struct rd_span *sp, struct rd_bw *g)
{
    RD_BW_DO(g, rd_gp_panel_start(g->b, l, p, xlabel, sp));
    /* Failed and timed-out runs have no value to place: their count at
     * the row's end, in the legend's mark. */
    for (size_t i = 0; i < l->panels[p].n; i++) {
        double f = w->configs[l->rows[l->panels[p].first + i]].failed_runs;
        if (isfinite(f) && f > 0)
            rd_bw_f(g, "set label %zu '\xe2\x9c\x97 %.0f failed' at graph 1.01, first %zu "
                       "left tc rgb '#d55e00' noenhanced\n", 10 + i, f, i);
    }
    rd_bw_str(g, "plot ");
    RD_BW_DO(g, rd_gp_file(g->b, c->stem, "dat"));
    rd_bw_f(g, " index %zu using 1:($4 > 0 ? NaN : $2):3 with points pt 7 ps 0.8 "
               "lc rgb variable, \\\n     ", 2 * p);
    RD_BW_DO(g, rd_gp_file(g->b, c->stem, "dat"));
    rd_bw_f(g, " index %zu using 1:($4 > 0 ? $2 : NaN):3 with points pt 6 ps 0.8 "
               "lc rgb variable, \\\n     ", 2 * p);
    RD_BW_DO(g, rd_gp_file(g->b, c->stem, "dat"));
    rd_bw_f(g, " index %zu using 1:($2-0.36):(0):(0.72) with vectors nohead "
               "lw 2 lc rgb '#222222'\n", 2 * p + 1);
    rd_bw_f(g, "do for [i=10:%zu] { unset label i }\nunset label 2\n", 10 + l->panels[p].n);
}

rd_status rd_chart_runs(const struct rd_report *r, const struct rd_rworkload *w,
                        const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                        double *h)
{
    struct rd_layout l;
    struct rd_span sp = { NAN, NAN };
    struct rd_bw d = RD_BW_INIT(dat), gw = RD_BW_INIT(g);
    rd_bw_ok(&gw, rd_layout_make(w, c, 96, &l));
    if (gw.st == RD_OK)
        runs_data(r, w, c, &l, &sp, &d);
    rd_bw_ok(&gw, d.st);
    struct rd_buf xl = RD_BUF_INIT;
    RD_BW_DO(&gw, rd_gp_ylabel(&xl, w->metric));
    bool any_out = false, any_failed = false;
    for (size_t i = 0; gw.st == RD_OK && i < l.n; i++) {
        double f = w->configs[l.rows[i]].failed_runs;
        any_out = any_out || l.out[i];
        any_failed = any_failed || (isfinite(f) && f > 0);
    }
    struct rd_entry extra[3];
    size_t nextra = 0;
    extra[nextra++] = (struct rd_entry){ "|", "#222222", "mean" };
    if (any_out)
        extra[nextra++] = (struct rd_entry){ "\xe2\x97\x8b", "#333333", "disqualified" };
    if (any_failed)
        extra[nextra++] = (struct rd_entry){ "\xe2\x9c\x97", "#d55e00", "failed runs (no value)" };
    RD_BW_DO(&gw, rd_gp_begin(g, r, w, &l, c->title, extra, nextra));
    for (size_t p = 0; p < l.npanels && gw.st == RD_OK; p++)
        runs_panel(w, c, &l, p, xl.ptr, &sp, &gw);
    rd_bw_str(&gw, "unset multiplot\n");
    *h = l.h;
    rd_buf_release(&xl);
    rd_layout_release(&l);
    return gw.st;
}

/* The terminal lines of one chart: SVG for the reports, PDF for print and
 * a PNG at 300 dpi (3.125 times the SVG's 96 dpi), fonts and lines scaled
 * alike so the three look the same. */
enum term { TERM_SVG, TERM_PDF, TERM_PNG };

static rd_status gp_terminal(struct rd_buf *g, enum term t, double h)
{
    switch (t) {
    case TERM_SVG:
        return rd_buf_addf(g, "set terminal svg size %.0f,%.0f dynamic noenhanced "
                              "font 'sans,%g' background '#ffffff'\nrd_fs = 1\n", CHART_W, h,
                           FONT_PX);
    case TERM_PDF:
        return rd_buf_addf(g, "set terminal pdfcairo size %.3fin,%.3fin noenhanced "
                              "font 'sans,%g' background '#ffffff'\nrd_fs = 0.75\n",
                           CHART_W / 96, h / 96, FONT_PX * 0.75);
    case TERM_PNG:
        return rd_buf_addf(g, "set terminal pngcairo size %.0f,%.0f noenhanced "
                              "font 'sans,%g' linewidth 3.125 pointscale 3.125 "
                              "background '#ffffff'\nrd_fs = 0.75 * 3.125\n",
                           CHART_W * 3.125, h * 3.125, FONT_PX * 0.75 * 3.125);
    }
    return RD_OK;
}

/* The PDF's date: the analysis's day at noon, as the workbook's, so a
 * rerun gives the same bytes ("20261130120000"). */
static void pdf_date(const struct rd_report *r, char out[15])
{
    int y = 2000, m = 1, d = 1;
    if (r->date && sscanf(r->date, "%4d-%2d-%2d", &y, &m, &d) == 3 && y >= 1980 && y < 3000 &&
        m >= 1 && m <= 12 && d >= 1 && d <= 31)
        snprintf(out, 15, "%04d%02d%02d120000", y, m, d);
    else
        snprintf(out, 15, "20000101120000");
}

/* The script's lines for chart c on each wanted terminal: its comment,
 * then per terminal the output and the body. */
static rd_status chart_block(struct rd_buf *g, const struct rd_chart *c, const struct rd_buf *body,
                             double h, const bool want[3])
{
    static const enum term terms[] = { TERM_SVG, TERM_PDF, TERM_PNG };
    static const char *exts[] = { "svg", "pdf", "png" };
    struct rd_bw w = RD_BW_INIT(g);
    rd_bw_str(&w, "\n");
    RD_BW_DO(&w, rd_gp_comment(g, "# ", c->title));
    for (size_t t = 0; t < 3 && w.st == RD_OK; t++) {
        if (!want[t])
            continue;
        RD_BW_DO(&w, gp_terminal(g, terms[t], h));
        rd_bw_str(&w, "set output ");
        RD_BW_DO(&w, rd_gp_file(g, c->stem, exts[t]));
        rd_bw_ch(&w, '\n');
        rd_bw_str(&w, body->ptr);
        rd_bw_str(&w, "unset output\n");
    }
    return w.st;
}

#define SCRIPT_HEAD "# rundown charts. Re-run from this folder: gnuplot report.gp\nset encoding utf8\n"

/* The staged path of charts/<stem>.<ext> into rel; NULL when not staged. */
static const char *staged_image(const struct rd_stage *s, struct rd_buf *rel, const char *stem,
                                const char *ext)
{
    rd_buf_reset(rel);
    if (rd_buf_addf(rel, "charts/%s.%s", stem, ext) != RD_OK)
        return NULL;
    return rd_stage_tmp(s, rel->ptr);
}

/* Writes a file of the staging folder in place (the stage made it). */
static rd_status write_file(const char *path, const struct rd_buf *b, struct rd_diag *d)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(b->ptr, 1, b->len, f) == b->len;
    if (f && fclose(f) != 0)
        ok = false;
    return ok ? RD_OK : rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s", path,
                                    strerror(errno));
}

/* gnuplot failed on the whole script: each chart is drawn alone from a
 * script of its own, and one that fails again is left out, its images
 * removed. Then report.gp is written again without the charts left out,
 * so a user's re-run does not stop at them either. */
static rd_status draw_one_by_one(struct rd_chart_plan *p, struct rd_buf *blocks,
                                 struct rd_stage *s, const bool want[3],
                                 const struct rd_render_opts *o, struct rd_diag *d)
{
    static const char *exts[] = { "svg", "pdf", "png" };
    struct rd_buf dir = RD_BUF_INIT, path = RD_BUF_INIT, one = RD_BUF_INIT, rel = RD_BUF_INIT;
    rd_status st = rd_buf_addf(&dir, "%s/charts", s->path);
    if (st == RD_OK) st = rd_buf_addf(&path, "%s/", dir.ptr);
    size_t at = path.len;
    for (size_t i = 0; i < p->n && st == RD_OK; i++) {
        /* <stem>.gp, so gnuplot's message names the chart */
        rd_buf_truncate(&path, at);
        st = rd_buf_addf(&path, "%s.gp", p->items[i].stem);
        rd_buf_reset(&one);
        if (st == RD_OK) st = rd_buf_addstr(&one, SCRIPT_HEAD);
        if (st == RD_OK) st = rd_buf_addstr(&one, blocks[i].ptr);
        if (st == RD_OK) st = write_file(path.ptr, &one, d);
        struct rd_diag why;
        rd_diag_init(&why, NULL);
        bool started = false;
        rd_status gs = st == RD_OK ? rd_gnuplot_run(o->gnuplot ? o->gnuplot : "gnuplot", dir.ptr,
                                                    path.ptr + at, &started, &why)
                                   : st;
        unlink(path.ptr);
        if (st != RD_OK || gs == RD_OK)
            continue;
        if (!started) {   /* the system's failure, not the chart's */
            *d = why;
            st = gs;
            break;
        }
        if (!(p->items[i].left_out = strdup(why.msg)))
            st = RD_ERR_NOMEM;
        for (size_t e = 0; e < 3 && st == RD_OK; e++) {
            const char *tmp = want[e] ? staged_image(s, &rel, p->items[i].stem, exts[e]) : NULL;
            if (tmp)
                unlink(tmp);
        }
        rd_buf_reset(&blocks[i]);
        if (st == RD_OK) st = rd_buf_addstr(&blocks[i], "\n");
        if (st == RD_OK) st = rd_gp_comment(&blocks[i], "# left out (gnuplot failed on it): ",
                                            p->items[i].title);
        if (st == RD_OK && o->warn) {
            rd_buf_reset(&one);
            st = rd_buf_addf(&one, "chart '%s' left out: %s", p->items[i].stem, why.msg);
            if (st == RD_OK)
                o->warn(o->warn_ctx, one.ptr);
        }
    }
    /* report.gp again, without them */
    rd_buf_reset(&one);
    if (st == RD_OK) st = rd_buf_addstr(&one, SCRIPT_HEAD);
    for (size_t i = 0; i < p->n && st == RD_OK; i++)
        st = rd_buf_addstr(&one, blocks[i].ptr);
    const char *gp = rd_stage_tmp(s, "charts/report.gp");
    if (st == RD_OK && gp)
        st = write_file(gp, &one, d);
    rd_buf_release(&dir);
    rd_buf_release(&path);
    rd_buf_release(&one);
    rd_buf_release(&rel);
    return st;
}

rd_status rd_render_charts(const struct rd_report *r, struct rd_chart_plan *p,
                           struct rd_stage *s, bool run, unsigned extra,
                           const struct rd_render_opts *o, struct rd_diag *d)
{
    struct rd_buf g = RD_BUF_INIT, dat = RD_BUF_INIT, rel = RD_BUF_INIT;
    rd_status st = rd_buf_addstr(&g, SCRIPT_HEAD);
    /* PDF and PNG are opt-in: a cairo image costs about 25 times the CPU
     * of an SVG, and the Markdown and HTML reports both use the SVGs. */
    const char *exts[] = { "svg", "pdf", "png" };
    const bool want[] = { true, (extra & RD_FMT_PDF) != 0, (extra & RD_FMT_PNG) != 0 };
    struct rd_buf *blocks = calloc(p->n + 1, sizeof *blocks);
    if (!blocks)
        st = RD_ERR_NOMEM;
    for (size_t i = 0; i < p->n && st == RD_OK; i++) {
        const struct rd_chart *c = &p->items[i];
        const struct rd_rworkload *w = &r->workloads[c->workload];
        struct rd_buf body = RD_BUF_INIT;
        double h = 450;
        rd_buf_reset(&dat);
        switch (c->kind) {
        case RD_CHART_MEANS: st = rd_chart_means(r, w, c, &dat, &body, &h); break;
        case RD_CHART_RUNS: st = rd_chart_runs(r, w, c, &dat, &body, &h); break;
        case RD_CHART_LATENCY: st = rd_chart_latency(r, w, c, &dat, &body, &h); break;
        case RD_CHART_SCALING: st = rd_chart_scaling(r, w, c, &dat, &body, &h); break;
        }
        if (st == RD_OK) {
            rd_buf_reset(&rel);
            st = rd_buf_addf(&rel, "charts/%s.dat", c->stem);
        }
        if (st == RD_OK)
            st = rd_stage_write(s, rel.ptr, dat.ptr, dat.len, d);
        if (st == RD_OK) st = chart_block(&blocks[i], c, &body, h, want);
        if (st == RD_OK) st = rd_buf_addstr(&g, blocks[i].ptr);
        rd_buf_release(&body);
    }
    if (st == RD_OK)
        st = rd_stage_write(s, "charts/report.gp", g.ptr, g.len, d);
    if (st == RD_OK && run && p->n > 0) {
        for (size_t i = 0; i < p->n && st == RD_OK; i++) {
            for (size_t e = 0; e < 3 && st == RD_OK; e++) {
                const char *tmp;
                if (!want[e])
                    continue;
                rd_buf_reset(&rel);
                st = rd_buf_addf(&rel, "charts/%s.%s", p->items[i].stem, exts[e]);
                if (st == RD_OK)
                    st = rd_stage_reserve(s, rel.ptr, &tmp, d);
            }
        }
        rd_buf_reset(&rel);
        if (st == RD_OK)
            st = rd_buf_addf(&rel, "%s/charts", s->path);
        bool started = false;
        if (st == RD_OK)
            st = rd_gnuplot_run(o->gnuplot ? o->gnuplot : "gnuplot", rel.ptr, "report.gp",
                                &started, d);
        /* One chart gnuplot cannot draw must not cost the others, nor the
         * report (issue 28). */
        if (st == RD_ERR_IO && started)
            st = draw_one_by_one(p, blocks, s, want, o, d);
        char date[15];
        pdf_date(r, date);
        /* Every image the script promises must exist before the commit. */
        for (size_t i = 0; i < p->n && st == RD_OK; i++) {
            for (size_t e = 0; e < 3 && st == RD_OK && !p->items[i].left_out; e++) {
                if (!want[e])
                    continue;
                const char *tmp = staged_image(s, &rel, p->items[i].stem, exts[e]);
                if (!tmp || access(tmp, R_OK) != 0)
                    st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "gnuplot did not write '%s'", rel.ptr);
                if (st == RD_OK && e == 1)
                    st = rd_gnuplot_fix_pdf_date(tmp, date, d);
            }
        }
    }
    for (size_t i = 0; blocks && i < p->n; i++)
        rd_buf_release(&blocks[i]);
    free(blocks);
    rd_buf_release(&g);
    rd_buf_release(&dat);
    rd_buf_release(&rel);
    return st;
}
