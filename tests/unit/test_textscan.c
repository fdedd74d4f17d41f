// links: rd_collect
/*
 * test_textscan - line and token scanning with positions (collect/textscan.c).
 * Expected columns are counted by hand from the literal inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "textscan.h"

static void lines_split_on_lf_and_count(void **state)
{
    (void)state;
    const char *text = "one\n\nthree\nlast-without-newline";
    struct rd_lines it;
    struct rd_line l;
    rd_lines_init(&it, text, strlen(text));
    assert_true(rd_lines_next(&it, &l));
    assert_int_equal(l.no, 1);
    assert_int_equal(l.len, 3);
    assert_memory_equal(l.ptr, "one", 3);
    assert_true(rd_lines_next(&it, &l));
    assert_int_equal(l.no, 2);
    assert_int_equal(l.len, 0);
    /* peek does not consume */
    assert_true(rd_lines_peek(&it, &l));
    assert_int_equal(l.no, 3);
    assert_true(rd_lines_next(&it, &l));
    assert_int_equal(l.no, 3);
    assert_memory_equal(l.ptr, "three", 5);
    assert_true(rd_lines_next(&it, &l));
    assert_int_equal(l.no, 4);
    assert_int_equal(l.len, strlen("last-without-newline"));
    assert_false(rd_lines_next(&it, &l));
    assert_false(rd_lines_peek(&it, &l));
}

static void trailing_newline_gives_no_empty_last_line(void **state)
{
    (void)state;
    struct rd_lines it;
    struct rd_line l;
    rd_lines_init(&it, "a\n", 2);
    assert_true(rd_lines_next(&it, &l));
    assert_false(rd_lines_next(&it, &l));
    rd_lines_init(&it, "", 0);
    assert_false(rd_lines_next(&it, &l));
}

static void tokens_have_columns(void **state)
{
    (void)state;
    /* wrk's row: one-letter unit with a trailing space, tabs from hey. */
    const char *s = "    Latency    48.21ms   97.35ms   1.98s    91.37%";
    struct rd_line l = { s, strlen(s), 5 };
    struct rd_token t[8];
    size_t n = rd_tokenize(&l, t, 8);
    assert_int_equal(n, 5);
    assert_true(rd_token_is(&t[0], "Latency"));
    assert_int_equal(t[0].col, 5);
    assert_true(rd_token_is(&t[1], "48.21ms"));
    assert_int_equal(t[1].col, 16);
    assert_true(rd_token_is(&t[3], "1.98s"));
    assert_int_equal(t[3].col, 36);
    assert_true(rd_token_is(&t[4], "91.37%"));

    const char *h = "  Total:\t0.5907 secs";
    struct rd_line hl = { h, strlen(h), 1 };
    n = rd_tokenize(&hl, t, 8);
    assert_int_equal(n, 3);
    assert_true(rd_token_is(&t[1], "0.5907"));
    assert_int_equal(t[1].col, 10);
}

static void tokenize_counts_beyond_max(void **state)
{
    (void)state;
    const char *s = "a b c d e";
    struct rd_line l = { s, strlen(s), 1 };
    struct rd_token t[2];
    assert_int_equal(rd_tokenize(&l, t, 2), 5);
    assert_true(rd_token_is(&t[1], "b"));
    assert_int_equal(rd_tokenize(&l, NULL, 0), 5);
}

static void lone_cr_is_blank(void **state)
{
    (void)state;
    const char *s = "Finished 10 requests\r";
    struct rd_line l = { s, strlen(s), 1 };
    struct rd_token t[4];
    assert_int_equal(rd_tokenize(&l, t, 4), 3);
    assert_true(rd_token_is(&t[2], "requests"));
}

static void prefix_contains_trim(void **state)
{
    (void)state;
    const char *s = "  Socket errors: connect 0  ";
    struct rd_line l = { s, strlen(s), 1 };
    assert_true(rd_line_starts_with(&l, "Socket errors:"));
    assert_false(rd_line_starts_with(&l, "errors"));
    assert_true(rd_line_contains(&l, "connect 0"));
    assert_false(rd_line_contains(&l, "connect 1"));
    assert_true(rd_line_contains(&l, ""));
    struct rd_line t = rd_line_trim(l);
    assert_int_equal(t.len, strlen("Socket errors: connect 0"));
    assert_int_equal(rd_line_col(&l, t.ptr), 3);
    struct rd_line empty = { "   ", 3, 1 };
    assert_int_equal(rd_line_trim(empty).len, 0);
    assert_false(rd_line_contains(&empty, "long needle"));
}

static void token_is_exact(void **state)
{
    (void)state;
    struct rd_token t = { "Req/Sec", 7, 1 };
    assert_true(rd_token_is(&t, "Req/Sec"));
    assert_false(rd_token_is(&t, "Req/Se"));
    assert_false(rd_token_is(&t, "Req/Secs"));
}

static void expect_fail_messages(void **state)
{
    (void)state;
    struct rd_diag d;
    rd_diag_init(&d, "wrk.txt");
    const char *s = "Requests/sec:   abc";
    struct rd_line l = { s, strlen(s), 7 };
    struct rd_token t[3];
    rd_tokenize(&l, t, 3);
    assert_int_equal(rd_expect_fail(&d, &l, &t[1], "a number"), RD_ERR_PARSE);
    assert_int_equal(d.line, 7);
    assert_int_equal(d.col, 17);
    assert_string_equal(d.msg, "expected a number, got 'abc'");
    assert_string_equal(d.path, "wrk.txt");

    /* A missing token points just past the last non-blank byte: col 14
     * for "Requests/sec:" followed by blanks. */
    const char *m = "Requests/sec:   ";
    struct rd_line ml = { m, strlen(m), 8 };
    assert_int_equal(rd_expect_fail(&d, &ml, NULL, "a rate"), RD_ERR_PARSE);
    assert_int_equal(d.line, 8);
    assert_int_equal(d.col, 14);
    assert_string_equal(d.msg, "expected a rate, got end of line");

    /* NULL diag is allowed */
    assert_int_equal(rd_expect_fail(NULL, &l, &t[1], "x"), RD_ERR_PARSE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_split_on_lf_and_count),
        cmocka_unit_test(trailing_newline_gives_no_empty_last_line),
        cmocka_unit_test(tokens_have_columns),
        cmocka_unit_test(tokenize_counts_beyond_max),
        cmocka_unit_test(lone_cr_is_blank),
        cmocka_unit_test(prefix_contains_trim),
        cmocka_unit_test(token_is_exact),
        cmocka_unit_test(expect_fail_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
