/*
 * within.c - decisions within a label (compare_within, docs/analysis.md
 * "Decisions within a label"). A workload may name labels whose values
 * are separate questions (loop-wakeup's task counts, the load tools of
 * imported runs): its configs are partitioned by the values of those
 * labels and each part is decided on its own, by the same code that
 * decides a whole workload (compare.c's tests, recommend.c's verdicts),
 * on a struct wctx that holds only that part's configs. The part's
 * prepared values are borrowed from the workload's, never copied or
 * recomputed. The workload's own recommendation then takes each config's
 * verdict from its part and says every part's decision in its sentence.
 * Nothing here computes a statistic: it only chooses the configs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "within.h"
#include "compare.h"
#include "recommend.h"

static const char *label_of(const struct cfg *c, const char *key)
{
    for (size_t i = 0; i < c->nlabels; i++)
        if (strcmp(c->labels[i].key, key) == 0)
            return c->labels[i].value;
    return NULL;
}

static bool same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Splits "tasks,tool" into keys (arena strings) in *out; *n receives how
 * many (empty names are skipped). */
static rd_status split_keys(struct rd_arena *ar, const char *list, const char ***out, size_t *n)
{
    size_t cap = 1;
    for (const char *p = list; *p; p++)
        cap += *p == ',';
    *out = rd_arena_alloc(ar, cap * sizeof **out);
    if (!*out)
        return RD_ERR_NOMEM;
    *n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len && !((*out)[(*n)++] = rd_arena_strndup(ar, p, len)))
            return RD_ERR_NOMEM;
        p += len + (p[len] == ',');
    }
    return RD_OK;
}

/* Whether some config of workload wl carries label key. */
static bool wl_has_label(const struct rd_analysis *a, const struct wl *wl, const char *key)
{
    for (size_t i = 0; i < wl->ncfgs; i++)
        if (label_of(&a->cfgs[wl->cfgs[i]], key))
            return true;
    return false;
}

/* The label the tool went into when the workload's runs come from
 * several load tools (ingest.c, label_tool): "load_tool" when a config
 * already had a label "tool" of its own, else "tool". */
static const char *tool_key(const struct rd_analysis *a, const struct wl *wl)
{
    return wl_has_label(a, wl, "load_tool") ? "load_tool" : "tool";
}

rd_status rd_within_check(struct rd_analysis *a, struct rd_diag *d)
{
    for (size_t wi = 0; wi < a->nwls; wi++) {
        struct wl *wl = &a->wls[wi];
        if (!wl->compare_within || !*wl->compare_within)
            continue;
        const char **keys;
        size_t n;
        RD_TRY(split_keys(&a->strings, wl->compare_within, &keys, &n));
        for (size_t k = 0; k < n; k++) {
            if (wl_has_label(a, wl, keys[k]))
                continue;
            /* Name the labels it does have, so the fix is one look away. */
            char have[512] = "";
            size_t len = 0;
            const char *listed[32];
            size_t nlisted = 0;
            for (size_t i = 0; i < wl->ncfgs; i++) {
                const struct cfg *c = &a->cfgs[wl->cfgs[i]];
                for (size_t l = 0; l < c->nlabels && nlisted < 32 && len < sizeof have; l++) {
                    size_t j;
                    for (j = 0; j < nlisted && strcmp(listed[j], c->labels[l].key); j++)
                        ;
                    if (j < nlisted)
                        continue;
                    listed[nlisted++] = c->labels[l].key;
                    len += (size_t)snprintf(have + len, sizeof have - len, "%s%s",
                                            len ? ", " : "", c->labels[l].key);
                }
            }
            const char *what = *have ? have : "none";
            if (wl->within_path)
                return rd_diag_set(d, RD_ERR_PARSE, wl->within_path, wl->within_line, 0,
                                   "workload '%s': info.compare_within names label '%s', "
                                   "which no config of the workload has (expected one of "
                                   "its labels: %s)",
                                   wl->name, keys[k], what);
            /* "": the option's message names no store. */
            return rd_diag_set(d, RD_ERR_USAGE, "", 0, 0,
                               "--set %s.compare_within: workload '%s' has no label '%s' "
                               "(expected one of its labels: %s)",
                               wl->base ? wl->base : wl->name, wl->name, keys[k], what);
        }
    }
    return RD_OK;
}

