/*
 * utf8.c - see utf8.h. Written by hand: a decoder of a dozen lines does
 * not justify a dependency (no Debian C library offers just this).
 */
#include <stdint.h>
#include <string.h>

#include "rundown/utf8.h"

size_t rd_utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp)
{
    unsigned char c = p[0];
    size_t n;
    uint32_t v;
    if (c < 0x80) {
        n = 1;
        v = c;
    } else if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        v = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        v = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (p[i] & 0x3f);
    }
    /* Overlong forms, UTF-16 surrogates and code points past U+10FFFF are
     * not UTF-8 (RFC 3629). */
    if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)) ||
        (v >= 0xd800 && v <= 0xdfff))
        return 0;
    if (cp)
        *cp = v;
    return n;
}

size_t rd_utf8_valid_len(const unsigned char *p, size_t avail)
{
    return rd_utf8_decode(p, avail, NULL);
}

/* ASCII, nearly all of a store or an analysis, is skipped a word at a time. */
size_t rd_utf8_invalid_at(const char *line, size_t len)
{
    const unsigned char *u = (const unsigned char *)line;
    size_t i = 0;
    while (i < len) {
        uint64_t w;
        if (len - i >= sizeof w) {
            memcpy(&w, u + i, sizeof w);
            if (!(w & 0x8080808080808080ULL)) {
                i += sizeof w;
                continue;
            }
        }
        if (u[i] < 0x80) {
            i++;
            continue;
        }
        size_t n = rd_utf8_valid_len(u + i, len - i);
        if (n == 0)
            return i;
        i += n;
    }
    return len;
}
