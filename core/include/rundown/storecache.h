/*
 * storecache.h - an incremental cache of a parsed run store (issue 31).
 *
 * Re-reading a store is mostly cJSON's parse of lines already read
 * before. A store only grows (rundown never rewrites a line), so the
 * records of its first bytes can be kept in a compact binary file and
 * read back without JSON: one cache file per store, named by a digest of
 * the store's real path, device and inode, holding
 *
 *   a header: magic, format version, the byte size of the store prefix
 *     it covers (whole lines), an XXH3-128 digest of that prefix, the
 *     count of records and lines, the store's real path, device and inode
 *     (what the name is a digest of: rd_cache_sweep reads them), and a
 *     checksum of the header itself;
 *   blocks: each a few thousand records, with the store bytes and lines
 *     it covers and an XXH3-64 checksum of its payload. A block's strings
 *     are its own (a block is read without the ones before it), so the
 *     blocks of a store can be read in parts on several threads.
 *
 * The cache is valid while the store is at least as long as the prefix and
 * the prefix's digest is the same; then only the bytes after it are parsed
 * and written to the cache as new blocks. A cache file that is missing,
 * foreign, of another version, truncated or damaged is not used (and is
 * replaced by the next commit): a cache never makes an analysis fail or
 * differ. A commit writes a temporary file and renames it over the old one,
 * so a reader never sees half a cache.
 *
 * A record read back is the record rd_record_from_json made of its line,
 * field for field (strings, the order of labels, info, source fields and
 * metrics, the bits of every number), with its line number: whatever the
 * reader of a store did with the record it does the same with the copy.
 * Lines that failed to parse are never cached: a cache is written only
 * after every record of the store was read and analysed without error.
 *
 * Bump RD_CACHE_VERSION whenever rd_record_from_json would make another
 * record of the same line, struct rd_record changes, or the format below
 * changes: tests/unit/test_storecache.c pins the record layout and the
 * bytes of a small store's cache to the version and fails until it is
 * bumped. A cache directory holds one version's files: the others are
 * removed by rd_cache_sweep.
 */
#ifndef RUNDOWN_STORECACHE_H
#define RUNDOWN_STORECACHE_H

#include <stddef.h>
#include <stdint.h>

#include "rundown/arena.h"
#include "rundown/record.h"
#include "rundown/status.h"

#define RD_CACHE_VERSION 2u

/** Where a block lies in the cache file and what it covers of the store. */
struct rd_cache_block {
    uint64_t off;     /* of its payload in the cache file */
    uint64_t len;     /* payload bytes */
    uint64_t bytes;   /* store bytes it covers */
    uint64_t lines;   /* store lines it covers */
    uint32_t nrec;
};

/** A store's cache as found on disk, and what a commit extends. */
struct rd_cache {
    int fd;                        /* the valid cache file; -1: none */
    char *path;                    /* where the cache file is (malloc'd) */
    struct rd_cache_block *blocks; /* nblocks when valid, else none */
    size_t nblocks, capblocks;
    uint64_t covered;              /* store bytes the valid blocks cover */
    uint64_t records, lines;
    void *digest;                  /* XXH3 state over the store's [0, covered) */
    const char *note;              /* why a cache file was not used; NULL when it was */
    uint32_t block_records;        /* records a new block holds at most (0: the
                                    * default; tests make many small blocks) */
    uint32_t hdr_len;              /* of the valid cache file: where its blocks start */
    char *real;                    /* the store's real path (malloc'd), device and */
    uint64_t dev, ino;             /* inode, written into the header by a commit */
};

/**
 * Finds the cache of the store at 'store' (a regular file) in 'dir'
 * (created, mode 0700, when missing) and checks it against the store: on
 * RD_OK, c->nblocks and c->covered say what can be read from it (0 when
 * there is no usable cache; c->note then says why). An error (the
 * directory cannot be made, the store cannot be read) leaves c released
 * and means: analyse without a cache. Release c with rd_cache_release.
 */
rd_status rd_cache_open(struct rd_cache *c, const char *dir, const char *store,
                        struct rd_diag *d);

void rd_cache_release(struct rd_cache *c);

/**
 * The checks of rd_cache_open on the cache file open at fd alone, without
 * its store (for the fuzz target): NULL when it is sound (c's blocks are
 * then set and can be read), else why not. c->fd is fd; rd_cache_release
 * closes it.
 */
const char *rd_cache_check_fd(struct rd_cache *c, int fd);

