/*
 * machinecheck.h - `rundown-collect check`: is this machine quiet enough
 * to measure on, and what could be done about it (in the spirit of
 * `pyperf system show` and ReBench's denoise).
 *
 * Findings come from /proc and /sys (roots injectable for tests). Only the
 * load of the moment decides quiet or not: foreign CPU over a short window
 * above the threshold, steal, CPU pressure, CPUs that ran slower than
 * min_speed_pct of their best in the window (of the fastest CPU's best, when
 * the CPUs are of one kind, or of the best remembered from earlier checks
 * and collections when it is faster: speedmemory.h), by either series of
 * the speed probe (the multiply-add chain, the store-reload chain: each
 * against its own best), or a cross-CPU wake-up slower
 * than min_wakeup_pct of its best in the window. The governor, turbo, ASLR,
 * swap, throttling and virtualisation are advice: they make runs noisier
 * or different from another machine's, not the machine busy.
 */
#ifndef RUNDOWN_MACHINECHECK_H
#define RUNDOWN_MACHINECHECK_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "speedprobe.h"
#include "rundown/status.h"

enum rd_finding_level { RD_FINDING_OK, RD_FINDING_ADVICE, RD_FINDING_BUSY };

struct rd_finding {
    char what[32];               /* "cpus", "load", "others", ... */
    enum rd_finding_level level;
    char text[256];              /* what was found */
    char advice[256];            /* what to do about it; "" when nothing */
};

#define RD_CHECK_MAX_FINDINGS 20

/** One series of the speed probe over the window, judged. */
struct rd_check_series {
    int probes;                  /* readings that had it */
    double min_pct;              /* the slowest reading, % of the best; NaN: none */
    int slow_cpu, fast_cpu;      /* the slowest reading's CPU, the best's */
    double own_min_pct;          /* the slowest reading, % of its own CPU's best */
    bool remembered;             /* the remembered best was the reference */
    double remembered_ms;        /* NaN: none (off, first of its kind, replaced) */
    double vs_remembered_pct;    /* the window's best, % of it; NaN: none */
    double replaced_ms;          /* the remembered best dropped (misses rule); NaN: none */
    bool recalled;               /* a CPU read had a remembered best to be judged by */
};

/** One CPU's readings over the window (NaN: not read). */
struct rd_check_cpu {
    int cpu;
    double best_ms, worst_ms, pct;             /* the multiply-add chain */
    double store_best_ms, store_worst_ms, store_pct; /* the store-reload chain */
};

struct rd_machine_check {
    int ncpus;
    double load1, others_pct, steal_pct, pressure_pct;  /* NaN: unknown */
    double threshold_pct;
    int speed_probes;            /* CPU speed readings over the window */
    double speed_min_pct;        /* the slowest reading, % of the best; NaN: none */
    bool speed_alike;            /* CPUs of one kind: the best is the fastest CPU's */
    int speed_slow_cpu, speed_fast_cpu; /* the slowest reading's CPU, the best's */
    double speed_own_min_pct;    /* the slowest reading, % of its own CPU's best */
    /* the remembered best (speedmemory.h) of the slowest reading's kind */
    bool speed_remembered;       /* it was the reference: faster than the window's best */
    double speed_remembered_ms;  /* NaN: none (off, first of its kind, replaced) */
    double speed_vs_remembered_pct; /* the window's best, % of it; NaN: none */
    double speed_replaced_ms;    /* the remembered best dropped (misses rule); NaN: none */
    bool speed_recalled;         /* a CPU read had a remembered best to be judged by */
    bool speed_forgot;           /* --forget-speed emptied the memory */
    char speed_memory_note[800]; /* a memory set aside or not saved; "" */
    double min_speed_pct;
    /* the store-reload series, judged likewise against its own bests (the
     * speed_* fields above are the multiply-add chain's) */
    struct rd_check_series store;
    struct rd_check_cpu cpus[RD_SPEED_CPUS_MAX]; /* the CPUs read, in order */
    int ncpus_read;
    int wake_probes;             /* wake-up readings over the window */
    double wake_best_us, wake_worst_us; /* NaN: none */
    double wake_min_pct;         /* the slowest, % of the best; NaN: none */
    double min_wakeup_pct;
    bool quiet;
    struct rd_finding f[RD_CHECK_MAX_FINDINGS];
    int nf;
};

/** What a check does with the remembered best (speedmemory.h). */
enum rd_check_memory {
    RD_CHECK_MEMORY_NOTE,   /* judge by it, then note this window as a session
                               (`check`) */
    RD_CHECK_MEMORY_FORGET, /* forget it first, then note (`check --forget-speed`) */
    RD_CHECK_MEMORY_JUDGE   /* judge by it, note nothing: a collection's pre-flight
                               check, whose collection the guard notes once, at
                               its end (rd_guard_remember) */
};

/**
 * Checks the machine, sampling the foreign load, the CPUs' speed and the
 * cross-CPU wake-up (speedprobe.h) over window_s seconds. proc_root /
 * sys_root NULL: /proc and /sys. speed_memory: the remembered best's file
 * (rd_speed_memory_path; NULL: none), read and judged by; 'use' says
 * whether it is rewritten with this window's best (and emptied first).
 */
void rd_machine_check_run(struct rd_machine_check *c, const char *proc_root,
                          const char *sys_root, double window_s, double threshold_pct,
                          double min_speed_pct, double min_wakeup_pct,
                          const char *speed_memory, enum rd_check_memory use);

/** "docker", "podman", "kubernetes", "lxc", "container" or NULL. */
const char *rd_machine_container_hint(void);

/** The check as the environment record's "check" object. */
cJSON *rd_machine_check_json(const struct rd_machine_check *c);

#endif
