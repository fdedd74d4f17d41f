/*
 * tdata.h - the data a template renders: a small tree of objects, lists,
 * strings, numbers, booleans and nulls (the shape of JSON, without a JSON
 * library), built by a back end in one go and read by template.c.
 *
 * Every node and string lives in the tree's arena, so one release frees the
 * whole view. Building never fails midway for the caller: the first
 * allocation that fails marks the tree failed, the node asked for comes back
 * NULL, and a call with a NULL parent does nothing; check 'failed' once at
 * the end (view.c builds a tree of thousands of nodes that way).
 */
#ifndef RD_RENDER_TDATA_H
#define RD_RENDER_TDATA_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/arena.h"

enum rd_tkind { RD_T_NULL, RD_T_BOOL, RD_T_NUMBER, RD_T_STRING, RD_T_LIST, RD_T_OBJECT };

struct rd_tval {
    enum rd_tkind kind;
    const char *key;              /* its name inside an object; NULL in a list */
    const char *str;              /* RD_T_STRING */
    double num;                   /* RD_T_NUMBER */
    bool on;                      /* RD_T_BOOL */
    struct rd_tval *first, *last; /* RD_T_LIST, RD_T_OBJECT: the items in order */
    struct rd_tval *next;         /* the next item of the parent */
    size_t n;                     /* number of items */
};

struct rd_tdata {
    struct rd_arena arena;
    struct rd_tval *root; /* an object; NULL when even it could not be made */
    bool failed;          /* an allocation failed: the tree is incomplete */
};

/** Makes an empty tree whose root is an object. Release with rd_tdata_release. */
void rd_tdata_init(struct rd_tdata *t);
/** Frees every node and string; t is left empty (root NULL). */
void rd_tdata_release(struct rd_tdata *t);

/*
 * The builders add one item to 'parent': a member named 'key' (copied)
 * when parent is an object, the next item when it is a list (key ignored).
 * A NULL parent adds nothing, so a failed branch stays failed silently.
 */

/** Adds an empty object and returns it (NULL on failure). */
struct rd_tval *rd_tdata_object(struct rd_tdata *t, struct rd_tval *parent, const char *key);
/** Adds an empty list and returns it (NULL on failure). */
struct rd_tval *rd_tdata_list(struct rd_tdata *t, struct rd_tval *parent, const char *key);
/** Adds a copy of string s; NULL adds null (which a template prints as a dash). */
void rd_tdata_string(struct rd_tdata *t, struct rd_tval *parent, const char *key, const char *s);
/** Adds a number. */
void rd_tdata_number(struct rd_tdata *t, struct rd_tval *parent, const char *key, double v);
/** Adds true or false. */
void rd_tdata_bool(struct rd_tdata *t, struct rd_tval *parent, const char *key, bool on);

/** The first member of object v named key[0..len), or NULL (also when v is no object). */
const struct rd_tval *rd_tval_member(const struct rd_tval *v, const char *key, size_t len);

#endif
