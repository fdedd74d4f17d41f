/*
 * sources.c - no run counted twice: runs with the same source digest.
 *
 * `import` keeps in source.digest a SHA-256 of the input a run came from
 * (docs/run-record.md). The same digest twice in what one analysis reads
 * is the same run stored twice: a store made before import refused
 * duplicates, an import with --allow-duplicate, or stores concatenated or
 * named twice. The first run read is counted; every later copy is left
 * out of the statistics and noted with its config, which warnings.c
 * reports (duplicate_source) with both places. Digests are kept as their
 * 32 bytes, so a store of a million imported runs costs about 100 MB here
 * rather than its JSON.
 */
#include <string.h>

#include "sources.h"
#include "analysis_int.h"
#include "rundown/array.h"

/* The key of a digest: the 32 bytes of "sha256:<64 hex digits>"; any
 * other text (a digest of a later scheme) is hashed into 32 bytes, so its
 * copies still pair up. */
static void digest_key(const char *text, unsigned char key[32])
{
    memset(key, 0, 32);
    size_t len = strlen(text);
    if (len == 7 + 64 && strncmp(text, "sha256:", 7) == 0) {
        bool hex = true;
        for (size_t i = 0; i < 64 && hex; i++) {
            char c = text[7 + i];
            int v = c >= '0' && c <= '9' ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
            hex = v >= 0;
            if (hex)
                key[i / 2] = (unsigned char)(key[i / 2] | (v << (i % 2 ? 0 : 4)));
        }
        if (hex)
            return;
    }
    uint64_t h = rd_hash_fnv1a(text, len);
    for (int i = 0; i < 4; i++) {
        h = rd_hash_fnv1a_more(h, &i, sizeof i);
        memcpy(key + 8 * i, &h, 8);
    }
}

/* r's source.digest, or NULL. */
static const char *digest_of(const struct rd_record *r)
{
    for (size_t i = 0; i < r->source.len; i++)
        if (strcmp(r->source.items[i].key, "digest") == 0 && r->source.items[i].value[0])
            return r->source.items[i].value;
    return NULL;
}

static rd_status add_dup(struct cfg *c, struct dup_run dup)
{
    RD_TRY(RD_ARRAY_GROW(c->dups, c->capdups, (size_t)c->ndups + 1));
    c->dups[c->ndups++] = dup;
    return RD_OK;
}

rd_status rd_sources_check(struct rd_analysis *a, const struct rd_record *r, uint32_t input,
                           unsigned line, bool *dup)
{
    *dup = false;
    const char *text = digest_of(r);
    if (!text)
        return RD_OK;
    unsigned char key[32];
    digest_key(text, key);
    const int64_t *f = rd_strmap_findn(&a->digest_map, (const char *)key, sizeof key);
    if (!f)
        return RD_OK;
    const struct source_run *first = &a->sources[*f];
    *dup = true;
    return add_dup(&a->cfgs[first->cfg],
                   (struct dup_run){input, line, first->input, first->line});
}

/* Adds a digest as counted in config cfg at input:line. */
static rd_status keep(struct rd_analysis *a, const unsigned char key[32], uint32_t cfg,
                      uint32_t input, uint32_t line)
{
    RD_TRY(RD_ARRAY_GROW(a->sources, a->capsources, a->nsources + 1));
    struct source_run *s = &a->sources[a->nsources];
    memcpy(s->digest, key, sizeof s->digest);
    s->cfg = cfg;
    s->input = input;
    s->line = line;
    RD_TRY(rd_strmap_putn(&a->digest_map, (const char *)s->digest, sizeof s->digest,
                          (int64_t)a->nsources, NULL));
    a->nsources++;
    return RD_OK;
}

rd_status rd_sources_keep(struct rd_analysis *a, const struct rd_record *r, uint32_t cfg,
                          uint32_t input, unsigned line)
{
    const char *text = digest_of(r);
    if (!text)
        return RD_OK;
    unsigned char key[32];
    digest_key(text, key);
    return keep(a, key, cfg, input, line);
}

bool rd_sources_overlap(const struct rd_analysis *a, const struct rd_analysis *b)
{
    for (size_t i = 0; i < b->nsources; i++)
        if (rd_strmap_findn(&a->digest_map, (const char *)b->sources[i].digest,
                            sizeof b->sources[i].digest))
            return true;
    return false;
}

rd_status rd_sources_merge(struct rd_analysis *a, const struct rd_analysis *b,
                           const uint32_t *cfg_of, unsigned line0)
{
    for (size_t i = 0; i < b->nsources; i++) {
        const struct source_run *s = &b->sources[i];
        RD_TRY(keep(a, s->digest, cfg_of[s->cfg], s->input, line0 + s->line));
    }
    for (size_t i = 0; i < b->ncfgs; i++) {
        const struct cfg *bc = &b->cfgs[i];
        for (uint32_t j = 0; j < bc->ndups; j++) {
            struct dup_run d = bc->dups[j];
            d.line += line0;
            d.first_line += line0;
            RD_TRY(add_dup(&a->cfgs[cfg_of[i]], d));
        }
    }
    return RD_OK;
}
