/*
 * model - loads analysis.json and derives what every back end shares.
 *
 * Only the fields the report cannot do without are validated; everything
 * optional (tests, pairs, recommendation, warnings, environments,
 * replication, inputs) may be absent or null, and back ends check for that.
 * Strings derived here live in the report's arena; strings read from the
 * tree stay owned by the tree.
 */
#include "model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "rundown/buf.h"
#include "rundown/fsutil.h"
#include "rundown/json.h"

/* The most runs the report states as a total (a count past it is not one). */
#define RUNS_MAX 1e15

double rd_num(const cJSON *obj, const char *key)
{
    const cJSON *v = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return NAN;
    return v->valuedouble;
}

const char *rd_str(const cJSON *obj, const char *key)
{
    const cJSON *v = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

const cJSON *rd_config_stats(const struct rd_rconfig *c, const char *metric)
{
    if (!metric)
        return NULL;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(c->json, "metrics");
    const cJSON *s = cJSON_IsObject(m) ? cJSON_GetObjectItemCaseSensitive(m, metric) : NULL;
    return cJSON_IsObject(s) ? s : NULL;
}

double rd_config_rss_mib(const struct rd_rconfig *c)
{
    static const char *keys[] = { "max_rss_kib", "server_rss_peak_kib" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        double m = rd_num(rd_config_stats(c, keys[i]), "mean");
        if (isfinite(m))
            return m / 1024;
    }
    return NAN;
}

const char *rd_other_role(const struct rd_rworkload *w)
{
    return w->best >= 0 && w->best != w->recommended && w->runner_up == w->best
        ? "best" : "runner-up";
}

int rd_workload_find(const struct rd_rworkload *w, const char *id)
{
    if (!id)
        return -1;
    for (size_t i = 0; i < w->nconfigs; i++)
        if (strcmp(w->configs[i].id, id) == 0)
            return (int)i;
    return -1;
}

const cJSON *rd_workload_pair(const struct rd_rworkload *w, const char *a,
                              const char *b, bool *swapped)
{
    const cJSON *p;
    *swapped = false;
    if (!cJSON_IsArray(w->pairs) || !a || !b)
        return NULL;
    cJSON_ArrayForEach(p, w->pairs) {
        const char *pa = rd_str(p, "a"), *pb = rd_str(p, "b");
        if (!pa || !pb)
            continue;
        if (strcmp(pa, a) == 0 && strcmp(pb, b) == 0)
            return p;
        if (strcmp(pa, b) == 0 && strcmp(pb, a) == 0) {
            *swapped = true;
            return p;
        }
    }
    return NULL;
}

const char *rd_runtime_colour(const struct rd_report *r, int runtime)
{
    /* Known runtimes keep their colour whatever else is in the report, so
     * two reports side by side agree; others take the palette in order. */
    static const struct { const char *name, *colour; } known[] = {
        { "node", "#3c873a" }, { "deno", "#2b6cb0" }, { "bun", "#d9822b" },
    };
    static const char *palette[] = {
        "#8e44ad", "#c0392b", "#16a085", "#b7950b", "#2c3e50", "#d35400",
        "#7d3c98", "#1abc9c",
    };
    if (runtime < 0 || (size_t)runtime >= r->nruntimes)
        return "#7f7f7f";
    const char *name = r->runtimes[runtime];
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(name, known[i].name) == 0)
            return known[i].colour;
    size_t others = 0;
    for (int i = 0; i < runtime; i++) {
        bool is_known = false;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (strcmp(r->runtimes[i], known[k].name) == 0)
                is_known = true;
        if (!is_known)
            others++;
    }
    return palette[others % (sizeof palette / sizeof palette[0])];
}

static const struct rd_env_row env_rows[] = {
    { "Host", { "hostname", NULL } },
    { "CPU", { "cpu.model", "cpu", "cpu_model", NULL } },
    { "Cores", { "cpu.cores_logical", "cores", "cpu.cores", NULL } },
    { "CPU MHz", { "cpu.mhz", "mhz", NULL } },
    { "Governor", { "cpu.governor", "governor", NULL } },
    { "Turbo", { "cpu.turbo", "turbo", NULL } },
    { "Memory", { "memory_kib", NULL } },
    { "OS", { "os", NULL } },
    { "Kernel", { "kernel", NULL } },
    { "Architecture", { "arch", NULL } },
    { "Container", { "container", NULL } },
    { "Load average at start", { "load_avg", "loadavg", NULL } },
    { "Runtimes", { "runtimes", NULL } },
    { "Load tools", { "tools", NULL } },
    { "Pinning", { "pinning", NULL } },
    { "CPU affinity", { "affinity", NULL } },
    { "Captured", { "captured_at", NULL } },
};

