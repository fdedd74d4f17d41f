/*
 * srange.c - the studentized range distribution by quadrature (see
 * srange.h).
 *
 * With a known sd, the range W of k standard normals has the tail
 *   G(w) = P(W > w) = k * Int phi(z) (Phi(z)^(k-1) - [Phi(z) - Phi(z-w)]^(k-1)) dz
 * and with an sd estimated on df degrees of freedom, s = sqrt(chi2_df/df),
 *   P(Q > q) = Int_0^inf G(q s) f_df(s) ds
 * (Hartley 1944; Copenhaver and Holland 1988 evaluate the same integrals).
 * The tail is integrated as its own integrand, so small p-values keep
 * their relative precision instead of being the difference of two numbers
 * near 1; the cdf is 1 minus the tail, which is what its absolute error
 * bound allows and all the quantiles need.
 *
 * The verdicts ask for the tail once per config, all with one k and df, so
 * both integrals are made cheap for the second and later calls:
 *
 * - G depends on k alone. It is kept per k as Chebyshev series of log G on
 *   pieces of w a quarter wide (GSL's gsl_cheb_*), each built the first
 *   time a w falls in it and checked there against the direct sum at a
 *   point off its nodes. The direct sum is Gauss-Legendre on half-unit
 *   panels of z: the density of the largest of k normals, which the
 *   integrand carries, is a bell of sd about 1 / sqrt(2 ln k), 0.19 for
 *   k = 10^6, and coarser panels lose digits from k = 100 on.
 * - The s integral is GSL's adaptive Gauss-Kronrod (QAGP) with break
 *   points at the mode of f_df and where G(q s) falls through 1/2: for a
 *   large q that fall is narrow in s, and fixed panels miss it.
 */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_chebyshev.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>

#include "chisq.h"
#include "roots.h"
#include "srange.h"

/* The z grids: 16-point Gauss-Legendre panels from where no k >= 2 has
 * mass to where phi(z) itself is below 1e-30 (past it the tail loses
 * digits only below about 1e-28). The integrand's bell has an sd of about
 * 1 / sqrt(2 ln k): unit-wide panels resolve it up to k = 100 (0.33), half-
 * unit ones beyond (0.19 at k = 10^6), at twice the cost of every table. */
enum { NODES = 16, Z_PANELS_FINE = 41, Z_NODES = NODES * Z_PANELS_FINE };
static const double Z_LO = -8.5, Z_HI = 12;
static const double Z_NEGLIGIBLE = 1e-30; /* a node's weight that cannot show */
static const double K_FINE = 100;         /* above it, the half-unit grid */

/* The z nodes with log Phi(z) and the weight times phi(z) there: the
 * same for every w and k. */
struct z_grid {
    size_t n;
    double z[Z_NODES], wphi[Z_NODES], log_top[Z_NODES];
};

/* Made once per process, whichever thread asks first. */
static gsl_integration_glfixed_table *gl_table;
static struct z_grid coarse_grid, fine_grid;
static pthread_once_t grids_once = PTHREAD_ONCE_INIT;

static void fill_grid(struct z_grid *g, int panels)
{
    double width = (Z_HI - Z_LO) / panels;
    g->n = 0;
    for (int p = 0; p < panels; p++)
        for (size_t i = 0; i < NODES; i++) {
            double z, wt;
            gsl_integration_glfixed_point(Z_LO + p * width, Z_LO + (p + 1) * width, i, &z, &wt,
                                          gl_table);
            g->z[g->n] = z;
            g->wphi[g->n] = wt * exp(-0.5 * z * z) / sqrt(2 * M_PI);
            g->log_top[g->n] = gsl_sf_log_erfc(-z / M_SQRT2) - M_LN2; /* log Phi(z) */
            g->n++;
        }
}

static void make_grids(void)
{
    gl_table = gsl_integration_glfixed_table_alloc(NODES);
    if (!gl_table)
        return;
    fill_grid(&coarse_grid, (Z_PANELS_FINE + 1) / 2);
    fill_grid(&fine_grid, Z_PANELS_FINE);
}

