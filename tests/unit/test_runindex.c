// links: rd_collect
/*
 * test_runindex - run keys by their parts and by a record: the highest run
 * and the count per series, exact runs, keys whose parts would run together
 * if joined by a control character, and a store read from a file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runindex.h"

static void test_series_by_parts(void **state)
{
    (void)state;
    struct rd_run_index ix;
    rd_run_index_init(&ix);
    struct rd_run_key a = {"s", "w", "rt=bun", NULL};
    struct rd_run_key aw = {"s", "w", "rt=bun", "warmup"};
    struct rd_run_key measure = {"s", "w", "rt=bun", "measure"};
    assert_null(rd_run_index_series(&ix, &a));
    assert_int_equal(rd_run_index_note(&ix, &a, 3), RD_OK);
    assert_int_equal(rd_run_index_note(&ix, &a, 1), RD_OK);
    assert_int_equal(rd_run_index_note(&ix, &a, 3), RD_OK); /* stored twice */
    assert_int_equal(rd_run_index_note(&ix, &aw, 1), RD_OK);
    /* A NULL phase is "measure". */
    const struct rd_run_series *se = rd_run_index_series(&ix, &measure);
    assert_non_null(se);
    assert_int_equal(se->last, 3);
    assert_int_equal(se->count, 2);
    assert_true(rd_run_index_contains(&ix, &a, 1));
    assert_false(rd_run_index_contains(&ix, &a, 2));
    assert_true(rd_run_index_contains(&ix, &a, 3));
    assert_int_equal(rd_run_index_series(&ix, &aw)->count, 1);
    /* No suite and an empty suite are one series. */
    struct rd_run_key nosuite = {NULL, "w", "", NULL}, empty = {"", "w", "", NULL};
    assert_int_equal(rd_run_index_note(&ix, &nosuite, 0), RD_OK);
    se = rd_run_index_series(&ix, &empty);
    assert_non_null(se);
    assert_int_equal(se->last, 0);
    assert_int_equal(se->count, 0);
    assert_false(rd_run_index_contains(&ix, &empty, 0));
    rd_run_index_release(&ix);
    assert_null(rd_run_index_series(&ix, &a));
}

static void test_parts_never_run_together(void **state)
{
    (void)state;
    struct rd_run_index ix;
    rd_run_index_init(&ix);
    /* Joined by \x1f, as the index once did, these were one key; parts are
     * C strings, joined by NUL bytes, so they never are. */
    struct rd_run_key x = {"a\x1f" "b", "c", "k=v", NULL};
    struct rd_run_key y = {"a", "b\x1f" "c", "k=v", NULL};
    struct rd_run_key z = {"a", "b", "c\x1f" "k=v", NULL};
    assert_int_equal(rd_run_index_note(&ix, &x, 1), RD_OK);
    assert_null(rd_run_index_series(&ix, &y));
    assert_null(rd_run_index_series(&ix, &z));
    assert_false(rd_run_index_contains(&ix, &y, 1));
    rd_run_index_release(&ix);
}

static void test_record_forms(void **state)
{
    (void)state;
    struct rd_run_index ix;
    struct rd_recordset set;
    rd_run_index_init(&ix);
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    assert_int_equal(rd_record_set(r, &r->workload, "w"), RD_OK);
    assert_int_equal(rd_record_set_label(r, "rt", "bun"), RD_OK);
    assert_int_equal(rd_record_set_label(r, "mech", "worker"), RD_OK);
    r->run = 4;
    assert_int_equal(rd_run_index_add(&ix, r), RD_OK);
    assert_true(rd_run_index_has(&ix, r));
    assert_int_equal(rd_run_index_max(&ix, r), 4);
    /* The key by parts is the one the record gives: labels sorted. */
    struct rd_run_key k = {NULL, "w", "mech=worker,rt=bun", "measure"};
    assert_true(rd_run_index_contains(&ix, &k, 4));
    struct rd_buf config = RD_BUF_INIT;
    struct rd_run_key of;
    assert_int_equal(rd_run_key_of(r, &config, &of), RD_OK);
    assert_string_equal(of.config, "mech=worker,rt=bun");
    assert_string_equal(of.workload, "w");
    assert_null(of.suite);
    rd_buf_release(&config);
    r->run = 5;
    assert_false(rd_run_index_has(&ix, r));
    assert_int_equal(rd_record_set(r, &r->phase, "warmup"), RD_OK);
    assert_int_equal(rd_run_index_max(&ix, r), 0);
    rd_recordset_release(&set);
    rd_run_index_release(&ix);
}

static void test_load_store(void **state)
{
    (void)state;
    char path[] = "/tmp/rd_test_runindex_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char text[] =
        "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},\"run\":1,"
        "\"metrics\":{\"wall_ms\":1}}\n"
        "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},\"run\":7,"
        "\"metrics\":{\"wall_ms\":1}}\n"
        "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"b\"},\"run\":2,"
        "\"phase\":\"warmup\",\"metrics\":{\"wall_ms\":1}}\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    struct rd_run_index ix;
    struct rd_diag d;
    rd_run_index_init(&ix);
    rd_diag_init(&d, path);
    assert_int_equal(rd_run_index_load(&ix, path, &d), RD_OK);
    struct rd_run_key a = {NULL, "w", "rt=a", NULL}, b = {NULL, "w", "rt=b", "warmup"};
    assert_int_equal(rd_run_index_series(&ix, &a)->last, 7);
    assert_int_equal(rd_run_index_series(&ix, &a)->count, 2);
    assert_true(rd_run_index_contains(&ix, &b, 2));
    unlink(path);
    /* A missing store is an empty one. */
    rd_run_index_release(&ix);
    assert_int_equal(rd_run_index_load(&ix, path, &d), RD_OK);
    assert_null(rd_run_index_series(&ix, &a));
    rd_run_index_release(&ix);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series_by_parts),
        cmocka_unit_test(test_parts_never_run_together),
        cmocka_unit_test(test_record_forms),
        cmocka_unit_test(test_load_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
