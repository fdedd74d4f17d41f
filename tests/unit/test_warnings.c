// links: rd_analyze
/*
 * test_warnings.c - analyze/warnings.c end to end: which findings a store
 * gives, and how the findings of one kind are merged per workload (count,
 * configs, one sentence that names them), their levels, and the warnings
 * for --exclude-outliers, the bootstrap's coverage and overflow.
 *
 * Expected coverages are from SciPy (binom), pasted with the call; the
 * rest are counts and sentences written by hand.
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

/* Three configs of 3 runs each, CV about 20 %, and one of 6 runs, CV 1 %. */
static const char *spread_store(void)
{
    return write_store("spread.jsonl",
        REC("w", "\"rt\":\"a\"", 1, "", "\"wall_ms\":80") REC("w", "\"rt\":\"a\"", 2, "", "\"wall_ms\":100")
        REC("w", "\"rt\":\"a\"", 3, "", "\"wall_ms\":120")
        REC("w", "\"rt\":\"b\"", 1, "", "\"wall_ms\":160") REC("w", "\"rt\":\"b\"", 2, "", "\"wall_ms\":200")
        REC("w", "\"rt\":\"b\"", 3, "", "\"wall_ms\":240")
        REC("w", "\"rt\":\"c\"", 1, "", "\"wall_ms\":40") REC("w", "\"rt\":\"c\"", 2, "", "\"wall_ms\":50")
        REC("w", "\"rt\":\"c\"", 3, "", "\"wall_ms\":60")
        REC("w", "\"rt\":\"d\"", 1, "", "\"wall_ms\":100") REC("w", "\"rt\":\"d\"", 2, "", "\"wall_ms\":101")
        REC("w", "\"rt\":\"d\"", 3, "", "\"wall_ms\":99") REC("w", "\"rt\":\"d\"", 4, "", "\"wall_ms\":100")
        REC("w", "\"rt\":\"d\"", 5, "", "\"wall_ms\":102") REC("w", "\"rt\":\"d\"", 6, "", "\"wall_ms\":98"));
}

static int count_code(const cJSON *wl, const char *code)
{
    int n = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, get(wl, "warnings")) {
        const char *c = rd_json_str(w, "code");
        n += c && strcmp(c, code) == 0;
    }
    return n;
}

static void test_merged_per_kind(void **state)
{
    (void)state;
    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    cJSON *doc = analyse_ok(spread_store(), &o);
    const cJSON *wl = get(doc, "workloads.0");
    /* CV 20 % (sd 20 / mean 100, 40/200, 10/50): one warning for the three */
    assert_int_equal(count_code(wl, "high_cv"), 1);
    const cJSON *w = find_warning(wl, "high_cv", NULL);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(w, "config")));
    assert_string_equal(rd_json_str(w, "metric"), "wall_ms");
    assert_string_equal(rd_json_str(w, "level"), "warning");
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 3);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(w, "configs")), 3);
    assert_string_equal(rd_json_str(w, "message"),
                        "3 configs have a CV of wall_ms above 10 %: a (20.0 %), b (20.0 %), "
                        "c (20.0 %)");
    assert_int_equal(count_code(wl, "few_runs"), 1);
    assert_true(has_warning(wl, "few_runs", "rt=b"));
    assert_false(has_warning(wl, "few_runs", "rt=d"));
    /* The median CI at n = 3 (a, b, c) and n = 5 needs n >= 6 at 95 %: one
     * info line; d has n = 6 and its CI. */
    w = find_warning(wl, "undefined", "rt=a");
    assert_non_null(w);
    assert_string_equal(rd_json_str(w, "level"), "info");
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 3);
    assert_string_equal(rd_json_str(w, "message"),
                        "3 configs have no CI of the median of wall_ms: below n = 6 no interval "
                        "between order statistics reaches 95 % confidence: a (n = 3), "
                        "b (n = 3), c (n = 3)");
    assert_false(has_warning(wl, "undefined", "rt=d"));
    /* Every warning has the keys, a single one its own config. */
    const cJSON *x;
    cJSON_ArrayForEach(x, get(wl, "warnings")) {
        assert_non_null(cJSON_GetObjectItem(x, "level"));
        int count = cJSON_GetObjectItem(x, "count")->valueint;
        assert_true(count >= 1);
        if (count == 1 && cJSON_IsString(cJSON_GetObjectItem(x, "config")))
            assert_string_equal(rd_json_str(x, "config"),
                                cJSON_GetArrayItem(cJSON_GetObjectItem(x, "configs"), 0)->valuestring);
    }
    cJSON_Delete(doc);
}

/* Twelve configs of 2 runs: the list stops at ten names. */
/* The contended warning says what the guard judged each set-aside run by,
 * counted by hand: of a's 3 contended runs, one by other processes' CPU,
 * one by both the CPU's speed and the wake-up, one from before the probes
 * (no contended_by: other processes' CPU was the only test then). */
