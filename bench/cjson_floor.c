/*
 * cjson_floor - the floor for rundown-analyze: read a JSONL file line by line
 * and parse each line with cJSON, doing nothing else. Any analysis of the
 * same file has to pay at least this, so the benchmark reports
 * rundown-analyze's time as a multiple of it.
 *
 * Usage: cjson_floor FILE    prints "<lines> <parse errors>" on stdout.
 *
 * Built by bench/analyze.sh: cc -O2 cjson_floor.c $(pkg-config --cflags --libs libcjson)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cjson_floor FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 3;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned long lines = 0, bad = 0;
    /* Touch one member so the parse cannot be judged dead code. */
    unsigned long sink = 0;
    while ((len = getline(&line, &cap, f)) != -1) {
        lines++;
        cJSON *j = cJSON_ParseWithLength(line, (size_t)len);
        if (!j) {
            bad++;
            continue;
        }
        const cJSON *run = cJSON_GetObjectItemCaseSensitive(j, "run");
        if (cJSON_IsNumber(run))
            sink += (unsigned long)run->valuedouble;
        cJSON_Delete(j);
    }
    free(line);
    fclose(f);
    printf("%lu %lu\n", lines, bad);
    fprintf(stderr, "checksum %lu\n", sink);
    return bad ? 1 : 0;
}
