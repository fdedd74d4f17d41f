/*
 * suite.c - reads rundown.suite/1 into struct rd_suite (docs/suite.md is
 * the specification). Placeholders are suiteexpand.c, the run plan plan.c.
 *
 * Everything that can be wrong with a suite is found here, before a single
 * process starts: unknown keys (a typo must not silently change an
 * experiment), bad types, a matrix label naming an unknown runtime, and
 * unknown placeholders — every template is expanded for every config while
 * loading, so an error cannot hide in a config that runs an hour later.
 * The JSON tree is only read here; the suite keeps its own copies in an
 * arena, so the rest of collect never sees cJSON.
 */
#include "suite.h"

#include <ctype.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contention.h"
#include "httpprobe.h"
#include "labels.h"
#include "plan.h"
#include "proc.h"
#include "suiteexpand.h"
#include "rundown/buf.h"
#include "rundown/fsutil.h"
#include "rundown/json.h"
#include "rundown/metrics.h"

/* Keys a workload may set, and which of them the top level may default. */
static const char *const workload_keys[] = {
    "name", "class", "description", "primary", "tie_breaker", "matrix", "exclude", "include",
    "command", "server", "load", "load_tool", "url", "ready_url", "port", "host",
    "background", "runs", "warmups", "warmup_load", "timeout", "ready_timeout",
    "stop_timeout", "cpus", "server_cpus", "load_cpus", "background_cpus", "env", "cwd",
    "shell", "better", "until", "margin", "precision", "compare_within", "keep_racing", "blocks",
    NULL,
};
static const char *const default_keys[] = {
    "runs", "until", "margin", "precision", "warmups", "warmup_load", "timeout", "ready_timeout", "stop_timeout", "cpus",
    "server_cpus", "load_cpus", "background_cpus", "env", "port", "host", "cwd", "shell",
    NULL,
};
static const char *const top_keys[] = {
    "schema", "name", "description", "root", "order", "seed", "runtimes", "tools",
    "workloads", "contention", NULL,
};

struct ctx {
    struct rd_suite *s;
    struct rd_diag *d;
    const char *where;  /* "workload 'x'" or "runtime 'y'" for messages */
    char where_buf[200];  /* what where points to: no static buffer, so a
                           * parse is reentrant */
};

static rd_status fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static rd_status fail(struct ctx *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->where)
        return rd_diag_set(c->d, RD_ERR_PARSE, c->s->path, 0, 0, "%s: %s", c->where, msg);
    return rd_diag_set(c->d, RD_ERR_PARSE, c->s->path, 0, 0, "%s", msg);
}

static bool in_list(const char *key, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(key, *list) == 0)
            return true;
    return false;
}

static rd_status check_keys(struct ctx *c, const cJSON *obj, const char *const *a,
                            const char *const *b)
{
    for (const cJSON *it = obj->child; it; it = it->next)
        if (!in_list(it->string, a) && !(b && in_list(it->string, b)))
            return fail(c, "unknown key '%s'", it->string);
    return RD_OK;
}

static bool valid_name(const char *s)
{
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' && *s != '-')
            return false;
    return true;
}

static char *sdup(struct ctx *c, const char *s)
{
    return rd_arena_strdup(&c->s->arena, s);
}

/* Whether v is a JSON string or number: what a label value may be. */
static bool is_scalar(const cJSON *v)
{
    return cJSON_IsString(v) || cJSON_IsNumber(v);
}

/* The label text of scalar v ("4" for 4), in b for a number. */
static const char *scalar_view(const cJSON *v, char b[32])
{
    return cJSON_IsString(v) ? v->valuestring : rd_fmt_double(v->valuedouble, b);
}

/* A copy of scalar v's label text in the arena; NULL only when memory
 * ran out (the callers check is_scalar first). */
static char *scalar_text(struct ctx *c, const cJSON *v)
{
    char b[32];
    return sdup(c, scalar_view(v, b));
}

/* An argv: a list of strings, or one string split at blanks. */
static rd_status parse_strv(struct ctx *c, const cJSON *v, const char *what, struct rd_strv *out)
{
    out->v = NULL;
    out->n = 0;
    if (cJSON_IsString(v)) {
        char *copy = sdup(c, v->valuestring);
        if (!copy)
            return RD_ERR_NOMEM;
        size_t n = 0;
        for (char *p = copy; *p;) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            n++;
            while (*p && *p != ' ' && *p != '\t')
                p++;
        }
        out->v = rd_arena_alloc(&c->s->arena, (n + 1) * sizeof *out->v);
        if (!out->v)
            return RD_ERR_NOMEM;
        char *save = NULL;
        for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
            out->v[out->n++] = tok;
    } else if (cJSON_IsArray(v)) {
        size_t n = (size_t)cJSON_GetArraySize(v);
        out->v = rd_arena_alloc(&c->s->arena, (n + 1) * sizeof *out->v);
        if (!out->v)
            return RD_ERR_NOMEM;
        for (const cJSON *it = v->child; it; it = it->next) {
            if (!cJSON_IsString(it))
                return fail(c, "expected '%s' to be a list of strings", what);
            if (!(out->v[out->n++] = sdup(c, it->valuestring)))
                return RD_ERR_NOMEM;
        }
    } else {
        return fail(c, "expected '%s' to be a list of strings or a string", what);
    }
    if (out->n == 0)
        return fail(c, "'%s' is empty", what);
    return RD_OK;
}

static rd_status parse_env(struct ctx *c, const cJSON *v, struct rd_suite_kv **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!v)
        return RD_OK;
    if (!cJSON_IsObject(v))
        return fail(c, "expected 'env' to be an object of strings");
    size_t cnt = (size_t)cJSON_GetArraySize(v);
    *out = rd_arena_alloc(&c->s->arena, (cnt + 1) * sizeof **out);
    if (!*out)
        return RD_ERR_NOMEM;
    for (const cJSON *it = v->child; it; it = it->next) {
        if (!is_scalar(it) || !*it->string || strchr(it->string, '='))
            return fail(c, "expected 'env' entry '%s' to be a string with a name without '='",
                        it->string);
        char *val = scalar_text(c, it);
        if (!val || !((*out)[*n].key = sdup(c, it->string)))
            return RD_ERR_NOMEM;
        (*out)[(*n)++].value = val;
    }
    return RD_OK;
}

/* "better": {"NAME": "lower"|"higher", ...}: la gets the pairs (strings in
 * the arena), *out the info.metric_better text (NULL when absent). */
