/*
 * split.h - where a big store is cut into the parts its threads read
 * (split.c; ingest.c reads them): parts that shrink towards the end of
 * the file, so the threads run out of parts together
 */
#ifndef RUNDOWN_ANALYZE_SPLIT_H
#define RUNDOWN_ANALYZE_SPLIT_H

#include <stddef.h>

/* The last parts are 1/RD_SPLIT_TAIL of the size at which a store is
 * split (256 KiB of the default 16 MiB), or more when 'most' parts could
 * not hold the file otherwise. */
enum { RD_SPLIT_TAIL = 64 };

/**
 * The length of the next part when 'left' bytes of the store are still
 * to be cut for 'threads' threads: a (2 * threads)-th of them, rounded
 * up, but at least 'floor' (and at most 'left'). The threads take the
 * parts in turn, so a thread that takes the last one leaves the others
 * idle for at most the time of a part near the end: these are the
 * smallest, while the first ones, each a fraction of what is left, keep
 * the parts few (guided self-scheduling, Polychronopoulos and Kuck
 * 1987, with half its chunks: a thread slower than the others by up to
 * half still ends with them).
 */
unsigned long long rd_split_len(unsigned long long left, unsigned long long floor, size_t threads);

/**
 * The smallest floor for rd_split_len, from 'want' up by doubling, with
 * which a store of 'size' bytes makes at most 'most' parts (at least 1).
 */
unsigned long long rd_split_floor(unsigned long long size, unsigned long long want,
                                  size_t threads, size_t most);

/**
 * The offsets where the parts of the file at path start, after the
 * first, in at[] (room for most - 1), each just after a newline: every
 * part but the last takes rd_split_len bytes (with the floor for 'most'
 * parts from min / RD_SPLIT_TAIL) and the rest of the line its last byte
 * is in. Returns how many parts that makes, and the file's size in
 * *size: 1 when it is not a regular file of at least 'min' bytes (min
 * 0: never split), threads or most is under 2, or it has no such newline.
 */
size_t rd_split_points(const char *path, size_t min, size_t threads, size_t most, long long *at,
                       long long *size);

#endif
