/*
 * array.h - growing a heap array, with the overflow check written once.
 *
 * Every dynamic array of rundown is a pointer, a capacity and a length
 * kept by its owner; rd_array_grow() is the one place that makes room.
 * It doubles the capacity (amortised linear appends) and refuses a size
 * whose byte count would not fit in size_t instead of wrapping.
 */
#ifndef RUNDOWN_ARRAY_H
#define RUNDOWN_ARRAY_H

#include <stddef.h>

#include "rundown/status.h"

/**
 * Makes room for at least 'need' elements of 'elem_size' bytes in *items,
 * whose capacity is *cap (elements). Does nothing when *cap >= need. On
 * success *items and *cap are updated; new elements are not initialised.
 * Returns RD_ERR_NOMEM when memory runs out or need * elem_size overflows;
 * *items and *cap are then unchanged (and still owned by the caller).
 */
rd_status rd_array_grow(void **items, size_t *cap, size_t need, size_t elem_size);

/**
 * rd_array_grow_from: rd_array_grow whose first capacity (when *cap is 0)
 * is 'first' instead of 8, for arrays that are mostly tiny and many
 * (10^5 configs of 3 runs each). Doubling from a power of two below 8
 * reaches the same capacities from 8 on.
 */
rd_status rd_array_grow_from(void **items, size_t *cap, size_t need, size_t elem_size,
                             size_t first);

/**
 * RD_ARRAY_GROW(ptr, cap, need): rd_array_grow for a typed pointer, so
 * call sites read `if (RD_ARRAY_GROW(set->items, set->cap, set->len + 1))`.
 * 'ptr' and 'cap' are lvalues (cap a size_t); evaluates to an rd_status.
 */
#define RD_ARRAY_GROW(ptr, cap, need) \
    rd_array_grow((void **)&(ptr), &(cap), (need), sizeof *(ptr))

/** RD_ARRAY_GROW_FROM(ptr, cap, need, first): rd_array_grow_from, typed. */
#define RD_ARRAY_GROW_FROM(ptr, cap, need, first) \
    rd_array_grow_from((void **)&(ptr), &(cap), (need), sizeof *(ptr), (first))

#endif
