// links: rd_analyze
/*
 * The judgement of a published claim against this machine's interval
 * (analyze/claims.c; docs/methods.md §7a). Every band below is worked by
 * hand: band = [lo (1 - m), hi (1 + m)].
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
#include "claims.h"

#define RATIO(lo, hi, m, l, u) rd_claim_judge_ratio((lo), (hi), (m), (l), (u))

/* E's cold start, node/bun = 68.4 / 21.3 = 3.21127; m = 0.05: band
 * 3.21127 * 0.95 = 3.05070 to 3.21127 * 1.05 = 3.37183. */
static void test_point_claim_above_one(void **state)
{
    (void)state;
    double r = 68.4 / 21.3;
    /* This machine's 3.66-3.88 lies above 3.3718: the size differs. */
    assert_int_equal(RATIO(r, r, 0.05, 3.662, 3.881), RD_CLAIM_CONTRADICTED);
    /* 1.2-2.9 lies below 3.0507, the same direction but too small. */
    assert_int_equal(RATIO(r, r, 0.05, 1.2, 2.9), RD_CLAIM_CONTRADICTED);
    /* Meets the band and excludes 1. */
    assert_int_equal(RATIO(r, r, 0.05, 2.9, 3.1), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(r, r, 0.05, 1.01, 3.06), RD_CLAIM_CONSISTENT);
    /* Meets the band but holds 1 too: says nothing about the direction. */
    assert_int_equal(RATIO(r, r, 0.05, 0.9, 3.5), RD_CLAIM_INCONCLUSIVE);
    /* Just past the band's low end (3.0507) on either side. */
    assert_int_equal(RATIO(r, r, 0.05, 2.0, 3.050), RD_CLAIM_CONTRADICTED);
    assert_int_equal(RATIO(r, r, 0.05, 2.0, 3.051), RD_CLAIM_CONSISTENT);
}

/* A = 0.5 B, m = 0.05: band 0.475 to 0.525, below 1. */
static void test_point_claim_below_one(void **state)
{
    (void)state;
    assert_int_equal(RATIO(0.5, 0.5, 0.05, 0.3, 0.49), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(0.5, 0.5, 0.05, 0.45, 1.2), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(0.5, 0.5, 0.05, 0.53, 0.9), RD_CLAIM_CONTRADICTED);
    /* The direction reversed: the band is missed as well. */
    assert_int_equal(RATIO(0.5, 0.5, 0.05, 1.1, 1.4), RD_CLAIM_CONTRADICTED);
}

/* "Alike" (A's "WW and CP alike"), ratio 1, m = 0.05: band 0.95 to 1.05;
 * and 1.03, band 0.9785 to 1.0815, which holds 1 as well. */
static void test_likeness(void **state)
{
    (void)state;
    assert_int_equal(RATIO(1, 1, 0.05, 0.96, 1.04), RD_CLAIM_CONSISTENT);
    /* Bun's worker threads 0.846-0.945 of its child processes here. */
    assert_int_equal(RATIO(1, 1, 0.05, 0.846, 0.945), RD_CLAIM_CONTRADICTED);
    /* Meets the band but reaches past it: not shown alike. */
    assert_int_equal(RATIO(1, 1, 0.05, 0.829, 1.04), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(1.03, 1.03, 0.05, 0.99, 1.07), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(1.03, 1.03, 0.05, 0.99, 1.09), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(1.03, 1.03, 0.05, 0.90, 0.975), RD_CLAIM_CONTRADICTED);
}

/* C's "Deno more than twice Node": at least 2, band 1.9 to infinity;
 * "at most 0.5": band 0 to 0.525. */
static void test_bounds(void **state)
{
    (void)state;
    assert_int_equal(RATIO(2.0, INFINITY, 0.05, 1.569, 3.22), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(2.0, INFINITY, 0.05, 1.2, 1.8), RD_CLAIM_CONTRADICTED);
    assert_int_equal(RATIO(2.0, INFINITY, 0.05, 0.9, 2.5), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(0, 0.5, 0.05, 0.3, 0.6), RD_CLAIM_CONSISTENT);
    assert_int_equal(RATIO(0, 0.5, 0.05, 0.6, 0.9), RD_CLAIM_CONTRADICTED);
    assert_int_equal(RATIO(0, 0.5, 0.05, 0.3, 1.2), RD_CLAIM_INCONCLUSIVE);
}

