/*
 * stats.c - the statistical routines behind rundown-analyze.
 *
 * Distribution functions, sorting and random numbers come from GSL, never
 * from hand-typed tables. GSL's error handler is switched off
 * (rd_stats_init) and every call is guarded so GSL never sees an argument
 * outside its domain: undefined results are NaN, which the writer turns
 * into JSON null. Formulas, with references, are in docs/methods.md; the
 * tests in tests/unit/test_stats.c compare against SciPy. The rank-based
 * tests (Mann-Whitney, Kruskal-Wallis, Mann-Kendall) are in ranktests.c.
 */
#include "stats.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "scale.h"

/* 1 / Phi^-1(3/4): makes the MAD estimate the sd of normal data. */
#define MAD_SCALE 1.482602218505602

void rd_stats_init(void)
{
    gsl_set_error_handler_off();
}

double rd_stats_mean(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    return gsl_stats_mean(x, 1, n);
}

/* Scaling by powers of two (stats/scale.h): each routine below scales only
 * when a value is outside the safe range, so ordinary data give the same
 * bits as the formulas written plainly. */

/* The sample variance of x[0..n-1] about its mean (given), n >= 2, as
 * v 4^e: GSL's two-pass algorithm on the values as they are when the
 * variance is in range, else the same on the deviations from the mean
 * scaled by 2^-e. Deviations that overflow themselves (values near the
 * double limit of both signs) are taken on the halved values. */
static double var_scaled_m(const double *x, size_t n, double mean, int *e)
{
    double dmax = 0;
    *e = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(x[i] - mean);
        if (d > dmax)
            dmax = d;
    }
    int half = 0;
    if (!isfinite(dmax)) {
        half = 1;
        dmax = 0;
        for (size_t i = 0; i < n; i++) {
            double d = fabs(x[i] / 2 - mean / 2);
            if (d > dmax)
                dmax = d;
        }
    }
    *e = rd_scale_exp(dmax) + half;
    if (*e == 0)
        return gsl_stats_variance_m(x, 1, n, mean);
    long double v = 0;
    for (size_t i = 0; i < n; i++) {
        long double d = half ? ldexp(x[i] / 2 - mean / 2, 1 - *e) : ldexp(x[i] - mean, -*e);
        v += (d * d - v) / (long double)(i + 1);
    }
    return (double)v * ((double)n / (double)(n - 1));
}

/* var_scaled_m about x's mean (rd_stats_mean), for callers that do not
 * have it already. */
static double var_scaled(const double *x, size_t n, int *e)
{
    return var_scaled_m(x, n, gsl_stats_mean(x, 1, n), e);
}

double rd_stats_var(const double *x, size_t n)
{
    if (n < 2)
        return NAN;
    int e;
    double v = var_scaled(x, n, &e);
    return ldexp(v, 2 * e);
}

double rd_stats_sd(const double *x, size_t n)
{
    if (n < 2)
        return NAN;
    int e;
    double v = var_scaled(x, n, &e);
    return ldexp(sqrt(v), e);
}

static void insertion_sort(double *x, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double v = x[i];
        size_t j = i;
        for (; j > 0 && x[j - 1] > v; j--)
            x[j] = x[j - 1];
        x[j] = v;
    }
}

/* Quicksort (median-of-three pivot, insertion sort for short runs), with
 * GSL's heapsort once the recursion gets deeper than 2 log2 n, so the worst
 * case stays O(n log n). Sorting is most of the per-series cost, and GSL's
 * heapsort alone is about three times slower on store-sized series. The
 * result is the same: ascending order of values without NaN is unique up
 * to the order of -0 and 0, which print alike. */
static void intro_sort(double *x, size_t n, unsigned depth)
{
    while (n > 16) {
        if (depth-- == 0) {
            gsl_sort(x, 1, n);
            return;
        }
        double a = x[0], b = x[n / 2], c = x[n - 1];
        double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = 0, j = n - 1;
        for (;;) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i >= j)
                break;
            double t = x[i];
            x[i] = x[j];
            x[j] = t;
            i++;
            j--;
        }
        /* x[0..j] <= pivot <= x[j+1..n): recurse into the smaller side. */
        size_t left = j + 1;
        if (left < n - left) {
            intro_sort(x, left, depth);
            x += left;
            n -= left;
        } else {
            intro_sort(x + left, n - left, depth);
            n = left;
        }
    }
    insertion_sort(x, n);
}

