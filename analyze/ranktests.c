/*
 * ranktests.c - the tests that use only the order of the values: Mann-
 * Whitney U, Kruskal-Wallis H and the Mann-Kendall trend test, with their
 * exact null distributions where they are cheap (few values, no ties or
 * few of them) and the normal or chi-squared approximations otherwise.
 *
 * Part of the statistics module (declared in stats.h): GSL for the
 * distribution functions and sorting, nothing of the analysis structures.
 */
#include "stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>

#include "srange.h"

/* Midranks of the concatenation of the groups into 'ranks' (N long), and
 * the tie term sum(t^3 - t) over groups of equal values into *tie_term. */
static rd_status midranks(const double *const *groups, const size_t *ns, size_t k,
                          double *ranks, double *tie_term)
{
    size_t n = 0;
    for (size_t g = 0; g < k; g++)
        n += ns[g];
    double *all = malloc((n ? n : 1) * sizeof *all);
    size_t *perm = malloc((n ? n : 1) * sizeof *perm);
    if (!all || !perm) {
        free(all);
        free(perm);
        return RD_ERR_NOMEM;
    }
    size_t pos = 0;
    for (size_t g = 0; g < k; g++)
        for (size_t i = 0; i < ns[g]; i++)
            all[pos++] = groups[g][i];
    if (n > 0)
        gsl_sort_index(perm, all, 1, n);
    double tt = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && all[perm[j + 1]] == all[perm[i]])
            j++;
        double r = (double)(i + j + 2) / 2; /* mean of 1-based ranks i+1..j+1 */
        for (size_t m = i; m <= j; m++)
            ranks[perm[m]] = r;
        double t = (double)(j - i + 1);
        tt += t * t * t - t;
        i = j + 1;
    }
    *tie_term = tt;
    free(all);
    free(perm);
    return RD_OK;
}

/* P(U >= u) under H0 for sizes m, n with no ties, by the recurrence
 * f(u; m, n) = f(u - n; m - 1, n) + f(u; m, n - 1) (Mann and Whitney 1947).
 * Only additions of non-negative counts: no cancellation in the tails. */
/* The null distribution depends on the sizes only, and every pair of a
 * workload usually has the same sizes: keep the last one, per thread
 * (workloads are analysed on several; see rd_stats_release_thread). */
static _Thread_local struct { size_t m, n; double *f; } mw_cache;

static void mk_cache_release(void);

void rd_stats_release_thread(void)
{
    rd_srange_release_thread();
    mk_cache_release();
    free(mw_cache.f);
    mw_cache.f = NULL;
    mw_cache.m = mw_cache.n = 0;
}

static rd_status mw_exact_sf(size_t m, size_t n, size_t u, double *out)
{
    if (mw_cache.f && mw_cache.m == m && mw_cache.n == n) {
        size_t len = m * n + 1;
        double total = 0, tail = 0;
        for (size_t v = 0; v < len; v++) {
            total += mw_cache.f[v];
            if (v >= u)
                tail += mw_cache.f[v];
        }
        *out = tail / total;
        return RD_OK;
    }
    /* Row i holds, for j = 0..n, the counts f(.; i, j), each i*j + 1 long. */
    size_t rowlen = m * n * (n + 1) / 2 + n + 1;
    double *prev = calloc(rowlen, sizeof *prev);
    double *cur = calloc(rowlen, sizeof *cur);
    size_t *offp = malloc((n + 1) * sizeof *offp);
    size_t *offc = malloc((n + 1) * sizeof *offc);
    if (!prev || !cur || !offp || !offc) {
        free(prev);
        free(cur);
        free(offp);
        free(offc);
        return RD_ERR_NOMEM;
    }
    for (size_t j = 0; j <= n; j++) {
        offp[j] = j;
        prev[j] = 1; /* i = 0: only u = 0 */
    }
    for (size_t i = 1; i <= m; i++) {
        size_t o = 0;
        for (size_t j = 0; j <= n; j++) {
            offc[j] = o;
            size_t len = i * j + 1;
            double *f = cur + o;
            if (j == 0) {
                f[0] = 1;
            } else {
                const double *left = cur + offc[j - 1];   /* f(.; i, j-1), len i(j-1)+1 */
                const double *up = prev + offp[j];        /* f(.; i-1, j), len (i-1)j+1 */
                size_t left_len = i * (j - 1) + 1, up_len = (i - 1) * j + 1;
                for (size_t v = 0; v < len; v++) {
                    double s = v < left_len ? left[v] : 0;
                    if (v >= j && v - j < up_len)
                        s += up[v - j];
                    f[v] = s;
                }
            }
            o += len;
        }
        double *tmp = prev;
        prev = cur;
        cur = tmp;
        size_t *to = offp;
        offp = offc;
        offc = to;
    }
    const double *f = prev + offp[n];
    size_t len = m * n + 1;
    double *keep = malloc(len * sizeof *keep);
    if (keep) {
        memcpy(keep, f, len * sizeof *keep);
        free(mw_cache.f);
        mw_cache.f = keep;
        mw_cache.m = m;
        mw_cache.n = n;
    }
    double total = 0, tail = 0;
    for (size_t v = 0; v < len; v++) {
        total += f[v];
        if (v >= u)
            tail += f[v];
    }
    *out = tail / total;
    free(prev);
    free(cur);
    free(offp);
    free(offc);
    return RD_OK;
}

