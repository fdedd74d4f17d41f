/*
 * suite.h - rundown.suite/1 (docs/suite.md): the parsed suite (suite.c);
 * the expansion of its placeholders is suiteexpand.h. The run plan is
 * plan.h.
 *
 * A suite is parsed once into plain arrays in one arena; nothing in it
 * changes afterwards. Expansion is a pure function of (workload, config).
 */
#ifndef RUNDOWN_SUITE_H
#define RUNDOWN_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rundown/analysis_keys.h"
#include "rundown/arena.h"
#include "rundown/buf.h"
#include "rundown/record.h"
#include "rundown/status.h"

/* The level of the critical value an adaptive workload's precision is
 * measured at: the analysis' default alpha (docs/methods.md). */
#define RD_SUITE_SETTLE_ALPHA 0.05

enum rd_order { RD_ORDER_INTERLEAVED, RD_ORDER_RANDOM, RD_ORDER_GROUPED };

/** A list of template strings (argv or values). */
struct rd_strv {
    char **v;
    size_t n;
};

struct rd_suite_kv {
    char *key, *value;
};

struct rd_suite_runtime {
    char *name;
    struct rd_strv cmd;          /* may use {root} */
    struct rd_strv version_cmd;  /* may use {root}; default cmd + --version */
    struct rd_suite_kv *env;
    size_t nenv;
};

struct rd_suite_tool {
    char *name;
    struct rd_strv version_cmd;
};

struct rd_suite_workload {
    char *name, *klass;
    char *primary_metric, *primary_better, *tie_breaker;
    char *metric_better;         /* "NAME=DIR,..." of 'better'; NULL: none */
    char **keys;                 /* matrix label names, file order */
    size_t nkeys;
    char **configs;              /* nconfigs * nkeys values, row-major */
    size_t nconfigs;
    bool is_server, shell;
    struct rd_strv command, server, load, background;
    char *url, *ready_url, *host, *cwd, *load_tool;
    char *compare_within;        /* "tasks,...": labels decided apart; NULL: none */
    char *blocks;                /* "round": verdicts paired within rounds; NULL: unset */
    bool *keep_racing;           /* per config: never eliminated by the race
                                  * ("keep_racing"); NULL: none */
    int port;
    struct rd_suite_kv *env;
    size_t nenv;
    long runs, warmups;          /* runs: per config; the most, when adaptive */
    long runs_min;               /* adaptive: the fewest runs per config; = runs otherwise */
    bool settle;                 /* "until": "settled": stop a config once precise */
    double margin;               /* "margin": relative equivalence margin; NaN: not given */
    double precision;            /* adaptive: the relative half-width to reach */
    double warmup_load, timeout, ready_timeout, stop_timeout;
    char *cpus, *server_cpus, *load_cpus, *background_cpus;
};

struct rd_suite {
    char *path;                  /* as given, for messages */
    char *name;
    char *root;                  /* absolute */
    enum rd_order order;
    uint64_t seed;
    bool seed_given;
    struct rd_suite_runtime *runtimes;
    size_t nruntimes;
    struct rd_suite_tool *tools;
    size_t ntools;
    struct rd_suite_workload *workloads;
    size_t nworkloads;
    /* "contention": NaN / -1 where the file says nothing */
    double contention_threshold, contention_wait, contention_min_speed, contention_min_wakeup;
    int contention_mode;         /* an enum rd_contention_mode, or -1 */
    struct rd_arena arena;
};

/** An empty suite that rd_suite_release() may be called on. */
void rd_suite_init(struct rd_suite *s);

/**
 * Parses and checks a suite file: schema, keys (unknown keys are errors),
 * types, matrix/exclude/include, runtime references, placeholders in every
 * template for every config. Port 0 is replaced by a free loopback port.
 * Binaries and ports in use are checked by rd_suite_check_system(). On error
 * d names the file (and line:col for JSON syntax) and the workload.
 */
rd_status rd_suite_load(struct rd_suite *s, const char *path, uint64_t seed_default,
                        struct rd_diag *d);

/** A seed for a suite whose file gives none, from the clock and the process
 *  id: for a main() to pass to rd_suite_load (the parser reads no clock). */
uint64_t rd_suite_clock_seed(void);

/** Parses a suite from memory (path is used for messages and {root}). s
 *  need not be initialised; on error it is still safe to release.
 *  seed_default is the seed of a file that gives none. */
rd_status rd_suite_parse(struct rd_suite *s, const char *text, size_t len, const char *path,
                         uint64_t seed_default, struct rd_diag *d);

/** Frees everything the suite holds; it is left as rd_suite_init() leaves it. */
void rd_suite_release(struct rd_suite *s);

/** Fills rec (on its arena) with the suite, workload, labels and the info
 *  fields every run of (w, c) carries. */
rd_status rd_suite_record(const struct rd_suite *s, size_t w, size_t c, struct rd_record *rec);

#endif
