// links: rd_render
/*
 * test_template.c - the template engine: values, escaping by destination
 * and by filter, sections over lists, objects and conditions, inverted
 * sections, standalone lines, and the errors a user's template can make
 * (with file:line:col). Expected outputs are written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "template.h"

/* The data every test renders against, as JSON would write it:
 * {"title":"A|B <x>","n":5,"half":0.5,"none":null,"yes":true,"no":false,
 *  "empty":"","list":[],"rows":[{"name":"bun","sig":true},
 *  {"name":"de|no","sig":false}],"env":{"os":"Linux","cpu":{"model":"EPYC"}},
 *  "tags":["a","b*"]} */
static void make_data(struct rd_tdata *t)
{
    rd_tdata_init(t);
    struct rd_tval *root = t->root;
    rd_tdata_string(t, root, "title", "A|B <x>");
    rd_tdata_number(t, root, "n", 5);
    rd_tdata_number(t, root, "half", 0.5);
    rd_tdata_string(t, root, "none", NULL);
    rd_tdata_bool(t, root, "yes", true);
    rd_tdata_bool(t, root, "no", false);
    rd_tdata_string(t, root, "empty", "");
    rd_tdata_list(t, root, "list");
    struct rd_tval *rows = rd_tdata_list(t, root, "rows");
    const char *names[] = { "bun", "de|no" };
    for (int i = 0; i < 2; i++) {
        struct rd_tval *row = rd_tdata_object(t, rows, NULL);
        rd_tdata_string(t, row, "name", names[i]);
        rd_tdata_bool(t, row, "sig", i == 0);
    }
    struct rd_tval *env = rd_tdata_object(t, root, "env");
    rd_tdata_string(t, env, "os", "Linux");
    rd_tdata_string(t, rd_tdata_object(t, env, "cpu"), "model", "EPYC");
    struct rd_tval *tags = rd_tdata_list(t, root, "tags");
    rd_tdata_string(t, tags, NULL, "a");
    rd_tdata_string(t, tags, NULL, "b*");
    assert_false(t->failed);
}

static struct rd_diag diag;

/* Renders tmpl against the data; returns a static copy or NULL on error. */
static const char *render(const char *tmpl, enum rd_escape esc)
{
    static char out[4096];
    struct rd_tdata data;
    make_data(&data);
    struct rd_template *t = NULL;
    struct rd_buf b = RD_BUF_INIT;
    rd_diag_init(&diag, NULL);
    rd_status st = rd_template_parse(tmpl, strlen(tmpl), "t.tmpl", esc, &t, &diag);
    if (st == RD_OK)
        st = rd_template_render(t, data.root, &b, &diag);
    snprintf(out, sizeof out, "%s", b.ptr);
    rd_buf_release(&b);
    rd_template_free(t);
    rd_tdata_release(&data);
    return st == RD_OK ? out : NULL;
}

static const char *error_of(const char *tmpl)
{
    static char msg[700];
    assert_null(render(tmpl, RD_ESC_MD));
    rd_diag_format(&diag, msg, sizeof msg);
    return msg;
}

static void test_values(void **state)
{
    (void)state;
    assert_string_equal(render("# {{title}}!", RD_ESC_MD), "# A\\|B \\<x\\>!");
    assert_string_equal(render("{{title}}", RD_ESC_HTML), "A|B &lt;x&gt;");
    assert_string_equal(render("{{title|html}} {{&title}} {{ title | plain }}", RD_ESC_MD),
                        "A|B &lt;x&gt; A|B <x> A|B <x>");
    assert_string_equal(render("n={{n}} h={{half}} u={{none}} {{yes}}/{{no}}", RD_ESC_MD),
                        "n=5 h=0.5 u=\xe2\x80\x94 true/false");
    assert_string_equal(render("{{env.os}} {{env.cpu.model}}", RD_ESC_MD), "Linux EPYC");
    assert_string_equal(render("no tags here", RD_ESC_MD), "no tags here");
    assert_string_equal(render("", RD_ESC_MD), "");
}

