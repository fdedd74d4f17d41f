// links: rd_analyze
/*
 * Verdicts against the best (stats/verdict.c) and the studentized range
 * (stats/srange.c).
 *
 * Studentized range values are SciPy 1.10's (more precise than R's qtukey,
 * whose root search stops at 1e-4):
 *   python3 -c "from scipy.stats import studentized_range as s;
 *     print(s.sf(3.5,3,10), s.ppf(0.95,10,4), s.ppf(0.95,21,8), s.cdf(5,5,5))"
 *   -> 0.07710331083841038 7.826334605923533 6.933785048730076 0.921074516170005
 * Verdict numbers are by formula in R: tests/unit/verdict_reference.R
 * prints every one (the log-scale Welch df, the floor of the smallest,
 * the range critical value and Hsu's one-sided MCB constant by
 * integrate() and uniroot(), the intervals exp(log R +- c se), p_adj =
 * P(range > sqrt(2) |t|)). R's ptukey/qtukey were not used: their
 * results are off by up to 1e-3 at df = 2 and by 15 % for a p of 4e-8
 * (qtukey(0.95, 2, 2) / sqrt(2) = 4.29895 where qt(0.975, 2) = 4.30265).
 */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mcb.h"
#include "srange.h"
#include "moments.h"
#include "stats.h"
#include "verdict.h"

static struct rd_verdict_sample sample(const double *x, size_t n)
{
    /* as the analysis reads a config (analyze/levels.c) and
     * verdict_reference.R computes it: the relative variance the larger of
     * the linear and the log-scale one */
    return (struct rd_verdict_sample){ (double)n, rd_stats_mean(x, n), rd_stats_sd(x, n), true, 0,
                                       rd_log_sd(x, n) };
}

/* Two configs of a higher-is-better metric, decided at the defaults. */
static void decide_higher(const struct rd_verdict_sample *x, struct rd_verdict_row *rows,
                          struct rd_verdict_result *res)
{
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    s.higher_is_better = true;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, res), RD_OK);
}

static void srange_matches_scipy(void **state)
{
    (void)state;
    rd_stats_init();
    assert_float_equal(rd_srange_sf(3.5, 3, 10), 0.07710331083841038, 1e-9);
    assert_float_equal(rd_srange_cdf(5, 5, 5), 0.921074516170005, 1e-9);
    assert_float_equal(rd_srange_quantile(0.95, 10, 4), 7.826334605923533, 1e-7);
    assert_float_equal(rd_srange_quantile(0.95, 21, 8), 6.933785048730076, 1e-7);
    /* k = 2: the range over sqrt 2 is |t|, so the quantile is
     * sqrt(2) qt(0.975, 8) = sqrt(2) * 2.306004135204166 (R: qt(0.975, 8)). */
    assert_float_equal(rd_srange_quantile(0.95, 2, 8) / M_SQRT2, 2.306004135204166, 1e-8);
    /* A known sd: qtukey(0.95, 2, Inf) / sqrt(2) = qnorm(0.975). */
    assert_float_equal(rd_srange_quantile(0.95, 2, INFINITY) / M_SQRT2, 1.959963984540054, 1e-8);
    assert_true(isnan(rd_srange_cdf(1, 1, 5)));
    assert_true(isnan(rd_srange_cdf(1, 3, 0)));
    assert_float_equal(rd_srange_cdf(0, 3, 5), 0, 0);
    assert_float_equal(rd_srange_sf(0, 3, 5), 1, 0);
}

/* Every line of tests/unit/srange_scipy.txt (SciPy's tails over k up to
 * 10^6, df 1 to 1000 and a known sd, q up to 100; made by
 * tests/unit/srange_reference.py) within the 1e-9 srange.h promises. The
 * quadrature before the tables was off by 1e-5 at k = 10^4 and by 1.5e-4
 * at q = 30, k = 1000, df = 2. */
