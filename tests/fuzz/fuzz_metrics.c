// links: rd_collect
/*
 * fuzz_metrics - the scanner of "rundown:metric NAME=VALUE" lines in a
 * benchmarked command's stdout (collect/metricscan.c), fed through the
 * stream of collect/proc.c that carries it, on arbitrary bytes.
 *
 * The first byte chooses how the rest is cut into reads (1 to 256 bytes
 * each), as pipe reads cut a stream anywhere. Checked besides memory errors:
 * every kept name is a valid metric name, at most RD_METRIC_NAMES_MAX are
 * kept, the tail stays bounded, and the result is the same as for the whole
 * input in one read (names, values, bad and dropped counts).
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void scan(struct rd_stream *s, const char *text, size_t len, size_t piece)
{
    rd_stream_init(s);
    s->metrics = true;
    s->keep.max = 64;
    for (size_t at = 0; at < len; at += piece)
        rd_stream_consume(s, text + at, len - at < piece ? len - at : piece);
    rd_stream_end(s);
}

static bool valid_name(const struct rd_scanned_metric *m)
{
    if (m->len == 0 || m->len > RD_METRIC_NAME_MAX || strlen(m->name) != m->len ||
        !islower((unsigned char)m->name[0]))
        return false;
    for (size_t i = 0; i < m->len; i++) {
        unsigned char c = (unsigned char)m->name[i];
        if (!islower(c) && !isdigit(c) && c != '_')
            return false;
    }
    return true;
}

static bool same_value(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t piece = (size_t)data[0] + 1;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;

    struct rd_stream cut, whole;
    scan(&cut, text, len, piece);
    scan(&whole, text, len, len ? len : 1);

    const struct rd_metric_scan *c = &cut.scan, *w = &whole.scan;
    if (c->mn > RD_METRIC_NAMES_MAX || cut.tail.len > 2 * RD_TAIL_BYTES ||
        cut.keep.len > cut.keep.max)
        abort();
    if (c->mn != w->mn || c->bad_lines != w->bad_lines || c->dropped_lines != w->dropped_lines)
        abort();
    for (size_t i = 0; i < c->mn; i++) {
        if (!valid_name(&c->mv[i]) || strcmp(c->mv[i].name, w->mv[i].name) != 0 ||
            !same_value(c->mv[i].value, w->mv[i].value))
            abort();
    }
    rd_stream_release(&cut);
    rd_stream_release(&whole);
    return 0;
}
