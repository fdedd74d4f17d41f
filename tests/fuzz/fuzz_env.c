// links: rd_analyze
/*
 * fuzz_env - the environment file (rundown.env/1) that rundown-analyze
 * reads for the runs of a store (env-ID.json next to the store) and copies
 * into analysis.json's "environments".
 *
 * The input is that file. A parse error is a fine outcome; anything else
 * must give an analysis that parses as JSON (the file is data: whatever it
 * holds must come out as valid JSON or be refused).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char store_text[] =
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},\"run\":1,\"env\":\"env-f\",\"metrics\":{\"wall_ms\":101.2}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},\"run\":2,\"env\":\"env-f\",\"metrics\":{\"wall_ms\":99.8}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"b\"},\"run\":1,\"env\":\"env-f\",\"metrics\":{\"wall_ms\":120.1}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"b\"},\"run\":2,\"env\":\"env-f\",\"metrics\":{\"wall_ms\":118.3}}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[64], store[96], file[96];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_env.%ld", (long)getpid());
        snprintf(store, sizeof store, "%s/runs.jsonl", dir);
        snprintf(file, sizeof file, "%s/env-f.json", dir);
        mkdir(dir, 0700);
        if (!fuzz_write_file(store, store_text, sizeof store_text - 1))
            abort();
    }
    if (!fuzz_write_file(file, data, size))
        return 0;

    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    o.bootstrap = 20;
    fuzz_analyze_store(&o, store, true); /* the fixed store is valid */
    unlink(file);
    return 0;
}
