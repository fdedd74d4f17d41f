/*
 * viewtext - the Markdown pieces every view composes: escaped text and a
 * metric named as a link to the Method section (which also lists it
 * there). A leaf of the views: view.c, view_workload.c, view_machines.c
 * and view_replication.c call it, it calls none of them, so the views'
 * calls go one way (view.c drives the others).
 */
#include "view.h"

#include "escape.h"
#include "viewtext.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"

void rd_view_text(struct vb *v, const char *s)
{
    chk(v, rd_escape_md(&v->b, s ? s : "", false));
}

/* A link title: every ASCII punctuation backslash-escaped (CommonMark
 * allows it for all of them; '"' would end the title, '|' the cell). */
static void link_title(struct vb *v, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20)
            chk(v, rd_buf_addch(&v->b, ' '));
        else if ((*p >= '!' && *p <= '/') || (*p >= ':' && *p <= '@') ||
                 (*p >= '[' && *p <= '`') || (*p >= '{' && *p <= '~'))
            chk(v, rd_buf_addf(&v->b, "\\%c", *p));
        else
            chk(v, rd_buf_addch(&v->b, (char)*p));
    }
}

void rd_view_metric(struct vb *v, const char *metric, bool inline_text)
{
    if (!metric) {
        chk(v, rd_buf_addstr(&v->b, RD_UNDEF));
        return;
    }
    struct rd_buf label = RD_BUF_INIT;
    chk(v, rd_fmt_metric(&label, metric, inline_text));
    chk(v, rd_buf_addch(&v->b, '['));
    rd_view_text(v, label.ptr);
    rd_buf_release(&label);
    chk(v, rd_buf_addf(&v->b, "](#%s \"", v->r->slug_method ? v->r->slug_method : "methods"));
    link_title(v, metric);
    chk(v, rd_buf_addstr(&v->b, "\")"));
    /* The Methods section lists every metric the report names, once. */
    int added = 0;
    chk(v, rd_strmap_put(&v->named, metric, 0, &added));
    if (!added || !v->glossary)
        return;
    struct rd_metric_def def;
    rd_metric_describe(metric, &def);
    struct rd_tval *row = obj(v, v->glossary, NULL);
    struct rd_buf t = RD_BUF_INIT;
    chk(v, rd_fmt_metric(&t, metric, false));
    str(v, row, "label", t.ptr);
    rd_buf_release(&t);
    str(v, row, "key", metric);
    double scale;
    str(v, row, "unit", rd_unit_shown(def.unit, &scale));
    str(v, row, "better", rd_better_name(def.better));
}
