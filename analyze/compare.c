/*
 * compare.c - the configs of a workload tested against each other on one
 * metric: one-way ANOVA, Welch's ANOVA and Kruskal-Wallis over all of
 * them, then Welch's t, Mann-Whitney U, Hedges' g and Fieller's ratio CI
 * per pair, with Holm- and Benjamini-Hochberg-adjusted p over the pairs.
 * A test that cannot be defined for the data (constant groups, n < 2)
 * leaves NaN, which the writer makes null and warnings.c explains.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "cfghelp.h"
#include "directions.h"
#include "halves.h"

/* Above this many configs a workload compares each config with the best
 * only: all pairs would be k(k-1)/2 tests (half a million at k = 1000). */
#define ALL_PAIRS_MAX 30

void rd_compare_two(const struct prep *a, const struct prep *b, double confidence,
                    struct rd_welch *w, struct rd_ratio *r)
{
    if (w)
        rd_stats_welch_summary(a->sum.mean, a->sum.sd, (double)a->n_used, b->sum.mean,
                               b->sum.sd, (double)b->n_used, confidence, w);
    if (r)
        rd_stats_ratio_fieller(a->sum.mean, a->sum.sd, (double)a->n_used, b->sum.mean,
                               b->sum.sd, (double)b->n_used, confidence, r);
}

static void fill_pair(struct wctx *x, struct prep *pp, struct pair *pr)
{
    const struct prep *pa = &pp[pr->a], *pb = &pp[pr->b];
    rd_compare_two(pa, pb, x->a->o.confidence, &pr->w, &pr->r);
    pr->g = rd_stats_hedges_g(pa->sum.mean, pa->sum.sd, (double)pa->n_used, pb->sum.mean,
                              pb->sum.sd, (double)pb->n_used);
}

struct pairs_job {
    struct tests *t;
    struct prep *pp;
    double *p;                  /* each pair's Welch p */
    const struct rd_mw_pool *mw; /* the Kruskal merge's, by group; k 0: none */
    const size_t *group;        /* [config]: its group in mw */
};

/* Pairs lo..hi-1 of job ctx: their tests, and their p into job->p. */
static rd_status pair_range(struct wctx *x, void *ctx, size_t lo, size_t hi)
{
    struct pairs_job *j = ctx;
    for (size_t i = lo; i < hi; i++) {
        struct pair *pr = &j->t->pairs[i];
        fill_pair(x, j->pp, pr);
        if (j->mw->k)
            RD_TRY(rd_stats_mann_whitney_pooled(j->mw, j->group[pr->a], j->group[pr->b],
                                                &pr->mw));
        else
            RD_TRY(rd_stats_mann_whitney_sorted(j->pp[pr->a].sorted, j->pp[pr->a].n_used,
                                                j->pp[pr->b].sorted, j->pp[pr->b].n_used,
                                                &pr->mw));
        j->p[i] = pr->w.p;
    }
    return RD_OK;
}

static rd_status compare_pairs(struct wctx *x, struct tests *t, struct prep *pp, size_t ng,
                               const struct rd_mw_pool *mw, const size_t *group);

rd_status rd_compare_metric(struct wctx *x, size_t ti)
{
    struct tests *t = &x->tests[ti];
    struct prep *pp = x->preps + ti * x->k;
    t->metric = x->tested[ti];
    t->better =
        t->metric == x->primary ? x->better : rd_wctx_metric_better(x, t->metric);
    t->best = SIZE_MAX;
    t->scope = "all";
    size_t ng = 0;
    for (size_t i = 0; i < x->k; i++) {
        if (!pp[i].have)
            continue;
        ng++;
        if (t->better != RD_BETTER_NONE &&
            (t->best == SIZE_MAX ||
             rd_better_than(pp[i].sum.mean, pp[t->best].sum.mean, t->better)))
            t->best = i;
    }
    t->anova.f = t->anova.df1 = t->anova.df2 = t->anova.p = NAN;
    t->wanova = t->anova;
    t->kw.h = t->kw.df = t->kw.p = NAN;
    /* The Kruskal-Wallis merge of all groups also ranks every pair, when
     * all pairs are tested: their Mann-Whitney tests then read it (k - 1
     * merges of each config's values were a share of analyze's CPU as
     * large as the merge itself). ns, group and mw live until the pairs
     * are done. */
    struct rd_mw_pool mw = { 0 };
    size_t *ns = NULL, *group = NULL;
    rd_status st = RD_OK;
    if (ng >= 3) {
        const double **g = malloc(2 * ng * sizeof *g), **sorted = g + ng;
        ns = malloc(ng * sizeof *ns);
        group = malloc(x->k * sizeof *group);
        const struct rd_summary **sums = malloc(ng * sizeof *sums);
        if (!g || !ns || !group || !sums) {
            free(g);
            free(ns);
            free(group);
            free(sums);
            return RD_ERR_NOMEM;
        }
        size_t j = 0;
        for (size_t i = 0; i < x->k; i++)
            if (pp[i].have) {
                g[j] = pp[i].used;
                sorted[j] = pp[i].sorted;
                sums[j] = &pp[i].sum; /* of used[0..n_used): the groups' means and variances */
                group[i] = j;
                ns[j++] = pp[i].n_used;
            }
        rd_stats_anova_summarized(g, ns, sums, ng, &t->anova);
        rd_stats_welch_anova_summarized(ns, sums, ng, &t->wanova);
        st = rd_stats_kruskal_sorted_pool(sorted, ns, ng, &t->kw,
                                          ng <= ALL_PAIRS_MAX ? &mw : NULL);
        free(g);
        free(sums);
        if (!st)
            t->have_multi = true;
    }
    if (!st && ng >= 2)
        st = compare_pairs(x, t, pp, ng, &mw, group);
    rd_mw_pool_release(&mw);
    free(ns);
    free(group);
    return st;
}

