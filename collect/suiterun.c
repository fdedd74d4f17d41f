/*
 * suiterun.c - the runs of a suite's plan (see suiterun.h).
 *
 * Every run is appended to the store and fsynced as it ends, so an
 * interrupt loses at most the run in flight and --resume picks up exactly
 * the missing keys.
 */
#include "suiterun.h"

#include <libgen.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "envinfo.h"
#include "logratio.h"
#include "moments.h"
#include "rounds.h"
#include "runner.h"
#include "sessioncut.h"
#include "suiteexpand.h"
#include "rundown/arena.h"
#include "rundown/buf.h"
#include "rundown/metrics.h"
#include "rundown/strmap.h"
#include "rundown/timeline.h"

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
                               const char *speed_memory, char *id, size_t idsize,
                               struct rd_diag *d)
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
        st = rd_env_capture(probes, n, pin.len ? pin.ptr : NULL, speed_memory, &env, id, idsize,
                            d);
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
    if (!st && run->budget_s > 0) {
        /* The analysis tells a workload the budget stopped from one
         * stopped early (docs/run-record.md, "Adaptive runs"). */
        char b[32];
        st = rd_record_set_info(rec, "budget_s", rd_fmt_double(run->budget_s, b));
    }
    if (!st)
        st = rd_session_add_config(run->session, rec, cfg);
    rd_recordset_release(&set);
    rd_arena_release(&a);
    return st;
}

/* ---- adaptive rounds and the budget ---- */

/* What has been collected of one (workload, config): measured runs of any
 * status, Welford sums of the good values of the primary metric, and the
 * seconds its plan items took in this session. */
struct cfg_state {
    struct rd_session_config *cfg; /* made on first use */
    long runs;
    struct rd_moments good; /* the good values of the primary metric */
    double secs;
    long timed;
    long redos;          /* measured runs made again because of contention */
    bool last_contended; /* the last measured run noted was contended */
    enum rd_settle_state state;
    bool in_play; /* a plan item or a stored run: one of the family's k */
    long eliminated_at; /* the round whose look eliminated it; 0: none */
    /* a paired workload's (blocks "round"): the logs of its good values
     * by round, sorted, one per round (stats/rounds.h), and how many
     * values were noted (the first of a round wins) */
    struct rd_round_value *rounds;
    size_t nrounds, rounds_cap;
    uint32_t noted;
};

struct wl_state {
    struct cfg_state *cfgs;
    size_t *items; /* indices of its plan items, in plan order */
    size_t nitems, next;
    size_t k;      /* configs in play: with a plan item or a stored run */
    size_t kc;     /* of those, not eliminated: the family of the
                      contenders' precision rule (rd_settle_judge) */
    enum rd_settle_state *states; /* of its configs, for rd_settle_* */
    bool done;     /* adaptive: no config is open */
    struct rd_settle_rule rule;
    double stored_run_s; /* rd_suite_run_seconds, NaN unknown */
    /* racing (stats/settle.h): off when the primary metric has no better
     * direction, the last round looked at, the verdicts' settings and
     * per-config scratch */
    bool race;
    long looked;
    /* the most good values of a config the store held when this
     * collection began: the information fraction of the earlier looks
     * (docs/methods.md §6, "Looks") */
    double n_before;
    struct rd_verdict_settings vs;
    struct rd_verdict_sample *x;
    bool *out;
    /* blocks "round": the race, the precision rule and the budget read
     * the within-round log ratios, as the analysis's verdicts do
     * (docs/methods.md §6 "Paired within rounds", §6b); vs.pairing points
     * here */
    bool paired;
    struct rd_verdict_pairing pairing;
    bool *in; /* scratch: the configs a paired spread reads */
};

