// links: rd_core PkgConfig::GSL
/*
 * The strtod override (core/src/strtod.cc) against glibc's strtod: the
 * value's bits, the end pointer and errno must be the same for every input.
 *
 * The reference is glibc's own parser reached by a name the override does
 * not define: strtod_l with a locale object ("C", or the ',' locale of the
 * locale test), which reads the same digits with the same rounding as
 * glibc's strtod. That the override is what every object of the process
 * binds strtod to is checked apart (override_is_in_effect), so that these
 * tests cannot pass by comparing glibc with itself.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fenv.h>
#include <float.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#ifdef RD_FAST_STRTOD
#include <gsl/gsl_rng.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RD_LSAN 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define RD_LSAN 1
#endif
#ifdef RD_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#include "rundown/strtod.h"

static locale_t c_locale;

/* What one strtod call reports. errno starts at a value no call sets, so
 * "left alone" is compared too. */
struct answer {
    double v;
    ptrdiff_t end;
    int err;
};

static struct answer ours(const char *s)
{
    char *e = NULL;
    errno = 4242;
    double v = strtod(s, &e);
    return (struct answer){v, e - s, errno};
}

static struct answer reference(const char *s, locale_t loc)
{
    char *e = NULL;
    errno = 4242;
    double v = strtod_l(s, &e, loc);
    return (struct answer){v, e - s, errno};
}

/* 1 when ours and glibc's answers agree bit for bit; else prints both. */
static int agrees(const char *s, locale_t loc)
{
    struct answer a = ours(s), b = reference(s, loc);
    if (memcmp(&a.v, &b.v, sizeof a.v) == 0 && a.end == b.end && a.err == b.err)
        return 1;
    print_error("strtod(\"%.60s\"): ours %.17g end %td errno %d, glibc %.17g end %td errno %d\n",
                s, a.v, a.end, a.err, b.v, b.end, b.err);
    return 0;
}

static const char *const edges[] = {
    "0", "-0", "0.0e5", "0e5", "0.000", "-0.000e-999", "00.5", "01", "-01.50",
    "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.8e308",
    "-1.8e308", "4.9e-324", "2.4703282292062328e-324", "1e-320",
    "2.2250738585072011e-308", "2.2250738585072012e-308",
    "2.2250738585072014e-308", "-2.2250738585072014e-308",
    /* Between DBL_MIN - 2^-1075 and DBL_MIN - 2^-1076 (Python's
     * Decimal(2)**-1022 - 3 * Decimal(2)**-1077 at 60 digits): rounds to
     * DBL_MIN, which glibc reports as an underflow (ERANGE). */
    "2.225073858507201197815615526865e-308",
    "1e-400", "-1e-400", "1e400", "9007199254740993", "9007199254740992.5",
    "9007199254740993.0000000000000000000000001", "0.1", "-0.1", "3.14159",
    "1.000000000000000111022302462515654042363166809082031250001",
    "1.000000000000000111022302462515654042363166809082031250000",
    "12345678901234567890", "1234567890123456789012345",
    "1.", "1.e5", "1e", "1e+", "1e-", "1E5", "1e+5", "1e-5", "1e05",
    "1.5.3", "1..5", "1e5e3", "1e5.3", "1-2", "1+2", "-1-", "--1", "-+1",
    "1e99999999999999999999", "1e-99999999999999999999", "0e99999999999999999999",
    "+1", " 1", "\t1", ".5", "-.5", "0x10", "-0x10", "0X1p4", "0x", "inf", "-inf",
    "nan", "NaN(123)", "infinity", "-", "", "1,5", "e5", "-e5", "1\xc2\xa0", "5 6",
    "123abc", "1.5]", "1.5,", "0.30000000000000004", "1e23", "8.5e-1",
};

static void edge_list_agrees(void **state)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        bad += !agrees(edges[i], c_locale);
    /* Long mantissas: 20 digits, and 800 (past fast_float's 769-digit
     * window; the digits after it decide only a tie). */
    char buf[1024];
    for (size_t n = 20; n <= 800; n += 780) {
        for (int lead = 0; lead < 3; lead++) {
            size_t k = 0;
            if (lead == 1)
                buf[k++] = '-';
            if (lead == 2) {
                memcpy(buf + k, "0.", 2);
                k += 2;
            }
            for (size_t i = 0; i < n; i++)
                buf[k++] = (char)('0' + (i * 7 + 3) % 10);
            buf[k] = '\0';
            bad += !agrees(buf, c_locale);
            /* A tie decided by the last digit: 2^53 + 1 with zeros, then 1. */
            k = (size_t)snprintf(buf, sizeof buf, "9007199254740993.");
            for (size_t i = 0; i < n; i++)
                buf[k++] = i + 1 == n ? '1' : '0';
            buf[k] = '\0';
            bad += !agrees(buf, c_locale);
            buf[k - 1] = '0';
            bad += !agrees(buf, c_locale);
        }
    }
    assert_int_equal(bad, 0);
}

