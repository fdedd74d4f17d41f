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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

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
    rd_status st = rd_cache_open(c, cdir, store, d);
    if (st != RD_OK)
        fail_msg("%s: %s", store, d->msg);
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

/* A file in the cache directory, 'len' bytes of 'bytes'. */
static void plant(const char *name, const void *bytes, size_t len)
{
    char p[700];
    snprintf(p, sizeof p, "%s/%s", cdir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static int present(const char *name)
{
    char p[700];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", cdir, name);
    return lstat(p, &st) == 0;
}

/* build() again, from no cache. */
static void rebuild(void)
{
    char *p = cache_file();
    assert_int_equal(unlink(p), 0);
    free(p);
    build();
}

/* Sets the mtime of 'name' in the cache directory 'days' days back. */
static void age(const char *name, int days)
{
    char p[700];
    snprintf(p, sizeof p, "%s/%s", cdir, name);
    struct timespec t[2] = {{time(NULL) - days * 86400, 0}, {time(NULL) - days * 86400, 0}};
    assert_int_equal(utimensat(AT_FDCWD, p, t, AT_SYMLINK_NOFOLLOW), 0);
}

/* The header of a cache file of the version before this one. */
static void old_header(unsigned char *h)
{
    memset(h, 0, 80);
    memcpy(h, "RDCACHE\n", 8);
    h[8] = (unsigned char)(RD_CACHE_VERSION - 1);
    h[12] = 80;
}

/* The cache file's name (its last path component), malloc'd. */
static char *cache_name_of(const char *store_path)
{
    char keep[512], want[512];
    snprintf(want, sizeof want, "%s", store_path); /* store_path may be store */
    snprintf(keep, sizeof keep, "%s", store);
    snprintf(store, sizeof store, "%s", want);
    char *p = cache_file();
    snprintf(store, sizeof store, "%s", keep);
    char *name = strdup(strrchr(p, '/') + 1);
    free(p);
    return name;
}

/* rd_cache_sweep removes caches of stores gone or replaced, other
 * versions' files and day-old temporaries, and nothing else: not files
 * of other names or without the magic, not what a link points to. */
static void sweep_removes_what_serves_no_store(void **state)
{
    (void)state;
    char kept[512], other[512];
    snprintf(kept, sizeof kept, "%s", store);
    snprintf(other, sizeof other, "%s/t.jsonl", root);
    snprintf(store, sizeof store, "%s", other);
    write_text(store, LINES, "w");
    build();
    snprintf(store, sizeof store, "%s", kept);
    char *mine = cache_name_of(store), *gone = cache_name_of(other);
    unsigned char old[80];
    old_header(old);
    plant("0123456789abcdef0123456789abcdef.rdc", old, sizeof old);
    plant("fedcba9876543210fedcba9876543210.rdc", "not a cache, by its first bytes\n", 32);
    /* Judged by the header's kind, not its message's words: this
     * version's file with a damaged header is another fault, kept (its
     * store's next open rewrites it), though its bytes but the version
     * are the other version's file's. */
    unsigned char damaged[80];
    old_header(damaged);
    damaged[8] = (unsigned char)RD_CACHE_VERSION;
    plant("00000000000000000000000000000000.rdc", damaged, sizeof damaged);
    plant("notes.txt", old, sizeof old);
    char outside[600], link[700], tmp_old[100], tmp_new[100];
    snprintf(outside, sizeof outside, "%s/outside.rdc", root);
    FILE *f = fopen(outside, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(old, 1, sizeof old, f), sizeof old);
    assert_int_equal(fclose(f), 0);
    snprintf(link, sizeof link, "%s/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.rdc", cdir);
    assert_int_equal(symlink(outside, link), 0);
    snprintf(tmp_old, sizeof tmp_old, "%s.AbC123", gone);
    snprintf(tmp_new, sizeof tmp_new, "%s.XyZ789", mine);
    plant(tmp_old, "half", 4);
    plant(tmp_new, "half", 4);
    age(tmp_old, 2);
    assert_int_equal(unlink(other), 0);

    size_t removed = 99;
    struct rd_diag d;
    rd_diag_init(&d, cdir);
    assert_int_equal(rd_cache_sweep(cdir, &removed, &d), RD_OK);
    assert_int_equal(removed, 3);
    assert_false(present(gone));                                  /* its store gone */
    assert_false(present("0123456789abcdef0123456789abcdef.rdc")); /* another version */
    assert_false(present(tmp_old));                               /* a day-old temporary */
    assert_true(present(mine));
    assert_true(present(tmp_new));
    assert_true(present("fedcba9876543210fedcba9876543210.rdc"));
    assert_true(present("00000000000000000000000000000000.rdc")); /* damaged header */
    assert_true(present("notes.txt"));
    assert_true(present("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.rdc"));
    struct stat st;
    assert_int_equal(stat(outside, &st), 0);
    assert_null(cache_note());

    /* The store replaced by another file of the same name (a new inode):
     * the old cache serves nothing. */
    char fresh[600];
    snprintf(fresh, sizeof fresh, "%s/s.new", root);
    write_text(fresh, LINES, "w");
    assert_int_equal(rename(fresh, store), 0);
    assert_int_equal(rd_cache_sweep(cdir, &removed, &d), RD_OK);
    assert_int_equal(removed, 1);
    assert_false(present(mine));
    assert_string_equal(cache_note(), "no cache yet");
    /* A directory that cannot be read is an error. */
    assert_int_equal(rd_cache_sweep(outside, &removed, &d), RD_ERR_IO);
    free(mine);
    free(gone);
}

/* A commit sweeps when the last sweep (the mtime of .sweep) is a day old. */
static void commit_sweeps_once_a_day(void **state)
{
    (void)state;
    assert_true(present(".sweep")); /* the fixture's commit swept */
    unsigned char old[80];
    old_header(old);
    plant("0123456789abcdef0123456789abcdef.rdc", old, sizeof old);
    rebuild();
    assert_true(present("0123456789abcdef0123456789abcdef.rdc"));
    age(".sweep", 2);
    rebuild();
    assert_false(present("0123456789abcdef0123456789abcdef.rdc"));
    char p[700];
    struct stat st;
    snprintf(p, sizeof p, "%s/.sweep", cdir);
    assert_int_equal(stat(p, &st), 0);
    assert_true(time(NULL) - st.st_mtime < 60);
}

/* The declaration of 'name' in record.h without comments and blanks. */
static void declaration(const char *text, const char *name, struct rd_buf *out)
{
    char open[64];
    snprintf(open, sizeof open, "struct %s {", name);
    const char *p = strstr(text, open);
    assert_non_null(p);
    const char *end = strstr(p, "};");
    assert_non_null(end);
    for (; p < end; p++) {
        if (p[0] == '/' && p[1] == '*') {
            p = strstr(p + 2, "*/") + 1;
            continue;
        }
        if (*p != ' ' && *p != '\n' && *p != '\t')
            assert_int_equal(rd_buf_addf(out, "%c", *p), RD_OK);
    }
}

#define AT(type, field) rd_buf_addf(&got, " " #field "@%zu", offsetof(struct type, field))

/*
 * What a cache holds is pinned to RD_CACHE_VERSION: the layout of the
 * record structs (their sizes, the offsets of their fields, and their
 * declarations in record.h less comments and blanks, by XXH3-64) and the
 * bytes of the cache of the store LINES after its header (by XXH3-64).
 * A change to the record, to what rd_record_from_json makes of a line
 * or to the cache's encoding changes one of them: bump RD_CACHE_VERSION
 * (a cache of the old layout would be read back wrong), then paste the
 * values the test prints for the new version. The values are this code's own at version 2
 * (a pin against change, not a computed result); the layout line wraps
 * past 100 columns so that it can be pasted whole.
 */
static void cache_version_pins_the_record_layout(void **state)
{
    (void)state;
    static const struct {
        unsigned version;
        const char *layout;
        uint64_t declarations, blocks;
    } pinned = { 2, "rd_record=184 suite@0 workload@8 phase@16 tool@24 status@32 started_at@40 env@48 run@56 exit_code@64 has_exit_code@68 contended@69 config@72 info@96 source@120 source_line@144 metrics@152 nmetrics@160 metrics_cap@168 arena@176 rd_kvlist=24 items@0 len@8 cap@16 rd_kv=16 key@0 value@8 rd_metric=16 name@0 value@8",
                 0x0f91b44e2ed08c2bull, 0xec65dc569333c845ull };
    struct rd_buf got = RD_BUF_INIT, decl = RD_BUF_INIT;
    rd_buf_addf(&got, "rd_record=%zu", sizeof(struct rd_record));
    AT(rd_record, suite), AT(rd_record, workload), AT(rd_record, phase), AT(rd_record, tool);
    AT(rd_record, status), AT(rd_record, started_at), AT(rd_record, env), AT(rd_record, run);
    AT(rd_record, exit_code), AT(rd_record, has_exit_code), AT(rd_record, contended);
    AT(rd_record, config), AT(rd_record, info), AT(rd_record, source);
    AT(rd_record, source_line), AT(rd_record, metrics), AT(rd_record, nmetrics);
    AT(rd_record, metrics_cap), AT(rd_record, arena);
    rd_buf_addf(&got, " rd_kvlist=%zu", sizeof(struct rd_kvlist));
    AT(rd_kvlist, items), AT(rd_kvlist, len), AT(rd_kvlist, cap);
    rd_buf_addf(&got, " rd_kv=%zu", sizeof(struct rd_kv));
    AT(rd_kv, key), AT(rd_kv, value);
    rd_buf_addf(&got, " rd_metric=%zu", sizeof(struct rd_metric));
    AT(rd_metric, name), AT(rd_metric, value);

    FILE *f = fopen(RD_SOURCE_DIR "/core/include/rundown/record.h", "r");
    assert_non_null(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *structs[] = { "rd_kv", "rd_metric", "rd_kvlist", "rd_record" };
    for (size_t i = 0; i < 4; i++)
        declaration(text, structs[i], &decl);
    uint64_t declarations = XXH3_64bits(decl.ptr, decl.len);

    struct rd_cache c;
    struct rd_diag d;
    open_cache(&c, &d);
    assert_null(c.note);
    struct stat st;
    assert_int_equal(fstat(c.fd, &st), 0);
    size_t len = (size_t)st.st_size - c.hdr_len;
    unsigned char *bytes = malloc(len);
    assert_non_null(bytes);
    assert_int_equal(pread(c.fd, bytes, len, c.hdr_len), (ssize_t)len);
    uint64_t blocks = XXH3_64bits(bytes, len);
    free(bytes);
    rd_cache_release(&c);

    /* the sizes and offsets are an LP64 host's (x86-64, arm64); the
     * digests hold on any host */
    bool lp64 = sizeof(void *) == 8 && sizeof(long) == 8;
    bool same = (!lp64 || strcmp(pinned.layout, got.ptr) == 0) &&
                pinned.declarations == declarations && pinned.blocks == blocks;
    /* The values to paste only once the version is bumped: pasted
     * without a bump they would let the old caches be read as new. */
    if (pinned.version == RD_CACHE_VERSION && !same)
        fail_msg("the record layout or what a cache holds of it changed, and RD_CACHE_VERSION "
                 "is still %u: bump RD_CACHE_VERSION (storecache.h), then paste the values "
                 "this test prints", RD_CACHE_VERSION);
    if (pinned.version != RD_CACHE_VERSION)
        fail_msg("RD_CACHE_VERSION is %u, this test pins %u: paste\n"
                 "    } pinned = { %u, \"%s\",\n                 0x%016llxull, 0x%016llxull };",
                 RD_CACHE_VERSION, pinned.version, RD_CACHE_VERSION, got.ptr,
                 (unsigned long long)declarations, (unsigned long long)blocks);
    rd_buf_release(&got);
    rd_buf_release(&decl);
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
        cmocka_unit_test_setup(sweep_removes_what_serves_no_store, lines_cached),
        cmocka_unit_test_setup(commit_sweeps_once_a_day, lines_cached),
        cmocka_unit_test_setup(cache_version_pins_the_record_layout, lines_cached),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
