/*
 * hyperfine - importer for hyperfine --export-json files.
 *
 * hyperfine measures whole command runs, so every element of a result's
 * times[] becomes one run record (the per-run values are the sample; the
 * mean/stddev/median hyperfine prints are summaries of them and are not
 * stored, to avoid treating one summary as many runs). Per-run arrays that
 * exist are used: exit_codes (status), memory_usage_byte (v1.20+, peak RSS),
 * and user/system when a version writes them per run; a scalar user/system
 * is a mean over runs and is left out. Parameters (-P/-L) become config
 * labels; the command goes to info.command, and to the label 'command'
 * when no parameters tell the results apart.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importer.h"
#include "jsonimport.h"
#include "rundown/buf.h"
#include "rundown/strmap.h"

static int detect(const struct rd_import_input *in)
{
    static const char *const needles[] = { "\"results\"", "\"command\"", "\"mean\"",
                                           "\"times\"" };
    return rd_json_looks_like(in->data, in->len, needles, 4) ? 90 : 0;
}

/* The per-run array 'key' of a result: absent, or as long as times[]. */
static rd_status per_run_array(struct rd_jdoc *doc, const cJSON *res, const char *key,
                               int nruns, const cJSON **out)
{
    char what[96];
    snprintf(what, sizeof what, "\"%s\" with one value per run (%d)", key, nruns);
    rd_status s = rd_jdoc_get(doc, res, key, RD_JT_ARRAY | RD_JT_NUMBER, false, what, out);
    if (s)
        return s;
    if (*out && !cJSON_IsArray(*out)) {
        *out = NULL; /* a mean over all runs, not per-run data */
        return RD_OK;
    }
    int len = *out ? cJSON_GetArraySize(*out) : nruns;
    if (len != nruns) {
        unsigned line, col;
        rd_jdoc_where(doc, *out, &line, &col);
        return rd_diag_set(doc->d, RD_ERR_PARSE, doc->path, line, col,
                           "expected %s, got %d value%s", what, len, len == 1 ? "" : "s");
    }
    return RD_OK;
}

/* "k=v\n" for each parameter, to tell results with the same labels apart. */
static rd_status param_key(struct rd_jdoc *doc, const cJSON *params, struct rd_buf *b)
{
    for (const cJSON *p = params ? params->child : NULL; p; p = p->next) {
        if (!cJSON_IsString(p))
            return rd_jdoc_fail(doc, p, "a parameter value as a string");
        if (!p->string[0])
            return rd_jdoc_fail(doc, params, "parameter names that are not empty");
        rd_status s = rd_buf_addf(b, "%s=%s\n", p->string, p->valuestring);
        if (s)
            return s;
    }
    return RD_OK;
}

/* The values of one run: times[j] and the j-th element of each per-run
 * array that exists (NULL when it does not). */
struct run_values {
    const cJSON *t, *code, *mem, *user, *sys;
};

/* Moves each cursor of v to the next element of its array. */
static void run_values_next(struct run_values *v)
{
    const cJSON **cur[] = { &v->t, &v->code, &v->mem, &v->user, &v->sys };
    for (size_t k = 0; k < sizeof cur / sizeof cur[0]; k++)
        if (*cur[k])
            *cur[k] = (*cur[k])->next;
}

