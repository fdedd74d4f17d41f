// links: rd_analyze
/*
 * test_split.c - where a big store is cut into the parts its threads read
 * (split.h): the lengths of the parts by hand, and on files of lines of
 * many lengths that every byte is in exactly one part, every part starts
 * at a line, and the parts shrink towards the end of the file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "split.h"

static char path[64];

static void write_file(const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* 100 bytes for 2 threads, floor 4: each part a quarter of what is left,
 * rounded up, until that is under 4 bytes. By hand: ceil(100/4) = 25,
 * ceil(75/4) = 19, ceil(56/4) = 14, ceil(42/4) = 11, ceil(31/4) = 8,
 * ceil(23/4) = 6, ceil(17/4) = 5, then 12, 8 and 4 left: 4, 4, 4
 * (sum 100, 10 parts). With floor 8: 25, 19, 14, 11, 8, then
 * max(ceil(23/4), 8) = 8, 8, and the 7 left (8 parts). */
static void test_lengths_by_hand(void **state)
{
    (void)state;
    const unsigned long long four[] = {25, 19, 14, 11, 8, 6, 5, 4, 4, 4};
    unsigned long long left = 100;
    for (size_t i = 0; i < sizeof four / sizeof four[0]; i++) {
        assert_int_equal(rd_split_len(left, 4, 2), four[i]);
        left -= four[i];
    }
    assert_int_equal(left, 0);
    const unsigned long long eight[] = {25, 19, 14, 11, 8, 8, 8, 7};
    left = 100;
    for (size_t i = 0; i < sizeof eight / sizeof eight[0]; i++) {
        assert_int_equal(rd_split_len(left, 8, 2), eight[i]);
        left -= eight[i];
    }
    assert_int_equal(left, 0);
    /* 8 threads: a sixteenth of what is left, ceil(1000/16) = 63 */
    assert_int_equal(rd_split_len(1000, 1, 8), 63);
    /* The floor rises, doubling, until the parts fit: 10 parts at 4, 8 at 8. */
    assert_int_equal(rd_split_floor(100, 4, 2, 10), 4);
    assert_int_equal(rd_split_floor(100, 4, 2, 9), 8);
    assert_int_equal(rd_split_floor(100, 4, 2, 8), 8);
    assert_int_equal(rd_split_floor(100, 0, 2, 64), 1);
}

/* A file of 400 newlines splits exactly at the lengths: min 256 gives
 * the floor 256 / 64 = 4; by hand for 2 threads: 100, 75, 57 (ceil
 * 56.25), 42, 32, 24, 18, 13, 10, 8, 6, then 11, 7 and 3 left: 4, 4, 4, 3
 * (15 parts). */
static void test_points_of_newlines(void **state)
{
    (void)state;
    char text[400];
    memset(text, '\n', sizeof text);
    write_file(text, sizeof text);
    const long long want[] = {100, 175, 232, 274, 306, 330, 348, 361, 371, 379, 385, 389, 393, 397};
    long long at[64], size = 0;
    size_t n = rd_split_points(path, 256, 2, 64, at, &size);
    assert_int_equal(n, sizeof want / sizeof want[0] + 1);
    assert_int_equal(size, 400);
    for (size_t i = 0; i + 1 < n; i++)
        assert_int_equal(at[i], want[i]);
    /* room for 8 parts: the floor doubles to 32 (100, 75, 57, 42, 32, 32,
     * 32, 30), and the cuts stay exact */
    n = rd_split_points(path, 256, 2, 8, at, &size);
    const long long want8[] = {100, 175, 232, 274, 306, 338, 370};
    assert_int_equal(n, 8);
    for (size_t i = 0; i + 1 < n; i++)
        assert_int_equal(at[i], want8[i]);
}

/* Lines of 1 to 300 bytes (a fixed LCG), about 150 kB: at every thread
 * count and split size the cuts cover the file once, each just after a
 * newline, each part at least its length and less than that plus a
 * line, so no part is longer than the one before it by a line or more. */
static void test_points_cover_lines(void **state)
{
    (void)state;
    enum { LINES = 1000, LONGEST = 300 };
    char *text = malloc((size_t)LINES * LONGEST);
    assert_non_null(text);
    size_t len = 0;
    uint32_t x = 12345;
    for (size_t i = 0; i < LINES; i++) {
        x = x * 1103515245u + 12345u;
        size_t line = 1 + (x >> 16) % LONGEST;
        memset(text + len, 'x', line - 1);
        len += line;
        text[len - 1] = '\n';
    }
    write_file(text, len);
    const size_t mins[] = {1, 4096, 65536};
    for (size_t threads = 2; threads <= 8; threads++)
        for (size_t m = 0; m < sizeof mins / sizeof mins[0]; m++) {
            size_t most = threads * 16;
            long long at[8 * 16], size = 0;
            size_t n = rd_split_points(path, mins[m], threads, most, at, &size);
            assert_int_equal(size, (long long)len);
            assert_true(n >= 2 && n <= most);
            unsigned long long floor =
                rd_split_floor(len, mins[m] / RD_SPLIT_TAIL, threads, most);
            long long start = 0, before = (long long)len;
            for (size_t i = 0; i < n; i++) {
                long long end = i + 1 < n ? at[i] : (long long)len;
                assert_true(end > start);
                assert_true(text[end - 1] == '\n');
                long long part = end - start;
                if (i + 1 < n) {
                    long long goal = (long long)rd_split_len(len - (size_t)start, floor, threads);
                    assert_true(part >= goal && part < goal + LONGEST);
                }
                assert_true(part < before + LONGEST);
                before = part;
                start = end;
            }
            /* the first part is about a (2 * threads)-th of the file */
            assert_true(at[0] >= (long long)(len / (2 * threads)));
        }
    free(text);
}

/* One part: a file under min, one thread, min 0, standard input, no
 * newline before the end, or no file. */
static void test_one_part(void **state)
{
    (void)state;
    long long at[16], size = -1;
    write_file("a\nb\nc\n", 6);
    assert_int_equal(rd_split_points(path, 7, 2, 16, at, &size), 1);
    assert_int_equal(rd_split_points(path, 1, 1, 16, at, &size), 1);
    assert_int_equal(rd_split_points(path, 0, 2, 16, at, &size), 1);
    assert_int_equal(rd_split_points(path, 1, 2, 1, at, &size), 1);
    assert_int_equal(rd_split_points("-", 1, 2, 16, at, &size), 1);
    assert_int_equal(rd_split_points(path, 6, 2, 16, at, &size), 3);
    assert_int_equal(size, 6);
    assert_int_equal(at[0], 2);
    assert_int_equal(at[1], 4);
    write_file("abcdefgh\n", 9);
    assert_int_equal(rd_split_points(path, 1, 2, 16, at, &size), 1);
    write_file("abcdefgh", 8);
    assert_int_equal(rd_split_points(path, 1, 2, 16, at, &size), 1);
    unlink(path);
    assert_int_equal(rd_split_points(path, 1, 2, 16, at, &size), 1);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/test_split.%ld", (long)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lengths_by_hand),
        cmocka_unit_test(test_points_of_newlines),
        cmocka_unit_test(test_points_cover_lines),
        cmocka_unit_test(test_one_part),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return rc;
}
