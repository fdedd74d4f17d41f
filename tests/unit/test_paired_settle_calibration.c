// links: rd_stats
/*
 * The adaptive collection of a workload paired within rounds by
 * simulation (docs/methods.md §6b, "Paired workloads"): the race, the
 * precision rule and the final judgement on the within-round log ratios
 * (stats/settle.h: rd_settle_race and rd_settle_judge with the verdicts'
 * pairing, rd_settle_paired_spread and rd_settle_config_paired), as
 * collect/suiterun.c collects a workload whose blocks is "round".
 *
 * A suite: k configs collected in rounds (min 5, max 40 runs, target half
 * the 5 % margin, every config that still collects runs once a round);
 * round r multiplies every config's run by a shared lognormal offset of
 * sd 'block' (the host of that minute, 20 % here), each run by its own
 * lognormal noise of sd 'cv'. Checked, paired:
 *
 * - A/A for k = 2, 5 and 15 at CV 3 % and 20 %: the share of suites with
 *   any config worse (eliminated at a look or worse in the final
 *   verdicts) is at most alpha plus two Monte Carlo standard errors;
 * - a true best 2 % ahead of 4 others (k = 5, CV 3 %) eliminated or
 *   called worse in at most alpha of the suites;
 * - the study-like suite of k = 9 (three contenders within 1 %, six
 *   1.5-8x slower, CV 3 %) under the offsets: the paired collection
 *   takes at most a half of the runs the unpaired one (the same rules on
 *   each config's own spread) takes on the same draws, and settles at
 *   least as often.
 *
 * Small for make test (200 suites per A/A cell, 2 s); RD_PAIRED_SETTLE_SUITES=N
 * runs N per cell, and the unpaired rules beside the paired in the A/A
 * table, as bench/racing_calibration.sh does for the table in the docs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "moments.h"
#include "rounds.h"
#include "settle.h"
#include "verdict.h"

enum { MAX_K = 15, RUNS_MIN = 5, RUNS_MAX = 40 };

static int suites_env(int def)
{
    const char *e = getenv("RD_PAIRED_SETTLE_SUITES");
    int n = e ? atoi(e) : 0;
    return n >= 100 ? n : def;
}

/* One suite's draws and what has been collected of it: config i's runs
 * are rounds 0..n[i) (a config runs in every round until it stops). */
struct suite {
    size_t k;
    struct rd_round_value v[MAX_K][RUNS_MAX];
    size_t n[MAX_K];
};

static bool paired(const void *ctx, size_t a, size_t b, double *mean_log, double *sd_log,
                   double *n)
{
    const struct suite *s = ctx;
    rd_rounds_compare(s->v[a], s->n[a], s->v[b], s->n[b], mean_log, sd_log, n);
    return true;
}

struct cell {
    double worse;    /* share of suites with the watched config(s) worse */
    double best_out; /* share whose true best (config 0) went or was worse */
    double settled;  /* share decided clear or equivalent */
    double runs;     /* runs per suite, averaged */
};

/* A config's sample as the collector keeps it: running moments. */
static struct rd_verdict_sample sample_of(const struct rd_moments *m)
{
    return (struct rd_verdict_sample){ .n = m->n, .mean = m->mean, .sd = rd_moments_sd(m),
                                       .eligible = m->n >= 2, .log_sd = rd_moments_log_sd(m) };
}

/* Collects and judges 'suites' suites of k configs of means mu[i], paired
 * or not, racing. watch < 0: any config worse; else that config. */
static struct cell simulate(unsigned long seed, int suites, size_t k, const double *mu,
                            double cv, double block, int watch, bool pair)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    static struct suite s;
    const struct rd_settle_rule rule = { RUNS_MIN, RUNS_MAX, 0.025, 0.05 };
    struct rd_settle_rule fin = rule;
    fin.alpha = rd_settle_final_alpha(rule.alpha);
    const struct rd_verdict_pairing pg = { paired, &s };
    struct rd_verdict_settings vs;
    rd_verdict_settings_init(&vs);
    vs.pairing = pair ? &pg : NULL;
    size_t hits = 0, runs = 0, best_out = 0, settled = 0;
    for (int w = 0; w < suites; w++) {
        s.k = k;
        for (size_t j = 0; j < RUNS_MAX; j++) {
            double off = gsl_ran_gaussian(rng, block);
            for (size_t i = 0; i < k; i++)
                s.v[i][j] = (struct rd_round_value){
                    j, log(mu[i]) + off + gsl_ran_gaussian(rng, cv), (uint32_t)j };
        }
        enum rd_settle_state st[MAX_K];
        bool out[MAX_K] = { false }, in[MAX_K];
        struct rd_verdict_sample x[MAX_K];
        struct rd_moments m[MAX_K] = { { 0 } };
        for (size_t i = 0; i < k; i++) {
            st[i] = RD_SETTLE_OPEN;
            s.n[i] = 0;
        }
        bool done = false;
        for (long round = 1; !done; round++) {
            for (size_t i = 0; i < k; i++)
                if (rd_settle_collects(st[i], done))
                    rd_moments_add(&m[i], exp(s.v[i][s.n[i]++].log));
            for (size_t i = 0; i < k; i++)
                x[i] = sample_of(&m[i]);
            size_t ne;
            assert_int_equal(rd_settle_race(&rule, round, x, k, &vs, NULL, out, &ne), RD_OK);
            double most = 0;
            for (size_t i = 0; i < k; i++) {
                most = fmax(most, (double)s.n[i]);
                in[i] = !out[i];
            }
            struct rd_settle_rule look = fin;
            look.alpha = rd_settle_look_level(fin.alpha, 0, rd_settle_fraction(most, RUNS_MAX));
            /* as collect/suiterun.c's precision_states */
            for (size_t i = 0; i < k; i++) {
                double np;
                double spread = pair ? rd_settle_paired_spread(&pg, in, k, i, &np) : 0;
                st[i] = out[i] ? RD_SETTLE_ELIMINATED
                      : pair && isfinite(np)
                          ? rd_settle_config_paired(&look, (long)s.n[i], x[i].n, spread, np, k)
                          : rd_settle_config(&look, (long)s.n[i], x[i].n, x[i].mean, x[i].sd, k);
            }
            done = rd_settle_done(st, k);
        }
        double most = 0;
        for (size_t i = 0; i < k; i++) {
            runs += s.n[i];
            most = fmax(most, (double)s.n[i]);
        }
        vs.alpha = rd_settle_look_level(rule.alpha, 0, rd_settle_fraction(most, RUNS_MAX));
        struct rd_verdict_row rows[MAX_K];
        struct rd_verdict_result res;
        assert_int_equal(rd_settle_judge(x, k, &vs, out, rows, &res), RD_OK);
        vs.alpha = 0.05;
        bool worse = false;
        for (size_t i = 0; i < k; i++)
            worse |= (watch < 0 || (size_t)watch == i) &&
                     (rows[i].verdict == RD_VERDICT_WORSE || out[i]);
        hits += worse;
        best_out += out[0] || rows[0].verdict == RD_VERDICT_WORSE;
        settled += res.decision == RD_DECISION_CLEAR || res.decision == RD_DECISION_EQUIVALENT;
    }
    gsl_rng_free(rng);
    double ns = suites;
    return (struct cell){ hits / ns, best_out / ns, settled / ns, (double)runs / ns };
}