static void srange_matches_scipy_over_a_grid(void **state)
{
    (void)state;
    rd_stats_init();
    FILE *f = fopen(RD_SOURCE_DIR "/tests/unit/srange_scipy.txt", "r");
    assert_non_null(f);
    char line[256], df_text[32];
    size_t points = 0, off = 0;
    double worst = 0;
    while (fgets(line, sizeof line, f)) {
        double k, q, want;
        if (line[0] == '#')
            continue;
        assert_int_equal(sscanf(line, "%lf %31s %lf %lf", &k, df_text, &q, &want), 4);
        double df = strcmp(df_text, "inf") == 0 ? INFINITY : atof(df_text);
        double got = rd_srange_sf(q, k, df);
        double miss = fabs(got - want);
        if (!(miss <= 1e-9)) {
            print_message("k %g df %g q %g: SciPy %.17g, srange %.17g\n", k, df, q, want, got);
            off++;
        }
        worst = fmax(worst, miss);
        points++;
        /* The cdf is the rest, to the same absolute error. */
        assert_float_equal(rd_srange_cdf(q, k, df), 1 - want, 1e-9);
    }
    fclose(f);
    assert_int_equal(points, 1024);
    assert_int_equal(off, 0);
    assert_true(worst < 1e-9);
}

/* Small tails keep their relative precision: for k = 2 the range over
 * sqrt 2 is |t|, so P(Q > q) = 2 pt(-q / sqrt 2, df) (R 4.2.2:
 * 2*pt(-50/sqrt(2), 30), 2*pt(-100/sqrt(2), 3), 2*pt(-14/sqrt(2), 1000),
  * 2*pnorm(-12/sqrt(2))), down to about 1e-28 (srange.h). And the tail is continuous in df: the old cut to
 * a known sd past df = 10^6 jumped by 3e-7. */
static void srange_small_tails_and_large_df(void **state)
{
    (void)state;
    rd_stats_init();
    const struct { double q, df, want; } tails[] = {
        { 50, 30, 5.1671977458392115e-26 },
        { 100, 3, 6.2330862416048493e-06 },
        { 14, 1000, 4.1786299869641002e-22 },
        { 12, INFINITY, 2.1519736712499058e-17 },
    };
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        double got = rd_srange_sf(tails[i].q, 2, tails[i].df);
        assert_true(fabs(got - tails[i].want) <= 1e-8 * tails[i].want);
    }
    double at_inf = rd_srange_sf(6, 21, INFINITY);
    assert_float_equal(rd_srange_sf(6, 21, 999999), rd_srange_sf(6, 21, 1000001), 1e-11);
    assert_float_equal(rd_srange_sf(6, 21, 1e12), at_inf, 1e-10);
    assert_float_equal(rd_srange_sf(6, 21, 1e300), at_inf, 0);
    /* Decreasing in q across the pieces of the table (k = 10^5, df = 2). */
    double last = 1;
    for (double q = 0.1; q < 80; q += 0.37) {
        double p = rd_srange_sf(q, 100000, 2);
        assert_true(p <= last);
        last = p;
    }
}

/* Tails and p_adj at a large df, where the s-integral's upper end came
 * from GSL's chi-square quantile: 2.5 % low at df = 61,333 (tails off by
 * about 1e-4 of themselves), below 1 at 10^6 (stats/chisq.c). At 61,333
 * SciPy 1.10's own studentized_range.sf; past df = 10^5 SciPy takes the
 * known-sd limit (2.2090497e-05 at q 6, k 2, df 10^6 where 2 t.sf(6 /
 * sqrt 2, 10^6) is 2.2092481e-05), so at 10^6 the reference is SciPy's
 * known-sd tail integrated over the chi density of s by quad:
 *   /usr/bin/python3 -c "import math
 *   from scipy.stats import studentized_range as sr, chi
 *   from scipy.integrate import quad
 *   def by_s(q, k, df):
 *       d = chi(df, scale=1 / math.sqrt(df)); sd = 1 / math.sqrt(2 * df)
 *       return quad(lambda s: sr.sf(q * s, k, math.inf) * d.pdf(s),
 *                   1 - 12 * sd, 1 + 12 * sd, epsabs=1e-14, epsrel=1e-11,
 *                   limit=200)[0]
 *   for k in (2, 5, 50):
 *       for q in (3.0, 4.5, 6.0):
 *           print(k, q, repr(float(sr.sf(q, k, 61333))), repr(by_s(q, k, 1e6)))"
 * (by_s at 61,333 agrees with sr.sf to 3e-11; at k = 2 both with
 * 2 t.sf(q / sqrt 2, df) to 2e-11.) */
