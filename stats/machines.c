/*
 * machines - the between-machine interval of a ratio (DerSimonian-Laird,
 * Hartung-Knapp-Sidik-Jonkman) and Cochran's Q (machines.h). GSL gives
 * Student's t and the chi-square tail.
 */
#include "machines.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

static bool usable(const struct rd_machine_ratio *m)
{
    return isfinite(m->log_ratio) && m->se > 0 && isfinite(m->se);
}

rd_status rd_between_machines(const struct rd_machine_ratio *m, size_t n, double confidence,
                              double alpha, struct rd_between_machines *out)
{
    if (!(confidence > 0 && confidence < 1) || !(alpha > 0 && alpha < 1))
        return RD_ERR_USAGE;
    *out = (struct rd_between_machines){0, NAN, NAN, NAN, NAN, NAN, NAN, false};
    /* Fixed-effect weights: Cochran's Q and the DL moment estimate. */
    double sw = 0, sw2 = 0, swy = 0, last = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!usable(&m[i]))
            continue;
        double w = 1 / (m[i].se * m[i].se);
        out->k++;
        sw += w;
        sw2 += w * w;
        swy += w * m[i].log_ratio;
        last = m[i].log_ratio;
    }
    if (out->k == 0)
        return RD_OK;
    if (out->k < 2) {
        out->ratio = exp(last);
        return RD_OK;
    }
    double k = (double)out->k, yw = swy / sw, q = 0;
    for (size_t i = 0; i < n; i++)
        if (usable(&m[i])) {
            double e = m[i].log_ratio - yw;
            q += e * e / (m[i].se * m[i].se);
        }
    out->q = q;
    out->q_p = gsl_cdf_chisq_Q(q, k - 1);
    out->consistent = out->q_p >= alpha;
    out->tau2 = fmax(0, (q - (k - 1)) / (sw - sw2 / sw));
    /* Random-effects weights, the pooled log ratio, then HKSJ's spread
     * factor (floored at 1) over the weights' total. */
    double rw = 0, rwy = 0;
    for (size_t i = 0; i < n; i++)
        if (usable(&m[i])) {
            double w = 1 / (m[i].se * m[i].se + out->tau2);
            rw += w;
            rwy += w * m[i].log_ratio;
        }
    double mu = rwy / rw, spread = 0;
    for (size_t i = 0; i < n; i++)
        if (usable(&m[i])) {
            double e = m[i].log_ratio - mu;
            spread += e * e / (m[i].se * m[i].se + out->tau2);
        }
    spread /= k - 1;
    double t = gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, k - 1);
    if (!isfinite(t))
        return RD_ERR_STATS;
    double half = t * sqrt(fmax(1, spread) / rw);
    out->ratio = exp(mu);
    out->low = exp(mu - half);
    out->high = exp(mu + half);
    return RD_OK;
}
