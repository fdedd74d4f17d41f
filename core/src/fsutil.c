/*
 * fsutil - whole-file reads, atomic writes (temporary name, fsync, rename),
 * mkdir -p, removing a folder, and the signal cleanup of temporaries.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rundown/fsutil.h"

const char *rd_file_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}

rd_status rd_open_regular(const char *path, const char *what, int *fd, struct rd_diag *d)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     * writer before fstat could say what it is. */
    *fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (*fd < 0)
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open%s%s: %s", what ? " " : "",
                           what ? what : "", strerror(errno));
    struct stat st;
    if (fstat(*fd, &st) != 0) {
        int e = errno;
        close(*fd);
        *fd = -1;
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot inspect: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(*fd);
        *fd = -1;
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "expected a regular file, got %s",
                           rd_file_kind(st.st_mode));
    }
    /* Regular files ignore O_NONBLOCK; cleared all the same, for clarity
     * to whoever reads from the descriptor. */
    int fl = fcntl(*fd, F_GETFL);
    if (fl >= 0)
        fcntl(*fd, F_SETFL, fl & ~O_NONBLOCK);
    return RD_OK;
}

/* "1.0 GiB (1073741824 bytes)" */
static void size_text(size_t n, char *out, size_t size)
{
    static const char *units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
    double v = (double)n;
    size_t u = 0;
    while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(out, size, "%zu bytes", n);
    else
        snprintf(out, size, "%.1f %s (%zu bytes)", v, units[u], n);
}

static rd_status too_big(const char *name, const struct rd_read_limits *lim,
                         unsigned long long got, bool known, struct rd_diag *d)
{
    char cap[64];
    size_text(lim->max, cap, sizeof cap);
    char seen[64] = "";
    if (known) {
        char t[48];
        size_text((size_t)got, t, sizeof t);
        snprintf(seen, sizeof seen, ", got %s", t);
    }
    return rd_diag_set(d, RD_ERR_IO, name, 0, 0, "expected at most %s of input%s%s%s", cap,
                       known ? seen : " and got more", lim->raise ? "; raise the cap with " : "",
                       lim->raise ? lim->raise : "");
}

/* Opens the input for rd_read_input and rd_map_input, and checks what its
 * stat tells: not a folder, not past the cap. *fd is 0 for standard input,
 * else opened here (and closed again on failure). */
static rd_status open_input(const char *path, const char *name, const struct rd_read_limits *lim,
                            int *fd, struct stat *st, bool *have_stat, struct rd_diag *d)
{
    bool is_stdin = strcmp(path, "-") == 0;
    *fd = 0;
    /* set on every path, the failing ones too: gcc -O2 warned that the
     * callers might read it unset */
    *have_stat = false;
    if (!is_stdin && (lim->flags & RD_READ_REGULAR)) {
        RD_TRY(rd_open_regular(path, NULL, fd, d));
    } else if (!is_stdin) {
        *fd = open(path, O_RDONLY | O_CLOEXEC);
        if (*fd < 0)
            return rd_diag_set(d, RD_ERR_IO, name, 0, 0, "cannot open: %s", strerror(errno));
    }
    *have_stat = fstat(*fd, st) == 0;
    rd_status s = RD_OK;
    if (*have_stat && S_ISDIR(st->st_mode))
        s = rd_diag_set(d, RD_ERR_IO, name, 0, 0, "cannot read: is a directory");
    else if (*have_stat && S_ISREG(st->st_mode) && lim->max &&
             (unsigned long long)st->st_size > lim->max)
        s = too_big(name, lim, (unsigned long long)st->st_size, true, d);
    if (s != RD_OK && !is_stdin)
        close(*fd);
    return s;
}

