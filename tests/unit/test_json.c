// links: rd_core
/*
 * test_json - the core hardening of JSON input and output, black-box:
 * duplicate keys (rd_json_parse_unique and the store reader), UTF-8 checks
 * (rd_utf8_valid_len, what rd_buf_add_json_string writes, what the store
 * reader refuses) and the store line cap (RD_STORE_MAX_LINE), through
 * store.h only, so the store's line reader may change underneath.
 *
 * Line and column figures are counted by hand in the literals below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundown/buf.h"
#include "rundown/json.h"
#include "rundown/record.h"
#include "rundown/store.h"

/* Parses with rd_json_parse_unique; returns its status, fills d. */
static rd_status unique(const char *text, struct rd_diag *d)
{
    cJSON *root = (cJSON *)1;
    rd_diag_init(d, NULL);
    rd_status s = rd_json_parse_unique(text, strlen(text), "t.json", 1, &root, d);
    if (s == RD_OK)
        assert_non_null(root);
    else
        assert_null(root);
    cJSON_Delete(s == RD_OK ? root : NULL);
    return s;
}

static void expect_dup(const char *text, unsigned line, unsigned col, const char *msg)
{
    struct rd_diag d;
    assert_int_equal(unique(text, &d), RD_ERR_PARSE);
    assert_string_equal(d.msg, msg);
    assert_int_equal(d.line, line);
    assert_int_equal(d.col, col);
    assert_string_equal(d.path, "t.json");
}

static void duplicate_keys(void **state)
{
    (void)state;
    struct rd_diag d;
    /* No duplicates: the same key in different objects, keys that differ
     * in case only, nested arrays, escapes inside strings. */
    assert_int_equal(unique("{\"a\":{\"a\":1},\"b\":[{\"a\":1},{\"a\":2}],\"A\":\"x\\\"y\"}", &d),
                     RD_OK);
    assert_int_equal(unique("[1, \"}\", {\"k\": \"{\\\\\"}, {\"k\": 2}]", &d), RD_OK);
    assert_int_equal(unique("  \"scalar\"  ", &d), RD_OK);

    /* {"a":1,"b":2,"a":3}: the second "a" starts at column 14. */
    expect_dup("{\"a\":1,\"b\":2,\"a\":3}", 1, 14, "expected each key once, got 'a' twice");
    /* Nested, on the third line: 4 spaces, '{' at 5, "k" 6-8, ':' 9,
     * ' ' 10, '1' 11, ',' 12, ' ' 13: the second "k" is at column 14. */
    expect_dup("{\n  \"x\": [\n    {\"k\": 1, \"k\": 2}]}", 3, 14,
               "expected each key once, got 'k' twice");
    /* Keys are compared decoded: "\u0061" is "a"; it starts at column 9. */
    expect_dup("{\"a\":1, \"\\u0061\":2}", 1, 9, "expected each key once, got 'a' twice");
    /* Several duplicates: the first repetition in the text is named.
     * '{' 1, "a" 2-4, ':' 5, '1' 6, ',' 7, "b" 8-10, ':' 11, '2' 12, ',' 13,
     * "c" 14-16, ':' 17, {} 18-19, ',' 20: the second "b" at 21, before the
     * second "a" at 27. */
    expect_dup("{\"a\":1,\"b\":2,\"c\":{},\"b\":3,\"a\":4}", 1, 21,
               "expected each key once, got 'b' twice");
    /* A value containing braces and quotes before the duplicate:
     * {"s":"{\"s\":1}","s":2} - '{' 1, "s" 2-4, ':' 5, the string 6-16
     * (11 bytes), ',' 17: the second "s" is at column 18. */
    expect_dup("{\"s\":\"{\\\"s\\\":1}\",\"s\":2}", 1, 18, "expected each key once, got 's' twice");
    /* A byte order mark is skipped by cJSON; columns count bytes, so the
     * second "a" of {"a":1,"a":2} after the 3-byte BOM is at column 11. */
    expect_dup("\xef\xbb\xbf{\"a\":1,\"a\":2}", 1, 11, "expected each key once, got 'a' twice");

    /* Syntax errors keep rd_json_parse's message. */
    assert_int_equal(unique("{\"a\":1,", &d), RD_ERR_PARSE);
    assert_non_null(strstr(d.msg, "expected JSON"));
}

/* Many members: sorted, not compared pairwise (50,000 keys would be 1.25e9
 * comparisons); the duplicate is the last member. */
