// links: rd_collect
/*
 * test_suite - rundown.suite/1 parsing, placeholder expansion and errors,
 * and the planner: interleaving, grouping, seeded random order, sharding,
 * --only and the resume keys.
 *
 * Expected plans are written out by hand from docs/suite.md (Order).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runindex.h"
#include "plan.h"
#include "suite.h"
#include "suiteexpand.h"

/* Any path whose folder exists: {root} defaults to that folder. */
#define SUITE_PATH RD_SOURCE_DIR "/tests/unit/suite.json"

static rd_status parse(struct rd_suite *s, const char *text, struct rd_diag *d)
{
    rd_diag_init(d, NULL);
    return rd_suite_parse(s, text, strlen(text), SUITE_PATH, 1, d);
}

#define BASE \
    "{\"schema\":\"rundown.suite/1\",\"name\":\"t\",%s" \
    "\"runtimes\":{\"node\":{\"cmd\":[\"/bin/node\",\"--x\"]},\"bun\":{\"cmd\":\"/bin/bun run\"}}," \
    "\"workloads\":[%s]}"

static char *mk(const char *top, const char *workloads)
{
    static char buf[8192];
    snprintf(buf, sizeof buf, BASE, top, workloads);
    return buf;
}

static void expect_error(const char *top, const char *workloads, const char *needle)
{
    struct rd_suite s;
    struct rd_diag d;
    rd_status st = parse(&s, mk(top, workloads), &d);
    if (st == RD_OK || !strstr(d.msg, needle))
        fail_msg("expected an error containing '%s', got status %d '%s'", needle, st, d.msg);
    rd_suite_release(&s);
}

static void test_matrix_order_exclude_include(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    assert_int_equal(parse(&s, mk("", "{\"name\":\"w\",\"class\":\"cpu\","
        "\"matrix\":{\"runtime\":[\"node\",\"bun\"],\"workers\":[1,4]},"
        "\"exclude\":[{\"runtime\":\"bun\",\"workers\":4}],"
        "\"include\":[{\"runtime\":\"node\",\"workers\":\"8\"},{\"runtime\":\"node\",\"workers\":1}],"
        "\"command\":[\"{runtime.cmd}\",\"a.js\",\"-w={workers}\"]}"), &d), RD_OK);
    const struct rd_suite_workload *w = &s.workloads[0];
    /* Product with the first key slowest: node/1 node/4 bun/1 (bun/4
     * excluded), then the include node/8 (node/1 is already there). */
    assert_int_equal(w->nconfigs, 4);
    const char *want[4][2] = {{"node", "1"}, {"node", "4"}, {"bun", "1"}, {"node", "8"}};
    for (size_t c = 0; c < 4; c++) {
        assert_string_equal(rd_suite_value(w, c, 0), want[c][0]);
        assert_string_equal(rd_suite_value(w, c, 1), want[c][1]);
    }
    assert_string_equal(w->primary_metric, "wall_ms");
    assert_string_equal(w->primary_better, "lower");
    assert_string_equal(w->tie_breaker, "tree_rss_peak_kib");
    assert_null(w->metric_better);
    assert_int_equal(w->runs, 10);
    rd_suite_release(&s);
}

/* 'better' gives directions: stored sorted as info.metric_better, and the
 * direction of a primary metric that has none of its own. */
static void test_better(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    assert_int_equal(parse(&s, mk("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
        "\"primary\":\"score\",\"better\":{\"score\":\"higher\",\"lag\":\"lower\"}}"), &d),
        RD_OK);
    const struct rd_suite_workload *w = &s.workloads[0];
    assert_string_equal(w->primary_metric, "score");
    assert_string_equal(w->primary_better, "higher");
    assert_string_equal(w->metric_better, "lag=lower,score=higher");
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    assert_int_equal(rd_suite_record(&s, 0, 0, r), RD_OK);
    assert_string_equal(rd_record_info(r, "metric_better"), "lag=lower,score=higher");
    rd_recordset_release(&set);
    rd_suite_release(&s);
}

static void test_expand_runtime_cmd(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_arena a;
    char **argv;
    rd_arena_init(&a);
    assert_int_equal(parse(&s, mk("", "{\"name\":\"w\",\"class\":\"cpu\","
        "\"matrix\":{\"runtime\":[\"node\",\"bun\"]},"
        "\"command\":[\"{runtime.cmd}\",\"x={runtime.cmd}\",\"{{lit}}\",\"{runtime}-{workload}-{suite}\"]}"),
        &d), RD_OK);
    assert_int_equal(rd_suite_expand_argv(&s, 0, 0, RD_FIELD_COMMAND, &a, &argv, &d), RD_OK);
    /* A whole element splices cmd's elements; inside a longer one they join. */
    const char *want0[] = {"/bin/node", "--x", "x=/bin/node --x", "{lit}", "node-w-t", NULL};
    for (size_t i = 0; want0[i]; i++)
        assert_string_equal(argv[i], want0[i]);
    assert_null(argv[5]);
    assert_int_equal(rd_suite_expand_argv(&s, 0, 1, RD_FIELD_COMMAND, &a, &argv, &d), RD_OK);
    assert_string_equal(argv[0], "/bin/bun");
    assert_string_equal(argv[1], "run");
    assert_string_equal(argv[2], "x=/bin/bun run");
    rd_suite_release(&s);
    rd_arena_release(&a);
}

