/*
 * report.c - turns the values ingest.c kept into rundown.analysis/1.
 *
 * Per workload: configs sorted by id, each metric's descriptives, then the
 * tests on the primary metric (every metric with --all-metrics), the
 * recommendation and the warnings. Everything is computed from the values
 * in run order, so the same stores give the same bytes. Anything a method
 * cannot define for the data (the sd of one run, a test between constant
 * groups, a ratio CI whose denominator may be 0) is written as null and
 * explained by a warning, never replaced by a number.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "jw.h"
#include "rundown/json.h"
#include "rundown/metrics.h"
#include "stats.h"

/* Above this many configs a workload compares each config with the best
 * only: all pairs would be k(k-1)/2 tests (half a million at k = 1000). */
#define ALL_PAIRS_MAX 30

/* Largest n for the bootstrap CI of the median, when --bootstrap asks for
 * it (see prep_series). */
#define BOOTSTRAP_MAX_N 50

/* One metric of one config, ready for output and tests. */
struct prep {
    bool have;
    size_t n_all, n_used, noutl;
    double *all;      /* values in run order */
    double *used;     /* all, or all without outliers (--exclude-outliers) */
    double *sorted;   /* used, ascending */
    size_t *outl;     /* indices into all */
    struct rd_summary sum;
    double med_lo, med_hi, med_level;
    struct rd_trend trend;
    bool tested;
    const char *med_method;   /* "binomial" or "bootstrap" */
};

struct pair {
    size_t a, b;      /* positions in the workload's sorted config list */
    struct rd_welch w;
    struct rd_mwu mw;
    double g, p_holm, p_bh;
    struct rd_ratio r;
};

struct warn {
    const char *code, *config, *metric;
    char *msg;
};

struct tests {
    uint32_t metric;
    enum rd_better better;
    struct rd_anova anova, wanova;
    struct rd_kruskal kw;
    bool have_multi;
    struct pair *pairs;
    size_t npairs;
    size_t best;      /* position of the best config, or SIZE_MAX */
    const char *scope; /* "all", "vs_best" or "none" */
};

/* Everything about the workload being written. */
struct wctx {
    struct rd_analysis *a;
    struct wl *w;
    struct cfg **cs;          /* sorted by id */
    size_t k;
    uint32_t *mets;           /* metrics present, sorted by name */
    size_t nmets;
    uint32_t primary;
    enum rd_better better;
    uint32_t *tested;         /* metrics with tests */
    size_t ntested;
    struct prep *preps;       /* [tested index][config] */
    struct tests *tests;      /* [tested index] */
    struct warn *warns;
    size_t nwarns, capwarns;
    struct rd_arena tmp;      /* warning text, per workload */
    double *scratch;
    size_t scratch_cap;
};

static int cmp_cfg(const void *x, const void *y)
{
    const struct cfg *const *a = x, *const *b = y;
    return strcmp((*a)->id, (*b)->id);
}

struct named_metric {
    const char *name;
    uint32_t id;
};

static int cmp_named_metric(const void *x, const void *y)
{
    const struct named_metric *a = x, *b = y;
    return strcmp(a->name, b->name);
}

static int cmp_env(const void *x, const void *y)
{
    const struct envref *a = x, *b = y;
    return strcmp(a->id, b->id);
}

static struct series *find_series(const struct cfg *c, uint32_t metric)
{
    for (uint32_t i = 0; i < c->nseries; i++)
        if (c->series[i].metric == metric)
            return &c->series[i];
    return NULL;
}

static int64_t metric_id(const struct rd_analysis *a, const char *name)
{
    if (!name)
        return -1;
    return rd_smap_find(&a->metric_map, a->metrics, name);
}

static bool wl_has_metric(const struct wctx *x, int64_t id)
{
    if (id < 0)
        return false;
    for (size_t i = 0; i < x->nmets; i++)
        if (x->mets[i] == (uint32_t)id)
            return true;
    return false;
}

