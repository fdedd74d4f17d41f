/*
 * hugepages.c - memory in transparent huge pages (hugepages.h). Depends
 * on nothing of rundown; glibc's malloc tunables for the heap.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "rundown/hugepages.h"

void rd_huge_advise(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
    long page = sysconf(_SC_PAGESIZE);
    if (!p || len < RD_HUGE_MIN || page <= 0)
        return;
    /* The block's pages whole, not only its 2 MiB-aligned middle (the
     * kernel makes huge pages only there anyway): a block malloc mapped
     * on its own is then one mapping still, which realloc grows in place
     * or moves without copying (mremap); in three pieces it was copied
     * to fresh memory, a page fault per 4 KiB again. */
    uintptr_t mask = (uintptr_t)page - 1;
    uintptr_t lo = (uintptr_t)p & ~mask;
    uintptr_t hi = ((uintptr_t)p + len + mask) & ~mask;
    (void)madvise((void *)lo, (size_t)(hi - lo), MADV_HUGEPAGE);
#else
    (void)p;
    (void)len;
#endif
}

/* The heap reserved by rd_heap_reserve, [heap_lo, heap_hi): set once,
 * from main()'s thread, before any other thread starts. */
static char *heap_lo, *heap_hi;

/* At 10^5 configs render's workbook is millions of small cells
 * (libxlsxwriter callocs each and links it into a tree per row), 700 MiB
 * of heap touched a 4 KiB page at a time: a tenth of the CPU went to page
 * faults and the walks of the cell trees to TLB misses. glibc grows the
 * heap from its top: with a top pad of 1 GiB it reserves that once
 * (address space only; a page counts when touched), and madvise makes
 * that reservation huge-page backed where the kernel has them ("madvise"
 * mode), now or later (rd_heap_make_huge). glibc's own tunable
 * (glibc.malloc.hugetlb) does the same but is read from the environment
 * at start, for the whole run. */
bool rd_heap_reserve(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && defined(M_TOP_PAD)
    const size_t pad = (size_t)1 << 30;
    long page = sysconf(_SC_PAGESIZE);
    if (heap_lo)
        return true;
    /* Under a limit on address space (ulimit -v) the reservation would
     * count whole: the heap stays as it was. */
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur != RLIM_INFINITY)
        return false;
    if (page <= 0 || !mallopt(M_TOP_PAD, (int)pad))
        return false;
    /* The heap's first growth (nothing was allocated yet) takes the pad;
     * the block is under the mmap threshold, so it comes from the heap.
     * volatile: the compiler would drop a malloc that is only freed. */
    char *lo = sbrk(0);
    void *volatile p = malloc(64 * 1024);
    char *hi = sbrk(0);
    free(p);
    /* Later growth asks only for what it needs (the default pad), and the
     * reservation is never given back: trimming it would end its huge
     * pages (the kernel keeps them to the part of the heap advised), or
     * return the address space rd_heap_make_huge would advise. Untouched,
     * its pages cost nothing. */
    (void)mallopt(M_TOP_PAD, 128 * 1024);
    if (lo == (char *)-1 || hi == (char *)-1 || hi - lo < (ptrdiff_t)(pad / 2))
        return false;
    (void)mallopt(M_TRIM_THRESHOLD, INT_MAX);
    /* Setting the pad fixed glibc's mmap threshold at 128 KiB (it would
     * grow with the blocks freed): every block from 128 KiB on would be
     * mapped, and zeroed by the kernel, anew each time (store-1m: 16,000
     * page faults -> 21,000). Up to 512 KiB from the heap kept store-1m's
     * faults and peak as they were without the pad; 4 MiB or more cost it
     * 2 MiB of peak (rd_heap_make_huge raises it for a big heap). */
    (void)mallopt(M_MMAP_THRESHOLD, 512 * 1024);
    heap_lo = lo;
    heap_hi = hi;
    return true;
#else
    return false;
#endif
}

void rd_heap_make_huge(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && defined(M_MMAP_THRESHOLD)
    long page = sysconf(_SC_PAGESIZE);
    if (!heap_lo || page <= 0)
        return;
    /* Blocks up to 32 MiB from the heap, in its huge pages, instead of
     * mapped and zeroed anew each time: the most glibc's own rule grows
     * its threshold to. */
    (void)mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    /* Pages already touched stay small; those touched from now on are
     * huge where a whole aligned 2 MiB of them is advised. */
    uintptr_t a = ((uintptr_t)heap_lo + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    (void)madvise((void *)a, (size_t)((uintptr_t)heap_hi - a), MADV_HUGEPAGE);
#endif
}

void rd_heap_in_huge_pages(void)
{
    if (rd_heap_reserve())
        rd_heap_make_huge();
}
