/*
 * record - the run record (rundown.run/1): building, JSON output and
 * validated JSON input, and the recordset that owns records.
 *
 * Output is written by hand into an rd_buf (fixed key order, shortest
 * round-trip numbers) because it is the hot path of every importer and of the
 * runner; input goes through cJSON, which core's JSON I/O owns.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "rundown/array.h"
#include "rundown/json.h"
#include "rundown/record.h"
#include "rundown/utf8.h"

void rd_record_init(struct rd_record *r, struct rd_arena *arena)
{
    memset(r, 0, sizeof *r);
    r->arena = arena;
    r->phase = "measure";
    r->status = "ok";
}

rd_status rd_record_set(struct rd_record *r, const char **field, const char *value)
{
    if (!value) {
        *field = NULL;
        return RD_OK;
    }
    char *copy = rd_arena_strdup(r->arena, value);
    if (!copy)
        return RD_ERR_NOMEM;
    *field = copy;
    return RD_OK;
}

/* Grows an arena-backed array; the old copy stays in the arena (records are
 * small and short-lived, and the arena frees everything at once). */
static void *grow_array(struct rd_arena *a, void *items, size_t len, size_t *cap,
                        size_t elem)
{
    if (len < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 8;
    void *n = rd_arena_alloc(a, ncap * elem);
    if (!n)
        return NULL;
    if (len)
        memcpy(n, items, len * elem);
    *cap = ncap;
    return n;
}

/* Position of 'key' in list: its index when present (*found set), else
 * where it goes (the end when unsorted). */
static size_t kv_find(const struct rd_kvlist *list, const char *key, bool sorted,
                      bool *found)
{
    size_t pos = list->len;
    *found = false;
    for (size_t i = 0; i < list->len; i++) {
        int c = strcmp(key, list->items[i].key);
        if (c == 0) {
            *found = true;
            return i;
        }
        if (sorted && c < 0 && pos == list->len)
            pos = i;
    }
    return pos;
}

/* Inserts key/value at pos as given: the caller owns their lifetime. */
static rd_status kv_insert(struct rd_arena *a, struct rd_kvlist *list, size_t pos,
                           const char *key, const char *value)
{
    struct rd_kv *items = grow_array(a, list->items, list->len, &list->cap,
                                     sizeof *items);
    if (!items)
        return RD_ERR_NOMEM;
    list->items = items;
    memmove(items + pos + 1, items + pos, (list->len - pos) * sizeof *items);
    items[pos].key = key;
    items[pos].value = value;
    list->len++;
    return RD_OK;
}

static rd_status kv_set(struct rd_arena *a, struct rd_kvlist *list, const char *key,
                        const char *value, bool sorted)
{
    bool found;
    size_t pos = kv_find(list, key, sorted, &found);
    const char *v = rd_arena_strdup(a, value);
    if (!v)
        return RD_ERR_NOMEM;
    if (found) {
        list->items[pos].value = v;
        return RD_OK;
    }
    const char *k = rd_arena_strdup(a, key);
    if (!k)
        return RD_ERR_NOMEM;
    return kv_insert(a, list, pos, k, v);
}

static const char *kv_get(const struct rd_kvlist *list, const char *key)
{
    for (size_t i = 0; i < list->len; i++)
        if (strcmp(list->items[i].key, key) == 0)
            return list->items[i].value;
    return NULL;
}

rd_status rd_record_set_label(struct rd_record *r, const char *key, const char *value)
{
    return kv_set(r->arena, &r->config, key, value, true);
}

const char *rd_record_label(const struct rd_record *r, const char *key)
{
    return kv_get(&r->config, key);
}

rd_status rd_record_set_info(struct rd_record *r, const char *key, const char *value)
{
    return kv_set(r->arena, &r->info, key, value, true);
}

const char *rd_record_info(const struct rd_record *r, const char *key)
{
    return kv_get(&r->info, key);
}

long rd_record_round(const struct rd_record *r)
{
    const char *v = rd_record_info(r, "round");
    if (v && *v >= '1' && *v <= '9') {
        char *end;
        errno = 0;
        long round = strtol(v, &end, 10);
        if (!*end && errno == 0)
            return round;
    }
    return r->run > 0 ? r->run : 0;
}

rd_status rd_record_set_source(struct rd_record *r, const char *key, const char *value)
{
    return kv_set(r->arena, &r->source, key, value, true);
}

rd_status rd_record_set_metric(struct rd_record *r, const char *name, double value)
{
    for (size_t i = 0; i < r->nmetrics; i++) {
        if (strcmp(r->metrics[i].name, name) == 0) {
            r->metrics[i].value = value;
            return RD_OK;
        }
    }
    struct rd_metric *m = grow_array(r->arena, r->metrics, r->nmetrics,
                                     &r->metrics_cap, sizeof *m);
    if (!m)
        return RD_ERR_NOMEM;
    r->metrics = m;
    const char *n = rd_arena_strdup(r->arena, name);
    if (!n)
        return RD_ERR_NOMEM;
    m[r->nmetrics].name = n;
    m[r->nmetrics].value = value;
    r->nmetrics++;
    return RD_OK;
}

bool rd_record_metric(const struct rd_record *r, const char *name, double *out)
{
    /* Mostly asked for metrics a record does not have (analyze probes a
     * dozen names a record: contention, load errors): the first byte
     * turns most of them away without a call to strcmp, which was 5 % of
     * analyze's CPU on a store of 10^6 records. */
    for (size_t i = 0; i < r->nmetrics; i++) {
        if (r->metrics[i].name[0] == name[0] && strcmp(r->metrics[i].name, name) == 0) {
            if (out)
                *out = r->metrics[i].value;
            return true;
        }
    }
    return false;
}

void rd_record_remove_metric(struct rd_record *r, const char *name)
{
    for (size_t i = 0; i < r->nmetrics; i++) {
        if (strcmp(r->metrics[i].name, name) == 0) {
            memmove(r->metrics + i, r->metrics + i + 1,
                    (r->nmetrics - i - 1) * sizeof *r->metrics);
            r->nmetrics--;
            return;
        }
    }
}

rd_status rd_record_config_id(const struct rd_record *r, struct rd_buf *out)
{
    /* Not a call per piece (nor rd_buf_addf): analyze builds this key for
     * every run it reads. One growth, then the bytes copied in place. */
    size_t n = r->config.len, len = n ? n - 1 : 0;
    for (size_t i = 0; i < n; i++)
        len += strlen(r->config.items[i].key) + 1 + strlen(r->config.items[i].value);
    if (len == 0)
        return RD_OK;
    RD_TRY(rd_buf_grow(out, len));
    char *p = out->ptr + out->len;
    for (size_t i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        for (const char *k = r->config.items[i].key; *k;)
            *p++ = *k++;
        *p++ = '=';
        for (const char *v = r->config.items[i].value; *v;)
            *p++ = *v++;
    }
    *p = '\0';
    out->len += len;
    return RD_OK;
}

/* ---- output ---- */

static rd_status add_key(struct rd_buf *b, const char *key)
{
    rd_status s = rd_buf_addch(b, ',');
    if (!s)
        s = rd_buf_add_json_string(b, key);
    return s ? s : rd_buf_addch(b, ':');
}

static rd_status add_str_field(struct rd_buf *b, const char *key, const char *value)
{
    rd_status s = add_key(b, key);
    return s ? s : rd_buf_add_json_string(b, value);
}

static rd_status add_kv_object(struct rd_buf *b, const struct rd_kvlist *list)
{
    rd_status s = rd_buf_addch(b, '{');
    for (size_t i = 0; i < list->len && !s; i++) {
        if (i)
            s = rd_buf_addch(b, ',');
        if (!s)
            s = rd_buf_add_json_string(b, list->items[i].key);
        if (!s)
            s = rd_buf_addch(b, ':');
        if (!s)
            s = rd_buf_add_json_string(b, list->items[i].value);
    }
    return s ? s : rd_buf_addch(b, '}');
}

rd_status rd_record_to_json(const struct rd_record *r, struct rd_buf *b)
{
    size_t start = b->len;
    rd_status s = rd_buf_addstr(b, "{\"schema\":\"" RD_RUN_SCHEMA "\"");
    if (!s && r->suite)
        s = add_str_field(b, "suite", r->suite);
    if (!s)
        s = add_str_field(b, "workload", r->workload ? r->workload : "");
    if (!s)
        s = add_key(b, "config");
    if (!s)
        s = add_kv_object(b, &r->config);
    if (!s && r->run > 0) {
        s = add_key(b, "run");
        if (!s)
            s = rd_buf_addf(b, "%ld", r->run);
    }
    if (!s)
        s = add_str_field(b, "phase", r->phase ? r->phase : "measure");
    if (!s && r->tool)
        s = add_str_field(b, "tool", r->tool);
    if (!s)
        s = add_str_field(b, "status", r->status ? r->status : "ok");
    if (!s && r->has_exit_code) {
        s = add_key(b, "exit_code");
        if (!s)
            s = rd_buf_addf(b, "%d", r->exit_code);
    }
    if (!s && r->started_at)
        s = add_str_field(b, "started_at", r->started_at);
    if (!s && r->env)
        s = add_str_field(b, "env", r->env);
    if (!s && r->contended)
        s = rd_buf_addstr(b, ",\"contended\":true");
    if (!s)
        s = add_key(b, "metrics");
    if (!s)
        s = rd_buf_addch(b, '{');
    for (size_t i = 0; i < r->nmetrics && !s; i++) {
        if (i)
            s = rd_buf_addch(b, ',');
        if (!s)
            s = rd_buf_add_json_string(b, r->metrics[i].name);
        if (!s)
            s = rd_buf_addch(b, ':');
        if (!s)
            s = rd_buf_add_json_number(b, r->metrics[i].value);
    }
    if (!s)
        s = rd_buf_addch(b, '}');
    if (!s && r->info.len) {
        s = add_key(b, "info");
        if (!s)
            s = add_kv_object(b, &r->info);
    }
    if (!s && (r->source.len || r->source_line)) {
        s = add_key(b, "source");
        if (!s)
            s = rd_buf_addch(b, '{');
        for (size_t i = 0; i < r->source.len && !s; i++) {
            if (i)
                s = rd_buf_addch(b, ',');
            if (!s)
                s = rd_buf_add_json_string(b, r->source.items[i].key);
            if (!s)
                s = rd_buf_addch(b, ':');
            if (!s)
                s = rd_buf_add_json_string(b, r->source.items[i].value);
        }
        if (!s && r->source_line)
            s = rd_buf_addf(b, "%s\"line\":%u", r->source.len ? "," : "",
                            r->source_line);
        if (!s)
            s = rd_buf_addch(b, '}');
    }
    if (!s)
        s = rd_buf_addstr(b, "}\n");
    if (s)
        rd_buf_truncate(b, start);
    return s;
}

/* ---- validation and input ---- */

/* Whether s is the n bytes of lit: with lit a literal (LIT_IS), GCC
 * unrolls the loop into a compare a byte, where strcmp was a call a key
 * (ten keys a record, and its phase, status and schema: 1.3 % of
 * analyze's instructions on store-1m's first 200,000 runs). s is read
 * only up to its first byte that differs, its NUL at the latest. */
static inline bool lit_is(const char *s, const char *lit, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != lit[i])
            return false;
    return s[n] == '\0';
}

