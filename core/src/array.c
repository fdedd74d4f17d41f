/*
 * array.c - rd_array_grow (see array.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "rundown/array.h"
#include "rundown/hugepages.h"

rd_status rd_array_grow(void **items, size_t *cap, size_t need, size_t elem_size)
{
    return rd_array_grow_from(items, cap, need, elem_size, 8);
}

rd_status rd_array_grow_from(void **items, size_t *cap, size_t need, size_t elem_size,
                             size_t first)
{
    if (need <= *cap)
        return RD_OK;
    if (elem_size == 0 || need > SIZE_MAX / elem_size)
        return RD_ERR_NOMEM;
    size_t n = *cap ? *cap : first ? first : 1;
    while (n < need)
        n = n > SIZE_MAX / 2 / elem_size ? need : n * 2;
    void *p = realloc(*items, n * elem_size);
    if (!p)
        return RD_ERR_NOMEM;
    /* A big array is filled whole as it grows by doubling (10^5 configs'
     * 44 MB, a page fault per 4 KiB of it): in huge pages from here on. */
    if (n * elem_size >= RD_HUGE_MIN)
        rd_huge_advise(p, n * elem_size);
    *items = p;
    *cap = n;
    return RD_OK;
}
