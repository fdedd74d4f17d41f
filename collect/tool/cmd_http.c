/*
 * http - `rundown-collect http`: a server under load.
 *
 * Starts the server, waits until its URL answers, runs the load command N
 * times (each output read by its importer) while sampling the server's
 * process tree, and stops it; with --background a second command runs
 * alongside each load run (mixed load). Records are stored as each run
 * ends, through a session (session.h; the loop is serverruns.c). The
 * server never outlives this command: every exit path, SIGINT included,
 * stops its process group first. This file reads the command line, builds
 * the template record and prints.
 */
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "commands.h"
#include "envinfo.h"
#include "httpprobe.h"
#include "importer.h"
#include "optable.h"
#include "options.h"
#include "proc.h"
#include "runner.h"
#include "rundown/fsutil.h"
#include "serverruns.h"
#include "runwarn.h"
#include "session.h"
#include "rundown/array.h"
#include "rundown/cli.h"

/* A warning for each stored run that failed or lost metric lines; the
 * runs are watched for the warnings after them (runwarn.h). */
static void report(void *ctx, const struct rd_session_event *ev)
{
    struct rd_run_watchset *watches = ctx;
    const struct rd_record *rec = ev->rec;
    if (ev->kind == RD_SESSION_NOTE)
        rd_warn("%s", ev->note);
    if (ev->kind != RD_SESSION_STORED)
        return;
    if (ev->config && watches)
        (void)rd_run_watchset_add(watches, ev->config->index, rec, NULL, false);
    if (strcmp(rec->status, "ok") != 0) {
        const char *err = rd_record_info(rec, "error");
        rd_warn("%s %s %ld: %s%s%s", rec->workload, rec->phase, rec->run, rec->status,
                err ? ": " : "", err ? err : "");
    }
    char run[400];
    snprintf(run, sizeof run, "%s %s %ld", rec->workload, rec->phase, rec->run);
    rd_tool_warn_metric_lines(run, rec);
    rd_tool_warn_losses(NULL, rec);
}

