// links: rd_analyze
/*
 * test_sessions.c - runs that are not what they seem: sessions (by store
 * and by a pause in started_at) whose means differ (session_effect), run
 * numbers recorded twice (duplicate_run), and configs measured with
 * different load tools (the tool joins the id, mixed_tools).
 *
 * Expected p-values from SciPy 1.10.1 (Debian python3-scipy), pasted with
 * the call; Welch's ANOVA of two groups is Welch's t-test, F = t^2.
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

/* One run record of workload wl with a started_at and an optional tool. */
static size_t rec_in(char *out, size_t size, const char *wl, const char *cfg, int run,
                     const char *at, const char *tool, double v)
{
    int n = snprintf(out, size,
                     "{\"schema\":\"rundown.run/1\",\"workload\":\"%s\",\"config\":{\"rt\":\"%s\"},"
                     "\"run\":%d,\"started_at\":\"%s\"%s%s%s,\"metrics\":{\"wall_ms\":%.17g}}\n",
                     wl, cfg, run, at, tool ? ",\"tool\":\"" : "", tool ? tool : "",
                     tool ? "\"" : "", v);
    return n > 0 ? (size_t)n : 0;
}

/* One run record of workload "w". */
static size_t rec(char *out, size_t size, const char *cfg, int run, const char *at,
                  const char *tool, double v)
{
    return rec_in(out, size, "w", cfg, run, at, tool, v);
}

/* The analysis of several stores, parsed. */
static cJSON *analyse_stores(const char *const *paths, size_t n)
{
    struct rd_analysis *a = analysis_read(paths, n, NULL);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    struct rd_buf out = RD_BUF_INIT;
    assert_int_equal(rd_analysis_write(a, &out, &d), RD_OK);
    cJSON *doc = NULL;
    assert_int_equal(rd_json_parse(out.ptr, out.len, "out", 1, &doc, NULL), RD_OK);
    rd_buf_release(&out);
    rd_analysis_free(a);
    return doc;
}

static cJSON *analyse_one(const char *path)
{
    const char *paths[] = { path };
    return analyse_stores(paths, 1);
}

static const double base[] = { 100, 101, 99, 100.5, 99.5 };

/* Appends runs first..first+4 of config cfg, values v[r] + shift, started
 * 2 s apart from 10:MM:00 (MM = minute). */
static void five_runs(char *buf, size_t size, size_t *o, const char *cfg, int first, int minute,
                      const char *tool, const double *v, double shift)
{
    for (int r = 0; r < 5; r++) {
        char at[32];
        snprintf(at, sizeof at, "2026-11-30T10:%02d:%02d.000Z", minute, 2 * r);
        *o += rec(buf + *o, size - *o, cfg, first + r, at, tool, v[r] + shift);
    }
}

/* Config a: runs 1-5 in one store, 6-10 in another, 20 % slower there; b
 * about the same in both: the analysis of the two stores. */
static cJSON *two_stores(void)
{
    static const double b2[] = { 100.2, 100.8, 99.4, 100.1, 99.9 };
    char one[4096], two[4096];
    size_t o1 = 0, o2 = 0;
    five_runs(one, sizeof one, &o1, "a", 1, 0, NULL, base, 0);
    five_runs(one, sizeof one, &o1, "b", 1, 0, NULL, base, 0);
    five_runs(two, sizeof two, &o2, "a", 6, 1, NULL, base, 20);
    five_runs(two, sizeof two, &o2, "b", 6, 1, NULL, b2, 0);
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s", write_store("s1.jsonl", one));
    snprintf(p2, sizeof p2, "%s", write_store("s2.jsonl", two));
    const char *paths[] = { p1, p2 };
    return analyse_stores(paths, 2);
}

/* The stores of two_stores(). stats.ttest_ind(A1, A2, equal_var=False): t^2 =
 * 1600.0, p = 1.6785718879145774e-10; for b, A1 against (100.2, 100.8,
 * 99.4, 100.1, 99.9): p = 0.8544863203372708. */
