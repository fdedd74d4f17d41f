/*
 * verdict.c - verdicts against the best (see verdict.h for the method).
 */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "logratio.h"
#include "mcb.h"
#include "moments.h"
#include "scale.h"
#include "srange.h"
#include "verdict.h"

#include "rundown/verdict_words.h"

const char *rd_verdict_name(enum rd_verdict v)
{
    return (unsigned)v < RD_NVERDICT_WORDS ? rd_verdict_words[v]
                                           : rd_verdict_words[RD_VERDICT_INCONCLUSIVE];
}

const char *rd_decision_name(enum rd_decision d)
{
    return (unsigned)d < RD_NDECISION_WORDS ? rd_decision_words[d]
                                            : rd_decision_words[RD_DECISION_NO_DATA];
}

struct rd_verdict_sample rd_verdict_sample_of(const double *v, size_t n, bool eligible)
{
    struct rd_moments m = {0};
    for (size_t i = 0; i < n; i++)
        rd_moments_add(&m, v[i]);
    return (struct rd_verdict_sample){ .n = m.n, .mean = m.mean, .sd = rd_moments_sd(&m),
                                       .eligible = eligible, .log_sd = rd_moments_log_sd(&m) };
}

void rd_verdict_settings_init(struct rd_verdict_settings *s)
{
    s->alpha = 0.05;
    s->margin = 0.05;
    s->higher_is_better = false;
    s->power = 0.8;
    s->skip_equivalence = false;
    s->pairing = NULL;
}

/* The critical values of a family of k comparisons with the best at df
 * (a whole number): each costs a root search over a numerical integral,
 * so the last few are kept (an analysis asks for the same few again and
 * again: one per workload, and per df while estimating runs; an adaptive
 * suite one per config and round, df 4 to max - 1, which a smaller cache
 * evicted round-robin before reuse). One cache for every thread: the
 * workloads of a store on two threads ask for the same dfs, and a cache
 * per thread worked each out twice (a tenth of analyze's CPU on a
 * million runs). A value being worked out is marked pending, and a
 * thread that asks for it meanwhile waits for it. */
enum { CRIT_CACHE = 256 };
enum crit_kind { CRIT_RANGE, CRIT_MCB };
static struct crit_entry {
    double alpha, k, df, crit;
    enum crit_kind kind;
    bool pending;
} crit_cache[CRIT_CACHE];
static unsigned crit_next;
static pthread_mutex_t crit_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t crit_done = PTHREAD_COND_INITIALIZER;

static struct crit_entry *crit_find(enum crit_kind kind, double alpha, double k, double df)
{
    for (unsigned i = 0; i < CRIT_CACHE; i++) {
        struct crit_entry *e = &crit_cache[i];
        if (e->k == k && e->df == df && e->alpha == alpha && e->kind == kind)
            return e;
    }
    return NULL;
}

static double cached_crit(enum crit_kind kind, double alpha, double k, double df)
{
    pthread_mutex_lock(&crit_lock);
    struct crit_entry *e;
    while ((e = crit_find(kind, alpha, k, df)) && e->pending)
        pthread_cond_wait(&crit_done, &crit_lock);
    if (e) {
        double c = e->crit;
        pthread_mutex_unlock(&crit_lock);
        return c;
    }
    /* Taken for this value until it is known: entries are only reused
     * round-robin, 256 values later. */
    unsigned slot = crit_next++ % CRIT_CACHE;
    crit_cache[slot] = (struct crit_entry){ alpha, k, df, NAN, kind, true };
    pthread_mutex_unlock(&crit_lock);
    double c = kind == CRIT_RANGE ? rd_srange_quantile(1 - alpha, k, df) / M_SQRT2
                                  : rd_mcb_quantile(1 - alpha, k, df);
    pthread_mutex_lock(&crit_lock);
    e = &crit_cache[slot];
    if (e->pending && e->k == k && e->df == df && e->alpha == alpha && e->kind == kind) {
        e->crit = c;
        e->pending = false;
    }
    pthread_cond_broadcast(&crit_done);
    pthread_mutex_unlock(&crit_lock);
    return c;
}

