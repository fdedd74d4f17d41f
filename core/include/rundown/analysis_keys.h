/*
 * analysis_keys.h - the names of rundown's documents and every key of
 * rundown.analysis/1, spelled once.
 *
 * analyze/ writes analysis.json through these names and render/ reads it
 * through them, so the contract of docs/analysis.md cannot drift between
 * the writer and the reader: a key renamed here is renamed for both, and a
 * key spelled wrong fails to compile instead of reading as absent.
 *
 * A key that several objects share (p, metric, mean, ...) is defined once,
 * under the object it first appears in; the comment on each group names
 * the keys it borrows. Keys chosen by the data (metric names under
 * "metrics", label names under "labels", the fields of an environment,
 * which are rundown.env/1's) are not here.
 */
#ifndef RUNDOWN_ANALYSIS_KEYS_H
#define RUNDOWN_ANALYSIS_KEYS_H

/* ---- the "schema" value of each document rundown reads or writes ---- */

#define RD_RUN_SCHEMA "rundown.run/1"             /* a run record (docs/run-record.md) */
#define RD_ENV_SCHEMA "rundown.env/1"             /* an environment (docs/environment.md) */
#define RD_SUITE_SCHEMA "rundown.suite/1"         /* a suite (docs/suite.md) */
#define RD_ANALYSIS_SCHEMA "rundown.analysis/1"   /* an analysis (docs/analysis.md) */
#define RD_PUBLISHED_SCHEMA "rundown.published/1" /* published figures (docs/published.md) */
#define RD_SLURM_SCHEMA "rundown.slurm/1"         /* a Slurm collection's DIR/slurm.json (docs/cluster.md) */

/* ---- top level ---- */

#define RD_AK_SCHEMA "schema"
#define RD_AK_TITLE "title"
#define RD_AK_SETTINGS "settings"
#define RD_AK_ENVIRONMENTS "environments"
#define RD_AK_INPUTS "inputs"
#define RD_AK_WORKLOADS "workloads"
#define RD_AK_REPLICATION "replication"

/* ---- settings (also: baseline, metric, seed) ---- */

#define RD_AK_ALPHA "alpha"
#define RD_AK_CONFIDENCE "confidence"
#define RD_AK_BOOTSTRAP "bootstrap"
#define RD_AK_SEED "seed"
#define RD_AK_ALL_METRICS "all_metrics"
#define RD_AK_EXCLUDE_OUTLIERS "exclude_outliers"
#define RD_AK_POOL_ENVS "pool_envs"
#define RD_AK_QUANTILES "quantiles"
#define RD_AK_RATIO_CI "ratio_ci"
#define RD_AK_ADJUST "adjust"

/* ---- environments[] (the rest of each is a rundown.env/1 object) ---- */

#define RD_AK_ID "id"

/* ---- workloads[] ---- */

#define RD_AK_NAME "name"
#define RD_AK_CLASS "class"
#define RD_AK_PRIMARY "primary"
#define RD_AK_BASELINE "baseline"
#define RD_AK_CONFIGS "configs"
#define RD_AK_TESTS "tests"
#define RD_AK_TESTS_BY_METRIC "tests_by_metric"
#define RD_AK_RECOMMENDATION "recommendation"
#define RD_AK_WARNINGS "warnings"
/* runs imported without an environment (info.env_unknown); written when > 0 */
#define RD_AK_ENV_UNKNOWN_RUNS "env_unknown_runs"

/* ---- workloads[].collection: why an adaptive suite stopped collecting
 *      (also: runs, id, state) ---- */

#define RD_AK_COLLECTION "collection"
#define RD_AK_UNTIL "until"
#define RD_AK_RUNS_MIN "runs_min"
#define RD_AK_RUNS_MAX "runs_max"
#define RD_AK_PRECISION_TARGET "precision_target"
#define RD_AK_PRECISION_ALPHA "precision_alpha"
#define RD_AK_BUDGET_S "budget_s"
#define RD_AK_STOPPED "stopped"
#define RD_AK_HALFWIDTH "halfwidth"
#define RD_AK_STATE "state"
/* the round after which the race eliminated the config (absent: not) */
#define RD_AK_ELIMINATED_AT "eliminated_at"

/* ---- workloads[].primary (also: unit, display) ---- */

#define RD_AK_METRIC "metric"
#define RD_AK_BETTER "better"

