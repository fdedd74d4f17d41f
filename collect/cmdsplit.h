/*
 * cmdsplit.h - a command string split into words as sh would split it,
 * without starting a shell: what `rundown-collect run 'node -e 1'` spawns.
 */
#ifndef RUNDOWN_CMDSPLIT_H
#define RUNDOWN_CMDSPLIT_H

#include <stddef.h>

#include "rundown/status.h"

/**
 * Splits text into words the way sh(1) does before it expands anything:
 * blanks separate words; '...' keeps everything literally; "..." keeps
 * everything but a backslash before $ ` " \ or a newline; outside quotes a
 * backslash keeps the next character (and drops a backslash-newline).
 * What only a shell could do is refused, so it never silently means
 * something else: an unquoted | & ; < > ( ) or a $ or ` outside single
 * quotes is RD_ERR_USAGE, d saying which character and to use -S sh;
 * so are an unclosed quote, a final backslash and a string with no word.
 * On success *argv is one allocation (free it with free()) holding the
 * NULL-terminated words, *argc their number.
 */
rd_status rd_command_split(const char *text, char ***argv, size_t *argc, struct rd_diag *d);

#endif