static void test_sessions_by_store(void **state)
{
    (void)state;
    cJSON *doc = two_stores();
    const cJSON *wl = get(doc, "workloads.0");
    const cJSON *w = find_warning(wl, "session_effect", "rt=a");
    assert_non_null(w);
    assert_int_equal(cJSON_GetObjectItem(w, "count")->valueint, 1);
    assert_string_equal(rd_json_str(w, "config"), "rt=a");
    const char *m = rd_json_str(w, "message");
    assert_non_null(strstr(m, "runs of wall_ms come from 2 sessions"));
    assert_non_null(strstr(m, "F = 1.6e+03, p = 1.68e-10"));
    assert_non_null(strstr(m, "session means 100 (n = 5), 120 (n = 5)"));
    assert_false(has_warning(wl, "session_effect", "rt=b"));
    assert_false(has_warning(wl, "duplicate_run", NULL));
    cJSON_Delete(doc);
}

/* Sessions as a level of variance (stats/nested.h, analyze/levels.c):
 * the fixture of test_sessions_by_store. Config a's two session means are
 * 100 and 120 (5 runs each), so its mean's variance is that of the
 * session means over 2, at 1 df; b's sessions do not differ (MSB < MSW),
 * so its between-session variance is 0 and its mean's variance MSW / 10
 * at 10 - 2 df. In R 4.x:
 *   y <- c(100,101,99,100.5,99.5, 120,121,119,120.5,119.5); g <- factor(rep(1:2, each = 5))
 *   summary(aov(y ~ g))[[1]][["Mean Sq"]]  -> 1000 0.625: s_b^2 = (1000 - 0.625) / 5
 *   sm <- tapply(y, g, mean); var(sm) / 2  -> 100 (se 10, = MSB / 10)
 *   mean(y) + c(-1, 1) * qt(0.975, 1) * 10 -> -17.062047361746949 237.062047361746949
 *   share: 199.875 / (199.875 + 0.625) = 0.99688279301745641
 *   b: y <- c(100,101,99,100.5,99.5, 100.2,100.8,99.4,100.1,99.9)
 *   summary(aov(y ~ g))[[1]][["Mean Sq"]]  -> 0.016 0.441: s_b^2 = 0, var 0.441 / 10 = 0.0441
 * a's interval now holds 100 and 120 alike, so a is no longer shown
 * slower than b, and the advice is more sessions. */
static void test_sessions_as_a_level(void **state)
{
    (void)state;
    cJSON *doc = two_stores();
    const cJSON *wl = get(doc, "workloads.0");
    assert_string_equal(gets_(wl, "configs.0.id"), "rt=a");
    assert_true(getn(wl, "configs.0.metrics.wall_ms.sessions") == 2);
    assert_true(getn(wl, "recommendation.looks") == 2);
    assert_true(fabs(getn(wl, "configs.0.metrics.wall_ms.se") - 10) < 1e-12);
    assert_true(getn(wl, "configs.0.metrics.wall_ms.se_df") == 1);
    assert_true(fabs(getn(wl, "configs.0.metrics.wall_ms.ci_low") - -17.062047361746949) < 1e-9);
    assert_true(fabs(getn(wl, "configs.0.metrics.wall_ms.ci_high") - 237.062047361746949) < 1e-9);
    assert_true(fabs(getn(wl, "configs.0.metrics.wall_ms.between_session_share") -
                     0.99688279301745641) < 1e-12);
    assert_true(fabs(getn(wl, "configs.1.metrics.wall_ms.se") - sqrt(0.0441)) < 1e-12);
    assert_true(getn(wl, "configs.1.metrics.wall_ms.se_df") == 8);
    assert_true(getn(wl, "configs.1.metrics.wall_ms.between_session_share") == 0);
    assert_string_equal(gets_(wl, "recommendation.verdicts.0.verdict"), "inconclusive");
    assert_non_null(strstr(gets_(wl, "recommendation.verdicts.0.why"), "more sessions"));
    assert_non_null(strstr(gets_(wl, "recommendation.reason"), "more sessions"));
    const char *m = rd_json_str(find_warning(wl, "session_effect", "rt=a"), "message");
    assert_non_null(strstr(m, "the mean's interval and the verdicts now include the variance "
                              "between sessions (99.7 % of the variance, df 1)"));
    cJSON_Delete(doc);
}

