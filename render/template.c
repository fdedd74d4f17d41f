/*
 * template - compiles and renders the Mustache-like templates of templates/.
 *
 * A template compiles to a flat array of nodes (text, value, section start,
 * section end); a section start knows the index of its end, so rendering is
 * a loop with recursion only for sections. Templates may come from a user's
 * --templates folder, so nesting is bounded and every lookup failure is a
 * diagnostic, never a crash. Depends on the view tree (tdata.h), rd_buf and
 * escape.c only.
 */
#include "template.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/array.h"
#include "rundown/fsutil.h"

#define MAX_DEPTH 32
#define MAX_TEMPLATE_BYTES (4u << 20)

enum node_kind { N_TEXT, N_VAR, N_OPEN, N_INVERT, N_CLOSE };

struct node {
    enum node_kind kind;
    size_t off, len;      /* text, or the tag's name, in t->text */
    enum rd_escape esc;   /* N_VAR */
    size_t end;           /* N_OPEN/N_INVERT: index of the matching N_CLOSE */
    unsigned line, col;
};

struct rd_template {
    char *name;
    char *text;
    size_t text_len;
    struct node *nodes;
    size_t n, cap;
    enum rd_escape esc;
};

void rd_template_free(struct rd_template *t)
{
    if (!t)
        return;
    free(t->name);
    free(t->text);
    free(t->nodes);
    free(t);
}

static rd_status add_node(struct rd_template *t, struct node nd)
{
    RD_TRY(RD_ARRAY_GROW(t->nodes, t->cap, t->n + 1));
    t->nodes[t->n++] = nd;
    return RD_OK;
}

/* Line and column of a byte offset, counted on from where the previous tag
 * was found: tags come in increasing order, and counting from the start for
 * each tag made a long template quadratic (found by fuzz_template). */
struct position {
    size_t off;
    unsigned line, col;
};

static void advance_position(struct position *p, const char *text, size_t off)
{
    for (; p->off < off; p->off++) {
        if (text[p->off] == '\n') {
            p->line++;
            p->col = 1;
        } else {
            p->col++;
        }
    }
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool valid_name(const char *s, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' || c == '@'))
            return false;
    }
    return true;
}

rd_status rd_template_parse(const char *text, size_t len, const char *name,
                            enum rd_escape esc, struct rd_template **out,
                            struct rd_diag *d)
{
    *out = NULL;
    struct rd_template *t = calloc(1, sizeof *t);
    if (!t)
        return RD_ERR_NOMEM;
    t->esc = esc;
    t->name = strdup(name ? name : "<template>");
    t->text = malloc(len + 1);
    if (!t->name || !t->text) {
        rd_template_free(t);
        return RD_ERR_NOMEM;
    }
    memcpy(t->text, text, len);
    t->text[len] = '\0';
    t->text_len = len;
    const char *s = t->text;
    /* Diagnostics name the caller's string: t->name dies with t on failure. */
    const char *dname = name ? name : "<template>";

    size_t stack[MAX_DEPTH];
    size_t depth = 0;
    size_t pos = 0, text_start = 0;
    rd_status st = RD_OK;
    struct position at = { 0, 1, 1 };
    unsigned line, col;

