/*
 * proc.c - spawning, watching and stopping the processes rundown measures.
 *
 * A child is started with posix_spawn into its own process group, stdin on
 * /dev/null and stdout/stderr on non-blocking pipes that the parent drains in
 * a poll() loop: each byte goes to a capped log file, a small in-memory tail
 * (for messages), optionally a kept prefix (for importers), and a line
 * scanner for "rundown:metric NAME=VALUE". Exits are seen through a pidfd,
 * which becomes readable while the child is a zombie: the wall clock is read
 * at that moment, what remains of the process group is killed, and only then
 * is the leader reaped with wait4 for its rusage. The pidfd keeps the time of
 * exit within one poll wake-up, as hyperfine's blocking wait does, without
 * giving up the pipes.
 *
 * The timed window, from the clock read before the spawn to the one on the
 * exit's wake-up, holds the child and as little else as can be: the PATH
 * search (rd_which; posix_spawnp would try an execve per directory in the
 * child, inside the window), the pipes' O_NONBLOCK and the log files are
 * done before the clock starts, and so is the open of /dev/null for the
 * child's stdin (the child only dup2s it); after the spawn only the pidfd
 * is opened before the wait. The parent keeps the pipes' write ends open until the
 * reap. A child's exit closes its own ends just before it becomes a
 * zombie; were they the last, the end of the pipes would wake the wait
 * first, and a read, a close and a second wait would come before the pidfd
 * showed the exit (strace showed it on every run of `sleep 0.01` before
 * the ends were kept). So the pidfd is the one wake-up at the exit, as the
 * blocking wait is hyperfine's; the write ends are closed once the leader
 * is reaped, and the pipes end when the last grandchild holding them does
 * (tests/sh/runner_window.sh checks the window with strace).
 *
 * Servers, load and background commands (die_with_parent) are started with
 * fork + prctl(PR_SET_PDEATHSIG, SIGKILL) + exec instead: posix_spawn has no
 * attribute for a parent-death signal, and without one a server outlives a
 * SIGKILL of rundown (nothing is left to stop its group) and keeps its port.
 * Timed commands stay on posix_spawn, whose vfork-style clone is the
 * cheaper start (the runner's overhead is measured against hyperfine -N);
 * a command in flight ends by itself. The death signal reaches only the
 * direct child (and survives its exec, so `sh -c 'exec server'` is covered);
 * processes it forks must watch their parent, as cluster workers do.
 *
 * CPU pinning uses the fact that a child inherits its parent's affinity:
 * rundown is single-threaded, so it narrows its own mask around the spawn
 * and restores it.
 */
#include "proc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


extern char **environ;

volatile sig_atomic_t rd_proc_interrupted;

static void on_signal(int sig)
{
    /* The first signal decides the exit code: a SIGTERM sent while a SIGINT
     * is being handled must not turn 130 into 143. */
    if (!rd_proc_interrupted)
        rd_proc_interrupted = sig;
}

int rd_proc_interrupt_exit_code(void)
{
    int sig = (int)rd_proc_interrupted;
    return sig > 0 && sig < 128 ? 128 + sig : 130;
}

void rd_proc_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a blocked poll() or write() must return EINTR so the
     * loops notice the flag without waiting for their timeout. */
    static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        struct sigaction old;
        /* nohup and `trap '' INT` mean "do not stop me": respected. */
        if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(caught[i], &sa, NULL);
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    /* Blocked except inside ppoll(): a signal is then either seen by the
     * flag check before a wait or ends the wait, never lost in between, so
     * waits need no periodic wake-up to notice it. Children get an empty
     * mask at spawn. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, NULL);
}

double rd_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool rd_cpulist_parse(const char *s, unsigned char mask[128])
{
    memset(mask, 0, 128);
    if (!s || !*s)
        return false;
    const char *p = s;
    for (;;) {
        if (!isdigit((unsigned char)*p))
            return false;
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        p = end;
        if (*p == '-') {
            p++;
            if (!isdigit((unsigned char)*p))
                return false;
            b = strtoul(p, &end, 10);
            p = end;
        }
        if (a > b || b >= 1024)
            return false;
        for (unsigned long c = a; c <= b; c++)
            mask[c / 8] |= (unsigned char)(1u << (c % 8));
        if (*p == '\0')
            return true;
        if (*p != ',')
            return false;
        p++;
    }
}

void rd_stream_init(struct rd_stream *s)
{
    memset(s, 0, sizeof *s);
    s->fd = s->log_fd = -1;
    rd_buf_init(&s->keep, 0);
    rd_buf_init(&s->tail, 0);
    rd_metric_scan_init(&s->scan);
}

void rd_proc_init(struct rd_proc *p)
{
    memset(p, 0, sizeof *p);
    p->pidfd = -1;
    p->held[0] = p->held[1] = p->held[2] = -1;
    rd_stream_init(&p->out);
    rd_stream_init(&p->err);
}

/* Closes the write ends the parent kept (see the top of this file) and
 * the child's /dev/null. */
