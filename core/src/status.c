/*
 * status - status strings, exit codes and the diagnostics struct.
 *
 * Depends on nothing but libc.
 */
#include <stdio.h>
#include <string.h>

#include "rundown/status.h"
#include "rundown/utf8.h"

static const char *const status_text[RD_STATUS_MAX] = {
    [RD_OK] = "no error",
    [RD_ERR_NOMEM] = "out of memory",
    [RD_ERR_IO] = "input/output error",
    [RD_ERR_PARSE] = "invalid input",
    [RD_ERR_STATS] = "numeric routine failed",
    [RD_ERR_USAGE] = "invalid arguments",
    [RD_ERR_RUN_FAILED] = "a benchmarked command failed or timed out",
};

const char *rd_strerror(rd_status s)
{
    if ((unsigned)s >= RD_STATUS_MAX)
        return "unknown error";
    return status_text[s];
}

int rd_exit_code(rd_status s)
{
    switch (s) {
    case RD_OK:
        return RD_EXIT_OK;
    case RD_ERR_PARSE:
        return RD_EXIT_INPUT;
    case RD_ERR_USAGE:
        return RD_EXIT_USAGE;
    case RD_ERR_RUN_FAILED:
        return RD_EXIT_RUN_FAILED;
    case RD_ERR_NOMEM:
    case RD_ERR_IO:
    case RD_ERR_STATS:
    default:
        return RD_EXIT_SYSTEM;
    }
}

void rd_diag_init(struct rd_diag *d, const char *path)
{
    if (!d)
        return;
    d->path = path;
    d->line = d->col = 0;
    d->msg[0] = '\0';
}

rd_status rd_diag_vset(struct rd_diag *d, rd_status status, const char *path,
                       unsigned line, unsigned col, const char *fmt, va_list ap)
{
    if (!d)
        return status;
    if (path)
        d->path = path;
    d->line = line;
    d->col = col;
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    return status;
}

rd_status rd_diag_set(struct rd_diag *d, rd_status status, const char *path,
                      unsigned line, unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rd_diag_vset(d, status, path, line, col, fmt, ap);
    va_end(ap);
    return status;
}

char *rd_diag_format(const struct rd_diag *d, char *out, size_t size)
{
    if (!size)
        return out;
    out[0] = '\0';
    if (!d)
        return out;
    if (d->path && d->line && d->col)
        snprintf(out, size, "%s:%u:%u: %s", d->path, d->line, d->col, d->msg);
    else if (d->path && d->line)
        snprintf(out, size, "%s:%u: %s", d->path, d->line, d->msg);
    else if (d->path && d->path[0])
        snprintf(out, size, "%s: %s", d->path, d->msg);
    else
        snprintf(out, size, "%s", d->msg);
    return out;
}

void rd_excerpt(const char *s, size_t len, size_t max, char *out, size_t size)
{
    size_t w = 0;
    if (!size)
        return;
    for (size_t i = 0; i < len && i < max && w + 4 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        /* Keep UTF-8 text; replace control characters so a message stays
         * on one line and cannot drive a terminal, and bytes that are not
         * UTF-8 (binary input) or a character cut by the limit, so a
         * message is always valid text. */
        if (c >= 0x80) {
            size_t n = rd_utf8_valid_len((const unsigned char *)s + i, len - i);
            if (n > 1 && i + n <= max && w + n + 4 <= size) {
                memcpy(out + w, s + i, n);
                w += n;
                i += n - 1;
            } else {
                out[w++] = '?';
            }
            continue;
        }
        out[w++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    if (len > max && w + 4 <= size) {
        memcpy(out + w, "...", 3);
        w += 3;
    }
    out[w] = '\0';
}
