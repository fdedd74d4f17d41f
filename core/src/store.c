/*
 * store - streaming reads of run stores (JSONL).
 *
 * Appending (the lock, the repair of a last line, the rollback) is
 * storeappend.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundown/fsutil.h"
#include "rundown/store.h"

rd_status rd_store_open(struct rd_store_reader *r, const char *path, struct rd_diag *d)
{
    memset(r, 0, sizeof *r);
    rd_arena_init(&r->arena);
    r->left = -1;
    if (strcmp(path, "-") == 0) {
        r->f = stdin;
        r->path = "<stdin>";
        return RD_OK;
    }
    r->path = path;
    /* A store is a regular file: a FIFO or a device must not hang or
     * flood the reader. */
    int fd;
    RD_TRY(rd_open_regular(path, "store", &fd, d));
    r->f = fdopen(fd, "r");
    if (!r->f) {
        int e = errno;
        close(fd);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open store: %s", strerror(e));
    }
    r->owns_file = 1;
    return RD_OK;
}

rd_status rd_store_open_range(struct rd_store_reader *r, const char *path, long long start,
                              long long end, struct rd_diag *d)
{
    rd_status s = rd_store_open(r, path, d);
    if (s)
        return s;
    if (start < 0 || end < start || fseeko(r->f, (off_t)start, SEEK_SET) != 0) {
        int e = errno;
        rd_store_close(r);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot seek in store: %s",
                           strerror(e ? e : EINVAL));
    }
    r->path = path;
    r->left = end - start;
    return RD_OK;
}

/* Refills r->buf so that it holds more than buf[pos..end): moves the unread
 * tail to the front, grows the buffer when the tail fills it, and reads one
 * chunk. Returns 0 when bytes were added, -1 at the end of input or on a read
 * error (r->eof set; ferror tells which), ENOMEM via errno. */
static int refill(struct rd_store_reader *r)
{
    if (r->eof)
        return -1;
    size_t tail = r->end - r->pos;
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, tail);
        r->pos = 0;
        r->end = tail;
    }
    /* One byte stays free for the NUL that ends a line in place. */
    if (r->cap - r->end < RD_STORE_CHUNK + 1) {
        size_t ncap = r->cap ? r->cap * 2 : RD_STORE_CHUNK * 2;
        while (ncap - r->end < RD_STORE_CHUNK + 1)
            ncap *= 2;
        char *n = realloc(r->buf, ncap);
        if (!n) {
            errno = ENOMEM;
            return -1;
        }
        r->buf = n;
        r->cap = ncap;
    }
    size_t want = r->cap - r->end - 1;
    if (r->left >= 0 && (unsigned long long)r->left < want)
        want = (size_t)r->left;
    size_t got = want ? fread(r->buf + r->end, 1, want, r->f) : 0;
    r->end += got;
    if (r->left >= 0)
        r->left -= (long long)got;
    if (got == 0) {
        r->eof = 1;
        return -1;
    }
    return 0;
}

/* Finds the next line (newline included) in r->buf, at most
 * RD_STORE_MAX_LINE bytes: a store holding a line without end (a damaged or
 * hostile file) must not make a reader allocate the whole file. Sets *line
 * to its first byte (valid until the next call; one byte past a last line
 * without a newline is free for a NUL). Returns the length, -1 at the end of
 * input or on a read error, -2 for an overlong line (the rest of it is not
 * read). */
static ssize_t read_line(struct rd_store_reader *r, char **line)
{
    size_t scanned = 0; /* bytes of the line already known to hold no newline */
    for (;;) {
        size_t avail = r->end - r->pos;
        /* Before the first read the buffer is NULL, and NULL + 0 is
         * undefined (clang's UBSan; found by fuzz_analyze on an empty store). */
        char *start = r->buf ? r->buf + r->pos : NULL;
        char *nl = avail > scanned ? memchr(start + scanned, '\n', avail - scanned) : NULL;
        if (nl) {
            size_t len = (size_t)(nl - start) + 1;
            if (len > RD_STORE_MAX_LINE)
                return -2;
            r->pos += len;
            r->consumed += (long long)len;
            *line = start;
            return (ssize_t)len;
        }
        if (avail > RD_STORE_MAX_LINE)
            return -2;
        scanned = avail;
        if (refill(r) != 0) {
            if (errno == ENOMEM || ferror(r->f) || avail == 0)
                return -1;
            /* The last line has no newline; refill() may have moved it. */
            r->unterminated = 1;
            *line = r->buf + r->pos;
            r->pos += avail;
            return (ssize_t)avail;
        }
    }
}

rd_status rd_store_next(struct rd_store_reader *r, struct rd_record *rec, int *got,
                        struct rd_diag *d)
{
    *got = 0;
    for (;;) {
        errno = 0;
        char *line = NULL;
        long long off = r->consumed;
        ssize_t n = read_line(r, &line);
        if (n == -2)
            return rd_diag_set(d, RD_ERR_PARSE, r->path, r->line + 1, 1,
                               "expected a run record, got a line longer than %d bytes",
                               RD_STORE_MAX_LINE);
        if (n < 0) {
            if (ferror(r->f) || errno == ENOMEM)
                return rd_diag_set(d, errno == ENOMEM ? RD_ERR_NOMEM : RD_ERR_IO, r->path,
                                   r->line + 1, 0, "cannot read store: %s", strerror(errno));
            return RD_OK;
        }
        r->line++;
        size_t len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        line[len] = '\0'; /* a newline, a CR or the free byte after the data */
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len)
            continue;
        const char *nul = memchr(line, '\0', len);
        if (nul)
            return rd_diag_set(d, RD_ERR_PARSE, r->path, r->line,
                               (unsigned)(nul - line) + 1,
                               "expected a JSON run record, got a NUL byte");
        rd_arena_reset(&r->arena);
        rd_diag_init(d, r->path);
        if (d)
            d->line = r->line;
        rd_status s = rd_record_from_json(rec, &r->arena, line, len, d);
        if (s) {
            if (d) {
                d->path = r->path;
                d->line = r->line;
            }
            return s;
        }
        r->rec_off = off;
        r->rec_len = len;
        *got = 1;
        return RD_OK;
    }
}

void rd_store_close(struct rd_store_reader *r)
{
    if (r->owns_file && r->f)
        fclose(r->f);
    free(r->buf);
    rd_arena_release(&r->arena);
    memset(r, 0, sizeof *r);
}
