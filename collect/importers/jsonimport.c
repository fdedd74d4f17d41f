/*
 * jsonimport - positions, typed look-ups and unit scaling for the importers
 * of JSON-emitting tools.
 *
 * cJSON is used here and in the JSON importers only (DESIGN.md §1). The
 * position index is built by walking the text and the tree in step; this is
 * safe because cJSON accepted the text, so both describe the same values in
 * the same order. Depends on core only.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/array.h"
#include "rundown/json.h"

#include "jsonimport.h"

struct rd_jpos {
    const cJSON *node;
    size_t off;
    unsigned line, col;
};

rd_status rd_jdoc_parse(struct rd_jdoc *doc, const char *text, size_t len,
                        const char *path, unsigned first_line, struct rd_diag *d)
{
    *doc = (struct rd_jdoc){ .text = text, .len = len, .path = path,
                             .first_line = first_line, .d = d };
    return rd_json_parse(text, len, path, first_line, &doc->root, d);
}

rd_status rd_jdoc_parse_first(struct rd_jdoc *doc, const char *text, size_t len,
                              const char *path, unsigned first_line,
                              struct rd_diag *d, size_t *used)
{
    *doc = (struct rd_jdoc){ .text = text, .len = len, .path = path,
                             .first_line = first_line, .d = d };
    const char *end = NULL;
    *used = 0;
    doc->root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (doc->root) {
        *used = (size_t)(end - text);
        doc->len = *used;
        return RD_OK;
    }
    /* The whole-text parser fails at the same byte and words the message
     * the same way as every other JSON error. */
    cJSON *again = NULL;
    rd_status s = rd_json_parse(text, len, path, first_line, &again, d);
    cJSON_Delete(again);
    return s ? s : rd_diag_set(d, RD_ERR_PARSE, path, first_line, 1, "expected JSON");
}

void rd_jdoc_release(struct rd_jdoc *doc)
{
    cJSON_Delete(doc->root);
    free(doc->pos);
    doc->root = NULL;
    doc->pos = NULL;
    doc->npos = 0;
    doc->indexed = false;
}

/* ---- the position index ---- */

struct walker {
    const char *s;
    size_t n;
    struct rd_jpos *pos;
    size_t npos, cap;
    bool oom;
};

/* cJSON takes every byte up to ' ' as white space (and skips a UTF-8 BOM
 * before a document), so the walker must too or it would fall out of step. */
static size_t skip_ws(const struct walker *w, size_t i)
{
    while (i < w->n && (unsigned char)w->s[i] <= 32)
        i++;
    return i;
}

static size_t skip_string(const struct walker *w, size_t i)
{
    for (i++; i < w->n && w->s[i] != '"'; i++)
        if (w->s[i] == '\\')
            i++;
    return i < w->n ? i + 1 : w->n;
}

static size_t skip_scalar(const struct walker *w, size_t i)
{
    while (i < w->n && !strchr(",]} \t\r\n", w->s[i]) && w->s[i] != '\0')
        i++;
    return i;
}

static void record_pos(struct walker *w, const cJSON *node, size_t off)
{
    if (RD_ARRAY_GROW(w->pos, w->cap, w->npos + 1)) {
        w->oom = true;
        return;
    }
    w->pos[w->npos++] = (struct rd_jpos){ node, off, 0, 0 };
}

/* Walks one value starting at or after i; returns the offset just past it. */
static size_t walk(struct walker *w, const cJSON *node, size_t i)
{
    i = skip_ws(w, i);
    if (i >= w->n || w->oom)
        return w->n;
    record_pos(w, node, i);
    if (cJSON_IsObject(node) || cJSON_IsArray(node)) {
        bool object = cJSON_IsObject(node);
        i++; /* '{' or '[' */
        for (const cJSON *c = node->child; c; c = c->next) {
            if (object) {
                i = skip_ws(w, i);
                i = skip_string(w, i);
                i = skip_ws(w, i) + 1; /* ':' */
            }
            i = walk(w, c, i);
            i = skip_ws(w, i) + 1; /* ',' or the closing bracket */
        }
        if (!node->child)
            i = skip_ws(w, i) + 1;
        return i < w->n ? i : w->n;
    }
    if (cJSON_IsString(node))
        return skip_string(w, i);
    return skip_scalar(w, i);
}

static int by_node(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct rd_jpos *)a)->node;
    uintptr_t y = (uintptr_t)((const struct rd_jpos *)b)->node;
    return x < y ? -1 : x > y;
}

static bool build_index(struct rd_jdoc *doc)
{
    if (doc->indexed)
        return doc->pos != NULL;
    doc->indexed = true;
    if (!doc->root)
        return false;
    struct walker w = { doc->text, doc->len, NULL, 0, 0, false };
    size_t start = 0;
    if (doc->len >= 3 && memcmp(doc->text, "\xEF\xBB\xBF", 3) == 0)
        start = 3;
    walk(&w, doc->root, start);
    if (w.oom || !w.npos) {
        free(w.pos);
        return false;
    }
    /* Offsets grow in walk order, so one pass counts every line. */
    unsigned line = doc->first_line;
    size_t line_start = 0, at = 0;
    for (size_t k = 0; k < w.npos; k++) {
        for (; at < w.pos[k].off; at++)
            if (doc->text[at] == '\n') {
                line++;
                line_start = at + 1;
            }
        w.pos[k].line = line;
        w.pos[k].col = (unsigned)(w.pos[k].off - line_start + 1);
    }
    qsort(w.pos, w.npos, sizeof *w.pos, by_node);
    doc->pos = w.pos;
    doc->npos = w.npos;
    return true;
}

