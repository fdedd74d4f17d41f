// links: rd_collect
/*
 * test_speedmemory - the remembered best speed probe reading
 * (speedmemory.h): kept and reread, a faster reading replacing it, the
 * rule that drops a best no session comes near, a damaged file set aside
 * and rewritten, keys kept apart, --forget-speed, and where the file is.
 * The times are given, so nothing here depends on the clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "speedmemory.h"

static char dir[64], path[128];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/rd-speedmem-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    /* A folder that does not exist yet: save makes it. */
    snprintf(path, sizeof path, "%s/sub/speed.json", dir);
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static struct rd_speed_key key(const char *model, int cpu)
{
    struct rd_speed_key k = {.max_khz = 3000000, .cpu = cpu};
    snprintf(k.probe, sizeof k.probe, "test-probe");
    snprintf(k.cpu_model, sizeof k.cpu_model, "%s", model);
    return k;
}

static void load(struct rd_speed_memory *m)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_speed_memory_load(m, path, &d), RD_OK);
}

static void save(struct rd_speed_memory *m)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_speed_memory_save(m, &d), RD_OK);
    rd_speed_memory_release(m);
}

/* The first session's best is remembered (nothing to judge by yet); a
 * slower session is judged by it and leaves it; a faster one is judged by
 * the old best and becomes the new one. Reread from the file each time. */
static void stored_best_and_a_faster_reading(void **state)
{
    (void)state;
    unlink(path);
    struct rd_speed_memory m;
    struct rd_speed_recall r;
    struct rd_speed_key k = key("Test CPU", -1);
    load(&m);
    assert_int_equal(m.n, 0);
    assert_string_equal(m.note, "");
    rd_speed_memory_note(&m, &k, 1.0, 85, 1000, &r);
    assert_true(isnan(r.remembered_ms));
    assert_false(r.replaced);
    save(&m);

    load(&m);
    const struct rd_speed_entry *e = rd_speed_memory_find(&m, &k);
    assert_non_null(e);
    assert_true(e->best_ms == 1.0 && e->best_at == 1000 && e->near_at == 1000);
    rd_speed_memory_note(&m, &k, 1.5, 85, 2000, &r); /* 1.0 / 1.5 = 67 %: a miss */
    assert_true(r.remembered_ms == 1.0 && r.remembered_at == 1000);
    save(&m);

    load(&m);
    e = rd_speed_memory_find(&m, &k);
    assert_true(e->best_ms == 1.0 && e->misses == 1 && e->near_at == 1000);
    rd_speed_memory_note(&m, &k, 0.8, 85, 3000, &r);
    assert_true(r.remembered_ms == 1.0);
    save(&m);

    load(&m);
    e = rd_speed_memory_find(&m, &k);
    assert_true(e->best_ms == 0.8 && e->best_at == 3000 && e->near_at == 3000 && e->misses == 0);
    rd_speed_memory_release(&m);
}

/* The misses rule: three sessions in a row short of the best are not
 * enough within six hours of the last near one (a spell of minutes); a
 * session that comes near (1.1 ms: 1.0 / 1.1 = 91 % >= 85 %) starts the
 * count over; three misses and six hours after it replace the best. */
