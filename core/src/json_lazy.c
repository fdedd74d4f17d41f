/*
 * json_lazy - a JSON document parsed a part at a time (json_lazy.h).
 *
 * The scan below follows one value through the text: strings are skipped
 * whole (so brackets inside them do not count), brackets are counted, and
 * an array that may be cut out is measured with one more pass over it.
 * Whatever it does not check (numbers, literals, colons, commas) cJSON
 * checks when it parses the skeleton or an element; every byte of the
 * text is in exactly one of them or between two elements, where the walk
 * accepts only white space and one comma.
 */
#include "rundown/json_lazy.h"

#include <stdlib.h>
#include <string.h>

#include "rundown/array.h"
#include "rundown/buf.h"

/* cJSON refuses deeper nesting (CJSON_NESTING_LIMIT); so does the scan. */
#define SCAN_DEPTH 1000

/* White space as cJSON skips it between tokens: every byte up to a space. */
static bool is_ws(char c)
{
    return (unsigned char)c <= ' ';
}

/* The end of a number or literal: white space or a delimiter. A table,
 * not strchr or a switch: the scan asks this of every byte of every
 * number (half the bytes of an analysis are in numbers). */
#define WS8(b) [b] = true, [b + 1] = true, [b + 2] = true, [b + 3] = true, \
               [b + 4] = true, [b + 5] = true, [b + 6] = true, [b + 7] = true
static const bool token_end[256] = {
    WS8(0), WS8(8), WS8(16), WS8(24), [' '] = true,
    [','] = true, [':'] = true, [']'] = true, ['}'] = true, ['['] = true, ['{'] = true,
    ['"'] = true,
};
#undef WS8

static bool ends_token(char c)
{
    return token_end[(unsigned char)c];
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && is_ws(*p))
        p++;
    return p;
}

/* p at '"': just past the closing quote, or NULL when there is none.
 * Most strings of an analysis are short (keys, ids): their first bytes
 * are looked at here, before a call to memchr would pay off. */
static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end;) {
        const char *q = p, *near = end - p > 32 ? p + 32 : end;
        while (q < near && *q != '"')
            q++;
        if (q == near && (q == end || !(q = memchr(q, '"', (size_t)(end - q)))))
            return NULL;
        size_t bs = 0;
        while (q - bs > p && q[-1 - (ptrdiff_t)bs] == '\\')
            bs++;
        if (bs % 2 == 0)
            return q + 1;
        p = q + 1;
    }
    return NULL;
}

/* The bytes skip_array stops at; every other byte it passes over. */
static const bool array_stop[256] = {
    ['"'] = true, ['['] = true, ['{'] = true, [']'] = true, ['}'] = true, [','] = true,
};

/* p at '[': just past its ']' (brackets counted, not matched), and the
 * number of its elements (commas at its own level, plus one; none when
 * nothing but white space and commas stands before its end). This pass
 * goes over every byte of the arrays that are cut out (at 10^5 configs,
 * nearly the whole analysis), so the bytes between stops are passed in a
 * loop of their own. */
static const char *skip_array(const char *p, const char *end, size_t *count)
{
    size_t depth = 0, commas = 0;
    const char *first = p + 1;
    while (first < end && (is_ws(*first) || *first == ','))
        first++;
    bool any = first < end && *first != ']' && *first != '}';
    for (; p < end; p++) {
        while (!array_stop[(unsigned char)*p])
            if (++p == end)
                return NULL;
        switch (*p) {
        case '"':
            if (!(p = skip_string(p, end)))
                return NULL;
            p--;
            break;
        case '[':
        case '{':
            depth++;
            break;
        case ']':
        case '}':
            if (--depth == 0) {
                *count = any ? commas + 1 : 0;
                return p + 1;
            }
            break;
        default: /* ',' */
            commas += depth == 1;
        }
    }
    return NULL;
}

/* The skeleton of one value: the text with the cut-out arrays left as []. */
struct skel {
    struct rd_buf text;
    const char *copied;      /* the text before this is in 'text' already */
    size_t narrays;          /* arrays met in the skeleton so far */
    size_t first;            /* this part's first entry in lz->deferred */
};

