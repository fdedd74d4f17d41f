/*
 * treesampler.c - RSS and CPU time of a process tree, read from /proc.
 *
 * One sample reads /proc/<pid>/stat of every process: the tree is the
 * root's process group plus every descendant of a member, so cluster
 * workers that moved to a group of their own stay counted. RSS is summed
 * over the members alive at that moment; CPU time is charged per process
 * from its first sample (from zero for a process born after the first), so
 * processes that exit between samples lose at most one interval.
 */
#include "treesampler.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "rundown/array.h"

struct stat_row {
    pid_t pid, ppid, pgrp;
    unsigned long long ticks;
    long rss_pages;
    bool member;
};

static bool read_stat(const char *proc, pid_t pid, struct stat_row *row)
{
    char path[4200], buf[1024];
    snprintf(path, sizeof path, "%s/%d/stat", proc, (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    /* The command name may hold spaces and ')': fields start after the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p)
        return false;
    p++;
    char state;
    int ppid, pgrp;
    unsigned long long utime, stime;
    long rss;
    int k = sscanf(p, " %c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d "
                      "%*d %*d %*u %*u %ld",
                   &state, &ppid, &pgrp, &utime, &stime, &rss);
    if (k != 6)
        return false;
    row->pid = pid;
    row->ppid = ppid;
    row->pgrp = pgrp;
    row->ticks = utime + stime;
    row->rss_pages = state == 'Z' ? 0 : rss;
    row->member = false;
    return true;
}

void rd_tree_sampler_start_at(struct rd_tree_sampler *s, pid_t root, const char *proc)
{
    memset(s, 0, sizeof *s);
    s->root = root;
    s->baseline = true;
    s->proc = proc;
    rd_tree_sampler_sample(s);
}

void rd_tree_sampler_start(struct rd_tree_sampler *s, pid_t root)
{
    rd_tree_sampler_start_at(s, root, "/proc");
}

/* Notes a sample that is not counted, and the first reason. */
static void missed(struct rd_tree_sampler *s, const char *why)
{
    if (!s->missed++)
        snprintf(s->why, sizeof s->why, "%s %s", why, s->proc);
}

void rd_tree_sampler_sample(struct rd_tree_sampler *s)
{
    DIR *dir = opendir(s->proc);
    if (!dir) {
        missed(s, "cannot read");
        return;
    }
    struct stat_row *rows = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dir))) {
        if (!isdigit((unsigned char)de->d_name[0]))
            continue;
        if (RD_ARRAY_GROW(rows, cap, n + 1))
            break;
        if (read_stat(s->proc, (pid_t)atoi(de->d_name), &rows[n]))
            n++;
    }
    closedir(dir);
    /* Members: the process group of the root, and every descendant of a
     * member (cluster workers that moved to their own group stay counted). */
    for (size_t i = 0; i < n; i++)
        rows[i].member = rows[i].pid == s->root || rows[i].pgrp == s->root;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n; i++) {
            if (rows[i].member)
                continue;
            for (size_t j = 0; j < n; j++) {
                if (rows[j].member && rows[j].pid == rows[i].ppid) {
                    rows[i].member = changed = true;
                    break;
                }
            }
        }
    }
    size_t members = 0;
    for (size_t i = 0; i < n; i++)
        members += rows[i].member;
    if (members == 0) {
        /* An RSS of 0 would be a lie: the tree was not seen at all. */
        free(rows);
        missed(s, "no process of the server's tree is readable in");
        return;
    }
    double now = rd_now();
    long page_kib = sysconf(_SC_PAGESIZE) / 1024;
    double rss = 0;
    for (size_t i = 0; i < n; i++) {
        if (!rows[i].member)
            continue;
        rss += (double)rows[i].rss_pages * (double)page_kib;
        size_t k;
        for (k = 0; k < s->npids && s->pids[k].pid != rows[i].pid; k++)
            ;
        if (k == s->npids) {
            if (RD_ARRAY_GROW(s->pids, s->cap, s->npids + 1))
                continue;
            /* A process born after the first sample is charged from zero. */
            s->pids[k].pid = rows[i].pid;
            s->pids[k].first_ticks = s->baseline ? rows[i].ticks : 0;
            s->npids++;
        }
        s->pids[k].last_ticks = rows[i].ticks;
    }
    free(rows);
    if (s->baseline) {
        s->t_first = now;
        s->baseline = false;
    }
    s->t_last = now;
    s->nsamples++;
    s->rss_sum_kib += rss;
    if (rss > s->rss_peak_kib)
        s->rss_peak_kib = rss;
}

double rd_tree_sampler_cpu_pct(const struct rd_tree_sampler *s)
{
    double span = s->t_last - s->t_first;
    if (s->nsamples < 2 || span <= 0)
        return NAN;
    unsigned long long ticks = 0;
    for (size_t i = 0; i < s->npids; i++)
        if (s->pids[i].last_ticks > s->pids[i].first_ticks)
            ticks += s->pids[i].last_ticks - s->pids[i].first_ticks;
    return (double)ticks / (double)sysconf(_SC_CLK_TCK) / span * 100.0;
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
    free(s->pids);
    s->pids = NULL;
    s->npids = s->cap = 0;
}
