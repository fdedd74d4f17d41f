/*
 * arena.h - a bump allocator for many small strings with one owner.
 *
 * A recordset keeps every string its records point to in one arena, so one
 * rd_arena_release() frees everything and parsers never free fields one by
 * one. Allocations are 8-byte aligned.
 */
#ifndef RUNDOWN_ARENA_H
#define RUNDOWN_ARENA_H

#include <stddef.h>

struct rd_arena_block;

struct rd_arena {
    struct rd_arena_block *head;
    size_t block_size;
    /* The free bytes of head, 'left' of them from 'cur': kept here, not in
     * the block, so that rd_arena_alloc_uninit is a compare and two adds
     * inlined at the caller (cJSON's hooks make some 35 a record, which as
     * calls were 4-5 % of analyze's CPU on store-1m). */
    char *cur;
    size_t left;
};

void rd_arena_init(struct rd_arena *a);
/** Frees every block; the arena is left initialised and empty. */
void rd_arena_release(struct rd_arena *a);
/** Forgets every allocation but keeps the first block for reuse. */
void rd_arena_reset(struct rd_arena *a);
/** Returns zeroed memory owned by the arena, or NULL on OOM. */
void *rd_arena_alloc(struct rd_arena *a, size_t size);
/** rd_arena_alloc_uninit when head has no room for 'size' bytes: a new
 *  block. Not for callers; rd_arena_alloc_uninit calls it. */
void *rd_arena_alloc_block(struct rd_arena *a, size_t size);

/** rd_arena_alloc without zeroing: for memory written whole at once (a
 *  parser's nodes and strings). */
static inline void *rd_arena_alloc_uninit(struct rd_arena *a, size_t size)
{
    size_t n = (size + 7) & ~(size_t)7;
    /* n - 1 wraps for 0 (size 0, or so big that rounding wrapped): the
     * slow path sorts those out. */
    if (n - 1 < a->left) {
        void *p = a->cur;
        a->cur += n;
        a->left -= n;
        return p;
    }
    return rd_arena_alloc_block(a, size);
}
/** Copies a NUL-terminated string into the arena; NULL in gives NULL out. */
char *rd_arena_strdup(struct rd_arena *a, const char *s);
/** Copies 'len' bytes and a NUL into the arena. */
char *rd_arena_strndup(struct rd_arena *a, const char *s, size_t len);

#endif