static void duplicate_keys_many(void **state)
{
    (void)state;
    struct rd_buf b = RD_BUF_INIT;
    rd_buf_addch(&b, '{');
    for (int i = 0; i < 50000; i++)
        rd_buf_addf(&b, "\"k%d\":%d,", i, i);
    size_t col = b.len + 1;
    rd_buf_addstr(&b, "\"k17\":0}");
    struct rd_diag d;
    assert_int_equal(unique(b.ptr, &d), RD_ERR_PARSE);
    assert_string_equal(d.msg, "expected each key once, got 'k17' twice");
    assert_int_equal(d.col, col);
    rd_buf_release(&b);
}

/* rd_json_parse_arena: the tree lives in the arena (ASan would see a
 * leak or a bad free otherwise), errors are those of rd_json_parse, and
 * outside the call cJSON allocates with malloc again (a tree made then is
 * freed with cJSON_Delete). The store tests below parse records through
 * the same hooks (rd_json_parse_tree) after it. */
static void parse_into_an_arena(void **state)
{
    (void)state;
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    const char *text = "{\"name\": \"x\\u00e9\", \"n\": [1, 2.5, 3e300], \"o\": {\"k\": null}}";
    cJSON *root = NULL;
    assert_int_equal(rd_json_parse_arena(text, strlen(text), "t.json", 1, &arena, &root, &d), RD_OK);
    assert_string_equal(rd_json_str(root, "name"), "x\xc3\xa9");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(root, "n");
    assert_int_equal(cJSON_GetArraySize(n), 3);
    assert_true(cJSON_GetArrayItem(n, 2)->valuedouble == 3e300);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "o"), "k")));
    /* Trailing bytes: refused where they start; the partial tree stays in
     * the arena. */
    const char *bad = "{\"a\": 1}\n x";
    assert_int_equal(rd_json_parse_arena(bad, strlen(bad), "t.json", 1, &arena, &root, &d),
                     RD_ERR_PARSE);
    assert_null(root);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 2);
    rd_arena_release(&arena);
    cJSON *plain = cJSON_Parse("{\"b\": [true]}");
    assert_non_null(plain);
    cJSON_Delete(plain);
}

static void utf8_lengths(void **state)
{
    (void)state;
#define U(s) (const unsigned char *)(s), sizeof(s) - 1
    assert_int_equal(rd_utf8_valid_len(U("a")), 1);
    assert_int_equal(rd_utf8_valid_len(U("\xc3\xa9")), 2);          /* é */
    assert_int_equal(rd_utf8_valid_len(U("\xe2\x82\xac")), 3);      /* € */
    assert_int_equal(rd_utf8_valid_len(U("\xf0\x9f\x98\x80")), 4);  /* U+1F600 */
    assert_int_equal(rd_utf8_valid_len(U("\xff")), 0);
    assert_int_equal(rd_utf8_valid_len(U("\x80")), 0);              /* stray continuation */
    assert_int_equal(rd_utf8_valid_len(U("\xc3")), 0);              /* truncated */
    assert_int_equal(rd_utf8_valid_len(U("\xe2\x82")), 0);
    assert_int_equal(rd_utf8_valid_len(U("\xc0\xaf")), 0);          /* overlong '/' */
    assert_int_equal(rd_utf8_valid_len(U("\xe0\x80\xaf")), 0);      /* overlong */
    assert_int_equal(rd_utf8_valid_len(U("\xed\xa0\x80")), 0);      /* surrogate D800 */
    assert_int_equal(rd_utf8_valid_len(U("\xf4\x90\x80\x80")), 0);  /* above U+10FFFF */
    /* 'avail' is honoured: a valid sequence cut by it is not valid. */
    assert_int_equal(rd_utf8_valid_len((const unsigned char *)"\xe2\x82\xac", 2), 0);
#undef U
}

static void json_strings_are_utf8(void **state)
{
    (void)state;
    struct rd_buf b = RD_BUF_INIT;
    /* Invalid bytes become U+FFFD (EF BF BD); valid text is kept as is. */
    assert_int_equal(rd_buf_add_json_string(&b, "a\xff" "b\xc3\xa9" "c\xc3"), RD_OK);
    assert_string_equal(b.ptr, "\"a\xef\xbf\xbd" "b\xc3\xa9" "c\xef\xbf\xbd\"");
    rd_buf_reset(&b);
    /* Control characters and quotes are escaped. */
    assert_int_equal(rd_buf_add_json_string(&b, "q\"\\\n\x01"), RD_OK);
    assert_string_equal(b.ptr, "\"q\\\"\\\\\\n\\u0001\"");
    rd_buf_release(&b);
}

