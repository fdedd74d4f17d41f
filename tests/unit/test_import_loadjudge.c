// links: rd_collect
/*
 * test_import_loadjudge - the one judge of load runs
 * (collect/importers/loadjudge.c): which tallies fail a run, and the words
 * of info "failure". The expected sentences are written from the contract
 * in loadjudge.h, the counts chosen by hand.
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

/* Judges t into a fresh record; returns its failure (NULL when ok). */
static const char *judge(void **state, const struct rd_load_tally *t)
{
    struct fixture *f = *state;
    teardown(state);
    setup(state);
    f = *state;
    assert_int_equal(rd_load_judge(f->r, t), RD_OK);
    const char *why = rd_record_info(f->r, "failure");
    if (strcmp(f->r->status, "ok") == 0)
        assert_null(why);
    else
        assert_string_equal(f->r->status, "failed");
    return why;
}

static void nothing_counted_is_ok(void **state)
{
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    /* Requests not counted (k6 without HTTP) judge nothing. */
    assert_null(judge(state, &t));
    t.requests = 10;
    t.responses_2xx = 10;
    assert_null(judge(state, &t));
}

static void socket_errors_and_non_2xx_in_order(void **state)
{
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    t.requests = 100;
    t.errors_timeout = 387;
    t.errors_read = 1243;
    t.errors_other = 2;
    t.non_2xx = 2210;
    assert_string_equal(judge(state, &t), "socket errors: read 1243, timeout 387, other 2; "
                                          "non-2xx responses: 2210");
}

static void no_completed_requests(void **state)
{
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    t.requests = 0;
    t.responses_2xx = 0;
    /* No 2xx response adds nothing when nothing completed at all. */
    assert_string_equal(judge(state, &t), "no completed requests");
    t.requests = 5;
    t.non_2xx = 5;
    assert_string_equal(judge(state, &t), "non-2xx responses: 5; no 2xx responses");
}

static void tool_terms_reasons_and_facts(void **state)
{
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    t.requests = 8796;
    rd_load_add_failed(&t, "failed requests", 0, NULL);   /* 0: not added */
    rd_load_add_failed(&t, "mismatched responses", 3, NULL);
    rd_load_add_failed(&t, "errors", 2000, "2k (1k timeouts)");
    rd_load_add_reason(&t, "failed checks", NAN, NULL);    /* NaN: not printed, none */
    rd_load_add_reason(&t, "thresholds failed", 1, "http_req_duration: p(95)<200");
    rd_load_add_fact(&t, "no latency statistics");
    assert_string_equal(judge(state, &t),
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
    assert_string_equal(judge(state, &t), "unable to connect to 127.0.0.1:1 Connection refused");
    t.stopped = "";
    assert_string_equal(judge(state, &t), "the load tool stopped without a report");
}

static void terms_past_the_limit_still_fail(void **state)
{
    struct rd_load_tally t;
    rd_load_tally_init(&t);
    t.requests = 1;
    for (int i = 0; i < RD_LOAD_MAX_TERMS + 1; i++)
        rd_load_add_reason(&t, "r", 1, NULL);
    assert_string_equal(judge(state, &t), "r: 1; r: 1; r: 1; r: 1; more failures than one "
                                          "message names");
}

/* wrk, hey and ab: the tally comes from the record's common metrics. */
static void from_metrics(void **state)
{
    struct fixture *f = *state;
    struct rd_record *r = f->r;
    rd_record_set_metric(r, "requests", 10);
    assert_int_equal(rd_load_judge_metrics(r), RD_OK);
    assert_string_equal(r->status, "ok");
    rd_record_set_metric(r, "errors_timeout", 2);
    rd_record_set_metric(r, "non_2xx", 1);
    rd_record_set_metric(r, "failed_requests", 7); /* not a common metric: not judged */
    assert_int_equal(rd_load_judge_metrics(r), RD_OK);
    assert_string_equal(r->status, "failed");
    assert_string_equal(rd_record_info(r, "failure"),
                        "socket errors: timeout 2; non-2xx responses: 1");
    /* These tools always print requests: NaN (or none) is none completed. */
    rd_record_set_metric(r, "requests", NAN);
    rd_record_set_metric(r, "errors_timeout", 0);
    rd_record_set_metric(r, "non_2xx", 0);
    rd_load_judge_metrics(r);
    assert_string_equal(rd_record_info(r, "failure"), "no completed requests");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(nothing_counted_is_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(socket_errors_and_non_2xx_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(no_completed_requests, setup, teardown),
        cmocka_unit_test_setup_teardown(tool_terms_reasons_and_facts, setup, teardown),
        cmocka_unit_test_setup_teardown(a_stopped_tool_says_only_its_message, setup, teardown),
        cmocka_unit_test_setup_teardown(terms_past_the_limit_still_fail, setup, teardown),
        cmocka_unit_test_setup_teardown(from_metrics, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
