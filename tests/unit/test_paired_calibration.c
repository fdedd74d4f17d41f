// links: rd_analyze
/*
 * The verdicts paired within rounds (stats/verdict.h, rd_verdict_pairing;
 * docs/methods.md §6, "Paired within rounds") by simulation, beside the
 * unpaired verdicts on the same draws: seeded, small enough for make
 * test; RD_CALIBRATION_WORKLOADS (bench/verdict-calibration.sh) makes the
 * table in docs/methods.md.
 *
 * A workload: k configs, n rounds; round r multiplies every config's run
 * by a shared lognormal offset of sd 'block' (the host of that minute),
 * each run by its own lognormal noise of CV 'cv'. Cells: k = 2, 5, 15;
 * n = 5, 10, 30; CV 3 % and 20 %; block sd 0 and 20 %; complete rounds,
 * and rounds where each odd config misses a run with probability 0.3 (a
 * run that failed, or was set aside by the contention guard and not
 * redone). In every cell, paired:
 *
 * - A/A: the share of workloads with any config called worse is at most
 *   alpha plus three Monte Carlo standard errors (W = 1,000; 72 cells);
 * - one config truly 2 % slower: called more than 5 % slower at most as
 *   often;
 * - one config truly 3 % faster than the rest: called worse at most as
 *   often (a config better than the chosen best is never "worse").
 *
 * Printed beside the unpaired verdicts: the share of workloads in which a
 * config truly 5 % slower is called worse (power) and A/A decided
 * equivalent. Under a block sd of 20 % the paired verdicts must find the
 * 5 % in at least twice as many workloads as the unpaired ones at CV 3 %,
 * n = 10 (k = 2 and 5), or the pairing buys nothing.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "calibration_test.h"
#include "moments.h"
#include "stats.h"
#include "verdict.h"

enum { DEFAULT_WORKLOADS = 1000, MAX_K = 15, MAX_N = 30 };

/* One workload's logs by config and round; have[i][r] false: no run. */
struct rounds {
    size_t k, n;
    double log[MAX_K][MAX_N];
    bool have[MAX_K][MAX_N];
};

static bool paired(const void *ctx, size_t a, size_t b, double *mean_log, double *sd_log,
                   double *n)
{
    const struct rounds *w = ctx;
    struct rd_moments m = {0};
    for (size_t r = 0; r < w->n; r++)
        if (w->have[a][r] && w->have[b][r])
            rd_moments_add(&m, w->log[a][r] - w->log[b][r]);
    *n = (double)m.n;
    *mean_log = m.n ? m.mean : NAN;
    *sd_log = m.n >= 2 ? rd_moments_sd(&m) : NAN;
    return true;
}

struct cell {
    size_t k, n;
    double cv, block;
    bool gaps;
};

/* Draws a workload: config 1 'shift' times the others. */
static void draw(gsl_rng *rng, const struct cell *c, double shift, struct rounds *w)
{
    w->k = c->k;
    w->n = c->n;
    double sigma = sqrt(log1p(c->cv * c->cv)), bsig = sqrt(log1p(c->block * c->block));
    for (size_t r = 0; r < c->n; r++) {
        double off = c->block > 0 ? gsl_ran_gaussian(rng, bsig) : 0;
        for (size_t i = 0; i < c->k; i++) {
            w->log[i][r] = off + gsl_ran_gaussian(rng, sigma) - 0.5 * sigma * sigma +
                           (i == 1 ? log(shift) : 0);
            /* the first two rounds are always there: every config has 2 */
            w->have[i][r] = !(c->gaps && i % 2 && r >= 2 && gsl_rng_uniform(rng) < 0.3);
        }
    }
}

struct tally {
    double any_worse, watched_worse, watched_beyond, equivalent;
};

