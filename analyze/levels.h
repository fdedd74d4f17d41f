/*
 * levels.h - sessions as a second level of variance (levels.c): two-level
 * standard errors, the verdicts' samples, the advice on what would settle
 */
#ifndef RUNDOWN_ANALYZE_LEVELS_H
#define RUNDOWN_ANALYZE_LEVELS_H

#include "wctx.h"

/**
 * Finds the sessions of x's runs into x->sess and, for every tested
 * metric of every config whose used values come from 2 sessions or more,
 * replaces the mean's standard error and interval by the two-level ones
 * (nested.h; docs/methods.md §6a), setting prep.sessions, between_share
 * and mean_df. Configs of one session keep their numbers bit for bit.
 */
rd_status rd_levels_apply(struct wctx *x);

/** Config p's sample for the verdicts: n, mean and an sd with sd^2 / n
 *  the variance of the mean, at its df (two-level when p->mean_df > 0). */
struct rd_verdict_sample rd_levels_sample(const struct prep *p, bool eligible);

/* Above this share of the variance between sessions, the advice is more
 * sessions, not more runs. */
#define RD_LEVELS_DOMINANT 0.5

/** The largest share of the variance between sessions among the configs
 *  of kv's open comparisons and the best (row SIZE_MAX: every open row;
 *  else config row's alone); NaN when none has two levels. */
double rd_levels_open_share(const struct wctx *x, const struct key_verdicts *kv, size_t row);

/**
 * What would settle the open comparisons of key metric kv (row SIZE_MAX:
 * the workload's; else config row's alone) into out: "more sessions ..."
 * when more than RD_LEVELS_DOMINANT of the variance of an open comparison's config or of
 * the best lies between sessions, else "about RUNS runs per config ..."
 * when runs > 0, else "".
 */
void rd_levels_advice(const struct wctx *x, const struct key_verdicts *kv, size_t row,
                      long runs, char *out, size_t size);

/** The session of each used value (without excluded outliers) of prep p
 *  of config i into out[0..p->n_used). */
void rd_levels_sessions_of(const struct wctx *x, size_t i, const struct prep *p,
                           uint32_t *out);

#endif
