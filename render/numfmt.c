/*
 * numfmt - formatting of numbers for the Markdown and HTML report.
 *
 * The xlsx back end writes numbers as numbers and leaves display to Excel's
 * number formats; these functions are for text only. NaN is undefined and
 * prints as an em dash, never as "nan".
 */
#include "numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int rd_fmt_decimals(double v, int sig)
{
    if (!isfinite(v) || v == 0)
        return sig > 1 ? sig - 1 : 0;
    int mag = (int)floor(log10(fabs(v)));
    int d = sig - 1 - mag;
    if (d < 0)
        d = 0;
    if (d > 12)
        d = 12;
    return d;
}

rd_status rd_fmt_fixed(struct rd_buf *out, double v, int decimals)
{
    if (!isfinite(v))
        return rd_buf_addstr(out, RD_UNDEF);
    char tmp[512];
    int n = snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
    if (n < 0 || (size_t)n >= sizeof tmp)
        return rd_buf_addf(out, "%g", v);
    /* "-0.0" after rounding reads as a sign that is not there. */
    const char *digits = tmp;
    bool neg = tmp[0] == '-';
    if (neg) {
        digits++;
        bool allzero = true;
        for (const char *p = digits; *p; p++)
            if (*p != '0' && *p != '.')
                allzero = false;
        if (allzero)
            neg = false;
    }
    const char *dot = strchr(digits, '.');
    size_t intlen = dot ? (size_t)(dot - digits) : strlen(digits);
    rd_status st = neg ? rd_buf_addch(out, '-') : RD_OK;
    for (size_t i = 0; i < intlen && st == RD_OK; i++) {
        if (i > 0 && (intlen - i) % 3 == 0)
            st = rd_buf_addch(out, ',');
        if (st == RD_OK)
            st = rd_buf_addch(out, digits[i]);
    }
    if (st == RD_OK && dot)
        st = rd_buf_addstr(out, dot);
    return st;
}

rd_status rd_fmt_num(struct rd_buf *out, double v, int sig)
{
    if (!isfinite(v))
        return rd_buf_addstr(out, RD_UNDEF);
    if (v != 0 && fabs(v) < 1e-4)
        return rd_buf_addf(out, "%.*e", sig > 1 ? sig - 2 : 0, v);
    return rd_fmt_fixed(out, v, rd_fmt_decimals(v, sig));
}

rd_status rd_fmt_p(struct rd_buf *out, double p)
{
    if (!isfinite(p))
        return rd_buf_addstr(out, RD_UNDEF);
    if (p < 0.001)
        return rd_buf_addstr(out, "< 0.001");
    if (p < 0.01)
        return rd_buf_addf(out, "%.3f", p);
    return rd_buf_addf(out, "%.2f", p);
}

rd_status rd_fmt_ratio(struct rd_buf *out, double r)
{
    if (!isfinite(r))
        return rd_buf_addstr(out, RD_UNDEF);
    rd_status st = rd_fmt_num(out, r, 3);
    return st == RD_OK ? rd_buf_addstr(out, "\xc3\x97") : st;
}

rd_status rd_fmt_pct(struct rd_buf *out, double frac)
{
    if (!isfinite(frac))
        return rd_buf_addstr(out, RD_UNDEF);
    double pct = frac * 100;
    int dec = fabs(pct) >= 10 ? 0 : 1;
    /* Rounding must not print "+-0.0" or "-0.0". */
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*f", dec, pct);
    if (strcmp(tmp, "-0.0") == 0 || strcmp(tmp, "-0") == 0)
        memmove(tmp, tmp + 1, strlen(tmp));
    rd_status st = rd_buf_addstr(out, tmp[0] == '-' ? "" : "+");
    if (st == RD_OK)
        st = rd_fmt_fixed(out, pct, dec);
    return st == RD_OK ? rd_buf_addstr(out, " %") : st;
}

rd_status rd_fmt_mean_ci(struct rd_buf *out, double mean, double lo, double hi)
{
    if (!isfinite(mean))
        return rd_buf_addstr(out, RD_UNDEF);
    int dec = rd_fmt_decimals(mean, 4);
    rd_status st = rd_fmt_fixed(out, mean, dec);
    if (st == RD_OK && isfinite(lo) && isfinite(hi)) {
        st = rd_buf_addstr(out, " \xc2\xb1 ");
        if (st == RD_OK)
            st = rd_fmt_fixed(out, (hi - lo) / 2, dec);
    }
    return st;
}

rd_status rd_fmt_range(struct rd_buf *out, double lo, double hi, double ref)
{
    if (!isfinite(lo) || !isfinite(hi))
        return rd_buf_addstr(out, RD_UNDEF);
    int dec = rd_fmt_decimals(isfinite(ref) ? ref : hi, 4);
    rd_status st = rd_fmt_fixed(out, lo, dec);
    if (st == RD_OK)
        st = rd_buf_addstr(out, " to ");
    if (st == RD_OK)
        st = rd_fmt_fixed(out, hi, dec);
    return st;
}
