// links: rd_collect
/*
 * test_timedruns - the loop of `run`: two commands interleaved A B A B
 * after a warmup round, numbered per config and phase, one step per run,
 * each run's logs under its config's stem; and an error that stops the
 * loop with the runs before it stored.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "timedruns.h"

struct order {
    char seen[16][32];
    size_t n, steps;
};

static void on_report(void *ctx, const struct rd_session_event *ev)
{
    struct order *o = ctx;
    if (ev->kind != RD_SESSION_STARTING || o->n == 16)
        return;
    assert_int_equal(ev->step, o->n);
    o->steps = ev->steps;
    snprintf(o->seen[o->n++], sizeof o->seen[0], "%s %s %ld",
             rd_record_label(ev->rec, "command"), ev->rec->phase, ev->rec->run);
}

static void add(struct rd_session *s, const char *name, struct rd_session_config **cfg)
{
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    assert_int_equal(rd_record_set(r, &r->workload, "w"), RD_OK);
    assert_int_equal(rd_record_set_label(r, "command", name), RD_OK);
    assert_int_equal(rd_session_add_config(s, r, cfg), RD_OK);
    rd_recordset_release(&set);
}

static void test_interleaved(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd_test_timedruns_XXXXXX", store[128], logs[128], log[256];
    assert_non_null(mkdtemp(dir));
    snprintf(store, sizeof store, "%s/s.jsonl", dir);
    snprintf(logs, sizeof logs, "%s/logs", dir);
    struct rd_session s;
    struct rd_diag d;
    struct order order = {.n = 0};
    rd_session_init(&s, store);
    rd_session_on_report(&s, on_report, &order);
    char *echo_a[] = {"sh", "-c", "echo a", NULL}, *fail_b[] = {"sh", "-c", "exit 1", NULL};
    struct rd_timed_command cmds[2] = {{echo_a, NULL}, {fail_b, NULL}};
    add(&s, "a", &cmds[0].config);
    add(&s, "b", &cmds[1].config);
    struct rd_timed_spec spec = {.cmds = cmds, .ncmds = 2, .warmups = 1, .runs = 2,
                                 .log_dir = logs};
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_timed_runs(&s, &spec, &d), RD_OK);
    static const char *const want[] = {"a warmup 1", "b warmup 1", "a measure 1",
                                       "b measure 1", "a measure 2", "b measure 2"};
    assert_int_equal(order.n, 6);
    assert_int_equal(order.steps, 6);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(order.seen[i], want[i]);
    /* A failed run is data: stored and counted, not an error. */
    assert_int_equal(s.stored, 6);
    assert_int_equal(s.failed, 3);
    assert_int_equal(cmds[0].config->stored[RD_PHASE_MEASURE], 2);
    assert_int_equal(cmds[1].config->failed, 3);
    struct stat st;
    /* The config's stem: "a", then FNV-1a-64("command=a") >> 16 in hex,
     * computed with Python (h = 0xcbf29ce484222325; per byte h ^= b,
     * h *= 0x100000001b3 mod 2^64). */
    snprintf(log, sizeof log, "%s/w/a-8d963c199ee9-warmup-1.stdout.txt", logs);
    assert_int_equal(stat(log, &st), 0);
    snprintf(log, sizeof log, "%s/w/a-8d963c199ee9-2.stdout.txt", logs);
    assert_int_equal(stat(log, &st), 0);
    rd_session_release(&s);

    /* A log folder that cannot be made stops the loop before any run. */
    snprintf(log, sizeof log, "%s/file", dir);
    FILE *f = fopen(log, "w");
    assert_non_null(f);
    fclose(f);
    rd_session_init(&s, store);
    add(&s, "a", &cmds[0].config);
    spec.ncmds = 1;
    spec.log_dir = log;
    rd_diag_init(&d, NULL);
    assert_int_not_equal(rd_timed_runs(&s, &spec, &d), RD_OK);
    assert_int_equal(s.stored, 0);
    rd_session_release(&s);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interleaved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
