/*
 * autocannon.h - what the two readers of autocannon's output share
 * (autocannon_common.c): autocannon.c (the --json lines, detection and
 * the table entry) and autocannon_text.c (the text report,
 * autocannon_text.h). The shared helpers live apart from both, so neither
 * reader calls back into the other (autocannon.c calls
 * rd_autocannon_parse_text, never the reverse).
 */
#ifndef RUNDOWN_AUTOCANNON_H
#define RUNDOWN_AUTOCANNON_H

#include "importer.h"
#include "loadjudge.h"

#define RD_AUTOCANNON_TOOL "autocannon"
#define RD_AUTOCANNON_BAR "\xe2\x94\x82" /* │, the text tables' column separator */

/**
 * A per-sample-interval value (requests or bytes per sampleInt ms) as per
 * second. Intervals that are powers of ten of a second (0.001 s in v7.10)
 * scale by shifting the decimal point. RD_ERR_PARSE when a finite value
 * overflows (1e308 per millisecond).
 */
rd_status rd_autocannon_per_second(double v, double interval_ms, double *out);

/**
 * autocannon's errors are connection errors plus timeouts (its footer: "12
 * errors (10 timeouts)"), so the rest of the errors are connect errors:
 * sets t's errors_timeout and errors_connect from the two counts.
 */
void rd_autocannon_socket_errors(struct rd_load_tally *t, double errors, double timeouts);

#endif
