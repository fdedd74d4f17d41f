// links: rd_render
/*
 * test_render_model.c - what the loader derives from analysis.json and the
 * back ends share: config names and label columns, best / recommended /
 * runner-up, pair lookup in either orientation (the ratio and its CI
 * invert), tied lists, baselines, anchors and file stems, colours, the
 * chart plan, and the messages for analyses it cannot use.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "backends.h"
#include "model.h"

static const char *DOC =
    "{\"schema\":\"rundown.analysis/1\",\"settings\":{\"alpha\":0.05},"
    "\"environments\":[{\"id\":\"e1\",\"cpu\":{\"model\":\"EPYC\",\"cores_logical\":2},"
    "  \"memory_kib\":25165824,\"runtimes\":{\"node\":{\"version\":\"v26.10.0\"},\"bun\":{\"version\":null}},"
    "  \"captured_at\":\"2026-11-30T01:00:00Z\",\"governor\":null}],"
    "\"workloads\":["
    " {\"name\":\"cpu heavy\",\"primary\":{\"metric\":\"wall_ms\",\"better\":\"lower\"},"
    "  \"baseline\":[\"runtime=node,workers=2\"],"
    "  \"configs\":["
    "   {\"id\":\"runtime=node,workers=2\",\"labels\":{\"workers\":\"2\",\"runtime\":\"node\"},"
    "    \"metrics\":{\"wall_ms\":{\"mean\":300,\"values\":[299,301]}}},"
    "   {\"id\":\"runtime=bun,workers=4\",\"labels\":{\"workers\":\"4\",\"runtime\":\"bun\"},"
    "    \"metrics\":{\"wall_ms\":{\"mean\":100}}},"
    "   {\"id\":\"runtime=zig,workers=4\",\"labels\":{\"workers\":\"4\",\"runtime\":\"zig\"},"
    "    \"metrics\":{\"wall_ms\":{\"mean\":105}}}],"
    "  \"tests\":{\"pairs\":[{\"a\":\"runtime=bun,workers=4\",\"b\":\"runtime=zig,workers=4\","
    "    \"ratio\":0.8,\"ratio_ci_low\":0.5,\"ratio_ci_high\":1.25,\"p_holm\":0.3}]},"
    "  \"recommendation\":{\"best\":\"runtime=bun,workers=4\",\"tied\":[\"runtime=zig,workers=4\"],"
    "    \"recommended\":\"runtime=zig,workers=4\"}},"
    " {\"name\":\"Recommendations\",\"primary\":{\"metric\":\"rps\",\"better\":\"higher\"},"
    "  \"configs\":[{\"id\":\"a\",\"metrics\":{\"rps\":{\"mean\":10,\"values\":[]}}},"
    "              {\"id\":\"b\",\"metrics\":{\"rps\":{\"mean\":20}}}]},"
    " {\"name\":\"cpu/heavy\",\"configs\":[]}]}";

static struct rd_report report;

static int setup(void **state)
{
    (void)state;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    cJSON *root = cJSON_Parse(DOC);
    assert_non_null(root);
    assert_int_equal(rd_report_init(&report, root, "t.json", &d), RD_OK);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rd_report_release(&report);
    return 0;
}

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(report.nworkloads, 3);
    const struct rd_rworkload *w = &report.workloads[0];
    assert_int_equal(w->nkeys, 2);
    assert_string_equal(w->keys[0], "runtime");
    assert_string_equal(w->keys[1], "workers");
    assert_string_equal(w->configs[0].name, "node / workers=2");
    assert_string_equal(report.workloads[1].configs[0].name, "a");
    assert_string_equal(report.title, "Benchmark report");
    assert_string_equal(report.date, "2026-11-30T01:00:00Z");
    /* Anchors follow GitHub: "Recommendations" is taken by the section of
     * that name, so the workload gets "-1". */
    assert_string_equal(w->slug, "cpu-heavy");
    assert_string_equal(report.workloads[1].slug, "recommendations-1");
    /* "cpu heavy" and "cpu/heavy" both sanitise to cpu_heavy. */
    assert_string_equal(w->file, "cpu_heavy");
    assert_string_equal(report.workloads[2].file, "cpu_heavy-2");
}

