/*
 * units - numbers with units as load tools print them.
 *
 * Written by hand because no Debian-packaged library parses wrk's or
 * bombardier's unit spellings. strtod() alone is too lenient (it accepts
 * "inf", "0x1p3" and stops at garbage), so each token is checked against a
 * strict decimal grammar first and only then converted.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/units.h"

bool rd_is_nan_spelling(const char *s, size_t len)
{
    if (len && (s[0] == '-' || s[0] == '+')) {
        s++;
        len--;
    }
    return len == 3 && tolower((unsigned char)s[0]) == 'n' &&
           tolower((unsigned char)s[1]) == 'a' && tolower((unsigned char)s[2]) == 'n';
}

/* Length of the longest prefix of s that is a decimal number
 * ([+-]?digits[.digits]([eE][+-]?digits)?), or 0 when there is none. */
static size_t number_prefix(const char *s, size_t len)
{
    size_t i = 0, digits = 0;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
    while (i < len && isdigit((unsigned char)s[i]))
        i++, digits++;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && isdigit((unsigned char)s[i]))
            i++, digits++;
    }
    if (!digits)
        return 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < len && (s[j] == '+' || s[j] == '-'))
            j++;
        size_t exp_digits = 0;
        while (j < len && isdigit((unsigned char)s[j]))
            j++, exp_digits++;
        if (exp_digits)
            i = j;
    }
    return i;
}

/* Converts a validated decimal prefix; rejects overflow to infinity. */
static rd_status convert(const char *s, size_t len, double *out)
{
    char tmp[128];
    if (len == 0 || len >= sizeof tmp)
        return RD_ERR_PARSE;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    double v = strtod(tmp, NULL);
    if (isinf(v))
        return RD_ERR_PARSE;
    *out = v;
    return RD_OK;
}

/*
 * Converts a validated decimal prefix times 10^shift. The power of ten is
 * applied to the decimal exponent before strtod rounds once, so "721.44us"
 * is exactly the double nearest 0.72144 ms, not 721.44 * 0.001 rounded twice
 * (0.7214400000000001).
 */
static rd_status convert_shifted(const char *s, size_t len, int shift, double *out)
{
    if (shift == 0)
        return convert(s, len, out);
    size_t mant = 0;
    while (mant < len && s[mant] != 'e' && s[mant] != 'E')
        mant++;
    long exp = 0;
    if (mant < len) {
        char tmp[32];
        size_t elen = len - mant - 1;
        if (elen == 0 || elen >= sizeof tmp)
            return RD_ERR_PARSE;
        memcpy(tmp, s + mant + 1, elen);
        tmp[elen] = '\0';
        exp = strtol(tmp, NULL, 10);
        if (exp > 100000 || exp < -100000)
            return RD_ERR_PARSE;
    }
    char tmp[160];
    if (mant >= 120)
        return RD_ERR_PARSE;
    int n = snprintf(tmp, sizeof tmp, "%.*se%ld", (int)mant, s, exp + shift);
    return convert(tmp, (size_t)n, out);
}

/* Splits a token into a number (or NaN spelling) and its unit suffix. */
static rd_status split(const char *s, size_t len, double *value, const char **unit,
                       size_t *unit_len)
{
    size_t n = number_prefix(s, len);
    if (n) {
        if (convert(s, n, value))
            return RD_ERR_PARSE;
    } else {
        size_t sign = (len && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
        if (len < sign + 3 || !rd_is_nan_spelling(s, sign + 3))
            return RD_ERR_PARSE;
        n = sign + 3;
        *value = NAN;
    }
    *unit = s + n;
    *unit_len = len - n;
    return RD_OK;
}

/* The number of a token split by split(), times 10^shift times mult, with
 * the power of ten applied in decimal; NaN stays NaN. */
static rd_status scaled(const char *s, const char *unit, double nan_or_value, int shift,
                        double mult, double *out)
{
    double v = nan_or_value;
    if (!isnan(v) && convert_shifted(s, (size_t)(unit - s), shift, &v))
        return RD_ERR_PARSE;
    double r = v * mult;
    if (isinf(r))
        return RD_ERR_PARSE;
    *out = r;
    return RD_OK;
}

static bool unit_is(const char *u, size_t len, const char *want)
{
    return strlen(want) == len && memcmp(u, want, len) == 0;
}

rd_status rd_parse_double(const char *s, size_t len, double *out)
{
    if (rd_is_nan_spelling(s, len)) {
        *out = NAN;
        return RD_OK;
    }
    size_t n = number_prefix(s, len);
    if (!n || n != len)
        return RD_ERR_PARSE;
    return convert(s, n, out);
}

rd_status rd_parse_uint(const char *s, size_t len, unsigned long long *out)
{
    if (!len || len > 20)
        return RD_ERR_PARSE;
    unsigned long long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return RD_ERR_PARSE;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (~0ULL - d) / 10)
            return RD_ERR_PARSE;
        v = v * 10 + d;
    }
    *out = v;
    return RD_OK;
}

