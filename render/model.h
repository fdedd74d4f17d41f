/*
 * model.h - analysis.json (rundown.analysis/1) as the back ends see it:
 * plain C structs, read once by model.c, the only file of render/ that
 * knows JSON.
 *
 * The reader checks the parts every back end relies on (schema, workloads
 * with a name, configs with an id) and turns everything else into typed
 * fields: a number that is missing, null or not a number is NaN, a string
 * that is missing or not a string is NULL, an optional section that is
 * absent is a NULL pointer or an empty array. So a back end prints
 * "undefined" rather than inventing a value, and never meets a JSON type.
 * Then derive.c works out what the back ends share: display names of
 * configs, label columns, the best, recommended and runner-up config,
 * anchors and file names for each workload, one colour per runtime.
 *
 * Strings and arrays are in the report's arena and live until
 * rd_report_release. The parsed JSON is freed as soon as it is read: an
 * analysis of 10^5 configs is read a config at a time
 * (rundown/json_lazy.h), so render holds the text and the structs, never
 * the whole tree (about four times the text).
 *
 * How to add a back end: write render/<name>.c with an rd_render_<name>()
 * taking a const struct rd_report and a staging area (stage.h), declare it
 * in backends.h, add its bit to enum rd_format and call it from render.c.
 * How to show a new field of the analysis: name its key in
 * rundown/analysis_keys.h (the writer spells it from there too), read it
 * in model.c into a field here, and print the field.
 */
#ifndef RD_RENDER_MODEL_H
#define RD_RENDER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rundown/arena.h"
#include "rundown/buf.h"
#include "rundown/metrics.h"
#include "rundown/record.h"
#include "rundown/status.h"
#include "rundown/strmap.h"

struct rd_json_lazy;

/** An embedded run: its store and its record (compact JSON). */
struct rd_rraw {
    const char *store, *record;
};

/* A config's label and a published figure's label are a struct rd_kv
 * (rundown/record.h); value is NULL when the analysis holds no string. */

/** The statistics of one metric of one config (configs[].metrics.NAME). */
struct rd_rstats {
    const char *metric;
    double n, mean, sd, se, ci_low, ci_high, median, min, max, q1, q3;
    double p90, p95, p99, mad, cv, geomean;
    const double *values;  /* the per-run values that are numbers, in run order */
    size_t nvalues;
};

struct rd_rconfig {
    const char *id;                  /* "mechanism=worker,runtime=bun" */
    const char *name;                /* "bun / worker / workers=4" (derived) */
    const struct rd_kv *labels;  /* every value a string, in the analysis's order */
    size_t nlabels;
    const struct rd_rstats *metrics; /* in the analysis's order; a repeated name once */
    size_t nmetrics;
    const struct rd_rstats *primary; /* the workload's primary metric, or NULL */
    double failed_runs;
    double contended_runs;  /* measured runs marked contended; NaN: none said */
    int runtime;                     /* index into rd_report.runtimes, -1 without one */
};

/**
 * A test across all configs: one-way or Welch's ANOVA (stat F with df1 and
 * df2) or Kruskal-Wallis (stat H with its df in df1, df2 NaN).
 */
struct rd_romnibus {
    bool present;   /* the analysis holds this test (an object) */
    double stat, df1, df2, p;
};

/** A pairwise comparison of configs a and b (tests.pairs[]). */
struct rd_rpair {
    const char *a, *b;   /* config ids */
    double welch_t, welch_df, p, p_holm, mw_u, mw_p, hedges_g, prob_superiority;
    double diff, diff_ci_low, diff_ci_high, ratio, ratio_ci_low, ratio_ci_high;
};

struct rd_rtests {
    const char *metric;
    struct rd_romnibus anova, welch_anova, kruskal;
    const struct rd_rpair *pairs;   /* one per entry of tests.pairs */
    size_t npairs;
};

/** A config's verdict against the best (recommendation.verdicts[]). */
enum rd_verdict_kind {
    RD_VERDICT_UNKNOWN = 0,  /* absent or a word this version does not know */
    RD_VERDICT_BEST,
    RD_VERDICT_EQUIVALENT,
    RD_VERDICT_WORSE,
    RD_VERDICT_INCONCLUSIVE,
    RD_VERDICT_DISQUALIFIED
};

/** A workload's (or a key metric's) decision (recommendation.decision). */
enum rd_decision_kind {
    RD_DECISION_UNKNOWN = 0,  /* an analysis from before the verdicts */
    RD_DECISION_CLEAR,
    RD_DECISION_EQUIVALENT,
    RD_DECISION_INCONCLUSIVE,
    RD_DECISION_NO_DATA
};

