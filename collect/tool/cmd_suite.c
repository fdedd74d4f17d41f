/*
 * suite - `rundown-collect suite`: runs a whole rundown.suite/1 experiment.
 *
 * Order of work: load and check the suite (every placeholder of every
 * config), build the plan, apply --shard, --only and --resume, check the
 * machine (programs, ports), record the environment, and only then run.
 * Every run is appended to DIR/<suite>.jsonl and fsynced as it ends, so an
 * interrupt loses at most the run in flight and --resume picks up exactly
 * the missing keys.
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "envinfo.h"
#include "proc.h"
#include "runindex.h"
#include "runner.h"
#include "plan.h"
#include "suite.h"
#include "rundown/cli.h"
#include "rundown/fsutil.h"
#include "rundown/store.h"

extern char **environ;

static void usage(FILE *out)
{
    fprintf(out,
        "usage: rundown-collect suite [--resume] [--only PATTERN] [--shard I/N]\n"
        "                             [--dry-run] [-o DIR] SUITE.json\n"
        "\n"
        "Runs the experiment described by SUITE.json (rundown.suite/1, see\n"
        "docs/suite.md): checks it completely, records the environment in\n"
        "DIR/env-ID.json, and appends one record per run to DIR/<suite>.jsonl,\n"
        "fsynced as each run ends. Logs go to DIR/logs/.\n"
        "\n"
        "  -o, --output DIR    where the store, environment and logs go (default .)\n"
        "      --resume        skip runs already in the store (suite, workload,\n"
        "                      config, run, phase)\n"
        "      --only PATTERN  only workloads or workload/config-id matching the\n"
        "                      shell pattern, e.g. 'cpu-*' or '*runtime=bun*'\n"
        "      --shard I/N     only every N-th measured run, starting with the I-th\n"
        "      --dry-run       check and print the plan; run nothing\n"
        "  -h, --help          this text\n"
        "\n"
        "Exit codes: 0 every run ok, 1 invalid suite, 3 system error (port in use),\n"
        "4 a run failed or timed out (all runs are stored), 128+N after signal N\n"
        "(130 SIGINT, 143 SIGTERM, 129 SIGHUP).\n");
}

struct suite_run {
    const char *store;
    struct rd_run_index ix;
    const struct rd_record *tmpl;
    long failed;
    bool progress;
};

static rd_status emit(void *vctx, const struct rd_record *rec, struct rd_diag *d)
{
    struct suite_run *sr = vctx;
    rd_status s = rd_store_append_one(sr->store, rec, d);
    if (!s)
        s = rd_run_index_add(&sr->ix, rec);
    if (!s && strcmp(rec->status, "ok") != 0) {
        sr->failed++;
        struct rd_buf id = RD_BUF_INIT;
        rd_record_config_id(rec, &id);
        const char *err = rd_record_info(rec, "error");
        if (sr->progress)
            fputs("\r\033[K", stderr);
        rd_warn("%s %s %s %ld: %s%s%s", rec->workload, id.ptr, rec->phase, rec->run,
                rec->status, err ? ": " : "", err ? err : "");
        rd_buf_release(&id);
    }
    const char *dropped = rd_record_info(rec, "dropped_metric_lines");
    if (!s && dropped) {
        if (sr->progress)
            fputs("\r\033[K", stderr);
        rd_warn("%s %s %ld: metric lines dropped: %s", rec->workload, rec->phase, rec->run,
                dropped);
    }
    return s;
}

static bool skip_warmup(void *vctx, long run)
{
    struct suite_run *sr = vctx;
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    bool has = false;
    if (r && rd_record_copy(r, sr->tmpl) == RD_OK &&
        rd_record_set(r, &r->phase, "warmup") == RD_OK) {
        r->run = run;
        has = rd_run_index_has(&sr->ix, r);
    }
    rd_recordset_release(&set);
    return has;
}

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
            rd_status st = rd_suite_expand_string(s, wi, c, kv[i].value, "env", a, &val, d);
            if (st)
                return st;
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

static char *join(char **argv, struct rd_arena *a)
{
    struct rd_buf b = RD_BUF_INIT;
    for (size_t i = 0; argv && argv[i]; i++)
        rd_buf_addf(&b, "%s%s", i ? " " : "", argv[i]);
    char *s = rd_arena_strdup(a, b.ptr);
    rd_buf_release(&b);
    return s;
}

static rd_status capture_env(const struct rd_suite *s, const bool *keep, const char *dir,
                             struct rd_arena *a, char *id, size_t idsize, struct rd_diag *d)
{
    struct rd_env_probe probes[64];
    size_t n = 0;
    struct rd_buf pin = RD_BUF_INIT;
    for (size_t wi = 0; wi < s->nworkloads; wi++) {
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
                                "runtime", s->runtimes[r].name,
                                rd_suite_version_argv(s, &s->runtimes[r].version_cmd, a), s->root};
                    }
        }
        if (w->is_server && n < 64) {
            char **argv = NULL;
            rd_status st = rd_suite_expand_argv(s, wi, 0, RD_FIELD_LOAD, a, &argv, d);
            if (st)
                return st;
            char *b = rd_arena_strdup(a, argv[0]);
            const char *tool = w->load_tool ? w->load_tool : basename(b);
            if (w->shell)
                tool = w->load_tool;
            bool seen = !tool;
            for (size_t j = 0; j < n && !seen; j++)
                seen = strcmp(probes[j].name, tool) == 0 && strcmp(probes[j].kind, "tool") == 0;
            char *const *vargv = NULL;
            for (size_t t = 0; t < s->ntools && tool; t++)
                if (strcmp(s->tools[t].name, tool) == 0)
                    vargv = rd_suite_version_argv(s, &s->tools[t].version_cmd, a);
            if (!seen && (vargv || rd_env_tool_version_argv(tool)))
                probes[n++] = (struct rd_env_probe){"tool", tool, vargv, s->root};
        }
        const char *const cp[][2] = {{"cpus", w->cpus}, {"server", w->server_cpus},
                                     {"load", w->load_cpus}, {"background", w->background_cpus}};
        for (int i = 0; i < 4; i++)
            if (cp[i][1])
                rd_buf_addf(&pin, "%s%s %s %s", pin.len ? "; " : "", w->name, cp[i][0], cp[i][1]);
    }
    cJSON *env = NULL;
    char path[4096];
    rd_status st = rd_env_capture(probes, n, pin.len ? pin.ptr : NULL, &env, id, idsize, d);
    if (!st)
        st = rd_env_write_once(dir, env, id, path, sizeof path, d);
    cJSON_Delete(env);
    rd_buf_release(&pin);
    return st;
}

static void config_slug(const struct rd_suite_workload *w, size_t c, char *out, size_t size)
{
    char part[256];
    size_t o = 0;
    for (size_t k = 0; k < w->nkeys && o < size; k++)
        o += (size_t)snprintf(out + o, size - o, "%s%s", k ? "-" : "",
                              rd_runner_slug(rd_suite_value(w, c, k), part, sizeof part));
    if (w->nkeys == 0)
        snprintf(out, size, "run");
}

/* Runs one plan item and stores what it produced. */
static rd_status run_item(const struct rd_suite *s, const struct rd_plan_item *it,
                          const char *envid, const char *logdir, struct suite_run *sr,
                          struct rd_diag *d)
{
    const struct rd_suite_workload *w = &s->workloads[it->workload];
    struct rd_arena a;
    struct rd_recordset set;
    rd_arena_init(&a);
    rd_recordset_init(&set);
    struct rd_record *rec = rd_recordset_add(&set);
    rd_status st = rec ? rd_suite_record(s, it->workload, it->config, rec) : RD_ERR_NOMEM;
    char **envp = NULL, *cwd = NULL, stem[1200], wslug[256], cslug[768];
    if (!st && envid) st = rd_record_set(rec, &rec->env, envid);
    if (!st) st = make_envp(s, it->workload, it->config, &a, &envp, d);
    if (!st) st = rd_suite_expand_string(s, it->workload, it->config, w->cwd, "cwd", &a, &cwd, d);
    rd_runner_slug(w->name, wslug, sizeof wslug);
    config_slug(w, it->config, cslug, sizeof cslug);
    if (!st && !w->is_server) {
        char **argv = NULL;
        st = rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_COMMAND, &a, &argv, d);
        if (!st) st = rd_record_set_info(rec, "command", join(argv, &a));
        if (!st) st = rd_record_set(rec, &rec->phase, it->warmup ? "warmup" : "measure");
        rec->run = it->run;
        snprintf(stem, sizeof stem, "%s/%s-%s%ld", wslug, cslug, it->warmup ? "warmup-" : "",
                 it->run);
        struct rd_command_spec spec = {
            .argv = argv, .envp = envp, .cwd = cwd, .cpus = w->cpus, .timeout_s = w->timeout,
            .logs = {.dir = logdir, .stem = stem},
        };
        if (!st) st = rd_runner_command(&spec, rec, d);
        if (!st) st = emit(sr, rec, d);
    } else if (!st) {
        char **server = NULL, **load = NULL, **bg = NULL, *url = NULL, *ready = NULL;
        st = rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_SERVER, &a, &server, d);
        if (!st) st = rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_LOAD, &a, &load, d);
        if (!st) st = rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_BACKGROUND, &a, &bg, d);
        if (!st) st = rd_suite_expand_string(s, it->workload, it->config, w->url, "url", &a, &url, d);
        if (!st) st = rd_suite_expand_string(s, it->workload, it->config, w->ready_url, "ready_url", &a, &ready, d);
        if (!st) st = rd_record_set_info(rec, "server", join(server, &a));
        if (!st) st = rd_record_set_info(rec, "load", join(load, &a));
        if (!st && bg) st = rd_record_set_info(rec, "background", join(bg, &a));
        if (!st) st = rd_record_set_info(rec, "url", url);
        if (!st && w->warmup_load > 0) {
            char b[32];
            snprintf(b, sizeof b, "%g", w->warmup_load);
            st = rd_record_set_info(rec, "warmup_load_s", b);
        }
        snprintf(stem, sizeof stem, "%s/%s-s%ld", wslug, cslug, it->run);
        struct rd_http_spec spec = {
            .server_argv = server, .load_argv = load, .background_argv = bg, .envp = envp,
            .cwd = cwd, .server_cpus = w->server_cpus, .load_cpus = w->load_cpus,
            .background_cpus = w->background_cpus, .url = url, .ready_url = ready,
            .ready_timeout_s = w->ready_timeout, .stop_timeout_s = w->stop_timeout,
            .timeout_s = w->timeout, .warmup_load_s = w->warmup_load, .warmups = (int)w->warmups,
            .load_tool = w->load_tool, .logs = {.dir = logdir, .stem = stem},
        };
        sr->tmpl = rec;
        if (!st)
            st = rd_runner_http_session(&spec, rec, (it->run - 1) * w->warmups + 1, it->run, 1,
                                        emit, skip_warmup, sr, d);
        if (st == RD_ERR_RUN_FAILED)
            st = RD_OK;  /* the failed runs are stored and were reported */
        sr->tmpl = NULL;
    }
    rd_recordset_release(&set);
    rd_arena_release(&a);
    return st;
}

