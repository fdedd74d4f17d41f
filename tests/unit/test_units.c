// links: rd_core
/*
 * Unit parsing. Expected values are hand conversions: 1 s = 1000 ms,
 * 1 m = 60 000 ms, 1 KB (binary) = 1024 B, 1 kB (SI) = 1000 B.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "rundown/units.h"

#define TOK(s) (s), strlen(s)

static void durations(void **state)
{
    double ms;
    assert_int_equal(rd_parse_duration_ms(TOK("4.20ms"), &ms, 0), RD_OK);
    assert_float_equal(ms, 4.2, 1e-12);
    assert_int_equal(rd_parse_duration_ms(TOK("310.00us"), &ms, 0), RD_OK);
    assert_float_equal(ms, 0.31, 1e-12);
    assert_int_equal(rd_parse_duration_ms(TOK("1.02s"), &ms, 0), RD_OK);
    assert_float_equal(ms, 1020, 1e-9);
    /* m is minutes: 1.00m = 60 000 ms, never 1 ms. */
    assert_int_equal(rd_parse_duration_ms(TOK("1.00m"), &ms, 0), RD_OK);
    assert_float_equal(ms, 60000, 1e-9);
    assert_int_equal(rd_parse_duration_ms(TOK("2h"), &ms, 0), RD_OK);
    assert_float_equal(ms, 7200000, 1e-6);
    assert_int_equal(rd_parse_duration_ms(TOK("1500ns"), &ms, 0), RD_OK);
    assert_float_equal(ms, 0.0015, 1e-15);
    assert_int_equal(rd_parse_duration_ms(TOK("12\xc2\xb5s"), &ms, 0), RD_OK);
    assert_float_equal(ms, 0.012, 1e-15);
    /* A bare number needs a default unit. */
    assert_int_equal(rd_parse_duration_ms(TOK("12.5"), &ms, 0), RD_ERR_PARSE);
    assert_int_equal(rd_parse_duration_ms(TOK("12.5"), &ms, 1000), RD_OK);
    assert_float_equal(ms, 12500, 1e-9);
    assert_int_equal(rd_parse_duration_ms(TOK("-nanus"), &ms, 0), RD_OK);
    assert_true(isnan(ms));
    assert_int_equal(rd_parse_duration_ms(TOK("abc"), &ms, 0), RD_ERR_PARSE);
    assert_int_equal(rd_parse_duration_ms(TOK("4.2 ms"), &ms, 0), RD_ERR_PARSE);
    assert_int_equal(rd_parse_duration_ms(TOK("4.2msx"), &ms, 0), RD_ERR_PARSE);
    assert_int_equal(rd_parse_duration_ms(TOK("1e400s"), &ms, 0), RD_ERR_PARSE);
    assert_int_equal(rd_parse_duration_ms(TOK(""), &ms, 0), RD_ERR_PARSE);
}

static void sizes(void **state)
{
    double b;
    assert_int_equal(rd_parse_size_bytes(TOK("512B"), RD_SIZE_BINARY, &b), RD_OK);
    assert_float_equal(b, 512, 0);
    /* 1.52 * 1024^2 = 1593835.52 */
    assert_int_equal(rd_parse_size_bytes(TOK("1.52MB"), RD_SIZE_BINARY, &b), RD_OK);
    assert_float_equal(b, 1593835.52, 1e-6);
    /* autocannon: 1000-based, 3.14 * 1000^2 = 3140000 */
    assert_int_equal(rd_parse_size_bytes(TOK("3.14MB"), RD_SIZE_SI, &b), RD_OK);
    assert_float_equal(b, 3140000, 1e-6);
    assert_int_equal(rd_parse_size_bytes(TOK("1000kB"), RD_SIZE_SI, &b), RD_OK);
    assert_float_equal(b, 1e6, 1e-6);
    assert_int_equal(rd_parse_size_bytes(TOK("2KB"), RD_SIZE_BINARY, &b), RD_OK);
    assert_float_equal(b, 2048, 0);
    /* KiB is binary whatever the base. */
    assert_int_equal(rd_parse_size_bytes(TOK("1KiB"), RD_SIZE_SI, &b), RD_OK);
    assert_float_equal(b, 1024, 0);
    assert_int_equal(rd_parse_size_bytes(TOK("1.5GB"), RD_SIZE_BINARY, &b), RD_OK);
    assert_float_equal(b, 1610612736, 1e-3);
    assert_int_equal(rd_parse_size_bytes(TOK("1mB"), RD_SIZE_BINARY, &b), RD_ERR_PARSE);
    assert_int_equal(rd_parse_size_bytes(TOK("12"), RD_SIZE_BINARY, &b), RD_ERR_PARSE);
    assert_int_equal(rd_parse_size_bytes(TOK("12XB"), RD_SIZE_BINARY, &b), RD_ERR_PARSE);
}