static bool key_listed(const struct rd_json_lazy *lz, const char *k, size_t n)
{
    for (size_t i = 0; i < lz->nkeys; i++)
        if (strlen(lz->keys[i]) == n && memcmp(lz->keys[i], k, n) == 0)
            return true;
    return false;
}

/* Cuts the array text[p, q) out of the skeleton. */
static rd_status cut(struct rd_json_lazy *lz, struct skel *s, const char *p, const char *q,
                     size_t count)
{
    if (RD_ARRAY_GROW(lz->deferred, lz->capdeferred, lz->ndeferred + 1))
        return RD_ERR_NOMEM;
    RD_TRY(rd_buf_add(&s->text, s->copied, (size_t)(p - s->copied)));
    RD_TRY(rd_buf_add(&s->text, "[]", 2));
    s->copied = q;
    /* The node is found once the skeleton is parsed (bind). */
    lz->deferred[lz->ndeferred++] = (struct rd_json_deferred){
        .text = p, .len = (size_t)(q - p), .count = count, .ordinal = s->narrays++,
    };
    return RD_OK;
}

/*
 * Scans the one value that starts at *pp (after white space), cutting out
 * the arrays the rule names; *pp is left just past it. RD_ERR_PARSE when
 * its brackets or strings do not close.
 */
static rd_status scan(struct rd_json_lazy *lz, struct skel *s, const char **pp, const char *end)
{
    static _Thread_local bool in_object[SCAN_DEPTH];
    const char *p = skip_ws(*pp, end), *key = NULL;
    size_t depth = 0, keylen = 0;
    bool expect_key = false, after_colon = false;
    while (p < end) {
        char c = *p;
        if (is_ws(c)) {
            p++;
            continue;
        }
        if (c == '"') {
            const char *q = skip_string(p, end);
            if (!q)
                return RD_ERR_PARSE;
            if (expect_key) {
                key = p + 1;
                keylen = (size_t)(q - p - 2);
            }
            expect_key = after_colon = false;
            p = q;
        } else if (c == '[') {
            const char *first = skip_ws(p + 1, end);
            size_t count;
            const char *q;
            if (after_colon && first < end && *first == '{' && key_listed(lz, key, keylen) &&
                (q = skip_array(p, end, &count)) && (size_t)(q - p) >= lz->min_span) {
                RD_TRY(cut(lz, s, p, q, count));
                p = q;
                after_colon = false;
            } else {
                if (depth == SCAN_DEPTH)
                    return RD_ERR_PARSE;
                s->narrays++;
                in_object[depth++] = false;
                expect_key = after_colon = false;
                p++;
                continue;
            }
        } else if (c == '{') {
            if (depth == SCAN_DEPTH)
                return RD_ERR_PARSE;
            in_object[depth++] = true;
            expect_key = true;
            after_colon = false;
            p++;
            continue;
        } else if (c == ']' || c == '}') {
            if (depth == 0)
                return RD_ERR_PARSE;
            depth--;
            p++;
        } else if (c == ',' && depth > 0) {
            expect_key = in_object[depth - 1];
            after_colon = false;
            p++;
            continue;
        } else if (c == ':' && depth > 0) {
            after_colon = true;
            p++;
            continue;
        } else {
            /* A number or literal: to the next delimiter. */
            const char *from = p;
            while (p < end && !ends_token(*p))
                p++;
            if (p == from)      /* a comma or colon outside any container */
                return RD_ERR_PARSE;
            expect_key = after_colon = false;
        }
        if (depth == 0) {
            *pp = p;
            return RD_OK;
        }
    }
    return RD_ERR_PARSE;
}

/* Finds the skeleton's cut-out arrays in its tree: the arrays in document
 * order, which is cJSON's depth-first order. */
static void bind(struct rd_json_lazy *lz, const cJSON *v, size_t *ordinal, size_t *next)
{
    if (*next >= lz->ndeferred)
        return;
    if (cJSON_IsArray(v) && lz->deferred[*next].ordinal == (*ordinal)++)
        lz->deferred[(*next)++].node = v;
    if (cJSON_IsArray(v) || cJSON_IsObject(v))
        for (const cJSON *c = v->child; c; c = c->next)
            bind(lz, c, ordinal, next);
}

