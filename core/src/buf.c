/*
 * buf - a growable, NUL-terminated byte buffer with a size cap.
 *
 * Depends on nothing but libc.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/buf.h"

const char rd_buf_empty[1] = "";

void rd_buf_init(struct rd_buf *b, size_t max)
{
    b->ptr = (char *)rd_buf_empty;
    b->len = b->cap = 0;
    b->max = max;
}

void rd_buf_release(struct rd_buf *b)
{
    if (b->cap)
        free(b->ptr);
    rd_buf_init(b, b->max);
}

void rd_buf_reset(struct rd_buf *b)
{
    b->len = 0;
    if (b->cap)
        b->ptr[0] = '\0';
}

rd_status rd_buf_grow(struct rd_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1)
        return RD_ERR_NOMEM;
    size_t need = b->len + extra + 1;
    if (b->max && need - 1 > b->max)
        return RD_ERR_NOMEM;
    if (need <= b->cap)
        return RD_OK;
    /* Oversize by 50 % so that appending is amortised linear. */
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 3 * 2 ? need : cap + cap / 2;
    char *p = realloc(b->cap ? b->ptr : NULL, cap);
    if (!p)
        return RD_ERR_NOMEM;
    if (!b->cap)
        p[0] = '\0';
    b->ptr = p;
    b->cap = cap;
    return RD_OK;
}

rd_status rd_buf_add(struct rd_buf *b, const void *data, size_t len)
{
    if (!len)
        return RD_OK;
    rd_status s = rd_buf_grow(b, len);
    if (s)
        return s;
    memcpy(b->ptr + b->len, data, len);
    b->len += len;
    b->ptr[b->len] = '\0';
    return RD_OK;
}

rd_status rd_buf_addstr(struct rd_buf *b, const char *s)
{
    return rd_buf_add(b, s, strlen(s));
}

rd_status rd_buf_addch(struct rd_buf *b, char c)
{
    return rd_buf_add(b, &c, 1);
}

rd_status rd_buf_vaddf(struct rd_buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, copy);
    va_end(copy);
    if (n < 0)
        return RD_ERR_IO;
    if ((size_t)n < sizeof small)
        return rd_buf_add(b, small, (size_t)n);
    rd_status s = rd_buf_grow(b, (size_t)n);
    if (s)
        return s;
    vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return RD_OK;
}

rd_status rd_buf_addf(struct rd_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rd_status s = rd_buf_vaddf(b, fmt, ap);
    va_end(ap);
    return s;
}

rd_status rd_buf_add_json_string(struct rd_buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    /* ASCII with nothing to escape, nearly every string rundown writes
     * (names, labels, ids, words): one growth and one copy, where the
     * loop below takes three appends, each with its own growth check. */
    const unsigned char *p = (const unsigned char *)s;
    while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
        p++;
    if (!*p) {
        size_t n = (size_t)(p - (const unsigned char *)s);
        RD_TRY(rd_buf_grow(b, n + 2));
        char *o = b->ptr + b->len;
        o[0] = '"';
        memcpy(o + 1, s, n);
        o[n + 1] = '"';
        o[n + 2] = '\0';
        b->len += n + 2;
        return RD_OK;
    }
    rd_status st = rd_buf_addch(b, '"');
    p = (const unsigned char *)s;
    while (!st && *p) {
        const unsigned char *run = p;
        while (*p >= 0x20 && *p != '"' && *p != '\\') {
            if (*p >= 0x80) {
                /* Strings from input may hold any bytes; JSON is UTF-8
                 * (RFC 8259), so an invalid sequence becomes U+FFFD rather
                 * than making every later reader choke on the file. 4 is
                 * safe: a NUL fails the continuation-byte test before
                 * anything past it is read. */
                size_t n = rd_utf8_valid_len(p, 4);
                if (n == 0)
                    break;
                p += n;
            } else {
                p++;
            }
        }
        st = rd_buf_add(b, run, (size_t)(p - run));
        if (st || !*p)
            break;
        if (*p >= 0x80) {
            st = rd_buf_addstr(b, "\xef\xbf\xbd"); /* U+FFFD */
            p++;
            continue;
        }
        char esc[7] = {'\\', 0};
        size_t n = 2;
        switch (*p) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\t': esc[1] = 't'; break;
        case '\r': esc[1] = 'r'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[*p >> 4];
            esc[5] = hex[*p & 15];
            n = 6;
        }
        st = rd_buf_add(b, esc, n);
        p++;
    }
    return st ? st : rd_buf_addch(b, '"');
}

