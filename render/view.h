/*
 * view.h - what the view files share while they build the tree
 * report.md.tmpl renders: view.c (the report's top level), view_workload.c
 * (one workload's section), view_replication.c, view_machines.c and their
 * leaf viewtext.c, each of which declares its functions in its own header.
 * Not for use outside them.
 *
 * The view is built in one go: the tree remembers any allocation that
 * failed (tdata.h), and 'oom' collects the formatting failures; both are
 * checked once at the end. The short helpers below (obj, arr, str, take,
 * flag, chk) are static to each file that includes this.
 */
#ifndef RD_RENDER_VIEW_H
#define RD_RENDER_VIEW_H

#include "backends.h"
#include "rundown/strmap.h"

struct vb {
    struct rd_tdata *t;
    bool oom;
    struct rd_buf b;
    const struct rd_report *r;
    struct rd_tval *glossary;   /* the Method section's list of metrics */
    struct rd_strmap named;     /* metrics already in it */
};

static inline struct rd_tval *obj(struct vb *v, struct rd_tval *parent, const char *key)
{
    return rd_tdata_object(v->t, parent, key);
}

static inline struct rd_tval *arr(struct vb *v, struct rd_tval *parent, const char *key)
{
    return rd_tdata_list(v->t, parent, key);
}

/* Adds a string (NULL adds null, which the template prints as a dash). */
static inline void str(struct vb *v, struct rd_tval *parent, const char *key, const char *s)
{
    rd_tdata_string(v->t, parent, key, s);
}

/* Adds the text accumulated in v->b and empties it. */
static inline void take(struct vb *v, struct rd_tval *parent, const char *key)
{
    str(v, parent, key, v->b.ptr ? v->b.ptr : "");
    rd_buf_reset(&v->b);
}

/* Adds the text in v->b, or null when there is none. */
static inline void take_or_null(struct vb *v, struct rd_tval *parent, const char *key)
{
    if (v->b.len)
        take(v, parent, key);
    else
        str(v, parent, key, NULL);
}

static inline void flag(struct vb *v, struct rd_tval *parent, const char *key, bool on)
{
    rd_tdata_bool(v->t, parent, key, on);
}

static inline void chk(struct vb *v, rd_status st)
{
    if (st != RD_OK)
        v->oom = true;
}

#endif
