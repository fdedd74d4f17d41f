/*
 * suite - `rundown-collect suite`: runs a whole rundown.suite/1 experiment.
 *
 * Order of work: load and check the suite (every placeholder of every
 * config), build the plan, apply --shard, --only and --resume, check the
 * machine (programs, ports), record the environment, and only then run
 * (suiterun.c, through a session that appends every run to
 * DIR/<suite>.jsonl and fsyncs it as it ends). This file reads the command
 * line, prints the plan of --dry-run and the progress, and maps the outcome
 * to an exit code.
 */
#include <libgen.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "commands.h"
#include "optable.h"
#include "options.h"
#include "plan.h"
#include "proc.h"
#include "runner.h"
#include "runwarn.h"
#include "session.h"
#include "suite.h"
#include "suiteexpand.h"
#include "suiterun.h"
#include "rundown/cli.h"
#include "rundown/contract.h"
#include "rundown/fsutil.h"
#include "rundown/store.h"
#include "rundown/units.h"

/* What the session's reports need: the plan, to name the item in flight. */
struct suite_ui {
    const struct rd_suite *suite;
    const struct rd_plan *plan;
    bool progress;      /* a progress line is shown on stderr */
    struct rd_run_watchset watches;  /* per config, for the warnings after */
};

/* The progress line before each plan item; a warning after each run that
 * failed or lost metric lines. */
static void report(void *vui, const struct rd_session_event *ev)
{
    struct suite_ui *ui = vui;
    if (!ui)  /* the plan is over */
        return;
    if (ev->kind == RD_SESSION_STARTING) {
        if (!ui->progress)
            return;
        const struct rd_plan_item *it = &ui->plan->items[ev->step];
        const struct rd_suite_workload *w = &ui->suite->workloads[it->workload];
        fprintf(stderr, "\r\033[K[%zu/%zu] %s", ev->step + 1, ev->steps, w->name);
        for (size_t j = 0; j < w->nkeys; j++)
            fprintf(stderr, " %s", rd_suite_value(w, it->config, j));
        fprintf(stderr, " %s %ld", it->warmup ? "warmup" : "run", it->run);
        return;
    }
    if (ev->kind == RD_SESSION_NOTE) {
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_warn("%s", ev->note);
        return;
    }
    const struct rd_record *rec = ev->rec;
    /* The workload's primary metric is what its runs measure (a program's
     * own rundown:metric lines, not the time to start it). */
    const char *metric = NULL;
    bool higher = false;
    for (size_t i = 0; i < ui->suite->nworkloads; i++)
        if (strcmp(ui->suite->workloads[i].name, rec->workload) == 0) {
            metric = ui->suite->workloads[i].primary_metric;
            const char *b = ui->suite->workloads[i].primary_better;
            higher = b && strcmp(b, "higher") == 0;
            break;
        }
    if (ev->config)
        (void)rd_run_watchset_add(&ui->watches, ev->config->index, rec, metric, higher);
    if (strcmp(rec->status, "ok") != 0) {
        struct rd_buf id = RD_BUF_INIT;
        rd_record_config_id(rec, &id);
        const char *err = rd_record_info(rec, "error");
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_warn("%s %s %s %ld: %s%s%s", rec->workload, id.ptr, rec->phase, rec->run,
                rec->status, err ? ": " : "", err ? err : "");
        rd_buf_release(&id);
    }
    if (rd_record_info(rec, "bad_metric_lines") || rd_record_info(rec, "dropped_metric_lines")) {
        struct rd_buf id = RD_BUF_INIT;
        rd_record_config_id(rec, &id);
        char run[600];
        snprintf(run, sizeof run, "%s %s %s %ld", rec->workload, id.ptr ? id.ptr : "",
                 rec->phase, rec->run);
        rd_buf_release(&id);
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_tool_warn_metric_lines(run, rec);
    }
    rd_tool_warn_losses(NULL, rec);
}

/* Prints argv joined, after 'before'. */
static void print_argv(const char *before, char **argv)
{
    struct rd_buf b = RD_BUF_INIT;
    if (rd_argv_join(argv, SIZE_MAX, &b) == RD_OK)
        printf("%s%s", before, b.ptr);
    rd_buf_release(&b);
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
            print_argv(": ", argv);
    } else {
        if (rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_SERVER, &a, &argv, &d) == RD_OK)
            print_argv(": server ", argv);
        if (rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_LOAD, &a, &argv, &d) == RD_OK)
            print_argv("; load ", argv);
        if (w->background.n &&
            rd_suite_expand_argv(s, it->workload, it->config, RD_FIELD_BACKGROUND, &a, &argv, &d) == RD_OK)
            print_argv("; background ", argv);
    }
    printf("\n");
    rd_arena_release(&a);
}

