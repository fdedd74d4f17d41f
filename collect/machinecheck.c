/*
 * machinecheck.c - the pre-flight check of `rundown-collect check` and of
 * the environment record (see machinecheck.h). /proc and /sys are read by
 * hand: no Debian library reports these.
 */
#include "machinecheck.h"

#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "machineload.h"
#include "speedmemory.h"
#include "speedprobe.h"
#include "rundown/fsutil.h"
#include "rundown/json.h"
#include "rundown/loadjudge.h"

const char *rd_machine_container_hint(void)
{
    struct stat st;
    if (getenv("KUBERNETES_SERVICE_HOST"))
        return "kubernetes";
    if (stat("/.dockerenv", &st) == 0)
        return "docker";
    if (stat("/run/.containerenv", &st) == 0)
        return "podman";
    char buf[4096];
    FILE *f = fopen("/proc/1/environ", "r");
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t i = 0; i + 10 <= n; i++)
            if (memcmp(buf + i, "container=", 10) == 0 && (i == 0 || buf[i - 1] == '\0'))
                return strncmp(buf + i + 10, "lxc", 3) == 0 ? "lxc" : "container";
    }
    f = fopen("/proc/1/cgroup", "r");
    if (f) {
        const char *hint = NULL;
        while (!hint && fgets(buf, sizeof buf, f))
            hint = strstr(buf, "kubepods") ? "kubernetes" : strstr(buf, "docker") ? "docker"
                 : strstr(buf, "lxc") ? "lxc" : NULL;
        fclose(f);
        if (hint)
            return hint;
    }
    return NULL;
}

/* A "Name: value kB" field of ROOT/meminfo, in KiB; NaN when absent. */
static double meminfo(const char *proc, const char *name)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/meminfo", proc);
    FILE *f = fopen(path, "re");
    double v = NAN;
    size_t n = strlen(name);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, name, n) == 0 && line[n] == ':')
            v = strtod(line + n + 1, NULL);
    if (f)
        fclose(f);
    return v;
}

