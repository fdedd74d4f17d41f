/*
 * digests.h - the digest an imported run keeps of its source bytes, and
 * the digests a store holds, so that the same output imported twice is
 * recognised instead of doubling n.
 *
 * A run's digest is SHA-256 of the input it came from (normalised: BOM
 * removed, CRLF as LF, so a copy with other line ends is the same input),
 * a NUL, and "#k" for the k-th run (from 0) the importer read from it: the
 * same output imported again gives the same digests, and two runs of one
 * input (hyperfine's runs, several wrk reports in one capture) never share
 * one. The whole input is hashed rather than a run's own lines because
 * runs of a JSON document (hyperfine's times[]) have no bytes of their
 * own; an input that merely contains another one is not recognised. The
 * digest is stored as source.digest, "sha256:" and 64 hex digits.
 */
#ifndef RUNDOWN_DIGESTS_H
#define RUNDOWN_DIGESTS_H

#include <stddef.h>

#include "importer.h"
#include "rundown/arena.h"
#include "rundown/record.h"
#include "rundown/status.h"
#include "rundown/strmap.h"

/** Sets source.digest of the records set->items[first..len), all parsed
 *  from in. RD_ERR_NOMEM. */
rd_status rd_digests_set(const struct rd_import_input *in, struct rd_recordset *set,
                         size_t first);

/** Digests seen, each with where its run is ("x.jsonl: http-hello
 *  runtime=node measure 3, from a.txt:1"). */
struct rd_digest_index {
    struct rd_strmap ids;   /* digest -> index into where */
    const char **where;
    size_t n, cap;
    struct rd_arena arena;  /* the strings of where */
};

void rd_digest_index_init(struct rd_digest_index *ix);
void rd_digest_index_release(struct rd_digest_index *ix);

/**
 * Notes the digest of r (nothing when it has none), found in 'place' (a
 * store's path, or "this import"). A digest noted already keeps its first
 * place. RD_ERR_NOMEM.
 */
rd_status rd_digest_index_note(struct rd_digest_index *ix, const struct rd_record *r,
                               const char *place);

/** Where a run with this digest was noted, or NULL. Valid until release. */
const char *rd_digest_index_find(const struct rd_digest_index *ix, const char *digest);

/** Notes every run of the store at path (a missing file is an empty
 *  store); errors are the store reader's. */
rd_status rd_digest_index_load(struct rd_digest_index *ix, const char *path,
                               struct rd_diag *d);

/** The record's source.digest, or NULL. */
const char *rd_record_digest(const struct rd_record *r);

#endif
