/*
 * mcb.c - the one-sided critical value of multiple comparisons with the
 * best by quadrature (see mcb.h).
 *
 * The inner integral over z is Gauss-Legendre on unit panels (the
 * integrand is phi(z) times a cdf power: a bell no narrower than the
 * largest of k normals, which unit panels resolve up to k = 100 and more;
 * the families of a report are smaller); the outer one over s is GSL's
 * one 61-point Gauss-Kronrod rule (GSL's QAG, which splits only when its
 * error estimate asks for it) between the chi density's 1e-14 quantiles:
 * the s-integrand is a bell of sd about 1 / sqrt(2 df) there, which
 * adaptive QAGS from 0 reached only after splitting [0, top] again and
 * again (207 integrands at df = 1990 against 61). The root is roots.h's
 * quantile search (Brent's method) on the cdf: first at a known sd,
 * bracketed below by the normal's quantile at p less 1 (d >= that
 * quantile for every k: the k = 2 case at df = infinity), each step one
 * inner integral; then at df, bracketed by that value and twice the
 * first-order step c (c^2 + 1) / (4 df) of a t-like quantile above it,
 * which leaves Brent's method a few steps (17 cdfs at df = 1990 took 6).
 */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_gamma.h>

#include "chisq.h"
#include "mcb.h"
#include "roots.h"

enum { NODES = 16, PANELS = 18, Z_NODES = NODES * PANELS, WORKSPACE = 200 };
static const double Z_LO = -9;

static double z_node[Z_NODES], z_wphi[Z_NODES];
static pthread_once_t nodes_once = PTHREAD_ONCE_INIT;

static void make_nodes(void)
{
    gsl_integration_glfixed_table *t = gsl_integration_glfixed_table_alloc(NODES);
    if (!t)
        return; /* z_wphi stays 0: every cdf is then 0, no root: NaN */
    for (size_t p = 0, n = 0; p < PANELS; p++)
        for (size_t i = 0; i < NODES; i++, n++) {
            double z, w;
            gsl_integration_glfixed_point(Z_LO + (double)p, Z_LO + (double)p + 1, i, &z, &w, t);
            z_node[n] = z;
            z_wphi[n] = w * exp(-0.5 * z * z) / sqrt(2 * M_PI);
        }
    gsl_integration_glfixed_table_free(t);
}

/* x^m: by squaring for a whole m (k - 1 always is), as exact as
 * exp(m log x) and without the two calls (a third of the inner integral). */
static double power(double x, double m)
{
    if (m != floor(m) || m > 4294967295.0)
        return exp(m * log(x));
    unsigned long e = (unsigned long)m;
    double r = 1;
    for (; e; e >>= 1, x *= x)
        if (e & 1)
            r *= x;
    return r;
}

/* P(max (Z_i - Z_0) / sqrt 2 <= w) with a known sd, for m = k - 1. */
static double known_sd(double w, double m)
{
    if (w <= -40)
        return 0;
    double sum = 0;
    for (size_t n = 0; n < Z_NODES; n++) {
        double x = -(z_node[n] + M_SQRT2 * w) / M_SQRT2;
        /* erfc(x) for x <= -6 is 2 - erfc(6) = 2 - 2.2e-17, which rounds
         * to 2 (glibc returns 2 - tiny there): phi is 1 and phi^m is 1,
         * the product below exactly; most of the upper nodes are there,
         * and the erfc and the power they cost were a fifth of analyze's
         * CPU on a million runs. */
        if (x <= -6) {
            sum += z_wphi[n];
            continue;
        }
        double phi = 0.5 * erfc(x);
        sum += z_wphi[n] * (phi == 1 ? 1 : phi > 0 ? power(phi, m) : 0);
    }
    return sum;
}

/* From this df on, s's density is taken in a form that stays accurate
 * where the plain one loses digits (outer_f, log_norm). */
static const double LARGE_DF = 1000;

/* centred: log_norm is log(2 x^x / Gamma(x)) - x for x = df / 2, and the
 * density's exponent is taken in u = s - 1. */
struct outer {
    double d, m, df, log_norm;
    bool centred;
};