/* "00" "01" ... "99": two digits a lookup. */
static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes the decimal digits of u (u < 10^16) at o; returns their count.
 * Two digits a step, into place from the end: no copy. */
static size_t put_uint(char *o, uint64_t u)
{
    size_t nd = 1;
    for (uint64_t t = u; t >= 10; t /= 10)
        nd++;
    char *q = o + nd;
    while (u >= 100) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * (u % 100), 2);
        u /= 100;
    }
    if (u >= 10)
        memcpy(q - 2, digit_pairs + 2 * u, 2);
    else
        q[-1] = (char)('0' + u);
    return nd;
}

/* Fast path of rd_fmt_double: a value that is the correctly rounded double of
 * a decimal m / 10^k with at most 15 significant digits, in %g's fixed-notation
 * range [1e-4, 1e15), prints as that decimal -- which is exactly what
 * "%.15g" prints (DBL_DIG = 15 round trip), and "%.15g" is what the slow path
 * picks first since it reads back exactly. Returns the length written, 0
 * when v is not such a decimal (then *lg is floor(log10(|v|)) for digits17,
 * or INT_MIN when not worked out). */
static size_t fmt_short(double v, char out[32], int *lg)
{
    static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
                                 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
    static const uint64_t p10u[] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull,
                                    1000000ull, 10000000ull, 100000000ull, 1000000000ull,
                                    10000000000ull, 100000000000ull, 1000000000000ull,
                                    10000000000000ull, 100000000000000ull,
                                    1000000000000000ull, 10000000000000000ull,
                                    100000000000000000ull, 1000000000000000000ull};
    /* 10^-4 ... 10^15: the powers of ten of this path's range */
    static const double bound[] = {1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4, 1e5,
                                   1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    double a = fabs(v);
    if (!(a >= 1e-4 && a < 1e15))
        return 0;
    /* floor(log10(a)) from the binary exponent, without log10 (a fifth
     * of the formatting of a store of 10^6 runs, whose 4 * 10^6 values
     * analyze prints): a is in [2^e, 2^(e+1)) with -14 <= e <= 49 here,
     * l = floor(e log10 2) is floor(e 78913 / 2^18) (exact for |e| <
     * 1100, checked), 10^l <= a < 10^(l+2), and one comparison with
     * 10^(l+1) settles it. Right next to a power of ten libm's log10
     * rounds up to it and this does not: fmt_short's k is then one
     * larger (the loop below brings it back, or the decimal is not
     * there either way) and digits17 starts from the right exponent
     * instead of correcting it; the digits are the same (the unit test
     * checks the neighbours of every power of ten). */
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int e = (int)(bits >> 52) - 1023;
    int t = e * 78913;
    int l = t >= 0 ? t >> 18 : -((-t + (1 << 18) - 1) >> 18);
    *lg = l + (a >= bound[l + 5]);
    int k = 14 - *lg;
    if (k > 18)
        k = 18;
    while (k > 0 && a * p10[k] >= 1e15)
        k--;
    double s = a * p10[k];
    if (s >= 1e15)
        return 0;
    /* nearbyint(s), s in [0, 2^50): adding 2^52 leaves no bits below the
     * point, rounded as nearbyint rounds (the current mode); the libm call
     * was a tenth of this path. */
    double m = (s + 4503599627370496.0) - 4503599627370496.0;
    if (m / p10[k] != a)
        return 0;
    uint64_t im = (uint64_t)m, ip = p10u[k];
    /* The integer part of m / 10^k is that of a (integers below 2^53 are
     * doubles, so rounding the decimal to a crosses none): the division
     * by a variable 10^k only where that would not hold. */
    uint64_t whole = (uint64_t)a, frac;
    if (whole * ip <= im && im - whole * ip < ip) {
        frac = im - whole * ip;
    } else {
        whole = im / ip;
        frac = im % ip;
    }
    char *o = out;
    if (v < 0)
        *o++ = '-';
    o += put_uint(o, whole);
    if (k > 0 && frac) {
        /* frac < 10^k <= 10^18 is not 0: at most 17 trailing zeros. A
         * value read from a store (40.759 is 7590000000000 / 10^13 past
         * its point here) has most of them: dropped by whole powers of
         * ten before it is printed. */
        int len = k;
        static const struct { uint64_t p; int digits; } zeros[] = {
            {100000000, 8}, {10000, 4}, {100, 2}, {10, 1}};
        while (frac % zeros[0].p == 0) {
            frac /= zeros[0].p;
            len -= zeros[0].digits;
        }
        for (size_t i = 1; i < sizeof zeros / sizeof zeros[0]; i++)
            if (frac % zeros[i].p == 0) {
                frac /= zeros[i].p;
                len -= zeros[i].digits;
            }
        *o++ = '.';
        char *q = o + len;
        o = q;
        for (; len >= 2; len -= 2) {
            q -= 2;
            memcpy(q, digit_pairs + 2 * (frac % 100), 2);
            frac /= 100;
        }
        if (len)
            *--q = (char)('0' + frac);
    }
    *o = '\0';
    return (size_t)(o - out);
}

