/*
 * chartgp - the parts of the gnuplot charts every kind uses: data-file and
 * gnuplot text helpers (every string from input single-quoted through
 * rd_escape_gnuplot, labels noenhanced), and the layout of the horizontal
 * charts: rows sorted by mean, a panel per mechanism (or another label)
 * past 8 configs, the plot area left of the longest label, title and
 * legend above.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartgp.h"
#include "derive.h"
#include "escape.h"
#include "rundown/array.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"
#include "lookup.h"
#include "verdicts.h"

rd_status rd_gp_num(struct rd_buf *b, double v)
{
    char num[32];
    return rd_buf_addstr(b, isfinite(v) ? rd_fmt_double(v, num) : "?");
}

unsigned rd_gp_colour(const char *hex)
{
    return (unsigned)strtoul(hex + 1, NULL, 16);
}

/* "# comment" with the text made harmless: a newline would end it. */
rd_status rd_gp_comment(struct rd_buf *b, const char *prefix, const char *text)
{
    rd_status st = rd_buf_addstr(b, prefix);
    for (const char *p = text; *p && st == RD_OK; p++)
        st = rd_buf_addch(b, (unsigned char)*p < 0x20 ? ' ' : *p);
    return st == RD_OK ? rd_buf_addch(b, '\n') : st;
}

rd_status rd_gp_str(struct rd_buf *b, const char *s)
{
    return rd_escape_gnuplot(b, s);
}

rd_status rd_gp_common(struct rd_buf *g, const struct rd_chart *c, const char *ylabel)
{
    rd_status st = rd_buf_addstr(g, "reset\nset datafile missing '?'\nset title ");
    if (st == RD_OK) st = rd_gp_str(g, c->title);
    if (st == RD_OK) st = rd_buf_addstr(g, " noenhanced\nset ylabel ");
    if (st == RD_OK) st = rd_gp_str(g, ylabel);
    if (st == RD_OK)
        st = rd_buf_addstr(g, " noenhanced\nset grid ytics lc rgb '#dddddd'\n"
                              "set border 3\nset tics nomirror\n");
    return st;
}

/* The i-th config chart c draws. */
const struct rd_rconfig *rd_gp_drawn(const struct rd_rworkload *w, const struct rd_chart *c,
                                      size_t i)
{
    return &w->configs[c->configs[i]];
}

/* An axis label: the metric's registry label and the unit it is shown in. */
rd_status rd_gp_ylabel(struct rd_buf *b, const char *metric)
{
    struct rd_metric_def def;
    rd_metric_describe(metric, &def);
    double scale;
    const char *unit = rd_unit_shown(def.unit, &scale);
    RD_TRY(rd_fmt_metric(b, metric, false));
    return *unit ? rd_buf_addf(b, " (%s)", unit) : RD_OK;
}


void rd_gp_span_add(struct rd_span *sp, double v)
{
    if (!isfinite(v))
        return;
    if (!(sp->lo <= v))
        sp->lo = v;
    if (!(sp->hi >= v))
        sp->hi = v;
}

void rd_gp_span_add_stats(struct rd_span *sp, const struct rd_rstats *s)
{
    rd_gp_span_add(sp, s->mean);
    rd_gp_span_add(sp, s->ci_low);
    rd_gp_span_add(sp, s->ci_high);
}

/* "set yrange" with zero on the side the values are not: bars grow from
 * zero, so a range that starts at 0 hides every negative bar, and one
 * with no value inside it makes gnuplot stop ("empty y range"). */
rd_status rd_gp_yrange(struct rd_buf *g, const struct rd_span *sp)
{
    const char *range = !(sp->lo < 0) ? "[0:*]" : !(sp->hi > 0) ? "[*:0]" : "[*:*]";
    return rd_buf_addf(g, "set yrange %s\n", range);
}