/* The rest of rd_read_input, from the open descriptor on. */
static rd_status read_fd(int fd, const char *name, const struct stat *st, bool have_stat,
                         const struct rd_read_limits *lim, struct rd_buf *out, struct rd_diag *d)
{
    rd_status s = RD_OK;
    rd_buf_reset(out);
    /* A regular file is read straight into a buffer of its size (one
     * more byte to see it grew): no copy, no growing (an analysis of 10^5
     * configs is 470 MiB). Standard input and the rest go by chunks. */
    if (have_stat && S_ISREG(st->st_mode) && st->st_size > 0 &&
        (unsigned long long)st->st_size < SIZE_MAX / 2)
        (void)rd_buf_grow(out, (size_t)st->st_size + 1);
    char chunk[65536];
    while (s == RD_OK) {
        bool direct = out->cap > out->len + 1;
        char *dst = direct ? out->ptr + out->len : chunk;
        size_t room = direct ? out->cap - out->len - 1 : sizeof chunk;
        ssize_t n = read(fd, dst, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            s = rd_diag_set(d, RD_ERR_IO, name, 0, 0, "cannot read: %s", strerror(errno));
            break;
        }
        if (n == 0)
            break;
        const char *nul = (lim->flags & RD_READ_TEXT) ? memchr(dst, '\0', (size_t)n) : NULL;
        if (nul) {
            s = rd_diag_set(d, RD_ERR_PARSE, name, 0, 0,
                            "expected text, got a NUL byte at offset %zu",
                            out->len + (size_t)(nul - dst));
            break;
        }
        if (lim->max && out->len + (size_t)n > lim->max) {
            s = too_big(name, lim, 0, false, d);
            break;
        }
        if (direct) {
            out->len += (size_t)n;
            out->ptr[out->len] = '\0';
        } else if (rd_buf_add(out, chunk, (size_t)n)) {
            s = rd_diag_set(d, RD_ERR_NOMEM, name, 0, 0, "out of memory");
            break;
        }
    }
    return s;
}

rd_status rd_read_input(const char *path, const struct rd_read_limits *lim,
                        struct rd_buf *out, struct rd_diag *d)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    int fd;
    struct stat st;
    bool have_stat;
    RD_TRY(open_input(path, name, lim, &fd, &st, &have_stat, d));
    rd_status s = read_fd(fd, name, &st, have_stat, lim, out, d);
    if (!is_stdin)
        close(fd);
    return s;
}

/* A regular file of 'len' bytes mapped read-only, followed by a NUL byte:
 * the file over the first pages of an anonymous mapping one byte longer,
 * so that the byte after the file is a zero of the page past its end
 * (or of the rest of its last page) whatever its length. NULL when it
 * cannot be mapped (the caller reads it then). */
static void *map_file(int fd, size_t len, size_t *maplen)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || len > SIZE_MAX - 2 * (size_t)page)
        return NULL;
    size_t total = (len + 1 + (size_t)page - 1) / (size_t)page * (size_t)page;
    void *base = mmap(NULL, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return NULL;
    if (mmap(base, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(base, total);
        return NULL;
    }
    /* Read once, front to back. */
    (void)madvise(base, len, MADV_SEQUENTIAL);
    *maplen = total;
    return base;
}

rd_status rd_map_input(const char *path, const struct rd_read_limits *lim,
                       struct rd_input *in, struct rd_diag *d)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    memset(in, 0, sizeof *in);
    in->buf = (struct rd_buf)RD_BUF_INIT;
    int fd;
    struct stat st;
    bool have_stat;
    RD_TRY(open_input(path, name, lim, &fd, &st, &have_stat, d));
    rd_status s = RD_OK;
    if (!is_stdin && have_stat && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (unsigned long long)st.st_size < SIZE_MAX / 2)
        in->map = map_file(fd, (size_t)st.st_size, &in->maplen);
    if (in->map) {
        in->ptr = in->map;
        in->len = (size_t)st.st_size;
    } else {
        s = read_fd(fd, name, &st, have_stat, lim, &in->buf, d);
        in->ptr = in->buf.ptr;
        in->len = in->buf.len;
    }
    if (!is_stdin)
        close(fd);
    return s;
}

void rd_input_release(struct rd_input *in)
{
    if (in->map)
        munmap(in->map, in->maplen);
    rd_buf_release(&in->buf);
    memset(in, 0, sizeof *in);
}

rd_status rd_read_file(const char *path, size_t max, struct rd_buf *out, struct rd_diag *d)
{
    struct rd_read_limits lim = { max, 0, NULL };
    return rd_read_input(path, &lim, out, d);
}

