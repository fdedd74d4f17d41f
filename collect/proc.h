/*
 * proc.h - child processes for timed runs: spawn into a new process group,
 * capture output through pipes (size-capped logs, rundown:metric lines),
 * time out, reap with wait4. Sampling a process tree is treesampler.h.
 *
 * Every child is the leader of its own process group, so a timeout, a stop
 * or an interrupt reaches the whole tree it started (cluster workers,
 * `sh -c` pipelines) with one kill(-pgid). A child's exit is observed through
 * a pidfd while it is still a zombie: the group is then killed before the
 * leader is reaped, so the group id cannot have been reused by then.
 *
 * Nothing here prints; errors fill struct rd_diag.
 */
#ifndef RUNDOWN_PROC_H
#define RUNDOWN_PROC_H

#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "metricscan.h"
#include "rundown/buf.h"
#include "rundown/status.h"

/** Set by the handlers of rd_proc_catch_signals() to the number of the
 *  first signal caught (0: none); polled by every loop. */
extern volatile sig_atomic_t rd_proc_interrupted;

/**
 * Installs handlers for SIGINT, SIGTERM and SIGHUP that only set
 * rd_proc_interrupted, so waits end promptly and the caller can stop its
 * children before exiting; a signal inherited as ignored (nohup, `trap ''
 * HUP`) stays ignored, the rule of rd_cleanup_on_signals (fsutil.h).
 * SIGPIPE and SIGXFSZ are ignored: a write past `ulimit -f` then fails
 * with EFBIG and the store's rollback runs. Call it before the first child
 * starts (a version probe, a --prepare command): a child started earlier
 * would outlive a signal that ends rundown.
 */
void rd_proc_catch_signals(void);

/**
 * The exit code for an interrupted command: 128 + the signal caught (130
 * SIGINT, 143 SIGTERM, 129 SIGHUP), as a shell reports a process killed by
 * it; 130 when no signal was recorded.
 */
int rd_proc_interrupt_exit_code(void);

/** Seconds on CLOCK_MONOTONIC. */
double rd_now(void);

/** One output stream of a child: a pipe, copied to a capped log file. */
struct rd_stream {
    int fd;              /* read end of the pipe, -1 once closed */
    int log_fd;          /* -1: no log */
    size_t log_cap;      /* bytes written to the log at most */
    size_t logged;       /* bytes written so far */
    size_t dropped;      /* bytes read past log_cap */
    int log_errno;       /* the first write to the log that failed (0: none);
                            later bytes are not written */
    size_t lost;         /* bytes under log_cap not written because of it */
    struct rd_buf keep;  /* the first keep.max bytes, when keep.max > 0 */
    struct rd_buf tail;  /* the last RD_TAIL_BYTES bytes (messages) */
    bool metrics;        /* scan rundown:metric lines into scan */
    bool echo;           /* also copy the bytes to standard error (run's
                            --show-output); best effort, never an error */
    struct rd_metric_scan scan;
};

/** An empty stream with no pipe and no log (fd and log_fd -1). */
void rd_stream_init(struct rd_stream *s);
/**
 * Takes bytes read from a child: into the capped log, the kept prefix, the
 * tail and, with s->metrics, the scanner of "rundown:metric NAME=VALUE"
 * lines, which may arrive split across any number of calls. Public for the
 * fuzz target of that scanner (the output of a benchmarked command is data).
 */
void rd_stream_consume(struct rd_stream *s, const char *data, size_t n);
/** The end of the stream: a last line without '\n' is scanned too. */
void rd_stream_end(struct rd_stream *s);
/** Closes what is open and frees the buffers and metrics. */
void rd_stream_release(struct rd_stream *s);

#define RD_TAIL_BYTES 2048
#define RD_LOG_CAP_DEFAULT ((size_t)1 << 20)

struct rd_proc_opts {
    char *const *argv;      /* argv[0] is searched on PATH when it has no '/' */
    char *const *envp;      /* NULL: the current environment */
    const char *cwd;        /* NULL: the current directory */
    const char *cpus;       /* CPU list to pin to ("0-1,3"), NULL: no pinning */
    const char *log_stdout; /* log files (created/truncated), NULL: none */
    const char *log_stderr;
    size_t log_cap;         /* 0: RD_LOG_CAP_DEFAULT */
    size_t keep_stdout;     /* bytes of stdout kept in memory (importers) */
    size_t keep_stderr;
    bool metrics;           /* parse rundown:metric lines on stdout */
    bool show_output;       /* copy stdout and stderr to our stderr too */
    double timeout_s;       /* 0: none */
    double kill_grace_s;    /* SIGTERM → SIGKILL delay on timeout; 0: 1 s */
    bool die_with_parent;   /* SIGKILL the child when rundown dies (servers,
                               load and background commands; see proc.c) */
};

struct rd_proc {
    pid_t pid;              /* 0 before spawn and after reaping */
    int pidfd;
    double t_start, t_end;  /* rd_now() around the process's life */
    double deadline;        /* 0: none */
    double kill_at;         /* when SIGKILL follows SIGTERM, 0: not yet */
    double kill_grace_s;
    bool exited;            /* reaped: status and ru are valid */
    bool timed_out;
    bool stopped;           /* terminated by rd_proc_stop */
    int wstatus;
    struct rusage ru;
    struct rd_stream out, err;
    int held[3];            /* the pipes' write ends, kept open until the
                               reap (-1: none): the child's exit is then
                               seen by its pidfd, never first as the end
                               of a pipe (see proc.c); and the /dev/null
                               its stdin was dup2'd from, closed then too */
};

