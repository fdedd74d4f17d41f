/*
 * compareformat.c - a comparison of two sets of runs as a terminal table,
 * rundown.compare/1 JSON or a Markdown table (docs/compare.md).
 *
 * One table per metric (workloads may have different primary metrics,
 * and a geometric mean across metrics means nothing), rows by workload
 * and config, and a geomean row as benchstat prints it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparestores.h"
#include "jw.h"

#define RD_COMPARE_SCHEMA "rundown.compare/1"

enum { COLS = 7, CELL = 256 };

static const char *const heads[COLS] = { "workload", "config", NULL, NULL,
                                         "change [interval]", "p", "verdict" };

/* v with about four significant digits and no exponent. */
static void fmt_value(char *out, size_t size, double v)
{
    if (!isfinite(v)) {
        snprintf(out, size, "-");
        return;
    }
    int digits = v != 0 ? (int)floor(log10(fabs(v))) + 1 : 1;
    int dec = digits >= 4 ? 0 : 4 - digits;
    snprintf(out, size, "%.*f", dec > 6 ? 6 : dec, v);
}

static void fmt_side(char *out, size_t size, const struct rd_compare_side *x)
{
    if (x->n == 0) {
        snprintf(out, size, "-");
        return;
    }
    char m[32];
    fmt_value(m, sizeof m, x->mean);
    if (isfinite(x->sd) && x->mean != 0)
        snprintf(out, size, "%s ±%.1f%% n=%.0f", m, 100 * x->sd / fabs(x->mean), x->n);
    else
        snprintf(out, size, "%s n=%.0f", m, x->n);
}

static void fmt_pct(char *out, size_t size, double ratio)
{
    if (isfinite(ratio))
        snprintf(out, size, "%+.1f%%", 100 * (ratio - 1));
    else
        snprintf(out, size, "?");
}

static void fmt_change(char *out, size_t size, const struct rd_compare_row *r)
{
    if (r->change == RD_CHANGE_NONE) {
        snprintf(out, size, "~");
        return;
    }
    char c[24], lo[24], hi[24];
    fmt_pct(c, sizeof c, r->ratio);
    if (r->exact) {
        snprintf(out, size, "%s (exact)", c);
        return;
    }
    fmt_pct(lo, sizeof lo, r->ratio_ci_low);
    fmt_pct(hi, sizeof hi, r->ratio_ci_high);
    snprintf(out, size, "%s [%s, %s]", c, lo, hi);
}

static void fmt_p(char *out, size_t size, double p)
{
    if (isnan(p))
        snprintf(out, size, "-");
    else if (p < 0.001)
        snprintf(out, size, "<0.001");
    else
        snprintf(out, size, "%.3f", p);
}

/* A name from input as a cell: control characters (a terminal escape, a
 * line break that would end a Markdown row) become '?'. */