/* A double's bits as an unsigned key in the same order: negative values
 * have every bit flipped (the larger magnitude first), the others only
 * the sign bit (after every negative one). */
static uint64_t sort_key(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u >> 63 ? ~u : u | (1ull << 63);
}

static double key_value(uint64_t k)
{
    uint64_t u = k >> 63 ? k & ~(1ull << 63) : ~k;
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Series this long or longer are sorted by radix_sort. */
enum { RADIX_MIN = 64 };

/*
 * LSD radix sort of x by sort_key, a byte a pass (the passes in which
 * every key has the same byte, as the exponent's of a series of one
 * magnitude, skipped), through a buffer of n keys: sorting a series
 * before its quantiles was 7 % of analyze's CPU on the 10^6-run store
 * (4,000 series of 1,000 values), and the quicksort's comparisons are
 * as many unpredictable branches. Hand-written: GSL sorts by heapsort
 * only, and no Debian C library offers a radix sort of doubles. The
 * result is intro_sort's: ascending order is unique up to the order of
 * -0 and 0 (here -0 first), which print alike. False, with x untouched,
 * when x holds a NaN (which has no place in that order) or the buffer
 * cannot be had.
 */
static bool radix_sort(double *x, size_t n)
{
    uint64_t *keys = malloc(n * sizeof *keys), *tmp = malloc(n * sizeof *tmp);
    size_t (*count)[256] = calloc(8, sizeof *count);
    bool ok = keys && tmp && count;
    for (size_t i = 0; ok && i < n; i++) {
        if (isnan(x[i])) {
            ok = false;
            break;
        }
        uint64_t k = keys[i] = sort_key(x[i]);
        for (unsigned b = 0; b < 8; b++)
            count[b][(k >> (8 * b)) & 0xff]++;
    }
    uint64_t *src = keys, *dst = tmp;
    for (unsigned b = 0; ok && b < 8; b++) {
        size_t *c = count[b];
        if (c[(src[0] >> (8 * b)) & 0xff] == n)
            continue; /* one byte value: the order stands */
        size_t at = 0;
        for (unsigned v = 0; v < 256; v++) {
            size_t k = c[v];
            c[v] = at;
            at += k;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i] >> (8 * b)) & 0xff]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    for (size_t i = 0; ok && i < n; i++)
        x[i] = key_value(src[i]);
    free(keys);
    free(tmp);
    free(count);
    return ok;
}

void rd_stats_sort(double *x, size_t n)
{
    if (n >= RADIX_MIN && radix_sort(x, n))
        return;
    unsigned depth = 0;
    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    if (n > 1)
        intro_sort(x, n, depth);
}

double rd_stats_quantile_sorted(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    /* Type 7: h = (n-1)p, interpolate between the neighbours of h. The
     * interpolation is numpy's (a + (b-a)t, from b's side when t >= 1/2):
     * equal neighbours give exactly that value, which GSL's
     * (1-t)a + tb does not (denormals, rounding), and outlier fences
     * compare values for equality with the quartiles. */
    double h = (double)(n - 1) * p;
    if (!(h > 0))
        return sorted[0];
    if (h >= (double)(n - 1))
        return sorted[n - 1];
    size_t lo = (size_t)h;
    double t = h - (double)lo, a = sorted[lo], b = sorted[lo + 1];
    if (a == b)
        return a;
    double d = b - a;
    return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

double rd_stats_geomean(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0))
            return NAN;
        s += log(x[i]);
    }
    return exp(s / (double)n);
}

double rd_stats_mad(const double *x, size_t n, double *scratch)
{
    if (n == 0)
        return NAN;
    memcpy(scratch, x, n * sizeof *x);
    rd_stats_sort(scratch, n);
    double med = rd_stats_quantile_sorted(scratch, n, 0.5);
    for (size_t i = 0; i < n; i++)
        scratch[i] = fabs(x[i] - med);
    rd_stats_sort(scratch, n);
    return MAD_SCALE * rd_stats_quantile_sorted(scratch, n, 0.5);
}