/** What rd_proc_kill_strays() found and killed. */
struct rd_strays {
    int count;
    char what[400];  /* "pid 123 (python3), pid 130 (sleep)", cut to fit */
};

/**
 * Kills every child of this process: called when everything rundown tracks
 * has been stopped and reaped, so any child left is a process a server (or
 * its load or background command) started that escaped its process group
 * and was re-parented to rundown, a child subreaper (set by the front end:
 * PR_SET_CHILD_SUBREAPER). Each gets SIGTERM, then SIGKILL after grace_s,
 * and is reaped; the children they leave are re-parented here too, and
 * killed in the next round. out (when not NULL) says which were killed.
 *
 * 'group' is the server's process group when rd_proc_stop stopped it
 * (sent the group SIGTERM; 0 when the server ended by itself, or for
 * none). Then a child in that group is one of its workers on its way out,
 * re-parented here because the leader ended first (Node's cluster, a
 * pre-fork server): it is given grace_s to end and is noted only when it
 * has to be SIGKILLed; a child already ended (a zombie, perhaps killed with
 * the group when the leader was reaped) is reaped and not noted. A server
 * that ended by itself stopped nothing: whatever it left is noted.
 */
void rd_proc_kill_strays(double grace_s, pid_t group, struct rd_strays *out);

/** Zeroes p so that rd_proc_release() is safe before any spawn. */
void rd_proc_init(struct rd_proc *p);

/**
 * Sets attr up for a timed command as rd_proc_spawn starts it: the leader
 * of a new process group, an empty signal mask, and default dispositions
 * for every signal (those rundown catches or ignores, SIGINT, SIGTERM,
 * SIGHUP, SIGPIPE, SIGXFSZ, and any its parent ignored). Public so that bench/spawn_variants.c times the very
 * attributes the runner uses.
 */
void rd_proc_spawnattr_isolate(posix_spawnattr_t *attr);

/**
 * Starts a child in a new process group with stdin from /dev/null and
 * stdout/stderr on pipes. On RD_OK p->pid is set; on failure (program not
 * found, pipes, log files) nothing is left running.
 */
rd_status rd_proc_spawn(struct rd_proc *p, const struct rd_proc_opts *o,
                        struct rd_diag *d);

/**
 * Waits for events on all running procs (output, exits, deadlines) for at
 * most max_wait_s seconds and handles them: reads output, kills a timed-out
 * group (SIGTERM, then SIGKILL), reaps exited leaders (killing what is left
 * of their group first). Returns early when a child exits or
 * rd_proc_interrupted is set. NULL entries are skipped.
 */
rd_status rd_proc_poll(struct rd_proc *const *procs, size_t n, double max_wait_s,
                       struct rd_diag *d);

/** True when p has been reaped and both of its pipes are drained. */
bool rd_proc_done(const struct rd_proc *p);

/**
 * Waits until every proc is done (see rd_proc_done) or interrupted; then
 * RD_ERR_IO with "interrupted" (the procs are stopped first).
 */
rd_status rd_proc_wait_all(struct rd_proc *const *procs, size_t n, struct rd_diag *d);

/**
 * rd_proc_wait_all, calling tick(ctx) every interval_s seconds (the first
 * time interval_s after the call) for as long as procs[0] has not exited:
 * what samples a process while it runs. tick NULL: no ticks.
 */
rd_status rd_proc_wait_all_ticking(struct rd_proc *const *procs, size_t n, double interval_s,
                                   void (*tick)(void *ctx), void *ctx, struct rd_diag *d);

/**
 * Stops a running proc: SIGTERM to its group, up to grace_s seconds for the
 * leader to exit, then SIGKILL to the group; reaps it and drains its pipes.
 * No-op once reaped.
 */
void rd_proc_stop(struct rd_proc *p, double grace_s);

/**
 * Runs argv (in cwd; NULL: here) to its end, for at most timeout_s (0: no
 * limit), keeping the first 'keep' bytes of its stdout and of its stderr
 * in p->out.keep and p->err.keep: a short command whose answer is read
 * (a version, sinfo). p is initialised here; on RD_OK it has exited (or
 * timed out: p->timed_out), and the caller reads it and frees it with
 * rd_proc_release. On failure (not found, interrupted) p needs no release.
 */
rd_status rd_proc_run_capture(struct rd_proc *p, char *const *argv, const char *cwd,
                              double timeout_s, size_t keep, struct rd_diag *d);

/** Frees buffers, closes fds; stops the proc first if it still runs. */
void rd_proc_release(struct rd_proc *p);

/** Wall time in milliseconds (valid once exited). */
double rd_proc_wall_ms(const struct rd_proc *p);

/** The exit code, or 128 + signal when killed, -1 when not exited. */
int rd_proc_exit_code(const struct rd_proc *p);

/** "exit status 3", "killed by signal 9 (Killed)" into out. */
void rd_proc_describe_exit(const struct rd_proc *p, char *out, size_t size);

/**
 * Parses a CPU list ("0", "0-3", "0,2,5-6") into a bitmask of CPUs below
 * 1024. Returns false on a malformed list.
 */
bool rd_cpulist_parse(const char *s, unsigned char mask[128]);

/**
 * Finds a program the way posix_spawnp will: a name with a '/' must be an
 * executable file; otherwise the first executable match on PATH. The full
 * path goes to out. False when there is none.
 */
bool rd_which(const char *prog, char *out, size_t size);

#endif
