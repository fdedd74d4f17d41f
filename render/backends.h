/*
 * backends.h - each back end's entry point, and the caps on what a report
 * shows that they share. The chart plan is chartplan.h, the gnuplot
 * process gnuplot.h. Not for use outside render/.
 */
#ifndef RD_RENDER_BACKENDS_H
#define RD_RENDER_BACKENDS_H

#include <stdbool.h>

#include "chartplan.h"
#include "model.h"
#include "render.h"
#include "rundown/buf.h"
#include "stage.h"
#include "tdata.h"

/** The most rows a table of report.md (and so report.html) lists per
 *  workload: the configs of rd_workload_select, the pairs between them,
 *  the warnings; a note says how many more the workbook holds. 10^5 rows
 *  make a Markdown file nobody reads and an HTML page browsers choke on. */
#define RD_TABLE_MAX_ROWS 200

/** The most workloads report.md, report.html, report.tex and the charts
 *  show, the first in the report's order; the report's opening sentence
 *  says so, and the CSVs, the workbook's Recommendations sheet and the
 *  analysis hold every one. 10^4 workloads of 10 configs made a 73 MB
 *  Markdown file, a 204 MB HTML page and 40,000 chart files: 105 s and
 *  8.7 GB. */
#define RD_REPORT_MAX_WORKLOADS 200

static inline size_t rd_report_shown_workloads(const struct rd_report *r)
{
    return r->nworkloads < RD_REPORT_MAX_WORKLOADS ? r->nworkloads : RD_REPORT_MAX_WORKLOADS;
}

/** The most workloads that get a sheet of their own in report.xlsx, in
 *  the report's order; the Recommendations sheet has a row for every
 *  workload and says which have no sheet. LibreOffice opens at most 10,000
 *  sheets, and a workbook of thousands of sheets is read by nobody. */
#define RD_XLSX_MAX_WORKLOAD_SHEETS 1000

/* Every workload report.md shows has its sheet, so "report.xlsx lists
 * every one" under a capped table holds. */
_Static_assert(RD_REPORT_MAX_WORKLOADS <= RD_XLSX_MAX_WORKLOAD_SHEETS,
               "a workload shown in report.md must have a sheet in report.xlsx");

/**
 * Writes charts/report.gp and the .dat files into the stage and, when
 * 'run' is set, runs one gnuplot over the script so that charts/<stem>.svg
 * (and charts/<stem>.pdf, charts/<stem>.png for the RD_FMT_PDF and
 * RD_FMT_PNG bits of 'extra') are staged too. o->gnuplot is the binary
 * (PATH lookup). A failing chart never costs the report: when gnuplot
 * fails on the script, each chart is drawn alone, and one gnuplot cannot
 * draw is left out (its images removed, its block dropped from
 * report.gp), its 'left_out' set and o->warn told why. Only a gnuplot
 * that cannot be started, or a file that cannot be written, fails.
 */
rd_status rd_render_charts(const struct rd_report *r, struct rd_chart_plan *p,
                           struct rd_stage *s, bool run, unsigned extra,
                           const struct rd_render_opts *o, struct rd_diag *d);

/**
 * Builds the view report.md.tmpl renders into *out (initialised here).
 * Release it with rd_tdata_release, also after a failure (RD_ERR_NOMEM).
 */
rd_status rd_md_view(const struct rd_report *r, const struct rd_chart_plan *p,
                     struct rd_tdata *out);

/** Renders report.md.tmpl from 'tdir' into out. */
rd_status rd_render_markdown(const struct rd_report *r, const struct rd_chart_plan *p,
                             const char *tdir, struct rd_buf *out, struct rd_diag *d);

/**
 * Turns the Markdown into the HTML report through report.html.tmpl:
 * cmark-gfm with tables, a table of contents, and each charts/<stem>.svg
 * (or .png) image replaced by the staged SVG inline (nothing is linked or
 * loaded).
 */
rd_status rd_render_html(const struct rd_report *r, const char *markdown, size_t len,
                         const char *tdir, const struct rd_stage *s,
                         struct rd_buf *out, struct rd_diag *d);

/** Writes runs.csv, summary.csv and comparisons.csv into the stage (csv.c). */
rd_status rd_render_csv(const struct rd_report *r, struct rd_stage *s, struct rd_diag *d);

/** Appends report.tex: booktabs tables with siunitx columns, ready to
 *  \input (tex.c). */
rd_status rd_render_tex(const struct rd_report *r, struct rd_buf *out);

/** Writes report.xlsx to 'tmp', the path the stage reserved for it
 *  (rd_stage_reserve): it touches no stage, so that tex and csv write
 *  into the stage on their thread meanwhile (render.c). */
rd_status rd_render_xlsx(const struct rd_report *r, const struct rd_render_opts *o,
                         const char *tmp, struct rd_diag *d);


#endif
