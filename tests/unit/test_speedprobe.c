// links: rd_collect
/*
 * test_speedprobe - the CPU speed probe and how the contention guard and
 * `check` judge by it: the speed against the best seen (hand-computed
 * ratios), the real probe on every allowed CPU, the readings of a test's
 * script, a slow reading making a run contended, the wait for speed, and
 * check's finding; the same for the cross-CPU wake-up read with it, and
 * for the store-reload series (each series against its own best, slow
 * when either is).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contention.h"
#include "machinecheck.h"
#include "speedmemory.h"
#include "rundown/arena.h"
#include "rundown/record.h"
#include "speedprobe.h"
#include "wakeprobe.h"

static struct rd_speed_reading reading(double cpu0, double cpu1)
{
    return (struct rd_speed_reading){.ncpu = 2, .cpu = {0, 1}, .ms = {cpu0, cpu1}};
}

/* By hand: the first reading is the best (100 %); CPU 0 at 1.25 ms against
 * its best 1.0 runs at 1.0 / 1.25 = 80 %; a faster CPU 0 (0.8) becomes the
 * best while CPU 1 at 2.5 against 2.0 is at 80 %; the slowest CPU decides. */
static void speed_against_the_best(void **state)
{
    (void)state;
    double best[RD_SPEED_CPUS_MAX] = {0};
    struct rd_speed_reading r = reading(1.0, 2.0);
    assert_true(fabs(rd_speed_pct(&r, best, false) - 100) < 1e-12);
    r = reading(1.25, 2.0);
    assert_true(fabs(rd_speed_pct(&r, best, false) - 80) < 1e-12);
    r = reading(0.8, 2.5);
    assert_true(fabs(rd_speed_pct(&r, best, false) - 80) < 1e-12);
    assert_true(best[0] == 0.8 && best[1] == 2.0);
    r = (struct rd_speed_reading){0};
    assert_true(isnan(rd_speed_pct(&r, best, false)));
}

/* By hand, CPUs of one kind: the best is the fastest CPU's. CPU 1 slow
 * from the first reading (1.5 ms against CPU 0's 1.0) is at 1.0 / 1.5 =
 * 66.7 % at once, where against its own best it read 100 %; CPU 0 at 0.8
 * moves the best for both: 0.8 / 1.5 = 53.3 %. */
static void speed_against_the_fastest_alike_cpu(void **state)
{
    (void)state;
    double own[RD_SPEED_CPUS_MAX] = {0}, alike[RD_SPEED_CPUS_MAX] = {0};
    struct rd_speed_reading r = reading(1.0, 1.5);
    assert_true(fabs(rd_speed_pct(&r, own, false) - 100) < 1e-12);
    assert_true(fabs(rd_speed_pct(&r, alike, true) - 100.0 / 1.5) < 1e-12);
    r = reading(0.8, 1.5);
    assert_true(fabs(rd_speed_pct(&r, alike, true) - 80.0 / 1.5) < 1e-12);
    assert_true(alike[0] == 0.8 && alike[1] == 1.5); /* the bests stay per CPU */
    r = reading(0.8, 0.8);
    assert_true(fabs(rd_speed_pct(&r, alike, true) - 100) < 1e-12);
}

static struct rd_speed_reading with_store(double mul, double store0, double store1)
{
    struct rd_speed_reading r = reading(mul, mul);
    r.store_ms[0] = store0;
    r.store_ms[1] = store1;
    return r;
}

/* By hand, the store series against its own bests, apart from the
 * multiply-add chain's: CPU 1 at 0.6 ms against its 0.3 is 0.3 / 0.6 =
 * 50 % and decides (*cpu 1) while the chain reads 100 %; alike CPUs judge
 * CPU 1's 0.45 against CPU 0's 0.3: 66.7 %; a reading without the series
 * (0: not read) is NaN, CPU -1, and leaves the bests alone. */
static void store_series_against_its_own_best(void **state)
{
    (void)state;
    double best[RD_SPEED_CPUS_MAX] = {0}, store[RD_SPEED_CPUS_MAX] = {0};
    int cpu = 7;
    struct rd_speed_reading r = with_store(1.0, 0.3, 0.3);
    assert_true(fabs(rd_speed_store_pct(&r, store, false, &cpu) - 100) < 1e-12);
    r = with_store(1.0, 0.3, 0.6);
    assert_true(fabs(rd_speed_pct(&r, best, false) - 100) < 1e-12);
    assert_true(fabs(rd_speed_store_pct(&r, store, false, &cpu) - 50) < 1e-12);
    assert_int_equal(cpu, 1);
    assert_true(best[0] == 1.0 && best[1] == 1.0 && store[0] == 0.3 && store[1] == 0.3);
    double alike[RD_SPEED_CPUS_MAX] = {0};
    r = with_store(1.0, 0.3, 0.45);
    assert_true(fabs(rd_speed_store_pct(&r, alike, true, NULL) - 100 * 0.3 / 0.45) < 1e-12);
    r = reading(1.0, 1.0);
    assert_true(isnan(rd_speed_store_pct(&r, store, false, &cpu)));
    assert_int_equal(cpu, -1);
    assert_true(store[0] == 0.3 && store[1] == 0.3);
    r.store_ms[0] = r.store_ms[1] = NAN;
    assert_true(isnan(rd_speed_store_pct(&r, store, false, NULL)));
}

static void write_file(const char *path, const char *text);

/* Writes sys/devices/system/cpu/cpuN/<rel>, making its directories. */
static void write_cpu_file(const char *sys, int cpu, const char *rel, const char *text)
{
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/%s", sys, cpu, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    write_file(path, text);
}

/* Which CPUs count as one kind: what sysfs does not describe (a VM's
 * vCPUs), maximum clocks within 5 % (3.0 and 2.9 GHz: 3.3 % apart) are
 * alike; 3.0 against 2.0 GHz, capacities 1024 against 446 (a big.LITTLE
 * pair), or a hybrid processor's cpu_atom PMU are not. */
