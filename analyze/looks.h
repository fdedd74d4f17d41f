/*
 * looks.h - a workload's looks at its data and the level its verdicts spend
 * (looks.c)
 */
#ifndef RUNDOWN_ANALYZE_LOOKS_H
#define RUNDOWN_ANALYZE_LOOKS_H

#include "wctx.h"

/** Fills x->looks from x->sess and the primary metric's prepared values
 *  (x->preps[0..k)), after rd_levels_apply. */
rd_status rd_looks_find(struct wctx *x);

/** The level of the workload's verdicts for a procedure at alpha: the
 *  last look's increment of the spending function when the runs carry a
 *  planned maximum (stats/settle.h, rd_settle_look_level), else alpha. */
double rd_looks_level(const struct wctx *x, double alpha);

#endif
