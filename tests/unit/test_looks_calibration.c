// links: rd_analyze
/*
 * The verdicts over several looks at one workload (docs/methods.md §6,
 * "Looks"): seeded, small enough for make test; bench/verdict-
 * calibration.sh runs it with more workloads (RD_CALIBRATION_WORKLOADS)
 * for the table in docs/methods.md.
 *
 * A/A workloads of k = 2 and 5 configs, lognormal runs of mean 1 and
 * CV 3 %, a planned maximum N = 30 runs per config, looked at after 6,
 * 12, 18, 24 and 30 runs (every look judges all runs so far). Three
 * rules for the level of look l:
 *
 * - spent: the increment a(t_l) - a(t_(l-1)) of the Pocock-type spending
 *   function (stats/settle.h, rd_settle_look_level) at t_l = n_l / N,
 *   the first look included: what the analysis does;
 * - first at alpha: the first look at alpha, later looks at their
 *   increments (spending only from the second look on);
 * - none: alpha at every look.
 *
 * The share of workloads with any config called worse at any look must
 * be at most alpha + 2 Monte Carlo standard errors under "spent"; the
 * other two are printed for the docs (they exceed alpha: the first look
 * alone rejects with probability alpha). And the cost of spending at one
 * look, n = 10 of N = 30 (level a(1/3)), against alpha: the A/A share
 * decided equivalent and the share in which a config truly 3 % slower is
 * called worse, k = 2 and 5, CV 3 %.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "calibration_test.h"
#include "settle.h"
#include "stats.h"
#include "verdict.h"

enum { DEFAULT_WORKLOADS = 1000, MAX_K = 5, PLANNED = 30, LOOKS = 5 };

static const double alpha = 0.05;

static int workloads(void)
{
    return calibration_workloads(DEFAULT_WORKLOADS);
}

/* The spending function and a look's level against R:
 * a <- function(t) 0.05 * log(1 + (exp(1) - 1) * t)
 * a(1/5) = 0.014769726456, a(2/5) - a(1/5) = 0.011387131725,
 * a(1) - a(4/5) = 0.006758013742, a(1/3) = 0.022641621263. */
static void level_of_a_look(void **state)
{
    (void)state;
    assert_true(fabs(rd_settle_spent(alpha, 0.2) - 0.014769726456) < 1e-11);
    assert_true(fabs(rd_settle_look_level(alpha, 0.2, 0.4) - 0.011387131725) < 1e-11);
    assert_true(fabs(rd_settle_look_level(alpha, 0.8, 1) - 0.006758013742) < 1e-11);
    assert_true(fabs(rd_settle_look_level(alpha, 0, rd_settle_fraction(10, 30)) -
                     0.022641621263) < 1e-11);
    assert_true(rd_settle_spent(alpha, 1) == alpha);
    assert_true(rd_settle_fraction(40, 30) == 1); /* past the plan: all of it */
    assert_true(rd_settle_fraction(5, 0) == 0);   /* no plan */
    assert_true(rd_settle_look_level(alpha, 1, 1) == 0);
}

/* The runs' CV: 3 %, or RD_LOOKS_CV (bench/verdict-calibration.sh's
 * cell at 20 %, where the fixed-sample rate is nearer alpha). */
static double cv(void)
{
    const char *e = getenv("RD_LOOKS_CV");
    double c = e ? atof(e) : 0;
    return c > 0 ? c : 0.03;
}

static void draw(gsl_rng *rng, size_t k, size_t n, const double *shift, double v[][PLANNED])
{
    double sigma = sqrt(log1p(cv() * cv()));
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < n; j++)
            v[i][j] = gsl_ran_lognormal(rng, -0.5 * sigma * sigma, sigma) * shift[i];
}

/* The verdicts on the first n runs of each config at level 'at'. */
static struct rd_verdict_result judge(double v[][PLANNED], size_t k, size_t n, double at,
                                      struct rd_verdict_row *rows)
{
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    s.alpha = at;
    struct rd_verdict_sample x[MAX_K];
    for (size_t i = 0; i < k; i++)
        x[i] = rd_verdict_sample_of(v[i], n, true);
    struct rd_verdict_result res;
    assert_int_equal(rd_verdict_decide(x, k, &s, rows, &res), RD_OK);
    return res;
}

enum { SPENT, FIRST_AT_ALPHA, NONE, RULES };