static rd_status parse_better(struct ctx *c, const cJSON *v, struct rd_label_args *la,
                              char **out)
{
    rd_label_args_init(la);
    *out = NULL;
    if (!v)
        return RD_OK;
    if (!cJSON_IsObject(v))
        return fail(c, "expected 'better' to be an object of metric names and \"lower\" or "
                       "\"higher\"");
    for (const cJSON *it = v->child; it; it = it->next) {
        const char *dir = cJSON_IsString(it) ? it->valuestring : "";
        size_t len = strlen(it->string) + strlen(dir) + 2;
        char *arg = rd_arena_alloc(&c->s->arena, len);
        if (!arg)
            return RD_ERR_NOMEM;
        snprintf(arg, len, "%s=%s", it->string, dir);
        if (rd_better_args_add(la, arg))
            return fail(c, "expected 'better.%s' to be \"lower\" or \"higher\" for a metric "
                           "name of lower-case letters, digits and '_'", it->string);
    }
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = rd_better_args_format(la, &b);
    if (!st && !(*out = sdup(c, b.ptr ? b.ptr : "")))
        st = RD_ERR_NOMEM;
    rd_buf_release(&b);
    return st;
}

/* The workload's value for key, else the suite-level default. */
static const cJSON *get(const cJSON *w, const cJSON *top, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(w, key);
    if (!v && in_list(key, default_keys))
        v = cJSON_GetObjectItemCaseSensitive(top, key);
    return v;
}

static rd_status get_long(struct ctx *c, const cJSON *w, const cJSON *top, const char *key,
                          long def, long min, long *out)
{
    const cJSON *v = get(w, top, key);
    *out = def;
    if (!v)
        return RD_OK;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < (double)min || v->valuedouble > 1e9)
        return fail(c, "expected '%s' to be a whole number >= %ld", key, min);
    *out = (long)v->valuedouble;
    return RD_OK;
}

static rd_status get_secs(struct ctx *c, const cJSON *w, const cJSON *top, const char *key,
                          double def, bool zero_ok, double *out)
{
    const cJSON *v = get(w, top, key);
    *out = def;
    if (!v)
        return RD_OK;
    if (!cJSON_IsNumber(v) || !(zero_ok ? v->valuedouble >= 0 : v->valuedouble > 0) ||
        v->valuedouble > 1e7)
        return fail(c, "expected '%s' to be a number of seconds %s 0", key, zero_ok ? ">=" : ">");
    *out = v->valuedouble;
    return RD_OK;
}

static rd_status get_str(struct ctx *c, const cJSON *w, const cJSON *top, const char *key,
                         const char *def, char **out)
{
    const cJSON *v = get(w, top, key);
    *out = def ? sdup(c, def) : NULL;
    if (def && !*out)
        return RD_ERR_NOMEM;
    if (!v)
        return RD_OK;
    if (!cJSON_IsString(v))
        return fail(c, "expected '%s' to be a string", key);
    *out = sdup(c, v->valuestring);
    return *out ? RD_OK : RD_ERR_NOMEM;
}

static rd_status get_cpus(struct ctx *c, const cJSON *w, const cJSON *top, const char *key,
                          char **out)
{
    rd_status st = get_str(c, w, top, key, NULL, out);
    unsigned char mask[128];
    if (!st && *out && !rd_cpulist_parse(*out, mask))
        return fail(c, "expected '%s' to be a CPU list like \"0\" or \"0-1,3\", got '%s'", key,
                    *out);
    return st;
}

static rd_status check_version_cmd(struct ctx *c, const struct rd_strv *v)
{
    char bad[64];
    for (size_t i = 0; i < v->n; i++)
        if (!rd_suite_version_template_ok(v->v[i], bad, sizeof bad))
            return fail(c, "expected only {root} as a placeholder in version_cmd, got '%s' "
                           "(write {{ for a literal brace)", bad);
    return RD_OK;
}

/* ---- parsing ---- */

/* A fraction in (0, 1): a margin or a precision target. */
static rd_status get_fraction(struct ctx *c, const cJSON *w, const cJSON *top, const char *key,
                              double def, double *out)
{
    const cJSON *v = get(w, top, key);
    *out = def;
    if (!v)
        return RD_OK;
    if (!cJSON_IsNumber(v) || !(v->valuedouble > 0 && v->valuedouble < 1))
        return fail(c, "expected '%s' to be a fraction between 0 and 1 (0.05 for 5 %%)", key);
    *out = v->valuedouble;
    return RD_OK;
}

/* "runs": N, or {"min": A, "max": B} with "until": "settled" (an adaptive
 * workload, docs/suite.md "Adaptive runs"); the margin and the precision
 * target that goes with it. */
static rd_status parse_runs(struct ctx *c, const cJSON *wj, const cJSON *top,
                            struct rd_suite_workload *w)
{
    const cJSON *runs = get(wj, top, "runs");
    char *until;
    RD_TRY(get_str(c, wj, top, "until", NULL, &until));
    if (until && strcmp(until, "settled") != 0)
        return fail(c, "expected 'until' to be \"settled\", got '%s'", until);
    /* A workload giving its own whole number of runs is fixed, whatever
     * the top level's "until" says. */
    w->settle = until != NULL && cJSON_IsObject(runs);
    RD_TRY(get_fraction(c, wj, top, "margin", NAN, &w->margin));
    RD_TRY(get_fraction(c, wj, top, "precision", (isnan(w->margin) ? 0.05 : w->margin) / 2,
                        &w->precision));
    if (!cJSON_IsObject(runs)) {
        if (until && cJSON_GetObjectItemCaseSensitive(wj, "until"))
            return fail(c, "'until': \"settled\" needs 'runs' as {\"min\": N, \"max\": M}");
        RD_TRY(get_long(c, wj, top, "runs", 10, 1, &w->runs));
        w->runs_min = w->runs;
        return RD_OK;
    }
    for (const cJSON *it = runs->child; it; it = it->next)
        if (strcmp(it->string, "min") && strcmp(it->string, "max"))
            return fail(c, "unknown key 'runs.%s'", it->string);
    if (!w->settle)
        return fail(c, "'runs' as {\"min\", \"max\"} needs \"until\": \"settled\"");
    if (c->s->order == RD_ORDER_GROUPED)
        return fail(c, "\"until\": \"settled\" decides round by round: use order "
                       "\"interleaved\" or \"random\", not \"grouped\"");
    const cJSON *lo = cJSON_GetObjectItemCaseSensitive(runs, "min");
    const cJSON *hi = cJSON_GetObjectItemCaseSensitive(runs, "max");
    if (!lo || !hi)
        return fail(c, "expected 'runs' to give both 'min' and 'max'");
    RD_TRY(get_long(c, runs, NULL, "min", 0, 2, &w->runs_min));
    RD_TRY(get_long(c, runs, NULL, "max", 0, 2, &w->runs));
    if (w->runs < w->runs_min)
        return fail(c, "expected 'runs.max' (%ld) to be at least 'runs.min' (%ld)", w->runs,
                    w->runs_min);
    return RD_OK;
}

