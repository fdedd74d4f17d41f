/*
 * wctx.h - the analysis of one workload: the structs its modules share
 * (private to analyze/; each module declares its functions in its own header).
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
 *
 * and, along the way, directions.c (better directions), cfghelp.c (the
 * config helpers), levels.c and looks.c (sessions as levels, the look's
 * level), within.c (decisions per label value) and collection.c (the
 * adaptive collection's stopping rule).
 */
#ifndef RUNDOWN_ANALYZE_WCTX_H
#define RUNDOWN_ANALYZE_WCTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis_int.h"
#include "rundown/arena.h"
#include "rundown/metrics.h"
#include "stats.h"
#include "verdict.h"

struct within;


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

#endif
