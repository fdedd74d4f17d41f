// links: rd_core
/*
 * Fuzz target for the run-record reader: every line of the input is parsed
 * as a store line; a record that parses must serialise, and its serialised
 * form must parse back to the same bytes (the writer and the reader agree).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rd_arena arena;
    rd_arena_init(&arena);
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t len = eol ? (size_t)(eol - p) : (size_t)(end - p);
        struct rd_record r;
        struct rd_diag d;
        rd_diag_init(&d, "fuzz");
        if (rd_record_from_json(&r, &arena, p, len, &d) == RD_OK &&
            rd_record_validate(&r, &d) == RD_OK) {
            struct rd_buf once = RD_BUF_INIT, twice = RD_BUF_INIT;
            if (rd_record_to_json(&r, &once) == RD_OK) {
                struct rd_record back;
                if (rd_record_from_json(&back, &arena, once.ptr, once.len - 1, &d) != RD_OK)
                    abort();
                if (rd_record_to_json(&back, &twice) != RD_OK ||
                    strcmp(once.ptr, twice.ptr) != 0)
                    abort();
            }
            rd_buf_release(&once);
            rd_buf_release(&twice);
        }
        rd_arena_reset(&arena);
        p += len + (eol ? 1 : 0);
    }
    rd_arena_release(&arena);
    return 0;
}