/* The file reference: 'stem.ext' */
rd_status rd_gp_file(struct rd_buf *g, const char *stem, const char *ext)
{
    return rd_buf_addf(g, "'%s.%s'", stem, ext);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The per-run values of c: in run order as the analysis holds them, or a
 * sorted copy in *sorted (grown as needed, the caller frees) when there are
 * more than the chart shows, since then quantiles are taken. */
rd_status rd_gp_config_values(const struct rd_rconfig *c, double **sorted, size_t *cap,
                               const double **vals, size_t *n)
{
    const struct rd_rstats *s = rd_primary(c);
    *vals = s->values;
    *n = s->nvalues;
    if (*n <= RD_RUNS_MAX_POINTS)
        return RD_OK;
    RD_TRY(RD_ARRAY_GROW(*sorted, *cap, *n));
    memcpy(*sorted, s->values, *n * sizeof **sorted);
    qsort(*sorted, *n, sizeof **sorted, cmp_double);
    *vals = *sorted;
    return RD_OK;
}

/* ---- the rows and panels of a horizontal chart ---- */



void rd_layout_release(struct rd_layout *l)
{
    for (size_t i = 0; l->names && i < l->n; i++)
        free(l->names[i]);
    free(l->rows);
    free(l->names);
    free(l->out);
    free(l->panels);
    memset(l, 0, sizeof *l);
}

static const struct rd_rworkload *sort_wl;

/* Disqualified configs after the others, the better mean first (the
 * lower without a direction), undefined last, then the analysis's order:
 * the same rows on every render. */
static int cmp_by_mean(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    const struct rd_rverdict *va = rd_config_verdict(sort_wl, (int)a);
    const struct rd_rverdict *vb = rd_config_verdict(sort_wl, (int)b);
    bool oa = va && va->verdict == RD_VERDICT_DISQUALIFIED;
    bool ob = vb && vb->verdict == RD_VERDICT_DISQUALIFIED;
    if (oa != ob)
        return oa ? 1 : -1;
    double ma = rd_primary(&sort_wl->configs[a])->mean, mb = rd_primary(&sort_wl->configs[b])->mean;
    bool fa = isfinite(ma), fb = isfinite(mb);
    if (fa != fb)
        return fa ? -1 : 1;
    if (fa && ma != mb) {
        bool a_first = sort_wl->better == RD_BETTER_HIGHER ? ma > mb : ma < mb;
        return a_first ? -1 : 1;
    }
    return (a > b) - (a < b);
}

/* The label the panels are by: mechanism when it splits the configs,
 * else the first other label (not runtime: colour shows it) with 2 to 6
 * values; NULL when no label does. */
static const char *panel_key(const struct rd_rworkload *w, const struct rd_chart *c)
{
    if (c->nconfigs <= PANEL_FROM)
        return NULL;
    const char *pick = NULL;
    for (size_t k = 0; k < w->nkeys && !pick; k++) {
        const char *key = w->keys[k];
        if (strcmp(key, "runtime") == 0)
            continue;
        /* Distinct values among the drawn configs, up to 7. */
        const char *seen[7];
        size_t ns = 0;
        for (size_t i = 0; i < c->nconfigs && ns < 7; i++) {
            const char *v = rd_config_label(&w->configs[c->configs[i]], key);
            bool dup = !v;
            for (size_t s = 0; s < ns && !dup; s++)
                dup = strcmp(seen[s], v) == 0;
            if (!dup)
                seen[ns++] = v;
        }
        bool mech = strcmp(key, "mechanism") == 0;
        if (ns >= 2 && (mech || ns <= 6))
            pick = key;
    }
    return pick;
}

/* A config's name without the panel label (its panel says it). */
static char *row_name(const struct rd_rconfig *c, const char *key, bool out)
{
    struct rd_kv *kv = malloc((c->nlabels + 1) * sizeof *kv);
    struct rd_buf b = RD_BUF_INIT;
    size_t n = 0;
    for (size_t i = 0; kv && i < c->nlabels; i++)
        if (!key || strcmp(c->labels[i].key, key) != 0)
            kv[n++] = c->labels[i];
    rd_status st = kv ? rd_fmt_config_name(&b, kv, n) : RD_ERR_NOMEM;
    if (st == RD_OK && b.len == 0)
        st = rd_buf_addstr(&b, c->name);
    if (st == RD_OK && out)
        st = rd_buf_addstr(&b, " (disqualified)");
    free(kv);
    char *s = st == RD_OK ? rd_buf_detach(&b, NULL) : NULL;
    rd_buf_release(&b);
    return s;
}

rd_status rd_layout_make(const struct rd_rworkload *w, const struct rd_chart *c,
                             double right_px, struct rd_layout *l)
{
    memset(l, 0, sizeof *l);
    size_t n = c->nconfigs;
    l->n = n;
    l->rows = malloc((n + 1) * sizeof *l->rows);
    l->names = calloc(n + 1, sizeof *l->names);
    l->out = calloc(n + 1, sizeof *l->out);
    l->panels = calloc(n + 1, sizeof *l->panels);
    if (!l->rows || !l->names || !l->out || !l->panels)
        return RD_ERR_NOMEM;
    memcpy(l->rows, c->configs, n * sizeof *l->rows);
    sort_wl = w;
    qsort(l->rows, n, sizeof *l->rows, cmp_by_mean);
    l->key = panel_key(w, c);
    /* Panels in the order their best row comes, rows kept sorted in each. */
    size_t *sorted = malloc((n + 1) * sizeof *sorted);
    bool *done = calloc(n + 1, sizeof *done);
    if (!sorted || !done) {
        free(sorted);
        free(done);
        return RD_ERR_NOMEM;
    }
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        const char *v = l->key ? rd_config_label(&w->configs[l->rows[i]], l->key) : NULL;
        struct rd_panel *p = &l->panels[l->npanels++];
        p->value = v;
        p->first = at;
        for (size_t j = i; j < n; j++) {
            const char *vj = l->key ? rd_config_label(&w->configs[l->rows[j]], l->key) : NULL;
            if (done[j] || !(vj == v || (vj && v && strcmp(vj, v) == 0)))
                continue;
            done[j] = true;
            sorted[at++] = l->rows[j];
        }
        p->n = at - p->first;
    }
    memcpy(l->rows, sorted, n * sizeof *l->rows);
    free(sorted);
    free(done);
    size_t longest = 0;
    for (size_t i = 0; i < n; i++) {
        const struct rd_rverdict *v = rd_config_verdict(w, (int)l->rows[i]);
        l->out[i] = v && v->verdict == RD_VERDICT_DISQUALIFIED;
        if (!(l->names[i] = row_name(&w->configs[l->rows[i]], l->key, l->out[i])))
            return RD_ERR_NOMEM;
        size_t len = strlen(l->names[i]);
        longest = len > longest ? len : longest;
    }
    /* Heights in pixels, then every position as a share of the height. */
    bool headed = l->key != NULL;
    l->h = HEAD_PX + AXIS_PX + (double)l->npanels * PANEL_GAP_PX;
    for (size_t p = 0; p < l->npanels; p++)
        l->h += (double)l->panels[p].n * ROW_PX + (headed ? PANEL_HEAD_PX : 0) + ROW_PX * 0.6;
    double y = l->h - HEAD_PX;
    for (size_t p = 0; p < l->npanels; p++) {
        y -= headed ? PANEL_HEAD_PX : 0;
        l->panels[p].top = y / l->h;
        y -= (double)l->panels[p].n * ROW_PX + ROW_PX * 0.6;
        l->panels[p].bottom = y / l->h;
        y -= PANEL_GAP_PX;
    }
    double label_px = (double)longest * FONT_PX * CHAR_EM + 18;
    l->xl = fmin(fmax(label_px / CHART_W, 0.12), 0.55);
    l->xr = 1 - right_px / CHART_W;
    return RD_OK;
}

