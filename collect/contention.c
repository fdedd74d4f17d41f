/*
 * contention.c - waiting for a quiet machine and judging runs by the
 * foreign load (see contention.h).
 */
#include "contention.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "speedmemory.h"
#include "wakeprobe.h"

void rd_contention_defaults(struct rd_contention_opts *o)
{
    o->mode = RD_CONTENTION_WAIT;
    o->threshold_pct = RD_CONTENTION_THRESHOLD_DEFAULT;
    o->wait_s = RD_CONTENTION_WAIT_DEFAULT;
    o->min_speed_pct = RD_CONTENTION_MIN_SPEED_DEFAULT;
    o->min_wakeup_pct = RD_CONTENTION_MIN_WAKEUP_DEFAULT;
    const char *env = getenv("RUNDOWN_CONTENTION");
    enum rd_contention_mode m = o->mode;
    if (env && !rd_contention_parse_mode(env, "RUNDOWN_CONTENTION", &m, NULL))
        o->mode = m;
}

const char *rd_contention_mode_name(enum rd_contention_mode m)
{
    return m == RD_CONTENTION_OFF ? "off" : m == RD_CONTENTION_WARN ? "warn" : "wait";
}

rd_status rd_contention_parse_mode(const char *s, const char *what, enum rd_contention_mode *out,
                                   struct rd_diag *d)
{
    static const enum rd_contention_mode modes[] = {RD_CONTENTION_OFF, RD_CONTENTION_WARN,
                                                    RD_CONTENTION_WAIT};
    for (size_t i = 0; i < 3; i++)
        if (s && strcmp(s, rd_contention_mode_name(modes[i])) == 0) {
            *out = modes[i];
            return RD_OK;
        }
    return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                       "%s: expected off, warn or wait, got '%s'", what, s ? s : "");
}

static rd_status parse_number(const char *s, const char *what, double lo, double hi,
                              const char *expected, double *out, struct rd_diag *d)
{
    char *end = NULL;
    errno = 0;
    double v = s && *s ? strtod(s, &end) : NAN;
    if (!s || !*s || *end || errno || !isfinite(v) || v < lo || v > hi)
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "%s: expected %s, got '%s'", what,
                           expected, s ? s : "");
    *out = v;
    return RD_OK;
}

rd_status rd_contention_parse_threshold(const char *s, const char *what, double *out,
                                        struct rd_diag *d)
{
    return parse_number(s, what, 0, 100, "a percentage of one CPU from 0 to 100", out, d);
}

rd_status rd_contention_parse_wait(const char *s, const char *what, double *out,
                                   struct rd_diag *d)
{
    return parse_number(s, what, 0, 1e9, "seconds, 0 or more", out, d);
}

rd_status rd_contention_parse_min_speed(const char *s, const char *what, double *out,
                                        struct rd_diag *d)
{
    return parse_number(s, what, 0, 100, "a percentage of the fastest speed from 0 to 100", out,
                        d);
}

rd_status rd_contention_parse_min_wakeup(const char *s, const char *what, double *out,
                                         struct rd_diag *d)
{
    return parse_number(s, what, 0, 100,
                        "a percentage of the fastest cross-CPU wake-up from 0 to 100", out, d);
}

static rd_status probe_source(void *ctx, struct rd_speed_reading *out, struct rd_diag *d)
{
    return rd_speed_source_read(ctx, out, d);
}

void rd_guard_init(struct rd_guard *g, const struct rd_contention_opts *o, const char *proc_root)
{
    memset(g, 0, sizeof *g);
    g->o = *o;
    /* RUNDOWN_PROC_ROOT: a fixed /proc, so tests can have a quiet machine. */
    g->proc_root = proc_root ? proc_root : getenv("RUNDOWN_PROC_ROOT");
    /* RUNDOWN_SYS_ROOT: a fixed /sys, so tests can say what kind of CPUs
     * their speed readings come from. */
    g->sys_root = getenv("RUNDOWN_SYS_ROOT");
    g->speed_alike = -1;
    g->self = getpid();
    g->speed_t = -1;
    g->speed_pct = g->run_speed_pct = g->speed_min = NAN;
    g->store_pct = g->run_store_pct = g->store_min = NAN;
    g->store_cpu = -1;
    g->wake_us = g->wake_pct = g->run_wake_us = g->wake_min = NAN;
    rd_speed_source_init(&g->speed_source);
    if (!g->speed_source.off)
        rd_guard_on_probe(g, probe_source, &g->speed_source);
    char *memory = rd_speed_memory_path(NULL, false);
    rd_guard_use_speed_memory(g, memory);
    free(memory);
}

