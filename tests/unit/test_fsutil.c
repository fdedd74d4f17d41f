/*
 * test_fsutil - rd_path_relative on a tree made for the test (the
 * expected paths written by hand, as `realpath --relative-to=DIR PATH`
 * of coreutils prints them), rd_path_dirname, the sweep of the
 * temporaries a killed writer left, and the early writeback of a big
 * atomic file.
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
#include <sys/file.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <time.h>
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

/* A temporary of out.json, last written 'age' seconds ago. */
static int make_tmp(const char *dir, const char *suffix, int age)
{
    char p[600];
    snprintf(p, sizeof p, "%s/out.json.tmp.%s", dir, suffix);
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "{\"half", 6), 6);
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= age;
    t[1] = t[0];
    assert_int_equal(futimens(fd, t), 0);
    return fd;
}

static bool exists(const char *dir, const char *name)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat sb;
    return stat(p, &sb) == 0;
}

/* The next write of out.json removes what a SIGKILLed writer left (old,
 * unlocked), and keeps a live writer's (locked) and a new one (a writer
 * between its mkstemp and its lock); other names are left alone. */
static void test_atomic_sweep(void **state)
{
    (void)state;
    char dir[] = "/tmp/rundown-test-sweep-XXXXXX";
    assert_non_null(mkdtemp(dir));
    close(make_tmp(dir, "dead01", 60));
    int live = make_tmp(dir, "live01", 60);
    assert_int_equal(flock(live, LOCK_EX), 0);
    close(make_tmp(dir, "young1", 0));
    close(make_tmp(dir, "x", 60));  /* not mkstemp's six characters */
    char other[600];
    snprintf(other, sizeof other, "%s/other.json.tmp.dead02", dir);
    FILE *f = fopen(other, "w");
    assert_non_null(f);
    fclose(f);
    struct timespec t[2] = {{0, 0}, {0, 0}};
    assert_int_equal(utimensat(AT_FDCWD, other, t, 0), 0);

    char out[600];
    snprintf(out, sizeof out, "%s/out.json", dir);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_write_file_atomic(out, "{}\n", 3, &d), RD_OK);
    assert_false(exists(dir, "out.json.tmp.dead01"));
    assert_true(exists(dir, "out.json.tmp.live01"));
    assert_true(exists(dir, "out.json.tmp.young1"));
    assert_true(exists(dir, "out.json.tmp.x"));
    assert_true(exists(dir, "other.json.tmp.dead02"));
    assert_true(exists(dir, "out.json"));
    /* Once the live writer is gone, its temporary goes too. */
    close(live);
    assert_int_equal(rd_atomic_sweep(out), 1);
    assert_false(exists(dir, "out.json.tmp.live01"));

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The file 'path' of n bytes ('a' + i % 26) mapped: mapped (n > 0), the
 * same bytes, a NUL byte after them, and read the same by rd_read_input. */
static void map_one(const char *path, size_t n)
{
    char *want = malloc(n + 1);
    assert_non_null(want);
    for (size_t i = 0; i < n; i++)
        want[i] = (char)('a' + i % 26);
    want[n] = '\0';
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(want, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    const struct rd_read_limits lim = { 0, RD_READ_REGULAR, NULL };
    struct rd_input in;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_map_input(path, &lim, &in, &d), RD_OK);
    assert_int_equal(in.len, n);
    assert_int_equal(in.map != NULL, n > 0);
    assert_memory_equal(in.ptr, want, n + 1);
    assert_int_equal(in.ptr[n], '\0');
    struct rd_buf b = RD_BUF_INIT;
    assert_int_equal(rd_read_input(path, &lim, &b, &d), RD_OK);
    assert_int_equal(b.len, n);
    assert_memory_equal(b.ptr, in.ptr, n + 1);
    rd_buf_release(&b);
    rd_input_release(&in);
    free(want);
}

