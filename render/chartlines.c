/*
 * chartlines - the line charts: latency as a percentile spectrum (x on a
 * log 1/(1 - p) axis, HdrHistogram's plot, y log when the values span a
 * factor 20; at most 6 series a panel, by mechanism when that fits, the
 * legend beside the plot; configs without latency named under it) and
 * the mean against a numeric label (workers, connections), one line per
 * combination of the other labels.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartgp.h"
#include "escape.h"
#include "rundown/array.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"
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

rd_status rd_chart_latency(const struct rd_report *r, const struct rd_rworkload *w,
                               const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                               double *h)
{
    struct spectrum sp;
    spectrum_make(w, c, &sp);
    /* The configs with latency, sorted by the highest percentile (the
     * better first), in panels of at most LAT_PER_PANEL; those without
     * are named under the chart. */
    struct rd_layout l;
    rd_status st = rd_layout_make(w, c, 250, &l);
    size_t *with = malloc((l.n + 1) * sizeof *with), nwith = 0;
    if (!with)
        st = RD_ERR_NOMEM;
    struct rd_buf none = RD_BUF_INIT;
    double ymin = NAN, ymax = NAN;
    struct rd_span all = { NAN, NAN };
    for (size_t i = 0; i < l.n && st == RD_OK; i++) {
        const struct rd_rconfig *rc = &w->configs[l.rows[i]];
        bool any = false;
        for (size_t k = 0; k < sp.n; k++) {
            double v = rd_config_mean(rc, sp.metric[k]);
            any = any || isfinite(v);
            rd_gp_span_add(&all, v);
            if (isfinite(v) && v > 0) {
                ymin = !(ymin <= v) ? v : ymin;
                ymax = !(ymax >= v) ? v : ymax;
            }
        }
        if (any) {
            with[nwith++] = i;
        } else {
            st = rd_buf_addstr(&none, none.len ? ", " : "no latency (no good run): ");
            if (st == RD_OK) st = rd_buf_addstr(&none, rc->name);
        }
    }
    /* Panels: the layout's (by mechanism) when each holds at most
     * LAT_PER_PANEL configs with latency, else runs of LAT_PER_PANEL. */
    size_t *pstart = malloc((nwith + 2) * sizeof *pstart), npanels = 0;
    bool by_key = l.npanels > 1;
    for (size_t p = 0; by_key && p < l.npanels; p++) {
        size_t k = 0;
        for (size_t i = 0; i < nwith; i++)
            k += with[i] >= l.panels[p].first && with[i] < l.panels[p].first + l.panels[p].n;
        by_key = k <= LAT_PER_PANEL;
    }
    if (!pstart)
        st = RD_ERR_NOMEM;
    for (size_t i = 0; st == RD_OK && i < nwith; i++) {
        bool start = i == 0;
        if (by_key) {
            for (size_t p = 0; p < l.npanels; p++)
                start = start || with[i] == l.panels[p].first ||
                        (with[i] > l.panels[p].first && with[i - 1] < l.panels[p].first);
        } else {
            start = start || (i - pstart[npanels - 1]) == LAT_PER_PANEL;
        }
        if (start)
            pstart[npanels++] = i;
    }
    if (st == RD_OK)
        pstart[npanels] = nwith;
    if (npanels == 0) {
        npanels = 1;
        if (pstart)
            pstart[1] = 0;
    }
    double H = HEAD_PX + (double)npanels * LAT_PANEL_PX + AXIS_PX + (none.len ? ROW_PX : 0);
    /* Log only when every value is positive. */
    bool logy = ymax / ymin > 20 && all.lo > 0;
    if (st == RD_OK) st = rd_gp_comment(dat, "# ", c->title);
    if (st == RD_OK)
        st = rd_buf_addstr(dat, "# one block per config: 1/(1-p)\tpercentile (100 = max)\tlatency\n");
    for (size_t i = 0; i < nwith && st == RD_OK; i++) {
        const struct rd_rconfig *rc = &w->configs[l.rows[with[i]]];
        if (i)
            st = rd_buf_addstr(dat, "\n\n");
        if (st == RD_OK) st = rd_gp_comment(dat, "# ", rc->name);
        for (size_t k = 0; k < sp.n && st == RD_OK; k++) {
            st = rd_gp_num(dat, sp.x[k]);
            if (st == RD_OK) st = rd_buf_addf(dat, "\t%g\t", sp.p[k]);
            if (st == RD_OK) st = rd_gp_num(dat, rd_config_mean(rc, sp.metric[k]));
            if (st == RD_OK) st = rd_buf_addch(dat, '\n');
        }
    }
    if (st == RD_OK)
        st = rd_buf_addstr(g, "reset\nset datafile missing '?'\nset multiplot\nset label 90 ");
    if (st == RD_OK) st = rd_gp_str(g, c->title);
    if (st == RD_OK)
        st = rd_buf_addf(g, " at screen 0.5, screen %.4f center noenhanced font sprintf(',%%g', 15 * rd_fs)\n", 1 - 20 / H);
    if (st == RD_OK && none.len) {
        st = rd_buf_addstr(g, "set label 91 ");
        if (st == RD_OK) st = rd_gp_str(g, none.ptr);
        if (st == RD_OK)
            st = rd_buf_addf(g, " at screen 0.02, screen %.4f left noenhanced tc rgb '#d55e00'\n",
                             14 / H);
    }
    /* x: 1 / (1 - p) on a log axis, so each decade of the tail gets the
     * same room (HdrHistogram's plot); y log when the values span more
     * than a factor 20, one range for every panel so they compare. */
    /* The legend sits right of the plot, as wide as its longest entry
     * (gnuplot's "outside" key grows into the plot from the right). */
    size_t longest = 0;
    for (size_t i = 0; i < nwith; i++) {
        size_t row = with[i];
        size_t len = strlen(by_key ? l.names[row] : w->configs[l.rows[row]].name) +
                     (l.out[row] && !by_key ? strlen(" (disqualified)") : 0);
        longest = len > longest ? len : longest;
    }
    double key_px = 70 + (double)longest * FONT_PX * CHAR_EM;
    double xr = fmin(fmax(1 - key_px / CHART_W, 0.45), 0.78);
    /* Tick labels that would meet a neighbour are left out (ab's p66,
     * p75, p80 or autocannon's p97.5, p99 sit close on this axis); their
     * tics stay. */
    char names[24][16];
    const char *texts[24];
    bool show[24];
    for (size_t k = 0; k < sp.n; k++) {
        struct rd_buf t = RD_BUF_INIT;
        if (pct_name(&t, sp.p[k]) != RD_OK)
            st = RD_ERR_NOMEM;
        snprintf(names[k], sizeof names[k], "%s", t.ptr);
        texts[k] = names[k];
        rd_buf_release(&t);
    }
    double xlo = sp.n ? sp.x[0] / 1.3 : 1, xhi = sp.n ? sp.x[sp.n - 1] * 1.3 : 10;
    rd_gp_thin_ticks(sp.x, texts, sp.n, xlo, xhi, true, (xr - 0.10) * CHART_W, show);
    struct rd_buf tics = RD_BUF_INIT;
    for (size_t k = 0; k < sp.n && st == RD_OK; k++)
        st = rd_buf_addf(&tics, "%s'%s' %.17g", k ? ", " : "", show[k] ? names[k] : "", sp.x[k]);
    struct rd_buf yl = RD_BUF_INIT;
    if (st == RD_OK) st = rd_buf_addstr(&yl, "latency (ms)");
    /* The tics of the upper panels: the same places, no words. */
    struct rd_buf blank = RD_BUF_INIT;
    for (size_t k = 0; k < sp.n && st == RD_OK; k++)
        st = rd_buf_addf(&blank, "%s'' %.17g", k ? ", " : "", sp.x[k]);
    double top = 1 - HEAD_PX / H;
    for (size_t p = 0; p < npanels && st == RD_OK; p++) {
        double bottom = top - (LAT_PANEL_PX - PANEL_HEAD_PX - PANEL_GAP_PX) / H;
        bool last = p + 1 == npanels;
        if (p) st = rd_buf_addstr(g, "unset label 90\nunset label 91\n");
        size_t from = pstart ? pstart[p] : 0, to = pstart ? pstart[p + 1] : 0;
        const char *value = by_key && from < to && l.key
            ? rd_config_label(&w->configs[l.rows[with[from]]], l.key) : NULL;
        if (st == RD_OK && value) {
            struct rd_buf t = RD_BUF_INIT;
            st = rd_buf_addf(&t, "%s: %s", l.key, value);
            if (st == RD_OK) st = rd_buf_addstr(g, "set label 2 ");
            if (st == RD_OK) st = rd_gp_str(g, t.ptr);
            if (st == RD_OK)
                st = rd_buf_addf(g, " at screen 0.10, screen %.4f left noenhanced "
                                    "font sprintf(',%%g', 12 * rd_fs)\n", top + 7 / H);
            rd_buf_release(&t);
        }
        if (st == RD_OK)
            st = rd_buf_addf(g, "set lmargin at screen 0.10\nset rmargin at screen %.4f\n"
                                "set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
                             xr, top, bottom);
        if (st == RD_OK)
            st = rd_buf_addf(g, "set logscale x\nset xrange [%.17g:%.17g]\nset xtics (%s)\n",
                             xlo, xhi, last ? tics.ptr : blank.ptr);
        if (st == RD_OK && logy)
            st = rd_buf_addf(g, "set logscale y\nset yrange [%.6g:%.6g]\n", ymin / 1.5,
                             isfinite(ymax * 1.5) ? ymax * 1.5 : ymax);
        else if (st == RD_OK) {
            st = rd_buf_addstr(g, "unset logscale y\n");
            if (st == RD_OK) st = rd_gp_range(g, "y", &all);
        }
        if (st == RD_OK) st = rd_buf_addstr(g, "set ylabel ");
        if (st == RD_OK) st = rd_gp_str(g, yl.ptr);
        if (st == RD_OK)
            st = rd_buf_addstr(g, " noenhanced\nset grid xtics ytics lc rgb '#dddddd'\nset border 3\n"
                                  "set tics nomirror\n");
        if (st == RD_OK)
            st = rd_buf_addf(g, "set key at screen %.4f, screen %.4f left top Left reverse "
                                "noenhanced\n", xr + 0.02, top);
        if (st == RD_OK)
            st = rd_buf_addstr(g, last ? "set xlabel 'percentile'\n" : "unset xlabel\n");
        if (st == RD_OK) st = rd_buf_addstr(g, "plot ");
        if (from >= to && st == RD_OK)
            st = rd_buf_addstr(g, "NaN notitle");
        for (size_t i = from; i < to && st == RD_OK; i++) {
            size_t row = with[i];
            const struct rd_rconfig *rc = &w->configs[l.rows[row]];
            if (i > from) st = rd_buf_addstr(g, ", \\\n     ");
            if (st == RD_OK) st = rd_gp_file(g, c->stem, "dat");
            /* Configs of one runtime share its colour; point and dash tell
             * them apart, a disqualified one is dotted. */
            if (st == RD_OK)
                st = rd_buf_addf(g, " index %zu using 1:3 with linespoints lw 2 pt %zu ps 1 "
                                    "dt %d lc rgb '%s' title ", i, 5 + (i - from) * 2,
                                 l.out[row] ? 3 : 1, rd_runtime_colour(r, rc->runtime));
            /* By panel, the names without the panel's label, as in the
             * other charts. */
            struct rd_buf t = RD_BUF_INIT;
            if (st == RD_OK) st = rd_buf_addstr(&t, by_key ? l.names[row] : rc->name);
            if (st == RD_OK && l.out[row] && !by_key) st = rd_buf_addstr(&t, " (disqualified)");
            if (st == RD_OK) st = rd_gp_str(g, t.ptr);
            rd_buf_release(&t);
        }
        if (st == RD_OK) st = rd_buf_addstr(g, "\nunset label 2\n");
        top = bottom - (PANEL_HEAD_PX + PANEL_GAP_PX) / H;
    }
    if (st == RD_OK) st = rd_buf_addstr(g, "unset multiplot\n");
    *h = H;
    free(with);
    free(pstart);
    rd_buf_release(&blank);
    rd_buf_release(&none);
    rd_buf_release(&tics);
    rd_buf_release(&yl);
    rd_layout_release(&l);
    return st;
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

