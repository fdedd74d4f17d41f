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
    static struct fuzz_scratch s;
    fuzz_scratch_once(&s, "env", store_text, NULL, "env-f.json");
    if (!fuzz_write_file(s.input, data, size))
        return 0;

    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    o.bootstrap = 20;
    /* The store's lines are valid, but reading it reads the environment
     * file too: a parse error there is the store's error, and fine. */
    fuzz_analyze_store(&o, s.store, false);
    unlink(s.input);
    return 0;
}