/*
 * Takes the suite's lock: a lock file "<store>.lock" held with flock(2)
 * while the suite lives and removed when it ends. Not the store itself,
 * whose lock each writer takes run by run (store.h): `import` or `run` may
 * add to the store between the suite's runs, a second suite may not.
 * Returns 0 or the exit code, the message printed.
 */
static int suite_lock_take(struct rd_store_lock *l, const char *store, const char *lockpath)
{
    struct rd_diag d;
    bool busy;
    rd_diag_init(&d, NULL);
    rd_status st = rd_store_lock(l, lockpath, RD_LOCK_FILE, &busy, &d);
    if (st && busy)
        return rd_error("%s: another suite is running on this store (it holds %s); let it "
                        "finish, or stop it and continue with --resume", store, lockpath),
               RD_EXIT_SYSTEM;
    return st ? rd_fail(st, &d) : 0;
}

/* A resumed suite of random order and no seed in its file continues the
 * plan it began: the seed its records carry (info.seed). */
static void take_stored_seed(struct rd_suite *s, const struct rd_session *session)
{
    if (s->seed_given || s->order != RD_ORDER_RANDOM)
        return;
    const struct rd_recordset *set = rd_session_records(session);
    for (size_t i = 0; i < set->len; i++) {
        const struct rd_record *r = &set->items[i];
        const char *seed = rd_record_info(r, "seed");
        unsigned long long v;
        if (r->suite && strcmp(r->suite, s->name) == 0 && seed &&
            rd_parse_uint(seed, strlen(seed), &v) == RD_OK) {
            s->seed = v;
            return;
        }
    }
}

/* "1h 02m", "3m 05s", "4.2 s". */
static char *fmt_secs(double secs, char out[32])
{
    if (secs >= 3600)
        snprintf(out, 32, "%.0fh %02.0fm", floor(secs / 3600), floor(fmod(secs, 3600) / 60));
    else if (secs >= 60)
        snprintf(out, 32, "%.0fm %02.0fs", floor(secs / 60), floor(fmod(secs, 60)));
    else
        snprintf(out, 32, "%.1f s", secs);
    return out;
}

/* The runs the plan holds at the least (an adaptive workload's minimum
 * rounds and warmups, every run of a fixed one), and, when the per-run
 * seconds of each workload are given, the least and most time. */
static size_t plan_minimum(const struct rd_suite *s, const struct rd_plan *plan,
                           const double *run_s, double *secs)
{
    size_t n = 0;
    if (secs)
        secs[0] = secs[1] = 0;
    for (size_t k = 0; k < plan->len; k++) {
        const struct rd_plan_item *it = &plan->items[k];
        const struct rd_suite_workload *w = &s->workloads[it->workload];
        bool needed = !w->settle || it->warmup || it->run <= w->runs_min;
        n += needed;
        if (secs && !isnan(run_s[it->workload])) {
            secs[0] += needed ? run_s[it->workload] : 0;
            secs[1] += run_s[it->workload];
        }
    }
    return n;
}

/* The second line of --dry-run: the plan's least and most time, from the
 * per-run times of the store's runs of each workload. */
static void print_times(const struct rd_suite *s, const struct rd_plan *plan,
                        const struct rd_session *session)
{
    double *run_s = malloc((s->nworkloads + 1) * sizeof *run_s);
    bool *planned = calloc(s->nworkloads + 1, sizeof *planned);
    if (!run_s || !planned) {
        free(run_s);
        free(planned);
        return;
    }
    for (size_t k = 0; k < plan->len; k++)
        planned[plan->items[k].workload] = true;
    size_t known = 0, unknown = 0;
    for (size_t w = 0; w < s->nworkloads; w++) {
        run_s[w] = planned[w] ? rd_suite_run_seconds(s, w, session) : NAN;
        known += planned[w] && !isnan(run_s[w]);
        unknown += planned[w] && isnan(run_s[w]);
    }
    double secs[2];
    char lo[32], hi[32];
    plan_minimum(s, plan, run_s, secs);
    if (known)
        printf("time: at least %s, at most %s (per run, from the store:", fmt_secs(secs[0], lo),
               fmt_secs(secs[1], hi));
    else
        printf("time: unknown (no runs of its workloads in the store");
    for (size_t w = 0; w < s->nworkloads; w++)
        if (planned[w] && !isnan(run_s[w]))
            printf(" %s %.3g s", s->workloads[w].name, run_s[w]);
    if (known && unknown)
        printf("; unknown, not counted:");
    for (size_t w = 0; w < s->nworkloads && known; w++)
        if (planned[w] && isnan(run_s[w]))
            printf(" %s", s->workloads[w].name);
    printf(")\n");
    free(run_s);
    free(planned);
}

