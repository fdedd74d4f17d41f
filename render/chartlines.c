/*
 * chartlines - the line charts: latency as a percentile spectrum (x on a
 * log 1/(1 - p) axis, HdrHistogram's plot, y log when the values span a
 * factor 20; at most 6 series a panel, by mechanism when that fits, the
 * legend beside the plot; configs without latency named under it) and
 * the mean against a numeric label (workers, connections), one line per
 * combination of the other labels.
 *
 * Scripts and data are written through writers that remember their first
 * error (rundown/buf.h, struct rd_bw): a chart's status is looked at once.
 */
#include <math.h>
#include <stddef.h>
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

/* ---- latency: the percentile spectrum ---- */

/* The latency percentiles a chart draws, from the metrics of its configs:
 * latency_p<N>[_<decimals>]_ms at p >= 50, then latency_max_ms. */
struct spectrum {
    const char *metric[24];
    double p[24];        /* 100 for max */
    double x[24];        /* 1 / (1 - p), max a decade past the last */
    size_t n;
};

static void spectrum_add(struct spectrum *sp, const char *metric, double p)
{
    for (size_t i = 0; i < sp->n; i++)
        if (strcmp(sp->metric[i], metric) == 0)
            return;
    if (sp->n == sizeof sp->p / sizeof sp->p[0])
        return;
    size_t at = sp->n;
    while (at > 0 && sp->p[at - 1] > p) {
        sp->p[at] = sp->p[at - 1];
        sp->metric[at] = sp->metric[at - 1];
        at--;
    }
    sp->p[at] = p;
    sp->metric[at] = metric;
    sp->n++;
}

static void spectrum_make(const struct rd_rworkload *w, const struct rd_chart *c,
                          struct spectrum *sp)
{
    memset(sp, 0, sizeof *sp);
    for (size_t i = 0; i < c->nconfigs; i++) {
        const struct rd_rconfig *rc = &w->configs[c->configs[i]];
        for (size_t m = 0; m < rc->nmetrics; m++) {
            double p = rd_latency_percentile(rc->metrics[m].metric);
            if (p >= 50)
                spectrum_add(sp, rc->metrics[m].metric, p);
        }
    }
    double last = 1;
    for (size_t i = 0; i < sp->n; i++) {
        sp->x[i] = sp->p[i] < 100 ? 1 / (1 - sp->p[i] / 100) : last * 10;
        if (sp->p[i] < 100)
            last = sp->x[i];
    }
}

/* "p99.9" for 99.9, "max" for the maximum. */
static rd_status pct_name(struct rd_buf *b, double p)
{
    return p >= 100 ? rd_buf_addstr(b, "max") : rd_buf_addf(b, "p%g", p);
}

/* The configs of a latency chart: their layout, those with latency
 * (indexes into the layout's rows) and their panels, the others named. */
struct latcfgs {
    struct rd_layout l;
    size_t *with, nwith;
    size_t *pstart, npanels;   /* panel p holds with[pstart[p] .. pstart[p + 1]) */
    bool by_key;               /* panels are the layout's (by mechanism) */
    struct rd_buf none;        /* "no latency (no good run): a, b" */
    double ymin, ymax;         /* of the positive values */
    struct rd_span all;
};

/* The configs with latency, sorted by the highest percentile (the better
 * first); those without are named under the chart. */
static void lat_configs(const struct rd_rworkload *w, const struct rd_chart *c,
                        const struct spectrum *sp, struct latcfgs *x, struct rd_bw *st)
{
    struct rd_bw none = RD_BW_INIT(&x->none);
    rd_bw_ok(st, rd_layout_make(w, c, 250, &x->l));
    x->with = malloc((x->l.n + 1) * sizeof *x->with);
    rd_bw_ok(st, x->with ? RD_OK : RD_ERR_NOMEM);
    for (size_t i = 0; i < x->l.n && st->st == RD_OK; i++) {
        const struct rd_rconfig *rc = &w->configs[x->l.rows[i]];
        bool any = false;
        for (size_t k = 0; k < sp->n; k++) {
            double v = rd_config_mean(rc, sp->metric[k]);
            any = any || isfinite(v);
            rd_gp_span_add(&x->all, v);
            if (isfinite(v) && v > 0) {
                x->ymin = !(x->ymin <= v) ? v : x->ymin;
                x->ymax = !(x->ymax >= v) ? v : x->ymax;
            }
        }
        if (any) {
            x->with[x->nwith++] = i;
        } else {
            rd_bw_str(&none, x->none.len ? ", " : "no latency (no good run): ");
            rd_bw_str(&none, rc->name);
            rd_bw_ok(st, none.st);
        }
    }
}

