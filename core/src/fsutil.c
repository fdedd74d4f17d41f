/*
 * fsutil - whole-file reads, atomic writes (temporary name, fsync, rename)
 * and mkdir -p.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundown/fsutil.h"

rd_status rd_read_file(const char *path, size_t max, struct rd_buf *out, struct rd_diag *d)
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return rd_diag_set(d, RD_ERR_IO, name, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            close(fd);
        return rd_diag_set(d, RD_ERR_IO, name, 0, 0, "cannot read: is a directory");
    }
    rd_buf_reset(out);
    rd_status s = RD_OK;
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            s = rd_diag_set(d, RD_ERR_IO, name, 0, 0, "cannot read: %s", strerror(errno));
            break;
        }
        if (n == 0)
            break;
        if (max && out->len + (size_t)n > max) {
            s = rd_diag_set(d, RD_ERR_IO, name, 0, 0, "input larger than %zu bytes", max);
            break;
        }
        if (rd_buf_add(out, chunk, (size_t)n)) {
            s = rd_diag_set(d, RD_ERR_NOMEM, name, 0, 0, "out of memory");
            break;
        }
    }
    if (!is_stdin)
        close(fd);
    return s;
}

rd_status rd_atomic_open(struct rd_atomic_file *af, const char *path, struct rd_diag *d)
{
    memset(af, 0, sizeof *af);
    size_t n = strlen(path);
    af->path = malloc(n + 1);
    af->tmp_path = malloc(n + 16);
    if (!af->path || !af->tmp_path) {
        free(af->path);
        free(af->tmp_path);
        memset(af, 0, sizeof *af);
        return rd_diag_set(d, RD_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    memcpy(af->path, path, n + 1);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        free(af->tmp_path);
        af->tmp_path = NULL;
        af->f = fopen(path, "w");
        if (!af->f) {
            int e = errno;
            free(af->path);
            memset(af, 0, sizeof *af);
            return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open: %s", strerror(e));
        }
        return RD_OK;
    }
    snprintf(af->tmp_path, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(af->tmp_path);
    if (fd < 0) {
        int e = errno;
        free(af->path);
        free(af->tmp_path);
        memset(af, 0, sizeof *af);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot create: %s", strerror(e));
    }
    /* mkstemp makes 0600; outputs are ordinary files. */
    fchmod(fd, 0644);
    af->f = fdopen(fd, "w");
    if (!af->f) {
        int e = errno;
        close(fd);
        unlink(af->tmp_path);
        free(af->path);
        free(af->tmp_path);
        memset(af, 0, sizeof *af);
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    return RD_OK;
}

void rd_atomic_abort(struct rd_atomic_file *af)
{
    if (af->f) {
        fclose(af->f);
        if (af->tmp_path)
            unlink(af->tmp_path);
    }
    free(af->path);
    free(af->tmp_path);
    memset(af, 0, sizeof *af);
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
    free(af->path);
    free(af->tmp_path);
    memset(af, 0, sizeof *af);
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