const struct rd_env_row *rd_env_rows(size_t *n)
{
    *n = sizeof env_rows / sizeof env_rows[0];
    return env_rows;
}

bool rd_env_known_key(const char *key)
{
    static const char *skip[] = { "id", "schema", "rundown_version", "kernel_build" };
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strcmp(key, skip[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof env_rows / sizeof env_rows[0]; i++)
        for (size_t k = 0; env_rows[i].paths[k]; k++) {
            const char *p = env_rows[i].paths[k];
            size_t n = strcspn(p, ".");
            if (strlen(key) == n && strncmp(key, p, n) == 0)
                return true;
        }
    return false;
}

/* A dotted path inside an object ("cpu.model"), or NULL. */
static const cJSON *json_path(const cJSON *obj, const char *path)
{
    char key[64];
    while (obj && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key || !cJSON_IsObject(obj))
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        obj = cJSON_GetObjectItemCaseSensitive(obj, key);
        path += n;
        if (*path == '.')
            path++;
    }
    return obj;
}

rd_status rd_json_text(const cJSON *v, struct rd_buf *out)
{
    char num[32];
    if (cJSON_IsString(v))
        return rd_buf_addstr(out, v->valuestring);
    if (cJSON_IsNumber(v))
        return rd_buf_addstr(out, rd_fmt_double(v->valuedouble, num));
    if (cJSON_IsBool(v))
        return rd_buf_addstr(out, cJSON_IsTrue(v) ? "yes" : "no");
    if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
        return RD_OK;
    rd_status st = RD_OK;
    const cJSON *x;
    size_t i = 0;
    cJSON_ArrayForEach(x, v) {
        if (st != RD_OK)
            break;
        if (i++)
            st = rd_buf_addstr(out, ", ");
        if (st == RD_OK && x->string && cJSON_IsObject(v)) {
            st = rd_buf_addstr(out, x->string);
            /* A tool found by running it: {"version": "...", ...}. */
            if (st == RD_OK && cJSON_IsObject(x)) {
                const cJSON *ver = cJSON_GetObjectItemCaseSensitive(x, "version");
                const char *vs = cJSON_IsString(ver) ? ver->valuestring : NULL;
                /* "deno 2.9.6 (stable, ...)" already names the tool. */
                size_t kl = strlen(x->string);
                if (vs && strncmp(vs, x->string, kl) == 0 && vs[kl] == ' ')
                    vs += kl + 1;
                if (vs)
                    st = rd_buf_addf(out, " %s", vs);
                else
                    st = rd_buf_addstr(out, " (not found)");
                continue;
            }
            if (st == RD_OK && !cJSON_IsNull(x))
                st = rd_buf_addch(out, ' ');
        }
        if (st == RD_OK)
            st = rd_json_text(x, out);
    }
    return st;
}

bool rd_env_value(const cJSON *env, const struct rd_env_row *row, struct rd_buf *out,
                  bool *is_null)
{
    *is_null = false;
    for (size_t k = 0; row->paths[k]; k++) {
        const cJSON *v = json_path(env, row->paths[k]);
        /* "cpu" is an object in rundown.env/1 and a string in older files. */
        if (!v || (strcmp(row->paths[k], "cpu") == 0 && !cJSON_IsString(v)))
            continue;
        if (cJSON_IsNull(v)) {
            *is_null = true;
            return true;
        }
        if (cJSON_IsNumber(v) && strcmp(row->paths[k], "memory_kib") == 0) {
            char num[32];
            double gib = v->valuedouble / (1024.0 * 1024.0);
            snprintf(num, sizeof num, "%.1f GiB", gib);
            rd_buf_addstr(out, num);
            return true;
        }
        rd_json_text(v, out);
        return true;
    }
    return false;
}