static void test_map_input(void **state)
{
    (void)state;
    char dir[] = "/tmp/rundown-test-map-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[600];
    snprintf(path, sizeof path, "%s/a.json", dir);
    long page = sysconf(_SC_PAGESIZE);
    assert_true(page > 0);
    /* Empty (read, not mapped), one byte, a page less one, exactly one
     * and two pages (the NUL is past the file's pages), a page and one. */
    size_t sizes[] = { 0, 1, (size_t)page - 1, (size_t)page, 2 * (size_t)page,
                       (size_t)page + 1 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        map_one(path, sizes[i]);

    /* The cap and a folder: rd_read_input's errors. */
    const struct rd_read_limits lim = { 10, RD_READ_REGULAR, "--max-input SIZE" };
    struct rd_input in;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_map_input(path, &lim, &in, &d), RD_ERR_IO);
    assert_non_null(strstr(d.msg, "expected at most 10 bytes of input, got 4.0 KiB"));
    rd_input_release(&in);
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_map_input(dir, &lim, &in, &d), RD_ERR_IO);
    assert_non_null(strstr(d.msg, "expected a regular file, got a directory"));
    rd_input_release(&in);

    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* rd_atomic_writeback starts the writeback every RD_ATOMIC_WRITEBACK_BYTES
 * (8 MiB) written, not before, and leaves the bytes as written; on a
 * device it does nothing. Pieces of 3 MiB: started at 9 and 18 MiB. */
static void test_atomic_writeback(void **state)
{
    (void)state;
    char dir[] = "/tmp/rundown-test-writeback-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[600];
    snprintf(path, sizeof path, "%s/out.json", dir);
    const size_t piece = 3u << 20;
    char *buf = malloc(piece);
    assert_non_null(buf);
    struct rd_atomic_file af;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_atomic_open(&af, path, &d), RD_OK);
    const long long want[] = { 0, 0, 9LL << 20, 9LL << 20, 9LL << 20, 18LL << 20, 18LL << 20 };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        memset(buf, 'a' + (int)i, piece);
        assert_int_equal(fwrite(buf, 1, piece, af.f), piece);
        rd_atomic_writeback(&af);
        assert_int_equal(af.synced, want[i]);
    }
    assert_int_equal(rd_atomic_commit(&af, &d), RD_OK);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(fread(buf, 1, piece, f), piece);
        for (size_t j = 0; j < piece; j += 4099)
            assert_int_equal(buf[j], 'a' + (int)i);
    }
    assert_int_equal(fgetc(f), EOF);
    fclose(f);

    assert_int_equal(rd_atomic_open(&af, "/dev/null", &d), RD_OK);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(fwrite(buf, 1, piece, af.f), piece);
        rd_atomic_writeback(&af);
    }
    assert_int_equal(af.synced, 0);
    assert_int_equal(rd_atomic_commit(&af, &d), RD_OK);
    free(buf);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The first line of root/rel, newline cut; rel alone without a root;
 * false for a missing or empty file. */
static void test_file_line(void **state)
{
    (void)state;
    char dir[] = "/tmp/rd-fileline-XXXXXX", path[300], buf[16];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/one", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("2900000\nsecond\n", f);
    fclose(f);
    assert_true(rd_file_line(dir, "one", buf, sizeof buf));
    assert_string_equal(buf, "2900000");
    memset(buf, 'x', sizeof buf);
    assert_true(rd_file_line(NULL, path, buf, sizeof buf));
    assert_string_equal(buf, "2900000");
    assert_false(rd_file_line(dir, "missing", buf, sizeof buf));
    snprintf(path, sizeof path, "%s/empty", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_false(rd_file_line(dir, "empty", buf, sizeof buf));
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relative),
        cmocka_unit_test(test_atomic_sweep),
        cmocka_unit_test(test_map_input),
        cmocka_unit_test(test_atomic_writeback),
        cmocka_unit_test(test_file_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