/* ---- workloads[].configs[] (also: id, baseline) ---- */

#define RD_AK_LABELS "labels"
#define RD_AK_DISPLAY "display"
#define RD_AK_ENV "env"
#define RD_AK_RUNS "runs"
#define RD_AK_FAILED_RUNS "failed_runs"
#define RD_AK_TIMEOUT_RUNS "timeout_runs"
#define RD_AK_LOAD_ERROR_RUNS "load_error_runs"
#define RD_AK_CONTENDED_RUNS "contended_runs"
#define RD_AK_CONTENTION_UNKNOWN_RUNS "contention_unknown_runs"
#define RD_AK_CONTENTION "contention"
#define RD_AK_OTHERS_CPU_PCT_MEAN "others_cpu_pct_mean"
#define RD_AK_OTHERS_CPU_PCT_MAX "others_cpu_pct_max"
#define RD_AK_WAITED_S "waited_s"
#define RD_AK_STEAL_PCT_MEAN "steal_pct_mean"
#define RD_AK_STEAL_PCT_MAX "steal_pct_max"
#define RD_AK_SPEED_PCT_MIN "speed_pct_min"
#define RD_AK_SLOW_CPU_RUNS "slow_cpu_runs"
#define RD_AK_WAKEUP_PCT_MIN "wakeup_pct_min"
#define RD_AK_SLOW_WAKEUP_RUNS "slow_wakeup_runs"
#define RD_AK_METRICS "metrics"

/* ---- configs[].metrics.NAME: the statistics of one metric (also: better) ---- */

#define RD_AK_N "n"
#define RD_AK_MEAN "mean"
#define RD_AK_SD "sd"
#define RD_AK_SE "se"
#define RD_AK_CI_LOW "ci_low"
#define RD_AK_CI_HIGH "ci_high"
#define RD_AK_MEDIAN "median"
#define RD_AK_MIN "min"
#define RD_AK_MAX "max"
#define RD_AK_Q1 "q1"
#define RD_AK_Q3 "q3"
#define RD_AK_P90 "p90"
#define RD_AK_P95 "p95"
#define RD_AK_P99 "p99"
#define RD_AK_MAD "mad"
#define RD_AK_CV "cv"
#define RD_AK_GEOMEAN "geomean"
#define RD_AK_OUTLIERS "outliers"
#define RD_AK_VALUES "values"
#define RD_AK_UNIT "unit"
#define RD_AK_EXCLUDED "excluded"
#define RD_AK_MEDIAN_CI_LOW "median_ci_low"
#define RD_AK_MEDIAN_CI_HIGH "median_ci_high"
#define RD_AK_MEDIAN_CI_METHOD "median_ci_method"
#define RD_AK_MEDIAN_CI_LEVEL "median_ci_level"
#define RD_AK_TREND "trend"
/* tested metrics whose values come from 2 sessions or more (§6a) */
#define RD_AK_SESSIONS "sessions"
#define RD_AK_BETWEEN_SESSION_SHARE "between_session_share"
#define RD_AK_SE_DF "se_df"

/* ---- ...metrics.NAME.trend (also: p) ---- */

#define RD_AK_S "s"
#define RD_AK_TAU "tau"

/* ---- configs[].baseline: the same keys as a pair, and config, metric ---- */

#define RD_AK_CONFIG "config"

/* ---- workloads[].tests (also: metric, better) ---- */

#define RD_AK_ANOVA "anova"
#define RD_AK_WELCH_ANOVA "welch_anova"
#define RD_AK_KRUSKAL "kruskal"
#define RD_AK_PAIRS_SCOPE "pairs_scope"
#define RD_AK_RATIO_METHOD "ratio_method"
#define RD_AK_PAIRS "pairs"

/* ---- tests.anova and tests.welch_anova (also: p) ---- */

#define RD_AK_F "f"
#define RD_AK_DF1 "df1"
#define RD_AK_DF2 "df2"

/* ---- tests.kruskal (also: p) ---- */

#define RD_AK_H "h"
#define RD_AK_DF "df"

/* ---- tests.pairs[] ---- */

