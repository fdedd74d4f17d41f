/*
 * settle.c - the stopping rule of adaptive suites (see settle.h).
 */
#include <math.h>
#include <stdlib.h>

#include "settle.h"
#include "verdict.h"

const char *rd_settle_stop_name(enum rd_settle_stop stop)
{
    switch (stop) {
    case RD_STOP_SETTLED: return "settled";
    case RD_STOP_MAX: return "max";
    case RD_STOP_BUDGET: return "budget";
    case RD_STOP_INCOMPLETE: return "incomplete";
    case RD_STOP_DISQUALIFIED: return "disqualified";
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
    case RD_SETTLE_ELIMINATED: return "eliminated";
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

/* The state of a config of 'runs' runs and n good values whose interval
 * has half-width hw over its mean (NaN: none). */
static enum rd_settle_state state_of(const struct rd_settle_rule *r, long runs, double n, double hw)
{
    if (runs < r->runs_min)
        return RD_SETTLE_OPEN;
    if (n < 2)
        return RD_SETTLE_UNUSABLE;
    if (hw <= r->target)
        return RD_SETTLE_PRECISE;
    return runs >= r->runs_max ? RD_SETTLE_MAX : RD_SETTLE_OPEN;
}

enum rd_settle_state rd_settle_config(const struct rd_settle_rule *r, long runs, double n,
                                      double mean, double sd, size_t k)
{
    return state_of(r, runs, n, n < 2 ? NAN : rd_settle_halfwidth(n, mean, sd, k, r->alpha));
}

double rd_settle_paired_spread(const struct rd_verdict_pairing *pg, const bool *in, size_t k,
                               size_t c, double *n)
{
    double widest = 0;
    *n = INFINITY;
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++) {
            if ((c < k && a != c && b != c) || !in[a] || !in[b])
                continue;
            double mean, sd, m;
            if (!pg->paired(pg->ctx, a, b, &mean, &sd, &m))
                return INFINITY;
            *n = fmin(*n, m);
            widest = fmax(widest, m >= 2 && isfinite(sd) ? sd : INFINITY);
        }
    return widest;
}

enum rd_settle_state rd_settle_config_paired(const struct rd_settle_rule *r, long runs, double n,
                                             double spread, double n_pairs, size_t k)
{
    double hw = n >= 2 ? rd_settle_halfwidth_paired(spread, n_pairs, k, r->alpha) : NAN;
    return state_of(r, runs, n, hw);
}

double rd_settle_halfwidth_paired(double spread, double n_pairs, size_t k, double alpha)
{
    if (!(n_pairs >= 2) || !isfinite(spread))
        return NAN;
    if (spread == 0)
        return 0;
    return rd_verdict_paired_critical_value(alpha, k < 2 ? 2.0 : (double)k, floor(n_pairs) - 1) *
           spread / sqrt(2.0) / sqrt(n_pairs);
}

bool rd_settle_done(const enum rd_settle_state *states, size_t k)
{
    size_t open = 0, out = 0, left = 0;
    for (size_t i = 0; i < k; i++) {
        open += states[i] == RD_SETTLE_OPEN;
        out += states[i] == RD_SETTLE_ELIMINATED;
        left += states[i] != RD_SETTLE_ELIMINATED && states[i] != RD_SETTLE_UNUSABLE;
    }
    /* The race left one config: the answer is clear at the race's level,
     * and more runs of that one alone would only let its mean drift from
     * the frozen ones it was compared with. */
    return open == 0 || (out > 0 && left <= 1);
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
    size_t unusable = 0;
    for (size_t i = 0; i < k; i++)
        unusable += states[i] == RD_SETTLE_UNUSABLE;
    if (k && unusable == k)
        return RD_STOP_DISQUALIFIED;
    for (size_t i = 0; i < k; i++)
        if (states[i] == RD_SETTLE_MAX)
            return RD_STOP_MAX;
    return RD_STOP_SETTLED;
}

/* Lan and DeMets' Pocock-type spending function: spends alpha early
 * enough that a config several times slower goes at the first look. */
double rd_settle_spent(double alpha, double t)
{
    return alpha * log1p((M_E - 1) * fmin(fmax(t, 0), 1));
}

double rd_settle_look_level(double alpha, double t_prev, double t)
{
    double at = rd_settle_spent(alpha, t) - rd_settle_spent(alpha, t_prev);
    return at > 0 ? at : 0;
}

double rd_settle_fraction(double n, double runs_max)
{
    if (!(runs_max >= 1) || !(n > 0))
        return 0;
    return n >= runs_max ? 1 : n / runs_max;
}

long rd_settle_race_first(long runs_min, long runs_max)
{
    long first = runs_max < RD_SETTLE_RACE_FIRST ? runs_max : RD_SETTLE_RACE_FIRST;
    return runs_min > first ? runs_min : first;
}

double rd_settle_race_level(double alpha, long round, long runs_min, long runs_max)
{
    const long first = rd_settle_race_first(runs_min, runs_max);
    if (round < first || round > runs_max || runs_max < 1)
        return 0;
    double t = (double)round / (double)runs_max;
    if (round == first)
        return rd_settle_spent(alpha, t); /* everything the rounds before it would have spent */
    return rd_settle_look_level(alpha, (double)(round - 1) / (double)runs_max, t);
}

rd_status rd_settle_race(const struct rd_settle_rule *r, long round,
                         const struct rd_verdict_sample *x, size_t k,
                         const struct rd_verdict_settings *vs, const bool *keep,
                         bool *eliminated, size_t *neliminated)
{
    *neliminated = 0;
    struct rd_verdict_settings at = *vs;
    at.skip_equivalence = true; /* a look eliminates; it never calls equivalent */
    /* A tenth of alpha for the looks: the analysis judges the collected
     * runs at alpha again, and a config eliminated by a look that chance
     * made unlucky may no longer be worse there, so the two add. A tenth
     * keeps the sum within the Monte Carlo error of alpha (simulated A/A,
     * docs/methods.md §6b) and still eliminates a config 1.5x slower at
     * CV 3 % at the first look of k = 15. */
    at.alpha = rd_settle_race_level(r->alpha - rd_settle_final_alpha(r->alpha), round, r->runs_min, r->runs_max);
    size_t eligible = 0;
    for (size_t i = 0; i < k; i++)
        eligible += x[i].eligible;
    if (!(at.alpha > 0) || eligible < 2)
        return RD_OK;
    struct rd_verdict_row *rows = malloc(k * sizeof *rows);
    if (!rows)
        return RD_ERR_NOMEM;
    struct rd_verdict_result res;
    rd_status st = rd_verdict_decide(x, k, &at, rows, &res);
    /* An eliminated config come out best (its frozen mean against the
     * contenders' newer ones) would make the contenders "slower than an
     * eliminated config": no elimination then, the precision rule goes on. */
    if (!st && res.best < k && !eliminated[res.best])
        for (size_t i = 0; i < k; i++)
            if (x[i].eligible && !eliminated[i] && !(keep && keep[i]) &&
                rows[i].verdict == RD_VERDICT_WORSE) {
                eliminated[i] = true;
                ++*neliminated;
            }
    free(rows);
    return st;
}

double rd_settle_final_alpha(double alpha)
{
    return alpha - alpha / 10;
}

/* The eliminated configs' intervals (docs/methods.md §6b): each one's
 * ratio to the contenders' best with the interval the verdicts draw, on
 * all its runs, in the whole family of eligible configs (contenders and
 * eliminated) at the contenders' level: wider than the contenders' own
 * (more comparisons, its frozen runs' fewer df), simultaneous over every
 * comparison with the best. It describes; the verdict stays the race's,
 * so the interval may reach 1 where a look showed the config slower on
 * the runs it had then. */
static rd_status eliminated_intervals(const struct rd_verdict_sample *x, size_t k,
                                      const struct rd_verdict_settings *at,
                                      const bool *eliminated, size_t best,
                                      struct rd_verdict_row *rows)
{
    struct rd_verdict_row *all = malloc((k ? k : 1) * sizeof *all);
    if (!all)
        return RD_ERR_NOMEM;
    struct rd_verdict_settings s = *at;
    s.skip_equivalence = true; /* the "worse" interval only */
    struct rd_verdict_result res;
    rd_status st = rd_verdict_decide(x, k, &s, all, &res);
    if (st && st != RD_ERR_STATS) {
        free(all);
        return st;
    }
    for (size_t i = 0; i < k; i++) {
        if (!eliminated[i] || !x[i].eligible)
            continue;
        struct rd_verdict_row *r = &rows[i];
        const struct rd_verdict_row *a = &all[i];
        if (st == RD_ERR_STATS)
            r->elim_note = "no interval: the family's critical value cannot be computed";
        else if (res.best != best)
            r->elim_note = "no interval: an eliminated config's frozen mean is better than "
                           "the contenders' best";
        else if (a->verdict == RD_VERDICT_DISQUALIFIED)
            r->elim_note = "no interval: fewer than 2 good runs";
        else if (isnan(a->ratio))
            r->elim_note = x[i].mean > 0 && x[best].mean > 0
                               ? "no interval: fewer than 2 rounds shared with the best"
                               : "no interval: a mean that is not positive";
        else if (!a->estimable)
            r->elim_note = "no interval: at the whole family's critical value a mean's "
                           "interval reaches zero (too few runs)";
        else {
            /* paired: the within-round estimate, as the contenders' rows */
            r->ratio = a->ratio;
            r->elim_ci_low = a->ratio_ci_low;
            r->elim_ci_high = a->ratio_ci_high;
        }
    }
    free(all);
    return RD_OK;
}

rd_status rd_settle_judge(const struct rd_verdict_sample *x, size_t k,
                          const struct rd_verdict_settings *vs, const bool *eliminated,
                          struct rd_verdict_row *rows, struct rd_verdict_result *res)
{
    if (!eliminated)
        return rd_verdict_decide(x, k, vs, rows, res);
    struct rd_verdict_sample *c = calloc(k ? k : 1, sizeof *c);
    if (!c)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < k; i++) {
        c[i] = x[i];
        c[i].eligible = x[i].eligible && !eliminated[i];
    }
    struct rd_verdict_settings at = *vs;
    at.alpha = rd_settle_final_alpha(vs->alpha);
    rd_status st = rd_verdict_decide(c, k, &at, rows, res);
    free(c);
    if (st)
        return st;
    const size_t b = res->best;
    for (size_t i = 0; i < k; i++) {
        if (!eliminated[i] || !x[i].eligible)
            continue;
        rows[i].verdict = RD_VERDICT_WORSE;
        rows[i].ratio = b < k && x[b].mean != 0 ? x[i].mean / x[b].mean : NAN;
        rows[i].estimable = true;
        rows[i].beyond_margin = -1; /* no interval: neither "more than M %" nor "perhaps less" */
        rows[i].runs_needed = 0;
        res->n_worse++;
        res->n_disqualified--;
    }
    return b < k ? eliminated_intervals(x, k, &at, eliminated, b, rows) : RD_OK;
}
