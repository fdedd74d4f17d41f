/*
 * runsummary - the end of `rundown-collect run` (runsummary.h).
 */
#include "runsummary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logratio.h"
#include "median.h"
#include "moments.h"
#include "srange.h"
#include "rundown/array.h"
#include "rundown/buf.h"
#include "rundown/fsutil.h"

void rd_run_tally_init(struct rd_run_tally *t, const char *name)
{
    memset(t, 0, sizeof *t);
    t->name = name;
}

rd_status rd_run_tally_add(struct rd_run_tally *t, const struct rd_record *r)
{
    double wall, v;
    /* A contended run is left out, as the report leaves it out. */
    if (strcmp(r->phase, "measure") != 0 || strcmp(r->status, "ok") != 0 || r->contended ||
        !rd_record_metric(r, "wall_ms", &wall))
        return RD_OK;
    rd_status st = RD_OK;
    size_t cap = t->times_cap;
    if (!t->times_lost && !(st = RD_ARRAY_GROW(t->times, cap, (size_t)t->n + 1)))
        st = RD_ARRAY_GROW(t->exit_codes, t->times_cap, (size_t)t->n + 1);
    if (!st && !t->times_lost) {
        t->times[t->n] = wall;
        /* -i stores a non-zero exit with status ok: hyperfine lists it */
        t->exit_codes[t->n] = r->has_exit_code ? r->exit_code : 0;
    }
    t->times_lost |= st != RD_OK;
    t->n++;
    double delta = wall - t->mean;
    t->mean += delta / (double)t->n;
    t->m2 += delta * (wall - t->mean);
    t->min = t->n == 1 || wall < t->min ? wall : t->min;
    t->max = t->n == 1 || wall > t->max ? wall : t->max;
    if (rd_record_metric(r, "user_ms", &v))
        t->user_sum += v, t->user_n++;
    if (rd_record_metric(r, "sys_ms", &v))
        t->sys_sum += v, t->sys_n++;
    /* The whole tree's peak when the sampler saw it: a command that forks
     * its work off has a tiny max_rss_kib of its own. */
    if (rd_record_metric(r, "tree_rss_peak_kib", &v)) {
        if (!t->mem_tree || v > t->mem_kib)
            t->mem_kib = v;
        t->mem_tree = true;
    } else if (!t->mem_tree && rd_record_metric(r, "max_rss_kib", &v) && v > t->mem_kib) {
        t->mem_kib = v;
    }
    return st;
}

void rd_run_tally_release(struct rd_run_tally *t)
{
    free(t->times);
    free(t->exit_codes);
    rd_run_tally_init(t, t->name);
}

double rd_run_tally_median(const struct rd_run_tally *t)
{
    size_t n = (size_t)t->n;
    double *v = n && !t->times_lost ? malloc(n * sizeof *v) : NULL;
    if (!v)
        return NAN;
    /* a copy: the times stay in run order for the JSON export */
    memcpy(v, t->times, n * sizeof *v);
    double m = rd_median_sort(v, n);
    free(v);
    return m;
}

double rd_run_tally_sd(const struct rd_run_tally *t)
{
    return t->n < 2 ? NAN : sqrt(t->m2 / (double)(t->n - 1));
}

/* The sd of the logs of t's times for the verdicts' relative variance
 * (stats/logratio.h); 0, the linear estimate alone, when times were lost. */
static double tally_log_sd(const struct rd_run_tally *t)
{
    return t->times_lost ? 0 : rd_log_sd(t->times, (size_t)t->n);
}

rd_status rd_run_summary_compute(struct rd_run_summary *s, const struct rd_run_tally *t,
                                 size_t k)
{
    memset(s, 0, sizeof *s);
    s->tallies = t;
    s->k = k < 64 ? k : 64;
    s->reference = s->k;
    rd_verdict_settings_init(&s->settings);
    struct rd_verdict_sample samples[64];
    size_t eligible = 0;
    for (size_t i = 0; i < s->k; i++) {
        samples[i] = (struct rd_verdict_sample){(double)t[i].n, t[i].mean,
                                                rd_run_tally_sd(&t[i]), t[i].n >= 2, 0,
                                                tally_log_sd(&t[i])};
        eligible += samples[i].eligible;
        s->p[i] = NAN;
    }
    if (eligible < 2)
        return RD_OK;
    RD_TRY(rd_verdict_decide(samples, s->k, &s->settings, s->rows, &s->res));
    for (size_t i = 0; i < s->k; i++)
        s->p[i] = rd_verdict_p_adjusted(&s->rows[i], &s->res);
    s->compared = true;
    return RD_OK;
}