static rd_status mw_finish(double r1, double tie_term, size_t na, size_t nb, size_t n,
                           struct rd_mwu *out)
{
    rd_status st;
    double n1 = (double)na, n2 = (double)nb;
    double u1 = r1 - n1 * (n1 + 1) / 2;
    double u2 = n1 * n2 - u1;
    double umax = u1 > u2 ? u1 : u2;
    out->u = u1;
    out->a = u1 / (n1 * n2);
    if (tie_term == 0 && na <= 50 && nb <= 50) {
        double sf;
        st = mw_exact_sf(na, nb, (size_t)umax, &sf);
        if (st != RD_OK)
            return st;
        out->exact = 1;
        out->p = 2 * sf > 1 ? 1 : 2 * sf;
        return RD_OK;
    }
    double nn = (double)n;
    double s2 = n1 * n2 / 12 * ((nn + 1) - tie_term / (nn * (nn - 1)));
    if (!(s2 > 0))
        return RD_OK; /* every value tied: no evidence either way, and no z */
    double z = (umax - n1 * n2 / 2 - 0.5) / sqrt(s2);
    double p = 2 * gsl_cdf_ugaussian_Q(z);
    out->p = p > 1 ? 1 : p;
    return RD_OK;
}

rd_status rd_stats_mann_whitney_sorted_blocks(const double *a, size_t na, const double *b,
                                              size_t nb, struct rd_mwu *out)
{
    out->u = out->p = out->a = NAN;
    out->exact = 0;
    if (na == 0 || nb == 0)
        return RD_OK;
    size_t n = na + nb;
    /* Merge the two sorted samples; each tie block gets its mid rank. */
    double r1 = 0, tie_term = 0;
    size_t i = 0, j = 0, pos = 0;
    while (i < na || j < nb) {
        double v = (j >= nb || (i < na && a[i] <= b[j])) ? a[i] : b[j];
        size_t ca = 0, cb = 0;
        while (i < na && a[i] == v) { i++; ca++; }
        while (j < nb && b[j] == v) { j++; cb++; }
        size_t t = ca + cb;
        double r = (double)(2 * pos + t + 1) / 2;
        r1 += r * (double)ca;
        double tt = (double)t;
        tie_term += tt * tt * tt - tt;
        pos += t;
    }
    return mw_finish(r1, tie_term, na, nb, n, out);
}

/* Up to this many values in the two samples, twice R1 (at most n (n + 1))
 * and the tie term (at most n^3) are whole numbers below 2^53: the plain
 * merge's sums in double are then exact, and the same numbers summed in
 * integers give the same bits. */
#define MW_FAST_MAX_N 200000

/* The tie block being merged: its value, size t and count from a. */
struct mw_block {
    double v;
    uint64_t t, ca, pos, r1x2, ties;
};

static void mw_take(struct mw_block *k, double v, uint64_t from_a)
{
    if (v == k->v && k->t) {
        k->t++;
        k->ca += from_a;
        return;
    }
    k->r1x2 += (2 * k->pos + k->t + 1) * k->ca;
    k->ties += k->t * k->t * k->t - k->t;
    k->pos += k->t;
    *k = (struct mw_block){ v, 1, from_a, k->pos, k->r1x2, k->ties };
}

