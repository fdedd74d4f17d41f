/*
 * suiterun.c - the runs of a suite's plan (see suiterun.h).
 *
 * Every run is appended to the store and fsynced as it ends, so an
 * interrupt loses at most the run in flight and --resume picks up exactly
 * the missing keys.
 */
#include "suiterun.h"

#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envinfo.h"
#include "runner.h"
#include "rundown/arena.h"
#include "rundown/buf.h"

extern char **environ;

/* environ plus the runtime's and the workload's variables (the latter win). */
static rd_status make_envp(const struct rd_suite *s, size_t wi, size_t c, struct rd_arena *a,
                           char ***out, struct rd_diag *d)
{
    const struct rd_suite_workload *w = &s->workloads[wi];
    const struct rd_suite_runtime *rt = NULL;
    for (size_t k = 0; k < w->nkeys && !rt; k++)
        if (strcmp(w->keys[k], "runtime") == 0)
            for (size_t r = 0; r < s->nruntimes; r++)
                if (strcmp(s->runtimes[r].name, rd_suite_value(w, c, k)) == 0)
                    rt = &s->runtimes[r];
    size_t nadd = w->nenv + (rt ? rt->nenv : 0);
    *out = NULL;
    if (nadd == 0)
        return RD_OK;
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **v = rd_arena_alloc(a, (nenv + nadd + 1) * sizeof *v);
    char **adds = rd_arena_alloc(a, (nadd + 1) * sizeof *adds);
    if (!v || !adds)
        return RD_ERR_NOMEM;
    size_t na = 0;
    for (int pass = 0; pass < 2; pass++) {
        const struct rd_suite_kv *kv = pass ? w->env : (rt ? rt->env : NULL);
        size_t n = pass ? w->nenv : (rt ? rt->nenv : 0);
        for (size_t i = 0; i < n; i++) {
            char *val;
            RD_TRY(rd_suite_expand_string(s, wi, c, kv[i].value, "env", a, &val, d));
            size_t len = strlen(kv[i].key) + strlen(val) + 2;
            char *e = rd_arena_alloc(a, len);
            if (!e)
                return RD_ERR_NOMEM;
            snprintf(e, len, "%s=%s", kv[i].key, val);
            /* A later definition of the same name replaces an earlier one. */
            size_t j;
            for (j = 0; j < na; j++)
                if (strncmp(adds[j], e, strlen(kv[i].key) + 1) == 0)
                    break;
            adds[j] = e;
            if (j == na)
                na++;
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < nenv; i++) {
        bool over = false;
        for (size_t j = 0; j < na && !over; j++) {
            size_t kl = (size_t)(strchr(adds[j], '=') - adds[j]);
            over = strncmp(environ[i], adds[j], kl + 1) == 0;
        }
        if (!over)
            v[n++] = environ[i];
    }
    for (size_t j = 0; j < na; j++)
        v[n++] = adds[j];
    v[n] = NULL;
    *out = v;
    return RD_OK;
}

/* Sets info[key] to the argv joined, when there is one. */
static rd_status set_argv_info(struct rd_record *rec, const char *key, char *const *argv)
{
    if (!argv)
        return RD_OK;
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = rd_argv_join(argv, SIZE_MAX, &b);
    if (!st)
        st = rd_record_set_info(rec, key, b.ptr);
    rd_buf_release(&b);
    return st;
}

rd_status rd_suite_capture_env(const struct rd_suite *s, const bool *keep, const char *dir,
                               char *id, size_t idsize, struct rd_diag *d)
{
    struct rd_env_probe probes[64];
    size_t n = 0;
    struct rd_buf pin = RD_BUF_INIT;
    struct rd_arena arena, *a = &arena;
    rd_arena_init(a);
    const struct rd_suite shown = rd_suite_shown(s);
    rd_status st = RD_OK;
    for (size_t wi = 0; wi < s->nworkloads && !st; wi++) {
        if (!keep[wi])
            continue;
        const struct rd_suite_workload *w = &s->workloads[wi];
        for (size_t k = 0; k < w->nkeys; k++) {
            if (strcmp(w->keys[k], "runtime") != 0)
                continue;
            for (size_t c = 0; c < w->nconfigs; c++)
                for (size_t r = 0; r < s->nruntimes && n < 64; r++)
                    if (strcmp(s->runtimes[r].name, rd_suite_value(w, c, k)) == 0) {
                        bool seen = false;
                        for (size_t j = 0; j < n && !seen; j++)
                            seen = strcmp(probes[j].name, s->runtimes[r].name) == 0 &&
                                   strcmp(probes[j].kind, "runtime") == 0;
                        if (!seen)
                            probes[n++] = (struct rd_env_probe){
                                .kind = "runtime", .name = s->runtimes[r].name,
                                .argv = rd_suite_version_argv(s, &s->runtimes[r].version_cmd, a),
                                .cwd = s->root,
                                .shown = rd_suite_version_argv(&shown, &s->runtimes[r].version_cmd, a)};
                    }
        }
        if (w->is_server && n < 64) {
            char **argv = NULL;
            st = rd_suite_expand_argv(s, wi, 0, RD_FIELD_LOAD, a, &argv, d);
            if (st)
                break;
            char *b = rd_arena_strdup(a, argv[0]);
            const char *tool = w->load_tool ? w->load_tool : basename(b);
            if (w->shell)
                tool = w->load_tool;
            bool seen = !tool;
            for (size_t j = 0; j < n && !seen; j++)
                seen = strcmp(probes[j].name, tool) == 0 && strcmp(probes[j].kind, "tool") == 0;
            char *const *vargv = NULL, *const *vshown = NULL;
            for (size_t t = 0; t < s->ntools && tool; t++)
                if (strcmp(s->tools[t].name, tool) == 0) {
                    vargv = rd_suite_version_argv(s, &s->tools[t].version_cmd, a);
                    vshown = rd_suite_version_argv(&shown, &s->tools[t].version_cmd, a);
                }
            if (!seen && (vargv || rd_env_tool_version_argv(tool)))
                probes[n++] = (struct rd_env_probe){.kind = "tool", .name = tool, .argv = vargv,
                                                    .cwd = s->root, .shown = vshown};
        }
        const char *const cp[][2] = {{"cpus", w->cpus}, {"server", w->server_cpus},
                                     {"load", w->load_cpus}, {"background", w->background_cpus}};
        for (int i = 0; i < 4; i++)
            if (cp[i][1])
                rd_buf_addf(&pin, "%s%s %s %s", pin.len ? "; " : "", w->name, cp[i][0], cp[i][1]);
    }
    cJSON *env = NULL;
    char path[4096];
    if (!st)
        st = rd_env_capture(probes, n, pin.len ? pin.ptr : NULL, &env, id, idsize, d);
    if (!st)
        rd_env_set_root(env, s->root);
    if (!st)
        st = rd_env_write_once(dir, env, id, path, sizeof path, d);
    cJSON_Delete(env);
    rd_buf_release(&pin);
    rd_arena_release(a);
    return st;
}

/* The record every run of (wi, c) starts from, as a new session config.
 * Its commands are those of the suite as records show it: relative to the
 * root, which the environment records. */
static rd_status add_config(const struct rd_suite_run *run, size_t wi, size_t c,
                            struct rd_session_config **cfg, struct rd_diag *d)
{
    const struct rd_suite shown = rd_suite_shown(run->suite);
    const struct rd_suite *s = &shown;
    const struct rd_suite_workload *w = &s->workloads[wi];
    struct rd_arena a;
    struct rd_recordset set;
    rd_arena_init(&a);
    rd_recordset_init(&set);
    struct rd_record *rec = rd_recordset_add(&set);
    rd_status st = rec ? rd_suite_record(s, wi, c, rec) : RD_ERR_NOMEM;
    if (!st && run->envid)
        st = rd_record_set(rec, &rec->env, run->envid);
    if (!st && !w->is_server) {
        char **argv = NULL;
        st = rd_suite_expand_argv(s, wi, c, RD_FIELD_COMMAND, &a, &argv, d);
        if (!st)
            st = set_argv_info(rec, "command", argv);
    } else if (!st) {
        char **server = NULL, **load = NULL, **bg = NULL, *url = NULL;
        st = rd_suite_expand_argv(s, wi, c, RD_FIELD_SERVER, &a, &server, d);
        if (!st) st = rd_suite_expand_argv(s, wi, c, RD_FIELD_LOAD, &a, &load, d);
        if (!st) st = rd_suite_expand_argv(s, wi, c, RD_FIELD_BACKGROUND, &a, &bg, d);
        if (!st) st = rd_suite_expand_string(s, wi, c, w->url, "url", &a, &url, d);
        if (!st) st = set_argv_info(rec, "server", server);
        if (!st) st = set_argv_info(rec, "load", load);
        if (!st) st = set_argv_info(rec, "background", bg);
        if (!st) st = rd_record_set_info(rec, "url", url);
        if (!st && w->warmup_load > 0) {
            char b[32];
            snprintf(b, sizeof b, "%g", w->warmup_load);
            st = rd_record_set_info(rec, "warmup_load_s", b);
        }
    }
    if (!st)
        st = rd_session_add_config(run->session, rec, cfg);
    rd_recordset_release(&set);
    rd_arena_release(&a);
    return st;
}

/* Runs one plan item of cfg and stores what it produced. */
static rd_status run_item(const struct rd_suite_run *run, const struct rd_plan_item *it,
                          struct rd_session_config *cfg, struct rd_diag *d)
{
    const struct rd_suite *s = run->suite;
    const struct rd_suite_workload *w = &s->workloads[it->workload];
    struct rd_arena a;
    rd_arena_init(&a);
    char **envp = NULL, *cwd = NULL, stem[1200], wslug[256], cslug[RD_CONFIG_STEM_PREFIX + 32];
    rd_status st = make_envp(s, it->workload, it->config, &a, &envp, d);
    if (!st) st = rd_suite_expand_string(s, it->workload, it->config, w->cwd, "cwd", &a, &cwd, d);
    rd_runner_slug(w->name, wslug, sizeof wslug);
    rd_runner_config_stem(&cfg->tmpl, cfg->id, cslug, sizeof cslug);
    /* Held from numbering to storing (store.h): other writers wait. */
    if (!st)
        st = rd_session_lock(run->session, d);
    if (!st && !w->is_server) {
        struct rd_recordset set;
        rd_recordset_init(&set);
        struct rd_record *rec = rd_recordset_add(&set);
        char **argv = NULL;
        st = rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_COMMAND, &a, &argv, d);
        if (!st)
            st = rec ? rd_session_begin_run(run->session, cfg,
                                            it->warmup ? RD_PHASE_WARMUP : RD_PHASE_MEASURE,
                                            it->run, rec)
                     : RD_ERR_NOMEM;
        snprintf(stem, sizeof stem, "%s/%s-%s%ld", wslug, cslug, it->warmup ? "warmup-" : "",
                 it->run);
        struct rd_command_spec spec = {
            .argv = argv, .envp = envp, .cwd = cwd, .cpus = w->cpus, .timeout_s = w->timeout,
            .logs = {.dir = run->log_dir, .stem = stem, .shown = run->log_shown},
        };
        if (!st) st = rd_runner_command(&spec, rec, d);
        if (!st) st = rd_session_store(run->session, cfg, rec, d);
        rd_recordset_release(&set);
    } else if (!st) {
        char **server = NULL, **load = NULL, **bg = NULL, *url = NULL, *ready = NULL;
        st = rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_SERVER, &a, &server, d);
        if (!st) st = rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_LOAD, &a, &load, d);
        if (!st) st = rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_BACKGROUND, &a, &bg, d);
        if (!st) st = rd_suite_expand_string(s, it->workload, it->config, w->url, "url", &a, &url, d);
        if (!st) st = rd_suite_expand_string(s, it->workload, it->config, w->ready_url, "ready_url", &a, &ready, d);
        snprintf(stem, sizeof stem, "%s/%s-s%ld", wslug, cslug, it->run);
        struct rd_http_spec spec = {
            .server_argv = server, .load_argv = load, .background_argv = bg, .envp = envp,
            .cwd = cwd, .server_cpus = w->server_cpus, .load_cpus = w->load_cpus,
            .background_cpus = w->background_cpus, .url = url, .ready_url = ready,
            .ready_timeout_s = w->ready_timeout, .stop_timeout_s = w->stop_timeout,
            .timeout_s = w->timeout, .warmup_load_s = w->warmup_load, .warmups = (int)w->warmups,
            .load_tool = w->load_tool,
            .logs = {.dir = run->log_dir, .stem = stem, .shown = run->log_shown},
        };
        struct rd_session_sink sink = {run->session, cfg};
        if (!st)
            st = rd_runner_http_session(&spec, &cfg->tmpl, (it->run - 1) * w->warmups + 1,
                                        it->run, 1, rd_session_emit, rd_session_warmup_stored,
                                        &sink, d);
        if (st == RD_ERR_RUN_FAILED)
            st = RD_OK;  /* the failed runs are stored and were reported */
    }
    rd_session_unlock(run->session);
    rd_arena_release(&a);
    return st;
}

