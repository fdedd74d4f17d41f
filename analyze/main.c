/*
 * main.c - rundown-analyze: run stores in, rundown.analysis/1 out.
 *
 * Parses the command line, streams each store into the analysis and writes
 * the document to -o FILE (atomically) or to standard output. All the work
 * is in the rd_analyze library; this file only talks to the user.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "comparestores.h"
#include "rundown/cli.h"
#include "rundown/fsutil.h"
#include "stats.h"

static const char usage[] =
    "usage: rundown-analyze [-o FILE] [--alpha A] [--confidence C] [--baseline KEY=VAL]\n"
    "                       [--metric NAME] [--all-metrics] [--bootstrap B] [--seed S]\n"
    "                       [--exclude-outliers] [--pool-envs] [--published DIR]\n"
    "                       [--title TEXT] [--threads N] STORE...\n"
    "       rundown-analyze --compare [--fail-if-slower PCT] [--format F] OLD NEW\n"
    "       rundown-analyze --compare-by KEY=A,B [--fail-if-slower PCT] [--format F] STORE...\n"
    "\n"
    "Reads run stores (" RD_RUN_SCHEMA " JSONL, '-' = stdin) and writes statistics, tests\n"
    "and recommendations as " RD_ANALYSIS_SCHEMA " JSON. Options and stores may come in any\n"
    "order; a value follows its option (--alpha 0.1, --alpha=0.1, -o FILE, -oFILE);\n"
    "'--' ends the options.\n"
    "\n"
    "  -o, --output FILE    write to FILE (atomically) instead of standard output\n"
    "  --alpha A            significance level (default 0.05)\n"
    "  --confidence C       confidence level of every interval (default 0.95)\n"
    "  --baseline KEY=VAL   state each config against the config with label KEY=VAL\n"
    "  --metric NAME        primary metric when the runs do not name one\n"
    "  --all-metrics        run the tests on every metric, not only the primary\n"
    "  --bootstrap B        CI of the median by a bootstrap of B resamples when n <= 50\n"
    "                       (default 0: the exact order-statistic interval for every n;\n"
    "                       B >= 2 / (1 - C): 40 at 95 %)\n"
    "  --seed S             seed of the bootstrap (default 1)\n"
    "  --exclude-outliers   drop values outside Tukey's fences before the statistics\n"
    "                       (raises the false-positive rate of the tests; warned)\n"
    "  --pool-envs          allow one config to hold runs of several environments\n"
    "  --include-contended  keep runs taken on a busy machine (\"contended\": true),\n"
    "                       which are left out of every statistic by default\n"
    "  --published DIR      compare with published figures (" RD_PUBLISHED_SCHEMA " files)\n"
    "  --title TEXT         the report's title (written as \"title\")\n"
    "  --margin M           relative margin within which configs are equivalent\n"
    "                       (default 0.05; a workload's info.margin wins)\n"
    "  --max-error-rate R   load errors per attempted request above which a config\n"
    "                       is disqualified (default 0.01)\n"
    "  --set W.KEY=VALUE    a workload setting, as if its runs said info.KEY=VALUE:\n"
    "                       margin, key_metrics, guards, max_error_rate, tie_breaker,\n"
    "                       primary_metric, primary_better (W is the workload's name)\n"
    "  --threads N          threads for big stores (default: the processors it may use,\n"
    "                       at most 8; 1: one thread); the output does not depend on it\n"
    "  --compare            compare the runs of store OLD with those of store NEW, per\n"
    "                       workload and config (docs/compare.md)\n"
    "  --compare-by KEY=A,B\n"
    "                       compare the configs labelled KEY=A with those labelled KEY=B\n"
    "  --fail-if-slower PCT\n"
    "                       exit 5 when a comparison is credibly slower by more than PCT %\n"
    "  --format F           text (default), json or markdown; --json, --markdown\n"
    "  -h, --help           this text;  --version  the version\n";

/* The -o file; 'path' is the argument, which outlives the diagnostic
 * (af's own copy is freed by commit and abort). */
struct out_file {
    struct rd_atomic_file af;
    const char *path;
};

/* Hands a piece of the document to the output file (an rd_analysis_sink). */
static rd_status write_piece(void *ctx, const char *data, size_t len, struct rd_diag *d)
{
    struct out_file *o = ctx;
    if (len && fwrite(data, 1, len, o->af.f) != len)
        return rd_diag_set(d, RD_ERR_IO, o->path, 0, 0, "cannot write: %s", strerror(errno));
    return RD_OK;
}