struct rd_rverdict {
    const char *config;        /* id */
    int index;                 /* the config's index in the workload, or -1 */
    enum rd_verdict_kind verdict;
    double ratio, ratio_ci_low, ratio_ci_high;   /* the simultaneous interval */
    double p_adj, runs_needed;
    bool exact;
    /* false only when the analysis says a mean is not clearly above zero
     * at the critical value: no interval (analysis key 'estimable') */
    bool estimable;
    /* 1: the interval lies wholly past the margin on the worse side; 0:
     * not; -1: no interval, or an analysis from before the key */
    int beyond_margin;
    const char *why;           /* NULL for key metrics */
    /* A config the race eliminated (analysis keys eliminated_ci_*): its
     * verdict has no interval; elim_ci_low/high is its ratio's interval on
     * all its runs (NaN when none, and elim_note says why) */
    bool eliminated;
    double elim_ci_low, elim_ci_high;
    const char *elim_note;
};

/** The verdicts on one metric: the primary one, or a key metric. */
struct rd_rdecision {
    const char *metric;        /* NULL for the primary (the workload's metric) */
    enum rd_better better;     /* the primary's: the workload's, which the analysis
                                  does not repeat in the recommendation */
    const char *best, *recommended;   /* config ids or NULL */
    enum rd_decision_kind decision;
    double family, critical_value, df, runs_needed;
    /* verdict_alpha: the level the verdicts used; NaN in analyses
     * before it was written (then alpha_look, else the report's alpha) */
    double alpha;
    const char *const *candidates;    /* config ids */
    size_t ncandidates;
    struct rd_rverdict *verdicts;     /* their 'index' is derived */
    size_t nverdicts;
};

struct rd_rrecommendation {
    const char *best, *recommended, *reason;   /* config ids, a sentence */
    const char *const *tied;                   /* config ids (the old rule) */
    size_t ntied;
    const char *tie_breaker, *guards;          /* metric, "m<=x,..."; may be NULL */
    double margin, max_error_rate;
    /* alpha_look, information_fraction and _before (docs/analysis.md):
     * NaN when the runs carry no planned maximum (the level is alpha) */
    double alpha_look, fraction, fraction_before;
    /* blocks "round": the verdicts compared the configs within rounds */
    bool paired;
    struct rd_rdecision primary;               /* decision, family, verdicts, ... */
    struct rd_rdecision *keys;                 /* key_metrics[], when several */
    size_t nkeys;
    /* settled_labels (key -> value) and open_labels: what the verdicts
     * answer per label; empty in analyses before issue 26 */
    const char *const *settled_keys, *const *settled_values, *const *open_keys;
    size_t nsettled, nopen;
    /* The workload's "within": one decision per value of its
     * compare_within labels (docs/analysis.md); none otherwise. */
    struct rd_rwithin *within;
    size_t nwithin;
};

/** One value's own decision (workloads[].within[]). */
struct rd_rwithin {
    const char *name;                    /* "tasks=10000" */
    struct rd_rrecommendation *rec;      /* its recommendation (no within) */
};

/** "warning" (worth reading) or "info"; absent in analyses before issue 15. */
enum rd_warning_level { RD_LEVEL_UNSET = 0, RD_LEVEL_WARNING, RD_LEVEL_INFO };

struct rd_rwarning {
    const char *code, *config, *message;   /* config: an id, or NULL */
    const char *metric;                    /* or NULL */
    enum rd_warning_level level;
    double count;                          /* grouped entries: how many; else 1 */
    const char *const *configs;            /* grouped entries: the config ids */
    size_t nconfigs;
};

struct rd_rworkload {
    const char *name;
    const char *klass;      /* "cpu", "io", ...; may be NULL */
    const char *metric;     /* primary metric name; may be NULL */
    const char *title;      /* optional description; may be NULL */
    enum rd_better better;  /* of the primary metric; none unless the analysis names one */
    struct rd_rconfig *configs;
    size_t nconfigs;
    const struct rd_rtests *tests;           /* NULL when the analysis has none */
    struct rd_rrecommendation *rec;          /* NULL when the analysis has none */
    const struct rd_rwarning *warnings;      /* one per entry of 'warnings' */
    size_t nwarnings;
    int baseline;           /* the first config of 'baseline', or -1 */
    double env_unknown_runs; /* runs imported without an environment; NaN: none said */
    /* "contention": measured runs, of them contended and of unknown
     * contention, other processes' CPU (mean, max); NaN: none said */
    double cont_runs, cont_contended, cont_unknown, others_mean, others_max;
    double steal_mean, steal_max;  /* hypervisor steal; NaN: none said */
    double speed_min, slow_cpu_runs;  /* the CPU speed probe's; NaN: none said */
    double wakeup_min, slow_wakeup_runs; /* the cross-CPU wake-up's; NaN: none said */
    double cont_waited_s;   /* waited for quiet before its runs */
    /* derived */
    const char **keys;      /* label columns: runtime, mechanism, then sorted */
    size_t nkeys;
    int best;               /* config index or -1 */
    int recommended;        /* config index or -1 */
    int runner_up;          /* the best config other than 'recommended' by mean
                               (the best itself when it is not recommended), or -1 */
    const char *slug;       /* Markdown/HTML anchor, unique in the report */
    const char *file;       /* file-name stem for charts, unique */
    /* Lookups the back ends make once per config or pair, so that a
     * workload of 10^5 configs stays linear: config id -> first index,
     * and the two config indexes of a pair (lower first) -> its first
     * position in tests.pairs. */
    struct rd_strmap config_ids, pair_index;
    /* A pass/fail workload's matrix (verdicts.h), built once in derive;
     * NULL for the others. */
    struct rd_matrix *matrix;
};