    while (pos < len) {
        const char *open = memmem(s + pos, len - pos, "{{", 2);
        if (!open)
            break;
        size_t tag = (size_t)(open - s);
        const char *close = memmem(s + tag + 2, len - tag - 2, "}}", 2);
        advance_position(&at, s, tag);
        line = at.line;
        col = at.col;
        if (!close) {
            st = rd_diag_set(d, RD_ERR_PARSE, dname, line, col, "expected '}}' to close this tag");
            goto fail;
        }
        size_t tag_end = (size_t)(close - s) + 2;
        /* The tag's content, trimmed. */
        size_t a = tag + 2, b = tag_end - 2;
        while (a < b && is_space(s[a]))
            a++;
        while (b > a && is_space(s[b - 1]))
            b--;
        char sigil = a < b ? s[a] : '\0';
        bool block = sigil == '#' || sigil == '^' || sigil == '/' || sigil == '!';
        if (sigil == '#' || sigil == '^' || sigil == '/' || sigil == '&' || sigil == '!') {
            a++;
            while (a < b && is_space(s[a]))
                a++;
        }

        /* A block tag alone on its line takes the whole line with it. */
        size_t text_end = tag, next = tag_end;
        if (block) {
            size_t ls = tag;
            while (ls > 0 && is_space(s[ls - 1]))
                ls--;
            size_t le = tag_end;
            while (le < len && is_space(s[le]))
                le++;
            if ((ls == 0 || s[ls - 1] == '\n') && (le == len || s[le] == '\n')) {
                if (ls >= text_start)
                    text_end = ls;
                next = le < len ? le + 1 : le;
            }
        }
        if (text_end > text_start) {
            st = add_node(t, (struct node){ .kind = N_TEXT, .off = text_start,
                                            .len = text_end - text_start });
            if (st != RD_OK)
                goto fail;
        }

        if (sigil == '!') {
            /* a comment */
        } else {
            size_t nlen = b - a;
            enum rd_escape vesc = esc;
            if (sigil == '&') {
                vesc = RD_ESC_RAW;
            } else if (!block) {
                const char *bar = memchr(s + a, '|', nlen);
                if (bar) {
                    size_t fa = (size_t)(bar - s) + 1;
                    while (fa < b && is_space(s[fa]))
                        fa++;
                    int m = rd_escape_parse(s + fa, b - fa);
                    if (m < 0) {
                        st = rd_diag_set(d, RD_ERR_PARSE, dname, line, col,
                                         "expected a filter md, html, plain or raw after '|'");
                        goto fail;
                    }
                    vesc = (enum rd_escape)m;
                    nlen = (size_t)(bar - s) - a;
                    while (nlen > 0 && is_space(s[a + nlen - 1]))
                        nlen--;
                }
            }
            if (!valid_name(s + a, nlen)) {
                st = rd_diag_set(d, RD_ERR_PARSE, dname, line, col,
                                 "expected a name of letters, digits, '_', '-', '.' in the tag");
                goto fail;
            }
            struct node nd = { .off = a, .len = nlen, .esc = vesc, .line = line, .col = col };
            if (sigil == '#' || sigil == '^') {
                if (depth == MAX_DEPTH) {
                    st = rd_diag_set(d, RD_ERR_PARSE, dname, line, col,
                                     "sections nested deeper than %d", MAX_DEPTH);
                    goto fail;
                }
                nd.kind = sigil == '#' ? N_OPEN : N_INVERT;
                stack[depth++] = t->n;
            } else if (sigil == '/') {
                if (depth == 0) {
                    st = rd_diag_set(d, RD_ERR_PARSE, dname, line, col,
                                     "'{{/%.*s}}' closes no open section", (int)(nlen > 64 ? 64 : nlen), s + a);
                    goto fail;
                }
                struct node *o = &t->nodes[stack[depth - 1]];
                if (o->len != nlen || memcmp(s + o->off, s + a, nlen) != 0) {
                    st = rd_diag_set(d, RD_ERR_PARSE, dname, line, col,
                                     "expected '{{/%.*s}}' (opened at %u:%u), got '{{/%.*s}}'",
                                     (int)(o->len > 64 ? 64 : o->len), s + o->off, o->line, o->col,
                                     (int)(nlen > 64 ? 64 : nlen), s + a);
                    goto fail;
                }
                o->end = t->n;
                depth--;
                nd.kind = N_CLOSE;
            } else {
                nd.kind = N_VAR;
            }
            st = add_node(t, nd);
            if (st != RD_OK)
                goto fail;
        }
        pos = next;
        text_start = next;
    }
    if (depth > 0) {
        struct node *o = &t->nodes[stack[depth - 1]];
        st = rd_diag_set(d, RD_ERR_PARSE, dname, o->line, o->col,
                         "section '%.*s' is never closed", (int)(o->len > 64 ? 64 : o->len),
                         s + o->off);
        goto fail;
    }
    if (len > text_start) {
        st = add_node(t, (struct node){ .kind = N_TEXT, .off = text_start,
                                        .len = len - text_start });
        if (st != RD_OK)
            goto fail;
    }
    *out = t;
    return RD_OK;
fail:
    rd_template_free(t);
    return st;
}

rd_status rd_template_load(const char *dir, const char *file, enum rd_escape esc,
                           struct rd_template **out, struct rd_diag *d)
{
    struct rd_buf path = RD_BUF_INIT, text = RD_BUF_INIT;
    *out = NULL;
    rd_status st = rd_buf_addf(&path, "%s/%s", dir, file);
    /* A template is a regular file of text: a FIFO there must not hang
     * the render. */
    const struct rd_read_limits lim = { MAX_TEMPLATE_BYTES, RD_READ_REGULAR | RD_READ_TEXT, NULL };
    if (st == RD_OK)
        st = rd_read_input(path.ptr, &lim, &text, d);
    if (st == RD_OK)
        st = rd_template_parse(text.ptr, text.len, path.ptr, esc, out, d);
    /* 'path' is released below, so a diag must not point at it: fold the
     * position into the message instead. */
    if (st != RD_OK && d && d->path == path.ptr) {
        char msg[sizeof d->msg];
        snprintf(msg, sizeof msg, "%s", d->msg);
        if (d->line)
            snprintf(d->msg, sizeof d->msg, "%.200s:%u:%u: %.280s", path.ptr, d->line, d->col, msg);
        else
            snprintf(d->msg, sizeof d->msg, "%.200s: %.280s", path.ptr, msg);
        d->path = NULL;
        d->line = d->col = 0;
    }
    rd_buf_release(&path);
    rd_buf_release(&text);
    return st;
}

/* ---- rendering ---- */

struct ctx {
    const struct rd_template *t;
    const struct rd_tval *stack[MAX_DEPTH + 1];
    size_t depth;
    struct rd_buf *out;
    struct rd_diag *d;
};

/* Names past this length are never found (no view has one). */
#define MAX_NAME 127