rd_status rd_run_summary_reference(struct rd_run_summary *s, size_t ref)
{
    const struct rd_run_tally *t = s->tallies, *r = &s->tallies[ref];
    double family = 0, df = INFINITY, se[64], dfs[64];
    for (size_t i = 0; i < s->k; i++)
        family += t[i].n >= 2;
    for (size_t i = 0; i < s->k; i++) {
        s->ref[i] = (struct rd_run_refrow){NAN, NAN, NAN, NAN, false};
        if (i == ref || t[i].n < 2 || r->n < 2 || !(t[i].mean > 0) || !(r->mean > 0))
            continue;
        struct rd_ratio_side a = {(double)t[i].n, t[i].mean, rd_run_tally_sd(&t[i]),
                                  tally_log_sd(&t[i])},
                             b = {(double)r->n, r->mean, rd_run_tally_sd(r), tally_log_sd(r)};
        se[i] = rd_log_ratio_se(&a, &b, &dfs[i]);
        if (isfinite(dfs[i]) && floor(dfs[i]) < df)
            df = floor(dfs[i]);
        s->ref[i].compared = true;
    }
    s->reference = ref;
    double crit = family >= 2 ? rd_verdict_critical_value(s->settings.alpha, family, df) : NAN;
    for (size_t i = 0; i < s->k; i++) {
        struct rd_run_refrow *row = &s->ref[i];
        if (!row->compared)
            continue;
        row->ratio = t[i].mean / r->mean;
        if (se[i] == 0) {  /* both constant: the ratio is exact, no test */
            row->low = row->high = row->ratio;
            continue;
        }
        if (isnan(crit))
            return RD_ERR_STATS;
        double lr = log(row->ratio);
        row->low = exp(lr - crit * se[i]);
        row->high = exp(lr + crit * se[i]);
        row->p = rd_srange_sf(M_SQRT2 * fabs(lr / se[i]), family, df);
    }
    return RD_OK;
}

void rd_format_ms(double ms, char *out, size_t size)
{
    if (!isfinite(ms))
        snprintf(out, size, "-");
    else if (ms == 0)
        snprintf(out, size, "0 ms");
    else if (fabs(ms) < 1)
        snprintf(out, size, "%.1f µs", ms * 1000);
    else if (fabs(ms) < 1000)
        snprintf(out, size, "%.*f ms", fabs(ms) < 100 ? 2 : 1, ms);
    else
        snprintf(out, size, "%.3f s", ms / 1000);
}

static void format_p(double p, char *out, size_t size)
{
    if (!isfinite(p))
        snprintf(out, size, "no test: both constant");
    else if (p < 0.001)
        snprintf(out, size, "p < 0.001");
    else
        snprintf(out, size, "p = %.3f", p);
}

/* "bun -e 1 ran 2.10× (2.02–2.19×) faster than node -e 1, p < 0.001", or
 * what the verdict says instead of "faster". */
static void relative_line(const struct rd_run_summary *s, size_t i, struct rd_buf *b)
{
    const struct rd_verdict_row *row = &s->rows[i];
    const char *best = s->tallies[s->res.best].name, *other = s->tallies[i].name;
    char p[64];
    format_p(s->p[i], p, sizeof p);
    char ci[96] = "";
    if (isfinite(row->ratio_ci_low) && isfinite(row->ratio_ci_high))
        snprintf(ci, sizeof ci, " (%.2f–%.2f×)", row->ratio_ci_low, row->ratio_ci_high);
    switch (row->verdict) {
    case RD_VERDICT_WORSE:
        rd_buf_addf(b, "%s ran %.2f×%s faster than %s, %s\n", best, row->ratio, ci, other, p);
        break;
    case RD_VERDICT_EQUIVALENT:
        rd_buf_addf(b, "%s and %s are equivalent: %.2f×%s, within ±%g%%\n", best, other,
                    row->ratio, ci, s->settings.margin * 100);
        break;
    case RD_VERDICT_INCONCLUSIVE:
        rd_buf_addf(b, "%s ran %.2f×%s faster than %s, inconclusive (%s)\n", best,
                    row->ratio, ci, other, p);
        break;
    default:
        break;
    }
}

/* "ref ran 1.50× (1.40–1.60×) faster than b, p = 0.002", "b ran ... faster
 * than ref", or no significant difference: command i against the reference. */
