/*
 * runindex - run keys in two rd_strmaps: one from a series to its tally,
 * one holding each (series, run number) that exists.
 *
 * A series key is its parts joined by NUL bytes. Record strings are C
 * strings and never hold a NUL, so two different keys never join to the
 * same bytes, whatever the labels contain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runindex.h"
#include "rundown/array.h"
#include "rundown/store.h"

void rd_run_index_init(struct rd_run_index *ix)
{
    rd_strmap_init(&ix->ids);
    rd_strmap_init(&ix->runs);
    ix->series = NULL;
    ix->nseries = ix->cap = 0;
}

void rd_run_index_release(struct rd_run_index *ix)
{
    rd_strmap_release(&ix->ids);
    rd_strmap_release(&ix->runs);
    free(ix->series);
    rd_run_index_init(ix);
}

static rd_status add_part(struct rd_buf *b, const char *part, bool first)
{
    if (!first)
        RD_TRY(rd_buf_addch(b, '\0'));
    return part && *part ? rd_buf_addstr(b, part) : RD_OK;
}

/* The series key into b (reset first); with run >= 1 the run key. */
static rd_status make_key(const struct rd_run_key *k, long run, struct rd_buf *b)
{
    rd_buf_reset(b);
    RD_TRY(add_part(b, k->suite, true));
    RD_TRY(add_part(b, k->workload, false));
    RD_TRY(add_part(b, k->config, false));
    RD_TRY(add_part(b, k->phase ? k->phase : "measure", false));
    if (run < 1)
        return RD_OK;
    char num[32];
    snprintf(num, sizeof num, "%ld", run);
    RD_TRY(add_part(b, num, false));
    return RD_OK;
}

rd_status rd_run_index_note(struct rd_run_index *ix, const struct rd_run_key *key, long run)
{
    struct rd_buf b = RD_BUF_INIT;
    int64_t *id = NULL;
    int added = 0, new_run = 0;
    rd_status s = make_key(key, 0, &b);
    if (!s && !(id = rd_strmap_findn(&ix->ids, b.ptr, b.len))) {
        s = RD_ARRAY_GROW(ix->series, ix->cap, ix->nseries + 1);
        if (!s)
            s = rd_strmap_putn(&ix->ids, b.ptr, b.len, (int64_t)ix->nseries, &added);
        if (!s) {
            /* A series first seen with run 0 or less keeps that as its
             * highest number until a real one comes. */
            ix->series[ix->nseries++] = (struct rd_run_series){run, 0};
            id = rd_strmap_findn(&ix->ids, b.ptr, b.len);
        }
    }
    if (!s && run >= 1 && !(s = make_key(key, run, &b)))
        s = rd_strmap_putn(&ix->runs, b.ptr, b.len, 1, &new_run);
    if (!s) {
        struct rd_run_series *se = &ix->series[*id];
        if (run > se->last)
            se->last = run;
        if (new_run)
            se->count++;
    }
    rd_buf_release(&b);
    return s;
}

bool rd_run_index_contains(const struct rd_run_index *ix, const struct rd_run_key *key,
                           long run)
{
    struct rd_buf b = RD_BUF_INIT;
    bool found = run >= 1 && !make_key(key, run, &b) && rd_strmap_findn(&ix->runs, b.ptr, b.len);
    rd_buf_release(&b);
    return found;
}

const struct rd_run_series *rd_run_index_series(const struct rd_run_index *ix,
                                                const struct rd_run_key *key)
{
    struct rd_buf b = RD_BUF_INIT;
    const int64_t *id = make_key(key, 0, &b) ? NULL : rd_strmap_findn(&ix->ids, b.ptr, b.len);
    rd_buf_release(&b);
    return id ? &ix->series[*id] : NULL;
}

rd_status rd_run_key_of(const struct rd_record *r, struct rd_buf *config,
                        struct rd_run_key *key)
{
    rd_buf_reset(config);
    RD_TRY(rd_record_config_id(r, config));
    *key = (struct rd_run_key){r->suite, r->workload, config->ptr, r->phase};
    return RD_OK;
}

rd_status rd_run_index_add(struct rd_run_index *ix, const struct rd_record *r)
{
    struct rd_buf config = RD_BUF_INIT;
    struct rd_run_key key;
    rd_status s = rd_run_key_of(r, &config, &key);
    if (!s)
        s = rd_run_index_note(ix, &key, r->run);
    rd_buf_release(&config);
    return s;
}

bool rd_run_index_has(const struct rd_run_index *ix, const struct rd_record *r)
{
    struct rd_buf config = RD_BUF_INIT;
    struct rd_run_key key;
    bool found = !rd_run_key_of(r, &config, &key) && rd_run_index_contains(ix, &key, r->run);
    rd_buf_release(&config);
    return found;
}

long rd_run_index_max(const struct rd_run_index *ix, const struct rd_record *r)
{
    struct rd_buf config = RD_BUF_INIT;
    struct rd_run_key key;
    const struct rd_run_series *se =
        rd_run_key_of(r, &config, &key) ? NULL : rd_run_index_series(ix, &key);
    rd_buf_release(&config);
    return se ? se->last : 0;
}

rd_status rd_run_index_load_each(struct rd_run_index *ix, const char *path,
                                 rd_status (*each)(void *ctx, const struct rd_record *rec),
                                 void *ctx, struct rd_diag *d)
{
    struct rd_store_reader reader;
    FILE *probe = fopen(path, "r");
    if (!probe)
        return RD_OK;
    fclose(probe);
    RD_TRY(rd_store_open(&reader, path, d));
    struct rd_record rec;
    int got;
    rd_status s;
    while (!(s = rd_store_next(&reader, &rec, &got, d)) && got) {
        if ((s = rd_run_index_add(ix, &rec)) || (each && (s = each(ctx, &rec))))
            break;
    }
    rd_store_close(&reader);
    return s;
}

rd_status rd_run_index_load(struct rd_run_index *ix, const char *path, struct rd_diag *d)
{
    return rd_run_index_load_each(ix, path, NULL, NULL, d);
}
