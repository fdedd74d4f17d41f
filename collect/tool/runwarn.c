/*
 * runwarn - the warnings after `rundown-collect run` (runwarn.h).
 */
#include "runwarn.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runsummary.h"
#include "rundown/array.h"
#include "rundown/buf.h"
#include "rundown/cli.h"

/* hyperfine's threshold on the modified z-score (Iglewicz and Hoaglin). */
#define OUTLIER_Z 3.5
/* Below this a run's time is mostly the cost of starting a process. */
#define SHORT_MS 5.0

void rd_run_watch_init(struct rd_run_watch *w, const char *name)
{
    memset(w, 0, sizeof *w);
    w->name = name;
    w->exit_code = -1;
}

rd_status rd_run_watch_add(struct rd_run_watch *w, const struct rd_record *r)
{
    double wall;
    if (strcmp(r->phase, "warmup") == 0)
        w->warmups_seen++;
    if (strcmp(r->phase, "measure") != 0)
        return RD_OK;
    if (strcmp(r->status, "ok") != 0) {
        w->failed++;
        if (r->has_exit_code)
            w->exit_code = r->exit_code;
        return RD_OK;
    }
    if (!rd_record_metric(r, w->metric ? w->metric : "wall_ms", &wall))
        return RD_OK;
    if (RD_ARRAY_GROW(w->walls, w->cap, w->n + 1))
        return RD_ERR_NOMEM;
    w->walls[w->n++] = wall;
    return RD_OK;
}

void rd_run_watch_release(struct rd_run_watch *w)
{
    free(w->walls);
    w->walls = NULL;
    w->n = w->cap = 0;
}

double rd_run_modified_z(const double *sorted, size_t n, double x)
{
    double median = gsl_stats_median_from_sorted_data(sorted, 1, n);
    double *dev = malloc(n * sizeof *dev);
    if (!dev)
        return 0;
    for (size_t i = 0; i < n; i++)
        dev[i] = fabs(sorted[i] - median);
    gsl_sort(dev, 1, n);
    double mad = gsl_stats_median_from_sorted_data(dev, 1, n);
    free(dev);
    return mad > 0 ? 0.6745 * (x - median) / mad : 0;
}

/* "123.4 ms", or "5123 req/s" when the watch is of rps. */
static void format_value(const struct rd_run_watch *w, double v, char *out, size_t size)
{
    if (w->metric && strcmp(w->metric, "rps") == 0)
        snprintf(out, size, "%.0f req/s", v);
    else if (w->metric && strcmp(w->metric, "wall_ms") != 0)
        snprintf(out, size, "%s %.4g", w->metric, v);
    else
        rd_format_ms(v, out, size);
}

int rd_run_watch_warn(const struct rd_run_watch *w, const struct rd_run_warn_ctx *c)
{
    int said = 0;
    bool time = !w->metric || strcmp(w->metric, "wall_ms") == 0;
    const char *warmup = c->warmup_hint ? c->warmup_hint : "-w/--warmup";
    if (w->failed && !c->no_failures) {
        rd_warn("%s: %ld measured run%s failed (last exit code %d); if a non-zero exit is "
                "expected, consider -i/--ignore-failure", w->name, w->failed,
                w->failed == 1 ? "" : "s", w->exit_code);
        said++;
    }
    if (w->n < 3)
        return said;
    double *sorted = malloc(w->n * sizeof *sorted);
    if (!sorted)
        return said;
    memcpy(sorted, w->walls, w->n * sizeof *sorted);
    gsl_sort(sorted, 1, w->n);
    size_t outliers = 0;
    for (size_t i = 0; i < w->n; i++)
        outliers += fabs(rd_run_modified_z(sorted, w->n, w->walls[i])) > OUTLIER_Z;
    /* slower: a larger time, fewer requests per second */
    double z_first = rd_run_modified_z(sorted, w->n, w->walls[0]);
    long warmups = c->warmups >= 0 ? c->warmups : w->warmups_seen;
    bool larger_better = w->higher || (w->metric && strcmp(w->metric, "rps") == 0);
    bool slow_first = warmups == 0 && (larger_better ? -z_first : z_first) > OUTLIER_Z;
    double mean = gsl_stats_mean(w->walls, 1, w->n);
    free(sorted);
    if (slow_first) {
        char first[32];
        format_value(w, w->walls[0], first, sizeof first);
        rd_warn("%s: the first run was much slower than the rest (%s), maybe caches were "
                "cold; consider %s", w->name, first, warmup);
        said++;
    } else if (outliers) {
        rd_warn("%s: statistical outliers in %zu of %zu runs; consider a quieter machine "
                "(other programs, load) or more warmup runs (%s)", w->name, outliers, w->n,
                warmup);
        said++;
    }
    if (time && mean < SHORT_MS) {
        rd_warn("%s: it ran for less than 5 ms on average, so the times are mostly process "
                "start-up and not precise%s", w->name,
                c->shell ? "; consider -N to run it without a shell" : "");
        said++;
    }
    return said;
}

rd_status rd_run_watchset_add(struct rd_run_watchset *s, size_t index,
                              const struct rd_record *r, const char *metric, bool higher)
{
    if (index >= s->n) {
        size_t cap = s->n;
        struct rd_run_watch *w = realloc(s->w, (index + 1) * sizeof *w);
        if (!w)
            return RD_ERR_NOMEM;
        s->w = w;
        char **names = realloc(s->names, (index + 1) * sizeof *names);
        if (!names)
            return RD_ERR_NOMEM;
        s->names = names;
        for (size_t i = cap; i <= index; i++) {
            rd_run_watch_init(&s->w[i], NULL);
            s->names[i] = NULL;
        }
        s->n = index + 1;
    }
    struct rd_run_watch *w = &s->w[index];
    if (!s->names[index]) {
        struct rd_buf id = RD_BUF_INIT;
        rd_status st = rd_record_config_id(r, &id);
        size_t len = strlen(r->workload) + 2 + id.len;
        if (!st && !(s->names[index] = malloc(len)))
            st = RD_ERR_NOMEM;
        if (!st)
            snprintf(s->names[index], len, "%s%s%s", r->workload, id.len ? " " : "",
                     id.len ? id.ptr : "");
        rd_buf_release(&id);
        RD_TRY(st);
        w->name = s->names[index];
    }
    double v;
    if (!w->metric && metric) {
        w->metric = metric;
        w->higher = higher;
    }
    if (!w->metric && strcmp(r->phase, "measure") == 0 && strcmp(r->status, "ok") == 0)
        w->metric = rd_record_metric(r, "rps", &v) ? "rps" : "wall_ms";
    return rd_run_watch_add(w, r);
}

int rd_run_watchset_warn(const struct rd_run_watchset *s, const struct rd_run_warn_ctx *c)
{
    int said = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->names[i])
            said += rd_run_watch_warn(&s->w[i], c);
    return said;
}

void rd_run_watchset_release(struct rd_run_watchset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        rd_run_watch_release(&s->w[i]);
        free(s->names[i]);
    }
    free(s->w);
    free(s->names);
    memset(s, 0, sizeof *s);
}
