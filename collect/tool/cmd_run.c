/*
 * run - `rundown-collect run`: timed runs of one or more commands, the job
 * hyperfine does, stored as run records.
 *
 * Several commands (separated by "--") are run interleaved, A B C A B C, so
 * that drift over the session (heat, a background job) spreads over all of
 * them instead of biasing the last. Each run is appended and fsynced the
 * moment it ends; an interrupt loses at most the run in flight.
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "envinfo.h"
#include "labels.h"
#include "proc.h"
#include "runindex.h"
#include "runner.h"
#include "rundown/buf.h"
#include "rundown/cli.h"
#include "rundown/store.h"

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
        "rundown.run/1 record per run: wall_ms (CLOCK_MONOTONIC), user_ms, sys_ms,\n"
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
    long next_run[2];   /* next run number: [0] warmup, [1] measure */
};

struct run_opts {
    long runs, warmups;
    double timeout;
    bool shell;
    const char *workload, *suite, *output, *prepare, *cleanup, *cpus, *log_dir, *env;
    char *names;
    struct rd_label_args labels;
};

static char *join_argv(char **argv, int n)
{
    struct rd_buf b = RD_BUF_INIT;
    for (int i = 0; i < n; i++)
        rd_buf_addf(&b, "%s%s", i ? " " : "", argv[i]);
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

static rd_status fill_record(const struct run_opts *o, const struct run_cmd *c,
                             const char *workload, const char *env, const char *phase,
                             long run, struct rd_record *r)
{
    rd_status s = rd_record_set(r, &r->workload, workload);
    if (!s && o->suite) s = rd_record_set(r, &r->suite, o->suite);
    if (!s && env) s = rd_record_set(r, &r->env, env);
    if (!s) s = rd_record_set(r, &r->phase, phase);
    for (size_t k = 0; k < o->labels.len && !s; k++)
        s = rd_record_set_label(r, o->labels.keys[k], o->labels.values[k]);
    if (!s && c->name) s = rd_record_set_label(r, "command", c->name);
    if (!s) s = rd_record_set_info(r, "command", c->text);
    if (!s && o->cpus) s = rd_record_set_info(r, "cpus", o->cpus);
    r->run = run;
    return s;
}

/* "<workload>/<label values>-<run>" as a file-name-safe log stem. */
static void log_stem(const struct rd_record *r, char *out, size_t size)
{
    char slug[512], part[256];
    size_t o = 0;
    rd_runner_slug(r->workload, slug, sizeof slug);
    o += (size_t)snprintf(out + o, size - o, "%s/", slug);
    for (size_t i = 0; i < r->config.len && o < size; i++) {
        rd_runner_slug(r->config.items[i].value, part, sizeof part);
        o += (size_t)snprintf(out + o, size - o, "%s%s", i ? "-" : "", part);
    }
    if (o < size && r->config.len == 0)
        o += (size_t)snprintf(out + o, size - o, "run");
    if (o < size)
        snprintf(out + o, size - o, "-%s%ld", strcmp(r->phase, "warmup") == 0 ? "warmup-" : "",
                 r->run);
}

int rd_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"runs", required_argument, NULL, 'n'},
        {"warmup", required_argument, NULL, 'W'},
        {"workload", required_argument, NULL, 'w'},
        {"label", required_argument, NULL, 'l'},
        {"suite", required_argument, NULL, 's'},
        {"output", required_argument, NULL, 'o'},
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
    rd_label_args_init(&o.labels);
    int c;
    optind = 1;
    /* '+': stop at the first non-option, so `run ls -l` runs `ls -l`. */
    while ((c = getopt_long(argc, argv, "+n:W:w:l:s:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'n': if (parse_count(optarg, "-n", 1, &o.runs)) return RD_EXIT_USAGE; break;
        case 'W': if (parse_count(optarg, "-W", 0, &o.warmups)) return RD_EXIT_USAGE; break;
        case 'w': o.workload = optarg; break;
        case 'l':
            if (rd_label_args_add(&o.labels, optarg) != RD_OK)
                return rd_usage_error("expected -l KEY=VALUE with a KEY of letters, digits, "
                                      "'_', '-' or '.', got '%s'", optarg);
            break;
        case 's': o.suite = optarg; break;
        case 'o': o.output = optarg; break;
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
    size_t ncmds = 0;
    int exit_code = RD_EXIT_OK;
    for (int i = optind; i < argc;) {
        int j = i;
        while (j < argc && strcmp(argv[j], "--") != 0)
            j++;
        if (j == i)
            return rd_usage_error("empty command between '--' separators");
        if (ncmds == MAX_COMMANDS)
            return rd_usage_error("at most %d commands", MAX_COMMANDS);
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
    if (o.workload) {
        snprintf(workload, sizeof workload, "%s", o.workload);
    } else {
        char first[256];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(cmds[0].text, " \t"), cmds[0].text);
        snprintf(workload, sizeof workload, "%s", basename(first));
    }

    const char *store = o.output ? o.output : "-";
    struct rd_outputs outs;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status ps = rd_env_prepare_outputs(store, o.log_dir, o.env, NULL, 0, o.cpus, &outs, &d);
    if (ps) {
        exit_code = rd_fail(ps, &d);
        goto done;
    }
    bool to_file = outs.to_file;
    const char *logs = outs.log_dir;
    const char *envid = outs.envid;

    /* Number runs after those already stored for the same key. */
    struct rd_run_index ix;
    rd_run_index_init(&ix);
    if (to_file) {
        rd_status s = rd_run_index_load(&ix, store, &d);
        for (size_t k = 0; k < ncmds && !s; k++) {
            for (int ph = 0; ph < 2 && !s; ph++) {
                struct rd_recordset tmp;
                rd_recordset_init(&tmp);
                struct rd_record *r = rd_recordset_add(&tmp);
                s = r ? fill_record(&o, &cmds[k], workload, envid[0] ? envid : NULL,
                                    ph ? "measure" : "warmup", 0, r) : RD_ERR_NOMEM;
                if (!s)
                    cmds[k].next_run[ph] = rd_run_index_max(&ix, r) + 1;
                rd_recordset_release(&tmp);
            }
        }
        rd_run_index_release(&ix);
        if (s) {
            exit_code = rd_fail(s, &d);
            goto done;
        }
    } else {
        for (size_t k = 0; k < ncmds; k++)
            cmds[k].next_run[0] = cmds[k].next_run[1] = 1;
    }

    rd_proc_catch_signals();
    bool progress = rd_stderr_is_interactive();
    long total = (o.warmups + o.runs) * (long)ncmds, done_runs = 0, failed = 0;
    for (long round = 0; round < o.warmups + o.runs; round++) {
        int ph = round < o.warmups ? 0 : 1;
        for (size_t k = 0; k < ncmds; k++) {
            struct run_cmd *rc = &cmds[k];
            struct rd_recordset set;
            rd_recordset_init(&set);
            struct rd_record *r = rd_recordset_add(&set);
            char stem[1024];
            rd_status s = r ? fill_record(&o, rc, workload, envid[0] ? envid : NULL,
                                          ph ? "measure" : "warmup", rc->next_run[ph], r)
                            : RD_ERR_NOMEM;
            if (!s) {
                log_stem(r, stem, sizeof stem);
                if (progress)
                    fprintf(stderr, "\r\033[K[%ld/%ld] %s %s %ld", done_runs + 1, total,
                            rc->name ? rc->name : workload, ph ? "run" : "warmup", r->run);
                struct rd_command_spec spec = {
                    .argv = rc->argv, .cpus = o.cpus, .timeout_s = o.timeout,
                    .prepare = o.prepare, .cleanup = o.cleanup,
                    .logs = {.dir = logs, .stem = stem},
                };
                rd_diag_init(&d, NULL);
                s = rd_runner_command(&spec, r, &d);
            }
            if (!s)
                s = rd_store_append_one(store, r, &d);
            if (!s && to_file == false)
                fflush(stdout);
            if (s) {
                if (progress)
                    fputs("\r\033[K", stderr);
                if (rd_proc_interrupted) {
                    rd_error("interrupted; %ld finished runs are stored", done_runs);
                    exit_code = rd_proc_interrupt_exit_code();
                } else {
                    exit_code = rd_fail(s, &d);
                }
                rd_recordset_release(&set);
                goto done;
            }
            if (strcmp(r->status, "ok") != 0) {
                failed++;
                if (progress)
                    fputs("\r\033[K", stderr);
                rd_warn("%s %s %ld: %s: %s", rc->name ? rc->name : workload, r->phase, r->run,
                        r->status, rd_record_info(r, "error") ? rd_record_info(r, "error") : "");
            }
            const char *dropped = rd_record_info(r, "dropped_metric_lines");
            if (dropped) {
                if (progress)
                    fputs("\r\033[K", stderr);
                rd_warn("%s %s %ld: metric lines dropped: %s", rc->name ? rc->name : workload,
                        r->phase, r->run, dropped);
            }
            rc->next_run[ph]++;
            done_runs++;
            rd_recordset_release(&set);
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    if (failed)
        exit_code = RD_EXIT_RUN_FAILED;
done:
    for (size_t k = 0; k < ncmds; k++) {
        free(cmds[k].argv);
        free(cmds[k].text);
    }
    return exit_code;
}
