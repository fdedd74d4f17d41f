/*
 * pairs.h - the verdicts' comparisons within rounds (docs/methods.md §6,
 * "Paired within rounds"): a workload whose setting blocks is "round"
 * compares each config with the best by the log ratios of their runs of
 * one round (the same run number in the same session: a suite that
 * interleaves its configs takes them one after another, on the host of
 * that minute).
 */
#ifndef RUNDOWN_ANALYZE_PAIRS_H
#define RUNDOWN_ANALYZE_PAIRS_H

#include <stdbool.h>
#include <stdint.h>

#include "rounds.h"
#include "verdict.h"
#include "wctx.h"

struct rd_pairs {
    /* [config position]: its used values of the metric by round (key
     * session << 32 | run number), sorted, one per round */
    struct rd_round_value **by_cfg;
    size_t *n, k;
    struct rd_verdict_pairing pairing; /* reads this */
};

/** Whether workload w pairs its verdicts within rounds: its setting
 *  blocks is "round"; "none", "" or unset do not. */
bool rd_pairs_wanted(const struct wl *w);

/** Checks every workload's blocks setting: RD_ERR_USAGE naming the
 *  workload and the value unless it is round, none or empty. */
rd_status rd_pairs_check(const struct rd_analysis *a, struct rd_diag *d);

/** The rounds of tested metric ti of x's configs into p, with p->pairing
 *  ready for rd_verdict_settings.pairing. Values that are not positive
 *  have no log and pair with nothing. */
rd_status rd_pairs_build(const struct wctx *x, size_t ti, struct rd_pairs *p);

/** rd_pairs_build on each config's first 'runs' measured runs (in the
 *  order they arrived) only: the race's look after round 'runs' as the
 *  analysis replays it (collection.c). */
rd_status rd_pairs_build_before(const struct wctx *x, size_t ti, uint32_t runs,
                                struct rd_pairs *p);

/** The rounds of every measured value of metric m (rd_cfg_find_series)
 *  of workload wl's configs into p, each config at its place in wl->cfgs:
 *  the published claims' pairing (claims.c), which reads every value as
 *  the claims' unpaired numbers do. Rounds are keyed as the verdicts' are
 *  (session, run number), the sessions as the workload's analysis finds
 *  them (rd_pauses_find first, or each store is one session). */
rd_status rd_pairs_of_series(struct rd_analysis *a, const struct wl *wl, uint32_t m,
                             struct rd_pairs *p);

void rd_pairs_release(struct rd_pairs *p);

#endif
