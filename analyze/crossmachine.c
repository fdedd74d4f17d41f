/*
 * crossmachine.c - claims across machines (issue 30; docs/analysis.md,
 * "machines"; docs/methods.md, "One ratio across machines").
 *
 * Runs of one workload from several environments are read into one
 * workload per environment (ingest.c, machine_workload): each machine
 * keeps its own verdicts. Here the first machine's workload gets its
 * NAME@ENV name too, and the "machines" section sets the machines side by
 * side: per workload, the config that is best on most machines is the
 * reference, and every other config's ratio to it (the primary metric's
 * means, config / reference) is given on each machine with its log-scale
 * interval, then across machines with machines as a random level, and
 * whether the machines agree (stats/machines.c: DerSimonian-Laird with
 * the HKSJ interval, Cochran's Q). Each machine's log-scale interval is
 * the verdicts' delta method (stats/logratio.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crossmachine.h"
#include "analysis_int.h"
#include "claims.h"
#include "jw.h"
#include "machines.h"
#include "moments.h"
#include "stats.h"
#include "rundown/analysis_keys.h"
#include "rundown/array.h"
#include "rundown/buf.h"
#include "rundown/json.h"
#include "rundown/metrics.h"
#include "rundown/numfmt.h"

rd_status rd_machines_settle(struct rd_analysis *a)
{
    for (size_t i = 0; i < a->nwls; i++) {
        struct wl *wl = &a->wls[i];
        if (!wl->split || wl->base || !wl->first_env)
            continue;
        char *name = rd_arena_alloc(&a->strings, strlen(wl->name) + strlen(wl->first_env) + 2);
        if (!name)
            return RD_ERR_NOMEM;
        sprintf(name, "%s@%s", wl->name, wl->first_env);
        wl->base = wl->name;
        wl->machine = wl->first_env;
        wl->name = name;
        for (size_t k = 0; k < wl->ncfgs; k++)
            a->cfgs[wl->cfgs[k]].workload = name;
        RD_TRY(rd_strmap_put(&a->wl_map, name, (int64_t)i, NULL));
    }
    return RD_OK;
}

/* Per-machine workloads by base name, then by name. */
static int cmp_machine_wl(const void *x, const void *y)
{
    const struct wl *a = *(const struct wl *const *)x, *b = *(const struct wl *const *)y;
    int c = strcmp(a->base, b->base);
    return c ? c : strcmp(a->name, b->name);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* One config's sample of the metric on one machine. */
struct sample {
    double mean, sd, n, log_sd;
};

static struct sample sample_of(const struct rd_analysis *a, const struct wl *wl, const char *id,
                               uint32_t metric)
{
    struct sample s = {NAN, NAN, 0, 0};
    for (size_t k = 0; k < wl->ncfgs; k++) {
        const struct cfg *c = &a->cfgs[wl->cfgs[k]];
        const struct series *se;
        if (strcmp(c->id, id) != 0 || !(se = rd_cfg_find_series(c, metric)) || se->len == 0)
            continue;
        s.mean = rd_stats_mean(se->v, se->len);
        s.sd = se->len > 1 ? rd_stats_sd(se->v, se->len) : NAN;
        s.n = (double)se->len;
        s.log_sd = rd_log_sd(se->v, se->len);
    }
    return s;
}

/* "1.27", "0.981", "1.40": three significant digits, as the report
 * writes them. */
static void fmt3(char *out, size_t size, double v)
{
    struct rd_buf b = RD_BUF_INIT;
    if (rd_fmt_num(&b, v, 3) == RD_OK && b.len < size)
        memcpy(out, b.ptr, b.len + 1);
    else
        snprintf(out, size, "%.3g", v);
    rd_buf_release(&b);
}

/* One config's ratio to the reference on one machine. */
struct on_machine {
    struct rd_log_ratio r;
    double n, n_ref; /* their runs */
};

/* The sentence of a comparison (RD_AK_TEXT). */
static void comparison_text(struct rd_buf *t, const char *config, const char *ref,
                            const struct wl *const *m, const struct on_machine *on, size_t n,
                            const struct rd_between_machines *b)
{
    char x[32], lo[32], hi[32];
    rd_buf_addf(t, "%s / %s:", config, ref);
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        const struct rd_log_ratio *r = &on[i].r;
        if (isnan(r->log_ratio))
            continue;
        fmt3(x, sizeof x, exp(r->log_ratio));
        fmt3(lo, sizeof lo, r->low);
        fmt3(hi, sizeof hi, r->high);
        rd_buf_addf(t, "%s %s\u00d7 (%s\u2013%s) on %s", shown++ ? "," : "", x, lo, hi,
                    m[i]->machine);
    }
    if (b->k < 2) {
        rd_buf_addf(t, "%s estimable on %zu machine%s only", shown ? ";" : "", b->k,
                    b->k == 1 ? "" : "s");
        return;
    }
    fmt3(lo, sizeof lo, b->low);
    fmt3(hi, sizeof hi, b->high);
    if (b->consistent) {
        rd_buf_addf(t, ": consistent across %zu machines", b->k);
    } else {
        fmt3(x, sizeof x, b->q);
        rd_buf_addf(t, ": differs between the %zu machines (Cochran's Q %s, p ", b->k, x);
        rd_fmt_p(t, b->q_p);
        rd_buf_addch(t, ')');
    }
    rd_buf_addf(t, "; between-machine interval %s\u2013%s\u00d7", lo, hi);
}

