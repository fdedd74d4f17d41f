/*
 * markdown - report.md: the view tree (view.c) through report.md.tmpl.
 *
 * The Markdown is also the source of the HTML report, so anything that
 * should appear in both belongs in the template, not in html.c.
 */
#include "backends.h"

#include "template.h"

rd_status rd_render_markdown(const struct rd_report *r, const struct rd_chart_plan *p,
                             const char *tdir, struct rd_buf *out, struct rd_diag *d)
{
    struct rd_template *t = NULL;
    struct rd_tdata view = { .root = NULL };
    rd_status st = rd_template_load(tdir, "report.md.tmpl", RD_ESC_MD, &t, d);
    if (st == RD_OK)
        st = rd_md_view(r, p, &view);
    if (st == RD_OK)
        st = rd_template_render(t, view.root, out, d);
    rd_tdata_release(&view);
    rd_template_free(t);
    return st;
}
