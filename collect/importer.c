/*
 * importer - the table of importers (all rundown knows of each tool: see
 * importer.h), format detection and input normalisation shared by every
 * importer.
 *
 * Depends on core only; knows nothing of any one tool's format.
 */
#include <string.h>

#include "importer.h"

/*
 * The importers, in detection order; one per tool, each reading every output
 * format of its tool (text, JSON, CSV). Formats that are easy to mistake
 * for another (wrk2 prints everything wrk prints, plus more) come first. Each
 * lives in collect/importers/<tool>.c. `rundown-collect env` and `import
 * --help` list the tools in this order too.
 */
#define RD_IMPORTER(tool) extern const struct rd_importer rd_importer_##tool;
RD_IMPORTER(wrk2)
RD_IMPORTER(wrk)
RD_IMPORTER(autocannon)
RD_IMPORTER(bombardier)
RD_IMPORTER(hey)
RD_IMPORTER(ab)
RD_IMPORTER(oha)
RD_IMPORTER(k6)
RD_IMPORTER(hyperfine)
#undef RD_IMPORTER

static const struct rd_importer *const all_importers[] = {
    &rd_importer_wrk2,
    &rd_importer_wrk,
    &rd_importer_autocannon,
    &rd_importer_bombardier,
    &rd_importer_hey,
    &rd_importer_ab,
    &rd_importer_oha,
    &rd_importer_k6,
    &rd_importer_hyperfine,
};

const struct rd_importer *const *rd_importers(size_t *count)
{
    *count = sizeof all_importers / sizeof all_importers[0];
    return all_importers;
}

const struct rd_importer *rd_importer_find(const char *name)
{
    size_t n;
    const struct rd_importer *const *list = rd_importers(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i]->name, name) == 0)
            return list[i];
    return NULL;
}

const struct rd_importer *rd_importer_detect(const struct rd_import_input *in,
                                             struct rd_diag *d)
{
    size_t n;
    const struct rd_importer *const *list = rd_importers(&n);
    const struct rd_importer *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < n; i++) {
        int score = list[i]->detect(in);
        /* Ties keep the earlier, more specific importer. */
        if (score > best_score) {
            best = list[i];
            best_score = score;
        }
    }
    if (best && best_score >= 50)
        return best;

    struct rd_buf names = RD_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (i)
            rd_buf_addstr(&names, ", ");
        rd_buf_addstr(&names, list[i]->name);
    }
    /* Show the first non-blank line: that is what a reader recognises. */
    const char *p = in->data, *end = in->data + in->len;
    while (p < end && (*p == '\n' || *p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    size_t first_len = eol ? (size_t)(eol - p) : (size_t)(end - p);
    unsigned line = 1;
    for (const char *q = in->data; q < p; q++)
        line += *q == '\n';
    char excerpt[96];
    rd_excerpt(p, first_len, 60, excerpt, sizeof excerpt);
    /* hyperfine's other exports hold only summaries, no run's time. */
    const char *hyperfine_export = first_len >= 19 && strncmp(p, "command,mean,stddev", 19) == 0
                                       ? "CSV"
                                   : first_len >= 14 && strncmp(p, "| Command | Me", 14) == 0
                                       ? "Markdown"
                                       : NULL;
    if (in->len == 0)
        rd_diag_set(d, RD_ERR_PARSE, in->path, 1, 1,
                    "empty input: not output of %s", names.ptr);
    else if (hyperfine_export)
        rd_diag_set(d, RD_ERR_PARSE, in->path, line, 1,
                    "a hyperfine %s export holds only summaries, not the runs: export them "
                    "with hyperfine --export-json FILE and import that", hyperfine_export);
    else
        rd_diag_set(d, RD_ERR_PARSE, in->path, line, 1,
                    "not output of %s; first line: '%s'", names.ptr, excerpt);
    rd_buf_release(&names);
    return NULL;
}

rd_status rd_import_normalise(struct rd_buf *raw, const char *path,
                              struct rd_import_input *in, struct rd_diag *d)
{
    char *s = raw->ptr;
    size_t len = raw->len;

    /* A UTF-8 byte-order mark comes from editors and PowerShell redirects. */
    if (len >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
        (unsigned char)s[2] == 0xBF) {
        memmove(s, s + 3, len - 3);
        len -= 3;
    }

    unsigned line = 1, col = 1;
    size_t w = 0;
    for (size_t r = 0; r < len; r++) {
        char c = s[r];
        if (c == '\0') {
            raw->len = len;
            return rd_diag_set(d, RD_ERR_PARSE, path, line, col,
                               "expected text, got a NUL byte (binary input)");
        }
        /* CRLF from Windows captures becomes LF; a lone CR (progress bars
         * redraw with it) is data and stays. */
        if (c == '\r' && r + 1 < len && s[r + 1] == '\n')
            continue;
        s[w++] = c;
        if (c == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    rd_buf_truncate(raw, w);
    in->data = raw->ptr;
    in->len = raw->len;
    in->path = path;
    return RD_OK;
}