/* The last few t quantiles of this thread: a config's CI asks for the
 * same (p, n - 1) as the config before it (10^5 configs of 3 runs: 8 %
 * of analyze's CPU worked the same quantile out again each time). */
enum { T_CACHE = 8 };
static _Thread_local struct { double p, df, t; } t_cache[T_CACHE];
static _Thread_local unsigned t_next;

static double t_quantile(double p, double df);

double rd_stats_t_quantile(double p, double df)
{
    if (!(df > 0) || !(p > 0 && p < 1))
        return NAN;
    for (unsigned i = 0; i < T_CACHE; i++)
        if (t_cache[i].p == p && t_cache[i].df == df)
            return t_cache[i].t;
    double t = t_quantile(p, df);
    unsigned slot = t_next++ % T_CACHE;
    t_cache[slot].p = p;
    t_cache[slot].df = df;
    t_cache[slot].t = t;
    return t;
}

static double t_quantile(double p, double df)
{
    double t = gsl_cdf_tdist_Pinv(p, df);
    /* GSL's inverse is good to about 1e-9 at fractional df (Welch); Newton
     * steps on the tail probability bring it to the accuracy of the CDF. */
    for (int i = 0; i < 3 && isfinite(t); i++) {
        double err = p > 0.5 ? (1 - p) - gsl_cdf_tdist_Q(t, df) : gsl_cdf_tdist_P(t, df) - p;
        double dens = gsl_ran_tdist_pdf(t, df);
        if (!(dens > 0))
            break;
        t += (p > 0.5 ? err : -err) / dens;
    }
    return t;
}

/* Two-sided p of a t statistic; Q on |t| keeps precision for tiny p. */
static double t_two_sided(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    double p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
    return p > 1 ? 1 : p;
}


/* MAD of sorted data without another sort: the deviations below the median
 * (read leftwards) and above it (read rightwards) are two ascending runs;
 * merging them up to the middle gives the order statistics of |x - med|. */
static double dev_at(const double *x, size_t n, double med, size_t k)
{
    /* the k-th (0-based) smallest |x_i - med| */
    size_t lo = n / 2, hi = n / 2; /* lo: next index to the left (exclusive), hi: next to the right */
    /* start both runs at the split point: left run x[lo-1], x[lo-2], ...; right run x[hi], ... */
    double v = 0;
    for (size_t c = 0; c <= k; c++) {
        double l = lo > 0 ? med - x[lo - 1] : INFINITY;
        double r = hi < n ? x[hi] - med : INFINITY;
        if (l <= r) { v = l; lo--; } else { v = r; hi++; }
    }
    return v;
}

/* dev_at by bisection, for x without NaN and infinities: the k-th
 * smallest of the two runs is the larger of the last ones taken when
 * i come from the left run and k + 1 - i from the right, for the i at
 * which neither run's next is below the other's last. The merge walked
 * n / 2 steps of unpredictable branches for each median (two for an
 * even n): a third of the summary of a series of 1,000 values. The
 * same value, as the k-th order statistic is one number whatever the
 * order ties are taken in. */
static double dev_at_bisect(const double *x, size_t n, double med, size_t k)
{
    size_t na = n / 2, nb = n - n / 2, t = k + 1; /* t <= n */
    /* left run a_i = med - x[na - 1 - i], right run b_j = x[na + j] - med */
#define DEV_A(i) (med - x[na - 1 - (i)])
#define DEV_B(j) (x[na + (j)] - med)
    size_t lo = t > nb ? t - nb : 0, hi = t < na ? t : na;
    for (;;) {
        size_t i = lo + (hi - lo) / 2, j = t - i;
        if (i < na && j > 0 && DEV_B(j - 1) > DEV_A(i)) {
            lo = i + 1; /* the right run's last taken is above the left's next */
        } else if (i > 0 && j < nb && DEV_A(i - 1) > DEV_B(j)) {
            hi = i - 1; /* the left run's last taken is above the right's next */
        } else {
            double a = i > 0 ? DEV_A(i - 1) : -INFINITY, b = j > 0 ? DEV_B(j - 1) : -INFINITY;
            return a > b ? a : b;
        }
    }
#undef DEV_A
#undef DEV_B
}

