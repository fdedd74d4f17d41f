// links: rd_analyze
/*
 * The sides of --compare (comparesides.c): how each side is named, the
 * column heads and the JSON "sides" names of docs/compare.md. A plain
 * store is named by its file name when no other side has it, else by its
 * path as given, and a path given again by the path and its count; a
 * NAME=STORE[,STORE...] group by NAME. (The operands below are not files:
 * the names come from the text alone.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "comparestores.h"

/* Parses ops[0..n) and checks the sides' names against want[0..n). */
static void names_are(const char *const *ops, size_t n, const char *const *want)
{
    struct rd_compare_sides s;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status st = rd_compare_sides_parse(&s, ops, n, &d);
    if (st)
        print_error("%s\n", d.msg);
    assert_int_equal(st, RD_OK);
    assert_int_equal(s.ngroups, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(s.groups[i].name, want[i]);
    rd_compare_sides_release(&s);
}

static void stores_by_file_name(void **state)
{
    (void)state;
    /* Two plain stores were "old" and "new" before: now their files. */
    const char *two[] = { "ci/base/old.jsonl", "new.jsonl" };
    names_are(two, 2, (const char *[]){ "old.jsonl", "new.jsonl" });
    const char *three[] = { "main.jsonl", "runs/pr1.jsonl", "/tmp/pr2.jsonl" };
    names_are(three, 3, (const char *[]){ "main.jsonl", "pr1.jsonl", "pr2.jsonl" });
    /* "dir/" has no file name: its path. */
    const char *slash[] = { "a/", "b.jsonl" };
    names_are(slash, 2, (const char *[]){ "a/", "b.jsonl" });
}

static void same_file_name_by_path(void **state)
{
    (void)state;
    /* Two stores of one file name in two folders: their paths; a third
     * with a file name of its own keeps it. */
    const char *ops[] = { "base/s.jsonl", "head/s.jsonl", "other/x.jsonl" };
    names_are(ops, 3, (const char *[]){ "base/s.jsonl", "head/s.jsonl", "x.jsonl" });
    const char *here[] = { "s.jsonl", "head/s.jsonl" };
    names_are(here, 2, (const char *[]){ "s.jsonl", "head/s.jsonl" });
    /* A group named like a store's file name: the store by its path. */
    const char *group[] = { "s.jsonl=a.jsonl,b.jsonl", "head/s.jsonl" };
    names_are(group, 2, (const char *[]){ "s.jsonl", "head/s.jsonl" });
}

static void same_path_counted(void **state)
{
    (void)state;
    /* The same store on both sides (an A/A check) is told apart by count. */
    const char *aa[] = { "old.jsonl", "old.jsonl" };
    names_are(aa, 2, (const char *[]){ "old.jsonl", "old.jsonl (2)" });
    const char *three[] = { "d/s.jsonl", "e/s.jsonl", "d/s.jsonl" };
    names_are(three, 3, (const char *[]){ "d/s.jsonl", "e/s.jsonl", "d/s.jsonl (2)" });
}

static void groups_keep_their_names(void **state)
{
    (void)state;
    const char *ops[] = { "base=b/s.jsonl", "pr=p1.jsonl,p2.jsonl", "x/s.jsonl" };
    names_are(ops, 3, (const char *[]){ "base", "pr", "s.jsonl" });
    /* Two sides of one name are still refused. */
    const char *twice[] = { "x=a.jsonl", "x=b.jsonl" };
    struct rd_compare_sides s;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_compare_sides_parse(&s, twice, 2, &d), RD_ERR_USAGE);
    assert_non_null(strstr(d.msg, "two sides are named 'x'"));
    rd_compare_sides_release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stores_by_file_name),
        cmocka_unit_test(same_file_name_by_path),
        cmocka_unit_test(same_path_counted),
        cmocka_unit_test(groups_keep_their_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