static const struct rd_jpos *find_pos(struct rd_jdoc *doc, const cJSON *node)
{
    if (!node || !build_index(doc))
        return NULL;
    struct rd_jpos key = { node, 0, 0, 0 };
    return bsearch(&key, doc->pos, doc->npos, sizeof key, by_node);
}

bool rd_jdoc_where(struct rd_jdoc *doc, const cJSON *node, unsigned *line,
                   unsigned *col)
{
    const struct rd_jpos *p = find_pos(doc, node);
    *line = p ? p->line : 0;
    *col = p ? p->col : 0;
    return p != NULL;
}

/* The node's own text, cut at the end of its line, as a message excerpt. */
static void node_excerpt(struct rd_jdoc *doc, const cJSON *node, char *out, size_t size)
{
    const struct rd_jpos *p = find_pos(doc, node);
    if (!p) {
        snprintf(out, size, "?");
        return;
    }
    const char *s = doc->text + p->off;
    size_t rest = doc->len - p->off;
    size_t n = 0;
    if (cJSON_IsObject(node) || cJSON_IsArray(node)) {
        n = rest;
    } else {
        struct walker w = { doc->text, doc->len, NULL, 0, 0, false };
        n = (cJSON_IsString(node) ? skip_string(&w, p->off) : skip_scalar(&w, p->off)) -
            p->off;
    }
    const char *eol = memchr(s, '\n', n);
    if (eol)
        n = (size_t)(eol - s);
    rd_excerpt(s, n, 24, out, size);
}

rd_status rd_jdoc_fail(struct rd_jdoc *doc, const cJSON *node, const char *what)
{
    unsigned line, col;
    char got[64];
    rd_jdoc_where(doc, node, &line, &col);
    node_excerpt(doc, node, got, sizeof got);
    return rd_diag_set(doc->d, RD_ERR_PARSE, doc->path, line, col,
                       "expected %s, got '%s'", what, got);
}

rd_status rd_jdoc_fail_key(struct rd_jdoc *doc, const cJSON *member, const char *what)
{
    unsigned line, col;
    char got[64];
    const char *k = member && member->string ? member->string : "";
    rd_jdoc_where(doc, member, &line, &col);
    rd_excerpt(k, strlen(k), 24, got, sizeof got);
    return rd_diag_set(doc->d, RD_ERR_PARSE, doc->path, line, col,
                       "expected %s, got '%s'", what, got);
}

rd_status rd_jdoc_missing(struct rd_jdoc *doc, const cJSON *obj, const char *key,
                          const char *what)
{
    unsigned line, col;
    rd_jdoc_where(doc, obj, &line, &col);
    return rd_diag_set(doc->d, RD_ERR_PARSE, doc->path, line, col,
                       "expected member \"%s\" (%s) in this object, got none", key,
                       what);
}

static bool type_ok(const cJSON *v, int types)
{
    return ((types & RD_JT_OBJECT) && cJSON_IsObject(v)) ||
           ((types & RD_JT_ARRAY) && cJSON_IsArray(v)) ||
           ((types & RD_JT_STRING) && cJSON_IsString(v)) ||
           ((types & RD_JT_NUMBER) && cJSON_IsNumber(v)) ||
           ((types & RD_JT_NULL) && cJSON_IsNull(v)) ||
           ((types & RD_JT_BOOL) && cJSON_IsBool(v));
}

rd_status rd_jdoc_get(struct rd_jdoc *doc, const cJSON *obj, const char *key,
                      int types, bool required, const char *what, const cJSON **out)
{
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key)
                                         : NULL;
    *out = NULL;
    if (!v)
        return required ? rd_jdoc_missing(doc, obj, key, what) : RD_OK;
    if (!type_ok(v, types))
        return rd_jdoc_fail(doc, v, what);
    *out = v;
    return RD_OK;
}

rd_status rd_jdoc_num(struct rd_jdoc *doc, const cJSON *node, unsigned flags,
                      const char *what, double *out)
{
    if ((flags & RD_JN_NULL_NAN) && cJSON_IsNull(node)) {
        *out = NAN;
        return RD_OK;
    }
    if (!cJSON_IsNumber(node))
        return rd_jdoc_fail(doc, node, what);
    double v = node->valuedouble;
    if (!isfinite(v) || ((flags & RD_JN_NONNEG) && v < 0) ||
        ((flags & RD_JN_INT) && (v != floor(v) || v > 9007199254740992.0)))
        return rd_jdoc_fail(doc, node, what);
    *out = v;
    return RD_OK;
}