/**
 * One row of the environment table: a label ("CPU") and the value of each
 * environment as text (memory in GiB, runtimes as "node v26.10.0, deno
 * 2.9.6", arrays joined), NULL where that environment has none or null.
 */
struct rd_renv_row {
    const char *label;
    const char *const *values;   /* rd_report.nenvs of them */
};

/** A figure of a published study set against ours (replication[]). */
struct rd_rreplication {
    const char *title, *study, *machine, *workload, *config, *metric, *statistic, *note;
    const struct rd_kv *labels;
    size_t nlabels;
    bool approx, params_differ;
    double pub_mean, pub_sd, pub_n;
    double ours_mean, ours_sd, ours_n, ours_statistic;
    double ratio, ratio_ci_low, ratio_ci_high, p;
};

/** A config a published claim names: this analysis's id when exactly one
 *  config matched (else NULL), and the labels the claim gave. */
struct rd_rclaim_config {
    const char *id;
    const struct rd_kv *labels;
    size_t nlabels;
};

/** One pair of an order claim: a claimed better than b. */
struct rd_rclaim_pair {
    const char *a, *b;
    double ratio, ratio_ci_low, ratio_ci_high, p, p_holm;
    double published_ratio;     /* the study's a / b (NaN: the claim gave no values) */
    bool agrees;
    bool alike;                 /* within the margin here, the study had them further apart */
    bool paired;                /* compared within rounds (paired t on the log ratios) */
};

/** A study's relative claim judged here (replication_claims[]). */
struct rd_rclaim {
    const char *study, *title, *kind, *workload, *metric, *better, *text, *from, *ref, *note;
    const char *statistic, *judgement, *reason;   /* judgement NULL: not evaluated */
    bool approx, params_differ;
    double margin, claimed_ratio, claimed_min, claimed_max;
    const struct rd_rclaim_config *configs;
    size_t nconfigs;
    double ratio, ratio_ci_low, ratio_ci_high, p;   /* ratio claims */
    /* compared within rounds (a workload with blocks "round"): the ratio
     * the within-round ratios' geometric mean, its interval the paired
     * t's; rounds: a ratio claim's rounds (NaN: not given) */
    bool paired;
    double rounds;
    const struct rd_rclaim_pair *pairs;             /* order and best claims */
    size_t npairs;
};

/** A study's count of claims by judgement (replication_summary[]). */
struct rd_rclaim_study {
    const char *study, *title;
    double claims, consistent, contradicted, inconclusive, not_evaluated;
};

/** One machine's ratio in a comparison across machines
 *  (machines[].comparisons[].per_machine[]). */
struct rd_rmachine_ratio {
    const char *machine, *workload;
    double ratio, ratio_ci_low, ratio_ci_high, n, n_reference;
};

/** A config against the reference on every machine, and across them. */
struct rd_rmachine_cmp {
    const char *config, *text;
    const struct rd_rmachine_ratio *per;
    size_t nper;
    double k, ratio, ratio_ci_low, ratio_ci_high, q, p;
    bool consistent;
};

/** A workload measured on several machines (machines[]). */
struct rd_rmachines {
    const char *workload, *metric, *better, *reference;
    const char *const *machine_ids;
    size_t nmachine_ids;
    const struct rd_rmachine_cmp *cmps;
    size_t ncmps;
};

/** A setting of the analysis as the Methods sheet lists it. */
struct rd_rsetting {
    const char *key;
    bool is_number;
    double number;      /* when is_number */
    const char *text;   /* else the value as text, NULL when it says nothing (null) */
};

/** The error text of a failed check (check_errors[]): the first run of
 *  the config whose bool 'metric' is 0 and which says why. */
