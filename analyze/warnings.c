/*
 * warnings.c - what a reader must know before trusting a workload's
 * numbers: too few runs, failed runs, pooled environments, load-tool
 * errors, undefined or overflowing statistics, high spread, outliers, a
 * drift with run order, an interval whose coverage the data cannot give,
 * and comparisons that cannot reach alpha at this n.
 *
 * Each check makes findings about one config (or pair, or the workload).
 * Findings of one kind are then merged per workload: seventy configs with
 * the same short n give one line that names them ("15 configs have ...:
 * a, b, c, ..."), not seventy. A warning keeps its code, config (null when
 * merged), metric and message, and says its level ("warning", or "info"
 * for what is expected at the suite's own n) and the configs it concerns.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warnings.h"
#include "cfghelp.h"
#include "jw.h"
#include "levels.h"
#include "within.h"
#include "rundown/analysis_keys.h"
#include "rundown/array.h"
#include "rundown/buf.h"
#include "rundown/strmap.h"

#define LEVEL_WARNING "warning"
#define LEVEL_INFO "info"

/* A merged warning lists this many configs or pairs by name, then "and N more". */
#define LIST_MAX 10

/* One finding before merging. */
struct finding {
    const char *code, *level, *metric;
    const char *config, *other; /* ids; other: the second config of a pair */
    const char *msg;            /* the sentence when it stands alone ("" unless it is
                                 * the first of its group: only then can it stand alone) */
    const char *lead;           /* the plural clause when merged, or NULL: never merged */
    const char *item;           /* how it is listed when merged (NULL past LIST_MAX) */
    size_t group;               /* its kind (code and lead), numbered by first finding */
};

/* The leads formatted once per workload and tested metric (leadf): every
 * config's finding of one kind points at the same text. */
enum lead_slot { L_FEW_RUNS, L_ONE_RUN, L_OVERFLOW, L_MEDIAN, L_BOOTSTRAP, L_HIGH_CV,
                 L_OUTLIERS, L_TREND, L_NSLOTS };

/* Kinds looked up by the pointers of their code and lead before their text. */
#define RECENT_GROUPS 16

struct recent_group {
    const char *code, *lead;
    size_t g;
};

/* The findings, grouped by kind as they are added: a finding's sentence
 * is formatted only when it is the first of its kind and its list item
 * only while fewer than LIST_MAX came before it; nothing else of them is
 * ever written (10^5 configs made 10^5 sentences and items a kind, nearly
 * all thrown away). */
struct findings {
    struct wctx *x;
    const struct sessions *sess;
    struct finding *f;
    size_t n, cap;
    size_t *count;              /* per group: its findings so far */
    size_t ngroups, capgroups;
    struct rd_strmap groups;    /* "code\x1flead" -> group */
    struct rd_buf key;
    struct recent_group recent[RECENT_GROUPS];
    size_t nrecent;
    const char **leads;         /* [slot * (ntested + 1) + ti], ti = ntested: the primary */
    size_t named;               /* config named + 1 (0: none yet) */
    const char *name;           /* its display name */
};

