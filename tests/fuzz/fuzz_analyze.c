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

#include "analysis_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_analyze.%ld.jsonl", (long)getpid());
    if (!fuzz_write_file(path, data, size))
        return 0;

    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    o.bootstrap = 20;
    o.all_metrics = size % 2 == 1;
    o.exclude_outliers = size % 3 == 1;
    o.pool_envs = true;
    o.baseline_key = "runtime";
    o.baseline_val = "node";
    fuzz_analyze_store(&o, path, false);
    unlink(path);
    return 0;
}