/* A note per adaptive workload run: why its collection stopped. */
static void note_stops(const struct rd_suite *s, const bool *keep,
                       const enum rd_settle_stop *stopped, const struct rd_suite_run *run)
{
    static const char *const why[] = {
        [RD_STOP_SETTLED] = "settled: every config's mean is as precise as the target",
        [RD_STOP_MAX] = "stopped at runs.max with configs not yet precise",
        [RD_STOP_BUDGET] = "stopped when the budget was spent",
        [RD_STOP_INCOMPLETE] = "stopped before it settled",
        [RD_STOP_DISQUALIFIED] = "disqualified: no config gave 2 good values in its min runs",
    };
    for (size_t w = 0; w < s->nworkloads; w++) {
        if (!keep[w] || !s->workloads[w].settle)
            continue;
        size_t out = run->eliminated ? run->eliminated[w] : 0;
        /* the race left one config: settled without it being precise */
        bool last = stopped[w] == RD_STOP_SETTLED && out + 1 >= s->workloads[w].nconfigs;
        if (out)
            rd_note("%s: %s (%zu config%s eliminated as slower than the best)",
                    s->workloads[w].name,
                    last ? "settled: the race left one config"
                    : stopped[w] == RD_STOP_SETTLED
                        ? "settled: every config left in the race is as precise as the target"
                        : why[stopped[w]],
                    out, out == 1 ? "" : "s");
        else
            rd_note("%s: %s", s->workloads[w].name, why[stopped[w]]);
    }
    if (run->budget_spent)
        rd_note("the budget is spent; continue with --resume");
}

/* The command line of `suite`. */
struct suite_opts {
    bool resume, dry, seed_given;
    /* The command line's contention options; NaN / -1: not given. */
    struct rd_contention_opts cont;
    struct rd_tool_speed_memory memory;
    char *memory_path;    /* the remembered best's file (malloc'd); NULL: none */
    const char *only, *dir, *path;
    unsigned shard_i, shard_n;
    double budget_s;
    unsigned long long seed;
    /* --resume-from: argv holds the paths for as long as they are needed. */
    const char **resume_from;
    size_t nresume_from;
};

/* One option into o: -1 to go on, else the exit code (already printed). */
static int suite_option(struct suite_opts *o, int c, char *arg)
{
    int took = rd_tool_contention_option(c, arg, &o->cont);
    if (took < 0)
        took = rd_tool_speed_memory_option(c, arg, &o->memory);
    if (took >= 0)
        return took ? took : -1;
    switch (c) {
    case CO_RESUME: o->resume = true; break;
    case CO_ONLY: o->only = arg; break;
    case CO_SHARD:
        if (!rd_shard_parse(arg, &o->shard_i, &o->shard_n))
            return rd_usage_error("expected --shard I/N with 1 <= I <= N, got '%s'", arg);
        break;
    case CO_DRY_RUN: o->dry = true; break;
    case CO_BUDGET: {
        double ms;
        if (rd_parse_duration_ms(arg, strlen(arg), &ms, 1000) != RD_OK || !(ms > 0))
            return rd_usage_error("expected --budget TIME like 45m, 90s or 1.5h, got '%s'", arg);
        o->budget_s = ms / 1000;
        break;
    }
    case CO_SEED:
        if (rd_parse_uint(arg, strlen(arg), &o->seed) != RD_OK || o->seed > 9007199254740992ULL)
            return rd_usage_error("expected --seed N, a whole number from 0 to 2^53, got '%s'",
                                  arg);
        o->seed_given = true;
        break;
    case CO_RESUME_FROM: o->resume_from[o->nresume_from++] = arg; break;
    case 'o': o->dir = arg; break;
    }
    return -1;
}

