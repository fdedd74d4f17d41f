/*
 * collection.c - why an adaptive suite stopped collecting a workload
 * (docs/analysis.md, "collection"; docs/methods.md, "Adaptive
 * collection").
 *
 * The suite's records name the stopping rule; this applies the rule, with
 * the collector's own functions (stats/settle.h), to the runs analysed,
 * so the answer holds for the store as it is — resumed, merged or cut
 * short — not only for the session that wrote the last run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collection.h"
#include "jw.h"
#include "looks.h"
#include "moments.h"
#include "pairs.h"
#include "settle.h"
#include "verdict.h"
#include "rundown/analysis_keys.h"
#include "rundown/units.h"

static double info_num(const char *v, double def)
{
    double x;
    return v && rd_parse_double(v, strlen(v), &x) == RD_OK ? x : def;
}

/* The race as the collector ran it (stats/settle.h, rd_settle_race),
 * replayed on the runs analysed: a look after each round r from the
 * first look's (rd_settle_race_first) on, with each config's values of its first r runs (in arrival order),
 * while some config not eliminated has r runs. at[i] receives the round
 * whose look eliminated config i, 0 for none. */
static rd_status replay_race(const struct wctx *x, const struct rd_settle_rule *rule,
                             long *at)
{
    const struct wl *wl = x->w;
    if (!rd_collection_raced(x))
        return RD_OK;
    struct rd_verdict_settings vs;
    rd_verdict_settings_init(&vs);
    /* The workload's margin as rd_workload_margin reads it (a margin
     * outside (0, 1) is refused before analysis), not called: recommend.c
     * calls here, and the files must not call each other. */
    vs.margin = info_num(wl->margin, x->a->o.margin);
    vs.higher_is_better = x->better == RD_BETTER_HIGHER;
    struct rd_verdict_sample *smp = calloc(x->k ? x->k : 1, sizeof *smp);
    bool *out = calloc(x->k ? x->k : 1, sizeof *out);
    /* the configs the suite kept in the race (info.race_keep) */
    bool *keep = calloc(x->k ? x->k : 1, sizeof *keep);
    rd_status st = smp && out && keep ? RD_OK : RD_ERR_NOMEM;
    for (size_t i = 0; !st && i < x->k; i++)
        keep[i] = x->cs[i]->race_keep;
    for (long r = rd_settle_race_first(rule->runs_min, rule->runs_max);
         !st && r <= rule->runs_max; r++) {
        bool any = false;
        for (size_t i = 0; i < x->k; i++) {
            const struct prep *p = &x->preps[i];
            any |= !out[i] && (long)x->cs[i]->nruns >= r;
            if (out[i])
                continue; /* frozen at its elimination */
            struct rd_moments m = {0};
            for (size_t j = 0; p->have && p->run_of && j < p->n_all; j++)
                if ((long)p->run_of[j] < r)
                    rd_moments_add(&m, p->all[j]);
            smp[i] = (struct rd_verdict_sample){ .n = m.n, .mean = m.mean,
                                                 .sd = rd_moments_sd(&m), .eligible = m.n >= 2,
                                                 .log_sd = rd_moments_log_sd(&m) };
        }
        if (!any)
            break;
        /* blocks=round: the looks compared the configs within rounds, as
         * the collector's did (collect/suiterun.c) */
        struct rd_pairs pairs = {0};
        if (rd_pairs_wanted(wl)) {
            st = rd_pairs_build_before(x, 0, (uint32_t)r, &pairs);
            vs.pairing = st ? NULL : &pairs.pairing;
        }
        size_t ne = 0;
        if (!st)
            st = rd_settle_race(rule, r, smp, x->k, &vs, keep, out, &ne);
        rd_pairs_release(&pairs);
        vs.pairing = NULL;
        for (size_t i = 0; !st && ne && i < x->k; i++)
            if (out[i] && !at[i])
                at[i] = r;
    }
    free(smp);
    free(out);
    free(keep);
    return st;
}

static struct rd_settle_rule rule_of(const struct wl *wl)
{
    return (struct rd_settle_rule){
        (long)info_num(wl->runs_min, 1), (long)info_num(wl->runs_max, 1),
        info_num(wl->precision_target, NAN), info_num(wl->precision_alpha, 0.05) };
}

bool rd_collection_raced(const struct wctx *x)
{
    return x->w->until && x->ntested && x->better != RD_BETTER_NONE;
}

double rd_collection_level(const struct wctx *x, double alpha, size_t ti)
{
    double look = rd_looks_level(x, alpha);
    return ti == 0 && rd_collection_raced(x) ? rd_settle_final_alpha(look) : look;
}

rd_status rd_collection_race(const struct wctx *x, long *at)
{
    const struct rd_settle_rule rule = rule_of(x->w);
    return rd_collection_raced(x) ? replay_race(x, &rule, at) : RD_OK;
}

