/*
 * metricscan.h - the scanner of "rundown:metric NAME=VALUE" lines, the way
 * a benchmarked command reports metrics of its own (docs/run-record.md).
 *
 * The scanner is fed a command's stdout in whatever pieces the pipe hands
 * over and finds whole lines itself, so a line split across reads counts
 * once. NAME is a lower-case letter then lower-case letters, digits or
 * '_', at most RD_METRIC_NAME_MAX bytes; VALUE is a number as the run
 * record takes it, optionally followed by a unit (glued or after blanks:
 * "4.2ms", "4.2 s", "3 MiB"), which converts the value to the metric's
 * own unit (rd_metric_unit_conversion: "heavycalc_ms=4.2 s" is 4200, and
 * "lat=4.2ms" is stored as lat_ms). Anything else after the prefix is a
 * bad metric line: counted, the first kept as an excerpt with the reason.
 * The output of a benchmarked command is data, so every bound here is
 * checked (fuzz_metrics).
 */
#ifndef RUNDOWN_METRICSCAN_H
#define RUNDOWN_METRICSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/buf.h"

/**
 * Distinct metric names kept per stream and run. Each name is looked up on
 * every metric line and becomes a field of the record, so a command printing
 * names without end would cost quadratic time and unbounded memory. Lines
 * naming a further name are counted (dropped_lines), not stored; new values
 * of names already kept still count.
 */
#define RD_METRIC_NAMES_MAX 256
/** The longest metric name in bytes; a longer one makes a bad metric line. */
#define RD_METRIC_NAME_MAX 64

/** One metric read from the stream: the last value printed for the name. */
struct rd_scanned_metric {
    char *name;
    size_t len;
    double value;
};

struct rd_metric_scan {
    struct rd_buf line;         /* the partial line being scanned */
    bool line_overflow;         /* the current line is too long to be a metric */
    struct rd_scanned_metric *mv;  /* in order of first appearance */
    size_t mn, mcap;
    unsigned bad_lines;         /* lines with the prefix that are not metrics */
    char bad_first[128];        /* an excerpt of the first of them */
    char bad_why[160];          /* what is wrong with it */
    unsigned dropped_lines;     /* lines naming a name past RD_METRIC_NAMES_MAX */
    char dropped_first[RD_METRIC_NAME_MAX + 1];
};

/** True when name[0..len) is a metric name as a rundown:metric line may
 *  spell it (see above). */
bool rd_metric_name_valid(const char *name, size_t len);

/** An empty scanner. */
void rd_metric_scan_init(struct rd_metric_scan *m);

/** Scans the next n bytes of the stream (a piece of any size). */
void rd_metric_scan_feed(struct rd_metric_scan *m, const char *data, size_t n);

/** The end of the stream: a last line without '\n' is scanned too. */
void rd_metric_scan_end(struct rd_metric_scan *m);

/** Frees the names and buffers; the scanner is left empty and usable. */
void rd_metric_scan_release(struct rd_metric_scan *m);

#endif
