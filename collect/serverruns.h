/*
 * serverruns.h - the loop of `rundown-collect http`: load runs against a
 * server under test, in one server session or a fresh server per run,
 * each record stored through a session.
 */
#ifndef RUNDOWN_SERVERRUNS_H
#define RUNDOWN_SERVERRUNS_H

#include <stdbool.h>

#include "runner.h"
#include "session.h"
#include "rundown/status.h"

/**
 * Runs 'runs' measured load runs of cfg against the server of spec (whose
 * logs.dir, warmups and the rest the caller set; logs.stem is set here):
 * in one server session, or with fresh_server one session per measured
 * run, each with spec->warmups warmups first. Warmups and runs are numbered
 * after cfg's stored ones; logs are "<workload>/session-<first run>-...".
 * Every record, failed runs included, is stored as it ends; a server that
 * fails is data too (RD_OK). An error that stops the sessions is returned
 * (an interrupt: RD_ERR_IO, d "interrupted"); the server is stopped.
 *
 * With spec->guard, a measured run that comes out contended is made again
 * (as `run` does): the redos of a session go into one more session (or
 * fresh servers), at most 'runs' redos in all; *redos says how many and
 * whether the cap stopped them. The guard's wait before a session's first
 * run comes before the store's lock.
 */
struct rd_redos {
    long redone;  /* measured runs made again because of contention */
    bool capped;  /* contended runs were left when the cap was reached */
};

rd_status rd_server_runs(struct rd_session *s, struct rd_session_config *cfg,
                         struct rd_http_spec *spec, long runs, bool fresh_server,
                         struct rd_redos *redos, struct rd_diag *d);

#endif