/* Panels: the layout's (by mechanism) when each holds at most
 * LAT_PER_PANEL configs with latency, else runs of LAT_PER_PANEL. */
static void lat_panels(struct latcfgs *x, struct rd_bw *st)
{
    const struct rd_layout *l = &x->l;
    const size_t *with = x->with;
    x->pstart = malloc((x->nwith + 2) * sizeof *x->pstart);
    x->by_key = l->npanels > 1;
    for (size_t p = 0; x->by_key && p < l->npanels; p++) {
        size_t k = 0;
        for (size_t i = 0; i < x->nwith; i++)
            k += with[i] >= l->panels[p].first && with[i] < l->panels[p].first + l->panels[p].n;
        x->by_key = k <= LAT_PER_PANEL;
    }
    rd_bw_ok(st, x->pstart ? RD_OK : RD_ERR_NOMEM);
    for (size_t i = 0; st->st == RD_OK && i < x->nwith; i++) {
        bool start = i == 0;
        if (x->by_key) {
            for (size_t p = 0; p < l->npanels; p++)
                start = start || with[i] == l->panels[p].first ||
                        (with[i] > l->panels[p].first && with[i - 1] < l->panels[p].first);
        } else {
            start = start || (i - x->pstart[x->npanels - 1]) == LAT_PER_PANEL;
        }
        if (start)
            x->pstart[x->npanels++] = i;
    }
    if (st->st == RD_OK)
        x->pstart[x->npanels] = x->nwith;
    if (x->npanels == 0) {
        x->npanels = 1;
        if (x->pstart)
            x->pstart[1] = 0;
    }
}

/* The data file: a block per config with latency. */
static void lat_data(const struct rd_rworkload *w, const struct rd_chart *c,
                     const struct spectrum *sp, const struct latcfgs *x, struct rd_bw *d)
{
    RD_BW_DO(d, rd_gp_comment(d->b, "# ", c->title));
    rd_bw_str(d, "# one block per config: 1/(1-p)\tpercentile (100 = max)\tlatency\n");
    for (size_t i = 0; i < x->nwith && d->st == RD_OK; i++) {
        const struct rd_rconfig *rc = &w->configs[x->l.rows[x->with[i]]];
        if (i)
            rd_bw_str(d, "\n\n");
        RD_BW_DO(d, rd_gp_comment(d->b, "# ", rc->name));
        for (size_t k = 0; k < sp->n && d->st == RD_OK; k++) {
            RD_BW_DO(d, rd_gp_num(d->b, sp->x[k]));
            rd_bw_f(d, "\t%g\t", sp->p[k]);
            RD_BW_DO(d, rd_gp_num(d->b, rd_config_mean(rc, sp->metric[k])));
            rd_bw_ch(d, '\n');
        }
    }
}

/* The x axis's tics: 'tics' with the percentiles' names (those that would
 * meet a neighbour left out: ab's p66, p75, p80 or autocannon's p97.5,
 * p99 sit close on this axis; their tics stay), 'blank' the same places
 * without words for the upper panels. */