/* Parses the value at *pp into arena 'slot', *pp left past it. */
static rd_status parse_part(struct rd_json_lazy *lz, int slot, const char **pp, const char *end,
                            cJSON **out)
{
    struct skel s = { RD_BUF_INIT, NULL, 0, lz->ndeferred };
    const char *start = skip_ws(*pp, end);
    s.copied = start;
    rd_status st = scan(lz, &s, pp, end);
    const char *text = start;
    size_t len = (size_t)(*pp - start);
    if (st == RD_OK && s.first < lz->ndeferred) {
        st = rd_buf_add(&s.text, s.copied, (size_t)(*pp - s.copied));
        text = s.text.ptr;
        len = s.text.len;
    }
    if (st == RD_OK) {
        const char *parsed_end = NULL;
        bool oom = false;
        *out = rd_json_parse_tree(&lz->arenas[slot], text, len, &parsed_end, &oom);
        if (oom)
            st = RD_ERR_NOMEM;
        else if (!*out || skip_ws(parsed_end, text + len) != text + len)
            st = RD_ERR_PARSE;
    }
    if (st == RD_OK) {
        size_t ordinal = 0, next = s.first;
        bind(lz, *out, &ordinal, &next);
        if (next != lz->ndeferred)
            st = RD_ERR_PARSE;
    }
    rd_buf_release(&s.text);
    if (st == RD_ERR_PARSE)
        lz->json_error = true;
    return st;
}

/*
 * An element shorter than min_span holds no array to cut out (one is cut
 * from min_span bytes on), so the scan would hand cJSON the text as it
 * is: cJSON parses it straight away, given at most min_span bytes. When
 * that fails (a longer element, or not JSON) nothing is kept and
 * parse_part scans as before, so a walk reads and fails as it did. At
 * 10^5 configs this spares a pass over nearly every byte, byte by byte.
 * For valid JSON cJSON's end of a value is the scan's.
 */
static bool parse_short(struct rd_json_lazy *lz, int slot, const char **pp, const char *end,
                        cJSON **out)
{
    const char *start = skip_ws(*pp, end);
    size_t room = (size_t)(end - start);
    if (lz->min_span == 0)
        return false;
    if (room > lz->min_span)
        room = lz->min_span;
    const char *parsed_end = NULL;
    bool oom = false;
    cJSON *v = rd_json_parse_tree(&lz->arenas[slot], start, room, &parsed_end, &oom);
    /* A number that fills a cut window may go on past it. */
    if (v && room < (size_t)(end - start) && parsed_end == start + room)
        v = NULL;
    if (!v) {
        rd_arena_reset(&lz->arenas[slot]);
        return false;
    }
    *out = v;
    *pp = parsed_end;
    return true;
}

void rd_json_lazy_init(struct rd_json_lazy *lz, const char *text, size_t len,
                       const char *const *keys, size_t nkeys, size_t min_span)
{
    memset(lz, 0, sizeof *lz);
    lz->text = text;
    lz->len = len;
    lz->keys = keys;
    lz->nkeys = nkeys;
    lz->min_span = min_span;
}

/* An arena for depth 'slot' (the root's is 0). */
static rd_status arena_for(struct rd_json_lazy *lz, size_t slot)
{
    size_t cap = lz->narenas;
    if (slot < cap)
        return RD_OK;
    if (RD_ARRAY_GROW(lz->arenas, cap, slot + 1))
        return RD_ERR_NOMEM;
    for (size_t i = lz->narenas; i < cap; i++)
        rd_arena_init(&lz->arenas[i]);
    lz->narenas = cap;
    return RD_OK;
}