static void test_best(void **state)
{
    (void)state;
    const struct rd_rworkload *w = &report.workloads[0];
    assert_int_equal(w->best, 1);
    assert_int_equal(w->recommended, 2);
    /* Runner-up of the recommended zig is the best other mean: bun. */
    assert_int_equal(w->runner_up, 1);
    assert_int_equal(rd_workload_baseline(w), 0);
    /* Without a recommendation, higher-is-better picks the larger mean. */
    const struct rd_rworkload *w2 = &report.workloads[1];
    assert_int_equal(w2->best, 1);
    assert_int_equal(w2->recommended, 1);
    assert_int_equal(w2->runner_up, 0);
    assert_int_equal(report.workloads[2].best, -1);

    struct rd_buf b = RD_BUF_INIT;
    assert_int_equal(rd_tied_text(w, &b), RD_OK);
    assert_string_equal(b.ptr, "bun / workers=4");
    rd_buf_release(&b);
}

static void test_compare(void **state)
{
    (void)state;
    const struct rd_rworkload *w = &report.workloads[0];
    double r, lo, hi, p;
    /* Stored as (bun, zig): 0.8 (0.5 to 1.25). Seen as zig / bun it is
     * 1 / 0.8 = 1.25 with the interval 1 / 1.25 = 0.8 to 1 / 0.5 = 2. */
    rd_compare(w, 2, 1, &r, &lo, &hi, &p);
    assert_float_equal(r, 1.25, 1e-12);
    assert_float_equal(lo, 0.8, 1e-12);
    assert_float_equal(hi, 2.0, 1e-12);
    assert_float_equal(p, 0.3, 1e-12);
    rd_compare(w, 1, 2, &r, &lo, &hi, &p);
    assert_float_equal(r, 0.8, 1e-12);
    /* No stored pair: the ratio of means, and no interval or p. */
    rd_compare(w, 0, 1, &r, &lo, &hi, &p);
    assert_float_equal(r, 3.0, 1e-12);
    assert_true(isnan(lo) && isnan(hi) && isnan(p));
    bool swapped;
    assert_non_null(rd_workload_pair(w, "runtime=zig,workers=4", "runtime=bun,workers=4", &swapped));
    assert_true(swapped);
    assert_null(rd_workload_pair(w, "runtime=node,workers=2", "runtime=bun,workers=4", &swapped));
}

static void test_colours_and_plan(void **state)
{
    (void)state;
    /* node, bun keep their colours; zig takes the first of the palette. */
    assert_int_equal(report.nruntimes, 3);
    assert_string_equal(rd_runtime_colour(&report, report.workloads[0].configs[0].runtime), "#3c873a");
    assert_string_equal(rd_runtime_colour(&report, report.workloads[0].configs[1].runtime), "#d9822b");
    assert_string_equal(rd_runtime_colour(&report, report.workloads[0].configs[2].runtime), "#8e44ad");
    assert_string_equal(rd_runtime_colour(&report, -1), "#7f7f7f");
    assert_true(rd_label_numeric(&report.workloads[0], "workers"));
    assert_false(rd_label_numeric(&report.workloads[0], "runtime"));

    struct rd_chart_plan p;
    assert_int_equal(rd_chart_plan_make(&report, &p), RD_OK);
    const char *want[] = { "cpu_heavy-means", "cpu_heavy-runs", "cpu_heavy-scaling-workers",
                           "Recommendations-means" };
    assert_int_equal(p.n, 4);
    for (size_t i = 0; i < p.n; i++)
        assert_string_equal(p.items[i].stem, want[i]);
    assert_int_equal(p.items[2].kind, RD_CHART_SCALING);
    rd_chart_plan_release(&p);
}

