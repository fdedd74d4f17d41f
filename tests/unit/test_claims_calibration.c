// links: rd_analyze
/*
 * The order claims' rule by simulation (docs/methods.md §7a): seeded,
 * small enough for make test; bench/verdict-calibration.sh runs the same
 * cells with more claims (RD_CALIBRATION_WORKLOADS) for the table in
 * docs/methods.md.
 *
 * An order claim of three configs (two pairs), lower is better, whose
 * published figures put each pair 1.42x apart, judged as analyze/claims.c
 * judges it (Welch p with Holm over the pairs for the direction, Fieller
 * at 1 - alpha/2 for "alike": rd_claim_pair_alike), against the reference,
 * the rule without the figures (direction only). Lognormal runs of CV 3 %
 * or 20 %, n = 5, 10 and 20 per config, margin 5 %:
 *
 * - the order true at the margin's edge (each pair exactly 5 % apart, the
 *   worst case for "alike"): the share called contradicted is at most
 *   alpha plus three Monte Carlo standard errors (by construction about
 *   alpha / 2: each pair's one-sided test runs at alpha / 4);
 * - the first pair alike in truth: the share called contradicted (the
 *   rule's power) is at least 80 % at CV 3 % and n = 10, where the
 *   reference, which can only contradict by a reversal, stays under the
 *   same bound as the A/A share.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "calibration_test.h"
#include "claims.h"
#include "stats.h"

enum { DEFAULT_CLAIMS = 2000, MAX_N = 20, K = 3 };

static int claims_per_cell(void)
{
    return calibration_workloads(DEFAULT_CLAIMS);
}

struct tally {
    double contradicted, consistent;         /* the rule */
    double ref_contradicted, ref_consistent; /* without the figures */
};

/* One claim: configs of true means mu[], published values pub[]. */
static void judge_one(gsl_rng *rng, const double *mu, const double *pub, size_t n, double cv,
                      struct tally *t)
{
    const double alpha = 0.05, margin = 0.05;
    double mean[K], sd[K];
    double sigma = sqrt(log1p(cv * cv));
    for (size_t i = 0; i < K; i++) {
        double v[MAX_N];
        for (size_t j = 0; j < n; j++)
            v[j] = mu[i] * gsl_ran_lognormal(rng, -0.5 * sigma * sigma, sigma);
        mean[i] = rd_stats_mean(v, n);
        sd[i] = rd_stats_sd(v, n);
    }
    double p[2 * (K - 1)];
    bool agrees[K - 1], alike[K - 1];
    for (size_t i = 0; i + 1 < K; i++) {
        struct rd_welch w;
        struct rd_ratio r;
        rd_stats_welch_summary(mean[i], sd[i], (double)n, mean[i + 1], sd[i + 1], (double)n,
                               1 - alpha, &w);
        rd_stats_ratio_fieller(mean[i], sd[i], (double)n, mean[i + 1], sd[i + 1], (double)n,
                               1 - alpha / (K - 1), &r);
        p[i] = w.p;
        agrees[i] = mean[i] < mean[i + 1];
        alike[i] = rd_claim_pair_alike(pub[i] / pub[i + 1], margin, r.ci_low, r.ci_high);
    }
    assert_int_equal(rd_stats_holm(p, K - 1, p + K - 1), RD_OK);
    enum rd_claim_judgement j = rd_claim_judge_order(agrees, p + K - 1, alike, K - 1, alpha);
    enum rd_claim_judgement ref = rd_claim_judge_order(agrees, p + K - 1, NULL, K - 1, alpha);
    t->contradicted += j == RD_CLAIM_CONTRADICTED;
    t->consistent += j == RD_CLAIM_CONSISTENT;
    t->ref_contradicted += ref == RD_CLAIM_CONTRADICTED;
    t->ref_consistent += ref == RD_CLAIM_CONSISTENT;
}

static struct tally simulate(gsl_rng *rng, const double *mu, size_t n, double cv)
{
    static const double pub[K] = { 100, 142, 201.64 }; /* 1.42x apart each */
    struct tally t = { 0, 0, 0, 0 };
    const int W = claims_per_cell();
    for (int w = 0; w < W; w++)
        judge_one(rng, mu, pub, n, cv, &t);
    t.contradicted /= W;
    t.consistent /= W;
    t.ref_contradicted /= W;
    t.ref_consistent /= W;
    return t;
}

static void calibration_cells(void **state)
{
    (void)state;
    rd_stats_init();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261203);
    const double alpha = 0.05, bound = alpha + 3 * sqrt(alpha * (1 - alpha) / claims_per_cell());
    /* each pair exactly at the margin's edge: better / worse = 0.95 */
    const double edge[K] = { 1, 1 / 0.95, 1 / (0.95 * 0.95) };
    /* the first pair alike, the second as published */
    const double first_alike[K] = { 1, 1, 1.42 };
    /* the order as published */
    const double as_published[K] = { 1, 1.42, 1.42 * 1.42 };
    const size_t ns[] = { 5, 10, 20 };
    const double cvs[] = { 0.03, 0.20 };
    printf("cv n | edge: contradicted (ref) | first pair alike: contradicted (ref) |"
           " as published: consistent (ref)\n");
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < 3; i++) {
            struct tally e = simulate(rng, edge, ns[i], cvs[c]);
            struct tally a = simulate(rng, first_alike, ns[i], cvs[c]);
            struct tally p = simulate(rng, as_published, ns[i], cvs[c]);
            printf("%.2f %zu | %.4f (%.4f) | %.4f (%.4f) | %.4f (%.4f)\n", cvs[c], ns[i],
                   e.contradicted, e.ref_contradicted, a.contradicted, a.ref_contradicted,
                   p.consistent, p.ref_consistent);
            assert_true(e.contradicted <= bound);
            assert_true(a.ref_contradicted <= bound);
            /* the figures only add a way to be contradicted */
            assert_true(a.contradicted >= a.ref_contradicted);
            assert_true(p.contradicted <= bound);
            if (cvs[c] == 0.03 && ns[i] == 10)
                assert_true(a.contradicted >= 0.80);
        }
    gsl_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calibration_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
