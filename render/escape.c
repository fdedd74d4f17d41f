/*
 * escape - the one place where input strings are made safe for HTML,
 * Markdown, gnuplot, file names and sheet names.
 *
 * The rules are deliberately conservative: it is always better to print a
 * backslash too many in report.md than to let a label start a table row, a
 * link or a gnuplot command. Depends only on rd_buf and core's UTF-8
 * decoder (rundown/utf8.h).
 */
#include "escape.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rundown/utf8.h"

/* Length in bytes of the character starting at s (NUL-terminated): its
 * UTF-8 sequence, or 1 for a byte that starts none. */
static size_t utf8_step(const char *s)
{
    size_t n = rd_utf8_decode((const unsigned char *)s, strnlen(s, 4), NULL);
    return n ? n : 1;
}

int rd_escape_parse(const char *name, size_t len)
{
    static const struct { const char *name; enum rd_escape mode; } names[] = {
        { "md", RD_ESC_MD }, { "html", RD_ESC_HTML },
        { "plain", RD_ESC_PLAIN }, { "raw", RD_ESC_RAW },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == len && memcmp(names[i].name, name, len) == 0)
            return (int)names[i].mode;
    return -1;
}

rd_status rd_escape_html(struct rd_buf *out, const char *s)
{
    rd_status st = RD_OK;
    for (const char *p = s; *p && st == RD_OK; p++) {
        switch (*p) {
        case '&': st = rd_buf_addstr(out, "&amp;"); break;
        case '<': st = rd_buf_addstr(out, "&lt;"); break;
        case '>': st = rd_buf_addstr(out, "&gt;"); break;
        case '"': st = rd_buf_addstr(out, "&quot;"); break;
        case '\'': st = rd_buf_addstr(out, "&#39;"); break;
        default:
            /* Control bytes have no business in a report; a newline is
             * harmless in HTML but a CR or an escape byte is not. */
            st = rd_buf_addch(out, ((unsigned char)*p < 0x20 && *p != '\n') ? ' ' : *p);
        }
    }
    return st;
}

rd_status rd_escape_md(struct rd_buf *out, const char *s, bool line_start)
{
    rd_status st = RD_OK;
    const char *p = s;
    /* Indentation at the start of a line would make a code block, or hide
     * a '#' from the check below; it carries no meaning in a value. */
    if (line_start)
        while (*p == ' ' || *p == '\t')
            p++;
    /* Only at the start of a line do these begin a block (heading, list,
     * quote, setext underline, ordered list); elsewhere they are text. */
    if (line_start && *p) {
        if (strchr("#-+>=", *p))
            st = rd_buf_addch(out, '\\');
        else if (isdigit((unsigned char)*p)) {
            const char *q = p;
            while (isdigit((unsigned char)*q))
                q++;
            if (*q == '.' || *q == ')') {
                st = rd_buf_add(out, p, (size_t)(q - p));
                if (st == RD_OK)
                    st = rd_buf_addch(out, '\\');
                p = q;
            }
        }
    }
    for (; *p && st == RD_OK; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n' || c == '\r' || c == '\t' || c < 0x20 || c == 0x7f) {
            /* A newline would end a table row or a paragraph. */
            st = rd_buf_addch(out, ' ');
        } else if (strchr("\\`*_[]<>|~&!", c)) {
            /* Everything that can open emphasis, code, a link, an image,
             * raw HTML, an entity, a strikethrough or a new table cell. */
            st = rd_buf_addch(out, '\\');
            if (st == RD_OK)
                st = rd_buf_addch(out, (char)c);
        } else {
            st = rd_buf_addch(out, (char)c);
        }
    }
    return st;
}

rd_status rd_escape(struct rd_buf *out, const char *s, enum rd_escape mode,
                    bool line_start)
{
    switch (mode) {
    case RD_ESC_MD: return rd_escape_md(out, s, line_start);
    case RD_ESC_HTML: return rd_escape_html(out, s);
    case RD_ESC_PLAIN: {
        rd_status st = RD_OK;
        for (const char *p = s; *p && st == RD_OK; p++)
            st = rd_buf_addch(out, ((unsigned char)*p < 0x20 && *p != '\n') ? ' ' : *p);
        return st;
    }
    case RD_ESC_RAW: return rd_buf_addstr(out, s);
    }
    return RD_OK;
}

