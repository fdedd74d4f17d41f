/*
 * suiterun.h - carrying out a suite's plan: the environment it records and
 * the runs of its items, each stored through a session.
 *
 * The front end (collect/tool/cmd_suite.c) loads and checks the suite,
 * builds and filters the plan, opens the session and prints; this module
 * runs what is left. Each (workload, config) is one session config, made
 * when its first item comes up: its template is the record every run of
 * it carries (rd_suite_record, the environment id, the expanded commands).
 */
#ifndef RUNDOWN_SUITERUN_H
#define RUNDOWN_SUITERUN_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"
#include "session.h"
#include "settle.h"
#include "suite.h"
#include "rundown/status.h"

/**
 * Captures the environment of the workloads with keep[w] true (the
 * versions of their runtimes and load tools, their CPU pinning; the
 * pre-flight check judged by the remembered best in speed_memory, as
 * rd_env_capture) and writes it as DIR/<id>.json unless that file exists;
 * the id goes to id.
 */
rd_status rd_suite_capture_env(const struct rd_suite *s, const bool *keep, const char *dir,
                               const char *speed_memory, char *id, size_t idsize,
                               struct rd_diag *d);

/** Where and how a plan is run. */
struct rd_suite_run {
    const struct rd_suite *suite;
    const struct rd_plan *plan;
    struct rd_session *session;  /* the store; its index when resuming */
    const char *envid;           /* the runs' environment id; NULL: none */
    const char *log_dir;         /* "<log_dir>/<workload>/<config>-..." */
    const char *log_shown;       /* log_dir as records name it ("logs",
                                    relative to the store's folder) */
    /* --budget: no round starts once this many seconds have passed since
     * the first (the round in flight finishes); 0: no budget. Rounds then
     * go where decisions are still open (docs/suite.md, "Time budget"). */
    double budget_s;
    /* Out, one per workload (or NULL): why its collection stopped, for
     * workloads with "until": "settled" that the plan holds. */
    enum rd_settle_stop *stopped;
    bool budget_spent;           /* out: the budget ended the suite */
    /* Out, one per workload (or NULL): configs the race eliminated as
     * slower than the best (stats/settle.h, rd_settle_race). */
    size_t *eliminated;
    /* Waits for quiet before every run (warmups too) and judges each
     * (contention.h); a measured run that came out contended gets one more
     * run of its config, at most as many as the workload's runs. NULL:
     * none. */
    struct rd_guard *guard;
    long redone;                 /* out: runs made again for that */
    bool redo_capped;            /* out: a config reached the cap */
};

/**
 * Runs the plan: without adaptive workloads or a budget every item in
 * order. A workload with "until": "settled" runs round by round (one run
 * of every config still open), and after each round each config's mean
 * is checked against the stopping rule (stats/settle.h) on everything
 * the store and this session hold of it; a config stops once settled or
 * once the race shows it slower than the best (eliminated), a workload
 * once none is open. With a budget, every workload first gets
 * its warmups and minimum rounds in file order, then each round goes to
 * the workload whose round narrows its widest open interval most per
 * second of its contenders' runs. Each
 * item runs as a step
 * (RD_SESSION_STARTING, with no record: a server item stores several) and
 * storing every run as it ends. A warmup of a server item already in the
 * session's store runs again but is not stored twice. Failed runs are
 * data; the first error that stops the plan is returned (an interrupt:
 * RD_ERR_IO, d "interrupted", rd_proc_interrupted set).
 */
rd_status rd_suite_run_plan(struct rd_suite_run *run, struct rd_diag *d);

/**
 * Seconds one measured run of workload w takes, estimated from the
 * records kept by the session (rd_session_keep_records before reading the
 * store): the mean wall_ms of its measured runs, or for a server workload
 * the load run's load_wall_ms times its warmups + 1 plus its warmup_load.
 * NaN when the store holds no run of it.
 */
double rd_suite_run_seconds(const struct rd_suite *s, size_t w, const struct rd_session *session);

#endif
