/*
 * session.h - one collection session: the store it appends to and what
 * that store already holds, the configs it collects (each a template record
 * and its run numbers), and what it tells its front end as it goes.
 *
 * `run`, `http` and `suite` all collect through a session:
 *
 *     rd_session_init(&s, "data/x.jsonl");
 *     rd_session_on_report(&s, print_progress, &ui);   (the front end's)
 *     rd_session_read_store(&s, &d);     number after the stored runs
 *     rd_run_facts_apply(&facts, tmpl);  suite, workload, labels, env
 *     rd_session_add_config(&s, tmpl, &cfg);
 *     rd_session_lock(&s, &d);           wait for the store, read what is new
 *     rd_session_begin_run(&s, cfg, RD_PHASE_MEASURE, 0, rec);   copy, number
 *     ... the runner fills rec ...
 *     rd_session_store(&s, cfg, rec, &d);   append, fsync, count, report
 *     rd_session_unlock(&s);
 *     rd_session_release(&s);
 *
 * Writers of one store take turns (store.h, "Appending"): a session holds
 * the store's lock while it numbers, runs and stores a run (or a server
 * session's runs): rd_session_lock() reads what other writers appended
 * since, so the numbers it hands out next are free, and
 * rd_session_unlock() lets the next writer in. rd_session_store() of a
 * session not holding the lock takes it for the append.
 *
 * Run numbers are kept per series: suite, workload, config id and phase
 * (runindex.h). A config's runs are numbered after those its series has in
 * the store (once read) and in this session. Whoever asks what has been
 * collected so far (a front end's summary; an adaptive suite deciding
 * whether a config needs more runs) asks the session: rd_session_series()
 * for any series, the config's own counts, and with rd_session_keep_records()
 * the records themselves.
 *
 * Nothing here prints: the report callback decides whether and how.
 */
#ifndef RUNDOWN_SESSION_H
#define RUNDOWN_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "labels.h"
#include "runindex.h"
#include "rundown/arena.h"
#include "rundown/record.h"
#include "rundown/status.h"
#include "rundown/store.h"

/* ---- the facts a command line gives every run ---- */

/** What a command line says of every run it collects. Strings are borrowed. */
struct rd_run_facts {
    const char *suite;           /* NULL: none */
    const char *workload;        /* NULL: the record's own */
    const char *env;             /* NULL or "": none */
    const char *phase;           /* NULL: the record's own */
    struct rd_label_args labels; /* config labels (-l KEY=VALUE) */
    struct rd_label_args better; /* metric directions (--better NAME=DIR),
                                    stored as info.metric_better */
};

/** No facts: rd_run_facts_apply() then changes nothing. */
void rd_run_facts_init(struct rd_run_facts *f);

/** Sets each given fact on r; a label replaces one of the same key. */
rd_status rd_run_facts_apply(const struct rd_run_facts *f, struct rd_record *r);

/* ---- the session ---- */

enum rd_phase { RD_PHASE_WARMUP, RD_PHASE_MEASURE };

/** "warmup" or "measure", as records spell the phase. */
const char *rd_phase_name(enum rd_phase phase);

/** One config a session collects: a series of runs per phase. */
struct rd_session_config {
    size_t index;            /* 0, 1, ... in the order configs were added */
    struct rd_record tmpl;   /* every run of the config starts as a copy */
    const char *id;          /* the config id of tmpl */
    long next_run[2];        /* the number the next run gets, per enum rd_phase */
    long stored[2];          /* runs this session stored, per enum rd_phase */
    long failed;             /* of them, runs whose status is not "ok" */
};

enum rd_session_event_kind {
    RD_SESSION_STARTING,     /* a step is about to run */
    RD_SESSION_STORED,       /* a run was appended to the store */
    RD_SESSION_NOTE,         /* something the user should hear of: note */
};

/** What the session reports. Pointers are valid during the call only. */
struct rd_session_event {
    enum rd_session_event_kind kind;
    /* STARTING: the step about to run, 0-based, of 'steps' planned (what a
     * step is, the driver says: a run for `run`, a plan item for `suite`).
     * STORED: the step in flight. */
    size_t step, steps;
    const struct rd_session_config *config;  /* NULL: a run of no config */
    /* STARTING: the run's record before it runs, NULL when the step is not
     * one run; STORED: the record as stored. */
    const struct rd_record *rec;
    const char *note;  /* NOTE: the text, one line */
};

typedef void (*rd_session_report_fn)(void *ctx, const struct rd_session_event *ev);

struct rd_session {
    const char *store;       /* the store's path; "-": standard output */
    bool to_file;
    struct rd_run_index ix;  /* the store's runs (once read) and this session's */
    struct rd_session_config **configs;
    size_t nconfigs, cap;
    struct rd_arena arena;   /* the templates' strings */
    rd_session_report_fn report;
    void *report_ctx;
    size_t step, steps;      /* the driver's progress, for events */
    long stored, failed;     /* runs appended by this session; of them not "ok" */
    bool keep;               /* keep a copy of every record read or stored */
    struct rd_recordset kept;
    struct rd_store_lock lock;  /* held between rd_session_lock and _unlock */
    long long read_to;       /* bytes of the store in the index */
    unsigned lines_read;     /* lines of the store in the index */
    bool cut_tail;           /* the last line read had no newline */
    bool lent;               /* rd_session_lend let the lock go, to take it back */
};

