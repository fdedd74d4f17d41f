/*
 * render.h - rundown-render's library: analysis.json to report.md,
 * report.html, report.xlsx, report.tex, the CSV files and charts/.
 *
 * Back ends (one file each): markdown.c (templates, always the source of
 * the HTML too), html.c (cmark-gfm, the only user of it), charts.c
 * (gnuplot scripts and one gnuplot process), xlsx.c (libxlsxwriter, the
 * only user of it), tex.c and csv.c (the paper formats). All of them
 * write through a stage (stage.h), so the
 * files of one report are renamed into place together or not at all.
 * See model.h for how to add a back end.
 */
#ifndef RD_RENDER_H
#define RD_RENDER_H

#include <stdio.h>

#include "model.h"
#include "rundown/status.h"

enum rd_format {
    RD_FMT_MD = 1u << 0,
    RD_FMT_HTML = 1u << 1,
    RD_FMT_XLSX = 1u << 2,
    RD_FMT_CHARTS = 1u << 3,         /* .gp + .dat, then gnuplot makes the SVGs */
    RD_FMT_CHARTS_SCRIPT = 1u << 4,  /* .gp + .dat only (golden tests, no gnuplot) */
    RD_FMT_PNG = 1u << 5,            /* a 300 dpi PNG of every chart too (implies charts) */
    RD_FMT_PDF = 1u << 6,            /* a PDF of every chart too (implies charts) */
    RD_FMT_TEX = 1u << 7,            /* report.tex */
    RD_FMT_CSV = 1u << 8,            /* runs.csv, summary.csv, comparisons.csv */
    RD_FMT_ALL = RD_FMT_MD | RD_FMT_HTML | RD_FMT_XLSX | RD_FMT_TEX | RD_FMT_CSV | RD_FMT_CHARTS
};

struct rd_render_opts {
    const char *out_dir;        /* NULL: Markdown to md_stream, nothing else */
    const char *templates_dir;  /* NULL: rd_render_default_templates() */
    unsigned formats;           /* enum rd_format bits */
    const char *gnuplot;        /* NULL: "gnuplot" on PATH */
    FILE *md_stream;            /* used when out_dir is NULL */
    /* Told what a back end changed to fit its format (a cell cut to
     * Excel's limit); NULL: nobody is told. Only main() prints. */
    void (*warn)(void *ctx, const char *msg);
    void *warn_ctx;
    /* A chart left out (gnuplot failed on it) fails the render once
     * everything else is written: RD_ERR_IO, the diag naming the chart. */
    bool strict;
};

/**
 * Parses a comma-separated list "md,html,xlsx,tex,csv,charts,pdf,png,
 * charts-script" (or "all": md, html, xlsx, tex, csv, charts) into enum
 * rd_format bits; "pdf" and "png" add charts unless charts-script is asked
 * for. An unknown or empty name is RD_ERR_USAGE
 * with a message naming it.
 */
rd_status rd_render_parse_formats(const char *list, unsigned *out, struct rd_diag *d);

/**
 * Renders every requested format of r. With out_dir set, the folder (and
 * out_dir/charts when charts are asked for) is created, every file is
 * staged and all are renamed into place only when all succeeded. Errors:
 * RD_ERR_PARSE for a bad template (diag names it), RD_ERR_IO for files,
 * RD_ERR_USAGE for formats that need out_dir without one.
 */
rd_status rd_render(const struct rd_report *r, const struct rd_render_opts *o,
                    struct rd_diag *d);

/** The templates folder next to the executable: ../share/rundown/templates
 * from its folder (installed and in the build tree alike; templatedir.c). */
const char *rd_render_default_templates(void);

#endif