static void test_contended_names_its_reasons(void **state)
{
    (void)state;
    const char *path = write_store("busy.jsonl",
        REC("w", "\"rt\":\"a\"", 1, "", "\"wall_ms\":100") REC("w", "\"rt\":\"a\"", 2, "", "\"wall_ms\":101")
        REC("w", "\"rt\":\"a\"", 3, "", "\"wall_ms\":99") REC("w", "\"rt\":\"a\"", 4, "", "\"wall_ms\":100")
        REC("w", "\"rt\":\"a\"", 5, ",\"contended\":true,\"info\":{\"contended_by\":\"load\"}",
            "\"wall_ms\":140")
        REC("w", "\"rt\":\"a\"", 6, ",\"contended\":true,\"info\":{\"contended_by\":\"speed,wakeup\"}",
            "\"wall_ms\":150")
        REC("w", "\"rt\":\"a\"", 7, ",\"contended\":true", "\"wall_ms\":160")
        REC("w", "\"rt\":\"b\"", 1, "", "\"wall_ms\":90") REC("w", "\"rt\":\"b\"", 2, "", "\"wall_ms\":91")
        REC("w", "\"rt\":\"b\"", 3, "", "\"wall_ms\":89"));
    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    cJSON *doc = analyse_ok(path, &o);
    const cJSON *w = find_warning(get(doc, "workloads.0"), "contended", "rt=a");
    assert_non_null(w);
    assert_string_equal(rd_json_str(w, "message"), "3 of 7 runs were taken on a busy machine (2 by other processes' CPU "
                             "above the threshold, 1 by the CPU's speed below the threshold, 1 by "
                             "the cross-CPU wake-up slower than the threshold); excluded from the "
                             "statistics");
    cJSON_Delete(doc);
}

/* Twelve configs c00..c11 of 2 runs, wall_ms 100 + c + run; config
 * 'wide' (-1: none) has 100 and 140 instead. */
static const char *twelve_store(const char *name, int wide)
{
    char text[8192];
    size_t o = 0;
    for (int c = 0; c < 12; c++)
        for (int r = 1; r <= 2; r++)
            o += (size_t)snprintf(text + o, sizeof text - o,
                                  "{\"schema\":\"rundown.run/1\",\"workload\":\"w\","
                                  "\"config\":{\"k\":\"c%02d\"},\"run\":%d,"
                                  "\"metrics\":{\"wall_ms\":%d}}\n",
                                  c, r, c == wide ? 60 + 40 * r : 100 + c + r);
    return write_store(name, text);
}

static void test_merged_list_is_bounded(void **state)
{
    (void)state;
    struct rd_analyze_opts o2;
    rd_analyze_opts_init(&o2);
    cJSON *doc = analyse_ok(twelve_store("twelve.jsonl", -1), &o2);
    const cJSON *w = find_warning(get(doc, "workloads.0"), "few_runs", NULL);
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 12);
    const char *m = rd_json_str(w, "message");
    assert_non_null(strstr(m, "c09 (n = 2) and 2 more"));
    assert_null(strstr(m, "c10"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(w, "configs")), 12);
    cJSON_Delete(doc);
}

/* Kinds interleaved config by config (few_runs, the median's undefined
 * CI, high_cv): a kind that only one config has keeps that config's own
 * sentence, though the kinds around it are merged and their items past
 * the tenth never made. c05's values 100 and 140: mean 120, sd
 * 40 / sqrt 2 = 28.28, CV 23.57 % (by hand); the others' CV is under 1 %. */
static void test_single_kind_among_merged(void **state)
{
    (void)state;
    struct rd_analyze_opts opts;
    rd_analyze_opts_init(&opts);
    cJSON *doc = analyse_ok(twelve_store("single.jsonl", 5), &opts);
    const cJSON *wl = get(doc, "workloads.0");
    assert_int_equal(count_code(wl, "high_cv"), 1);
    const cJSON *w = find_warning(wl, "high_cv", "k=c05");
    assert_non_null(w);
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 1);
    assert_string_equal(rd_json_str(w, "config"), "k=c05");
    assert_string_equal(rd_json_str(w, "message"), "CV of wall_ms is 23.6 % (> 10 %)");
    w = find_warning(wl, "few_runs", NULL);
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 12);
    assert_non_null(strstr(rd_json_str(w, "message"), "c09 (n = 2) and 2 more"));
    w = find_warning(wl, "undefined", "k=c11");
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 12);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(w, "configs")), 12);
    assert_string_equal(rd_json_str(w, "level"), "info");
    cJSON_Delete(doc);
}

