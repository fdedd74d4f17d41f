/*
 * settle.c - the stopping rule of adaptive suites (see settle.h).
 */
#include <math.h>

#include "settle.h"
#include "verdict.h"

const char *rd_settle_stop_name(enum rd_settle_stop stop)
{
    switch (stop) {
    case RD_STOP_SETTLED: return "settled";
    case RD_STOP_MAX: return "max";
    case RD_STOP_BUDGET: return "budget";
    case RD_STOP_INCOMPLETE: return "incomplete";
    }
    return "incomplete";
}

const char *rd_settle_state_name(enum rd_settle_state state)
{
    switch (state) {
    case RD_SETTLE_OPEN: return "open";
    case RD_SETTLE_PRECISE: return "precise";
    case RD_SETTLE_UNUSABLE: return "unusable";
    case RD_SETTLE_MAX: return "max";
    }
    return "open";
}

double rd_settle_halfwidth(double n, double mean, double sd, size_t k, double alpha)
{
    if (!(n >= 2) || !isfinite(sd) || !isfinite(mean))
        return NAN;
    if (sd == 0)
        return 0;
    if (!(mean > 0))
        return NAN;
    /* The verdicts' critical value for this family, at the config's own
     * degrees of freedom: the interval the analysis draws for it is no
     * wider, so a precise config cannot be what keeps a verdict open. */
    double crit = rd_verdict_critical_value(alpha, k < 2 ? 2.0 : (double)k, floor(n) - 1);
    return crit * sd / sqrt(n) / mean;
}

enum rd_settle_state rd_settle_config(const struct rd_settle_rule *r, long runs, double n,
                                      double mean, double sd, size_t k)
{
    if (runs < r->runs_min)
        return RD_SETTLE_OPEN;
    if (n < 2)
        return RD_SETTLE_UNUSABLE;
    double hw = rd_settle_halfwidth(n, mean, sd, k, r->alpha);
    if (hw <= r->target)
        return RD_SETTLE_PRECISE;
    return runs >= r->runs_max ? RD_SETTLE_MAX : RD_SETTLE_OPEN;
}

bool rd_settle_done(const enum rd_settle_state *states, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (states[i] == RD_SETTLE_OPEN)
            return false;
    return true;
}

bool rd_settle_collects(enum rd_settle_state state, bool done)
{
    return !done && (state == RD_SETTLE_OPEN || state == RD_SETTLE_PRECISE);
}

enum rd_settle_stop rd_settle_stop_reason(const enum rd_settle_state *states, size_t k,
                                          enum rd_settle_stop open_reason)
{
    if (!rd_settle_done(states, k))
        return open_reason;
    for (size_t i = 0; i < k; i++)
        if (states[i] == RD_SETTLE_MAX)
            return RD_STOP_MAX;
    return RD_STOP_SETTLED;
}
