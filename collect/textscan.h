/*
 * textscan.h - line and token scanning with positions, for the text
 * importers (wrk, wrk2, hey, ab, autocannon text, bombardier text).
 *
 * Tokens are whitespace-separated (tabs and spaces; load tools align columns
 * with both, and wrk's one-letter units carry trailing spaces), so parsers
 * never depend on fixed columns. Every token knows its 1-based line and column
 * so messages can point at it.
 */
#ifndef RUNDOWN_TEXTSCAN_H
#define RUNDOWN_TEXTSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

struct rd_line {
    const char *ptr;  /* start of the line (not NUL-terminated) */
    size_t len;       /* without the '\n' */
    unsigned no;      /* 1-based line number */
};

struct rd_lines {
    const char *data;
    size_t len, pos;
    unsigned no;
};

void rd_lines_init(struct rd_lines *it, const char *data, size_t len);
/** Next line into *line; false at the end. */
bool rd_lines_next(struct rd_lines *it, struct rd_line *line);
/** Looks at the next line without consuming it. */
bool rd_lines_peek(const struct rd_lines *it, struct rd_line *line);

struct rd_token {
    const char *ptr;
    size_t len;
    unsigned col;     /* 1-based column of the first byte */
};

/** Splits a line into at most 'max' tokens; returns how many were found
 *  (may exceed max: the extra ones are not stored). */
size_t rd_tokenize(const struct rd_line *line, struct rd_token *tokens, size_t max);

/** True when the line, after leading blanks, starts with prefix. */
bool rd_line_starts_with(const struct rd_line *line, const char *prefix);
/** True when the line contains needle. */
bool rd_line_contains(const struct rd_line *line, const char *needle);
/** The line with leading and trailing blanks removed. */
struct rd_line rd_line_trim(struct rd_line line);
/** True when the token equals s exactly. */
bool rd_token_is(const struct rd_token *t, const char *s);
/** 1-based column of p within line. */
unsigned rd_line_col(const struct rd_line *line, const char *p);

/**
 * Fills d with "expected <what>, got '<token>'" at the token's position
 * (or "got end of line" for a NULL token) and returns RD_ERR_PARSE.
 */
rd_status rd_expect_fail(struct rd_diag *d, const struct rd_line *line,
                         const struct rd_token *tok, const char *what);

/**
 * The one refusal of a text report that lacks its closing lines
 * (docs/formats.md, "Closing lines"): "the output ends early (truncated?):
 * expected <what>" at the input's last line, RD_ERR_PARSE. A cut report
 * must never become an ok run with the numbers it happened to keep.
 */
rd_status rd_text_ends_early(struct rd_diag *d, const char *path, const char *data,
                             size_t len, const char *what);

/**
 * RD_OK when data ends with a newline (every load tool ends its report with
 * one, so a last line without it was cut, maybe inside a number); else
 * rd_text_ends_early(..., "a newline after the last line").
 */
rd_status rd_text_closed(struct rd_diag *d, const char *path, const char *data, size_t len);

#endif