static rd_status parse_run(struct rd_jdoc *doc, struct rd_recordset *out,
                           const char *command, const cJSON *params, bool label_command,
                           int j, const struct run_values *rv)
{
    const cJSON *t = rv->t;
    double v, wall_ms;
    rd_status s = rd_jdoc_num_scaled(doc, t, RD_JN_NONNEG, 3,
                                     "a run time in seconds (a non-negative number)",
                                     &wall_ms);
    if (s)
        return s;
    struct rd_record *r;
    if ((s = rd_jdoc_new_record(doc, out, t, "hyperfine", &r)))
        return s;
    r->run = j + 1;
    s = rd_record_set_info(r, "command", command);
    for (const cJSON *p = params ? params->child : NULL; p && !s; p = p->next)
        s = rd_record_set_label(r, p->string, p->valuestring);
    if (!s && label_command)
        s = rd_record_set_label(r, "command", command);
    if (!s)
        s = rd_record_set_metric(r, "wall_ms", wall_ms);
    if (!s && rv->user) {
        s = rd_jdoc_num_scaled(doc, rv->user, RD_JN_NONNEG, 3,
                               "a user CPU time in seconds", &v);
        if (!s)
            s = rd_record_set_metric(r, "user_ms", v);
    }
    if (!s && rv->sys) {
        s = rd_jdoc_num_scaled(doc, rv->sys, RD_JN_NONNEG, 3,
                               "a system CPU time in seconds", &v);
        if (!s)
            s = rd_record_set_metric(r, "sys_ms", v);
    }
    if (!s && rv->mem) {
        s = rd_jdoc_num(doc, rv->mem, RD_JN_NONNEG | RD_JN_INT,
                        "a peak memory in bytes (a non-negative whole number)", &v);
        /* 0 means hyperfine could not measure it, not an empty process. */
        if (!s && v > 0)
            s = rd_record_set_metric(r, "max_rss_kib", v / 1024);
    }
    if (!s && rv->code) {
        const cJSON *c = rv->code;
        if (cJSON_IsNull(c)) {
            /* hyperfine writes null when a signal ended the command. */
            r->status = "failed";
            s = rd_record_set_info(r, "terminated_by", "signal");
        } else {
            s = rd_jdoc_num(doc, c, 0, "an exit code (a whole number or null)", &v);
            /* Range first: converting a huge double to int is undefined. */
            if (!s && !(v >= INT_MIN && v <= INT_MAX && v == (double)(long long)v))
                s = rd_jdoc_fail(doc, c, "an exit code (a whole number or null)");
            if (!s) {
                r->exit_code = (int)v;
                r->has_exit_code = true;
                r->status = v == 0 ? "ok" : "failed";
            }
        }
    }
    return s;
}

/* Every run record carries the command (twice when it also labels the
 * config) and the parameters, so a long command with many runs multiplies
 * the input: a 1 MB file could ask for hundreds of gigabytes. The text
 * repeated into the runs may be at most this many times the input, or
 * DUP_FLOOR when that is more (a real export, with its five numbers per
 * run, stays well below: 10,000 runs of a 200-byte command are 27 times
 * the file). */
#define DUP_MAX_RATIO 64.0
#define DUP_FLOOR (16.0 * 1024 * 1024)

static rd_status within_amplification(struct rd_jdoc *doc, const cJSON *cmd,
                                      const cJSON *params, bool label_command, int runs)
{
    double per_run = (double)strlen(cmd->valuestring) * (label_command ? 2 : 1);
    for (const cJSON *p = params ? params->child : NULL; p; p = p->next)
        if (p->string && cJSON_IsString(p))
            per_run += (double)(strlen(p->string) + strlen(p->valuestring));
    double total = per_run * runs, limit = DUP_MAX_RATIO * (double)doc->len;
    if (limit < DUP_FLOOR)
        limit = DUP_FLOOR;
    if (total <= limit)
        return RD_OK;
    unsigned line, col;
    rd_jdoc_where(doc, cmd, &line, &col);
    return rd_diag_set(doc->d, RD_ERR_PARSE, doc->path, line, col,
                       "expected a shorter command: %.0f bytes of command and parameters "
                       "repeated into each of %d runs would make %.1f MiB of run records "
                       "(at most %.0f times the input, or %.0f MiB)",
                       per_run, runs, total / 1048576, DUP_MAX_RATIO, DUP_FLOOR / 1048576);
}

