/*
 * view_machines - the Across machines section: for each workload
 * measured on several machines, every config against the reference (best
 * on most machines) on each machine and across them, and whether the
 * machines agree (docs/render.md, "Across machines"). Reads the model
 * only; absent with one machine.
 */
#include "view.h"
#include "view_machines.h"
#include "viewtext.h"

#include <math.h>

#include "rundown/numfmt.h"

/* "1.27× (1.26–1.28)"; a dash when not estimable. */
static void ratio_ci(struct vb *v, double ratio, double low, double high)
{
    if (!isfinite(ratio)) {
        chk(v, rd_buf_addstr(&v->b, RD_UNDEF));
        return;
    }
    chk(v, rd_fmt_num(&v->b, ratio, 3));
    chk(v, rd_buf_addstr(&v->b, "\u00d7"));
    if (isfinite(low) && isfinite(high)) {
        chk(v, rd_buf_addstr(&v->b, " ("));
        chk(v, rd_fmt_num(&v->b, low, 3));
        chk(v, rd_buf_addstr(&v->b, "\u2013"));
        chk(v, rd_fmt_num(&v->b, high, 3));
        chk(v, rd_buf_addch(&v->b, ')'));
    }
}

static void comparison_row(struct vb *v, const struct rd_rmachines *m,
                           const struct rd_rmachine_cmp *c, struct rd_tval *rows)
{
    struct rd_tval *row = obj(v, rows, NULL);
    rd_view_text(v, m->workload);
    take(v, row, "workload");
    rd_view_text(v, c->config);
    chk(v, rd_buf_addstr(&v->b, " / "));
    rd_view_text(v, m->reference);
    take(v, row, "comparison");
    for (size_t i = 0; i < c->nper; i++) {
        const struct rd_rmachine_ratio *p = &c->per[i];
        if (i)
            chk(v, rd_buf_addstr(&v->b, "; "));
        rd_view_text(v, p->machine);
        chk(v, rd_buf_addch(&v->b, ' '));
        ratio_ci(v, p->ratio, p->ratio_ci_low, p->ratio_ci_high);
    }
    take(v, row, "each");
    ratio_ci(v, c->k >= 2 ? c->ratio : NAN, c->ratio_ci_low, c->ratio_ci_high);
    take(v, row, "between");
    if (!(c->k >= 2)) {
        chk(v, rd_buf_addstr(&v->b, "one machine only"));
    } else {
        chk(v, rd_buf_addf(&v->b, "%s (Q ", c->consistent ? "agree" : "**differ**"));
        chk(v, rd_fmt_num(&v->b, c->q, 3));
        chk(v, rd_buf_addstr(&v->b, ", p "));
        chk(v, rd_fmt_p(&v->b, c->p));
        chk(v, rd_buf_addch(&v->b, ')'));
    }
    take(v, row, "agree");
}

void rd_view_machines(struct vb *v, const struct rd_report *r, struct rd_tval *root)
{
    if (r->nmachines == 0)
        return;
    struct rd_tval *sec = obj(v, root, "machines");
    chk(v, rd_buf_addf(&v->b, "%g %%", isfinite(r->confidence) ? r->confidence * 100 : 95));
    take(v, sec, "conf");
    struct rd_tval *list = arr(v, sec, "workloads");
    struct rd_tval *rows = arr(v, sec, "rows");
    for (size_t i = 0; i < r->nmachines; i++) {
        const struct rd_rmachines *m = &r->machines[i];
        struct rd_tval *w = obj(v, list, NULL);
        rd_view_text(v, m->workload);
        take(v, w, "workload");
        for (size_t k = 0; k < m->nmachine_ids; k++) {
            if (k)
                chk(v, rd_buf_addstr(&v->b, ", "));
            rd_view_text(v, m->machine_ids[k]);
        }
        take(v, w, "ids");
        chk(v, rd_buf_addf(&v->b, "%zu", m->nmachine_ids));
        take(v, w, "count");
        if (m->metric)
            rd_view_metric(v, m->metric, true);
        take_or_null(v, w, "metric");
        if (m->reference)
            rd_view_text(v, m->reference);
        take_or_null(v, w, "reference");
        for (size_t c = 0; c < m->ncmps; c++)
            comparison_row(v, m, &m->cmps[c], rows);
    }
}
