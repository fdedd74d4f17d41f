/*
 * recommend.c - the verdict on every config of a workload and the
 * decision that follows (docs/methods.md, "Verdicts"): which config to
 * use, or that the configs are equivalent, or that the runs cannot tell
 * yet. Configs that failed too often, made too many load errors or broke
 * a guard are disqualified first and say why. The verdicts themselves are
 * verdict.c's; this file gathers their inputs from the workload, picks
 * among an equivalent set by the tie-breaker, and writes the one
 * sentence a reader can check against the numbers beside it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recommend.h"
#include "cfghelp.h"
#include "collection.h"
#include "compare.h"
#include "directions.h"
#include "levels.h"
#include "looks.h"
#include "pairs.h"
#include "settle.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"

/* ---- numbers in words: rundown/numfmt.h, the rules the report's tables use ---- */

/* Copies what a numfmt call appended to b into out, then empties b. */
static void take_text(struct rd_buf *b, rd_status st, char *out, size_t size)
{
    snprintf(out, size, "%s", st == RD_OK && b->ptr ? b->ptr : "n/a");
    rd_buf_reset(b);
}

/* A value in its unit as the tables show it: "47.11 MiB", "326.1 ms". */
static void fmt_amount(double v, const char *unit, char *out, size_t size)
{
    struct rd_buf b = RD_BUF_INIT;
    take_text(&b, rd_fmt_amount(&b, v, unit), out, size);
    rd_buf_release(&b);
}

/* A mean and its CI half-width, as the tables show it: "26.28 ± 0.62 ms". */
static void fmt_amount_pm(double mean, double half, const char *unit, char *out, size_t size)
{
    struct rd_buf b = RD_BUF_INIT;
    take_text(&b, rd_fmt_amount_ci(&b, mean, mean - half, mean + half, unit), out, size);
    rd_buf_release(&b);
}

/* A metric by its registry label, inside a sentence: "server RSS peak". */
static void fmt_metric(const char *metric, char *out, size_t size)
{
    struct rd_buf b = RD_BUF_INIT;
    take_text(&b, rd_fmt_metric(&b, metric, true), out, size);
    rd_buf_release(&b);
}


static void fmt_p(double p, char *out, size_t size)
{
    if (isnan(p))
        snprintf(out, size, "no test");
    else if (p < 0.001)
        snprintf(out, size, "p_adj < 0.001");
    else
        snprintf(out, size, "p_adj = %.3f", p);
}

/* A row as the sentence prints it, in two parts: the ratio to the best in
 * words ("2.73× slower", "+3.1 %") into val, and what backs it ("95 % CI
 * 2.63–2.84×, p_adj = 0.003") into detail. The interval is the one the
 * verdict read: for an equivalent row the 1 - 2 alpha interval of its
 * two one-sided tests, otherwise the 1 - alpha one, simultaneous over the
 * comparisons with the best. */
static void fmt_row(const struct wctx *x, const struct key_verdicts *kv, size_t i, char *val,
                    size_t vsize, char *detail, size_t dsize)
{
    const struct rd_verdict_row *row = &kv->rows[i];
    struct rd_metric_def def;
    rd_metric_describe(x->a->metrics[kv->metric], &def);
    struct rd_buf b = RD_BUF_INIT;
    take_text(&b, rd_fmt_rel(&b, row->ratio, def.unit), val, vsize);
    char p[48];
    fmt_p(kv->p_adj[i], p, sizeof p);
    bool eq = row->verdict == RD_VERDICT_EQUIVALENT;
    /* a raced workload's contenders are judged at the level the race
     * leaves (rd_settle_judge) */
    double alpha = rd_collection_level(x, x->a->o.alpha, kv->ti);
    double level = 100 * (1 - (eq ? 2 : 1) * alpha);
    rd_status st = rd_fmt_rel_interval(&b, row->ratio, eq ? row->eq_ci_low : row->ratio_ci_low,
                                       eq ? row->eq_ci_high : row->ratio_ci_high);
    if (row->exact)
        snprintf(detail, dsize, "every run alike: the ratio is exact");
    else if (row->verdict == RD_VERDICT_WORSE && isnan(row->ratio_ci_low)) {
        /* the race's claim, and how much slower all its runs show it */
        rd_buf_reset(&b);
        if (!isnan(row->elim_ci_low) &&
            rd_fmt_rel_interval(&b, row->ratio, row->elim_ci_low, row->elim_ci_high) == RD_OK &&
            b.len)
            snprintf(detail, dsize,
                     "eliminated by the race while collecting; %.4g %% CI %s on all its runs",
                     level, b.ptr);
        else if (row->elim_note)
            snprintf(detail, dsize, "eliminated by the race while collecting; %s",
                     row->elim_note);
        else
            snprintf(detail, dsize, "eliminated by the race while collecting");
    }
    else if (!row->estimable)
        snprintf(detail, dsize,
                 "not estimable: at the family's critical value a mean's interval reaches "
                 "zero, %s", p);
    else if (st == RD_OK && b.len)
        snprintf(detail, dsize, "%.4g %% CI %s, %s", level, b.ptr, p);
    else
        snprintf(detail, dsize, "%.4g %% CI unbounded, %s", level, p);
    rd_buf_release(&b);
}

