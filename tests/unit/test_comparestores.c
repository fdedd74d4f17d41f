// links: rd_analyze
/*
 * Old against new (comparestores.c): the numbers of one comparison
 * against SciPy, the verdicts read off the interval, and the gate's
 * error rates by simulation (docs/methods.md, "Comparing two sets of
 * runs").
 *
 * Reference values, by formula in R (Bonferroni over m: the interval of
 * new/old on the log scale, exp(log r +- c se) with the delta-method se,
 * at c = t_{1-alpha/(2m)} with the log-scale Welch df rounded down,
 * p = min(1, m * 2 * pt(-|t|, df)), t = log r / se):
 *
 *   cmp <- function(old, new, m, alpha = 0.05) {
 *     n1 <- old[1]; m1 <- old[2]; s1 <- old[3]; n2 <- new[1]; m2 <- new[2]; s2 <- new[3]
 *     va <- (s2 / m2)^2 / n2; vb <- (s1 / m1)^2 / n1
 *     df <- floor((va + vb)^2 / (va^2 / (n2 - 1) + vb^2 / (n1 - 1)))
 *     c <- qt(1 - alpha / (2 * m), df); lr <- log(m2 / m1); se <- sqrt(va + vb)
 *     c(df, m2 / m1, exp(lr - c * se), exp(lr + c * se), min(1, m * 2 * pt(-abs(lr / se), df)))
 *   }
 *   cmp(c(10, 100, 3), c(10, 110, 3.3), 4)
 *     18 1.1 1.05980610350154 1.14171827846832 5.09618083760105e-06
 *
 * (The relative variances as (s / m)^2 / n, as stats/logratio.c has them:
 * s^2 / (n m^2) makes the first pair's df 17.999999999999996 in doubles,
 * floored to 17; it is 18. These rows carry no runs, so no log-scale sd:
 * the linear estimate alone.)
 *
 *   cmp(c(6, 50, 2), c(8, 46, 1.5), 3)
 *     9 0.92 0.867606099713059 0.975557917677075 0.00722135741941438
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

#include "comparestores.h"
#include "moments.h"
#include "stats.h"

static void assert_close(double want, double got, double rel)
{
    if (!(fabs(want - got) <= rel * fabs(want))) {
        print_error("want %.17g, got %.17g\n", want, got);
        fail();
    }
}

static struct rd_compare_row row_of(double n1, double m1, double s1, double n2, double m2,
                                    double s2)
{
    return (struct rd_compare_row){ .workload = "w", .config = "c", .metric = "wall_ms",
                                    .old = { .n = n1, .mean = m1, .sd = s1 },
                                    .new_ = { .n = n2, .mean = m2, .sd = s2 } };
}

static void matches_scipy(void **state)
{
    (void)state;
    rd_stats_init();
    struct rd_compare_settings s;
    rd_compare_settings_init(&s);
    /* Four comparisons: the first 10 % slower, the others A/A. */
    struct rd_compare_row rows[4] = {
        row_of(10, 100, 3, 10, 110, 3.3), row_of(10, 5, 0.1, 10, 5, 0.1),
        row_of(10, 7, 0.1, 10, 7, 0.1), row_of(10, 9, 0.1, 10, 9, 0.1),
    };
    size_t m, flagged;
    s.fail_if_slower = 0.05;
    assert_int_equal(rd_compare_decide(rows, 4, &s, &m, &flagged), RD_OK);
    assert_int_equal(m, 4);
    assert_close(1.1, rows[0].ratio, 1e-12);
    assert_close(1.05980610350154, rows[0].ratio_ci_low, 1e-9);
    assert_close(1.14171827846832, rows[0].ratio_ci_high, 1e-9);
    assert_close(5.09618083760105e-06, rows[0].p_adjusted, 1e-6);
    assert_int_equal(rows[0].change, RD_CHANGE_SLOWER);
    /* lower bound +5.98 % > +5 %: the gate fires on it alone */
    assert_true(rows[0].regression);
    assert_int_equal(flagged, 1);
    assert_int_equal(rows[1].change, RD_CHANGE_EQUIVALENT);
    assert_close(1, rows[1].p_adjusted, 1e-12);
    s.fail_if_slower = 0.06; /* beyond the lower bound: no flag */
    assert_int_equal(rd_compare_decide(rows, 4, &s, &m, &flagged), RD_OK);
    assert_false(rows[0].regression);
    assert_int_equal(flagged, 0);
}

/* New is the better side: the verdict machinery compares old with new,
 * and the interval of new / old is its reciprocal. */
static void faster_side_is_inverted(void **state)
{
    (void)state;
    struct rd_compare_settings s;
    rd_compare_settings_init(&s);
    struct rd_compare_row rows[3] = {
        row_of(6, 50, 2, 8, 46, 1.5), row_of(5, 1, 0.01, 5, 1, 0.01),
        row_of(5, 2, 0.01, 5, 2, 0.01),
    };
    size_t m, flagged;
    s.fail_if_slower = 0;
    assert_int_equal(rd_compare_decide(rows, 3, &s, &m, &flagged), RD_OK);
    assert_close(0.92, rows[0].ratio, 1e-12);
    assert_close(0.867606099713059, rows[0].ratio_ci_low, 1e-9);
    assert_close(0.975557917677075, rows[0].ratio_ci_high, 1e-9);
    assert_close(0.00722135741941438, rows[0].p_adjusted, 1e-6);
    assert_int_equal(rows[0].change, RD_CHANGE_FASTER);
    assert_int_equal(flagged, 0);
    /* For req/s the same numbers are a slowdown. */
    rows[0].higher_is_better = true;
    assert_int_equal(rd_compare_decide(rows, 3, &s, &m, &flagged), RD_OK);
    assert_int_equal(rows[0].change, RD_CHANGE_SLOWER);
    assert_true(rows[0].regression);
}

