/*
 * httpcommon - token readers and record rules shared by the HTTP load-tool
 * importers.
 *
 * The token readers exist so that every importer words its messages the
 * same way ("expected a duration like '4.2ms', got 'abc'") and points at the
 * token, while the number syntax itself stays in core's units module. The
 * percentile names live here so that a p99.9 from wrk2 and one from oha land
 * in the same metric.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "httpcommon.h"

static rd_status check(rd_status s, const struct rd_line *l, const struct rd_token *t,
                       struct rd_diag *d, const char *what)
{
    if (s == RD_OK)
        return RD_OK;
    return rd_expect_fail(d, l, t, what);
}

static bool is_nan_token(const struct rd_token *t)
{
    return rd_is_nan_spelling(t->ptr, t->len);
}

/*
 * Re-reads a token core has already validated, applying a power-of-ten unit
 * in decimal: strtod("8.05e3") is the double nearest 8050, where 8.05 * 1e3
 * is 8050.000000000001 and 635.91 * 1e-3 can miss 0.63591 by one ulp. The
 * golden files compare printed values, and a reader would take such a tail
 * for a measurement. 'num_len' is the length of the numeric part.
 */
static bool decimal_rescale(const struct rd_token *t, size_t num_len, int exp10, double *out)
{
    char buf[96];
    if (num_len == 0 || num_len > 64 || !isfinite(*out))
        return false;
    for (size_t i = 0; i < num_len; i++) {
        char c = t->ptr[i];
        /* A number with its own exponent is left as core read it. */
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+'))
            return false;
    }
    snprintf(buf, sizeof buf, "%.*se%d", (int)num_len, t->ptr, exp10);
    char *end;
    double v = strtod(buf, &end);
    if (*end != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}

double rd_decimal_scale(double v, int exp10)
{
    if (!isfinite(v))
        return v;
    char num[32], buf[48];
    rd_fmt_double(v, num);
    snprintf(buf, sizeof buf, "%se%d", num, exp10);
    char *end;
    double r = strtod(buf, &end);
    return *end == '\0' ? r : v * pow(10.0, exp10);
}

/* Length of the numeric part of a token (before its unit letters). */
static size_t numeric_len(const struct rd_token *t)
{
    size_t n = 0;
    while (n < t->len && ((t->ptr[n] >= '0' && t->ptr[n] <= '9') || t->ptr[n] == '.' ||
                          ((t->ptr[n] == '-' || t->ptr[n] == '+') && n == 0)))
        n++;
    return n;
}

static bool unit_eq(const struct rd_token *t, size_t num_len, const char *unit)
{
    size_t n = strlen(unit);
    return t->len - num_len == n && memcmp(t->ptr + num_len, unit, n) == 0;
}

rd_status rd_tok_duration_ms(const struct rd_line *l, const struct rd_token *t,
                             double *out, struct rd_diag *d)
{
    static const char what[] = "a duration like '4.2ms'";
    if (!t)
        return rd_expect_fail(d, l, NULL, what);
    if (is_nan_token(t)) {
        *out = NAN;
        return RD_OK;
    }
    RD_TRY(check(rd_parse_duration_ms(t->ptr, t->len, out, 0), l, t, d, what));
    /* No load tool measures a negative time: such a token is corruption,
     * refused as ab's, hey's and the JSON importers' times are. */
    if (*out < 0)
        return rd_expect_fail(d, l, t, what);
    size_t n = numeric_len(t);
    if (unit_eq(t, n, "us") || unit_eq(t, n, "\xc2\xb5s") || unit_eq(t, n, "\xce\xbcs"))
        decimal_rescale(t, n, -3, out);
    else if (unit_eq(t, n, "ms"))
        decimal_rescale(t, n, 0, out);
    else if (unit_eq(t, n, "s"))
        decimal_rescale(t, n, 3, out);
    else if (unit_eq(t, n, "ns"))
        decimal_rescale(t, n, -6, out);
    else if (unit_eq(t, n, "m") || unit_eq(t, n, "h")) {
        /* x * 6e4 as (x * 1e4 in decimal) * 6, so "1.67m" is 100200 */
        bool minutes = unit_eq(t, n, "m");
        double v = *out;
        if (decimal_rescale(t, n, minutes ? 4 : 5, &v) && isfinite(v * (minutes ? 6 : 36)))
            *out = v * (minutes ? 6 : 36);
    }
    return RD_OK;
}

rd_status rd_tok_seconds_as_ms(const struct rd_line *l, const struct rd_token *t,
                               double *out, struct rd_diag *d)
{
    static const char what[] = "a time in seconds like '0.0123'";
    if (!t)
        return rd_expect_fail(d, l, NULL, what);
    double s;
    if (rd_parse_double(t->ptr, t->len, &s) != RD_OK || isinf(s))
        return rd_expect_fail(d, l, t, what);
    if (s < 0)
        return rd_expect_fail(d, l, t, "a time that is not negative");
    *out = s * 1000.0;
    /* 1e308 s is finite, its milliseconds are not. */
    if (isinf(*out))
        return rd_expect_fail(d, l, t, what);
    decimal_rescale(t, t->len, 3, out);
    return RD_OK;
}

rd_status rd_tok_double(const struct rd_line *l, const struct rd_token *t,
                        double *out, struct rd_diag *d)
{
    static const char what[] = "a number like '12.5'";
    if (!t)
        return rd_expect_fail(d, l, NULL, what);
    if (rd_parse_double(t->ptr, t->len, out) != RD_OK || isinf(*out))
        return rd_expect_fail(d, l, t, what);
    return RD_OK;
}

rd_status rd_tok_uint(const struct rd_line *l, const struct rd_token *t,
                      double *out, struct rd_diag *d)
{
    static const char what[] = "a count like '42'";
    if (!t)
        return rd_expect_fail(d, l, NULL, what);
    unsigned long long v;
    if (rd_parse_uint(t->ptr, t->len, &v) != RD_OK)
        return rd_expect_fail(d, l, t, what);
    *out = (double)v;
    return RD_OK;
}

rd_status rd_tok_count(const struct rd_line *l, const struct rd_token *t,
                       double *out, struct rd_diag *d)
{
    static const char what[] = "a count like '1.23k'";
    if (!t)
        return rd_expect_fail(d, l, NULL, what);
    if (is_nan_token(t)) {
        *out = NAN;
        return RD_OK;
    }
    if (rd_parse_count(t->ptr, t->len, out) != RD_OK || *out < 0)
        return rd_expect_fail(d, l, t, what);
    size_t n = numeric_len(t);
    static const char suffixes[] = "kMGT";
    if (n == t->len)
        return RD_OK;
    const char *where = strchr(suffixes, t->ptr[n] == 'K' ? 'k' : t->ptr[n]);
    if (where && *where && t->len == n + 1)
        decimal_rescale(t, n, 3 * (int)(where - suffixes + 1), out);
    return RD_OK;
}

rd_status rd_tok_size_bytes(const struct rd_line *l, const struct rd_token *t,
                            enum rd_size_base base, double *out, struct rd_diag *d)
{
    static const char what[] = "a size like '1.52MB'";
    if (!t)
        return rd_expect_fail(d, l, NULL, what);
    if (rd_parse_size_bytes(t->ptr, t->len, base, out) != RD_OK || *out < 0)
        return rd_expect_fail(d, l, t, what);
    return RD_OK;
}

rd_status rd_tok_percent(const struct rd_line *l, const struct rd_token *t,
                         double *out, struct rd_diag *d)
{
    static const char what[] = "a percentage like '75.00%'";
    if (!t)
        return rd_expect_fail(d, l, NULL, what);
    /* wrk prints 0/0 as "-nan%": the NaN takes the number's place. */
    if (t->len > 1 && t->ptr[t->len - 1] == '%' && rd_is_nan_spelling(t->ptr, t->len - 1)) {
        *out = NAN;
        return RD_OK;
    }
    return check(rd_parse_percent(t->ptr, t->len, out), l, t, d, what);
}

bool rd_percentile_metric_name(const char *prefix, const char *label, size_t len,
                               const char *suffix, char *out, size_t size)
{
    if (len && label[len - 1] == '%')
        len--;
    size_t int_len = 0;
    while (int_len < len && label[int_len] >= '0' && label[int_len] <= '9')
        int_len++;
    if (int_len == 0 || int_len > 3)
        return false;
    size_t frac_start = int_len, frac_len = 0;
    if (int_len < len) {
        if (label[int_len] != '.')
            return false;
        frac_start = int_len + 1;
        for (size_t i = frac_start; i < len; i++)
            if (label[i] < '0' || label[i] > '9')
                return false;
        frac_len = len - frac_start;
        /* "99.900" and "99.9" are the same percentile and get one name. */
        while (frac_len && label[frac_start + frac_len - 1] == '0')
            frac_len--;
    }
    /* Leading zeros ("050") would give a second name for p50. */
    while (int_len > 1 && label[0] == '0') {
        label++;
        int_len--;
        frac_start--;
    }
    unsigned whole = 0;
    for (size_t i = 0; i < int_len; i++)
        whole = whole * 10 + (unsigned)(label[i] - '0');
    if (whole > 100 || (whole == 100 && frac_len))
        return false;
    int n;
    if (frac_len)
        n = snprintf(out, size, "%s_p%.*s_%.*s%s", prefix, (int)int_len, label,
                     (int)frac_len, label + frac_start, suffix);
    else
        n = snprintf(out, size, "%s_p%.*s%s", prefix, (int)int_len, label, suffix);
    return n > 0 && (size_t)n < size;
}

rd_status rd_line_fail(struct rd_diag *d, const char *path, const struct rd_line *l,
                       const char *what)
{
    struct rd_line t = rd_line_trim(*l);
    if (t.len == 0)
        return rd_diag_set(d, RD_ERR_PARSE, path, l->no, 1,
                           "expected %s, got an empty line", what);
    char excerpt[96];
    rd_excerpt(t.ptr, t.len, 50, excerpt, sizeof excerpt);
    return rd_diag_set(d, RD_ERR_PARSE, path, l->no, rd_line_col(l, t.ptr),
                       "expected %s, got '%s'", what, excerpt);
}

rd_status rd_no_run_fail(struct rd_diag *d, const char *path, const char *data, size_t len,
                         const char *what)
{
    struct rd_lines it;
    struct rd_line l;
    rd_lines_init(&it, data, len);
    while (rd_lines_next(&it, &l))
        if (rd_line_trim(l).len)
            return rd_line_fail(d, path, &l, what);
    return rd_diag_set(d, RD_ERR_PARSE, path, 1, 1, "expected %s, got empty input", what);
}

bool rd_line_is_blank(const struct rd_line *l)
{
    return rd_line_trim(*l).len == 0;
}

rd_status rd_text_runs(const struct rd_import_input *in, bool (*starts_run)(const struct rd_line *),
                       rd_text_run_fn read_run, const char *what, struct rd_recordset *out,
                       struct rd_diag *d)
{
    struct rd_lines it;
    struct rd_line l;
    size_t found = 0;
    if (d && !d->path)
        d->path = in->path;
    rd_lines_init(&it, in->data, in->len);
    while (rd_lines_next(&it, &l)) {
        if (!starts_run(&l))
            continue;
        struct rd_record *r = rd_recordset_add(out);
        if (!r)
            return RD_ERR_NOMEM;
        RD_TRY(read_run(in, &it, &l, r, d));
        found++;
    }
    if (found)
        return RD_OK;
    return rd_no_run_fail(d, in->path, in->data, in->len, what);
}
