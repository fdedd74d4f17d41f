// links: rd_collect
/*
 * test_truncation - the truncation sweep (issue 28, item 3): every prefix of
 * every load-tool sample in data/samples and of every golden import input in
 * tests/cases/import-*, detected and parsed as `rundown-collect import`
 * does, must be refused or store the same records as the whole file.
 *
 * Two outcomes also count as safe, and are counted apart:
 *  - the prefix stores the whole file's first k records exactly (a capture of
 *    several runs cut between two of them is a complete capture of fewer);
 *  - every record of the prefix is a failed run: ab stops after its
 *    "Benchmarking ..." banner on a fatal error, so a report cut right
 *    after the banner is byte for byte the output of a run that failed, and
 *    a failed run carries no measurement;
 *  - the cut falls at a line end right before a JSON document that follows
 *    a whole text report (wrk's Lua done() output, autocannon's --json on
 *    stdout captured after its stderr tables): what is left is a complete
 *    report, read from its rounded text instead of the exact JSON;
 *  - hey's -o csv cut at a row end: one row per request and no footer, so
 *    nothing can tell such a cut from a shorter run (docs/formats.md).
 * Anything else is a cut report taken for a good one, and fails the test
 * with the file and the prefix length.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importer.h"

struct outcome {
    bool ok;            /* parsed */
    size_t nrec;
    bool all_failed;
    struct rd_buf json; /* the records, one JSON line each */
    size_t *ends;       /* end offset in json of each record */
};

static void outcome_release(struct outcome *o)
{
    rd_buf_release(&o->json);
    free(o->ends);
}

static void import_bytes(const char *data, size_t len, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    rd_buf_init(&o->json, 0);
    struct rd_buf raw;
    rd_buf_init(&raw, 0);
    assert_int_equal(rd_buf_add(&raw, data, len), RD_OK);
    struct rd_import_input in;
    struct rd_diag d;
    rd_diag_init(&d, "t");
    if (rd_import_normalise(&raw, "t", &in, &d) != RD_OK) {
        rd_buf_release(&raw);
        return;
    }
    const struct rd_importer *imp = rd_importer_detect(&in, &d);
    if (!imp) {
        rd_buf_release(&raw);
        return;
    }
    struct rd_recordset set;
    rd_recordset_init(&set);
    if (imp->parse(&in, &set, &d) == RD_OK && set.len > 0) {
        o->ok = true;
        o->nrec = set.len;
        o->all_failed = true;
        o->ends = calloc(set.len, sizeof *o->ends);
        assert_non_null(o->ends);
        for (size_t i = 0; i < set.len; i++) {
            assert_int_equal(rd_record_to_json(&set.items[i], &o->json), RD_OK);
            o->ends[i] = o->json.len;
            if (!set.items[i].status || strcmp(set.items[i].status, "failed") != 0)
                o->all_failed = false;
        }
    }
    rd_recordset_release(&set);
    rd_buf_release(&raw);
}

static size_t total_prefixes, refused, identical, fewer, failed_only, whole_report,
    accepted_wrong;

/* The cut leaves a complete text report: at a line end, and what was cut
 * off starts with a JSON document. */
static bool before_json(const char *data, size_t n, size_t len)
{
    if (data[n - 1] != '\n')
        return false;
    while (n < len && (data[n] == '\n' || data[n] == ' '))
        n++;
    return n < len && data[n] == '{';
}

static bool csv_rows(const char *path, const char *data, size_t n)
{
    size_t pl = strlen(path);
    return pl > 4 && strcmp(path + pl - 4, ".csv") == 0 && data[n - 1] == '\n';
}

static void sweep_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char data[1 << 16];
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    struct outcome whole;
    import_bytes(data, len, &whole);
    if (!whole.ok) {
        /* A golden case of bad input: its prefixes prove nothing. */
        outcome_release(&whole);
        return;
    }
    size_t bad_here = 0;
    for (size_t n = 1; n < len; n++) {
        struct outcome p;
        import_bytes(data, n, &p);
        total_prefixes++;
        if (!p.ok) {
            refused++;
        } else if (p.nrec == whole.nrec && p.json.len == whole.json.len &&
                   memcmp(p.json.ptr, whole.json.ptr, p.json.len) == 0) {
            identical++;
        } else if (p.nrec < whole.nrec && p.json.len == whole.ends[p.nrec - 1] &&
                   memcmp(p.json.ptr, whole.json.ptr, p.json.len) == 0) {
            fewer++;
        } else if (p.all_failed) {
            failed_only++;
        } else if (before_json(data, n, len) || csv_rows(path, data, n)) {
            whole_report++;
        } else {
            if (!bad_here++)
                print_message("%s: the prefix of %zu of %zu bytes was accepted with other "
                              "records than the whole file:\n%s\n",
                              path, n, len, p.json.ptr ? p.json.ptr : "");
            accepted_wrong++;
        }
        outcome_release(&p);
    }
    outcome_release(&whole);
}

static bool skip_name(const char *name)
{
    return name[0] == '.' || strncmp(name, "expected", 8) == 0 || strcmp(name, "cmd") == 0 ||
           strstr(name, ".py") || strstr(name, ".md") || strstr(name, ".lua") ||
           strstr(name, ".js");
}

static void sweep_dir(const char *dir, int depth)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(dp))) {
        if (skip_name(e->d_name))
            continue;
        /* a path cut at 4 KiB is skipped, not opened (and gcc -O2 sees
         * the check) */
        int len = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (len < 0 || (size_t)len >= sizeof path)
            continue;
        DIR *sub = opendir(path);
        if (sub) {
            closedir(sub);
            if (depth > 0)
                sweep_dir(path, depth - 1);
            continue;
        }
        sweep_file(path);
    }
    closedir(dp);
}

static void test_every_prefix(void **state)
{
    (void)state;
    sweep_dir(RD_SOURCE_DIR "/data/samples", 0);
    DIR *dp = opendir(RD_SOURCE_DIR "/tests/cases");
    assert_non_null(dp);
    struct dirent *e;
    while ((e = readdir(dp)))
        if (strncmp(e->d_name, "import-", 7) == 0) {
            char path[4096];
            snprintf(path, sizeof path, RD_SOURCE_DIR "/tests/cases/%s", e->d_name);
            sweep_dir(path, 1);
        }
    closedir(dp);
    printf("truncation sweep: %zu prefixes: %zu refused, %zu identical, %zu complete "
           "earlier runs, %zu failed runs only, %zu whole text reports or csv rows, %zu wrong\n",
           total_prefixes, refused, identical, fewer, failed_only, whole_report,
           accepted_wrong);
    assert_int_equal(accepted_wrong, 0);
    assert_true(total_prefixes > 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