double rd_verdict_critical_value(double alpha, double k, double df)
{
    return cached_crit(CRIT_RANGE, alpha, k, df);
}

double rd_verdict_equivalence_critical_value(double alpha, double k, double df)
{
    return cached_crit(CRIT_MCB, alpha, k, df);
}

/* Paired comparisons each read their own variance of the within-round
 * log ratios, on n - 1 df; the studentized range and Hsu's constant
 * assume one variance for the family, and read at the pairs' n - 1 they
 * let A/A families of 15 configs at n = 5 call one worse in 11-14 % of
 * workloads (tests/unit/test_paired_calibration.c). Bonferroni's bounds
 * hold whatever the pairs' variances and correlations: "worse" two-sided
 * over the k (k - 1) / 2 pairs the best may be drawn from (the range's
 * family), "equivalent" one-sided over the k - 1 comparisons with the
 * best (Hsu's constant is Dunnett's one-sided one, which Bonferroni's
 * bounds from above). */
static double t_quantile(double p, double df)
{
    /* GSL's t quantile has no infinite df; runs_for asks for the limit */
    return isfinite(df) ? gsl_cdf_tdist_Pinv(p, df) : gsl_cdf_ugaussian_Pinv(p);
}

double rd_verdict_paired_critical_value(double alpha, double k, double df)
{
    return t_quantile(1 - alpha / (k * (k - 1)), df);
}

static double paired_equivalence_critical_value(double alpha, double k, double df)
{
    return t_quantile(1 - alpha / (k - 1), df);
}

static bool usable(const struct rd_verdict_sample *x)
{
    return x->eligible && x->n >= 2 && isfinite(x->mean) && isfinite(x->sd) && x->sd >= 0;
}

static bool better(double a, double b, bool higher)
{
    return higher ? a > b : a < b;
}

/* A run's relative variance (CV^2) as every interval below reads it:
 * the larger of the linear and the log-scale estimate (logratio.h). */
static double run_rel_var(const struct rd_verdict_sample *a)
{
    return rd_rel_var(a->mean, a->sd, a->log_sd);
}

/* The squared relative standard error of a mean, the delta method's part
 * of var(log mean) (as rd_log_ratio_se takes it). */
static double rel_var(const struct rd_verdict_sample *a)
{
    return run_rel_var(a) / a->n;
}

/* The degrees of freedom of a sample's variance of the mean: n - 1, or
 * the two-level (sessions) Satterthwaite df when the sample carries one. */
static double own_df(const struct rd_verdict_sample *a)
{
    return a->df > 0 ? a->df : a->n - 1;
}

/* Welch-Satterthwaite degrees of freedom of log a - log b at each
 * sample's own df; NaN when both are constant or a mean is zero. */
static double welch_df(const struct rd_verdict_sample *a, const struct rd_verdict_sample *b)
{
    double va = rel_var(a), vb = rel_var(b);
    double den = va * va / own_df(a) + vb * vb / own_df(b);
    return den > 0 && isfinite(den) ? (va + vb) * (va + vb) / den : NAN;
}

/* log a - log b's standard error (logratio.h); *df its Welch df, NaN
 * when both are constant or a mean is zero. */
static double lr_se(const struct rd_verdict_sample *a, const struct rd_verdict_sample *b,
                    double *df)
{
    double se = sqrt(rel_var(a) + rel_var(b));
    if (df)
        *df = welch_df(a, b);
    return se;
}

/* Is the mean clearly positive at critical value c? */
static bool clearly_positive(const struct rd_verdict_sample *a, double c)
{
    return a->mean > 0 && a->mean - c * a->sd / sqrt(a->n) > 0;
}