rd_status rd_tied_text(const struct rd_rworkload *w, struct rd_buf *out)
{
    const cJSON *tied = w->rec ? cJSON_GetObjectItemCaseSensitive(w->rec, "tied") : NULL;
    size_t start = out->len;
    rd_status st = RD_OK;
    /* The analysis may or may not list the best among the tied. */
    bool best_listed = false;
    const cJSON *t;
    cJSON_ArrayForEach(t, tied)
        if (cJSON_IsString(t) && w->best >= 0 && strcmp(t->valuestring, w->configs[w->best].id) == 0)
            best_listed = true;
    if (w->best >= 0 && w->best != w->recommended && !best_listed)
        st = rd_buf_addstr(out, w->configs[w->best].name);
    cJSON_ArrayForEach(t, tied) {
        if (st != RD_OK)
            break;
        if (!cJSON_IsString(t))
            continue;
        int i = rd_workload_find(w, t->valuestring);
        if (i >= 0 && i == w->recommended)
            continue;
        if (out->len > start)
            st = rd_buf_addstr(out, ", ");
        if (st == RD_OK)
            st = rd_buf_addstr(out, i >= 0 ? w->configs[i].name : t->valuestring);
    }
    return st;
}

int rd_workload_baseline(const struct rd_rworkload *w)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(w->json, "baseline");
    if (cJSON_IsArray(b))
        b = cJSON_GetArrayItem(b, 0);
    return cJSON_IsString(b) ? rd_workload_find(w, b->valuestring) : -1;
}

