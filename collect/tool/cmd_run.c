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
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmdsplit.h"
#include "commands.h"
#include "envinfo.h"
#include "options.h"
#include "proc.h"
#include "runner.h"
#include "session.h"
#include "summary.h"
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
        "                           [--sample-interval MS] [--better NAME=DIR]...\n"
        "                           [--resume] [--quiet] [--export-markdown FILE]\n"
        "                           [--contention MODE] [--contention-threshold PCT]\n"
        "                           [--contention-wait SEC]\n"
        "                           [--export-json FILE] 'CMD ARG...' ['CMD2 ARG...']...\n"
        "       rundown-collect run [OPTIONS] -- CMD [ARG...] [-- CMD2 [ARG...]]...\n"
        "\n"
        "Each argument is one command, split into words as sh would split it\n"
        "(quotes and backslashes respected) but run without a shell; with --shell\n"
        "it is run by /bin/sh -c. After '--', each word is one argument and '--'\n"
        "separates the commands.\n"
        "\n"
        "Runs each command RUNS times (after WARMUP warmup runs) and stores one\n"
        RD_RUN_SCHEMA " record per run: wall_ms (CLOCK_MONOTONIC), user_ms, sys_ms,\n"
        "max_rss_kib (wait4: the largest single process), tree_rss_peak_kib (the\n"
        "process tree summed, sampled from /proc), the exit code, and every\n"
        "'rundown:metric NAME=VALUE [UNIT]' line the command prints on stdout.\n"
        "Several commands are run interleaved (A B C A B C ...) and told apart by\n"
        "a 'command' label.\n"
        "\n"
        "  -n, --runs N          measured runs per command (default 10)\n"
        "  -W, --warmup N        warmup runs per command, stored as phase warmup (default 0)\n"
        "  -w, --workload NAME   the workload (default: the first command's program name)\n"
        "  -l, --label KEY=VAL   a config label for every run (repeatable)\n"
        "      --names A,B,...   the 'command' label of each command (default: its text)\n"
        "      --better NAME=DIR the better direction (lower or higher) of metric NAME,\n"
        "                        stored as info.metric_better (repeatable)\n"
        "  -s, --suite NAME      the suite the runs belong to\n"
        "  -o, --output STORE    append to STORE (default: standard output)\n"
        "      --resume          top each command up to RUNS measured runs in STORE\n"
        "                        (counting those stored already, of any status)\n"
        "                        instead of adding RUNS more\n"
        "      --timeout SEC     stop a run after SEC seconds (SIGTERM, then SIGKILL\n"
        "                        to its process group); status timeout\n"
        "      --shell           run each command with /bin/sh -c (default: no shell)\n"
        "      --prepare CMD     run CMD (sh -c) before each run, untimed\n"
        "      --cleanup CMD     run CMD (sh -c) after each run, untimed\n"
        "      --cpus LIST       pin the command to CPUs, e.g. 0 or 0-1,3\n"
        "      --sample-interval MS  sample the process tree's memory every MS ms\n"
        "                        (default 20; 0: do not sample)\n"
        "      --log-dir DIR     keep each run's stdout/stderr (1 MiB each) under DIR\n"
        "                        (default: 'logs' next to STORE; none without -o)\n"
        "      --env ID          the environment id the runs point to (default: the\n"
        "                        machine's, written as env-ID.json next to STORE)\n"
        RD_TOOL_CONTENTION_USAGE
        "                        A contended measured run is stored (\"contended\":\n"
        "                        true) and its command gets one more run, at most\n"
        "                        RUNS more.\n"
        "  -q, --quiet           no progress line and no summary\n"
        "      --export-markdown FILE  the summary as a Markdown table\n"
        "      --export-json FILE      the summary as rundown.run-summary/1 JSON\n"
        "\n"
        "On a terminal a progress line shows the runs done, the time left and the\n"
        "current mean. At the end a summary gives each command's time (mean ± sd,\n"
        "min … max, user and system), its peak memory (the process tree's when\n"
        "sampled), and how much faster the fastest command ran than each other one,\n"
        "with the interval and adjusted p of the report's verdicts. It goes to\n"
        "standard output with -o, else to standard error.\n"
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
    long runs, warmups, sample_ms;
    double timeout;
    bool shell, resume;
    const char *output, *prepare, *cleanup, *cpus, *log_dir, *env;
    const char *export_markdown, *export_json;
    bool quiet;
    char *names;
    struct rd_run_facts facts;
    struct rd_contention_opts contention;
};