/* The first-order expansion of a t-like quantile in 1/df, c + (c^3 + c) /
 * (4 df), from its value at a known sd: stands in for a root search per
 * candidate n in runs_for, an estimate of a sample size, not a test. */
static double at_df(double c_inf, double df)
{
    return c_inf + (c_inf * c_inf * c_inf + c_inf) / (4 * df);
}

/*
 * Runs per config for a comparison of relative spread 'spread' (the sd of
 * log a - log b for one run of each, sqrt(cv_a^2 + cv_b^2)) to settle with
 * power 'power' whatever the true ratio. For a true log ratio delta >= 0
 * (on the worse side), it settles as worse once (c + z) spread / sqrt n <=
 * delta and as equivalent once (d + z) spread / sqrt n <= D - delta, D the
 * margin on the log scale; the worst delta is where both need the same n,
 * which is n = ((c + d + 2 z) spread / D)^2. No observed difference is
 * plugged in: the figure holds for a ratio at 1, at the margin and
 * between. c and d depend on n through the df, about 2 (n - 1).
 */
static double runs_for(double spread, double k, double margin_log, double power,
                       const struct rd_verdict_settings *s)
{
    double z = gsl_cdf_ugaussian_Pinv(power);
    bool pair = s->pairing != NULL;
    double c_inf = pair ? rd_verdict_paired_critical_value(s->alpha, k, INFINITY)
                        : rd_verdict_critical_value(s->alpha, k, INFINITY);
    double d_inf = pair ? paired_equivalence_critical_value(s->alpha, k, INFINITY)
                        : rd_verdict_equivalence_critical_value(s->alpha, k, INFINITY);
    double c = c_inf, d = d_inf, n = INFINITY;
    for (int round = 0; round < 4; round++) {
        n = pow((c + d + 2 * z) * spread / margin_log, 2);
        if (!isfinite(n))
            return INFINITY;
        if (n > 1e6)
            return 1e6;
        /* two samples' n - 1 each; a paired comparison's n - 1 */
        double df = (pair ? 1 : 2) * (fmax(n, 2) - 1);
        c = at_df(c_inf, df);
        d = at_df(d_inf, df);
    }
    return n;
}

/* A comparison with the best read off the within-round log ratios (the
 * settings' pairing, verdict.h): have is false when there is none. */
struct paired_est {
    bool have;
    double lr, se, df, spread;
};

/* The paired estimates of every usable config but the best into p[0..k). */
static rd_status paired_estimates(const struct rd_verdict_sample *x, size_t k, size_t best,
                                  const struct rd_verdict_pairing *pg, struct paired_est *p)
{
    for (size_t i = 0; i < k; i++) {
        p[i] = (struct paired_est){ false, NAN, NAN, NAN, NAN };
        if (i == best || !x[i].eligible)
            continue;
        double m, sd, n;
        if (!pg->paired(pg->ctx, i, best, &m, &sd, &n))
            return RD_ERR_NOMEM;
        if (n >= 2 && isfinite(m) && sd >= 0 && isfinite(sd))
            p[i] = (struct paired_est){ true, m, sd / sqrt(n), n - 1, sd };
    }
    return RD_OK;
}

static void clear_row(struct rd_verdict_row *row, enum rd_verdict v)
{
    *row = (struct rd_verdict_row){ .verdict = v, .ratio = NAN, .ratio_ci_low = NAN,
                                    .ratio_ci_high = NAN, .eq_ci_low = NAN, .eq_ci_high = NAN,
                                    .t = NAN, .df = NAN, .beyond_margin = -1,
                                    .elim_ci_low = NAN, .elim_ci_high = NAN };
}

static bool inside(double lo, double hi, double margin)
{
    return lo >= 1 - margin && hi <= 1 + margin;
}