static rd_status warnf(struct wctx *x, const char *code, const char *config,
                       const char *metric, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static rd_status warnf(struct wctx *x, const char *code, const char *config,
                       const char *metric, const char *fmt, ...)
{
    if (rd_grow((void **)&x->warns, &x->capwarns, x->nwarns + 1, sizeof *x->warns))
        return RD_ERR_NOMEM;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct warn *wn = &x->warns[x->nwarns];
    wn->code = code;
    wn->config = config;
    wn->metric = metric;
    wn->msg = rd_arena_strdup(&x->tmp, msg);
    if (!wn->msg)
        return RD_ERR_NOMEM;
    x->nwarns++;
    return RD_OK;
}

struct ordpos {
    uint32_t ord, pos;
};

static int cmp_ordpos(const void *x, const void *y)
{
    const struct ordpos *a = x, *b = y;
    if (a->ord != b->ord)
        return a->ord < b->ord ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Copies s's values into out in run order (stable for equal run numbers). */
static rd_status ordered_values(const struct series *s, double *out)
{
    bool sorted = true;
    for (uint32_t i = 1; i < s->len && sorted; i++)
        sorted = s->ord[i - 1] <= s->ord[i];
    if (sorted) {
        memcpy(out, s->v, s->len * sizeof *out);
        return RD_OK;
    }
    struct ordpos *op = malloc(s->len * sizeof *op);
    if (!op)
        return RD_ERR_NOMEM;
    for (uint32_t i = 0; i < s->len; i++) {
        op[i].ord = s->ord[i];
        op[i].pos = i;
    }
    qsort(op, s->len, sizeof *op, cmp_ordpos);
    for (uint32_t i = 0; i < s->len; i++)
        out[i] = s->v[op[i].pos];
    free(op);
    return RD_OK;
}

static rd_status need_scratch(struct wctx *x, size_t n)
{
    return rd_grow((void **)&x->scratch, &x->scratch_cap, n ? n : 1, sizeof *x->scratch);
}

static void prep_release(struct prep *p)
{
    if (p->used != p->all)
        free(p->used);
    free(p->all);
    free(p->outl);
    free(p->sorted);
    memset(p, 0, sizeof *p);
}

/* Fills p for series s (NULL: the config lacks the metric). 'full' adds the
 * bootstrap CI of the median and the trend test (tested metrics only). */
static rd_status prep_series(struct wctx *x, const struct series *s, bool full, struct prep *p)
{
    memset(p, 0, sizeof *p);
    p->med_lo = p->med_hi = p->med_level = NAN;
    p->trend.s = p->trend.tau = p->trend.z = p->trend.p = NAN;
    p->tested = full;
    if (!s || s->len == 0) {
        rd_stats_summarize(NULL, 0, x->a->o.confidence, NULL, &p->sum);
        return RD_OK;
    }
    p->have = true;
    size_t n = s->len;
    p->all = malloc(n * sizeof *p->all);
    p->outl = malloc(n * sizeof *p->outl);
    if (!p->all || !p->outl || need_scratch(x, n))
        return RD_ERR_NOMEM;
    rd_status st = ordered_values(s, p->all);
    if (st)
        return st;
    p->n_all = n;
    /* Outliers are judged on every value, so the flags do not depend on
     * whether they are then excluded. */
    memcpy(x->scratch, p->all, n * sizeof *p->all);
    rd_stats_sort(x->scratch, n);
    double q1 = rd_stats_quantile_sorted(x->scratch, n, 0.25);
    double q3 = rd_stats_quantile_sorted(x->scratch, n, 0.75);
    p->noutl = rd_stats_tukey(p->all, n, q1, q3, p->outl);
    p->used = p->all;
    p->n_used = n;
    if (x->a->o.exclude_outliers && p->noutl > 0) {
        p->used = malloc(n * sizeof *p->used);
        if (!p->used)
            return RD_ERR_NOMEM;
        size_t k = 0, o = 0;
        for (size_t i = 0; i < n; i++) {
            if (o < p->noutl && p->outl[o] == i) {
                o++;
                continue;
            }
            p->used[k++] = p->all[i];
        }
        p->n_used = k;
    }
    /* Without exclusions the sorted copy above is the sorted sample: one
     * sort per series serves the summary, the tests and the median CI. */
    if (p->used == p->all)
        rd_stats_summarize_sorted(p->used, x->scratch, n, x->a->o.confidence, &p->sum);
    else
        rd_stats_summarize(p->used, p->n_used, x->a->o.confidence, x->scratch, &p->sum);
    if (full) {
        p->sorted = malloc(p->n_used * sizeof *p->sorted + 1);
        if (!p->sorted)
            return RD_ERR_NOMEM;
        memcpy(p->sorted, x->scratch, p->n_used * sizeof *p->sorted);
        /* The exact order-statistic interval is the default: deterministic,
         * O(log n), and its coverage is known. The bootstrap only runs when
         * asked for (--bootstrap B > 0), and only up to BOOTSTRAP_MAX_N
         * values, past which it would cost B x n draws for nothing. */
        if (x->a->o.bootstrap > 0 && p->n_used <= BOOTSTRAP_MAX_N) {
            p->med_method = "bootstrap";
            st = rd_stats_bootstrap_median(p->used, p->n_used, x->a->o.bootstrap,
                                           x->a->o.seed, x->a->o.confidence, &p->med_lo,
                                           &p->med_hi);
            if (st)
                return st;
        } else {
            p->med_method = "binomial";
            rd_stats_median_ci_binomial(p->sorted, p->n_used, x->a->o.confidence, &p->med_lo,
                                        &p->med_hi, &p->med_level);
        }
        rd_stats_mann_kendall(p->used, p->n_used, &p->trend);
    }
    return RD_OK;
}

static enum rd_better metric_better(const struct rd_analysis *a, uint32_t m)
{
    struct rd_metric_def def;
    rd_metric_describe(a->metrics[m], &def);
    return def.better;
}

/* Is mean u better than mean v under direction b? */
static bool better_than(double u, double v, enum rd_better b)
{
    if (isnan(u))
        return false;
    if (isnan(v))
        return true;
    return b == RD_BETTER_HIGHER ? u > v : u < v;
}

static bool is_baseline(const struct rd_analysis *a, const struct cfg *c)
{
    if (!a->o.baseline_key)
        return false;
    for (size_t i = 0; i < c->nlabels; i++)
        if (strcmp(c->labels[i].key, a->o.baseline_key) == 0)
            return strcmp(c->labels[i].value, a->o.baseline_val) == 0;
    return false;
}

static void fill_pair(struct wctx *x, struct prep *pp, struct pair *pr)
{
    const struct prep *pa = &pp[pr->a], *pb = &pp[pr->b];
    double conf = x->a->o.confidence;
    rd_stats_welch_summary(pa->sum.mean, pa->sum.sd, (double)pa->n_used, pb->sum.mean,
                           pb->sum.sd, (double)pb->n_used, conf, &pr->w);
    pr->g = rd_stats_hedges_g(pa->sum.mean, pa->sum.sd, (double)pa->n_used, pb->sum.mean,
                              pb->sum.sd, (double)pb->n_used);
    rd_stats_ratio_fieller(pa->sum.mean, pa->sum.sd, (double)pa->n_used, pb->sum.mean,
                           pb->sum.sd, (double)pb->n_used, conf, &pr->r);
}

static rd_status run_tests(struct wctx *x, size_t ti)
{
    struct tests *t = &x->tests[ti];
    struct prep *pp = x->preps + ti * x->k;
    t->metric = x->tested[ti];
    t->better = t->metric == x->primary ? x->better : metric_better(x->a, t->metric);
    t->best = SIZE_MAX;
    t->scope = "all";
    size_t ng = 0;
    for (size_t i = 0; i < x->k; i++) {
        if (!pp[i].have)
            continue;
        ng++;
        if (t->better != RD_BETTER_NONE &&
            (t->best == SIZE_MAX || better_than(pp[i].sum.mean, pp[t->best].sum.mean, t->better)))
            t->best = i;
    }
    t->anova.f = t->anova.df1 = t->anova.df2 = t->anova.p = NAN;
    t->wanova = t->anova;
    t->kw.h = t->kw.df = t->kw.p = NAN;
    if (ng >= 3) {
        const double **g = malloc(ng * sizeof *g);
        size_t *ns = malloc(ng * sizeof *ns);
        if (!g || !ns) {
            free(g);
            free(ns);
            return RD_ERR_NOMEM;
        }
        size_t j = 0;
        for (size_t i = 0; i < x->k; i++)
            if (pp[i].have) {
                g[j] = pp[i].used;
                ns[j++] = pp[i].n_used;
            }
        rd_stats_anova(g, ns, ng, &t->anova);
        rd_stats_welch_anova(g, ns, ng, &t->wanova);
        rd_status st = rd_stats_kruskal(g, ns, ng, &t->kw);
        free(g);
        free(ns);
        if (st)
            return st;
        t->have_multi = true;
    }
    if (ng < 2)
        return RD_OK;

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
                if (is_baseline(x->a, x->cs[i]) && !is_baseline(x->a, x->cs[j])) {
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
    rd_status st = RD_OK;
    for (size_t i = 0; i < t->npairs && !st; i++) {
        struct pair *pr = &t->pairs[i];
        fill_pair(x, pp, pr);
        st = rd_stats_mann_whitney_sorted(pp[pr->a].sorted, pp[pr->a].n_used, pp[pr->b].sorted,
                                          pp[pr->b].n_used, &pr->mw);
        p[i] = pr->w.p;
    }
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

static const struct pair *find_pair(const struct tests *t, size_t u, size_t v)
{
    for (size_t i = 0; i < t->npairs; i++)
        if ((t->pairs[i].a == u && t->pairs[i].b == v) ||
            (t->pairs[i].a == v && t->pairs[i].b == u))
            return &t->pairs[i];
    return NULL;
}

/* ---- text of the recommendation ---- */

/* A value with about three significant digits, no exponent. */
static void fmt_val(double v, char *out, size_t size)
{
    double m = fabs(v);
    if (isnan(v))
        snprintf(out, size, "n/a");
    else if (m >= 100)
        snprintf(out, size, "%.0f", v);
    else if (m >= 10)
        snprintf(out, size, "%.1f", v);
    else if (m >= 1)
        snprintf(out, size, "%.2f", v);
    else
        snprintf(out, size, "%.3g", v);
}

static void fmt_pct(double v, char *out, size_t size)
{
    /* 9.95 and up print as "10", not "10.0": one style per magnitude. */
    snprintf(out, size, fabs(v) >= 9.95 ? "%.0f" : "%.1f", v);
}

static void fmt_p(const char *name, double p, char *out, size_t size)
{
    if (isnan(p))
        snprintf(out, size, "%s undefined", name);
    else if (p < 0.001)
        snprintf(out, size, "%s < 0.001", name);
    else
        snprintf(out, size, "%s = %.3f", name, p);
}

/* For other / best = ratio [lo, hi]: *head = "24 % slower", *ci = "95 % CI
 * 20–28 %" (or "95 % CI from 3 % faster to 9 % slower" when the CI
 * straddles no difference, or "95 % CI undefined"). */
static void fmt_margin(const struct wctx *x, uint32_t metric, const struct rd_ratio *r,
                       char *head, size_t hsize, char *ci, size_t csize)
{
    struct rd_metric_def def;
    rd_metric_describe(x->a->metrics[metric], &def);
    bool time = strcmp(def.unit, "ms") == 0 || strcmp(def.unit, "s") == 0 ||
                strcmp(def.unit, "us") == 0 || strcmp(def.unit, "ns") == 0;
    bool rate = strstr(def.unit, "/s") != NULL;
    const char *up = time ? "slower" : rate ? "faster" : "higher";
    const char *down = time ? "faster" : rate ? "slower" : "lower";
    double pct = (r->ratio - 1) * 100;
    double lo = (r->ci_low - 1) * 100, hi = (r->ci_high - 1) * 100;
    const char *word = up, *other = down;
    if (pct < 0) {
        /* Say it in the direction of the estimate: "27 % slower". */
        double t = -hi;
        hi = -lo;
        lo = t;
        pct = -pct;
        word = down;
        other = up;
    }
    char a[32], b[32], c[32];
    fmt_pct(pct, a, sizeof a);
    snprintf(head, hsize, "%s %% %s", a, word);
    double level = x->a->o.confidence * 100;
    if (isnan(lo) || isnan(hi)) {
        snprintf(ci, csize, "%g %% CI undefined", level);
    } else if (lo < 0) {
        fmt_pct(-lo, b, sizeof b);
        fmt_pct(hi, c, sizeof c);
        snprintf(ci, csize, "%g %% CI from %s %% %s to %s %% %s", level, b, other, c, word);
    } else {
        fmt_pct(lo, b, sizeof b);
        fmt_pct(hi, c, sizeof c);
        snprintf(ci, csize, "%g %% CI %s\u2013%s %%", level, b, c);
    }
}

/* "bun/worker": label values joined by '/', in key order. */
static void display_name(const struct cfg *c, char *out, size_t size)
{
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < c->nlabels && o + 1 < size; i++) {
        int n = snprintf(out + o, size - o, "%s%s", i ? "/" : "", c->labels[i].value);
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (c->nlabels == 0)
        snprintf(out, size, "(no labels)");
}

struct reco {
    bool have;
    size_t best, recommended;
    size_t *tied;
    size_t ntied;
    int64_t tie_metric;
    char reason[2048];
};

static int64_t pick_tie_breaker(const struct wctx *x)
{
    int64_t id = metric_id(x->a, x->w->tie_breaker);
    if (wl_has_metric(x, id))
        return id;
    id = metric_id(x->a, "max_rss_kib");
    if (wl_has_metric(x, id))
        return id;
    id = metric_id(x->a, "server_rss_peak_kib");
    if (wl_has_metric(x, id))
        return id;
    return -1;
}

static rd_status recommend(struct wctx *x, struct reco *rc)
{
    memset(rc, 0, sizeof *rc);
    rc->tie_metric = pick_tie_breaker(x);
    const struct tests *t = &x->tests[0]; /* tested[0] is the primary */
    const struct prep *pp = x->preps;
    if (t->best == SIZE_MAX)
        return RD_OK;
    rc->have = true;
    rc->best = rc->recommended = t->best;
    rc->tied = malloc(x->k * sizeof *rc->tied);
    if (!rc->tied)
        return RD_ERR_NOMEM;
    size_t runner = SIZE_MAX;
    for (size_t i = 0; i < x->k; i++) {
        if (!pp[i].have || i == t->best)
            continue;
        if (runner == SIZE_MAX || better_than(pp[i].sum.mean, pp[runner].sum.mean, t->better))
            runner = i;
        const struct pair *pr = find_pair(t, i, t->best);
        /* An undefined test cannot show a difference: the config stays tied. */
        if (!pr || isnan(pr->p_holm) || pr->p_holm >= x->a->o.alpha)
            rc->tied[rc->ntied++] = i;
    }
    /* Among the best and its ties, the best on the tie-breaker (memory). */
    double tb_best = NAN;
    if (rc->tie_metric >= 0 && rc->ntied > 0) {
        enum rd_better tb_dir = metric_better(x->a, (uint32_t)rc->tie_metric);
        if (tb_dir == RD_BETTER_NONE)
            tb_dir = RD_BETTER_LOWER;
        size_t cand = SIZE_MAX;
        for (size_t j = 0; j <= rc->ntied; j++) {
            size_t i = j == 0 ? t->best : rc->tied[j - 1];
            const struct series *s = find_series(x->cs[i], (uint32_t)rc->tie_metric);
            if (!s || s->len == 0)
                continue;
            double m = rd_stats_mean(s->v, s->len);
            if (cand == SIZE_MAX || better_than(m, tb_best, tb_dir)) {
                cand = i;
                tb_best = m;
            }
        }
        if (cand != SIZE_MAX)
            rc->recommended = cand;
    }

    const struct prep *pr = &pp[rc->recommended];
    const char *mname = x->a->metrics[x->primary];
    struct rd_metric_def def;
    rd_metric_describe(mname, &def);
    char name[256], mean[32], half[32], head[400];
    display_name(x->cs[rc->recommended], name, sizeof name);
    fmt_val(pr->sum.mean, mean, sizeof mean);
    if (isnan(pr->sum.ci_high))
        snprintf(head, sizeof head, "%s: %s %s (CI undefined)", name, mean, def.unit);
    else {
        fmt_val(pr->sum.ci_high - pr->sum.mean, half, sizeof half);
        snprintf(head, sizeof head, "%s: %s %s \u00b1 %s", name, mean, def.unit, half);
    }
    if (runner == SIZE_MAX) {
        snprintf(rc->reason, sizeof rc->reason, "%s; the only config measured", head);
        return RD_OK;
    }
    double conf = x->a->o.confidence;
    if (rc->recommended == t->best) {
        struct rd_ratio r;
        const struct prep *pb = &pp[t->best], *pu = &pp[runner];
        rd_stats_ratio_fieller(pu->sum.mean, pu->sum.sd, (double)pu->n_used, pb->sum.mean,
                               pb->sum.sd, (double)pb->n_used, conf, &r);
        const struct pair *pair = find_pair(t, runner, t->best);
        char rn[256], mh[64], mci[160], p[64];
        display_name(x->cs[runner], rn, sizeof rn);
        fmt_margin(x, x->primary, &r, mh, sizeof mh, mci, sizeof mci);
        fmt_p("p_holm", pair ? pair->p_holm : NAN, p, sizeof p);
        int n = snprintf(rc->reason, sizeof rc->reason, "%s; %s is %s (%s, %s)", head, rn, mh,
                         mci, p);
        if (rc->ntied > 0 && n > 0 && (size_t)n < sizeof rc->reason)
            snprintf(rc->reason + n, sizeof rc->reason - (size_t)n,
                     "; not significantly different from %zu other config%s at alpha %g",
                     rc->ntied, rc->ntied == 1 ? "" : "s", x->a->o.alpha);
        return RD_OK;
    }
    /* Tied with the best and better on the tie-breaker. */
    struct rd_ratio r;
    const struct prep *pb = &pp[t->best];
    rd_stats_ratio_fieller(pr->sum.mean, pr->sum.sd, (double)pr->n_used, pb->sum.mean,
                           pb->sum.sd, (double)pb->n_used, conf, &r);
    const struct pair *pair = find_pair(t, rc->recommended, t->best);
    char bn[256], mh[64], mci[160], p[64], v1[32], v2[32];
    display_name(x->cs[t->best], bn, sizeof bn);
    fmt_margin(x, x->primary, &r, mh, sizeof mh, mci, sizeof mci);
    fmt_p("p_holm", pair ? pair->p_holm : NAN, p, sizeof p);
    const struct series *sb = find_series(x->cs[t->best], (uint32_t)rc->tie_metric);
    struct rd_metric_def tdef;
    rd_metric_describe(x->a->metrics[rc->tie_metric], &tdef);
    fmt_val(tb_best, v1, sizeof v1);
    fmt_val(sb && sb->len ? rd_stats_mean(sb->v, sb->len) : NAN, v2, sizeof v2);
    snprintf(rc->reason, sizeof rc->reason,
             "%s; statistically tied with %s (%s than it, %s, %s) and lower %.100s (%s vs %s %.16s)",
             head, bn, mh, mci, p, x->a->metrics[rc->tie_metric], v1, v2, tdef.unit);
    return RD_OK;
}

/* ---- warnings ---- */

static rd_status collect_warnings(struct wctx *x, const struct reco *rc)
{
    rd_status st = RD_OK;
    double alpha = x->a->o.alpha;
    /* A workload whose runs hold no metric at all has no primary metric and
     * no prepared series: x->preps has no row then (found by fuzz_analyze:
     * a store of runs with "metrics": {} crashed here). */
    bool have_primary = x->ntested > 0;
    const char *pm = have_primary ? x->a->metrics[x->primary] : NULL;
    for (size_t i = 0; i < x->k && !st; i++) {
        const struct cfg *c = x->cs[i];
        const struct prep *pp = have_primary ? &x->preps[i] : NULL;
        if (c->env_other)
            st = warnf(x, "mixed_envs", c->id, NULL,
                       "runs from environments '%s' and '%s' pooled (--pool-envs)", c->env,
                       c->env_other);
        if (!st && c->failed + c->timeouts > 0)
            st = warnf(x, "failed_runs", c->id, NULL,
                       "%zu of %zu runs failed or timed out (%zu timeouts); excluded from the statistics",
                       c->failed + c->timeouts, c->failed + c->timeouts + c->ok_runs, c->timeouts);
        if (!st && c->load_error_runs > 0)
            st = warnf(x, "load_errors", c->id, NULL,
                       "%zu of %zu runs report socket errors or non-2xx responses",
                       c->load_error_runs, c->ok_runs);
        if (!st && !pp)
            st = warnf(x, "no_data", c->id, NULL, "no successful run measured any metric");
        else if (!st && !pp->have)
            st = warnf(x, "no_data", c->id, pm, "no successful run measured %s", pm);
        else if (!st && pp->n_used < 5)
            st = warnf(x, "few_runs", c->id, pm,
                       "only %zu run%s of %s; fewer than 5 give wide intervals and weak tests",
                       pp->n_used, pp->n_used == 1 ? "" : "s", pm);
        for (size_t ti = 0; ti < x->ntested && !st; ti++) {
            const struct prep *p = &x->preps[ti * x->k + i];
            const char *mn = x->a->metrics[x->tested[ti]];
            if (!p->have)
                continue;
            if (p->n_used < 2)
                st = warnf(x, "undefined", c->id, mn,
                           "sd, se and CI of %s are undefined with one run", mn);
            if (!st && p->med_method && strcmp(p->med_method, "binomial") == 0 &&
                isnan(p->med_lo))
                st = warnf(x, "undefined", c->id, mn,
                           "CI of the median of %s is undefined with %zu runs: no interval "
                           "between order statistics reaches %g %% confidence",
                           mn, p->n_used, x->a->o.confidence * 100);
            if (!st && p->sum.cv > 0.10)
                st = warnf(x, "high_cv", c->id, mn, "CV of %s is %.1f %% (> 10 %%)", mn,
                           p->sum.cv * 100);
            if (!st && p->noutl > 0) {
                char idx[200];
                size_t o = 0;
                idx[0] = '\0';
                for (size_t j = 0; j < p->noutl && o + 16 < sizeof idx; j++)
                    o += (size_t)snprintf(idx + o, sizeof idx - o, "%s%zu", j ? ", " : "",
                                          p->outl[j]);
                st = warnf(x, "outliers", c->id, mn,
                           "%zu of %zu values of %s outside Tukey's fences (run order index %s)%s",
                           p->noutl, p->n_all, mn, idx,
                           x->a->o.exclude_outliers ? "; excluded" : "; kept");
            }
            if (!st && !isnan(p->trend.p) && p->trend.p < alpha)
                st = warnf(x, "trend", c->id, mn,
                           "%s drifts with run order (Mann-Kendall tau = %.2f, p = %.3g): "
                           "warm-up, throttling or interference",
                           mn, p->trend.tau, p->trend.p);
        }
    }
    for (size_t ti = 0; ti < x->ntested && !st; ti++) {
        const struct tests *t = &x->tests[ti];
        const struct prep *pp = x->preps + ti * x->k;
        const char *mn = x->a->metrics[t->metric];
        /* When no pair can reach alpha by rank, one warning says so for the
         * workload instead of one per pair. */
        size_t weak = 0;
        double worst = 0;
        for (size_t i = 0; i < t->npairs; i++) {
            double mp = rd_stats_mw_min_p(pp[t->pairs[i].a].n_used, pp[t->pairs[i].b].n_used);
            if (mp > alpha)
                weak++;
            if (mp > worst)
                worst = mp;
        }
        bool all_weak = t->npairs > 1 && weak == t->npairs;
        if (all_weak)
            st = warnf(x, "underpowered", NULL, mn,
                       "with these numbers of runs no Mann-Whitney comparison on %s can reach "
                       "p < %g (smallest reachable p up to %.3g); add runs", mn, alpha, worst);
        for (size_t i = 0; i < t->npairs && !st; i++) {
            const struct pair *pr = &t->pairs[i];
            const char *ia = x->cs[pr->a]->id, *ib = x->cs[pr->b]->id;
            if (isnan(pr->w.p))
                st = warnf(x, "undefined", ib, mn,
                           "Welch test of %s vs %s on %s is undefined (n < 2 or zero variance)",
                           ia, ib, mn);
            else if (isnan(pr->r.ci_low) && !isnan(pr->r.ratio))
                st = warnf(x, "undefined", ib, mn,
                           "CI of the ratio %s / %s on %s is unbounded (the denominator's CI contains 0)",
                           ia, ib, mn);
            if (!st && !all_weak && rd_stats_mw_min_p(pp[pr->a].n_used, pp[pr->b].n_used) > alpha)
                st = warnf(x, "underpowered", ib, mn,
                           "%s vs %s on %s: with n = %zu and %zu the Mann-Whitney test cannot "
                           "reach p < %g",
                           ia, ib, mn, pp[pr->a].n_used, pp[pr->b].n_used, alpha);
        }
    }
    if (!st && rc->have == false && x->k > 0 && have_primary)
        st = warnf(x, "no_recommendation", NULL, pm,
                   "%s has no better direction; no config is recommended", pm);
    return st;
}

/* ---- output ---- */

static void write_summary(struct jw *w, const char *name, const struct prep *p,
                          const struct rd_analysis *a)
{
    struct rd_metric_def def;
    rd_metric_describe(name, &def);
    const struct rd_summary *s = &p->sum;
    jw_obj(w, name, true);
    jw_num(w, "n", (double)p->n_used);
    jw_num(w, "mean", s->mean);
    jw_num(w, "sd", s->sd);
    jw_num(w, "se", s->se);
    jw_num(w, "ci_low", s->ci_low);
    jw_num(w, "ci_high", s->ci_high);
    jw_num(w, "median", s->median);
    jw_num(w, "min", s->min);
    jw_num(w, "max", s->max);
    jw_num(w, "q1", s->q1);
    jw_num(w, "q3", s->q3);
    jw_num(w, "p90", s->p90);
    jw_num(w, "p95", s->p95);
    jw_num(w, "p99", s->p99);
    jw_num(w, "mad", s->mad);
    jw_num(w, "cv", s->cv);
    jw_num(w, "geomean", s->geomean);
    jw_arr(w, "outliers", false);
    for (size_t i = 0; i < p->noutl; i++)
        jw_num(w, NULL, (double)p->outl[i]);
    jw_end(w, ']');
    jw_arr(w, "values", false);
    for (size_t i = 0; i < p->n_all; i++)
        jw_num(w, NULL, p->all[i]);
    jw_end(w, ']');
    jw_str(w, "unit", def.unit);
    jw_str(w, "better", rd_better_name(def.better));
    if (a->o.exclude_outliers)
        jw_num(w, "excluded", (double)(p->n_all - p->n_used));
    if (p->tested) {
        jw_num(w, "median_ci_low", p->med_lo);
        jw_num(w, "median_ci_high", p->med_hi);
        jw_str(w, "median_ci_method", p->med_method);
        /* The bootstrap's coverage is nominal; only the exact interval has one. */
        if (p->med_method && strcmp(p->med_method, "binomial") == 0)
            jw_num(w, "median_ci_level", p->med_level);
        jw_obj(w, "trend", false);
        jw_num(w, "s", p->trend.s);
        jw_num(w, "tau", p->trend.tau);
        jw_num(w, "p", p->trend.p);
        jw_end(w, '}');
    }
    jw_end(w, '}');
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
        if (!is_baseline(a, b))
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

static void write_config(struct wctx *x, struct jw *w, size_t i)
{
    const struct cfg *c = x->cs[i];
    struct rd_analysis *a = x->a;
    char disp[256];
    display_name(c, disp, sizeof disp);
    jw_obj(w, NULL, true);
    jw_str(w, "id", c->id);
    jw_obj(w, "labels", false);
    for (size_t l = 0; l < c->nlabels; l++)
        jw_str(w, c->labels[l].key, c->labels[l].value);
    jw_end(w, '}');
    jw_str(w, "display", disp);
    jw_str(w, "env", c->env);
    jw_num(w, "runs", (double)(c->ok_runs + c->failed + c->timeouts));
    jw_num(w, "failed_runs", (double)(c->failed + c->timeouts));
    jw_num(w, "timeout_runs", (double)c->timeouts);
    jw_num(w, "load_error_runs", (double)c->load_error_runs);
    jw_obj(w, "metrics", true);
    for (size_t m = 0; m < x->nmets && !w->st; m++) {
        uint32_t id = x->mets[m];
        const struct series *s = find_series(c, id);
        if (!s)
            continue;
        size_t ti = SIZE_MAX;
        for (size_t t = 0; t < x->ntested; t++)
            if (x->tested[t] == id)
                ti = t;
        if (ti != SIZE_MAX) {
            write_summary(w, a->metrics[id], &x->preps[ti * x->k + i], a);
        } else {
            struct prep p;
            if (prep_series(x, s, false, &p)) {
                w->st = RD_ERR_NOMEM;
                prep_release(&p);
                break;
            }
            write_summary(w, a->metrics[id], &p, a);
            prep_release(&p);
        }
    }
    jw_end(w, '}');
    if (a->o.baseline_key) {
        size_t b = baseline_for(x, i);
        if (b == SIZE_MAX || b == i) {
            jw_null(w, "baseline");
        } else {
            const struct prep *pa = &x->preps[i], *pb = &x->preps[b];
            struct rd_welch wt;
            struct rd_ratio r;
            double conf = a->o.confidence;
            rd_stats_welch_summary(pa->sum.mean, pa->sum.sd, (double)pa->n_used, pb->sum.mean,
                                   pb->sum.sd, (double)pb->n_used, conf, &wt);
            rd_stats_ratio_fieller(pa->sum.mean, pa->sum.sd, (double)pa->n_used, pb->sum.mean,
                                   pb->sum.sd, (double)pb->n_used, conf, &r);
            jw_obj(w, "baseline", true);
            jw_str(w, "config", x->cs[b]->id);
            jw_str(w, "metric", a->metrics[x->primary]);
            jw_num(w, "ratio", r.ratio);
            jw_num(w, "ratio_ci_low", r.ci_low);
            jw_num(w, "ratio_ci_high", r.ci_high);
            jw_num(w, "diff", wt.diff);
            jw_num(w, "diff_ci_low", wt.ci_low);
            jw_num(w, "diff_ci_high", wt.ci_high);
            jw_num(w, "welch_t", wt.t);
            jw_num(w, "welch_df", wt.df);
            jw_num(w, "p", wt.p);
            jw_end(w, '}');
        }
    }
    jw_end(w, '}');
}

static void write_anova(struct jw *w, const char *key, const struct rd_anova *an)
{
    jw_obj(w, key, false);
    jw_num(w, "f", an->f);
    jw_num(w, "df1", an->df1);
    jw_num(w, "df2", an->df2);
    jw_num(w, "p", an->p);
    jw_end(w, '}');
}

static void write_tests(struct wctx *x, struct jw *w, const char *key, size_t ti)
{
    const struct tests *t = &x->tests[ti];
    jw_obj(w, key, true);
    jw_str(w, "metric", x->a->metrics[t->metric]);
    jw_str(w, "better", rd_better_name(t->better));
    if (t->have_multi) {
        write_anova(w, "anova", &t->anova);
        write_anova(w, "welch_anova", &t->wanova);
        jw_obj(w, "kruskal", false);
        jw_num(w, "h", t->kw.h);
        jw_num(w, "df", t->kw.df);
        jw_num(w, "p", t->kw.p);
        jw_end(w, '}');
    } else {
        jw_null(w, "anova");
        jw_null(w, "welch_anova");
        jw_null(w, "kruskal");
    }
    jw_str(w, "pairs_scope", t->scope);
    jw_str(w, "ratio_method", "fieller");
    jw_arr(w, "pairs", true);
    for (size_t i = 0; i < t->npairs; i++) {
        const struct pair *pr = &t->pairs[i];
        jw_obj(w, NULL, true);
        jw_str(w, "a", x->cs[pr->a]->id);
        jw_str(w, "b", x->cs[pr->b]->id);
        jw_num(w, "welch_t", pr->w.t);
        jw_num(w, "welch_df", pr->w.df);
        jw_num(w, "p", pr->w.p);
        jw_num(w, "p_holm", pr->p_holm);
        jw_num(w, "p_bh", pr->p_bh);
        jw_num(w, "mw_u", pr->mw.u);
        jw_num(w, "mw_p", pr->mw.p);
        jw_str(w, "mw_method", isnan(pr->mw.p) ? NULL : pr->mw.exact ? "exact" : "asymptotic");
        jw_num(w, "hedges_g", pr->g);
        jw_num(w, "prob_superiority", pr->mw.a);
        jw_num(w, "diff", pr->w.diff);
        jw_num(w, "diff_ci_low", pr->w.ci_low);
        jw_num(w, "diff_ci_high", pr->w.ci_high);
        jw_num(w, "ratio", pr->r.ratio);
        jw_num(w, "ratio_ci_low", pr->r.ci_low);
        jw_num(w, "ratio_ci_high", pr->r.ci_high);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
}

static void wctx_release(struct wctx *x)
{
    if (x->preps)
        for (size_t i = 0; i < x->ntested * x->k; i++)
            prep_release(&x->preps[i]);
    if (x->tests)
        for (size_t i = 0; i < x->ntested; i++)
            free(x->tests[i].pairs);
    free(x->preps);
    free(x->tests);
    free(x->cs);
    free(x->mets);
    free(x->tested);
    free(x->warns);
    free(x->scratch);
    rd_arena_release(&x->tmp);
}

static int64_t pick_primary(const struct wctx *x)
{
    const struct rd_analysis *a = x->a;
    int64_t id = metric_id(a, x->w->primary);
    if (wl_has_metric(x, id))
        return id;
    if (wl_has_metric(x, id = metric_id(a, a->o.metric)))
        return id;
    if (wl_has_metric(x, id = metric_id(a, "rps")))
        return id;
    if (wl_has_metric(x, id = metric_id(a, "wall_ms")))
        return id;
    if (wl_has_metric(x, x->w->first_metric))
        return x->w->first_metric;
    return x->nmets ? (int64_t)x->mets[0] : -1;
}

/* by_name: every metric id of a, ordered by name. */
static rd_status write_workload(struct rd_analysis *a, const uint32_t *by_name, struct wl *wl,
                                struct jw *w)
{
    struct wctx x;
    memset(&x, 0, sizeof x);
    x.a = a;
    x.w = wl;
    rd_arena_init(&x.tmp);
    rd_status st = RD_ERR_NOMEM;
    x.k = wl->ncfgs;
    x.cs = malloc((x.k ? x.k : 1) * sizeof *x.cs);
    x.mets = malloc((a->nmetrics ? a->nmetrics : 1) * sizeof *x.mets);
    if (!x.cs || !x.mets)
        goto out;
    for (size_t i = 0; i < x.k; i++)
        x.cs[i] = &a->cfgs[wl->cfgs[i]];
    if (x.k > 1)
        qsort(x.cs, x.k, sizeof *x.cs, cmp_cfg);
    /* Metrics present in any config of the workload, by name. */
    {
        unsigned char *seen = calloc(a->nmetrics ? a->nmetrics : 1, 1);
        if (!seen)
            goto out;
        for (size_t i = 0; i < x.k; i++)
            for (uint32_t j = 0; j < x.cs[i]->nseries; j++)
                seen[x.cs[i]->series[j].metric] = 1;
        for (size_t m = 0; m < a->nmetrics; m++)
            if (seen[by_name[m]])
                x.mets[x.nmets++] = by_name[m];
        free(seen);
    }
    int64_t prim = pick_primary(&x);
    x.primary = prim >= 0 ? (uint32_t)prim : 0;
    x.better = RD_BETTER_NONE;
    if (prim >= 0) {
        int b = wl->better ? rd_better_parse(wl->better) : -1;
        x.better = b >= 0 ? (enum rd_better)b : metric_better(a, x.primary);
    }
    /* tested[0] is always the primary metric. */
    x.tested = malloc((x.nmets ? x.nmets : 1) * sizeof *x.tested);
    if (!x.tested)
        goto out;
    if (prim >= 0) {
        x.tested[x.ntested++] = x.primary;
        if (a->o.all_metrics)
            for (size_t m = 0; m < x.nmets; m++)
                if (x.mets[m] != x.primary)
                    x.tested[x.ntested++] = x.mets[m];
    }
    x.preps = calloc(x.ntested * x.k > 0 ? x.ntested * x.k : 1, sizeof *x.preps);
    x.tests = calloc(x.ntested ? x.ntested : 1, sizeof *x.tests);
    if (!x.preps || !x.tests)
        goto out;
    for (size_t ti = 0; ti < x.ntested; ti++) {
        for (size_t i = 0; i < x.k; i++)
            if ((st = prep_series(&x, find_series(x.cs[i], x.tested[ti]), true,
                                  &x.preps[ti * x.k + i])))
                goto out;
        if ((st = run_tests(&x, ti)))
            goto out;
    }
    struct reco rc;
    memset(&rc, 0, sizeof rc);
    if (x.ntested && (st = recommend(&x, &rc)))
        goto out;
    if ((st = collect_warnings(&x, &rc))) {
        free(rc.tied);
        goto out;
    }

    jw_obj(w, NULL, true);
    jw_str(w, "name", wl->name);
    jw_str(w, "class", wl->class_);
    jw_obj(w, "primary", false);
    jw_str(w, "metric", prim >= 0 ? a->metrics[x.primary] : NULL);
    jw_str(w, "better", rd_better_name(x.better));
    if (prim >= 0) {
        struct rd_metric_def def;
        rd_metric_describe(a->metrics[x.primary], &def);
        jw_str(w, "unit", def.unit);
        jw_str(w, "display", def.display);
    }
    jw_end(w, '}');
    if (a->o.baseline_key) {
        jw_arr(w, "baseline", false);
        for (size_t i = 0; i < x.k; i++)
            if (is_baseline(a, x.cs[i]))
                jw_str(w, NULL, x.cs[i]->id);
        jw_end(w, ']');
    }
    jw_arr(w, "configs", true);
    for (size_t i = 0; i < x.k && !w->st; i++)
        write_config(&x, w, i);
    jw_end(w, ']');
    if (x.ntested) {
        write_tests(&x, w, "tests", 0);
        if (a->o.all_metrics) {
            jw_obj(w, "tests_by_metric", true);
            for (size_t ti = 0; ti < x.ntested; ti++)
                write_tests(&x, w, a->metrics[x.tested[ti]], ti);
            jw_end(w, '}');
        }
    } else {
        jw_null(w, "tests");
    }
    jw_obj(w, "recommendation", true);
    if (rc.have) {
        jw_str(w, "best", x.cs[rc.best]->id);
        jw_arr(w, "tied", false);
        for (size_t i = 0; i < rc.ntied; i++)
            jw_str(w, NULL, x.cs[rc.tied[i]]->id);
        jw_end(w, ']');
        jw_str(w, "recommended", x.cs[rc.recommended]->id);
        jw_str(w, "reason", rc.reason);
        jw_str(w, "tie_breaker", rc.tie_metric >= 0 ? a->metrics[rc.tie_metric] : NULL);
    } else {
        jw_null(w, "best");
        jw_arr(w, "tied", false);
        jw_end(w, ']');
        jw_null(w, "recommended");
        jw_null(w, "reason");
        jw_null(w, "tie_breaker");
    }
    jw_end(w, '}');
    free(rc.tied);
    jw_arr(w, "warnings", true);
    for (size_t i = 0; i < x.nwarns; i++) {
        jw_obj(w, NULL, false);
        jw_str(w, "code", x.warns[i].code);
        jw_str(w, "config", x.warns[i].config);
        jw_str(w, "metric", x.warns[i].metric);
        jw_str(w, "message", x.warns[i].msg);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
    st = w->st;
out:
    wctx_release(&x);
    return st;
}

static int cmp_wl(const void *x, const void *y)
{
    const struct wl *const *a = x, *const *b = y;
    return strcmp((*a)->name, (*b)->name);
}

/* An env id names a file next to the store; refuse ids that could name
 * anything else. */
static bool safe_env_id(const char *id)
{
    return *id && *id != '.' && !strchr(id, '/') && !strchr(id, '\\');
}

static rd_status write_envs(struct rd_analysis *a, struct jw *w, struct rd_diag *d)
{
    if (a->nenvs > 1)
        qsort(a->envs, a->nenvs, sizeof *a->envs, cmp_env);
    jw_arr(w, "environments", true);
    struct rd_buf tmp = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (size_t i = 0; i < a->nenvs && !st; i++) {
        const struct envref *e = &a->envs[i];
        char *path = NULL;
        if (safe_env_id(e->id)) {
            size_t n = strlen(e->dir) + strlen(e->id) + 8;
            path = rd_arena_alloc(&a->strings, n);
            if (!path) {
                st = RD_ERR_NOMEM;
                break;
            }
            snprintf(path, n, "%s/%s.json", e->dir, e->id);
        }
        FILE *f = path ? fopen(path, "rb") : NULL;
        if (!f) {
            jw_obj(w, NULL, false);
            jw_str(w, "id", e->id);
            jw_end(w, '}');
            continue;
        }
        fclose(f);
        cJSON *env = NULL;
        st = rd_json_parse_file(path, &env, d);
        if (st)
            break;
        if (!cJSON_IsObject(env)) {
            cJSON_Delete(env);
            st = rd_diag_set(d, RD_ERR_PARSE, path, 1, 1,
                             "expected an environment object (rundown.env/1)");
            break;
        }
        if (!cJSON_GetObjectItemCaseSensitive(env, "id"))
            cJSON_AddStringToObject(env, "id", e->id);
        rd_buf_reset(&tmp);
        st = rd_json_write(env, &tmp, false);
        cJSON_Delete(env);
        while (!st && tmp.len && tmp.ptr[tmp.len - 1] == '\n')
            rd_buf_truncate(&tmp, tmp.len - 1);
        if (!st)
            jw_raw(w, NULL, tmp.ptr, tmp.len);
    }
    rd_buf_release(&tmp);
    jw_end(w, ']');
    return st;
}

/*
 * After reading, analysing and writing the workloads is most of the time
 * of a big store, and workloads are independent of each other. So when the
 * workloads hold at least opts.parallel_values values, up to
 * opts.threads - 1 helper threads and this one take workloads in name
 * order from a shared counter, each writing into the workload's own
 * buffer, and this thread appends the finished buffers to the document in
 * name order as they complete: the same bytes as one thread, with at most
 * a few workloads' text held twice. Everything a workload's analysis
 * writes lives in its own struct wctx; what they share (the analysis, the
 * metric order) is only read.
 */
struct wl_jobs {
    struct rd_analysis *a;
    const uint32_t *by_name;
    struct wl **order;          /* workloads by name */
    size_t n;
    struct jw at;               /* the writer inside "workloads":[ */
    struct rd_buf *text;        /* per workload */
    rd_status *st;              /* per workload */
    atomic_bool *done;          /* per workload: text and st are final */
    atomic_size_t next;         /* the next workload to take */
    atomic_bool failed;         /* stop taking workloads */
    const struct rd_analysis_sink *sink; /* NULL: the document stays in memory */
    struct rd_diag *d;
};

/* Pieces of about this size go to a sink. */
#define SINK_PIECE (1u << 20)

/* Analyses and writes the next workload not yet taken; false when none is
 * left (or one failed). */
static bool write_next_workload(struct wl_jobs *j)
{
    if (atomic_load(&j->failed))
        return false;
    size_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->n)
        return false;
    struct jw w = j->at;
    w.b = &j->text[i];
    w.first[w.depth] = i == 0;
    j->st[i] = write_workload(j->a, j->by_name, j->order[i], &w);
    if (j->st[i])
        atomic_store(&j->failed, true);
    atomic_store(&j->done[i], true);
    return true;
}

static void *workload_helper(void *arg)
{
    while (write_next_workload(arg))
        ;
    rd_stats_release_thread();
    return NULL;
}

/* Appends the finished workloads from *flushed on, in order, to w's
 * buffer; stops at the first unfinished one or the first failure. */
static rd_status flush_workloads(struct wl_jobs *j, size_t *flushed, struct jw *w)
{
    for (; *flushed < j->n && atomic_load(&j->done[*flushed]); (*flushed)++) {
        size_t i = *flushed;
        if (j->st[i])
            return j->st[i];
        rd_status st = rd_buf_add(w->b, j->text[i].ptr, j->text[i].len);
        rd_buf_release(&j->text[i]);
        if (!st && j->sink && w->b->len >= SINK_PIECE) {
            st = j->sink->write(j->sink->ctx, w->b->ptr, w->b->len, j->d);
            rd_buf_reset(w->b);
        }
        if (st)
            return st;
        w->first[w->depth] = false;
    }
    return RD_OK;
}

static size_t count_values(const struct rd_analysis *a)
{
    size_t n = 0;
    for (size_t i = 0; i < a->ncfgs; i++)
        for (uint32_t k = 0; k < a->cfgs[i].nseries; k++)
            n += a->cfgs[i].series[k].len;
    return n;
}

#define MAX_WRITE_THREADS 8

static rd_status write_workloads(struct rd_analysis *a, struct jw *w,
                                 const struct rd_analysis_sink *sink, struct rd_diag *d)
{
    size_t n = a->nwls;
    struct wl_jobs j = {.a = a, .n = n, .at = *w, .sink = sink, .d = d};
    struct named_metric *names = malloc((a->nmetrics ? a->nmetrics : 1) * sizeof *names);
    uint32_t *by_name = malloc((a->nmetrics ? a->nmetrics : 1) * sizeof *by_name);
    j.order = malloc((n ? n : 1) * sizeof *j.order);
    j.text = malloc((n ? n : 1) * sizeof *j.text);
    for (size_t i = 0; j.text && i < n; i++)
        rd_buf_init(&j.text[i], 0);
    j.st = calloc(n ? n : 1, sizeof *j.st);
    j.done = calloc(n ? n : 1, sizeof *j.done);
    rd_status st = RD_ERR_NOMEM;
    if (!names || !by_name || !j.order || !j.text || !j.st || !j.done)
        goto out;
    for (size_t m = 0; m < a->nmetrics; m++)
        names[m] = (struct named_metric){a->metrics[m], (uint32_t)m};
    if (a->nmetrics > 1)
        qsort(names, a->nmetrics, sizeof *names, cmp_named_metric);
    for (size_t m = 0; m < a->nmetrics; m++)
        by_name[m] = names[m].id;
    j.by_name = by_name;
    for (size_t i = 0; i < n; i++) {
        j.order[i] = &a->wls[i];
        atomic_init(&j.done[i], false);
    }
    if (n > 1)
        qsort(j.order, n, sizeof *j.order, cmp_wl);
    atomic_init(&j.next, 0);
    atomic_init(&j.failed, false);

    size_t threads = 1;
    if (n > 1 && a->o.threads > 1 && a->o.parallel_values &&
        count_values(a) >= a->o.parallel_values)
        threads = a->o.threads < n ? a->o.threads : n;
    if (threads > MAX_WRITE_THREADS)
        threads = MAX_WRITE_THREADS;
    pthread_t tid[MAX_WRITE_THREADS];
    size_t helpers = 0;
    while (helpers + 1 < threads && pthread_create(&tid[helpers], NULL, workload_helper, &j) == 0)
        helpers++;
    size_t flushed = 0;
    st = RD_OK;
    while (!st && write_next_workload(&j))
        st = flush_workloads(&j, &flushed, w);
    if (st)
        atomic_store(&j.failed, true);
    for (size_t t = 0; t < helpers; t++)
        pthread_join(tid[t], NULL);
    if (!st)
        st = flush_workloads(&j, &flushed, w);
    rd_stats_release_thread();
out:
    if (j.text)
        for (size_t i = 0; i < n; i++)
            rd_buf_release(&j.text[i]);
    free(names);
    free(by_name);
    free(j.order);
    free(j.text);
    free(j.st);
    free(j.done);
    return st;
}

/* The document into out; with a sink, out is handed to it whenever it
 * has grown past SINK_PIECE between workloads, and the rest stays in out. */
static rd_status write_document(struct rd_analysis *a, struct rd_buf *out,
                                const struct rd_analysis_sink *sink, struct rd_diag *d)
{
    rd_stats_init();
    struct jw w;
    jw_init(&w, out);
    const struct rd_analyze_opts *o = &a->o;
    jw_obj(&w, NULL, true);
    jw_str(&w, "schema", RD_ANALYSIS_SCHEMA);
    if (o->title)
        jw_str(&w, "title", o->title);
    jw_obj(&w, "settings", true);
    jw_num(&w, "alpha", o->alpha);
    jw_num(&w, "confidence", o->confidence);
    jw_num(&w, "bootstrap", (double)o->bootstrap);
    jw_num(&w, "seed", (double)o->seed);
    jw_str(&w, "metric", o->metric);
    jw_bool(&w, "all_metrics", o->all_metrics);
    jw_bool(&w, "exclude_outliers", o->exclude_outliers);
    jw_bool(&w, "pool_envs", o->pool_envs);
    if (o->baseline_key) {
        jw_obj(&w, "baseline", false);
        jw_str(&w, o->baseline_key, o->baseline_val);
        jw_end(&w, '}');
    } else {
        jw_null(&w, "baseline");
    }
    jw_str(&w, "quantiles", "hyndman-fan-7");
    jw_str(&w, "ratio_ci", "fieller");
    jw_str(&w, "adjust", "holm");
    jw_end(&w, '}');
    rd_status st = write_envs(a, &w, d);
    if (st)
        return st;
    jw_arr(&w, "inputs", true);
    for (size_t i = 0; i < a->ninputs; i++)
        jw_str(&w, NULL, a->inputs[i]);
    jw_end(&w, ']');

    jw_arr(&w, "workloads", true);
    if ((st = write_workloads(a, &w, sink, d)))
        return st;
    jw_end(&w, ']');
    if (o->published_dir && (st = rd_replication_write(a, &w, d)))
        return st;
    jw_end(&w, '}');
    return w.st;
}

rd_status rd_analysis_write(struct rd_analysis *a, struct rd_buf *out, struct rd_diag *d)
{
    return write_document(a, out, NULL, d);
}

rd_status rd_analysis_write_to(struct rd_analysis *a, const struct rd_analysis_sink *sink,
                               struct rd_diag *d)
{
    struct rd_buf rest = RD_BUF_INIT;
    rd_status st = write_document(a, &rest, sink, d);
    if (!st && rest.len)
        st = sink->write(sink->ctx, rest.ptr, rest.len, d);
    rd_buf_release(&rest);
    return st;
}