/* The metric a group of per-machine workloads is compared on: the
 * primary metric its runs name, --metric, or the first metric read. */
static const char *group_metric(const struct rd_analysis *a, const struct wl *const *g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (g[i]->primary)
            return g[i]->primary;
    if (a->o.metric)
        return a->o.metric;
    for (size_t i = 0; i < n; i++)
        if (g[i]->first_metric >= 0)
            return a->metrics[g[i]->first_metric];
    return NULL;
}

/* One comparison: config against ref on the group's machines, judged
 * (made only for a config measured on two machines or more). */
struct comparison {
    const char *config, *ref;
    struct on_machine *on;   /* [the group's n] */
    struct rd_between_machines b;
    char *text;              /* RD_AK_TEXT, owned */
};

/* One entry of "machines" (a workload) or of "machine_claims" (a claim):
 * its machines g[0..n), its reference and its comparisons. */
struct group {
    const struct wl *const *g;
    size_t n;
    const char *metric, *better, *reference;
    const char **best;                  /* [n] each machine's best; "machines" only */
    const cJSON *doc;                   /* the claim's study; "machine_claims" only */
    const char *file, *text;
    size_t index;
    struct comparison *comps;
    size_t ncomps, capcomps;
};

/* Every group judged before the document is written (issue 27): the
 * writer only writes them. */
struct rd_machines {
    const struct wl **wls;   /* the per-machine workloads, by base then name */
    size_t nwls;
    struct group *groups;
    size_t ngroups, capgroups;
};

/* The per-machine workloads, by base name then name, into *out (the
 * caller's to free); *n 0 (and *out NULL) with one machine. */
static rd_status machine_wls(const struct rd_analysis *a, const struct wl ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    for (size_t i = 0; i < a->nwls; i++)
        *n += a->wls[i].base != NULL;
    if (*n == 0)
        return RD_OK;
    const struct wl **g = malloc(*n * sizeof *g);
    if (!g)
        return RD_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < a->nwls; i++)
        if (a->wls[i].base)
            g[k++] = &a->wls[i];
    qsort(g, k, sizeof *g, cmp_machine_wl);
    *out = g;
    return RD_OK;
}

/* The end of the run of g (sorted by base) that starts at i: the machines
 * of one workload. */
static size_t same_base_end(const struct wl *const *g, size_t n, size_t i)
{
    size_t j = i;
    while (j < n && strcmp(g[j]->base, g[i]->base) == 0)
        j++;
    return j;
}

static rd_status machines_new(const struct rd_analysis *a, struct rd_machines **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? machine_wls(a, &(*out)->wls, &(*out)->nwls) : RD_ERR_NOMEM;
}

static struct group *add_group(struct rd_machines *m, const struct wl *const *g, size_t n)
{
    if (RD_ARRAY_GROW(m->groups, m->capgroups, m->ngroups + 1))
        return NULL;
    struct group *gr = &m->groups[m->ngroups++];
    *gr = (struct group){ .g = g, .n = n };
    return gr;
}

/* Config x against reference y on the group's machines (their samples
 * x[i * stride], y[i * stride]), judged into the group's next comparison;
 * nothing for a config measured on fewer than two machines. */