/* The grid for k; an empty one when GSL could not allocate its table (every
 * tail is then 0, and the quantiles NaN). */
static const struct z_grid *z_grid(double k)
{
    pthread_once(&grids_once, make_grids);
    return k > K_FINE ? &fine_grid : &coarse_grid;
}

/* The nodes that matter for k, with weight * phi(z) * Phi(z)^(k-1). */
struct z_terms {
    size_t n;
    double z[Z_NODES], lead[Z_NODES], top[Z_NODES];
};

static void z_terms_for(double k, struct z_terms *out)
{
    const struct z_grid *g = z_grid(k);
    out->n = 0;
    for (size_t j = 0; j < g->n; j++) {
        double lead = g->wphi[j] * exp((k - 1) * g->log_top[j]);
        if (!(k * lead > Z_NEGLIGIBLE))
            continue;
        out->z[out->n] = g->z[j];
        out->lead[out->n] = lead;
        out->top[out->n] = exp(g->log_top[j]);
        out->n++;
    }
}

/* G(w) by the direct sum. With u = 1 - (1 - Phi(z-w)/Phi(z))^(k-1) the
 * integrand is lead * u, u taken without cancellation. */
static double range_sf_direct(double w, double k, const struct z_terms *zt)
{
    double sum = 0;
    for (size_t j = 0; j < zt->n; j++) {
        double low = 0.5 * erfc((w - zt->z[j]) / M_SQRT2); /* Phi(z - w) */
        sum += zt->lead[j] * -expm1((k - 1) * log1p(-low / zt->top[j]));
    }
    return fmin(1, k * sum);
}

/* A function tabled on pieces of its argument as Chebyshev series of its
 * logarithm: piece j covers [j, j + 1) times width. Order 24 keeps log G
 * within 1e-13 on quarter-wide pieces of w where it bends fastest. A piece
 * is built the first time an argument falls in it and kept only when its
 * series matches the direct value at a point off its nodes; otherwise the
 * piece is DIRECT. A piece whose end has a value below TABLE_TINY is
 * DIRECT too, or, for G (zero_tail), the start of G taken as 0: the z grid
 * keeps no digits there anyway (Z_NEGLIGIBLE), it only moves tails below
 * about 1e-28, and building the pieces out to where G leaves the double
 * range tripled the cost of a table. G is below 1e-30 before the last piece
 * for any k under 10^10. Whether an argument is read from a series or
 * computed directly depends on the argument alone, never on which pieces
 * were asked for before: a value is the same in every thread and order
 * (analyze's output does not depend on --threads). */
enum { PIECE_ORDER = 24, PIECES = 256 };
static const double TABLE_TINY = 1e-30;
enum piece_state { PIECE_UNBUILT, PIECE_TABLED, PIECE_DIRECT };

struct pieces {
    double width;
    double check;     /* relative, at a point off the nodes */
    int zero_tail;    /* from the first piece ending below TABLE_TINY on, 0 */
    double zero_from; /* the function is taken as 0 from here on */
    double (*direct)(double x, void *arg);
    void *arg;
    unsigned char state[PIECES];
    double coef[PIECES][PIECE_ORDER + 1];
};

static void pieces_reset(struct pieces *p, double width, double check, int zero_tail,
                         double (*direct)(double, void *), void *arg)
{
    p->width = width;
    p->check = check;
    p->zero_tail = zero_tail;
    p->zero_from = INFINITY;
    p->direct = direct;
    p->arg = arg;
    memset(p->state, PIECE_UNBUILT, sizeof p->state);
}

static double log_direct(double x, void *arg)
{
    const struct pieces *p = arg;
    return log(p->direct(x, p->arg));
}

/* Builds piece j: its series, or the direct sum when the series misses
 * the direct value between nodes, or the end of the function when it is
 * too small at the piece's end to keep its logarithm. */
