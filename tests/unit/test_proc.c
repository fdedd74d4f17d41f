// links: rd_collect
/*
 * test_proc - spawning, exit codes, rundown:metric lines, capped logs,
 * timeouts that reach the whole process group, CPU lists, PATH lookup and
 * process-tree sampling. No timing is asserted beyond "it ended".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "treesampler.h"

static int run(char **argv, const struct rd_proc_opts *extra, struct rd_proc *p)
{
    struct rd_proc_opts o = extra ? *extra : (struct rd_proc_opts){0};
    struct rd_diag d;
    o.argv = argv;
    rd_diag_init(&d, NULL);
    rd_proc_init(p);
    assert_int_equal(rd_proc_spawn(p, &o, &d), RD_OK);
    struct rd_proc *one[1] = {p};
    assert_int_equal(rd_proc_wait_all(one, 1, &d), RD_OK);
    return rd_proc_exit_code(p);
}

static void test_exit_codes(void **state)
{
    (void)state;
    struct rd_proc p;
    char *t[] = {"true", NULL}, *f[] = {"sh", "-c", "exit 7", NULL};
    char *k[] = {"sh", "-c", "kill -9 $$", NULL};
    char ex[128];
    assert_int_equal(run(t, NULL, &p), 0);
    assert_true(rd_proc_wall_ms(&p) > 0);
    rd_proc_release(&p);
    assert_int_equal(run(f, NULL, &p), 7);
    rd_proc_describe_exit(&p, ex, sizeof ex);
    assert_string_equal(ex, "exit status 7");
    rd_proc_release(&p);
    assert_int_equal(run(k, NULL, &p), 128 + 9);
    rd_proc_describe_exit(&p, ex, sizeof ex);
    assert_non_null(strstr(ex, "killed by signal 9"));
    rd_proc_release(&p);
}

static void test_spawn_missing(void **state)
{
    (void)state;
    struct rd_proc p;
    struct rd_diag d;
    char *argv[] = {"rundown-no-such-program", NULL};
    /* posix_spawnp and the fork path for die_with_parent say the same. */
    for (int dwp = 0; dwp < 2; dwp++) {
        struct rd_proc_opts o = {.argv = argv, .die_with_parent = dwp};
        rd_diag_init(&d, NULL);
        rd_proc_init(&p);
        assert_int_equal(rd_proc_spawn(&p, &o, &d), RD_ERR_IO);
        assert_string_equal(d.msg,
                            "cannot run 'rundown-no-such-program': No such file or directory");
        assert_int_equal(p.pid, 0);
        rd_proc_release(&p);
    }
}

static void test_metrics(void **state)
{
    (void)state;
    struct rd_proc p;
    char *argv[] = {"sh", "-c",
        "echo 'rundown:metric a_ms=1.5'; echo 'rundown:metric b=2e3'; "
        "echo 'rundown:metric a_ms=3'; echo 'rundown:metric Bad=1'; "
        "echo 'rundown:metric c=abc'; echo 'x rundown:metric d=1'; "
        "echo 'rundown:metric e=nan'; printf 'rundown:metric last_ms=4'", NULL};
    struct rd_proc_opts o = {.metrics = true};
    assert_int_equal(run(argv, &o, &p), 0);
    /* The last value of a name wins; prefix must start the line; a final
     * line without a newline counts; NaN is a value "not measured". */
    assert_int_equal(p.out.scan.mn, 4);
    assert_string_equal(p.out.scan.mv[0].name, "a_ms");
    assert_true(p.out.scan.mv[0].value == 3.0);
    assert_string_equal(p.out.scan.mv[1].name, "b");
    assert_true(p.out.scan.mv[1].value == 2000.0);
    assert_string_equal(p.out.scan.mv[2].name, "e");
    assert_true(isnan(p.out.scan.mv[2].value));
    assert_string_equal(p.out.scan.mv[3].name, "last_ms");
    assert_true(p.out.scan.mv[3].value == 4.0);
    assert_int_equal(p.out.scan.bad_lines, 2);
    assert_non_null(strstr(p.out.scan.bad_first, "Bad=1"));
    rd_proc_release(&p);
}

