/*
 * pool.c - the workloads analysed and written in parallel, in order.
 *
 * After reading, analysing and writing the workloads is most of the time
 * of a big store, and workloads are independent of each other. So when the
 * workloads hold at least opts.parallel_values values, up to
 * opts.threads - 1 helper threads and this one take workloads in name
 * order from a shared counter, each writing into the workload's own
 * buffer, and this thread appends the finished buffers to the document in
 * name order as they complete: the same bytes as one thread, with at most
 * a few workloads' text held twice. Everything a workload's analysis
 * writes lives in its own struct wctx; what they share (the analysis, the
 * metric order) is only read.
 *
 * With a sink, the workload next in order (every one before it already
 * handed on) spills its text to the sink as it is written, a mebibyte at
 * a time between configs (jw_spill), instead of holding it whole: one
 * workload of 10^5 configs is 490 MB of text. The lock keeps the sink's
 * writes, the document's buffer and the count of workloads handed on to
 * one thread at a time.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "jw.h"
#include "stats.h"

struct named_metric {
    const char *name;
    uint32_t id;
};

static int cmp_named_metric(const void *x, const void *y)
{
    const struct named_metric *a = x, *b = y;
    return strcmp(a->name, b->name);
}

static int cmp_wl(const void *x, const void *y)
{
    const struct wl *const *a = x, *const *b = y;
    return strcmp((*a)->name, (*b)->name);
}

struct wl_jobs {
    struct rd_analysis *a;
    const uint32_t *by_name;
    rd_workload_writer *write_one;
    struct wl **order;          /* workloads by name */
    size_t n;
    struct jw at;               /* the writer inside "workloads":[ */
    struct rd_buf *text;        /* per workload */
    rd_status *st;              /* per workload */
    atomic_bool *done;          /* per workload: text and st are final */
    atomic_size_t next;         /* the next workload to take */
    atomic_bool failed;         /* stop taking workloads */
    const struct rd_analysis_sink *sink; /* NULL: the document stays in memory */
    struct rd_diag *d;
    pthread_mutex_t lock;       /* held for what follows and the sink's writes */
    size_t flushed;             /* the workloads before it are in doc or the sink */
    struct jw *doc;             /* the document's writer (its buffer, first[]) */
};

/* Pieces of about this size go to a sink. */
#define SINK_PIECE (1u << 20)

static rd_status flush_locked(struct wl_jobs *j);

/* jw's spill for workload text b: when it holds a mebibyte or more and
 * every workload before it has been handed on (this thread appends the
 * finished ones: the main thread may be waiting for its helpers), the
 * document's buffer and then b go to the sink, and b starts again empty. */
static rd_status spill_workload(void *ctx, struct rd_buf *b)
{
    struct wl_jobs *j = ctx;
    if (b->len < SINK_PIECE)
        return RD_OK;
    pthread_mutex_lock(&j->lock);
    rd_status st = flush_locked(j);
    if (!st && j->flushed == (size_t)(b - j->text)) {
        struct rd_buf *doc = j->doc->b;
        if (doc->len)
            st = j->sink->write(j->sink->ctx, doc->ptr, doc->len, j->d);
        rd_buf_reset(doc);
        if (!st)
            st = j->sink->write(j->sink->ctx, b->ptr, b->len, j->d);
        rd_buf_reset(b);
    }
    pthread_mutex_unlock(&j->lock);
    return st;
}

/* Analyses and writes the next workload not yet taken; false when none is
 * left (or one failed). */
static bool write_next_workload(struct wl_jobs *j)
{
    if (atomic_load(&j->failed))
        return false;
    size_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->n)
        return false;
    struct jw w = j->at;
    w.b = &j->text[i];
    w.first[w.depth] = i == 0;
    if (j->sink) {
        w.spill = spill_workload;
        w.spill_ctx = j;
    }
    j->st[i] = j->write_one(j->a, j->by_name, j->order[i], &w);
    if (j->st[i])
        atomic_store(&j->failed, true);
    atomic_store(&j->done[i], true);
    return true;
}

static void *workload_helper(void *arg)
{
    while (write_next_workload(arg))
        ;
    rd_stats_release_thread();
    return NULL;
}

/* Appends the finished workloads from j->flushed on, in order, to the
 * document's buffer; stops at the first unfinished one or the first
 * failure. */
