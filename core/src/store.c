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

rd_status rd_store_next(struct rd_store_reader *r, struct rd_record *rec, int *got,
                        struct rd_diag *d)
{
    *got = 0;
    for (;;) {
        errno = 0;
        ssize_t n = getline(&r->linebuf, &r->linecap, r->f);
        if (n < 0) {
            if (ferror(r->f))
                return rd_diag_set(d, RD_ERR_IO, r->path, r->line + 1, 0,
                                   "cannot read store: %s", strerror(errno));
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

rd_status rd_store_append(const char *path, const struct rd_recordset *set,
                          struct rd_diag *d)
{
    struct rd_buf buf = RD_BUF_INIT;
    rd_status s = RD_OK;
    for (size_t i = 0; i < set->len && !s; i++) {
        s = rd_record_validate(&set->items[i], d);
        if (!s)
            s = rd_record_to_json(&set->items[i], &buf);
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
        s = append_all(path, &buf, d);
    rd_buf_release(&buf);
    return s;
}