static const size_t ks[] = { 2, 5, 15 };
static const double cvs[] = { 0.03, 0.20 };
static const double BLOCK = 0.20;

static void paired_racing_a_a_stays_within_alpha(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261204);
    const int suites = suites_env(200);
    const double alpha = 0.05, bound = alpha + 2 * sqrt(alpha * (1 - alpha) / suites);
    double mu[MAX_K];
    for (size_t i = 0; i < MAX_K; i++)
        mu[i] = 100;
    double worst = 0;
    printf("| data | k | CV | round offsets | worse, paired | runs per config, paired |"
           " runs per config, unpaired |\n");
    for (size_t a = 0; a < 3; a++)
        for (size_t c = 0; c < 2; c++) {
            unsigned long seed = gsl_rng_get(rng);
            struct cell p = simulate(seed, suites, ks[a], mu, cvs[c], BLOCK, -1, true);
            /* the unpaired rules on the same draws, for the table only: the
             * studentized range at each look's level is most of the cost */
            struct cell u = { .runs = NAN };
            if (getenv("RD_PAIRED_SETTLE_SUITES"))
                u = simulate(seed, suites, ks[a], mu, cvs[c], BLOCK, -1, false);
            printf("| A/A | %zu | %.0f %% | %.0f %% | %.4f | %.1f | %.1f |\n", ks[a],
                   100 * cvs[c], 100 * BLOCK, p.worse, p.runs / (double)ks[a],
                   u.runs / (double)ks[a]);
            worst = fmax(worst, p.worse);
        }
    printf("paired A/A bound (alpha + 2 MC se, %d suites per cell): %.4f\n", suites, bound);
    assert_true(worst <= bound);
    gsl_rng_free(rng);
}

static void paired_racing_keeps_the_best(void **state)
{
    (void)state;
    const int suites = suites_env(200);
    const double mu[] = { 100, 102, 102, 102, 102 };
    struct cell p = simulate(20261205, suites, 5, mu, 0.03, BLOCK, 0, true);
    printf("| best 2 %% ahead | 5 | 3 %% | %.0f %% | true best out %.4f | %.1f runs per config "
           "| settled %.4f |\n", 100 * BLOCK, p.best_out, p.runs / 5, p.settled);
    assert_true(p.best_out <= 0.05);
}

static void paired_racing_spends_less_on_study_like_suites(void **state)
{
    (void)state;
    const int suites = suites_env(100);
    double mu[9];
    for (size_t i = 0; i < 9; i++)
        mu[i] = i < 3 ? 100 * (1 + 0.005 * (double)i) : 100 * (1.5 + 6.5 * (double)(i - 3) / 5);
    struct cell p = simulate(20261206, suites, 9, mu, 0.03, BLOCK, 0, true);
    struct cell u = simulate(20261206, suites, 9, mu, 0.03, BLOCK, 0, false);
    printf("| suite | rule | runs per suite | true best out | settled |\n");
    printf("| 3 contenders within 1 %%, 6 slower, offsets %.0f %% | paired | %.1f | %.4f | %.4f |\n",
           100 * BLOCK, p.runs, p.best_out, p.settled);
    printf("| 3 contenders within 1 %%, 6 slower, offsets %.0f %% | unpaired | %.1f | %.4f | %.4f |\n",
           100 * BLOCK, u.runs, u.best_out, u.settled);
    /* The unpaired rules eliminate the slower six as well (8x stands out
     * of the offsets), but the three contenders' own spreads hold the
     * offsets: none settles and all three run to the cap of 40 */
    assert_true(p.runs <= u.runs * 0.75);
    assert_true(p.settled >= 0.95 && u.settled <= 0.05);
    assert_true(p.best_out <= 0.05);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paired_racing_a_a_stays_within_alpha),
        cmocka_unit_test(paired_racing_keeps_the_best),
        cmocka_unit_test(paired_racing_spends_less_on_study_like_suites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
