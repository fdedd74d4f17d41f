// links: rd_analyze
/*
 * The session rule (stats/sessioncut.c): its pauses agree with the rule
 * as analyze/sessions.c computed it before the move (rd_stats_sort, then
 * rd_stats_quantile_sorted at 1/2, then gap > max(10 x median, 60 s)),
 * including gaps one step either side of the cut; and hand-worked stores:
 * a pause cuts, a guard's wait fills it, stores are sessions apart, a run
 * without a time joins its store's first session.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "sessioncut.h"
#include "stats.h"

/* xorshift64*: a fixed sequence, no library state */
static double uniform(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* The rule as it stood in analyze/sessions.c: pause[i] for the gap
 * before t[i]. */
static void reference(const double *t, size_t n, bool *pause)
{
    double *g = malloc(n * sizeof *g);
    for (size_t i = 1; i < n; i++)
        g[i - 1] = fmax(0, t[i] - t[i - 1]);
    rd_stats_sort(g, n - 1);
    double cut = 10 * rd_stats_quantile_sorted(g, n - 1, 0.5);
    if (cut < 60)
        cut = 60;
    for (size_t i = 1; i < n; i++)
        pause[i] = t[i] - t[i - 1] > cut;
    free(g);
}

/* Random stores of n runs whose last two gaps sit one step of the times
 * below and one above the reference's cut (the largest gaps, so they
 * leave the median where it is): the module finds the reference's
 * pauses, no more. A step of times near 1.7e9 s is coarser than one ulp
 * of the cut: that the median's bits are the reference's is argued in
 * sessioncut.c (the same two middle values, the same interpolation). */
static void agrees_at_the_cut(size_t n, uint64_t seed)
{
    double *t = malloc(n * sizeof *t);
    bool *want = calloc(n, sizeof *want);
    struct rd_span *sp = malloc(n * sizeof *sp);
    t[0] = 1.7e9 + 1000 * uniform(&seed);
    for (size_t i = 1; i < n - 2; i++)
        t[i] = t[i - 1] + 5 + 10 * uniform(&seed);
    t[n - 2] = t[n - 3] + 1e6; /* placeholders: the largest gaps */
    t[n - 1] = t[n - 2] + 1e6;
    reference(t, n, want);
    /* the cut the reference reads, from the gaps below the two last */
    double *g = malloc(n * sizeof *g);
    for (size_t i = 1; i < n; i++)
        g[i - 1] = t[i] - t[i - 1];
    rd_stats_sort(g, n - 1);
    double cut = fmax(10 * rd_stats_quantile_sorted(g, n - 1, 0.5), 60);
    free(g);
    t[n - 2] = t[n - 3] + cut;
    while (t[n - 2] - t[n - 3] > cut)
        t[n - 2] = nextafter(t[n - 2], 0);
    t[n - 1] = t[n - 2] + cut;
    while (!(t[n - 1] - t[n - 2] > cut))
        t[n - 1] = nextafter(t[n - 1], INFINITY);
    reference(t, n, want);
    assert_false(want[n - 2]);
    assert_true(want[n - 1]);
    for (size_t i = 0; i < n; i++)
        sp[i] = (struct rd_span){ t[i], t[i], 0, false };
    struct rd_pause *p = NULL;
    size_t np = 0, cap = 0;
    assert_int_equal(rd_sessioncut_pauses(sp, n, &p, &np, &cap), RD_OK);
    size_t k = 0;
    for (size_t i = 1; i < n; i++)
        if (want[i]) {
            assert_true(k < np);
            assert_true(p[k].from == t[i - 1] && p[k].to == t[i]);
            k++;
        }
    assert_int_equal(k, np);
    free(p);
    free(sp);
    free(want);
    free(t);
}

static void pauses_agree_with_the_rule_before_the_move(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        agrees_at_the_cut(103, seed);  /* 102 gaps: the median interpolates */
        agrees_at_the_cut(104, seed);  /* 103 gaps: the middle one */
        agrees_at_the_cut(12 + seed % 2, seed); /* a few runs */
    }
}

/* Runs 1 s apart at 0..3, then at 100: the gaps 1, 1, 1, 97 have a
 * median of 1, so the cut is the 60-s floor and 97 s is a pause. */
static void a_pause_cuts_and_a_wait_fills_it(void **state)
{
    (void)state;
    struct rd_span sp[6];
    for (int i = 0; i < 4; i++)
        sp[i] = (struct rd_span){ i, i, 0, false };
    sp[4] = (struct rd_span){ 100, 100, 0, false };
    struct rd_pause *p = NULL;
    size_t np = 0, cap = 0;
    assert_int_equal(rd_sessioncut_pauses(sp, 5, &p, &np, &cap), RD_OK);
    assert_int_equal(np, 1);
    assert_true(p[0].input == 0 && p[0].from == 3 && p[0].to == 100);
    /* the runs of one workload: at 1 and 100, and one without a time */
    struct rd_stamp st[3] = { { 100, 7, 0, 9 }, { NAN, 8, 0, 9 }, { 1, 6, 0, 9 } };
    assert_int_equal(rd_sessioncut_sessions(st, 3, p, np), 2);
    /* sorted: no time first, then by time */
    assert_true(st[0].tag == 8 && st[1].tag == 6 && st[2].tag == 7);
    assert_int_equal(st[0].session, 0);
    assert_int_equal(st[1].session, 0);
    assert_int_equal(st[2].session, 1);
    /* the guard waited from 50 to the run at 100: the gaps are 1, 1, 1,
     * 47 (to the wait's start), under the floor */
    for (int i = 0; i < 4; i++)
        sp[i] = (struct rd_span){ i, i, 0, false };
    sp[4] = (struct rd_span){ 100, 100, 0, false };
    sp[5] = (struct rd_span){ 50, 100, 0, true };
    np = 0;
    assert_int_equal(rd_sessioncut_pauses(sp, 6, &p, &np, &cap), RD_OK);
    assert_int_equal(np, 0);
    free(p);
}

/* Two stores: each its own sessions, numbered in store order, whatever
 * the times. */
static void stores_are_sessions_apart(void **state)
{
    (void)state;
    struct rd_stamp st[4] = { { 5, 0, 1, 0 }, { 1, 1, 0, 0 }, { 2, 2, 0, 0 }, { 1, 3, 1, 0 } };
    assert_int_equal(rd_sessioncut_sessions(st, 4, NULL, 0), 2);
    for (int i = 0; i < 4; i++)
        assert_int_equal(st[i].session, st[i].input);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pauses_agree_with_the_rule_before_the_move),
        cmocka_unit_test(a_pause_cuts_and_a_wait_fills_it),
        cmocka_unit_test(stores_are_sessions_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
