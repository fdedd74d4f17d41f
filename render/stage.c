/*
 * stage - temporary files for one render and their commit by rename.
 *
 * rundown/fsutil.h renames each file as soon as it is written; a report is
 * several files (Markdown, HTML, workbook, charts) that must change
 * together, so the renames are deferred to rd_stage_commit. Temporaries sit
 * in the destination folder so rename(2) never crosses file systems.
 */
#include "stage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rundown/array.h"

rd_status rd_stage_init(struct rd_stage *s, const char *dir)
{
    memset(s, 0, sizeof *s);
    s->dir = strdup(dir);
    snprintf(s->suffix, sizeof s->suffix, ".tmp.%ld", (long)getpid());
    return s->dir ? RD_OK : RD_ERR_NOMEM;
}

static char *join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", a, b, c);
    return p;
}

static struct rd_stage_item *add_item(struct rd_stage *s, const char *rel, const char *suffix)
{
    if (RD_ARRAY_GROW(s->items, s->cap, s->n + 1) != RD_OK)
        return NULL;
    struct rd_stage_item *it = &s->items[s->n];
    it->final = join(s->dir, "/", rel);
    char sfx[64];
    if (!suffix) {
        snprintf(sfx, sizeof sfx, ".tmp.%ld.%u", (long)getpid(), s->counter++);
        suffix = sfx;
    }
    it->tmp = it->final ? join(it->final, suffix, "") : NULL;
    if (!it->final || !it->tmp) {
        free(it->final);
        free(it->tmp);
        return NULL;
    }
    it->rel = it->final + strlen(s->dir) + 1;
    s->n++;
    return it;
}

rd_status rd_stage_write(struct rd_stage *s, const char *rel, const char *suffix,
                         const void *data, size_t len, struct rd_diag *d)
{
    struct rd_stage_item *it = add_item(s, rel, suffix);
    if (!it)
        return RD_ERR_NOMEM;
    /* A fixed name may be left over from a render that was killed. */
    if (suffix)
        unlink(it->tmp);
    int fd = open(it->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create '%s': %s",
                           it->tmp, strerror(errno));
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s",
                               it->tmp, strerror(e));
        }
        p += w;
        len -= (size_t)w;
    }
    /* Without the fsync a crash after the rename could leave an empty file
     * under the real name. */
    if (fsync(fd) != 0 || close(fd) != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write '%s': %s",
                           it->tmp, strerror(errno));
    return RD_OK;
}

rd_status rd_stage_reserve(struct rd_stage *s, const char *rel, const char *suffix,
                           const char **tmp)
{
    struct rd_stage_item *it = add_item(s, rel, suffix);
    if (!it)
        return RD_ERR_NOMEM;
    *tmp = it->tmp;
    return RD_OK;
}

const char *rd_stage_tmp(const struct rd_stage *s, const char *rel)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->items[i].tmp && strcmp(s->items[i].rel, rel) == 0)
            return s->items[i].tmp;
    return NULL;
}

static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

rd_status rd_stage_commit(struct rd_stage *s, struct rd_diag *d)
{
    for (size_t i = 0; i < s->n; i++) {
        struct rd_stage_item *it = &s->items[i];
        if (rename(it->tmp, it->final) != 0)
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot rename '%s' to '%s': %s",
                               it->tmp, it->final, strerror(errno));
        free(it->tmp);
        it->tmp = NULL;
    }
    sync_dir(s->dir);
    /* Chart files live one folder down. */
    for (size_t i = 0; i < s->n; i++) {
        const char *slash = strchr(s->items[i].rel, '/');
        if (slash) {
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%.*s", s->dir, (int)(slash - s->items[i].rel),
                     s->items[i].rel);
            sync_dir(sub);
            break;
        }
    }
    return RD_OK;
}

void rd_stage_release(struct rd_stage *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->items[i].tmp) {
            unlink(s->items[i].tmp);
            free(s->items[i].tmp);
        }
        free(s->items[i].final);
    }
    free(s->items);
    free(s->dir);
    memset(s, 0, sizeof *s);
}
