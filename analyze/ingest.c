/*
 * ingest.c - streams run stores into compact per-config value arrays.
 *
 * One record at a time comes from rd_store_next(); what survives it is one
 * double and one 32-bit order key per measured value, plus counters. That
 * keeps memory proportional to the number of values, not to the size of
 * the JSON, so a store of a million runs fits easily. Warmup runs are
 * skipped here, failed and timed-out runs only counted, a run stored
 * twice (its source digest read before: sources.c) counted once, and a
 * config whose runs come from two environments is refused unless the user
 * pools them.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis_int.h"
#include "directions.h"
#include "envs.h"
#include "sources.h"
#include "split.h"
#include "rundown/array.h"
#include "rundown/contract.h"
#include "rundown/loadrate.h"
#include "rundown/store.h"
#include "rundown/storecache.h"
#include "rundown/timeline.h"

void rd_analyze_opts_init(struct rd_analyze_opts *o)
{
    memset(o, 0, sizeof *o);
    o->alpha = 0.05;
    o->confidence = 0.95;
    o->bootstrap = 0; /* the median CI is the exact binomial one unless asked */
    o->seed = 1;
    o->split_bytes = 16u << 20;
    o->parallel_values = 100000;
    o->config_chunk = 256; /* about 1.2 MB of text at 10^5 configs */
    /* The processors this process may run on (taskset, cpusets), not all
     * the machine has. */
    cpu_set_t set;
    long cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                            : sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus;
    o->margin = 0.05;
    o->max_error_rate = 0.01;
    o->min_good_runs = 2;
    o->max_failed_share = 0.2;
}

rd_status rd_analysis_new(const struct rd_analyze_opts *o, struct rd_analysis **out)
{
    struct rd_analysis *a = calloc(1, sizeof *a);
    if (!a)
        return RD_ERR_NOMEM;
    a->o = *o;
    rd_arena_init(&a->strings);
    rd_strmap_init(&a->metric_map);
    rd_strmap_init(&a->wl_map);
    rd_strmap_init(&a->cfg_map);
    rd_strmap_init(&a->digest_map);
    rd_embed_init(&a->embed, RD_EMBED_RUNS_MAX);
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
        free(c->runs);
        free(c->run_t);
        free(c->dups);
    }
    for (size_t i = 0; i < a->nwls; i++) {
        free(a->wls[i].cfgs);
        free(a->wls[i].dirs);
    }
    free(a->cfgs);
    free(a->wls);
    free(a->metrics);
    free(a->load_err_metric);
    free(a->last_ids);
    free(a->envs);
    free(a->inputs);
    free(a->pauses);
    free(a->busy);
    free(a->sources);
    rd_embed_release(&a->embed);
    rd_strmap_release(&a->digest_map);
    rd_strmap_release(&a->metric_map);
    rd_strmap_release(&a->wl_map);
    rd_strmap_release(&a->cfg_map);
    rd_arena_release(&a->strings);
    free(a);
}

struct series *rd_cfg_find_series(const struct cfg *c, uint32_t metric)
{
    for (uint32_t i = 0; i < c->nseries; i++)
        if (c->series[i].metric == metric)
            return &c->series[i];
    return NULL;
}

int64_t rd_analysis_metric_id(const struct rd_analysis *a, const char *name)
{
    if (!name)
        return -1;
    const int64_t *id = rd_strmap_find(&a->metric_map, name);
    return id ? *id : -1;
}

static bool is_load_error_metric(const char *name)
{
    return strncmp(name, "errors_", 7) == 0 || strcmp(name, "non_2xx") == 0;
}

static rd_status intern_metric(struct rd_analysis *a, const char *name, uint32_t *id)
{
    const int64_t *f = rd_strmap_find(&a->metric_map, name);
    if (f) {
        *id = (uint32_t)*f;
        return RD_OK;
    }
    RD_TRY(RD_ARRAY_GROW(a->metrics, a->capmetrics, a->nmetrics + 1));
    RD_TRY(RD_ARRAY_GROW(a->load_err_metric, a->cap_load_err_metric, a->nmetrics + 1));
    const char *s = rd_arena_strdup(&a->strings, name);
    if (!s)
        return RD_ERR_NOMEM;
    a->metrics[a->nmetrics] = s;
    a->load_err_metric[a->nmetrics] = is_load_error_metric(s);
    RD_TRY(rd_strmap_put(&a->metric_map, s, (int64_t)a->nmetrics, NULL));
    *id = (uint32_t)a->nmetrics++;
    return RD_OK;
}

/* The id of the metric at position 'pos' of a run record. Records of one
 * store nearly always list the same metrics in the same order, so the id
 * the previous record had at this position is tried first: one strcmp
 * instead of a hash lookup per value. */
static rd_status metric_at(struct rd_analysis *a, size_t pos, const char *name, uint32_t *id)
{
    if (pos < a->nlast_ids && strcmp(a->metrics[a->last_ids[pos]], name) == 0) {
        *id = a->last_ids[pos];
        return RD_OK;
    }
    RD_TRY(intern_metric(a, name, id));
    RD_TRY(RD_ARRAY_GROW(a->last_ids, a->caplast_ids, pos + 1));
    if (pos >= a->nlast_ids)
        a->nlast_ids = pos + 1;
    a->last_ids[pos] = *id;
    return RD_OK;
}

static rd_status find_workload(struct rd_analysis *a, const char *name, struct wl **out)
{
    /* Runs of one workload come in a row: the previous run's is tried
     * first, one strcmp instead of a hash lookup (as metric_at). */
    if (a->last_wl && strcmp(a->wls[a->last_wl - 1].name, name) == 0) {
        *out = &a->wls[a->last_wl - 1];
        return RD_OK;
    }
    const int64_t *f = rd_strmap_find(&a->wl_map, name);
    if (f) {
        a->last_wl = (size_t)*f + 1;
        *out = &a->wls[*f];
        return RD_OK;
    }
    RD_TRY(RD_ARRAY_GROW(a->wls, a->capwls, a->nwls + 1));
    struct wl *w = &a->wls[a->nwls];
    memset(w, 0, sizeof *w);
    w->name = rd_arena_strdup(&a->strings, name);
    if (!w->name)
        return RD_ERR_NOMEM;
    w->first_metric = -1;
    RD_TRY(rd_strmap_put(&a->wl_map, w->name, (int64_t)a->nwls, NULL));
    a->last_wl = ++a->nwls;
    *out = w;
    return RD_OK;
}

/*
 * The workload the runs of environment env go to, *w being the workload
 * they name: *w itself for its first environment, else "NAME@ENV" (made
 * when new), so that machines are never pooled (struct wl, "Machines").
 */