static void test_expand_shell_quotes(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_arena a;
    char **argv;
    rd_arena_init(&a);
    assert_int_equal(parse(&s, mk("", "{\"name\":\"w\",\"class\":\"cpu\",\"shell\":true,"
        "\"matrix\":{\"v\":[\"a b'; rm\"]},\"command\":\"echo {v} | cat\"}"), &d), RD_OK);
    assert_int_equal(rd_suite_expand_argv(&s, 0, 0, RD_FIELD_COMMAND, &a, &argv, &d), RD_OK);
    assert_string_equal(argv[0], "/bin/sh");
    assert_string_equal(argv[1], "-c");
    /* The value is one quoted word: a label can never become code. */
    assert_string_equal(argv[2], "echo 'a b'\\''; rm' | cat");
    rd_suite_release(&s);
    rd_arena_release(&a);
}

static void test_server_defaults_and_url(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_arena a;
    char **argv, *url;
    rd_arena_init(&a);
    assert_int_equal(parse(&s, mk("\"port\":18099,", "{\"name\":\"io\",\"class\":\"io\","
        "\"server\":[\"srv\",\"--port={port}\"],\"load\":[\"wrk\",\"-d1s\",\"{url}\"],"
        "\"url\":\"http://{host}:{port}/p\",\"warmups\":2}"), &d), RD_OK);
    const struct rd_suite_workload *w = &s.workloads[0];
    assert_true(w->is_server);
    assert_int_equal(w->port, 18099);
    assert_string_equal(w->primary_metric, "rps");
    assert_string_equal(w->primary_better, "higher");
    assert_string_equal(w->tie_breaker, "server_rss_peak_kib");
    assert_int_equal(rd_suite_expand_argv(&s, 0, 0, RD_FIELD_LOAD, &a, &argv, &d), RD_OK);
    assert_string_equal(argv[2], "http://127.0.0.1:18099/p");
    assert_int_equal(rd_suite_expand_string(&s, 0, 0, w->ready_url, "ready_url", &a, &url, &d),
                     RD_OK);
    assert_string_equal(url, "http://127.0.0.1:18099/p");
    /* Server sessions hold their warmups: the plan has measured runs only. */
    struct rd_plan p;
    rd_plan_init(&p);
    assert_int_equal(rd_plan_build(&s, &p, &d), RD_OK);
    assert_int_equal(p.len, 10);
    for (size_t i = 0; i < p.len; i++)
        assert_false(p.items[i].warmup);
    rd_plan_release(&p);
    rd_suite_release(&s);
    rd_arena_release(&a);
}

static void test_errors(void **state)
{
    (void)state;
    const char *cpu = "\"class\":\"cpu\",\"command\":[\"true\"]";
    char w[1024];
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":[\"x{mechansim}\"],"
                     "\"matrix\":{\"mechanism\":[\"a\"]}}",
                 "workload 'w': unknown placeholder '{mechansim}' in command[0]");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":[\"x{oops\"]}",
                 "expected a placeholder like {name} in command[0]");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":[\"{port}\"]}",
                 "unknown placeholder '{port}'");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":[\"{runtime.cmd}\"]}",
                 "unknown placeholder '{runtime.cmd}'");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s,\"warmup\":1}", cpu);
    expect_error("", w, "workload 'w': unknown key 'warmup'");
    expect_error("\"wormups\":1,", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\"}",
                 "unknown key 'wormups'");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s,\"matrix\":{\"runtime\":[\"nodejs\"]}}", cpu);
    expect_error("", w, "'runtime' label value 'nodejs' is not in runtimes");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\",\"server\":\"b\",\"load\":\"c\"}",
                 "expected one of 'command' or 'server'");
    expect_error("", "{\"name\":\"w\",\"class\":\"io\",\"server\":\"b\",\"load\":\"c\"}",
                 "needs a 'port'");
    expect_error("", "{\"name\":\"w\",\"command\":\"a\"}", "expected a 'class'");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s},{\"name\":\"w\",%s}", cpu, cpu);
    expect_error("", w, "the name is used by another workload");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s,\"primary\":\"requests\"}", cpu);
    expect_error("", w, "say whether lower or higher is better");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s,\"better\":{\"calc\":\"up\"}}", cpu);
    expect_error("", w, "expected 'better.calc' to be \"lower\" or \"higher\"");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s,\"better\":{\"Calc\":\"lower\"}}", cpu);
    expect_error("", w, "expected 'better.Calc' to be");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s,\"better\":[\"calc\"]}", cpu);
    expect_error("", w, "expected 'better' to be an object");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s,\"matrix\":{\"a\":[\"x\",\"y\"]},"
                          "\"exclude\":[{\"a\":\"x\"},{\"a\":\"y\"}]}", cpu);
    expect_error("", w, "'exclude' removes every config");
    snprintf(w, sizeof w, "{\"name\":\"w\",%s,\"cpus\":\"0-\"}", cpu);
    expect_error("", w, "expected 'cpus' to be a CPU list");
    expect_error("\"order\":\"shuffled\",", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\"}",
                 "expected 'order' to be interleaved, random or grouped");

    struct rd_suite s;
    struct rd_diag d;
    assert_int_equal(parse(&s, "{\"schema\":\"rundown.suite/1\",", &d), RD_ERR_PARSE);
    assert_non_null(strstr(d.path, "suite.json"));
    assert_int_not_equal(d.line, 0);
    rd_suite_release(&s);
    assert_int_equal(parse(&s, "{\"schema\":\"rundown.suite/2\"}", &d), RD_ERR_PARSE);
    assert_non_null(strstr(d.msg, "rundown.suite/1"));
    rd_suite_release(&s);
}

