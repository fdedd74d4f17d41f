/*
 * speedprobe.c - the CPU speed probe (see speedprobe.h).
 */
#include "speedprobe.h"

#include <math.h>
#include <stdbool.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wakeprobe.h"
#include "rundown/fsutil.h"

/* About 1.1 ms of a 2-3 GHz core per repetition: long enough that the
 * clock's resolution and one timer interrupt are small beside it, short
 * enough that the probe stays cheap (below). */
#define WORK_STEPS 1000000u
/* The store series: 4 x 10^6 steps, about 1.1 ms per repetition on the
 * study's quiet AMD EPYC vCPUs (10^6 steps read 0.27-0.28 ms there,
 * docs/methods.md 6d). */
#define STORE_STEPS 4000000u
#define REPETITIONS 3
/* A probe's cost: per CPU three repetitions of each series, about 7 ms of
 * CPU, all CPUs at once, then the wake-up's 200 round trips (about 4 ms
 * on one pair of CPUs): about 11 ms of wall time, at most one every
 * RD_SPEED_EVERY_S (0.5 s) of a collection. */

/* Bump the version when the work or its timing changes: readings of
 * another probe are not comparable. v2: the store series runs in the same
 * threads, between the multiply-add repetitions, so v1's multiply-add
 * bests (timed alone) are not this probe's. */
const char *rd_speed_probe_id(void)
{
#ifdef __OPTIMIZE__
    return "mmix-lcg/1000000x3/v2/opt";
#else
    return "mmix-lcg/1000000x3/v2/O0";
#endif
}

const char *rd_speed_store_probe_id(void)
{
#ifdef __OPTIMIZE__
    return "store-reload/4000000x3/v2/opt";
#else
    return "store-reload/4000000x3/v2/O0";
#endif
}

void rd_speed_cpu_model(const char *proc_root, char *out, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/cpuinfo", proc_root ? proc_root : "/proc");
    out[0] = '\0';
    if (!rd_file_field(path, "model name", out, size) &&
        !rd_file_field(path, "Hardware", out, size))
        rd_file_field(path, "CPU part", out, size);
}

/* The threads start their work together, when the main thread says go. */
struct start_gate {
    pthread_mutex_t lock;
    pthread_cond_t opened;
    bool open;
};

struct probe_thread {
    pthread_t id;
    struct start_gate *gate;
    double ms, store_ms;
    uint64_t sink;
};

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Knuth's MMIX LCG: each step needs the last, so the core cannot overlap
 * them and the time is the multiply-add latency times the steps. */
