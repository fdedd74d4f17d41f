/*
 * digests - the digests of imported runs (see digests.h).
 */
#include "digests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/array.h"
#include "rundown/sha256.h"
#include "rundown/store.h"

/*
 * One pass over the input, then a copy of the hash state per run: linear
 * in the input and in the runs, so 10^6 runs of one hyperfine export cost
 * little more than one.
 */
rd_status rd_digests_set(const struct rd_import_input *in, struct rd_recordset *set,
                         size_t first)
{
    struct rd_sha256 file;
    rd_sha256_init(&file);
    rd_sha256_add(&file, in->data, in->len);
    for (size_t i = first; i < set->len; i++) {
        struct rd_sha256 c = file;
        char ord[32], hex[65], value[80];
        unsigned char digest[32];
        int len = snprintf(ord, sizeof ord, "%c#%zu", '\0', i - first);
        rd_sha256_add(&c, ord, (size_t)len);
        rd_sha256_end(&c, digest);
        rd_sha256_to_hex(digest, hex);
        snprintf(value, sizeof value, "sha256:%s", hex);
        RD_TRY(rd_record_set_source(&set->items[i], "digest", value));
    }
    return RD_OK;
}

const char *rd_record_digest(const struct rd_record *r)
{
    for (size_t i = 0; i < r->source.len; i++)
        if (strcmp(r->source.items[i].key, "digest") == 0)
            return r->source.items[i].value;
    return NULL;
}

void rd_digest_index_init(struct rd_digest_index *ix)
{
    memset(ix, 0, sizeof *ix);
    rd_strmap_init(&ix->ids);
    rd_arena_init(&ix->arena);
}

void rd_digest_index_release(struct rd_digest_index *ix)
{
    rd_strmap_release(&ix->ids);
    rd_arena_release(&ix->arena);
    free(ix->where);
    rd_digest_index_init(ix);
}

static const char *source_file(const struct rd_record *r)
{
    for (size_t i = 0; i < r->source.len; i++)
        if (strcmp(r->source.items[i].key, "file") == 0)
            return r->source.items[i].value;
    return NULL;
}

rd_status rd_digest_index_note(struct rd_digest_index *ix, const struct rd_record *r,
                               const char *place)
{
    const char *digest = rd_record_digest(r);
    if (!digest || rd_strmap_find(&ix->ids, digest))
        return RD_OK;
    struct rd_buf b = RD_BUF_INIT, id = RD_BUF_INIT;
    const char *file = source_file(r);
    rd_status s = rd_record_config_id(r, &id);
    if (!s)
        s = rd_buf_addf(&b, "%s: %s %s %s %ld", place, r->workload ? r->workload : "",
                        id.len ? id.ptr : "-", r->phase ? r->phase : "measure", r->run);
    if (!s && file)
        s = rd_buf_addf(&b, ", from %s:%u", file, r->source_line);
    const char *where = s ? NULL : rd_arena_strdup(&ix->arena, b.ptr);
    rd_buf_release(&b);
    rd_buf_release(&id);
    RD_TRY(s);
    if (!where)
        return RD_ERR_NOMEM;
    RD_TRY(RD_ARRAY_GROW(ix->where, ix->cap, ix->n + 1));
    RD_TRY(rd_strmap_put(&ix->ids, digest, (int64_t)ix->n, NULL));
    ix->where[ix->n++] = where;
    return RD_OK;
}

const char *rd_digest_index_find(const struct rd_digest_index *ix, const char *digest)
{
    int64_t *k = digest ? rd_strmap_find(&ix->ids, digest) : NULL;
    return k ? ix->where[*k] : NULL;
}

rd_status rd_digest_index_load(struct rd_digest_index *ix, const char *path,
                               struct rd_diag *d)
{
    FILE *probe = fopen(path, "r");
    if (!probe)
        return RD_OK;
    fclose(probe);
    struct rd_store_reader reader;
    RD_TRY(rd_store_open(&reader, path, d));
    struct rd_record rec;
    int got;
    rd_status s;
    while (!(s = rd_store_next(&reader, &rec, &got, d)) && got)
        if ((s = rd_digest_index_note(ix, &rec, path)))
            break;
    rd_store_close(&reader);
    return s;
}
