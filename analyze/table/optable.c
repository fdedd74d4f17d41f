/*
 * optable - the options of rundown-analyze, each written once (optable.h);
 * main.c parses them.
 */
#include "optable.h"

#include <stddef.h>

#include "rundown/analysis_keys.h"

static const struct rd_opt opts[] = {
    {'o', 'o', "output", "FILE", "standard output", "write to FILE (atomically)", NULL},
    {OPT_TITLE, 0, "title", "TEXT", NULL, "the report's title (written as \"title\")", NULL},
    {OPT_THREADS, 0, "threads", "N", "the processors it may use, at most 8",
     "threads for big stores (1: one thread); the output\ndoes not depend on it", NULL},
    {OPT_CACHE_DIR, 0, "cache-dir", "DIR", "$XDG_CACHE_HOME/rundown, else ~/.cache/rundown",
     "keep each store's parsed runs in DIR and read them back\n"
     "while the store only grew (new lines alone are parsed);\n"
     "once a day the caches of deleted or replaced stores and\n"
     "of other versions are removed from DIR; the output does\n"
     "not depend on it", NULL},
    {OPT_NO_CACHE, 0, "no-cache", NULL, NULL, "parse every store whole; keep no cache", NULL},
    {OPT_ALPHA, 0, "alpha", "A", "0.05", "significance level", "Statistics"},
    {OPT_CONFIDENCE, 0, "confidence", "C", "0.95", "confidence level of every interval", NULL},
    {OPT_BASELINE, 0, "baseline", "KEY=VAL", NULL,
     "state each config against the config with label KEY=VAL", NULL},
    {OPT_METRIC, 0, "metric", "NAME", NULL, "primary metric when the runs do not name one", NULL},
    {OPT_ALL_METRICS, 0, "all-metrics", NULL, NULL,
     "run the tests on every metric, not only the primary", NULL},
    {OPT_BOOTSTRAP, 0, "bootstrap", "B", "0, the exact order-statistic interval for every n",
     "CI of the median by a bootstrap of B resamples when\n"
     "n <= 50 (B >= 2 / (1 - C): 40 at 95 %)", NULL},
    {OPT_SEED, 0, "seed", "S", "1", "seed of the bootstrap", NULL},
    {OPT_EXCLUDE_OUTLIERS, 0, "exclude-outliers", NULL, NULL,
     "drop values outside Tukey's fences before the statistics\n"
     "(raises the false-positive rate of the tests; warned)", NULL},
    {OPT_POOL_ENVS, 0, "pool-envs", NULL, NULL,
     "allow one config to hold runs of several environments", NULL},
    {OPT_INCLUDE_CONTENDED, 0, "include-contended", NULL, NULL,
     "keep runs taken on a busy machine (\"contended\": true),\n"
     "which are left out of every statistic by default", NULL},
    {OPT_PUBLISHED, 0, "published", "DIR", NULL,
     "compare with published figures (" RD_PUBLISHED_SCHEMA " files)", NULL},
    {OPT_MARGIN, 0, "margin", "M", "0.05; a workload's info.margin wins",
     "relative margin within which configs are equivalent", "Decisions"},
    {OPT_MAX_ERROR_RATE, 0, "max-error-rate", "R", "0.01",
     "load errors per attempted request above which a config\nis disqualified", NULL},
    {OPT_SET, 0, "set", "W.KEY=VALUE", NULL,
     "a workload setting, as if its runs said info.KEY=VALUE:\n"
     "margin, key_metrics, guards, max_error_rate, tie_breaker,\n"
     "primary_metric, primary_better, compare_within (labels\n"
     "decided apart), blocks (round: configs compared within\n"
     "rounds), runs_max (planned runs per config: the\n"
     "level each look spends); W is the workload's name", NULL},
    {OPT_COMPARE, 0, "compare", NULL, NULL,
     "compare the runs of stores A B [C...] per workload and config,\n"
     "each side against the first (a STORE, or NAME=STORE[,STORE...];\n"
     "compare.md in the documentation)", "Comparison"},
    {OPT_COMPARE_BY, 0, "compare-by", "KEY=A,B[,C...]", NULL,
     "compare the configs labelled KEY=B, KEY=C... with those\nlabelled KEY=A", NULL},
    {OPT_FAIL_IF_SLOWER, 0, "fail-if-slower", "PCT", NULL,
     "exit 5 when a comparison is credibly slower by more than PCT %", NULL},
    {OPT_FAIL_IF_INCONCLUSIVE, 0, "fail-if-inconclusive", NULL, NULL,
     "exit 5 when a comparison is inconclusive too", NULL},
    {OPT_FORMAT, 0, "format", "F", "text", "text, json or markdown", NULL},
    {OPT_JSON, 0, "json", NULL, NULL, "--format json", NULL},
    {OPT_MARKDOWN, 0, "markdown", NULL, NULL, "--format markdown", NULL},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

const struct rd_cmd_spec rd_analyze_spec = {
    .tool = "rundown-analyze",
    .synopsis = "[-o FILE] [--alpha A] [--confidence C] [--baseline KEY=VAL]\n"
                " [--metric NAME] [--all-metrics] [--bootstrap B] [--seed S]\n"
                " [--exclude-outliers] [--pool-envs] [--include-contended]\n"
                " [--published DIR] [--title TEXT] [--threads N]\n"
                " [--cache-dir DIR | --no-cache] STORE...\n"
                "--compare [--fail-if-slower PCT] [--fail-if-inconclusive] [--format F]\n"
                " A B [C...]\n"
                "--compare-by KEY=A,B[,C...] [--fail-if-slower PCT] [--format F] STORE...",
    .about = "Reads run stores (" RD_RUN_SCHEMA " JSONL, '-' = stdin) and writes statistics, tests\n"
             "and recommendations as " RD_ANALYSIS_SCHEMA " JSON. Options and stores may come in any\n"
             "order; a value follows its option (--alpha 0.1, --alpha=0.1, -o FILE, -oFILE);\n"
             "'--' ends the options.",
    .epilog = "Exit codes: 0 ok, 1 invalid input, 2 usage, 3 system or I/O error,\n"
              "5 a comparison is credibly slower than --fail-if-slower allows, or\n"
              "inconclusive under --fail-if-inconclusive.",
    .order = RD_OPTS_IN_PLACE,
    .opts = opts,
};
