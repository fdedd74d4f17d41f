/*
 * xlsx - report.xlsx with libxlsxwriter (the only file that uses it).
 *
 * Sheets: Recommendations (first, one row per workload: the decision and
 * the verdicts), one sheet per workload (stats with each config's verdict
 * and pairwise tables as Excel tables, significance by conditional format,
 * a native chart of the means with their CIs as error bars; a pass/fail
 * workload gets its matrix instead), Raw
 * runs (the records the analysis embeds, runs.c),
 * Environment and Methods.
 *
 * Numbers are written as numbers and undefined values as blank cells, never
 * as a made-up 0. Every string goes through worksheet_write_string, so
 * "=1+1" from a label stays text. The document's dates are fixed from the
 * analysis, so the same input gives the same bytes.
 */
#include "backends.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <xlsxwriter.h>

#include "chartgp.h"
#include "derive.h"
#include "escape.h"
#include "rundown/array.h"
#include "rundown/metrics.h"
#include "lookup.h"
#include "runs.h"
#include "verdicts.h"

#define MAX_ROWS 1048575u
#define MAX_COLS 16000u

struct book {
    lxw_workbook *wb;
    lxw_format *bold, *head, *num, *num3, *p, *pct, *wrap, *title, *sig, *intf;
    char *names[RD_XLSX_MAX_WORKLOAD_SHEETS + 8]; /* sheet names used so far */
    size_t nnames;
    double alpha;
    /* The first libxlsxwriter error, with the call that returned it: every
     * call is checked, the report fails with the first (git's strbuf
     * style: the writer goes on, the error is kept). */
    lxw_error err;
    const char *err_call;
    bool oom;
    const struct rd_render_opts *o;   /* its warn hook */
};

/* Keeps the first error of a libxlsxwriter call. */
static void xl_check(struct book *b, lxw_error e, const char *call)
{
    if (e != LXW_NO_ERROR && b->err == LXW_NO_ERROR) {
        b->err = e;
        b->err_call = call;
    }
}
#define XL(b, call) xl_check((b), (call), #call)

static lxw_worksheet *add_sheet(struct book *b, const char *want)
{
    char name[128];
    rd_sheet_name(want, name, sizeof name);
    rd_sheet_name_unique(name, sizeof name, b->names, b->nnames);
    if (b->nnames == sizeof b->names / sizeof b->names[0])
        return NULL;
    char *copy = strdup(name);
    if (!copy)
        return NULL;
    b->names[b->nnames++] = copy;
    return workbook_add_worksheet(b->wb, copy);
}

/* Excel's limit on a cell's text (characters, not bytes). A longer one is
 * cut with a visible marker, and a warning names the cell: libxlsxwriter
 * would refuse it and leave the cell empty. */
#define XLSX_MAX_CELL 32767
#define XLSX_CUT_MARK " [\xe2\x80\xa6 cut: Excel holds 32,767 characters in a cell]"

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void warn_cut(struct book *b, const lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                     size_t chars)
{
    if (!b->o || !b->o->warn)
        return;
    char cell[16], msg[200];
    lxw_rowcol_to_cell(cell, r, c);
    snprintf(msg, sizeof msg, "report.xlsx: sheet '%s', cell %s: a text of %zu characters "
             "is cut to Excel's 32,767", ws->name, cell, chars);
    b->o->warn(b->o->warn_ctx, msg);
}

/* A string cell; NULL leaves the cell blank. Control bytes would make the
 * XML invalid, so they become spaces (a tab or newline stays). */
static void put_str(struct book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const char *s,
                    lxw_format *f)
{
    if (!s)
        return;
    bool clean = true;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
            clean = false;
    size_t len = strlen(s), chars = len > XLSX_MAX_CELL ? utf8_chars(s) : 0;
    if (clean && chars <= XLSX_MAX_CELL) {
        XL(b, worksheet_write_string(ws, r, c, s, f));
        return;
    }
    char *copy = malloc(len + sizeof XLSX_CUT_MARK);
    if (!copy) {
        b->oom = true;
        return;
    }
    memcpy(copy, s, len + 1);
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
            *p = ' ';
    if (chars > XLSX_MAX_CELL) {
        /* Keep whole characters, and room for the marker. */
        size_t keep = XLSX_MAX_CELL - utf8_chars(XLSX_CUT_MARK), at = 0;
        for (size_t k = 0; copy[at] && k <= keep; at++)
            if (((unsigned char)copy[at] & 0xC0) != 0x80 && k++ == keep)
                break;
        memcpy(copy + at, XLSX_CUT_MARK, sizeof XLSX_CUT_MARK);
        warn_cut(b, ws, r, c, chars);
    }
    XL(b, worksheet_write_string(ws, r, c, copy, f));
    free(copy);
}

/* A number cell; NaN (undefined) leaves it blank. */
static void put_num(struct book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v,
                    lxw_format *f)
{
    if (isfinite(v))
        XL(b, worksheet_write_number(ws, r, c, v, f));
    else if (f)
        XL(b, worksheet_write_blank(ws, r, c, f));
}

/* n strings, or n numbers, across a row from column c. */
static void put_strs(struct book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                     const char *const *s, size_t n, lxw_format *f)
{
    for (size_t i = 0; i < n; i++)
        put_str(b, ws, r, (lxw_col_t)(c + i), s[i], f);
}

static void put_nums(struct book *b, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                     const double *v, size_t n, lxw_format *f)
{
    for (size_t i = 0; i < n; i++)
        put_num(b, ws, r, (lxw_col_t)(c + i), v[i], f);
}

static lxw_error check(lxw_error e, rd_status *st, struct rd_diag *d, const char *what)
{
    if (e != LXW_NO_ERROR && *st == RD_OK)
        *st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "xlsx: %s: %s", what, lxw_strerror(e));
    return e;
}

/* Table headers must be unique (case-insensitively) and non-empty. */
struct headers {
    char *items[MAX_COLS / 16];
    size_t n;
    bool oom;   /* a name could not be kept: add_table fails */
};

static void headers_add(struct headers *h, const char *want)
{
    if (h->n == sizeof h->items / sizeof h->items[0])
        return;
    char name[256];
    snprintf(name, sizeof name, "%s", want && *want ? want : "column");
    for (char *p = name; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
    char base[256];
    snprintf(base, sizeof base, "%s", name);
    for (unsigned k = 2;; k++) {
        bool clash = false;
        for (size_t i = 0; i < h->n; i++)
            if (strcasecmp(h->items[i], name) == 0)
                clash = true;
        if (!clash)
            break;
        snprintf(name, sizeof name, "%.200s (%u)", base, k);
    }
    if ((h->items[h->n] = strdup(name)))
        h->n++;
    else
        h->oom = true;
}

static void headers_release(struct headers *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->items[i]);
    h->n = 0;
}

