/*
 * scale.c - powers of two that keep squares in range (see scale.h).
 */
#include <math.h>

#include "scale.h"

int rd_scale_exp(double m)
{
    int e = 0;
    m = fabs(m);
    if (isfinite(m) && m != 0 && (m < RD_SCALE_SAFE_LOW || m > RD_SCALE_SAFE_HIGH))
        frexp(m, &e);
    return e;
}
