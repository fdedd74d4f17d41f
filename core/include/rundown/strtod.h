#ifndef RUNDOWN_STRTOD_H
#define RUNDOWN_STRTOD_H
/* strtod for the whole process by fast_float (core/src/strtod.cc, built
 * when the CMake option RD_FAST_STRTOD is on): an executable linked with
 * it answers every strtod call in the process, libcjson.so's included,
 * with glibc's bits, end pointer and errno. Nothing to call: defining
 * strtod is the whole interface. */

#ifdef __cplusplus
extern "C" {
#endif

/* The fast path alone, for tests/unit/test_strtod.c: 1 and *out, *end
 * (when end is not NULL) set as glibc's strtod would set them when
 * fast_float answers s; 0 and nothing set when glibc's strtod must answer
 * (s not a plain decimal, a radix other than ".", a rounding mode other
 * than to nearest, a result that is not normal or an exact zero). */
int rd_strtod_fast(const char *s, char **end, double *out);

#ifdef __cplusplus
}
#endif
#endif
