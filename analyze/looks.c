/*
 * looks.c - a workload's looks and the level its verdicts spend
 * (docs/methods.md §6, "Looks").
 *
 * Each session of a workload (sessions.c: a resumed collection, `make
 * bench` again, a second `--until settled` pass, another input store) is
 * a look at its data, and a look that can stop or restart collection
 * must be paid for in alpha, or the any-look A/A rate of a false "worse"
 * grows with the looks (8-10 % after a second look at alpha = 5 %,
 * issue 26). When the runs carry a planned maximum per config N
 * (info.runs_max, written by the suite runner for adaptive workloads, or
 * --set W.runs_max=N), the verdicts of the last look L spend the
 * increment a(t_L) - a(t_(L-1)) of the Pocock-type spending function
 * the race already spends by (stats/settle.h, rd_settle_spent), over the
 * information fraction t_l = n_l / N, n_l the most good values of the
 * primary metric any config had by the end of look l. A workload that
 * reached N gets everything not spent before; a collection stopped early
 * by its budget is judged below alpha even at one look. Without a
 * planned maximum the level stays alpha (a fixed-sample analysis).
 */
#include <stdlib.h>
#include <string.h>

#include "looks.h"
#include "settle.h"
#include "rundown/units.h"

/* info.runs_max as a positive count, 0 when absent or not one. */
static double planned_max(const struct wl *w)
{
    double v;
    if (!w->runs_max || rd_parse_double(w->runs_max, strlen(w->runs_max), &v) != RD_OK ||
        !(v >= 1))
        return 0;
    return v;
}

rd_status rd_looks_find(struct wctx *x)
{
    struct looks *lk = &x->looks;
    memset(lk, 0, sizeof *lk);
    lk->n = x->sess.n ? x->sess.n : 1;
    lk->runs_max = planned_max(x->w);
    if (!(lk->runs_max > 0) || !x->ntested || !x->sess.of)
        return RD_OK;
    /* n_l: the most good values of the primary metric any config had by
     * the end of look l (cumulative over sessions 0..l). */
    double *most = calloc(lk->n, sizeof *most), *per = calloc(lk->n, sizeof *per);
    if (!most || !per) {
        free(most);
        free(per);
        return RD_ERR_NOMEM;
    }
    for (size_t i = 0; i < x->k; i++) {
        const struct prep *p = &x->preps[i];
        if (!p->have || !p->run_of)
            continue;
        memset(per, 0, lk->n * sizeof *per);
        for (size_t j = 0; j < p->n_all; j++)
            per[x->sess.of[i][p->run_of[j]]]++;
        double sum = 0;
        for (size_t l = 0; l < lk->n; l++) {
            sum += per[l];
            if (sum > most[l])
                most[l] = sum;
        }
    }
    lk->n_last = most[lk->n - 1];
    lk->t = rd_settle_fraction(lk->n_last, lk->runs_max);
    lk->spend = lk->t > 0; /* no value of the primary metric: no verdict either */
    /* The last earlier look below the last one's fraction: a look that
     * adds nothing to the fraction (runs past N, or none of the primary
     * metric) is the same look as the one before it. */
    for (size_t l = lk->n - 1; l-- > 0;) {
        double t = rd_settle_fraction(most[l], lk->runs_max);
        if (t < lk->t) {
            lk->t_prev = t;
            break;
        }
    }
    free(most);
    free(per);
    return RD_OK;
}

double rd_looks_level(const struct wctx *x, double alpha)
{
    const struct looks *lk = &x->looks;
    return lk->spend ? rd_settle_look_level(alpha, lk->t_prev, lk->t) : alpha;
}