/* Two workloads: A with configs a1 a2 (2 runs, 1 warmup), B one config. */
static const char *const two =
    "{\"name\":\"A\",\"class\":\"cpu\",\"runs\":2,\"warmups\":1,"
    "\"matrix\":{\"k\":[\"a1\",\"a2\"]},\"command\":\"true\"},"
    "{\"name\":\"B\",\"class\":\"cpu\",\"runs\":3,\"command\":\"true\"}";

static void plan_of(const char *order, struct rd_suite *s, struct rd_plan *p)
{
    struct rd_diag d;
    char top[128];
    snprintf(top, sizeof top, "\"order\":\"%s\",\"seed\":7,", order);
    assert_int_equal(parse(s, mk(top, two), &d), RD_OK);
    rd_plan_init(p);
    assert_int_equal(rd_plan_build(s, p, &d), RD_OK);
}

static void test_plan_interleaved_grouped(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_plan p;
    plan_of("interleaved", &s, &p);
    /* workload, config, warmup, run, measured_no */
    const long want[][5] = {
        {0, 0, 1, 1, -1}, {0, 1, 1, 1, -1},
        {0, 0, 0, 1, 0}, {0, 1, 0, 1, 1}, {0, 0, 0, 2, 2}, {0, 1, 0, 2, 3},
        {1, 0, 0, 1, 4}, {1, 0, 0, 2, 5}, {1, 0, 0, 3, 6},
    };
    assert_int_equal(p.len, 9);
    for (size_t i = 0; i < p.len; i++) {
        assert_int_equal(p.items[i].workload, want[i][0]);
        assert_int_equal(p.items[i].config, want[i][1]);
        assert_int_equal(p.items[i].warmup, want[i][2]);
        assert_int_equal(p.items[i].run, want[i][3]);
        assert_int_equal(p.items[i].measured_no, want[i][4]);
    }
    rd_plan_release(&p);
    rd_suite_release(&s);

    plan_of("grouped", &s, &p);
    const long g[][4] = {{0, 0, 1, 1}, {0, 0, 0, 1}, {0, 0, 0, 2},
                         {0, 1, 1, 1}, {0, 1, 0, 1}, {0, 1, 0, 2}};
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(p.items[i].config, g[i][1]);
        assert_int_equal(p.items[i].warmup, g[i][2]);
        assert_int_equal(p.items[i].run, g[i][3]);
    }
    rd_plan_release(&p);
    rd_suite_release(&s);
}

static void test_plan_random(void **state)
{
    (void)state;
    struct rd_suite s, s2;
    struct rd_plan p, p2;
    char big[512];
    struct rd_diag d;
    snprintf(big, sizeof big, "{\"name\":\"R\",\"class\":\"cpu\",\"runs\":20,"
                              "\"matrix\":{\"k\":[\"x\",\"y\",\"z\"]},\"command\":\"true\"}");
    assert_int_equal(parse(&s, mk("\"order\":\"random\",\"seed\":42,", big), &d), RD_OK);
    assert_int_equal(parse(&s2, mk("\"order\":\"random\",\"seed\":42,", big), &d), RD_OK);
    rd_plan_init(&p);
    rd_plan_init(&p2);
    assert_int_equal(rd_plan_build(&s, &p, &d), RD_OK);
    assert_int_equal(rd_plan_build(&s2, &p2, &d), RD_OK);
    assert_int_equal(p.seed, 42);
    assert_int_equal(p.len, 60);
    /* Same seed, same plan; each config gets runs 1..20 in execution order. */
    long next[3] = {1, 1, 1};
    bool interleaved = true;
    for (size_t i = 0; i < p.len; i++) {
        assert_int_equal(p.items[i].config, p2.items[i].config);
        assert_int_equal(p.items[i].run, next[p.items[i].config]++);
        if (p.items[i].config != i % 3)
            interleaved = false;
    }
    assert_int_equal(next[0], 21);
    assert_int_equal(next[1], 21);
    assert_int_equal(next[2], 21);
    assert_false(interleaved);  /* 1 chance in 60!/(20!^3) to fail by luck */
    rd_plan_release(&p);
    rd_plan_release(&p2);
    rd_suite_release(&s);
    rd_suite_release(&s2);
}

static void test_plan_cap(void **state)
{
    (void)state;
    /* 3 configs x (1e9 runs + 0 warmups): refused before any plan. */
    expect_error("", "{\"name\":\"A\",\"class\":\"cpu\",\"runs\":1000000000,"
                     "\"matrix\":{\"k\":[\"a\",\"b\",\"c\"]},\"command\":\"true\"}",
                 "expected at most 10000000 runs in all, got 3000000000");
    struct rd_suite s;
    struct rd_diag d;
    assert_int_equal(parse(&s, mk("", "{\"name\":\"A\",\"class\":\"cpu\",\"runs\":3333333,"
                                      "\"matrix\":{\"k\":[\"a\",\"b\",\"c\"]},"
                                      "\"command\":\"true\"}"), &d),
                     RD_OK); /* 9,999,999 */
    rd_suite_release(&s);
}

