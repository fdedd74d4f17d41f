/*
 * main.c - rundown-analyze: run stores in, rundown.analysis/1 out.
 *
 * Parses the command line, streams each store into the analysis and writes
 * the document to -o FILE (atomically) or to standard output. All the work
 * is in the rd_analyze library; this file only talks to the user.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "comparestores.h"
#include "optable.h"
#include "rundown/cli.h"
#include "rundown/fsutil.h"
#include "rundown/hugepages.h"
#include "rundown/storecache.h"
#include "stats.h"

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
    rd_atomic_writeback(&o->af);
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

/* The exit status of --fail-if-slower when it fires (docs/compare.md):
 * past DESIGN's 0-4, so a CI job can tell a regression from a failure. */
enum { EXIT_REGRESSION = 5 };

/* --compare, --compare-by and their options. */
struct compare_args {
    bool on;                 /* --compare or --compare-by */
    struct rd_compare_by by; /* by.key NULL: no --compare-by */
    double fail_if_slower;   /* a fraction; NaN: no gate */
    bool fail_if_inconclusive;
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
    const char *cache_dir;   /* --cache-dir */
    bool no_cache;           /* --no-cache */
};

/* One of the comparison's options into *c; non-zero after a usage error. */
static int parse_compare_option(int code, const char *name, const char *arg,
                                struct compare_args *c)
{
    switch (code) {
    case OPT_COMPARE:
        c->on = true;
        return 0;
    case OPT_COMPARE_BY: {
        struct rd_diag d;
        rd_diag_init(&d, NULL);
        rd_compare_by_release(&c->by);
        rd_status st = rd_compare_by_parse(&c->by, arg, &d);
        if (st == RD_ERR_USAGE)
            return rd_usage_error("%s", d.msg);
        if (st)
            return rd_fail(st, &d);
        c->on = true;
        return 0;
    }
    case OPT_FAIL_IF_INCONCLUSIVE:
        c->fail_if_inconclusive = true;
        return 0;
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
        return rd_usage_error("--fail-if-slower, --fail-if-inconclusive and --format need "
                              "--compare or --compare-by");
    if (g->cmp.by.key && g->nstores < 1)
        return rd_usage_error("--compare-by: expected at least one STORE");
    return -1;
}

/*
 * Parses argv into *g. Returns -1 to go on, or the exit code (0 after
 * --help and --version). Stores and options may come in any order and
 * "--" ends the options: the table's RD_OPTS_IN_PLACE hands every store
 * over in place instead of letting getopt permute argv, which
 * POSIXLY_CORRECT would turn off.
 */
/* --baseline KEY=VAL: -1 to go on, else the exit code (printed). */
static int opt_baseline(struct args *g, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return rd_usage_error("--baseline: expected KEY=VAL, got '%s'", arg);
    free(g->baseline);
    g->baseline = strdup(arg);
    if (!g->baseline)
        return rd_fail(RD_ERR_NOMEM, NULL);
    g->baseline[eq - arg] = '\0';
    g->o.baseline_key = g->baseline;
    g->o.baseline_val = g->baseline + (eq - arg) + 1;
    return -1;
}

/* --threads N: -1 to go on, else the exit code (printed). */
static int opt_threads(struct args *g, const char *arg)
{
    char *end;
    errno = 0;
    unsigned long t = strtoul(arg, &end, 10);
    if (errno || end == arg || *end || !isdigit((unsigned char)*arg) || t < 1 || t > 8)
        return rd_usage_error("--threads: expected a whole number from 1 to 8, got '%s'", arg);
    g->o.threads = t;
    if (t == 1)
        g->o.split_bytes = 0;
    return -1;
}

/* --set WORKLOAD.KEY=VALUE: -1 to go on, else the exit code (printed). */
static int opt_set(struct args *g, char *arg)
{
    const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
    if (!dot || dot == arg || !eq || eq < dot + 2)
        return rd_usage_error("--set: expected WORKLOAD.KEY=VALUE, got '%s'", arg);
    /* A margin of 0 or 1 and more makes every verdict meaningless:
     * refused here rather than left to fall back to the default. */
    double margin;
    if ((size_t)(eq - dot - 1) == strlen("margin") && strncmp(dot + 1, "margin", 6) == 0 &&
        parse_prob("--set WORKLOAD.margin", eq + 1, &margin))
        return RD_EXIT_USAGE;
    /* A planned maximum sets the level of every verdict (looks.c): a
     * whole count of runs, or refused. */
    if ((size_t)(eq - dot - 1) == strlen("runs_max") && strncmp(dot + 1, "runs_max", 8) == 0) {
        char *end;
        errno = 0;
        long long v = strtoll(eq + 1, &end, 10);
        if (end == eq + 1 || *end || errno || v < 1)
            return rd_usage_error("--set WORKLOAD.runs_max: expected a whole number of runs "
                                  "of 1 or more, got '%s'", eq + 1);
    }
    g->settings[g->nsettings++] = arg;
    g->o.settings = g->settings;
    g->o.nsettings = g->nsettings;
    return -1;
}

/* One option (or operand) into g: -1 to go on, else the exit code
 * (printed). */
static int parse_option(struct args *g, int c, const char *name, char *arg)
{
    unsigned long long n;
    switch (c) {
    case RD_OPTS_OPERAND: g->stores[g->nstores++] = arg; break;
    case 'o': g->outpath = arg; break;
    case OPT_COMPARE:
    case OPT_COMPARE_BY:
    case OPT_FAIL_IF_SLOWER:
    case OPT_FAIL_IF_INCONCLUSIVE:
    case OPT_FORMAT:
    case OPT_JSON:
    case OPT_MARKDOWN:
        return parse_compare_option(c, name, arg, &g->cmp) ? RD_EXIT_USAGE : -1;
    case OPT_ALPHA: return parse_prob(name, arg, &g->o.alpha) ? RD_EXIT_USAGE : -1;
    case OPT_CONFIDENCE: return parse_prob(name, arg, &g->o.confidence) ? RD_EXIT_USAGE : -1;
    case OPT_MARGIN: return parse_prob(name, arg, &g->o.margin) ? RD_EXIT_USAGE : -1;
    case OPT_MAX_ERROR_RATE:
        return parse_prob(name, arg, &g->o.max_error_rate) ? RD_EXIT_USAGE : -1;
    case OPT_BASELINE: return opt_baseline(g, arg);
    case OPT_METRIC: g->o.metric = arg; break;
    case OPT_BOOTSTRAP:
        if (parse_count(name, arg, 100000000ULL, &n))
            return RD_EXIT_USAGE;
        g->o.bootstrap = (size_t)n;
        break;
    case OPT_SEED:
        if (parse_count(name, arg, 4294967295ULL, &n))
            return RD_EXIT_USAGE;
        g->o.seed = (unsigned long)n;
        break;
    case OPT_PUBLISHED: g->o.published_dir = arg; break;
    case OPT_TITLE: g->o.title = arg; break;
    case OPT_THREADS: return opt_threads(g, arg);
    case OPT_SET: return opt_set(g, arg);
    case OPT_ALL_METRICS: g->o.all_metrics = true; break;
    case OPT_EXCLUDE_OUTLIERS: g->o.exclude_outliers = true; break;
    case OPT_POOL_ENVS: g->o.pool_envs = true; break;
    case OPT_INCLUDE_CONTENDED: g->o.include_contended = true; break;
    case OPT_CACHE_DIR:
        if (!*arg)
            return rd_usage_error("--cache-dir: expected a directory, got ''");
        g->cache_dir = arg;
        break;
    case OPT_NO_CACHE: g->no_cache = true; break;
    }
    return -1;
}

static int parse_args(int argc, char **argv, struct args *g)
{
    struct rd_opts p;
    rd_opts_begin(&p, &rd_analyze_spec, argc, argv);
    int c, rc;
    while ((c = rd_opts_next(&p)) != RD_OPTS_END) {
        if (c == RD_OPTS_EXIT)
            return rd_opts_exit_code(&p);
        if ((rc = parse_option(g, c, rd_opts_name(&p), rd_opts_arg(&p))) >= 0)
            return rc;
    }
    for (int i = rd_opts_index(&p); i < argc; i++) /* after "--" */
        g->stores[g->nstores++] = argv[i];
    if (g->cmp.on || g->cmp.format_given || !isnan(g->cmp.fail_if_slower) ||
        g->cmp.fail_if_inconclusive)
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

/* How a message names side k: a plain store by its path as typed (its
 * column head may be its file name alone), a group or a value by name. */
static const char *side_shown(const struct rd_comparison *c, const struct rd_compare_sides *s,
                              size_t k)
{
    return s->lists && k < s->ngroups && !s->lists[k] ? s->groups[k].stores[0]
                                                      : c->side_names[k];
}

/* "a, b or c": the sides after the baseline, for a message. */
static void other_sides(const struct rd_comparison *c, const struct rd_compare_sides *s,
                        const char *prefix, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t k = 1; k < c->nsides && at < size; k++)
        at += (size_t)snprintf(out + at, size - at, "%s%s%s%s",
                               k == 1 ? "" : k + 1 == c->nsides ? " or " : ", ", prefix,
                               prefix[0] ? "=" : "", side_shown(c, s, k));
}

/* The gate's messages on stderr; returns the exit status. */
static int gate(const struct rd_comparison *c, const struct args *g)
{
    int rc = 0;
    bool many = c->nsides > 2;
    for (size_t i = 0; i < c->nrows; i++) {
        const struct rd_compare_row *r = &c->rows[i];
        const char *config = *r->config ? r->config : "-";
        if (r->regression) {
            rd_error("regression: %s %s%s%s: %s %+.1f%% (interval %+.1f%% to %+.1f%%), "
                     "more than %g%% worse", r->workload, config, many ? " on " : "",
                     many ? c->side_names[r->side] : "", r->metric, 100 * (r->ratio - 1),
                     100 * (r->ratio_ci_low - 1), 100 * (r->ratio_ci_high - 1),
                     100 * c->s.fail_if_slower);
            rc = EXIT_REGRESSION;
        }
        if (g->cmp.fail_if_inconclusive && r->change == RD_CHANGE_INCONCLUSIVE) {
            if (r->runs_needed > 0)
                rd_error("inconclusive: %s %s%s%s: %s, about %ld runs per side would settle it",
                         r->workload, config, many ? " on " : "",
                         many ? c->side_names[r->side] : "", r->metric, r->runs_needed);
            else
                rd_error("inconclusive: %s %s%s%s: %s", r->workload, config,
                         many ? " on " : "", many ? c->side_names[r->side] : "", r->metric);
            rc = EXIT_REGRESSION;
        }
    }
    return rc;
}

/* --compare / --compare-by: the table, then the gate's verdict. */
static int compare_main(const struct args *g)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    struct rd_compare_sides sides;
    struct rd_compare_group all = { NULL, g->stores, (size_t)g->nstores };
    struct rd_compare_input in = {
        .groups = &all, .ngroups = 1, .by_key = g->cmp.by.key,
        .by_values = g->cmp.by.values, .nvalues = g->cmp.by.nvalues,
    };
    rd_status st = RD_OK;
    if (!g->cmp.by.key) {
        st = rd_compare_sides_parse(&sides, g->stores, (size_t)g->nstores, &d);
        in.groups = sides.groups;
        in.ngroups = sides.ngroups;
    } else
        memset(&sides, 0, sizeof sides);
    if (st) {
        rd_compare_sides_release(&sides);
        return st == RD_ERR_USAGE ? rd_usage_error("%s", d.msg) : rd_fail(st, &d);
    }
    struct rd_compare_settings s;
    rd_compare_settings_init(&s);
    s.alpha = g->o.alpha;
    s.margin = g->o.margin;
    s.fail_if_slower = g->cmp.fail_if_slower;
    s.fail_if_inconclusive = g->cmp.fail_if_inconclusive;
    struct rd_comparison c;
    struct rd_buf out = RD_BUF_INIT;
    st = rd_comparison_build(&c, &g->o, &in, &s, &d);
    /* A comparison of nothing is an error, not a table headed "over 0
     * comparisons": nothing is written before the message. */
    bool nothing = !st && c.family == 0;
    if (!st && !nothing)
        st = rd_comparison_format(&c, g->cmp.format, &out);
    if (!st && !nothing)
        st = write_output(g->outpath, &out, &d);
    int rc = st ? rd_fail(st, &d) : 0;
    /* A gate over no comparison would pass whatever the runs say. */
    if (nothing) {
        char others[512];
        other_sides(&c, &sides, g->cmp.by.key ? g->cmp.by.key : "", others, sizeof others);
        rd_error("no config is in both %s%s%s and %s, nothing was compared",
                 g->cmp.by.key ? g->cmp.by.key : "", g->cmp.by.key ? "=" : "",
                 side_shown(&c, &sides, 0), others);
        rc = RD_EXIT_INPUT;
    }
    if (!st && rc == 0)
        rc = gate(&c, g);
    rd_buf_release(&out);
    rd_comparison_release(&c);
    rd_compare_sides_release(&sides);
    return rc;
}

