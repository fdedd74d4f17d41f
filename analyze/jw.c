/*
 * jw.c - the streaming JSON writer behind analysis.json.
 *
 * Numbers go through rd_buf_add_json_number (shortest round-trip form, null
 * for NaN), so the same statistics always give the same bytes.
 */
#include <string.h>

#include "jw.h"

void jw_init(struct jw *w, struct rd_buf *b)
{
    w->b = b;
    w->st = RD_OK;
    w->depth = 0;
    w->first[0] = true;
    w->pretty[0] = true;
    w->spill = NULL;
    w->spill_ctx = NULL;
}

static void put(struct jw *w, rd_status s)
{
    if (!w->st)
        w->st = s;
}

/* '\n' and two spaces a level, with one capacity check (these small
 * appends, a piece each, were a fifth of analyze's CPU at 10^5 configs). */
static void newline(struct jw *w)
{
    size_t n = 2 * (size_t)w->depth;
    rd_status s = rd_buf_grow(w->b, 1 + n);
    if (s) {
        put(w, s);
        return;
    }
    char *o = w->b->ptr + w->b->len;
    *o++ = '\n';
    memset(o, ' ', n);
    o += n;
    *o = '\0';
    w->b->len = (size_t)(o - w->b->ptr);
}

/* "key": with one capacity check when the key needs no escaping (every
 * key analyze writes); false, having written nothing, when it does. */
static bool plain_key(struct jw *w, const char *key)
{
    const unsigned char *k = (const unsigned char *)key;
    size_t n = 0;
    while (k[n] >= 0x20 && k[n] < 0x80 && k[n] != '"' && k[n] != '\\')
        n++;
    if (k[n])
        return false;
    rd_status s = rd_buf_grow(w->b, n + 3);
    if (s) {
        put(w, s);
        return true;
    }
    char *o = w->b->ptr + w->b->len;
    *o++ = '"';
    memcpy(o, key, n);
    o += n;
    *o++ = '"';
    *o++ = ':';
    *o = '\0';
    w->b->len = (size_t)(o - w->b->ptr);
    return true;
}

/* Separator, indentation and "key": before a member. */
static void member(struct jw *w, const char *key)
{
    if (w->depth > 0) {
        if (!w->first[w->depth])
            put(w, rd_buf_addch(w->b, ','));
        if (w->pretty[w->depth])
            newline(w);
        w->first[w->depth] = false;
    }
    if (key && !plain_key(w, key)) {
        put(w, rd_buf_add_json_string(w->b, key));
        put(w, rd_buf_addch(w->b, ':'));
    }
}

static void open_(struct jw *w, const char *key, bool pretty, char c)
{
    member(w, key);
    put(w, rd_buf_addch(w->b, c));
    if (w->depth + 1 >= JW_MAX_DEPTH) {
        put(w, RD_ERR_USAGE);
        return;
    }
    w->depth++;
    w->first[w->depth] = true;
    w->pretty[w->depth] = pretty;
}

void jw_obj(struct jw *w, const char *key, bool pretty)
{
    open_(w, key, pretty, '{');
}

void jw_arr(struct jw *w, const char *key, bool pretty)
{
    open_(w, key, pretty, '[');
}

void jw_end(struct jw *w, char close)
{
    bool was_pretty = w->pretty[w->depth], empty = w->first[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (was_pretty && !empty)
        newline(w);
    put(w, rd_buf_addch(w->b, close));
    if (w->depth == 0)
        put(w, rd_buf_addch(w->b, '\n'));
}

void jw_num(struct jw *w, const char *key, double v)
{
    member(w, key);
    put(w, rd_buf_add_json_number(w->b, v));
}

void jw_nums(struct jw *w, const double *v, size_t n)
{
    if (w->depth == 0 || w->pretty[w->depth]) {
        for (size_t i = 0; i < n; i++)
            jw_num(w, NULL, v[i]);
        return;
    }
    if (n == 0)
        return;
    /* On one line: the separators with the numbers, one capacity check
     * for them all (a "values" array is most of analysis.json). */
    member(w, NULL);
    put(w, rd_buf_add_json_numbers(w->b, v, n, ','));
}

void jw_str(struct jw *w, const char *key, const char *s)
{
    member(w, key);
    put(w, s ? rd_buf_add_json_string(w->b, s) : rd_buf_addstr(w->b, "null"));
}

void jw_bool(struct jw *w, const char *key, bool v)
{
    member(w, key);
    put(w, rd_buf_addstr(w->b, v ? "true" : "false"));
}

void jw_null(struct jw *w, const char *key)
{
    member(w, key);
    put(w, rd_buf_addstr(w->b, "null"));
}

void jw_raw(struct jw *w, const char *key, const char *json, size_t len)
{
    member(w, key);
    put(w, rd_buf_add(w->b, json, len));
}

void jw_spill(struct jw *w)
{
    if (w->spill && !w->st)
        w->st = w->spill(w->spill_ctx, w->b);
}
