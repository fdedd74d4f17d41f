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

#include "analysis.h"
#include "rundown/json.h"

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
        FILE *s = fopen(store, "wb");
        if (!s)
            abort();
        fwrite(store_text, 1, sizeof store_text - 1, s);
        fclose(s);
    }
    FILE *f = fopen(file, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);

    struct rd_analyze_opts o;
    rd_analyze_opts_init(&o);
    o.bootstrap = 20;
    struct rd_analysis *a;
    if (rd_analysis_new(&o, &a))
        abort();
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status s = rd_analysis_add_store(a, store, &d);
    if (s)
        abort(); /* the fixed store is valid */
    struct rd_buf out = RD_BUF_INIT;
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
    unlink(file);
    return 0;
}