struct runner {
    struct rd_suite_run *run;
    struct wl_state *wls;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether workload w's verdicts pair its configs within rounds. */
static bool pairs_rounds(const struct rd_suite_workload *w)
{
    return w->blocks && strcmp(w->blocks, "round") == 0;
}

/* The session of this collection's runs in a round key: one of its own,
 * after any of the store's (rd_sessioncut_sessions numbers those from 0). */
#define THIS_COLLECTION UINT32_MAX

/* The key of a paired round: the session and the run number, as the
 * analysis keys them (analyze/pairs.c). A stored run's session is the one
 * the analysis puts it in (stats/sessioncut.h, from the store's whole
 * timeline: stored_sessions), so that on --resume two earlier sessions'
 * runs of round r are two rounds, not one; this collection's runs are a
 * session of their own (THIS_COLLECTION): they never pair with those of
 * an earlier one, which took them on the host of another hour. A
 * contended run's redo, numbered after the plan's runs, pairs in the
 * round of the run it replaces (rd_record_round). */
static uint64_t round_key(const struct rd_record *rec, uint32_t session)
{
    return (uint64_t)session << 32 | (uint32_t)rd_record_round(rec);
}

/* Adds a good value x of round 'key' to c's rounds. */
static rd_status note_round(struct cfg_state *c, uint64_t key, double x)
{
    if (c->nrounds == c->rounds_cap) {
        size_t cap = c->rounds_cap ? 2 * c->rounds_cap : 16;
        struct rd_round_value *v = realloc(c->rounds, cap * sizeof *v);
        if (!v)
            return RD_ERR_NOMEM;
        c->rounds = v;
        c->rounds_cap = cap;
    }
    c->rounds[c->nrounds++] = (struct rd_round_value){ key, log(x), c->noted++ };
    c->nrounds = rd_rounds_one_per_round(c->rounds, c->nrounds);
    return RD_OK;
}

/* Notes a measured run of c: a record stored by this collection
 * (session THIS_COLLECTION), or one the store held before it, in the
 * given session of the store's. */
static rd_status note_run(const struct rd_suite_workload *w, struct cfg_state *c,
                          const struct rd_record *rec, uint32_t session)
{
    if (!rec->phase || strcmp(rec->phase, "measure") != 0)
        return RD_OK;
    c->last_contended = rec->contended;
    /* A contended run says little of the config: the stopping rule, like
     * the analysis (which counts neither its value nor the run itself),
     * leaves it out, so the run made again in its place is the one that
     * counts towards runs_min and runs_max. */
    if (rec->contended)
        return RD_OK;
    c->runs++;
    double x;
    if (!rec->status || strcmp(rec->status, "ok") != 0 ||
        !rd_record_metric(rec, w->primary_metric, &x) || isnan(x))
        return RD_OK;
    rd_moments_add(&c->good, x);
    /* a value that is not positive has no log: it pairs with nothing, as
     * in the analysis */
    if (pairs_rounds(w) && x > 0 && isfinite(x) && rd_record_round(rec) > 0)
        return note_round(c, round_key(rec, session), x);
    return RD_OK;
}

/* struct rd_verdict_pairing's paired() over a wl_state: the
 * within-round log ratios of configs a and b. */
static bool paired_ratios(const void *ctx, size_t a, size_t b, double *mean_log, double *sd_log,
                          double *n)
{
    const struct wl_state *ws = ctx;
    const struct cfg_state *ca = &ws->cfgs[a], *cb = &ws->cfgs[b];
    rd_rounds_compare(ca->rounds, ca->nrounds, cb->rounds, cb->nrounds, mean_log, sd_log, n);
    return true;
}

/* rd_settle_paired_spread of config c (all: nconfigs) with the configs
 * 'with' admits. */
static double paired_spread(const struct wl_state *ws, size_t nconfigs, size_t c,
                            bool (*with)(const struct wl_state *, size_t), double *n)
{
    for (size_t i = 0; i < nconfigs; i++)
        ws->in[i] = with(ws, i);
    return rd_settle_paired_spread(&ws->pairing, ws->in, nconfigs, c, n);
}

/* The sample sd of c's good values so far; NaN below 2. */
static double cfg_sd(const struct cfg_state *c)
{
    return rd_moments_sd(&c->good);
}

/* One look of the race after the round the contenders are at (once per
 * round: a look spends its level). */
static rd_status race_look(struct wl_state *ws, const struct rd_suite_workload *w)
{
    long round = 0;
    for (size_t c = 0; c < w->nconfigs; c++)
        if (ws->cfgs[c].in_play && !ws->out[c])
            round = ws->cfgs[c].runs > round ? ws->cfgs[c].runs : round;
    if (round <= ws->looked)
        return RD_OK;
    ws->looked = round;
    for (size_t c = 0; c < w->nconfigs; c++) {
        const struct cfg_state *cs = &ws->cfgs[c];
        ws->x[c] = (struct rd_verdict_sample){
            .n = cs->good.n, .mean = cs->good.mean, .sd = cfg_sd(cs),
            .eligible = cs->in_play && cs->good.n >= 2 && cs->state != RD_SETTLE_UNUSABLE,
            .log_sd = rd_moments_log_sd(&cs->good) };
    }
    size_t ne;
    RD_TRY(rd_settle_race(&ws->rule, round, ws->x, w->nconfigs, &ws->vs, w->keep_racing,
                          ws->out, &ne));
    for (size_t c = 0; ne && c < w->nconfigs; c++)
        if (ws->out[c] && !ws->cfgs[c].eliminated_at)
            ws->cfgs[c].eliminated_at = round;
    return RD_OK;
}

/* The precision rule of the contenders: judged among themselves, at the
 * level the race leaves (stats/settle.h, rd_settle_judge) of the level
 * this look spends (the increment of the spending function from the
 * store's runs at the start to the runs now, over runs_max, as the
 * analysis's looks.c reads them), so collection stops on the interval
 * the analysis will draw. */
static struct rd_settle_rule contenders_rule(const struct wl_state *ws, size_t nconfigs)
{
    struct rd_settle_rule fin = ws->rule;
    double most = 0;
    for (size_t c = 0; c < nconfigs; c++)
        if (ws->cfgs[c].in_play && ws->cfgs[c].good.n > most)
            most = ws->cfgs[c].good.n;
    /* nothing new yet: the store's last look as the analysis reads it
     * alone (its earlier looks are not known here) */
    double before = most > ws->n_before ? ws->n_before : 0;
    fin.alpha = rd_settle_look_level(fin.alpha, rd_settle_fraction(before, (double)fin.runs_max),
                                     rd_settle_fraction(most, (double)fin.runs_max));
    if (ws->race)
        fin.alpha = rd_settle_final_alpha(fin.alpha);
    return fin;
}

/* A contender of the precision rule: in play, not eliminated. */
static bool contends(const struct wl_state *ws, size_t c)
{
    return ws->cfgs[c].in_play && !(ws->race && ws->out[c]);
}

/* The precision rule of config c of a paired workload: its paired spread
 * (the widest sd of its within-round log ratios with the other
 * contenders, over sqrt 2: one config's CV's footing, which the rule's
 * target is set on) in place of its own CV, which holds the rounds'
 * offsets the paired verdicts do not read. Read at the fewest rounds of
 * those pairs: the paired intervals' n. */
static enum rd_settle_state paired_state(const struct wl_state *ws, size_t nconfigs, size_t c,
                                         const struct rd_settle_rule *fin)
{
    const struct cfg_state *cs = &ws->cfgs[c];
    double n;
    double spread = paired_spread(ws, nconfigs, c, contends, &n);
    if (isinf(n)) /* no other contender: its own spread, as unpaired */
        return rd_settle_config(fin, cs->runs, cs->good.n, cs->good.mean, cfg_sd(cs), ws->k);
    return rd_settle_config_paired(fin, cs->runs, cs->good.n, spread, n, ws->k);
}

static void precision_states(struct wl_state *ws, const struct rd_suite_workload *w)
{
    const struct rd_settle_rule fin = contenders_rule(ws, w->nconfigs);
    ws->kc = ws->k;
    for (size_t c = 0; ws->race && c < w->nconfigs; c++)
        ws->kc -= ws->cfgs[c].in_play && ws->out[c];
    for (size_t c = 0; c < w->nconfigs; c++) {
        struct cfg_state *cs = &ws->cfgs[c];
        double sd = cfg_sd(cs);
        /* as precise as the whole family would need (not the contenders'
         * smaller one): the contenders of a race are then judged among
         * themselves on intervals at least as narrow as the precision
         * rule alone would give, so racing settles at least as often */
        if (!cs->in_play)
            cs->state = RD_SETTLE_PRECISE;
        else if (ws->paired)
            cs->state = paired_state(ws, w->nconfigs, c, &fin);
        else
            cs->state = rd_settle_config(&fin, cs->runs, cs->good.n, cs->good.mean, sd, ws->k);
    }
}

/* The states of the workload's configs after what has been collected. */
static rd_status update_states(struct wl_state *ws, const struct rd_suite_workload *w)
{
    if (!w->settle)
        return RD_OK; /* a fixed workload: every planned run runs */
    precision_states(ws, w);
    if (ws->race) {
        RD_TRY(race_look(ws, w));
        precision_states(ws, w);
    }
    for (size_t c = 0; ws->race && c < w->nconfigs; c++)
        if (ws->out[c])
            ws->cfgs[c].state = RD_SETTLE_ELIMINATED;
    enum rd_settle_state *states = ws->states;
    for (size_t c = 0; c < w->nconfigs; c++)
        states[c] = ws->cfgs[c].state;
    ws->done = rd_settle_done(states, w->nconfigs);
    return RD_OK;
}

static bool collects(const struct wl_state *ws, size_t c)
{
    return rd_settle_collects(ws->cfgs[c].state, ws->done);
}

/* A server session's records go to the store through the session and
 * are noted for the stopping rule. */
struct noting_sink {
    struct rd_session_sink sink;
    const struct rd_suite_workload *w;
    struct cfg_state *c;
};

static rd_status emit_noting(void *vs, const struct rd_record *rec, struct rd_diag *d)
{
    struct noting_sink *ns = vs;
    RD_TRY(rd_session_emit(&ns->sink, rec, d));
    return note_run(ns->w, ns->c, rec, THIS_COLLECTION);
}

static bool skip_stored_warmup(void *vs, long run)
{
    return rd_session_warmup_stored(&((struct noting_sink *)vs)->sink, run);
}

/* A run made again in place of a contended one gets a new run number (the
 * store never holds a number twice) but belongs to the round of the run
 * it replaces, which its info "round" says (rd_record_round): without it a
 * paired workload's redo paired with nothing, and in the study of
 * 2026-12-04 deno's sequential http-hello server shared 1 round of 3 with
 * node's. */
static rd_status set_round(struct rd_record *rec, const struct rd_plan_item *it)
{
    if (it->round <= 0)
        return RD_OK;
    char v[24];
    snprintf(v, sizeof v, "%ld", it->round);
    return rd_record_set_info(rec, "round", v);
}

/* Runs one plan item of cfg and stores what it produced. */
static rd_status run_item(const struct rd_suite_run *run, const struct rd_plan_item *it,
                          const struct rd_suite_workload *w, struct cfg_state *cs,
                          struct rd_diag *d)
{
    const struct rd_suite *s = run->suite;
    struct rd_session_config *cfg = cs->cfg;
    struct rd_arena a;
    rd_arena_init(&a);
    char **envp = NULL, *cwd = NULL, stem[1200], wslug[256], cslug[RD_CONFIG_STEM_PREFIX + 32];
    rd_status st = make_envp(s, it->workload, it->config, &a, &envp, d);
    if (!st) st = rd_suite_expand_string(s, it->workload, it->config, w->cwd, "cwd", &a, &cwd, d);
    rd_runner_slug(w->name, wslug, sizeof wslug);
    rd_runner_config_stem(&cfg->tmpl, cfg->id, cslug, sizeof cslug);
    /* The wait for a quiet machine before a command's run comes before the
     * store's lock (a server's runs let it go for theirs: rd_session_lend),
     * so a suite waiting up to its contention wait keeps no other writer of
     * its store waiting. */
    if (!st && run->guard && !w->is_server) {
        char what[64];
        snprintf(what, sizeof what, "%s %ld", it->warmup ? "warmup" : "measure", it->run);
        st = rd_guard_wait(run->guard, what, d);
    }
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
        if (!st)
            st = set_round(rec, it);
        snprintf(stem, sizeof stem, "%s/%s-%s%ld", wslug, cslug, it->warmup ? "warmup-" : "",
                 it->run);
        struct rd_command_spec spec = {
            .argv = argv, .envp = envp, .cwd = cwd, .cpus = w->cpus, .timeout_s = w->timeout,
            .logs = {.dir = run->log_dir, .stem = stem, .shown = run->log_shown},
            .guard = run->guard,
        };
        if (!st) st = rd_runner_command(&spec, rec, d);
        if (!st) st = rd_session_store(run->session, cfg, rec, d);
        if (!st)
            st = note_run(w, cs, rec, THIS_COLLECTION);
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
            .guard = run->guard, .around_wait = run->guard ? rd_session_lend : NULL,
            .around_ctx = run->session,
        };
        struct rd_strays strays = {0};
        spec.strays = &strays;
        struct noting_sink sink = {{run->session, cfg}, w, cs};
        /* a redo's records carry its round: the config's template with it */
        struct rd_record redo_tmpl;
        const struct rd_record *tmpl = &cfg->tmpl;
        if (!st && it->round > 0) {
            rd_record_init(&redo_tmpl, &a);
            st = rd_record_copy(&redo_tmpl, &cfg->tmpl);
            if (!st)
                st = set_round(&redo_tmpl, it);
            tmpl = &redo_tmpl;
        }
        if (!st)
            st = rd_runner_http_session(&spec, tmpl, (it->run - 1) * w->warmups + 1,
                                        it->run, 1, emit_noting, skip_stored_warmup, &sink, d);
        if (strays.count) {
            char note[600];
            rd_session_note(run->session, rd_strays_note(&strays, note, sizeof note));
        }
        if (st == RD_ERR_RUN_FAILED)
            st = RD_OK;  /* the failed runs are stored and were reported */
    }
    rd_session_unlock(run->session);
    rd_arena_release(&a);
    return st;
}

