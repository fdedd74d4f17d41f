/*
 * levels.c - sessions as a level of variance (docs/methods.md §6a).
 *
 * A config whose runs come from several sessions has a mean that moves
 * with the sessions as well as with the runs: its standard error is the
 * two-level one of stats/nested.h (Kalibera and Jones 2013), and every
 * number read from it - the mean's interval here, the verdicts through
 * rd_verdict_sample.df (recommend.c) - reads that. One session, or
 * sessions of one run each (no within-session spread to part from the
 * rest), keep the plain s / sqrt n on n - 1 df.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "levels.h"
#include "moments.h"
#include "nested.h"
#include "sessions.h"

void rd_levels_sessions_of(const struct wctx *x, size_t i, const struct prep *p,
                           uint32_t *out)
{
    const uint32_t *of = x->sess.of[i];
    bool drop = x->a->o.exclude_outliers;
    for (size_t j = 0, o = 0, u = 0; j < p->n_all; j++) {
        if (drop && o < p->noutl && p->outl[o] == j) {
            o++;
            continue;
        }
        out[u++] = of[p->run_of[j]];
    }
}

struct rd_verdict_sample rd_levels_sample(const struct prep *p, bool eligible)
{
    double n = (double)p->sum.n;
    if (!(p->mean_df > 0))
        return (struct rd_verdict_sample){ n, p->sum.mean, p->sum.sd, eligible, 0, p->log_sd };
    return (struct rd_verdict_sample){ n, p->sum.mean, p->sum.se * sqrt(n), eligible,
                                       p->mean_df, p->log_sd };
}

/* The two-level variance of the mean of the logs of p's used values
 * (sessions ses), on sd's footing: sqrt(n var_mean); 0 when a value is
 * not positive or the levels do not part (as rd_nested_mean_var says). */
static rd_status two_level_log_sd(const struct prep *p, const uint32_t *ses, size_t nsess,
                                  double *log_sd)
{
    *log_sd = 0;
    double *lg = malloc(p->n_used * sizeof *lg);
    if (!lg)
        return RD_ERR_NOMEM;
    size_t j = 0;
    for (; j < p->n_used && p->used[j] > 0; j++)
        lg[j] = log(p->used[j]);
    struct rd_nested nv;
    int ok = j == p->n_used ? rd_nested_mean_var(lg, ses, p->n_used, nsess, &nv) : 0;
    free(lg);
    if (ok < 0)
        return RD_ERR_NOMEM;
    if (ok == 1 && nv.var_mean >= 0)
        *log_sd = sqrt(nv.var_mean * (double)p->n_used);
    return RD_OK;
}

/* The two-level standard error and interval of one config's metric. */
static rd_status apply_one(const struct wctx *x, size_t i, struct prep *p)
{
    p->sessions = p->have ? 1 : 0;
    p->between_share = NAN;
    p->mean_df = 0;
    p->log_sd = p->have ? rd_log_sd(p->used, p->n_used) : 0;
    if (!p->have || !p->run_of || x->sess.n < 2 || p->n_used < 3)
        return RD_OK;
    uint32_t *ses = malloc(p->n_used * sizeof *ses);
    if (!ses)
        return RD_ERR_NOMEM;
    rd_levels_sessions_of(x, i, p, ses);
    struct rd_nested nv;
    int ok = rd_nested_mean_var(p->used, ses, p->n_used, x->sess.n, &nv);
    double log_sd = 0;
    rd_status st = ok > 0 && nv.df > 0 ? two_level_log_sd(p, ses, x->sess.n, &log_sd) : RD_OK;
    free(ses);
    if (ok < 0 || st)
        return ok < 0 ? RD_ERR_NOMEM : st;
    p->sessions = nv.sessions;
    if (ok == 0 || !(nv.df > 0))
        return RD_OK;
    p->log_sd = log_sd;
    p->between_share = nv.share;
    p->mean_df = nv.df;
    p->sum.se = sqrt(nv.var_mean);
    double t = rd_stats_t_quantile(0.5 + x->a->o.confidence / 2, nv.df);
    p->sum.ci_low = p->sum.mean - t * p->sum.se;
    p->sum.ci_high = p->sum.mean + t * p->sum.se;
    return RD_OK;
}

rd_status rd_levels_apply(struct wctx *x)
{
    RD_TRY(rd_sessions_find(x, &x->sess));
    for (size_t ti = 0; ti < x->ntested; ti++)
        for (size_t i = 0; i < x->k; i++)
            RD_TRY(apply_one(x, i, &x->preps[ti * x->k + i]));
    return RD_OK;
}

/* The larger share of the variance between sessions of config i and the
 * best (NaN when neither has two levels). */
static double row_share(const struct wctx *x, const struct key_verdicts *kv, size_t i)
{
    const struct prep *pp = &x->preps[kv->ti * x->k];
    double s = NAN;
    size_t b = kv->res.best;
    if (pp[i].mean_df > 0)
        s = pp[i].between_share;
    if (b < x->k && pp[b].mean_df > 0 && !(pp[b].between_share <= s))
        s = pp[b].between_share;
    return s;
}

double rd_levels_open_share(const struct wctx *x, const struct key_verdicts *kv, size_t row)
{
    double share = NAN;
    /* one row: that row alone (a scan of all k per row made the warnings
     * of a workload of 10^5 configs quadratic: half its analysis time) */
    size_t from = row == SIZE_MAX ? 0 : row, to = row == SIZE_MAX ? x->k : row + 1;
    for (size_t i = from; i < to && i < x->k; i++) {
        if (kv->rows[i].verdict != RD_VERDICT_INCONCLUSIVE || i == kv->res.best)
            continue;
        double s = row_share(x, kv, i);
        if (isnan(share) || s > share)
            share = s;
    }
    return share;
}

void rd_levels_advice(const struct wctx *x, const struct key_verdicts *kv, size_t row,
                      long runs, char *out, size_t size)
{
    double share = rd_levels_open_share(x, kv, row);
    if (share > RD_LEVELS_DOMINANT)
        snprintf(out, size,
                 "more sessions would settle it, not more runs in these: %.3g %% of the "
                 "variance lies between sessions", 100 * share);
    else if (runs > 0)
        snprintf(out, size, "about %ld runs per config would settle it, whatever the true "
                            "difference", runs);
    else
        out[0] = '\0';
}