static void test_log_cap_and_keep(void **state)
{
    (void)state;
    struct rd_proc p;
    char path[] = "/tmp/rundown-test-proc-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    /* 300000 bytes of output; the log keeps 100000, the rest is counted. */
    char *argv[] = {"sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x; echo err >&2", NULL};
    struct rd_proc_opts o = {.log_stdout = path, .log_cap = 100000, .keep_stdout = 10,
                             .keep_stderr = 100};
    assert_int_equal(run(argv, &o, &p), 0);
    assert_int_equal(p.out.logged, 100000);
    assert_int_equal(p.out.dropped, 200000);
    assert_int_equal(p.out.keep.len, 10);
    assert_string_equal(p.err.keep.ptr, "err\n");
    assert_int_equal(p.out.tail.len <= 2 * RD_TAIL_BYTES, 1);
    rd_proc_release(&p);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 100000);
    unlink(path);
}

static bool gone(pid_t pid)
{
    /* Gone, or a zombie waiting for a PID 1 that does not reap. */
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] == 'Z';
}

static void test_timeout_kills_group(void **state)
{
    (void)state;
    struct rd_proc p;
    /* The child starts a grandchild, prints its pid and ignores SIGTERM:
     * the timeout must still end both (SIGKILL to the group). */
    char *argv[] = {"sh", "-c", "trap '' TERM; sleep 30 & echo $!; wait; sleep 30", NULL};
    struct rd_proc_opts o = {.timeout_s = 0.3, .kill_grace_s = 0.2, .keep_stdout = 64};
    run(argv, &o, &p);
    assert_true(p.timed_out);
    assert_true(p.exited);
    pid_t gpid = (pid_t)atoi(p.out.keep.ptr);
    assert_true(gpid > 0);
    for (int i = 0; i < 100 && !gone(gpid); i++)
        usleep(10000);
    assert_true(gone(gpid));
    rd_proc_release(&p);
}

static void test_stop(void **state)
{
    (void)state;
    struct rd_proc p;
    struct rd_diag d;
    char *argv[] = {"sleep", "30", NULL};
    struct rd_proc_opts o = {.argv = argv};
    rd_diag_init(&d, NULL);
    rd_proc_init(&p);
    assert_int_equal(rd_proc_spawn(&p, &o, &d), RD_OK);
    pid_t pid = p.pid;
    rd_proc_stop(&p, 1.0);
    assert_true(p.exited);
    assert_true(p.stopped);
    assert_int_equal(rd_proc_exit_code(&p), 128 + SIGTERM);
    assert_true(gone(pid));
    rd_proc_release(&p);
}

/* The wait wakes for the child's exit, not for the end of its pipes: a
 * child that closes its stdout and stderr and lives on is still running
 * when they end, and the first wait returns only once it has exited (it
 * returned at the pipes' end, with the child alive, while the parent did
 * not keep their write ends). Then the write ends are closed and the pipes
 * end. The wait's cap (10 s) only bounds a broken run. */
static void test_exit_is_the_wakeup(void **state)
{
    (void)state;
    struct rd_proc p;
    struct rd_diag d;
    char *argv[] = {"/bin/sh", "-c", "exec >&- 2>&-; sleep 0.3", NULL};
    struct rd_proc_opts o = {.argv = argv};
    rd_diag_init(&d, NULL);
    rd_proc_init(&p);
    assert_int_equal(rd_proc_spawn(&p, &o, &d), RD_OK);
    assert_true(p.held[0] >= 0 && p.held[1] >= 0);
    struct rd_proc *one[1] = {&p};
    assert_int_equal(rd_proc_poll(one, 1, 10.0, &d), RD_OK);
    assert_true(p.exited);
    assert_int_equal(rd_proc_exit_code(&p), 0);
    assert_int_equal(p.held[0], -1);
    assert_int_equal(p.held[1], -1);
    assert_int_equal(rd_proc_wait_all(one, 1, &d), RD_OK);
    assert_true(rd_proc_done(&p));
    rd_proc_release(&p);
}

static void test_cpulist(void **state)
{
    (void)state;
    unsigned char m[128];
    assert_true(rd_cpulist_parse("0", m));
    assert_int_equal(m[0], 1);
    assert_true(rd_cpulist_parse("1-3,9", m));
    assert_int_equal(m[0], 0x0e);
    assert_int_equal(m[1], 0x02);
    assert_false(rd_cpulist_parse("", m));
    assert_false(rd_cpulist_parse("3-1", m));
    assert_false(rd_cpulist_parse("0,", m));
    assert_false(rd_cpulist_parse("a", m));
    assert_false(rd_cpulist_parse("1024", m));
}

