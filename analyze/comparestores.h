/*
 * comparestores.h - old runs against new runs, with a CI gate
 * (rundown-analyze --compare A B [C...], or --compare-by KEY=A,B[,C...]
 * within one set of stores; docs/compare.md).
 *
 * Two or more sides; the first is the baseline. Every workload and config
 * found on any side is one line, and each other side of the line is one
 * comparison with the baseline ("old" below is the baseline, "new" the
 * other side) of the workload's primary metric: the ratio of means new / old with
 * Fieller's interval, from the verdict machinery (verdict.h) on the two
 * configs. Many comparisons are read at once, so the family of all the
 * comparisons that have numbers is controlled together: each interval is
 * taken at alpha / m (Bonferroni over the m comparisons), and each p is
 * multiplied by m. Read off the interval:
 *
 *   wholly inside [1 - margin, 1 + margin]     equivalent
 *   excluding 1, not wholly inside the margin  slower or faster
 *   containing 1 and reaching past the margin  inconclusive
 *   a side missing, or fewer than 2 runs       none ("—")
 *
 * The gate (--fail-if-slower PCT) flags a comparison whose whole interval
 * lies beyond 1 + PCT/100 in the worse direction: credibly slower by more
 * than PCT, with every flag of the family holding at once at level alpha.
 * With fail_if_inconclusive an inconclusive comparison fails it too (the
 * caller reads rd_comparison.inconclusive).
 *
 * Usage: rd_comparison_build() from the stores, rd_comparison_format()
 * into a buffer, rd_comparison_release(). rd_compare_decide() is the pure
 * numerics (the simulation tests call it on their own samples).
 */
#ifndef RUNDOWN_ANALYZE_COMPARESTORES_H
#define RUNDOWN_ANALYZE_COMPARESTORES_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "rundown/arena.h"
#include "rundown/buf.h"
#include "rundown/status.h"

enum rd_change {
    RD_CHANGE_NONE,         /* no verdict: a side missing, n < 2, a mean <= 0 */
    RD_CHANGE_FASTER,       /* credibly better than old (also for req/s: "faster") */
    RD_CHANGE_SLOWER,       /* credibly worse */
    RD_CHANGE_EQUIVALENT,   /* within the margin */
    RD_CHANGE_INCONCLUSIVE
};

/** "faster", "slower", "equivalent", "inconclusive", "—" (none). */
const char *rd_change_name(enum rd_change c);

/** One side of a comparison: the good runs of the metric (n = 0: absent). */
struct rd_compare_side {
    double n, mean, sd;
    /* half-width of the mean's own Student t interval at the analysis's
     * confidence (the table's ±); NaN for n < 2 */
    double half_width;
    /* the sd of the logs, for the verdicts' relative variance
     * (stats/logratio.h); 0 when a value is not positive */
    double log_sd;
};

/** One comparison: a workload's config, the baseline (old) against one
 *  other side (new_, side 'side' of the comparison). */
struct rd_compare_row {
    const char *workload, *config, *metric; /* owned by the comparison */
    bool higher_is_better;
    size_t side; /* which side new_ is (1 .. nsides - 1; 0 outside a comparison) */
    struct rd_compare_side old, new_;
    enum rd_change change;
    /* new / old and its simultaneous interval (NaN: none, or unbounded) */
    double ratio, ratio_ci_low, ratio_ci_high;
    double p_adjusted;  /* Bonferroni over the family; NaN: no test (exact, none) */
    bool exact;         /* both sides constant: the ratio is exact */
    bool regression;    /* the gate's flag (only with a threshold) */
    /* inconclusive: runs per side after which it settles with power 0.8
     * at the observed spreads (verdict.h); -1: no number would; else 0 */
    long runs_needed;
};

struct rd_compare_settings {
    double alpha;          /* family-wise error rate, default 0.05 */
    double margin;         /* relative equivalence margin, default 0.05 */
    double fail_if_slower; /* the gate's threshold as a fraction; NaN: no gate */
    bool fail_if_inconclusive; /* the gate also fails an inconclusive comparison */
    bool want_p;           /* compute p_adjusted (a numerical integral each) */
};