static uint64_t work(uint64_t x)
{
    for (unsigned i = 0; i < WORK_STEPS; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

/* The store series: each step loads x, adds and stores it back, and the
 * next step's load must wait for that store (store-to-load forwarding, or
 * a core's memory renaming): the core's store-to-load path times the
 * steps. 'volatile' is what keeps it so under -O2: without it the
 * compiler keeps x in a register (or sums the loop in closed form), and
 * the chain is the add's latency, which the multiply-add chain already
 * measures. With it, gcc 12 -O2 emits per step a load of x from the
 * stack, an add and a store back (`mov rdx,[rsp-8]; add rdx,rax;
 * mov [rsp-8],rdx`), and clang 14 -O2 unrolls five steps, each still a
 * load and a store (checked with -S). */
static uint64_t store_work(uint64_t seed)
{
    volatile uint64_t x = seed;
    for (unsigned i = 0; i < STORE_STEPS; i++)
        x += i;
    return x;
}

static void *probe_main(void *arg)
{
    struct probe_thread *t = arg;
    pthread_mutex_lock(&t->gate->lock);
    while (!t->gate->open)
        pthread_cond_wait(&t->gate->opened, &t->gate->lock);
    pthread_mutex_unlock(&t->gate->lock);
    double best = INFINITY, store_best = INFINITY;
    uint64_t x = (uint64_t)(uintptr_t)t;
    /* The series alternate, so both see the CPU at the same moment. */
    for (int i = 0; i < REPETITIONS; i++) {
        double t0 = thread_cpu_ms();
        x = work(x);
        double t1 = thread_cpu_ms();
        x = store_work(x);
        double t2 = thread_cpu_ms();
        best = fmin(best, t1 - t0);
        store_best = fmin(store_best, t2 - t1);
    }
    t->ms = best;
    t->store_ms = store_best;
    t->sink = x; /* the result is used, so the loop is not optimised away */
    return NULL;
}

rd_status rd_speed_probe(struct rd_speed_reading *out, struct rd_diag *d)
{
    memset(out, 0, sizeof *out);
    out->wake_us = NAN;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "speed probe: cannot read the CPU affinity");
    int cpus[RD_SPEED_CPUS_MAX], n = 0;
    for (int c = 0; c < RD_SPEED_CPUS_MAX && c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &allowed))
            cpus[n++] = c;
    struct probe_thread t[RD_SPEED_CPUS_MAX];
    struct start_gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};
    bool created[RD_SPEED_CPUS_MAX] = {false};
    for (int i = 0; i < n; i++) {
        pthread_attr_t attr;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus[i], &one);
        t[i] = (struct probe_thread){.gate = &gate, .ms = NAN, .store_ms = NAN};
        if (pthread_attr_init(&attr) != 0)
            continue;
        if (pthread_attr_setaffinity_np(&attr, sizeof one, &one) == 0 &&
            pthread_create(&t[i].id, &attr, probe_main, &t[i]) == 0)
            created[i] = true;
        pthread_attr_destroy(&attr);
    }
    pthread_mutex_lock(&gate.lock);
    gate.open = true;
    pthread_cond_broadcast(&gate.opened);
    pthread_mutex_unlock(&gate.lock);
    for (int i = 0; i < n; i++) {
        if (!created[i])
            continue;
        pthread_join(t[i].id, NULL);
        out->cpu[out->ncpu] = cpus[i];
        out->store_ms[out->ncpu] = t[i].store_ms;
        out->ms[out->ncpu++] = t[i].ms;
    }
    if (out->ncpu == 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "speed probe: no thread could run");
    if (n >= 2)
        (void)rd_wake_probe(cpus[0], cpus[1], RD_WAKE_TRIPS, &out->wake_us, NULL);
    return RD_OK;
}

/* One series' figure (rd_speed_pct), ms[] of the reading's CPUs against
 * best_ms[] by CPU number. */
static double series_pct(const struct rd_speed_reading *r, const double *ms,
                         double best_ms[RD_SPEED_CPUS_MAX], bool alike, int *slowest_cpu)
{
    double fastest_best = INFINITY;
    for (int i = 0; i < r->ncpu; i++) {
        int c = r->cpu[i];
        if (ms[i] > 0 && (!(best_ms[c] > 0) || ms[i] < best_ms[c]))
            best_ms[c] = ms[i];
    }
    for (int c = 0; alike && c < RD_SPEED_CPUS_MAX; c++)
        if (best_ms[c] > 0)
            fastest_best = fmin(fastest_best, best_ms[c]);
    double slowest = INFINITY;
    int at = -1;
    for (int i = 0; i < r->ncpu; i++) {
        int c = r->cpu[i];
        double pct = ms[i] > 0 ? 100.0 * (alike ? fastest_best : best_ms[c]) / ms[i] : NAN;
        if (pct < slowest) {
            slowest = pct;
            at = c;
        }
    }
    if (slowest_cpu)
        *slowest_cpu = at;
    return isfinite(slowest) ? slowest : NAN;
}

double rd_speed_pct(const struct rd_speed_reading *r, double best_ms[RD_SPEED_CPUS_MAX],
                    bool alike)
{
    return series_pct(r, r->ms, best_ms, alike, NULL);
}

double rd_speed_store_pct(const struct rd_speed_reading *r,
                          double store_best_ms[RD_SPEED_CPUS_MAX], bool alike, int *slowest_cpu)
{
    return series_pct(r, r->store_ms, store_best_ms, alike, slowest_cpu);
}

