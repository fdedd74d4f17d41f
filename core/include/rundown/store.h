/*
 * store.h - reading and appending run stores (JSONL files of run records).
 *
 * A store is append-only: rundown never rewrites a line. Readers stream it
 * in chunks of RD_STORE_CHUNK bytes and parse one line at a time, so memory
 * does not grow with the store (at most one chunk plus the longest line). Appends are written
 * in one write(2) with O_APPEND and fsynced; if the write fails part-way the
 * file is truncated back to its old size, so a store is never left holding
 * half a record.
 */
#ifndef RUNDOWN_STORE_H
#define RUNDOWN_STORE_H

#include <stdio.h>

#include "rundown/record.h"

/** The longest store line a reader accepts (a run record is a few KiB). */
#define RD_STORE_MAX_LINE (16 * 1024 * 1024)
/** How much a reader asks the file for at once. */
#define RD_STORE_CHUNK (256 * 1024)

struct rd_store_reader {
    FILE *f;
    const char *path;     /* as given; "<stdin>" for "-" */
    unsigned line;        /* 1-based number of the last line read */
    char *buf;            /* input read in big chunks; lines are parsed in place */
    size_t cap;           /* bytes allocated in buf */
    size_t pos, end;      /* buf[pos..end) is read but not yet consumed */
    int eof;              /* the file has no more bytes (or a read failed) */
    long long left;       /* bytes of the range still to read; -1: to the end */
    struct rd_arena arena;
    int owns_file;
};

/** Opens a store for reading; "-" is standard input. */
rd_status rd_store_open(struct rd_store_reader *r, const char *path, struct rd_diag *d);

/**
 * Opens bytes [start, end) of the store at 'path' (a regular file) for
 * reading, so that two threads can each read a part of one store. 'start'
 * must be 0 or just after a newline and 'end' the end of the file or just
 * after a newline; lines are numbered from 1 within the range.
 */
rd_status rd_store_open_range(struct rd_store_reader *r, const char *path, long long start,
                              long long end, struct rd_diag *d);

/**
 * Reads the next record into rec. Sets *got to 1 when a record was read and
 * to 0 at the end. Blank lines are skipped. rec and its strings are valid until
 * the next call. A bad line is RD_ERR_PARSE with d naming path:line:col;
 * so is a line longer than RD_STORE_MAX_LINE.
 */
rd_status rd_store_next(struct rd_store_reader *r, struct rd_record *rec, int *got,
                        struct rd_diag *d);

void rd_store_close(struct rd_store_reader *r);

/**
 * Appends every record of 'set' to the store at 'path' (created when
 * missing) in one write, then fsyncs. Either all records are added or the
 * file is left as it was. "-" writes to standard output.
 */
rd_status rd_store_append(const char *path, const struct rd_recordset *set,
                          struct rd_diag *d);

/** Appends one record (same guarantees). */
rd_status rd_store_append_one(const char *path, const struct rd_record *rec,
                              struct rd_diag *d);

#endif
