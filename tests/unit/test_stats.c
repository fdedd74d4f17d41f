// links: rd_analyze
/*
 * test_stats.c - analyze/stats.c against SciPy 1.10.1 (Debian python3-scipy).
 *
 * Every expected number below was computed with /usr/bin/python3 and pasted
 * with the call that made it; none comes from the code under test. Data sets:
 * R's 'sleep' (extra by group) and 'PlantGrowth' (weight by group), typed in;
 * 'big'/'big2' are 200 generated values (formula in make_big()).
 * Tolerance: 1e-9 relative for statistics, 1e-7 relative for p-values.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats.h"

#define REL 1e-9
#define PREL 1e-7

static const double sleep1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
static const double sleep2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
static const double ctrl[] = { 4.17, 5.58, 5.18, 6.11, 4.50, 4.61, 5.17, 4.53, 5.33, 5.14 };
static const double trt1[] = { 4.81, 4.17, 4.41, 3.59, 5.87, 3.83, 6.03, 4.89, 4.32, 4.69 };
static const double trt2[] = { 6.31, 5.12, 5.54, 5.50, 5.37, 5.29, 4.92, 6.15, 5.80, 5.26 };

/* big  = [((i*7919)%1009)/10.0 for i in range(200)]
 * big2 = [((i*104729)%997)/10.0+3 for i in range(200)] */
static double big[200], big2[200];

static void make_big(void)
{
    for (long i = 0; i < 200; i++) {
        big[i] = (double)((i * 7919) % 1009) / 10.0;
        big2[i] = (double)((i * 104729) % 997) / 10.0 + 3;
    }
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void near_(double want, double got, double rel, const char *what, int line)
{
    if (isnan(want) && isnan(got))
        return;
    double tol = rel * fabs(want);
    if (tol < 1e-300)
        tol = 1e-15; /* want == 0: an absolute bound */
    if (!(fabs(want - got) <= tol))
        fail_msg("line %d: %s: want %.17g, got %.17g", line, what, want, got);
}
#define NEAR(want, got) near_((want), (got), REL, #got, __LINE__)
#define PNEAR(want, got) near_((want), (got), PREL, #got, __LINE__)

static void check_summary(const double *x, size_t n, const double *want)
{
    double scratch[256];
    struct rd_summary s;
    rd_stats_summarize(x, n, 0.95, scratch, &s);
    assert_int_equal(s.n, n);
    const double got[] = { s.mean, s.sd, s.se, s.ci_low, s.ci_high, s.median, s.min,
                           s.max, s.q1, s.q3, s.p90, s.p95, s.p99, s.mad, s.cv, s.geomean };
    for (size_t i = 0; i < N(got); i++)
        near_(want[i], got[i], REL, "summary field", (int)i);
}

/* Order in every expected row: mean, sd, se, ci_low, ci_high, median, min,
 * max, q1, q3, p90, p95, p99, mad, cv, geomean; computed with numpy mean,
 * std(ddof=1), stats.sem, mean -+ stats.t.ppf(0.975, n-1)*sem,
 * np.quantile(x, p) (method 'linear' = type 7),
 * stats.median_abs_deviation(x, scale='normal'), std/mean, stats.gmean. */
static void test_summary_sleep(void **state)
{
    (void)state;
    const double want[] = { 0.75, 1.7890096577591623, 0.5657345274557276, -0.5297804134938644,
                            2.0297804134938646, 0.35, -1.6, 3.7, -0.17500000000000002, 1.7,
                            3.4299999999999997, 3.5649999999999995, 3.673, 1.5567323294308817,
                            2.3853462103455496, NAN /* gmean undefined: values <= 0 */ };
    check_summary(sleep1, N(sleep1), want);
}

static void test_summary_plantgrowth_ctrl(void **state)
{
    (void)state;
    const double want[] = { 5.031999999999999, 0.5830913783924057, 0.18438968397270916,
                            4.614881555665587, 5.449118444334411, 5.154999999999999, 4.17, 6.11,
                            4.550000000000001, 5.2925, 5.633, 5.871499999999999,
                            6.0623000000000005, 0.7190620759752168, 0.11587666502233819,
                            5.001881212188567 };
    check_summary(ctrl, N(ctrl), want);
}

static void test_summary_200(void **state)
{
    (void)state;
    const double want[] = { 50.681000000000004, 29.36395320352308, 2.0763450432655617,
                            46.58653780381269, 54.77546219618732, 50.7, 0.0, 100.5, 25.6, 75.8,
                            90.63999999999999, 96.02, 99.704, 37.361575906341166,
                            0.5793878022044372, NAN /* contains 0.0 */ };
    check_summary(big, N(big), want);
}

static void test_summary_undefined(void **state)
{
    (void)state;
    double scratch[4];
    struct rd_summary s;
    const double one[] = { 42.0 };
    rd_stats_summarize(one, 1, 0.95, scratch, &s);
    /* n = 1: the mean and the order statistics exist, the spread does not. */
    assert_true(s.mean == 42.0 && s.median == 42.0 && s.min == 42.0 && s.max == 42.0);
    assert_true(isnan(s.sd) && isnan(s.se) && isnan(s.ci_low) && isnan(s.ci_high));
    assert_true(isnan(s.cv));
    assert_true(s.mad == 0.0);
    NEAR(42.0, s.geomean);

    const double flat[] = { 5, 5, 5 };
    rd_stats_summarize(flat, 3, 0.95, scratch, &s);
    /* zero variance is a defined sd of 0 and a zero-width CI */
    assert_true(s.sd == 0 && s.ci_low == 5 && s.ci_high == 5 && s.cv == 0);

    rd_stats_summarize(NULL, 0, 0.95, scratch, &s);
    assert_int_equal(s.n, 0);
    assert_true(isnan(s.mean) && isnan(s.median));
}

static void test_t_quantile(void **state)
{
    (void)state;
    /* stats.t.ppf(0.975, 4) = 2.7764451051977987 (the paper's z = 1.96 at n = 5) */
    NEAR(2.7764451051977987, rd_stats_t_quantile(0.975, 4));
    assert_true(isnan(rd_stats_t_quantile(0.975, 0)));
    /* The last quantiles are kept: asked again and again, in turn, each
     * (p, df) still gives its own. Rscript -e 'print(qt(c(0.975, 0.975,
     * 0.95, 0.995), c(2, 3, 2, 2)), digits = 16)'. */
    const struct { double p, df, want; } q[] = {
        {0.975, 2, 4.302652729749462}, {0.975, 3, 3.182446305283708},
        {0.95, 2, 2.919985580353724},  {0.995, 2, 9.924843200918289},
    };
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
            NEAR(q[i].want, rd_stats_t_quantile(q[i].p, q[i].df));
}

static void test_tukey(void **state)
{
    (void)state;
    /* Hand: x = 1..9 and 50: q1 = 3.25, q3 = 7.75 (type 7), IQR 4.5, fences
     * -3.5 and 14.5: only 50 (index 9) is outside. */
    const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 50 };
    double s[10];
    for (size_t i = 0; i < 10; i++)
        s[i] = x[i];
    rd_stats_sort(s, 10);
    double q1 = rd_stats_quantile_sorted(s, 10, 0.25), q3 = rd_stats_quantile_sorted(s, 10, 0.75);
    NEAR(3.25, q1);
    NEAR(7.75, q3);
    size_t idx[10];
    assert_int_equal(rd_stats_tukey(x, 10, q1, q3, idx), 1);
    assert_int_equal(idx[0], 9);
}