/*
 * The merge of the plain version with the side to take chosen by a select
 * rather than branches: which side comes next in two samples of one
 * distribution cannot be predicted, and the branchy merge was about 2.5 %
 * of analyze's CPU on the 10^6-run store (45 pairs of 1,000 runs a
 * workload), the largest statistic there. Same numbers (MW_FAST_MAX_N),
 * same bits.
 */
rd_status rd_stats_mann_whitney_sorted(const double *a, size_t na, const double *b, size_t nb,
                                       struct rd_mwu *out)
{
    if (na == 0 || nb == 0 || na + nb > MW_FAST_MAX_N)
        return rd_stats_mann_whitney_sorted_blocks(a, na, b, nb, out);
    out->u = out->p = out->a = NAN;
    out->exact = 0;
    struct mw_block k = { 0, 0, 0, 0, 0, 0 };
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        double ai = a[i], bj = b[j];
        size_t take_b = bj < ai;
        mw_take(&k, take_b ? bj : ai, 1 - take_b);
        i += 1 - take_b;
        j += take_b;
    }
    for (; i < na; i++)
        mw_take(&k, a[i], 1);
    for (; j < nb; j++)
        mw_take(&k, b[j], 0);
    mw_take(&k, NAN, 0); /* closes the last block */
    return mw_finish((double)k.r1x2 / 2, (double)k.ties, na, nb, na + nb, out);
}

double rd_stats_mw_min_p(size_t na, size_t nb)
{
    if (na == 0 || nb == 0)
        return 1;
    /* 2 / C(na+nb, na) through log-gamma: no overflow for large n. */
    double lc = gsl_sf_lnchoose((unsigned)(na + nb), (unsigned)na);
    double p = 2 * exp(-lc);
    return p > 1 ? 1 : p;
}

/* H and its p from the groups' rank sums' sum of squares over sizes
 * (acc) and the tie term. */
static void kruskal_finish(double acc, double tie_term, size_t n, size_t k,
                           struct rd_kruskal *out)
{
    double nn = (double)n;
    out->df = (double)(k - 1);
    double corr = 1 - tie_term / (nn * nn * nn - nn);
    if (!(corr > 0))
        return; /* all values equal */
    out->h = (12 / (nn * (nn + 1)) * acc - 3 * (nn + 1)) / corr;
    out->p = gsl_cdf_chisq_Q(out->h, out->df);
}

/* The total size of k groups, 0 when one is empty (H is then undefined). */
static size_t kruskal_size(const size_t *ns, size_t k)
{
    size_t n = 0;
    for (size_t g = 0; g < k; g++) {
        if (ns[g] == 0)
            return 0;
        n += ns[g];
    }
    return n;
}

rd_status rd_stats_kruskal(const double *const *groups, const size_t *ns, size_t k,
                           struct rd_kruskal *out)
{
    out->h = out->df = out->p = NAN;
    size_t n = kruskal_size(ns, k);
    if (k < 2 || n == 0)
        return RD_OK;
    double *ranks = malloc(n * sizeof *ranks);
    if (!ranks)
        return RD_ERR_NOMEM;
    double tie_term;
    rd_status st = midranks(groups, ns, k, ranks, &tie_term);
    if (st != RD_OK) {
        free(ranks);
        return st;
    }
    double acc = 0;
    size_t pos = 0;
    for (size_t g = 0; g < k; g++) {
        double r = 0;
        for (size_t i = 0; i < ns[g]; i++)
            r += ranks[pos++];
        acc += r * r / (double)ns[g];
    }
    free(ranks);
    kruskal_finish(acc, tie_term, n, k, out);
    return RD_OK;
}

/* Past this many groups the values are sorted by index instead
 * (rd_stats_kruskal): a heap merge of the groups lost to that there (10^5
 * groups of 3: 2.4 % of the CPU against 1.1 %), and a group's label is a
 * byte in the merge. */
enum { KRUSKAL_MERGE_MAX_K = 64 };

void rd_mw_pool_release(struct rd_mw_pool *pool)
{
    free(pool->below);
    free(pool->own);
    *pool = (struct rd_mw_pool){ 0 };
}

