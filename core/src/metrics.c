/*
 * metrics - the metric registry: unit, direction and display name of each
 * metric name that the run record defines (DESIGN.md §3).
 *
 * Names outside the registry are described from their unit suffix, so a
 * workload can print its own "heavycalc_ms" and still be compared the right
 * way round.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rundown/metrics.h"

#define L RD_BETTER_LOWER
#define H RD_BETTER_HIGHER
#define N RD_BETTER_NONE

/* Sorted by name, so lookups can bisect. */
static const struct rd_metric_def registry[] = {
    {"background_wall_ms", "ms", L, "Background task wall time"},
    {"bytes_total", "bytes", N, "Bytes transferred"},
    {"connections", "count", N, "Connections"},
    {"duration_s", "s", N, "Load duration"},
    {"error_rate", "ratio", L, "Error rate"},
    {"errors_connect", "count", L, "Connect errors"},
    {"errors_read", "count", L, "Read errors"},
    {"errors_status", "count", L, "Status errors"},
    {"errors_timeout", "count", L, "Timeouts"},
    {"errors_total", "count", L, "Errors"},
    {"errors_write", "count", L, "Write errors"},
    {"exit_code", "code", N, "Exit code"},
    {"latency_max_ms", "ms", L, "Latency max"},
    {"latency_mean_ms", "ms", L, "Latency mean"},
    {"latency_min_ms", "ms", L, "Latency min"},
    {"latency_p50_ms", "ms", L, "Latency p50"},
    {"latency_p75_ms", "ms", L, "Latency p75"},
    {"latency_p90_ms", "ms", L, "Latency p90"},
    {"latency_p95_ms", "ms", L, "Latency p95"},
    {"latency_p99_9_ms", "ms", L, "Latency p99.9"},
    {"latency_p99_ms", "ms", L, "Latency p99"},
    {"latency_stdev_ms", "ms", L, "Latency sd"},
    {"machine_cpu_pressure_pct", "%", N, "CPU pressure (machine)"},
    {"machine_others_cpu_pct", "%", N, "Other processes' CPU"},
    {"machine_speed_pct", "%", N, "CPU speed (machine, % of best)"},
    {"machine_speed_store_pct", "%", N, "CPU store-reload speed (machine, % of best)"},
    {"machine_steal_pct", "%", N, "CPU steal (machine)"},
    {"machine_wakeup_pct", "%", N, "Cross-CPU wake-up (machine, % of best)"},
    {"machine_wakeup_us", "us", N, "Cross-CPU wake-up round trip (machine)"},
    {"max_rss_kib", "KiB", L, "Max RSS"},
    {"non_2xx", "count", L, "Non-2xx responses"},
    {"ok", "bool", H, "Works"},
    {"requests", "count", N, "Requests"},
    {"rps", "req/s", H, "Requests per second"},
    {"server_cpu_pct", "%", L, "Server CPU"},
    {"server_rss_mean_kib", "KiB", L, "Server RSS mean"},
    {"server_rss_peak_kib", "KiB", L, "Server RSS peak"},
    {"sys_ms", "ms", L, "System CPU time"},
    {"threads", "count", N, "Threads"},
    {"transfer_bytes_per_s", "B/s", H, "Transfer rate"},
    {"tree_rss_peak_kib", "KiB", L, "Process tree peak RSS"},
    {"user_ms", "ms", L, "User CPU time"},
    {"wall_ms", "ms", L, "Wall time"},
};

#undef L
#undef H
#undef N

const struct rd_metric_def *rd_metric_registry(size_t *count)
{
    *count = sizeof registry / sizeof registry[0];
    return registry;
}

