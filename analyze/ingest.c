/*
 * ingest.c - streams run stores into compact per-config value arrays.
 *
 * One record at a time comes from rd_store_next(); what survives it is one
 * double and one 32-bit order key per measured value, plus counters. That
 * keeps memory proportional to the number of values, not to the size of
 * the JSON, so a store of a million runs fits easily. Warmup runs are
 * skipped here, failed and timed-out runs only counted, and a config whose
 * runs come from two environments is refused unless the user pools them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "rundown/store.h"

void rd_analyze_opts_init(struct rd_analyze_opts *o)
{
    memset(o, 0, sizeof *o);
    o->alpha = 0.05;
    o->confidence = 0.95;
    o->bootstrap = 10000;
    o->seed = 1;
}

rd_status rd_grow(void **ptr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return RD_OK;
    size_t n = *cap ? *cap : 4;
    while (n < need)
        n *= 2;
    void *p = realloc(*ptr, n * size);
    if (!p)
        return RD_ERR_NOMEM;
    *ptr = p;
    *cap = n;
    return RD_OK;
}

/* FNV-1a: simple, and fine for keys we produce ourselves. */
static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

int64_t rd_smap_find(const struct smap *m, const char *const *keys, const char *key)
{
    if (!m->cap)
        return -1;
    size_t mask = m->cap - 1;
    for (size_t i = hash_str(key) & mask;; i = (i + 1) & mask) {
        uint32_t s = m->slots[i];
        if (!s)
            return -1;
        if (strcmp(keys[s - 1], key) == 0)
            return (int64_t)(s - 1);
    }
}

rd_status rd_smap_put(struct smap *m, const char *const *keys, const char *key, uint32_t idx)
{
    if ((m->len + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        uint32_t *ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return RD_ERR_NOMEM;
        for (size_t i = 0; i < m->cap; i++) {
            uint32_t s = m->slots[i];
            if (!s)
                continue;
            size_t j = hash_str(keys[s - 1]) & (ncap - 1);
            while (ns[j])
                j = (j + 1) & (ncap - 1);
            ns[j] = s;
        }
        free(m->slots);
        m->slots = ns;
        m->cap = ncap;
    }
    size_t j = hash_str(key) & (m->cap - 1);
    while (m->slots[j])
        j = (j + 1) & (m->cap - 1);
    m->slots[j] = idx + 1;
    m->len++;
    return RD_OK;
}

void rd_smap_release(struct smap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->len = 0;
}

rd_status rd_analysis_new(const struct rd_analyze_opts *o, struct rd_analysis **out)
{
    struct rd_analysis *a = calloc(1, sizeof *a);
    if (!a)
        return RD_ERR_NOMEM;
    a->o = *o;
    rd_arena_init(&a->strings);
    *out = a;
    return RD_OK;
}

void rd_analysis_free(struct rd_analysis *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->ncfgs; i++) {
        struct cfg *c = &a->cfgs[i];
        for (uint32_t j = 0; j < c->nseries; j++) {
            free(c->series[j].v);
            free(c->series[j].ord);
        }
        free(c->series);
    }
    for (size_t i = 0; i < a->nwls; i++)
        free(a->wls[i].cfgs);
    free(a->cfgs);
    free(a->cfg_keys);
    free(a->wls);
    free(a->wl_names);
    free(a->metrics);
    free(a->envs);
    free(a->inputs);
    rd_smap_release(&a->metric_map);
    rd_smap_release(&a->wl_map);
    rd_smap_release(&a->cfg_map);
    rd_arena_release(&a->strings);
    free(a);
}

static rd_status intern_metric(struct rd_analysis *a, const char *name, uint32_t *id)
{
    int64_t f = rd_smap_find(&a->metric_map, a->metrics, name);
    if (f >= 0) {
        *id = (uint32_t)f;
        return RD_OK;
    }
    if (rd_grow((void **)&a->metrics, &a->capmetrics, a->nmetrics + 1, sizeof *a->metrics))
        return RD_ERR_NOMEM;
    const char *s = rd_arena_strdup(&a->strings, name);
    if (!s)
        return RD_ERR_NOMEM;
    a->metrics[a->nmetrics] = s;
    if (rd_smap_put(&a->metric_map, a->metrics, s, (uint32_t)a->nmetrics))
        return RD_ERR_NOMEM;
    *id = (uint32_t)a->nmetrics++;
    return RD_OK;
}

