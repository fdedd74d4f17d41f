/*
 * json_lazy.h - a JSON document read a part at a time: big arrays of
 * objects are parsed one element at a time, each element's tree freed
 * before the next is parsed.
 *
 * Why: a cJSON tree is about four times its text (a 64-byte node per
 * value plus its key), so an analysis of 10^5 configs (400 MiB of text)
 * would take 1.9 GiB parsed whole. rundown-render reads each config into
 * its own structs and needs the config's tree no longer (issue 31).
 *
 * How: the text is scanned for arrays that are the value of a member
 * named in 'keys', whose first element is an object and whose text is at
 * least 'min_span' bytes. Such an array is cut out of the text that cJSON
 * parses (the "skeleton"; it reads as an empty array there) and remembered
 * with its place in the text. rd_json_each_* walks any array: the
 * children of a parsed one, or the elements of a cut-out one, each parsed
 * in turn (the same rule applies inside it) into an arena of its own that
 * the next element reuses. So a pointer into an element's tree (a string
 * too) is valid only until the next element or the end of the walk: copy
 * what is kept.
 *
 * The scan checks only brackets and strings; everything else is cJSON's.
 * When a part is not valid JSON the walk fails with 'json_error' set: the
 * caller then parses the whole text with rd_json_parse_arena for the
 * message (which names the line and column), as if nothing was deferred.
 */
#ifndef RUNDOWN_JSON_LAZY_H
#define RUNDOWN_JSON_LAZY_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/arena.h"
#include "rundown/json.h"
#include "rundown/status.h"

struct rd_json_deferred {
    const cJSON *node;     /* the empty array that stands for it in the tree */
    const char *text;      /* '[' ... ']' in the document's text */
    size_t len, count;     /* bytes, elements */
    size_t ordinal;        /* its place among the arrays of its skeleton */
    bool walked;           /* a walk began (else it is checked when dropped) */
};

struct rd_json_lazy {
    const char *text;
    size_t len;
    const char *const *keys;   /* members whose arrays may be cut out */
    size_t nkeys, min_span;
    struct rd_json_deferred *deferred;   /* those of the trees alive now */
    size_t ndeferred, capdeferred;
    struct rd_arena *arenas;   /* [0]: the root's tree; [i]: the walk at depth i */
    size_t narenas;
    int depth;
    bool json_error;     /* a part was not JSON: parse the whole for the message */
};

/** A walk over one array (rd_json_each_begin). */
struct rd_json_each {
    const cJSON *child;        /* a parsed array: the next child */
    const char *p, *end;       /* a cut-out one: the rest of its text */
    size_t mark;               /* deferred entries before this walk's element's */
    int slot;                  /* its arena, or -1 */
    rd_status st;
};

/** Sets up a read of text[0, len) (which must outlive it); nothing is parsed yet. */
void rd_json_lazy_init(struct rd_json_lazy *lz, const char *text, size_t len,
                       const char *const *keys, size_t nkeys, size_t min_span);

/**
 * Parses the document's skeleton into *root. RD_ERR_PARSE with
 * lz->json_error set when it is not valid JSON (no message: parse the
 * whole text for one); RD_ERR_NOMEM.
 */
rd_status rd_json_lazy_root(struct rd_json_lazy *lz, cJSON **root);

/** The number of elements of an array (cut out or not) or members of an object. */
size_t rd_json_lazy_size(const struct rd_json_lazy *lz, const cJSON *arr);

/**
 * Walks the elements of 'arr' (NULL or a non-array: none):
 *   struct rd_json_each it;
 *   for (rd_json_each_begin(lz, &it, arr); (v = rd_json_each_next(lz, &it)); ) ...
 *   RD_TRY(rd_json_each_end(lz, &it));
 * next returns NULL at the end and on an error, which end returns. Walks
 * nest as calls do: an inner walk ends before the outer one goes on.
 */
void rd_json_each_begin(struct rd_json_lazy *lz, struct rd_json_each *it, const cJSON *arr);
const cJSON *rd_json_each_next(struct rd_json_lazy *lz, struct rd_json_each *it);
rd_status rd_json_each_end(struct rd_json_lazy *lz, struct rd_json_each *it);

/**
 * Walks every cut-out array of the root the reader did not walk, so that
 * the whole text has been checked as JSON (RD_ERR_PARSE, json_error).
 */
rd_status rd_json_lazy_finish(struct rd_json_lazy *lz);

/** Frees every tree and walk (also after a failure). */
void rd_json_lazy_release(struct rd_json_lazy *lz);

#endif