/* Every byte alone, after plain text and before it, appended to what the
 * buffer holds (a plain string takes one copy, any other the escaping
 * loop): by JSON's rules (RFC 8259 section 7) spelled out here, a byte of
 * 0x80 or more alone being invalid UTF-8, so U+FFFD. */
static void json_string_every_byte(void **state)
{
    (void)state;
    struct rd_buf b = RD_BUF_INIT;
    assert_int_equal(rd_buf_add_json_string(&b, ""), RD_OK);
    assert_string_equal(b.ptr, "\"\"");
    for (int c = 1; c < 256; c++) {
        char want[16];
        if (c == '"' || c == '\\')
            snprintf(want, sizeof want, "\\%c", c);
        else if (c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f')
            snprintf(want, sizeof want, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' :
                                                c == '\r' ? 'r' : c == '\b' ? 'b' : 'f');
        else if (c < 0x20)
            snprintf(want, sizeof want, "\\u%04x", c);
        else if (c >= 0x80)
            snprintf(want, sizeof want, "\xef\xbf\xbd");
        else
            snprintf(want, sizeof want, "%c", c);
        char in[8], expect[64];
        snprintf(in, sizeof in, "ab%cz", c);
        snprintf(expect, sizeof expect, "x\"ab%sz\"", want);
        rd_buf_reset(&b);
        assert_int_equal(rd_buf_addch(&b, 'x'), RD_OK);
        assert_int_equal(rd_buf_add_json_string(&b, in), RD_OK);
        assert_string_equal(b.ptr, expect);
        assert_int_equal(b.len, strlen(expect));
        snprintf(in, sizeof in, "%c", c);
        snprintf(expect, sizeof expect, "\"%s\"", want);
        rd_buf_reset(&b);
        assert_int_equal(rd_buf_add_json_string(&b, in), RD_OK);
        assert_string_equal(b.ptr, expect);
    }
    rd_buf_release(&b);
    /* A capped buffer the string does not fit: refused. */
    rd_buf_init(&b, 6);
    assert_int_equal(rd_buf_addstr(&b, "ab"), RD_OK);
    assert_int_equal(rd_buf_add_json_string(&b, "cde"), RD_ERR_NOMEM);
    assert_int_equal(rd_buf_add_json_string(&b, "cd"), RD_OK);
    assert_string_equal(b.ptr, "ab\"cd\"");
    rd_buf_release(&b);
}

/* ---- the store, through store.h ---- */

static char store_path[64];

static void write_store(const char *text, size_t len)
{
    snprintf(store_path, sizeof store_path, "/tmp/rundown-test-json-XXXXXX");
    int fd = mkstemp(store_path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* Reads the store to its end or first error; returns that status and the
 * number of records read before it. */
static rd_status read_all(int *n, struct rd_diag *d)
{
    struct rd_store_reader rd;
    rd_diag_init(d, NULL);
    assert_int_equal(rd_store_open(&rd, store_path, d), RD_OK);
    struct rd_record rec;
    int got;
    rd_status s;
    *n = 0;
    while ((s = rd_store_next(&rd, &rec, &got, d)) == RD_OK && got)
        (*n)++;
    rd_store_close(&rd);
    return s;
}

/* Writes 'text' as a store, reads it and expects a refusal after 'n_ok'
 * records, at 'line', with a message containing 'msg'. */
static void expect_store_error(const char *text, int n_ok, unsigned line, const char *msg)
{
    struct rd_diag d;
    int n;
    write_store(text, strlen(text));
    assert_int_equal(read_all(&n, &d), RD_ERR_PARSE);
    assert_int_equal(n, n_ok);
    assert_int_equal(d.line, line);
    assert_non_null(strstr(d.msg, msg));
    unlink(store_path);
}

#define GOOD "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},\"metrics\":{\"x\":1}}\n"

static void store_refuses_duplicates_and_bad_utf8(void **state)
{
    (void)state;
    struct rd_diag d;
    int n;
    /* "run" twice on line 2. */
    expect_store_error(GOOD "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"run\":2,"
                       "\"run\":7,\"config\":{},\"metrics\":{}}\n",
                       1, 2, "expected each key once, got 'run' twice");
    /* A metric twice, on line 1. */
    expect_store_error("{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},"
                       "\"metrics\":{\"x\":1,\"x\":2}}\n",
                       0, 1, "expected each key once, got 'x' twice");
    /* A raw 0xff in a label value on line 2: not UTF-8, refused. */
    expect_store_error(GOOD "{\"schema\":\"rundown.run/1\",\"workload\":\"w\","
                       "\"config\":{\"a\":\"\xff\"},\"metrics\":{}}\n",
                       1, 2, "expected UTF-8 text, got byte 0xff");

    /* Valid multi-byte text is accepted. */
    const char *ok = "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"a\":\"\xc3\xa9\"},"
                     "\"metrics\":{}}\n";
    write_store(ok, strlen(ok));
    assert_int_equal(read_all(&n, &d), RD_OK);
    assert_int_equal(n, 1);
    unlink(store_path);
}

/* One record line of exactly 'len' bytes (without its newline), padded in
 * an info string. */
static char *record_line(size_t len)
{
    static const char head[] = "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},"
                               "\"metrics\":{},\"info\":{\"pad\":\"";
    static const char tail[] = "\"}}";
    size_t fixed = sizeof head - 1 + sizeof tail - 1;
    assert_true(len > fixed);
    char *s = malloc(len + 2);
    assert_non_null(s);
    memcpy(s, head, sizeof head - 1);
    memset(s + sizeof head - 1, 'p', len - fixed);
    memcpy(s + len - (sizeof tail - 1), tail, sizeof tail - 1);
    s[len] = '\n';
    s[len + 1] = '\0';
    return s;
}

static void store_line_cap(void **state)
{
    (void)state;
    struct rd_diag d;
    int n;
    /* A line well under the cap (1 KiB less) is read. */
    char *line = record_line(RD_STORE_MAX_LINE - 1024);
    write_store(line, RD_STORE_MAX_LINE - 1024 + 1);
    assert_int_equal(read_all(&n, &d), RD_OK);
    assert_int_equal(n, 1);
    unlink(store_path);
    free(line);

    /* A good line, then one over the cap (1 KiB more): refused at line 2
     * without reading it whole. */
    line = record_line(RD_STORE_MAX_LINE + 1024);
    struct rd_buf b = RD_BUF_INIT;
    rd_buf_addstr(&b, GOOD);
    rd_buf_add(&b, line, RD_STORE_MAX_LINE + 1024 + 1);
    write_store(b.ptr, b.len);
    assert_int_equal(read_all(&n, &d), RD_ERR_PARSE);
    assert_int_equal(n, 1);
    assert_int_equal(d.line, 2);
    unlink(store_path);
    rd_buf_release(&b);
    free(line);

    /* 32 MiB without any newline: refused at line 1. */
    size_t big = 2 * (size_t)RD_STORE_MAX_LINE;
    char *junk = malloc(big);
    assert_non_null(junk);
    memset(junk, 'x', big);
    write_store(junk, big);
    assert_int_equal(read_all(&n, &d), RD_ERR_PARSE);
    assert_int_equal(n, 0);
    assert_int_equal(d.line, 1);
    unlink(store_path);
    free(junk);

    /* Writing: a record whose line would exceed the cap is refused and
     * the store is left as it was, so what rundown writes it can read. */
    write_store(GOOD, strlen(GOOD));
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record r;
    rd_record_init(&r, &arena);
    rd_record_set(&r, &r.workload, "w");
    char *pad = malloc(RD_STORE_MAX_LINE + 1);
    assert_non_null(pad);
    memset(pad, 'p', RD_STORE_MAX_LINE);
    pad[RD_STORE_MAX_LINE] = '\0';
    rd_record_set_info(&r, "pad", pad);
    rd_diag_init(&d, NULL);
    assert_int_not_equal(rd_store_append_one(store_path, &r, &d), RD_OK);
    struct stat st;
    assert_int_equal(stat(store_path, &st), 0);
    assert_int_equal(st.st_size, strlen(GOOD));
    free(pad);
    rd_arena_release(&arena);
    unlink(store_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(duplicate_keys),
        cmocka_unit_test(duplicate_keys_many),
        cmocka_unit_test(parse_into_an_arena),
        cmocka_unit_test(utf8_lengths),
        cmocka_unit_test(json_strings_are_utf8),
        cmocka_unit_test(json_string_every_byte),
        cmocka_unit_test(store_refuses_duplicates_and_bad_utf8),
        cmocka_unit_test(store_line_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
