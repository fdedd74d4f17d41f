// links: rd_analyze
/*
 * test_pairs.c - analyze/pairs.c end to end: a workload whose setting
 * blocks is "round" (info.blocks or --set W.blocks=round) compares its
 * configs with the best within rounds (docs/methods.md §6, "Paired within
 * rounds").
 *
 * The store: configs a and b, six rounds; b is 10 % faster than a in
 * every round (a = b * 1.10, exactly), while the rounds move both between
 * 100 and 200 ms. Every within-round log ratio is log 1.1, so the paired
 * comparison is exact: a is worse, ratio 1.1 (hand calculation). The
 * unpaired verdict sees two samples spread over 2x and cannot tell.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze_test.h"
#include "stats.h"

static const double round_b[] = { 100, 200, 150, 120, 180, 160 };

/* The store, with info (a JSON object's members, "" none) on every run;
 * the b run of round 'missing' (0: none) left out, and a's run of round
 * 'twice' stored a second time at 300 ms (0: none). */
static const char *store(const char *info, int missing, int twice)
{
    static char text[8192];
    size_t o = 0;
    for (int r = 1; r <= 6; r++)
        for (int c = 0; c < 2; c++) {
            if (c == 1 && r == missing)
                continue;
            double v = round_b[r - 1] * (c == 0 ? 1.1 : 1);
            o += (size_t)snprintf(text + o, sizeof text - o,
                                  "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":"
                                  "{\"rt\":\"%s\"},\"run\":%d,\"info\":{%s},\"metrics\":"
                                  "{\"wall_ms\":%.17g}}\n",
                                  c ? "b" : "a", r, info, v);
        }
    if (twice)
        o += (size_t)snprintf(text + o, sizeof text - o,
                              "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":"
                              "{\"rt\":\"a\"},\"run\":%d,\"info\":{%s},\"metrics\":"
                              "{\"wall_ms\":300}}\n",
                              twice, info);
    return write_store("pairs.jsonl", text);
}

static const cJSON *verdict_of(const cJSON *wl, const char *config)
{
    const cJSON *v;
    cJSON_ArrayForEach(v, get(wl, "recommendation.verdicts"))
        if (strcmp(rd_json_str(v, "config"), config) == 0)
            return v;
    fail_msg("no verdict for %s", config);
    return NULL;
}

static void paired_by_info_and_by_option(void **state)
{
    (void)state;
    struct rd_analyze_opts o;
    opts(&o);
    /* unpaired: the rounds' spread hides the 10 % */
    cJSON *doc = analyse_ok(store("", 0, 0), &o);
    const cJSON *wl = get(doc, "workloads.0");
    assert_string_equal(gets_(wl, "recommendation.method"), "log-ratio-range-mcb-tost");
    assert_null(cJSON_GetObjectItem(get(wl, "recommendation"), "blocks"));
    assert_string_equal(gets_(wl, "recommendation.decision"), "inconclusive");
    cJSON_Delete(doc);
    /* paired by the runs' info */
    doc = analyse_ok(store("\"blocks\":\"round\"", 0, 0), &o);
    wl = get(doc, "workloads.0");
    assert_string_equal(gets_(wl, "recommendation.method"), "paired-log-ratio-range-mcb-tost");
    assert_string_equal(gets_(wl, "recommendation.blocks"), "round");
    assert_string_equal(gets_(wl, "recommendation.decision"), "clear");
    assert_string_equal(gets_(wl, "recommendation.best"), "rt=b");
    const cJSON *a = verdict_of(wl, "rt=a");
    assert_string_equal(rd_json_str(a, "verdict"), "worse");
    assert_true(fabs(getn(a, "ratio") - 1.1) < 1e-12);
    cJSON_Delete(doc);
    /* paired by --set, and --set none turns the runs' setting off */
    const char *on[] = { "w.blocks=round" }, *off[] = { "w.blocks=none" };
    o.settings = on;
    o.nsettings = 1;
    doc = analyse_ok(store("", 0, 0), &o);
    assert_string_equal(gets_(get(doc, "workloads.0"), "recommendation.decision"), "clear");
    cJSON_Delete(doc);
    o.settings = off;
    doc = analyse_ok(store("\"blocks\":\"round\"", 0, 0), &o);
    assert_string_equal(gets_(get(doc, "workloads.0"), "recommendation.method"),
                        "log-ratio-range-mcb-tost");
    cJSON_Delete(doc);
}

/* A round that b lacks pairs with nothing; a run number stored twice
 * pairs by its first copy (the second, at 300 ms, would break the
 * exact ratio). Five rounds, still exact. */
static void gaps_and_duplicates(void **state)
{
    (void)state;
    struct rd_analyze_opts o;
    opts(&o);
    cJSON *doc = analyse_ok(store("\"blocks\":\"round\"", 3, 5), &o);
    const cJSON *wl = get(doc, "workloads.0");
    const cJSON *a = verdict_of(wl, "rt=a");
    assert_string_equal(rd_json_str(a, "verdict"), "worse");
    assert_true(fabs(getn(a, "ratio") - 1.1) < 1e-12);
    cJSON_Delete(doc);
}

/* compare_within splits the workload into parts judged on their own
 * (within.c); each part pairs its configs within rounds too. Tasks 1 and
 * 2, each with a 10 % slower a. */
static void paired_within_parts(void **state)
{
    (void)state;
    static char text[8192];
    size_t o = 0;
    for (int r = 1; r <= 6; r++)
        for (int t = 1; t <= 2; t++)
            for (int c = 0; c < 2; c++)
                o += (size_t)snprintf(text + o, sizeof text - o,
                                      "{\"schema\":\"rundown.run/1\",\"workload\":\"w\","
                                      "\"config\":{\"rt\":\"%s\",\"tasks\":\"%d\"},\"run\":%d,"
                                      "\"info\":{\"blocks\":\"round\",\"compare_within\":"
                                      "\"tasks\"},\"metrics\":{\"wall_ms\":%.17g}}\n",
                                      c ? "b" : "a", t, r,
                                      t * round_b[r - 1] * (c == 0 ? 1.1 : 1));
    struct rd_analyze_opts op;
    opts(&op);
    cJSON *doc = analyse_ok(write_store("parts.jsonl", text), &op);
    const cJSON *wl = get(doc, "workloads.0");
    assert_string_equal(gets_(wl, "recommendation.decision"), "clear");
    cJSON_Delete(doc);
}

static void a_bad_value_is_named(void **state)
{
    (void)state;
    struct rd_analyze_opts o;
    opts(&o);
    const char *bad[] = { "w.blocks=minute" };
    o.settings = bad;
    o.nsettings = 1;
    rd_status s;
    struct rd_diag d;
    cJSON *doc = analyse(store("", 0, 0), &o, &s, &d);
    assert_null(doc);
    assert_int_equal(s, RD_ERR_USAGE);
    assert_non_null(strstr(d.msg, "workload 'w': blocks 'minute' (expected round or none)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paired_by_info_and_by_option),
        cmocka_unit_test(gaps_and_duplicates),
        cmocka_unit_test(paired_within_parts),
        cmocka_unit_test(a_bad_value_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
