// links: rd_collect
/*
 * test_loadrate - the error rate of a stored load record
 * (core/src/loadrate.c, rd_load_tally_of_record): by hand for each tool,
 * from counts chosen so the rate is worked out in the comment, and
 * against the importers themselves: for every sample in data/samples the
 * rate derived from the record's counts is the error_rate its importer
 * wrote (the analysis uses the derivation for records older than
 * error_rate, so the two must never differ).
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "importer.h"
#include "rundown/fsutil.h"
#include "rundown/loadrate.h"

struct counts {
    const char *name;
    double value;
};

/* The rate derived from a record of 'tool' holding the counts; NaN when
 * there is none (and *derived false when the tally could not be had). */
static double rate_of(const char *tool, const struct counts *c, size_t n, const char *info_key,
                      bool *derived)
{
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    assert_non_null(r);
    assert_int_equal(rd_record_set(r, &r->tool, tool), RD_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(rd_record_set_metric(r, c[i].name, c[i].value), RD_OK);
    if (info_key)
        assert_int_equal(rd_record_set_info(r, info_key, "2k"), RD_OK);
    struct rd_load_tally t;
    *derived = rd_load_tally_of_record(&t, r);
    double rate = *derived ? rd_load_error_rate(&t) : NAN;
    rd_recordset_release(&set);
    return rate;
}

/* rate_of for counts that must give a tally. */
static double derived_rate(const char *tool, const struct counts *c, size_t n)
{
    bool derived;
    double rate = rate_of(tool, c, n, NULL, &derived);
    assert_true(derived);
    return rate;
}

#define RATE(tool, ...)                                                                    \
    derived_rate(tool, (const struct counts[]){__VA_ARGS__},                               \
                 sizeof((const struct counts[]){__VA_ARGS__}) / sizeof(struct counts))

static void test_by_hand(void **state)
{
    (void)state;
    /* wrk: timeouts are among the requests; connect, read and write errors
     * are not. (10 + 5 + 2 + 20 + 30) / (1000 + 10 + 5 + 2) = 67 / 1017. */
    double wrk = RATE("wrk", {"requests", 1000}, {"errors_connect", 10}, {"errors_read", 5},
                      {"errors_write", 2}, {"errors_timeout", 20}, {"non_2xx", 30});
    assert_true(wrk == 67.0 / 1017.0);
    assert_true(RATE("wrk2", {"requests", 1000}, {"errors_timeout", 20}) == 20.0 / 1000.0);
    /* ab: read and write errors are among the complete requests, connect
     * errors and exceptions (other) are not.
     * (4 + 6 + 8 + 2 + 10) / (500 + 4 + 2) = 30 / 506. */
    double ab = RATE("ab", {"requests", 500}, {"errors_connect", 4}, {"errors_read", 6},
                     {"errors_write", 8}, {"errors_other", 2}, {"non_2xx", 10});
    assert_true(ab == 30.0 / 506.0);
    /* hey: no error is among the responses. (3 + 5 + 3) / (12 + 3 + 5) = 0.55
     * (docs/formats.md's hey-errors.txt). */
    double hey = RATE("hey", {"requests", 12}, {"errors_connect", 3}, {"errors_timeout", 5},
                      {"errors_total", 8}, {"non_2xx", 3});
    assert_true(hey == 11.0 / 20.0);
    /* hey's csv (no errors_total): errors unknown. */
    assert_true(isnan(RATE("hey", {"requests", 12}, {"non_2xx", 3})));
    /* autocannon JSON: completed = requests.total, errors and timeouts got
     * no response, mismatches did. (1700 + 31 + 21105 + 4) / (1174315 + 1731). */
    double ac = RATE("autocannon", {"requests", 1174315}, {"errors", 1731},
                     {"errors_connect", 1700}, {"errors_timeout", 31}, {"non_2xx", 21105},
                     {"mismatches", 4}, {"status_2xx", 1153210}, {"rps", 1});
    assert_true(ac == 22840.0 / 1176046.0);
    /* autocannon text: completed = 2xx + non-2xx. (6 + 10) / (90 + 10 + 6). */
    assert_true(RATE("autocannon", {"status_2xx", 90}, {"non_2xx", 10}, {"errors_connect", 6},
                     {"rps", 9}) == 16.0 / 106.0);
    /* bombardier: requests hold the 5 others, which are errors of no known
     * kind: completed 995, other = (8 - 3) + 0 = 5.
     * (3 + 5 + 20) / (995 + 3 + 5) = 28 / 1003. */
    double bo = RATE("bombardier", {"requests", 1000}, {"others", 5}, {"errors", 8},
                     {"errors_timeout", 3}, {"non_2xx", 20}, {"status_2xx", 975});
    assert_true(bo == 28.0 / 1003.0);
    /* oha: completed = 900 + 50; 20 cut off at the deadline are no attempt;
     * other = 30 - 10 - 5. (10 + 5 + 15 + 50) / (950 + 30) = 80 / 980. */
    double oha = RATE("oha", {"requests", 1000}, {"status_2xx", 900}, {"non_2xx", 50},
                      {"errors", 30}, {"errors_timeout", 10}, {"errors_connect", 5},
                      {"aborted_deadline", 20});
    assert_true(oha == 80.0 / 980.0);
    /* k6: http_reqs are the attempts. 12 / 8796 (tests/cases/import-k6). */
    assert_true(RATE("k6", {"requests", 8796}, {"requests_failed", 12}) == 12.0 / 8796.0);

    bool derived;
    const struct counts some[] = {{"requests", 10}, {"errors_connect", 1}};
    /* No known tool: every failed request is outside the completed ones.
     * 1 / (10 + 1). */
    assert_true(rate_of("rundown", some, 2, NULL, &derived) == 1.0 / 11.0);
    assert_true(derived);
    rate_of("rundown", some, 1, NULL, &derived);
    assert_false(derived); /* no error count: no load run */
    rate_of("wrk", some + 1, 1, NULL, &derived);
    assert_false(derived); /* no request count */
    rate_of("autocannon", some, 2, "errors", &derived);
    assert_false(derived); /* the footer rounded the errors */
    /* Without a request count: no tally, but for autocannon's text (its
     * 2xx and non-2xx responses are the completed ones; 1 / (3 + 1)) and
     * k6 (failed requests without attempts: still a tally). */
    const char *no_requests[] = {"rundown", "", "wrk", "wrk2", "ab", "hey", "bombardier",
                                 "oha"};
    for (size_t i = 0; i < sizeof no_requests / sizeof no_requests[0]; i++) {
        rate_of(no_requests[i], some + 1, 1, NULL, &derived);
        assert_false(derived);
    }
    assert_true(rate_of("autocannon", (const struct counts[]){{"status_2xx", 3}, {"non_2xx", 1},
                                                         {"rps", 1}},
                        3, NULL, &derived) == 0.25);
    assert_true(derived);
    rate_of("k6", (const struct counts[]){{"requests_failed", 2}}, 1, NULL, &derived);
    assert_true(derived);
}

/* Imports path with the importer that detects it; for every load record,
 * the derived rate must be the importer's. Returns the records compared. */
static size_t compare_file(const char *path)
{
    struct rd_buf raw = RD_BUF_INIT;
    struct rd_diag d;
    rd_diag_init(&d, path);
    if (rd_read_file(path, 64u << 20, &raw, &d) != RD_OK) {
        rd_buf_release(&raw);
        return 0;
    }
    struct rd_import_input in;
    size_t compared = 0;
    const struct rd_importer *imp = NULL;
    if (rd_import_normalise(&raw, path, &in, &d) == RD_OK)
        imp = rd_importer_detect(&in, &d);
    struct rd_recordset set;
    rd_recordset_init(&set);
    if (imp && imp->load && imp->parse(&in, &set, &d) == RD_OK) {
        for (size_t i = 0; i < set.len; i++) {
            struct rd_record *r = &set.items[i];
            double want;
            assert_true(rd_record_metric(r, "error_rate", &want));
            assert_int_equal(rd_record_set(r, &r->tool, imp->name), RD_OK);
            struct rd_load_tally t;
            if (!rd_load_tally_of_record(&t, r)) {
                /* Only a rounded count keeps the exact rate out of the record. */
                if (!rd_record_info(r, "error_rate_note"))
                    fail_msg("%s run %zu: no tally from the record", path, i + 1);
                continue;
            }
            double got = rd_load_error_rate(&t);
            if (!(got == want || (isnan(got) && isnan(want))))
                fail_msg("%s run %zu: derived %.17g, importer %.17g", path, i + 1, got, want);
            compared++;
        }
    }
    rd_recordset_release(&set);
    rd_buf_release(&raw);
    return compared;
}

static void test_same_as_importers(void **state)
{
    (void)state;
    const char *dir = RD_SOURCE_DIR "/data/samples";
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    size_t compared = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        compared += compare_file(path);
    }
    closedir(dp);
    /* Every load tool has samples: far more than a handful of records. */
    assert_true(compared >= 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_same_as_importers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