/* No interval (n < 2, an unbounded Fieller interval): never judged. */
static void test_no_interval(void **state)
{
    (void)state;
    assert_int_equal(RATIO(3.2, 3.2, 0.05, NAN, NAN), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(RATIO(NAN, NAN, 0.05, 1, 2), RD_CLAIM_INCONCLUSIVE);
}

static void test_order(void **state)
{
    (void)state;
    bool yes[] = { true, true }, mixed[] = { true, false };
    double sig[] = { 0.001, 0.002 }, half[] = { 0.001, 0.17 }, nan2[] = { 0.001, NAN };
    assert_int_equal(rd_claim_judge_order(yes, sig, NULL, 2, 0.05), RD_CLAIM_CONSISTENT);
    assert_int_equal(rd_claim_judge_order(yes, half, NULL, 2, 0.05), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(rd_claim_judge_order(yes, nan2, NULL, 2, 0.05), RD_CLAIM_INCONCLUSIVE);
    /* The second pair significantly the other way round. */
    assert_int_equal(rd_claim_judge_order(mixed, sig, NULL, 2, 0.05), RD_CLAIM_CONTRADICTED);
    /* Reversed but not significantly. */
    assert_int_equal(rd_claim_judge_order(mixed, half, NULL, 2, 0.05), RD_CLAIM_INCONCLUSIVE);
    /* p_holm must be below alpha, not equal to it. */
    double at[] = { 0.05, 0.05 };
    assert_int_equal(rd_claim_judge_order(yes, at, NULL, 2, 0.05), RD_CLAIM_INCONCLUSIVE);
    assert_int_equal(rd_claim_judge_order(NULL, NULL, NULL, 0, 0.05), RD_CLAIM_INCONCLUSIVE);
}

/* A pair the study's figures put apart by more than the margin, shown
 * alike here; by hand, margin 0.05: R = 1.42 has band 1.349 .. 1.491,
 * above 1, so an interval wholly below 1.05 rules the order out. */
static void test_pair_alike(void **state)
{
    (void)state;
    assert_true(rd_claim_pair_alike(1.42, 0.05, 0.977, 1.013));
    assert_true(rd_claim_pair_alike(1.42, 0.05, 0.80, 0.90));   /* reversed */
    assert_false(rd_claim_pair_alike(1.42, 0.05, 0.99, 1.06));  /* meets 1.05 */
    assert_false(rd_claim_pair_alike(1.42, 0.05, 1.02, 1.08));
    /* lower is better: R = 0.70 has band 0.665 .. 0.735, below 1 */
    assert_true(rd_claim_pair_alike(0.70, 0.05, 0.983, 1.017));
    assert_false(rd_claim_pair_alike(0.70, 0.05, 0.94, 1.017)); /* reaches below 0.95 */
    /* the study's own gap within the margin: 1.045 * 0.95 = 0.993 < 1 */
    assert_false(rd_claim_pair_alike(1.045, 0.05, 0.99, 1.01));
    /* the band's edge at 1 exactly is not a claimed difference: 1/0.95 */
    assert_false(rd_claim_pair_alike(1 / 0.95, 0.05, 0.99, 1.01));
    assert_false(rd_claim_pair_alike(NAN, 0.05, 0.99, 1.01));
    assert_false(rd_claim_pair_alike(1.42, 0.05, NAN, NAN));
    assert_false(rd_claim_pair_alike(-1.42, 0.05, 0.99, 1.01));
    /* an alike pair contradicts even where the other pairs agree */
    bool yes[] = { true, true }, alike[] = { false, true }, none[] = { false, false };
    double sig[] = { 0.001, 0.002 };
    assert_int_equal(rd_claim_judge_order(yes, sig, alike, 2, 0.05), RD_CLAIM_CONTRADICTED);
    assert_int_equal(rd_claim_judge_order(yes, sig, none, 2, 0.05), RD_CLAIM_CONSISTENT);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(rd_claim_judgement_name(RD_CLAIM_CONSISTENT), "consistent");
    assert_string_equal(rd_claim_judgement_name(RD_CLAIM_CONTRADICTED), "contradicted");
    assert_string_equal(rd_claim_judgement_name(RD_CLAIM_INCONCLUSIVE), "inconclusive");
    assert_null(rd_claim_judgement_name(RD_CLAIM_NOT_EVALUATED));
}

/* A new temporary file named by the template path, open for writing. */
static FILE *temp_store(char *path)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    return f;
}

/* The analysis of the store at path (removed once read) with the claims
 * of the published document study judged into c; doc is study parsed.
 * Free all three. */
static struct rd_analysis *judge_study(const char *path, const char *study, cJSON **doc,
                                       struct rd_claims *c)
{
    rd_stats_init();
    const char *stores[] = { path };
    struct rd_analysis *a = analysis_read(stores, 1, NULL);
    unlink(path);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_json_parse(study, strlen(study), "s.json", 1, doc, &d), RD_OK);
    const char *paths[] = { "published/s.json" }, *files[] = { "s.json" };
    assert_int_equal(rd_claims_judge(a, doc, paths, files, 1, c, &d), RD_OK);
    return a;
}