static void release_held(struct rd_proc *p)
{
    for (size_t i = 0; i < sizeof p->held / sizeof p->held[0]; i++) {
        if (p->held[i] >= 0)
            close(p->held[i]);
        p->held[i] = -1;
    }
}

void rd_stream_release(struct rd_stream *s)
{
    if (s->fd >= 0)
        close(s->fd);
    if (s->log_fd >= 0)
        close(s->log_fd);
    s->fd = s->log_fd = -1;
    rd_buf_release(&s->keep);
    rd_buf_release(&s->tail);
    rd_metric_scan_release(&s->scan);
}

static int open_log(const char *path, struct rd_diag *d)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot create log: %s", strerror(errno));
    return fd;
}

void rd_stream_consume(struct rd_stream *s, const char *data, size_t n)
{
    if (s->log_fd >= 0) {
        size_t seen = s->logged + s->lost;  /* what the log would hold */
        size_t room = seen < s->log_cap ? s->log_cap - seen : 0;
        size_t w = room < n ? room : n;
        size_t off = 0;
        /* A full disk or `ulimit -f` (EFBIG) is remembered, not taken for
         * the cap: the record says the log is incomplete and why. */
        while (!s->log_errno && off < w) {
            ssize_t k = write(s->log_fd, data + off, w - off);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) {
                s->log_errno = k < 0 ? errno : EIO;
                break;
            }
            off += (size_t)k;
        }
        s->logged += off;
        s->lost += w - off;
        s->dropped += n - w;
    }
    if (s->keep.max > 0 && s->keep.len < s->keep.max) {
        size_t room = s->keep.max - s->keep.len;
        rd_buf_add(&s->keep, data, n < room ? n : room);
    }
    rd_buf_add(&s->tail, data, n);
    if (s->tail.len > 2 * RD_TAIL_BYTES) {
        memmove(s->tail.ptr, s->tail.ptr + s->tail.len - RD_TAIL_BYTES, RD_TAIL_BYTES);
        rd_buf_truncate(&s->tail, RD_TAIL_BYTES);
    }
    if (s->metrics)
        rd_metric_scan_feed(&s->scan, data, n);
    /* Standard error, not output: run without -o writes its records to
     * standard output, which the command's own output must not break. */
    for (size_t off = 0; s->echo && off < n;) {
        ssize_t k = write(STDERR_FILENO, data + off, n - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        off += (size_t)k;
    }
}

void rd_stream_end(struct rd_stream *s)
{
    if (s->metrics)
        rd_metric_scan_end(&s->scan);
}

