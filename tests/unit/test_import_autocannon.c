// links: rd_collect
/*
 * test_import_autocannon - the autocannon importer's parse() and detect()
 * called directly, on small inputs that the golden cases do not cover.
 *
 * Expected numbers are autocannon's printed values converted by hand:
 * toLocaleString groups ("1'540.94" de-CH = 1540.94, "2,51,312" en-IN =
 * 251312), pretty-bytes SI units (1 kB = 1000 B), sampleInt 500 ms means a
 * per-sample value is doubled for per-second figures.
 */
#include <math.h>

#include "jsonimport_test.h"

extern const struct rd_importer rd_importer_autocannon;
#define IMP (&rd_importer_autocannon)

/* A text report with the Req/Sec and Bytes/Sec rows given by the caller. */
static char *report(const char *req_row, const char *footer)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "Running 1s test @ http://127.0.0.1:3000\n"
             "10 connections\n\n\n"
             "┌─────────┬──────┬──────┬───────┬──────┬─────────┬─────────┬───────┐\n"
             "│ Stat    │ 2.5%% │ 50%%  │ 97.5%% │ 99%%  │ Avg     │ Stdev   │ Max   │\n"
             "├─────────┼──────┼──────┼───────┼──────┼─────────┼─────────┼───────┤\n"
             "│ Latency │ 1 ms │ 2 ms │ 3 ms  │ 4 ms │ 2.25 ms │ 0.5 ms  │ 9 ms  │\n"
             "└─────────┴──────┴──────┴───────┴──────┴─────────┴─────────┴───────┘\n"
             "┌───────────┬─────────┬─────────┬─────────┬─────────┬─────────┬─────────┬─────────┐\n"
             "│ Stat      │ 1%%      │ 2.5%%    │ 50%%     │ 97.5%%   │ Avg     │ Stdev   │ Min     │\n"
             "├───────────┼─────────┼─────────┼─────────┼─────────┼─────────┼─────────┼─────────┤\n"
             "%s\n"
             "├───────────┼─────────┼─────────┼─────────┼─────────┼─────────┼─────────┼─────────┤\n"
             "│ Bytes/Sec │ 999 B   │ 1 kB    │ 1000 kB │ 1.5 GB  │ 2 MB    │ 0 B     │ 999 B   │\n"
             "└───────────┴─────────┴─────────┴─────────┴─────────┴─────────┴─────────┴─────────┘\n"
             "\nReq/Bytes counts sampled once per second.\n# of samples: 1\n\n%s",
             req_row, footer);
    return buf;
}

static void test_locale_variants(void **state)
{
    (void)state;
    struct fixture f;
    /* de-CH apostrophes, en-IN lakh grouping, plain (pre-7.14). */
    parse_with(IMP, report("│ Req/Sec   │ 1'540   │ 2,51,312 │ 20623  │ 0       │ 1'540.94 │ 0,5     │ 7       │",
                           "951 requests in 1.01s, 1.5 kB read\n"), &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 1);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "rps_p1") == 1540);
    assert_true(metric(r, "rps_p2_5") == 251312);
    assert_true(metric(r, "rps_p50") == 20623);
    assert_true(metric(r, "rps") == 1540.94);
    assert_true(metric(r, "rps_stdev") == 0.5);
    assert_true(metric(r, "transfer_p1_bytes_per_s") == 999);
    assert_true(metric(r, "transfer_p2_5_bytes_per_s") == 1000);
    assert_true(metric(r, "transfer_p50_bytes_per_s") == 1000000);
    assert_true(metric(r, "transfer_p97_5_bytes_per_s") == 1.5e9);
    /* Exact footer counts (below 1000) are metrics, not info strings. */
    assert_true(metric(r, "requests_sent") == 951);
    assert_true(metric(r, "bytes_total") == 1500);
    assert_true(metric(r, "latency_mean_ms") == 2.25);
    assert_string_equal(r->status, "ok");
    rd_recordset_release(&f.set);
}

/* The group separators of other locales are code points, not bytes:
 * U+00A0 (no-break space), U+2019 (de-CH's right quote), U+202F (fr). */
static void test_multibyte_group_separators(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP, report("│ Req/Sec   │ 1\xc2\xa0" "540 │ 2\xe2\x80\x99" "540 │ 20\xe2\x80\xaf" "623 │ 0 │ "
                           "1\xc2\xa0" "540,94 │ 0,5 │ 7 │",
                           "951 requests in 1.01s, 1.5 kB read\n"), &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "rps_p1") == 1540);
    assert_true(metric(r, "rps_p2_5") == 2540);
    assert_true(metric(r, "rps_p50") == 20623);
    assert_true(metric(r, "rps") == 1540.94);
    rd_recordset_release(&f.set);
    /* A lone lead byte is no separator. */
    parse_with(IMP, report("│ Req/Sec   │ 1\xc2" "540 │ 1 │ 1 │ 1 │ 1 │ 1 │ 1 │", ""), &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    rd_recordset_release(&f.set);
}