/* Each config's state and half-width as the collector's precision rule
 * reads them after the race (at[]: its eliminations). */
static rd_status precision_states(const struct wctx *x, const struct rd_settle_rule *rule,
                                  const long *at, enum rd_settle_state *states, double *hw)
{
    const struct wl *wl = x->w;
    rd_status st = RD_OK;
    /* The contenders' precision rule, as the collector applies it: at the
     * level the workload's last look spends and the race leaves of it
     * (looks.c, rd_settle_judge), so the state says settled only when the
     * analysis's intervals are that narrow, and as precise as the whole
     * family of k configs would need (stats/settle.h, rd_settle_config). */
    struct rd_settle_rule fin = *rule;
    fin.alpha = rd_collection_level(x, rule->alpha, 0);
    /* blocks=round: a config's spread is its widest within-round one with
     * the other contenders, as the collector reads it (collect/suiterun.c,
     * paired_state) */
    struct rd_pairs pairs = {0};
    bool *in = NULL;
    if (x->ntested && rd_pairs_wanted(wl)) {
        in = calloc(x->k ? x->k : 1, sizeof *in);
        st = in ? rd_pairs_build(x, 0, &pairs) : RD_ERR_NOMEM;
        for (size_t i = 0; !st && i < x->k; i++)
            in[i] = !at[i] && x->preps[i].have;
    }
    for (size_t i = 0; !st && i < x->k; i++) {
        const struct prep *p = x->ntested ? &x->preps[i] : NULL;
        double n = p && p->have ? (double)p->sum.n : 0;
        double mean = n ? p->sum.mean : NAN, sd = n > 1 ? p->sum.sd : NAN;
        double n_pairs = INFINITY, spread = in ? rd_settle_paired_spread(&pairs.pairing, in, x->k,
                                                                         i, &n_pairs)
                                               : NAN;
        if (in && !isinf(n_pairs)) {
            hw[i] = rd_settle_halfwidth_paired(spread, n_pairs, x->k, fin.alpha);
            states[i] = at[i] ? RD_SETTLE_ELIMINATED
                              : rd_settle_config_paired(&fin, (long)x->cs[i]->nruns, n, spread,
                                                        n_pairs, x->k);
            continue;
        }
        hw[i] = rd_settle_halfwidth(n, mean, sd, x->k, fin.alpha);
        states[i] = at[i] ? RD_SETTLE_ELIMINATED
                          : rd_settle_config(&fin, (long)x->cs[i]->nruns, n, mean, sd, x->k);
    }
    rd_pairs_release(&pairs);
    free(in);
    return st;
}

void rd_collection_write(const struct wctx *x, struct jw *w)
{
    const struct wl *wl = x->w;
    if (!wl->until)
        return;
    const struct rd_settle_rule rule = rule_of(wl);
    enum rd_settle_state *states = calloc(x->k ? x->k : 1, sizeof *states);
    double *hw = calloc(x->k ? x->k : 1, sizeof *hw);
    long *at = calloc(x->k ? x->k : 1, sizeof *at);
    rd_status st = states && hw && at ? replay_race(x, &rule, at) : RD_ERR_NOMEM;
    if (!st)
        st = precision_states(x, &rule, at, states, hw);
    if (st) {
        free(states);
        free(hw);
        free(at);
        w->st = st;
        return;
    }
    enum rd_settle_stop stop = rd_settle_stop_reason(states, x->k,
                                                     wl->budget_s ? RD_STOP_BUDGET
                                                                  : RD_STOP_INCOMPLETE);
    jw_obj(w, RD_AK_COLLECTION, true);
    jw_str(w, RD_AK_UNTIL, wl->until);
    jw_num(w, RD_AK_RUNS_MIN, (double)rule.runs_min);
    jw_num(w, RD_AK_RUNS_MAX, (double)rule.runs_max);
    jw_num(w, RD_AK_PRECISION_TARGET, rule.target);
    jw_num(w, RD_AK_PRECISION_ALPHA, rule.alpha);
    jw_num(w, RD_AK_BUDGET_S, info_num(wl->budget_s, NAN));
    jw_str(w, RD_AK_STOPPED, rd_settle_stop_name(stop));
    jw_arr(w, RD_AK_CONFIGS, true);
    for (size_t i = 0; i < x->k; i++) {
        jw_obj(w, NULL, false);
        jw_str(w, RD_AK_ID, x->cs[i]->id);
        jw_num(w, RD_AK_RUNS, (double)x->cs[i]->nruns);
        jw_num(w, RD_AK_HALFWIDTH, hw[i]);
        jw_str(w, RD_AK_STATE, rd_settle_state_name(states[i]));
        if (at[i])
            jw_num(w, RD_AK_ELIMINATED_AT, (double)at[i]);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
    free(states);
    free(hw);
    free(at);
}
