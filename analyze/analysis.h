/*
 * analysis.h - the analyze stage: run stores in, rundown.analysis/1 out.
 *
 * Usage: rd_analysis_new(), rd_analysis_add_store() for each store (streamed
 * one line at a time; only the measured values are kept), then
 * rd_analysis_write() and rd_analysis_free(). The output contract is
 * docs/analysis.md; the methods are docs/methods.md.
 */
#ifndef RUNDOWN_ANALYZE_ANALYSIS_H
#define RUNDOWN_ANALYZE_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/analysis_keys.h"
#include "rundown/buf.h"
#include "rundown/status.h"

struct rd_analyze_opts {
    double alpha;               /* significance level, default 0.05 */
    double confidence;          /* CI level, default 0.95 */
    size_t bootstrap;           /* > 0: bootstrap CI of the median (n <= 50) with this many
                                 * resamples; 0 (default): the exact binomial interval */
    unsigned long seed;         /* bootstrap seed, default 1 */
    const char *baseline_key;   /* --baseline KEY=VAL, or NULL */
    const char *baseline_val;
    const char *metric;         /* --metric: primary metric when the suite names none */
    bool all_metrics;           /* tests on every metric, not only the primary */
    bool exclude_outliers;      /* drop Tukey outliers before the statistics */
    bool pool_envs;             /* allow one config to hold runs of several environments */
    bool include_contended;     /* keep runs taken on a busy machine ("contended": true) */
    const char *published_dir;  /* --published DIR: replication against summary statistics */
    const char *title;          /* --title: the report's title, or NULL */
    size_t split_bytes;         /* a store file this big is read in parts, taken in
                                 * turn by up to 'threads' threads, that shrink
                                 * towards its end to split_bytes / 64 (split.h; up
                                 * to 16 a thread) (default 16 MiB; 0 = never) */
    size_t parallel_values;     /* workloads holding this many values in all are analysed
                                 * and written by 'threads' threads (default 100000;
                                 * 0 = never); the output is the same bytes */
    size_t config_chunk;        /* when the workloads are written on one thread and
                                 * 'threads' allows more (one big workload), a second
                                 * thread writes its configs, pairs and verdict rows
                                 * too, this many a piece, and takes half of its
                                 * prepared series and pairs from twice this many
                                 * (default 256; 0 = never); the same bytes */
    size_t threads;             /* default: the processors it may run on, at most 8 */
    const char *cache_dir;      /* keep each store's parsed records here and read them
                                 * back while the store only grew (storecache.h);
                                 * NULL (default): no cache. The same bytes either way */
    unsigned cache_block;       /* records per block of a new cache (0: its default;
                                 * the tests' small stores get several blocks) */
    size_t many_configs;        /* on_many_configs is called when a store's reading
                                 * (one part of it, or the whole) reaches this many
                                 * configs (0: never) */
    void (*on_many_configs)(void); /* from the reading thread, once per part at most:
                                    * main turns the heap to huge pages then
                                    * (hugepages.h); it changes no byte */
    /* The verdicts (docs/methods.md, "Verdicts"); a workload's own
     * info.margin / info.max_error_rate win over these defaults. */
    double margin;              /* --margin: relative equivalence margin, default 0.05 */
    double max_error_rate;      /* --max-error-rate: load errors per attempted request
                                 * above which a config is disqualified, default 0.01 */
    size_t min_good_runs;       /* fewer good runs disqualify a config (2) */
    double max_failed_share;    /* more failed or timed-out runs disqualify (0.2) */
    const char *const *settings; /* --set WORKLOAD.KEY=VALUE, overriding info.KEY */
    size_t nsettings;
};

/** Sets the documented defaults. */
void rd_analyze_opts_init(struct rd_analyze_opts *o);

struct rd_analysis;

/** Creates an empty analysis; the options are copied (their strings are not). */
rd_status rd_analysis_new(const struct rd_analyze_opts *o, struct rd_analysis **out);

/**
 * Streams the store at 'path' ("-" = stdin) into the analysis. Warmup runs
 * are skipped, failed and timed-out runs counted. A bad line is
 * RD_ERR_PARSE with d naming path:line:col; runs of two environments in one
 * config are RD_ERR_PARSE (naming the line) unless pool_envs is set. Each
 * environment the store names first is then read from <store's
 * folder>/<id>.json when that file exists: one that cannot be read or is
 * not an object is RD_ERR_IO or RD_ERR_PARSE naming it.
 * 'path' must outlive the analysis.
 */
rd_status rd_analysis_add_store(struct rd_analysis *a, const char *path, struct rd_diag *d);

/**
 * Computes every statistic and appends the rundown.analysis/1 document
 * (pretty-printed, deterministic: same input and options, same bytes) to out.
 * Errors: RD_ERR_NOMEM, or RD_ERR_PARSE/RD_ERR_IO from a published file
 * that exists but cannot be read.
 */
rd_status rd_analysis_write(struct rd_analysis *a, struct rd_buf *out, struct rd_diag *d);

/** Where a document goes piece by piece: write() takes each piece in
 * order, and fills d when it fails. */
struct rd_analysis_sink {
    rd_status (*write)(void *ctx, const char *data, size_t len, struct rd_diag *d);
    void *ctx;
};

/**
 * rd_analysis_write, handing the document to 'sink' in pieces of about a
 * mebibyte as the workloads are done instead of holding all of it (a big
 * store's document is tens of megabytes, and writing it then overlaps the
 * analysis). On failure the sink has had part of the document: give it a
 * temporary file, not a terminal.
 */
rd_status rd_analysis_write_to(struct rd_analysis *a, const struct rd_analysis_sink *sink,
                               struct rd_diag *d);

void rd_analysis_free(struct rd_analysis *a);

#endif