rd_status rd_json_lazy_root(struct rd_json_lazy *lz, cJSON **root)
{
    const char *p = lz->text, *end = lz->text + lz->len;
    /* cJSON skips a byte-order mark before the root only. */
    if (lz->len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    RD_TRY(arena_for(lz, 0));
    RD_TRY(parse_part(lz, 0, &p, end, root));
    /* After it only what rd_json_parse accepts there. */
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\0'))
        p++;
    if (p != end) {
        lz->json_error = true;
        return RD_ERR_PARSE;
    }
    return RD_OK;
}

static struct rd_json_deferred *find(const struct rd_json_lazy *lz, const cJSON *arr)
{
    for (size_t i = lz->ndeferred; arr && i-- > 0;)
        if (lz->deferred[i].node == arr)
            return &lz->deferred[i];
    return NULL;
}

size_t rd_json_lazy_size(const struct rd_json_lazy *lz, const cJSON *arr)
{
    const struct rd_json_deferred *d = find(lz, arr);
    return d ? d->count : (size_t)cJSON_GetArraySize(arr);
}

void rd_json_each_begin(struct rd_json_lazy *lz, struct rd_json_each *it, const cJSON *arr)
{
    struct rd_json_deferred *d = find(lz, arr);
    *it = (struct rd_json_each){ .slot = -1, .mark = lz->ndeferred };
    if (!d) {
        it->child = cJSON_IsArray(arr) ? arr->child : NULL;
        return;
    }
    /* Deeper than cJSON nests (each walk is two levels down at least). */
    if (lz->depth >= SCAN_DEPTH) {
        it->st = RD_ERR_PARSE;
        lz->json_error = true;
        return;
    }
    if ((it->st = arena_for(lz, (size_t)lz->depth + 1)) != RD_OK)
        return;
    d->walked = true;
    it->slot = ++lz->depth;
    it->p = d->text + 1;        /* past '[' */
    it->end = d->text + d->len;
}

/* Takes the cut-out arrays from 'mark' on out of the list, walking each
 * the reader did not, so that the whole text is checked as JSON. */
static rd_status drop_from(struct rd_json_lazy *lz, size_t mark)
{
    while (lz->ndeferred > mark) {
        struct rd_json_deferred *d = &lz->deferred[lz->ndeferred - 1];
        if (!d->walked) {
            struct rd_json_each it;
            rd_json_each_begin(lz, &it, d->node);
            while (rd_json_each_next(lz, &it))
                ;
            RD_TRY(rd_json_each_end(lz, &it));
        }
        lz->ndeferred--;
    }
    return RD_OK;
}

static const cJSON *walk_fails(struct rd_json_lazy *lz, struct rd_json_each *it, rd_status st)
{
    it->st = st;
    if (st == RD_ERR_PARSE)
        lz->json_error = true;
    return NULL;
}

const cJSON *rd_json_each_next(struct rd_json_lazy *lz, struct rd_json_each *it)
{
    if (it->st != RD_OK)
        return NULL;
    if (it->slot < 0) {
        const cJSON *v = it->child;
        it->child = v ? v->next : NULL;
        return v;
    }
    /* The previous element's tree and its cut-out arrays go. */
    rd_status st = drop_from(lz, it->mark);
    if (st != RD_OK)
        return walk_fails(lz, it, st);
    rd_arena_reset(&lz->arenas[it->slot]);
    /* it->p is past '[' or past a comma; the last byte is the ']'. */
    const char *p = skip_ws(it->p, it->end), *last = it->end - 1;
    if (p == last)
        return NULL;
    cJSON *v = NULL;
    if (!parse_short(lz, it->slot, &p, last, &v) &&
        (st = parse_part(lz, it->slot, &p, last, &v)) != RD_OK)
        return walk_fails(lz, it, st);
    /* Then a comma and another element, or the closing bracket. */
    p = skip_ws(p, it->end);
    if (p < last && *p == ',' && skip_ws(p + 1, it->end) < last)
        p++;
    else if (p != last)
        return walk_fails(lz, it, RD_ERR_PARSE);
    it->p = p;
    return v;
}

rd_status rd_json_each_end(struct rd_json_lazy *lz, struct rd_json_each *it)
{
    if (it->slot >= 0) {
        rd_status st = drop_from(lz, it->mark);
        if (it->st == RD_OK)
            it->st = st;
        rd_arena_reset(&lz->arenas[it->slot]);
        lz->depth = it->slot - 1;
        it->slot = -1;
    }
    return it->st;
}

rd_status rd_json_lazy_finish(struct rd_json_lazy *lz)
{
    return drop_from(lz, 0);
}

void rd_json_lazy_release(struct rd_json_lazy *lz)
{
    for (size_t i = 0; i < lz->narenas; i++)
        rd_arena_release(&lz->arenas[i]);
    free(lz->arenas);
    lz->arenas = NULL;
    lz->narenas = 0;
    free(lz->deferred);
    lz->deferred = NULL;
    lz->ndeferred = lz->capdeferred = 0;
    lz->depth = 0;
}