static void test_bad_grouping_is_an_error(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP, report("│ Req/Sec   │ 1,23,4  │ 1       │ 1       │ 1       │ 1       │ 1       │ 1       │", ""),
               &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 13);
    assert_int_equal(f.d.col, 19);
    assert_string_equal(f.d.msg, "expected a request rate like '25,131.2', got '1,23,4'");
    rd_recordset_release(&f.set);
    /* One mark cannot both group and split: "1.234.5" */
    parse_with(IMP, report("│ Req/Sec   │ 1.234.5 │ 1       │ 1       │ 1       │ 1       │ 1       │ 1       │", ""),
               &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    rd_recordset_release(&f.set);
}

/* Found by fuzzing: a Code row cut short read a cell that was not there. */
static void test_code_row_one_cell(void **state)
{
    (void)state;
    struct fixture f;
    char buf[8192]; /* report() returns at most 4095 bytes */
    snprintf(buf, sizeof buf, "%s┌──────┬───────┐\n│ Code │ Count\n├──────┼───────┤\n│ 50   │ 89\n",
             report("│ Req/Sec   │ 1       │ 1       │ 1       │ 1       │ 1       │ 0       │ 1       │",
                    ""));
    parse_with(IMP, buf, &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 24);
    assert_string_equal(f.d.msg, "expected a row '│ code │ count │', got '50'");
    rd_recordset_release(&f.set);
}

static void test_text_failure_lines(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP, report("│ Req/Sec   │ 1       │ 1       │ 1       │ 1       │ 1       │ 0       │ 1       │",
                           "12 requests in 1s, 999 B read\n"
                           "3 requests with mismatched body\n"
                           "request pipeline was reset 1 time\n"), &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "mismatches") == 3);
    assert_true(metric(r, "resets") == 1);
    assert_true(metric(r, "duration_s") == 1);
    /* Failed requests are data: ok, with 3 mismatched of the 12 sent
     * (the attempts, as the text has no response counts) = 0.25. */
    assert_string_equal(r->status, "ok");
    assert_string_equal(rd_record_info(r, "load_errors"), "mismatched responses: 3");
    assert_true(metric(r, "error_rate") == 0.25);
    rd_recordset_release(&f.set);
}

static void test_json_sample_interval_and_url_array(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP,
               "{\"url\":[\"http://a/\",\"http://b/\"],\"title\":\"t\",\"connections\":1,"
               "\"sampleInt\":500,\"duration\":1,\"errors\":0,\"timeouts\":0,"
               "\"mismatches\":1,\"non2xx\":0,\"2xx\":10,"
               "\"statusCodeStats\":{\"200\":{\"count\":\"10\"}},"
               "\"latency\":{\"average\":1.5,\"stddev\":0,\"min\":1,\"max\":2},"
               "\"requests\":{\"average\":5,\"stddev\":1,\"min\":4,\"max\":6,\"total\":10,\"sent\":10},"
               "\"throughput\":{\"average\":100,\"stddev\":0,\"min\":100,\"max\":100,\"total\":200}}\n",
               &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "rps") == 10);           /* 5 per 500 ms */
    assert_true(metric(r, "rps_max") == 12);
    assert_true(metric(r, "transfer_bytes_per_s") == 200);
    assert_true(metric(r, "status_200") == 10);    /* README-style string count */
    assert_string_equal(rd_record_info(r, "url"), "http://a/ http://b/");
    assert_string_equal(rd_record_info(r, "title"), "t");
    assert_string_equal(r->status, "ok");          /* a mismatched body is data: */
    assert_true(metric(r, "error_rate") == 0.1);   /* 1 of the 10 responses */
    assert_false(has_metric(r, "latency_p50_ms"));
    rd_recordset_release(&f.set);
}

static void test_json_errors_are_positioned(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP, "{\"latency\":{},\"requests\":{\"mean\":1},\n \"throughput\":{\"mean\":-1}}\n", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 1);
    rd_recordset_release(&f.set);
    parse_with(IMP, "{\"latency\":{\"mean\":1},\"requests\":{\"mean\":1},\n \"throughput\":{\"mean\":-1}}\n", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 2);
    assert_int_equal(f.d.col, 23);
    assert_string_equal(f.d.msg, "expected a non-negative mean, got '-1'");
    rd_recordset_release(&f.set);
}

static void test_detect_samples(void **state)
{
    (void)state;
    check_detect_samples(IMP, "autocannon-");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locale_variants),
        cmocka_unit_test(test_multibyte_group_separators),
        cmocka_unit_test(test_bad_grouping_is_an_error),
        cmocka_unit_test(test_code_row_one_cell),
        cmocka_unit_test(test_text_failure_lines),
        cmocka_unit_test(test_json_sample_interval_and_url_array),
        cmocka_unit_test(test_json_errors_are_positioned),
        cmocka_unit_test(test_detect_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