#define LIT_IS(s, lit) lit_is((s), "" lit, sizeof(lit) - 1)

static bool known_status(const char *s)
{
    return LIT_IS(s, "ok") || LIT_IS(s, "failed") || LIT_IS(s, "timeout");
}

static bool known_phase(const char *s)
{
    return LIT_IS(s, "measure") || LIT_IS(s, "warmup");
}

/*
 * Characters a run record may not hold, anywhere in it (docs/run-record.md):
 * U+0000, which cJSON ends a decoded string at (so "x\u0000one" and
 * "x\u0000two" would read as one label), and the bidirectional controls
 * U+061C, U+200E, U+200F, U+202A..U+202E and U+2066..U+2069, which reorder
 * the text around them in every report (a label "\u202Egnp.exe" shows as
 * "exe.png"). Refused rather than shown: a label is an identifier, and no
 * benchmark needs one.
 */
static bool forbidden_char(uint32_t cp)
{
    return cp == 0 || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Offset of the first forbidden character of s[0..len), raw or as a \u
 * escape inside a JSON string, with its code point in *cp; len when none.
 * s is valid UTF-8. */
static size_t forbidden_at(const char *s, size_t len, uint32_t *cp)
{
    /* Nearly every line has no backslash, no NUL and no byte that can
     * start one of these characters (0xD8: U+061C, 0xE2: the others). */
    if (!memchr(s, '\\', len) && !memchr(s, '\0', len) && !memchr(s, 0xE2, len) &&
        !memchr(s, 0xD8, len))
        return len;
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            size_t n = rd_utf8_decode((const unsigned char *)s + i, len - i, cp);
            if (n && forbidden_char(*cp))
                return i;
            i += n ? n - 1 : 0;
        } else if (c == 0) {
            *cp = 0;
            return i;
        } else if (c == '"') {
            in_string = !in_string;
        } else if (c == '\\' && in_string && i + 1 < len) {
            int h[4] = { -1, -1, -1, -1 };
            if (s[i + 1] == 'u' && i + 5 < len)
                for (int k = 0; k < 4; k++)
                    h[k] = hex_digit(s[i + 2 + k]);
            if (h[0] >= 0 && h[1] >= 0 && h[2] >= 0 && h[3] >= 0) {
                *cp = (uint32_t)(h[0] << 12 | h[1] << 8 | h[2] << 4 | h[3]);
                if (forbidden_char(*cp))
                    return i;
                i += 5;
            } else {
                i++; /* \" and \\ do not end or start anything */
            }
        }
    }
    return len;
}

