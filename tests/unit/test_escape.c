// links: rd_render
/*
 * test_escape.c - escaping for every destination the render writes to:
 * Markdown cells, HTML, gnuplot single-quoted strings, file names, sheet
 * names and heading anchors. Expected strings are written out by hand from
 * the rules in render/escape.h (and, for anchors, GitHub's behaviour).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "escape.h"

static char *esc(enum rd_escape mode, const char *s, bool line_start)
{
    static struct rd_buf b = RD_BUF_INIT;
    rd_buf_reset(&b);
    assert_int_equal(rd_escape(&b, s, mode, line_start), RD_OK);
    return b.ptr;
}

static void test_md(void **state)
{
    (void)state;
    /* A pipe would open a new table cell, a newline end the row. */
    assert_string_equal(esc(RD_ESC_MD, "a|b\nc", false), "a\\|b c");
    assert_string_equal(esc(RD_ESC_MD, "<b>x</b>", false), "\\<b\\>x\\</b\\>");
    assert_string_equal(esc(RD_ESC_MD, "[l](http://x) ![i](y)", false),
                        "\\[l\\](http://x) \\!\\[i\\](y)");
    assert_string_equal(esc(RD_ESC_MD, "`cmd` *a* _b_ ~c~ &amp; \\", false),
                        "\\`cmd\\` \\*a\\* \\_b\\_ \\~c\\~ \\&amp; \\\\");
    /* Block starters matter only at the start of a line. */
    assert_string_equal(esc(RD_ESC_MD, "# x", true), "\\# x");
    assert_string_equal(esc(RD_ESC_MD, "# x", false), "# x");
    assert_string_equal(esc(RD_ESC_MD, "- x", true), "\\- x");
    assert_string_equal(esc(RD_ESC_MD, "12. x", true), "12\\. x");
    assert_string_equal(esc(RD_ESC_MD, "12 x", true), "12 x");
    assert_string_equal(esc(RD_ESC_MD, "=1+1", true), "\\=1+1");
    assert_string_equal(esc(RD_ESC_MD, "   # x", true), "\\# x");
    assert_string_equal(esc(RD_ESC_MD, "    code", true), "code");
    assert_string_equal(esc(RD_ESC_MD, "  a", false), "  a");
    assert_string_equal(esc(RD_ESC_MD, "plain v26.10.0", true), "plain v26.10.0");
    assert_string_equal(esc(RD_ESC_MD, "tab\there\r", false), "tab here ");
}