static int parse_prob(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0 && v < 1))
        return rd_usage_error("%s: expected a number between 0 and 1, got '%s'", opt, s);
    *out = v;
    return 0;
}

static int parse_count(const char *opt, const char *s, unsigned long long max,
                       unsigned long long *out)
{
    char *end;
    errno = 0;
    if (*s == '-' || *s == '+')
        return rd_usage_error("%s: expected a whole number, got '%s'", opt, s);
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || v > max)
        return rd_usage_error("%s: expected a whole number up to %llu, got '%s'", opt, max, s);
    *out = v;
    return 0;
}

/* Option codes of the long options that have no short spelling. */
enum {
    OPT_ALPHA = 256, OPT_CONFIDENCE, OPT_BASELINE, OPT_METRIC, OPT_ALL_METRICS,
    OPT_BOOTSTRAP, OPT_SEED, OPT_EXCLUDE_OUTLIERS, OPT_POOL_ENVS, OPT_INCLUDE_CONTENDED, OPT_PUBLISHED,
    OPT_TITLE, OPT_THREADS, OPT_VERSION, OPT_MARGIN, OPT_MAX_ERROR_RATE, OPT_SET,
};

/* Option codes of the comparison of two sets of runs (kept apart). */
enum { OPT_COMPARE = 512, OPT_COMPARE_BY, OPT_FAIL_IF_SLOWER, OPT_FORMAT, OPT_JSON,
       OPT_MARKDOWN };


static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"compare", no_argument, NULL, OPT_COMPARE},
    {"compare-by", required_argument, NULL, OPT_COMPARE_BY},
    {"fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"json", no_argument, NULL, OPT_JSON},
    {"markdown", no_argument, NULL, OPT_MARKDOWN},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"confidence", required_argument, NULL, OPT_CONFIDENCE},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"metric", required_argument, NULL, OPT_METRIC},
    {"all-metrics", no_argument, NULL, OPT_ALL_METRICS},
    {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
    {"seed", required_argument, NULL, OPT_SEED},
    {"exclude-outliers", no_argument, NULL, OPT_EXCLUDE_OUTLIERS},
    {"pool-envs", no_argument, NULL, OPT_POOL_ENVS},
    {"include-contended", no_argument, NULL, OPT_INCLUDE_CONTENDED},
    {"published", required_argument, NULL, OPT_PUBLISHED},
    {"title", required_argument, NULL, OPT_TITLE},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"margin", required_argument, NULL, OPT_MARGIN},
    {"max-error-rate", required_argument, NULL, OPT_MAX_ERROR_RATE},
    {"set", required_argument, NULL, OPT_SET},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* --compare, --compare-by and their options. */
struct compare_args {
    bool on;                 /* --compare or --compare-by */
    char *by;                /* the --compare-by argument, split at '=' and ',' */
    const char *by_old, *by_new;
    double fail_if_slower;   /* a fraction; NaN: no gate */
    enum rd_compare_format format;
    bool format_given;
};

/* What the command line asks for. */
struct args {
    struct rd_analyze_opts o;
    const char *outpath;
    char *baseline;          /* the --baseline argument, split at '=' */
    const char **stores;
    int nstores;
    const char **settings;   /* the --set arguments, as typed */
    size_t nsettings;
    struct compare_args cmp;
};

/* The spelling of option 'c' for messages: "-o", "--alpha" (in full when
 * it was abbreviated). */
static void option_name(int c, int longindex, char *out, size_t size)
{
    if (longindex >= 0)
        snprintf(out, size, "--%s", longopts[longindex].name);
    else
        snprintf(out, size, "-%c", c);
}

