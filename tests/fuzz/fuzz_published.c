// links: rd_analyze
/*
 * fuzz_published - the published-figures reader (rundown-analyze
 * --published DIR, rundown.published/1) against a fixed small store.
 *
 * The input is the one file in the published folder. A parse error is a
 * fine outcome; anything else must give an analysis that parses as JSON.
 * The store has configs whose labels and metrics the seeds name, so figures
 * reach the matching, ratio, Welch and Fieller code with hostile numbers
 * (sd 0, n 1, 1e308, negative means).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char store_text[] =
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"runtime\":\"bun\",\"mechanism\":\"worker\"},\"run\":1,\"metrics\":{\"wall_ms\":101.2,\"rps\":1000}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"runtime\":\"bun\",\"mechanism\":\"worker\"},\"run\":2,\"metrics\":{\"wall_ms\":99.8,\"rps\":1010}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"runtime\":\"bun\",\"mechanism\":\"worker\"},\"run\":3,\"metrics\":{\"wall_ms\":100.5,\"rps\":990}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"runtime\":\"node\",\"mechanism\":\"worker\"},\"run\":1,\"metrics\":{\"wall_ms\":120.1,\"rps\":800}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"runtime\":\"node\",\"mechanism\":\"worker\"},\"run\":2,\"metrics\":{\"wall_ms\":120.1,\"rps\":800}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"v\",\"config\":{},\"run\":1,\"metrics\":{\"wall_ms\":5}}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[64], store[96], file[96];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_published.%ld", (long)getpid());
        snprintf(store, sizeof store, "%s.jsonl", dir);
        snprintf(file, sizeof file, "%s/p.json", dir);
        mkdir(dir, 0700);
        if (!fuzz_write_file(store, store_text, sizeof store_text - 1))
            abort();
    }
    if (!fuzz_write_file(file, data, size))
        return 0;

    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    o.bootstrap = 20;
    o.published_dir = dir;
    o.all_metrics = size % 2 == 1;
    fuzz_analyze_store(&o, store, true); /* the fixed store is valid */
    unlink(file);
    return 0;
}
