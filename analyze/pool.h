/*
 * pool.h - workloads analysed and written in parallel, in name order (pool.c):
 * generic over the per-workload writer, so it calls no file that calls it
 */
#ifndef RUNDOWN_ANALYZE_POOL_H
#define RUNDOWN_ANALYZE_POOL_H

#include <stdint.h>

#include "analysis_int.h"

struct jw;

/** Analyses workload wl and writes it as one member of an array to w
 *  (write.c's workload_write); called from several threads at once. */
typedef rd_status rd_workload_writer(struct rd_analysis *a, const uint32_t *by_name,
                                     struct wl *wl, struct jw *w);

/**
 * Writes every workload with write_one, in name order, into the open array
 * of w; with a sink, w's buffer is handed to it as it grows (see
 * rd_analysis_write_to). Generic over the writer, so the pool calls no
 * file that calls it.
 */
rd_status rd_workloads_write(struct rd_analysis *a, struct jw *w, rd_workload_writer *write_one,
                             const struct rd_analysis_sink *sink, struct rd_diag *d);

#endif