static void build_piece(struct pieces *p, size_t j)
{
    double a = (double)j * p->width, b = a + p->width;
    p->state[j] = PIECE_DIRECT;
    if (!(p->direct(b, p->arg) > TABLE_TINY)) {
        if (p->zero_tail)
            p->zero_from = fmin(p->zero_from, a);
        return;
    }
    gsl_cheb_series *cs = gsl_cheb_alloc(PIECE_ORDER);
    if (!cs)
        return;
    gsl_function f = { log_direct, p };
    if (gsl_cheb_init(cs, &f, a, b) == GSL_SUCCESS) {
        double probe = a + 0.3 * p->width;
        double direct = p->direct(probe, p->arg);
        if (fabs(exp(gsl_cheb_eval(cs, probe)) - direct) <= p->check * direct) {
            memcpy(p->coef[j], cs->c, sizeof p->coef[j]);
            p->state[j] = PIECE_TABLED;
        }
    }
    gsl_cheb_free(cs);
}

/* The function at x >= 0 from its piece's series, or 0 past zero_from:
 * true with *out set; false when x is to be computed directly. */
static bool pieces_lookup(struct pieces *p, double x, double *out)
{
    if (x >= p->zero_from) {
        *out = 0;
        return true;
    }
    if (!(x < PIECES * p->width))
        return false;
    size_t j = (size_t)(x / p->width);
    if (j >= PIECES) /* x just below the end, rounded up by the division */
        j = PIECES - 1;
    if (p->state[j] == PIECE_UNBUILT)
        build_piece(p, j);
    if (x >= p->zero_from) {
        *out = 0;
        return true;
    }
    if (p->state[j] == PIECE_DIRECT)
        return false;
    /* The piece's series read in place: gsl_cheb_eval reads c, order, a
     * and b of the struct gsl_chebyshev.h declares. */
    gsl_cheb_series cs = { .c = p->coef[j], .order = PIECE_ORDER, .a = (double)j * p->width,
                           .b = (double)(j + 1) * p->width };
    *out = fmin(1, exp(gsl_cheb_eval(&cs, x)));
    return true;
}

static double pieces_eval(struct pieces *p, double x)
{
    double v;
    return pieces_lookup(p, x, &v) ? v : p->direct(x, p->arg);
}

/* The tabled G of one k, on quarter-wide pieces of w. */
static const double G_PIECE_WIDTH = 0.25;
static const double G_CHECK = 1e-11;

struct range_table {
    double k; /* 0: unused */
    double median;    /* of W, where G falls through 1/2; NaN until asked */
    struct z_terms zt;
    struct pieces g;
};

static double range_sf_of(double w, void *table)
{
    const struct range_table *t = table;
    return range_sf_direct(w, t->k, &t->zt);
}

/* Per thread (analyze decides workloads on several), sixteen tables: an
 * analysis has one k per workload size (the shipped study has seven, and
 * four tables rebuilt theirs over and over), and each table costs a
 * millisecond or two a piece to build. A new k evicts round-robin. On
 * the heap, made as first used (about 70 KB a table) and freed by
 * rd_srange_release_thread: as static thread-local arrays they made
 * every thread's TLS block 1.5 MB, which glibc zeroes whole when it
 * starts a thread (and the main one), 370 page faults a thread whether
 * or not it ever asks for a studentized range. */
enum { TABLES = 16 };
static _Thread_local struct range_table *range_tables[TABLES];
static _Thread_local unsigned range_next;

/* The table of k, made or taken over (round-robin) when there is none;
 * NULL when it cannot be allocated. */
static struct range_table *range_table_for(double k)
{
    for (unsigned i = 0; i < TABLES; i++)
        if (range_tables[i] && range_tables[i]->k == k)
            return range_tables[i];
    unsigned slot = range_next++ % TABLES;
    if (!range_tables[slot] && !(range_tables[slot] = malloc(sizeof *range_tables[slot])))
        return NULL;
    struct range_table *t = range_tables[slot];
    t->k = k;
    t->median = NAN;
    z_terms_for(k, &t->zt);
    pieces_reset(&t->g, G_PIECE_WIDTH, G_CHECK, 1, range_sf_of, t);
    return t;
}

/* G(w) for the table's k. */
static double range_sf(double w, struct range_table *t)
{
    return pieces_eval(&t->g, w);
}

