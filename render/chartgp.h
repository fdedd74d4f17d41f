/*
 * chartgp.h - what the chart files share inside render/: sizes, the rows
 * and panels of the horizontal charts (chartgp.c), gnuplot text helpers,
 * and each chart kind's body (charts.c: means and runs; chartlines.c:
 * latency and scaling). Not for use outside render/.
 *
 * A chart kind appends its data file to 'dat' and its gnuplot body to
 * 'g' (drawn once per terminal), and sets *h to the SVG's height in
 * pixels; every position in the body is in screen fractions.
 */
#ifndef RD_RENDER_CHARTGP_H
#define RD_RENDER_CHARTGP_H

#include <stdbool.h>
#include <stddef.h>

#include "backends.h"

/* The SVG's size in pixels: its width, and the rows and panels of the
 * horizontal charts (their height follows the number of configs). */
#define CHART_W 800.0
#define ROW_PX 22.0
#define HEAD_PX 64.0       /* title and legend */
#define PANEL_HEAD_PX 24.0 /* a panel's heading */
#define PANEL_GAP_PX 8.0
#define AXIS_PX 52.0       /* the x axis' tics and label */
#define FONT_PX 13.0
/* A label's width per character, as a share of the font size. */
#define CHAR_EM 0.6
/* Past this many configs the means and runs charts get a panel per
 * mechanism (or another label). */
#define PANEL_FROM 8
/* The latency chart: series per panel, and a panel's height. */
#define LAT_PER_PANEL 6
#define LAT_PANEL_PX 250.0

/* The span of the numbers a chart plots, for its y range. */
struct rd_span {
    double lo, hi;  /* NaN until a finite value is seen */
};

struct rd_panel {
    const char *value;   /* the panel label's value, NULL for one panel */
    size_t first, n;     /* rows [first, first + n) of the layout */
    double top, bottom;  /* screen fractions of its plot area */
};

/* The rows of a means or runs chart, panel by panel, each sorted by mean
 * (the better first), and where everything goes. */
struct rd_layout {
    const char *key;     /* the label the panels are by, or NULL */
    size_t *rows;        /* config indexes in drawing order */
    char **names;        /* their tic labels (without the panel's value) */
    bool *out;           /* disqualified */
    size_t n;
    struct rd_panel *panels;
    size_t npanels;
    double h;            /* the SVG's height in pixels */
    double xl, xr;       /* the plot area's left and right, screen fractions */
};

/* A legend entry of a chart's own: its mark in a colour, then its text
 * (both fixed text, never input). */
struct rd_entry {
    const char *mark, *colour, *text;
};

rd_status rd_gp_num(struct rd_buf *b, double v);

unsigned rd_gp_colour(const char *hex);

/* "# comment" with the text made harmless: a newline would end it. */
rd_status rd_gp_comment(struct rd_buf *b, const char *prefix, const char *text);

rd_status rd_gp_str(struct rd_buf *b, const char *s);

rd_status rd_gp_common(struct rd_buf *g, const struct rd_chart *c, const char *ylabel);

/* The i-th config chart c draws. */
const struct rd_rconfig *rd_gp_drawn(const struct rd_rworkload *w, const struct rd_chart *c,
                                      size_t i);

/* An axis label: the metric's registry label and the unit it is shown in. */
rd_status rd_gp_ylabel(struct rd_buf *b, const char *metric);

void rd_gp_span_add(struct rd_span *sp, double v);

void rd_gp_span_add_stats(struct rd_span *sp, const struct rd_rstats *s);

/* "set yrange" with zero on the side the values are not: bars grow from
 * zero, so a range that starts at 0 hides every negative bar, and one
 * with no value inside it makes gnuplot stop ("empty y range"). */
rd_status rd_gp_yrange(struct rd_buf *g, const struct rd_span *sp);

/* The file reference: 'stem.ext' */
rd_status rd_gp_file(struct rd_buf *g, const char *stem, const char *ext);

/* The per-run values of c: in run order as the analysis holds them, or a
 * sorted copy in *sorted (grown as needed, the caller frees) when there are
 * more than the chart shows, since then quantiles are taken. */
rd_status rd_gp_config_values(const struct rd_rconfig *c, double **sorted, size_t *cap,
                               const double **vals, size_t *n);