/* Reads what is available; closes the stream at EOF. */
static void stream_drain(struct rd_stream *s)
{
    char chunk[65536];
    while (s->fd >= 0) {
        ssize_t n = read(s->fd, chunk, sizeof chunk);
        if (n > 0) {
            rd_stream_consume(s, chunk, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        /* EOF, or an error we cannot recover from. */
        rd_stream_end(s);
        close(s->fd);
        s->fd = -1;
    }
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

/* Makes 'fd' the child's descriptor 'target', without close-on-exec. */
static int dup_to(int fd, int target)
{
    if (fd == target)
        return fcntl(fd, F_SETFD, 0);
    return dup2(fd, target) < 0 ? -1 : 0;
}

/*
 * The child side of spawn_dying_with_parent: async-signal-safe calls only,
 * and glibc's execvpe, which searches PATH without malloc (rundown is
 * single-threaded, but ASan and libc keep locks of their own).
 * A failure is reported as an errno on errfd, whose close-on-exec tells the
 * parent that exec succeeded.
 */
static void child_exec(const struct rd_proc_opts *o, const char *file, pid_t parent,
                       int out_w, int err_w, int errfd)
{
    int e = 0;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    /* Handlers would be reset by exec anyway, but SIGPIPE's SIG_IGN would
     * be inherited; and a signal must not run rundown's handler here. */
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    if (setpgid(0, 0) < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) {
        e = errno;
        goto fail;
    }
    /* rundown may have died between fork and prctl: the signal was then
     * never armed, and the child is already adopted by another process. */
    if (getppid() != parent)
        _exit(127);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0 || dup_to(null, 0) < 0 || dup_to(out_w, 1) < 0 || dup_to(err_w, 2) < 0) {
        e = errno;
        goto fail;
    }
    if (o->cwd && chdir(o->cwd) < 0) {
        e = errno;
        goto fail;
    }
    execvpe(file, o->argv, o->envp ? o->envp : environ);
    e = errno;
fail:
    while (write(errfd, &e, sizeof e) < 0 && errno == EINTR)
        ;
    _exit(127);
}

/* fork + exec with a parent-death signal (see the top of this file).
 * Returns 0 with *pidp set, or the errno of the failed step; the child is
 * then reaped. */
static int spawn_dying_with_parent(pid_t *pidp, const struct rd_proc_opts *o,
                                   const char *file, int out_w, int err_w)
{
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) < 0)
        return errno;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(ep[0]);
        close(ep[1]);
        return e;
    }
    if (pid == 0)
        child_exec(o, file, parent, out_w, err_w, ep[1]);
    close(ep[1]);
    int e = 0;
    ssize_t k;
    while ((k = read(ep[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(ep[0]);
    if (k == (ssize_t)sizeof e) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        return e ? e : ECHILD;
    }
    /* Like posix_spawnp, a process exists once we return: its group is
     * set (the child did it before exec), so kill(-pid) reaches it. */
    *pidp = pid;
    return 0;
}

/* True when every entry of a PATH value is an absolute folder. */
static bool path_absolute(const char *path)
{
    for (const char *p = path;; p++) {
        if (*p != '/')
            return false;
        p = strchr(p, ':');
        if (!p)
            return true;
    }
}

void rd_proc_spawnattr_isolate(posix_spawnattr_t *attr)
{
    /* Every signal back to its default, not just the ones rundown catches
     * or ignores: glibc's child then sets each once, where for a signal
     * outside the set it first asks for the disposition and then sets it
     * (strace of `true`: 54 queries and 62 sets before the execve, inside
     * the timed window; now 62 sets). A child no longer inherits an
     * ignore from rundown's parent either, as it already did not for
     * SIGINT, SIGHUP and SIGQUIT. SIGKILL and SIGSTOP cannot be set. */
    sigset_t none, def;
    sigemptyset(&none);
    sigfillset(&def);
    sigdelset(&def, SIGKILL);
    sigdelset(&def, SIGSTOP);
    posix_spawnattr_setsigmask(attr, &none);
    posix_spawnattr_setsigdefault(attr, &def);
    posix_spawnattr_setpgroup(attr, 0);
    posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                       POSIX_SPAWN_SETSIGDEF);
}

rd_status rd_proc_spawn(struct rd_proc *p, const struct rd_proc_opts *o,
                        struct rd_diag *d)
{
    int outp[2] = {-1, -1}, errp[2] = {-1, -1}, devnull = -1;
    rd_status st = RD_OK;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    bool fa_init = false, attr_init = false;
    cpu_set_t saved;
    bool pinned = false;

    p->kill_grace_s = o->kill_grace_s > 0 ? o->kill_grace_s : 1.0;
    size_t cap = o->log_cap ? o->log_cap : RD_LOG_CAP_DEFAULT;
    p->out.log_cap = p->err.log_cap = cap;
    p->out.keep.max = o->keep_stdout;
    p->err.keep.max = o->keep_stderr;
    p->out.metrics = o->metrics;
    p->out.echo = p->err.echo = o->show_output;
    if (o->log_stdout && (p->out.log_fd = open_log(o->log_stdout, d)) < 0)
        return RD_ERR_IO;
    if (o->log_stderr && (p->err.log_fd = open_log(o->log_stderr, d)) < 0)
        return RD_ERR_IO;
    if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) {
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "pipe: %s", strerror(errno));
        goto out;
    }
    /* The read ends only: the child's write ends stay blocking. */
    fcntl(outp[0], F_SETFL, O_NONBLOCK);
    fcntl(errp[0], F_SETFL, O_NONBLOCK);
    fa_init = posix_spawn_file_actions_init(&fa) == 0;
    attr_init = posix_spawnattr_init(&attr) == 0;
    if (!fa_init || !attr_init) {
        st = rd_diag_set(d, RD_ERR_NOMEM, NULL, 0, 0, "posix_spawn setup failed");
        goto out;
    }
    /* Opened here, before the clock, and dup2'd in the child: an addopen
     * would make the child look up and open /dev/null inside the window
     * (strace: close + openat there, where hyperfine's child has a dup2).
     * The fork path (spawn_dying_with_parent) does not read fa and opens
     * its own. */
    devnull = o->die_with_parent ? -1 : open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull >= 0)
        posix_spawn_file_actions_adddup2(&fa, devnull, 0);
    else
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    if (o->cwd)
        posix_spawn_file_actions_addchdir_np(&fa, o->cwd);
    rd_proc_spawnattr_isolate(&attr);
    if (o->cpus) {
        unsigned char mask[128];
        if (!rd_cpulist_parse(o->cpus, mask)) {
            st = rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                             "expected a CPU list like '0-1,3', got '%s'", o->cpus);
            goto out;
        }
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int c = 0; c < CPU_SETSIZE && c < 1024; c++)
            if (mask[c / 8] & (1u << (c % 8)))
                CPU_SET(c, &set);
        if (sched_getaffinity(0, sizeof saved, &saved) < 0 ||
            sched_setaffinity(0, sizeof set, &set) < 0) {
            st = rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "cannot pin to CPUs '%s': %s",
                             o->cpus, strerror(errno));
            goto out;
        }
        pinned = true;
    }
    /* The PATH search before the clock: posix_spawnp would do it in the
     * child, one execve per directory, inside the timed window. When the
     * child has a directory of its own (o->cwd), a relative PATH entry
     * means a folder there, which only the child can look in: then, and
     * when nothing is found (the error is posix_spawnp's, as before),
     * posix_spawnp searches. */
    char found[4096];
    const char *file = o->argv[0];
    const char *path = getenv("PATH");
    bool search = !strchr(file, '/');
    if (search && path && (!o->cwd || path_absolute(path)) &&
        rd_which(file, found, sizeof found)) {
        file = found;
        search = false;
    }
    pid_t pid;
    p->t_start = rd_now();
    int e = o->die_with_parent
                ? spawn_dying_with_parent(&pid, o, file, outp[1], errp[1])
                : (search ? posix_spawnp : posix_spawn)(&pid, file, &fa, &attr, o->argv,
                                                         o->envp ? o->envp : environ);
    if (pinned)
        sched_setaffinity(0, sizeof saved, &saved);
    if (e != 0) {
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot run '%s': %s", o->argv[0],
                         strerror(e));
        goto out;
    }
    p->pid = pid;
    p->pidfd = pidfd_open_(pid);
    p->deadline = o->timeout_s > 0 ? p->t_start + o->timeout_s : 0;
    /* Kept until the reap: see the top of this file. */
    p->held[0] = outp[1];
    p->held[1] = errp[1];
    p->held[2] = devnull; /* a close now would be inside the window */
    outp[1] = errp[1] = devnull = -1;
    p->out.fd = outp[0];
    p->err.fd = errp[0];
    outp[0] = errp[0] = -1;