#define RD_AK_A "a"
#define RD_AK_B "b"
#define RD_AK_WELCH_T "welch_t"
#define RD_AK_WELCH_DF "welch_df"
#define RD_AK_P "p"
#define RD_AK_P_HOLM "p_holm"
#define RD_AK_P_BH "p_bh"
#define RD_AK_MW_U "mw_u"
#define RD_AK_MW_P "mw_p"
#define RD_AK_MW_METHOD "mw_method"
#define RD_AK_HEDGES_G "hedges_g"
#define RD_AK_PROB_SUPERIORITY "prob_superiority"
#define RD_AK_DIFF "diff"
#define RD_AK_DIFF_CI_LOW "diff_ci_low"
#define RD_AK_DIFF_CI_HIGH "diff_ci_high"
#define RD_AK_RATIO "ratio"
#define RD_AK_RATIO_CI_LOW "ratio_ci_low"
#define RD_AK_RATIO_CI_HIGH "ratio_ci_high"

/* ---- workloads[].recommendation ---- */

#define RD_AK_BEST "best"
#define RD_AK_TIED "tied"
#define RD_AK_RECOMMENDED "recommended"
#define RD_AK_REASON "reason"
#define RD_AK_TIE_BREAKER "tie_breaker"
/* The verdicts (docs/analysis.md, "Recommendation"; also: best,
 * recommended, metric, better, config, ratio, ratio_ci_low,
 * ratio_ci_high, df, method) */
#define RD_AK_DECISION "decision"
#define RD_AK_MARGIN "margin"
#define RD_AK_MAX_ERROR_RATE "max_error_rate"
#define RD_AK_FAMILY "family"
/* every decision's: the level its verdicts used (docs/analysis.md) */
#define RD_AK_VERDICT_ALPHA "verdict_alpha"
#define RD_AK_CRITICAL_VALUE "critical_value"
#define RD_AK_CANDIDATES "candidates"
#define RD_AK_LOOKS "looks" /* only with 2 sessions or more (methods.md §6a) */
/* only when the runs carry a planned maximum (methods.md §6, "Looks") */
#define RD_AK_ALPHA_LOOK "alpha_look"
#define RD_AK_INFORMATION_FRACTION "information_fraction"
#define RD_AK_INFORMATION_FRACTION_BEFORE "information_fraction_before"
#define RD_AK_RUNS_NEEDED "runs_needed"
#define RD_AK_VERDICTS "verdicts"
#define RD_AK_VERDICT "verdict"
#define RD_AK_P_ADJ "p_adj"
#define RD_AK_EXACT "exact"
#define RD_AK_BEYOND_MARGIN "beyond_margin"
#define RD_AK_SETTLED_LABELS "settled_labels"
#define RD_AK_OPEN_LABELS "open_labels"
#define RD_AK_EQ_CI_LOW "equivalence_ci_low"
#define RD_AK_EQ_CI_HIGH "equivalence_ci_high"
#define RD_AK_ESTIMABLE "estimable"
#define RD_AK_JOINT "joint"
/* only on a verdict of a config the race eliminated (methods.md §6b): the
 * interval of its ratio on all its runs, or why there is none */
#define RD_AK_ELIM_CI_LOW "eliminated_ci_low"
#define RD_AK_ELIM_CI_HIGH "eliminated_ci_high"
#define RD_AK_ELIM_CI_NOTE "eliminated_ci_note"
#define RD_AK_CRITICAL_VALUE_EQ "critical_value_equivalence"
#define RD_AK_WHY "why"
#define RD_AK_KEY_METRICS "key_metrics"
#define RD_AK_GUARDS "guards"
/* Decisions within a label (docs/analysis.md, "Decisions within a
 * label"; also: configs, recommendation) */
#define RD_AK_COMPARE_WITHIN "compare_within"
#define RD_AK_COMPARE_WITHIN_FROM "compare_within_from"
#define RD_AK_WITHIN "within"
#define RD_AK_VALUES "values"

/* ---- workloads[].warnings[] (also: config, metric, configs) ---- */

#define RD_AK_CODE "code"
#define RD_AK_MESSAGE "message"
#define RD_AK_LEVEL "level"
#define RD_AK_COUNT "count"

/* ---- replication[] (also: title, labels, config, env, metric, ratio,
 *      ratio_ci_low, ratio_ci_high, welch_t, welch_df, p) ---- */