static void srange_and_p_adjusted_at_a_large_df(void **state)
{
    (void)state;
    rd_stats_init();
    const struct { double k, q, at_61333, at_1e6; } want[] = {
        { 2, 3.0, 0.03389885294241313, 0.0338950988021592 },
        { 2, 4.5, 0.0014634454115541873, 0.0014627612816565836 },
        { 2, 6.0, 2.21228573554777e-05, 2.2092481409637693e-05 },
        { 5, 3.0, 0.21089042747324804, 0.21087735879520664 },
        { 5, 4.5, 0.012730938318258223, 0.012725702687172045 },
        { 5, 6.0, 0.00021454856134028866, 0.00021426137017056463 },
        { 50, 3.0, 0.9968527367561321, 0.9968569155717141 },
        { 50, 4.5, 0.46943119139449896, 0.4694039864537421 },
        { 50, 6.0, 0.019428368793592665, 0.019407984132088614 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const double df[2] = { 61333, 1e6 }, ref[2] = { want[i].at_61333, want[i].at_1e6 };
        for (int j = 0; j < 2; j++) {
            double got = rd_srange_sf(want[i].q, want[i].k, df[j]);
            if (!(fabs(got - ref[j]) <= 1e-9 && fabs(got - ref[j]) <= 1e-6 * ref[j]))
                fail_msg("k %g q %g df %g: srange %.17g, SciPy %.17g", want[i].k, want[i].q,
                         df[j], got, ref[j]);
            /* p_adj of a row whose t is q / sqrt 2: the same tail. */
            struct rd_verdict_row row = { .verdict = RD_VERDICT_WORSE, .estimable = true,
                                          .t = want[i].q / M_SQRT2 };
            struct rd_verdict_result res = { .family = (size_t)want[i].k, .df = df[j] };
            assert_float_equal(rd_verdict_p_adjusted(&row, &res), got, 1e-15);
        }
    }
}

static void worse_and_inconclusive_against_the_best(void **state)
{
    (void)state;
    const double best[] = { 100, 102, 98, 101, 99 };
    const double slow[] = { 110, 112, 108, 111, 109 };
    const double near[] = { 104, 99, 107, 101, 103 };
    struct rd_verdict_sample x[3] = { sample(slow, 5), sample(best, 5), sample(near, 5) };
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    struct rd_verdict_row rows[3];
    struct rd_verdict_result res;
    assert_int_equal(rd_verdict_decide(x, 3, &s, rows, &res), RD_OK);
    assert_int_equal(res.best, 1);
    assert_int_equal(res.family, 3);
    assert_float_equal(res.df, 6, 0);
    assert_float_equal(res.crit, 3.068274546341481, 1e-8);
    assert_int_equal(rows[1].verdict, RD_VERDICT_BEST);
    assert_int_equal(rows[0].verdict, RD_VERDICT_WORSE);
    assert_float_equal(rows[0].ratio, 1.1, 1e-12);
    assert_float_equal(res.crit_eq, 2.33680459216474, 1e-8);
    assert_float_equal(rows[0].ratio_ci_low, 1.068209296495, 1e-8);
    assert_float_equal(rows[0].ratio_ci_high, 1.13273681849638, 1e-8);
    assert_float_equal(rows[0].eq_ci_low, 1.07570371127695, 1e-8);
    assert_float_equal(rows[0].eq_ci_high, 1.12484505474433, 1e-8);
    assert_float_equal(rows[0].t, 9.971797477041, 1e-10);
    assert_float_equal(rd_verdict_p_adjusted(&rows[0], &res), 0.000145024436911778, 1e-9);
    /* 10 % slower, the whole interval past 1.05: more than 5 % slower. */
    assert_int_equal(rows[0].beyond_margin, 1);
    /* 2.8 % slower, interval 0.982-1.076: contains 1 and passes the 5 %
     * margin. */
    assert_int_equal(rows[2].verdict, RD_VERDICT_INCONCLUSIVE);
    assert_int_equal(rows[2].beyond_margin, 0);
    assert_float_equal(rows[2].ratio_ci_low, 0.981846652504703, 1e-8);
    assert_float_equal(rows[2].ratio_ci_high, 1.07632286294823, 1e-8);
    assert_float_equal(rd_verdict_p_adjusted(&rows[2], &res), 0.234448608732348, 1e-9);
    assert_int_equal(rows[1].beyond_margin, -1);
    assert_true(rows[2].runs_needed > 5);
    assert_int_equal(res.decision, RD_DECISION_INCONCLUSIVE);
    assert_true(isnan(rd_verdict_p_adjusted(&rows[1], &res)));
}

static void equivalent_even_when_detectably_slower(void **state)
{
    (void)state;
    const double fast[] = { 100.0, 100.1, 99.9, 100.05, 99.95 };
    const double slower[] = { 101.0, 101.1, 100.9, 101.05, 100.95 };
    struct rd_verdict_sample x[2] = { sample(fast, 5), sample(slower, 5) };
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    struct rd_verdict_row rows[2];
    struct rd_verdict_result res;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(rows[1].verdict, RD_VERDICT_EQUIVALENT);
    assert_float_equal(rows[1].ratio_ci_low, 1.0088124597318, 1e-8);
    assert_float_equal(rows[1].ratio_ci_high, 1.01118893820086, 1e-8);
    assert_float_equal(rows[1].eq_ci_low, 1.00904841057335, 1e-8);
    assert_float_equal(rows[1].eq_ci_high, 1.01095248682902, 1e-8);
    /* Detectably slower: the adjusted p is tiny, yet within the margin. */
    assert_float_equal(rd_verdict_p_adjusted(&rows[1], &res), 1.95527831703401e-07, 1e-12);
    assert_int_equal(res.decision, RD_DECISION_EQUIVALENT);
    /* With a margin of 0.5 % the same interval is worse. */
    s.margin = 0.005;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(rows[1].verdict, RD_VERDICT_WORSE);
    assert_int_equal(res.decision, RD_DECISION_CLEAR);
}

static void a_wide_slower_config_is_inconclusive(void **state)
{
    (void)state;
    /* The case: 25 % slower on 3 runs, with an interval reaching
     * from far faster to twice as slow. Not tied, not worse: unknown. */
    const double a[] = { 100, 95, 105 };
    const double b[] = { 125, 90, 160 };
    struct rd_verdict_sample x[2] = { sample(b, 3), sample(a, 3) };
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    struct rd_verdict_row rows[2];
    struct rd_verdict_result res;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(res.best, 1);
    assert_float_equal(res.df, 2, 0);
    assert_int_equal(rows[0].verdict, RD_VERDICT_INCONCLUSIVE);
    assert_float_equal(rows[0].ratio_ci_low, 0.594768735132618, 1e-8);
    assert_float_equal(rows[0].ratio_ci_high, 2.62707151150372, 1e-8);
    assert_float_equal(rd_verdict_p_adjusted(&rows[0], &res), 0.32531968890198, 1e-8);
    assert_int_equal(res.decision, RD_DECISION_INCONCLUSIVE);
    assert_true(rows[0].runs_needed > 3);
}

static void higher_is_better(void **state)
{
    (void)state;
    const double fast[] = { 1000, 1010, 990, 1005, 995 };
    const double slow[] = { 900, 910, 890, 905, 895 };
    struct rd_verdict_sample x[2] = { sample(slow, 5), sample(fast, 5) };
    struct rd_verdict_row rows[2];
    struct rd_verdict_result res;
    decide_higher(x, rows, &res);
    assert_int_equal(res.best, 1);
    assert_int_equal(rows[0].verdict, RD_VERDICT_WORSE);
    assert_float_equal(rows[0].ratio, 0.9, 1e-12);
    assert_float_equal(rows[0].ratio_ci_low, 0.888821871847131, 1e-8);
    assert_float_equal(rows[0].ratio_ci_high, 0.911318708119407, 1e-8);
    /* 0.911 < 0.95: the whole interval is more than 5 % lower. */
    assert_int_equal(rows[0].beyond_margin, 1);
    assert_int_equal(res.decision, RD_DECISION_CLEAR);
}

static void constant_groups_and_too_few_runs(void **state)
{
    (void)state;
    /* 5 ms against 6 ms, every run alike: Welch is undefined, the ratio
     * is exact, and the slower config is worse, never recommended. */
    const double five[] = { 5, 5, 5, 5, 5 }, six[] = { 6, 6, 6, 6, 6 };
    const double one[] = { 300 };
    struct rd_verdict_sample x[3] = { sample(six, 5), sample(five, 5), sample(one, 1) };
    /* One run is no sample: the caller disqualifies it, and so does the
     * decision when asked to compare it. */
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    struct rd_verdict_row rows[3];
    struct rd_verdict_result res;
    assert_int_equal(rd_verdict_decide(x, 3, &s, rows, &res), RD_OK);
    assert_int_equal(res.best, 1);
    assert_int_equal(res.family, 2);
    assert_int_equal(rows[0].verdict, RD_VERDICT_WORSE);
    assert_true(rows[0].exact);
    assert_float_equal(rows[0].ratio_ci_low, 1.2, 1e-12);
    assert_true(isnan(rd_verdict_p_adjusted(&rows[0], &res)));
    assert_int_equal(rows[2].verdict, RD_VERDICT_DISQUALIFIED);
    assert_int_equal(res.n_disqualified, 1);
    assert_int_equal(res.decision, RD_DECISION_CLEAR);

    /* Equal constants are equivalent. */
    x[0] = sample(five, 5);
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(rows[1].verdict, RD_VERDICT_EQUIVALENT);
    assert_int_equal(res.decision, RD_DECISION_EQUIVALENT);

    /* Nothing eligible: no data. */
    x[0].eligible = x[1].eligible = false;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(res.decision, RD_DECISION_NO_DATA);
    assert_int_equal(res.best, 2);
}

/* Means near the top of the double range: the squares of their sds
 * (about 1e598) overflow unless the verdict scales them first. The
 * values are 1, 1.1, 1.2 and 1.3, 1.4, 1.5 times 1e300; with Python's
 * fractions on the unscaled ones (Fraction(11, 10) and Fraction(7, 5)
 * means, sd 1/10 each): ratio 14/11; on the log scale t =
 * 3.59696628693429 and the Welch df 3 (tests/unit/verdict_reference.R,
 * "limit"). The interval, a function of ratios alone, is the one of the
 * same values divided by 1e300. */
static void means_near_the_double_limit(void **state)
{
    (void)state;
    const double a[] = { 1e300, 1.1e300, 1.2e300 }, b[] = { 1.3e300, 1.4e300, 1.5e300 };
    const double a1[] = { 1, 1.1, 1.2 }, b1[] = { 1.3, 1.4, 1.5 };
    struct rd_verdict_sample big[2] = { sample(a, 3), sample(b, 3) };
    struct rd_verdict_sample unit[2] = { sample(a1, 3), sample(b1, 3) };
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    struct rd_verdict_row rows[2], rows1[2];
    struct rd_verdict_result res, res1;
    assert_int_equal(rd_verdict_decide(big, 2, &s, rows, &res), RD_OK);
    assert_int_equal(rd_verdict_decide(unit, 2, &s, rows1, &res1), RD_OK);
    assert_int_equal(res.best, 0);
    assert_float_equal(res.df, 3, 0);
    assert_float_equal(rows[1].ratio, 14.0 / 11.0, 1e-15);
    assert_float_equal(rows[1].t, 3.59696628693429, 1e-10);
    assert_float_equal(rows[1].ratio_ci_low, 1.02818168725989, 1e-8);
    assert_float_equal(rows[1].ratio_ci_high, 1.5754362588004, 1e-8);
    assert_true(isfinite(rows[1].ratio_ci_low) && isfinite(rows[1].ratio_ci_high));
    assert_float_equal(rows[1].ratio_ci_low, rows1[1].ratio_ci_low, 1e-12);
    assert_float_equal(rows[1].ratio_ci_high, rows1[1].ratio_ci_high, 1e-12);
    assert_int_equal(rows[1].verdict, rows1[1].verdict);
    assert_int_equal(rows[1].runs_needed, rows1[1].runs_needed);
    assert_int_equal(res.decision, res1.decision);
}

/* Hsu's one-sided MCB constant against R (tests/unit/verdict_reference.R,
 * integrate() and uniroot(); k = 2 is qt(0.95, df), qnorm(0.95)). */
static void mcb_matches_r(void **state)
{
    (void)state;
    rd_stats_init();
    const struct { double k, df, want; } q[] = {
        { 2, INFINITY, 1.644853626951 }, { 2, 8, 1.859548037531 },
        { 5, INFINITY, 2.160333281156 }, { 5, 18, 2.321450860115 },
        { 15, 4, 3.862955909191 },       { 15, 38, 2.650984423480 },
        { 3, 1, 9.509978125425 },
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        assert_float_equal(rd_mcb_quantile(0.95, q[i].k, q[i].df), q[i].want, 1e-7);
    assert_float_equal(rd_mcb_cdf(2, 5, 10), 0.896253483122, 1e-9);
    /* Large df, where GSL's chi-square quantiles fail (the s range was
     * NaN or missed the mass: 1.8699 at df = 59,993, NaN at 10^6). For
     * k = 2 it is Student's t: SciPy 1.10.1, t.ppf(0.95, 59993),
     * t.ppf(0.847251, 61333), t.ppf(0.95, 10**6), t.ppf(0.95, 1990). */
    const struct { double p, df, want; } t[] = {
        { 0.95, 59993, 1.6448790264617594 },  { 0.847251, 61333, 1.0247228916742939 },
        { 0.95, 1e6, 1.64485515072204 },      { 0.95, 1990, 1.6456196988437817 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        assert_float_equal(rd_mcb_quantile(t[i].p, 2, t[i].df), t[i].want, 1e-11);
    /* k = 5: d falls with df towards R's known-sd 2.160333281156 as
     * a / df + O(1 / df^2), so (d - d_inf) df is the same a at both df to
     * well within 1 % (main's d at 59,993 was 2.3613, 0.2 above). */
    double d_inf = 2.160333281156, d60k = rd_mcb_quantile(0.95, 5, 59993),
           d1m = rd_mcb_quantile(0.95, 5, 1e6);
    assert_true(rd_mcb_quantile(0.95, 5, 1e4) > d60k && d60k > d1m && d1m > d_inf);
    assert_float_equal((d60k - d_inf) * 59993 / ((d1m - d_inf) * 1e6), 1, 0.01);
    assert_true(isnan(rd_mcb_cdf(1, 1, 5)));
    assert_true(isnan(rd_mcb_cdf(1, 3, 0)));
    assert_true(isnan(rd_mcb_quantile(1, 3, 5)));
}

/* The critical values' cache is shared by the threads: four threads
 * asking at once for the same values no other test asks for (one works
 * each out, the others wait for it) get, every time, exactly what
 * rd_mcb_quantile gives uncached (checked against R in mcb_matches_r). */
struct crit_ask {
    double got[3][4];
};

static void *ask_crits(void *arg)
{
    struct crit_ask *c = arg;
    const double df[] = {23, 61, 9};
    const double k[] = {7, 12, 3};
    for (int round = 0; round < 4; round++)
        for (int i = 0; i < 3; i++)
            c->got[i][round] = rd_verdict_equivalence_critical_value(0.05, k[i], df[i]);
    return NULL;
}

static void crit_cache_shared_by_threads(void **state)
{
    (void)state;
    rd_stats_init();
    const double want[] = {rd_mcb_quantile(0.95, 7, 23), rd_mcb_quantile(0.95, 12, 61),
                           rd_mcb_quantile(0.95, 3, 9)};
    pthread_t tid[4];
    struct crit_ask asks[4];
    for (int t = 0; t < 4; t++)
        assert_int_equal(pthread_create(&tid[t], NULL, ask_crits, &asks[t]), 0);
    for (int t = 0; t < 4; t++)
        assert_int_equal(pthread_join(tid[t], NULL), 0);
    for (int t = 0; t < 4; t++)
        for (int i = 0; i < 3; i++)
            for (int round = 0; round < 4; round++)
                assert_true(asks[t].got[i][round] == want[i]);
}

/* A mean not clearly positive at the family's critical value: no
 * interval, "not estimable", inconclusive, whatever t says. Mean 1 with
 * sd 2 on 5 runs: 1 - 2.78 * 2 / sqrt(5) < 0 (hand). */
static void a_mean_near_zero_is_not_estimable(void **state)
{
    (void)state;
    struct rd_verdict_sample x[2] = { { 5, 10, 0.1, true, 0, 0 }, { 5, 1, 2, true, 0, 0 } };
    struct rd_verdict_row rows[2];
    struct rd_verdict_result res;
    decide_higher(x, rows, &res);
    assert_int_equal(res.best, 0);
    assert_int_equal(rows[1].verdict, RD_VERDICT_INCONCLUSIVE);
    assert_false(rows[1].estimable);
    assert_true(isnan(rows[1].ratio_ci_low) && isnan(rows[1].ratio_ci_high));
    assert_int_equal(rows[1].beyond_margin, -1);
    assert_true(isnan(rd_verdict_p_adjusted(&rows[1], &res)));
    assert_float_equal(rows[1].ratio, 0.1, 1e-15);
}

/* Paired within rounds (verdict.h, rd_verdict_pairing): config a is 8-12 %
 * slower than b in every round, while the rounds move both by 2x. The
 * pairs see it; the unpaired verdict cannot. SciPy 1.10.1:
 *   f = [1.10, 1.12, 1.08, 1.11, 1.09]; b = [100, 200, 150, 120, 180];
 *   d = log(b * f) - log(b); m = d.mean(); se = d.std(ddof=1) / sqrt(5)
 *   c = stats.t.ppf(1 - 0.05 / 2, 4)   # k = 2: Bonferroni over 1 pair
 *   -> exp(m) 1.0999090818915747, CI exp(m -+ c se) 1.0804503319489973,
 *      1.1197182810293913, t 14.812324150609635, p 2 P(T4 > t)
 *      0.00012094173942272327 */
static const double pair_b[] = { 100, 200, 150, 120, 180 };
static const double pair_f[] = { 1.10, 1.12, 1.08, 1.11, 1.09 };

static bool pair_logs(const void *ctx, size_t a, size_t b, double *mean_log, double *sd_log,
                      double *n)
{
    (void)ctx;
    struct rd_moments m = {0};
    for (size_t r = 0; r < 5; r++) {
        double la = log(pair_b[r] * (a == 0 ? pair_f[r] : 1));
        double lb = log(pair_b[r] * (b == 0 ? pair_f[r] : 1));
        rd_moments_add(&m, la - lb);
    }
    *n = 5;
    *mean_log = m.mean;
    *sd_log = rd_moments_sd(&m);
    return true;
}

static bool pair_logs_flipped(const void *ctx, size_t a, size_t b, double *mean_log,
                              double *sd_log, double *n)
{
    bool ok = pair_logs(ctx, a, b, mean_log, sd_log, n);
    *mean_log = -*mean_log;
    return ok;
}

/* Within-round ratios 2 % apart on average with a spread of 5 %: open. */
static bool pair_logs_open(const void *ctx, size_t a, size_t b, double *mean_log, double *sd_log,
                           double *n)
{
    (void)ctx;
    *mean_log = a == 0 && b == 1 ? 0.02 : -0.02;
    *sd_log = 0.05;
    *n = 5;
    return true;
}

static void paired_within_rounds(void **state)
{
    (void)state;
    double a[5];
    for (size_t r = 0; r < 5; r++)
        a[r] = pair_b[r] * pair_f[r];
    struct rd_verdict_sample x[2] = { sample(a, 5), sample(pair_b, 5) };
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    struct rd_verdict_row rows[2];
    struct rd_verdict_result res;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(rows[0].verdict, RD_VERDICT_INCONCLUSIVE); /* unpaired */
    struct rd_verdict_pairing pg = { pair_logs, NULL };
    s.pairing = &pg;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(res.best, 1);
    assert_true(res.paired);
    assert_int_equal(rows[0].verdict, RD_VERDICT_WORSE);
    assert_true(fabs(rows[0].ratio - 1.0999090818915747) < 1e-13);
    assert_true(fabs(rows[0].ratio_ci_low - 1.0804503319489973) < 1e-12);
    assert_true(fabs(rows[0].ratio_ci_high - 1.1197182810293913) < 1e-12);
    assert_true(fabs(rows[0].t - 14.812324150609635) < 1e-10);
    assert_true(fabs(rd_verdict_p_adjusted(&rows[0], &res) - 0.00012094173942272327) < 1e-15);
    assert_int_equal(res.decision, RD_DECISION_CLEAR);
    /* Pairs that say the other way round: a config that comes out better
     * than the best mean is never called worse. */
    struct rd_verdict_pairing flipped = { pair_logs_flipped, NULL };
    s.pairing = &flipped;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(res.best, 1);
    assert_true(rows[0].ratio < 1);
    assert_int_equal(rows[0].verdict, RD_VERDICT_INCONCLUSIVE);
    assert_int_equal(res.decision, RD_DECISION_INCONCLUSIVE);
    /* An open paired row says how many rounds would settle it: a number
     * (the paired constants at the normal limit, not GSL's NaN of t at
     * infinite df), more than the 5 it has. */
    struct rd_verdict_pairing open = { pair_logs_open, NULL };
    s.pairing = &open;
    assert_int_equal(rd_verdict_decide(x, 2, &s, rows, &res), RD_OK);
    assert_int_equal(rows[0].verdict, RD_VERDICT_INCONCLUSIVE);
    assert_true(rows[0].runs_needed > 5 && rows[0].runs_needed < 1000);
    /* Three rounds spread from 1 to 200: the configs' own means are not
     * clearly positive at the critical value (t at 1 - 0.05 / 4, 2 df =
     * 6.2: 100.3 - 6.2 * 99.5 / sqrt 3 < 0, by hand), so the pairs give no
     * ratio, as the unpaired verdict would not: not estimable. */
    const double wide_b[] = { 1, 100, 200 }, wide_a[] = { 1.1, 110, 220 };
    struct rd_verdict_sample w[2] = { sample(wide_a, 3), sample(wide_b, 3) };
    s.pairing = &pg;
    assert_int_equal(rd_verdict_decide(w, 2, &s, rows, &res), RD_OK);
    assert_int_equal(res.best, 1);
    assert_false(rows[0].estimable);
    assert_int_equal(rows[0].verdict, RD_VERDICT_INCONCLUSIVE);
    assert_true(isnan(rows[0].ratio_ci_low));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(means_near_the_double_limit),
        cmocka_unit_test(srange_matches_scipy),
        cmocka_unit_test(srange_matches_scipy_over_a_grid),
        cmocka_unit_test(srange_and_p_adjusted_at_a_large_df),
        cmocka_unit_test(srange_small_tails_and_large_df),
        cmocka_unit_test(worse_and_inconclusive_against_the_best),
        cmocka_unit_test(equivalent_even_when_detectably_slower),
        cmocka_unit_test(a_wide_slower_config_is_inconclusive),
        cmocka_unit_test(higher_is_better),
        cmocka_unit_test(constant_groups_and_too_few_runs),
        cmocka_unit_test(mcb_matches_r),
        cmocka_unit_test(crit_cache_shared_by_threads),
        cmocka_unit_test(a_mean_near_zero_is_not_estimable),
        cmocka_unit_test(paired_within_rounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
