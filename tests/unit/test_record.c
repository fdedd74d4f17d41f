// links: rd_core
/*
 * Run records: building, JSON round trip, validation messages, stores.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "rundown/buf.h"
#include "rundown/record.h"
#include "rundown/store.h"

static void build_and_write(void **state)
{
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    assert_non_null(r);
    assert_int_equal(rd_record_set(r, &r->workload, "cpu-heavycalc"), RD_OK);
    assert_int_equal(rd_record_set(r, &r->tool, "rundown"), RD_OK);
    /* Labels are kept sorted by key whatever the insertion order. */
    assert_int_equal(rd_record_set_label(r, "runtime", "bun"), RD_OK);
    assert_int_equal(rd_record_set_label(r, "mechanism", "worker"), RD_OK);
    assert_int_equal(rd_record_set_label(r, "runtime", "deno"), RD_OK);
    r->run = 3;
    r->exit_code = 0;
    r->has_exit_code = true;
    assert_int_equal(rd_record_set_metric(r, "wall_ms", 101.3), RD_OK);
    assert_int_equal(rd_record_set_metric(r, "max_rss_kib", 61234), RD_OK);
    assert_int_equal(rd_record_set_metric(r, "latency_mean_ms", NAN), RD_OK);
    assert_int_equal(rd_record_set_source(r, "file", "a \"quoted\"\tname"), RD_OK);
    r->source_line = 7;

    struct rd_buf b = RD_BUF_INIT;
    assert_int_equal(rd_record_to_json(r, &b), RD_OK);
    assert_string_equal(b.ptr,
        "{\"schema\":\"rundown.run/1\",\"workload\":\"cpu-heavycalc\","
        "\"config\":{\"mechanism\":\"worker\",\"runtime\":\"deno\"},\"run\":3,"
        "\"phase\":\"measure\",\"tool\":\"rundown\",\"status\":\"ok\",\"exit_code\":0,"
        "\"metrics\":{\"wall_ms\":101.3,\"max_rss_kib\":61234,\"latency_mean_ms\":null},"
        "\"source\":{\"file\":\"a \\\"quoted\\\"\\tname\",\"line\":7}}\n");

    struct rd_buf id = RD_BUF_INIT;
    assert_int_equal(rd_record_config_id(r, &id), RD_OK);
    assert_string_equal(id.ptr, "mechanism=worker,runtime=deno");
    /* appended after what the buffer holds (analyze's key), in one growth */
    rd_buf_reset(&id);
    assert_int_equal(rd_buf_addstr(&id, "w\x1f"), RD_OK);
    assert_int_equal(rd_record_config_id(r, &id), RD_OK);
    assert_string_equal(id.ptr, "w\x1fmechanism=worker,runtime=deno");
    assert_int_equal(id.len, 31);
    /* a buffer capped short of it: refused */
    struct rd_buf capped;
    rd_buf_init(&capped, 10);
    assert_int_equal(rd_record_config_id(r, &capped), RD_ERR_NOMEM);
    rd_buf_release(&capped);
    /* no labels: nothing added */
    struct rd_record bare;
    rd_record_init(&bare, NULL);
    rd_buf_reset(&id);
    assert_int_equal(rd_record_config_id(&bare, &id), RD_OK);
    assert_int_equal(id.len, 0);
    assert_string_equal(id.ptr, "");

    /* Round trip: parse what we wrote and write it again. */
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record back;
    struct rd_diag d;
    rd_diag_init(&d, "t");
    assert_int_equal(rd_record_from_json(&back, &arena, b.ptr, b.len - 1, &d), RD_OK);
    double v;
    assert_true(rd_record_metric(&back, "wall_ms", &v));
    assert_float_equal(v, 101.3, 0);
    assert_true(rd_record_metric(&back, "latency_mean_ms", &v));
    assert_true(isnan(v));
    assert_string_equal(rd_record_label(&back, "runtime"), "deno");
    assert_int_equal(back.source_line, 7);
    struct rd_buf again = RD_BUF_INIT;
    assert_int_equal(rd_record_to_json(&back, &again), RD_OK);
    assert_string_equal(again.ptr, b.ptr);

    rd_buf_release(&b);
    rd_buf_release(&id);
    rd_buf_release(&again);
    rd_arena_release(&arena);
    rd_recordset_release(&set);
}