/* An Excel table over rows first..last with the given headers. */
static lxw_error add_table(lxw_worksheet *ws, lxw_row_t first, lxw_row_t last,
                           struct headers *h, lxw_format *head)
{
    if (h->oom)
        return LXW_ERROR_MEMORY_MALLOC_FAILED;
    if (h->n == 0)
        return LXW_NO_ERROR;
    lxw_table_column *cols = calloc(h->n, sizeof *cols);
    lxw_table_column **ptrs = calloc(h->n + 1, sizeof *ptrs);
    if (!cols || !ptrs) {
        free(cols);
        free(ptrs);
        return LXW_ERROR_MEMORY_MALLOC_FAILED;
    }
    for (size_t i = 0; i < h->n; i++) {
        cols[i].header = h->items[i];
        cols[i].header_format = head;
        ptrs[i] = &cols[i];
    }
    lxw_table_options opt = { 0 };
    opt.style_type = LXW_TABLE_STYLE_TYPE_LIGHT;
    opt.style_type_number = 9;
    opt.columns = ptrs;
    /* A table needs a data row, even an empty one. */
    lxw_error e = worksheet_add_table(ws, first, 0, last > first ? last : first + 1,
                                      (lxw_col_t)(h->n - 1), &opt);
    free(cols);
    free(ptrs);
    return e;
}

/* The Recommendations sheet: one row per workload, the decision first. */
static void sheet_recommendations(struct book *b, const struct rd_report *r, lxw_worksheet *ws)
{
    static const char *cols[] = {
        "workload", "decision", "recommended", "verdict", "class", "metric", "unit", "better",
        "best mean config", "mean", "CI low", "CI high", "n", "nearest other config",
        "its verdict", "ratio to best", "ratio CI low", "ratio CI high", "p_adj",
        "runs needed", "margin", "disqualified", "max RSS (MiB)", "reason",
    };
    const size_t ncols = sizeof cols / sizeof cols[0];
    put_strs(b, ws, 0, 0, cols, ncols, b->head);
    lxw_row_t row = 1;
    struct rd_buf t = RD_BUF_INIT;
    for (size_t wi = 0; wi < r->nworkloads; wi++, row++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        struct rd_metric_def def;
        rd_metric_describe(w->metric ? w->metric : "", &def);
        bool cat = rd_workload_categorical(w);
        put_str(b, ws, row, 0, w->name, NULL);
        put_str(b, ws, row, 1, cat ? "pass/fail" : rd_decision_word(rd_workload_decision(w)), b->bold);
        put_str(b, ws, row, 4, w->klass, NULL);
        put_str(b, ws, row, 5, w->metric, NULL);
        put_str(b, ws, row, 6, w->metric ? def.unit : NULL, NULL);
        put_str(b, ws, row, 7, rd_better_name(w->better), NULL);
        if (cat) {
            put_str(b, ws, row, 3,
                    wi < RD_XLSX_MAX_WORKLOAD_SHEETS
                        ? "a pass/fail matrix: see the workload's sheet"
                        : "a pass/fail matrix: see the analysis (JSON); no sheet of its own",
                    NULL);
            continue;
        }
        int rec = w->recommended, shown = rec >= 0 ? rec : w->best;
        if (rec >= 0)
            put_str(b, ws, row, 2, w->configs[rec].name, b->bold);
        rd_buf_reset(&t);
        rd_decision_text(w, &t);
        put_str(b, ws, row, 3, t.len ? t.ptr : NULL, b->wrap);
        if (shown >= 0) {
            const struct rd_rstats *st = rd_primary(&w->configs[shown]);
            put_str(b, ws, row, 8, w->configs[shown].name, NULL);
            put_num(b, ws, row, 9, st->mean, b->num);
            put_num(b, ws, row, 10, st->ci_low, b->num);
            put_num(b, ws, row, 11, st->ci_high, b->num);
            put_num(b, ws, row, 12, st->n, b->intf);
            put_num(b, ws, row, 22, rd_config_rss_mib(&w->configs[shown]), b->num);
        }
        int near = rd_workload_nearest(w);
        const struct rd_rverdict *v = rd_config_verdict(w, near);
        if (v) {
            put_str(b, ws, row, 13, w->configs[near].name, NULL);
            char phrase[64];
            put_str(b, ws, row, 14, rd_config_verdict_phrase(w, v, phrase, sizeof phrase), NULL);
            double lo, hi;
            rd_verdict_shown_ci(v, &lo, &hi);
            put_num(b, ws, row, 15, v->ratio, b->num3);
            put_num(b, ws, row, 16, lo, b->num3);
            put_num(b, ws, row, 17, hi, b->num3);
            put_num(b, ws, row, 18, v->p_adj, b->p);
        }
        if (w->rec) {
            put_num(b, ws, row, 19, w->rec->primary.runs_needed, b->intf);
            put_num(b, ws, row, 20, w->rec->margin, b->pct);
        }
        rd_buf_reset(&t);
        for (size_t k = 0; w->rec && k < w->rec->primary.nverdicts; k++) {
            const struct rd_rverdict *x = &w->rec->primary.verdicts[k];
            if (x->verdict == RD_VERDICT_DISQUALIFIED && x->index >= 0)
                rd_buf_addf(&t, "%s%s (%s)", t.len ? "; " : "", w->configs[x->index].name,
                            x->why ? x->why : "disqualified");
        }
        put_str(b, ws, row, 21, t.len ? t.ptr : NULL, b->wrap);
        rd_buf_reset(&t);
        b->oom |= rd_reason_with_look(w->rec, r->alpha, &t) != RD_OK;
        put_str(b, ws, row, 23, t.len ? t.ptr : NULL, b->wrap);
    }
    if (r->nworkloads > RD_XLSX_MAX_WORKLOAD_SHEETS) {
        rd_buf_reset(&t);
        rd_buf_addf(&t,
                    "The first %u of these %zu workloads have a sheet of their own; the other "
                    "%zu are in this table, in comparisons.csv and summary.csv and in the "
                    "analysis (JSON).",
                    (unsigned)RD_XLSX_MAX_WORKLOAD_SHEETS, r->nworkloads,
                    r->nworkloads - RD_XLSX_MAX_WORKLOAD_SHEETS);
        put_str(b, ws, row + 1, 0, t.ptr, b->bold);
    }
    rd_buf_release(&t);
    worksheet_freeze_panes(ws, 1, 1);
    XL(b, worksheet_autofilter(ws, 0, 0, row > 1 ? row - 1 : 1, (lxw_col_t)(ncols - 1)));
    static const struct { lxw_col_t first, last; double width; } widths[] = {
        { 0, 0, 22 }, { 1, 1, 12 }, { 2, 2, 26 }, { 3, 3, 48 }, { 4, 7, 10 }, { 8, 8, 26 },
        { 9, 12, 11 }, { 13, 13, 26 }, { 14, 20, 12 }, { 21, 21, 40 }, { 22, 22, 12 },
        { 23, 23, 80 }
    };
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
        XL(b, worksheet_set_column(ws, widths[i].first, widths[i].last, widths[i].width, NULL));
}

/* A column of numbers: its header and where the struct holds the value. */
struct num_col {
    const char *header;
    size_t offset;
};

#define STAT_COL(field) { #field, offsetof(struct rd_rstats, field) }
#define PAIR_COL(field) { #field, offsetof(struct rd_rpair, field) }

static const struct num_col stat_cols[] = {
    STAT_COL(n), STAT_COL(mean), STAT_COL(sd), STAT_COL(se), STAT_COL(ci_low),
    STAT_COL(ci_high), STAT_COL(median), STAT_COL(min), STAT_COL(max), STAT_COL(q1),
    STAT_COL(q3), STAT_COL(p90), STAT_COL(p95), STAT_COL(p99), STAT_COL(mad), STAT_COL(cv),
    STAT_COL(geomean),
};