const struct rd_metric_def *rd_metric_find(const char *name)
{
    size_t lo = 0, hi = sizeof registry / sizeof registry[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, registry[mid].name);
        if (c == 0)
            return &registry[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

void rd_metric_describe(const char *name, struct rd_metric_def *out)
{
    const struct rd_metric_def *def = rd_metric_find(name);
    if (def) {
        *out = *def;
        return;
    }
    /* Inferred from the unit suffix: times and memory are costs, rates are
     * gains, counts and anything else carry no direction of their own. */
    static const struct {
        const char *suffix, *unit;
        enum rd_better better;
    } suffixes[] = {
        {"_per_s", "1/s", RD_BETTER_HIGHER}, {"_rps", "req/s", RD_BETTER_HIGHER},
        {"_ops", "ops/s", RD_BETTER_HIGHER}, {"_ns", "ns", RD_BETTER_LOWER},
        {"_us", "us", RD_BETTER_LOWER},      {"_ms", "ms", RD_BETTER_LOWER},
        {"_s", "s", RD_BETTER_LOWER},        {"_kib", "KiB", RD_BETTER_LOWER},
        {"_bytes", "bytes", RD_BETTER_LOWER}, {"_pct", "%", RD_BETTER_NONE},
        {"_ok", "bool", RD_BETTER_HIGHER},   {"_count", "count", RD_BETTER_NONE},
    };
    out->name = name;
    out->display = name;
    out->unit = "";
    out->better = RD_BETTER_NONE;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        if (ends_with(name, suffixes[i].suffix)) {
            out->unit = suffixes[i].unit;
            out->better = suffixes[i].better;
            return;
        }
    }
}

/* What a unit measures; a value converts only within one kind. */
enum unit_kind { KIND_NONE, KIND_TIME, KIND_SIZE, KIND_RATE, KIND_COUNT, KIND_SHARE };

/* A unit: its kind, its size as 10^shift x mult of the kind's base (s, B,
 * 1/s, 1, 1), and the suffix a name without a unit gets for it. */
struct unit {
    const char *name;
    enum unit_kind kind;
    int shift;
    double mult;
    const char *suffix;
};

/* The units a rundown:metric line may give. MiB and GiB become KiB in a
 * name of their own, as no metric name spells them. */
static const struct unit given_units[] = {
    {"ns", KIND_TIME, -9, 1, "_ns"},       {"us", KIND_TIME, -6, 1, "_us"},
    {"ms", KIND_TIME, -3, 1, "_ms"},       {"s", KIND_TIME, 0, 1, "_s"},
    {"B", KIND_SIZE, 0, 1, "_bytes"},      {"KiB", KIND_SIZE, 0, 1024, "_kib"},
    {"MiB", KIND_SIZE, 0, 1048576, "_kib"}, {"GiB", KIND_SIZE, 0, 1073741824, "_kib"},
    {"req/s", KIND_RATE, 0, 1, "_rps"},    {"count", KIND_COUNT, 0, 1, "_count"},
    {"%", KIND_SHARE, -2, 1, "_pct"},
};

/* The units metrics are stored in (registry units and suffix units). */
static const struct unit stored_units[] = {
    {"ns", KIND_TIME, -9, 1, NULL},    {"us", KIND_TIME, -6, 1, NULL},
    {"ms", KIND_TIME, -3, 1, NULL},    {"s", KIND_TIME, 0, 1, NULL},
    {"bytes", KIND_SIZE, 0, 1, NULL},  {"KiB", KIND_SIZE, 0, 1024, NULL},
    {"req/s", KIND_RATE, 0, 1, NULL},  {"1/s", KIND_RATE, 0, 1, NULL},
    {"ops/s", KIND_RATE, 0, 1, NULL},  {"count", KIND_COUNT, 0, 1, NULL},
    {"%", KIND_SHARE, -2, 1, NULL},    {"ratio", KIND_SHARE, 0, 1, NULL},
};

static const struct unit *find_unit(const struct unit *table, size_t n, const char *u,
                                    size_t ulen)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(table[i].name) == ulen && memcmp(table[i].name, u, ulen) == 0)
            return &table[i];
    return NULL;
}

rd_status rd_metric_unit_conversion(const char *name, const char *unit, size_t ulen,
                                    size_t max_name, struct rd_metric_conversion *c, char *why,
                                    size_t whysize)
{
    const struct unit *g = find_unit(given_units, sizeof given_units / sizeof given_units[0],
                                     unit, ulen);
    if (!g) {
        char ex[40];
        rd_excerpt(unit, ulen, 16, ex, sizeof ex);
        snprintf(why, whysize, "unknown unit '%s' (expected ns, us, ms, s, B, KiB, MiB, GiB, "
                 "req/s, count or %%)", ex);
        return RD_ERR_PARSE;
    }
    struct rd_metric_def def;
    rd_metric_describe(name, &def);
    const char *suffix = "";
    const struct unit *to;
    if (!def.unit[0]) {
        /* No unit of its own: the name takes the given unit's. */
        suffix = g->suffix;
        to = strcmp(g->suffix, "_kib") == 0 ? &stored_units[5] : g;
    } else {
        to = find_unit(stored_units, sizeof stored_units / sizeof stored_units[0], def.unit,
                       strlen(def.unit));
        if (!to || to->kind != g->kind) {
            snprintf(why, whysize, "unit '%s' does not fit metric '%s', which is in %s",
                     g->name, name, def.unit);
            return RD_ERR_PARSE;
        }
    }
    if (strlen(name) + strlen(suffix) > max_name ||
        strlen(name) + strlen(suffix) >= sizeof c->name) {
        snprintf(why, whysize, "metric name '%s%s' is longer than %zu bytes", name, suffix,
                 max_name);
        return RD_ERR_PARSE;
    }
    snprintf(c->name, sizeof c->name, "%s%s", name, suffix);
    c->shift = g->shift - to->shift;
    c->mult = g->mult / to->mult;
    return RD_OK;
}

const char *rd_better_name(enum rd_better b)
{
    switch (b) {
    case RD_BETTER_LOWER: return "lower";
    case RD_BETTER_HIGHER: return "higher";
    default: return "none";
    }
}

int rd_better_parse(const char *s)
{
    if (strcmp(s, "lower") == 0)
        return RD_BETTER_LOWER;
    if (strcmp(s, "higher") == 0)
        return RD_BETTER_HIGHER;
    if (strcmp(s, "none") == 0)
        return RD_BETTER_NONE;
    return -1;
}