rd_status rd_escape_gnuplot(struct rd_buf *out, const char *s)
{
    /* Two gnuplot 5.4 quirks rule out the doubled quote ('a''b'): its
     * scanner misreads runs of them ('a''''b' is a syntax error), and its
     * @macro expander toggles "inside single quotes" at every ' it sees,
     * wherever it is. So a quote ends the single-quoted part and the
     * octal escape "\047" (a double-quoted string holding no quote
     * character) is joined to the rest: 'a'."\047".'b'. The expander then
     * sees an even number of ' around every part from input, and the
     * double-quoted part holds nothing from input, so no backquote
     * command, escape or @macro can come from a label. */
    rd_status st = rd_buf_addch(out, '\'');
    for (const char *p = s; *p && st == RD_OK; p++) {
        if (*p == '\'')
            st = rd_buf_addstr(out, "'.\"\\047\".'");
        else
            st = rd_buf_addch(out, ((unsigned char)*p < 0x20 || *p == 0x7f) ? ' ' : *p);
    }
    if (st == RD_OK)
        st = rd_buf_addch(out, '\'');
    return st;
}

rd_status rd_escape_latex(struct rd_buf *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        const char *rep = NULL;
        switch (*p) {
        case '&': rep = "\\&"; break;
        case '%': rep = "\\%"; break;
        case '$': rep = "\\$"; break;
        case '#': rep = "\\#"; break;
        case '_': rep = "\\_"; break;
        case '{': rep = "\\{"; break;
        case '}': rep = "\\}"; break;
        case '\\': rep = "\\textbackslash{}"; break;
        case '~': rep = "\\textasciitilde{}"; break;
        case '^': rep = "\\textasciicircum{}"; break;
        /* In LaTeX's default OT1 encoding these print as other glyphs. */
        case '<': rep = "\\textless{}"; break;
        case '>': rep = "\\textgreater{}"; break;
        case '|': rep = "\\textbar{}"; break;
        default: break;
        }
        if (rep)
            RD_TRY(rd_buf_addstr(out, rep));
        else
            RD_TRY(rd_buf_addch(out, (unsigned char)*p < 0x20 ? ' ' : *p));
    }
    return RD_OK;
}

rd_status rd_escape_csv(struct rd_buf *out, const char *s)
{
    /* OWASP's CSV injection starters: = + - @ tab and carriage return
     * (a spreadsheet drops a leading CR and reads the '=' after it). */
    bool formula = strchr("=+-@\t\r", s[0]) != NULL && s[0] != '\0';
    bool quote = formula || strpbrk(s, ",\"\r\n") != NULL;
    if (!quote)
        return rd_buf_addstr(out, s);
    RD_TRY(rd_buf_addch(out, '"'));
    if (formula)
        RD_TRY(rd_buf_addch(out, '\''));
    for (const char *p = s; *p; p++)
        RD_TRY(*p == '"' ? rd_buf_addstr(out, "\"\"") : rd_buf_addch(out, *p));
    return rd_buf_addch(out, '"');
}

rd_status rd_sanitize_filename(struct rd_buf *out, const char *s, size_t max)
{
    size_t start = out->len;
    bool gap = false;
    if (max < 1)
        max = 1;
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        bool keep = isalnum(c) || c == '-' || c == '_' || c == '.';
        /* A leading dot would hide the file or make "." / ".." names. */
        if (c == '.' && out->len == start)
            keep = false;
        /* ".." anywhere is harmless without slashes, but it reads like a
         * traversal attempt in a listing; fold it. */
        if (c == '.' && out->len > start && out->ptr[out->len - 1] == '.')
            keep = false;
        if (!keep) {
            gap = true;
            continue;
        }
        if (out->len - start >= max)
            break;
        if (gap && out->len > start) {
            if (rd_buf_addch(out, '_') != RD_OK)
                return RD_ERR_NOMEM;
            if (out->len - start >= max)
                break;
        }
        gap = false;
        if (rd_buf_addch(out, (char)c) != RD_OK)
            return RD_ERR_NOMEM;
    }
    if (out->len == start)
        return rd_buf_addch(out, '_');
    return RD_OK;
}

/* Bytes of a UTF-8 punctuation or symbol character GitHub drops from
 * anchors: U+00A0..U+00BF, U+00D7, U+00F7 and U+2000..U+207F; else 0. */
