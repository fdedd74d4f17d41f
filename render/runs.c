/*
 * runs - the raw runs behind an analysis: the records of the stores it
 * lists under "inputs", streamed one at a time (a store may hold a million
 * runs; the workbook lists them, nothing else needs them).
 */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundown/array.h"
#include "rundown/store.h"

const char *rd_run_status_name(enum rd_run_status s)
{
    switch (s) {
    case RD_RUN_FAILED: return "failed";
    case RD_RUN_TIMEOUT: return "timeout";
    case RD_RUN_OK: break;
    }
    return "ok";
}

/* The store reader accepts only the three statuses of rundown.run/1. */
static enum rd_run_status run_status(const char *s)
{
    if (s && strcmp(s, "failed") == 0)
        return RD_RUN_FAILED;
    if (s && strcmp(s, "timeout") == 0)
        return RD_RUN_TIMEOUT;
    return RD_RUN_OK;
}

/* A store the Raw runs sheet can list: a regular file it may read. A
 * FIFO counts as missing (opening it to look would wait for a writer). */
static bool readable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* Where an input store is: as given, else next to the analysis file. */
static char *store_path(const struct rd_report *r, const char *p)
{
    if (readable(p))
        return strdup(p);
    const char *slash = r->path ? strrchr(r->path, '/') : NULL;
    if (!slash || p[0] == '/')
        return NULL;
    size_t n = (size_t)(slash - r->path) + 1 + strlen(p) + 1;
    char *joined = malloc(n);
    if (!joined)
        return NULL;
    snprintf(joined, n, "%.*s/%s", (int)(slash - r->path), r->path, p);
    if (!readable(joined)) {
        free(joined);
        return NULL;
    }
    return joined;
}

size_t rd_report_for_each_run(const struct rd_report *r,
                              void (*fn)(const struct rd_rrun *run, void *arg), void *arg)
{
    size_t stores = 0;
    for (size_t i = 0; i < r->ninputs; i++) {
        char *path = store_path(r, r->inputs[i]);
        if (!path)
            continue;
        struct rd_store_reader rd;
        struct rd_diag d;
        rd_diag_init(&d, path);
        if (rd_store_open(&rd, path, &d) == RD_OK) {
            stores++;
            struct rd_record rec;
            int got = 0;
            while (rd_store_next(&rd, &rec, &got, &d) == RD_OK && got) {
                struct rd_rrun run = { r->inputs[i], &rec, run_status(rec.status) };
                fn(&run, arg);
            }
            rd_store_close(&rd);
        }
        free(path);
    }
    return stores;
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
    c->stores = rd_report_for_each_run(r, scan_run, &sc);
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
