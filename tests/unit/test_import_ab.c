// links: rd_collect
/*
 * test_import_ab - the ab importer's parse() and detect() called directly.
 * Expected values are ab's printed numbers; Kbytes/sec and kb/s times 1024
 * (ab divides by 1024), checked by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "importer.h"

extern const struct rd_importer rd_importer_ab;

struct fixture {
    struct rd_recordset set;
    struct rd_diag d;
    rd_status s;
};

static void parse(const char *text, struct fixture *f)
{
    struct rd_import_input in = { text, strlen(text), "ab.txt" };
    rd_recordset_init(&f->set);
    rd_diag_init(&f->d, "ab.txt");
    f->s = rd_importer_ab.parse(&in, &f->set, &f->d);
}

static double metric(const struct rd_record *r, const char *name)
{
    double v;
    if (!rd_record_metric(r, name, &v))
        fail_msg("metric %s missing", name);
    return v;
}

#define BANNER                                                                  \
    "This is ApacheBench, Version 2.3 <$Revision: 1903618 $>\n"                  \
    "Copyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/\n" \
    "Licensed to The Apache Software Foundation, http://www.apache.org/\n"       \
    "\n"

static const char report[] =
    BANNER
    "Benchmarking api.internal (be patient)\n"
    "\n\n"
    "Server Software:        envoy\n"
    "Server Hostname:        api.internal\n"
    "Server Port:            8443\n"
    "SSL/TLS Protocol:       TLSv1.3,TLS_AES_256_GCM_SHA384,2048,256\n"
    "\n"
    "Document Path:          /v1/orders\n"
    "Document Length:        233 bytes\n"
    "\n"
    "Concurrency Level:      50\n"
    "Time taken for tests:   6.481 seconds\n"
    "Complete requests:      2000\n"
    "Failed requests:        1271\n"
    "   (Connect: 0, Receive: 0, Length: 1271, Exceptions: 0)\n"
    "Total transferred:      1037553 bytes\n"
    "HTML transferred:       402884 bytes\n"
    "Requests per second:    308.59 [#/sec] (mean)\n"
    "Time per request:       162.025 [ms] (mean)\n"
    "Time per request:       3.240 [ms] (mean, across all concurrent requests)\n"
    "Transfer rate:          156.34 [Kbytes/sec] received\n"
    "                        198.30 kb/s sent\n"
    "\n"
    "Connection Times (ms)\n"
    "              min  mean[+/-sd] median   max\n"
    "Connect:        0    1   0.5      0       1\n"
    "Processing:     3   85 124.1     50     977\n"
    "Waiting:        3   84 124.1     50     977\n"
    "Total:          3   85 124.1     51     978\n"
    "WARNING: The median and mean for the total time are not within a normal deviation\n"
    "        These results are probably not that reliable.\n"
    "\n"
    "Percentage of the requests served within a certain time (ms)\n"
    "  50%     51\n"
    "  66%     71\n"
    "  75%     88\n"
    "  80%    100\n"
    "  90%    159\n"
    "  95%    263\n"
    "  98%    614\n"
    "  99%    776\n"
    " 100%    978 (longest request)\n";

static void full_report(void **state)
{
    (void)state;
    struct fixture f;
    parse(report, &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 1);
    const struct rd_record *r = &f.set.items[0];
    assert_string_equal(r->tool, "ab");
    /* Length failures alone do not fail a run */
    assert_string_equal(r->status, "ok");
    assert_non_null(rd_record_info(r, "note"));
    assert_string_equal(rd_record_info(r, "url"), "https://api.internal:8443/v1/orders");
    assert_true(metric(r, "connections") == 50);
    assert_true(metric(r, "duration_s") == 6.481);
    assert_true(metric(r, "requests") == 2000);
    assert_true(metric(r, "failed_length") == 1271);
    assert_true(metric(r, "non_2xx") == 0);
    assert_true(metric(r, "rps") == 308.59);
    assert_true(metric(r, "time_per_request_ms") == 162.025);
    assert_true(metric(r, "time_per_request_all_ms") == 3.240);
    assert_true(metric(r, "transfer_bytes_per_s") == 160092.16);  /* 156.34 * 1024 */
    assert_true(metric(r, "sent_bytes_per_s") == 203059.2);       /* 198.30 * 1024 */
    assert_true(metric(r, "processing_sd_ms") == 124.1);
    assert_true(metric(r, "latency_mean_ms") == 85);
    assert_true(metric(r, "latency_stdev_ms") == 124.1);
    assert_true(metric(r, "latency_max_ms") == 978);
    assert_true(metric(r, "latency_p66_ms") == 71);
    assert_true(metric(r, "latency_p100_ms") == 978);
    assert_non_null(strstr(rd_record_info(r, "ab_warning"), "not that reliable"));
    rd_recordset_release(&f.set);
}