static rd_status mw_pool_alloc(struct rd_mw_pool *pool, const size_t *ns, size_t k)
{
    pool->below = calloc(3 * k * k, sizeof *pool->below);
    pool->own = calloc(k, sizeof *pool->own);
    if (!pool->below || !pool->own) {
        rd_mw_pool_release(pool);
        return RD_ERR_NOMEM;
    }
    pool->tied = pool->below + k * k;
    pool->tie3 = pool->tied + k * k;
    pool->k = k;
    pool->ns = ns;
    return RD_OK;
}

/* A block of equal values, cnt[i] of them from group taken[i], into the
 * pool: below[g][h] gains cnt * (h's values before the block), the pairs
 * both in it their tied counts and the cross terms of (c_g + c_h)^3 -
 * (c_g + c_h) - (c_g^3 - c_g) - (c_h^3 - c_h) = 3 c_g c_h (c_g + c_h). */
static void mw_pool_block(struct rd_mw_pool *pool, uint64_t *seen, const size_t *taken,
                          const size_t *cnt, size_t ntaken)
{
    size_t k = pool->k;
    for (size_t i = 0; i < ntaken; i++) {
        uint64_t c = cnt[i], *row = pool->below + taken[i] * k;
        for (size_t h = 0; h < k; h++)
            row[h] += c * seen[h];
        pool->own[taken[i]] += c * c * c - c;
        for (size_t j = 0; j < i; j++) {
            uint64_t d = cnt[j], both = c * d, cross = 3 * both * (c + d);
            size_t g = taken[i], h = taken[j];
            pool->tied[g * k + h] += both;
            pool->tied[h * k + g] += both;
            pool->tie3[g * k + h] += cross;
            pool->tie3[h * k + g] += cross;
        }
    }
    for (size_t i = 0; i < ntaken; i++)
        seen[taken[i]] += cnt[i];
}

/* In a's and b's own merge a block of t values, c_a of them a's, from
 * position pos on adds (2 pos + t + 1) c_a to twice R1; pos counts a's
 * values before it and b's (below), so summed over the blocks that is
 * n_a (n_a + 1) (a ranked alone) + 2 below[a][b] + tied[a][b]. The tie
 * term is each group's own plus the cross terms of the blocks both are
 * in. Whole numbers below 2^53 (at most 200,000 values): the integers
 * rd_stats_mann_whitney_sorted sums, so the same bits. */
rd_status rd_stats_mann_whitney_pooled(const struct rd_mw_pool *pool, size_t a, size_t b,
                                       struct rd_mwu *out)
{
    size_t k = pool->k;
    uint64_t na = pool->ns[a], nb = pool->ns[b];
    uint64_t r1x2 = na * (na + 1) + 2 * pool->below[a * k + b] + pool->tied[a * k + b];
    uint64_t ties = pool->own[a] + pool->own[b] + pool->tie3[a * k + b];
    out->u = out->p = out->a = NAN;
    out->exact = 0;
    return mw_finish((double)r1x2 / 2, (double)ties, na, nb, na + nb, out);
}

/* Values with their groups, sorted runs of them merged pairwise. */
struct labelled {
    double *v;
    unsigned char *g; /* at most KRUSKAL_MERGE_MAX_K groups */
};

/*
 * Merges the sorted runs a[lo..mid) and a[mid..hi), both non-empty, into
 * b[lo..hi), the smaller half from the front and the larger from the back
 * in one loop (as merge_both_ends, for its reason: two merges that do not
 * wait for each other); either run can run out on either side, so each
 * reads a clamped index and takes the other run then. The order of equal
 * values does not matter to what reads the result.
 */
static void merge_labelled(struct labelled a, struct labelled b, size_t lo, size_t mid,
                           size_t hi)
{
    size_t i = lo, j = mid, k = lo, ie = mid, je = hi, ke = hi;
    for (size_t s = (hi - lo) / 2; s > 0; s--) {
        size_t ic = i < mid ? i : mid - 1, jc = j < hi ? j : hi - 1;
        size_t take_b = (j < hi) & ((i >= mid) | (a.v[jc] < a.v[ic]));
        size_t from = take_b ? jc : ic;
        b.v[k] = a.v[from];
        b.g[k++] = a.g[from];
        j += take_b;
        i += 1 - take_b;
        size_t iec = ie > lo ? ie - 1 : lo, jec = je > mid ? je - 1 : mid;
        size_t take_a = (ie > lo) & ((je == mid) | (a.v[iec] > a.v[jec]));
        from = take_a ? iec : jec;
        b.v[--ke] = a.v[from];
        b.g[ke] = a.g[from];
        ie -= take_a;
        je -= 1 - take_a;
    }
    if (k < ke) { /* an odd count: the one left is the last of one run */
        size_t from = i < ie ? i : j;
        b.v[k] = a.v[from];
        b.g[k] = a.g[from];
    }
}