static void test_plan_shard(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_plan p;
    int seen[7] = {0};
    for (unsigned i = 1; i <= 3; i++) {
        plan_of("interleaved", &s, &p);
        assert_int_equal(rd_plan_shard(&p, i, 3), RD_OK);
        bool warm[2] = {false, false}, meas[2] = {false, false};
        for (size_t k = 0; k < p.len; k++) {
            const struct rd_plan_item *it = &p.items[k];
            if (it->warmup) {
                warm[it->config] = true;
                continue;
            }
            assert_int_equal(it->measured_no % 3, (long)i - 1);
            seen[it->measured_no]++;
            if (it->workload == 0)
                meas[it->config] = true;
        }
        /* A shard runs the warmups of exactly the configs it measures. */
        assert_int_equal(warm[0], meas[0]);
        assert_int_equal(warm[1], meas[1]);
        rd_plan_release(&p);
        rd_suite_release(&s);
    }
    for (int k = 0; k < 7; k++)
        assert_int_equal(seen[k], 1);  /* disjoint and complete */
    unsigned i, n;
    assert_true(rd_shard_parse("2/5", &i, &n));
    assert_int_equal(i, 2);
    assert_int_equal(n, 5);
    assert_false(rd_shard_parse("0/5", &i, &n));
    assert_false(rd_shard_parse("6/5", &i, &n));
    assert_false(rd_shard_parse("1/", &i, &n));
    assert_false(rd_shard_parse("1/2x", &i, &n));
    assert_false(rd_shard_parse("-1/2", &i, &n));
}

static void test_plan_only(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_plan p;
    plan_of("interleaved", &s, &p);
    assert_int_equal(rd_plan_only(&s, &p, "B"), RD_OK);
    assert_int_equal(p.len, 3);
    rd_plan_release(&p);
    rd_suite_release(&s);
    plan_of("interleaved", &s, &p);
    assert_int_equal(rd_plan_only(&s, &p, "A/*k=a2*"), RD_OK);
    assert_int_equal(p.len, 3);  /* one warmup, two runs */
    for (size_t k = 0; k < p.len; k++)
        assert_int_equal(p.items[k].config, 1);
    rd_plan_release(&p);
    rd_suite_release(&s);
    /* Each config is decided once however its runs are spread: in random
     * order config k=a1 keeps its warmup and both runs, in plan order. */
    plan_of("random", &s, &p);
    assert_int_equal(rd_plan_only(&s, &p, "A/*k=a1*"), RD_OK);
    assert_int_equal(p.len, 3);
    assert_true(p.items[0].warmup);
    for (size_t k = 0; k < p.len; k++) {
        assert_int_equal(p.items[k].workload, 0);
        assert_int_equal(p.items[k].config, 0);
    }
    assert_int_equal(p.items[1].run, 1);
    assert_int_equal(p.items[2].run, 2);
    rd_plan_release(&p);
    rd_suite_release(&s);
}

static void test_resume_keys(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_plan p;
    struct rd_run_index ix;
    struct rd_recordset set;
    plan_of("interleaved", &s, &p);
    rd_run_index_init(&ix);
    rd_recordset_init(&set);
    /* Stored: A k=a1 measure 1, A k=a2 warmup 1, and a run of another suite
     * with the same workload/config/run, which must not count. */
    struct rd_record *r = rd_recordset_add(&set);
    assert_int_equal(rd_suite_record(&s, 0, 0, r), RD_OK);
    r->run = 1;
    assert_int_equal(rd_run_index_add(&ix, r), RD_OK);
    r = rd_recordset_add(&set);
    assert_int_equal(rd_suite_record(&s, 0, 1, r), RD_OK);
    assert_int_equal(rd_record_set(r, &r->phase, "warmup"), RD_OK);
    r->run = 1;
    assert_int_equal(rd_run_index_add(&ix, r), RD_OK);
    r = rd_recordset_add(&set);
    assert_int_equal(rd_suite_record(&s, 1, 0, r), RD_OK);
    assert_int_equal(rd_record_set(r, &r->suite, "other"), RD_OK);
    r->run = 1;
    assert_int_equal(rd_run_index_add(&ix, r), RD_OK);
    assert_int_equal(rd_plan_drop_stored(&s, &p, &ix), RD_OK);
    assert_int_equal(p.len, 7);
    for (size_t k = 0; k < p.len; k++) {
        const struct rd_plan_item *it = &p.items[k];
        assert_false(it->workload == 0 && it->config == 0 && !it->warmup && it->run == 1);
        assert_false(it->workload == 0 && it->config == 1 && it->warmup);
    }
    rd_recordset_release(&set);
    rd_run_index_release(&ix);
    rd_plan_release(&p);
    rd_suite_release(&s);
}

static void test_record_info(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_recordset set;
    assert_int_equal(parse(&s, mk("\"order\":\"random\",\"seed\":5,",
        "{\"name\":\"w\",\"class\":\"startup\",\"primary\":{\"metric\":\"x_ms\"},"
        "\"tie_breaker\":\"user_ms\",\"cpus\":\"0\",\"command\":\"true\","
        "\"matrix\":{\"runtime\":[\"bun\"]}}"), &d), RD_OK);
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    assert_int_equal(rd_suite_record(&s, 0, 0, r), RD_OK);
    assert_string_equal(r->suite, "t");
    assert_string_equal(r->workload, "w");
    assert_string_equal(rd_record_label(r, "runtime"), "bun");
    assert_string_equal(rd_record_info(r, "class"), "startup");
    assert_string_equal(rd_record_info(r, "primary_metric"), "x_ms");
    assert_string_equal(rd_record_info(r, "primary_better"), "lower");
    assert_string_equal(rd_record_info(r, "tie_breaker"), "user_ms");
    assert_string_equal(rd_record_info(r, "order"), "random");
    assert_string_equal(rd_record_info(r, "seed"), "5");
    assert_string_equal(rd_record_info(r, "cpus"), "0");
    rd_recordset_release(&set);
    rd_suite_release(&s);
}

/* compare_within: matrix labels, stored comma-separated in the runs' info;
 * a name that is no label, or a value that is not an array of names, is
 * an error naming what was expected. */
