// links: rd_core
/*
 * The parse cache of a store (storecache.h): records read back are the
 * records the JSON reader makes, with their lines; a cache that does not
 * fit its store (prefix changed, store cut, another version, damaged
 * bytes) is not used; a grown store reads its cached prefix and only its
 * new lines are parsed. Each case starts from a fixture: no cache
 * (no_cache), the store LINES without a cache (lines_stored) or with its
 * cache built (lines_cached).
 */
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "rundown/buf.h"
#include "rundown/record.h"
#include "rundown/store.h"
#include "rundown/storecache.h"

static char root[] = "/tmp/rundown-test-storecache-XXXXXX";
static char store[512], cdir[512];

/* Every field a record can have, blank lines, a negative exit code, a
 * null metric, non-ASCII text. */
static const char *const LINES =
    "{\"schema\":\"rundown.run/1\",\"suite\":\"s\",\"workload\":\"w\",\"config\":{\"runtime\":\"bun\",\"mode\":\"x\"},"
    "\"run\":1,\"phase\":\"measure\",\"tool\":\"rundown\",\"status\":\"ok\",\"exit_code\":0,"
    "\"started_at\":\"2026-12-04T10:00:00Z\",\"env\":\"e1\",\"metrics\":{\"wall_ms\":40.759,"
    "\"max_rss_kib\":210930,\"gone\":null},\"info\":{\"command\":\"node a.js\",\"class\":\"cpu\"},"
    "\"source\":{\"file\":\"log.txt\",\"line\":12}}\n"
    "\n"
    "   \n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"runtime\":\"deno\"},\"run\":2,"
    "\"phase\":\"warmup\",\"tool\":\"hyperfine\",\"status\":\"failed\",\"exit_code\":-11,"
    "\"contended\":true,\"metrics\":{\"wall_ms\":1e-300,\"x\":-0.0}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\\u00e9\",\"config\":{\"runtime\":\"bun\",\"mode\":\"x\"},"
    "\"run\":2,\"metrics\":{\"wall_ms\":41.5}}\n";

static const char *const MORE =
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"runtime\":\"bun\",\"mode\":\"x\"},"
    "\"run\":3,\"metrics\":{\"wall_ms\":39.25}}\n"
    "\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"runtime\":\"bun\",\"mode\":\"x\"},"
    "\"run\":4,\"metrics\":{\"wall_ms\":38}}\n";

static int setup(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(root));
    snprintf(store, sizeof store, "%s/s.jsonl", root);
    snprintf(cdir, sizeof cdir, "%s/cache/deeper", root);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* Fixture: no cache yet (each case makes its own store). */