/* "slower" for a lower-is-better metric, "worse" for a higher-is-better. */
static const char *worse_word(const struct key_verdicts *kv)
{
    return kv->better == RD_BETTER_HIGHER ? "worse" : "slower";
}

/* "2.73× slower (95 % CI 2.63–2.84×, p_adj = 0.003)". */
static void fmt_row_text(const struct wctx *x, const struct key_verdicts *kv, size_t i,
                         char *out, size_t size)
{
    char val[64], detail[160];
    fmt_row(x, kv, i, val, sizeof val, detail, sizeof detail);
    snprintf(out, size, "%s (%s)", val, detail);
}

/* ---- settings and eligibility ---- */

static double setting_num(const char *text, double fallback)
{
    if (!text)
        return fallback;
    char *end;
    double v = strtod(text, &end);
    return end != text && *end == '\0' && isfinite(v) && v >= 0 ? v : fallback;
}

double rd_workload_margin(const struct rd_analysis *a, const struct wl *w)
{
    return setting_num(w->margin, a->o.margin);
}

static int64_t pick_tie_breaker(const struct wctx *x)
{
    int64_t id = rd_analysis_metric_id(x->a, x->w->tie_breaker);
    if (rd_wctx_has_metric(x, id))
        return id;
    const char *memory[] = {"tree_rss_peak_kib", "max_rss_kib", "server_rss_peak_kib"};
    for (size_t i = 0; i < sizeof memory / sizeof memory[0]; i++) {
        id = rd_analysis_metric_id(x->a, memory[i]);
        if (rd_wctx_has_metric(x, id))
            return id;
    }
    return -1;
}

static double series_mean(const struct cfg *c, int64_t metric)
{
    if (metric < 0)
        return NAN;
    const struct series *s = rd_cfg_find_series(c, (uint32_t)metric);
    return s && s->len ? rd_stats_mean(s->v, s->len) : NAN;
}

/* Load errors per attempted request, the mean over the config's good
 * runs: each run's error_rate as the load judge wrote it, or for a run
 * recorded before error_rate existed the rate the same judge derives from
 * its counts (rundown/loadrate.h; ingest.c sums those). NaN when no run
 * has a rate. */
static double error_rate(const struct wctx *x, const struct cfg *c)
{
    int64_t id = rd_analysis_metric_id(x->a, "error_rate");
    if (c->derived_error_runs == 0)
        return series_mean(c, id);
    const struct series *s = id >= 0 ? rd_cfg_find_series(c, (uint32_t)id) : NULL;
    double sum = c->derived_error_sum;
    size_t n = c->derived_error_runs;
    for (uint32_t i = 0; s && i < s->len; i++)
        sum += s->v[i];
    n += s ? s->len : 0;
    return n ? sum / (double)n : NAN;
}

/* Checks one guard "metric<=limit" or "metric>=limit" against c; true
 * and a reason when broken. An unparsable guard or a metric the config
 * lacks breaks nothing (the guard warning says so). */