/* Splits at blanks into a NULL-terminated argv (the string is modified). */
static char **split_blanks(char *s)
{
    size_t n = 0, cap = 0;
    char **v = NULL;
    if (RD_ARRAY_GROW(v, cap, 1))
        return NULL;
    v[0] = NULL;
    for (char *save = NULL, *tok = strtok_r(s, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        if (RD_ARRAY_GROW(v, cap, n + 2)) {
            free(v);
            return NULL;
        }
        v[n++] = tok;
        v[n] = NULL;
    }
    return v;
}

static char **make_argv(char *cmd, bool shell)
{
    if (shell) {
        char **v = calloc(4, sizeof *v);
        if (v) {
            v[0] = "/bin/sh";
            v[1] = "-c";
            v[2] = cmd;
        }
        return v;
    }
    return split_blanks(cmd);
}

static int parse_seconds(const char *arg, const char *what, bool zero_ok, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (!*arg || *end || !(zero_ok ? v >= 0 : v > 0) || v > 1e6)
        return rd_usage_error("expected %s SECONDS %s 0, got '%s'", what, zero_ok ? ">=" : ">", arg);
    *out = v;
    return 0;
}

/* The template of every load run: the facts and what the session runs. */
static rd_status make_template(const struct rd_run_facts *facts, const char *server_text,
                               char **load_argv, const char *url, const char *bg_text,
                               const char *server_cpus, const char *load_cpus,
                               double warmup_load, struct rd_record *tmpl)
{
    RD_TRY(rd_run_facts_apply(facts, tmpl));
    RD_TRY(rd_record_set_info(tmpl, "server", server_text));
    struct rd_buf load = RD_BUF_INIT;
    rd_status s = rd_argv_join(load_argv, SIZE_MAX, &load);
    if (!s)
        s = rd_record_set_info(tmpl, "load", load.ptr);
    rd_buf_release(&load);
    RD_TRY(s);
    RD_TRY(rd_record_set_info(tmpl, "url", url));
    if (bg_text)
        RD_TRY(rd_record_set_info(tmpl, "background", bg_text));
    if (server_cpus)
        RD_TRY(rd_record_set_info(tmpl, "server_cpus", server_cpus));
    if (load_cpus)
        RD_TRY(rd_record_set_info(tmpl, "load_cpus", load_cpus));
    if (warmup_load > 0) {
        char b[32];
        snprintf(b, sizeof b, "%g", warmup_load);
        RD_TRY(rd_record_set_info(tmpl, "warmup_load_s", b));
    }
    return RD_OK;
}

/* The command line of `http`. */
struct http_opts {
    char *server, *background;
    const char *url, *ready_url, *tool, *output, *log_dir, *envopt;
    const char *server_cpus, *load_cpus, *bg_cpus;
    double warmup_load, ready_timeout, stop_timeout, timeout;
    long runs, warmups;
    bool shell, fresh;
    struct rd_run_facts facts;
    struct rd_contention_opts cont;
    struct rd_tool_speed_memory memory;
    char *memory_path;    /* the remembered best's file (malloc'd); NULL: none */
    char **load_argv;
};

/* Options into o: -1 to go on, else the exit code (already printed). */
static int http_options(struct http_opts *o, int argc, char **argv)
{
    int c, took;
    struct rd_opts p;
    rd_opts_begin(&p, &rd_collect_spec_http, argc, argv);
    while ((c = rd_opts_next(&p)) >= 0) {
        char *arg = rd_opts_arg(&p);
        char *end;
        unsigned char mask[128];
        if (c == 'l' && rd_label_args_add(&o->facts.labels, arg) != RD_OK)
            return rd_usage_error("expected -l KEY=VALUE, got '%s'", arg);
        if (c == 'l')
            continue;
        if ((took = rd_tool_fact_option(c, arg, &o->facts, &o->output)) >= 0 ||
            (took = rd_tool_contention_option(c, arg, &o->cont)) >= 0 ||
            (took = rd_tool_speed_memory_option(c, arg, &o->memory)) >= 0) {
            if (took)
                return took;
            continue;
        }
        switch (c) {
        case CO_SERVER: o->server = arg; break;
        case CO_URL: o->url = arg; break;
        case CO_READY_URL: o->ready_url = arg; break;
        case 'n':
        case 'W': {
            long v = strtol(arg, &end, 10);
            if (!*arg || *end || v < (c == 'n' ? 1 : 0) || v > 1000000)
                return rd_usage_error("expected -%c N, a whole number >= %d, got '%s'", c,
                                      c == 'n' ? 1 : 0, arg);
            *(c == 'n' ? &o->runs : &o->warmups) = v;
            break;
        }
        case CO_WARMUP_LOAD: if (parse_seconds(arg, "--warmup-load", true, &o->warmup_load)) return RD_EXIT_USAGE; break;
        case CO_READY_TIMEOUT: if (parse_seconds(arg, "--ready-timeout", false, &o->ready_timeout)) return RD_EXIT_USAGE; break;
        case CO_STOP_TIMEOUT: if (parse_seconds(arg, "--stop-timeout", false, &o->stop_timeout)) return RD_EXIT_USAGE; break;
        case CO_TIMEOUT: if (parse_seconds(arg, "--timeout", false, &o->timeout)) return RD_EXIT_USAGE; break;
        case CO_SERVER_CPUS:
        case CO_LOAD_CPUS:
        case CO_BACKGROUND_CPUS:
            if (!rd_cpulist_parse(arg, mask))
                return rd_usage_error("expected a CPU list like 0 or 0-1,3, got '%s'", arg);
            *(c == CO_SERVER_CPUS ? &o->server_cpus : c == CO_LOAD_CPUS ? &o->load_cpus : &o->bg_cpus) = arg;
            break;
        case CO_BACKGROUND: o->background = arg; break;
        case CO_SHELL: o->shell = true; break;
        case CO_FRESH: o->fresh = true; break;
        case 't':
            if (!rd_importer_find(arg))
                return rd_usage_error("unknown tool '%s' (see 'rundown-collect import --help')",
                                      arg);
            o->tool = arg;
            break;
        case CO_LOG_DIR: o->log_dir = arg; break;
        case CO_ENV: o->envopt = arg; break;
        }
    }
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p);
    int next = rd_opts_index(&p);
    if (next < argc && strcmp(argv[next], "--") == 0)
        next++;
    if (!o->server || !o->url)
        return rd_usage_error("http needs --server CMD and --url URL");
    if (next >= argc)
        return rd_usage_error("http needs a load command: ... -- LOADCMD [ARG...]");
    o->load_argv = argv + next;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    char host[256], path[2048];
    int port;
    if (rd_url_parse(o->url, host, sizeof host, &port, path, sizeof path, &d) ||
        (o->ready_url && rd_url_parse(o->ready_url, host, sizeof host, &port, path, sizeof path, &d)))
        return rd_usage_error("%s", d.msg);
    int rc = rd_tool_speed_memory_path(&o->memory, NULL, &o->memory_path);
    return rc ? rc : -1;
}