/* Three sessions of 4, 3 and 5 runs: the unbalanced ANOVA estimators and
 * Satterthwaite's df (stats/nested.h). In R 4.x:
 *   y <- c(10.1,10.3,9.8,10.0, 11.2,11.0,11.5, 10.4,10.6,10.2,10.9,10.5)
 *   g <- factor(c(rep(1,4), rep(2,3), rep(3,5)))
 *   t <- summary(aov(y ~ g))[[1]]; msb <- t[["Mean Sq"]][1]; msw <- t[["Mean Sq"]][2]
 *   nj <- as.vector(table(g)); N <- sum(nj); m <- length(nj)
 *   n0 <- (N - sum(nj^2) / N) / (m - 1); sb2 <- max(0, (msb - msw) / n0)
 *   a <- sum(nj^2) / (N^2 * n0); b <- 1 / N - a; vm <- a * msb + b * msw
 *   vm^2 / ((a * msb)^2 / (m - 1) + (b * msw)^2 / (N - m))
 *   -> se sqrt(vm) 0.325994417323492158, df 1.988375749608249254,
 *      share sb2 / (sb2 + msw) 0.833614847768538114
 * Satterthwaite's 1.988 is below m - 1 = 2 (unequal sessions, b < 0): the
 * df is floored at min(m - 1, N - m) = 2 (stats/nested.h). */
static void test_three_sessions(void **state)
{
    (void)state;
    static const double y[] = { 10.1, 10.3, 9.8, 10.0, 11.2, 11.0, 11.5,
                                10.4, 10.6, 10.2, 10.9, 10.5 };
    static const int cut[] = { 0, 4, 7, 12 };
    char text[3][4096], paths[3][256];
    const char *pp[3];
    for (int s = 0; s < 3; s++) {
        size_t o = 0;
        for (int r = cut[s]; r < cut[s + 1]; r++) {
            char at[32];
            snprintf(at, sizeof at, "2026-11-30T1%d:00:%02d.000Z", s, 2 * r);
            o += rec(text[s] + o, sizeof text[s] - o, "a", r + 1, at, NULL, y[r]);
            o += rec(text[s] + o, sizeof text[s] - o, "b", r + 1, at, NULL, 20 + y[r] / 10);
        }
        char name[32];
        snprintf(name, sizeof name, "three%d.jsonl", s);
        snprintf(paths[s], sizeof paths[s], "%s", write_store(name, text[s]));
        pp[s] = paths[s];
    }
    cJSON *doc = analyse_stores(pp, 3);
    const cJSON *wl = get(doc, "workloads.0");
    assert_true(getn(wl, "configs.0.metrics.wall_ms.sessions") == 3);
    assert_true(getn(wl, "recommendation.looks") == 3);
    assert_true(fabs(getn(wl, "configs.0.metrics.wall_ms.se") - 0.325994417323492158) < 1e-12);
    assert_true(getn(wl, "configs.0.metrics.wall_ms.se_df") == 2);
    assert_true(fabs(getn(wl, "configs.0.metrics.wall_ms.between_session_share") -
                     0.833614847768538114) < 1e-12);
    cJSON_Delete(doc);
}

/* One store, a run every 10 s per config; a pause longer than both ten
 * times that and 60 s starts a session, a shorter one does not. */