static void check_welch(const double *a, size_t na, const double *b, size_t nb,
                        const double *w)
{
    struct rd_welch r;
    rd_stats_welch(a, na, b, nb, 0.95, &r);
    NEAR(w[0], r.t);
    NEAR(w[1], r.df);
    PNEAR(w[2], r.p);
    NEAR(w[3], r.diff);
    NEAR(w[4], r.ci_low);
    NEAR(w[5], r.ci_high);
}

/* Rows: t, df, p from stats.ttest_ind(a, b, equal_var=False); df by
 * Welch-Satterthwaite; diff -+ stats.t.ppf(0.975, df) * sqrt(va/na + vb/nb). */
static void test_welch(void **state)
{
    (void)state;
    const double w_sleep[] = { -1.8608134674868526, 17.776473516178495, 0.07939414018735823,
                               -1.5799999999999996, -3.365483230711636, 0.20548323071163632 };
    check_welch(sleep1, 10, sleep2, 10, w_sleep);
    const double w_pg[] = { -2.1340204531240654, 16.785764482605718, 0.047899255601968956,
                            -0.49400000000000066, -0.9828721300353239, -0.005127869964677401 };
    check_welch(ctrl, 10, trt2, 10, w_pg);
    const double a2[] = { 1, 2 }, b2[] = { 3, 5 };
    /* The CI here is from mpmath (dps=40): scipy's t.ppf(0.975, 1.47...) is
     * off by 7e-10 at this fractional df. t = root of
     * mp.betainc(df/2, 1/2, 0, df/(df+t*t), regularized=True)/2 - 0.025
     * = 6.1881149407692542, CI = -2.5 -+ t*sqrt(1.25). */
    const double w_n2[] = { -2.23606797749979, 1.4705882352941178, 0.19872738893452604,
                            -2.5, -9.4185228300710686, 4.4185228300710686 };
    check_welch(a2, 2, b2, 2, w_n2);
    /* unequal n: sleep1[:4] vs sleep2 */
    const double w_un[] = { -3.5538214898994305, 10.713942097828767, 0.004706776639973011,
                            -2.9049999999999994, -4.710029271856634, -1.0999707281433646 };
    check_welch(sleep1, 4, sleep2, 10, w_un);
    const double w_big[] = { -0.27283380648817634, 397.7074640741513, 0.7851225790253868,
                             -0.7904999999999944, -6.486571589028908, 4.905571589028919 };
    check_welch(big, 200, big2, 200, w_big);
}

static void test_welch_undefined(void **state)
{
    (void)state;
    struct rd_welch r;
    const double f1[] = { 5, 5, 5 }, f2[] = { 7, 7, 7 }, one[] = { 3 };
    rd_stats_welch(f1, 3, f2, 3, 0.95, &r);
    /* both constant: the difference is known, the test is not */
    assert_true(r.diff == -2 && isnan(r.t) && isnan(r.df) && isnan(r.p) && isnan(r.ci_low));
    rd_stats_welch(one, 1, f2, 3, 0.95, &r);
    assert_true(isnan(r.t) && isnan(r.p));
    /* summary form with unknown sd (a paper that printed only a mean) */
    rd_stats_welch_summary(101, NAN, 5, 100, 2, 5, 0.95, &r);
    assert_true(r.diff == 1 && isnan(r.p));
    /* one group constant, one not: defined (R's t.test agrees) */
    const double x3[] = { 1, 2, 3 };
    rd_stats_welch(f1, 3, x3, 3, 0.95, &r);
    /* hand: se = sqrt(0 + 1/3), t = 3 / 0.5773502691896258 = 5.196152422706632, df = 2;
     * stats.ttest_ind([5,5,5],[1,2,3],equal_var=False).pvalue = 0.03509871864598465 */
    NEAR(5.196152422706632, r.t);
    NEAR(2.0, r.df);
    PNEAR(0.03509871864598465, r.p);
}

static void test_welch_summary_matches_raw(void **state)
{
    (void)state;
    /* stats.ttest_ind_from_stats(5.032, 0.5830913783924057, 10, 5.526,
     *   0.44257328332278606, 10, equal_var=False)
     * -> statistic=-2.1340204531240614 pvalue=0.04789925560196932 */
    struct rd_welch r;
    rd_stats_welch_summary(5.032, 0.5830913783924057, 10, 5.526, 0.44257328332278606, 10, 0.95, &r);
    NEAR(-2.1340204531240614, r.t);
    PNEAR(0.04789925560196932, r.p);
}

/* Fieller: the roots of (ma - rho mb)^2 - t^2 (va + rho^2 vb) found with
 * scipy.optimize.brentq (xtol=1e-15, rtol=1e-15), t = stats.t.ppf(0.975, df)
 * with df = (va+R^2 vb)^2 / (va^2/(na-1) + R^4 vb^2/(nb-1)) at R = ma/mb.
 * Rows: R, lo, hi, df. */
static void test_fieller(void **state)
{
    (void)state;
    struct rd_ratio r;
    rd_stats_ratio_fieller(rd_stats_mean(ctrl, 10), rd_stats_sd(ctrl, 10), 10,
                           rd_stats_mean(trt2, 10), rd_stats_sd(trt2, 10), 10, 0.95, &r);
    NEAR(0.9106044154904088, r.ratio);
    NEAR(0.8270853319729579, r.ci_low);
    NEAR(0.9993884039783382, r.ci_high);
    NEAR(16.00100676462573, r.df);
    rd_stats_ratio_fieller(rd_stats_mean(big, 200), rd_stats_sd(big, 200), 200,
                           rd_stats_mean(big2, 200), rd_stats_sd(big2, 200), 200, 0.95, &r);
    NEAR(0.9846419863419563, r.ratio);
    NEAR(0.8802148981281471, r.ci_low);
    NEAR(1.1008709808408785, r.ci_high);
    NEAR(397.2797368563685, r.df);
    /* sleep2 / sleep1: t^2 vb / mb^2 = 2.7387405253991153 >= 1, so the set of
     * plausible ratios is unbounded: the CI must be undefined, the ratio not */
    rd_stats_ratio_fieller(rd_stats_mean(sleep2, 10), rd_stats_sd(sleep2, 10), 10,
                           rd_stats_mean(sleep1, 10), rd_stats_sd(sleep1, 10), 10, 0.95, &r);
    NEAR(2.33 / 0.75, r.ratio);
    assert_true(isnan(r.ci_low) && isnan(r.ci_high));
    rd_stats_ratio_fieller(1, 0.1, 5, 0, 0.1, 5, 0.95, &r);
    assert_true(isnan(r.ratio));
}

static int cmp_double(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return (u > v) - (u < v);
}

/* rd_stats_mann_whitney_sorted, the function the analysis calls, on
 * sorted copies of a and b (the order of a sample does not change U). */
static void check_mw(const double *a, size_t na, const double *b, size_t nb,
                     double u, double p, int exact)
{
    double *sa = malloc(na * sizeof *sa), *sb = malloc(nb * sizeof *sb);
    assert_non_null(sa);
    assert_non_null(sb);
    memcpy(sa, a, na * sizeof *sa);
    memcpy(sb, b, nb * sizeof *sb);
    qsort(sa, na, sizeof *sa, cmp_double);
    qsort(sb, nb, sizeof *sb, cmp_double);
    struct rd_mwu r;
    assert_int_equal(rd_stats_mann_whitney_sorted(sa, na, sb, nb, &r), RD_OK);
    free(sa);
    free(sb);
    NEAR(u, r.u);
    PNEAR(p, r.p);
    assert_int_equal(r.exact, exact);
    NEAR(u / ((double)na * (double)nb), r.a);
}

