// links: rd_stats
/*
 * test_machines - the between-machine interval of a ratio (DerSimonian-
 * Laird, HKSJ with the spread floored at 1) and Cochran's Q
 * (stats/machines.c), against R 4.2 (r-base-core), by hand in base R
 * (metafor is not installed; rma(y, sei = se, method = "DL", test =
 * "adhoc") is the same method):
 *
 *   dl <- function(y, se, level=0.95) {
 *     k <- length(y); w <- 1/se^2; yw <- sum(w*y)/sum(w)
 *     q <- sum(w*(y-yw)^2)
 *     tau2 <- max(0, (q-(k-1))/(sum(w)-sum(w^2)/sum(w)))
 *     ws <- 1/(se^2+tau2); mu <- sum(ws*y)/sum(ws)
 *     s <- sum(ws*(y-mu)^2)/(k-1)
 *     half <- qt(1-(1-level)/2, k-1)*sqrt(max(1,s)/sum(ws))
 *     c(exp(mu), exp(mu-half), exp(mu+half), tau2, q, pchisq(q,k-1,lower.tail=FALSE), s) }
 *   dl(log(c(1.27, 1.31)), c(0.008, 0.012))
 *     1.288182257842676925 1.058554015184936858 1.567622913537147999
 *     0.000376817391414818 4.623244148219404437 0.031541528998768456 1
 *   dl(log(c(1.27, 1.31, 1.12)), c(0.008, 0.012, 0.02), 0.90)
 *     1.23355139622886 1.07472113006006 1.41585477811638
 *     3.32742415485038e-03 45.7818967743472 1.14442524639829e-10 1.89671025826160
 *   dl(log(c(1.27, 1.275)), c(0.02, 0.02))       (s < 1: the floor holds)
 *     1.2724975442019524 1.0632057843358476 1.5229883281828611
 *     0 0.0192990333757666 0.8895126071759515 0.0192990333757666
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
    near(b.ratio, 1.288182257842676925);
    near(b.low, 1.058554015184936858);
    near(b.high, 1.567622913537147999);
    near(b.tau2, 0.000376817391414818);
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
    near(b.ratio, 1.23355139622886);
    near(b.low, 1.07472113006006);
    near(b.high, 1.41585477811638);
    near(b.tau2, 3.32742415485038e-03);
    near(b.q, 45.7818967743472);
    near(b.q_p, 1.14442524639829e-10);
    assert_false(b.consistent);
}

static void test_close_machines_floor(void **state)
{
    (void)state;
    struct rd_machine_ratio m[] = {{log(1.27), 0.02}, {log(1.275), 0.02}};
    struct rd_between_machines b;
    assert_int_equal(rd_between_machines(m, 2, 0.95, 0.05, &b), RD_OK);
    near(b.ratio, 1.2724975442019524);
    near(b.low, 1.0632057843358476);
    near(b.high, 1.5229883281828611);
    assert_true(b.tau2 == 0);
    near(b.q_p, 0.8895126071759515);
    assert_true(b.consistent);
}

static void test_one_machine_no_claim(void **state)
{
    (void)state;
    struct rd_machine_ratio m[] = {{log(2), 0.1}};
    struct rd_between_machines b;
    assert_int_equal(rd_between_machines(m, 1, 0.95, 0.05, &b), RD_OK);
    assert_int_equal(b.k, 1);
    near(b.ratio, 2);
    assert_true(isnan(b.low) && isnan(b.high) && isnan(b.q) && isnan(b.q_p) && isnan(b.tau2));
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
    /* log_sd 0: the linear relative variance alone */
    struct rd_ratio_side a = {5, 12.7, 0.3, 0}, b = {6, 10, 0.2, 0};
    assert_int_equal(rd_log_ratio(&a, &b, 0.95, &r), RD_OK);
    near(r.log_ratio, 0.23901690047050);
    near(r.se, 0.01335166243833);
    near(r.df, 7.93972661259597);
    near(r.low, 1.23144364990846);
    near(r.high, 1.30976354469804);
    /* Not estimable: a mean not positive, one run. */
    a = (struct rd_ratio_side){5, -1, 0.3, 0};
    assert_int_equal(rd_log_ratio(&a, &b, 0.95, &r), RD_OK);
    assert_true(isnan(r.log_ratio) && isnan(r.low));
    a = (struct rd_ratio_side){1, 12, 0, 0};
    assert_int_equal(rd_log_ratio(&a, &b, 0.95, &r), RD_OK);
    assert_true(isnan(r.log_ratio));
    /* No spread: the point is its own interval. */
    a = (struct rd_ratio_side){3, 12, 0, 0};
    b = (struct rd_ratio_side){3, 10, 0, 0};
    assert_int_equal(rd_log_ratio(&a, &b, 0.95, &r), RD_OK);
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
 * ratio at least 95 % of the time (HKSJ holds its level for normal
 * machine effects; the floor of its spread factor at 1 makes it a little
 * conservative: 0.9607 here, so at most 0.975 is allowed), and Q must see
 * the machines differ most of the time.
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
    if (fabs(fp - 0.05) > 0.006 || cover < 0.944 || cover > 0.975 || detected < reps * 0.7)
        fail_msg("false positives %.4f, coverage %.4f, detected %.4f", fp, cover,
                 (double)detected / reps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_machines),
        cmocka_unit_test(test_three_machines_one_not_estimable),
        cmocka_unit_test(test_close_machines_floor),
        cmocka_unit_test(test_one_machine_no_claim),
        cmocka_unit_test(test_log_ratio),
        cmocka_unit_test(test_calibration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