static const struct num_col pair_cols[] = {
    PAIR_COL(diff), PAIR_COL(diff_ci_low), PAIR_COL(diff_ci_high), PAIR_COL(ratio),
    PAIR_COL(ratio_ci_low), PAIR_COL(ratio_ci_high), PAIR_COL(welch_t), PAIR_COL(welch_df),
    PAIR_COL(p), PAIR_COL(p_holm), PAIR_COL(mw_u), PAIR_COL(mw_p), PAIR_COL(hedges_g),
    PAIR_COL(prob_superiority),
};

static double col_value(const void *s, const struct num_col *c)
{
    double v;
    memcpy(&v, (const char *)s + c->offset, sizeof v);
    return v;
}

/* Config i's series in a means chart: read from the diagonal block of
 * chart data under ctop (its value in column 1 + i, the rest blank),
 * named by its header cell, without a line; NULL (b->oom) when it
 * cannot be had. */
static lxw_chart_series *config_series(struct book *b, const struct rd_rworkload *w,
                                       lxw_chart *chart, const char *sheet, lxw_row_t ctop,
                                       size_t i)
{
    const size_t k = w->nconfigs;
    lxw_chart_series *cs = chart_add_series(chart, NULL, NULL);
    if (!cs) {
        b->oom = true;
        return NULL;
    }
    lxw_col_t col = (lxw_col_t)(1 + i);
    chart_series_set_categories(cs, sheet, ctop + 2, 0, ctop + 1 + (lxw_row_t)k, 0);
    chart_series_set_values(cs, sheet, ctop + 2, col, ctop + 1 + (lxw_row_t)k, col);
    /* By the header cell: a name given as text that starts with '=' would
     * be read as a formula. */
    chart_series_set_name_range(cs, sheet, ctop + 1, col);
    lxw_chart_line none = { .none = LXW_TRUE };
    chart_series_set_line(cs, &none);
    return cs;
}

/* The header cell of config i's column in the chart data, which names
 * its series in the legend: its name, and when the chart draws no bar for
 * it, why ("c (interval not estimable)"), for a dot without a bar would
 * read as an interval too narrow to see. */
static void config_header(struct book *b, const struct rd_rworkload *w, lxw_worksheet *ws,
                          lxw_row_t ctop, size_t i, const char *why)
{
    if (!why) {
        put_str(b, ws, ctop + 1, (lxw_col_t)(1 + i), w->configs[i].name, b->head);
        return;
    }
    struct rd_buf t = RD_BUF_INIT;
    if (rd_buf_addf(&t, "%s (%s)", w->configs[i].name, why) != RD_OK)
        b->oom = true;
    else
        put_str(b, ws, ctop + 1, (lxw_col_t)(1 + i), t.ptr, b->head);
    rd_buf_release(&t);
}

/* The dot of config i's series: a circle in its runtime's colour, open
 * (no fill) for a config not compared, as in the report's charts. */
static void config_dot(const struct rd_report *r, const struct rd_rworkload *w, size_t i,
                       bool open, lxw_chart_series *cs)
{
    lxw_color_t c = (lxw_color_t)strtoul(rd_runtime_colour(r, w->configs[i].runtime) + 1,
                                         NULL, 16);
    lxw_chart_fill fill = { .color = c, .none = open };
    lxw_chart_line mline = { .color = c };
    chart_series_set_marker_fill(cs, &fill);
    chart_series_set_marker_line(cs, &mline);
    chart_series_set_marker_type(cs, LXW_CHART_MARKER_CIRCLE);
    chart_series_set_marker_size(cs, 8);
}

/* A paired workload's chart (rd_means_paired): what the report's means
 * chart draws (chartgp.h, rd_means_row), for the verdicts read each
 * config's within-round ratios to the best, not its own mean: its dot
 * the best's mean × its ratio, its bar that ratio's interval × the
 * best's mean, asymmetric (a log-scale interval), the best without one.
 * libxlsxwriter's error bars are one fixed value a series, with no
 * custom (per point, from cells) amounts, but each may go one way: a
 * config is two series on the same cells, its dot with the bar above
 * it, and a markerless twin, left out of the legend, with the bar
 * below. The cells hold the dot, low and high, for the reader. */
static void chart_paired(struct book *b, const struct rd_report *r,
                         const struct rd_rworkload *w, lxw_chart *chart, lxw_worksheet *ws,
                         const char *sheet, lxw_row_t ctop)
{
    const size_t k = w->nconfigs;
    double best = w->best >= 0 ? rd_primary(&w->configs[w->best])->mean : NAN;
    put_str(b, ws, ctop, 0, "Chart data: compared within rounds, so each config's dot is the "
                         "best's mean × its within-round ratio to the best, as the verdict "
                         "reads it, and its bar that ratio's interval × the best's mean (the "
                         "best has none), in a column of its own", b->bold);
    put_str(b, ws, ctop + 1, 0, "config", b->head);
    put_str(b, ws, ctop + 2 + (lxw_row_t)k, 0, "interval low", b->head);
    put_str(b, ws, ctop + 3 + (lxw_row_t)k, 0, "interval high", b->head);
    int16_t *twins = malloc((k + 1) * sizeof *twins), nseries = 0;
    size_t ntwins = 0;
    double top = NAN; /* the highest dot or interval end */
    if (!twins)
        b->oom = true;
    for (size_t i = 0; i < k; i++) {
        struct rd_mrow row;
        rd_means_row(w, i, best, &row);
        lxw_col_t col = (lxw_col_t)(1 + i);
        config_header(b, w, ws, ctop, i,
                      row.note ? (isfinite(row.mean) ? "disqualified: no interval" : "no mean")
                      : row.open ? "interval not estimable" : NULL);
        put_str(b, ws, ctop + 2 + (lxw_row_t)i, 0, w->configs[i].name, NULL);
        put_num(b, ws, ctop + 2 + (lxw_row_t)i, col, row.mean, b->num);
        put_num(b, ws, ctop + 2 + (lxw_row_t)k, col, row.lo, b->num);
        put_num(b, ws, ctop + 3 + (lxw_row_t)k, col, row.hi, b->num);
        bool bar = isfinite(row.mean) && isfinite(row.lo) && isfinite(row.hi);
        if (isfinite(row.mean) && !(row.mean <= top))
            top = row.mean;
        if (bar && !(row.hi <= top))
            top = row.hi;
        /* side 0: the dot, the bar above it; side 1: the bar below */
        for (int side = 0; side < (bar ? 2 : 1); side++) {
            lxw_chart_series *cs = config_series(b, w, chart, sheet, ctop, i);
            if (!cs)
                break;
            nseries++;
            if (bar) {
                lxw_series_error_bars *eb = chart_series_get_error_bars(cs, LXW_CHART_ERROR_BAR_AXIS_Y);
                chart_series_set_error_bars(eb, LXW_CHART_ERROR_BAR_TYPE_FIXED,
                                            side ? row.mean - row.lo : row.hi - row.mean);
                chart_series_set_error_bars_direction(eb, side ? LXW_CHART_ERROR_BAR_DIR_MINUS
                                                               : LXW_CHART_ERROR_BAR_DIR_PLUS);
                chart_series_set_error_bars_endcap(eb, LXW_CHART_ERROR_BAR_END_CAP);
            }
            if (side) {
                chart_series_set_marker_type(cs, LXW_CHART_MARKER_NONE);
                if (twins)
                    twins[ntwins++] = (int16_t)(nseries - 1);
                continue;
            }
            config_dot(r, w, i, row.note != NULL, cs);
        }
    }
    if (twins && ntwins) {
        twins[ntwins] = -1;
        XL(b, chart_legend_delete_series(chart, twins));
    }
    free(twins);
    /* Excel and LibreOffice scale the axis to the values, not to the
     * error bars: a bar past the top would be cut. The next half step
     * of the top's decade above it (608.8 -> 650) keeps round ticks. */
    if (isfinite(top) && top > 0) {
        double step = pow(10, floor(log10(top))) / 2;
        chart_axis_set_max(chart->y_axis, (floor(top / step) + 1) * step);
    }
}

