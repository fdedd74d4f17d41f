/*
 * jsonimport.h - helpers shared by the importers of JSON-emitting tools
 * (autocannon --json, bombardier -o json, oha, k6, hyperfine).
 *
 * cJSON forgets where a value was in the text once it has parsed it, but a
 * message about a negative count must still name FILE:LINE:COL. An rd_jdoc
 * keeps the text beside the tree and, only when a position is asked for,
 * walks both in step once to index every node's offset, line and column.
 *
 * Numbers in other units are converted by shifting the decimal exponent of
 * the number's shortest text form (0.0009 s -> "0.0009e3" -> 0.9 ms), so a
 * conversion never adds binary noise such as 0.9000000000000001.
 */
#ifndef RUNDOWN_JSONIMPORT_H
#define RUNDOWN_JSONIMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "importer.h"
#include "rundown/record.h"
#include "rundown/status.h"

struct rd_jpos;

struct rd_jdoc {
    const char *text;      /* the slice that was parsed (not owned) */
    size_t len;
    const char *path;      /* for messages */
    unsigned first_line;   /* line of text[0] in its file */
    cJSON *root;           /* owned; freed by rd_jdoc_release */
    struct rd_diag *d;     /* where failures go (may be NULL) */
    struct rd_jpos *pos;   /* node positions, built on first use */
    size_t npos;
    bool indexed;
};

/**
 * Parses text[0..len) (a whole document, starting at line first_line of
 * 'path') into doc. On a syntax error fills d with the position of the first
 * bad byte. Release doc with rd_jdoc_release in every case.
 */
rd_status rd_jdoc_parse(struct rd_jdoc *doc, const char *text, size_t len,
                        const char *path, unsigned first_line, struct rd_diag *d);

/**
 * Like rd_jdoc_parse, but reads only the first JSON value of text (after
 * blanks) and sets *used to the bytes consumed, so a caller can read
 * newline-delimited or concatenated JSON one value at a time.
 */
rd_status rd_jdoc_parse_first(struct rd_jdoc *doc, const char *text, size_t len,
                              const char *path, unsigned first_line,
                              struct rd_diag *d, size_t *used);

/** Frees the tree and the position index; doc may then be parsed again. */
void rd_jdoc_release(struct rd_jdoc *doc);

/**
 * The 1-based line and column where 'node' starts in the file. Returns false
 * (and 0, 0) when node is not part of doc or the index could not be built.
 */
bool rd_jdoc_where(struct rd_jdoc *doc, const cJSON *node, unsigned *line,
                   unsigned *col);

/**
 * Fills doc->d with "expected <what>, got '<the node's text>'" at the node's
 * position and returns RD_ERR_PARSE.
 */
rd_status rd_jdoc_fail(struct rd_jdoc *doc, const cJSON *node, const char *what);

/**
 * Like rd_jdoc_fail for a bad member name: "got '<the key>'", at the
 * position of the member's value (keys are not indexed).
 */
rd_status rd_jdoc_fail_key(struct rd_jdoc *doc, const cJSON *member, const char *what);

/** Like rd_jdoc_fail for a member that is absent from 'obj'. */
rd_status rd_jdoc_missing(struct rd_jdoc *doc, const cJSON *obj, const char *key,
                          const char *what);

/* Type masks for rd_jdoc_get. */
enum {
    RD_JT_OBJECT = 1, RD_JT_ARRAY = 2, RD_JT_STRING = 4, RD_JT_NUMBER = 8,
    RD_JT_NULL = 16, RD_JT_BOOL = 32
};

/**
 * Looks up obj[key]. Absent: *out = NULL and RD_OK, unless 'required' (then
 * an error naming 'what'). Present with a type outside 'types': an error
 * "expected <what>, got ...".
 */
rd_status rd_jdoc_get(struct rd_jdoc *doc, const cJSON *obj, const char *key,
                      int types, bool required, const char *what, const cJSON **out);

