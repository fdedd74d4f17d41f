// links: rd_render
/*
 * test_render_html.c - the HTML back end's own defences, fed Markdown
 * directly (as a user's template could produce it): raw HTML becomes
 * text, links other than in-page anchors are neutralised, foreign images
 * become their alt text, our chart images become inline SVG (without XML
 * prolog or namespace URLs, ids made unique), headings get GitHub anchors
 * and the table of contents, tables get a scrolling wrapper.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "backends.h"

static const char *SVG =
    "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
    "<svg \n viewBox=\"0 0 800 450\"\n xmlns=\"http://www.w3.org/2000/svg\"\n"
    " xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n"
    "<g id=\"gnuplot_canvas\"><path id='gpPt0' d='M0,0'/>"
    "<use xlink:href='#gpPt0'/><text>a &lt;b</text></g></svg>\n";

static char dir[64];
static char *html;

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/test_render_html.XXXXXX");
    assert_non_null(mkdtemp(dir));
    char charts[128];
    snprintf(charts, sizeof charts, "%s/charts", dir);
    assert_int_equal(mkdir(charts, 0777), 0);

    struct rd_stage s;
    assert_int_equal(rd_stage_init(&s, dir, NULL), RD_OK);
    const char *tmp;
    assert_int_equal(rd_stage_reserve(&s, "charts/w-means.svg", &tmp, NULL), RD_OK);
    FILE *f = fopen(tmp, "w");
    assert_non_null(f);
    fputs(SVG, f);
    fclose(f);

    struct rd_report r;
    memset(&r, 0, sizeof r);
    r.title = "T <1>";
    const char *md =
        "# Title\n\n## Results & more\n\n## Results & more\n\n"
        "<script>alert(1)</script>\n\n"
        "Inline <b onclick=\"x()\">bold</b> [js](javascript:alert(1)) [ext](https://evil.example/) "
        "[ok](#results--more) ![remote](http://evil.example/x.png)\n\n"
        "![w: mean](charts/w-means.svg)\n\n"
        "![missing](charts/none.png) ![trav](charts/../../etc.svg)\n\n"
        "| a | b |\n|---|---:|\n| 1 | 2 |\n";
    struct rd_buf out = RD_BUF_INIT;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status st = rd_render_html(&r, md, strlen(md), RD_SOURCE_DIR "/templates", &s, &out, &d);
    if (st != RD_OK)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(st, RD_OK);
    html = rd_buf_detach(&out, NULL);
    rd_stage_release(&s);
    rmdir(charts);
    rmdir(dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(html);
    return 0;
}

static void test_no_active_content(void **state)
{
    (void)state;
    assert_int_equal(count(html, "<script"), 0);
    assert_int_equal(count(html, "<b onclick"), 0);
    assert_int_equal(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;"), 1);
    assert_int_equal(count(html, "&lt;b onclick="), 1);
    assert_int_equal(count(html, "javascript:"), 0);
    assert_int_equal(count(html, "href=\"https://"), 0);
    assert_int_equal(count(html, "http://evil"), 0);
    assert_int_equal(count(html, "<img"), 0);
    assert_int_equal(count(html, "<a href=\"#results--more\">ok</a>"), 1);
    /* Alt text stands in for images that are not our charts. */
    assert_non_null(strstr(html, "remote"));
    assert_non_null(strstr(html, "missing trav"));
    assert_non_null(strstr(html, "<title>T &lt;1&gt;</title>"));
}

static void test_chart_inline(void **state)
{
    (void)state;
    assert_int_equal(count(html, "<svg"), 1);
    assert_non_null(strstr(html, "<figure class=\"chart\">\n<svg class=\"chart\" role=\"img\" "
                                 "aria-label=\"w: mean\" viewBox=\"0 0 800 450\">"));
    assert_int_equal(count(html, "<?xml"), 0);
    assert_int_equal(count(html, "xmlns"), 0);
    assert_int_equal(count(html, "http://www.w3.org"), 0);
    /* Ids and references renamed together, so charts do not collide. */
    assert_int_equal(count(html, "id='c"), 1);
    char id[32];
    const char *p = strstr(html, "id='c");
    assert_non_null(p);
    snprintf(id, sizeof id, "%.*s", (int)(strchr(p + 4, '\'') - (p + 4)), p + 4);
    char ref[48];
    snprintf(ref, sizeof ref, "xlink:href='#%s'", id);
    assert_non_null(strstr(html, ref));
    assert_non_null(strstr(html, "<figcaption>w: mean</figcaption>"));
}

static void test_headings_tables(void **state)
{
    (void)state;
    /* GitHub: "Results & more" -> "results--more", then "-1". */
    assert_non_null(strstr(html, "<h2 id=\"results--more\">"));
    assert_non_null(strstr(html, "<h2 id=\"results--more-1\">"));
    assert_non_null(strstr(html, "<li><a href=\"#results--more-1\">Results &amp; more</a></li>"));
    assert_int_equal(count(html, "<div class=\"table-wrap\"><table>"), 1);
    assert_int_equal(count(html, "</table></div>"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_active_content),
        cmocka_unit_test(test_chart_inline),
        cmocka_unit_test(test_headings_tables),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
