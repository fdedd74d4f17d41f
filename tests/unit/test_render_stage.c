// links: rd_render
/*
 * test_render_stage.c - the staging folder and its commit (stage.h): the
 * new report replaces the previous one entry by entry, charts/ as a whole;
 * a commit whose rename fails part-way puts back the entries it had
 * already moved, so the previous report is whole; staging folders left by
 * renders that are gone are swept, those of live ones are not; a signal
 * removes the staging folder and ends the process by that signal; a
 * render killed at any point of its commit (SIGKILL) leaves its journal,
 * and the next render into the folder finishes that commit, so the folder
 * holds one report whole; the journal's reader refuses what it does not
 * expect.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "rundown/fsutil.h"
#include "stage.h"

static char dir[64];

/* A render killed at each point of its commit: the rename calls of this
 * process are counted, and the one armed kills it with SIGKILL instead
 * (kill_at_rename_arm). */
#include "../sh/kill_at_rename.c"

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The content of dir/rel, or "(none)". */
static const char *get(const char *rel)
{
    static char buf[256];
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *f = fopen(p, "r");
    if (!f)
        return "(none)";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* How many staging folders dir holds. */
static int stages(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c '^\\" RD_STAGE_PREFIX "'", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    assert_int_equal(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

/* The previous report: report.md, report.html, charts/{a.svg,old.svg}. */
static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/test_render_stage.XXXXXX");
    assert_non_null(mkdtemp(dir));
    char charts[128];
    snprintf(charts, sizeof charts, "%s/charts", dir);
    assert_int_equal(mkdir(charts, 0755), 0);
    put("report.md", "old md");
    put("report.html", "old html");
    put("charts/a.svg", "old a");
    put("charts/old.svg", "old chart of a workload no longer there");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(rd_remove_tree(dir), 0);
    return 0;
}

static void stage_new(struct rd_stage *s)
{
    assert_int_equal(rd_stage_init(s, dir, NULL), RD_OK);
    assert_int_equal(rd_stage_write(s, "charts/a.svg", "new a", 5, NULL), RD_OK);
    assert_int_equal(rd_stage_write(s, "report.md", "new md", 6, NULL), RD_OK);
    assert_int_equal(rd_stage_write(s, "report.html", "new html", 8, NULL), RD_OK);
    assert_int_equal(rd_stage_write(s, "report.xlsx", "new xlsx", 8, NULL), RD_OK);
    assert_int_equal(stages(), 1);
}

static void test_commit_replaces_whole(void **state)
{
    (void)state;
    struct rd_stage s;
    stage_new(&s);
    assert_int_equal(rd_stage_commit(&s, NULL), RD_OK);
    rd_stage_release(&s);
    assert_string_equal(get("report.md"), "new md");
    assert_string_equal(get("report.html"), "new html");
    assert_string_equal(get("report.xlsx"), "new xlsx");
    assert_string_equal(get("charts/a.svg"), "new a");
    /* charts/ is the render's: it is replaced, stale charts go. */
    assert_string_equal(get("charts/old.svg"), "(none)");
    assert_int_equal(stages(), 0);
}

/* Makes dir/rel immutable (or not): renaming it then fails even for root.
 * False when the file system or the capabilities do not allow it. */
static bool immutable(const char *rel, bool on)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return false;
    int flags = 0;
    bool ok = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
    ok = ok && ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    close(fd);
    return ok;
}

static void test_failed_commit_puts_back(void **state)
{
    (void)state;
    if (!immutable("report.html", true)) {
        skip();
        return;
    }
    struct rd_stage s;
    stage_new(&s);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    /* charts/ and report.md are swapped in, report.html cannot be: both
     * go back, and report.xlsx is never tried. */
    rd_status st = rd_stage_commit(&s, &d);
    rd_stage_release(&s);
    immutable("report.html", false);
    assert_int_equal(st, RD_ERR_IO);
    assert_non_null(strstr(d.msg, "report.html"));
    assert_string_equal(get("report.md"), "old md");
    assert_string_equal(get("report.html"), "old html");
    assert_string_equal(get("report.xlsx"), "(none)");
    assert_string_equal(get("charts/a.svg"), "old a");
    assert_string_equal(get("charts/old.svg"), "old chart of a workload no longer there");
    assert_int_equal(stages(), 0);
}

static void test_sweep(void **state)
{
    (void)state;
    /* A folder left by a killed render (nobody holds its lock) goes; the
     * staging folder of a render still running stays. */
    char left[128];
    snprintf(left, sizeof left, "%s/" RD_STAGE_PREFIX "killed", dir);
    assert_int_equal(mkdir(left, 0700), 0);
    put(RD_STAGE_PREFIX "killed/report.md", "half");
    struct rd_stage a, b;
    assert_int_equal(rd_stage_init(&a, dir, NULL), RD_OK);
    assert_int_equal(stages(), 1);
    assert_int_equal(rd_stage_init(&b, dir, NULL), RD_OK);
    assert_int_equal(stages(), 2);
    rd_stage_release(&b);
    rd_stage_release(&a);
    assert_int_equal(stages(), 0);
    assert_string_equal(get("report.md"), "old md");
}