/* The part of x whose configs carry values[0..nkeys), or NULL. */
static struct within_part *find_part(struct within *wi, const char *const *values)
{
    for (size_t p = 0; p < wi->nparts; p++) {
        bool match = true;
        for (size_t k = 0; k < wi->nkeys && match; k++)
            match = same(wi->parts[p].values[k], values[k]);
        if (match)
            return &wi->parts[p];
    }
    return NULL;
}

/* Parts in the order of their values, numbers by value (10000 before
 * 50000 before 100000), other text as strcmp; a missing value first. */
static int cmp_part(const void *pa, const void *pb, void *arg)
{
    const struct within_part *a = pa, *b = pb;
    size_t nkeys = *(const size_t *)arg;
    for (size_t k = 0; k < nkeys; k++) {
        const char *x = a->values[k], *y = b->values[k];
        if (!x || !y) {
            if (x != y)
                return x ? 1 : -1;
            continue;
        }
        char *ex, *ey;
        double dx = strtod(x, &ex), dy = strtod(y, &ey);
        if (ex != x && !*ex && ey != y && !*ey && dx != dy)
            return dx < dy ? -1 : 1;
        int c = strcmp(x, y);
        if (c)
            return c;
    }
    return 0;
}

/* Decides part p: a wctx of its configs, x's prepared values borrowed. */
static rd_status decide_part(struct wctx *x, struct within_part *p)
{
    struct wctx *s = &p->sub;
    memset(s, 0, sizeof *s);
    rd_arena_init(&s->tmp);
    s->a = x->a;
    s->w = x->w;
    s->k = p->n;
    s->mets = x->mets;
    s->nmets = x->nmets;
    s->have_primary = x->have_primary;
    s->primary = x->primary;
    s->better = x->better;
    s->tested = x->tested;
    s->ntested = x->nkeys; /* only the key metrics get verdicts */
    s->nkeys = x->nkeys;
    s->looks = x->looks; /* the workload's looks: one level for its parts */
    s->cs = malloc((p->n ? p->n : 1) * sizeof *s->cs);
    /* the workload's sessions, each config's borrowed (pairs.c reads them) */
    s->sess.n = x->sess.n;
    s->sess.of = x->sess.of ? malloc((p->n ? p->n : 1) * sizeof *s->sess.of) : NULL;
    if (x->sess.of && !s->sess.of)
        return RD_ERR_NOMEM;
    size_t np = s->ntested * p->n;
    s->preps = malloc((np ? np : 1) * sizeof *s->preps);
    s->tests = calloc(s->ntested ? s->ntested : 1, sizeof *s->tests);
    if (!s->cs || !s->preps || !s->tests)
        return RD_ERR_NOMEM;
    for (size_t j = 0; j < p->n; j++) {
        s->cs[j] = x->cs[p->pos[j]];
        if (s->sess.of)
            s->sess.of[j] = x->sess.of[p->pos[j]];
        for (size_t ti = 0; ti < s->ntested; ti++)
            s->preps[ti * p->n + j] = x->preps[ti * x->k + p->pos[j]];
    }
    for (size_t ti = 0; ti < s->ntested; ti++)
        RD_TRY(rd_compare_metric(s, ti));
    return rd_recommend(s, &s->rc);
}

/* The workload's decision from its parts': no-data when none has data,
 * inconclusive when one is (or has no data while others do), equivalent
 * when one is, else clear. */
static enum rd_decision merged_decision(const struct within *wi, size_t m)
{
    size_t nodata = 0, inconcl = 0, equiv = 0;
    for (size_t p = 0; p < wi->nparts; p++) {
        const struct reco *rc = &wi->parts[p].sub.rc;
        enum rd_decision dd = rc->have ? rc->keys[m].res.decision : RD_DECISION_NO_DATA;
        nodata += dd == RD_DECISION_NO_DATA;
        inconcl += dd == RD_DECISION_INCONCLUSIVE;
        equiv += dd == RD_DECISION_EQUIVALENT;
    }
    if (nodata == wi->nparts)
        return RD_DECISION_NO_DATA;
    if (nodata || inconcl)
        return RD_DECISION_INCONCLUSIVE;
    return equiv ? RD_DECISION_EQUIVALENT : RD_DECISION_CLEAR;
}

