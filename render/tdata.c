/*
 * tdata - the template data tree: nodes appended in order, all in one arena.
 */
#include "tdata.h"

#include <string.h>

void rd_tdata_init(struct rd_tdata *t)
{
    rd_arena_init(&t->arena);
    t->failed = false;
    t->root = rd_arena_alloc(&t->arena, sizeof *t->root);
    if (t->root)
        t->root->kind = RD_T_OBJECT;
    else
        t->failed = true;
}

void rd_tdata_release(struct rd_tdata *t)
{
    rd_arena_release(&t->arena);
    t->root = NULL;
    t->failed = false;
}

/* A new node of 'kind' at the end of parent's items, or NULL. */
static struct rd_tval *add(struct rd_tdata *t, struct rd_tval *parent, const char *key,
                           enum rd_tkind kind)
{
    if (!parent)
        return NULL;
    struct rd_tval *v = rd_arena_alloc(&t->arena, sizeof *v);
    if (v && parent->kind == RD_T_OBJECT && !(v->key = rd_arena_strdup(&t->arena, key ? key : "")))
        v = NULL;
    if (!v) {
        t->failed = true;
        return NULL;
    }
    v->kind = kind;
    if (parent->last)
        parent->last->next = v;
    else
        parent->first = v;
    parent->last = v;
    parent->n++;
    return v;
}

struct rd_tval *rd_tdata_object(struct rd_tdata *t, struct rd_tval *parent, const char *key)
{
    return add(t, parent, key, RD_T_OBJECT);
}

struct rd_tval *rd_tdata_list(struct rd_tdata *t, struct rd_tval *parent, const char *key)
{
    return add(t, parent, key, RD_T_LIST);
}

void rd_tdata_string(struct rd_tdata *t, struct rd_tval *parent, const char *key, const char *s)
{
    struct rd_tval *v = add(t, parent, key, s ? RD_T_STRING : RD_T_NULL);
    if (v && s && !(v->str = rd_arena_strdup(&t->arena, s))) {
        /* Half a member would print as "", which says something else. */
        v->kind = RD_T_NULL;
        t->failed = true;
    }
}

void rd_tdata_number(struct rd_tdata *t, struct rd_tval *parent, const char *key, double num)
{
    struct rd_tval *v = add(t, parent, key, RD_T_NUMBER);
    if (v)
        v->num = num;
}

void rd_tdata_bool(struct rd_tdata *t, struct rd_tval *parent, const char *key, bool on)
{
    struct rd_tval *v = add(t, parent, key, RD_T_BOOL);
    if (v)
        v->on = on;
}

const struct rd_tval *rd_tval_member(const struct rd_tval *v, const char *key, size_t len)
{
    if (!v || v->kind != RD_T_OBJECT)
        return NULL;
    for (const struct rd_tval *m = v->first; m; m = m->next)
        if (strncmp(m->key, key, len) == 0 && m->key[len] == '\0')
            return m;
    return NULL;
}
