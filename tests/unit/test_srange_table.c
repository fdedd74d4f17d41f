// links: rd_stats
/*
 * The tabled tails of the studentized range (stats/srange.c, k >= 200)
 * against the integral they are tabled from (rd_srange_sf_integral), at
 * 10^4 seeded random points. The reference is the integral itself, the
 * one SciPy is matched against in test_verdict; this test checks only
 * what the tables add. The worst differences are printed and go into
 * docs/methods.md §6.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "srange.h"

/* 20 families (k, df) as the verdicts ask for them (k configs, a whole df)
 * times 500 ranges each: a table is built per (k, df), so points in few
 * families test many pieces of each, as a big workload does. */
enum { FAMILIES = 20, PER_FAMILY = 500 };

static void tables_match_the_integral(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(rng);
    gsl_rng_set(rng, 31);
    double worst_abs = 0, worst_rel = 0, at_k = 0, at_df = 0, at_q = 0;
    size_t compared_rel = 0;
    for (int f = 0; f < FAMILIES; f++) {
        /* k log-uniform in [200, 10^6], df log-uniform in [1, 1000]. */
        double k = floor(200 * pow(5000, gsl_rng_uniform(rng)));
        double df = floor(pow(1000, gsl_rng_uniform(rng)));
        for (int i = 0; i < PER_FAMILY; i++) {
            /* log(1 + q) uniform up to log(1 + 300): the p-values of a
             * workload from 1 down past 1e-30 for the larger df, and the
             * slow tails (q^-df) of the small ones. */
            double q = expm1(gsl_rng_uniform(rng) * log1p(300));
            double want = rd_srange_sf_integral(q, k, df);
            double got = rd_srange_sf(q, k, df);
            double abs_err = fabs(got - want);
            if (abs_err > worst_abs)
                worst_abs = abs_err;
            if (want >= 1e-28) {
                compared_rel++;
                double rel = abs_err / want;
                if (rel > worst_rel)
                    worst_rel = rel, at_k = k, at_df = df, at_q = q;
            } else {
                assert_true(got <= 1e-27);
            }
        }
    }
    gsl_rng_free(rng);
    print_message("tabled tail vs the integral, %d points (%zu >= 1e-28): max abs %.3g, "
                  "max rel %.3g (k %g, df %g, q %.6g)\n",
                  FAMILIES * PER_FAMILY, compared_rel, worst_abs, worst_rel, at_k, at_df, at_q);
    /* srange.h: absolute error below 1e-9, relative 1e-8 for small tails. */
    assert_true(worst_abs <= 1e-9);
    assert_true(worst_rel <= 1e-8);
}

/* A value does not depend on the calls before it: the same q gives the
 * same bits whether its piece was built for it or long before, and a
 * family evicted and tabled again gives them again (analyze's output
 * does not depend on --threads). */
static void values_do_not_depend_on_history(void **state)
{
    (void)state;
    const double qs[] = { 0.5, 7.25, 31, 4000 };
    double first[4];
    for (size_t i = 0; i < 4; i++)
        first[i] = rd_srange_sf(qs[i], 1000, 3);
    /* Nine other families evict (1000, 3) from the eight tables. */
    for (int k = 0; k < 9; k++)
        (void)rd_srange_sf(10, 300 + k, 3);
    for (size_t i = 4; i-- > 0;)
        assert_true(rd_srange_sf(qs[i], 1000, 3) == first[i]);
    /* Below k = 200 nothing is tabled. */
    assert_true(rd_srange_sf(7.25, 199, 3) == rd_srange_sf_integral(7.25, 199, 3));
}

int main(void)
{
    /* As analyze does (rd_stats_init): a quadrature short of its
     * tolerance returns its best estimate instead of aborting. */
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tables_match_the_integral),
        cmocka_unit_test(values_do_not_depend_on_history),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
