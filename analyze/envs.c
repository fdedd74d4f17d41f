/*
 * envs.c - the environments the runs name: each id once, and its
 * rundown.env/1 file <store's folder>/<id>.json read into the analysis
 * (docs/analysis.md, "environments"), after the store that named it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "envs.h"
#include "analysis_int.h"
#include "rundown/analysis_keys.h"
#include "rundown/array.h"
#include "rundown/fsutil.h"
#include "rundown/json.h"

static const char *dir_of(struct rd_analysis *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || strcmp(path, "-") == 0)
        return ".";
    if (slash == path)
        return "/";
    return rd_arena_strndup(&a->strings, path, (size_t)(slash - path));
}

rd_status rd_envs_note(struct rd_analysis *a, const char *env, const char *path,
                       const char **interned)
{
    for (size_t i = 0; i < a->nenvs; i++)
        if (strcmp(a->envs[i].id, env) == 0) {
            *interned = a->envs[i].id;
            return RD_OK;
        }
    RD_TRY(RD_ARRAY_GROW(a->envs, a->capenvs, a->nenvs + 1));
    struct envref *e = &a->envs[a->nenvs];
    memset(e, 0, sizeof *e);
    e->id = rd_arena_strdup(&a->strings, env);
    e->dir = dir_of(a, path);
    if (!e->id || !e->dir)
        return RD_ERR_NOMEM;
    a->nenvs++;
    *interned = e->id;
    return RD_OK;
}

/* An env id names a file next to the store; refuse ids that could name
 * anything else. */
static bool safe_env_id(const char *id)
{
    return *id && *id != '.' && !strchr(id, '/') && !strchr(id, '\\');
}

/* Reads e's file <dir>/<id>.json, when there is one, into e->json: the
 * rundown.env/1 object on one line, with an "id" added if it lacks one. A
 * file that exists but is no such object is RD_ERR_PARSE naming it. */
static rd_status load_env(struct rd_analysis *a, struct envref *e, struct rd_buf *tmp,
                          struct rd_diag *d)
{
    e->loaded = true;
    if (!safe_env_id(e->id))
        return RD_OK;
    size_t n = strlen(e->dir) + strlen(e->id) + 8;
    char *path = rd_arena_alloc(&a->strings, n);
    if (!path)
        return RD_ERR_NOMEM;
    snprintf(path, n, "%s/%s.json", e->dir, e->id);
    /* stat, not a trial open: opening a FIFO would wait for a writer. */
    struct stat sb;
    if (stat(path, &sb) != 0 || (S_ISREG(sb.st_mode) && access(path, R_OK) != 0))
        return RD_OK; /* no environment was captured: the id alone is written */
    if (!S_ISREG(sb.st_mode))
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "expected a regular file, got %s",
                           rd_file_kind(sb.st_mode));
    cJSON *env = NULL;
    RD_TRY(rd_json_parse_file(path, &env, d));
    if (!cJSON_IsObject(env)) {
        cJSON_Delete(env);
        return rd_diag_set(d, RD_ERR_PARSE, path, 1, 1,
                           "expected an environment object (" RD_ENV_SCHEMA ")");
    }
    if (!cJSON_GetObjectItemCaseSensitive(env, RD_AK_ID))
        cJSON_AddStringToObject(env, RD_AK_ID, e->id);
    const cJSON *check = cJSON_GetObjectItemCaseSensitive(env, "check");
    e->check_quiet = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(check, "quiet"));
    rd_buf_reset(tmp);
    rd_status st = rd_json_write(env, tmp, false);
    cJSON_Delete(env);
    while (!st && tmp->len && tmp->ptr[tmp->len - 1] == '\n')
        rd_buf_truncate(tmp, tmp->len - 1);
    if (st)
        return st;
    e->json = rd_arena_strndup(&a->strings, tmp->ptr, tmp->len);
    e->json_len = tmp->len;
    return e->json ? RD_OK : RD_ERR_NOMEM;
}

bool rd_envs_check_quiet(const struct rd_analysis *a, const char *env)
{
    for (size_t i = 0; env && i < a->nenvs; i++)
        if (strcmp(a->envs[i].id, env) == 0)
            return a->envs[i].check_quiet;
    return false;
}

/* Loads the environments first named by the store just read, in the order
 * the store named them. */
rd_status rd_envs_load_new(struct rd_analysis *a, struct rd_diag *d)
{
    struct rd_buf tmp = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (size_t i = 0; i < a->nenvs && !st; i++)
        if (!a->envs[i].loaded)
            st = load_env(a, &a->envs[i], &tmp, d);
    rd_buf_release(&tmp);
    return st;
}
