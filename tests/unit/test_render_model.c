// links: rd_render
/*
 * test_render_model.c - what the reader makes of analysis.json and the
 * back ends share: typed fields (three-valued 'better', undefined as NaN,
 * entries of the wrong type), config names and label columns, best /
 * recommended / runner-up, pair lookup in either orientation (the ratio and
 * its CI invert), tied lists, baselines, anchors and file stems, colours,
 * the environment table, the chart plan, and the messages for analyses it
 * cannot use.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backends.h"
#include "derive.h"
#include "lookup.h"
#include "model.h"
#include "verdicts.h"

static const char *DOC =
    "{\"schema\":\"rundown.analysis/1\",\"settings\":{\"alpha\":0.05},"
    "\"environments\":[{\"id\":\"e1\",\"cpu\":{\"model\":\"EPYC\",\"cores_logical\":2},"
    "  \"memory_kib\":25165824,\"runtimes\":{\"node\":{\"version\":\"v26.10.0\"},\"bun\":{\"version\":null}},"
    "  \"captured_at\":\"2026-11-30T01:00:00Z\",\"governor\":null,\"hypervisor\":\"kvm\","
    "  \"root\":\"/home/me/bench/workloads\",\"home\":\"~/bench\",\"tools\":{},"
    "  \"check\":{\"quiet\":true},\"checks\":[{\"quiet\":true,\"findings\":[{\"what\":\"load\"}]}]}],"
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

static rd_status parse(struct rd_report *r, const char *doc, const char *path, struct rd_diag *d)
{
    rd_diag_init(d, NULL);
    return rd_report_parse(r, doc, strlen(doc), path, path, d);
}

static int setup(void **state)
{
    (void)state;
    struct rd_diag d;
    assert_int_equal(parse(&report, DOC, "t.json", &d), RD_OK);
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
    assert_int_equal(w->baseline, 0);
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
    const struct rd_rpair *pair = rd_workload_pair(w, "runtime=zig,workers=4",
                                                   "runtime=bun,workers=4", &swapped);
    assert_non_null(pair);
    assert_true(swapped);
    assert_float_equal(pair->ratio, 0.8, 1e-12);
    /* Not in the document: undefined, never 0. */
    assert_true(isnan(pair->welch_t) && isnan(pair->diff));
    assert_null(rd_workload_pair(w, "runtime=node,workers=2", "runtime=bun,workers=4", &swapped));
}

