// links: rd_collect
/*
 * test_import_oha - the oha importer's parse() and detect() called directly,
 * on small inputs that the golden cases do not cover.
 *
 * Expected numbers: seconds x 1000 = ms (0.0009 s = 0.9 ms exactly, not
 * 0.9000000000000001), requests = responses + errors (3 + 1 + 2 = 6).
 */
#include <math.h>

#include "jsonimport_test.h"

extern const struct rd_importer rd_importer_oha;
#define IMP (&rd_importer_oha)

static void test_deadline_and_errors(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP,
               "{\"summary\":{\"successRate\":1.0,\"total\":1.0,\"slowest\":0.0021,"
               "\"fastest\":0.0009,\"average\":0.0015,\"requestsPerSec\":6.0,"
               "\"totalData\":39,\"sizePerRequest\":13,\"sizePerSec\":39.0},"
               "\"statusCodeDistribution\":{\"200\":3},"
               "\"errorDistribution\":{\"aborted due to deadline\":2}}",
               &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "latency_min_ms") == 0.9);
    assert_true(metric(r, "latency_max_ms") == 2.1);
    assert_true(metric(r, "aborted_deadline") == 2);
    assert_true(metric(r, "errors") == 0);
    assert_true(metric(r, "requests") == 5);
    assert_string_equal(r->status, "ok"); /* -z cut-offs are not failures */
    rd_recordset_release(&f.set);
    parse_with(IMP,
               "{\"summary\":{\"successRate\":0.75,\"total\":1.0,\"requestsPerSec\":6.0},"
               "\"statusCodeDistribution\":{\"200\":3},"
               "\"errorDistribution\":{\"timeout\":1,\"aborted due to deadline\":2}}",
               &f);
    assert_int_equal(f.s, RD_OK);
    r = &f.set.items[0];
    assert_true(metric(r, "errors_timeout") == 1);
    assert_true(metric(r, "requests") == 6);
    /* A timeout is data: 1 failed of 3 responses + 1 = 0.25 (the two
     * deadline cut-offs are no attempts). */
    assert_string_equal(r->status, "ok");
    assert_true(metric(r, "error_rate") == 0.25);
    rd_recordset_release(&f.set);
}

static void test_bad_keys(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP, "{\"summary\":{\"total\":1,\"requestsPerSec\":1},\n"
                    "\"statusCodeDistribution\":{\"OK\":3}}", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_int_equal(f.d.line, 2);
    assert_int_equal(f.d.col, 32);
    assert_string_equal(f.d.msg, "expected a status code key such as \"200\", got 'OK'");
    rd_recordset_release(&f.set);
}

static void test_detect_samples(void **state)
{
    (void)state;
    check_detect_samples(IMP, "oha-");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deadline_and_errors),
        cmocka_unit_test(test_bad_keys),
        cmocka_unit_test(test_detect_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
