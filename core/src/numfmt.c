/*
 * numfmt - numbers, ratios, units, metric and config names as every text
 * of rundown says them (rundown/numfmt.h has the rules).
 *
 * The workbook writes numbers as numbers and leaves display to Excel's
 * number formats; these functions are for text only. NaN is undefined and
 * prints as an em dash, never as "nan".
 */
#include "rundown/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundown/metrics.h"

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

rd_status rd_fmt_ratio_ci(struct rd_buf *out, double r, double lo, double hi)
{
    RD_TRY(rd_fmt_ratio(out, r));
    if (!isfinite(r) || !isfinite(lo) || !isfinite(hi))
        return RD_OK;
    RD_TRY(rd_buf_addstr(out, " ("));
    RD_TRY(rd_fmt_num(out, lo, 3));
    RD_TRY(rd_buf_addstr(out, "\xe2\x80\x93"));
    RD_TRY(rd_fmt_num(out, hi, 3));
    return rd_buf_addstr(out, "\xc3\x97)");
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

/* ---- ratios in words ---- */

#define TIMES "\xc3\x97"
#define EN_DASH "\xe2\x80\x93"

bool rd_rel_is_factor(double ratio)
{
    return isfinite(ratio) && (ratio >= RD_FACTOR_FROM || ratio <= 1 / RD_FACTOR_FROM);
}

/* The words for "X is the larger" and "X is the smaller" in a unit. */
static void rel_words(const char *unit, const char **more, const char **less)
{
    static const char *times[] = { "ns", "us", "\xc2\xb5s", "ms", "s", "min", "h" };
    static const char *sizes[] = { "B", "bytes", "KiB", "MiB", "GiB", "kB", "MB", "GB" };
    *more = "higher";
    *less = "lower";
    if (!unit || !*unit)
        return;
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (strcmp(unit, times[i]) == 0) {
            *more = "slower";
            *less = "faster";
            return;
        }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(unit, sizes[i]) == 0) {
            *more = "larger";
            *less = "smaller";
            return;
        }
    /* req/s, ops/s, B/s, 1/s: more per second is faster. */
    size_t n = strlen(unit);
    if (n > 2 && strcmp(unit + n - 2, "/s") == 0) {
        *more = "faster";
        *less = "slower";
    }
}

rd_status rd_fmt_rel(struct rd_buf *out, double ratio, const char *unit)
{
    if (!isfinite(ratio))
        return rd_buf_addstr(out, RD_UNDEF);
    if (!rd_rel_is_factor(ratio) || ratio <= 0)
        return rd_fmt_pct(out, ratio - 1);
    const char *more, *less;
    rel_words(unit, &more, &less);
    RD_TRY(rd_fmt_num(out, ratio >= 1 ? ratio : 1 / ratio, 3));
    return rd_buf_addf(out, TIMES " %s", ratio >= 1 ? more : less);
}

rd_status rd_fmt_rel_interval(struct rd_buf *out, double ratio, double lo, double hi)
{
    if (!isfinite(ratio) || !isfinite(lo) || !isfinite(hi))
        return RD_OK;
    if (!rd_rel_is_factor(ratio) || ratio <= 0) {
        RD_TRY(rd_fmt_pct(out, lo - 1));
        RD_TRY(rd_buf_addstr(out, " to "));
        return rd_fmt_pct(out, hi - 1);
    }
    /* The factor of a smaller X is ref / X: its interval turns round. */
    if (ratio < 1) {
        if (!(lo > 0) || !(hi > 0))
            return RD_OK;
        double l = 1 / hi, h = 1 / lo;
        lo = l;
        hi = h;
    }
    RD_TRY(rd_fmt_num(out, lo, 3));
    RD_TRY(rd_buf_addstr(out, EN_DASH));
    RD_TRY(rd_fmt_num(out, hi, 3));
    return rd_buf_addstr(out, TIMES);
}