/* The k sorted groups as one sorted run of n labelled values, in *out
 * (one of the two buffers). */
static void merge_groups(const double *const *sorted, const size_t *ns, size_t k,
                         struct labelled bufs[2], struct labelled *out)
{
    size_t ends[KRUSKAL_MERGE_MAX_K + 1], nruns = k, at = 0;
    for (size_t g = 0; g < k; g++) {
        memcpy(bufs[0].v + at, sorted[g], ns[g] * sizeof *bufs[0].v);
        memset(bufs[0].g + at, (int)g, ns[g]);
        at += ns[g];
        ends[g] = at;
    }
    unsigned cur = 0;
    while (nruns > 1) {
        size_t r = 0, lo = 0;
        for (size_t run = 0; run < nruns; run += 2, r++) {
            size_t mid = ends[run], hi = run + 1 < nruns ? ends[run + 1] : mid;
            if (hi > mid) {
                merge_labelled(bufs[cur], bufs[1 - cur], lo, mid, hi);
            } else {
                memcpy(bufs[1 - cur].v + lo, bufs[cur].v + lo, (mid - lo) * sizeof *bufs[0].v);
                memcpy(bufs[1 - cur].g + lo, bufs[cur].g + lo, mid - lo);
            }
            ends[r] = hi;
            lo = hi;
        }
        nruns = r;
        cur = 1 - cur;
    }
    *out = bufs[cur];
}

static rd_status kruskal_merge(const double *const *sorted, const size_t *ns, size_t k,
                               struct rd_kruskal *out, struct rd_mw_pool *pool)
{
    out->h = out->df = out->p = NAN;
    size_t n = kruskal_size(ns, k);
    if (k < 2 || n == 0)
        return RD_OK;
    double *v = malloc(2 * n * sizeof *v);
    unsigned char *gl = malloc(2 * n);
    if (!v || !gl || (pool && n <= MW_FAST_MAX_N && mw_pool_alloc(pool, ns, k))) {
        free(v);
        free(gl);
        return RD_ERR_NOMEM;
    }
    /* The groups merged pairwise into one run with their labels, in
     * log2 k rounds without a branch on the values: a heap of the groups
     * took a few unpredictable branches a value, and was the largest rank
     * test on the 10^6-run store (1.9 % of analyze's CPU). */
    struct labelled bufs[2] = { { v, gl }, { v + n, gl + n } }, all;
    merge_groups(sorted, ns, k, bufs, &all);
    /* Each group's rank sum, block by block of equal values: a block of t
     * values from position pos on has the mid rank (2 pos + t + 1) / 2,
     * and the sums of those half-integers are exact below 2^52, so they are
     * the bits the sum over each value's rank gave (a sort of all N values
     * by index, 3 % of analyze's CPU on a million runs). */
    double rsum[KRUSKAL_MERGE_MAX_K] = { 0 };
    uint64_t seen[KRUSKAL_MERGE_MAX_K] = { 0 };
    size_t taken[KRUSKAL_MERGE_MAX_K], cnt[KRUSKAL_MERGE_MAX_K], of[KRUSKAL_MERGE_MAX_K] = { 0 };
    double tie_term = 0;
    for (size_t pos = 0; pos < n;) {
        size_t end = pos, ntaken = 0;
        double x = all.v[pos];
        do {
            size_t g = all.g[end];
            if (!of[g]) {
                taken[ntaken++] = g;
                cnt[ntaken - 1] = 0;
                of[g] = ntaken;
            }
            cnt[of[g] - 1]++;
        } while (++end < n && all.v[end] == x);
        size_t t = end - pos;
        double r = (double)(2 * pos + t + 1) / 2, tt = (double)t;
        for (size_t i = 0; i < ntaken; i++) {
            rsum[taken[i]] += r * (double)cnt[i];
            of[taken[i]] = 0;
        }
        if (pool && pool->k)
            mw_pool_block(pool, seen, taken, cnt, ntaken);
        tie_term += tt * tt * tt - tt;
        pos = end;
    }
    free(v);
    free(gl);
    double acc = 0;
    for (size_t g = 0; g < k; g++)
        acc += rsum[g] * rsum[g] / (double)ns[g];
    kruskal_finish(acc, tie_term, n, k, out);
    return RD_OK;
}

