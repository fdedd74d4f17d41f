// links: rd_core
/*
 * fuzz_strtod - the strtod override (core/src/strtod.cc) against glibc's
 * strtod_l in a "C" locale object on arbitrary bytes: the value's bits,
 * the end pointer and errno must be the same, or the target aborts.
 *
 * The input is read as one string (a copy ending at its first NUL), and
 * again from each of its first 16 offsets, so that a number inside longer
 * text is read as cJSON and the importers hand it over.
 */
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void compare(const char *s, locale_t c)
{
    char *e1 = NULL, *e2 = NULL;
    errno = 4242;
    double a = strtod(s, &e1);
    int err1 = errno;
    errno = 4242;
    double b = strtod_l(s, &e2, c);
    int err2 = errno;
    if (memcmp(&a, &b, sizeof a) != 0 || e1 != e2 || err1 != err2) {
        fprintf(stderr, "strtod(\"%.80s\"): %.17g end %td errno %d, glibc %.17g end %td errno %d\n",
                s, a, e1 - s, err1, b, e2 - s, err2);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static locale_t c;
    if (!c && !(c = newlocale(LC_ALL_MASK, "C", (locale_t)0)))
        abort();
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    for (size_t at = 0; at <= size && at < 16; at++)
        compare(s + at, c);
    free(s);
    return 0;
}