/* Options into o: -1 to go on, else the exit code (already printed). */
static int suite_options(struct suite_opts *o, int argc, char **argv)
{
    o->resume_from = calloc((size_t)argc + 1, sizeof *o->resume_from);
    if (!o->resume_from)
        return rd_fail(RD_ERR_NOMEM, NULL);
    int c = 0, rc = -1;
    struct rd_opts p;
    rd_opts_begin(&p, &rd_collect_spec_suite, argc, argv);
    while (rc < 0 && (c = rd_opts_next(&p)) >= 0)
        rc = suite_option(o, c, rd_opts_arg(&p));
    if (rc >= 0)
        return rc;
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p);
    int next = rd_opts_index(&p);
    if (next + 1 != argc)
        return rd_usage_error("suite needs exactly one SUITE.json");
    if (o->nresume_from && !o->resume)
        return rd_usage_error("--resume-from needs --resume");
    if ((rc = rd_tool_speed_memory_path(&o->memory, NULL, &o->memory_path)))
        return rc;
    o->path = argv[next];
    return -1;
}

/* What the command holds from loading the suite to its end. */
struct suite_cmd {
    struct suite_opts o;
    struct rd_suite s;
    struct rd_plan plan;
    struct rd_session session;
    struct rd_store_lock lock;   /* the suite's lock (suite_lock_take) */
    bool adaptive;               /* a workload runs "until": "settled" */
    bool *keep;                  /* per workload: the plan holds it */
    char store[4096], lockpath[4200];
    struct rd_diag d;
};

/* Loads the suite and applies --seed: 0, else the exit code (printed). */
static int suite_open(struct suite_cmd *x)
{
    rd_diag_init(&x->d, x->o.path);
    rd_status st = rd_contract_expect(x->o.path, RD_CONTRACT_SUITE, &x->d);
    if (!st) st = rd_suite_load(&x->s, x->o.path, rd_suite_clock_seed(), &x->d);
    if (st)
        return rd_fail(st, &x->d);
    if (x->o.seed_given) {
        x->s.seed = x->o.seed;
        x->s.seed_given = true;
    }
    for (size_t w = 0; w < x->s.nworkloads; w++)
        x->adaptive = x->adaptive || x->s.workloads[w].settle;
    if (x->adaptive && x->o.shard_n > 1)
        return rd_usage_error("--shard cannot split workloads with \"until\": \"settled\": "
                              "whether a config needs another run depends on all of its runs");
    /* Refused before the store's folder, its lock or a log is made. */
    bool servers = false;
    for (size_t w = 0; w < x->s.nworkloads; w++)
        servers = servers || x->s.workloads[w].is_server;
    rd_status fst;
    if (!x->o.dry && (fst = rd_fds_check(servers ? RD_HTTP_FDS : RD_RUN_FDS, "collect",
                                         servers ? "a suite's server runs" : "a suite's runs",
                                         NULL, &x->d)))
        return rd_tool_fail(fst, &x->d, NULL);
    snprintf(x->store, sizeof x->store, "%s/%s.jsonl", x->o.dir, x->s.name);
    snprintf(x->lockpath, sizeof x->lockpath, "%s.lock", x->store);
    rd_session_init(&x->session, x->store);
    return 0;
}

/* The stored runs decide what an adaptive suite still needs, time the
 * plan for --dry-run and give a resumed random order its seed. */
static rd_status suite_read_stored(struct suite_cmd *x)
{
    if (x->o.dry || x->adaptive || (x->s.order == RD_ORDER_RANDOM && !x->s.seed_given))
        rd_session_keep_records(&x->session);
    rd_diag_init(&x->d, x->store);
    rd_status st = rd_session_read_store(&x->session, &x->d);
    if (st && !x->o.resume)
        st = RD_OK; /* a dry run only times the plan with it */
    /* The other stores' runs count as stored: in the index that --resume
     * drops runs by and that keeps a redone server session from storing a
     * warmup twice, not among the records an adaptive workload decides by
     * (those of this machine). */
    for (size_t k = 0; !st && k < x->o.nresume_from; k++) {
        rd_diag_init(&x->d, x->o.resume_from[k]);
        st = rd_run_index_load(&x->session.ix, x->o.resume_from[k], &x->d);
    }
    if (!st && x->o.resume)
        take_stored_seed(&x->s, &x->session);
    return st;
}

/* The plan, --shard, --only, --resume and the system check (programs,
 * ports): 0, else the exit code (printed). */