static void reference_line(const struct rd_run_summary *s, size_t i, struct rd_buf *b)
{
    const struct rd_run_refrow *row = &s->ref[i];
    const char *ref = s->tallies[s->reference].name, *other = s->tallies[i].name;
    char p[64];
    format_p(row->p, p, sizeof p);
    if (!row->compared) {
        rd_buf_addf(b, "%s: not compared with %s (each needs two runs that ended ok)\n",
                    other, ref);
    } else if (row->low > 1) {
        rd_buf_addf(b, "%s ran %.2f× (%.2f–%.2f×) faster than %s, %s\n", ref, row->ratio,
                    row->low, row->high, other, p);
    } else if (row->high < 1) {
        rd_buf_addf(b, "%s ran %.2f× (%.2f–%.2f×) faster than %s, %s\n", other,
                    1 / row->ratio, 1 / row->high, 1 / row->low, ref, p);
    } else {
        rd_buf_addf(b, "%s and %s: no significant difference, %.2f× (%.2f–%.2f×), %s\n",
                    other, ref, row->ratio, row->low, row->high, p);
    }
}

rd_status rd_run_summary_text(const struct rd_run_summary *s, struct rd_buf *out)
{
    struct rd_buf b = RD_BUF_INIT;
    for (size_t i = 0; i < s->k; i++) {
        const struct rd_run_tally *t = &s->tallies[i];
        char mean[32], sd[32], lo[32], hi[32], user[32], sys[32];
        rd_buf_addf(&b, "%s%s\n", i ? "\n" : "", t->name);
        if (t->n == 0) {
            rd_buf_addstr(&b, "  no run ended ok\n");
            continue;
        }
        rd_format_ms(t->mean, mean, sizeof mean);
        rd_format_ms(rd_run_tally_sd(t), sd, sizeof sd);
        rd_format_ms(t->min, lo, sizeof lo);
        rd_format_ms(t->max, hi, sizeof hi);
        rd_format_ms(t->user_n ? t->user_sum / (double)t->user_n : NAN, user, sizeof user);
        rd_format_ms(t->sys_n ? t->sys_sum / (double)t->sys_n : NAN, sys, sizeof sys);
        if (t->n == 1) {
            /* hyperfine's words for one run: no spread, no range */
            rd_buf_addf(&b, "  Time (abs ≡):      %s    [User: %s, System: %s]\n", mean, user,
                        sys);
        } else {
            rd_buf_addf(&b, "  Time (mean ± σ):   %s ± %s    [User: %s, System: %s]\n", mean,
                        sd, user, sys);
            rd_buf_addf(&b, "  Range (min … max): %s … %s    %ld runs\n", lo, hi, t->n);
        }
        if (t->mem_kib > 0)
            rd_buf_addf(&b, "  Peak memory:       %.1f MiB (%s)\n", t->mem_kib / 1024,
                        t->mem_tree ? "process tree" : "the command's own, max_rss_kib");
    }
    if (s->reference < s->k) {
        rd_buf_addf(&b, "\nSummary (against the reference, %s)\n",
                    s->tallies[s->reference].name);
        for (size_t i = 0; i < s->k; i++)
            if (i != s->reference && s->tallies[i].n > 0) {
                rd_buf_addstr(&b, "  ");
                reference_line(s, i, &b);
            }
    } else if (!s->compared) {
        /* Under two runs a side there is no interval and no test; the
         * ratio of the means is still what hyperfine says of one run. */
        size_t fastest = s->k, timed = 0;
        for (size_t i = 0; i < s->k; i++)
            if (s->tallies[i].n > 0 && s->tallies[i].mean > 0) {
                timed++;
                if (fastest == s->k || s->tallies[i].mean < s->tallies[fastest].mean)
                    fastest = i;
            }
        if (timed >= 2)
            rd_buf_addstr(&b, "\nSummary (too few runs for an interval or a test)\n");
        for (size_t i = 0; i < s->k && timed >= 2; i++)
            if (i != fastest && s->tallies[i].n > 0 && s->tallies[i].mean > 0)
                rd_buf_addf(&b, "  %s ran %.2f× faster than %s\n", s->tallies[fastest].name,
                            s->tallies[i].mean / s->tallies[fastest].mean, s->tallies[i].name);
    } else {
        rd_buf_addstr(&b, "\nSummary\n");
        for (size_t i = 0; i < s->k; i++) {
            if (i == s->res.best || s->rows[i].verdict == RD_VERDICT_DISQUALIFIED)
                continue;
            rd_buf_addstr(&b, "  ");
            relative_line(s, i, &b);
        }
    }
    /* Composed apart, so out gains the whole text or (out of memory) none. */
    rd_status st = rd_buf_addstr(out, b.ptr ? b.ptr : "");
    rd_buf_release(&b);
    return st;
}