static void add(struct rd_machine_check *c, const char *what, enum rd_finding_level level,
                const char *advice, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void add(struct rd_machine_check *c, const char *what, enum rd_finding_level level,
                const char *advice, const char *fmt, ...)
{
    if (c->nf == RD_CHECK_MAX_FINDINGS)
        return;
    struct rd_finding *f = &c->f[c->nf++];
    snprintf(f->what, sizeof f->what, "%s", what);
    f->level = level;
    snprintf(f->advice, sizeof f->advice, "%s", advice ? advice : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Probes the CPUs' speed every CHECK_PROBE_EVERY_S over the window (its
 * CPU is rundown's own, which the foreign load leaves out), then judges
 * how far the slowest reading fell below the fastest: the host's busy
 * spells last seconds, so a window of a few seconds sees them. A spell
 * that lasts the whole window shows only against another CPU: when the
 * CPUs are of one kind, the best is the fastest CPU's (on 2026-12-04 at
 * 20:36 UTC vCPU 1 ran a fixed loop in 0.87-0.90 s and vCPU 0 in 0.58 s
 * for over a minute, and check read 96 % against each CPU's own best). */
#define CHECK_PROBE_EVERY_S 0.25

/* One series' fastest and slowest time of each CPU over the window: all
 * that judging its slowest reading against its fastest takes.
 *
 * The store-reload chain is judged by what two probes in a row (0.25 s
 * apart) both reached, 'sustained': on the quiet machine of 2026-12-05
 * (03:10-03:20 UTC, a 10^6-step volatile add at its quiet 0.27 ms on both
 * CPUs before and after) it read a single probe at 45-60 % of its best in
 * 3 of 12 five-second windows, spells of a few milliseconds (three 1.1 ms
 * repetitions all slow) that leave a measurement alone, while the spell
 * the series is for held for minutes (docs/methods.md 6d). The
 * multiply-add chain has no such blips (its slowest single probe 87-98 %
 * in the same windows) and keeps its single-probe rule. */
struct series_window {
    double fastest[RD_SPEED_CPUS_MAX], slowest[RD_SPEED_CPUS_MAX];
    double last[RD_SPEED_CPUS_MAX]; /* the previous probe's time, for 'sustained' */
    bool sustained;              /* slowest: the faster of two probes in a row */
    int probes, fast;            /* readings that had it; its fastest CPU, -1: none */
};

static void window_note(struct series_window *w, const struct rd_speed_reading *r,
                        const double *ms)
{
    bool read = false;
    for (int i = 0; i < r->ncpu; i++) {
        int cpu = r->cpu[i];
        if (!(ms[i] > 0)) {
            w->last[cpu] = 0;
            continue;
        }
        read = true;
        w->fastest[cpu] = w->fastest[cpu] > 0 ? fmin(w->fastest[cpu], ms[i]) : ms[i];
        /* Sustained: a probe counts with the one before it; a window of one
         * probe of a CPU judges that probe. */
        double held = !w->sustained ? ms[i] : w->last[cpu] > 0 ? fmin(w->last[cpu], ms[i]) : 0;
        w->slowest[cpu] = fmax(w->slowest[cpu], held > 0 ? held : w->fastest[cpu]);
        w->last[cpu] = ms[i];
    }
    w->probes += read;
}

static void window_fastest(struct series_window *w)
{
    w->fast = -1;
    for (int cpu = 0; cpu < RD_SPEED_CPUS_MAX; cpu++)
        if (w->slowest[cpu] > 0 && (w->fast < 0 || w->fastest[cpu] < w->fastest[w->fast]))
            w->fast = cpu;
}

/* The remembered best of each CPU's kind into rem[] and rem_store[] (NaN:
 * none), after noting this window's bests of both series in the memory
 * and saving it (speedmemory.h). A memory that cannot be read or written
 * is a note, never a failure. */
static void recall_speed(struct rd_machine_check *c, const struct rd_speed_source *src,
                         const char *proc, const char *sys, const char *path,
                         enum rd_check_memory use,
                         const struct series_window *mul, const struct series_window *store,
                         double rem[RD_SPEED_CPUS_MAX], double rem_store[RD_SPEED_CPUS_MAX])
{
    for (int cpu = 0; cpu < RD_SPEED_CPUS_MAX; cpu++)
        rem[cpu] = rem_store[cpu] = NAN;
    struct rd_speed_memory m;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (!path || rd_speed_memory_load(&m, path, &d)) {
        if (path)
            snprintf(c->speed_memory_note, sizeof c->speed_memory_note, "%.300s", d.msg);
        return;
    }
    snprintf(c->speed_memory_note, sizeof c->speed_memory_note, "%s", m.note);
    bool forget = use == RD_CHECK_MEMORY_FORGET;
    if (forget) {
        rd_speed_memory_forget(&m);
        c->speed_forgot = true;
    }
    if (mul->fast < 0 && store->fast < 0) {
        /* Nothing read: --forget-speed is done all the same. */
        if (forget && rd_speed_memory_save(&m, &d))
            snprintf(c->speed_memory_note, sizeof c->speed_memory_note, "%.300s: not saved",
                     d.msg);
        rd_speed_memory_release(&m);
        return;
    }
    /* A test's readings are remembered apart from the real probe's, and
     * each series apart from the other. */
    const char *mul_id = src->script ? "script" : rd_speed_probe_id();
    const char *store_id = src->script ? RD_SPEED_SCRIPT_STORE_ID : rd_speed_store_probe_id();
    if (use == RD_CHECK_MEMORY_JUDGE) {
        /* A collection's pre-flight: its guard notes the collection once,
         * at its end; noting here too made one collection two sessions,
         * two of the misses that replace a best (docs/methods.md 6d). */
        rd_speed_memory_recall_session(&m, mul_id, proc, sys, c->speed_alike, mul->fastest, rem);
        rd_speed_memory_recall_session(&m, store_id, proc, sys, c->speed_alike, store->fastest,
                                       rem_store);
        rd_speed_memory_release(&m);
        return;
    }
    long long now = (long long)time(NULL);
    rd_speed_memory_note_session(&m, mul_id, proc, sys, c->speed_alike, mul->fastest,
                                 c->min_speed_pct, now, rem, &c->speed_replaced_ms);
    rd_speed_memory_note_session(&m, store_id, proc, sys, c->speed_alike, store->fastest,
                                 c->min_speed_pct, now, rem_store, &c->store.replaced_ms);
    if (rd_speed_memory_save(&m, &d)) {
        size_t o = strlen(c->speed_memory_note);
        snprintf(c->speed_memory_note + o, sizeof c->speed_memory_note - o, "%s%.300s: not saved",
                 o ? "; " : "", d.msg);
    }
    rd_speed_memory_release(&m);
}

/* One series' verdict: each CPU's slowest reading against the window's
 * best (the fastest CPU's when the CPUs are alike) or the remembered one
 * when that is faster; the slowest of them decides. pct[cpu] gets each
 * CPU's figure (NaN: not read). */
static void judge_series(const struct series_window *w, const double rem[RD_SPEED_CPUS_MAX],
                         bool alike, struct rd_check_series *v, double pct[RD_SPEED_CPUS_MAX])
{
    v->probes = w->probes;
    for (int cpu = 0; cpu < RD_SPEED_CPUS_MAX; cpu++) {
        pct[cpu] = NAN;
        if (!(w->slowest[cpu] > 0))
            continue;
        double own = 100 * w->fastest[cpu] / w->slowest[cpu];
        v->recalled = v->recalled || !isnan(rem[cpu]);
        double window_best = w->fastest[alike ? w->fast : cpu];
        pct[cpu] = 100 * fmin(window_best, rem[cpu]) / w->slowest[cpu]; /* fmin skips a NaN */
        v->own_min_pct = isnan(v->own_min_pct) ? own : fmin(v->own_min_pct, own);
        if (isnan(v->min_pct) || pct[cpu] < v->min_pct) {
            v->min_pct = pct[cpu];
            v->slow_cpu = cpu;
            v->fast_cpu = alike ? w->fast : cpu;
            v->remembered = rem[cpu] < window_best;
            v->remembered_ms = rem[cpu];
            v->vs_remembered_pct = 100 * rem[cpu] / window_best;
        }
    }
}

static void probe_speed_over(struct rd_machine_check *c, const char *proc, const char *sys,
                             double window_s, const char *memory, enum rd_check_memory use)
{
    struct rd_speed_source src;
    rd_speed_source_init(&src);
    struct series_window mul = {0}, store = {.sustained = true};
    double until = now_s() + window_s;
    int n = 0;
    for (double next = now_s(); now_s() < until; usleep(20000)) {
        struct rd_speed_reading r;
        if (src.off || now_s() < next)
            continue;
        next += CHECK_PROBE_EVERY_S;
        if (rd_speed_source_read(&src, &r, NULL) != RD_OK)
            continue;
        if (n++ == 0)
            c->speed_alike = rd_speed_cpus_alike(sys, &r);
        if (r.wake_us > 0) {
            c->wake_probes++;
            c->wake_best_us = isnan(c->wake_best_us) ? r.wake_us : fmin(c->wake_best_us, r.wake_us);
            c->wake_worst_us = isnan(c->wake_worst_us) ? r.wake_us
                                                       : fmax(c->wake_worst_us, r.wake_us);
        }
        window_note(&mul, &r, r.ms);
        window_note(&store, &r, r.store_ms);
    }
    c->speed_probes = n;
    window_fastest(&mul);
    window_fastest(&store);
    double rem[RD_SPEED_CPUS_MAX], rem_store[RD_SPEED_CPUS_MAX];
    recall_speed(c, &src, proc, sys, memory, use, &mul, &store, rem, rem_store);
    struct rd_check_series v = {.min_pct = NAN, .own_min_pct = NAN, .remembered_ms = NAN,
                                .vs_remembered_pct = NAN};
    double pct[RD_SPEED_CPUS_MAX], store_pct[RD_SPEED_CPUS_MAX];
    judge_series(&mul, rem, c->speed_alike, &v, pct);
    c->speed_min_pct = v.min_pct;
    c->speed_own_min_pct = v.own_min_pct;
    c->speed_slow_cpu = v.slow_cpu;
    c->speed_fast_cpu = v.fast_cpu;
    c->speed_remembered = v.remembered;
    c->speed_remembered_ms = v.remembered_ms;
    c->speed_vs_remembered_pct = v.vs_remembered_pct;
    c->speed_recalled = v.recalled;
    judge_series(&store, rem_store, c->speed_alike, &c->store, store_pct);
    for (int cpu = 0; cpu < RD_SPEED_CPUS_MAX; cpu++) {
        if (!(mul.slowest[cpu] > 0) && !(store.slowest[cpu] > 0))
            continue;
        c->cpus[c->ncpus_read++] = (struct rd_check_cpu){
            .cpu = cpu,
            .best_ms = mul.slowest[cpu] > 0 ? mul.fastest[cpu] : NAN,
            .worst_ms = mul.slowest[cpu] > 0 ? mul.slowest[cpu] : NAN,
            .pct = pct[cpu],
            .store_best_ms = store.slowest[cpu] > 0 ? store.fastest[cpu] : NAN,
            .store_worst_ms = store.slowest[cpu] > 0 ? store.slowest[cpu] : NAN,
            .store_pct = store_pct[cpu]};
    }
    if (c->wake_probes > 0)
        c->wake_min_pct = 100 * c->wake_best_us / c->wake_worst_us;
}

/* How many points below its own CPU's figure the slowest reading must be
 * for check to say another CPU's best is what it fell short of. */
#define SPEED_NAMED_GAP_PCT 5.0

/* The multiply-add chain's verdict, from the check's fields. */
static struct rd_check_series mul_series(const struct rd_machine_check *c)
{
    return (struct rd_check_series){
        .probes = c->speed_probes, .min_pct = c->speed_min_pct, .slow_cpu = c->speed_slow_cpu,
        .fast_cpu = c->speed_fast_cpu, .own_min_pct = c->speed_own_min_pct,
        .remembered = c->speed_remembered, .remembered_ms = c->speed_remembered_ms,
        .vs_remembered_pct = c->speed_vs_remembered_pct, .replaced_ms = c->speed_replaced_ms,
        .recalled = c->speed_recalled};
}

/* What a series' slowest reading fell short of, when it is not simply its
 * own CPU's best: a CPU slow all window, which no reading of its own
 * shows, or every CPU slow all window, which only a remembered best shows.
 * Two alike CPUs of a quiet machine differ by a point or two (97 % against
 * 98 % of its own on 2026-12-04), which is not worth the words. */
static void against_text(const struct rd_check_series *v, char *out, size_t size)
{
    out[0] = '\0';
    if (v->remembered && 100 - v->vs_remembered_pct >= SPEED_NAMED_GAP_PCT)
        snprintf(out, size, ", against the best remembered from earlier checks (%.3g ms; this "
                 "window's best is %.0f %% of it)", v->remembered_ms, v->vs_remembered_pct);
    else if (v->slow_cpu != v->fast_cpu && v->own_min_pct - v->min_pct >= SPEED_NAMED_GAP_PCT)
        snprintf(out, size, ", CPU %d against CPU %d's best (%.0f %% of its own)", v->slow_cpu,
                 v->fast_cpu, v->own_min_pct);
}

/* The store-reload series' finding, after the multiply-add chain's: only
 * when it was read (a test's script without ';' reads none). */
static void store_finding(struct rd_machine_check *c)
{
    const struct rd_check_series *v = &c->store;
    /* One probe is judged only against a remembered best (speed_finding). */
    if (v->probes < 2 && !v->recalled)
        return;
    bool slow = v->min_pct < c->min_speed_pct;
    char against[160], which[64] = "its one probe";
    against_text(v, against, sizeof against);
    if (v->probes > 1)
        snprintf(which, sizeof which, "the slowest two probes in a row of %d", v->probes);
    add(c, "speedstore", slow ? RD_FINDING_BUSY : RD_FINDING_OK,
        !slow ? NULL : v->remembered
            ? "the host slows this VM's store-to-load path, on every CPU (no steal and no "
              "multiply-add chain shows it): wait and check again; if the hardware changed, "
              "check --forget-speed"
            : "the host slows this VM's store-to-load path (no steal and no multiply-add chain "
              "shows it): wait and check again",
        "CPU %d ran the store-reload chain at %.0f %% of its best, %s%s (threshold %g %%)",
        v->slow_cpu, v->min_pct, which, against, c->min_speed_pct);
}

/* The speed finding, after the load's. */
static void speed_finding(struct rd_machine_check *c)
{
    int n = c->speed_probes;
    if (c->speed_forgot)
        add(c, "speedbest", RD_FINDING_OK, NULL, "the remembered best speed was forgotten "
            "(--forget-speed): this window's best is remembered instead");
    if (c->speed_memory_note[0])
        add(c, "speedbest", RD_FINDING_ADVICE, "nothing to do: the check went on without it",
            "remembered best speed: %s", c->speed_memory_note);
    for (int store = 0; store < 2; store++) {
        double dropped = store ? c->store.replaced_ms : c->speed_replaced_ms;
        if (!isnan(dropped))
            add(c, "speedbest", RD_FINDING_ADVICE, NULL, "the remembered best %s (%.3g ms) was "
                "not come near in %d checks or collections over %d h: this window's best "
                "replaces it", store ? "store-reload time" : "speed", dropped,
                RD_SPEED_MEMORY_MISSES, RD_SPEED_MEMORY_STALE_S / 3600);
    }
    if (n == 0)
        return;
    /* One probe has no other reading of the window to be compared with,
     * but a remembered best is one: judged against it as a longer window
     * is (a pre-flight check's 0.3 s, `--window short`). */
    if (n < 2 && !c->speed_recalled && !c->store.recalled) {
        add(c, "speed", RD_FINDING_ADVICE, "check over a longer --window (2 s or more)",
            "CPU speed: one probe, nothing to compare it with");
        return;
    }
    if (n < 2 && !c->speed_recalled) {
        add(c, "speed", RD_FINDING_ADVICE, "check over a longer --window (2 s or more)",
            "CPU speed: one probe, and no remembered best of the multiply-add chain to "
            "compare it with");
        store_finding(c);
        return;
    }
    bool slow = c->speed_min_pct < c->min_speed_pct;
    struct rd_check_series mul = mul_series(c);
    char against[160];
    against_text(&mul, against, sizeof against);
    add(c, "speed", slow ? RD_FINDING_BUSY : RD_FINDING_OK,
        !slow ? NULL : c->speed_remembered
            ? "the host runs other work beside this VM's CPUs, all of them (no steal shows "
              "it): wait and check again; if the hardware changed, check --forget-speed"
            : "the host runs other work beside this VM's CPUs (no steal shows it): wait and "
              "check again",
        "the CPUs ran at %.0f %% of their best speed or faster over %d probe%s%s (threshold "
        "%g %%)", c->speed_min_pct, n, n > 1 ? "s" : "", against, c->min_speed_pct);
    store_finding(c);
    if (c->wake_probes < 2)
        return;
    /* Within one window the best is of the same spell: the round trips
     * themselves say more to a reader who knows the machine's quiet one. */
    bool slow_wakeup = c->wake_min_pct < c->min_wakeup_pct;
    add(c, "wakeup", slow_wakeup ? RD_FINDING_BUSY : RD_FINDING_OK,
        slow_wakeup ? "the host is slow to wake one CPU from another (no steal shows it): wait "
                      "and check again" : NULL,
        "a cross-CPU wake-up took %.1f-%.1f us a round trip over %d probes, the slowest at "
        "%.0f %% of the fastest (threshold %g %%)", c->wake_best_us, c->wake_worst_us,
        c->wake_probes, c->wake_min_pct, c->min_wakeup_pct);
}

/* The foreign load over the window and its busiest processes. */
static void load_now(struct rd_machine_check *c, const char *proc, const char *sys,
                     double window_s, const char *memory, enum rd_check_memory use)
{
    struct rd_proc_table before = {0}, after = {0};
    struct rd_machine_snap a, b;
    bool listed = rd_proc_table_read(proc, &before);
    rd_machine_snap_take(proc, 0, &a);
    probe_speed_over(c, proc, sys, window_s, memory, use);
    rd_machine_snap_take(proc, 0, &b);
    listed = listed && rd_proc_table_read(proc, &after);
    struct rd_machine_load l;
    rd_machine_load_between(&a, &b, &l);
    struct rd_busy_proc top[3];
    unsigned long long own = 0;
    size_t n = listed ? rd_proc_table_busiest(&before, &after, getpid(), l.wall_s, top, 3, &own)
                      : 0;
    rd_proc_table_release(&before);
    rd_proc_table_release(&after);
    c->others_pct = l.others_pct;
    c->steal_pct = l.steal_pct;
    c->pressure_pct = l.pressure_pct;
    char list[200] = "";
    size_t o = 0;
    for (size_t i = 0; i < n && o < sizeof list; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%d %s %.0f %%", i ? ", " : "",
                              (int)top[i].pid, top[i].comm, top[i].pct);
    if (isnan(l.others_pct)) {
        add(c, "others", RD_FINDING_ADVICE, "give rundown a readable /proc/stat",
            "foreign load unknown: %s/stat cannot be read", proc);
        speed_finding(c);
        return;
    }
    bool busy = l.others_pct > c->threshold_pct;
    add(c, "others", busy ? RD_FINDING_BUSY : RD_FINDING_OK,
        busy ? "stop or wait for the processes named, then check again" : NULL,
        "other processes use %.1f %% of a CPU (threshold %g %%)%s%s", l.others_pct,
        c->threshold_pct, list[0] ? ": " : "", list);
    if (!isnan(l.steal_pct)) {
        /* Runs are judged by others' CPU and steal together
         * (rd_machine_load_foreign_pct): so is the machine. */
        bool stolen = !busy && rd_machine_load_foreign_pct(&l) > c->threshold_pct;
        add(c, "steal", stolen ? RD_FINDING_BUSY : RD_FINDING_OK,
            stolen ? "the hypervisor gives this VM's CPUs to others: use dedicated CPUs, or "
                     "wait and check again" : NULL,
            "steal %.1f %% of a CPU (runs are judged by others' CPU and steal together)",
            l.steal_pct);
    }
    if (!isnan(l.pressure_pct)) {
        bool pressed = l.pressure_pct > c->threshold_pct;
        add(c, "pressure", pressed ? RD_FINDING_BUSY : RD_FINDING_OK,
            pressed ? "tasks wait for a CPU: fewer processes, or more CPUs" : NULL,
            "CPU pressure %.1f %% of the time", l.pressure_pct);
    }
    speed_finding(c);
}

void rd_machine_check_run(struct rd_machine_check *c, const char *proc_root,
                          const char *sys_root, double window_s, double threshold_pct,
                          double min_speed_pct, double min_wakeup_pct,
                          const char *speed_memory, enum rd_check_memory use)
{
    const char *proc = proc_root ? proc_root : "/proc", *sys = sys_root ? sys_root : "/sys";
    char buf[512];
    memset(c, 0, sizeof *c);
    c->threshold_pct = threshold_pct;
    c->min_speed_pct = min_speed_pct;
    c->load1 = c->others_pct = c->steal_pct = c->pressure_pct = NAN;
    c->speed_min_pct = c->speed_own_min_pct = NAN;
    c->speed_remembered_ms = c->speed_vs_remembered_pct = c->speed_replaced_ms = NAN;
    c->store = (struct rd_check_series){.min_pct = NAN, .own_min_pct = NAN, .remembered_ms = NAN,
                                        .vs_remembered_pct = NAN, .replaced_ms = NAN};
    c->min_wakeup_pct = min_wakeup_pct;
    c->wake_best_us = c->wake_worst_us = c->wake_min_pct = NAN;
    c->ncpus = rd_machine_ncpus(proc);
    cpu_set_t set;
    int allowed = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    add(c, "cpus", RD_FINDING_OK, allowed && allowed < c->ncpus ? NULL :
        "pin the measured program (--cpus) to keep it off the CPU rundown samples on",
        "%d CPUs; rundown may run on %d of them%s", c->ncpus, allowed,
        allowed && allowed < c->ncpus ? " (pinned)" : " (not pinned)");
    if (rd_file_line(proc, "loadavg", buf, sizeof buf) && sscanf(buf, "%lf", &c->load1) == 1) {
        const char *judged = rd_machine_load_judgement(c->load1, c->ncpus);
        add(c, "load", strcmp(judged, "busy") == 0 ? RD_FINDING_ADVICE : RD_FINDING_OK,
            strcmp(judged, "busy") == 0 ? "the load average lags a minute: it says the "
            "machine was busy lately; the foreign load below says whether it is now" : NULL,
            "load average %.2f on %d CPUs: %s", c->load1, c->ncpus, judged);
    }
    load_now(c, proc, sys, window_s, speed_memory, use);
    char path[256];
    snprintf(path, sizeof path, "devices/system/cpu/cpu0/cpufreq/scaling_governor");
    if (rd_file_line(sys, path, buf, sizeof buf)) {
        bool perf = strcmp(buf, "performance") == 0;
        add(c, "governor", perf ? RD_FINDING_OK : RD_FINDING_ADVICE,
            perf ? NULL : "set the performance governor (cpupower frequency-set -g performance)",
            "CPU frequency governor %s", buf);
    } else {
        add(c, "governor", RD_FINDING_OK, NULL, "CPU frequency scaling not visible (no cpufreq)");
    }
    if (rd_file_line(sys, "devices/system/cpu/intel_pstate/no_turbo", buf, sizeof buf))
        add(c, "turbo", buf[0] == '1' ? RD_FINDING_OK : RD_FINDING_ADVICE,
            buf[0] == '1' ? NULL : "turbo makes clocks depend on heat: echo 1 > "
            "/sys/devices/system/cpu/intel_pstate/no_turbo", "turbo %s", buf[0] == '1' ? "off" : "on");
    else if (rd_file_line(sys, "devices/system/cpu/cpufreq/boost", buf, sizeof buf))
        add(c, "turbo", buf[0] == '1' ? RD_FINDING_ADVICE : RD_FINDING_OK,
            buf[0] == '1' ? "boost makes clocks depend on heat: echo 0 > "
            "/sys/devices/system/cpu/cpufreq/boost" : NULL, "boost %s", buf[0] == '1' ? "on" : "off");
    if (rd_file_line(proc, "sys/kernel/randomize_va_space", buf, sizeof buf))
        add(c, "aslr", buf[0] == '0' ? RD_FINDING_OK : RD_FINDING_ADVICE,
            buf[0] == '0' ? NULL : "address randomisation varies layout between runs; runs "
            "more than a few per config average it out (or sysctl kernel.randomize_va_space=0)",
            "ASLR %s", buf[0] == '0' ? "off" : "on");
    double st = meminfo(proc, "SwapTotal"), sf = meminfo(proc, "SwapFree");
    if (!isnan(st) && !isnan(sf))
        add(c, "swap", st - sf > 0 ? RD_FINDING_ADVICE : RD_FINDING_OK,
            st - sf > 0 ? "memory was swapped out: free memory, or swapoff -a && swapon -a" : NULL,
            "swap in use %.0f MiB", (st - sf) / 1024);
    if (rd_file_line(proc, "pressure/memory", buf, sizeof buf)) {
        const char *a = strstr(buf, "avg10=");
        double v = a ? strtod(a + 6, NULL) : NAN;
        if (!isnan(v))
            add(c, "memory", v > 1 ? RD_FINDING_ADVICE : RD_FINDING_OK,
                v > 1 ? "tasks wait for memory: free memory before measuring" : NULL,
                "memory pressure %.1f %% (last 10 s)", v);
    }
    if (rd_file_line(sys, "devices/system/cpu/cpu0/thermal_throttle/core_throttle_count", buf,
                sizeof buf)) {
        long n = strtol(buf, NULL, 10);
        add(c, "thermal", n > 0 ? RD_FINDING_ADVICE : RD_FINDING_OK,
            n > 0 ? "the CPU has throttled for heat since boot: cool it, or leave pauses" : NULL,
            "thermal throttle events on CPU 0: %ld", n);
    }
    const char *cont = rd_machine_container_hint();
    bool vm = false;
    FILE *f = fopen("/proc/cpuinfo", "re");
    char line[4096];
    while (f && !vm && fgets(line, sizeof line, f))
        vm = strncmp(line, "flags", 5) == 0 && strstr(line, " hypervisor");
    if (f)
        fclose(f);
    add(c, "virtual", cont || vm ? RD_FINDING_ADVICE : RD_FINDING_OK,
        cont || vm ? "other guests or containers share the hardware unseen: compare only "
                     "runs of one machine, and watch steal" : NULL,
        "%s%s%s", cont ? "container " : "", cont ? cont : "",
        vm ? (cont ? ", virtual machine" : "virtual machine") : (cont ? "" : "bare metal"));
    c->quiet = true;
    for (int i = 0; i < c->nf; i++)
        c->quiet = c->quiet && c->f[i].level != RD_FINDING_BUSY;
}

/* One series' keys of the check's JSON, named PREFIX_probes,
 * PREFIX_min_pct, ... ("speed": the multiply-add chain's, as they were
 * before the store series; "speed_store": the store-reload chain's). */
static void series_json(cJSON *o, const char *prefix, const struct rd_check_series *v)
{
    char key[64];
#define KEY(name) (snprintf(key, sizeof key, "%s_%s", prefix, name), key)
    cJSON_AddNumberToObject(o, KEY("probes"), v->probes);
    rd_json_add_num(o, KEY("min_pct"), v->min_pct);
    cJSON_AddNumberToObject(o, KEY("slowest_cpu"), v->slow_cpu);
    cJSON_AddNumberToObject(o, KEY("against_cpu"), v->fast_cpu);
    rd_json_add_num(o, KEY("own_min_pct"), v->own_min_pct);
    cJSON_AddStringToObject(o, KEY("reference"), v->remembered ? "remembered" : "window");
    rd_json_add_num(o, KEY("remembered_best_ms"), v->remembered_ms);
    rd_json_add_num(o, KEY("vs_remembered_pct"), v->vs_remembered_pct);
#undef KEY
}

cJSON *rd_machine_check_json(const struct rd_machine_check *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddBoolToObject(o, "quiet", c->quiet);
    cJSON_AddNumberToObject(o, "cpus", c->ncpus);
    rd_json_add_num(o, "load1", c->load1);
    rd_json_add_num(o, "others_cpu_pct", c->others_pct);
    rd_json_add_num(o, "steal_pct", c->steal_pct);
    rd_json_add_num(o, "cpu_pressure_pct", c->pressure_pct);
    cJSON_AddNumberToObject(o, "threshold_pct", c->threshold_pct);
    if (c->speed_probes > 0) {
        /* The multiply-add chain's keys, then the threshold and the kind
         * of CPUs (both series'). */
        struct rd_check_series mul = mul_series(c);
        series_json(o, "speed", &mul);
        cJSON_AddNumberToObject(o, "min_speed_pct", c->min_speed_pct);
        cJSON_AddBoolToObject(o, "speed_cpus_alike", c->speed_alike);
    }
    if (c->store.probes > 0)
        series_json(o, "speed_store", &c->store);
    cJSON *cpus = c->ncpus_read > 0 ? cJSON_AddArrayToObject(o, "speed_cpus") : NULL;
    for (int i = 0; cpus && i < c->ncpus_read; i++) {
        const struct rd_check_cpu *u = &c->cpus[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "cpu", u->cpu);
        rd_json_add_num(e, "best_ms", u->best_ms);
        rd_json_add_num(e, "worst_ms", u->worst_ms);
        rd_json_add_num(e, "pct", u->pct);
        rd_json_add_num(e, "store_best_ms", u->store_best_ms);
        rd_json_add_num(e, "store_worst_ms", u->store_worst_ms);
        rd_json_add_num(e, "store_pct", u->store_pct);
        cJSON_AddItemToArray(cpus, e);
    }
    if (c->wake_probes > 0) {
        cJSON_AddNumberToObject(o, "wakeup_probes", c->wake_probes);
        rd_json_add_num(o, "wakeup_best_us", c->wake_best_us);
        rd_json_add_num(o, "wakeup_worst_us", c->wake_worst_us);
        rd_json_add_num(o, "wakeup_min_pct", c->wake_min_pct);
        cJSON_AddNumberToObject(o, "min_wakeup_pct", c->min_wakeup_pct);
    }
    cJSON *fs = cJSON_AddArrayToObject(o, "findings");
    static const char *const levels[] = {"ok", "advice", "busy"};
    for (int i = 0; fs && i < c->nf; i++) {
        cJSON *f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "what", c->f[i].what);
        cJSON_AddStringToObject(f, "level", levels[c->f[i].level]);
        cJSON_AddStringToObject(f, "text", c->f[i].text);
        if (c->f[i].advice[0])
            cJSON_AddStringToObject(f, "advice", c->f[i].advice);
        cJSON_AddItemToArray(fs, f);
    }
    return o;
}
