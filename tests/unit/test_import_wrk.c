// links: rd_collect
/*
 * test_import_wrk - the wrk and wrk2 importers' parse() and detect() called
 * directly, and the shared HTTP helpers (collect/importers/httpcommon.c).
 *
 * Expected numbers are the tool's printed values converted by hand:
 * 1 KB = 1024 B, 1 MB = 1048576 B (wrk's format_binary), 1k = 1000 (wrk's
 * format_metric), 1m = 60 s (wrk prints minutes as m), 1 us = 0.001 ms.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "importer.h"
#include "importers/httpcommon.h"
#include "importers/wrkfamily.h"

extern const struct rd_importer rd_importer_wrk;
extern const struct rd_importer rd_importer_wrk2;

struct fixture {
    struct rd_recordset set;
    struct rd_diag d;
    rd_status s;
};

static void parse_with(const struct rd_importer *imp, const char *text, struct fixture *f)
{
    struct rd_import_input in = { text, strlen(text), "t.txt" };
    rd_recordset_init(&f->set);
    rd_diag_init(&f->d, "t.txt");
    f->s = imp->parse(&in, &f->set, &f->d);
}

static double metric(const struct rd_record *r, const char *name)
{
    double v;
    if (!rd_record_metric(r, name, &v)) {
        fail_msg("metric %s missing", name);
    }
    return v;
}

static const char wrk_latency_errors[] =
    "Running 1m test @ http://10.0.0.12:8080/api/v1/items\n"
    "  4 threads and 256 connections\n"
    "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
    "    Latency    48.21ms   97.35ms   1.98s    91.37%\n"
    "    Req/Sec     1.37k   412.55     2.31k    71.02%\n"
    "  Latency Distribution\n"
    "     50%   21.34ms\n"
    "     75%   39.87ms\n"
    "     90%   96.12ms\n"
    "     99%    1.56s \n"
    "  327604 requests in 1.00m, 262.51MB read\n"
    "  Socket errors: connect 0, read 1243, write 0, timeout 387\n"
    "  Non-2xx or 3xx responses: 2210\n"
    "Requests/sec:   5452.76\n"
    "Transfer/sec:      4.37MB\n";

static void wrk_full_report(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(&rd_importer_wrk, wrk_latency_errors, &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 1);
    const struct rd_record *r = &f.set.items[0];
    assert_string_equal(r->tool, "wrk");
    /* read and timeout errors and non-2xx are counted, the run is ok:
     * (1243 + 387 + 2210) failed of 327604 completed (which hold the
     * timeouts) + 1243 read errors = 3840 / 328847 */
    assert_string_equal(r->status, "ok");
    assert_true(metric(r, "error_rate") == 3840.0 / 328847.0);
    assert_int_equal(r->source_line, 1);
    assert_true(metric(r, "latency_mean_ms") == 48.21);
    assert_true(metric(r, "latency_max_ms") == 1980);        /* 1.98s */
    assert_true(metric(r, "latency_p99_ms") == 1560);        /* "1.56s " */
    assert_true(metric(r, "req_per_thread_mean") == 1370);   /* 1.37k */
    assert_true(metric(r, "req_per_thread_stdev") == 412.55);
    assert_true(metric(r, "requests") == 327604);
    assert_true(metric(r, "duration_s") == 60);              /* 1.00m is minutes */
    assert_true(metric(r, "bytes_total") == 262.51 * 1048576);
    assert_true(metric(r, "errors_read") == 1243);
    assert_true(metric(r, "errors_timeout") == 387);
    assert_true(metric(r, "errors_connect") == 0);
    assert_true(metric(r, "non_2xx") == 2210);
    assert_true(metric(r, "rps") == 5452.76);
    assert_true(metric(r, "transfer_bytes_per_s") == 4.37 * 1048576);
    assert_string_equal(rd_record_info(r, "url"), "http://10.0.0.12:8080/api/v1/items");
    assert_string_equal(rd_record_info(r, "test_duration"), "1m");
    assert_null(rd_record_info(r, "failure"));
    assert_non_null(strstr(rd_record_info(r, "load_errors"), "read 1243"));
    rd_recordset_release(&f.set);
}

