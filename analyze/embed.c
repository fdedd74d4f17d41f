/*
 * embed - what rundown-render needs from the stores and their logs, written
 * into analysis.json so that render reads nothing else (issue 27): the raw
 * runs for the Raw runs sheet and runs.csv, up to a cap, and the error text
 * of every failed check (a bool metric at 0) for the pass/fail matrix.
 *
 * Ingest hands every record to rd_embed_note as it reads it, so the stores
 * are read once (issue 31): the first runs are kept as JSON text, the
 * rest only counted. A store from standard input is not noted (its runs
 * are not embedded; docs/analysis.md says so), as when the stores were
 * read a second time here.
 */
#include "embed.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "rundown/analysis_keys.h"
#include "rundown/array.h"
#include "rundown/metrics.h"

void rd_embed_init(struct rd_embed *e, size_t cap)
{
    *e = (struct rd_embed){ .cap = cap, .runs_text = RD_BUF_INIT,
                            .errors_text = RD_BUF_INIT, .key = RD_BUF_INIT,
                            .line = RD_BUF_INIT };
    rd_strmap_init(&e->seen);
    rd_arena_init(&e->texts);
}

void rd_embed_release(struct rd_embed *e)
{
    free(e->runs);
    free(e->ats);
    free(e->errors);
    rd_buf_release(&e->runs_text);
    rd_buf_release(&e->errors_text);
    rd_buf_release(&e->key);
    rd_buf_release(&e->line);
    rd_strmap_release(&e->seen);
    rd_arena_release(&e->texts);
}

static bool is_bool_metric(const char *name)
{
    struct rd_metric_def def;
    rd_metric_describe(name, &def);
    return def.unit && strcmp(def.unit, "bool") == 0;
}

/* A "rundown:info KEY=VALUE" line for key in a run's stdout log. Logs are
 * recorded relative to the store (older stores: to where collect ran,
 * data/raw/logs/... beside data/raw/x.jsonl). NULL and *st set when out
 * of memory. */
static const char *log_error(struct rd_embed *e, const char *store, const char *log,
                             const char *key, rd_status *st)
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
        if (!(found = rd_arena_strdup(&e->texts, v))) {
            *st = RD_ERR_NOMEM;
            break;
        }
    }
    fclose(f);
    return found;
}

/* Keeps the error object of key[0..key_len) (one not seen yet): the key
 * and the object's text go to errors_text. */
static rd_status keep_error(struct rd_embed *e, const char *key, size_t key_len,
                            const char *obj, size_t obj_len)
{
    int added = 0;
    RD_TRY(RD_ARRAY_GROW(e->errors, e->caperrors, e->nerrors + 1));
    RD_TRY(rd_strmap_putn(&e->seen, key, key_len, 1, &added));
    struct rd_embed_error *x = &e->errors[e->nerrors];
    x->key_off = e->errors_text.len;
    x->key_len = key_len;
    RD_TRY(rd_buf_add(&e->errors_text, key, key_len));
    x->off = e->errors_text.len;
    x->len = obj_len;
    RD_TRY(rd_buf_add(&e->errors_text, obj, obj_len));
    e->nerrors++;
    return RD_OK;
}

/* The first error text of each failed check of a measured run, per
 * workload, config and metric, in store and line order. */