/* Whether s[0..len) is ASCII without a backslash or a NUL: a line that
 * neither rd_utf8_invalid_at nor forbidden_at can stop in (every byte of
 * a forbidden character, raw, is 0x80 or more; escaped, it needs a
 * backslash). One pass, 16 bytes at a time where SSE2 is (every x86-64)
 * and 8 (a word) after or elsewhere, instead of their five (the UTF-8
 * scan and four memchr), which were 2-3 % of analyze's CPU on a store of
 * 10^6 records. Written by hand: no library has this test. A word that
 * may hold such a byte (the zero-byte test below is exact, but it is
 * enough that it misses none) ends it: the full checks then decide. */
static bool plain_ascii(const char *s, size_t len)
{
    size_t i = 0;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128(), backslash = _mm_set1_epi8('\\');
    for (; len - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, zero), _mm_cmpeq_epi8(v, backslash));
        /* the top bit of each byte: 0x80 or more, or a match above */
        if (_mm_movemask_epi8(_mm_or_si128(v, hit)))
            return false;
    }
#endif
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    const uint64_t backslashes = ones * (unsigned char)'\\';
    for (; len - i >= sizeof(uint64_t); i += sizeof(uint64_t)) {
        uint64_t w, b;
        memcpy(&w, s + i, sizeof w);
        b = w ^ backslashes; /* a zero byte where w has a backslash */
        if ((w | ((w - ones) & ~w) | ((b - ones) & ~b)) & highs)
            return false;
    }
    for (; i < len; i++)
        if ((unsigned char)s[i] >= 0x80 || s[i] == '\\' || s[i] == '\0')
            return false;
    return true;
}

