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
#include <limits.h>
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

static int finish_commit(const char *dir, const char *stage);

/* Removes the staging folders in dir whose render is gone: each live one
 * is locked by its render, so a lock that can be taken marks a leftover
 * (of a SIGKILL or a crash). A leftover killed during its commit is
 * finished first, so the folder holds that render's report whole. */
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
            /* A commit that cannot be finished (a rename refused) keeps
             * the folder: it holds entries of a report, for a later try. */
            if (p && finish_commit(dir, p) == 0)
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

/* Creates 'path' (which must not exist) with 'data' and fsyncs it: without
 * the fsync a crash after the rename could leave an empty file under the
 * real name. */
static rd_status write_synced(const char *path, const void *data, size_t len, struct rd_diag *d)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create '%s': %s",
                           path, strerror(errno));
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s",
                               path, strerror(e));
        }
        p += w;
        len -= (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s",
                           path, strerror(errno));
    return RD_OK;
}

rd_status rd_stage_write(struct rd_stage *s, const char *rel, const void *data, size_t len,
                         struct rd_diag *d)
{
    const char *tmp;
    RD_TRY(rd_stage_reserve(s, rel, &tmp, d));
    return write_synced(tmp, data, len, d);
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

/* ---- the journal: a commit killed part-way is finished by the next render ----
 *
 * The renames of a commit are one per entry, so SIGKILL or a crash between
 * two of them leaves some entries new and some old. Before the first rename
 * the commit writes what it will do into the staging folder (".commit", a
 * symbolic link whose target is the text): each entry's name and, for an
 * entry moved in, the identity (device and inode) of the new version, which
 * rename keeps. A leftover staging folder holding a journal is then a
 * commit that did not finish, and the next render into the folder (its
 * sweep) finishes it: an entry whose new version is still in the staging
 * folder is moved in, so the folder holds the killed render's report
 * whole, as if the kill had come after the commit. */

#define JOURNAL_NAME ".commit"
#define JOURNAL_MAGIC "rundown-stage-commit 1\n"

void rd_stage_journal_free(struct rd_stage_journal_entry *es, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(es[i].name);
    free(es);
}

/* A decimal number of a journal line, up to the next blank. */
static bool journal_number(const char **p, const char *end, unsigned long long *out)
{
    unsigned long long v = 0;
    const char *q = *p;
    for (; q < end && *q >= '0' && *q <= '9'; q++) {
        unsigned digit = (unsigned)(*q - '0');
        if (v > (ULLONG_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    if (q == *p || q == end || *q != ' ')
        return false;
    *p = q + 1;
    *out = v;
    return true;
}

rd_status rd_stage_journal_parse(const char *text, size_t len,
                                 struct rd_stage_journal_entry **out, size_t *n,
                                 struct rd_diag *d)
{
    *out = NULL;
    *n = 0;
    size_t magic = strlen(JOURNAL_MAGIC);
    if (len < magic || memcmp(text, JOURNAL_MAGIC, magic) != 0)
        return rd_diag_set(d, RD_ERR_PARSE, NULL, 1, 1, "expected \"%.*s\"",
                           (int)magic - 1, JOURNAL_MAGIC);
    struct rd_stage_journal_entry *es = NULL;
    size_t count = 0, cap = 0;
    const char *p = text + magic, *end = text + len;
    for (unsigned line = 2; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) {
            rd_stage_journal_free(es, count);
            return rd_diag_set(d, RD_ERR_PARSE, NULL, line, 1,
                               "expected a line ending in a newline (the journal is cut)");
        }
        struct rd_stage_journal_entry e = {0};
        const char *q = p;
        bool ok;
        if ((size_t)(eol - q) > 7 && memcmp(q, "retire ", 7) == 0) {
            e.retire = true;
            q += 7;
            ok = true;
        } else {
            ok = (size_t)(eol - q) > 5 && memcmp(q, "swap ", 5) == 0;
            q += ok ? 5 : 0;
            ok = ok && journal_number(&q, eol, &e.dev) && journal_number(&q, eol, &e.ino);
        }
        /* The name is renamed in the output folder: one plain name only. */
        size_t name_len = (size_t)(eol - q);
        ok = ok && name_len > 0 && name_len <= 255 && !memchr(q, '/', name_len) &&
             !memchr(q, '\0', name_len) && !(name_len == 1 && q[0] == '.') &&
             !(name_len == 2 && q[0] == '.' && q[1] == '.');
        if (!ok) {
            rd_stage_journal_free(es, count);
            return rd_diag_set(d, RD_ERR_PARSE, NULL, line, (unsigned)(q - p) + 1,
                               "expected \"swap DEVICE INODE NAME\" or \"retire NAME\", "
                               "NAME one name without '/'");
        }
        rd_status st = RD_ARRAY_GROW(es, cap, count + 1);
        e.name = st == RD_OK ? strndup(q, name_len) : NULL;
        if (!e.name) {
            rd_stage_journal_free(es, count);
            return RD_ERR_NOMEM;
        }
        es[count++] = e;
        p = eol + 1;
    }
    *out = es;
    *n = count;
    return RD_OK;
}

/* Writes the journal of the entries into the staging folder, as the target
 * of a symbolic link: made whole in one step by symlink(2), read by
 * readlink(2), and neither needs a file descriptor, so a commit needs none
 * more than before (render counts them first: ulimit -n). Its size is
 * bounded by the render's few output names, far below PATH_MAX. */
static rd_status write_journal(const struct rd_stage *s, const struct entry *es, size_t n,
                               struct rd_diag *d)
{
    struct rd_buf b = RD_BUF_INIT, path = RD_BUF_INIT;
    rd_status st = rd_buf_addstr(&b, JOURNAL_MAGIC);
    for (size_t i = 0; i < n && st == RD_OK; i++) {
        struct stat sb;
        if (es[i].retire)
            st = rd_buf_addf(&b, "retire %s\n", es[i].name);
        else if (lstat(es[i].src, &sb) != 0)
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot read '%s': %s", es[i].src,
                             strerror(errno));
        else
            st = rd_buf_addf(&b, "swap %llu %llu %s\n", (unsigned long long)sb.st_dev,
                             (unsigned long long)sb.st_ino, es[i].name);
    }
    if (st == RD_OK)
        st = rd_buf_addf(&path, "%s/%s", s->path, JOURNAL_NAME);
    if (st == RD_OK && symlink(b.ptr, path.ptr) != 0)
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s", path.ptr,
                         strerror(errno));
    if (st == RD_OK)
        sync_path(s->path);
    rd_buf_release(&b);
    rd_buf_release(&path);
    return st;
}

/* Whether path is the file with that identity. */
static bool is_version(const char *path, const struct rd_stage_journal_entry *j)
{
    struct stat sb;
    return lstat(path, &sb) == 0 && (unsigned long long)sb.st_dev == j->dev &&
           (unsigned long long)sb.st_ino == j->ino;
}

/* Finishes the commit journalled in the leftover staging folder 'stage' of
 * 'dir' (nothing when it holds no journal, or one that does not read: a
 * journal is complete before the first rename). An entry whose new version
 * is no longer in the staging folder (removed by hand) is left as it is.
 * 0, or -1 when a rename is refused. */
static int finish_commit(const char *dir, const char *stage)
{
    char text[PATH_MAX + 1];
    struct rd_stage_journal_entry *js = NULL;
    size_t n = 0;
    int rc = 0;
    char *path = join(stage, "/", JOURNAL_NAME);
    ssize_t len = path ? readlink(path, text, sizeof text) : -1;
    free(path);
    if (len < 0 || (size_t)len >= sizeof text ||
        rd_stage_journal_parse(text, (size_t)len, &js, &n, NULL) != RD_OK)
        n = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const struct rd_stage_journal_entry *j = &js[i];
        struct entry e = {.name = j->name, .retire = j->retire};
        e.src = join(stage, j->retire ? "/.retired-" : "/", j->name);
        e.dst = join(dir, "/", j->name);
        e.aside = join(stage, "/.previous-", j->name);
        struct stat sb;
        if (!e.src || !e.dst || !e.aside)
            rc = -1;
        else if (j->retire ? lstat(e.src, &sb) != 0 && lstat(e.dst, &sb) == 0
                           : !is_version(e.dst, j) && is_version(e.src, j))
            rc = move_in(&e);
        free(e.src);
        free(e.dst);
        free(e.aside);
    }
    if (n > 0)
        sync_path(dir);
    rd_stage_journal_free(js, n);
    return rc;
}

/* The journal of a commit that was undone: nothing to finish. */
static void drop_journal(const char *stage)
{
    char *p = stage ? join(stage, "/", JOURNAL_NAME) : NULL;
    if (p)
        unlink(p);
    free(p);
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
    st = write_journal(s, es, n, d);
    for (; st == RD_OK && done < n; done++) {
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
        drop_journal(s->path);
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