/* The values of the matrix, in the order the file gives them: a label
 * and its list each; nv[k] values of label k in vals[k]. */
struct matrix {
    size_t *nv;
    char ***vals;
    size_t total;  /* configs before 'exclude' and 'include' */
};

/* One label of "matrix", number k: a name, and a non-empty list of
 * distinct strings or numbers. */
static rd_status matrix_label(struct ctx *c, const cJSON *it, size_t k,
                              struct rd_suite_workload *w, struct matrix *mx)
{
    if (!valid_name(it->string))
        return fail(c, "expected matrix labels made of letters, digits, '.', '_', '-', got '%s'",
                    it->string);
    if (!(w->keys[k] = sdup(c, it->string)))
        return RD_ERR_NOMEM;
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) == 0)
        return fail(c, "expected matrix '%s' to be a non-empty list", it->string);
    size_t n = mx->nv[k] = (size_t)cJSON_GetArraySize(it);
    if (!(mx->vals[k] = rd_arena_alloc(&c->s->arena, n * sizeof **mx->vals)))
        return RD_ERR_NOMEM;
    size_t i = 0;
    for (const cJSON *v = it->child; v; v = v->next, i++) {
        if (!is_scalar(v))
            return fail(c, "expected matrix '%s' values to be strings or numbers", it->string);
        if (!(mx->vals[k][i] = scalar_text(c, v)))
            return RD_ERR_NOMEM;
        for (size_t j = 0; j < i; j++)
            if (strcmp(mx->vals[k][j], mx->vals[k][i]) == 0)
                return fail(c, "matrix '%s' lists '%s' twice", it->string, mx->vals[k][i]);
    }
    if (mx->total > 100000 / n)
        return fail(c, "the matrix has more than 100000 configs");
    mx->total *= n;
    return RD_OK;
}

/* "matrix": an object of label -> list of values; every label once. */
static rd_status matrix_labels(struct ctx *c, const cJSON *m, struct rd_suite_workload *w,
                               struct matrix *mx)
{
    if (m && !cJSON_IsObject(m))
        return fail(c, "expected 'matrix' to be an object of label -> list of values");
    w->nkeys = m ? (size_t)cJSON_GetArraySize(m) : 0;
    w->keys = rd_arena_alloc(&c->s->arena, (w->nkeys + 1) * sizeof *w->keys);
    mx->nv = calloc(w->nkeys + 1, sizeof *mx->nv);
    mx->vals = calloc(w->nkeys + 1, sizeof *mx->vals);
    mx->total = 1;
    if (!w->keys || !mx->nv || !mx->vals)
        return RD_ERR_NOMEM;
    size_t k = 0;
    for (const cJSON *it = m ? m->child : NULL; it; it = it->next, k++)
        RD_TRY(matrix_label(c, it, k, w, mx));
    for (size_t a = 0; a < w->nkeys; a++)
        for (size_t b = 0; b < a; b++)
            if (strcmp(w->keys[a], w->keys[b]) == 0)
                return fail(c, "matrix label '%s' appears twice", w->keys[a]);
    return RD_OK;
}

/* The index of matrix label key in w, or w->nkeys. */
static size_t label_index(const struct rd_suite_workload *w, const char *key)
{
    size_t j;
    for (j = 0; j < w->nkeys && strcmp(w->keys[j], key) != 0; j++)
        ;
    return j;
}

/* The entries of a list of config filters ("exclude", "keep_racing"):
 * non-empty objects of matrix label -> value. */
static rd_status check_filters(struct ctx *c, const cJSON *list, const char *what,
                               const struct rd_suite_workload *w)
{
    for (const cJSON *e = list ? list->child : NULL; e; e = e->next) {
        if (!cJSON_IsObject(e) || !e->child)
            return fail(c, "expected each '%s' entry to be a non-empty object", what);
        for (const cJSON *kv = e->child; kv; kv = kv->next) {
            if (label_index(w, kv->string) == w->nkeys)
                return fail(c, "'%s' names '%s', which is not a matrix label", what, kv->string);
            if (!is_scalar(kv))
                return fail(c, "expected '%s' values to be strings or numbers", what);
        }
    }
    return RD_OK;
}

/* Whether filter e (an object of label -> value) matches the config row
 * (values in label order). */
static bool filter_matches(const cJSON *e, const struct rd_suite_workload *w, char *const *row)
{
    bool all = true;
    for (const cJSON *kv = e->child; kv && all; kv = kv->next) {
        char b[32];
        all = strcmp(row[label_index(w, kv->string)], scalar_view(kv, b)) == 0;
    }
    return all;
}

/* Whether an entry of the list matches the config row. */
static bool any_filter_matches(const cJSON *list, const struct rd_suite_workload *w,
                               char *const *row)
{
    for (const cJSON *e = list ? list->child : NULL; e; e = e->next)
        if (filter_matches(e, w, row))
            return true;
    return false;
}

/* Every combination of the values, the first label slowest, less those
 * "exclude" matches, into w->configs (room for nin more). */
static rd_status expand_matrix(struct ctx *c, const cJSON *ex, size_t nin,
                               struct rd_suite_workload *w, const struct matrix *mx)
{
    w->configs = rd_arena_alloc(&c->s->arena,
                                (mx->total + nin) * (w->nkeys ? w->nkeys : 1) * sizeof(char *));
    size_t *idx = calloc(w->nkeys + 1, sizeof *idx);
    if (!w->configs || !idx) {
        free(idx);
        return RD_ERR_NOMEM;
    }
    w->nconfigs = 0;
    for (size_t t = 0; t < mx->total; t++) {
        /* Mixed-radix counter, first key slowest. */
        size_t rem = t;
        for (size_t j = w->nkeys; j-- > 0;) {
            idx[j] = rem % mx->nv[j];
            rem /= mx->nv[j];
        }
        char **row = &w->configs[w->nconfigs * w->nkeys];
        for (size_t j = 0; j < w->nkeys; j++)
            row[j] = mx->vals[j][idx[j]];
        if (!any_filter_matches(ex, w, row))
            w->nconfigs++;
    }
    free(idx);
    return RD_OK;
}

/* "include": configs added after the matrix, each giving every label a
 * value; one the matrix already has is not added twice. */
static rd_status add_includes(struct ctx *c, const cJSON *in, struct rd_suite_workload *w)
{
    for (const cJSON *e = in ? in->child : NULL; e; e = e->next) {
        if (!cJSON_IsObject(e) || (size_t)cJSON_GetArraySize(e) != w->nkeys)
            return fail(c, "expected each 'include' entry to give a value for every matrix label");
        char **row = &w->configs[w->nconfigs * w->nkeys];
        for (size_t j = 0; j < w->nkeys; j++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, w->keys[j]);
            if (!is_scalar(v))
                return fail(c, "expected 'include' to give '%s' as a string or number", w->keys[j]);
            if (!(row[j] = scalar_text(c, v)))
                return RD_ERR_NOMEM;
        }
        bool dupl = false;
        for (size_t r = 0; r < w->nconfigs && !dupl; r++) {
            bool same = true;
            for (size_t j = 0; j < w->nkeys && same; j++)
                same = strcmp(w->configs[r * w->nkeys + j], row[j]) == 0;
            dupl = same;
        }
        if (!dupl)
            w->nconfigs++;
    }
    return RD_OK;
}

