/*
 * machines - the between-machine interval of a ratio and Cochran's Q
 * (machines.h). GSL gives Student's t and the chi-square tail.
 */
#include "machines.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

rd_status rd_between_machines(const struct rd_machine_ratio *m, size_t n, double confidence,
                              double alpha, struct rd_between_machines *out)
{
    if (!(confidence > 0 && confidence < 1) || !(alpha > 0 && alpha < 1))
        return RD_ERR_USAGE;
    *out = (struct rd_between_machines){0, NAN, NAN, NAN, NAN, NAN, false};
    double sum = 0, wsum = 0, wysum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(m[i].log_ratio) || !(m[i].se > 0) || !isfinite(m[i].se))
            continue;
        out->k++;
        sum += m[i].log_ratio;
        double w = 1 / (m[i].se * m[i].se);
        wsum += w;
        wysum += w * m[i].log_ratio;
    }
    if (out->k == 0)
        return RD_OK;
    double k = (double)out->k, mean = sum / k, wmean = wysum / wsum;
    out->ratio = exp(mean);
    if (out->k < 2)
        return RD_OK;
    double ss = 0, q = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(m[i].log_ratio) || !(m[i].se > 0) || !isfinite(m[i].se))
            continue;
        double d = m[i].log_ratio - mean, e = m[i].log_ratio - wmean;
        ss += d * d;
        q += e * e / (m[i].se * m[i].se);
    }
    double t = gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, k - 1);
    if (!isfinite(t))
        return RD_ERR_STATS;
    double half = t * sqrt(ss / (k - 1)) / sqrt(k);
    out->low = exp(mean - half);
    out->high = exp(mean + half);
    out->q = q;
    out->q_p = gsl_cdf_chisq_Q(q, k - 1);
    out->consistent = out->q_p >= alpha;
    return RD_OK;
}
