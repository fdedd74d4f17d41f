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
 * store's stretch of collection without a long pause: runs from different
 * input stores are different sessions, and within a store a workload's
 * runs are cut only where the collection as a whole paused, i.e. where
 * the store took no measured run of any workload for longer than both
 * SESSION_GAP_FACTOR times its typical gap (the median) and
 * SESSION_GAP_MIN seconds. The store's runs, not one workload's, tell a
 * pause: a suite under a budget goes round its workloads, so a workload
 * waits minutes between its rounds while the collection runs on, and
 * reading those waits as pauses split one collection into as many
 * "sessions" as rounds, each costing the intervals a degree of freedom
 * (the 2026-12-02 study: 3 to 10 sessions a workload, intervals on 1 to
 * 3 df). For the same reason the store's runs, not one config's, give the
 * typical gap: a pause shows in every config alike. The contention
 * guard at work is collection too: runs it set aside, and its waits for a
 * quiet machine (struct busy_mark), fill the timeline as kept runs do;
 * read as pauses, they cut every workload of the 2026-12-03 collections
 * into 2 to 4 sessions, with intervals on about 1 df.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sessions.h"
#include "rundown/array.h"

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

/* The end of the store whose runs begin at st[from] in st[0..n), sorted
 * by store. */
static size_t store_end(const struct stamp *st, size_t n, size_t from)
{
    size_t end = from + 1;
    while (end < n && st[end].input == st[from].input)
        end++;
    return end;
}

/* A moment of a store's collection: a kept run's start (from = t), or a
 * stretch the collector was at work that no kept run shows (struct
 * busy_mark: a wait for a quiet machine, a run set aside). */
struct span {
    double from, t;
    uint32_t input;
    bool busy;
};

static int cmp_span(const void *x, const void *y)
{
    const struct span *a = x, *b = y;
    if (a->input != b->input)
        return a->input < b->input ? -1 : 1;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (int)a->busy - (int)b->busy;
}

/* The pauses of one store's spans sp[0..n), sorted by time, appended to
 * a->pauses. A gap runs from one span's start to the next one's 'from':
 * the collector waiting for a quiet machine was at work, probing it. */
static rd_status store_pauses(struct rd_analysis *a, const struct span *sp, size_t n,
                              double *gaps, size_t *cap)
{
    size_t ng = 0;
    for (size_t i = 1; i < n; i++)
        gaps[ng++] = fmax(0, sp[i].from - sp[i - 1].t);
    if (ng == 0)
        return RD_OK;
    rd_stats_sort(gaps, ng);
    double cut = SESSION_GAP_FACTOR * rd_stats_quantile_sorted(gaps, ng, 0.5);
    if (cut < SESSION_GAP_MIN)
        cut = SESSION_GAP_MIN;
    for (size_t i = 1; i < n; i++) {
        if (!(sp[i].from - sp[i - 1].t > cut))
            continue;
        RD_TRY(RD_ARRAY_GROW(a->pauses, *cap, a->npauses + 1));
        a->pauses[a->npauses++] = (struct pause){ sp[i].input, sp[i - 1].t, sp[i].from };
    }
    return RD_OK;
}

/* Folds each wait into the kept run it came before (same store, same
 * start), so that the run is one span; returns the new count. */
static size_t fold_waits(struct span *sp, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && sp[i].busy && sp[m - 1].input == sp[i].input && sp[m - 1].t == sp[i].t) {
            sp[m - 1].from = fmin(sp[m - 1].from, sp[i].from);
            continue;
        }
        sp[m++] = sp[i];
    }
    return m;
}

rd_status rd_pauses_find(struct rd_analysis *a)
{
    free(a->pauses);
    a->pauses = NULL;
    a->npauses = 0;
    size_t total = a->nbusy, cap = 0;
    for (size_t i = 0; i < a->ncfgs; i++)
        total += a->cfgs[i].nruns;
    struct span *sp = malloc((total ? total : 1) * sizeof *sp);
    double *gaps = malloc((total ? total : 1) * sizeof *gaps);
    rd_status s = sp && gaps ? RD_OK : RD_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < a->ncfgs && !s; i++)
        for (uint32_t j = 0; a->cfgs[i].run_t && j < a->cfgs[i].nruns; j++) {
            double t = a->cfgs[i].run_t[j];
            if (!isnan(t))
                sp[n++] = (struct span){ t, t, a->cfgs[i].runs[j].input, false };
        }
    for (size_t i = 0; i < a->nbusy && !s; i++)
        sp[n++] = (struct span){ a->busy[i].from, a->busy[i].t, a->busy[i].input, true };
    if (!s && n > 1) {
        qsort(sp, n, sizeof *sp, cmp_span);
        n = fold_waits(sp, n);
    }
    for (size_t b0 = 0, b1; b0 < n && !s; b0 = b1) {
        for (b1 = b0 + 1; b1 < n && sp[b1].input == sp[b0].input; b1++)
            ;
        s = store_pauses(a, sp + b0, b1 - b0, gaps, &cap);
    }
    free(sp);
    free(gaps);
    return s;
}

