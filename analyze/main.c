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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "rundown/cli.h"
#include "rundown/fsutil.h"
#include "stats.h"

static const char usage[] =
    "usage: rundown-analyze [-o FILE] [--alpha A] [--confidence C] [--baseline KEY=VAL]\n"
    "                       [--metric NAME] [--all-metrics] [--bootstrap B] [--seed S]\n"
    "                       [--exclude-outliers] [--pool-envs] [--published DIR]\n"
    "                       [--title TEXT] [--threads N] STORE...\n"
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
    "                       (default 0: the exact order-statistic interval for every n)\n"
    "  --seed S             seed of the bootstrap (default 1)\n"
    "  --exclude-outliers   drop values outside Tukey's fences before the statistics\n"
    "  --pool-envs          allow one config to hold runs of several environments\n"
    "  --published DIR      compare with published figures (" RD_PUBLISHED_SCHEMA " files)\n"
    "  --title TEXT         the report's title (written as \"title\")\n"
    "  --threads N          threads for big stores (default: the processors it may use,\n"
    "                       at most 8; 1: one thread); the output does not depend on it\n"
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
    OPT_BOOTSTRAP, OPT_SEED, OPT_EXCLUDE_OUTLIERS, OPT_POOL_ENVS, OPT_PUBLISHED,
    OPT_TITLE, OPT_THREADS, OPT_VERSION,
};

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"confidence", required_argument, NULL, OPT_CONFIDENCE},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"metric", required_argument, NULL, OPT_METRIC},
    {"all-metrics", no_argument, NULL, OPT_ALL_METRICS},
    {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
    {"seed", required_argument, NULL, OPT_SEED},
    {"exclude-outliers", no_argument, NULL, OPT_EXCLUDE_OUTLIERS},
    {"pool-envs", no_argument, NULL, OPT_POOL_ENVS},
    {"published", required_argument, NULL, OPT_PUBLISHED},
    {"title", required_argument, NULL, OPT_TITLE},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* What the command line asks for. */
struct args {
    struct rd_analyze_opts o;
    const char *outpath;
    char *baseline;          /* the --baseline argument, split at '=' */
    const char **stores;
    int nstores;
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
        case OPT_ALL_METRICS:
            g->o.all_metrics = true;
            break;
        case OPT_EXCLUDE_OUTLIERS:
            g->o.exclude_outliers = true;
            break;
        case OPT_POOL_ENVS:
            g->o.pool_envs = true;
            break;
        }
    }
    for (int i = optind; i < argc; i++) /* after "--" */
        g->stores[g->nstores++] = argv[i];
    if (g->nstores == 0)
        return rd_usage_error("expected at least one STORE");
    return -1;
}

int main(int argc, char **argv)
{
    rd_cli_init("rundown-analyze");
    /* Before any thread starts: the -o temporary goes on SIGINT, SIGTERM
     * and SIGHUP (fsutil.h). */
    rd_cleanup_on_signals(false, rd_cli_name());
    rd_stats_init();
    struct args g = {.stores = calloc((size_t)argc, sizeof *g.stores)};
    if (!g.stores)
        return rd_fail(RD_ERR_NOMEM, NULL);
    rd_analyze_opts_init(&g.o);
    int rc = parse_args(argc, argv, &g);
    if (rc >= 0)
        goto done;
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
    free(g.baseline);
    free(g.stores);
    return rc;
}