/* One of the comparison's options into *c; non-zero after a usage error. */
static int parse_compare_option(int code, const char *name, const char *arg,
                                struct compare_args *c)
{
    switch (code) {
    case OPT_COMPARE:
        c->on = true;
        return 0;
    case OPT_COMPARE_BY: {
        const char *eq = strchr(arg, '='), *comma = eq ? strchr(eq, ',') : NULL;
        if (!eq || eq == arg || !comma || comma == eq + 1 || !comma[1] || strchr(comma + 1, ','))
            return rd_usage_error("%s: expected KEY=A,B, got '%s'", name, arg);
        free(c->by);
        if (!(c->by = strdup(arg)))
            return rd_fail(RD_ERR_NOMEM, NULL);
        c->by[eq - arg] = c->by[comma - arg] = '\0';
        c->by_old = c->by + (eq - arg) + 1;
        c->by_new = c->by + (comma - arg) + 1;
        if (strcmp(c->by_old, c->by_new) == 0)
            return rd_usage_error("%s: A and B must differ, got '%s'", name, arg);
        c->on = true;
        return 0;
    }
    case OPT_FAIL_IF_SLOWER: {
        char *end;
        errno = 0;
        double v = strtod(arg, &end);
        if (errno || end == arg || *end || !(v >= 0 && v < 1000))
            return rd_usage_error("%s: expected a percentage from 0 to 1000, got '%s'", name,
                                  arg);
        c->fail_if_slower = v / 100;
        return 0;
    }
    case OPT_FORMAT:
        if (strcmp(arg, "text") == 0)
            c->format = RD_COMPARE_TEXT;
        else if (strcmp(arg, "json") == 0)
            c->format = RD_COMPARE_JSON;
        else if (strcmp(arg, "markdown") == 0)
            c->format = RD_COMPARE_MARKDOWN;
        else
            return rd_usage_error("%s: expected text, json or markdown, got '%s'", name, arg);
        break;
    case OPT_JSON:
        c->format = RD_COMPARE_JSON;
        break;
    default:
        c->format = RD_COMPARE_MARKDOWN;
        break;
    }
    c->format_given = true;
    return 0;
}

/* The stores a comparison needs; -1 to go on, or RD_EXIT_USAGE. */
static int check_compare_args(const struct args *g)
{
    if (!g->cmp.on)
        return rd_usage_error("--fail-if-slower and --format need --compare or --compare-by");
    if (g->cmp.by && g->nstores < 1)
        return rd_usage_error("--compare-by: expected at least one STORE");
    if (!g->cmp.by && g->nstores != 2)
        return rd_usage_error("--compare: expected two stores, OLD and NEW, got %d",
                              g->nstores);
    return -1;
}

/*
 * Parses argv into *g. Returns -1 to go on, or the exit code (0 after
 * --help and --version). Stores and options may come in any order and
 * "--" ends the options: optstring's leading '-' hands every store over
 * in place (code 1) instead of letting getopt permute argv, which
 * POSIXLY_CORRECT would turn off; its ':' reports a missing value as ':'.
 */
