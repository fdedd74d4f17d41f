/*
 * rundown-render - turns an analysis.json into report.md, report.html,
 * report.xlsx, report.tex, CSV files and charts/ (DESIGN.md §5). Parses options, loads the
 * analysis, calls rd_render, prints what went wrong.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "rundown/analysis_keys.h"
#include "rundown/cli.h"
#include "rundown/contract.h"
#include "rundown/fsutil.h"
#include "rundown/units.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: rundown-render [-o DIR] [--templates DIR] [--formats LIST] [--gnuplot PATH]\n"
        "                      [--max-input SIZE] ANALYSIS\n"
        "\n"
        "Renders an analysis (" RD_ANALYSIS_SCHEMA ", '-' for standard input) into a report.\n"
        "\n"
        "  -o, --output DIR     write report.md, report.html, report.xlsx, report.tex,\n"
        "                       runs.csv, summary.csv, comparisons.csv and charts/ into\n"
        "                       DIR; without it report.md goes to standard output\n"
        "  --templates DIR      use report.md.tmpl and report.html.tmpl from DIR\n"
        "                       (default %s)\n"
        "  --formats LIST       comma-separated: md, html, xlsx, tex, csv, charts (the\n"
        "                       default, all six: 'all'; charts are SVG), pdf and png\n"
        "                       (every chart also as PDF and as a 300 dpi PNG),\n"
        "                       charts-script (write the gnuplot script and data\n"
        "                       without running gnuplot)\n"
        "  --gnuplot PATH       the gnuplot binary (default: gnuplot on PATH)\n"
        "  --max-input SIZE     refuse an analysis larger than SIZE (default 1GiB;\n"
        "                       bytes, or with a unit: 512MiB, 4GiB)\n"
        "  -h, --help           this help\n"
        "  --version            print the version\n"
        "\n"
        "Files are written into a staging folder and moved into place when every\n"
        "format has succeeded, so a failed or interrupted render leaves the\n"
        "previous report intact.\n",
        rd_render_default_templates());
}

/* A positive size: bytes, or a number with a unit (KiB, MiB, GiB, TiB;
 * KB, MB, GB count in 1024 too, as in core's sizes). */
static int parse_size(const char *s, size_t *out)
{
    unsigned long long n;
    double v;
    size_t len = strlen(s);
    if (rd_parse_uint(s, len, &n) == RD_OK)
        v = (double)n;
    else if (rd_parse_size_bytes(s, len, RD_SIZE_BINARY, &v) != RD_OK)
        return -1;
    if (!(v >= 1 && v <= (double)SIZE_MAX / 2))
        return -1;
    *out = (size_t)v;
    return 0;
}

/* What a back end changed to fit its format (rd_render_opts.warn). */
static void warn(void *ctx, const char *msg)
{
    (void)ctx;
    rd_warn("%s", msg);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"templates", required_argument, NULL, 'T'},
        {"formats", required_argument, NULL, 'F'},
        {"gnuplot", required_argument, NULL, 'G'},
        {"max-input", required_argument, NULL, 'M'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    rd_cli_init("rundown-render");
    /* SIGXFSZ is fatal here: libxlsxwriter and gnuplot do not check their
     * writes, so under a file-size limit they would stage a truncated
     * workbook or chart that looks whole. */
    rd_cleanup_on_signals(true, rd_cli_name());
    struct rd_render_opts o = { .md_stream = stdout };
    size_t max_input = RD_RENDER_MAX_INPUT;
    const char *formats = NULL;
    int c;
    /* ':' first and opterr off: the messages below, not getopt's. */
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o.out_dir = optarg; break;
        case 'T': o.templates_dir = optarg; break;
        case 'F': formats = optarg; break;
        case 'G': o.gnuplot = optarg; break;
        case 'M':
            if (parse_size(optarg, &max_input) != 0)
                return rd_usage_error("--max-input: expected a size like 2GiB or 500000000, "
                                      "got '%s'", optarg);
            break;
        case 'h': usage(stdout); return RD_EXIT_OK;
        case 'V': printf("rundown-render %s\n", RD_VERSION); return RD_EXIT_OK;
        case ':': return rd_usage_error("option '%s' needs a value", argv[optind - 1]);
        default: {
            /* An unknown long option, or one given a value it takes none
             * of ("--help=x"), is named as written; a short one by its letter. */
            const char *a = argv[optind - 1];
            if (!optopt || (strncmp(a, "--", 2) == 0 && strchr(a, '=')))
                return rd_usage_error("unknown option '%s'", a);
            return rd_usage_error("unknown option '-%c'", optopt);
        }
        }
    }
    if (optind == argc)
        return rd_usage_error("expected an analysis file (analysis.json, or '-')");
    if (argc - optind > 1)
        return rd_usage_error("expected one analysis file, got '%s' as well", argv[optind + 1]);
    const char *input = argv[optind];

    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (formats) {
        rd_status st = rd_render_parse_formats(formats, &o.formats, &d);
        if (st != RD_OK)
            return rd_usage_error("%s", d.msg);
    } else {
        o.formats = o.out_dir ? RD_FMT_ALL : RD_FMT_MD;
    }

    o.warn = warn;
    struct rd_report r = {0}; /* released even when never loaded */
    rd_status st = rd_contract_expect(input, RD_CONTRACT_ANALYSIS, &d);
    if (st == RD_OK)
        st = rd_report_load(&r, input, max_input, &d);
    if (st == RD_OK)
        st = rd_render(&r, &o, &d);
    int rc = st == RD_OK ? RD_EXIT_OK : st == RD_ERR_USAGE ? rd_usage_error("%s", d.msg)
                                                           : rd_fail(st, &d);
    rd_report_release(&r);
    return rc;
}
