/*
 * record.h - the run record (rundown.run/1) and a set of them.
 *
 * A record's strings and arrays live in an arena: the recordset's when the
 * record came from rd_recordset_add(), the reader's when it came from
 * rd_store_next(). Records never free anything themselves.
 *
 * JSON field order on output is fixed (schema, suite, workload, config, run,
 * phase, tool, status, exit_code, started_at, env, contended, metrics, info,
 * source), so
 * the same record always serialises to the same bytes.
 */
#ifndef RUNDOWN_RECORD_H
#define RUNDOWN_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/analysis_keys.h"
#include "rundown/arena.h"
#include "rundown/buf.h"
#include "rundown/status.h"

/** A string pair: a config label, an info field or a source field. */
struct rd_kv {
    const char *key;
    const char *value;
};

/** A metric of one run. NaN means the tool printed no value (JSON null). */
struct rd_metric {
    const char *name;
    double value;
};

struct rd_kvlist {
    struct rd_kv *items;
    size_t len, cap;
};

struct rd_record {
    const char *suite;       /* may be NULL */
    const char *workload;    /* required on output */
    const char *phase;       /* "measure" (default) or "warmup" */
    const char *tool;        /* "wrk", "rundown", ... */
    const char *status;      /* "ok", "failed", "timeout" */
    const char *started_at;  /* ISO 8601 UTC, may be NULL */
    const char *env;         /* environment id, may be NULL */
    long run;                /* 1-based run number within workload+config; 0 = unset */
    int exit_code;
    bool has_exit_code;
    bool contended;          /* the machine was busy with other work (written
                                only when true, after env) */
    struct rd_kvlist config; /* labels that identify what is compared, sorted by key */
    struct rd_kvlist info;   /* free string facts: command, url, target_rate, ... */
    struct rd_kvlist source; /* where it came from: file, stdout_log, ... */
    unsigned source_line;    /* line in source file where the run starts; 0 = unset */
    struct rd_metric *metrics;
    size_t nmetrics, metrics_cap;
    struct rd_arena *arena;  /* where the strings above live */
};

/** Zeroes a record and binds it to an arena (phase "measure", status "ok"). */
void rd_record_init(struct rd_record *r, struct rd_arena *arena);

/** Copies 'value' into the arena and stores it in *field (a member of r). */
rd_status rd_record_set(struct rd_record *r, const char **field, const char *value);

/** Sets a config label (replacing one with the same key; kept sorted). */
rd_status rd_record_set_label(struct rd_record *r, const char *key, const char *value);
/** The value of a config label, or NULL. */
const char *rd_record_label(const struct rd_record *r, const char *key);

rd_status rd_record_set_info(struct rd_record *r, const char *key, const char *value);
const char *rd_record_info(const struct rd_record *r, const char *key);
/**
 * The round a measured run belongs to: its info "round" when that is a
 * whole number from 1 (rundown-collect writes it on a run made again in
 * place of a contended one, which gets a new run number but was run in
 * the round of the run it replaces: docs/run-record.md), else its run
 * number (0 when it has none). Runs of one round are what a workload
 * paired within rounds compares (docs/methods.md §6).
 */
long rd_record_round(const struct rd_record *r);
rd_status rd_record_set_source(struct rd_record *r, const char *key, const char *value);

/** Sets a metric (replacing one with the same name; insertion order kept). */
rd_status rd_record_set_metric(struct rd_record *r, const char *name, double value);
/** True and *out set when the record has the metric (its value may be NaN). */
bool rd_record_metric(const struct rd_record *r, const char *name, double *out);
/** Removes a metric; no-op when absent. */
void rd_record_remove_metric(struct rd_record *r, const char *name);

/** Appends the config id ("mechanism=worker,runtime=bun": sorted keys). */
rd_status rd_record_config_id(const struct rd_record *r, struct rd_buf *out);

/** Appends the record as one JSON line, newline included. */
rd_status rd_record_to_json(const struct rd_record *r, struct rd_buf *out);

/**
 * Parses one JSON line into r (initialised with 'arena' first). Validates the
 * schema, the types of every known key and the presence of workload, config
 * and metrics; unknown keys are ignored (the contract may grow). On error
 * fills d with d->line unchanged and col at the problem. The parse tree is
 * allocated in 'arena' too and r's strings point into it, so they live as
 * long as the arena (about 2 KiB per record: reset a reader's arena per
 * line). The first call installs cJSON hooks for the process that only
 * redirect allocations made inside this function. Thread-safe with one
 * arena per thread.
 */
rd_status rd_record_from_json(struct rd_record *r, struct rd_arena *arena,
                              const char *line, size_t len, struct rd_diag *d);

/** Checks a record before it is written (workload set, status known, ...). */
rd_status rd_record_validate(const struct rd_record *r, struct rd_diag *d);

/* ---- a set of records that owns them ---- */

struct rd_recordset {
    struct rd_record *items;
    size_t len, cap;
    struct rd_arena arena;
};

void rd_recordset_init(struct rd_recordset *set);
/** Frees every record and string; the set is left initialised and empty. */
void rd_recordset_release(struct rd_recordset *set);
/**
 * Appends a new initialised record and returns it, or NULL on OOM. The
 * pointer is valid until the next rd_recordset_add() (the array may move).
 */
struct rd_record *rd_recordset_add(struct rd_recordset *set);

#endif