/* Cuts the runs st[0..n) of one store, sorted by time, into sessions
 * numbered from *next on: a new one after each of the store's pauses
 * (p[0..np), sorted) that lies between two of them. The workload's runs
 * are some of the store's, so a pause lies either wholly between two of
 * them or outside both. */
static void cut_store(struct sessions *out, const struct stamp *st, size_t n, uint32_t *next,
                      const struct pause *p, size_t np)
{
    size_t first = 0; /* the first run with a time */
    while (first < n && isnan(st[first].t))
        first++;
    uint32_t id = (*next)++;
    size_t at = 0; /* the first pause not before the previous run */
    for (size_t i = 0; i < n; i++) {
        if (i > first) {
            while (at < np && p[at].from < st[i - 1].t)
                at++;
            if (at < np && p[at].to <= st[i].t)
                id = (*next)++;
        }
        out->of[st[i].cfg][st[i].run] = id;
    }
}

/* The sessions of a workload none of whose runs has a time: cut_store
 * cuts nothing without times, so each store present is one session,
 * numbered in store order; the sort by time is spared (1.5 % of
 * analyze's CPU on a store of 10^6 runs without times). */
static rd_status untimed_sessions(const struct wctx *x, struct sessions *out)
{
    size_t ninputs = x->a->ninputs;
    uint32_t *id = calloc(ninputs ? ninputs : 1, sizeof *id);
    if (!id)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < x->k; i++)
        for (uint32_t j = 0; j < x->cs[i]->nruns; j++)
            id[x->cs[i]->runs[j].input] = 1;
    uint32_t next = 0;
    for (size_t in = 0; in < ninputs; in++)
        if (id[in])
            id[in] = next++;
    for (size_t i = 0; i < x->k; i++)
        for (uint32_t j = 0; j < x->cs[i]->nruns; j++)
            out->of[i][j] = id[x->cs[i]->runs[j].input];
    out->n = next;
    free(id);
    return RD_OK;
}

rd_status rd_sessions_find(const struct wctx *x, struct sessions *out)
{
    memset(out, 0, sizeof *out);
    size_t total = 0;
    bool timed = false;
    for (size_t i = 0; i < x->k; i++) {
        total += x->cs[i]->nruns;
        timed = timed || x->cs[i]->run_t;
    }
    out->of = calloc(x->k ? x->k : 1, sizeof *out->of);
    rd_status s = out->of ? RD_OK : RD_ERR_NOMEM;
    for (size_t i = 0; i < x->k && !s; i++)
        if (!(out->of[i] = malloc((x->cs[i]->nruns ? x->cs[i]->nruns : 1) * sizeof **out->of)))
            s = RD_ERR_NOMEM;
    if (!s && !timed)
        return untimed_sessions(x, out);
    struct stamp *st = s ? NULL : malloc((total ? total : 1) * sizeof *st);
    if (!st)
        s = RD_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < x->k && !s; i++) {
        const struct cfg *c = x->cs[i];
        for (uint32_t j = 0; j < c->nruns; j++)
            st[n++] = (struct stamp){rd_run_time(c, j), c->runs[j].input, (uint32_t)i, j};
    }
    if (!s && n > 1)
        qsort(st, n, sizeof *st, cmp_stamp);
    uint32_t next = 0;
    /* no pause found: pauses is NULL, and NULL + 0 is undefined (UBSan) */
    const struct pause *p = x->a->pauses, *pend = p ? p + x->a->npauses : p;
    for (size_t a = 0, b; a < n && !s; a = b) {
        b = store_end(st, n, a);
        while (p < pend && p->input < st[a].input)
            p++;
        const struct pause *q = p;
        while (q < pend && q->input == st[a].input)
            q++;
        cut_store(out, st + a, b - a, &next, p, (size_t)(q - p));
    }
    out->n = next;
    free(st);
    return s;
}
