/*
 * sessioncut.h - the session rule (docs/methods.md, "Sessions"): where a
 * store's collection paused, and which session each run of a workload
 * is in. A session is one store's stretch of collection without a long
 * pause: runs from different stores are different sessions, and within a
 * store runs are cut only where the collection as a whole took no
 * measured run for longer than both SESSION_GAP_FACTOR times the
 * median gap and SESSION_GAP_MIN seconds. The collector's waits for a
 * quiet machine and the runs it set aside fill the timeline as kept runs
 * do (busy spans).
 *
 * The analysis (analyze/sessions.c) cuts its sessions with it, and the
 * suite collector (collect/suiterun.c) keys the rounds of a store's runs
 * by it, so the collector's paired decisions rest on the pairs the
 * verdicts will read. A record's start, wait and whether it is set aside
 * come from rundown/timeline.h.
 *
 * Numerics on given times, no I/O, no records.
 */
#ifndef RUNDOWN_STATS_SESSIONCUT_H
#define RUNDOWN_STATS_SESSIONCUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rundown/status.h"

/* A moment of a store's collection: a kept run's start (from = t), or a
 * stretch the collector was at work that no kept run shows (busy: a wait
 * for a quiet machine from 'from' to the run's start t, or a run set
 * aside, from its wait if any to its start). */
struct rd_span {
    double from, t;
    uint32_t input; /* the store */
    bool busy;
};

/* A stretch in which one store's collection took no measured run of any
 * workload for longer than a session break allows. */
struct rd_pause {
    uint32_t input;
    double from, to; /* the started_at of the runs either side */
};

/* A run to place in a session: its start (NaN: none), its store, and a
 * tag of the caller's (say, which run it is); session is the answer. */
struct rd_stamp {
    double t;
    uint64_t tag;
    uint32_t input, session;
};

/** Finds the pauses of the collection sp[0..n) (every measured run of
 *  every workload of the stores, and their busy spans; spans need a
 *  time), appending them to *pauses (*np of them, capacity *cap: grown
 *  with RD_ARRAY_GROW), sorted by store then time. Sorts sp and may fold
 *  its waits into the runs they came before (sp's contents are scratch
 *  afterwards). RD_ERR_NOMEM leaves *np pauses found so far. */
rd_status rd_sessioncut_pauses(struct rd_span *sp, size_t n, struct rd_pause **pauses,
                               size_t *np, size_t *cap);

/** Sets the session of each of st[0..n) (some runs of the stores of
 *  p[0..np), which rd_sessioncut_pauses found from all of them): sorts
 *  st by store, then time (runs without a time first), then tag; a store
 *  starts a session, and so does each of its pauses that lies between
 *  two of st's runs with a time; a run without a time is in its store's
 *  first session. Returns the number of sessions (numbered from 0). */
uint32_t rd_sessioncut_sessions(struct rd_stamp *st, size_t n, const struct rd_pause *p,
                                size_t np);

#endif