rd_status rd_suite_run_plan(const struct rd_suite_run *run, struct rd_diag *d)
{
    const struct rd_suite *s = run->suite;
    const struct rd_plan *plan = run->plan;
    /* The session config of each (workload, config), made on first use. */
    struct rd_session_config ***cfgs = calloc(s->nworkloads + 1, sizeof *cfgs);
    rd_status st = cfgs ? RD_OK : RD_ERR_NOMEM;
    rd_session_plan_steps(run->session, plan->len);
    for (size_t k = 0; k < plan->len && !st; k++) {
        const struct rd_plan_item *it = &plan->items[k];
        struct rd_session_config ***wc = &cfgs[it->workload];
        if (!*wc && !(*wc = calloc(s->workloads[it->workload].nconfigs, sizeof **wc))) {
            st = RD_ERR_NOMEM;
            break;
        }
        rd_diag_init(d, NULL);
        struct rd_session_config **cfg = &(*wc)[it->config];
        if (!*cfg)
            st = add_config(run, it->workload, it->config, cfg, d);
        if (!st) {
            rd_session_starting(run->session, k, *cfg, NULL);
            st = run_item(run, it, *cfg, d);
        }
    }
    for (size_t wi = 0; cfgs && wi < s->nworkloads; wi++)
        free(cfgs[wi]);
    free(cfgs);
    return st;
}
