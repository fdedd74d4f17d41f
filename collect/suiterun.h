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
#include "suite.h"
#include "rundown/status.h"

/**
 * Captures the environment of the workloads with keep[w] true (the
 * versions of their runtimes and load tools, their CPU pinning) and writes
 * it as DIR/<id>.json unless that file exists; the id goes to id.
 */
rd_status rd_suite_capture_env(const struct rd_suite *s, const bool *keep, const char *dir,
                               char *id, size_t idsize, struct rd_diag *d);

/** Where and how a plan is run. */
struct rd_suite_run {
    const struct rd_suite *suite;
    const struct rd_plan *plan;
    struct rd_session *session;  /* the store; its index when resuming */
    const char *envid;           /* the runs' environment id; NULL: none */
    const char *log_dir;         /* "<log_dir>/<workload>/<config>-..." */
    const char *log_shown;       /* log_dir as records name it ("logs",
                                    relative to the store's folder) */
};

/**
 * Runs every item of the plan in order, reporting each as a step
 * (RD_SESSION_STARTING, with no record: a server item stores several) and
 * storing every run as it ends. A warmup of a server item already in the
 * session's store runs again but is not stored twice. Failed runs are
 * data; the first error that stops the plan is returned (an interrupt:
 * RD_ERR_IO, d "interrupted", rd_proc_interrupted set).
 */
rd_status rd_suite_run_plan(const struct rd_suite_run *run, struct rd_diag *d);

#endif
