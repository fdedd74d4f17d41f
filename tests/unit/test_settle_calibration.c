// links: rd_analyze
/*
 * The adaptive stopping rule's error rates by simulation (docs/methods.md,
 * "Adaptive collection"). A/A: suites of k = 2, 5 and 10 identical
 * configs, normal data with CV 3 % and 20 %, collected as an adaptive
 * suite collects them (stats/settle.h: min 5, max 40 runs, target half the
 * 5 % margin; every round adds a run to each config until every config is
 * precise or at max), then judged by
 * the verdicts (stats/verdict.h) as the analysis judges them. The share of
 * suites in which any config is called worse must stay within alpha plus
 * twice its Monte Carlo standard error (sqrt(alpha (1 - alpha) / 2000) =
 * 0.0049), as in test_verdict_calibration.c. Power: one config truly 10 %
 * slower, called worse; at CV 3 % in at least 95 % of suites. The rates
 * and the mean runs per config are printed as the table in the docs.
 * RD_SETTLE_SUITES=N runs N suites per cell instead of 2,000.
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

#include "settle.h"
#include "verdict.h"

enum { MAX_K = 10, RUNS_MIN = 5, RUNS_MAX = 40 };

static int suites_per_cell(void)
{
    const char *e = getenv("RD_SETTLE_SUITES");
    int n = e ? atoi(e) : 0;
    return n >= 100 ? n : 2000;
}

struct cell {
    double worse;     /* share of suites with the watched config(s) worse */
    double mean_runs; /* runs per config, averaged */
    double at_max;    /* share of configs stopped at max */
};

/* Collects and judges 'suites' suites of k configs of mean 100 and sd
 * 100 cv; config 1 is 'shift' times slower. watch < 0: any config worse. */
static struct cell simulate(gsl_rng *rng, int suites, size_t k, double cv, double shift,
                            int watch)
{
    const struct rd_settle_rule rule = { RUNS_MIN, RUNS_MAX, 0.025, 0.05 };
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    size_t hits = 0, runs = 0, at_max = 0;
    for (int w = 0; w < suites; w++) {
        /* Welford sums per config: what the runner keeps */
        double n[MAX_K] = { 0 }, mean[MAX_K] = { 0 }, m2[MAX_K] = { 0 };
        enum rd_settle_state st[MAX_K];
        for (size_t i = 0; i < k; i++)
            st[i] = RD_SETTLE_OPEN;
        bool done = false;
        while (!done) {
            for (size_t i = 0; i < k; i++) {
                if (!rd_settle_collects(st[i], done))
                    continue;
                double x = 100 * (i == 1 ? shift : 1) + gsl_ran_gaussian(rng, 100 * cv);
                n[i]++;
                double dlt = x - mean[i];
                mean[i] += dlt / n[i];
                m2[i] += dlt * (x - mean[i]);
            }
            for (size_t i = 0; i < k; i++)
                st[i] = rd_settle_config(&rule, (long)n[i], n[i], mean[i],
                                         n[i] > 1 ? sqrt(m2[i] / (n[i] - 1)) : NAN, k);
            done = rd_settle_done(st, k);
        }
        struct rd_verdict_sample x[MAX_K];
        for (size_t i = 0; i < k; i++) {
            x[i] = (struct rd_verdict_sample){ n[i], mean[i], sqrt(m2[i] / (n[i] - 1)), true };
            runs += (size_t)n[i];
            at_max += st[i] == RD_SETTLE_MAX;
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
    return (struct cell){ (double)hits / suites, (double)runs / ((double)suites * (double)k),
                          (double)at_max / ((double)suites * (double)k) };
}

static const size_t ks[] = { 2, 5, 10 };
static const double cvs[] = { 0.03, 0.20 };

static void false_positives_stay_within_alpha(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261220);
    const int suites = suites_per_cell();
    const double alpha = 0.05, bound = alpha + 2 * sqrt(alpha * (1 - alpha) / suites);
    double worst = 0;
    for (size_t a = 0; a < 3; a++)
        for (size_t c = 0; c < 2; c++) {
            struct cell r = simulate(rng, suites, ks[a], cvs[c], 1, -1);
            printf("| A/A | %zu | %.0f %% | %.4f | %.1f | %.2f |\n", ks[a], 100 * cvs[c],
                   r.worse, r.mean_runs, r.at_max);
            worst = fmax(worst, r.worse);
        }
    printf("A/A bound (alpha + 2 MC se, %d suites per cell): %.4f\n", suites, bound);
    assert_true(worst <= bound);
    gsl_rng_free(rng);
}

static void a_ten_percent_difference_is_found(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261221);
    const int suites = suites_per_cell();
    for (size_t a = 0; a < 3; a++)
        for (size_t c = 0; c < 2; c++) {
            struct cell r = simulate(rng, suites, ks[a], cvs[c], 1.10, 1);
            printf("| 10 %% slower | %zu | %.0f %% | %.4f | %.1f | %.2f |\n", ks[a],
                   100 * cvs[c], r.worse, r.mean_runs, r.at_max);
            if (cvs[c] < 0.05)
                assert_true(r.worse >= 0.95);
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
