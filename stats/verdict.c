/*
 * verdict.c - verdicts against the best (see verdict.h for the method).
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

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

void rd_verdict_settings_init(struct rd_verdict_settings *s)
{
    s->alpha = 0.05;
    s->margin = 0.05;
    s->higher_is_better = false;
    s->power = 0.8;
}

/* The critical value of a family of k comparisons with the best at df
 * (a whole number): costs a root search over a numerical integral, so the
 * last few are kept per thread (an analysis asks for the same few again
 * and again: one per workload, and per df while estimating runs; an
 * adaptive suite one per config and round, df 4 to max - 1, which a
 * smaller cache evicted round-robin before reuse). */
enum { CRIT_CACHE = 256 };
static _Thread_local struct crit_entry {
    double alpha, k, df, crit;
} crit_cache[CRIT_CACHE];
static _Thread_local unsigned crit_next;

double rd_verdict_critical_value(double alpha, double k, double df)
{
    for (unsigned i = 0; i < CRIT_CACHE; i++) {
        const struct crit_entry *e = &crit_cache[i];
        if (e->k == k && e->df == df && e->alpha == alpha)
            return e->crit;
    }
    double c = rd_srange_quantile(1 - alpha, k, df) / M_SQRT2;
    crit_cache[crit_next++ % CRIT_CACHE] = (struct crit_entry){ alpha, k, df, c };
    return c;
}

static bool usable(const struct rd_verdict_sample *x)
{
    return x->eligible && x->n >= 2 && isfinite(x->mean) && isfinite(x->sd) && x->sd >= 0;
}

static bool better(double a, double b, bool higher)
{
    return higher ? a > b : a < b;
}

/* Welch degrees of freedom of a - b; NaN when both are constant. */
static double welch_df(const struct rd_verdict_sample *a, const struct rd_verdict_sample *b)
{
    double va = a->sd * a->sd / a->n, vb = b->sd * b->sd / b->n;
    double den = va * va / (a->n - 1) + vb * vb / (b->n - 1);
    return den > 0 ? (va + vb) * (va + vb) / den : NAN;
}

/* Fieller's interval for a / b at critical value c; false when it is
 * unbounded (b's mean is not clearly away from zero at that level). */
static bool fieller(const struct rd_verdict_sample *a, const struct rd_verdict_sample *b,
                    double c, double *lo, double *hi)
{
    double va = a->sd * a->sd / a->n, vb = b->sd * b->sd / b->n;
    double r = a->mean / b->mean;
    double g = c * c * vb / (b->mean * b->mean);
    if (!(g < 1))
        return false;
    double half = c / fabs(b->mean) * sqrt(va * (1 - g) + r * r * vb);
    *lo = (r - half) / (1 - g);
    *hi = (r + half) / (1 - g);
    return true;
}

/* Runs per config for the comparison of a with the best b to settle with
 * the given power, at the spread seen, if both had n runs. The critical
 * value depends on n through the degrees of freedom (about 2 (n - 1));
 * the first-order expansion of a t quantile in 1/df, c + (c^3 + c) /
 * (4 df), stands in for a root search per candidate n: this is an
 * estimate of a sample size, not a test. */
static long runs_to_settle(const struct rd_verdict_sample *a, const struct rd_verdict_sample *b,
                           double k, const struct rd_verdict_settings *s)
{
    double r = a->mean / b->mean;
    double spread = sqrt(a->sd * a->sd + r * r * b->sd * b->sd) / fabs(b->mean);
    double d = fabs(r - 1);
    double z = gsl_cdf_ugaussian_Pinv(s->power);
    double c_inf = rd_verdict_critical_value(s->alpha, k, INFINITY);
    double c = c_inf, n = INFINITY;
    for (int round = 0; round < 4; round++) {
        double to_differ = d > 0 ? pow((c + z) * spread / d, 2) : INFINITY;
        double to_match = d < s->margin ? pow((c + z) * spread / (s->margin - d), 2) : INFINITY;
        n = fmin(to_differ, to_match);
        if (!isfinite(n))
            return -1;
        if (n > 1e6)
            return 1000000;
        double df = 2 * (fmax(n, 2) - 1);
        c = c_inf + (c_inf * c_inf * c_inf + c_inf) / (4 * df);
    }
    long need = (long)ceil(n);
    long have = (long)fmax(a->n, b->n);
    return need > have ? need : have + 1;
}

