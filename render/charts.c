/*
 * charts - the chart plan, the gnuplot script and data files, and the one
 * gnuplot process that draws every chart of a report.
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
#include "backends.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "rundown/array.h"
#include "rundown/fsutil.h"
#include "rundown/metrics.h"

extern char **environ;

#define GNUPLOT_TIMEOUT_MS 120000
/* Dots per config in a runs chart. A million runs would make a 100 MiB SVG
 * that no browser draws; 500 dots already show the whole spread. */
#define RD_RUNS_MAX_POINTS 500

const char *const rd_latency_metrics[] = {
    "latency_p50_ms", "latency_p75_ms", "latency_p90_ms", "latency_p99_ms", NULL
};
const double rd_latency_pcts[] = { 50, 75, 90, 99 };

/* The configs a chart draws are some of its workload's; these helpers
 * look at those only, since a chart is planned for what it will show. */

static bool has_latency(const struct rd_rworkload *w, const size_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; rd_latency_metrics[k]; k++)
            if (isfinite(rd_config_mean(&w->configs[idx[i]], rd_latency_metrics[k])))
                return true;
    return false;
}

/* The most per-run values a config has, 0 when none has any. */
static size_t most_values(const struct rd_rworkload *w, const size_t *idx, size_t n)
{
    size_t most = 0;
    for (size_t i = 0; i < n; i++) {
        size_t v = rd_primary(&w->configs[idx[i]])->nvalues;
        if (v > most)
            most = v;
    }
    return most;
}

/* gnuplot stops with "all points undefined" on a chart without one number. */
static bool has_means(const struct rd_rworkload *w, const size_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isfinite(rd_primary(&w->configs[idx[i]])->mean))
            return true;
    return false;
}

/* The configs a chart of w draws. */
struct selection {
    size_t *idx;       /* ascending */
    size_t n;
    size_t of;         /* the workload's configs */
    const char *rule;  /* how they were picked, when n < of */
};

static rd_status plan_add(struct rd_chart_plan *p, size_t *cap, size_t wi,
                          enum rd_chart_kind kind, const char *key,
                          const struct selection *sel, struct rd_buf *stem,
                          struct rd_buf *title)
{
    RD_TRY(RD_ARRAY_GROW(p->items, *cap, p->n + 1));
    /* Two label keys may sanitise alike ("a b", "a_b"): keep stems unique. */
    if (rd_name_unique(stem, 2, p->items, p->n, sizeof *p->items,
                       offsetof(struct rd_chart, stem)) != RD_OK)
        return RD_ERR_NOMEM;
    /* The caption must say when not every config is drawn. */
    if (sel->n < sel->of)
        RD_TRY(rd_buf_addf(title, " (%zu of %zu configs: %s)", sel->n, sel->of, sel->rule));
    struct rd_chart *c = &p->items[p->n];
    c->workload = wi;
    c->kind = kind;
    c->key = key;
    c->stem = strdup(stem->ptr);
    c->title = strdup(title->ptr);
    c->configs = malloc((sel->n ? sel->n : 1) * sizeof *c->configs);
    c->nconfigs = sel->n;
    if (!c->stem || !c->title || !c->configs) {
        free(c->stem);
        free(c->title);
        free(c->configs);
        return RD_ERR_NOMEM;
    }
    memcpy(c->configs, sel->idx, sel->n * sizeof *c->configs);
    p->n++;
    rd_buf_reset(stem);
    rd_buf_reset(title);
    return RD_OK;
}

/* Every config of w, or past RD_CHART_MAX_CONFIGS the ones model.h's
 * rd_workload_select picks: a chart of 10^5 bars shows nothing and makes
 * an SVG no browser opens. */
static rd_status select_configs(const struct rd_rworkload *w, struct selection *sel)
{
    sel->of = w->nconfigs;
    sel->rule = rd_selection_rule(w);
    return rd_workload_select(w, RD_CHART_MAX_CONFIGS, &sel->idx, &sel->n);
}