static void expect_error_n(const char *line, size_t len, unsigned col, const char *msg)
{
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record r;
    struct rd_diag d;
    rd_diag_init(&d, "s.jsonl");
    d.line = 4;
    assert_int_equal(rd_record_from_json(&r, &arena, line, len, &d), RD_ERR_PARSE);
    assert_int_equal(d.line, 4);
    assert_int_equal(d.col, col);
    assert_string_equal(d.msg, msg);
    rd_arena_release(&arena);
}

static void expect_error(const char *line, unsigned col, const char *msg)
{
    expect_error_n(line, strlen(line), col, msg);
}

static void bad_records(void **state)
{
    expect_error("{\"schema\":\"rundown.run/2\",\"workload\":\"w\",\"config\":{},\"metrics\":{}}",
                 2, "expected \"rundown.run/1\" for 'schema'");
    expect_error("{\"schema\":\"rundown.run/1\",\"config\":{},\"metrics\":{}}",
                 1, "expected a workload name for 'workload'");
    expect_error("{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"a\":1},\"metrics\":{}}",
                 52, "expected a string value for 'a'");
    expect_error("{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},\"metrics\":{\"x\":\"1\"}}",
                 65, "expected a number or null for 'x'");
    expect_error("{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},\"metrics\":{},\"status\":\"great\"}",
                 67, "expected \"ok\", \"failed\" or \"timeout\" for 'status'");
    expect_error("{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},\"metrics\":{}} {}",
                 68, "expected one run record per line, got more after it");
    expect_error("{\"schema\":\"rundown.run/1\",", 27,
                 "expected a JSON run record, got end of line (truncated?)");
    /* A cut last line: the whole token it stops in, and "truncated" (issue 29) */
    expect_error("{\"schema\":\"rundown.run/1\",\"workload\":\"na", 38,
                 "expected a JSON run record, got a line that ends early at '\"na' (truncated?)");
    expect_error("BROKEN line", 1, "expected a JSON run record, got 'BROKEN line'");
    expect_error("[1,2]", 1, "expected a run record object");
}

/* Members are told by their whole key (member_of, byte by byte), and
 * status, phase and schema by their whole value: every member read into
 * its field; keys one byte short of, past or beside a member's are other
 * keys (ignored, so the wrong types they carry are no error); a value one
 * byte short or long is refused. */
