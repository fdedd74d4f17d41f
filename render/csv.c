/*
 * csv - tidy CSV files for R and pandas users: runs.csv (one row per run,
 * its config's display name, a column per label and per metric), summary.csv (one row per config and
 * metric) and comparisons.csv (one row per verdict, on the primary metric
 * and on each key metric).
 *
 * RFC 4180 with a header row, UTF-8, "\n" line ends; numbers in their
 * shortest round-trip form (read back bit for bit), an undefined value as
 * an empty field (NA in R, NaN in pandas). Text goes through
 * rd_escape_csv, so a label "=1+1" never becomes a formula when a
 * spreadsheet opens the file.
 */
#include "backends.h"

#include <math.h>
#include <string.h>

#include "escape.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"
#include "lookup.h"
#include "runs.h"
#include "verdicts.h"

/* A CSV's columns past this are left out (a store with 10^5 metric names
 * is not a table anyone reads). */
#define MAX_CSV_COLS 4096

static rd_status field(struct rd_buf *b, bool first, const char *s)
{
    if (!first)
        RD_TRY(rd_buf_addch(b, ','));
    return s ? rd_escape_csv(b, s) : RD_OK;
}

static rd_status number(struct rd_buf *b, double v)
{
    char num[32];
    RD_TRY(rd_buf_addch(b, ','));
    return isfinite(v) ? rd_buf_addstr(b, rd_fmt_double(v, num)) : RD_OK;
}

/* ---- runs.csv ---- */

struct runs_out {
    const struct rd_run_columns *cols;
    struct rd_buf *b;
    struct rd_buf name;   /* the config's display name */
    bool oom;
};

static void run_row(const struct rd_rrun *run, void *arg)
{
    struct runs_out *o = arg;
    const struct rd_record *rec = run->rec;
    struct rd_buf *b = o->b;
    rd_status st = field(b, true, run->store);
    if (st == RD_OK) st = field(b, false, rec->workload);
    if (st == RD_OK) {
        rd_buf_reset(&o->name);
        st = rd_fmt_config_name(&o->name, rec->config.items, rec->config.len);
    }
    if (st == RD_OK) st = field(b, false, o->name.ptr);
    if (st == RD_OK) st = number(b, rec->run > 0 ? (double)rec->run : NAN);
    if (st == RD_OK) st = field(b, false, rec->phase);
    if (st == RD_OK) st = field(b, false, rd_run_status_name(run->status));
    if (st == RD_OK) st = field(b, false, rec->env);
    if (st == RD_OK) st = field(b, false, rec->started_at);
    for (size_t k = 0; k < o->cols->nlabels && st == RD_OK; k++)
        st = field(b, false, rd_record_label(rec, o->cols->labels[k]));
    for (size_t k = 0; k < o->cols->nmetrics && st == RD_OK; k++) {
        double v = NAN;
        for (size_t m = 0; m < rec->nmetrics; m++)
            if (strcmp(rec->metrics[m].name, o->cols->metrics[k]) == 0)
                v = rec->metrics[m].value;
        st = number(b, v);
    }
    if (st == RD_OK)
        st = rd_buf_addch(b, '\n');
    if (st != RD_OK)
        o->oom = true;
}

static rd_status runs_csv(const struct rd_report *r, struct rd_buf *b)
{
    struct rd_run_columns cols;
    rd_run_columns_scan(r, MAX_CSV_COLS, &cols);
    rd_status st = cols.oom ? RD_ERR_NOMEM : RD_OK;
    static const char *fixed[] = { "store", "workload", "config", "run", "phase", "status",
                                   "env", "started_at" };
    for (size_t i = 0; i < 8 && st == RD_OK; i++)
        st = field(b, i == 0, fixed[i]);
    for (size_t i = 0; i < cols.nlabels && st == RD_OK; i++)
        st = field(b, false, cols.labels[i]);
    for (size_t i = 0; i < cols.nmetrics && st == RD_OK; i++)
        st = field(b, false, cols.metrics[i]);
    if (st == RD_OK)
        st = rd_buf_addch(b, '\n');
    struct runs_out o = { &cols, b, RD_BUF_INIT, false };
    if (st == RD_OK)
        rd_report_for_each_run(r, run_row, &o);
    rd_buf_release(&o.name);
    rd_run_columns_release(&cols);
    return st == RD_OK && o.oom ? RD_ERR_NOMEM : st;
}