/* The panel's frame and tics: rows top to bottom, the panel's heading. */
rd_status rd_gp_panel(struct rd_buf *g, const struct rd_layout *l, size_t p, bool last,
                          const char *xlabel)
{
    const struct rd_panel *pn = &l->panels[p];
    RD_TRY(rd_buf_addf(g, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
                          "set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
                       l->xl, l->xr, pn->top, pn->bottom));
    RD_TRY(rd_buf_addf(g, "set yrange [%g:-0.6]\nset ytics (", (double)pn->n - 0.4));
    for (size_t i = 0; i < pn->n; i++) {
        if (i)
            RD_TRY(rd_buf_addstr(g, ", "));
        /* gnuplot reads a tic label as a format for the tic's value
         * ("cpu 50%" stopped the whole script: Bad format character), so
         * every '%' of a name is doubled. */
        struct rd_buf tic = RD_BUF_INIT;
        rd_status st = RD_OK;
        for (const char *q = l->names[pn->first + i]; *q && st == RD_OK; q++)
            st = rd_buf_addstr(&tic, *q == '%' ? "%%" : (char[]){*q, '\0'});
        if (st == RD_OK)
            st = rd_gp_str(g, tic.ptr ? tic.ptr : "");
        rd_buf_release(&tic);
        RD_TRY(st);
        RD_TRY(rd_buf_addf(g, " %zu", i));
    }
    RD_TRY(rd_buf_addstr(g, ") noenhanced\nset grid xtics lc rgb '#dddddd'\n"
                            "set border 3 lc rgb '#666666'\nset tics nomirror scale 0.5 "
                            "textcolor rgb '#000000'\n"));
    if (last) {
        RD_TRY(rd_buf_addstr(g, "set format x '%h'\nset xlabel "));
        RD_TRY(rd_gp_str(g, xlabel));
        RD_TRY(rd_buf_addstr(g, " noenhanced\n"));
    } else {
        RD_TRY(rd_buf_addstr(g, "set format x ''\nunset xlabel\n"));
    }
    if (pn->value && l->key) {
        struct rd_buf t = RD_BUF_INIT;
        rd_status st = rd_buf_addf(&t, "%s: %s", l->key, pn->value);
        if (st == RD_OK) st = rd_buf_addf(g, "set label 2 ");
        if (st == RD_OK) st = rd_gp_str(g, t.ptr);
        if (st == RD_OK)
            st = rd_buf_addf(g, " at screen %.4f, screen %.4f left noenhanced font sprintf(',%%g', 12 * rd_fs)\n",
                             l->xl, pn->top + 7 / l->h);
        rd_buf_release(&t);
        RD_TRY(st);
    }
    return RD_OK;
}


