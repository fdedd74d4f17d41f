/*
 * derive - what every back end shares, worked out once from the model:
 * display names and label columns, best / recommended / runner-up,
 * anchors and chart file stems, runtime colours, the tied list, and the
 * pass/fail matrices (verdicts.c builds one). The lookups the back ends
 * and this file make are in lookup.c (derive drives; lookup only helps).
 *
 * Reads only the structs of model.h; strings made here live in the
 * report's arena.
 */
#include "derive.h"
#include "lookup.h"
#include "model.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "verdicts.h"
#include "rundown/numfmt.h"

/* The most runs the report states as a total (a count past it is not one). */
#define RUNS_MAX 1e15

rd_status rd_tied_text(const struct rd_rworkload *w, struct rd_buf *out)
{
    const char *const *tied = w->rec ? w->rec->tied : NULL;
    size_t ntied = w->rec ? w->rec->ntied : 0;
    size_t start = out->len;
    /* The analysis may or may not list the best among the tied. */
    bool best_listed = false;
    for (size_t k = 0; k < ntied && w->best >= 0; k++)
        if (strcmp(tied[k], w->configs[w->best].id) == 0)
            best_listed = true;
    if (w->best >= 0 && w->best != w->recommended && !best_listed)
        RD_TRY(rd_buf_addstr(out, w->configs[w->best].name));
    for (size_t k = 0; k < ntied; k++) {
        int i = rd_workload_find(w, tied[k]);
        if (i >= 0 && i == w->recommended)
            continue;
        if (out->len > start)
            RD_TRY(rd_buf_addstr(out, ", "));
        RD_TRY(rd_buf_addstr(out, i >= 0 ? w->configs[i].name : tied[k]));
    }
    return RD_OK;
}

const char *rd_runtime_colour(const struct rd_report *r, int runtime)
{
    if (runtime < 0 || (size_t)runtime >= r->nruntimes)
        return "#7f7f7f";
    return r->runtime_colours[runtime];
}

/* Okabe and Ito's palette, which readers with any common colour vision
 * deficiency tell apart. Known runtimes keep their colour whatever else
 * is in the report, so two reports side by side agree; others take the
 * rest in order of appearance (yellow last: it is faint on white). */
static void assign_colours(struct rd_report *r)
{
    static const struct { const char *name, *colour; } known[] = {
        { "node", "#009e73" }, { "deno", "#0072b2" }, { "bun", "#e69f00" },
    };
    static const char *palette[] = {
        "#d55e00", "#cc79a7", "#56b4e9", "#000000", "#f0e442",
    };
    size_t others = 0;
    for (size_t i = 0; i < r->nruntimes; i++) {
        r->runtime_colours[i] = NULL;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (strcmp(r->runtimes[i], known[k].name) == 0)
                r->runtime_colours[i] = known[k].colour;
        if (!r->runtime_colours[i])
            r->runtime_colours[i] = palette[others++ % (sizeof palette / sizeof palette[0])];
    }
}