/* The fast path takes the stores' numbers and leaves glibc the rest:
 * a build where it never answered would pass every comparison and gain
 * nothing. */
static void fast_path_takes_only_plain_decimals(void **state)
{
    static const char *const fast[] = {
        "1.5", "123", "-0", "0.000", "0e5", "1e5", "4.5e-300", "1.7976931348623157e308",
        "1.", "1e", "1.5.3", "00.5", "2.2250738585072017e-308",
    };
    static const char *const slow[] = {
        " 1", "+1", ".5", "-.5", "0x10", "-0X1", "inf", "nan", "-", "", "1e-400",
        "1e400", "4.9e-324", "2.2250738585072014e-308", "1e-310", "0.0001e-320",
    };
    double v;
    char *e;
    for (size_t i = 0; i < sizeof fast / sizeof fast[0]; i++)
        if (!rd_strtod_fast(fast[i], &e, &v))
            fail_msg("\"%s\" should take the fast path", fast[i]);
    for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++)
        if (rd_strtod_fast(slow[i], &e, &v))
            fail_msg("\"%s\" should be glibc's", slow[i]);
}

/* The shapes stores hold: 1 to 25 significant digits, values from 1e-320
 * to 1e309, fixed or with an exponent; and doubles printed by %.17g and
 * %.15g (what JSON writers emit). */
static void random_number(gsl_rng *r, char *buf, size_t cap)
{
    size_t k = 0;
    if (gsl_rng_uniform_int(r, 8) == 0)
        buf[k++] = '-';
    unsigned long shape = gsl_rng_uniform_int(r, 5);
    if (shape >= 3) {
        union {
            unsigned long long u;
            double d;
        } bits;
        do {
            bits.u = ((unsigned long long)gsl_rng_get(r) << 32) ^ gsl_rng_get(r);
        } while (!isfinite(bits.d));
        snprintf(buf + k, cap - k, shape == 3 ? "%.17g" : "%.15g", fabs(bits.d));
        return;
    }
    int n = 1 + (int)gsl_rng_uniform_int(r, 25);
    int e10 = -320 + (int)gsl_rng_uniform_int(r, 630); /* exponent of the first digit */
    char digits[32];
    digits[0] = (char)('1' + gsl_rng_uniform_int(r, 9));
    for (int i = 1; i < n; i++)
        digits[i] = (char)('0' + gsl_rng_uniform_int(r, 10));
    if (shape == 0 || e10 < -30 || e10 > 30) {
        /* d.ddd e E, with the point anywhere in the digits */
        int point = (int)gsl_rng_uniform_int(r, (unsigned long)n) + 1;
        memcpy(buf + k, digits, (size_t)point);
        k += (size_t)point;
        if (point < n || gsl_rng_uniform_int(r, 4) == 0) {
            buf[k++] = '.';
            memcpy(buf + k, digits + point, (size_t)(n - point));
            k += (size_t)(n - point);
        }
        int shown = e10 - (point - 1);
        switch (gsl_rng_uniform_int(r, 4)) {
        case 0: snprintf(buf + k, cap - k, "e%d", shown); break;
        case 1: snprintf(buf + k, cap - k, "E%d", shown); break;
        case 2: snprintf(buf + k, cap - k, "e%+d", shown); break;
        default: snprintf(buf + k, cap - k, "e%03d", shown); break;
        }
        return;
    }
    if (e10 >= 0) {
        for (int i = 0; i <= e10 || i < n; i++) {
            if (i == e10 + 1)
                buf[k++] = '.';
            buf[k++] = i < n ? digits[i] : '0';
        }
    } else {
        buf[k++] = '0';
        buf[k++] = '.';
        for (int i = 0; i < -e10 - 1; i++)
            buf[k++] = '0';
        memcpy(buf + k, digits, (size_t)n);
        k += (size_t)n;
    }
    buf[k] = '\0';
}

static void a_million_random_numbers_agree(void **state)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20261204);
    char buf[128];
    long bad = 0, fast = 0;
    const long n = 1000000;
    for (long i = 0; i < n; i++) {
        random_number(r, buf, sizeof buf);
        if (!agrees(buf, c_locale) && ++bad >= 10)
            break;
        double v;
        char *e;
        fast += rd_strtod_fast(buf, &e, &v);
    }
    gsl_rng_free(r);
    assert_int_equal(bad, 0);
    /* Subnormals, overflows and doubles printed near 0 are glibc's; the
     * rest (more than half, by the shapes above) fast_float's. */
    if (fast < n / 2)
        fail_msg("the fast path took %ld of %ld", fast, n);
}