/* Writes the p significant digits d (with the decimal exponent x of the
 * first) as "%.<p>g" does: fixed notation when -4 <= x < p, else d.ddde±XX,
 * trailing zeros of the fraction removed. Returns the length. */
static size_t fmt_g(bool neg, const char *d, int p, int x, char out[32])
{
    char *o = out;
    int n = p;
    while (n > 1 && d[n - 1] == '0')
        n--;
    if (neg)
        *o++ = '-';
    if (x >= -4 && x < p) {
        if (x < 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -x - 1; i++)
                *o++ = '0';
            memcpy(o, d, (size_t)n);
            o += n;
        } else {
            memcpy(o, d, (size_t)x + 1); /* x < p: the digits before the point */
            o += x + 1;
            if (n > x + 1) {
                *o++ = '.';
                memcpy(o, d + x + 1, (size_t)(n - x - 1));
                o += n - x - 1;
            }
        }
        *o = '\0';
        return (size_t)(o - out);
    }
    *o++ = d[0];
    if (n > 1) {
        *o++ = '.';
        memcpy(o, d + 1, (size_t)n - 1);
        o += n - 1;
    }
    int ax = x < 0 ? -x : x; /* |x| <= 324 */
    *o++ = 'e';
    *o++ = x < 0 ? '-' : '+';
    if (ax >= 100)
        *o++ = (char)('0' + ax / 100);
    *o++ = (char)('0' + ax / 10 % 10);
    *o++ = (char)('0' + ax % 10);
    *o = '\0';
    return (size_t)(o - out);
}

/* d (17 digits, first exponent *x) rounded to p < 17 digits in r. A
 * tail of exactly 5, or 50, is the half-way point only as far as the 17
 * digits tell (they were themselves rounded): 'side' says where the exact
 * value lies against them (< 0 below, > 0 above, 0 not known or on them),
 * and with 0 the answer is false and the caller searches. Past that,
 * rounding the 17 digits rounds as the exact value would: a dropped 17th
 * digit below 5 means the exact rest was below 0.45 units of the last
 * kept digit, above 5 at least 0.55. */