static rd_status machine_workload(struct rd_analysis *a, struct wl **w, const char *env)
{
    struct wl *base = *w;
    if (!base->first_env)
        base->first_env = env;
    if (base->first_env == env)
        return RD_OK;
    size_t bi = (size_t)(base - a->wls);
    char *name = rd_arena_alloc(&a->strings, strlen(base->name) + strlen(env) + 2);
    if (!name)
        return RD_ERR_NOMEM;
    sprintf(name, "%s@%s", base->name, env);
    struct wl *m;
    RD_TRY(find_workload(a, name, &m));  /* may move a->wls */
    base = &a->wls[bi];
    base->split = true;
    if (!m->base) {
        m->base = base->name;
        m->machine = m->first_env = env;
    }
    *w = m;
    return RD_OK;
}

/* The config with 'key' ("workload\x1fid\x1ftool", len bytes: wl_len
 * of workload, id_len of id) in workload w, created with copies of
 * 'labels' when new. */
static rd_status cfg_by_key(struct rd_analysis *a, struct wl *w, const char *key, size_t len,
                            size_t wl_len, size_t id_len, const struct rd_kv *labels,
                            size_t nlabels, struct cfg **out)
{
    const int64_t *f = rd_strmap_findn(&a->cfg_map, key, len);
    if (f) {
        *out = &a->cfgs[*f];
        return RD_OK;
    }
    RD_TRY(RD_ARRAY_GROW(a->cfgs, a->capcfgs, a->ncfgs + 1));
    struct cfg *c = &a->cfgs[a->ncfgs];
    memset(c, 0, sizeof *c);
    const char *k = rd_arena_strndup(&a->strings, key, len);
    if (!k)
        return RD_ERR_NOMEM;
    c->workload = w->name;
    c->key = k;
    c->id = rd_arena_strndup(&a->strings, k + wl_len + 1, id_len);
    const char *tool = k + wl_len + 1 + id_len + 1;
    c->tool = *tool ? tool : NULL;
    c->nlabels = nlabels;
    c->labels = rd_arena_alloc(&a->strings, (c->nlabels ? c->nlabels : 1) * sizeof *c->labels);
    if (!c->id || !c->labels)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < c->nlabels; i++) {
        c->labels[i].key = rd_arena_strdup(&a->strings, labels[i].key);
        c->labels[i].value = rd_arena_strdup(&a->strings, labels[i].value);
        if (!c->labels[i].key || !c->labels[i].value)
            return RD_ERR_NOMEM;
    }
    RD_TRY(rd_strmap_put(&a->cfg_map, k, (int64_t)a->ncfgs, NULL));
    RD_TRY(RD_ARRAY_GROW(w->cfgs, w->capcfgs, w->ncfgs + 1));
    w->cfgs[w->ncfgs++] = (uint32_t)a->ncfgs;
    *out = &a->cfgs[a->ncfgs++];
    if (a->ncfgs == a->o.many_configs && a->o.on_many_configs)
        a->o.on_many_configs();
    return RD_OK;
}

/* The split a key of cfg_by_key needs: the lengths of its workload and id. */
static void key_parts(const char *key, size_t *wl_len, size_t *id_len)
{
    const char *us = strchr(key, '\x1f');
    *wl_len = (size_t)(us - key);
    *id_len = strcspn(us + 1, "\x1f");
}

/* The bytes of s at *k, *k moved past them; false at the first that
 * differs (*k's NUL differs from any byte of s, so *k is never read past
 * its end). */
static bool skip_same(const char **k, const char *s)
{
    const char *p = *k;
    for (; *s; s++, p++)
        if (*p != *s)
            return false;
    *k = p;
    return true;
}

/* Whether c's key is the key key_cfg builds for r in w: the same bytes
 * compared in place, without building the key or hashing it (building
 * and looking it up was 2 % of analyze's instructions on store-1m's first
 * 200,000 runs). cfg_map holds each key once, so a config whose key this
 * is, is the one the lookup would find. */
static bool cfg_is(const struct cfg *c, const struct wl *w, const struct rd_record *r)
{
    const char *k = c->key;
    if (!skip_same(&k, w->name) || *k++ != '\x1f')
        return false;
    for (size_t i = 0; i < r->config.len; i++) {
        if ((i && *k++ != ',') || !skip_same(&k, r->config.items[i].key) || *k++ != '=' ||
            !skip_same(&k, r->config.items[i].value))
            return false;
    }
    return *k++ == '\x1f' && skip_same(&k, r->tool ? r->tool : "") && *k == '\0';
}

/* find_cfg by the key itself. */
static rd_status key_cfg(struct rd_analysis *a, const struct rd_record *r, struct wl *w,
                         struct rd_buf *key, struct cfg **out)
{
    rd_buf_reset(key);
    size_t wl_len = strlen(w->name);
    RD_TRY(rd_buf_add(key, w->name, wl_len));
    RD_TRY(rd_buf_addch(key, '\x1f'));
    size_t start = key->len;
    RD_TRY(rd_record_config_id(r, key));
    size_t id_len = key->len - start;
    RD_TRY(rd_buf_addch(key, '\x1f'));
    RD_TRY(rd_buf_addstr(key, r->tool ? r->tool : ""));
    return cfg_by_key(a, w, key->ptr, key->len, wl_len, id_len, r->config.items,
                      r->config.len, out);
}

/* Configs are told apart by their labels and by the load tool that
 * measured them: a workload measured with two tools is not pooled across
 * them (the tool joins the id once the workload holds two; see
 * rd_tools_label).
 *
 * Runs of a workload come in a cycle through its configs (a suite's
 * interleaved order, a store of one config's runs in a row), so the
 * config that followed the previous run's config last time, or that
 * config again, is tried first; the key is built and looked up only
 * when neither is it. */
static rd_status find_cfg(struct rd_analysis *a, const struct rd_record *r, struct wl *w,
                          struct rd_buf *key, struct cfg **out)
{
    if (w->last_cfg) {
        struct cfg *last = &a->cfgs[w->last_cfg - 1];
        struct cfg *next = last->next_cfg ? &a->cfgs[last->next_cfg - 1] : NULL;
        if (next && cfg_is(next, w, r)) {
            w->last_cfg = last->next_cfg;
            *out = next;
            return RD_OK;
        }
        if (next != last && cfg_is(last, w, r)) {
            last->next_cfg = w->last_cfg;
            *out = last;
            return RD_OK;
        }
    }
    RD_TRY(key_cfg(a, r, w, key, out));
    uint32_t found = (uint32_t)(*out - a->cfgs) + 1;
    if (w->last_cfg)
        a->cfgs[w->last_cfg - 1].next_cfg = found;
    w->last_cfg = found;
    return RD_OK;
}