/* Claims are judged into a struct before anything is written (issue 27:
 * the writer only writes them). Store: a's wall_ms 10, 11, 12 (mean 11),
 * b's 5, 5.5, 6 (mean 5.5), by hand. The ratio claim a/b = 2: our ratio
 * 11 / 5.5 = 2, Fieller's interval at the widest df (2) in R:
 *   a=11;b=5.5;sa2=1/3;sb2=0.25/3;t=qt(0.975,2);A=b^2-t^2*sb2;B=-2*a*b
 *   C=a^2-t^2*sa2;(-B+c(-1,1)*sqrt(B^2-4*A*C))/(2*A) -> 1.44305 2.77192
 * above 1 and overlapping the band 1.9 to 2.1: consistent. The order claim b before a (wall_ms: lower is better):
 * one pair, b over a = 5.5 / 11 = 0.5, agreeing; Welch p in R:
 *   t.test(c(5,5.5,6),c(10,11,12))$p.value -> 0.003659956
 * below alpha 0.05 (Holm over one pair leaves it), so consistent. The
 * claim on a workload the store lacks is left out. */
static void test_judged_before_writing(void **state)
{
    (void)state;
    char path[] = "/tmp/rd_claims_XXXXXX";
    FILE *f = temp_store(path);
    const double va[] = { 10, 11, 12 }, vb[] = { 5, 5.5, 6 };
    for (int i = 0; i < 3; i++)
        fprintf(f,
                "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},"
                "\"run\":%d,\"metrics\":{\"wall_ms\":%g}}\n"
                "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"b\"},"
                "\"run\":%d,\"metrics\":{\"wall_ms\":%g}}\n",
                i + 1, va[i], i + 1, vb[i]);
    fclose(f);
    const char *study =
        "{\"schema\":\"rundown.published/1\",\"study\":\"s\",\"figures\":[],\"claims\":["
        "{\"workload\":\"w\",\"metric\":\"wall_ms\",\"a\":{\"rt\":\"a\"},"
        "\"b\":{\"rt\":\"b\"},\"ratio\":{\"value\":2}},"
        "{\"workload\":\"gone\",\"metric\":\"wall_ms\",\"order\":[{\"rt\":\"a\"}]},"
        "{\"workload\":\"w\",\"metric\":\"wall_ms\",\"order\":[{\"rt\":\"b\"},{\"rt\":\"a\"}]}]}";
    cJSON *doc;
    struct rd_claims c;
    struct rd_analysis *a = judge_study(path, study, &doc, &c);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.counts[0][4], 2);
    assert_int_equal(c.counts[0][RD_CLAIM_CONSISTENT], 2);
    const struct rd_claim_result *r = &c.items[0];
    assert_true(r->ratio_kind);
    assert_int_equal(r->idx, 1);
    assert_string_equal(r->kind, "ratio");
    assert_int_equal(r->nconfigs, 2);
    assert_string_equal(r->configs[0], "rt=a");
    assert_string_equal(r->configs[1], "rt=b");
    assert_true(fabs(r->ratio - 2.0) < 1e-12);
    assert_true(r->claimed == 2.0);
    assert_int_equal(r->judgement, RD_CLAIM_CONSISTENT);
    assert_non_null(r->reason);
    r = &c.items[1];
    assert_int_equal(r->idx, 3);
    assert_string_equal(r->kind, "order");
    assert_string_equal(r->better, "lower");
    assert_int_equal(r->npairs, 1);
    assert_string_equal(r->pairs[0].a, "rt=b");
    assert_string_equal(r->pairs[0].b, "rt=a");
    assert_true(fabs(r->pairs[0].ratio - 0.5) < 1e-12);
    assert_true(fabs(r->pairs[0].p - 0.003659956) < 1e-8);
    assert_true(r->pairs[0].agrees);
    assert_int_equal(r->judgement, RD_CLAIM_CONSISTENT);
    rd_claims_release(&c);
    cJSON_Delete(doc);
    rd_analysis_free(a);
}