rd_status rd_parse_duration_ms(const char *s, size_t len, double *ms,
                               double default_unit_ms)
{
    double v;
    const char *u;
    size_t ulen;
    if (split(s, len, &v, &u, &ulen))
        return RD_ERR_PARSE;
    int shift = 0;
    double mult = 1;
    if (ulen == 0) {
        if (default_unit_ms <= 0)
            return RD_ERR_PARSE;
        mult = default_unit_ms;
    } else if (unit_is(u, ulen, "ns")) {
        shift = -6;
    } else if (unit_is(u, ulen, "us") || unit_is(u, ulen, "\xc2\xb5s") ||
               unit_is(u, ulen, "\xce\xbcs")) {
        shift = -3;
    } else if (unit_is(u, ulen, "ms")) {
        shift = 0;
    } else if (unit_is(u, ulen, "s")) {
        shift = 3;
    } else if (unit_is(u, ulen, "m")) {
        /* Minutes, as wrk and bombardier print them: never milliseconds.
         * 60 000 = 6 * 10^4, so the decimal part stays exact. */
        shift = 4;
        mult = 6;
    } else if (unit_is(u, ulen, "h")) {
        shift = 5;
        mult = 36;
    } else {
        return RD_ERR_PARSE;
    }
    return scaled(s, u, v, shift, mult, ms);
}

rd_status rd_parse_size_bytes(const char *s, size_t len, enum rd_size_base base,
                              double *bytes)
{
    double v;
    const char *u;
    size_t ulen;
    if (split(s, len, &v, &u, &ulen) || ulen == 0)
        return RD_ERR_PARSE;
    static const char prefixes[] = "KMGTPE";
    int shift = 0;
    double mult = 1;
    if (!unit_is(u, ulen, "B")) {
        char p = (char)toupper((unsigned char)u[0]);
        const char *where = p ? strchr(prefixes, p) : NULL;
        if (!where)
            return RD_ERR_PARSE;
        int power = (int)(where - prefixes) + 1;
        /* Only "k" may be lower case (kB); "mB" would be millibytes. */
        if (islower((unsigned char)u[0]) && u[0] != 'k')
            return RD_ERR_PARSE;
        /* Accept "K", "KB", "kB", "KiB"; "KiB" is binary whatever the base.
         * Powers of 1024 are exact in binary, powers of 1000 go decimal. */
        if (ulen == 3 && u[1] == 'i' && u[2] == 'B')
            mult = pow(1024.0, power);
        else if ((ulen == 1 || (ulen == 2 && u[1] == 'B')) && base == RD_SIZE_SI)
            shift = 3 * power;
        else if (ulen == 1 || (ulen == 2 && u[1] == 'B'))
            mult = pow(1024.0, power);
        else
            return RD_ERR_PARSE;
    }
    return scaled(s, u, v, shift, mult, bytes);
}

rd_status rd_parse_count(const char *s, size_t len, double *out)
{
    double v;
    const char *u;
    size_t ulen;
    if (split(s, len, &v, &u, &ulen))
        return RD_ERR_PARSE;
    int shift = 0;
    if (ulen == 1) {
        switch (u[0]) {
        case 'k': case 'K': shift = 3; break;
        case 'M': shift = 6; break;
        case 'G': shift = 9; break;
        case 'T': shift = 12; break;
        default: return RD_ERR_PARSE;
        }
    } else if (ulen != 0) {
        return RD_ERR_PARSE;
    }
    return scaled(s, u, v, shift, 1, out);
}

rd_status rd_parse_percent(const char *s, size_t len, double *out)
{
    double v;
    const char *u;
    size_t ulen;
    if (split(s, len, &v, &u, &ulen) || !unit_is(u, ulen, "%"))
        return RD_ERR_PARSE;
    *out = v;
    return RD_OK;
}

rd_status rd_split_number_unit(const char *s, size_t len, const char **num, size_t *num_len,
                               const char **unit, size_t *unit_len)
{
    double v;
    const char *u;
    size_t ulen;
    if (split(s, len, &v, &u, &ulen))
        return RD_ERR_PARSE;
    *num = s;
    *num_len = (size_t)(u - s);
    while (ulen && (*u == ' ' || *u == '\t'))
        u++, ulen--;
    for (size_t i = 0; i < ulen; i++)
        if (u[i] == ' ' || u[i] == '\t')
            return RD_ERR_PARSE;
    *unit = u;
    *unit_len = ulen;
    return RD_OK;
}

rd_status rd_parse_scaled(const char *s, size_t len, int shift, double mult, double *out)
{
    double v;
    if (rd_parse_double(s, len, &v))
        return RD_ERR_PARSE;
    return scaled(s, s + len, v, shift, mult, out);
}
