/*
 * run - `rundown-collect run`: timed runs of one or more commands, the job
 * hyperfine does, stored as run records.
 *
 * This file reads the command line, labels each command's runs and prints;
 * the interleaved loop is timedruns.c and the store a session (session.h),
 * which appends and fsyncs each run the moment it ends, so an interrupt
 * loses at most the run in flight.
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "envinfo.h"
#include "options.h"
#include "proc.h"
#include "runner.h"
#include "session.h"
#include "timedruns.h"
#include "rundown/buf.h"
#include "rundown/cli.h"

#define MAX_COMMANDS 64

static void usage(FILE *out)
{
    fprintf(out,
        "usage: rundown-collect run [-n RUNS] [-W WARMUP] [-w WORKLOAD] [-l KEY=VAL]...\n"
        "                           [-o STORE] [--timeout SEC] [--shell] [--prepare CMD]\n"
        "                           [--cleanup CMD] [--cpus LIST] [--log-dir DIR]\n"
        "                           [--env ID] [--names A,B,...] [-s SUITE]\n"
        "                           [--] CMD [ARG...] [-- CMD2 [ARG...]]...\n"
        "\n"
        "Runs each command RUNS times (after WARMUP warmup runs) and stores one\n"
        RD_RUN_SCHEMA " record per run: wall_ms (CLOCK_MONOTONIC), user_ms, sys_ms,\n"
        "max_rss_kib (wait4), the exit code, and every 'rundown:metric NAME=VALUE'\n"
        "line the command prints on stdout. Several commands, separated by '--',\n"
        "are run interleaved (A B C A B C ...) and told apart by a 'command' label.\n"
        "\n"
        "  -n, --runs N          measured runs per command (default 10)\n"
        "  -W, --warmup N        warmup runs per command, stored as phase warmup (default 0)\n"
        "  -w, --workload NAME   the workload (default: the first command's program name)\n"
        "  -l, --label KEY=VAL   a config label for every run (repeatable)\n"
        "      --names A,B,...   the 'command' label of each command (default: its text)\n"
        "  -s, --suite NAME      the suite the runs belong to\n"
        "  -o, --output STORE    append to STORE (default: standard output)\n"
        "      --timeout SEC     stop a run after SEC seconds (SIGTERM, then SIGKILL\n"
        "                        to its process group); status timeout\n"
        "      --shell           run each command with /bin/sh -c (default: no shell)\n"
        "      --prepare CMD     run CMD (sh -c) before each run, untimed\n"
        "      --cleanup CMD     run CMD (sh -c) after each run, untimed\n"
        "      --cpus LIST       pin the command to CPUs, e.g. 0 or 0-1,3\n"
        "      --log-dir DIR     keep each run's stdout/stderr (1 MiB each) under DIR\n"
        "                        (default: 'logs' next to STORE; none without -o)\n"
        "      --env ID          the environment id the runs point to (default: the\n"
        "                        machine's, written as env-ID.json next to STORE)\n"
        "  -h, --help            this text\n"
        "\n"
        "Exit codes: 0 every run ok, 4 a run failed or timed out (all runs are\n"
        "stored), 128+N after signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP),\n"
        "1-3 as in every rundown tool.\n");
}

struct run_cmd {
    char **argv;        /* what is spawned */
    char *text;         /* the command as written, for info and labels */
    const char *name;   /* the 'command' label, NULL with one command */
};

struct run_opts {
    long runs, warmups;
    double timeout;
    bool shell;
    const char *output, *prepare, *cleanup, *cpus, *log_dir, *env;
    char *names;
    struct rd_run_facts facts;
};

/* What the session's reports need to print a run's name. */
struct run_ui {
    const struct run_cmd *cmds;
    const char *workload;
    bool progress;      /* a progress line is shown on stderr */
};

static char *join_argv(char **argv, int n)
{
    struct rd_buf b = RD_BUF_INIT;
    if (rd_argv_join(argv, (size_t)n, &b)) {
        rd_buf_release(&b);
        return NULL;
    }
    return rd_buf_detach(&b, NULL);
}

static int parse_count(const char *arg, const char *what, long min, long *out)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (!*arg || *end || v < min || v > 1000000)
        return rd_usage_error("expected %s to be a whole number >= %ld, got '%s'", what, min, arg);
    *out = v;
    return 0;
}

/* The progress line before each run; a warning after each run that failed
 * or lost metric lines. */
