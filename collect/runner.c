/*
 * runner.c - timed runs of commands and of servers under load, as records.
 *
 * A command run is: optional prepare (sh -c, untimed), the timed process
 * (proc.c), optional cleanup. The record gets the wall time the process
 * lived, its rusage, its exit, and the rundown:metric lines it printed.
 *
 * A server session keeps the server in its own process group for the whole
 * session and drains its output in the same poll loop as the load tool's,
 * so a chatty server never blocks on a full pipe. Readiness is one HTTP GET
 * answered (httpprobe.h), polled with a short back-off. While a load run is
 * in flight the server's process tree is sampled from /proc every 20 ms
 * (RD_TREE_SAMPLE_MS_DEFAULT); so is the tree of a timed command.
 * Every path out of a session stops the server and waits until its port can
 * be bound again, so the next config never meets the previous server.
 */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "contention.h"
#include "httpprobe.h"
#include "importer.h"
#include "treesampler.h"
#include "rundown/units.h"
#include "rundown/fsutil.h"
#include "rundown/strmap.h"

static const char *const reserved[] = {
    "wall_ms", "user_ms", "sys_ms", "max_rss_kib", "tree_rss_peak_kib",
    "server_rss_peak_kib", "server_rss_mean_kib", "server_cpu_pct",
    "load_wall_ms", "background_wall_ms",
    "machine_others_cpu_pct", "machine_steal_pct", "machine_cpu_pressure_pct",
    "machine_speed_pct", "machine_speed_store_pct", "machine_wakeup_pct", "machine_wakeup_us",
};

bool rd_runner_reserved_metric(const char *name)
{
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(name, reserved[i]) == 0)
            return true;
    return false;
}

void rd_runner_timestamp(char out[32])
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    char buf[96];
    snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
             ts.tv_nsec / 1000000);
    memcpy(out, buf, 31);
    out[31] = '\0';
}