/* The integrand over s: the known-sd cdf at d s times the density of s. */
static double outer_f(double s, void *arg)
{
    const struct outer *o = arg;
    if (s <= 0)
        return 0;
    double log_f;
    if (o->centred) {
        /* (df - 1) log s - df s^2 / 2 = (df - 1) log1p(u) - df u - df u^2 / 2
         * - x: the x cancels the one in log_norm's x log x - log Gamma(x)
         * instead of two terms of 10^5 and more cancelling to a few. */
        double u = s - 1;
        log_f = o->log_norm + (o->df - 1) * log1p(u) - o->df * u - 0.5 * o->df * u * u;
    } else {
        log_f = o->log_norm + (o->df - 1) * log(s) - 0.5 * o->df * s * s;
    }
    double f = exp(log_f);
    if (f == 0)
        return 0; /* the product below, exactly: known_sd is finite */
    return known_sd(o->d * s, o->m) * f;
}

/* log(2 x^x / Gamma(x)), less x with centred: by Stirling's series
 * log Gamma(x) = (x - 1/2) log x - x + log(2 pi) / 2 + 1 / (12 x)
 * - 1 / (360 x^3) + ..., whose next term is below 1e-17 at x >= 500;
 * x log x - log Gamma(x) loses 16 digits of each of two terms near 10^5
 * (about 1e-10 of the density at df = 10^6, d off by 2e-9). */
static double log_norm(double df, bool centred)
{
    double x = 0.5 * df;
    if (!centred)
        return M_LN2 + x * log(x) - gsl_sf_lngamma(x);
    return M_LN2 + 0.5 * log(x) - 0.5 * log(2 * M_PI) - 1 / (12 * x) + 1 / (360 * x * x * x);
}

/* Where s = sqrt(chi2_df / df) has its mass: [*bot, *top] leaves out
 * 1e-14 on each side, far inside the 1e-9 rd_mcb_cdf promises. By
 * chisq.h's quantiles: GSL's own fail for large df (at df = 59,993 the
 * integral lost mass and d was 2.1187 against 2.0727, at 10^6 NaN). */
static void s_range(double df, double *bot, double *top)
{
    *bot = sqrt(rd_chisq_Pinv(1e-14, df) / df);
    *top = sqrt(rd_chisq_Qinv(1e-14, df) / df);
}

double rd_mcb_cdf(double d, double k, double df)
{
    if (isnan(d) || isnan(k) || isnan(df) || k < 2 || df <= 0)
        return NAN;
    pthread_once(&nodes_once, make_nodes);
    double m = k - 1;
    if (isinf(df))
        return known_sd(d, m);
    /* s = sqrt(X / df), X ~ chi2_df: f(s) = 2 (df/2)^(df/2) / Gamma(df/2)
     * s^(df-1) exp(-df s^2 / 2). */
    bool centred = df >= LARGE_DF;
    struct outer o = { d, m, df, log_norm(df, centred), centred };
    double bot, top;
    s_range(df, &bot, &top);
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(WORKSPACE);
    if (!ws)
        return NAN;
    gsl_function f = { outer_f, &o };
    double v = NAN, err;
    int st = gsl_integration_qag(&f, bot, top, 1e-12, 1e-10, WORKSPACE, GSL_INTEG_GAUSS61, ws,
                                 &v, &err);
    gsl_integration_workspace_free(ws);
    if (st && !(err < 1e-8))
        return NAN;
    return fmin(1, fmax(0, v));
}

static double cdf_at(double d, void *arg)
{
    const double *k_df = arg;
    return rd_mcb_cdf(d, k_df[0], k_df[1]);
}

double rd_mcb_quantile(double p, double k, double df)
{
    if (!(p > 0 && p < 1) || isnan(rd_mcb_cdf(0, k, df)))
        return NAN;
    double lo = p > 0.5 ? gsl_cdf_ugaussian_Pinv(p) - 1 : -40;
    double k_inf[2] = { k, INFINITY }, k_df[2] = { k, df };
    double c = rd_root_quantile(cdf_at, k_inf, p, lo, fabs(lo) + 1, false, 1e-11);
    if (isinf(df) || isnan(c))
        return c;
    /* For c > 0 an estimated sd only widens the interval, so d >= c; the
     * bracket's top moves up (doubling) while it falls short, and a
     * bracket that does not hold falls back to the wide one. */
    double d = NAN;
    if (c > 0)
        d = rd_root_quantile(cdf_at, k_df, p, c, c + (c * c * c + c) / (2 * df), true, 1e-11);
    return isnan(d) ? rd_root_quantile(cdf_at, k_df, p, lo, fabs(lo) + 1, false, 1e-11) : d;
}
