// links: rd_analyze
/*
 * Racing in the adaptive stopping rule (stats/settle.c): the levels the
 * looks spend, which configs a look eliminates, and when a workload with
 * eliminated configs is done and why it stopped; the paired spread and
 * precision rule of a workload paired within rounds. Numbers from R or
 * SciPy (the calls are next to them).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rounds.h"
#include "settle.h"
#include "verdict.h"

static const struct rd_settle_rule rule = { 5, 40, 0.025, 0.05 };

static void look_levels_spend_a_tenth_of_alpha(void **state)
{
    (void)state;
    /* R: a <- function(t) 0.005 * log(1 + (exp(1) - 1) * t)
     *    a(5/40) = 9.728364727e-04, a(6/40) - a(5/40) = 1.737548666e-04,
     *    a(40/40) - a(39/40) = 7.964606455e-05 */
    assert_float_equal(rd_settle_race_level(0.005, 5, 5, 40), 9.728364727e-04, 1e-12);
    assert_float_equal(rd_settle_race_level(0.005, 6, 5, 40), 1.737548666e-04, 1e-12);
    assert_float_equal(rd_settle_race_level(0.005, 40, 5, 40), 7.964606455e-05, 1e-12);
    assert_true(rd_settle_race_level(0.005, 4, 5, 40) == 0);
    assert_true(rd_settle_race_level(0.005, 41, 5, 40) == 0);
    /* the increments telescope to a(1) = 0.005 log(e) */
    double sum = 0;
    for (long r = 5; r <= 40; r++)
        sum += rd_settle_race_level(0.005, r, 5, 40);
    assert_float_equal(sum, 0.005, 1e-15);
}

/* min 3 (the study suite's): no look before 5 runs, where a pair of
 * configs of unequal CVs has a Welch df near 2; the first look, at 5,
 * spends all the rounds before it would have (stats/settle.h). */
static void the_first_look_waits_for_five_runs(void **state)
{
    (void)state;
    assert_int_equal(rd_settle_race_first(3, 30), 5);
    assert_int_equal(rd_settle_race_first(7, 30), 7);
    assert_int_equal(rd_settle_race_first(3, 4), 4); /* max below 5: the last round */
    assert_true(rd_settle_race_level(0.005, 3, 3, 30) == 0);
    assert_true(rd_settle_race_level(0.005, 4, 3, 30) == 0);
    /* R: a <- function(t) 0.005 * log(1 + (exp(1) - 1) * t)
     *    print(c(a(5/30), a(6/30) - a(5/30)), digits = 10):
     *    0.0012591615448 0.0002178111008; with max 4 the one look, at 4,
     *    spends a(1) = 0.005 */
    assert_float_equal(rd_settle_race_level(0.005, 5, 3, 30), 0.0012591615448, 1e-12);
    assert_float_equal(rd_settle_race_level(0.005, 6, 3, 30), 0.0002178111008, 1e-12);
    assert_float_equal(rd_settle_race_level(0.005, 3, 3, 4), 0, 0);
    assert_float_equal(rd_settle_race_level(0.005, 4, 3, 4), 0.005, 1e-15);
    double sum = 0;
    for (long r = 1; r <= 30; r++)
        sum += rd_settle_race_level(0.005, r, 3, 30);
    assert_float_equal(sum, 0.005, 1e-15);
}

/* a 100 (sd 3), b 101 (sd 3), c 150 (sd 4.5), 5 runs each; the
 * verdicts' default settings. */
static void three_configs(struct rd_verdict_sample x[3], struct rd_verdict_settings *vs)
{
    x[0] = (struct rd_verdict_sample){ .n = 5, .mean = 100, .sd = 3, .eligible = true };
    x[1] = (struct rd_verdict_sample){ .n = 5, .mean = 101, .sd = 3, .eligible = true };
    x[2] = (struct rd_verdict_sample){ .n = 5, .mean = 150, .sd = 4.5, .eligible = true };
    rd_verdict_settings_init(vs);
}