/* Expected U and p from scipy.stats.mannwhitneyu(a, b,
 * alternative='two-sided', method=M), abbreviated mwu(a, b, M) below, with
 * M = 'exact' where the production rule (no ties, both n <= 50) is exact
 * and 'asymptotic' (continuity and tie correction) otherwise. The printed
 * statistic is U of a. */
static void test_mann_whitney(void **state)
{
    (void)state;
    /* exact, no ties, small n */
    /* mwu(ctrl, trt2, 'exact') -> U 25.0, p 0.06301283855463422 */
    check_mw(ctrl, 10, trt2, 10, 25.0, 0.06301283855463422, 1);
    /* mwu([1, 2], [3, 5], 'exact') -> U 0.0, p 0.3333333333333333 */
    const double a2[] = { 1, 2 }, b2[] = { 3, 5 };
    check_mw(a2, 2, b2, 2, 0.0, 0.3333333333333333, 1);
    /* mwu(sleep1[:4], sleep2, 'exact') -> U 2.0, p 0.007992007992007992 */
    check_mw(sleep1, 4, sleep2, 10, 2.0, 0.007992007992007992, 1);
    /* mwu([1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7], [0.5, 8.8, 9.9], 'exact')
     * -> U 7.0, p 0.5166666666666666 */
    const double s7[] = { 1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7 }, s3[] = { 0.5, 8.8, 9.9 };
    check_mw(s7, 7, s3, 3, 7.0, 0.5166666666666666, 1);
    /* 50 x 50, the largest exact case:
     * e1 = [2.0*i for i in range(50)]; e2 = [2.0*i+1+(10 if i>25 else 0) for i in range(50)]
     * mwu(e1, e2, 'exact') -> U 1120.0, p 0.3735888965213186 */
    double e1[50], e2[50];
    for (int i = 0; i < 50; i++) {
        e1[i] = 2.0 * i;
        e2[i] = 2.0 * i + 1 + (i > 25 ? 10 : 0);
    }
    check_mw(e1, 50, e2, 50, 1120.0, 0.3735888965213186, 1);
    /* a far tail: f1 = list(range(20)); f2 = [i+20.5 for i in range(20)]
     * mwu(f1, f2, 'exact') -> U 0.0, p 1.4508889103849684e-11 (= 2/C(40,20)) */
    double f1[20], f2[20];
    for (int i = 0; i < 20; i++) {
        f1[i] = i;
        f2[i] = i + 20.5;
    }
    check_mw(f1, 20, f2, 20, 0.0, 1.4508889103849684e-11, 1);

    /* ties: the normal approximation with tie and continuity correction */
    /* mwu(sleep1, sleep2, 'asymptotic') -> U 25.5, p 0.06932757543362658 */
    check_mw(sleep1, 10, sleep2, 10, 25.5, 0.06932757543362658, 0);
    /* one tie (4.17): mwu(ctrl, trt1, 'asymptotic') -> U 67.5, p 0.1985957586332152 */
    check_mw(ctrl, 10, trt1, 10, 67.5, 0.1985957586332152, 0);
    /* ties within and across: mwu([1, 2, 2, 3], [2, 3, 4, 5, 5], 'asymptotic')
     * -> U 2.5, p 0.07854585095119067 */
    const double ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 4, 5, 5 };
    check_mw(ta, 4, tb, 5, 2.5, 0.07854585095119067, 0);

    /* n > 50: asymptotic even without ties */
    /* g1 = [2.0*i for i in range(51)]; g2 = [2.0*i+1+(20 if i>30 else 0) for i in range(60)]
     * (no value in both) mwu(g1, g2, 'asymptotic') -> U 1130.0, p 0.0180814132648718 */
    double g1[51], g2[60];
    for (int i = 0; i < 51; i++)
        g1[i] = 2.0 * i;
    for (int i = 0; i < 60; i++)
        g2[i] = 2.0 * i + 1 + (i > 30 ? 20 : 0);
    check_mw(g1, 51, g2, 60, 1130.0, 0.0180814132648718, 0);
    /* 200 x 200 with ties: mwu(big, big2, 'asymptotic') -> U 19690.0, p 0.7889295202436494 */
    check_mw(big, 200, big2, 200, 19690.0, 0.7889295202436494, 0);

    struct rd_mwu r;
    const double same[] = { 4, 4, 4 };
    rd_stats_mann_whitney_sorted(same, 3, same, 3, &r);
    assert_true(isnan(r.p)); /* all tied: no variance for the z */
    rd_stats_mann_whitney_sorted(same, 3, same, 0, &r);
    assert_true(isnan(r.u) && isnan(r.p)); /* an empty sample: nothing to test */
}

static void test_mw_min_p(void **state)
{
    (void)state;
    /* hand: 2 / C(6,3) = 2/20 = 0.1; 2 / C(10,5) = 2/252 */
    NEAR(0.1, rd_stats_mw_min_p(3, 3));
    NEAR(2.0 / 252, rd_stats_mw_min_p(5, 5));
    NEAR(1.0, rd_stats_mw_min_p(1, 1));
}

/* Hedges' g = J d, J = special.gamma(m/2)/(sqrt(m/2)*special.gamma((m-1)/2))
 * (gammaln for m = 398), d with the pooled sd. */
static void test_hedges(void **state)
{
    (void)state;
    double ma = rd_stats_mean(sleep1, 10), mb = rd_stats_mean(sleep2, 10);
    NEAR(-0.7969352391911205, rd_stats_hedges_g(ma, rd_stats_sd(sleep1, 10), 10, mb,
                                                rd_stats_sd(sleep2, 10), 10));
    NEAR(-0.9139422784520376, rd_stats_hedges_g(rd_stats_mean(ctrl, 10), rd_stats_sd(ctrl, 10), 10,
                                                rd_stats_mean(trt2, 10), rd_stats_sd(trt2, 10), 10));
    NEAR(-1.26156626101008, rd_stats_hedges_g(1.5, sqrt(0.5), 2, 4, sqrt(2), 2));
    NEAR(-0.02723192953534329, rd_stats_hedges_g(rd_stats_mean(big, 200), rd_stats_sd(big, 200), 200,
                                                 rd_stats_mean(big2, 200), rd_stats_sd(big2, 200), 200));
    assert_true(isnan(rd_stats_hedges_g(5, 0, 3, 7, 0, 3)));
}

static void test_anova_plantgrowth(void **state)
{
    (void)state;
    const double *g[] = { ctrl, trt1, trt2 };
    size_t ns[] = { 10, 10, 10 };
    struct rd_anova a;
    /* stats.f_oneway(ctrl, trt1, trt2) -> statistic=4.846087862380136, pvalue=0.0159099583256229 */
    rd_stats_anova(g, ns, 3, &a);
    NEAR(4.846087862380136, a.f);
    PNEAR(0.0159099583256229, a.p);
    assert_true(a.df1 == 2 && a.df2 == 27);
    /* Welch (1951) in numpy (w = n/s^2, ...), which R prints as
     * oneway.test(weight ~ group, PlantGrowth): F = 5.181, num df = 2.000,
     * denom df = 17.128, p-value = 0.01739 */
    rd_stats_welch_anova(g, ns, 3, &a);
    NEAR(5.180972408113194, a.f);
    NEAR(2.0, a.df1);
    NEAR(17.128418616644137, a.df2);
    PNEAR(0.01739282149016994, a.p);
    /* stats.kruskal(ctrl, trt1, trt2) -> statistic=7.988228749443715, pvalue=0.018423755731471966 */
    struct rd_kruskal k;
    assert_int_equal(rd_stats_kruskal(g, ns, 3, &k), RD_OK);
    NEAR(7.988228749443715, k.h);
    PNEAR(0.018423755731471966, k.p);
    assert_true(k.df == 2);
}

