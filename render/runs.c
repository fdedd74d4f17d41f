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