/* A command as a Markdown code span: pipes escaped for the table. */
static void add_code_cell(struct rd_bw *w, const char *text)
{
    const char *fence = strchr(text, '`') ? "`` " : "`";
    rd_bw_str(w, fence);
    for (const char *p = text; *p; p++) {
        if (*p == '|')
            rd_bw_ch(w, '\\');
        if (*p != '\n')
            rd_bw_ch(w, *p);
    }
    rd_bw_str(w, strchr(text, '`') ? " ``" : "`");
}

static void compose_markdown(struct rd_bw *w, const struct rd_run_summary *s)
{
    rd_bw_str(w, "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n"
                  "|:---|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < s->k; i++) {
        const struct rd_run_tally *t = &s->tallies[i];
        rd_bw_str(w, "| ");
        add_code_cell(w, t->name);
        if (t->n == 0) {
            rd_bw_str(w, " | - | - | - | - |\n");
            continue;
        }
        if (t->n > 1)
            rd_bw_f(w, " | %.2f ± %.2f | %.2f | %.2f | ", t->mean, rd_run_tally_sd(t), t->min,
                    t->max);
        else  /* hyperfine leaves out the ± of one run */
            rd_bw_f(w, " | %.2f | %.2f | %.2f | ", t->mean, t->min, t->max);
        const struct rd_verdict_row *row = &s->rows[i];
        if (!s->compared || row->verdict == RD_VERDICT_DISQUALIFIED)
            rd_bw_str(w, "- |\n");
        else if (i == s->res.best)
            rd_bw_str(w, "1.00 |\n");
        else if (isfinite(row->ratio_ci_low) && isfinite(row->ratio_ci_high))
            rd_bw_f(w, "%.2f (%.2f–%.2f) |\n", row->ratio, row->ratio_ci_low,
                    row->ratio_ci_high);
        else
            rd_bw_f(w, "%.2f |\n", row->ratio);
    }
}

/* ",\"key\": " and ms in seconds; null when undefined. */
static void add_seconds(struct rd_bw *w, const char *key, double ms)
{
    rd_bw_f(w, ",\n      \"%s\": ", key);
    RD_BW_DO(w, rd_buf_add_json_number(w->b, ms / 1000));
}

static double user_ms(const struct rd_run_tally *t)
{
    return t->user_n ? t->user_sum / (double)t->user_n : NAN;
}

static double sys_ms(const struct rd_run_tally *t)
{
    return t->sys_n ? t->sys_sum / (double)t->sys_n : NAN;
}

/* RD_OK when every tally kept its times, else a diag naming the command
 * whose times were lost to memory. */
static rd_status check_times(const struct rd_run_summary *s, struct rd_diag *d)
{
    for (size_t i = 0; i < s->k; i++)
        if (s->tallies[i].times_lost)
            return rd_diag_set(d, RD_ERR_NOMEM, NULL, 0, 0,
                               "out of memory keeping the run times of '%s'",
                               s->tallies[i].name);
    return RD_OK;
}

/* "[\n        a,\n        b\n      ]" as hyperfine (serde_json's pretty
 * printer) writes an array; "[]" when empty. */
static void add_array(struct rd_bw *w, const struct rd_run_tally *t, bool codes)
{
    rd_bw_ch(w, '[');
    for (long i = 0; i < t->n; i++) {
        rd_bw_str(w, i ? ",\n        " : "\n        ");
        if (codes)
            rd_bw_f(w, "%d", t->exit_codes[i]);
        else
            RD_BW_DO(w, rd_buf_add_json_number(w->b, t->times[i] / 1000));
    }
    rd_bw_str(w, t->n ? "\n      ]" : "]");
}

/* One element of hyperfine's "results", indented as hyperfine indents. */
static void add_hyperfine_result(struct rd_bw *w, const struct rd_run_tally *t)
{
    rd_bw_str(w, "    {\n      \"command\": ");
    RD_BW_DO(w, rd_buf_add_json_string(w->b, t->name));
    add_seconds(w, "mean", t->n ? t->mean : NAN);
    add_seconds(w, "stddev", rd_run_tally_sd(t));
    add_seconds(w, "median", rd_run_tally_median(t));
    add_seconds(w, "user", user_ms(t));
    add_seconds(w, "system", sys_ms(t));
    add_seconds(w, "min", t->n ? t->min : NAN);
    add_seconds(w, "max", t->n ? t->max : NAN);
    rd_bw_str(w, ",\n      \"times\": ");
    add_array(w, t, false);
    rd_bw_str(w, ",\n      \"exit_codes\": ");
    add_array(w, t, true);
    if (t->nparams) {
        rd_bw_str(w, ",\n      \"parameters\": {");
        for (size_t p = 0; p < t->nparams; p++) {
            rd_bw_str(w, p ? ",\n        " : "\n        ");
            RD_BW_DO(w, rd_buf_add_json_string(w->b, t->param_var[p]));
            rd_bw_str(w, ": ");
            RD_BW_DO(w, rd_buf_add_json_string(w->b, t->param_value[p]));
        }
        rd_bw_str(w, "\n      }");
    }
    rd_bw_str(w, "\n    }");
}

