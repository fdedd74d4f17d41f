/*
 * view.h - what view.c (the report's top level) and view_workload.c (one
 * workload's section) share while they build the tree report.md.tmpl
 * renders. Not for use outside those two files.
 *
 * The view is built in one go: the tree remembers any allocation that
 * failed (tdata.h), and 'oom' collects the formatting failures; both are
 * checked once at the end. The short helpers below (obj, arr, str, take,
 * flag, chk) are static to each of the two files that include this.
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

/* ---- viewtext.c: the leaf every view calls ---- */

/**
 * Appends a metric as the report names it in Markdown: its registry label
 * as a link to the Method section's list of metrics, the key as the link's
 * title (a tooltip in the HTML), escaped for Markdown; and adds the metric
 * to that list. For {{&...}}: the text is already Markdown.
 */
void rd_view_metric(struct vb *v, const char *metric, bool inline_text);

/** Appends Markdown-escaped text (for composing {{&...}} values). */
void rd_view_text(struct vb *v, const char *s);

/** Adds one workload's section (view_workload.c) to the list wls. */
void rd_view_workload(struct vb *v, const struct rd_chart_plan *p, size_t wi,
                      struct rd_tval *wls);

/** Adds the pairwise tests of workload wi to the appendix list. */
void rd_view_pairs(struct vb *v, size_t wi, struct rd_tval *list);

/** Adds the Replication section (view_replication.c): the studies' claims
 *  judged here, their counts, the published figures; nothing without any. */
void rd_view_replication(struct vb *v, const struct rd_report *r, struct rd_tval *root);

/** Adds the Across machines section (view_machines.c): every config
 *  against the reference on each machine and across them; nothing with
 *  one machine. */
void rd_view_machines(struct vb *v, const struct rd_report *r, struct rd_tval *root);

/** Adds under 'key' the sentence saying that 'shown' of 'all' rows (named
 *  'what', picked by 'rule' when not NULL) are listed and the workbook
 *  lists every one; nothing when all are shown. */
void rd_view_more(struct vb *v, struct rd_tval *parent, const char *key, size_t shown,
                  size_t all, const char *what, const char *rule);

#endif
