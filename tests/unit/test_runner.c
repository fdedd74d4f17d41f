// links: rd_collect
/*
 * test_runner - one timed command run as a record (status, exit code,
 * metrics, errors, logs, prepare/cleanup, the process tree's memory),
 * slugs and record copies. Wall times are checked to exist, never against
 * a figure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "envinfo.h"
#include "runner.h"
#include "rundown/json.h"

static const char *source_get(const struct rd_record *r, const char *key)
{
    for (size_t i = 0; i < r->source.len; i++)
        if (strcmp(r->source.items[i].key, key) == 0)
            return r->source.items[i].value;
    return NULL;
}

static void run_cmd(char **argv, double timeout, const char *prepare, const char *logdir,
                    struct rd_recordset *set, struct rd_record **out)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_recordset_init(set);
    struct rd_record *r = rd_recordset_add(set);
    assert_non_null(r);
    assert_int_equal(rd_record_set(r, &r->workload, "w"), RD_OK);
    struct rd_command_spec spec = {.argv = argv, .timeout_s = timeout, .prepare = prepare,
                                   .logs = {.dir = logdir, .stem = "w/run-1"}};
    assert_int_equal(rd_runner_command(&spec, r, &d), RD_OK);
    assert_int_equal(rd_record_validate(r, &d), RD_OK);
    *out = r;
}

static void test_ok_with_metrics(void **state)
{
    (void)state;
    struct rd_recordset set;
    struct rd_record *r;
    double v;
    char *argv[] = {"sh", "-c",
                    "echo 'rundown:metric calc_ms=12.5'; echo 'rundown:metric wall_ms=1'", NULL};
    run_cmd(argv, 0, NULL, NULL, &set, &r);
    assert_string_equal(r->status, "ok");
    assert_string_equal(r->tool, "rundown");
    assert_true(r->has_exit_code);
    assert_int_equal(r->exit_code, 0);
    assert_non_null(r->started_at);
    assert_true(rd_record_metric(r, "calc_ms", &v) && v == 12.5);
    /* The measured wall_ms is kept; the printed one is ignored and noted. */
    assert_true(rd_record_metric(r, "wall_ms", &v) && v != 1.0);
    assert_true(rd_record_metric(r, "user_ms", &v));
    assert_true(rd_record_metric(r, "sys_ms", &v));
    assert_true(rd_record_metric(r, "max_rss_kib", &v) && v > 0);
    assert_string_equal(rd_record_info(r, "ignored_metric_lines"), "1");
    rd_recordset_release(&set);
}

static void test_failed_and_timeout(void **state)
{
    (void)state;
    struct rd_recordset set;
    struct rd_record *r;
    char *f[] = {"sh", "-c", "echo boom >&2; exit 3", NULL};
    run_cmd(f, 0, NULL, NULL, &set, &r);
    assert_string_equal(r->status, "failed");
    assert_int_equal(r->exit_code, 3);
    assert_string_equal(rd_record_info(r, "error"), "exit status 3: boom");
    rd_recordset_release(&set);

    char *t[] = {"sleep", "10", NULL};
    run_cmd(t, 0.2, NULL, NULL, &set, &r);
    assert_string_equal(r->status, "timeout");
    assert_int_equal(r->exit_code, 128 + 15);
    assert_non_null(strstr(rd_record_info(r, "error"), "timed out after 0.2 s"));
    rd_recordset_release(&set);

    char *ok[] = {"true", NULL};
    run_cmd(ok, 0, "exit 5", NULL, &set, &r);
    assert_string_equal(r->status, "failed");
    assert_false(r->has_exit_code);
    assert_string_equal(rd_record_info(r, "error"), "prepare command failed: exit status 5");
    rd_recordset_release(&set);
}