rd_status rd_stats_kruskal_sorted(const double *const *sorted, const size_t *ns, size_t k,
                                  struct rd_kruskal *out)
{
    return rd_stats_kruskal_sorted_pool(sorted, ns, k, out, NULL);
}

rd_status rd_stats_kruskal_sorted_pool(const double *const *sorted, const size_t *ns, size_t k,
                                       struct rd_kruskal *out, struct rd_mw_pool *pool)
{
    if (pool)
        *pool = (struct rd_mw_pool){ 0 };
    if (k > KRUSKAL_MERGE_MAX_K)
        return rd_stats_kruskal(sorted, ns, k, out);
    return kruskal_merge(sorted, ns, k, out, pool);
}

/*
 * Merges the sorted runs a[lo..mid) and a[mid..hi), the second no longer
 * than the first and not empty, into b[lo..hi) and returns the pairs of
 * the two with the second's value below the first's. Each step of one
 * merge waits for the last (its indices come from its comparison), so the
 * smaller half is taken from the front and the larger from the back in the
 * same loop: two merges that do not wait for each other. Ties go first to
 * the first run from the front and to the second run from the back, the
 * stable merge's order from either end, so the two halves meet. The front
 * counts, for each second-run value it takes, the first run's values not
 * yet taken from the front; the back, for each first-run value it takes,
 * the second run's not yet taken from the back. A pair of a second-run
 * value taken from the front and a first-run value taken from the back
 * (the second below the first in the stable order, so strictly below) is
 * counted by both: once too often. The front can run out of the second
 * run and the back too (the first run is the longer), never of the first.
 */
static uint64_t merge_both_ends(const double *a, double *b, size_t lo, size_t mid, size_t hi)
{
    size_t i = lo, j = mid, k = lo;    /* the front */
    size_t ie = mid, je = hi, ke = hi; /* the back: one past */
    size_t steps = (hi - lo) / 2;
    uint64_t front = 0, back = 0;
    for (size_t s = 0; s < steps; s++) {
        double ai = a[i], bj = a[j < hi ? j : hi - 1];
        size_t take_b = (j < hi) & (bj < ai);
        front += take_b * (mid - i);
        b[k++] = take_b ? bj : ai;
        j += take_b;
        i += 1 - take_b;
        double ae = a[ie - 1], be = a[je - 1];
        size_t take_a = (je == mid) | (ae > be);
        back += take_a * (je - mid);
        b[--ke] = take_a ? ae : be;
        ie -= take_a;
        je -= 1 - take_a;
    }
    if (k < ke) { /* an odd count: the middle value, from the back */
        double ae = a[ie - 1], be = a[je - 1];
        size_t take_a = (je == mid) | (ae > be);
        back += take_a * (je - mid);
        b[--ke] = take_a ? ae : be;
        ie -= take_a;
    }
    return front + back - (uint64_t)(mid - ie) * (uint64_t)(j - mid);
}

/* Pairs i < j with x[j] < x[i] (strictly), by merge sort; -1 when out of memory.
 * The merge takes its next value by a select, not a branch: on values in
 * random order which side is taken cannot be predicted, and the branchy
 * merge was about 2 % of analyze's CPU on the 10^6-run store. From both
 * ends at once (merge_both_ends): a series of 1,000 took 40 us, now 30 us.
 * The count is a whole number below 2^53 (n below 1.3e8) either way: the
 * same bits. */
static double count_inversions(const double *x, size_t n)
{
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    memcpy(a, x, n * sizeof *a);
    uint64_t inv = 0;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            if (hi > mid)
                inv += merge_both_ends(a, b, lo, mid, hi);
            else /* a last run with nothing to merge with */
                memcpy(b + lo, a + lo, (mid - lo) * sizeof *b);
        }
        double *t = a;
        a = b;
        b = t;
    }
    free(a);
    free(b);
    return (double)inv;
}