/* The programs exist and the port is free: else the exit code (printed). */
static int http_preflight(const struct http_opts *o, char **server_argv, char **bg_argv)
{
    char which[4096];
    const char *progs[3] = {server_argv[0], o->load_argv[0], bg_argv ? bg_argv[0] : NULL};
    for (int i = 0; i < 3; i++)
        if (progs[i] && !rd_which(progs[i], which, sizeof which))
            return rd_usage_error("command not found: '%s'", progs[i]);
    char host[256], path[2048];
    int port;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    const char *probe = o->ready_url ? o->ready_url : o->url;
    rd_url_parse(probe, host, sizeof host, &port, path, sizeof path, &d);
    int port_state = rd_port_check(host, port);
    if (port_state) {
        char why[160];
        rd_port_problem(port_state, port, why, sizeof why);
        rd_error("%s (%s)%s", why, probe,
                 port_state == RD_PORT_IN_USE ? ": stop what listens there first" : "");
        return RD_EXIT_SYSTEM;
    }
    return -1;
}

/* The environment file with the versions of what is measured (the server,
 * the background) and of the load tool: a tool rundown reads by its
 * importer's command. */
static rd_status http_env(const struct http_opts *o, const struct rd_session *session,
                          char **server_argv, char **bg_argv, struct rd_outputs *outs,
                          struct rd_diag *d)
{
    const char *ltool = o->tool ? o->tool : basename(o->load_argv[0]);
    struct rd_env_probe probes[3];
    struct rd_env_program versions[3];
    size_t nprobes = 0;
    rd_env_probe_program(&probes[nprobes++], "runtime", server_argv[o->shell ? 2 : 0], o->shell,
                         &versions[0]);
    if (bg_argv)
        rd_env_probe_program(&probes[nprobes++], "runtime", bg_argv[o->shell ? 2 : 0], o->shell,
                             &versions[1]);
    if (rd_env_tool_version_argv(ltool))
        probes[nprobes++] = (struct rd_env_probe){.kind = "tool", .name = ltool};
    else
        rd_env_probe_program(&probes[nprobes++], "tool", o->load_argv[0], false, &versions[2]);
    char pin[256];
    snprintf(pin, sizeof pin, "server %s, load %s", o->server_cpus ? o->server_cpus : "any",
             o->load_cpus ? o->load_cpus : "any");
    /* Refused before the environment file or a log is made. */
    RD_TRY(rd_fds_check(RD_HTTP_FDS, "collect", "a server's runs", NULL, d));
    /* Before the version probe starts, so that a signal stops it too. */
    rd_proc_catch_signals();
    return rd_env_prepare_outputs(session->store, o->log_dir, o->envopt, probes, nprobes, pin,
                                  o->memory_path, outs, d);
}

