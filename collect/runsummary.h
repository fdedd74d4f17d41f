/*
 * runsummary.h - what `rundown-collect run` prints when its runs are done,
 * hyperfine's habit: per command the time (mean ± sd, min … max, user and
 * system), the tree's peak memory, and how much faster the fastest ran
 * than each other command, decided by the report's own verdict machinery
 * (verdict.h, in rd_stats), so the terminal and the report never disagree.
 * Also its Markdown and JSON exports (--export-markdown, --export-json).
 */
#ifndef RUNDOWN_RUNSUMMARY_H
#define RUNDOWN_RUNSUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "verdict.h"
#include "rundown/buf.h"
#include "rundown/record.h"
#include "rundown/status.h"

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
};

/** A tally of no runs for the command 'name'. */
void rd_run_tally_init(struct rd_run_tally *t, const char *name);

/** Adds r when it is a measured run with status ok and a wall_ms, not
 *  contended. */
void rd_run_tally_add(struct rd_run_tally *t, const struct rd_record *r);

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
 *  appended to out. RD_ERR_NOMEM only. */
rd_status rd_run_summary_text(const struct rd_run_summary *s, struct rd_buf *out);

/** hyperfine's Markdown table (command, mean, min, max, relative) at path. */
rd_status rd_run_summary_export_markdown(const struct rd_run_summary *s, const char *path,
                                         struct rd_diag *d);

/** The summary as rundown.run-summary/1 JSON (docs/run-record.md) at path. */
rd_status rd_run_summary_export_json(const struct rd_run_summary *s, const char *path,
                                     struct rd_diag *d);

/** A duration in ms as a person reads it: "812 µs", "41.2 ms", "2.31 s". */
void rd_format_ms(double ms, char *out, size_t size);

#endif