static bool round_digits(const char *d, int p, int *x, char *r, int side)
{
    int tail = 0, half = 5;
    for (int i = p; i < 17; i++)
        tail = tail * 10 + (d[i] - '0');
    for (int i = p + 1; i < 17; i++)
        half *= 10;
    if (tail == half && side == 0)
        return false;
    memcpy(r, d, (size_t)p);
    if (tail > half || (tail == half && side > 0)) {
        int i = p - 1;
        while (i >= 0 && r[i] == '9')
            r[i--] = '0';
        if (i < 0) {
            r[0] = '1'; /* 9.99 -> 10.0: one more place before the point */
            (*x)++;
        } else {
            r[i]++;
        }
    }
    return true;
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

/* The 17 significant digits of a = |v| and the decimal exponent of the
 * first, as "%.16e" prints them (the exact binary value rounded once,
 * half to even), for a in [1e-6, 1e19): a = m 2^e with m < 2^53, and
 * a 10^p (p = 16 - x <= 22) is m 10^p / 2^-e or m 2^e / 10^-p, exact in
 * 128 bits. glibc's printf does the same with its multiple precision
 * numbers, the most of analyze's time for 10^5 configs. False outside
 * that range (the caller asks printf). */
/* What digits17 knew of a = m 2^e (e < 0) at the scale of its 17 digits
 * (a 10^p = n / 2^sh, n = q 2^sh + rem): enough to tell exactly whether
 * a shorter decimal reads back as a (round_trips). ok false: not known
 * (another case of digits17, or its rounding carried into an 18th
 * digit), strtod tells. */
struct exact17 {
    bool ok;
    u128 q, rem, p10p; /* q: n / 2^sh cut, not rounded; p10p: 10^p */
    int sh, x;         /* x: the first digit's exponent at this scale */
    bool m_even, m_pow2;
    bool up; /* the 17 digits are q + 1 */
};

static bool digits17(double a, char d[17], int *x10, struct exact17 *ex, int lg)
{
    static const uint64_t p10[] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull,
                                   1000000ull, 10000000ull, 100000000ull, 1000000000ull,
                                   10000000000ull, 100000000000ull, 1000000000000ull,
                                   10000000000000ull, 100000000000000ull,
                                   1000000000000000ull, 10000000000000000ull,
                                   100000000000000000ull, 1000000000000000000ull,
                                   10000000000000000000ull};
    /* all known false, also when a is out of range: round_trips asks strtod */
    *ex = (struct exact17){.ok = false};
    if (!(a >= 1e-6 && a < 1e19))
        return false;
    int be;
    double fr = frexp(a, &be);
    uint64_t m = (uint64_t)ldexp(fr, 53); /* exact: fr has 53 bits */
    int e = be - 53;
    /* floor(log10(a)), from fmt_short when it worked it out (INT_MIN when
     * not): one log10 a number, not two (log10 was 4 % of analyze's CPU) */
    int x = lg != INT_MIN ? lg : (int)floor(log10(a));
    for (int tries = 0; tries < 3; tries++) {
        int p = 16 - x;
        u128 q, r = 0, half = 0;
        bool tie_up = false, up = false;
        if (p >= 0) {
            if (p > 22)
                return false;
            u128 n = (u128)m * p10[p > 19 ? 19 : p];
            if (p > 19)
                n *= p10[p - 19];
            if (e >= 0) {
                q = n << e; /* a < 1e19 < 2^64: e <= 11, n 2^e < 2^128 */
            } else {
                int sh = -e; /* a >= 1e-6: sh <= 73 */
                q = n >> sh;
                r = n & (((u128)1 << sh) - 1);
                half = (u128)1 << (sh - 1);
                up = r > half;
                tie_up = r == half;
                *ex = (struct exact17){.ok = true, .q = q, .rem = r, .sh = sh, .x = x,
                                       .m_even = !(m & 1), .m_pow2 = m == 1ull << 52};
                ex->p10p = (u128)p10[p > 19 ? 19 : p];
                if (p > 19)
                    ex->p10p *= p10[p - 19];
            }
        } else {
            /* a >= 1e17 > 2^53: an integer, m 2^e < 2^64 */
            if (e < 0 || p < -19)
                return false;
            u128 n = (u128)m << e, div = p10[-p];
            q = n / div;
            r = n % div;
            up = 2 * r > div;
            tie_up = 2 * r == div;
        }
        if (q < p10[16]) {
            x--;
            ex->ok = false;
            continue;
        }
        if (q >= p10[17]) {
            x++;
            ex->ok = false;
            continue;
        }
        if (up || (tie_up && (q & 1))) {
            q++;
            ex->up = true;
        }
        if (q == p10[17]) {
            q = p10[16];
            x++;
            ex->ok = false;
        }
        uint64_t u = (uint64_t)q;
        for (int i = 16; i >= 0; i--, u /= 10)
            d[i] = (char)('0' + u % 10);
        *x10 = x;
        return true;
    }
    ex->ok = false;
    return false;
}

/* Whether the decimal of the p digits r (first digit's exponent xp),
 * written in text, reads back as v: exactly from ex, when it knows,
 * else by strtod. It reads back when it lies inside v's rounding
 * interval: half the gap to each neighbour (the gap below is half as
 * wide at a power of two), its ends included when v's significand is
 * even (strtod rounds ties to even). In units of 2^-sh at v's scale,
 * the distance is (Q - q) 2^sh - rem and half a gap 10^p / 2. */
