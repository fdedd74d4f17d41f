/*
 * optable - the option tables of rundown-collect (optable.h). Each option
 * is written here once; its parsing is in cmd_<name>.c.
 */
#include "optable.h"

#include <stddef.h>

#include "importer.h"
#include "rundown/analysis_keys.h"

#define EXIT_RUN "Exit codes: 0 every run ok, 4 a run failed or timed out (all runs are\n" \
                 "stored), 128+N after signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP),\n"  \
                 "1-3 as in every rundown tool."

/* hyperfine's letters with hyperfine's meanings (issue 29): who knows
 * `hyperfine -w 3 -r 20 -N` knows this table. */
/* --contention, --contention-threshold, --contention-wait: the same rows
 * in run, http and suite (contention.h; check takes the threshold alone). */
#define CONTENTION_THRESHOLD_ROW(group)                                               \
    {CO_CONTENTION_THRESHOLD, 0, "contention-threshold", "PCT", "25",                  \
     "other processes' CPU plus the hypervisor's steal, in\n"                         \
     "percent of one CPU, above which a run is contended", group}
#define MIN_SPEED_ROWS(group)                                                          \
    {CO_MIN_SPEED, 0, "min-speed", "PCT", "85",                                        \
     "the CPUs' speed, probed around each run, in percent of\n"                       \
     "the fastest seen, below which a run is contended (a\n"                         \
     "multiply-add and a store-reload chain, each against\n"                         \
     "its own best; RUNDOWN_SPEED_PROBE=off: no probe)", group},                    \
    {CO_MIN_WAKEUP, 0, "min-wakeup", "PCT", "67",                                      \
     "a cross-CPU wake-up (a pipe round trip between two\n"                          \
     "CPUs), probed with the speed, in percent of the\n"                             \
     "fastest seen, below which a run is contended", group}
/* --cache-dir and --no-speed-memory: the same rows in check, run, http and
 * suite (speedmemory.h; options.c parses them for all four). */
#define SPEED_MEMORY_ROWS(group)                                                       \
    {CO_CACHE_DIR, 0, "cache-dir", "DIR",                                              \
     "$XDG_CACHE_HOME/rundown or ~/.cache/rundown",                                   \
     "remember the fastest speed probe reading in\n"                                   \
     "DIR/speed.json, and judge the CPUs by it too (a\n"                               \
     "spell that slows every CPU all along shows only\n"                               \
     "against it); RUNDOWN_SPEED_MEMORY=FILE: that file", group},                     \
    {CO_NO_SPEED_MEMORY, 0, "no-speed-memory", NULL, NULL,                             \
     "judge by this check's or collection's readings\n"                                \
     "alone, remember nothing (RUNDOWN_SPEED_MEMORY=off:\n"                            \
     "the same)", NULL}
#define CONTENTION_ROWS                                                                \
    {CO_CONTENTION, 0, "contention", "MODE", "wait; RUNDOWN_CONTENTION=MODE",          \
     "wait: before each run wait until other processes use\n"                         \
     "less than the threshold; warn: only mark runs taken on\n"                       \
     "a busy machine; off: neither", "Contention"},                                   \
    CONTENTION_THRESHOLD_ROW(NULL),                                                    \
    {CO_CONTENTION_WAIT, 0, "contention-wait", "SEC", "60",                            \
     "the longest wait for quiet before a run; then the run\n"                        \
     "is taken and marked contended", NULL},                                          \
    MIN_SPEED_ROWS(NULL),                                                              \
    SPEED_MEMORY_ROWS(NULL)

/* Rows run and http (and import, for -o) share. */
#define BETTER_ROW                                                                     \
    {CO_BETTER, 0, "better", "NAME=DIR", NULL,                                         \
     "the better direction (lower or higher) of metric NAME,\n"                         \
     "stored as info.metric_better (repeatable)", NULL}
#define STORE_OUTPUT_ROW(group)                                                        \
    {'o', 'o', "output", "STORE", "standard output", "append to STORE", group}