static void members_by_whole_key(void **state)
{
    (void)state;
    static const char all[] =
        "{\"schema\":\"rundown.run/1\",\"suite\":\"s\",\"workload\":\"w\",\"phase\":\"warmup\","
        "\"tool\":\"wrk\",\"status\":\"timeout\",\"started_at\":\"2026-01-02T03:04:05Z\","
        "\"env\":\"env-1\",\"run\":4,\"exit_code\":3,\"config\":{\"rt\":\"a\"},"
        "\"info\":{\"k\":\"v\"},\"source\":{\"file\":\"f\"},\"metrics\":{\"m\":1},"
        "\"contended\":true}";
    struct rd_arena arena;
    rd_arena_init(&arena);
    struct rd_record r;
    struct rd_diag d;
    rd_diag_init(&d, "s.jsonl");
    assert_int_equal(rd_record_from_json(&r, &arena, all, strlen(all), &d), RD_OK);
    assert_string_equal(r.suite, "s");
    assert_string_equal(r.workload, "w");
    assert_string_equal(r.phase, "warmup");
    assert_string_equal(r.tool, "wrk");
    assert_string_equal(r.status, "timeout");
    assert_string_equal(r.started_at, "2026-01-02T03:04:05Z");
    assert_string_equal(r.env, "env-1");
    assert_int_equal(r.run, 4);
    assert_true(r.has_exit_code);
    assert_int_equal(r.exit_code, 3);
    assert_string_equal(rd_record_label(&r, "rt"), "a");
    assert_string_equal(rd_record_info(&r, "k"), "v");
    assert_int_equal(r.source.len, 1);
    assert_true(rd_record_metric(&r, "m", NULL));
    assert_true(r.contended);

    static const char others[] =
        "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},\"metrics\":{},"
        "\"schem\":1,\"schemas\":1,\"s\":1,\"\":1,\"suit\":1,\"statu\":1,\"statuss\":1,"
        "\"started\":1,\"sources\":1,\"workloads\":1,\"phas\":1,\"tools\":1,\"en\":1,"
        "\"envs\":1,\"exit\":1,\"ru\":1,\"runs\":\"x\",\"conf\":1,\"configs\":1,"
        "\"contend\":1,\"inf\":1,\"metric\":1,\"x\":1,\"Schema\":1}";
    assert_int_equal(rd_record_from_json(&r, &arena, others, strlen(others), &d), RD_OK);
    assert_int_equal(r.run, 0);
    assert_null(r.suite);
    assert_false(r.contended);
    rd_arena_release(&arena);

#define WITH(kv) "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},\"metrics\":{}," kv "}"
    static const char *const statuses[] = {"o", "oka", "faile", "failedx", "timeou", "", "OK"};
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
        char line[160];
        snprintf(line, sizeof line, WITH("\"status\":\"%s\""), statuses[i]);
        expect_error(line, 67, "expected \"ok\", \"failed\" or \"timeout\" for 'status'");
    }
    static const char *const phases[] = {"measur", "measures", "warmu", "warmup2", "m"};
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        char line[160];
        snprintf(line, sizeof line, WITH("\"phase\":\"%s\""), phases[i]);
        expect_error(line, 67, "expected \"measure\" or \"warmup\" for 'phase'");
    }
#undef WITH
    expect_error("{\"schema\":\"rundown.run/\",\"workload\":\"w\",\"config\":{},\"metrics\":{}}",
                 2, "expected \"rundown.run/1\" for 'schema'");
    expect_error("{\"schema\":\"rundown.run/10\",\"workload\":\"w\",\"config\":{},\"metrics\":{}}",
                 2, "expected \"rundown.run/1\" for 'schema'");
}

/* rd_record_from_json's one pass over a line (plain_ascii) hands every
 * line with a byte of 0x80 or more, a backslash or a NUL to the full
 * checks: each such byte is caught wherever it falls in the 8-byte words
 * and in the tail after them, at the column the full checks give. */
static void expect_line_error(const char *head, const char *bad, size_t badlen,
                              const char *tail, const char *msg)
{
    char line[256];
    size_t h = strlen(head), t = strlen(tail);
    memcpy(line, head, h);
    memcpy(line + h, bad, badlen);
    memcpy(line + h + badlen, tail, t);
    expect_error_n(line, h + badlen + t, (unsigned)h + 1, msg);
}