static void test_exclude_outliers_warned(void **state)
{
    (void)state;
    const char *s = write_store("outl.jsonl",
        REC("w", "\"rt\":\"a\"", 1, "", "\"wall_ms\":100") REC("w", "\"rt\":\"a\"", 2, "", "\"wall_ms\":101")
        REC("w", "\"rt\":\"a\"", 3, "", "\"wall_ms\":99") REC("w", "\"rt\":\"a\"", 4, "", "\"wall_ms\":100")
        REC("w", "\"rt\":\"a\"", 5, "", "\"wall_ms\":300")
        REC("w", "\"rt\":\"b\"", 1, "", "\"wall_ms\":90") REC("w", "\"rt\":\"b\"", 2, "", "\"wall_ms\":91")
        REC("w", "\"rt\":\"b\"", 3, "", "\"wall_ms\":89") REC("w", "\"rt\":\"b\"", 4, "", "\"wall_ms\":90")
        REC("w", "\"rt\":\"b\"", 5, "", "\"wall_ms\":92"));
    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    cJSON *doc = analyse_ok(s, &o);
    assert_false(has_warning(get(doc, "workloads.0"), "outliers_excluded", NULL));
    cJSON_Delete(doc);
    o.exclude_outliers = true;
    doc = analyse_ok(s, &o);
    const cJSON *w = find_warning(get(doc, "workloads.0"), "outliers_excluded", NULL);
    assert_non_null(w);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(w, "config")));
    assert_non_null(strstr(rd_json_str(w, "message"), "dropped 1 value of wall_ms (1 config)"));
    assert_non_null(strstr(rd_json_str(w, "message"), "more often than alpha"));
    cJSON_Delete(doc);
}

/* The percentile bootstrap's coverage as B grows. Odd n, from SciPy:
 *   F = [binom.sf(m-1, n, k/n) for k in range(n+1)], m = (n+1)//2,
 *   l = first k with F[k] >= 0.025, u = first k with F[k] >= 0.975,
 *   binom.cdf(u-1, n, .5) - binom.cdf(l-1, n, .5)
 * gives n = 3: 0.75, 5: 0.9375, 7: 0.875, 9: 0.9609375, 17:
 * 0.950958251953125, 51: 0.9511261076817297. A simulation of the
 * bootstrap itself (numpy, 2,000 normal samples, B = 2000) agreed: 0.76,
 * 0.937, 0.872, 0.949 at n = 3, 5, 7, 9. */
static void test_bootstrap_coverage(void **state)
{
    (void)state;
    const size_t ns[] = { 3, 5, 7, 9, 17, 51 };
    const double want[] = { 0.75, 0.9375, 0.875, 0.9609375, 0.950958251953125,
                            0.9511261076817297 };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        double got = rd_stats_bootstrap_median_coverage(ns[i], 0.95);
        if (!(fabs(got - want[i]) < 1e-12))
            fail_msg("n = %zu: want %.17g, got %.17g", ns[i], want[i], got);
    }
    /* even n: the mean of the odd neighbours, (0.9375 + 0.875) / 2 */
    assert_true(fabs(rd_stats_bootstrap_median_coverage(6, 0.95) - 0.90625) < 1e-12);
    assert_true(isnan(rd_stats_bootstrap_median_coverage(0, 0.95)));

    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    o.bootstrap = 200;
    cJSON *doc = analyse_ok(spread_store(), &o);
    const cJSON *wl = get(doc, "workloads.0");
    /* n = 3: 75 %, n = 6: 90.6 %, both below 92.5 % */
    const cJSON *w = find_warning(wl, "bootstrap_coverage", NULL);
    assert_non_null(w);
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 4);
    assert_non_null(strstr(rd_json_str(w, "message"), "a (n = 3: 75.0 %)"));
    assert_non_null(strstr(rd_json_str(w, "message"), "d (n = 6: 90.6 %)"));
    cJSON_Delete(doc);
}

/* Values near the double limit: the sd overflows; it is null and named,
 * never 0 or a number. The metric is not a time (times cannot be
 * negative: the record reader refuses them), so -1.7e308 is a value. */
static void test_overflow_named(void **state)
{
    (void)state;
    const char *s = write_store("huge.jsonl",
        REC("w", "\"rt\":\"a\"", 1, "", "\"balance\":1.7e308")
        REC("w", "\"rt\":\"a\"", 2, "", "\"balance\":-1.7e308")
        REC("w", "\"rt\":\"b\"", 1, "", "\"balance\":1e300")
        REC("w", "\"rt\":\"b\"", 2, "", "\"balance\":3e300"));
    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    cJSON *doc = analyse_ok(s, &o);
    const cJSON *wl = get(doc, "workloads.0");
    assert_true(cJSON_IsNull(get(wl, "configs.0.metrics.balance.sd")));
    const cJSON *w = find_warning(wl, "overflow", "rt=a");
    assert_non_null(w);
    assert_non_null(strstr(rd_json_str(w, "message"), "sd, se, ci_low, ci_high"));
    /* b at 1e300 is in range: sd = 2e300 / sqrt 2 */
    assert_true(fabs(getn(wl, "configs.1.metrics.balance.sd") / (2e300 / sqrt(2)) - 1) < 1e-14);
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 1);
    assert_false(has_warning(wl, "overflow", "rt=b"));
    cJSON_Delete(doc);
}

