/*
 * speedmemory.h - the fastest speed probe reading (speedprobe.h) this
 * machine has given, remembered across checks and collections.
 *
 * Why: check and the guard judge a CPU against the best reading of its
 * window or collection. When the host slows every vCPU at once for the
 * whole window, every reading is equally slow and agrees with itself: on
 * 2026-12-04 at 22:42 UTC a fixed C loop took 0.85 s on either CPU
 * against 0.55-0.60 s normally, and `check --window 5` read "94 % of their
 * best speed". Only a reading from another time shows it.
 *
 * One small JSON file (speed.json in rundown's cache folder, the one
 * storecache.h's rd_cache_default_dir names), one entry per key: what
 * makes two readings comparable (the probe's series and how it was compiled, the
 * CPU model, its maximum clock, and which CPU when the CPUs are not of one
 * kind). Each entry keeps the fastest reading of its key and when it was
 * taken, and how the later sessions (one check, one collection) compared
 * with it, so that a best no session reaches any more is dropped:
 *
 *   a session "comes near" when its own best is at least min_speed_pct
 *   of the remembered one; near_at is when one last did, misses how many
 *   sessions since did not. Once RD_SPEED_MEMORY_MISSES sessions in a row
 *   fell short and the first of them is RD_SPEED_MEMORY_STALE_S or more
 *   after near_at, the remembered best is replaced by the session's (the
 *   machine moved to slower hardware, or a host's setting changed).
 *
 * The file is rewritten whole (temporary + rename: never half written);
 * one that cannot be read or parsed is set aside with a note (a check
 * never fails because of it) and replaced by the next save. Two sessions
 * saving at once: the last rename wins, and each keeps what it read plus
 * its own reading, so at worst one session's faster reading is lost.
 */
#ifndef RUNDOWN_SPEEDMEMORY_H
#define RUNDOWN_SPEEDMEMORY_H

#include <stdbool.h>

#include "speedprobe.h"
#include "rundown/status.h"

#define RD_SPEED_MEMORY_SCHEMA "rundown.speed/1"
#define RD_SPEED_MEMORY_FILE "speed.json"
/* Entries kept at most: one per key a machine has had (a kernel's CPU
 * models, clocks); the oldest best goes first. 128: a session of CPUs not
 * of one kind notes a key per CPU and series, two series since the
 * store-reload chain, so 32 would drop a 24-CPU hybrid's bests in the
 * session that noted them (speedmemory.c asserts it covers
 * RD_SPEED_CPUS_MAX; the load's message names it). */
#define RD_SPEED_MEMORY_MAX 128
/* Three sessions in a row short of the remembered best, spread over six
 * hours, drop it: the host's spells that slow both vCPUs lasted minutes
 * (docs/methods.md 6d), so a spell does not span them, while a machine
 * moved to slower hardware is judged busy for six hours at most (or until
 * --forget-speed). */
#define RD_SPEED_MEMORY_MISSES 3
#define RD_SPEED_MEMORY_STALE_S (6 * 3600)

/* The probe of a test's readings (RUNDOWN_SPEED_PROBE's script, a probe
 * function of its own) for the store series; the multiply-add series'
 * is "script". */
#define RD_SPEED_SCRIPT_STORE_ID "script/store"

/** What makes two readings comparable. Each series of the probe
 *  (speedprobe.h) has its own: the multiply-add chain's and the
 *  store-reload chain's bests are kept apart by their probe. */
struct rd_speed_key {
    char probe[64];      /* rd_speed_probe_id() or rd_speed_store_probe_id(); "script"
                            or RD_SPEED_SCRIPT_STORE_ID for a test's readings */
    char cpu_model[128]; /* /proc/cpuinfo's model name; "" when it says none */
    double max_khz;      /* cpufreq's cpuinfo_max_freq of the CPU; 0: not given */
    int cpu;             /* -1: CPUs of one kind, one best for all; else this CPU's */
};

struct rd_speed_entry {
    struct rd_speed_key key;
    double best_ms;      /* the fastest reading, CPU ms */
    long long best_at;   /* when (Unix seconds) */
    long long near_at;   /* when a session last came near it */
    int misses;          /* sessions since near_at that did not */
};

struct rd_speed_memory {
    char *path;          /* the file (malloc'd); NULL: nothing is remembered */
    struct rd_speed_entry e[RD_SPEED_MEMORY_MAX];
    int n;
    char note[480];      /* why the file was set aside; "" when it was not */
    bool changed;        /* something to save */
};