/* A number from one sysfs file; NaN when it cannot be read. */
static double sysfs_number(const char *sys, int cpu, const char *rel)
{
    char path[256], line[64], *end;
    snprintf(path, sizeof path, "devices/system/cpu/cpu%d/%s", cpu, rel);
    if (!rd_file_line(sys, path, line, sizeof line))
        return NAN;
    double v = strtod(line, &end);
    return end != line ? v : NAN;
}

/* Whether one figure (capacity, maximum clock) of the reading's CPUs stays
 * within RD_SPEED_ALIKE_PCT of its largest; CPUs that do not give it are
 * not compared. */
static bool figure_alike(const char *sys, const struct rd_speed_reading *r, const char *rel)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < r->ncpu; i++) {
        double v = sysfs_number(sys, r->cpu[i], rel);
        if (v > 0) {
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
    }
    return !(hi > 0) || 100.0 * (hi - lo) / hi <= RD_SPEED_ALIKE_PCT;
}

bool rd_speed_cpus_alike(const char *sys_root, const struct rd_speed_reading *r)
{
    const char *sys = sys_root ? sys_root : "/sys";
    char path[512];
    snprintf(path, sizeof path, "%s/devices/cpu_atom", sys);
    if (access(path, F_OK) == 0)
        return false;
    return figure_alike(sys, r, "cpu_capacity") &&
           figure_alike(sys, r, "cpufreq/cpuinfo_max_freq");
}

void rd_speed_source_init(struct rd_speed_source *s)
{
    const char *env = getenv("RUNDOWN_SPEED_PROBE");
    *s = (struct rd_speed_source){.off = env && strcmp(env, "off") == 0,
                                  .script = env && *env && strcmp(env, "off") ? env : NULL};
}

/* A test's machine: the script's next line, or its last. */
static rd_status read_script(struct rd_speed_source *s, struct rd_speed_reading *out,
                             struct rd_diag *d)
{
    FILE *f = fopen(s->script, "re");
    if (!f)
        return rd_diag_set(d, RD_ERR_IO, s->script, 0, 0, "cannot read the speed readings");
    char line[1024], last[1024] = "";
    long i = 0;
    while (i <= s->next && fgets(line, sizeof line, f)) {
        memcpy(last, line, sizeof last);
        i++;
    }
    fclose(f);
    s->next++;
    char *p = last, *end;
    for (double v; out->ncpu < RD_SPEED_CPUS_MAX && (v = strtod(p, &end), end != p); p = end) {
        out->cpu[out->ncpu] = out->ncpu;
        out->store_ms[out->ncpu] = NAN;
        out->ms[out->ncpu++] = v;
    }
    p += strspn(p, " \t");
    if (out->ncpu && *p == ';') {
        /* The store series: a figure a CPU, in the same order; missing
         * CPUs are not read (NaN), as a line without ';' reads none. */
        char *q = p + 1;
        int n = 0;
        for (double v; (v = strtod(q, &end), end != q); q = end) {
            if (n == out->ncpu)
                return rd_diag_set(d, RD_ERR_PARSE, s->script, (unsigned)i, 0,
                                   "expected at most %d store-reload figures after ';', one "
                                   "per CPU", out->ncpu);
            out->store_ms[n++] = v;
        }
        if (n == 0)
            return rd_diag_set(d, RD_ERR_PARSE, s->script, (unsigned)i, 0,
                               "expected the store-reload chain's CPU milliseconds after ';'");
        p = q + strspn(q, " \t");
    }
    if (out->ncpu && *p == '|') {
        out->wake_us = strtod(p + 1, &end);
        if (end == p + 1)
            return rd_diag_set(d, RD_ERR_PARSE, s->script, (unsigned)i, 0,
                               "expected the wake-up round trip in microseconds after '|'");
    }
    return out->ncpu ? RD_OK
                     : rd_diag_set(d, RD_ERR_PARSE, s->script, (unsigned)i, 0,
                                   "expected CPU milliseconds, one figure per CPU");
}

rd_status rd_speed_source_read(struct rd_speed_source *s, struct rd_speed_reading *out,
                               struct rd_diag *d)
{
    memset(out, 0, sizeof *out);
    out->wake_us = NAN;
    if (s->off)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "speed probe off");
    return s->script ? read_script(s, out, d) : rd_speed_probe(out, d);
}
