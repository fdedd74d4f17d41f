/*
 * strmap.c - open addressing with linear probing, kept at most half full
 * so probes stay short; the hash of each key is kept so that growing the
 * table never rereads the keys.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/hugepages.h"
#include "rundown/strmap.h"

struct rd_strmap_slot {
    const char *key; /* NULL: an empty slot */
    size_t len;
    uint64_t hash;
    int64_t value;
};

uint64_t rd_hash_fnv1a_more(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

uint64_t rd_hash_fnv1a(const void *data, size_t len)
{
    return rd_hash_fnv1a_more(RD_FNV1A_BASIS, data, len);
}

void rd_strmap_init(struct rd_strmap *m)
{
    m->slots = NULL;
    m->cap = m->len = 0;
    rd_arena_init(&m->keys);
}

void rd_strmap_release(struct rd_strmap *m)
{
    free(m->slots);
    rd_arena_release(&m->keys);
    rd_strmap_init(m);
}

static struct rd_strmap_slot *probe(struct rd_strmap_slot *slots, size_t cap,
                                    const char *key, size_t len, uint64_t hash)
{
    size_t mask = cap - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        struct rd_strmap_slot *s = &slots[i];
        if (!s->key || (s->hash == hash && s->len == len && memcmp(s->key, key, len) == 0))
            return s;
    }
}

int64_t *rd_strmap_findn(const struct rd_strmap *m, const char *key, size_t len)
{
    if (!m->cap)
        return NULL;
    struct rd_strmap_slot *s = probe(m->slots, m->cap, key, len, rd_hash_fnv1a(key, len));
    return s->key ? &s->value : NULL;
}

int64_t *rd_strmap_find(const struct rd_strmap *m, const char *key)
{
    return rd_strmap_findn(m, key, strlen(key));
}

static rd_status grow(struct rd_strmap *m)
{
    if (m->cap > SIZE_MAX / 2 / sizeof *m->slots)
        return RD_ERR_NOMEM;
    size_t ncap = m->cap ? m->cap * 2 : 64;
    struct rd_strmap_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return RD_ERR_NOMEM;
    /* Filled at random, so touched whole: a big table in huge pages. */
    rd_huge_advise(ns, ncap * sizeof *ns);
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            *probe(ns, ncap, m->slots[i].key, m->slots[i].len, m->slots[i].hash) = m->slots[i];
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return RD_OK;
}

rd_status rd_strmap_slotn(struct rd_strmap *m, const char *key, size_t len,
                          int64_t initial, int64_t **value, int *added)
{
    uint64_t h = rd_hash_fnv1a(key, len);
    if ((m->len + 1) * 2 > m->cap && grow(m))
        return RD_ERR_NOMEM;
    struct rd_strmap_slot *s = probe(m->slots, m->cap, key, len, h);
    if (added)
        *added = !s->key;
    if (!s->key) {
        char *copy = rd_arena_strndup(&m->keys, key, len);
        if (!copy)
            return RD_ERR_NOMEM;
        *s = (struct rd_strmap_slot){ .key = copy, .len = len, .hash = h, .value = initial };
        m->len++;
    }
    *value = &s->value;
    return RD_OK;
}

rd_status rd_strmap_putn(struct rd_strmap *m, const char *key, size_t len,
                         int64_t value, int *added)
{
    int64_t *slot;
    rd_status st = rd_strmap_slotn(m, key, len, value, &slot, added);
    if (st == RD_OK)
        *slot = value;
    return st;
}

rd_status rd_strmap_put(struct rd_strmap *m, const char *key, int64_t value, int *added)
{
    return rd_strmap_putn(m, key, strlen(key), value, added);
}
