/*
 * directions.h - the better direction of a metric (directions.c): the runs'
 * info.metric_better, noted as ingest reads them, else the registry's
 */
#ifndef RUNDOWN_ANALYZE_DIRECTIONS_H
#define RUNDOWN_ANALYZE_DIRECTIONS_H

#include <stdint.h>

#include "analysis_int.h"
#include "rundown/metrics.h"

struct wctx;

/** Merges a run's info.metric_better ("NAME=lower,NAME=higher") into w. */
rd_status rd_directions_note(struct rd_analysis *a, struct wl *w, const char *text);
/** Merges the directions of b's workload bw into a's w. */
rd_status rd_directions_merge(struct rd_analysis *a, struct wl *w, const struct wl *bw);

/** The better direction of metric m in x's workload: its runs'
 *  info.metric_better unless they disagree, else the registry's or the
 *  name's suffix's. */
enum rd_better rd_wctx_metric_better(const struct wctx *x, uint32_t m);
/** What the runs' info.metric_better says of metric m, or NULL. */
const struct metric_dir *rd_wctx_metric_dir(const struct wctx *x, uint32_t m);
/** The same for workload w outside a workload's analysis (claims.c). */
enum rd_better rd_wl_metric_better(const struct rd_analysis *a, const struct wl *w, uint32_t m);
const struct metric_dir *rd_wl_metric_dir(const struct rd_analysis *a, const struct wl *w,
                                          uint32_t m);

#endif
