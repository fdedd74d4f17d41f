/*
 * loadrate.h - what a load run counted, and its error rate: one rule for
 * every load tool, shared by collect (the load judge, loadjudge.h, which
 * writes a record's error_rate) and analyze (which derives the rate of a
 * record written before error_rate existed, from the counts it holds).
 *
 * Each importer reads what its tool counted into a struct rd_load_tally -
 * in the terms every load record shares (completed requests, 2xx
 * responses, failed requests by kind, non-2xx responses) plus the few
 * things only that tool counts.
 *
 * error_rate = failed requests (socket errors of every kind, non-2xx
 * responses, the tool's own failed requests) / attempted requests, at most
 * 1; attempted is the tool's own count when it has one (k6), else the
 * completed requests plus the failed requests that are not among them
 * (which those are, each tool's RD_LOAD_IN_REQUESTS_* says). Pure: no
 * I/O, no allocation.
 */
#ifndef RUNDOWN_LOADRATE_H
#define RUNDOWN_LOADRATE_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/record.h"

/** A count or a fact of one tool, with the words the failure uses for it. */
struct rd_load_term {
    const char *what;  /* "mismatched responses", "no latency statistics" */
    double count;      /* shown as "what: count"; NAN: a fact, shown as "what" */
    const char *shown; /* the count as the tool printed it ("2k"), or NULL */
    bool answered;     /* failed requests that are responses, counted among
                          the completed requests (autocannon's mismatches) */
    bool fatal;        /* a fact that leaves no measurement: fails the run */
};

/* The failed-request kinds a tool's count of completed requests includes
 * (wrk counts a response that came after its timeout both as a request
 * and as a timeout): attempted requests add only the others. */
enum {
    RD_LOAD_IN_REQUESTS_CONNECT = 1,
    RD_LOAD_IN_REQUESTS_READ = 2,
    RD_LOAD_IN_REQUESTS_WRITE = 4,
    RD_LOAD_IN_REQUESTS_TIMEOUT = 8,
    RD_LOAD_IN_REQUESTS_OTHER = 16,
};

/* The kinds inside `requests` for the tools whose records carry the common
 * counts as the tool printed them (docs/formats.md, "Attempted requests"):
 * wrk and wrk2 count a response that came after --timeout both as a
 * request and as a timeout; ab's "Complete requests" counts a connection
 * closed by a receive or a write error (close_connection counts it done),
 * while connect errors and exceptions make ab start over without counting
 * one; hey's status code counts are the responses, and every error is a
 * request that got none. */
#define RD_LOAD_IN_REQUESTS_WRK ((unsigned)RD_LOAD_IN_REQUESTS_TIMEOUT)
#define RD_LOAD_IN_REQUESTS_AB ((unsigned)(RD_LOAD_IN_REQUESTS_READ | RD_LOAD_IN_REQUESTS_WRITE))
#define RD_LOAD_IN_REQUESTS_HEY 0u

/* The most terms of each kind a tally holds; no importer needs more than 2. */
#define RD_LOAD_MAX_TERMS 4

/**
 * A load run as its tool counted it. Start from rd_load_tally_init() (or
 * rd_load_tally_from_metrics()) and set what the tool reports; a count the
 * tool does not report stays 0 (failed requests) or NAN (requests,
 * responses_2xx: "not counted", which judges nothing). Strings are borrowed
 * and must outlive the tally's use.
 */