/* mean_finite: every value is finite (a finite mean tells, as the running
 * mean of finite doubles cannot overflow and anything else makes it inf
 * or NaN), so the bisection's comparisons order the deviations. */
static double mad_sorted(const double *x, size_t n, bool mean_finite)
{
    double med = rd_stats_quantile_sorted(x, n, 0.5);
    double (*at)(const double *, size_t, double, size_t) =
        mean_finite && isfinite(med) ? dev_at_bisect : dev_at;
    double d0 = at(x, n, med, (n - 1) / 2);
    double d1 = (n % 2) ? d0 : at(x, n, med, n / 2);
    /* type 7 median of the deviations */
    return MAD_SCALE * ((n % 2) ? d0 : d0 + 0.5 * (d1 - d0));
}

void rd_stats_summarize_sorted(const double *x, const double *sorted, size_t n,
                               double confidence, struct rd_summary *out)
{
    out->n = n;
    out->mean = out->sd = out->se = out->ci_low = out->ci_high = NAN;
    out->median = out->min = out->max = out->q1 = out->q3 = NAN;
    out->p90 = out->p95 = out->p99 = out->mad = out->cv = out->geomean = NAN;
    out->var = NAN;
    out->var_e = 0;
    if (n == 0)
        return;
    /* Sums in run order, as before the sorted copy existed: the same
     * values give the same bits whatever the caller sorted. */
    out->mean = rd_stats_mean(x, n);
    if (n >= 2) {
        int e;
        double v = var_scaled_m(x, n, out->mean, &e);
        out->sd = ldexp(sqrt(v), e);
        out->var = v;
        out->var_e = e;
    }
    out->se = out->sd / sqrt((double)n);
    if (n >= 2) {
        double t = rd_stats_t_quantile((1 + confidence) / 2, (double)(n - 1));
        out->ci_low = out->mean - t * out->se;
        out->ci_high = out->mean + t * out->se;
    }
    /* A spread relative to the mean means something only on a ratio scale:
     * not for a zero or negative mean. */
    out->cv = out->mean > 0 ? out->sd / out->mean : NAN;
    out->geomean = rd_stats_geomean(x, n);
    out->mad = mad_sorted(sorted, n, isfinite(out->mean));
    out->min = sorted[0];
    out->max = sorted[n - 1];
    out->median = rd_stats_quantile_sorted(sorted, n, 0.5);
    out->q1 = rd_stats_quantile_sorted(sorted, n, 0.25);
    out->q3 = rd_stats_quantile_sorted(sorted, n, 0.75);
    out->p90 = rd_stats_quantile_sorted(sorted, n, 0.90);
    out->p95 = rd_stats_quantile_sorted(sorted, n, 0.95);
    out->p99 = rd_stats_quantile_sorted(sorted, n, 0.99);
}

void rd_stats_summarize(const double *x, size_t n, double confidence,
                        double *scratch, struct rd_summary *out)
{
    if (n > 0) {
        memcpy(scratch, x, n * sizeof *x);
        rd_stats_sort(scratch, n);
    }
    rd_stats_summarize_sorted(x, scratch, n, confidence, out);
}

size_t rd_stats_tukey(const double *x, size_t n, double q1, double q3, size_t *idx)
{
    if (isnan(q1) || isnan(q3))
        return 0;
    double iqr = q3 - q1;
    double lo = q1 - 1.5 * iqr, hi = q3 + 1.5 * iqr;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] < lo || x[i] > hi)
            idx[k++] = i;
    return k;
}

void rd_stats_welch_summary(double mean_a, double sd_a, double n_a,
                            double mean_b, double sd_b, double n_b,
                            double confidence, struct rd_welch *out)
{
    out->t = out->df = out->p = out->ci_low = out->ci_high = NAN;
    out->diff = mean_a - mean_b;
    if (!(n_a >= 2) || !(n_b >= 2) || !isfinite(sd_a) || !isfinite(sd_b) ||
        !isfinite(out->diff))
        return;
    /* Variances in units of 2^e (see rd_scale_exp): va and vb are sd^2 / n. */
    int e = rd_scale_exp(sd_a > sd_b ? sd_a : sd_b);
    double sa = ldexp(sd_a, -e), sb = ldexp(sd_b, -e);
    double va = sa * sa / n_a, vb = sb * sb / n_b;
    double v = va + vb;
    if (!(v > 0))
        return; /* both groups constant: t is 0/0 or infinite, not a number */
    double se = ldexp(sqrt(v), e);
    out->t = out->diff / se;
    out->df = v * v / (va * va / (n_a - 1) + vb * vb / (n_b - 1));
    out->p = t_two_sided(out->t, out->df);
    double q = rd_stats_t_quantile((1 + confidence) / 2, out->df);
    out->ci_low = out->diff - q * se;
    out->ci_high = out->diff + q * se;
}

