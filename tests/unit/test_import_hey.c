// links: rd_collect
/*
 * test_import_hey - the hey importer's parse() and detect() called directly.
 * Expected values are hey's printed seconds times 1000, and counts added by
 * hand from the status and error distributions.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "importer.h"

extern const struct rd_importer rd_importer_hey;

struct fixture {
    struct rd_recordset set;
    struct rd_diag d;
    rd_status s;
};

static void parse(const char *text, struct fixture *f)
{
    struct rd_import_input in = { text, strlen(text), "h.txt" };
    rd_recordset_init(&f->set);
    rd_diag_init(&f->d, "h.txt");
    f->s = rd_importer_hey.parse(&in, &f->set, &f->d);
}

static double metric(const struct rd_record *r, const char *name)
{
    double v;
    if (!rd_record_metric(r, name, &v))
        fail_msg("metric %s missing", name);
    return v;
}

static const char errors_report[] =
    "\n"
    "Summary:\n"
    "  Total:\t20.0042 secs\n"
    "  Slowest:\t0.1103 secs\n"
    "  Fastest:\t0.0531 secs\n"
    "  Average:\t0.0848 secs\n"
    "  Requests/sec:\t0.9998\n"
    "  \n"
    "\n"
    "Response time histogram:\n"
    "  0.053 [1]\t|\xe2\x96\xa0\xe2\x96\xa0\n"
    "  0.059 [0]\t|\n"
    "\n"
    "\n"
    "Latency distribution:\n"
    "  10% in 0.0692 secs\n"
    "  90% in 0.1103 secs\n"
    "  0% in 0.0000 secs\n"
    "\n"
    "Details (average, fastest, slowest):\n"
    "  DNS+dialup:\t0.0001 secs, 0.0531 secs, 0.1103 secs\n"
    "  resp wait:\t0.0845 secs, 0.0528 secs, 0.1101 secs\n"
    "\n"
    "Status code distribution:\n"
    "  [200]\t9 responses\n"
    "  [503]\t3 responses\n"
    "\n"
    "Error distribution:\n"
    "  [5]\tGet \"http://h/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)\n"
    "  [3]\tGet \"http://h/\": dial tcp 10.0.0.5:8080: connect: connection refused\n"
    "  [2]\tGet \"http://h/\": EOF\n"
    "\n";

static void errors_are_counted(void **state)
{
    (void)state;
    struct fixture f;
    parse(errors_report, &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 1);
    const struct rd_record *r = &f.set.items[0];
    assert_string_equal(r->tool, "hey");
    /* Errors are data: 3 non-2xx + 10 errors failed of 12 responses + 10
     * errors = 13 / 22. */
    assert_string_equal(r->status, "ok");
    assert_true(metric(r, "error_rate") == 13.0 / 22.0);
    assert_int_equal(r->source_line, 2);
    assert_true(metric(r, "duration_s") == 20.0042);
    assert_true(metric(r, "latency_max_ms") == 110.3);
    assert_true(metric(r, "latency_mean_ms") == 84.8);
    assert_true(metric(r, "rps") == 0.9998);
    assert_true(metric(r, "latency_p10_ms") == 69.2);
    assert_true(metric(r, "latency_p90_ms") == 110.3);
    double v;
    assert_false(rd_record_metric(r, "latency_p0_ms", &v));  /* "0% in 0.0000" */
    assert_true(metric(r, "requests") == 12);                 /* 9 + 3 */
    assert_true(metric(r, "non_2xx") == 3);
    assert_true(metric(r, "status_503") == 3);
    assert_true(metric(r, "errors_timeout") == 5);
    assert_true(metric(r, "errors_connect") == 3);
    assert_true(metric(r, "errors_read") == 2);
    assert_true(metric(r, "errors_total") == 10);
    /* 0.0531/0.1103 equal Fastest/Slowest: hey 0.1.4's DNS+dialup bug */
    assert_false(rd_record_metric(r, "dns_dialup_min_ms", &v));
    assert_true(metric(r, "dns_dialup_mean_ms") == 0.1);
    assert_true(metric(r, "resp_wait_min_ms") == 52.8);
    rd_recordset_release(&f.set);
}