/* Resolves a dotted name against the context stack, innermost first. */
static const struct rd_tval *lookup(const struct ctx *c, const char *name, size_t len)
{
    if (len == 1 && name[0] == '.')
        return c->stack[c->depth - 1];
    const char *dot = memchr(name, '.', len);
    size_t first = dot ? (size_t)(dot - name) : len;
    if (first == 0 || first > MAX_NAME)
        return NULL;
    const struct rd_tval *v = NULL;
    for (size_t i = c->depth; i-- > 0 && !v;)
        v = rd_tval_member(c->stack[i], name, first);
    size_t pos = first;
    while (v && pos < len) {
        pos++; /* the dot */
        const char *nd = memchr(name + pos, '.', len - pos);
        size_t seg = nd ? (size_t)(nd - (name + pos)) : len - pos;
        if (seg == 0 || seg > MAX_NAME || v->kind != RD_T_OBJECT)
            return NULL;
        v = rd_tval_member(v, name + pos, seg);
        pos += seg;
    }
    return v;
}

static bool truthy(const struct rd_tval *v)
{
    if (!v || v->kind == RD_T_NULL || (v->kind == RD_T_BOOL && !v->on))
        return false;
    if (v->kind == RD_T_STRING)
        return v->str[0] != '\0';
    if (v->kind == RD_T_LIST)
        return v->n > 0;
    return true;
}

static rd_status render_range(struct ctx *c, size_t from, size_t to);

static rd_status render_var(struct ctx *c, const struct node *nd)
{
    const char *name = c->t->text + nd->off;
    const struct rd_tval *v = lookup(c, name, nd->len);
    if (!v)
        return rd_diag_set(c->d, RD_ERR_PARSE, c->t->name, nd->line, nd->col,
                           "unknown value '%.*s'", (int)(nd->len > 64 ? 64 : nd->len), name);
    bool line_start = c->out->len == 0 || c->out->ptr[c->out->len - 1] == '\n';
    char num[32];
    switch (v->kind) {
    case RD_T_STRING:
        return rd_escape(c->out, v->str, nd->esc, line_start);
    case RD_T_NUMBER:
        return rd_buf_addstr(c->out, rd_fmt_double(v->num, num));
    case RD_T_NULL:
        return rd_buf_addstr(c->out, "\xe2\x80\x94");
    case RD_T_BOOL:
        return rd_buf_addstr(c->out, v->on ? "true" : "false");
    case RD_T_LIST:
    case RD_T_OBJECT:
        break;
    }
    return rd_diag_set(c->d, RD_ERR_PARSE, c->t->name, nd->line, nd->col,
                       "'%.*s' is a list or an object, not a value (use a section)",
                       (int)(nd->len > 64 ? 64 : nd->len), name);
}

static rd_status render_section(struct ctx *c, size_t i)
{
    const struct node *nd = &c->t->nodes[i];
    const struct rd_tval *v = lookup(c, c->t->text + nd->off, nd->len);
    if (nd->kind == N_INVERT)
        return truthy(v) ? RD_OK : render_range(c, i + 1, nd->end);
    if (!truthy(v))
        return RD_OK;
    /* Parsing bounds nesting to MAX_DEPTH, and the stack has one extra
     * slot for the root, so a push can never overflow. */
    rd_status st = RD_OK;
    if (v->kind == RD_T_LIST) {
        for (const struct rd_tval *item = v->first; item; item = item->next) {
            c->stack[c->depth++] = item;
            st = render_range(c, i + 1, nd->end);
            c->depth--;
            if (st != RD_OK)
                break;
        }
        return st;
    }
    c->stack[c->depth++] = v;
    st = render_range(c, i + 1, nd->end);
    c->depth--;
    return st;
}

static rd_status render_range(struct ctx *c, size_t from, size_t to)
{
    rd_status st = RD_OK;
    for (size_t i = from; i < to && st == RD_OK; i++) {
        const struct node *nd = &c->t->nodes[i];
        switch (nd->kind) {
        case N_TEXT:
            st = rd_buf_add(c->out, c->t->text + nd->off, nd->len);
            break;
        case N_VAR:
            st = render_var(c, nd);
            break;
        case N_OPEN:
        case N_INVERT:
            st = render_section(c, i);
            i = nd->end;
            break;
        case N_CLOSE:
            break;
        }
    }
    return st;
}

rd_status rd_template_render(const struct rd_template *t, const struct rd_tval *data,
                             struct rd_buf *out, struct rd_diag *d)
{
    struct ctx c = { .t = t, .depth = 1, .out = out, .d = d };
    c.stack[0] = data;
    rd_status st = render_range(&c, 0, t->n);
    /* The diag names t->name, which dies with the template; callers
     * usually free the template before printing, so fold it in now. */
    if (st != RD_OK && d && d->path == t->name) {
        char msg[sizeof d->msg];
        snprintf(msg, sizeof msg, "%s", d->msg);
        snprintf(d->msg, sizeof d->msg, "%.200s:%u:%u: %.280s", t->name, d->line, d->col, msg);
        d->path = NULL;
        d->line = d->col = 0;
    }
    return st;
}