static void print_item(const struct rd_suite *s, size_t n, const struct rd_plan_item *it)
{
    const struct rd_suite_workload *w = &s->workloads[it->workload];
    struct rd_arena a;
    rd_arena_init(&a);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    printf("%zu %s ", n, w->name);
    for (size_t k = 0; k < w->nkeys; k++)
        printf("%s%s=%s", k ? "," : "", w->keys[k], rd_suite_value(w, it->config, k));
    if (!w->nkeys)
        printf("-");
    printf(" %s %ld", it->warmup ? "warmup" : "measure", it->run);
    char **argv;
    if (!w->is_server) {
        if (rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_COMMAND, &a, &argv, &d) == RD_OK)
            printf(": %s", join(argv, &a));
    } else {
        if (rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_SERVER, &a, &argv, &d) == RD_OK)
            printf(": server %s", join(argv, &a));
        if (rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_LOAD, &a, &argv, &d) == RD_OK)
            printf("; load %s", join(argv, &a));
        if (w->background.n &&
            rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_BACKGROUND, &a, &argv, &d) == RD_OK)
            printf("; background %s", join(argv, &a));
    }
    printf("\n");
    rd_arena_release(&a);
}

int rd_cmd_suite(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"resume", no_argument, NULL, 'r'},
        {"only", required_argument, NULL, 'O'},
        {"shard", required_argument, NULL, 'S'},
        {"dry-run", no_argument, NULL, 'n'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool resume = false, dry = false;
    const char *only = NULL, *dir = ".";
    unsigned shard_i = 1, shard_n = 1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'r': resume = true; break;
        case 'O': only = optarg; break;
        case 'S':
            if (!rd_shard_parse(optarg, &shard_i, &shard_n))
                return rd_usage_error("expected --shard I/N with 1 <= I <= N, got '%s'", optarg);
            break;
        case 'n': dry = true; break;
        case 'o': dir = optarg; break;
        case 'h': usage(stdout); return RD_EXIT_OK;
        default: return rd_usage_error("invalid option");
        }
    }
    if (optind + 1 != argc)
        return rd_usage_error("suite needs exactly one SUITE.json");

    struct rd_suite s;
    struct rd_plan plan;
    struct rd_diag d;
    rd_diag_init(&d, argv[optind]);
    rd_plan_init(&plan);
    int exit_code = RD_EXIT_OK;
    rd_status st = rd_suite_load(&s, argv[optind], &d);
    if (!st) st = rd_plan_build(&s, &plan, &d);
    if (!st) st = rd_plan_shard(&plan, shard_i, shard_n);
    if (!st && only) st = rd_plan_only(&s, &plan, only);
    if (st) {
        exit_code = rd_fail(st, &d);
        goto out;
    }
    char store[4096];
    snprintf(store, sizeof store, "%s/%s.jsonl", dir, s.name);
    struct suite_run sr = {.store = store};
    rd_run_index_init(&sr.ix);
    if (resume) {
        rd_diag_init(&d, store);
        st = rd_run_index_load(&sr.ix, store, &d);
        if (!st) {
            size_t before = plan.len;
            st = rd_plan_drop_stored(&s, &plan, &sr.ix);
            if (!st && !dry && before != plan.len)
                rd_note("resume: %zu of %zu runs are already in %s", before - plan.len, before,
                        store);
        }
        if (st) {
            exit_code = rd_fail(st, &d);
            goto out_ix;
        }
    }
    bool *keep = calloc(s.nworkloads + 1, sizeof *keep);
    for (size_t k = 0; keep && k < plan.len; k++)
        keep[plan.items[k].workload] = true;
    rd_diag_init(&d, NULL);
    st = keep ? rd_suite_check_system(&s, keep, &d) : RD_ERR_NOMEM;
    if (st) {
        exit_code = rd_fail(st, &d);
        goto out_keep;
    }
    static const char *const orders[] = {"interleaved", "random", "grouped"};
    if (dry) {
        printf("suite %s: %zu runs, order %s", s.name, plan.len, orders[s.order]);
        if (s.order == RD_ORDER_RANDOM)
            printf(", seed %llu", (unsigned long long)s.seed);
        if (shard_n > 1)
            printf(", shard %u/%u", shard_i, shard_n);
        printf("\n");
        for (size_t k = 0; k < plan.len; k++)
            print_item(&s, k + 1, &plan.items[k]);
        goto out_keep;
    }
    if (plan.len == 0) {
        rd_note("nothing to run");
        goto out_keep;
    }
    char envid[64], logdir[4096];
    struct rd_arena a;
    rd_arena_init(&a);
    rd_diag_init(&d, NULL);
    st = rd_mkdir_p(dir, &d);
    if (!st)
        st = capture_env(&s, keep, dir, &a, envid, sizeof envid, &d);
    rd_arena_release(&a);
    if (st) {
        exit_code = rd_fail(st, &d);
        goto out_keep;
    }
    snprintf(logdir, sizeof logdir, "%s/logs", dir);
    rd_proc_catch_signals();
    sr.progress = rd_stderr_is_interactive();
    for (size_t k = 0; k < plan.len; k++) {
        const struct rd_plan_item *it = &plan.items[k];
        if (sr.progress) {
            const struct rd_suite_workload *w = &s.workloads[it->workload];
            fprintf(stderr, "\r\033[K[%zu/%zu] %s", k + 1, plan.len, w->name);
            for (size_t j = 0; j < w->nkeys; j++)
                fprintf(stderr, " %s", rd_suite_value(w, it->config, j));
            fprintf(stderr, " %s %ld", it->warmup ? "warmup" : "run", it->run);
        }
        rd_diag_init(&d, NULL);
        st = run_item(&s, it, envid, logdir, &sr, &d);
        if (st) {
            if (sr.progress)
                fputs("\r\033[K", stderr);
            if (rd_proc_interrupted) {
                rd_error("interrupted: finished runs are in %s; continue with --resume", store);
                exit_code = rd_proc_interrupt_exit_code();
            } else {
                exit_code = rd_fail(st, &d);
            }
            goto out_keep;
        }
    }
    if (sr.progress)
        fputs("\r\033[K", stderr);
    if (sr.failed) {
        rd_note("%ld runs failed or timed out; they are stored in %s", sr.failed, store);
        exit_code = RD_EXIT_RUN_FAILED;
    }
out_keep:
    free(keep);
out_ix:
    rd_run_index_release(&sr.ix);
out:
    rd_plan_release(&plan);
    rd_suite_release(&s);
    return exit_code;
}
