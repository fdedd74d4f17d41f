// strtod.cc - strtod for the whole process: fast_float's where it gives
// glibc's answer, glibc's own everywhere else.
//
// Why: cJSON (libcjson.so) parses every JSON number with strtod, and glibc's
// strtod (str_to_mpn, round_and_return, __mpn_*) was 14.5 % of all the
// instructions of rundown-analyze on the first 200,000 lines of a
// 1M-record store (callgrind: 673 M of 4,629 M). cJSON has no hook for
// numbers, so the way in is ELF symbol interposition: an executable that
// defines strtod is what the dynamic linker binds every other object's
// strtod to, libcjson.so's included -- the mechanism glibc documents for
// replacing malloc. C11 7.1.3 reserves the name strtod (defining it is
// undefined behaviour in ISO C): this relies on glibc and ELF
// interposition, which tests/unit/test_strtod.c checks is in effect.
//
// Why the answers are the same: fast_float (Debian libfast-float-dev; a
// header-only library, hence this file's C++) is correctly rounded, round
// to nearest with ties to even, as glibc's strtod is in that mode, so the
// double is the same bit for bit. The fast path takes only the inputs where
// everything else strtod reports is also the same (end pointer, errno):
// a plain decimal (a digit first, or '-' then a digit: no white space, '+',
// '.', hex, inf or nan), the radix "." (a ',' locale reads "1.5" as 1),
// rounding to nearest, and a normal result above DBL_MIN or an exact zero
// (underflow, overflow and DBL_MIN itself, where glibc may set ERANGE on
// tininess, stay glibc's). The input is never read past the run of
// [0-9.eE+-] that starts it: a caller may pass a pointer into a buffer
// without a near terminator, so there is no strlen. errno is untouched on
// the fast path, as glibc leaves it on success.
//
// Compiled with -fno-exceptions -fno-rtti and linked as C: nothing of
// libstdc++ is needed at run time (fast_float neither throws nor allocates).

#include <dlfcn.h>
#include <fenv.h>
#include <float.h>
#include <langinfo.h>
#include <math.h>
#include <stdlib.h>

#include <fast_float/fast_float.h>

#include "rundown/strtod.h"

typedef double (*strtod_fn)(const char *, char **);

static strtod_fn glibc_strtod_fn;

// glibc's strtod, the next definition after the executable's own. Threads
// that race here store the same pointer.
static strtod_fn glibc_strtod(void)
{
    strtod_fn f = __atomic_load_n(&glibc_strtod_fn, __ATOMIC_ACQUIRE);
    if (f == nullptr) {
        f = reinterpret_cast<strtod_fn>(dlsym(RTLD_NEXT, "strtod"));
        // Only a program without libc's dynamic strtod (a static link,
        // which this build never makes) gets here.
        if (f == nullptr)
            abort();
        __atomic_store_n(&glibc_strtod_fn, f, __ATOMIC_RELEASE);
    }
    return f;
}

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

static inline bool in_number(char c)
{
    return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

int rd_strtod_fast(const char *s, char **end, double *out)
{
    const char *p = s + (s[0] == '-');
    if (!is_digit(p[0]))
        return 0;
    // "0x1p4" is glibc's hex float; fast_float would stop after the 0.
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return 0;
    // The thread's locale (uselocale) as strtod reads it.
    const char *radix = nl_langinfo(RADIXCHAR);
    if (radix[0] != '.' || radix[1] != '\0')
        return 0;
    if (fegetround() != FE_TONEAREST)
        return 0;
    const char *bound = p;
    while (in_number(*bound))
        bound++;
    double v;
    fast_float::from_chars_result r = fast_float::from_chars(s, bound, v);
    if (r.ec != std::errc())
        return 0;
    double a = fabs(v);
    if (!(a > DBL_MIN && a <= DBL_MAX)) {
        if (v != 0)
            return 0;
        // A zero is exact only without a non-zero digit before the exponent;
        // "1e-400" is an underflow, glibc's ERANGE.
        for (const char *q = p; q < r.ptr && *q != 'e' && *q != 'E'; q++)
            if (*q >= '1' && *q <= '9')
                return 0;
    }
    *out = v;
    if (end != nullptr)
        *end = const_cast<char *>(r.ptr);
    return 1;
}

double strtod(const char *__restrict s, char **__restrict end) noexcept
{
    double v;
    if (rd_strtod_fast(s, end, &v))
        return v;
    return glibc_strtod()(s, end);
}
