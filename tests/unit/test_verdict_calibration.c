// links: rd_analyze
/*
 * The verdict procedure's error rates and power by simulation
 * (docs/methods.md, "Calibration"): seeded, small enough for make test;
 * bench/verdict-calibration.sh runs the same cells with more workloads
 * (RD_CALIBRATION_WORKLOADS) for the table in docs/methods.md.
 *
 * Cells: k = 2, 5 and 15 configs, n = 5, 10 and 20 runs each, lognormal
 * runs of CV 3 % or 20 % for every config, or unequal spreads (CV 3 % for
 * even configs, 30 % for odd ones). In every cell:
 *
 * - A/A (every config drawn alike): the share of workloads in which any
 *   config is called worse is at most alpha plus three Monte Carlo
 *   standard errors, sqrt(alpha (1 - alpha) / W), at the W = 1,000 of
 *   make test (27 cells are checked at once: with two standard errors
 *   one would fail by chance about every other run); the bench's table
 *   in docs/methods.md is read against two, at W = 20,000. Unequal
 *   spreads too, since a run's relative variance is the larger of the
 *   linear and the log-scale estimate (stats/logratio.h: the linear one
 *   alone ran liberal there and was held to 2 alpha);
 * - one config truly 2 % slower: the share in which it is called more
 *   than 5 % slower (beyond_margin) is at most the same bound;
 * - A/A equivalence power: where the independent check measured
 *   MCB + TOST at alpha (k = 2, n = 5: 52.7 %; k = 5, n = 10: 45.8 %;
 *   k = 15, n = 20: 89.6 %; CV 3 %), the share decided equivalent is at
 *   least 90 % of that.
 * And one config truly 10 % slower, n = 20, CV 3 %: called worse in at
 * least 95 % of workloads. The rates are printed for the docs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "calibration_test.h"
#include "stats.h"
#include "verdict.h"

enum { DEFAULT_WORKLOADS = 1000, MAX_K = 15, MAX_N = 20 };

static int workloads(void)
{
    return calibration_workloads(DEFAULT_WORKLOADS);
}

struct tally {
    double any_worse, watched_worse, watched_beyond, equivalent;
};

/* Config 1 is 'shift' times slower; cv_odd is the CV of odd configs. */
static struct tally simulate(gsl_rng *rng, size_t k, size_t n, double cv, double cv_odd,
                             double shift)
{
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    struct tally t = { 0, 0, 0, 0 };
    const int W = workloads();
    for (int w = 0; w < W; w++) {
        struct rd_verdict_sample x[MAX_K];
        for (size_t i = 0; i < k; i++) {
            /* lognormal of CV c and mean 1: sigma^2 = log(1 + c^2),
             * mu = -sigma^2 / 2 */
            double sigma = sqrt(log1p(pow(i % 2 ? cv_odd : cv, 2)));
            double v[MAX_N];
            for (size_t j = 0; j < n; j++)
                v[j] = gsl_ran_lognormal(rng, -0.5 * sigma * sigma, sigma) * (i == 1 ? shift : 1);
            x[i] = rd_verdict_sample_of(v, n, true);
        }
        struct rd_verdict_row rows[MAX_K];
        struct rd_verdict_result res;
        assert_int_equal(rd_verdict_decide(x, k, &s, rows, &res), RD_OK);
        bool any = false;
        for (size_t i = 0; i < k; i++)
            any |= rows[i].verdict == RD_VERDICT_WORSE;
        t.any_worse += any;
        t.watched_worse += rows[1].verdict == RD_VERDICT_WORSE;
        t.watched_beyond += rows[1].verdict == RD_VERDICT_WORSE && rows[1].beyond_margin == 1;
        t.equivalent += res.decision == RD_DECISION_EQUIVALENT;
    }
    t.any_worse /= W;
    t.watched_worse /= W;
    t.watched_beyond /= W;
    t.equivalent /= W;
    return t;
}

/* The MCB + TOST reference for A/A equivalence at CV 3 %, or 0. */
static double reference_equivalence(size_t k, size_t n)
{
    if (k == 2 && n == 5)
        return 0.527;
    if (k == 5 && n == 10)
        return 0.458;
    if (k == 15 && n == 20)
        return 0.896;
    return 0;
}