static int no_cache(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_text(const char *path, const char *text, const char *mode)
{
    FILE *f = fopen(path, mode);
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* A record as text, its line and its metric bits: what must be the same. */
static void describe(const struct rd_record *r, unsigned line, struct rd_buf *out)
{
    assert_int_equal(rd_buf_addf(out, "%u:", line), RD_OK);
    assert_int_equal(rd_record_to_json(r, out), RD_OK);
    for (size_t i = 0; i < r->nmetrics; i++) {
        uint64_t bits;
        memcpy(&bits, &r->metrics[i].value, 8);
        assert_int_equal(rd_buf_addf(out, "%s=%016llx;", r->metrics[i].name,
                                     (unsigned long long)bits), RD_OK);
    }
    assert_int_equal(rd_buf_addf(out, "c%d e%d\n", r->contended, r->has_exit_code), RD_OK);
}

/* Reads [start, end) of the store (end -1: to its end) as ingest does,
 * from line0 on: every record into 'text', and into a writer 'w' when
 * it is not NULL. Returns the count. */
static size_t parse_part(struct rd_cache *c, long long start, long long end, unsigned line0,
                         struct rd_cache_writer *w, struct rd_buf *text)
{
    struct rd_store_reader rd;
    struct rd_diag d;
    rd_diag_init(&d, store);
    assert_int_equal(end < 0 ? rd_store_open(&rd, store, &d)
                             : rd_store_open_range(&rd, store, start, end, &d), RD_OK);
    rd.line = line0;
    if (w)
        rd_cache_writer_open(w, c, line0, 0);
    struct rd_record rec;
    size_t n = 0;
    for (;;) {
        int got;
        assert_int_equal(rd_store_next(&rd, &rec, &got, &d), RD_OK);
        if (!got)
            break;
        if (w && !rd.unterminated)
            rd_cache_writer_add(w, &rec, rd.line, (unsigned long long)rd.consumed);
        describe(&rec, rd.line, text);
        n++;
    }
    if (w)
        rd_cache_writer_finish(w, rd.line - (unsigned)rd.unterminated,
                               (unsigned long long)rd.consumed);
    rd_store_close(&rd);
    return n;
}

/* Reads every block of c as text; returns the count. */
static size_t read_cache(const struct rd_cache *c, struct rd_buf *text, unsigned *lines)
{
    struct rd_cache_range r;
    rd_cache_range_open(&r, c, store, 0, c->nblocks);
    struct rd_record rec;
    struct rd_diag d;
    rd_diag_init(&d, store);
    size_t n = 0;
    for (;;) {
        int got;
        assert_int_equal(rd_cache_next(&r, &rec, &got, &d), RD_OK);
        if (!got)
            break;
        describe(&rec, r.line, text);
        n++;
    }
    if (lines)
        *lines = r.line;
    rd_cache_range_close(&r);
    return n;
}

/* Opens the cache of the store, which must succeed. */
static void open_cache(struct rd_cache *c, struct rd_diag *d)
{
    rd_diag_init(d, store);
    assert_int_equal(rd_cache_open(c, cdir, store, d), RD_OK);
}

/* A cold read of the whole store that writes its cache. */
static void build(void)
{
    struct rd_cache c;
    struct rd_diag d;
    open_cache(&c, &d);
    assert_int_equal(c.nblocks, 0);
    struct rd_cache_writer w;
    struct rd_buf text = RD_BUF_INIT;
    parse_part(&c, 0, -1, 0, &w, &text);
    struct rd_cache_writer *ws[] = {&w};
    assert_int_equal(w.failed, 0);
    assert_int_equal(rd_cache_commit(&c, store, ws, 1, &d), RD_OK);
    rd_cache_writer_release(&w);
    rd_cache_release(&c);
    rd_buf_release(&text);
}

/* Fixture: the store holds LINES, no cache yet. */
static int lines_stored(void **state)
{
    if (no_cache(state))
        return -1;
    write_text(store, LINES, "w");
    return 0;
}

/* Fixture: the store holds LINES and its cache is built. */
static int lines_cached(void **state)
{
    if (lines_stored(state))
        return -1;
    build();
    return 0;
}

static const char *cache_note(void)
{
    struct rd_cache c;
    struct rd_diag d;
    open_cache(&c, &d);
    const char *note = c.note;
    if (!note)
        assert_true(c.nblocks > 0);
    else
        assert_int_equal(c.nblocks, 0);
    rd_cache_release(&c);
    return note;
}

static char *cache_file(void)
{
    struct rd_cache c;
    struct rd_diag d;
    open_cache(&c, &d);
    char *p = strdup(c.path);
    rd_cache_release(&c);
    return p;
}

static void round_trip(void **state)
{
    (void)state;
    struct rd_cache c;
    struct rd_diag d;
    open_cache(&c, &d);
    assert_null(c.note);
    struct stat st;
    assert_int_equal(stat(store, &st), 0);
    assert_int_equal(c.covered, (uint64_t)st.st_size);
    assert_int_equal(c.records, 3);
    assert_int_equal(c.lines, 5);
    struct rd_buf want = RD_BUF_INIT, got = RD_BUF_INIT;
    assert_int_equal(parse_part(&c, 0, -1, 0, NULL, &want), 3);
    unsigned lines;
    assert_int_equal(read_cache(&c, &got, &lines), 3);
    assert_int_equal(lines, 5);
    assert_string_equal(got.ptr, want.ptr);
    /* the lines, with blank ones counted, as the store reader numbers them */
    assert_non_null(strstr(got.ptr, "\n4:{"));
    assert_non_null(strstr(got.ptr, "\n5:{"));
    rd_cache_release(&c);
    rd_buf_release(&want);
    rd_buf_release(&got);
}

/* Many records: several blocks, each with strings of its own. */
static void many_blocks(void **state)
{
    (void)state;
    FILE *f = fopen(store, "w");
    assert_non_null(f);
    for (int i = 0; i < 30000; i++)
        fprintf(f, "{\"schema\":\"rundown.run/1\",\"workload\":\"w%d\",\"config\":{\"c\":\"%d\"},"
                   "\"run\":%d,\"metrics\":{\"wall_ms\":%d.%d,\"m%d\":1}}\n%s",
                i % 7, i % 100, i / 100 + 1, i, i % 10, i % 3, i % 1000 == 0 ? "\n" : "");
    fclose(f);
    build();
    struct rd_cache c;
    struct rd_diag d;
    open_cache(&c, &d);
    assert_true(c.nblocks >= 3);
    struct rd_buf want = RD_BUF_INIT, got = RD_BUF_INIT;
    assert_int_equal(parse_part(&c, 0, -1, 0, NULL, &want), 30000);
    assert_int_equal(read_cache(&c, &got, NULL), 30000);
    assert_string_equal(got.ptr, want.ptr);
    /* A range of blocks numbers its lines from its own start. */
    struct rd_cache_range r;
    rd_cache_range_open(&r, &c, store, 1, 2);
    struct rd_record rec;
    int have;
    assert_int_equal(rd_cache_next(&r, &rec, &have, &d), RD_OK);
    assert_int_equal(have, 1);
    assert_int_equal(r.line, 1);
    rd_cache_range_close(&r);
    rd_cache_release(&c);
    rd_buf_release(&want);
    rd_buf_release(&got);
}

/* A store that grew: the cache covers its old bytes, the new lines are
 * parsed after them (numbered on) and extend the cache. */
static void appended_lines(void **state)
{
    (void)state;
    struct stat st;
    assert_int_equal(stat(store, &st), 0);
    long long old = st.st_size;
    write_text(store, MORE, "a");
    /* an unfinished last line is parsed but not cached */
    write_text(store, "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},"
                      "\"run\":5,\"metrics\":{\"wall_ms\":1}}", "a");
    struct rd_cache c;
    struct rd_diag d;
    open_cache(&c, &d);
    assert_null(c.note);
    assert_int_equal(c.covered, (uint64_t)old);
    struct rd_buf want = RD_BUF_INIT, got = RD_BUF_INIT;
    assert_int_equal(parse_part(&c, 0, -1, 0, NULL, &want), 6);
    unsigned lines;
    assert_int_equal(read_cache(&c, &got, &lines), 3);
    struct rd_cache_writer w;
    assert_int_equal(stat(store, &st), 0);
    assert_int_equal(parse_part(&c, old, st.st_size, lines, &w, &got), 3);
    assert_string_equal(got.ptr, want.ptr);
    struct rd_cache_writer *ws[] = {&w};
    assert_int_equal(rd_cache_commit(&c, store, ws, 1, &d), RD_OK);
    rd_cache_writer_release(&w);
    rd_cache_release(&c);
    /* The new cache: the old records and the two whole new lines. */
    assert_int_equal(rd_cache_open(&c, cdir, store, &d), RD_OK);
    assert_null(c.note);
    assert_int_equal(c.records, 5);
    assert_int_equal(c.lines, 8);
    assert_int_equal(c.covered, (uint64_t)(old + (long long)strlen(MORE)));
    rd_buf_reset(&got);
    assert_int_equal(read_cache(&c, &got, &lines), 5);
    assert_int_equal(lines, 8);
    assert_int_equal(strncmp(got.ptr, want.ptr, got.len), 0);
    rd_cache_release(&c);
    rd_buf_release(&want);
    rd_buf_release(&got);
}

static void prefix_changed(void **state)
{
    (void)state;
    assert_null(cache_note());
    /* the same length, one digit of an early line changed */
    char *text = strdup(LINES);
    *strstr(text, "40.759") = '5';
    write_text(store, text, "w");
    free(text);
    assert_string_equal(cache_note(), "the store's prefix changed");
}

static void store_cut(void **state)
{
    (void)state;
    assert_int_equal(truncate(store, (off_t)strlen(LINES) - 10), 0);
    assert_string_equal(cache_note(), "the store is shorter than the cache");
}

/* Bytes of the cache file changed: at 'off' from its start (or its end
 * when negative), XORed with 'x'. */
static void poke(long off, unsigned char x)
{
    char *p = cache_file();
    int fd = open(p, O_RDWR);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    off_t at = off >= 0 ? off : st.st_size + off;
    unsigned char b;
    assert_int_equal(pread(fd, &b, 1, at), 1);
    b ^= x;
    assert_int_equal(pwrite(fd, &b, 1, at), 1);
    close(fd);
    free(p);
}

static void version_mismatch(void **state)
{
    (void)state;
    poke(8, 0x02); /* the version field */
    assert_string_equal(cache_note(), "another version");
    build();
    assert_null(cache_note()); /* rebuilt */
    poke(0, 0x20); /* the magic */
    assert_string_equal(cache_note(), "not a rundown cache");
}

static void corrupt_bytes(void **state)
{
    (void)state;
    poke(-5, 0x01); /* inside the last block's payload */
    assert_string_equal(cache_note(), "damaged block");
    build();
    poke(20, 0x01); /* the header's covered size */
    assert_string_equal(cache_note(), "damaged header");
    build();
    char *p = cache_file();
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(truncate(p, st.st_size - 3), 0);
    assert_string_equal(cache_note(), "truncated");
    assert_int_equal(truncate(p, 10), 0);
    assert_string_equal(cache_note(), "truncated");
    free(p);
}

/* A directory that cannot be made is an error the caller takes as "no
 * cache"; a file where the cache file would be is not read. */
static void unusable_dir(void **state)
{
    (void)state;
    char file[600];
    snprintf(file, sizeof file, "%s/plain", root);
    write_text(file, "x", "w");
    char under[700];
    snprintf(under, sizeof under, "%s/sub", file);
    struct rd_cache c;
    struct rd_diag d;
    rd_diag_init(&d, store);
    assert_int_equal(rd_cache_open(&c, under, store, &d), RD_ERR_IO);
    assert_non_null(strstr(d.msg, "no cache"));
    rd_cache_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(round_trip, lines_cached),
        cmocka_unit_test_setup(many_blocks, no_cache),
        cmocka_unit_test_setup(appended_lines, lines_cached),
        cmocka_unit_test_setup(prefix_changed, lines_cached),
        cmocka_unit_test_setup(store_cut, lines_cached),
        cmocka_unit_test_setup(version_mismatch, lines_cached),
        cmocka_unit_test_setup(corrupt_bytes, lines_cached),
        cmocka_unit_test_setup(unusable_dir, lines_stored),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
