// links: rd_collect
/*
 * test_import_loadjudge - the one judge of load runs
 * (collect/importers/loadjudge.c): which tallies fail a run, the words of
 * info "failure" and "load_errors", and error_rate. The expected sentences
 * are written from the contract in loadjudge.h, the counts chosen by hand
 * and the rates worked out in the comments.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "importers/loadjudge.h"

struct fixture {
    struct rd_recordset set;
    struct rd_record *r;
};

static int setup(void **state)
{
    static struct fixture f;
    rd_recordset_init(&f.set);
    f.r = rd_recordset_add(&f.set);
    *state = &f;
    return f.r ? 0 : -1;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    rd_recordset_release(&f->set);
    return 0;
}

/* Judges t into a fresh record; returns what went wrong (info failure of a
 * failed run, load_errors of an ok one; NULL: nothing), the status and the
 * error rate (NaN when null). */
static const char *judge_all(void **state, const struct rd_load_tally *t, const char **status,
                             double *rate)
{
    struct fixture *f = *state;
    teardown(state);
    setup(state);
    f = *state;
    assert_int_equal(rd_load_judge(f->r, t), RD_OK);
    *status = f->r->status;
    assert_true(rd_record_metric(f->r, "error_rate", rate));
    const char *failure = rd_record_info(f->r, "failure");
    const char *errors = rd_record_info(f->r, "load_errors");
    if (strcmp(f->r->status, "ok") == 0) {
        assert_null(failure);
        return errors;
    }
    assert_string_equal(f->r->status, "failed");
    assert_null(errors);
    assert_non_null(failure);
    return failure;
}

/* judge_all for a run that must come out ok: what went wrong, if anything. */
static const char *judge_ok(void **state, const struct rd_load_tally *t, double *rate)
{
    const char *status;
    const char *why = judge_all(state, t, &status, rate);
    assert_string_equal(status, "ok");
    return why;
}

/* judge_all for a run that must come out failed: its failure. */
static const char *judge_failed(void **state, const struct rd_load_tally *t)
{
    const char *status;
    double rate;
    const char *why = judge_all(state, t, &status, &rate);
    assert_string_equal(status, "failed");
    return why;
}

static void nothing_counted_is_ok(void **state)
{
    struct rd_load_tally t;
    double rate;
    rd_load_tally_init(&t);
    /* Requests not counted (k6 without HTTP) judge nothing; no failed
     * request is a rate of 0 whatever their number. */
    assert_null(judge_ok(state, &t, &rate));
    assert_true(rate == 0);
    t.requests = 10;
    t.responses_2xx = 10;
    assert_null(judge_ok(state, &t, &rate));
    assert_true(rate == 0);
}

/* Errors are data: the run stays ok, the words go to load_errors and the
 * rate is failed / attempted. 100 completed + 387 + 1243 + 2 socket
 * errors outside them = 1732 attempted; failed 387 + 1243 + 2 + 2210
 * non-2xx = 3842 > 1732 (the non-2xx are among the 100 only in a tool that
 * says so), so the rate is capped at 1. */
static void socket_errors_and_non_2xx_in_order(void **state)
{
    struct rd_load_tally t;
    double rate;
    rd_load_tally_init(&t);
    t.requests = 100;
    t.errors_timeout = 387;
    t.errors_read = 1243;
    t.errors_other = 2;
    t.non_2xx = 2210;
    assert_string_equal(judge_ok(state, &t, &rate),
                        "socket errors: read 1243, timeout 387, other 2; "
                        "non-2xx responses: 2210");
    assert_true(rate == 1);
}

/* The rate by hand: wrk-like, 68000 completed requests of which 50 came
 * after the timeout (inside requests), 10 connect errors outside:
 * (50 + 10) / (68000 + 10) = 60 / 68010. The same counts with timeouts
 * outside the requests: 60 / 68060. */
static void error_rate_by_kind(void **state)
{
    struct rd_load_tally t;
    double rate;
    rd_load_tally_init(&t);
    t.requests = 68000;
    t.errors_timeout = 50;
    t.errors_connect = 10;
    t.in_requests = RD_LOAD_IN_REQUESTS_TIMEOUT;
    assert_string_equal(judge_ok(state, &t, &rate), "socket errors: connect 10, timeout 50");
    assert_true(rate == 60.0 / 68010.0);
    t.in_requests = 0;
    judge_ok(state, &t, &rate);
    assert_true(rate == 60.0 / 68060.0);
    /* A tool's own count of attempts wins: k6's 1000 http_reqs, 25 failed. */
    rd_load_tally_init(&t);
    t.attempted = 1000;
    t.requests = 975;
    rd_load_add_failed(&t, "failed requests", 25, NULL);
    assert_string_equal(judge_ok(state, &t, &rate), "failed requests: 25");
    assert_true(rate == 25.0 / 1000.0);
    /* Failed responses are among the completed: 3 mismatches of 997. */
    rd_load_tally_init(&t);
    t.requests = 997;
    rd_load_add_failed_responses(&t, "mismatched responses", 3, NULL);
    judge_ok(state, &t, &rate);
    assert_true(rate == 3.0 / 997.0);
    /* Unknown errors (hey -o csv): no rate rather than a wrong one. */
    rd_load_tally_init(&t);
    t.requests = 10;
    t.errors_unknown = true;
    judge_ok(state, &t, &rate);
    assert_true(isnan(rate));
}