void rd_guard_use_speed_memory(struct rd_guard *g, const char *path)
{
    g->speed_memory[0] = '\0';
    if (path && strlen(path) < sizeof g->speed_memory)
        memcpy(g->speed_memory, path, strlen(path) + 1);
}

/* What the guard's readings are, for the memory's key: a test's readings
 * (a script, a probe function of its own) are kept apart from the real
 * probe's. */
static bool real_probe(const struct rd_guard *g)
{
    return g->probe == probe_source && !g->speed_source.script;
}

static const char *probe_id(const struct rd_guard *g)
{
    return real_probe(g) ? rd_speed_probe_id() : "script";
}

static const char *store_probe_id(const struct rd_guard *g)
{
    return real_probe(g) ? rd_speed_store_probe_id() : RD_SPEED_SCRIPT_STORE_ID;
}

/* The remembered best of key 'probe' for CPU cpu of reading r, 0 when
 * there is none. */
static double remembered(const struct rd_guard *g, const struct rd_speed_memory *m,
                         const char *probe, const struct rd_speed_reading *r, int cpu)
{
    struct rd_speed_key k;
    rd_speed_key_make(&k, probe, g->proc_root, g->sys_root, g->speed_alike == 1 ? -1 : cpu,
                      r->ncpu ? r->cpu[0] : 0);
    const struct rd_speed_entry *e = rd_speed_memory_find(m, &k);
    return e ? e->best_ms : 0;
}

/* With the first reading: the remembered bests of its CPUs (each series
 * its own) become their bests, so rd_speed_pct and rd_speed_store_pct
 * judge by the faster of them and the session's. A memory that cannot be
 * read judges nothing (the check says why). */
static void recall(struct rd_guard *g, const struct rd_speed_reading *r)
{
    struct rd_speed_memory m;
    if (!g->speed_memory[0] || rd_speed_memory_load(&m, g->speed_memory, NULL))
        return;
    for (int i = 0; i < r->ncpu; i++) {
        int c = r->cpu[i];
        g->speed_remembered_ms[c] = g->speed_best_ms[c] = remembered(g, &m, probe_id(g), r, c);
        g->store_remembered_ms[c] = g->store_best_ms[c] =
            remembered(g, &m, store_probe_id(g), r, c);
    }
    rd_speed_memory_release(&m);
}

/* Whether a remembered best of one series is faster than this
 * collection's own: its figures are then against the memory. */
static bool judged_by_memory(const struct rd_guard *g, const double session_ms[RD_SPEED_CPUS_MAX],
                             const double remembered_ms[RD_SPEED_CPUS_MAX])
{
    double session = INFINITY;
    for (int c = 0; g->speed_alike == 1 && c < RD_SPEED_CPUS_MAX; c++)
        if (session_ms[c] > 0)
            session = fmin(session, session_ms[c]);
    for (int c = 0; c < RD_SPEED_CPUS_MAX; c++) {
        double own = g->speed_alike == 1 ? session : session_ms[c];
        if (remembered_ms[c] > 0 && remembered_ms[c] < own)
            return true;
    }
    return false;
}

rd_status rd_guard_remember(struct rd_guard *g, struct rd_diag *d)
{
    if (!g->speed_memory[0] || g->speed_alike < 0)
        return RD_OK;
    struct rd_speed_memory m;
    RD_TRY(rd_speed_memory_load(&m, g->speed_memory, d));
    rd_speed_memory_note_session(&m, probe_id(g), g->proc_root, g->sys_root, g->speed_alike == 1,
                                 g->speed_session_ms, g->o.min_speed_pct, (long long)time(NULL),
                                 NULL, NULL);
    rd_speed_memory_note_session(&m, store_probe_id(g), g->proc_root, g->sys_root,
                                 g->speed_alike == 1, g->store_session_ms, g->o.min_speed_pct,
                                 (long long)time(NULL), NULL, NULL);
    rd_status st = rd_speed_memory_save(&m, d);
    rd_speed_memory_release(&m);
    return st;
}

