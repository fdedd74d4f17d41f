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
    double scale;
    if (ulen == 0) {
        if (default_unit_ms <= 0)
            return RD_ERR_PARSE;
        scale = default_unit_ms;
    } else if (unit_is(u, ulen, "ns")) {
        scale = 1e-6;
    } else if (unit_is(u, ulen, "us") || unit_is(u, ulen, "\xc2\xb5s") ||
               unit_is(u, ulen, "\xce\xbcs")) {
        scale = 1e-3;
    } else if (unit_is(u, ulen, "ms")) {
        scale = 1;
    } else if (unit_is(u, ulen, "s")) {
        scale = 1e3;
    } else if (unit_is(u, ulen, "m")) {
        /* Minutes, as wrk and bombardier print them: never milliseconds. */
        scale = 60e3;
    } else if (unit_is(u, ulen, "h")) {
        scale = 3600e3;
    } else {
        return RD_ERR_PARSE;
    }
    double r = v * scale;
    if (isinf(r))
        return RD_ERR_PARSE;
    *ms = r;
    return RD_OK;
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
    double k = base == RD_SIZE_SI ? 1000.0 : 1024.0;
    double scale;
    if (unit_is(u, ulen, "B")) {
        scale = 1;
    } else {
        char p = (char)toupper((unsigned char)u[0]);
        const char *where = strchr(prefixes, p);
        if (!where || p == '\0')
            return RD_ERR_PARSE;
        int power = (int)(where - prefixes) + 1;
        /* Accept "K", "KB", "kB", "KiB". */
        if (ulen == 1 || (ulen == 2 && u[1] == 'B')) {
            scale = pow(k, power);
        } else if (ulen == 3 && u[1] == 'i' && u[2] == 'B') {
            scale = pow(1024.0, power);
        } else {
            return RD_ERR_PARSE;
        }
        /* Only "k" may be lower case (kB); "mB" would be millibytes. */
        if (islower((unsigned char)u[0]) && u[0] != 'k')
            return RD_ERR_PARSE;
    }
    double r = v * scale;
    if (isinf(r))
        return RD_ERR_PARSE;
    *bytes = r;
    return RD_OK;
}

rd_status rd_parse_count(const char *s, size_t len, double *out)
{
    double v;
    const char *u;
    size_t ulen;
    if (split(s, len, &v, &u, &ulen))
        return RD_ERR_PARSE;
    double scale = 1;
    if (ulen == 1) {
        switch (u[0]) {
        case 'k': case 'K': scale = 1e3; break;
        case 'M': scale = 1e6; break;
        case 'G': scale = 1e9; break;
        case 'T': scale = 1e12; break;
        default: return RD_ERR_PARSE;
        }
    } else if (ulen != 0) {
        return RD_ERR_PARSE;
    }
    double r = v * scale;
    if (isinf(r))
        return RD_ERR_PARSE;
    *out = r;
    return RD_OK;
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
