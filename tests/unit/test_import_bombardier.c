// links: rd_collect
/*
 * test_import_bombardier - the bombardier importer's parse() and detect() called directly,
 * on small inputs that the golden cases do not cover.
 *
 * Expected numbers: 512.00/s has no unit (bytes), 1.50KB/s = 1.5 x 1024 =
 * 1536 B/s, 1.00m = 60000 ms, 850.00us = 0.85 ms.
 */
#include <math.h>

#include "jsonimport_test.h"

extern const struct rd_importer rd_importer_bombardier;
#define IMP (&rd_importer_bombardier)

static const char text[] =
    "Bombarding http://h/ with 10 request(s) using 1 connection(s)\n"
    " 10 / 10 [=====] 100.00%% 5/s 2s\r 10 / 10 [=====] 100.00%% 5/s 2s\n"
    "Done!\n"
    "Statistics        Avg      Stdev        Max\n"
    "  Reqs/sec         5.00       1.00       6.00\n"
    "  Latency      850.00us      1.00m      2.00h\n"
    "  HTTP codes:\n"
    "    1xx - 0, 2xx - 10, 3xx - 0, 4xx - 0, 5xx - 0\n"
    "    others - 0\n"
    "  Throughput:   %s\n";

static void test_units(void **state)
{
    (void)state;
    struct fixture f;
    char buf[1024];
    snprintf(buf, sizeof buf, text, "512.00/s");
    parse_with(IMP, buf, &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "transfer_bytes_per_s") == 512);
    assert_true(metric(r, "latency_mean_ms") == 0.85);
    assert_true(metric(r, "latency_stdev_ms") == 60000);
    assert_true(metric(r, "latency_max_ms") == 7200000);
    assert_true(metric(r, "requests") == 10);
    assert_true(metric(r, "connections") == 1);
    assert_string_equal(rd_record_info(r, "number_of_requests"), "10");
    assert_string_equal(r->status, "ok");
    rd_recordset_release(&f.set);
    snprintf(buf, sizeof buf, text, "1.50KB/s");
    parse_with(IMP, buf, &f);
    assert_true(metric(&f.set.items[0], "transfer_bytes_per_s") == 1536);
    rd_recordset_release(&f.set);
}

static void test_error_lines(void **state)
{
    (void)state;
    struct fixture f;
    char buf[2048];
    snprintf(buf, sizeof buf, "%.*s  Errors:\n"
             "    read tcp 1.2.3.4:5->6.7.8.9:80: read: connection reset by peer - 2\n"
             "    some - text - with dashes - 3\n"
             "  Throughput:     1.00KB/s\n",
             (int)(strstr(text, "  Throughput") - text), text);
    parse_with(IMP, buf, &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "errors") == 5);
    assert_true(metric(r, "errors_read") == 2);
    assert_string_equal(rd_record_info(r, "error_messages"),
                        "read tcp 1.2.3.4:5->6.7.8.9:80: read: connection reset by peer: 2; "
                        "some - text - with dashes: 3");
    /* Errors are data: 5 failed of 10 responses + 5 without one = 1/3. */
    assert_string_equal(r->status, "ok");
    assert_true(metric(r, "error_rate") == 1.0 / 3.0);
    rd_recordset_release(&f.set);
}

/* Found by fuzzing: an error inside the Errors block leaked its text (the
 * ASan build of this test catches a regression). */
static void test_bad_error_line(void **state)
{
    (void)state;
    struct fixture f;
    char buf[2048];
    snprintf(buf, sizeof buf, "%.*s  Errors:\n    timeout - 1\n    no count here\n",
             (int)(strstr(text, "  Throughput") - text), text);
    parse_with(IMP, buf, &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 12);
    assert_string_equal(f.d.msg, "expected an error line '<message> - <count>', got 'no count here'");
    rd_recordset_release(&f.set);
}

static void test_json_without_stats(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP,
               "Bombarding http://h/ for 1s using 1 connection(s)\nDone!\n"
               "{\"spec\":{\"numberOfConnections\":1},\"result\":{\"bytesRead\":0,\"bytesWritten\":0,"
               "\"timeTakenSeconds\":1,\"req1xx\":0,\"req2xx\":0,\"req3xx\":0,\"req4xx\":0,"
               "\"req5xx\":0,\"others\":0}}",
               &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.items[0].source_line, 3);
    assert_string_equal(f.set.items[0].status, "failed"); /* no request completed */
    rd_recordset_release(&f.set);
}

static void test_detect_samples(void **state)
{
    (void)state;
    check_detect_samples(IMP, "bombardier-");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_error_lines),
        cmocka_unit_test(test_bad_error_line),
        cmocka_unit_test(test_json_without_stats),
        cmocka_unit_test(test_detect_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
