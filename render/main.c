/*
 * rundown-render - turns an analysis.json into report.md, report.html,
 * report.xlsx, report.tex, CSV files and charts/ (DESIGN.md §5). Parses options, loads the
 * analysis, calls rd_render, prints what went wrong.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optable.h"
#include "render.h"
#include "rundown/analysis_keys.h"
#include "rundown/cli.h"
#include "rundown/contract.h"
#include "rundown/fsutil.h"
#include "rundown/hugepages.h"
#include "rundown/units.h"

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
    rd_cli_init("rundown-render");
    /* The workbook's millions of cells (hugepages.h). */
    rd_heap_in_huge_pages();
    /* SIGXFSZ is fatal here: libxlsxwriter and gnuplot do not check their
     * writes, so under a file-size limit they would stage a truncated
     * workbook or chart that looks whole. */
    rd_cleanup_on_signals(true, rd_cli_name());
    struct rd_render_opts o = { .md_stream = stdout };
    size_t max_input = RD_RENDER_MAX_INPUT;
    const char *formats = NULL;
    struct rd_opts p;
    rd_opts_begin(&p, &rd_render_spec, argc, argv);
    int c;
    while ((c = rd_opts_next(&p)) >= 0) {
        char *arg = rd_opts_arg(&p);
        switch (c) {
        case 'o': o.out_dir = arg; break;
        case RO_TEMPLATES: o.templates_dir = arg; break;
        case RO_FORMATS: formats = arg; break;
        case RO_GNUPLOT: o.gnuplot = arg; break;
        case RO_STRICT: o.strict = true; break;
        case RO_MAX_INPUT:
            if (parse_size(arg, &max_input) != 0)
                return rd_usage_error("--max-input: expected a size like 2GiB or 500000000, "
                                      "got '%s'", arg);
            break;
        }
    }
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p);
    int first = rd_opts_index(&p);
    if (first == argc)
        return rd_usage_error("expected an analysis file (analysis.json, or '-')");
    if (argc - first > 1)
        return rd_usage_error("expected one analysis file, got '%s' as well", argv[first + 1]);
    const char *input = argv[first];

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