/* Each config's own mean with its CI as a symmetric error bar (the CI
 * of the mean is t-based: mean ± half-width). */
static void chart_own(struct book *b, const struct rd_report *r, const struct rd_rworkload *w,
                      lxw_chart *chart, lxw_worksheet *ws, const char *sheet, lxw_row_t ctop)
{
    const size_t k = w->nconfigs;
    put_str(b, ws, ctop, 0, "Chart data: each config's mean in a column of its own, so the "
                         "chart can draw its CI as that series' error bar (half-width)", b->bold);
    put_str(b, ws, ctop + 1, 0, "config", b->head);
    put_str(b, ws, ctop + 2 + (lxw_row_t)k, 0, "CI half-width", b->head);
    for (size_t i = 0; i < k; i++) {
        const struct rd_rstats *s = rd_primary(&w->configs[i]);
        config_header(b, w, ws, ctop, i,
                      !isfinite(s->mean) ? "no mean"
                      : !isfinite(s->ci_high - s->ci_low) ? "no interval" : NULL);
        put_str(b, ws, ctop + 2 + (lxw_row_t)i, 0, w->configs[i].name, NULL);
        put_num(b, ws, ctop + 2 + (lxw_row_t)i, (lxw_col_t)(1 + i), s->mean, b->num);
        put_num(b, ws, ctop + 2 + (lxw_row_t)k, (lxw_col_t)(1 + i), (s->ci_high - s->ci_low) / 2,
                b->num);
    }
    for (size_t i = 0; i < k; i++) {
        lxw_chart_series *cs = config_series(b, w, chart, sheet, ctop, i);
        if (!cs)
            continue;
        const struct rd_rstats *s = rd_primary(&w->configs[i]);
        double half = (s->ci_high - s->ci_low) / 2;
        if (isfinite(half)) {
            lxw_series_error_bars *eb = chart_series_get_error_bars(cs, LXW_CHART_ERROR_BAR_AXIS_Y);
            chart_series_set_error_bars(eb, LXW_CHART_ERROR_BAR_TYPE_FIXED, half);
            chart_series_set_error_bars_endcap(eb, LXW_CHART_ERROR_BAR_END_CAP);
        }
        config_dot(r, w, i, false, cs);
    }
}

static rd_status chart_means(struct book *b, const struct rd_report *r,
                             const struct rd_rworkload *w, lxw_worksheet *ws, const char *sheet,
                             lxw_row_t top, lxw_row_t ctop, size_t stats_cols,
                             struct rd_diag *d)
{
    rd_status st = RD_OK;
    lxw_chart *chart = workbook_add_chart(b->wb, LXW_CHART_LINE);
    if (!chart) {
        b->oom = true;
        return RD_OK;
    }
    /* At most RD_CHART_MAX_CONFIGS series (Excel draws up to 255; a
     * paired workload's twice as many). */
    const size_t k = w->nconfigs;
    const bool paired = rd_means_paired(w);
    if (paired)
        chart_paired(b, r, w, chart, ws, sheet, ctop);
    else
        chart_own(b, r, w, chart, ws, sheet, ctop);
    chart_show_blanks_as(chart, LXW_CHART_BLANKS_AS_GAP);
    struct rd_buf t = RD_BUF_INIT;
    /* Paired, the report's title: the dots are not the configs' means. */
    if (paired)
        rd_buf_addf(&t, "%s: the best's mean × the within-round ratio, with the verdict's "
                        "interval (error bars)", w->metric);
    else
        rd_buf_addf(&t, "mean %s with its CI (error bars)", w->metric);
    chart_title_set_name(chart, t.ptr);
    rd_buf_release(&t);
    chart_legend_set_position(chart, k <= 12 ? LXW_CHART_LEGEND_RIGHT : LXW_CHART_LEGEND_NONE);
    chart_axis_set_name(chart->y_axis, w->metric);
    lxw_chart_options co = { .x_scale = 1.6, .y_scale = 1.3 };
    check(worksheet_insert_chart_opt(ws, top, (lxw_col_t)(stats_cols + 1), chart, &co),
          &st, d, "chart");
    return st;
}

/* A pass/fail workload: checks x configs, "✓"/"✗" with the runs that
 * passed, then the error text of each failed check. No mean, CI or test. */
static rd_status sheet_matrix(struct book *b, const struct rd_report *r,
                              const struct rd_rworkload *w, lxw_worksheet *ws)
{
    const struct rd_matrix m = *w->matrix;
    rd_status st = RD_OK;
    put_str(b, ws, 0, 0, w->name, b->title);
    put_str(b, ws, 1, 0, "pass/fail of each check per config: \xe2\x9c\x93 every run passed, "
                      "\xe2\x9c\x97 none did, \xe2\x9c\x97 k/n when k of n runs passed", NULL);
    const lxw_row_t top = 3;
    put_str(b, ws, top, 0, "check", b->head);
    for (size_t c = 0; c < m.ncols; c++)
        put_str(b, ws, top, (lxw_col_t)(1 + c), w->configs[c].name, b->head);
    struct rd_buf t = RD_BUF_INIT;
    lxw_row_t erow = top + 2 + (lxw_row_t)m.nrows;
    bool any = false;
    for (size_t row = 0; row < m.nrows && st == RD_OK; row++) {
        put_str(b, ws, top + 1 + (lxw_row_t)row, 0, m.labels[row], b->bold);
        for (size_t c = 0; c < m.ncols; c++) {
            const struct rd_mcell *cell = &m.cells[row * m.ncols + c];
            rd_buf_reset(&t);
            rd_mcell_mark(cell, &t);
            put_str(b, ws, top + 1 + (lxw_row_t)row, (lxw_col_t)(1 + c), t.ptr, NULL);
            if (!(cell->passed < cell->runs))
                continue;
            if (!any)
                put_str(b, ws, erow++, 0, "Failed checks", b->bold);
            any = true;
            put_str(b, ws, erow, 0, m.labels[row], NULL);
            put_str(b, ws, erow, 1, w->configs[c].name, NULL);
            put_num(b, ws, erow, 2, cell->runs - cell->passed, b->intf);
            put_num(b, ws, erow, 3, cell->runs, b->intf);
            put_str(b, ws, erow++, 4, cell->error, NULL);
        }
    }
    rd_buf_release(&t);
    XL(b, worksheet_set_column(ws, 0, 0, 24, NULL));
    XL(b, worksheet_set_column(ws, 1, (lxw_col_t)(m.ncols > 4 ? m.ncols : 4), 18, NULL));
    return st;
}