static void test_compare_within(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_recordset set;
    assert_int_equal(parse(&s, mk("",
        "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
        "\"matrix\":{\"runtime\":[\"bun\"],\"tasks\":[\"1\",\"2\"],\"mode\":[\"x\"]},"
        "\"compare_within\":[\"tasks\",\"mode\"]}"), &d), RD_OK);
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    assert_int_equal(rd_suite_record(&s, 0, 0, r), RD_OK);
    assert_string_equal(rd_record_info(r, "compare_within"), "tasks,mode");
    rd_recordset_release(&set);
    rd_suite_release(&s);
    /* Without it, the runs say nothing. */
    assert_int_equal(parse(&s, mk("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\"}"),
                           &d), RD_OK);
    rd_recordset_init(&set);
    r = rd_recordset_add(&set);
    assert_int_equal(rd_suite_record(&s, 0, 0, r), RD_OK);
    assert_null(rd_record_info(r, "compare_within"));
    rd_recordset_release(&set);
    rd_suite_release(&s);
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
                     "\"matrix\":{\"runtime\":[\"bun\"],\"tasks\":[\"1\"]},"
                     "\"compare_within\":[\"task\"]}",
                 "workload 'w': 'compare_within' names 'task', which is not a label of its "
                 "matrix (expected one of: runtime, tasks)");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
                     "\"matrix\":{\"tasks\":[\"1\"]},\"compare_within\":\"tasks\"}",
                 "expected 'compare_within' to be an array of label names");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
                     "\"matrix\":{\"tasks\":[\"1\"]},\"compare_within\":[3]}",
                 "expected 'compare_within' to hold label names of the matrix");
}

/* keep_racing: filters of matrix labels; the configs they match carry
 * info.race_keep, the others nothing; a filter that matches no config, a
 * label that is not the matrix's, a non-array or a workload that is not
 * adaptive is an error naming what was expected. */
static void test_keep_racing(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_recordset set;
    assert_int_equal(parse(&s, mk("",
        "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\",\"until\":\"settled\","
        "\"runs\":{\"min\":3,\"max\":9},"
        "\"matrix\":{\"impl\":[\"bun\",\"deno\",\"node\"],\"workers\":[1,4]},"
        "\"keep_racing\":[{\"impl\":\"deno\",\"workers\":4},{\"impl\":\"node\"}]}"),
        &d), RD_OK);
    const struct rd_suite_workload *w = &s.workloads[0];
    assert_int_equal(w->nconfigs, 6);
    /* configs in matrix order: bun/1, bun/4, deno/1, deno/4, node/1, node/4 (label "impl":
     * this suite's runtimes are node and bun only) */
    const bool want[6] = {false, false, false, true, true, true};
    rd_recordset_init(&set);
    for (size_t c = 0; c < 6; c++) {
        assert_int_equal(w->keep_racing[c], want[c]);
        struct rd_record *r = rd_recordset_add(&set);
        assert_int_equal(rd_suite_record(&s, 0, c, r), RD_OK);
        if (want[c])
            assert_string_equal(rd_record_info(r, "race_keep"), "true");
        else
            assert_null(rd_record_info(r, "race_keep"));
    }
    rd_recordset_release(&set);
    rd_suite_release(&s);
    const char *adaptive = "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
                           "\"until\":\"settled\",\"runs\":{\"min\":3,\"max\":9},"
                           "\"matrix\":{\"impl\":[\"bun\",\"deno\"]},";
    char buf[512];
    snprintf(buf, sizeof buf, "%s\"keep_racing\":[{\"impl\":\"node\"}]}", adaptive);
    expect_error("", buf, "workload 'w': 'keep_racing' entry {\"impl\":\"node\"} matches no "
                          "config of the matrix");
    snprintf(buf, sizeof buf, "%s\"keep_racing\":[{\"engine\":\"deno\"}]}", adaptive);
    expect_error("", buf, "'keep_racing' names 'engine', which is not a matrix label");
    snprintf(buf, sizeof buf, "%s\"keep_racing\":{\"impl\":\"deno\"}}", adaptive);
    expect_error("", buf, "expected 'keep_racing' to be an array of objects");
    snprintf(buf, sizeof buf, "%s\"keep_racing\":[{}]}", adaptive);
    expect_error("", buf, "expected each 'keep_racing' entry to be a non-empty object");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
                     "\"matrix\":{\"impl\":[\"bun\",\"deno\"]},"
                     "\"keep_racing\":[{\"impl\":\"deno\"}]}",
                 "'keep_racing' keeps configs in the race of an adaptive workload: it needs "
                 "\"until\": \"settled\"");
    /* exclude shares the filters' checks and says its own name */
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
                     "\"matrix\":{\"impl\":[\"bun\",\"deno\"]},"
                     "\"exclude\":[{\"engine\":\"deno\"}]}",
                 "'exclude' names 'engine', which is not a matrix label");
}

/* blocks: "round" or "none", stored as info.blocks on every run; another
 * value is an error saying what was expected. */
static void test_blocks(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_recordset set;
    assert_int_equal(parse(&s, mk("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
        "\"matrix\":{\"impl\":[\"bun\",\"deno\"]},\"blocks\":\"round\"}"), &d), RD_OK);
    assert_string_equal(s.workloads[0].blocks, "round");
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    assert_int_equal(rd_suite_record(&s, 0, 1, r), RD_OK);
    assert_string_equal(rd_record_info(r, "blocks"), "round");
    rd_recordset_release(&set);
    rd_suite_release(&s);
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
                     "\"blocks\":\"minute\"}",
                 "expected 'blocks' to be \"round\" or \"none\"");
}

/* A config id from the suite is the one a record of the config carries:
 * keys sorted ("B" < "a" < "ab" < "b" by strcmp), whatever the file order. */
