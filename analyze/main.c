/*
 * main.c - rundown-analyze: run stores in, rundown.analysis/1 out.
 *
 * Parses the command line, streams each store into the analysis and writes
 * the document to -o FILE (atomically) or to standard output. All the work
 * is in the rd_analyze library; this file only talks to the user.
 */
#include <ctype.h>
#include <errno.h>
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
    "Reads run stores (rundown.run/1 JSONL, '-' = stdin) and writes statistics, tests\n"
    "and recommendations as rundown.analysis/1 JSON.\n"
    "\n"
    "  -o FILE              write to FILE (atomically) instead of standard output\n"
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
    "  --published DIR      compare with published figures (rundown.published/1 files)\n"
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

int main(int argc, char **argv)
{
    rd_cli_init("rundown-analyze");
    rd_stats_init();
    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    const char *outpath = NULL;
    char *baseline = NULL;
    /* Stores and options may come in any order; "--" ends the options. */
    const char **stores = calloc((size_t)argc, sizeof *stores);
    int nstores = 0, rc;
    bool opts_done = false;
    if (!stores)
        return rd_fail(RD_ERR_NOMEM, NULL);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || a[1] == '\0') {
            stores[nstores++] = a;
            continue;
        }
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = strcmp(a, "-o") == 0 || strcmp(a, "--alpha") == 0 ||
                     strcmp(a, "--confidence") == 0 || strcmp(a, "--baseline") == 0 ||
                     strcmp(a, "--metric") == 0 || strcmp(a, "--bootstrap") == 0 ||
                     strcmp(a, "--seed") == 0 || strcmp(a, "--published") == 0 ||
                     strcmp(a, "--title") == 0 || strcmp(a, "--threads") == 0;
        if (takes && !val) {
            rc = rd_usage_error("option '%s' needs a value", a);
            goto usage_fail;
        }
        unsigned long long n;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            free(baseline);
            free(stores);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("rundown-analyze %s\n", RD_VERSION);
            free(baseline);
            free(stores);
            return 0;
        } else if (strcmp(a, "-o") == 0) {
            outpath = val;
        } else if (strcmp(a, "--alpha") == 0) {
            if ((rc = parse_prob(a, val, &o.alpha)))
                goto usage_fail;
        } else if (strcmp(a, "--confidence") == 0) {
            if ((rc = parse_prob(a, val, &o.confidence)))
                goto usage_fail;
        } else if (strcmp(a, "--baseline") == 0) {
            const char *eq = strchr(val, '=');
            if (!eq || eq == val) {
                rc = rd_usage_error("--baseline: expected KEY=VAL, got '%s'", val);
                goto usage_fail;
            }
            free(baseline);
            baseline = strdup(val);
            if (!baseline) {
                rc = rd_fail(RD_ERR_NOMEM, NULL);
                goto usage_fail;
            }
            baseline[eq - val] = '\0';
            o.baseline_key = baseline;
            o.baseline_val = baseline + (eq - val) + 1;
        } else if (strcmp(a, "--metric") == 0) {
            o.metric = val;
        } else if (strcmp(a, "--bootstrap") == 0) {
            if ((rc = parse_count(a, val, 100000000ULL, &n)))
                goto usage_fail;
            o.bootstrap = (size_t)n;
        } else if (strcmp(a, "--seed") == 0) {
            if ((rc = parse_count(a, val, 4294967295ULL, &n)))
                goto usage_fail;
            o.seed = (unsigned long)n;
        } else if (strcmp(a, "--published") == 0) {
            o.published_dir = val;
        } else if (strcmp(a, "--title") == 0) {
            o.title = val;
        } else if (strcmp(a, "--threads") == 0) {
            char *end;
            errno = 0;
            unsigned long t = strtoul(val, &end, 10);
            if (errno || end == val || *end || !isdigit((unsigned char)*val) || t < 1 || t > 8) {
                rc = rd_usage_error("--threads: expected a whole number from 1 to 8, got '%s'",
                                    val);
                goto usage_fail;
            }
            o.threads = t;
            if (t == 1)
                o.split_bytes = 0;
        } else if (strcmp(a, "--all-metrics") == 0) {
            o.all_metrics = true;
            continue;
        } else if (strcmp(a, "--exclude-outliers") == 0) {
            o.exclude_outliers = true;
            continue;
        } else if (strcmp(a, "--pool-envs") == 0) {
            o.pool_envs = true;
            continue;
        } else if (strcmp(a, "--") == 0) {
            opts_done = true;
            continue;
        } else {
            rc = rd_usage_error("unknown option '%s'", a);
            goto usage_fail;
        }
        i++; /* the option's value */
    }
    if (nstores == 0) {
        rc = rd_usage_error("expected at least one STORE");
        goto usage_fail;
    }

    struct rd_analysis *an;
    rd_status s = rd_analysis_new(&o, &an);
    if (s) {
        rc = rd_fail(s, NULL);
        goto usage_fail;
    }
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    for (int i = 0; i < nstores && !s; i++)
        s = rd_analysis_add_store(an, stores[i], &d);
    struct rd_buf out = RD_BUF_INIT;
    if (!s && outpath) {
        /* A regular file is written under a temporary name as the
         * workloads are done (removed on failure); devices and pipes
         * (-o /dev/null) only get a whole document. */
        struct out_file of = {.path = outpath};
        s = rd_atomic_open(&of.af, outpath, &d);
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
    free(baseline);
    free(stores);
    return rc;

usage_fail:
    free(baseline);
    free(stores);
    return rc;
}
