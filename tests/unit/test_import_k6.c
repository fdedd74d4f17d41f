// links: rd_collect
/*
 * test_import_k6 - the k6 importer's parse() and detect() called directly,
 * on small inputs that the golden cases do not cover.
 *
 * Expected numbers: k6's own (milliseconds); shape C rps = count /
 * config.duration = 50 / 10 = 5.
 */
#include <math.h>

#include "jsonimport_test.h"

extern const struct rd_importer rd_importer_k6;
#define IMP (&rd_importer_k6)

static void test_shape_c_rates(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP,
               "{\"config\":{\"duration\":10},\"metadata\":{\"k6Version\":\"v1.5.0\"},"
               "\"results\":{\"metrics\":["
               "{\"name\":\"http_reqs\",\"type\":\"counter\",\"contains\":\"default\",\"values\":{\"count\":50}},"
               "{\"name\":\"http_req_failed\",\"type\":\"rate\",\"values\":{\"matches\":2,\"rate\":0.04,\"total\":50}},"
               "{\"name\":\"my_bytes\",\"type\":\"counter\",\"contains\":\"data\",\"values\":{\"count\":7}},"
               "{\"name\":\"wait\",\"type\":\"trend\",\"contains\":\"default\",\"values\":{\"p(99.9)\":3}}]},"
               "\"version\":\"1.0.0\"}",
               &f);
    assert_int_equal(f.s, RD_OK);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "rps") == 5);
    assert_true(metric(r, "requests_failed") == 2);
    assert_true(metric(r, "my_bytes_bytes") == 7);
    assert_true(metric(r, "my_bytes_bytes_per_s") == 0.7);
    assert_true(metric(r, "wait_p99_9") == 3); /* not a time: no _ms */
    assert_string_equal(rd_record_info(r, "tool_version"), "v1.5.0");
    /* Failed requests are data: 2 of the 50 k6 made = 0.04. */
    assert_string_equal(r->status, "ok");
    assert_true(metric(r, "error_rate") == 0.04);
    rd_recordset_release(&f.set);
}

static void test_thresholds_inverted(void **state)
{
    (void)state;
    struct fixture f;
    /* Shape A: true = the threshold FAILED. */
    parse_with(IMP, "{\"root_group\":{},\"metrics\":{\"http_reqs\":{\"count\":1,\"rate\":1,"
                    "\"thresholds\":{\"count>0\":false}}}}", &f);
    assert_int_equal(f.s, RD_OK);
    assert_string_equal(f.set.items[0].status, "ok");
    rd_recordset_release(&f.set);
    /* Shape B: {"ok": false} = failed. */
    parse_with(IMP, "{\"root_group\":{},\"metrics\":{\"http_reqs\":{\"type\":\"counter\","
                    "\"values\":{\"count\":1,\"rate\":1},\"thresholds\":{\"rate>5\":{\"ok\":false}}}}}",
               &f);
    assert_int_equal(f.s, RD_OK);
    assert_true(metric(&f.set.items[0], "thresholds_failed") == 1);
    assert_string_equal(rd_record_info(&f.set.items[0], "thresholds_failed"), "http_reqs: rate>5");
    /* A failed threshold is a finding of the tool, said, not a lost run. */
    assert_string_equal(f.set.items[0].status, "ok");
    assert_string_equal(rd_record_info(&f.set.items[0], "load_errors"),
                        "thresholds failed: http_reqs: rate>5");
    rd_recordset_release(&f.set);
}

static void test_detect_samples(void **state)
{
    (void)state;
    check_detect_samples(IMP, "k6-");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_c_rates),
        cmocka_unit_test(test_thresholds_inverted),
        cmocka_unit_test(test_detect_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