static bool guard_broken(const struct wctx *x, const struct cfg *c, const char *g, size_t len,
                         char *why, size_t size)
{
    char text[256];
    if (len >= sizeof text)
        return false;
    memcpy(text, g, len);
    text[len] = '\0';
    char *op = strstr(text, "<=");
    bool upper = op != NULL;
    if (!op)
        op = strstr(text, ">=");
    if (!op || op == text)
        return false;
    *op = '\0';
    char *end;
    double limit = strtod(op + 2, &end);
    if (end == op + 2 || *end)
        return false;
    double v = series_mean(c, rd_analysis_metric_id(x->a, text));
    if (isnan(v) || (upper ? v <= limit : v >= limit))
        return false;
    struct rd_metric_def def;
    rd_metric_describe(text, &def);
    char have[48], lim[48], label[96];
    fmt_amount(v, def.unit, have, sizeof have);
    fmt_amount(limit, def.unit, lim, sizeof lim);
    fmt_metric(text, label, sizeof label);
    snprintf(why, size, "%s %s, %s its limit %s", label, have, upper ? "above" : "below", lim);
    return true;
}

/* Is config i out of the comparison, and why? */
static bool disqualify(const struct wctx *x, size_t i, const struct reco *rc, char *why,
                       size_t size)
{
    const struct cfg *c = x->cs[i];
    const struct prep *p = &x->preps[i]; /* the primary metric */
    size_t bad = c->failed + c->timeouts, all = c->ok_runs + bad;
    const size_t min_good = x->a->o.min_good_runs;
    char failure[200] = "";
    if (c->failure)
        snprintf(failure, sizeof failure, ": %.180s", c->failure);
    if (all > 0 && (double)bad / (double)all > x->a->o.max_failed_share) {
        snprintf(why, size, "%zu of %zu runs failed%s%s", bad, all,
                 c->timeouts ? " or timed out" : "", failure);
        return true;
    }
    if (p->n_used < min_good) {
        snprintf(why, size, "%zu good run%s of the primary metric, fewer than %zu", p->n_used,
                 p->n_used == 1 ? "" : "s", min_good);
        return true;
    }
    double er = error_rate(x, c);
    if (er > rc->max_error_rate) {
        snprintf(why, size, "load errors on %.3g %% of requests, above the %.3g %% limit",
                 100 * er, 100 * rc->max_error_rate);
        return true;
    }
    for (const char *g = x->w->guards; g && *g;) {
        size_t len = strcspn(g, ",");
        if (guard_broken(x, c, g, len, why, size))
            return true;
        g += len + (g[len] == ',');
    }
    return false;
}

/* ---- the verdicts of one key metric ---- */