/* Another rounding mode is glibc's: fast_float rounds to nearest only. */
static void upward_rounding_is_glibcs(void **state)
{
    assert_int_equal(fesetround(FE_UPWARD), 0);
    int bad = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        bad += !agrees(edges[i], c_locale);
    /* The nearest double to 0.3 is below it: rounding up gives the next
     * one, so the mode mattered. */
    double up = strtod("0.3", NULL);
    fesetround(FE_TONEAREST);
    assert_true(up > 0.3);
    assert_int_equal(bad, 0);
}

/* Never a strlen: a number whose run ends right before an unreadable
 * page is read without touching it. */
static void reads_no_further_than_the_number(void **state)
{
    long page = sysconf(_SC_PAGESIZE);
    char *m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    assert_int_equal(mprotect(m + page, (size_t)page, PROT_NONE), 0);
    char *s = m + page - 4;
    memcpy(s, "1.5]", 4); /* no terminator: the next byte is unreadable */
    char *e;
    assert_true(strtod(s, &e) == 1.5);
    assert_ptr_equal(e, s + 3);
    munmap(m, (size_t)page * 2);
}

/* A ',' radix: glibc reads "1.5" as 1 and "1,5" as 1.5, in the thread's
 * locale. A ',' locale is taken from the system, or built with localedef
 * from glibc's sources (Debian's locales data) into a temporary folder. */
static locale_t comma_locale(char *dir, size_t cap)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                                        "fr_FR.utf8", "nl_NL.UTF-8", "ru_RU.UTF-8"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        locale_t l = newlocale(LC_ALL_MASK, names[i], (locale_t)0);
        if (l && strcmp(nl_langinfo_l(RADIXCHAR, l), ",") == 0)
            return l;
        if (l)
            freelocale(l);
    }
    if (access("/usr/share/i18n/locales/de_DE", R_OK) != 0)
        return (locale_t)0;
    snprintf(dir, cap, "/tmp/rd-strtod-locale.XXXXXX");
    if (!mkdtemp(dir))
        return (locale_t)0;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
    /* localedef exits 1 on warnings with the locale written: newlocale says. */
    if (system(cmd) == -1)
        return (locale_t)0;
    setenv("LOCPATH", dir, 1);
    /* glibc 2.36's newlocale keeps the LOCPATH list it splits (45 bytes
     * here): its leak, not ours, kept out of LeakSanitizer's report. */
#ifdef RD_LSAN
    __lsan_disable();
#endif
    locale_t l = newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
#ifdef RD_LSAN
    __lsan_enable();
#endif
    unsetenv("LOCPATH");
    if (l && strcmp(nl_langinfo_l(RADIXCHAR, l), ",") != 0) {
        freelocale(l);
        l = (locale_t)0;
    }
    return l;
}

static void comma_locale_is_glibcs(void **state)
{
    char dir[64] = "";
    locale_t comma = comma_locale(dir, sizeof dir);
    if (!comma) {
        print_message("no ',' radix locale (none installed, no localedef or locales data): "
                      "the ',' locale part is skipped\n");
        skip();
    }
    locale_t old = uselocale(comma);
    int bad = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        bad += !agrees(edges[i], comma);
    char *e;
    double v = strtod("1.5", &e);
    double w = strtod("1,5", NULL);
    uselocale(old);
    freelocale(comma);
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            print_message("could not remove %s\n", dir);
    }
    assert_int_equal(bad, 0);
    assert_true(v == 1.0);
    assert_string_equal(e, ".5");
    assert_true(w == 1.5);
}

/* The executable's strtod is the one the process binds: the global lookup
 * (what libcjson.so's call resolves to) finds it, and glibc's is another
 * function behind it. */
static void override_is_in_effect(void **state)
{
    void *global = dlsym(RTLD_DEFAULT, "strtod");
    void *next = dlsym(RTLD_NEXT, "strtod");
    double (*self)(const char *, char **) = strtod;
    assert_non_null(global);
    assert_non_null(next);
    assert_ptr_equal(global, (void *)self);
    assert_ptr_not_equal(global, next);
    Dl_info info;
    assert_true(dladdr(next, &info) != 0);
    assert_non_null(strstr(info.dli_fname, "libc.so"));
}

static int setup(void **state)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    return c_locale ? 0 : -1;
}

static int teardown(void **state)
{
    freelocale(c_locale);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(override_is_in_effect),
        cmocka_unit_test(edge_list_agrees),
        cmocka_unit_test(fast_path_takes_only_plain_decimals),
        cmocka_unit_test(a_million_random_numbers_agree),
        cmocka_unit_test(upward_rounding_is_glibcs),
        cmocka_unit_test(reads_no_further_than_the_number),
        cmocka_unit_test(comma_locale_is_glibcs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

#else

/* Built without the override (RD_FAST_STRTOD off, or no fast_float): the
 * process uses glibc's strtod and there is nothing to compare. */
static void override_not_built(void **state)
{
    print_message("RD_FAST_STRTOD is off in this build: no strtod override to test\n");
    skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(override_not_built)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
