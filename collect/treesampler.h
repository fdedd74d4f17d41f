/*
 * treesampler.h - memory and CPU of a process tree (a server and whatever
 * it started), sampled from /proc while a load run is in flight.
 *
 * Nothing here fails: a process that exits between listing /proc and
 * reading its stat is skipped. A sample that cannot read /proc, or finds
 * no process of the tree there (the root's /proc/PID hidden or unreadable),
 * is not counted, and says why in 'why': figures of no sample are NaN
 * (stored as null), never 0.
 */
#ifndef RUNDOWN_TREESAMPLER_H
#define RUNDOWN_TREESAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct rd_tree_sample_pid {
    pid_t pid;
    unsigned long long first_ticks, last_ticks;  /* utime + stime */
};

/** Accumulated /proc samples of one process tree. */
struct rd_tree_sampler {
    pid_t root;          /* the tree's leader (and process group id) */
    double t_first, t_last;
    unsigned nsamples;
    double rss_peak_kib, rss_sum_kib;
    struct rd_tree_sample_pid *pids;
    size_t npids, cap;
    bool baseline;       /* the first sample only sets first_ticks */
    const char *proc;    /* the /proc to read ("/proc"; tests give another) */
    unsigned missed;     /* samples not counted */
    char why[128];       /* why the first of them was not: "" when none */
};

/** Starts sampling the tree of root; the first sample is taken now. */
void rd_tree_sampler_start(struct rd_tree_sampler *s, pid_t root);
/** rd_tree_sampler_start reading 'proc' (kept) instead of /proc. */
void rd_tree_sampler_start_at(struct rd_tree_sampler *s, pid_t root, const char *proc);
/** The tree's peak RSS, NaN before the first counted sample. */
double rd_tree_sampler_rss_peak_kib(const struct rd_tree_sampler *s);
/** Reads /proc once: RSS of the tree (descendants of root and members of
 *  its process group), and each process's CPU ticks. */
void rd_tree_sampler_sample(struct rd_tree_sampler *s);
/** CPU percent of one core over the sampled interval (may exceed 100). */
double rd_tree_sampler_cpu_pct(const struct rd_tree_sampler *s);
/** The tree's RSS averaged over the samples, NaN before the first. */
double rd_tree_sampler_rss_mean_kib(const struct rd_tree_sampler *s);
/** Frees the per-process table; the figures stay readable. */
void rd_tree_sampler_release(struct rd_tree_sampler *s);

#endif