/* The pairs of t (all, or each with the best) and their tests. */
static rd_status compare_pairs(struct wctx *x, struct tests *t, struct prep *pp, size_t ng,
                               const struct rd_mw_pool *mw, const size_t *group)
{
    if (ng <= ALL_PAIRS_MAX)
        t->scope = "all";
    else if (t->best != SIZE_MAX)
        t->scope = "vs_best";
    else {
        t->scope = "none"; /* too many for all pairs and no direction to pick a best */
        return RD_OK;
    }
    size_t cap = ng <= ALL_PAIRS_MAX ? ng * (ng - 1) / 2 : ng - 1;
    t->pairs = calloc(cap, sizeof *t->pairs);
    if (!t->pairs)
        return RD_ERR_NOMEM;
    if (ng <= ALL_PAIRS_MAX) {
        for (size_t i = 0; i < x->k; i++)
            for (size_t j = i + 1; j < x->k; j++) {
                if (!pp[i].have || !pp[j].have)
                    continue;
                struct pair *pr = &t->pairs[t->npairs++];
                pr->a = i;
                pr->b = j;
                /* Ratios read "against the baseline" when one side is it. */
                if (rd_cfg_is_baseline(x->a, x->cs[i]) && !rd_cfg_is_baseline(x->a, x->cs[j])) {
                    pr->a = j;
                    pr->b = i;
                }
            }
    } else {
        for (size_t i = 0; i < x->k; i++) {
            if (!pp[i].have || i == t->best)
                continue;
            struct pair *pr = &t->pairs[t->npairs++];
            pr->a = i;
            pr->b = t->best;
        }
    }
    double *p = malloc(t->npairs * sizeof *p), *adj = malloc(t->npairs * sizeof *adj);
    if (!p || !adj) {
        free(p);
        free(adj);
        return RD_ERR_NOMEM;
    }
    struct pairs_job job = {t, pp, p, mw, group};
    rd_status st = rd_wctx_halves(x, t->npairs, 2 * x->a->o.config_chunk, pair_range, &job);
    if (!st)
        st = rd_stats_holm(p, t->npairs, adj);
    for (size_t i = 0; i < t->npairs && !st; i++)
        t->pairs[i].p_holm = adj[i];
    if (!st)
        st = rd_stats_bh(p, t->npairs, adj);
    for (size_t i = 0; i < t->npairs && !st; i++)
        t->pairs[i].p_bh = adj[i];
    free(p);
    free(adj);
    return st;
}

const struct pair *rd_compare_find_pair(const struct tests *t, size_t u, size_t v)
{
    /* Against the best, the pairs are (i, best) in increasing i: a binary
     * search, since the recommendation looks up one pair per config and a
     * scan made 10^5 configs quadratic. All pairs are at most 435. */
    if (strcmp(t->scope, "vs_best") == 0 && (u == t->best || v == t->best)) {
        size_t other = u == t->best ? v : u, lo = 0, hi = t->npairs;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (t->pairs[mid].a < other)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < t->npairs && t->pairs[lo].a == other && t->pairs[lo].b == t->best
                   ? &t->pairs[lo]
                   : NULL;
    }
    for (size_t i = 0; i < t->npairs; i++)
        if ((t->pairs[i].a == u && t->pairs[i].b == v) ||
            (t->pairs[i].a == v && t->pairs[i].b == u))
            return &t->pairs[i];
    return NULL;
}

/* The baseline config for c: the one matching --baseline whose other labels
 * equal c's; or the only baseline config of the workload. */
static size_t baseline_for(const struct wctx *x, size_t ci)
{
    const struct rd_analysis *a = x->a;
    const struct cfg *c = x->cs[ci];
    size_t only = SIZE_MAX, count = 0;
    for (size_t j = 0; j < x->k; j++) {
        const struct cfg *b = x->cs[j];
        if (!rd_cfg_is_baseline(a, b))
            continue;
        count++;
        only = j;
        if (b->nlabels != c->nlabels)
            continue;
        bool same = true;
        for (size_t l = 0; l < b->nlabels && same; l++)
            same = strcmp(b->labels[l].key, c->labels[l].key) == 0 &&
                   (strcmp(b->labels[l].key, a->o.baseline_key) == 0 ||
                    strcmp(b->labels[l].value, c->labels[l].value) == 0);
        if (same)
            return j;
    }
    return count == 1 ? only : SIZE_MAX;
}

bool rd_compare_baseline(const struct wctx *x, size_t i, struct baseline_cmp *out)
{
    /* Without a primary metric there is nothing to compare on (and no
     * prepared values: x->preps has no row). */
    if (!x->a->o.baseline_key || !x->have_primary)
        return false;
    size_t b = baseline_for(x, i);
    if (b == SIZE_MAX || b == i)
        return false;
    out->config = b;
    rd_compare_two(&x->preps[i], &x->preps[b], x->a->o.confidence, &out->w, &out->r);
    return true;
}
