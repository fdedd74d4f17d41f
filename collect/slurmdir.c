/*
 * slurmdir - what a collection's DIR/shards holds and what each of its
 * Slurm tasks still has to run (slurm.h): the part of `rundown-collect
 * slurm --resume` that reads stores. Reads only; the scripts and the
 * manifest are slurm.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plan.h"
#include "runindex.h"
#include "slurm.h"
#include "slurmdir.h"
#include "suite.h"

/* Whether name ends in ".jsonl"; its stem's length goes to stem. */
static bool is_store(const char *name, size_t *stem)
{
    size_t n = strlen(name);
    *stem = n > 6 ? n - 6 : 0;
    return n > 6 && strcmp(name + n - 6, ".jsonl") == 0;
}

/* Looks into one task folder: a store of another suite is an error;
 * ours, when there, is noted (*has). */
static rd_status scan_folder(const char *path, const char *suite, bool *has, struct rd_diag *d)
{
    *has = false;
    DIR *dp = opendir(path);
    if (!dp)
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "cannot read the folder: %s",
                           strerror(errno));
    rd_status st = RD_OK;
    struct dirent *e;
    while (!st && (e = readdir(dp))) {
        size_t stem;
        if (!is_store(e->d_name, &stem))
            continue;
        if (stem == strlen(suite) && strncmp(e->d_name, suite, stem) == 0)
            *has = true;
        else
            st = rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                             "holds the store %s of another suite than '%s': choose "
                             "another DIR for this one", e->d_name, suite);
    }
    closedir(dp);
    return st;
}

rd_status rd_slurm_shards_scan(const char *dir, const char *suite, unsigned tasks,
                               struct rd_run_index *ix, size_t *nstores, struct rd_diag *d)
{
    char shards[4200], path[4600];
    snprintf(shards, sizeof shards, "%s/shards", dir);
    *nstores = 0;
    DIR *dp = opendir(shards);
    if (!dp)
        return errno == ENOENT ? RD_OK
                               : rd_diag_set(d, RD_ERR_IO, shards, 0, 0,
                                             "cannot read the folder: %s", strerror(errno));
    rd_status st = RD_OK;
    struct dirent *e;
    while (!st && (e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        unsigned task = rd_slurm_shard_task(e->d_name);
        snprintf(path, sizeof path, "%s/%s", shards, e->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
            continue;
        if (!task) {
            st = rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                             "expected the folder of a task, task<I>.<host>: DIR holds "
                             "something else; choose another DIR");
            break;
        }
        if (ix && task > tasks) {
            st = rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                             "is task %u of a collection of more than the %u tasks "
                             "DIR/slurm.json records", task, tasks);
            break;
        }
        bool has;
        st = scan_folder(path, suite, &has, d);
        if (st || !has)
            continue;
        (*nstores)++;
        if (ix) {
            size_t n = strlen(path);
            snprintf(path + n, sizeof path - n, "/%s.jsonl", suite);
            rd_diag_init(d, path);
            st = rd_run_index_load(&ix[task], path, d);
        }
    }
    closedir(dp);
    return st;
}

rd_status rd_slurm_tasks_left(const struct rd_suite *s, const struct rd_plan *plan,
                              unsigned tasks, const struct rd_run_index *ix, bool *want,
                              size_t *left)
{
    struct rd_plan shard;
    rd_plan_init(&shard);
    rd_status st = RD_OK;
    for (unsigned t = 1; t <= tasks && !st; t++) {
        /* A copy per task: shard t of the whole plan, less what task t
         * stored, is what `suite --resume --shard t/N` would run. */
        st = rd_plan_copy(&shard, plan);
        if (!st) st = rd_plan_shard(&shard, t, tasks);
        if (!st) st = rd_plan_drop_stored(s, &shard, &ix[t]);
        want[t] = !st && shard.len > 0;
        if (left)
            left[t] = st ? 0 : shard.len;
    }
    rd_plan_release(&shard);
    return st;
}
