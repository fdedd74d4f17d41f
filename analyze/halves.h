/*
 * halves.h - a workload's per-config work split between this thread and
 * one more (halves.c), when the pool leaves a thread spare
 */
#ifndef RUNDOWN_ANALYZE_HALVES_H
#define RUNDOWN_ANALYZE_HALVES_H

#include "wctx.h"

/** Works on the indices lo..hi-1 with x, which is this thread's own (its
 *  scratch); writes only what belongs to those indices. */
typedef rd_status rd_range_fn(struct wctx *x, void *ctx, size_t lo, size_t hi);

/**
 * Runs fn over 0..n-1: on this thread alone, or, when the pool leaves a
 * thread spare (x->a->config_helper) and n >= min_n, the upper half on a
 * second thread with a copy of x that has a scratch of its own. Returns
 * the error of the lower half first, as one pass in order would.
 */
rd_status rd_wctx_halves(struct wctx *x, size_t n, size_t min_n, rd_range_fn *fn, void *ctx);

#endif