/* ---- summary.csv and comparisons.csv ---- */

/* The label keys of the whole report, in the order config names use. */
struct keys {
    const char **items;
    size_t n;
};

static rd_status report_keys(const struct rd_report *r, struct rd_arena *a, struct keys *k)
{
    size_t cap = 1;
    for (size_t wi = 0; wi < r->nworkloads; wi++)
        cap += r->workloads[wi].nkeys;
    k->items = rd_arena_alloc(a, cap * sizeof *k->items);
    k->n = 0;
    if (!k->items)
        return RD_ERR_NOMEM;
    for (size_t wi = 0; wi < r->nworkloads; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        for (size_t i = 0; i < w->nkeys; i++) {
            size_t at = 0;
            while (at < k->n && rd_label_key_cmp(k->items[at], w->keys[i]) < 0)
                at++;
            if (at < k->n && strcmp(k->items[at], w->keys[i]) == 0)
                continue;
            memmove(k->items + at + 1, k->items + at, (k->n - at) * sizeof *k->items);
            k->items[at] = w->keys[i];
            k->n++;
        }
    }
    return RD_OK;
}

/* workload, config (its display name), config_id, then every label key. */
static rd_status config_fields(struct rd_buf *b, const struct rd_rworkload *w,
                               const struct rd_rconfig *c, const struct keys *k)
{
    RD_TRY(field(b, true, w->name));
    RD_TRY(field(b, false, c->name));
    RD_TRY(field(b, false, c->id));
    for (size_t i = 0; i < k->n; i++)
        RD_TRY(field(b, false, rd_config_label(c, k->items[i])));
    return RD_OK;
}

/* The header row: the config's fields, then a file's own columns. */
static rd_status header(struct rd_buf *b, const struct keys *k, const char *const *cols,
                        size_t ncols)
{
    RD_TRY(field(b, true, "workload"));
    RD_TRY(field(b, false, "config"));
    RD_TRY(field(b, false, "config_id"));
    for (size_t i = 0; i < k->n; i++)
        RD_TRY(field(b, false, k->items[i]));
    for (size_t i = 0; i < ncols; i++)
        RD_TRY(field(b, false, cols[i]));
    return rd_buf_addch(b, '\n');
}

static rd_status summary_csv(const struct rd_report *r, const struct keys *k, struct rd_buf *b)
{
    static const char *cols[] = {
        "metric", "unit", "better", "primary", "n", "mean", "sd", "se", "ci_low", "ci_high",
        "median", "min", "max", "q1", "q3", "p90", "p95", "p99", "mad", "cv", "geomean",
        "failed_runs",
    };
    RD_TRY(header(b, k, cols, sizeof cols / sizeof cols[0]));
    for (size_t wi = 0; wi < r->nworkloads; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        for (size_t i = 0; i < w->nconfigs; i++) {
            const struct rd_rconfig *c = &w->configs[i];
            for (size_t m = 0; m < c->nmetrics; m++) {
                const struct rd_rstats *s = &c->metrics[m];
                struct rd_metric_def def;
                rd_metric_describe(s->metric, &def);
                bool primary = w->metric && strcmp(s->metric, w->metric) == 0;
                RD_TRY(config_fields(b, w, c, k));
                RD_TRY(field(b, false, s->metric));
                RD_TRY(field(b, false, def.unit));
                RD_TRY(field(b, false, rd_better_name(primary ? w->better : def.better)));
                RD_TRY(field(b, false, primary ? "true" : "false"));
                const double v[] = { s->n, s->mean, s->sd, s->se, s->ci_low, s->ci_high,
                                     s->median, s->min, s->max, s->q1, s->q3, s->p90, s->p95,
                                     s->p99, s->mad, s->cv, s->geomean, c->failed_runs };
                for (size_t x = 0; x < sizeof v / sizeof v[0]; x++)
                    RD_TRY(number(b, v[x]));
                RD_TRY(rd_buf_addch(b, '\n'));
            }
        }
    }
    return RD_OK;
}