static void test_pinning(void **state)
{
    (void)state;
    struct rd_proc p;
    char *argv[] = {"sh", "-c", "grep Cpus_allowed_list /proc/self/status", NULL};
    struct rd_proc_opts o = {.cpus = "0", .keep_stdout = 256};
    assert_int_equal(run(argv, &o, &p), 0);
    assert_non_null(strstr(p.out.keep.ptr, "Cpus_allowed_list:\t0\n"));
    rd_proc_release(&p);
}

static void test_which(void **state)
{
    (void)state;
    char out[4096];
    assert_true(rd_which("sh", out, sizeof out));
    assert_non_null(strstr(out, "/sh"));
    assert_true(rd_which("/bin/sh", out, sizeof out));
    assert_false(rd_which("rundown-no-such-program", out, sizeof out));
    assert_false(rd_which("/etc/passwd", out, sizeof out));
    assert_false(rd_which("", out, sizeof out));
}

/* The program is looked for on PATH before the clock, by rundown, where
 * that finds what the child's own search would: with a directory of its
 * own (cwd), a relative PATH entry is a folder there. Here "bin" in the
 * child's directory holds a `true` that prints, ahead of the real one. */
static void test_spawn_path_relative_to_cwd(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-test-path-XXXXXX", bin[64], prog[96];
    assert_non_null(mkdtemp(dir));
    snprintf(bin, sizeof bin, "%s/bin", dir);
    snprintf(prog, sizeof prog, "%s/true", bin);
    assert_int_equal(mkdir(bin, 0755), 0);
    FILE *f = fopen(prog, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\necho mine\n", f);
    fclose(f);
    assert_int_equal(chmod(prog, 0755), 0);
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "bin:/usr/bin:/bin", 1);
    char *argv[] = {"true", NULL};
    struct rd_proc_opts o = {.cwd = dir, .keep_stdout = 64};
    struct rd_proc p;
    int code = run(argv, &o, &p);
    if (old)
        setenv("PATH", old, 1);
    else
        unsetenv("PATH");
    free(old);
    assert_int_equal(code, 0);
    assert_int_equal(p.out.keep.len, 5);
    assert_memory_equal(p.out.keep.ptr, "mine\n", 5);
    rd_proc_release(&p);
    unlink(prog);
    rmdir(bin);
    rmdir(dir);
}

static void test_tree_sampler(void **state)
{
    (void)state;
    struct rd_proc p;
    struct rd_diag d;
    /* A leader with two children that each hold ~8 MiB resident. */
    char *argv[] = {"sh", "-c",
        "for i in 1 2; do (head -c 8000000 /dev/zero | tr '\\0' x | sleep 2) & done; wait", NULL};
    struct rd_proc_opts o = {.argv = argv};
    rd_diag_init(&d, NULL);
    rd_proc_init(&p);
    assert_int_equal(rd_proc_spawn(&p, &o, &d), RD_OK);
    struct rd_tree_sampler s;
    rd_tree_sampler_start(&s, p.pid);
    for (int i = 0; i < 5; i++) {
        usleep(100000);
        rd_tree_sampler_sample(&s);
    }
    assert_true(s.nmembers >= 3);  /* sh, its subshells, head/tr/sleep */
    assert_true(s.rss_peak_kib > 0);
    assert_true(rd_tree_sampler_rss_mean_kib(&s) > 0);
    assert_true(rd_tree_sampler_rss_mean_kib(&s) <= s.rss_peak_kib);
    assert_true(rd_tree_sampler_cpu_pct(&s) >= 0);
    rd_tree_sampler_release(&s);
    rd_proc_stop(&p, 1.0);
    rd_proc_release(&p);
}

/* Without /proc, or with the server's /proc/PID unreadable (here: a fake
 * /proc holding only a stranger), no sample is counted and every figure
 * is NaN (stored as null) with the reason, never 0 (issue 17: 0 before). */
