/*
 * runsummary.h - what `rundown-collect run` prints when its runs are done,
 * hyperfine's habit: per command the time (mean ± sd, min … max, user and
 * system), the tree's peak memory, and how much faster the fastest ran
 * than each other command, decided by the report's own verdict machinery
 * (verdict.h, in rd_stats), so the terminal and the report never disagree.
 * Also its exports in hyperfine's layouts (--export-json, --export-csv,
 * --export-markdown), so that a hyperfine user's scripts read them.
 */
#ifndef RUNDOWN_RUNSUMMARY_H
#define RUNDOWN_RUNSUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "verdict.h"
#include "rundown/buf.h"
#include "rundown/record.h"
#include "rundown/status.h"

#define RD_RUN_TALLY_PARAMS 4

/** One command's measured good runs, tallied as they are stored. */
struct rd_run_tally {
    const char *name;        /* the command as typed (borrowed) */
    long n;                  /* runs tallied */
    double mean, m2;         /* wall_ms: Welford's running mean and squares */
    double min, max;
    double user_sum, sys_sum;
    long user_n, sys_n;
    double mem_kib;          /* the largest peak memory seen; 0: none */
    bool mem_tree;           /* it is tree_rss_peak_kib, not max_rss_kib */
    /* each tallied run's wall_ms and exit code, in order (owned), for
     * hyperfine's JSON export (times, exit_codes) and the median */
    double *times;
    int *exit_codes;
    size_t times_cap;
    bool times_lost;         /* memory ran out: times[] misses runs */
    /* a parameter scan's VAR and value of this command (borrowed) */
    const char *param_var[RD_RUN_TALLY_PARAMS], *param_value[RD_RUN_TALLY_PARAMS];
    size_t nparams;
};

/** A tally of no runs for the command 'name'. */
void rd_run_tally_init(struct rd_run_tally *t, const char *name);

/** Adds r when it is a measured run with status ok and a wall_ms, not
 *  contended. RD_ERR_NOMEM when its time cannot be kept in times[] (the
 *  rest is tallied; the JSON and CSV exports then fail). */
rd_status rd_run_tally_add(struct rd_run_tally *t, const struct rd_record *r);

/** Frees the tally's times; the tally is then one of no runs. */
void rd_run_tally_release(struct rd_run_tally *t);

/** The median wall_ms of the tallied runs; NaN with none (or times lost). */
double rd_run_tally_median(const struct rd_run_tally *t);

/** The sample standard deviation of wall_ms; NaN under two runs. */
double rd_run_tally_sd(const struct rd_run_tally *t);

/** The comparison of k tallies: each with the fastest, by wall_ms. */
struct rd_run_summary {
    const struct rd_run_tally *tallies;
    size_t k;
    bool compared;                 /* verdicts decided (two or more with runs) */
    struct rd_verdict_row rows[64];
    double p[64];                  /* adjusted p per row; NaN for none */
    struct rd_verdict_result res;
    struct rd_verdict_settings settings;
    /* --reference: every command against this one instead of the fastest
     * (rd_run_summary_reference); k: none */
    size_t reference;
    struct rd_run_refrow {
        double ratio, low, high;   /* mean / the reference's mean, interval */
        double p;                  /* adjusted p; NaN: none (exact, or no test) */
        bool compared;             /* both have two runs or more */
    } ref[64];
};

/**
 * Compares the k (at most 64) tallies with the verdict machinery (alpha
 * 0.05, margin 0.05, lower is better). Tallies under two runs take no
 * part. RD_ERR_STATS when the critical value cannot be computed.
 */
rd_status rd_run_summary_compute(struct rd_run_summary *s, const struct rd_run_tally *t,
                                 size_t k);

/**
 * hyperfine's --reference: compares every tally with tally 'ref' (after
 * rd_run_summary_compute), as the verdicts compare with the best: the
 * ratio of means on the log scale with the delta method's se, and the
 * interval at the studentized range's critical value over sqrt 2 for the
 * family of the tallies with two runs or more, at the smallest Welch df of
 * the comparisons with the reference (rounded down); the adjusted p is the
 * range's tail at sqrt 2 |t|. The text then reads relative to it.
 * RD_ERR_STATS when the critical value cannot be computed.
 */
rd_status rd_run_summary_reference(struct rd_run_summary *s, size_t ref);

/** The terminal summary: a block per command, then the relative lines,
 *  appended to out. A command of one run reads as hyperfine's does:
 *  "Time (abs ≡):", no ± and no range. RD_ERR_NOMEM only. */
rd_status rd_run_summary_text(const struct rd_run_summary *s, struct rd_buf *out);

/** hyperfine's Markdown table (command, mean ± sd, min, max, relative;
 *  no ± under two runs) at path, written atomically. */
rd_status rd_run_summary_export_markdown(const struct rd_run_summary *s, const char *path,
                                         struct rd_diag *d);

/**
 * hyperfine's --export-json at path, written atomically: {"results": [...]}
 * with per command the keys of hyperfine 1.x in its order (command, mean,
 * stddev, median, user, system, min, max, times, exit_codes, and parameters
 * for a scan), in seconds; stddev null under two runs, as hyperfine writes
 * it. RD_ERR_NOMEM when a tally lost times.
 */
rd_status rd_run_summary_export_json(const struct rd_run_summary *s, const char *path,
                                     struct rd_diag *d);

/** hyperfine's --export-csv at path, written atomically: command, mean,
 *  stddev, median, user, system, min, max (seconds; stddev 0 under two
 *  runs) and a parameter_VAR column per scan parameter. */
rd_status rd_run_summary_export_csv(const struct rd_run_summary *s, const char *path,
                                    struct rd_diag *d);

/** A duration in ms as a person reads it: "812 µs", "41.2 ms", "2.31 s". */
void rd_format_ms(double ms, char *out, size_t size);

#endif