void rd_guard_on_probe(struct rd_guard *g, rd_speed_probe_fn fn, void *ctx)
{
    g->probe = fn;
    g->probe_ctx = ctx;
}

void rd_guard_on_note(struct rd_guard *g, rd_contention_note_fn fn, void *ctx)
{
    g->note = fn;
    g->note_ctx = ctx;
}

void rd_guard_set_live_ms(struct rd_guard *g, double ms)
{
    g->live_ms = ms;
}

static void take(struct rd_guard *g, struct rd_machine_snap *s)
{
    rd_machine_snap_take(g->proc_root, g->live_ms, s);
}

/* The history is thinned so that it reaches back RD_CONTENTION_JUDGE_S
 * however short the runs: the newest snapshot replaces the one before it
 * while that one is closer than this to its own predecessor, so the kept
 * ones are at least this far apart and a full history spans the judged
 * interval. Kept in order of arrival, every snapshot pushed (three a run)
 * made 32 of them reach back only ten runs: about 45 ms over runs of
 * `true`, where one 10 ms tick of /proc/stat is 22 % of a CPU, and a quiet
 * machine's runs were set aside (36 of 336 in one session). */
#define RD_GUARD_SPACING_S (RD_CONTENTION_JUDGE_S / (RD_GUARD_HISTORY - 2))

static void push(struct rd_guard *g, const struct rd_machine_snap *s)
{
    if (g->nhist >= 2 && g->hist[g->nhist - 1].t - g->hist[g->nhist - 2].t < RD_GUARD_SPACING_S) {
        g->hist[g->nhist - 1] = *s;
        return;
    }
    if (g->nhist == RD_GUARD_HISTORY) {
        memmove(g->hist, g->hist + 1, (RD_GUARD_HISTORY - 1) * sizeof *g->hist);
        g->nhist--;
    }
    g->hist[g->nhist++] = *s;
}

/* The load over the interval that ends at 'now' and reaches back at least
 * RD_CONTENTION_JUDGE_S (or as far as the history goes). */
static void judged_load(const struct rd_guard *g, const struct rd_machine_snap *now,
                        struct rd_machine_load *out)
{
    int base = 0;
    for (int i = g->nhist - 1; i >= 0; i--)
        if (g->hist[i].t <= now->t - RD_CONTENTION_JUDGE_S) {
            base = i;
            break;
        }
    rd_machine_load_between(&g->hist[base], now, out);
}

static void note(struct rd_guard *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct rd_guard *g, const char *fmt, ...)
{
    if (!g->note)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    g->note(g->note_ctx, line);
}

/* Sleeps s seconds; false when a signal asks rundown to stop. */
static bool nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        if (rd_proc_interrupted)
            return false;
    return !rd_proc_interrupted;
}

/* Probes the CPUs' speed and the wake-up unless a reading younger than
 * RD_SPEED_EVERY_S exists (always when 'fresh'): g->speed_pct, g->wake_us
 * and g->wake_pct, NaN when they cannot be read. */