rd_status rd_chart_plan_make(const struct rd_report *r, struct rd_chart_plan *p)
{
    memset(p, 0, sizeof *p);
    size_t cap = 0;
    struct rd_buf stem = RD_BUF_INIT, title = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (size_t wi = 0; wi < r->nworkloads && st == RD_OK; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        if (!w->metric || w->nconfigs == 0)
            continue;
        struct selection sel;
        st = select_configs(w, &sel);
        if (st != RD_OK)
            break;
        double conf = isfinite(r->confidence) ? r->confidence * 100 : 95;
        bool means = has_means(w, sel.idx, sel.n);
        size_t most = most_values(w, sel.idx, sel.n);
        if (means) {
            st = rd_buf_addf(&stem, "%s-means", w->file);
            if (st == RD_OK)
                st = rd_buf_addf(&title, "%s: mean %s with %g %% CI", w->name, w->metric, conf);
            if (st == RD_OK)
                st = plan_add(p, &cap, wi, RD_CHART_MEANS, NULL, &sel, &stem, &title);
        }
        if (st == RD_OK && most > 0) {
            st = rd_buf_addf(&stem, "%s-runs", w->file);
            if (st == RD_OK)
                st = rd_buf_addf(&title, "%s: %s of every run", w->name, w->metric);
            /* The caption must say when the dots are not every run. */
            if (st == RD_OK && most > RD_RUNS_MAX_POINTS)
                st = rd_buf_addf(&title, " (over %d runs: %d evenly spaced quantiles)",
                                 RD_RUNS_MAX_POINTS, RD_RUNS_MAX_POINTS);
            if (st == RD_OK)
                st = plan_add(p, &cap, wi, RD_CHART_RUNS, NULL, &sel, &stem, &title);
        }
        if (st == RD_OK && has_latency(w, sel.idx, sel.n)) {
            st = rd_buf_addf(&stem, "%s-latency", w->file);
            if (st == RD_OK)
                st = rd_buf_addf(&title, "%s: latency percentiles (mean of runs)", w->name);
            if (st == RD_OK)
                st = plan_add(p, &cap, wi, RD_CHART_LATENCY, NULL, &sel, &stem, &title);
        }
        for (size_t k = 0; k < w->nkeys && st == RD_OK && means; k++) {
            if (!rd_label_numeric(w, w->keys[k]))
                continue;
            st = rd_buf_addf(&stem, "%s-scaling-", w->file);
            if (st == RD_OK)
                st = rd_sanitize_filename(&stem, w->keys[k], 32);
            if (st == RD_OK)
                st = rd_buf_addf(&title, "%s: mean %s against %s", w->name, w->metric, w->keys[k]);
            if (st == RD_OK)
                st = plan_add(p, &cap, wi, RD_CHART_SCALING, w->keys[k], &sel, &stem, &title);
        }
        free(sel.idx);
    }
    rd_buf_release(&stem);
    rd_buf_release(&title);
    if (st != RD_OK)
        rd_chart_plan_release(p);
    return st;
}

void rd_chart_plan_release(struct rd_chart_plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->items[i].stem);
        free(p->items[i].title);
        free(p->items[i].configs);
    }
    free(p->items);
    memset(p, 0, sizeof *p);
}

/* ---- data files: numbers only, '?' for undefined ---- */

static rd_status dat_num(struct rd_buf *b, double v)
{
    char num[32];
    return rd_buf_addstr(b, isfinite(v) ? rd_fmt_double(v, num) : "?");
}

static unsigned colour_int(const char *hex)
{
    return (unsigned)strtoul(hex + 1, NULL, 16);
}

/* "# comment" with the text made harmless: a newline would end it. */
static rd_status dat_comment(struct rd_buf *b, const char *prefix, const char *text)
{
    rd_status st = rd_buf_addstr(b, prefix);
    for (const char *p = text; *p && st == RD_OK; p++)
        st = rd_buf_addch(b, (unsigned char)*p < 0x20 ? ' ' : *p);
    return st == RD_OK ? rd_buf_addch(b, '\n') : st;
}

static rd_status gp_str(struct rd_buf *b, const char *s)
{
    return rd_escape_gnuplot(b, s);
}

