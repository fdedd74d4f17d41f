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
    /* The published folder holds the input alone; the store sits beside it. */
    static struct fuzz_scratch s;
    fuzz_scratch_once(&s, "published", store_text, "published", "p.json");
    if (!fuzz_write_file(s.input, data, size))
        return 0;

    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    o.bootstrap = 20;
    o.published_dir = s.sub;
    o.all_metrics = size % 2 == 1;
    fuzz_analyze_store(&o, s.store, true); /* the fixed store is valid */
    unlink(s.input);
    return 0;
}
