/*
 * json - core's JSON I/O over cJSON: parsing with line:col diagnostics and
 * deterministic writing (NaN and infinities as null, shortest round-trip
 * numbers).
 */
#include <math.h>
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

rd_status rd_json_parse(const char *text, size_t len, const char *path,
                        unsigned first_line, cJSON **out, struct rd_diag *d)
{
    const char *end = NULL;
    *out = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t off;
    if (*out) {
        off = (size_t)(end - text);
        while (off < len && strchr(" \t\r\n", text[off]))
            off++;
        if (off == len)
            return RD_OK;
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