static rd_status judge_comparison(const struct rd_analysis *a, struct group *gr,
                                  const struct sample *x, const struct sample *y, size_t stride,
                                  const char *config)
{
    const size_t n = gr->n;
    struct on_machine *on = calloc(n ? n : 1, sizeof *on);
    struct rd_machine_ratio *mr = calloc(n ? n : 1, sizeof *mr);
    rd_status st = on && mr ? RD_OK : RD_ERR_NOMEM;
    size_t both = 0;
    for (size_t i = 0; i < n && !st; i++) {
        const struct sample *u = &x[i * stride], *v = &y[i * stride];
        struct rd_ratio_side us = {u->n, u->mean, u->sd, u->log_sd},
                             vs = {v->n, v->mean, v->sd, v->log_sd};
        st = rd_log_ratio(&us, &vs, a->o.confidence, &on[i].r);
        on[i].n = u->n;
        on[i].n_ref = v->n;
        mr[i] = (struct rd_machine_ratio){on[i].r.log_ratio, on[i].r.se};
        both += u->n > 0 && v->n > 0;
    }
    struct rd_between_machines b;
    if (!st && both >= 2)
        st = rd_between_machines(mr, n, a->o.confidence, a->o.alpha, &b);
    if (!st && both >= 2)
        st = RD_ARRAY_GROW(gr->comps, gr->capcomps, gr->ncomps + 1);
    if (st || both < 2) {
        free(on);
        free(mr);
        return st;
    }
    struct comparison *c = &gr->comps[gr->ncomps];
    *c = (struct comparison){ .config = config, .ref = gr->reference, .on = on, .b = b };
    struct rd_buf text = RD_BUF_INIT;
    comparison_text(&text, config, gr->reference, gr->g, on, n, &b);
    c->text = rd_buf_detach(&text, NULL);
    free(mr);
    rd_buf_release(&text);
    if (!c->text) {
        free(on);
        return RD_ERR_NOMEM;
    }
    gr->ncomps++;
    return RD_OK;
}

/* One workload's entry of "machines": g[0..n) are its machines. */
static rd_status judge_group(const struct rd_analysis *a, struct rd_machines *m,
                             const struct wl *const *g, size_t n)
{
    const char *metric = group_metric(a, g, n);
    int64_t mid = rd_analysis_metric_id(a, metric);
    int better = g[0]->better ? rd_better_parse(g[0]->better) : -1;
    if (better < 0 && metric) {
        struct rd_metric_def def;
        rd_metric_describe(metric, &def);
        better = (int)def.better;
    }
    if (mid < 0 || (better != RD_BETTER_LOWER && better != RD_BETTER_HIGHER))
        return RD_OK;  /* nothing to rank by */
    /* Every config id of the group, once. */
    size_t nids = 0, cap = 0;
    const char **ids = NULL;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < g[i]->ncfgs; k++) {
            RD_TRY(RD_ARRAY_GROW(ids, cap, nids + 1));
            ids[nids++] = a->cfgs[g[i]->cfgs[k]].id;
        }
    if (nids > 1)
        qsort(ids, nids, sizeof *ids, cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < nids; i++)
        if (u == 0 || strcmp(ids[u - 1], ids[i]) != 0)
            ids[u++] = ids[i];
    nids = u;
    struct sample *s = calloc(n * (nids ? nids : 1), sizeof *s);
    size_t *best_on = calloc(nids ? nids : 1, sizeof *best_on);
    const char **best = calloc(n, sizeof *best);
    struct group *gr = s && best_on && best ? add_group(m, g, n) : NULL;
    rd_status st = RD_ERR_NOMEM;
    if (!gr)
        goto out;
    gr->metric = metric;
    gr->better = rd_better_name((enum rd_better)better);
    gr->best = best;
    best = NULL; /* the group's now */
    /* Each machine's best config: the best mean of two runs or more. */
    for (size_t i = 0; i < n; i++) {
        size_t bi = SIZE_MAX;
        for (size_t c = 0; c < nids; c++) {
            struct sample *x = &s[i * nids + c];
            *x = sample_of(a, g[i], ids[c], (uint32_t)mid);
            if (x->n < 2 || isnan(x->mean))
                continue;
            if (bi == SIZE_MAX || (better == RD_BETTER_LOWER ? x->mean < s[i * nids + bi].mean
                                                             : x->mean > s[i * nids + bi].mean))
                bi = c;
        }
        if (bi != SIZE_MAX) {
            best_on[bi]++;
            gr->best[i] = ids[bi];
        }
    }
    /* The reference: best on the most machines (the first id of a tie).
     * No config of two runs on any machine: the machines are listed, no
     * comparison can be made. */
    size_t ref = SIZE_MAX;
    for (size_t c = 0; c < nids; c++)
        if (best_on[c] && (ref == SIZE_MAX || best_on[c] > best_on[ref]))
            ref = c;
    gr->reference = ref == SIZE_MAX ? NULL : ids[ref];
    st = RD_OK;
    for (size_t c = 0; c < nids && !st && ref != SIZE_MAX; c++)
        if (c != ref)
            st = judge_comparison(a, gr, s + c, s + ref, nids, ids[c]);