static rd_status sheet_workload(struct book *b, const struct rd_report *r,
                                const struct rd_rworkload *w, lxw_worksheet *ws,
                                const char *sheet, struct rd_diag *d)
{
    rd_status st = RD_OK;
    if (rd_workload_categorical(w))
        return sheet_matrix(b, r, w, ws);
    put_str(b, ws, 0, 0, w->name, b->title);
    struct rd_buf line = RD_BUF_INIT;
    rd_buf_addf(&line, "primary metric %s (%s)", w->metric ? w->metric : "none",
                rd_better_words(w->better));
    put_str(b, ws, 1, 0, line.ptr, NULL);
    rd_buf_release(&line);

    /* Stats table: config, labels, then every statistic, then memory. */
    const lxw_row_t top = 3;
    struct headers h = { .n = 0 };
    headers_add(&h, "config");
    for (size_t k = 0; k < w->nkeys; k++)
        headers_add(&h, w->keys[k]);
    const size_t nstat = sizeof stat_cols / sizeof stat_cols[0];
    for (size_t k = 0; k < nstat; k++)
        headers_add(&h, stat_cols[k].header);
    headers_add(&h, "max RSS (MiB)");
    headers_add(&h, "failed runs");
    /* Left out of every statistic unless analyze ran --include-contended. */
    headers_add(&h, "contended runs");
    static const char *verdict_cols[] = { "verdict", "ratio to best", "ratio CI low",
                                          "ratio CI high", "p_adj", "runs needed" };
    for (size_t k = 0; k < 6; k++)
        headers_add(&h, verdict_cols[k]);
    for (size_t i = 0; i < w->nconfigs; i++) {
        const struct rd_rconfig *c = &w->configs[i];
        lxw_row_t row = top + 1 + (lxw_row_t)i;
        lxw_col_t col = 0;
        put_str(b, ws, row, col++, c->name, (int)i == w->recommended ? b->bold : NULL);
        for (size_t k = 0; k < w->nkeys; k++)
            put_str(b, ws, row, col++, rd_config_label(c, w->keys[k]), NULL);
        for (size_t k = 0; k < nstat; k++) {
            double v = col_value(rd_primary(c), &stat_cols[k]);
            bool cv = stat_cols[k].offset == offsetof(struct rd_rstats, cv);
            put_num(b, ws, row, col++, v, k == 0 ? b->intf : cv ? b->pct : b->num);
        }
        put_num(b, ws, row, col++, rd_config_rss_mib(c), b->num);
        put_num(b, ws, row, col++, c->failed_runs, b->intf);
        put_num(b, ws, row, col++, c->contended_runs, b->intf);
        /* The verdict against the best and the simultaneous interval it used. */
        const struct rd_rverdict *v = rd_config_verdict(w, (int)i);
        char phrase[64];
        put_str(b, ws, row, col++, rd_config_verdict_phrase(w, v, phrase, sizeof phrase), NULL);
        double lo = NAN, hi = NAN;
        if (v)
            rd_verdict_shown_ci(v, &lo, &hi);
        put_num(b, ws, row, col++, v ? v->ratio : NAN, b->num3);
        put_num(b, ws, row, col++, lo, b->num3);
        put_num(b, ws, row, col++, hi, b->num3);
        put_num(b, ws, row, col++, v ? v->p_adj : NAN, b->p);
        put_num(b, ws, row, col++, v ? v->runs_needed : NAN, b->intf);
    }
    lxw_row_t stats_last = top + (lxw_row_t)w->nconfigs;
    check(add_table(ws, top, stats_last, &h, b->head), &st, d, "stats table");
    size_t stats_cols = h.n;
    headers_release(&h);

    /* The pairwise tests below it. */
    lxw_row_t ptop = stats_last + 3;
    size_t npairs = w->tests ? w->tests->npairs : 0;
    if (npairs > 0) {
        put_str(b, ws, ptop - 1, 0, "Pairwise tests (p_holm below alpha highlighted)", b->bold);
        headers_add(&h, "A");
        headers_add(&h, "B");
        const size_t npc = sizeof pair_cols / sizeof pair_cols[0];
        for (size_t k = 0; k < npc; k++)
            headers_add(&h, pair_cols[k].header);
        lxw_row_t row = ptop + 1;
        for (size_t i = 0; i < npairs; i++) {
            const struct rd_rpair *p = &w->tests->pairs[i];
            put_str(b, ws, row, 0, rd_workload_config_name(w, p->a), NULL);
            put_str(b, ws, row, 1, rd_workload_config_name(w, p->b), NULL);
            for (size_t k = 0; k < npc; k++) {
                size_t off = pair_cols[k].offset;
                bool is_p = off == offsetof(struct rd_rpair, p) ||
                            off == offsetof(struct rd_rpair, p_holm) ||
                            off == offsetof(struct rd_rpair, mw_p);
                put_num(b, ws, row, (lxw_col_t)(2 + k), col_value(p, &pair_cols[k]), is_p ? b->p : b->num);
            }
            row++;
        }
        check(add_table(ws, ptop, row - 1, &h, b->head), &st, d, "pairwise table");
        headers_release(&h);
        if (isfinite(b->alpha)) {
            lxw_conditional_format cf = { 0 };
            cf.type = LXW_CONDITIONAL_TYPE_CELL;
            cf.criteria = LXW_CONDITIONAL_CRITERIA_LESS_THAN;
            cf.value = b->alpha;
            cf.format = b->sig;
            /* p_holm is column 2 + 9 */
            lxw_col_t pc = 2 + 9;
            check(worksheet_conditional_format_range(ws, ptop + 1, pc, row - 1, pc, &cf),
                  &st, d, "conditional format");
        }
    }

    /* The warnings under the tables, where a reader checks the numbers. */
    lxw_row_t wtop = (npairs > 0 ? ptop + 1 + (lxw_row_t)npairs : stats_last) + 2;
    if (w->nwarnings > 0) {
        put_str(b, ws, wtop, 0, "Warnings", b->bold);
        lxw_row_t row = wtop + 1;
        for (size_t i = 0; i < w->nwarnings; i++, row++) {
            const struct rd_rwarning *x = &w->warnings[i];
            put_str(b, ws, row, 0, rd_workload_config_name(w, x->config), NULL);
            put_str(b, ws, row, 1, x->code, NULL);
            put_str(b, ws, row, 2, x->message, NULL);
        }
    }

    /* The chart: each config's mean with its CI as a native error bar
     * (paired within rounds: the report's chart, chart_paired).
     * Excel's error bars are fixed per series, not per point, so each
     * config is a series of its own, read from a diagonal block of cells
     * below the tables (its mean in its own column, the rest blank), with
     * its CI half-width as the fixed error. */
    lxw_row_t ctop = wtop + (w->nwarnings > 0 ? (lxw_row_t)w->nwarnings + 3 : 0);
    if (w->nconfigs > RD_CHART_MAX_CONFIGS && w->metric) {
        /* A chart of every config would be unreadable, and a series per
         * config is quadratic in cells: say so instead. */
        struct rd_buf t = RD_BUF_INIT;
        rd_buf_addf(&t, "no chart: %zu configs are more than a chart shows (%d); "
                        "the report's charts show the best %d",
                    w->nconfigs, RD_CHART_MAX_CONFIGS, RD_CHART_MAX_CONFIGS);
        put_str(b, ws, top, (lxw_col_t)(stats_cols + 1), t.ptr, NULL);
        rd_buf_release(&t);
    } else if (w->nconfigs > 0 && w->metric && st == RD_OK) {
        st = chart_means(b, r, w, ws, sheet, top, ctop, stats_cols, d);
    }
    worksheet_freeze_panes(ws, top + 1, 1);
    XL(b, worksheet_set_column(ws, 0, 0, 32, NULL));
    XL(b, worksheet_set_column(ws, 1, (lxw_col_t)(w->nkeys > 0 ? w->nkeys : 1), 12, NULL));
    XL(b, worksheet_set_column(ws, (lxw_col_t)(w->nkeys + 1), (lxw_col_t)(stats_cols), 11, NULL));
    return st;
}