/* 70 groups of tied and untied values, each sorted: the heap merge of the
 * first 64 and of all 70 (past the merge's limit: the index sort) give
 * the bits rd_stats_kruskal gives on the groups in their own order. */
/* Bits equal, NaN equal to NaN. */
static bool same_bits(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static bool same_anova(const struct rd_anova *a, const struct rd_anova *b)
{
    return same_bits(a->f, b->f) && same_bits(a->df1, b->df1) && same_bits(a->df2, b->df2) &&
           same_bits(a->p, b->p);
}

/* The ANOVAs from the groups' summaries (what compare.c calls) give the
 * bits of the ones that read the values: random groups of 1 to 40 values,
 * with ties, constant groups, and scales that take the scaled paths. */
static void test_anova_summarized_matches_raw(void **state)
{
    (void)state;
    enum { K = 6, N = 40 };
    static const double scales[] = { 1, 1e-300, 1e300, 1e154, 3e-5 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(r);
    gsl_rng_set(r, 31);
    double v[K][N], scratch[N];
    struct rd_summary sum[K];
    const double *g[K];
    const struct rd_summary *sp[K];
    size_t ns[K];
    size_t defined = 0;
    for (int trial = 0; trial < 2000; trial++) {
        size_t k = 2 + gsl_rng_uniform_int(r, K - 1);
        double scale = scales[trial % (sizeof scales / sizeof scales[0])];
        for (size_t i = 0; i < k; i++) {
            /* sizes 1, 2, 3 often; up to N */
            ns[i] = trial % 3 == 0 ? 1 + gsl_rng_uniform_int(r, 3) : 1 + gsl_rng_uniform_int(r, N);
            bool constant = gsl_rng_uniform_int(r, 10) == 0;
            double shift = (double)gsl_rng_uniform_int(r, 5);
            for (size_t j = 0; j < ns[i]; j++) {
                double u = constant ? 2 : (double)gsl_rng_uniform_int(r, 12) / 4; /* ties */
                if (trial % 2)
                    u = gsl_rng_uniform(r) * 10;
                v[i][j] = (u + shift) * scale;
            }
            rd_stats_summarize(v[i], ns[i], 0.95, scratch, &sum[i]);
            g[i] = v[i];
            sp[i] = &sum[i];
        }
        struct rd_anova a, b;
        rd_stats_anova(g, ns, k, &a);
        rd_stats_anova_summarized(g, ns, sp, k, &b);
        assert_true(same_anova(&a, &b));
        defined += !isnan(a.p);
        rd_stats_welch_anova(g, ns, k, &a);
        rd_stats_welch_anova_summarized(ns, sp, k, &b);
        assert_true(same_anova(&a, &b));
        defined += !isnan(a.p);
    }
    gsl_rng_free(r);
    assert_true(defined > 1000); /* not only the undefined cases */
}

/* The select-merge Mann-Whitney (what the analysis calls) gives the bits
 * of the plain merge of tie blocks, and U is its definition, the count of
 * pairs a > b plus half the ties: random samples of 0 to 3 values and up to
 * 120, with many ties, none, and every value tied. */
static void test_mann_whitney_fast_matches_blocks(void **state)
{
    (void)state;
    enum { N = 120 };
    double a[N], b[N];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(r);
    gsl_rng_set(r, 31);
    size_t approx = 0, exact = 0;
    for (int trial = 0; trial < 3000; trial++) {
        size_t na = trial % 2 ? gsl_rng_uniform_int(r, 4) : gsl_rng_uniform_int(r, N + 1);
        size_t nb = trial % 3 ? gsl_rng_uniform_int(r, 4) : gsl_rng_uniform_int(r, N + 1);
        unsigned long levels = trial % 5 == 0 ? 1 : 1 + gsl_rng_uniform_int(r, 30);
        for (size_t i = 0; i < na + nb; i++) {
            double v = trial % 4 == 1 ? gsl_rng_uniform(r) - 0.5
                                      : (double)gsl_rng_uniform_int(r, levels) - 3;
            if (i < na)
                a[i] = v;
            else
                b[i - na] = v;
        }
        rd_stats_sort(a, na);
        rd_stats_sort(b, nb);
        struct rd_mwu f, k;
        assert_int_equal(rd_stats_mann_whitney_sorted(a, na, b, nb, &f), RD_OK);
        assert_int_equal(rd_stats_mann_whitney_sorted_blocks(a, na, b, nb, &k), RD_OK);
        assert_true(same_bits(f.u, k.u) && same_bits(f.p, k.p) && same_bits(f.a, k.a));
        assert_int_equal(f.exact, k.exact);
        if (na && nb) {
            double u = 0;
            for (size_t i = 0; i < na; i++)
                for (size_t j = 0; j < nb; j++)
                    u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
            assert_true(f.u == u);
        }
        exact += f.exact == 1;
        approx += f.exact == 0 && !isnan(f.p);
    }
    gsl_rng_free(r);
    assert_true(exact > 100 && approx > 100); /* both p paths were compared */
}

static void test_kruskal_sorted_many_groups(void **state)
{
    (void)state;
    enum { K = 70, N = 7 };
    double v[K][N], s[K][N];
    const double *g[K], *gs[K];
    size_t ns[K];
    for (size_t i = 0; i < K; i++) {
        ns[i] = N - i % 3;
        for (size_t j = 0; j < N; j++)
            v[i][j] = (double)((i * 37 + j * 11) % 23) / 4; /* ties within and across */
        memcpy(s[i], v[i], sizeof v[i]);
        rd_stats_sort(s[i], ns[i]);
        g[i] = v[i];
        gs[i] = s[i];
    }
    const size_t ks[] = { 3, 64, K };
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        struct rd_kruskal a, b;
        assert_int_equal(rd_stats_kruskal(g, ns, ks[i], &a), RD_OK);
        assert_int_equal(rd_stats_kruskal_sorted(gs, ns, ks[i], &b), RD_OK);
        assert_true(isfinite(a.h) && a.h == b.h && a.p == b.p && a.df == b.df);
    }
}

/* The pairs' Mann-Whitney tests read off the Kruskal-Wallis merge give the
 * bits of each pair merged alone, and the merge's H and p those of the sort
 * of all values by index, on random groups of random sizes with ties within
 * and across groups, untied ones (the exact p), and groups of one value. */
static void test_mann_whitney_pooled(void **state)
{
    (void)state;
    enum { K = 12, N = 60 };
    static double v[K][N];
    const double *g[K];
    size_t ns[K];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(r);
    gsl_rng_set(r, 47);
    size_t exact = 0, approx = 0;
    for (int trial = 0; trial < 400; trial++) {
        size_t k = 3 + gsl_rng_uniform_int(r, K - 2);
        unsigned long levels = trial % 5 == 0 ? 1 : 1 + gsl_rng_uniform_int(r, 40);
        for (size_t i = 0; i < k; i++) {
            ns[i] = 1 + gsl_rng_uniform_int(r, trial % 2 ? 8 : N);
            for (size_t j = 0; j < ns[i]; j++)
                v[i][j] = trial % 4 == 1 ? gsl_rng_uniform(r) - 0.5
                                         : (double)gsl_rng_uniform_int(r, levels) - 3;
            rd_stats_sort(v[i], ns[i]);
            g[i] = v[i];
        }
        struct rd_kruskal plain, pooled;
        struct rd_mw_pool mw;
        assert_int_equal(rd_stats_kruskal(g, ns, k, &plain), RD_OK);
        assert_int_equal(rd_stats_kruskal_sorted_pool(g, ns, k, &pooled, &mw), RD_OK);
        assert_true(same_bits(plain.h, pooled.h) && same_bits(plain.p, pooled.p));
        assert_int_equal(rd_stats_kruskal_sorted(g, ns, k, &pooled), RD_OK);
        assert_true(same_bits(plain.h, pooled.h) && same_bits(plain.p, pooled.p));
        assert_int_equal(mw.k, k);
        for (size_t a = 0; a < k; a++)
            for (size_t b = 0; b < k; b++) {
                if (a == b)
                    continue;
                struct rd_mwu m, q;
                assert_int_equal(rd_stats_mann_whitney_sorted(g[a], ns[a], g[b], ns[b], &m),
                                 RD_OK);
                assert_int_equal(rd_stats_mann_whitney_pooled(&mw, a, b, &q), RD_OK);
                assert_true(same_bits(m.u, q.u) && same_bits(m.p, q.p) && same_bits(m.a, q.a));
                assert_int_equal(m.exact, q.exact);
                exact += m.exact == 1;
                approx += m.exact == 0 && !isnan(m.p);
            }
        rd_mw_pool_release(&mw);
    }
    gsl_rng_free(r);
    assert_true(exact > 100 && approx > 100); /* both p paths were compared */
}

/* More groups than one merge takes: no pool, the pairs are merged alone. */
static void test_mann_whitney_pool_many_groups(void **state)
{
    (void)state;
    enum { K = 70 };
    static double v[K][2];
    const double *g[K];
    size_t ns[K];
    for (size_t i = 0; i < K; i++) {
        v[i][0] = (double)(i % 7);
        v[i][1] = (double)(i % 7) + 1;
        g[i] = v[i];
        ns[i] = 2;
    }
    struct rd_kruskal kw;
    struct rd_mw_pool mw;
    assert_int_equal(rd_stats_kruskal_sorted_pool(g, ns, K, &kw, &mw), RD_OK);
    assert_int_equal(mw.k, 0);
    rd_mw_pool_release(&mw);
}

static void test_kruskal_ties_and_undefined(void **state)
{
    (void)state;
    const double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 5, 5 }, c[] = { 5, 6, 6 };
    const double *g[] = { a, b, c };
    size_t ns[] = { 4, 5, 3 };
    struct rd_kruskal k;
    /* stats.kruskal([1,2,2,3],[2,3,4,5,5],[5,6,6]) -> 7.799305555555559, 0.020248941107635362 */
    rd_stats_kruskal(g, ns, 3, &k);
    NEAR(7.799305555555559, k.h);
    PNEAR(0.020248941107635362, k.p);
    /* The same groups (already ascending) merged without the sort: the
     * same bits. */
    struct rd_kruskal ks;
    assert_int_equal(rd_stats_kruskal_sorted(g, ns, 3, &ks), RD_OK);
    assert_true(ks.h == k.h && ks.p == k.p && ks.df == k.df);

    const double f[] = { 5, 5, 5 };
    const double *gf[] = { f, f, f };
    size_t nf[] = { 3, 3, 3 };
    rd_stats_kruskal(gf, nf, 3, &k);
    assert_true(isnan(k.h) && isnan(k.p));
    rd_stats_kruskal_sorted(gf, nf, 3, &k);
    assert_true(isnan(k.h) && isnan(k.p));
    struct rd_anova an;
    rd_stats_anova(gf, nf, 3, &an);
    assert_true(isnan(an.f) && isnan(an.p));
    rd_stats_welch_anova(gf, nf, 3, &an);
    assert_true(isnan(an.f) && isnan(an.p));
}

