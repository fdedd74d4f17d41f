/*
 * recommend.h - the verdicts on a workload's key metrics and the recommended config
 * (recommend.c)
 */
#ifndef RUNDOWN_ANALYZE_RECOMMEND_H
#define RUNDOWN_ANALYZE_RECOMMEND_H

#include "wctx.h"

/** The verdicts on every key metric and the recommendation into rc
 *  (x->tests of the key metrics must be done). Release with
 *  rd_reco_release. */
rd_status rd_recommend(struct wctx *x, struct reco *rc);
void rd_reco_release(struct reco *rc, size_t k);
/** The relative equivalence margin of workload w: its info.margin when that
 *  is a number >= 0, else --margin. */
double rd_workload_margin(const struct rd_analysis *a, const struct wl *w);

#endif