/* The sessions, once the template is stored in the session: the exit code. */
static int http_collect(struct http_opts *o, struct rd_session *session,
                        struct rd_session_config *cfg, char **server_argv, char **bg_argv,
                        const struct rd_outputs *outs)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    struct rd_run_watchset watches = {0};
    rd_session_on_report(session, report, &watches);
    struct rd_http_spec spec = {
        .server_argv = server_argv, .load_argv = o->load_argv, .background_argv = bg_argv,
        .server_cpus = o->server_cpus, .load_cpus = o->load_cpus, .background_cpus = o->bg_cpus,
        .url = o->url, .ready_url = o->ready_url ? o->ready_url : o->url,
        .ready_timeout_s = o->ready_timeout, .stop_timeout_s = o->stop_timeout,
        .timeout_s = o->timeout > 0 ? o->timeout : rd_load_default_timeout(o->load_argv),
        .warmup_load_s = o->warmup_load,
        .warmups = (int)o->warmups, .load_tool = o->tool,
        .logs = {.dir = outs->log_dir, .shown = outs->log_shown},
    };
    struct rd_guard guard;
    rd_guard_init(&guard, &o->cont, NULL);
    rd_guard_use_speed_memory(&guard, o->memory_path);
    rd_guard_on_note(&guard, rd_tool_guard_note, NULL);
    spec.guard = o->cont.mode == RD_CONTENTION_OFF ? NULL : &guard;
    struct rd_redos redos;
    rd_status s = rd_server_runs(session, cfg, &spec, o->runs, o->fresh, &redos, &d);
    if (spec.guard) {
        rd_tool_guard_remember(&guard);
        rd_tool_guard_summary(&guard);
        rd_tool_redo_note(redos.redone, redos.capped, "config");
    }
    int exit_code = session->failed ? RD_EXIT_RUN_FAILED : RD_EXIT_OK;
    if (s) {
        exit_code = rd_tool_fail(s, &d, "the server is stopped and finished runs are stored");
    } else {
        /* As after `run`; a failed run was warned as it happened. */
        struct rd_run_warn_ctx wc = {.warmups = -1, .warmup_hint = "-W/--warmup",
                                     .no_failures = true};
        rd_run_watchset_warn(&watches, &wc);
    }
    rd_session_on_report(session, report, NULL);
    rd_run_watchset_release(&watches);
    return exit_code;
}

int rd_cmd_http(int argc, char **argv)
{
    struct http_opts o = {.ready_timeout = 30, .stop_timeout = 5, .runs = 5};
    rd_run_facts_init(&o.facts);
    o.facts.workload = "http";
    rd_contention_defaults(&o.cont);
    /* Whatever a server starts comes back to rundown when it is orphaned
     * (a daemon's setsid() or double fork escapes the server's process
     * group), so rd_proc_kill_strays() can stop it after the server. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    int exit_code = http_options(&o, argc, argv);
    if (exit_code >= 0)
        return exit_code;

    struct rd_diag d;
    rd_diag_init(&d, NULL);
    struct rd_session session;
    struct rd_recordset tset;
    rd_session_init(&session, o.output);
    rd_recordset_init(&tset);
    char *server_text = strdup(o.server), *bg_text = o.background ? strdup(o.background) : NULL;
    char **server_argv = make_argv(o.server, o.shell);
    char **bg_argv = o.background ? make_argv(o.background, o.shell) : NULL;
    struct rd_outputs outs;
    struct rd_record *tmpl = rd_recordset_add(&tset);
    struct rd_session_config *cfg = NULL;
    rd_status s = RD_OK;
    if (!server_text || !server_argv || !server_argv[0] ||
        (o.background && (!bg_argv || !bg_argv[0]))) {
        exit_code = rd_usage_error("empty --server or --background command");
    } else if ((exit_code = http_preflight(&o, server_argv, bg_argv)) < 0) {
        s = http_env(&o, &session, server_argv, bg_argv, &outs, &d);
        o.facts.env = s ? NULL : outs.envid;
        if (!s)
            s = tmpl ? make_template(&o.facts, server_text, o.load_argv, o.url, bg_text,
                                     o.server_cpus, o.load_cpus, o.warmup_load, tmpl)
                     : RD_ERR_NOMEM;
        /* Number runs after those already stored under the same key. */
        if (!s)
            s = rd_session_read_store(&session, &d);
        if (!s)
            s = rd_session_add_config(&session, tmpl, &cfg);
        exit_code = s ? rd_tool_fail(s, &d, NULL)
                      : http_collect(&o, &session, cfg, server_argv, bg_argv, &outs);
    }
    rd_recordset_release(&tset);
    rd_session_release(&session);
    free(server_argv);
    free(bg_argv);
    free(server_text);
    free(bg_text);
    free(o.memory_path);
    return exit_code;
}
