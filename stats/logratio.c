/*
 * logratio - the delta method's log ratio of two means (logratio.h).
 */
#include "logratio.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

double rd_log_ratio_se(double mean1, double sd1, double n1, double mean2, double sd2, double n2,
                       double *df)
{
    double v1 = sd1 * sd1 / (n1 * mean1 * mean1), v2 = sd2 * sd2 / (n2 * mean2 * mean2);
    if (df) {
        double den = v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1);
        *df = den > 0 && isfinite(den) ? (v1 + v2) * (v1 + v2) / den : NAN;
    }
    return sqrt(v1 + v2);
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
    out->log_ratio = log(mean1) - log(mean2);
    out->se = rd_log_ratio_se(mean1, sd1, n1, mean2, sd2, n2, &out->df);
    if (out->se == 0) {
        out->df = n1 + n2 - 2;
        out->low = out->high = exp(out->log_ratio);
        return RD_OK;
    }
    double t = gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, out->df);
    if (!isfinite(t))
        return RD_ERR_STATS;
    out->low = exp(out->log_ratio - t * out->se);
    out->high = exp(out->log_ratio + t * out->se);
    return RD_OK;
}