static int suite_plan(struct suite_cmd *x)
{
    /* One suite per store at a time, for its whole life (suite_lock):
     * taken before --resume reads the store when DIR exists, else once it
     * is made (a suite refused before it runs writes nothing). */
    struct stat dir_st;
    int rc;
    if (!x->o.dry && stat(x->o.dir, &dir_st) == 0 &&
        (rc = suite_lock_take(&x->lock, x->store, x->lockpath)))
        return rc;
    /* Before any child starts (version probes), so that a signal stops it. */
    rd_proc_catch_signals();
    rd_status st = x->o.resume || x->o.dry ? suite_read_stored(x) : RD_OK;
    if (!st) st = rd_plan_build(&x->s, &x->plan, &x->d);
    if (!st) st = rd_plan_shard(&x->plan, x->o.shard_i, x->o.shard_n);
    if (!st && x->o.only) st = rd_plan_only(&x->s, &x->plan, x->o.only);
    if (!st && x->o.resume) {
        size_t before = x->plan.len;
        st = rd_plan_drop_stored(&x->s, &x->plan, &x->session.ix);
        if (!st && !x->o.dry && before != x->plan.len)
            rd_note("resume: %zu of %zu runs are already in %s", before - x->plan.len, before,
                    x->store);
    }
    if (st)
        return rd_fail(st, &x->d);
    x->keep = calloc(x->s.nworkloads + 1, sizeof *x->keep);
    for (size_t k = 0; x->keep && k < x->plan.len; k++)
        x->keep[x->plan.items[k].workload] = true;
    rd_diag_init(&x->d, NULL);
    st = x->keep ? rd_suite_check_system(&x->s, x->keep, &x->d) : RD_ERR_NOMEM;
    return st ? rd_fail(st, &x->d) : 0;
}

/* --dry-run: the plan's summary, its times and every item. */
static void suite_print_plan(struct suite_cmd *x)
{
    static const char *const orders[] = {"interleaved", "random", "grouped"};
    printf("suite %s: %zu runs, order %s", x->s.name, x->plan.len, orders[x->s.order]);
    if (x->adaptive)
        printf(", at least %zu until settled", plan_minimum(&x->s, &x->plan, NULL, NULL));
    if (x->s.order == RD_ORDER_RANDOM)
        printf(", seed %llu", (unsigned long long)x->s.seed);
    if (x->o.shard_n > 1)
        printf(", shard %u/%u", x->o.shard_i, x->o.shard_n);
    if (x->o.budget_s > 0)
        printf(", budget %s", fmt_secs(x->o.budget_s, (char[32]){0}));
    printf("\n");
    print_times(&x->s, &x->plan, &x->session);
    for (size_t k = 0; k < x->plan.len; k++)
        print_item(&x->s, k + 1, &x->plan.items[k]);
}

/* The contention options: the default, then the suite's "contention",
 * then the command line. */
static void suite_contention(const struct suite_cmd *x, struct rd_contention_opts *cont)
{
    const struct rd_suite *s = &x->s;
    const struct rd_contention_opts *cli = &x->o.cont;
    rd_contention_defaults(cont);
    if (s->contention_mode >= 0 && !getenv("RUNDOWN_CONTENTION"))
        cont->mode = (enum rd_contention_mode)s->contention_mode;
    if (!isnan(s->contention_threshold)) cont->threshold_pct = s->contention_threshold;
    if (!isnan(s->contention_wait)) cont->wait_s = s->contention_wait;
    if (!isnan(s->contention_min_speed)) cont->min_speed_pct = s->contention_min_speed;
    if (!isnan(s->contention_min_wakeup)) cont->min_wakeup_pct = s->contention_min_wakeup;
    if ((int)cli->mode >= 0) cont->mode = cli->mode;
    if (!isnan(cli->threshold_pct)) cont->threshold_pct = cli->threshold_pct;
    if (!isnan(cli->wait_s)) cont->wait_s = cli->wait_s;
    if (!isnan(cli->min_speed_pct)) cont->min_speed_pct = cli->min_speed_pct;
    if (!isnan(cli->min_wakeup_pct)) cont->min_wakeup_pct = cli->min_wakeup_pct;
}

