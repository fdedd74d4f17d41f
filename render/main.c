/*
 * rundown-render - turns an analysis.json into report.md, report.html,
 * report.xlsx and charts/ (DESIGN.md §5). Parses options, loads the
 * analysis, calls rd_render, prints what went wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "rundown/cli.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: rundown-render [-o DIR] [--templates DIR] [--formats LIST] [--gnuplot PATH] ANALYSIS\n"
        "\n"
        "Renders an analysis (rundown.analysis/1, '-' for standard input) into a report.\n"
        "\n"
        "  -o, --output DIR     write report.md, report.html, report.xlsx and charts/\n"
        "                       into DIR; without it report.md goes to standard output\n"
        "  --templates DIR      use report.md.tmpl and report.html.tmpl from DIR\n"
        "                       (default %s)\n"
        "  --formats LIST       comma-separated: md, html, xlsx, charts (the default,\n"
        "                       all four; charts are SVG), png (a PNG of every chart\n"
        "                       too), charts-script (write the gnuplot script and\n"
        "                       data without running gnuplot)\n"
        "  --gnuplot PATH       the gnuplot binary (default: gnuplot on PATH)\n"
        "  -h, --help           this help\n"
        "  --version            print the version\n"
        "\n"
        "Files are written under temporary names and renamed when every format\n"
        "has succeeded, so a failed render leaves the previous report intact.\n",
        rd_render_default_templates());
}

int main(int argc, char **argv)
{
    rd_cli_init("rundown-render");
    struct rd_render_opts o = { .md_stream = stdout };
    const char *formats = NULL, *input = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        #define TAKE(opt) \
            ((strcmp(a, opt) == 0 && i + 1 < argc && (val = argv[++i])) || \
             (strncmp(a, opt "=", strlen(opt) + 1) == 0 && (val = a + strlen(opt) + 1)))
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return RD_EXIT_OK;
        } else if (strcmp(a, "--version") == 0) {
            printf("rundown-render %s\n", RD_VERSION);
            return RD_EXIT_OK;
        } else if (TAKE("-o") || TAKE("--output")) {
            o.out_dir = val;
        } else if (TAKE("--templates")) {
            o.templates_dir = val;
        } else if (TAKE("--formats")) {
            formats = val;
        } else if (TAKE("--gnuplot")) {
            o.gnuplot = val;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
                   strcmp(a, "--templates") == 0 || strcmp(a, "--formats") == 0 ||
                   strcmp(a, "--gnuplot") == 0) {
            return rd_usage_error("option '%s' needs a value", a);
        } else if (a[0] == '-' && a[1] != '\0') {
            return rd_usage_error("unknown option '%s'", a);
        } else if (input) {
            return rd_usage_error("expected one analysis file, got '%s' as well", a);
        } else {
            input = a;
        }
        #undef TAKE
    }
    if (!input)
        return rd_usage_error("expected an analysis file (analysis.json, or '-')");

    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (formats) {
        rd_status st = rd_render_parse_formats(formats, &o.formats, &d);
        if (st != RD_OK)
            return rd_usage_error("%s", d.msg);
    } else {
        o.formats = o.out_dir ? RD_FMT_ALL : RD_FMT_MD;
    }

    struct rd_report r;
    rd_status st = rd_report_load(&r, input, &d);
    if (st == RD_OK)
        st = rd_render(&r, &o, &d);
    int rc = st == RD_OK ? RD_EXIT_OK : st == RD_ERR_USAGE ? rd_usage_error("%s", d.msg)
                                                           : rd_fail(st, &d);
    rd_report_release(&r);
    return rc;
}
