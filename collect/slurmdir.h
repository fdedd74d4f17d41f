/*
 * slurmdir.h - what DIR/shards holds of a Slurm collection (slurmdir.c):
 * its shards' stores, and which tasks still have runs to do
 */
#ifndef RUNDOWN_SLURMDIR_H
#define RUNDOWN_SLURMDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

struct rd_suite;
struct rd_plan;
struct rd_run_index;

/**
 * Reads what DIR/shards holds for the suite named 'suite'. Every folder
 * task<I>.<host> with a store <suite>.jsonl is counted in *nstores, and,
 * when ix is not NULL (ix[1..tasks]), its runs are noted in ix[I]. A
 * store of another suite (a .jsonl of another name), a task number past
 * 'tasks' (when ix is given) or a folder of another form is RD_ERR_PARSE
 * naming it: DIR is not this collection's. A missing DIR/shards holds
 * nothing.
 */
rd_status rd_slurm_shards_scan(const char *dir, const char *suite, unsigned tasks,
                               struct rd_run_index *ix, size_t *nstores, struct rd_diag *d);

/**
 * Which tasks still have runs to do: want[I] (I = 1..tasks; want[0]
 * unused) is true when shard I/tasks of the plan holds a run that is not
 * in ix[I]; left[I] (may be NULL) counts them. The plan is not changed.
 */
rd_status rd_slurm_tasks_left(const struct rd_suite *s, const struct rd_plan *plan,
                              unsigned tasks, const struct rd_run_index *ix, bool *want,
                              size_t *left);

#endif
