/*
 * jw.h - a small streaming JSON writer for analysis.json.
 *
 * The analysis document can hold millions of numbers, so it is written
 * straight into a buffer in a fixed key order instead of being built as a
 * tree. Objects and arrays opened with a 'pretty' flag put each member on
 * its own line (2-space indent); the others stay on one line (values,
 * labels). Errors are sticky: check w->st once at the end.
 */
#ifndef RUNDOWN_ANALYZE_JW_H
#define RUNDOWN_ANALYZE_JW_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/buf.h"
#include "rundown/status.h"

#define JW_MAX_DEPTH 32

struct jw {
    struct rd_buf *b;
    rd_status st;
    int depth;
    bool first[JW_MAX_DEPTH];
    bool pretty[JW_MAX_DEPTH];
    /* Optional (NULL after jw_init): takes the text written so far out of
     * b, e.g. to a file, so that a long array is not held whole. */
    rd_status (*spill)(void *ctx, struct rd_buf *b);
    void *spill_ctx;
};

void jw_init(struct jw *w, struct rd_buf *b);
/** Opens an object or array; key is NULL inside arrays and at the top. */
void jw_obj(struct jw *w, const char *key, bool pretty);
void jw_arr(struct jw *w, const char *key, bool pretty);
/** Closes the innermost object or array. */
void jw_end(struct jw *w, char close);
/** A number member; NaN and infinities become null. */
void jw_num(struct jw *w, const char *key, double v);
/** n numbers as n jw_num(w, NULL, ...) in the open array. */
void jw_nums(struct jw *w, const double *v, size_t n);
/** A string member; NULL becomes null. */
void jw_str(struct jw *w, const char *key, const char *s);
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
/** Raw JSON text written as a member value (already valid JSON). */
void jw_raw(struct jw *w, const char *key, const char *json, size_t len);
/** Between two members of a long array: hands the buffer to w->spill,
 *  when set (its error becomes w's). */
void jw_spill(struct jw *w);

#endif