static rd_status decide_metric(struct wctx *x, struct reco *rc, size_t ti,
                               struct key_verdicts *kv)
{
    const size_t k = x->k;
    kv->ti = ti;
    kv->metric = x->tested[ti];
    kv->better = x->tests[ti].better;
    kv->recommended = SIZE_MAX;
    kv->rows = calloc(k ? k : 1, sizeof *kv->rows);
    kv->p_adj = calloc(k ? k : 1, sizeof *kv->p_adj);
    struct rd_verdict_sample *in = calloc(k ? k : 1, sizeof *in);
    if (!kv->rows || !kv->p_adj || !in) {
        free(in);
        return RD_ERR_NOMEM;
    }
    const struct prep *pp = &x->preps[ti * k];
    for (size_t i = 0; i < k; i++)
        in[i] = rd_levels_sample(&pp[i], pp[i].have && !rc->disqualified[i]);
    struct rd_verdict_settings s;
    rd_verdict_settings_init(&s);
    /* the level the workload's last look spends (looks.c): alpha
     * without a planned maximum */
    s.alpha = rd_looks_level(x, x->a->o.alpha);
    s.margin = rc->margin;
    s.higher_is_better = kv->better == RD_BETTER_HIGHER;
    /* blocks=round: each config against the best within rounds (pairs.h) */
    struct rd_pairs pairs = {0};
    if (rd_pairs_wanted(x->w)) {
        rd_status ps = rd_pairs_build(x, ti, &pairs);
        if (ps) {
            rd_pairs_release(&pairs);
            free(in);
            return ps;
        }
        s.pairing = &pairs.pairing;
    }
    /* A raced workload's primary metric: the configs the race eliminated
     * keep its verdict, the contenders are judged among themselves at the
     * level it leaves (stats/settle.h, rd_settle_judge). */
    bool *out = NULL;
    rd_status st = RD_OK;
    if (ti == 0 && rd_collection_raced(x)) {
        long *at = calloc(k ? k : 1, sizeof *at);
        out = calloc(k ? k : 1, sizeof *out);
        st = at && out ? rd_collection_race(x, at) : RD_ERR_NOMEM;
        for (size_t i = 0; !st && i < k; i++)
            out[i] = at[i] != 0;
        free(at);
    }
    if (!st)
        st = rd_settle_judge(in, k, &s, out, kv->rows, &kv->res);
    rd_pairs_release(&pairs);
    free(out);
    free(in);
    if (st == RD_ERR_STATS)
        st = RD_OK; /* no-data, said in the sentence */
    if (st)
        return st;
    for (size_t i = 0; i < k; i++) {
        kv->p_adj[i] = rd_verdict_p_adjusted(&kv->rows[i], &kv->res);
        if (kv->rows[i].verdict == RD_VERDICT_INCONCLUSIVE &&
            (kv->rows[i].runs_needed < 0 || kv->rows[i].runs_needed > kv->runs_needed))
            kv->runs_needed = kv->runs_needed < 0 ? -1 : kv->rows[i].runs_needed;
    }
    const size_t best = kv->res.best;
    if (kv->res.decision == RD_DECISION_CLEAR)
        kv->recommended = best;
    else if (kv->res.decision == RD_DECISION_EQUIVALENT) {
        /* Among the best and its equivalents, the best on the tie-breaker. */
        kv->recommended = best;
        if (rc->tie_metric >= 0) {
            enum rd_better dir = rd_wctx_metric_better(x, (uint32_t)rc->tie_metric);
            if (dir == RD_BETTER_NONE)
                dir = RD_BETTER_LOWER;
            double top = series_mean(x->cs[best], rc->tie_metric);
            for (size_t i = 0; i < k; i++) {
                if (kv->rows[i].verdict != RD_VERDICT_EQUIVALENT)
                    continue;
                double m = series_mean(x->cs[i], rc->tie_metric);
                if (rd_better_than(m, top, dir)) {
                    top = m;
                    kv->recommended = i;
                }
            }
        }
    }
    return RD_OK;
}

/* ---- words ---- */

static const char *intern(struct wctx *x, const char *s)
{
    return rd_arena_strdup(&x->tmp, s);
}

/* Whether the best was compared with no other config: a family of one
 * with no config worse. A raced workload's family holds its contenders
 * only (stats/settle.h, rd_settle_judge), and the configs the race
 * eliminated, counted worse, were compared with the best at its looks:
 * its last contender is not "the only config in the comparison". */
static bool best_alone(const struct key_verdicts *kv)
{
    return kv->res.family <= 1 && kv->res.n_worse == 0;
}

static rd_status describe_configs(struct wctx *x, struct reco *rc, const char *const *dq_why)
{
    const struct key_verdicts *kv = &rc->keys[0];
    char row[256], buf[512];
    for (size_t i = 0; i < x->k; i++) {
        const struct rd_verdict_row *r = &kv->rows[i];
        switch (r->verdict) {
        case RD_VERDICT_BEST:
            snprintf(buf, sizeof buf, best_alone(kv) ? "the only config in the comparison"
                                                       : "the best mean");
            break;
        case RD_VERDICT_EQUIVALENT:
            fmt_row_text(x, kv, i, row, sizeof row);
            snprintf(buf, sizeof buf, "equivalent within %g %% to the best: %s",
                     100 * rc->margin, row);
            break;
        case RD_VERDICT_WORSE:
            fmt_row_text(x, kv, i, row, sizeof row);
            if (r->beyond_margin == 1)
                snprintf(buf, sizeof buf, "more than %g %% %s than the best: %s",
                         100 * rc->margin, worse_word(kv), row);
            else if (r->beyond_margin < 0) /* eliminated by the race: no interval */
                snprintf(buf, sizeof buf, "%s than the best: %s", worse_word(kv), row);
            else
                snprintf(buf, sizeof buf, "%s than the best, perhaps by less than %g %%: %s",
                         worse_word(kv), 100 * rc->margin, row);
            break;
        case RD_VERDICT_INCONCLUSIVE:
            if (isnan(r->ratio)) {
                snprintf(buf, sizeof buf,
                         "cannot be compared as a ratio (a mean that is not positive)");
                break;
            }
            fmt_row_text(x, kv, i, row, sizeof row);
            char advice[160];
            rd_levels_advice(x, kv, i, r->runs_needed, advice, sizeof advice);
            snprintf(buf, sizeof buf, "could be within %g %% of the best or %s: %s%s%s",
                     100 * rc->margin, worse_word(kv), row, advice[0] ? "; " : "", advice);
            break;
        case RD_VERDICT_DISQUALIFIED:
            snprintf(buf, sizeof buf, "%s", dq_why[i] ? dq_why[i] : "no good run");
            break;
        }
        if (!(rc->why[i] = intern(x, buf)))
            return RD_ERR_NOMEM;
    }
    return RD_OK;
}