static void cpus_alike_by_sysfs(void **state)
{
    (void)state;
    char sys[] = "/tmp/rd-speed-sys-XXXXXX";
    assert_non_null(mkdtemp(sys));
    struct rd_speed_reading r = reading(1, 1);
    assert_true(rd_speed_cpus_alike(sys, &r));
    write_cpu_file(sys, 0, "cpufreq/cpuinfo_max_freq", "3000000\n");
    write_cpu_file(sys, 1, "cpufreq/cpuinfo_max_freq", "2900000\n");
    assert_true(rd_speed_cpus_alike(sys, &r));
    write_cpu_file(sys, 1, "cpufreq/cpuinfo_max_freq", "2000000\n");
    assert_false(rd_speed_cpus_alike(sys, &r));
    struct rd_speed_reading cpu0_only = {.ncpu = 1, .cpu = {0}, .ms = {1}};
    assert_true(rd_speed_cpus_alike(sys, &cpu0_only));
    write_cpu_file(sys, 1, "cpufreq/cpuinfo_max_freq", "3000000\n");
    write_cpu_file(sys, 0, "cpu_capacity", "1024\n");
    write_cpu_file(sys, 1, "cpu_capacity", "446\n");
    assert_false(rd_speed_cpus_alike(sys, &r));
    write_cpu_file(sys, 1, "cpu_capacity", "1024\n");
    assert_true(rd_speed_cpus_alike(sys, &r));
    char atom[300];
    snprintf(atom, sizeof atom, "mkdir -p %s/devices/cpu_atom", sys);
    assert_int_equal(system(atom), 0);
    assert_false(rd_speed_cpus_alike(sys, &r));
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", sys);
    assert_int_equal(system(cmd), 0);
}

/* By hand: the first round trip is the best (100 %); 20 us against 15 is
 * 15 / 20 = 75 %; a faster one (10) becomes the best; nothing read is NaN
 * and leaves the best alone. */
static void wakeup_against_the_best(void **state)
{
    (void)state;
    double best = 0;
    assert_true(fabs(rd_wake_pct(15, &best) - 100) < 1e-12);
    assert_true(fabs(rd_wake_pct(20, &best) - 75) < 1e-12);
    assert_true(fabs(rd_wake_pct(10, &best) - 100) < 1e-12);
    assert_true(best == 10);
    assert_true(isnan(rd_wake_pct(NAN, &best)));
    assert_true(isnan(rd_wake_pct(0, &best)));
    assert_true(best == 10);
}

/* The real wake-up probe between the first two allowed CPUs: a positive
 * round trip under 10 ms, the caller's affinity as it was afterwards, and
 * a CPU that does not exist is an error naming it. */
static void real_wakeup_probe(void **state)
{
    (void)state;
    cpu_set_t set, after;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    int cpus[2], n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
        if (CPU_ISSET(c, &set))
            cpus[n++] = c;
    if (n < 2)
        skip();
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    double us = NAN;
    assert_int_equal(rd_wake_probe(cpus[0], cpus[1], RD_WAKE_TRIPS, &us, &d), RD_OK);
    /* A time, not a bound on it: on a loaded machine (clang ASan ctest -j2
     * beside two builds, 2026-12-05) one round trip took over 10 ms, and
     * how long it takes is the benchmarks' to say (bench/host_probe.c). */
    assert_true(us > 0 && isfinite(us));
    assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&set, &after));
    assert_int_equal(rd_wake_probe(cpus[0], CPU_SETSIZE - 1, RD_WAKE_TRIPS, &us, &d), RD_ERR_IO);
    assert_true(isnan(us));
    assert_non_null(strstr(d.msg, "wake-up probe between CPUs"));
    /* Any number of trips from one (bench/host_probe.c asks for 2,000);
     * none is a usage error. */
    assert_int_equal(rd_wake_probe(cpus[0], cpus[1], 1, &us, &d), RD_OK);
    assert_true(us > 0 && isfinite(us));
    assert_int_equal(rd_wake_probe(cpus[0], cpus[1], 0, &us, &d), RD_ERR_USAGE);
    assert_true(isnan(us));
    assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&set, &after));
    /* The speed probe reads it too, with two CPUs or more. */
    struct rd_speed_reading r;
    assert_int_equal(rd_speed_probe(&r, &d), RD_OK);
    assert_true(r.wake_us > 0 && isfinite(r.wake_us));
}

/* The real probe reads every CPU rundown may run on, each a positive time
 * well under a second (about 1.5 ms of work per repetition). */
static void real_probe_reads_every_allowed_cpu(void **state)
{
    (void)state;
    cpu_set_t set;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    int allowed = CPU_COUNT(&set) < RD_SPEED_CPUS_MAX ? CPU_COUNT(&set) : RD_SPEED_CPUS_MAX;
    struct rd_speed_reading r;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_speed_probe(&r, &d), RD_OK);
    assert_int_equal(r.ncpu, allowed);
    for (int i = 0; i < r.ncpu; i++) {
        assert_true(CPU_ISSET(r.cpu[i], &set));
        assert_true(r.ms[i] > 0 && r.ms[i] < 1000);
        assert_true(r.store_ms[i] > 0 && r.store_ms[i] < 1000);
    }
    /* The two series are versioned together, and apart from each other. */
    assert_non_null(strstr(rd_speed_probe_id(), "/v2/"));
    assert_non_null(strstr(rd_speed_store_probe_id(), "/v2/"));
    assert_string_not_equal(rd_speed_probe_id(), rd_speed_store_probe_id());
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* RUNDOWN_SPEED_PROBE: off, or a script read line by line, the last
 * repeating; a line without figures is an error naming the file and line. */