/* The first forbidden character of the C string s (NUL cannot be in one). */
static bool has_forbidden(const char *s, uint32_t *cp)
{
    return s && forbidden_at(s, strlen(s), cp) < strlen(s);
}

/* A metric that is a time (wall_ms, duration_s, ...) cannot be negative;
 * a rate per second (transfer_bytes_per_s) is not a time. */
static bool time_metric(const char *name)
{
    static const char *const units[] = { "_ms", "_s", "_us", "_ns" };
    size_t n = strlen(name);
    if (n >= 6 && strcmp(name + n - 6, "_per_s") == 0)
        return false;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t u = strlen(units[i]);
        if (n > u && strcmp(name + n - u, units[i]) == 0)
            return true;
    }
    return false;
}

static rd_status forbidden_error(struct rd_diag *d, unsigned line, unsigned col,
                                 const char *what, uint32_t cp)
{
    return rd_diag_set(d, RD_ERR_PARSE, NULL, line, col,
                       "expected %s without NUL or bidirectional control characters, "
                       "got U+%04X%s", what, (unsigned)cp,
                       cp == 0 ? " (NUL)" : " (it reorders the text around it)");
}

/* The labels, workload, metric names and info of a record a writer made:
 * the same characters are refused as on reading, so a store rundown wrote
 * can always be read back. */