/* The paired comparison from the within-round log ratios (stats.c,
 * rd_stats_paired_log_ratio). a = 120 210 150 99 180, b = 100 190 140 90
 * 150, one pair a round; in SciPy 1.10:
 *   from scipy import stats; import numpy as np
 *   a=np.array([120.,210.,150.,99.,180.]); b=np.array([100.,190.,140.,90.,150.])
 *   d=np.log(a)-np.log(b); n=len(d); m=d.mean(); s=d.std(ddof=1)
 *   stats.ttest_rel(np.log(a),np.log(b)) -> statistic=5.314517105974057,
 *     pvalue=0.006027803453124581, df=4
 *   q=stats.t.ppf(0.975,n-1); np.exp(m), np.exp(m-q*s/np.sqrt(n)),
 *     np.exp(m+q*s/np.sqrt(n)) -> 1.1340620534765662 1.0619231567841805
 *     1.2111015123073214 */
static const double paired_a[] = { 120, 210, 150, 99, 180 };
static const double paired_b[] = { 100, 190, 140, 90, 150 };

static void test_paired_log_ratio(void **state)
{
    (void)state;
    double d[5];
    for (int i = 0; i < 5; i++)
        d[i] = log(paired_a[i]) - log(paired_b[i]);
    struct rd_ratio r;
    double p;
    rd_stats_paired_log_ratio(rd_stats_mean(d, 5), rd_stats_sd(d, 5), 5, 0.95, &r, &p);
    assert_true(fabs(r.ratio - 1.1340620534765662) < 1e-12);
    assert_true(fabs(r.ci_low - 1.0619231567841805) < 1e-9);
    assert_true(fabs(r.ci_high - 1.2111015123073214) < 1e-9);
    assert_true(fabs(p - 0.006027803453124581) < 1e-10);
    assert_true(r.df == 4);
    /* One round: a ratio, no interval, no test. */
    rd_stats_paired_log_ratio(d[0], NAN, 1, 0.95, &r, &p);
    assert_true(fabs(r.ratio - 1.2) < 1e-12);
    assert_true(isnan(r.ci_low) && isnan(r.ci_high) && isnan(p));
    /* The same ratio every round: known exactly (hand calculation). */
    rd_stats_paired_log_ratio(log(1.1), 0, 6, 0.95, &r, &p);
    assert_true(fabs(r.ci_low - 1.1) < 1e-12 && fabs(r.ci_high - 1.1) < 1e-12);
    assert_true(p == 0);
    rd_stats_paired_log_ratio(0, 0, 6, 0.95, &r, &p);
    assert_true(r.ratio == 1 && r.ci_low == 1 && isnan(p));
}

/* Claims on a workload with blocks "round" (docs/methods.md §7a): a and b
 * as above, one run each a round (runs 1-5); c has runs 1 and 31-34 (a
 * wake-up guard's redos, numbered past the rounds), so it shares round 1
 * with a only. The ratio claim a/b (1.13) reads the paired numbers above:
 * interval 1.062 to 1.211 meets the band 1.0735 to 1.1865 above 1,
 * consistent. The order b, a (wall_ms: lower better) has the one pair b
 * over a: ratio 1 / 1.13406, interval 1 / 1.21110 to 1 / 1.06192, p
 * 0.0060278 (Holm over one pair leaves it), consistent; its alike
 * interval at 1 - 0.05 / 1 is the same. The ratio claim a/c falls back to
 * the means (one round with both). */
