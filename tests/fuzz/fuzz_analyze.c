// links: rd_analyze
/*
 * fuzz_analyze - a whole analysis over an arbitrary store.
 *
 * The input is written to a temporary file and analysed as a store; a parse
 * error is a fine outcome, anything else must produce a document that
 * parses as JSON. Extreme numbers (1e308, denormals, constant groups) are
 * the point: every statistic must come out as a number or null, never a
 * crash, an abort inside GSL or invalid JSON.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis.h"
#include "rundown/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_analyze.%ld.jsonl", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);

    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    o.bootstrap = 20;
    o.all_metrics = size % 2 == 1;
    o.exclude_outliers = size % 3 == 1;
    o.pool_envs = true;
    o.baseline_key = "runtime";
    o.baseline_val = "node";
    struct rd_analysis *a;
    if (rd_analysis_new(&o, &a))
        abort();
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status s = rd_analysis_add_store(a, path, &d);
    struct rd_buf out = RD_BUF_INIT;
    if (!s)
        s = rd_analysis_write(a, &out, &d);
    if (!s) {
        cJSON *doc = NULL;
        if (rd_json_parse(out.ptr, out.len, "out", 1, &doc, NULL) != RD_OK)
            abort(); /* the analysis must always be valid JSON */
        cJSON_Delete(doc);
    } else if (s != RD_ERR_PARSE && s != RD_ERR_IO) {
        abort();
    }
    rd_buf_release(&out);
    rd_analysis_free(a);
    unlink(path);
    return 0;
}
