/*
 * fsutil.h - whole-file reads, atomic writes, folders, and the temporaries
 * a signal must not leave behind.
 *
 * Output files are written to a temporary name in the same folder, fsynced
 * and renamed, so a failure never leaves a half-written file under the real
 * name. Every temporary is registered with the signal cleanup below while
 * it exists, so an interrupted tool removes it too.
 *
 * Where a regular file is expected (a store, an analysis, a template, an
 * environment file), anything else is refused at once with "expected a
 * regular file, got a FIFO": opening a FIFO that nobody writes blocks
 * forever, and /dev/zero never ends.
 */
#ifndef RUNDOWN_FSUTIL_H
#define RUNDOWN_FSUTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "rundown/buf.h"
#include "rundown/status.h"

/** How rd_read_input reads. */
enum rd_read_flags {
    RD_READ_REGULAR = 1u << 0,  /* a named path must be a regular file */
    RD_READ_TEXT = 1u << 1      /* refuse a NUL byte (JSON and templates hold none) */
};

struct rd_read_limits {
    size_t max;          /* the most bytes accepted; 0: no cap */
    unsigned flags;      /* enum rd_read_flags */
    const char *raise;   /* how the user raises max, added to the message
                            ("--max-input SIZE"); may be NULL */
};

/**
 * Reads a whole file ("-" = stdin) into out. A regular file larger than
 * the cap is refused from its size, before a byte is read; standard input
 * is refused as soon as it passes the cap (or, with RD_READ_TEXT, at its
 * first NUL byte). Errors: RD_ERR_PARSE for a NUL byte; RD_ERR_IO for
 * input that is too big, is not a regular file or cannot be read (the
 * exit code of a missing file, as for a directory before).
 */
rd_status rd_read_input(const char *path, const struct rd_read_limits *lim,
                        struct rd_buf *out, struct rd_diag *d);

/** A whole input as rd_map_input gives it. */
struct rd_input {
    const char *ptr;     /* its bytes, followed by a NUL byte (not counted) */
    size_t len;
    struct rd_buf buf;   /* the bytes read, when it is not mapped */
    void *map;           /* the mapping of a regular file, or NULL */
    size_t maplen;
};

/**
 * rd_read_input for a big input read once: a regular file is mapped
 * read-only instead of copied into a buffer (the copy and the page faults
 * of fresh memory were a third of rundown-render's reading of a 470 MiB
 * analysis); standard input, anything else and a file that cannot be
 * mapped are read by rd_read_input's rules. The same checks and errors;
 * the file must not shrink while it is mapped (a read past its new end
 * is SIGBUS): analyze replaces its output by a rename, never in place.
 * rd_input_release frees it.
 */
rd_status rd_map_input(const char *path, const struct rd_read_limits *lim,
                       struct rd_input *in, struct rd_diag *d);
void rd_input_release(struct rd_input *in);

/**
 * The first line of root/rel (of rel alone when root is NULL) into buf,
 * its newline cut, for the one-line files of /proc and /sys; false when
 * the file cannot be read or is empty.
 */
bool rd_file_line(const char *root, const char *rel, char *buf, size_t size);

/**
 * The value after "key<blanks>:" (or "=") on the first line of 'path' that
 * starts with key, blanks and double quotes around it cut (/proc/cpuinfo's
 * "model name", os-release's PRETTY_NAME); false when there is none.
 */
bool rd_file_field(const char *path, const char *key, char *out, size_t size);

/** Reads a whole file ("-" = stdin) into out; RD_ERR_IO past 'max' bytes (0: no cap). */
rd_status rd_read_file(const char *path, size_t max, struct rd_buf *out, struct rd_diag *d);

/**
 * Opens 'path' for reading (O_CLOEXEC) into *fd when it is a regular file;
 * anything else is RD_ERR_IO "expected a regular file, got a FIFO" at once
 * (the open does not wait for a FIFO's writer). A file that cannot be
 * opened is RD_ERR_IO "cannot open: <errno text>" ("cannot open WHAT: ..."
 * when 'what' is not NULL).
 */
rd_status rd_open_regular(const char *path, const char *what, int *fd, struct rd_diag *d);

/**
 * "a FIFO", "a directory", "a character device", "a block device", "a
 * socket", "a symbolic link" or "a regular file", for st_mode.
 */
const char *rd_file_kind(mode_t mode);

/** Writes data to path atomically (temporary name + fsync + rename). */
rd_status rd_write_file_atomic(const char *path, const void *data, size_t len,
                               struct rd_diag *d);

/** An output file being written under a temporary name. */
struct rd_atomic_file {
    FILE *f;
    char *path;
    char *tmp_path;  /* NULL when writing straight to a device or pipe */
    int cleanup;     /* the temporary's rd_cleanup entry, -1 without one */
    long long synced; /* bytes whose writeback rd_atomic_writeback has started */
};

