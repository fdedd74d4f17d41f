/*
 * speedprobe.h - how fast the machine's CPUs run right now: a fixed piece
 * of integer work, timed on each CPU rundown may use, at the same moment.
 *
 * Why: a virtual machine's CPUs can run at half speed for seconds at a time
 * while nothing in the guest shows it. On the 2-vCPU machine of the
 * 2026-12-02 study a fixed C loop took 78 ms for minutes and then 140-188 ms
 * for seconds, with no other process running and a steal of 0 in
 * /proc/stat (docs/methods.md §6d): the host gave the vCPU's core to
 * someone else's work (a sibling hyperthread, a shared cache) without
 * taking it away. Foreign CPU and steal (machineload.h) cannot see that;
 * only the speed of known work can.
 *
 * The work is a chain of dependent multiply-adds (no memory traffic, no
 * system calls: it measures the core and nothing the measured program
 * could change), timed with each thread's own CPU clock so that waiting
 * for the guest's scheduler (other processes, judged by machineload.h)
 * does not count, while a core that runs slower, or a host preemption the
 * guest is not told of, does. Each CPU keeps the fastest of a few
 * repetitions, so one interrupt does not read as a slow machine.
 *
 * The same threads, at the same moment, also time a second piece of work:
 * a chain that stores a value and loads it back each step (the store
 * series). A host's spell can slow the core's store-to-load path while the
 * multiply-add chain runs at full speed: on 2026-12-05 one vCPU ran
 * rundown-analyze 1.6x and a cJSON parse 1.8x slower while the chain read
 * 97 %, and the store chain took 0.45-0.50 ms a 10^6 steps against a quiet
 * 0.27-0.28 (docs/methods.md 6d). Each series is judged against its own
 * best, and a reading is slow when either is.
 *
 * Threads (POSIX) pinned one per CPU with pthread_attr_setaffinity_np: no
 * Debian library measures this, so it is written here.
 */
#ifndef RUNDOWN_SPEEDPROBE_H
#define RUNDOWN_SPEEDPROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

#define RD_SPEED_CPUS_MAX 64

/** One probe: the time of the work on each CPU, and the wake-up's. */
struct rd_speed_reading {
    int ncpu;
    int cpu[RD_SPEED_CPUS_MAX];   /* the CPU numbers, as the kernel counts */
    double ms[RD_SPEED_CPUS_MAX]; /* the multiply-add chain: fastest repetition, CPU ms */
    double store_ms[RD_SPEED_CPUS_MAX]; /* the store-reload chain, likewise; NaN or 0:
                                           not read (judges nothing) */
    double wake_us;               /* the cross-CPU round trip (wakeprobe.h); NaN: not read */
};

/**
 * What the probe is, for speedmemory.h's key: its work, its repetitions,
 * and whether its loop was compiled with optimisation (unoptimised, x lives
 * on the stack and each step waits for a store and a load as well as the
 * multiply-add: another figure for the same core).
 */
const char *rd_speed_probe_id(void);

/** The store series' id for speedmemory.h's key (its own best, apart from
 *  the multiply-add chain's), versioned with rd_speed_probe_id. */
const char *rd_speed_store_probe_id(void);

/** The CPU's model as /proc/cpuinfo names it (proc_root NULL: /proc):
 *  "model name", else an ARM's "Hardware" or "CPU part"; "" when none. */
void rd_speed_cpu_model(const char *proc_root, char *out, size_t size);

/** Probes every CPU in the process's affinity mask (up to
 *  RD_SPEED_CPUS_MAX) at once, then the wake-up between the first two of
 *  them (NaN with one CPU, or when it fails: a missing wake-up reading
 *  judges nothing). RD_ERR_IO when no thread could run. */
rd_status rd_speed_probe(struct rd_speed_reading *out, struct rd_diag *d);

/**
 * Where readings come from: the CPUs, or, when $RUNDOWN_SPEED_PROBE names a
 * file, its lines in turn (one reading per line, CPU ms of CPU 0, 1, ...,
 * then optionally ';' and the store series' CPU ms of CPU 0, 1, ... (at
 * most one a CPU; CPUs not given are not read), then optionally '|' and
 * the wake-up's round trip in us; the last line repeats): a test's
 * machine, e.g. "1 1 ; 0.3 0.6 | 15". RUNDOWN_SPEED_PROBE=off: none.
 */
struct rd_speed_source {
    bool off;
    const char *script;
    long next;                    /* the script's next line, from 0 */
};

void rd_speed_source_init(struct rd_speed_source *s);

/** A reading from the source; RD_ERR_IO/RD_ERR_PARSE when there is none
 *  (off is RD_ERR_IO "speed probe off"). */
rd_status rd_speed_source_read(struct rd_speed_source *s, struct rd_speed_reading *out,
                               struct rd_diag *d);

/** How far apart two CPUs' capacities or maximum clocks may be and still
 *  count as one kind (percent of the larger). */
#define RD_SPEED_ALIKE_PCT 5.0

/**
 * Whether the CPUs of reading r are of one kind, so that the fastest one's
 * best is a fair reference for every one of them: false when sysfs gives
 * them capacities (cpu_capacity: big.LITTLE) or maximum clocks
 * (cpufreq/cpuinfo_max_freq) more than RD_SPEED_ALIKE_PCT apart, or lists
 * a hybrid processor's efficient cores (devices/cpu_atom). What sysfs does
 * not say (a virtual machine's vCPUs say nothing) counts as alike.
 * sys_root NULL: /sys.
 */
bool rd_speed_cpus_alike(const char *sys_root, const struct rd_speed_reading *r);

/**
 * The machine's speed relative to the fastest it has been seen: per CPU
 * best_ms / ms, updating best_ms (one per CPU of the reading, 0 = not seen
 * yet) with the reading first; the slowest CPU's, in percent (100 = as
 * fast as ever). A run may land on any of the CPUs, so the slowest decides.
 * With 'alike' CPUs (rd_speed_cpus_alike) the best is the fastest of all
 * the CPUs' bests: a vCPU the host slowed before the first reading, and
 * kept slow, has no faster best of its own to fall short of.
 */
double rd_speed_pct(const struct rd_speed_reading *r, double best_ms[RD_SPEED_CPUS_MAX],
                    bool alike);

/**
 * The same for the store series (r->store_ms against store_best_ms, its
 * own bests): NaN when no CPU read it. *slowest_cpu (when not NULL) gets
 * the CPU that decided, -1 when none.
 */
double rd_speed_store_pct(const struct rd_speed_reading *r,
                          double store_best_ms[RD_SPEED_CPUS_MAX], bool alike, int *slowest_cpu);

#endif
