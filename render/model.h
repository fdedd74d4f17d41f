/*
 * model.h - analysis.json (rundown.analysis/1) as the back ends see it.
 *
 * The loader checks the parts every back end relies on (schema, workloads
 * with a name, configs with an id) and derives what they share: display
 * names of configs, label columns, the best and recommended config, anchors
 * and file names for each workload, and one colour per runtime. Everything
 * else is read straight from the cJSON tree with rd_num()/rd_str(), which
 * turn a missing or null value into NaN / NULL, so a back end prints
 * "undefined" rather than inventing a number.
 *
 * How to add a back end: write render/<name>.c with an rd_render_<name>()
 * taking a const struct rd_report and a staging area (stage.h), declare it
 * in render.h, add its bit to enum rd_format and call it from render.c.
 */
#ifndef RD_RENDER_MODEL_H
#define RD_RENDER_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "rundown/arena.h"
#include "rundown/buf.h"
#include "rundown/status.h"

#define RD_ANALYSIS_SCHEMA "rundown.analysis/1"

struct rd_rconfig {
    const cJSON *json;
    const char *id;         /* "mechanism=worker,runtime=bun" */
    const char *name;       /* "bun / worker / workers=4" (arena) */
    const cJSON *labels;    /* object of strings, may be NULL */
    const cJSON *primary;   /* stats of the workload's primary metric, or NULL */
    int runtime;            /* index into rd_report.runtimes, -1 without one */
};

struct rd_rworkload {
    const cJSON *json;
    const char *name;
    const char *klass;      /* "cpu", "io", ...; may be NULL */
    const char *metric;     /* primary metric name; may be NULL */
    const char *title;      /* optional description; may be NULL */
    bool higher;            /* higher is better on the primary metric */
    const char *direction;  /* "higher is better", "lower is better" or, when the
                               analysis names no direction, "no better direction" */
    struct rd_rconfig *configs;
    size_t nconfigs;
    const char **keys;      /* label columns: runtime, mechanism, then sorted */
    size_t nkeys;
    const cJSON *tests;     /* may be NULL */
    const cJSON *pairs;     /* array, may be NULL */
    const cJSON *rec;       /* recommendation object, may be NULL */
    const cJSON *warnings;  /* array, may be NULL */
    int best;               /* config index or -1 */
    int recommended;        /* config index or -1 */
    int runner_up;          /* the best config other than 'recommended' by mean
                               (the best itself when it is not recommended), or -1 */
    const char *slug;       /* Markdown/HTML anchor (arena) */
    const char *file;       /* file-name stem for charts (arena), unique */
};

struct rd_report {
    cJSON *root;
    const char *path;              /* the analysis file, as given */
    const cJSON *settings;         /* may be NULL */
    const cJSON *envs;             /* array, may be NULL */
    const cJSON *replication;      /* array, may be NULL */
    const cJSON *inputs;           /* array, may be NULL */
    struct rd_rworkload *workloads;
    size_t nworkloads;
    const char **runtimes;         /* distinct runtime labels, first-seen order */
    size_t nruntimes;
    const char *title;             /* never NULL */
    const char *date;              /* may be NULL */
    double alpha, confidence;      /* NaN when absent */
    long runs;                     /* measured runs counted from n, or -1 */
    struct rd_arena arena;
};

/**
 * Takes ownership of 'root' (even on failure) and builds the model. 'path'
 * names the file in messages and must outlive the report. A tree that is
 * not a rundown.analysis/1 object, or whose workloads/configs lack the
 * required names and ids, is RD_ERR_PARSE with a message naming the JSON
 * path ("workloads[1].configs[0]: expected 'id' to be a string").
 * Release with rd_report_release.
 */
rd_status rd_report_init(struct rd_report *r, cJSON *root, const char *path,
                         struct rd_diag *d);

/**
 * Parses 'text' (JSON, then UTF-8 text throughout), then rd_report_init.
 * 'shown' names the input in messages, 'path' is kept as in rd_report_init.
 */