/* "matrix", "exclude" and "include": the workload's configs. */
static rd_status parse_matrix(struct ctx *c, const cJSON *wj, struct rd_suite_workload *w)
{
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(wj, "exclude");
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(wj, "include");
    struct matrix mx = {0};
    rd_status st = matrix_labels(c, cJSON_GetObjectItemCaseSensitive(wj, "matrix"), w, &mx);
    if (!st && ex && !cJSON_IsArray(ex))
        st = fail(c, "expected 'exclude' to be a list of objects");
    if (!st && in && !cJSON_IsArray(in))
        st = fail(c, "expected 'include' to be a list of objects");
    if (!st)
        st = check_filters(c, ex, "exclude", w);
    if (!st)
        st = expand_matrix(c, ex, in ? (size_t)cJSON_GetArraySize(in) : 0, w, &mx);
    if (!st)
        st = add_includes(c, in, w);
    if (!st && w->nconfigs == 0)
        st = fail(c, "'exclude' removes every config");
    free(mx.nv);
    free(mx.vals);
    return st;
}

/* "compare_within": ["tasks"], labels of the matrix whose values are
 * separate questions (docs/suite.md); kept as "tasks,..." for the runs'
 * info. */
static rd_status parse_within(struct ctx *c, const cJSON *v, struct rd_suite_workload *w)
{
    if (!v)
        return RD_OK;
    if (!cJSON_IsArray(v))
        return fail(c, "expected 'compare_within' to be an array of label names");
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (const cJSON *it = v->child; it && !st; it = it->next) {
        if (!cJSON_IsString(it) || !*it->valuestring || strchr(it->valuestring, ',')) {
            st = fail(c, "expected 'compare_within' to hold label names of the matrix");
            break;
        }
        size_t k;
        for (k = 0; k < w->nkeys && strcmp(w->keys[k], it->valuestring); k++)
            ;
        if (k == w->nkeys) {
            char have[300] = "";
            size_t len = 0;
            for (size_t j = 0; j < w->nkeys && len < sizeof have; j++)
                len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", j ? ", " : "",
                                        w->keys[j]);
            st = fail(c, "'compare_within' names '%s', which is not a label of its matrix "
                         "(expected one of: %s)",
                      it->valuestring, *have ? have : "none");
            break;
        }
        if ((b.len && (st = rd_buf_addch(&b, ','))) || (st = rd_buf_addstr(&b, it->valuestring)))
            break;
    }
    if (!st && b.len && !(w->compare_within = sdup(c, b.ptr)))
        st = RD_ERR_NOMEM;
    rd_buf_release(&b);
    return st;
}

/* "keep_racing": [{"runtime": "deno"}, ...], filters of the configs the
 * race never eliminates (stats/settle.h, rd_settle_race): those a
 * published claim compares, which a study must go on measuring although
 * they are slower than the best. Each entry must match a config. */
static rd_status parse_keep(struct ctx *c, const cJSON *v, struct rd_suite_workload *w)
{
    if (!v)
        return RD_OK;
    if (!cJSON_IsArray(v))
        return fail(c, "expected 'keep_racing' to be an array of objects of matrix label -> "
                       "value");
    if (!w->settle)
        return fail(c, "'keep_racing' keeps configs in the race of an adaptive workload: it "
                       "needs \"until\": \"settled\"");
    RD_TRY(check_filters(c, v, "keep_racing", w));
    if (!(w->keep_racing = rd_arena_alloc(&c->s->arena,
                                          (w->nconfigs ? w->nconfigs : 1) * sizeof(bool))))
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < w->nconfigs; i++)
        w->keep_racing[i] = false;
    for (const cJSON *e = v->child; e; e = e->next) {
        bool matched = false;
        for (size_t i = 0; i < w->nconfigs; i++)
            if (filter_matches(e, w, &w->configs[i * w->nkeys])) {
                w->keep_racing[i] = true;
                matched = true;
            }
        if (!matched) {
            char *text = cJSON_PrintUnformatted(e);
            rd_status st = fail(c, "'keep_racing' entry %s matches no config of the matrix",
                                text ? text : "");
            cJSON_free(text);
            return st;
        }
    }
    return RD_OK;
}

/* "class": a lower-case word (cpu, io, mixed, startup, fileio, ...). */
static rd_status parse_class(struct ctx *c, const cJSON *wj, struct rd_suite_workload *w)
{
    const char *klass = rd_json_str(wj, "class");
    if (!klass || !*klass)
        return fail(c, "expected a 'class' (cpu, io, mixed, startup, fileio, ...)");
    for (const char *p = klass; *p; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-' && *p != '_')
            return fail(c, "expected 'class' to be a lower-case word, got '%s'", klass);
    return (w->klass = sdup(c, klass)) ? RD_OK : RD_ERR_NOMEM;
}

/* "blocks": "round" has the analysis compare the configs within rounds
 * (docs/methods.md §6, "Paired within rounds"); "none" does not. */
static rd_status parse_blocks(struct ctx *c, const cJSON *wj, struct rd_suite_workload *w)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(wj, "blocks");
    if (!b)
        return RD_OK;
    if (!cJSON_IsString(b) || (strcmp(b->valuestring, "round") != 0 &&
                               strcmp(b->valuestring, "none") != 0))
        return fail(c, "expected 'blocks' to be \"round\" or \"none\"");
    return (w->blocks = sdup(c, b->valuestring)) ? RD_OK : RD_ERR_NOMEM;
}

/* What runs: a "command", or a "server" with its "load" (and a
 * "background"); "shell" says whether they go through sh -c. */
static rd_status parse_commands(struct ctx *c, const cJSON *wj, const cJSON *top,
                                struct rd_suite_workload *w)
{
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(wj, "command");
    const cJSON *srv = cJSON_GetObjectItemCaseSensitive(wj, "server");
    const cJSON *load = cJSON_GetObjectItemCaseSensitive(wj, "load");
    const cJSON *bg = cJSON_GetObjectItemCaseSensitive(wj, "background");
    if (!!cmd == !!srv)
        return fail(c, "expected one of 'command' or 'server'");
    w->is_server = srv != NULL;
    if (w->is_server && !load)
        return fail(c, "a 'server' workload needs a 'load' command");
    if (!w->is_server && (load || bg))
        return fail(c, "'%s' needs a 'server'", load ? "load" : "background");
    const cJSON *sh = get(wj, top, "shell");
    if (sh && !cJSON_IsBool(sh))
        return fail(c, "expected 'shell' to be true or false");
    w->shell = sh && cJSON_IsTrue(sh);
    rd_status st = RD_OK;
    if ((cmd && (st = parse_strv(c, cmd, "command", &w->command))) ||
        (srv && (st = parse_strv(c, srv, "server", &w->server))) ||
        (load && (st = parse_strv(c, load, "load", &w->load))) ||
        (bg && (st = parse_strv(c, bg, "background", &w->background))))
        return st;
    return RD_OK;
}

