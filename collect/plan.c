/*
 * plan.c - the ordered list of runs a suite asks for (docs/suite.md,
 * Order), its seeded random order, and the filters --shard, --only and
 * --resume apply to it.
 *
 * The plan is a pure function of the suite and its seed, so two machines
 * given the same file and seed number the runs identically (--shard relies
 * on it) and a resumed collection sees the same keys it stored before.
 */
#include "plan.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "runindex.h"
#include "suiteexpand.h"
#include "rundown/array.h"
#include "rundown/buf.h"

uint64_t rd_xorshift64s(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Warmup runs the plan holds per config: a server workload has none (its
 * server is warmed by built-in traffic instead). */
static long plan_warmups(const struct rd_suite_workload *w)
{
    return w->is_server ? 0 : w->warmups;
}

double rd_suite_planned_runs(const struct rd_suite *s)
{
    double planned = 0;
    for (size_t wi = 0; wi < s->nworkloads; wi++) {
        const struct rd_suite_workload *w = &s->workloads[wi];
        planned += (double)w->nconfigs * (double)(w->runs + plan_warmups(w));
    }
    return planned;
}

void rd_plan_init(struct rd_plan *p)
{
    memset(p, 0, sizeof *p);
}

void rd_plan_release(struct rd_plan *p)
{
    free(p->items);
    memset(p, 0, sizeof *p);
}

rd_status rd_plan_copy(struct rd_plan *dst, const struct rd_plan *src)
{
    RD_TRY(RD_ARRAY_GROW(dst->items, dst->cap, src->len ? src->len : 1));
    if (src->len)
        memcpy(dst->items, src->items, src->len * sizeof *src->items);
    dst->len = src->len;
    dst->seed = src->seed;
    return RD_OK;
}

static rd_status plan_add(struct rd_plan *p, size_t w, size_t c, bool warmup, long run,
                          long *measured)
{
    RD_TRY(RD_ARRAY_GROW(p->items, p->cap, p->len + 1));
    p->items[p->len++] = (struct rd_plan_item){ .workload = w, .config = c, .warmup = warmup,
                                                .run = run,
                                                .measured_no = warmup ? -1 : (*measured)++ };
    return RD_OK;
}

/* Fisher-Yates with the plan's generator. */
static void shuffle(size_t *v, size_t n, uint64_t *state)
{
    for (size_t i = n; i-- > 1;) {
        size_t j = (size_t)(rd_xorshift64s(state) % (uint64_t)(i + 1));
        size_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* Rounds 1..runs of w, each its configs in a seeded random order. */
static rd_status plan_shuffled_rounds(struct rd_plan *p, size_t wi,
                                      const struct rd_suite_workload *w, uint64_t *state,
                                      long *measured)
{
    size_t *perm = malloc((w->nconfigs ? w->nconfigs : 1) * sizeof *perm);
    if (!perm)
        return RD_ERR_NOMEM;
    rd_status st = RD_OK;
    for (long r = 1; r <= w->runs && !st; r++) {
        for (size_t i = 0; i < w->nconfigs; i++)
            perm[i] = i;
        shuffle(perm, w->nconfigs, state);
        for (size_t i = 0; i < w->nconfigs && !st; i++)
            st = plan_add(p, wi, perm[i], false, r, measured);
    }
    free(perm);
    return st;
}

rd_status rd_plan_build(const struct rd_suite *s, struct rd_plan *p, struct rd_diag *d)
{
    rd_status st = RD_OK;
    long measured = 0;
    uint64_t state = s->seed ^ 0x9E3779B97F4A7C15ULL;
    if (!state)
        state = 1;
    p->seed = s->seed;
    /* The size is known (and at most RD_PLAN_MAX, checked when parsing):
     * make room once rather than doubling through a 400 MB plan. */
    if (RD_ARRAY_GROW(p->items, p->cap, p->len + (size_t)rd_suite_planned_runs(s)))
        return rd_diag_set(d, RD_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (size_t wi = 0; wi < s->nworkloads && !st; wi++) {
        const struct rd_suite_workload *w = &s->workloads[wi];
        long warm = plan_warmups(w);
        if (s->order == RD_ORDER_GROUPED) {
            for (size_t c = 0; c < w->nconfigs && !st; c++) {
                for (long k = 1; k <= warm && !st; k++)
                    st = plan_add(p, wi, c, true, k, &measured);
                for (long r = 1; r <= w->runs && !st; r++)
                    st = plan_add(p, wi, c, false, r, &measured);
            }
            continue;
        }
        for (long k = 1; k <= warm && !st; k++)
            for (size_t c = 0; c < w->nconfigs && !st; c++)
                st = plan_add(p, wi, c, true, k, &measured);
        if (w->settle && s->order == RD_ORDER_RANDOM) {
            /* An adaptive workload decides after every round, so a round
             * holds one run of each config: shuffle within rounds. */
            st = plan_shuffled_rounds(p, wi, w, &state, &measured);
            continue;
        }
        if (s->order == RD_ORDER_INTERLEAVED) {
            for (long r = 1; r <= w->runs && !st; r++)
                for (size_t c = 0; c < w->nconfigs && !st; c++)
                    st = plan_add(p, wi, c, false, r, &measured);
            continue;
        }
        /* Random: shuffle the multiset of configs, then number each config's
         * runs in the order they come up. */
        size_t n = w->nconfigs * (size_t)w->runs;
        size_t *seq = malloc(n * sizeof *seq);
        long *next = calloc(w->nconfigs, sizeof *next);
        if (!seq || !next) {
            free(seq);
            free(next);
            return rd_diag_set(d, RD_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
        for (size_t i = 0; i < n; i++)
            seq[i] = i % w->nconfigs;
        shuffle(seq, n, &state);
        for (size_t i = 0; i < n && !st; i++)
            st = plan_add(p, wi, seq[i], false, ++next[seq[i]], &measured);
        free(seq);
        free(next);
    }
    if (st)
        return rd_diag_set(d, st, NULL, 0, 0, "out of memory");
    return RD_OK;
}

struct wl_config {
    size_t workload, config;
};

static int cmp_wl_config(const void *x, const void *y)
{
    const struct wl_config *a = x, *b = y;
    if (a->workload != b->workload)
        return a->workload < b->workload ? -1 : 1;
    return a->config < b->config ? -1 : a->config > b->config;
}

/* Whether shard i of n measures this run (warmups follow their config). */
static bool measured_in_shard(const struct rd_plan_item *m, unsigned i, unsigned n)
{
    return !m->warmup && m->measured_no % (long)n == (long)(i - 1);
}

rd_status rd_plan_shard(struct rd_plan *p, unsigned i, unsigned n)
{
    if (i < 1 || i > n)
        return RD_ERR_USAGE;
    /* The (workload, config) pairs that keep a measured run, sorted, so each
     * warmup is looked up in O(log n): scanning the plan per warmup was
     * quadratic (found by fuzz_suite: 4,812 warmups took 0.2 s, and a
     * 100,000-config matrix would take hours). Their warmups stay. */
    struct wl_config *kept = malloc((p->len ? p->len : 1) * sizeof *kept);
    if (!kept)
        return RD_ERR_NOMEM;
    size_t nkept = 0;
    for (size_t k = 0; k < p->len; k++) {
        const struct rd_plan_item *m = &p->items[k];
        if (measured_in_shard(m, i, n))
            kept[nkept++] = (struct wl_config){m->workload, m->config};
    }
    if (nkept > 1)
        qsort(kept, nkept, sizeof *kept, cmp_wl_config);
    size_t o = 0;
    for (size_t k = 0; k < p->len; k++) {
        struct rd_plan_item *it = &p->items[k];
        struct wl_config key = {it->workload, it->config};
        bool keep = it->warmup ? nkept > 0 && bsearch(&key, kept, nkept, sizeof *kept,
                                                      cmp_wl_config) != NULL
                               : measured_in_shard(it, i, n);
        if (keep)
            p->items[o++] = *it;
    }
    p->len = o;
    free(kept);
    return RD_OK;
}

/* Whether --only PATTERN selects a config of workload w: by the workload's
 * name, or by its config id "workload/key=value,..." as a record of it
 * would carry it. */
static rd_status config_selected(const struct rd_suite_workload *w, size_t config,
                                 const char *pattern, bool *selected)
{
    *selected = fnmatch(pattern, w->name, 0) == 0;
    if (*selected)
        return RD_OK;
    struct rd_buf id = RD_BUF_INIT;
    rd_status st = rd_buf_addf(&id, "%s/", w->name);
    if (!st)
        st = rd_suite_config_id(w, config, &id);
    *selected = !st && fnmatch(pattern, id.ptr, 0) == 0;
    rd_buf_release(&id);
    return st;
}

rd_status rd_plan_only(const struct rd_suite *s, struct rd_plan *p, const char *pattern)
{
    /* A config comes up runs + warmups times in the plan: decide each once
     * (0 not yet, 1 selected, 2 not). Deciding per plan item built a record
     * per run, which fuzz_suite found to take a second for 20,000 warmups. */
    unsigned char **verdicts = calloc(s->nworkloads ? s->nworkloads : 1, sizeof *verdicts);
    if (!verdicts)
        return RD_ERR_NOMEM;
    size_t o = 0;
    rd_status st = RD_OK;
    for (size_t k = 0; k < p->len && !st; k++) {
        struct rd_plan_item *it = &p->items[k];
        const struct rd_suite_workload *w = &s->workloads[it->workload];
        unsigned char **verdict = &verdicts[it->workload];
        if (!*verdict && !(*verdict = calloc(w->nconfigs, 1))) {
            st = RD_ERR_NOMEM;
            break;
        }
        if (!(*verdict)[it->config]) {
            bool selected;
            st = config_selected(w, it->config, pattern, &selected);
            (*verdict)[it->config] = selected ? 1 : 2;
        }
        if (!st && (*verdict)[it->config] == 1)
            p->items[o++] = *it;
    }
    for (size_t wi = 0; wi < s->nworkloads; wi++)
        free(verdicts[wi]);
    free(verdicts);
    if (!st)
        p->len = o;
    return st;
}

rd_status rd_plan_drop_stored(const struct rd_suite *s, struct rd_plan *p,
                              const struct rd_run_index *ix)
{
    size_t o = 0;
    rd_status st = RD_OK;
    struct rd_buf config = RD_BUF_INIT;
    for (size_t k = 0; k < p->len && !st; k++) {
        const struct rd_plan_item *it = &p->items[k];
        const struct rd_suite_workload *w = &s->workloads[it->workload];
        rd_buf_reset(&config);
        st = rd_suite_config_id(w, it->config, &config);
        struct rd_run_key key = {s->name, w->name, config.ptr,
                                 it->warmup ? "warmup" : "measure"};
        if (!st && !rd_run_index_contains(ix, &key, it->run))
            p->items[o++] = *it;
    }
    rd_buf_release(&config);
    if (!st)
        p->len = o;
    return st;
}

bool rd_shard_parse(const char *arg, unsigned *i, unsigned *n)
{
    char *end;
    if (!isdigit((unsigned char)arg[0]))
        return false;
    unsigned long a = strtoul(arg, &end, 10);
    if (*end != '/' || !isdigit((unsigned char)end[1]))
        return false;
    unsigned long b = strtoul(end + 1, &end, 10);
    if (*end || a < 1 || b < 1 || a > b || b > 1000000)
        return false;
    *i = (unsigned)a;
    *n = (unsigned)b;
    return true;
}