static rd_status parse_result(struct rd_jdoc *doc, struct rd_recordset *out,
                              const cJSON *res, bool label_command)
{
    const cJSON *cmd, *times, *params, *codes, *mem, *user, *sys;
    rd_status s;
    if (!cJSON_IsObject(res))
        return rd_jdoc_fail(doc, res, "a benchmark result object");
    if ((s = rd_jdoc_get(doc, res, "command", RD_JT_STRING, true, "the command as a string",
                         &cmd)))
        return s;
    if ((s = rd_jdoc_get(doc, res, "times", RD_JT_ARRAY, true,
                         "an array of run times in seconds", &times)))
        return s;
    int n = cJSON_GetArraySize(times);
    if (n == 0)
        return rd_jdoc_fail(doc, times, "at least one run time");
    if ((s = rd_jdoc_get(doc, res, "parameters", RD_JT_OBJECT, false,
                         "the parameters as an object of strings", &params)))
        return s;
    if (!params && (s = rd_jdoc_get(doc, res, "parameter", RD_JT_OBJECT, false,
                                    "the parameters as an object of strings", &params)))
        return s;
    if ((s = within_amplification(doc, cmd, params, label_command, n)))
        return s;
    if ((s = per_run_array(doc, res, "exit_codes", n, &codes)) ||
        (s = per_run_array(doc, res, "memory_usage_byte", n, &mem)) ||
        (s = per_run_array(doc, res, "user", n, &user)) ||
        (s = per_run_array(doc, res, "system", n, &sys)))
        return s;
    /* The per-run arrays are walked in step with times[]: indexing a cJSON
     * array is a walk from its head, which made 10^5 runs take minutes. */
    struct run_values rv = {
        times->child, codes ? codes->child : NULL, mem ? mem->child : NULL,
        user ? user->child : NULL, sys ? sys->child : NULL,
    };
    for (int j = 0; rv.t && !s; j++, run_values_next(&rv))
        s = parse_run(doc, out, cmd->valuestring, params, label_command, j, &rv);
    return s;
}

static rd_status parse(const struct rd_import_input *in, struct rd_recordset *out,
                       struct rd_diag *d)
{
    struct rd_jdoc doc;
    const cJSON *results;
    size_t i0 = 0;
    while (i0 < in->len && strchr(" \t\n", in->data[i0]))
        i0++;
    if (i0 == in->len)
        return rd_diag_set(d, RD_ERR_PARSE, in->path, 1, 1,
                           "expected hyperfine --export-json output, got an empty file "
                           "(hyperfine leaves it empty when a command fails without -i)");
    rd_status s = rd_jdoc_parse(&doc, in->data, in->len, in->path, 1, d);
    if (s)
        goto done;
    if (!cJSON_IsObject(doc.root)) {
        s = rd_jdoc_fail(&doc, doc.root, "a hyperfine --export-json object");
        goto done;
    }
    s = rd_jdoc_get(&doc, doc.root, "results", RD_JT_ARRAY, true,
                    "an array of benchmark results", &results);
    if (s)
        goto done;
    int n = cJSON_GetArraySize(results);
    if (n == 0) {
        s = rd_jdoc_fail(&doc, results, "at least one benchmark result");
        goto done;
    }
    /* Results that share their parameter set (several commands, no -P) would
     * be pooled into one config; the command label keeps them apart. */
    struct rd_buf *keys = calloc((size_t)n, sizeof *keys);
    if (!keys) {
        s = RD_ERR_NOMEM;
        goto done;
    }
    int i;
    for (i = 0; i < n; i++)
        rd_buf_init(&keys[i], 0);
    i = 0;
    for (const cJSON *res = results->child; res && !s; res = res->next, i++) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(res, "parameters");
        if (!p)
            p = cJSON_GetObjectItemCaseSensitive(res, "parameter");
        if (cJSON_IsObject(p))
            s = param_key(&doc, p, &keys[i]);
    }
    /* How many results have each parameter set: a count per key, so that
     * many results stay linear. */
    struct rd_strmap uses;
    rd_strmap_init(&uses);
    for (i = 0; i < n && !s; i++) {
        int64_t *count;
        s = rd_strmap_slotn(&uses, keys[i].ptr, keys[i].len, 0, &count, NULL);
        if (!s)
            ++*count;
    }
    i = 0;
    for (const cJSON *res = results->child; res && !s; res = res->next, i++) {
        /* A result without parameters is labelled by its command too, as
         * `run` labels one command: one-command exports of different
         * commands must not pool into one config (issue 29). */
        bool shared = *rd_strmap_findn(&uses, keys[i].ptr, keys[i].len) > 1 || keys[i].len == 0;
        s = parse_result(&doc, out, res, shared);
    }
    rd_strmap_release(&uses);
    for (i = 0; i < n; i++)
        rd_buf_release(&keys[i]);
    free(keys);
done:
    rd_jdoc_release(&doc);
    return s;
}

static const char *const version_argv[] = { "hyperfine", "--version", NULL };

const struct rd_importer rd_importer_hyperfine = {
    .name = "hyperfine",
    .description = "hyperfine --export-json (one run per element of times[])",
    .version_argv = version_argv,
    .detect = detect,
    .parse = parse,
};
