// links: rd_core
/*
 * test_hugepages - rd_huge_advise: a big block's pages are advised whole
 * (its mapping, read from /proc/self/smaps, covers it and carries the
 * kernel's "hg" flag, MADV_HUGEPAGE), so realloc still grows it in one
 * piece with its bytes; a small block is left alone. Skipped where the
 * kernel has no transparent huge pages.
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

static void test_advise(void **state)
{
    (void)state;
    if (access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) != 0)
        skip();
    size_t len = RD_HUGE_MIN * 2;
    unsigned char *p = malloc(len);
    assert_non_null(p);
    memset(p, 7, len / 2);
    rd_huge_advise(p, len);
    bool covers;
    assert_true(advised(p, len, &covers));
    assert_true(covers);
    /* Grown as an array grows: the bytes kept, still one mapping. */
    unsigned char *q = realloc(p, 2 * len);
    assert_non_null(q);
    for (size_t i = 0; i < len / 2; i += 4093)
        assert_int_equal(q[i], 7);
    rd_huge_advise(q, 2 * len);
    assert_true(advised(q, 2 * len, &covers));
    assert_true(covers);
    free(q);

    /* Under RD_HUGE_MIN: nothing. */
    unsigned char *small = malloc(64 * 1024);
    assert_non_null(small);
    rd_huge_advise(small, 64 * 1024);
    assert_false(advised(small, 64 * 1024, &covers));
    free(small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_advise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