static void report(void *vui, const struct rd_session_event *ev)
{
    const struct run_ui *ui = vui;
    const struct rd_record *r = ev->rec;
    const struct run_cmd *rc = &ui->cmds[ev->config->index];
    const char *name = rc->name ? rc->name : ui->workload;
    if (ev->kind == RD_SESSION_STARTING) {
        if (ui->progress)
            fprintf(stderr, "\r\033[K[%zu/%zu] %s %s %ld", ev->step + 1, ev->steps, name,
                    strcmp(r->phase, "warmup") ? "run" : "warmup", r->run);
        return;
    }
    if (strcmp(r->status, "ok") != 0) {
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_warn("%s %s %ld: %s: %s", name, r->phase, r->run, r->status,
                rd_record_info(r, "error") ? rd_record_info(r, "error") : "");
    }
    const char *dropped = rd_record_info(r, "dropped_metric_lines");
    if (dropped) {
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_warn("%s %s %ld: metric lines dropped: %s", name, r->phase, r->run, dropped);
    }
    if (ui->progress)
        fputs("\r\033[K", stderr);
    rd_tool_warn_losses(rc->name, r);
}

/* The template of command rc's runs: the facts, its label, its text. */
static rd_status add_command_config(struct rd_session *s, const struct run_opts *o,
                                    const struct run_cmd *rc, struct rd_session_config **cfg)
{
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    rd_status st = r ? rd_run_facts_apply(&o->facts, r) : RD_ERR_NOMEM;
    if (!st && rc->name) st = rd_record_set_label(r, "command", rc->name);
    if (!st) st = rd_record_set_info(r, "command", rc->text);
    if (!st && o->cpus) st = rd_record_set_info(r, "cpus", o->cpus);
    if (!st) st = rd_session_add_config(s, r, cfg);
    rd_recordset_release(&set);
    return st;
}

