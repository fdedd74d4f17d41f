/*
 * json - core's JSON I/O over cJSON: parsing with line:col diagnostics and
 * deterministic writing (NaN and infinities as null, shortest round-trip
 * numbers).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/fsutil.h"
#include "rundown/json.h"

/* Line and column of byte offset 'off' in text, counting from first_line. */
static void locate(const char *text, size_t off, unsigned first_line, unsigned *line,
                   unsigned *col)
{
    unsigned l = first_line, c = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/*
 * cJSON's hooks are process-wide, so they are installed once and send an
 * allocation to an arena only while this thread is inside
 * rd_json_parse_tree(); everything else (other threads, other cJSON users)
 * gets malloc and free as before. Two threads may parse at once (analyze
 * reads big stores in parts on several threads): cJSON's only shared state on that path
 * is the error position behind cJSON_GetErrorPtr(), which every parse
 * resets and rundown never reads (the end pointer of
 * cJSON_ParseWithLengthOpts() is per call).
 */
static _Thread_local struct rd_arena *tl_parse_arena;
static _Thread_local bool tl_parse_oom;

static void *hook_malloc(size_t size)
{
    struct rd_arena *a = tl_parse_arena;
    /* cJSON writes what it allocates (a node is zeroed by cJSON itself). */
    void *p = a ? rd_arena_alloc_uninit(a, size) : malloc(size);
    if (a && !p)
        tl_parse_oom = true;
    return p;
}

/* Inside rd_json_parse_tree() every cJSON block is in the arena (cJSON
 * frees only what it allocated in the same call, on an error path): the
 * arena takes it back when it is reset or released. */
static void hook_free(void *p)
{
    if (!tl_parse_arena)
        free(p);
}

static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void install_hooks(void)
{
    cJSON_Hooks h = { hook_malloc, hook_free };
    cJSON_InitHooks(&h);
}

cJSON *rd_json_parse_tree(struct rd_arena *arena, const char *text, size_t len,
                          const char **end, bool *oom)
{
    pthread_once(&hooks_once, install_hooks);
    tl_parse_arena = arena;
    tl_parse_oom = false;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, end, 0);
    tl_parse_arena = NULL;
    *oom = !root && tl_parse_oom;
    return root;
}

/* rd_json_parse, the tree in 'arena' when it is not NULL. */
static rd_status parse(const char *text, size_t len, const char *path, unsigned first_line,
                       struct rd_arena *arena, cJSON **out, struct rd_diag *d)
{
    const char *end = NULL;
    bool oom = false;
    *out = arena ? rd_json_parse_tree(arena, text, len, &end, &oom)
                 : cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (oom)
        return RD_ERR_NOMEM;
    size_t off;
    if (*out) {
        off = (size_t)(end - text);
        while (off < len && strchr(" \t\r\n", text[off]))
            off++;
        if (off == len)
            return RD_OK;
        if (!arena)
            cJSON_Delete(*out);
        *out = NULL;
    } else {
        off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
        /* cJSON points at the last byte when input ends early. */
        if (off + 1 >= len)
            off = len;
    }
    unsigned line, col;
    locate(text, off, first_line, &line, &col);
    if (off >= len)
        return rd_diag_set(d, RD_ERR_PARSE, path, line, col,
                           "expected JSON, got end of input (truncated?)");
    char got[48];
    const char *eol = memchr(text + off, '\n', len - off);
    rd_excerpt(text + off, eol ? (size_t)(eol - text - off) : len - off, 20, got,
               sizeof got);
    return rd_diag_set(d, RD_ERR_PARSE, path, line, col, "expected JSON, got '%s'", got);
}

rd_status rd_json_parse(const char *text, size_t len, const char *path,
                        unsigned first_line, cJSON **out, struct rd_diag *d)
{
    return parse(text, len, path, first_line, NULL, out, d);
}

rd_status rd_json_parse_arena(const char *text, size_t len, const char *path,
                              unsigned first_line, struct rd_arena *arena, cJSON **out,
                              struct rd_diag *d)
{
    return parse(text, len, path, first_line, arena, out, d);
}

