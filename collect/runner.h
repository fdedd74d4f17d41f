/*
 * runner.h - one timed run of a command, and one server-under-load session,
 * each turned into run records.
 *
 * The caller prepares a template record (suite, workload, config labels,
 * info, env); the runner fills what the run measured: started_at, status,
 * exit_code, metrics, info.error, source logs. A failed or timed-out run is
 * data (RD_OK with status "failed"/"timeout"); an error status means the run
 * could not be carried out at all (a log folder that cannot be written, an
 * interrupt — then d says "interrupted" and rd_proc_interrupted is set).
 */
#ifndef RUNDOWN_RUNNER_H
#define RUNDOWN_RUNNER_H

#include <stdbool.h>

#include "contention.h"
#include "proc.h"
#include "rundown/record.h"
#include "rundown/status.h"

/** Metric names the runner measures itself; a workload cannot overwrite them. */
bool rd_runner_reserved_metric(const char *name);

/** Appends "2026-11-30T01:02:03.123Z" (now, UTC) to out (32 bytes). */
void rd_runner_timestamp(char out[32]);

/** The longest slug: room under NAME_MAX (255) for a stem's suffixes. */
#define RD_SLUG_MAX 160

/**
 * Turns a string into a file-name-safe slug in out: letters, digits, '.',
 * '_' and '-' are kept, every other byte becomes %XX, so different values
 * never share a name. A slug that would exceed RD_SLUG_MAX bytes (or size)
 * is cut at a whole escape and ends in '-' and 12 hex digits of the
 * name's FNV-1a hash; the record keeps the full name. Returns out.
 */
char *rd_runner_slug(const char *s, char *out, size_t size);

/**
 * The part of a log file name that names a config: its label values,
 * each slugged, joined by '-' and cut to RD_CONFIG_STEM_PREFIX bytes, then
 * '-' and 12 hex digits of the FNV-1a digest of its config id, so that
 * configs whose values join the same way ((x=a-b, y=c) and (x=a, y=b-c))
 * never share a log file; "run" for a config without labels. 'tmpl' holds
 * the labels, 'config_id' is rd_record_config_id's. Returns out.
 */
char *rd_runner_config_stem(const struct rd_record *tmpl, const char *config_id, char *out,
                            size_t size);
#define RD_CONFIG_STEM_PREFIX 80

/** Log files of one run: "<dir>/<stem>.stdout.txt" and ".stderr.txt". */
struct rd_run_logs {
    const char *dir;    /* created when missing; NULL: no logs */
    const char *stem;   /* file stem inside dir, may contain '/' */
    const char *shown;  /* dir as records name it (relative to the store's
                           folder, "logs"); NULL: dir itself */
};

struct rd_command_spec {
    char *const *argv;
    char *const *envp;      /* NULL: inherit */
    const char *cwd;        /* NULL: inherit */
    const char *cpus;       /* NULL: no pinning */
    double timeout_s;       /* 0: none */
    int sample_ms;          /* the tree's memory every sample_ms ms; 0:
                               RD_TREE_SAMPLE_MS_DEFAULT, < 0: not sampled */
    const char *prepare;    /* run with sh -c before the run, untimed; NULL: none */
    const char *cleanup;    /* run with sh -c after the run, untimed; NULL: none */
    struct rd_run_logs logs;
    struct rd_guard *guard; /* takes the foreign load around the run (the
                               caller waits for quiet before); NULL: none */
    bool show_output;       /* the command's output to our stderr too */
};

/**
 * Runs the command once and fills rec (which the caller initialised: its
 * workload, config and info are kept). Metrics: wall_ms (CLOCK_MONOTONIC,
 * from just before posix_spawn to the exit), user_ms, sys_ms, max_rss_kib
 * (wait4), tree_rss_peak_kib (the process tree sampled from /proc, never
 * below max_rss_kib; info.tree_rss_method and tree_rss_samples say how),
 * and every rundown:metric line of stdout. tool is "rundown".
 */
rd_status rd_runner_command(const struct rd_command_spec *spec, struct rd_record *rec,
                            struct rd_diag *d);

