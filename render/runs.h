/*
 * runs.h - the raw runs the analysis embeds, as tables list them (runs.c):
 * their status words and columns
 */
#ifndef RD_RENDER_RUNS_H
#define RD_RENDER_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/** "ok", "failed" or "timeout". */
const char *rd_run_status_name(enum rd_run_status s);

/** The columns of a table of raw runs: every label key and every metric
 *  name of the runs, each once, in first-seen order. */
struct rd_run_columns {
    char **labels, **metrics;
    size_t nlabels, nmetrics, caplabels, capmetrics;
    size_t runs;     /* how many runs the analysis embeds */
    bool oom;
};

/** Scans every run once for the columns (at most 'max' of each kind).
 *  Release with rd_run_columns_release. */
void rd_run_columns_scan(const struct rd_report *r, size_t max, struct rd_run_columns *c);

/** The column of label 'key' (or metric 'name'), or -1. */
int rd_run_columns_label(const struct rd_run_columns *c, const char *key);
int rd_run_columns_metric(const struct rd_run_columns *c, const char *name);

void rd_run_columns_release(struct rd_run_columns *c);

#endif
