/*
 * chartplan.h - which charts the report has (chartplan.c): their kinds,
 * the configs each draws, and the caps on a chart. Not for use outside
 * render/.
 */
#ifndef RD_RENDER_CHARTPLAN_H
#define RD_RENDER_CHARTPLAN_H

#include <stddef.h>

#include "model.h"

enum rd_chart_kind {
    RD_CHART_MEANS,    /* mean and CI per config */
    RD_CHART_RUNS,     /* every run as a dot */
    RD_CHART_LATENCY,  /* latency percentile curves (HTTP) */
    RD_CHART_SCALING   /* mean against a numeric label */
};

/** The most configs one chart draws; a workload with more shows these
 *  many, chosen by mean, and the chart's title says so. */
#define RD_CHART_MAX_CONFIGS 50

struct rd_chart {
    size_t workload;
    enum rd_chart_kind kind;
    const char *key;    /* the numeric label of a scaling chart */
    char *stem;         /* file name without extension, sanitised, unique */
    char *title;        /* plain text; escape for the destination */
    size_t *configs;    /* the configs drawn (indexes into the workload's, in order) */
    size_t nconfigs;
    /* Set by rd_render_charts when gnuplot failed on this chart: why (owned,
     * freed with the plan); the report says so where the chart would be. */
    char *left_out;
};

struct rd_chart_plan {
    struct rd_chart *items;
    size_t n;
};

/** Dots per config in a runs chart. A million runs would make a 100 MiB
 *  SVG that no browser draws; 500 dots already show the whole spread. */
#define RD_RUNS_MAX_POINTS 500

/**
 * The percentile a latency metric holds: 99.9 for latency_p99_9_ms, 100
 * for latency_max_ms; NaN for any other name.
 */
double rd_latency_percentile(const char *metric);

/** Decides which charts the report has; same input, same plan. */
rd_status rd_chart_plan_make(const struct rd_report *r, struct rd_chart_plan *p);

/** Frees the plan's items; p is left empty. */
void rd_chart_plan_release(struct rd_chart_plan *p);

#endif