static void test_env(void **state)
{
    (void)state;
    size_t n;
    const struct rd_env_row *rows = rd_env_rows(&n);
    const cJSON *env = cJSON_GetArrayItem(report.envs, 0);
    struct rd_buf b = RD_BUF_INIT;
    bool is_null;
    const char *want[][2] = {
        { "CPU", "EPYC" }, { "Cores", "2" }, { "Memory", "24.0 GiB" },
        { "Runtimes", "node v26.10.0, bun (not found)" },
    };
    for (size_t k = 0; k < 4; k++) {
        size_t i = 0;
        while (i < n && strcmp(rows[i].label, want[k][0]) != 0)
            i++;
        assert_true(i < n);
        rd_buf_reset(&b);
        assert_true(rd_env_value(env, &rows[i], &b, &is_null));
        assert_false(is_null);
        assert_string_equal(b.ptr, want[k][1]);
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].label, "Governor") == 0) {
            assert_true(rd_env_value(env, &rows[i], &b, &is_null));
            assert_true(is_null);
        }
        if (strcmp(rows[i].label, "Pinning") == 0)
            assert_false(rd_env_value(env, &rows[i], &b, &is_null));
    }
    assert_true(rd_env_known_key("cpu"));
    assert_true(rd_env_known_key("schema"));
    assert_false(rd_env_known_key("hypervisor"));
    rd_buf_release(&b);
}

static void expect_error(const char *doc, rd_status want, const char *msg)
{
    struct rd_report r;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    cJSON *root = cJSON_Parse(doc);
    assert_int_equal(rd_report_init(&r, root, "x.json", &d), want);
    char out[700];
    rd_diag_format(&d, out, sizeof out);
    assert_string_equal(out, msg);
    rd_report_release(&r);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("[1]", RD_ERR_PARSE, "x.json: expected a JSON object");
    expect_error("{\"schema\":\"rundown.run/1\"}", RD_ERR_PARSE,
                 "x.json: expected schema 'rundown.analysis/1', got 'rundown.run/1'");
    expect_error("{\"schema\":\"rundown.analysis/1\"}", RD_ERR_PARSE,
                 "x.json: expected 'workloads' to be an array");
    expect_error("{\"schema\":\"rundown.analysis/1\",\"workloads\":[{\"name\":\"a\",\"configs\":[{\"id\":\"x\","
                 "\"labels\":{\"k\":1}}]}]}", RD_ERR_PARSE,
                 "x.json: workloads[0].configs[0].labels.k: expected a string");
    expect_error("{\"schema\":\"rundown.analysis/1\",\"workloads\":[{\"name\":\"a\",\"configs\":{}}]}",
                 RD_ERR_PARSE, "x.json: workloads[0].configs: expected an array");
}

/* The total of runs the report states: the primary metric's n summed over
 * every config, or -1 (not stated) when an n is not a count. */
static long run_total(const char *n1, const char *n2)
{
    char doc[1024];
    snprintf(doc, sizeof doc,
             "{\"schema\":\"rundown.analysis/1\",\"workloads\":[{\"name\":\"a\","
             "\"primary\":{\"metric\":\"wall_ms\",\"better\":\"lower\"},\"configs\":["
             "{\"id\":\"x\",\"metrics\":{\"wall_ms\":{\"mean\":1%s%s}}},"
             "{\"id\":\"y\",\"metrics\":{\"wall_ms\":{\"mean\":2%s%s}}}]}]}",
             n1 ? ",\"n\":" : "", n1 ? n1 : "", n2 ? ",\"n\":" : "", n2 ? n2 : "");
    cJSON *root = cJSON_Parse(doc);
    assert_non_null(root);
    struct rd_report r;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_report_init(&r, root, "x.json", &d), RD_OK);
    long runs = r.runs;
    rd_report_release(&r);
    return runs;
}

static void test_run_total(void **state)
{
    (void)state;
    assert_int_equal(run_total("3", "5"), 8);
    assert_int_equal(run_total("3", NULL), 3);
    assert_int_equal(run_total(NULL, NULL), -1);
    /* Found by fuzz_render_model: (long)7.7e76 is undefined. */
    assert_int_equal(run_total("3", "7.7e76"), -1);
    assert_int_equal(run_total("3", "2.5"), -1);
    assert_int_equal(run_total("-1", "5"), -1);
    assert_int_equal(run_total("1e15", "1e15"), -1); /* the sum is past what is stated */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_best),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_colours_and_plan),
        cmocka_unit_test(test_env),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_run_total),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