static void a_best_no_session_comes_near_is_replaced(void **state)
{
    (void)state;
    unlink(path);
    struct rd_speed_memory m;
    struct rd_speed_recall r;
    struct rd_speed_key k = key("Test CPU", -1);
    const long long t0 = 100000, h = 3600;
    load(&m);
    rd_speed_memory_note(&m, &k, 1.0, 85, t0, &r);
    for (int i = 1; i <= 5; i++) {
        rd_speed_memory_note(&m, &k, 1.5, 85, t0 + i * 60, &r);
        assert_true(r.remembered_ms == 1.0);
        assert_false(r.replaced);
    }
    assert_int_equal(rd_speed_memory_find(&m, &k)->misses, 5);
    rd_speed_memory_note(&m, &k, 1.1, 85, t0 + 2 * h, &r); /* near: 91 % */
    assert_int_equal(rd_speed_memory_find(&m, &k)->misses, 0);
    assert_true(rd_speed_memory_find(&m, &k)->near_at == t0 + 2 * h);
    /* Three misses, the last 6 h after the near session: replaced. */
    rd_speed_memory_note(&m, &k, 1.5, 85, t0 + 3 * h, &r);
    rd_speed_memory_note(&m, &k, 1.5, 85, t0 + 5 * h, &r);
    assert_false(r.replaced);
    rd_speed_memory_note(&m, &k, 1.5, 85, t0 + 8 * h - 1, &r); /* 6 h less a second */
    assert_false(r.replaced);
    assert_true(r.remembered_ms == 1.0);
    rd_speed_memory_note(&m, &k, 1.6, 85, t0 + 8 * h, &r);
    assert_true(r.replaced);
    assert_true(r.dropped_ms == 1.0);
    assert_true(isnan(r.remembered_ms)); /* judged by its own window */
    const struct rd_speed_entry *e = rd_speed_memory_find(&m, &k);
    assert_true(e->best_ms == 1.6 && e->misses == 0 && e->near_at == t0 + 8 * h);
    /* Six hours without a session do not age a best out alone: the next
     * slow session is one miss, judged by the best. */
    rd_speed_memory_note(&m, &k, 2.0, 85, t0 + 100 * h, &r);
    assert_false(r.replaced);
    assert_true(r.remembered_ms == 1.6);
    rd_speed_memory_release(&m);
}

/* A file that is not JSON, of another schema, or with a malformed entry
 * is an empty memory with a note, and the next save rewrites it. */
static void a_damaged_file_is_set_aside_and_rewritten(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "{\"schema\":\"rundown.speed/1\",\"entries\":[{\"probe\":",
        "{\"schema\":\"rundown.env/1\",\"entries\":[]}",
        "{\"schema\":\"rundown.speed/1\",\"entries\":{}}",
        /* one entry split over two lines: parenthesised for clang's
         * -Wstring-concatenation */
        ("{\"schema\":\"rundown.speed/1\",\"entries\":[{\"probe\":\"p\",\"cpu_model\":\"m\","
         "\"max_khz\":0,\"cpu\":-1,\"best_ms\":-1,\"best_at\":0,\"near_at\":0,\"misses\":0}]}"),
        "",
    };
    static const char *const why[] = {"speed.json:1:", "expected schema",
                                      "expected an array", "expected entries of", "speed.json:"};
    char sub[96];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0700);
    struct rd_speed_key k = key("Test CPU", -1);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i]);
        struct rd_speed_memory m;
        load(&m);
        assert_int_equal(m.n, 0);
        assert_non_null(strstr(m.note, why[i]));
        assert_non_null(strstr(m.note, "set aside, it is rewritten"));
        struct rd_speed_recall r;
        rd_speed_memory_note(&m, &k, 1.0, 85, 1000, &r);
        assert_true(isnan(r.remembered_ms));
        save(&m);
        load(&m);
        assert_string_equal(m.note, "");
        assert_non_null(rd_speed_memory_find(&m, &k));
        rd_speed_memory_release(&m);
    }
}

/* Readings of another CPU model, maximum clock, probe or CPU are not
 * compared: each key keeps its own best. */
static void other_keys_are_apart(void **state)
{
    (void)state;
    unlink(path);
    struct rd_speed_memory m;
    struct rd_speed_recall r;
    struct rd_speed_key a = key("Test CPU", -1), b = key("Other CPU", -1);
    struct rd_speed_key c = key("Test CPU", 1), f = key("Test CPU", -1), p = key("Test CPU", -1);
    f.max_khz = 2000000;
    snprintf(p.probe, sizeof p.probe, "script");
    load(&m);
    rd_speed_memory_note(&m, &a, 1.0, 85, 1000, &r);
    save(&m);
    load(&m);
    assert_null(rd_speed_memory_find(&m, &b));
    assert_null(rd_speed_memory_find(&m, &c));
    assert_null(rd_speed_memory_find(&m, &f));
    assert_null(rd_speed_memory_find(&m, &p));
    rd_speed_memory_note(&m, &b, 2.0, 85, 2000, &r);
    assert_true(isnan(r.remembered_ms)); /* not judged by a's 1.0 */
    save(&m);
    load(&m);
    assert_int_equal(m.n, 2);
    assert_true(rd_speed_memory_find(&m, &a)->best_ms == 1.0);
    assert_true(rd_speed_memory_find(&m, &b)->best_ms == 2.0);
    /* --forget-speed: every key goes. */
    rd_speed_memory_forget(&m);
    save(&m);
    load(&m);
    assert_int_equal(m.n, 0);
    assert_string_equal(m.note, "");
    rd_speed_memory_release(&m);
}