static rd_status decision_rows(const struct rd_rworkload *w, const struct rd_rdecision *dc,
                               const char *metric, const struct keys *k, struct rd_buf *b)
{
    for (size_t i = 0; i < dc->nverdicts; i++) {
        const struct rd_rverdict *v = &dc->verdicts[i];
        /* A value's own verdicts (within[]) are found by id. */
        int ci = v->index >= 0 ? v->index : rd_workload_find(w, v->config);
        if (ci < 0)
            continue;
        RD_TRY(config_fields(b, w, &w->configs[ci], k));
        RD_TRY(field(b, false, metric));
        RD_TRY(field(b, false, rd_workload_config_name(w, dc->best)));
        RD_TRY(field(b, false, rd_verdict_word(v->verdict)));
        RD_TRY(number(b, v->ratio));
        RD_TRY(number(b, v->ratio_ci_low));
        RD_TRY(number(b, v->ratio_ci_high));
        RD_TRY(number(b, v->p_adj));
        RD_TRY(number(b, v->runs_needed));
        RD_TRY(field(b, false, v->exact ? "true" : "false"));
        RD_TRY(field(b, false, rd_decision_word(dc->decision)));
        RD_TRY(number(b, w->rec->margin));
        RD_TRY(number(b, dc->family));
        RD_TRY(number(b, dc->critical_value));
        RD_TRY(number(b, dc->df));
        RD_TRY(field(b, false, v->why));
        RD_TRY(number(b, v->elim_ci_low));
        RD_TRY(number(b, v->elim_ci_high));
        RD_TRY(rd_buf_addch(b, '\n'));
    }
    return RD_OK;
}

/* The rows of one recommendation: the primary metric's, then each other
 * key metric's. */
static rd_status decision_set(const struct rd_rworkload *w, const struct rd_rrecommendation *rec,
                              const struct keys *k, struct rd_buf *b)
{
    RD_TRY(decision_rows(w, &rec->primary, w->metric, k, b));
    for (size_t m = 0; m < rec->nkeys; m++) {
        const struct rd_rdecision *dc = &rec->keys[m];
        /* The first key metric is the primary one, already written. */
        if (dc->metric && w->metric && strcmp(dc->metric, w->metric) == 0)
            continue;
        RD_TRY(decision_rows(w, dc, dc->metric, k, b));
    }
    return RD_OK;
}

static rd_status comparisons_csv(const struct rd_report *r, const struct keys *k,
                                 struct rd_buf *b)
{
    static const char *cols[] = {
        "metric", "best", "verdict", "ratio", "ratio_ci_low", "ratio_ci_high", "p_adj",
        "runs_needed", "exact", "decision", "margin", "family", "critical_value", "df", "why",
        "eliminated_ci_low", "eliminated_ci_high",
    };
    RD_TRY(header(b, k, cols, sizeof cols / sizeof cols[0]));
    for (size_t wi = 0; wi < r->nworkloads; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        if (!w->rec || rd_workload_categorical(w))
            continue;
        /* Decided within a label: each config's row is its value's
         * decision (its best, family, critical value). */
        if (!w->rec->nwithin)
            RD_TRY(decision_set(w, w->rec, k, b));
        for (size_t p = 0; p < w->rec->nwithin; p++)
            RD_TRY(decision_set(w, w->rec->within[p].rec, k, b));
    }
    return RD_OK;
}

rd_status rd_render_csv(const struct rd_report *r, struct rd_stage *s, struct rd_diag *d)
{
    struct rd_buf b = RD_BUF_INIT;
    struct rd_arena a;
    rd_arena_init(&a);
    struct keys k;
    rd_status st = report_keys(r, &a, &k);
    if (st == RD_OK) st = runs_csv(r, &b);
    if (st == RD_OK) st = rd_stage_write(s, "runs.csv", b.ptr, b.len, d);
    rd_buf_reset(&b);
    if (st == RD_OK) st = summary_csv(r, &k, &b);
    if (st == RD_OK) st = rd_stage_write(s, "summary.csv", b.ptr, b.len, d);
    rd_buf_reset(&b);
    if (st == RD_OK) st = comparisons_csv(r, &k, &b);
    if (st == RD_OK) st = rd_stage_write(s, "comparisons.csv", b.ptr, b.len, d);
    rd_buf_release(&b);
    rd_arena_release(&a);
    return st;
}