/* "primary": a metric name or {"metric", "better"} (rps for a server,
 * wall_ms otherwise); which way is better comes from it, from "better",
 * or from the metric registry, else it is an error. Then "better" and
 * "tie_breaker". */
static rd_status parse_primary(struct ctx *c, const cJSON *wj, const cJSON *top,
                               struct rd_suite_workload *w)
{
    const cJSON *prim = cJSON_GetObjectItemCaseSensitive(wj, "primary");
    const char *pm = w->is_server ? "rps" : "wall_ms", *pb = NULL;
    if (cJSON_IsString(prim)) {
        pm = prim->valuestring;
    } else if (cJSON_IsObject(prim)) {
        for (const cJSON *it = prim->child; it; it = it->next)
            if (strcmp(it->string, "metric") && strcmp(it->string, "better"))
                return fail(c, "unknown key 'primary.%s'", it->string);
        pm = rd_json_str(prim, "metric");
        pb = rd_json_str(prim, "better");
        if (!pm)
            return fail(c, "expected 'primary.metric' to be a metric name");
    } else if (prim) {
        return fail(c, "expected 'primary' to be a metric name or {\"metric\", \"better\"}");
    }
    if (!*pm)
        return fail(c, "expected 'primary' to name a metric");
    if (pb && strcmp(pb, "lower") && strcmp(pb, "higher"))
        return fail(c, "expected 'primary.better' to be \"lower\" or \"higher\", got '%s'", pb);
    struct rd_label_args better;
    RD_TRY(parse_better(c, cJSON_GetObjectItemCaseSensitive(wj, "better"), &better,
                        &w->metric_better));
    for (size_t k = 0; !pb && k < better.len; k++)
        if (strcmp(better.keys[k], pm) == 0)
            pb = better.values[k];
    if (!pb) {
        struct rd_metric_def def;
        rd_metric_describe(pm, &def);
        if (def.better == RD_BETTER_NONE)
            return fail(c, "say whether lower or higher is better for the primary metric '%s' "
                           "(\"primary\": {\"metric\": \"%s\", \"better\": ...})", pm, pm);
        pb = rd_better_name(def.better);
    }
    w->primary_metric = sdup(c, pm);
    w->primary_better = sdup(c, pb);
    if (!w->primary_metric || !w->primary_better)
        return RD_ERR_NOMEM;
    return get_str(c, wj, top, "tie_breaker",
                   w->is_server ? "server_rss_peak_kib" : "tree_rss_peak_kib", &w->tie_breaker);
}

/* Runs, warm-ups, time limits, CPU lists, the working folder, the load
 * tool and the environment, each with the top level's default. */
static rd_status parse_run_settings(struct ctx *c, const cJSON *wj, const cJSON *top,
                                    struct rd_suite_workload *w)
{
    rd_status st;
    if ((st = parse_runs(c, wj, top, w)) ||
        (st = get_long(c, wj, top, "warmups", 0, 0, &w->warmups)) ||
        (st = get_secs(c, wj, top, "warmup_load", 0, true, &w->warmup_load)) ||
        (st = get_secs(c, wj, top, "timeout", 600, false, &w->timeout)) ||
        (st = get_secs(c, wj, top, "ready_timeout", 30, false, &w->ready_timeout)) ||
        (st = get_secs(c, wj, top, "stop_timeout", 5, false, &w->stop_timeout)) ||
        (st = get_cpus(c, wj, top, "cpus", &w->cpus)) ||
        (st = get_cpus(c, wj, top, "server_cpus", &w->server_cpus)) ||
        (st = get_cpus(c, wj, top, "load_cpus", &w->load_cpus)) ||
        (st = get_cpus(c, wj, top, "background_cpus", &w->background_cpus)) ||
        (st = get_str(c, wj, top, "cwd", "{root}", &w->cwd)) ||
        (st = get_str(c, wj, top, "load_tool", NULL, &w->load_tool)))
        return st;
    return parse_env(c, get(wj, top, "env"), &w->env, &w->nenv);
}

/* "port" (0 picks a free one; a server needs one), "host", and the
 * "url" and "ready_url" a port gives. */
static rd_status parse_address(struct ctx *c, const cJSON *wj, const cJSON *top,
                               struct rd_suite_workload *w)
{
    const cJSON *port = get(wj, top, "port");
    if (port && (!cJSON_IsNumber(port) || port->valuedouble != floor(port->valuedouble) ||
                 port->valuedouble < 0 || port->valuedouble > 65535))
        return fail(c, "expected 'port' to be a whole number 0-65535");
    if (w->is_server && !port)
        return fail(c, "a 'server' workload needs a 'port' (0 picks a free one)");
    w->port = port ? (int)port->valuedouble : -1;
    if (w->port == 0) {
        w->port = rd_port_pick_free();
        if (w->port == 0)
            return fail(c, "no free loopback port for 'port': 0");
    }
    RD_TRY(get_str(c, wj, top, "host", "127.0.0.1", &w->host));
    if (w->is_server || port) {
        RD_TRY(get_str(c, wj, top, "url", "http://{host}:{port}/", &w->url));
        return get_str(c, wj, top, "ready_url", w->url, &w->ready_url);
    }
    if (cJSON_GetObjectItemCaseSensitive(wj, "url") ||
        cJSON_GetObjectItemCaseSensitive(wj, "ready_url"))
        return fail(c, "'url' needs a 'server' or a 'port'");
    return RD_OK;
}

/* Every value of a "runtime" label names one of the suite's runtimes. */
static rd_status check_runtime_labels(struct ctx *c, const struct rd_suite_workload *w)
{
    for (size_t k = 0; k < w->nkeys; k++) {
        if (strcmp(w->keys[k], "runtime") != 0)
            continue;
        for (size_t i = 0; i < w->nconfigs; i++) {
            const char *v = rd_suite_value(w, i, k);
            size_t r;
            for (r = 0; r < c->s->nruntimes && strcmp(c->s->runtimes[r].name, v); r++)
                ;
            if (r == c->s->nruntimes)
                return fail(c, "'runtime' label value '%s' is not in runtimes", v);
        }
    }
    return RD_OK;
}

/* One entry of "workloads"; top gives the defaults. Messages name the
 * workload from its name on. */