/* Checks for rd_jdoc_num. */
enum {
    RD_JN_NONNEG = 1,   /* counts, durations, rates: never below zero */
    RD_JN_INT = 2,      /* whole numbers only (counts) */
    RD_JN_NULL_NAN = 4  /* JSON null is accepted and read as NaN */
};

/**
 * Reads a number node: finite (a huge number that overflowed to infinity is
 * an error), and non-negative / integral when the flags ask. The message
 * names 'what' ("a count of requests").
 */
rd_status rd_jdoc_num(struct rd_jdoc *doc, const cJSON *node, unsigned flags,
                      const char *what, double *out);

/**
 * Reads obj[key] as a number (see rd_jdoc_num) and, when present, stores
 * value x 10^pow10 as metric 'name' of r. *found (may be NULL) says whether
 * the member was there. 'required' makes an absent member an error.
 */
rd_status rd_jdoc_metric(struct rd_jdoc *doc, struct rd_record *r, const cJSON *obj,
                         const char *key, const char *name, int pow10,
                         unsigned flags, bool required, bool *found);

/**
 * value x 10^pow10, computed on the shortest decimal form of value so that
 * the result is the double nearest to the exact decimal product. NaN and
 * infinities pass through.
 */
double rd_scale10(double value, int pow10);

/**
 * rd_scale10 for a unit conversion that must stay finite: RD_ERR_PARSE (no
 * diag; the caller knows the position) when a finite value overflows, as
 * 1e308 s does in milliseconds. NaN passes through as NaN. Every importer
 * scales through this (or rd_jdoc_num_scaled), so a huge number is refused
 * instead of being stored as null with status ok.
 */
rd_status rd_scale10_finite(double value, int pow10, double *out);

/**
 * rd_jdoc_num, then value x 10^pow10 (rd_scale10_finite): a value whose
 * conversion overflows fails with the same "expected <what>" message.
 */
rd_status rd_jdoc_num_scaled(struct rd_jdoc *doc, const cJSON *node, unsigned flags,
                             int pow10, const char *what, double *out);

/**
 * Copies a name into out (size bytes) as a metric-name fragment: lower case
 * [a-z0-9_], other runs of bytes become one '_', no leading or trailing '_'.
 * "p99.9" -> "p99_9", "DNSDialup" -> "dnsdialup". Returns out.
 */
char *rd_metric_fragment(const char *name, char *out, size_t size);

/** Called for each JSON value by rd_json_each. */
typedef rd_status (*rd_jdoc_fn)(struct rd_jdoc *doc, void *ctx);

/**
 * Calls fn for each JSON value in in->data from byte 'start' (which is on
 * line 'line'), so that newline-delimited, pretty-printed or concatenated
 * documents give one call each. White space between values is skipped;
 * with skip_text so is every line not starting with '{' (banners, progress
 * bars, a text report captured alongside). *count receives the number of
 * values read. Stops at the first failure, with d filled.
 */
rd_status rd_json_each(const struct rd_import_input *in, size_t start, unsigned line,
                       bool skip_text, rd_jdoc_fn fn, void *ctx, struct rd_diag *d,
                       size_t *count);

/**
 * Appends a record for 'tool' to out, its source_line set to where 'at'
 * starts. *rec is valid until the next rd_recordset_add.
 */
rd_status rd_jdoc_new_record(struct rd_jdoc *doc, struct rd_recordset *out,
                             const cJSON *at, const char *tool, struct rd_record **rec);

/**
 * The index of the first line that starts with '{' (after blanks) in
 * text[0..len), as a byte offset, and its line number in *line. Tools print
 * banners and progress bars before their JSON. Returns len when none.
 */
size_t rd_json_start(const char *text, size_t len, unsigned *line);

/** True when text (after blanks) starts with '{' and contains every needle. */
bool rd_json_looks_like(const char *text, size_t len, const char *const *needles,
                        size_t n);

#endif
