/*
 * rd_fmt_double (core/src/buf.c) against its definition,
 * rd_fmt_double_search: the shortest of "%.15g", "%.16g", "%.17g" that
 * strtod reads back, by libc. The fast path rounds the 17 digits of one
 * "%.16e" itself; it must give the same bytes for every double, so the
 * values here are the kinds analyze writes (means, ratios, p-values, sds
 * of computed sums), random bit patterns, and decimals on the half-way
 * points where rounding 17 digits again could differ from rounding once.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rundown/buf.h"

/* xorshift64*: a fixed stream, no library needed for test inputs. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static void same(double v)
{
    char got[32], want[32];
    size_t n = rd_fmt_double_len(v, got);
    rd_fmt_double_search(v, want);
    if (strcmp(got, want) != 0)
        print_message("%a: got %s, want %s\n", v, got, want);
    assert_string_equal(got, want);
    assert_int_equal(n, strlen(got));
    assert_string_equal(rd_fmt_double(v, got), want);
}

static void same_as_the_search(void **state)
{
    (void)state;
    uint64_t s = 31;
    for (int i = 0; i < 100000; i++) {
        uint64_t bits = next(&s);
        double v;
        memcpy(&v, &bits, sizeof v);
        if (isfinite(v))
            same(v);
        /* Computed values of every magnitude: quotients and roots. */
        double a = (double)(next(&s) >> 11), b = (double)(next(&s) >> 40) + 1;
        int e = (int)(next(&s) % 80) - 40;
        same(ldexp(a / b, e));
        same(-sqrt(a) / b * pow(10, e / 4));
        /* Decimals of 16 and 17 digits, and their neighbours. */
        double dec = (double)(next(&s) % 100000000000000000ull) * pow(10, e / 2 - 16);
        same(dec);
        same(nextafter(dec, 0));
        same(nextafter(dec, INFINITY));
    }
    const double edge[] = { 0.1 + 0.2, 1e300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                            9.9999999999999995e22, 1e23, 0.30000000000000004, 123456789012345678.0,
                            9007199254740993.0, 1e-5, 9.999999999999999e-5, 1e15, 1e16, 1e17 };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        same(edge[i]);
        same(-edge[i]);
    }
}

/* The 17 digits worked out in 128-bit integers (digits17, for 1e-6 <=
 * |v| < 1e19), whether 15 or 16 of them read back (round_trips), and
 * short decimals (fmt_short) against printf's and strtod's: every
 * magnitude of that range, decimals of up to 15 digits, exact
 * ties at the 18th digit (m / 4 and m / 8 with m of 16 digits: the
 * binary value ends in 25, 75, 125, ... and rounds half to even), the
 * ends of the range, and the doubles next to powers of ten, where the
 * first digit's exponent is easiest to get wrong. */
static void same_in_the_integer_range(void **state)
{
    (void)state;
    uint64_t s = 7;
    for (int i = 0; i < 100000; i++) {
        int e = (int)(next(&s) % 26) - 6;
        double v = (double)(next(&s) >> 11) / 9007199254740992.0 * pow(10, e);
        same(v);
        same(nextafter(v, 0));
        uint64_t m = 1000000000000000ull + next(&s) % 8007199254740992ull;
        same((double)m / 4);
        same((double)m / 8);
        same((double)m / 1024);
        /* Decimals of 1 to 15 digits, as stores hold them: the short
         * path's (fmt_short) values. */
        uint64_t digits = next(&s) % 1000000000000000ull;
        for (uint64_t cut = next(&s) % 15; cut; cut--)
            digits /= 10;
        double dec = (double)digits / pow(10, (double)(next(&s) % 19));
        same(dec);
        same(-dec * 1000);
    }
    /* Powers of two, where the gap below is half the gap above (the
     * exact read-back test, round_trips, must know), and their
     * neighbours. */
    for (int b = -19; b <= 63; b++) {
        double p = ldexp(1, b);
        for (int i = 0; i < 4; i++) {
            same(p);
            same(nextafter(p, INFINITY));
            p = nextafter(p, 0);
        }
    }
    for (int x = -6; x <= 19; x++) {
        double p = pow(10, x);
        same(p);
        same(nextafter(p, 0));
        same(nextafter(p, INFINITY));
        same(nextafter(nextafter(p, 0), 0));
    }
    const double edge[] = { 9.9999999999999995e-7, 1e-6, 1.0000000000000002e-6, 9.999999999999998e18,
                            2251799813685247.75, 4503599627370495.5, 9007199254740991.0,
                            18014398509481982.0, 0.5, 1.5, 2.5, 1e16 + 2, 1e17 + 16, 0.0,
                            /* 17 digits ending in 5 (and 50), rounded up or cut from
                             * the exact value: round_digits asks exact_side */
                            2.6522479410477815, 34.558499999999995, 212330.51762500615,
                            0.033674509907144275, 2.6763333333333335, 1.2345678901234550 };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        same(edge[i]);
        same(-edge[i]);
        same(nextafter(edge[i], 0));
        same(nextafter(edge[i], INFINITY));
    }
}

