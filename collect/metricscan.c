/*
 * metricscan.c - "rundown:metric NAME=VALUE" lines (see metricscan.h).
 *
 * Lines longer than RD_METRIC_LINE_MAX are skipped without being kept:
 * a command printing one endless line must not grow the line buffer
 * without bound, and no metric line is that long.
 */
#include "metricscan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/array.h"
#include "rundown/metrics.h"
#include "rundown/units.h"

#define RD_METRIC_LINE_MAX 4096

void rd_metric_scan_init(struct rd_metric_scan *m)
{
    memset(m, 0, sizeof *m);
    rd_buf_init(&m->line, 0);
}

void rd_metric_scan_release(struct rd_metric_scan *m)
{
    rd_buf_release(&m->line);
    for (size_t i = 0; i < m->mn; i++)
        free(m->mv[i].name);
    free(m->mv);
    m->mv = NULL;
    m->mn = m->mcap = 0;
}

bool rd_metric_name_valid(const char *name, size_t len)
{
    bool ok = len > 0 && len <= RD_METRIC_NAME_MAX && islower((unsigned char)*name);
    for (size_t i = 0; ok && i < len; i++)
        ok = islower((unsigned char)name[i]) || isdigit((unsigned char)name[i]) ||
             name[i] == '_';
    return ok;
}

/* Reads "VALUE" or "VALUE UNIT" of metric name[0..nlen) into the name
 * stored and the value in its unit; false with why set otherwise. */
static bool metric_value(const char *name, size_t nlen, const char *s, size_t len,
                         char *stored, double *v, char *why, size_t whysize)
{
    const char *num, *unit;
    size_t num_len, ulen;
    memcpy(stored, name, nlen);
    stored[nlen] = '\0';
    if (rd_split_number_unit(s, len, &num, &num_len, &unit, &ulen)) {
        snprintf(why, whysize, "expected a number, optionally followed by a unit");
        return false;
    }
    if (ulen == 0)
        return rd_parse_double(num, num_len, v) == RD_OK;
    struct rd_metric_conversion c;
    if (rd_metric_unit_conversion(stored, unit, ulen, RD_METRIC_NAME_MAX, &c, why, whysize))
        return false;
    if (rd_parse_scaled(num, num_len, c.shift, c.mult, v)) {
        snprintf(why, whysize, "the value is out of range in %s", c.name);
        return false;
    }
    memcpy(stored, c.name, strlen(c.name) + 1);
    return true;
}

static void metric_line(struct rd_metric_scan *m, const char *line, size_t len)
{
    static const char prefix[] = "rundown:metric ";
    size_t plen = sizeof prefix - 1;
    if (len < plen || memcmp(line, prefix, plen) != 0)
        return;
    const char *p = line + plen, *end = line + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
        end--;
    const char *eq = memchr(p, '=', (size_t)(end - p));
    char why[160] = "expected NAME=VALUE [UNIT] with a NAME of lower-case letters, digits "
                    "and '_' (at most 64 bytes)";
    char stored[RD_METRIC_NAME_MAX + 1];
    bool ok = eq && rd_metric_name_valid(p, (size_t)(eq - p));
    double v = 0;
    if (ok)
        ok = metric_value(p, (size_t)(eq - p), eq + 1, (size_t)(end - eq - 1), stored, &v, why,
                          sizeof why);
    if (!ok) {
        if (m->bad_lines++ == 0) {
            rd_excerpt(line, len, 80, m->bad_first, sizeof m->bad_first);
            snprintf(m->bad_why, sizeof m->bad_why, "%s", why);
        }
        return;
    }
    p = stored;
    size_t nlen = strlen(stored);
    /* A linear scan: at most RD_METRIC_NAMES_MAX names, lengths first. */
    for (size_t i = 0; i < m->mn; i++) {
        if (m->mv[i].len == nlen && memcmp(m->mv[i].name, p, nlen) == 0) {
            m->mv[i].value = v;  /* the last value printed wins */
            return;
        }
    }
    if (m->mn >= RD_METRIC_NAMES_MAX) {
        if (m->dropped_lines++ == 0) {
            memcpy(m->dropped_first, p, nlen);
            m->dropped_first[nlen] = '\0';
        }
        return;
    }
    if (RD_ARRAY_GROW(m->mv, m->mcap, m->mn + 1))
        return;
    char *name = strndup(p, nlen);
    if (!name)
        return;
    m->mv[m->mn].name = name;
    m->mv[m->mn].len = nlen;
    m->mv[m->mn++].value = v;
}

void rd_metric_scan_feed(struct rd_metric_scan *m, const char *data, size_t n)
{
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(data + i, '\n', n - i);
        size_t take = nl ? (size_t)(nl - (data + i)) : n - i;
        if (!m->line_overflow) {
            if (m->line.len + take > RD_METRIC_LINE_MAX)
                m->line_overflow = true;
            else
                rd_buf_add(&m->line, data + i, take);
        }
        i += take;
        if (nl) {
            if (!m->line_overflow)
                metric_line(m, m->line.ptr, m->line.len);
            rd_buf_reset(&m->line);
            m->line_overflow = false;
            i++;
        }
    }
}

void rd_metric_scan_end(struct rd_metric_scan *m)
{
    /* A final line without '\n' still counts as a metric line. */
    if (m->line.len && !m->line_overflow)
        metric_line(m, m->line.ptr, m->line.len);
    rd_buf_reset(&m->line);
    m->line_overflow = false;
}
