/*
 * embed.h - the raw runs and failed checks' error texts that analysis.json
 * carries for rundown-render (docs/analysis.md, "raw_runs"), taken from
 * the records as ingest reads them: the stores are read once.
 */
#ifndef RUNDOWN_ANALYZE_EMBED_H
#define RUNDOWN_ANALYZE_EMBED_H

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
 * Appends what b noted (records that came after a's in file order) to a:
 * its runs up to a's cap, its errors of checks a has none for.
 */
rd_status rd_embed_merge(struct rd_embed *a, const struct rd_embed *b);

/**
 * Writes "raw_runs" (the runs kept, each with its store, and how many
 * runs were read) and "check_errors" as members of the open object of w.
 * Stores that are not regular files (standard input) were not noted.
 */
rd_status rd_embed_write(const struct rd_analysis *a, struct jw *w, struct rd_diag *d);

#endif
