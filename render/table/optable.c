/*
 * optable - the options of rundown-render, each written once (optable.h);
 * main.c parses them.
 */
#include "optable.h"

#include <stddef.h>

#include "render.h"
#include "rundown/analysis_keys.h"

static const struct rd_opt opts[] = {
    {'o', 'o', "output", "DIR", NULL,
     "write report.md, report.html, report.xlsx, report.tex,\n"
     "runs.csv, summary.csv, comparisons.csv and charts/ into\n"
     "DIR; without it report.md goes to standard output", NULL},
    {RO_TEMPLATES, 0, "templates", "DIR", "../share/rundown/templates next to the binary",
     "use report.md.tmpl and report.html.tmpl from DIR", NULL},
    {RO_FORMATS, 0, "formats", "LIST", "all with -o, else md",
     "comma-separated: md, html, xlsx, tex, csv, charts (all\n"
     "six: 'all'; charts are SVG), pdf and png (every chart\n"
     "also as PDF and as a 300 dpi PNG), charts-script (write\n"
     "the gnuplot script and data without running gnuplot)", NULL},
    {RO_GNUPLOT, 0, "gnuplot", "PATH", "gnuplot on PATH", "the gnuplot binary", NULL},
    {RO_STRICT, 0, "strict", NULL, NULL,
     "exit 3 when a chart had to be left out (gnuplot failed\n"
     "on it); the report is written either way", NULL},
    {RO_MAX_INPUT, 0, "max-input", "SIZE", "1GiB",
     "refuse an analysis larger than SIZE (bytes, or with a\nunit: 512MiB, 4GiB)", NULL},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

/* The templates' folder next to this very binary. */
static const char *default_now(int code)
{
    return code == RO_TEMPLATES ? rd_render_default_templates() : NULL;
}

const struct rd_cmd_spec rd_render_spec = {
    .tool = "rundown-render",
    .synopsis = "[-o DIR] [--templates DIR] [--formats LIST] [--gnuplot PATH]\n"
                " [--max-input SIZE] [--strict] ANALYSIS",
    .about = "Renders an analysis (" RD_ANALYSIS_SCHEMA ", '-' for standard input) into a report.",
    .epilog = "Files are written into a staging folder and moved into place when every\n"
              "format has succeeded, so a failed or interrupted render leaves the\n"
              "previous report intact.",
    .order = RD_OPTS_PERMUTE,
    .opts = opts,
    .default_now = default_now,
};