/* Appends printf-style text to rc->reason. */
static void say(struct reco *rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct reco *rc, const char *fmt, ...)
{
    size_t len = strlen(rc->reason);
    if (len + 1 >= sizeof rc->reason)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rc->reason + len, sizeof rc->reason - len, fmt, ap);
    va_end(ap);
}

/* "a, b and 3 more" for the configs of key metric 0 with verdict v. */
static void list_configs(const struct wctx *x, const struct key_verdicts *kv, enum rd_verdict v,
                         char *out, size_t size)
{
    size_t shown = 0, total = 0;
    out[0] = '\0';
    for (size_t i = 0; i < x->k; i++)
        total += kv->rows[i].verdict == v;
    for (size_t i = 0; i < x->k && shown < 3; i++) {
        if (kv->rows[i].verdict != v)
            continue;
        char name[256];
        rd_cfg_display_name(x->cs[i], name, sizeof name);
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", shown ? ", " : "", name);
        shown++;
    }
    if (total > shown) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, " and %zu more", total - shown);
    }
}

static void mean_pm(const struct wctx *x, size_t i, char *out, size_t size)
{
    const struct prep *p = &x->preps[i];
    struct rd_metric_def def;
    rd_metric_describe(x->a->metrics[x->primary], &def);
    fmt_amount_pm(p->sum.mean, p->sum.ci_high - p->sum.mean, def.unit, out, size);
}

/* The tie-breaker's own difference: "chosen for the lowest max RSS: 48.2
 * MiB against 51.6 MiB for deno / sequential". */
static void tie_words(const struct wctx *x, const struct reco *rc, size_t chosen, size_t best,
                      char *out, size_t size)
{
    struct rd_metric_def def;
    rd_metric_describe(x->a->metrics[rc->tie_metric], &def);
    char name[96];
    fmt_metric(x->a->metrics[rc->tie_metric], name, sizeof name);
    enum rd_better dir = rd_wctx_metric_better(x, (uint32_t)rc->tie_metric);
    char a[48], b[48], bn[256];
    fmt_amount(series_mean(x->cs[chosen], rc->tie_metric), def.unit, a, sizeof a);
    fmt_amount(series_mean(x->cs[best], rc->tie_metric), def.unit, b, sizeof b);
    rd_cfg_display_name(x->cs[best], bn, sizeof bn);
    if (chosen == best)
        snprintf(out, size, "it also has the %s %s (%s)",
                 dir == RD_BETTER_HIGHER ? "highest" : "lowest", name, a);
    else
        snprintf(out, size, "chosen for the %s %s: %s against %s for %.160s",
                 dir == RD_BETTER_HIGHER ? "highest" : "lowest", name, a, b, bn);
}