static void line_checks_every_position(void **state)
{
    (void)state;
    const char *tail_label = "\"},\"metrics\":{}}";
#define FORBIDDEN "expected text without NUL or bidirectional control characters, got "
    static const struct {
        const char *bytes;
        size_t len;
        const char *msg;
    } bad[] = {
        {"\xff", 1, "expected UTF-8 text, got byte 0xff"},
        {"\xc3(", 2, "expected UTF-8 text, got byte 0xc3"},
        {"\xe2\x80\xae", 3, FORBIDDEN "U+202E (it reorders the text around it)"},
        {"\\u2066", 6, FORBIDDEN "U+2066 (it reorders the text around it)"},
        {"\\u0000", 6, FORBIDDEN "U+0000 (NUL)"},
        {"", 1, FORBIDDEN "U+0000 (NUL)"}, /* a raw NUL */
    };
#undef FORBIDDEN
    /* pads of 0..32 put each byte at every place of a 16-byte vector,
     * of an 8-byte word after the vectors, and of the bytes after both */
    for (size_t pad = 0; pad < 33; pad++) {
        char head[128];
        snprintf(head, sizeof head,
                 "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"a\":\"%.*s", (int)pad,
                 "pppppppppppppppppppppppppppppppppppp");
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
            expect_line_error(head, bad[k].bytes, bad[k].len, tail_label, bad[k].msg);
        /* in the last bytes of the line, after its last whole word */
        char end[64];
        snprintf(end, sizeof end, "%.*s\"}", (int)(pad % 16), "qqqqqqqqqqqqqqqq");
        char full[256];
        snprintf(full, sizeof full,
                 "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"a\":\"b\"},"
                 "\"metrics\":{},\"info\":{\"k\":\"");
        expect_line_error(full, "\x80", 1, end, "expected UTF-8 text, got byte 0x80");
    }
    /* Lines the one pass sends on that pass the full checks: read as ever. */
    const char *good[] = {
        "{\"schema\":\"rundown.run/1\",\"workload\":\"caf\xc3\xa9\",\"config\":{},\"metrics\":{}}",
        "{\"schema\":\"rundown.run/1\",\"workload\":\"a\\\"b\\\\\",\"config\":{},\"metrics\":{}}",
        "{\"schema\":\"rundown.run/1\",\"workload\":\"\\u00e9\",\"config\":{},\"metrics\":{}}",
    };
    const char *want[] = {"caf\xc3\xa9", "a\"b\\", "\xc3\xa9"};
    for (size_t i = 0; i < 3; i++) {
        struct rd_arena arena;
        rd_arena_init(&arena);
        struct rd_record r;
        struct rd_diag d;
        rd_diag_init(&d, "s.jsonl");
        assert_int_equal(rd_record_from_json(&r, &arena, good[i], strlen(good[i]), &d), RD_OK);
        assert_string_equal(r.workload, want[i]);
        rd_arena_release(&arena);
    }
}

static void store_append_and_read(void **state)
{
    char path[] = "/tmp/rundown-test-store-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);

    struct rd_recordset set;
    rd_recordset_init(&set);
    for (int i = 1; i <= 3; i++) {
        struct rd_record *r = rd_recordset_add(&set);
        rd_record_set(r, &r->workload, "w");
        rd_record_set_label(r, "runtime", "node");
        r->run = i;
        rd_record_set_metric(r, "rps", 1000.5 * i);
    }
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_store_append(path, &set, &d), RD_OK);
    assert_int_equal(rd_store_append_one(path, &set.items[0], &d), RD_OK);

    /* A record without a workload is refused and the store is untouched. */
    struct rd_record *bad = rd_recordset_add(&set);
    rd_record_set_metric(bad, "rps", 1);
    assert_int_equal(rd_store_append(path, &set, &d), RD_ERR_USAGE);

    struct rd_store_reader rd;
    assert_int_equal(rd_store_open(&rd, path, &d), RD_OK);
    struct rd_record rec;
    int got, n = 0;
    double sum = 0, v;
    while (rd_store_next(&rd, &rec, &got, &d) == RD_OK && got) {
        n++;
        assert_true(rd_record_metric(&rec, "rps", &v));
        sum += v;
    }
    rd_store_close(&rd);
    assert_int_equal(n, 4);
    /* 1000.5 * (1 + 2 + 3) + 1000.5 */
    assert_float_equal(sum, 7003.5, 1e-9);

    /* A bad line in the middle is reported with its line number. */
    FILE *f = fopen(path, "a");
    fputs("\n{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{},\"metrics\":{\"a\":[]}}\n", f);
    fclose(f);
    assert_int_equal(rd_store_open(&rd, path, &d), RD_OK);
    rd_status s;
    while ((s = rd_store_next(&rd, &rec, &got, &d)) == RD_OK && got)
        ;
    assert_int_equal(s, RD_ERR_PARSE);
    assert_int_equal(d.line, 6);
    assert_string_equal(d.path, path);
    rd_store_close(&rd);

    unlink(path);
    rd_recordset_release(&set);
}

