/*
 * sessioncut.c - the session rule: a store's pauses and the sessions they
 * cut (see sessioncut.h, and the reasons in analyze/sessions.c).
 */
#include "sessioncut.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_statistics_double.h>

#include "rundown/array.h"

/* A gap is a session break when longer than both of these. */
#define SESSION_GAP_FACTOR 10
#define SESSION_GAP_MIN 60.0

static int cmp_span(const void *x, const void *y)
{
    const struct rd_span *a = x, *b = y;
    if (a->input != b->input)
        return a->input < b->input ? -1 : 1;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (int)a->busy - (int)b->busy;
}

/* Folds each wait into the kept run it came before (same store, same
 * start), so that the run is one span; returns the new count. */
static size_t fold_waits(struct rd_span *sp, size_t n)
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

/* The median of g[0..n), n >= 1, reordering g: Hyndman-Fan type 7 at
 * 1/2 with numpy's interpolation, the bits analyze's
 * rd_stats_quantile_sorted gives on the sorted gaps (the rule's value
 * before it moved here), found by selection rather than a sort. */
static double median_gap(double *g, size_t n)
{
    size_t lo = (n - 1) / 2;
    double a = gsl_stats_select(g, 1, n, lo);
    if (n % 2)
        return a;
    double b = gsl_stats_select(g, 1, n, lo + 1);
    return a == b ? a : b - (b - a) * 0.5;
}

/* The pauses of one store's spans sp[0..n), sorted by time. A gap runs
 * from one span's start to the next one's 'from': the collector waiting
 * for a quiet machine was at work, probing it. */
static rd_status store_pauses(const struct rd_span *sp, size_t n, double *gaps,
                              struct rd_pause **pauses, size_t *np, size_t *cap)
{
    size_t ng = 0;
    for (size_t i = 1; i < n; i++)
        gaps[ng++] = fmax(0, sp[i].from - sp[i - 1].t);
    if (ng == 0)
        return RD_OK;
    double cut = SESSION_GAP_FACTOR * median_gap(gaps, ng);
    if (cut < SESSION_GAP_MIN)
        cut = SESSION_GAP_MIN;
    for (size_t i = 1; i < n; i++) {
        if (!(sp[i].from - sp[i - 1].t > cut))
            continue;
        RD_TRY(RD_ARRAY_GROW(*pauses, *cap, *np + 1));
        (*pauses)[(*np)++] = (struct rd_pause){ sp[i].input, sp[i - 1].t, sp[i].from };
    }
    return RD_OK;
}

rd_status rd_sessioncut_pauses(struct rd_span *sp, size_t n, struct rd_pause **pauses,
                               size_t *np, size_t *cap)
{
    if (n > 1) {
        qsort(sp, n, sizeof *sp, cmp_span);
        n = fold_waits(sp, n);
    }
    double *gaps = malloc((n ? n : 1) * sizeof *gaps);
    if (!gaps)
        return RD_ERR_NOMEM;
    rd_status s = RD_OK;
    for (size_t b0 = 0, b1; b0 < n && !s; b0 = b1) {
        for (b1 = b0 + 1; b1 < n && sp[b1].input == sp[b0].input; b1++)
            ;
        s = store_pauses(sp + b0, b1 - b0, gaps, pauses, np, cap);
    }
    free(gaps);
    return s;
}

/* Store order, then time, runs without a time first. */
static int cmp_stamp(const void *x, const void *y)
{
    const struct rd_stamp *a = x, *b = y;
    if (a->input != b->input)
        return a->input < b->input ? -1 : 1;
    if (isnan(a->t) || isnan(b->t))
        return isnan(b->t) - isnan(a->t);
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->tag < b->tag ? -1 : a->tag > b->tag;
}

/* Cuts the runs st[0..n) of one store, sorted by time, into sessions
 * numbered from *next on: a new one after each of the store's pauses
 * (p[0..np), sorted) that lies between two of them. The runs are some of
 * the store's, so a pause lies either wholly between two of them or
 * outside both. */
static void cut_store(struct rd_stamp *st, size_t n, uint32_t *next, const struct rd_pause *p,
                      size_t np)
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
        st[i].session = id;
    }
}

uint32_t rd_sessioncut_sessions(struct rd_stamp *st, size_t n, const struct rd_pause *p,
                                size_t np)
{
    if (n > 1)
        qsort(st, n, sizeof *st, cmp_stamp);
    uint32_t next = 0;
    /* no pause found: p is NULL, and NULL + 0 is undefined (UBSan) */
    const struct rd_pause *pend = p ? p + np : p;
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && st[b].input == st[a].input; b++)
            ;
        while (p < pend && p->input < st[a].input)
            p++;
        const struct rd_pause *q = p;
        while (q < pend && q->input == st[a].input)
            q++;
        cut_store(st + a, b - a, &next, p, (size_t)(q - p));
    }
    return next;
}
