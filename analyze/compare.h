/*
 * compare.h - the omnibus and pairwise tests between a workload's configs
 * (compare.c), and a config against its --baseline
 */
#ifndef RUNDOWN_ANALYZE_COMPARE_H
#define RUNDOWN_ANALYZE_COMPARE_H

#include "wctx.h"

/** The omnibus and pairwise tests on tested metric ti into x->tests[ti]
 * (x->preps of that metric must be prepared). */
rd_status rd_compare_metric(struct wctx *x, size_t ti);
/** The pair of configs u and v (either order), or NULL when not tested. */
const struct pair *rd_compare_find_pair(const struct tests *t, size_t u, size_t v);
/** Welch's test (into w) and Fieller's CI of the ratio of means (into r) of
 * a against b, from their summaries; either output may be NULL. */
void rd_compare_two(const struct prep *a, const struct prep *b, double confidence,
                    struct rd_welch *w, struct rd_ratio *r);

/* A config against its --baseline config on the primary metric. */
struct baseline_cmp {
    size_t config;      /* position of the baseline config */
    struct rd_welch w;
    struct rd_ratio r;
};

/** Config i against its baseline: the config with the --baseline label whose
 * other labels equal i's, or the workload's only baseline config. False when
 * there is none, i is its own, or the workload has no primary metric. */
bool rd_compare_baseline(const struct wctx *x, size_t i, struct baseline_cmp *out);

#endif
