/*
 * split.c - where a big store is cut into the parts its threads read
 * (see split.h)
 */
#include "split.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

unsigned long long rd_split_len(unsigned long long left, unsigned long long floor, size_t threads)
{
    unsigned long long d = 2 * (unsigned long long)(threads ? threads : 1);
    unsigned long long len = left / d + (left % d != 0);
    if (len < floor)
        len = floor;
    return len < left ? len : left;
}

/* How many parts rd_split_len cuts 'size' bytes into; the newlines move
 * each cut on, which leaves less to cut, so never more. */
static size_t count_parts(unsigned long long size, unsigned long long floor, size_t threads)
{
    size_t n = 0;
    for (unsigned long long left = size; left > 0; n++)
        left -= rd_split_len(left, floor, threads);
    return n;
}

unsigned long long rd_split_floor(unsigned long long size, unsigned long long want,
                                  size_t threads, size_t most)
{
    unsigned long long floor = want ? want : 1;
    while (floor < size && count_parts(size, floor, threads) > (most ? most : 1))
        floor *= 2;
    return floor;
}

size_t rd_split_points(const char *path, size_t min, size_t threads, size_t most, long long *at,
                       long long *size)
{
    struct stat st;
    if (min == 0 || threads < 2 || most < 2 || strcmp(path, "-") == 0 ||
        stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size < min)
        return 1;
    unsigned long long total = (unsigned long long)st.st_size;
    unsigned long long floor = rd_split_floor(total, min / RD_SPLIT_TAIL, threads, most);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = 1;
    long long last = 0;
    while (n < most) {
        unsigned long long len = rd_split_len(total - (unsigned long long)last, floor, threads);
        long long pos = last + (long long)len;
        if (pos >= st.st_size)
            break;
        /* From the byte before the cut: a cut just after a newline stays. */
        if (fseeko(f, pos - 1, SEEK_SET) != 0)
            break;
        int c;
        while ((c = getc(f)) != EOF && c != '\n')
            pos++;
        if (c == EOF || pos >= st.st_size)
            break;
        at[n++ - 1] = last = pos;
    }
    fclose(f);
    *size = st.st_size;
    return n;
}
