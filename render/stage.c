/*
 * stage - the staging folder of one render and its commit by renames.
 *
 * rundown/fsutil.h renames each file as soon as it is written; a report is
 * several files (Markdown, HTML, workbook, charts) that must change
 * together, so they are written into a folder of their own and moved into
 * place at the end, each entry by one rename that swaps it with the
 * previous version. The staging folder sits inside the output folder, so
 * rename(2) never crosses file systems. stage.h states the rules.
 */
#include "stage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundown/array.h"
#include "rundown/fsutil.h"

static char *join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", a, b, c);
    return p;
}

/* The output folder, locked: stage creation and commits of renders into
 * one folder take turns, so a sweep never meets a folder not yet locked
 * and two commits never interleave their renames. -1 when it cannot be
 * opened (the caller's next step reports why). */
static int lock_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0)
        while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
            ;
    return fd;
}

/* Removes the staging folders in dir whose render is gone: each live one
 * is locked by its render, so a lock that can be taken marks a leftover
 * (of a SIGKILL or a crash). */
static void sweep(int dirfd, const char *dir)
{
    int fd = dup(dirfd);
    DIR *dp = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dp) {
        if (fd >= 0)
            close(fd);
        return;
    }
    const struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (strncmp(e->d_name, RD_STAGE_PREFIX, strlen(RD_STAGE_PREFIX)) != 0)
            continue;
        int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0)
            continue;
        if (flock(sub, LOCK_EX | LOCK_NB) == 0) {
            char *p = join(dir, "/", e->d_name);
            if (p)
                rd_remove_tree(p);
            free(p);
        }
        close(sub);
    }
    closedir(dp);
}

rd_status rd_stage_init(struct rd_stage *s, const char *dir, struct rd_diag *d)
{
    memset(s, 0, sizeof *s);
    s->lock_fd = -1;
    s->cleanup = -1;
    s->dir = strdup(dir);
    s->path = join(dir, "/", RD_STAGE_PREFIX "XXXXXX");
    if (!s->dir || !s->path)
        return RD_ERR_NOMEM;
    int dirfd = lock_dir(dir);
    if (dirfd >= 0)
        sweep(dirfd, dir);
    /* Held from mkdtemp to the registration: a signal in between would
     * leave a staging folder nobody removes until the next render. */
    sigset_t saved;
    rd_signals_hold(&saved);
    rd_status st = RD_OK;
    if (!mkdtemp(s->path)) {
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create a staging folder in '%s': %s",
                         dir, strerror(errno));
        free(s->path);
        s->path = NULL;
    } else {
        s->cleanup = rd_cleanup_add(s->path, true);
        s->lock_fd = open(s->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (s->lock_fd >= 0)
            flock(s->lock_fd, LOCK_EX);
    }
    rd_signals_release(&saved);
    if (dirfd >= 0)
        close(dirfd);
    return st;
}

/* The item for rel, with its folder made; the status says what failed
 * (no message for RD_ERR_NOMEM). */
static rd_status add_item(struct rd_stage *s, const char *rel, struct rd_stage_item **out,
                          struct rd_diag *d)
{
    RD_TRY(RD_ARRAY_GROW(s->items, s->cap, s->n + 1));
    struct rd_stage_item *it = &s->items[s->n];
    it->rel = strdup(rel);
    it->tmp = join(s->path, "/", rel);
    if (!it->rel || !it->tmp) {
        free(it->rel);
        free(it->tmp);
        return RD_ERR_NOMEM;
    }
    s->n++;
    /* The one folder a name may hold ("charts/"). */
    const char *slash = strchr(rel, '/');
    if (slash) {
        struct rd_buf b = RD_BUF_INIT;
        rd_status st = rd_buf_addf(&b, "%s/%.*s", s->path, (int)(slash - rel), rel);
        if (st == RD_OK && mkdir(b.ptr, 0755) != 0 && errno != EEXIST)
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create '%s': %s", b.ptr,
                             strerror(errno));
        rd_buf_release(&b);
        RD_TRY(st);
    }
    *out = it;
    return RD_OK;
}

rd_status rd_stage_reserve(struct rd_stage *s, const char *rel, const char **tmp,
                           struct rd_diag *d)
{
    struct rd_stage_item *it;
    RD_TRY(add_item(s, rel, &it, d));
    *tmp = it->tmp;
    return RD_OK;
}

