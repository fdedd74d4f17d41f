/*
 * rounds.h - a config's values by round, and the within-round log ratios
 * of two configs (docs/methods.md §6, "Paired within rounds"). A suite
 * that interleaves its configs runs every config's r-th run in round r,
 * on the host of that minute: the analysis (analyze/pairs.c) and the
 * collector (collect/suiterun.c) pair two configs by the rounds both
 * have, through these.
 *
 * Pure numerics, no I/O.
 */
#ifndef RUNDOWN_STATS_ROUNDS_H
#define RUNDOWN_STATS_ROUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "moments.h"

/* One value of a config: its round's key (whatever tells rounds apart:
 * the analysis and the collector take session << 32 | run number, the
 * session by stats/sessioncut.h), the value's log, and
 * its place among the config's values (the first of a round wins). */
struct rd_round_value {
    uint64_t round;
    double log;
    uint32_t at;
};

/** Sorts v[0..n) by round and keeps the first of each round (lowest at).
 *  Returns the count kept. */
size_t rd_rounds_one_per_round(struct rd_round_value *v, size_t n);

/** The running moments of log a_r - log b_r over the rounds r both a and
 *  b have, each sorted and one per round (rd_rounds_one_per_round). */
struct rd_moments rd_rounds_log_ratios(const struct rd_round_value *a, size_t na,
                                       const struct rd_round_value *b, size_t nb);

/** What struct rd_verdict_pairing's paired() fills, from those log
 *  ratios: their count *n, their mean (NaN when none) and their sd (NaN
 *  below 2). */
void rd_rounds_compare(const struct rd_round_value *a, size_t na, const struct rd_round_value *b,
                       size_t nb, double *mean_log, double *sd_log, double *n);

#endif
