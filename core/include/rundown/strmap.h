/*
 * strmap.h - a map from byte strings to 64-bit integers, and the one hash.
 *
 * Written by hand: an open-addressing table of strings is all rundown
 * needs (run keys of a store, metric and config ids of an analysis), and
 * no Debian-packaged C library for it is worth a dependency. The map
 * copies every key into its own arena, so callers may pass temporaries.
 * A key is a byte string with a length: two keys that differ after a NUL
 * byte are different keys.
 */
#ifndef RUNDOWN_STRMAP_H
#define RUNDOWN_STRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "rundown/arena.h"
#include "rundown/status.h"

/** The FNV-1a offset basis. */
#define RD_FNV1A_BASIS 14695981039346656037ULL

/** FNV-1a over len bytes: fast and good enough for keys of our own data. */
uint64_t rd_hash_fnv1a(const void *data, size_t len);

/** FNV-1a of len more bytes, continuing from the hash 'h' of what came
 *  before (start from RD_FNV1A_BASIS): a hash of several fields. */
uint64_t rd_hash_fnv1a_more(uint64_t h, const void *data, size_t len);

struct rd_strmap_slot;

struct rd_strmap {
    struct rd_strmap_slot *slots; /* cap slots; cap is 0 or a power of two */
    size_t cap, len;
    struct rd_arena keys;         /* the copies of the keys */
};

void rd_strmap_init(struct rd_strmap *m);
/** Frees the table and every key copy; the map is left empty and usable. */
void rd_strmap_release(struct rd_strmap *m);

/**
 * The value stored under key[0..len), or NULL when the key is absent. The
 * pointer stays valid until the next insertion (which may move the table).
 */
int64_t *rd_strmap_findn(const struct rd_strmap *m, const char *key, size_t len);
/** rd_strmap_findn for a NUL-terminated key. */
int64_t *rd_strmap_find(const struct rd_strmap *m, const char *key);

/**
 * Sets the value of key[0..len), inserting the key when absent. When
 * 'added' is not NULL it tells whether the key was new. Returns
 * RD_ERR_NOMEM when the table or the key copy cannot grow (the map is
 * then unchanged).
 */
rd_status rd_strmap_putn(struct rd_strmap *m, const char *key, size_t len,
                         int64_t value, int *added);
/** rd_strmap_putn for a NUL-terminated key. */
rd_status rd_strmap_put(struct rd_strmap *m, const char *key, int64_t value, int *added);

/**
 * The value slot of key[0..len), inserted with 'initial' when absent: one
 * lookup for read-modify-write (a count, a running maximum). *value
 * receives the slot; it stays valid until the next insertion.
 */
rd_status rd_strmap_slotn(struct rd_strmap *m, const char *key, size_t len,
                          int64_t initial, int64_t **value, int *added);

#endif
