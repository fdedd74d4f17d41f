// links: rd_render
/*
 * fuzz_stage_journal - the reader of a render's commit journal (stage.h):
 * any bytes read from a leftover staging folder give a list of entries,
 * each one plain name (no '/', not "." or ".."), or RD_ERR_PARSE with the
 * line; never a crash. The names are renamed in the output folder, so a
 * name that could step out of it aborts the target.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rd_stage_journal_entry *es;
    size_t n;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status st = rd_stage_journal_parse((const char *)data, size, &es, &n, &d);
    if (st != RD_OK) {
        if (es || n || (st == RD_ERR_PARSE && (d.line == 0 || d.msg[0] == '\0')))
            abort();
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const char *name = es[i].name;
        if (!name[0] || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            abort();
    }
    rd_stage_journal_free(es, n);
    return 0;
}
