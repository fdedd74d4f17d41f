/*
 * store - streaming reads and all-or-nothing appends of run stores (JSONL).
 *
 * A store is the only copy of measurements that may have taken hours, so an
 * append either lands whole or not at all: the records are serialised first,
 * written with one write(2) on an O_APPEND descriptor, fsynced, and on a
 * short or failed write the file is truncated back to its previous size.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundown/store.h"

rd_status rd_store_open(struct rd_store_reader *r, const char *path, struct rd_diag *d)
{
    memset(r, 0, sizeof *r);
    rd_arena_init(&r->arena);
    if (strcmp(path, "-") == 0) {
        r->f = stdin;
        r->path = "<stdin>";
        return RD_OK;
    }
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f)
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open store: %s",
                           strerror(errno));
    r->owns_file = 1;
    return RD_OK;
}

/* Reads one line (newline included) into r->linebuf, at most
 * RD_STORE_MAX_LINE bytes: a store holding a line without end (a damaged or
 * hostile file) must not make a reader allocate the whole file. Returns the
 * length, -1 at the end of input or on a read error, -2 for an overlong line
 * (the rest of it is not read). */
static ssize_t read_line(struct rd_store_reader *r)
{
    size_t len = 0;
    int c;
    flockfile(r->f);
    while ((c = getc_unlocked(r->f)) != EOF) {
        if (len >= RD_STORE_MAX_LINE) {
            funlockfile(r->f);
            return -2;
        }
        if (len + 2 > r->linecap) {
            size_t ncap = r->linecap ? r->linecap * 2 : 4096;
            char *n = realloc(r->linebuf, ncap);
            if (!n) {
                funlockfile(r->f);
                errno = ENOMEM;
                return -1;
            }
            r->linebuf = n;
            r->linecap = ncap;
        }
        r->linebuf[len++] = (char)c;
        if (c == '\n')
            break;
    }
    funlockfile(r->f);
    if (len == 0)
        return -1;
    r->linebuf[len] = '\0';
    return (ssize_t)len;
}

rd_status rd_store_next(struct rd_store_reader *r, struct rd_record *rec, int *got,
                        struct rd_diag *d)
{
    *got = 0;
    for (;;) {
        errno = 0;
        ssize_t n = read_line(r);
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
        while (len && (r->linebuf[len - 1] == '\n' || r->linebuf[len - 1] == '\r'))
            len--;
        size_t i = 0;
        while (i < len && (r->linebuf[i] == ' ' || r->linebuf[i] == '\t'))
            i++;
        if (i == len)
            continue;
        if (memchr(r->linebuf, '\0', len))
            return rd_diag_set(d, RD_ERR_PARSE, r->path, r->line,
                               (unsigned)((char *)memchr(r->linebuf, '\0', len) -
                                          r->linebuf) + 1,
                               "expected a JSON run record, got a NUL byte");
        rd_arena_reset(&r->arena);
        rd_diag_init(d, r->path);
        if (d)
            d->line = r->line;
        rd_status s = rd_record_from_json(rec, &r->arena, r->linebuf, len, d);
        if (s) {
            if (d) {
                d->path = r->path;
                d->line = r->line;
            }
            return s;
        }
        *got = 1;
        return RD_OK;
    }
}

void rd_store_close(struct rd_store_reader *r)
{
    if (r->owns_file && r->f)
        fclose(r->f);
    free(r->linebuf);
    rd_arena_release(&r->arena);
    memset(r, 0, sizeof *r);
}

/* Writes all of buf to path in one append, or leaves the file as it was. */
static rd_status append_all(const char *path, const struct rd_buf *buf, struct rd_diag *d)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(buf->ptr, 1, buf->len, stdout) != buf->len || fflush(stdout))
            return rd_diag_set(d, RD_ERR_IO, "<stdout>", 0, 0, "cannot write: %s",
                               strerror(errno));
        return RD_OK;
    }
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open store for append: %s",
                           strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot stat store: %s", strerror(e));
    }
    off_t old_size = st.st_size;
    size_t done = 0;
    while (done < buf->len) {
        ssize_t n = write(fd, buf->ptr + done, buf->len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            /* Take back the part that landed: a store never holds half a run. */
            if (ftruncate(fd, old_size) != 0) {
                /* Nothing more can be done; the message below still stands. */
            }
            close(fd);
            return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot append to store: %s",
                               strerror(e));
        }
        done += (size_t)n;
    }
    if (fsync(fd) != 0 && errno != EINVAL) {
        int e = errno;
        close(fd);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot sync store: %s", strerror(e));
    }
    if (close(fd) != 0)
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot close store: %s",
                           strerror(errno));
    return RD_OK;
}

/* A record whose line a reader would refuse (RD_STORE_MAX_LINE) is refused
 * here, so that a store rundown wrote can always be read back. */
static rd_status check_line(const struct rd_buf *buf, size_t start, struct rd_diag *d)
{
    if (buf->len - start <= RD_STORE_MAX_LINE)
        return RD_OK;
    return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0,
                       "a run record of %zu bytes is longer than a store line may be "
                       "(%d bytes): a label or info value is too long",
                       buf->len - start, RD_STORE_MAX_LINE);
}

rd_status rd_store_append(const char *path, const struct rd_recordset *set,
                          struct rd_diag *d)
{
    struct rd_buf buf = RD_BUF_INIT;
    rd_status s = RD_OK;
    for (size_t i = 0; i < set->len && !s; i++) {
        size_t start = buf.len;
        s = rd_record_validate(&set->items[i], d);
        if (!s)
            s = rd_record_to_json(&set->items[i], &buf);
        if (!s)
            s = check_line(&buf, start, d);
    }
    if (!s && buf.len)
        s = append_all(path, &buf, d);
    rd_buf_release(&buf);
    return s;
}

rd_status rd_store_append_one(const char *path, const struct rd_record *rec,
                              struct rd_diag *d)
{
    struct rd_buf buf = RD_BUF_INIT;
    rd_status s = rd_record_validate(rec, d);
    if (!s)
        s = rd_record_to_json(rec, &buf);
    if (!s)
        s = check_line(&buf, 0, d);
    if (!s)
        s = append_all(path, &buf, d);
    rd_buf_release(&buf);
    return s;
}