/* The memory is full at RD_SPEED_MEMORY_MAX keys: the oldest best goes. */
static void the_oldest_best_makes_way(void **state)
{
    (void)state;
    unlink(path);
    struct rd_speed_memory m;
    struct rd_speed_recall r;
    load(&m);
    for (int i = 0; i <= RD_SPEED_MEMORY_MAX; i++) {
        char model[32];
        snprintf(model, sizeof model, "CPU %d", i);
        struct rd_speed_key k = key(model, -1);
        rd_speed_memory_note(&m, &k, 1.0, 85, 1000 + i, &r);
    }
    assert_int_equal(m.n, RD_SPEED_MEMORY_MAX);
    char newest[32];
    snprintf(newest, sizeof newest, "CPU %d", RD_SPEED_MEMORY_MAX);
    struct rd_speed_key first = key("CPU 0", -1), last = key(newest, -1);
    assert_null(rd_speed_memory_find(&m, &first));
    assert_non_null(rd_speed_memory_find(&m, &last));
    save(&m);
    load(&m);
    assert_int_equal(m.n, RD_SPEED_MEMORY_MAX);
    assert_string_equal(m.note, "");
    rd_speed_memory_release(&m);
}

/* A memory that cannot be written (its folder would be under a regular
 * file) is RD_ERR_IO naming the file in the message, and a memory off
 * (no path) saves nothing. */
static void an_unwritable_memory_names_its_file(void **state)
{
    (void)state;
    char file[96], under[160];
    snprintf(file, sizeof file, "%s/plain", dir);
    write_file(file, "x");
    snprintf(under, sizeof under, "%s/sub/speed.json", file);
    struct rd_speed_memory m;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_speed_memory_load(&m, under, &d), RD_OK);
    struct rd_speed_key k = key("Test CPU", -1);
    struct rd_speed_recall r;
    rd_speed_memory_note(&m, &k, 1.0, 85, 1000, &r);
    assert_int_equal(rd_speed_memory_save(&m, &d), RD_ERR_IO);
    rd_speed_memory_release(&m);
    assert_null(d.path);
    assert_non_null(strstr(d.msg, "/plain/sub"));
    assert_int_equal(rd_speed_memory_load(&m, NULL, &d), RD_OK);
    rd_speed_memory_note(&m, &k, 1.0, 85, 1000, &r);
    assert_int_equal(rd_speed_memory_save(&m, &d), RD_OK);
    rd_speed_memory_release(&m);
}

/* Where: --cache-dir, then RUNDOWN_SPEED_MEMORY (off, or a file), then
 * the cache folder analyze uses (XDG_CACHE_HOME, HOME). */
static void where_the_memory_is(void **state)
{
    (void)state;
    char *saved = getenv("RUNDOWN_SPEED_MEMORY") ? strdup(getenv("RUNDOWN_SPEED_MEMORY")) : NULL;
    char *p = rd_speed_memory_path("/c", false);
    assert_string_equal(p, "/c/speed.json");
    free(p);
    assert_null(rd_speed_memory_path("/c", true));
    setenv("RUNDOWN_SPEED_MEMORY", "off", 1);
    assert_null(rd_speed_memory_path(NULL, false));
    setenv("RUNDOWN_SPEED_MEMORY", "/x/mine.json", 1);
    p = rd_speed_memory_path(NULL, false);
    assert_string_equal(p, "/x/mine.json");
    free(p);
    unsetenv("RUNDOWN_SPEED_MEMORY");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    p = rd_speed_memory_path(NULL, false);
    assert_string_equal(p, "/xdg/rundown/speed.json");
    free(p);
    if (saved)
        setenv("RUNDOWN_SPEED_MEMORY", saved, 1);
    free(saved);
}