static rd_status check_errors(struct rd_embed *e, const char *store,
                              const struct rd_record *rec)
{
    if (!rec->workload || (rec->phase && strcmp(rec->phase, "measure") != 0))
        return RD_OK;
    for (size_t k = 0; k < rec->nmetrics; k++) {
        const char *name = rec->metrics[k].name;
        if (rec->metrics[k].value != 0 || !is_bool_metric(name))
            continue;
        rd_buf_reset(&e->key);
        RD_TRY(rd_buf_addf(&e->key, "%s%c", rec->workload, '\0'));
        RD_TRY(rd_record_config_id(rec, &e->key));
        RD_TRY(rd_buf_addf(&e->key, "%c%s", '\0', name));
        if (rd_strmap_findn(&e->seen, e->key.ptr, e->key.len))
            continue;
        /* compat_express_ok fails with compat_express_error. */
        size_t n = strlen(name);
        rd_buf_reset(&e->line);
        RD_TRY(rd_buf_addf(&e->line, "%.*s_error",
                           (int)(n > 3 && strcmp(name + n - 3, "_ok") == 0 ? n - 3 : n),
                           name));
        /* log_error reuses e->line: the key is copied first. */
        const char *info_key = rd_arena_strdup(&e->texts, e->line.ptr);
        if (!info_key)
            return RD_ERR_NOMEM;
        rd_status st = RD_OK;
        const char *err = rd_record_info(rec, info_key);
        for (size_t s = 0; !err && st == RD_OK && s < rec->source.len; s++)
            if (strcmp(rec->source.items[s].key, "stdout_log") == 0)
                err = log_error(e, store, rec->source.items[s].value, info_key, &st);
        RD_TRY(st);
        if (!err)
            continue;
        /* The object as check_errors' compact array writes it. */
        struct jw j;
        rd_buf_reset(&e->line);
        jw_init(&j, &e->line);
        jw_obj(&j, NULL, false);
        jw_str(&j, RD_AK_WORKLOAD, rec->workload);
        jw_obj(&j, RD_AK_CONFIG, false);
        for (size_t l = 0; l < rec->config.len; l++)
            jw_str(&j, rec->config.items[l].key, rec->config.items[l].value);
        jw_end(&j, '}');
        jw_str(&j, RD_AK_METRIC, name);
        jw_str(&j, RD_AK_ERROR, err);
        jw_end(&j, '}');
        RD_TRY(j.st);
        /* Less the newline jw puts after a document of its own. */
        RD_TRY(keep_error(e, e->key.ptr, e->key.len, e->line.ptr, e->line.len - 1));
    }
    return RD_OK;
}

static rd_status keep_run(struct rd_embed *e, uint32_t input, const char *json, size_t len)
{
    RD_TRY(RD_ARRAY_GROW(e->runs, e->capruns, e->nruns + 1));
    e->runs[e->nruns] = (struct rd_embed_run){ input, e->runs_text.len, len };
    RD_TRY(rd_buf_add(&e->runs_text, json, len));
    e->nruns++;
    return RD_OK;
}

rd_status rd_embed_note(struct rd_embed *e, const char *store, uint32_t input,
                        const struct rd_record *rec)
{
    e->total++;
    RD_TRY(check_errors(e, store, rec));
    rd_arena_reset(&e->texts);
    if (e->nruns >= e->cap)
        return RD_OK;
    rd_buf_reset(&e->line);
    RD_TRY(rd_record_to_json(rec, &e->line));
    size_t len = e->line.len;
    while (len > 0 && e->line.ptr[len - 1] == '\n')
        len--;
    return keep_run(e, input, e->line.ptr, len);
}

rd_status rd_embed_note_at(struct rd_embed *e, const char *store, uint32_t input,
                           const struct rd_record *rec, bool place, long long off,
                           size_t len)
{
    e->total++;
    RD_TRY(check_errors(e, store, rec));
    rd_arena_reset(&e->texts);
    if (!place) {
        free(e->ats);
        e->ats = NULL;
        e->nats = e->capats = 0;
        return RD_OK;
    }
    if (e->nats >= e->cap)
        return RD_OK;
    RD_TRY(RD_ARRAY_GROW(e->ats, e->capats, e->nats + 1));
    e->ats[e->nats++] = (struct rd_embed_at){off, input, (uint32_t)len};
    return RD_OK;
}

/* Keeps in a the runs of b's places, read again from store, up to a's
 * cap: each line parsed and written as rd_embed_note would have. */
