/*
 * wrkdone - the numbers of a wrk Lua done() script that prints JSON
 * (data/samples/wrk-done-json.lua), read into the record of the report the
 * script ran after (see wrkfamily.h).
 *
 * They are exact where the text report rounds to two decimals, so they
 * replace the text values of the same quantity.
 */
#include "wrkdone.h"

#include <math.h>
#include <string.h>

#include "httpcommon.h"
#include "rundown/json.h"

/* A member that is a finite, non-negative number: wrk's %d of UINT64_MAX
 * prints a negative number when nothing was recorded, and that is no
 * measurement. */
static bool json_count(const cJSON *obj, const char *key, double *out)
{
    double v;
    if (!rd_json_num(obj, key, &v) || !isfinite(v) || v < 0)
        return false;
    *out = v;
    return true;
}

rd_status rd_wrk_apply_done_json(const cJSON *root, struct rd_record *r)
{
    if (!cJSON_IsObject(root))
        return RD_OK;
    double v, requests = NAN;
    rd_record_metric(r, "requests", &requests);
    bool used = false;

    if (json_count(root, "duration_us", &v)) {
        RD_TRY(rd_record_set_metric(r, "duration_s", rd_decimal_scale(v, -6)));
        used = true;
    }
    if (json_count(root, "bytes", &v)) {
        RD_TRY(rd_record_set_metric(r, "bytes_total", v));
        used = true;
    }
    const cJSON *errors = cJSON_GetObjectItemCaseSensitive(root, "errors");
    if (cJSON_IsObject(errors)) {
        static const char *const keys[][2] = {
            { "connect", "errors_connect" }, { "read", "errors_read" },
            { "write", "errors_write" },     { "timeout", "errors_timeout" },
            { "status", "non_2xx" },
        };
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (json_count(errors, keys[i][0], &v)) {
                RD_TRY(rd_record_set_metric(r, keys[i][1], v));
                used = true;
            }
    }
    /* With no completed request the latency object holds the histogram's
     * initial values (min = UINT64_MAX), not measurements. */
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(root, "latency_us");
    if (cJSON_IsObject(lat) && requests > 0) {
        static const char *const keys[][2] = {
            { "min", "latency_min_ms" },   { "max", "latency_max_ms" },
            { "mean", "latency_mean_ms" }, { "stdev", "latency_stdev_ms" },
        };
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (json_count(lat, keys[i][0], &v)) {
                RD_TRY(rd_record_set_metric(r, keys[i][1], rd_decimal_scale(v, -3)));
                used = true;
            }
        const cJSON *item;
        cJSON_ArrayForEach(item, lat) {
            const char *k = item->string;
            char name[96];
            if (k && k[0] == 'p' && cJSON_IsNumber(item) && isfinite(item->valuedouble) &&
                item->valuedouble >= 0 &&
                rd_percentile_metric_name("latency", k + 1, strlen(k + 1), "_ms", name,
                                          sizeof name)) {
                RD_TRY(rd_record_set_metric(r, name, rd_decimal_scale(item->valuedouble, -3)));
                used = true;
            }
        }
    }
    const cJSON *rps = cJSON_GetObjectItemCaseSensitive(root, "rps");
    if (cJSON_IsObject(rps)) {
        static const char *const keys[][2] = {
            { "mean", "req_per_thread_mean" },
            { "stdev", "req_per_thread_stdev" },
            { "max", "req_per_thread_max" },
        };
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (json_count(rps, keys[i][0], &v)) {
                RD_TRY(rd_record_set_metric(r, keys[i][1], v));
                used = true;
            }
    }
    if (used)
        RD_TRY(rd_record_set_info(r, "script_output", "done() json"));
    return RD_OK;
}