static void test_adjust(void **state)
{
    (void)state;
    /* Hand: p = 0.01 0.04 0.03 0.005 (m = 4). Holm, ascending: 4*0.005 = 0.02,
     * 3*0.01 = 0.03, 2*0.03 = 0.06, max(0.06, 1*0.04) = 0.06.
     * BH, descending: 0.04*4/4 = 0.04, min(0.04, 0.03*4/3) = 0.04,
     * 0.01*4/2 = 0.02, min(0.02, 0.005*4/1) = 0.02. NaN is not a test. */
    const double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 };
    double h[5], b[5];
    assert_int_equal(rd_stats_holm(p, 5, h), RD_OK);
    assert_int_equal(rd_stats_bh(p, 5, b), RD_OK);
    const double wh[] = { 0.03, 0.06, NAN, 0.06, 0.02 };
    const double wb[] = { 0.02, 0.04, NAN, 0.04, 0.02 };
    for (int i = 0; i < 5; i++) {
        near_(wh[i], h[i], REL, "holm", i);
        near_(wb[i], b[i], REL, "bh", i);
    }
    /* Holm caps at 1: hand 2*0.7 = 1.4 -> 1 */
    const double q[] = { 0.7, 0.8 };
    rd_stats_holm(q, 2, h);
    NEAR(1.0, h[0]);
    NEAR(1.0, h[1]);
}

/* Exact p without ties: stats.kendalltau(np.arange(len(x)), x,
 * method='exact') -> tau, p (SciPy 1.10.1). With ties, where SciPy has no
 * exact method, the permutation p by brute force: in R 4.2.2 (Debian
 * r-base-core), over all n! orders of the values,
 *   perms <- function(v) { if (length(v) <= 1) return(matrix(v, 1));
 *     do.call(rbind, lapply(seq_along(v), function(i) cbind(v[i], perms(v[-i])))) }
 *   S <- function(x) { n <- length(x); s <- 0; for (i in 1:(n-1))
 *     for (j in (i+1):n) s <- s + sign(x[j] - x[i]); s }
 *   mk_exact <- function(x) { P <- perms(x); s0 <- abs(S(x));
 *     ss <- apply(P, 1, S); c(S = S(x), p = mean(abs(ss) >= s0)) }
 * and for n = 9 the same loop over itertools.permutations in Python.
 * Above the exact limits: method='asymptotic'. */
