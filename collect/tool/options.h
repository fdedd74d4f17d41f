/*
 * options.h - the command-line options that more than one subcommand of
 * rundown-collect takes: those that give the facts of every run (the
 * template record of a session) and the store.
 */
#ifndef RUNDOWN_TOOL_OPTIONS_H
#define RUNDOWN_TOOL_OPTIONS_H

#include "contention.h"
#include "session.h"

/**
 * Takes option c when it is one of the contention options (optable.h's
 * OPT_CONTENTION*): -1 when it is none of them, else an exit code
 * (RD_EXIT_OK, or RD_EXIT_USAGE once the message is printed).
 */
int rd_tool_contention_option(int c, const char *arg, struct rd_contention_opts *o);

/** --cache-dir and --no-speed-memory: the same rows (optable.c's
 *  SPEED_MEMORY_ROWS) and meaning in check, run, http and suite. */
struct rd_tool_speed_memory {
    const char *cache_dir;      /* --cache-dir DIR; NULL: the default */
    bool off;                   /* --no-speed-memory */
};

/**
 * Takes option c when it is --cache-dir or --no-speed-memory: -1 when it
 * is neither, else an exit code (RD_EXIT_OK, or RD_EXIT_USAGE once the
 * message is printed).
 */
int rd_tool_speed_memory_option(int c, const char *arg, struct rd_tool_speed_memory *m);

/**
 * The remembered best's file the options name (rd_speed_memory_path:
 * --cache-dir, else RUNDOWN_SPEED_MEMORY, else the cache folder) into
 * *path, NULL with --no-speed-memory or nowhere to put it; caller frees
 * with free(). RD_EXIT_USAGE, printed, when --no-speed-memory came with
 * --cache-dir (or with 'also', check's --forget-speed: its name); else
 * RD_EXIT_OK.
 */
int rd_tool_speed_memory_path(const struct rd_tool_speed_memory *m, const char *also,
                              char **path);

/** Prints a guard's note (the busiest processes while it waits) on
 *  stderr, clearing a progress line first; ctx is a bool *: quiet. */
void rd_tool_guard_note(void *ctx, const char *line);

/** rd_guard_remember at a collection's end, a warning when it fails. */
void rd_tool_guard_remember(struct rd_guard *g);

/** "contention: 2 of 40 runs contended; waited 12.3 s for quiet" on
 *  stderr after a collection (nothing when the guard is off). */
void rd_tool_guard_summary(const struct rd_guard *g);

/** "contention: 3 contended runs were run again" on stderr when redone,
 *  and that the cap stopped them for a 'unit' ("command", "config"). */
void rd_tool_redo_note(long redone, bool capped, const char *unit);

/**
 * Takes option c (with its argument) when it is -w, -l, -s, --better or -o (optable.h's codes): returns
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
