// links: rd_analyze
/*
 * The verdict procedure's error rates by simulation (docs/methods.md,
 * "Calibration"). A/A: workloads of k = 2, 5 and 10 configs drawn from one
 * lognormal distribution (seeded), n = 5 and 20 runs each, 2,000
 * workloads per cell, at three spreads. The share of workloads in which
 * any config is called worse must stay within alpha plus twice its Monte
 * Carlo standard error (sqrt(alpha (1 - alpha) / 2000) = 0.0049). Power:
 * one config truly 10 % slower, n = 20, CV 3 %: called worse in at least
 * 95 % of workloads. The rates are printed for the docs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats.h"
#include "verdict.h"

enum { WORKLOADS = 2000, MAX_K = 10, MAX_N = 20 };

/* Share of workloads in which config 'watch' (or, with watch < 0, any
 * config) is called worse. Config 1 is 'shift' times slower. */
static double share_called_worse(gsl_rng *rng, size_t k, size_t n, double sigma,
                                 double shift, int watch)
{
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    size_t hits = 0;
    for (int w = 0; w < WORKLOADS; w++) {
        struct rd_verdict_sample x[MAX_K];
        for (size_t i = 0; i < k; i++) {
            double v[MAX_N];
            for (size_t j = 0; j < n; j++)
                v[j] = gsl_ran_lognormal(rng, 0, sigma) * (i == 1 ? shift : 1);
            x[i] = (struct rd_verdict_sample){ (double)n, rd_stats_mean(v, n),
                                               rd_stats_sd(v, n), true };
        }
        struct rd_verdict_row rows[MAX_K];
        struct rd_verdict_result res;
        assert_int_equal(rd_verdict_decide(x, k, &s, rows, &res), RD_OK);
        bool worse = false;
        for (size_t i = 0; i < k; i++)
            if ((watch < 0 || (size_t)watch == i) && rows[i].verdict == RD_VERDICT_WORSE)
                worse = true;
        hits += worse;
    }
    return (double)hits / WORKLOADS;
}

static void false_positives_stay_within_alpha(void **state)
{
    (void)state;
    rd_stats_init();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261201);
    const double alpha = 0.05, bound = alpha + 2 * sqrt(alpha * (1 - alpha) / WORKLOADS);
    const size_t ks[] = { 2, 5, 10 }, ns[] = { 5, 20 };
    const double sigmas[] = { 0.03, 0.10, 0.25 };
    double worst = 0;
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 2; b++)
            for (size_t c = 0; c < 3; c++) {
                double rate = share_called_worse(rng, ks[a], ns[b], sigmas[c], 1, -1);
                printf("A/A k=%zu n=%zu sigma=%.2f: any config called worse in %.4f\n",
                       ks[a], ns[b], sigmas[c], rate);
                worst = fmax(worst, rate);
                assert_true(rate <= bound);
            }
    printf("A/A: worst share %.4f, bound %.4f\n", worst, bound);
    gsl_rng_free(rng);
}

static void a_ten_percent_difference_is_found(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261202);
    const size_t ks[] = { 2, 5, 10 };
    for (size_t a = 0; a < 3; a++) {
        double rate = share_called_worse(rng, ks[a], 20, 0.03, 1.10, 1);
        printf("power k=%zu n=20 CV 3%% 10%% slower: called worse in %.4f\n", ks[a], rate);
        assert_true(rate >= 0.95);
    }
    gsl_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(false_positives_stay_within_alpha),
        cmocka_unit_test(a_ten_percent_difference_is_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
