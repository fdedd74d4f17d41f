/*
 * runindex.h - what a store already holds, by run key.
 *
 * A run key is (suite, workload, config, phase). The index remembers the
 * highest run number seen per key and which exact runs exist, so that
 * imports number new runs after the stored ones and `suite --resume` skips
 * runs that are already in the store.
 */
#ifndef RUNDOWN_RUNINDEX_H
#define RUNDOWN_RUNINDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/record.h"
#include "rundown/status.h"

struct rd_run_index {
    struct rd_run_slot *slots;
    size_t cap, len;
};

void rd_run_index_init(struct rd_run_index *ix);
void rd_run_index_release(struct rd_run_index *ix);

/** Reads every record of the store at path (a missing file is empty). */
rd_status rd_run_index_load(struct rd_run_index *ix, const char *path, struct rd_diag *d);

/** Notes that the record's run exists. */
rd_status rd_run_index_add(struct rd_run_index *ix, const struct rd_record *r);

/** True when a run with the record's key and run number is in the index. */
bool rd_run_index_has(const struct rd_run_index *ix, const struct rd_record *r);

/** The highest run number stored for the record's key (0 when none). */
long rd_run_index_max(const struct rd_run_index *ix, const struct rd_record *r);

#endif