rd_status rd_report_parse(struct rd_report *r, const char *text, size_t len,
                          const char *shown, const char *path, struct rd_diag *d);

/** Reads 'path' ("-" = stdin), then rd_report_parse. */
rd_status rd_report_load(struct rd_report *r, const char *path, struct rd_diag *d);

/** Frees the tree and everything derived; r is left zeroed. */
void rd_report_release(struct rd_report *r);

/** A number member; NaN when missing, null or not a number. */
double rd_num(const cJSON *obj, const char *key);
/** A string member; NULL when missing or not a string. */
const char *rd_str(const cJSON *obj, const char *key);

/** The stats object of 'metric' for a config, or NULL. */
const cJSON *rd_config_stats(const struct rd_rconfig *c, const char *metric);

/**
 * The memory figure a reader compares configs by, in MiB: the mean of
 * max_rss_kib (the process) or else server_rss_peak_kib (a server under
 * load); NaN when the config has neither.
 */
double rd_config_rss_mib(const struct rd_rconfig *c);

/**
 * What w->runner_up is to the reader: "runner-up" when the recommended
 * config has the best mean, "best" when the best is another config (the
 * recommended one was chosen among those tied with it). The margin columns
 * of every format compare that config with the recommended one.
 */
const char *rd_other_role(const struct rd_rworkload *w);

/** The index of the config with this id, or -1. */
int rd_workload_find(const struct rd_rworkload *w, const char *id);

/**
 * The pair test between configs a and b in either order, or NULL. *swapped
 * is set when the stored pair is (b, a): its diff and ratio then describe
 * b relative to a.
 */
const cJSON *rd_workload_pair(const struct rd_rworkload *w, const char *a,
                              const char *b, bool *swapped);

/** One row of the environment table and where its value may be found. */
struct rd_env_row {
    const char *label;        /* "CPU" */
    const char *paths[4];     /* "cpu.model", "cpu", "cpu_model"; NULL-ended */
};

/** The rows every report shows (when present), in order; *n gets the count. */
const struct rd_env_row *rd_env_rows(size_t *n);

/**
 * Appends the value of 'row' in environment object 'env' as text (memory in
 * GiB, runtimes as "node v26.10.0, deno 2.9.6", arrays joined). Returns
 * false when the environment has none of the row's paths. A present null
 * appends nothing and returns true (the reader sees "undefined").
 */
bool rd_env_value(const cJSON *env, const struct rd_env_row *row, struct rd_buf *out,
                  bool *is_null);

/** True when 'key' of an environment is covered by rd_env_rows (or is
 *  bookkeeping like id and schema), so generic rows skip it. */
bool rd_env_known_key(const char *key);

/** Appends any JSON value as one line of text (objects as "k v, k v"). */
rd_status rd_json_text(const cJSON *v, struct rd_buf *out);

/**
 * Appends the configs statistically tied with the recommended one, by
 * display name and comma-separated: the analysis's "tied" list plus the
 * best config when it is not the recommended one. Appends nothing when
 * there are none.
 */
rd_status rd_tied_text(const struct rd_rworkload *w, struct rd_buf *out);

/** The baseline config index of w (its "baseline" id or first of a list), or -1. */
int rd_workload_baseline(const struct rd_rworkload *w);

/**
 * Appends a display name for a set of labels: the values joined by " / "
 * in 'keys' order (or the object's order when keys is NULL), numeric values
 * as "key=value". Appends nothing for no labels.
 */
rd_status rd_labels_name(const cJSON *labels, const char *const *keys, size_t nkeys,
                         struct rd_buf *b);

/** The colour ("#rrggbb") for a runtime index; grey for -1. */
const char *rd_runtime_colour(const struct rd_report *r, int runtime);

/** True when every config of w has a numeric value for label 'key' and
 *  there are at least two distinct values (a scaling chart makes sense). */
bool rd_label_numeric(const struct rd_rworkload *w, const char *key);

#endif