static void test_config_id(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_recordset set;
    assert_int_equal(parse(&s, mk("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
        "\"matrix\":{\"b\":[\"1\",\"x,y\"],\"ab\":[2],\"a\":[\"\"],\"B\":[\"=\"]}}"), &d),
        RD_OK);
    const struct rd_suite_workload *w = &s.workloads[0];
    assert_int_equal(w->nconfigs, 2);
    for (size_t c = 0; c < w->nconfigs; c++) {
        struct rd_buf mine = RD_BUF_INIT, theirs = RD_BUF_INIT;
        rd_recordset_init(&set);
        struct rd_record *r = rd_recordset_add(&set);
        assert_int_equal(rd_suite_record(&s, 0, c, r), RD_OK);
        assert_int_equal(rd_record_config_id(r, &theirs), RD_OK);
        assert_int_equal(rd_suite_config_id(w, c, &mine), RD_OK);
        assert_string_equal(mine.ptr, theirs.ptr);
        assert_string_equal(mine.ptr, c == 0 ? "B==,a=,ab=2,b=1" : "B==,a=,ab=2,b=x,y");
        rd_buf_release(&mine);
        rd_buf_release(&theirs);
        rd_recordset_release(&set);
    }
    rd_suite_release(&s);
    /* A suite that was only initialised releases cleanly. */
    rd_suite_init(&s);
    assert_int_equal(s.nworkloads, 0);
    rd_suite_release(&s);
}

static void test_version_cmd(void **state)
{
    (void)state;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_arena a;
    rd_arena_init(&a);
    assert_int_equal(parse(&s, "{\"schema\":\"rundown.suite/1\",\"name\":\"t\","
        "\"runtimes\":{\"x\":{\"cmd\":\"x\",\"version_cmd\":[\"{root}/x\",\"-f=${{V}}\"]}},"
        "\"workloads\":[{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\"}]}", &d), RD_OK);
    char **v = rd_suite_version_argv(&s, &s.runtimes[0].version_cmd, &a);
    assert_string_equal(v[1], "-f=${V}");
    assert_non_null(strstr(v[0], "/tests/unit/x"));
    rd_suite_release(&s);
    assert_int_equal(parse(&s, "{\"schema\":\"rundown.suite/1\",\"name\":\"t\","
        "\"runtimes\":{\"x\":{\"cmd\":\"x\",\"version_cmd\":[\"{runtime}\"]}},"
        "\"workloads\":[{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\"}]}", &d),
        RD_ERR_PARSE);
    assert_non_null(strstr(d.msg, "runtime 'x': expected only {root}"));
    rd_suite_release(&s);
    rd_arena_release(&a);
}

/* A whole suite text that must fail with needle in a message naming the
 * suite file (what main() prints as "FILE: message"). */
static void expect_text_error(const char *text, const char *needle)
{
    struct rd_suite s;
    struct rd_diag d;
    rd_status st = parse(&s, text, &d);
    if (st != RD_ERR_PARSE || !strstr(d.msg, needle))
        fail_msg("expected an error containing '%s', got status %d '%s'", needle, st, d.msg);
    assert_string_equal(d.path, SUITE_PATH);
    rd_suite_release(&s);
}

#define HEAD "{\"schema\":\"rundown.suite/1\",\"name\":\"t\","
#define ONE_WORKLOAD "\"workloads\":[{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\"}]}"

/* The top level, piece by piece (parse_head, parse_root, parse_order):
 * each error names the file, and "root" and "seed" land where the docs say. */
static void test_top_level(void **state)
{
    (void)state;
    expect_text_error("[1]", "expected a JSON object");
    expect_text_error("{\"schema\":\"rundown.suite/1\",\"name\":\"a b\"," ONE_WORKLOAD,
                      "expected a 'name' of letters, digits, '.', '_', '-'");
    expect_text_error(HEAD "\"root\":3," ONE_WORKLOAD, "expected 'root' to be a string");
    expect_text_error(HEAD "\"root\":\"no-such-folder\"," ONE_WORKLOAD,
                      "root folder '" RD_SOURCE_DIR "/tests/unit/no-such-folder' does not exist");
    expect_text_error(HEAD "\"order\":1," ONE_WORKLOAD, "expected 'order' to be a string");
    expect_text_error(HEAD "\"seed\":-1," ONE_WORKLOAD, "expected 'seed' to be a whole number >= 0");
    expect_text_error(HEAD "\"seed\":1.5," ONE_WORKLOAD, "expected 'seed' to be a whole number");
    /* 2^53 + 2: past the doubles that hold every whole number. */
    expect_text_error(HEAD "\"seed\":9007199254740994," ONE_WORKLOAD,
                      "expected 'seed' to be a whole number");
    expect_text_error(HEAD "\"workloads\":[]}", "expected 'workloads' to be a non-empty list");
    expect_text_error(HEAD "\"workloads\":{}}", "expected 'workloads' to be a non-empty list");

    struct rd_suite s;
    struct rd_diag d;
    /* "root" is relative to the suite file's folder, made absolute; the
     * seed is the caller's (1, parse()) unless the file gives one. */
    assert_int_equal(parse(&s, HEAD "\"root\":\"..\"," ONE_WORKLOAD, &d), RD_OK);
    char want[PATH_MAX];
    assert_non_null(realpath(RD_SOURCE_DIR "/tests", want));
    assert_string_equal(s.root, want);
    assert_int_equal(s.order, RD_ORDER_INTERLEAVED);
    assert_int_equal(s.seed, 1);
    assert_false(s.seed_given);
    rd_suite_release(&s);
    assert_int_equal(parse(&s, HEAD "\"root\":\"/\",\"order\":\"grouped\",\"seed\":0," ONE_WORKLOAD,
                           &d), RD_OK);
    assert_string_equal(s.root, "/");
    assert_int_equal(s.order, RD_ORDER_GROUPED);
    assert_int_equal(s.seed, 0);
    assert_true(s.seed_given);
    rd_suite_release(&s);
}

