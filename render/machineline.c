/*
 * machineline - how quiet the machine was, in the words every back end
 * uses: per workload from its "contention" object of the analysis, and at
 * the start of each collection from the environments' rows. A leaf helper
 * (it calls nothing else of render/), so views and back ends can share it
 * without a call cycle.
 */
#include "machineline.h"
#include "model.h"

#include <math.h>
#include <string.h>

rd_status rd_machine_line(const struct rd_rworkload *w, struct rd_buf *out)
{
    if (isnan(w->cont_runs) || w->cont_runs <= 0)
        return RD_OK;
    double unknown = isnan(w->cont_unknown) ? 0 : w->cont_unknown;
    double known = w->cont_runs - unknown;
    if (known > 0)
        RD_TRY(rd_buf_addf(out, "machine: %.0f of %.0f runs contended", w->cont_contended,
                           known));
    if (known > 0 && !isnan(w->others_mean))
        RD_TRY(rd_buf_addf(out, "; others used %.1f %% of a CPU on average, at most %.1f %%",
                           w->others_mean, w->others_max));
    if (known > 0 && !isnan(w->steal_mean))
        RD_TRY(rd_buf_addf(out, "; hypervisor steal %.1f %% on average, at most %.1f %%",
                           w->steal_mean, w->steal_max));
    /* The speed probe (docs/methods.md §6d): runs on slow CPUs are among
     * the contended ones, left out unless --include-contended. */
    if (known > 0 && !isnan(w->speed_min))
        RD_TRY(rd_buf_addf(out, "; CPUs at %.0f %% of their best speed or faster", w->speed_min));
    if (known > 0 && w->slow_cpu_runs > 0)
        RD_TRY(rd_buf_addf(out, " (%.0f of the contended runs on slow CPUs)", w->slow_cpu_runs));
    if (known > 0 && !isnan(w->wakeup_min))
        RD_TRY(rd_buf_addf(out, "; cross-CPU wake-ups at %.0f %% of their best or faster",
                           w->wakeup_min));
    if (known > 0 && w->slow_wakeup_runs > 0)
        RD_TRY(rd_buf_addf(out, " (%.0f of the contended runs with slow wake-ups)",
                           w->slow_wakeup_runs));
    if (w->cont_waited_s >= 0.5)
        RD_TRY(rd_buf_addf(out, "; waited %.0f s for quiet", w->cont_waited_s));
    if (unknown > 0)
        RD_TRY(rd_buf_addf(out, "%s%.0f of %.0f runs contention unknown (no foreign-load "
                                "figure: collected before rundown measured it, or imported)",
                           known > 0 ? "; " : "machine: ", unknown, w->cont_runs));
    return RD_OK;
}

/* The values of the environment row 'label', or NULL. */
static const char *const *env_row(const struct rd_report *r, const char *label)
{
    for (size_t i = 0; i < r->nenv_rows; i++)
        if (strcmp(r->env_rows[i].label, label) == 0)
            return r->env_rows[i].values;
    return NULL;
}

rd_status rd_machine_start(const struct rd_report *r, struct rd_buf *out)
{
    const char *const *load = env_row(r, "Load average at start");
    const char *const *quiet = env_row(r, "Quiet at start");
    bool first = true;
    for (size_t e = 0; e < r->nenvs; e++) {
        const char *l = load ? load[e] : NULL, *q = quiet ? quiet[e] : NULL;
        if (!l && !q)
            continue;
        RD_TRY(rd_buf_addstr(out, first ? "" : "; "));
        first = false;
        if (l)
            RD_TRY(rd_buf_addf(out, "load average %s", l));
        if (q)
            RD_TRY(rd_buf_addf(out, "%squiet at start: %s", l ? ", " : "", q));
    }
    return RD_OK;
}