/* Runs the plan once the environment is recorded: the exit code. */
static int suite_run(struct suite_cmd *x, const char *envid, const char *logdir)
{
    struct suite_ui ui = {&x->s, &x->plan, false, {0}};
    rd_session_on_report(&x->session, report, &ui);
    ui.progress = rd_stderr_is_interactive();
    enum rd_settle_stop *stopped = calloc(x->s.nworkloads + 1, sizeof *stopped);
    size_t *eliminated = calloc(x->s.nworkloads + 1, sizeof *eliminated);
    /* The store is DIR/<name>.jsonl: its logs are "logs" to a reader. */
    struct rd_suite_run run = {&x->s, &x->plan, &x->session, envid, logdir, "logs",
                               x->o.budget_s, stopped, false, eliminated, NULL, 0, false};
    struct rd_contention_opts cont;
    suite_contention(x, &cont);
    struct rd_guard guard;
    bool quiet = false;
    rd_guard_init(&guard, &cont, NULL);
    rd_guard_use_speed_memory(&guard, x->o.memory_path);
    rd_guard_on_note(&guard, rd_tool_guard_note, &quiet);
    run.guard = cont.mode == RD_CONTENTION_OFF ? NULL : &guard;
    rd_status st = stopped && eliminated ? rd_suite_run_plan(&run, &x->d) : RD_ERR_NOMEM;
    if (ui.progress)
        fputs("\r\033[K", stderr);
    if (run.guard) {
        rd_tool_guard_remember(&guard);
        rd_tool_guard_summary(&guard);
        rd_tool_redo_note(run.redone, run.redo_capped, "config");
    }
    if (!st) {
        note_stops(&x->s, x->keep, stopped, &run);
        /* As after run and http; a failed run was warned as it happened. */
        struct rd_run_warn_ctx wc = {.warmups = -1, .warmup_hint = "the suite key warmups",
                                     .no_failures = true};
        rd_run_watchset_warn(&ui.watches, &wc);
    }
    rd_session_on_report(&x->session, report, NULL);
    rd_run_watchset_release(&ui.watches);
    free(stopped);
    free(eliminated);
    if (st && rd_proc_interrupted) {
        rd_error("interrupted: finished runs are in %s; continue with --resume", x->store);
        return rd_proc_interrupt_exit_code();
    }
    if (st)
        return rd_fail(st, &x->d);
    if (x->session.failed) {
        rd_note("%ld runs failed or timed out; they are stored in %s", x->session.failed,
                x->store);
        return RD_EXIT_RUN_FAILED;
    }
    return RD_EXIT_OK;
}

/* The folder, the suite's lock and the environment, then the runs: the
 * exit code. */
static int suite_collect(struct suite_cmd *x)
{
    char envid[64], logdir[4096];
    int rc;
    rd_diag_init(&x->d, NULL);
    rd_status st = rd_mkdir_p(x->o.dir, &x->d);
    if (!st && x->lock.fd < 0 && (rc = suite_lock_take(&x->lock, x->store, x->lockpath)))
        return rc;
    if (!st)
        st = rd_suite_capture_env(&x->s, x->keep, x->o.dir, x->o.memory_path, envid,
                                  sizeof envid, &x->d);
    if (st)
        return rd_tool_fail(st, &x->d, NULL);
    snprintf(logdir, sizeof logdir, "%s/logs", x->o.dir);
    return suite_run(x, envid, logdir);
}

int rd_cmd_suite(int argc, char **argv)
{
    struct suite_cmd *x = calloc(1, sizeof *x);
    if (!x)
        return rd_fail(RD_ERR_NOMEM, NULL);
    x->o = (struct suite_opts){.cont = {(enum rd_contention_mode)-1, NAN, NAN, NAN, NAN}, .dir = ".",
                               .shard_i = 1, .shard_n = 1};
    /* Whatever a server starts comes back to rundown when it is orphaned
     * (a daemon's setsid() or double fork escapes the server's process
     * group), so rd_proc_kill_strays() can stop it after the server. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    int rc = suite_options(&x->o, argc, argv);
    if (rc >= 0) {
        free(x->o.resume_from);
        free(x->o.memory_path);
        free(x);
        return rc;
    }
    rd_plan_init(&x->plan);
    rd_store_lock_init(&x->lock);
    bool opened = (rc = suite_open(x)) == 0;
    if (opened && !(rc = suite_plan(x))) {
        if (x->o.dry)
            suite_print_plan(x);
        else if (x->plan.len == 0)
            rd_note("nothing to run");
        else
            rc = suite_collect(x);
    }
    free(x->keep);
    if (opened)
        rd_session_release(&x->session);
    rd_store_unlock(&x->lock);
    rd_plan_release(&x->plan);
    rd_suite_release(&x->s);
    free(x->o.resume_from);
    free(x->o.memory_path);
    free(x);
    return rc;
}
