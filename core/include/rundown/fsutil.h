/*
 * fsutil.h - whole-file reads, atomic writes and folders.
 *
 * Output files are written to a temporary name in the same folder, fsynced
 * and renamed, so a failure never leaves a half-written file under the real
 * name.
 */
#ifndef RUNDOWN_FSUTIL_H
#define RUNDOWN_FSUTIL_H

#include <stdio.h>

#include "rundown/buf.h"
#include "rundown/status.h"

/** Reads a whole file ("-" = stdin) into out; RD_ERR_IO past 'max' bytes (0: no cap). */
rd_status rd_read_file(const char *path, size_t max, struct rd_buf *out, struct rd_diag *d);

/** Writes data to path atomically (temporary name + fsync + rename). */
rd_status rd_write_file_atomic(const char *path, const void *data, size_t len,
                               struct rd_diag *d);

/** An output file being written under a temporary name. */
struct rd_atomic_file {
    FILE *f;
    char *path;
    char *tmp_path;  /* NULL when writing straight to a device or pipe */
};

/**
 * Opens "<path>.tmp.XXXXXX" for writing; commit renames it to path. When
 * path exists and is not a regular file (/dev/null, /dev/stdout, a FIFO) it
 * is opened and written directly: renaming over a device would replace it.
 */
rd_status rd_atomic_open(struct rd_atomic_file *af, const char *path, struct rd_diag *d);
/** Flushes, fsyncs, closes and renames. On failure the temporary is removed. */
rd_status rd_atomic_commit(struct rd_atomic_file *af, struct rd_diag *d);
/** Closes and removes the temporary; safe to call after commit. */
void rd_atomic_abort(struct rd_atomic_file *af);

/** mkdir -p. */
rd_status rd_mkdir_p(const char *path, struct rd_diag *d);

/**
 * The path of 'path' relative to the folder 'dir' ("logs/x.txt",
 * "../samples/wrk.txt", "." for dir itself), what a record stores so that a
 * store and what it points to can be moved together. Both must exist; the
 * comparison is of their real paths (symbolic links resolved), so "a/../b"
 * and "./b" agree. Appends to out; RD_ERR_IO naming the one that is missing.
 */
rd_status rd_path_relative(const char *path, const char *dir, struct rd_buf *out,
                           struct rd_diag *d);

/** The folder of a file path as dirname(3) gives it ("." for "x.jsonl"),
 *  into out (at least as long as path, or 2 bytes). */
void rd_path_dirname(const char *path, char *out, size_t size);

#endif