/* Key metric m's verdicts of x: each config's row from its part. */
static void merge_metric(struct wctx *x, struct within *wi, size_t m)
{
    struct key_verdicts *kv = &x->rc.keys[m];
    kv->res.decision = merged_decision(wi, m);
    kv->res.family = 0;
    kv->runs_needed = 0;
    kv->recommended = SIZE_MAX;
    for (size_t p = 0; p < wi->nparts; p++) {
        const struct within_part *part = &wi->parts[p];
        const struct reco *rc = &part->sub.rc;
        if (!rc->have)
            continue;
        const struct key_verdicts *pk = &rc->keys[m];
        kv->res.family += pk->res.family;
        if (pk->runs_needed < 0 || kv->runs_needed < 0)
            kv->runs_needed = -1;
        else if (pk->runs_needed > kv->runs_needed)
            kv->runs_needed = pk->runs_needed;
        for (size_t j = 0; j < part->n; j++) {
            kv->rows[part->pos[j]] = pk->rows[j];
            kv->p_adj[part->pos[j]] = pk->p_adj[j];
        }
        if (wi->nparts == 1 && pk->recommended != SIZE_MAX)
            kv->recommended = part->pos[pk->recommended];
    }
    if (wi->nparts > 1) {
        /* Several families: no one critical value or df describes them
         * (each part's are in "within"). */
        kv->res.crit = kv->res.crit_eq = kv->res.df = NAN;
    } else if (wi->parts[0].sub.rc.have) {
        const struct rd_verdict_result *r = &wi->parts[0].sub.rc.keys[m].res;
        kv->res.crit = r->crit;
        kv->res.crit_eq = r->crit_eq;
        kv->res.df = r->df;
    }
}

/* Labels settled in every part that holds them, with one value: settled
 * for the workload; a label open in a part, or settled to different
 * values in different parts, is open. The within labels never vary
 * inside a part, so they are in neither list. */
static void merge_labels(struct reco *rc, const struct within *wi)
{
    rc->nsettled = rc->nopen = rc->ncandidates = 0;
    for (size_t p = 0; p < wi->nparts; p++) {
        const struct reco *pr = &wi->parts[p].sub.rc;
        rc->ncandidates += pr->ncandidates;
        for (size_t s = 0; s < pr->nsettled + pr->nopen; s++) {
            bool open = s >= pr->nsettled;
            const char *key = open ? pr->open_keys[s - pr->nsettled] : pr->settled_keys[s];
            const char *val = open ? NULL : pr->settled_values[s];
            size_t i;
            for (i = 0; i < rc->nopen && strcmp(rc->open_keys[i], key); i++)
                ;
            if (i < rc->nopen)
                continue; /* open already */
            for (i = 0; i < rc->nsettled && strcmp(rc->settled_keys[i], key); i++)
                ;
            if (i < rc->nsettled && !open && strcmp(rc->settled_values[i], val) == 0)
                continue;
            if (i < rc->nsettled) {
                /* Settled to another value elsewhere: open. */
                memmove(&rc->settled_keys[i], &rc->settled_keys[i + 1],
                        (rc->nsettled - i - 1) * sizeof *rc->settled_keys);
                memmove(&rc->settled_values[i], &rc->settled_values[i + 1],
                        (rc->nsettled - i - 1) * sizeof *rc->settled_values);
                rc->nsettled--;
                open = true;
            }
            if (open) {
                rc->open_keys[rc->nopen++] = key;
            } else {
                rc->settled_keys[rc->nsettled] = key;
                rc->settled_values[rc->nsettled++] = val;
            }
        }
    }
}

/* "tasks=10000" for part p. */
static void part_name(const struct within *wi, const struct within_part *p, char *out,
                      size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t k = 0; k < wi->nkeys && len < size; k++)
        len += (size_t)snprintf(out + len, size - len, "%s%s=%s", k ? ", " : "", wi->keys[k],
                                p->values[k] ? p->values[k] : "");
}

/* The sentence: which labels split the question, then each part's own. */
static void merge_reason(struct reco *rc, const struct within *wi)
{
    size_t len = 0, size = sizeof rc->reason;
    char *r = rc->reason;
    len += (size_t)snprintf(r, size, "Decided within each value of ");
    for (size_t k = 0; k < wi->nkeys && len < size; k++)
        len += (size_t)snprintf(r + len, size - len, "%s%s", k ? ", " : "", wi->keys[k]);
    if (len < size)
        len += (size_t)snprintf(r + len, size - len, " (%s, %zu parts)",
                                wi->automatic ? "one per load tool" : "compare_within",
                                wi->nparts);
    for (size_t p = 0; p < wi->nparts && len < size; p++) {
        char name[256];
        part_name(wi, &wi->parts[p], name, sizeof name);
        const struct reco *pr = &wi->parts[p].sub.rc;
        len += (size_t)snprintf(r + len, size - len, ". %s: %s", name,
                                pr->have ? pr->reason : "no direction, no decision");
    }
}

