/*
 * contention.h - the guard against a busy machine: before a run it waits
 * until other processes leave the CPUs alone, after it it records how much
 * CPU they took meanwhile and whether the run was contended.
 *
 * The foreign load is machineload.h's. A run shorter than
 * RD_CONTENTION_JUDGE_S is judged over the interval that ends with it and
 * reaches back at least that long (the check before it, the run before):
 * /proc/stat counts whole clock ticks, and over 50 ms one stray tick per
 * CPU would read as 20 % of a CPU. The metrics stored (and summed for
 * the summary) are that judged interval's, whose length such a run notes
 * in info.machine_load_window_s: the run's own interval would turn one
 * tick during a 2 ms run into 434 % of a CPU.
 *
 * Waiting costs nothing on a quiet machine: when the interval since the
 * last snapshot is long enough it is judged as it is; only without a
 * recent quiet reading (the first run, or after a contended one) does the
 * guard sample a window of RD_CONTENTION_WINDOW_S, and repeats it while
 * the machine is busy, for at most the wait, naming the busiest foreign
 * processes through the note callback.
 *
 * The machine can also be busy where the guest cannot see it: the host
 * runs another guest's work beside its vCPUs and they slow down, with no
 * steal reported. The guard probes the CPUs' speed (speedprobe.h) before a
 * run and after it (at most every RD_SPEED_EVERY_S: short runs share a
 * reading) and judges the run by the slower reading against the fastest
 * seen in this collection, or the best remembered from earlier checks and
 * collections when that is faster (speedmemory.h: a host's spell that
 * slows every CPU from the first reading on shows only against it); in
 * mode wait it also waits for the speed. rd_guard_remember notes the
 * collection's best in that memory at its end.
 * The speed has two series (speedprobe.h): the multiply-add chain and the
 * store-reload chain, each judged against its own best (of the collection
 * or remembered), and a reading is slow when either is.
 * The same probe times a cross-CPU wake-up (wakeprobe.h), which the host's
 * spells slow where the multiply-add chain does not, and the guard judges
 * it the same way, against its own threshold.
 */
#ifndef RUNDOWN_CONTENTION_H
#define RUNDOWN_CONTENTION_H

#include <stdbool.h>
#include <sys/types.h>

#include "machineload.h"
#include "rundown/record.h"
#include "speedprobe.h"
#include "rundown/status.h"

enum rd_contention_mode { RD_CONTENTION_OFF, RD_CONTENTION_WARN, RD_CONTENTION_WAIT };

/* 25 % of one CPU: on a quiet 2-CPU machine it flagged none of 300 runs
 * (max 22.6 %), beside a CPU hog all of 600 (p1 91 %);
 * bench/contention-threshold.sh, figures in docs/methods.md §6c. */
#define RD_CONTENTION_THRESHOLD_DEFAULT 25.0
#define RD_CONTENTION_WAIT_DEFAULT 60.0
/* The slowest the CPUs may run, in percent of the fastest the speed probe
 * has seen in this collection, before a run is contended (speedprobe.h).
 * 85 %: the host's busy spells on the study's machine slowed a core to
 * 41-56 % of its speed, while a steady core's readings vary by a few
 * percent; figures in docs/methods.md §6d. */
#define RD_CONTENTION_MIN_SPEED_DEFAULT 85.0
/* The slowest the cross-CPU wake-up may be, in percent of its fastest
 * round trip seen in this collection. 67 % (1.5x the best round trip):
 * over a quiet host's swings (bench/host-drift.sh, 138 rounds, best 14.4
 * us) it flagged 37 rounds with a mean of 61k req/s and kept 101 with a
 * mean of 84k, and in nine minutes without a swing it flagged 5 of 90;
 * docs/methods.md §6d. */
#define RD_CONTENTION_MIN_WAKEUP_DEFAULT 67.0
/* A probe costs about 11 ms (speedprobe.c): runs closer together than
 * this share one. */