rd_status rd_chart_scaling(const struct rd_report *r, const struct rd_rworkload *w,
                               const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                               double *h)
{
    *h = 450;
    struct group *groups = calloc(c->nconfigs + 1, sizeof *groups);
    size_t ng = 0;
    rd_status st = groups ? RD_OK : RD_ERR_NOMEM;
    struct rd_buf name = RD_BUF_INIT;
    /* Configs that differ only in the scaling label form one line. */
    for (size_t i = 0; i < c->nconfigs && st == RD_OK; i++) {
        const struct rd_rconfig *rc = rd_gp_drawn(w, c, i);
        rd_buf_reset(&name);
        for (size_t k = 0; k < w->nkeys && st == RD_OK; k++) {
            const char *v = rd_config_label(rc, w->keys[k]);
            if (strcmp(w->keys[k], c->key) == 0 || !v)
                continue;
            if (name.len)
                st = rd_buf_addstr(&name, " / ");
            if (st == RD_OK)
                st = rd_buf_addstr(&name, v);
        }
        if (st == RD_OK && name.len == 0)
            st = rd_buf_addstr(&name, "all");
        size_t gi = 0;
        while (gi < ng && strcmp(groups[gi].name, name.ptr) != 0)
            gi++;
        if (st == RD_OK && gi == ng) {
            groups[ng].name = strdup(name.ptr);
            groups[ng].members = calloc(c->nconfigs, sizeof(size_t));
            groups[ng].runtime = rc->runtime;
            if (!groups[ng].name || !groups[ng].members)
                st = RD_ERR_NOMEM;
            ng++;
        }
        if (st == RD_OK)
            groups[gi].members[groups[gi].n++] = c->configs[i];
    }
    rd_buf_release(&name);
    struct rd_span sp = { NAN, NAN };
    if (st == RD_OK) st = rd_gp_comment(dat, "# ", c->title);
    if (st == RD_OK)
        st = rd_buf_addstr(dat, "# one block per line: label value\tmean\tci_low\tci_high\n");
    for (size_t gi = 0; gi < ng && st == RD_OK; gi++) {
        sort_w = w;
        sort_key = c->key;
        qsort(groups[gi].members, groups[gi].n, sizeof(size_t), cmp_member);
        if (gi)
            st = rd_buf_addstr(dat, "\n\n");
        if (st == RD_OK) st = rd_gp_comment(dat, "# ", groups[gi].name);
        for (size_t m = 0; m < groups[gi].n && st == RD_OK; m++) {
            const struct rd_rconfig *rc = &w->configs[groups[gi].members[m]];
            const struct rd_rstats *s = rd_primary(rc);
            rd_gp_span_add_stats(&sp, s);
            st = rd_gp_num(dat, label_value(rc, c->key));
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = rd_gp_num(dat, s->mean);
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = rd_gp_num(dat, s->ci_low);
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = rd_gp_num(dat, s->ci_high);
            if (st == RD_OK) st = rd_buf_addch(dat, '\n');
        }
    }
    struct rd_buf yl = RD_BUF_INIT;
    if (st == RD_OK) st = rd_gp_ylabel(&yl, w->metric);
    if (st == RD_OK) st = rd_gp_common(g, c, yl.ptr);
    rd_buf_release(&yl);
    if (st == RD_OK) st = rd_buf_addstr(g, "set xlabel ");
    if (st == RD_OK) st = rd_gp_str(g, c->key);
    /* Tics at the measured values only: 3 workers is not a thing here. */
    if (st == RD_OK) st = rd_buf_addstr(g, " noenhanced\nset xtics (");
    double *xs = calloc(c->nconfigs + 1, sizeof *xs);
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
    for (size_t k = 0; k < nx && st == RD_OK; k++) {
        if (k)
            st = rd_buf_addstr(g, ", ");
        if (st == RD_OK) st = rd_gp_num(g, xs[k]);
    }
    free(xs);
    if (st == RD_OK)
        st = rd_buf_addstr(g, ")\nset offsets graph 0.05, graph 0.05, 0, 0\n");
    if (st == RD_OK) st = rd_gp_yrange(g, &sp);
    if (st == RD_OK) st = rd_buf_addstr(g, "set key outside right top noenhanced\nplot ");
    for (size_t gi = 0; gi < ng && st == RD_OK; gi++) {
        if (gi)
            st = rd_buf_addstr(g, ", \\\n     ");
        if (st == RD_OK) st = rd_gp_file(g, c->stem, "dat");
        /* Lines of one runtime share its colour; dash and point tell
         * its mechanisms apart. */
        if (st == RD_OK)
            /* A config of one run has no interval ('?'): its point is drawn
             * without a bar, for yerrorlines would skip it, and a line of
             * such points alone stopped gnuplot (issue 28, item 2). */
            st = rd_buf_addf(g, " index %zu using 1:2:(valid(3)?$3:$2):(valid(4)?$4:$2) with yerrorlines lw 2 pt %zu dt %zu lc rgb '%s' title ",
                             gi, 5 + gi % 8, 1 + gi % 5, rd_runtime_colour(r, groups[gi].runtime));
        if (st == RD_OK) st = rd_gp_str(g, groups[gi].name);
    }
    if (st == RD_OK) st = rd_buf_addch(g, '\n');
    for (size_t gi = 0; groups && gi < ng; gi++) {
        free(groups[gi].name);
        free(groups[gi].members);
    }
    free(groups);
    return st;
}

/* Runs gnuplot in 'dir' over 'script'; its stderr goes into the diag. */