/* A config's first arrays (its series, each series' values and its runs)
 * start at this many elements instead of rd_array_grow's 8: a store of
 * many configs of a few runs each (10^5 configs of 3 runs, 4 metrics)
 * touched twice the memory it used, a page fault per 4 KiB of it. Doubling
 * from 4 reaches the same capacities as from 8 for longer series. */
enum { FIRST_CAP = 4 };

/* The series of c for metric, created empty if c has none yet. */
static rd_status series_of(struct cfg *c, uint32_t metric, struct series **out)
{
    if ((*out = rd_cfg_find_series(c, metric)))
        return RD_OK;
    RD_TRY(RD_ARRAY_GROW_FROM(c->series, c->capseries, (size_t)c->nseries + 1, FIRST_CAP));
    struct series *s = &c->series[c->nseries++];
    memset(s, 0, sizeof *s);
    s->metric = metric;
    *out = s;
    return RD_OK;
}

/* Room for 'need' values in s; a series holds at most UINT32_MAX values
 * (its length is 32 bits). v and ord (when s has one) share one capacity:
 * the smaller of the two arrays' (equal unless one of them failed to
 * grow). */
static rd_status series_reserve(struct series *s, uint64_t need)
{
    if (need <= s->cap)
        return RD_OK;
    if (need > UINT32_MAX)
        return RD_ERR_NOMEM;
    size_t vcap = s->cap, ocap = s->cap;
    /* v and ord grow to one capacity: ord from 8, so v too when it has one */
    RD_TRY(RD_ARRAY_GROW_FROM(s->v, vcap, (size_t)need, s->ord ? 8 : FIRST_CAP));
    if (s->ord)
        RD_TRY(RD_ARRAY_GROW(s->ord, ocap, (size_t)need));
    else
        ocap = vcap;
    size_t cap = vcap < ocap ? vcap : ocap;
    s->cap = cap < UINT32_MAX ? (uint32_t)cap : UINT32_MAX;
    return RD_OK;
}

/* Gives s the ord array its values' runs have stopped fitting without:
 * value i is run i's up to its length. */
static rd_status series_own_ord(struct series *s)
{
    if (s->ord)
        return RD_OK;
    s->ord = malloc((s->cap ? s->cap : 1) * sizeof *s->ord);
    if (!s->ord)
        return RD_ERR_NOMEM;
    for (uint32_t i = 0; i < s->len; i++)
        s->ord[i] = i;
    return RD_OK;
}