static void test_sections(void **state)
{
    (void)state;
    /* Lists repeat, objects are entered, outer names stay visible. */
    assert_string_equal(render("{{#rows}}[{{name}}{{#sig}}*{{/sig}} of {{n}}]{{/rows}}", RD_ESC_MD),
                        "[bun* of 5][de\\|no of 5]");
    assert_string_equal(render("{{#env}}{{os}}{{/env}}", RD_ESC_MD), "Linux");
    assert_string_equal(render("{{#tags}}<{{.}}>{{/tags}}", RD_ESC_RAW), "<a><b*>");
    assert_string_equal(render("{{#tags}}{{.}},{{/tags}}", RD_ESC_MD), "a,b\\*,");
    /* Falsy: missing, null, false, "", []; 0 is a value, so it is true. */
    assert_string_equal(render("{{#missing}}x{{/missing}}{{#none}}x{{/none}}{{#no}}x{{/no}}"
                               "{{#empty}}x{{/empty}}{{#list}}x{{/list}}.", RD_ESC_MD), ".");
    assert_string_equal(render("{{^missing}}a{{/missing}}{{^none}}b{{/none}}{{^list}}c{{/list}}"
                               "{{^rows}}d{{/rows}}{{^yes}}e{{/yes}}", RD_ESC_MD), "abc");
    assert_string_equal(render("{{#n}}n is {{.}}{{/n}}", RD_ESC_MD), "n is 5");
}

static void test_standalone(void **state)
{
    (void)state;
    /* Section tags alone on a line vanish with their line. */
    assert_string_equal(render("| h |\n{{#rows}}\n| {{name}} |\n{{/rows}}\nend\n", RD_ESC_MD),
                        "| h |\n| bun |\n| de\\|no |\nend\n");
    assert_string_equal(render("a\n  {{! note }}  \nb", RD_ESC_MD), "a\nb");
    assert_string_equal(render("{{^list}}\nnone\n{{/list}}", RD_ESC_MD), "none\n");
    /* Not alone: the line stays. */
    assert_string_equal(render("x {{#yes}}y{{/yes}}\nz", RD_ESC_MD), "x y\nz");
    /* Values at a line start get Markdown's block escapes. */
    assert_string_equal(render("{{#tags}}\n{{.}}\n{{/tags}}", RD_ESC_MD), "a\nb\\*\n");
}

static void test_errors(void **state)
{
    (void)state;
    assert_string_equal(error_of("a\n {{#rows}}x"),
                        "t.tmpl:2:2: section 'rows' is never closed");
    assert_string_equal(error_of("{{#rows}}\n{{/env}}"),
                        "t.tmpl:2:1: expected '{{/rows}}' (opened at 1:1), got '{{/env}}'");
    assert_string_equal(error_of("x{{/rows}}"), "t.tmpl:1:2: '{{/rows}}' closes no open section");
    assert_string_equal(error_of("ab {{title"), "t.tmpl:1:4: expected '}}' to close this tag");
    /* Positions after several tags and lines (counted by hand: the bad tag
     * starts on line 3 after "{{n}} " = 6 characters, so column 7). */
    assert_string_equal(error_of("{{title}}\n{{#rows}}{{name}}{{/rows}}\n{{n}} {{bad name}}"),
                        "t.tmpl:3:7: expected a name of letters, digits, '_', '-', '.' in the tag");
    assert_string_equal(error_of("{{bad name}}"),
                        "t.tmpl:1:1: expected a name of letters, digits, '_', '-', '.' in the tag");
    assert_string_equal(error_of("{{title|pdf}}"),
                        "t.tmpl:1:1: expected a filter md, html, plain or raw after '|'");
    /* Render-time errors carry the position too (folded into the message,
     * since the template is gone when the caller prints). */
    assert_string_equal(error_of("\n  {{nope}}"), "t.tmpl:2:3: unknown value 'nope'");
    assert_string_equal(error_of("{{rows}}"),
                        "t.tmpl:1:1: 'rows' is a list or an object, not a value (use a section)");
    assert_string_equal(error_of("{{env.nope}}"), "t.tmpl:1:1: unknown value 'env.nope'");

    char deep[33 * 10 + 1] = "";
    for (int i = 0; i < 33; i++)
        strcat(deep, "{{#yes}}");
    assert_string_equal(error_of(deep), "t.tmpl:1:257: sections nested deeper than 32");
}

static void test_load(void **state)
{
    (void)state;
    struct rd_template *t = NULL;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    /* The shipped templates compile. */
    assert_int_equal(rd_template_load(RD_SOURCE_DIR "/templates", "report.md.tmpl",
                                      RD_ESC_MD, &t, &d), RD_OK);
    rd_template_free(t);
    assert_int_equal(rd_template_load(RD_SOURCE_DIR "/templates", "report.html.tmpl",
                                      RD_ESC_HTML, &t, &d), RD_OK);
    rd_template_free(t);
    assert_int_equal(rd_template_load("/nonexistent", "x.tmpl", RD_ESC_MD, &t, &d), RD_ERR_IO);
    assert_null(t);
    char msg[700];
    rd_diag_format(&d, msg, sizeof msg);
    assert_non_null(strstr(msg, "/nonexistent/x.tmpl"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_sections),
        cmocka_unit_test(test_standalone),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
