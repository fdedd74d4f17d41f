/*
 * autocannon_common - what the two readers of autocannon's output share
 * (autocannon.h): autocannon.c (JSON) and autocannon_text.c (the text
 * report) both call these, and neither calls the other's helpers.
 */
#include <math.h>

#include "autocannon.h"
#include "jsonimport.h"

rd_status rd_autocannon_per_second(double v, double interval_ms, double *out)
{
    static const double pow10[] = { 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1,
                                     1e1,  1e2,  1e3,  1e4,  1e5,  1e6 };
    for (int k = 0; k < 13; k++)
        if (interval_ms * pow10[k] == 1000)
            return rd_scale10_finite(v, k - 6, out);
    double x = v * (1000 / interval_ms);
    if (isfinite(v) && !isfinite(x))
        return RD_ERR_PARSE;
    *out = x;
    return RD_OK;
}

void rd_autocannon_socket_errors(struct rd_load_tally *t, double errors, double timeouts)
{
    t->errors_timeout = timeouts;
    t->errors_connect = errors > timeouts ? errors - timeouts : 0;
}