static rd_status parse_workload(struct ctx *c, const cJSON *wj, const cJSON *top,
                                struct rd_suite_workload *w)
{
    if (!cJSON_IsObject(wj))
        return fail(c, "expected each workload to be an object");
    const char *name = rd_json_str(wj, "name");
    if (!valid_name(name))
        return fail(c, "expected each workload to have a 'name' of letters, digits, '.', '_', '-'");
    if (!(w->name = sdup(c, name)))
        return RD_ERR_NOMEM;
    snprintf(c->where_buf, sizeof c->where_buf, "workload '%s'", w->name);
    c->where = c->where_buf;
    RD_TRY(check_keys(c, wj, workload_keys, NULL));
    RD_TRY(parse_class(c, wj, w));
    RD_TRY(parse_commands(c, wj, top, w));
    RD_TRY(parse_primary(c, wj, top, w));
    RD_TRY(parse_run_settings(c, wj, top, w));
    RD_TRY(parse_address(c, wj, top, w));
    RD_TRY(parse_matrix(c, wj, w));
    RD_TRY(parse_within(c, cJSON_GetObjectItemCaseSensitive(wj, "compare_within"), w));
    RD_TRY(parse_keep(c, cJSON_GetObjectItemCaseSensitive(wj, "keep_racing"), w));
    RD_TRY(parse_blocks(c, wj, w));
    return check_runtime_labels(c, w);
}

/* Expands every template of every config once, so placeholders fail now. */
static rd_status check_templates(struct rd_suite *s, size_t wi, struct rd_diag *d)
{
    const struct rd_suite_workload *w = &s->workloads[wi];
    struct rd_arena tmp;
    rd_arena_init(&tmp);
    rd_status st = RD_OK;
    for (size_t c = 0; c < w->nconfigs && !st; c++) {
        char **argv, *str;
        for (int f = RD_FIELD_COMMAND; f <= RD_FIELD_BACKGROUND && !st; f++)
            st = rd_suite_expand_argv(s, wi, c, (enum rd_suite_field)f, &tmp, &argv, d);
        if (!st && w->url)
            st = rd_suite_expand_string(s, wi, c, w->url, "url", &tmp, &str, d);
        if (!st && w->ready_url)
            st = rd_suite_expand_string(s, wi, c, w->ready_url, "ready_url", &tmp, &str, d);
        if (!st && w->ready_url) {
            char host[256], path[2048];
            int port;
            struct rd_diag ud;
            rd_diag_init(&ud, NULL);
            if (rd_url_parse(str, host, sizeof host, &port, path, sizeof path, &ud))
                st = rd_diag_set(d, RD_ERR_PARSE, s->path, 0, 0, "workload '%s': %s", w->name,
                                 ud.msg);
        }
        if (!st)
            st = rd_suite_expand_string(s, wi, c, w->cwd, "cwd", &tmp, &str, d);
        for (size_t e = 0; e < w->nenv && !st; e++)
            st = rd_suite_expand_string(s, wi, c, w->env[e].value, "env", &tmp, &str, d);
        rd_arena_reset(&tmp);
    }
    rd_arena_release(&tmp);
    return st;
}

void rd_suite_init(struct rd_suite *s)
{
    memset(s, 0, sizeof *s);
    s->contention_threshold = s->contention_wait = s->contention_min_speed =
        s->contention_min_wakeup = NAN;
    s->contention_mode = -1;
    rd_arena_init(&s->arena);
}

/* "contention": {"threshold": PCT, "wait": SEC, "mode": "off|warn|wait",
 * "min_speed": PCT, "min_wakeup": PCT},
 * each optional; the command line's options win over them. */
static rd_status parse_contention(struct ctx *c, struct rd_suite *s, const cJSON *o)
{
    s->contention_threshold = s->contention_wait = s->contention_min_speed =
        s->contention_min_wakeup = NAN;
    s->contention_mode = -1;
    if (!o)
        return RD_OK;
    if (!cJSON_IsObject(o))
        return fail(c, "expected 'contention' to be an object with threshold, wait, mode, "
                       "min_speed and min_wakeup");
    for (const cJSON *it = o->child; it; it = it->next)
        if (strcmp(it->string, "threshold") && strcmp(it->string, "wait") &&
            strcmp(it->string, "mode") && strcmp(it->string, "min_speed") &&
            strcmp(it->string, "min_wakeup"))
            return fail(c, "contention: unknown key '%s' (expected threshold, wait, mode, "
                           "min_speed or min_wakeup)", it->string);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "threshold");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "wait");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "mode");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "min_speed");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "min_wakeup");
    if (t && (!cJSON_IsNumber(t) || !(t->valuedouble >= 0 && t->valuedouble <= 100)))
        return fail(c, "expected 'contention.threshold' to be a percentage of one CPU from 0 "
                       "to 100");
    if (w && (!cJSON_IsNumber(w) || !(w->valuedouble >= 0 && w->valuedouble <= 1e9)))
        return fail(c, "expected 'contention.wait' to be seconds, 0 or more");
    if (v && (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble <= 100)))
        return fail(c, "expected 'contention.min_speed' to be a percentage of the fastest speed "
                       "from 0 to 100");
    if (k && (!cJSON_IsNumber(k) || !(k->valuedouble >= 0 && k->valuedouble <= 100)))
        return fail(c, "expected 'contention.min_wakeup' to be a percentage of the fastest "
                       "cross-CPU wake-up from 0 to 100");
    enum rd_contention_mode mode;
    if (m && (!cJSON_IsString(m) ||
              rd_contention_parse_mode(m->valuestring, "contention.mode", &mode, NULL)))
        return fail(c, "expected 'contention.mode' to be \"off\", \"warn\" or \"wait\"");
    if (t)
        s->contention_threshold = t->valuedouble;
    if (w)
        s->contention_wait = w->valuedouble;
    if (m)
        s->contention_mode = (int)mode;
    if (v)
        s->contention_min_speed = v->valuedouble;
    if (k)
        s->contention_min_wakeup = k->valuedouble;
    return RD_OK;
}

/* "schema", the top level's keys and the suite's "name". */
static rd_status parse_head(struct ctx *c, const cJSON *root)
{
    if (!cJSON_IsObject(root))
        return fail(c, "expected a JSON object");
    const char *schema = rd_json_str(root, "schema");
    if (!schema || strcmp(schema, RD_SUITE_SCHEMA) != 0)
        return fail(c, "expected \"schema\": \"%s\"", RD_SUITE_SCHEMA);
    RD_TRY(check_keys(c, root, top_keys, default_keys));
    const char *name = rd_json_str(root, "name");
    if (!valid_name(name))
        return fail(c, "expected a 'name' of letters, digits, '.', '_', '-'");
    return (c->s->name = sdup(c, name)) ? RD_OK : RD_ERR_NOMEM;
}