out:
    free(ids);
    free(s);
    free(best_on);
    free(best);
    return st;
}

/* One ratio claim (doc's claim idx) across the machines g[0..n) of its
 * workload; nothing when no machine has its a and its b. */
static rd_status judge_claim(const struct rd_analysis *a, struct rd_machines *m,
                             const cJSON *doc, const cJSON *cl, const char *file, size_t idx,
                             const struct wl *const *g, size_t n)
{
    const char *metric = rd_json_str(cl, "metric");
    int64_t mid = rd_analysis_metric_id(a, metric);
    if (mid < 0)
        return RD_OK;
    struct sample *x = calloc(2 * n, sizeof *x);
    if (!x)
        return RD_ERR_NOMEM;
    rd_status st = RD_OK;
    const char *id[2] = {NULL, NULL};
    for (size_t i = 0; i < n; i++) {
        const struct cfg *c[2];
        if (!rd_claim_ratio_configs(a, g[i], cl, c))
            goto out;  /* not a ratio claim */
        for (int side = 0; side < 2; side++) {
            x[side * n + i] = (struct sample){NAN, NAN, 0, 0};
            if (!c[side])
                continue;
            x[side * n + i] = sample_of(a, g[i], c[side]->id, (uint32_t)mid);
            if (!id[side])
                id[side] = c[side]->id;
        }
    }
    if (!id[0] || !id[1])
        goto out;
    struct group *gr = add_group(m, g, n);
    if (!gr) {
        st = RD_ERR_NOMEM;
        goto out;
    }
    struct rd_metric_def def;
    rd_metric_describe(metric, &def);
    gr->metric = metric;
    gr->better = rd_better_name(def.better);
    gr->reference = id[1];
    gr->doc = doc;
    gr->file = file;
    gr->index = idx;
    gr->text = rd_json_str(cl, "text");
    st = judge_comparison(a, gr, x, x + n, 1, id[0]);
out:
    free(x);
    return st;
}

rd_status rd_machines_judge(const struct rd_analysis *a, struct rd_machines **out)
{
    RD_TRY(machines_new(a, out));
    struct rd_machines *m = *out;
    rd_status st = RD_OK;
    for (size_t i = 0, j; i < m->nwls && !st; i = j) {
        j = same_base_end(m->wls, m->nwls, i);
        st = judge_group(a, m, m->wls + i, j - i);
    }
    return st;
}

rd_status rd_machines_claims_judge(const struct rd_analysis *a, cJSON *const *docs,
                                   const char *const *files, size_t ndocs,
                                   struct rd_machines **out)
{
    RD_TRY(machines_new(a, out));
    struct rd_machines *m = *out;
    const size_t n = m->nwls;
    const struct wl *const *g = m->wls;
    rd_status st = RD_OK;
    for (size_t d = 0; d < ndocs && n && !st; d++) {
        const cJSON *cl, *claims = cJSON_GetObjectItemCaseSensitive(docs[d], "claims");
        size_t idx = 0;
        cJSON_ArrayForEach(cl, claims) {
            idx++;
            const char *wname = rd_json_str(cl, "workload");
            size_t lo = 0, hi;
            while (lo < n && strcmp(g[lo]->base, wname ? wname : "") != 0)
                lo++;
            hi = same_base_end(g, n, lo);
            if (hi - lo >= 2 &&
                (st = judge_claim(a, m, docs[d], cl, files[d], idx, g + lo, hi - lo)))
                break;
        }
    }
    return st;
}

