/*
 * timeline.c - a run record's start, wait and whether it is set aside
 * (see timeline.h). Depends on record.h only.
 */
#include "rundown/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static long days_from_civil(long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long)doe - 719468;
}

/* Reads n digits at s into *v; false unless they are all digits. */
static bool digits(const char *s, int n, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        *v = *v * 10 + (unsigned)(s[i] - '0');
    }
    return true;
}

double rd_timeline_seconds(const char *s)
{
    unsigned y, mo, d, h, mi, se, oh = 0, om = 0;
    if (!s || strlen(s) < 19 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) ||
        s[7] != '-' || !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != ' ') ||
        !digits(s + 11, 2, &h) || s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' ||
        !digits(s + 17, 2, &se) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
        mi > 59 || se > 60)
        return NAN;
    const char *p = s + 19;
    double frac = 0, scale = 0.1;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
            frac += (*p - '0') * scale;
    int sign = 0;
    if (*p == '+' || *p == '-') {
        sign = *p == '+' ? 1 : -1;
        if (!digits(p + 1, 2, &oh) || p[3] != ':' || !digits(p + 4, 2, &om))
            return NAN;
        p += 6;
    } else if (*p == 'Z') {
        p++;
    }
    if (*p)
        return NAN;
    double days = (double)days_from_civil((long)y, mo, d);
    return days * 86400 + h * 3600.0 + mi * 60.0 + se + frac - sign * (oh * 3600.0 + om * 60.0);
}

double rd_timeline_wait_s(const struct rd_record *r)
{
    const char *waited = rd_record_info(r, "contention_wait_s");
    double ws = waited ? strtod(waited, NULL) : 0;
    return isfinite(ws) && ws > 0 && ws < 1e9 ? ws : 0;
}

bool rd_timeline_left_out(const struct rd_record *r, bool include_contended)
{
    return r->contended && !include_contended && (!r->status || strcmp(r->status, "ok") == 0);
}