/* {root}: "root" (default ".") relative to the folder of the suite file
 * at path, made absolute; the folder must exist. */
static rd_status parse_root(struct ctx *c, const cJSON *v, const char *path)
{
    if (v && !cJSON_IsString(v))
        return fail(c, "expected 'root' to be a string");
    char dirbuf[PATH_MAX], joined[PATH_MAX * 2], real[PATH_MAX];
    snprintf(dirbuf, sizeof dirbuf, "%s", path);
    const char *rel = v ? v->valuestring : ".";
    if (rel[0] == '/')
        snprintf(joined, sizeof joined, "%s", rel);
    else
        snprintf(joined, sizeof joined, "%s/%s", dirname(dirbuf), rel);
    if (!realpath(joined, real))
        return fail(c, "root folder '%s' does not exist", joined);
    return (c->s->root = sdup(c, real)) ? RD_OK : RD_ERR_NOMEM;
}

/* "order" (interleaved by default) and "seed": a file without a seed
 * gets the caller's (main() takes it from the clock), recorded in every
 * record and printed by --dry-run, so that a random order can be replayed
 * by putting it in the file. */
static rd_status parse_order(struct ctx *c, const cJSON *root, uint64_t seed_default)
{
    struct rd_suite *s = c->s;
    const char *order = rd_json_str(root, "order");
    if (cJSON_GetObjectItemCaseSensitive(root, "order") && !order)
        return fail(c, "expected 'order' to be a string");
    if (!order || strcmp(order, "interleaved") == 0)
        s->order = RD_ORDER_INTERLEAVED;
    else if (strcmp(order, "random") == 0)
        s->order = RD_ORDER_RANDOM;
    else if (strcmp(order, "grouped") == 0)
        s->order = RD_ORDER_GROUPED;
    else
        return fail(c, "expected 'order' to be interleaved, random or grouped, got '%s'", order);
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(root, "seed");
    s->seed = seed_default;
    if (!seed)
        return RD_OK;
    if (!cJSON_IsNumber(seed) || seed->valuedouble < 0 ||
        seed->valuedouble != floor(seed->valuedouble) || seed->valuedouble > 9007199254740992.0)
        return fail(c, "expected 'seed' to be a whole number >= 0");
    s->seed = (uint64_t)seed->valuedouble;
    s->seed_given = true;
    return RD_OK;
}

/* A runtime without "version_cmd" is asked with its cmd and --version. */
static rd_status default_version_cmd(struct ctx *c, struct rd_suite_runtime *rt)
{
    rt->version_cmd.v = rd_arena_alloc(&c->s->arena, (rt->cmd.n + 2) * sizeof(char *));
    if (!rt->version_cmd.v)
        return RD_ERR_NOMEM;
    memcpy(rt->version_cmd.v, rt->cmd.v, rt->cmd.n * sizeof(char *));
    if (!(rt->version_cmd.v[rt->cmd.n] = sdup(c, "--version")))
        return RD_ERR_NOMEM;
    rt->version_cmd.n = rt->cmd.n + 1;
    return RD_OK;
}

/* One entry of "runtimes": "name": {"cmd", "version_cmd", "env",
 * "description"}. */
static rd_status parse_runtime(struct ctx *c, const cJSON *r, struct rd_suite_runtime *rt)
{
    static const char *const rkeys[] = {"cmd", "version_cmd", "env", "description", NULL};
    if (!valid_name(r->string))
        return fail(c, "expected a runtime name of letters, digits, '.', '_', '-'");
    if (!cJSON_IsObject(r))
        return fail(c, "expected an object with 'cmd'");
    RD_TRY(check_keys(c, r, rkeys, NULL));
    if (!(rt->name = sdup(c, r->string)))
        return RD_ERR_NOMEM;
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(r, "cmd");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(r, "version_cmd");
    if (!cmd)
        return fail(c, "expected a 'cmd'");
    RD_TRY(parse_strv(c, cmd, "cmd", &rt->cmd));
    if (ver) {
        RD_TRY(parse_strv(c, ver, "version_cmd", &rt->version_cmd));
        RD_TRY(check_version_cmd(c, &rt->version_cmd));
    } else {
        RD_TRY(default_version_cmd(c, rt));
    }
    return parse_env(c, cJSON_GetObjectItemCaseSensitive(r, "env"), &rt->env, &rt->nenv);
}

/* "runtimes": an object of name -> runtime (none is fine). */
static rd_status parse_runtimes(struct ctx *c, const cJSON *rts)
{
    struct rd_suite *s = c->s;
    if (rts && !cJSON_IsObject(rts))
        return fail(c, "expected 'runtimes' to be an object of name -> runtime");
    s->nruntimes = rts ? (size_t)cJSON_GetArraySize(rts) : 0;
    s->runtimes = rd_arena_alloc(&s->arena, (s->nruntimes + 1) * sizeof *s->runtimes);
    if (!s->runtimes)
        return RD_ERR_NOMEM;
    rd_status st = RD_OK;
    size_t i = 0;
    for (const cJSON *r = rts ? rts->child : NULL; r && !st; r = r->next, i++) {
        snprintf(c->where_buf, sizeof c->where_buf, "runtime '%s'", r->string);
        c->where = c->where_buf;
        st = parse_runtime(c, r, &s->runtimes[i]);
    }
    c->where = NULL;
    return st;
}

/* "tools": an object of name -> {"version_cmd": [...]}, the load tools'
 * version commands (none is fine). */
static rd_status parse_tools(struct ctx *c, const cJSON *tools)
{
    static const char *const tkeys[] = {"version_cmd", NULL};
    struct rd_suite *s = c->s;
    if (tools && !cJSON_IsObject(tools))
        return fail(c, "expected 'tools' to be an object of name -> {\"version_cmd\": [...]}");
    s->ntools = 0;
    s->tools = rd_arena_alloc(&s->arena,
                              ((tools ? (size_t)cJSON_GetArraySize(tools) : 0) + 1) * sizeof *s->tools);
    if (!s->tools)
        return RD_ERR_NOMEM;
    rd_status st = RD_OK;
    for (const cJSON *t = tools ? tools->child : NULL; t && !st; t = t->next) {
        snprintf(c->where_buf, sizeof c->where_buf, "tool '%s'", t->string);
        c->where = c->where_buf;
        const cJSON *ver = cJSON_GetObjectItemCaseSensitive(t, "version_cmd");
        if (!cJSON_IsObject(t) || !ver) {
            st = fail(c, "expected an object with 'version_cmd'");
        } else if (!(st = check_keys(c, t, tkeys, NULL))) {
            struct rd_suite_tool *tl = &s->tools[s->ntools++];
            tl->name = sdup(c, t->string);
            st = tl->name ? parse_strv(c, ver, "version_cmd", &tl->version_cmd) : RD_ERR_NOMEM;
            if (!st)
                st = check_version_cmd(c, &tl->version_cmd);
        }
    }
    c->where = NULL;
    return st;
}