static void script_source(void **state)
{
    (void)state;
    char path[] = "/tmp/rd-speed-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, "1.0 2.0\n1.25 2\n");
    struct rd_speed_source src;
    struct rd_speed_reading r;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    setenv("RUNDOWN_SPEED_PROBE", path, 1);
    rd_speed_source_init(&src);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_OK);
    assert_int_equal(r.ncpu, 2);
    assert_true(r.ms[0] == 1.0 && r.ms[1] == 2.0);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_OK);
    assert_true(r.ms[0] == 1.25 && r.ms[1] == 2.0);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_OK);
    assert_true(r.ms[0] == 1.25);  /* the last line repeats */
    assert_true(isnan(r.wake_us)); /* no '|': no wake-up reading */
    assert_true(isnan(r.store_ms[0]) && isnan(r.store_ms[1])); /* no ';': no store series */
    /* The store series after ';', a figure a CPU; CPUs left out are not
     * read; then the wake-up as before. */
    write_file(path, "1 1 ; 0.3 0.6 | 15\n1 1;0.3\n1 1 ;\n1 1 ; 0.3 0.3 0.3\n1 1 ; x\n");
    rd_speed_source_init(&src);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_OK);
    assert_true(r.ncpu == 2 && r.ms[0] == 1 && r.ms[1] == 1);
    assert_true(r.store_ms[0] == 0.3 && r.store_ms[1] == 0.6 && r.wake_us == 15);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_OK);
    assert_true(r.store_ms[0] == 0.3 && isnan(r.store_ms[1]) && isnan(r.wake_us));
    for (int line = 3; line <= 5; line++) {
        assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_ERR_PARSE);
        assert_int_equal(d.line, line);
        assert_non_null(strstr(d.msg, line == 4 ? "expected at most 2 store-reload figures"
                                                : "store-reload chain's CPU milliseconds"));
    }
    write_file(path, "1.0 2.0 | 15.5\n1 2 |\n");
    rd_speed_source_init(&src);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_OK);
    assert_true(r.ncpu == 2 && r.ms[1] == 2.0 && r.wake_us == 15.5);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_ERR_PARSE);
    assert_non_null(strstr(d.msg, "wake-up round trip"));
    assert_int_equal(d.line, 2);
    write_file(path, "x\n");
    rd_speed_source_init(&src);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_ERR_PARSE);
    assert_non_null(strstr(d.msg, "CPU milliseconds"));
    setenv("RUNDOWN_SPEED_PROBE", "off", 1);
    rd_speed_source_init(&src);
    assert_true(src.off);
    assert_int_equal(rd_speed_source_read(&src, &r, &d), RD_ERR_IO);
    unsetenv("RUNDOWN_SPEED_PROBE");
    unlink(path);
}

/* A probe that hands out fixed readings in turn, the last repeating. */
struct fixed_probe {
    const struct rd_speed_reading *r;
    int n, next, calls;
};

static rd_status fixed_probe(void *ctx, struct rd_speed_reading *out, struct rd_diag *d)
{
    (void)d;
    struct fixed_probe *p = ctx;
    *out = p->r[p->next < p->n ? p->next : p->n - 1];
    p->next++;
    p->calls++;
    return RD_OK;
}

/* A fixed /proc/stat with no foreign load, so only the speed judges. */
static void quiet_proc(char *dir)
{
    assert_non_null(mkdtemp(dir));
    char stat[256];
    snprintf(stat, sizeof stat, "%s/stat", dir);
    write_file(stat, "cpu  100 0 100 1000 0 0 0 0 0 0\n");
}

