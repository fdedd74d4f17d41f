/*
 * view_replication.h - the report's Replication section (view_replication.c)
 */
#ifndef RD_RENDER_VIEW_REPLICATION_H
#define RD_RENDER_VIEW_REPLICATION_H

#include "view.h"

/** Adds the Replication section (view_replication.c): the studies' claims
 *  judged here, their counts, the published figures; nothing without any. */
void rd_view_replication(struct vb *v, const struct rd_report *r, struct rd_tval *root);

#endif
