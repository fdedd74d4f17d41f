/*
 * storeappend - appends to run stores under an exclusive flock(2) (see
 * store.h, "Appending").
 *
 * A store is the only copy of measurements that may have taken hours, so
 * an append either lands whole or not at all, and never touches bytes it
 * did not write: the rollback cuts the file back to where this append's
 * first byte landed (learnt from the descriptor's offset after the write,
 * which O_APPEND put at the end), under the same lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundown/fsutil.h"
#include "rundown/store.h"

void rd_store_lock_init(struct rd_store_lock *l)
{
    l->fd = -1;
    l->path = NULL;
    l->created = l->remove = false;
}

/* Opens path for the lock, creating it when missing (*created then set).
 * O_NONBLOCK: a FIFO under the store's name must not block the open. */
static int open_for_lock(const char *path, bool *created)
{
    for (;;) {
        int fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC | O_NONBLOCK);
        *created = false;
        if (fd >= 0 || errno != ENOENT)
            return fd;
        fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NONBLOCK, 0644);
        *created = fd >= 0;
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
}

/* True when path still names the file open at fd. */
static bool still_named(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

rd_status rd_store_lock(struct rd_store_lock *l, const char *path, unsigned flags,
                        bool *busy, struct rd_diag *d)
{
    rd_store_lock_init(l);
    if (busy)
        *busy = false;
    for (;;) {
        bool created;
        int fd = open_for_lock(path, &created);
        if (fd < 0)
            return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open store for append: %s",
                               strerror(errno));
        struct stat st;
        if (fstat(fd, &st) != 0) {
            int e = errno;
            close(fd);
            return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot stat store: %s",
                               strerror(e));
        }
        if (!S_ISREG(st.st_mode)) {
            close(fd);
            return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "expected a regular file, got %s",
                               rd_file_kind(st.st_mode));
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        int r;
        int op = flags & RD_LOCK_WAIT ? LOCK_EX : LOCK_EX | LOCK_NB;
        while ((r = flock(fd, op)) != 0 && errno == EINTR)
            ;
        if (r != 0) {
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK) {
                if (busy)
                    *busy = true;
                return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "is locked by another process");
            }
            return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot lock: %s", strerror(e));
        }
        /* The holder before us may have removed the file (it was empty, or
         * a lock file): our lock would then guard nothing. */
        if (!still_named(fd, path)) {
            close(fd);
            continue;
        }
        l->fd = fd;
        l->path = path;
        l->created = created;
        l->remove = (flags & RD_LOCK_FILE) != 0;
        return RD_OK;
    }
}

void rd_store_unlock(struct rd_store_lock *l)
{
    if (l->fd >= 0) {
        struct stat st;
        /* Removed while still locked, so no other writer appends to it
         * after it is gone (they check the name once they hold the lock). */
        if (l->remove || (l->created && fstat(l->fd, &st) == 0 && st.st_size == 0))
            unlink(l->path);
        close(l->fd);  /* closing the only descriptor releases the flock */
    }
    rd_store_lock_init(l);
}

rd_status rd_store_lock_size(const struct rd_store_lock *l, long long *size,
                             struct rd_diag *d)
{
    struct stat st;
    if (fstat(l->fd, &st) != 0)
        return rd_diag_set(d, RD_ERR_IO, l->path, 0, 0, "cannot stat store: %s",
                           strerror(errno));
    *size = (long long)st.st_size;
    return RD_OK;
}

/* pread of exactly n bytes at off; false on a short read or an error. */
static bool read_at(int fd, char *buf, size_t n, off_t off)
{
    size_t done = 0;
    while (done < n) {
        ssize_t k = pread(fd, buf + done, n - done, off + (off_t)done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        done += (size_t)k;
    }
    return true;
}

/* The 1-based number of the line that starts at 'start' (newlines before it + 1). */
static unsigned line_number(int fd, off_t start)
{
    char buf[65536];
    unsigned lines = 1;
    for (off_t off = 0; off < start;) {
        size_t n = start - off < (off_t)sizeof buf ? (size_t)(start - off) : sizeof buf;
        if (!read_at(fd, buf, n, off))
            break;
        for (size_t i = 0; i < n; i++)
            lines += buf[i] == '\n';
        off += (off_t)n;
    }
    return lines;
}

/*
 * Looks at the end of a store of 'size' bytes: *repair is set when its last
 * line lacks the newline but is a whole record (or blank), so a newline
 * goes first; a last line that is not a whole record is RD_ERR_PARSE
 * naming its line.
 */
static rd_status check_tail(const struct rd_store_lock *l, off_t size, bool *repair,
                            struct rd_diag *d)
{
    *repair = false;
    char last;
    if (size == 0 || (read_at(l->fd, &last, 1, size - 1) && last == '\n'))
        return RD_OK;
    /* Find where the last line starts, looking back at most a line's cap. */
    off_t span = size < (off_t)RD_STORE_MAX_LINE + 1 ? size : (off_t)RD_STORE_MAX_LINE + 1;
    char *buf = malloc((size_t)span + 1);
    if (!buf)
        return rd_diag_set(d, RD_ERR_NOMEM, l->path, 0, 0, "out of memory");
    if (!read_at(l->fd, buf, (size_t)span, size - span)) {
        free(buf);
        return rd_diag_set(d, RD_ERR_IO, l->path, 0, 0, "cannot read store: %s",
                           strerror(errno ? errno : EIO));
    }
    buf[span] = '\0';
    off_t begin = span;
    while (begin > 0 && buf[begin - 1] != '\n')
        begin--;
    off_t line_start = size - span + begin;
    if (begin == 0 && line_start > 0) {
        free(buf);
        return rd_diag_set(d, RD_ERR_PARSE, l->path, line_number(l->fd, line_start), 1,
                           "expected a run record, got a last line longer than %d bytes "
                           "without a newline; nothing was appended",
                           RD_STORE_MAX_LINE);
    }
    char *line = buf + begin;
    size_t len = (size_t)(span - begin);
    size_t blank = strspn(line, " \t\r");
    rd_status s = RD_OK;
    if (blank < len) {
        struct rd_arena arena;
        struct rd_record rec;
        rd_arena_init(&arena);
        struct rd_diag ignored;
        if (memchr(line, '\0', len) ||
            rd_record_from_json(&rec, &arena, line, len, &ignored) != RD_OK)
            s = rd_diag_set(d, RD_ERR_PARSE, l->path, line_number(l->fd, line_start), 1,
                            "expected a whole run record and a newline at the end of the "
                            "store, got %zu bytes of a cut line; nothing was appended "
                            "(complete or remove that line)", len);
        rd_arena_release(&arena);
    }
    free(buf);
    *repair = !s;
    return s;
}

/* Blocks the signals that would otherwise end the process between a
 * write and its rollback. */
static void hold_signals(sigset_t *saved)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &set, saved);
}

