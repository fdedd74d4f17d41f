/*
 * treesampler.c - RSS and CPU time of a process tree, read from /proc.
 *
 * Members are found two ways: as a member's child (its children file,
 * re-read every sample), and, every few samples, by listing /proc and
 * deciding once for each pid the listing shows for the first time, from
 * its stat (parent and process group). A member's files stay open, so a
 * later pread reads that very process (a pid reused by a stranger cannot
 * be mistaken for it: the old file reads ESRCH once the process is gone).
 * The sorted pid list of the previous listing tells the new pids from the
 * known ones.
 *
 * RSS is summed over the members alive at one sample; CPU time is charged
 * per member from its first sample (from zero for a process born after the
 * first), so processes that exit between samples lose at most one interval.
 */
#include "treesampler.h"

#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "rundown/array.h"

struct stat_row {
    pid_t ppid, pgrp;
    unsigned long long ticks;
    long rss_pages;
};

/* Parses the text of /proc/<pid>/stat. */
static bool parse_stat(char *buf, struct stat_row *row)
{
    /* The command name may hold spaces and ')': fields start after the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p)
        return false;
    char state;
    int ppid, pgrp;
    unsigned long long utime, stime;
    long rss;
    int k = sscanf(p + 1, " %c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d "
                          "%*d %*d %*u %*u %ld",
                   &state, &ppid, &pgrp, &utime, &stime, &rss);
    if (k != 6)
        return false;
    row->ppid = ppid;
    row->pgrp = pgrp;
    row->ticks = utime + stime;
    row->rss_pages = state == 'Z' || state == 'X' ? 0 : rss;
    return true;
}

static bool read_stat_fd(int fd, struct stat_row *row)
{
    char buf[1024];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    return parse_stat(buf, row);
}

static int open_stat(const struct rd_tree_sampler *s, pid_t pid)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%d/stat", s->proc_root, (int)pid);
    return open(path, O_RDONLY | O_CLOEXEC);
}

static int open_children(const struct rd_tree_sampler *s, pid_t pid)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%d/task/%d/children", s->proc_root, (int)pid, (int)pid);
    return open(path, O_RDONLY | O_CLOEXEC);
}

void rd_tree_sampler_init(struct rd_tree_sampler *s)
{
    memset(s, 0, sizeof *s);
    long page = sysconf(_SC_PAGESIZE);
    s->page_kib = page > 0 ? page / 1024 : 4;
    s->proc_root = "/proc";
}

void rd_tree_sampler_set_proc_root(struct rd_tree_sampler *s, const char *proc_root)
{
    s->proc_root = proc_root;
}

void rd_tree_sampler_set_root(struct rd_tree_sampler *s, pid_t root)
{
    s->root = root;
}

static int cmp_pid(const void *a, const void *b)
{
    pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
    return (x > y) - (x < y);
}

/* The pids /proc lists now, sorted, into *out (a grown array). */
static bool list_pids(struct rd_tree_sampler *s, pid_t **out, size_t *n, size_t *cap)
{
    if (!s->proc && !(s->proc = opendir(s->proc_root)))
        return false;
    rewinddir(s->proc);
    *n = 0;
    struct dirent *de;
    while ((de = readdir(s->proc))) {
        if (!isdigit((unsigned char)de->d_name[0]))
            continue;
        if (RD_ARRAY_GROW(*out, *cap, *n + 1))
            break;
        (*out)[(*n)++] = (pid_t)atoi(de->d_name);
    }
    qsort(*out, *n, sizeof **out, cmp_pid);
    return true;
}

void rd_tree_sampler_skip_existing(struct rd_tree_sampler *s)
{
    s->listed = list_pids(s, &s->seen, &s->nseen, &s->scap);
}

static bool is_member(const struct rd_tree_sampler *s, pid_t pid)
{
    for (size_t i = 0; i < s->nmembers; i++)
        if (s->members[i].pid == pid)
            return true;
    return false;
}

/* A live member with this pid: a dead one's pid may have been reused. */
static bool is_live_member(const struct rd_tree_sampler *s, pid_t pid)
{
    for (size_t i = 0; i < s->nmembers; i++)
        if (s->members[i].pid == pid && s->members[i].fd >= 0)
            return true;
    return false;
}

static void add_member(struct rd_tree_sampler *s, pid_t pid)
{
    if (RD_ARRAY_GROW(s->members, s->mcap, s->nmembers + 1))
        return;
    struct rd_tree_member *m = &s->members[s->nmembers++];
    m->pid = pid;
    m->fd = open_stat(s, pid);
    m->children_fd = m->fd >= 0 ? open_children(s, pid) : -1;
    m->first_ticks = m->last_ticks = 0;
}

/* Adds the children of member i that are not members yet. */
static void add_children(struct rd_tree_sampler *s, size_t i)
{
    char buf[4096];
    if (s->members[i].children_fd < 0)
        return;
    ssize_t n = pread(s->members[i].children_fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return;
    buf[n] = '\0';
    for (char *p = buf, *end; *p; p = end) {
        long pid = strtol(p, &end, 10);
        if (end == p)
            break;
        if (pid > 0 && !is_live_member(s, (pid_t)pid))
            add_member(s, (pid_t)pid);
    }
}

/* Classifies the pids of cur that the previous listing did not hold. */
static void classify_new(struct rd_tree_sampler *s, const pid_t *cur, size_t ncur)
{
    struct cand {
        pid_t pid;
        struct stat_row row;
        bool taken;
    } *cand = NULL;
    size_t nc = 0, cc = 0;
    for (size_t i = 0, j = 0; i < ncur; i++) {
        while (j < s->nseen && s->seen[j] < cur[i])
            j++;
        if (j < s->nseen && s->seen[j] == cur[i])
            continue;
        int fd = open_stat(s, cur[i]);
        struct stat_row row;
        bool ok = fd >= 0 && read_stat_fd(fd, &row);
        if (fd >= 0)
            close(fd);
        if (!ok || RD_ARRAY_GROW(cand, cc, nc + 1))
            continue;
        cand[nc++] = (struct cand){cur[i], row, false};
    }
    /* A parent may be new too, and listed after its child: repeat until
     * no candidate joins. */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < nc; i++) {
            if (cand[i].taken)
                continue;
            if (cand[i].pid == s->root || cand[i].row.pgrp == s->root ||
                is_member(s, cand[i].row.ppid)) {
                /* A child file may have shown it already. */
                if (!is_live_member(s, cand[i].pid))
                    add_member(s, cand[i].pid);
                cand[i].taken = changed = true;
            }
        }
    }
    free(cand);
}

