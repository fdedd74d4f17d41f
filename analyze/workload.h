/*
 * workload.h - the analysis of one workload (private to analyze/).
 *
 * A workload is analysed on its own, into a struct wctx, and written out
 * before the next is looked at; workloads share only the read-only
 * struct rd_analysis, which is what lets pool.c run them on several
 * threads. The modules, in the order they run:
 *
 *   workload.c   the configs sorted, the metrics present, the primary
 *                metric, and each config's values prepared (descriptives)
 *   compare.c    omnibus and pairwise tests between the configs
 *   recommend.c  the recommended config and the sentence that says why
 *   sessions.c   which collection session each run belongs to
 *   warnings.c   what the reader must know about the data
 *   write.c      the workload (and the whole document) as JSON
 *   pool.c       workloads analysed and written in parallel, in order
 */
#ifndef RUNDOWN_ANALYZE_WORKLOAD_H
#define RUNDOWN_ANALYZE_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis_int.h"
#include "rundown/arena.h"
#include "rundown/metrics.h"
#include "stats.h"
#include "verdict.h"

struct jw;

/* One metric of one config, ready for output and tests. */
struct prep {
    bool have;
    size_t n_all, n_used, noutl;
    double *all;      /* values in run order */
    double *used;     /* all, or all without outliers (--exclude-outliers) */
    double *sorted;   /* used, ascending */
    size_t *outl;     /* indices into all */
    uint32_t *run_of; /* tested metrics: each value's run, an index into its cfg's runs */
    struct rd_summary sum;
    double med_lo, med_hi, med_level;
    struct rd_trend trend;
    bool tested;
    const char *med_method;   /* "binomial" or "bootstrap" */
    /* Tested metrics (levels.c): the sessions its used values come from,
     * and when 2 or more with a within-session spread (nested.h) the share
     * of the variance between them and the df of sum.se, which then holds
     * the two-level standard error of the mean (sum.ci_low/high with it).
     * mean_df 0: one level, sum.se on n - 1 df as always. */
    size_t sessions;
    double between_share, mean_df;
    /* Tested metrics (levels.c): the sd of the logs of used on sum.sd's
     * footing for the verdicts (rd_verdict_sample.log_sd: two-level with
     * mean_df as sum.se is); 0 when a value is not positive */
    double log_sd;
};

struct pair {
    size_t a, b;      /* positions in the workload's sorted config list */
    struct rd_welch w;
    struct rd_mwu mw;
    double g, p_holm, p_bh;
    struct rd_ratio r;
};

/* One warning as written: a finding, or the findings of one kind merged
 * (config NULL then). Strings live in the workload's arena. */
struct warn {
    const char *code, *config, *metric;
    const char *level;       /* "warning", or "info": expected at this n */
    char *msg;
    const char **configs;    /* ids of the configs it concerns */
    size_t nconfigs;
    size_t count;            /* findings merged into it */
};

struct tests {
    uint32_t metric;
    enum rd_better better;
    struct rd_anova anova, wanova;
    struct rd_kruskal kw;
    bool have_multi;
    struct pair *pairs;
    size_t npairs;
    size_t best;      /* position of the best config, or SIZE_MAX */
    const char *scope; /* "all", "vs_best" or "none" */
};

/* One key metric's verdicts against its best (verdict.h). */
struct key_verdicts {
    size_t ti;                    /* its index in wctx.tested */
    uint32_t metric;
    enum rd_better better;
    struct rd_verdict_row *rows;  /* [k] */
    double *p_adj;                /* [k]: NaN where there is no test */
    struct rd_verdict_result res;
    size_t recommended;           /* SIZE_MAX: none (inconclusive, no data) */
    long runs_needed;             /* runs per config that would settle it; 0 */
};

struct reco {
    bool have;                    /* a decision was made (maybe no-data) */
    size_t best, recommended;     /* recommended: SIZE_MAX when none */
    size_t *tied;                 /* the old rule, kept for old readers */
    size_t ntied;
    int64_t tie_metric;
    double margin;
    double max_error_rate;
    bool *disqualified;           /* [k] */
    const char **why;             /* [k]: each config's verdict in words */
    struct key_verdicts *keys;    /* [nkeys]: keys[0] is the primary metric */
    size_t nkeys;
    /* Answers per label on the primary metric: a label whose value is
     * the same for every candidate (not shown worse, not disqualified) is
     * settled; one on which they differ is open. Only labels that vary
     * among the eligible configs; keys and values borrow the configs'. */
    const char **settled_keys, **settled_values, **open_keys;
    size_t nsettled, nopen, ncandidates;
    char reason[4096];
};