void rd_stats_welch(const double *a, size_t na, const double *b, size_t nb,
                    double confidence, struct rd_welch *out)
{
    rd_stats_welch_summary(rd_stats_mean(a, na), rd_stats_sd(a, na), (double)na,
                           rd_stats_mean(b, nb), rd_stats_sd(b, nb), (double)nb,
                           confidence, out);
}

void rd_stats_ratio_fieller(double mean_a, double sd_a, double n_a,
                            double mean_b, double sd_b, double n_b,
                            double confidence, struct rd_ratio *out)
{
    out->ratio = out->ci_low = out->ci_high = out->df = NAN;
    /* "x % faster" reads a ratio of positive amounts; of a zero or negative
     * mean it would print as "nan %" or "125 % faster". */
    if (!(mean_b > 0) || !(mean_a >= 0))
        return;
    double r = mean_a / mean_b;
    out->ratio = r;
    if (!(n_a >= 2) || !(n_b >= 2) || !isfinite(sd_a) || !isfinite(sd_b))
        return;
    /* Variances and the denominator's mean in units of 2^e (see rd_scale_exp). */
    int e = rd_scale_exp(sd_a > sd_b ? sd_a : sd_b);
    double sa = ldexp(sd_a, -e), sb = ldexp(sd_b, -e), mb = ldexp(mean_b, -e);
    double va = sa * sa / n_a, vb = sb * sb / n_b;
    double vlin = va + r * r * vb; /* variance of a - R b at the estimate */
    if (!(vlin > 0))
        return; /* both groups constant: no t, as for the Welch test */
    out->df = vlin * vlin / (va * va / (n_a - 1) + r * r * r * r * vb * vb / (n_b - 1));
    double t = rd_stats_t_quantile((1 + confidence) / 2, out->df);
    double g = t * t * vb / (mb * mb);
    if (!(g < 1))
        return; /* the denominator is not significantly non-zero: unbounded */
    /* Roots of (mean_a - rho mean_b)^2 = t^2 (va + rho^2 vb). */
    double half = (t / fabs(mb)) * sqrt(va * (1 - g) + r * r * vb);
    out->ci_low = (r - half) / (1 - g);
    out->ci_high = (r + half) / (1 - g);
}

void rd_stats_paired_log_ratio(double mean_log, double sd_log, double n, double confidence,
                               struct rd_ratio *out, double *p)
{
    out->ratio = out->ci_low = out->ci_high = out->df = NAN;
    *p = NAN;
    if (!(n >= 1) || !isfinite(mean_log))
        return;
    out->ratio = exp(mean_log);
    if (!(n >= 2) || !isfinite(sd_log) || sd_log < 0)
        return;
    out->df = n - 1;
    double se = sd_log / sqrt(n);
    if (!(se > 0)) {
        /* one ratio in every round: it is known, with nothing to test
         * when it is 1 (a t of 0 / 0) */
        out->ci_low = out->ci_high = out->ratio;
        *p = mean_log != 0 ? 0 : NAN;
        return;
    }
    *p = t_two_sided(mean_log / se, out->df);
    double q = rd_stats_t_quantile((1 + confidence) / 2, out->df);
    out->ci_low = exp(mean_log - q * se);
    out->ci_high = exp(mean_log + q * se);
}