static void remove_dir(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A run begun at full speed and ended with CPU 1 at half its best is
 * contended with machine_speed_pct 50; runs closer than RD_SPEED_EVERY_S
 * share a reading (the probe is not run again). */
static void a_slow_cpu_makes_a_run_contended(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    o.mode = RD_CONTENTION_WARN;
    struct rd_guard g;
    rd_guard_init(&g, &o, dir);
    const struct rd_speed_reading r[] = {reading(1.0, 1.0), reading(1.0, 2.0)};
    struct fixed_probe p = {r, 2, 0, 0};
    rd_guard_on_probe(&g, fixed_probe, &p);
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record fast, slow;
    rd_record_init(&fast, &arena);
    rd_record_init(&slow, &arena);
    double v = NAN;

    rd_guard_run_begin(&g);
    assert_int_equal(rd_guard_run_end(&g, &fast), RD_OK);
    assert_int_equal(p.calls, 1);  /* begin probed; end shared its reading */
    assert_false(fast.contended);
    assert_true(rd_record_metric(&fast, "machine_speed_pct", &v) && v == 100);

    g.speed_t -= RD_SPEED_EVERY_S;  /* as if the last reading were old */
    rd_guard_run_begin(&g);
    assert_int_equal(rd_guard_run_end(&g, &slow), RD_OK);
    assert_int_equal(p.calls, 2);
    assert_true(slow.contended);
    assert_true(rd_record_metric(&slow, "machine_speed_pct", &v) && v == 50);
    assert_int_equal(g.slow, 1);
    assert_int_equal(g.contended, 1);
    assert_true(g.speed_min == 50);

    rd_arena_release(&arena);
    remove_dir(dir);
}

/* A CPU the host slowed before the first reading and kept slow: with CPUs
 * of one kind (a /sys that describes none of them, as a VM's) the first
 * run is already contended at 1.0 / 1.5 = 66.7 %; with CPUs of two kinds
 * (maximum clocks 3.0 and 2.0 GHz) CPU 1 is held to its own best. */
static void a_cpu_slow_from_the_start_makes_a_run_contended(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    setenv("RUNDOWN_SYS_ROOT", dir, 1);
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    o.mode = RD_CONTENTION_WARN;
    const struct rd_speed_reading r[] = {reading(1.0, 1.5)};
    struct rd_arena arena;
    rd_arena_init(&arena);
    for (int kinds = 1; kinds <= 2; kinds++) {
        if (kinds == 2) {
            char cmd[400];
            snprintf(cmd, sizeof cmd, "for c in 0 1; do mkdir -p %s/devices/system/cpu/cpu$c/cpufreq;"
                     " echo $((3000000 - c * 1000000)) >%s/devices/system/cpu/cpu$c/cpufreq/"
                     "cpuinfo_max_freq; done", dir, dir);
            assert_int_equal(system(cmd), 0);
        }
        struct rd_guard g;
        rd_guard_init(&g, &o, dir);
        struct fixed_probe p = {r, 1, 0, 0};
        rd_guard_on_probe(&g, fixed_probe, &p);
        struct rd_record rec;
        rd_record_init(&rec, &arena);
        double v = NAN;
        rd_guard_run_begin(&g);
        assert_int_equal(rd_guard_run_end(&g, &rec), RD_OK);
        assert_true(rd_record_metric(&rec, "machine_speed_pct", &v));
        if (kinds == 1) {
            assert_true(rec.contended);
            assert_true(fabs(v - 100.0 / 1.5) < 1e-12);
        } else {
            assert_false(rec.contended);
            assert_true(v == 100);
        }
    }
    unsetenv("RUNDOWN_SYS_ROOT");
    rd_arena_release(&arena);
    remove_dir(dir);
}

static struct rd_speed_reading with_wakeup(double cpu_ms, double wake_us)
{
    struct rd_speed_reading r = reading(cpu_ms, cpu_ms);
    r.wake_us = wake_us;
    return r;
}

/* A run whose wake-up went from 15 to 25 us is contended by the wake-up
 * alone (15 / 25 = 60 % < 67 %), with machine_wakeup_pct 60 and
 * machine_wakeup_us 25; one slow on both probes names both; one at 20 us
 * (75 %) is not contended. */
static void a_slow_wakeup_makes_a_run_contended(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    o.mode = RD_CONTENTION_WARN;
    assert_true(o.min_wakeup_pct == 67);
    struct rd_guard g;
    rd_guard_init(&g, &o, dir);
    const struct rd_speed_reading r[] = {with_wakeup(1.0, 15), with_wakeup(1.0, 25),
                                         with_wakeup(2.0, 30), with_wakeup(1.0, 20)};
    struct fixed_probe p = {r, 4, 0, 0};
    rd_guard_on_probe(&g, fixed_probe, &p);
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record a, b, c;
    rd_record_init(&a, &arena);
    rd_record_init(&b, &arena);
    rd_record_init(&c, &arena);
    double v = NAN;

    rd_guard_run_begin(&g);            /* 15 us */
    g.speed_t -= RD_SPEED_EVERY_S;
    assert_int_equal(rd_guard_run_end(&g, &a), RD_OK);  /* 25 us */
    assert_true(a.contended);
    assert_string_equal(rd_record_info(&a, "contended_by"), "wakeup");
    assert_true(rd_record_metric(&a, "machine_wakeup_pct", &v) && fabs(v - 60) < 1e-12);
    assert_true(rd_record_metric(&a, "machine_wakeup_us", &v) && v == 25);
    assert_true(rd_record_metric(&a, "machine_speed_pct", &v) && v == 100);

    g.speed_t -= RD_SPEED_EVERY_S;
    rd_guard_run_begin(&g);            /* 2 ms and 30 us */
    assert_int_equal(rd_guard_run_end(&g, &b), RD_OK);
    assert_true(b.contended);
    assert_string_equal(rd_record_info(&b, "contended_by"), "speed,wakeup");
    assert_true(rd_record_metric(&b, "machine_wakeup_pct", &v) && fabs(v - 50) < 1e-12);

    g.speed_t -= RD_SPEED_EVERY_S;
    rd_guard_run_begin(&g);            /* 20 us */
    assert_int_equal(rd_guard_run_end(&g, &c), RD_OK);
    assert_false(c.contended);
    assert_true(rd_record_metric(&c, "machine_wakeup_pct", &v) && fabs(v - 75) < 1e-12);
    assert_int_equal(g.slow_wakeup, 2);
    assert_int_equal(g.slow, 1);
    assert_int_equal(g.contended, 2);
    assert_true(fabs(g.wake_min - 50) < 1e-12);

    rd_arena_release(&arena);
    remove_dir(dir);
}

static void collect_note(void *ctx, const char *line)
{
    char *notes = ctx;
    strncat(notes, line, 4095 - strlen(notes));
    strncat(notes, "\n", 4095 - strlen(notes));
}

/* The guard in mode wait (5 s at most) over readings r[0..3]: a first
 * wait (no history: one window, r[0]), then one that probes from r[1] on
 * and must go on until the fast r[3]; what it said goes into notes. */
static void wait_out(const struct rd_speed_reading r[4], char notes[4096])
{
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    o.mode = RD_CONTENTION_WAIT;
    o.wait_s = 5;
    struct rd_guard g;
    rd_guard_init(&g, &o, dir);
    struct fixed_probe p = {r, 4, 0, 0};
    rd_guard_on_probe(&g, fixed_probe, &p);
    notes[0] = '\0';
    rd_guard_on_note(&g, collect_note, notes);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_guard_wait(&g, "w", &d), RD_OK);
    p.next = 1;          /* from here on slow twice */
    g.speed_t = -1;      /* and the next wait probes at once */
    g.last_quiet = false;
    assert_int_equal(rd_guard_wait(&g, "w", &d), RD_OK);
    assert_true(p.next >= 4);  /* it probed until the fast reading */
    assert_true(g.pending_wait_s > 0);
    assert_int_equal(g.gave_up, 0);
    remove_dir(dir);
}

/* In mode wait the guard waits while the CPUs are slow, says so, and runs
 * once they are fast again: two slow readings, then a fast one. */
static void waits_for_speed(void **state)
{
    (void)state;
    const struct rd_speed_reading r[] = {reading(1.0, 1.0), reading(2.0, 1.0), reading(2.0, 1.0),
                                         reading(1.0, 1.0)};
    char notes[4096];
    wait_out(r, notes);
    assert_non_null(strstr(notes, "the CPUs run at 50 % of their best speed"));
}

/* The same for the wake-up: 30 us against a best of 15 is waited out. */
static void waits_for_the_wakeup(void **state)
{
    (void)state;
    const struct rd_speed_reading r[] = {with_wakeup(1.0, 15), with_wakeup(1.0, 30),
                                         with_wakeup(1.0, 30), with_wakeup(1.0, 16)};
    char notes[4096];
    wait_out(r, notes);
    assert_non_null(strstr(notes, "a cross-CPU wake-up takes 30.0 us, 50 % of its best speed "
                                  "(threshold 67 %)"));
    assert_null(strstr(notes, "the CPUs run at"));
}

/* The same for the store series, named with its CPU: "CPU 1 runs the
 * store-reload chain at 50 % of its best". */