static bool round_trips(const struct exact17 *ex, const char *r, int p, int xp, double v,
                        const char *text)
{
    if (!ex->ok || xp < ex->x || xp > ex->x + 1)
        return strtod(text, NULL) == v;
    u128 Q = 0;
    for (int i = 0; i < p; i++)
        Q = Q * 10 + (u128)(r[i] - '0');
    for (int i = p; i < 17 + (xp - ex->x); i++)
        Q *= 10;
    /* Q and q differ by a rounding to 15 or 16 digits (< 200), sh <= 73:
     * no overflow below. */
    bool above;
    u128 dist;
    if (Q >= ex->q) {
        u128 hi = (Q - ex->q) << ex->sh;
        above = hi >= ex->rem;
        dist = above ? hi - ex->rem : ex->rem - hi;
    } else {
        dist = ((ex->q - Q) << ex->sh) + ex->rem;
        above = false;
    }
    if (dist == 0)
        return true;
    u128 lim = above || !ex->m_pow2 ? 2 : 4;
    u128 scaled = dist * lim;
    return scaled < ex->p10p || (scaled == ex->p10p && ex->m_even);
}

/* Where the exact value lies against its 17 digits, for round_digits:
 * below when they were rounded up, above when cut with a remainder. A
 * tail of 5 after 16 digits came up for 1 value in 23 on a store of 10^5
 * configs, and each went to the search (printf and strtod): 6 % of
 * analyze's CPU there. An exact tie (no remainder) is left to it. */
static int exact_side(const struct exact17 *ex)
{
    if (!ex->ok)
        return 0;
    return ex->up ? -1 : ex->rem ? 1 : 0;
}
#else
struct exact17 {
    bool ok;
};

static bool digits17(double a, char d[17], int *x10, struct exact17 *ex, int lg)
{
    (void)a, (void)d, (void)x10, (void)lg;
    ex->ok = false;
    return false;
}

static bool round_trips(const struct exact17 *ex, const char *r, int p, int xp, double v,
                        const char *text)
{
    (void)ex, (void)r, (void)p, (void)xp;
    return strtod(text, NULL) == v;
}

static int exact_side(const struct exact17 *ex)
{
    (void)ex;
    return 0;
}
#endif

/* The shortest of 15, 16 and 17 digits as the search below finds it, from
 * 17 digits (digits17, or one "%.16e") instead of two or three "%g": false
 * when a rounding cannot be told from 17 digits, and the search is to be
 * done. Returns the length, 0 for false. */
static size_t fmt_digits(double v, char out[32], int lg)
{
    char d[17];
    bool neg = v < 0;
    int x17;
    struct exact17 ex;
    if (!digits17(fabs(v), d, &x17, &ex, lg)) {
        char e[40];
        snprintf(e, sizeof e, "%.16e", v);
        const char *p = e;
        if (neg)
            p++;
        d[0] = *p++;
        if (*p++ != '.')
            return 0;
        memcpy(d + 1, p, 16);
        p += 16;
        if (*p++ != 'e')
            return 0;
        x17 = atoi(p);
    }
    char r[17];
    int x16 = x17;
    int side = exact_side(&ex);
    if (!round_digits(d, 16, &x16, r, side))
        return 0;
    size_t n = fmt_g(neg, r, 16, x16, out);
    if (!round_trips(&ex, r, 16, x16, v, out))
        return fmt_g(neg, d, 17, x17, out);
    char r15[17], shorter[32];
    int x15 = x17;
    if (!round_digits(d, 15, &x15, r15, side))
        return 0;
    size_t n15 = fmt_g(neg, r15, 15, x15, shorter);
    if (round_trips(&ex, r15, 15, x15, v, shorter)) {
        memcpy(out, shorter, sizeof shorter);
        n = n15;
    }
    return n;
}

size_t rd_fmt_double_len(double v, char out[32])
{
    int lg = INT_MIN;
    size_t n = fmt_short(v, out, &lg);
    if (n)
        return n;
    if (isnan(v)) {
        strcpy(out, "nan");
        return 3;
    }
    if (isinf(v)) {
        strcpy(out, v > 0 ? "inf" : "-inf");
        return v > 0 ? 3 : 4;
    }
    if (v == 0) {
        strcpy(out, "0"); /* what the search gives for 0 and -0 */
        return 1;
    }
    n = fmt_digits(v, out, lg);
    if (n)
        return n;
    return strlen(rd_fmt_double_search(v, out));
}