/* "runtimes" and "tools" (parse_runtime, parse_tools): errors name the
 * entry; a runtime without version_cmd is asked with cmd --version. */
static void test_runtimes_tools(void **state)
{
    (void)state;
    expect_text_error(HEAD "\"runtimes\":[]," ONE_WORKLOAD,
                      "expected 'runtimes' to be an object of name -> runtime");
    expect_text_error(HEAD "\"runtimes\":{\"a b\":{\"cmd\":\"x\"}}," ONE_WORKLOAD,
                      "runtime 'a b': expected a runtime name of letters");
    expect_text_error(HEAD "\"runtimes\":{\"x\":\"x\"}," ONE_WORKLOAD,
                      "runtime 'x': expected an object with 'cmd'");
    expect_text_error(HEAD "\"runtimes\":{\"x\":{\"version_cmd\":\"x -v\"}}," ONE_WORKLOAD,
                      "runtime 'x': expected a 'cmd'");
    expect_text_error(HEAD "\"runtimes\":{\"x\":{\"cmd\":\"x\",\"args\":1}}," ONE_WORKLOAD,
                      "runtime 'x': unknown key 'args'");
    expect_text_error(HEAD "\"tools\":[\"wrk\"]," ONE_WORKLOAD,
                      "expected 'tools' to be an object of name -> {\"version_cmd\": [...]}");
    expect_text_error(HEAD "\"tools\":{\"wrk\":{}}," ONE_WORKLOAD,
                      "tool 'wrk': expected an object with 'version_cmd'");
    expect_text_error(HEAD "\"tools\":{\"wrk\":{\"version_cmd\":\"wrk -v\",\"x\":1}}," ONE_WORKLOAD,
                      "tool 'wrk': unknown key 'x'");
    /* A workload's message is not prefixed by the last runtime's name. */
    expect_text_error(HEAD "\"runtimes\":{\"x\":{\"cmd\":\"x\"}},"
                      "\"workloads\":[{\"name\":\"w\",\"command\":\"true\"}]}",
                      "workload 'w': expected a 'class'");
    expect_text_error(HEAD "\"tools\":{\"wrk\":{\"version_cmd\":\"wrk -v\"}},\"workloads\":[1]}",
                      "expected each workload to be an object");
    struct rd_suite s;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(parse(&s, HEAD "\"runtimes\":{\"x\":{\"cmd\":\"/bin/x -q\"}},"
                               "\"tools\":{\"wrk\":{\"version_cmd\":[\"wrk\",\"-v\"]}},"
                               ONE_WORKLOAD, &d), RD_OK);
    assert_int_equal(s.nruntimes, 1);
    assert_int_equal(s.runtimes[0].version_cmd.n, 3);
    assert_string_equal(s.runtimes[0].version_cmd.v[0], "/bin/x");
    assert_string_equal(s.runtimes[0].version_cmd.v[1], "-q");
    assert_string_equal(s.runtimes[0].version_cmd.v[2], "--version");
    assert_int_equal(s.ntools, 1);
    assert_string_equal(s.tools[0].name, "wrk");
    assert_int_equal(s.tools[0].version_cmd.n, 2);
    rd_suite_release(&s);
}

/* A workload, piece by piece (parse_class, parse_commands, parse_primary,
 * parse_run_settings, parse_address): the errors no other test reaches. */
static void test_workload_parts(void **state)
{
    (void)state;
    expect_error("", "{\"name\":\"w\",\"class\":\"CPU\",\"command\":\"a\"}",
                 "workload 'w': expected 'class' to be a lower-case word, got 'CPU'");
    expect_error("", "{\"name\":\"w\",\"class\":\"io\",\"server\":\"b\",\"port\":0}",
                 "workload 'w': a 'server' workload needs a 'load' command");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\",\"background\":\"b\"}",
                 "workload 'w': 'background' needs a 'server'");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\",\"shell\":1}",
                 "workload 'w': expected 'shell' to be true or false");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\",\"primary\":{\"m\":1}}",
                 "workload 'w': unknown key 'primary.m'");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\","
                     "\"primary\":{\"metric\":\"x\",\"better\":\"up\"}}",
                 "expected 'primary.better' to be \"lower\" or \"higher\", got 'up'");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\",\"primary\":\"\"}",
                 "expected 'primary' to name a metric");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\",\"port\":70000}",
                 "workload 'w': expected 'port' to be a whole number 0-65535");
    expect_error("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\",\"url\":\"http://x/\"}",
                 "workload 'w': 'url' needs a 'server' or a 'port'");
    expect_error("\"timeout\":-1,", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\"}",
                 "workload 'w': expected 'timeout'");

    struct rd_suite s;
    struct rd_diag d;
    /* A command workload: wall_ms, lower is better (the registry); a
     * port without a server still gives the default url. */
    assert_int_equal(parse(&s, mk("", "{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a b\","
                                      "\"shell\":true,\"port\":8080,\"primary\":"
                                      "{\"metric\":\"ops\",\"better\":\"higher\"}}"), &d), RD_OK);
    const struct rd_suite_workload *w = &s.workloads[0];
    assert_false(w->is_server);
    assert_true(w->shell);
    assert_int_equal(w->command.n, 2);
    assert_string_equal(w->primary_metric, "ops");
    assert_string_equal(w->primary_better, "higher");
    assert_string_equal(w->tie_breaker, "tree_rss_peak_kib");
    assert_int_equal(w->port, 8080);
    assert_string_equal(w->url, "http://{host}:{port}/");
    assert_string_equal(w->ready_url, w->url);
    assert_string_equal(w->cwd, "{root}");
    rd_suite_release(&s);
}

