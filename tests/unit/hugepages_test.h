/*
 * hugepages_test.h - for the tests of core/hugepages: whether memory is
 * advised huge, as the kernel says in /proc/self/smaps (the "hg" flag of
 * its mapping's VmFlags, MADV_HUGEPAGE). Include it after cmocka.h.
 */
#ifndef RUNDOWN_HUGEPAGES_TEST_H
#define RUNDOWN_HUGEPAGES_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Whether the mapping that holds p covers [p, p + len) and is advised
 * huge; false when /proc/self/smaps has none that holds p. */
static bool advised(const void *p, size_t len, bool *covers)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[512];
    bool in = false, hg = false;
    *covers = false;
    uintptr_t a = (uintptr_t)p;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            if (in)
                break;
            in = a >= lo && a < hi;
            *covers = in && a + len <= hi;
        } else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            hg = strstr(line, " hg") != NULL;
        }
    }
    fclose(f);
    return hg;
}

#endif