/** Reads the records of blocks [first, last) of a cache. */
struct rd_cache_range {
    const struct rd_cache *c;
    size_t block, last;     /* the block being read, one past the last */
    unsigned line;          /* line number of the last record read, from 1 in the range */
    unsigned block_line;    /* lines of the range before the block being read */
    const char *path;       /* the store's path, for records and messages */
    unsigned char *buf;     /* the block being read */
    size_t cap, pos, len;
    uint32_t left;          /* records of the block not read yet */
    const char **strs;      /* the block's strings */
    size_t nstrs, capstrs;
    struct rd_kv *kvs[3];   /* the record's config, info and source */
    size_t capkvs[3];
    int loaded;             /* 'block' is in buf */
    struct rd_metric *metrics;
    size_t capmetrics;
    struct rd_arena arena;  /* only what rd_record_init binds */
};

void rd_cache_range_open(struct rd_cache_range *r, const struct rd_cache *c,
                         const char *path, size_t first, size_t last);

/**
 * The next record of the range, as rd_store_next gives it (valid until
 * the next call; *got 0 at the end), with r->line its line. A block that
 * does not decode (changed under the reader) is RD_ERR_PARSE.
 */
rd_status rd_cache_next(struct rd_cache_range *r, struct rd_record *rec, int *got,
                        struct rd_diag *d);

void rd_cache_range_close(struct rd_cache_range *r);

/**
 * New blocks for a cache, written as a part of a store is read: records
 * with their line and the store offset just past their line, both counted
 * from where the part starts. Nothing here fails an analysis: a writer
 * that cannot write sets 'failed' and takes nothing more.
 */
struct rd_cache_writer {
    int fd;                   /* an unlinked temporary file in the cache dir */
    int failed;
    uint64_t bytes, lines;    /* what the closed blocks cover */
    uint64_t records;
    uint64_t written;         /* bytes in fd */
    unsigned long long block_off; /* store offset where the open block starts */
    uint32_t block_records;   /* the open block closes at this many records */
    unsigned block_line;      /* line before the open block's first */
    unsigned last_line;       /* of the last record added */
    uint32_t nrec;            /* records in the open block */
    unsigned char *buf;       /* the open block (a header's room, then its payload) */
    size_t cap, len;
    void *strmap;             /* the open block's strings */
    uint64_t nstrs;
};

/** Starts a writer for a part read from (line, off) on. */
void rd_cache_writer_open(struct rd_cache_writer *w, const struct rd_cache *c,
                          unsigned line, unsigned long long off);

/** Adds a record read at 'line' whose line ends (newline included) at 'end'. */
void rd_cache_writer_add(struct rd_cache_writer *w, const struct rd_record *rec,
                         unsigned line, unsigned long long end);

/** Ends the part at 'line' and store offset 'end' (the last newline read). */
void rd_cache_writer_finish(struct rd_cache_writer *w, unsigned line, unsigned long long end);

void rd_cache_writer_release(struct rd_cache_writer *w);

/**
 * Writes c's valid blocks and then those of ws[0..n) (finished writers of
 * the parts that follow the covered prefix, in order) as the store's new
 * cache, atomically; the digest covers the new prefix. RD_ERR_IO when it
 * cannot be written (the old cache is then left as it was).
 */
rd_status rd_cache_commit(struct rd_cache *c, const char *store, struct rd_cache_writer *const *ws,
                          size_t n, struct rd_diag *d);

/**
 * Removes from 'dir' the cache files that can serve no store: those of
 * another RD_CACHE_VERSION, and those whose store (the real path, device
 * and inode their header records) no longer exists or is now another
 * file; and a commit's temporaries (<name>.XXXXXX) a day old, left by a
 * process that died. Only regular files named as cache files (32 hex
 * digits and ".rdc") and starting with a cache's magic are removed;
 * links are never followed, damaged files are left to be replaced by
 * their store's next commit. rd_cache_commit calls it at most once a
 * day (the mtime of 'dir'/.sweep). *removed (when not NULL) counts the
 * files removed. RD_ERR_IO when dir cannot be read.
 */
rd_status rd_cache_sweep(const char *dir, size_t *removed, struct rd_diag *d);

/** The default cache directory: $XDG_CACHE_HOME/rundown or $HOME/.cache/rundown
 *  (malloc'd), NULL when neither variable is set. */
char *rd_cache_default_dir(void);

#endif