static void test_logs(void **state)
{
    (void)state;
    char dir[] = "/tmp/rundown-test-runner-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct rd_recordset set;
    struct rd_record *r;
    char *argv[] = {"sh", "-c", "echo hello", NULL};
    run_cmd(argv, 0, NULL, dir, &set, &r);
    char want[256];
    snprintf(want, sizeof want, "%s/w/run-1.stdout.txt", dir);
    /* stdout is kept; the empty stderr log is removed, not listed. */
    assert_string_equal(source_get(r, "stdout_log"), want);
    assert_null(source_get(r, "stderr_log"));
    struct stat st;
    assert_int_equal(stat(want, &st), 0);
    assert_int_equal(st.st_size, 6);
    snprintf(want, sizeof want, "%s/w/run-1.stderr.txt", dir);
    assert_int_not_equal(stat(want, &st), 0);
    rd_recordset_release(&set);
    snprintf(want, sizeof want, "rm -rf '%s'", dir);
    assert_int_equal(system(want), 0);
}

static void test_slug_and_copy(void **state)
{
    (void)state;
    char out[64];
    assert_string_equal(rd_runner_slug("bun-1.2_x", out, sizeof out), "bun-1.2_x");
    assert_string_equal(rd_runner_slug("a b/c", out, sizeof out), "a%20b%2Fc");
    assert_string_equal(rd_runner_slug("..", out, sizeof out), "%2E.");
    assert_true(rd_runner_reserved_metric("wall_ms"));
    assert_false(rd_runner_reserved_metric("heavycalc_ms"));

    struct rd_recordset a, b;
    rd_recordset_init(&a);
    rd_recordset_init(&b);
    struct rd_record *src = rd_recordset_add(&a);
    assert_int_equal(rd_record_set(src, &src->workload, "w"), RD_OK);
    assert_int_equal(rd_record_set(src, &src->suite, "s"), RD_OK);
    assert_int_equal(rd_record_set_label(src, "runtime", "bun"), RD_OK);
    assert_int_equal(rd_record_set_info(src, "class", "cpu"), RD_OK);
    assert_int_equal(rd_record_set_metric(src, "x_ms", 2), RD_OK);
    src->run = 3;
    struct rd_record *dst = rd_recordset_add(&b);
    assert_int_equal(rd_record_copy(dst, src), RD_OK);
    rd_recordset_release(&a);  /* the copy must not point into a's arena */
    struct rd_buf j1 = RD_BUF_INIT;
    assert_int_equal(rd_record_to_json(dst, &j1), RD_OK);
    assert_non_null(strstr(j1.ptr, "\"suite\":\"s\",\"workload\":\"w\",\"config\":{\"runtime\":\"bun\"},\"run\":3"));
    assert_non_null(strstr(j1.ptr, "\"x_ms\":2"));
    rd_buf_release(&j1);
    rd_recordset_release(&b);
}

static void test_env(void **state)
{
    (void)state;
    char *v1[] = {"sh", "-c", "echo; echo '  tool v1  '", NULL};
    char *v2[] = {"sh", "-c", "echo tool v2 >&2", NULL};
    char *bad[] = {"sh", "-c", "exit 3", NULL};
    struct rd_env_probe p1[] = {{.kind = "runtime", .name = "rt", .argv = v1},
                                {.kind = "tool", .name = "t", .argv = bad}};
    struct rd_env_probe p2[] = {{.kind = "runtime", .name = "rt", .argv = v2},
                                {.kind = "tool", .name = "t", .argv = bad}};
    cJSON *e1, *e2, *e3;
    char id1[32], id2[32], id3[32];
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_env_capture(p1, 2, "server 0", NULL, &e1, id1, sizeof id1, &d), RD_OK);
    assert_int_equal(rd_env_capture(p1, 2, NULL, NULL, &e2, id2, sizeof id2, &d), RD_OK);
    assert_int_equal(rd_env_capture(p2, 2, NULL, NULL, &e3, id3, sizeof id3, &d), RD_OK);
    /* Same facts, same id (the pinning note and load are not hashed); a
     * different runtime version, a different id. */
    assert_int_equal(strlen(id1), 12);
    assert_int_equal(strncmp(id1, "env-", 4), 0);
    assert_string_equal(id1, id2);
    assert_string_not_equal(id1, id3);
    assert_string_equal(rd_json_str(e1, "schema"), "rundown.env/1");
    assert_string_equal(rd_json_str(e1, "id"), id1);
    assert_string_equal(rd_json_str(e1, "pinning"), "server 0");
    const cJSON *rt = cJSON_GetObjectItem(cJSON_GetObjectItem(e1, "runtimes"), "rt");
    assert_string_equal(rd_json_str(rt, "version"), "tool v1");
    rt = cJSON_GetObjectItem(cJSON_GetObjectItem(e3, "runtimes"), "rt");
    assert_string_equal(rd_json_str(rt, "version"), "tool v2");
    const cJSON *t = cJSON_GetObjectItem(cJSON_GetObjectItem(e1, "tools"), "t");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(t, "version")));
    assert_string_equal(rd_json_str(t, "error"), "version command printed no version (exit status 3)");
    double cores;
    assert_true(rd_json_num(cJSON_GetObjectItem(e1, "cpu"), "cores_logical", &cores) && cores >= 1);

    char dir[] = "/tmp/rundown-test-env-XXXXXX", path[4096], cmd[128];
    assert_non_null(mkdtemp(dir));
    assert_int_equal(rd_env_write_once(dir, e1, id1, path, sizeof path, &d), RD_OK);
    FILE *f = fopen(path, "w");  /* a second write must keep the first file */
    fputs("first", f);
    fclose(f);
    assert_int_equal(rd_env_write_once(dir, e2, id1, path, sizeof path, &d), RD_OK);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 5);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    cJSON_Delete(e1);
    cJSON_Delete(e2);
    cJSON_Delete(e3);
}