static void compose_reason(struct wctx *x, struct reco *rc)
{
    const struct key_verdicts *kv = &rc->keys[0];
    const size_t best = kv->res.best;
    char name[256], other[256], mp[128], row[256], list[768];
    rc->reason[0] = '\0';
    if (kv->res.decision == RD_DECISION_NO_DATA) {
        say(rc, "No decision: no config has %zu good runs and passes its limits",
            x->a->o.min_good_runs);
    } else {
        rd_cfg_display_name(x->cs[best], name, sizeof name);
        mean_pm(x, best, mp, sizeof mp);
        switch (kv->res.decision) {
        case RD_DECISION_CLEAR: {
            if (best_alone(kv)) {
                say(rc, "%s: %s; the only config in the comparison", name, mp);
                break;
            }
            /* The nearest of the worse configs: the smallest ratio gap. */
            size_t near = SIZE_MAX;
            for (size_t i = 0; i < x->k; i++)
                if (kv->rows[i].verdict == RD_VERDICT_WORSE &&
                    (near == SIZE_MAX ||
                     fabs(kv->rows[i].ratio - 1) < fabs(kv->rows[near].ratio - 1)))
                    near = i;
            rd_cfg_display_name(x->cs[near], other, sizeof other);
            fmt_row_text(x, kv, near, row, sizeof row);
            char how[96];
            if (kv->rows[near].beyond_margin == 1)
                snprintf(how, sizeof how, "more than %g %% %s", 100 * rc->margin,
                         worse_word(kv));
            else if (kv->rows[near].beyond_margin < 0) /* eliminated by the race */
                snprintf(how, sizeof how, "%s", worse_word(kv));
            else
                snprintf(how, sizeof how, "%s, perhaps by less than %g %%", worse_word(kv),
                         100 * rc->margin);
            say(rc, "Clear: %s is best, %s; every other config is %s; the nearest, %s, is %s: %s",
                name, mp, worse_word(kv), other, how, row);
            break;
        }
        case RD_DECISION_EQUIVALENT: {
            list_configs(x, kv, RD_VERDICT_EQUIVALENT, list, sizeof list);
            say(rc, "Equivalent within %g %%: %s (best mean, %s) and %s", 100 * rc->margin,
                name, mp, list);
            size_t rec = kv->recommended;
            if (rc->tie_metric >= 0) {
                char tw[400];
                tie_words(x, rc, rec, best, tw, sizeof tw);
                rd_cfg_display_name(x->cs[rec], other, sizeof other);
                if (rec == best)
                    say(rc, "; %s recommended: %s", name, tw);
                else {
                    fmt_row_text(x, kv, rec, row, sizeof row);
                    say(rc, "; %s recommended, %s; against the best it is %s", other, tw,
                        row);
                }
            } else {
                say(rc, "; %s recommended (best mean; no tie-breaker metric)", name);
            }
            if (kv->res.n_worse)
                say(rc, "; %zu other config%s %s", kv->res.n_worse,
                    kv->res.n_worse == 1 ? " is" : "s are", worse_word(kv));
            break;
        }
        case RD_DECISION_INCONCLUSIVE: {
            say(rc, "Inconclusive: %s has the best mean, %s, but ", name, mp);
            size_t shown = 0;
            for (size_t i = 0; i < x->k; i++) {
                if (kv->rows[i].verdict != RD_VERDICT_INCONCLUSIVE)
                    continue;
                if (shown == 3) {
                    say(rc, " and %zu more", kv->res.n_inconclusive - shown);
                    break;
                }
                rd_cfg_display_name(x->cs[i], other, sizeof other);
                char val[64], detail[160];
                fmt_row(x, kv, i, val, sizeof val, detail, sizeof detail);
                say(rc, "%s%s (%s, %s)", shown ? ", " : "", other, val, detail);
                shown++;
            }
            say(rc, " could be within %g %% of it or %s", 100 * rc->margin, worse_word(kv));
            char advice[160];
            rd_levels_advice(x, kv, SIZE_MAX, kv->runs_needed, advice, sizeof advice);
            if (advice[0])
                say(rc, "; %s", advice);
            break;
        }
        case RD_DECISION_NO_DATA:
            break;
        }
    }
    if (kv->res.n_disqualified) {
        size_t shown = 0;
        for (size_t i = 0; i < x->k; i++) {
            if (kv->rows[i].verdict != RD_VERDICT_DISQUALIFIED || !rc->disqualified[i])
                continue;
            if (shown == 3) {
                say(rc, " and %zu more", kv->res.n_disqualified - shown);
                break;
            }
            rd_cfg_display_name(x->cs[i], other, sizeof other);
            say(rc, "%s%s (%s)", shown ? ", " : ". Disqualified: ", other, rc->why[i]);
            shown++;
        }
    }
    /* Key metrics that name another winner. */
    bool disagree = false;
    for (size_t m = 1; m < rc->nkeys; m++)
        if (rc->keys[m].res.best != best && rc->keys[m].res.best < x->k)
            disagree = true;
    if (disagree) {
        say(rc, ". Key metrics disagree: ");
        for (size_t m = 0; m < rc->nkeys; m++) {
            const struct key_verdicts *km = &rc->keys[m];
            if (km->res.best >= x->k)
                continue;
            char label[96];
            rd_cfg_display_name(x->cs[km->res.best], other, sizeof other);
            fmt_metric(x->a->metrics[km->metric], label, sizeof label);
            say(rc, "%s%s %s: %s (%s)", m ? "; " : "",
                km->better == RD_BETTER_HIGHER ? "highest" : "lowest", label, other,
                rd_decision_name(km->res.decision));
        }
    }
}

