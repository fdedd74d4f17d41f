/*
 * escape.h - escaping of input strings for every place the render writes them.
 *
 * Everything that comes from analysis.json (labels, workload names, reasons,
 * messages, environment strings) passes through exactly one of these on its
 * way out. Each function appends to an rd_buf and returns RD_OK or
 * RD_ERR_NOMEM; none of them fails on odd input (invalid UTF-8 is copied
 * through byte for byte, control bytes become spaces).
 */
#ifndef RD_RENDER_ESCAPE_H
#define RD_RENDER_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/buf.h"

/** Where a string ends up; chooses the escaping. */
enum rd_escape {
    RD_ESC_MD = 0,  /* GitHub-flavoured Markdown text, safe inside a table cell */
    RD_ESC_HTML,    /* HTML text or a double- or single-quoted attribute */
    RD_ESC_PLAIN,   /* plain text: control bytes (but newline) become spaces */
    RD_ESC_RAW      /* copied as is: only for text the program composed itself */
};

/** Parses "md", "html", "plain" or "raw"; returns -1 for anything else. */
int rd_escape_parse(const char *name, size_t len);

/**
 * Appends s escaped for 'mode'. For RD_ESC_MD, 'line_start' says whether the
 * text begins a line in the output, where '#', '-', '+', '>', '=' and "1."
 * would start a block, so they are escaped too, and leading blanks (an
 * indented code block) are dropped.
 */
rd_status rd_escape(struct rd_buf *out, const char *s, enum rd_escape mode,
                    bool line_start);

/** rd_escape with RD_ESC_HTML: & < > " ' as entities, control bytes as spaces. */
rd_status rd_escape_html(struct rd_buf *out, const char *s);
/** rd_escape with RD_ESC_MD (see above). */
rd_status rd_escape_md(struct rd_buf *out, const char *s, bool line_start);

/**
 * Appends s as a gnuplot string expression built from single-quoted parts,
 * quotes included. Inside single quotes gnuplot substitutes nothing (no
 * backquote commands, no escapes, no @macros); each quote of s becomes
 * '."\047".' (a double-quoted octal escape joined with '.'), because
 * gnuplot 5.4 misreads runs of doubled quotes ('a''''b') and its @macro
 * expander counts every ' it sees. Newlines and other control bytes become
 * spaces, since a newline would end the command. Usable wherever gnuplot
 * takes a string expression: titles, axis and tic labels, plot titles.
 */
rd_status rd_escape_gnuplot(struct rd_buf *out, const char *s);

/**
 * Appends s as LaTeX text: the ten special characters as their commands
 * (\& \% \$ \# \_ \{ \} \textbackslash{} \textasciitilde{}
 * \textasciicircum{}), and < > | as \textless{} \textgreater{} \textbar{}
 * (other glyphs in the default OT1 encoding), control bytes as spaces; UTF-8 is copied (a LaTeX
 * from 2018 on reads it).
 */
rd_status rd_escape_latex(struct rd_buf *out, const char *s);

/**
 * Appends s as one CSV field (RFC 4180): quoted when it holds a comma, a
 * quote, a newline or a carriage return, quotes doubled. A field that
 * begins with = + - @, a tab or a carriage return is prefixed with an apostrophe inside quotes,
 * so a spreadsheet that opens the file never takes it for a formula.
 */
rd_status rd_escape_csv(struct rd_buf *out, const char *s);

/**
 * Appends a file-name-safe form of s: ASCII letters, digits, '-', '_' and
 * '.' are kept (a leading '.' becomes '_'), runs of anything else become one
 * '_', and the result is cut to 'max' bytes (at least 1). Never produces
 * "", ".", "..", a slash or a leading dot.
 */
rd_status rd_sanitize_filename(struct rd_buf *out, const char *s, size_t max);

/**
 * Appends the GitHub heading anchor of 'text' (lower case; letters, digits,
 * '-', '_' and non-ASCII bytes kept; spaces become '-'; other punctuation
 * dropped), the same rule GitHub and the HTML back end use. A text that
 * leaves nothing ('.') gets "section", so no link points at "#".
 */
rd_status rd_slug(struct rd_buf *out, const char *text);

/**
 * Makes the name in b unique against n strings: the const char * at byte 'offset' of each
 * 'stride'-sized item of 'items'. On a clash "-<first>", "-<first+1>", ...
 * is appended until it is unique (GitHub's anchors count from 1, file
 * stems from 2).
 */
rd_status rd_name_unique(struct rd_buf *b, unsigned first, const void *items, size_t n,
                         size_t stride, size_t offset);

/**
 * Writes an Excel-safe sheet name for s into out (size >= 128): no
 * []:*?/\ or apostrophe characters (each becomes '_'), at most 31
 * characters (UTF-8 aware), never empty. Uniqueness is the caller's job
 * (see rd_sheet_name_unique).
 */
void rd_sheet_name(const char *s, char *out, size_t size);

/**
 * Makes 'name' (from rd_sheet_name) unique against 'used' (nused names,
 * compared case-insensitively as Excel does) by replacing its tail with
 * "~2", "~3", ... while staying within 31 characters.
 */
void rd_sheet_name_unique(char *name, size_t size, char *const *used, size_t nused);

#endif