/* Reads the verdict off the two intervals (see verdict.h). */
static void read_intervals(struct rd_verdict_row *row, double crit, double margin,
                           bool higher)
{
    bool worse_side_out = higher ? row->ratio_ci_high < 1 - margin
                                 : row->ratio_ci_low > 1 + margin;
    row->beyond_margin = worse_side_out;
    /* Against the best mean a config can only come out worse or level;
     * a paired estimate can come out better, which is no "worse". */
    bool worse_sign = higher ? row->ratio < 1 : row->ratio > 1;
    if (inside(row->eq_ci_low, row->eq_ci_high, margin))
        row->verdict = RD_VERDICT_EQUIVALENT;
    else if (worse_sign && (row->exact ? row->ratio != 1 : fabs(row->t) > crit))
        row->verdict = RD_VERDICT_WORSE;
    else
        row->verdict = RD_VERDICT_INCONCLUSIVE;
}

/* A row whose ratio is exact (no spread in what it is read from): the
 * ratio is its own interval, and t is 0 or infinite. */
static void exact_row(struct rd_verdict_row *row, double lr, const struct rd_verdict_settings *s)
{
    row->exact = row->estimable = true;
    row->t = lr == 0 ? 0 : copysign(INFINITY, lr);
    row->ratio_ci_low = row->ratio_ci_high = row->ratio;
    row->eq_ci_low = row->eq_ci_high = row->ratio;
    read_intervals(row, 0, s->margin, s->higher_is_better);
}

/* An estimable row's two intervals exp(lr +- c se), exp(lr +- d se) at the
 * family's constants, and its verdict. */
static void interval_row(struct rd_verdict_row *row, double lr, double se,
                         const struct rd_verdict_result *res, const struct rd_verdict_settings *s)
{
    double c = res->crit, d = res->crit_eq;
    row->estimable = true;
    row->ratio_ci_low = exp(lr - c * se);
    row->ratio_ci_high = exp(lr + c * se);
    row->eq_ci_low = exp(lr - d * se);
    row->eq_ci_high = exp(lr + d * se);
    read_intervals(row, c, s->margin, s->higher_is_better);
}

/* One config against the best b: ratio, intervals, t, verdict. */
static void compare_with_best(const struct rd_verdict_sample *a,
                              const struct rd_verdict_sample *b,
                              const struct rd_verdict_result *res,
                              const struct rd_verdict_settings *s, struct rd_verdict_row *row)
{
    clear_row(row, RD_VERDICT_INCONCLUSIVE);
    /* A ratio says "how many times the best" only between positive means. */
    if (!(a->mean > 0 && b->mean > 0))
        return;
    row->ratio = a->mean / b->mean;
    double lr = log(a->mean) - log(b->mean), df;
    double se = lr_se(a, b, &df);
    if (se == 0) {
        exact_row(row, lr, s); /* both constant: the measured ratio is the ratio */
        return;
    }
    row->t = lr / se;
    /* The family's constants at its smallest df (safe for small samples:
     * each comparison's own df, as Games and Howell take it, let 8.5 % of
     * A/A families of 15 configs at CV 20 % call one worse); the
     * comparison's own df for its joint equivalence test alone. */
    row->df = isnan(df) ? res->df : fmax(1, floor(df));
    if (!(clearly_positive(a, res->crit) && clearly_positive(b, res->crit)))
        return; /* not estimable: the log of a mean that may be 0 */
    interval_row(row, lr, se, res, s);
}

/* compare_with_best on a paired estimate: the same intervals and
 * verdict, from the within-round log ratios of a against the best b. */
static void compare_paired(const struct paired_est *e, const struct rd_verdict_sample *a,
                           const struct rd_verdict_sample *b,
                           const struct rd_verdict_result *res,
                           const struct rd_verdict_settings *s, struct rd_verdict_row *row)
{
    clear_row(row, RD_VERDICT_INCONCLUSIVE);
    if (!e->have)
        return;
    row->ratio = exp(e->lr);
    row->df = fmax(1, floor(e->df));
    /* Not estimable by the unpaired rule, so that the two read alike: a
     * config whose own mean is not clearly positive at the family's
     * critical value has too few runs for any ratio (at k = 15 and 3
     * rounds the paired interval ran "-99 % to +8,948 %"). */
    if (!(clearly_positive(a, res->crit) && clearly_positive(b, res->crit)))
        return;
    if (e->se == 0) {
        exact_row(row, e->lr, s); /* every round's ratio the same: that is the ratio */
        return;
    }
    row->t = e->lr / e->se;
    interval_row(row, e->lr, e->se, res, s);
}

