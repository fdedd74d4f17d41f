/*
 * analysis_int.h - the data the analyze stage keeps between reading the
 * stores and writing the report (private to analyze/).
 *
 * Memory is what lets it scale to millions of runs: per workload, config and
 * metric only a double and a 32-bit run-order key per measured value; every
 * string (names, ids, labels, environment ids) lives once in one arena.
 */
#ifndef RUNDOWN_ANALYZE_ANALYSIS_INT_H
#define RUNDOWN_ANALYZE_ANALYSIS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "rundown/arena.h"
#include "rundown/record.h"

/* Open-addressing hash of strings to indices; the strings live elsewhere. */
struct smap {
    uint32_t *slots;   /* index + 1, 0 = empty */
    size_t cap, len;
};

struct series {
    uint32_t metric;   /* index into rd_analysis.metrics */
    uint32_t len, cap;
    double *v;
    uint32_t *ord;     /* run number, or arrival order when the record has none */
};

struct cfg {
    const char *workload;
    const char *id;          /* "mechanism=worker,runtime=bun" */
    struct rd_kv *labels;
    size_t nlabels;
    const char *env;         /* first environment id seen, or NULL */
    const char *env_other;   /* a second one (only with pool_envs) */
    unsigned env_line;       /* line of the first run that named env */
    uint32_t seq;            /* records seen, the order key of unnumbered runs */
    size_t ok_runs, failed, timeouts, load_error_runs;
    struct series *series;
    uint32_t nseries, capseries;
};

struct wl {
    const char *name;
    const char *class_;      /* info.class */
    const char *primary;     /* info.primary_metric */
    const char *better;      /* info.primary_better */
    const char *tie_breaker; /* info.tie_breaker */
    int64_t first_metric;    /* first metric of the first measured run, -1 none */
    uint32_t *cfgs;
    size_t ncfgs, capcfgs;
};

struct envref {
    const char *id;
    const char *dir;         /* folder of the first store that used it */
    const char *json;        /* <dir>/<id>.json as one line of JSON with its "id",
                              * or NULL when there is no such file */
    size_t json_len;
    bool loaded;             /* json is final (read after the store that named it) */
};

struct rd_analysis {
    struct rd_analyze_opts o;
    struct rd_arena strings;
    const char **metrics;    /* interned metric names */
    bool *load_err_metric;   /* per metric: counts load-tool errors (errors_*, non_2xx) */
    size_t nmetrics, capmetrics;
    struct smap metric_map;
    uint32_t *last_ids;      /* metric ids of the previous run record, by position */
    size_t nlast_ids, caplast_ids;
    struct wl *wls;
    const char **wl_names;   /* wls[i].name, for wl_map */
    size_t nwls, capwls;
    struct smap wl_map;
    struct cfg *cfgs;
    const char **cfg_keys;   /* "workload\x1fid" per cfg, for cfg_map */
    size_t ncfgs, capcfgs;
    struct smap cfg_map;
    struct envref *envs;
    size_t nenvs, capenvs;
    const char **inputs;
    size_t ninputs, capinputs;
    bool unnumbered;         /* a run without a run number was read (see split_store) */
};

/* smap over an array of strings 'keys' (keys[idx] is the key of idx). */
int64_t rd_smap_find(const struct smap *m, const char *const *keys, const char *key);
rd_status rd_smap_put(struct smap *m, const char *const *keys, const char *key, uint32_t idx);
void rd_smap_release(struct smap *m);

/* Grows *ptr (an array of 'size'-byte items, *cap items) to hold 'need'. */
rd_status rd_grow(void **ptr, size_t *cap, size_t need, size_t size);

/* Replication section (replicate.c): appends "replication":[...] members. */
struct jw;
rd_status rd_replication_write(struct rd_analysis *a, struct jw *w, struct rd_diag *d);

#endif