/* Writes all of data with O_APPEND; *start gets the offset its first byte
 * landed at (-1 when nothing landed). Returns 0 or an errno. */
static int write_all(int fd, const char *data, size_t len, off_t *start)
{
    size_t done = 0;
    *start = -1;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        if (*start < 0)
            *start = lseek(fd, 0, SEEK_CUR) - (off_t)n;
        done += (size_t)n;
    }
    return 0;
}

rd_status rd_store_lock_append(struct rd_store_lock *l, const void *data, size_t len,
                               long long *end, struct rd_diag *d)
{
    long long size = 0;
    bool repair;
    RD_TRY(rd_store_lock_size(l, &size, d));
    RD_TRY(check_tail(l, (off_t)size, &repair, d));
    struct rd_buf buf = RD_BUF_INIT;
    if ((repair && rd_buf_addch(&buf, '\n')) || rd_buf_add(&buf, data, len)) {
        rd_buf_release(&buf);
        return rd_diag_set(d, RD_ERR_NOMEM, l->path, 0, 0, "out of memory");
    }
    sigset_t saved;
    hold_signals(&saved);
    off_t start;
    int e = write_all(l->fd, buf.ptr, buf.len, &start);
    const char *what = "cannot append to store";
    if (!e && fsync(l->fd) != 0 && errno != EINVAL) {
        e = errno;
        what = "cannot sync store";
    }
    if (e && start >= 0) {
        /* Take back what this append wrote, and only that: the lock is
         * held, so nothing of another rundown writer lies past 'start'. */
        if (ftruncate(l->fd, start) != 0) {
            /* Nothing more can be done; the message below still stands. */
        }
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    rd_buf_release(&buf);
    if (e)
        return rd_diag_set(d, RD_ERR_IO, l->path, 0, 0, "%s: %s", what, strerror(e));
    if (end)
        RD_TRY(rd_store_lock_size(l, end, d));
    return RD_OK;
}

rd_status rd_store_format(const struct rd_record *recs, size_t n, struct rd_buf *out,
                          struct rd_diag *d)
{
    for (size_t i = 0; i < n; i++) {
        size_t start = out->len;
        RD_TRY(rd_record_validate(&recs[i], d));
        RD_TRY(rd_record_to_json(&recs[i], out));
        /* A record whose line a reader would refuse is refused here, so
         * that a store rundown wrote can always be read back. */
        if (out->len - start > RD_STORE_MAX_LINE)
            return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0,
                               "a run record of %zu bytes is longer than a store line may be "
                               "(%d bytes): a label or info value is too long",
                               out->len - start, RD_STORE_MAX_LINE);
    }
    return RD_OK;
}

static rd_status append_records(const char *path, const struct rd_record *recs, size_t n,
                                struct rd_diag *d)
{
    struct rd_buf buf = RD_BUF_INIT;
    rd_status s = rd_store_format(recs, n, &buf, d);
    if (!s && buf.len && strcmp(path, "-") == 0) {
        if (fwrite(buf.ptr, 1, buf.len, stdout) != buf.len || fflush(stdout))
            s = rd_diag_set(d, RD_ERR_IO, "<stdout>", 0, 0, "cannot write: %s",
                            strerror(errno));
    } else if (!s && buf.len) {
        struct rd_store_lock l;
        s = rd_store_lock(&l, path, RD_LOCK_WAIT, NULL, d);
        if (!s)
            s = rd_store_lock_append(&l, buf.ptr, buf.len, NULL, d);
        rd_store_unlock(&l);
    }
    rd_buf_release(&buf);
    return s;
}

rd_status rd_store_append(const char *path, const struct rd_recordset *set,
                          struct rd_diag *d)
{
    return append_records(path, set->items, set->len, d);
}

rd_status rd_store_append_one(const char *path, const struct rd_record *rec,
                              struct rd_diag *d)
{
    return append_records(path, rec, 1, d);
}