static rd_status find_workload(struct rd_analysis *a, const char *name, struct wl **out)
{
    int64_t f = rd_smap_find(&a->wl_map, a->wl_names, name);
    if (f >= 0) {
        *out = &a->wls[f];
        return RD_OK;
    }
    size_t cap2 = a->capwls;
    if (rd_grow((void **)&a->wls, &a->capwls, a->nwls + 1, sizeof *a->wls))
        return RD_ERR_NOMEM;
    if (rd_grow((void **)&a->wl_names, &cap2, a->nwls + 1, sizeof *a->wl_names))
        return RD_ERR_NOMEM;
    struct wl *w = &a->wls[a->nwls];
    memset(w, 0, sizeof *w);
    w->name = rd_arena_strdup(&a->strings, name);
    if (!w->name)
        return RD_ERR_NOMEM;
    w->first_metric = -1;
    a->wl_names[a->nwls] = w->name;
    if (rd_smap_put(&a->wl_map, a->wl_names, w->name, (uint32_t)a->nwls))
        return RD_ERR_NOMEM;
    a->nwls++;
    *out = w;
    return RD_OK;
}

static rd_status find_cfg(struct rd_analysis *a, const struct rd_record *r, struct wl *w,
                          struct rd_buf *key, struct cfg **out)
{
    rd_buf_reset(key);
    rd_status s = rd_buf_addstr(key, r->workload);
    if (!s)
        s = rd_buf_addch(key, '\x1f');
    if (!s)
        s = rd_record_config_id(r, key);
    if (s)
        return s;
    int64_t f = rd_smap_find(&a->cfg_map, a->cfg_keys, key->ptr);
    if (f >= 0) {
        *out = &a->cfgs[f];
        return RD_OK;
    }
    size_t cap2 = a->capcfgs;
    if (rd_grow((void **)&a->cfgs, &a->capcfgs, a->ncfgs + 1, sizeof *a->cfgs))
        return RD_ERR_NOMEM;
    if (rd_grow((void **)&a->cfg_keys, &cap2, a->ncfgs + 1, sizeof *a->cfg_keys))
        return RD_ERR_NOMEM;
    struct cfg *c = &a->cfgs[a->ncfgs];
    memset(c, 0, sizeof *c);
    const char *k = rd_arena_strdup(&a->strings, key->ptr);
    if (!k)
        return RD_ERR_NOMEM;
    c->workload = w->name;
    c->id = k + strlen(r->workload) + 1;
    c->nlabels = r->config.len;
    c->labels = rd_arena_alloc(&a->strings, (c->nlabels ? c->nlabels : 1) * sizeof *c->labels);
    if (!c->labels)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < c->nlabels; i++) {
        c->labels[i].key = rd_arena_strdup(&a->strings, r->config.items[i].key);
        c->labels[i].value = rd_arena_strdup(&a->strings, r->config.items[i].value);
        if (!c->labels[i].key || !c->labels[i].value)
            return RD_ERR_NOMEM;
    }
    a->cfg_keys[a->ncfgs] = k;
    if (rd_smap_put(&a->cfg_map, a->cfg_keys, k, (uint32_t)a->ncfgs))
        return RD_ERR_NOMEM;
    if (rd_grow((void **)&w->cfgs, &w->capcfgs, w->ncfgs + 1, sizeof *w->cfgs))
        return RD_ERR_NOMEM;
    w->cfgs[w->ncfgs++] = (uint32_t)a->ncfgs;
    *out = &a->cfgs[a->ncfgs++];
    return RD_OK;
}

static rd_status add_value(struct cfg *c, uint32_t metric, double v, uint32_t ord)
{
    struct series *s = NULL;
    for (uint32_t i = 0; i < c->nseries; i++)
        if (c->series[i].metric == metric) {
            s = &c->series[i];
            break;
        }
    if (!s) {
        size_t cap = c->capseries;
        if (rd_grow((void **)&c->series, &cap, c->nseries + 1, sizeof *c->series))
            return RD_ERR_NOMEM;
        c->capseries = (uint32_t)cap;
        s = &c->series[c->nseries++];
        memset(s, 0, sizeof *s);
        s->metric = metric;
    }
    if (s->len == s->cap) {
        uint32_t n = s->cap ? s->cap * 2 : 8;
        double *nv = realloc(s->v, n * sizeof *nv);
        if (!nv)
            return RD_ERR_NOMEM;
        s->v = nv;
        uint32_t *no = realloc(s->ord, n * sizeof *no);
        if (!no)
            return RD_ERR_NOMEM;
        s->ord = no;
        s->cap = n;
    }
    s->v[s->len] = v;
    s->ord[s->len] = ord;
    s->len++;
    return RD_OK;
}