/* ---- the signal cleanup ---- */

struct cleanup_entry {
    char *path;  /* NULL: a free entry */
    bool tree;
};

static struct cleanup_entry cleanup[RD_CLEANUP_MAX];
static volatile pid_t cleanup_pid;
/* What a fatal SIGXFSZ prints, composed before any signal can come. */
static char xfsz_message[160];
static size_t xfsz_message_len;

static const int held_signals[] = { SIGINT, SIGTERM, SIGHUP };

void rd_signals_hold(sigset_t *saved)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof held_signals / sizeof held_signals[0]; i++)
        sigaddset(&set, held_signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, saved);
}

void rd_signals_release(const sigset_t *saved)
{
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/* Set by the first handler to run; it cleans up and ends the process. */
static atomic_flag cleaning = ATOMIC_FLAG_INIT;

/* Runs in the signal handler: only async-signal-safe calls. A handler
 * runs on the thread that got the signal, and a file-size limit signals
 * each thread that writes past it (render writes the workbook and the
 * CSVs at once): one cleans up and prints, any other waits here for the
 * process to end. Two at once printed the message twice. */
static void on_signal(int sig)
{
    if (atomic_flag_test_and_set(&cleaning))
        for (;;)
            pause();
    pid_t child = cleanup_pid;
    if (child > 0) {
        kill(child, SIGKILL);
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (sig == SIGXFSZ && xfsz_message_len) {
        ssize_t w = write(2, xfsz_message, xfsz_message_len);
        (void)w;
    }
    for (size_t i = RD_CLEANUP_MAX; i-- > 0;) {
        const char *p = cleanup[i].path;
        if (!p)
            continue;
        if (cleanup[i].tree)
            rd_remove_tree(p);
        else
            unlink(p);
    }
    /* Die of the same signal, so the caller sees 128 + sig. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

static void catch_signal(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* One cleanup at a time: the other signals wait for it. */
    for (size_t k = 0; k < sizeof held_signals / sizeof held_signals[0]; k++)
        sigaddset(&sa.sa_mask, held_signals[k]);
    sigaddset(&sa.sa_mask, SIGXFSZ);
    sigaction(sig, &sa, NULL);
}

void rd_cleanup_on_signals(bool xfsz_fatal, const char *prog)
{
    for (size_t i = 0; i < sizeof held_signals / sizeof held_signals[0]; i++) {
        struct sigaction old;
        /* nohup and `trap '' INT` mean "do not stop me": respected. */
        if (sigaction(held_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        catch_signal(held_signals[i]);
    }
    if (!xfsz_fatal) {
        signal(SIGXFSZ, SIG_IGN);
        return;
    }
    int n = snprintf(xfsz_message, sizeof xfsz_message,
                     "%s: a file grew past the file-size limit (ulimit -f); its outputs "
                     "are left as they were\n", prog);
    xfsz_message_len = n > 0 && (size_t)n < sizeof xfsz_message ? (size_t)n : 0;
    catch_signal(SIGXFSZ);
}

int rd_cleanup_add(const char *path, bool tree)
{
    char *copy = strdup(path);
    if (!copy)
        return -1;
    sigset_t saved;
    rd_signals_hold(&saved);
    int id = -1;
    for (int i = 0; i < RD_CLEANUP_MAX && id < 0; i++) {
        if (!cleanup[i].path) {
            cleanup[i].tree = tree;
            cleanup[i].path = copy;
            id = i;
        }
    }
    rd_signals_release(&saved);
    if (id < 0)
        free(copy);
    return id;
}

void rd_cleanup_drop(int id)
{
    if (id < 0 || id >= RD_CLEANUP_MAX)
        return;
    sigset_t saved;
    rd_signals_hold(&saved);
    char *p = cleanup[id].path;
    cleanup[id].path = NULL;
    rd_signals_release(&saved);
    free(p);
}

void rd_cleanup_child(pid_t pid)
{
    cleanup_pid = pid;
}

/* ---- removing a folder ---- */

/* getdents64's record; glibc's getdents64() wrapper is newer than the
 * systems rundown builds on, and readdir is not async-signal-safe. */
struct linux_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

#define TREE_DEPTH_MAX 16

/* Empties the folder open as fd (which it closes), depth levels deep at
 * most. Returns 0 or -1. Passes are repeated until one finds nothing left:
 * removing entries while reading a folder may make the read skip some. */
static int empty_dir(int fd, int depth)
{
    int rc = 0;
    for (;;) {
        bool removed = false, failed = false;
        char buf[4096] __attribute__((aligned(8)));
        lseek(fd, 0, SEEK_SET);
        for (;;) {
            long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
            if (n <= 0) {
                if (n < 0)
                    failed = true;
                break;
            }
            for (long off = 0; off < n;) {
                struct linux_dirent64 *e = (struct linux_dirent64 *)(buf + off);
                off += e->d_reclen;
                const char *nm = e->d_name;
                if (nm[0] == '.' && (nm[1] == '\0' || (nm[1] == '.' && nm[2] == '\0')))
                    continue;
                unsigned char type = e->d_type;
                if (type == DT_UNKNOWN) {
                    struct stat st;
                    type = fstatat(fd, nm, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)
                               ? DT_DIR : DT_REG;
                }
                if (type == DT_DIR) {
                    int sub = depth > 0 ? openat(fd, nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                                             O_CLOEXEC)
                                        : -1;
                    if (sub < 0 || empty_dir(sub, depth - 1) != 0 ||
                        unlinkat(fd, nm, AT_REMOVEDIR) != 0)
                        failed = true;
                    else
                        removed = true;
                } else if (unlinkat(fd, nm, 0) == 0) {
                    removed = true;
                } else {
                    failed = true;
                }
            }
        }
        if (failed && !removed) {
            rc = -1;
            break;
        }
        if (!removed)
            break;
    }
    close(fd);
    return rc;
}

int rd_remove_tree(const char *path)
{
    if (unlink(path) == 0)
        return 0;
    if (errno != EISDIR && errno != EPERM)
        return errno == ENOENT ? 0 : -1;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (empty_dir(fd, TREE_DEPTH_MAX) != 0)
        return -1;
    return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* ---- atomic writes ---- */

/* Opens an existing path that is not a regular file for writing, when it
 * is something a report can go to without replacing it. */
static rd_status open_special(struct rd_atomic_file *af, const char *path, mode_t mode,
                              struct rd_diag *d)
{
    int fd = -1;
    if (S_ISCHR(mode)) {
        fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    } else if (S_ISFIFO(mode)) {
        /* Without a reader this open fails (ENXIO) instead of waiting. */
        fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0 && errno == ENXIO)
            return rd_diag_set(d, RD_ERR_IO, path, 0, 0,
                               "expected a regular file, got a FIFO with no reader");
        int fl = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
        if (fl >= 0)
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    } else {
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "expected a regular file, got %s",
                           rd_file_kind(mode));
    }
    if (fd < 0)
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    af->f = fdopen(fd, "w");
    if (!af->f) {
        int e = errno;
        close(fd);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    return RD_OK;
}

rd_status rd_atomic_open(struct rd_atomic_file *af, const char *path, struct rd_diag *d)
{
    memset(af, 0, sizeof *af);
    af->cleanup = -1;
    size_t n = strlen(path);
    af->path = malloc(n + 1);
    af->tmp_path = malloc(n + 16);
    if (!af->path || !af->tmp_path) {
        free(af->path);
        free(af->tmp_path);
        memset(af, 0, sizeof *af);
        af->cleanup = -1;
        return rd_diag_set(d, RD_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    memcpy(af->path, path, n + 1);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        free(af->tmp_path);
        af->tmp_path = NULL;
        rd_status s = open_special(af, path, st.st_mode, d);
        if (s) {
            free(af->path);
            memset(af, 0, sizeof *af);
            af->cleanup = -1;
        }
        return s;
    }
    snprintf(af->tmp_path, n + 16, "%s.tmp.XXXXXX", path);
    rd_atomic_sweep(path);
    /* Held from mkstemp to the registration, so that a signal in between
     * does not leave the temporary behind. */
    sigset_t saved;
    rd_signals_hold(&saved);
    int fd = mkstemp(af->tmp_path);
    int e = errno;
    if (fd >= 0) {
        af->cleanup = rd_cleanup_add(af->tmp_path, false);
        /* Held until the commit or abort closes it: the mark of a live
         * writer to rd_atomic_sweep. */
        flock(fd, LOCK_EX | LOCK_NB);
    }
    rd_signals_release(&saved);
    if (fd < 0) {
        free(af->path);
        free(af->tmp_path);
        memset(af, 0, sizeof *af);
        af->cleanup = -1;
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot create: %s", strerror(e));
    }
    /* mkstemp makes 0600; outputs are ordinary files. */
    fchmod(fd, 0644);
    af->f = fdopen(fd, "w");
    if (!af->f) {
        e = errno;
        close(fd);
        rd_atomic_abort(af);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    return RD_OK;
}

int rd_atomic_sweep(const char *path)
{
    char dirbuf[PATH_MAX], basebuf[PATH_MAX];
    if (strlen(path) >= sizeof dirbuf)
        return 0;
    strcpy(dirbuf, path);
    strcpy(basebuf, path);
    const char *dir = dirname(dirbuf), *base = basename(basebuf);
    size_t blen = strlen(base);
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    int dfd = dirfd(dp), removed = 0;
    time_t now = time(NULL);
    const struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        /* "<base>.tmp." and mkstemp's six characters. */
        if (strncmp(e->d_name, base, blen) != 0 || strncmp(e->d_name + blen, ".tmp.", 5) != 0 ||
            strlen(e->d_name + blen + 5) != 6)
            continue;
        int fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct stat sb;
        /* A live writer holds its lock; the age covers the moment between
         * its mkstemp and its flock. */
        if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
            now - sb.st_mtime >= RD_ATOMIC_STALE_S && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
            unlinkat(dfd, e->d_name, 0) == 0)
            removed++;
        close(fd);
    }
    closedir(dp);
    return removed;
}

/* Frees af and forgets its temporary, which is gone or renamed by now. */
static void atomic_release(struct rd_atomic_file *af)
{
    rd_cleanup_drop(af->cleanup);
    free(af->path);
    free(af->tmp_path);
    memset(af, 0, sizeof *af);
    af->cleanup = -1;
}

void rd_atomic_abort(struct rd_atomic_file *af)
{
    if (af->f)
        fclose(af->f);
    if (af->tmp_path)
        unlink(af->tmp_path);
    atomic_release(af);
}

void rd_atomic_writeback(struct rd_atomic_file *af)
{
    if (!af->f || !af->tmp_path)
        return;
    off_t at = ftello(af->f);
    if (at < 0 || at - af->synced < RD_ATOMIC_WRITEBACK_BYTES || fflush(af->f) != 0)
        return;
    /* WRITE alone: the I/O is queued, not waited for; the fsync of the
     * commit still makes the file durable. */
    (void)sync_file_range(fileno(af->f), (off_t)af->synced, at - (off_t)af->synced,
                          SYNC_FILE_RANGE_WRITE);
    af->synced = at;
}

rd_status rd_atomic_commit(struct rd_atomic_file *af, struct rd_diag *d)
{
    rd_status s = RD_OK;
    int e = 0;
    errno = 0;
    if (fflush(af->f) != 0 || ferror(af->f))
        e = errno ? errno : EIO;
    /* Devices and pipes cannot be synced (EINVAL, EROFS): that is fine. */
    if (!e && af->tmp_path && fsync(fileno(af->f)) != 0)
        e = errno;
    if (fclose(af->f) != 0 && !e)
        e = errno;
    af->f = NULL;
    if (!e && af->tmp_path && rename(af->tmp_path, af->path) != 0)
        e = errno;
    if (e) {
        if (af->tmp_path)
            unlink(af->tmp_path);
        s = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s", af->path,
                        strerror(e));
        if (d)
            d->path = NULL;
    }
    atomic_release(af);
    return s;
}

rd_status rd_write_file_atomic(const char *path, const void *data, size_t len,
                               struct rd_diag *d)
{
    struct rd_atomic_file af;
    rd_status s = rd_atomic_open(&af, path, d);
    if (s)
        return s;
    if (len && fwrite(data, 1, len, af.f) != len) {
        int e = errno;
        rd_atomic_abort(&af);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot write: %s", strerror(e));
    }
    return rd_atomic_commit(&af, d);
}

rd_status rd_mkdir_p(const char *path, struct rd_diag *d)
{
    size_t n = strlen(path);
    char *p = malloc(n + 1);
    if (!p)
        return rd_diag_set(d, RD_ERR_NOMEM, path, 0, 0, "out of memory");
    memcpy(p, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] == '/' || p[i] == '\0') {
            char c = p[i];
            p[i] = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST) {
                int e = errno;
                free(p);
                return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot create folder: %s",
                                   strerror(e));
            }
            p[i] = c;
        }
    }
    free(p);
    return RD_OK;
}

