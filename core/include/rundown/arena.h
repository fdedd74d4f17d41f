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
};

void rd_arena_init(struct rd_arena *a);
/** Frees every block; the arena is left initialised and empty. */
void rd_arena_release(struct rd_arena *a);
/** Forgets every allocation but keeps the first block for reuse. */
void rd_arena_reset(struct rd_arena *a);
/** Returns zeroed memory owned by the arena, or NULL on OOM. */
void *rd_arena_alloc(struct rd_arena *a, size_t size);
/** rd_arena_alloc without zeroing: for memory written whole at once (a
 *  parser's nodes and strings). */
void *rd_arena_alloc_uninit(struct rd_arena *a, size_t size);
/** Copies a NUL-terminated string into the arena; NULL in gives NULL out. */
char *rd_arena_strdup(struct rd_arena *a, const char *s);
/** Copies 'len' bytes and a NUL into the arena. */
char *rd_arena_strndup(struct rd_arena *a, const char *s, size_t len);

#endif