out:
    if (devnull >= 0)
        close(devnull);
    if (fa_init)
        posix_spawn_file_actions_destroy(&fa);
    if (attr_init)
        posix_spawnattr_destroy(&attr);
    for (int i = 0; i < 2; i++) {
        if (outp[i] >= 0)
            close(outp[i]);
        if (errp[i] >= 0)
            close(errp[i]);
    }
    if (st != RD_OK) {
        if (p->out.log_fd >= 0)
            close(p->out.log_fd);
        if (p->err.log_fd >= 0)
            close(p->err.log_fd);
        p->out.log_fd = p->err.log_fd = -1;
    }
    return st;
}

static void reap(struct rd_proc *p, double now)
{
    if (!p->pid || p->exited)
        return;
    p->t_end = now;
    /* The leader is a zombie, so its pid (= the group id) is still taken:
     * what is left of its group can be killed without hitting a stranger. */
    kill(-p->pid, SIGKILL);
    while (wait4(p->pid, &p->wstatus, 0, &p->ru) < 0 && errno == EINTR)
        ;
    p->exited = true;
    if (p->pidfd >= 0)
        close(p->pidfd);
    p->pidfd = -1;
    /* Now the pipes end when the last process holding them does. */
    release_held(p);
}

/* Without a pidfd (old kernels) exits are found by polling wait4 with
 * WNOWAIT, at the cost of up to a millisecond of wall-time resolution. */
