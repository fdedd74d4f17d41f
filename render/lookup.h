/*
 * lookup.h - a config's label and statistics, a config by id, a pair in
 * either order (lookup.c): helpers on the model, apart from the drivers
 */
#ifndef RD_RENDER_LOOKUP_H
#define RD_RENDER_LOOKUP_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

/** "higher is better", "lower is better" or "no better direction". */
const char *rd_better_words(enum rd_better b);

/** Statistics that are all undefined (NaN), for a config without a metric. */
extern const struct rd_rstats rd_rstats_none;

/** The primary metric's statistics of c, or rd_rstats_none when it has none. */
static inline const struct rd_rstats *rd_primary(const struct rd_rconfig *c)
{
    return c->primary ? c->primary : &rd_rstats_none;
}

/** The value of label 'key' of a config, or NULL. */
const char *rd_config_label(const struct rd_rconfig *c, const char *key);

/** The key of the pair of configs i and j in w->pair_index: both indexes,
 *  the lower first, so that either order finds it (lookup.c). */
void rd_pair_key(int i, int j, uint32_t key[2]);

/** The statistics of 'metric' for a config, or NULL. */
const struct rd_rstats *rd_config_stats(const struct rd_rconfig *c, const char *metric);

/** The mean of 'metric' for a config; NaN when it has none. */
double rd_config_mean(const struct rd_rconfig *c, const char *metric);

/**
 * The memory figure a reader compares configs by, in MiB: the mean of
 * max_rss_kib (the process) or else server_rss_peak_kib (a server under
 * load); NaN when the config has neither.
 */
double rd_config_rss_mib(const struct rd_rconfig *c);

/**
 * What w->runner_up is to the reader: "runner-up" when the recommended
 * config has the best mean, "best" when the best is another config (the
 * recommended one was chosen among those tied with it). The margin columns
 * of every format compare that config with the recommended one.
 */
const char *rd_other_role(const struct rd_rworkload *w);

/** The index of the config with this id, or -1. */
int rd_workload_find(const struct rd_rworkload *w, const char *id);

/** The display name of the config with this id, else the id itself. */
const char *rd_workload_config_name(const struct rd_rworkload *w, const char *id);

/**
 * The pair test between configs a and b in either order, or NULL. *swapped
 * is set when the stored pair is (b, a): its diff and ratio then describe
 * b relative to a.
 */
const struct rd_rpair *rd_workload_pair(const struct rd_rworkload *w, const char *a,
                                        const char *b, bool *swapped);

#endif