static void wrk_ok_run_and_missing_lines_mean_zero(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(&rd_importer_wrk,
               "Running 30s test @ http://127.0.0.1:8080/index.html\n"
               "  12 threads and 400 connections\n"
               "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
               "    Latency   635.91us    0.89ms  12.92ms   93.69%\n"
               "    Req/Sec    56.20k     8.07k   62.00k    86.54%\n"
               "  22464657 requests in 30.00s, 17.76GB read\n"
               "Requests/sec: 748868.53\n"
               "Transfer/sec:    606.33MB\n",
               &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_string_equal(r->status, "ok");
    assert_null(rd_record_info(r, "failure"));
    assert_true(metric(r, "latency_mean_ms") == 0.63591);  /* 635.91 us, exact decimal */
    assert_true(metric(r, "req_per_thread_stdev") == 8070);
    assert_true(metric(r, "errors_write") == 0);
    assert_true(metric(r, "non_2xx") == 0);
    assert_true(metric(r, "threads") == 12);
    assert_true(metric(r, "connections") == 400);
    double v;
    assert_false(rd_record_metric(r, "latency_p50_ms", &v));
    rd_recordset_release(&f.set);
}

static void wrk_zero_requests_is_failed_with_null_latency(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(&rd_importer_wrk,
               "Running 5s test @ http://localhost:8081\n"
               "  2 threads and 2 connections\n"
               "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
               "    Latency     0.00us    0.00us   0.00us    -nan%\n"
               "    Req/Sec     0.00      0.00     0.00      -nan%\n"
               "  0 requests in 5.00s, 15.11KB read\n"
               "Requests/sec:      0.00\n"
               "Transfer/sec:      3.02KB\n",
               &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_string_equal(r->status, "failed");
    assert_true(isnan(metric(r, "latency_mean_ms")));
    assert_true(isnan(metric(r, "latency_within_stdev_pct")));
    assert_true(metric(r, "bytes_total") == 15.11 * 1024);
    assert_string_equal(rd_record_info(r, "failure"), "no completed requests");
    rd_recordset_release(&f.set);
}

static void wrk_truncated_avg_column_is_milliseconds(void **state)
{
    (void)state;
    struct fixture f;
    /* 999,997 us prints as "1000.00ms", cut to 8 chars "1000.00m" */
    parse_with(&rd_importer_wrk,
               "Running 2m test @ http://x/\n"
               "  1 threads and 10 connections\n"
               "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
               "    Latency   1000.00m   3.21ms   1.01s    68.00%\n"
               "    Req/Sec     9.90      0.30    10.00     90.00%\n"
               "  1190 requests in 2.00m, 125.51KB read\n"
               "Requests/sec:      9.92\n"
               "Transfer/sec:      1.05KB\n",
               &f);
    assert_int_equal(f.s, RD_OK);
    assert_true(metric(&f.set.items[0], "latency_mean_ms") == 1000);
    assert_true(metric(&f.set.items[0], "duration_s") == 120);
    rd_recordset_release(&f.set);

    /* minutes in decimal: 1.67m = 1.67 * 60 s = 100.2 s exactly as printed,
     * not 1.67 * 60000 / 1000 with binary rounding */
    parse_with(&rd_importer_wrk,
               "Running 2m test @ http://x/\n"
               "  1 threads and 10 connections\n"
               "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
               "    Latency    0.85m     3.21ms   1.01m    68.00%\n"
               "    Req/Sec     9.90      0.30    10.00     90.00%\n"
               "  1190 requests in 1.67m, 125.51KB read\n"
               "Requests/sec:     11.88\n"
               "Transfer/sec:      1.25KB\n",
               &f);
    assert_int_equal(f.s, RD_OK);
    assert_true(metric(&f.set.items[0], "duration_s") == 100.2);
    assert_true(metric(&f.set.items[0], "latency_mean_ms") == 51000);  /* 0.85 * 60000 */
    assert_true(metric(&f.set.items[0], "latency_max_ms") == 60600);   /* 1.01 * 60000 */
    rd_recordset_release(&f.set);
}

static void wrk_done_json_refines_numbers(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(&rd_importer_wrk,
               "Running 10s test @ http://127.0.0.1:3000/\n"
               "  4 threads and 64 connections\n"
               "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
               "    Latency     5.42ms    3.38ms  87.04ms   84.17%\n"
               "    Req/Sec     4.61k   702.33     6.12k    70.25%\n"
               "  183562 requests in 10.01s, 25.39MB read\n"
               "Requests/sec:  18336.90\n"
               "Transfer/sec:      2.54MB\n"
               "{\"duration_us\":10010523,\"requests\":183562,\"bytes\":26620490,"
               "\"latency_us\":{\"min\":312,\"max\":87041,\"mean\":5421.37,\"p99.9\":41108},"
               "\"rps\":{\"mean\":4612.08}}\n",
               &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "duration_s") == 10.010523);
    assert_true(metric(r, "bytes_total") == 26620490);
    assert_true(metric(r, "latency_mean_ms") == 5.42137);
    assert_true(metric(r, "latency_min_ms") == 0.312);
    assert_true(metric(r, "latency_p99_9_ms") == 41.108);
    assert_true(metric(r, "req_per_thread_mean") == 4612.08);
    assert_true(metric(r, "rps") == 18336.90);  /* the headline stays the text's */
    rd_recordset_release(&f.set);
}

static void wrk_errors_point_at_token(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(&rd_importer_wrk,
               "Running 30s test @ http://x/\n"
               "  1 threads and 1 connections\n"
               "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
               "    Latency   635.91us    0.89ms  12.92ms   93.69%\n"
               "    Req/Sec    56.20k     8.07q   62.00k    86.54%\n",
               &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 5);
    assert_int_equal(f.d.col, 27);  /* 4 + "Req/Sec" + 4 + "56.20k" + 5 blanks */
    assert_string_equal(f.d.msg, "expected a count like '1.23k', got '8.07q'");
    rd_recordset_release(&f.set);

    /* truncated: the next required line is missing */
    parse_with(&rd_importer_wrk,
               "Running 30s test @ http://x/\n"
               "  1 threads and 1 connections\n",
               &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 3);
    assert_string_equal(f.d.msg, "expected the 'Thread Stats' header, got end of input");
    rd_recordset_release(&f.set);

    /* negative count */
    parse_with(&rd_importer_wrk,
               "Running 30s test @ http://x/\n"
               "  1 threads and 1 connections\n"
               "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
               "    Latency   635.91us    0.89ms  12.92ms   93.69%\n"
               "    Req/Sec    56.20k     8.07k   62.00k    86.54%\n"
               "  -5 requests in 30.00s, 17.76GB read\n",
               &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 6);
    assert_int_equal(f.d.col, 3);
    rd_recordset_release(&f.set);

    /* not wrk at all */
    parse_with(&rd_importer_wrk, "\nSummary:\n  Total:\t1.0 secs\n", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 2);
    rd_recordset_release(&f.set);
}

static void wrk_connect_failure_is_a_failed_run(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(&rd_importer_wrk, "unable to connect to 127.0.0.1:9 Connection refused\n", &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 1);
    assert_string_equal(f.set.items[0].status, "failed");
    assert_true(metric(&f.set.items[0], "requests") == 0);
    rd_recordset_release(&f.set);
}

static const char wrk2_hdr[] =
    "Running 30s test @ http://127.0.0.1:8080/index.html\n"
    "  2 threads and 100 connections\n"
    "  Thread calibration: mean lat.: 9.747ms, rate sampling interval: 20ms\n"
    "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
    "    Latency     6.34ms    2.27ms  30.38ms   72.49%\n"
    "    Req/Sec     1.25k   754.19     2.10k    69.53%\n"
    "  Latency Distribution (HdrHistogram - Recorded Latency)\n"
    " 50.000%    6.09ms\n"
    " 99.900%   17.71ms\n"
    "100.000%   30.40ms\n"
    "\n"
    "  Detailed Percentile spectrum:\n"
    "       Value   Percentile   TotalCount 1/(1-Percentile)\n"
    "\n"
    "       0.516     0.000000            1         1.00\n"
    "      30.399     1.000000        39512          inf\n"
    "#[Mean    =        6.339, StdDeviation   =        2.266]\n"
    "#[Max     =       30.384, Total count    =        39512]\n"
    "#[Buckets =           27, SubBuckets     =         2048]\n"
    "----------------------------------------------------------\n"
    "  60017 requests in 30.01s, 19.81MB read\n"
    "Requests/sec:   2000.16\n"
    "Transfer/sec:    676.04KB\n";

static void wrk2_hdr_block(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(&rd_importer_wrk2, wrk2_hdr, &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_string_equal(r->tool, "wrk2");
    assert_string_equal(r->status, "ok");
    assert_true(metric(r, "latency_p50_ms") == 6.09);
    assert_true(metric(r, "latency_p99_9_ms") == 17.71);
    assert_true(metric(r, "latency_p100_ms") == 30.40);
    assert_true(metric(r, "latency_hist_mean_ms") == 6.339);
    assert_true(metric(r, "latency_hist_count") == 39512);
    assert_true(metric(r, "transfer_bytes_per_s") == 676.04 * 1024);
    assert_non_null(strstr(rd_record_info(r, "thread_calibration"), "9.747ms"));
    rd_recordset_release(&f.set);
}

static void detection_separates_wrk_and_wrk2(void **state)
{
    (void)state;
    struct rd_import_input w = { wrk_latency_errors, strlen(wrk_latency_errors), "a" };
    struct rd_import_input w2 = { wrk2_hdr, strlen(wrk2_hdr), "b" };
    int wrk_on_wrk = rd_importer_wrk.detect(&w), wrk2_on_wrk = rd_importer_wrk2.detect(&w);
    int wrk_on_wrk2 = rd_importer_wrk.detect(&w2), wrk2_on_wrk2 = rd_importer_wrk2.detect(&w2);
    assert_true(wrk_on_wrk >= 90);
    assert_true(wrk2_on_wrk < 50);
    assert_true(wrk2_on_wrk2 > wrk_on_wrk2);
    assert_true(wrk2_on_wrk2 >= 90);
    struct rd_import_input other = { "Summary:\n  Total:\t1 secs\n", 25, "c" };
    assert_true(rd_importer_wrk.detect(&other) < 50);
    assert_true(rd_importer_wrk2.detect(&other) < 50);
}

static void percentile_names(void **state)
{
    (void)state;
    char n[64];
    assert_true(rd_percentile_metric_name("latency", "99.900%", 7, "_ms", n, sizeof n));
    assert_string_equal(n, "latency_p99_9_ms");
    assert_true(rd_percentile_metric_name("latency", "50", 2, "_ms", n, sizeof n));
    assert_string_equal(n, "latency_p50_ms");
    assert_true(rd_percentile_metric_name("latency", "100.000%", 8, "_ms", n, sizeof n));
    assert_string_equal(n, "latency_p100_ms");
    assert_true(rd_percentile_metric_name("latency_uncorrected", "99.999", 6, "_ms", n,
                                          sizeof n));
    assert_string_equal(n, "latency_uncorrected_p99_999_ms");
    assert_true(rd_percentile_metric_name("latency", "050.0", 5, "_ms", n, sizeof n));
    assert_string_equal(n, "latency_p50_ms");
    assert_false(rd_percentile_metric_name("latency", "100.5", 5, "_ms", n, sizeof n));
    assert_false(rd_percentile_metric_name("latency", "1x", 2, "_ms", n, sizeof n));
    assert_false(rd_percentile_metric_name("latency", "", 0, "_ms", n, sizeof n));
    assert_false(rd_percentile_metric_name("latency", "9.9.9", 5, "_ms", n, sizeof n));
    assert_false(rd_percentile_metric_name("latency", "50", 2, "_ms", n, 8));
}

static void decimal_scale_is_exact(void **state)
{
    (void)state;
    assert_true(rd_decimal_scale(5421.37, -3) == 5.42137);
    assert_true(rd_decimal_scale(8.05, 3) == 8050);
    assert_true(rd_decimal_scale(10010523, -6) == 10.010523);
    assert_true(isnan(rd_decimal_scale(NAN, 3)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrk_full_report),
        cmocka_unit_test(wrk_ok_run_and_missing_lines_mean_zero),
        cmocka_unit_test(wrk_zero_requests_is_failed_with_null_latency),
        cmocka_unit_test(wrk_truncated_avg_column_is_milliseconds),
        cmocka_unit_test(wrk_done_json_refines_numbers),
        cmocka_unit_test(wrk_errors_point_at_token),
        cmocka_unit_test(wrk_connect_failure_is_a_failed_run),
        cmocka_unit_test(wrk2_hdr_block),
        cmocka_unit_test(detection_separates_wrk_and_wrk2),
        cmocka_unit_test(percentile_names),
        cmocka_unit_test(decimal_scale_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
