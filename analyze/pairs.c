/*
 * pairs.c - the verdicts' comparisons within rounds (see pairs.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levels.h"
#include "moments.h"
#include "pairs.h"
#include "sessions.h"

bool rd_pairs_wanted(const struct wl *w)
{
    return w->blocks && strcmp(w->blocks, "round") == 0;
}

rd_status rd_pairs_check(const struct rd_analysis *a, struct rd_diag *d)
{
    for (size_t i = 0; i < a->nwls; i++) {
        const char *b = a->wls[i].blocks;
        if (b && *b && strcmp(b, "round") != 0 && strcmp(b, "none") != 0)
            return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                               "workload '%s': blocks '%s' (expected round or none)",
                               a->wls[i].name, b);
    }
    return RD_OK;
}

static bool paired(const void *ctx, size_t a, size_t b, double *mean_log, double *sd_log,
                   double *n)
{
    const struct rd_pairs *p = ctx;
    rd_rounds_compare(p->by_cfg[a], p->n[a], p->by_cfg[b], p->n[b], mean_log, sd_log, n);
    return true;
}

rd_status rd_pairs_build(const struct wctx *x, size_t ti, struct rd_pairs *p)
{
    return rd_pairs_build_before(x, ti, UINT32_MAX, p);
}

rd_status rd_pairs_build_before(const struct wctx *x, size_t ti, uint32_t runs, struct rd_pairs *p)
{
    const size_t k = x->k;
    *p = (struct rd_pairs){ .k = k };
    p->by_cfg = calloc(k ? k : 1, sizeof *p->by_cfg);
    p->n = calloc(k ? k : 1, sizeof *p->n);
    if (!p->by_cfg || !p->n)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < k; i++) {
        const struct prep *pp = &x->preps[ti * k + i];
        if (!pp->have || !pp->run_of || pp->n_used == 0)
            continue;
        uint32_t *ses = malloc(pp->n_used * sizeof *ses);
        struct rd_round_value *v = malloc(pp->n_used * sizeof *v);
        if (!ses || !v) {
            free(ses);
            free(v);
            return RD_ERR_NOMEM;
        }
        rd_levels_sessions_of(x, i, pp, ses);
        /* used[u] is the u-th value kept of all[], whose runs run_of[]
         * names: skip the outliers left out, as levels.c does */
        bool drop = x->a->o.exclude_outliers;
        size_t u = 0, got = 0;
        for (size_t j = 0, o = 0; j < pp->n_all && u < pp->n_used; j++) {
            if (drop && o < pp->noutl && pp->outl[o] == j) {
                o++;
                continue;
            }
            double val = pp->used[u];
            uint32_t number = x->cs[i]->runs[pp->run_of[j]].order;
            if (val > 0 && isfinite(val) && pp->run_of[j] < runs)
                v[got++] = (struct rd_round_value){ (uint64_t)ses[u] << 32 | number, log(val),
                                                 (uint32_t)u };
            u++;
        }
        free(ses);
        /* a run number stored twice is a duplicate_run warning; its first
         * copy is the one kept */
        p->n[i] = rd_rounds_one_per_round(v, got);
        p->by_cfg[i] = v;
    }
    p->pairing = (struct rd_verdict_pairing){ paired, p };
    return RD_OK;
}

rd_status rd_pairs_of_series(struct rd_analysis *a, const struct wl *wl, uint32_t m,
                             struct rd_pairs *p)
{
    const size_t k = wl->ncfgs;
    *p = (struct rd_pairs){ .k = k };
    p->by_cfg = calloc(k ? k : 1, sizeof *p->by_cfg);
    p->n = calloc(k ? k : 1, sizeof *p->n);
    struct cfg **cs = malloc((k ? k : 1) * sizeof *cs);
    if (!p->by_cfg || !p->n || !cs) {
        free(cs);
        return RD_ERR_NOMEM;
    }
    for (size_t i = 0; i < k; i++)
        cs[i] = &a->cfgs[wl->cfgs[i]];
    /* the sessions need only the configs and the store's pauses */
    struct wctx x = { .a = a, .cs = cs, .k = k };
    struct sessions sess;
    rd_status st = rd_sessions_find(&x, &sess);
    for (size_t i = 0; i < k && !st; i++) {
        const struct series *ser = rd_cfg_find_series(cs[i], m);
        if (!ser || !ser->len)
            continue;
        struct rd_round_value *v = malloc(ser->len * sizeof *v);
        if (!v) {
            st = RD_ERR_NOMEM;
            break;
        }
        size_t got = 0;
        for (uint32_t j = 0; j < ser->len; j++) {
            uint32_t run = rd_series_run(ser, j);
            if (ser->v[j] > 0 && isfinite(ser->v[j]))
                v[got++] = (struct rd_round_value){
                    (uint64_t)sess.of[i][run] << 32 | cs[i]->runs[run].order, log(ser->v[j]), j };
        }
        p->n[i] = rd_rounds_one_per_round(v, got);
        p->by_cfg[i] = v;
    }
    rd_sessions_release(&sess, k);
    free(cs);
    p->pairing = (struct rd_verdict_pairing){ paired, p };
    return st;
}

void rd_pairs_release(struct rd_pairs *p)
{
    if (p->by_cfg)
        for (size_t i = 0; i < p->k; i++)
            free(p->by_cfg[i]);
    free(p->by_cfg);
    free(p->n);
    memset(p, 0, sizeof *p);
}
