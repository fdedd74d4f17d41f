// links: rd_stats
/*
 * The quantile search shared by stats/srange.c and stats/mcb.c
 * (stats/roots.c): a bracket grown by doubling, then Brent's method.
 *
 * Expected values are SciPy's:
 *   /usr/bin/python3 -c "from scipy.stats import norm, expon;
 *     print(repr(norm.ppf(0.975)), repr(expon.ppf(0.5, scale=1000)))"
 *   -> 1.959963984540054 693.1471805599452
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>

#include "roots.h"

static int calls;

static double normal_cdf(double x, void *arg)
{
    (void)arg;
    calls++;
    return gsl_cdf_ugaussian_P(x);
}

static double exponential_cdf(double x, void *arg)
{
    const double *mean = arg;
    calls++;
    return x <= 0 ? 0 : -expm1(-x / *mean);
}

static double nan_cdf(double x, void *arg)
{
    (void)x;
    (void)arg;
    return NAN;
}

static void test_quantile_in_first_bracket(void **state)
{
    (void)state;
    calls = 0;
    assert_float_equal(rd_root_quantile(normal_cdf, NULL, 0.975, -1, 3, true, 1e-12),
                       1.959963984540054, 1e-10);
    assert_true(calls > 2);
}

static void test_bracket_grows(void **state)
{
    (void)state;
    double mean = 1000;
    /* hi doubles from 1 to 1024 before it passes the median, with lo
     * raised to 512 or kept at 0. */
    assert_float_equal(rd_root_quantile(exponential_cdf, &mean, 0.5, 0, 1, true, 1e-9),
                       693.1471805599452, 1e-7);
    assert_float_equal(rd_root_quantile(exponential_cdf, &mean, 0.5, 0, 1, false, 1e-9),
                       693.1471805599452, 1e-7);
}

static void test_no_root(void **state)
{
    (void)state;
    double mean = 1e9;
    /* The median 6.9e8 lies past the 1e6 cap. */
    assert_true(isnan(rd_root_quantile(exponential_cdf, &mean, 0.5, 0, 1, true, 1e-9)));
    /* cdf(lo) above p: the bracket does not hold the root. */
    assert_true(isnan(rd_root_quantile(normal_cdf, NULL, 0.1, 0, 1, false, 1e-9)));
    assert_true(isnan(rd_root_quantile(nan_cdf, NULL, 0.5, 0, 1, true, 1e-9)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantile_in_first_bracket),
        cmocka_unit_test(test_bracket_grows),
        cmocka_unit_test(test_no_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
