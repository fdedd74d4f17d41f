/*
 * recommend.c - which config of a workload to use, and the sentence that
 * says why: the best mean on the primary metric, unless configs whose
 * Holm-adjusted p against it is not below alpha are "tied" with it, in
 * which case the best of those on the tie-breaker metric (memory by
 * default). The numbers in the sentence are rounded for reading; the
 * exact ones are in the document beside it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

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

static int64_t pick_tie_breaker(const struct wctx *x)
{
    int64_t id = rd_analysis_metric_id(x->a, x->w->tie_breaker);
    if (rd_wctx_has_metric(x, id))
        return id;
    id = rd_analysis_metric_id(x->a, "max_rss_kib");
    if (rd_wctx_has_metric(x, id))
        return id;
    id = rd_analysis_metric_id(x->a, "server_rss_peak_kib");
    if (rd_wctx_has_metric(x, id))
        return id;
    return -1;
}

rd_status rd_recommend(struct wctx *x, struct reco *rc)
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
        if (runner == SIZE_MAX ||
            rd_better_than(pp[i].sum.mean, pp[runner].sum.mean, t->better))
            runner = i;
        const struct pair *pr = rd_compare_find_pair(t, i, t->best);
        /* An undefined test cannot show a difference: the config stays tied. */
        if (!pr || isnan(pr->p_holm) || pr->p_holm >= x->a->o.alpha)
            rc->tied[rc->ntied++] = i;
    }
    /* Among the best and its ties, the best on the tie-breaker (memory). */
    double tb_best = NAN;
    if (rc->tie_metric >= 0 && rc->ntied > 0) {
        enum rd_better tb_dir = rd_analysis_metric_better(x->a, (uint32_t)rc->tie_metric);
        if (tb_dir == RD_BETTER_NONE)
            tb_dir = RD_BETTER_LOWER;
        size_t cand = SIZE_MAX;
        for (size_t j = 0; j <= rc->ntied; j++) {
            size_t i = j == 0 ? t->best : rc->tied[j - 1];
            const struct series *s = rd_cfg_find_series(x->cs[i], (uint32_t)rc->tie_metric);
            if (!s || s->len == 0)
                continue;
            double m = rd_stats_mean(s->v, s->len);
            if (cand == SIZE_MAX || rd_better_than(m, tb_best, tb_dir)) {
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
    rd_cfg_display_name(x->cs[rc->recommended], name, sizeof name);
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
        rd_compare_two(pu, pb, conf, NULL, &r);
        const struct pair *pair = rd_compare_find_pair(t, runner, t->best);
        char rn[256], mh[64], mci[160], p[64];
        rd_cfg_display_name(x->cs[runner], rn, sizeof rn);
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
    rd_compare_two(pr, pb, conf, NULL, &r);
    const struct pair *pair = rd_compare_find_pair(t, rc->recommended, t->best);
    char bn[256], mh[64], mci[160], p[64], v1[32], v2[32];
    rd_cfg_display_name(x->cs[t->best], bn, sizeof bn);
    fmt_margin(x, x->primary, &r, mh, sizeof mh, mci, sizeof mci);
    fmt_p("p_holm", pair ? pair->p_holm : NAN, p, sizeof p);
    const struct series *sb = rd_cfg_find_series(x->cs[t->best], (uint32_t)rc->tie_metric);
    struct rd_metric_def tdef;
    rd_metric_describe(x->a->metrics[rc->tie_metric], &tdef);
    fmt_val(tb_best, v1, sizeof v1);
    fmt_val(sb && sb->len ? rd_stats_mean(sb->v, sb->len) : NAN, v2, sizeof v2);
    snprintf(rc->reason, sizeof rc->reason,
             "%s; statistically tied with %s (%s than it, %s, %s) and lower %.100s (%s vs %s %.16s)",
             head, bn, mh, mci, p, x->a->metrics[rc->tie_metric], v1, v2, tdef.unit);
    return RD_OK;
}