struct rd_rcheck_error {
    const char *workload, *metric, *error;
    const struct rd_kv *labels;
    size_t nlabels;
};

struct rd_report {
    const char *path;              /* the analysis file, as given */
    const char *title;             /* never NULL */
    const char *date;              /* may be NULL */
    double alpha, confidence;      /* NaN when absent */
    /* What settings say of the method; NaN or NULL when absent. */
    double runs, warmups, bootstrap, seed;
    const char *order, *ratio_ci;
    const struct rd_rsetting *settings;
    size_t nsettings;
    /* Environments: an id each (NULL when it has none) and the table. */
    bool envs_listed;              /* the analysis has an "environments" array */
    const char *const *env_ids;
    size_t nenvs;
    const struct rd_renv_row *env_rows;
    size_t nenv_rows;
    const struct rd_rreplication *replication;
    size_t nreplication;
    const struct rd_rclaim *claims;
    size_t nclaims;
    const struct rd_rclaim_study *claim_studies;
    size_t nclaim_studies;
    const struct rd_rmachines *machines;   /* workloads measured on several machines */
    size_t nmachines;
    const char *const *inputs;     /* the stores the analysis read */
    size_t ninputs;
    /* raw_runs: how many runs the stores held, and how many of them the
     * analysis embeds (its cap); NaN when it embeds none (an older one). */
    double raw_total, raw_embedded;
    const struct rd_rcheck_error *check_errors;
    size_t ncheck_errors;
    struct rd_rworkload *workloads;
    size_t nworkloads;
    /* derived */
    const char **runtimes;         /* distinct runtime labels, first-seen order */
    const char **runtime_colours;  /* "#rrggbb" of each runtime */
    size_t nruntimes;
    long total_runs;               /* measured runs counted from n, or -1 */
    const char *slug_method;       /* anchors of the Method and Warnings sections */
    const char *slug_warnings;
    /* The runs the analysis embeds (raw_runs.items): each its store and
     * its record as JSON text, read one at a time (rd_report_for_each_run). */
    const struct rd_rraw *raw_items;
    size_t nraw_items;
    struct rd_arena arena;         /* everything above */
    struct rd_json_lazy *lazy;     /* model.c's, while it reads */
    bool oom;                      /* model.c's: a copy into the arena failed */
};

/**
 * Parses 'text' (JSON, then UTF-8 text throughout) and builds the model.
 * 'shown' names the input in messages; 'path' (the file, named in
 * messages) must outlive the report. A document that is not a
 * rundown.analysis/1 object, or whose workloads and configs lack the
 * required names and ids, is RD_ERR_PARSE with a message naming the JSON
 * path ("workloads[1].configs[0]: expected 'id' to be a string").
 * Release with rd_report_release, also after a failure.
 */
rd_status rd_report_parse(struct rd_report *r, const char *text, size_t len,
                          const char *shown, const char *path, struct rd_diag *d);

/** The default cap on an analysis's size (rundown-render --max-input). */
#define RD_RENDER_MAX_INPUT ((size_t)1 << 30)

/**
 * Reads 'path' ("-" = stdin), then rd_report_parse. The path must name a
 * regular file (a FIFO or /dev/zero is refused at once) of at most
 * 'max_input' bytes, checked before reading; standard input is read up to
 * the cap, and refused at its first NUL byte (JSON holds none). Too big or
 * not a regular file is RD_ERR_IO, with a message naming --max-input.
 */
rd_status rd_report_load(struct rd_report *r, const char *path, size_t max_input,
                         struct rd_diag *d);

/** Frees the document and everything derived; r is left zeroed. */
void rd_report_release(struct rd_report *r);

/** Whether some claim, or some pair of an order, was compared within
 *  rounds (replication_claims[].paired): the report then says what its
 *  interval is. */
bool rd_report_claims_paired(const struct rd_report *r);

/* ---- the raw runs the analysis embeds (runs.h: their status words and columns) ---- */

/** A run's status in its store (rundown.run/1). */
enum rd_run_status { RD_RUN_OK, RD_RUN_FAILED, RD_RUN_TIMEOUT };

/** One run record of an input store, as the Raw runs sheet lists it. */
struct rd_rrun {
    const char *store;          /* the store as the analysis names it */
    const struct rd_record *rec;
    enum rd_run_status status;
};

/**
 * Calls fn for every run the analysis embeds (raw_runs.items), in store
 * and line order, and returns how many there were. The stores themselves
 * are never opened. A malformed item is skipped. The run is valid only
 * during the call (model.c, the file that reads the JSON).
 */
size_t rd_report_for_each_run(const struct rd_report *r,
                              void (*fn)(const struct rd_rrun *run, void *arg), void *arg);

#endif
