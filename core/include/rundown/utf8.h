/*
 * utf8.h - the one UTF-8 decoder (RFC 3629) of rundown.
 *
 * Strings from input may hold any bytes; every place that must tell text
 * from binary (the store reader, JSON output, message excerpts, escaping
 * for HTML, Markdown, gnuplot and xlsx) asks these functions, so "valid"
 * means the same everywhere.
 */
#ifndef RUNDOWN_UTF8_H
#define RUNDOWN_UTF8_H

#include <stddef.h>
#include <stdint.h>

/**
 * Decodes the UTF-8 sequence at p, reading at most 'avail' bytes (avail >=
 * 1). Returns its length (1 for ASCII) and stores its code point in *cp
 * when cp is not NULL; returns 0 when the bytes there are not UTF-8 (a
 * stray continuation byte, a truncated, overlong or surrogate sequence, a
 * code point past U+10FFFF).
 */
size_t rd_utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp);

/** rd_utf8_decode without the code point. */
size_t rd_utf8_valid_len(const unsigned char *p, size_t avail);

/** Offset of the first byte of text[0..len) that does not start valid UTF-8, or len. */
size_t rd_utf8_invalid_at(const char *text, size_t len);

#endif