/* The short path (fmt_short) works out the decimal exponent from the
 * binary one, and its integer part from the double itself: every power
 * of ten of its range [1e-4, 1e15) and the three doubles each side of
 * it, where that exponent changes; decimals of 1 to 15 digits at every
 * scale of the range with their neighbours; the ends of the range;
 * values just below an integer (the decimal's integer part); and what
 * the path leaves to the others (subnormals, zeros, the ends of
 * binary64). */
static void same_in_the_short_range(void **state)
{
    (void)state;
    for (int x = -6; x <= 17; x++) {
        double p = pow(10, x);
        double lo = p, hi = p;
        same(p);
        same(-p);
        for (int i = 0; i < 3; i++) {
            lo = nextafter(lo, 0);
            hi = nextafter(hi, INFINITY);
            same(lo);
            same(hi);
            same(-lo);
        }
        same(p * 9.5);
        same(p * 9.99);
        same(p * 9.99999999999999);
        same(p * 0.999999999999999);
    }
    uint64_t s = 99;
    for (int i = 0; i < 200000; i++) {
        uint64_t digits = next(&s) % 1000000000000000ull;
        for (uint64_t cut = next(&s) % 15; cut; cut--)
            digits /= 10;
        int scale = (int)(next(&s) % 20); /* 10^-19 ... 10^0 */
        double dec = (double)digits / pow(10, scale);
        same(dec);
        same(-dec);
        same(nextafter(dec, 0));
        same(nextafter(dec, INFINITY));
        /* a whole number less a little: the integer part must not round up */
        double w = (double)(next(&s) % 1000000000000000ull);
        same(w - 0.5);
        same(w - 1e-3);
        same(nextafter(w, 0));
        /* subnormals */
        double sub = ldexp((double)(next(&s) >> 12), -1074);
        same(sub);
        same(-sub);
    }
    const double edge[] = { 1e-4, 1.0000000000000001e-4, 9.9999999999999991e-5, 1e15,
                            999999999999999.0, 999999999999999.875, 99999999999999.99,
                            0.00010000000000000002, 0.001, 0.0009999999999999998,
                            5e-324, 1e-323, 2.2250738585072009e-308, 2.2250738585072014e-308,
                            -0.0, 0.0, 1.7976931348623157e308, 123456789012345.0,
                            12345678901234.5, 0.000123456789012345 };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        same(edge[i]);
        same(-edge[i]);
        same(nextafter(edge[i], 0));
        same(nextafter(edge[i], INFINITY));
    }
}

/* rd_buf_add_json_numbers writes what one rd_buf_add_json_number a
 * number with the separator between writes, NaN and infinities as null,
 * in one block of numbers or several (1,024 a block), and a buffer
 * capped short of the 32 bytes a number it reserves gets the numbers
 * that fit, then the error. */
static void numbers_as_one_at_a_time(void **state)
{
    (void)state;
    uint64_t s = 5;
    enum { N = 3000 };
    static double v[N];
    for (size_t i = 0; i < N; i++) {
        uint64_t bits = next(&s);
        memcpy(&v[i], &bits, sizeof bits);
        if (i % 3 == 0)
            v[i] = (double)(next(&s) % 100000) / 1000;
    }
    v[7] = NAN;
    v[8] = INFINITY;
    v[9] = -0.0;
    for (size_t n = 0; n <= N; n += n < 5 ? 1 : n < 300 ? 59 : 1023) {
        struct rd_buf one, all;
        rd_buf_init(&one, 0);
        rd_buf_init(&all, 0);
        assert_int_equal(rd_buf_addstr(&all, "["), RD_OK);
        assert_int_equal(rd_buf_addstr(&one, "["), RD_OK);
        assert_int_equal(rd_buf_add_json_numbers(&all, v, n, ','), RD_OK);
        for (size_t i = 0; i < n; i++) {
            if (i)
                assert_int_equal(rd_buf_addch(&one, ','), RD_OK);
            assert_int_equal(rd_buf_add_json_number(&one, v[i]), RD_OK);
        }
        assert_string_equal(all.ptr, one.ptr);
        assert_int_equal(all.len, one.len);
        assert_int_equal(strlen(all.ptr), all.len);
        /* capped: what fits of the same text, and the error */
        struct rd_buf capped;
        rd_buf_init(&capped, one.len > 40 ? one.len - 20 : one.len);
        rd_status st = rd_buf_addstr(&capped, "[");
        if (!st)
            st = rd_buf_add_json_numbers(&capped, v, n, ',');
        if (one.len > 40)
            assert_int_not_equal(st, RD_OK);
        else
            assert_int_equal(st, RD_OK);
        assert_true(capped.len <= one.len);
        assert_memory_equal(capped.ptr, one.ptr, capped.len);
        rd_buf_release(&capped);
        rd_buf_release(&one);
        rd_buf_release(&all);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_the_search),
        cmocka_unit_test(same_in_the_integer_range),
        cmocka_unit_test(same_in_the_short_range),
        cmocka_unit_test(numbers_as_one_at_a_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
