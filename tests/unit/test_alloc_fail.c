// links: rd_collect
/*
 * test_alloc_fail - the suite parser and the store reader under a failing
 * allocator (issue 27): every malloc, calloc, realloc and strdup of the
 * libraries linked in is made to fail in turn, one at a time; each must
 * end in RD_ERR_NOMEM (or RD_OK when the failed call had a fallback),
 * never in a crash, a wrong parse error or a leak (the ASan build checks
 * the last two). The wrapping is the linker's (--wrap, tests/CMakeLists.txt):
 * it reaches the calls made by rd_collect and rd_core, not those inside
 * shared libraries (cJSON, libc).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/store.h"
#include "suite.h"
#include "suiteexpand.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

/* The call that fails (counted from 0 since the last reset), or -1. */
static long fail_at = -1, calls;

static int failing(void)
{
    return fail_at >= 0 && calls++ == fail_at;
}

void *__wrap_malloc(size_t n) { return failing() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return failing() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return failing() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return failing() ? NULL : __real_strdup(s); }

#define SUITE_PATH RD_SOURCE_DIR "/tests/unit/suite.json"
static const char suite_text[] =
    "{\"schema\":\"rundown.suite/1\",\"name\":\"t\","
    "\"runtimes\":{\"node\":{\"cmd\":[\"/bin/node\",\"--x\"]},\"bun\":{\"cmd\":\"/bin/bun run\"}},"
    "\"tools\":{\"wrk\":{\"version_cmd\":[\"wrk\",\"--version\"]}},"
    "\"workloads\":[{\"name\":\"w\",\"class\":\"cpu\","
    "\"matrix\":{\"runtime\":[\"node\",\"bun\"],\"workers\":[1,4]},"
    "\"exclude\":[{\"runtime\":\"bun\",\"workers\":4}],"
    "\"include\":[{\"runtime\":\"node\",\"workers\":\"8\"}],"
    "\"env\":{\"N\":\"{workers}\"},"
    "\"command\":[\"{runtime.cmd}\",\"a.js\",\"-w={workers}\"]}]}";

/* Runs attempt with allocation n failing, for n = 0, 1, ... until no
 * allocation failed: each failure must read as RD_ERR_NOMEM, and the whole
 * run must succeed. */
static void each_failure(rd_status (*attempt)(struct rd_diag *d))
{
    long failed = 0;
    for (long n = 0;; n++) {
        struct rd_diag d;
        rd_diag_init(&d, NULL);
        calls = 0;
        fail_at = n;
        rd_status st = attempt(&d);
        fail_at = -1;
        if (calls <= n) { /* every call succeeded: the result is whole */
            assert_int_equal(st, RD_OK);
            break;
        }
        if (st != RD_OK) {
            if (st != RD_ERR_NOMEM)
                fail_msg("allocation %ld failed: status %d (%s), not RD_ERR_NOMEM", n, (int)st,
                         d.msg);
            failed++;
        }
    }
    assert_true(failed > 0);
}

/* Parses text: a parse that ends RD_OK under a failed allocation must be
 * the whole suite (whole() says), not one that lost a part to the failure. */
static rd_status parse_whole(const char *text, bool (*whole)(const struct rd_suite_workload *),
                             struct rd_diag *d)
{
    struct rd_suite s;
    rd_status st = rd_suite_parse(&s, text, strlen(text), SUITE_PATH, 1, d);
    if (st == RD_OK && !(s.nworkloads == 1 && whole(&s.workloads[0])))
        st = rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0, "an RD_OK parse that is not whole "
                         "(%zu configs)", s.workloads[0].nconfigs);
    rd_suite_release(&s);
    return st;
}

/* The matrix gives node 1, node 4, bun 1 (bun 4 excluded), and the
 * include adds node 8. */
static bool small_whole(const struct rd_suite_workload *w)
{
    static const char *const want[][2] = {{"node", "1"}, {"node", "4"}, {"bun", "1"},
                                          {"node", "8"}};
    bool whole = w->nkeys == 2 && w->nconfigs == 4 && w->nenv == 1;
    for (size_t c = 0; whole && c < 4; c++)
        whole = strcmp(rd_suite_value(w, c, 0), want[c][0]) == 0 &&
                strcmp(rd_suite_value(w, c, 1), want[c][1]) == 0;
    return whole;
}