static rd_status check_strings(const struct rd_record *r, struct rd_diag *d)
{
    uint32_t cp;
    if (has_forbidden(r->workload, &cp))
        return forbidden_error(d, 0, 0, "a workload name", cp);
    const struct rd_kvlist *lists[] = { &r->config, &r->info, &r->source };
    for (size_t l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->len; i++)
            if (has_forbidden(lists[l]->items[i].key, &cp) ||
                has_forbidden(lists[l]->items[i].value, &cp))
                return forbidden_error(d, 0, 0, l == 0 ? "a label" : "a value", cp);
    for (size_t i = 0; i < r->nmetrics; i++)
        if (has_forbidden(r->metrics[i].name, &cp))
            return forbidden_error(d, 0, 0, "a metric name", cp);
    return RD_OK;
}

rd_status rd_record_validate(const struct rd_record *r, struct rd_diag *d)
{
    if (!r->workload || !r->workload[0])
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                           "a run record needs a workload name (use -w)");
    RD_TRY(check_strings(r, d));
    for (size_t i = 0; i < r->nmetrics; i++)
        if (r->metrics[i].value < 0 && time_metric(r->metrics[i].name))
            return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0,
                               "expected a time of at least 0 for '%s', got %g",
                               r->metrics[i].name, r->metrics[i].value);
    if (r->status && !known_status(r->status))
        return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0,
                           "expected status ok, failed or timeout, got '%s'", r->status);
    if (r->phase && !known_phase(r->phase))
        return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0,
                           "expected phase measure or warmup, got '%s'", r->phase);
    return RD_OK;
}

/* 1-based column of the first occurrence of "key": in the line, so a message
 * points near the offending member (cJSON keeps no positions). */
static unsigned key_col(const char *line, size_t len, const char *key)
{
    size_t klen = strlen(key);
    for (size_t i = 0; i + klen + 2 <= len; i++)
        if (line[i] == '"' && memcmp(line + i + 1, key, klen) == 0 &&
            line[i + 1 + klen] == '"')
            return (unsigned)i + 1;
    return 1;
}

struct parse_ctx {
    const char *line;
    size_t len;
    struct rd_diag *d;
};

static rd_status field_error(const struct parse_ctx *c, const char *key,
                             const char *expected)
{
    unsigned line = c->d ? c->d->line : 0;
    return rd_diag_set(c->d, RD_ERR_PARSE, NULL, line, key_col(c->line, c->len, key),
                       "expected %s for '%s'", expected, key);
}

/* A key given twice in one object; the column is that of its second
 * occurrence on the line (a near guess when the key is also used in another
 * object: cJSON keeps no positions). */
static rd_status dup_error(const struct parse_ctx *c, const char *key)
{
    unsigned first = key_col(c->line, c->len, key), col = first;
    if (first < c->len) {
        unsigned next = key_col(c->line + first, c->len - first, key);
        if (next > 1) /* 1 is key_col's "not found" */
            col = first + next;
    }
    unsigned line = c->d ? c->d->line : 0;
    return rd_diag_set(c->d, RD_ERR_PARSE, NULL, line, col,
                       "expected each key once, got '%s' twice", key);
}

/*
 * Input goes through cJSON with its allocations in the record's arena
 * (rd_json_parse_tree, json.h): cJSON would otherwise make one malloc per
 * node and per string and as many frees (a third of the parse time), and
 * the record's strings can then point into the tree instead of being
 * copied, because both live exactly as long as the arena.
 */
/* The members of a run record. */
enum member {
    M_SCHEMA, M_SUITE, M_WORKLOAD, M_PHASE, M_TOOL, M_STATUS, M_STARTED_AT, M_ENV,
    M_RUN, M_EXIT_CODE, M_CONFIG, M_INFO, M_SOURCE, M_METRICS, M_CONTENDED, M_COUNT
};