static void probe_speed(struct rd_guard *g, double now, bool fresh)
{
    if (!g->probe || (!fresh && g->speed_t >= 0 && now - g->speed_t < RD_SPEED_EVERY_S))
        return;
    struct rd_speed_reading r;
    bool read = g->probe(g->probe_ctx, &r, NULL) == RD_OK;
    if (read && g->speed_alike < 0) {
        g->speed_alike = rd_speed_cpus_alike(g->sys_root, &r);
        recall(g, &r);
    }
    for (int i = 0; read && i < r.ncpu; i++) {
        double *s = &g->speed_session_ms[r.cpu[i]], *st = &g->store_session_ms[r.cpu[i]];
        if (r.ms[i] > 0 && (!(*s > 0) || r.ms[i] < *s))
            *s = r.ms[i];
        if (r.store_ms[i] > 0 && (!(*st > 0) || r.store_ms[i] < *st))
            *st = r.store_ms[i];
    }
    g->speed_pct = read ? rd_speed_pct(&r, g->speed_best_ms, g->speed_alike == 1) : NAN;
    g->store_cpu = -1;
    g->store_pct = read ? rd_speed_store_pct(&r, g->store_best_ms, g->speed_alike == 1,
                                             &g->store_cpu) : NAN;
    g->wake_us = read ? r.wake_us : NAN;
    g->wake_pct = rd_wake_pct(g->wake_us, &g->wake_best_us);
    g->speed_t = now;
}

/* Unknown speed is no reason to wait or to set a run aside. */
static bool fast_enough(const struct rd_guard *g, double pct)
{
    return !(pct < g->o.min_speed_pct);
}

static bool wakes_fast_enough(const struct rd_guard *g, double pct)
{
    return !(pct < g->o.min_wakeup_pct);
}

/* Both probes' last readings pass, both speed series (or are unknown). */
static bool machine_fast(const struct rd_guard *g)
{
    return fast_enough(g, g->speed_pct) && fast_enough(g, g->store_pct) &&
           wakes_fast_enough(g, g->wake_pct);
}

/* What keeps the machine from being quiet, for the note lines. */
static void busy_reason(const struct rd_guard *g, double others, char *out, size_t size)
{
    size_t o = 0;
    if (!(others <= g->o.threshold_pct))
        o += (size_t)snprintf(out, size, "others and steal use %.0f %% of a CPU (threshold %g %%)",
                              others, g->o.threshold_pct);
    if (!fast_enough(g, g->speed_pct) && o < size)
        o += (size_t)snprintf(out + o, size - o, "%sthe CPUs run at %.0f %% of their best speed "
                              "(threshold %g %%)", o ? ", and " : "", g->speed_pct,
                              g->o.min_speed_pct);
    if (!fast_enough(g, g->store_pct) && o < size)
        o += (size_t)snprintf(out + o, size - o, "%sCPU %d runs the store-reload chain at %.0f %% "
                              "of its best (threshold %g %%)", o ? ", and " : "", g->store_cpu,
                              g->store_pct, g->o.min_speed_pct);
    if (!wakes_fast_enough(g, g->wake_pct) && o < size)
        snprintf(out + o, size - o, "%sa cross-CPU wake-up takes %.1f us, %.0f %% of its best "
                 "speed (threshold %g %%)", o ? ", and " : "", g->wake_us, g->wake_pct,
                 g->o.min_wakeup_pct);
}

/* One window: the foreign load over it (the measured processes still
 * alive, a server, are rundown's) and its busiest foreign processes. */
static double window(struct rd_guard *g, char *top, size_t size)
{
    struct rd_proc_table before = {0}, after = {0};
    struct rd_machine_snap a, b;
    bool listed = rd_proc_table_read(g->proc_root, &before);
    take(g, &a);
    bool ok = nap(RD_CONTENTION_WINDOW_S);
    take(g, &b);
    listed = listed && rd_proc_table_read(g->proc_root, &after);
    push(g, &b);
    struct rd_machine_load l;
    rd_machine_load_between(&a, &b, &l);
    struct rd_busy_proc busy[3];
    unsigned long long own = 0;
    size_t n = listed ? rd_proc_table_busiest(&before, &after, g->self, l.wall_s, busy, 3, &own)
                      : 0;
    rd_proc_table_release(&before);
    rd_proc_table_release(&after);
    double own_pct = (double)own * 1000.0 / (double)sysconf(_SC_CLK_TCK) / (l.wall_s * 1e3) * 100;
    size_t o = 0;
    top[0] = '\0';
    for (size_t i = 0; i < n && o < size; i++)
        o += (size_t)snprintf(top + o, size - o, "%s%d %s %.0f %%", i ? ", " : "",
                              (int)busy[i].pid, busy[i].comm, busy[i].pct);
    if (!ok)
        return NAN;
    double foreign = rd_machine_load_foreign_pct(&l);
    return isnan(foreign) ? NAN : fmax(foreign - own_pct, 0);
}