double rd_suite_run_seconds(const struct rd_suite *s, size_t wi, const struct rd_session *session)
{
    const struct rd_suite_workload *w = &s->workloads[wi];
    const struct rd_recordset *set = rd_session_records(session);
    double sum = 0, n = 0;
    for (size_t i = 0; set && i < set->len; i++) {
        const struct rd_record *r = &set->items[i];
        double ms;
        if (!r->suite || strcmp(r->suite, s->name) || !r->workload ||
            strcmp(r->workload, w->name) || !r->phase || strcmp(r->phase, "measure") ||
            !rd_record_metric(r, w->is_server ? "load_wall_ms" : "wall_ms", &ms) || isnan(ms))
            continue;
        sum += ms;
        n++;
    }
    if (n == 0)
        return NAN;
    double run_s = sum / n / 1000;
    return w->is_server ? run_s * (double)(w->warmups + 1) + w->warmup_load : run_s;
}

/* Whether a workload of the plan named 'name' pairs its configs within
 * rounds. */
static bool paired_workload(const struct runner *r, const char *name)
{
    const struct rd_suite *s = r->run->suite;
    for (size_t wi = 0; name && wi < s->nworkloads; wi++)
        if (r->wls[wi].items && r->wls[wi].paired && strcmp(s->workloads[wi].name, name) == 0)
            return true;
    return false;
}