static void shortest_numbers(void **state)
{
    char out[32];
    assert_string_equal(rd_fmt_double(101.3, out), "101.3");
    assert_string_equal(rd_fmt_double(0.1 + 0.2, out), "0.30000000000000004");
    assert_string_equal(rd_fmt_double(61234, out), "61234");
    assert_string_equal(rd_fmt_double(-0.0, out), "0");
    assert_string_equal(rd_fmt_double(1e300, out), "1e+300");
    struct rd_buf b = RD_BUF_INIT;
    rd_buf_add_json_number(&b, INFINITY);
    rd_buf_add_json_string(&b, "\x01<");
    assert_string_equal(b.ptr, "null\"\\u0001<\"");
    rd_buf_release(&b);
    /* A capped buffer with room for the number but not for the 32 bytes
     * the in-place path asks for still takes it; past the cap, NOMEM. */
    struct rd_buf capped;
    rd_buf_init(&capped, 8);
    assert_int_equal(rd_buf_add_json_number(&capped, 101.3), RD_OK);
    assert_int_equal(rd_buf_add_json_number(&capped, 2.5), RD_OK);
    assert_string_equal(capped.ptr, "101.32.5");
    assert_int_equal(rd_buf_add_json_number(&capped, 7), RD_ERR_NOMEM);
    assert_string_equal(capped.ptr, "101.32.5");
    rd_buf_release(&capped);
}

/* The shortest-form rule as properties, on 200,000 doubles of every
 * magnitude (raw random bits, and sums like 0.1 + 0.2): the text reads
 * back to the same double, and with one significant digit fewer (down to
 * 15) it would not. */
static int significant_digits(const char *s)
{
    int n = 0, lead = 1;
    for (; *s && *s != 'e'; s++) {
        if (*s < '0' || *s > '9')
            continue;
        if (lead && *s == '0')
            continue;
        lead = 0;
        n++;
    }
    return n;
}

static void shortest_numbers_everywhere(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    char out[32], fewer[512];
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
        double v;
        if (i % 2) {
            memcpy(&v, &x, sizeof v);
        } else {
            v = (double)(x >> 11) / 9007199254740992.0 * 1000 + 0.1 * (double)(i % 7);
        }
        if (!isfinite(v))
            continue;
        rd_fmt_double(v, out);
        assert_true(strtod(out, NULL) == v);
        int digits = significant_digits(out);
        /* Trailing zeros of an integer part count, "%g" style. */
        if (digits > 15) {
            snprintf(fewer, sizeof fewer, "%.*g", digits - 1, v);
            assert_false(strtod(fewer, NULL) == v);
        }
    }
}

static void buffer_cap(void **state)
{
    struct rd_buf b;
    rd_buf_init(&b, 8);
    assert_int_equal(rd_buf_addstr(&b, "12345678"), RD_OK);
    assert_int_equal(rd_buf_addch(&b, '9'), RD_ERR_NOMEM);
    assert_string_equal(b.ptr, "12345678");
    size_t len;
    char *p = rd_buf_detach(&b, &len);
    assert_int_equal(len, 8);
    assert_string_equal(b.ptr, "");
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(build_and_write),
        cmocka_unit_test(bad_records),
        cmocka_unit_test(members_by_whole_key),
        cmocka_unit_test(line_checks_every_position),
        cmocka_unit_test(store_append_and_read),
        cmocka_unit_test(shortest_numbers),
        cmocka_unit_test(shortest_numbers_everywhere),
        cmocka_unit_test(buffer_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
