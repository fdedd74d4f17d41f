/*
 * speedmemory.c - the remembered best speed probe reading (see
 * speedmemory.h). cJSON for the file (core's JSON I/O), core's atomic
 * write for the save.
 */
#include "speedmemory.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speedprobe.h"
#include "rundown/buf.h"
#include "rundown/fsutil.h"
#include "rundown/json.h"
#include "rundown/storecache.h"

_Static_assert(RD_SPEED_MEMORY_MAX == 128 && RD_SPEED_MEMORY_MAX >= 2 * RD_SPEED_CPUS_MAX,
               "every key of one session fits, and the load's message says 128");

char *rd_speed_memory_path(const char *cache_dir, bool off)
{
    if (off)
        return NULL;
    char *out = NULL;
    if (cache_dir)
        return asprintf(&out, "%s/%s", cache_dir, RD_SPEED_MEMORY_FILE) < 0 ? NULL : out;
    const char *env = getenv("RUNDOWN_SPEED_MEMORY");
    if (env && strcmp(env, "off") == 0)
        return NULL;
    if (env && *env)
        return strdup(env);
    char *dir = rd_cache_default_dir();
    if (dir && asprintf(&out, "%s/%s", dir, RD_SPEED_MEMORY_FILE) < 0)
        out = NULL;
    free(dir);
    return out;
}

void rd_speed_memory_release(struct rd_speed_memory *m)
{
    free(m->path);
    memset(m, 0, sizeof *m);
}

void rd_speed_memory_forget(struct rd_speed_memory *m)
{
    m->changed = m->changed || m->n > 0 || m->note[0];
    m->n = 0;
}

static bool same_key(const struct rd_speed_key *a, const struct rd_speed_key *b)
{
    return strcmp(a->probe, b->probe) == 0 && strcmp(a->cpu_model, b->cpu_model) == 0 &&
           a->max_khz == b->max_khz && a->cpu == b->cpu;
}

const struct rd_speed_entry *rd_speed_memory_find(const struct rd_speed_memory *m,
                                                  const struct rd_speed_key *k)
{
    for (int i = 0; i < m->n; i++)
        if (same_key(&m->e[i].key, k))
            return &m->e[i];
    return NULL;
}

/* One entry of the file; false when a member is missing or of the wrong
 * kind (the whole file is then set aside: it was not written by us). */
static bool entry_from_json(const cJSON *o, struct rd_speed_entry *e)
{
    const char *probe = rd_json_str(o, "probe"), *model = rd_json_str(o, "cpu_model");
    double khz, cpu, best, at, near, misses;
    if (!probe || !model || !rd_json_num(o, "max_khz", &khz) || !rd_json_num(o, "cpu", &cpu) ||
        !rd_json_num(o, "best_ms", &best) || !rd_json_num(o, "best_at", &at) ||
        !rd_json_num(o, "near_at", &near) || !rd_json_num(o, "misses", &misses) ||
        !(best > 0) || !(khz >= 0) || cpu < -1 || cpu >= RD_SPEED_CPUS_MAX || misses < 0 ||
        strlen(probe) >= sizeof e->key.probe || strlen(model) >= sizeof e->key.cpu_model)
        return false;
    memset(e, 0, sizeof *e);
    snprintf(e->key.probe, sizeof e->key.probe, "%s", probe);
    snprintf(e->key.cpu_model, sizeof e->key.cpu_model, "%s", model);
    e->key.max_khz = khz;
    e->key.cpu = (int)cpu;
    e->best_ms = best;
    e->best_at = (long long)at;
    e->near_at = (long long)near;
    e->misses = misses > 1e6 ? 1000000 : (int)misses;
    return true;
}

