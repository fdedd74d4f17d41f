/*
 * srange.c - the studentized range distribution by Gauss-Legendre
 * quadrature (see srange.h).
 *
 * With a known sd, the range W of k standard normals has
 *   P(W <= w) = k * Int phi(z) [Phi(z) - Phi(z - w)]^(k-1) dz
 * and with an sd estimated on df degrees of freedom, s = sqrt(chi2_df/df),
 *   P(Q <= q) = Int_0^inf P(W <= q s) f_df(s) ds
 * (Hartley 1944; Copenhaver and Holland 1988 evaluate the same integrals).
 * The upper tail is integrated as its own integrand,
 *   1 - P(W <= w) = k * Int phi(z) (Phi(z)^(k-1) - [Phi(z) - Phi(z-w)]^(k-1)) dz,
 * so small p-values keep their relative precision instead of being the
 * difference of two numbers near 1.
 */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>

#include "srange.h"

/* Nodes per panel and panels: the integrands are smooth bells of width
 * about 1, so 16-point panels of width about 1 are accurate to far below
 * the 1e-9 the header promises (checked against R in test_srange). */
enum { NODES = 16, Z_PANELS = 8, S_PANELS = 16, S_PANELS_WIDE_DF = 8, Z_NODES = NODES * Z_PANELS };
static const double Z_LO = -8.5, Z_HI = 8.5;

/* Gauss-Legendre abscissae and weights on [-1, 1], computed once: GSL's
 * table is allocated, so keep one per process (read-only after the first
 * call, which happens before any thread starts: rd_stats_init). */
static const gsl_integration_glfixed_table *nodes(void)
{
    static gsl_integration_glfixed_table *t;
    if (!t)
        t = gsl_integration_glfixed_table_alloc(NODES);
    return t;
}

/* The z nodes with log Phi(z) and the weight times phi(z) there: the
 * same for every w and k. */
struct z_grid {
    double z[Z_NODES], wphi[Z_NODES], log_top[Z_NODES];
};

static const struct z_grid *z_grid(void)
{
    static struct z_grid g;
    static int ready;
    if (!ready) {
        const gsl_integration_glfixed_table *t = nodes();
        double width = (Z_HI - Z_LO) / Z_PANELS;
        for (int p = 0; p < Z_PANELS; p++)
            for (size_t i = 0; i < NODES; i++) {
                double z, wt;
                size_t j = (size_t)p * NODES + i;
                gsl_integration_glfixed_point(Z_LO + p * width, Z_LO + (p + 1) * width, i,
                                              &z, &wt, t);
                g.z[j] = z;
                g.wphi[j] = wt * exp(-0.5 * z * z) / sqrt(2 * M_PI);
                g.log_top[j] = log(gsl_cdf_ugaussian_P(z));
            }
        ready = 1;
    }
    return &g;
}

/* The nodes that matter for k, with weight * phi(z) * Phi(z)^(k-1). */
struct z_terms {
    size_t n;
    double z[Z_NODES], lead[Z_NODES], top[Z_NODES];
};

static void z_terms_for(double k, struct z_terms *out)
{
    const struct z_grid *g = z_grid();
    out->n = 0;
    for (size_t j = 0; j < Z_NODES; j++) {
        double lead = g->wphi[j] * exp((k - 1) * g->log_top[j]);
        /* A node whose whole weight is this small cannot show in the sum. */
        if (!(lead > 1e-18))
            continue;
        out->z[out->n] = g->z[j];
        out->lead[out->n] = lead;
        out->top[out->n] = exp(g->log_top[j]);
        out->n++;
    }
}

/* P(W <= w) and P(W > w) for the range of k standard normals. With
 * u = 1 - (1 - Phi(z-w)/Phi(z))^(k-1), the integrand of the cdf is
 * lead (1 - u) and that of the tail lead u, u taken without cancellation. */
static void range_known_sd(double w, double k, const struct z_terms *zt,
                           double *cdf, double *sf)
{
    double lo = 0, hi = 0;
    for (size_t j = 0; j < zt->n; j++) {
        double low = 0.5 * erfc((w - zt->z[j]) / M_SQRT2); /* Phi(z - w) */
        double u = -expm1((k - 1) * log1p(-low / zt->top[j]));
        lo += zt->lead[j] * (1 - u);
        hi += zt->lead[j] * u;
    }
    *cdf = fmin(1, k * lo);
    *sf = fmin(1, k * hi);
}