static void lat_tics(const struct spectrum *sp, double xlo, double xhi, double xr,
                     struct rd_bw *tics, struct rd_bw *blank)
{
    char names[24][16];
    const char *texts[24];
    bool show[24];
    for (size_t k = 0; k < sp->n; k++) {
        struct rd_buf t = RD_BUF_INIT;
        rd_bw_ok(tics, pct_name(&t, sp->p[k]) == RD_OK ? RD_OK : RD_ERR_NOMEM);
        snprintf(names[k], sizeof names[k], "%s", t.ptr);
        texts[k] = names[k];
        rd_buf_release(&t);
    }
    rd_gp_thin_ticks(sp->x, texts, sp->n, xlo, xhi, true, (xr - 0.10) * CHART_W, show);
    for (size_t k = 0; k < sp->n; k++) {
        rd_bw_f(tics, "%s'%s' %.17g", k ? ", " : "", show[k] ? names[k] : "", sp->x[k]);
        rd_bw_f(blank, "%s'' %.17g", k ? ", " : "", sp->x[k]);
    }
}

/* Where a latency chart's panels go: its height, the right edge of the
 * plots (the legend beside them) and the x range. */
struct latgeom {
    double H, xr, xlo, xhi;
    bool logy;
};

/* One panel's settings and plot line. */
static void lat_panel(const struct rd_report *r, const struct rd_rworkload *w,
                      const struct rd_chart *c, const struct latcfgs *x,
                      const struct latgeom *geo, size_t p, double top, double bottom,
                      const char *tics, struct rd_bw *g)
{
    const struct rd_layout *l = &x->l;
    bool last = p + 1 == x->npanels;
    if (p)
        rd_bw_str(g, "unset label 90\nunset label 91\n");
    size_t from = x->pstart ? x->pstart[p] : 0, to = x->pstart ? x->pstart[p + 1] : 0;
    const char *value = x->by_key && from < to && l->key
        ? rd_config_label(&w->configs[l->rows[x->with[from]]], l->key) : NULL;
    if (value) {
        struct rd_buf t = RD_BUF_INIT;
        RD_BW_DO(g, rd_buf_addf(&t, "%s: %s", l->key, value));
        rd_bw_str(g, "set label 2 ");
        RD_BW_DO(g, rd_gp_str(g->b, t.ptr));
        rd_bw_f(g, " at screen 0.10, screen %.4f left noenhanced font sprintf(',%%g', 12 * "
                   "rd_fs)\n", top + 7 / geo->H);
        rd_buf_release(&t);
    }
    rd_bw_f(g, "set lmargin at screen 0.10\nset rmargin at screen %.4f\n"
               "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", geo->xr, top, bottom);
    rd_bw_f(g, "set logscale x\nset xrange [%.17g:%.17g]\nset xtics (%s)\n", geo->xlo, geo->xhi,
            tics);
    if (geo->logy) {
        rd_bw_f(g, "set logscale y\nset yrange [%.6g:%.6g]\n", x->ymin / 1.5,
                isfinite(x->ymax * 1.5) ? x->ymax * 1.5 : x->ymax);
    } else {
        rd_bw_str(g, "unset logscale y\n");
        RD_BW_DO(g, rd_gp_range(g->b, "y", &x->all));
    }
    rd_bw_str(g, "set ylabel ");
    RD_BW_DO(g, rd_gp_str(g->b, "latency (ms)"));
    rd_bw_str(g, " noenhanced\nset grid xtics ytics lc rgb '#dddddd'\nset border 3\n"
                 "set tics nomirror\n");
    rd_bw_f(g, "set key at screen %.4f, screen %.4f left top Left reverse noenhanced\n",
            geo->xr + 0.02, top);
    rd_bw_str(g, last ? "set xlabel 'percentile'\n" : "unset xlabel\n");
    rd_bw_str(g, "plot ");
    if (from >= to)
        rd_bw_str(g, "NaN notitle");
    for (size_t i = from; i < to && g->st == RD_OK; i++) {
        size_t row = x->with[i];
        const struct rd_rconfig *rc = &w->configs[l->rows[row]];
        if (i > from)
            rd_bw_str(g, ", \\\n     ");
        RD_BW_DO(g, rd_gp_file(g->b, c->stem, "dat"));
        /* Configs of one runtime share its colour; point and dash tell
         * them apart, a disqualified one is dotted. */
        rd_bw_f(g, " index %zu using 1:3 with linespoints lw 2 pt %zu ps 1 dt %d lc rgb '%s' "
                   "title ", i, 5 + (i - from) * 2, l->out[row] ? 3 : 1,
                rd_runtime_colour(r, rc->runtime));
        /* By panel, the names without the panel's label, as in the
         * other charts. */
        struct rd_buf t = RD_BUF_INIT;
        struct rd_bw tw = RD_BW_INIT(&t);
        rd_bw_str(&tw, x->by_key ? l->names[row] : rc->name);
        if (l->out[row] && !x->by_key)
            rd_bw_str(&tw, " (disqualified)");
        if (rd_bw_ok(g, tw.st))
            RD_BW_DO(g, rd_gp_str(g->b, t.ptr));
        rd_buf_release(&t);
    }
    rd_bw_str(g, "\nunset label 2\n");
}

