/*
 * options.h - the command-line options that more than one subcommand of
 * rundown-collect takes: those that give the facts of every run (the
 * template record of a session) and the store.
 */
#ifndef RUNDOWN_TOOL_OPTIONS_H
#define RUNDOWN_TOOL_OPTIONS_H

#include <getopt.h>

#include "contention.h"
#include "session.h"

/** Their rows of a getopt_long table. */
#define RD_TOOL_FACT_OPTIONS                         \
    {"workload", required_argument, NULL, 'w'},      \
    {"label", required_argument, NULL, 'l'},         \
    {"suite", required_argument, NULL, 's'},         \
    {"better", required_argument, NULL, 'b'},        \
    {"output", required_argument, NULL, 'o'}

/** The rows of --contention, --contention-threshold, --contention-wait. */
#define RD_TOOL_CONTENTION_OPTIONS                                     \
    {"contention", required_argument, NULL, RD_OPT_CONTENTION},        \
    {"contention-threshold", required_argument, NULL, RD_OPT_CONTENTION_THRESHOLD}, \
    {"contention-wait", required_argument, NULL, RD_OPT_CONTENTION_WAIT}
enum { RD_OPT_CONTENTION = 0x300, RD_OPT_CONTENTION_THRESHOLD, RD_OPT_CONTENTION_WAIT };

/** Their lines of a usage text. */
#define RD_TOOL_CONTENTION_USAGE                                                         \
    "      --contention MODE wait (default): before each run wait until other\n"       \
    "                        processes use less than the threshold; warn: only\n"     \
    "                        mark runs taken on a busy machine; off: neither\n"        \
    "                        (RUNDOWN_CONTENTION=MODE in the environment, too)\n"      \
    "      --contention-threshold PCT  foreign CPU, in percent of one CPU, above\n"    \
    "                        which a run is contended (default 25)\n"                  \
    "      --contention-wait SEC  the longest wait for quiet before a run (default\n"  \
    "                        60); then the run is taken and marked contended\n"

/**
 * Takes option c when it is one of the contention options: -1 when it is
 * none of them, else an exit code (RD_EXIT_OK, or RD_EXIT_USAGE once the
 * message is printed).
 */
int rd_tool_contention_option(int c, const char *arg, struct rd_contention_opts *o);

/** Prints a guard's note (the busiest processes while it waits) on
 *  stderr, clearing a progress line first; ctx is a bool *: quiet. */
void rd_tool_guard_note(void *ctx, const char *line);

/** "contention: 2 of 40 runs contended; waited 12.3 s for quiet" on
 *  stderr after a collection (nothing when the guard is off). */
void rd_tool_guard_summary(const struct rd_guard *g);

/**
 * Takes option c (with its argument) when it is -w, -l, -s, --better or -o: returns
 * -1 when it is none of them, else an exit code (RD_EXIT_OK, or
 * RD_EXIT_USAGE once the message is printed).
 */
int rd_tool_fact_option(int c, char *arg, struct rd_run_facts *facts, const char **output);

/**
 * Warns on stderr about the metric lines a stored run lost: those that
 * were malformed (info.bad_metric_lines) and those past the cap on names
 * (info.dropped_metric_lines). 'run' names the run ("calc measure 3").
 */
void rd_tool_warn_metric_lines(const char *run, const struct rd_record *rec);

/**
 * Warns, after "<workload> <phase> <run>" (and 'name' first when not
 * NULL), of what a stored run lost: a log that could not be written
 * (info "*_log_error") and server metrics that could not be read (info
 * "server_metrics_error"). The run itself is stored and counts as what its
 * status says: a lost log does not change the exit code.
 */
void rd_tool_warn_losses(const char *name, const struct rd_record *rec);

/**
 * The exit code for a command that stopped with status st: after a signal
 * (rd_proc_interrupted) 128 + the signal, with "interrupted" and 'what'
 * (may be NULL) printed; else rd_fail's.
 */
int rd_tool_fail(rd_status st, const struct rd_diag *d, const char *what);

#endif