static void test_tree_sampler_unreadable(void **state)
{
    (void)state;
    struct rd_tree_sampler s;
    rd_tree_sampler_start_at(&s, 4242, "/nonexistent-proc");
    rd_tree_sampler_sample(&s);
    assert_int_equal(s.nsamples, 0);
    assert_int_equal(s.missed, 2);
    assert_string_equal(s.why, "cannot read /nonexistent-proc");
    assert_true(isnan(rd_tree_sampler_rss_peak_kib(&s)));
    assert_true(isnan(rd_tree_sampler_rss_mean_kib(&s)));
    assert_true(isnan(rd_tree_sampler_cpu_pct(&s)));
    rd_tree_sampler_release(&s);

    char dir[] = "/tmp/rd_test_fakeproc_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/77", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/77/stat", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("77 (stranger) S 1 77 77 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 100 1000 250\n", f);
    fclose(f);
    rd_tree_sampler_start_at(&s, 4242, dir);
    rd_tree_sampler_sample(&s);
    assert_int_equal(s.nsamples, 0);
    assert_true(isnan(rd_tree_sampler_rss_peak_kib(&s)));
    assert_true(isnan(rd_tree_sampler_cpu_pct(&s)));
    assert_non_null(strstr(s.why, "no process of the tree is readable"));
    rd_tree_sampler_release(&s);
    /* The stranger as the root: its 250 pages are counted. */
    rd_tree_sampler_start_at(&s, 77, dir);
    assert_int_equal(s.nsamples, 1);
    assert_true(rd_tree_sampler_rss_peak_kib(&s) == 250.0 * (double)(sysconf(_SC_PAGESIZE) / 1024));
    rd_tree_sampler_release(&s);
    unlink(path);
    snprintf(path, sizeof path, "%s/77", dir);
    rmdir(path);
    rmdir(dir);
}

/* A log that cannot be written (/dev/full: ENOSPC) is remembered with the
 * bytes lost, not counted as bytes past the cap (which said "capped"). */
static void test_stream_log_error(void **state)
{
    (void)state;
    struct rd_stream s;
    rd_stream_init(&s);
    s.log_fd = open("/dev/full", O_WRONLY);
    if (s.log_fd < 0)
        skip();
    s.log_cap = 100;
    rd_stream_consume(&s, "hello\n", 6);
    rd_stream_consume(&s, "0123456789012345678901234567890123456789012345678901234567890123456789"
                          "0123456789012345678901234567890123456789", 110);
    assert_int_equal(s.log_errno, ENOSPC);
    assert_int_equal(s.logged, 0);
    assert_int_equal(s.lost, 100);    /* under the cap */
    assert_int_equal(s.dropped, 16);  /* past it */
    rd_stream_release(&s);
}

/* The cap on distinct names: 300 names printed, the first 256 kept, the
 * other 44 lines counted; a name already kept still takes its new value;
 * a name of 65 bytes is a bad line, one of 64 a good one. */
static void test_metric_name_cap(void **state)
{
    (void)state;
    struct rd_proc p;
    char *argv[] = {"sh", "-c",
        "i=0; while [ $i -lt 300 ]; do echo rundown:metric m$i=$i; i=$((i+1)); done; "
        "echo rundown:metric m7=70; echo rundown:metric m299=1; "
        "echo rundown:metric a$(printf '%064d' 0)=1", NULL};
    struct rd_proc_opts o = {.metrics = true};
    assert_int_equal(run(argv, &o, &p), 0);
    assert_int_equal(p.out.scan.mn, RD_METRIC_NAMES_MAX);
    assert_string_equal(p.out.scan.mv[255].name, "m255");
    assert_true(p.out.scan.mv[7].value == 70.0);
    assert_int_equal(p.out.scan.dropped_lines, 300 - 256 + 1);
    assert_string_equal(p.out.scan.dropped_first, "m256");
    assert_int_equal(p.out.scan.bad_lines, 1);
    rd_proc_release(&p);

    char *argv64[] = {"sh", "-c", "echo rundown:metric a$(printf '%063d' 0)=1", NULL};
    assert_int_equal(run(argv64, &o, &p), 0);
    assert_int_equal(p.out.scan.mn, 1);
    assert_int_equal(strlen(p.out.scan.mv[0].name), RD_METRIC_NAME_MAX);
    rd_proc_release(&p);
}

/* A die_with_parent child is killed by the kernel when the process that
 * spawned it dies by SIGKILL. An intermediate process spawns 'sleep 30',
 * reports its pid through a pipe and is killed; the sleep must be gone. */