void rd_layout_release(struct rd_layout *l);

rd_status rd_layout_make(const struct rd_rworkload *w, const struct rd_chart *c,
                             double right_px, struct rd_layout *l);

/* The panel's frame and tics: rows top to bottom, the panel's heading. */
rd_status rd_gp_panel(struct rd_buf *g, const struct rd_layout *l, size_t p, bool last,
                          const char *xlabel);

/* Title and legend above the plot: one entry per runtime in its colour,
 * then the chart's own entries. */
rd_status rd_gp_header(struct rd_buf *g, const struct rd_report *r,
                           const struct rd_rworkload *w, const struct rd_layout *l,
                           const char *title, const struct rd_entry *extra, size_t nextra);

/* Drops the title and legend before the next panel (labels 90 on). */
rd_status rd_gp_header_off(struct rd_buf *g);

/* A value axis' range: zero always in it (a length from zero compares),
 * 4 % of the span added on each side that has values; [0:1] when there
 * is nothing to span. */
rd_status rd_gp_range(struct rd_buf *g, const char *axis, const struct rd_span *sp);

/* A horizontal chart's start: a multiplot with its title and legend. */
rd_status rd_gp_begin(struct rd_buf *g, const struct rd_report *r,
                          const struct rd_rworkload *w, const struct rd_layout *l,
                          const char *title, const struct rd_entry *extra, size_t nextra);

/* Panel p of a horizontal chart: its frame, tics and the value axis. */
rd_status rd_gp_panel_start(struct rd_buf *g, const struct rd_layout *l, size_t p,
                                const char *xlabel, const struct rd_span *sp);

/* A means chart's row: its dot, the interval around it, and a note. */
struct rd_mrow {
    double mean;        /* NaN: no dot */
    double lo, hi;      /* the interval's ends; NaN when it has none */
    bool open;          /* not estimable: open arrows from the dot to both
                         * edges of the axis, for the ends are not known */
    const char *note;   /* beside the dot (or at the row's start): a
                         * disqualified config's reason, "no mean"; or NULL */
};

/* Row i of a means chart (i a config index of w; best_mean the best's
 * mean, NaN without one). The interval is the one the verdict reads: the
 * simultaneous log-scale interval of the ratio to the best, times the
 * best's mean. The best carries its own CI on the log scale (mean ×
 * exp(±half-width / mean): positive, as the others'); a verdict that is
 * not estimable, or a best whose mean is not clearly above zero, is
 * 'open'; a disqualified config has no interval and its reason as note.
 * A mean not above zero, and every row of a workload without verdicts,
 * keeps its CI as the analysis gives it. A config the race eliminated
 * has the interval of its ratio on all its runs. Paired within rounds
 * (rd_means_paired) the dot is the best's mean times the verdict's ratio
 * and the best has no bar. */
void rd_means_row(const struct rd_rworkload *w, size_t i, double best_mean, struct rd_mrow *row);

/* Adds what the axis must cover of a row: its dot and its finite ends
 * (an open row adds its dot only: its arrows go to whatever edge). */
void rd_means_span(struct rd_span *sp, const struct rd_mrow *row);

/* The range rd_gp_range sets: zero and the span, 4 % added on each side
 * that has values; [0:1] with nothing to span. */
void rd_gp_range_of(const struct rd_span *sp, double *lo, double *hi);

/* Which of n tick labels to print so that none meets another: text[k]
 * centred at x[k] (ascending) on an axis [lo, hi] of width_px pixels
 * (logarithmic when logx). The first is kept, then each that clears the
 * last kept by a gap; the last is always kept (the one before it gives
 * way). Fills show[], returns how many are shown. */
size_t rd_gp_thin_ticks(const double *x, const char *const *text, size_t n, double lo, double hi,
                        bool logx, double width_px, bool *show);

rd_status rd_chart_means(const struct rd_report *r, const struct rd_rworkload *w,
                         const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                         double *h);
rd_status rd_chart_runs(const struct rd_report *r, const struct rd_rworkload *w,
                        const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                        double *h);
rd_status rd_chart_latency(const struct rd_report *r, const struct rd_rworkload *w,
                           const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                           double *h);
rd_status rd_chart_scaling(const struct rd_report *r, const struct rd_rworkload *w,
                           const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g,
                           double *h);

#endif
