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

rd_status rd_log_ratio(double mean1, double sd1, double n1, double mean2, double sd2, double n2,
                       double confidence, struct rd_log_ratio *out)
{
    if (!(confidence > 0 && confidence < 1))
        return RD_ERR_USAGE;
    *out = (struct rd_log_ratio){NAN, NAN, NAN, NAN, NAN};
    if (!(mean1 > 0) || !(mean2 > 0) || !(n1 >= 2) || !(n2 >= 2) || !isfinite(sd1) ||
        !isfinite(sd2) || !isfinite(mean1) || !isfinite(mean2))
        return RD_OK;
    double v1 = sd1 * sd1 / (n1 * mean1 * mean1), v2 = sd2 * sd2 / (n2 * mean2 * mean2);
    out->log_ratio = log(mean1) - log(mean2);
    out->se = sqrt(v1 + v2);
    if (out->se == 0) {
        out->df = n1 + n2 - 2;
        out->low = out->high = exp(out->log_ratio);
        return RD_OK;
    }
    out->df = (v1 + v2) * (v1 + v2) / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1));
    double t = gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, out->df);
    if (!isfinite(t))
        return RD_ERR_STATS;
    out->low = exp(out->log_ratio - t * out->se);
    out->high = exp(out->log_ratio + t * out->se);
    return RD_OK;
}