static void test_colours_and_plan(void **state)
{
    (void)state;
    /* Okabe-Ito: node, bun keep their colours; zig takes the first of the rest. */
    assert_int_equal(report.nruntimes, 3);
    assert_string_equal(rd_runtime_colour(&report, report.workloads[0].configs[0].runtime), "#009e73");
    assert_string_equal(rd_runtime_colour(&report, report.workloads[0].configs[1].runtime), "#e69f00");
    assert_string_equal(rd_runtime_colour(&report, report.workloads[0].configs[2].runtime), "#d55e00");
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

/* The row labelled 'label', or NULL. */
static const struct rd_renv_row *env_row(const char *label)
{
    for (size_t i = 0; i < report.nenv_rows; i++)
        if (strcmp(report.env_rows[i].label, label) == 0)
            return &report.env_rows[i];
    return NULL;
}

static void test_env(void **state)
{
    (void)state;
    assert_int_equal(report.nenvs, 1);
    assert_string_equal(report.env_ids[0], "e1");
    /* 25165824 KiB / 1024^2 = 24.0 GiB; a tool without a version was not found. */
    const char *want[][2] = {
        { "CPU", "EPYC" }, { "Cores", "2" }, { "Memory", "24.0 GiB" },
        { "Runtimes", "node v26.10.0, bun (not found)" }, { "Captured", "2026-11-30T01:00:00Z" },
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        const struct rd_renv_row *row = env_row(want[k][0]);
        assert_non_null(row);
        assert_string_equal(row->values[0], want[k][1]);
    }
    /* A null is a row without a value; an absent field is no row. */
    assert_non_null(env_row("Governor"));
    assert_null(env_row("Governor")->values[0]);
    assert_null(env_row("Pinning"));
    /* A field this version does not know still gets a row of its own. */
    assert_non_null(env_row("hypervisor"));
    assert_string_equal(env_row("hypervisor")->values[0], "kvm");
    /* Rows come in the table's order: CPU before Memory before the unknown. */
    assert_true(env_row("CPU") < env_row("Memory"));
    assert_true(env_row("Memory") < env_row("hypervisor"));
    /* A local path is no fact about the machine, and a report is shared
     * (issue 29): the suite's root is left out. */
    assert_null(env_row("root"));
    assert_null(env_row("home"));
    /* Each collection's check (the list beside "check") is the machine
     * line's to sum up, not a row of flattened findings; an empty object
     * says nothing. */
    assert_null(env_row("checks"));
    assert_null(env_row("Load tools"));
    assert_non_null(env_row("Quiet at start"));
}

/* Each field as its type says, whatever the document holds there. */
static const char *TYPES =
    "{\"schema\":\"rundown.analysis/1\","
    "\"settings\":{\"alpha\":0.05,\"baseline\":{\"runtime\":\"node\"},\"pool_envs\":false,\"metric\":null},"
    "\"inputs\":[\"a.jsonl\",7],"
    "\"workloads\":["
    " {\"name\":\"lo\",\"primary\":{\"metric\":\"wall_ms\",\"better\":\"lower\"},"
    "  \"configs\":[{\"id\":\"x\",\"metrics\":{\"wall_ms\":{\"mean\":1,\"sd\":null,"
    "    \"values\":[1,null,\"2\",3]},\"wall_ms\":{\"mean\":9},\"n\":4}}],"
    "  \"tests\":{\"pairs\":[1,{\"a\":\"x\",\"b\":\"y\",\"p\":\"0.1\",\"p_holm\":0.2}]},"
    "  \"warnings\":[{\"code\":\"few_runs\",\"config\":\"x\"},null]},"
    " {\"name\":\"hi\",\"primary\":{\"metric\":\"rps\",\"better\":\"higher\"},\"recommendation\":null},"
    " {\"name\":\"none\",\"primary\":{\"better\":\"none\"},\"recommendation\":{\"tied\":[1,\"x\"]}},"
    " {\"name\":\"odd\",\"primary\":{\"better\":\"sideways\"}}]}";

static void test_types(void **state)
{
    (void)state;
    struct rd_report r;
    struct rd_diag d;
    assert_int_equal(parse(&r, TYPES, "t.json", &d), RD_OK);
    assert_int_equal(r.nworkloads, 4);
    /* 'better' has three values; anything else is no direction. */
    assert_int_equal(r.workloads[0].better, RD_BETTER_LOWER);
    assert_int_equal(r.workloads[1].better, RD_BETTER_HIGHER);
    assert_int_equal(r.workloads[2].better, RD_BETTER_NONE);
    assert_int_equal(r.workloads[3].better, RD_BETTER_NONE);
    assert_string_equal(rd_better_words(RD_BETTER_LOWER), "lower is better");
    assert_string_equal(rd_better_words(RD_BETTER_HIGHER), "higher is better");
    assert_string_equal(rd_better_words(RD_BETTER_NONE), "no better direction");

    const struct rd_rconfig *c = &r.workloads[0].configs[0];
    /* A repeated metric is the first one, as a lookup in the document
     * finds it; a metric that is not an object is none. */
    assert_int_equal(c->nmetrics, 1);
    assert_float_equal(c->primary->mean, 1, 0);
    assert_true(isnan(c->primary->sd) && isnan(c->primary->n));
    assert_true(isnan(c->failed_runs));
    /* Only numbers are values: [1, null, "2", 3] holds two. */
    assert_int_equal(c->primary->nvalues, 2);
    assert_float_equal(c->primary->values[1], 3, 0);

    /* Every pair and warning entry is a row, one of the wrong type empty. */
    const struct rd_rtests *t = r.workloads[0].tests;
    assert_non_null(t);
    assert_int_equal(t->npairs, 2);
    assert_null(t->pairs[0].a);
    assert_true(isnan(t->pairs[0].ratio));
    assert_true(isnan(t->pairs[1].p));
    assert_float_equal(t->pairs[1].p_holm, 0.2, 0);
    assert_false(t->anova.present);
    assert_int_equal(r.workloads[0].nwarnings, 2);
    assert_string_equal(r.workloads[0].warnings[0].code, "few_runs");
    assert_null(r.workloads[0].warnings[1].code);
    assert_null(r.workloads[1].tests);
    assert_null(r.workloads[1].rec);
    assert_int_equal(r.workloads[2].rec->ntied, 1);

    assert_int_equal(r.ninputs, 1);
    assert_string_equal(r.inputs[0], "a.jsonl");
    /* Settings for the Methods sheet: numbers as numbers, the rest as text. */
    assert_int_equal(r.nsettings, 4);
    assert_true(r.settings[0].is_number);
    assert_float_equal(r.settings[0].number, 0.05, 0);
    assert_string_equal(r.settings[1].text, "runtime node");
    assert_string_equal(r.settings[2].text, "no");
    assert_null(r.settings[3].text);
    assert_float_equal(r.alpha, 0.05, 0);
    assert_true(isnan(r.confidence));
    /* No environments at all: nothing listed, no table. */
    assert_false(r.envs_listed);
    assert_int_equal(r.nenv_rows, 0);
    rd_report_release(&r);
}

/* A config's statistics and a pair are read in one walk over their
 * members (model.c, nums): whatever the order, the first member of a
 * name counts, as a lookup finds it, and one that is not a finite number
 * is NaN. */
static void test_number_members(void **state)
{
    (void)state;
    static const char doc[] =
        "{\"schema\":\"rundown.analysis/1\",\"workloads\":[{\"name\":\"w\","
        " \"primary\":{\"metric\":\"wall_ms\",\"better\":\"lower\"},"
        " \"configs\":[{\"id\":\"a\",\"metrics\":{\"wall_ms\":{\"geomean\":7,"
        "  \"mean\":2,\"x\":1,\"mean\":3,\"sd\":null,\"n\":\"5\",\"n\":5,"
        "  \"max\":1e999,\"min\":1,\"cv\":0.5,\"cv\":0.25}}}],"
        " \"tests\":{\"pairs\":[{\"ratio_ci_high\":9,\"b\":\"a\",\"p\":0.5,"
        "  \"p_bh\":1,\"p\":0.25,\"a\":\"a\",\"welch_t\":true,\"ratio\":2}]}}]}";
    struct rd_report r;
    struct rd_diag d;
    assert_int_equal(parse(&r, doc, "t.json", &d), RD_OK);
    const struct rd_rstats *s = r.workloads[0].configs[0].primary;
    assert_non_null(s);
    assert_float_equal(s->geomean, 7, 0);
    assert_float_equal(s->mean, 2, 0);
    assert_true(isnan(s->sd) && isnan(s->n) && isnan(s->max) && isnan(s->median));
    assert_float_equal(s->min, 1, 0);
    assert_float_equal(s->cv, 0.5, 0);
    const struct rd_rpair *p = &r.workloads[0].tests->pairs[0];
    assert_string_equal(p->a, "a");
    assert_float_equal(p->ratio_ci_high, 9, 0);
    assert_float_equal(p->p, 0.5, 0);
    assert_float_equal(p->ratio, 2, 0);
    assert_true(isnan(p->welch_t) && isnan(p->diff));
    rd_report_release(&r);
}

static void expect_error(const char *doc, rd_status want, const char *msg)
{
    struct rd_report r;
    struct rd_diag d;
    assert_int_equal(parse(&r, doc, "x.json", &d), want);
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

/* The same status and message whether an analysis is read lazily (its
 * UTF-8 checked on a thread beside the reading) or whole (checked first):
 * a byte that is not UTF-8, also with JSON that is broken after it. */
static void test_utf8_lazy_and_whole(void **state)
{
    (void)state;
    static const char *const docs[] = {
        "{\"schema\":\"rundown.analysis/1\",\"workloads\":[{\"name\":\"a\xff\",\"configs\":"
        "[{\"id\":\"x\",\"metrics\":{}},{\"id\":\"y\",\"metrics\":{}}]}]}",
        "{\"schema\":\"rundown.analysis/1\",\"workloads\":[{\"name\":\"a\",\"configs\":"
        "[{\"id\":\"x\xc3\",\"metrics\":{}},{\"id\":\"y\",\"metrics\":{},}]}]}",
        "{\"schema\":\"rundown.analysis/1\",\"workloads\":[{\"name\":\"a\",\"configs\":"
        "[{\"id\":\"x\",\"metrics\":{}},{\"id\":\"y\",\"metrics\":{}}]}]}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        char whole[700], lazy[700];
        struct rd_report r;
        struct rd_diag d;
        rd_status st_whole = parse(&r, docs[i], "x.json", &d);
        rd_diag_format(&d, whole, sizeof whole);
        rd_report_release(&r);
        setenv("RUNDOWN_RENDER_DEFER_BYTES", "0", 1);
        rd_status st_lazy = parse(&r, docs[i], "x.json", &d);
        unsetenv("RUNDOWN_RENDER_DEFER_BYTES");
        rd_diag_format(&d, lazy, sizeof lazy);
        if (st_lazy == RD_OK)
            assert_int_equal(r.nworkloads, 1);
        rd_report_release(&r);
        assert_int_equal(st_lazy, st_whole);
        assert_int_equal(st_whole, i < 2 ? RD_ERR_PARSE : RD_OK);
        if (i < 2)
            assert_string_equal(lazy, whole);
    }
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
    struct rd_report r;
    struct rd_diag d;
    assert_int_equal(parse(&r, doc, "x.json", &d), RD_OK);
    long runs = r.total_runs;
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

/* The verdict keys of issue 15 and the grouped warnings: read into the
 * model, and said in words (expected strings by hand). */
static const char *VDOC =
    "{\"schema\":\"rundown.analysis/1\",\"workloads\":["
    " {\"name\":\"w\",\"primary\":{\"metric\":\"wall_ms\",\"better\":\"lower\"},"
    "  \"configs\":["
    "   {\"id\":\"runtime=a\",\"labels\":{\"runtime\":\"a\"},\"metrics\":{\"wall_ms\":{\"mean\":100,\"n\":5}}},"
    "   {\"id\":\"runtime=b\",\"labels\":{\"runtime\":\"b\"},\"metrics\":{\"wall_ms\":{\"mean\":103,\"n\":5}}},"
    "   {\"id\":\"runtime=c\",\"labels\":{\"runtime\":\"c\"},\"metrics\":{\"wall_ms\":{\"mean\":250,\"n\":5}}},"
    "   {\"id\":\"runtime=d\",\"labels\":{\"runtime\":\"d\"},\"metrics\":{}}],"
    "  \"recommendation\":{\"best\":\"runtime=a\",\"recommended\":null,\"decision\":\"inconclusive\","
    "   \"margin\":0.05,\"runs_needed\":40,\"family\":3,\"critical_value\":2.5,\"df\":7,"
    "   \"candidates\":[\"runtime=a\",\"runtime=b\"],"
    "   \"verdicts\":["
    "    {\"config\":\"runtime=a\",\"verdict\":\"best\",\"ratio\":1},"
    "    {\"config\":\"runtime=b\",\"verdict\":\"inconclusive\",\"ratio\":1.03,\"ratio_ci_low\":0.9,"
    "     \"ratio_ci_high\":1.2,\"p_adj\":0.8,\"runs_needed\":40},"
    "    {\"config\":\"runtime=c\",\"verdict\":\"worse\",\"ratio\":2.5,\"ratio_ci_low\":2.2,"
    "     \"ratio_ci_high\":2.8,\"p_adj\":0.0001},"
    "    {\"config\":\"runtime=d\",\"verdict\":\"disqualified\",\"ratio\":null,\"why\":\"5 of 5 runs failed\"},"
    "    {\"config\":\"runtime=zz\",\"verdict\":\"odd\"}, 7],"
    "   \"key_metrics\":[{\"metric\":\"rps\",\"better\":\"higher\",\"best\":\"runtime=b\","
    "     \"decision\":\"clear\",\"verdicts\":[{\"config\":\"runtime=a\",\"verdict\":\"worse\"}]}]},"
    "  \"warnings\":[{\"code\":\"high_cv\",\"level\":\"info\",\"count\":3,"
    "    \"configs\":[\"runtime=a\",\"runtime=b\",\"runtime=c\"],\"message\":\"m\"},"
    "   {\"code\":\"few_runs\",\"config\":\"runtime=d\",\"message\":\"n\"}]}]}";

static void test_verdicts(void **state)
{
    (void)state;
    struct rd_report r;
    struct rd_diag d;
    assert_int_equal(parse(&r, VDOC, "v.json", &d), RD_OK);
    const struct rd_rworkload *w = &r.workloads[0];
    assert_non_null(w->rec);
    const struct rd_rdecision *dc = &w->rec->primary;
    assert_int_equal(dc->decision, RD_DECISION_INCONCLUSIVE);
    /* Entries that are not objects are skipped; an unknown word is UNKNOWN
     * and a config that does not exist has index -1. */
    assert_int_equal(dc->nverdicts, 5);
    assert_int_equal(dc->verdicts[4].verdict, RD_VERDICT_UNKNOWN);
    assert_int_equal(dc->verdicts[4].index, -1);
    assert_int_equal(dc->ncandidates, 2);
    assert_true(dc->runs_needed == 40 && dc->family == 3 && dc->df == 7);
    assert_int_equal(rd_config_verdict(w, 2)->verdict, RD_VERDICT_WORSE);
    assert_true(isnan(rd_config_verdict(w, 3)->ratio));
    assert_int_equal(w->rec->nkeys, 1);
    assert_string_equal(w->rec->keys[0].metric, "rps");
    assert_int_equal(w->rec->keys[0].better, RD_BETTER_HIGHER);
    assert_int_equal(w->recommended, -1);
    /* Nearest to the best on the log scale: b (1.03), not c or d. */
    assert_int_equal(rd_workload_nearest(w), 1);
    struct rd_buf b = RD_BUF_INIT;
    rd_decision_text(w, &b);
    /* 40 runs would settle it; the candidates have 5: 35 more. */
    assert_string_equal(b.ptr, "inconclusive: about 35 more runs per config would settle it "
                               "(2 candidates)");
    rd_buf_reset(&b);
    /* Counts of four digits are grouped, as the report's other counts:
     * 2,070 needed, 5 had, 2,065 more. */
    r.workloads[0].rec->primary.runs_needed = 2070;
    rd_decision_text(w, &b);
    assert_string_equal(b.ptr, "inconclusive: about 2,065 more runs per config would settle it "
                               "(2 candidates)");
    r.workloads[0].rec->primary.runs_needed = 40;
    rd_buf_reset(&b);
    rd_verdict_ratio_text(w, rd_config_verdict(w, 2), NULL, &b);
    assert_string_equal(b.ptr, "2.50\xc3\x97 slower (2.20\xe2\x80\x93" "2.80\xc3\x97)");
    rd_buf_reset(&b);
    rd_verdict_text(w, rd_config_verdict(w, 3), &b);
    assert_string_equal(b.ptr, "disqualified: 5 of 5 runs failed");
    rd_buf_reset(&b);
    rd_verdict_text(w, rd_config_verdict(w, 2), &b);
    assert_string_equal(b.ptr, "slower"); /* no beyond_margin in this analysis */
    rd_buf_reset(&b);
    rd_verdict_text(w, rd_config_verdict(w, 1), &b);
    assert_string_equal(b.ptr, "inconclusive (40 runs)");
    rd_buf_release(&b);
    /* Grouped warnings keep their count and configs; others count 1. */
    assert_int_equal(w->nwarnings, 2);
    assert_int_equal(w->warnings[0].level, RD_LEVEL_INFO);
    assert_true(w->warnings[0].count == 3);
    assert_int_equal(w->warnings[0].nconfigs, 3);
    assert_int_equal(w->warnings[1].level, RD_LEVEL_UNSET);
    assert_true(w->warnings[1].count == 1);
    assert_false(rd_workload_categorical(w));
    rd_report_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_best),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_colours_and_plan),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_env),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_number_members),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_utf8_lazy_and_whole),
        cmocka_unit_test(test_run_total),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