/* The session the analysis would put each record of the store in
 * (stats/sessioncut.h), into (*out)[i] for set->items[i]: the pauses come
 * from the store's whole timeline as the analysis reads it (every
 * measured run of every workload, the guard's waits and the runs it set
 * aside: rundown/timeline.h), and the sessions from the runs of the
 * plan's paired workloads it keeps. Other records get THIS_COLLECTION,
 * which no round key of theirs reads. *out stays NULL when no workload of
 * the plan pairs. Caller frees *out with free(). */
static rd_status stored_sessions(const struct runner *r, const struct rd_recordset *set,
                                 uint32_t **out)
{
    *out = NULL;
    bool any = false;
    for (size_t wi = 0; wi < r->run->suite->nworkloads; wi++)
        any = any || (r->wls[wi].items && r->wls[wi].paired);
    if (!any || !set || set->len == 0)
        return RD_OK;
    /* a run with a wait is a busy span and a kept one */
    struct rd_span *sp = malloc(2 * set->len * sizeof *sp);
    struct rd_stamp *st = malloc(set->len * sizeof *st);
    uint32_t *of = malloc(set->len * sizeof *of);
    struct rd_pause *pauses = NULL;
    size_t nsp = 0, nst = 0, np = 0, cap = 0;
    rd_status s = sp && st && of ? RD_OK : RD_ERR_NOMEM;
    for (size_t i = 0; i < set->len && !s; i++) {
        const struct rd_record *rec = &set->items[i];
        of[i] = THIS_COLLECTION;
        if (rec->phase && strcmp(rec->phase, "warmup") == 0)
            continue;
        double t = rd_timeline_seconds(rec->started_at), wait = rd_timeline_wait_s(rec);
        bool left_out = rd_timeline_left_out(rec, false);
        if (!isnan(t) && (wait > 0 || left_out))
            sp[nsp++] = (struct rd_span){ t - wait, t, 0, true };
        if (left_out)
            continue;
        if (!isnan(t))
            sp[nsp++] = (struct rd_span){ t, t, 0, false };
        if (paired_workload(r, rec->workload))
            st[nst++] = (struct rd_stamp){ t, i, 0, 0 };
    }
    if (!s)
        s = rd_sessioncut_pauses(sp, nsp, &pauses, &np, &cap);
    if (!s) {
        rd_sessioncut_sessions(st, nst, pauses, np);
        for (size_t k = 0; k < nst; k++)
            of[st[k].tag] = st[k].session;
        *out = of;
        of = NULL;
    }
    free(sp);
    free(st);
    free(of);
    free(pauses);
    return s;
}