static rd_status keep_ats(struct rd_embed *a, const struct rd_embed *b, const char *store,
                          struct rd_diag *d)
{
    if (a->nruns >= a->cap || b->nats == 0)
        return RD_OK;
    FILE *f = fopen(store, "rb");
    if (!f)
        return rd_diag_set(d, RD_ERR_IO, store, 0, 0, "cannot open store: %s",
                           strerror(errno));
    struct rd_buf line = RD_BUF_INIT;
    struct rd_arena arena;
    rd_arena_init(&arena);
    rd_status s = RD_OK;
    for (size_t i = 0; i < b->nats && a->nruns < a->cap && !s; i++) {
        const struct rd_embed_at *at = &b->ats[i];
        struct rd_record rec;
        struct rd_diag pd;
        rd_diag_init(&pd, store);
        rd_buf_reset(&line);
        if ((s = rd_buf_grow(&line, at->len + 1)))
            break;
        if (fseeko(f, (off_t)at->off, SEEK_SET) != 0 || fread(line.ptr, 1, at->len, f) != at->len) {
            s = rd_diag_set(d, RD_ERR_IO, store, 0, 0, "cannot read store: %s",
                            ferror(f) ? strerror(errno) : "it got shorter while read");
            break;
        }
        line.ptr[at->len] = '\0';
        rd_arena_reset(&arena);
        if ((s = rd_record_from_json(&rec, &arena, line.ptr, at->len, &pd))) {
            if (s != RD_ERR_NOMEM)
                s = rd_diag_set(d, RD_ERR_IO, store, 0, 0,
                                "the store changed while read (a line became '%s')", pd.msg);
            break;
        }
        rd_buf_reset(&a->line);
        if ((s = rd_record_to_json(&rec, &a->line)))
            break;
        size_t len = a->line.len;
        while (len > 0 && a->line.ptr[len - 1] == '\n')
            len--;
        s = keep_run(a, at->input, a->line.ptr, len);
    }
    rd_arena_release(&arena);
    rd_buf_release(&line);
    fclose(f);
    return s;
}

rd_status rd_embed_merge(struct rd_embed *a, const struct rd_embed *b, const char *store,
                         struct rd_diag *d)
{
    a->total += b->total;
    for (size_t i = 0; i < b->nruns && a->nruns < a->cap; i++)
        RD_TRY(keep_run(a, b->runs[i].input, b->runs_text.ptr + b->runs[i].off,
                        b->runs[i].len));
    RD_TRY(keep_ats(a, b, store, d));
    for (size_t i = 0; i < b->nerrors; i++) {
        const struct rd_embed_error *x = &b->errors[i];
        const char *key = b->errors_text.ptr + x->key_off;
        if (!rd_strmap_findn(&a->seen, key, x->key_len))
            RD_TRY(keep_error(a, key, x->key_len, b->errors_text.ptr + x->off, x->len));
    }
    return RD_OK;
}

rd_status rd_embed_write(const struct rd_analysis *a, struct jw *w, struct rd_diag *d)
{
    const struct rd_embed *e = &a->embed;
    jw_obj(w, RD_AK_RAW_RUNS, true);
    jw_num(w, RD_AK_CAP, (double)e->cap);
    jw_arr(w, RD_AK_ITEMS, true);
    for (size_t i = 0; i < e->nruns; i++) {
        jw_obj(w, NULL, false);
        jw_str(w, RD_AK_STORE, a->inputs[e->runs[i].input]);
        jw_raw(w, RD_AK_RECORD, e->runs_text.ptr + e->runs[i].off, e->runs[i].len);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_num(w, RD_AK_TOTAL, (double)e->total);
    jw_num(w, RD_AK_EMBEDDED, (double)e->nruns);
    jw_end(w, '}');
    jw_arr(w, RD_AK_CHECK_ERRORS, false);
    for (size_t i = 0; i < e->nerrors; i++)
        jw_raw(w, NULL, e->errors_text.ptr + e->errors[i].off, e->errors[i].len);
    jw_end(w, ']');
    if (w->st != RD_OK)
        return rd_diag_set(d, w->st, NULL, 0, 0, "out of memory embedding the raw runs");
    return RD_OK;
}