static int member_of(const char *k)
{
    switch (k[0]) {
    case 's':
        return LIT_IS(k, "schema")       ? M_SCHEMA
               : LIT_IS(k, "status")     ? M_STATUS
               : LIT_IS(k, "suite")      ? M_SUITE
               : LIT_IS(k, "started_at") ? M_STARTED_AT
               : LIT_IS(k, "source")     ? M_SOURCE
                                         : -1;
    case 'w': return LIT_IS(k, "workload") ? M_WORKLOAD : -1;
    case 'p': return LIT_IS(k, "phase") ? M_PHASE : -1;
    case 't': return LIT_IS(k, "tool") ? M_TOOL : -1;
    case 'e': return LIT_IS(k, "env") ? M_ENV : LIT_IS(k, "exit_code") ? M_EXIT_CODE : -1;
    case 'r': return LIT_IS(k, "run") ? M_RUN : -1;
    case 'c': return LIT_IS(k, "config") ? M_CONFIG : LIT_IS(k, "contended") ? M_CONTENDED : -1;
    case 'i': return LIT_IS(k, "info") ? M_INFO : -1;
    case 'm': return LIT_IS(k, "metrics") ? M_METRICS : -1;
    default: return -1;
    }
}

/* cJSON's type tests, read from the node as cJSON.h lays it out (the
 * low byte of type), without a call into the library each: some 20 a
 * record, 1 % of analyze's CPU on a store of 10^6 records. */
static inline bool json_is(const cJSON *v, int type)
{
    return v && (v->type & 0xFF) == type;
}

static inline bool is_null(const cJSON *v)
{
    return json_is(v, cJSON_NULL);
}

static inline bool is_string(const cJSON *v)
{
    return json_is(v, cJSON_String);
}

static inline bool is_number(const cJSON *v)
{
    return json_is(v, cJSON_Number);
}

static inline bool is_object(const cJSON *v)
{
    return json_is(v, cJSON_Object);
}

/* An optional string member: absent or null leaves *out untouched. The
 * string stays in the tree, which lives in the record's arena. */
static rd_status opt_string(const struct parse_ctx *c, const cJSON *v, const char *key,
                            const char **out)
{
    if (!v || is_null(v))
        return RD_OK;
    if (!is_string(v))
        return field_error(c, key, "a string");
    *out = v->valuestring;
    return RD_OK;
}

static rd_status string_object(const struct parse_ctx *c, struct rd_record *r,
                               const cJSON *o, const char *key,
                               struct rd_kvlist *list, bool required)
{
    if (!o || is_null(o)) {
        if (required)
            return field_error(c, key, "an object of strings");
        return RD_OK;
    }
    if (!is_object(o))
        return field_error(c, key, "an object of strings");
    for (const cJSON *it = o->child; it; it = it->next) {
        if (list == &r->source && strcmp(it->string, "line") == 0) {
            if (!is_number(it) || it->valuedouble < 0 || it->valuedouble > 4e9)
                return field_error(c, "line", "a line number");
            r->source_line = (unsigned)it->valuedouble;
            continue;
        }
        if (!is_string(it))
            return field_error(c, it->string, "a string value");
        bool found;
        size_t pos = kv_find(list, it->string, true, &found);
        if (found)
            return dup_error(c, it->string);
        rd_status s = kv_insert(r->arena, list, pos, it->string, it->valuestring);
        if (s)
            return s;
    }
    return RD_OK;
}

/* cJSON keeps both members of a duplicated key and finds the first, other
 * readers (Python, jq) take the last: the same line would mean different
 * runs to different tools, so it is refused. This names the same duplicate
 * whichever way it was noticed: the first key that comes again. */
