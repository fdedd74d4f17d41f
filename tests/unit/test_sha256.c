/*
 * test_sha256 - SHA-256 against the examples of FIPS 180-4 (NIST's
 * "SHA256.pdf" example values: "abc", the two-block 448-bit message) and
 * the empty message and one million 'a' from the NIST test vectors; the
 * same digests as `printf abc | sha256sum` etc. Messages are also fed in
 * pieces of every size, as an importer's segments are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/sha256.h"

static void test_nist_examples(void **state)
{
    (void)state;
    char hex[65];
    rd_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    rd_sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    rd_sha256_hex(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_pieces_and_long(void **state)
{
    (void)state;
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    size_t n = strlen(two);
    for (size_t piece = 1; piece <= n; piece++) {
        struct rd_sha256 c;
        unsigned char d[32];
        char hex[65];
        rd_sha256_init(&c);
        for (size_t at = 0; at < n; at += piece)
            rd_sha256_add(&c, two + at, n - at < piece ? n - at : piece);
        rd_sha256_end(&c, d);
        rd_sha256_to_hex(d, hex);
        assert_string_equal(hex,
                            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    }
    char *a = malloc(1000000);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    char hex[65];
    rd_sha256_hex(a, 1000000, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nist_examples),
        cmocka_unit_test(test_pieces_and_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