/* log of the density of s = sqrt(chi2_df / df). */
static double log_density_s(double s, double df)
{
    return 0.5 * df * log(df) - gsl_sf_lngamma(0.5 * df) - (0.5 * df - 1) * M_LN2 +
           (df - 1) * log(s) - 0.5 * df * s * s;
}

static void range_estimated_sd(double q, double k, double df, double *cdf, double *sf)
{
    /* Past a million degrees of freedom s is 1 within 1e-6: the known-sd
     * formula is exact to the precision we promise. */
    struct z_terms zt;
    z_terms_for(k, &zt);
    if (isinf(df) || df > 1e6) {
        range_known_sd(q, k, &zt, cdf, sf);
        return;
    }
    const gsl_integration_glfixed_table *t = nodes();
    /* s between its 1e-15 and 1 - 1e-15 quantiles holds all the mass
     * that matters. */
    double s_lo = sqrt(gsl_cdf_chisq_Pinv(1e-15, df) / df);
    double s_hi = sqrt(gsl_cdf_chisq_Qinv(1e-15, df) / df);
    if (!(s_lo >= 0) || !(s_hi > s_lo)) {
        s_lo = 0;
        s_hi = 1 + 40 / sqrt(df);
    }
    double lo = 0, hi = 0, mass = 0;
    /* Few degrees of freedom leave s a wide, skewed density; more make
     * it a narrow bell that half the panels integrate as well. */
    int panels = df < 4 ? S_PANELS : S_PANELS_WIDE_DF;
    double width = (s_hi - s_lo) / panels;
    for (int p = 0; p < panels; p++) {
        double a = s_lo + p * width, b = a + width;
        for (size_t i = 0; i < NODES; i++) {
            double s, wt;
            gsl_integration_glfixed_point(a, b, i, &s, &wt, t);
            if (!(s > 0))
                continue;
            double f = exp(log_density_s(s, df));
            mass += wt * f;
            if (!(wt * f > 1e-18))
                continue;
            double c, u;
            range_known_sd(q * s, k, &zt, &c, &u);
            lo += wt * f * c;
            hi += wt * f * u;
        }
    }
    /* The quadrature's own total mass normalises away its small error. */
    *cdf = fmin(1, lo / mass);
    *sf = fmin(1, hi / mass);
}

static int bad_args(double q, double k, double df)
{
    return isnan(q) || isnan(k) || isnan(df) || k < 2 || !(df > 0);
}

double rd_srange_cdf(double q, double k, double df)
{
    if (bad_args(q, k, df))
        return NAN;
    if (q <= 0)
        return 0;
    if (isinf(q))
        return 1;
    double c, u;
    range_estimated_sd(q, k, df, &c, &u);
    return c;
}

double rd_srange_sf(double q, double k, double df)
{
    if (bad_args(q, k, df))
        return NAN;
    if (q <= 0)
        return 1;
    if (isinf(q))
        return 0;
    double c, u;
    range_estimated_sd(q, k, df, &c, &u);
    return u;
}

struct quantile_target {
    double p, k, df;
};

static double cdf_minus_p(double q, void *arg)
{
    const struct quantile_target *t = arg;
    return rd_srange_cdf(q, t->k, t->df) - t->p;
}

double rd_srange_quantile(double p, double k, double df)
{
    if (bad_args(1, k, df) || !(p > 0 && p < 1))
        return NAN;
    struct quantile_target target = { p, k, df };
    /* Bracket the root: the cdf rises from 0 at q = 0. */
    double lo = 0, hi = 4;
    while (cdf_minus_p(hi, &target) < 0) {
        lo = hi;
        hi *= 2;
        if (hi > 1e6)
            return NAN;
    }
    gsl_function f = { cdf_minus_p, &target };
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!s)
        return NAN;
    double root = NAN;
    if (gsl_root_fsolver_set(s, &f, lo, hi) == GSL_SUCCESS) {
        for (int iter = 0; iter < 200; iter++) {
            if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
                break;
            double a = gsl_root_fsolver_x_lower(s), b = gsl_root_fsolver_x_upper(s);
            root = gsl_root_fsolver_root(s);
            if (gsl_root_test_interval(a, b, 0, 1e-12) == GSL_SUCCESS)
                break;
        }
    }
    gsl_root_fsolver_free(s);
    return root;
}