static bool parse_number(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    char *end;
    double v = strtod(s, &end);
    if (*end != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool rd_label_numeric(const struct rd_rworkload *w, const char *key)
{
    double first = NAN;
    bool distinct = false;
    for (size_t i = 0; i < w->nconfigs; i++) {
        double v;
        if (!parse_number(rd_config_label(&w->configs[i], key), &v))
            return false;
        if (i == 0)
            first = v;
        else if (v != first)
            distinct = true;
    }
    return distinct;
}

/* ---- deriving ---- */

static const char *arena_buf(struct rd_arena *a, struct rd_buf *b)
{
    const char *s = rd_arena_strndup(a, b->ptr ? b->ptr : "", b->len);
    rd_buf_reset(b);
    return s;
}

static int cmp_key(const void *x, const void *y)
{
    return rd_label_key_cmp(*(const char *const *)x, *(const char *const *)y);
}

/* Label columns in the order config names use (rd_label_key_cmp). */
static rd_status collect_keys(struct rd_report *r, struct rd_rworkload *w)
{
    size_t cap = 0;
    for (size_t i = 0; i < w->nconfigs; i++)
        cap += w->configs[i].nlabels;
    w->keys = rd_arena_alloc(&r->arena, (cap + 1) * sizeof *w->keys);
    if (!w->keys)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < w->nconfigs; i++) {
        const struct rd_rconfig *c = &w->configs[i];
        for (size_t l = 0; l < c->nlabels; l++) {
            bool seen = false;
            for (size_t k = 0; k < w->nkeys && !seen; k++)
                seen = strcmp(w->keys[k], c->labels[l].key) == 0;
            if (!seen)
                w->keys[w->nkeys++] = c->labels[l].key;
        }
    }
    qsort(w->keys, w->nkeys, sizeof *w->keys, cmp_key);
    return RD_OK;
}

static rd_status config_name(struct rd_report *r, struct rd_rworkload *w,
                             struct rd_rconfig *c, struct rd_buf *b)
{
    RD_TRY(rd_fmt_config_name(b, c->labels, c->nlabels));
    if (b->len == 0)
        RD_TRY(rd_buf_addstr(b, c->id));
    return (c->name = arena_buf(&r->arena, b)) ? RD_OK : RD_ERR_NOMEM;
}

/* The index of runtime 'name' in *out, added when new (runtimes has room
 * for one per config of the report; 'seen' maps the names to indexes). */
static rd_status runtime_index(struct rd_report *r, struct rd_strmap *seen, const char *name,
                               int *out)
{
    int64_t *slot;
    int added;
    RD_TRY(rd_strmap_slotn(seen, name, strlen(name), (int64_t)r->nruntimes, &slot, &added));
    if (added)
        r->runtimes[r->nruntimes++] = name;
    *out = (int)*slot;
    return RD_OK;
}

/* The lookups of model.h: config ids, and pairs by their two configs. A
 * repeated id or pair keeps its first position, as a scan would find. */
static rd_status index_workload(struct rd_rworkload *w)
{
    rd_strmap_init(&w->config_ids);
    rd_strmap_init(&w->pair_index);
    for (size_t i = 0; i < w->nconfigs; i++) {
        int64_t *slot;
        RD_TRY(rd_strmap_slotn(&w->config_ids, w->configs[i].id, strlen(w->configs[i].id),
                               (int64_t)i, &slot, NULL));
    }
    for (size_t i = 0; w->tests && i < w->tests->npairs; i++) {
        const struct rd_rpair *p = &w->tests->pairs[i];
        int a = rd_workload_find(w, p->a), b = rd_workload_find(w, p->b);
        if (a < 0 || b < 0)
            continue;
        uint32_t key[2];
        int64_t *slot;
        rd_pair_key(a, b, key);
        RD_TRY(rd_strmap_slotn(&w->pair_index, (const char *)key, sizeof key, (int64_t)i,
                               &slot, NULL));
    }
    /* Each verdict's config, now that ids are a map (model.c read the
     * verdicts before any lookup existed). */
    for (size_t k = 0; w->rec && k < 1 + w->rec->nkeys; k++) {
        struct rd_rdecision *dc = k == 0 ? &w->rec->primary : &w->rec->keys[k - 1];
        for (size_t v = 0; v < dc->nverdicts; v++)
            dc->verdicts[v].index = rd_workload_find(w, dc->verdicts[v].config);
    }
    return RD_OK;
}

/* True when mean a beats mean b; an undefined mean never does. Without a
 * direction the lower one wins, so an analysis that names no best still
 * gets one. */
static bool better_mean(const struct rd_rworkload *w, double a, double b)
{
    if (!isfinite(a))
        return false;
    if (!isfinite(b))
        return true;
    return w->better == RD_BETTER_HIGHER ? a > b : a < b;
}

static double primary_mean(const struct rd_rworkload *w, int i)
{
    return i >= 0 ? rd_primary(&w->configs[i])->mean : NAN;
}

static void choose(struct rd_rworkload *w)
{
    /* The analysis names best and recommended; fall back to the best mean
     * only when it does not, so an older analysis still renders. */
    w->best = rd_workload_find(w, w->rec ? w->rec->best : NULL);
    if (w->best < 0)
        for (size_t i = 0; i < w->nconfigs; i++)
            if (better_mean(w, primary_mean(w, (int)i), primary_mean(w, w->best)))
                w->best = (int)i;
    w->recommended = rd_workload_find(w, w->rec ? w->rec->recommended : NULL);
    if (w->recommended < 0 && !w->rec)
        w->recommended = w->best;
    w->runner_up = -1;
    int ref = w->recommended >= 0 ? w->recommended : w->best;
    for (size_t i = 0; i < w->nconfigs; i++) {
        if ((int)i == ref)
            continue;
        if (w->runner_up < 0 ||
            better_mean(w, primary_mean(w, (int)i), primary_mean(w, w->runner_up)))
            w->runner_up = (int)i;
    }
}

/* Anchors as GitHub makes them: duplicates get -1, -2, ... in page order.
 * 'seen' holds the anchors of the headings before. */
static rd_status unique_slug(struct rd_report *r, const char *text, const char **seen,
                             size_t *nseen, struct rd_buf *b, const char **out)
{
    RD_TRY(rd_slug(b, text));
    RD_TRY(rd_name_unique(b, 1, seen, *nseen, sizeof *seen, 0));
    if (!(*out = arena_buf(&r->arena, b)))
        return RD_ERR_NOMEM;
    seen[(*nseen)++] = *out;
    return RD_OK;
}

static rd_status derive_workload(struct rd_report *r, size_t wi, const char **seen,
                                 size_t *nseen, struct rd_strmap *runtimes, struct rd_buf *b)
{
    struct rd_rworkload *w = &r->workloads[wi];
    for (size_t i = 0; i < w->nconfigs; i++) {
        const char *rt = rd_config_label(&w->configs[i], "runtime");
        if (rt)
            RD_TRY(runtime_index(r, runtimes, rt, &w->configs[i].runtime));
    }
    RD_TRY(index_workload(w));
    RD_TRY(collect_keys(r, w));
    for (size_t i = 0; i < w->nconfigs; i++)
        RD_TRY(config_name(r, w, &w->configs[i], b));
    choose(w);
    RD_TRY(unique_slug(r, w->name, seen, nseen, b, &w->slug));
    RD_TRY(rd_sanitize_filename(b, w->name, 48));
    /* Two names may sanitise to the same stem ("a/b" and "a_b"). */
    RD_TRY(rd_name_unique(b, 2, r->workloads, wi, sizeof *r->workloads,
                          offsetof(struct rd_rworkload, file)));
    return (w->file = arena_buf(&r->arena, b)) ? RD_OK : RD_ERR_NOMEM;
}

/* n is data: a count the report can state is a whole number, and
 * converting anything past long to long is undefined. */
static long count_runs(const struct rd_report *r)
{
    double runs = 0;
    bool counted = false;
    for (size_t wi = 0; wi < r->nworkloads; wi++) {
        const struct rd_rworkload *w = &r->workloads[wi];
        for (size_t i = 0; i < w->nconfigs; i++) {
            double n = rd_primary(&w->configs[i])->n;
            if (!isfinite(n))
                continue;
            if (!(n >= 0 && n <= RUNS_MAX && n == floor(n)))
                return -1;
            runs += n;
            counted = true;
        }
    }
    return counted && runs <= RUNS_MAX ? (long)runs : -1;
}

rd_status rd_report_derive(struct rd_report *r)
{
    size_t nconfigs = 0;
    for (size_t wi = 0; wi < r->nworkloads; wi++)
        nconfigs += r->workloads[wi].nconfigs;
    const char **seen = rd_arena_alloc(&r->arena, (r->nworkloads + 9) * sizeof *seen);
    r->runtimes = rd_arena_alloc(&r->arena, (nconfigs + 1) * sizeof *r->runtimes);
    if (!seen || !r->runtimes)
        return RD_ERR_NOMEM;
    struct rd_buf b = RD_BUF_INIT;
    struct rd_strmap runtimes;
    rd_strmap_init(&runtimes);
    size_t nseen = 0;
    rd_status st = RD_OK;
    const char *heading = NULL;
    /* The headings that come before the first workload in report.md. */
    const char *before[] = { r->title, "Recommendations", "Machine and software", "Methods" };
    for (size_t i = 0; i < 4 && st == RD_OK; i++) {
        st = unique_slug(r, before[i], seen, &nseen, &b, &heading);
        if (i == 3 && st == RD_OK)
            r->slug_method = heading;
    }
    for (size_t wi = 0; wi < r->nworkloads && st == RD_OK; wi++)
        st = derive_workload(r, wi, seen, &nseen, &runtimes, &b);
    /* The pass/fail matrices, once: four back ends show them. */
    for (size_t wi = 0; wi < r->nworkloads && st == RD_OK; wi++) {
        struct rd_rworkload *w = &r->workloads[wi];
        if (!rd_workload_categorical(w))
            continue;
        if (!(w->matrix = rd_arena_alloc(&r->arena, sizeof *w->matrix)))
            st = RD_ERR_NOMEM;
        else
            st = rd_matrix_make(r, w, w->matrix);
    }
    /* The Warnings section follows the workloads. */
    if (st == RD_OK)
        st = unique_slug(r, "Warnings", seen, &nseen, &b, &r->slug_warnings);
    rd_buf_release(&b);
    rd_strmap_release(&runtimes);
    r->runtime_colours = rd_arena_alloc(&r->arena, (r->nruntimes + 1) * sizeof *r->runtime_colours);
    if (st == RD_OK && !r->runtime_colours)
        st = RD_ERR_NOMEM;
    if (st == RD_OK)
        assign_colours(r);
    r->total_runs = count_runs(r);
    return st;
}

/* ---- picking configs for a chart or a table that shows fewer ---- */

/* A config's place in the order the picks follow: defined means before
 * undefined ones, the better mean first (the lower without a direction),
 * then the analysis's order. */
struct ranked {
    double key;
    size_t i;
};

static int cmp_ranked(const void *x, const void *y)
{
    const struct ranked *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return (a > b) - (a < b);
}

const char *rd_selection_rule(const struct rd_rworkload *w)
{
    return w->better == RD_BETTER_NONE ? "the lowest means" : "the best by mean";
}

rd_status rd_workload_select(const struct rd_rworkload *w, size_t max, size_t **idx,
                             size_t *n)
{
    *n = 0;
    *idx = malloc((w->nconfigs ? w->nconfigs : 1) * sizeof **idx);
    if (!*idx)
        return RD_ERR_NOMEM;
    size_t *out = *idx;
    if (w->nconfigs <= max) {
        for (size_t i = 0; i < w->nconfigs; i++)
            out[(*n)++] = i;
        return RD_OK;
    }
    struct ranked *rk = malloc(w->nconfigs * sizeof *rk);
    bool *taken = calloc(w->nconfigs, sizeof *taken);
    if (!rk || !taken) {
        free(rk);
        free(taken);
        free(*idx);
        *idx = NULL;
        return RD_ERR_NOMEM;
    }
    for (size_t i = 0; i < w->nconfigs; i++) {
        double m = rd_primary(&w->configs[i])->mean;
        rk[i].key = !isfinite(m) ? INFINITY : w->better == RD_BETTER_HIGHER ? -m : m;
        rk[i].i = i;
    }
    qsort(rk, w->nconfigs, sizeof *rk, cmp_ranked);
    int first[] = { w->recommended, w->best };
    for (size_t k = 0; k < 2 && *n < max; k++)
        if (first[k] >= 0 && !taken[first[k]]) {
            taken[first[k]] = true;
            out[(*n)++] = (size_t)first[k];
        }
    for (size_t k = 0; k < w->nconfigs && *n < max; k++)
        if (!taken[rk[k].i]) {
            taken[rk[k].i] = true;
            out[(*n)++] = rk[k].i;
        }
    qsort(out, *n, sizeof *out, cmp_size);
    free(rk);
    free(taken);
    return RD_OK;
}