/* At 10^5 configs the parse, the statistics and the document touch a
 * quarter of a gigabyte of small per-config blocks whole: in 4 KiB pages
 * that was 65,000 page faults and a fifth of the CPU (hugepages.h). A
 * small analysis keeps small pages, since huge ones count whole in its
 * peak RSS (store-1m, 1,000 configs: 65 -> 73 MiB with them): the heap
 * goes to huge pages once a part of a store read holds this many configs
 * (a part is 16 MiB of a big store; store-1x100000's hold 20,000 each). */
enum { HUGE_HEAP_CONFIGS = 5000 };

int main(int argc, char **argv)
{
    rd_cli_init("rundown-analyze");
    /* The heap's address space reserved before anything is allocated;
     * whether its pages are huge is decided as the stores are read
     * (HUGE_HEAP_CONFIGS). */
    (void)rd_heap_reserve();
    /* Before any thread starts: the -o temporary goes on SIGINT, SIGTERM
     * and SIGHUP (fsutil.h). */
    rd_cleanup_on_signals(false, rd_cli_name());
    rd_stats_init();
    struct args g = {.stores = calloc((size_t)argc, sizeof *g.stores),
                     .settings = calloc((size_t)argc, sizeof *g.settings)};
    if (!g.stores || !g.settings)
        return rd_fail(RD_ERR_NOMEM, NULL);
    rd_analyze_opts_init(&g.o);
    g.o.many_configs = HUGE_HEAP_CONFIGS;
    g.o.on_many_configs = rd_heap_make_huge;
    g.cmp.fail_if_slower = NAN;
    char *default_dir = NULL;
    int rc = parse_args(argc, argv, &g);
    if (rc >= 0)
        goto done;
    /* The parse cache is on unless turned off; without a home for it
     * (no HOME, no XDG_CACHE_HOME) there is none (storecache.h). */
    if (!g.no_cache)
        g.o.cache_dir = g.cache_dir ? g.cache_dir : (default_dir = rd_cache_default_dir());
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
    free(default_dir);
    rd_compare_by_release(&g.cmp.by);
    free(g.baseline);
    free(g.stores);
    free(g.settings);
    return rc;
}