struct rd_load_tally {
    double requests;      /* completed requests (responses of any status);
                             0 fails the run */
    double responses_2xx; /* 2xx responses; 0 is an error rate of 1 */
    double attempted;     /* the tool's own count of attempted requests;
                             NAN: completed plus the failed ones not among them */
    unsigned in_requests; /* RD_LOAD_IN_REQUESTS_*: kinds inside 'requests' */
    bool errors_unknown;  /* the output leaves failed requests out (hey -o
                             csv): the error rate is unknown */
    /* Failed requests by kind: the common metrics errors_connect ... */
    double errors_connect, errors_read, errors_write, errors_timeout, errors_other;
    double non_2xx;
    /* Failed requests the kinds above do not cover (autocannon's mismatched
     * bodies, k6's failed requests): rd_load_add_failed(). */
    struct rd_load_term failed[RD_LOAD_MAX_TERMS];
    size_t nfailed;
    /* What the tool found besides failed requests (k6's failed checks and
     * thresholds: rd_load_add_reason()), and facts that leave no
     * measurement (a missing statistics block: rd_load_add_fact()). */
    struct rd_load_term reasons[RD_LOAD_MAX_TERMS];
    size_t nreasons;
    /* A term that did not fit: it is said unnamed, and a fact still fails
     * the run. */
    bool unnamed, unnamed_fatal;
    /* The tool stopped without a report, and this - its message - is the
     * whole failure ("unable to connect to 127.0.0.1:1 Connection
     * refused"); NULL when it reported. */
    const char *stopped;
};

/** Clears t: no failure counted, requests, responses_2xx and attempted not
 *  counted, no failed kind inside requests. */
void rd_load_tally_init(struct rd_load_tally *t);

/**
 * Fills t from r's common metrics (requests, errors_connect, errors_read,
 * errors_write, errors_timeout, errors_other, non_2xx), for the importers
 * whose tools print all of them (wrk, wrk2, hey, ab); in_requests as in the
 * tally. A missing or NaN `requests` counts as none completed: those tools
 * always print it.
 */
void rd_load_tally_from_metrics(struct rd_load_tally *t, const struct rd_record *r,
                                unsigned in_requests);

/**
 * Fills t from a stored record of a load tool (r->tool: wrk, wrk2, hey, ab,
 * autocannon, bombardier, oha, k6) as that tool's importer fills it from
 * the tool's output, from the metrics the importer stores. A record of
 * another tool (or none) that holds `requests` and one of the common error
 * counts gets the judge's rule with nothing known of the tool: every
 * failed request is outside the completed ones. False (t cleared) for a
 * record without such counts or one whose counts the tool printed rounded
 * (autocannon's text footer: the exact rate is not in the record). What only the output held (facts, the
 * tool's words) is not restored: the tally gives the rate, not the
 * judgement.
 */
bool rd_load_tally_of_record(struct rd_load_tally *t, const struct rd_record *r);

/**
 * Adds a count of failed requests of the tool's own kind that got no
 * response ("socket errors" autocannon printed rounded) when count > 0;
 * 'shown', when not NULL, is the count as the tool printed it (a rounded
 * "2k": the error rate is then approximate).
 */
void rd_load_add_failed(struct rd_load_tally *t, const char *what, double count,
                        const char *shown);

/** rd_load_add_failed for failed requests that are responses, already
 *  among the completed requests ("mismatched responses"). */
void rd_load_add_failed_responses(struct rd_load_tally *t, const char *what, double count,
                                  const char *shown);

/**
 * Adds something the tool found besides failed requests ("failed checks:
 * 3"), when count > 0: said with the errors, no failure of the run;
 * 'shown' as for rd_load_add_failed (k6's names of the failed thresholds).
 */
void rd_load_add_reason(struct rd_load_tally *t, const char *what, double count,
                        const char *shown);

/** Adds a fact that leaves no measurement and fails the run, named by
 *  'what' ("no latency statistics"). */
void rd_load_add_fact(struct rd_load_tally *t, const char *what);

/** Counted, and none: a tool that never got an answer has measured nothing. */
bool rd_load_none_completed(const struct rd_load_tally *t);

/**
 * Failed / attempted requests (see above), at most 1; NaN when it cannot
 * be known: nothing attempted, errors_unknown, or completed requests not
 * counted while some failed.
 */
double rd_load_error_rate(const struct rd_load_tally *t);

#endif