static void test_paired_claims(void **state)
{
    (void)state;
    char path[] = "/tmp/rd_claims_XXXXXX";
    FILE *f = temp_store(path);
    const int runs_c[] = { 1, 31, 32, 33, 34 };
    const double vc[] = { 100, 150, 120, 130, 160 };
    for (int i = 0; i < 5; i++)
        fprintf(f,
                "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},"
                "\"run\":%d,\"info\":{\"blocks\":\"round\"},\"metrics\":{\"wall_ms\":%g}}\n"
                "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"b\"},"
                "\"run\":%d,\"info\":{\"blocks\":\"round\"},\"metrics\":{\"wall_ms\":%g}}\n"
                "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"c\"},"
                "\"run\":%d,\"info\":{\"blocks\":\"round\"},\"metrics\":{\"wall_ms\":%g}}\n",
                i + 1, paired_a[i], i + 1, paired_b[i], runs_c[i], vc[i]);
    fclose(f);
    const char *study =
        "{\"schema\":\"rundown.published/1\",\"study\":\"s\",\"figures\":[],\"claims\":["
        "{\"workload\":\"w\",\"metric\":\"wall_ms\",\"a\":{\"rt\":\"a\"},"
        "\"b\":{\"rt\":\"b\"},\"ratio\":{\"value\":1.13}},"
        "{\"workload\":\"w\",\"metric\":\"wall_ms\",\"order\":[{\"rt\":\"b\"},{\"rt\":\"a\"}],"
        "\"values\":[100,150]},"
        "{\"workload\":\"w\",\"metric\":\"wall_ms\",\"a\":{\"rt\":\"a\"},"
        "\"b\":{\"rt\":\"c\"},\"ratio\":{\"value\":1.1}}]}";
    cJSON *doc;
    struct rd_claims c;
    struct rd_analysis *a = judge_study(path, study, &doc, &c);
    assert_int_equal(c.n, 3);
    const struct rd_claim_result *r = &c.items[0];
    assert_true(r->blocks_round && r->paired);
    assert_true(r->rounds == 5);
    assert_true(fabs(r->ratio - 1.1340620534765662) < 1e-12);
    assert_true(fabs(r->ci_low - 1.0619231567841805) < 1e-9);
    assert_true(fabs(r->ci_high - 1.2111015123073214) < 1e-9);
    assert_true(fabs(r->p - 0.006027803453124581) < 1e-10);
    assert_int_equal(r->judgement, RD_CLAIM_CONSISTENT);
    assert_non_null(strstr(r->reason, "; compared within rounds (5 rounds)"));
    r = &c.items[1];
    assert_true(r->paired);
    assert_int_equal(r->npairs, 1);
    const struct rd_claim_pair *pr = &r->pairs[0];
    assert_true(pr->paired && pr->rounds == 5);
    assert_true(fabs(pr->ratio - 1 / 1.1340620534765662) < 1e-12);
    assert_true(fabs(pr->ci_low - 1 / 1.2111015123073214) < 1e-9);
    assert_true(fabs(pr->ci_high - 1 / 1.0619231567841805) < 1e-9);
    assert_true(fabs(pr->p - 0.006027803453124581) < 1e-10);
    assert_true(fabs(pr->alike_low - 1 / 1.2111015123073214) < 1e-9);
    assert_true(pr->agrees && !pr->alike);
    assert_int_equal(r->judgement, RD_CLAIM_CONSISTENT);
    assert_non_null(strstr(r->reason, "; compared within rounds (5 rounds)"));
    r = &c.items[2];
    assert_true(r->blocks_round && !r->paired);
    assert_true(r->rounds == 1);
    /* the means: (120+210+150+99+180) / (100+150+120+130+160) = 759 / 660 */
    assert_true(fabs(r->ratio - 759.0 / 660.0) < 1e-12);
    assert_non_null(strstr(r->reason, "not compared within rounds (1 round with both"));
    rd_claims_release(&c);
    cJSON_Delete(doc);
    rd_analysis_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_claim_above_one),
        cmocka_unit_test(test_point_claim_below_one),
        cmocka_unit_test(test_likeness),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_no_interval),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_pair_alike),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_judged_before_writing),
        cmocka_unit_test(test_paired_log_ratio),
        cmocka_unit_test(test_paired_claims),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