/* Title and legend above the plot: one entry per runtime in its colour,
 * then the chart's own entries. */
rd_status rd_gp_header(struct rd_buf *g, const struct rd_report *r,
                           const struct rd_rworkload *w, const struct rd_layout *l,
                           const char *title, const struct rd_entry *extra, size_t nextra)
{
    RD_TRY(rd_buf_addstr(g, "set label 90 "));
    RD_TRY(rd_gp_str(g, title));
    RD_TRY(rd_buf_addf(g, " at screen 0.5, screen %.4f center noenhanced font sprintf(',%%g', 15 * rd_fs)\n",
                       1 - 20 / l->h));
    double x = 0.02, y = 1 - 46 / l->h;
    unsigned id = 91;
    bool seen[64] = { false };
    for (size_t i = 0; i < l->n; i++) {
        int rt = w->configs[l->rows[i]].runtime;
        if (rt < 0 || rt >= 64 || seen[rt])
            continue;
        seen[rt] = true;
        const char *name = r->runtimes[rt];
        RD_TRY(rd_buf_addf(g, "set label %u '\xe2\x97\x8f' at screen %.4f, screen %.4f "
                              "tc rgb '%s' font sprintf(',%%g', 16 * rd_fs)\n", id++, x, y,
                           rd_runtime_colour(r, rt)));
        RD_TRY(rd_buf_addf(g, "set label %u ", id++));
        RD_TRY(rd_gp_str(g, name));
        RD_TRY(rd_buf_addf(g, " at screen %.4f, screen %.4f noenhanced\n", x + 18 / CHART_W, y));
        x += (30 + (double)strlen(name) * FONT_PX * CHAR_EM) / CHART_W;
    }
    for (size_t e = 0; e < nextra; e++) {
        RD_TRY(rd_buf_addf(g, "set label %u '%s' at screen %.4f, screen %.4f tc rgb '%s' "
                              "font sprintf(',%%g', 16 * rd_fs)\n", id++, extra[e].mark, x, y,
                           extra[e].colour));
        RD_TRY(rd_buf_addf(g, "set label %u '%s' at screen %.4f, screen %.4f noenhanced\n", id++,
                           extra[e].text, x + 18 / CHART_W, y));
        x += (30 + (double)strlen(extra[e].text) * FONT_PX * CHAR_EM) / CHART_W;
    }
    return RD_OK;
}