#define RD_SPEED_EVERY_S 0.5
#define RD_CONTENTION_WINDOW_S 0.3
#define RD_CONTENTION_JUDGE_S 0.5

struct rd_contention_opts {
    enum rd_contention_mode mode;
    double threshold_pct;       /* percent of one CPU */
    double wait_s;              /* the longest wait before a run */
    double min_speed_pct;       /* percent of the fastest speed seen */
    double min_wakeup_pct;      /* percent of the fastest wake-up seen */
};

/** The defaults: wait, 25 %, 60 s, 85 %, 67 %. RUNDOWN_CONTENTION=off|warn|wait
 *  in the environment replaces the mode (the test harness sets "off"). */
void rd_contention_defaults(struct rd_contention_opts *o);

/** Parsers of the options; errors name 'what' (the option or suite key). */
rd_status rd_contention_parse_mode(const char *s, const char *what, enum rd_contention_mode *out,
                                   struct rd_diag *d);
rd_status rd_contention_parse_threshold(const char *s, const char *what, double *out,
                                        struct rd_diag *d);
rd_status rd_contention_parse_wait(const char *s, const char *what, double *out,
                                   struct rd_diag *d);
rd_status rd_contention_parse_min_speed(const char *s, const char *what, double *out,
                                        struct rd_diag *d);
rd_status rd_contention_parse_min_wakeup(const char *s, const char *what, double *out,
                                         struct rd_diag *d);
const char *rd_contention_mode_name(enum rd_contention_mode m);

typedef void (*rd_contention_note_fn)(void *ctx, const char *line);
typedef rd_status (*rd_speed_probe_fn)(void *ctx, struct rd_speed_reading *out,
                                       struct rd_diag *d);

#define RD_GUARD_HISTORY 32

struct rd_guard {
    struct rd_contention_opts o;
    const char *proc_root;      /* NULL: /proc */
    pid_t self;
    rd_contention_note_fn note;
    void *note_ctx;
    struct rd_machine_snap hist[RD_GUARD_HISTORY];  /* recent, oldest first */
    int nhist;
    bool last_quiet;            /* the last judged interval was quiet */
    /* the CPU speed (speedprobe.h); probe NULL: not judged */
    struct rd_speed_source speed_source;
    rd_speed_probe_fn probe;
    void *probe_ctx;
    double speed_best_ms[RD_SPEED_CPUS_MAX];
    const char *sys_root;       /* NULL: /sys (whether the CPUs are alike) */
    int speed_alike;            /* rd_speed_cpus_alike of the first reading; -1: not read */
    /* the remembered best (speedmemory.h), read with the first reading */
    char speed_memory[4096];    /* its file; "": none */
    double speed_remembered_ms[RD_SPEED_CPUS_MAX]; /* per CPU; 0: none */
    double speed_session_ms[RD_SPEED_CPUS_MAX];    /* this collection's fastest; 0: none */
    double speed_t;             /* when the last probe ran; < 0: never */
    double speed_pct;           /* its reading, percent of the best; NaN: unknown */
    double run_speed_pct;       /* the reading the run in flight started at */
    /* the store-reload series, read with it, judged against its own bests */
    double store_best_ms[RD_SPEED_CPUS_MAX];
    double store_remembered_ms[RD_SPEED_CPUS_MAX]; /* per CPU; 0: none */
    double store_session_ms[RD_SPEED_CPUS_MAX];    /* this collection's fastest; 0: none */
    double store_pct;           /* the last reading, percent of its best; NaN: unknown */
    int store_cpu;              /* the CPU that decided it; -1: none */
    double run_store_pct;       /* the reading the run in flight started at */
    /* the cross-CPU wake-up, read with the speed (wakeprobe.h) */
    double wake_best_us;        /* the fastest round trip seen; 0: none */
    double wake_us, wake_pct;   /* the last reading, and in percent of the best */
    double run_wake_us;         /* the round trip the run in flight started at */
    struct rd_machine_snap run_start;
    double live_ms;             /* CPU so far of measured processes alive */
    double pending_wait_s;      /* waited before the run in flight */
    /* totals of the session, for its summary */
    double waited_s;            /* time spent waiting for quiet */
    long runs, contended, unknown, gave_up;
    long slow;                  /* runs contended by the CPU speed (either series) */
    long slow_by_memory;        /* of them, judged against the remembered best */
    long slow_store;            /* of them, slow by the store-reload series */
    long slow_wakeup;           /* runs contended by the wake-up */
    double others_sum, others_max;
    double speed_min;           /* the slowest a run was judged at */
    double store_min;           /* the slowest store-reload series a run was judged at */
    double wake_min;            /* the slowest wake-up a run was judged at, % */
};