/* Student's one-sided 1 - alpha quantile at the Welch df of a against b
 * (fallback: df, when that is not defined). */
static double one_sided_t(double alpha, const struct rd_verdict_sample *a,
                          const struct rd_verdict_sample *b, double df)
{
    double w = welch_df(a, b);
    return gsl_cdf_tdist_Pinv(1 - alpha, isnan(w) ? df : w);
}

/* One comparison's log ratio, standard error and one-sided quantile for
 * the joint claim: Welch's on the samples, or the paired estimate's
 * Student quantile at n - 1 df (pe NULL: unpaired). */
static void joint_terms(const struct rd_verdict_sample *x, size_t i,
                        const struct rd_verdict_sample *b, const struct rd_verdict_settings *s,
                        const struct rd_verdict_row *row, const struct paired_est *pe,
                        double *lr, double *se, double *t1)
{
    if (pe) {
        *lr = pe[i].lr;
        *se = pe[i].se;
        *t1 = gsl_cdf_tdist_Pinv(1 - s->alpha, pe[i].df);
        return;
    }
    *lr = log(row->ratio);
    *se = lr_se(&x[i], b, NULL);
    *t1 = one_sided_t(s->alpha, &x[i], b, row->df);
}

/*
 * The workload's equivalence as one claim: every config not shown worse
 * is within the margin of the best. By the intersection-union principle
 * (Berger 1982) that claim is tested at level alpha when each of its
 * comparisons passes two one-sided tests at level alpha on its own, with
 * Student's one-sided quantile at the comparison's own Welch df, not
 * rounded (Welch's test as R's t.test takes it; rounded down, TOST at
 * k = 2, n = 5, CV 3 % decided 48 % of A/A pairs equivalent against 50 %,
 * where pooled TOST at 2 (n - 1) df, the reference, has 52 %): if a config outside the margin is among them, its own test
 * passes with probability at most alpha, and all of them pass less often.
 * Comparing with the observed best is on the safe side, the true best's
 * mean being no lower. When the claim holds, those rows are equivalent,
 * with that 1 - 2 alpha interval; otherwise each stands on the family's
 * simultaneous MCB interval alone.
 */
static void joint_equivalence(const struct rd_verdict_sample *x, size_t k,
                              const struct rd_verdict_settings *s, struct rd_verdict_row *rows,
                              const struct rd_verdict_result *res, const struct paired_est *pe)
{
    if (s->skip_equivalence)
        return;
    const struct rd_verdict_sample *b = &x[res->best];
    bool all = true, any = false;
    for (size_t i = 0; i < k && all; i++) {
        const struct rd_verdict_row *row = &rows[i];
        if (i == res->best || row->verdict == RD_VERDICT_DISQUALIFIED ||
            row->verdict == RD_VERDICT_WORSE || row->verdict == RD_VERDICT_EQUIVALENT)
            continue;
        any = true;
        if (!row->estimable) {
            all = false;
            continue;
        }
        double lr, se, t1;
        joint_terms(x, i, b, s, row, pe, &lr, &se, &t1);
        all = inside(exp(lr - t1 * se), exp(lr + t1 * se), s->margin);
    }
    if (!all || !any)
        return;
    for (size_t i = 0; i < k; i++) {
        struct rd_verdict_row *row = &rows[i];
        if (i == res->best || row->verdict != RD_VERDICT_INCONCLUSIVE)
            continue;
        double lr, se, t1;
        joint_terms(x, i, b, s, row, pe, &lr, &se, &t1);
        row->eq_ci_low = exp(lr - t1 * se);
        row->eq_ci_high = exp(lr + t1 * se);
        row->verdict = RD_VERDICT_EQUIVALENT;
        row->joint = true;
    }
}