/* The collection session of every run of a workload's configs. */
struct sessions {
    uint32_t **of;    /* [config position][run index]: its session, 0..n-1 */
    size_t n;         /* sessions in the workload */
};

/* The workload's looks at its data (looks.c; docs/methods.md §6
 * "Looks"): its sessions, and the information fraction its verdicts
 * spend alpha by when the runs carry a planned maximum. */
struct looks {
    size_t n;         /* looks: the workload's sessions (1 at least) */
    double runs_max;  /* planned maximum runs per config; 0: none */
    double n_last;    /* the most good values of a config by the last look */
    double t, t_prev; /* information fraction of the last look and of the
                         last earlier one below it (0: none) */
    bool spend;       /* the level is a(t) - a(t_prev), not alpha */
};

/* Everything about the workload being written. */
struct wctx {
    struct rd_analysis *a;
    struct wl *w;
    struct cfg **cs;          /* sorted by id */
    size_t k;
    uint32_t *mets;           /* metrics present, sorted by name */
    size_t nmets;
    bool have_primary;        /* false: no run of the workload holds a metric */
    uint32_t primary;
    enum rd_better better;
    uint32_t *tested;         /* metrics with tests: the key metrics first */
    size_t ntested;
    size_t nkeys;             /* tested[0..nkeys): the primary, then the other key
                               * metrics; each gets verdicts */
    struct prep *preps;       /* [tested index][config] */
    struct tests *tests;      /* [tested index] */
    struct reco rc;
    struct warn *warns;
    size_t nwarns, capwarns;
    struct sessions sess;     /* each run's session (sessions.c) */
    struct looks looks;       /* the level its verdicts spend (looks.c) */
    struct rd_arena tmp;      /* warning text, per workload */
    double *scratch;
    size_t scratch_cap;
    struct within *within;    /* decisions per label value; NULL: none */
};

/* ---- within.c ---- */

/* One value (of each compare_within label) and its configs, decided on
 * their own in 'sub' (its prepared values borrowed from the workload's). */
struct within_part {
    const char **values;      /* [nkeys]: the part's label values (NULL: lacks it) */
    size_t *pos;              /* [n]: its configs' positions in the workload */
    size_t n;
    struct wctx sub;
};

struct within {
    const char **keys;        /* the labels */
    size_t nkeys;
    bool automatic;           /* from the load tools, not compare_within */
    struct within_part *parts;
    size_t nparts;
    size_t *pos;              /* the parts' positions, one array */
};

/**
 * Checks every workload's compare_within names labels its configs have:
 * RD_ERR_USAGE naming the --set option, or RD_ERR_PARSE at the store and
 * line the setting was read from, saying which labels there are.
 */
rd_status rd_within_check(struct rd_analysis *a, struct rd_diag *d);

/**
 * When x's workload names compare_within (or its runs come from several
 * load tools and it names none), decides each value's configs on their
 * own into x->within, and makes x->rc the workload's answer from them:
 * each config's verdict from its part, the decision, the labels settled
 * in every part, one sentence naming every part's decision. Nothing
 * otherwise. x->rc must be decided. x->within is freed with x.
 */
rd_status rd_within_decide(struct wctx *x);
void rd_within_release(struct within *wi);

/* ---- collection.c ---- */

/**
 * Writes "collection" for a workload an adaptive suite collected (its
 * records carry info.until): the stopping rule and, from the stopping
 * rule applied to the runs analysed (stats/settle.h), why collection
 * stopped. Nothing for other workloads.
 */
void rd_collection_write(const struct wctx *x, struct jw *w);

/** Whether the workload's collection raced (an adaptive suite's, with a
 *  primary metric that has a better direction). */
bool rd_collection_raced(const struct wctx *x);

/** The level the verdicts of tested metric ti are stated at, from the
 *  analysis's alpha: the level the workload's last look spends
 *  (rd_looks_level), and for a raced workload's primary metric the part
 *  of it the race leaves its contenders (rd_settle_final_alpha). */
double rd_collection_level(const struct wctx *x, double alpha, size_t ti);

