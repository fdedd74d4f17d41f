// links: rd_core
/*
 * test_heap_huge - rd_heap_reserve and rd_heap_make_huge, in a program of
 * their own: the reservation must come before anything is allocated
 * (main() below), and the heap's advice, read from /proc/self/smaps
 * (the kernel's "hg" flag, MADV_HUGEPAGE), is the whole process's. The
 * reserved heap is not advised until rd_heap_make_huge; after it, blocks
 * on the heap are. Skipped where there was no reservation: no transparent
 * huge pages, or a malloc that is not glibc's (as under ASan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hugepages_test.h"
#include "rundown/hugepages.h"

/* Set by main() before cmocka allocates anything. */
static bool reserved;

static void test_heap_advised_once_made_huge(void **state)
{
    (void)state;
    if (!reserved)
        skip();
    size_t len = 256 * 1024;
    char *small = malloc(len);
    assert_non_null(small);
    bool covers;
    /* Reserved only: small pages, as without the reservation. */
    assert_false(advised(small, len, &covers));
    rd_heap_make_huge();
    assert_true(advised(small, len, &covers));
    assert_true(covers);
    /* Blocks allocated from then on too, big ones included. */
    char *big = malloc(RD_HUGE_MIN);
    assert_non_null(big);
    assert_true(advised(big, RD_HUGE_MIN, &covers));
    assert_true(covers);
    free(big);
    free(small);
    /* A second reservation is the first. */
    assert_true(rd_heap_reserve());
}

int main(void)
{
    /* First thing, as in analyze's main(): nothing allocated yet. */
    reserved = rd_heap_reserve() &&
               access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_advised_once_made_huge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
