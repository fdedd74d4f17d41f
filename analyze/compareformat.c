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

enum { CELL = 256 };

/* The columns of a line: workload, config, the baseline, then for each
 * other side its value, change [interval], p and verdict. */
enum { LEAD = 3, PER_SIDE = 4 };

static size_t ncols(const struct rd_comparison *c)
{
    return LEAD + PER_SIDE * (c->nsides - 1);
}

/* A missing side, or no verdict. */
#define NOTHING "—"

/* v with about four significant digits and no exponent. */
static void fmt_value(char *out, size_t size, double v)
{
    if (!isfinite(v)) {
        snprintf(out, size, NOTHING);
        return;
    }
    int digits = v != 0 ? (int)floor(log10(fabs(v))) + 1 : 1;
    int dec = digits >= 4 ? 0 : 4 - digits;
    snprintf(out, size, "%.*f", dec > 6 ? 6 : dec, v);
}

/* "mean ±h% n=N": h the half-width of the mean's interval, relative. */
static void fmt_side(char *out, size_t size, const struct rd_compare_side *x)
{
    if (x->n == 0) {
        snprintf(out, size, NOTHING);
        return;
    }
    char m[32];
    fmt_value(m, sizeof m, x->mean);
    if (isfinite(x->half_width) && x->mean != 0)
        snprintf(out, size, "%s ±%.1f%% n=%.0f", m, 100 * x->half_width / fabs(x->mean), x->n);
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

/* Does the row's interval exclude no change (benchstat prints '~' when
 * it does not)? */
static bool significant(const struct rd_compare_row *r)
{
    if (r->exact)
        return r->ratio != 1;
    return r->ratio_ci_low > 1 || r->ratio_ci_high < 1;
}

static void fmt_change(char *out, size_t size, const struct rd_compare_row *r)
{
    if (r->change == RD_CHANGE_NONE) {
        snprintf(out, size, NOTHING);
        return;
    }
    char c[24], lo[24], hi[24];
    if (significant(r))
        fmt_pct(c, sizeof c, r->ratio);
    else
        snprintf(c, sizeof c, "~");
    if (r->exact) {
        snprintf(out, size, "%s (exact)", c);
        return;
    }
    if (!isfinite(r->ratio_ci_low) || !isfinite(r->ratio_ci_high)) {
        snprintf(out, size, "%s", c);
        return;
    }
    fmt_pct(lo, sizeof lo, r->ratio_ci_low);
    fmt_pct(hi, sizeof hi, r->ratio_ci_high);
    snprintf(out, size, "%s [%s, %s]", c, lo, hi);
}

static void fmt_p(char *out, size_t size, double p)
{
    if (isnan(p))
        snprintf(out, size, NOTHING);
    else if (p < 0.001)
        snprintf(out, size, "<0.001");
    else
        snprintf(out, size, "%.3f", p);
}

static void fmt_verdict(char *out, size_t size, const struct rd_compare_row *r)
{
    if (r->change == RD_CHANGE_INCONCLUSIVE && r->runs_needed > 0)
        snprintf(out, size, "%s, needs n=%ld", rd_change_name(r->change), r->runs_needed);
    else
        snprintf(out, size, "%s%s", rd_change_name(r->change),
                 r->regression ? " (regression)" : "");
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

/* The cells of the line whose rows start at rows[i]. */
static void line_cells(const struct rd_comparison *c, size_t i, char (*cells)[CELL])
{
    const struct rd_compare_row *r = &c->rows[i];
    name_cell(cells[0], r->workload);
    name_cell(cells[1], *r->config ? r->config : "-");
    fmt_side(cells[2], CELL, &r->old);
    for (size_t k = 0; k + 1 < c->nsides; k++, r++) {
        char (*at)[CELL] = cells + LEAD + PER_SIDE * k;
        fmt_side(at[0], CELL, &r->new_);
        fmt_change(at[1], CELL, r);
        fmt_p(at[2], CELL, r->p_adjusted);
        fmt_verdict(at[3], CELL, r);
    }
}

/* The geometric means of each side over the lines of 'metric' where
 * every comparison has a verdict (benchstat's geomean row). */
struct geomean {
    size_t n;
    double *mean; /* nsides */
};

static bool same_metric(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool line_decided(const struct rd_comparison *c, size_t i)
{
    for (size_t k = 0; k + 1 < c->nsides; k++)
        if (c->rows[i + k].change == RD_CHANGE_NONE)
            return false;
    return true;
}

static rd_status geomean_of(const struct rd_comparison *c, const char *metric,
                            struct geomean *g)
{
    size_t per = c->nsides - 1;
    g->n = 0;
    if (!(g->mean = calloc(c->nsides, sizeof *g->mean)))
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < c->nrows; i += per) {
        if (!same_metric(c->rows[i].metric, metric) || !line_decided(c, i))
            continue;
        g->mean[0] += log(c->rows[i].old.mean);
        for (size_t k = 0; k < per; k++)
            g->mean[k + 1] += log(c->rows[i + k].new_.mean);
        g->n++;
    }
    for (size_t k = 0; k < c->nsides; k++)
        g->mean[k] = g->n ? exp(g->mean[k] / (double)g->n) : NAN;
    return RD_OK;
}

static void geomean_cells(const struct rd_comparison *c, const struct geomean *g,
                          char (*cells)[CELL])
{
    for (size_t k = 0; k < ncols(c); k++)
        cells[k][0] = '\0';
    snprintf(cells[0], CELL, "geomean");
    fmt_value(cells[2], CELL, g->mean[0]);
    for (size_t k = 1; k < c->nsides; k++) {
        char (*at)[CELL] = cells + LEAD + PER_SIDE * (k - 1);
        fmt_value(at[0], CELL, g->mean[k]);
        fmt_pct(at[1], CELL, g->mean[k] / g->mean[0]);
    }
}

/* Is the line at rows[i] the first of its metric? */
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
    RD_TRY(rd_buf_addf(out, "%s%s%s (%s is better): %s vs ", bold,
                       r->metric ? r->metric : "(no metric)", bold,
                       r->higher_is_better ? "higher" : "lower", c->side_names[0]));
    for (size_t k = 1; k < c->nsides; k++)
        RD_TRY(rd_buf_addf(out, "%s%s", k > 1 ? ", " : "", c->side_names[k]));
    return rd_buf_addf(out,
                       "; ±: each mean's %g %% interval; change: %g %% intervals jointly "
                       "over %zu comparison%s (Bonferroni), ~ not significant\n",
                       100 * c->confidence, 100 * (1 - c->s.alpha), c->family,
                       c->family == 1 ? "" : "s");
}

static void head_cells(const struct rd_comparison *c, char (*cells)[CELL])
{
    snprintf(cells[0], CELL, "workload");
    snprintf(cells[1], CELL, "config");
    for (size_t k = 0; k < c->nsides; k++) {
        char (*at)[CELL] = k ? cells + LEAD + PER_SIDE * (k - 1) : cells + 2;
        char name[CELL];
        name_cell(name, c->side_names[k]);
        snprintf(at[0], CELL, "%.200s (±%g%%)", name, 100 * c->confidence);
        if (!k)
            continue;
        snprintf(at[1], CELL, "change [interval]");
        snprintf(at[2], CELL, "p");
        snprintf(at[3], CELL, "verdict");
    }
}

/* Display width of UTF-8 text: one column per character. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* One text line of cells[0..n), padded to w, without trailing blanks. */
static rd_status text_line(struct rd_buf *out, char (*cells)[CELL], const size_t *w, size_t n)
{
    while (n > 1 && !cells[n - 1][0])
        n--;
    for (size_t k = 0; k < n; k++) {
        RD_TRY(rd_buf_addstr(out, cells[k]));
        if (k + 1 == n)
            break;
        for (size_t i = width(cells[k]); i < w[k] + 2; i++)
            RD_TRY(rd_buf_addch(out, ' '));
    }
    return rd_buf_addch(out, '\n');
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

static rd_status md_line(struct rd_buf *out, char (*cells)[CELL], size_t n)
{
    for (size_t k = 0; k < n; k++)
        RD_TRY(add_md_cell(out, cells[k]));
    return rd_buf_addstr(out, "|\n");
}

/* The table of one metric: the head, its lines, the geomean line when
 * at least two lines are decided on every side. Text pads the columns to
 * their widest cell; Markdown is a GitHub table. */
static rd_status table(const struct rd_comparison *c, const char *metric, bool md,
                       char (*cells)[CELL], size_t *w, struct rd_buf *out)
{
    size_t n = ncols(c), per = c->nsides - 1;
    struct geomean g;
    RD_TRY(geomean_of(c, metric, &g));
    rd_status st = RD_OK;
    for (size_t k = 0; k < n; k++)
        w[k] = 0;
    /* pass 0 measures the columns, pass 1 writes */
    for (int pass = md; pass < 2 && !st; pass++) {
        head_cells(c, cells);
        if (pass == 0)
            for (size_t k = 0; k < n; k++)
                w[k] = width(cells[k]);
        else if (md) {
            st = md_line(out, cells, n);
            if (!st)
                st = rd_buf_addstr(out, "|---|---|--:|");
            for (size_t k = 0; k < per && !st; k++)
                st = rd_buf_addstr(out, "--:|--:|--:|---|");
            if (!st)
                st = rd_buf_addch(out, '\n');
        } else
            st = text_line(out, cells, w, n);
        for (size_t i = 0; i <= c->nrows && !st; i += per) {
            if (i < c->nrows && !same_metric(c->rows[i].metric, metric))
                continue;
            if (i == c->nrows && g.n < 2)
                break;
            if (i < c->nrows)
                line_cells(c, i, cells);
            else
                geomean_cells(c, &g, cells);
            if (pass == 0)
                for (size_t k = 0; k < n; k++)
                    w[k] = width(cells[k]) > w[k] ? width(cells[k]) : w[k];
            else
                st = md ? md_line(out, cells, n) : text_line(out, cells, w, n);
        }
    }
    free(g.mean);
    return st;
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
    jw_num(w, "half_width", x->half_width);
    jw_end(w, '}');
}

/* The comparison's numbers (the row's keys, or a side's in "sides"). */
static void json_numbers(struct jw *w, const struct rd_compare_row *r)
{
    jw_num(w, "ratio", r->ratio);
    jw_num(w, "ratio_ci_low", r->ratio_ci_low);
    jw_num(w, "ratio_ci_high", r->ratio_ci_high);
    jw_num(w, "p_adjusted", r->p_adjusted);
    jw_bool(w, "exact", r->exact);
    jw_str(w, "verdict", r->change == RD_CHANGE_NONE ? NULL : rd_change_name(r->change));
    jw_bool(w, "regression", r->regression);
    jw_num(w, "runs_needed", r->runs_needed > 0 ? (double)r->runs_needed : NAN);
}

/* A line: the first comparison's keys as in two-sided documents, and
 * "sides", every side's numbers (the baseline first, without a ratio). */
static void json_line(struct jw *w, const struct rd_comparison *c, size_t i)
{
    const struct rd_compare_row *r = &c->rows[i];
    jw_obj(w, NULL, false);
    jw_str(w, "workload", r->workload);
    jw_str(w, "config", r->config);
    jw_str(w, "metric", r->metric);
    jw_str(w, "better", r->higher_is_better ? "higher" : "lower");
    json_side(w, "old", &r->old);
    json_side(w, "new", &r->new_);
    json_numbers(w, r);
    jw_arr(w, "sides", false);
    for (size_t k = 0; k < c->nsides; k++) {
        const struct rd_compare_row *rk = &c->rows[i + (k ? k - 1 : 0)];
        jw_obj(w, NULL, false);
        jw_str(w, "name", c->side_names[k]);
        json_side(w, "runs", k ? &rk->new_ : &rk->old);
        if (k)
            json_numbers(w, rk);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
}

static rd_status json_doc(const struct rd_comparison *c, struct rd_buf *out)
{
    size_t per = c->nsides - 1;
    struct jw w;
    jw_init(&w, out);
    jw_obj(&w, NULL, true);
    jw_str(&w, "schema", RD_COMPARE_SCHEMA);
    jw_str(&w, "old", c->side_names[0]);
    jw_str(&w, "new", c->side_names[1]);
    jw_arr(&w, "sides", false);
    for (size_t k = 0; k < c->nsides; k++)
        jw_str(&w, NULL, c->side_names[k]);
    jw_end(&w, ']');
    jw_obj(&w, "settings", false);
    jw_num(&w, "alpha", c->s.alpha);
    jw_num(&w, "margin", c->s.margin);
    jw_num(&w, "confidence", c->confidence);
    jw_num(&w, "fail_if_slower", c->s.fail_if_slower);
    jw_bool(&w, "fail_if_inconclusive", c->s.fail_if_inconclusive);
    jw_str(&w, "adjustment", "bonferroni");
    jw_end(&w, '}');
    jw_num(&w, "family", (double)c->family);
    jw_num(&w, "regressions", (double)c->regressions);
    jw_num(&w, "inconclusive", (double)c->inconclusive);
    jw_arr(&w, "comparisons", true);
    for (size_t i = 0; i < c->nrows; i += per)
        json_line(&w, c, i);
    jw_end(&w, ']');
    jw_arr(&w, "geomean", true);
    for (size_t i = 0; i < c->nrows && !w.st; i += per) {
        if (!first_of_metric(c, i) || !c->rows[i].metric)
            continue;
        struct geomean g;
        if ((w.st = geomean_of(c, c->rows[i].metric, &g)))
            break;
        jw_obj(&w, NULL, false);
        jw_str(&w, "metric", c->rows[i].metric);
        jw_num(&w, "comparisons", (double)g.n);
        jw_num(&w, "old", g.mean[0]);
        jw_num(&w, "new", g.mean[1]);
        jw_num(&w, "ratio", g.mean[1] / g.mean[0]);
        jw_arr(&w, "sides", false);
        for (size_t k = 0; k < c->nsides; k++) {
            jw_obj(&w, NULL, false);
            jw_str(&w, "name", c->side_names[k]);
            jw_num(&w, "mean", g.mean[k]);
            jw_num(&w, "ratio", g.mean[k] / g.mean[0]);
            jw_end(&w, '}');
        }
        jw_end(&w, ']');
        jw_end(&w, '}');
        free(g.mean);
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
    size_t n = ncols(c), per = c->nsides - 1;
    char (*cells)[CELL] = calloc(n, sizeof *cells);
    size_t *w = calloc(n, sizeof *w);
    rd_status st = cells && w ? RD_OK : RD_ERR_NOMEM;
    bool first = true;
    for (size_t i = 0; i < c->nrows && !st; i += per) {
        if (!first_of_metric(c, i))
            continue;
        if (!first)
            st = rd_buf_addch(out, '\n');
        first = false;
        if (!st)
            st = add_caption(out, c, &c->rows[i], md ? "**" : "");
        if (!st && md)
            st = rd_buf_addch(out, '\n');
        if (!st)
            st = table(c, c->rows[i].metric, md, cells, w, out);
    }
    free(cells);
    free(w);
    return st;
}
