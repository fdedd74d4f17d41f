/*
 * timedruns.h - the loop of `rundown-collect run`: timed runs of one or
 * more commands, the job hyperfine does, each stored through a session.
 *
 * Several commands are run interleaved, A B C A B C, so that drift over
 * the session (heat, a background job) spreads over all of them instead of
 * biasing the last.
 */
#ifndef RUNDOWN_TIMEDRUNS_H
#define RUNDOWN_TIMEDRUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"
#include "rundown/status.h"

/** One command and the session config its runs are stored as. */
struct rd_timed_command {
    char *const *argv;
    struct rd_session_config *config;
};

struct rd_timed_spec {
    const struct rd_timed_command *cmds;
    size_t ncmds;
    long warmups, runs;     /* per command */
    bool top_up;            /* runs is the number of measured runs each
                               config should have in the store: only the
                               missing ones are run (--resume) */
    double timeout_s;       /* per run; 0: none */
    int sample_ms;          /* tree sampling interval; 0: default, < 0: none */
    const char *prepare;    /* sh -c before each run, untimed; NULL: none */
    const char *cleanup;    /* sh -c after each run, untimed; NULL: none */
    const char *cpus;       /* pin every run; NULL: no pinning */
    const char *log_dir;    /* keep each run's output here; NULL: none */
    const char *log_shown;  /* log_dir as records name it; NULL: log_dir */
    bool ignore_failure;    /* a non-zero exit is stored with status ok (-i) */
    bool show_output;       /* each run's output to stderr too (--show-output) */
    struct rd_guard *guard; /* waits for quiet before each run and judges
                               it (contention.h); NULL: none */
    /* out: measured runs run again because they came out contended, and
     * the commands that reached the cap on them (as many as 'runs') */
    long redone, capped;
};

/**
 * Runs 'warmups' rounds (phase warmup) then 'runs' rounds (phase measure);
 * a round runs every command once, in order. With top_up a command whose
 * config already has k measured runs (in the store the session read, of
 * any status) gets runs - k of them, and its warmups only when it gets
 * any; the rounds then skip the commands that are done. Each run is numbered by its
 * config, reported as a step (RD_SESSION_STARTING; steps are all the runs)
 * and stored the moment it ends. Logs are "<workload>/<label values>-
 * [warmup-]<run>" under log_dir. A failed or timed-out run is data; the
 * first error that stops the loop is returned (an interrupt: RD_ERR_IO,
 * d "interrupted", rd_proc_interrupted set), the runs before it stored.
 * With a guard, a measured run that came out contended is stored as it is
 * and its command gets one more measured run, at most 'runs' more in all,
 * so it still reaches its runs with quiet ones; those run after the
 * rounds, in command order.
 */
rd_status rd_timed_runs(struct rd_session *s, struct rd_timed_spec *spec,
                        struct rd_diag *d);

#endif
