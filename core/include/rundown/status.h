/*
 * status.h - status codes, diagnostics and exit codes shared by every module.
 *
 * A library function returns an rd_status and, on failure, fills the
 * struct rd_diag its caller passed (which may be NULL). Libraries never print
 * and never exit; only main() does, through cli.h.
 */
#ifndef RUNDOWN_STATUS_H
#define RUNDOWN_STATUS_H

#include <stdarg.h>
#include <stddef.h>

typedef enum rd_status {
    /** No error. */
    RD_OK = 0,
    /** Memory allocation failed. */
    RD_ERR_NOMEM,
    /** Input could not be read or output could not be written; see rd_diag. */
    RD_ERR_IO,
    /** Input does not match the expected format; see rd_diag. */
    RD_ERR_PARSE,
    /** A numeric routine (GSL) reported failure. */
    RD_ERR_STATS,
    /** The caller passed arguments that make no sense (a usage error). */
    RD_ERR_USAGE,
    /** A benchmarked command failed or timed out (its runs are stored). */
    RD_ERR_RUN_FAILED,
    RD_STATUS_MAX
} rd_status;

/** Exit codes, the same in every tool (DESIGN.md §2). */
enum rd_exit {
    RD_EXIT_OK = 0,
    RD_EXIT_INPUT = 1,      /* invalid input: the message names file:line:col */
    RD_EXIT_USAGE = 2,      /* bad command line */
    RD_EXIT_SYSTEM = 3,     /* system or I/O error */
    RD_EXIT_RUN_FAILED = 4, /* a benchmarked command failed or timed out */
    /* --fail-if-slower fired (docs/compare.md): past DESIGN's 0-4, so a CI
     * job can tell a regression from a failure. */
    RD_EXIT_GATE = 5
};

/**
 * RD_TRY(expr): evaluates an expression of type rd_status and returns it
 * from the enclosing function when it is not RD_OK. The one early-return
 * idiom of rundown: `RD_TRY(rd_buf_addstr(b, "x"));`. Where cleanup is
 * needed, assign the status and jump to the function's one exit instead.
 */
#define RD_TRY(expr)                        \
    do {                                    \
        rd_status rd_try_status_ = (expr); \
        if (rd_try_status_ != RD_OK)        \
            return rd_try_status_;          \
    } while (0)

/** A short English description of a status, never NULL. */
const char *rd_strerror(rd_status s);

/** The exit code a front end returns for a status. */
int rd_exit_code(rd_status s);

/*
 * Where and why input was rejected. 'path' points to a string the caller
 * owns (it must outlive the diag); line and col are 1-based, 0 when not
 * applicable. 'msg' is a lower-case phrase without a final full stop, such as
 * "expected a duration like '4.2ms', got 'abc'".
 */
struct rd_diag {
    const char *path;
    unsigned line, col;
    char msg[512];
};

/** Resets a diag to "no error" with the given path (may be NULL). */
void rd_diag_init(struct rd_diag *d, const char *path);

/**
 * Fills d (when not NULL) with a position and a printf-style message, and
 * returns 'status' so callers can write `return rd_diag_set(d, ...)`.
 * A path of NULL keeps the path already in d.
 */
rd_status rd_diag_set(struct rd_diag *d, rd_status status, const char *path,
                      unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/** Like rd_diag_set with a va_list. */
rd_status rd_diag_vset(struct rd_diag *d, rd_status status, const char *path,
                       unsigned line, unsigned col, const char *fmt,
                       va_list ap) __attribute__((format(printf, 6, 0)));

/**
 * Formats "path:line:col: msg" (omitting the parts that are unknown) into
 * out, at most 'size' bytes including the NUL. Returns out.
 */
char *rd_diag_format(const struct rd_diag *d, char *out, size_t size);

/**
 * Copies at most 'max' bytes of s into out as a quoted excerpt for a
 * message: non-printable bytes become '?', and "..." marks a cut.
 */
void rd_excerpt(const char *s, size_t len, size_t max, char *out, size_t size);

#endif