static rd_status add_value(struct cfg *c, uint32_t metric, double v, uint32_t ord)
{
    struct series *s;
    RD_TRY(series_of(c, metric, &s));
    if (s->len == s->cap)
        RD_TRY(series_reserve(s, (uint64_t)s->len + 1));
    if (!s->ord && ord != s->len)
        RD_TRY(series_own_ord(s));
    s->v[s->len] = v;
    if (s->ord)
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

/* Notes the command a run of c measured (info.command): the first, and a
 * second that differs, for the merged_commands warning. */
static rd_status note_command(struct rd_analysis *a, struct cfg *c, const char *cmd)
{
    if (!cmd || !*cmd || (c->command && strcmp(c->command, cmd) == 0) || c->command_other)
        return RD_OK;
    const char *copy = rd_arena_strdup(&a->strings, cmd);
    if (!copy)
        return RD_ERR_NOMEM;
    *(c->command ? &c->command_other : &c->command) = copy;
    return RD_OK;
}

/* Notes when the collector was at work for run r beyond what a kept run
 * shows: its wait for a quiet machine (waited seconds before its start;
 * 0: none), and its start when the run is set aside. */
static rd_status note_busy(struct rd_analysis *a, const struct rd_record *r, uint32_t input,
                           double waited, bool left_out)
{
    if (!(waited > 0 || left_out))
        return RD_OK;
    double t = rd_timeline_seconds(r->started_at);
    if (isnan(t))
        return RD_OK;
    RD_TRY(RD_ARRAY_GROW(a->busy, a->capbusy, a->nbusy + 1));
    a->busy[a->nbusy++] = (struct busy_mark){ t - waited, t, input & 0x7fffffffu };
    return RD_OK;
}

/* Room for n start times in c->run_t; made here when c had none, with
 * its first 'before' runs' NaN (they had no time). */
static rd_status run_times_room(struct cfg *c, size_t n, uint32_t before)
{
    bool had = c->run_t != NULL;
    RD_TRY(RD_ARRAY_GROW_FROM(c->run_t, c->caprun_t, n, FIRST_CAP));
    for (uint32_t i = 0; !had && i < before; i++)
        c->run_t[i] = NAN;
    return RD_OK;
}

/* Notes t as the start of c's last run: c->run_t is made only for the
 * first run that has one (its runs before it have none), and then holds
 * every run's. */
static rd_status note_run_time(struct cfg *c, double t)
{
    uint32_t j = c->nruns - 1;
    if (!c->run_t && isnan(t))
        return RD_OK;
    RD_TRY(run_times_room(c, c->nruns, j));
    c->run_t[j] = t;
    return RD_OK;
}

/* Notes a measured run of c: its run-order key, store and start. */
static rd_status add_run(struct cfg *c, const struct rd_record *r, uint32_t input,
                         uint32_t *index)
{
    if (c->nruns == UINT32_MAX)
        return RD_ERR_NOMEM;
    RD_TRY(RD_ARRAY_GROW_FROM(c->runs, c->capruns, (size_t)c->nruns + 1, FIRST_CAP));
    /* a redo of a contended run is ordered, and paired (pairs.c), in the
     * round it was made in */
    long round = rd_record_round(r);
    bool numbered = round > 0 && round <= (long)UINT32_MAX;
    struct run_meta *m = &c->runs[c->nruns];
    m->order = numbered ? (uint32_t)round : c->nruns;
    m->input = input & 0x3fffffffu;
    m->numbered = numbered;
    m->redo = numbered && round != r->run;
    *index = c->nruns++;
    return note_run_time(c, rd_timeline_seconds(r->started_at));
}

/* The metrics of a run that add_record reads beside its values, by
 * position in fig_names. */
enum { FIG_OTHERS, FIG_STEAL, FIG_SPEED, FIG_WAKEUP, FIG_ERROR_RATE, FIG_COUNT };

static const char *const fig_names[FIG_COUNT] = {
    "machine_others_cpu_pct", "machine_steal_pct", "machine_speed_pct",
    "machine_wakeup_pct", "error_rate",
};

/* What rd_record_metric gives for each of fig_names, in one pass over r's
 * metrics instead of one a name (five were 2 % of the CPU of reading
 * 10^6 records): fig[k] is set and bit k of the result is 1 where r has
 * fig_names[k] (its first, as rd_record_metric's). Most names of a
 * record are turned away by their first byte or their first eight. */
static unsigned machine_figures(const struct rd_record *r, double fig[FIG_COUNT])
{
    unsigned has = 0;
    for (size_t i = 0; i < r->nmetrics; i++) {
        const char *name = r->metrics[i].name;
        if (name[0] == 'm' ? strncmp(name, "machine_", 8) != 0 : name[0] != 'e')
            continue;
        for (unsigned k = 0; k < FIG_COUNT; k++)
            if (!(has & 1u << k) && name[0] == fig_names[k][0] &&
                strcmp(name, fig_names[k]) == 0) {
                fig[k] = r->metrics[i].value;
                has |= 1u << k;
                break;
            }
    }
    return has;
}

static rd_status add_record(struct rd_analysis *a, const struct rd_record *r,
                            const char *path, unsigned line, uint32_t input,
                            struct rd_buf *key, struct rd_diag *d)
{
    a->records++;
    if (r->phase && strcmp(r->phase, "warmup") == 0)
        return RD_OK;
    a->measured++;
    bool dup;
    RD_TRY(rd_sources_check(a, r, input, line, &dup));
    if (dup)
        return RD_OK; /* counted once, where it was first read */
    struct wl *w;
    struct cfg *c;
    RD_TRY(find_workload(a, r->workload, &w));
    if (!a->o.pool_envs && r->env && *r->env) {
        const char *env;
        RD_TRY(rd_envs_note(a, r->env, path, &env));
        RD_TRY(machine_workload(a, &w, env));
    }
    RD_TRY(find_cfg(a, r, w, key, &c));
    RD_TRY(rd_sources_keep(a, r, (uint32_t)(c - a->cfgs), input, line));
    RD_TRY(rd_directions_note(a, w, rd_record_info(r, "metric_better")));
    if (rd_record_info(r, "env_unknown"))
        c->env_unknown++;
    /* The workload's facts come from info: a record without any (nearly
     * all of a big store) has none to give, and asking for each of 16
     * keys was 2 % of the CPU of reading 10^6 such records. */
    if (r->info.len) {
        RD_TRY(take_info(a, r, "primary_metric", &w->primary));
        RD_TRY(take_info(a, r, "primary_better", &w->better));
        RD_TRY(take_info(a, r, "class", &w->class_));
        RD_TRY(take_info(a, r, "tie_breaker", &w->tie_breaker));
        RD_TRY(take_info(a, r, "margin", &w->margin));
        RD_TRY(take_info(a, r, "key_metrics", &w->key_metrics));
        RD_TRY(take_info(a, r, "guards", &w->guards));
        RD_TRY(take_info(a, r, "max_error_rate", &w->max_error_rate));
        RD_TRY(take_info(a, r, "blocks", &w->blocks));
        if (!w->compare_within) {
            RD_TRY(take_info(a, r, "compare_within", &w->compare_within));
            w->within_path = w->compare_within ? path : NULL;
            w->within_line = line;
        }
        RD_TRY(take_info(a, r, "until", &w->until));
        RD_TRY(take_info(a, r, "runs_min", &w->runs_min));
        RD_TRY(take_info(a, r, "runs_max", &w->runs_max));
        RD_TRY(take_info(a, r, "precision_target", &w->precision_target));
        RD_TRY(take_info(a, r, "precision_alpha", &w->precision_alpha));
        RD_TRY(take_info(a, r, "budget_s", &w->budget_s));
    }

    if (r->env && *r->env) {
        const char *env;
        RD_TRY(rd_envs_note(a, r->env, path, &env));
        if (!c->env) {
            c->env = env;
            c->env_line = line;
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

    double fig[FIG_COUNT] = {0};
    unsigned has = machine_figures(r, fig);
    if ((has & 1u << FIG_OTHERS) && isfinite(fig[FIG_OTHERS]))
        mfig_add(&c->others, fig[FIG_OTHERS]);
    else if (!r->contended)
        c->contention_unknown++;
    if ((has & 1u << FIG_STEAL) && isfinite(fig[FIG_STEAL]))
        mfig_add(&c->steal, fig[FIG_STEAL]);
    c->contended += r->contended;
    double speed = fig[FIG_SPEED];
    if ((has & 1u << FIG_SPEED) && isfinite(speed))
        c->speed_min = c->speed_n++ ? fmin(c->speed_min, speed) : speed;
    const char *by = rd_record_info(r, "contended_by");
    c->slow_cpu += r->contended && by && strstr(by, "speed");
    double wake = fig[FIG_WAKEUP];
    if ((has & 1u << FIG_WAKEUP) && isfinite(wake))
        c->wake_min = c->wake_n++ ? fmin(c->wake_min, wake) : wake;
    c->slow_wakeup += r->contended && by && strstr(by, "wakeup");
    c->busy_load += r->contended && (!by || strstr(by, "load"));
    c->race_keep |= rd_record_info(r, "race_keep") != NULL;
    double ws = rd_timeline_wait_s(r);
    bool left_out = rd_timeline_left_out(r, a->o.include_contended);
    c->waited_s += ws;
    RD_TRY(note_busy(a, r, input, ws, left_out));
    if (left_out) {
        /* Measured beside other work: not what the config costs. Counted,
         * warned (warnings.c "contended"), left out of every statistic. */
        c->contended_left_out++;
        return RD_OK;
    }
    RD_TRY(note_command(a, c, rd_record_info(r, "command")));
    uint32_t ord;
    RD_TRY(add_run(c, r, input, &ord));
    if (!c->runs[ord].numbered)
        a->unnumbered = true;
    if (r->status && strcmp(r->status, "ok") != 0) {
        if (strcmp(r->status, "timeout") == 0)
            c->timeouts++;
        else
            c->failed++;
        return take_info(a, r, "failure", &c->failure);
    }
    c->ok_runs++;
    double rate;
    struct rd_load_tally tally;
    if (!(has & 1u << FIG_ERROR_RATE) && rd_load_tally_of_record(&tally, r) &&
        !isnan(rate = rd_load_error_rate(&tally))) {
        c->derived_error_sum += rate;
        c->derived_error_runs++;
    }
    bool load_err = false;
    for (size_t i = 0; i < r->nmetrics; i++) {
        const struct rd_metric *m = &r->metrics[i];
        uint32_t id;
        RD_TRY(metric_at(a, i, m->name, &id));
        if (w->first_metric < 0)
            w->first_metric = id;
        if (isnan(m->value))
            continue; /* the tool printed no value: nothing to average */
        if (a->load_err_metric[id] && m->value > 0)
            load_err = true;
        RD_TRY(add_value(c, id, m->value, ord));
    }
    if (load_err)
        c->load_error_runs++;
    return RD_OK;
}

/* Where ingest takes records from: a store (or a part of one), or blocks
 * of its parse cache (storecache.h); with 'w', the records read from the
 * store are written to the cache as well. */
struct src {
    struct rd_store_reader *st;
    struct rd_cache_range *cr;
    struct rd_cache_writer *w;
    long long base; /* where st's range starts in the store */
    bool at;        /* raw runs noted by their place (rd_embed_note_at) */
    struct part_queue *q; /* with a store read in parts: its part 'part' */
    size_t part;
};

enum { MAX_PARTS = 8 }; /* the most --threads allows */
enum { PARTS_PER_THREAD = 16, MAX_SPLIT = MAX_PARTS * PARTS_PER_THREAD };

struct half;

/* The parts of a store left to read on threads: each thread takes the
 * next one (parts not queued are read in order afterwards). */
struct part_queue {
    struct half *h;
    size_t n;
    atomic_size_t next;
    /* Records read so far in each part, while fewer than the raw runs'
     * cap, and the runs the analysis held before the store: a part whose
     * earlier parts hold the cap notes no places of its runs. */
    atomic_size_t read[MAX_SPLIT + 1];
    size_t kept0;
};

/* Whether the parts before q's part 'part', with what the analysis held
 * before, hold cap raw runs (or more): none of this part's is kept. */
static bool cap_before(struct part_queue *q, size_t part, size_t cap)
{
    size_t n = q->kept0;
    for (size_t j = 0; j < part && n < cap; j++)
        n += atomic_load_explicit(&q->read[j], memory_order_relaxed);
    return n >= cap;
}

/* Reads the records of src into a; with 'embed', each is noted for
 * analysis.json's raw runs and check errors as well (embed.h). */
static rd_status ingest(struct rd_analysis *a, struct src *src, uint32_t input, bool embed,
                        struct rd_diag *d)
{
    struct rd_record rec;
    struct rd_buf key = RD_BUF_INIT;
    struct rd_store_reader *rd = src->st;
    rd_status s;
    size_t n = 0;
    bool place = src->at;
    for (;;) {
        int got;
        const char *path;
        unsigned line;
        if (rd) {
            s = rd_store_next(rd, &rec, &got, d);
            path = rd->path, line = rd->line;
        } else {
            s = rd_cache_next(src->cr, &rec, &got, d);
            path = src->cr->path, line = src->cr->line;
            if (!s && got) {
                /* what rd_store_next leaves in d for a good line */
                rd_diag_init(d, path);
                if (d)
                    d->line = line;
            }
        }
        if (s || !got)
            break;
        /* A last line without its newline may still grow: not cached. */
        if (src->w && !rd->unterminated)
            rd_cache_writer_add(src->w, &rec, line, (unsigned long long)rd->consumed);
        s = add_record(a, &rec, path, line, input, &key, d);
        if (!s && embed) {
            if (place && src->q && cap_before(src->q, src->part, a->embed.cap))
                place = false;
            s = rd && src->at ? rd_embed_note_at(&a->embed, path, input, &rec, place,
                                                 src->base + rd->rec_off, rd->rec_len)
                              : rd_embed_note(&a->embed, path, input, &rec);
            if (s)
                rd_diag_set(d, s, path, 0, 0, "out of memory embedding the raw runs");
            else if (src->q && n <= a->embed.cap)
                atomic_store_explicit(&src->q->read[src->part], ++n, memory_order_relaxed);
        }
        if (s)
            break;
    }
    if (!s && src->w)
        rd_cache_writer_finish(src->w, rd->line - (unsigned)rd->unterminated,
                               (unsigned long long)rd->consumed);
    rd_buf_release(&key);
    return s;
}

/*
 * Parsing is most of the time of a big store, so a store of at least
 * opts.split_bytes is read in parts (split.h: cut at newlines, each a
 * (2 * threads)-th of what is left, down to 1/64 of split_bytes at the
 * end; up to PARTS_PER_THREAD a thread): this thread reads the first part
 * into the analysis, then it and up to opts.threads - 1 others take the
 * next part not yet taken, each into a partial analysis of its own, which
 * are then merged in file order as if their lines had come next. Parts
 * taken in turn keep the processors busy to the end, and parts that
 * shrink leave a thread idle there for at most one of the last, small
 * ones: store-1m's 23 parts (the first 52 MiB, the last 256 KiB) end
 * within 0-2 ms of each other, where 12 parts of 16 MiB ended 40-73 ms
 * apart on a quiet machine (and one half a thread 0.03-0.47 s apart on a
 * busy one); the merge takes 2-4 ms either way. The result is the same,
 * byte for byte, as reading the store in one go: every value keeps its
 * run-order key, configs and metrics are created in the order of first
 * appearance, and of several errors the first in the file is reported
 * (see merge_half). Runs without a run number take their order key from
 * their position among the config's runs, which a later part cannot
 * know: such a part is read again in order after the ones before it.
 */
struct half {
    struct rd_analysis *a;
    const char *path;
    uint32_t input;
    bool embed;
    long long start, end;   /* a part of the store (end -1: to its end) */
    struct rd_cache *cache; /* or, when b1 > b0, blocks [b0, b1) of its cache */
    size_t b0, b1;
    struct rd_cache_writer *w; /* the cache's blocks of the part, when it is
                                * not read from the cache; NULL: none */
    unsigned lines; /* read, when the part was read to its end */
    rd_status s;
    struct rd_diag d;
    bool queued;    /* read into a by whichever thread takes it */
    struct part_queue *q; /* the parts' queue, when there are several */
    size_t part;
    bool written;   /* w holds the whole part */
};

/* Reads part p into x, its lines numbered on from line0 (*lines: the
 * last); the part's cache blocks go to w when it is not NULL. 'at': x is
 * a partial analysis, whose raw runs are noted by their place
 * (rd_embed_note_at): most of them are left out at the merge. */
static rd_status read_part(struct rd_analysis *x, struct half *p, unsigned line0,
                           struct rd_cache_writer *w, bool at, unsigned *lines,
                           struct rd_diag *d)
{
    struct src src = {.q = p->q, .part = p->part};
    rd_status s;
    if (p->b1 > p->b0) {
        struct rd_cache_range cr;
        rd_cache_range_open(&cr, p->cache, p->path, p->b0, p->b1);
        cr.line = cr.block_line = line0;
        src.cr = &cr;
        s = ingest(x, &src, p->input, p->embed, d);
        *lines = cr.line;
        rd_cache_range_close(&cr);
        return s;
    }
    struct rd_store_reader rd;
    s = p->end < 0 ? rd_store_open(&rd, p->path, d)
                   : rd_store_open_range(&rd, p->path, p->start, p->end, d);
    if (s)
        return s;
    rd.line = line0;
    if (w)
        rd_cache_writer_open(w, p->cache, line0, 0);
    src.st = &rd;
    src.w = w;
    src.base = p->end < 0 ? 0 : p->start;
    src.at = at;
    s = ingest(x, &src, p->input, p->embed, d);
    p->written = w && !s;
    *lines = rd.line;
    rd_store_close(&rd);
    return s;
}

static void *read_parts(void *arg)
{
    struct part_queue *q = arg;
    for (size_t i; (i = atomic_fetch_add(&q->next, 1)) < q->n;) {
        struct half *h = &q->h[i];
        if (!h->queued)
            continue;
        rd_diag_init(&h->d, h->path);
        h->s = read_part(h->a, h, 0, h->w, true, &h->lines, &h->d);
    }
    return NULL;
}

/* The start times of b's runs after c's (c's runs are to gain b's next),
 * when either has any; b's are freed. */
static rd_status append_run_times(struct cfg *c, struct cfg *b)
{
    if (!c->run_t && !b->run_t)
        return RD_OK;
    RD_TRY(run_times_room(c, (size_t)c->nruns + b->nruns, c->nruns));
    for (uint32_t j = 0; j < b->nruns; j++)
        c->run_t[c->nruns + j] = rd_run_time(b, j);
    free(b->run_t);
    b->run_t = NULL;
    b->caprun_t = 0;
    return RD_OK;
}

/* Moves the values, counters and facts of the partial analysis b (lines
 * after line0 of path) into a, in b's order of first appearance; each of
 * b's series and run lists is freed once copied (what is left of b is for
 * rd_analysis_free), so a's growth and b's values are not all held at
 * once. A config
 * whose first environment in b differs from its environment in a is the
 * error sequential reading would have hit at that line; *conflict_line is
 * the first such line (0: none) and d its message. */
static rd_status merge_half(struct rd_analysis *a, struct rd_analysis *b,
                            const char *path, unsigned line0, unsigned *conflict_line,
                            struct rd_diag *d)
{
    rd_status s = RD_OK;
    *conflict_line = 0;
    struct rd_buf key = RD_BUF_INIT;
    uint32_t *mid = malloc((b->nmetrics ? b->nmetrics : 1) * sizeof *mid);
    uint32_t *cfg_of = malloc((b->ncfgs ? b->ncfgs : 1) * sizeof *cfg_of);
    if (!mid || !cfg_of) {
        free(mid);
        free(cfg_of);
        return RD_ERR_NOMEM;
    }
    for (size_t i = 0; i < b->nmetrics && !s; i++)
        s = intern_metric(a, b->metrics[i], &mid[i]);
    for (size_t i = 0; i < b->ncfgs && !s; i++) {
        struct cfg *bc = &b->cfgs[i];
        struct wl *w;
        struct cfg *c;
        const struct wl *bw = &b->wls[*rd_strmap_find(&b->wl_map, bc->workload)];
        size_t wl_len, id_len;
        key_parts(bc->key, &wl_len, &id_len);
        /* b's machine split is its own: the config goes where a's runs
         * of its environment go, under a's name for that workload. */
        const char *menv;
        if ((s = find_workload(a, bw->base ? bw->base : bw->name, &w)) ||
            (!a->o.pool_envs && bc->env &&
             ((s = rd_envs_note(a, bc->env, path, &menv)) || (s = machine_workload(a, &w, menv)))))
            break;
        rd_buf_reset(&key);
        if ((s = rd_buf_addstr(&key, w->name)) || (s = rd_buf_addstr(&key, bc->key + wl_len)) ||
            (s = cfg_by_key(a, w, key.ptr, key.len, strlen(w->name), id_len, bc->labels,
                            bc->nlabels, &c)) ||
            (s = rd_directions_merge(a, w, bw)))
            break;
        cfg_of[i] = (uint32_t)(c - a->cfgs);
        const char **info[] = {&w->primary, &w->better, &w->class_, &w->tie_breaker,
                               &w->margin, &w->key_metrics, &w->guards,
                               &w->max_error_rate, &w->blocks, &c->failure};
        const char *binfo[] = {bw->primary, bw->better, bw->class_, bw->tie_breaker,
                               bw->margin, bw->key_metrics, bw->guards,
                               bw->max_error_rate, bw->blocks, bc->failure};
        for (size_t k = 0; k < sizeof info / sizeof info[0] && !s; k++)
            if (!*info[k] && binfo[k] && !(*info[k] = rd_arena_strdup(&a->strings, binfo[k])))
                s = RD_ERR_NOMEM;
        if (!w->compare_within && bw->compare_within) {
            if (!(w->compare_within = rd_arena_strdup(&a->strings, bw->compare_within)))
                s = RD_ERR_NOMEM;
            w->within_path = path;
            w->within_line = line0 + bw->within_line;
        }
        if (w->first_metric < 0 && bw->first_metric >= 0)
            w->first_metric = mid[bw->first_metric];
        const char *benv[] = {bc->env, bc->env_other};
        for (size_t k = 0; k < 2 && !s; k++) {
            const char *env;
            if (!benv[k] || (s = rd_envs_note(a, benv[k], path, &env)))
                continue;
            if (!c->env) {
                c->env = env;
                c->env_line = line0 + bc->env_line;
            } else if (c->env != env) {
                if (!a->o.pool_envs) {
                    /* b's own first environment is the one that clashes. */
                    unsigned line = line0 + bc->env_line;
                    if (!*conflict_line || line < *conflict_line) {
                        *conflict_line = line;
                        rd_diag_set(d, RD_ERR_PARSE, path, line, 0,
                                    "workload '%s' config '%s' has runs from environments "
                                    "'%s' and '%s'; analyse them separately or pass "
                                    "--pool-envs",
                                    c->workload, c->id, c->env, env);
                    }
                    break;
                }
                if (!c->env_other)
                    c->env_other = env;
            }
        }
        if (!s)
            s = note_command(a, c, bc->command);
        if (!s)
            s = note_command(a, c, bc->command_other);
        /* b's values point into b's runs: past a's once those are appended. */
        uint32_t first_run = c->nruns;
        if (!s && (uint64_t)c->nruns + bc->nruns > UINT32_MAX)
            s = RD_ERR_NOMEM;
        if (!s && c->nruns == 0) {
            /* A config first seen in b (every config of a workload that
             * lies in b's part): its runs and series are taken over, not
             * copied. A copy grew this thread's malloc arena by what b's
             * thread then freed into its own, which this thread does not
             * reuse (store-1m: 82 MiB at 2 threads against 59 at 1). */
            free(c->runs);
            free(c->run_t);
            c->runs = bc->runs;
            c->capruns = bc->capruns;
            c->run_t = bc->run_t;
            c->caprun_t = bc->caprun_t;
            c->nruns = bc->nruns;
            bc->runs = NULL;
            bc->capruns = 0;
            bc->run_t = NULL;
            bc->caprun_t = 0;
        } else if (!s &&
                   !(s = RD_ARRAY_GROW(c->runs, c->capruns, (size_t)c->nruns + bc->nruns)) &&
                   !(s = append_run_times(c, bc))) {
            memcpy(c->runs + c->nruns, bc->runs, bc->nruns * sizeof *bc->runs);
            c->nruns += bc->nruns;
            free(bc->runs);
            bc->runs = NULL;
            bc->capruns = 0;
        }
        c->ok_runs += bc->ok_runs;
        c->failed += bc->failed;
        c->timeouts += bc->timeouts;
        c->load_error_runs += bc->load_error_runs;
        c->env_unknown += bc->env_unknown;
        c->contended += bc->contended;
        c->contended_left_out += bc->contended_left_out;
        c->contention_unknown += bc->contention_unknown;
        mfig_merge(&c->others, &bc->others);
        mfig_merge(&c->steal, &bc->steal);
        c->speed_min = c->speed_n ? (bc->speed_n ? fmin(c->speed_min, bc->speed_min)
                                                 : c->speed_min)
                                  : bc->speed_min;
        c->speed_n += bc->speed_n;
        c->slow_cpu += bc->slow_cpu;
        c->wake_min = c->wake_n ? (bc->wake_n ? fmin(c->wake_min, bc->wake_min) : c->wake_min)
                                : bc->wake_min;
        c->wake_n += bc->wake_n;
        c->slow_wakeup += bc->slow_wakeup;
        c->busy_load += bc->busy_load;
        c->race_keep |= bc->race_keep;
        c->waited_s += bc->waited_s;
        c->derived_error_sum += bc->derived_error_sum;
        c->derived_error_runs += bc->derived_error_runs;
        for (uint32_t k = 0; k < bc->nseries && !s; k++) {
            struct series *bs = &bc->series[k];
            struct series *as;
            if ((s = series_of(c, mid[bs->metric], &as)))
                break;
            if (first_run == 0 && as->len == 0) {
                /* As the runs above: b's values are c's first, and their
                 * runs' indices stay. */
                free(as->v);
                free(as->ord);
                *as = (struct series){.metric = as->metric, .len = bs->len, .cap = bs->cap,
                                      .v = bs->v, .ord = bs->ord};
                *bs = (struct series){.metric = bs->metric};
                continue;
            }
            if ((s = series_reserve(as, (uint64_t)as->len + bs->len)))
                break;
            memcpy(as->v + as->len, bs->v, bs->len * sizeof *bs->v);
            if (!as->ord && (bs->ord || as->len != first_run))
                s = series_own_ord(as);
            for (uint32_t j = 0; as->ord && !s && j < bs->len; j++)
                as->ord[as->len + j] = first_run + rd_series_run(bs, j);
            as->len += bs->len;
            free(bs->v);
            free(bs->ord);
            *bs = (struct series){.metric = bs->metric};
        }
    }
    if (!s)
        s = rd_sources_merge(a, b, cfg_of, line0);
    if (!s && b->nbusy && !(s = RD_ARRAY_GROW(a->busy, a->capbusy, a->nbusy + b->nbusy))) {
        memcpy(a->busy + a->nbusy, b->busy, b->nbusy * sizeof *b->busy);
        a->nbusy += b->nbusy;
    }
    rd_buf_release(&key);
    free(mid);
    free(cfg_of);
    return s;
}

/* A store whose runs are embedded: a regular file (not standard input,
 * not a FIFO), which render's users can go back to. */
static bool embeddable(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The parts of a store whose first c->covered bytes are in its cache
 * (c->nblocks blocks): the blocks in up to 'most' ranges of about equal
 * store bytes, one per 'min' bytes, then the bytes after them (when the
 * store has grown) as a part of the store. Returns how many. */
static size_t cache_parts(struct half *h, struct rd_cache *c, long long size, size_t min,
                          size_t most)
{
    unsigned long long per = min ? c->covered / min : 1;
    size_t want = per < 1 ? 1 : per < most ? (size_t)per : most;
    size_t n = 0, b = 0;
    uint64_t at = 0;
    for (size_t i = 0; i < want && b < c->nblocks; i++) {
        uint64_t goal = c->covered / want * (i + 1);
        size_t b0 = b;
        while (b < c->nblocks && (at < goal || b == b0 || i + 1 == want))
            at += c->blocks[b++].bytes;
        h[n++].b0 = b0, h[n - 1].b1 = b;
    }
    if ((unsigned long long)size > c->covered) {
        h[n].b0 = h[n].b1 = 0;
        h[n].start = (long long)c->covered;
        h[n++].end = size;
    }
    return n;
}

static rd_status read_store(struct rd_analysis *a, const char *path, struct rd_diag *d)
{
    RD_TRY(RD_ARRAY_GROW(a->inputs, a->capinputs, a->ninputs + 1));
    a->inputs[a->ninputs++] = path;
    long long size = 0, at[MAX_SPLIT];
    size_t most = a->o.threads < MAX_PARTS ? a->o.threads : MAX_PARTS;
    uint32_t input = (uint32_t)(a->ninputs - 1);
    bool embed = embeddable(path);
    /* The cache: an unusable one is as none (storecache.h). */
    struct rd_cache cache;
    bool cached = false;
    if (a->o.cache_dir && embed) {
        struct rd_diag cd;
        rd_diag_init(&cd, path);
        cached = rd_cache_open(&cache, a->o.cache_dir, path, &cd) == RD_OK;
        if (cached)
            cache.block_records = a->o.cache_block;
    }
    struct half h[MAX_SPLIT + 1];
    struct rd_cache_writer w[MAX_SPLIT + 1];
    size_t parts;
    for (size_t i = 0; i <= MAX_SPLIT; i++)
        h[i] = (struct half){ .path = path,
                              .input = input,
                              .embed = embed,
                              .start = 0,
                              .end = -1,
                              .cache = cached ? &cache : NULL,
                              .s = RD_OK };
    struct stat st;
    if (cached && cache.nblocks && stat(path, &st) == 0) {
        parts = cache_parts(h, &cache, (long long)st.st_size, a->o.split_bytes, most);
    } else {
        parts = rd_split_points(path, a->o.split_bytes, most, most * PARTS_PER_THREAD, at,
                                &size);
        for (size_t i = 0; i < parts; i++) {
            h[i].start = i ? at[i - 1] : 0;
            h[i].end = i + 1 < parts ? at[i] : parts > 1 ? size : -1;
        }
    }
    for (size_t i = 0; i < parts; i++)
        if (cached && h[i].b1 == h[i].b0) {
            memset(&w[i], 0, sizeof w[i]);
            w[i].fd = -1; /* released as opened, whether or not it was */
            h[i].w = &w[i];
        }
    /* Parts 1.. are taken in turn by the threads and this one once it has
     * read part 0, but the store's bytes after its cache, read here in
     * order; a part whose analysis cannot be had is read here in its turn
     * instead, and so are all when no thread can be had. */
    struct part_queue q = {.h = h, .n = parts, .kept0 = a->embed.nruns};
    atomic_init(&q.next, 1);
    for (size_t i = 0; i < parts; i++) {
        atomic_init(&q.read[i], 0);
        h[i].q = parts > 1 ? &q : NULL;
        h[i].part = i;
    }
    for (size_t i = 1; i < parts; i++) {
        if (h[i].b1 == h[i].b0 && h[i].start > 0 && cached && cache.nblocks)
            continue;
        h[i].queued = rd_analysis_new(&a->o, &h[i].a) == RD_OK;
    }
    pthread_t tid[MAX_PARTS];
    size_t helpers = 0;
    while (helpers + 1 < most && helpers + 1 < parts &&
           pthread_create(&tid[helpers], NULL, read_parts, &q) == 0)
        helpers++;
    if (!helpers)
        for (size_t i = 1; i < parts; i++)
            h[i].queued = false; /* each read here, into a, in its turn */
    unsigned line0 = 0;
    rd_status s = read_part(a, &h[0], 0, h[0].w, false, &line0, d);
    if (helpers)
        (void)read_parts(&q);
    for (size_t t = 0; t < helpers; t++)
        pthread_join(tid[t], NULL);
    for (size_t i = 1; i < parts; i++) {
        struct half *p = &h[i];
        if (s) {
            /* An earlier error is the first in the file. */
        } else if (!p->queued || (!p->s && (p->a->unnumbered || rd_sources_overlap(a, p->a)))) {
            /* No thread read it; or order keys of this part depend on the
             * ones before, or runs of those come again here (the later
             * copy is the one left out, and its values are in the part):
             * read it here (its cache blocks, when a thread wrote them,
             * are already whole). */
            s = read_part(a, p, line0, p->queued ? NULL : p->w, false, &line0, d);
        } else {
            unsigned conflict;
            s = merge_half(a, p->a, path, line0, &conflict, d);
            if (!s)
                s = rd_embed_merge(&a->embed, &p->a->embed, path, d);
            a->records += p->a->records, a->measured += p->a->measured;
            if (!s && p->s && (!conflict || (p->d.line && line0 + p->d.line < conflict))) {
                *d = p->d;
                if (d->line)
                    d->line += line0;
                s = p->s;
            } else if (!s && conflict) {
                s = RD_ERR_PARSE;
            }
            line0 += p->lines;
        }
        rd_analysis_free(p->a);
    }
    if (cached) {
        /* The parts read from the store, after what the cache held,
         * become its new blocks when every one of them was read whole. */
        struct rd_cache_writer *ws[MAX_SPLIT + 1];
        size_t nw = 0;
        bool whole = !s;
        for (size_t i = 0; i < parts; i++)
            if (h[i].w) {
                whole = whole && h[i].written && !w[i].failed;
                ws[nw++] = &w[i];
            }
        uint64_t grown = 0;
        for (size_t i = 0; whole && i < nw; i++)
            grown += ws[i]->bytes;
        struct rd_diag cd;
        rd_diag_init(&cd, path);
        if (whole && grown > 0)
            (void)rd_cache_commit(&cache, path, ws, nw, &cd); /* a cache not written is none */
        for (size_t i = 0; i < parts; i++)
            if (h[i].w)
                rd_cache_writer_release(&w[i]);
        rd_cache_release(&cache);
    }
    return s;
}

static bool same_tool(const char *x, const char *y)
{
    return x == y || (x && y && strcmp(x, y) == 0);
}

/* Adds c's tool to its labels and id: the label "tool", or "load_tool"
 * when c's own labels have a "tool" of another value; nothing when they
 * have it with the same value (the id already tells the tools apart). */
static rd_status label_tool(struct rd_analysis *a, struct cfg *c, struct rd_buf *tmp)
{
    c->tool_label = true;
    const char *tool = c->tool ? c->tool : "unknown", *key = "tool";
    for (size_t i = 0; i < c->nlabels; i++)
        if (strcmp(c->labels[i].key, "tool") == 0) {
            if (strcmp(c->labels[i].value, tool) == 0)
                return RD_OK;
            key = "load_tool";
        }
    struct rd_kv *labels = rd_arena_alloc(&a->strings, (c->nlabels + 1) * sizeof *labels);
    if (!labels)
        return RD_ERR_NOMEM;
    size_t n = 0;
    bool placed = false;
    for (size_t i = 0; i <= c->nlabels; i++) {
        if (!placed && (i == c->nlabels || strcmp(key, c->labels[i].key) < 0)) {
            labels[n++] = (struct rd_kv){key, tool};
            placed = true;
        }
        if (i < c->nlabels)
            labels[n++] = c->labels[i];
    }
    rd_buf_reset(tmp);
    for (size_t i = 0; i < n; i++)
        RD_TRY(rd_buf_addf(tmp, "%s%s=%s", i ? "," : "", labels[i].key, labels[i].value));
    const char *id = rd_arena_strndup(&a->strings, tmp->ptr, tmp->len);
    if (!id)
        return RD_ERR_NOMEM;
    c->labels = labels;
    c->nlabels = n;
    c->id = id;
    return RD_OK;
}

/* A workload whose runs name two load tools or more compares the tools as
 * much as its configs: the tool joins every config's labels and id there
 * (warnings.c says so: mixed_tools). A workload of one tool keeps its ids. */
static rd_status label_tools(struct rd_analysis *a)
{
    struct rd_buf tmp = RD_BUF_INIT;
    rd_status s = RD_OK;
    for (size_t w = 0; w < a->nwls && !s; w++) {
        const struct wl *wl = &a->wls[w];
        bool mixed = false;
        for (size_t i = 1; i < wl->ncfgs && !mixed; i++)
            mixed = !same_tool(a->cfgs[wl->cfgs[i]].tool, a->cfgs[wl->cfgs[0]].tool);
        for (size_t i = 0; i < wl->ncfgs && mixed && !s; i++)
            if (!a->cfgs[wl->cfgs[i]].tool_label)
                s = label_tool(a, &a->cfgs[wl->cfgs[i]], &tmp);
    }
    rd_buf_release(&tmp);
    return s;
}

rd_status rd_analysis_add_store(struct rd_analysis *a, const char *path, struct rd_diag *d)
{
    RD_TRY(rd_contract_expect(path, RD_CONTRACT_STORE, d));
    size_t records = a->records, measured = a->measured;
    rd_status s = read_store(a, path, d);
    /* A store that says nothing would make an empty report that looks fine. */
    if (!s && a->records == records)
        return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0, "the store holds no run record");
    if (!s && a->measured == measured)
        return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                           "the store holds no measured run (only warmups)");
    if (!s)
        s = label_tools(a);
    return s ? s : rd_envs_load_new(a, d);
}
