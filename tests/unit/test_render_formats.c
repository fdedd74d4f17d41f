// links: rd_render
/*
 * test_render_formats.c - the escapes of the paper formats: LaTeX text
 * (report.tex) and CSV fields (runs.csv, summary.csv, comparisons.csv);
 * and the percentiles the latency spectrum reads off metric names.
 * Expected strings by hand from the LaTeX manual's list of special
 * characters, RFC 4180 and the names docs/formats.md lists.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "backends.h"
#include "escape.h"

static const char *latex(const char *s)
{
    static struct rd_buf b = RD_BUF_INIT;
    rd_buf_reset(&b);
    assert_int_equal(rd_escape_latex(&b, s), RD_OK);
    return b.ptr;
}

static const char *csv(const char *s)
{
    static struct rd_buf b = RD_BUF_INIT;
    rd_buf_reset(&b);
    assert_int_equal(rd_escape_csv(&b, s), RD_OK);
    return b.ptr;
}

static void test_latex(void **state)
{
    (void)state;
    assert_string_equal(latex("bun / worker"), "bun / worker");
    assert_string_equal(latex("a_b 5 % & $x# {y}"), "a\\_b 5 \\% \\& \\$x\\# \\{y\\}");
    assert_string_equal(latex("\\input{x}"), "\\textbackslash{}input\\{x\\}");
    assert_string_equal(latex("~^"), "\\textasciitilde{}\\textasciicircum{}");
    assert_string_equal(latex("p < 0.001 | >"), "p \\textless{} 0.001 \\textbar{} \\textgreater{}");
    assert_string_equal(latex("a\nb\x01"), "a b ");
    /* UTF-8 goes through: LaTeX since 2018 reads it. */
    assert_string_equal(latex("d\xc3\xa9j\xc3\xa0"), "d\xc3\xa9j\xc3\xa0");
}

static void test_csv(void **state)
{
    (void)state;
    assert_string_equal(csv("plain"), "plain");
    assert_string_equal(csv(""), "");
    assert_string_equal(csv("a,b"), "\"a,b\"");
    assert_string_equal(csv("say \"hi\""), "\"say \"\"hi\"\"\"");
    assert_string_equal(csv("two\nlines"), "\"two\nlines\"");
    /* What a spreadsheet would run as a formula stays text. */
    assert_string_equal(csv("=1+1"), "\"'=1+1\"");
    assert_string_equal(csv("+1"), "\"'+1\"");
    assert_string_equal(csv("-2"), "\"'-2\"");
    assert_string_equal(csv("@SUM(A1)"), "\"'@SUM(A1)\"");
    /* Issue 28, item 13: a carriage return before the '=' (OWASP's list:
     * = + - @ tab and carriage return). */
    assert_string_equal(csv("\r=1+1"), "\"'\r=1+1\"");
    assert_string_equal(csv("\t=1+1"), "\"'\t=1+1\"");
    assert_string_equal(csv("a=b"), "a=b");
}

static void test_latency_percentiles(void **state)
{
    (void)state;
    assert_true(rd_latency_percentile("latency_p50_ms") == 50);
    assert_true(rd_latency_percentile("latency_p99_9_ms") == 99.9);
    assert_true(rd_latency_percentile("latency_p99_999_ms") == 99.999);
    assert_true(rd_latency_percentile("latency_p97_5_ms") == 97.5);
    assert_true(rd_latency_percentile("latency_p0_001_ms") == 0.001);
    assert_true(rd_latency_percentile("latency_max_ms") == 100);
    /* Not percentiles: the mean, a sd, a typo, a unit that is not ms. */
    assert_true(isnan(rd_latency_percentile("latency_mean_ms")));
    assert_true(isnan(rd_latency_percentile("latency_stdev_ms")));
    assert_true(isnan(rd_latency_percentile("latency_p99__9_ms")));
    assert_true(isnan(rd_latency_percentile("latency_p99_s")));
    assert_true(isnan(rd_latency_percentile("latency_p100_ms")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latex),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_latency_percentiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
