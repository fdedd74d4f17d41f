/*
 * collection.h - an adaptive suite's collection of a workload (collection.c): the
 * stopping rule replayed, the level its verdicts are stated at
 */
#ifndef RUNDOWN_ANALYZE_COLLECTION_H
#define RUNDOWN_ANALYZE_COLLECTION_H

#include "wctx.h"

struct jw;

/**
 * Writes "collection" for a workload an adaptive suite collected (its
 * records carry info.until): the stopping rule and, from the stopping
 * rule applied to the runs analysed (stats/settle.h), why collection
 * stopped. Nothing for other workloads.
 */
void rd_collection_write(const struct wctx *x, struct jw *w);

/** Whether the workload's collection raced (an adaptive suite's, with a
 *  primary metric that has a better direction). */
bool rd_collection_raced(const struct wctx *x);

/** The level the verdicts of tested metric ti are stated at, from the
 *  analysis's alpha: the level the workload's last look spends
 *  (rd_looks_level), and for a raced workload's primary metric the part
 *  of it the race leaves its contenders (rd_settle_final_alpha). */
double rd_collection_level(const struct wctx *x, double alpha, size_t ti);

/** The race replayed on the runs analysed: at[0..k) receives the round
 *  whose look eliminated each config, 0 for none (all 0 when the
 *  workload did not race). */
rd_status rd_collection_race(const struct wctx *x, long *at);

#endif
