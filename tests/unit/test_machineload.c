// links: rd_collect
/*
 * test_machineload - the foreign load from fixed /proc files: the "cpu"
 * line's busy, steal and total ticks, the "some" pressure total, the
 * percent of one CPU between two snapshots, the busiest processes with
 * rundown's own descendants left out, and the parsers of the options.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "contention.h"
#include "rundown/arena.h"
#include "rundown/record.h"
#include "machineload.h"

static void stat_line(void **state)
{
    (void)state;
    unsigned long long busy, steal, all;
    /* user nice system idle iowait irq softirq steal guest guest_nice */
    const char *text = "cpu  10 2 30 400 5 6 7 8 9 1\ncpu0 1 1 1 1 1 1 1 1 0 0\n";
    assert_true(rd_machine_parse_stat(text, &busy, &steal, &all));
    assert_int_equal(busy, 10 + 2 + 30 + 6 + 7);   /* 55, by hand */
    assert_int_equal(steal, 8);
    assert_int_equal(all, 10 + 2 + 30 + 400 + 5 + 6 + 7 + 8); /* 468 */
    assert_false(rd_machine_parse_stat("intr 1 2 3\n", &busy, &steal, &all));
    assert_false(rd_machine_parse_stat("cpu  1 2\n", &busy, &steal, &all));
}

static void pressure_line(void **state)
{
    (void)state;
    double t;
    assert_true(rd_machine_parse_pressure(
        "some avg10=1.00 avg60=0.50 avg300=0.10 total=123456\n"
        "full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n", &t));
    assert_true(t == 123456);
    assert_false(rd_machine_parse_pressure("full avg10=0 total=5\n", &t));
}

static void load_between(void **state)
{
    (void)state;
    double tick_ms = 1000.0 / (double)sysconf(_SC_CLK_TCK);
    /* 2 s apart; 150 busy ticks, 500 ms of rundown's own: with 10 ms
     * ticks, (1500 - 500) ms over 2000 ms = 50 % of one CPU. */
    struct rd_machine_snap a = {.t = 10, .have_stat = true, .busy = 1000, .steal = 0,
                                .have_pressure = true, .pressure_us = 0, .own_ms = 100};
    struct rd_machine_snap b = a;
    b.t = 12;
    b.busy = 1150;
    b.steal = 20;
    b.pressure_us = 500000;
    b.own_ms = 100 + 500;
    struct rd_machine_load l;
    rd_machine_load_between(&a, &b, &l);
    assert_true(fabs(l.wall_s - 2) < 1e-12);
    double want = (150 * tick_ms - 500) / 2000 * 100;
    assert_true(fabs(l.others_pct - fmax(want, 0)) < 1e-9);
    assert_true(fabs(l.steal_pct - 20 * tick_ms / 2000 * 100) < 1e-9);
    assert_true(fabs(l.pressure_pct - 25) < 1e-9); /* 0.5 s of 2 s */
    /* own CPU above the busy ticks (tick rounding): 0, never negative */
    b.own_ms = 100 + 5000;
    rd_machine_load_between(&a, &b, &l);
    assert_true(l.others_pct == 0);
    /* no /proc/stat: unknown */
    b.have_stat = false;
    rd_machine_load_between(&a, &b, &l);
    assert_true(isnan(l.others_pct));
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void busiest(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-ml-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char p[256];
    pid_t self = 4242;
    /* 4242 is rundown, 4300 its child (a server), 5000 and 6000 foreign. */
    const struct { int pid, ppid; const char *comm; unsigned long long t0, t1; } ps[] = {
        {4242, 1, "rundown-collect", 10, 20},
        {4300, 4242, "node (x)", 0, 50},
        {5000, 1, "stress", 100, 300},
        {6000, 1, "cc1", 0, 10},
    };
    struct rd_proc_table before = {0}, after = {0};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < 4; i++) {
            snprintf(p, sizeof p, "%s/%d", dir, ps[i].pid);
            mkdir(p, 0755);
            snprintf(p, sizeof p, "%s/%d/stat", dir, ps[i].pid);
            char text[256];
            snprintf(text, sizeof text, "%d (%s) R %d 1 1 0 -1 0 0 0 0 0 %llu 0 0 0\n",
                     ps[i].pid, ps[i].comm, ps[i].ppid, pass ? ps[i].t1 : ps[i].t0);
            write_file(p, text);
        }
        assert_true(rd_proc_table_read(dir, pass ? &after : &before));
    }
    assert_int_equal(after.n, 4);
    struct rd_busy_proc top[3];
    unsigned long long own = 0;
    double tick_s = 1.0 / (double)sysconf(_SC_CLK_TCK);
    size_t n = rd_proc_table_busiest(&before, &after, self, 2.0, top, 3, &own);
    assert_int_equal(n, 2);
    assert_int_equal(top[0].pid, 5000);
    assert_string_equal(top[0].comm, "stress");
    assert_true(fabs(top[0].pct - 200 * tick_s / 2 * 100) < 1e-9);
    assert_int_equal(top[1].pid, 6000);
    assert_int_equal(own, 10 + 50); /* rundown and its server */
    rd_proc_table_release(&before);
    rd_proc_table_release(&after);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A guard in mode warn (threshold 25 %, no speed probe) on a fixed /proc
 * made in dir (a mkdtemp template) whose stat, at path stat, the test
 * rewrites between snapshots. */