static void errors_are_counted(void **state)
{
    (void)state;
    struct fixture f;
    char text[sizeof report + 64];
    strcpy(text, report);
    char *p = strstr(text, "Receive: 0,");
    memcpy(p, "Receive: 7,", 11);
    parse(text, &f);
    assert_int_equal(f.s, RD_OK);
    /* Errors are data: ok, and 7 receive errors of the 2000 complete
     * requests (which hold them; Length is no error) = 0.0035. */
    assert_string_equal(f.set.items[0].status, "ok");
    assert_true(metric(&f.set.items[0], "errors_read") == 7);
    assert_true(metric(&f.set.items[0], "error_rate") == 0.0035);
    rd_recordset_release(&f.set);
}

static void stopped_runs_are_failed(void **state)
{
    (void)state;
    struct fixture f;
    parse(BANNER "Benchmarking 127.0.0.1 (be patient)...apr_socket_recv: Connection "
                 "refused (111)\n",
          &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 1);
    assert_string_equal(f.set.items[0].status, "failed");
    assert_true(metric(&f.set.items[0], "requests") == 0);
    assert_string_equal(rd_record_info(&f.set.items[0], "failure"),
                        "ab stopped without a report: apr_socket_recv: Connection refused (111)");
    rd_recordset_release(&f.set);

    parse(BANNER "Benchmarking 10.0.0.9 (be patient)\nTotal of 3127 requests completed\n", &f);
    assert_int_equal(f.s, RD_OK);
    assert_string_equal(f.set.items[0].status, "failed");
    assert_true(metric(&f.set.items[0], "requests") == 3127);
    rd_recordset_release(&f.set);
}

static void two_runs_in_one_file(void **state)
{
    (void)state;
    struct fixture f;
    char text[2 * sizeof report];
    strcpy(text, report);
    strcat(text, report);
    parse(text, &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 2);
    assert_int_equal(f.set.items[1].source_line, 48);  /* 47 lines per report */
    rd_recordset_release(&f.set);
}

static void bad_input(void **state)
{
    (void)state;
    struct fixture f;
    char text[sizeof report + 64];
    strcpy(text, report);
    char *p = strstr(text, "6.481 seconds");
    memcpy(p, "6.4x1", 5);
    parse(text, &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 17);  /* 4 banner lines, Benchmarking, 2 blank, 9 header lines */
    assert_int_equal(f.d.col, 25);
    assert_string_equal(f.d.msg, "expected a number like '12.5', got '6.4x1'");
    rd_recordset_release(&f.set);

    /* truncated inside the percentile table */
    strcpy(text, report);
    *strstr(text, "  80%") = '\0';
    parse(text, &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_non_null(strstr(f.d.msg, "'80%'"));
    rd_recordset_release(&f.set);

    parse("\nSummary:\n", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 2);
    rd_recordset_release(&f.set);
}

static void detection(void **state)
{
    (void)state;
    struct rd_import_input in = { report, strlen(report), "a" };
    assert_true(rd_importer_ab.detect(&in) >= 90);
    struct rd_import_input hey = { "\nSummary:\n  Total:\t1 secs\n", 26, "h" };
    assert_true(rd_importer_ab.detect(&hey) < 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_report),
        cmocka_unit_test(errors_are_counted),
        cmocka_unit_test(stopped_runs_are_failed),
        cmocka_unit_test(two_runs_in_one_file),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(detection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