/** The race replayed on the runs analysed: at[0..k) receives the round
 *  whose look eliminated each config, 0 for none (all 0 when the
 *  workload did not race). */
rd_status rd_collection_race(const struct wctx *x, long *at);

/* ---- workload.c ---- */

/**
 * Analyses workload wl of a into x: configs, metrics, prepared values,
 * tests and recommendation. by_name lists every metric id of a ordered by
 * name. The caller then decides within labels (rd_within_decide) and
 * collects the warnings (rd_warnings_collect), which read both: write.c
 * does, so that workload.c calls neither back. Call rd_wctx_release(x)
 * afterwards, also on failure (RD_ERR_NOMEM).
 */
rd_status rd_wctx_analyse(struct wctx *x, struct rd_analysis *a, const uint32_t *by_name,
                          struct wl *wl);
void rd_wctx_release(struct wctx *x);

/** Applies the --set WORKLOAD.KEY=VALUE settings to the workloads read;
 *  RD_ERR_USAGE (naming the setting) for an unknown workload or key. */
rd_status rd_analysis_apply_settings(struct rd_analysis *a, struct rd_diag *d);

/** Fills p for series s of config c (NULL: c lacks the metric). 'full' adds the
 * median CI, the trend test and each value's run (tested metrics only).
 * Release p with rd_prep_release, also on failure. */
rd_status rd_prep_series(struct wctx *x, const struct cfg *c, const struct series *s,
                         bool full, struct prep *p);
void rd_prep_release(struct prep *p);

/* ---- directions.c ---- */

/** The better direction of metric m in x's workload: its runs'
 *  info.metric_better unless they disagree, else the registry's or the
 *  name's suffix's. */
enum rd_better rd_wctx_metric_better(const struct wctx *x, uint32_t m);
/** What the runs' info.metric_better says of metric m, or NULL. */
const struct metric_dir *rd_wctx_metric_dir(const struct wctx *x, uint32_t m);
/** The same for workload w outside a workload's analysis (claims.c). */
enum rd_better rd_wl_metric_better(const struct rd_analysis *a, const struct wl *w, uint32_t m);
const struct metric_dir *rd_wl_metric_dir(const struct rd_analysis *a, const struct wl *w,
                                          uint32_t m);

/* ---- cfghelp.c (helpers apart from the driver, workload.c) ---- */
/** Does some config of the workload hold metric id (-1: no)? */
bool rd_wctx_has_metric(const struct wctx *x, int64_t id);
/** Is mean u better than mean v under direction b? A NaN is never better. */
bool rd_better_than(double u, double v, enum rd_better b);
/** Does c carry the --baseline label? */
bool rd_cfg_is_baseline(const struct rd_analysis *a, const struct cfg *c);
/** "bun / worker / workers=4": c's name as the report gives it
 *  (rd_fmt_config_name: runtime, mechanism, then the other keys; a number
 *  with its key), "(no labels)" without labels; cut to fit 'size'. */
void rd_cfg_display_name(const struct cfg *c, char *out, size_t size);

/* ---- compare.c ---- */

/** The omnibus and pairwise tests on tested metric ti into x->tests[ti]
 * (x->preps of that metric must be prepared). */
rd_status rd_compare_metric(struct wctx *x, size_t ti);
/** The pair of configs u and v (either order), or NULL when not tested. */
const struct pair *rd_compare_find_pair(const struct tests *t, size_t u, size_t v);
/** Welch's test (into w) and Fieller's CI of the ratio of means (into r) of
 * a against b, from their summaries; either output may be NULL. */
void rd_compare_two(const struct prep *a, const struct prep *b, double confidence,
                    struct rd_welch *w, struct rd_ratio *r);

/* A config against its --baseline config on the primary metric. */
struct baseline_cmp {
    size_t config;      /* position of the baseline config */
    struct rd_welch w;
    struct rd_ratio r;
};

/** Config i against its baseline: the config with the --baseline label whose
 * other labels equal i's, or the workload's only baseline config. False when
 * there is none, i is its own, or the workload has no primary metric. */
bool rd_compare_baseline(const struct wctx *x, size_t i, struct baseline_cmp *out);

/* ---- recommend.c ---- */

/** The verdicts on every key metric and the recommendation into rc
 *  (x->tests of the key metrics must be done). Release with
 *  rd_reco_release. */
rd_status rd_recommend(struct wctx *x, struct reco *rc);
void rd_reco_release(struct reco *rc, size_t k);
/** The relative equivalence margin of workload w: its info.margin when that
 *  is a number >= 0, else --margin. */