static rd_status flush_locked(struct wl_jobs *j)
{
    struct jw *w = j->doc;
    for (; j->flushed < j->n && atomic_load(&j->done[j->flushed]); j->flushed++) {
        size_t i = j->flushed;
        if (j->st[i])
            return j->st[i];
        rd_status st = RD_OK;
        if (j->sink && j->text[i].len >= SINK_PIECE) {
            /* A big workload goes to the sink as it is, after what is
             * buffered before it: copying it into w's buffer first cost
             * a copy and the page faults of a second buffer its size (a
             * sixth of the analysis of one workload of 10^5 configs). */
            if (w->b->len)
                st = j->sink->write(j->sink->ctx, w->b->ptr, w->b->len, j->d);
            rd_buf_reset(w->b);
            if (!st)
                st = j->sink->write(j->sink->ctx, j->text[i].ptr, j->text[i].len, j->d);
        } else {
            st = rd_buf_add(w->b, j->text[i].ptr, j->text[i].len);
            if (!st && j->sink && w->b->len >= SINK_PIECE) {
                st = j->sink->write(j->sink->ctx, w->b->ptr, w->b->len, j->d);
                rd_buf_reset(w->b);
            }
        }
        rd_buf_release(&j->text[i]);
        if (st)
            return st;
        w->first[w->depth] = false;
    }
    return RD_OK;
}

static rd_status flush_workloads(struct wl_jobs *j)
{
    pthread_mutex_lock(&j->lock);
    rd_status st = flush_locked(j);
    pthread_mutex_unlock(&j->lock);
    return st;
}

static size_t count_values(const struct rd_analysis *a)
{
    size_t n = 0;
    for (size_t i = 0; i < a->ncfgs; i++)
        for (uint32_t k = 0; k < a->cfgs[i].nseries; k++)
            n += a->cfgs[i].series[k].len;
    return n;
}

#define MAX_WRITE_THREADS 8

rd_status rd_workloads_write(struct rd_analysis *a, struct jw *w, rd_workload_writer *write_one,
                             const struct rd_analysis_sink *sink, struct rd_diag *d)
{
    size_t n = a->nwls;
    struct wl_jobs j = {.a = a, .write_one = write_one, .n = n, .at = *w, .sink = sink, .d = d,
                        .doc = w};
    struct named_metric *names = malloc((a->nmetrics ? a->nmetrics : 1) * sizeof *names);
    uint32_t *by_name = malloc((a->nmetrics ? a->nmetrics : 1) * sizeof *by_name);
    j.order = malloc((n ? n : 1) * sizeof *j.order);
    j.text = malloc((n ? n : 1) * sizeof *j.text);
    for (size_t i = 0; j.text && i < n; i++)
        rd_buf_init(&j.text[i], 0);
    j.st = calloc(n ? n : 1, sizeof *j.st);
    j.done = calloc(n ? n : 1, sizeof *j.done);
    rd_status st = RD_ERR_NOMEM;
    if (!names || !by_name || !j.order || !j.text || !j.st || !j.done ||
        pthread_mutex_init(&j.lock, NULL) != 0)
        goto out;
    for (size_t m = 0; m < a->nmetrics; m++)
        names[m] = (struct named_metric){a->metrics[m], (uint32_t)m};
    if (a->nmetrics > 1)
        qsort(names, a->nmetrics, sizeof *names, cmp_named_metric);
    for (size_t m = 0; m < a->nmetrics; m++)
        by_name[m] = names[m].id;
    j.by_name = by_name;
    for (size_t i = 0; i < n; i++) {
        j.order[i] = &a->wls[i];
        atomic_init(&j.done[i], false);
    }
    if (n > 1)
        qsort(j.order, n, sizeof *j.order, cmp_wl);
    atomic_init(&j.next, 0);
    atomic_init(&j.failed, false);

    size_t threads = 1;
    if (n > 1 && a->o.threads > 1 && a->o.parallel_values &&
        count_values(a) >= a->o.parallel_values)
        threads = a->o.threads < n ? a->o.threads : n;
    if (threads > MAX_WRITE_THREADS)
        threads = MAX_WRITE_THREADS;
    /* One writer where two threads were allowed (one big workload, say
     * 10^5 configs): the second one helps with each workload's configs. */
    a->config_helper = threads == 1 && a->o.threads > 1 && a->o.config_chunk &&
                       a->o.parallel_values && count_values(a) >= a->o.parallel_values;
    pthread_t tid[MAX_WRITE_THREADS];
    size_t helpers = 0;
    while (helpers + 1 < threads && pthread_create(&tid[helpers], NULL, workload_helper, &j) == 0)
        helpers++;
    st = RD_OK;
    while (!st && write_next_workload(&j))
        st = flush_workloads(&j);
    if (st)
        atomic_store(&j.failed, true);
    for (size_t t = 0; t < helpers; t++)
        pthread_join(tid[t], NULL);
    if (!st)
        st = flush_workloads(&j);
    a->config_helper = false;
    rd_stats_release_thread();
    pthread_mutex_destroy(&j.lock);
out:
    if (j.text)
        for (size_t i = 0; i < n; i++)
            rd_buf_release(&j.text[i]);
    free(names);
    free(by_name);
    free(j.order);
    free(j.text);
    free(j.st);
    free(j.done);
    return st;
}