static void no_completed_requests(void **state)
{
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    t.requests = 0;
    t.responses_2xx = 0;
    /* No 2xx response adds nothing when nothing completed at all. */
    assert_string_equal(judge_failed(state, &t), "no completed requests");
    /* Completed, none of them 2xx: a measurement whose every request
     * failed (5 non-2xx of 5). */
    double rate;
    t.requests = 5;
    t.non_2xx = 5;
    assert_string_equal(judge_ok(state, &t, &rate), "non-2xx responses: 5; no 2xx responses");
    assert_true(rate == 1);
}

static void tool_terms_reasons_and_facts(void **state)
{
    struct rd_load_tally t;
    double rate;
    rd_load_tally_init(&t);
    t.requests = 8796;
    rd_load_add_failed(&t, "failed requests", 0, NULL);   /* 0: not added */
    rd_load_add_failed_responses(&t, "mismatched responses", 3, NULL);
    rd_load_add_failed(&t, "errors", 2000, "2k (1k timeouts)");
    rd_load_add_reason(&t, "failed checks", NAN, NULL);    /* NaN: not printed, none */
    rd_load_add_reason(&t, "thresholds failed", 1, "http_req_duration: p(95)<200");
    /* Terms and reasons are findings: the run is ok; (3 + 2000) failed of
     * 8796 + 2000 attempted, approximate as autocannon rounded the 2k. */
    assert_string_equal(judge_ok(state, &t, &rate),
                        "mismatched responses: 3; errors: 2k (1k timeouts); thresholds "
                        "failed: http_req_duration: p(95)<200");
    assert_true(rate == 2003.0 / 10796.0);
    struct fixture *f = *state;
    assert_string_equal(rd_record_info(f->r, "error_rate_note"),
                        "approximate: the tool rounded errors 2k (1k timeouts)");
    /* A fact leaves no measurement: failed. */
    rd_load_add_fact(&t, "no latency statistics");
    assert_string_equal(judge_failed(state, &t),
                        "mismatched responses: 3; errors: 2k (1k timeouts); thresholds "
                        "failed: http_req_duration: p(95)<200; no latency statistics");
}

static void a_stopped_tool_says_only_its_message(void **state)
{
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    t.requests = 0;
    t.errors_connect = 1;
    t.stopped = "unable to connect to 127.0.0.1:1 Connection refused";
    assert_string_equal(judge_failed(state, &t),
                        "unable to connect to 127.0.0.1:1 Connection refused");
    t.stopped = "";
    assert_string_equal(judge_failed(state, &t), "the load tool stopped without a report");
}

static void terms_past_the_limit(void **state)
{
    struct rd_load_tally t;
    double rate;
    rd_load_tally_init(&t);
    t.requests = 1;
    for (int i = 0; i < RD_LOAD_MAX_TERMS + 1; i++)
        rd_load_add_reason(&t, "r", 1, NULL);
    assert_string_equal(judge_ok(state, &t, &rate), "r: 1; r: 1; r: 1; r: 1; more failures "
                                                    "than one message names");
    /* A fact past the limit still fails the run. */
    rd_load_add_fact(&t, "f");
    assert_string_equal(judge_failed(state, &t), "r: 1; r: 1; r: 1; r: 1; more failures "
                                                 "than one message names");
}

/* wrk, hey and ab: the tally comes from the record's common metrics. */
static void from_metrics(void **state)
{
    struct fixture *f = *state;
    struct rd_record *r = f->r;
    double rate;
    rd_record_set_metric(r, "requests", 10);
    assert_int_equal(rd_load_judge_metrics(r, 0), RD_OK);
    assert_string_equal(r->status, "ok");
    rd_record_set_metric(r, "errors_timeout", 2);
    rd_record_set_metric(r, "non_2xx", 1);
    rd_record_set_metric(r, "failed_requests", 7); /* not a common metric: not judged */
    assert_int_equal(rd_load_judge_metrics(r, RD_LOAD_IN_REQUESTS_TIMEOUT), RD_OK);
    assert_string_equal(r->status, "ok");
    assert_string_equal(rd_record_info(r, "load_errors"),
                        "socket errors: timeout 2; non-2xx responses: 1");
    /* 3 failed of 10 attempted (the timeouts are among the 10). */
    assert_true(rd_record_metric(r, "error_rate", &rate) && rate == 0.3);
    /* These tools always print requests: NaN (or none) is none completed. */
    rd_record_set_metric(r, "requests", NAN);
    rd_record_set_metric(r, "errors_timeout", 0);
    rd_record_set_metric(r, "non_2xx", 0);
    rd_load_judge_metrics(r, 0);
    assert_string_equal(r->status, "failed");
    assert_string_equal(rd_record_info(r, "failure"), "no completed requests");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(nothing_counted_is_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(socket_errors_and_non_2xx_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(error_rate_by_kind, setup, teardown),
        cmocka_unit_test_setup_teardown(no_completed_requests, setup, teardown),
        cmocka_unit_test_setup_teardown(tool_terms_reasons_and_facts, setup, teardown),
        cmocka_unit_test_setup_teardown(a_stopped_tool_says_only_its_message, setup, teardown),
        cmocka_unit_test_setup_teardown(terms_past_the_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(from_metrics, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