static void test_mann_kendall(void **state)
{
    (void)state;
    struct rd_trend t;
    assert_int_equal(rd_stats_mann_kendall(sleep1, 10, &t), RD_OK);
    NEAR(0.4222222222222222, t.tau);
    PNEAR(0.10831349206349207, t.p); /* asymptotic: 0.0892 */
    assert_int_equal(t.exact, 1);
    NEAR(19.0, t.s); /* hand: tau * C(10,2) = 0.4222 * 45 = 19 (no ties) */
    const double up4[] = { 1, 2, 3, 4 };
    rd_stats_mann_kendall(up4, 4, &t);
    PNEAR(0.08333333333333333, t.p); /* the smallest p at n = 4: 2/4! */
    const double x5[] = { 2, 1, 4, 3, 5 };
    rd_stats_mann_kendall(x5, 5, &t);
    PNEAR(0.23333333333333334, t.p);
    const double x6[] = { 1, 3, 2, 4, 5, 6 };
    rd_stats_mann_kendall(x6, 6, &t);
    PNEAR(0.016666666666666666, t.p);
    const double x8[] = { 3, 1, 4, 1.5, 5, 9, 2.6, 6 };
    rd_stats_mann_kendall(x8, 8, &t);
    NEAR(0.42857142857142855, t.tau);
    PNEAR(0.17886904761904762, t.p);
    /* x30 = [((i*13)%31)+i*0.5 for i in range(30)], no ties */
    double x30[30];
    for (int i = 0; i < 30; i++)
        x30[i] = (double)((i * 13) % 31) + i * 0.5;
    rd_stats_mann_kendall(x30, 30, &t);
    NEAR(0.3195402298850575, t.tau);
    PNEAR(0.012903514675602273, t.p);
    /* Ties, exact (R and Python brute force above). */
    const double t5[] = { 3, 1, 3, 2, 2 };
    rd_stats_mann_kendall(t5, 5, &t);
    NEAR(-2.0, t.s);
    PNEAR(0.80000000000000004, t.p);
    const double t7[] = { 1, 2, 2, 3, 5, 4, 6 };
    rd_stats_mann_kendall(t7, 7, &t);
    NEAR(18.0, t.s);
    PNEAR(0.0047619047619047623, t.p);
    const double t7b[] = { 5, 5, 4, 4, 4, 1, 2 };
    rd_stats_mann_kendall(t7b, 7, &t);
    NEAR(-15.0, t.s);
    PNEAR(0.019047619047619049, t.p);
    const double x[] = { 1, 2, 2, 3, 5, 4, 6, 6, 7 };
    rd_stats_mann_kendall(x, 9, &t);
    NEAR(0.9146591207600471, t.tau);
    PNEAR(0.00015432098765432098, t.p); /* asymptotic: 0.000743 */
    assert_int_equal(t.exact, 1);
    /* Ties above n = 20: x21 = [(i*7)%11 for i in range(21)], asymptotic */
    double x21[21];
    for (int i = 0; i < 21; i++)
        x21[i] = (double)((i * 7) % 11);
    rd_stats_mann_kendall(x21, 21, &t);
    NEAR(0.029277002188455997, t.tau);
    PNEAR(0.8555723034913698, t.p);
    assert_int_equal(t.exact, 0);
    rd_stats_mann_kendall(big, 200, &t);
    NEAR(-0.017587939698492462, t.tau);
    PNEAR(0.7114881494484714, t.p);
    const double f[] = { 3, 3, 3, 3 };
    rd_stats_mann_kendall(f, 4, &t);
    assert_true(isnan(t.p));
    rd_stats_release_thread();
}

/* Mann-Kendall's S of x[0..n) against the count over all pairs. */
static void check_s_brute_force(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            s += (x[j] > x[i]) - (x[j] < x[i]);
    struct rd_trend t;
    assert_int_equal(rd_stats_mann_kendall(x, n, &t), RD_OK);
    assert_true(t.s == s);
}

/* S against its definition, the sum of sign(x_j - x_i) over i < j, on
 * random series with and without ties, of every size from 3 to 70 and a
 * few longer (odd sizes leave the merge sort's last run short). */
static void test_mann_kendall_s_brute_force(void **state)
{
    (void)state;
    enum { NMAX = 1000 };
    static double x[NMAX];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(r);
    gsl_rng_set(r, 31);
    const size_t longer[] = { 127, 128, 129, 500, 999, NMAX };
    for (size_t trial = 0; trial < 300; trial++) {
        size_t n = trial < 68 * 4 ? 3 + trial / 4 : longer[trial % 6];
        for (size_t i = 0; i < n; i++)
            x[i] = trial % 2 ? gsl_rng_uniform(r) : (double)gsl_rng_uniform_int(r, 1 + n / 4);
        check_s_brute_force(x, n);
    }
    /* Runs taken whole from one side (the merge from both ends runs out of
     * one run): ascending, descending, constant and saw-tooth series. */
    for (size_t n = 3; n <= 140; n++)
        for (int shape = 0; shape < 4; shape++) {
            for (size_t i = 0; i < n; i++)
                x[i] = shape == 0   ? (double)i
                       : shape == 1 ? -(double)i
                       : shape == 2 ? 1
                                    : (double)(i % 5);
            check_s_brute_force(x, n);
        }
    gsl_rng_free(r);
    rd_stats_release_thread();
}

/* The trend warning's false-alarm rate: iid normal series (GSL's mt19937,
 * seed 15) flagged at p < 0.05 in at most alpha plus three Monte Carlo
 * standard errors, sqrt(0.05 * 0.95 / N), of the series. The normal
 * approximation flags 2/4! = 8.3 % at n = 4. */
static void test_mann_kendall_calibration(void **state)
{
    (void)state;
    const size_t ns[] = { 4, 5, 8, 20 }, N = 10000;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(rng);
    gsl_rng_set(rng, 15);
    double bound = 0.05 + 3 * sqrt(0.05 * 0.95 / (double)N);
    for (size_t k = 0; k < N(ns); k++) {
        size_t flagged = 0;
        double x[20];
        for (size_t r = 0; r < N; r++) {
            for (size_t i = 0; i < ns[k]; i++)
                x[i] = gsl_ran_ugaussian(rng);
            struct rd_trend t;
            assert_int_equal(rd_stats_mann_kendall(x, ns[k], &t), RD_OK);
            flagged += t.p < 0.05;
        }
        double share = (double)flagged / (double)N;
        if (!(share <= bound))
            fail_msg("n = %zu: %.4f of iid series flagged (bound %.4f)", ns[k], share, bound);
    }
    gsl_rng_free(rng);
    rd_stats_release_thread();
}

/* Data far from 1. The reference values are those of the same data at
 * scale 1 (every statistic here is scale-equivariant or -invariant), from
 * SciPy on x = (1, 2, 3) and y = (2, 3, 4, 6): sd 1, t(0.975; 2) =
 * 0.95 / sqrt(2 * 0.975 * 0.025) in closed form for 2 degrees of freedom
 * (R's qt(0.975, 2) = 4.3026527297494619 agrees; SciPy's ppf is 4e-11
 * off); stats.ttest_ind(x, y, equal_var=False) t =
 * -1.697749375254331, p = 0.1521267545688531, df (Welch-Satterthwaite by
 * formula) 4.849596022374146, diff CI (-4.4246038590199825,
 * 0.9246038590199825); Hedges' g -1.0034252241208417; Fieller
 * (verify.py's fieller) 0.5333333333333333 [0.1078511828696644,
 * 1.6299223263712124]; with z = (5, 6, 8): stats.f_oneway F =
 * 6.489189189189188, p = 0.025461402392100783, Welch's ANOVA (by formula,
 * as in verify.py) F = 7.439027578094366, df2 = 4.443197755960729, p =
 * 0.03818258848204034. R 4.2.2 itself gets these wrong: sd(c(1,2,3) *
 * 1e300) is Inf, sd(c(1,2,3) * 1e-170) is 0, and t.test(c(1,2,3) * 1e300,
 * c(2,3,4,6) * 1e300) has t = 0; numpy.std overflows alike. */