/* "matrix", "exclude", "include" and "env", piece by piece (matrix_label,
 * matrix_labels, check_exclude, add_includes, parse_env): each error. */
static void test_matrix_parts(void **state)
{
    (void)state;
    char w[1024];
    const char *cpu = "\"name\":\"w\",\"class\":\"cpu\",\"command\":\"a\"";
#define MATRIX_ERROR(rest, needle)                                   \
    do {                                                             \
        snprintf(w, sizeof w, "{%s,%s}", cpu, rest);                 \
        expect_error("", w, needle);                                 \
    } while (0)
    MATRIX_ERROR("\"matrix\":[1]", "workload 'w': expected 'matrix' to be an object of label -> "
                                   "list of values");
    MATRIX_ERROR("\"matrix\":{\"a b\":[1]}", "expected matrix labels made of letters, digits, "
                                             "'.', '_', '-', got 'a b'");
    MATRIX_ERROR("\"matrix\":{\"k\":[]}", "expected matrix 'k' to be a non-empty list");
    MATRIX_ERROR("\"matrix\":{\"k\":[true]}", "expected matrix 'k' values to be strings or numbers");
    MATRIX_ERROR("\"matrix\":{\"k\":[1,\"1\"]}", "matrix 'k' lists '1' twice");
    MATRIX_ERROR("\"matrix\":{\"k\":[1]},\"exclude\":{}", "expected 'exclude' to be a list of "
                                                         "objects");
    MATRIX_ERROR("\"matrix\":{\"k\":[1]},\"include\":{}", "expected 'include' to be a list of "
                                                         "objects");
    /* exclude's shape is checked before include's entries. */
    MATRIX_ERROR("\"matrix\":{\"k\":[1]},\"exclude\":{},\"include\":{}",
                 "expected 'exclude' to be a list");
    MATRIX_ERROR("\"matrix\":{\"k\":[1]},\"exclude\":[{}]",
                 "expected each 'exclude' entry to be a non-empty object");
    MATRIX_ERROR("\"matrix\":{\"k\":[1]},\"exclude\":[{\"j\":1}]",
                 "'exclude' names 'j', which is not a matrix label");
    MATRIX_ERROR("\"matrix\":{\"k\":[1]},\"exclude\":[{\"k\":[1]}]",
                 "expected 'exclude' values to be strings or numbers");
    MATRIX_ERROR("\"matrix\":{\"k\":[1],\"j\":[2]},\"include\":[{\"k\":3}]",
                 "expected each 'include' entry to give a value for every matrix label");
    MATRIX_ERROR("\"matrix\":{\"k\":[1],\"j\":[2]},\"include\":[{\"k\":3,\"i\":4}]",
                 "expected 'include' to give 'j' as a string or number");
    MATRIX_ERROR("\"env\":{\"A=B\":\"1\"}", "expected 'env' entry 'A=B' to be a string with a "
                                            "name without '='");
    MATRIX_ERROR("\"env\":{\"A\":[1]}", "expected 'env' entry 'A' to be");
#undef MATRIX_ERROR

    /* An exclude entry matches a number by its text (4 and "4"); an include
     * the matrix already has is not added twice; env takes numbers. */
    struct rd_suite s;
    struct rd_diag d;
    snprintf(w, sizeof w, "{%s,\"matrix\":{\"k\":[1,4],\"j\":[\"x\",\"y\"]},"
             "\"exclude\":[{\"k\":\"4\",\"j\":\"y\"},{\"k\":1,\"j\":\"x\"}],"
             "\"include\":[{\"k\":4,\"j\":\"x\"},{\"k\":\"7\",\"j\":\"x\"}],\"env\":{\"N\":2}}", cpu);
    assert_int_equal(parse(&s, mk("", w), &d), RD_OK);
    const struct rd_suite_workload *wl = &s.workloads[0];
    static const char *const want[][2] = {{"1", "y"}, {"4", "x"}, {"7", "x"}};
    assert_int_equal(wl->nconfigs, 3);
    for (size_t c = 0; c < 3; c++) {
        assert_string_equal(rd_suite_value(wl, c, 0), want[c][0]);
        assert_string_equal(rd_suite_value(wl, c, 1), want[c][1]);
    }
    assert_int_equal(wl->nenv, 1);
    assert_string_equal(wl->env[0].value, "2");
    rd_suite_release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_order_exclude_include),
        cmocka_unit_test(test_better),
        cmocka_unit_test(test_compare_within),
        cmocka_unit_test(test_keep_racing),
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_expand_runtime_cmd),
        cmocka_unit_test(test_expand_shell_quotes),
        cmocka_unit_test(test_server_defaults_and_url),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_top_level),
        cmocka_unit_test(test_runtimes_tools),
        cmocka_unit_test(test_workload_parts),
        cmocka_unit_test(test_matrix_parts),
        cmocka_unit_test(test_plan_interleaved_grouped),
        cmocka_unit_test(test_plan_random),
        cmocka_unit_test(test_plan_shard),
        cmocka_unit_test(test_plan_cap),
        cmocka_unit_test(test_plan_only),
        cmocka_unit_test(test_resume_keys),
        cmocka_unit_test(test_record_info),
        cmocka_unit_test(test_version_cmd),
        cmocka_unit_test(test_config_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
