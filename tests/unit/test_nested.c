// links: rd_analyze
/*
 * The two-level variance of a mean (stats/nested.c) and what it does to
 * the verdicts: an A/A simulation of configs whose runs come from several
 * sessions, each session offset by a draw of its own (docs/methods.md
 * §6a, "Sessions as a level of variance").
 *
 * Expected numbers in R 4.x (balanced: two sessions of three values):
 *   y <- c(1, 2, 3, 5, 6, 7); g <- factor(rep(1:2, each = 3))
 *   summary(aov(y ~ g))[[1]][["Mean Sq"]]  -> 24 1
 *   s_b^2 = (24 - 1) / 3 = 7.6666666666666667; share 7.666667 / 8.666667 = 0.88461538461538458
 *   var(tapply(y, g, mean)) / 2            -> 4 (= MSB / N), df 1
 * Unequal sessions, by hand: y = 1, 2, 3, 4, 5 | 9; means 3 and 9, grand
 *   mean 4; SSB = 5 * 1 + 1 * 25 = 30 = MSB (1 df); SSW = 10, MSW = 2.5 (4
 *   df); sum n_j^2 = 26, n0 = 6 - 26 / 6 = 5 / 3; a = 26 / (36 * 5 / 3) =
 *   13 / 30, b = 1 / 6 - 13 / 30 = -4 / 15; var(mean) = 13 - 2 / 3 = 37 / 3;
 *   Satterthwaite (37/3)^2 / (13^2 / 1 + (2/3)^2 / 4) = 0.8995 df, below
 *   both parts' (1 and 4): floored at 1.
 * Sessions that differ less than their runs (MSB < MSW): s_b^2 = 0 and
 *   z <- c(1, 5, 3, 2, 4, 3); summary(aov(z ~ g))[[1]][["Mean Sq"]]
 *                                          -> 2e-31 2.5: var 2.5 / 6 = 0.41666666666666669 at 4 df
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "nested.h"
#include "stats.h"
#include "verdict.h"

static void balanced_and_truncated(void **state)
{
    (void)state;
    static const uint32_t g[] = { 0, 0, 0, 1, 1, 1 };
    static const double y[] = { 1, 2, 3, 5, 6, 7 };
    struct rd_nested nv;
    assert_int_equal(rd_nested_mean_var(y, g, 6, 2, &nv), 1);
    assert_int_equal(nv.sessions, 2);
    assert_true(fabs(nv.var_within - 1) < 1e-14);
    assert_true(fabs(nv.var_between - 7.6666666666666667) < 1e-13);
    assert_true(fabs(nv.share - 0.88461538461538458) < 1e-14);
    assert_true(fabs(nv.var_mean - 4) < 1e-13);
    assert_true(fabs(nv.df - 1) < 1e-12);
    static const double z[] = { 1, 5, 3, 2, 4, 3 };
    assert_int_equal(rd_nested_mean_var(z, g, 6, 2, &nv), 1);
    assert_true(nv.var_between == 0 && nv.share == 0);
    assert_true(fabs(nv.var_mean - 0.41666666666666669) < 1e-14);
    assert_true(nv.df == 4);
    static const uint32_t g51[] = { 0, 0, 0, 0, 0, 1 };
    static const double u[] = { 1, 2, 3, 4, 5, 9 };
    assert_int_equal(rd_nested_mean_var(u, g51, 6, 2, &nv), 1);
    assert_true(fabs(nv.var_mean - 37.0 / 3) < 1e-13);
    assert_true(fabs(nv.var_between - 16.5) < 1e-13);
    assert_true(nv.df == 1);
    /* One session, or sessions of one value each: the one-level variance
     * is right, and nothing is returned. */
    static const uint32_t one[] = { 0, 0, 0, 0, 0, 0 }, each[] = { 0, 1, 2, 3, 4, 5 };
    assert_int_equal(rd_nested_mean_var(y, one, 6, 1, &nv), 0);
    assert_int_equal(nv.sessions, 1);
    assert_int_equal(rd_nested_mean_var(y, each, 6, 6, &nv), 0);
    assert_int_equal(nv.sessions, 6);
}