static void test_die_with_parent(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t mid = fork();
    assert_true(mid >= 0);
    if (mid == 0) {
        close(fds[0]);
        char *argv[] = {"sleep", "30", NULL};
        struct rd_proc_opts o = {.argv = argv, .die_with_parent = true};
        struct rd_proc p;
        struct rd_diag d;
        rd_diag_init(&d, NULL);
        rd_proc_init(&p);
        pid_t child = rd_proc_spawn(&p, &o, &d) == RD_OK ? p.pid : 0;
        if (write(fds[1], &child, sizeof child) != (ssize_t)sizeof child)
            _exit(2);
        pause();
        _exit(0);
    }
    close(fds[1]);
    pid_t child = 0;
    assert_int_equal(read(fds[0], &child, sizeof child), (ssize_t)sizeof child);
    close(fds[0]);
    assert_true(child > 0);
    /* Its own process group, as every child of rd_proc_spawn. */
    assert_int_equal(getpgid(child), child);
    kill(mid, SIGKILL);
    waitpid(mid, NULL, 0);
    /* The orphan is adopted and reaped by init (or a subreaper); it is gone
     * once kill(0) fails or it is a zombie. Up to 5 s on a loaded machine:
     * without the death signal it would sleep 30 s. */
    bool gone = false;
    for (int i = 0; i < 500 && !gone; i++) {
        char path[64], st[256];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)child);
        FILE *f = fopen(path, "r");
        gone = !f;
        if (f) {
            size_t n = fread(st, 1, sizeof st - 1, f);
            fclose(f);
            st[n] = '\0';
            const char *rp = strrchr(st, ')');
            gone = rp && (rp[2] == 'Z' || rp[2] == 'X');
        }
        if (!gone)
            usleep(10000);
    }
    if (!gone)
        kill(child, SIGKILL);
    assert_true(gone);
}

/* The fork path: a missing working directory fails the spawn (nothing is
 * left running); a good command has its output on the pipe. */
static void test_die_with_parent_errors(void **state)
{
    (void)state;
    struct rd_proc p;
    struct rd_diag d;
    char *t[] = {"true", NULL};
    struct rd_proc_opts o = {.argv = t, .cwd = "/nonexistent-rundown-dir",
                             .die_with_parent = true};
    rd_diag_init(&d, NULL);
    rd_proc_init(&p);
    assert_int_equal(rd_proc_spawn(&p, &o, &d), RD_ERR_IO);
    assert_int_equal(p.pid, 0);
    rd_proc_release(&p);

    /* And a good one runs with stdout on the pipe and exits 3. */
    char *sh[] = {"sh", "-c", "echo rundown:metric x=1; exit 3", NULL};
    o = (struct rd_proc_opts){.metrics = true, .die_with_parent = true};
    assert_int_equal(run(sh, &o, &p), 3);
    assert_int_equal(p.out.scan.mn, 1);
    rd_proc_release(&p);
}

/* Exit codes after a signal: 128 + the first signal caught. */
static void test_interrupt_exit_code(void **state)
{
    (void)state;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_proc_catch_signals();
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    static const int codes[] = {130, 143, 129};
    for (int i = 0; i < 3; i++) {
        rd_proc_interrupted = 0;
        /* Blocked outside waits: delivered inside the poll below. */
        raise(sigs[i]);
        assert_int_equal(rd_proc_poll(NULL, 0, 0.01, &d), RD_OK);
        assert_int_equal(rd_proc_interrupted, sigs[i]);
        raise(SIGINT);  /* a second signal does not change the code */
        rd_proc_poll(NULL, 0, 0.01, &d);
        assert_int_equal(rd_proc_interrupt_exit_code(), codes[i]);
    }
    rd_proc_interrupted = 0;
    assert_int_equal(rd_proc_interrupt_exit_code(), 130);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_spawn_missing),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_log_cap_and_keep),
        cmocka_unit_test(test_timeout_kills_group),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_exit_is_the_wakeup),
        cmocka_unit_test(test_cpulist),
        cmocka_unit_test(test_pinning),
        cmocka_unit_test(test_which),
        cmocka_unit_test(test_spawn_path_relative_to_cwd),
        cmocka_unit_test(test_tree_sampler),
        cmocka_unit_test(test_tree_sampler_unreadable),
        cmocka_unit_test(test_stream_log_error),
        cmocka_unit_test(test_metric_name_cap),
        cmocka_unit_test(test_die_with_parent),
        cmocka_unit_test(test_die_with_parent_errors),
        cmocka_unit_test(test_interrupt_exit_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