/* Reads what the store holds of the plan's workloads into their states. */
static rd_status load_stored(struct runner *r)
{
    const struct rd_suite *s = r->run->suite;
    const struct rd_recordset *set = rd_session_records(r->run->session);
    struct rd_strmap ids;
    struct rd_buf id = RD_BUF_INIT;
    rd_strmap_init(&ids);
    uint32_t *session = NULL;
    rd_status st = stored_sessions(r, set, &session);
    /* "workload\x1fconfig-id" -> workload << 32 | config */
    for (size_t wi = 0; wi < s->nworkloads && !st; wi++)
        for (size_t c = 0; r->wls[wi].items && c < s->workloads[wi].nconfigs && !st; c++) {
            rd_buf_reset(&id);
            st = rd_buf_addf(&id, "%s\x1f", s->workloads[wi].name);
            if (!st) st = rd_suite_config_id(&s->workloads[wi], c, &id);
            if (!st) st = rd_strmap_put(&ids, id.ptr, (int64_t)wi << 32 | (int64_t)c, NULL);
        }
    for (size_t i = 0; set && i < set->len && !st; i++) {
        const struct rd_record *rec = &set->items[i];
        if (!rec->suite || strcmp(rec->suite, s->name) || !rec->workload)
            continue;
        rd_buf_reset(&id);
        st = rd_buf_addf(&id, "%s\x1f", rec->workload);
        if (!st) st = rd_record_config_id(rec, &id);
        int64_t *at = st ? NULL : rd_strmap_find(&ids, id.ptr);
        if (at) {
            size_t wi = (size_t)(*at >> 32), c = (size_t)(*at & 0xffffffff);
            st = note_run(&s->workloads[wi], &r->wls[wi].cfgs[c], rec,
                          session ? session[i] : 0);
        }
    }
    free(session);
    rd_strmap_release(&ids);
    rd_buf_release(&id);
    return st;
}