static void waits_for_the_store_series(void **state)
{
    (void)state;
    const struct rd_speed_reading r[] = {with_store(1.0, 0.3, 0.3), with_store(1.0, 0.3, 0.6),
                                         with_store(1.0, 0.3, 0.6), with_store(1.0, 0.3, 0.31)};
    char notes[4096];
    wait_out(r, notes);
    assert_non_null(strstr(notes, "CPU 1 runs the store-reload chain at 50 % of its best "
                                  "(threshold 85 %)"));
    assert_null(strstr(notes, "the CPUs run at"));
}

/* check probes every 0.25 s over its window: a reading at 2/3 of the best
 * is a busy machine (threshold 85 %), steady readings are quiet. */
static void check_judges_the_speed(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    char script[300];
    snprintf(script, sizeof script, "%s/speed", dir);
    setenv("RUNDOWN_SPEED_PROBE", script, 1);
    struct rd_machine_check c;

    write_file(script, "1.0\n1.5\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.speed_probes >= 2);
    assert_true(fabs(c.speed_min_pct - 100.0 / 1.5) < 1e-9);
    assert_false(c.quiet);
    bool named = false;
    for (int i = 0; i < c.nf; i++)
        named = named || (strcmp(c.f[i].what, "speed") == 0 && c.f[i].level == RD_FINDING_BUSY);
    assert_true(named);

    write_file(script, "1.0\n1.05\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(fabs(c.speed_min_pct - 100.0 / 1.05) < 1e-9);
    assert_true(c.quiet);
    assert_int_equal(c.wake_probes, 0); /* no wake-up readings: no finding */

    /* CPU 1 slow all window (1.5 ms against CPU 0's 1.0, every probe): its
     * own readings agree with each other, CPU 0's best shows the 67 %. */
    write_file(script, "1.0 1.5\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.speed_alike);
    assert_true(fabs(c.speed_min_pct - 100.0 / 1.5) < 1e-9);
    assert_true(c.speed_own_min_pct == 100);
    assert_int_equal(c.speed_slow_cpu, 1);
    assert_int_equal(c.speed_fast_cpu, 0);
    assert_false(c.quiet);
    named = false;
    for (int i = 0; i < c.nf; i++)
        named = named || (strcmp(c.f[i].what, "speed") == 0 && c.f[i].level == RD_FINDING_BUSY &&
                          strstr(c.f[i].text, "67 % of their best speed or faster over") &&
                          strstr(c.f[i].text, "CPU 1 against CPU 0's best (100 % of its own)"));
    assert_true(named);
    /* Alike CPUs a point apart (1.0 and 1.02 ms, 98 %): the figure counts,
     * the words about the other CPU are left out. */
    write_file(script, "1.0 1.02\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet);
    for (int i = 0; i < c.nf; i++)
        if (strcmp(c.f[i].what, "speed") == 0)
            assert_null(strstr(c.f[i].text, "against CPU"));
    /* The same readings from CPUs of two kinds (3.0 and 2.0 GHz at most):
     * CPU 1 is judged against its own best, and is quiet. */
    char rel[400];
    snprintf(rel, sizeof rel, "mkdir -p %s/devices/system/cpu/cpu0/cpufreq "
             "%s/devices/system/cpu/cpu1/cpufreq", dir, dir);
    assert_int_equal(system(rel), 0);
    snprintf(rel, sizeof rel, "%s/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", dir);
    write_file(rel, "3000000\n");
    snprintf(rel, sizeof rel, "%s/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq", dir);
    write_file(rel, "2000000\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_false(c.speed_alike);
    assert_true(c.speed_min_pct == 100);
    assert_true(c.quiet);

    /* The wake-up: 15 then 30 us is 50 % of the best, busy at 67 %. */
    write_file(script, "1.0 | 15\n1.0 | 30\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.wake_probes >= 2);
    assert_true(c.wake_best_us == 15 && c.wake_worst_us == 30);
    assert_true(fabs(c.wake_min_pct - 50) < 1e-9);
    assert_false(c.quiet);
    named = false;
    for (int i = 0; i < c.nf; i++)
        named = named || (strcmp(c.f[i].what, "wakeup") == 0 && c.f[i].level == RD_FINDING_BUSY);
    assert_true(named);
    write_file(script, "1.0 | 15\n1.0 | 16\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet);
    unsetenv("RUNDOWN_SPEED_PROBE");
    remove_dir(dir);
}

/* check's finding about 'what', NULL when there is none. */
static const struct rd_finding *finding(const struct rd_machine_check *c, const char *what)
{
    for (int i = 0; i < c->nf; i++)
        if (strcmp(c->f[i].what, what) == 0)
            return &c->f[i];
    return NULL;
}

/* Both CPUs slowed together all window (0.85 ms where the machine gave
 * 0.6 ms before, as on 2026-12-04 at 22:42 UTC): the window's readings
 * agree with each other and check says quiet; against the best remembered
 * from the first check it is busy, by hand 0.6 / 0.85 = 70.6 %, and says
 * which reference it used. Without a memory (NULL) the same readings are
 * quiet, as before. */
static void check_judges_against_the_remembered_best(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    char script[300], memory[300];
    snprintf(script, sizeof script, "%s/speed", dir);
    snprintf(memory, sizeof memory, "%s/cache/speed.json", dir);
    setenv("RUNDOWN_SPEED_PROBE", script, 1);
    struct rd_machine_check c;

    write_file(script, "0.6 0.6\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet);
    assert_false(c.speed_remembered);
    assert_true(isnan(c.speed_remembered_ms)); /* the first: nothing remembered yet */

    write_file(script, "0.85 0.85\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet);
    assert_true(c.speed_min_pct == 100);
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_NOTE);
    assert_false(c.quiet);
    assert_true(c.speed_remembered);
    assert_true(c.speed_remembered_ms == 0.6);
    assert_true(fabs(c.speed_min_pct - 100 * 0.6 / 0.85) < 1e-9);
    assert_true(fabs(c.speed_vs_remembered_pct - 100 * 0.6 / 0.85) < 1e-9);
    assert_true(c.speed_own_min_pct == 100);
    const struct rd_finding *f = finding(&c, "speed");
    assert_non_null(f);
    assert_int_equal(f->level, RD_FINDING_BUSY);
    assert_non_null(strstr(f->text, "71 % of their best speed"));
    assert_non_null(strstr(f->text, "against the best remembered from earlier checks "
                                    "(0.6 ms; this window's best is 71 % of it)"));
    assert_non_null(strstr(f->advice, "--forget-speed"));
    cJSON *j = rd_machine_check_json(&c);
    assert_string_equal(cJSON_GetObjectItem(j, "speed_reference")->valuestring, "remembered");
    assert_true(cJSON_GetObjectItem(j, "speed_remembered_best_ms")->valuedouble == 0.6);
    cJSON_Delete(j);

    /* --forget-speed: judged by the window again, and 0.85 remembered. */
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_FORGET);
    assert_true(c.quiet);
    assert_true(c.speed_forgot);
    assert_false(c.speed_remembered);
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet);
    assert_true(c.speed_remembered_ms == 0.85);

    /* A damaged memory: a note, judged by the window, rewritten. */
    write_file(memory, "{not json");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet);
    assert_non_null(strstr(c.speed_memory_note, "set aside, it is rewritten"));
    f = finding(&c, "speedbest");
    assert_true(f && f->level == RD_FINDING_ADVICE);
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_NOTE);
    assert_string_equal(c.speed_memory_note, "");
    assert_true(c.speed_remembered_ms == 0.85);

    /* Another CPU model (a /proc/cpuinfo that names one): another key,
     * nothing remembered for it. */
    char cpuinfo[300];
    snprintf(cpuinfo, sizeof cpuinfo, "%s/cpuinfo", dir);
    write_file(cpuinfo, "model name\t: Another CPU\n");
    write_file(script, "0.6 0.6\n0.85 0.85\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_NOTE);
    assert_true(isnan(c.speed_remembered_ms));
    unsetenv("RUNDOWN_SPEED_PROBE");
    remove_dir(dir);
}

/* One collection of one run under the guard (mode warn), every reading
 * r, remembered at its end in $RUNDOWN_SPEED_MEMORY's file: the run into
 * *rec, the guard's count of runs slow against the memory into
 * *by_memory. */
static void collect_one(const char *dir, struct rd_speed_reading r, struct rd_arena *arena,
                        struct rd_record *rec, long *by_memory)
{
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    o.mode = RD_CONTENTION_WARN;
    struct rd_guard g;
    rd_guard_init(&g, &o, dir);
    struct fixed_probe p = {&r, 1, 0, 0};
    rd_guard_on_probe(&g, fixed_probe, &p);
    rd_record_init(rec, arena);
    rd_guard_run_begin(&g);
    assert_int_equal(rd_guard_run_end(&g, rec), RD_OK);
    *by_memory = g.slow_by_memory;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_guard_remember(&g, &d), RD_OK);
}

/* The guard: a collection whose every reading is 0.85 ms, against a best
 * of 0.6 remembered, has its first run contended at 70.6 % with
 * info.machine_speed_reference "remembered"; rd_guard_remember keeps the
 * remembered 0.6 (faster) and counts the collection as a miss. */
static void a_collection_slow_against_the_remembered_best(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    char memory[300];
    snprintf(memory, sizeof memory, "%s/speed.json", dir);
    setenv("RUNDOWN_SPEED_MEMORY", memory, 1);
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record rec;
    long by_memory;
    double v = NAN;
    collect_one(dir, reading(0.6, 0.6), &arena, &rec, &by_memory);
    assert_false(rec.contended);
    assert_null(rd_record_info(&rec, "machine_speed_reference"));
    collect_one(dir, reading(0.85, 0.85), &arena, &rec, &by_memory);
    assert_true(rec.contended);
    assert_true(rd_record_metric(&rec, "machine_speed_pct", &v));
    assert_true(fabs(v - 100 * 0.6 / 0.85) < 1e-9);
    assert_non_null(rd_record_info(&rec, "machine_speed_reference"));
    assert_string_equal(rd_record_info(&rec, "machine_speed_reference"), "remembered");
    assert_int_equal(by_memory, 1);
    struct rd_speed_memory m;
    assert_int_equal(rd_speed_memory_load(&m, memory, NULL), RD_OK);
    assert_int_equal(m.n, 1); /* no store series read: nothing remembered of it */
    assert_true(m.e[0].best_ms == 0.6 && m.e[0].misses == 1);
    assert_string_equal(m.e[0].key.probe, "script");
    rd_speed_memory_release(&m);
    unsetenv("RUNDOWN_SPEED_MEMORY");
    rd_arena_release(&arena);
    remove_dir(dir);
}

/* A run whose store-reload chain went from 0.3 to 0.6 ms on CPU 1 while
 * the multiply-add chain held (the spell of 2026-12-05, docs/methods.md
 * 6d) is contended by the speed: machine_speed_pct 100,
 * machine_speed_store_pct 0.3 / 0.6 = 50, info.machine_speed_slow
 * "store"; the collection counts it as slow by the store series. A
 * reading without the series (no ';') judges nothing by it. */
static void a_slow_store_series_makes_a_run_contended(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    o.mode = RD_CONTENTION_WARN;
    struct rd_guard g;
    rd_guard_init(&g, &o, dir);
    const struct rd_speed_reading r[] = {with_store(1.0, 0.3, 0.3), with_store(1.0, 0.3, 0.6),
                                         reading(1.0, 1.0)};
    struct fixed_probe p = {r, 3, 0, 0};
    rd_guard_on_probe(&g, fixed_probe, &p);
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record a, b, c;
    rd_record_init(&a, &arena);
    rd_record_init(&b, &arena);
    rd_record_init(&c, &arena);
    double v = NAN;

    rd_guard_run_begin(&g);
    assert_int_equal(rd_guard_run_end(&g, &a), RD_OK);
    assert_false(a.contended);
    assert_true(rd_record_metric(&a, "machine_speed_store_pct", &v) && v == 100);
    assert_null(rd_record_info(&a, "machine_speed_slow"));

    g.speed_t -= RD_SPEED_EVERY_S;
    rd_guard_run_begin(&g);
    assert_int_equal(rd_guard_run_end(&g, &b), RD_OK);
    assert_true(b.contended);
    assert_string_equal(rd_record_info(&b, "contended_by"), "speed");
    assert_string_equal(rd_record_info(&b, "machine_speed_slow"), "store");
    assert_true(rd_record_metric(&b, "machine_speed_pct", &v) && v == 100);
    assert_true(rd_record_metric(&b, "machine_speed_store_pct", &v) && v == 50);
    assert_int_equal(g.slow, 1);
    assert_int_equal(g.slow_store, 1);
    assert_true(g.store_min == 50 && g.speed_min == 100);

    g.speed_t -= RD_SPEED_EVERY_S;
    rd_guard_run_begin(&g);            /* no store series: nothing judged by it */
    g.speed_t -= RD_SPEED_EVERY_S;
    assert_int_equal(rd_guard_run_end(&g, &c), RD_OK);
    assert_false(c.contended);
    assert_false(rd_record_metric(&c, "machine_speed_store_pct", &v));

    rd_arena_release(&arena);
    remove_dir(dir);
}

/* check judges the store-reload chain by what two probes in a row both
 * reached: one probe of CPU 1 at 0.6 ms between probes at 0.3 (a blip of
 * a few milliseconds, as the quiet machine showed in 3 of 12 windows) is
 * quiet, its sustained worst 0.3 ms; two in a row are busy at 0.3 / 0.6 =
 * 50 %. The multiply-add chain keeps the single-probe rule: one probe at
 * 2 ms against 1 is busy (50 %). Probes at 0, 0.25, 0.5 (and 0.75) s of
 * a 0.8 s window; the script's last line repeats. */
static void check_store_series_needs_two_probes(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    char script[300];
    snprintf(script, sizeof script, "%s/speed", dir);
    setenv("RUNDOWN_SPEED_PROBE", script, 1);
    struct rd_machine_check c;

    write_file(script, "1 1 ; 0.3 0.3\n1 1 ; 0.3 0.6\n1 1 ; 0.3 0.3\n");
    rd_machine_check_run(&c, dir, dir, 0.8, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.store.probes >= 3);
    assert_true(c.quiet);
    assert_true(c.store.min_pct == 100);
    const struct rd_finding *f = finding(&c, "speedstore");
    assert_true(f && f->level == RD_FINDING_OK);
    cJSON *j = rd_machine_check_json(&c);
    const cJSON *one = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "speed_cpus"), 1);
    assert_true(cJSON_GetObjectItem(one, "store_worst_ms")->valuedouble == 0.3);
    cJSON_Delete(j);

    write_file(script, "1 1 ; 0.3 0.3\n1 1 ; 0.3 0.6\n1 1 ; 0.3 0.6\n1 1 ; 0.3 0.3\n");
    rd_machine_check_run(&c, dir, dir, 0.8, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_false(c.quiet);
    assert_true(c.store.min_pct == 50);
    assert_int_equal(c.store.slow_cpu, 1);

    write_file(script, "1 1 ; 0.3 0.3\n1 2 ; 0.3 0.3\n1 1 ; 0.3 0.3\n");
    rd_machine_check_run(&c, dir, dir, 0.8, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_false(c.quiet);
    assert_true(c.speed_min_pct == 50 && c.store.min_pct == 100);
    unsetenv("RUNDOWN_SPEED_PROBE");
    remove_dir(dir);
}

/* check: the multiply-add chain steady and the store-reload chain of CPU
 * 1 at 0.6 ms against 0.3 is busy (50 %), by a finding of its own that
 * names the CPU and the series, while the speed finding stays ok; the
 * JSON has the store keys and each CPU's figures. Against a remembered
 * best: a window whose every store reading is 0.45 ms (both CPUs) after
 * one of 0.3 is busy at 0.3 / 0.45 = 66.7 %, the store series remembered
 * under its own key. */
static void check_judges_the_store_series(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    char script[300], memory[300];
    snprintf(script, sizeof script, "%s/speed", dir);
    snprintf(memory, sizeof memory, "%s/speed.json", dir);
    setenv("RUNDOWN_SPEED_PROBE", script, 1);
    struct rd_machine_check c;

    write_file(script, "1 1 ; 0.3 0.3\n1 1 ; 0.3 0.6\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_false(c.quiet);
    assert_true(c.speed_min_pct == 100);
    assert_true(c.store.probes >= 2 && c.store.min_pct == 50);
    assert_int_equal(c.store.slow_cpu, 1);
    const struct rd_finding *f = finding(&c, "speed");
    assert_true(f && f->level == RD_FINDING_OK);
    f = finding(&c, "speedstore");
    assert_non_null(f);
    assert_int_equal(f->level, RD_FINDING_BUSY);
    assert_non_null(strstr(f->text, "CPU 1 ran the store-reload chain at 50 % of its best"));
    assert_non_null(strstr(f->advice, "store-to-load path"));
    cJSON *j = rd_machine_check_json(&c);
    assert_true(cJSON_GetObjectItem(j, "speed_store_min_pct")->valuedouble == 50);
    assert_true(cJSON_GetObjectItem(j, "speed_store_slowest_cpu")->valuedouble == 1);
    assert_string_equal(cJSON_GetObjectItem(j, "speed_store_reference")->valuestring, "window");
    assert_true(cJSON_GetObjectItem(j, "speed_min_pct")->valuedouble == 100);
    const cJSON *cpus = cJSON_GetObjectItem(j, "speed_cpus");
    assert_int_equal(cJSON_GetArraySize(cpus), 2);
    const cJSON *one = cJSON_GetArrayItem(cpus, 1);
    assert_true(cJSON_GetObjectItem(one, "cpu")->valuedouble == 1);
    assert_true(cJSON_GetObjectItem(one, "pct")->valuedouble == 100);
    assert_true(cJSON_GetObjectItem(one, "store_best_ms")->valuedouble == 0.3);
    assert_true(cJSON_GetObjectItem(one, "store_worst_ms")->valuedouble == 0.6);
    assert_true(cJSON_GetObjectItem(one, "store_pct")->valuedouble == 50);
    cJSON_Delete(j);

    /* The same lines without ';' (an old script): quiet, no store finding. */
    write_file(script, "1 1\n1 1\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet);
    assert_int_equal(c.store.probes, 0);
    assert_null(finding(&c, "speedstore"));

    write_file(script, "1 1 ; 0.3 0.3\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet);
    write_file(script, "1 1 ; 0.45 0.45\n");
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, NULL, RD_CHECK_MEMORY_NOTE);
    assert_true(c.quiet); /* the window alone agrees with itself */
    rd_machine_check_run(&c, dir, dir, 0.6, 25, 85, 67, memory, RD_CHECK_MEMORY_NOTE);
    assert_false(c.quiet);
    assert_true(c.speed_min_pct == 100 && !c.speed_remembered);
    assert_true(c.store.remembered && c.store.remembered_ms == 0.3);
    assert_true(fabs(c.store.min_pct - 100 * 0.3 / 0.45) < 1e-9);
    f = finding(&c, "speedstore");
    assert_true(f && f->level == RD_FINDING_BUSY);
    assert_non_null(strstr(f->text, "against the best remembered from earlier checks (0.3 ms; "
                                    "this window's best is 67 % of it)"));
    struct rd_speed_memory m;
    assert_int_equal(rd_speed_memory_load(&m, memory, NULL), RD_OK);
    assert_int_equal(m.n, 2);
    struct rd_speed_key k;
    rd_speed_key_make(&k, RD_SPEED_SCRIPT_STORE_ID, dir, dir, -1, 0);
    assert_true(rd_speed_memory_find(&m, &k) && rd_speed_memory_find(&m, &k)->best_ms == 0.3);
    rd_speed_key_make(&k, "script", dir, dir, -1, 0);
    assert_true(rd_speed_memory_find(&m, &k) && rd_speed_memory_find(&m, &k)->best_ms == 1);
    rd_speed_memory_release(&m);
    unsetenv("RUNDOWN_SPEED_PROBE");
    remove_dir(dir);
}

/* The guard against a remembered store best: a collection at 0.3 ms,
 * then one at 0.45 ms on both CPUs (the chain steady) has its run
 * contended at 0.3 / 0.45 = 66.7 % with info.machine_speed_store_reference
 * "remembered" and no machine_speed_reference; both series remembered. */
static void a_collection_slow_by_the_remembered_store_best(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-speed-proc-XXXXXX";
    quiet_proc(dir);
    char memory[300];
    snprintf(memory, sizeof memory, "%s/speed.json", dir);
    setenv("RUNDOWN_SPEED_MEMORY", memory, 1);
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record rec;
    long by_memory;
    double v = NAN;
    collect_one(dir, with_store(1.0, 0.3, 0.3), &arena, &rec, &by_memory);
    assert_false(rec.contended);
    assert_null(rd_record_info(&rec, "machine_speed_store_reference"));
    collect_one(dir, with_store(1.0, 0.45, 0.45), &arena, &rec, &by_memory);
    assert_true(rec.contended);
    assert_true(rd_record_metric(&rec, "machine_speed_store_pct", &v));
    assert_true(fabs(v - 100 * 0.3 / 0.45) < 1e-9);
    assert_null(rd_record_info(&rec, "machine_speed_reference"));
    assert_string_equal(rd_record_info(&rec, "machine_speed_store_reference"), "remembered");
    assert_string_equal(rd_record_info(&rec, "machine_speed_slow"), "store");
    assert_int_equal(by_memory, 1);
    struct rd_speed_memory m;
    assert_int_equal(rd_speed_memory_load(&m, memory, NULL), RD_OK);
    assert_int_equal(m.n, 2);
    rd_speed_memory_release(&m);
    unsetenv("RUNDOWN_SPEED_MEMORY");
    rd_arena_release(&arena);
    remove_dir(dir);
}

static void option(void **state)
{
    (void)state;
    struct rd_diag d;
    double v;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_contention_parse_min_speed("90", "--min-speed", &v, &d), RD_OK);
    assert_true(v == 90);
    assert_int_equal(rd_contention_parse_min_speed("120", "--min-speed", &v, &d), RD_ERR_USAGE);
    assert_non_null(strstr(d.msg, "--min-speed"));
    assert_int_equal(rd_contention_parse_min_wakeup("50", "--min-wakeup", &v, &d), RD_OK);
    assert_true(v == 50);
    assert_int_equal(rd_contention_parse_min_wakeup("x", "--min-wakeup", &v, &d), RD_ERR_USAGE);
    assert_non_null(strstr(d.msg, "--min-wakeup: expected a percentage of the fastest cross-CPU"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(speed_against_the_best),
        cmocka_unit_test(speed_against_the_fastest_alike_cpu),
        cmocka_unit_test(store_series_against_its_own_best),
        cmocka_unit_test(cpus_alike_by_sysfs),
        cmocka_unit_test(wakeup_against_the_best),
        cmocka_unit_test(real_wakeup_probe),
        cmocka_unit_test(real_probe_reads_every_allowed_cpu),
        cmocka_unit_test(script_source),
        cmocka_unit_test(a_slow_cpu_makes_a_run_contended),
        cmocka_unit_test(a_cpu_slow_from_the_start_makes_a_run_contended),
        cmocka_unit_test(waits_for_speed),
        cmocka_unit_test(a_slow_wakeup_makes_a_run_contended),
        cmocka_unit_test(waits_for_the_wakeup),
        cmocka_unit_test(check_judges_the_speed),
        cmocka_unit_test(check_judges_against_the_remembered_best),
        cmocka_unit_test(a_collection_slow_against_the_remembered_best),
        cmocka_unit_test(a_slow_store_series_makes_a_run_contended),
        cmocka_unit_test(waits_for_the_store_series),
        cmocka_unit_test(check_judges_the_store_series),
        cmocka_unit_test(check_store_series_needs_two_probes),
        cmocka_unit_test(a_collection_slow_by_the_remembered_store_best),
        cmocka_unit_test(option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