/**
 * Opens "<path>.tmp.XXXXXX" for writing; commit renames it to path. When
 * path exists and is a character device (/dev/null, a terminal) or a FIFO
 * or pipe that a reader holds open (/dev/stdout in a pipeline), it is
 * written directly: renaming over it would replace it. A FIFO nobody reads,
 * a directory, a socket or a block device is refused at once (RD_ERR_IO,
 * "expected a regular file, got a FIFO with no reader").
 */
rd_status rd_atomic_open(struct rd_atomic_file *af, const char *path, struct rd_diag *d);

/** How old (seconds since its last write) a temporary must be before
 *  rd_atomic_sweep takes it for a leftover. */
#define RD_ATOMIC_STALE_S 10

/**
 * Removes the temporaries "<path>.tmp.XXXXXX" that writers of path killed
 * (SIGKILL, a crash) left: one whose lock can be taken (a live writer
 * holds it from rd_atomic_open to the commit) and that was last written
 * RD_ATOMIC_STALE_S or more ago. rd_atomic_open calls it, so the next
 * write of an output clears what an interrupted one left. Returns how many
 * were removed.
 */
int rd_atomic_sweep(const char *path);
/** rd_atomic_writeback starts the writeback once this many more bytes
 *  were written since it last did. */
#define RD_ATOMIC_WRITEBACK_BYTES (8LL << 20)

/**
 * Starts the kernel's writing of af's temporary to disk, up to what has
 * been written so far, once RD_ATOMIC_WRITEBACK_BYTES or more were written
 * since the last start, without waiting for it (sync_file_range). Call it
 * between the pieces of a big output: the commit's fsync then waits only
 * for the tail instead of writing all of it at the end (an analysis of
 * 10^5 configs is 490 MB, a quarter of a second of fsync on the bench
 * machine). Changes no byte; does nothing for a device or a pipe, and a
 * failure is left to the commit's fsync to report.
 */
void rd_atomic_writeback(struct rd_atomic_file *af);
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

/**
 * Removes path and, when it is a folder, everything in it (symbolic links
 * are removed, never followed). Returns 0, or -1 with errno when something
 * could not be removed. Async-signal-safe: the signal cleanup uses it.
 */
int rd_remove_tree(const char *path);

/*
 * ## Temporaries and signals
 *
 * A tool that writes outputs calls rd_cleanup_on_signals() once at start.
 * From then on SIGINT, SIGTERM and SIGHUP (each unless it was inherited as
 * ignored, as under nohup) remove every registered temporary, kill the
 * registered child, and end the process by the same signal (exit status
 * 128 + the signal). A file-size limit (ulimit -f, SIGXFSZ) either makes
 * the write fail, for a tool that checks every write (SIGXFSZ ignored), or
 * is handled like SIGTERM with a message, for one whose libraries ignore
 * write errors (libxlsxwriter, gnuplot: their half-written files would
 * otherwise look whole).
 *
 * Register and drop entries from the thread that owns them, while no other
 * thread could take one of these signals and run the cleanup at the same
 * time (rundown's tools register before their worker threads start and
 * drop after they end); the calls block the signals meanwhile, so the
 * cleanup never sees an entry half made.
 */

/**
 * Installs the handlers described above; 'xfsz_fatal' chooses the second
 * way for SIGXFSZ, whose message then starts with 'prog' (the tool's name).
 */
void rd_cleanup_on_signals(bool xfsz_fatal, const char *prog);

/**
 * Registers 'path' (copied) for removal on a signal: a file, or with
 * 'tree' a folder and everything in it. Returns the entry for
 * rd_cleanup_drop, or -1 when all RD_CLEANUP_MAX entries are taken or
 * memory is short (the path is then not cleaned up, nothing else fails).
 */
int rd_cleanup_add(const char *path, bool tree);
#define RD_CLEANUP_MAX 32

/** Forgets entry 'id' (-1 is ignored); the file itself is left alone. */
void rd_cleanup_drop(int id);

/** The child to SIGKILL and reap before removing temporaries (0: none). */
void rd_cleanup_child(pid_t pid);

/**
 * Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, saving the old
 * mask in *saved: for steps a signal must not cut in two (renaming a
 * report's files into place). rd_signals_release restores the mask, and a
 * signal that came meanwhile is handled then.
 */
void rd_signals_hold(sigset_t *saved);
void rd_signals_release(const sigset_t *saved);

/**
 * Refuses, before anything is made, work that would run out of open files
 * part-way (a low `ulimit -n`, or many inherited descriptors): tries to
 * open 'need' descriptors (at most 32) besides those open now and closes
 * them again. When too few open, RD_ERR_IO "cannot WHAT: Too many open
 * files (ulimit -n is N); NEEDS need K open files besides standard input,
 * output and error, and M are left (raise ulimit -n, or HINT)", 'hint'
 * NULL leaving out ", or HINT". Without /dev/null there is nothing to
 * judge by: RD_OK.
 */
rd_status rd_fds_check(int need, const char *what, const char *needs, const char *hint,
                       struct rd_diag *d);

#endif