/*
 * The exact null distribution of the Mann-Kendall S. Under the hypothesis
 * of no trend the runs are exchangeable: every arrangement of the observed
 * values in run order is equally likely, and S = n0 - T - 2 I, with n0 =
 * n(n-1)/2, T the number of tied pairs and I the number of inversions. The
 * number of arrangements of a multiset with tie groups t_1, ..., t_g (in
 * value order) having I = k is the coefficient of q^k in the q-multinomial
 * [n; t_1, ..., t_g]_q (Stanley, Enumerative Combinatorics I, prop. 1.7.1):
 * putting a group of t values above the m already placed multiplies the
 * generating function by the Gaussian binomial [m + t; t]_q, whose
 * coefficients count the interleavings by the inversions they add. Without
 * ties this is the Mahonian numbers behind Kendall's exact table (Kendall
 * 1938). Every count is a sum of non-negative terms, so the tails keep
 * their relative precision, and n! <= 3e64 at n = 50 stays far inside
 * double range.
 */

/* Coefficients of [m + t; t]_q (m t + 1 of them) into out, by the
 * recurrence [i + j; i] = [i - 1 + j; i - 1] + q^i [i + j - 1; i] over a
 * table of i = 0..t and j = 0..m. */
static rd_status gauss_binomial(size_t m, size_t t, double *out)
{
    /* Row i holds the polynomials for j = 0..m, the j-th i*j + 1 long. */
    size_t rowlen = (m + 1) + t * m * (m + 1) / 2;
    double *prev = calloc(rowlen, sizeof *prev), *cur = calloc(rowlen, sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return RD_ERR_NOMEM;
    }
    for (size_t j = 0; j <= m; j++)
        prev[j] = 1; /* i = 0: [j; 0] = 1, each one coefficient long */
    for (size_t i = 1; i <= t; i++) {
        size_t off = 0, poff = 0; /* starts of j in cur (row i) and prev (row i-1) */
        for (size_t j = 0; j <= m; j++) {
            size_t len = i * j + 1, plen = (i - 1) * j + 1;
            double *f = cur + off;
            memset(f, 0, len * sizeof *f);
            for (size_t v = 0; v < plen; v++)
                f[v] = prev[poff + v];
            if (j > 0) {
                const double *left = cur + off - (i * (j - 1) + 1); /* [i + j - 1; i] */
                for (size_t v = 0; v + i < len && v < i * (j - 1) + 1; v++)
                    f[v + i] += left[v];
            }
            off += len;
            poff += plen;
        }
        double *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    /* Row t's last polynomial, j = m, ends the row. */
    size_t len = m * t + 1, end = 0;
    for (size_t j = 0; j <= m; j++)
        end += t * j + 1;
    memcpy(out, prev + end - len, len * sizeof *out);
    free(prev);
    free(cur);
    return RD_OK;
}

/* P(I <= k) for k = 0..n0 - T (returned, caller frees with free()), the
 * arrangements of values with tie groups sizes[0..g) in value order. */
static double *inversions_cdf(const size_t *sizes, size_t g, size_t *len_out)
{
    size_t total = 0, maxinv = 0;
    for (size_t i = 0; i < g; i++) {
        maxinv += total * sizes[i];
        total += sizes[i];
    }
    double *dist = calloc(maxinv + 1, sizeof *dist);
    double *next = calloc(maxinv + 1, sizeof *next);
    double *gb = malloc((maxinv + 1) * sizeof *gb);
    if (!dist || !next || !gb) {
        free(dist);
        free(next);
        free(gb);
        return NULL;
    }
    dist[0] = 1;
    size_t m = 0, deg = 0;
    for (size_t i = 0; i < g; i++) {
        size_t t = sizes[i], gdeg = m * t;
        if (gauss_binomial(m, t, gb) != RD_OK) {
            free(dist);
            free(next);
            free(gb);
            return NULL;
        }
        memset(next, 0, (deg + gdeg + 1) * sizeof *next);
        for (size_t a = 0; a <= deg; a++)
            if (dist[a] != 0)
                for (size_t b = 0; b <= gdeg; b++)
                    next[a + b] += dist[a] * gb[b];
        double *tmp = dist;
        dist = next;
        next = tmp;
        deg += gdeg;
        m += t;
    }
    double sum = 0;
    for (size_t k = 0; k <= deg; k++)
        sum += dist[k];
    double run = 0;
    for (size_t k = 0; k <= deg; k++) {
        run += dist[k];
        dist[k] = run / sum;
    }
    free(next);
    free(gb);
    *len_out = deg + 1;
    return dist;
}

/* Without ties the distribution depends on n alone, and most series of a
 * workload share n: each thread keeps the ones it has computed. */
static _Thread_local double *mk_cache[MK_EXACT_MAX_N + 1];

static void mk_cache_release(void)
{
    for (size_t i = 0; i <= MK_EXACT_MAX_N; i++) {
        free(mk_cache[i]);
        mk_cache[i] = NULL;
    }
}

/* P(I <= k) for the untied n, from the cache; NULL when out of memory. */
static const double *mk_untied_cdf(size_t n)
{
    if (!mk_cache[n]) {
        size_t *ones = malloc(n * sizeof *ones), len;
        if (!ones)
            return NULL;
        for (size_t i = 0; i < n; i++)
            ones[i] = 1;
        mk_cache[n] = inversions_cdf(ones, n, &len);
        free(ones);
    }
    return mk_cache[n];
}

rd_status rd_stats_mann_kendall(const double *x, size_t n, struct rd_trend *out)
{
    out->s = out->tau = out->z = out->p = NAN;
    out->exact = 0;
    double *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return RD_ERR_NOMEM;
    memcpy(c, x, n * sizeof *c);
    rd_stats_sort(c, n);
    rd_status st = rd_stats_mann_kendall_sorted(x, c, n, out);
    free(c);
    return st;
}

rd_status rd_stats_mann_kendall_sorted(const double *x, const double *c, size_t n,
                                       struct rd_trend *out)
{
    out->s = out->tau = out->z = out->p = NAN;
    out->exact = 0;
    if (n < 3)
        return RD_OK;
    /* S = concordant - discordant pairs of (i, x_i) = n0 - ties - 2 inversions;
     * inversions counted by a merge sort: O(n log n) (Knight 1966). */
    double inv = count_inversions(x, n);
    if (inv < 0)
        return RD_ERR_NOMEM;
    /* Tie groups in x: adjacent in the sorted c. */
    size_t *sizes = malloc(n * sizeof *sizes);
    if (!sizes)
        return RD_ERR_NOMEM;
    double t1 = 0, t2 = 0; /* sum t(t-1)/2 and sum t(t-1)(2t+5) */
    size_t g = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && c[j + 1] == c[i])
            j++;
        double t = (double)(j - i + 1);
        t1 += t * (t - 1) / 2;
        t2 += t * (t - 1) * (2 * t + 5);
        sizes[g++] = j - i + 1;
        i = j + 1;
    }
    double nn = (double)n, n0 = nn * (nn - 1) / 2;
    double s = n0 - t1 - 2 * inv;
    out->s = s;
    if (!(n0 - t1 > 0)) {
        free(sizes);
        return RD_OK; /* every value tied */
    }
    out->tau = s / sqrt(n0 * (n0 - t1));
    double var = (nn * (nn - 1) * (2 * nn + 5) - t2) / 18;
    out->z = s / sqrt(var);
    bool ties = g < n;
    if (n <= (ties ? MK_EXACT_TIES_MAX_N : MK_EXACT_MAX_N)) {
        /* The distribution of I is symmetric about (n0 - T) / 2, so the
         * two-sided p is twice the tail nearer the observed I. */
        size_t len = 0;
        double *own = NULL;
        const double *cdf = ties ? (own = inversions_cdf(sizes, g, &len)) : mk_untied_cdf(n);
        if (!cdf) {
            free(sizes);
            return RD_ERR_NOMEM;
        }
        double other = n0 - t1 - inv;
        size_t k = (size_t)(inv < other ? inv : other);
        double p = 2 * cdf[k];
        out->p = p > 1 ? 1 : p;
        out->exact = 1;
        free(own);
    } else {
        double p = 2 * gsl_cdf_ugaussian_Q(fabs(out->z));
        out->p = p > 1 ? 1 : p;
    }
    free(sizes);
    return RD_OK;
}