static rd_status gp_common(struct rd_buf *g, const struct rd_chart *c, const char *ylabel)
{
    rd_status st = rd_buf_addstr(g, "reset\nset datafile missing '?'\nset title ");
    if (st == RD_OK) st = gp_str(g, c->title);
    if (st == RD_OK) st = rd_buf_addstr(g, " noenhanced\nset ylabel ");
    if (st == RD_OK) st = gp_str(g, ylabel);
    if (st == RD_OK)
        st = rd_buf_addstr(g, " noenhanced\nset grid ytics lc rgb '#dddddd'\n"
                              "set border 3\nset tics nomirror\n");
    return st;
}

/* The i-th config chart c draws. */
static const struct rd_rconfig *drawn(const struct rd_rworkload *w, const struct rd_chart *c,
                                      size_t i)
{
    return &w->configs[c->configs[i]];
}

/* xtics naming each config drawn at 0, 1, 2, ... */
static rd_status gp_xtics(struct rd_buf *g, const struct rd_rworkload *w,
                          const struct rd_chart *c)
{
    rd_status st = rd_buf_addstr(g, "set xtics (");
    size_t longest = 0;
    for (size_t i = 0; i < c->nconfigs; i++)
        if (strlen(drawn(w, c, i)->name) > longest)
            longest = strlen(drawn(w, c, i)->name);
    for (size_t i = 0; i < c->nconfigs && st == RD_OK; i++) {
        if (i)
            st = rd_buf_addstr(g, ", ");
        if (st == RD_OK) st = gp_str(g, drawn(w, c, i)->name);
        if (st == RD_OK) st = rd_buf_addf(g, " %zu", i);
    }
    if (st == RD_OK)
        /* A label rotated by 30 degrees reaches cos 30 = 0.87 of its length
         * to the left of its tic: the first one must fit in the margin. */
        st = rd_buf_addf(g, ") rotate by 30 right noenhanced\nset xrange [-0.7:%g]\n"
                            "set lmargin %zu\n",
                         (double)c->nconfigs - 0.3,
                         longest * 87 / 100 > 16 ? (longest * 87 / 100 < 48 ? longest * 87 / 100 : 48) : 16);
    return st;
}

static rd_status gp_ylabel(struct rd_buf *b, const char *metric)
{
    struct rd_metric_def def;
    rd_metric_describe(metric, &def);
    return rd_buf_addf(b, "%s (%s)", metric, def.unit ? def.unit : "");
}

/* The span of the numbers a chart plots, for its y range. */
struct span {
    double lo, hi;  /* NaN until a finite value is seen */
};

static void span_add(struct span *sp, double v)
{
    if (!isfinite(v))
        return;
    if (!(sp->lo <= v))
        sp->lo = v;
    if (!(sp->hi >= v))
        sp->hi = v;
}

static void span_add_stats(struct span *sp, const struct rd_rstats *s)
{
    span_add(sp, s->mean);
    span_add(sp, s->ci_low);
    span_add(sp, s->ci_high);
}

/* "set yrange" with zero on the side the values are not: bars grow from
 * zero, so a range that starts at 0 hides every negative bar, and one
 * with no value inside it makes gnuplot stop ("empty y range"). */
static rd_status gp_yrange(struct rd_buf *g, const struct span *sp)
{
    const char *range = !(sp->lo < 0) ? "[0:*]" : !(sp->hi > 0) ? "[*:0]" : "[*:*]";
    return rd_buf_addf(g, "set yrange %s\n", range);
}

/* The file reference: 'stem.ext' */
static rd_status gp_file(struct rd_buf *g, const char *stem, const char *ext)
{
    return rd_buf_addf(g, "'%s.%s'", stem, ext);
}