/* What the session's reports need to print a run's name and progress. */
struct run_ui {
    const struct run_cmd *cmds;
    const char *workload;
    bool progress;      /* a progress line is shown on stderr */
    bool color;         /* NO_COLOR is unset or empty */
    long runs;          /* measured runs per command */
    struct rd_run_tally *tallies;  /* one per command */
    struct timespec start;
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* "node -e 1  [#####     ] 5/10  mean 41.2 ms  ETA 3 s": the command's
 * measured runs, the whole session's time left from its pace so far. */
static void progress_line(const struct run_ui *ui, const struct rd_session_event *ev,
                          const char *name)
{
    const struct rd_run_tally *t = &ui->tallies[ev->config->index];
    long done = ev->config->stored[RD_PHASE_MEASURE];
    int filled = ui->runs ? (int)(20 * done / ui->runs) : 0;
    char bar[21], mean[32] = "-", eta[32] = "";
    memset(bar, '#', (size_t)filled);
    memset(bar + filled, ' ', (size_t)(20 - filled));
    bar[20] = '\0';
    if (t->n)
        rd_format_ms(t->mean, mean, sizeof mean);
    if (ev->step > 0)
        snprintf(eta, sizeof eta, "  ETA %.0f s",
                 seconds_since(&ui->start) / (double)ev->step * (double)(ev->steps - ev->step));
    fprintf(stderr, "\r\033[K%s  %s[%s]%s %ld/%ld  mean %s%s%s", name,
            ui->color ? "\033[36m" : "", bar, ui->color ? "\033[0m" : "", done, ui->runs,
            mean, eta, strcmp(ev->rec->phase, "warmup") ? "" : "  (warmup)");
}

static char *join_argv(char **argv, int n)
{
    struct rd_buf b = RD_BUF_INIT;
    if (rd_argv_join(argv, (size_t)n, &b)) {
        rd_buf_release(&b);
        return NULL;
    }
    return rd_buf_detach(&b, NULL);
}

/*
 * Command rc from its operands: one command string (lists false), split
 * into words unless 'shell', or an argv list of n words. Its text is what
 * was typed, the label and the record's info say it so. An exit code.
 */
static int command_from_operands(struct run_cmd *rc, char **words, int n, bool lists,
                                 bool shell)
{
    rc->text = lists ? join_argv(words, n) : strdup(words[0]);
    if (!rc->text)
        return rd_fail(RD_ERR_NOMEM, NULL);
    if (shell) {
        rc->argv = calloc(4, sizeof *rc->argv);
        if (!rc->argv)
            return rd_fail(RD_ERR_NOMEM, NULL);
        rc->argv[0] = "/bin/sh";
        rc->argv[1] = "-c";
        rc->argv[2] = rc->text;
        return RD_EXIT_OK;
    }
    if (lists) {
        rc->argv = calloc((size_t)n + 1, sizeof *rc->argv);
        if (!rc->argv)
            return rd_fail(RD_ERR_NOMEM, NULL);
        memcpy(rc->argv, words, (size_t)n * sizeof *words);
    } else {
        struct rd_diag d;
        rd_diag_init(&d, NULL);
        size_t nwords;
        rd_status st = rd_command_split(rc->text, &rc->argv, &nwords, &d);
        if (st == RD_ERR_USAGE)
            return rd_usage_error("in '%s': %s", rc->text, d.msg);
        if (st)
            return rd_fail(st, &d);
    }
    char path[4096];
    if (rd_which(rc->argv[0], path, sizeof path))
        return RD_EXIT_OK;
    if (lists && n == 1 && strpbrk(words[0], " \t"))
        return rd_usage_error("command not found: '%s' (after '--' each word is one "
                              "argument; without '--' each argument is a whole command)",
                              rc->argv[0]);
    return rd_usage_error("command not found: '%s'", rc->argv[0]);
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
 * or lost metric lines (malformed, or past the cap on names). */
static void report(void *vui, const struct rd_session_event *ev)
{
    const struct run_ui *ui = vui;
    const struct rd_record *r = ev->rec;
    if (ev->kind == RD_SESSION_NOTE) {
        rd_warn("%s", ev->note);
        return;
    }
    const struct run_cmd *rc = &ui->cmds[ev->config->index];
    const char *name = rc->name ? rc->name : ui->workload;
    if (ev->kind == RD_SESSION_STARTING) {
        if (ui->progress && r)
            progress_line(ui, ev, rc->name ? rc->name : rc->text);
        return;
    }
    rd_run_tally_add(&ui->tallies[ev->config->index], r);
    if (strcmp(r->status, "ok") != 0) {
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_warn("%s %s %ld: %s: %s", name, r->phase, r->run, r->status,
                rd_record_info(r, "error") ? rd_record_info(r, "error") : "");
    }
    if (rd_record_info(r, "bad_metric_lines") || rd_record_info(r, "dropped_metric_lines")) {
        char run[400];
        snprintf(run, sizeof run, "%s %s %ld", name, r->phase, r->run);
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_tool_warn_metric_lines(run, r);
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

/* The summary and its exports once every run is done; an exit code
 * (exit_code, unless an export fails). */
static int finish(const struct run_opts *o, const struct rd_run_tally *tallies, size_t n,
                  int exit_code)
{
    struct rd_run_summary sum;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status st = rd_run_summary_compute(&sum, tallies, n);
    if (st)
        return rd_fail(st, &d);
    if (!o->quiet) {
        FILE *out = o->output && strcmp(o->output, "-") ? stdout : stderr;
        rd_run_summary_print(&sum, out);
        /* A summary lost to a full disk or a closed pipe is an output that
         * failed, as a failed --export-json is. */
        if (fflush(out) != 0 || ferror(out)) {
            int e = errno;
            return rd_fail(rd_diag_set(&d, RD_ERR_IO, NULL, 0, 0,
                                       "could not write the summary to %s: %s",
                                       out == stdout ? "standard output" : "standard error",
                                       strerror(e ? e : EIO)),
                           &d);
        }
    }
    if (o->export_markdown && (st = rd_run_summary_export_markdown(&sum, o->export_markdown, &d)))
        return rd_fail(st, &d);
    if (o->export_json && (st = rd_run_summary_export_json(&sum, o->export_json, &d)))
        return rd_fail(st, &d);
    return exit_code;
}

int rd_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"runs", required_argument, NULL, 'n'},
        {"warmup", required_argument, NULL, 'W'},
        RD_TOOL_FACT_OPTIONS,
        RD_TOOL_CONTENTION_OPTIONS,
        {"timeout", required_argument, NULL, 'T'},
        {"shell", no_argument, NULL, 'S'},
        {"prepare", required_argument, NULL, 'P'},
        {"cleanup", required_argument, NULL, 'C'},
        {"cpus", required_argument, NULL, 'c'},
        {"log-dir", required_argument, NULL, 'L'},
        {"env", required_argument, NULL, 'E'},
        {"names", required_argument, NULL, 'N'},
        {"sample-interval", required_argument, NULL, 'I'},
        {"resume", no_argument, NULL, 'r'},
        {"quiet", no_argument, NULL, 'q'},
        {"export-markdown", required_argument, NULL, 'M'},
        {"export-json", required_argument, NULL, 'J'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct run_opts o = {.runs = 10};
    rd_run_facts_init(&o.facts);
    rd_contention_defaults(&o.contention);
    int c, took;
    optind = 1;
    /* '+': stop at the first non-option, so `run -- ls -l` runs `ls -l`. */
    const char *last_arg = NULL;
    while ((c = getopt_long(argc, argv, "+n:W:w:l:s:o:qh", longopts, NULL)) != -1) {
        last_arg = optarg;
        if ((took = rd_tool_fact_option(c, optarg, &o.facts, &o.output)) >= 0 ||
            (took = rd_tool_contention_option(c, optarg, &o.contention)) >= 0) {
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
        case 'r': o.resume = true; break;
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
        case 'I':
            if (parse_count(optarg, "--sample-interval", 0, &o.sample_ms))
                return RD_EXIT_USAGE;
            if (o.sample_ms == 0)
                o.sample_ms = -1;
            break;
        case 'q': o.quiet = true; break;
        case 'M': o.export_markdown = optarg; break;
        case 'J': o.export_json = optarg; break;
        case 'h': usage(stdout); return RD_EXIT_OK;
        default: return rd_usage_error("invalid option");
        }
    }
    /* Any '--' makes the operands argv lists, for exact arguments; without
     * one each operand is a whole command, as hyperfine users type it.
     * getopt takes a '--' right after the options: one that was no option's
     * argument counts too. */
    bool lists = optind > 1 && argv[optind - 1] != last_arg && strcmp(argv[optind - 1], "--") == 0;
    if (optind < argc && strcmp(argv[optind], "--") == 0)
        lists = true, optind++;
    if (optind >= argc)
        return rd_usage_error("run needs a command: rundown-collect run [OPTIONS] 'CMD ARG...'");
    if (o.resume && (!o.output || strcmp(o.output, "-") == 0))
        return rd_usage_error("--resume needs -o STORE: the runs to top up are counted there");
    for (int i = optind; i < argc; i++)
        lists = lists || strcmp(argv[i], "--") == 0;

    struct run_cmd cmds[MAX_COMMANDS];
    struct rd_timed_command timed[MAX_COMMANDS];
    size_t ncmds = 0;
    char *derived = NULL; /* the workload named after the program */
    int exit_code = RD_EXIT_OK;
    struct rd_session session;
    rd_session_init(&session, o.output);
    for (int i = optind; i < argc;) {
        int j = lists ? i : i + 1;
        while (lists && j < argc && strcmp(argv[j], "--") != 0)
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
        if ((exit_code = command_from_operands(rc, argv + i, j - i, lists, o.shell)))
            goto done;
        i = lists && j < argc ? j + 1 : j;
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

    /* -w NAME is kept whole, as import -w keeps it: a cut name would merge
     * two workloads that share their first bytes into one series. */
    if (!o.facts.workload) {
        /* The program's name as typed: the first word, under --shell too. */
        const char *text = o.shell ? cmds[0].text : cmds[0].argv[0];
        char *first = strndup(text, o.shell ? strcspn(text, " \t") : strlen(text));
        derived = first ? strdup(basename(first)) : NULL;
        free(first);
        if (!derived) {
            exit_code = rd_fail(RD_ERR_NOMEM, NULL);
            goto done;
        }
        o.facts.workload = derived;
    }
    const char *workload = o.facts.workload;

    /* The version of every program measured, asked once per program. */
    struct rd_env_probe probes[MAX_COMMANDS];
    struct rd_env_program *programs = calloc(ncmds, sizeof *programs);
    if (!programs) {
        exit_code = rd_fail(RD_ERR_NOMEM, NULL);
        goto done;
    }
    for (size_t k = 0; k < ncmds; k++)
        rd_env_probe_program(&probes[k], "runtime", o.shell ? cmds[k].text : cmds[k].argv[0],
                             o.shell, &programs[k]);
    struct rd_outputs outs;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    /* Before any child starts (a version probe, --prepare), so that a
     * signal stops it too. */
    rd_proc_catch_signals();
    rd_status st = rd_env_prepare_outputs(session.store, o.log_dir, o.env, probes, ncmds,
                                          o.cpus, &outs, &d);
    free(programs);
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

    struct rd_run_tally tallies[MAX_COMMANDS];
    for (size_t k = 0; k < ncmds; k++)
        rd_run_tally_init(&tallies[k], cmds[k].name ? cmds[k].name : cmds[k].text);
    const char *no_color = getenv("NO_COLOR");
    struct run_ui ui = {
        .cmds = cmds, .workload = workload, .progress = !o.quiet && isatty(STDERR_FILENO),
        .color = !no_color || !*no_color, .runs = o.runs, .tallies = tallies,
    };
    clock_gettime(CLOCK_MONOTONIC, &ui.start);
    rd_session_on_report(&session, report, &ui);
    struct rd_guard guard;
    rd_guard_init(&guard, &o.contention, NULL);
    rd_guard_on_note(&guard, rd_tool_guard_note, &o.quiet);
    struct rd_timed_spec spec = {
        .cmds = timed, .ncmds = ncmds, .warmups = o.warmups, .runs = o.runs,
        .timeout_s = o.timeout, .prepare = o.prepare, .cleanup = o.cleanup, .cpus = o.cpus,
        .sample_ms = (int)o.sample_ms, .top_up = o.resume, .log_dir = outs.log_dir,
        .log_shown = outs.log_shown,
        .guard = o.contention.mode == RD_CONTENTION_OFF ? NULL : &guard,
    };
    st = rd_timed_runs(&session, &spec, &d);
    if (ui.progress)
        fputs("\r\033[K", stderr);
    if (!o.quiet && spec.guard) {
        rd_tool_guard_summary(&guard);
        if (spec.redone)
            rd_note("contention: %ld contended runs were run again%s", spec.redone,
                    spec.capped ? "; stopped at the cap (as many redos as runs) for a "
                                  "command, so it has fewer quiet runs than asked" : "");
    }
    if (st && rd_proc_interrupted) {
        rd_error("interrupted; %ld finished runs are stored", session.stored);
        exit_code = rd_proc_interrupt_exit_code();
    } else if (st) {
        exit_code = rd_fail(st, &d);
    } else {
        if (o.resume && session.stored == 0)
            rd_note("resume: every command has %ld measured runs in %s already", o.runs,
                    o.output);
        exit_code = finish(&o, tallies, ncmds, session.failed ? RD_EXIT_RUN_FAILED : RD_EXIT_OK);
    }
done:
    for (size_t k = 0; k < ncmds; k++) {
        free(cmds[k].argv);
        free(cmds[k].text);
    }
    free(derived);
    rd_session_release(&session);
    return exit_code;
}
