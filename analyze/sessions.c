/*
 * sessions.c - which collection session each run of a workload belongs
 * to (docs/methods.md, "Sessions").
 *
 * Runs of one config are replicates of one condition only when they were
 * taken under it: a config measured on Monday and again on Friday, or
 * stored by two collections, may differ by more than its runs do (a
 * rebooted machine, another build, a warmer room), and pooling them
 * treats one session's systematic offset as noise, or the runs of one
 * session as independent evidence (pseudo-replication). A session is one
 * store's stretch of a workload's runs without a long pause: runs from
 * different input stores are different sessions, and within a store the
 * workload's runs, in started_at order, are cut wherever the gap to the
 * next run is longer than both SESSION_GAP_FACTOR times the typical gap
 * (the median) and SESSION_GAP_MIN seconds. The workload's runs, not one
 * config's, set the typical gap: a suite runs them back to back, so a
 * pause shows in every config alike, and one config's few gaps could be
 * half pauses.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

/* A gap is a session break when longer than both of these. */
#define SESSION_GAP_FACTOR 10
#define SESSION_GAP_MIN 60.0

struct stamp {
    double t;       /* NaN: no readable started_at */
    uint32_t input, cfg, run;
};

/* Store order, then time, runs without a time first. */
static int cmp_stamp(const void *x, const void *y)
{
    const struct stamp *a = x, *b = y;
    if (a->input != b->input)
        return a->input < b->input ? -1 : 1;
    if (isnan(a->t) || isnan(b->t))
        return isnan(b->t) - isnan(a->t);
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->cfg != b->cfg)
        return a->cfg < b->cfg ? -1 : 1;
    return a->run < b->run ? -1 : a->run > b->run;
}

void rd_sessions_release(struct sessions *s, size_t k)
{
    if (s->of)
        for (size_t i = 0; i < k; i++)
            free(s->of[i]);
    free(s->of);
    memset(s, 0, sizeof *s);
}

/* Cuts the runs st[0..n) of one store, sorted by time, into sessions
 * numbered from *next on. */
static void cut_store(struct sessions *out, const struct stamp *st, size_t n, uint32_t *next,
                      double *gaps)
{
    size_t first = 0; /* the first run with a time */
    while (first < n && isnan(st[first].t))
        first++;
    size_t ng = 0;
    for (size_t i = first + 1; i < n; i++)
        gaps[ng++] = st[i].t - st[i - 1].t;
    double typical = 0;
    if (ng > 0) {
        rd_stats_sort(gaps, ng);
        typical = rd_stats_quantile_sorted(gaps, ng, 0.5);
    }
    double cut = SESSION_GAP_FACTOR * typical;
    if (cut < SESSION_GAP_MIN)
        cut = SESSION_GAP_MIN;
    uint32_t id = (*next)++;
    for (size_t i = 0; i < n; i++) {
        if (i > first && st[i].t - st[i - 1].t > cut)
            id = (*next)++;
        out->of[st[i].cfg][st[i].run] = id;
    }
}

rd_status rd_sessions_find(const struct wctx *x, struct sessions *out)
{
    memset(out, 0, sizeof *out);
    size_t total = 0;
    for (size_t i = 0; i < x->k; i++)
        total += x->cs[i]->nruns;
    out->of = calloc(x->k ? x->k : 1, sizeof *out->of);
    struct stamp *st = malloc((total ? total : 1) * sizeof *st);
    double *gaps = malloc((total ? total : 1) * sizeof *gaps);
    rd_status s = out->of && st && gaps ? RD_OK : RD_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < x->k && !s; i++) {
        const struct cfg *c = x->cs[i];
        if (!(out->of[i] = malloc((c->nruns ? c->nruns : 1) * sizeof **out->of)))
            s = RD_ERR_NOMEM;
        for (uint32_t j = 0; j < c->nruns && !s; j++)
            st[n++] = (struct stamp){c->runs[j].t, c->runs[j].input, (uint32_t)i, j};
    }
    if (!s && n > 1)
        qsort(st, n, sizeof *st, cmp_stamp);
    uint32_t next = 0;
    for (size_t a = 0, b; a < n && !s; a = b) {
        for (b = a + 1; b < n && st[b].input == st[a].input; b++)
            ;
        cut_store(out, st + a, b - a, &next, gaps);
    }
    out->n = next;
    free(st);
    free(gaps);
    return s;
}