void rd_path_dirname(const char *path, char *out, size_t size)
{
    char *copy = strdup(path ? path : ".");
    snprintf(out, size, "%s", copy ? dirname(copy) : ".");
    free(copy);
}

rd_status rd_path_relative(const char *path, const char *dir, struct rd_buf *out,
                           struct rd_diag *d)
{
    char p[PATH_MAX], base[PATH_MAX];
    if (!realpath(path, p))
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot resolve: %s", strerror(errno));
    if (!realpath(dir, base))
        return rd_diag_set(d, RD_ERR_IO, dir, 0, 0, "cannot resolve: %s", strerror(errno));
    /* The longest common run of whole components (real paths are
     * absolute, without "." or ".." or doubled slashes). */
    size_t common = 0;
    for (size_t i = 0;; i++) {
        bool pend = p[i] == '\0' || p[i] == '/', bend = base[i] == '\0' || base[i] == '/';
        if (pend && bend)
            common = i;
        if (p[i] != base[i] || p[i] == '\0' || base[i] == '\0')
            break;
    }
    size_t ups = 0;
    for (const char *q = base + common; *q; q++)
        if (*q == '/' && q[1] && q[1] != '/')
            ups++;
    const char *rest = p + common;
    while (*rest == '/')
        rest++;
    for (size_t i = 0; i < ups; i++)
        RD_TRY(rd_buf_addstr(out, i ? "/.." : ".."));
    if (*rest)
        RD_TRY(rd_buf_addf(out, "%s%s", ups ? "/" : "", rest));
    else if (!ups)
        RD_TRY(rd_buf_addch(out, '.'));
    return RD_OK;
}