static rd_status chart_means(const struct rd_report *r, const struct rd_rworkload *w,
                             const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g)
{
    rd_status st = dat_comment(dat, "# ", c->title);
    if (st == RD_OK)
        st = rd_buf_addstr(dat, "# index\tmean\tci_low\tci_high\tcolour\n");
    struct span sp = { NAN, NAN };
    for (size_t i = 0; i < c->nconfigs && st == RD_OK; i++) {
        const struct rd_rconfig *rc = drawn(w, c, i);
        const struct rd_rstats *s = rd_primary(rc);
        span_add_stats(&sp, s);
        st = dat_comment(dat, "# ", rc->name);
        if (st == RD_OK) st = rd_buf_addf(dat, "%zu\t", i);
        if (st == RD_OK) st = dat_num(dat, s->mean);
        if (st == RD_OK) st = rd_buf_addch(dat, '\t');
        if (st == RD_OK) st = dat_num(dat, s->ci_low);
        if (st == RD_OK) st = rd_buf_addch(dat, '\t');
        if (st == RD_OK) st = dat_num(dat, s->ci_high);
        if (st == RD_OK)
            st = rd_buf_addf(dat, "\t%u\n", colour_int(rd_runtime_colour(r, rc->runtime)));
    }
    struct rd_buf yl = RD_BUF_INIT;
    if (st == RD_OK) st = gp_ylabel(&yl, w->metric);
    if (st == RD_OK) st = gp_common(g, c, yl.ptr);
    rd_buf_release(&yl);
    if (st == RD_OK) st = gp_xtics(g, w, c);
    if (st == RD_OK) st = rd_buf_addstr(g, "set key off\n");
    if (st == RD_OK) st = gp_yrange(g, &sp);
    if (st == RD_OK)
        st = rd_buf_addstr(g, "set boxwidth 0.6\n"
                              "set style fill solid 0.7 border lc rgb '#333333'\nplot ");
    if (st == RD_OK) st = gp_file(g, c->stem, "dat");
    if (st == RD_OK)
        st = rd_buf_addstr(g, " using 1:2:5 with boxes lc rgb variable, \\\n     ");
    if (st == RD_OK) st = gp_file(g, c->stem, "dat");
    if (st == RD_OK)
        st = rd_buf_addstr(g, " using 1:2:3:4 with yerrorbars lc rgb '#222222' pt 7 ps 0.4 lw 1.5\n");
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The per-run values of c: in run order as the analysis holds them, or a
 * sorted copy in *sorted (grown as needed, the caller frees) when there are
 * more than the chart shows, since then quantiles are taken. */
static rd_status config_values(const struct rd_rconfig *c, double **sorted, size_t *cap,
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

static rd_status chart_runs(const struct rd_report *r, const struct rd_rworkload *w,
                            const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g)
{
    rd_status st = dat_comment(dat, "# ", c->title);
    if (st == RD_OK)
        st = rd_buf_addstr(dat, "# block 0: x (index + jitter)\tvalue\tcolour; "
                                "block 1: index\tmean (drawn as a bar)\n");
    double *sorted = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < c->nconfigs && st == RD_OK; i++) {
        const struct rd_rconfig *rc = drawn(w, c, i);
        const double *vals = NULL;
        size_t n = 0;
        st = config_values(rc, &sorted, &cap, &vals, &n);
        if (st == RD_OK) st = dat_comment(dat, "# ", rc->name);
        size_t shown = n > RD_RUNS_MAX_POINTS ? RD_RUNS_MAX_POINTS : n;
        if (st == RD_OK && shown < n)
            st = rd_buf_addf(dat, "# %zu runs: %zu order statistics at even steps from the smallest to the largest\n", n, shown);
        for (size_t j = 0; j < shown && st == RD_OK; j++) {
            /* Past the cap the dots are order statistics at even steps
             * from min to max: the same spread, a bounded chart, and the
             * same picture on every render. */
            double y = shown < n ? vals[(size_t)((double)j * (double)(n - 1) / (double)(shown - 1) + 0.5)]
                                 : vals[j];
            /* A fixed spread instead of random jitter keeps the chart the
             * same on every render. */
            double x = (double)i + ((double)(j % 7) - 3.0) * 0.05;
            st = dat_num(dat, x);
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = dat_num(dat, y);
            if (st == RD_OK)
                st = rd_buf_addf(dat, "\t%u\n", colour_int(rd_runtime_colour(r, rc->runtime)));
        }
    }
    free(sorted);
    if (st == RD_OK) st = rd_buf_addstr(dat, "\n\n");
    for (size_t i = 0; i < c->nconfigs && st == RD_OK; i++) {
        st = rd_buf_addf(dat, "%zu\t", i);
        if (st == RD_OK) st = dat_num(dat, rd_primary(drawn(w, c, i))->mean);
        if (st == RD_OK) st = rd_buf_addch(dat, '\n');
    }
    struct rd_buf yl = RD_BUF_INIT;
    if (st == RD_OK) st = gp_ylabel(&yl, w->metric);
    if (st == RD_OK) st = gp_common(g, c, yl.ptr);
    rd_buf_release(&yl);
    if (st == RD_OK) st = gp_xtics(g, w, c);
    if (st == RD_OK) st = rd_buf_addstr(g, "set key off\nplot ");
    if (st == RD_OK) st = gp_file(g, c->stem, "dat");
    if (st == RD_OK)
        st = rd_buf_addstr(g, " index 0 using 1:2:3 with points pt 7 ps 0.9 lc rgb variable, \\\n     ");
    if (st == RD_OK) st = gp_file(g, c->stem, "dat");
    if (st == RD_OK)
        st = rd_buf_addstr(g, " index 1 using ($1-0.25):2:(0.5):(0) with vectors nohead lw 2 lc rgb '#222222'\n");
    return st;
}

static rd_status chart_latency(const struct rd_report *r, const struct rd_rworkload *w,
                               const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g)
{
    rd_status st = dat_comment(dat, "# ", c->title);
    if (st == RD_OK)
        st = rd_buf_addstr(dat, "# one block per config: 100/(100-percentile)\tpercentile\t"
                                "latency_ms\tci_low\tci_high\n");
    struct span sp = { NAN, NAN };
    for (size_t i = 0; i < c->nconfigs && st == RD_OK; i++) {
        if (i)
            st = rd_buf_addstr(dat, "\n\n");
        if (st == RD_OK) st = dat_comment(dat, "# ", drawn(w, c, i)->name);
        for (size_t k = 0; rd_latency_metrics[k] && st == RD_OK; k++) {
            const struct rd_rstats *s = rd_config_stats(drawn(w, c, i), rd_latency_metrics[k]);
            if (!s)
                s = &rd_rstats_none;
            span_add(&sp, s->mean);
            st = dat_num(dat, 100.0 / (100.0 - rd_latency_pcts[k]));
            if (st == RD_OK) st = rd_buf_addf(dat, "\t%g\t", rd_latency_pcts[k]);
            if (st == RD_OK) st = dat_num(dat, s->mean);
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = dat_num(dat, s->ci_low);
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = dat_num(dat, s->ci_high);
            if (st == RD_OK) st = rd_buf_addch(dat, '\n');
        }
    }
    if (st == RD_OK) st = gp_common(g, c, "latency (ms)");
    /* The x axis is 1/(1 - p) on a log scale, so the tail gets the room. */
    if (st == RD_OK)
        st = rd_buf_addstr(g, "set logscale x\nset xrange [1.6:125]\n"
                              "set xtics ('p50' 2, 'p75' 4, 'p90' 10, 'p99' 100)\n"
                              "set xlabel 'percentile'\n");
    if (st == RD_OK) st = gp_yrange(g, &sp);
    if (st == RD_OK) st = rd_buf_addstr(g, "set key top left noenhanced\nplot ");
    for (size_t i = 0; i < c->nconfigs && st == RD_OK; i++) {
        const struct rd_rconfig *rc = drawn(w, c, i);
        if (i)
            st = rd_buf_addstr(g, ", \\\n     ");
        if (st == RD_OK) st = gp_file(g, c->stem, "dat");
        if (st == RD_OK)
            st = rd_buf_addf(g, " index %zu using 1:3 with linespoints lw 2 pt %zu lc rgb '%s' title ",
                             i, 5 + i % 8, rd_runtime_colour(r, rc->runtime));
        if (st == RD_OK) st = gp_str(g, rc->name);
    }
    return st == RD_OK ? rd_buf_addch(g, '\n') : st;
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

static rd_status chart_scaling(const struct rd_report *r, const struct rd_rworkload *w,
                               const struct rd_chart *c, struct rd_buf *dat, struct rd_buf *g)
{
    struct group *groups = calloc(c->nconfigs + 1, sizeof *groups);
    size_t ng = 0;
    rd_status st = groups ? RD_OK : RD_ERR_NOMEM;
    struct rd_buf name = RD_BUF_INIT;
    /* Configs that differ only in the scaling label form one line. */
    for (size_t i = 0; i < c->nconfigs && st == RD_OK; i++) {
        const struct rd_rconfig *rc = drawn(w, c, i);
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
    struct span sp = { NAN, NAN };
    if (st == RD_OK) st = dat_comment(dat, "# ", c->title);
    if (st == RD_OK)
        st = rd_buf_addstr(dat, "# one block per line: label value\tmean\tci_low\tci_high\n");
    for (size_t gi = 0; gi < ng && st == RD_OK; gi++) {
        sort_w = w;
        sort_key = c->key;
        qsort(groups[gi].members, groups[gi].n, sizeof(size_t), cmp_member);
        if (gi)
            st = rd_buf_addstr(dat, "\n\n");
        if (st == RD_OK) st = dat_comment(dat, "# ", groups[gi].name);
        for (size_t m = 0; m < groups[gi].n && st == RD_OK; m++) {
            const struct rd_rconfig *rc = &w->configs[groups[gi].members[m]];
            const struct rd_rstats *s = rd_primary(rc);
            span_add_stats(&sp, s);
            st = dat_num(dat, label_value(rc, c->key));
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = dat_num(dat, s->mean);
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = dat_num(dat, s->ci_low);
            if (st == RD_OK) st = rd_buf_addch(dat, '\t');
            if (st == RD_OK) st = dat_num(dat, s->ci_high);
            if (st == RD_OK) st = rd_buf_addch(dat, '\n');
        }
    }
    struct rd_buf yl = RD_BUF_INIT;
    if (st == RD_OK) st = gp_ylabel(&yl, w->metric);
    if (st == RD_OK) st = gp_common(g, c, yl.ptr);
    rd_buf_release(&yl);
    if (st == RD_OK) st = rd_buf_addstr(g, "set xlabel ");
    if (st == RD_OK) st = gp_str(g, c->key);
    /* Tics at the measured values only: 3 workers is not a thing here. */
    if (st == RD_OK) st = rd_buf_addstr(g, " noenhanced\nset xtics (");
    double *xs = calloc(c->nconfigs + 1, sizeof *xs);
    size_t nx = 0;
    for (size_t i = 0; xs && i < c->nconfigs; i++) {
        double x = label_value(drawn(w, c, i), c->key);
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
        if (st == RD_OK) st = dat_num(g, xs[k]);
    }
    free(xs);
    if (st == RD_OK)
        st = rd_buf_addstr(g, ")\nset offsets graph 0.05, graph 0.05, 0, 0\n");
    if (st == RD_OK) st = gp_yrange(g, &sp);
    if (st == RD_OK) st = rd_buf_addstr(g, "set key outside right top noenhanced\nplot ");
    for (size_t gi = 0; gi < ng && st == RD_OK; gi++) {
        if (gi)
            st = rd_buf_addstr(g, ", \\\n     ");
        if (st == RD_OK) st = gp_file(g, c->stem, "dat");
        /* Lines of one runtime share its colour; dash and point tell
         * its mechanisms apart. */
        if (st == RD_OK)
            st = rd_buf_addf(g, " index %zu using 1:2:3:4 with yerrorlines lw 2 pt %zu dt %zu lc rgb '%s' title ",
                             gi, 5 + gi % 8, 1 + gi % 5, rd_runtime_colour(r, groups[gi].runtime));
        if (st == RD_OK) st = gp_str(g, groups[gi].name);
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
static rd_status run_gnuplot(const char *gnuplot, const char *dir, const char *script,
                             struct rd_diag *d)
{
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create a pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
    posix_spawn_file_actions_addchdir_np(&fa, dir);
    /* gnuplot starts in the charts folder, so a relative path to the
     * binary ("./gnuplot") must be made absolute first. */
    const char *shown = gnuplot;
    char abs[4096];
    if (strchr(gnuplot, '/') && gnuplot[0] != '/') {
        char cwd[2048];
        if (getcwd(cwd, sizeof cwd) && (size_t)snprintf(abs, sizeof abs, "%s/%s", cwd, gnuplot) < sizeof abs)
            gnuplot = abs;
    }
    /* -d: no ~/.gnuplot, so a user's settings cannot change the charts. */
    char *argv[] = { (char *)gnuplot, "-d", (char *)script, NULL };
    /* gnuplot is registered as the child a signal kills before the
     * staging folder goes; signals wait until it is, and gnuplot itself
     * starts with none blocked. */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, dfl, saved;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    /* A file-size limit must end gnuplot rather than leave it writing a
     * truncated SVG it thinks is whole. */
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGXFSZ);
    posix_spawnattr_setsigdefault(&attr, &dfl);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    rd_signals_hold(&saved);
    int rc = posix_spawnp(&pid, gnuplot, &fa, &attr, argv, environ);
    if (rc == 0)
        rd_cleanup_child(pid);
    rd_signals_release(&saved);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    if (rc != 0) {
        close(pipefd[0]);
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0,
                           "cannot run '%s': %s (install gnuplot-nox, or leave 'charts' out of --formats)",
                           shown, strerror(rc));
    }
    char err[4096];
    size_t elen = 0;
    /* gnuplot waits for nothing (stdin is /dev/null), but a broken font
     * setup or a huge plot must not hang a CI job forever. */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool timed_out = false;
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = GNUPLOT_TIMEOUT_MS - ((now.tv_sec - t0.tv_sec) * 1000L +
                                          (now.tv_nsec - t0.tv_nsec) / 1000000L);
        struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
        int pr = left > 0 ? poll(&pfd, 1, (int)left) : 0;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0) {
            timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        char tmp[1024];
        ssize_t n = read(pipefd[0], tmp, sizeof tmp);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size_t take = (size_t)n < sizeof err - 1 - elen ? (size_t)n : sizeof err - 1 - elen;
        memcpy(err + elen, tmp, take);
        elen += take;
    }
    while (elen > 0 && (err[elen - 1] == '\n' || err[elen - 1] == ' ' || err[elen - 1] == '\r'))
        elen--;
    err[elen] = '\0';
    close(pipefd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            rd_cleanup_child(0);
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "waiting for gnuplot: %s", strerror(errno));
        }
    }
    rd_cleanup_child(0);
    if (timed_out)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "gnuplot did not finish within %d s",
                           GNUPLOT_TIMEOUT_MS / 1000);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* The first non-blank lines of gnuplot's complaint say what broke. */
        for (char *p = err; *p; p++)
            if (*p == '\n' || *p == '\r' || *p == '\t')
                *p = ' ';
        char ex[300];
        rd_excerpt(err, elen, 240, ex, sizeof ex);
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "gnuplot failed (%s %d): %s",
                           WIFEXITED(status) ? "exit" : "signal",
                           WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), ex);
    }
    return RD_OK;
}

