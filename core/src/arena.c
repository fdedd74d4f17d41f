/*
 * arena - a bump allocator: many small allocations, one release.
 *
 * Blocks grow geometrically up to 1 MiB, so a reader that resets its arena
 * every line keeps reusing the first block and a big importer does not make
 * one allocation per string.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/arena.h"

struct rd_arena_block {
    struct rd_arena_block *next;
    size_t size;
    max_align_t data[];
};

#define ARENA_FIRST_BLOCK 4096
#define ARENA_MAX_BLOCK (1u << 20)

void rd_arena_init(struct rd_arena *a)
{
    a->head = NULL;
    a->block_size = ARENA_FIRST_BLOCK;
    a->cur = NULL;
    a->left = 0;
}

void rd_arena_release(struct rd_arena *a)
{
    struct rd_arena_block *b = a->head;
    while (b) {
        struct rd_arena_block *next = b->next;
        free(b);
        b = next;
    }
    rd_arena_init(a);
}

void rd_arena_reset(struct rd_arena *a)
{
    if (!a->head)
        return;
    /* Keep the newest (largest) block; free the rest. */
    struct rd_arena_block *keep = a->head, *b = keep->next;
    while (b) {
        struct rd_arena_block *next = b->next;
        free(b);
        b = next;
    }
    keep->next = NULL;
    a->cur = (char *)keep->data;
    a->left = keep->size;
}

void *rd_arena_alloc(struct rd_arena *a, size_t size)
{
    void *p = rd_arena_alloc_uninit(a, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void *rd_arena_alloc_block(struct rd_arena *a, size_t size)
{
    /* More than a quarter of the address space is no arena's to give
     * (and would wrap the rounding below or the doubling of want). */
    if (size > SIZE_MAX / 4)
        return NULL;
    size = size ? (size + 7) & ~(size_t)7 : 8;
    if (a->left >= size) {
        /* a size of 0, which the fast path sends here */
        void *p = a->cur;
        a->cur += size;
        a->left -= size;
        return p;
    }
    size_t want = a->block_size;
    while (want < size)
        want *= 2;
    if (want > SIZE_MAX - sizeof(struct rd_arena_block))
        return NULL;
    struct rd_arena_block *nb = malloc(sizeof *nb + want);
    if (!nb)
        return NULL;
    nb->next = a->head;
    nb->size = want;
    a->head = nb;
    if (a->block_size < ARENA_MAX_BLOCK)
        a->block_size *= 2;
    a->cur = (char *)nb->data + size;
    a->left = want - size;
    return nb->data;
}

char *rd_arena_strndup(struct rd_arena *a, const char *s, size_t len)
{
    if (!s)
        return NULL;
    char *p = rd_arena_alloc_uninit(a, len + 1);
    if (!p)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *rd_arena_strdup(struct rd_arena *a, const char *s)
{
    return s ? rd_arena_strndup(a, s, strlen(s)) : NULL;
}