/* The margin on the log scale, on the worse side of 1. */
static double margin_log_of(const struct rd_verdict_settings *s)
{
    return s->higher_is_better ? -log1p(-fmin(s->margin, 0.999999)) : log1p(s->margin);
}

double rd_verdict_runs_for(double spread, size_t k, size_t open,
                           const struct rd_verdict_settings *s)
{
    double margin_log = margin_log_of(s);
    if (!(spread >= 0) || !isfinite(spread) || k < 2 || !(margin_log > 0))
        return INFINITY;
    double power = pow(s->power, 1.0 / (double)(open ? open : 1));
    return runs_for(spread, (double)k, margin_log, power, s);
}

/* runs_needed of every open row: the n at which all of them settle with
 * the settings' power, each given power^(1 / open) (the rows share the
 * best, so they are not independent; the product bound is the safe side). */
static void fill_runs_needed(const struct rd_verdict_sample *x, size_t k,
                             const struct rd_verdict_settings *s, struct rd_verdict_row *rows,
                             const struct rd_verdict_result *res, const struct paired_est *pe)
{
    if (!res->n_inconclusive)
        return;
    const struct rd_verdict_sample *b = &x[res->best];
    for (size_t i = 0; i < k; i++) {
        struct rd_verdict_row *row = &rows[i];
        if (row->verdict != RD_VERDICT_INCONCLUSIVE || i == res->best)
            continue;
        double spread = pe ? pe[i].spread : sqrt(run_rel_var(&x[i]) + run_rel_var(b));
        double n = isnan(row->ratio) ? INFINITY
                 : rd_verdict_runs_for(spread, res->family, res->n_inconclusive, s);
        if (!isfinite(n)) {
            row->runs_needed = -1;
            continue;
        }
        long need = (long)ceil(n);
        long have = (long)fmax(x[i].n, b->n);
        row->runs_needed = need > have ? need : have + 1;
    }
}

static rd_status decide(const struct rd_verdict_sample *x, size_t k,
                        const struct rd_verdict_settings *s, struct rd_verdict_row *rows,
                        struct rd_verdict_result *res)
{
    *res = (struct rd_verdict_result){ .decision = RD_DECISION_NO_DATA, .best = k,
                                       .df = NAN, .crit = NAN, .crit_eq = NAN };
    for (size_t i = 0; i < k; i++) {
        clear_row(&rows[i], RD_VERDICT_DISQUALIFIED);
        if (!usable(&x[i])) {
            res->n_disqualified++;
            continue;
        }
        res->family++;
        if (res->best == k || better(x[i].mean, x[res->best].mean, s->higher_is_better))
            res->best = i;
    }
    if (res->best == k)
        return RD_OK;
    const struct rd_verdict_sample *b = &x[res->best];
    clear_row(&rows[res->best], RD_VERDICT_BEST);
    rows[res->best].ratio = 1;
    res->decision = RD_DECISION_CLEAR;
    if (res->family == 1)
        return RD_OK;

