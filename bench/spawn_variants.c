/*
 * spawn_variants.c - what each ingredient of rundown's way of running a
 * command costs, next to a plain posix_spawnp + wait4 (bench only).
 *
 *   bench/runner.sh builds it against the build's rd_collect and rd_core:
 *   cc -O2 -Icollect -Icore/include bench/spawn_variants.c \
 *      BUILD/collect/librd_collect.a BUILD/core/librd_core.a -o spawn_variants
 *   ./spawn_variants [RUNS [PROGRAM]]        (default 200 /usr/bin/true)
 *
 * For every combination of: stdout/stderr into pipes (else /dev/null), its
 * own process group with a cleared signal mask and default dispositions,
 * and waiting on a pidfd with poll (else wait4 alone), prints the median of
 * RUNS timed spawns (3 warmups), timed from just before posix_spawnp to the
 * exit being seen, as collect/proc.c does. The process group and signal
 * attributes are rd_proc_spawnattr_isolate(), the runner's own, set up
 * before the clock starts as in rd_proc_spawn.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

extern char **environ;

enum { PIPES = 1, GROUP = 2, PIDFD = 4 };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One timed run of prog with the ingredients in 'mode'; -1 on failure. */
static double timed_run(int mode, char *prog)
{
    char *argv[] = {prog, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if ((mode & PIPES) && pipe2(out, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0) {
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    } else {
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    }
    if (mode & GROUP)
        rd_proc_spawnattr_isolate(&attr);
    pid_t pid;
    double t0 = now_ms(), t1 = -1;
    if (posix_spawnp(&pid, prog, &fa, &attr, argv, environ) == 0) {
        int status;
        struct rusage ru;
        if (out[1] >= 0) { /* the child has its copies */
            close(out[1]);
            close(err[1]);
            out[1] = err[1] = -1;
        }
        if (mode & PIDFD) {
            int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
            struct pollfd f = {pidfd, POLLIN, 0};
            while (pidfd >= 0 && poll(&f, 1, -1) <= 0)
                ;
            t1 = now_ms();
            wait4(pid, &status, 0, &ru);
            if (pidfd >= 0)
                close(pidfd);
        } else {
            wait4(pid, &status, 0, &ru);
            t1 = now_ms();
        }
    }
    for (int i = 0; i < 2; i++) {
        if (out[i] >= 0)
            close(out[i]);
        if (err[i] >= 0)
            close(err[i]);
    }
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    return t1 < 0 ? -1 : t1 - t0;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 200;
    char *prog = argc > 2 ? argv[2] : "/usr/bin/true";
    if (runs < 1)
        runs = 1;
    double *t = malloc((size_t)runs * sizeof *t);
    if (!t)
        return 1;
    printf("%d runs of %s, median from posix_spawnp to the exit seen\n", runs, prog);
    for (int mode = 0; mode < 8; mode++) {
        for (int i = 0; i < 3; i++)
            timed_run(mode, prog);
        for (int i = 0; i < runs; i++)
            if ((t[i] = timed_run(mode, prog)) < 0) {
                fprintf(stderr, "spawn_variants: cannot run %s\n", prog);
                return 1;
            }
        qsort(t, (size_t)runs, sizeof *t, cmp_double);
        printf("  pipes %-3s  group+signals %-3s  pidfd+poll %-3s  %.3f ms\n",
               mode & PIPES ? "yes" : "no", mode & GROUP ? "yes" : "no",
               mode & PIDFD ? "yes" : "no", t[runs / 2]);
    }
    free(t);
    return 0;
}
