/*
 * cli.h - messages and exit codes for the three front ends (main() only).
 *
 * Messages follow git's rules: lower case, no final full stop, the subject
 * first: "rundown-collect: wrk.txt:7:14: expected a duration like '4.2ms', got 'abc'".
 */
#ifndef RUNDOWN_CLI_H
#define RUNDOWN_CLI_H

#include <stdbool.h>

#include "rundown/status.h"

/** Remembers the program name used as the prefix of every message. */
void rd_cli_init(const char *progname);
const char *rd_cli_name(void);

/**
 * The subcommand being parsed ("run"; NULL for none), so that usage errors
 * send the user to its own --help: "try 'rundown-collect run --help'".
 */
void rd_cli_set_command(const char *command);

/** "prog: msg" on stderr; returns -1 so callers can `return rd_error(...)`. */
int rd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** "prog: warning: msg" on stderr. */
void rd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** "prog: msg" on stderr (an informational note, e.g. under -v). */
void rd_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * Prints a failure: the diag when it holds a message, else rd_strerror(s).
 * Returns the exit code for s (rd_exit_code).
 */
int rd_fail(rd_status s, const struct rd_diag *d);

/**
 * A usage error: "prog: msg" and "try 'prog [command] --help'"; returns
 * RD_EXIT_USAGE.
 */
int rd_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** True when stderr is a terminal and NO_COLOR is unset or empty. */
bool rd_stderr_is_interactive(void);

#endif
