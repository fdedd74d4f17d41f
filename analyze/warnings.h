/*
 * warnings.h - what the reader must know about a workload's data (warnings.c)
 */
#ifndef RUNDOWN_ANALYZE_WARNINGS_H
#define RUNDOWN_ANALYZE_WARNINGS_H

#include "wctx.h"

struct jw;

/** Appends every warning about the workload to x->warns, the findings of
 * one kind merged into one warning that counts and names them. */
rd_status rd_warnings_collect(struct wctx *x, const struct reco *rc);
/** x->warns as the workload's "warnings" array member. */
void rd_warnings_write(const struct wctx *x, struct jw *w);

#endif