/* ---- Raw runs, as the analysis embeds them ---- */

/* The columns before the labels: store ... started_at, contended. */
#define RAW_FIXED 8

struct raw_write {
    const struct rd_run_columns *cols;
    lxw_worksheet *ws;
    struct book *b;
    lxw_row_t row;
};

static void raw_write(const struct rd_rrun *run, void *arg)
{
    const struct rd_record *rec = run->rec;
    struct raw_write *rw = arg;
    struct book *b = rw->b;
    if (rw->row > MAX_ROWS)
        return;
    lxw_worksheet *ws = rw->ws;
    lxw_row_t row = rw->row++;
    put_str(b, ws, row, 0, run->store, NULL);
    put_str(b, ws, row, 1, rec->workload, NULL);
    if (rec->run > 0)
        put_num(b, ws, row, 2, (double)rec->run, NULL);
    put_str(b, ws, row, 3, rec->phase, NULL);
    put_str(b, ws, row, 4, rd_run_status_name(run->status), NULL);
    put_str(b, ws, row, 5, rec->env, NULL);
    put_str(b, ws, row, 6, rec->started_at, NULL);
    if (rec->contended)
        put_str(b, ws, row, 7, "yes", NULL);
    for (size_t i = 0; i < rec->config.len; i++) {
        int c = rd_run_columns_label(rw->cols, rec->config.items[i].key);
        if (c >= 0)
            put_str(b, ws, row, (lxw_col_t)(RAW_FIXED + c), rec->config.items[i].value, NULL);
    }
    for (size_t i = 0; i < rec->nmetrics; i++) {
        int c = rd_run_columns_metric(rw->cols, rec->metrics[i].name);
        if (c >= 0)
            put_num(b, ws, row, (lxw_col_t)(RAW_FIXED + rw->cols->nlabels + (size_t)c),
                    rec->metrics[i].value, NULL);
    }
}

static void sheet_raw(struct book *b, const struct rd_report *r, lxw_worksheet *ws)
{
    struct rd_run_columns sc;
    rd_run_columns_scan(r, MAX_COLS / 2, &sc);
    if (sc.runs == 0) {
        put_str(b, ws, 0, 0, r->ninputs > 0
                ? "the analysis embeds none of its runs (made by an older rundown-analyze, "
                  "or its stores came from standard input)"
                : "the analysis lists no input stores", NULL);
        XL(b, worksheet_set_column(ws, 0, 0, 70, NULL));
        rd_run_columns_release(&sc);
        return;
    }
    /* "contended": "yes" for a run the guard marked (analyze leaves it
     * out unless --include-contended), blank otherwise. */
    static const char *fixed[RAW_FIXED] = { "store", "workload", "run", "phase", "status",
                                            "env", "started_at", "contended" };
    put_strs(b, ws, 0, 0, fixed, RAW_FIXED, b->head);
    for (size_t i = 0; i < sc.nlabels; i++)
        put_str(b, ws, 0, (lxw_col_t)(RAW_FIXED + i), sc.labels[i], b->head);
    for (size_t i = 0; i < sc.nmetrics; i++)
        put_str(b, ws, 0, (lxw_col_t)(RAW_FIXED + sc.nlabels + i), sc.metrics[i], b->head);
    struct raw_write rw = { &sc, ws, b, 1 };
    rd_report_for_each_run(r, raw_write, &rw);
    /* analyze embeds at most its cap of runs: say so below the last. */
    if (r->raw_total > r->raw_embedded) {
        char note[160];
        snprintf(note, sizeof note, "the analysis embeds the first %.0f of %.0f runs "
                 "(rundown-analyze's cap)", r->raw_embedded, r->raw_total);
        put_str(b, ws, rw.row + 1, 0, note, NULL);
    }
    lxw_col_t last = (lxw_col_t)(RAW_FIXED - 1 + sc.nlabels + sc.nmetrics);
    worksheet_freeze_panes(ws, 1, 0);
    XL(b, worksheet_autofilter(ws, 0, 0, rw.row > 1 ? rw.row - 1 : 1, last));
    XL(b, worksheet_set_column(ws, 0, 1, 22, NULL));
    XL(b, worksheet_set_column(ws, 2, 5, 9, NULL));
    XL(b, worksheet_set_column(ws, 6, 6, 24, NULL));
    XL(b, worksheet_set_column(ws, 7, last, 13, NULL));
    rd_run_columns_release(&sc);
}

static void sheet_env(struct book *b, const struct rd_report *r, lxw_worksheet *ws)
{
    XL(b, worksheet_write_string(ws, 0, 0, "field", b->head));
    for (size_t e = 0; e < r->nenvs; e++)
        put_str(b, ws, 0, (lxw_col_t)(1 + e), r->env_ids[e] ? r->env_ids[e] : "environment", b->head);
    /* The same rows as the Markdown report. */
    for (size_t i = 0; i < r->nenv_rows; i++) {
        lxw_row_t row = (lxw_row_t)(1 + i);
        for (size_t e = 0; e < r->nenvs; e++)
            put_str(b, ws, row, (lxw_col_t)(1 + e), r->env_rows[i].values[e], NULL);
        put_str(b, ws, row, 0, r->env_rows[i].label, b->bold);
    }
    if (!r->envs_listed)
        put_str(b, ws, 1, 0, "the analysis records no environment", NULL);
    worksheet_freeze_panes(ws, 1, 1);
    XL(b, worksheet_set_column(ws, 0, 0, 22, NULL));
    XL(b, worksheet_set_column(ws, 1, r->nenvs > 0 ? (lxw_col_t)r->nenvs : 1, 50, NULL));
}

static void sheet_methods(struct book *b, const struct rd_report *r, lxw_worksheet *ws)
{
    lxw_row_t row = 0;
    XL(b, worksheet_write_string(ws, row, 0, "setting", b->head));
    XL(b, worksheet_write_string(ws, row++, 1, "value", b->head));
    for (size_t i = 0; i < r->nsettings; i++, row++) {
        const struct rd_rsetting *s = &r->settings[i];
        put_str(b, ws, row, 0, s->key, b->bold);
        if (s->is_number)
            put_num(b, ws, row, 1, s->number, NULL);
        else
            put_str(b, ws, row, 1, s->text, NULL);
    }
    row++;
    static const char *text[] = {
        "Mean and confidence interval: sample mean; sample sd with n - 1; Student t quantile for n - 1 degrees of freedom.",
        "Percentiles: Hyndman and Fan type 7 (R and numpy default).",
        "Outliers: Tukey's fences (1.5 IQR), flagged, never removed.",
        "Two configs: Welch's t-test; Mann-Whitney U (exact without ties for n <= 50); Hedges' g; Vargha-Delaney A.",
        "Many configs: one-way ANOVA, Welch's ANOVA, Kruskal-Wallis; pairwise Welch tests with Holm's adjustment (p_holm).",
        "Verdicts: every config against the best mean by the ratio of means, its interval on the log scale (delta method) and simultaneous over the comparisons with the best, read against the workload's margin: equivalent within the margin (two one-sided tests at level alpha), slower (worse where higher is better: the interval excludes no difference), more than the margin slower (all of the interval beyond it), inconclusive (with the runs per config that would settle it) or disqualified; the tie-breaker chooses among equivalent configs only.",
        "One run is one whole program or load-tool run; per-request samples are never used as n.",
        "Chart: each config is a series of its own (the diagonal block of 'Chart data'), so its error bar is its CI half-width.",
        "References: Welch (1947, 1951); Mann and Whitney (1947); Kruskal and Wallis (1952); Holm (1979); Hedges (1981); Vargha and Delaney (2000); Hyndman and Fan (1996); Tukey (1977).",
    };
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        XL(b, worksheet_write_string(ws, row++, 0, text[i], NULL));
    XL(b, worksheet_set_column(ws, 0, 0, 24, NULL));
    XL(b, worksheet_set_column(ws, 1, 1, 40, NULL));
}