/* ---- answers per label ---- */

static const char *label_of(const struct cfg *c, const char *key)
{
    for (size_t i = 0; i < c->nlabels; i++)
        if (strcmp(c->labels[i].key, key) == 0)
            return c->labels[i].value;
    return NULL;
}

static bool candidate(const struct rd_verdict_row *r)
{
    return r->verdict == RD_VERDICT_BEST || r->verdict == RD_VERDICT_EQUIVALENT ||
           r->verdict == RD_VERDICT_INCONCLUSIVE;
}

static bool same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Which labels the verdicts settle: every label key of the eligible
 * configs (first seen order) that takes more than one value among them is
 * settled when the candidates share one value, else open. */
static rd_status settle_labels(struct wctx *x, struct reco *rc)
{
    const struct key_verdicts *kv = &rc->keys[0];
    size_t cap = 0;
    for (size_t i = 0; i < x->k; i++)
        cap += x->cs[i]->nlabels;
    rc->settled_keys = calloc(cap ? cap : 1, sizeof *rc->settled_keys);
    rc->settled_values = calloc(cap ? cap : 1, sizeof *rc->settled_values);
    rc->open_keys = calloc(cap ? cap : 1, sizeof *rc->open_keys);
    if (!rc->settled_keys || !rc->settled_values || !rc->open_keys)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < x->k; i++)
        rc->ncandidates += candidate(&kv->rows[i]);
    if (!rc->ncandidates)
        return RD_OK;
    /* The keys looked at so far: few, against many configs. */
    const char **done = calloc(cap ? cap : 1, sizeof *done);
    size_t ndone = 0;
    if (!done)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < x->k; i++) {
        if (kv->rows[i].verdict == RD_VERDICT_DISQUALIFIED)
            continue;
        for (size_t l = 0; l < x->cs[i]->nlabels; l++) {
            const char *key = x->cs[i]->labels[l].key;
            bool seen = false;
            for (size_t d = 0; d < ndone && !seen; d++)
                seen = strcmp(done[d], key) == 0;
            if (seen)
                continue;
            done[ndone++] = key;
            const char *first = NULL, *cand = NULL;
            bool varies = false, split = false, any = false;
            for (size_t j = 0; j < x->k; j++) {
                if (kv->rows[j].verdict == RD_VERDICT_DISQUALIFIED)
                    continue;
                const char *v = label_of(x->cs[j], key);
                if (!any)
                    first = v;
                varies |= any && !same(v, first);
                any = true;
                if (!candidate(&kv->rows[j]))
                    continue;
                if (!cand)
                    cand = v ? v : "";
                else
                    split |= !same(v ? v : "", cand);
            }
            if (!varies)
                continue;
            if (split || !*cand) {
                rc->open_keys[rc->nopen++] = key;
            } else {
                rc->settled_keys[rc->nsettled] = key;
                rc->settled_values[rc->nsettled++] = cand;
            }
        }
    }
    free(done);
    return RD_OK;
}