static rd_status runner_init(struct runner *r, struct rd_suite_run *run)
{
    const struct rd_suite *s = run->suite;
    const struct rd_plan *plan = run->plan;
    r->run = run;
    r->wls = calloc(s->nworkloads + 1, sizeof *r->wls);
    if (!r->wls)
        return RD_ERR_NOMEM;
    for (size_t k = 0; k < plan->len; k++)
        r->wls[plan->items[k].workload].nitems++;
    for (size_t wi = 0; wi < s->nworkloads; wi++) {
        struct wl_state *ws = &r->wls[wi];
        const struct rd_suite_workload *w = &s->workloads[wi];
        if (!ws->nitems)
            continue;
        ws->items = malloc(ws->nitems * sizeof *ws->items);
        ws->cfgs = calloc(w->nconfigs, sizeof *ws->cfgs);
        ws->states = calloc(w->nconfigs, sizeof *ws->states);
        ws->x = calloc(w->nconfigs, sizeof *ws->x);
        ws->out = calloc(w->nconfigs, sizeof *ws->out);
        ws->in = calloc(w->nconfigs, sizeof *ws->in);
        if (!ws->items || !ws->cfgs || !ws->states || !ws->x || !ws->out || !ws->in)
            return RD_ERR_NOMEM;
        int better = w->primary_better ? rd_better_parse(w->primary_better) : -1;
        if (better < 0) {
            struct rd_metric_def def;
            rd_metric_describe(w->primary_metric, &def);
            better = (int)def.better;
        }
        rd_verdict_settings_init(&ws->vs);
        ws->vs.higher_is_better = better == RD_BETTER_HIGHER;
        if (!isnan(w->margin))
            ws->vs.margin = w->margin;
        ws->paired = pairs_rounds(w);
        if (ws->paired) {
            ws->pairing = (struct rd_verdict_pairing){ paired_ratios, ws };
            ws->vs.pairing = &ws->pairing;
        }
        ws->race = w->settle && better != RD_BETTER_NONE;
        ws->nitems = 0;
        ws->rule = (struct rd_settle_rule){ w->runs_min, w->runs, w->precision,
                                            RD_SUITE_SETTLE_ALPHA };
        ws->stored_run_s = rd_suite_run_seconds(s, wi, run->session);
    }
    for (size_t k = 0; k < plan->len; k++) {
        struct wl_state *ws = &r->wls[plan->items[k].workload];
        ws->items[ws->nitems++] = k;
    }
    RD_TRY(load_stored(r));
    for (size_t wi = 0; wi < s->nworkloads; wi++) {
        struct wl_state *ws = &r->wls[wi];
        const struct rd_suite_workload *w = &s->workloads[wi];
        if (!ws->items)
            continue;
        bool *in_play = calloc(w->nconfigs, 1);
        if (!in_play)
            return RD_ERR_NOMEM;
        for (size_t j = 0; j < ws->nitems; j++)
            in_play[plan->items[ws->items[j]].config] = true;
        for (size_t c = 0; c < w->nconfigs; c++) {
            ws->cfgs[c].in_play = in_play[c] || ws->cfgs[c].runs > 0;
            ws->k += ws->cfgs[c].in_play;
            if (ws->cfgs[c].good.n > ws->n_before)
                ws->n_before = ws->cfgs[c].good.n;
        }
        free(in_play);
        RD_TRY(update_states(ws, w));
    }
    return RD_OK;
}

static void runner_release(struct runner *r, size_t nworkloads)
{
    for (size_t wi = 0; r->wls && wi < nworkloads; wi++) {
        for (size_t c = 0; r->wls[wi].cfgs && c < r->run->suite->workloads[wi].nconfigs; c++)
            free(r->wls[wi].cfgs[c].rounds);
        free(r->wls[wi].items);
        free(r->wls[wi].cfgs);
        free(r->wls[wi].states);
        free(r->wls[wi].x);
        free(r->wls[wi].out);
        free(r->wls[wi].in);
    }
    free(r->wls);
}

/* Moves past the items of configs that need no more runs; false when the
 * workload has nothing left to run. */