/**
 * An empty session appending to the store at 'store' (NULL or "-":
 * standard output, flushed after every record). The path is borrowed.
 */
void rd_session_init(struct rd_session *s, const char *store);

/** Frees the configs, the index and kept records. */
void rd_session_release(struct rd_session *s);

/** Sends every event to fn(ctx, ev); NULL: no reports. */
void rd_session_on_report(struct rd_session *s, rd_session_report_fn fn, void *ctx);

/** Reports a NOTE event with 'text' (the front end shows it as a warning). */
void rd_session_note(struct rd_session *s, const char *text);

/**
 * From now on a copy of every record the session reads from its store or
 * stores is kept (rd_session_records). Call before rd_session_read_store()
 * for the stored runs to be among them.
 */
void rd_session_keep_records(struct rd_session *s);

/**
 * Reads the store (a file that does not exist yet is empty; standard
 * output holds nothing) so that runs are numbered after the stored ones
 * and rd_session_holds() knows them. Call before adding configs. Errors
 * are the store reader's: d names file and line.
 */
rd_status rd_session_read_store(struct rd_session *s, struct rd_diag *d);

/**
 * Takes the store's lock, waiting while another writer holds it (a signal
 * ends the wait: RD_ERR_IO "interrupted", rd_proc_interrupted set), and
 * reads the records appended since the session last read, so every
 * config's next number is after them. Standard output needs no lock.
 * Errors are the store reader's (d names file and line: a last line cut
 * short is one).
 */
rd_status rd_session_lock(struct rd_session *s, struct rd_diag *d);

/** Releases the store's lock; a lock not held is ignored. */
void rd_session_unlock(struct rd_session *s);

/**
 * The around_wait of rd_http_spec (runner.h), ctx a session: with
 * after = false lets the store's lock go when the session holds it, with
 * after = true takes it back (rd_session_lock: waiting, reading what was
 * appended meanwhile) when it was let go. A wait for quiet in the middle
 * of a server session so keeps no other writer of the store waiting; the
 * session's runs keep their numbers unless another writer stored them
 * first (rd_session_store then takes the next free ones).
 */
rd_status rd_session_lend(void *session, bool after, struct rd_diag *d);

/**
 * Adds a config whose template is a copy of tmpl (suite, workload, labels,
 * env, info...; phase and run are set per run). Its run numbers continue
 * after those of its series in the store and in this session. *cfg stays
 * valid until rd_session_release(). RD_ERR_NOMEM.
 */
rd_status rd_session_add_config(struct rd_session *s, const struct rd_record *tmpl,
                                struct rd_session_config **cfg);

/**
 * Makes rec (initialised by the caller) a run of cfg in 'phase': a copy of
 * the template with the phase and run number 'run', or with run 0 the
 * config's next number. Numbers given or taken are never handed out again.
 */
rd_status rd_session_begin_run(struct rd_session *s, struct rd_session_config *cfg,
                               enum rd_phase phase, long run, struct rd_record *rec);

/** Sets the number of steps the driver plans (for the events). */
void rd_session_plan_steps(struct rd_session *s, size_t steps);

/** Reports RD_SESSION_STARTING for step 'step' (rec may be NULL). */
void rd_session_starting(struct rd_session *s, size_t step,
                         const struct rd_session_config *cfg, const struct rd_record *rec);

/**
 * Appends a finished run to the store and fsyncs (standard output: flushes),
 * notes it in the index, counts it (in cfg too, when not NULL) and reports
 * RD_SESSION_STORED. A run whose number the store holds already (another
 * writer stored it meanwhile) is stored with the next free number of its
 * series instead: a store never holds a run twice. On an error nothing is
 * counted; d says why.
 */
rd_status rd_session_store(struct rd_session *s, struct rd_session_config *cfg,
                           const struct rd_record *rec, struct rd_diag *d);

/** True when run 'run' of the series is in the store or this session. */
bool rd_session_holds(const struct rd_session *s, const struct rd_run_key *key, long run);

/** How many distinct runs of cfg in 'phase' the store (once read) and
 *  this session hold, whatever their status. */
long rd_session_config_count(const struct rd_session *s, const struct rd_session_config *cfg,
                             enum rd_phase phase);

/** What the store and this session hold of a series; NULL: nothing. */
const struct rd_run_series *rd_session_series(const struct rd_session *s,
                                              const struct rd_run_key *key);

/** The records kept since rd_session_keep_records(), in order. */
const struct rd_recordset *rd_session_records(const struct rd_session *s);

/* ---- the session as the runner's sink ---- */

/** Where a runner's records go: a session, and the config they are of. */
struct rd_session_sink {
    struct rd_session *session;
    struct rd_session_config *config;
};

/** An rd_emit_fn (runner.h) storing each record through rd_session_store. */
rd_status rd_session_emit(void *sink, const struct rd_record *rec, struct rd_diag *d);

/**
 * For rd_runner_http_session's skip_warmup: true when warmup 'run' of the
 * sink's config is stored already (a resumed suite runs it, without
 * storing it twice).
 */
bool rd_session_warmup_stored(void *sink, long run);

#endif