static int parse_args(int argc, char **argv, struct args *g)
{
    opterr = 0;
    optind = 1;
    for (;;) {
        int before = optind, longindex = -1;
        int c = getopt_long(argc, argv, "-:o:h", longopts, &longindex);
        if (c == -1)
            break;
        char name[64];
        option_name(c, longindex, name, sizeof name);
        unsigned long long n;
        switch (c) {
        case 1:
            g->stores[g->nstores++] = optarg;
            break;
        case ':':
            return rd_usage_error("option '%s' needs a value", argv[optind - 1]);
        case '?':
            /* The word as typed: getopt has moved past it, unless the
             * unknown letter is not the last of a bundle like "-xo". */
            return rd_usage_error("unknown option '%s'",
                                  optind > before || optind >= argc ? argv[optind - 1]
                                                                    : argv[optind]);
        case 'h':
            fputs(usage, stdout);
            return 0;
        case OPT_VERSION:
            printf("rundown-analyze %s\n", RD_VERSION);
            return 0;
        case 'o':
            g->outpath = optarg;
            break;
        case OPT_COMPARE:
        case OPT_COMPARE_BY:
        case OPT_FAIL_IF_SLOWER:
        case OPT_FORMAT:
        case OPT_JSON:
        case OPT_MARKDOWN:
            if (parse_compare_option(c, name, optarg, &g->cmp))
                return RD_EXIT_USAGE;
            break;
        case OPT_ALPHA:
            if (parse_prob(name, optarg, &g->o.alpha))
                return RD_EXIT_USAGE;
            break;
        case OPT_CONFIDENCE:
            if (parse_prob(name, optarg, &g->o.confidence))
                return RD_EXIT_USAGE;
            break;
        case OPT_BASELINE: {
            const char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg)
                return rd_usage_error("--baseline: expected KEY=VAL, got '%s'", optarg);
            free(g->baseline);
            g->baseline = strdup(optarg);
            if (!g->baseline)
                return rd_fail(RD_ERR_NOMEM, NULL);
            g->baseline[eq - optarg] = '\0';
            g->o.baseline_key = g->baseline;
            g->o.baseline_val = g->baseline + (eq - optarg) + 1;
            break;
        }
        case OPT_METRIC:
            g->o.metric = optarg;
            break;
        case OPT_BOOTSTRAP:
            if (parse_count(name, optarg, 100000000ULL, &n))
                return RD_EXIT_USAGE;
            g->o.bootstrap = (size_t)n;
            break;
        case OPT_SEED:
            if (parse_count(name, optarg, 4294967295ULL, &n))
                return RD_EXIT_USAGE;
            g->o.seed = (unsigned long)n;
            break;
        case OPT_PUBLISHED:
            g->o.published_dir = optarg;
            break;
        case OPT_TITLE:
            g->o.title = optarg;
            break;
        case OPT_THREADS: {
            char *end;
            errno = 0;
            unsigned long t = strtoul(optarg, &end, 10);
            if (errno || end == optarg || *end || !isdigit((unsigned char)*optarg) || t < 1 ||
                t > 8)
                return rd_usage_error("--threads: expected a whole number from 1 to 8, got '%s'",
                                      optarg);
            g->o.threads = t;
            if (t == 1)
                g->o.split_bytes = 0;
            break;
        }
        case OPT_MARGIN:
            if (parse_prob(name, optarg, &g->o.margin))
                return RD_EXIT_USAGE;
            break;
        case OPT_MAX_ERROR_RATE:
            if (parse_prob(name, optarg, &g->o.max_error_rate))
                return RD_EXIT_USAGE;
            break;
        case OPT_SET: {
            const char *dot = strchr(optarg, '.'), *eq = strchr(optarg, '=');
            if (!dot || dot == optarg || !eq || eq < dot + 2)
                return rd_usage_error("--set: expected WORKLOAD.KEY=VALUE, got '%s'", optarg);
            /* A margin of 0 or 1 and more makes every verdict meaningless:
             * refused here rather than left to fall back to the default. */
            double margin;
            if ((size_t)(eq - dot - 1) == strlen("margin") && strncmp(dot + 1, "margin", 6) == 0 &&
                parse_prob("--set WORKLOAD.margin", eq + 1, &margin))
                return RD_EXIT_USAGE;
            g->settings[g->nsettings++] = optarg;
            g->o.settings = g->settings;
            g->o.nsettings = g->nsettings;
            break;
        }
        case OPT_ALL_METRICS:
            g->o.all_metrics = true;
            break;
        case OPT_EXCLUDE_OUTLIERS:
            g->o.exclude_outliers = true;
            break;
        case OPT_POOL_ENVS:
            g->o.pool_envs = true;
            break;
        case OPT_INCLUDE_CONTENDED:
            g->o.include_contended = true;
            break;
        }
    }
    for (int i = optind; i < argc; i++) /* after "--" */
        g->stores[g->nstores++] = argv[i];
    if (g->cmp.on || g->cmp.format_given || !isnan(g->cmp.fail_if_slower))
        return check_compare_args(g);
    if (g->nstores == 0)
        return rd_usage_error("expected at least one STORE");
    /* A percentile interval needs resamples beyond each of its quantiles:
     * with fewer than 2 / (1 - confidence) of them its ends are the extreme
     * resamples, whatever the confidence asked for. */
    double tail = (1 - g->o.confidence) / 2;
    if (g->o.bootstrap > 0 && (double)g->o.bootstrap * tail < 1)
        return rd_usage_error("--bootstrap: %zu resamples leave none beyond the %g %% and "
                              "%g %% quantiles; use at least %.0f for %g %% confidence",
                              g->o.bootstrap, tail * 100, (1 - tail) * 100, ceil(1 / tail),
                              g->o.confidence * 100);
    return -1;
}

/* Writes text to -o FILE (atomically) or standard output. */
static rd_status write_output(const char *outpath, const struct rd_buf *text,
                              struct rd_diag *d)
{
    if (!outpath) {
        if (fwrite(text->ptr, 1, text->len, stdout) != text->len || fflush(stdout) != 0)
            return rd_diag_set(d, RD_ERR_IO, "<stdout>", 0, 0, "cannot write: %s",
                               strerror(errno));
        return RD_OK;
    }
    struct out_file of = {.path = outpath};
    RD_TRY(rd_atomic_open(&of.af, outpath, d));
    rd_status s = write_piece(&of, text->ptr, text->len, d);
    if (s) {
        rd_atomic_abort(&of.af);
        return s;
    }
    return rd_atomic_commit(&of.af, d);
}