static bool exited_nowait(struct rd_proc *p)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid)
        return true;
    return false;
}

#define RD_DRAIN_AFTER_EXIT_S 2.0

static rd_status poll_once(struct rd_proc *const *procs, size_t n, double max_wait_s,
                           bool honour_interrupt)
{
    struct pollfd fds[3 * 16];
    struct rd_proc *owner[3 * 16];
    int kind[3 * 16];
    size_t nf = 0;
    double now = rd_now();
    double wait = max_wait_s;
    bool nopidfd = false;

    for (size_t i = 0; i < n && nf + 3 <= sizeof fds / sizeof fds[0]; i++) {
        struct rd_proc *p = procs[i];
        if (!p || !p->pid)
            continue;
        if (!p->exited) {
            if (p->deadline && !p->timed_out && p->deadline - now < wait)
                wait = p->deadline - now;
            if (p->kill_at && p->kill_at - now < wait)
                wait = p->kill_at - now;
            if (p->pidfd >= 0) {
                fds[nf] = (struct pollfd){p->pidfd, POLLIN, 0};
                owner[nf] = p;
                kind[nf++] = 0;
            } else {
                nopidfd = true;
            }
        } else if (now <= p->t_end + RD_DRAIN_AFTER_EXIT_S) {
            if (p->t_end + RD_DRAIN_AFTER_EXIT_S - now < wait)
                wait = p->t_end + RD_DRAIN_AFTER_EXIT_S - now;
        } else {
            /* An escaped grandchild holds the pipe open: stop waiting. */
            stream_drain(&p->out);
            stream_drain(&p->err);
            if (p->out.fd >= 0)
                close(p->out.fd);
            if (p->err.fd >= 0)
                close(p->err.fd);
            p->out.fd = p->err.fd = -1;
            continue;
        }
        if (p->out.fd >= 0) {
            fds[nf] = (struct pollfd){p->out.fd, POLLIN, 0};
            owner[nf] = p;
            kind[nf++] = 1;
        }
        if (p->err.fd >= 0) {
            fds[nf] = (struct pollfd){p->err.fd, POLLIN, 0};
            owner[nf] = p;
            kind[nf++] = 2;
        }
    }
    if (nopidfd && wait > 0.001)
        wait = 0.001;
    if (wait < 0)
        wait = 0;
    if (honour_interrupt && rd_proc_interrupted)
        wait = 0;
    sigset_t during;
    sigprocmask(SIG_BLOCK, NULL, &during);
    sigdelset(&during, SIGINT);
    sigdelset(&during, SIGTERM);
    sigdelset(&during, SIGHUP);
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    int r = ppoll(fds, nf, &ts, &during);
    now = rd_now();
    if (r < 0 && errno != EINTR)
        return RD_ERR_IO;
    for (size_t k = 0; r > 0 && k < nf; k++) {
        if (!fds[k].revents)
            continue;
        struct rd_proc *p = owner[k];
        if (kind[k] == 0)
            reap(p, now);
        else
            stream_drain(kind[k] == 1 ? &p->out : &p->err);
    }
    for (size_t i = 0; i < n; i++) {
        struct rd_proc *p = procs[i];
        if (!p || !p->pid || p->exited)
            continue;
        if (p->pidfd < 0 && exited_nowait(p))
            reap(p, now);
        else if (p->deadline && !p->timed_out && now >= p->deadline) {
            p->timed_out = true;
            kill(-p->pid, SIGTERM);
            p->kill_at = now + p->kill_grace_s;
        } else if (p->kill_at && now >= p->kill_at) {
            kill(-p->pid, SIGKILL);
            p->kill_at = 0;
        }
    }
    return RD_OK;
}

