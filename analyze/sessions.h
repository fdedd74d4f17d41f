/*
 * sessions.h - the collection sessions of a workload's runs (sessions.c)
 */
#ifndef RUNDOWN_ANALYZE_SESSIONS_H
#define RUNDOWN_ANALYZE_SESSIONS_H

#include "wctx.h"

/** Finds the pauses of every input store's collection as a whole into
 *  a->pauses, from the measured runs of all its workloads. Called once,
 *  before any workload is analysed: rd_sessions_find reads them. */
rd_status rd_pauses_find(struct rd_analysis *a);

/** Finds the sessions of x's runs (docs/methods.md, "Sessions"). Release
 * with rd_sessions_release(s, x->k), also on failure (RD_ERR_NOMEM). */
rd_status rd_sessions_find(const struct wctx *x, struct sessions *out);
void rd_sessions_release(struct sessions *s, size_t k);

#endif
