// links: rd_core
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

#include "rundown/numfmt.h"

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

static const char *rel(double r, double lo, double hi, const char *unit)
{
    rd_buf_reset(&b);
    assert_int_equal(rd_fmt_relative(&b, r, lo, hi, unit), RD_OK);
    return b.ptr;
}

static void test_relative(void **state)
{
    (void)state;
    /* One rule: a factor with words from 1.5 on either side of 1 (always
     * >= 1, the interval turned round with it), a signed percentage below. */
    assert_string_equal(rel(1.008, 0.981, 1.035, "ms"), "+0.8 % (-1.9 % to +3.5 %)");
    assert_string_equal(rel(2.41, 2.3, 2.52, "ms"), "2.41\xc3\x97 slower (2.30\xe2\x80\x93" "2.52\xc3\x97)");
    assert_string_equal(rel(0.5, NAN, NAN, "ms"), "2.00\xc3\x97 faster");
    /* A rate at half the best's is 2× slower: 1/0.625 = 1.6, 1/0.4 = 2.5. */
    assert_string_equal(rel(0.5, 0.4, 0.625, "req/s"), "2.00\xc3\x97 slower (1.60\xe2\x80\x93" "2.50\xc3\x97)");
    assert_string_equal(rel(1.6, NAN, NAN, "KiB"), "1.60\xc3\x97 larger");
    assert_string_equal(rel(1.6, NAN, NAN, "count"), "1.60\xc3\x97 higher");
    assert_string_equal(rel(1 / 1.5, NAN, NAN, NULL), "1.50\xc3\x97 lower");
    /* 0.7 is 1/1.43: below the factor line, so -30 %. */
    assert_string_equal(rel(0.7, 0.6, 0.8, "req/s"), "-30 % (-40 % to -20 %)");
    /* An inverted factor whose interval reaches 0 has no interval. */
    assert_string_equal(rel(0.4, 0, 0.5, "ms"), "2.50\xc3\x97 faster");
    assert_string_equal(rel(NAN, 1, 2, "ms"), DASH);
    assert_true(rd_rel_is_factor(1.5));
    assert_false(rd_rel_is_factor(1.4999));
    assert_false(rd_rel_is_factor(NAN));
}

static void test_units_and_names(void **state)
{
    (void)state;
    rd_buf_reset(&b);
    /* 48241 KiB / 1024 = 47.110... MiB */
    rd_fmt_amount(&b, 48241, "KiB");
    assert_string_equal(b.ptr, "47.11 MiB");
    rd_buf_reset(&b);
    rd_fmt_amount_ci(&b, 26.28, 25.66, 26.90, "ms");
    assert_string_equal(b.ptr, "26.28 \xc2\xb1 0.62 ms");
    rd_buf_reset(&b);
    rd_fmt_metric(&b, "server_rss_peak_kib", true);
    assert_string_equal(b.ptr, "server RSS peak");
    rd_buf_reset(&b);
    rd_fmt_metric(&b, "max_rss_kib", false);
    assert_string_equal(b.ptr, "Max RSS");
    rd_buf_reset(&b);
    rd_fmt_metric(&b, "heavycalc_ms", true);
    assert_string_equal(b.ptr, "heavycalc_ms");
    /* Stored sorted by key (mechanism, runtime, workers), said runtime first. */
    const struct rd_kv labels[] = {
        { "mechanism", "worker" }, { "runtime", "bun" }, { "workers", "2" },
    };
    rd_buf_reset(&b);
    rd_fmt_config_name(&b, labels, 3);
    assert_string_equal(b.ptr, "bun / worker / workers=2");
    const struct rd_kv other[] = { { "api", "native" }, { "size", "big" }, { "runtime", "deno" } };
    rd_buf_reset(&b);
    rd_fmt_config_name(&b, other, 3);
    assert_string_equal(b.ptr, "deno / native / big");
    assert_true(rd_label_key_cmp("runtime", "mechanism") < 0);
    assert_true(rd_label_key_cmp("mechanism", "api") < 0);
    assert_true(rd_label_key_cmp("api", "workers") < 0);
    rd_buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num),
        cmocka_unit_test(test_p),
        cmocka_unit_test(test_ratio_pct),
        cmocka_unit_test(test_relative),
        cmocka_unit_test(test_units_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