static void clear_row(struct rd_verdict_row *row, enum rd_verdict v)
{
    *row = (struct rd_verdict_row){ .verdict = v, .ratio = NAN, .ratio_ci_low = NAN,
                                    .ratio_ci_high = NAN, .t = NAN };
}

static enum rd_verdict read_interval(double lo, double hi, double t, double crit,
                                     double margin)
{
    if (lo >= 1 - margin && hi <= 1 + margin)
        return RD_VERDICT_EQUIVALENT;
    return fabs(t) > crit ? RD_VERDICT_WORSE : RD_VERDICT_INCONCLUSIVE;
}

static rd_status decide(const struct rd_verdict_sample *x, size_t k,
                        const struct rd_verdict_settings *s, struct rd_verdict_row *rows,
                        struct rd_verdict_result *res)
{
    *res = (struct rd_verdict_result){ .decision = RD_DECISION_NO_DATA, .best = k,
                                       .df = NAN, .crit = NAN };
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

    /* One critical value for the family, at the smallest Welch df of its
     * comparisons, rounded down. */
    double df = INFINITY;
    for (size_t i = 0; i < k; i++) {
        if (i == res->best || !usable(&x[i]))
            continue;
        double d = welch_df(&x[i], b);
        if (!isnan(d))
            df = fmin(df, d);
    }
    if (isfinite(df)) {
        res->df = fmax(1, floor(df));
        res->crit = rd_verdict_critical_value(s->alpha, (double)res->family, res->df);
        if (isnan(res->crit)) {
            res->decision = RD_DECISION_NO_DATA;
            return RD_ERR_STATS;
        }
    }

    for (size_t i = 0; i < k; i++) {
        if (i == res->best || !usable(&x[i]))
            continue;
        struct rd_verdict_row *row = &rows[i];
        clear_row(row, RD_VERDICT_INCONCLUSIVE);
        /* A ratio says "how many times the best" only between positive
         * means; otherwise the comparison stays inconclusive. */
        if (!(x[i].mean > 0 && b->mean > 0)) {
            res->n_inconclusive++;
            row->runs_needed = -1;
            continue;
        }
        row->ratio = x[i].mean / b->mean;
        double se = sqrt(x[i].sd * x[i].sd / x[i].n + b->sd * b->sd / b->n);
        double diff = x[i].mean - b->mean;
        if (se == 0) {
            /* Both constant: the measured ratio is the ratio. */
            row->exact = true;
            row->t = diff == 0 ? 0 : copysign(INFINITY, diff);
            row->ratio_ci_low = row->ratio_ci_high = row->ratio;
            row->verdict = read_interval(row->ratio, row->ratio, row->t, 0, s->margin);
        } else {
            row->t = diff / se;
            if (!fieller(&x[i], b, res->crit, &row->ratio_ci_low, &row->ratio_ci_high))
                row->ratio_ci_low = row->ratio_ci_high = NAN;
            /* An unbounded interval is never inside the margin; the test
             * against 1 stands on its own (Fieller's set excludes 1 exactly
             * when |t| exceeds the critical value). */
            row->verdict = read_interval(row->ratio_ci_low, row->ratio_ci_high, row->t,
                                         res->crit, s->margin);
        }
        if (row->verdict == RD_VERDICT_EQUIVALENT)
            res->n_equivalent++;
        else if (row->verdict == RD_VERDICT_WORSE)
            res->n_worse++;
        else {
            res->n_inconclusive++;
            row->runs_needed = runs_to_settle(&x[i], b, (double)res->family, s);
        }
    }
    res->decision = res->n_inconclusive ? RD_DECISION_INCONCLUSIVE
                  : res->n_equivalent   ? RD_DECISION_EQUIVALENT
                                        : RD_DECISION_CLEAR;
    return RD_OK;
}

/*
 * Everything the verdicts read - ratios of means, t, Welch df, Fieller's
 * interval, runs to settle - is unchanged when every mean and sd is
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
        row->exact || isnan(row->t) || isnan(res->df))
        return NAN;
    return rd_srange_sf(M_SQRT2 * fabs(row->t), (double)res->family, res->df);
}
