/*
 * test_fsutil - rd_path_relative on a tree made for the test (the
 * expected paths written by hand, as `realpath --relative-to=DIR PATH`
 * of coreutils prints them), and rd_path_dirname.
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

#include "rundown/fsutil.h"

static char root[] = "/tmp/rundown-test-fsutil-XXXXXX";

static void relative(const char *path, const char *dir, const char *want)
{
    char p[512], b[512];
    snprintf(p, sizeof p, "%s/%s", root, path);
    snprintf(b, sizeof b, "%s/%s", root, dir);
    struct rd_buf out = RD_BUF_INIT;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_path_relative(p, b, &out, &d), RD_OK);
    assert_string_equal(out.ptr, want);
    rd_buf_release(&out);
}

static void test_relative(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(root));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p data/raw/logs/w data/samples ab a && "
             "touch data/raw/s.jsonl data/samples/wrk.txt ab/f", root);
    assert_int_equal(system(cmd), 0);
    relative("data/raw/logs/w", "data/raw", "logs/w");
    relative("data/samples/wrk.txt", "data/raw", "../samples/wrk.txt");
    relative("data/raw", "data/raw", ".");
    relative("data/raw/../raw/s.jsonl", "data/./raw", "s.jsonl");
    relative("ab/f", "a", "../ab/f");          /* "a" is no prefix of "ab" */
    relative("data", "data/raw/logs/w", "../../..");
    struct rd_buf out = RD_BUF_INIT;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_path_relative("/no/such/file", root, &out, &d), RD_ERR_IO);
    assert_string_equal(d.path, "/no/such/file");
    rd_buf_release(&out);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);

    char dir[64];
    rd_path_dirname("data/raw/s.jsonl", dir, sizeof dir);
    assert_string_equal(dir, "data/raw");
    rd_path_dirname("s.jsonl", dir, sizeof dir);
    assert_string_equal(dir, ".");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