static void test_sessions_by_pause(void **state)
{
    (void)state;
    const int pauses[] = { 90, 200 }; /* seconds after run 5: 90 < 100, 200 > 100 */
    for (int k = 0; k < 2; k++) {
        char text[4096];
        size_t o = 0;
        for (int r = 0; r < 10; r++) {
            long t = 10L * r + (r >= 5 ? pauses[k] - 10 : 0);
            char at[40];
            snprintf(at, sizeof at, "2026-11-30T10:%02ld:%02ld.250Z", t / 60, t % 60);
            o += rec(text + o, sizeof text - o, "a", r + 1, at, NULL,
                     base[r % 5] + (r >= 5 ? 20 : 0));
        }
        cJSON *doc = analyse_one(write_store("pause.jsonl", text));
        const cJSON *wl = get(doc, "workloads.0");
        if (k == 0)
            assert_false(has_warning(wl, "session_effect", NULL));
        else
            assert_true(has_warning(wl, "session_effect", "rt=a"));
        cJSON_Delete(doc);
    }
    /* The same instants written with other offsets: one session. 10:00:00Z
     * is 11:00:00+01:00 and 05:30:00-04:30. */
    char text[4096];
    size_t o = 0;
    const char *ats[] = { "2026-11-30T10:00:00Z", "2026-11-30T11:00:10+01:00",
                          "2026-11-30T05:30:20-04:30", "2026-11-30T10:00:30Z",
                          "2026-11-30T10:00:40.5Z", "2026-11-30T10:00:50Z" };
    for (int r = 0; r < 6; r++)
        o += rec(text + o, sizeof text - o, "a", r + 1, ats[r], NULL, r < 3 ? 100 + r : 150 + r);
    cJSON *doc = analyse_one(write_store("zones.jsonl", text));
    assert_false(has_warning(get(doc, "workloads.0"), "session_effect", NULL));
    cJSON_Delete(doc);
}

/* A suite under a budget goes round its workloads: workload w takes a
 * round of 5 runs per config (2 s apart), then workload v runs for
 * 'away' seconds (a run every 5 s), three times over. w waits minutes
 * between its rounds while the collection runs on: one session. Only
 * when the whole store pauses (v too) for longer than both 10 times the
 * store's typical gap and 60 s does w's next round start a session.
 * Run times of w: base[] + 20 in the rounds after a pause, so a session
 * offset would show as a session_effect warning. */
/* The time t seconds after 2026-11-30 10:00:00 UTC (t < 14 h). */
static void stamp_at(char *at, size_t size, long t)
{
    snprintf(at, size, "2026-11-30T%02ld:%02ld:%02ld.000Z", 10 + t / 3600, t / 60 % 60, t % 60);
}

static void test_sessions_across_workloads(void **state)
{
    (void)state;
    for (int paused = 0; paused < 2; paused++) {
        static char text[1 << 16];
        size_t o = 0;
        long t = 0;
        int vrun = 1;
        for (int round = 0; round < 3; round++) {
            for (int r = 0; r < 5; r++)
                for (int c = 0; c < 2; c++, t += 2) {
                    char at[64];
                    stamp_at(at, sizeof at, t);
                    o += rec_in(text + o, sizeof text - o, "w", c ? "b" : "a", 5 * round + r + 1,
                                at, NULL, base[r] + (paused && round > 0 ? 20 : 0));
                }
            for (long away = 0; away < 300; away += 5, t += 5) {
                char at[64];
                stamp_at(at, sizeof at, t);
                o += rec_in(text + o, sizeof text - o, "v", "a", vrun++, at, NULL, 50 + away % 3);
            }
            if (paused && round == 0)
                t += 600; /* nothing runs for 10 minutes */
        }
        cJSON *doc = analyse_one(write_store("rounds.jsonl", text));
        const cJSON *wl = get(doc, "workloads.1");
        assert_string_equal(rd_json_str(wl, "name"), "w");
        assert_string_equal(gets_(wl, "configs.0.id"), "rt=a");
        if (!paused) {
            /* one session: no two-level variance, the plain 15 - 1 df */
            assert_null(cJSON_GetObjectItem(get(wl, "configs.0.metrics.wall_ms"), "sessions"));
            assert_null(cJSON_GetObjectItem(get(wl, "configs.0.metrics.wall_ms"), "se_df"));
            assert_false(has_warning(wl, "session_effect", NULL));
        } else {
            assert_true(getn(wl, "configs.0.metrics.wall_ms.sessions") == 2);
            assert_true(has_warning(wl, "session_effect", "rt=a"));
        }
        cJSON_Delete(doc);
    }
}

