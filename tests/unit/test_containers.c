// links: rd_core
/*
 * core's containers: rd_array_grow, rd_strmap and its hash, the UTF-8
 * decoder. FNV-1a values are the published test vectors of the FNV
 * reference (Fowler, Noll, Vo: "" -> cbf29ce484222325, "a" ->
 * af63dc4c8601ec8c, "foobar" -> 85944171f73967e8); code points are
 * from the Unicode tables (U+00E9 = C3 A9, U+20AC = E2 82 AC,
 * U+1F600 = F0 9F 98 80).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rundown/arena.h"
#include "rundown/array.h"
#include "rundown/buf.h"
#include "rundown/strmap.h"
#include "rundown/utf8.h"

static void array_grows_and_refuses_overflow(void **state)
{
    (void)state;
    int *v = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < 1000; i++) {
        assert_int_equal(RD_ARRAY_GROW(v, cap, i + 1), RD_OK);
        assert_true(cap >= i + 1);
        v[i] = (int)i;
    }
    for (size_t i = 0; i < 1000; i++)
        assert_int_equal(v[i], (int)i);
    size_t before = cap;
    int *kept = v;
    /* A byte count past SIZE_MAX is refused, and the array is untouched. */
    assert_int_equal(RD_ARRAY_GROW(v, cap, SIZE_MAX / 2), RD_ERR_NOMEM);
    assert_ptr_equal(v, kept);
    assert_int_equal(cap, before);
    /* Asking for no more than the capacity does nothing. */
    assert_int_equal(RD_ARRAY_GROW(v, cap, 3), RD_OK);
    assert_int_equal(cap, before);
    free(v);
}

/* A first capacity below 8 (ingest's tiny per-config arrays): 4, then the
 * doubling reaches 8, 16, ... as from 8 (capacities by hand). */
static void array_grows_from_a_first_capacity(void **state)
{
    (void)state;
    int *v = NULL;
    size_t cap = 0;
    assert_int_equal(RD_ARRAY_GROW_FROM(v, cap, 1, 4), RD_OK);
    assert_int_equal(cap, 4);
    assert_int_equal(RD_ARRAY_GROW_FROM(v, cap, 5, 4), RD_OK);
    assert_int_equal(cap, 8);
    assert_int_equal(RD_ARRAY_GROW_FROM(v, cap, 9, 4), RD_OK);
    assert_int_equal(cap, 16);
    free(v);
    v = NULL, cap = 0;
    assert_int_equal(RD_ARRAY_GROW_FROM(v, cap, 6, 4), RD_OK);
    assert_int_equal(cap, 8);
    free(v);
}

/* The inlined bump path and the block path share one arena: allocations
 * are 8-byte aligned, do not overlap, fill a block to its last byte, move
 * to a new block when one does not fit, and start again at the kept
 * block's first byte after a reset. */
static void arena_bumps_within_and_across_blocks(void **state)
{
    (void)state;
    struct rd_arena a;
    rd_arena_init(&a);
    char *p0 = rd_arena_alloc_uninit(&a, 0); /* 0 bytes: still a distinct 8 */
    char *p1 = rd_arena_alloc_uninit(&a, 1);
    char *p2 = rd_arena_alloc_uninit(&a, 13);
    assert_non_null(p0);
    assert_ptr_equal(p1, p0 + 8);
    assert_ptr_equal(p2, p1 + 8);
    assert_int_equal((uintptr_t)p2 % 8, 0);
    /* The first block is 4096 bytes: 4096 - 8 - 8 - 16 are left; fill them. */
    char *fill = rd_arena_alloc_uninit(&a, 4096 - 32);
    assert_ptr_equal(fill, p2 + 16);
    assert_int_equal(a.left, 0);
    memset(fill, 'x', 4096 - 32);
    char *next = rd_arena_alloc_uninit(&a, 8); /* a second block (8192 bytes) */
    assert_non_null(next);
    assert_true(next < p0 || next >= fill + 4096 - 32);
    assert_int_equal(a.left, 8192 - 8);
    /* Bigger than a block: one of its own, rounded up. */
    char *big = rd_arena_alloc_uninit(&a, 100000);
    assert_non_null(big);
    memset(big, 'y', 100000);
    assert_int_equal(a.left, 131072 - 100000);
    char *z = rd_arena_alloc(&a, 24);
    for (int i = 0; i < 24; i++)
        assert_int_equal(z[i], 0);
    /* Too big for any arena: NULL, and the arena goes on as before. */
    assert_null(rd_arena_alloc_uninit(&a, SIZE_MAX));
    assert_null(rd_arena_alloc_uninit(&a, SIZE_MAX - 3));
    assert_ptr_equal(rd_arena_alloc_uninit(&a, 8), z + 24);
    /* A reset keeps the newest block and hands it out from its start. */
    rd_arena_reset(&a);
    assert_ptr_equal(rd_arena_alloc_uninit(&a, 8), big);
    assert_int_equal(a.left, 131072 - 8);
    assert_string_equal(rd_arena_strndup(&a, "abcdef", 3), "abc");
    rd_arena_release(&a);
    assert_null(a.cur);
    assert_int_equal(a.left, 0);
    assert_non_null(rd_arena_alloc_uninit(&a, 1)); /* usable after release */
    rd_arena_release(&a);
}

