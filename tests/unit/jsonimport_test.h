/*
 * jsonimport_test.h - helpers shared by the unit tests of the autocannon,
 * bombardier, oha, k6 and hyperfine importers and of the importer table
 * (header-only: each test is one executable).
 */
#ifndef RUNDOWN_JSONIMPORT_TEST_H
#define RUNDOWN_JSONIMPORT_TEST_H

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "importer.h"

struct fixture {
    struct rd_recordset set;
    struct rd_diag d;
    rd_status s;
};

/* Parses text (normalised like the front end does) with the importer. */
__attribute__((unused))
static void parse_with(const struct rd_importer *imp, const char *text, struct fixture *f)
{
    static struct rd_buf raw;
    struct rd_import_input in;
    rd_buf_release(&raw);
    rd_buf_init(&raw, 0);
    rd_buf_addstr(&raw, text);
    rd_recordset_init(&f->set);
    rd_diag_init(&f->d, "t.txt");
    f->s = rd_import_normalise(&raw, "t.txt", &in, &f->d);
    if (!f->s)
        f->s = imp->parse(&in, &f->set, &f->d);
}

__attribute__((unused))
static double metric(const struct rd_record *r, const char *name)
{
    double v;
    if (!rd_record_metric(r, name, &v))
        fail_msg("metric %s missing", name);
    return v;
}

__attribute__((unused))
static bool has_metric(const struct rd_record *r, const char *name)
{
    double v;
    return rd_record_metric(r, name, &v);
}

/* Appends the whole file at path to b; false when it cannot be opened. */
__attribute__((unused))
static bool read_file(const char *path, struct rd_buf *b)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return false;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        rd_buf_add(b, chunk, n);
    fclose(fp);
    return true;
}

/* detect() must claim exactly the samples whose name starts with 'prefix'
 * and no other tool's output (.txt, .json, .csv) in data/samples. */
__attribute__((unused))
static void check_detect_samples(const struct rd_importer *imp, const char *prefix)
{
    DIR *dir = opendir(RD_SOURCE_DIR "/data/samples");
    struct dirent *e;
    int mine = 0;
    assert_non_null(dir);
    while ((e = readdir(dir))) {
        /* Tool outputs only: capture scripts live beside them. */
        const char *ext = strrchr(e->d_name, '.');
        if (e->d_name[0] == '.' || !ext ||
            (strcmp(ext, ".txt") && strcmp(ext, ".json") && strcmp(ext, ".csv")))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/data/samples/%s", RD_SOURCE_DIR, e->d_name);
        struct rd_buf raw;
        rd_buf_init(&raw, 0);
        assert_true(read_file(path, &raw));
        struct rd_import_input in;
        struct rd_diag d;
        rd_diag_init(&d, path);
        if (rd_import_normalise(&raw, path, &in, &d) == RD_OK) {
            int score = imp->detect(&in);
            bool want = strncmp(e->d_name, prefix, strlen(prefix)) == 0 && in.len > 0;
            if (want != (score >= 50))
                fail_msg("%s: detect %d", e->d_name, score);
            mine += want;
        }
        rd_buf_release(&raw);
    }
    closedir(dir);
    assert_true(mine > 0);
}

#endif
