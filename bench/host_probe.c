/*
 * host_probe.c - four short timings of what a virtual machine's host can
 * slow without showing it as steal (bench only; bench/host-drift.sh).
 *
 *   cc -O2 -std=c11 -D_GNU_SOURCE -pthread -Icore/include -Icollect -Istats bench/host_probe.c \
 *      collect/wakeprobe.c stats/median.c core/src/status.c core/src/utf8.c \
 *      -lgsl -lgslcblas -o host_probe      (bench/host-drift.sh does)
 *   ./host_probe            one line: the four medians, space-separated
 *
 * The collector's speed probe (collect/speedprobe.c) times a multiply-add
 * chain on each CPU. The studies of 2026-12-03 saw every HTTP server's
 * throughput halve for minutes while that probe read 96-97 %, steal 0 and
 * others' CPU 2 %. A server under wrk spends its time in system calls and
 * in waking the load tool on the other CPU, so this probe times those
 * instead, next to the multiply-add chain:
 *
 *   pingpong_us  one byte bounced over two pipes between a thread on CPU 0
 *                and one on CPU 1: a cross-CPU wake-up each way, which a
 *                guest pays for as an inter-processor interrupt through
 *                the host (median round trip of 2,000; the collector's
 *                probe, collect/wakeprobe.c, with ten times its trips);
 *   syscall_ns   getppid() through syscall(2), which no libc caches
 *                (median per call, 21 batches of 20,000);
 *   fault_us     64 MiB mapped, one byte written per page, unmapped: page
 *                faults, which the host backs with its own memory
 *                (median per MiB of 9 rounds);
 *   alu_ns       the dependent multiply-add chain (median per 1,000 steps
 *                of 21 batches), what the speed probe sees.
 *
 * Medians by GSL (stats/median.c). Exits non-zero, with a message, if a CPU cannot be
 * pinned or a pipe, thread or mapping fails: a missing figure would read
 * as a fast one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "median.h"
#include "wakeprobe.h"

enum {
    PINGPONG_ROUNDS = 2000,
    BATCHES = 21,
    SYSCALLS_PER_BATCH = 20000,
    FAULT_ROUNDS = 9,
    FAULT_MIB = 64,
    ALU_STEPS = 200000,
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double median(double *values, size_t n)
{
    return rd_median_sort(values, n);
}

static double probe_syscall(void)
{
    double per_call[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now_ns();
        for (int i = 0; i < SYSCALLS_PER_BATCH; i++)
            (void)syscall(SYS_getppid);
        per_call[b] = (now_ns() - t0) / SYSCALLS_PER_BATCH;
    }
    return median(per_call, BATCHES);
}

static int probe_faults(double *us_per_mib)
{
    const size_t bytes = (size_t)FAULT_MIB << 20;
    const long page = sysconf(_SC_PAGESIZE);
    double rounds[FAULT_ROUNDS];
    for (int r = 0; r < FAULT_ROUNDS; r++) {
        double t0 = now_ns();
        volatile char *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED)
            return errno;
        for (size_t off = 0; off < bytes; off += (size_t)page)
            map[off] = 1;
        munmap((void *)map, bytes);
        rounds[r] = (now_ns() - t0) / 1e3 / FAULT_MIB;
    }
    *us_per_mib = median(rounds, FAULT_ROUNDS);
    return 0;
}

static double probe_alu(void)
{
    double per_1000[BATCHES];
    volatile uint64_t sink;
    for (int b = 0; b < BATCHES; b++) {
        uint64_t x = (uint64_t)b + 1;
        double t0 = now_ns();
        /* Each step needs the one before: the chain cannot overlap. */
        for (int i = 0; i < ALU_STEPS; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
        per_1000[b] = (now_ns() - t0) / (ALU_STEPS / 1000);
        sink = x;
    }
    (void)sink;
    return median(per_1000, BATCHES);
}

int main(void)
{
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        fprintf(stderr, "host_probe: needs 2 online CPUs (0 and 1)\n");
        return 2;
    }
    double pingpong_us = 0, fault_us = 0;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (rd_wake_probe(0, 1, PINGPONG_ROUNDS, &pingpong_us, &d) != RD_OK) {
        fprintf(stderr, "host_probe: %s\n", d.msg);
        return 1;
    }
    /* The rest runs on CPU 0, the ping-pong's side. */
    cpu_set_t cpu0;
    CPU_ZERO(&cpu0);
    CPU_SET(0, &cpu0);
    int status = sched_setaffinity(0, sizeof cpu0, &cpu0) == 0 ? 0 : errno;
    if (status != 0) {
        fprintf(stderr, "host_probe: pinning to CPU 0: %s\n", strerror(status));
        return 1;
    }
    double syscall_ns = probe_syscall();
    if ((status = probe_faults(&fault_us)) != 0) {
        fprintf(stderr, "host_probe: mapping %d MiB: %s\n", FAULT_MIB, strerror(status));
        return 1;
    }
    double alu_ns = probe_alu();
    printf("%.3f %.1f %.1f %.1f\n", pingpong_us, syscall_ns, fault_us, alu_ns);
    return 0;
}
