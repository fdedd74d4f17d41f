/*
 * warnings.c - what a reader must know before trusting a workload's
 * numbers: too few runs, failed runs, pooled environments, load-tool
 * errors, undefined statistics, high spread, outliers, a drift with run
 * order, and comparisons that cannot reach alpha at this n. Each warning
 * names its code, config and metric, so a report can group them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rundown/array.h"
#include "workload.h"

static rd_status warnf(struct wctx *x, const char *code, const char *config,
                       const char *metric, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static rd_status warnf(struct wctx *x, const char *code, const char *config,
                       const char *metric, const char *fmt, ...)
{
    RD_TRY(RD_ARRAY_GROW(x->warns, x->capwarns, x->nwarns + 1));
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

rd_status rd_warnings_collect(struct wctx *x, const struct reco *rc)
{
    rd_status st = RD_OK;
    double alpha = x->a->o.alpha;
    /* A workload whose runs hold no metric at all has no primary metric and
     * no prepared series: x->preps has no row then (found by fuzz_analyze:
     * a store of runs with "metrics": {} crashed here). */
    bool have_primary = x->have_primary;
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