char *rd_fmt_double(double v, char out[32])
{
    rd_fmt_double_len(v, out);
    return out;
}

char *rd_fmt_double_search(double v, char out[32])
{
    /* Shortest of 15, 16, 17 significant digits that reads back exactly:
     * 101.3 stays "101.3" instead of "101.30000000000001". Searched from
     * 16: the 15-digit decimals are among the 16-digit ones, so when the
     * nearest 16-digit one misses v the nearest 15-digit one misses too,
     * and 17 digits always read back (IEEE 754 binary64), so a value that
     * needs 17 costs two printfs and one strtod instead of three of each
     * (computed means and sds mostly do: a tenth of analyze's time). */
    snprintf(out, 32, "%.16g", v);
    if (strtod(out, NULL) == v) {
        char shorter[32];
        snprintf(shorter, sizeof shorter, "%.15g", v);
        if (strtod(shorter, NULL) == v)
            memcpy(out, shorter, sizeof shorter);
    } else {
        snprintf(out, 32, "%.17g", v);
    }
    if (strcmp(out, "-0") == 0)
        strcpy(out, "0");
    return out;
}

rd_status rd_buf_add_json_number(struct rd_buf *b, double v)
{
    if (!isfinite(v))
        return rd_buf_add(b, "null", 4);
    /* Formatted in place when there is room: analyze writes millions. A
     * capped buffer (rd_buf_init's max) near its cap may lack the 32
     * bytes and still have room for the number itself: the copy below. */
    if (rd_buf_grow(b, 32) == RD_OK) {
        b->len += rd_fmt_double_len(v, b->ptr + b->len);
        return RD_OK;
    }
    char tmp[32];
    return rd_buf_add(b, tmp, rd_fmt_double_len(v, tmp));
}

rd_status rd_buf_add_json_numbers(struct rd_buf *b, const double *v, size_t n, char sep)
{
    /* One capacity check a block of numbers: the formatter needs 32
     * bytes where it writes and leaves at most 24 (a sign, 17 digits,
     * the point and e-308), so 32 a number covers each one's separator
     * too. The "values" arrays are 4 * 10^6 numbers for a store of 10^6
     * runs. Blocks of 1,024 keep what is reserved and not used (about
     * three quarters) to 32 KiB however long the array. */
    enum { BLOCK = 1024 };
    size_t i = 0;
    while (i < n && rd_buf_grow(b, 32 * (n - i < BLOCK ? n - i : BLOCK)) == RD_OK) {
        size_t end = n - i < BLOCK ? n : i + BLOCK;
        char *o = b->ptr + b->len;
        for (; i < end; i++) {
            if (i)
                *o++ = sep;
            if (isfinite(v[i])) {
                o += rd_fmt_double_len(v[i], o);
            } else {
                memcpy(o, "null", 5);
                o += 4;
            }
        }
        b->len = (size_t)(o - b->ptr);
    }
    /* A capped buffer near its cap: a number at a time, up to the cap. */
    rd_status st = RD_OK;
    for (; i < n && !st; i++) {
        if (i)
            st = rd_buf_addch(b, sep);
        if (!st)
            st = rd_buf_add_json_number(b, v[i]);
    }
    return st;
}

void rd_buf_truncate(struct rd_buf *b, size_t len)
{
    if (len >= b->len)
        return;
    b->len = len;
    b->ptr[len] = '\0';
}

char *rd_buf_detach(struct rd_buf *b, size_t *len)
{
    char *p;
    if (b->cap) {
        p = b->ptr;
    } else {
        p = malloc(1);
        if (!p)
            return NULL;
        p[0] = '\0';
    }
    if (len)
        *len = b->len;
    b->ptr = (char *)rd_buf_empty;
    b->len = b->cap = 0;
    return p;
}

void rd_bw_str(struct rd_bw *w, const char *s)
{
    if (w->st == RD_OK)
        w->st = rd_buf_addstr(w->b, s);
}

void rd_bw_ch(struct rd_bw *w, char c)
{
    if (w->st == RD_OK)
        w->st = rd_buf_addch(w->b, c);
}

void rd_bw_f(struct rd_bw *w, const char *fmt, ...)
{
    if (w->st != RD_OK)
        return;
    va_list ap;
    va_start(ap, fmt);
    w->st = rd_buf_vaddf(w->b, fmt, ap);
    va_end(ap);
}
