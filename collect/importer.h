/*
 * importer.h - reading load-tool and benchmark-tool outputs into run records.
 *
 * Everything rundown knows about a tool is its entry in the table of
 * collect/importer.c: its name, how to recognise its output (detect), how
 * to read it (parse) and how to ask the tool its version (version_argv,
 * which `rundown-collect env` and every captured environment use).
 *
 * How to add an importer (the checklist; each place is needed):
 *  1. collect/importers/<tool>.c defines `const struct rd_importer
 *     rd_importer_<tool>` with every field below. A load tool sets `load`
 *     and ends each run in rd_load_judge() (importers/loadjudge.h), which
 *     sets status and info "failure"; it never sets status itself.
 *  2. Its RD_IMPORTER() line and table entry in collect/importer.c (the
 *     order there is the detection order: more specific formats first, and
 *     the order `rundown-collect env` lists the tools in).
 *  3. A fuzz target tests/fuzz/fuzz_import_<tool>.c (calling fuzz_importer()
 *     of tests/fuzz/importer_fuzz.h) with a seed corpus in
 *     tests/fuzz/corpus/import_<tool>/ (the samples and golden inputs).
 *  4. A unit test tests/unit/test_import_<tool>.c (parse() and detect()
 *     called directly; tests/unit/jsonimport_test.h for JSON tools); a
 *     tool that shares another's parser shares its test (wrk2: wrk's).
 *  5. Golden cases in tests/cases/import-<tool>/ (every sample, a failed
 *     run, truncated, garbled, empty and wrong-tool input) with the
 *     independent check of their numbers beside them: a verify.py built on
 *     tests/cases/import-common/importcheck.py, or a NOTES.md of the hand
 *     arithmetic.
 *  6. Its section in docs/formats.md: the outputs read, the field mapping,
 *     what fails a run; its samples in data/samples/.
 *  7. The README: the tool in the list of formats under
 *     `rundown-collect import`.
 * tests/unit/test_import_table.c fails when an entry misses one of them.
 *
 * An importer sees the whole input in memory, already normalised by
 * rd_import_normalise(): a UTF-8 byte-order mark removed and CRLF turned into
 * LF (a lone CR, as in progress bars, is kept). It appends one record per run
 * it finds to 'out', setting tool, status, metrics, info and source_line;
 * the front end adds workload, labels, run numbers and source file. It never
 * prints. Failures of the measured system are data: a load tool's importer
 * ends each run in the one judge (importers/loadjudge.h), which keeps socket
 * errors, non-2xx responses and timeouts as counts and error_rate of an "ok"
 * run, and makes it "failed", with info "failure" saying why, only when no
 * measurement came out (the tool stopped, no request completed).
 */
#ifndef RUNDOWN_IMPORTER_H
#define RUNDOWN_IMPORTER_H

#include <stdbool.h>
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
    /** How to ask the tool its version: an argv, NULL-terminated ("wrk", "-v"). */
    const char *const *version_argv;
    /** An HTTP load tool: every run it reads is judged by rd_load_judge(). */
    bool load;
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
