/*
 * verdicts.h - what a workload's verdicts say, worked out once for every
 * back end (the Markdown view, report.tex, the CSV files, the workbook):
 * the decision in words, each config's verdict against the best, the
 * nearest rival, the disqualified configs, and the pass/fail matrix of a
 * categorical workload (compat). Not for use outside render/.
 */
#ifndef RD_RENDER_VERDICTS_H
#define RD_RENDER_VERDICTS_H

#include <stdbool.h>

#include "model.h"
#include "rundown/buf.h"

/** "best", "equivalent", "worse", "inconclusive", "disqualified"; NULL
 *  for an unknown verdict. */
const char *rd_verdict_word(enum rd_verdict_kind v);

/** The verdict as the report says it, into buf: "equivalent within 5 %",
 *  "slower" (or "worse" when higher is better: the interval excludes no
 *  difference), "more than 5 % slower" (the whole interval past the
 *  margin), else rd_verdict_word's word. NULL when unknown. The margin is
 *  the workload's (NaN: none said). */
const char *rd_verdict_phrase(const struct rd_rverdict *v, enum rd_better better, double margin,
                              char *buf, size_t size);

/** The same for config i of w on the primary metric, or NULL. */
const char *rd_config_verdict_phrase(const struct rd_rworkload *w, const struct rd_rverdict *v,
                                     char *buf, size_t size);

/**
 * The workload's reason followed, when its look spent less than alpha (an
 * early look at a planned maximum, or a later one: docs/methods.md §6
 * "Looks"), by the clause that says the level: "... Judged at α =
 * 0.0204, below 0.05: the runs are 33 % of the planned maximum."; and,
 * when the verdicts were paired within rounds (blocks "round"), the
 * sentence that says so. Appended
 * to out; nothing when the workload has no reason. alpha is the report's
 * (NaN: 0.05). The Markdown view, the workbook and report.tex say it
 * alike. RD_ERR_NOMEM when out cannot grow.
 */
rd_status rd_reason_with_look(const struct rd_rrecommendation *rec, double alpha,
                              struct rd_buf *out);

/** "clear", "equivalent", "inconclusive", "no-data"; NULL when unknown. */
const char *rd_decision_word(enum rd_decision_kind d);

/** The verdict on the primary metric of config i, or NULL (an analysis
 *  from before the verdicts, or none for that config). */
const struct rd_rverdict *rd_config_verdict(const struct rd_rworkload *w, int i);

/** The same on a key metric's decision. */
const struct rd_rverdict *rd_decision_verdict(const struct rd_rdecision *dc, int i);

/** The decision on the primary metric, RD_DECISION_UNKNOWN without one. */
enum rd_decision_kind rd_workload_decision(const struct rd_rworkload *w);

/**
 * The eligible config other than the best whose ratio to the best is
 * nearest 1 (the one the decision hinged on), or -1.
 */
int rd_workload_nearest(const struct rd_rworkload *w);

/**
 * Appends the decision in words, as the opening table says it: "clear",
 * "equivalent within 5 %: bun, deno; bun chosen for the lowest wall time
 * (326.1 ms against 384.8 ms)", "inconclusive: about 219 more runs per
 * config would settle it", "no decision: ...". Appends nothing when the
 * analysis has no decision.
 */
rd_status rd_decision_text(const struct rd_rworkload *w, struct rd_buf *out);

/** The level, in percent, of w's verdict intervals (the "vs best"
 *  column): 1 − the primary decision's verdict_alpha (a look short of a
 *  planned maximum, a race's contenders: 96.27 rather than 95); in an
 *  analysis before that key, 1 − alpha_look where it wrote one, else
 *  1 − the report's alpha, else 95. */
double rd_verdict_level(const struct rd_report *r, const struct rd_rworkload *w);

/** Appends "2.73× slower (2.63–2.84×)": a verdict's ratio to the best in
 *  the words of rundown/numfmt.h, with its simultaneous interval. */
rd_status rd_verdict_ratio_text(const struct rd_rworkload *w, const struct rd_rverdict *v,
                                const char *metric, struct rd_buf *out);

/** Whether w's means chart draws the paired verdicts (blocks "round"):
 *  each config at the best's mean times its within-round ratio with that
 *  ratio's interval, the best as a dot without a bar (chartgp.h,
 *  rd_means_row). */
bool rd_means_paired(const struct rd_rworkload *w);

/** The interval a table shows beside a verdict's ratio: its simultaneous
 *  interval, or for a config the race eliminated (no such interval) the
 *  interval of its ratio on all its runs (docs/analysis.md,
 *  eliminated_ci_low); NaN ends when there is none. */
void rd_verdict_shown_ci(const struct rd_rverdict *v, double *lo, double *hi);

/** Appends the verdict of config v of w as a table cell says it:
 *  "slower", "more than 5 % slower", "equivalent within 5 %",
 *  "inconclusive (224 runs)" (the runs per config that would settle it),
 *  "disqualified: 5 of 5 runs failed", "best"; the em dash without a
 *  verdict. */
rd_status rd_verdict_text(const struct rd_rworkload *w, const struct rd_rverdict *v,
                          struct rd_buf *out);

/* ---- categorical workloads ---- */

/**
 * True when the workload's result is pass/fail: its primary metric is a
 * bool, or a count whose configs carry bool metrics (compat: compat_ok_count
 * over compat_<pkg>_ok). Such a workload is shown as a matrix, with no
 * mean, CI, test or recommendation.
 */
bool rd_workload_categorical(const struct rd_rworkload *w);

/** One cell: how many runs of a config passed one check. */
struct rd_mcell {
    double passed, runs;     /* runs: values of the metric; NaN when none */
    const char *error;       /* the first error text of a failed run, or NULL */
};

struct rd_matrix {
    size_t nrows, ncols;         /* checks x configs (the workload's order) */
    const char **metrics;        /* per row: the bool metric */
    const char **labels;         /* per row: "express" of compat_express_ok */
    struct rd_mcell *cells;      /* nrows * ncols, row-major */
    struct rd_arena arena;
};

/**
 * Builds the matrix of a categorical workload. A failed cell's error text
 * is the analysis's check_errors[] entry for its workload, labels and
 * check (analyze read it from the run's info "<check>_error" or its
 * stdout log; render reads nothing but the analysis).
 * Release with rd_matrix_release, also after a failure.
 */
rd_status rd_matrix_make(const struct rd_report *r, const struct rd_rworkload *w,
                         struct rd_matrix *m);

void rd_matrix_release(struct rd_matrix *m);

/** The cell's mark: "✓" when every run passed, "✗" when none did, "✗ 2/5"
 *  when some did; the em dash without runs. */
rd_status rd_mcell_mark(const struct rd_mcell *c, struct rd_buf *out);

/**
 * The ratio X/ref for two configs of w with its CI and Holm p, from the
 * pair test in either orientation (or from the means, without CI, when no
 * pair is stored). Values undefined in the analysis come back NaN.
 */
void rd_compare(const struct rd_rworkload *w, int x, int ref, double *ratio,
                double *lo, double *hi, double *p_holm);

#endif
