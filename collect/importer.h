/*
 * importer.h - reading load-tool and benchmark-tool outputs into run records.
 *
 * How to add an importer (the checklist):
 *  1. collect/importers/<tool>.c defines `const struct rd_importer
 *     rd_importer_<tool>` with a name, a one-line description, detect() and
 *     parse().
 *  2. Add it to the table in collect/importer.c (the order there is the
 *     detection order: more specific formats first).
 *  3. Golden cases in tests/cases/import-<tool>/, a fuzz target
 *     tests/fuzz/fuzz_import_<tool>.c with a seed corpus in
 *     tests/fuzz/corpus/import_<tool>/, and the field mapping in
 *     docs/formats.md.
 *
 * An importer sees the whole input in memory, already normalised by
 * rd_import_normalise(): a UTF-8 byte-order mark removed and CRLF turned into
 * LF (a lone CR, as in progress bars, is kept). It appends one record per run
 * it finds to 'out', setting tool, status, metrics, info and source_line;
 * the front end adds workload, labels, run numbers and source file. It never
 * prints. Failures of the measured system are data: a run whose tool reported
 * socket errors, non-2xx responses, timeouts or no completed request has
 * status "failed" with its counts kept, never "ok".
 */
#ifndef RUNDOWN_IMPORTER_H
#define RUNDOWN_IMPORTER_H

#include <stddef.h>

#include "rundown/record.h"
#include "rundown/status.h"

struct rd_import_input {
    const char *data;   /* normalised bytes, NUL-terminated */
    size_t len;
    const char *path;   /* for messages: the file name, "<stdin>" for "-" */
};

struct rd_importer {
    const char *name;         /* "wrk", the -t value and the record's tool */
    const char *description;  /* "wrk text report (with or without --latency)" */
    /** Confidence 0..100 that the input is this tool's output (cheap). */
    int (*detect)(const struct rd_import_input *in);
    /** Appends the runs found to out; on bad input fills d (path:line:col). */
    rd_status (*parse)(const struct rd_import_input *in, struct rd_recordset *out,
                       struct rd_diag *d);
};

/** The importers in detection order; *count receives the number. */
const struct rd_importer *const *rd_importers(size_t *count);

/** The importer named 'name', or NULL. */
const struct rd_importer *rd_importer_find(const char *name);

/**
 * The importer whose detect() is most confident (at least 50), or NULL; then
 * d says what was seen: "not output of wrk, wrk2, ...; first line: '...'".
 */
const struct rd_importer *rd_importer_detect(const struct rd_import_input *in,
                                             struct rd_diag *d);

/**
 * Normalises raw bytes in place (BOM removed, CRLF to LF) and fills in.
 * Refuses input with NUL bytes (binary) with RD_ERR_PARSE naming the position.
 */
rd_status rd_import_normalise(struct rd_buf *raw, const char *path,
                              struct rd_import_input *in, struct rd_diag *d);

#endif
