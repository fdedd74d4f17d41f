/*
 * runindex.h - what a store already holds, by run key.
 *
 * A run key is (suite, workload, config id, phase): the series a run
 * number counts in. The index remembers, per key, the highest run number
 * seen and how many distinct runs, and which exact runs exist, so that new
 * runs are numbered after the stored ones, `suite --resume` skips runs that
 * are already in the store, and a caller can ask how much of a series has
 * been collected.
 *
 * Keys are given as their parts (struct rd_run_key); the record forms at
 * the end take them from a record that exists anyway (one read from a
 * store, one about to be appended).
 */
#ifndef RUNDOWN_RUNINDEX_H
#define RUNDOWN_RUNINDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/buf.h"
#include "rundown/record.h"
#include "rundown/status.h"
#include "rundown/strmap.h"

/** The series a run belongs to. Every part is borrowed. */
struct rd_run_key {
    const char *suite;     /* NULL: no suite (the same as "") */
    const char *workload;  /* NULL: the same as "" */
    const char *config;    /* the config id, as rd_record_config_id() writes it */
    const char *phase;     /* NULL: "measure" */
};

/** What the index knows of one series. */
struct rd_run_series {
    long last;   /* the highest run number noted (0 when only run 0 was) */
    long count;  /* distinct run numbers >= 1 noted */
};

struct rd_run_index {
    struct rd_strmap ids;           /* series key -> index into series */
    struct rd_run_series *series;
    size_t nseries, cap;
    struct rd_strmap runs;          /* series key + run number -> 1 */
};

void rd_run_index_init(struct rd_run_index *ix);
/** Frees everything; the index is left empty and usable. */
void rd_run_index_release(struct rd_run_index *ix);

/**
 * Notes every record of the store at path (a missing file is an empty
 * store). Errors are the store reader's, with d naming file and line.
 */
rd_status rd_run_index_load(struct rd_run_index *ix, const char *path, struct rd_diag *d);

/**
 * rd_run_index_load, handing each record to each(ctx, rec) once it is
 * noted; the record lives until the next one is read. An error each()
 * returns stops the reading and is returned.
 */
rd_status rd_run_index_load_each(struct rd_run_index *ix, const char *path,
                                 rd_status (*each)(void *ctx, const struct rd_record *rec),
                                 void *ctx, struct rd_diag *d);

/** Notes that run 'run' of the key's series exists (run <= 0: only the
 *  series, as a record without a number). RD_ERR_NOMEM. */
rd_status rd_run_index_note(struct rd_run_index *ix, const struct rd_run_key *key, long run);

/** True when run 'run' of the key's series has been noted. */
bool rd_run_index_contains(const struct rd_run_index *ix, const struct rd_run_key *key,
                           long run);

/** What is known of the key's series, or NULL when nothing is. The
 *  pointer is valid until the next rd_run_index_note(). */
const struct rd_run_series *rd_run_index_series(const struct rd_run_index *ix,
                                                const struct rd_run_key *key);

/**
 * The key of a record's series: its suite, workload and phase, and its
 * config id written into 'config' (reset first), which key->config then
 * points into; valid while config and the record are.
 */
rd_status rd_run_key_of(const struct rd_record *r, struct rd_buf *config,
                        struct rd_run_key *key);

/* ---- the same, keyed by a record (its series and its run number) ---- */

/** Notes that the record's run exists. */
rd_status rd_run_index_add(struct rd_run_index *ix, const struct rd_record *r);

/** True when a run with the record's key and run number is in the index. */
bool rd_run_index_has(const struct rd_run_index *ix, const struct rd_record *r);

/** The highest run number stored for the record's key (0 when none). */
long rd_run_index_max(const struct rd_run_index *ix, const struct rd_record *r);

#endif