rd_status rd_chart_latency(const struct rd_report *r, const struct rd_rworkload *w,
                               const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                               double *h)
{
    struct spectrum sp;
    spectrum_make(w, c, &sp);
    struct latcfgs x = { .none = RD_BUF_INIT, .ymin = NAN, .ymax = NAN, .all = { NAN, NAN } };
    struct rd_bw G = RD_BW_INIT(g), D = RD_BW_INIT(dat);
    lat_configs(w, c, &sp, &x, &G);
    lat_panels(&x, &G);
    struct latgeom geo = {
        .H = HEAD_PX + (double)x.npanels * LAT_PANEL_PX + AXIS_PX + (x.none.len ? ROW_PX : 0),
        /* Log only when every value is positive. */
        .logy = x.ymax / x.ymin > 20 && x.all.lo > 0,
    };
    if (rd_bw_ok(&D, G.st))
        lat_data(w, c, &sp, &x, &D);
    rd_bw_ok(&G, D.st);
    rd_bw_str(&G, "reset\nset datafile missing '?'\nset multiplot\nset label 90 ");
    RD_BW_DO(&G, rd_gp_str(g, c->title));
    rd_bw_f(&G, " at screen 0.5, screen %.4f center noenhanced font sprintf(',%%g', 15 * "
                "rd_fs)\n", 1 - 20 / geo.H);
    if (x.none.len) {
        rd_bw_str(&G, "set label 91 ");
        RD_BW_DO(&G, rd_gp_str(g, x.none.ptr));
        rd_bw_f(&G, " at screen 0.02, screen %.4f left noenhanced tc rgb '#d55e00'\n",
                14 / geo.H);
    }
    /* x: 1 / (1 - p) on a log axis, so each decade of the tail gets the
     * same room (HdrHistogram's plot); y log when the values span more
     * than a factor 20, one range for every panel so they compare. */
    /* The legend sits right of the plot, as wide as its longest entry
     * (gnuplot's "outside" key grows into the plot from the right). */
    size_t longest = 0;
    for (size_t i = 0; i < x.nwith; i++) {
        size_t row = x.with[i];
        size_t len = strlen(x.by_key ? x.l.names[row] : w->configs[x.l.rows[row]].name) +
                     (x.l.out[row] && !x.by_key ? strlen(" (disqualified)") : 0);
        longest = len > longest ? len : longest;
    }
    double key_px = 70 + (double)longest * FONT_PX * CHAR_EM;
    geo.xr = fmin(fmax(1 - key_px / CHART_W, 0.45), 0.78);
    geo.xlo = sp.n ? sp.x[0] / 1.3 : 1;
    geo.xhi = sp.n ? sp.x[sp.n - 1] * 1.3 : 10;
    struct rd_buf tics = RD_BUF_INIT, blank = RD_BUF_INIT;
    struct rd_bw T = RD_BW_INIT(&tics), B = RD_BW_INIT(&blank);
    lat_tics(&sp, geo.xlo, geo.xhi, geo.xr, &T, &B);
    rd_bw_ok(&G, T.st);
    rd_bw_ok(&G, B.st);
    double top = 1 - HEAD_PX / geo.H;
    for (size_t p = 0; p < x.npanels && G.st == RD_OK; p++) {
        double bottom = top - (LAT_PANEL_PX - PANEL_HEAD_PX - PANEL_GAP_PX) / geo.H;
        lat_panel(r, w, c, &x, &geo, p, top, bottom,
                  p + 1 == x.npanels ? tics.ptr : blank.ptr, &G);
        top = bottom - (PANEL_HEAD_PX + PANEL_GAP_PX) / geo.H;
    }
    rd_bw_str(&G, "unset multiplot\n");
    *h = geo.H;
    free(x.with);
    free(x.pstart);
    rd_buf_release(&blank);
    rd_buf_release(&x.none);
    rd_buf_release(&tics);
    rd_layout_release(&x.l);
    return G.st;
}