struct rd_http_spec {
    char *const *server_argv;
    char *const *load_argv;
    char *const *background_argv;  /* NULL: none */
    char *const *envp;             /* NULL: inherit */
    const char *cwd;
    const char *server_cpus, *load_cpus, *background_cpus;
    const char *url;               /* for info; host and port come from ready_url */
    const char *ready_url;
    double ready_timeout_s;        /* 0: 30 */
    double stop_timeout_s;         /* 0: 5 */
    double timeout_s;              /* per load run; 0: none */
    double warmup_load_s;          /* built-in GET traffic before the first load run */
    int warmups;                   /* load runs stored as phase "warmup" */
    const char *load_tool;         /* importer name; NULL: detect from the output */
    struct rd_run_logs logs;       /* stem gets -server, -r<N>-load, ... appended */
    struct rd_strays *strays;      /* out (NULL: not wanted): processes the server
                                      left running, killed after it stopped */
    struct rd_guard *guard;        /* waits for quiet before each load run and
                                      takes the foreign load around it; NULL: none */
    /* Called before each wait for quiet (after = false) and after it
     * (after = true); NULL: none. The caller's store lock is let go for
     * the wait and taken again (rd_session_lend), so a session waiting up
     * to --contention-wait keeps no other writer of its store waiting. */
    rd_status (*around_wait)(void *ctx, bool after, struct rd_diag *d);
    void *around_ctx;
};

/* The open files rundown-collect needs besides standard input, output and
 * error (rd_fds_check before anything is made): the smallest `ulimit -n`
 * at which `run -r 2 true` stores its runs is 12, and at which `http -n 2`
 * with `python3 -m http.server` and `cat` as the load does, 22 (measured
 * 2026-12-02), with one more open at the check than the standard three;
 * a suite's server workloads are http's. */
#define RD_RUN_FDS 8
#define RD_HTTP_FDS 18

/** The load timeout of `http` without --timeout when the load command's
 *  duration cannot be read: the suite's default timeout. */
#define RD_LOAD_TIMEOUT_DEFAULT_S 600.0

/**
 * The default timeout of one load run of `http`: twice the duration the
 * load command asks for plus 60 s, read from its options (-d/--duration,
 * as wrk, bombardier, autocannon and k6 spell it; -z as hey and oha; a
 * bare number is seconds), or RD_LOAD_TIMEOUT_DEFAULT_S when none is given
 * or readable. A hung load tool then ends as a timed-out run instead of
 * holding the session until rundown is signalled.
 */
double rd_load_default_timeout(char *const *argv);

/**
 * The note for processes a server left running ("the server left 2
 * processes running after it stopped; killed them: pid ..."), in buf.
 */
const char *rd_strays_note(const struct rd_strays *st, char *buf, size_t size);

/** Called with each finished record, so it can be stored at once. */
typedef rd_status (*rd_emit_fn)(void *ctx, const struct rd_record *rec, struct rd_diag *d);

/**
 * One server session: checks the port is free, starts the server in its own
 * process group, waits until ready_url answers, sends warmup_load_s of
 * traffic, runs the load command 'warmups' times (phase warmup, run numbers
 * first_warmup, first_warmup+1, ...) and 'nruns' times (phase measure, run
 * numbers first_run, ...), each read by its importer while the server's
 * process tree is sampled, then stops the server and waits for the port.
 * Each record is a copy of tmpl plus the run's results, passed to emit.
 * A server that never becomes ready or crashes gives failed records for the
 * runs it could not serve and RD_ERR_RUN_FAILED with the reason and the tail
 * of its log in d. The port already in use: RD_ERR_IO before anything runs.
 * skip_warmup(ctx, run) may say a warmup need not be emitted (already
 * stored); it still runs. No process is left running on any return.
 */
rd_status rd_runner_http_session(const struct rd_http_spec *spec, const struct rd_record *tmpl,
                                 long first_warmup, long first_run, int nruns,
                                 rd_emit_fn emit, bool (*skip_warmup)(void *ctx, long run),
                                 void *ctx, struct rd_diag *d);

/**
 * Appends argv[0..n) (fewer when a NULL comes first; n SIZE_MAX for a
 * NULL-terminated argv) joined by single blanks: the text a record keeps
 * of a command in info.command, info.server, info.load.
 */
rd_status rd_argv_join(char *const *argv, size_t n, struct rd_buf *out);

/** Copies every field of src into dst (initialised on its own arena). */
rd_status rd_record_copy(struct rd_record *dst, const struct rd_record *src);

#endif
