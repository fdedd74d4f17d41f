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
 *
 * The rule itself (the pauses, the cut) is stats/sessioncut.c, which the
 * suite collector keys a store's paired rounds by too: this file gathers
 * the analysis's runs and busy marks for it.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sessions.h"
#include "sessioncut.h"

void rd_sessions_release(struct sessions *s, size_t k)
{
    if (s->of)
        for (size_t i = 0; i < k; i++)
            free(s->of[i]);
    free(s->of);
    memset(s, 0, sizeof *s);
}

rd_status rd_pauses_find(struct rd_analysis *a)
{
    free(a->pauses);
    a->pauses = NULL;
    a->npauses = 0;
    size_t total = a->nbusy, cap = 0;
    for (size_t i = 0; i < a->ncfgs; i++)
        total += a->cfgs[i].nruns;
    struct rd_span *sp = malloc((total ? total : 1) * sizeof *sp);
    if (!sp)
        return RD_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < a->ncfgs; i++)
        for (uint32_t j = 0; a->cfgs[i].run_t && j < a->cfgs[i].nruns; j++) {
            double t = a->cfgs[i].run_t[j];
            if (!isnan(t))
                sp[n++] = (struct rd_span){ t, t, a->cfgs[i].runs[j].input, false };
        }
    for (size_t i = 0; i < a->nbusy; i++)
        sp[n++] = (struct rd_span){ a->busy[i].from, a->busy[i].t, a->busy[i].input, true };
    rd_status s = rd_sessioncut_pauses(sp, n, &a->pauses, &a->npauses, &cap);
    free(sp);
    return s;
}

/* The sessions of a workload none of whose runs has a time: the rule
 * (rd_sessioncut_sessions) cuts nothing without times, so each store
 * present is one session, numbered in store order; the sort by time is
 * spared (1.5 % of analyze's CPU on a store of 10^6 runs without times). */
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
    struct rd_stamp *st = s ? NULL : malloc((total ? total : 1) * sizeof *st);
    if (!st)
        s = RD_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < x->k && !s; i++) {
        const struct cfg *c = x->cs[i];
        for (uint32_t j = 0; j < c->nruns; j++)
            st[n++] = (struct rd_stamp){ rd_run_time(c, j), (uint64_t)i << 32 | j,
                                         c->runs[j].input, 0 };
    }
    if (!s) {
        out->n = rd_sessioncut_sessions(st, n, x->a->pauses, x->a->npauses);
        for (size_t i = 0; i < n; i++)
            out->of[st[i].tag >> 32][(uint32_t)st[i].tag] = st[i].session;
    }
    free(st);
    return s;
}