static void write_comparison(struct jw *w, const struct group *gr, const struct comparison *c)
{
    jw_obj(w, NULL, true);
    jw_str(w, RD_AK_CONFIG, c->config);
    jw_arr(w, RD_AK_PER_MACHINE, true);
    for (size_t i = 0; i < gr->n; i++) {
        const struct rd_log_ratio *r = &c->on[i].r;
        jw_obj(w, NULL, false);
        jw_str(w, RD_AK_MACHINE, gr->g[i]->machine);
        jw_str(w, RD_AK_WORKLOAD, gr->g[i]->name);
        jw_num(w, RD_AK_RATIO, isnan(r->log_ratio) ? NAN : exp(r->log_ratio));
        jw_num(w, RD_AK_RATIO_CI_LOW, r->low);
        jw_num(w, RD_AK_RATIO_CI_HIGH, r->high);
        jw_num(w, RD_AK_N, c->on[i].n);
        jw_num(w, RD_AK_N_REFERENCE, c->on[i].n_ref);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    const struct rd_between_machines *b = &c->b;
    jw_num(w, RD_AK_K, (double)b->k);
    jw_num(w, RD_AK_RATIO, b->k ? b->ratio : NAN);
    jw_num(w, RD_AK_RATIO_CI_LOW, b->low);
    jw_num(w, RD_AK_RATIO_CI_HIGH, b->high);
    jw_num(w, RD_AK_TAU2, b->tau2);
    jw_num(w, RD_AK_Q, b->q);
    jw_num(w, RD_AK_P, b->q_p);
    jw_bool(w, RD_AK_CONSISTENT, b->consistent);
    jw_str(w, RD_AK_TEXT, c->text);
    jw_end(w, '}');
}

/* One group: a "machines" entry, or a "machine_claims" one (with its
 * claim, without best_on). */
static void write_group(struct jw *w, const struct group *gr)
{
    jw_obj(w, NULL, true);
    jw_str(w, RD_AK_WORKLOAD, gr->g[0]->base);
    jw_str(w, RD_AK_METRIC, gr->metric);
    jw_str(w, RD_AK_BETTER, gr->better);
    jw_arr(w, RD_AK_MACHINE_IDS, false);
    for (size_t i = 0; i < gr->n; i++)
        jw_str(w, NULL, gr->g[i]->machine);
    jw_end(w, ']');
    jw_str(w, RD_AK_REFERENCE, gr->reference);
    if (gr->doc) {
        jw_obj(w, RD_AK_CLAIM, false);
        jw_str(w, RD_AK_FILE, gr->file);
        jw_str(w, RD_AK_STUDY, rd_json_str(gr->doc, "study"));
        jw_num(w, RD_AK_INDEX, (double)gr->index);
        jw_str(w, RD_AK_TEXT, gr->text);
        jw_end(w, '}');
    } else {
        jw_obj(w, RD_AK_BEST_ON, false);
        for (size_t i = 0; i < gr->n; i++)
            jw_str(w, gr->g[i]->machine, gr->best[i]);
        jw_end(w, '}');
    }
    jw_arr(w, RD_AK_COMPARISONS, true);
    for (size_t c = 0; c < gr->ncomps; c++)
        write_comparison(w, gr, &gr->comps[c]);
    jw_end(w, ']');
    jw_end(w, '}');
}

/* "key": [the groups], when some workload was measured on several
 * machines; nothing otherwise. */
static rd_status write_groups(const struct rd_machines *m, struct jw *w, const char *key)
{
    if (!m || m->nwls == 0)
        return RD_OK;  /* one machine: no section */
    jw_arr(w, key, true);
    for (size_t i = 0; i < m->ngroups; i++)
        write_group(w, &m->groups[i]);
    jw_end(w, ']');
    return w->st;
}

rd_status rd_machines_write(const struct rd_machines *m, struct jw *w)
{
    return write_groups(m, w, RD_AK_MACHINES);
}

rd_status rd_machines_claims_write(const struct rd_machines *m, struct jw *w)
{
    return write_groups(m, w, RD_AK_MACHINE_CLAIMS);
}

void rd_machines_free(struct rd_machines *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->ngroups; i++) {
        struct group *gr = &m->groups[i];
        for (size_t c = 0; c < gr->ncomps; c++) {
            free(gr->comps[c].on);
            free(gr->comps[c].text);
        }
        free(gr->comps);
        free(gr->best);
    }
    free(m->groups);
    free(m->wls);
    free(m);
}
