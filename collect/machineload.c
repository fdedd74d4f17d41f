/*
 * machineload.c - /proc/stat, /proc/pressure/cpu and rusage snapshots, and
 * the foreign load between two of them (see machineload.h).
 */
#include "machineload.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Reads a small /proc file whole into buf; false when it cannot. */
static bool read_small(const char *root, const char *name, char *buf, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : "/proc", name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t got = 0;
    while (got + 1 < size) {
        ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    buf[got] = '\0';
    return got > 0;
}

bool rd_machine_parse_stat(const char *text, unsigned long long *busy,
                           unsigned long long *steal, unsigned long long *all)
{
    const char *l = text;
    while (l && strncmp(l, "cpu ", 4) != 0) {
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    if (!l)
        return false;
    /* user nice system idle iowait irq softirq steal guest guest_nice:
     * guest time is already inside user and nice. */
    unsigned long long v[8] = {0};
    const char *p = l + 4;
    int n = 0;
    for (; n < 8; n++) {
        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            break;
        char *end;
        v[n] = strtoull(p, &end, 10);
        p = end;
    }
    if (n < 4)
        return false;
    *busy = v[0] + v[1] + v[2] + v[5] + v[6];
    *steal = v[7];
    *all = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    return true;
}

bool rd_machine_parse_pressure(const char *text, double *total_us)
{
    const char *l = text;
    while (l && strncmp(l, "some ", 5) != 0) {
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    const char *t = l ? strstr(l, "total=") : NULL;
    const char *nl = l ? strchr(l, '\n') : NULL;
    if (!t || (nl && t > nl) || !isdigit((unsigned char)t[6]))
        return false;
    *total_us = strtod(t + 6, NULL);
    return isfinite(*total_us);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double ru_ms(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec * 1e3 + (double)ru->ru_utime.tv_usec / 1e3 +
           (double)ru->ru_stime.tv_sec * 1e3 + (double)ru->ru_stime.tv_usec / 1e3;
}

void rd_machine_snap_take(const char *proc_root, double extra_own_ms, struct rd_machine_snap *s)
{
    char buf[8192];
    memset(s, 0, sizeof *s);
    struct rusage self, children;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    s->own_ms = ru_ms(&self) + ru_ms(&children) + extra_own_ms;
    s->t = now_s();
    /* Only the first line is needed; 8 KiB holds it on any machine. */
    s->have_stat = read_small(proc_root, "stat", buf, sizeof buf) &&
                   rd_machine_parse_stat(buf, &s->busy, &s->steal, &s->all);
    s->have_pressure = read_small(proc_root, "pressure/cpu", buf, sizeof buf) &&
                       rd_machine_parse_pressure(buf, &s->pressure_us);
}

void rd_machine_load_between(const struct rd_machine_snap *a, const struct rd_machine_snap *b,
                             struct rd_machine_load *out)
{
    out->wall_s = b->t - a->t;
    out->others_pct = out->steal_pct = out->pressure_pct = NAN;
    if (out->wall_s <= 0)
        return;
    double tick_ms = 1000.0 / (double)sysconf(_SC_CLK_TCK);
    if (a->have_stat && b->have_stat && b->busy >= a->busy && b->steal >= a->steal) {
        double busy_ms = (double)(b->busy - a->busy) * tick_ms;
        double others = busy_ms - (b->own_ms - a->own_ms);
        /* Ticks are coarser than rusage: a small negative is noise. */
        out->others_pct = fmax(others, 0) / (out->wall_s * 1e3) * 100;
        out->steal_pct = (double)(b->steal - a->steal) * tick_ms / (out->wall_s * 1e3) * 100;
    }
    if (a->have_pressure && b->have_pressure && b->pressure_us >= a->pressure_us)
        out->pressure_pct = fmin((b->pressure_us - a->pressure_us) / (out->wall_s * 1e6) * 100,
                                 100);
}

double rd_machine_load_foreign_pct(const struct rd_machine_load *l)
{
    if (isnan(l->others_pct))
        return NAN;
    return l->others_pct + (isnan(l->steal_pct) ? 0 : l->steal_pct);
}

int rd_machine_ncpus(const char *proc_root)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/stat", proc_root ? proc_root : "/proc");
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "cpu", 3) == 0 && isdigit((unsigned char)line[3]))
            n++;
    fclose(f);
    return n;
}

/* ---- processes ---- */

/* "pid (comm) S ppid ... utime stime ...": comm may hold blanks and
 * parentheses, so the fields after it are found from the last ')'. */
static bool parse_pid_stat(const char *text, struct rd_proc_cpu *out)
{
    const char *open = strchr(text, '('), *close = strrchr(text, ')');
    if (!open || !close || close < open)
        return false;
    out->pid = (pid_t)strtol(text, NULL, 10);
    size_t clen = (size_t)(close - open - 1);
    if (clen >= sizeof out->comm)
        clen = sizeof out->comm - 1;
    memcpy(out->comm, open + 1, clen);
    out->comm[clen] = '\0';
    /* fields from 3 (state) on; utime is 14 and stime 15 */
    const char *p = close + 1;
    unsigned long long f[16] = {0};
    for (int i = 3; i <= 15; i++) {
        while (*p == ' ')
            p++;
        if (!*p)
            return false;
        if (i == 3) {
            p++;
            continue;
        }
        char *end;
        f[i] = strtoull(p, &end, 10);
        if (end == p)
            return false;
        p = end;
    }
    out->ppid = (pid_t)f[4];
    out->ticks = f[14] + f[15];
    return true;
}

static int by_pid(const void *a, const void *b)
{
    pid_t x = ((const struct rd_proc_cpu *)a)->pid, y = ((const struct rd_proc_cpu *)b)->pid;
    return (x > y) - (x < y);
}

bool rd_proc_table_read(const char *proc_root, struct rd_proc_table *t)
{
    const char *root = proc_root ? proc_root : "/proc";
    t->n = 0;
    DIR *dir = opendir(root);
    if (!dir)
        return false;
    struct dirent *e;
    char name[300], buf[1024];
    while ((e = readdir(dir))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        snprintf(name, sizeof name, "%s/stat", e->d_name);
        struct rd_proc_cpu pc;
        /* A process that exits between the listing and the read is gone. */
        if (!read_small(root, name, buf, sizeof buf) || !parse_pid_stat(buf, &pc))
            continue;
        if (t->n == t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 256;
            struct rd_proc_cpu *p = realloc(t->p, cap * sizeof *p);
            if (!p)
                break;
            t->p = p;
            t->cap = cap;
        }
        t->p[t->n++] = pc;
    }
    closedir(dir);
    if (t->n)
        qsort(t->p, t->n, sizeof *t->p, by_pid);
    return true;
}

void rd_proc_table_release(struct rd_proc_table *t)
{
    free(t->p);
    t->p = NULL;
    t->n = t->cap = 0;
}

static const struct rd_proc_cpu *find_pid(const struct rd_proc_table *t, pid_t pid)
{
    struct rd_proc_cpu key = {.pid = pid};
    return t->n ? bsearch(&key, t->p, t->n, sizeof *t->p, by_pid) : NULL;
}

/* Whether pid is self or descends from it (the chain is bounded: a
 * malformed table with a cycle must not loop). */
static bool is_own(const struct rd_proc_table *t, pid_t pid, pid_t self)
{
    for (int depth = 0; depth < 64 && pid > 1; depth++) {
        if (pid == self)
            return true;
        const struct rd_proc_cpu *p = find_pid(t, pid);
        if (!p)
            return false;
        pid = p->ppid;
    }
    return false;
}

size_t rd_proc_table_busiest(const struct rd_proc_table *before, const struct rd_proc_table *after,
                             pid_t self, double wall_s, struct rd_busy_proc *out, size_t max,
                             unsigned long long *own_ticks)
{
    double tick_s = 1.0 / (double)sysconf(_SC_CLK_TCK);
    size_t n = 0;
    for (size_t i = 0; i < after->n; i++) {
        const struct rd_proc_cpu *a = &after->p[i];
        const struct rd_proc_cpu *b = find_pid(before, a->pid);
        /* A process born during the interval is charged from zero. */
        unsigned long long base = b && b->ticks <= a->ticks ? b->ticks : 0;
        unsigned long long used = a->ticks - base;
        if (!used)
            continue;
        if (is_own(after, a->pid, self)) {
            if (own_ticks)
                *own_ticks += used;
            continue;
        }
        double pct = wall_s > 0 ? (double)used * tick_s / wall_s * 100 : 0;
        size_t at = n < max ? n : max;
        while (at > 0 && out[at - 1].pct < pct)
            at--;
        if (at >= max)
            continue;
        size_t last = n < max ? n : max - 1;
        memmove(out + at + 1, out + at, (last - at) * sizeof *out);
        out[at].pid = a->pid;
        out[at].pct = pct;
        snprintf(out[at].comm, sizeof out[at].comm, "%s", a->comm);
        if (n < max)
            n++;
    }
    return n;
}
