/*
 * wakeprobe.c - the cross-CPU wake-up probe (see wakeprobe.h).
 */
#include "wakeprobe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "median.h"

/* Untimed trips first: they wake both threads and fault in their stacks. */
#define WARM_TRIPS 10

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

struct echo {
    int in, out;  /* the echo thread reads in and writes what it read to out */
    int cpu;
    int status;   /* 0, or the errno that stopped it */
};

/* Until the caller closes its end (read returns 0). Whatever ends it, it
 * closes out, so that a caller waiting for a reply is told. */
static void *echo_main(void *arg)
{
    struct echo *e = arg;
    char byte;
    e->status = pin_to(e->cpu);
    while (e->status == 0) {
        ssize_t n = read(e->in, &byte, 1);
        if (n == 0)
            break;
        if (n != 1 || write(e->out, &byte, 1) != 1)
            e->status = errno ? errno : EIO;
    }
    close(e->out);
    return NULL;
}

/* n trips, timed from the caller's side; 0 or an errno. */
static int bounce(int to_echo, int from_echo, double *trips, int n)
{
    char byte = 'w';
    for (int i = 0; i < WARM_TRIPS + n; i++) {
        double t0 = now_us();
        errno = 0;
        if (write(to_echo, &byte, 1) != 1 || read(from_echo, &byte, 1) != 1)
            return errno ? errno : EIO;
        if (i >= WARM_TRIPS)
            trips[i - WARM_TRIPS] = now_us() - t0;
    }
    return 0;
}

/* rd_wake_probe into the caller's trips[0..ntrips). */
static rd_status probe(int cpu_a, int cpu_b, double *trips, int ntrips, double *us,
                       struct rd_diag *d)
{
    /* The caller's thread moves to cpu_a for the probe and back after. */
    cpu_set_t was;
    if (pthread_getaffinity_np(pthread_self(), sizeof was, &was) != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "wake-up probe: cannot read the affinity");
    int to_echo[2], from_echo[2];
    if (pipe2(to_echo, O_CLOEXEC) != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "wake-up probe: pipe: %s", strerror(errno));
    if (pipe2(from_echo, O_CLOEXEC) != 0) {
        int e = errno;
        close(to_echo[0]);
        close(to_echo[1]);
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "wake-up probe: pipe: %s", strerror(e));
    }
    struct echo e = {.in = to_echo[0], .out = from_echo[1], .cpu = cpu_b};
    pthread_t thread;
    int status = pin_to(cpu_a);
    bool started = false;
    if (status == 0 && (status = pthread_create(&thread, NULL, echo_main, &e)) == 0)
        started = true;
    if (status == 0)
        status = bounce(to_echo[1], from_echo[0], trips, ntrips);
    /* Closing the echo thread's input ends it, wherever it is; it closes
     * its output itself. */
    close(to_echo[1]);
    if (started)
        pthread_join(thread, NULL);
    else
        close(from_echo[1]);
    close(to_echo[0]);
    close(from_echo[0]);
    pthread_setaffinity_np(pthread_self(), sizeof was, &was);
    if (started && e.status != 0)
        status = e.status;   /* the cause, not the EOF it left the caller */
    if (status != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "wake-up probe between CPUs %d and %d: %s",
                           cpu_a, cpu_b, strerror(status));
    *us = rd_median_sort(trips, (size_t)ntrips);
    return RD_OK;
}

rd_status rd_wake_probe(int cpu_a, int cpu_b, int ntrips, double *us, struct rd_diag *d)
{
    *us = NAN;
    if (ntrips < 1)
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "wake-up probe: %d trips", ntrips);
    double *trips = malloc((size_t)ntrips * sizeof *trips);
    if (!trips)
        return rd_diag_set(d, RD_ERR_NOMEM, NULL, 0, 0, "wake-up probe: out of memory");
    rd_status st = probe(cpu_a, cpu_b, trips, ntrips, us, d);
    free(trips);
    return st;
}

double rd_wake_pct(double us, double *best_us)
{
    if (!(us > 0) || !isfinite(us))
        return NAN;
    if (!(*best_us > 0) || us < *best_us)
        *best_us = us;
    return 100.0 * *best_us / us;
}