/* Drops the title and legend before the next panel (labels 90 on). */
rd_status rd_gp_header_off(struct rd_buf *g)
{
    return rd_buf_addstr(g, "do for [i=90:140] { unset label i }\n");
}

void rd_gp_range_of(const struct rd_span *sp, double *lo_out, double *hi_out)
{
    double lo = isfinite(sp->lo) ? fmin(sp->lo, 0) : 0, hi = isfinite(sp->hi) ? fmax(sp->hi, 0) : 0;
    double span = hi - lo;
    if (!(span > 0)) {
        *lo_out = 0;
        *hi_out = 1;
        return;
    }
    /* Near the end of the doubles the padding would overflow (gnuplot
     * reads "inf" as an undefined variable): then none. */
    if (!isfinite(span))
        span = DBL_MAX;
    double a = lo < 0 ? lo - 0.04 * span : 0, b = hi > 0 ? hi + 0.04 * span : 0;
    *lo_out = isfinite(a) ? a : lo;
    *hi_out = isfinite(b) ? b : hi;
}

/* A value axis' range: zero always in it (a length from zero compares),
 * 4 % of the span added on each side that has values; [0:1] when there
 * is nothing to span. */
rd_status rd_gp_range(struct rd_buf *g, const char *axis, const struct rd_span *sp)
{
    double lo, hi;
    rd_gp_range_of(sp, &lo, &hi);
    return rd_buf_addf(g, "set %srange [%.6g:%.6g]\n", axis, lo, hi);
}

void rd_means_row(const struct rd_rworkload *w, size_t i, double best_mean, struct rd_mrow *row)
{
    const struct rd_rstats *s = rd_primary(&w->configs[i]);
    const struct rd_rverdict *v = rd_config_verdict(w, (int)i);
    *row = (struct rd_mrow){ s->mean, s->ci_low, s->ci_high, false, NULL };
    if (!isfinite(s->mean)) {
        row->lo = row->hi = NAN;
        row->note = v && v->verdict == RD_VERDICT_DISQUALIFIED && v->why ? v->why : "no mean (no good run)";
        return;
    }
    if (v && v->verdict == RD_VERDICT_DISQUALIFIED) {
        /* Not compared: no interval, the reason instead. */
        row->lo = row->hi = NAN;
        row->note = v->why ? v->why : "disqualified";
        return;
    }
    bool paired = rd_means_paired(w);
    if (v && v->verdict != RD_VERDICT_BEST && (int)i != w->best) {
        double clo, chi; /* a config the race eliminated: on all its runs */
        rd_verdict_shown_ci(v, &clo, &chi);
        /* Paired within rounds, the verdict's estimate is the geometric
         * mean of the within-round ratios, not the ratio of the means:
         * the dot is where its interval is centred, in the metric's
         * units, so dot and bar say what the table's ratio says. */
        if (paired && isfinite(best_mean) && isfinite(v->ratio))
            row->mean = best_mean * v->ratio;
        if (isfinite(best_mean) && isfinite(clo) && isfinite(chi)) {
            row->lo = best_mean * clo;
            row->hi = best_mean * chi;
            if (row->lo > row->hi) {   /* a negative best: the ends swap */
                double t = row->lo;
                row->lo = row->hi;
                row->hi = t;
            }
        } else if (!v->estimable || v->verdict == RD_VERDICT_INCONCLUSIVE || v->eliminated) {
            /* The verdict has no interval: drawing the config's own CI
             * would show bounds the verdict did not find. */
            row->lo = row->hi = NAN;
            row->open = true;
        }
        return;
    }
    /* The best: its own CI, on the log scale when the mean is above zero,
     * as the ratios' are. Without verdicts every row is its own CI, as
     * the caption says ("with its CI"). */
    if (paired) {
        /* The paired verdicts give the best no interval of its own: its
         * per-mean CI carries the rounds' offsets they cancel, and drawn
         * beside the ratios' intervals it would say the others are
         * measured as loosely. The dashed line is its mean; no bar. */
        row->lo = row->hi = NAN;
        return;
    }
    double half = (s->ci_high - s->ci_low) / 2;
    bool verdicts = w->rec && w->rec->primary.nverdicts;
    if (verdicts && s->mean > 0 && isfinite(half)) {
        if (half >= s->mean) {
            row->lo = row->hi = NAN;
            row->open = true;
        } else {
            row->lo = s->mean * exp(-half / s->mean);
            row->hi = s->mean * exp(half / s->mean);
        }
    }
}

