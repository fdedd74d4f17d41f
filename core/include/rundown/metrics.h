/*
 * metrics.h - the metric registry: unit, direction and display name of each
 * metric name in the run record.
 *
 * Metric names carry their unit as a suffix (_ms, _s, _kib, _bytes, _pct,
 * _per_s). Names that are not in the registry (a workload's own
 * "heavycalc_ms") are described from that suffix: a time or a memory figure is
 * lower-is-better, a rate is higher-is-better, anything else has no direction.
 */
#ifndef RUNDOWN_METRICS_H
#define RUNDOWN_METRICS_H

#include <stddef.h>

#include "rundown/status.h"

enum rd_better {
    RD_BETTER_NONE = 0,  /* no direction: counts, settings, sizes of a request */
    RD_BETTER_LOWER,
    RD_BETTER_HIGHER
};

struct rd_metric_def {
    const char *name;     /* "latency_p99_ms" */
    const char *unit;     /* "ms", "kib", "req/s", "count", ... */
    enum rd_better better;
    const char *display;  /* "Latency p99" */
};

/** The registry entry for 'name', or NULL when it is not registered. */
const struct rd_metric_def *rd_metric_find(const char *name);

/**
 * Fills 'out' for any name: the registry entry, or a description inferred
 * from the suffix (display is then the name itself). 'out' points into
 * static storage or into 'name'; it lives as long as 'name'.
 */
void rd_metric_describe(const char *name, struct rd_metric_def *out);

/** How a value printed with a unit becomes a metric of the record. */
struct rd_metric_conversion {
    int shift;           /* value x 10^shift x mult is in the metric's unit */
    double mult;
    char name[72];       /* the name stored: the given one, or it plus the
                            unit's suffix when the name carries no unit */
};

/**
 * The conversion of a value given in 'unit' (ulen bytes; one of ns us ms s
 * B KiB MiB GiB req/s count %) to metric 'name', whose unit is its
 * registry entry's or its suffix's (rd_metric_describe): "4.2 s" of
 * heavycalc_ms is 4200. A name that carries no unit of its own is stored
 * with the unit's suffix: lat with "4.2 ms" becomes lat_ms, with "3 MiB"
 * lat_kib = 3072. RD_ERR_PARSE for a unit not in the list, one of another
 * kind than the metric's (a size for a time), a unit for a metric that
 * takes none (bool, code), or a stored name longer than max_name bytes;
 * 'why' (at least 128 bytes) then says which.
 */
rd_status rd_metric_unit_conversion(const char *name, const char *unit, size_t ulen,
                                    size_t max_name, struct rd_metric_conversion *c, char *why,
                                    size_t whysize);

/** "lower", "higher" or "none". */
const char *rd_better_name(enum rd_better b);
/** Parses "lower"/"higher"/"none"; returns -1 for anything else. */
int rd_better_parse(const char *s);

/** The registry itself, for docs and tests; *count receives its length. */
const struct rd_metric_def *rd_metric_registry(size_t *count);

#endif
