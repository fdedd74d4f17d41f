/*
 * rundown-collect - gathers runs into a store: imports load-tool outputs,
 * runs commands and servers under load, runs whole suites, records the
 * environment. This file only dispatches to the subcommands (commands.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "commands.h"
#include "rundown/analysis_keys.h"
#include "rundown/cli.h"
#include "rundown/status.h"

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"import", rd_cmd_import, "read load-tool or hyperfine outputs into run records"},
    {"run", rd_cmd_run, "time commands (interleaved when several), store each run"},
    {"http", rd_cmd_http, "load a server with a load tool, sample its memory and CPU"},
    {"suite", rd_cmd_suite, "run a " RD_SUITE_SCHEMA " experiment (resumable, shardable)"},
    {"slurm", rd_cmd_slurm, "run a suite as a Slurm job array, one shard per task, and merge"},
    {"check", rd_cmd_check, "is this machine quiet enough to measure on? (exit 0 yes, 1 no)"},
    {"env", rd_cmd_env, "describe this machine and the tool versions (" RD_ENV_SCHEMA ")"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rundown-collect COMMAND [OPTIONS] [ARGS]\n"
            "\n"
            "Collect benchmark runs into a store of " RD_RUN_SCHEMA " records (JSONL).\n"
            "\n"
            "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n"
            "'rundown-collect COMMAND --help' shows the options of a command.\n"
            "Exit codes: 0 ok, 1 invalid input, 2 usage, 3 system or I/O error,\n"
            "4 a benchmarked command failed or timed out (its runs are stored).\n");
}

int main(int argc, char **argv)
{
    rd_cli_init("rundown-collect");
    /* A write past `ulimit -f` must fail (EFBIG) so that the store's
     * rollback runs, not kill the process half-way through a record.
     * Children get the default back (proc.c). */
    signal(SIGXFSZ, SIG_IGN);
    /* GSL's default handler aborts the process on a domain error (the
     * studentized range's quantile did at 1.85e7 degrees of freedom): the
     * library guards its calls and reads NaN instead. Process-wide state,
     * so here and never in a library (as in rundown-analyze's main). */
    gsl_set_error_handler_off();
    if (argc < 2)
        return usage(stderr), RD_EXIT_USAGE;
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0)
        return usage(stdout), RD_EXIT_OK;
    if (strcmp(argv[1], "--version") == 0) {
        printf("rundown-collect %s\n", RD_VERSION);
        return RD_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    return rd_usage_error("unknown command '%s'", argv[1]);
}