/* "workloads": a non-empty list, names unique, every template of every
 * config expanded once (so that a bad placeholder fails now). root gives
 * the defaults. */
static rd_status parse_workloads(struct ctx *c, const cJSON *root)
{
    struct rd_suite *s = c->s;
    const cJSON *ws = cJSON_GetObjectItemCaseSensitive(root, "workloads");
    if (!cJSON_IsArray(ws) || cJSON_GetArraySize(ws) == 0)
        return fail(c, "expected 'workloads' to be a non-empty list");
    s->nworkloads = (size_t)cJSON_GetArraySize(ws);
    s->workloads = rd_arena_alloc(&s->arena, s->nworkloads * sizeof *s->workloads);
    if (!s->workloads)
        return RD_ERR_NOMEM;
    rd_status st = RD_OK;
    size_t i = 0;
    for (const cJSON *wj = ws->child; wj && !st; wj = wj->next, i++) {
        c->where = NULL;
        st = parse_workload(c, wj, root, &s->workloads[i]);
        for (size_t j = 0; j < i && !st; j++)
            if (strcmp(s->workloads[j].name, s->workloads[i].name) == 0)
                st = fail(c, "the name is used by another workload");
        if (!st)
            st = check_templates(s, i, c->d);
    }
    c->where = NULL;
    return st;
}

/* The plan holds every run up front: it is capped, so that a slip such as
 * "runs": 1000000000 is a message rather than an out-of-memory kill. */
static rd_status check_plan_size(struct ctx *c)
{
    double planned = rd_suite_planned_runs(c->s);
    if (planned > RD_PLAN_MAX)
        return fail(c, "expected at most %d runs in all, got %.0f (configs x (runs + warmups), "
                       "summed over the workloads): lower 'runs' or split the suite",
                    RD_PLAN_MAX, planned);
    return RD_OK;
}

rd_status rd_suite_parse(struct rd_suite *s, const char *text, size_t len, const char *path,
                         uint64_t seed_default, struct rd_diag *d)
{
    rd_suite_init(s);
    s->path = rd_arena_strdup(&s->arena, path);
    if (!s->path)
        return RD_ERR_NOMEM;
    struct ctx c = {.s = s, .d = d};
    cJSON *root = NULL;
    rd_status st = rd_json_parse_unique(text, len, s->path, 1, &root, d);
    if (st)
        return st;
    if (!(st = parse_head(&c, root)) &&
        !(st = parse_root(&c, cJSON_GetObjectItemCaseSensitive(root, "root"), path)) &&
        !(st = parse_order(&c, root, seed_default)) &&
        !(st = parse_contention(&c, s, cJSON_GetObjectItemCaseSensitive(root, "contention"))) &&
        !(st = parse_runtimes(&c, cJSON_GetObjectItemCaseSensitive(root, "runtimes"))) &&
        !(st = parse_tools(&c, cJSON_GetObjectItemCaseSensitive(root, "tools"))) &&
        !(st = parse_workloads(&c, root)))
        st = check_plan_size(&c);
    cJSON_Delete(root);
    return st;
}

uint64_t rd_suite_clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid()) %
           1000000007u;
}

rd_status rd_suite_load(struct rd_suite *s, const char *path, uint64_t seed_default,
                        struct rd_diag *d)
{
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = rd_read_file(path, (size_t)16 << 20, &b, d);
    if (!st)
        st = rd_suite_parse(s, b.ptr, b.len, path, seed_default, d);
    else
        rd_suite_init(s);
    rd_buf_release(&b);
    return st;
}

void rd_suite_release(struct rd_suite *s)
{
    rd_arena_release(&s->arena);
    rd_suite_init(s);
}

rd_status rd_suite_record(const struct rd_suite *s, size_t wi, size_t c, struct rd_record *rec)
{
    const struct rd_suite_workload *w = &s->workloads[wi];
    rd_status st = rd_record_set(rec, &rec->suite, s->name);
    if (!st) st = rd_record_set(rec, &rec->workload, w->name);
    for (size_t k = 0; k < w->nkeys && !st; k++)
        st = rd_record_set_label(rec, w->keys[k], rd_suite_value(w, c, k));
    if (!st) st = rd_record_set_info(rec, "class", w->klass);
    if (!st) st = rd_record_set_info(rec, "primary_metric", w->primary_metric);
    if (!st) st = rd_record_set_info(rec, "primary_better", w->primary_better);
    if (!st) st = rd_record_set_info(rec, "tie_breaker", w->tie_breaker);
    if (!st && w->metric_better) st = rd_record_set_info(rec, "metric_better", w->metric_better);
    static const char *const orders[] = {"interleaved", "random", "grouped"};
    if (!st) st = rd_record_set_info(rec, "order", orders[s->order]);
    if (!st && s->order == RD_ORDER_RANDOM) {
        char b[32];
        snprintf(b, sizeof b, "%llu", (unsigned long long)s->seed);
        st = rd_record_set_info(rec, "seed", b);
    }
    char num[32];
    if (!st && !isnan(w->margin))
        st = rd_record_set_info(rec, "margin", rd_fmt_double(w->margin, num));
    if (!st && w->compare_within)
        st = rd_record_set_info(rec, "compare_within", w->compare_within);
    if (!st && w->blocks)
        st = rd_record_set_info(rec, "blocks", w->blocks);
    if (!st && w->keep_racing && w->keep_racing[c])
        st = rd_record_set_info(rec, "race_keep", "true");
    if (!st && w->settle) {
        /* The stopping rule, so the analysis can say why collection
         * stopped (docs/run-record.md, "Adaptive runs"). */
        st = rd_record_set_info(rec, "until", "settled");
        snprintf(num, sizeof num, "%ld", w->runs_min);
        if (!st) st = rd_record_set_info(rec, "runs_min", num);
        snprintf(num, sizeof num, "%ld", w->runs);
        if (!st) st = rd_record_set_info(rec, "runs_max", num);
        if (!st) st = rd_record_set_info(rec, "precision_target", rd_fmt_double(w->precision, num));
        if (!st) st = rd_record_set_info(rec, "precision_alpha", rd_fmt_double(RD_SUITE_SETTLE_ALPHA, num));
    }
    const char *const cp[][2] = {{"cpus", w->cpus}, {"server_cpus", w->server_cpus},
                                 {"load_cpus", w->load_cpus},
                                 {"background_cpus", w->background_cpus}};
    for (size_t i = 0; i < 4 && !st; i++)
        if (cp[i][1])
            st = rd_record_set_info(rec, cp[i][0], cp[i][1]);
    return st;
}
