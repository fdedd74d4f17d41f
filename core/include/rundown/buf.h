/*
 * buf.h - a growable byte buffer (after git's strbuf, with curl's size cap).
 *
 * Invariants: 'ptr' is never NULL and is always NUL-terminated, so it can be
 * used as a C string at any time; 'len' excludes the NUL. A buffer refuses to
 * grow past 'max' bytes (0 means no cap other than SIZE_MAX), so input that
 * an attacker controls cannot make it exhaust memory.
 */
#ifndef RUNDOWN_BUF_H
#define RUNDOWN_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"
#include "rundown/utf8.h"

struct rd_buf {
    char *ptr;
    size_t len;
    size_t cap;   /* allocated bytes, 0 while ptr points to the static "" */
    size_t max;   /* cap on len, 0 = unlimited */
};

#define RD_BUF_INIT { (char *)rd_buf_empty, 0, 0, 0 }
extern const char rd_buf_empty[1];

/** Initialises an empty buffer that may grow to 'max' bytes (0: no cap). */
void rd_buf_init(struct rd_buf *b, size_t max);
/** Frees the contents; the buffer is left initialised and empty. */
void rd_buf_release(struct rd_buf *b);
/** Empties the buffer, keeping its storage. */
void rd_buf_reset(struct rd_buf *b);
/** Makes room for 'extra' more bytes. RD_ERR_NOMEM past max or on OOM. */
rd_status rd_buf_grow(struct rd_buf *b, size_t extra);
rd_status rd_buf_add(struct rd_buf *b, const void *data, size_t len);
rd_status rd_buf_addstr(struct rd_buf *b, const char *s);
rd_status rd_buf_addch(struct rd_buf *b, char c);
rd_status rd_buf_addf(struct rd_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
rd_status rd_buf_vaddf(struct rd_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/**
 * Appends a JSON string literal (quotes and escapes included). Bytes that
 * are not UTF-8 are written as U+FFFD, so the output is always valid JSON.
 */
rd_status rd_buf_add_json_string(struct rd_buf *b, const char *s);

/** Appends a number in its shortest round-trip form, or null for NaN/inf. */
rd_status rd_buf_add_json_number(struct rd_buf *b, double v);
/**
 * Appends n numbers as rd_buf_add_json_number does, with the character sep
 * between two (none before the first or after the last). On failure
 * (a capped buffer at its cap) the numbers that fitted stay appended.
 */
rd_status rd_buf_add_json_numbers(struct rd_buf *b, const double *v, size_t n, char sep);
/*
 * A writer that remembers its first error, after git's strbuf writers:
 * each call after a failure does nothing, so a back end writes a whole
 * table without a check per call and looks at w->st once at the end.
 *
 *     struct rd_bw w = RD_BW_INIT(&out);
 *     rd_bw_str(&w, "\\toprule\n");
 *     rd_bw_ok(&w, rd_fmt_ratio(w.b, x));   // any rd_status-returning writer
 *     return w.st;
 */
struct rd_bw {
    struct rd_buf *b;
    rd_status st;   /* the first error, RD_OK while there is none */
};

#define RD_BW_INIT(buf) { (buf), RD_OK }

/** Keeps st when it is the writer's first error; true while none is kept. */
static inline bool rd_bw_ok(struct rd_bw *w, rd_status st)
{
    if (w->st == RD_OK)
        w->st = st;
    return w->st == RD_OK;
}

/** Evaluates 'call' (an rd_status expression writing to w->b or elsewhere)
 *  only while w has no error, and keeps its error. */
#define RD_BW_DO(w, call) ((void)((w)->st == RD_OK && rd_bw_ok((w), (call))))

/** rd_buf_addstr, rd_buf_addch and rd_buf_addf through the writer. */
void rd_bw_str(struct rd_bw *w, const char *s);
void rd_bw_ch(struct rd_bw *w, char c);
void rd_bw_f(struct rd_bw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Shortens the buffer to 'len' bytes (no-op when already shorter). */
void rd_buf_truncate(struct rd_buf *b, size_t len);
/**
 * Hands over the storage: the caller owns the returned string and frees it
 * with free(); the buffer is left empty. Never returns NULL except on OOM.
 */
char *rd_buf_detach(struct rd_buf *b, size_t *len);

/**
 * Formats a double in the shortest form that reads back to the same value
 * ("%.15g", then 16, then 17 digits). 'out' needs 32 bytes. NaN and inf are
 * written as "nan", "inf", "-inf". Returns out.
 */
char *rd_fmt_double(double v, char out[32]);
/** rd_fmt_double, returning the length of what it wrote to out. */
size_t rd_fmt_double_len(double v, char out[32]);

/**
 * rd_fmt_double by its definition: "%.16g" read back with strtod, then
 * 15 or 17 digits (rd_fmt_double gets the same bytes from one "%.16e"
 * where 17 digits tell the rounding; this is the reference of its test).
 */
char *rd_fmt_double_search(double v, char out[32]);

#endif
