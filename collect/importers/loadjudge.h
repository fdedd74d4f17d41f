/*
 * loadjudge.h - the one judge of a load run: "ok" or "failed", and why.
 *
 * Every importer of an HTTP load tool (wrk, wrk2, hey, ab, autocannon,
 * bombardier, oha, k6) ends each run here. It reads what its tool counted
 * into a struct rd_load_tally - in the terms every load record shares
 * (completed requests, 2xx responses, failed requests by kind, non-2xx
 * responses) plus the few things only that tool counts - and
 * rd_load_judge() sets the record's status and, for a failed run, info
 * "failure" saying why ("socket errors: read 236; no completed requests").
 *
 * The rule and its words live here only, so a run of any tool fails for the
 * same reasons and says so the same way, and the runner can pass the reason
 * on instead of an exit status. The judge stores no metric: the counts stay
 * wherever the importer stored them (failures are data).
 */
#ifndef RUNDOWN_LOADJUDGE_H
#define RUNDOWN_LOADJUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/record.h"
#include "rundown/status.h"

/** A count or a fact of one tool, with the words the failure uses for it. */
struct rd_load_term {
    const char *what;  /* "mismatched responses", "no latency statistics" */
    double count;      /* shown as "what: count"; NAN: a fact, shown as "what" */
    const char *shown; /* the count as the tool printed it ("2k"), or NULL */
};

/* The most terms of each kind a tally holds; no importer needs more than 2. */
#define RD_LOAD_MAX_TERMS 4

/**
 * A load run as its tool counted it. Start from rd_load_tally_init() (or
 * rd_load_tally_from_metrics()) and set what the tool reports; a count the
 * tool does not report stays 0 (failed requests) or NAN (requests,
 * responses_2xx: "not counted", which judges nothing). Strings are borrowed
 * and must outlive rd_load_judge().
 */
struct rd_load_tally {
    double requests;      /* completed requests; 0 fails the run */
    double responses_2xx; /* 2xx responses; 0 fails the run */
    /* Failed requests by kind: the common metrics errors_connect ... */
    double errors_connect, errors_read, errors_write, errors_timeout, errors_other;
    double non_2xx;
    /* Failed requests the kinds above do not cover (autocannon's mismatched
     * bodies, k6's failed requests): rd_load_add_failed(). */
    struct rd_load_term failed[RD_LOAD_MAX_TERMS];
    size_t nfailed;
    /* What fails the run whatever its request counts (k6's thresholds, a
     * missing statistics block): rd_load_add_reason(), rd_load_add_fact(). */
    struct rd_load_term reasons[RD_LOAD_MAX_TERMS];
    size_t nreasons;
    /* A term that did not fit: it still fails the run, unnamed. */
    bool unnamed;
    /* The tool stopped without a report, and this - its message - is the
     * whole failure ("unable to connect to 127.0.0.1:1 Connection
     * refused"); NULL when it reported. */
    const char *stopped;
};

/** Clears t: no failure counted, requests and responses_2xx not counted. */
void rd_load_tally_init(struct rd_load_tally *t);

/**
 * Fills t from r's common metrics (requests, errors_connect, errors_read,
 * errors_write, errors_timeout, errors_other, non_2xx), for the importers
 * whose tools print all of them (wrk, wrk2, hey, ab). A missing or NaN
 * `requests` counts as none completed: those tools always print it.
 */
void rd_load_tally_from_metrics(struct rd_load_tally *t, const struct rd_record *r);

/**
 * Adds a count of failed requests of the tool's own kind ("mismatched
 * responses") when count > 0; 'shown', when not NULL, is the count as the
 * tool printed it (a rounded "2k").
 */
void rd_load_add_failed(struct rd_load_tally *t, const char *what, double count,
                        const char *shown);

/**
 * Adds a reason the run failed whatever its request counts, counted by the
 * tool ("failed checks: 3"), when count > 0; 'shown' as for
 * rd_load_add_failed (k6's names of the failed thresholds).
 */
void rd_load_add_reason(struct rd_load_tally *t, const char *what, double count,
                        const char *shown);

/** Adds a fact that fails the run, named by 'what' ("no latency statistics"). */
void rd_load_add_fact(struct rd_load_tally *t, const char *what);

/**
 * Judges the run of r from t: status "failed" with info "failure" saying
 * why when the tool stopped, when any failed request or reason is counted,
 * or when no request (or no 2xx response) completed; status "ok" otherwise.
 * The failure reads "socket errors: connect N, read N, write N, timeout N,
 * other N; non-2xx responses: N; <tool terms>; <reasons>; no completed
 * requests", naming only what is there.
 */
rd_status rd_load_judge(struct rd_record *r, const struct rd_load_tally *t);

/** rd_load_tally_from_metrics() and rd_load_judge() in one call. */
rd_status rd_load_judge_metrics(struct rd_record *r);

#endif
