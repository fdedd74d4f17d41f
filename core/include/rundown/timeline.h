/*
 * timeline.h - a run record's place on its store's timeline: when it
 * started, how long the collector waited for a quiet machine before it,
 * and whether the analysis sets it aside as contended. The session rule
 * (stats/sessioncut.h) reads a store's collection through these; the
 * analysis (analyze/ingest.c) and the suite collector
 * (collect/suiterun.c) both call them, so the two cut a store into the
 * same sessions (docs/methods.md, "Sessions").
 */
#ifndef RUNDOWN_TIMELINE_H
#define RUNDOWN_TIMELINE_H

#include <stdbool.h>

#include "rundown/record.h"

/** started_at ("2026-11-30T11:34:20.537Z", an offset "+01:00" or none =
 *  UTC) in seconds since 1970; NaN when s is NULL or not such a time. */
double rd_timeline_seconds(const char *s);

/** The seconds r's collector waited for a quiet machine before it
 *  (info.contention_wait_s); 0 when none or not a sane number. */
double rd_timeline_wait_s(const struct rd_record *r);

/** Whether the analysis leaves measured run r out of its statistics as
 *  contended: a good run marked contended, unless include_contended. */
bool rd_timeline_left_out(const struct rd_record *r, bool include_contended);

#endif
