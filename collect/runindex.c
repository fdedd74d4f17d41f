/*
 * runindex - an open-addressing hash set of run keys with run numbers.
 *
 * Written by hand: a set of strings is all that is needed, and no packaged
 * C library for it is worth a dependency. Keys are
 * "suite\x1fworkload\x1fconfig\x1fphase\x1frun"; a second entry per key without the run
 * number carries the highest run seen.
 */
#include <stdlib.h>
#include <string.h>

#include "runindex.h"
#include "rundown/store.h"

struct rd_run_slot {
    char *key;   /* NULL = empty */
    long value;  /* highest run for a prefix key; 1 for a full key */
};

void rd_run_index_init(struct rd_run_index *ix)
{
    ix->slots = NULL;
    ix->cap = ix->len = 0;
}

void rd_run_index_release(struct rd_run_index *ix)
{
    for (size_t i = 0; i < ix->cap; i++)
        free(ix->slots[i].key);
    free(ix->slots);
    rd_run_index_init(ix);
}

static unsigned long hash(const char *s)
{
    /* FNV-1a */
    unsigned long h = 1469598103934665603UL;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211UL;
    return h;
}

static struct rd_run_slot *find(const struct rd_run_index *ix, const char *key)
{
    if (!ix->cap)
        return NULL;
    size_t i = hash(key) & (ix->cap - 1);
    while (ix->slots[i].key) {
        if (strcmp(ix->slots[i].key, key) == 0)
            return &ix->slots[i];
        i = (i + 1) & (ix->cap - 1);
    }
    return NULL;
}

static rd_status insert_slot(struct rd_run_index *ix, char *key, long value)
{
    size_t i = hash(key) & (ix->cap - 1);
    while (ix->slots[i].key)
        i = (i + 1) & (ix->cap - 1);
    ix->slots[i].key = key;
    ix->slots[i].value = value;
    ix->len++;
    return RD_OK;
}

static rd_status put(struct rd_run_index *ix, const char *key, long value, bool keep_max)
{
    struct rd_run_slot *slot = find(ix, key);
    if (slot) {
        if (!keep_max || value > slot->value)
            slot->value = value;
        return RD_OK;
    }
    if ((ix->len + 1) * 2 > ix->cap) {
        size_t ncap = ix->cap ? ix->cap * 2 : 64;
        struct rd_run_slot *old = ix->slots;
        size_t oldcap = ix->cap;
        ix->slots = calloc(ncap, sizeof *ix->slots);
        if (!ix->slots) {
            ix->slots = old;
            return RD_ERR_NOMEM;
        }
        ix->cap = ncap;
        ix->len = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].key)
                insert_slot(ix, old[i].key, old[i].value);
        free(old);
    }
    char *copy = strdup(key);
    if (!copy)
        return RD_ERR_NOMEM;
    return insert_slot(ix, copy, value);
}

static rd_status make_key(const struct rd_record *r, long run, struct rd_buf *key)
{
    rd_status s = rd_buf_addf(key, "%s\x1f%s\x1f", r->suite ? r->suite : "",
                              r->workload ? r->workload : "");
    if (!s)
        s = rd_record_config_id(r, key);
    if (!s)
        s = rd_buf_addf(key, "\x1f%s", r->phase ? r->phase : "measure");
    if (!s && run >= 0)
        s = rd_buf_addf(key, "\x1f%ld", run);
    return s;
}

rd_status rd_run_index_add(struct rd_run_index *ix, const struct rd_record *r)
{
    struct rd_buf key = RD_BUF_INIT;
    rd_status s = make_key(r, -1, &key);
    if (!s)
        s = put(ix, key.ptr, r->run, true);
    rd_buf_reset(&key);
    if (!s && r->run > 0 && !(s = make_key(r, r->run, &key)))
        s = put(ix, key.ptr, 1, false);
    rd_buf_release(&key);
    return s;
}

bool rd_run_index_has(const struct rd_run_index *ix, const struct rd_record *r)
{
    struct rd_buf key = RD_BUF_INIT;
    bool found = !make_key(r, r->run, &key) && find(ix, key.ptr);
    rd_buf_release(&key);
    return found;
}

long rd_run_index_max(const struct rd_run_index *ix, const struct rd_record *r)
{
    struct rd_buf key = RD_BUF_INIT;
    struct rd_run_slot *slot = make_key(r, -1, &key) ? NULL : find(ix, key.ptr);
    rd_buf_release(&key);
    return slot ? slot->value : 0;
}

rd_status rd_run_index_load(struct rd_run_index *ix, const char *path, struct rd_diag *d)
{
    struct rd_store_reader reader;
    FILE *probe = fopen(path, "r");
    if (!probe)
        return RD_OK;
    fclose(probe);
    rd_status s = rd_store_open(&reader, path, d);
    if (s)
        return s;
    struct rd_record rec;
    int got;
    while (!(s = rd_store_next(&reader, &rec, &got, d)) && got)
        if ((s = rd_run_index_add(ix, &rec)))
            break;
    rd_store_close(&reader);
    return s;
}