double rd_workload_margin(const struct rd_analysis *a, const struct wl *w);

/* ---- sessions.c ---- */

/** Finds the pauses of every input store's collection as a whole into
 *  a->pauses, from the measured runs of all its workloads. Called once,
 *  before any workload is analysed: rd_sessions_find reads them. */
rd_status rd_pauses_find(struct rd_analysis *a);

/** Finds the sessions of x's runs (docs/methods.md, "Sessions"). Release
 * with rd_sessions_release(s, x->k), also on failure (RD_ERR_NOMEM). */
rd_status rd_sessions_find(const struct wctx *x, struct sessions *out);
void rd_sessions_release(struct sessions *s, size_t k);

/* ---- looks.c ---- */

/** Fills x->looks from x->sess and the primary metric's prepared values
 *  (x->preps[0..k)), after rd_levels_apply. */
rd_status rd_looks_find(struct wctx *x);

/** The level of the workload's verdicts for a procedure at alpha: the
 *  last look's increment of the spending function when the runs carry a
 *  planned maximum (stats/settle.h, rd_settle_look_level), else alpha. */
double rd_looks_level(const struct wctx *x, double alpha);

/* ---- levels.c ---- */

/**
 * Finds the sessions of x's runs into x->sess and, for every tested
 * metric of every config whose used values come from 2 sessions or more,
 * replaces the mean's standard error and interval by the two-level ones
 * (nested.h; docs/methods.md §6a), setting prep.sessions, between_share
 * and mean_df. Configs of one session keep their numbers bit for bit.
 */
rd_status rd_levels_apply(struct wctx *x);

/** Config p's sample for the verdicts: n, mean and an sd with sd^2 / n
 *  the variance of the mean, at its df (two-level when p->mean_df > 0). */
struct rd_verdict_sample rd_levels_sample(const struct prep *p, bool eligible);

/* Above this share of the variance between sessions, the advice is more
 * sessions, not more runs. */
#define RD_LEVELS_DOMINANT 0.5

/** The largest share of the variance between sessions among the configs
 *  of kv's open comparisons and the best (row SIZE_MAX: every open row;
 *  else config row's alone); NaN when none has two levels. */
double rd_levels_open_share(const struct wctx *x, const struct key_verdicts *kv, size_t row);

/**
 * What would settle the open comparisons of key metric kv (row SIZE_MAX:
 * the workload's; else config row's alone) into out: "more sessions ..."
 * when more than RD_LEVELS_DOMINANT of the variance of an open comparison's config or of
 * the best lies between sessions, else "about RUNS runs per config ..."
 * when runs > 0, else "".
 */
void rd_levels_advice(const struct wctx *x, const struct key_verdicts *kv, size_t row,
                      long runs, char *out, size_t size);

/** The session of each used value (without excluded outliers) of prep p
 *  of config i into out[0..p->n_used). */
void rd_levels_sessions_of(const struct wctx *x, size_t i, const struct prep *p,
                           uint32_t *out);

/* ---- warnings.c ---- */

/** Appends every warning about the workload to x->warns, the findings of
 * one kind merged into one warning that counts and names them. */
rd_status rd_warnings_collect(struct wctx *x, const struct reco *rc);
/** x->warns as the workload's "warnings" array member. */
void rd_warnings_write(const struct wctx *x, struct jw *w);

/* ---- write.c ---- */

/** Analyses workload wl and writes it as one member of an array to w. */
rd_status rd_workload_write(struct rd_analysis *a, const uint32_t *by_name, struct wl *wl,
                            struct jw *w);

/* ---- pool.c ---- */

/** Analyses workload wl and writes it as one member of an array to w
 *  (rd_workload_write); called from several threads at once. */
typedef rd_status rd_workload_writer(struct rd_analysis *a, const uint32_t *by_name,
                                     struct wl *wl, struct jw *w);

/**
 * Writes every workload with write_one, in name order, into the open array
 * of w; with a sink, w's buffer is handed to it as it grows (see
 * rd_analysis_write_to). Generic over the writer, so the pool calls no
 * file that calls it.
 */
rd_status rd_workloads_write(struct rd_analysis *a, struct jw *w, rd_workload_writer *write_one,
                             const struct rd_analysis_sink *sink, struct rd_diag *d);

#endif