static void test_signal_removes_stage(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        rd_cleanup_on_signals(true, "test");
        struct rd_stage s;
        stage_new(&s);
        raise(SIGTERM);
        _exit(0); /* not reached */
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_int_equal(stages(), 0);
    assert_string_equal(get("report.md"), "old md");
}

/* The commit of stage_new with report.tex retired: report.tex out,
 * charts/, report.md and report.html swapped, report.xlsx in (the journal
 * is a symbolic link, made before them). */
#define COMMIT_RENAMES 5

static void test_kill_during_commit_is_finished(void **state)
{
    (void)state;
    bool mixed_seen = false;
    for (int k = 0; k <= COMMIT_RENAMES; k++) {
        teardown(NULL);
        setup(NULL);
        put("report.tex", "old tex");
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            struct rd_stage s;
            stage_new(&s);
            assert_int_equal(rd_stage_retire(&s, "report.tex"), RD_OK);
            kill_at_rename_arm(k);
            rd_stage_commit(&s, NULL);
            /* Past the last rename: killed before the staging folder goes. */
            raise(SIGKILL);
            _exit(0);
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        assert_int_equal(stages(), 1);
        if (strcmp(get("report.md"), "old md") == 0 && strcmp(get("charts/a.svg"), "new a") == 0)
            mixed_seen = true;
        /* The next render's sweep. */
        struct rd_stage next;
        assert_int_equal(rd_stage_init(&next, dir, NULL), RD_OK);
        rd_stage_release(&next);
        assert_int_equal(stages(), 0);
        /* Finished, wherever it was killed: the journal comes first. */
        assert_string_equal(get("report.md"), "new md");
        assert_string_equal(get("report.html"), "new html");
        assert_string_equal(get("report.xlsx"), "new xlsx");
        assert_string_equal(get("report.tex"), "(none)");
        assert_string_equal(get("charts/a.svg"), "new a");
        assert_string_equal(get("charts/old.svg"), "(none)");
    }
    /* The kill landed between two renames of the commit at least once. */
    assert_true(mixed_seen);
}

/* An entry whose new version is no longer in the staging folder (removed
 * by hand after the kill) is left as it is; the others are finished. */
static void test_finish_skips_a_missing_version(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rd_stage s;
        stage_new(&s);
        kill_at_rename_arm(1); /* charts/ swapped, then killed */
        rd_stage_commit(&s, NULL);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm '%s'/" RD_STAGE_PREFIX "*/report.md", dir);
    assert_int_equal(system(cmd), 0);
    struct rd_stage next;
    assert_int_equal(rd_stage_init(&next, dir, NULL), RD_OK);
    rd_stage_release(&next);
    assert_int_equal(stages(), 0);
    assert_string_equal(get("report.md"), "old md");
    assert_string_equal(get("report.html"), "new html");
    assert_string_equal(get("charts/a.svg"), "new a");
}

static void parse_fails(const char *text, unsigned line)
{
    struct rd_stage_journal_entry *es;
    size_t n;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_stage_journal_parse(text, strlen(text), &es, &n, &d), RD_ERR_PARSE);
    assert_int_equal(d.line, line);
    assert_null(es);
    assert_int_equal(n, 0);
}

static void test_journal_parse(void **state)
{
    (void)state;
    const char *ok = "rundown-stage-commit 1\n"
                     "retire report.tex\n"
                     "swap 2049 18446744073709551615 charts\n";
    struct rd_stage_journal_entry *es;
    size_t n;
    assert_int_equal(rd_stage_journal_parse(ok, strlen(ok), &es, &n, NULL), RD_OK);
    assert_int_equal(n, 2);
    assert_true(es[0].retire);
    assert_string_equal(es[0].name, "report.tex");
    assert_false(es[1].retire);
    assert_true(es[1].dev == 2049 && es[1].ino == 18446744073709551615ull);
    assert_string_equal(es[1].name, "charts");
    rd_stage_journal_free(es, n);

    parse_fails("rundown-stage-commit 2\n", 1);
    parse_fails("rundown-stage-commit 1\nswap 1 2 report.md", 2);           /* cut */
    parse_fails("rundown-stage-commit 1\nswap 1 2 ../report.md\n", 2);
    parse_fails("rundown-stage-commit 1\nretire ..\n", 2);
    parse_fails("rundown-stage-commit 1\nswap 1 18446744073709551616 x\n", 2); /* 2^64 */
    parse_fails("rundown-stage-commit 1\nretire a\nswap 1 x\n", 3);
    parse_fails("rundown-stage-commit 1\nmove a\n", 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commit_replaces_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_commit_puts_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sweep, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signal_removes_stage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kill_during_commit_is_finished, setup, teardown),
        cmocka_unit_test_setup_teardown(test_finish_skips_a_missing_version, setup, teardown),
        cmocka_unit_test(test_journal_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
