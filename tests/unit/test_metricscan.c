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
    /* Upper case, a leading digit, no '=', no value, an unknown unit, a
     * unit of the wrong kind, two units, an empty name: eight bad lines; a
     * prefix not at the start of the line and "rundown:metrics" are not
     * metric lines at all. */
    scan(&m,
         "rundown:metric Abc=1\nrundown:metric 1a=1\nrundown:metric abc\n"
         "rundown:metric abc=\nrundown:metric lat=4.2 parsecs\nrundown:metric x_ms=3 KiB\n"
         "rundown:metric y_ms=3ms ms\nrundown:metric =3\n"
         " rundown:metric a=1\nrundown:metrics a=1\n",
         7);
    assert_int_equal(m.mn, 0);
    assert_int_equal(m.bad_lines, 8);
    assert_string_equal(m.bad_first, "rundown:metric Abc=1");
    assert_non_null(strstr(m.bad_why, "NAME=VALUE"));
    rd_metric_scan_release(&m);

    scan(&m, "rundown:metric x_ms=3 KiB\n", 100);
    assert_string_equal(m.bad_why, "unit 'KiB' does not fit metric 'x_ms', which is in ms");
    rd_metric_scan_release(&m);
    scan(&m, "rundown:metric lat=4.2 parsecs\n", 100);
    assert_non_null(strstr(m.bad_why, "unknown unit 'parsecs'"));
    rd_metric_scan_release(&m);
}

/* Units convert to the metric's own unit; the expected values are the
 * decimal arithmetic done by hand (4.2 s = 4200 ms exactly, as the
 * conversion shifts the decimal point instead of multiplying by 1000). */
static void test_units(void **state)
{
    (void)state;
    struct rd_metric_scan m;
    scan(&m,
         "rundown:metric calc_ms=4.2 s\n"        /* 4200 ms */
         "rundown:metric t_ms=721.44us\n"        /* 0.72144 ms */
         "rundown:metric t_s=1500 ms\n"          /* 1.5 s */
         "rundown:metric heap_kib=3 MiB\n"       /* 3072 KiB */
         "rundown:metric blob_bytes=2 KiB\n"     /* 2048 B */
         "rundown:metric lat=4.2ms\n"            /* no unit of its own: lat_ms */
         "rundown:metric mem=1 MiB\n"            /* mem_kib = 1024 */
         "rundown:metric hits=12 count\n"        /* hits_count */
         "rundown:metric error_rate=2.5 %\n"     /* a ratio: 0.025 */
         "rundown:metric x_ms=nan ms\n",         /* NaN stays NaN */
         5);
    assert_int_equal(m.bad_lines, 0);
    static const struct {
        const char *name;
        double value;
    } want[] = {{"calc_ms", 4200}, {"t_ms", 0.72144}, {"t_s", 1.5}, {"heap_kib", 3072},
                {"blob_bytes", 2048}, {"lat_ms", 4.2}, {"mem_kib", 1024},
                {"hits_count", 12}, {"error_rate", 0.025}};
    size_t n = sizeof want / sizeof want[0];
    assert_int_equal(m.mn, n + 1);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(m.mv[i].name, want[i].name);
        assert_true(m.mv[i].value == want[i].value);
    }
    assert_string_equal(m.mv[n].name, "x_ms");
    assert_true(m.mv[n].value != m.mv[n].value);
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
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_long_line_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
