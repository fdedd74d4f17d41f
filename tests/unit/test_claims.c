// links: rd_analyze
/*
 * The judgement of a published claim against this machine's interval
 * (analyze/claims.c; docs/methods.md §7a). Every band below is worked by
 * hand: band = [lo (1 - m), hi (1 + m)].
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "claims.h"

#define RATIO(lo, hi, m, l, u) rd_claim_judge_ratio((lo), (hi), (m), (l), (u))

/* E's cold start, node/bun = 68.4 / 21.3 = 3.21127; m = 0.05: band
 * 3.21127 * 0.95 = 3.05070 to 3.21127 * 1.05 = 3.37183. */
static void test_point_claim_above_one(void **state)
{
    (void)state;
    double r = 68.4 / 21.3;
    /* This machine's 3.66-3.88 lies above 3.3718: the size differs. */
    assert_int_equal(RATIO(r, r, 0.05, 3.662, 3.881), RD_CLAIM_CONTRADICTED);
    /* 1.2-2.9 lies below 3.0507, the same direction but too small. */
    assert_int_equal(RATIO(r, r, 0.05, 1.2, 2.9), RD_CLAIM_CONTRADICTED);
    /* Meets the band and excludes 1. */
    assert_int_equal(RATIO(r, r, 0.05, 2.9, 3.1), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(r, r, 0.05, 1.01, 3.06), RD_CLAIM_CONSISTENT);
    /* Meets the band but holds 1 too: says nothing about the direction. */
    assert_int_equal(RATIO(r, r, 0.05, 0.9, 3.5), RD_CLAIM_INCONCLUSIVE);
    /* Just past the band's low end (3.0507) on either side. */
    assert_int_equal(RATIO(r, r, 0.05, 2.0, 3.050), RD_CLAIM_CONTRADICTED);
    assert_int_equal(RATIO(r, r, 0.05, 2.0, 3.051), RD_CLAIM_CONSISTENT);
}

/* A = 0.5 B, m = 0.05: band 0.475 to 0.525, below 1. */
static void test_point_claim_below_one(void **state)
{
    (void)state;
    assert_int_equal(RATIO(0.5, 0.5, 0.05, 0.3, 0.49), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(0.5, 0.5, 0.05, 0.45, 1.2), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(0.5, 0.5, 0.05, 0.53, 0.9), RD_CLAIM_CONTRADICTED);
    /* The direction reversed: the band is missed as well. */
    assert_int_equal(RATIO(0.5, 0.5, 0.05, 1.1, 1.4), RD_CLAIM_CONTRADICTED);
}

/* "Alike" (A's "WW and CP alike"), ratio 1, m = 0.05: band 0.95 to 1.05;
 * and 1.03, band 0.9785 to 1.0815, which holds 1 as well. */
static void test_likeness(void **state)
{
    (void)state;
    assert_int_equal(RATIO(1, 1, 0.05, 0.96, 1.04), RD_CLAIM_CONSISTENT);
    /* Bun's worker threads 0.846-0.945 of its child processes here. */
    assert_int_equal(RATIO(1, 1, 0.05, 0.846, 0.945), RD_CLAIM_CONTRADICTED);
    /* Meets the band but reaches past it: not shown alike. */
    assert_int_equal(RATIO(1, 1, 0.05, 0.829, 1.04), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(1.03, 1.03, 0.05, 0.99, 1.07), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(1.03, 1.03, 0.05, 0.99, 1.09), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(1.03, 1.03, 0.05, 0.90, 0.975), RD_CLAIM_CONTRADICTED);
}

/* C's "Deno more than twice Node": at least 2, band 1.9 to infinity;
 * "at most 0.5": band 0 to 0.525. */
static void test_bounds(void **state)
{
    (void)state;
    assert_int_equal(RATIO(2.0, INFINITY, 0.05, 1.569, 3.22), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(2.0, INFINITY, 0.05, 1.2, 1.8), RD_CLAIM_CONTRADICTED);
    assert_int_equal(RATIO(2.0, INFINITY, 0.05, 0.9, 2.5), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(0, 0.5, 0.05, 0.3, 0.6), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(0, 0.5, 0.05, 0.6, 0.9), RD_CLAIM_CONTRADICTED);
    assert_int_equal(RATIO(0, 0.5, 0.05, 0.3, 1.2), RD_CLAIM_INCONCLUSIVE);
}

/* No interval (n < 2, an unbounded Fieller interval): never judged. */
static void test_no_interval(void **state)
{
    (void)state;
    assert_int_equal(RATIO(3.2, 3.2, 0.05, NAN, NAN), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(NAN, NAN, 0.05, 1, 2), RD_CLAIM_INCONCLUSIVE);
}

static void test_order(void **state)
{
    (void)state;
    bool yes[] = { true, true }, mixed[] = { true, false };
    double sig[] = { 0.001, 0.002 }, half[] = { 0.001, 0.17 }, nan2[] = { 0.001, NAN };
    assert_int_equal(rd_claim_judge_order(yes, sig, 2, 0.05), RD_CLAIM_CONSISTENT);
    assert_int_equal(rd_claim_judge_order(yes, half, 2, 0.05), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(rd_claim_judge_order(yes, nan2, 2, 0.05), RD_CLAIM_INCONCLUSIVE);
    /* The second pair significantly the other way round. */
    assert_int_equal(rd_claim_judge_order(mixed, sig, 2, 0.05), RD_CLAIM_CONTRADICTED);
    /* Reversed but not significantly. */
    assert_int_equal(rd_claim_judge_order(mixed, half, 2, 0.05), RD_CLAIM_INCONCLUSIVE);
    /* p_holm must be below alpha, not equal to it. */
    double at[] = { 0.05, 0.05 };
    assert_int_equal(rd_claim_judge_order(yes, at, 2, 0.05), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(rd_claim_judge_order(NULL, NULL, 0, 0.05), RD_CLAIM_INCONCLUSIVE);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(rd_claim_judgement_name(RD_CLAIM_CONSISTENT), "consistent");
    assert_string_equal(rd_claim_judgement_name(RD_CLAIM_CONTRADICTED), "contradicted");
    assert_string_equal(rd_claim_judgement_name(RD_CLAIM_INCONCLUSIVE), "inconclusive");
    assert_null(rd_claim_judgement_name(RD_CLAIM_NOT_EVALUATED));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_claim_above_one),
        cmocka_unit_test(test_point_claim_below_one),
        cmocka_unit_test(test_likeness),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_no_interval),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
