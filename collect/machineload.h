/*
 * machineload.h - how busy the machine was with work that is not the
 * measured program's: snapshots of /proc/stat (and /proc/pressure/cpu)
 * and of rundown's own CPU time, and the foreign load between two of them.
 *
 * The foreign CPU between two snapshots is the machine's busy time
 * (/proc/stat "cpu": user + nice + system + irq + softirq) minus what the
 * processes rundown measures and rundown itself used: rundown's own
 * getrusage(RUSAGE_SELF) (every thread of it) plus RUSAGE_CHILDREN (every
 * child it has reaped: the measured command's tree as wait4 saw it, a load
 * tool, prepare and cleanup commands) plus 'extra_own_ms', CPU the caller
 * knows of that no wait4 has reported yet (a server that is still running,
 * from the tree sampler). What is left is other processes' CPU, as percent
 * of one CPU over the wall time between the snapshots.
 *
 * /proc/stat counts in clock ticks (USER_HZ, usually 10 ms) per CPU, while
 * rusage is exact: over short intervals the difference is noise of about
 * one tick per CPU, which is why callers judge short runs over a longer
 * interval (contention.h). In a container /proc/stat is the host's, which
 * is what is wanted: other containers' work disturbs a run as much.
 *
 * /proc is read by hand (no Debian library parses /proc/stat and
 * /proc/pressure); the root is injectable so tests can give fixed files.
 */
#ifndef RUNDOWN_MACHINELOAD_H
#define RUNDOWN_MACHINELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/** One moment of the machine's CPU accounting and rundown's own. */
struct rd_machine_snap {
    double t;                   /* CLOCK_MONOTONIC, s */
    bool have_stat;             /* /proc/stat was read */
    unsigned long long busy, steal, all;  /* ticks over all CPUs */
    bool have_pressure;         /* /proc/pressure/cpu was read */
    double pressure_us;         /* its "some total" */
    double own_ms;              /* rundown's CPU: self + reaped children + extra */
};

/** The foreign load between two snapshots; NaN when unknown. */
struct rd_machine_load {
    double wall_s;
    double others_pct;          /* percent of one CPU */
    double steal_pct;           /* percent of one CPU */
    double pressure_pct;        /* share of the time some task waited for a CPU */
};

/** The foreign load a run is judged by: other processes' CPU plus the
 *  hypervisor's steal, in percent of one CPU; NaN when others' is unknown.
 *  Steal counts because a CPU the host gives to another guest is as lost to
 *  the measured program as one another process takes: the study of
 *  2026-12-02 (data/raw) ran at a median steal of 3.4 % and a 90th
 *  percentile of 28 % while other processes used almost nothing. */
double rd_machine_load_foreign_pct(const struct rd_machine_load *l);

/** Takes a snapshot now, reading PROC_ROOT/stat and PROC_ROOT/pressure/cpu
 *  (proc_root NULL: "/proc"); what cannot be read is marked missing. */
void rd_machine_snap_take(const char *proc_root, double extra_own_ms, struct rd_machine_snap *s);

/** The load between a and b (b later). */
void rd_machine_load_between(const struct rd_machine_snap *a, const struct rd_machine_snap *b,
                             struct rd_machine_load *out);

/** Parses the text of /proc/stat: the "cpu" line's busy, steal and total
 *  ticks. False when there is no such line. (Exposed for tests and fuzzing.) */
bool rd_machine_parse_stat(const char *text, unsigned long long *busy,
                           unsigned long long *steal, unsigned long long *all);

/** Parses /proc/pressure/cpu: the "some" line's total (microseconds). */
bool rd_machine_parse_pressure(const char *text, double *total_us);

/** CPUs online, from PROC_ROOT/stat's "cpuN" lines; 0 when unreadable. */
int rd_machine_ncpus(const char *proc_root);

/* ---- processes, for naming what keeps the machine busy ---- */

struct rd_proc_cpu {
    pid_t pid, ppid;
    unsigned long long ticks;   /* utime + stime */
    char comm[32];
};

/** Every process of PROC_ROOT at one moment, sorted by pid. */
struct rd_proc_table {
    struct rd_proc_cpu *p;
    size_t n, cap;
};

/** Lists PROC_ROOT's processes into t (emptied first). False when the
 *  directory cannot be read. */
bool rd_proc_table_read(const char *proc_root, struct rd_proc_table *t);
void rd_proc_table_release(struct rd_proc_table *t);

/** A foreign process's CPU over an interval. */
struct rd_busy_proc {
    pid_t pid;
    char comm[32];
    double pct;                 /* percent of one CPU */
};

/**
 * The busiest processes between 'before' and 'after' (wall_s apart), not
 * counting 'self' and its descendants: up to max of them, busiest first,
 * into out; returns how many. The CPU of the processes left out is added
 * to *own_ticks (may be NULL).
 */
size_t rd_proc_table_busiest(const struct rd_proc_table *before, const struct rd_proc_table *after,
                             pid_t self, double wall_s, struct rd_busy_proc *out, size_t max,
                             unsigned long long *own_ticks);

#endif