static size_t utf8_punct(const char *p)
{
    uint32_t cp;
    size_t n = rd_utf8_decode((const unsigned char *)p, strnlen(p, 4), &cp);
    if (n && ((cp >= 0xa0 && cp <= 0xbf) || cp == 0xd7 || cp == 0xf7 ||
              (cp >= 0x2000 && cp <= 0x207f)))
        return n;
    return 0;
}

rd_status rd_slug(struct rd_buf *out, const char *text)
{
    size_t start = out->len;
    rd_status st = RD_OK;
    for (const char *p = text; *p && st == RD_OK; p++) {
        unsigned char c = (unsigned char)*p;
        size_t skip = c >= 0x80 ? utf8_punct(p) : 0;
        if (skip) {
            p += skip - 1;
            continue;
        }
        if (c >= 0x80 || isalnum(c) || c == '-' || c == '_')
            st = rd_buf_addch(out, (char)tolower(c));
        else if (c == ' ')
            st = rd_buf_addch(out, '-');
    }
    /* Punctuation only ('.'): an empty anchor would link to the top of the
     * page ("#"); a word keeps the link on its section. */
    if (st == RD_OK && out->len == start)
        st = rd_buf_addstr(out, "section");
    return st;
}

static bool name_taken(const char *name, const void *items, size_t n, size_t stride,
                       size_t offset)
{
    for (size_t i = 0; i < n; i++) {
        const char *other;
        memcpy(&other, (const char *)items + i * stride + offset, sizeof other);
        if (other && strcmp(other, name) == 0)
            return true;
    }
    return false;
}

rd_status rd_name_unique(struct rd_buf *b, unsigned first, const void *items, size_t n,
                         size_t stride, size_t offset)
{
    size_t base = b->len;
    for (unsigned k = first; name_taken(b->ptr, items, n, stride, offset); k++) {
        rd_buf_truncate(b, base);
        if (rd_buf_addf(b, "-%u", k) != RD_OK)
            return RD_ERR_NOMEM;
    }
    return RD_OK;
}

void rd_sheet_name(const char *s, char *out, size_t size)
{
    size_t len = 0, chars = 0;
    for (const char *p = s; *p && chars < 31;) {
        unsigned char c = (unsigned char)*p;
        size_t n = utf8_step(p);
        /* Excel counts UTF-16 units; a 4-byte sequence is two of them. */
        size_t units = n == 4 ? 2 : 1;
        if (chars + units > 31)
            break;
        /* An apostrophe is legal but would need quoting in every
         * reference to the sheet; a chart range is one. */
        if (strchr("[]:*?/\\'", c) || c < 0x20) {
            if (len + 1 < size)
                out[len++] = '_';
            p++;
        } else {
            if (len + n >= size)
                break;
            memcpy(out + len, p, n);
            len += n;
            p += n;
        }
        chars += units;
    }
    out[len] = '\0';
    if (len == 0 && size > 6)
        strcpy(out, "sheet");
    /* "History" is reserved by Excel. */
    if (strcasecmp(out, "history") == 0 && size > 9)
        strcpy(out, "History_");
}

static bool name_used(const char *name, char *const *used, size_t nused)
{
    for (size_t i = 0; i < nused; i++)
        if (strcasecmp(name, used[i]) == 0)
            return true;
    return false;
}

/* Byte offset where the first 'chars' characters of s end. */
static size_t utf8_prefix(const char *s, size_t chars)
{
    size_t off = 0;
    for (; s[off] && chars > 0; chars--)
        off += utf8_step(s + off);
    return off;
}

void rd_sheet_name_unique(char *name, size_t size, char *const *used, size_t nused)
{
    if (!name_used(name, used, nused))
        return;
    char base[128];
    snprintf(base, sizeof base, "%s", name);
    for (unsigned k = 2; k < 100000; k++) {
        char suffix[16];
        int slen = snprintf(suffix, sizeof suffix, "~%u", k);
        size_t count = 0;
        for (const char *p = base; *p; p += utf8_step(p))
            count++;
        size_t keep = count + (size_t)slen > 31 ? 31 - (size_t)slen : count;
        size_t off = utf8_prefix(base, keep);
        if (off >= size)
            off = size - 1;
        snprintf(name, size, "%.*s%s", (int)off, base, suffix);
        if (!name_used(name, used, nused))
            return;
    }
}
