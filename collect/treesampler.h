/*
 * treesampler.h - memory and CPU of a process tree (a measured command or
 * a server, and whatever it started), sampled from /proc.
 *
 * The tree is the root, the members of its process group, and every
 * descendant of a member (so cluster workers that moved to a group of
 * their own stay counted). One sample sums the RSS of the members alive at
 * that moment; the peak over the samples is the tree's peak memory.
 *
 * A sample re-reads, with one pread each, the stat file and the list of
 * children (/proc/PID/task/PID/children) that every member keeps open, and
 * takes a child it has not seen as a member: a few microseconds per member.
 * Every RD_TREE_FULL_SCAN_EVERY-th sample also lists /proc and reads the
 * stat file of each process born since the last listing (about 0.1 ms for
 * a hundred processes, more on a busy machine), which finds members the
 * children lists do not show: processes of the root's group whose parent
 * died, and children forked by a thread other than a member's first.
 * docs/performance.md has what a sample costs (bench/tree_sampling.sh).
 *
 * Nothing here fails: a process that exits between listing /proc and
 * reading its stat is skipped. A sample that cannot read /proc, or finds
 * no process of the tree there (the root's /proc/PID hidden or unreadable),
 * is not counted, and says why in 'why': figures of no sample are NaN
 * (stored as null), never 0.
 */
#ifndef RUNDOWN_TREESAMPLER_H
#define RUNDOWN_TREESAMPLER_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/** The interval the runner samples trees at unless told otherwise. */
#define RD_TREE_SAMPLE_MS_DEFAULT 20
/** Every how many samples the whole of /proc is listed (see above). */
#define RD_TREE_FULL_SCAN_EVERY 10

struct rd_tree_member {
    pid_t pid;
    int fd;              /* /proc/<pid>/stat kept open; -1 once it is gone */
    int children_fd;     /* /proc/<pid>/task/<pid>/children, or -1 */
    unsigned long long first_ticks, last_ticks;  /* utime + stime */
};

/** Accumulated /proc samples of one process tree. */
struct rd_tree_sampler {
    pid_t root;          /* the tree's leader (and process group id); 0: none yet */
    double t_first, t_last;
    unsigned nsamples;   /* samples that could read /proc */
    double rss_peak_kib, rss_sum_kib;
    struct rd_tree_member *members;
    size_t nmembers, mcap;
    pid_t *seen;         /* the pids of the last listing, sorted */
    size_t nseen, scap;
    bool listed;         /* seen holds a listing (the first sample lists) */
    DIR *proc;
    const char *proc_root; /* the /proc to read ("/proc"; tests give another) */
    long page_kib;
    unsigned missed;     /* samples not counted */
    char why[128];       /* why the first of them was not: "" when none */
};

/** An empty sampler: every process that exists is looked at by the first
 *  sample. rd_tree_sampler_release() is safe from here on. */
void rd_tree_sampler_init(struct rd_tree_sampler *s);

/**
 * Lists /proc now so that the processes living at this moment are never
 * taken for members: call before the root is spawned, and the first sample
 * then only reads the processes born since (cheap enough to take while a
 * timed command runs).
 */
void rd_tree_sampler_skip_existing(struct rd_tree_sampler *s);

/** Reads 'proc_root' (kept, not copied) instead of /proc; call before the
 *  first listing or sample. */
void rd_tree_sampler_set_proc_root(struct rd_tree_sampler *s, const char *proc_root);

/** Names the tree's root (its pid, also its process group id). */
void rd_tree_sampler_set_root(struct rd_tree_sampler *s, pid_t root);

/** rd_tree_sampler_init, the root, and a first sample now (a server's
 *  tree, which exists already). */
void rd_tree_sampler_start(struct rd_tree_sampler *s, pid_t root);

/** rd_tree_sampler_start reading 'proc_root' (kept) instead of /proc. */
void rd_tree_sampler_start_at(struct rd_tree_sampler *s, pid_t root, const char *proc_root);

/** The tree's peak RSS, NaN before the first counted sample. */
double rd_tree_sampler_rss_peak_kib(const struct rd_tree_sampler *s);

/** Reads /proc once: RSS of the tree, and each member's CPU ticks. */
void rd_tree_sampler_sample(struct rd_tree_sampler *s);

/** CPU percent of one core over the sampled interval (may exceed 100);
 *  NaN with fewer than two samples. Members found by the first sample are
 *  charged from it, later ones from zero. */
double rd_tree_sampler_cpu_pct(const struct rd_tree_sampler *s);

/** CPU time (utime + stime, ms) the members have used since each was
 *  born, as of their last sample: what the tree has cost the machine so
 *  far, for the foreign load (machineload.h). */
double rd_tree_sampler_cpu_ms(const struct rd_tree_sampler *s);

/** The tree's RSS averaged over the samples, NaN before the first. */
double rd_tree_sampler_rss_mean_kib(const struct rd_tree_sampler *s);

/** Closes the files and frees the tables; the figures stay readable. */
void rd_tree_sampler_release(struct rd_tree_sampler *s);

#endif