static void calibration_cells(void **state)
{
    (void)state;
    rd_stats_init();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261202);
    const double alpha = 0.05, bound = alpha + 3 * sqrt(alpha * (1 - alpha) / workloads());
    const size_t ks[] = { 2, 5, 15 }, ns[] = { 5, 10, 20 };
    const struct { double cv, cv_odd; const char *name; } spreads[] = {
        { 0.03, 0.03, "CV 3%" }, { 0.20, 0.20, "CV 20%" }, { 0.03, 0.30, "CV 3%/30%" } };
    double worst_aa = 0, worst_beyond = 0;
    int off = 0;
    printf("k n spread | A/A any worse | A/A equivalent | +2%%: >5%% slower | +2%%: slower\n");
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 3; c++) {
                struct tally aa = simulate(rng, ks[a], ns[b], spreads[c].cv, spreads[c].cv_odd, 1);
                struct tally two = simulate(rng, ks[a], ns[b], spreads[c].cv, spreads[c].cv_odd,
                                            1.02);
                printf("%zu %zu %s | %.4f | %.4f | %.4f | %.4f\n", ks[a], ns[b], spreads[c].name,
                       aa.any_worse, aa.equivalent, two.watched_beyond, two.watched_worse);
                worst_aa = fmax(worst_aa, aa.any_worse);
                worst_beyond = fmax(worst_beyond, two.watched_beyond);
                if (aa.any_worse > bound || two.watched_beyond > bound) {
                    printf("  ^ above the bound\n");
                    off++;
                }
                double ref = reference_equivalence(ks[a], ns[b]);
                if (c == 0 && ref > 0) {
                    printf("  MCB + TOST reference %.3f: %.2f of it\n", ref, aa.equivalent / ref);
                    assert_true(aa.equivalent >= 0.9 * ref);
                }
            }
    printf("worst A/A any worse %.4f, worst +2%% called more than 5%% slower %.4f, bound %.4f\n",
           worst_aa, worst_beyond, bound);
    gsl_rng_free(rng);
    assert_int_equal(off, 0);
}

static void a_ten_percent_difference_is_found(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261203);
    const size_t ks[] = { 2, 5, 15 };
    for (size_t a = 0; a < 3; a++) {
        struct tally t = simulate(rng, ks[a], 20, 0.03, 0.03, 1.10);
        printf("power k=%zu n=20 CV 3%% 10%% slower: called worse in %.4f\n", ks[a],
               t.watched_worse);
        assert_true(t.watched_worse >= 0.95);
    }
    gsl_rng_free(rng);
}

/* runs_needed delivers: in workloads left inconclusive at the first look,
 * topping every config up to the runs_needed the verdicts named (fresh
 * runs appended to the first ones) settles at least 80 % of them. The
 * scenarios of the issue: A/A at k = 2 (n = 5 and 10) and k = 5, one
 * config truly 3 % and 8 % slower, and k = 5 with two tied bests (the
 * others 10 % slower); CV 3 %. 300 workloads per scenario; a named n
 * above 400 is taken as not delivered (keeps make test short). */
enum { LOOK_WORKLOADS = 300, MAX_RUNS = 400 };

static double settled_after_advice(gsl_rng *rng, size_t k, size_t n, const double *shift)
{
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    static double v[MAX_K][MAX_RUNS];
    double sigma = sqrt(log1p(0.03 * 0.03));
    size_t open = 0, settled = 0;
    for (int w = 0; w < LOOK_WORKLOADS; w++) {
        struct rd_verdict_sample x[MAX_K];
        for (size_t i = 0; i < k; i++) {
            for (size_t j = 0; j < n; j++)
                v[i][j] = gsl_ran_lognormal(rng, -0.5 * sigma * sigma, sigma) * shift[i];
            x[i] = rd_verdict_sample_of(v[i], n, true);
        }
        struct rd_verdict_row rows[MAX_K];
        struct rd_verdict_result res;
        assert_int_equal(rd_verdict_decide(x, k, &s, rows, &res), RD_OK);
        if (res.decision != RD_DECISION_INCONCLUSIVE)
            continue;
        open++;
        long need = 0;
        for (size_t i = 0; i < k; i++)
            need = rows[i].runs_needed > need ? rows[i].runs_needed : need;
        if (need <= 0 || need > MAX_RUNS)
            continue;
        for (size_t i = 0; i < k; i++) {
            for (size_t j = n; j < (size_t)need; j++)
                v[i][j] = gsl_ran_lognormal(rng, -0.5 * sigma * sigma, sigma) * shift[i];
            x[i] = rd_verdict_sample_of(v[i], (size_t)need, true);
        }
        assert_int_equal(rd_verdict_decide(x, k, &s, rows, &res), RD_OK);
        settled += res.decision != RD_DECISION_INCONCLUSIVE;
    }
    return open ? (double)settled / (double)open : 1;
}

static void runs_needed_delivers(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261204);
    const double aa[5] = { 1, 1, 1, 1, 1 }, plus3[2] = { 1, 1.03 }, plus8[2] = { 1, 1.08 };
    const double two_best[5] = { 1, 1, 1.1, 1.1, 1.1 };
    const struct { const char *name; size_t k, n; const double *shift; } sc[] = {
        { "A/A k=2 n=5", 2, 5, aa },   { "A/A k=2 n=10", 2, 10, aa },
        { "+3% k=2 n=5", 2, 5, plus3 }, { "+8% k=2 n=5", 2, 5, plus8 },
        { "A/A k=5 n=5", 5, 5, aa },   { "two tied bests k=5 n=5", 5, 5, two_best },
    };
    for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
        double rate = settled_after_advice(rng, sc[i].k, sc[i].n, sc[i].shift);
        printf("runs_needed %s: settled after the advice in %.3f of open workloads\n",
               sc[i].name, rate);
        assert_true(rate >= 0.8);
    }
    gsl_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calibration_cells),
        cmocka_unit_test(a_ten_percent_difference_is_found),
        cmocka_unit_test(runs_needed_delivers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