rd_status rd_within_decide(struct wctx *x)
{
    const struct wl *wl = x->w;
    const char *list = wl->compare_within;
    bool automatic = false;
    if (!list) {
        /* Runs of several load tools: one question per tool (ingest.c
         * labelled every config with its tool), unless the workload says
         * otherwise (compare_within, empty for none). */
        bool mixed = false;
        for (size_t i = 0; i < x->k && !mixed; i++)
            mixed = x->cs[i]->tool_label;
        if (!mixed)
            return RD_OK;
        list = tool_key(x->a, wl);
        automatic = true;
    }
    if (!*list || !x->rc.have)
        return RD_OK;
    struct within *wi = calloc(1, sizeof *wi);
    if (!wi)
        return RD_ERR_NOMEM;
    x->within = wi;
    wi->automatic = automatic;
    RD_TRY(split_keys(&x->tmp, list, &wi->keys, &wi->nkeys));
    if (!wi->nkeys)
        return RD_OK;
    wi->parts = calloc(x->k ? x->k : 1, sizeof *wi->parts);
    const char **values = rd_arena_alloc(&x->tmp, wi->nkeys * x->k * sizeof *values);
    size_t *pos = malloc((x->k ? x->k : 1) * sizeof *pos);
    if (!wi->parts || !values || !pos) {
        free(pos);
        return RD_ERR_NOMEM;
    }
    /* Parts in the order of their first config (configs are sorted by
     * id); each part's positions point into one array, in config order. */
    size_t *count = calloc(x->k ? x->k : 1, sizeof *count);
    size_t *part_of = malloc((x->k ? x->k : 1) * sizeof *part_of);
    if (!count || !part_of) {
        free(count);
        free(part_of);
        free(pos);
        return RD_ERR_NOMEM;
    }
    for (size_t i = 0; i < x->k; i++) {
        const char **v = &values[i * wi->nkeys];
        for (size_t k = 0; k < wi->nkeys; k++)
            v[k] = label_of(x->cs[i], wi->keys[k]);
        struct within_part *p = find_part(wi, v);
        if (!p) {
            p = &wi->parts[wi->nparts++];
            p->values = v;
        }
        part_of[i] = (size_t)(p - wi->parts);
        count[part_of[i]]++;
    }
    wi->pos = pos;
    for (size_t p = 0, at = 0; p < wi->nparts; p++) {
        wi->parts[p].pos = pos + at;
        at += count[p];
    }
    for (size_t i = 0; i < x->k; i++) {
        struct within_part *p = &wi->parts[part_of[i]];
        p->pos[p->n++] = i;
    }
    free(count);
    free(part_of);
    qsort_r(wi->parts, wi->nparts, sizeof *wi->parts, cmp_part, &wi->nkeys);
    for (size_t p = 0; p < wi->nparts; p++)
        RD_TRY(decide_part(x, &wi->parts[p]));

    struct reco *rc = &x->rc;
    for (size_t m = 0; m < rc->nkeys; m++)
        merge_metric(x, wi, m);
    rc->recommended = rc->keys[0].recommended;
    for (size_t p = 0; p < wi->nparts; p++) {
        const struct within_part *part = &wi->parts[p];
        if (part->sub.rc.have)
            for (size_t j = 0; j < part->n; j++)
                rc->why[part->pos[j]] = part->sub.rc.why[j];
    }
    merge_labels(rc, wi);
    merge_reason(rc, wi);
    return RD_OK;
}

void rd_within_release(struct within *wi)
{
    if (!wi)
        return;
    for (size_t p = 0; p < wi->nparts; p++) {
        struct wctx *s = &wi->parts[p].sub;
        /* Borrowed: mets, tested, every prep's arrays and each config's
         * sessions (sess.of is the part's own list of them). */
        free(s->sess.of);
        if (s->tests)
            for (size_t i = 0; i < s->ntested; i++)
                free(s->tests[i].pairs);
        free(s->tests);
        free(s->preps);
        free(s->cs);
        rd_reco_release(&s->rc, s->k);
        free(s->warns);
        free(s->scratch);
        rd_arena_release(&s->tmp);
    }
    free(wi->parts);
    free(wi->pos);
    free(wi);
}