static void name_cell(char *out, const char *s)
{
    snprintf(out, CELL, "%s", s);
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

static void row_cells(const struct rd_compare_row *r, char cells[COLS][CELL])
{
    name_cell(cells[0], r->workload);
    name_cell(cells[1], *r->config ? r->config : "-");
    fmt_side(cells[2], CELL, &r->old);
    fmt_side(cells[3], CELL, &r->new_);
    fmt_change(cells[4], CELL, r);
    fmt_p(cells[5], CELL, r->p_adjusted);
    snprintf(cells[6], CELL, "%s%s", rd_change_name(r->change),
             r->regression ? " (regression)" : "");
}

/* The geometric means of the rows of 'metric' that have a verdict. */
struct geomean {
    size_t n;
    double old_, new_;
};

static bool same_metric(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static struct geomean geomean_of(const struct rd_comparison *c, const char *metric)
{
    double lo = 0, ln = 0;
    size_t n = 0;
    for (size_t i = 0; i < c->nrows; i++) {
        const struct rd_compare_row *r = &c->rows[i];
        if (!same_metric(r->metric, metric) || r->change == RD_CHANGE_NONE)
            continue;
        lo += log(r->old.mean);
        ln += log(r->new_.mean);
        n++;
    }
    return (struct geomean){ n, n ? exp(lo / n) : NAN, n ? exp(ln / n) : NAN };
}

static void geomean_cells(const struct geomean *g, char cells[COLS][CELL])
{
    snprintf(cells[0], CELL, "geomean");
    cells[1][0] = cells[5][0] = cells[6][0] = '\0';
    fmt_value(cells[2], CELL, g->old_);
    fmt_value(cells[3], CELL, g->new_);
    fmt_pct(cells[4], CELL, g->new_ / g->old_);
}

/* Is rows[i] the first row of its metric? */
static bool first_of_metric(const struct rd_comparison *c, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (same_metric(c->rows[j].metric, c->rows[i].metric))
            return false;
    return true;
}

static rd_status add_caption(struct rd_buf *out, const struct rd_comparison *c,
                             const struct rd_compare_row *r, const char *bold)
{
    return rd_buf_addf(out,
                       "%s%s%s (%s is better): %s vs %s, %g %% intervals jointly over the %zu "
                       "comparison%s (Bonferroni)\n",
                       bold, r->metric ? r->metric : "(no metric)", bold,
                       r->higher_is_better ? "higher" : "lower", c->old_name, c->new_name,
                       100 * (1 - c->s.alpha), c->family, c->family == 1 ? "" : "s");
}

/* Display width of UTF-8 text: one column per character. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static rd_status add_padded(struct rd_buf *out, const char *s, size_t w, bool last)
{
    RD_TRY(rd_buf_addstr(out, s));
    if (last)
        return rd_buf_addch(out, '\n');
    for (size_t i = width(s); i < w + 2; i++)
        RD_TRY(rd_buf_addch(out, ' '));
    return RD_OK;
}

static void head_cells(const struct rd_comparison *c, char cells[COLS][CELL])
{
    for (int k = 0; k < COLS; k++)
        snprintf(cells[k], CELL, "%s", heads[k] ? heads[k] : k == 2 ? c->old_name : c->new_name);
}

static rd_status text_table(const struct rd_comparison *c, const char *metric,
                            struct rd_buf *out)
{
    char cells[COLS][CELL];
    size_t w[COLS] = { 0 };
    struct geomean g = geomean_of(c, metric);
    head_cells(c, cells);
    for (int k = 0; k < COLS; k++)
        w[k] = width(cells[k]);
    for (size_t i = 0; i <= c->nrows; i++) {
        if (i < c->nrows && !same_metric(c->rows[i].metric, metric))
            continue;
        if (i == c->nrows && g.n < 2)
            break;
        if (i < c->nrows)
            row_cells(&c->rows[i], cells);
        else
            geomean_cells(&g, cells);
        for (int k = 0; k < COLS; k++)
            if (width(cells[k]) > w[k])
                w[k] = width(cells[k]);
    }
    head_cells(c, cells);
    for (int k = 0; k < COLS; k++)
        RD_TRY(add_padded(out, cells[k], w[k], k == COLS - 1));
    for (size_t i = 0; i < c->nrows; i++) {
        if (!same_metric(c->rows[i].metric, metric))
            continue;
        row_cells(&c->rows[i], cells);
        for (int k = 0; k < COLS; k++)
            RD_TRY(add_padded(out, cells[k], w[k], k == COLS - 1));
    }
    if (g.n >= 2) {
        geomean_cells(&g, cells);
        for (int k = 0; k < 5; k++)
            RD_TRY(add_padded(out, cells[k], w[k], k == 4));
    }
    return RD_OK;
}

/* A Markdown table cell: every ASCII punctuation character that could
 * start markup is backslash-escaped, so a label prints as typed. */
static rd_status add_md_cell(struct rd_buf *out, const char *s)
{
    RD_TRY(rd_buf_addstr(out, "| "));
    for (; *s; s++) {
        if (strchr("\\`*_[]<>|~&!", *s))
            RD_TRY(rd_buf_addch(out, '\\'));
        RD_TRY(rd_buf_addch(out, *s));
    }
    return rd_buf_addch(out, ' ');
}

static rd_status md_row(struct rd_buf *out, char cells[COLS][CELL])
{
    for (int k = 0; k < COLS; k++)
        RD_TRY(add_md_cell(out, cells[k]));
    return rd_buf_addstr(out, "|\n");
}

static rd_status md_table(const struct rd_comparison *c, const char *metric, struct rd_buf *out)
{
    char cells[COLS][CELL];
    head_cells(c, cells);
    RD_TRY(md_row(out, cells));
    RD_TRY(rd_buf_addstr(out, "|---|---|--:|--:|--:|--:|---|\n"));
    for (size_t i = 0; i < c->nrows; i++) {
        if (!same_metric(c->rows[i].metric, metric))
            continue;
        row_cells(&c->rows[i], cells);
        RD_TRY(md_row(out, cells));
    }
    struct geomean g = geomean_of(c, metric);
    if (g.n >= 2) {
        geomean_cells(&g, cells);
        RD_TRY(md_row(out, cells));
    }
    return RD_OK;
}

static void json_side(struct jw *w, const char *key, const struct rd_compare_side *x)
{
    if (x->n == 0) {
        jw_null(w, key);
        return;
    }
    jw_obj(w, key, false);
    jw_num(w, "n", x->n);
    jw_num(w, "mean", x->mean);
    jw_num(w, "sd", x->sd);
    jw_end(w, '}');
}

static rd_status json_doc(const struct rd_comparison *c, struct rd_buf *out)
{
    struct jw w;
    jw_init(&w, out);
    jw_obj(&w, NULL, true);
    jw_str(&w, "schema", RD_COMPARE_SCHEMA);
    jw_str(&w, "old", c->old_name);
    jw_str(&w, "new", c->new_name);
    jw_obj(&w, "settings", false);
    jw_num(&w, "alpha", c->s.alpha);
    jw_num(&w, "margin", c->s.margin);
    jw_num(&w, "fail_if_slower", c->s.fail_if_slower);
    jw_str(&w, "adjustment", "bonferroni");
    jw_end(&w, '}');
    jw_num(&w, "family", (double)c->family);
    jw_num(&w, "regressions", (double)c->regressions);
    jw_arr(&w, "comparisons", true);
    for (size_t i = 0; i < c->nrows; i++) {
        const struct rd_compare_row *r = &c->rows[i];
        jw_obj(&w, NULL, false);
        jw_str(&w, "workload", r->workload);
        jw_str(&w, "config", r->config);
        jw_str(&w, "metric", r->metric);
        jw_str(&w, "better", r->higher_is_better ? "higher" : "lower");
        json_side(&w, "old", &r->old);
        json_side(&w, "new", &r->new_);
        jw_num(&w, "ratio", r->ratio);
        jw_num(&w, "ratio_ci_low", r->ratio_ci_low);
        jw_num(&w, "ratio_ci_high", r->ratio_ci_high);
        jw_num(&w, "p_adjusted", r->p_adjusted);
        jw_bool(&w, "exact", r->exact);
        jw_str(&w, "verdict", r->change == RD_CHANGE_NONE ? NULL : rd_change_name(r->change));
        jw_bool(&w, "regression", r->regression);
        jw_end(&w, '}');
    }
    jw_end(&w, ']');
    jw_arr(&w, "geomean", true);
    for (size_t i = 0; i < c->nrows; i++) {
        if (!first_of_metric(c, i) || !c->rows[i].metric)
            continue;
        struct geomean g = geomean_of(c, c->rows[i].metric);
        jw_obj(&w, NULL, false);
        jw_str(&w, "metric", c->rows[i].metric);
        jw_num(&w, "comparisons", (double)g.n);
        jw_num(&w, "old", g.old_);
        jw_num(&w, "new", g.new_);
        jw_num(&w, "ratio", g.new_ / g.old_);
        jw_end(&w, '}');
    }
    jw_end(&w, ']');
    jw_end(&w, '}');
    if (!w.st)
        w.st = rd_buf_addch(out, '\n');
    return w.st;
}

rd_status rd_comparison_format(const struct rd_comparison *c, enum rd_compare_format f,
                               struct rd_buf *out)
{
    if (f == RD_COMPARE_JSON)
        return json_doc(c, out);
    bool md = f == RD_COMPARE_MARKDOWN;
    bool first = true;
    for (size_t i = 0; i < c->nrows; i++) {
        if (!first_of_metric(c, i))
            continue;
        if (!first)
            RD_TRY(rd_buf_addch(out, '\n'));
        first = false;
        RD_TRY(add_caption(out, c, &c->rows[i], md ? "**" : ""));
        if (md)
            RD_TRY(rd_buf_addch(out, '\n'));
        RD_TRY(md ? md_table(c, c->rows[i].metric, out)
                  : text_table(c, c->rows[i].metric, out));
    }
    return RD_OK;
}