rd_status rd_proc_poll(struct rd_proc *const *procs, size_t n, double max_wait_s,
                       struct rd_diag *d)
{
    rd_status st = poll_once(procs, n, max_wait_s, true);
    if (st != RD_OK)
        return rd_diag_set(d, st, NULL, 0, 0, "poll: %s", strerror(errno));
    return RD_OK;
}

bool rd_proc_done(const struct rd_proc *p)
{
    return !p->pid || (p->exited && p->out.fd < 0 && p->err.fd < 0);
}

rd_status rd_proc_wait_all(struct rd_proc *const *procs, size_t n, struct rd_diag *d)
{
    return rd_proc_wait_all_ticking(procs, n, 0, NULL, NULL, d);
}

rd_status rd_proc_wait_all_ticking(struct rd_proc *const *procs, size_t n, double interval_s,
                                   void (*tick)(void *ctx), void *ctx, struct rd_diag *d)
{
    if (!(interval_s > 0))
        tick = NULL;
    double next = tick ? rd_now() + interval_s : 0;
    for (;;) {
        bool all = true;
        for (size_t i = 0; i < n; i++)
            if (procs[i] && !rd_proc_done(procs[i]))
                all = false;
        if (all)
            return RD_OK;
        if (rd_proc_interrupted) {
            for (size_t i = 0; i < n; i++)
                if (procs[i])
                    rd_proc_stop(procs[i], 1.0);
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "interrupted");
        }
        /* Deadlines and signals end the wait; the cap is only a safety net. */
        double wait = 60.0;
        if (tick && procs[0] && !procs[0]->exited) {
            double now = rd_now();
            if (now >= next) {
                tick(ctx);
                /* A tick that ran long is not made up for by a burst. */
                for (now = rd_now(); next <= now;)
                    next += interval_s;
            }
            wait = next - now;
        }
        rd_status st = rd_proc_poll(procs, n, wait, d);
        if (st != RD_OK)
            return st;
    }
}

void rd_proc_stop(struct rd_proc *p, double grace_s)
{
    struct rd_proc *one[1] = {p};
    if (!p->pid)
        return;
    if (!p->exited) {
        p->stopped = true;
        kill(-p->pid, SIGTERM);
        double until = rd_now() + grace_s;
        while (!p->exited && rd_now() < until)
            poll_once(one, 1, 0.05, false);
        if (!p->exited)
            kill(-p->pid, SIGKILL);
        while (!p->exited)
            poll_once(one, 1, 0.05, false);
    }
    while (!rd_proc_done(p))
        poll_once(one, 1, 0.05, false);
}

rd_status rd_proc_run_capture(struct rd_proc *p, char *const *argv, const char *cwd,
                              double timeout_s, size_t keep, struct rd_diag *d)
{
    struct rd_proc_opts o = {.argv = argv, .cwd = cwd, .keep_stdout = keep,
                             .keep_stderr = keep, .timeout_s = timeout_s};
    rd_proc_init(p);
    RD_TRY(rd_proc_spawn(p, &o, d));
    struct rd_proc *one[1] = {p};
    rd_status st = rd_proc_wait_all(one, 1, d);
    if (st)
        rd_proc_release(p);
    return st;
}

void rd_proc_release(struct rd_proc *p)
{
    if (p->pid && !p->exited)
        rd_proc_stop(p, 1.0);
    if (p->pidfd >= 0)
        close(p->pidfd);
    p->pidfd = -1;
    release_held(p);
    rd_stream_release(&p->out);
    rd_stream_release(&p->err);
}

double rd_proc_wall_ms(const struct rd_proc *p)
{
    return (p->t_end - p->t_start) * 1000.0;
}