static bool has_round(const struct rd_plan *plan, struct wl_state *ws)
{
    while (ws->next < ws->nitems && !collects(ws, plan->items[ws->items[ws->next]].config))
        ws->next++;
    return ws->next < ws->nitems;
}

/* Whether the workload still owes its minimum: a fixed workload all its
 * runs, an adaptive one runs_min per open config (and the warmups), and a
 * raced one the rounds up to its race's first look. Before that look the
 * round's value (round_value) is the whole family's at its widest spread,
 * configs 5x slower included, and so says nothing of what a round buys: in
 * the study of 2026-12-04 cpu-heavycalc (21 configs, 17 of them 1.8-9x
 * slower) stayed at 4 runs, one short of the look that would have taken
 * those 17 out, while the budget went to workloads already narrow. */
static bool owes_minimum(const struct rd_suite *s, const struct rd_plan *plan, size_t wi,
                         const struct wl_state *ws)
{
    const struct rd_plan_item *it = &plan->items[ws->items[ws->next]];
    long owed = ws->rule.runs_min;
    if (ws->race) {
        long first = rd_settle_race_first(ws->rule.runs_min, ws->rule.runs_max);
        owed = first > owed ? first : owed;
    }
    return !s->workloads[wi].settle || it->warmup || ws->cfgs[it->config].runs < owed;
}

/* A config the budget's value of a round reads: one the round runs that
 * has run (or has a time) already. */
static bool budgeted(const struct wl_state *ws, size_t c)
{
    return collects(ws, c) && (ws->cfgs[c].runs || ws->cfgs[c].timed);
}

/* What the workload's next round buys per second: the share of the way
 * to a settled answer that one round of its configs still collecting
 * covers, over the seconds the round takes (eliminated configs take none).
 * The way is the verdicts' runs-needed figure (rd_verdict_runs_for) for
 * the family the workload is judged in, at its level, at the widest
 * spread among those configs: the runs per config after which every open
 * comparison settles with the verdicts' power whatever the true ratios.
 * It reads each config's own spread and mean, never a difference between
 * configs, so the budget's order is as blind to the differences as the
 * precision rule (docs/methods.md §6b). A paired workload's spread is the
 * widest sd of its within-round log ratios instead: a spread of pairs,
 * again no difference of means (the offsets of its rounds, which each
 * config's own spread holds, would price it at thousands of runs). A workload a few runs from settled
 * gets its rounds before one that would need thousands: the budget buys
 * answers, not narrower open intervals. Rounds, not single runs, are what
 * the budget hands out: the precision rule stops a workload's configs
 * together, which keeps its design balanced. */
static double round_value(const struct rd_suite *s, size_t wi, const struct wl_state *ws)
{
    const struct rd_suite_workload *w = &s->workloads[wi];
    double cv_widest = 0, n_fewest = INFINITY, secs = 0;
    for (size_t c = 0; c < w->nconfigs; c++) {
        const struct cfg_state *cs = &ws->cfgs[c];
        if (!budgeted(ws, c))
            continue;
        /* no spread yet (fewer than 2 good values, a mean <= 0): as far
         * from settled as it gets */
        double cv = cs->good.n > 1 && cs->good.mean > 0
                        ? sqrt(rd_rel_var(cs->good.mean, cfg_sd(cs), rd_moments_log_sd(&cs->good)))
                        : INFINITY;
        cv_widest = fmax(cv_widest, cv);
        n_fewest = fmin(n_fewest, cs->good.n);
        double run_s = cs->timed ? cs->secs / (double)cs->timed : ws->stored_run_s;
        secs += isnan(run_s) ? 1 : fmax(run_s, 1e-3);
    }
    size_t family = ws->race ? ws->kc : ws->k;
    /* one contender left: the race has answered; more runs only make its
     * mean more precise, which any open answer needs more */
    if (!(secs > 0) || family < 2)
        return 0;
    struct rd_verdict_settings vs = ws->vs;
    vs.alpha = contenders_rule(ws, w->nconfigs).alpha;
    double spread = sqrt(2.0) * cv_widest, n_pairs = NAN;
    /* paired: the widest sd of the within-round log ratios of the
     * collecting configs, at the fewest rounds of a pair (vs has the
     * pairing: runs_for reads the paired critical values) */
    double paired = ws->paired ? paired_spread(ws, w->nconfigs, w->nconfigs, budgeted, &n_pairs)
                               : NAN;
    if (ws->paired && isfinite(n_pairs)) {
        spread = paired;
        n_fewest = n_pairs;
    }
    double need = rd_verdict_runs_for(spread, family, family - 1, &vs);
    double more = isfinite(need) ? fmax(need - n_fewest, 1) : 1e6;
    return 1 / (more * secs);
}

