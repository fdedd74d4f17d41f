/*
 * analysis_fuzz.h - the part the analysis fuzz targets share: writing the
 * input to a file, and running a whole analysis whose output must parse as
 * JSON (a parse or I/O error is a fine outcome, anything else aborts).
 */
#ifndef RUNDOWN_ANALYSIS_FUZZ_H
#define RUNDOWN_ANALYSIS_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "stats.h"
#include "rundown/json.h"

/* Writes size bytes to path; false when the file cannot be created. */
static inline bool fuzz_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    fwrite(data, 1, size, f);
    fclose(f);
    return true;
}

/*
 * A target's scratch folder: made once per process (mkdtemp under /tmp),
 * holding the fixed store 'runs.jsonl' and an optional subfolder, and
 * removed at exit with the files named here, so runs leave nothing behind.
 */
struct fuzz_scratch {
    char dir[64], store[96], sub[96], input[128];
};

static struct fuzz_scratch *fuzz_scratch_active;

static void fuzz_scratch_remove(void)
{
    struct fuzz_scratch *s = fuzz_scratch_active;
    unlink(s->input);
    unlink(s->store);
    if (s->sub[0])
        rmdir(s->sub);
    rmdir(s->dir);
}

/*
 * Sets s up on the first call: the folder, the store holding store_text,
 * and the input's path - 'input' inside the subfolder 'sub' when sub is
 * not NULL, else next to the store. Aborts when it cannot.
 */
static inline void fuzz_scratch_once(struct fuzz_scratch *s, const char *name,
                                     const char *store_text, const char *sub,
                                     const char *input)
{
    if (s->dir[0])
        return;
    snprintf(s->dir, sizeof s->dir, "/tmp/fuzz_%s.XXXXXX", name);
    if (!mkdtemp(s->dir))
        abort();
    snprintf(s->store, sizeof s->store, "%s/runs.jsonl", s->dir);
    if (sub) {
        snprintf(s->sub, sizeof s->sub, "%s/%s", s->dir, sub);
        if (mkdir(s->sub, 0700) != 0)
            abort();
    }
    snprintf(s->input, sizeof s->input, "%s/%s", sub ? s->sub : s->dir, input);
    if (!fuzz_write_file(s->store, store_text, strlen(store_text)))
        abort();
    fuzz_scratch_active = s;
    atexit(fuzz_scratch_remove);
}

/*
 * Analyses the store at 'store' with the options o. With store_is_valid the
 * store is a fixed, valid one and failing to read it is a bug.
 */
static inline void fuzz_analyze_store(const struct rd_analyze_opts *o, const char *store,
                                      bool store_is_valid)
{
    /* What rundown-analyze's main() does: the library never sets it. */
    rd_stats_init();
    struct rd_analysis *a;
    if (rd_analysis_new(o, &a))
        abort();
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status s = rd_analysis_add_store(a, store, &d);
    if (s && store_is_valid)
        abort();
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
}

#endif