/* "runtime: bun (settled); mechanism, workers: open among 4 candidates". */
static void say_labels(struct reco *rc)
{
    if (!rc->nsettled && !rc->nopen)
        return;
    say(rc, ". By label: ");
    for (size_t s = 0; s < rc->nsettled; s++)
        say(rc, "%s%s: %s", s ? ", " : "", rc->settled_keys[s], rc->settled_values[s]);
    if (rc->nsettled)
        say(rc, " (settled)");
    for (size_t s = 0; s < rc->nopen; s++)
        say(rc, "%s%s", s ? ", " : rc->nsettled ? "; " : "", rc->open_keys[s]);
    if (rc->nopen)
        say(rc, ": open among %zu candidates", rc->ncandidates);
}

/* ---- the old rule, kept for readers of "tied" ---- */

static rd_status old_ties(struct wctx *x, struct reco *rc)
{
    const struct tests *t = &x->tests[0];
    rc->tied = malloc((x->k ? x->k : 1) * sizeof *rc->tied);
    if (!rc->tied)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < x->k; i++) {
        if (!x->preps[i].have || i == rc->best || rc->disqualified[i])
            continue;
        const struct pair *pr = rd_compare_find_pair(t, i, rc->best);
        if (!pr || isnan(pr->p_holm) || pr->p_holm >= x->a->o.alpha)
            rc->tied[rc->ntied++] = i;
    }
    return RD_OK;
}

rd_status rd_recommend(struct wctx *x, struct reco *rc)
{
    memset(rc, 0, sizeof *rc);
    const size_t k = x->k;
    rc->tie_metric = pick_tie_breaker(x);
    rc->margin = rd_workload_margin(x->a, x->w);
    rc->max_error_rate = setting_num(x->w->max_error_rate, x->a->o.max_error_rate);
    rc->best = rc->recommended = SIZE_MAX;
    if (x->tests[0].better == RD_BETTER_NONE)
        return RD_OK; /* no direction, no best: the warning says so */
    rc->have = true;
    rc->nkeys = x->nkeys ? x->nkeys : 1;
    rc->disqualified = calloc(k ? k : 1, sizeof *rc->disqualified);
    rc->why = calloc(k ? k : 1, sizeof *rc->why);
    rc->keys = calloc(rc->nkeys, sizeof *rc->keys);
    const char **dq_why = calloc(k ? k : 1, sizeof *dq_why);
    if (!rc->disqualified || !rc->why || !rc->keys || !dq_why) {
        free(dq_why);
        return RD_ERR_NOMEM;
    }
    rd_status st = RD_OK;
    for (size_t i = 0; i < k && !st; i++) {
        char why[512];
        if (x->preps[i].have || x->cs[i]->failed + x->cs[i]->timeouts > 0) {
            rc->disqualified[i] = disqualify(x, i, rc, why, sizeof why);
            if (rc->disqualified[i] && !(dq_why[i] = intern(x, why)))
                st = RD_ERR_NOMEM;
        } else {
            /* No run of this config measured the primary metric. */
            rc->disqualified[i] = true;
            dq_why[i] = "no run measured the primary metric";
        }
    }
    for (size_t m = 0; m < rc->nkeys && !st; m++)
        st = decide_metric(x, rc, m, &rc->keys[m]);
    if (!st) {
        rc->best = rc->keys[0].res.best < k ? rc->keys[0].res.best : SIZE_MAX;
        rc->recommended = rc->keys[0].recommended;
        st = describe_configs(x, rc, dq_why);
    }
    if (!st && rc->best != SIZE_MAX)
        st = old_ties(x, rc);
    if (!st)
        st = settle_labels(x, rc);
    if (!st) {
        compose_reason(x, rc);
        /* A clear winner names every label already. */
        if (rc->keys[0].res.decision == RD_DECISION_EQUIVALENT ||
            rc->keys[0].res.decision == RD_DECISION_INCONCLUSIVE)
            say_labels(rc);
    }
    free(dq_why);
    return st;
}

void rd_reco_release(struct reco *rc, size_t k)
{
    (void)k;
    for (size_t m = 0; rc->keys && m < rc->nkeys; m++) {
        free(rc->keys[m].rows);
        free(rc->keys[m].p_adj);
    }
    free(rc->keys);
    free(rc->why);
    free(rc->disqualified);
    free(rc->tied);
    free(rc->settled_keys);
    free(rc->settled_values);
    free(rc->open_keys);
    memset(rc, 0, sizeof *rc);
}
