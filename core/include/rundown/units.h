/*
 * units.h - numbers with units as load tools print them.
 *
 * Every function parses one whole token (pointer and length, no NUL needed):
 * trailing garbage is an error, never silently ignored. They return RD_OK or
 * RD_ERR_PARSE and never fill a diag: the caller knows the file position and
 * writes the "expected ..., got ..." message (see rd_units_expect_*).
 *
 * NaN spellings (nan, -nan, NaN, -NaN, +nan) parse to NAN with RD_OK: tools
 * print them when nothing was measured, and the run is then judged by the
 * importer, not rejected as garbage. Numbers that overflow to infinity are
 * errors.
 */
#ifndef RUNDOWN_UNITS_H
#define RUNDOWN_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

/** True when the token is one of the NaN spellings above. */
bool rd_is_nan_spelling(const char *s, size_t len);

/** A plain decimal number ("12", "-3.5", "1e3", "1.1670304331027067e+06"). */
rd_status rd_parse_double(const char *s, size_t len, double *out);

/** A non-negative integer without sign, exponent or fraction ("12345"). */
rd_status rd_parse_uint(const char *s, size_t len, unsigned long long *out);

/**
 * A duration in milliseconds: "310.00us", "4.20ms", "1.02s", "1.00m" (m is
 * minutes, never milli), "2.00h", also "µs"/"μs" and "ns". wrk's "%8.8s" can
 * cut "1000.00ms" to "1000.00m"; that is read as minutes like wrk prints it,
 * so callers that know a column holds milliseconds may pass
 * default_unit_ms = 1 and a unit-less number is then taken as ms.
 * With default_unit_ms = 0 a bare number is an error.
 */
rd_status rd_parse_duration_ms(const char *s, size_t len, double *ms,
                               double default_unit_ms);

enum rd_size_base {
    RD_SIZE_BINARY,  /* KB MB GB TB PB are powers of 1024 (wrk, bombardier) */
    RD_SIZE_SI       /* kB KB MB GB TB are powers of 1000 (autocannon) */
};

/** A size in bytes: "512B", "1.52MB", "1000 kB" is two tokens, not one. "KiB"
 *  style units are always powers of 1024 whatever the base. */
rd_status rd_parse_size_bytes(const char *s, size_t len, enum rd_size_base base,
                              double *bytes);

/** A count with an optional k/M/G/T suffix (powers of 1000): "1.23k". */
rd_status rd_parse_count(const char *s, size_t len, double *out);

/** A percentage "75.00%" (the % is required); returns 75.0. */
rd_status rd_parse_percent(const char *s, size_t len, double *out);

/**
 * Splits "4.2ms", "4.2 ms" or "12" into the number (a plain decimal or a
 * NaN spelling, as rd_parse_double takes it) and the unit after it, glued
 * or after blanks (unit_len 0: none). The unit is one token: "4.2 m s" is
 * an error.
 */
rd_status rd_split_number_unit(const char *s, size_t len, const char **num, size_t *num_len,
                               const char **unit, size_t *unit_len);

/**
 * The number of rd_parse_double times 10^shift times mult, the power of
 * ten applied to the decimal text before it is rounded once ("4.2" with
 * shift 3 is exactly 4200); NaN stays NaN; overflow to infinity is an error.
 */
rd_status rd_parse_scaled(const char *s, size_t len, int shift, double mult, double *out);

#endif