static void test_html(void **state)
{
    (void)state;
    assert_string_equal(esc(RD_ESC_HTML, "<a href=\"x\" title='y'>&</a>", false),
                        "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    assert_string_equal(esc(RD_ESC_HTML, "a\x1b[31mb\nc", false), "a [31mb\nc");
    assert_string_equal(esc(RD_ESC_PLAIN, "a|b\x01", false), "a|b ");
    assert_string_equal(esc(RD_ESC_RAW, "<b>", false), "<b>");
}

static void test_gnuplot(void **state)
{
    (void)state;
    struct rd_buf b = RD_BUF_INIT;
    /* Backquotes and @macros are inert inside single quotes; a quote
     * becomes a joined "\047" (gnuplot 5.4 misreads runs of doubled
     * quotes, and its @macro expander counts every quote); a newline
     * would end the command. tests/cases/render/0010 feeds such labels
     * to a real gnuplot. */
    assert_int_equal(rd_escape_gnuplot(&b, "x'`touch P`\n@m\"y"), RD_OK);
    assert_string_equal(b.ptr, "'x'.\"\\047\".'`touch P` @m\"y'");
    rd_buf_reset(&b);
    assert_int_equal(rd_escape_gnuplot(&b, "a''b\\"), RD_OK);
    assert_string_equal(b.ptr, "'a'.\"\\047\".''.\"\\047\".'b\\'");
    rd_buf_reset(&b);
    assert_int_equal(rd_escape_gnuplot(&b, ""), RD_OK);
    assert_string_equal(b.ptr, "''");
    rd_buf_release(&b);
}

static char *fname(const char *s, size_t max)
{
    static struct rd_buf b = RD_BUF_INIT;
    rd_buf_reset(&b);
    assert_int_equal(rd_sanitize_filename(&b, s, max), RD_OK);
    return b.ptr;
}

static void test_filename(void **state)
{
    (void)state;
    assert_string_equal(fname("cpu-heavycalc", 48), "cpu-heavycalc");
    assert_string_equal(fname("../../etc/passwd", 48), "etc_passwd");
    assert_string_equal(fname("a/b\\c d", 48), "a_b_c_d");
    assert_string_equal(fname("..", 48), "_");
    assert_string_equal(fname(".hidden", 48), "hidden");
    assert_string_equal(fname("a..b", 48), "a._b");
    assert_string_equal(fname("", 48), "_");
    assert_string_equal(fname("`touch PWNED`", 48), "touch_PWNED");
    assert_string_equal(fname("abcdefghij", 4), "abcd");
    assert_string_equal(fname("b\xc3\xbcn", 48), "b_n");
}

static void test_sheet_names(void **state)
{
    (void)state;
    char out[128];
    rd_sheet_name("a[b]:c*d?e/f\\g'h", out, sizeof out);
    assert_string_equal(out, "a_b__c_d_e_f_g_h");
    rd_sheet_name("0123456789012345678901234567890123456789", out, sizeof out);
    assert_string_equal(out, "0123456789012345678901234567890");
    assert_int_equal(strlen(out), 31);
    /* 31 characters, not bytes: 'ü' is two bytes but one character. */
    rd_sheet_name("\xc3\xbc" "123456789012345678901234567890XYZ", out, sizeof out);
    assert_string_equal(out, "\xc3\xbc" "123456789012345678901234567890");
    rd_sheet_name("", out, sizeof out);
    assert_string_equal(out, "sheet");
    rd_sheet_name("History", out, sizeof out);
    assert_string_equal(out, "History_");

    char *used[] = { "Methods", "cpu" };
    char name[128] = "methods";
    rd_sheet_name_unique(name, sizeof name, used, 2);
    assert_string_equal(name, "methods~2");
    char *used2[] = { "0123456789012345678901234567890" };
    snprintf(name, sizeof name, "0123456789012345678901234567890");
    rd_sheet_name_unique(name, sizeof name, used2, 1);
    assert_string_equal(name, "01234567890123456789012345678~2");
    strcpy(name, "fresh");
    rd_sheet_name_unique(name, sizeof name, used, 2);
    assert_string_equal(name, "fresh");
}

static void test_slug(void **state)
{
    (void)state;
    struct rd_buf b = RD_BUF_INIT;
    /* GitHub: "Machine and software" -> machine-and-software; punctuation
     * dropped, the em dash too, spaces kept as hyphens. */
    assert_int_equal(rd_slug(&b, "Machine and software"), RD_OK);
    assert_string_equal(b.ptr, "machine-and-software");
    rd_buf_reset(&b);
    assert_int_equal(rd_slug(&b, "Node.js vs Bun \xe2\x80\x94 I/O"), RD_OK);
    assert_string_equal(b.ptr, "nodejs-vs-bun--io");
    rd_buf_reset(&b);
    assert_int_equal(rd_slug(&b, "../cpu/`touch X`"), RD_OK);
    assert_string_equal(b.ptr, "cputouch-x");
    /* Issue 28: a workload named '.' was linked as [.](#), the top of the
     * page: a heading of punctuation only gets a word. */
    rd_buf_reset(&b);
    assert_int_equal(rd_slug(&b, "."), RD_OK);
    assert_string_equal(b.ptr, "section");
    rd_buf_reset(&b);
    assert_int_equal(rd_buf_addstr(&b, "x#"), RD_OK);
    assert_int_equal(rd_slug(&b, "..."), RD_OK);
    assert_string_equal(b.ptr, "x#section");
    rd_buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md),
        cmocka_unit_test(test_html),
        cmocka_unit_test(test_gnuplot),
        cmocka_unit_test(test_filename),
        cmocka_unit_test(test_sheet_names),
        cmocka_unit_test(test_slug),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