int rd_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"runs", required_argument, NULL, 'n'},
        {"warmup", required_argument, NULL, 'W'},
        RD_TOOL_FACT_OPTIONS,
        {"timeout", required_argument, NULL, 'T'},
        {"shell", no_argument, NULL, 'S'},
        {"prepare", required_argument, NULL, 'P'},
        {"cleanup", required_argument, NULL, 'C'},
        {"cpus", required_argument, NULL, 'c'},
        {"log-dir", required_argument, NULL, 'L'},
        {"env", required_argument, NULL, 'E'},
        {"names", required_argument, NULL, 'N'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct run_opts o = {.runs = 10};
    rd_run_facts_init(&o.facts);
    int c, took;
    optind = 1;
    /* '+': stop at the first non-option, so `run ls -l` runs `ls -l`. */
    while ((c = getopt_long(argc, argv, "+n:W:w:l:s:o:h", longopts, NULL)) != -1) {
        if ((took = rd_tool_fact_option(c, optarg, &o.facts, &o.output)) >= 0) {
            if (took)
                return took;
            continue;
        }
        switch (c) {
        case 'n': if (parse_count(optarg, "-n", 1, &o.runs)) return RD_EXIT_USAGE; break;
        case 'W': if (parse_count(optarg, "-W", 0, &o.warmups)) return RD_EXIT_USAGE; break;
        case 'T': {
            char *end;
            o.timeout = strtod(optarg, &end);
            if (!*optarg || *end || !(o.timeout > 0))
                return rd_usage_error("expected --timeout SECONDS > 0, got '%s'", optarg);
            break;
        }
        case 'S': o.shell = true; break;
        case 'P': o.prepare = optarg; break;
        case 'C': o.cleanup = optarg; break;
        case 'c': {
            unsigned char mask[128];
            if (!rd_cpulist_parse(optarg, mask))
                return rd_usage_error("expected --cpus like 0 or 0-1,3, got '%s'", optarg);
            o.cpus = optarg;
            break;
        }
        case 'L': o.log_dir = optarg; break;
        case 'E': o.env = optarg; break;
        case 'N': o.names = optarg; break;
        case 'h': usage(stdout); return RD_EXIT_OK;
        default: return rd_usage_error("invalid option");
        }
    }
    if (optind < argc && strcmp(argv[optind], "--") == 0)
        optind++;
    if (optind >= argc)
        return rd_usage_error("run needs a command: rundown-collect run [OPTIONS] -- CMD [ARG...]");

    struct run_cmd cmds[MAX_COMMANDS];
    struct rd_timed_command timed[MAX_COMMANDS];
    size_t ncmds = 0;
    int exit_code = RD_EXIT_OK;
    struct rd_session session;
    rd_session_init(&session, o.output);
    for (int i = optind; i < argc;) {
        int j = i;
        while (j < argc && strcmp(argv[j], "--") != 0)
            j++;
        if (j == i) {
            exit_code = rd_usage_error("empty command between '--' separators");
            goto done;
        }
        if (ncmds == MAX_COMMANDS) {
            exit_code = rd_usage_error("at most %d commands", MAX_COMMANDS);
            goto done;
        }
        struct run_cmd *rc = &cmds[ncmds++];
        memset(rc, 0, sizeof *rc);
        rc->text = join_argv(argv + i, j - i);
        if (o.shell) {
            rc->argv = calloc(4, sizeof *rc->argv);
            rc->argv[0] = "/bin/sh";
            rc->argv[1] = "-c";
            rc->argv[2] = rc->text;
        } else {
            rc->argv = calloc((size_t)(j - i) + 1, sizeof *rc->argv);
            memcpy(rc->argv, argv + i, (size_t)(j - i) * sizeof *argv);
            char path[4096];
            if (!rd_which(rc->argv[0], path, sizeof path)) {
                exit_code = rd_usage_error("command not found: '%s'", rc->argv[0]);
                goto done;
            }
        }
        i = j < argc ? j + 1 : j;
    }
    if (o.names) {
        char *save = NULL, *tok = strtok_r(o.names, ",", &save);
        for (size_t k = 0; k < ncmds; k++, tok = strtok_r(NULL, ",", &save)) {
            if (!tok) {
                exit_code = rd_usage_error("--names gives fewer names than there are commands");
                goto done;
            }
            cmds[k].name = tok;
        }
        if (tok) {
            exit_code = rd_usage_error("--names gives more names than there are commands");
            goto done;
        }
    } else if (ncmds > 1) {
        for (size_t k = 0; k < ncmds; k++)
            cmds[k].name = cmds[k].text;
    }

    char workload[256];
    if (o.facts.workload) {
        snprintf(workload, sizeof workload, "%s", o.facts.workload);
    } else {
        char first[256];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(cmds[0].text, " \t"), cmds[0].text);
        snprintf(workload, sizeof workload, "%s", basename(first));
    }
    o.facts.workload = workload;

    struct rd_outputs outs;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    /* Before any child starts (a version probe, --prepare), so that a
     * signal stops it too. */
    rd_proc_catch_signals();
    rd_status st = rd_env_prepare_outputs(session.store, o.log_dir, o.env, NULL, 0, o.cpus,
                                          &outs, &d);
    if (st) {
        exit_code = rd_tool_fail(st, &d, NULL);
        goto done;
    }
    o.facts.env = outs.envid;

    /* Number runs after those already stored for the same key. */
    st = rd_session_read_store(&session, &d);
    for (size_t k = 0; k < ncmds && !st; k++) {
        timed[k].argv = cmds[k].argv;
        st = add_command_config(&session, &o, &cmds[k], &timed[k].config);
    }
    if (st) {
        exit_code = rd_tool_fail(st, &d, NULL);
        goto done;
    }

    struct run_ui ui = {cmds, workload, rd_stderr_is_interactive()};
    rd_session_on_report(&session, report, &ui);
    struct rd_timed_spec spec = {
        .cmds = timed, .ncmds = ncmds, .warmups = o.warmups, .runs = o.runs,
        .timeout_s = o.timeout, .prepare = o.prepare, .cleanup = o.cleanup, .cpus = o.cpus,
        .log_dir = outs.log_dir,
    };
    st = rd_timed_runs(&session, &spec, &d);
    if (ui.progress)
        fputs("\r\033[K", stderr);
    if (st && rd_proc_interrupted) {
        rd_error("interrupted; %ld finished runs are stored", session.stored);
        exit_code = rd_proc_interrupt_exit_code();
    } else if (st) {
        exit_code = rd_fail(st, &d);
    } else if (session.failed) {
        exit_code = RD_EXIT_RUN_FAILED;
    }
done:
    for (size_t k = 0; k < ncmds; k++) {
        free(cmds[k].argv);
        free(cmds[k].text);
    }
    rd_session_release(&session);
    return exit_code;
}