/* The key from a /proc and /sys of the test's: the model and the clock. */
static void key_from_proc_and_sys(void **state)
{
    (void)state;
    char p[128], cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/devices/system/cpu/cpu1/cpufreq", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(p, sizeof p, "%s/cpuinfo", dir);
    write_file(p, "processor\t: 0\nmodel name\t: Test CPU @ 3.00GHz\n");
    snprintf(p, sizeof p, "%s/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq", dir);
    write_file(p, "3000000\n");
    struct rd_speed_key k;
    rd_speed_key_make(&k, "probe", dir, dir, -1, 1);
    assert_string_equal(k.probe, "probe");
    assert_string_equal(k.cpu_model, "Test CPU @ 3.00GHz");
    assert_true(k.max_khz == 3000000 && k.cpu == -1);
    rd_speed_key_make(&k, "probe", dir, dir, 0, 0); /* CPU 0 gives no clock */
    assert_true(k.max_khz == 0 && k.cpu == 0);
}

/* Recall without noting (a collection's pre-flight check): each CPU gets
 * the remembered best its key holds, the one rd_speed_memory_note_session
 * would judge it by, and the memory is left as it was: no miss counted,
 * nothing to save. Sessions of 0.85 ms against a remembered 0.6 ms: one
 * recall and one note are one miss (was two when the pre-flight noted). */
static void recall_judges_without_noting(void **state)
{
    (void)state;
    unlink(path);
    struct rd_speed_memory m;
    double best[RD_SPEED_CPUS_MAX] = {0}, rem[RD_SPEED_CPUS_MAX], noted[RD_SPEED_CPUS_MAX];
    load(&m);
    best[0] = best[1] = 0.6;
    rd_speed_memory_note_session(&m, "probe", dir, dir, true, best, 85, 1000, NULL, NULL);
    save(&m);
    load(&m);
    best[0] = best[1] = 0.85;
    rd_speed_memory_recall_session(&m, "probe", dir, dir, true, best, rem);
    assert_true(rem[0] == 0.6 && rem[1] == 0.6); /* alike: every CPU the one key's */
    assert_false(m.changed);
    assert_int_equal(m.e[0].misses, 0);
    rd_speed_memory_note_session(&m, "probe", dir, dir, true, best, 85, 2000, noted, NULL);
    assert_true(noted[0] == rem[0] && noted[1] == rem[1]);
    assert_int_equal(m.e[0].misses, 1);
    /* CPUs not of one kind: a key a CPU; CPU 1 has none remembered. */
    double one[RD_SPEED_CPUS_MAX] = {0};
    one[0] = 0.5;
    rd_speed_memory_note_session(&m, "probe", dir, dir, false, one, 85, 3000, NULL, NULL);
    rd_speed_memory_recall_session(&m, "probe", dir, dir, false, best, rem);
    assert_true(rem[0] == 0.5 && isnan(rem[1]));
    rd_speed_memory_recall_session(&m, "other", dir, dir, true, best, rem);
    assert_true(isnan(rem[0]) && isnan(rem[1]));
    rd_speed_memory_release(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stored_best_and_a_faster_reading),
        cmocka_unit_test(a_best_no_session_comes_near_is_replaced),
        cmocka_unit_test(a_damaged_file_is_set_aside_and_rewritten),
        cmocka_unit_test(other_keys_are_apart),
        cmocka_unit_test(the_oldest_best_makes_way),
        cmocka_unit_test(an_unwritable_memory_names_its_file),
        cmocka_unit_test(where_the_memory_is),
        cmocka_unit_test(key_from_proc_and_sys),
        cmocka_unit_test(recall_judges_without_noting),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
