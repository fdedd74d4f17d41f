/*
 * wakeprobe.h - how long the host takes to wake one CPU from another: a
 * byte bounced over two pipes between a thread pinned to each of two CPUs.
 *
 * Why: a guest pays for every cross-CPU wake-up with an inter-processor
 * interrupt that goes through the host. On the study's machine the host's
 * busy spells doubled that round trip (14.5 us fast, 20 us usual, 22-26 us
 * slow) and moved every HTTP server's throughput with it, by the minute
 * and by up to 2x (Spearman -0.69 over 138 rounds), while the multiply-add
 * chain of speedprobe.h, steal and others' CPU stayed flat (bench/
 * host-drift.sh; docs/methods.md §6d). A server under a load tool on the
 * other CPU lives on exactly these wake-ups.
 *
 * The figure is the median of RD_WAKE_TRIPS round trips after a few
 * untimed ones (the first wake the threads up): a median, because one
 * interrupt or a preemption of either thread would move a mean. It is
 * wall time (CLOCK_MONOTONIC): the wait for the other CPU is the thing
 * measured.
 *
 * POSIX pipes and threads: no Debian library times this, so it is written
 * here (bench/host_probe.c links this file and asks for more trips).
 */
#ifndef RUNDOWN_WAKEPROBE_H
#define RUNDOWN_WAKEPROBE_H

#include "rundown/status.h"

/* About 4 ms at 15-20 us a trip: the guard probes before and after a run
 * at most every RD_SPEED_EVERY_S, so a probe must stay a few ms. */
#define RD_WAKE_TRIPS 200

/** The median of 'trips' (>= 1; the guard's RD_WAKE_TRIPS) cross-CPU
 *  round trips, in microseconds, between a thread pinned to cpu_a (the
 *  caller's, for the call) and one pinned to cpu_b. RD_ERR_IO when a CPU
 *  cannot be pinned or a pipe or thread fails, RD_ERR_NOMEM when the
 *  trips' space cannot be had, RD_ERR_USAGE when trips < 1. */
rd_status rd_wake_probe(int cpu_a, int cpu_b, int trips, double *us, struct rd_diag *d);

/** The wake-up's speed relative to the fastest round trip seen: updates
 *  *best_us (0 = not seen yet) with us first, returns 100 * best / us
 *  (100 = as fast as ever); NaN when us is not a positive number. */
double rd_wake_pct(double us, double *best_us);

#endif
