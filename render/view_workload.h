/*
 * view_workload.h - one workload's section of the report (view_workload.c),
 * its pairwise tests for the appendix, and the 'more rows' sentence
 */
#ifndef RD_RENDER_VIEW_WORKLOAD_H
#define RD_RENDER_VIEW_WORKLOAD_H

#include <stddef.h>

#include "chartplan.h"
#include "view.h"

/** Adds one workload's section (view_workload.c) to the list wls. */
void rd_view_workload(struct vb *v, const struct rd_chart_plan *p, size_t wi,
                      struct rd_tval *wls);

/** Adds the pairwise tests of workload wi to the appendix list. */
void rd_view_pairs(struct vb *v, size_t wi, struct rd_tval *list);

/** Adds under 'key' the sentence saying that 'shown' of 'all' rows (named
 *  'what', picked by 'rule' when not NULL) are listed and the workbook
 *  lists every one; nothing when all are shown. */
void rd_view_more(struct vb *v, struct rd_tval *parent, const char *key, size_t shown,
                  size_t all, const char *what, const char *rule);

#endif