/* printf into the workload's arena; NULL when out of memory. */
static const char *tmpf(struct wctx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static const char *tmpf(struct wctx *x, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return rd_arena_strdup(&x->tmp, buf);
}

/* What the contention guard judged c's contended runs by, with counts
 * ("3 by other processes' CPU above the threshold, 2 by the cross-CPU
 * wake-up slower than the threshold"; a run can count under more than
 * one). Runs without info.contended_by come from before the CPU and
 * wake-up probes: other processes' CPU was the only test. */
static const char *busy_reasons(struct wctx *x, const struct cfg *c)
{
    const size_t n[] = { c->busy_load, c->slow_cpu, c->slow_wakeup };
    const char *what[] = { "other processes' CPU above the threshold",
                           "the CPU's speed below the threshold",
                           "the cross-CPU wake-up slower than the threshold" };
    char text[256];
    size_t len = 0;
    for (size_t i = 0; i < 3; i++)
        if (n[i] && len < sizeof text) {
            int w = snprintf(text + len, sizeof text - len, "%s%zu by %s", len ? ", " : "",
                             n[i], what[i]);
            len += w > 0 ? (size_t)w : 0;
        }
    const char *out = len ? tmpf(x, "%s", text) : NULL;
    return out ? out : "by a test the runs do not name";
}

/* The display name of config i ("bun / worker / workers=4") in the arena. */
static const char *name_of(struct wctx *x, size_t i)
{
    char buf[256];
    rd_cfg_display_name(x->cs[i], buf, sizeof buf);
    return rd_arena_strdup(&x->tmp, buf);
}

/* The group of a finding of 'code' and 'lead' into *g, made (in order of
 * first finding) when new; a finding without a lead is a group alone. */
static rd_status group_find(struct findings *F, const char *code, const char *lead, size_t *g)
{
    if (lead) {
        for (size_t r = 0; r < F->nrecent; r++)
            if (F->recent[r].lead == lead && F->recent[r].code == code) {
                *g = F->recent[r].g;
                return RD_OK;
            }
        rd_buf_reset(&F->key);
        RD_TRY(rd_buf_addf(&F->key, "%s\x1f%s", code, lead));
        const int64_t *found = rd_strmap_find(&F->groups, F->key.ptr);
        if (found) {
            *g = (size_t)*found;
        } else {
            RD_TRY(RD_ARRAY_GROW(F->count, F->capgroups, F->ngroups + 1));
            RD_TRY(rd_strmap_put(&F->groups, F->key.ptr, (int64_t)F->ngroups, NULL));
            F->count[F->ngroups] = 0;
            *g = F->ngroups++;
        }
        if (F->nrecent < RECENT_GROUPS)
            F->recent[F->nrecent++] = (struct recent_group){code, lead, *g};
        return RD_OK;
    }
    RD_TRY(RD_ARRAY_GROW(F->count, F->capgroups, F->ngroups + 1));
    F->count[F->ngroups] = 0;
    *g = F->ngroups++;
    return RD_OK;
}

/* Config i's display name, made once for all its findings. */
static const char *name(struct findings *F, size_t i)
{
    if (F->named != i + 1) {
        F->name = name_of(F->x, i);
        F->named = F->name ? i + 1 : 0;
    }
    return F->name;
}

/* Config i's display name when its next finding of code and lead is
 * listed (fewer than LIST_MAX before it), else NULL: the item is not
 * formatted then. Call it just before that finding's add. */
static const char *listed_name(struct findings *F, const char *code, const char *lead, size_t i)
{
    size_t g;
    if (group_find(F, code, lead, &g) || F->count[g] >= LIST_MAX)
        return NULL;
    return name(F, i);
}

/* A lead of tested metric ti (ti = ntested: the primary metric) printf'd
 * once per workload; NULL when out of memory. Its arguments must not
 * depend on the config. */
static const char *leadf(struct findings *F, enum lead_slot slot, size_t ti, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static const char *leadf(struct findings *F, enum lead_slot slot, size_t ti, const char *fmt, ...)
{
    const char **at = &F->leads[slot * (F->x->ntested + 1) + ti];
    if (*at)
        return *at;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return *at = rd_arena_strdup(&F->x->tmp, buf);
}

/* Adds a finding; lead and item may be NULL (a finding about the workload
 * that is never merged; an item not listed). The message is printf'd from
 * fmt when it is the first of its kind. */
static rd_status add(struct findings *F, const char *code, const char *level,
                     const char *config, const char *other, const char *metric,
                     const char *lead, const char *item, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));

static rd_status add(struct findings *F, const char *code, const char *level,
                     const char *config, const char *other, const char *metric,
                     const char *lead, const char *item, const char *fmt, ...)
{
    RD_TRY(RD_ARRAY_GROW(F->f, F->cap, F->n + 1));
    size_t g;
    RD_TRY(group_find(F, code, lead, &g));
    const char *msg = "";
    if (F->count[g] == 0) {
        char buf[600];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        msg = rd_arena_strdup(&F->x->tmp, buf);
    }
    if (!msg || (lead && !item && F->count[g] < LIST_MAX))
        return RD_ERR_NOMEM;
    F->f[F->n++] = (struct finding){code, level, metric, config, other, msg, lead, item, g};
    F->count[g]++;
    return RD_OK;
}

/* The smallest n at which some interval between order statistics covers
 * the median with probability 'confidence': 1 - 2^(1-n) >= confidence. */
static size_t median_ci_min_n(double confidence)
{
    size_t n = 1;
    while (n < 64 && 1 - ldexp(1, 1 - (int)n) < confidence)
        n++;
    return n;
}

/* The names[i] whose v[i] is infinite, "sd, se", into out; false when
 * none is. Inputs are finite, so an infinite statistic overflowed. */
static bool list_infinite(const char *const *names, const double *v, size_t n, char *out,
                          size_t size)
{
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        if (isinf(v[i]) && o + strlen(names[i]) + 3 < size)
            o += (size_t)snprintf(out + o, size - o, "%s%s", o ? ", " : "", names[i]);
    return o > 0;
}

static bool overflowed_fields(const struct rd_summary *s, char *out, size_t size)
{
    const char *names[] = {"mean", "sd", "se", "ci_low", "ci_high", "median", "q1", "q3",
                           "p90", "p95", "p99", "mad", "cv", "geomean", "min", "max"};
    const double v[] = {s->mean, s->sd, s->se, s->ci_low, s->ci_high, s->median, s->q1,
                        s->q3, s->p90, s->p95, s->p99, s->mad, s->cv, s->geomean, s->min,
                        s->max};
    return list_infinite(names, v, sizeof v / sizeof v[0], out, size);
}

static bool pair_overflowed(const struct pair *pr, char *out, size_t size)
{
    const char *names[] = {"welch_t", "welch_df", "diff", "diff_ci_low", "diff_ci_high",
                           "ratio", "ratio_ci_low", "ratio_ci_high", "hedges_g"};
    const double v[] = {pr->w.t, pr->w.df, pr->w.diff, pr->w.ci_low, pr->w.ci_high,
                        pr->r.ratio, pr->r.ci_low, pr->r.ci_high, pr->g};
    return list_infinite(names, v, sizeof v / sizeof v[0], out, size);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Run numbers that config i holds twice or more (same run, both measured):
 * two collections stored under the same numbers, or a store read twice. */
static rd_status duplicate_findings(struct findings *F, size_t i)
{
    struct wctx *x = F->x;
    const struct cfg *c = x->cs[i];
    uint32_t *nums = malloc((c->nruns ? c->nruns : 1) * sizeof *nums);
    if (!nums)
        return RD_ERR_NOMEM;
    size_t n = 0, extra = 0, listed = 0, o = 0;
    bool ascending = true;
    for (uint32_t j = 0; j < c->nruns; j++)
        if (c->runs[j].numbered && !c->runs[j].redo) {
            ascending &= n == 0 || c->runs[j].order >= nums[n - 1];
            nums[n++] = c->runs[j].order;
        }
    /* A store holds a config's runs in the order they were numbered, so
     * they are nearly always in order already: glibc's merge sort would
     * still compare n log n / 2 times (0.8 % of analyze's instructions on
     * store-1m's first 200,000 runs). */
    if (!ascending)
        qsort(nums, n, sizeof *nums, cmp_u32);
    char list[120] = "";
    for (size_t j = 1; j < n; j++) {
        if (nums[j] != nums[j - 1])
            continue;
        extra++;
        if (j >= 2 && nums[j - 2] == nums[j])
            continue; /* listed already */
        if (listed++ < 8 && o + 14 < sizeof list)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%u", o ? ", " : "", nums[j]);
        else if (listed == 9 && o + 6 < sizeof list)
            o += (size_t)snprintf(list + o, sizeof list - o, ", ...");
    }
    free(nums);
    if (extra == 0)
        return RD_OK;
    const char *nm = name(F, i);
    if (!nm)
        return RD_ERR_NOMEM;
    return add(F, "duplicate_run", LEVEL_WARNING, c->id, NULL, NULL,
               "configs have run numbers recorded more than once", tmpf(x, "%s (runs %s)", nm, list),
               "run number%s %s recorded more than once (%zu extra record%s): two collections "
               "stored under the same numbers, or a store read twice; the run order, and the "
               "trend test with it, is ambiguous",
               listed == 1 ? "" : "s", list, extra, extra == 1 ? "" : "s");
}

/* "runs.jsonl:3" for a run's place: its store (as given) and line. */
static int place(char *out, size_t size, const struct rd_analysis *a, uint32_t input,
                 uint32_t line)
{
    return snprintf(out, size, "%s:%u", input < a->ninputs ? a->inputs[input] : "?", line);
}

/* Runs of config i read again with a source digest an earlier run holds
 * (sources.c): the copies are left out, and both places are named. */
static rd_status source_findings(struct findings *F, size_t i)
{
    struct wctx *x = F->x;
    const struct cfg *c = x->cs[i];
    if (c->ndups == 0)
        return RD_OK;
    const char *nm = name(F, i);
    if (!nm)
        return RD_ERR_NOMEM;
    char list[400] = "";
    size_t o = 0;
    for (uint32_t j = 0; j < c->ndups && o + 8 < sizeof list; j++) {
        const struct dup_run *d = &c->dups[j];
        char copy[160], first[160];
        place(copy, sizeof copy, x->a, d->input, d->line);
        place(first, sizeof first, x->a, d->first_input, d->first_line);
        if (j == 4 && c->ndups > 5) {
            o += (size_t)snprintf(list + o, sizeof list - o, ", and %u more", c->ndups - 4);
            break;
        }
        int n = snprintf(list + o, sizeof list - o, "%s%s repeats %s", j ? ", " : "", copy,
                         first);
        if (n < 0 || (size_t)n >= sizeof list - o)
            break;
        o += (size_t)n;
    }
    return add(F, "duplicate_source", LEVEL_WARNING, c->id, NULL, NULL,
               "configs have runs stored more than once (the same source digest): each is "
               "counted once, the later copies are left out of the statistics",
               tmpf(x, "%s (%s)", nm, list),
               "%u run%s stored more than once (the same source digest: imported twice, or "
               "stores concatenated): %s; each is counted once, the later cop%s left out of "
               "the statistics",
               c->ndups, c->ndups == 1 ? "" : "s", list, c->ndups == 1 ? "y is" : "ies are");
}

/* Metrics whose better direction the workload's runs give both ways
 * (info.metric_better): the registry's or suffix's direction is used. */
static rd_status direction_findings(struct findings *F)
{
    struct wctx *x = F->x;
    for (size_t i = 0; i < x->w->ndirs; i++) {
        const struct metric_dir *d = &x->w->dirs[i];
        if (!d->conflict)
            continue;
        struct rd_metric_def def;
        rd_metric_describe(d->metric, &def);
        RD_TRY(add(F, "better_conflict", LEVEL_WARNING, NULL, NULL, d->metric, NULL, NULL,
                   "runs of this workload give %s both better directions (info.metric_better, "
                   "from --better or the suite's better): the registry's or its name's "
                   "direction is used (%s)",
                   d->metric, rd_better_name(def.better)));
    }
    return RD_OK;
}

/* What the mean's interval of prep p now holds (levels.c): the variance
 * between its sessions, or why it could not be parted from the runs'. */
static const char *session_interval(struct wctx *x, const struct prep *p)
{
    if (!(p->mean_df > 0))
        return "no session holds 2 values, so the variance between sessions cannot be "
               "parted from the runs' and the interval is the runs' alone";
    return tmpf(x, "the mean's interval and the verdicts now include the variance between "
                   "sessions (%.3g %% of the variance, df %.3g): more runs in the same "
                   "sessions narrow it less than more sessions",
                100 * p->between_share, p->mean_df);
}

/* Runs of config i from several sessions whose means of tested metric ti
 * differ beyond chance: Welch's ANOVA across its sessions of 2 values or
 * more, at alpha (methods.md, "Sessions"). Such runs are not replicates
 * of one condition: the mean's interval and the verdicts read the
 * two-level variance (levels.c), and the warning says so. */
static rd_status session_findings(struct findings *F, size_t ti, size_t i)
{
    struct wctx *x = F->x;
    const struct prep *p = &x->preps[ti * x->k + i];
    if (!F->sess || F->sess->n < 2 || !p->have || !p->run_of)
        return RD_OK;
    size_t ns = F->sess->n;
    size_t *count = calloc(ns, sizeof *count), *at = calloc(ns, sizeof *at);
    uint32_t *ses = malloc((p->n_used ? p->n_used : 1) * sizeof *ses);
    double *vals = malloc((p->n_used ? p->n_used : 1) * sizeof *vals);
    const double **groups = malloc(ns * sizeof *groups);
    size_t *gn = malloc(ns * sizeof *gn);
    rd_status st = count && at && ses && vals && groups && gn ? RD_OK : RD_ERR_NOMEM;
    if (!st) {
        /* The values the statistics use: without excluded outliers. */
        rd_levels_sessions_of(x, i, p, ses);
        for (size_t u = 0; u < p->n_used; u++)
            count[ses[u]]++;
    }
    size_t g = 0, pos = 0;
    for (size_t k = 0; k < ns && !st; k++) {
        at[k] = pos;
        pos += count[k];
        if (count[k] >= 2) {
            groups[g] = vals + at[k];
            gn[g++] = count[k];
        }
    }
    struct rd_anova an = {NAN, NAN, NAN, NAN};
    if (!st && g >= 2) {
        for (size_t u = 0; u < p->n_used; u++)
            vals[at[ses[u]]++] = p->used[u];
        rd_stats_welch_anova(groups, gn, g, &an);
    }
    const char *nm = NULL;
    if (!st && !isnan(an.p) && an.p < x->a->o.alpha && !(nm = name(F, i)))
        st = RD_ERR_NOMEM;
    if (!st && !isnan(an.p) && an.p < x->a->o.alpha) {
        const char *mn = x->a->metrics[x->tested[ti]];
        char means[200];
        size_t o = 0;
        means[0] = '\0';
        for (size_t k = 0; k < g && o + 40 < sizeof means; k++)
            o += (size_t)snprintf(means + o, sizeof means - o, "%s%.4g (n = %zu)",
                                  k ? ", " : "", rd_stats_mean(groups[k], gn[k]), gn[k]);
        st = add(F, "session_effect", LEVEL_WARNING, x->cs[i]->id, NULL, mn,
                 tmpf(x, "configs have runs from sessions whose means of %s differ beyond "
                         "chance (Welch's ANOVA p < %g): their means' intervals and the "
                         "verdicts include the variance between sessions",
                      mn, x->a->o.alpha),
                 tmpf(x, "%s (p = %.3g; %s)", nm, an.p, means),
                 "runs of %s come from %zu sessions whose means differ beyond chance "
                 "(Welch's ANOVA F = %.3g, p = %.3g; session means %s): they are not "
                 "replicates of one condition; %s",
                 mn, g, an.f, an.p, means, session_interval(x, p));
    }
    free(count);
    free(at);
    free(ses);
    free(vals);
    free(groups);
    free(gn);
    return st;
}

/* What is wrong with the runs of config i, whatever the metric. */
static rd_status config_findings(struct findings *F, size_t i)
{
    struct wctx *x = F->x;
    const struct cfg *c = x->cs[i];
    /* Its display name for the rarer findings' items; few_runs below, a
     * finding of nearly every config of a big suite, names it only when
     * its item is listed. */
    const char *nm = NULL;
    if ((c->env_other || c->command_other || c->contended || c->failed + c->timeouts ||
         c->load_error_runs || c->env_unknown || !x->have_primary || !x->preps[i].have) &&
        !(nm = name(F, i)))
        return RD_ERR_NOMEM;
    if (c->env_other)
        RD_TRY(add(F, "mixed_envs", LEVEL_WARNING, c->id, NULL, NULL,
                   "configs pool runs of several environments (--pool-envs)",
                   tmpf(x, "%s ('%s' and '%s')", nm, c->env, c->env_other),
                   "runs from environments '%s' and '%s' pooled (--pool-envs)", c->env,
                   c->env_other));
    if (c->command_other)
        RD_TRY(add(F, "merged_commands", LEVEL_WARNING, c->id, NULL, NULL,
                   "configs hold runs of different commands (label them, e.g. -n or -l)",
                   tmpf(x, "%s ('%s' and '%s')", nm, c->command, c->command_other),
                   "runs of different commands '%s' and '%s' are in one config: label "
                   "them apart (run -n NAME, import -l KEY=VALUE)", c->command,
                   c->command_other));
    if (c->contended > 0)
        RD_TRY(add(F, "contended", LEVEL_WARNING, c->id, NULL, NULL,
                   x->a->o.include_contended
                       ? "configs have runs taken on a busy machine, kept (--include-contended)"
                       : "configs have runs taken on a busy machine, excluded from the statistics",
                   tmpf(x, "%s (%zu of %zu)", nm, c->contended,
                        c->ok_runs + c->failed + c->timeouts + c->contended_left_out),
                   "%zu of %zu runs were taken on a busy machine (%s); %s", c->contended,
                   c->ok_runs + c->failed + c->timeouts + c->contended_left_out,
                   busy_reasons(x, c),
                   x->a->o.include_contended ? "kept (--include-contended)"
                                             : "excluded from the statistics"));
    size_t bad = c->failed + c->timeouts;
    if (bad > 0)
        RD_TRY(add(F, "failed_runs", LEVEL_WARNING, c->id, NULL, NULL,
                   "configs have failed or timed-out runs, excluded from the statistics",
                   c->timeouts ? tmpf(x, "%s (%zu of %zu, %zu timed out)", nm, bad,
                                      bad + c->ok_runs, c->timeouts)
                               : tmpf(x, "%s (%zu of %zu)", nm, bad, bad + c->ok_runs),
                   "%zu of %zu runs failed or timed out (%zu timeouts); excluded from the "
                   "statistics",
                   bad, bad + c->ok_runs, c->timeouts));
    if (c->load_error_runs > 0)
        RD_TRY(add(F, "load_errors", LEVEL_WARNING, c->id, NULL, NULL,
                   "configs have runs that report socket errors or non-2xx responses",
                   tmpf(x, "%s (%zu of %zu runs)", nm, c->load_error_runs, c->ok_runs),
                   "%zu of %zu runs report socket errors or non-2xx responses",
                   c->load_error_runs, c->ok_runs));
    RD_TRY(duplicate_findings(F, i));
    RD_TRY(source_findings(F, i));
    if (c->env_unknown > 0)
        RD_TRY(add(F, "env_unknown", LEVEL_WARNING, c->id, NULL, NULL,
                   "configs have runs imported without an environment: their machine, OS "
                   "and runtime versions are unknown",
                   tmpf(x, "%s (%zu of %zu runs)", nm, c->env_unknown, (size_t)c->nruns),
                   "%zu of %zu runs were imported without an environment (import without "
                   "-e): their machine, OS and runtime versions are unknown",
                   c->env_unknown, (size_t)c->nruns));
    if (!x->have_primary)
        return add(F, "no_data", LEVEL_WARNING, c->id, NULL, NULL,
                   "configs have no successful run that measured any metric", nm,
                   "no successful run measured any metric");
    const struct prep *pp = &x->preps[i];
    const char *pm = x->a->metrics[x->primary];
    if (!pp->have)
        return add(F, "no_data", LEVEL_WARNING, c->id, NULL, pm,
                   tmpf(x, "configs have no successful run of %s", pm), nm,
                   "no successful run measured %s", pm);
    if (pp->n_used < 5) {
        const char *lead = leadf(F, L_FEW_RUNS, x->ntested, "configs have fewer than 5 runs "
                                 "of %s, which give wide intervals and weak tests", pm);
        if (!lead)
            return RD_ERR_NOMEM;
        const char *ln = listed_name(F, "few_runs", lead, i);
        RD_TRY(add(F, "few_runs", LEVEL_WARNING, c->id, NULL, pm, lead,
                   ln ? tmpf(x, "%s (n = %zu)", ln, pp->n_used) : NULL,
                   "only %zu run%s of %s; fewer than 5 give wide intervals and weak tests",
                   pp->n_used, pp->n_used == 1 ? "" : "s", pm));
    }
    return RD_OK;
}

/* What is wrong with the values of config i on tested metric ti. */
static rd_status metric_findings(struct findings *F, size_t ti, size_t i)
{
    struct wctx *x = F->x;
    const struct cfg *c = x->cs[i];
    const struct prep *p = &x->preps[ti * x->k + i];
    const char *mn = x->a->metrics[x->tested[ti]];
    double conf = x->a->o.confidence, alpha = x->a->o.alpha;
    if (!p->have)
        return RD_OK;
    /* Each finding's lead is formatted once per metric (leadf) and its
     * item only when it is listed (nm NULL otherwise: listed_name). */
    const char *lead, *nm;
    if (p->n_used < 2) {
        if (!(lead = leadf(F, L_ONE_RUN, ti, "configs have one run of %s, so its sd, se and "
                           "CI are undefined", mn)))
            return RD_ERR_NOMEM;
        nm = listed_name(F, "undefined", lead, i);
        RD_TRY(add(F, "undefined", LEVEL_WARNING, c->id, NULL, mn, lead, nm,
                   "sd, se and CI of %s are undefined with one run", mn));
    }
    char fields[200];
    if (overflowed_fields(&p->sum, fields, sizeof fields)) {
        if (!(lead = leadf(F, L_OVERFLOW, ti, "configs have statistics of %s beyond the "
                           "double range, written as null", mn)))
            return RD_ERR_NOMEM;
        nm = listed_name(F, "overflow", lead, i);
        RD_TRY(add(F, "overflow", LEVEL_WARNING, c->id, NULL, mn, lead,
                   nm ? tmpf(x, "%s (%s)", nm, fields) : NULL,
                   "%s of %s are beyond the double range (about 1.8e308) and written as null",
                   fields, mn));
    }
    if (p->med_method && strcmp(p->med_method, "binomial") == 0 && isnan(p->med_lo)) {
        /* Expected at the suite's own n, not a fault of the data: info. */
        size_t need = median_ci_min_n(conf);
        if (!(lead = leadf(F, L_MEDIAN, ti, "configs have no CI of the median of %s: below "
                           "n = %zu no interval between order statistics reaches %g %% "
                           "confidence", mn, need, conf * 100)))
            return RD_ERR_NOMEM;
        nm = listed_name(F, "undefined", lead, i);
        RD_TRY(add(F, "undefined", LEVEL_INFO, c->id, NULL, mn, lead,
                   nm ? tmpf(x, "%s (n = %zu)", nm, p->n_used) : NULL,
                   "CI of the median of %s is undefined with %zu runs: no interval "
                   "between order statistics reaches %g %% confidence",
                   mn, p->n_used, conf * 100));
    }
    if (p->med_method && strcmp(p->med_method, "bootstrap") == 0) {
        /* The percentile bootstrap's coverage is short of its nominal level
         * at small n; below c - (1 - c)/2 (92.5 % at 95 %) it misses the
         * median at least half as often again as stated (methods.md §5). */
        double cov = rd_stats_bootstrap_median_coverage(p->n_used, conf);
        if (cov < conf - (1 - conf) / 2) {
            if (!(lead = leadf(F, L_BOOTSTRAP, ti, "configs have a bootstrap CI of the median "
                               "of %s that covers the median less often than %g %% at their "
                               "n", mn, conf * 100)))
                return RD_ERR_NOMEM;
            nm = listed_name(F, "bootstrap_coverage", lead, i);
            RD_TRY(add(F, "bootstrap_coverage", LEVEL_WARNING, c->id, NULL, mn, lead,
                       nm ? tmpf(x, "%s (n = %zu: %.1f %%)", nm, p->n_used, cov * 100) : NULL,
                       "the percentile bootstrap CI of the median of %s covers the median "
                       "with probability %.1f %%, not %g %%, at n = %zu (as B grows); the "
                       "default order-statistic interval states its coverage",
                       mn, cov * 100, conf * 100, p->n_used));
        }
    }
    if (p->sum.cv > 0.10) {
        if (!(lead = leadf(F, L_HIGH_CV, ti, "configs have a CV of %s above 10 %%", mn)))
            return RD_ERR_NOMEM;
        nm = listed_name(F, "high_cv", lead, i);
        RD_TRY(add(F, "high_cv", LEVEL_WARNING, c->id, NULL, mn, lead,
                   nm ? tmpf(x, "%s (%.1f %%)", nm, p->sum.cv * 100) : NULL,
                   "CV of %s is %.1f %% (> 10 %%)", mn, p->sum.cv * 100));
    }
    if (p->noutl > 0) {
        char idx[200];
        size_t o = 0;
        idx[0] = '\0';
        for (size_t j = 0; j < p->noutl && o + 16 < sizeof idx; j++)
            o += (size_t)snprintf(idx + o, sizeof idx - o, "%s%zu", j ? ", " : "", p->outl[j]);
        const char *fate = x->a->o.exclude_outliers ? "excluded" : "kept";
        if (!(lead = leadf(F, L_OUTLIERS, ti, "configs have values of %s outside Tukey's "
                           "fences (%s)", mn, fate)))
            return RD_ERR_NOMEM;
        nm = listed_name(F, "outliers", lead, i);
        RD_TRY(add(F, "outliers", LEVEL_WARNING, c->id, NULL, mn, lead,
                   nm ? tmpf(x, "%s (%zu of %zu)", nm, p->noutl, p->n_all) : NULL,
                   "%zu of %zu values of %s outside Tukey's fences (run order index %s); %s",
                   p->noutl, p->n_all, mn, idx, fate));
    }
    if (!isnan(p->trend.p) && p->trend.p < alpha) {
        if (!(lead = leadf(F, L_TREND, ti, "configs drift with run order on %s (Mann-Kendall "
                           "p < %g): warm-up, throttling or interference", mn, alpha)))
            return RD_ERR_NOMEM;
        nm = listed_name(F, "trend", lead, i);
        RD_TRY(add(F, "trend", LEVEL_WARNING, c->id, NULL, mn, lead,
                   nm ? tmpf(x, "%s (tau = %.2f, p = %.3g)", nm, p->trend.tau, p->trend.p)
                      : NULL,
                   "%s drifts with run order (Mann-Kendall tau = %.2f, p = %.3g): "
                   "warm-up, throttling or interference",
                   mn, p->trend.tau, p->trend.p));
    }
    return session_findings(F, ti, i);
}

/* What is wrong with the tests on tested metric ti. */
static rd_status test_findings(struct findings *F, size_t ti)
{
    struct wctx *x = F->x;
    const struct tests *t = &x->tests[ti];
    const struct prep *pp = x->preps + ti * x->k;
    const char *mn = x->a->metrics[t->metric];
    double alpha = x->a->o.alpha;
    const double omni[] = {t->anova.f, t->wanova.f, t->kw.h};
    if (t->have_multi && (isinf(omni[0]) || isinf(omni[1]) || isinf(omni[2])))
        RD_TRY(add(F, "overflow", LEVEL_WARNING, NULL, NULL, mn, NULL, NULL,
                   "an omnibus statistic on %s (ANOVA F, Welch's F or Kruskal-Wallis H) is "
                   "beyond the double range and written as null",
                   mn));
    for (size_t i = 0; i < t->npairs; i++) {
        const struct pair *pr = &t->pairs[i];
        const char *ia = x->cs[pr->a]->id, *ib = x->cs[pr->b]->id;
        char fields[200];
        bool over = pair_overflowed(pr, fields, sizeof fields);
        /* Nearly every pair of a big workload has nothing to say: its
         * configs are named only when it does. */
        if (!over && !isnan(pr->w.p) && !isnan(pr->r.ratio) && !isnan(pr->r.ci_low))
            continue;
        const char *na = name_of(x, pr->a), *nb = name_of(x, pr->b);
        if (!na || !nb)
            return RD_ERR_NOMEM;
        /* Why the pair's test or ratio is null, if it is. */
        const char *lead = NULL, *item = NULL, *why = NULL;
        if (isnan(pr->w.p)) {
            lead = tmpf(x, "pairs have no Welch test on %s (n < 2 or zero variance)", mn);
            item = tmpf(x, "%s vs %s", na, nb);
            why = tmpf(x, "Welch test of %s vs %s on %s is undefined (n < 2 or zero variance)",
                       ia, ib, mn);
        } else if (isnan(pr->r.ci_low) && !isnan(pr->r.ratio)) {
            lead = tmpf(x, "pairs have an unbounded CI of the ratio on %s (the denominator's "
                           "CI contains 0)", mn);
            item = tmpf(x, "%s / %s", na, nb);
            why = tmpf(x, "CI of the ratio %s / %s on %s is unbounded (the denominator's CI "
                          "contains 0)", ia, ib, mn);
        } else if (isnan(pr->r.ratio)) {
            lead = tmpf(x, "pairs have no ratio of means on %s (a mean is zero or negative)",
                        mn);
            item = tmpf(x, "%s / %s", na, nb);
            why = tmpf(x, "the ratio %s / %s on %s is undefined: a ratio of means needs "
                          "positive means", ia, ib, mn);
        }
        if (why)
            RD_TRY(add(F, "undefined", LEVEL_WARNING, ib, ia, mn, lead, item, "%s", why));
        if (over)
            RD_TRY(add(F, "overflow", LEVEL_WARNING, ib, ia, mn,
                       tmpf(x, "pairs have statistics on %s beyond the double range, written "
                               "as null", mn),
                       tmpf(x, "%s vs %s (%s)", na, nb, fields),
                       "%s of %s vs %s on %s are beyond the double range and written as null",
                       fields, ia, ib, mn));
    }
    if (x->a->o.exclude_outliers) {
        size_t dropped = 0, from = 0;
        for (size_t i = 0; i < x->k; i++)
            if (pp[i].have && pp[i].n_all > pp[i].n_used) {
                dropped += pp[i].n_all - pp[i].n_used;
                from++;
            }
        if (dropped > 0)
            RD_TRY(add(F, "outliers_excluded", LEVEL_WARNING, NULL, NULL, mn, NULL, NULL,
                       "--exclude-outliers dropped %zu value%s of %s (%zu config%s): values "
                       "dropped for looking extreme shrink the spread, so the intervals are "
                       "too narrow and the tests call differences more often than alpha = %g",
                       dropped, dropped == 1 ? "" : "s", mn, from, from == 1 ? "" : "s",
                       alpha));
    }
    return RD_OK;
}

/*
 * The power warning judges the procedure the decision uses (verdict.h):
 * config i against the best b on key metric kv, by Fieller's interval of
 * x_i / x_b at the family's one critical value c. That interval is at
 * least 2 c sqrt(v_i + R^2 v_b) / |x_b| wide (v = s^2/n), and R >= 1 - m
 * inside the margin m, so when
 *     h = c sqrt(v_i + (1 - m)^2 v_b) / |x_b| > m
 * no means whatever could make it equivalent at these n and spreads, and
 * only a difference beyond about c sqrt(v_i + v_b) / |x_b| can be called
 * worse. Judged for the comparisons left inconclusive: a settled one
 * needs no warning.
 */
/* The smallest half-width h of config i's equivalence interval against
 * the best of kv (the log-scale standard error of the ratio at the means
 * seen: the narrowest the intervals can be, at a ratio of 1) and the
 * smallest difference dmin it could call; false when it is not reported
 * as underpowered (decided, a mean not positive, or h within margin m). */
static bool underpowered(const struct wctx *x, const struct key_verdicts *kv, size_t i,
                         double m, double *h, double *dmin)
{
    const struct rd_verdict_result *res = &kv->res;
    const struct prep *pp = &x->preps[kv->ti * x->k];
    const struct prep *pa = &pp[i], *pb = &pp[res->best];
    if (kv->rows[i].verdict != RD_VERDICT_INCONCLUSIVE || !(pb->sum.mean > 0) ||
        !(pa->sum.mean > 0))
        return false;
    double ra = pa->sum.se / pa->sum.mean, rb = pb->sum.se / pb->sum.mean;
    double se = sqrt(ra * ra + rb * rb);
    *h = expm1(res->crit_eq * se);
    *dmin = expm1(res->crit * se);
    return *h > m;
}

/* Adds a finding whose message was formatted by the caller (or is not
 * needed: an empty one, of a finding merge() puts in a group). */
static rd_status add_formatted(struct findings *F, const char *code, const char *level,
                               const char *config, const char *other, const char *metric,
                               const char *lead, const char *item, const char *msg)
{
    RD_TRY(RD_ARRAY_GROW(F->f, F->cap, F->n + 1));
    if (!msg || (lead && !item))
        return RD_ERR_NOMEM;
    size_t g;
    RD_TRY(group_find(F, code, lead, &g));
    F->f[F->n++] = (struct finding){code, level, metric, config, other, msg, lead, item, g};
    F->count[g]++;
    return RD_OK;
}

static rd_status power_findings(struct findings *F, struct wctx *x, const struct reco *rc)
{
    double m = rc->margin, level = (1 - 2 * x->a->o.alpha) * 100;
    for (size_t ki = 0; ki < rc->nkeys; ki++) {
        const struct key_verdicts *kv = &rc->keys[ki];
        const struct rd_verdict_result *res = &kv->res;
        if (!kv->rows || res->best >= x->k || isnan(res->crit))
            continue;
        const struct prep *pp = &x->preps[kv->ti * x->k];
        const struct prep *pb = &pp[res->best];
        const char *mn = x->a->metrics[kv->metric];
        const char *nb = name_of(x, res->best);
        if (!nb)
            return RD_ERR_NOMEM;
        /* These findings are all of one group in merge() (one code, one
         * lead): counted first, so that a config's own sentence is only
         * formatted when it stands alone and its list item only when it is
         * among the first LIST_MAX listed (10^5 configs made 10^5 of
         * each, nearly all thrown away). */
        size_t found = 0, listed = 0;
        double h, dmin;
        for (size_t i = 0; i < x->k; i++)
            found += underpowered(x, kv, i, m, &h, &dmin);
        if (!found)
            continue;
        /* The same for every config of this key: written once, not once a
         * config, and merge() knows it by its pointer. */
        const char *lead = tmpf(x, "configs cannot be shown equivalent to the best (%s) on %s "
                                   "within %g %% at their n: the decision's simultaneous %g %% "
                                   "interval against it is wider than that",
                                nb, mn, m * 100, level);
        if (!lead)
            return RD_ERR_NOMEM;
        for (size_t i = 0; i < x->k; i++) {
            const struct rd_verdict_row *row = &kv->rows[i];
            const struct prep *pa = &pp[i];
            if (!underpowered(x, kv, i, m, &h, &dmin))
                continue;
            const char *cfg = x->cs[i]->id, *best = x->cs[res->best]->id;
            if (found > 1 && listed++ >= LIST_MAX) {
                RD_TRY(add_formatted(F, "underpowered", LEVEL_WARNING, cfg, best, mn, lead, "",
                                     ""));
                continue;
            }
            const char *na = name_of(x, i);
            if (!na)
                return RD_ERR_NOMEM;
            char settle[96] = "", need[48] = "";
            if (rd_levels_open_share(x, kv, i) > RD_LEVELS_DOMINANT) {
                snprintf(settle, sizeof settle,
                         "; more sessions would settle it, not more runs in these");
                snprintf(need, sizeof need, "; more sessions would settle it");
            } else if (row->runs_needed > 0) {
                snprintf(settle, sizeof settle, "; about %ld runs per config would settle it",
                         row->runs_needed);
                snprintf(need, sizeof need, "; %ld runs would settle it", row->runs_needed);
            }
            const char *item = tmpf(x, "%s (at least \u00b1%.0f %% at n = %zu%s)", na, h * 100,
                                    pa->n_used, need);
            if (found > 1) {
                RD_TRY(add_formatted(F, "underpowered", LEVEL_WARNING, cfg, best, mn, lead,
                                     item, ""));
                continue;
            }
            RD_TRY(add(F, "underpowered", LEVEL_WARNING, cfg, best, mn, lead, item,
                       "%s against the best %s on %s: at n = %zu and %zu the decision's "
                       "simultaneous %g %% equivalence interval (%zu configs, critical t = "
                       "%.2f) is at least \u00b1%.0f %% wide, so equivalence within %g %% "
                       "cannot be shown and only a difference above about %.0f %% can be "
                       "called %s%s",
                       na, nb, mn, pa->n_used, pb->n_used, level, res->family, res->crit_eq,
                       h * 100, m * 100, dmin * 100,
                       kv->better == RD_BETTER_HIGHER ? "worse" : "slower", settle));
        }
    }
    return RD_OK;
}

/* Adds id to the list unless it is there; 'listed' holds the ids listed
 * so far, so that a warning naming 10^5 configs is not a quadratic scan. */
static rd_status add_config(struct warn *wn, size_t cap, struct rd_strmap *listed,
                            const char *id)
{
    if (!id)
        return RD_OK;
    int added;
    rd_status st = rd_strmap_put(listed, id, 0, &added);
    if (st || !added)
        return st;
    if (wn->nconfigs >= cap)
        return RD_ERR_NOMEM;
    wn->configs[wn->nconfigs++] = id;
    return RD_OK;
}

/* The findings into x->warns, each kind (code and lead) merged into the
 * place of its first finding. */
static rd_status merge(struct wctx *x, const struct findings *F)
{
    size_t *group_of = malloc((F->n ? F->n : 1) * sizeof *group_of);
    const size_t *members = F->count;
    struct rd_buf msg = RD_BUF_INIT;
    rd_status st = group_of ? RD_OK : RD_ERR_NOMEM;
    size_t ngroups = F->ngroups;
    for (size_t i = 0; i < F->n && !st; i++)
        group_of[i] = F->f[i].group;
    if (!st)
        st = RD_ARRAY_GROW(x->warns, x->capwarns, ngroups ? ngroups : 1);
    /* Groups are numbered in order of their first finding. */
    for (size_t g = 0, first = 0; g < ngroups && !st; g++) {
        while (group_of[first] != g)
            first++;
        const struct finding *f0 = &F->f[first];
        struct warn *wn = &x->warns[x->nwarns];
        size_t cap = 2 * members[g];
        *wn = (struct warn){.code = f0->code, .level = f0->level, .metric = f0->metric,
                            .count = members[g]};
        wn->configs = rd_arena_alloc(&x->tmp, cap * sizeof *wn->configs);
        if (!wn->configs) {
            st = RD_ERR_NOMEM;
            break;
        }
        rd_buf_reset(&msg);
        if (members[g] == 1) {
            wn->config = f0->config;
            wn->msg = (char *)f0->msg;
        } else {
            st = rd_buf_addf(&msg, "%zu %s: ", members[g], f0->lead);
        }
        size_t listed = 0;
        struct rd_strmap listed_ids;
        rd_strmap_init(&listed_ids);
        for (size_t i = first; i < F->n && !st; i++) {
            if (group_of[i] != g)
                continue;
            const struct finding *f = &F->f[i];
            if ((st = add_config(wn, cap, &listed_ids, f->config)) ||
                (st = add_config(wn, cap, &listed_ids, f->other)))
                break;
            if (members[g] > 1 && listed < LIST_MAX)
                st = rd_buf_addf(&msg, "%s%s", listed ? ", " : "", f->item);
            listed++;
        }
        rd_strmap_release(&listed_ids);
        if (!st && members[g] > LIST_MAX)
            st = rd_buf_addf(&msg, " and %zu more", members[g] - LIST_MAX);
        if (!st && members[g] > 1 &&
            !(wn->msg = rd_arena_strndup(&x->tmp, msg.ptr, msg.len)))
            st = RD_ERR_NOMEM;
        if (!st)
            x->nwarns++;
    }
    rd_buf_release(&msg);
    free(group_of);
    return st;
}

/* A workload whose configs come from several load tools (ingest.c has put
 * the tool in their ids). */
static rd_status tool_findings(struct findings *F)
{
    struct wctx *x = F->x;
    char list[300];
    size_t o = 0, distinct = 0;
    list[0] = '\0';
    /* Configs per tool, counted in one pass; the tools listed in the order
     * of their first config. */
    struct rd_strmap per_tool;
    rd_strmap_init(&per_tool);
    size_t *first = malloc((x->k ? x->k : 1) * sizeof *first);
    rd_status st = first ? RD_OK : RD_ERR_NOMEM;
    for (size_t i = 0; i < x->k && !st; i++) {
        const char *t = x->cs[i]->tool ? x->cs[i]->tool : "unknown";
        int64_t *n;
        int added;
        if ((st = rd_strmap_slotn(&per_tool, t, strlen(t), 0, &n, &added)))
            break;
        ++*n;
        if (added)
            first[distinct++] = i;
    }
    for (size_t d = 0; d < distinct && !st; d++) {
        const char *t = x->cs[first[d]]->tool ? x->cs[first[d]]->tool : "unknown";
        int64_t n = *rd_strmap_find(&per_tool, t);
        if (o + strlen(t) + 24 < sizeof list)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s: %" PRId64 " config%s",
                                  o ? ", " : "", t, n, n == 1 ? "" : "s");
    }
    free(first);
    rd_strmap_release(&per_tool);
    if (st)
        return st;
    if (distinct < 2)
        return RD_OK;
    /* Decided per tool (within.c) unless compare_within says otherwise. */
    bool by_tool = F->x->within && F->x->within->automatic;
    return add(F, "mixed_tools", LEVEL_WARNING, NULL, NULL, NULL, NULL, NULL,
               "the configs of this workload were measured with %zu load tools (%s): each "
               "config's id names its tool, and %s",
               distinct, list,
               by_tool ? "the verdicts are made per tool (compare_within)"
                        : "a comparison across tools measures the tools as much as the configs");
}

rd_status rd_warnings_collect(struct wctx *x, const struct reco *rc)
{
    struct findings F = {.x = x, .sess = &x->sess};
    rd_strmap_init(&F.groups);
    rd_buf_init(&F.key, 0);
    F.leads = calloc(L_NSLOTS * (x->ntested + 1), sizeof *F.leads);
    rd_status st = F.leads ? tool_findings(&F) : RD_ERR_NOMEM;
    if (!st)
        st = direction_findings(&F);
    for (size_t i = 0; i < x->k && !st; i++) {
        st = config_findings(&F, i);
        /* A workload whose runs hold no metric at all has no primary metric
         * and no prepared series: x->preps has no row then (found by
         * fuzz_analyze: a store of runs with "metrics": {} crashed here). */
        for (size_t ti = 0; ti < x->ntested && !st; ti++)
            st = metric_findings(&F, ti, i);
    }
    for (size_t ti = 0; ti < x->ntested && !st; ti++)
        st = test_findings(&F, ti);
    /* Decided within a label (within.c): each part is its own family. */
    for (size_t p = 0; x->within && p < x->within->nparts && !st; p++) {
        struct wctx *y = &x->within->parts[p].sub;
        if (y->rc.have)
            st = power_findings(&F, y, &y->rc);
    }
    if (!st && rc->have && !x->within)
        st = power_findings(&F, x, rc);
    if (!st && rc->have == false && x->k > 0 && x->have_primary) {
        const char *pm = x->a->metrics[x->primary];
        st = add(&F, "no_recommendation", LEVEL_WARNING, NULL, NULL, pm, NULL, NULL,
                 "%s has no better direction; no config is recommended", pm);
    }
    if (!st)
        st = merge(x, &F);
    free(F.f);
    free(F.count);
    free(F.leads);
    rd_buf_release(&F.key);
    rd_strmap_release(&F.groups);
    return st;
}

void rd_warnings_write(const struct wctx *x, struct jw *w)
{
    jw_arr(w, RD_AK_WARNINGS, true);
    for (size_t i = 0; i < x->nwarns; i++) {
        const struct warn *wn = &x->warns[i];
        jw_obj(w, NULL, false);
        jw_str(w, RD_AK_CODE, wn->code);
        jw_str(w, RD_AK_CONFIG, wn->config);
        jw_str(w, RD_AK_METRIC, wn->metric);
        jw_str(w, RD_AK_MESSAGE, wn->msg);
        jw_str(w, RD_AK_LEVEL, wn->level);
        jw_num(w, RD_AK_COUNT, (double)wn->count);
        jw_arr(w, RD_AK_CONFIGS, false);
        for (size_t j = 0; j < wn->nconfigs; j++)
            jw_str(w, NULL, wn->configs[j]);
        jw_end(w, ']');
        jw_end(w, '}');
    }
    jw_end(w, ']');
}