static void exact_and_missing_sides(void **state)
{
    (void)state;
    struct rd_compare_settings s;
    rd_compare_settings_init(&s);
    s.fail_if_slower = 0.1;
    struct rd_compare_row rows[4] = {
        row_of(5, 5, 0, 5, 6, 0),          /* constant: exactly +20 % */
        row_of(5, 5, 0, 5, 5, 0),          /* constant, equal */
        row_of(1, 5, NAN, 5, 6, 0.1),      /* one old run: no verdict */
        row_of(0, NAN, NAN, 5, 6, 0.1),    /* only in new */
    };
    size_t m, flagged;
    assert_int_equal(rd_compare_decide(rows, 4, &s, &m, &flagged), RD_OK);
    assert_int_equal(m, 2);
    assert_true(rows[0].exact);
    assert_close(1.2, rows[0].ratio, 1e-12);
    assert_true(isnan(rows[0].p_adjusted));
    assert_int_equal(rows[0].change, RD_CHANGE_SLOWER);
    assert_true(rows[0].regression);
    assert_int_equal(rows[1].change, RD_CHANGE_EQUIVALENT);
    assert_int_equal(rows[2].change, RD_CHANGE_NONE);
    assert_int_equal(rows[3].change, RD_CHANGE_NONE);
    assert_false(rows[2].regression || rows[3].regression);
    assert_int_equal(flagged, 1);
    assert_string_equal(rd_change_name(RD_CHANGE_NONE), "—");
}

/* ---- the gate by simulation ---- */

enum { REPS = 2000, MAX_M = 50, MAX_N = 20 };

static struct rd_compare_side draw(gsl_rng *rng, size_t n, double sigma, double scale)
{
    double v[MAX_N];
    for (size_t j = 0; j < n; j++)
        v[j] = gsl_ran_lognormal(rng, 0, sigma) * scale;
    return (struct rd_compare_side){ (double)n, rd_stats_mean(v, n), rd_stats_sd(v, n), NAN,
                                     rd_log_sd(v, n) };
}

/* Share of repetitions in which --fail-if-slower 0 fires; comparison 0 is
 * 'shift' times worse in new (lower is better, or higher with 'higher'). */
static double share_gate_fires(gsl_rng *rng, size_t m, size_t n, double sigma, double shift,
                               bool higher, bool watch_first)
{
    struct rd_compare_settings s;
    rd_compare_settings_init(&s);
    s.fail_if_slower = 0;
    s.want_p = false;
    size_t hits = 0;
    static struct rd_compare_row rows[MAX_M];
    for (int rep = 0; rep < REPS; rep++) {
        for (size_t i = 0; i < m; i++) {
            double worse = i == 0 ? (higher ? 1 / shift : shift) : 1;
            rows[i] = row_of(0, 0, 0, 0, 0, 0);
            rows[i].higher_is_better = higher;
            rows[i].old = draw(rng, n, sigma, 1);
            rows[i].new_ = draw(rng, n, sigma, worse);
        }
        size_t fam, flagged;
        assert_int_equal(rd_compare_decide(rows, m, &s, &fam, &flagged), RD_OK);
        assert_int_equal(fam, m);
        hits += watch_first ? rows[0].regression : flagged > 0;
    }
    return (double)hits / REPS;
}

static void a_a_gate_stays_within_alpha(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261219);
    const double alpha = 0.05, bound = alpha + 2 * sqrt(alpha * (1 - alpha) / REPS);
    const size_t ms[] = { 1, 10, 50 }, ns[] = { 5, 20 };
    const double sigmas[] = { 0.03, 0.10 };
    double worst = 0;
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 2; b++)
            for (size_t c = 0; c < 2; c++)
                for (int higher = 0; higher < 2; higher++) {
                    double rate = share_gate_fires(rng, ms[a], ns[b], sigmas[c], 1, higher,
                                                   false);
                    printf("A/A m=%zu n=%zu sigma=%.2f %s: gate fires in %.4f\n", ms[a], ns[b],
                           sigmas[c], higher ? "higher" : "lower", rate);
                    worst = fmax(worst, rate);
                    assert_true(rate <= bound);
                }
    printf("A/A: worst share %.4f, bound %.4f\n", worst, bound);
    gsl_rng_free(rng);
}

static void a_ten_percent_slowdown_is_caught(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261220);
    const size_t ms[] = { 1, 10, 50 };
    for (size_t a = 0; a < 3; a++)
        for (int higher = 0; higher < 2; higher++) {
            double rate = share_gate_fires(rng, ms[a], 20, 0.03, 1.10, higher, true);
            printf("power m=%zu n=20 CV 3%% 10%% slower (%s): caught in %.4f\n", ms[a],
                   higher ? "higher" : "lower", rate);
            assert_true(rate >= 0.95);
        }
    gsl_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches_scipy),
        cmocka_unit_test(faster_side_is_inverted),
        cmocka_unit_test(exact_and_missing_sides),
        cmocka_unit_test(a_a_gate_stays_within_alpha),
        cmocka_unit_test(a_ten_percent_slowdown_is_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