static rd_status parse_suite(struct rd_diag *d)
{
    return parse_whole(suite_text, small_whole, d);
}

static void suite_parser(void **state)
{
    (void)state;
    each_failure(parse_suite);
}

/* A matrix of 2 x 300 configs whose 'exclude' drops the 300 of bun: the
 * exclude's checks allocate often enough that the arena grows among them,
 * so a failure there is reached; an RD_OK must hold the 300 of node. */
static char big_text[8192];

static bool big_whole(const struct rd_suite_workload *w)
{
    bool whole = w->nconfigs == 300;
    for (size_t c = 0; whole && c < w->nconfigs; c++)
        whole = strcmp(rd_suite_value(w, c, 0), "node") == 0;
    return whole;
}

static rd_status parse_big_exclude(struct rd_diag *d)
{
    return parse_whole(big_text, big_whole, d);
}

/* Strings longer than the arena's free room, so that their copies are
 * the allocations that grow it: a command given as one string (split at
 * blanks) and a tie_breaker (a plain string setting). */
static char long_text[32768];

static bool long_whole(const struct rd_suite_workload *w)
{
    return w->nconfigs == 1 && w->command.n == 1500 && w->tie_breaker &&
           strlen(w->tie_breaker) == 12000;
}

static rd_status parse_long_strings(struct rd_diag *d)
{
    return parse_whole(long_text, long_whole, d);
}

static void suite_long_strings(void **state)
{
    (void)state;
    size_t len = (size_t)snprintf(long_text, sizeof long_text,
        "{\"schema\":\"rundown.suite/1\",\"name\":\"t\","
        "\"workloads\":[{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"");
    for (int i = 0; i < 1500; i++)
        len += (size_t)snprintf(long_text + len, sizeof long_text - len, "%sabc", i ? " " : "");
    len += (size_t)snprintf(long_text + len, sizeof long_text - len, "\",\"tie_breaker\":\"");
    memset(long_text + len, 'm', 12000);
    len += 12000;
    snprintf(long_text + len, sizeof long_text - len, "\"}]}");
    each_failure(parse_long_strings);
}

static void suite_exclude(void **state)
{
    (void)state;
    size_t len = (size_t)snprintf(big_text, sizeof big_text,
        "{\"schema\":\"rundown.suite/1\",\"name\":\"t\","
        "\"runtimes\":{\"node\":{\"cmd\":\"node\"},\"bun\":{\"cmd\":\"bun\"}},"
        "\"workloads\":[{\"name\":\"w\",\"class\":\"cpu\",\"command\":\"true\","
        "\"exclude\":[{\"runtime\":\"bun\"}],"
        "\"matrix\":{\"runtime\":[\"node\",\"bun\"],\"workers\":[");
    for (int i = 1; i <= 300; i++)
        len += (size_t)snprintf(big_text + len, sizeof big_text - len, "%s%d", i > 1 ? "," : "", i);
    snprintf(big_text + len, sizeof big_text - len, "]}}]}");
    each_failure(parse_big_exclude);
}

static rd_status read_store(struct rd_diag *d)
{
    const char *path = RD_SOURCE_DIR "/tests/cases/analyze/0001-small/store.jsonl";
    struct rd_store_reader rd;
    rd_status st = rd_store_open(&rd, path, d);
    size_t records = 0;
    if (st == RD_OK) {
        struct rd_record rec;
        int got = 0;
        while ((st = rd_store_next(&rd, &rec, &got, d)) == RD_OK && got)
            records++;
        rd_store_close(&rd);
    }
    /* The store holds 10 runs: a whole read sees them all. */
    return st == RD_OK && records != 10 ? RD_ERR_PARSE : st;
}

static void store_reader(void **state)
{
    (void)state;
    each_failure(read_store);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(suite_parser),
        cmocka_unit_test(suite_exclude),
        cmocka_unit_test(suite_long_strings),
        cmocka_unit_test(store_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
