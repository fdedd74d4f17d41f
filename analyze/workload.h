/*
 * workload.h - the per-workload driver (workload.c): configs, metrics, prepared
 * values, tests and recommendation of one workload into a struct wctx
 */
#ifndef RUNDOWN_ANALYZE_WORKLOAD_H
#define RUNDOWN_ANALYZE_WORKLOAD_H

#include "wctx.h"

/**
 * Analyses workload wl of a into x: configs, metrics, prepared values,
 * tests and recommendation. by_name lists every metric id of a ordered by
 * name. The caller then decides within labels (rd_within_decide) and
 * collects the warnings (rd_warnings_collect), which read both: write.c
 * does, so that workload.c calls neither back. Call rd_wctx_release(x)
 * afterwards, also on failure (RD_ERR_NOMEM).
 */
rd_status rd_wctx_analyse(struct wctx *x, struct rd_analysis *a, const uint32_t *by_name,
                          struct wl *wl);
void rd_wctx_release(struct wctx *x);

/** Applies the --set WORKLOAD.KEY=VALUE settings to the workloads read;
 *  RD_ERR_USAGE (naming the setting) for an unknown workload or key. */
rd_status rd_analysis_apply_settings(struct rd_analysis *a, struct rd_diag *d);

/** Fills p for series s of config c (NULL: c lacks the metric). 'full' adds the
 * median CI, the trend test and each value's run (tested metrics only).
 * Release p with rd_prep_release, also on failure. */
rd_status rd_prep_series(struct wctx *x, const struct cfg *c, const struct series *s,
                         bool full, struct prep *p);
void rd_prep_release(struct prep *p);

#endif