rd_status rd_guard_wait(struct rd_guard *g, const char *what, struct rd_diag *d)
{
    if (g->o.mode == RD_CONTENTION_OFF)
        return RD_OK;
    struct rd_machine_snap now;
    take(g, &now);
    bool known = false;
    if (g->nhist > 0) {
        struct rd_machine_load l;
        judged_load(g, &now, &l);
        double foreign = rd_machine_load_foreign_pct(&l);
        if (l.wall_s >= RD_CONTENTION_WINDOW_S && !isnan(foreign)) {
            g->last_quiet = foreign <= g->o.threshold_pct;
            known = true;
        } else {
            /* Too short to say anything new: the last reading stands. */
            known = !isnan(foreign);
        }
    }
    push(g, &now);
    probe_speed(g, now.t, false);
    if (g->o.mode != RD_CONTENTION_WAIT ||
        (known && g->last_quiet && machine_fast(g)))
        return RD_OK;
    double start = now.t, last_note = -1;
    char top[256], why[256];
    for (;;) {
        double pct = window(g, top, sizeof top);
        if (rd_proc_interrupted) {
            g->waited_s += g->hist[g->nhist - 1].t - start;
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "interrupted");
        }
        double waited = g->hist[g->nhist - 1].t - start;
        probe_speed(g, g->hist[g->nhist - 1].t, true);
        /* Nothing to judge the load by: never wait blind on it. */
        g->last_quiet = isnan(pct) || pct <= g->o.threshold_pct;
        if (g->last_quiet && machine_fast(g))
            break;
        busy_reason(g, isnan(pct) ? 0 : pct, why, sizeof why);
        if (waited >= g->o.wait_s) {
            g->gave_up++;
            note(g, "%s: the machine is still busy after %.0f s (%s): running anyway", what,
                 waited, why);
            break;
        }
        if (last_note < 0 || waited - last_note >= 1) {
            last_note = waited;
            note(g, "%s: waiting for a quiet machine, %s%s%s; %.0f of %.0f s", what, why,
                 top[0] && !g->last_quiet ? ": " : "", g->last_quiet ? "" : top, waited,
                 g->o.wait_s);
        }
    }
    g->pending_wait_s = g->hist[g->nhist - 1].t - start;
    g->waited_s += g->pending_wait_s;
    return RD_OK;
}

void rd_guard_run_begin(struct rd_guard *g)
{
    if (g->o.mode == RD_CONTENTION_OFF)
        return;
    take(g, &g->run_start);
    push(g, &g->run_start);
    probe_speed(g, g->run_start.t, false);
    g->run_speed_pct = g->speed_pct;
    g->run_store_pct = g->store_pct;
    g->run_wake_us = g->wake_us;
}

/* The verdict on a run: contended when the load, the speed or the
 * wake-up says so, counted, and named in info.contended_by. */
static rd_status judge(struct rd_guard *g, struct rd_record *rec, bool busy, bool slow,
                       bool slow_wakeup)
{
    g->last_quiet = !busy && !slow && !slow_wakeup;
    rec->contended = !g->last_quiet;
    g->contended += rec->contended;
    g->slow += slow;
    g->slow_wakeup += slow_wakeup;
    if (!rec->contended)
        return RD_OK;
    char by[32] = "";
    snprintf(by, sizeof by, "%s%s%s%s%s", busy ? "load" : "", busy && slow ? "," : "",
             slow ? "speed" : "", (busy || slow) && slow_wakeup ? "," : "",
             slow_wakeup ? "wakeup" : "");
    return rd_record_set_info(rec, "contended_by", by);
}

