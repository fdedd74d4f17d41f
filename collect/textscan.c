/*
 * textscan - line and token scanning with positions for the text importers.
 *
 * The importers never index fixed columns: load tools pad with spaces and
 * tabs, truncate wide fields and leave trailing blanks after one-letter
 * units, so splitting on blanks is the only layout that survives every
 * version. Everything here works on (pointer, length) views into the
 * caller's buffer; nothing is copied or allocated, so a scan cannot fail
 * except by running out of input.
 */
#include <string.h>

#include "textscan.h"

static bool is_blank(char c)
{
    /* A lone CR survives normalisation (progress bars); treat it as a blank
     * inside a line so "Finished\r" still tokenises as "Finished". */
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

void rd_lines_init(struct rd_lines *it, const char *data, size_t len)
{
    it->data = data;
    it->len = len;
    it->pos = 0;
    it->no = 0;
}

bool rd_lines_peek(const struct rd_lines *it, struct rd_line *line)
{
    if (it->pos >= it->len)
        return false;
    const char *start = it->data + it->pos;
    size_t rest = it->len - it->pos;
    const char *nl = memchr(start, '\n', rest);
    line->ptr = start;
    line->len = nl ? (size_t)(nl - start) : rest;
    line->no = it->no + 1;
    return true;
}

bool rd_lines_next(struct rd_lines *it, struct rd_line *line)
{
    if (!rd_lines_peek(it, line))
        return false;
    it->pos += line->len;
    if (it->pos < it->len)
        it->pos++;  /* the '\n' */
    it->no = line->no;
    return true;
}

size_t rd_tokenize(const struct rd_line *line, struct rd_token *tokens, size_t max)
{
    size_t n = 0, i = 0;
    while (i < line->len) {
        while (i < line->len && is_blank(line->ptr[i]))
            i++;
        if (i >= line->len)
            break;
        size_t start = i;
        while (i < line->len && !is_blank(line->ptr[i]))
            i++;
        if (n < max) {
            tokens[n].ptr = line->ptr + start;
            tokens[n].len = i - start;
            tokens[n].col = (unsigned)(start + 1);
        }
        n++;
    }
    return n;
}

struct rd_line rd_line_trim(struct rd_line line)
{
    while (line.len && is_blank(line.ptr[0])) {
        line.ptr++;
        line.len--;
    }
    while (line.len && is_blank(line.ptr[line.len - 1]))
        line.len--;
    return line;
}

bool rd_line_starts_with(const struct rd_line *line, const char *prefix)
{
    struct rd_line t = rd_line_trim(*line);
    size_t n = strlen(prefix);
    return t.len >= n && memcmp(t.ptr, prefix, n) == 0;
}

bool rd_line_contains(const struct rd_line *line, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return true;
    if (line->len < n)
        return false;
    for (size_t i = 0; i + n <= line->len; i++)
        if (line->ptr[i] == needle[0] && memcmp(line->ptr + i, needle, n) == 0)
            return true;
    return false;
}

bool rd_token_is(const struct rd_token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->ptr, s, n) == 0;
}

unsigned rd_line_col(const struct rd_line *line, const char *p)
{
    if (p < line->ptr)
        return 1;
    return (unsigned)(p - line->ptr) + 1;
}

rd_status rd_expect_fail(struct rd_diag *d, const struct rd_line *line,
                         const struct rd_token *tok, const char *what)
{
    if (!tok) {
        /* Point just past the last non-blank byte, where the missing token
         * would start. */
        unsigned col = 1;
        if (line) {
            struct rd_line t = rd_line_trim(*line);
            if (t.len)
                col = rd_line_col(line, t.ptr + t.len);
        }
        return rd_diag_set(d, RD_ERR_PARSE, NULL, line ? line->no : 0, col,
                           "expected %s, got end of line", what);
    }
    char excerpt[96];
    rd_excerpt(tok->ptr, tok->len, 40, excerpt, sizeof excerpt);
    return rd_diag_set(d, RD_ERR_PARSE, NULL, line ? line->no : 0, tok->col,
                       "expected %s, got '%s'", what, excerpt);
}

rd_status rd_text_ends_early(struct rd_diag *d, const char *path, const char *data,
                             size_t len, const char *what)
{
    unsigned line = 1;
    for (size_t i = 0; i < len; i++)
        if (data[i] == '\n' && i + 1 < len)
            line++;
    return rd_diag_set(d, RD_ERR_PARSE, path, line, 1,
                       "the output ends early (truncated?): expected %s", what);
}

rd_status rd_text_closed(struct rd_diag *d, const char *path, const char *data, size_t len)
{
    if (len && data[len - 1] == '\n')
        return RD_OK;
    return rd_text_ends_early(d, path, data, len, "a newline after the last line");
}
