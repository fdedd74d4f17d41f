/*
 * mangen - writes the man pages from man/<tool>.1.in and the tools' option
 * tables, so that a page lists exactly the options the tool parses:
 *
 *   rd-mangen TOOL IN OUT   IN with "@OPTIONS@" (or "@OPTIONS COMMAND@"
 *                           for a subcommand of rundown-collect) replaced
 *                           by the options, "@VERSION@" by the version
 *   rd-mangen --list TOOL   every option of TOOL, one "--long" or "-s" a
 *                           line, after "COMMAND " for a subcommand's (for
 *                           the test that checks the pages)
 *
 * A build tool, not installed: it prints and exits like a front end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/opts.h"

/* The tables (collect/, analyze/, render/ table/optable.h). */
extern const struct rd_cmd_spec rd_analyze_spec, rd_render_spec;
const struct rd_cmd_spec *const *rd_collect_specs(size_t *n);

/* TOOL's tables and their number. */
static const struct rd_cmd_spec *const *specs_of(const char *tool, size_t *n)
{
    static const struct rd_cmd_spec *const analyze[] = {&rd_analyze_spec};
    static const struct rd_cmd_spec *const render[] = {&rd_render_spec};
    *n = 1;
    if (strcmp(tool, "rundown-analyze") == 0)
        return analyze;
    if (strcmp(tool, "rundown-render") == 0)
        return render;
    if (strcmp(tool, "rundown-collect") == 0)
        return rd_collect_specs(n);
    return NULL;
}

static int list(const char *tool)
{
    size_t n;
    const struct rd_cmd_spec *const *specs = specs_of(tool, &n);
    if (!specs)
        return fprintf(stderr, "rd-mangen: unknown tool '%s'\n", tool), 2;
    for (size_t i = 0; i < n; i++)
        for (const struct rd_opt *o = specs[i]->opts; o->code; o++) {
            if (!o->help)
                continue;
            if (specs[i]->command)
                printf("%s ", specs[i]->command);
            if (o->long_name)
                printf("--%s\n", o->long_name);
            else
                printf("-%c\n", o->short_name);
        }
    return 0;
}

/* The options for the line "@OPTIONS[ COMMAND]@"; 0, or -1 when COMMAND
 * names no table of TOOL. */
static int options(const char *tool, const char *command, FILE *out)
{
    size_t n;
    const struct rd_cmd_spec *const *specs = specs_of(tool, &n);
    for (size_t i = 0; specs && i < n; i++) {
        const char *c = specs[i]->command;
        if ((!command && !c) || (command && c && strcmp(command, c) == 0))
            return rd_opts_man(specs[i], command, out);
    }
    return -1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--list") == 0)
        return list(argv[2]);
    if (argc != 4) {
        fprintf(stderr, "usage: rd-mangen TOOL IN OUT | rd-mangen --list TOOL\n");
        return 2;
    }
    size_t n;
    if (!specs_of(argv[1], &n))
        return fprintf(stderr, "rd-mangen: unknown tool '%s'\n", argv[1]), 2;
    FILE *in = fopen(argv[2], "r"), *out = in ? fopen(argv[3], "w") : NULL;
    if (!in || !out) {
        perror(in ? argv[3] : argv[2]);
        return 3;
    }
    char line[4096];
    int lineno = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, in)) {
        lineno++;
        if (strncmp(line, "@OPTIONS", 8) == 0) {
            char *end = strchr(line + 8, '@');
            if (end)
                *end = '\0';
            const char *command = line[8] == ' ' ? line + 9 : NULL;
            if (!end || options(argv[1], command, out) != 0) {
                fprintf(stderr, "rd-mangen: %s:%d: no option table for '%s'\n", argv[2],
                        lineno, command ? command : argv[1]);
                rc = 1;
            }
            continue;
        }
        char *v = strstr(line, "@VERSION@");
        if (v) {
            *v = '\0';
            fprintf(out, "%s%s%s", line, RD_VERSION, v + 9);
        } else {
            fputs(line, out);
        }
    }
    if (ferror(in) || fclose(out) != 0)
        rc = 3;
    fclose(in);
    if (rc)
        remove(argv[3]);
    return rc;
}