rd_status rd_guard_run_end(struct rd_guard *g, struct rd_record *rec)
{
    if (g->o.mode == RD_CONTENTION_OFF || g->nhist == 0)
        return RD_OK;
    struct rd_machine_snap end;
    take(g, &end);
    struct rd_machine_load run, judged;
    rd_machine_load_between(&g->run_start, &end, &run);
    judged_load(g, &end, &judged);
    push(g, &end);
    probe_speed(g, end.t, false);
    /* The slower of the readings around the run (fmin skips a NaN; NaN
     * when neither was read). */
    double speed = fmin(g->run_speed_pct, g->speed_pct);
    double store = fmin(g->run_store_pct, g->store_pct);
    bool slow_mul = !fast_enough(g, speed), slow_store = !fast_enough(g, store);
    bool slow = slow_mul || slow_store, by_memory = false;
    if (!isnan(speed)) {
        RD_TRY(rd_record_set_metric(rec, "machine_speed_pct", speed));
        if (judged_by_memory(g, g->speed_session_ms, g->speed_remembered_ms)) {
            RD_TRY(rd_record_set_info(rec, "machine_speed_reference", "remembered"));
            by_memory = slow_mul;
        }
        g->speed_min = isnan(g->speed_min) ? speed : fmin(g->speed_min, speed);
    }
    if (!isnan(store)) {
        RD_TRY(rd_record_set_metric(rec, "machine_speed_store_pct", store));
        if (judged_by_memory(g, g->store_session_ms, g->store_remembered_ms)) {
            RD_TRY(rd_record_set_info(rec, "machine_speed_store_reference", "remembered"));
            by_memory = by_memory || slow_store;
        }
        g->store_min = isnan(g->store_min) ? store : fmin(g->store_min, store);
    }
    if (slow)
        RD_TRY(rd_record_set_info(rec, "machine_speed_slow",
                                  slow_mul && slow_store ? "mul,store" : slow_mul ? "mul" : "store"));
    g->slow_by_memory += by_memory;
    g->slow_store += slow_store;
    /* The slower wake-up around the run, judged against the best seen by
     * then (the reading at the start may have been judged by a best that
     * came later: the percent is recomputed from the round trip). */
    double wake_us = fmax(g->run_wake_us, g->wake_us); /* fmax skips a NaN */
    double wake = rd_wake_pct(wake_us, &g->wake_best_us);
    bool slow_wakeup = !wakes_fast_enough(g, wake);
    if (!isnan(wake)) {
        RD_TRY(rd_record_set_metric(rec, "machine_wakeup_pct", wake));
        RD_TRY(rd_record_set_metric(rec, "machine_wakeup_us", wake_us));
        g->wake_min = isnan(g->wake_min) ? wake : fmin(g->wake_min, wake);
    }
    g->runs++;
    if (g->pending_wait_s > 0) {
        char b[32];
        snprintf(b, sizeof b, "%.2f", g->pending_wait_s);
        g->pending_wait_s = 0;
        RD_TRY(rd_record_set_info(rec, "contention_wait_s", b));
    }
    if (isnan(judged.others_pct)) {
        g->unknown++;
        return judge(g, rec, false, slow, slow_wakeup);
    }
    /* The figures stored and summed are the judged interval's, not the
     * run's own: over a 2 ms run one 10 ms tick of /proc/stat reads as
     * 434 % of a CPU on a machine with nothing else running. A run of at
     * least RD_CONTENTION_JUDGE_S is its own interval; a shorter one says
     * how long the interval was that its figures cover. */
    RD_TRY(rd_record_set_metric(rec, "machine_others_cpu_pct", judged.others_pct));
    RD_TRY(rd_record_set_metric(rec, "machine_steal_pct", judged.steal_pct));
    if (!isnan(judged.pressure_pct))
        RD_TRY(rd_record_set_metric(rec, "machine_cpu_pressure_pct", judged.pressure_pct));
    if (judged.wall_s > run.wall_s) {
        char b[32];
        snprintf(b, sizeof b, "%.3f", judged.wall_s);
        RD_TRY(rd_record_set_info(rec, "machine_load_window_s", b));
    }
    g->others_sum += judged.others_pct;
    g->others_max = fmax(g->others_max, judged.others_pct);
    return judge(g, rec, rd_machine_load_foreign_pct(&judged) > g->o.threshold_pct, slow,
                 slow_wakeup);
}