    struct paired_est *pe = NULL;
    if (s->pairing) {
        pe = malloc(k * sizeof *pe);
        rd_status st = pe ? paired_estimates(x, k, res->best, s->pairing, pe) : RD_ERR_NOMEM;
        if (st) {
            free(pe);
            res->decision = RD_DECISION_NO_DATA;
            return st;
        }
    }
    res->paired = pe != NULL;
    /* One pair of critical values for the family, at the smallest Welch
     * (or paired: n - 1) df of its comparisons, rounded down. */
    double df = INFINITY;
    for (size_t i = 0; i < k; i++) {
        if (i == res->best || !usable(&x[i]))
            continue;
        double d;
        if (pe)
            d = pe[i].have ? pe[i].df : NAN;
        else
            lr_se(&x[i], b, &d);
        if (!isnan(d))
            df = fmin(df, d);
    }
    if (isfinite(df)) {
        res->df = fmax(1, floor(df));
        double kf = (double)res->family;
        res->crit = pe ? rd_verdict_paired_critical_value(s->alpha, kf, res->df)
                       : rd_verdict_critical_value(s->alpha, kf, res->df);
        if (!s->skip_equivalence)
            res->crit_eq = pe ? paired_equivalence_critical_value(s->alpha, kf, res->df)
                              : rd_verdict_equivalence_critical_value(s->alpha, kf, res->df);
        if (isnan(res->crit) || (isnan(res->crit_eq) && !s->skip_equivalence)) {
            free(pe);
            res->decision = RD_DECISION_NO_DATA;
            return RD_ERR_STATS;
        }
    }

    for (size_t i = 0; i < k; i++)
        if (i != res->best && usable(&x[i])) {
            if (pe)
                compare_paired(&pe[i], &x[i], b, res, s, &rows[i]);
            else
                compare_with_best(&x[i], b, res, s, &rows[i]);
        }
    joint_equivalence(x, k, s, rows, res, pe);
    for (size_t i = 0; i < k; i++) {
        if (i == res->best || !usable(&x[i]))
            continue;
        const struct rd_verdict_row *row = &rows[i];
        if (row->verdict == RD_VERDICT_EQUIVALENT)
            res->n_equivalent++;
        else if (row->verdict == RD_VERDICT_WORSE)
            res->n_worse++;
        else
            res->n_inconclusive++;
    }
    fill_runs_needed(x, k, s, rows, res, pe);
    free(pe);
    res->decision = res->n_inconclusive ? RD_DECISION_INCONCLUSIVE
                  : res->n_equivalent   ? RD_DECISION_EQUIVALENT
                                        : RD_DECISION_CLEAR;
    return RD_OK;
}

/*
 * Everything the verdicts read - ratios of means, relative spreads, t,
 * Welch df, the intervals, runs to settle - is unchanged when every mean and sd is
 * multiplied by one number, while sd^2 and mean^2 leave the double range
 * for means beyond about 1e154. So when the largest mean or sd is outside
 * the safe range of scale.h, the samples are decided as m 2^-e, s 2^-e:
 * exact, and the same bits as unscaled whenever those stay in range.
 */
rd_status rd_verdict_decide(const struct rd_verdict_sample *x, size_t k,
                            const struct rd_verdict_settings *s,
                            struct rd_verdict_row *rows, struct rd_verdict_result *res)
{
    double top = 0;
    for (size_t i = 0; i < k; i++)
        if (usable(&x[i]))
            top = fmax(top, fmax(fabs(x[i].mean), x[i].sd));
    int e = rd_scale_exp(top);
    if (e == 0)
        return decide(x, k, s, rows, res);
    struct rd_verdict_sample *scaled = malloc((k ? k : 1) * sizeof *scaled);
    if (!scaled)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < k; i++) {
        scaled[i] = x[i];
        scaled[i].mean = ldexp(x[i].mean, -e);
        scaled[i].sd = ldexp(x[i].sd, -e);
    }
    rd_status st = decide(scaled, k, s, rows, res);
    free(scaled);
    return st;
}

double rd_verdict_p_adjusted(const struct rd_verdict_row *row,
                             const struct rd_verdict_result *res)
{
    if (row->verdict == RD_VERDICT_BEST || row->verdict == RD_VERDICT_DISQUALIFIED ||
        row->exact || !row->estimable || isnan(row->t) || isnan(res->df))
        return NAN;
    double k = (double)res->family;
    if (res->paired) /* Bonferroni's, as the paired critical value */
        return fmin(1, k * (k - 1) * gsl_cdf_tdist_Q(fabs(row->t), res->df));
    return rd_srange_sf(M_SQRT2 * fabs(row->t), k, res->df);
}