static void test_extreme_scales(void **state)
{
    (void)state;
    const double scales[] = { 1e-170, 1e300, 1e-300, 1e250 };
    const double tq = 0.95 / sqrt(2 * 0.975 * 0.025);
    for (size_t k = 0; k < N(scales); k++) {
        double c = scales[k];
        double x[] = { 1 * c, 2 * c, 3 * c }, y[] = { 2 * c, 3 * c, 4 * c, 6 * c };
        double z[] = { 5 * c, 6 * c, 8 * c };
        near_(c, rd_stats_sd(x, 3), 1e-14, "sd", (int)k);
        double scratch[4];
        struct rd_summary sm;
        rd_stats_summarize(x, 3, 0.95, scratch, &sm);
        near_(c, sm.sd, 1e-14, "summary sd", (int)k);
        near_(c / sqrt(3), sm.se, 1e-14, "se", (int)k);
        near_(2 * c - tq * c / sqrt(3), sm.ci_low, 1e-13, "ci_low", (int)k);
        near_(2 * c + tq * c / sqrt(3), sm.ci_high, 1e-13, "ci_high", (int)k);
        near_(0.5, sm.cv, 1e-14, "cv", (int)k);
        struct rd_welch w;
        rd_stats_welch(x, 3, y, 4, 0.95, &w);
        near_(-1.697749375254331, w.t, 1e-12, "welch t", (int)k);
        near_(4.849596022374146, w.df, 1e-12, "welch df", (int)k);
        near_(0.1521267545688531, w.p, 1e-9, "welch p", (int)k);
        near_(-1.75 * c, w.diff, 1e-14, "diff", (int)k);
        near_(-4.4246038590199825 * c, w.ci_low, 1e-12, "diff ci_low", (int)k);
        near_(0.9246038590199825 * c, w.ci_high, 1e-12, "diff ci_high", (int)k);
        double g = rd_stats_hedges_g(2 * c, rd_stats_sd(x, 3), 3, 3.75 * c, rd_stats_sd(y, 4), 4);
        near_(-1.0034252241208417, g, 1e-12, "hedges", (int)k);
        struct rd_ratio r;
        rd_stats_ratio_fieller(2 * c, rd_stats_sd(x, 3), 3, 3.75 * c, rd_stats_sd(y, 4), 4,
                               0.95, &r);
        near_(0.5333333333333333, r.ratio, 1e-14, "ratio", (int)k);
        near_(0.1078511828696644, r.ci_low, 1e-9, "ratio ci_low", (int)k);
        near_(1.6299223263712124, r.ci_high, 1e-9, "ratio ci_high", (int)k);
        const double *gs[] = { x, y, z };
        const size_t ns[] = { 3, 4, 3 };
        struct rd_anova an;
        rd_stats_anova(gs, ns, 3, &an);
        near_(6.489189189189188, an.f, 1e-12, "anova f", (int)k);
        near_(0.025461402392100783, an.p, 1e-9, "anova p", (int)k);
        rd_stats_welch_anova(gs, ns, 3, &an);
        near_(7.439027578094366, an.f, 1e-12, "welch anova f", (int)k);
        near_(4.443197755960729, an.df2, 1e-12, "welch anova df2", (int)k);
        near_(0.03818258848204034, an.p, 1e-9, "welch anova p", (int)k);
    }
    /* Denormals: (1, 2, 3) times the smallest one, 2^-1074, are exact, and
     * so is their sd, 2^-1074 (it was 0: the squares underflowed). At
     * 1e-310 the values carry about 44 bits. */
    const double d = 0x1p-1074;
    const double dx[] = { 1 * d, 2 * d, 3 * d };
    assert_true(rd_stats_sd(dx, 3) == d);
    const double ex[] = { 1e-310, 2e-310, 3e-310 };
    near_(1e-310, rd_stats_sd(ex, 3), 1e-12, "denormal sd", 0);
    /* Beyond the double range the statistic overflows to infinity, which
     * the writer makes null and warnings.c names; never 0. */
    /* A deviation beyond the range, an sd within it: by hand, deviations
     * 0.75, 0.75, 0.75, -2.25 (x 1e308), sum of squares 6.75, / 3, sqrt = 1.5 */
    const double wide[] = { 1.5e308, 1.5e308, 1.5e308, -1.5e308 };
    near_(1.5e308, rd_stats_sd(wide, 4), 1e-14, "sd near the limit", 0);
    const double huge[] = { 1.7e308, -1.7e308 };
    assert_true(isinf(rd_stats_sd(huge, 2)));
    struct rd_welch w;
    rd_stats_welch(huge, 2, huge, 2, 0.95, &w);
    assert_true(isnan(w.t) && isnan(w.p));
}

/* A ratio and a CV read as "x % faster" or "x % of the mean": of a zero or
 * negative mean they are undefined, never "125 % faster". */
static void test_nonpositive_means(void **state)
{
    (void)state;
    struct rd_ratio r;
    rd_stats_ratio_fieller(-1, 1, 5, 2, 1, 5, 0.95, &r);
    assert_true(isnan(r.ratio) && isnan(r.ci_low) && isnan(r.ci_high));
    rd_stats_ratio_fieller(1, 1, 5, -2, 1, 5, 0.95, &r);
    assert_true(isnan(r.ratio));
    rd_stats_ratio_fieller(-1, 1, 5, -2, 1, 5, 0.95, &r);
    assert_true(isnan(r.ratio));
    rd_stats_ratio_fieller(0, 1, 5, 2, 1, 5, 0.95, &r);
    assert_true(r.ratio == 0); /* none of a positive amount: 100 % less */
    const double neg[] = { -1, -2, -3 };
    double scratch[3];
    struct rd_summary sm;
    rd_stats_summarize(neg, 3, 0.95, scratch, &sm);
    assert_true(isnan(sm.cv));
    NEAR(1.0, sm.sd);
}

static void test_bootstrap_median(void **state)
{
    (void)state;
    double lo, hi, lo2, hi2;
    /* Hand: resampling {1, 3} gives medians 1 (p 1/4), 2 (1/2), 3 (1/4); with
     * B = 10000 the 2.5 % and 97.5 % quantiles of the medians are 1 and 3. */
    const double x[] = { 3, 1 };
    assert_int_equal(rd_stats_bootstrap_median(x, 2, 10000, 1, 0.95, &lo, &hi), RD_OK);
    NEAR(1.0, lo);
    NEAR(3.0, hi);
    /* Hand: a 40 % interval (quantiles 0.3 and 0.7, where the CDF of the
     * medians is 0.25 below 2 and 0.75 at 2) is [2, 2]. */
    rd_stats_bootstrap_median(x, 2, 10000, 1, 0.40, &lo, &hi);
    NEAR(2.0, lo);
    NEAR(2.0, hi);
    /* Same seed, same numbers; the CI lies within the data. */
    rd_stats_bootstrap_median(ctrl, 10, 2000, 7, 0.95, &lo, &hi);
    rd_stats_bootstrap_median(ctrl, 10, 2000, 7, 0.95, &lo2, &hi2);
    assert_true(lo == lo2 && hi == hi2);
    assert_true(lo >= 4.17 && hi <= 6.11 && lo <= 5.155 && hi >= 5.155);
    const double one[] = { 9 };
    rd_stats_bootstrap_median(one, 1, 100, 1, 0.95, &lo, &hi);
    assert_true(lo == 9 && hi == 9);
    rd_stats_bootstrap_median(one, 1, 0, 1, 0.95, &lo, &hi);
    assert_true(isnan(lo));
}