/* The helper of test_tree_rss, run as this very program: touches MIB MiB,
 * says so with a file DIR/MIB, then holds them until DIR holds two such
 * files (both helpers hold their memory) and 0.3 s more. mmap, not malloc,
 * so a sanitizer adds no shadow pages of its own to the figure. */
static int hold_memory(const char *mib, const char *dir)
{
    size_t bytes = (size_t)atol(mib) << 20;
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 1;
    memset(p, 1, bytes);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, mib);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fclose(f);
    for (int i = 0; i < 3000; i++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, strcmp(mib, "100") == 0 ? "50" : "100");
        if (stat(path, &st) == 0)
            break;
        usleep(10000);
    }
    usleep(300000);
    return p[bytes - 1] == 1 ? 0 : 1;
}

/*
 * Two children holding 100 MiB and 50 MiB at the same time (0.3 s at
 * least): wait4's max_rss_kib is the larger child alone, about 100 MiB
 * (the largest single process: 102400 KiB plus the program's own pages),
 * while the tree, summed at one moment, holds at least 100 + 50 MiB =
 * 153600 KiB.
 */
static void test_tree_rss(void **state)
{
    (void)state;
    char exe[4096], cmd[9000], dir[] = "/tmp/rundown-test-tree-XXXXXX";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(n > 0);
    exe[n] = '\0';
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "'%s' --hold 100 '%s' & '%s' --hold 50 '%s' & wait", exe, dir,
             exe, dir);
    char *argv[] = {"sh", "-c", cmd, NULL};
    struct rd_recordset set;
    struct rd_record *r;
    double single, tree;
    run_cmd(argv, 60, NULL, NULL, &set, &r);
    assert_string_equal(r->status, "ok");
    assert_true(rd_record_metric(r, "max_rss_kib", &single));
    assert_true(rd_record_metric(r, "tree_rss_peak_kib", &tree));
    /* The program's own pages vary by build (ASan's shadow and allocator
     * add about 30 MiB to each child), so single is not bounded by a fixed
     * figure: it is one child, so the tree exceeds it by most of the other
     * child's 50 MiB (90 %: the tree is sampled, not exact). */
    assert_true(single >= 102400);
    assert_true(tree >= 153600);
    assert_true(tree - single >= 0.9 * 51200);
    assert_non_null(strstr(rd_record_info(r, "tree_rss_method"), "every 20 ms"));
    assert_true(atoi(rd_record_info(r, "tree_rss_samples")) >= 10);
    rd_recordset_release(&set);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);

    /* An orphan of the tree (its parent, a subshell, exited at once; 0.3 s
     * in, after the first sample) is no child of a member but stays in the
     * command's process group: found by the periodic listing of /proc,
     * with its 50 MiB, while wait4 sees only sh. */
    assert_non_null(mkdtemp(strcpy(dir, "/tmp/rundown-test-tree-XXXXXX")));
    snprintf(cmd, sizeof cmd, "touch '%s/100'; sleep 0.3; ('%s' --hold 50 '%s' &); sleep 1.5",
             dir, exe, dir);
    char *orphan[] = {"sh", "-c", cmd, NULL};
    run_cmd(orphan, 60, NULL, NULL, &set, &r);
    assert_true(rd_record_metric(r, "max_rss_kib", &single));
    assert_true(rd_record_metric(r, "tree_rss_peak_kib", &tree));
    assert_true(single < 20 * 1024);
    assert_true(tree >= 51200);
    rd_recordset_release(&set);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);

    /* Sampling off: no tree figure rather than a wrong one. */
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_recordset_init(&set);
    r = rd_recordset_add(&set);
    assert_int_equal(rd_record_set(r, &r->workload, "w"), RD_OK);
    char *t[] = {"true", NULL};
    struct rd_command_spec spec = {.argv = t, .sample_ms = -1};
    assert_int_equal(rd_runner_command(&spec, r, &d), RD_OK);
    assert_false(rd_record_metric(r, "tree_rss_peak_kib", &tree));
    assert_null(rd_record_info(r, "tree_rss_method"));
    rd_recordset_release(&set);
}