void rd_means_span(struct rd_span *sp, const struct rd_mrow *row)
{
    rd_gp_span_add(sp, row->mean);
    rd_gp_span_add(sp, row->lo);
    rd_gp_span_add(sp, row->hi);
}

size_t rd_gp_thin_ticks(const double *x, const char *const *text, size_t n, double lo, double hi,
                        bool logx, double width_px, bool *show)
{
    double a = logx ? log(lo) : lo, span = (logx ? log(hi) : hi) - a;
    double gap = FONT_PX * CHAR_EM;   /* a space between two labels */
    size_t last = SIZE_MAX, shown = 0;
    for (size_t k = 0; k < n; k++) {
        show[k] = false;
        double at = (logx ? log(x[k]) : x[k]) - a;
        double px = span > 0 ? at / span * width_px : 0;
        double half = (double)strlen(text[k]) * FONT_PX * CHAR_EM / 2;
        bool clear = true;
        if (last != SIZE_MAX) {
            double lat = (logx ? log(x[last]) : x[last]) - a;
            double lpx = span > 0 ? lat / span * width_px : 0;
            double lhalf = (double)strlen(text[last]) * FONT_PX * CHAR_EM / 2;
            clear = px - lpx >= half + lhalf + gap;
            /* The last tick is the end of the scale (max): it stays, and
             * the one before it gives way, unless that is the first. */
            if (!clear && k + 1 == n && last > 0) {
                show[last] = false;
                shown--;
                clear = true;
            }
        }
        if (clear) {
            show[k] = true;
            shown++;
            last = k;
        }
    }
    return shown;
}

/* A horizontal chart's start: a multiplot with its title and legend. */
rd_status rd_gp_begin(struct rd_buf *g, const struct rd_report *r,
                          const struct rd_rworkload *w, const struct rd_layout *l,
                          const char *title, const struct rd_entry *extra, size_t nextra)
{
    RD_TRY(rd_buf_addstr(g, "reset\nset datafile missing '?'\nset key off\nset multiplot\n"));
    return rd_gp_header(g, r, w, l, title, extra, nextra);
}

/* Panel p of a horizontal chart: its frame, tics and the value axis. */
rd_status rd_gp_panel_start(struct rd_buf *g, const struct rd_layout *l, size_t p,
                                const char *xlabel, const struct rd_span *sp)
{
    if (p)
        RD_TRY(rd_gp_header_off(g));
    RD_TRY(rd_gp_panel(g, l, p, p + 1 == l->npanels, xlabel));
    return rd_gp_range(g, "x", sp);
}