/** alpha 0.05, margin 0.05, no gate, with p. */
void rd_compare_settings_init(struct rd_compare_settings *s);

/**
 * Decides rows[0..n) from their sides: the family is every row with a
 * verdict to give (both sides n >= 2 and positive means); *family
 * receives its size m and *regressions the rows the gate flags. Returns
 * RD_ERR_STATS when a critical value cannot be computed.
 */
rd_status rd_compare_decide(struct rd_compare_row *rows, size_t n,
                            const struct rd_compare_settings *s, size_t *family,
                            size_t *regressions);

/** One side named by the caller, and its stores. */
struct rd_compare_group {
    const char *name;
    const char *const *stores;
    size_t nstores;
};

/** Where the sets of runs come from: groups[0..ngroups) (the first the
 *  baseline), or with by_key set, groups[0]'s stores split by the values
 *  by_values[0..nvalues) of label by_key (the first the baseline). */
struct rd_compare_input {
    const struct rd_compare_group *groups;
    size_t ngroups;
    const char *by_key;
    const char *const *by_values;
    size_t nvalues;
};

struct rd_comparison {
    struct rd_compare_settings s;
    double confidence;               /* of the sides' half-widths */
    /* by workload, then config, then side: each line of the table is
     * nsides - 1 consecutive rows */
    struct rd_compare_row *rows;
    size_t nrows, family, regressions;
    size_t inconclusive;             /* rows inconclusive */
    const char **side_names;         /* nsides column heads; [0] the baseline */
    size_t nsides;
    struct rd_analysis **an;         /* one per group (one for by_key) */
    size_t nan;
    struct rd_arena names;           /* the row strings */
};

/**
 * Reads the stores (with the analysis options o: metric, pool_envs,
 * exclude_outliers are honoured) and decides every comparison into c.
 * Errors are those of rd_analysis_add_store, and RD_ERR_PARSE naming
 * the stores when they hold no measured run to compare.
 * Release c with rd_comparison_release, also on failure.
 */
rd_status rd_comparison_build(struct rd_comparison *c, const struct rd_analyze_opts *o,
                              const struct rd_compare_input *in,
                              const struct rd_compare_settings *s, struct rd_diag *d);
void rd_comparison_release(struct rd_comparison *c);

/** The sides of --compare A B [C...] (comparesides.c): each operand a
 *  store or NAME=STORE[,STORE...]. A store is named by its file name when
 *  no other side has that name, else by its path as given, and a path
 *  given again by the path and its count ("s.jsonl (2)"); a group by NAME. */
struct rd_compare_sides {
    struct rd_compare_group *groups;
    size_t ngroups;
    /* per operand: a group's copy, split; a repeated store's name (else NULL) */
    char **text;
    const char ***lists; /* per operand: its stores (NULL: a plain store) */
};

/** Parses operands[0..n) into s; RD_ERR_USAGE (d says why): fewer than
 *  two, an empty store in a group, two sides with one name. Release s
 *  with rd_compare_sides_release, also on failure. The operands must
 *  outlive s. */
rd_status rd_compare_sides_parse(struct rd_compare_sides *s, const char *const *operands,
                                 size_t n, struct rd_diag *d);
void rd_compare_sides_release(struct rd_compare_sides *s);

/** --compare-by KEY=A,B[,C...]: the key and two or more distinct values. */
struct rd_compare_by {
    char *key;
    const char **values;
    size_t nvalues;
};

/** Parses arg into b; RD_ERR_USAGE (d says why). Release b with
 *  rd_compare_by_release, also on failure. */
rd_status rd_compare_by_parse(struct rd_compare_by *b, const char *arg, struct rd_diag *d);
void rd_compare_by_release(struct rd_compare_by *b);

enum rd_compare_format { RD_COMPARE_TEXT, RD_COMPARE_JSON, RD_COMPARE_MARKDOWN };

/** Appends c to out as a terminal table, rundown.compare/1 JSON or a
 *  GitHub-flavoured Markdown table (docs/compare.md). */
rd_status rd_comparison_format(const struct rd_comparison *c, enum rd_compare_format f,
                               struct rd_buf *out);

#endif