double rd_stats_hedges_g(double mean_a, double sd_a, double n_a,
                         double mean_b, double sd_b, double n_b)
{
    double m = n_a + n_b - 2;
    if (!(m >= 2) || !(n_a >= 1) || !(n_b >= 1) || !isfinite(sd_a) || !isfinite(sd_b))
        return NAN;
    int e = rd_scale_exp(sd_a > sd_b ? sd_a : sd_b);
    double sa = ldexp(sd_a, -e), sb = ldexp(sd_b, -e);
    double sp2 = ((n_a - 1) * sa * sa + (n_b - 1) * sb * sb) / m;
    if (!(sp2 > 0))
        return NAN;
    double d = (mean_a - mean_b) / ldexp(sqrt(sp2), e);
    if (!isfinite(d))
        return NAN;
    double j = exp(gsl_sf_lngamma(m / 2) - 0.5 * log(m / 2) - gsl_sf_lngamma((m - 1) / 2));
    return j * d;
}

static double f_sf(double f, double df1, double df2)
{
    if (isnan(f) || !(df1 > 0) || !(df2 > 0))
        return NAN;
    return gsl_cdf_fdist_Q(f, df1, df2);
}

/* One-way ANOVA; each group's mean from sums[g] when given (the same
 * bits rd_stats_mean gives), else worked out here. */
static void anova(const double *const *groups, const size_t *ns,
                  const struct rd_summary *const *sums, size_t k, struct rd_anova *out)
{
    out->f = out->df1 = out->df2 = out->p = NAN;
    if (k < 2)
        return;
    size_t ntot = 0;
    double amax = 0;
    for (size_t g = 0; g < k; g++) {
        if (ns[g] == 0)
            return;
        ntot += ns[g];
        for (size_t i = 0; i < ns[g]; i++)
            if (fabs(groups[g][i]) > amax)
                amax = fabs(groups[g][i]);
    }
    if (ntot <= k)
        return;
    /* F is a ratio of sums of squares: computed on the values in units of
     * 2^e (see rd_scale_exp) it is the same, and stays in range. */
    int e = rd_scale_exp(amax);
    double sum = 0;
    for (size_t g = 0; g < k; g++)
        for (size_t i = 0; i < ns[g]; i++)
            sum += e ? ldexp(groups[g][i], -e) : groups[g][i];
    double grand = sum / (double)ntot, ssb = 0, ssw = 0;
    for (size_t g = 0; g < k; g++) {
        double m = ldexp(sums ? sums[g]->mean : rd_stats_mean(groups[g], ns[g]), -e);
        ssb += (double)ns[g] * (m - grand) * (m - grand);
        for (size_t i = 0; i < ns[g]; i++) {
            double d = (e ? ldexp(groups[g][i], -e) : groups[g][i]) - m;
            ssw += d * d;
        }
    }
    out->df1 = (double)(k - 1);
    out->df2 = (double)(ntot - k);
    if (!(ssw > 0))
        return;
    out->f = (ssb / out->df1) / (ssw / out->df2);
    out->p = f_sf(out->f, out->df1, out->df2);
}

void rd_stats_anova(const double *const *groups, const size_t *ns, size_t k,
                    struct rd_anova *out)
{
    anova(groups, ns, NULL, k, out);
}

void rd_stats_anova_summarized(const double *const *groups, const size_t *ns,
                               const struct rd_summary *const *sums, size_t k,
                               struct rd_anova *out)
{
    anova(groups, ns, sums, k, out);
}

/* Welch's ANOVA of k groups of ns[g] >= 2 values, of means m[g] and
 * variances w[g] 4^ve[g] (var_scaled_m); m and w are overwritten. */
static void welch_anova(const size_t *ns, size_t k, double *m, double *w, const int *ve,
                        struct rd_anova *out)
{
    /* Means and variances in units of 2^e and 4^e (see rd_scale_exp): the
     * weights n/s^2 and F do not change, and stay in range. */
    double top = 0;
    for (size_t g = 0; g < k; g++) {
        double sd = ldexp(sqrt(w[g]), ve[g]);
        if (fabs(m[g]) > top)
            top = fabs(m[g]);
        if (sd > top)
            top = sd;
    }
    int e = rd_scale_exp(top);
    for (size_t g = 0; g < k && e; g++) {
        m[g] = ldexp(m[g], -e);
        w[g] = ldexp(w[g], 2 * (ve[g] - e));
    }
    for (size_t g = 0; g < k && !e; g++)
        w[g] = ldexp(w[g], 2 * ve[g]);
    double wsum = 0, wm = 0;
    for (size_t g = 0; g < k; g++) {
        double v = w[g];
        if (!(v > 0) || !isfinite(v))
            return; /* weights n/s^2 need a positive variance */
        w[g] = (double)ns[g] / v;
        wsum += w[g];
        wm += w[g] * m[g];
    }
    wm /= wsum;
    double a = 0, tmp = 0, kk = (double)k;
    for (size_t g = 0; g < k; g++) {
        a += w[g] * (m[g] - wm) * (m[g] - wm);
        double r = 1 - w[g] / wsum;
        tmp += r * r / ((double)ns[g] - 1);
    }
    a /= kk - 1;
    double bden = 1 + 2 * (kk - 2) / (kk * kk - 1) * tmp;
    out->df1 = kk - 1;
    if (!(tmp > 0))
        return;
    out->df2 = (kk * kk - 1) / (3 * tmp);
    out->f = a / bden;
    out->p = f_sf(out->f, out->df1, out->df2);
}