/* The Replication sheet: each study's counts, then its claims with this
 * machine's ratio, then the pairs of the order claims, then the published
 * figures; every number a number. */
static void sheet_replication(struct book *b, const struct rd_report *r, lxw_worksheet *ws)
{
    static const char *counts[] = { "study", "title", "claims", "consistent", "contradicted",
                                    "inconclusive", "not evaluated" };
    static const char *claims[] = { "study", "#", "kind", "workload", "metric", "claim",
                                    "configs here", "published ratio", "at least", "at most",
                                    "approx", "margin", "ratio here", "CI low", "CI high", "p",
                                    "judgement", "reason", "source", "note" };
    static const char *pairs[] = { "study", "#", "claimed better", "claimed worse", "ratio",
                                   "CI low", "CI high", "p", "p_holm", "agrees" };
    static const char *figs[] = { "study", "workload", "config", "metric", "statistic",
                                  "published", "published sd", "published n", "here mean",
                                  "here sd", "here n", "here statistic", "ratio", "CI low",
                                  "CI high", "p", "note" };
    lxw_row_t row = 0;
    put_strs(b, ws, row, 0, counts, sizeof counts / sizeof *counts, b->head);
    for (size_t i = 0; i < r->nclaim_studies; i++) {
        const struct rd_rclaim_study *s = &r->claim_studies[i];
        row++;
        put_str(b, ws, row, 0, s->study, b->bold);
        put_str(b, ws, row, 1, s->title, NULL);
        double n[] = { s->claims, s->consistent, s->contradicted, s->inconclusive,
                       s->not_evaluated };
        put_nums(b, ws, row, 2, n, 5, b->intf);
    }
    row += 2;
    put_strs(b, ws, row, 0, claims, sizeof claims / sizeof *claims, b->head);
    for (size_t i = 0; i < r->nclaims; i++) {
        const struct rd_rclaim *x = &r->claims[i];
        row++;
        put_str(b, ws, row, 0, x->study, b->bold);
        put_num(b, ws, row, 1, (double)(i + 1), b->intf);
        const char *text[] = { x->kind, x->workload, x->metric, x->text };
        put_strs(b, ws, row, 2, text, 4, NULL);
        char cfgs[1024] = "";
        for (size_t k = 0, at = 0; k < x->nconfigs && at < sizeof cfgs; k++)
            at += (size_t)snprintf(cfgs + at, sizeof cfgs - at, "%s%s", k ? "; " : "",
                                   x->configs[k].id ? x->configs[k].id : "(not here)");
        put_str(b, ws, row, 6, cfgs, NULL);
        double nums[] = { x->claimed_ratio, x->claimed_min, x->claimed_max };
        put_nums(b, ws, row, 7, nums, 3, b->num3);
        put_str(b, ws, row, 10, x->approx ? "yes" : "no", NULL);
        put_num(b, ws, row, 11, x->margin, b->pct);
        double ours[] = { x->ratio, x->ratio_ci_low, x->ratio_ci_high };
        put_nums(b, ws, row, 12, ours, 3, b->num3);
        put_num(b, ws, row, 15, x->p, b->p);
        put_str(b, ws, row, 16, x->judgement ? x->judgement : "not evaluated",
                x->judgement && strcmp(x->judgement, "inconclusive") != 0 ? b->bold : NULL);
        put_str(b, ws, row, 17, x->reason, NULL);
        put_str(b, ws, row, 18, x->ref, NULL);
        put_str(b, ws, row, 19, x->note, NULL);
    }
    row += 2;
    put_strs(b, ws, row, 0, pairs, sizeof pairs / sizeof *pairs, b->head);
    for (size_t i = 0; i < r->nclaims; i++)
        for (size_t k = 0; k < r->claims[i].npairs; k++) {
            const struct rd_rclaim_pair *p = &r->claims[i].pairs[k];
            row++;
            put_str(b, ws, row, 0, r->claims[i].study, b->bold);
            put_num(b, ws, row, 1, (double)(i + 1), b->intf);
            put_str(b, ws, row, 2, p->a, NULL);
            put_str(b, ws, row, 3, p->b, NULL);
            double nums[] = { p->ratio, p->ratio_ci_low, p->ratio_ci_high };
            put_nums(b, ws, row, 4, nums, 3, b->num3);
            put_num(b, ws, row, 7, p->p, b->p);
            put_num(b, ws, row, 8, p->p_holm, b->p);
            put_str(b, ws, row, 9, p->agrees ? "yes" : "no", NULL);
        }
    row += 2;
    put_strs(b, ws, row, 0, figs, sizeof figs / sizeof *figs, b->head);
    for (size_t i = 0; i < r->nreplication; i++) {
        const struct rd_rreplication *x = &r->replication[i];
        row++;
        put_str(b, ws, row, 0, x->study, b->bold);
        const char *text[] = { x->workload, x->config, x->metric, x->statistic };
        put_strs(b, ws, row, 1, text, 4, NULL);
        double nums[] = { x->pub_mean, x->pub_sd, x->pub_n, x->ours_mean, x->ours_sd,
                          x->ours_n, x->ours_statistic, x->ratio, x->ratio_ci_low,
                          x->ratio_ci_high };
        put_nums(b, ws, row, 5, nums, 10, b->num);
        put_num(b, ws, row, 15, x->p, b->p);
        put_str(b, ws, row, 16, x->note, NULL);
    }
    XL(b, worksheet_set_column(ws, 0, 1, 8, NULL));
    XL(b, worksheet_set_column(ws, 2, 6, 22, NULL));
    XL(b, worksheet_set_column(ws, 7, 16, 12, NULL));
    XL(b, worksheet_set_column(ws, 17, 19, 40, NULL));
}

/* The Machines sheet: for each workload measured on several machines,
 * every config against the reference, a row per machine (its ratio and
 * CI, the runs) and one across machines (the between-machine interval,
 * Cochran's Q, whether they agree); every number a number. */
