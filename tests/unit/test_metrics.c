// links: rd_core
/*
 * The metric registry: sorted (lookups bisect), the DESIGN.md core names
 * present, and directions inferred from unit suffixes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "rundown/metrics.h"

static void registry_is_sorted_and_complete(void **state)
{
    size_t n;
    const struct rd_metric_def *reg = rd_metric_registry(&n);
    for (size_t i = 1; i < n; i++)
        assert_true(strcmp(reg[i - 1].name, reg[i].name) < 0);
    /* The core names of DESIGN.md §3. */
    static const char *const core[] = {
        "wall_ms", "user_ms", "sys_ms", "max_rss_kib", "rps", "latency_mean_ms",
        "latency_stdev_ms", "latency_max_ms", "latency_p50_ms", "latency_p75_ms",
        "latency_p90_ms", "latency_p99_ms", "transfer_bytes_per_s", "requests",
        "errors_connect", "errors_read", "errors_write", "errors_timeout", "non_2xx",
        "duration_s", "connections", "server_rss_peak_kib", "server_rss_mean_kib",
        "server_cpu_pct",
    };
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++) {
        const struct rd_metric_def *def = rd_metric_find(core[i]);
        assert_non_null(def);
        assert_string_equal(def->name, core[i]);
    }
    assert_null(rd_metric_find("heavycalc_ms"));
}

static void directions(void **state)
{
    struct rd_metric_def def;
    rd_metric_describe("rps", &def);
    assert_int_equal(def.better, RD_BETTER_HIGHER);
    rd_metric_describe("latency_p99_ms", &def);
    assert_int_equal(def.better, RD_BETTER_LOWER);
    rd_metric_describe("heavycalc_per_call_ms", &def);
    assert_int_equal(def.better, RD_BETTER_LOWER);
    assert_string_equal(def.unit, "ms");
    rd_metric_describe("latency_p97_5_ms", &def);
    assert_int_equal(def.better, RD_BETTER_LOWER);
    rd_metric_describe("ops_per_s", &def);
    assert_int_equal(def.better, RD_BETTER_HIGHER);
    rd_metric_describe("compat_express_ok", &def);
    assert_int_equal(def.better, RD_BETTER_HIGHER);
    rd_metric_describe("status_2xx", &def);
    assert_int_equal(def.better, RD_BETTER_NONE);
    assert_string_equal(rd_better_name(RD_BETTER_LOWER), "lower");
    assert_int_equal(rd_better_parse("higher"), RD_BETTER_HIGHER);
    assert_int_equal(rd_better_parse("up"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_is_sorted_and_complete),
        cmocka_unit_test(directions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