/* Each group's mean and scaled variance, from its summary when sums is
 * given, into welch_anova. */
static void welch_anova_of(const double *const *groups, const size_t *ns,
                           const struct rd_summary *const *sums, size_t k,
                           struct rd_anova *out)
{
    out->f = out->df1 = out->df2 = out->p = NAN;
    if (k < 2)
        return;
    for (size_t g = 0; g < k; g++)
        if (ns[g] < 2)
            return;
    double *w = malloc(k * sizeof *w), *m = malloc(k * sizeof *m);
    int *ve = malloc(k * sizeof *ve);
    if (w && m && ve) {
        for (size_t g = 0; g < k; g++) {
            if (sums) {
                m[g] = sums[g]->mean;
                w[g] = sums[g]->var;
                ve[g] = sums[g]->var_e;
            } else {
                m[g] = rd_stats_mean(groups[g], ns[g]);
                w[g] = var_scaled_m(groups[g], ns[g], m[g], &ve[g]);
            }
        }
        welch_anova(ns, k, m, w, ve, out);
    }
    free(w);
    free(m);
    free(ve);
}

void rd_stats_welch_anova(const double *const *groups, const size_t *ns, size_t k,
                          struct rd_anova *out)
{
    welch_anova_of(groups, ns, NULL, k, out);
}

void rd_stats_welch_anova_summarized(const size_t *ns, const struct rd_summary *const *sums,
                                     size_t k, struct rd_anova *out)
{
    welch_anova_of(NULL, ns, sums, k, out);
}

static rd_status adjust(const double *p, size_t m, double *out, int holm)
{
    /* Compact the defined p-values, sort them, then walk in rank order. */
    size_t *valid = malloc((m ? m : 1) * sizeof *valid);
    size_t *perm = malloc((m ? m : 1) * sizeof *perm);
    double *tmp = malloc((m ? m : 1) * sizeof *tmp);
    if (!valid || !perm || !tmp) {
        free(valid);
        free(perm);
        free(tmp);
        return RD_ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        out[i] = NAN;
        if (!isnan(p[i])) {
            valid[k] = i;
            tmp[k++] = p[i];
        }
    }
    if (k > 0)
        gsl_sort_index(perm, tmp, 1, k);
    double kk = (double)k;
    if (holm) {
        double run = 0;
        for (size_t i = 0; i < k; i++) {
            double v = (kk - (double)i) * tmp[perm[i]];
            if (v > run)
                run = v;
            out[valid[perm[i]]] = run > 1 ? 1 : run;
        }
    } else {
        double run = 1;
        for (size_t i = k; i-- > 0;) {
            double v = kk * tmp[perm[i]] / (double)(i + 1);
            if (v < run)
                run = v;
            out[valid[perm[i]]] = run;
        }
    }
    free(valid);
    free(perm);
    free(tmp);
    return RD_OK;
}

rd_status rd_stats_holm(const double *p, size_t m, double *out)
{
    return adjust(p, m, out, 1);
}

rd_status rd_stats_bh(const double *p, size_t m, double *out)
{
    return adjust(p, m, out, 0);
}