int rd_proc_exit_code(const struct rd_proc *p)
{
    if (!p->exited)
        return -1;
    if (WIFEXITED(p->wstatus))
        return WEXITSTATUS(p->wstatus);
    if (WIFSIGNALED(p->wstatus))
        return 128 + WTERMSIG(p->wstatus);
    return -1;
}

void rd_proc_describe_exit(const struct rd_proc *p, char *out, size_t size)
{
    if (!p->exited)
        snprintf(out, size, "still running");
    else if (WIFEXITED(p->wstatus))
        snprintf(out, size, "exit status %d", WEXITSTATUS(p->wstatus));
    else if (WIFSIGNALED(p->wstatus))
        snprintf(out, size, "killed by signal %d (%s)", WTERMSIG(p->wstatus),
                 strsignal(WTERMSIG(p->wstatus)));
    else
        snprintf(out, size, "ended with wait status %d", p->wstatus);
}

bool rd_which(const char *prog, char *out, size_t size)
{
    struct stat st;
    if (!prog || !*prog)
        return false;
    if (strchr(prog, '/')) {
        snprintf(out, size, "%s", prog);
        return access(prog, X_OK) == 0 && stat(prog, &st) == 0 && S_ISREG(st.st_mode);
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(out, size, "%.*s%s%s", (int)len, path, len ? "/" : "", prog);
        if (access(out, X_OK) == 0 && stat(out, &st) == 0 && S_ISREG(st.st_mode))
            return true;
        path += len;
        if (*path == ':')
            path++;
    }
    return false;
}

/* Our children as /proc lists them; at most max. */
static size_t list_children(pid_t *kids, size_t max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    FILE *f = fopen(path, "re");
    size_t n = 0;
    if (!f)
        return 0;
    long pid;
    while (n < max && fscanf(f, "%ld", &pid) == 1)
        kids[n++] = (pid_t)pid;
    fclose(f);
    return n;
}

static void note_stray(struct rd_strays *out, pid_t pid)
{
    char comm[64] = "?", path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    FILE *f = fopen(path, "re");
    if (f) {
        if (fgets(comm, sizeof comm, f))
            comm[strcspn(comm, "\n")] = '\0';
        fclose(f);
    }
    size_t len = strlen(out->what);
    if (len + 40 + strlen(comm) < sizeof out->what)
        snprintf(out->what + len, sizeof out->what - len, "%spid %d (%s)", len ? ", " : "",
                 (int)pid, comm);
    out->count++;
}

/* The state letter and process group of pid from /proc/PID/stat; false
 * when it is gone. */
static bool proc_state(pid_t pid, char *state, pid_t *pgrp)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* After the command's closing parenthesis (which may hold any byte). */
    const char *p = strrchr(buf, ')');
    long ppid, pg;
    if (!p || sscanf(p + 1, " %c %ld %ld", state, &ppid, &pg) != 3)
        return false;
    *pgrp = (pid_t)pg;
    return true;
}

void rd_proc_kill_strays(double grace_s, pid_t group, struct rd_strays *out)
{
    pid_t kids[256];
    bool member[256];
    /* Rounds: a killed stray's own children come to us next. */
    for (int round = 0; round < 64; round++) {
        size_t n = list_children(kids, sizeof kids / sizeof kids[0]);
        if (n == 0)
            return;
        for (size_t i = 0; i < n; i++) {
            char state = '?';
            pid_t pg = 0;
            bool alive = proc_state(kids[i], &state, &pg) && state != 'Z' && state != 'X';
            /* A worker of the stopped group has its SIGTERM already; one
             * that has ended (or that the leader's reap killed with the
             * group) is only reaped. */
            member[i] = group > 0 && (!alive || pg == group);
            if (member[i])
                continue;
            if (out)
                note_stray(out, kids[i]);
            kill(kids[i], SIGTERM);
        }
        double until = rd_now() + grace_s;
        for (size_t i = 0; i < n; i++) {
            while (waitpid(kids[i], NULL, WNOHANG) == 0) {
                if (rd_now() >= until) {
                    if (member[i] && out)
                        note_stray(out, kids[i]);
                    kill(kids[i], SIGKILL);
                    while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
                        ;
                    break;
                }
                usleep(10000);
            }
        }
    }
}
