/*
 * moments - running moments of values and of their logs (moments.h).
 */
#include "moments.h"

#include <math.h>

void rd_moments_add(struct rd_moments *m, double x)
{
    m->n++;
    double d = x - m->mean;
    m->mean += d / m->n;
    m->m2 += d * (x - m->mean);
    if (!(x > 0))
        m->nonpositive = true;
    if (m->nonpositive)
        return;
    double lx = log(x), ld = lx - m->log_mean;
    m->log_mean += ld / m->n;
    m->log_m2 += ld * (lx - m->log_mean);
}

double rd_moments_sd(const struct rd_moments *m)
{
    return m->n > 1 ? sqrt(m->m2 / (m->n - 1)) : NAN;
}

double rd_moments_log_sd(const struct rd_moments *m)
{
    return m->n > 1 && !m->nonpositive ? sqrt(m->log_m2 / (m->n - 1)) : 0;
}

double rd_log_sd(const double *x, size_t n)
{
    struct rd_moments m = {0};
    for (size_t i = 0; i < n && !m.nonpositive; i++)
        rd_moments_add(&m, x[i]);
    return rd_moments_log_sd(&m);
}