rd_status rd_speed_memory_load(struct rd_speed_memory *m, const char *path, struct rd_diag *d)
{
    memset(m, 0, sizeof *m);
    if (!path)
        return RD_OK;
    if (!(m->path = strdup(path)))
        return rd_diag_set(d, RD_ERR_NOMEM, path, 0, 0, "out of memory");
    FILE *probe = fopen(path, "re");
    if (!probe)
        return RD_OK; /* not remembered yet */
    fclose(probe);
    struct rd_diag pd;
    rd_diag_init(&pd, NULL);
    cJSON *root = NULL;
    const cJSON *entries = NULL;
    const char *schema = NULL;
    rd_status st = rd_json_parse_file(path, &root, &pd);
    if (st == RD_ERR_NOMEM) {
        *d = pd;
        return st;
    }
    if (!st) {
        schema = rd_json_str(root, "schema");
        entries = cJSON_GetObjectItemCaseSensitive(root, "entries");
    }
    const char *why = st ? pd.msg
                    : !schema || strcmp(schema, RD_SPEED_MEMORY_SCHEMA) != 0
                        ? "expected schema \"" RD_SPEED_MEMORY_SCHEMA "\""
                    : !cJSON_IsArray(entries) ? "expected an array \"entries\"" : NULL;
    const cJSON *it, *list = why ? NULL : entries;
    cJSON_ArrayForEach(it, list) {
        if (m->n == RD_SPEED_MEMORY_MAX || !entry_from_json(it, &m->e[m->n])) {
            why = m->n == RD_SPEED_MEMORY_MAX ? "expected at most 128 entries"
                                              : "expected entries of probe, cpu_model, "
                                                "max_khz, cpu, best_ms, best_at, near_at, misses";
            break;
        }
        m->n++;
    }
    cJSON_Delete(root);
    if (why) {
        /* A cache never fails a check: set it aside, say so, rewrite it. */
        m->n = 0;
        m->changed = true;
        if (st && pd.line)
            snprintf(m->note, sizeof m->note, "%.200s:%u:%u: %.200s: set aside, it is rewritten", path,
                     pd.line, pd.col, why);
        else
            snprintf(m->note, sizeof m->note, "%.200s: %.200s: set aside, it is rewritten", path,
                     why);
    }
    return RD_OK;
}

/* The entry of key k, made when it is new (the oldest best makes way when
 * the memory is full). */
static struct rd_speed_entry *entry_for(struct rd_speed_memory *m, const struct rd_speed_key *k,
                                        bool *made)
{
    *made = false;
    for (int i = 0; i < m->n; i++)
        if (same_key(&m->e[i].key, k))
            return &m->e[i];
    int at = m->n;
    if (m->n == RD_SPEED_MEMORY_MAX) {
        at = 0;
        for (int i = 1; i < m->n; i++)
            if (m->e[i].best_at < m->e[at].best_at)
                at = i;
    } else {
        m->n++;
    }
    *made = true;
    m->e[at] = (struct rd_speed_entry){.key = *k};
    return &m->e[at];
}

void rd_speed_memory_note(struct rd_speed_memory *m, const struct rd_speed_key *k,
                          double session_best_ms, double min_speed_pct, long long now,
                          struct rd_speed_recall *out)
{
    *out = (struct rd_speed_recall){.remembered_ms = NAN, .dropped_ms = NAN};
    if (!(session_best_ms > 0))
        return;
    bool made;
    struct rd_speed_entry *e = entry_for(m, k, &made);
    m->changed = true;
    if (made) {
        e->best_ms = session_best_ms;
        e->best_at = e->near_at = now;
        return;
    }
    if (100.0 * e->best_ms / session_best_ms >= min_speed_pct) {
        e->near_at = now;
        e->misses = 0;
    } else {
        e->misses++;
    }
    if (e->misses >= RD_SPEED_MEMORY_MISSES && now - e->near_at >= RD_SPEED_MEMORY_STALE_S) {
        out->replaced = true;
        out->dropped_ms = e->best_ms;
        *e = (struct rd_speed_entry){.key = *k, .best_ms = session_best_ms, .best_at = now,
                                     .near_at = now};
        return;
    }
    out->remembered_ms = e->best_ms;
    out->remembered_at = e->best_at;
    if (session_best_ms < e->best_ms) {
        e->best_ms = session_best_ms;
        e->best_at = now;
    }
}

rd_status rd_speed_memory_save(struct rd_speed_memory *m, struct rd_diag *d)
{
    if (!m->path || !m->changed)
        return RD_OK;
    cJSON *root = cJSON_CreateObject();
    cJSON *arr = root && cJSON_AddStringToObject(root, "schema", RD_SPEED_MEMORY_SCHEMA)
                     ? cJSON_AddArrayToObject(root, "entries") : NULL;
    bool ok = arr;
    for (int i = 0; ok && i < m->n; i++) {
        const struct rd_speed_entry *e = &m->e[i];
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(arr, o) &&
             cJSON_AddStringToObject(o, "probe", e->key.probe) &&
             cJSON_AddStringToObject(o, "cpu_model", e->key.cpu_model) &&
             cJSON_AddNumberToObject(o, "max_khz", e->key.max_khz) &&
             cJSON_AddNumberToObject(o, "cpu", e->key.cpu) &&
             cJSON_AddNumberToObject(o, "best_ms", e->best_ms) &&
             cJSON_AddNumberToObject(o, "best_at", (double)e->best_at) &&
             cJSON_AddNumberToObject(o, "near_at", (double)e->near_at) &&
             cJSON_AddNumberToObject(o, "misses", e->misses);
    }
    struct rd_buf b;
    rd_buf_init(&b, 0);
    if (!ok || rd_json_write(root, &b, true)) {
        cJSON_Delete(root);
        rd_buf_release(&b);
        return rd_diag_set(d, RD_ERR_NOMEM, m->path, 0, 0, "out of memory");
    }
    cJSON_Delete(root);
    char dir[4096];
    rd_path_dirname(m->path, dir, sizeof dir);
    rd_status st = rd_mkdir_p(dir, d);
    if (!st)
        st = rd_write_file_atomic(m->path, b.ptr, b.len, d);
    rd_buf_release(&b);
    if (!st) {
        m->changed = false;
    } else if (d) {
        /* The path d points to is the memory's or a local folder name:
         * folded into the message, so the diag outlives them. */
        char text[512];
        rd_diag_format(d, text, sizeof text);
        d->path = NULL;
        d->line = d->col = 0;
        snprintf(d->msg, sizeof d->msg, "%s", text);
    }
    return st;
}

