/*
 * analysis_int.h - the data the analyze stage keeps between reading the
 * stores and writing the report (private to analyze/).
 *
 * Memory is what lets it scale to millions of runs: per workload, config and
 * metric only a double and a 32-bit run index per measured value, and 8
 * bytes per run (its run number and store: struct run_meta), 8 more for
 * its start where a run of its config has one (cfg.run_t); every
 * string (names, ids, labels, environment ids) lives once in one arena.
 */
#ifndef RUNDOWN_ANALYZE_ANALYSIS_INT_H
#define RUNDOWN_ANALYZE_ANALYSIS_INT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "embed.h"
#include "sessioncut.h"
#include "rundown/arena.h"
#include "rundown/record.h"
#include "rundown/strmap.h"

/* A machine figure over runs (others' CPU, steal): how many runs have it,
 * their sum and the largest. */
struct mfig {
    size_t n;
    double sum, max;
};

static inline void mfig_add(struct mfig *f, double v)
{
    f->sum += v;
    f->max = f->n++ ? fmax(f->max, v) : v;
}

static inline void mfig_merge(struct mfig *f, const struct mfig *g)
{
    if (g->n == 0)
        return;
    f->max = f->n ? fmax(f->max, g->max) : g->max;
    f->n += g->n;
    f->sum += g->sum;
}

struct series {
    uint32_t metric;   /* index into rd_analysis.metrics */
    uint32_t len, cap;
    double *v;
    uint32_t *ord;     /* the value's run: an index into its cfg's runs;
                        * NULL while value i is run i's (every run has the
                        * metric: 4 bytes a value spared), rd_series_run */
};

/** The run (an index into its cfg's runs) of s's value i. */
static inline uint32_t rd_series_run(const struct series *s, uint32_t i)
{
    return s->ord ? s->ord[i] : i;
}

/* One measured run of a config (ok, failed or timed out), in arrival order:
 * what says where and when it ran, for the run order, duplicate run
 * numbers and sessions (docs/methods.md, "Sessions"). */
struct run_meta {
    uint32_t order;         /* run number (a redo's: its round, info "round"), or
                               arrival order when the record has none */
    uint32_t input : 30;    /* its store: an index into rd_analysis.inputs */
    uint32_t numbered : 1;  /* order is the record's run number or round */
    uint32_t redo : 1;      /* order is the round of the contended run it replaces
                               (rd_record_round), not a number of its own */
};

/* A stretch in which an input store's collector was at work that the runs
 * kept for the statistics do not show: a wait for a quiet machine before a
 * run (info.contention_wait_s: from = its start - the wait, t = its
 * start), or a run set aside as contended (from its wait, if any, to its
 * start). sessions.c reads them with the runs, so that the guard's own
 * waits and redos are not taken for a pause of the collection. */
struct busy_mark {
    double from, t;
    uint32_t input;
};

/* A run whose source digest an earlier run holds: where each of the two
 * is (store and line), so the warning can name both. */
struct dup_run {
    uint32_t input, line;          /* the copy, left out of the statistics */
    uint32_t first_input, first_line; /* the run that is counted */
};

/* A run read with a source digest: the config it was counted in and its
 * place (sources.c). */
struct source_run {
    unsigned char digest[32];
    uint32_t cfg, input, line;
};

/* A direction info.metric_better gives a metric in a workload's runs; a
 * metric two runs give opposite directions is 'conflict' and falls back
 * to its registry or suffix direction (directions.c). */
struct metric_dir {
    const char *metric;
    int better;              /* enum rd_better */
    bool conflict;
};

struct cfg {
    const char *workload;
    const char *key;         /* "workload\x1fid\x1ftool", its key in cfg_map */
    const char *id;          /* "mechanism=worker,runtime=bun"; with tool=... when the
                              * workload's runs come from several load tools */
    struct rd_kv *labels;
    size_t nlabels;
    const char *env;         /* first environment id seen, or NULL */
    const char *env_other;   /* a second one (only with pool_envs) */
    const char *command;     /* the first info.command seen, or NULL */
    const char *command_other; /* a second, different one: runs of two
                                * commands merged into one config */
    unsigned env_line;       /* line of the first run that named env */
    const char *tool;        /* the runs' "tool", or NULL */
    bool tool_label;         /* the tool is already part of labels and id */
    struct run_meta *runs;   /* every measured run, in arrival order */
    uint32_t nruns;
    size_t capruns;
    /* Each run's started_at in seconds since 1970 (NaN: none), beside runs:
     * NULL while no run of the config has one (a store without times, as
     * a generated one, spares 8 bytes a run: 8 MB at 10^6 runs);
     * rd_run_time reads it. */
    double *run_t;
    size_t caprun_t;
    size_t ok_runs, failed, timeouts, load_error_runs;
    size_t env_unknown;      /* runs imported without an environment (info.env_unknown) */
    /* Contention (docs/methods.md, "Foreign load"): measured runs marked
     * contended, of them left out (without --include-contended), runs
     * without machine_others_cpu_pct (contention unknown), that metric's
     * and machine_steal_pct's count, sum and largest value. */
    size_t contended, contended_left_out, contention_unknown;
    struct mfig others, steal;
    double waited_s;         /* info.contention_wait_s summed: waiting for quiet */
    size_t speed_n;          /* runs with machine_speed_pct */
    double speed_min;        /* their lowest */
    size_t slow_cpu;         /* contended runs the CPU speed judged (info.contended_by) */
    size_t wake_n;           /* runs with machine_wakeup_pct */
    double wake_min;         /* their lowest */
    size_t slow_wakeup;      /* contended runs the cross-CPU wake-up judged */
    size_t busy_load;        /* contended runs other processes' CPU judged (or no
                              * contended_by: stores from before the probes) */
    bool race_keep;          /* info.race_keep: the suite kept it in the race */
    /* Error rates of good load runs older than the error_rate metric,
     * derived from their counts (rd_load_tally_of_record): their sum and
     * number, pooled with the error_rate values by recommend.c. */
    double derived_error_sum;
    size_t derived_error_runs;
    struct dup_run *dups;    /* later copies of its runs, left out (sources.c) */
    uint32_t ndups;
    size_t capdups;
    const char *failure;     /* info.failure of the first failed run, or NULL */
    struct series *series;
    uint32_t nseries;
    size_t capseries;
    uint32_t next_cfg;       /* 1 + the config the run after its last run in the
                              * workload went to (0: none): find_cfg's guess */
};