/* Lists /proc and takes the new pids that belong to the tree. */
static bool full_scan(struct rd_tree_sampler *s)
{
    pid_t *cur = NULL;
    size_t ncur = 0, ccur = 0;
    if (!list_pids(s, &cur, &ncur, &ccur)) {
        free(cur);
        return false;
    }
    classify_new(s, cur, ncur);
    free(s->seen);
    s->seen = cur;
    s->nseen = ncur;
    s->scap = ccur;
    s->listed = true;
    return true;
}

static void close_member(struct rd_tree_member *m)
{
    if (m->fd >= 0)
        close(m->fd);
    if (m->children_fd >= 0)
        close(m->children_fd);
    m->fd = m->children_fd = -1;
}

/* Notes a sample that is not counted, and the first reason. */
static void missed(struct rd_tree_sampler *s, const char *why)
{
    if (!s->missed++)
        snprintf(s->why, sizeof s->why, "%s %s", why, s->proc_root);
}

void rd_tree_sampler_sample(struct rd_tree_sampler *s)
{
    if (!s->root)
        return;
    if (s->nmembers == 0 && s->listed)
        add_member(s, s->root);
    /* The first sample of a tree that existed already must list /proc. */
    bool listing = !s->listed || s->nsamples % RD_TREE_FULL_SCAN_EVERY == 0;
    if (listing && !full_scan(s) && s->nmembers == 0) {
        missed(s, "cannot read");
        return;
    }

    bool first = s->nsamples == 0;
    double rss = 0;
    size_t read = 0;
    /* Members a child list adds are read in this same pass. */
    for (size_t i = 0; i < s->nmembers; i++) {
        struct rd_tree_member *m = &s->members[i];
        struct stat_row row;
        if (m->fd < 0)
            continue;
        if (!read_stat_fd(m->fd, &row)) {
            close_member(m);
            continue;
        }
        add_children(s, i);
        m = &s->members[i];
        read++;
        rss += (double)row.rss_pages * (double)s->page_kib;
        if (first)
            m->first_ticks = row.ticks;
        m->last_ticks = row.ticks;
    }
    /* Nothing readable (no /proc, or the tree's /proc/PID hidden): no
     * sample, rather than one of 0 KiB, which would be a lie. */
    if (read == 0) {
        missed(s, "no process of the tree is readable in");
        return;
    }
    double now = rd_now();
    if (first)
        s->t_first = now;
    s->t_last = now;
    s->nsamples++;
    s->rss_sum_kib += rss;
    if (rss > s->rss_peak_kib)
        s->rss_peak_kib = rss;
}

void rd_tree_sampler_start(struct rd_tree_sampler *s, pid_t root)
{
    rd_tree_sampler_init(s);
    rd_tree_sampler_set_root(s, root);
    rd_tree_sampler_sample(s);
}

void rd_tree_sampler_start_at(struct rd_tree_sampler *s, pid_t root, const char *proc_root)
{
    rd_tree_sampler_init(s);
    rd_tree_sampler_set_proc_root(s, proc_root);
    rd_tree_sampler_set_root(s, root);
    rd_tree_sampler_sample(s);
}

double rd_tree_sampler_cpu_pct(const struct rd_tree_sampler *s)
{
    double span = s->t_last - s->t_first;
    if (s->nsamples < 2 || span <= 0)
        return NAN;
    unsigned long long ticks = 0;
    for (size_t i = 0; i < s->nmembers; i++)
        if (s->members[i].last_ticks > s->members[i].first_ticks)
            ticks += s->members[i].last_ticks - s->members[i].first_ticks;
    return (double)ticks / (double)sysconf(_SC_CLK_TCK) / span * 100.0;
}

double rd_tree_sampler_cpu_ms(const struct rd_tree_sampler *s)
{
    unsigned long long ticks = 0;
    for (size_t i = 0; i < s->nmembers; i++)
        ticks += s->members[i].last_ticks;
    return (double)ticks * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

double rd_tree_sampler_rss_peak_kib(const struct rd_tree_sampler *s)
{
    return s->nsamples ? s->rss_peak_kib : NAN;
}

double rd_tree_sampler_rss_mean_kib(const struct rd_tree_sampler *s)
{
    return s->nsamples ? s->rss_sum_kib / s->nsamples : NAN;
}

void rd_tree_sampler_release(struct rd_tree_sampler *s)
{
    for (size_t i = 0; i < s->nmembers; i++)
        close_member(&s->members[i]);
    free(s->members);
    free(s->seen);
    if (s->proc)
        closedir(s->proc);
    s->members = NULL;
    s->seen = NULL;
    s->proc = NULL;
    s->nmembers = s->mcap = s->nseen = s->scap = 0;
}