static void aa_over_five_looks(void **state)
{
    (void)state;
    rd_stats_init();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261205);
    const int W = workloads();
    const double bound = alpha + 2 * sqrt(alpha * (1 - alpha) / W);
    const size_t ks[] = { 2, 5 }, at[LOOKS] = { 6, 12, 18, 24, 30 };
    const double ones[MAX_K] = { 1, 1, 1, 1, 1 };
    static double v[MAX_K][PLANNED];
    for (size_t c = 0; c < 2; c++) {
        const size_t k = ks[c];
        double any[RULES] = { 0 }, first[RULES] = { 0 };
        for (int w = 0; w < W; w++) {
            draw(rng, k, PLANNED, ones, v);
            bool hit[RULES] = { false };
            for (size_t l = 0; l < LOOKS; l++) {
                double t = rd_settle_fraction((double)at[l], PLANNED);
                double t0 = l ? rd_settle_fraction((double)at[l - 1], PLANNED) : 0;
                double level[RULES] = { rd_settle_look_level(alpha, t0, t),
                                        l ? rd_settle_look_level(alpha, t0, t) : alpha,
                                        alpha };
                for (int r = 0; r < RULES; r++) {
                    struct rd_verdict_row rows[MAX_K];
                    judge(v, k, at[l], level[r], rows);
                    bool worse = false;
                    for (size_t i = 0; i < k; i++)
                        worse |= rows[i].verdict == RD_VERDICT_WORSE;
                    if (l == 0)
                        first[r] += worse;
                    hit[r] |= worse;
                }
            }
            for (int r = 0; r < RULES; r++)
                any[r] += hit[r];
        }
        printf("looks k=%zu CV %g%% N=30 at 6,12,18,24,30 (%d workloads): any worse at any "
               "look: spent %.4f (first look %.4f), first at alpha %.4f (first look %.4f), "
               "none %.4f; bound %.4f\n",
               k, 100 * cv(), W, any[SPENT] / W, first[SPENT] / W, any[FIRST_AT_ALPHA] / W,
               first[FIRST_AT_ALPHA] / W, any[NONE] / W, bound);
        assert_true(any[SPENT] / W <= bound);
        /* the rule that can fail: alpha at every look is well above it */
        assert_true(any[NONE] >= any[SPENT]);
    }
    gsl_rng_free(rng);
}

/* One look at n = 10 of N = 30 judged at a(1/3) = 0.0226 instead of
 * alpha: what it costs. */
static void cost_of_one_early_look(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261206);
    const int W = workloads();
    const double look = rd_settle_look_level(alpha, 0, rd_settle_fraction(10, PLANNED));
    const double ones[MAX_K] = { 1, 1, 1, 1, 1 }, plus3[MAX_K] = { 1, 1.03, 1, 1, 1 };
    static double v[MAX_K][PLANNED];
    const size_t ks[] = { 2, 5 };
    for (size_t c = 0; c < 2; c++) {
        const size_t k = ks[c];
        double eq[2] = { 0 }, found[2] = { 0 };
        for (int w = 0; w < W; w++) {
            struct rd_verdict_row rows[MAX_K];
            draw(rng, k, 10, ones, v);
            eq[0] += judge(v, k, 10, alpha, rows).decision == RD_DECISION_EQUIVALENT;
            eq[1] += judge(v, k, 10, look, rows).decision == RD_DECISION_EQUIVALENT;
            draw(rng, k, 10, plus3, v);
            judge(v, k, 10, alpha, rows);
            found[0] += rows[1].verdict == RD_VERDICT_WORSE;
            judge(v, k, 10, look, rows);
            found[1] += rows[1].verdict == RD_VERDICT_WORSE;
        }
        printf("one look k=%zu n=10 of N=30 CV %g%% (%d workloads): A/A equivalent %.4f at "
               "alpha, %.4f at a(1/3) = %.4f; 3%% slower called worse %.4f at alpha, %.4f "
               "at a(1/3)\n",
               k, 100 * cv(), W, eq[0] / W, eq[1] / W, look, found[0] / W, found[1] / W);
        /* the same runs at a lower level: never more claims */
        assert_true(eq[1] <= eq[0] && found[1] <= found[0]);
        assert_true(found[1] > 0);
        assert_true(cv() > 0.05 || eq[1] > 0); /* at CV 20 % none is equivalent at n = 10 */
    }
    gsl_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(level_of_a_look),
        cmocka_unit_test(aa_over_five_looks),
        cmocka_unit_test(cost_of_one_early_look),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
