/*
 * embed - what rundown-render needs from the stores and their logs, written
 * into analysis.json so that render reads nothing else (issue 27): the raw
 * runs for the Raw runs sheet and runs.csv, up to a cap, and the error text
 * of every failed check (a bool metric at 0) for the pass/fail matrix.
 *
 * The stores are read a second time, one record at a time: ingest keeps
 * only the values it needs for the statistics (analysis_int.h), not whole
 * records, and a store from standard input cannot be read again (its runs
 * are not embedded; docs/analysis.md says so).
 */
#include "embed.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis_int.h"
#include "rundown/analysis_keys.h"
#include "rundown/buf.h"
#include "rundown/metrics.h"
#include "rundown/store.h"
#include "rundown/strmap.h"

struct embed {
    struct jw *w;            /* raw_runs.items */
    struct jw errs;          /* check_errors, written after raw_runs */
    struct rd_buf errs_text, key, line;
    struct rd_strmap seen;   /* workload, config and metric with an error */
    struct rd_arena texts;   /* the error texts read from logs */
    size_t total, embedded, cap;
    rd_status st;
};

static bool is_bool_metric(const char *name)
{
    struct rd_metric_def def;
    rd_metric_describe(name, &def);
    return def.unit && strcmp(def.unit, "bool") == 0;
}

/* A "rundown:info KEY=VALUE" line for key in a run's stdout log. Logs are
 * recorded relative to the store (older stores: to where collect ran,
 * data/raw/logs/... beside data/raw/x.jsonl). */
static const char *log_error(struct embed *e, const char *store, const char *log,
                             const char *key)
{
    const char *slash = strrchr(store, '/'), *at = strstr(log, "logs/");
    FILE *f = NULL;
    if (slash && log[0] != '/') {
        rd_buf_reset(&e->line);
        if (rd_buf_addf(&e->line, "%.*s/%s", (int)(slash - store), store, log) == RD_OK)
            f = fopen(e->line.ptr, "r");
    }
    if (!f)
        f = fopen(log, "r");
    if (!f && slash && at) {
        rd_buf_reset(&e->line);
        if (rd_buf_addf(&e->line, "%.*s/%s", (int)(slash - store), store, at) == RD_OK)
            f = fopen(e->line.ptr, "r");
    }
    if (!f)
        return NULL;
    char text[1024];
    const char *found = NULL;
    size_t klen = strlen(key);
    while (!found && fgets(text, sizeof text, f)) {
        if (strncmp(text, "rundown:info ", 13) != 0 || strncmp(text + 13, key, klen) != 0 ||
            text[13 + klen] != '=')
            continue;
        char *v = text + 13 + klen + 1;
        v[strcspn(v, "\r\n")] = '\0';
        if (!(found = rd_arena_strdup(&e->texts, v)))
            e->st = RD_ERR_NOMEM;
    }
    fclose(f);
    return found;
}

/* The first error text of each failed check of a measured run, per
 * workload, config and metric, in store and line order. */
static void check_errors(struct embed *e, const char *store, const struct rd_record *rec)
{
    if (!rec->workload || (rec->phase && strcmp(rec->phase, "measure") != 0))
        return;
    for (size_t k = 0; k < rec->nmetrics && e->st == RD_OK; k++) {
        const char *name = rec->metrics[k].name;
        if (rec->metrics[k].value != 0 || !is_bool_metric(name))
            continue;
        rd_buf_reset(&e->key);
        e->st = rd_buf_addf(&e->key, "%s%c", rec->workload, '\0');
        if (e->st == RD_OK)
            e->st = rd_record_config_id(rec, &e->key);
        if (e->st == RD_OK)
            e->st = rd_buf_addf(&e->key, "%c%s", '\0', name);
        if (e->st != RD_OK || rd_strmap_findn(&e->seen, e->key.ptr, e->key.len))
            continue;
        size_t seen_len = e->key.len;
        /* compat_express_ok fails with compat_express_error. */
        size_t n = strlen(name);
        rd_buf_reset(&e->line);
        if ((e->st = rd_buf_addf(&e->line, "%.*s_error",
                                 (int)(n > 3 && strcmp(name + n - 3, "_ok") == 0 ? n - 3 : n),
                                 name)) != RD_OK)
            return;
        /* log_error reuses e->line: the key is copied first. */
        const char *info_key = rd_arena_strdup(&e->texts, e->line.ptr);
        if (!info_key) {
            e->st = RD_ERR_NOMEM;
            return;
        }
        const char *err = rd_record_info(rec, info_key);
        for (size_t s = 0; !err && s < rec->source.len; s++)
            if (strcmp(rec->source.items[s].key, "stdout_log") == 0)
                err = log_error(e, store, rec->source.items[s].value, info_key);
        if (!err || e->st != RD_OK)
            continue;
        int added = 0;
        if ((e->st = rd_strmap_putn(&e->seen, e->key.ptr, seen_len, 1, &added)) != RD_OK)
            return;
        jw_obj(&e->errs, NULL, false);
        jw_str(&e->errs, RD_AK_WORKLOAD, rec->workload);
        jw_obj(&e->errs, RD_AK_CONFIG, false);
        for (size_t l = 0; l < rec->config.len; l++)
            jw_str(&e->errs, rec->config.items[l].key, rec->config.items[l].value);
        jw_end(&e->errs, '}');
        jw_str(&e->errs, RD_AK_METRIC, name);
        jw_str(&e->errs, RD_AK_ERROR, err);
        jw_end(&e->errs, '}');
    }
}