struct group {
    char *name;        /* the other labels, or "all" */
    int runtime;
    size_t *members;   /* config indexes, sorted by the key's value */
    size_t n;
};

static double label_value(const struct rd_rconfig *c, const char *key)
{
    const char *s = rd_config_label(c, key);
    return s ? strtod(s, NULL) : NAN;
}

static const struct rd_rworkload *sort_w;
static const char *sort_key;

static int cmp_member(const void *a, const void *b)
{
    double x = label_value(&sort_w->configs[*(const size_t *)a], sort_key);
    double y = label_value(&sort_w->configs[*(const size_t *)b], sort_key);
    return (x > y) - (x < y);
}

/* Configs that differ only in the scaling label form one line: the
 * groups, their members in chart order. */
static size_t scaling_groups(const struct rd_rworkload *w, const struct rd_chart *c,
                             struct group *groups, struct rd_bw *st)
{
    size_t ng = 0;
    struct rd_buf name = RD_BUF_INIT;
    struct rd_bw nw = RD_BW_INIT(&name);
    for (size_t i = 0; i < c->nconfigs && st->st == RD_OK; i++) {
        const struct rd_rconfig *rc = rd_gp_drawn(w, c, i);
        rd_buf_reset(&name);
        for (size_t k = 0; k < w->nkeys; k++) {
            const char *v = rd_config_label(rc, w->keys[k]);
            if (strcmp(w->keys[k], c->key) == 0 || !v)
                continue;
            if (name.len)
                rd_bw_str(&nw, " / ");
            rd_bw_str(&nw, v);
        }
        if (name.len == 0)
            rd_bw_str(&nw, "all");
        if (!rd_bw_ok(st, nw.st))
            break;
        size_t gi = 0;
        while (gi < ng && strcmp(groups[gi].name, name.ptr) != 0)
            gi++;
        if (gi == ng) {
            groups[ng].name = strdup(name.ptr);
            groups[ng].members = calloc(c->nconfigs, sizeof(size_t));
            groups[ng].runtime = rc->runtime;
            rd_bw_ok(st, groups[ng].name && groups[ng].members ? RD_OK : RD_ERR_NOMEM);
            ng++;
        }
        if (st->st == RD_OK)
            groups[gi].members[groups[gi].n++] = c->configs[i];
    }
    rd_buf_release(&name);
    return ng;
}

/* The data file: a block per line, sorted by the label's value; sp gets
 * the span of the means and intervals. */
static void scaling_data(const struct rd_rworkload *w, const struct rd_chart *c,
                         struct group *groups, size_t ng, struct rd_span *sp, struct rd_bw *d)
{
    RD_BW_DO(d, rd_gp_comment(d->b, "# ", c->title));
    rd_bw_str(d, "# one block per line: label value\tmean\tci_low\tci_high\n");
    for (size_t gi = 0; gi < ng && d->st == RD_OK; gi++) {
        sort_w = w;
        sort_key = c->key;
        qsort(groups[gi].members, groups[gi].n, sizeof(size_t), cmp_member);
        if (gi)
            rd_bw_str(d, "\n\n");
        RD_BW_DO(d, rd_gp_comment(d->b, "# ", groups[gi].name));
        for (size_t m = 0; m < groups[gi].n && d->st == RD_OK; m++) {
            const struct rd_rconfig *rc = &w->configs[groups[gi].members[m]];
            const struct rd_rstats *s = rd_primary(rc);
            rd_gp_span_add_stats(sp, s);
            const double cols[4] = { label_value(rc, c->key), s->mean, s->ci_low, s->ci_high };
            for (size_t k = 0; k < 4; k++) {
                RD_BW_DO(d, rd_gp_num(d->b, cols[k]));
                rd_bw_ch(d, k < 3 ? '\t' : '\n');
            }
        }
    }
}