/* --compare / --compare-by: the table, then the gate's verdict. */
static int compare_main(const struct args *g)
{
    struct rd_compare_input in = {
        .old_stores = g->stores, .nold = g->cmp.by ? (size_t)g->nstores : 1,
        .new_stores = g->stores + 1, .nnew = g->cmp.by ? 0 : 1,
        .by_key = g->cmp.by, .by_old = g->cmp.by_old, .by_new = g->cmp.by_new,
    };
    struct rd_compare_settings s;
    rd_compare_settings_init(&s);
    s.alpha = g->o.alpha;
    s.margin = g->o.margin;
    s.fail_if_slower = g->cmp.fail_if_slower;
    struct rd_comparison c;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    struct rd_buf out = RD_BUF_INIT;
    rd_status st = rd_comparison_build(&c, &g->o, &in, &s, &d);
    if (!st)
        st = rd_comparison_format(&c, g->cmp.format, &out);
    if (!st)
        st = write_output(g->outpath, &out, &d);
    int rc = st ? rd_fail(st, &d) : 0;
    if (!st && c.regressions) {
        for (size_t i = 0; i < c.nrows; i++) {
            const struct rd_compare_row *r = &c.rows[i];
            if (r->regression)
                rd_error("regression: %s %s: %s %+.1f%% (interval %+.1f%% to %+.1f%%), "
                         "more than %g%% worse", r->workload, *r->config ? r->config : "-",
                         r->metric, 100 * (r->ratio - 1), 100 * (r->ratio_ci_low - 1),
                         100 * (r->ratio_ci_high - 1), 100 * s.fail_if_slower);
        }
        rc = RD_EXIT_GATE;
    }
    rd_buf_release(&out);
    rd_comparison_release(&c);
    return rc;
}

int main(int argc, char **argv)
{
    rd_cli_init("rundown-analyze");
    /* Before any thread starts: the -o temporary goes on SIGINT, SIGTERM
     * and SIGHUP (fsutil.h). */
    rd_cleanup_on_signals(false, rd_cli_name());
    rd_stats_init();
    struct args g = {.stores = calloc((size_t)argc, sizeof *g.stores),
                     .settings = calloc((size_t)argc, sizeof *g.settings)};
    if (!g.stores || !g.settings)
        return rd_fail(RD_ERR_NOMEM, NULL);
    rd_analyze_opts_init(&g.o);
    g.cmp.fail_if_slower = NAN;
    int rc = parse_args(argc, argv, &g);
    if (rc >= 0)
        goto done;
    if (g.cmp.on) {
        rc = compare_main(&g);
        goto done;
    }
    struct rd_analysis *an;
    rd_status s = rd_analysis_new(&g.o, &an);
    if (s) {
        rc = rd_fail(s, NULL);
        goto done;
    }
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    for (int i = 0; i < g.nstores && !s; i++)
        s = rd_analysis_add_store(an, g.stores[i], &d);
    struct rd_buf out = RD_BUF_INIT;
    if (!s && g.outpath) {
        /* A regular file is written under a temporary name as the
         * workloads are done (removed on failure); devices and pipes
         * (-o /dev/null) only get a whole document. */
        struct out_file of = {.path = g.outpath};
        s = rd_atomic_open(&of.af, g.outpath, &d);
        if (!s && of.af.tmp_path) {
            struct rd_analysis_sink sink = {write_piece, &of};
            s = rd_analysis_write_to(an, &sink, &d);
        } else if (!s && !(s = rd_analysis_write(an, &out, &d))) {
            s = write_piece(&of, out.ptr, out.len, &d);
        }
        if (!s)
            s = rd_atomic_commit(&of.af, &d);
        else
            rd_atomic_abort(&of.af);
    } else if (!s && !(s = rd_analysis_write(an, &out, &d)) &&
               (fwrite(out.ptr, 1, out.len, stdout) != out.len || fflush(stdout) != 0)) {
        s = rd_diag_set(&d, RD_ERR_IO, "<stdout>", 0, 0, "cannot write: %s", strerror(errno));
    }
    rc = s ? rd_fail(s, &d) : 0;
    rd_buf_release(&out);
    rd_analysis_free(an);
done:
    free(g.cmp.by);
    free(g.baseline);
    free(g.stores);
    free(g.settings);
    return rc;
}
