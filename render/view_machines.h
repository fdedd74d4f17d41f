/*
 * view_machines.h - the report's Across machines section (view_machines.c)
 */
#ifndef RD_RENDER_VIEW_MACHINES_H
#define RD_RENDER_VIEW_MACHINES_H

#include "view.h"

/** Adds the Across machines section (view_machines.c): every config
 *  against the reference on each machine and across them; nothing with
 *  one machine. */
void rd_view_machines(struct vb *v, const struct rd_report *r, struct rd_tval *root);

#endif