static void compose_json(struct rd_bw *w, const struct rd_run_summary *s)
{
    rd_bw_str(w, "{\n  \"results\": [");
    for (size_t i = 0; i < s->k; i++) {
        rd_bw_str(w, i ? ",\n" : "\n");
        add_hyperfine_result(w, &s->tallies[i]);
    }
    rd_bw_str(w, "\n  ]\n}\n");
}

/* The text compose() makes of s, written atomically at path unless
 * composing it failed: a file is whole or not there. */
static rd_status export(const struct rd_run_summary *s, const char *path, struct rd_diag *d,
                        void (*compose)(struct rd_bw *, const struct rd_run_summary *))
{
    if (compose != compose_markdown)  /* the table needs no run's time */
        RD_TRY(check_times(s, d));
    struct rd_buf b = RD_BUF_INIT;
    struct rd_bw w = RD_BW_INIT(&b);
    compose(&w, s);
    rd_status st = w.st ? rd_diag_set(d, w.st, NULL, 0, 0, "out of memory writing '%s'", path)
                        : rd_write_file_atomic(path, b.ptr, b.len, d);
    rd_buf_release(&b);
    return st;
}

rd_status rd_run_summary_export_json(const struct rd_run_summary *s, const char *path,
                                     struct rd_diag *d)
{
    return export(s, path, d, compose_json);
}

rd_status rd_run_summary_export_markdown(const struct rd_run_summary *s, const char *path,
                                         struct rd_diag *d)
{
    return export(s, path, d, compose_markdown);
}

/* A CSV field, quoted as hyperfine (the csv crate) quotes it: when it holds
 * a comma, a quote or a line break, with quotes doubled. */
static void add_csv_field(struct rd_bw *w, const char *text)
{
    if (!strpbrk(text, ",\"\r\n")) {
        rd_bw_str(w, text);
        return;
    }
    rd_bw_ch(w, '"');
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            rd_bw_ch(w, '"');
        rd_bw_ch(w, *p);
    }
    rd_bw_ch(w, '"');
}

/* ",v" in seconds; hyperfine writes 0 for what it does not know. */
static void add_csv_seconds(struct rd_bw *w, double ms)
{
    char num[32];
    rd_bw_ch(w, ',');
    rd_bw_str(w, rd_fmt_double(isfinite(ms) ? ms / 1000 : 0.0, num));
}

static void compose_csv(struct rd_bw *w, const struct rd_run_summary *s)
{
    rd_bw_str(w, "command,mean,stddev,median,user,system,min,max");
    /* a scan's columns, named by the first command's parameters (every
     * command of a scan has the same ones) */
    size_t np = s->k ? s->tallies[0].nparams : 0;
    for (size_t p = 0; p < np; p++) {
        rd_bw_ch(w, ',');
        rd_bw_str(w, "parameter_");
        add_csv_field(w, s->tallies[0].param_var[p]);
    }
    rd_bw_ch(w, '\n');
    for (size_t i = 0; i < s->k; i++) {
        const struct rd_run_tally *t = &s->tallies[i];
        add_csv_field(w, t->name);
        add_csv_seconds(w, t->n ? t->mean : NAN);
        add_csv_seconds(w, rd_run_tally_sd(t));
        add_csv_seconds(w, rd_run_tally_median(t));
        add_csv_seconds(w, user_ms(t));
        add_csv_seconds(w, sys_ms(t));
        add_csv_seconds(w, t->n ? t->min : NAN);
        add_csv_seconds(w, t->n ? t->max : NAN);
        for (size_t p = 0; p < np; p++) {
            rd_bw_ch(w, ',');
            add_csv_field(w, p < t->nparams ? t->param_value[p] : "");
        }
        rd_bw_ch(w, '\n');
    }
}

rd_status rd_run_summary_export_csv(const struct rd_run_summary *s, const char *path,
                                    struct rd_diag *d)
{
    return export(s, path, d, compose_csv);
}