/* One run record of workload "w" that the contention guard set aside
 * (contended) or waited before (info.contention_wait_s, 0: none). */
static size_t rec_guarded(char *out, size_t size, const char *cfg, int run, long t,
                          bool contended, double waited, double v)
{
    char at[64], info[64] = "";
    stamp_at(at, sizeof at, t);
    if (waited > 0)
        snprintf(info, sizeof info, ",\"info\":{\"contention_wait_s\":\"%.2f\"}", waited);
    int n = snprintf(out, size,
                     "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":"
                     "\"%s\"},\"run\":%d,\"started_at\":\"%s\"%s%s,\"metrics\":{\"wall_ms\":"
                     "%.17g}}\n",
                     cfg, run, at, contended ? ",\"contended\":true" : "", info, v);
    return n > 0 ? (size_t)n : 0;
}

/* The contention guard at work is not a pause of the collection. Configs
 * a and b take runs 2 s apart; after a's fifth run the machine is busy:
 * the guard sets aside three runs of b, waiting 70 s before each (longer
 * than the 60 s break), then waits 90 s and takes b's run, which is kept.
 * The collector probed the machine throughout: one session. The same
 * store with the set-aside runs and the waits not recorded (a collection
 * that stopped for 5 minutes) is two. The later runs are 20 % slower, so
 * a second session would show as a session_effect warning. */
static void test_sessions_through_guard_waits(void **state)
{
    (void)state;
    for (int guarded = 0; guarded < 2; guarded++) {
        char text[1 << 13];
        size_t o = 0;
        long t = 0;
        int run[2] = { 1, 1 };
        for (int r = 0; r < 10; r++)
            for (int c = 0; c < 2; c++, t += 2) {
                double waited = 0;
                if (r == 5 && c == 0) {
                    for (int aside = 0; aside < 3; aside++) {
                        t += 70;
                        if (guarded)
                            o += rec_guarded(text + o, sizeof text - o, "a", run[0]++, t, true,
                                             70, 500);
                        t += 2;
                    }
                    t += 90;
                    waited = guarded ? 90 : 0;
                }
                double v = base[r % 5] + (r >= 5 ? 20 : 0);
                o += rec_guarded(text + o, sizeof text - o, c ? "b" : "a", run[c]++, t, false,
                                 waited, v);
            }
        cJSON *doc = analyse_one(write_store("guarded.jsonl", text));
        const cJSON *wl = get(doc, "workloads.0");
        const cJSON *m = get(wl, "configs.1.metrics.wall_ms");
        assert_string_equal(gets_(wl, "configs.1.id"), "rt=b");
        if (guarded) {
            assert_null(cJSON_GetObjectItem(m, "sessions"));
            assert_false(has_warning(wl, "session_effect", NULL));
            assert_true(has_warning(wl, "contended", "rt=a"));
        } else {
            assert_true(getn(wl, "configs.1.metrics.wall_ms.sessions") == 2);
            assert_true(has_warning(wl, "session_effect", "rt=b"));
        }
        cJSON_Delete(doc);
    }
}

/* A store read twice: every run number twice, two sessions of equal
 * means (no session effect). */
