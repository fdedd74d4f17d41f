/*
 * analyze_test.h - helpers shared by the unit tests that run the analyze
 * engine end to end (test_analyze.c, test_warnings.c): stores written to a
 * temporary folder, the analysis parsed back with cJSON, and lookups into
 * it by path. Header-only: each test is one executable.
 */
#ifndef RUNDOWN_ANALYZE_TEST_H
#define RUNDOWN_ANALYZE_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "stats.h"
#include "rundown/json.h"

static char tmpdir[64];

__attribute__((unused))
static const char *write_store(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Runs the analysis of one store; returns the parsed document or NULL with
 * *status set (and d filled). */
__attribute__((unused))
static cJSON *analyse(const char *store, const struct rd_analyze_opts *o, rd_status *status,
                      struct rd_diag *d)
{
    rd_stats_init(); /* as rundown-analyze's main() does */
    struct rd_analysis *a;
    assert_int_equal(rd_analysis_new(o, &a), RD_OK);
    rd_diag_init(d, NULL);
    rd_status s = rd_analysis_add_store(a, store, d);
    struct rd_buf out = RD_BUF_INIT;
    if (!s)
        s = rd_analysis_write(a, &out, d);
    *status = s;
    cJSON *doc = NULL;
    if (!s)
        assert_int_equal(rd_json_parse(out.ptr, out.len, "out", 1, &doc, NULL), RD_OK);
    rd_buf_release(&out);
    rd_analysis_free(a);
    return doc;
}

/* A new analysis (options o; NULL: the defaults) of the n stores paths,
 * read; a store that cannot be read fails the test. rd_analysis_free it. */
__attribute__((unused))
static struct rd_analysis *analysis_read(const char *const *paths, size_t n,
                                         const struct rd_analyze_opts *o)
{
    struct rd_analyze_opts def;
    if (!o) {
        rd_analyze_opts_init(&def);
        o = &def;
    }
    struct rd_analysis *a;
    assert_int_equal(rd_analysis_new(o, &a), RD_OK);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    for (size_t i = 0; i < n; i++)
        if (rd_analysis_add_store(a, paths[i], &d))
            fail_msg("store %s: %s", paths[i], d.msg);
    return a;
}

__attribute__((unused))
static cJSON *analyse_ok(const char *store, const struct rd_analyze_opts *o)
{
    rd_status s;
    struct rd_diag d;
    cJSON *doc = analyse(store, o, &s, &d);
    if (s)
        fail_msg("analysis failed: %s", d.msg);
    return doc;
}

__attribute__((unused))
static void opts(struct rd_analyze_opts *o)
{
    rd_analyze_opts_init(o);
    o->bootstrap = 200; /* keeps the tests fast; the method is tested in test_stats */
}

__attribute__((unused))
static cJSON *get(const cJSON *o, const char *path)
{
    /* "a.b.0.c": object keys and array indices */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *cur = o;
    for (char *tok = strtok(buf, "."); tok && cur; tok = strtok(NULL, ".")) {
        if (cJSON_IsArray(cur))
            cur = cJSON_GetArrayItem(cur, atoi(tok));
        else
            cur = cJSON_GetObjectItemCaseSensitive(cur, tok);
    }
    return (cJSON *)cur;
}

__attribute__((unused))
static const char *gets_(const cJSON *o, const char *path)
{
    const cJSON *v = get(o, path);
    if (!cJSON_IsString(v))
        fail_msg("%s: not a string", path);
    return v->valuestring;
}

__attribute__((unused))
static double getn(const cJSON *o, const char *path)
{
    const cJSON *v = get(o, path);
    if (cJSON_IsNull(v))
        return NAN;
    if (!cJSON_IsNumber(v))
        fail_msg("%s: not a number", path);
    return v->valuedouble;
}

/* The warning of 'code' that concerns config (NULL: any), or NULL. A
 * warning of several configs names them in "configs" (its "config" is
 * null then). */
__attribute__((unused))
static const cJSON *find_warning(const cJSON *wl, const char *code, const char *config)
{
    const cJSON *w;
    cJSON_ArrayForEach(w, get(wl, "warnings")) {
        const char *c = rd_json_str(w, "code");
        if (!c || strcmp(c, code) != 0)
            continue;
        if (!config)
            return w;
        const cJSON *id;
        cJSON_ArrayForEach(id, cJSON_GetObjectItemCaseSensitive(w, "configs"))
            if (cJSON_IsString(id) && strcmp(id->valuestring, config) == 0)
                return w;
    }
    return NULL;
}

__attribute__((unused))
static bool has_warning(const cJSON *wl, const char *code, const char *config)
{
    return find_warning(wl, code, config) != NULL;
}

/* Makes the temporary folder the stores go to (/tmp/NAME.XXXXXX). */
__attribute__((unused))
static bool tmpdir_make(const char *name)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/%s.XXXXXX", name);
    return mkdtemp(tmpdir) != NULL;
}

/* Removes it; returns rc, or 1 when that fails and rc was 0. */
__attribute__((unused))
static int tmpdir_remove(int rc)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}

#define REC(wl, cfg, run, extra, metrics)                                                     \
    "{\"schema\":\"rundown.run/1\",\"workload\":\"" wl "\",\"config\":{" cfg "},\"run\":" #run \
    extra ",\"metrics\":{" metrics "}}\n"

#endif