rd_status rd_render_charts(const struct rd_report *r, const struct rd_chart_plan *p,
                           struct rd_stage *s, bool run, bool png, const char *gnuplot,
                           struct rd_diag *d)
{
    struct rd_buf g = RD_BUF_INIT, dat = RD_BUF_INIT, rel = RD_BUF_INIT;
    rd_status st = rd_buf_addstr(&g,
        "# rundown charts. Re-run from this folder: gnuplot report.gp\n");
    /* PNG is opt-in: a pngcairo image costs about 25 times the CPU of an
     * SVG, and the Markdown and HTML reports both use the SVGs. */
    if (st == RD_OK && png)
        st = rd_buf_addstr(&g, "rd_png = (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) ? 'pngcairo' : 'png'\n");
    if (st == RD_OK)
        st = rd_buf_addstr(&g, "set encoding utf8\n");
    for (size_t i = 0; i < p->n && st == RD_OK; i++) {
        const struct rd_chart *c = &p->items[i];
        const struct rd_rworkload *w = &r->workloads[c->workload];
        struct rd_buf body = RD_BUF_INIT;
        rd_buf_reset(&dat);
        switch (c->kind) {
        case RD_CHART_MEANS: st = chart_means(r, w, c, &dat, &body); break;
        case RD_CHART_RUNS: st = chart_runs(r, w, c, &dat, &body); break;
        case RD_CHART_LATENCY: st = chart_latency(r, w, c, &dat, &body); break;
        case RD_CHART_SCALING: st = chart_scaling(r, w, c, &dat, &body); break;
        }
        if (st == RD_OK) {
            rd_buf_reset(&rel);
            st = rd_buf_addf(&rel, "charts/%s.dat", c->stem);
        }
        if (st == RD_OK)
            st = rd_stage_write(s, rel.ptr, dat.ptr, dat.len, d);
        /* SVG for both reports; the same drawing again as PNG on request
         * (for viewers without SVG). */
        if (st == RD_OK) st = rd_buf_addstr(&g, "\n");
        if (st == RD_OK) st = dat_comment(&g, "# ", c->title);
        if (st == RD_OK)
            st = rd_buf_addstr(&g, "set terminal svg size 800,450 dynamic noenhanced "
                                   "font 'sans,13' background '#ffffff'\nset output ");
        if (st == RD_OK) st = gp_file(&g, c->stem, "svg");
        if (st == RD_OK) st = rd_buf_addch(&g, '\n');
        if (st == RD_OK) st = rd_buf_addstr(&g, body.ptr);
        if (st == RD_OK && png)
            st = rd_buf_addstr(&g, "set terminal @rd_png size 800,450 noenhanced "
                                   "font 'sans,10' background '#ffffff'\nset output ");
        if (st == RD_OK && png) st = gp_file(&g, c->stem, "png");
        if (st == RD_OK && png) st = rd_buf_addstr(&g, "\nreplot\n");
        if (st == RD_OK) st = rd_buf_addstr(&g, "unset output\n");
        rd_buf_release(&body);
    }
    if (st == RD_OK)
        st = rd_stage_write(s, "charts/report.gp", g.ptr, g.len, d);
    const char *exts[] = { "svg", "png" };
    size_t nexts = png ? 2 : 1;
    if (st == RD_OK && run && p->n > 0) {
        for (size_t i = 0; i < p->n && st == RD_OK; i++) {
            for (size_t e = 0; e < nexts && st == RD_OK; e++) {
                const char *tmp;
                rd_buf_reset(&rel);
                st = rd_buf_addf(&rel, "charts/%s.%s", p->items[i].stem, exts[e]);
                if (st == RD_OK)
                    st = rd_stage_reserve(s, rel.ptr, &tmp, d);
            }
        }
        rd_buf_reset(&rel);
        if (st == RD_OK)
            st = rd_buf_addf(&rel, "%s/charts", s->path);
        if (st == RD_OK)
            st = run_gnuplot(gnuplot ? gnuplot : "gnuplot", rel.ptr, "report.gp", d);
        /* Every image the script promises must exist before the commit. */
        for (size_t i = 0; i < p->n && st == RD_OK; i++) {
            for (size_t e = 0; e < nexts && st == RD_OK; e++) {
                rd_buf_reset(&rel);
                st = rd_buf_addf(&rel, "charts/%s.%s", p->items[i].stem, exts[e]);
                const char *tmp = rd_stage_tmp(s, rel.ptr);
                if (st == RD_OK && (!tmp || access(tmp, R_OK) != 0))
                    st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "gnuplot did not write '%s'", rel.ptr);
            }
        }
    }
    rd_buf_release(&g);
    rd_buf_release(&dat);
    rd_buf_release(&rel);
    return st;
}
