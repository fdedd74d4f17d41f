// links: rd_collect
/*
 * test_import_hyperfine - the hyperfine importer's parse() and detect() called directly,
 * on small inputs that the golden cases do not cover.
 *
 * Expected numbers: seconds x 1000 = ms (0.5 s = 500 ms, 0.0125 s = 12.5 ms),
 * bytes / 1024 = KiB (1048576 B = 1024 KiB).
 */
#include <math.h>

#include "jsonimport_test.h"

extern const struct rd_importer rd_importer_hyperfine;
#define IMP (&rd_importer_hyperfine)

static void test_runs_labels_and_status(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP,
               "{\"results\":[\n"
               " {\"command\":\"a\",\"mean\":0.5,\"times\":[0.5,0.0125],\n"
               "  \"memory_usage_byte\":[1048576,0],\"exit_codes\":[0,null]},\n"
               " {\"command\":\"b\",\"mean\":1,\"times\":[1],\"exit_codes\":[3]}]}\n",
               &f);
    assert_int_equal(f.s, RD_OK);
    assert_int_equal(f.set.len, 3);
    const struct rd_record *r = &f.set.items[0];
    assert_true(metric(r, "wall_ms") == 500);
    assert_true(metric(r, "max_rss_kib") == 1024);
    assert_string_equal(r->status, "ok");
    assert_string_equal(rd_record_label(r, "command"), "a"); /* no parameters tell a from b */
    assert_int_equal(r->source_line, 2);
    r = &f.set.items[1];
    assert_true(metric(r, "wall_ms") == 12.5);
    assert_false(has_metric(r, "max_rss_kib")); /* 0 = not measured */
    assert_string_equal(r->status, "failed");   /* null exit code: a signal */
    assert_false(r->has_exit_code);
    r = &f.set.items[2];
    assert_int_equal(r->exit_code, 3);
    assert_string_equal(r->status, "failed");
    assert_string_equal(rd_record_info(r, "command"), "b");
    assert_int_equal(r->source_line, 4);
    rd_recordset_release(&f.set);
}

static void test_parameters_become_labels(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP,
               "{\"results\":[{\"command\":\"x 1\",\"times\":[0.001],\"parameters\":{\"n\":\"1\"}},"
               "{\"command\":\"x 2\",\"times\":[0.002],\"parameters\":{\"n\":\"2\"}}]}",
               &f);
    assert_int_equal(f.s, RD_OK);
    assert_string_equal(rd_record_label(&f.set.items[0], "n"), "1");
    assert_null(rd_record_label(&f.set.items[0], "command"));
    assert_string_equal(rd_record_label(&f.set.items[1], "n"), "2");
    assert_true(metric(&f.set.items[1], "wall_ms") == 2);
    rd_recordset_release(&f.set);
}

static void test_errors(void **state)
{
    (void)state;
    struct fixture f;
    parse_with(IMP, "{\"results\":[{\"command\":\"a\",\"times\":[]}]}", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_string_equal(f.d.msg, "expected at least one run time, got '[]}]}'");
    rd_recordset_release(&f.set);
    parse_with(IMP, "{\"results\":[{\"command\":\"a\",\"times\":[1],\"exit_codes\":[1.5]}]}", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_string_equal(f.d.msg, "expected an exit code (a whole number or null), got '1.5'");
    rd_recordset_release(&f.set);
    /* Found by fuzzing: a code beyond int must be an error, not a cast. */
    parse_with(IMP, "{\"results\":[{\"command\":\"a\",\"times\":[1],\"exit_codes\":[3.106e12]}]}", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_string_equal(f.d.msg, "expected an exit code (a whole number or null), got '3.106e12'");
    rd_recordset_release(&f.set);
    parse_with(IMP, "{\"results\":[{\"command\":\"a\",\"times\":[1],\"parameters\":{\"n\":2}}]}", &f);
    assert_int_equal(f.s, RD_ERR_PARSE);
    assert_string_equal(f.d.msg, "expected a parameter value as a string, got '2'");
    rd_recordset_release(&f.set);
}

static void test_detect_samples(void **state)
{
    (void)state;
    check_detect_samples(IMP, "hyperfine-");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_labels_and_status),
        cmocka_unit_test(test_parameters_become_labels),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_detect_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