static void sheet_machines(struct book *b, const struct rd_report *r, lxw_worksheet *ws)
{
    static const char *head[] = { "workload", "metric", "config", "reference", "machine",
                                  "ratio", "CI low", "CI high", "n", "n reference",
                                  "machines", "Q", "p", "machines agree", "claim" };
    lxw_row_t row = 0;
    put_strs(b, ws, row, 0, head, sizeof head / sizeof *head, b->head);
    for (size_t i = 0; i < r->nmachines; i++) {
        const struct rd_rmachines *m = &r->machines[i];
        for (size_t c = 0; c < m->ncmps; c++) {
            const struct rd_rmachine_cmp *x = &m->cmps[c];
            for (size_t k = 0; k < x->nper; k++) {
                const struct rd_rmachine_ratio *p = &x->per[k];
                row++;
                const char *text[] = { m->workload, m->metric, x->config, m->reference,
                                       p->machine };
                put_strs(b, ws, row, 0, text, 5, NULL);
                double nums[] = { p->ratio, p->ratio_ci_low, p->ratio_ci_high };
                put_nums(b, ws, row, 5, nums, 3, b->num3);
                double ns[] = { p->n, p->n_reference };
                put_nums(b, ws, row, 8, ns, 2, b->intf);
            }
            row++;
            const char *text[] = { m->workload, m->metric, x->config, m->reference,
                                   "between machines" };
            put_strs(b, ws, row, 0, text, 5, b->bold);
            double nums[] = { x->ratio, x->ratio_ci_low, x->ratio_ci_high };
            put_nums(b, ws, row, 5, nums, 3, b->num3);
            put_num(b, ws, row, 10, x->k, b->intf);
            put_num(b, ws, row, 11, x->q, b->num3);
            put_num(b, ws, row, 12, x->p, b->p);
            put_str(b, ws, row, 13, !(x->k >= 2) ? "one machine only" : x->consistent ? "yes" : "no",
                    b->bold);
            put_str(b, ws, row, 14, x->text, NULL);
        }
    }
    XL(b, worksheet_set_column(ws, 0, 4, 18, NULL));
    XL(b, worksheet_set_column(ws, 5, 13, 11, NULL));
    XL(b, worksheet_set_column(ws, 14, 14, 80, NULL));
}

/* The report's fixed date: the analysis date at noon UTC, else 2000-01-01. */
static time_t fixed_time(const struct rd_report *r)
{
    struct tm tm = { 0 };
    int y, m, d;
    if (r->date && sscanf(r->date, "%4d-%2d-%2d", &y, &m, &d) == 3 && y >= 1980 && y < 3000 &&
        m >= 1 && m <= 12 && d >= 1 && d <= 31) {
        tm.tm_year = y - 1900;
        tm.tm_mon = m - 1;
        tm.tm_mday = d;
        tm.tm_hour = 12;
        return timegm(&tm);
    }
    return 946728000; /* 2000-01-01T12:00:00Z */
}

rd_status rd_render_xlsx(const struct rd_report *r, const struct rd_render_opts *o,
                         const char *tmp, struct rd_diag *d)
{
    rd_status st = RD_OK;
    struct book b = { .alpha = r->alpha, .o = o };
    lxw_workbook_options wo = { .constant_memory = LXW_FALSE, .tmpdir = NULL };
    b.wb = workbook_new_opt(tmp, &wo);
    if (!b.wb)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create '%s'", tmp);
    lxw_doc_properties props = { 0 };
    props.title = (char *)r->title;
    props.author = "rundown";
    props.comments = "Generated by rundown " RD_VERSION;
    props.created = fixed_time(r);
    XL(&b, workbook_set_properties(b.wb, &props));

    b.bold = workbook_add_format(b.wb);
    format_set_bold(b.bold);
    b.head = workbook_add_format(b.wb);
    format_set_bold(b.head);
    format_set_bg_color(b.head, 0xE8ECF2);
    format_set_bottom(b.head, LXW_BORDER_THIN);
    b.title = workbook_add_format(b.wb);
    format_set_bold(b.title);
    format_set_font_size(b.title, 14);
    b.num = workbook_add_format(b.wb);
    format_set_num_format(b.num, "#,##0.00");
    b.num3 = workbook_add_format(b.wb);
    format_set_num_format(b.num3, "0.000");
    b.p = workbook_add_format(b.wb);
    /* Tiny p-values would show as 0.0000; the cell keeps the exact value. */
    format_set_num_format(b.p, "[<0.001]\"< 0.001\";0.000");
    b.pct = workbook_add_format(b.wb);
    format_set_num_format(b.pct, "0.0%");
    b.intf = workbook_add_format(b.wb);
    format_set_num_format(b.intf, "0");
    b.wrap = workbook_add_format(b.wb);
    format_set_text_wrap(b.wrap);
    b.sig = workbook_add_format(b.wb);
    format_set_bold(b.sig);
    format_set_bg_color(b.sig, 0xC6EFCE);
    format_set_font_color(b.sig, 0x006100);

    lxw_format *const all[] = { b.bold, b.head, b.title, b.num, b.num3, b.p, b.pct, b.intf,
                                b.wrap, b.sig };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        b.oom = b.oom || !all[i];
    /* Reserve the fixed names first so no workload can take them. */
    static const char *fixed[] = { "Recommendations", "Raw runs", "Environment", "Methods",
                                   "Replication" };
    lxw_worksheet *rec = add_sheet(&b, fixed[0]);
    for (size_t i = 1; i < 5; i++)
        if (!(b.names[b.nnames] = strdup(fixed[i])) || (b.nnames++, false))
            b.oom = true;
    if (b.oom)
        st = rd_diag_set(d, RD_ERR_NOMEM, NULL, 0, 0, "xlsx: out of memory");
    if (rec)
        sheet_recommendations(&b, r, rec);
    for (size_t wi = 0; wi < r->nworkloads && wi < RD_XLSX_MAX_WORKLOAD_SHEETS && st == RD_OK;
         wi++) {
        lxw_worksheet *ws = add_sheet(&b, r->workloads[wi].name);
        if (!ws) {
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "xlsx: cannot add a sheet for '%s'",
                             r->workloads[wi].name);
            break;
        }
        st = sheet_workload(&b, r, &r->workloads[wi], ws, b.names[b.nnames - 1], d);
    }
    lxw_worksheet *raw = st == RD_OK ? workbook_add_worksheet(b.wb, "Raw runs") : NULL;
    if (raw)
        sheet_raw(&b, r, raw);
    lxw_worksheet *env = st == RD_OK ? workbook_add_worksheet(b.wb, "Environment") : NULL;
    if (env)
        sheet_env(&b, r, env);
    lxw_worksheet *meth = st == RD_OK ? workbook_add_worksheet(b.wb, "Methods") : NULL;
    if (meth)
        sheet_methods(&b, r, meth);
    lxw_worksheet *mach = st == RD_OK && r->nmachines ? workbook_add_worksheet(b.wb, "Machines")
                                                      : NULL;
    if (mach)
        sheet_machines(&b, r, mach);
    if (st == RD_OK && r->nmachines && !mach)
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "xlsx: cannot add a worksheet");
    bool replication = r->nclaims > 0 || r->nreplication > 0;
    lxw_worksheet *rep = st == RD_OK && replication ? workbook_add_worksheet(b.wb, "Replication")
                                                    : NULL;
    if (rep)
        sheet_replication(&b, r, rep);
    if (st == RD_OK && replication && !rep)
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "xlsx: cannot add a worksheet");
    if (st == RD_OK && (!rec || !raw || !env || !meth))
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "xlsx: cannot add a worksheet");
    if (st == RD_OK && b.oom)
        st = rd_diag_set(d, RD_ERR_NOMEM, NULL, 0, 0, "xlsx: out of memory");
    if (st == RD_OK && b.err != LXW_NO_ERROR)
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "xlsx: %s: %s", b.err_call,
                         lxw_strerror(b.err));
    lxw_error e = workbook_close(b.wb);
    if (st == RD_OK && e != LXW_NO_ERROR)
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s", tmp, lxw_strerror(e));
    for (size_t i = 0; i < b.nnames; i++)
        free(b.names[i]);
    return st;
}