rd_status rd_stats_bootstrap_median(const double *x, size_t n, size_t B,
                                    unsigned long seed, double confidence,
                                    double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (n == 0 || B == 0)
        return RD_OK;
    /* A resample is a count per position of the sorted data, so its median
     * is found by walking the counts: O(n) per resample, no sorting. */
    double *meds = malloc(B * sizeof *meds);
    double *sorted = malloc(n * sizeof *sorted);
    size_t *count = malloc(n * sizeof *count);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!meds || !sorted || !count || !rng) {
        free(meds);
        free(sorted);
        free(count);
        if (rng)
            gsl_rng_free(rng);
        return RD_ERR_NOMEM;
    }
    memcpy(sorted, x, n * sizeof *x);
    rd_stats_sort(sorted, n);
    gsl_rng_set(rng, seed);
    size_t klo = (n - 1) / 2, khi = n / 2; /* order statistics of the median */
    for (size_t b = 0; b < B; b++) {
        memset(count, 0, n * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[gsl_rng_uniform_int(rng, n)]++;
        double vlo = NAN, vhi = NAN;
        size_t cum = 0;
        for (size_t i = 0; i < n; i++) {
            cum += count[i];
            if (isnan(vlo) && cum > klo)
                vlo = sorted[i];
            if (cum > khi) {
                vhi = sorted[i];
                break;
            }
        }
        meds[b] = (vlo + vhi) / 2;
    }
    rd_stats_sort(meds, B);
    *lo = rd_stats_quantile_sorted(meds, B, (1 - confidence) / 2);
    *hi = rd_stats_quantile_sorted(meds, B, (1 + confidence) / 2);
    free(meds);
    free(sorted);
    free(count);
    gsl_rng_free(rng);
    return RD_OK;
}

/* The percentile bootstrap's interval for odd n as B grows (see
 * rd_stats_bootstrap_median_coverage). */
static double bootstrap_coverage_odd(size_t n, double confidence)
{
    if (n < 3)
        return 0; /* one value: the interval is that value */
    unsigned nn = (unsigned)n, m = (unsigned)(n - 1) / 2;
    double a = (1 - confidence) / 2;
    size_t l = n, u = n;
    for (size_t k = 1; k <= n; k++) {
        /* P*(median of a resample <= x_(k)) = P(Binomial(n, k/n) >= m + 1) */
        double f = k == n ? 1 : gsl_cdf_binomial_Q(m, (double)k / (double)n, nn);
        if (l == n && f >= a)
            l = k;
        if (f >= 1 - a) {
            u = k;
            break;
        }
    }
    /* [x_(l), x_(u)] holds the median when l <= B <= u - 1, B ~ Bin(n, 1/2)
     * the number of values below it. */
    double below_u = gsl_cdf_binomial_P((unsigned)(u - 1), 0.5, nn);
    double below_l = gsl_cdf_binomial_P((unsigned)(l - 1), 0.5, nn);
    return below_u - below_l;
}

double rd_stats_bootstrap_median_coverage(size_t n, double confidence)
{
    if (n == 0 || n > 100000 || !(confidence > 0 && confidence < 1))
        return NAN;
    if (n % 2)
        return bootstrap_coverage_odd(n, confidence);
    return (bootstrap_coverage_odd(n - 1, confidence) +
            bootstrap_coverage_odd(n + 1, confidence)) / 2;
}

void rd_stats_median_ci_binomial(const double *sorted, size_t n, double confidence,
                                 double *lo, double *hi, double *level)
{
    *lo = *hi = *level = NAN;
    if (n == 0 || n > UINT_MAX)
        return;
    double tail = (1 - confidence) / 2;
    /* P(B <= l - 1) grows with l: bisect for the largest l in [1, n/2 + 1]
     * that keeps it within the tail. */
    size_t a = 0, b = n / 2 + 1; /* a: known good (0 = none), b: upper bound */
    double tail_a = 0;
    while (a < b) {
        size_t mid = a + (b - a + 1) / 2;
        double t = gsl_cdf_binomial_P((unsigned)(mid - 1), 0.5, (unsigned)n);
        if (t <= tail) {
            a = mid;
            tail_a = t;
        } else {
            b = mid - 1;
        }
    }
    if (a == 0)
        return; /* even the extremes cover less than 'confidence' */
    *lo = sorted[a - 1];
    *hi = sorted[n - a];
    /* B ~ Binomial(n, 1/2) is symmetric: P(B >= n - l + 1) = P(B <= l - 1). */
    *level = 1 - 2 * tail_a;
}