/* The median of W, where G falls through 1/2: G is decreasing. */
static double range_median(struct range_table *t)
{
    if (!isnan(t->median))
        return t->median;
    double lo = 0, hi = 1;
    while (range_sf(hi, t) > 0.5 && hi < PIECES * G_PIECE_WIDTH)
        lo = hi, hi *= 2;
    for (int i = 0; i < 40; i++) {
        double mid = 0.5 * (lo + hi);
        if (range_sf(mid, t) > 0.5)
            lo = mid;
        else
            hi = mid;
    }
    return t->median = 0.5 * (lo + hi);
}

/* The s integrand G(q s) f_df(s). With a = df / 2 and s = 1 + d,
 *   log f_df(s) = log 2 + a log a - lgamma(a) + (2a - 1) log s - a s^2,
 * where Stirling's series, lgamma(a) = (a - 1/2) log a - a + log(2 pi) / 2
 * + log gammastar(a), cancels the terms that grow with a:
 *   log f_df(s) = log 2 + (log a - log 2 pi) / 2 - log gammastar(a)
 *                 + a (2 log1p(d) - 2 d - d^2) - log s,
 * which stays exact for any df (the plain form loses every digit by
 * df = 10^12). */
struct s_integrand {
    struct range_table *t;
    double q, a, log_const;
};

static double s_integrand(double s, void *arg)
{
    const struct s_integrand *x = arg;
    if (!(s > 0))
        return 0;
    double d = s - 1;
    double log_f = x->log_const + x->a * (2 * log1p(d) - 2 * d - d * d) - log(s);
    return range_sf(x->q * s, x->t) * exp(log_f);
}

enum { S_INTERVALS = 200, S_FEATURES = 4 };

static double srange_sf_integral(double q, double k, double df)
{
    struct range_table *t = range_table_for(k);
    if (!t)
        return NAN;
    /* Past df = 10^15 the sd of s is below 3e-8 and the tail differs
     * from G(q) by about q^2 G''(q) / (4 df), far below 1e-13. */
    if (isinf(df) || df > 1e15)
        return range_sf(q, t);
    /* From 0, so that the small s that carry the tail of a large q are
     * all counted, to the 1 - 1e-15 quantile of s: past it G(q s) is below
     * G(q), and the mass lost is below 1e-15 of the tail. By chisq.h:
     * GSL's own quantile was 2.5 % low at df = 61,333 (s_hi 1.0102, where
     * 1.9e-4 of s lies above, against 1.0227) and below 1 at 10^6. */
    double sd = 1 / sqrt(2 * df);
    double s_hi = sqrt(rd_chisq_Qinv(1e-15, df) / df);
    double a = 0.5 * df;
    struct s_integrand x = { t, q, a,
                             M_LN2 + 0.5 * (log(a) - log(2 * M_PI)) - log(gsl_sf_gammastar(a)) };
    /* Break points where the integrand has its features: the mode of f_df
     * and 6 sd either side (a narrow bell for a large df), and where
     * G(q s) falls through 1/2 (a narrow step for a large q). */
    double mode = sqrt(fmax(df - 1, 0) / df);
    double features[S_FEATURES] = { mode, mode - 6 * sd, mode + 6 * sd, range_median(t) / q };
    gsl_sort(features, 1, S_FEATURES);
    /* QAGP takes the points in increasing order, ends included. */
    double pts[S_FEATURES + 2] = { 0 };
    size_t n = 1;
    for (size_t i = 0; i < S_FEATURES; i++)
        if (features[i] > pts[n - 1] && features[i] < s_hi)
            pts[n++] = features[i];
    pts[n++] = s_hi;
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(S_INTERVALS);
    if (!ws)
        return NAN;
    gsl_function f = { s_integrand, &x };
    double result = NAN, err;
    /* Relative precision for small tails too: epsabs only keeps a tail
     * near 0 from asking for more than doubles hold. A status other than
     * success (round-off at the requested precision) still leaves GSL's
     * best estimate, which is what we return. */
    gsl_integration_qagp(&f, pts, n, 1e-300, 1e-11, S_INTERVALS, ws, &result, &err);
    gsl_integration_workspace_free(ws);
    return fmin(1, fmax(0, result));
}