/**
 * Where the memory is: cache_dir/speed.json when cache_dir is given, else
 * $RUNDOWN_SPEED_MEMORY (a file; "off": none), else speed.json in
 * rd_cache_default_dir(). NULL (nothing remembered) with 'off', or when
 * there is no HOME or XDG_CACHE_HOME to put it in. Malloc'd.
 */
char *rd_speed_memory_path(const char *cache_dir, bool off);

/**
 * Reads the memory at 'path' (NULL: an empty memory that saves nothing).
 * A missing file is an empty memory; one that cannot be read, is not JSON
 * or not this schema, or holds a malformed entry, is an empty memory with
 * m->note saying so ("PATH:LINE:COL: ...: set aside, it is rewritten").
 * RD_ERR_NOMEM only.
 */
rd_status rd_speed_memory_load(struct rd_speed_memory *m, const char *path, struct rd_diag *d);

/** Frees what load allocated. */
void rd_speed_memory_release(struct rd_speed_memory *m);

/** Forgets every entry (`check --forget-speed`); the next save writes that. */
void rd_speed_memory_forget(struct rd_speed_memory *m);

/** The entry of key k, NULL when there is none. */
const struct rd_speed_entry *rd_speed_memory_find(const struct rd_speed_memory *m,
                                                  const struct rd_speed_key *k);

/** What a session's best made of the remembered one. */
struct rd_speed_recall {
    double remembered_ms; /* the best to judge against besides the session's own;
                             NaN: none (first of its key, or just replaced) */
    long long remembered_at;
    bool replaced;        /* the remembered best was dropped by the misses rule */
    double dropped_ms;    /* then: the best dropped */
};

/**
 * Notes one session's fastest reading of key k at time 'now' (Unix
 * seconds), by the rules at the top: near or a miss, a faster reading
 * becomes the best, a best fallen short of too long is replaced. *out
 * says what to judge the session by (the remembered best as it was before
 * this session's reading).
 */
void rd_speed_memory_note(struct rd_speed_memory *m, const struct rd_speed_key *k,
                          double session_best_ms, double min_speed_pct, long long now,
                          struct rd_speed_recall *out);

/**
 * Notes one session's bests, best_ms[cpu] (> 0: read; CPU ms), as check
 * and the guard both do: CPUs of one kind (alike) under one key with
 * their fastest reading and the clock of the lowest CPU read, else a key
 * a CPU (keys of 'probe', from proc_root and sys_root as
 * rd_speed_key_make). rem[cpu] (when not NULL) gets what CPU cpu is
 * judged by besides the session (rd_speed_recall's remembered_ms: every
 * CPU the alike key's, else each read CPU its own; NaN for the others);
 * *dropped_ms (when not NULL) the best a misses rule dropped,
 * else it is left as it was.
 */
void rd_speed_memory_note_session(struct rd_speed_memory *m, const char *probe,
                                  const char *proc_root, const char *sys_root, bool alike,
                                  const double best_ms[RD_SPEED_CPUS_MAX], double min_speed_pct,
                                  long long now, double rem[RD_SPEED_CPUS_MAX],
                                  double *dropped_ms);

/**
 * What rd_speed_memory_note_session would judge a session of bests
 * best_ms by, without noting it: rem[cpu] gets the remembered best of CPU
 * cpu's key (every CPU the alike key's, else each read CPU its own and
 * NaN for the others; NaN when there is none). The misses rule is not
 * applied: the session that notes decides that. For a look that must not
 * count as a session of its own (a collection's pre-flight check, whose
 * collection notes once, at its end).
 */
void rd_speed_memory_recall_session(const struct rd_speed_memory *m, const char *probe,
                                    const char *proc_root, const char *sys_root, bool alike,
                                    const double best_ms[RD_SPEED_CPUS_MAX],
                                    double rem[RD_SPEED_CPUS_MAX]);

/** Writes the memory when it changed (mkdir -p of its folder, temporary +
 *  rename). RD_ERR_IO/RD_ERR_NOMEM with the reason, the file named in the
 *  message (d's path is NULL); nothing when off. */
rd_status rd_speed_memory_save(struct rd_speed_memory *m, struct rd_diag *d);

/**
 * The key of CPU 'cpu' (or of all, cpu -1, whose clock is first_cpu's):
 * probe, /proc/cpuinfo's model name (proc_root NULL: /proc), the maximum
 * clock in sysfs (sys_root NULL: /sys).
 */
void rd_speed_key_make(struct rd_speed_key *k, const char *probe, const char *proc_root,
                       const char *sys_root, int cpu, int first_cpu);

#endif
