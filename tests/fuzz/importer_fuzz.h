/*
 * importer_fuzz.h - the body shared by the importer fuzz targets
 * (fuzz_import_<tool>.c, one per entry of the importer table): normalise,
 * detect, parse, serialise every record, free. Besides memory errors it
 * checks the importer's contract: detect() stays within 0..100, a parse
 * failure names a line and a message, every record has a tool and a known
 * status, every failed run of a load tool says why (a non-empty info
 * "failure", from the one judge of loadjudge.h), an ok one has no failure,
 * and every load run has an error_rate, null or within 0..1.
 */
#ifndef RUNDOWN_IMPORTER_FUZZ_H
#define RUNDOWN_IMPORTER_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importer.h"

static int fuzz_importer(const struct rd_importer *imp, const uint8_t *data, size_t size)
{
    struct rd_buf raw;
    rd_buf_init(&raw, 0);
    if (rd_buf_add(&raw, data, size) != RD_OK)
        return 0;
    struct rd_import_input in;
    struct rd_diag d;
    rd_diag_init(&d, "fuzz");
    if (rd_import_normalise(&raw, "fuzz", &in, &d) == RD_OK) {
        int score = imp->detect(&in);
        if (score < 0 || score > 100)
            abort();
        struct rd_recordset set;
        rd_recordset_init(&set);
        rd_diag_init(&d, "fuzz");
        rd_status s = imp->parse(&in, &set, &d);
        if (s == RD_ERR_PARSE && (d.line == 0 || d.msg[0] == '\0'))
            abort();
        if (s == RD_OK) {
            struct rd_buf out = RD_BUF_INIT;
            for (size_t i = 0; i < set.len; i++) {
                const struct rd_record *r = &set.items[i];
                if (!r->tool || !r->status ||
                    (strcmp(r->status, "ok") != 0 && strcmp(r->status, "failed") != 0))
                    abort();
                const char *why = rd_record_info(r, "failure");
                if (imp->load && strcmp(r->status, "failed") == 0 && !(why && *why))
                    abort();
                double rate;
                if (imp->load && (!rd_record_metric(r, "error_rate", &rate) ||
                                  (rate == rate && !(rate >= 0 && rate <= 1)) ||
                                  (strcmp(r->status, "ok") == 0 && why)))
                    abort();
                rd_record_to_json(r, &out);
            }
            rd_buf_release(&out);
        }
        rd_recordset_release(&set);
    }
    rd_buf_release(&raw);
    return 0;
}

#endif