static bool parse_number(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    char *end;
    double v = strtod(s, &end);
    if (*end != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool rd_label_numeric(const struct rd_rworkload *w, const char *key)
{
    double first = NAN;
    bool distinct = false;
    for (size_t i = 0; i < w->nconfigs; i++) {
        double v;
        if (!parse_number(rd_str(w->configs[i].labels, key), &v))
            return false;
        if (i == 0)
            first = v;
        else if (v != first)
            distinct = true;
    }
    return distinct;
}

static char *arena_buf(struct rd_arena *a, struct rd_buf *b)
{
    char *s = rd_arena_strndup(a, b->ptr, b->len);
    rd_buf_reset(b);
    return s;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Label columns in reading order: runtime, mechanism, then the rest sorted. */
static rd_status collect_keys(struct rd_report *r, struct rd_rworkload *w)
{
    size_t cap = 0;
    for (size_t i = 0; i < w->nconfigs; i++)
        cap += (size_t)cJSON_GetArraySize(w->configs[i].labels);
    w->keys = rd_arena_alloc(&r->arena, (cap + 1) * sizeof *w->keys);
    if (!w->keys)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < w->nconfigs; i++) {
        const cJSON *l;
        cJSON_ArrayForEach(l, w->configs[i].labels) {
            bool seen = false;
            for (size_t k = 0; k < w->nkeys; k++)
                if (strcmp(w->keys[k], l->string) == 0)
                    seen = true;
            if (!seen)
                w->keys[w->nkeys++] = l->string;
        }
    }
    qsort(w->keys, w->nkeys, sizeof *w->keys, cmp_str);
    static const char *front[] = { "mechanism", "runtime" };
    for (size_t f = 0; f < 2; f++) {
        for (size_t k = 0; k < w->nkeys; k++) {
            if (strcmp(w->keys[k], front[f]) == 0) {
                const char *key = w->keys[k];
                memmove(w->keys + 1, w->keys, k * sizeof *w->keys);
                w->keys[0] = key;
                break;
            }
        }
    }
    return RD_OK;
}

rd_status rd_labels_name(const cJSON *labels, const char *const *keys, size_t nkeys,
                         struct rd_buf *b)
{
    rd_status st = RD_OK;
    size_t start = b->len;
    const cJSON *l = labels ? labels->child : NULL;
    /* Without a key order, the object's own order. */
    for (size_t k = 0; st == RD_OK && (keys ? k < nkeys : l != NULL); k++) {
        const char *key = keys ? keys[k] : l->string;
        const char *v = rd_str(labels, key);
        if (!keys)
            l = l->next;
        if (!v)
            continue;
        if (b->len > start)
            st = rd_buf_addstr(b, " / ");
        double num;
        /* A bare "4" says nothing; "workers=4" does. */
        if (st == RD_OK && parse_number(v, &num))
            st = rd_buf_addf(b, "%s=%s", key, v);
        else if (st == RD_OK)
            st = rd_buf_addstr(b, v);
    }
    return st;
}

static rd_status config_name(struct rd_report *r, struct rd_rworkload *w,
                             struct rd_rconfig *c, struct rd_buf *b)
{
    rd_status st = rd_labels_name(c->labels, w->keys, w->nkeys, b);
    size_t parts = b->len;
    if (st == RD_OK && parts == 0)
        st = rd_buf_addstr(b, c->id);
    if (st == RD_OK && !(c->name = arena_buf(&r->arena, b)))
        st = RD_ERR_NOMEM;
    return st;
}

static int runtime_index(struct rd_report *r, const char *name, size_t cap)
{
    for (size_t i = 0; i < r->nruntimes; i++)
        if (strcmp(r->runtimes[i], name) == 0)
            return (int)i;
    if (r->nruntimes >= cap)
        return -1;
    r->runtimes[r->nruntimes] = name;
    return (int)r->nruntimes++;
}

static bool better(const struct rd_rworkload *w, double a, double b)
{
    if (!isfinite(a))
        return false;
    if (!isfinite(b))
        return true;
    return w->higher ? a > b : a < b;
}

static rd_status load_workload(struct rd_report *r, struct rd_rworkload *w,
                               const cJSON *j, size_t wi, size_t *rt_cap,
                               struct rd_buf *b, struct rd_diag *d)
{
    w->json = j;
    if (!cJSON_IsObject(j))
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                           "workloads[%zu]: expected an object", wi);
    w->name = rd_str(j, "name");
    if (!w->name || !*w->name)
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                           "workloads[%zu]: expected 'name' to be a non-empty string", wi);
    w->klass = rd_str(j, "class");
    w->title = rd_str(j, "title");
    if (!w->title)
        w->title = rd_str(j, "description");
    const cJSON *primary = cJSON_GetObjectItemCaseSensitive(j, "primary");
    w->metric = rd_str(primary, "metric");
    const char *bet = rd_str(primary, "better");
    w->higher = bet && strcmp(bet, "higher") == 0;
    w->direction = w->higher                            ? "higher is better"
                   : bet && strcmp(bet, "lower") == 0 ? "lower is better"
                                                      : "no better direction";
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(j, "tests");
    w->tests = cJSON_IsObject(tests) ? tests : NULL;
    const cJSON *pairs = w->tests ? cJSON_GetObjectItemCaseSensitive(w->tests, "pairs") : NULL;
    w->pairs = cJSON_IsArray(pairs) ? pairs : NULL;
    const cJSON *rec = cJSON_GetObjectItemCaseSensitive(j, "recommendation");
    w->rec = cJSON_IsObject(rec) ? rec : NULL;
    const cJSON *warn = cJSON_GetObjectItemCaseSensitive(j, "warnings");
    w->warnings = cJSON_IsArray(warn) ? warn : NULL;

    const cJSON *configs = cJSON_GetObjectItemCaseSensitive(j, "configs");
    if (configs && !cJSON_IsArray(configs) && !cJSON_IsNull(configs))
        return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                           "workloads[%zu].configs: expected an array", wi);
    size_t n = (size_t)cJSON_GetArraySize(configs);
    w->configs = rd_arena_alloc(&r->arena, (n + 1) * sizeof *w->configs);
    if (!w->configs)
        return RD_ERR_NOMEM;
    const cJSON *c;
    cJSON_ArrayForEach(c, configs) {
        size_t ci = w->nconfigs;
        struct rd_rconfig *rc = &w->configs[w->nconfigs++];
        rc->json = c;
        rc->runtime = -1;
        rc->id = rd_str(c, "id");
        if (!cJSON_IsObject(c) || !rc->id)
            return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                               "workloads[%zu].configs[%zu]: expected 'id' to be a string", wi, ci);
        const cJSON *labels = cJSON_GetObjectItemCaseSensitive(c, "labels");
        if (cJSON_IsObject(labels)) {
            rc->labels = labels;
            const cJSON *l;
            cJSON_ArrayForEach(l, labels)
                if (!cJSON_IsString(l))
                    return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                                       "workloads[%zu].configs[%zu].labels.%.64s: expected a string",
                                       wi, ci, l->string);
        }
        rc->primary = rd_config_stats(rc, w->metric);
        const char *rt = rd_str(rc->labels, "runtime");
        if (rt) {
            if (r->nruntimes == *rt_cap) {
                size_t cap = *rt_cap ? *rt_cap * 2 : 8;
                const char **grown = realloc(r->runtimes, cap * sizeof *grown);
                if (!grown)
                    return RD_ERR_NOMEM;
                r->runtimes = grown;
                *rt_cap = cap;
            }
            rc->runtime = runtime_index(r, rt, *rt_cap);
        }
    }
    /* A primary metric that no config has is a broken analysis, not an
     * empty chart: say so now instead of letting gnuplot fail on it. */
    if (w->metric && w->nconfigs > 0) {
        bool found = false;
        for (size_t i = 0; i < w->nconfigs && !found; i++)
            found = w->configs[i].primary != NULL;
        if (!found) {
            char ex[80];
            rd_excerpt(w->metric, strlen(w->metric), 60, ex, sizeof ex);
            return rd_diag_set(d, RD_ERR_PARSE, r->path, 0, 0,
                               "workloads[%zu]: expected the primary metric '%s' in at least one config",
                               wi, ex);
        }
    }
    rd_status st = collect_keys(r, w);
    for (size_t i = 0; i < w->nconfigs && st == RD_OK; i++)
        st = config_name(r, w, &w->configs[i], b);
    if (st != RD_OK)
        return st;

    /* The analysis names best and recommended; fall back to the best mean
     * only when it does not, so an older analysis still renders. */
    w->best = rd_workload_find(w, rd_str(w->rec, "best"));
    if (w->best < 0) {
        for (size_t i = 0; i < w->nconfigs; i++)
            if (better(w, rd_num(w->configs[i].primary, "mean"),
                       w->best < 0 ? NAN : rd_num(w->configs[w->best].primary, "mean")))
                w->best = (int)i;
    }
    w->recommended = rd_workload_find(w, rd_str(w->rec, "recommended"));
    if (w->recommended < 0 && !w->rec)
        w->recommended = w->best;
    w->runner_up = -1;
    int ref = w->recommended >= 0 ? w->recommended : w->best;
    for (size_t i = 0; i < w->nconfigs; i++) {
        if ((int)i == ref)
            continue;
        if (w->runner_up < 0 ||
            better(w, rd_num(w->configs[i].primary, "mean"),
                   rd_num(w->configs[w->runner_up].primary, "mean")))
            w->runner_up = (int)i;
    }
    return RD_OK;
}