static void fnv1a_matches_reference_vectors(void **state)
{
    (void)state;
    assert_true(rd_hash_fnv1a("", 0) == 0xcbf29ce484222325ULL);
    assert_true(rd_hash_fnv1a("a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(rd_hash_fnv1a("foobar", 6) == 0x85944171f73967e8ULL);
}

static void strmap_puts_finds_and_grows(void **state)
{
    (void)state;
    struct rd_strmap m;
    rd_strmap_init(&m);
    assert_null(rd_strmap_find(&m, "absent"));
    char key[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "key-%d", i);
        int added = -1;
        assert_int_equal(rd_strmap_put(&m, key, i, &added), RD_OK);
        assert_int_equal(added, 1);
    }
    assert_int_equal(m.len, 5000);
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "key-%d", i);
        int64_t *v = rd_strmap_find(&m, key);
        assert_non_null(v);
        assert_int_equal(*v, i);
    }
    /* Putting again replaces and says so. */
    int added = -1;
    assert_int_equal(rd_strmap_put(&m, "key-7", 70, &added), RD_OK);
    assert_int_equal(added, 0);
    assert_int_equal(*rd_strmap_find(&m, "key-7"), 70);
    assert_int_equal(m.len, 5000);
    rd_strmap_release(&m);
    assert_null(rd_strmap_find(&m, "key-7"));
    rd_strmap_release(&m);
}

static void strmap_keys_are_byte_strings(void **state)
{
    (void)state;
    struct rd_strmap m;
    rd_strmap_init(&m);
    /* "x\0one" and "x\0two" are two keys, and neither is "x". */
    assert_int_equal(rd_strmap_putn(&m, "x\0one", 5, 1, NULL), RD_OK);
    assert_int_equal(rd_strmap_putn(&m, "x\0two", 5, 2, NULL), RD_OK);
    assert_int_equal(m.len, 2);
    assert_int_equal(*rd_strmap_findn(&m, "x\0one", 5), 1);
    assert_int_equal(*rd_strmap_findn(&m, "x\0two", 5), 2);
    assert_null(rd_strmap_find(&m, "x"));
    /* The key is copied: the caller's buffer may change. */
    char buf[8] = "temp";
    assert_int_equal(rd_strmap_put(&m, buf, 9, NULL), RD_OK);
    strcpy(buf, "zzzz");
    assert_int_equal(*rd_strmap_find(&m, "temp"), 9);
    /* A slot for read-modify-write. */
    int64_t *slot;
    int added;
    assert_int_equal(rd_strmap_slotn(&m, "max", 3, 0, &slot, &added), RD_OK);
    assert_int_equal(added, 1);
    assert_int_equal(*slot, 0);
    *slot = 41;
    assert_int_equal(rd_strmap_slotn(&m, "max", 3, 0, &slot, &added), RD_OK);
    assert_int_equal(added, 0);
    assert_int_equal(*slot, 41);
    rd_strmap_release(&m);
}

static void utf8_decodes_and_rejects(void **state)
{
    (void)state;
    uint32_t cp = 0;
    assert_int_equal(rd_utf8_decode((const unsigned char *)"A", 1, &cp), 1);
    assert_int_equal(cp, 0x41);
    assert_int_equal(rd_utf8_decode((const unsigned char *)"\xc3\xa9", 2, &cp), 2);
    assert_int_equal(cp, 0xe9);
    assert_int_equal(rd_utf8_decode((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3);
    assert_int_equal(cp, 0x20ac);
    assert_int_equal(rd_utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1f600);
    /* Overlong "/" (C0 AF), a surrogate (ED A0 80), past U+10FFFF
     * (F4 90 80 80), a stray continuation byte, a cut sequence. */
    assert_int_equal(rd_utf8_valid_len((const unsigned char *)"\xc0\xaf", 2), 0);
    assert_int_equal(rd_utf8_valid_len((const unsigned char *)"\xed\xa0\x80", 3), 0);
    assert_int_equal(rd_utf8_valid_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0);
    assert_int_equal(rd_utf8_valid_len((const unsigned char *)"\x80", 1), 0);
    assert_int_equal(rd_utf8_valid_len((const unsigned char *)"\xe2\x82", 2), 0);
    const char *text = "plain ascii text, then \xc3\xa9 and \xff here";
    assert_int_equal(rd_utf8_invalid_at(text, strlen(text)), strlen(text) - 6);
    assert_int_equal(rd_utf8_invalid_at("ok", 2), 2);
}

/* The writer of report.tex and the line charts keeps its first error:
 * a buffer capped at 8 bytes takes "abcdef", refuses "ghi" (9 bytes), and
 * nothing after that is written or replaces that error. */
static void bw_keeps_first_error(void **state)
{
    (void)state;
    struct rd_buf b;
    rd_buf_init(&b, 8);
    struct rd_bw w = RD_BW_INIT(&b);
    rd_bw_str(&w, "abc");
    rd_bw_f(&w, "%s", "def");
    assert_int_equal(w.st, RD_OK);
    assert_true(rd_bw_ok(&w, RD_OK));
    rd_bw_str(&w, "ghi");
    assert_int_equal(w.st, RD_ERR_NOMEM);
    assert_false(rd_bw_ok(&w, RD_ERR_IO));
    rd_bw_ch(&w, 'x');
    rd_bw_f(&w, "%d", 1);
    assert_int_equal(w.st, RD_ERR_NOMEM);
    assert_string_equal(b.ptr, "abcdef");
    rd_buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(array_grows_and_refuses_overflow),
        cmocka_unit_test(array_grows_from_a_first_capacity),
        cmocka_unit_test(arena_bumps_within_and_across_blocks),
        cmocka_unit_test(fnv1a_matches_reference_vectors),
        cmocka_unit_test(strmap_puts_finds_and_grows),
        cmocka_unit_test(strmap_keys_are_byte_strings),
        cmocka_unit_test(utf8_decodes_and_rejects),
        cmocka_unit_test(bw_keeps_first_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