static void warn_guard_on_fixed_proc(char *dir, char *stat, size_t size, struct rd_guard *g)
{
    assert_non_null(mkdtemp(dir));
    snprintf(stat, size, "%s/stat", dir);
    /* user nice system idle iowait irq softirq steal guest guest_nice */
    write_file(stat, "cpu  100 0 100 1000 0 0 0 0 0 0\n");
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    o.mode = RD_CONTENTION_WARN;
    o.threshold_pct = 25;
    rd_guard_init(g, &o, dir);
    rd_guard_on_probe(g, NULL, NULL);
}

/* A run is judged by others' CPU and the hypervisor's steal together: with
 * no other process busy, steal alone over the threshold makes it contended
 * (the study of 2026-12-02 ran at a 90th-percentile steal of 28 %). The
 * fixed /proc/stat is rewritten between the run's begin and end, so the
 * run's wall time (microseconds) makes one tick far above 25 %. */
static void steal_makes_a_run_contended(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-steal-XXXXXX", stat[256];
    struct rd_guard g;
    warn_guard_on_fixed_proc(dir, stat, sizeof stat, &g);
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record quiet, stolen;
    rd_record_init(&quiet, &arena);
    rd_record_init(&stolen, &arena);

    rd_guard_run_begin(&g);
    assert_int_equal(rd_guard_run_end(&g, &quiet), RD_OK);
    assert_false(quiet.contended);

    rd_guard_run_begin(&g);
    write_file(stat, "cpu  100 0 100 1000 0 0 0 1 0 0\n"); /* one tick of steal */
    assert_int_equal(rd_guard_run_end(&g, &stolen), RD_OK);
    assert_true(stolen.contended);
    double others = NAN, steal = NAN;
    assert_true(rd_record_metric(&stolen, "machine_others_cpu_pct", &others));
    assert_true(rd_record_metric(&stolen, "machine_steal_pct", &steal));
    assert_true(others == 0);  /* no other process: steal alone did it */
    assert_true(steal > 25);
    assert_int_equal(g.contended, 1);

    struct rd_machine_load l = {.wall_s = 1, .others_pct = 10, .steal_pct = 20};
    assert_true(fabs(rd_machine_load_foreign_pct(&l) - 30) < 1e-12);
    l.steal_pct = NAN;
    assert_true(fabs(rd_machine_load_foreign_pct(&l) - 10) < 1e-12);
    l.others_pct = NAN;
    assert_true(isnan(rd_machine_load_foreign_pct(&l)));

    rd_arena_release(&arena);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A run shorter than RD_CONTENTION_JUDGE_S stores the figures of the
 * interval it is judged by, and says how long that was: one /proc/stat
 * tick (10 ms) during a run of microseconds is thousands of percent of a
 * CPU over the run alone (a quiet 2-CPU machine's summary read "at most
 * 864.3 %" for `true`), but 1 % over the second before it that the guard
 * judged. The guard's check is moved a second back by hand, as if it had
 * been taken then; the run begins and ends at once. */
static void short_runs_store_the_judged_interval(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-short-XXXXXX", stat[256];
    struct rd_guard g;
    warn_guard_on_fixed_proc(dir, stat, sizeof stat, &g);
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record rec;
    rd_record_init(&rec, &arena);

    assert_int_equal(rd_guard_wait(&g, "w", NULL), RD_OK);
    g.hist[g.nhist - 1].t -= 1.0;
    rd_guard_run_begin(&g);
    write_file(stat, "cpu  101 0 100 1000 0 0 0 0 0 0\n"); /* one tick of user */
    assert_int_equal(rd_guard_run_end(&g, &rec), RD_OK);
    double tick_ms = 1000.0 / (double)sysconf(_SC_CLK_TCK);
    double others = NAN;
    assert_true(rd_record_metric(&rec, "machine_others_cpu_pct", &others));
    /* At most one tick over a little more than a second: 1 % with 10 ms
     * ticks (less whatever CPU this test used meanwhile). */
    assert_true(others <= tick_ms / 1000 * 100 + 1e-9);
    assert_true(g.others_max <= tick_ms / 1000 * 100 + 1e-9);
    assert_false(rec.contended);
    const char *w = rd_record_info(&rec, "machine_load_window_s");
    assert_non_null(w);
    double window = strtod(w, NULL);
    assert_true(window >= 1.0 && window < 2.0);

    /* A run as long as the judged interval is its own: no window noted. */
    struct rd_record longer;
    rd_record_init(&longer, &arena);
    rd_guard_run_begin(&g);
    g.run_start.t -= RD_CONTENTION_JUDGE_S + 0.1;
    g.hist[g.nhist - 1].t = g.run_start.t;
    assert_int_equal(rd_guard_run_end(&g, &longer), RD_OK);
    assert_null(rd_record_info(&longer, "machine_load_window_s"));
    assert_true(rd_record_metric(&longer, "machine_others_cpu_pct", &others) && others == 0);

    rd_arena_release(&arena);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Runs of a millisecond, back to back for 0.6 s: the judged interval must
 * still reach back RD_CONTENTION_JUDGE_S, so one tick during the last run
 * is 2 % of a CPU, not a run set aside. Before the history was thinned its
 * 32 snapshots (three a run) reached back about ten runs: one tick over
 * ~11 ms read as 90 %. */
static void back_to_back_short_runs_are_judged_over_the_full_interval(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-b2b-XXXXXX", stat[256];
    struct rd_guard g;
    warn_guard_on_fixed_proc(dir, stat, sizeof stat, &g);
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct timespec ms = {0, 1000000}, t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int runs = 0;
    do {
        struct rd_record rec;
        rd_record_init(&rec, &arena);
        assert_int_equal(rd_guard_wait(&g, "w", NULL), RD_OK);
        rd_guard_run_begin(&g);
        nanosleep(&ms, NULL);
        assert_int_equal(rd_guard_run_end(&g, &rec), RD_OK);
        assert_false(rec.contended);
        runs++;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 < 0.6);
    assert_true(runs > 3 * RD_GUARD_HISTORY);

    struct rd_record last;
    rd_record_init(&last, &arena);
    assert_int_equal(rd_guard_wait(&g, "w", NULL), RD_OK);
    rd_guard_run_begin(&g);
    write_file(stat, "cpu  101 0 100 1000 0 0 0 0 0 0\n"); /* one tick of user */
    assert_int_equal(rd_guard_run_end(&g, &last), RD_OK);
    const char *w = rd_record_info(&last, "machine_load_window_s");
    assert_non_null(w);
    assert_true(strtod(w, NULL) >= RD_CONTENTION_JUDGE_S);
    double others = NAN, tick_ms = 1000.0 / (double)sysconf(_SC_CLK_TCK);
    assert_true(rd_record_metric(&last, "machine_others_cpu_pct", &others));
    assert_true(others <= tick_ms / (RD_CONTENTION_JUDGE_S * 1000) * 100 + 1e-9);
    assert_false(last.contended);

    rd_arena_release(&arena);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void options(void **state)
{
    (void)state;
    struct rd_diag d;
    double v;
    enum rd_contention_mode m;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_contention_parse_threshold("12.5", "--t", &v, &d), RD_OK);
    assert_true(v == 12.5);
    assert_int_equal(rd_contention_parse_threshold("101", "--t", &v, &d), RD_ERR_USAGE);
    assert_non_null(strstr(d.msg, "--t"));
    assert_int_equal(rd_contention_parse_threshold("x", "--t", &v, &d), RD_ERR_USAGE);
    assert_int_equal(rd_contention_parse_wait("-1", "--w", &v, &d), RD_ERR_USAGE);
    assert_int_equal(rd_contention_parse_wait("0", "--w", &v, &d), RD_OK);
    assert_int_equal(rd_contention_parse_mode("warn", "--c", &m, &d), RD_OK);
    assert_int_equal(m, RD_CONTENTION_WARN);
    assert_int_equal(rd_contention_parse_mode("on", "--c", &m, &d), RD_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stat_line),    cmocka_unit_test(pressure_line),
        cmocka_unit_test(load_between), cmocka_unit_test(busiest),
        cmocka_unit_test(options), cmocka_unit_test(steal_makes_a_run_contended),
        cmocka_unit_test(short_runs_store_the_judged_interval),
        cmocka_unit_test(back_to_back_short_runs_are_judged_over_the_full_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
