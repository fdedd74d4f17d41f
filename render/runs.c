/*
 * runs - the raw runs behind an analysis: the records analyze embedded
 * under "raw_runs" (up to its cap; the stores themselves are never read,
 * so a report renders the same from any folder), one at a time.
 */
#include "model.h"
#include "runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rundown/array.h"
#include "rundown/record.h"

const char *rd_run_status_name(enum rd_run_status s)
{
    switch (s) {
    case RD_RUN_FAILED: return "failed";
    case RD_RUN_TIMEOUT: return "timeout";
    case RD_RUN_OK: break;
    }
    return "ok";
}

/* ---- the columns of a raw runs table ---- */

struct scan {
    struct rd_run_columns *c;
    size_t max;
};

static int find(char *const *items, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(items[i], s) == 0)
            return (int)i;
    return -1;
}

static void add(struct rd_run_columns *c, char ***items, size_t *n, size_t *cap, size_t max,
                const char *s)
{
    if (find(*items, *n, s) >= 0 || *n >= max)
        return;
    char *copy = strdup(s);
    if (!copy || RD_ARRAY_GROW(*items, *cap, *n + 1) != RD_OK) {
        free(copy);
        c->oom = true;
        return;
    }
    (*items)[(*n)++] = copy;
}

static void scan_run(const struct rd_rrun *run, void *arg)
{
    struct scan *sc = arg;
    struct rd_run_columns *c = sc->c;
    for (size_t i = 0; i < run->rec->config.len; i++)
        add(c, &c->labels, &c->nlabels, &c->caplabels, sc->max, run->rec->config.items[i].key);
    for (size_t i = 0; i < run->rec->nmetrics; i++)
        add(c, &c->metrics, &c->nmetrics, &c->capmetrics, sc->max, run->rec->metrics[i].name);
}

void rd_run_columns_scan(const struct rd_report *r, size_t max, struct rd_run_columns *c)
{
    memset(c, 0, sizeof *c);
    struct scan sc = { c, max };
    c->runs = rd_report_for_each_run(r, scan_run, &sc);
}

int rd_run_columns_label(const struct rd_run_columns *c, const char *key)
{
    return find(c->labels, c->nlabels, key);
}

int rd_run_columns_metric(const struct rd_run_columns *c, const char *name)
{
    return find(c->metrics, c->nmetrics, name);
}

void rd_run_columns_release(struct rd_run_columns *c)
{
    for (size_t i = 0; i < c->nlabels; i++)
        free(c->labels[i]);
    for (size_t i = 0; i < c->nmetrics; i++)
        free(c->metrics[i]);
    free(c->labels);
    free(c->metrics);
    memset(c, 0, sizeof *c);
}