#define RD_AK_FILE "file"
#define RD_AK_STUDY "study"
#define RD_AK_MACHINE "machine"
#define RD_AK_SOURCE "source"
#define RD_AK_METHOD "method"
#define RD_AK_BLOCKS "blocks"
#define RD_AK_VERSIONS "versions"
#define RD_AK_WORKLOAD "workload"
#define RD_AK_STATISTIC "statistic"
#define RD_AK_APPROX "approx"
#define RD_AK_PARAMS_DIFFER "params_differ"
#define RD_AK_NOTE "note"
#define RD_AK_PUBLISHED "published"
#define RD_AK_OURS "ours"

/* replication[].published: mean, sd, n, ci_low, ci_high;
 * replication[].ours: mean, sd, n, statistic. */

/* ---- replication_claims[] (also: file, study, title, workload, metric,
 *      better, note, statistic, approx, params_differ, margin, labels,
 *      configs, ratio, ratio_ci_low, ratio_ci_high, p, pairs[] with a, b,
 *      ratio, ratio_ci_low, ratio_ci_high, p, p_holm; reason) and
 *      replication_summary[] (study, title) ---- */

#define RD_AK_REPLICATION_CLAIMS "replication_claims"
#define RD_AK_REPLICATION_SUMMARY "replication_summary"
#define RD_AK_INDEX "index"
#define RD_AK_KIND "kind"
#define RD_AK_TEXT "text"
#define RD_AK_FROM "from"
#define RD_AK_REF "ref"
#define RD_AK_CLAIMED "claimed"       /* {ratio, min, max} of a ratio claim */
#define RD_AK_AGREES "agrees"
/* an order claim's pair with the study's figures (its 'values'): their
 * ratio, this machine's interval at the Bonferroni level and whether it
 * shows the pair alike (docs/methods.md §7a) */
#define RD_AK_PUBLISHED_RATIO "published_ratio"
#define RD_AK_ALIKE_CI_LOW "alike_ci_low"
#define RD_AK_ALIKE_CI_HIGH "alike_ci_high"
#define RD_AK_ALIKE "alike"
/* a claim on a workload paired within rounds (blocks "round"): whether it
 * (and each pair of an order) was compared within rounds, and over how
 * many rounds (docs/methods.md §7a) */
#define RD_AK_PAIRED "paired"
#define RD_AK_ROUNDS "rounds"
#define RD_AK_JUDGEMENT "judgement"
#define RD_AK_CLAIMS "claims"
#define RD_AK_CONSISTENT "consistent"
#define RD_AK_CONTRADICTED "contradicted"
#define RD_AK_INCONCLUSIVE "inconclusive"
#define RD_AK_NOT_EVALUATED "not_evaluated"

/* ---- workloads[] measured on several machines, and machines[] (issue 30;
 *      also: workload, metric, better, config, ratio, ratio_ci_low,
 *      ratio_ci_high, machine, n, p, consistent, text) ---- */

#define RD_AK_BASE_WORKLOAD "base_workload"  /* workloads[]: the name in the runs */
#define RD_AK_MACHINES "machines"
#define RD_AK_MACHINE_IDS "machine_ids"
#define RD_AK_REFERENCE "reference"
#define RD_AK_BEST_ON "best_on"
#define RD_AK_COMPARISONS "comparisons"
#define RD_AK_PER_MACHINE "per_machine"
#define RD_AK_N_REFERENCE "n_reference"
#define RD_AK_K "k"
#define RD_AK_Q "q"
#define RD_AK_TAU2 "tau2"  /* machines[].comparisons[]: DerSimonian-Laird tau^2 of the logs */
/* machine_claims[]: the ratio claims of --published across machines, each
 * shaped as a machines[] entry (reference: the claim's b) with "claim":
 * {file, study, index, text} */
#define RD_AK_MACHINE_CLAIMS "machine_claims"
#define RD_AK_CLAIM "claim"

/* ---- raw_runs and check_errors (issue 27): what render once re-read
 *      from the stores and their logs (also: workload, config, metric,
 *      total) ---- */

#define RD_AK_RAW_RUNS "raw_runs"
#define RD_AK_CHECK_ERRORS "check_errors"
#define RD_AK_CAP "cap"
#define RD_AK_EMBEDDED "embedded"
#define RD_AK_ITEMS "items"
#define RD_AK_STORE "store"
#define RD_AK_RECORD "record"
#define RD_AK_ERROR "error"
#define RD_AK_TOTAL "total"

#endif
