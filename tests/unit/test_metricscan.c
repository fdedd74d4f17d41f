// links: rd_collect
/*
 * test_metricscan - the "rundown:metric NAME=VALUE" scanner fed directly:
 * lines cut anywhere by reads, blanks and CR around the metric, lines too
 * long to be one, and what makes a bad line. (test_proc runs the same
 * scanner behind a real child's stdout.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "metricscan.h"

/* Scans text in pieces of 'piece' bytes. */
static void scan(struct rd_metric_scan *m, const char *text, size_t piece)
{
    size_t len = strlen(text);
    rd_metric_scan_init(m);
    for (size_t at = 0; at < len; at += piece)
        rd_metric_scan_feed(m, text + at, len - at < piece ? len - at : piece);
    rd_metric_scan_end(m);
}

static void test_lines_cut_anywhere(void **state)
{
    (void)state;
    static const char text[] =
        "hello\nrundown:metric  x_ms=1.25 \r\nrundown:metric n2=-3\nrundown:metric x_ms=2";
    for (size_t piece = 1; piece <= sizeof text; piece++) {
        struct rd_metric_scan m;
        scan(&m, text, piece);
        assert_int_equal(m.mn, 2);
        assert_string_equal(m.mv[0].name, "x_ms");
        assert_int_equal(m.mv[0].len, 4);
        assert_true(m.mv[0].value == 2.0); /* the last value printed, on a final
                                              line without '\n' */
        assert_string_equal(m.mv[1].name, "n2");
        assert_true(m.mv[1].value == -3.0);
        assert_int_equal(m.bad_lines, 0);
        rd_metric_scan_release(&m);
        assert_int_equal(m.mn, 0);
    }
}

static void test_bad_lines(void **state)
{
    (void)state;
    struct rd_metric_scan m;
    /* Upper case, a leading digit, no '=', no value, a unit after the
     * number, an empty name: six bad lines; a prefix not at the start of
     * the line and "rundown:metrics" are not metric lines at all. */
    scan(&m,
         "rundown:metric Abc=1\nrundown:metric 1a=1\nrundown:metric abc\n"
         "rundown:metric abc=\nrundown:metric lat=4.2ms\nrundown:metric =3\n"
         " rundown:metric a=1\nrundown:metrics a=1\n",
         7);
    assert_int_equal(m.mn, 0);
    assert_int_equal(m.bad_lines, 6);
    assert_string_equal(m.bad_first, "rundown:metric Abc=1");
    rd_metric_scan_release(&m);
}

static void test_long_line_skipped(void **state)
{
    (void)state;
    /* A line of 5000 bytes (over the 4096 a metric line may have) is
     * skipped whole, even when it starts like a metric; the next line is
     * scanned again. */
    size_t n = 5000;
    char *text = malloc(n + 64);
    assert_non_null(text);
    memcpy(text, "rundown:metric a=1", 18);
    memset(text + 18, '0', n - 18);
    strcpy(text + n, "\nrundown:metric b=2\n");
    struct rd_metric_scan m;
    scan(&m, text, 1000);
    assert_int_equal(m.mn, 1);
    assert_string_equal(m.mv[0].name, "b");
    assert_int_equal(m.bad_lines, 0);
    rd_metric_scan_release(&m);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_cut_anywhere),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_long_line_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