static rd_status root_dup_error(const struct parse_ctx *c, const cJSON *root)
{
    for (const cJSON *a = root->child; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (strcmp(a->string, b->string) == 0)
                return dup_error(c, b->string);
    return RD_OK;
}

static rd_status parse_members(const struct parse_ctx *c, struct rd_record *r,
                               const cJSON *root)
{
    rd_status s;
    if (!is_object(root))
        return rd_diag_set(c->d, RD_ERR_PARSE, NULL, c->d ? c->d->line : 0, 1,
                           "expected a run record object");
    /* One pass sorts the members out (instead of a lookup per key); keys
     * it does not know are only checked for duplicates among themselves. */
    const cJSON *m[M_COUNT] = {0};
    bool dup = false;
    for (const cJSON *it = root->child; it && !dup; it = it->next) {
        int k = member_of(it->string);
        if (k >= 0) {
            dup = m[k] != NULL;
            m[k] = it;
            continue;
        }
        for (const cJSON *b = it->next; b && !dup; b = b->next)
            dup = strcmp(it->string, b->string) == 0;
    }
    if (dup)
        return root_dup_error(c, root);
    if (!is_string(m[M_SCHEMA]) || !LIT_IS(m[M_SCHEMA]->valuestring, RD_RUN_SCHEMA))
        return field_error(c, "schema", "\"" RD_RUN_SCHEMA "\"");

    if ((s = opt_string(c, m[M_SUITE], "suite", &r->suite)) ||
        (s = opt_string(c, m[M_WORKLOAD], "workload", &r->workload)) ||
        (s = opt_string(c, m[M_PHASE], "phase", &r->phase)) ||
        (s = opt_string(c, m[M_TOOL], "tool", &r->tool)) ||
        (s = opt_string(c, m[M_STATUS], "status", &r->status)) ||
        (s = opt_string(c, m[M_STARTED_AT], "started_at", &r->started_at)) ||
        (s = opt_string(c, m[M_ENV], "env", &r->env)))
        return s;
    if (!r->workload || !r->workload[0])
        return field_error(c, "workload", "a workload name");
    if (!known_phase(r->phase))
        return field_error(c, "phase", "\"measure\" or \"warmup\"");
    if (!known_status(r->status))
        return field_error(c, "status", "\"ok\", \"failed\" or \"timeout\"");

    const cJSON *run = m[M_RUN];
    if (run && !is_null(run)) {
        if (!is_number(run) || run->valuedouble < 0 || run->valuedouble > 1e15 ||
            run->valuedouble != floor(run->valuedouble))
            return field_error(c, "run", "a run number");
        r->run = (long)run->valuedouble;
    }
    const cJSON *ec = m[M_EXIT_CODE];
    if (ec && !is_null(ec)) {
        if (!is_number(ec) || fabs(ec->valuedouble) > 1e9)
            return field_error(c, "exit_code", "an integer");
        r->exit_code = (int)ec->valuedouble;
        r->has_exit_code = true;
    }
    const cJSON *cont = m[M_CONTENDED];
    if (cont && !is_null(cont)) {
        if (!cJSON_IsBool(cont))
            return field_error(c, "contended", "true or false");
        r->contended = cJSON_IsTrue(cont);
    }
    if ((s = string_object(c, r, m[M_CONFIG], "config", &r->config, true)) ||
        (s = string_object(c, r, m[M_INFO], "info", &r->info, false)) ||
        (s = string_object(c, r, m[M_SOURCE], "source", &r->source, false)))
        return s;

    const cJSON *metrics = m[M_METRICS];
    if (!is_object(metrics))
        return field_error(c, "metrics", "an object of numbers");
    for (const cJSON *it = metrics->child; it; it = it->next) {
        double v;
        if (is_number(it) && isfinite(it->valuedouble))
            v = it->valuedouble;
        else if (is_number(it)) /* 1e999: cJSON's strtod gives inf */
            return field_error(c, it->string, "a finite number or null");
        else if (is_null(it))
            v = NAN;
        else
            return field_error(c, it->string, "a number or null");
        if (v < 0 && time_metric(it->string))
            return rd_diag_set(c->d, RD_ERR_PARSE, NULL, c->d ? c->d->line : 0,
                               key_col(c->line, c->len, it->string),
                               "expected a time of at least 0 for '%s', got %g", it->string, v);
        if (rd_record_metric(r, it->string, NULL))
            return dup_error(c, it->string);
        struct rd_metric *ms = grow_array(r->arena, r->metrics, r->nmetrics,
                                          &r->metrics_cap, sizeof *ms);
        if (!ms)
            return RD_ERR_NOMEM;
        r->metrics = ms;
        ms[r->nmetrics].name = it->string;
        ms[r->nmetrics].value = v;
        r->nmetrics++;
    }
    return RD_OK;
}

/* A change to what this makes of a line must bump RD_CACHE_VERSION
 * (storecache.h): caches keep its records. */
rd_status rd_record_from_json(struct rd_record *r, struct rd_arena *arena,
                              const char *line, size_t len, struct rd_diag *d)
{
    rd_record_init(r, arena);
    /* A store is UTF-8 (rundown writes nothing else): a stray byte means a
     * damaged file, and passing it on would put invalid text into every
     * report format downstream. A line of plain ASCII (one pass) passes
     * both checks; any other is checked in full. */
    if (!plain_ascii(line, len)) {
        size_t bad = rd_utf8_invalid_at(line, len);
        if (bad < len)
            return rd_diag_set(d, RD_ERR_PARSE, NULL, d ? d->line : 0, (unsigned)bad + 1,
                               "expected UTF-8 text, got byte 0x%02x",
                               (unsigned char)line[bad]);
        uint32_t cp;
        size_t at = forbidden_at(line, len, &cp);
        if (at < len)
            return forbidden_error(d, d ? d->line : 0, (unsigned)at + 1, "text", cp);
    }
    const char *end = NULL;
    bool oom = false;
    cJSON *root = rd_json_parse_tree(arena, line, len, &end, &oom);
    if (oom)
        return RD_ERR_NOMEM;
    if (!root) {
        /* cJSON points at the last byte when input ends early: report that
         * as the end of the line, which is what a reader needs to see. */
        size_t off = end && end >= line && end <= line + len ? (size_t)(end - line) : 0;
        if (off + 1 >= len)
            off = len;
        /* The whole token, not its tail: back to where it starts. */
        while (off > 0 && off < len && !strchr(",:{}[] \t", line[off - 1]))
            off--;
        /* An object whose line stops before its closing brace was cut
         * (a write that died, a copy cut short): say so. */
        size_t first = 0, last = len;
        while (first < len && (line[first] == ' ' || line[first] == '\t'))
            first++;
        while (last > first && strchr(" \t\r", line[last - 1]))
            last--;
        bool cut = first < len && line[first] == '{' && line[last - 1] != '}';
        unsigned col = (unsigned)off + 1;
        char got[48];
        size_t left = len - off;
        end = line + off;
        rd_excerpt(end, left, 20, got, sizeof got);
        if (cut)
            return rd_diag_set(d, RD_ERR_PARSE, NULL, d ? d->line : 0, col,
                               left ? "expected a JSON run record, got a line that ends "
                                      "early at '%s' (truncated?)"
                                    : "expected a JSON run record, got end of line "
                                      "(truncated?)%s", got);
        return rd_diag_set(d, RD_ERR_PARSE, NULL, d ? d->line : 0, col,
                           left ? "expected a JSON run record, got '%s'"
                                : "expected a JSON run record, got end of line%s",
                           got);
    }
    /* Anything after the object on the same line is a second value. */
    while (end && end < line + len && (*end == ' ' || *end == '\t' || *end == '\r'))
        end++;
    if (end && end < line + len)
        return rd_diag_set(d, RD_ERR_PARSE, NULL, d ? d->line : 0,
                           (unsigned)(end - line) + 1,
                           "expected one run record per line, got more after it");
    /* No cJSON_Delete: the tree is in the arena, and r points into it. */
    struct parse_ctx c = {line, len, d};
    return parse_members(&c, r, root);
}

/* ---- recordset ---- */

void rd_recordset_init(struct rd_recordset *set)
{
    set->items = NULL;
    set->len = set->cap = 0;
    rd_arena_init(&set->arena);
}

void rd_recordset_release(struct rd_recordset *set)
{
    free(set->items);
    rd_arena_release(&set->arena);
    rd_recordset_init(set);
}

struct rd_record *rd_recordset_add(struct rd_recordset *set)
{
    if (RD_ARRAY_GROW(set->items, set->cap, set->len + 1))
        return NULL;
    struct rd_record *r = &set->items[set->len++];
    rd_record_init(r, &set->arena);
    return r;
}