/* The verdicts of one workload, paired or not, into t (counts). */
static void judge(const struct rounds *w, bool pair, struct tally *t)
{
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    struct rd_verdict_pairing pg = { paired, w };
    if (pair)
        s.pairing = &pg;
    struct rd_verdict_sample x[MAX_K];
    for (size_t i = 0; i < w->k; i++) {
        double v[MAX_N];
        size_t n = 0;
        for (size_t r = 0; r < w->n; r++)
            if (w->have[i][r])
                v[n++] = exp(w->log[i][r]);
        x[i] = rd_verdict_sample_of(v, n, true);
    }
    struct rd_verdict_row rows[MAX_K];
    struct rd_verdict_result res;
    assert_int_equal(rd_verdict_decide(x, w->k, &s, rows, &res), RD_OK);
    bool any = false;
    for (size_t i = 0; i < w->k; i++)
        any |= rows[i].verdict == RD_VERDICT_WORSE;
    t->any_worse += any;
    t->watched_worse += rows[1].verdict == RD_VERDICT_WORSE;
    t->watched_beyond += rows[1].verdict == RD_VERDICT_WORSE && rows[1].beyond_margin == 1;
    t->equivalent += res.decision == RD_DECISION_EQUIVALENT;
}

/* W workloads of cell c with config 1 at 'shift': paired and unpaired. */
static void simulate(gsl_rng *rng, const struct cell *c, double shift, struct tally *paired_t,
                     struct tally *unpaired_t)
{
    const int W = calibration_workloads(DEFAULT_WORKLOADS);
    *paired_t = *unpaired_t = (struct tally){ 0, 0, 0, 0 };
    static struct rounds w;
    for (int i = 0; i < W; i++) {
        draw(rng, c, shift, &w);
        judge(&w, true, paired_t);
        judge(&w, false, unpaired_t);
    }
    struct tally *ts[] = { paired_t, unpaired_t };
    for (size_t j = 0; j < 2; j++) {
        ts[j]->any_worse /= W;
        ts[j]->watched_worse /= W;
        ts[j]->watched_beyond /= W;
        ts[j]->equivalent /= W;
    }
}

static void paired_cells(void **state)
{
    (void)state;
    rd_stats_init();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261203);
    const double alpha = 0.05;
    const double bound = alpha + 3 * sqrt(alpha * (1 - alpha) /
                                          calibration_workloads(DEFAULT_WORKLOADS));
    const size_t ks[] = { 2, 5, 15 }, ns[] = { 5, 10, 30 };
    const double cvs[] = { 0.03, 0.20 }, blocks[] = { 0, 0.20 };
    int off = 0;
    double worst = 0;
    printf("k n cv block gaps | A/A any worse p (u) | A/A equivalent p (u) | +2%%: >5%% p | "
           "-3%%: worse p | +5%%: worse p (u)\n");
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 2; c++)
                for (size_t d = 0; d < 2; d++)
                    for (int g = 0; g < 2; g++) {
                        struct cell cell = { ks[a], ns[b], cvs[c], blocks[d], g == 1 };
                        struct tally aa, aau, two, twou, bet, betu, five, fiveu;
                        simulate(rng, &cell, 1, &aa, &aau);
                        simulate(rng, &cell, 1.02, &two, &twou);
                        simulate(rng, &cell, 0.97, &bet, &betu);
                        simulate(rng, &cell, 1.05, &five, &fiveu);
                        printf("%zu %zu %.0f%% %.0f%% %s | %.4f (%.4f) | %.4f (%.4f) | %.4f | "
                               "%.4f | %.4f (%.4f)\n",
                               cell.k, cell.n, 100 * cell.cv, 100 * cell.block,
                               cell.gaps ? "gaps" : "full", aa.any_worse, aau.any_worse,
                               aa.equivalent, aau.equivalent, two.watched_beyond,
                               bet.watched_worse, five.watched_worse, fiveu.watched_worse);
                        worst = fmax(worst, fmax(aa.any_worse,
                                                 fmax(two.watched_beyond, bet.watched_worse)));
                        if (aa.any_worse > bound || two.watched_beyond > bound ||
                            bet.watched_worse > bound) {
                            printf("  ^ above the bound\n");
                            off++;
                        }
                        if (cell.block > 0 && cell.cv < 0.1 && cell.n == 10 && cell.k <= 5 &&
                            !cell.gaps)
                            assert_true(five.watched_worse >= 2 * fiveu.watched_worse);
                    }
    printf("worst paired rate %.4f, bound %.4f\n", worst, bound);
    gsl_rng_free(rng);
    assert_int_equal(off, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paired_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
