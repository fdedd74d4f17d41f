/*
 * contract - which contract a file is (contract.h).
 */
#include "rundown/contract.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rundown/analysis_keys.h"

#define SNIFF_BYTES 65536

static const struct {
    enum rd_contract kind;
    const char *schema;
} schemas[] = {
    {RD_CONTRACT_STORE, RD_RUN_SCHEMA},
    {RD_CONTRACT_ENV, RD_ENV_SCHEMA},
    {RD_CONTRACT_SUITE, RD_SUITE_SCHEMA},
    {RD_CONTRACT_ANALYSIS, RD_ANALYSIS_SCHEMA},
    {RD_CONTRACT_PUBLISHED, RD_PUBLISHED_SCHEMA},
};

/* The value of the first "schema": "..." in text, or NULL. */
static enum rd_contract schema_in(const char *text)
{
    const char *p = strstr(text, "\"" RD_AK_SCHEMA "\"");
    if (!p)
        return RD_CONTRACT_UNKNOWN;
    p += strlen(RD_AK_SCHEMA) + 2;
    p += strspn(p, " \t\r\n");
    if (*p++ != ':')
        return RD_CONTRACT_UNKNOWN;
    p += strspn(p, " \t\r\n");
    if (*p++ != '"')
        return RD_CONTRACT_UNKNOWN;
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) {
        size_t n = strlen(schemas[i].schema);
        if (strncmp(p, schemas[i].schema, n) == 0 && p[n] == '"')
            return schemas[i].kind;
    }
    return RD_CONTRACT_UNKNOWN;
}

enum rd_contract rd_contract_sniff(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0)
        return RD_CONTRACT_UNKNOWN;
    if (S_ISDIR(st.st_mode))
        return RD_CONTRACT_FOLDER;
    if (!S_ISREG(st.st_mode))
        return RD_CONTRACT_UNKNOWN; /* a pipe or device: read once, by its reader */
    FILE *f = fopen(path, "rb");
    if (!f)
        return RD_CONTRACT_UNKNOWN;
    /* The caller's own buffer, not a static one: two threads may sniff
     * at once. Too little memory for it is not knowing. */
    char *buf = malloc(SNIFF_BYTES + 1);
    if (!buf) {
        fclose(f);
        return RD_CONTRACT_UNKNOWN;
    }
    size_t n = fread(buf, 1, SNIFF_BYTES, f);
    fclose(f);
    buf[n] = '\0';
    enum rd_contract kind = schema_in(buf);
    free(buf);
    return kind;
}

/* "is an analysis", "is a run store" ... */
static const char *what(enum rd_contract c)
{
    switch (c) {
    case RD_CONTRACT_FOLDER: return "a folder";
    case RD_CONTRACT_STORE: return "a run store (" RD_RUN_SCHEMA ")";
    case RD_CONTRACT_ENV: return "an environment (" RD_ENV_SCHEMA ")";
    case RD_CONTRACT_SUITE: return "a suite (" RD_SUITE_SCHEMA ")";
    case RD_CONTRACT_ANALYSIS: return "an analysis (" RD_ANALYSIS_SCHEMA ")";
    case RD_CONTRACT_PUBLISHED: return "published figures (" RD_PUBLISHED_SCHEMA ")";
    default: return "something else";
    }
}

/* What to do with a file of kind 'got'. */
static const char *advice(enum rd_contract got)
{
    switch (got) {
    case RD_CONTRACT_STORE: return "give it to rundown-analyze, and its analysis.json to rundown-render";
    case RD_CONTRACT_ANALYSIS: return "give it to rundown-render";
    case RD_CONTRACT_SUITE: return "run it with rundown-collect suite";
    case RD_CONTRACT_ENV:
        return "rundown-analyze reads it by itself from next to a store: name the store";
    case RD_CONTRACT_PUBLISHED: return "give its folder to rundown-analyze --published DIR";
    default: return "";
    }
}

rd_status rd_contract_expect(const char *path, enum rd_contract want, struct rd_diag *d)
{
    enum rd_contract got = rd_contract_sniff(path);
    if (got == RD_CONTRACT_UNKNOWN || got == want)
        return RD_OK;
    /* The path leads the message, as in "out/analysis.json is an analysis". */
    if (d)
        d->path = NULL;
    if (got == RD_CONTRACT_FOLDER) {
        size_t n = strlen(path);
        const char *sep = n && path[n - 1] == '/' ? "" : "/";
        if (want == RD_CONTRACT_STORE)
            return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0,
                               "%s is a folder: name the .jsonl stores in it, e.g. %s%s*.jsonl",
                               path, path, sep);
        if (want == RD_CONTRACT_ANALYSIS)
            return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0,
                               "%s is a folder: name the analysis in it, e.g. %s%sanalysis.json",
                               path, path, sep);
        return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0, "%s is a folder: name a file", path);
    }
    return rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0, "%s is %s: %s", path, what(got),
                       advice(got));
}
