/*
 * hugepages.h - memory in transparent huge pages, where the kernel has
 * them: a page fault and a TLB entry per 2 MiB instead of per 4 KiB.
 *
 * On the bench machine (a virtual machine) a page fault costs about 17 us
 * of wall time: touching 400 MiB a 4 KiB page at a time took 1.3-2.3 s,
 * in huge pages 0.5-1.2 s. Huge pages count whole in the peak RSS, so they
 * are for memory that is touched whole anyway: big arrays, a big heap.
 * Nothing here changes a byte of any output; where a step fails the
 * memory stays as it was.
 */
#ifndef RUNDOWN_HUGEPAGES_H
#define RUNDOWN_HUGEPAGES_H

#include <stdbool.h>
#include <stddef.h>

/** Blocks of at least this many bytes are worth advising (rd_huge_advise):
 *  they hold whole huge pages, and malloc maps them apart from the heap. */
#define RD_HUGE_MIN ((size_t)8 << 20)

/**
 * Advises the pages of [p, p + len) to be huge as they are touched (the
 * kernel makes huge pages of its whole aligned 2 MiB). For a block
 * of RD_HUGE_MIN bytes or more that the caller fills whole (an array that
 * grows by doubling, a hash table); pages already touched stay as they
 * are. Does nothing for a smaller block or where the system has no
 * transparent huge pages.
 */
void rd_huge_advise(void *p, size_t len);

/**
 * Reserves 1 GiB of heap (address space only) in one growth, for
 * rd_heap_make_huge to advise now or later; a page of it counts in the
 * RSS only once touched. Call it first thing in main(), before anything
 * is allocated, and before any thread starts. From then on the heap is
 * never trimmed. Returns whether it reserved: not under a limit on
 * address space (ulimit -v), where the system has no transparent huge
 * pages, or where something was allocated before (the heap had room).
 */
bool rd_heap_reserve(void);

/**
 * Advises the heap rd_heap_reserve reserved to be huge-page backed from
 * here on: pages touched later come 2 MiB at a time where the kernel has
 * them; pages already touched stay small. For a program that finds out
 * as it reads that its heap will be big and touched whole (analyze at
 * 10^5 configs), since huge pages count whole in the peak RSS. Does
 * nothing without a reservation. From main()'s thread only.
 */
void rd_heap_make_huge(void);

/**
 * The heap in transparent huge pages from the start: rd_heap_reserve and
 * rd_heap_make_huge at once, first thing in main(). For a program whose
 * heap is big and touched whole from its start (render at 10^5 configs).
 */
void rd_heap_in_huge_pages(void);

#endif
