/*
 * mcb.c - the one-sided critical value of multiple comparisons with the
 * best by quadrature (see mcb.h).
 *
 * The inner integral over z is Gauss-Legendre on unit panels (the
 * integrand is phi(z) times a cdf power: a bell no narrower than the
 * largest of k normals, which unit panels resolve up to k = 100 and more;
 * the families of a report are smaller); the outer one over s is GSL's
 * adaptive QAGS from 0 to where the chi density has no mass left. The
 * root is roots.h's quantile search (Brent's method) on the cdf, bracketed
 * below by the normal's quantile at p less 1 (d >= that quantile for every
 * k: the k = 2 case at df = infinity).
 */
#include <math.h>
#include <pthread.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_gamma.h>

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
         * and the erfc, log and exp they cost were a fifth of analyze's
         * CPU on a million runs. */
        if (x <= -6) {
            sum += z_wphi[n];
            continue;
        }
        double phi = 0.5 * erfc(x);
        sum += z_wphi[n] * (phi == 1 ? 1 : phi > 0 ? exp(m * log(phi)) : 0);
    }
    return sum;
}

struct outer {
    double d, m, df, log_norm;
};

/* The integrand over s: the known-sd cdf at d s times the density of s. */
static double outer_f(double s, void *arg)
{
    const struct outer *o = arg;
    if (s <= 0)
        return 0;
    double log_f = o->log_norm + (o->df - 1) * log(s) - 0.5 * o->df * s * s;
    double f = exp(log_f);
    if (f == 0)
        return 0; /* the product below, exactly: known_sd is finite */
    return known_sd(o->d * s, o->m) * f;
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
    struct outer o = { d, m, df,
                       M_LN2 + 0.5 * df * log(0.5 * df) - gsl_sf_lngamma(0.5 * df) };
    double top = sqrt(gsl_cdf_chisq_Qinv(1e-14, df) / df);
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(WORKSPACE);
    if (!ws)
        return NAN;
    gsl_function f = { outer_f, &o };
    double v = NAN, err;
    int st = gsl_integration_qags(&f, 0, top, 1e-12, 1e-10, WORKSPACE, ws, &v, &err);
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
    double k_df[2] = { k, df };
    double lo = p > 0.5 ? gsl_cdf_ugaussian_Pinv(p) - 1 : -40;
    return rd_root_quantile(cdf_at, k_df, p, lo, fabs(lo) + 1, false, 1e-11);
}