/* Copies an info field into the workload the first time it is seen. */
static rd_status take_info(struct rd_analysis *a, const struct rd_record *r, const char *key,
                           const char **field)
{
    if (*field)
        return RD_OK;
    const char *v = rd_record_info(r, key);
    if (v && *v) {
        *field = rd_arena_strdup(&a->strings, v);
        if (!*field)
            return RD_ERR_NOMEM;
    }
    return RD_OK;
}

static const char *dir_of(struct rd_analysis *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || strcmp(path, "-") == 0)
        return ".";
    if (slash == path)
        return "/";
    return rd_arena_strndup(&a->strings, path, (size_t)(slash - path));
}

static rd_status note_env(struct rd_analysis *a, const char *env, const char *path,
                          const char **interned)
{
    for (size_t i = 0; i < a->nenvs; i++)
        if (strcmp(a->envs[i].id, env) == 0) {
            *interned = a->envs[i].id;
            return RD_OK;
        }
    if (rd_grow((void **)&a->envs, &a->capenvs, a->nenvs + 1, sizeof *a->envs))
        return RD_ERR_NOMEM;
    struct envref *e = &a->envs[a->nenvs];
    e->id = rd_arena_strdup(&a->strings, env);
    e->dir = dir_of(a, path);
    if (!e->id || !e->dir)
        return RD_ERR_NOMEM;
    a->nenvs++;
    *interned = e->id;
    return RD_OK;
}

static bool is_load_error_metric(const char *name)
{
    return strncmp(name, "errors_", 7) == 0 || strcmp(name, "non_2xx") == 0;
}

static rd_status add_record(struct rd_analysis *a, const struct rd_record *r,
                            const char *path, unsigned line, struct rd_buf *key,
                            struct rd_diag *d)
{
    if (r->phase && strcmp(r->phase, "warmup") == 0)
        return RD_OK;
    struct wl *w;
    struct cfg *c;
    rd_status s = find_workload(a, r->workload, &w);
    if (!s)
        s = find_cfg(a, r, w, key, &c);
    if (!s)
        s = take_info(a, r, "primary_metric", &w->primary);
    if (!s)
        s = take_info(a, r, "primary_better", &w->better);
    if (!s)
        s = take_info(a, r, "class", &w->class_);
    if (!s)
        s = take_info(a, r, "tie_breaker", &w->tie_breaker);
    if (s)
        return s;

    if (r->env && *r->env) {
        const char *env;
        if ((s = note_env(a, r->env, path, &env)))
            return s;
        if (!c->env) {
            c->env = env;
        } else if (c->env != env) {
            if (!a->o.pool_envs)
                return rd_diag_set(d, RD_ERR_PARSE, path, line, 0,
                                   "workload '%s' config '%s' has runs from environments "
                                   "'%s' and '%s'; analyse them separately or pass --pool-envs",
                                   c->workload, c->id, c->env, env);
            if (!c->env_other)
                c->env_other = env;
        }
    }

    uint32_t ord = r->run > 0 && r->run <= (long)UINT32_MAX ? (uint32_t)r->run : c->seq;
    c->seq++;
    if (r->status && strcmp(r->status, "ok") != 0) {
        if (strcmp(r->status, "timeout") == 0)
            c->timeouts++;
        else
            c->failed++;
        return RD_OK;
    }
    c->ok_runs++;
    bool load_err = false;
    for (size_t i = 0; i < r->nmetrics; i++) {
        const struct rd_metric *m = &r->metrics[i];
        uint32_t id;
        if ((s = intern_metric(a, m->name, &id)))
            return s;
        if (w->first_metric < 0)
            w->first_metric = id;
        if (isnan(m->value))
            continue; /* the tool printed no value: nothing to average */
        if (is_load_error_metric(m->name) && m->value > 0)
            load_err = true;
        if ((s = add_value(c, id, m->value, ord)))
            return s;
    }
    if (load_err)
        c->load_error_runs++;
    return RD_OK;
}

rd_status rd_analysis_add_store(struct rd_analysis *a, const char *path, struct rd_diag *d)
{
    if (rd_grow((void **)&a->inputs, &a->capinputs, a->ninputs + 1, sizeof *a->inputs))
        return RD_ERR_NOMEM;
    a->inputs[a->ninputs++] = path;
    struct rd_store_reader rd;
    rd_status s = rd_store_open(&rd, path, d);
    if (s)
        return s;
    struct rd_record rec;
    struct rd_buf key = RD_BUF_INIT;
    for (;;) {
        int got;
        s = rd_store_next(&rd, &rec, &got, d);
        if (s || !got)
            break;
        s = add_record(a, &rec, rd.path, rd.line, &key, d);
        if (s)
            break;
    }
    rd_buf_release(&key);
    rd_store_close(&rd);
    return s;
}