/* Anchors as GitHub makes them: duplicates get -1, -2, ... in page order.
 * 'seen' holds the anchors of the headings before the workloads. */
static rd_status unique_slug(struct rd_report *r, const char *text, const char **seen,
                             size_t *nseen, struct rd_buf *b, const char **out)
{
    rd_status st = rd_slug(b, text);
    if (st != RD_OK)
        return st;
    st = rd_name_unique(b, 1, seen, *nseen, sizeof *seen, 0);
    if (st != RD_OK)
        return st;
    if (!(*out = arena_buf(&r->arena, b)))
        return RD_ERR_NOMEM;
    seen[(*nseen)++] = *out;
    return RD_OK;
}

rd_status rd_report_init(struct rd_report *r, cJSON *root, const char *path,
                         struct rd_diag *d)
{
    memset(r, 0, sizeof *r);
    rd_arena_init(&r->arena);
    r->root = root;
    r->path = path;
    r->runs = -1;
    if (!cJSON_IsObject(root))
        return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0, "expected a JSON object");
    const char *schema = rd_str(root, "schema");
    if (!schema || strcmp(schema, RD_ANALYSIS_SCHEMA) != 0) {
        char got[80];
        rd_excerpt(schema ? schema : "", schema ? strlen(schema) : 0, 60, got, sizeof got);
        return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                           "expected schema '" RD_ANALYSIS_SCHEMA "', got '%s'", got);
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "settings");
    r->settings = cJSON_IsObject(v) ? v : NULL;
    v = cJSON_GetObjectItemCaseSensitive(root, "environments");
    r->envs = cJSON_IsArray(v) ? v : NULL;
    v = cJSON_GetObjectItemCaseSensitive(root, "replication");
    r->replication = cJSON_IsArray(v) ? v : NULL;
    v = cJSON_GetObjectItemCaseSensitive(root, "inputs");
    r->inputs = cJSON_IsArray(v) ? v : NULL;
    r->alpha = rd_num(r->settings, "alpha");
    r->confidence = rd_num(r->settings, "confidence");
    r->title = rd_str(root, "title");
    if (!r->title)
        r->title = rd_str(r->settings, "title");
    if (!r->title || !*r->title)
        r->title = "Benchmark report";
    static const char *date_keys[] = { "date", "generated_at", "created_at", "created" };
    for (size_t i = 0; i < 4 && !r->date; i++)
        r->date = rd_str(root, date_keys[i]);
    /* Else the day the runs were taken, which is in the analysis too. */
    if (!r->date && r->envs)
        r->date = rd_str(cJSON_GetArrayItem(r->envs, 0), "captured_at");

    const cJSON *wls = cJSON_GetObjectItemCaseSensitive(root, "workloads");
    if (!cJSON_IsArray(wls))
        return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0, "expected 'workloads' to be an array");
    size_t n = (size_t)cJSON_GetArraySize(wls);
    r->workloads = rd_arena_alloc(&r->arena, (n + 1) * sizeof *r->workloads);
    const char **seen = calloc(n + 8, sizeof *seen);
    if (!r->workloads || !seen) {
        free(seen);
        return RD_ERR_NOMEM;
    }
    struct rd_buf b = RD_BUF_INIT;
    size_t rt_cap = 0, nseen = 0;
    rd_status st = RD_OK;
    const char *dummy;
    /* The headings that come before the first workload in report.md. */
    const char *before[] = { r->title, "Recommendations", "Machine and software", "Method" };
    for (size_t i = 0; i < 4 && st == RD_OK; i++)
        st = unique_slug(r, before[i], seen, &nseen, &b, &dummy);
    const cJSON *j;
    double runs = 0;
    bool counted = false, bogus = false;
    cJSON_ArrayForEach(j, wls) {
        if (st != RD_OK)
            break;
        struct rd_rworkload *w = &r->workloads[r->nworkloads];
        st = load_workload(r, w, j, r->nworkloads, &rt_cap, &b, d);
        r->nworkloads++;
        if (st == RD_OK)
            st = unique_slug(r, w->name, seen, &nseen, &b, &w->slug);
        if (st == RD_OK)
            st = rd_sanitize_filename(&b, w->name, 48);
        /* Two names may sanitise to the same stem ("a/b" and "a_b"). */
        if (st == RD_OK)
            st = rd_name_unique(&b, 2, r->workloads, r->nworkloads - 1, sizeof *r->workloads,
                                offsetof(struct rd_rworkload, file));
        if (st == RD_OK && !(w->file = arena_buf(&r->arena, &b)))
            st = RD_ERR_NOMEM;
        /* n is data: a count the report can state is a whole number, and
         * converting anything past long to long is undefined. */
        for (size_t i = 0; st == RD_OK && i < w->nconfigs; i++) {
            double nn = rd_num(w->configs[i].primary, "n");
            if (!isfinite(nn))
                continue;
            if (nn >= 0 && nn <= RUNS_MAX && nn == floor(nn))
                runs += nn;
            else
                bogus = true;
            counted = true;
        }
    }
    if (counted && !bogus && runs <= RUNS_MAX)
        r->runs = (long)runs;
    rd_buf_release(&b);
    free(seen);
    return st;
}

