// links: rd_analyze
/*
 * test_contract - which contract a file is (rundown/contract.h): each
 * schema, a folder, a file without one, and two threads sniffing at once
 * (issue 27 item 5: no static buffer in a parser, so one thread's read
 * cannot show through in another's answer).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rundown/analysis_keys.h"
#include "rundown/contract.h"

static char dir[] = "/tmp/rd-contract-XXXXXX";

/* A file of about 60 KiB whose "schema" comes last: its read and the
 * search for the schema both take a while, the window another thread's
 * read would fall into with a buffer they share. */
static void write_doc(const char *name, const char *schema, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"pad\":\"", f);
    for (int i = 0; i < 60000; i++)
        fputc('x', f);
    fprintf(f, "\",\"schema\":\"%s\"}\n", schema);
    assert_int_equal(fclose(f), 0);
}

static char store[512], analysis[512];

static void test_kinds(void **state)
{
    (void)state;
    char path[512];
    assert_int_equal(rd_contract_sniff(store), RD_CONTRACT_STORE);
    assert_int_equal(rd_contract_sniff(analysis), RD_CONTRACT_ANALYSIS);
    write_doc("env.json", RD_ENV_SCHEMA, path, sizeof path);
    assert_int_equal(rd_contract_sniff(path), RD_CONTRACT_ENV);
    write_doc("suite.json", RD_SUITE_SCHEMA, path, sizeof path);
    assert_int_equal(rd_contract_sniff(path), RD_CONTRACT_SUITE);
    write_doc("other.json", "something/1", path, sizeof path);
    assert_int_equal(rd_contract_sniff(path), RD_CONTRACT_UNKNOWN);
    assert_int_equal(rd_contract_sniff(dir), RD_CONTRACT_FOLDER);
    snprintf(path, sizeof path, "%s/missing.json", dir);
    assert_int_equal(rd_contract_sniff(path), RD_CONTRACT_UNKNOWN);
    assert_int_equal(rd_contract_sniff("-"), RD_CONTRACT_UNKNOWN);
}

struct sniffer {
    const char *path;
    enum rd_contract want;
    int wrong;
};

static void *sniff_many(void *arg)
{
    struct sniffer *s = arg;
    for (int i = 0; i < 3000; i++)
        s->wrong += rd_contract_sniff(s->path) != s->want;
    return NULL;
}

static void test_two_threads(void **state)
{
    (void)state;
    struct sniffer a = {.path = store, .want = RD_CONTRACT_STORE};
    struct sniffer b = {.path = analysis, .want = RD_CONTRACT_ANALYSIS};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, sniff_many, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, sniff_many, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    if (a.wrong || b.wrong)
        fail_msg("%d of 3000 store sniffs and %d of 3000 analysis sniffs were wrong", a.wrong,
                 b.wrong);
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    write_doc("s.jsonl", RD_RUN_SCHEMA, store, sizeof store);
    write_doc("analysis.json", RD_ANALYSIS_SCHEMA, analysis, sizeof analysis);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_two_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