static void all_failed_gives_null_latency(void **state)
{
    (void)state;
    struct fixture f;
    parse("\nSummary:\n  Total:\t0.0170 secs\n  Slowest:\t0.0000 secs\n"
          "  Fastest:\t0.0000 secs\n  Average:\t NaN secs\n  Requests/sec:\t11764.7059\n"
          "  \n\nResponse time histogram:\n\n\nLatency distribution:\n\n"
          "Details (average, fastest, slowest):\n"
          "  DNS+dialup:\t NaN secs, 0.0000 secs, 0.0000 secs\n\n"
          "Status code distribution:\n\nError distribution:\n"
          "  [200]\tGet \"http://localhost:3000/users\": dial tcp 127.0.0.1:3000: connect: "
          "connection refused\n\n",
          &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_string_equal(r->status, "failed");
    assert_true(metric(r, "requests") == 0);
    assert_true(metric(r, "errors_connect") == 200);
    assert_true(isnan(metric(r, "latency_mean_ms")));
    assert_true(isnan(metric(r, "latency_max_ms")));
    assert_true(metric(r, "rps") == 11764.7059);  /* kept as printed */
    rd_recordset_release(&f.set);
}

static void csv_is_one_run_with_heys_percentiles(void **state)
{
    (void)state;
    struct fixture f;
    /* 10 rows: hey's loop gives p10 = sorted[1] (1*100/10 = 10), p25 =
     * sorted[3] (30 >= 25), p50 = sorted[5], p75 = sorted[8], p90 =
     * sorted[9]; p95 and p99 are never reached. */
    parse("response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,"
          "status-code,offset\n"
          "0.0010,0.0001,0.0000,0.0000,0.0009,0.0000,200,0.0000\n"
          "0.0020,0.0000,0.0000,0.0000,0.0019,0.0000,200,0.0010\n"
          "0.0030,0.0000,0.0000,0.0000,0.0029,0.0000,200,0.0020\n"
          "0.0040,0.0000,0.0000,0.0000,0.0039,0.0000,200,0.0030\n"
          "0.0050,0.0000,0.0000,0.0000,0.0049,0.0000,200,0.0040\n"
          "0.0060,0.0000,0.0000,0.0000,0.0059,0.0000,200,0.0050\n"
          "0.0070,0.0000,0.0000,0.0000,0.0069,0.0000,200,0.0060\n"
          "0.0080,0.0000,0.0000,0.0000,0.0079,0.0000,200,0.0070\n"
          "0.0090,0.0000,0.0000,0.0000,0.0089,0.0000,500,0.0080\n"
          "0.0100,0.0000,0.0000,0.0000,0.0099,0.0000,200,0.0090\n",
          &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 1);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "requests") == 10);
    assert_true(metric(r, "non_2xx") == 1);
    /* The csv leaves errors out: ok, and no error rate rather than 1/10. */
    assert_string_equal(r->status, "ok");
    assert_true(isnan(metric(r, "error_rate")));
    assert_true(metric(r, "latency_mean_ms") == 5.5);  /* (1+...+10)/10 */
    assert_true(metric(r, "latency_p10_ms") == 2);
    assert_true(metric(r, "latency_p25_ms") == 4);
    assert_true(metric(r, "latency_p50_ms") == 6);
    assert_true(metric(r, "latency_p75_ms") == 9);
    assert_true(metric(r, "latency_p90_ms") == 10);
    double v;
    assert_false(rd_record_metric(r, "latency_p95_ms", &v));
    assert_true(metric(r, "dns_dialup_mean_ms") == 0.01);
    rd_recordset_release(&f.set);
}

static void bad_input_positions(void **state)
{
    (void)state;
    struct fixture f;
    parse("\nSummary:\n  Total:\t1.0x secs\n", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 3);
    assert_int_equal(f.d.col, 10);
    rd_recordset_release(&f.set);

    parse("\nSummary:\n  Total:\t1.0 secs\n  Slowest:\t0.1 secs\n", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);  /* cut before the status section */
    rd_recordset_release(&f.set);

    parse("Running 30s test @ http://x/\n", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 1);
    rd_recordset_release(&f.set);
}

static void detection(void **state)
{
    (void)state;
    struct rd_import_input in = { errors_report, strlen(errors_report), "h" };
    assert_true(rd_importer_hey.detect(&in) >= 90);
    struct rd_import_input wrk = { "Running 1s test @ http://x/\nRequests/sec: 1\n", 44, "w" };
    assert_true(rd_importer_hey.detect(&wrk) < 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(errors_are_counted),
        cmocka_unit_test(all_failed_gives_null_latency),
        cmocka_unit_test(csv_is_one_run_with_heys_percentiles),
        cmocka_unit_test(bad_input_positions),
        cmocka_unit_test(detection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