static void a_clearly_slower_config_is_eliminated(void **state)
{
    (void)state;
    /* a 100 (sd 3), b 101 (sd 3), c 150 (sd 4.5), 5 runs each. Level
     * 0.005 log(1 + (e - 1) 5 / 40) = 9.728e-4; the family's df is the
     * smaller Welch df, 6.969 (c, a) -> 6, so the critical value is
     * qtukey(1 - 9.728e-4, 3, 6) / sqrt(2) = 7.078; c has t =
     * 50 / sqrt(9 / 5 + 4.5^2 / 5) = 20.67, b 1 / sqrt(18 / 5) = 0.527. */
    struct rd_verdict_sample x[3];
    struct rd_verdict_settings vs;
    three_configs(x, &vs);
    bool out[3] = { false, false, false };
    size_t ne = 9;
    assert_int_equal(rd_settle_race(&rule, 4, x, 3, &vs, NULL, out, &ne), RD_OK);
    assert_int_equal(ne, 0); /* before runs_min: no look */
    assert_int_equal(rd_settle_race(&rule, 5, x, 3, &vs, NULL, out, &ne), RD_OK);
    assert_int_equal(ne, 1);
    assert_false(out[0]);
    assert_false(out[1]);
    assert_true(out[2]);
    /* A second look at the same data eliminates nothing more. */
    assert_int_equal(rd_settle_race(&rule, 6, x, 3, &vs, NULL, out, &ne), RD_OK);
    assert_int_equal(ne, 0);
    /* Higher is better: c is then the best and a and b (t 20.7 and
     * 49 / sqrt(9 / 5 + 4.5^2 / 5) = 20.26 against it) go. */
    vs.higher_is_better = true;
    bool up[3] = { false, false, false };
    assert_int_equal(rd_settle_race(&rule, 5, x, 3, &vs, NULL, up, &ne), RD_OK);
    assert_int_equal(ne, 2);
    assert_true(up[0] && up[1] && !up[2]);
}

/* The same look with c kept (a suite's keep_racing): c stays although
 * the verdicts show it slower; with b kept as well nothing changes for c's
 * exemption, and keeping the best changes nothing. */
static void a_kept_config_is_never_eliminated(void **state)
{
    (void)state;
    struct rd_verdict_sample x[3];
    struct rd_verdict_settings vs;
    three_configs(x, &vs);
    const bool keep_c[3] = { false, false, true };
    bool out[3] = { false, false, false };
    size_t ne = 9;
    assert_int_equal(rd_settle_race(&rule, 5, x, 3, &vs, keep_c, out, &ne), RD_OK);
    assert_int_equal(ne, 0);
    assert_false(out[0] || out[1] || out[2]);
    const bool keep_a[3] = { true, false, false };
    assert_int_equal(rd_settle_race(&rule, 5, x, 3, &vs, keep_a, out, &ne), RD_OK);
    assert_int_equal(ne, 1);
    assert_true(out[2] && !out[0] && !out[1]);
}

static void nothing_goes_when_the_best_was_eliminated(void **state)
{
    (void)state;
    struct rd_verdict_sample x[3];
    struct rd_verdict_settings vs;
    three_configs(x, &vs);
    bool out[3] = { true, false, false };
    size_t ne = 9;
    assert_int_equal(rd_settle_race(&rule, 5, x, 3, &vs, NULL, out, &ne), RD_OK);
    assert_int_equal(ne, 0);
    assert_false(out[2]);
    /* Unusable configs are out of the family: one eligible, no look. */
    x[1].eligible = x[2].eligible = false;
    bool none[3] = { false, false, false };
    assert_int_equal(rd_settle_race(&rule, 5, x, 3, &vs, NULL, none, &ne), RD_OK);
    assert_int_equal(ne, 0);
}

static void done_and_why(void **state)
{
    (void)state;
    enum rd_settle_state one_left[] = { RD_SETTLE_ELIMINATED, RD_SETTLE_OPEN };
    enum rd_settle_state two_left[] = { RD_SETTLE_ELIMINATED, RD_SETTLE_OPEN, RD_SETTLE_OPEN };
    enum rd_settle_state raced[] = { RD_SETTLE_ELIMINATED, RD_SETTLE_PRECISE,
                                     RD_SETTLE_PRECISE };
    enum rd_settle_state none[] = { RD_SETTLE_UNUSABLE, RD_SETTLE_UNUSABLE };
    assert_true(rd_settle_done(one_left, 2));
    assert_false(rd_settle_done(two_left, 3));
    assert_true(rd_settle_done(raced, 3));
    assert_int_equal(rd_settle_stop_reason(one_left, 2, RD_STOP_BUDGET), RD_STOP_SETTLED);
    assert_int_equal(rd_settle_stop_reason(two_left, 3, RD_STOP_BUDGET), RD_STOP_BUDGET);
    assert_int_equal(rd_settle_stop_reason(raced, 3, RD_STOP_BUDGET), RD_STOP_SETTLED);
    assert_int_equal(rd_settle_stop_reason(none, 2, RD_STOP_BUDGET), RD_STOP_DISQUALIFIED);
    assert_string_equal(rd_settle_stop_name(RD_STOP_DISQUALIFIED), "disqualified");
    assert_string_equal(rd_settle_state_name(RD_SETTLE_ELIMINATED), "eliminated");
    assert_false(rd_settle_collects(RD_SETTLE_ELIMINATED, false));
}