/** A guard with options o (copied); proc_root NULL: $RUNDOWN_PROC_ROOT
 *  when set (a test's fixed /proc), else /proc. The CPU speed comes from
 *  rd_speed_source_init's source (RUNDOWN_SPEED_PROBE), the remembered
 *  best from rd_speed_memory_path(NULL, false) (RUNDOWN_SPEED_MEMORY). The guard must
 *  not move once initialised (it points into itself). */
void rd_guard_init(struct rd_guard *g, const struct rd_contention_opts *o, const char *proc_root);

/**
 * At the end of a collection: notes its fastest speed reading (of each
 * series) in the remembered best's file (speedmemory.h's rules) and saves it. Nothing
 * when no reading was taken or the memory is off; a file that cannot be
 * written is RD_ERR_IO with the reason (the collection itself is done).
 */
rd_status rd_guard_remember(struct rd_guard *g, struct rd_diag *d);

/** Replaces the remembered best's file rd_guard_init chose (path NULL:
 *  remember nothing, judge by the collection alone): the front end's
 *  --cache-dir or --no-speed-memory (rd_speed_memory_path). Before the
 *  first reading. */
void rd_guard_use_speed_memory(struct rd_guard *g, const char *path);

/** Replaces the speed probe (fn NULL: none); for tests. */
void rd_guard_on_probe(struct rd_guard *g, rd_speed_probe_fn fn, void *ctx);
void rd_guard_on_note(struct rd_guard *g, rd_contention_note_fn fn, void *ctx);

/** Tells the guard how much CPU the measured processes that are still
 *  alive (a server) have used so far; 0 once they are reaped. */
void rd_guard_set_live_ms(struct rd_guard *g, double ms);

/**
 * Before a run: in mode wait, waits until the foreign load is below the
 * threshold or the wait is over ('what' names the run on the note lines).
 * A signal ends the wait: RD_ERR_IO "interrupted". Off: does nothing.
 */
rd_status rd_guard_wait(struct rd_guard *g, const char *what, struct rd_diag *d);

/** Just before the measured process starts. */
void rd_guard_run_begin(struct rd_guard *g);

/**
 * Just after it ended: sets the metrics machine_others_cpu_pct,
 * machine_steal_pct, machine_cpu_pressure_pct, machine_speed_pct (the
 * multiply-add series), machine_speed_store_pct (the store-reload series),
 * machine_wakeup_pct and machine_wakeup_us of rec (those that can be
 * read), rec->contended, info.contention_wait_s when the guard waited
 * before the run, and info.machine_load_window_s when the load figures
 * cover more than the run (one shorter than RD_CONTENTION_JUDGE_S: they
 * are the judged interval's). A run is contended when others' CPU and steal exceed the
 * threshold, or the CPUs ran slower than min_speed_pct (either series),
 * or the wake-up slower than min_wakeup_pct, at its start or end;
 * info.machine_speed_reference (info.machine_speed_store_reference for
 * the store series) "remembered" when the speed was judged against the
 * remembered best (it was faster than this collection's);
 * info.machine_speed_slow names the slow series ("mul", "store" or
 * "mul,store") when the speed made it contended; info.contended_by names
 * which, comma-separated in that order ("load", "speed", "wakeup", e.g.
 * "load,speed"). Off: does nothing.
 */
rd_status rd_guard_run_end(struct rd_guard *g, struct rd_record *rec);

#endif
