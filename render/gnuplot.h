/*
 * gnuplot.h - the one gnuplot process of a render, and the PDF dates it
 * leaves (gnuplot.c). Not for use outside render/.
 */
#ifndef RD_RENDER_GNUPLOT_H
#define RD_RENDER_GNUPLOT_H

#include <stdbool.h>

#include "rundown/status.h"

/**
 * Runs gnuplot in 'dir' over 'script' (gnuplot.c); its stderr goes into the
 * diag, and it is killed after two minutes or by the signal cleanup.
 * *started (may be NULL) tells whether gnuplot ran at all: a failure with
 * it set is the script's (a chart gnuplot could not draw), without it the
 * system's (no gnuplot, no pipe).
 */
rd_status rd_gnuplot_run(const char *gnuplot, const char *dir, const char *script,
                         bool *started, struct rd_diag *d);

/** Sets the CreationDate of the PDF at 'path' (written by cairo, which puts
 *  the clock there) to 'date' ("YYYYMMDDhhmmss"), in place. */
rd_status rd_gnuplot_fix_pdf_date(const char *path, const char *date, struct rd_diag *d);

#endif