rd_status rd_stage_write(struct rd_stage *s, const char *rel, const void *data, size_t len,
                         struct rd_diag *d)
{
    const char *tmp;
    RD_TRY(rd_stage_reserve(s, rel, &tmp, d));
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create '%s': %s",
                           tmp, strerror(errno));
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s",
                               tmp, strerror(e));
        }
        p += w;
        len -= (size_t)w;
    }
    /* Without the fsync a crash after the rename could leave an empty file
     * under the real name. */
    if (fsync(fd) != 0 || close(fd) != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s",
                           tmp, strerror(errno));
    return RD_OK;
}

const char *rd_stage_tmp(const struct rd_stage *s, const char *rel)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->items[i].rel, rel) == 0)
            return s->items[i].tmp;
    return NULL;
}

bool rd_stage_has(const struct rd_stage *s, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < s->n; i++) {
        const char *rel = s->items[i].rel;
        if (strncmp(rel, name, len) == 0 && (rel[len] == '\0' || rel[len] == '/'))
            return true;
    }
    return false;
}

rd_status rd_stage_retire(struct rd_stage *s, const char *name)
{
    RD_TRY(RD_ARRAY_GROW(s->retired, s->rcap, s->nretired + 1));
    s->retired[s->nretired] = strdup(name);
    if (!s->retired[s->nretired])
        return RD_ERR_NOMEM;
    s->nretired++;
    return RD_OK;
}

/* ---- the commit ---- */

/* How an entry got into place, so that it can be put back. */
enum moved {
    MOVED_NOT,       /* not yet */
    MOVED_SWAPPED,   /* exchanged with the previous version, now in the stage */
    MOVED_NEW,       /* there was no previous version */
    MOVED_TWO_STEPS, /* previous version renamed to 'aside', then the new one in */
    MOVED_OUT        /* a retired entry, moved from the output folder to src */
};

struct entry {
    char *name;   /* "report.md", "charts" */
    char *src;    /* in the staging folder */
    char *dst;    /* in the output folder */
    char *aside;  /* the previous version during a two-step move */
    bool retire;  /* moved out of the output folder, not into it */
    enum moved how;
};

static int move_in(struct entry *e)
{
    struct stat st;
    if (e->retire) {
        /* Gone meanwhile: nothing to retire. */
        if (rename(e->dst, e->src) != 0)
            return errno == ENOENT ? 0 : -1;
        e->how = MOVED_OUT;
        return 0;
    }
    if (lstat(e->dst, &st) != 0) {
        if (errno != ENOENT || rename(e->src, e->dst) != 0)
            return -1;
        e->how = MOVED_NEW;
        return 0;
    }
    if (renameat2(AT_FDCWD, e->src, AT_FDCWD, e->dst, RENAME_EXCHANGE) == 0) {
        e->how = MOVED_SWAPPED;
        return 0;
    }
    /* A file system without the exchange (EINVAL): the previous version is
     * renamed aside first, so for a moment the name is missing, never
     * mixed. */
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
        return -1;
    if (rename(e->dst, e->aside) != 0)
        return -1;
    if (rename(e->src, e->dst) != 0) {
        int err = errno;
        rename(e->aside, e->dst);
        errno = err;
        return -1;
    }
    e->how = MOVED_TWO_STEPS;
    return 0;
}

static int move_back(struct entry *e)
{
    switch (e->how) {
    case MOVED_SWAPPED:
        return renameat2(AT_FDCWD, e->src, AT_FDCWD, e->dst, RENAME_EXCHANGE);
    case MOVED_NEW:
        return rename(e->dst, e->src);
    case MOVED_OUT:
        return rename(e->src, e->dst);
    case MOVED_TWO_STEPS:
        return rename(e->dst, e->src) == 0 ? rename(e->aside, e->dst) : -1;
    case MOVED_NOT:
        break;
    }
    return 0;
}