/** The start of c's run j (seconds since 1970), or NaN when it has none. */
static inline double rd_run_time(const struct cfg *c, uint32_t j)
{
    return c->run_t ? c->run_t[j] : NAN;
}

struct wl {
    const char *name;
    const char *class_;      /* info.class */
    const char *primary;     /* info.primary_metric */
    const char *better;      /* info.primary_better */
    const char *tie_breaker; /* info.tie_breaker */
    const char *margin;      /* info.margin: relative equivalence margin */
    const char *key_metrics; /* info.key_metrics: "rps,latency_p99_ms" */
    const char *guards;      /* info.guards: "latency_p99_ms<=100" */
    const char *max_error_rate; /* info.max_error_rate: a fraction */
    /* info.compare_within: "tasks,tool", labels whose values are separate
     * questions (within.c); "" none; NULL unset (one per load tool when
     * the runs come from several). within_path and within_line: the store
     * and line it was first read from, NULL when --set gave it. */
    const char *compare_within;
    /* info.blocks: "round" compares the configs within rounds (pairs.h);
     * "none", "" or NULL do not */
    const char *blocks;
    const char *within_path;
    unsigned within_line;
    /* An adaptive suite's stopping rule (info.until, runs_min, runs_max,
     * precision_target, precision_alpha; budget_s under a budget). */
    const char *until, *runs_min, *runs_max, *precision_target, *precision_alpha, *budget_s;
    int64_t first_metric;    /* first metric of the first measured run, -1 none */
    struct metric_dir *dirs; /* info.metric_better of its runs, merged */
    size_t ndirs, capdirs;
    const char *dirs_seen;   /* the last info.metric_better merged (runs repeat it) */
    uint32_t *cfgs;
    size_t ncfgs, capcfgs;
    uint32_t last_cfg;       /* 1 + the config of its previous run (0: none) */
    /* Machines (issue 30): runs of one workload from several environments
     * are analysed per environment, never pooled (unless pool_envs). The
     * workload holds the runs of its first environment (and those with
     * none); each other environment's go to "NAME@ENV", whose 'base' is
     * NAME and 'machine' ENV. rd_machines_settle() then names the first
     * one "NAME@ENV" too. */
    const char *first_env;   /* the first environment of its runs */
    const char *base;        /* per machine: the workload's name in the runs */
    const char *machine;     /* per machine: the environment id */
    bool split;              /* its runs come from several environments */
};

struct envref {
    const char *id;
    const char *dir;         /* folder of the first store that used it */
    const char *json;        /* <dir>/<id>.json as one line of JSON with its "id",
                              * or NULL when there is no such file */
    size_t json_len;
    bool loaded;             /* json is final (read after the store that named it) */
    bool check_quiet;        /* its "check" (taken when the collection started)
                              * found the machine quiet */
};

struct rd_analysis {
    struct rd_analyze_opts o;
    struct rd_arena strings;
    const char **metrics;    /* interned metric names */
    size_t nmetrics, capmetrics;
    bool *load_err_metric;   /* per metric: counts load-tool errors (errors_*, non_2xx) */
    size_t cap_load_err_metric;
    struct rd_strmap metric_map; /* name -> index into metrics */
    size_t last_wl;          /* 1 + the workload the previous run named (0: none) */
    uint32_t *last_ids;      /* metric ids of the previous run record, by position */
    size_t nlast_ids, caplast_ids;
    struct wl *wls;
    size_t nwls, capwls;
    struct rd_strmap wl_map; /* name -> index into wls */
    struct cfg *cfgs;
    size_t ncfgs, capcfgs;
    struct rd_strmap cfg_map; /* cfg.key -> index into cfgs */
    struct envref *envs;
    size_t nenvs, capenvs;
    const char **inputs;
    size_t ninputs, capinputs;
    struct rd_pause *pauses; /* every store's pauses, by store then time (sessions.c,
                              * stats/sessioncut.h) */
    size_t npauses;
    struct busy_mark *busy;  /* sparse: only stores with contention have any */
    size_t nbusy, capbusy;
    struct rd_strmap digest_map; /* source digest (32 bytes) -> index into sources */
    struct source_run *sources;
    size_t nsources, capsources;
    size_t records, measured; /* run records read, of them not warmups */
    bool unnumbered;         /* a run without a run number was read (see struct half
                              * in ingest.c) */
    struct rd_embed embed;   /* the runs and check errors analysis.json embeds */
    bool config_helper;      /* set by pool.c while it writes the workloads on one
                              * thread that may have had more: a second thread then
                              * helps with a big workload's configs, pairs and rows
                              * (write.c) and its per-config work (halves.c) */
};

/* ingest.c's helpers on what it read; each other module of analyze/ that
 * exports functions declares them in its own header (wctx.h lists them). */

/** c's series of 'metric', or NULL. */
struct series *rd_cfg_find_series(const struct cfg *c, uint32_t metric);
/** The id of metric 'name' (NULL allowed), or -1 when no run holds it. */
int64_t rd_analysis_metric_id(const struct rd_analysis *a, const char *name);

#endif
