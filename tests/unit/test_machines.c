// links: rd_stats
/*
 * test_machines - the between-machine interval of a ratio and Cochran's Q
 * (stats/machines.c), against R 4.2 (r-base-core):
 *
 *   y <- log(c(1.27, 1.31)); se <- c(0.008, 0.012)
 *   exp(t.test(y)$conf.int)      1.05919672088824 1.57071860891415
 *   exp(mean(y))                 1.28984495192252
 *   w <- 1/se^2; q <- sum(w*(y - sum(w*y)/sum(w))^2)
 *   q                            4.6232441482194
 *   pchisq(q, 1, lower.tail=FALSE)   0.0315415289987685
 *   y3 <- log(c(1.27, 1.31, 1.12)); se3 <- c(0.008, 0.012, 0.02)
 *   exp(t.test(y3, conf.level=0.9)$conf.int)   1.06990113144638 1.41531044808816
 *   exp(mean(y3))                1.23054550901517
 *   (q, p as above with 2 df)    45.7818967743472 1.14442524639829e-10
 *
 * The log ratio of two samples (delta method, Welch's df), by formula:
 *   m1=12.7; sd1=0.3; n1=5; m2=10; sd2=0.2; n2=6
 *   v1 = sd1^2/(n1*m1^2); v2 = sd2^2/(n2*m2^2); se=sqrt(v1+v2)
 *   df=(v1+v2)^2/(v1^2/(n1-1)+v2^2/(n2-1))
 *   c(log(m1/m2), se, df)   0.23901690047050 0.01335166243833 7.93972661259597
 *   exp(log(m1/m2) + c(-1,1)*qt(0.975, df)*se)   1.23144364990846 1.30976354469804
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "machines.h"

static void near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fabs(want)))
        fail_msg("got %.15g, want %.15g", got, want);
}

static void test_two_machines(void **state)
{
    (void)state;
    struct rd_machine_ratio m[] = {{log(1.27), 0.008}, {log(1.31), 0.012}};
    struct rd_between_machines b;
    assert_int_equal(rd_between_machines(m, 2, 0.95, 0.05, &b), RD_OK);
    assert_int_equal(b.k, 2);
    near(b.ratio, 1.28984495192252);
    near(b.low, 1.05919672088824);
    near(b.high, 1.57071860891415);
    near(b.q, 4.6232441482194);
    near(b.q_p, 0.0315415289987685);
    assert_false(b.consistent);               /* p < 0.05 */
    assert_int_equal(rd_between_machines(m, 2, 0.95, 0.01, &b), RD_OK);
    assert_true(b.consistent);                /* p >= 0.01 */
}

static void test_three_machines_one_not_estimable(void **state)
{
    (void)state;
    struct rd_machine_ratio m[] = {{log(1.27), 0.008}, {NAN, 0.01}, {log(1.31), 0.012},
                                   {log(1.5), 0}, {log(1.12), 0.02}};
    struct rd_between_machines b;
    assert_int_equal(rd_between_machines(m, 5, 0.90, 0.05, &b), RD_OK);
    assert_int_equal(b.k, 3);
    near(b.ratio, 1.23054550901517);
    near(b.low, 1.06990113144638);
    near(b.high, 1.41531044808816);
    near(b.q, 45.7818967743472);
    near(b.q_p, 1.14442524639829e-10);
    assert_false(b.consistent);
}

static void test_one_machine_no_claim(void **state)
{
    (void)state;
    struct rd_machine_ratio m[] = {{log(2), 0.1}};
    struct rd_between_machines b;
    assert_int_equal(rd_between_machines(m, 1, 0.95, 0.05, &b), RD_OK);
    assert_int_equal(b.k, 1);
    near(b.ratio, 2);
    assert_true(isnan(b.low) && isnan(b.high) && isnan(b.q) && isnan(b.q_p));
    assert_false(b.consistent);
    assert_int_equal(rd_between_machines(m, 0, 0.95, 0.05, &b), RD_OK);
    assert_int_equal(b.k, 0);
    assert_int_equal(rd_between_machines(m, 1, 1.0, 0.05, &b), RD_ERR_USAGE);
    assert_int_equal(rd_between_machines(m, 1, 0.95, 0, &b), RD_ERR_USAGE);
}