static void sync_path(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* The entries in staging order: the first part of each staged name. */
static rd_status list_entries(const struct rd_stage *s, struct entry **out, size_t *n)
{
    struct entry *es = calloc(s->n + s->nretired + 1, sizeof *es);
    if (!es)
        return RD_ERR_NOMEM;
    size_t k = 0;
    rd_status st = RD_OK;
    /* The retired first: a name is never both retired and staged. */
    for (size_t i = 0; i < s->nretired && st == RD_OK; i++) {
        struct entry *e = &es[k++];
        e->retire = true;
        e->name = strdup(s->retired[i]);
        e->src = e->name ? join(s->path, "/.retired-", e->name) : NULL;
        e->dst = e->name ? join(s->dir, "/", e->name) : NULL;
        e->aside = e->name ? strdup("") : NULL;
        if (!e->src || !e->dst || !e->aside)
            st = RD_ERR_NOMEM;
    }
    for (size_t i = 0; i < s->n && st == RD_OK; i++) {
        const char *rel = s->items[i].rel;
        size_t len = strcspn(rel, "/");
        bool seen = false;
        for (size_t j = s->nretired; j < k && !seen; j++)
            seen = strlen(es[j].name) == len && strncmp(es[j].name, rel, len) == 0;
        if (seen)
            continue;
        struct entry *e = &es[k++];
        e->name = strndup(rel, len);
        e->src = e->name ? join(s->path, "/", e->name) : NULL;
        e->dst = e->name ? join(s->dir, "/", e->name) : NULL;
        e->aside = e->name ? join(s->path, "/.previous-", e->name) : NULL;
        if (!e->src || !e->dst || !e->aside)
            st = RD_ERR_NOMEM;
    }
    *out = es;
    *n = k;
    return st;
}

static void entries_free(struct entry *es, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(es[i].name);
        free(es[i].src);
        free(es[i].dst);
        free(es[i].aside);
    }
    free(es);
}

/* After an undo that failed: the previous versions still in the staging
 * folder must outlive this render, under a name the sweep leaves alone. */
static void keep_stage(struct rd_stage *s, struct rd_diag *d)
{
    struct rd_buf kept = RD_BUF_INIT;
    if (rd_buf_addf(&kept, "%s/rundown-previous.%ld", s->dir, (long)getpid()) != RD_OK ||
        rename(s->path, kept.ptr) != 0) {
        rd_buf_reset(&kept);
        rd_buf_addstr(&kept, s->path);
    }
    rd_cleanup_drop(s->cleanup);
    s->cleanup = -1;
    free(s->path);
    s->path = NULL;
    if (d) {
        size_t len = strlen(d->msg);
        snprintf(d->msg + len, sizeof d->msg - len,
                 "; the previous report could not be put back whole: what is not in '%s' "
                 "is in '%s'", s->dir, kept.ptr);
    }
    rd_buf_release(&kept);
}

rd_status rd_stage_commit(struct rd_stage *s, struct rd_diag *d)
{
    struct entry *es = NULL;
    size_t n = 0;
    rd_status st = list_entries(s, &es, &n);
    if (st != RD_OK) {
        entries_free(es, n);
        return st;
    }
    int dirfd = lock_dir(s->dir);
    sigset_t saved;
    rd_signals_hold(&saved);
    size_t done = 0;
    for (; done < n; done++) {
        if (move_in(&es[done]) != 0) {
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot move '%s' into place: %s",
                             es[done].dst, strerror(errno));
            if (d)
                d->path = NULL;
            break;
        }
    }
    if (st != RD_OK) {
        bool whole = true;
        for (size_t i = done; i-- > 0;)
            if (move_back(&es[i]) != 0)
                whole = false;
        if (!whole)
            keep_stage(s, d);
    } else {
        sync_path(s->dir);
        for (size_t i = 0; i < n; i++) {
            struct stat sb;
            if (lstat(es[i].dst, &sb) == 0 && S_ISDIR(sb.st_mode))
                sync_path(es[i].dst);
        }
    }
    rd_signals_release(&saved);
    if (dirfd >= 0)
        close(dirfd);
    entries_free(es, n);
    return st;
}

void rd_stage_release(struct rd_stage *s)
{
    /* After a commit the staging folder holds the previous versions; after
     * a failure, the new files. Either way it goes, then its entry. Its
     * lock is let go first: the removal needs that descriptor when open
     * files run short (ulimit -n). */
    if (s->lock_fd >= 0)
        close(s->lock_fd);
    s->lock_fd = -1;
    if (s->path)
        rd_remove_tree(s->path);
    rd_cleanup_drop(s->cleanup);
    for (size_t i = 0; i < s->n; i++) {
        free(s->items[i].rel);
        free(s->items[i].tmp);
    }
    free(s->items);
    for (size_t i = 0; i < s->nretired; i++)
        free(s->retired[i]);
    free(s->retired);
    free(s->dir);
    free(s->path);
    memset(s, 0, sizeof *s);
    s->lock_fd = -1;
    s->cleanup = -1;
}