static void counts_and_numbers(void **state)
{
    double v;
    unsigned long long u;
    assert_int_equal(rd_parse_count(TOK("1.23k"), &v), RD_OK);
    assert_float_equal(v, 1230, 1e-9);
    assert_int_equal(rd_parse_count(TOK("4.5M"), &v), RD_OK);
    assert_float_equal(v, 4.5e6, 1e-6);
    assert_int_equal(rd_parse_count(TOK("12G"), &v), RD_OK);
    assert_float_equal(v, 12e9, 1e-3);
    assert_int_equal(rd_parse_count(TOK("77"), &v), RD_OK);
    assert_float_equal(v, 77, 0);
    assert_int_equal(rd_parse_count(TOK("77x"), &v), RD_ERR_PARSE);
    assert_int_equal(rd_parse_count(TOK("-nan"), &v), RD_OK);
    assert_true(isnan(v));

    assert_int_equal(rd_parse_double(TOK("1.1670304331027067e+06"), &v), RD_OK);
    assert_float_equal(v, 1167030.4331027067, 1e-9);
    assert_int_equal(rd_parse_double(TOK("-3.5"), &v), RD_OK);
    assert_float_equal(v, -3.5, 0);
    assert_int_equal(rd_parse_double(TOK("NaN"), &v), RD_OK);
    assert_true(isnan(v));
    /* strtod would take these; we do not. */
    assert_int_equal(rd_parse_double(TOK("inf"), &v), RD_ERR_PARSE);
    assert_int_equal(rd_parse_double(TOK("0x10"), &v), RD_ERR_PARSE);
    assert_int_equal(rd_parse_double(TOK("1e999"), &v), RD_ERR_PARSE);
    assert_int_equal(rd_parse_double(TOK("12abc"), &v), RD_ERR_PARSE);
    assert_int_equal(rd_parse_double(TOK("."), &v), RD_ERR_PARSE);
    assert_int_equal(rd_parse_double(TOK(""), &v), RD_ERR_PARSE);

    assert_int_equal(rd_parse_uint(TOK("18446744073709551615"), &u), RD_OK);
    assert_true(u == 18446744073709551615ULL);
    assert_int_equal(rd_parse_uint(TOK("18446744073709551616"), &u), RD_ERR_PARSE);
    assert_int_equal(rd_parse_uint(TOK("-1"), &u), RD_ERR_PARSE);

    assert_int_equal(rd_parse_percent(TOK("75.00%"), &v), RD_OK);
    assert_float_equal(v, 75, 0);
    assert_int_equal(rd_parse_percent(TOK("-nan%"), &v), RD_OK);
    assert_true(isnan(v));
    assert_int_equal(rd_parse_percent(TOK("75.00"), &v), RD_ERR_PARSE);
}

/* Powers of ten are applied in decimal: the result is the double nearest
 * the exact decimal value (compared with ==, not a tolerance). */
static void decimal_scaling_is_exact(void **state)
{
    double v;
    assert_int_equal(rd_parse_duration_ms(TOK("721.44us"), &v, 0), RD_OK);
    assert_true(v == 0.72144);
    assert_int_equal(rd_parse_duration_ms(TOK("1.02m"), &v, 0), RD_OK);
    assert_true(v == 61200.0);
    assert_int_equal(rd_parse_duration_ms(TOK("0.3s"), &v, 0), RD_OK);
    assert_true(v == 300.0);
    assert_int_equal(rd_parse_duration_ms(TOK("1.5e-3s"), &v, 0), RD_OK);
    assert_true(v == 1.5);
    assert_int_equal(rd_parse_count(TOK("8.05k"), &v), RD_OK);
    assert_true(v == 8050.0);
    assert_int_equal(rd_parse_size_bytes(TOK("3.14MB"), RD_SIZE_SI, &v), RD_OK);
    assert_true(v == 3140000.0);
}

static void nan_spellings(void **state)
{
    assert_true(rd_is_nan_spelling(TOK("nan")));
    assert_true(rd_is_nan_spelling(TOK("-nan")));
    assert_true(rd_is_nan_spelling(TOK("NaN")));
    assert_true(rd_is_nan_spelling(TOK("+NaN")));
    assert_false(rd_is_nan_spelling(TOK("nana")));
    assert_false(rd_is_nan_spelling(TOK("null")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(durations),
        cmocka_unit_test(sizes),
        cmocka_unit_test(counts_and_numbers),
        cmocka_unit_test(nan_spellings),
        cmocka_unit_test(decimal_scaling_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
