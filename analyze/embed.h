/*
 * embed.h - the raw runs and failed checks' error texts that analysis.json
 * carries for rundown-render (docs/analysis.md, "raw_runs"), taken from
 * the records as ingest reads them: the stores are read once.
 */
#ifndef RUNDOWN_ANALYZE_EMBED_H
#define RUNDOWN_ANALYZE_EMBED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jw.h"
#include "rundown/arena.h"
#include "rundown/buf.h"
#include "rundown/record.h"
#include "rundown/status.h"
#include "rundown/strmap.h"

struct rd_analysis;

/* At most this many runs are embedded: about 0.5 KiB each, so a store of a
 * million runs still gives an analysis.json of a few MiB. The count of all
 * runs is written beside, so render can say when the cap was hit. */
#define RD_EMBED_RUNS_MAX 10000

/** A run kept for "raw_runs": its store and its record's JSON. */
struct rd_embed_run {
    uint32_t input;          /* index into the analysis's inputs */
    size_t off, len;         /* in rd_embed.runs_text */
};

/** A run to keep, noted by where its line is in its store instead of as
 * JSON (rd_embed_note_at): the JSON is made only for the runs kept. */
struct rd_embed_at {
    long long off;           /* the line's first byte in the store */
    uint32_t input;
    uint32_t len;            /* its bytes, less the line end (< RD_STORE_MAX_LINE) */
};

/** A failed check's first error text: its key and its JSON object. */
struct rd_embed_error {
    size_t key_off, key_len; /* workload \0 config id \0 metric, in errors_text */
    size_t off, len;         /* the object, in errors_text */
};

/**
 * What "raw_runs" and "check_errors" need of the records read so far, in
 * file order: the first 'cap' runs (a part of a store read on a thread of
 * its own keeps its first 'cap'; rd_embed_merge keeps the cap) and the
 * first error text of each failed check per workload, config and metric.
 */
struct rd_embed {
    size_t cap, total;
    struct rd_embed_run *runs;
    size_t nruns, capruns;
    struct rd_buf runs_text;
    struct rd_embed_at *ats; /* or these, and no runs (rd_embed_note_at) */
    size_t nats, capats;
    struct rd_embed_error *errors;
    size_t nerrors, caperrors;
    struct rd_buf errors_text;
    struct rd_strmap seen;   /* the keys of errors */
    struct rd_buf key, line; /* scratch */
    struct rd_arena texts;   /* scratch: error texts read from logs */
};

void rd_embed_init(struct rd_embed *e, size_t cap);
void rd_embed_release(struct rd_embed *e);

/**
 * Notes a record read from the store 'store' (input number 'input'): counts
 * it, keeps it while fewer than cap are kept, and keeps the error text of
 * each failed check (a bool metric at 0, measured runs) not seen before,
 * from the record's info or its stdout log. RD_ERR_NOMEM only.
 */
rd_status rd_embed_note(struct rd_embed *e, const char *store, uint32_t input,
                        const struct rd_record *rec);

/**
 * rd_embed_note for a record whose line is len bytes at offset off of the
 * store: the run is kept as that place, not as JSON, for a part of a store
 * read on a thread of its own, whose runs are mostly left out at the
 * merge (the parts before it hold the cap): rd_embed_merge reads the
 * lines of those it keeps again. An embed holds places or runs, not both.
 * 'place' false: the record is counted and its checks noted, and the
 * places noted so far are dropped (the parts before hold the cap).
 */
rd_status rd_embed_note_at(struct rd_embed *e, const char *store, uint32_t input,
                           const struct rd_record *rec, bool place, long long off,
                           size_t len);
/**
 * Appends what b noted (records that came after a's in file order) to a:
 * its runs up to a's cap, its errors of checks a has none for. The runs b
 * holds as places are read again from 'store' and parsed as ingest did
 * (RD_ERR_IO, RD_ERR_PARSE in d when the store changed meanwhile).
 */
rd_status rd_embed_merge(struct rd_embed *a, const struct rd_embed *b, const char *store,
                         struct rd_diag *d);

/**
 * Writes "raw_runs" (the runs kept, each with its store, and how many
 * runs were read) and "check_errors" as members of the open object of w.
 * Stores that are not regular files (standard input) were not noted.
 */
rd_status rd_embed_write(const struct rd_analysis *a, struct jw *w, struct rd_diag *d);

#endif
