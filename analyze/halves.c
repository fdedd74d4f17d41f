/*
 * halves.c - a workload's per-config work (its prepared series, its pairs)
 * split in two halves, the upper one on a second thread, when the pool
 * writes the workloads on one thread that may have had more: one workload
 * of 10^5 configs otherwise leaves the second core idle there. Each half
 * writes only its own indices, so the result is one thread's. Calls back
 * into nothing but the function it is given.
 */
#include <pthread.h>
#include <stdlib.h>

#include "halves.h"
#include "stats.h"

struct half_job {
    rd_range_fn *fn;
    void *ctx;
    struct wctx x; /* the helper's copy */
    size_t lo, hi;
    rd_status st;
};

static void *half_helper(void *arg)
{
    struct half_job *h = arg;
    h->st = h->fn(&h->x, h->ctx, h->lo, h->hi);
    free(h->x.scratch);
    rd_stats_release_thread();
    return NULL;
}

rd_status rd_wctx_halves(struct wctx *x, size_t n, size_t min_n, rd_range_fn *fn, void *ctx)
{
    if (!x->a->config_helper || n < min_n || n < 2)
        return fn(x, ctx, 0, n);
    /* Copied here, before this thread changes x (its scratch may grow). */
    struct half_job h = {fn, ctx, *x, n / 2, n, RD_OK};
    h.x.scratch = NULL;
    h.x.scratch_cap = 0;
    pthread_t tid;
    if (pthread_create(&tid, NULL, half_helper, &h) != 0)
        return fn(x, ctx, 0, n);
    rd_status st = fn(x, ctx, 0, n / 2);
    pthread_join(tid, NULL);
    return st ? st : h.st;
}