/* Issue 28: long names get a hash suffix and fit a file name; the load
 * timeout of http comes from the load command's duration. */
static void test_long_slug_and_load_timeout(void **state)
{
    (void)state;
    char a[400], b[400], out1[512], out2[512];
    memset(a, 'x', 300);
    a[300] = '1';
    a[301] = '\0';
    memcpy(b, a, 302);
    b[300] = '2';
    rd_runner_slug(a, out1, sizeof out1);
    rd_runner_slug(b, out2, sizeof out2);
    assert_true(strlen(out1) <= RD_SLUG_MAX);
    assert_string_not_equal(out1, out2);
    /* 43 Cyrillic letters: 86 bytes, 258 escaped. */
    char cyr[200] = "";
    for (int i = 0; i < 43; i++)
        strcat(cyr, "\xd1\x8f");
    rd_runner_slug(cyr, out1, sizeof out1);
    assert_true(strlen(out1) <= RD_SLUG_MAX);
    assert_non_null(strstr(out1, "%D1%8F"));
    /* A short name is unchanged. */
    rd_runner_slug("w 1", out1, sizeof out1);
    assert_string_equal(out1, "w%201");

    /* 2 x 10 s + 60 = 80; 2 x 30 + 60 = 120; 2 x 120 + 60 = 300. */
    char *wrk[] = {"wrk", "-t2", "-c10", "-d", "10s", "http://x/", NULL};
    char *hey[] = {"hey", "-z", "30s", "http://x/", NULL};
    char *ac[] = {"autocannon", "-d", "120", "http://x/", NULL};
    char *k6[] = {"k6", "run", "--duration=10s", "s.js", NULL};
    char *none[] = {"ab", "-n", "1000", "http://x/", NULL};
    assert_true(rd_load_default_timeout(wrk) == 80);
    assert_true(rd_load_default_timeout(hey) == 120);
    assert_true(rd_load_default_timeout(ac) == 300);
    assert_true(rd_load_default_timeout(k6) == 80);
    assert_true(rd_load_default_timeout(none) == RD_LOAD_TIMEOUT_DEFAULT_S);
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--hold") == 0)
        return hold_memory(argv[2], argv[3]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ok_with_metrics),
        cmocka_unit_test(test_failed_and_timeout),
        cmocka_unit_test(test_logs),
        cmocka_unit_test(test_slug_and_copy),
        cmocka_unit_test(test_env),
        cmocka_unit_test(test_tree_rss),
        cmocka_unit_test(test_long_slug_and_load_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
