/*
 * derive.h - what the back ends share, from the model alone (derive.c):
 * names, best / recommended / runner-up, slugs, the configs a capped
 * table or chart shows
 */
#ifndef RD_RENDER_DERIVE_H
#define RD_RENDER_DERIVE_H

#include "model.h"

/**
 * Fills the derived fields of a report model.c has read (names, keys,
 * best / recommended / runner-up, slugs, file stems, runtimes, the total of
 * runs). RD_ERR_NOMEM is the only failure.
 */
rd_status rd_report_derive(struct rd_report *r);

/**
 * Appends the configs statistically tied with the recommended one, by
 * display name and comma-separated: the analysis's "tied" list plus the
 * best config when it is not the recommended one. Appends nothing when
 * there are none.
 */
rd_status rd_tied_text(const struct rd_rworkload *w, struct rd_buf *out);

/** The colour ("#rrggbb") for a runtime index; grey for -1. */
const char *rd_runtime_colour(const struct rd_report *r, int runtime);

/** True when every config of w has a numeric value for label 'key' and
 *  there are at least two distinct values (a scaling chart makes sense). */
bool rd_label_numeric(const struct rd_rworkload *w, const char *key);

/**
 * The configs a chart or table of w shows when it shows at most 'max':
 * every config while there are no more than that, else the recommended
 * one, the best one, then the best means (the lowest without a direction;
 * undefined means last), in the analysis's order. *idx (malloc'd, the
 * caller frees) receives their indexes, *n their number.
 */
rd_status rd_workload_select(const struct rd_rworkload *w, size_t max, size_t **idx,
                             size_t *n);

/** How rd_workload_select picked, for a caption: "the best by mean". */
const char *rd_selection_rule(const struct rd_rworkload *w);

#endif
