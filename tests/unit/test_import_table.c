// links: rd_collect
/*
 * test_import_table - the importer table (collect/importer.c) as the one
 * place that knows each tool, and the checklist at the top of importer.h
 * held true: every entry is complete, envinfo asks the table for version
 * commands, and every place a new importer must touch exists for each
 * entry (fuzz target and corpus, unit test, golden cases and their
 * independent check, docs/formats.md, README).
 */
#include <stdlib.h>

#include "envinfo.h"
#include "jsonimport_test.h"

/* The whole of RD_SOURCE_DIR/rel, or NULL when it cannot be read. */
static char *slurp(const char *rel)
{
    char path[1024];
    struct rd_buf b;
    snprintf(path, sizeof path, "%s/%s", RD_SOURCE_DIR, rel);
    rd_buf_init(&b, 0);
    if (!read_file(path, &b))
        return NULL;
    return rd_buf_detach(&b, NULL);
}

static bool contains(const char *rel, const char *needle)
{
    char *text = slurp(rel);
    bool found = text && strstr(text, needle);
    free(text);
    return found;
}

/* A folder under RD_SOURCE_DIR holding at least one file. */
static bool has_files(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", RD_SOURCE_DIR, rel);
    DIR *d = opendir(path);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n > 0;
}

static void every_entry_is_complete(void **state)
{
    (void)state;
    size_t n;
    const struct rd_importer *const *list = rd_importers(&n);
    int load = 0;
    assert_int_equal(n, 9);
    for (size_t i = 0; i < n; i++) {
        const struct rd_importer *imp = list[i];
        assert_non_null(imp->name);
        assert_non_null(imp->description);
        assert_non_null(imp->detect);
        assert_non_null(imp->parse);
        assert_non_null(imp->version_argv);
        assert_non_null(imp->version_argv[0]);
        assert_ptr_equal(rd_importer_find(imp->name), imp);
        load += imp->load;
    }
    /* Every tool but hyperfine is an HTTP load tool. */
    assert_int_equal(load, 8);
    assert_false(rd_importer_find("hyperfine")->load);
}

static void envinfo_asks_the_table(void **state)
{
    (void)state;
    const char *const *v = rd_env_tool_version_argv("k6");
    assert_ptr_equal(v, rd_importer_find("k6")->version_argv);
    assert_string_equal(v[0], "k6");
    assert_string_equal(v[1], "version");
    assert_null(v[2]);
    v = rd_env_tool_version_argv("wrk2");
    assert_string_equal(v[0], "wrk2");
    assert_string_equal(v[1], "-v");
    assert_null(rd_env_tool_version_argv("curl"));
}

/* 'pattern' with each '@' replaced by 'name'. */
static void fill(const char *pattern, const char *name, char *out, size_t size)
{
    size_t w = 0;
    for (const char *p = pattern; *p && w + 1 < size; p++) {
        size_t n = *p == '@' ? strlen(name) : 1;
        if (w + n >= size)
            break;
        memcpy(out + w, *p == '@' ? name : p, n);
        w += n;
    }
    out[w] = '\0';
}

/*
 * The places of the checklist that are a file holding a text, '@' standing
 * for the tool's name. A text "" means the file is a folder holding files.
 */
static const struct { const char *file, *text; } places[] = {
    { "collect/importers/@.c", "rd_importer_@ = {" },
    { "tests/fuzz/fuzz_import_@.c", "fuzz_importer(&rd_importer_@," },
    { "tests/fuzz/corpus/import_@", "" },
    { "tests/unit/test_import_@.c", "rd_importer_@;" },
    { "tests/cases/import-@", "" },
    { "docs/formats.md", "## @ (`-t @`)" },
    { "README.md", "`@`" },
};

static void every_place_of_the_checklist_exists(void **state)
{
    (void)state;
    size_t n;
    const struct rd_importer *const *list = rd_importers(&n);
    for (size_t i = 0; i < n; i++) {
        const char *name = list[i]->name;
        /* wrk2 shares wrk's parser, and so its unit test. */
        const char *family = strcmp(name, "wrk2") == 0 ? "wrk" : name;
        char rel[256], text[128];
        for (size_t k = 0; k < sizeof places / sizeof places[0]; k++) {
            fill(places[k].file, strstr(places[k].file, "tests/unit/") ? family : name, rel,
                 sizeof rel);
            fill(places[k].text, name, text, sizeof text);
            if (!(text[0] ? contains(rel, text) : has_files(rel)))
                fail_msg("%s: %s does not hold '%s'", name, rel, text);
        }
        char verify[300], notes[300];
        snprintf(verify, sizeof verify, "tests/cases/import-%s/verify.py", name);
        snprintf(notes, sizeof notes, "tests/cases/import-%s/NOTES.md", name);
        if (!contains(verify, "check_cases(") && !contains(notes, "expected"))
            fail_msg("%s: no verify.py or NOTES.md checking its cases", name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_entry_is_complete),
        cmocka_unit_test(envinfo_asks_the_table),
        cmocka_unit_test(every_place_of_the_checklist_exists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
