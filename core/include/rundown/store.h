/*
 * store.h - reading and appending run stores (JSONL files of run records).
 *
 * A store is append-only: rundown never rewrites a line. Readers stream it
 * in chunks of RD_STORE_CHUNK bytes and parse one line at a time, so memory
 * does not grow with the store (at most one chunk plus the longest line).
 *
 * ## Appending
 *
 * Every writer holds an exclusive flock(2) on the store file while it
 * numbers and appends runs (struct rd_store_lock), so concurrent writers
 * (two `run`s, `import` during a `suite`) take turns and a writer can read
 * the run numbers others stored before numbering its own. Under the lock an
 * append is one write(2) of whole lines, fsynced; when it fails part-way
 * (a full disk, EFBIG under `ulimit -f`) the file is cut back to the offset
 * where this append began, never to a size seen earlier, so no other
 * writer's run is taken with it. SIGINT, SIGTERM, SIGHUP and SIGXFSZ are
 * held during the write and its rollback. A last line without its newline
 * (an editor, `truncate`, a copy cut short) gets the newline first when it
 * is a whole record, and the append is refused, naming file and line,
 * when it is not: records are never glued onto a partial line. Writers
 * that do not take the lock (`cat >>`, an editor) are not serialised.
 */
#ifndef RUNDOWN_STORE_H
#define RUNDOWN_STORE_H

#include <stdbool.h>
#include <stdio.h>

#include "rundown/buf.h"
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
    int unterminated;     /* the last line read had no newline (the end of the input) */
    long long consumed;   /* bytes of the input (range) up to the last newline read */
    long long rec_off;    /* where the line of the last record returned starts in the
                           * input (range), and its length less its line end: what
                           * rd_record_from_json read (analyze's raw runs, embed.h) */
    size_t rec_len;
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

/** A store (or a lock file) held with an exclusive flock(2). */
struct rd_store_lock {
    int fd;            /* -1: not held */
    const char *path;  /* borrowed */
    bool created;      /* this lock made the file: removed at unlock while empty */
    bool remove;       /* RD_LOCK_FILE: removed at unlock */
};

enum rd_store_lock_flags {
    RD_LOCK_WAIT = 1u << 0,  /* wait for another holder (else: busy at once) */
    RD_LOCK_FILE = 1u << 1   /* a lock file, not a store: removed at unlock */
};

/** Not held. */
void rd_store_lock_init(struct rd_store_lock *l);

/**
 * Opens the regular file at 'path' (created empty when missing) and takes
 * an exclusive flock(2) on it, waiting for another holder with
 * RD_LOCK_WAIT. Without it, a lock held elsewhere sets *busy (when busy is
 * not NULL) and returns RD_ERR_IO "is locked by another process". The
 * descriptor is close-on-exec, so no child keeps the lock past rundown's
 * death. A FIFO or other non-regular file is refused at once. A file
 * this lock created and nothing was appended to is removed at unlock (a
 * writer that stored nothing leaves no empty store), as is a lock file
 * (RD_LOCK_FILE); once the lock is taken the path is checked to still
 * name the locked file, so a lock on a file removed meanwhile is taken
 * again on the new one.
 */
rd_status rd_store_lock(struct rd_store_lock *l, const char *path, unsigned flags,
                        bool *busy, struct rd_diag *d);

/** Releases the lock (closing the file); a lock not held is ignored. */
void rd_store_unlock(struct rd_store_lock *l);

/** The size of the locked file now, in bytes. */
rd_status rd_store_lock_size(const struct rd_store_lock *l, long long *size,
                             struct rd_diag *d);

/**
 * Appends 'len' bytes of whole record lines to the locked store as
 * described at the top: repairs or refuses a last line without its
 * newline, writes once, fsyncs, and on failure removes what this call
 * wrote. *end (when not NULL) gets the file's size after the append.
 */
rd_status rd_store_lock_append(struct rd_store_lock *l, const void *data, size_t len,
                               long long *end, struct rd_diag *d);

/**
 * Validates recs[0..n) and appends their JSON lines to out,
 * refusing a line a reader would refuse (RD_STORE_MAX_LINE).
 */
rd_status rd_store_format(const struct rd_record *recs, size_t n, struct rd_buf *out,
                          struct rd_diag *d);

/**
 * Appends every record of 'set' to the store at 'path' (created when
 * missing) under its lock (waiting for it), in one write, then fsyncs.
 * Either all records are added or the file is left as it was. "-" writes
 * to standard output.
 */
rd_status rd_store_append(const char *path, const struct rd_recordset *set,
                          struct rd_diag *d);

/** Appends one record (same guarantees). */
rd_status rd_store_append_one(const char *path, const struct rd_record *rec,
                              struct rd_diag *d);

#endif