/* cJSON copies bytes inside strings as they are, so without this check a
 * stray 0xff reaches report.md, the HTML and the workbook (which Excel then
 * refuses to open). JSON escapes need no check: cJSON rejects lone
 * surrogates. core's rd_utf8_valid_len is the validator. */
static rd_status check_utf8(const char *text, size_t len, const char *path,
                            struct rd_diag *d)
{
    size_t bad = rd_utf8_invalid_at(text, len);
    if (bad < len)
        return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                           "expected UTF-8 text, got byte 0x%02x", (unsigned char)text[bad]);
    return RD_OK;
}

rd_status rd_report_parse(struct rd_report *r, const char *text, size_t len,
                          const char *shown, const char *path, struct rd_diag *d)
{
    cJSON *root = NULL;
    memset(r, 0, sizeof *r);
    /* JSON first: for a file that is not JSON at all, "expected JSON at
     * 1:1" says more than the first odd byte. */
    rd_status st = rd_json_parse(text, len, shown, 1, &root, d);
    if (st == RD_OK)
        st = check_utf8(text, len, shown, d);
    if (st != RD_OK) {
        cJSON_Delete(root);
        return st;
    }
    return rd_report_init(r, root, path, d);
}

rd_status rd_report_load(struct rd_report *r, const char *path, struct rd_diag *d)
{
    struct rd_buf text = RD_BUF_INIT;
    const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
    memset(r, 0, sizeof *r);
    rd_status st = rd_read_file(path, 0, &text, d);
    if (st == RD_OK)
        st = rd_report_parse(r, text.ptr, text.len, shown, path, d);
    rd_buf_release(&text);
    return st;
}

void rd_report_release(struct rd_report *r)
{
    cJSON_Delete(r->root);
    free(r->runtimes);
    rd_arena_release(&r->arena);
    memset(r, 0, sizeof *r);
}
