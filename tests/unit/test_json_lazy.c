// links: rd_core
/*
 * test_json_lazy - a JSON document read a part at a time
 * (rundown/json_lazy.h): which arrays are cut out, that their elements
 * come back one by one as cJSON would have parsed them, that brackets and
 * quotes inside strings do not count, and that text which is not JSON is
 * found wherever it is (json_error), also in an array nobody walked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "rundown/json_lazy.h"

static const char *const keys[] = { "configs", "items" };

/* Reads 'text' with every listed array of objects cut out (min 0). */
static rd_status root_of(struct rd_json_lazy *lz, const char *text, cJSON **root)
{
    rd_json_lazy_init(lz, text, strlen(text), keys, 2, 0);
    return rd_json_lazy_root(lz, root);
}

/* The "id" of each element of 'arr', joined by commas, into out. */
static rd_status ids(struct rd_json_lazy *lz, const cJSON *arr, char *out, size_t cap)
{
    struct rd_json_each it;
    const cJSON *v;
    out[0] = '\0';
    for (rd_json_each_begin(lz, &it, arr); (v = rd_json_each_next(lz, &it));) {
        const char *id = rd_json_str(v, "id");
        if (out[0])
            strncat(out, ",", cap - strlen(out) - 1);
        strncat(out, id ? id : "?", cap - strlen(out) - 1);
    }
    return rd_json_each_end(lz, &it);
}

static void cuts_listed_arrays_of_objects(void **state)
{
    (void)state;
    const char *text =
        "{\"configs\": [ {\"id\": \"a]\\\"[\"},"
        " {\"id\":\"b\", \"items\": [{\"id\":\"x\"},{\"id\":\"y\"}]} ],"
        " \"other\": [{\"id\": \"kept\"}], \"items\": [1, 2], \"n\": 3}";
    struct rd_json_lazy lz;
    cJSON *root = NULL;
    assert_int_equal(root_of(&lz, text, &root), RD_OK);
    const cJSON *configs = cJSON_GetObjectItemCaseSensitive(root, "configs");
    /* Cut out: empty in the tree, two elements by the walk. */
    assert_int_equal(cJSON_GetArraySize(configs), 0);
    assert_int_equal(rd_json_lazy_size(&lz, configs), 2);
    /* Not listed, or not of objects: parsed as usual. */
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "other")), 1);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "items")), 2);
    assert_int_equal((int)cJSON_GetObjectItemCaseSensitive(root, "n")->valuedouble, 3);

    char out[64];
    assert_int_equal(ids(&lz, configs, out, sizeof out), RD_OK);
    assert_string_equal(out, "a]\"[,b");

    /* An element's own listed arrays are cut out in turn. */
    struct rd_json_each it;
    const cJSON *v, *second = NULL;
    rd_json_each_begin(&lz, &it, configs);
    while ((v = rd_json_each_next(&lz, &it)))
        if (strcmp(rd_json_str(v, "id"), "b") == 0) {
            second = cJSON_GetObjectItemCaseSensitive(v, "items");
            assert_int_equal(rd_json_lazy_size(&lz, second), 2);
            assert_int_equal(ids(&lz, second, out, sizeof out), RD_OK);
            assert_string_equal(out, "x,y");
        }
    assert_int_equal(rd_json_each_end(&lz, &it), RD_OK);
    assert_non_null(second);
    assert_int_equal(rd_json_lazy_finish(&lz), RD_OK);
    assert_false(lz.json_error);
    rd_json_lazy_release(&lz);
}

static void small_arrays_stay_whole(void **state)
{
    (void)state;
    const char *text = "{\"configs\": [{\"id\": \"a\"}, {\"id\": \"b\"}]}";
    struct rd_json_lazy lz;
    cJSON *root = NULL;
    rd_json_lazy_init(&lz, text, strlen(text), keys, 2, 1000);
    assert_int_equal(rd_json_lazy_root(&lz, &root), RD_OK);
    const cJSON *configs = cJSON_GetObjectItemCaseSensitive(root, "configs");
    assert_int_equal(cJSON_GetArraySize(configs), 2);
    char out[64];
    assert_int_equal(ids(&lz, configs, out, sizeof out), RD_OK);
    assert_string_equal(out, "a,b");
    rd_json_lazy_release(&lz);
}

/* cJSON takes every byte up to a space for white space between tokens
 * (a NUL too): so does the scan, or it would refuse what cJSON reads (as
 * fuzz_render_model found). */
static void control_bytes_are_white_space(void **state)
{
    (void)state;
    static const char text[] = "{\"configs\": [{\"id\":\"a\"\0\0},\x1f{\"id\":\"b\"}\v]}";
    struct rd_json_lazy lz;
    cJSON *root = NULL;
    rd_json_lazy_init(&lz, text, sizeof text - 1, keys, 2, 0);
    assert_int_equal(rd_json_lazy_root(&lz, &root), RD_OK);
    const cJSON *configs = cJSON_GetObjectItemCaseSensitive(root, "configs");
    assert_int_equal(cJSON_GetArraySize(configs), 0);     /* cut out */
    char out[64];
    assert_int_equal(ids(&lz, configs, out, sizeof out), RD_OK);
    assert_string_equal(out, "a,b");
    rd_json_lazy_release(&lz);
}

