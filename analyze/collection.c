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

#include "jw.h"
#include "settle.h"
#include "workload.h"
#include "rundown/analysis_keys.h"
#include "rundown/units.h"

static double info_num(const char *v, double def)
{
    double x;
    return v && rd_parse_double(v, strlen(v), &x) == RD_OK ? x : def;
}

void rd_collection_write(const struct wctx *x, struct jw *w)
{
    const struct wl *wl = x->w;
    if (!wl->until)
        return;
    struct rd_settle_rule rule = {
        (long)info_num(wl->runs_min, 1), (long)info_num(wl->runs_max, 1),
        info_num(wl->precision_target, NAN), info_num(wl->precision_alpha, 0.05) };
    enum rd_settle_state *states = calloc(x->k ? x->k : 1, sizeof *states);
    double *hw = calloc(x->k ? x->k : 1, sizeof *hw);
    if (!states || !hw) {
        free(states);
        free(hw);
        w->st = RD_ERR_NOMEM;
        return;
    }
    for (size_t i = 0; i < x->k; i++) {
        const struct prep *p = x->ntested ? &x->preps[i] : NULL;
        double n = p && p->have ? (double)p->sum.n : 0;
        double mean = n ? p->sum.mean : NAN, sd = n > 1 ? p->sum.sd : NAN;
        hw[i] = rd_settle_halfwidth(n, mean, sd, x->k, rule.alpha);
        states[i] = rd_settle_config(&rule, (long)x->cs[i]->nruns, n, mean, sd, x->k);
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
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
    free(states);
    free(hw);
}