/* Three configs' values by round (stats/rounds.h): b is a's 1.1 times
 * (1.11 in round 4), c has rounds 1 and 2 only, and a's round 2 is
 * stored twice (the first wins). */
static struct rd_round_value by_round[3][5];
static size_t n_rounds[3];

static bool rounds_paired(const void *ctx, size_t a, size_t b, double *mean_log, double *sd_log,
                          double *n)
{
    (void)ctx;
    rd_rounds_compare(by_round[a], n_rounds[a], by_round[b], n_rounds[b], mean_log, sd_log, n);
    return true;
}

static void paired_spread_and_precision(void **state)
{
    (void)state;
    const double a[] = { 10, 12, 8, 11 }, b[] = { 11, 13.2, 8.8, 12.21 }, c[] = { 20, 25 };
    /* out of order, and a's round 2 again (99: kept out) */
    for (uint32_t j = 0; j < 4; j++) {
        by_round[0][j] = (struct rd_round_value){ 4 - j, log(a[3 - j]), j };
        by_round[1][j] = (struct rd_round_value){ j + 1, log(b[j]), j };
    }
    by_round[0][4] = (struct rd_round_value){ 2, log(99), 4 };
    by_round[2][0] = (struct rd_round_value){ 1, log(c[0]), 0 };
    by_round[2][1] = (struct rd_round_value){ 2, log(c[1]), 1 };
    n_rounds[0] = rd_rounds_one_per_round(by_round[0], 5);
    n_rounds[1] = rd_rounds_one_per_round(by_round[1], 4);
    n_rounds[2] = rd_rounds_one_per_round(by_round[2], 2);
    assert_int_equal(n_rounds[0], 4);
    assert_float_equal(by_round[0][1].log, log(12), 1e-15);
    const struct rd_verdict_pairing pg = { rounds_paired, NULL };
    /* SciPy: a, b, c = np.array([10, 12, 8, 11.]), np.array([11, 13.2, 8.8, 12.21]),
     *   np.array([20, 25.]); np.std(np.log(a) - np.log(b), ddof=1) = 0.00452491776;
     *   np.std(np.log(a[:2]) - np.log(c), ddof=1) = 0.02886550915 (b against c alike) */
    bool in[3] = { true, true, true };
    double n;
    assert_float_equal(rd_settle_paired_spread(&pg, in, 3, 0, &n), 0.02886550915, 1e-10);
    assert_true(n == 2);
    in[2] = false; /* c eliminated: a against b alone */
    assert_float_equal(rd_settle_paired_spread(&pg, in, 3, 0, &n), 0.00452491776, 1e-10);
    assert_true(n == 4);
    assert_float_equal(rd_settle_paired_spread(&pg, in, 3, 3, &n), 0.00452491776, 1e-10);
    bool alone[3] = { true, false, false };
    assert_true(rd_settle_paired_spread(&pg, alone, 3, 0, &n) == 0 && isinf(n));
    /* The half-width of a's paired interval, on one config's footing:
     * SciPy: stats.t.ppf(1 - 0.05 / 6, 3) = 4.856657273;
     * 4.856657273 * 0.00452491776 / np.sqrt(2) / np.sqrt(4) = 0.007769680384 */
    struct rd_settle_rule r = { 4, 10, 0.0078, 0.05 };
    assert_int_equal(rd_settle_config_paired(&r, 4, 4, 0.00452491776, 4, 3), RD_SETTLE_PRECISE);
    r.target = 0.0077;
    assert_int_equal(rd_settle_config_paired(&r, 4, 4, 0.00452491776, 4, 3), RD_SETTLE_OPEN);
    assert_int_equal(rd_settle_config_paired(&r, 10, 4, 0.00452491776, 4, 3), RD_SETTLE_MAX);
    /* fewer than 2 rounds: unknown, open; fewer than 2 values: unusable */
    assert_int_equal(rd_settle_config_paired(&r, 4, 4, 0.001, 1, 3), RD_SETTLE_OPEN);
    assert_int_equal(rd_settle_config_paired(&r, 4, 1, 0.001, 4, 3), RD_SETTLE_UNUSABLE);
    assert_int_equal(rd_settle_config_paired(&r, 3, 4, 0, 4, 3), RD_SETTLE_OPEN);
    assert_int_equal(rd_settle_config_paired(&r, 4, 4, 0, 4, 3), RD_SETTLE_PRECISE);
}