static const char *describe(unsigned flags)
{
    if (flags & RD_JN_INT)
        return "a non-negative whole number";
    if (flags & RD_JN_NONNEG)
        return "a non-negative number";
    return "a finite number";
}

rd_status rd_jdoc_metric(struct rd_jdoc *doc, struct rd_record *r, const cJSON *obj,
                         const char *key, const char *name, int pow10,
                         unsigned flags, bool required, bool *found)
{
    const cJSON *v;
    char what[96];
    snprintf(what, sizeof what, "%s for \"%s\"", describe(flags), key);
    if (found)
        *found = false;
    rd_status s = rd_jdoc_get(doc, obj, key,
                              RD_JT_NUMBER | ((flags & RD_JN_NULL_NAN) ? RD_JT_NULL : 0),
                              required, what, &v);
    if (s || !v)
        return s;
    double x = 0; /* set unless s says otherwise; gcc -O3 cannot tell */
    s = rd_jdoc_num_scaled(doc, v, flags, pow10, what, &x);
    if (s)
        return s;
    if (found)
        *found = true;
    return rd_record_set_metric(r, name, x);
}

rd_status rd_scale10_finite(double value, int pow10, double *out)
{
    double x = rd_scale10(value, pow10);
    if (isfinite(value) && !isfinite(x))
        return RD_ERR_PARSE;
    *out = x;
    return RD_OK;
}

rd_status rd_jdoc_num_scaled(struct rd_jdoc *doc, const cJSON *node, unsigned flags,
                             int pow10, const char *what, double *out)
{
    double v = 0; /* likewise */
    rd_status s = rd_jdoc_num(doc, node, flags, what, &v);
    if (s)
        return s;
    if (rd_scale10_finite(v, pow10, out))
        return rd_jdoc_fail(doc, node, what);
    return RD_OK;
}

double rd_scale10(double value, int pow10)
{
    if (!isfinite(value) || value == 0 || pow10 == 0)
        return value;
    char buf[64];
    /* The shortest "%.*e" that reads back to the same double is the text
     * the tool printed (ryu, Go and JS all print shortest forms). */
    for (int prec = 14; prec <= 16; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec, value);
        if (strtod(buf, NULL) == value || prec == 16)
            break;
    }
    char *e = strchr(buf, 'e');
    if (!e)
        return value;
    int exp = atoi(e + 1) + pow10;
    snprintf(e, sizeof buf - (size_t)(e - buf), "e%d", exp);
    return strtod(buf, NULL);
}

char *rd_metric_fragment(const char *name, char *out, size_t size)
{
    size_t w = 0;
    bool pending = false;
    if (!size)
        return out;
    for (const char *p = name; *p && w + 2 < size; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            if (pending && w)
                out[w++] = '_';
            pending = false;
            out[w++] = c;
        } else {
            pending = true;
        }
    }
    out[w] = '\0';
    return out;
}

rd_status rd_json_each(const struct rd_import_input *in, size_t start, unsigned line,
                       bool skip_text, rd_jdoc_fn fn, void *ctx, struct rd_diag *d,
                       size_t *count)
{
    size_t i = start;
    rd_status s = RD_OK;
    *count = 0;
    while (i < in->len && !s) {
        if ((unsigned char)in->data[i] <= 32) {
            line += in->data[i++] == '\n';
            continue;
        }
        if (skip_text && in->data[i] != '{') {
            const char *eol = memchr(in->data + i, '\n', in->len - i);
            i = eol ? (size_t)(eol - in->data) : in->len;
            continue;
        }
        struct rd_jdoc doc;
        size_t used;
        s = rd_jdoc_parse_first(&doc, in->data + i, in->len - i, in->path, line, d, &used);
        if (!s)
            s = fn(&doc, ctx);
        rd_jdoc_release(&doc);
        for (size_t k = i; k < i + used; k++)
            line += in->data[k] == '\n';
        i += used;
        ++*count;
    }
    return s;
}

rd_status rd_jdoc_new_record(struct rd_jdoc *doc, struct rd_recordset *out,
                             const cJSON *at, const char *tool, struct rd_record **rec)
{
    struct rd_record *r = rd_recordset_add(out);
    *rec = r;
    if (!r)
        return RD_ERR_NOMEM;
    unsigned line, col;
    rd_jdoc_where(doc, at, &line, &col);
    r->source_line = line;
    return rd_record_set(r, &r->tool, tool);
}

size_t rd_json_start(const char *text, size_t len, unsigned *line)
{
    unsigned no = 1;
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j < len && text[j] == '{') {
            *line = no;
            return i;
        }
        const char *eol = memchr(text + i, '\n', len - i);
        if (!eol)
            break;
        i = (size_t)(eol - text) + 1;
        no++;
    }
    *line = no;
    return len;
}

bool rd_json_looks_like(const char *text, size_t len, const char *const *needles,
                        size_t n)
{
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", text[i]) && text[i])
        i++;
    if (i >= len || text[i] != '{')
        return false;
    for (size_t k = 0; k < n; k++)
        if (!memmem(text, len, needles[k], strlen(needles[k])))
            return false;
    return true;
}
