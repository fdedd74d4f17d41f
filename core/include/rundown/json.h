/*
 * json.h - core's JSON I/O: the one place (with the JSON-format importers)
 * that talks to cJSON directly.
 *
 * Parsing reports errors as path:line:col. Writing is deterministic: keys in
 * the order the tree holds them, numbers in shortest round-trip form
 * (rd_fmt_double), NaN and infinities as null.
 */
#ifndef RUNDOWN_JSON_H
#define RUNDOWN_JSON_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "rundown/arena.h"
#include "rundown/buf.h"
#include "rundown/status.h"

/**
 * Parses text (which need not be NUL-terminated). Caller frees *out with
 * cJSON_Delete. Errors name the line and column of the first bad byte.
 * 'first_line' is the line number of text's first byte in its file (1 for a
 * whole file).
 */
rd_status rd_json_parse(const char *text, size_t len, const char *path,
                        unsigned first_line, cJSON **out, struct rd_diag *d);

/**
 * cJSON_ParseWithLengthOpts (no NUL required) with every node and string of
 * the tree allocated in 'arena': the tree is freed with the arena, never
 * with cJSON_Delete. cJSON's allocation hooks are installed once, for the
 * whole process, and use the arena only for this thread and only inside
 * this call; other threads and other cJSON users keep malloc and free. A
 * malloc and a free per node are a third of a parse's time and a fifth of
 * its memory. *oom tells a NULL from an allocation that failed (cJSON
 * returns NULL for both) from one from bad JSON.
 */
cJSON *rd_json_parse_tree(struct rd_arena *arena, const char *text, size_t len,
                          const char **end, bool *oom);

/**
 * rd_json_parse with the tree in 'arena' (rd_json_parse_tree): freed with
 * the arena, never with cJSON_Delete.
 */
rd_status rd_json_parse_arena(const char *text, size_t len, const char *path,
                              unsigned first_line, struct rd_arena *arena, cJSON **out,
                              struct rd_diag *d);

/**
 * rd_json_parse, then refuses a document in which an object holds the same
 * key twice: "expected each key once, got 'KEY' twice" at the line and
 * column of the second occurrence (the first such one in the text). cJSON
 * keeps both members and finds the first, Python and jq take the last, so
 * such a file means different things to different readers. Costs one more
 * pass over the text and O(n log n) in the members of the largest object.
 */
rd_status rd_json_parse_unique(const char *text, size_t len, const char *path,
                               unsigned first_line, cJSON **out, struct rd_diag *d);

/** Reads and parses a whole file ("-" = stdin). Caller frees with cJSON_Delete. */
rd_status rd_json_parse_file(const char *path, cJSON **out, struct rd_diag *d);

/** Appends v as JSON; pretty = 2-space indentation and a final newline. */
rd_status rd_json_write(const cJSON *v, struct rd_buf *out, bool pretty);

/** A string member of an object, or NULL when absent or not a string. */
const char *rd_json_str(const cJSON *obj, const char *key);
/** True and *out set when the member is a number. */
bool rd_json_num(const cJSON *obj, const char *key, double *out);
/** Adds a number member, or null when v is NaN or infinite. */
cJSON *rd_json_add_num(cJSON *obj, const char *key, double v);

#endif