/* rd_stats_sort against libc's qsort on the shapes that break quicksorts:
 * sorted, reversed, all equal, few distinct values, organ pipe, random;
 * and on what the radix sort (64 values on) must order by sign and
 * exponent as well: random fractions of both signs, and values of both
 * signs over 64 binary orders of magnitude (no -0, which qsort puts
 * anywhere among the zeros). */
static void test_sort(void **state)
{
    (void)state;
    enum { N = 5000 };
    static double x[N], want[N];
    unsigned long r = 12345;
    for (int shape = 0; shape < 8; shape++) {
        for (size_t n = 0; n <= N; n = n < 70 ? n + 1 : n * 3) {
            for (size_t i = 0; i < n; i++) {
                r = r * 6364136223846793005UL + 1442695040888963407UL;
                double v[] = { (double)i, (double)(n - i), 7, (double)(r >> 60),
                               (double)(i < n / 2 ? i : n - i), (double)(r >> 11),
                               ((double)(r >> 11) - 4503599627370496.0) / 1024,
                               ldexp((double)((r >> 40) | 1), (int)(i % 64) - 32) *
                                   (i % 3 ? 1 : -1) };
                x[i] = v[shape];
            }
            memcpy(want, x, n * sizeof *x);
            qsort(want, n, sizeof *want, cmp_double);
            rd_stats_sort(x, n);
            assert_memory_equal(x, want, n * sizeof *x);
        }
    }
}

/* The summary's MAD (found without sorting the deviations, by bisecting
 * the two ascending runs of them on either side of the median) against
 * its definition worked out here: every |x - median| sorted by qsort,
 * their type 7 median times 1.482602218505602. Samples of 1 to 300
 * values: ties, few distinct values, both signs, values far apart
 * (deviations that round), and with an infinity (no bisection then). */
static void test_mad_against_sorted_deviations(void **state)
{
    (void)state;
    enum { N = 300 };
    static double x[N], sorted[N], dev[N];
    unsigned long r = 777;
    for (int shape = 0; shape < 6; shape++) {
        for (size_t n = 1; n <= N; n += n < 40 ? 1 : 37) {
            for (size_t i = 0; i < n; i++) {
                r = r * 6364136223846793005UL + 1442695040888963407UL;
                double u = (double)(r >> 11) / 9007199254740992.0;
                double v[] = { 30 + 20 * u, (double)(r >> 61), u - 0.5,
                               ldexp(u, (int)(r >> 58)) - 1e9, (i % 2 ? 1e300 : -1e300) * u,
                               i == n / 3 ? INFINITY : u };
                x[i] = v[shape];
            }
            struct rd_summary s;
            rd_stats_summarize(x, n, 0.95, sorted, &s);
            double med = rd_stats_quantile_sorted(sorted, n, 0.5);
            for (size_t i = 0; i < n; i++)
                dev[i] = fabs(x[i] - med);
            qsort(dev, n, sizeof *dev, cmp_double);
            double d0 = dev[(n - 1) / 2], d1 = dev[n / 2];
            double want = 1.482602218505602 * (n % 2 ? d0 : d0 + 0.5 * (d1 - d0));
            if (isnan(want))
                assert_true(isnan(s.mad));
            else
                assert_memory_equal(&s.mad, &want, sizeof want);
        }
    }
}

/* SciPy 1.10.1, for each n and tail = (1 - c) / 2:
 *   l = max(k for k in range(1, n//2 + 2) if stats.binom.cdf(k-1, n, 0.5) <= tail)
 *   level = 1 - 2 * stats.binom.cdf(l-1, n, 0.5)
 * c = 0.95: n = 6 -> l 1 (upper rank 6), level 0.96875; n = 10 -> 2 (9),
 * 0.978515625; n = 12 -> 3 (10), 0.96142578125; n = 20 -> 6 (15),
 * 0.9586105346679688; n = 50 -> 18 (33), 0.9671608624357315; n = 51 -> 19
 * (33), 0.9511261076817297; n = 101 -> 41 (61), 0.9539559330706572;
 * n = 1000 -> 469 (532), 0.9537088026395019. n = 10 at c = 0.99 -> 1 (10),
 * 0.998046875. */
static void test_median_ci_binomial(void **state)
{
    (void)state;
    static double x[1000];
    for (int i = 0; i < 1000; i++)
        x[i] = i;
    /* x[i] = i, so the interval [x_(l), x_(n-l+1)] is [l - 1, n - l]. */
    static const struct { size_t n; double conf, lo, hi, level; } cases[] = {
        { 51, 0.95, 18, 32, 0.9511261076817297 },
        { 101, 0.95, 40, 60, 0.9539559330706572 },
        { 1000, 0.95, 468, 531, 0.9537088026395019 },
        { 6, 0.95, 0, 5, 0.96875 }, /* hand: P(B <= 0) = 1/64 <= 0.025 < P(B <= 1) = 7/64 */
        { 10, 0.95, 1, 8, 0.978515625 },
        { 10, 0.99, 0, 9, 0.998046875 },
        { 12, 0.95, 2, 9, 0.96142578125 },
        { 20, 0.95, 5, 14, 0.9586105346679688 },
        { 50, 0.95, 17, 32, 0.9671608624357315 },
    };
    double lo, hi, level;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rd_stats_median_ci_binomial(x, cases[i].n, cases[i].conf, &lo, &hi, &level);
        assert_true(lo == cases[i].lo && hi == cases[i].hi);
        PNEAR(cases[i].level, level);
    }
    /* n = 5: 2^-5 = 0.03125 > 0.025, so no interval reaches 95 % (hand) */
    rd_stats_median_ci_binomial(x, 5, 0.95, &lo, &hi, &level);
    assert_true(isnan(lo) && isnan(hi) && isnan(level));
}

int main(void)
{
    rd_stats_init();
    make_big();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_sleep),
        cmocka_unit_test(test_summary_plantgrowth_ctrl),
        cmocka_unit_test(test_summary_200),
        cmocka_unit_test(test_summary_undefined),
        cmocka_unit_test(test_t_quantile),
        cmocka_unit_test(test_tukey),
        cmocka_unit_test(test_welch),
        cmocka_unit_test(test_welch_undefined),
        cmocka_unit_test(test_welch_summary_matches_raw),
        cmocka_unit_test(test_fieller),
        cmocka_unit_test(test_mann_whitney),
        cmocka_unit_test(test_mann_whitney_fast_matches_blocks),
        cmocka_unit_test(test_mw_min_p),
        cmocka_unit_test(test_hedges),
        cmocka_unit_test(test_anova_plantgrowth),
        cmocka_unit_test(test_anova_summarized_matches_raw),
        cmocka_unit_test(test_kruskal_ties_and_undefined),
        cmocka_unit_test(test_kruskal_sorted_many_groups),
        cmocka_unit_test(test_mann_whitney_pooled),
        cmocka_unit_test(test_mann_whitney_pool_many_groups),
        cmocka_unit_test(test_adjust),
        cmocka_unit_test(test_mann_kendall),
        cmocka_unit_test(test_mann_kendall_s_brute_force),
        cmocka_unit_test(test_mann_kendall_calibration),
        cmocka_unit_test(test_extreme_scales),
        cmocka_unit_test(test_nonpositive_means),
        cmocka_unit_test(test_bootstrap_median),
        cmocka_unit_test(test_median_ci_binomial),
        cmocka_unit_test(test_sort),
        cmocka_unit_test(test_mad_against_sorted_deviations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
