/*
 * logratio - the delta method's log ratio of two means (logratio.h).
 */
#include "logratio.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

double rd_rel_var(double mean, double sd, double log_sd)
{
    double lin = sd / mean;
    lin *= lin;
    /* log_sd 0 (unknown, or constant logs) leaves the linear estimate */
    double on_logs = expm1(log_sd * log_sd);
    return isfinite(lin) && isfinite(on_logs) ? fmax(lin, on_logs) : NAN;
}

double rd_log_ratio_se(const struct rd_ratio_side *a, const struct rd_ratio_side *b, double *df)
{
    double v1 = rd_rel_var(a->mean, a->sd, a->log_sd) / a->n;
    double v2 = rd_rel_var(b->mean, b->sd, b->log_sd) / b->n;
    if (df) {
        double den = v1 * v1 / (a->n - 1) + v2 * v2 / (b->n - 1);
        *df = den > 0 && isfinite(den) ? (v1 + v2) * (v1 + v2) / den : NAN;
    }
    return sqrt(v1 + v2);
}

rd_status rd_log_ratio(const struct rd_ratio_side *a, const struct rd_ratio_side *b,
                       double confidence, struct rd_log_ratio *out)
{
    if (!(confidence > 0 && confidence < 1))
        return RD_ERR_USAGE;
    *out = (struct rd_log_ratio){NAN, NAN, NAN, NAN, NAN};
    if (!(a->mean > 0) || !(b->mean > 0) || !(a->n >= 2) || !(b->n >= 2) || !isfinite(a->sd) ||
        !isfinite(b->sd) || !isfinite(a->mean) || !isfinite(b->mean))
        return RD_OK;
    out->log_ratio = log(a->mean) - log(b->mean);
    out->se = rd_log_ratio_se(a, b, &out->df);
    if (out->se == 0) {
        out->df = a->n + b->n - 2;
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