static void test_duplicate_runs(void **state)
{
    (void)state;
    char text[4096];
    size_t o = 0;
    five_runs(text, sizeof text, &o, "a", 1, 0, NULL, base, 0);
    char path[256];
    snprintf(path, sizeof path, "%s", write_store("twice.jsonl", text));
    const char *paths[] = { path, path };
    cJSON *doc = analyse_stores(paths, 2);
    const cJSON *wl = get(doc, "workloads.0");
    const cJSON *w = find_warning(wl, "duplicate_run", "rt=a");
    assert_non_null(w);
    assert_string_equal(rd_json_str(w, "message"),
                        "run numbers 1, 2, 3, 4, 5 recorded more than once (5 extra records): "
                        "two collections stored under the same numbers, or a store read "
                        "twice; the run order, and the trend test with it, is ambiguous");
    assert_false(has_warning(wl, "session_effect", NULL));
    assert_true(getn(wl, "configs.0.metrics.wall_ms.n") == 10);
    cJSON_Delete(doc);
    /* Repeats already in order (runs 1 1 2 3 3 3 4, no sorting needed):
     * 1 once and 3 twice more, 3 extra records. */
    static const int runs[] = {1, 1, 2, 3, 3, 3, 4};
    o = 0;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        o += (size_t)snprintf(text + o, sizeof text - o,
                              "{\"schema\":\"rundown.run/1\",\"workload\":\"w\","
                              "\"config\":{\"rt\":\"a\"},\"run\":%d,"
                              "\"metrics\":{\"wall_ms\":%zu}}\n", runs[i], 10 + i);
    doc = analyse_one(write_store("repeats.jsonl", text));
    w = find_warning(get(doc, "workloads.0"), "duplicate_run", "rt=a");
    assert_non_null(w);
    assert_string_equal(rd_json_str(w, "message"),
                        "run numbers 1, 3 recorded more than once (3 extra records): "
                        "two collections stored under the same numbers, or a store read "
                        "twice; the run order, and the trend test with it, is ambiguous");
    cJSON_Delete(doc);
}

/* Load tools: one tool keeps the ids; two put the tool in every id of the
 * workload, split a config measured with both, and warn. */
static void test_mixed_tools(void **state)
{
    (void)state;
    char text[8192];
    size_t o = 0;
    five_runs(text, sizeof text, &o, "a", 1, 0, "wrk", base, 0);
    five_runs(text, sizeof text, &o, "b", 1, 0, "wrk", base, 1);
    cJSON *doc = analyse_one(write_store("onetool.jsonl", text));
    const cJSON *wl = get(doc, "workloads.0");
    assert_string_equal(gets_(wl, "configs.0.id"), "rt=a");
    assert_string_equal(gets_(wl, "configs.1.id"), "rt=b");
    assert_false(has_warning(wl, "mixed_tools", NULL));
    cJSON_Delete(doc);
    five_runs(text, sizeof text, &o, "b", 6, 1, "hey", base, 50);
    doc = analyse_one(write_store("twotools.jsonl", text));
    wl = get(doc, "workloads.0");
    assert_int_equal(cJSON_GetArraySize(get(wl, "configs")), 3);
    assert_string_equal(gets_(wl, "configs.0.id"), "rt=a,tool=wrk");
    assert_string_equal(gets_(wl, "configs.1.id"), "rt=b,tool=hey");
    assert_string_equal(gets_(wl, "configs.2.id"), "rt=b,tool=wrk");
    assert_string_equal(gets_(wl, "configs.1.labels.tool"), "hey");
    assert_true(getn(wl, "configs.1.metrics.wall_ms.n") == 5);
    const cJSON *w = find_warning(wl, "mixed_tools", NULL);
    assert_non_null(w);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(w, "config")));
    assert_string_equal(rd_json_str(w, "message"),
                        "the configs of this workload were measured with 2 load tools "
                        "(wrk: 2 configs, hey: 1 config): each config's id names its tool, and "
                        "the verdicts are made per tool (compare_within)");
    cJSON_Delete(doc);
}

int main(void)
{
    if (!tmpdir_make("test_sessions"))
        return 1;
    rd_stats_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sessions_by_store),
        cmocka_unit_test(test_sessions_as_a_level),
        cmocka_unit_test(test_three_sessions),
        cmocka_unit_test(test_sessions_by_pause),
        cmocka_unit_test(test_sessions_across_workloads),
        cmocka_unit_test(test_sessions_through_guard_waits),
        cmocka_unit_test(test_duplicate_runs),
        cmocka_unit_test(test_mixed_tools),
    };
    return tmpdir_remove(cmocka_run_group_tests(tests, NULL, NULL));
}
