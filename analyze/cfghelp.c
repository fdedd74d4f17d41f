/*
 * cfghelp - the helpers on configs that the per-workload steps share:
 * does a workload hold a metric, which of two means is better, is a
 * config the baseline, a config's display name. Apart from workload.c
 * (the driver that calls compare, recommend and warnings), so those can
 * use them without a call cycle between files.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cfghelp.h"
#include "wctx.h"
#include "rundown/numfmt.h"

bool rd_wctx_has_metric(const struct wctx *x, int64_t id)
{
    if (id < 0)
        return false;
    for (size_t i = 0; i < x->nmets; i++)
        if (x->mets[i] == (uint32_t)id)
            return true;
    return false;
}

bool rd_better_than(double u, double v, enum rd_better b)
{
    if (isnan(u))
        return false;
    if (isnan(v))
        return true;
    return b == RD_BETTER_HIGHER ? u > v : u < v;
}

bool rd_cfg_is_baseline(const struct rd_analysis *a, const struct cfg *c)
{
    if (!a->o.baseline_key)
        return false;
    for (size_t i = 0; i < c->nlabels; i++)
        if (strcmp(c->labels[i].key, a->o.baseline_key) == 0)
            return strcmp(c->labels[i].value, a->o.baseline_val) == 0;
    return false;
}

void rd_cfg_display_name(const struct cfg *c, char *out, size_t size)
{
    /* core's one way to name a config, so the analysis's sentences and
     * display names read like the report's tables. */
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = rd_fmt_config_name(&b, c->labels, c->nlabels);
    if (st == RD_OK && b.len == 0)
        st = rd_buf_addstr(&b, "(no labels)");
    snprintf(out, size, "%s", st == RD_OK && b.ptr ? b.ptr : "n/a");
    rd_buf_release(&b);
}