/* "set xtics (1, 2, 4)": tics at the measured values only (3 workers is
 * not a thing here). */
static void scaling_xtics(const struct rd_rworkload *w, const struct rd_chart *c,
                          struct rd_bw *g)
{
    rd_bw_str(g, " noenhanced\nset xtics (");
    double *xs = calloc(c->nconfigs + 1, sizeof *xs);
    rd_bw_ok(g, xs ? RD_OK : RD_ERR_NOMEM);
    size_t nx = 0;
    for (size_t i = 0; xs && i < c->nconfigs; i++) {
        double x = label_value(rd_gp_drawn(w, c, i), c->key);
        bool seen = false;
        for (size_t k = 0; k < nx; k++)
            if (xs[k] == x)
                seen = true;
        if (!seen && isfinite(x))
            xs[nx++] = x;
    }
    for (size_t k = 0; k < nx; k++) {
        if (k)
            rd_bw_str(g, ", ");
        RD_BW_DO(g, rd_gp_num(g->b, xs[k]));
    }
    free(xs);
    rd_bw_str(g, ")\nset offsets graph 0.05, graph 0.05, 0, 0\n");
}

rd_status rd_chart_scaling(const struct rd_report *r, const struct rd_rworkload *w,
                               const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                               double *h)
{
    *h = 450;
    struct group *groups = calloc(c->nconfigs + 1, sizeof *groups);
    struct rd_bw G = RD_BW_INIT(g), D = RD_BW_INIT(dat);
    rd_bw_ok(&G, groups ? RD_OK : RD_ERR_NOMEM);
    size_t ng = groups ? scaling_groups(w, c, groups, &G) : 0;
    struct rd_span sp = { NAN, NAN };
    if (rd_bw_ok(&D, G.st))
        scaling_data(w, c, groups, ng, &sp, &D);
    rd_bw_ok(&G, D.st);
    struct rd_buf yl = RD_BUF_INIT;
    RD_BW_DO(&G, rd_gp_ylabel(&yl, w->metric));
    RD_BW_DO(&G, rd_gp_common(g, c, yl.ptr));
    rd_buf_release(&yl);
    rd_bw_str(&G, "set xlabel ");
    RD_BW_DO(&G, rd_gp_str(g, c->key));
    scaling_xtics(w, c, &G);
    RD_BW_DO(&G, rd_gp_yrange(g, &sp));
    rd_bw_str(&G, "set key outside right top noenhanced\nplot ");
    for (size_t gi = 0; gi < ng && G.st == RD_OK; gi++) {
        if (gi)
            rd_bw_str(&G, ", \\\n     ");
        RD_BW_DO(&G, rd_gp_file(g, c->stem, "dat"));
        /* Lines of one runtime share its colour; dash and point tell its
         * mechanisms apart. A config of one run has no interval ('?'): its
         * point is drawn without a bar, for yerrorlines would skip it, and
         * a line of such points alone stopped gnuplot (issue 28, item 2). */
        rd_bw_f(&G, " index %zu using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines "
                    "lw 2 pt %zu dt %zu lc rgb '%s' title ", gi, 5 + gi % 8, 1 + gi % 5,
                rd_runtime_colour(r, groups[gi].runtime));
        RD_BW_DO(&G, rd_gp_str(g, groups[gi].name));
    }
    rd_bw_ch(&G, '\n');
    for (size_t gi = 0; groups && gi < ng; gi++) {
        free(groups[gi].name);
        free(groups[gi].members);
    }
    free(groups);
    return G.st;
}

/* Runs gnuplot in 'dir' over 'script'; its stderr goes into the diag. */