/* The tail of one (k, df) tabled in x = log(1 + q), for the p-values of
 * a big family: a workload of k configs asks for k - 1 of them, all at
 * its k and df, and one integral costs about 400 evaluations of G. A
 * piece costs 26 integrals, so tables pay only from a few hundred configs
 * on, and below K_SF_TABLE every tail is integrated: the choice depends on
 * k alone. x rather than q: log P(Q > q) is near linear in log q for a
 * small df (the tail falls as q^-df), and bends fast only below q of
 * about 20, where the pieces are at most 2.6 wide in q; 256 pieces an
 * eighth wide cover q up to 7.9e13, the rest is integrated. The check between nodes is relative 1e-9: the integral's own
 * tolerance (1e-11 relative) moves the nodes' values, and the documented
 * relative precision of small tails is 1e-8. */
static const double K_SF_TABLE = 200;
static const double SF_PIECE_WIDTH = 0.125;
static const double SF_CHECK = 1e-9;

struct sf_table {
    double k, df; /* k = 0: unused */
    struct pieces p;
};

static double sf_of_x(double x, void *table)
{
    const struct sf_table *t = table;
    return srange_sf_integral(expm1(x), t->k, t->df);
}

/* Per thread, like the tables of G (on the heap as they are); a workload
 * has one (k, df), and the shape of a big study (workloads of one size)
 * few. About 50 KB each. */
enum { SF_TABLES = 8 };
static _Thread_local struct sf_table *sf_tables[SF_TABLES];
static _Thread_local unsigned sf_next;

/* NULL when the table cannot be allocated. */
static struct sf_table *sf_table_for(double k, double df)
{
    for (unsigned i = 0; i < SF_TABLES; i++)
        if (sf_tables[i] && sf_tables[i]->k == k && sf_tables[i]->df == df)
            return sf_tables[i];
    unsigned slot = sf_next++ % SF_TABLES;
    if (!sf_tables[slot] && !(sf_tables[slot] = malloc(sizeof *sf_tables[slot])))
        return NULL;
    struct sf_table *t = sf_tables[slot];
    t->k = k;
    t->df = df;
    pieces_reset(&t->p, SF_PIECE_WIDTH, SF_CHECK, 0, sf_of_x, t);
    return t;
}

static double srange_sf(double q, double k, double df)
{
    if (k < K_SF_TABLE || isinf(df) || df > 1e15)
        return srange_sf_integral(q, k, df);
    double v;
    struct sf_table *t = sf_table_for(k, df);
    return t && pieces_lookup(&t->p, log1p(q), &v) ? v : srange_sf_integral(q, k, df);
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
    return 1 - srange_sf_integral(q, k, df);
}

static double sf_checked(double q, double k, double df, bool tabled)
{
    if (bad_args(q, k, df))
        return NAN;
    if (q <= 0)
        return 1;
    if (isinf(q))
        return 0;
    return tabled ? srange_sf(q, k, df) : srange_sf_integral(q, k, df);
}

double rd_srange_sf(double q, double k, double df)
{
    return sf_checked(q, k, df, true);
}

double rd_srange_sf_integral(double q, double k, double df)
{
    return sf_checked(q, k, df, false);
}

static double cdf_at(double q, void *arg)
{
    const double *k_df = arg;
    return rd_srange_cdf(q, k_df[0], k_df[1]);
}

double rd_srange_quantile(double p, double k, double df)
{
    if (bad_args(1, k, df) || !(p > 0 && p < 1))
        return NAN;
    double k_df[2] = { k, df };
    /* The cdf rises from 0 at q = 0. */
    return rd_root_quantile(cdf_at, k_df, p, 0, 4, true, 1e-12);
}

void rd_srange_release_thread(void)
{
    for (unsigned i = 0; i < TABLES; i++) {
        free(range_tables[i]);
        range_tables[i] = NULL;
    }
    for (unsigned i = 0; i < SF_TABLES; i++) {
        free(sf_tables[i]);
        sf_tables[i] = NULL;
    }
    range_next = sf_next = 0;
}
