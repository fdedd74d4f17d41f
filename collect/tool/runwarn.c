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
    if (strcmp(r->phase, "measure") != 0)
        return RD_OK;
    if (strcmp(r->status, "ok") != 0) {
        w->failed++;
        if (r->has_exit_code)
            w->exit_code = r->exit_code;
        return RD_OK;
    }
    if (!rd_record_metric(r, "wall_ms", &wall))
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

int rd_run_watch_warn(const struct rd_run_watch *w, const struct rd_run_warn_ctx *c)
{
    int said = 0;
    if (w->failed) {
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
    bool slow_first = c->warmups == 0 && rd_run_modified_z(sorted, w->n, w->walls[0]) > OUTLIER_Z;
    double mean = gsl_stats_mean(w->walls, 1, w->n);
    free(sorted);
    if (slow_first) {
        char first[32];
        rd_format_ms(w->walls[0], first, sizeof first);
        rd_warn("%s: the first run was much slower than the rest (%s), maybe caches were "
                "cold; consider -w/--warmup", w->name, first);
        said++;
    } else if (outliers) {
        rd_warn("%s: statistical outliers in %zu of %zu runs; consider a quieter machine "
                "(other programs, load) or more warmup runs (-w)", w->name, outliers, w->n);
        said++;
    }
    if (mean < SHORT_MS) {
        rd_warn("%s: it ran for less than 5 ms on average, so the times are mostly process "
                "start-up and not precise%s", w->name,
                c->shell ? "; consider -N to run it without a shell" : "");
        said++;
    }
    return said;
}