/* Text that is not JSON inside a cut-out array, walked or not. */
static void finds_bad_json_anywhere(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "{\"configs\": [{\"id\": \"a\"} {\"id\": \"b\"}]}",       /* no comma */
        "{\"configs\": [{\"id\": \"a\"},]}",                      /* trailing comma */
        "{\"configs\": [{\"id\": \"a\",}]}",                      /* cJSON's */
        "{\"configs\": [{\"id\": \"a\"]}",                        /* brackets */
        "{\"configs\": [{\"id\": \"a\"}], }",                     /* the skeleton */
        "{\"x\": {\"configs\": [{\"id\": tru}]}}",                /* never walked */
        "{\"configs\": [{\"id\": \"a\"}]} x",                     /* after the root */
        "{\"configs\": [{\"id\": \"a\"}, {\"items\": [{\"a\": 1,}]}]}",  /* nested */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct rd_json_lazy lz;
        cJSON *root = NULL;
        rd_status st = root_of(&lz, bad[i], &root);
        if (st == RD_OK) {
            char out[64];
            st = ids(&lz, cJSON_GetObjectItemCaseSensitive(root, "configs"), out, sizeof out);
        }
        if (st == RD_OK)
            st = rd_json_lazy_finish(&lz);
        if (st != RD_ERR_PARSE || !lz.json_error)
            fail_msg("case %zu: status %d, json_error %d", i, (int)st, lz.json_error);
        rd_json_lazy_release(&lz);
    }
}

/* With a min_span, an element shorter than it is parsed without a scan
 * (parse_short): the same elements come back, a longer element still has
 * its own listed arrays cut out, a number is never cut short by the
 * window, and bad JSON is found as before. */
static void short_elements_read_the_same(void **state)
{
    (void)state;
    const char *text =
        "{\"configs\": [{\"id\": \"a\"}, {\"id\": \"b\", \"items\": [{\"id\": \"x\"},"
        " {\"id\": \"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\"}]}, {\"id\": \"c\"}],"
        " \"items\": [{\"id\": 1}, 12345678901234567890123456789012345678901234567890]}";
    struct rd_json_lazy lz;
    cJSON *root = NULL;
    rd_json_lazy_init(&lz, text, strlen(text), keys, 2, 40);
    assert_int_equal(rd_json_lazy_root(&lz, &root), RD_OK);
    const cJSON *configs = cJSON_GetObjectItemCaseSensitive(root, "configs");
    assert_int_equal(cJSON_GetArraySize(configs), 0);
    assert_int_equal(rd_json_lazy_size(&lz, configs), 3);
    struct rd_json_each it;
    const cJSON *v;
    char got[128] = "";
    rd_json_each_begin(&lz, &it, configs);
    while ((v = rd_json_each_next(&lz, &it))) {
        strncat(got, rd_json_str(v, "id"), sizeof got - strlen(got) - 1);
        const cJSON *items = cJSON_GetObjectItemCaseSensitive(v, "items");
        if (items) {
            /* Its element is over 40 bytes: scanned, and its items cut out. */
            assert_int_equal(cJSON_GetArraySize(items), 0);
            char out[64];
            assert_int_equal(ids(&lz, items, out, sizeof out), RD_OK);
            assert_string_equal(out, "x,yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy");
        }
    }
    assert_int_equal(rd_json_each_end(&lz, &it), RD_OK);
    assert_string_equal(got, "abc");
    /* A 50-digit number is longer than the window: read whole. */
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(root, "items");
    assert_int_equal(rd_json_lazy_size(&lz, items), 2);
    rd_json_each_begin(&lz, &it, items);
    assert_non_null(rd_json_each_next(&lz, &it));
    v = rd_json_each_next(&lz, &it);
    assert_true(cJSON_IsNumber(v) && v->valuedouble > 1.2e49 && v->valuedouble < 1.3e49);
    assert_null(rd_json_each_next(&lz, &it));
    assert_int_equal(rd_json_each_end(&lz, &it), RD_OK);
    assert_int_equal(rd_json_lazy_finish(&lz), RD_OK);
    assert_false(lz.json_error);
    rd_json_lazy_release(&lz);

    static const char *const bad[] = {
        "{\"configs\": [{\"id\": \"a\"} {\"id\": \"b\"}, {\"id\": \"c\"}]}",
        "{\"configs\": [{\"id\": \"a\"}, {\"id\": \"b\"}, {\"id\": \"c\",}]}",
        "{\"configs\": [{\"id\": \"a\"}, {\"id\": \"b\"}, {\"id\": \"c\"},]}",
        "{\"configs\": [{\"id\": \"a\"}, {\"id\": \"b\"}, 12x, {\"id\": \"c\"}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rd_json_lazy_init(&lz, bad[i], strlen(bad[i]), keys, 2, 30);
        rd_status st = rd_json_lazy_root(&lz, &root);
        if (st != RD_OK)
            fail_msg("bad case %zu: the root: status %d", i, (int)st);
        configs = cJSON_GetObjectItemCaseSensitive(root, "configs");
        assert_int_equal(cJSON_GetArraySize(configs), 0);   /* cut out: walked in parts */
        char out[64];
        st = ids(&lz, configs, out, sizeof out);
        if (st == RD_OK)
            st = rd_json_lazy_finish(&lz);
        if (st != RD_ERR_PARSE || !lz.json_error)
            fail_msg("bad case %zu: status %d, json_error %d", i, (int)st, lz.json_error);
        rd_json_lazy_release(&lz);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cuts_listed_arrays_of_objects),
        cmocka_unit_test(small_arrays_stay_whole),
        cmocka_unit_test(finds_bad_json_anywhere),
        cmocka_unit_test(control_bytes_are_white_space),
        cmocka_unit_test(short_elements_read_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