static void test_log_ratio(void **state)
{
    (void)state;
    struct rd_log_ratio r;
    assert_int_equal(rd_log_ratio(12.7, 0.3, 5, 10, 0.2, 6, 0.95, &r), RD_OK);
    near(r.log_ratio, 0.23901690047050);
    near(r.se, 0.01335166243833);
    near(r.df, 7.93972661259597);
    near(r.low, 1.23144364990846);
    near(r.high, 1.30976354469804);
    /* Not estimable: a mean not positive, one run. */
    assert_int_equal(rd_log_ratio(-1, 0.3, 5, 10, 0.2, 6, 0.95, &r), RD_OK);
    assert_true(isnan(r.log_ratio) && isnan(r.low));
    assert_int_equal(rd_log_ratio(12, 0, 1, 10, 0.2, 6, 0.95, &r), RD_OK);
    assert_true(isnan(r.log_ratio));
    /* No spread: the point is its own interval. */
    assert_int_equal(rd_log_ratio(12, 0, 3, 10, 0, 3, 0.95, &r), RD_OK);
    near(r.low, 1.2);
    near(r.high, 1.2);
    assert_true(r.se == 0);
}

/* A seeded normal: xorshift64* and Box-Muller (the test's own, so that
 * the check does not rest on the code under test). */
static uint64_t rng = 88172645463325252ULL;
static double uniform(void)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return ((rng * 2685821657736338717ULL) >> 11) * 0x1.0p-53 + 0x1.0p-54;
}
static double normal(void)
{
    return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/*
 * Seeded simulation, 20,000 studies of 3 machines. Same ratio on every
 * machine: Q's false-positive rate at alpha 0.05 must be 0.05 (Q is
 * exactly chi-square(2) here; binomial sd 0.0015, allowed 0.006). A
 * machine effect of sd 0.05 on top: the interval must cover the true
 * ratio 95 % of the time (the t interval is exact for normal machine
 * means), and Q must see the machines differ most of the time.
 */
static void test_calibration(void **state)
{
    (void)state;
    const int reps = 20000;
    const double se[3] = {0.01, 0.02, 0.015}, mu = log(1.3);
    int false_pos = 0, covered = 0, detected = 0;
    for (int r = 0; r < reps; r++) {
        struct rd_machine_ratio same[3], differ[3];
        for (int i = 0; i < 3; i++) {
            same[i] = (struct rd_machine_ratio){mu + se[i] * normal(), se[i]};
            differ[i] = (struct rd_machine_ratio){mu + 0.05 * normal() + se[i] * normal(), se[i]};
        }
        struct rd_between_machines b;
        assert_int_equal(rd_between_machines(same, 3, 0.95, 0.05, &b), RD_OK);
        false_pos += !b.consistent;
        assert_int_equal(rd_between_machines(differ, 3, 0.95, 0.05, &b), RD_OK);
        covered += b.low <= exp(mu) && exp(mu) <= b.high;
        detected += !b.consistent;
    }
    double fp = (double)false_pos / reps, cover = (double)covered / reps;
    if (fabs(fp - 0.05) > 0.006 || fabs(cover - 0.95) > 0.006 || detected < reps * 0.7)
        fail_msg("false positives %.4f, coverage %.4f, detected %.4f", fp, cover,
                 (double)detected / reps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_machines),
        cmocka_unit_test(test_three_machines_one_not_estimable),
        cmocka_unit_test(test_one_machine_no_claim),
        cmocka_unit_test(test_log_ratio),
        cmocka_unit_test(test_calibration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