rd_status rd_fds_check(int need, const char *what, const char *needs, const char *hint,
                       struct rd_diag *d)
{
    int fds[32], n = 0, e = 0;
    if (need > 32)
        need = 32;
    while (n < need) {
        fds[n] = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fds[n] < 0) {
            e = errno;
            break;
        }
        n++;
    }
    for (int i = 0; i < n; i++)
        close(fds[i]);
    if (n == need || (e != EMFILE && e != ENFILE))
        return RD_OK;  /* no /dev/null: nothing to judge by */
    struct rlimit rl;
    char limit[64] = "";
    if (e == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        snprintf(limit, sizeof limit, " (ulimit -n is %llu)", (unsigned long long)rl.rlim_cur);
    return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0,
                       "cannot %s: %s%s; %s need %d open files besides standard input, output "
                       "and error, and %d %s left (raise ulimit -n%s%s)",
                       what, strerror(e), limit, needs, need, n, n == 1 ? "is" : "are",
                       hint ? ", or " : "", hint ? hint : "");
}

bool rd_file_line(const char *root, const char *rel, char *buf, size_t size)
{
    char path[4096];
    if (root)
        snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(root ? path : rel, "re");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

bool rd_file_field(const char *path, const char *key, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[1024];
    size_t kl = strlen(key);
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) != 0)
            continue;
        char *p = line + kl;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != ':' && *p != '=')
            continue;
        p++;
        while (*p == ' ' || *p == '\t' || *p == '"')
            p++;
        size_t len = strcspn(p, "\n");
        while (len && (p[len - 1] == ' ' || p[len - 1] == '"'))
            len--;
        snprintf(out, size, "%.*s", (int)len, p);
        found = true;
    }
    fclose(f);
    return found;
}