char *rd_runner_slug(const char *s, char *out, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    /* A name longer than RD_SLUG_MAX bytes (43 Cyrillic letters escape to
     * 258) keeps a whole-escape prefix and a hash of the full name, so the
     * folder can be made (NAME_MAX is 255) and two long names still differ. */
    size_t cap = size - 1 < RD_SLUG_MAX ? size - 1 : RD_SLUG_MAX;
    size_t o = 0;
    const char *p = s;
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == '-' || (c == '.' && o > 0);
        if (o + (keep ? 1 : 3) > cap)
            break;
        if (keep) {
            out[o++] = (char)c;
        } else {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    if (*p) {
        /* "-" and 12 hex digits; cut back to a whole escape first. */
        size_t room = cap > 13 ? cap - 13 : 0;
        if (o > room)
            o = room;
        while (o >= 1 && (out[o - 1] == '%' || (o >= 2 && out[o - 2] == '%')))
            o--;
        uint64_t h = rd_hash_fnv1a(s, strlen(s));
        snprintf(out + o, size - o, "-%012llx", (unsigned long long)(h >> 16));
        return out;
    }
    out[o] = '\0';
    return out;
}

char *rd_runner_config_stem(const struct rd_record *tmpl, const char *config_id, char *out,
                            size_t size)
{
    if (tmpl->config.len == 0) {
        snprintf(out, size, "run");
        return out;
    }
    char prefix[RD_CONFIG_STEM_PREFIX + 1], part[256];
    size_t o = 0;
    for (size_t i = 0; i < tmpl->config.len && o < sizeof prefix; i++) {
        rd_runner_slug(tmpl->config.items[i].value, part, sizeof part);
        o += (size_t)snprintf(prefix + o, sizeof prefix - o, "%s%s", i ? "-" : "", part);
    }
    /* A slug cut in the middle of a %XX reads oddly but stays a safe name. */
    uint64_t h = rd_hash_fnv1a(config_id, strlen(config_id));
    snprintf(out, size, "%s-%012llx", prefix, (unsigned long long)(h >> 16));
    return out;
}

rd_status rd_argv_join(char *const *argv, size_t n, struct rd_buf *out)
{
    for (size_t i = 0; i < n && argv && argv[i]; i++) {
        if (i)
            RD_TRY(rd_buf_addch(out, ' '));
        RD_TRY(rd_buf_addstr(out, argv[i]));
    }
    return RD_OK;
}

rd_status rd_record_copy(struct rd_record *dst, const struct rd_record *src)
{
    rd_status s = RD_OK;
    const char *const *from[] = {&src->suite, &src->workload, &src->phase, &src->tool,
                                 &src->status, &src->started_at, &src->env};
    const char **to[] = {&dst->suite, &dst->workload, &dst->phase, &dst->tool,
                         &dst->status, &dst->started_at, &dst->env};
    for (size_t i = 0; i < sizeof from / sizeof from[0] && !s; i++)
        if (*from[i])
            s = rd_record_set(dst, to[i], *from[i]);
    dst->run = src->run;
    dst->exit_code = src->exit_code;
    dst->has_exit_code = src->has_exit_code;
    dst->contended = src->contended;
    dst->source_line = src->source_line;
    for (size_t i = 0; i < src->config.len && !s; i++)
        s = rd_record_set_label(dst, src->config.items[i].key, src->config.items[i].value);
    for (size_t i = 0; i < src->info.len && !s; i++)
        s = rd_record_set_info(dst, src->info.items[i].key, src->info.items[i].value);
    for (size_t i = 0; i < src->source.len && !s; i++)
        s = rd_record_set_source(dst, src->source.items[i].key, src->source.items[i].value);
    for (size_t i = 0; i < src->nmetrics && !s; i++)
        s = rd_record_set_metric(dst, src->metrics[i].name, src->metrics[i].value);
    return s;
}

/* ---- logs ---- */

struct log_paths {
    char out[4096], err[4096];
};

static rd_status log_paths(const struct rd_run_logs *l, const char *suffix,
                           struct log_paths *p, struct rd_diag *d)
{
    if (!l->dir)
        return RD_OK;
    snprintf(p->out, sizeof p->out, "%s/%s%s.stdout.txt", l->dir, l->stem, suffix);
    snprintf(p->err, sizeof p->err, "%s/%s%s.stderr.txt", l->dir, l->stem, suffix);
    char folder[4096];
    snprintf(folder, sizeof folder, "%s", p->out);
    char *slash = strrchr(folder, '/');
    if (slash) {
        *slash = '\0';
        return rd_mkdir_p(folder, d);
    }
    return RD_OK;
}

/* A log's path as records name it: under l->shown instead of l->dir. */
static void shown_path(const struct rd_run_logs *l, const char *path, char *out, size_t size)
{
    size_t n = l->dir ? strlen(l->dir) : 0;
    if (l->shown && n && strncmp(path, l->dir, n) == 0 && path[n] == '/')
        snprintf(out, size, "%s%s", strcmp(l->shown, ".") == 0 ? "" : l->shown,
                 path + n + (strcmp(l->shown, ".") == 0));
    else
        snprintf(out, size, "%s", path);
}

/* Stores a stream's log path, what was dropped from it, and why it is
 * incomplete when writing it failed ("<key>_error"). */
static rd_status note_stream(struct rd_record *rec, const struct rd_stream *s,
                             const struct rd_run_logs *logs, const char *path,
                             const char *key)
{
    rd_status st = RD_OK;
    char buf[64], shown[4096];
    if (path && path[0])
        shown_path(logs, path, shown, sizeof shown);
    if (path && path[0] && s->log_errno) {
        char k[64], msg[4400];
        snprintf(k, sizeof k, "%s_error", key);
        snprintf(msg, sizeof msg, "cannot write %s: %s (%zu bytes lost)", shown,
                 strerror(s->log_errno), s->lost);
        st = rd_record_set_info(rec, k, msg);
    }
    /* An empty log says nothing; it is removed rather than listed. */
    if (st || !path || !path[0])
        ;
    else if (s->logged == 0 && (s->dropped == 0 || s->log_errno))
        unlink(path);
    else
        st = rd_record_set_source(rec, key, shown);
    if (!st && s->dropped) {
        char k[64];
        snprintf(k, sizeof k, "%s_dropped_bytes", key);
        snprintf(buf, sizeof buf, "%zu", s->dropped);
        st = rd_record_set_info(rec, k, buf);
    }
    return st;
}

/* The last line(s) of a stream as one message fragment. */
static void tail_excerpt(const struct rd_stream *s, char *out, size_t size)
{
    const char *t = s->tail.ptr;
    size_t len = s->tail.len;
    while (len && (t[len - 1] == '\n' || t[len - 1] == '\r'))
        len--;
    size_t start = len > 200 ? len - 200 : 0;
    /* Begin at a line start when one is near. */
    const char *nl = memchr(t + start, '\n', len - start);
    if (nl && (size_t)(nl - t) + 1 < len && start > 0)
        start = (size_t)(nl - t) + 1;
    rd_excerpt(t + start, len - start, 200, out, size);
}

static rd_status add_stream_metrics(struct rd_record *rec, const struct rd_stream *s,
                                    const char *prefix)
{
    rd_status st = RD_OK;
    unsigned ignored = 0;
    for (size_t i = 0; i < s->scan.mn && !st; i++) {
        char name[96];
        snprintf(name, sizeof name, "%s%s", prefix, s->scan.mv[i].name);
        double old;
        if (rd_runner_reserved_metric(name) || rd_record_metric(rec, name, &old)) {
            ignored++;
            continue;
        }
        st = rd_record_set_metric(rec, name, s->scan.mv[i].value);
    }
    char buf[400];
    if (!st && ignored) {
        snprintf(buf, sizeof buf, "%u", ignored);
        st = rd_record_set_info(rec, "ignored_metric_lines", buf);
    }
    if (!st && s->scan.bad_lines) {
        snprintf(buf, sizeof buf, "%u, first: %s (%s)", s->scan.bad_lines, s->scan.bad_first,
                 s->scan.bad_why);
        st = rd_record_set_info(rec, "bad_metric_lines", buf);
    }
    if (!st && s->scan.dropped_lines) {
        snprintf(buf, sizeof buf, "%u, first: %s%s (at most %d distinct names per run)",
                 s->scan.dropped_lines, prefix, s->scan.dropped_first,
                 RD_METRIC_NAMES_MAX);
        st = rd_record_set_info(rec, "dropped_metric_lines", buf);
    }
    return st;
}

static rd_status set_status(struct rd_record *rec, const char *status, int exit_code)
{
    rd_status s = rd_record_set(rec, &rec->status, status);
    rec->exit_code = exit_code;
    rec->has_exit_code = exit_code >= 0;
    return s;
}

static void sample_tree(void *smp)
{
    rd_tree_sampler_sample(smp);
}

/* tree_rss_peak_kib and how it was taken. wait4's figure is a peak of one
 * process that the samples may have fallen between, so it is the floor. */
static rd_status note_tree_rss(struct rd_record *rec, const struct rd_tree_sampler *smp,
                               int sample_ms, double max_rss_kib)
{
    char buf[160];
    double peak = smp->rss_peak_kib > max_rss_kib ? smp->rss_peak_kib : max_rss_kib;
    RD_TRY(rd_record_set_metric(rec, "tree_rss_peak_kib", peak));
    snprintf(buf, sizeof buf, "RSS summed over the process tree from /proc every %d ms, "
             "at least max_rss_kib", sample_ms);
    RD_TRY(rd_record_set_info(rec, "tree_rss_method", buf));
    snprintf(buf, sizeof buf, "%u", smp->nsamples);
    return rd_record_set_info(rec, "tree_rss_samples", buf);
}

/* Runs an untimed helper command (prepare/cleanup) with sh -c. */
static rd_status run_helper(const char *cmd, const struct rd_command_spec *spec,
                            char *why, size_t whysize, bool *ok, struct rd_diag *d)
{
    char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
    struct rd_proc p;
    struct rd_proc_opts o = {.argv = argv, .envp = spec->envp, .cwd = spec->cwd,
                             .timeout_s = spec->timeout_s};
    rd_proc_init(&p);
    rd_status st = rd_proc_spawn(&p, &o, d);
    if (!st) {
        struct rd_proc *one[1] = {&p};
        st = rd_proc_wait_all(one, 1, d);
    }
    *ok = !st && rd_proc_exit_code(&p) == 0;
    if (!st && !*ok) {
        char ex[96], tail[256];
        rd_proc_describe_exit(&p, ex, sizeof ex);
        tail_excerpt(&p.err, tail, sizeof tail);
        snprintf(why, whysize, "%s%s%s", ex, p.err.tail.len ? ": " : "",
                 p.err.tail.len ? tail : "");
    }
    rd_proc_release(&p);
    return st;
}

rd_status rd_runner_command(const struct rd_command_spec *spec, struct rd_record *rec,
                            struct rd_diag *d)
{
    struct log_paths lp = {{0}, {0}};
    char ts[32], why[512];
    bool ok = true;
    rd_status st = log_paths(&spec->logs, "", &lp, d);
    if (st)
        return st;
    if (!rec->tool && (st = rd_record_set(rec, &rec->tool, "rundown")))
        return st;
    if (spec->prepare) {
        RD_TRY(run_helper(spec->prepare, spec, why, sizeof why, &ok, d));
        if (!ok) {
            rd_runner_timestamp(ts);
            char msg[600];
            snprintf(msg, sizeof msg, "prepare command failed: %s", why);
            if ((st = rd_record_set(rec, &rec->started_at, ts)) ||
                (st = set_status(rec, "failed", -1)))
                return st;
            return rd_record_set_info(rec, "error", msg);
        }
    }
    struct rd_proc p;
    struct rd_proc_opts o = {
        .argv = spec->argv, .envp = spec->envp, .cwd = spec->cwd, .cpus = spec->cpus,
        .log_stdout = spec->logs.dir ? lp.out : NULL,
        .log_stderr = spec->logs.dir ? lp.err : NULL,
        .metrics = true, .timeout_s = spec->timeout_s, .show_output = spec->show_output,
    };
    int sample_ms = spec->sample_ms ? spec->sample_ms : RD_TREE_SAMPLE_MS_DEFAULT;
    struct rd_tree_sampler smp;
    rd_tree_sampler_init(&smp);
    /* Listed before the clock starts: the samples then read only what the
     * command starts. */
    if (sample_ms > 0)
        rd_tree_sampler_skip_existing(&smp);
    rd_proc_init(&p);
    rd_runner_timestamp(ts);
    if ((st = rd_record_set(rec, &rec->started_at, ts))) {
        rd_tree_sampler_release(&smp);
        return st;
    }
    if (spec->guard)
        rd_guard_run_begin(spec->guard);
    st = rd_proc_spawn(&p, &o, d);
    if (st) {
        rd_tree_sampler_release(&smp);
        if (st == RD_ERR_IO && strncmp(d->msg, "cannot run", 10) == 0) {
            /* The program vanished since validation: a failed run, not a crash. */
            rd_proc_release(&p);
            RD_TRY(set_status(rec, "failed", 127));
            return rd_record_set_info(rec, "error", d->msg);
        }
        return st;
    }
    rd_tree_sampler_set_root(&smp, p.pid);
    struct rd_proc *one[1] = {&p};
    st = rd_proc_wait_all_ticking(one, 1, sample_ms > 0 ? sample_ms / 1000.0 : 0, sample_tree,
                                  &smp, d);
    rd_tree_sampler_release(&smp);
    if (st) {
        /* The run is not stored, so its logs would point nowhere. */
        rd_proc_release(&p);
        if (spec->logs.dir) {
            unlink(lp.out);
            unlink(lp.err);
        }
        return st;
    }
    int code = rd_proc_exit_code(&p);
    const char *status = p.timed_out ? "timeout" : code == 0 ? "ok" : "failed";
    /* Right after the wait: the command's tree is in RUSAGE_CHILDREN now. */
    st = spec->guard ? rd_guard_run_end(spec->guard, rec) : RD_OK;
    if (!st) st = set_status(rec, status, code);
    if (!st) st = rd_record_set_metric(rec, "wall_ms", rd_proc_wall_ms(&p));
    if (!st) st = rd_record_set_metric(rec, "user_ms",
                                       p.ru.ru_utime.tv_sec * 1e3 + p.ru.ru_utime.tv_usec / 1e3);
    if (!st) st = rd_record_set_metric(rec, "sys_ms",
                                       p.ru.ru_stime.tv_sec * 1e3 + p.ru.ru_stime.tv_usec / 1e3);
    if (!st) st = rd_record_set_metric(rec, "max_rss_kib", (double)p.ru.ru_maxrss);
    if (!st && sample_ms > 0) st = note_tree_rss(rec, &smp, sample_ms, (double)p.ru.ru_maxrss);
    if (!st) st = add_stream_metrics(rec, &p.out, "");
    if (!st) st = note_stream(rec, &p.out, &spec->logs, lp.out, "stdout_log");
    if (!st) st = note_stream(rec, &p.err, &spec->logs, lp.err, "stderr_log");
    if (!st && strcmp(status, "ok") != 0) {
        char ex[96], tail[256], msg[512];
        rd_proc_describe_exit(&p, ex, sizeof ex);
        tail_excerpt(&p.err, tail, sizeof tail);
        if (p.timed_out)
            snprintf(msg, sizeof msg, "timed out after %g s (%s)", spec->timeout_s, ex);
        else
            snprintf(msg, sizeof msg, "%s%s%s", ex, p.err.tail.len ? ": " : "",
                     p.err.tail.len ? tail : "");
        st = rd_record_set_info(rec, "error", msg);
    }
    rd_proc_release(&p);
    if (!st && spec->cleanup) {
        st = run_helper(spec->cleanup, spec, why, sizeof why, &ok, d);
        if (!st && !ok)
            st = rd_record_set_info(rec, "cleanup_error", why);
    }
    return st;
}

/* ---- server sessions ---- */

struct session {
    const struct rd_http_spec *spec;
    const struct rd_record *tmpl;
    char host[256], path[2048];
    int port;
    struct rd_proc server;
    char server_log[4096];
    struct rd_diag *d;
};

/* "…: <tail of server log>" for messages about the server. */
static void server_fail_msg(struct session *ss, const char *what, char *out, size_t size)
{
    char tail[256] = "";
    const struct rd_stream *s = ss->server.err.tail.len ? &ss->server.err : &ss->server.out;
    if (s->tail.len)
        tail_excerpt(s, tail, sizeof tail);
    snprintf(out, size, "%s%s%s", what, tail[0] ? "; server log ends: " : "", tail);
}

/* "the server exited <when> (<how>)" and the end of its log. */
static void server_exit_msg(struct session *ss, const char *when, char *out, size_t size)
{
    char ex[96], what[200];
    rd_proc_describe_exit(&ss->server, ex, sizeof ex);
    snprintf(what, sizeof what, "the server exited %s (%s)", when, ex);
    server_fail_msg(ss, what, out, size);
}

static rd_status emit_failed(struct session *ss, const char *phase, long run, const char *msg,
                             rd_emit_fn emit, void *ctx)
{
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    char ts[32];
    rd_status st = r ? rd_record_copy(r, ss->tmpl) : RD_ERR_NOMEM;
    rd_runner_timestamp(ts);
    if (!st) st = rd_record_set(r, &r->phase, phase);
    if (!st) st = rd_record_set(r, &r->started_at, ts);
    if (!st && !r->tool) st = rd_record_set(r, &r->tool, ss->spec->load_tool ? ss->spec->load_tool : "rundown");
    if (!st) st = set_status(r, "failed", -1);
    if (!st) st = rd_record_set_info(r, "error", msg);
    if (!st && ss->server_log[0]) st = rd_record_set_source(r, "server_log", ss->server_log);
    if (!st) {
        r->run = run;
        st = emit(ctx, r, ss->d);
    }
    rd_recordset_release(&set);
    return st;
}

/* Built-in warm-up traffic: sequential GETs until the time is up. */
static void warmup_traffic(struct session *ss, double seconds)
{
    double until = rd_now() + seconds;
    struct rd_proc *one[1] = {&ss->server};
    while (rd_now() < until && !rd_proc_interrupted && !ss->server.exited) {
        if (rd_http_probe(ss->host, ss->port, ss->path, 1.0) < 0)
            rd_proc_poll(one, 1, 0.01, NULL);
        /* Drain the server's output now and then so it never blocks on us. */
        rd_proc_poll(one, 1, 0, NULL);
    }
}

/* Reads the load tool's output with its importer into rec. A report the
 * importer read and judged ok is a measurement even when the tool ended
 * with a non-zero exit status (k6 exits 99 when a threshold fails): the
 * run is ok, and info load_exit keeps the status. A tool killed by a
 * signal has crashed, whatever it printed. */
static rd_status import_load(struct session *ss, struct rd_proc *load, struct rd_record *rec,
                             const char *path)
{
    const struct rd_stream *src = load->out.keep.len ? &load->out : &load->err;
    struct rd_buf raw = RD_BUF_INIT;
    struct rd_import_input in;
    struct rd_diag d;
    rd_diag_init(&d, path);
    rd_status st = rd_buf_add(&raw, src->keep.ptr, src->keep.len);
    if (st)
        return st;
    st = rd_import_normalise(&raw, path, &in, &d);
    const struct rd_importer *imp = NULL;
    if (!st) {
        imp = ss->spec->load_tool ? rd_importer_find(ss->spec->load_tool)
                                  : rd_importer_detect(&in, &d);
        if (!imp && ss->spec->load_tool)
            rd_diag_set(&d, RD_ERR_PARSE, NULL, 0, 0, "no importer named '%s'",
                        ss->spec->load_tool);
    }
    struct rd_recordset got;
    rd_recordset_init(&got);
    if (imp) {
        rd_diag_init(&d, path);
        st = imp->parse(&in, &got, &d);
        if (!st && got.len == 0)
            st = rd_diag_set(&d, RD_ERR_PARSE, path, 0, 0, "expected a run of %s in the output",
                             imp->name);
    }
    rd_status out = RD_OK;
    if (!imp || st) {
        char msg[700];
        rd_diag_format(&d, msg, sizeof msg);
        if (!(out = set_status(rec, "failed", rec->has_exit_code ? rec->exit_code : -1)))
            out = rd_record_set_info(rec, "error", msg);
    } else {
        const struct rd_record *r = &got.items[0];
        out = rd_record_set(rec, &rec->tool, imp->name);
        for (size_t i = 0; i < r->nmetrics && !out; i++)
            out = rd_record_set_metric(rec, r->metrics[i].name, r->metrics[i].value);
        for (size_t i = 0; i < r->info.len && !out; i++)
            if (!rd_record_info(rec, r->info.items[i].key))
                out = rd_record_set_info(rec, r->info.items[i].key, r->info.items[i].value);
        if (!out && r->status && strcmp(r->status, "ok") != 0 && strcmp(rec->status, "ok") == 0)
            out = rd_record_set(rec, &rec->status, r->status);
        bool reported = r->status && strcmp(r->status, "ok") == 0;
        if (!out && reported && strcmp(rec->status, "failed") == 0 && load->exited &&
            WIFEXITED(load->wstatus) && !rd_record_info(rec, "error")) {
            char ex[96];
            rd_proc_describe_exit(load, ex, sizeof ex);
            out = rd_record_set(rec, &rec->status, "ok");
            if (!out)
                out = rd_record_set_info(rec, "load_exit", ex);
        }
        if (!out && got.len > 1)
            out = rd_record_set_info(rec, "import_note", "the output held several runs; the first is kept");
    }
    rd_recordset_release(&got);
    rd_buf_release(&raw);
    return out;
}

/* One load run (with the background command, when given) against the
 * running server; the finished record goes to emit unless skipped. */
static rd_status load_run(struct session *ss, const char *phase, long run, bool store,
                          rd_emit_fn emit, void *ctx, bool *server_died)
{
    const struct rd_http_spec *sp = ss->spec;
    char suffix[64];
    struct log_paths lp = {{0}, {0}}, bp = {{0}, {0}};
    snprintf(suffix, sizeof suffix, "-%s%ld-load", strcmp(phase, "warmup") == 0 ? "w" : "r", run);
    rd_status st = log_paths(&sp->logs, suffix, &lp, ss->d);
    if (!st && sp->background_argv) {
        snprintf(suffix, sizeof suffix, "-%s%ld-background",
                 strcmp(phase, "warmup") == 0 ? "w" : "r", run);
        st = log_paths(&sp->logs, suffix, &bp, ss->d);
    }
    if (st)
        return st;
    if (sp->guard) {
        /* The server's CPU so far is the measured program's, not foreign. */
        struct rd_tree_sampler pre;
        rd_tree_sampler_start(&pre, ss->server.pid);
        rd_guard_set_live_ms(sp->guard, rd_tree_sampler_cpu_ms(&pre));
        rd_tree_sampler_release(&pre);
        char what[64];
        snprintf(what, sizeof what, "%s %ld", phase, run);
        if (sp->around_wait)
            RD_TRY(sp->around_wait(sp->around_ctx, false, ss->d));
        st = rd_guard_wait(sp->guard, what, ss->d);
        if (!st && sp->around_wait)
            st = sp->around_wait(sp->around_ctx, true, ss->d);
        if (st)
            return st;
    }

    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *rec = rd_recordset_add(&set);
    if (!rec)
        return RD_ERR_NOMEM;
    char ts[32];
    rd_runner_timestamp(ts);
    st = rd_record_copy(rec, ss->tmpl);
    if (!st) st = rd_record_set(rec, &rec->phase, phase);
    if (!st) st = rd_record_set(rec, &rec->started_at, ts);
    rec->run = run;

    struct rd_proc load, bg;
    rd_proc_init(&load);
    rd_proc_init(&bg);
    struct rd_proc_opts lo = {
        .argv = sp->load_argv, .envp = sp->envp, .cwd = sp->cwd, .cpus = sp->load_cpus,
        .log_stdout = sp->logs.dir ? lp.out : NULL, .log_stderr = sp->logs.dir ? lp.err : NULL,
        .keep_stdout = 8u << 20, .keep_stderr = 8u << 20, .timeout_s = sp->timeout_s,
        .die_with_parent = true,
    };
    struct rd_proc_opts bo = {
        .argv = sp->background_argv, .envp = sp->envp, .cwd = sp->cwd,
        .cpus = sp->background_cpus, .log_stdout = sp->logs.dir ? bp.out : NULL,
        .log_stderr = sp->logs.dir ? bp.err : NULL, .metrics = true,
        .timeout_s = sp->timeout_s, .die_with_parent = true,
    };
    struct rd_tree_sampler smp;
    rd_tree_sampler_init(&smp);
    if (!st)
        rd_tree_sampler_start(&smp, ss->server.pid);
    if (!st && sp->guard) {
        rd_guard_set_live_ms(sp->guard, rd_tree_sampler_cpu_ms(&smp));
        rd_guard_run_begin(sp->guard);
    }
    if (!st && sp->background_argv)
        st = rd_proc_spawn(&bg, &bo, ss->d);
    if (!st)
        st = rd_proc_spawn(&load, &lo, ss->d);
    bool spawn_failed = st == RD_ERR_IO && strncmp(ss->d->msg, "cannot run", 10) == 0;
    struct rd_proc *procs[3] = {&ss->server, &load, sp->background_argv ? &bg : NULL};
    const double every = RD_TREE_SAMPLE_MS_DEFAULT / 1000.0;
    double next = rd_now() + every;
    while (!st && !(rd_proc_done(&load) && rd_proc_done(&bg))) {
        if (rd_proc_interrupted) {
            st = rd_diag_set(ss->d, RD_ERR_IO, NULL, 0, 0, "interrupted");
            break;
        }
        double wait = next - rd_now();
        st = rd_proc_poll(procs, 3, wait > 0 ? wait : 0, ss->d);
        if (rd_now() >= next) {
            if (!ss->server.exited)
                rd_tree_sampler_sample(&smp);
            for (double now = rd_now(); next <= now;)
                next += every;
        }
        if (ss->server.exited && !*server_died) {
            /* The server is gone: the load has nothing to measure. */
            *server_died = true;
            rd_proc_stop(&load, 1.0);
            rd_proc_stop(&bg, 1.0);
        }
    }
    if (!st && !ss->server.exited)
        rd_tree_sampler_sample(&smp);
    if (!st && sp->guard) {
        rd_guard_set_live_ms(sp->guard, rd_tree_sampler_cpu_ms(&smp));
        st = rd_guard_run_end(sp->guard, rec);
    }
    if (st && !spawn_failed) {
        rd_proc_release(&load);
        rd_proc_release(&bg);
        rd_tree_sampler_release(&smp);
        rd_recordset_release(&set);
        return st;
    }
    if (spawn_failed) {
        st = set_status(rec, "failed", 127);
        if (!st) st = rd_record_set_info(rec, "error", ss->d->msg);
        if (!st && !rec->tool) st = rd_record_set(rec, &rec->tool, sp->load_tool ? sp->load_tool : "rundown");
    } else {
        int code = rd_proc_exit_code(&load);
        st = set_status(rec, load.timed_out ? "timeout" : code == 0 ? "ok" : "failed", code);
        if (!st && !load.timed_out && !*server_died)
            st = import_load(ss, &load, rec, sp->logs.dir ? lp.out : "<load output>");
        if (!st && !rec->tool)
            st = rd_record_set(rec, &rec->tool, sp->load_tool ? sp->load_tool : "rundown");
        if (!st) st = rd_record_set_metric(rec, "load_wall_ms", rd_proc_wall_ms(&load));
        if (!st) st = rd_record_set_metric(rec, "server_rss_peak_kib", rd_tree_sampler_rss_peak_kib(&smp));
        if (!st) st = rd_record_set_metric(rec, "server_rss_mean_kib", rd_tree_sampler_rss_mean_kib(&smp));
        if (!st) st = rd_record_set_metric(rec, "server_cpu_pct", rd_tree_sampler_cpu_pct(&smp));
        if (!st && smp.missed) {
            /* The metrics of samples that could not be taken are null. */
            char b[192];
            snprintf(b, sizeof b, "%u of %u samples not taken: %s", smp.missed,
                     smp.missed + smp.nsamples, smp.why);
            st = rd_record_set_info(rec, "server_metrics_error", b);
        }
        if (!st) st = note_stream(rec, &load.out, &sp->logs, lp.out, "stdout_log");
        if (!st) st = note_stream(rec, &load.err, &sp->logs, lp.err, "stderr_log");
        if (!st && sp->background_argv) {
            int bcode = rd_proc_exit_code(&bg);
            char b[32];
            snprintf(b, sizeof b, "%d", bcode);
            st = rd_record_set_metric(rec, "background_wall_ms", rd_proc_wall_ms(&bg));
            if (!st) st = rd_record_set_info(rec, "background_exit_code", b);
            if (!st) st = add_stream_metrics(rec, &bg.out, "");
            if (!st) st = note_stream(rec, &bg.out, &sp->logs, bp.out, "background_log");
            if (!st) st = note_stream(rec, &bg.err, &sp->logs, bp.err, "background_stderr_log");
            if (!st && (bcode != 0 || bg.timed_out) && !*server_died) {
                char ex[96], msg[400];
                rd_proc_describe_exit(&bg, ex, sizeof ex);
                snprintf(msg, sizeof msg, "background command %s: %s",
                         bg.timed_out ? "timed out" : "failed", ex);
                st = rd_record_set(rec, &rec->status, bg.timed_out ? "timeout" : "failed");
                if (!st) st = rd_record_set_info(rec, "error", msg);
            }
        }
        if (!st && *server_died) {
            char msg[512];
            server_exit_msg(ss, "during the load run", msg, sizeof msg);
            st = rd_record_set(rec, &rec->status, "failed");
            if (!st) st = rd_record_set_info(rec, "error", msg);
        } else if (!st && strcmp(rec->status, "ok") != 0 && !rd_record_info(rec, "error")) {
            char ex[96], tail[256], msg[512];
            rd_proc_describe_exit(&load, ex, sizeof ex);
            tail_excerpt(&load.err, tail, sizeof tail);
            const char *failure = rd_record_info(rec, "failure");
            if (load.timed_out)
                snprintf(msg, sizeof msg, "load timed out after %g s", sp->timeout_s);
            else if (code == 0 && failure)
                /* The tool ended normally and its report made the run a
                 * failure: that report is the reason, not the exit. */
                snprintf(msg, sizeof msg, "the load tool reported %s", failure);
            else
                snprintf(msg, sizeof msg, "load command %s%s%s", ex,
                         load.err.tail.len ? ": " : "", load.err.tail.len ? tail : "");
            st = rd_record_set_info(rec, "error", msg);
        }
    }
    if (!st && ss->server_log[0])
        st = rd_record_set_source(rec, "server_log", ss->server_log);
    const struct rd_stream *sv = ss->server.err.log_errno ? &ss->server.err : &ss->server.out;
    if (!st && sv->log_errno) {
        char msg[192];
        snprintf(msg, sizeof msg, "cannot write the server's log: %s (%zu bytes lost so far)",
                 strerror(sv->log_errno), sv->lost);
        st = rd_record_set_info(rec, "server_log_error", msg);
    }
    if (!st && store)
        st = emit(ctx, rec, ss->d);
    rd_proc_release(&load);
    rd_proc_release(&bg);
    rd_tree_sampler_release(&smp);
    rd_recordset_release(&set);
    return st;
}

double rd_load_default_timeout(char *const *argv)
{
    static const char *const opts[] = {"-d", "--duration", "-z"};
    for (size_t i = 1; argv && argv[i]; i++) {
        const char *v = NULL;
        for (size_t k = 0; k < sizeof opts / sizeof opts[0] && !v; k++) {
            size_t n = strlen(opts[k]);
            if (strcmp(argv[i], opts[k]) == 0)
                v = argv[i + 1];
            else if (strncmp(argv[i], opts[k], n) == 0 && argv[i][n] == '=')
                v = argv[i] + n + 1;
            else if (n == 2 && strncmp(argv[i], opts[k], 2) == 0 && argv[i][2] >= '0' &&
                     argv[i][2] <= '9')
                v = argv[i] + 2;  /* -d10s */
        }
        double ms;
        if (v && rd_parse_duration_ms(v, strlen(v), &ms, 1000) == RD_OK && ms > 0 &&
            ms < 1e9)
            return 2 * ms / 1000 + 60;
    }
    return RD_LOAD_TIMEOUT_DEFAULT_S;
}

const char *rd_strays_note(const struct rd_strays *st, char *buf, size_t size)
{
    snprintf(buf, size, "the server left %d process%s running after it stopped (outside its "
             "process group, or ignoring its SIGTERM); killed: %s", st->count,
             st->count == 1 ? "" : "es", st->what);
    return buf;
}

static rd_status wait_port_free(struct session *ss, double timeout_s)
{
    double until = rd_now() + timeout_s;
    int state;
    while ((state = rd_port_check(ss->host, ss->port)) != 0) {
        char why[160];
        if (state != RD_PORT_IN_USE)
            return rd_diag_set(ss->d, RD_ERR_IO, NULL, 0, 0, "%s",
                               rd_port_problem(state, ss->port, why, sizeof why));
        if (rd_now() > until)
            return rd_diag_set(ss->d, RD_ERR_IO, NULL, 0, 0,
                               "port %d is still in use %g s after the server stopped",
                               ss->port, timeout_s);
        usleep(20000);
    }
    return RD_OK;
}

rd_status rd_runner_http_session(const struct rd_http_spec *spec, const struct rd_record *tmpl,
                                 long first_warmup, long first_run, int nruns,
                                 rd_emit_fn emit, bool (*skip_warmup)(void *ctx, long run),
                                 void *ctx, struct rd_diag *d)
{
    struct session ss;
    memset(&ss, 0, sizeof ss);
    ss.spec = spec;
    ss.tmpl = tmpl;
    ss.d = d;
    rd_proc_init(&ss.server);
    rd_status st = rd_url_parse(spec->ready_url, ss.host, sizeof ss.host, &ss.port, ss.path,
                                sizeof ss.path, d);
    if (st)
        return st;
    int port_state = rd_port_check(ss.host, ss.port);
    if (port_state) {
        char why[160];
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "%s (%s)",
                           rd_port_problem(port_state, ss.port, why, sizeof why),
                           spec->ready_url);
    }
    struct log_paths sp = {{0}, {0}};
    RD_TRY(log_paths(&spec->logs, "-server", &sp, d));
    if (spec->logs.dir)
        shown_path(&spec->logs, sp.err, ss.server_log, sizeof ss.server_log);
    struct rd_proc_opts so = {
        .argv = spec->server_argv, .envp = spec->envp, .cwd = spec->cwd,
        .cpus = spec->server_cpus, .log_stdout = spec->logs.dir ? sp.out : NULL,
        .log_stderr = spec->logs.dir ? sp.err : NULL,
        /* A server would otherwise outlive a SIGKILL of rundown, port and all. */
        .die_with_parent = true,
    };
    double stop_s = spec->stop_timeout_s > 0 ? spec->stop_timeout_s : 5;
    double ready_s = spec->ready_timeout_s > 0 ? spec->ready_timeout_s : 30;
    char msg[700];
    bool failed = false;
    if ((st = rd_proc_spawn(&ss.server, &so, d))) {
        snprintf(msg, sizeof msg, "cannot start the server: %s", d->msg);
        failed = true;
        goto fail_runs;
    }
    /* Ready: an HTTP answer on ready_url, polled with a short back-off. */
    double until = rd_now() + ready_s, step = 0.01;
    struct rd_proc *one[1] = {&ss.server};
    for (;;) {
        if (rd_proc_interrupted) {
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "interrupted");
            goto out;
        }
        if (ss.server.exited) {
            server_exit_msg(&ss, "before it was ready", msg, sizeof msg);
            failed = true;
            goto fail_runs;
        }
        if (rd_http_probe(ss.host, ss.port, ss.path, 1.0) >= 0)
            break;
        if (rd_now() > until) {
            char what[300];
            snprintf(what, sizeof what, "the server did not answer %s within %g s",
                     spec->ready_url, ready_s);
            server_fail_msg(&ss, what, msg, sizeof msg);
            failed = true;
            goto fail_runs;
        }
        if ((st = rd_proc_poll(one, 1, step, d)))
            goto out;
        if (step < 0.1)
            step *= 1.5;
    }
    if (spec->warmup_load_s > 0)
        warmup_traffic(&ss, spec->warmup_load_s);
    bool died = false;
    for (int w = 0; w < spec->warmups && !st && !died; w++) {
        long run = first_warmup + w;
        bool store = !(skip_warmup && skip_warmup(ctx, run));
        st = load_run(&ss, "warmup", run, store, emit, ctx, &died);
    }
    for (int r = 0; r < nruns && !st; r++) {
        if (died) {
            snprintf(msg, sizeof msg, "the server had exited before this run");
            failed = true;
            st = emit_failed(&ss, "measure", first_run + r, msg, emit, ctx);
            continue;
        }
        st = load_run(&ss, "measure", first_run + r, true, emit, ctx, &died);
    }
    if (!st && died) {
        server_exit_msg(&ss, "during a load run", msg, sizeof msg);
        failed = true;
    }
    goto out;

fail_runs:
    rd_proc_stop(&ss.server, stop_s);
    for (int r = 0; r < nruns && !st; r++)
        st = emit_failed(&ss, "measure", first_run + r, msg, emit, ctx);
out:
    rd_proc_stop(&ss.server, stop_s);
    if (spec->logs.dir && ss.server.out.logged == 0)
        unlink(sp.out);
    /* The server leads its own group; a server rundown stopped had the
     * whole group told to end. */
    pid_t group = ss.server.stopped ? ss.server.pid : 0;
    rd_proc_release(&ss.server);
    /* What the server started outside its group (a daemon after setsid or
     * a double fork) came to rundown, the subreaper: stop it too. Its
     * workers still ending after the leader are only waited for. */
    rd_proc_kill_strays(stop_s < 1 ? stop_s : 1, group, spec->strays);
    if (spec->guard)
        rd_guard_set_live_ms(spec->guard, 0); /* reaped: in RUSAGE_CHILDREN now */
    if (!st && ss.port) {
        rd_status ps = wait_port_free(&ss, stop_s);
        if (ps && !failed)
            return ps;
    }
    if (!st && failed)
        return rd_diag_set(d, RD_ERR_RUN_FAILED, NULL, 0, 0, "%s", msg);
    return st;
}
