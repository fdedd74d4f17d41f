// links: rd_render
/*
 * test_render_numfmt.c - numbers as the report prints them: significant
 * digits, thousands separators, p-values, ratios, relative changes, and
 * the em dash for undefined values. Expected strings by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "backends.h"
#include "numfmt.h"

#define DASH "\xe2\x80\x94"

static struct rd_buf b = RD_BUF_INIT;

static const char *num(double v, int sig)
{
    rd_buf_reset(&b);
    assert_int_equal(rd_fmt_num(&b, v, sig), RD_OK);
    return b.ptr;
}

static void test_num(void **state)
{
    (void)state;
    assert_string_equal(num(101.2345, 4), "101.2");
    assert_string_equal(num(41230.4, 4), "41,230");
    assert_string_equal(num(1234567.8, 4), "1,234,568");
    assert_string_equal(num(3.51234, 4), "3.512");
    assert_string_equal(num(0.0123456, 3), "0.0123");
    assert_string_equal(num(-2500.6, 4), "-2,501");
    assert_string_equal(num(0, 4), "0.000");
    assert_string_equal(num(3.2e-7, 3), "3.2e-07");
    assert_string_equal(num(-0.00001, 2), "-1e-05");
    assert_string_equal(num(NAN, 4), DASH);
    assert_string_equal(num(INFINITY, 4), DASH);
    /* Rounding to zero must not leave a sign behind. */
    rd_buf_reset(&b);
    rd_fmt_fixed(&b, -0.04, 1);
    assert_string_equal(b.ptr, "0.0");
    rd_buf_reset(&b);
    rd_fmt_fixed(&b, 999999.6, 0);
    assert_string_equal(b.ptr, "1,000,000");
}

static void test_p(void **state)
{
    (void)state;
    const struct { double p; const char *s; } cases[] = {
        { 0.0004, "< 0.001" }, { 0.001, "0.001" }, { 0.0049, "0.005" },
        { 0.0123, "0.01" }, { 0.61, "0.61" }, { 1, "1.00" }, { NAN, DASH },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rd_buf_reset(&b);
        rd_fmt_p(&b, cases[i].p);
        assert_string_equal(b.ptr, cases[i].s);
    }
}

static void test_ratio_pct(void **state)
{
    (void)state;
    rd_buf_reset(&b);
    rd_fmt_ratio(&b, 2.4137);
    assert_string_equal(b.ptr, "2.41\xc3\x97");
    rd_buf_reset(&b);
    rd_fmt_pct(&b, 0.008);
    assert_string_equal(b.ptr, "+0.8 %");
    rd_buf_reset(&b);
    rd_fmt_pct(&b, -0.0004);
    assert_string_equal(b.ptr, "+0.0 %");
    rd_buf_reset(&b);
    rd_fmt_pct(&b, -0.25);
    assert_string_equal(b.ptr, "-25 %");
    /* mean ± half-width with the mean's decimals: (103.1 - 99.3) / 2 = 1.9 */
    rd_buf_reset(&b);
    rd_fmt_mean_ci(&b, 101.2, 99.3, 103.1);
    assert_string_equal(b.ptr, "101.2 \xc2\xb1 1.9");
    rd_buf_reset(&b);
    rd_fmt_mean_ci(&b, 39.8, NAN, NAN);
    assert_string_equal(b.ptr, "39.80");
    rd_buf_reset(&b);
    rd_fmt_range(&b, 99.3, 103.1, 101.2);
    assert_string_equal(b.ptr, "99.3 to 103.1");
}

static void test_relative(void **state)
{
    (void)state;
    /* Small gaps as percentages with their CI, big ones as factors. */
    rd_buf_reset(&b);
    rd_fmt_relative(&b, 1.008, 0.981, 1.035);
    assert_string_equal(b.ptr, "+0.8 % (-1.9 % to +3.5 %)");
    rd_buf_reset(&b);
    rd_fmt_relative(&b, 2.41, 2.3, 2.52);
    assert_string_equal(b.ptr, "2.41\xc3\x97 (2.30 to 2.52\xc3\x97)");
    rd_buf_reset(&b);
    rd_fmt_relative(&b, 0.5, NAN, NAN);
    assert_string_equal(b.ptr, "0.500\xc3\x97");
    rd_buf_reset(&b);
    rd_fmt_relative(&b, NAN, 1, 2);
    assert_string_equal(b.ptr, DASH);
    rd_buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num),
        cmocka_unit_test(test_p),
        cmocka_unit_test(test_ratio_pct),
        cmocka_unit_test(test_relative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