static void embed_run(struct embed *e, const char *store, const struct rd_record *rec)
{
    e->total++;
    check_errors(e, store, rec);
    if (e->embedded >= e->cap || e->st != RD_OK)
        return;
    e->embedded++;
    rd_buf_reset(&e->line);
    if ((e->st = rd_record_to_json(rec, &e->line)) != RD_OK)
        return;
    size_t len = e->line.len;
    while (len > 0 && e->line.ptr[len - 1] == '\n')
        len--;
    jw_obj(e->w, NULL, false);
    jw_str(e->w, RD_AK_STORE, store);
    jw_raw(e->w, RD_AK_RECORD, e->line.ptr, len);
    jw_end(e->w, '}');
}

/* A store that can be read again: a regular file (not standard input, not
 * a FIFO, whose runs are gone). */
static bool rereadable(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

rd_status rd_embed_write(const struct rd_analysis *a, struct jw *w, size_t cap,
                         struct rd_diag *d)
{
    struct embed e = { .w = w, .errs_text = RD_BUF_INIT, .key = RD_BUF_INIT,
                       .line = RD_BUF_INIT, .cap = cap };
    rd_strmap_init(&e.seen);
    rd_arena_init(&e.texts);
    jw_init(&e.errs, &e.errs_text);
    jw_arr(&e.errs, NULL, false);
    jw_obj(w, RD_AK_RAW_RUNS, true);
    jw_num(w, RD_AK_CAP, (double)cap);
    jw_arr(w, RD_AK_ITEMS, true);
    for (size_t i = 0; i < a->ninputs && e.st == RD_OK; i++) {
        const char *path = a->inputs[i];
        if (!rereadable(path))
            continue;
        struct rd_store_reader rd;
        struct rd_diag quiet;
        rd_diag_init(&quiet, path);
        /* The analysis judged the store already: a store that changed
         * since is embedded up to the line that no longer reads. */
        if (rd_store_open(&rd, path, &quiet) != RD_OK)
            continue;
        struct rd_record rec;
        int got = 0;
        while (e.st == RD_OK && rd_store_next(&rd, &rec, &got, &quiet) == RD_OK && got)
            embed_run(&e, path, &rec);
        rd_store_close(&rd);
    }
    jw_end(w, ']');
    jw_num(w, RD_AK_TOTAL, (double)e.total);
    jw_num(w, RD_AK_EMBEDDED, (double)e.embedded);
    jw_end(w, '}');
    jw_end(&e.errs, ']');
    if (e.st == RD_OK)
        e.st = e.errs.st;
    /* Less the newline jw puts after a document of its own. */
    if (e.st == RD_OK)
        jw_raw(w, RD_AK_CHECK_ERRORS, e.errs_text.ptr, e.errs_text.len - 1);
    rd_buf_release(&e.errs_text);
    rd_buf_release(&e.key);
    rd_buf_release(&e.line);
    rd_strmap_release(&e.seen);
    rd_arena_release(&e.texts);
    if (e.st != RD_OK)
        return rd_diag_set(d, e.st, NULL, 0, 0, "out of memory embedding the raw runs");
    return RD_OK;
}