/* The final judgement gives an eliminated config the interval of its
 * ratio on all its runs, in the whole family at the contenders' level
 * (docs/methods.md §6b). a, b as above, c 150 with sd 6, eliminated:
 * the level is 0.9 * 0.05 = 0.045, the family 3 configs at the smallest
 * Welch df rounded down, floor(7.4184) = 7 (c against a: va = 0.03^2 / 5,
 * vc = 0.04^2 / 5, (va + vc)^2 / (va^2 / 4 + vc^2 / 4)), so the interval
 * is exp(log 1.5 +- q sqrt(va + vc)): SciPy 1.10, q =
 * studentized_range.ppf(0.955, 3, 7) / sqrt(2) = 3.0225834269499416,
 * ends 1.4019695760784265 and 1.60488504058246. */
static void an_eliminated_config_gets_its_interval(void **state)
{
    (void)state;
    struct rd_verdict_sample x[3];
    struct rd_verdict_settings vs;
    three_configs(x, &vs);
    x[2].sd = 6;
    const bool out_c[3] = { false, false, true };
    struct rd_verdict_row rows[3];
    struct rd_verdict_result res;
    assert_int_equal(rd_settle_judge(x, 3, &vs, out_c, rows, &res), RD_OK);
    assert_int_equal(res.best, 0);
    assert_int_equal(rows[2].verdict, RD_VERDICT_WORSE);
    assert_true(isnan(rows[2].ratio_ci_low)); /* the verdict's own: none */
    assert_float_equal(rows[2].ratio, 1.5, 1e-15);
    assert_float_equal(rows[2].elim_ci_low, 1.4019695760784265, 1e-9);
    assert_float_equal(rows[2].elim_ci_high, 1.60488504058246, 1e-9);
    assert_null(rows[2].elim_note);
    /* a contender has none */
    assert_true(isnan(rows[1].elim_ci_low) && !rows[1].elim_note);
    /* Not estimable in the whole family: 2 runs of c spread so wide that
     * its mean's interval reaches zero at the critical value. */
    x[2].n = 2;
    x[2].sd = 200;
    assert_int_equal(rd_settle_judge(x, 3, &vs, out_c, rows, &res), RD_OK);
    assert_true(isnan(rows[2].elim_ci_low) && isnan(rows[2].elim_ci_high));
    assert_non_null(rows[2].elim_note);
    assert_non_null(strstr(rows[2].elim_note, "reaches zero"));
    /* An eliminated config whose frozen mean is the best of all: no
     * interval against the contenders' best, and it says so. */
    three_configs(x, &vs);
    const bool out_a[3] = { true, false, false };
    assert_int_equal(rd_settle_judge(x, 3, &vs, out_a, rows, &res), RD_OK);
    assert_int_equal(res.best, 1);
    assert_true(isnan(rows[0].elim_ci_low));
    assert_non_null(strstr(rows[0].elim_note, "frozen mean"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(look_levels_spend_a_tenth_of_alpha),
        cmocka_unit_test(the_first_look_waits_for_five_runs),
        cmocka_unit_test(a_clearly_slower_config_is_eliminated),
        cmocka_unit_test(a_kept_config_is_never_eliminated),
        cmocka_unit_test(nothing_goes_when_the_best_was_eliminated),
        cmocka_unit_test(an_eliminated_config_gets_its_interval),
        cmocka_unit_test(done_and_why),
        cmocka_unit_test(paired_spread_and_precision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