void rd_speed_key_make(struct rd_speed_key *k, const char *probe, const char *proc_root,
                       const char *sys_root, int cpu, int first_cpu)
{
    memset(k, 0, sizeof *k);
    snprintf(k->probe, sizeof k->probe, "%s", probe);
    rd_speed_cpu_model(proc_root, k->cpu_model, sizeof k->cpu_model);
    char rel[96], line[64];
    snprintf(rel, sizeof rel, "devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq",
             cpu >= 0 ? cpu : first_cpu);
    k->max_khz = rd_file_line(sys_root ? sys_root : "/sys", rel, line, sizeof line)
                     ? fmax(strtod(line, NULL), 0) : 0;
    k->cpu = cpu;
}

/* The keys a session of bests best_ms is noted under, into keys[] (the
 * count is returned) with the CPU each is of in cpus[]: alike CPUs one key
 * (their fastest, with the first read CPU's clock), else one a read CPU.
 * rem[] (when not NULL) is set to NaN. */
static int session_keys(const char *probe, const char *proc_root, const char *sys_root,
                        bool alike, const double best_ms[RD_SPEED_CPUS_MAX],
                        double rem[RD_SPEED_CPUS_MAX], struct rd_speed_key keys[RD_SPEED_CPUS_MAX],
                        int cpus[RD_SPEED_CPUS_MAX])
{
    int first = -1, fast = -1, n = 0;
    for (int cpu = 0; cpu < RD_SPEED_CPUS_MAX; cpu++) {
        if (rem)
            rem[cpu] = NAN;
        if (!(best_ms[cpu] > 0))
            continue;
        if (first < 0)
            first = cpu;
        if (fast < 0 || best_ms[cpu] < best_ms[fast])
            fast = cpu;
    }
    for (int cpu = 0; cpu < RD_SPEED_CPUS_MAX; cpu++) {
        if (!(best_ms[cpu] > 0) || (alike && cpu != fast))
            continue;
        rd_speed_key_make(&keys[n], probe, proc_root, sys_root, alike ? -1 : cpu, first);
        cpus[n++] = cpu;
    }
    return n;
}

void rd_speed_memory_recall_session(const struct rd_speed_memory *m, const char *probe,
                                    const char *proc_root, const char *sys_root, bool alike,
                                    const double best_ms[RD_SPEED_CPUS_MAX],
                                    double rem[RD_SPEED_CPUS_MAX])
{
    struct rd_speed_key keys[RD_SPEED_CPUS_MAX];
    int cpus[RD_SPEED_CPUS_MAX];
    int n = session_keys(probe, proc_root, sys_root, alike, best_ms, rem, keys, cpus);
    for (int i = 0; i < n; i++) {
        const struct rd_speed_entry *e = rd_speed_memory_find(m, &keys[i]);
        for (int other = 0; other < RD_SPEED_CPUS_MAX; other++)
            if (other == cpus[i] || alike)
                rem[other] = e ? e->best_ms : NAN;
    }
}

void rd_speed_memory_note_session(struct rd_speed_memory *m, const char *probe,
                                  const char *proc_root, const char *sys_root, bool alike,
                                  const double best_ms[RD_SPEED_CPUS_MAX], double min_speed_pct,
                                  long long now, double rem[RD_SPEED_CPUS_MAX],
                                  double *dropped_ms)
{
    struct rd_speed_key keys[RD_SPEED_CPUS_MAX];
    int cpus[RD_SPEED_CPUS_MAX];
    int n = session_keys(probe, proc_root, sys_root, alike, best_ms, rem, keys, cpus);
    for (int i = 0; i < n; i++) {
        int cpu = cpus[i];
        struct rd_speed_recall r;
        rd_speed_memory_note(m, &keys[i], best_ms[cpu], min_speed_pct, now, &r);
        if (r.replaced && dropped_ms)
            *dropped_ms = r.dropped_ms;
        for (int other = 0; rem && other < RD_SPEED_CPUS_MAX; other++)
            if (other == cpu || alike)
                rem[other] = r.remembered_ms;
    }
}