/* The power warning judges the decision's own procedure: the log-scale
 * intervals against the best at the family's critical values. For a =
 * (100, 110, 90), b = (102, 112, 92): sd 10 each, n = 3, best a; k = 2, so
 * the equivalence constant is Student's one-sided t and the one of
 * "slower" the two-sided one, at the log-scale Welch df, 3. In R:
 *   a<-c(100,110,90);b<-c(102,112,92);va<-var(a)/(3*mean(a)^2)
 *   vb<-var(b)/(3*mean(b)^2);df<-floor((va+vb)^2/(va^2/2+vb^2/2))
 *   se<-sqrt(va+vb);qt(0.95,df);expm1(qt(0.95,df)*se);expm1(qt(0.975,df)*se)
 *   -> 2.353363 0.2095844 0.293447
 * so the 90 % interval is at least +-21 % wide, and only a difference
 * above about 29 % can be called slower. */
static void test_power_judges_the_decision(void **state)
{
    (void)state;
    const char *s = write_store("power.jsonl",
        REC("w", "\"rt\":\"a\"", 1, "", "\"wall_ms\":100") REC("w", "\"rt\":\"a\"", 2, "", "\"wall_ms\":110")
        REC("w", "\"rt\":\"a\"", 3, "", "\"wall_ms\":90")
        REC("w", "\"rt\":\"b\"", 1, "", "\"wall_ms\":102") REC("w", "\"rt\":\"b\"", 2, "", "\"wall_ms\":112")
        REC("w", "\"rt\":\"b\"", 3, "", "\"wall_ms\":92"));
    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    cJSON *doc = analyse_ok(s, &o);
    const cJSON *wl = get(doc, "workloads.0");
    const cJSON *w = find_warning(wl, "underpowered", "rt=b");
    assert_non_null(w);
    assert_string_equal(rd_json_str(w, "config"), "rt=b");
    const char *want = "b against the best a on wall_ms: at n = 3 and 3 the decision's "
                       "simultaneous 90 % equivalence interval (2 configs, critical t = 2.35) "
                       "is at least \u00b121 % wide, so equivalence within 5 % cannot be shown "
                       "and only a difference above about 29 % can be called slower";
    assert_true(strncmp(rd_json_str(w, "message"), want, strlen(want)) == 0);
    /* the bound holds for the decision's own interval: b is the slower,
     * so its equivalence interval reaches at least 21 % above 1 */
    double hi = getn(wl, "recommendation.verdicts.1.equivalence_ci_high");
    assert_true(hi - 1 >= 0.2095);
    cJSON_Delete(doc);

    /* 3 runs each and twice as slow: settled (worse), no warning. The
     * Mann-Whitney rule warned here: 3 vs 3 cannot reach p < 0.1. */
    s = write_store("clear3.jsonl",
        REC("w", "\"rt\":\"a\"", 1, "", "\"wall_ms\":100") REC("w", "\"rt\":\"a\"", 2, "", "\"wall_ms\":101")
        REC("w", "\"rt\":\"a\"", 3, "", "\"wall_ms\":99")
        REC("w", "\"rt\":\"b\"", 1, "", "\"wall_ms\":200") REC("w", "\"rt\":\"b\"", 2, "", "\"wall_ms\":201")
        REC("w", "\"rt\":\"b\"", 3, "", "\"wall_ms\":199"));
    doc = analyse_ok(s, &o);
    wl = get(doc, "workloads.0");
    assert_string_equal(gets_(wl, "recommendation.verdicts.1.verdict"), "worse");
    assert_false(has_warning(wl, "underpowered", NULL));
    cJSON_Delete(doc);
}

int main(void)
{
    if (!tmpdir_make("test_warnings"))
        return 1;
    rd_stats_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merged_per_kind),
        cmocka_unit_test(test_merged_list_is_bounded),
        cmocka_unit_test(test_single_kind_among_merged),
        cmocka_unit_test(test_exclude_outliers_warned),
        cmocka_unit_test(test_bootstrap_coverage),
        cmocka_unit_test(test_overflow_named),
        cmocka_unit_test(test_power_judges_the_decision),
        cmocka_unit_test(test_contended_names_its_reasons),
    };
    return tmpdir_remove(cmocka_run_group_tests(tests, NULL, NULL));
}