enum { W = 1000, K = 2, MAXRUNS = 15 };

/* A/A: K configs, each of sessions of the sizes size[0..m) (MAXRUNS runs
 * at most), a session offset of sd 'between' (relative) and runs of CV
 * 'within'. The share of workloads with any config called worse, with the
 * two-level variance (two_level) or with every run pooled as one level. */
static double any_worse(gsl_rng *rng, const size_t *size, size_t m, double between,
                        double within, bool two_level)
{
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    int hits = 0;
    for (int w = 0; w < W; w++) {
        struct rd_verdict_sample x[K];
        for (size_t i = 0; i < K; i++) {
            double v[MAXRUNS];
            uint32_t g[MAXRUNS];
            size_t n = 0;
            for (size_t j = 0; j < m; j++) {
                double off = 1 + gsl_ran_gaussian(rng, between);
                for (size_t r = 0; r < size[j]; r++, n++) {
                    v[n] = off * (1 + gsl_ran_gaussian(rng, within));
                    g[n] = (uint32_t)j;
                }
            }
            /* as analyze/levels.c reads a config: both the values' and
             * their logs' variance two-level */
            x[i] = rd_verdict_sample_of(v, n, true);
            double lg[MAXRUNS];
            for (size_t j = 0; j < n; j++)
                lg[j] = log(v[j]);
            struct rd_nested nv, nl;
            if (two_level && rd_nested_mean_var(v, g, n, m, &nv) == 1 &&
                rd_nested_mean_var(lg, g, n, m, &nl) == 1) {
                x[i].sd = sqrt(nv.var_mean * (double)n);
                x[i].df = nv.df;
                x[i].log_sd = sqrt(nl.var_mean * (double)n);
            }
        }
        struct rd_verdict_row rows[K];
        struct rd_verdict_result res;
        assert_int_equal(rd_verdict_decide(x, K, &s, rows, &res), RD_OK);
        bool any = false;
        for (size_t i = 0; i < K; i++)
            any |= rows[i].verdict == RD_VERDICT_WORSE;
        hits += any;
    }
    return (double)hits / W;
}

/* Sessions offset by 10 % (sd), runs of CV 3 %: pooled as one level, an
 * A/A pair is called worse far more often than alpha; with the two-level
 * variance at most alpha + 3 Monte Carlo standard errors (0.0707), for
 * three sessions of 5 runs and for unequal ones (11 + 3 + 1, where
 * Satterthwaite's df falls below m - 1 and is floored there). With no
 * session effect (runs of CV 10 %, wide enough that equivalence within the
 * 5 % margin does not take the pairs first) the two-level rule stays
 * calibrated too. */
static void sessions_keep_alpha(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261202);
    const double bound = 0.05 + 3 * sqrt(0.05 * 0.95 / W);
    static const size_t equal[] = { 5, 5, 5 }, unequal[] = { 11, 3, 1 };
    double pooled = any_worse(rng, equal, 3, 0.10, 0.03, false);
    double two = any_worse(rng, equal, 3, 0.10, 0.03, true);
    double none = any_worse(rng, equal, 3, 0, 0.10, true);
    double two_unequal = any_worse(rng, unequal, 3, 0.10, 0.03, true);
    double none_unequal = any_worse(rng, unequal, 3, 0, 0.10, true);
    print_message("A/A any worse, sessions offset 10 %%: pooled %.3f, two-level %.3f, "
                  "unequal sessions %.3f; no offset, two-level %.3f, unequal %.3f "
                  "(bound %.4f)\n", pooled, two, two_unequal, none, none_unequal, bound);
    assert_true(pooled > 2 * 0.05);
    assert_true(two <= bound);
    assert_true(none <= bound);
    assert_true(two_unequal <= bound);
    assert_true(none_unequal <= bound);
    gsl_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(balanced_and_truncated),
        cmocka_unit_test(sessions_keep_alpha),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