rd_status rd_fmt_relative(struct rd_buf *out, double ratio, double lo, double hi,
                          const char *unit)
{
    RD_TRY(rd_fmt_rel(out, ratio, unit));
    size_t at = out->len;
    RD_TRY(rd_buf_addstr(out, " ("));
    size_t body = out->len;
    RD_TRY(rd_fmt_rel_interval(out, ratio, lo, hi));
    if (out->len == body) {
        rd_buf_truncate(out, at);
        return RD_OK;
    }
    return rd_buf_addch(out, ')');
}

/* ---- units ---- */

const char *rd_unit_shown(const char *unit, double *scale)
{
    *scale = 1;
    if (!unit)
        return "";
    if (strcmp(unit, "KiB") == 0 || strcmp(unit, "kib") == 0) {
        *scale = 1.0 / 1024;
        return "MiB";
    }
    return unit;
}

rd_status rd_fmt_amount(struct rd_buf *out, double v, const char *unit)
{
    double scale;
    const char *shown = rd_unit_shown(unit, &scale);
    RD_TRY(rd_fmt_num(out, v * scale, 4));
    return isfinite(v) && *shown ? rd_buf_addf(out, " %s", shown) : RD_OK;
}

rd_status rd_fmt_amount_ci(struct rd_buf *out, double mean, double lo, double hi,
                           const char *unit)
{
    double scale;
    const char *shown = rd_unit_shown(unit, &scale);
    RD_TRY(rd_fmt_mean_ci(out, mean * scale, lo * scale, hi * scale));
    return isfinite(mean) && *shown ? rd_buf_addf(out, " %s", shown) : RD_OK;
}

/* ---- names ---- */

rd_status rd_fmt_metric(struct rd_buf *out, const char *metric, bool inline_text)
{
    if (!metric)
        return rd_buf_addstr(out, RD_UNDEF);
    struct rd_metric_def def;
    rd_metric_describe(metric, &def);
    const char *s = def.display ? def.display : metric;
    /* "Wall time" inside a sentence is "wall time"; "RSS" stays "RSS". */
    if (inline_text && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z') {
        RD_TRY(rd_buf_addch(out, (char)(s[0] - 'A' + 'a')));
        s++;
    }
    return rd_buf_addstr(out, s);
}

int rd_label_key_cmp(const char *a, const char *b)
{
    static const char *front[] = { "runtime", "mechanism" };
    for (size_t i = 0; i < sizeof front / sizeof front[0]; i++) {
        bool fa = strcmp(a, front[i]) == 0, fb = strcmp(b, front[i]) == 0;
        if (fa || fb)
            return fa && fb ? 0 : fa ? -1 : 1;
    }
    return strcmp(a, b);
}

bool rd_label_is_number(const char *value)
{
    if (!value || !*value)
        return false;
    char *end;
    double v = strtod(value, &end);
    return *end == '\0' && isfinite(v);
}

rd_status rd_fmt_config_name(struct rd_buf *out, const struct rd_kv *labels, size_t n)
{
    size_t start = out->len;
    /* A selection of the next key each time: configs have a handful of
     * labels, and the order must not depend on how they were stored. */
    const char *last = NULL;
    for (size_t done = 0; done < n; done++) {
        const struct rd_kv *next = NULL;
        for (size_t i = 0; i < n; i++) {
            if (!labels[i].key || (last && rd_label_key_cmp(labels[i].key, last) <= 0))
                continue;
            if (!next || rd_label_key_cmp(labels[i].key, next->key) < 0)
                next = &labels[i];
        }
        if (!next)
            break;
        last = next->key;
        if (!next->value)
            continue;
        if (out->len > start)
            RD_TRY(rd_buf_addstr(out, " / "));
        /* A bare "4" says nothing; "workers=4" does. */
        if (rd_label_is_number(next->value))
            RD_TRY(rd_buf_addf(out, "%s=%s", next->key, next->value));
        else
            RD_TRY(rd_buf_addstr(out, next->value));
    }
    return RD_OK;
}
