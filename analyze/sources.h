/*
 * sources.h - runs counted once, by their source digest (sources.c)
 */
#ifndef RUNDOWN_ANALYZE_SOURCES_H
#define RUNDOWN_ANALYZE_SOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis_int.h"
#include "rundown/record.h"

/**
 * Is r (read at line of store 'input') a later copy of a run already
 * read, by its source.digest? Then *dup is set and the copy is noted with
 * the config of the run that is counted. Records without a digest are
 * never copies.
 */
rd_status rd_sources_check(struct rd_analysis *a, const struct rd_record *r, uint32_t input,
                           unsigned line, bool *dup);
/** Notes r's digest (if it has one) as counted in config cfg. */
rd_status rd_sources_keep(struct rd_analysis *a, const struct rd_record *r, uint32_t cfg,
                          uint32_t input, unsigned line);
/** Does the partial analysis b hold a digest a holds? */
bool rd_sources_overlap(const struct rd_analysis *a, const struct rd_analysis *b);
/** Moves b's digests and copies into a: cfg_of[i] is a's config of b's
 *  config i, and b's lines follow line0 of the store. */
rd_status rd_sources_merge(struct rd_analysis *a, const struct rd_analysis *b,
                           const uint32_t *cfg_of, unsigned line0);

#endif
