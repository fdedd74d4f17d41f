/*
 * kill_at_rename.c - an LD_PRELOAD module for tests/sh/durability.sh: the
 * rename (rename, renameat2) numbered $KILL_AT_RENAME (from 0) of the
 * process kills it with SIGKILL instead, so a render can be killed at each
 * point of its commit, which a signal sent at a random moment rarely hits.
 * Other calls pass on to libc's. tests/unit/test_render_stage.c includes
 * this file and arms it with kill_at_rename_arm instead: an executable's
 * definitions are the ones its libraries' calls bind to, as a preloaded
 * module's are.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static long renames_left = -2; /* before the kill; -1: never; -2: not read */

/* From now on, the rename numbered k (from 0) kills the process; -1: none. */
void kill_at_rename_arm(long k);

void kill_at_rename_arm(long k)
{
    renames_left = k;
}

static void count_rename(void)
{
    if (renames_left == -2) {
        const char *at = getenv("KILL_AT_RENAME");
        renames_left = at ? strtol(at, NULL, 10) : -1;
    }
    if (renames_left >= 0 && renames_left-- == 0)
        raise(SIGKILL);
}

int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "rename");
    count_rename();
    return real(from, to);
}

int renameat2(int from_dir, const char *from, int to_dir, const char *to, unsigned flags)
{
    static int (*real)(int, const char *, int, const char *, unsigned);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "renameat2");
    count_rename();
    return real(from_dir, from, to_dir, to, flags);
}