static const struct rd_opt run_opts[] = {
    {'w', 'w', "warmup", "N", "0", "warmup runs per command, stored as phase warmup", "Runs"},
    {'r', 'r', "runs", "N", "10", "measured runs per command", NULL},
    {'m', 'm', "min-runs", "N", NULL, "at least N measured runs (with the default --runs)",
     NULL},
    {'M', 'M', "max-runs", "N", NULL, "at most N measured runs (with the default --runs)", NULL},
    {CO_RESUME, 0, "resume", NULL, NULL,
     "top each command up to RUNS measured runs in STORE\n"
     "(counting those stored already, of any status)\n"
     "instead of adding RUNS more", NULL},
    {'N', 'N', NULL, NULL, NULL, "no shell: --shell=none (the default)", NULL},
    {'S', 'S', "shell", "SHELL", "none",
     "run each command with SHELL -c; 'none': split it\n"
     "into words and run it without a shell", NULL},
    {'i', 'i', "ignore-failure", NULL, NULL,
     "a non-zero exit is stored with its code and status ok", NULL},
    {CO_TIMEOUT, 0, "timeout", "SEC", NULL,
     "stop a run after SEC seconds (SIGTERM, then SIGKILL\n"
     "to its process group); status timeout",
     NULL},
    {'L', 'L', "parameter-list", "VAR", NULL,
     "-L VAR a,b,c: run each command once per value, {VAR}\n"
     "in it replaced, labelled VAR=value (repeatable: every\n"
     "combination; all interleaved)", "Parameters"},
    {'P', 'P', "parameter-scan", "VAR", NULL,
     "-P VAR MIN MAX: the values MIN, MIN + STEP, ... MAX", NULL},
    {'D', 'D', "parameter-step-size", "STEP", "1", "the STEP of -P", NULL},
    {'s', 's', "setup", "CMD", NULL, "run CMD (sh -c) once before each command's runs",
     "Around the runs"},
    {'p', 'p', "prepare", "CMD", NULL, "run CMD (sh -c) before each run, untimed", NULL},
    {'C', 'C', "conclude", "CMD", NULL, "run CMD (sh -c) after each run, untimed", NULL},
    {'c', 'c', "cleanup", "CMD", NULL, "run CMD (sh -c) once after each command's runs", NULL},
    {CO_CPUS, 0, "cpus", "LIST", NULL, "pin the command to CPUs, e.g. 0 or 0-1,3", NULL},
    {CO_SAMPLE, 0, "sample-interval", "MS", "20",
     "sample the process tree's memory every MS ms\n"
     "(0: do not sample)", NULL},
    {CO_WORKLOAD, 0, "workload", "NAME", "the first command's program name", "the workload",
     "Facts of the runs"},
    {'n', 'n', "command-name", "NAME", "its text",
     "the 'command' label of the next command (repeatable)", NULL},
    {CO_NAMES, 0, "names", "A,B,...", "its text",
     "the 'command' label of each command, all at once", NULL},
    {'l', 'l', "label", "KEY=VAL", NULL, "a config label for every run (repeatable)", NULL},
    BETTER_ROW,
    {CO_SUITE, 0, "suite", "NAME", NULL, "the suite the runs belong to", NULL},
    {CO_ENV, 0, "env", "ID", "the machine's, as env-ID.json next to STORE",
     "the environment id the runs point to", NULL},
    CONTENTION_ROWS,
    STORE_OUTPUT_ROW("Output"),
    {CO_LOG_DIR, 0, "log-dir", "DIR", "'logs' next to STORE; none without -o",
     "keep each run's stdout/stderr (1 MiB each) under DIR", NULL},
    {'q', 'q', "quiet", NULL, NULL, "no progress line and no summary", NULL},
    {CO_SHOW_OUTPUT, 0, "show-output", NULL, NULL,
     "copy each run's stdout and stderr to standard error\n"
     "as it comes (no progress line); the logs keep it too", NULL},
    {CO_REFERENCE, 0, "reference", "CMD", "the fastest",
     "compare every command with CMD in the summary: one\n"
     "of the commands (its text or -n name), else run as\n"
     "one more command, first", NULL},
    {CO_EXPORT_MD, 0, "export-markdown", "FILE", NULL,
     "the summary as hyperfine's Markdown table (the\n"
     "relative column with its interval)", NULL},
    {CO_EXPORT_JSON, 0, "export-json", "FILE", NULL,
     "the summary and every run's time and exit code in\n"
     "hyperfine's JSON layout (seconds), so its scripts\n"
     "read it", NULL},
    {CO_EXPORT_CSV, 0, "export-csv", "FILE", NULL,
     "the summary in hyperfine's CSV layout (seconds)", NULL},
    /* Hidden: the letter of an option that moved, for a clear message. */
    {CO_OLD_W, 'W', NULL, "N", NULL, NULL, NULL},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

const struct rd_cmd_spec rd_collect_spec_run = {
    .tool = "rundown-collect",
    .command = "run",
    .synopsis = "[OPTIONS] 'CMD ARG...' ['CMD2 ARG...']...\n"
                "[OPTIONS] -- CMD [ARG...] [-- CMD2 [ARG...]]...",
    .about =
        "Each argument is one command, split into words as sh would split it\n"
        "(quotes and backslashes respected) but run without a shell; with -S SHELL\n"
        "it is run by SHELL -c. After '--', each word is one argument and '--'\n"
        "separates the commands. The options are hyperfine's, with hyperfine's\n"
        "meanings, before or after the commands (up to a '--'); the workload is\n"
        "--workload.\n"
        "\n"
        "Runs each command RUNS times (after WARMUP warmup runs) and stores one\n"
        RD_RUN_SCHEMA " record per run: wall_ms (CLOCK_MONOTONIC), user_ms, sys_ms,\n"
        "max_rss_kib (wait4: the largest single process), tree_rss_peak_kib (the\n"
        "process tree summed, sampled from /proc), the exit code, and every\n"
        "'rundown:metric NAME=VALUE [UNIT]' line the command prints on stdout.\n"
        "Several commands are run interleaved (A B C A B C ...); each command's runs\n"
        "carry a 'command' label (its text, or -n NAME), so that runs of different\n"
        "commands never fall into one config.\n"
        "\n"
        "On a terminal a progress line shows the runs done, the time left and the\n"
        "current mean. At the end a summary gives each command's time (mean ± sd,\n"
        "min … max, user and system), its peak memory (the process tree's when\n"
        "sampled), and how much faster the fastest command ran than each other one,\n"
        "with the interval and adjusted p of the report's verdicts. It goes to\n"
        "standard output with -o, else to standard error.",
    .epilog = EXIT_RUN,
    /* options after the commands too, as hyperfine takes them */
    .order = RD_OPTS_IN_PLACE,
    .opts = run_opts,
};

static const struct rd_opt import_opts[] = {
    {'t', 't', "tool", "TOOL", "detected from the content", "the format (see formats below)",
     NULL},
    {'v', 'v', "verbose", NULL, NULL, "say which format was detected for each file", NULL},
    {'w', 'w', "workload", "NAME", NULL, "the workload the runs belong to (required)", NULL},
    {'l', 'l', "label", "KEY=VAL", NULL, "a config label (repeatable), e.g. -l runtime=bun",
     NULL},
    {'s', 's', "suite", "NAME", NULL, "the suite the runs belong to", NULL},
    {'e', 'e', "env", "FILE|ID", NULL,
     "the environment the runs point to: an environment\n"
     "file (copied next to STORE as ID.json), or the id of\n"
     "one next to STORE; without -e the runs record that\n"
     "their environment is unknown", NULL},
    {CO_PHASE, 0, "phase", "PHASE", "measure", "measure or warmup", NULL},
    {'r', 'r', "run", "N", "after the runs already in STORE with the same workload and config",
     "number the first run N", NULL},
    STORE_OUTPUT_ROW(NULL),
    {'q', 'q', "quiet", NULL, NULL,
     "say nothing on success (else one line per FILE: the runs,\n"
     "the tool, the workload and the configs)", NULL},
    {CO_ALLOW_DUP, 0, "allow-duplicate", NULL, NULL,
     "import a run whose bytes STORE holds already (by\n"
     "default refused: it would count one run twice)", NULL},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

static void import_formats(FILE *out)
{
    size_t n;
    const struct rd_importer *const *list = rd_importers(&n);
    fprintf(out, "\nformats:\n");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-11s %s\n", list[i]->name, list[i]->description);
}

const struct rd_cmd_spec rd_collect_spec_import = {
    .tool = "rundown-collect",
    .command = "import",
    .synopsis = "[OPTIONS] -w WORKLOAD FILE|-...",
    .about = "Reads each FILE ('-' is standard input) as the output of a load tool or of\n"
             "hyperfine and writes one " RD_RUN_SCHEMA " record per run it holds.",
    .order = RD_OPTS_PERMUTE,
    .opts = import_opts,
    .more_help = import_formats,
};

static const struct rd_opt http_opts[] = {
    {CO_SERVER, 0, "server", "CMD", NULL, "the server under test (required)", "Server"},
    {CO_URL, 0, "url", "URL", NULL, "http://HOST:PORT/PATH the load targets (required)", NULL},
    {CO_READY_URL, 0, "ready-url", "URL", "--url", "polled until it answers", NULL},
    {CO_READY_TIMEOUT, 0, "ready-timeout", "SEC", "30",
     "how long the server may take to answer", NULL},
    {CO_STOP_TIMEOUT, 0, "stop-timeout", "SEC", "5", "SIGTERM to SIGKILL delay when stopping",
     NULL},
    {CO_SHELL, 0, "shell", NULL, NULL,
     "run CMD with /bin/sh -c (default: split at blanks)", NULL},
    {CO_FRESH, 0, "fresh-server", NULL, NULL, "start a new server for every measured run",
     NULL},
    {CO_SERVER_CPUS, 0, "server-cpus", "LIST", NULL, "pin the server (e.g. 0)", NULL},
    {'n', 'n', "runs", "N", "5", "measured load runs", "Load"},
    {'W', 'W', "warmup", "N", "0", "load runs stored as phase warmup first", NULL},
    {CO_WARMUP_LOAD, 0, "warmup-load", "SEC", NULL,
     "seconds of built-in GET traffic before any load run", NULL},
    {CO_TIMEOUT, 0, "timeout", "SEC", NULL, "stop a load run after SEC seconds (status timeout)",
     NULL},
    {CO_LOAD_CPUS, 0, "load-cpus", "LIST", NULL, "pin the load tool", NULL},
    {CO_BACKGROUND, 0, "background", "CMD", NULL,
     "run CMD alongside each load run (mixed load); its\n"
     "rundown:metric lines and background_wall_ms are stored", NULL},
    {CO_BACKGROUND_CPUS, 0, "background-cpus", "LIST", NULL, "pin the background command",
     NULL},
    {'t', 't', "tool", "TOOL", "detected",
     "the load tool's importer (wrk, hey, ab, autocannon, ...)", NULL},
    {'w', 'w', "workload", "NAME", "http", "the workload", "Facts of the runs"},
    {'l', 'l', "label", "KEY=VAL", NULL, "a config label (repeatable)", NULL},
    BETTER_ROW,
    {'s', 's', "suite", "NAME", NULL, "the suite the runs belong to", NULL},
    {CO_ENV, 0, "env", "ID", "captured, next to STORE", "the environment id", NULL},
    CONTENTION_ROWS,
    STORE_OUTPUT_ROW("Output"),
    {CO_LOG_DIR, 0, "log-dir", "DIR", "'logs' next to STORE", "keep outputs under DIR", NULL},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

const struct rd_cmd_spec rd_collect_spec_http = {
    .tool = "rundown-collect",
    .command = "http",
    .synopsis = "--server CMD --url URL [OPTIONS] -- LOADCMD [ARG...]",
    .about =
        "Starts CMD (split at blanks; with --shell run by /bin/sh -c) in its own\n"
        "process group, waits until URL answers an HTTP GET, then runs LOADCMD RUNS\n"
        "times and reads each output with the importer of TOOL (default: detected).\n"
        "During each run the server's whole process tree is sampled from /proc every\n"
        "20 ms: server_rss_peak_kib, server_rss_mean_kib, server_cpu_pct.",
    .epilog = "Exit codes: 0 ok, 4 a run failed (server crash, load errors; runs are\n"
              "stored), 128+N after signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP),\n"
              "1-3 as in every rundown tool.",
    .order = RD_OPTS_STOP,
    .opts = http_opts,
};

static const struct rd_opt suite_opts[] = {
    {'o', 'o', "output", "DIR", ".", "where the store, environment and logs go", NULL},
    {CO_RESUME, 0, "resume", NULL, NULL,
     "skip runs already in the store (suite, workload,\nconfig, run, phase)", NULL},
    {CO_RESUME_FROM, 0, "resume-from", "STORE", NULL,
     "with --resume, skip the runs in STORE too (an\n"
     "earlier attempt of the same shard on another machine)", NULL},
    {CO_ONLY, 0, "only", "PATTERN", NULL,
     "only workloads or workload/config-id matching the\n"
     "shell pattern, e.g. 'cpu-*' or '*runtime=bun*'", NULL},
    {CO_SHARD, 0, "shard", "I/N", NULL, "only every N-th measured run, starting with the I-th",
     NULL},
    {CO_SEED, 0, "seed", "N", NULL,
     "the seed of order \"random\" (overrides the file's):\n"
     "every shard of one collection must plan with one seed", NULL},
    {CO_BUDGET, 0, "budget", "TIME", NULL,
     "start no round after TIME (45m, 90s, 1.5h); rounds of\n"
     "workloads with \"until\": \"settled\" go where the\n"
     "answer is furthest from settled per second of runs", NULL},
    {CO_DRY_RUN, 0, "dry-run", NULL, NULL,
     "check and print the plan and its minimum and maximum\n"
     "time (from the runs in the store); run nothing", NULL},
    CONTENTION_ROWS,
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

const struct rd_cmd_spec rd_collect_spec_suite = {
    .tool = "rundown-collect",
    .command = "suite",
    .synopsis = "[--resume [--resume-from STORE]...] [--only PATTERN] [--shard I/N]\n"
                " [--seed N] [--budget TIME] [--dry-run] [-o DIR] SUITE.json",
    .about = "Runs the experiment described by SUITE.json (" RD_SUITE_SCHEMA ", see\n"
             "suite.md in the documentation): checks it completely, records the environment\n"
             "in DIR/env-ID.json, and appends one record per run to DIR/<suite>.jsonl,\n"
             "fsynced as each run ends. Logs go to DIR/logs/.",
    .epilog = "Exit codes: 0 every run ok, 1 invalid suite, 3 system error (port in use),\n"
              "4 a run failed or timed out (all runs are stored), 128+N after signal N\n"
              "(130 SIGINT, 143 SIGTERM, 129 SIGHUP).",
    .order = RD_OPTS_PERMUTE,
    .opts = suite_opts,
};

static const struct rd_opt slurm_opts[] = {
    {'o', 'o', "output", "DIR", NULL, "the collection's folder (required)", NULL},
    {CO_TASKS, 0, "tasks", "N", "the nodes of the partition, at most the plan's measured runs",
     "array tasks, one shard each; with fewer nodes than\ntasks, N%NODES run at once", NULL},
    {CO_PARTITION, 0, "partition", "P", "the cluster's default one", "the partition", NULL},
    {CO_TIME, 0, "time", "T", NULL,
     "each task's time limit, as sbatch reads it (90, 1:30:00,\n"
     "2-0); no more than the partition allows", NULL},
    {CO_ACCOUNT, 0, "account", "A", NULL, "the account the jobs are charged to", NULL},
    {CO_NO_CHECK, 0, "no-check", NULL, NULL,
     "leave out `rundown-collect check` before each task", NULL},
    {CO_RESUME, 0, "resume", NULL, NULL,
     "DIR holds an earlier collection of this suite: queue\n"
     "only the tasks with runs missing, then the merge", NULL},
    {CO_SUBMIT, 0, "submit", NULL, NULL, "submit the jobs with sbatch", NULL},
    {CO_DRY_RUN, 0, "dry-run", NULL, NULL, "print the scripts and the sbatch lines; write nothing",
     NULL},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

const struct rd_cmd_spec rd_collect_spec_slurm = {
    .tool = "rundown-collect",
    .command = "slurm",
    .synopsis = "SUITE.json -o DIR [--tasks N] [--partition P] [--time T] [--account A]\n"
                " [--no-check] [--resume] [--submit | --dry-run]",
    .about = "Runs the suite as a Slurm job array (cluster.md in the documentation): task I\n"
             "of N runs `suite --shard I/N` on a node of its own (--exclusive) into\n"
             "DIR/shards/task<I>.<host>/, and a job that starts once every task has\n"
             "ended well (afterok) analyses all the shards and renders DIR/report/.\n"
             "Writes the job scripts DIR/slurm/tasks.sh and merge.sh and prints how to\n"
             "submit them; --submit submits them with sbatch. DIR must be on a file\n"
             "system every node sees.",
    .epilog = "Exit codes: 0 ok, 1 invalid suite or a DIR of another collection, 2 usage\n"
              "(and options Slurm would refuse), 3 system error (sbatch failed).",
    .order = RD_OPTS_PERMUTE,
    .opts = slurm_opts,
};

static const struct rd_opt env_opts[] = {
    {'o', 'o', "output", "FILE", "standard output", "write FILE", NULL},
    {'s', 's', "suite", "SUITE", "the known load tools found on PATH",
     "the runtimes and load tools of this suite", NULL},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

const struct rd_cmd_spec rd_collect_spec_env = {
    .tool = "rundown-collect",
    .command = "env",
    .synopsis = "[-o FILE] [--suite SUITE.json]",
    .about = "Writes this machine's environment (" RD_ENV_SCHEMA ", see environment.md in\n"
             "the documentation): CPU, cores, memory, kernel, OS, governor and turbo where\n"
             "readable, load average, container hint, CPU affinity, and the versions of\n"
             "runtimes and load tools, found by running them (10 s timeout each).",
    .order = RD_OPTS_PERMUTE,
    .opts = env_opts,
};

static const struct rd_opt check_opts[] = {
    CONTENTION_THRESHOLD_ROW(NULL),
    MIN_SPEED_ROWS(NULL),
    {CO_WINDOW, 0, "window", "SEC", "1", "how long to watch the load and probe the\n"
     "CPUs' speed (every 0.25 s)", NULL},
    {CO_JSON, 0, "json", NULL, NULL, "the check as JSON (the environment's \"check\")", NULL},
    SPEED_MEMORY_ROWS("Remembered speed"),
    {CO_FORGET_SPEED, 0, "forget-speed", NULL, NULL,
     "forget the remembered best first (after a change of\n"
     "hardware); this window's best is remembered instead", NULL},
    /* Hidden, for tests: read these instead of /proc and /sys. */
    {CO_PROC_ROOT, 0, "proc-root", "DIR", NULL, NULL, NULL},
    {CO_SYS_ROOT, 0, "sys-root", "DIR", NULL, NULL, NULL},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

const struct rd_cmd_spec rd_collect_spec_check = {
    .tool = "rundown-collect",
    .command = "check",
    .synopsis = "[--contention-threshold PCT] [--min-speed PCT] [--min-wakeup PCT] [--window SEC]\n"
                "[--json] [--cache-dir DIR | --no-speed-memory] [--forget-speed]",
    .about = "Looks at this machine as a benchmark needs it: the CPUs and whether rundown\n"
             "is pinned, the load average against the CPU count, the CPU other processes\n"
             "use now (over a short window) and the busiest of them, steal and CPU\n"
             "pressure, how steady the CPUs' speed and a cross-CPU wake-up are (timed\n"
             "every 0.25 s), the frequency governor and turbo, ASLR, swap and memory\n"
             "pressure, thermal throttling, and whether this is a container or a VM.\n"
             "Each finding that calls for it says what to do.",
    .epilog = "Exit codes: 0 quiet, 1 busy (other processes, steal or CPU pressure above\n"
              "the threshold, CPUs slower than --min-speed of their best, in the window or\n"
              "remembered, by the multiply-add or the store-reload chain, or wake-ups\n"
              "slower than --min-wakeup of theirs), 2 usage.",
    .order = RD_OPTS_PERMUTE,
    .opts = check_opts,
};

const struct rd_cmd_spec *const *rd_collect_specs(size_t *n)
{
    static const struct rd_cmd_spec *const all[] = {
        &rd_collect_spec_run, &rd_collect_spec_import, &rd_collect_spec_http,
        &rd_collect_spec_suite, &rd_collect_spec_slurm, &rd_collect_spec_env,
        &rd_collect_spec_check,
    };
    *n = sizeof all / sizeof all[0];
    return all;
}