/*
 * Duplicate keys. cJSON keeps no positions, so the text is walked again in
 * step with the tree it produced (the text is known to be valid JSON by
 * then, so the walk needs no error handling beyond staying in bounds).
 * Keys are compared as cJSON decoded them, so "a" and "\u0061" collide.
 */
struct key_walk {
    const char *t;
    size_t len, pos;
    size_t dup_off;      /* offset of the earliest second occurrence, or len */
    const char *dup_key;
};

struct member_key {
    const char *key;
    size_t off, idx;
};

static void walk_ws(struct key_walk *w)
{
    while (w->pos < w->len && (w->t[w->pos] == ' ' || w->t[w->pos] == '\t' ||
                               w->t[w->pos] == '\r' || w->t[w->pos] == '\n'))
        w->pos++;
}

static void walk_string(struct key_walk *w)
{
    w->pos++; /* the opening quote */
    while (w->pos < w->len && w->t[w->pos] != '"')
        w->pos += w->t[w->pos] == '\\' ? 2 : 1;
    w->pos++;
}

/* Past the blanks and the ',' that may follow a member or an element. */
static void walk_separator(struct key_walk *w)
{
    walk_ws(w);
    if (w->pos < w->len && w->t[w->pos] == ',')
        w->pos++;
}

static int member_cmp(const void *a, const void *b)
{
    const struct member_key *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static rd_status walk_value(struct key_walk *w, const cJSON *v);

static rd_status walk_object(struct key_walk *w, const cJSON *obj)
{
    size_t n = 0;
    for (const cJSON *it = obj->child; it; it = it->next)
        n++;
    struct member_key *keys = n > 1 ? malloc(n * sizeof *keys) : NULL;
    if (n > 1 && !keys)
        return RD_ERR_NOMEM;
    rd_status s = RD_OK;
    w->pos++; /* '{' */
    size_t i = 0;
    for (const cJSON *it = obj->child; it && !s; it = it->next, i++) {
        walk_ws(w);
        if (keys)
            keys[i] = (struct member_key){it->string ? it->string : "", w->pos, i};
        walk_string(w);
        walk_ws(w);
        w->pos++; /* ':' */
        s = walk_value(w, it);
        walk_separator(w);
    }
    walk_ws(w);
    w->pos++; /* '}' */
    if (!s && keys) {
        /* Sorted by key, then position: the second of each run of equal
         * keys is that key's first repetition. */
        qsort(keys, n, sizeof *keys, member_cmp);
        for (size_t k = 1; k < n; k++)
            if (strcmp(keys[k].key, keys[k - 1].key) == 0 &&
                (k < 2 || strcmp(keys[k - 1].key, keys[k - 2].key) != 0) &&
                keys[k].off < w->dup_off) {
                w->dup_off = keys[k].off;
                w->dup_key = keys[k].key;
            }
    }
    free(keys);
    return s;
}

static rd_status walk_value(struct key_walk *w, const cJSON *v)
{
    walk_ws(w);
    if (w->pos >= w->len)
        return RD_OK;
    if (cJSON_IsObject(v))
        return walk_object(w, v);
    if (cJSON_IsArray(v)) {
        rd_status s = RD_OK;
        w->pos++; /* '[' */
        for (const cJSON *it = v->child; it && !s; it = it->next) {
            s = walk_value(w, it);
            walk_separator(w);
        }
        walk_ws(w);
        w->pos++; /* ']' */
        return s;
    }
    if (cJSON_IsString(v)) {
        walk_string(w);
        return RD_OK;
    }
    while (w->pos < w->len && !strchr(",]} \t\r\n", w->t[w->pos]))
        w->pos++;
    return RD_OK;
}

rd_status rd_json_parse_unique(const char *text, size_t len, const char *path,
                               unsigned first_line, cJSON **out, struct rd_diag *d)
{
    rd_status s = rd_json_parse(text, len, path, first_line, out, d);
    if (s)
        return s;
    struct key_walk w = {text, len, 0, len, NULL};
    /* cJSON skips a UTF-8 byte order mark; so must the walk. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        w.pos = 3;
    s = walk_value(&w, *out);
    if (s == RD_ERR_NOMEM)
        s = rd_diag_set(d, RD_ERR_NOMEM, path, 0, 0, "out of memory");
    else if (w.dup_key) {
        unsigned line, col;
        locate(text, w.dup_off, first_line, &line, &col);
        char key[64];
        rd_excerpt(w.dup_key, strlen(w.dup_key), 40, key, sizeof key);
        s = rd_diag_set(d, RD_ERR_PARSE, path, line, col,
                        "expected each key once, got '%s' twice", key);
    }
    if (s) {
        cJSON_Delete(*out);
        *out = NULL;
    }
    return s;
}

rd_status rd_json_parse_file(const char *path, cJSON **out, struct rd_diag *d)
{
    struct rd_buf buf = RD_BUF_INIT;
    *out = NULL;
    rd_status s = rd_read_file(path, 0, &buf, d);
    if (!s)
        s = rd_json_parse(buf.ptr, buf.len, strcmp(path, "-") ? path : "<stdin>", 1, out, d);
    rd_buf_release(&buf);
    return s;
}

static rd_status write_value(const cJSON *v, struct rd_buf *b, int indent, bool pretty);

static rd_status newline(struct rd_buf *b, int indent, bool pretty)
{
    if (!pretty)
        return RD_OK;
    rd_status s = rd_buf_addch(b, '\n');
    for (int i = 0; i < indent && !s; i++)
        s = rd_buf_add(b, "  ", 2);
    return s;
}

static rd_status write_container(const cJSON *v, struct rd_buf *b, int indent,
                                 bool pretty, bool object)
{
    rd_status s = rd_buf_addch(b, object ? '{' : '[');
    if (!v->child)
        return s ? s : rd_buf_addch(b, object ? '}' : ']');
    for (const cJSON *it = v->child; it && !s; it = it->next) {
        s = newline(b, indent + 1, pretty);
        if (!s && object) {
            s = rd_buf_add_json_string(b, it->string ? it->string : "");
            if (!s)
                s = rd_buf_addstr(b, pretty ? ": " : ":");
        }
        if (!s)
            s = write_value(it, b, indent + 1, pretty);
        if (!s && it->next)
            s = rd_buf_addch(b, ',');
    }
    if (!s)
        s = newline(b, indent, pretty);
    return s ? s : rd_buf_addch(b, object ? '}' : ']');
}

static rd_status write_value(const cJSON *v, struct rd_buf *b, int indent, bool pretty)
{
    if (cJSON_IsNull(v) || cJSON_IsInvalid(v))
        return rd_buf_addstr(b, "null");
    if (cJSON_IsTrue(v))
        return rd_buf_addstr(b, "true");
    if (cJSON_IsFalse(v))
        return rd_buf_addstr(b, "false");
    if (cJSON_IsNumber(v))
        return rd_buf_add_json_number(b, v->valuedouble);
    if (cJSON_IsString(v))
        return rd_buf_add_json_string(b, v->valuestring ? v->valuestring : "");
    if (cJSON_IsRaw(v))
        return rd_buf_addstr(b, v->valuestring ? v->valuestring : "null");
    if (cJSON_IsArray(v))
        return write_container(v, b, indent, pretty, false);
    if (cJSON_IsObject(v))
        return write_container(v, b, indent, pretty, true);
    return rd_buf_addstr(b, "null");
}

rd_status rd_json_write(const cJSON *v, struct rd_buf *out, bool pretty)
{
    rd_status s = write_value(v, out, 0, pretty);
    if (!s && pretty)
        s = rd_buf_addch(out, '\n');
    return s;
}

const char *rd_json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

bool rd_json_num(const cJSON *obj, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v))
        return false;
    *out = v->valuedouble;
    return true;
}

cJSON *rd_json_add_num(cJSON *obj, const char *key, double v)
{
    if (!isfinite(v))
        return cJSON_AddNullToObject(obj, key);
    return cJSON_AddNumberToObject(obj, key, v);
}