/* The workload the next round goes to; nworkloads when none is left.
 * Without a budget the first one with runs left (file order, as the plan
 * lists them); with one, first every workload's minimum, then the round
 * worth most. */
static size_t pick_workload(const struct runner *r)
{
    const struct rd_suite *s = r->run->suite;
    const struct rd_plan *plan = r->run->plan;
    size_t best = s->nworkloads;
    double best_value = -1;
    for (size_t wi = 0; wi < s->nworkloads; wi++) {
        struct wl_state *ws = &r->wls[wi];
        if (!ws->items || !has_round(plan, ws))
            continue;
        if (r->run->budget_s <= 0 || owes_minimum(s, plan, wi, ws))
            return wi;
        double v = round_value(s, wi, ws);
        if (v > best_value) {
            best_value = v;
            best = wi;
        }
    }
    return best;
}

/* While the measured run of item it came out contended, runs the config
 * once more, numbered after the plan's runs and the stored ones, at most
 * as many times in all as the workload's runs. */
static rd_status redo_contended(struct runner *r, const struct rd_plan_item *it,
                                const struct rd_suite_workload *w, struct cfg_state *cs,
                                struct rd_diag *d)
{
    struct rd_suite_run *run = r->run;
    rd_status st = RD_OK;
    while (!st && run->guard && !it->warmup && cs->last_contended) {
        if (cs->redos >= w->runs) {
            run->redo_capped = true;
            break;
        }
        struct rd_plan_item redo = *it;
        long next = cs->cfg->next_run[RD_PHASE_MEASURE];
        redo.run = next > w->runs ? next : w->runs + 1;
        redo.round = it->round > 0 ? it->round : it->run;
        cs->redos++;
        run->redone++;
        cs->last_contended = false;
        st = run_item(run, &redo, w, cs, d);
    }
    return st;
}

/* Runs the next round of workload wi: the items from 'next' with its
 * phase and run number whose config is still open. */
static rd_status run_round(struct runner *r, size_t wi, struct rd_diag *d)
{
    const struct rd_suite_run *run = r->run;
    const struct rd_plan *plan = run->plan;
    const struct rd_suite_workload *w = &run->suite->workloads[wi];
    struct wl_state *ws = &r->wls[wi];
    const struct rd_plan_item *first = &plan->items[ws->items[ws->next]];
    rd_status st = RD_OK;
    while (ws->next < ws->nitems && !st) {
        size_t k = ws->items[ws->next];
        const struct rd_plan_item *it = &plan->items[k];
        if (it->warmup != first->warmup || it->run != first->run)
            break;
        ws->next++;
        struct cfg_state *cs = &ws->cfgs[it->config];
        if (!collects(ws, it->config))
            continue;
        rd_diag_init(d, NULL);
        if (!cs->cfg)
            st = add_config(run, wi, it->config, &cs->cfg, d);
        if (st)
            break;
        rd_session_starting(run->session, k, cs->cfg, NULL);
        double t0 = now_s();
        cs->last_contended = false;
        st = run_item(run, it, w, cs, d);
        if (!it->warmup) {
            cs->secs += now_s() - t0;
            cs->timed++;
        }
        st = st ? st : redo_contended(r, it, w, cs, d);
    }
    rd_status ust = update_states(ws, w);
    return st ? st : ust;
}

rd_status rd_suite_run_plan(struct rd_suite_run *run, struct rd_diag *d)
{
    const struct rd_suite *s = run->suite;
    struct runner r = {0};
    rd_status st = runner_init(&r, run);
    rd_session_plan_steps(run->session, run->plan->len);
    run->budget_spent = false;
    double t0 = now_s();
    while (!st) {
        size_t wi = pick_workload(&r);
        if (wi == s->nworkloads)
            break;
        if (run->budget_s > 0 && now_s() - t0 >= run->budget_s) {
            run->budget_spent = true;
            break;
        }
        st = run_round(&r, wi, d);
    }
    for (size_t wi = 0; run->stopped && r.wls && wi < s->nworkloads; wi++) {
        struct wl_state *ws = &r.wls[wi];
        if (!ws->items || !s->workloads[wi].settle)
            continue;
        run->stopped[wi] = rd_settle_stop_reason(ws->states, s->workloads[wi].nconfigs,
                                                 run->budget_spent ? RD_STOP_BUDGET
                                                                   : RD_STOP_INCOMPLETE);
        for (size_t c = 0; run->eliminated && c < s->workloads[wi].nconfigs; c++)
            run->eliminated[wi] += ws->cfgs[c].eliminated_at > 0;
    }
    runner_release(&r, s->nworkloads);
    return st;
}
