/*
 * replicate.c - our measurements set against published summary figures.
 *
 * Published studies give a mean (or a best-of-N, or a median), sometimes an
 * sd and n, never raw runs. For each figure in DIR/NAME.json
 * (rundown.published/1) we find the configs whose labels include every
 * published label and state the ratio ours / published; when the paper gave
 * sd and n, also a Welch test from summary statistics and Fieller's CI of
 * the ratio. Figures of a workload we ran but a config or metric we did not
 * measure are listed with "ours": null, so a report can show what is
 * missing; figures of workloads absent from the stores are left out.
 * The studies' relative claims (ratios, orders) follow, from claims.c.
 */
#include <dirent.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replicate.h"
#include "analysis_int.h"
#include "claims.h"
#include "crossmachine.h"
#include "jw.h"
#include "stats.h"
#include "rundown/analysis_keys.h"
#include "rundown/array.h"
#include "rundown/json.h"
#include "rundown/metrics.h"

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int cmp_cfgp(const void *x, const void *y)
{
    const struct cfg *const *a = x, *const *b = y;
    return strcmp((*a)->id, (*b)->id);
}

static const struct wl *find_wl(const struct rd_analysis *a, const char *name)
{
    const int64_t *f = rd_strmap_find(&a->wl_map, name);
    return f ? &a->wls[*f] : NULL;
}

static double num_or_nan(const cJSON *o, const char *key)
{
    double v;
    return rd_json_num(o, key, &v) ? v : NAN;
}

/* What one published figure is set beside: its statistic and published
 * numbers, and this machine's runs of the matching config (ours: whether
 * there are any), with the ratio and Welch's test where they apply. */
struct figure_cmp {
    const char *stat;
    double pm, psd, pn;     /* published mean, sd, n */
    bool params_differ;
    bool ours;
    double om, osd, on;     /* our mean, sd, n */
    double ostat;           /* our value of the figure's statistic */
    struct rd_ratio r;
    struct rd_welch t;
};

/* Our value of statistic stat ("best", "min", "max" or "median"; the
 * mean otherwise) of series s: a best-of-N figure is set beside our best
 * run. */
static rd_status our_statistic(const struct series *s, const char *metric, const char *stat,
                               double mean, double *out)
{
    *out = mean;
    if (strcmp(stat, "best") && strcmp(stat, "min") && strcmp(stat, "max") &&
        strcmp(stat, "median"))
        return RD_OK;
    double *tmp = malloc(s->len * sizeof *tmp);
    if (!tmp)
        return RD_ERR_NOMEM;
    memcpy(tmp, s->v, s->len * sizeof *tmp);
    rd_stats_sort(tmp, s->len);
    struct rd_metric_def def;
    rd_metric_describe(metric, &def);
    if (strcmp(stat, "median") == 0)
        *out = rd_stats_quantile_sorted(tmp, s->len, 0.5);
    else if (strcmp(stat, "min") == 0 ||
             (strcmp(stat, "best") == 0 && def.better != RD_BETTER_HIGHER))
        *out = tmp[0];
    else
        *out = tmp[s->len - 1];
    free(tmp);
    return RD_OK;
}

/* Figure fig of study doc against config c (NULL: no config matches). */
static rd_status figure_compare(const struct rd_analysis *a, const cJSON *doc, const cJSON *fig,
                                const struct cfg *c, struct figure_cmp *x)
{
    const char *metric = rd_json_str(fig, "metric");
    /* Figures inherit the study's statistic and n when they give none. */
    x->stat = rd_json_str(fig, "statistic");
    if (!x->stat)
        x->stat = rd_json_str(doc, "statistic");
    if (!x->stat)
        x->stat = "mean";
    x->pm = num_or_nan(fig, "mean");
    x->psd = num_or_nan(fig, "sd");
    x->pn = num_or_nan(fig, "n");
    if (isnan(x->pn) && !cJSON_GetObjectItemCaseSensitive(fig, "n"))
        x->pn = num_or_nan(doc, "n");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(fig, "params");
    x->params_differ = cJSON_IsObject(params) && params->child != NULL;
    x->r = (struct rd_ratio){ NAN, NAN, NAN, NAN };
    x->t = (struct rd_welch){ NAN, NAN, NAN, NAN, NAN, NAN };
    const struct series *s = NULL;
    int64_t mid = rd_analysis_metric_id(a, metric);
    if (c && mid >= 0)
        s = rd_cfg_find_series(c, (uint32_t)mid);
    x->ours = s && s->len > 0;
    if (!x->ours)
        return RD_OK;
    x->om = rd_stats_mean(s->v, s->len);
    x->osd = rd_stats_sd(s->v, s->len);
    x->on = (double)s->len;
    RD_TRY(our_statistic(s, metric, x->stat, x->om, &x->ostat));
    if (strcmp(x->stat, "mean") == 0 && !x->params_differ) {
        rd_stats_ratio_fieller(x->om, x->osd, x->on, x->pm, x->psd, x->pn, a->o.confidence,
                               &x->r);
        rd_stats_welch_summary(x->om, x->osd, x->on, x->pm, x->psd, x->pn, a->o.confidence,
                               &x->t);
    } else if (x->pm != 0) {
        /* No sampling distribution for a best-of-N or a single value,
         * and none across different workload parameters. */
        x->r.ratio = x->ostat / x->pm;
    }
    return RD_OK;
}

/* Writes the entry of figure fig of study doc (file) against config c,
 * with what figure_compare found. */
static void write_entry(struct jw *w, const cJSON *doc, const cJSON *fig, const char *file,
                        const struct cfg *c, const struct figure_cmp *x)
{
    jw_obj(w, NULL, true);
    jw_str(w, RD_AK_FILE, file);
    jw_str(w, RD_AK_STUDY, rd_json_str(doc, "study"));
    jw_str(w, RD_AK_TITLE, rd_json_str(doc, "title"));
    jw_str(w, RD_AK_MACHINE, rd_json_str(doc, "machine"));
    jw_str(w, RD_AK_SOURCE, rd_json_str(doc, "source"));
    jw_str(w, RD_AK_METHOD, rd_json_str(doc, "method"));
    jw_obj(w, RD_AK_VERSIONS, false);
    const cJSON *ver;
    cJSON_ArrayForEach(ver, cJSON_GetObjectItemCaseSensitive(doc, "versions"))
        if (cJSON_IsString(ver))
            jw_str(w, ver->string, ver->valuestring);
    jw_end(w, '}');
    jw_str(w, RD_AK_WORKLOAD, rd_json_str(fig, "workload"));
    jw_obj(w, RD_AK_LABELS, false);
    const cJSON *lab;
    cJSON_ArrayForEach(lab, cJSON_GetObjectItemCaseSensitive(fig, "labels"))
        if (cJSON_IsString(lab))
            jw_str(w, lab->string, lab->valuestring);
    jw_end(w, '}');
    jw_str(w, RD_AK_CONFIG, c ? c->id : NULL);
    jw_str(w, RD_AK_ENV, c ? c->env : NULL);
    jw_str(w, RD_AK_METRIC, rd_json_str(fig, "metric"));
    jw_str(w, RD_AK_STATISTIC, x->stat);
    jw_bool(w, RD_AK_APPROX, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fig, "approx")));
    jw_bool(w, RD_AK_PARAMS_DIFFER, x->params_differ);
    jw_str(w, RD_AK_NOTE, rd_json_str(fig, "note"));
    jw_obj(w, RD_AK_PUBLISHED, false);
    jw_num(w, RD_AK_MEAN, x->pm);
    jw_num(w, RD_AK_SD, x->psd);
    jw_num(w, RD_AK_N, x->pn);
    jw_num(w, RD_AK_CI_LOW, num_or_nan(fig, "ci_low"));
    jw_num(w, RD_AK_CI_HIGH, num_or_nan(fig, "ci_high"));
    jw_end(w, '}');
    if (!x->ours) {
        jw_null(w, RD_AK_OURS);
    } else {
        jw_obj(w, RD_AK_OURS, false);
        jw_num(w, RD_AK_MEAN, x->om);
        jw_num(w, RD_AK_SD, x->osd);
        jw_num(w, RD_AK_N, x->on);
        jw_num(w, RD_AK_STATISTIC, x->ostat);
        jw_end(w, '}');
    }
    jw_num(w, RD_AK_RATIO, x->r.ratio);
    jw_num(w, RD_AK_RATIO_CI_LOW, x->r.ci_low);
    jw_num(w, RD_AK_RATIO_CI_HIGH, x->r.ci_high);
    jw_num(w, RD_AK_WELCH_T, x->t.t);
    jw_num(w, RD_AK_WELCH_DF, x->t.df);
    jw_num(w, RD_AK_P, x->t.p);
    jw_end(w, '}');
}

/* One published figure set beside one config (or none): worked out
 * before anything is written. */
struct figure {
    const cJSON *doc, *fig;
    const char *file;
    const struct cfg *c;     /* NULL: no config matches */
    struct figure_cmp x;
};

/* What --published's folder holds, judged: the studies (read once, kept
 * for the writer), their figures against our runs and their claims. */
struct rd_replication {
    char **names;            /* the files' paths, in name order */
    const char **files;      /* [n]: each one's name in the output */
    cJSON **docs;            /* [n] */
    size_t n;
    struct figure *figs;
    size_t nfigs, capfigs;
    struct rd_claims claims;
    struct rd_machines *machine_claims; /* the ratio claims across machines */
};

/* Figure fig against config c, worked out into the next of rep->figs. */
static rd_status figure_entry(struct rd_analysis *a, struct rd_replication *rep,
                              const cJSON *doc, const cJSON *fig, const char *file,
                              const struct cfg *c)
{
    RD_TRY(RD_ARRAY_GROW(rep->figs, rep->capfigs, rep->nfigs + 1));
    struct figure *f = &rep->figs[rep->nfigs++];
    *f = (struct figure){ .doc = doc, .fig = fig, .file = file, .c = c };
    return figure_compare(a, doc, fig, c, &f->x);
}

/* Reads one published file; *out is the caller's (cJSON_Delete). */
static rd_status read_study(const char *path, cJSON **out, struct rd_diag *d)
{
    RD_TRY(rd_json_parse_file(path, out, d));
    const char *schema = rd_json_str(*out, "schema");
    const cJSON *figs = cJSON_GetObjectItemCaseSensitive(*out, "figures");
    const cJSON *claims = cJSON_GetObjectItemCaseSensitive(*out, "claims");
    if (!schema || strcmp(schema, RD_PUBLISHED_SCHEMA) != 0 || !cJSON_IsArray(figs) ||
        (claims && !cJSON_IsArray(claims)))
        return rd_diag_set(d, RD_ERR_PARSE, path, 1, 1,
                           "expected a %s object with a 'figures' array (and 'claims' an "
                           "array)", RD_PUBLISHED_SCHEMA);
    return RD_OK;
}

static rd_status replicate_file(struct rd_analysis *a, struct rd_replication *rep,
                                const cJSON *doc, const char *path, const char *file,
                                struct rd_diag *d)
{
    const cJSON *figs = cJSON_GetObjectItemCaseSensitive(doc, "figures");
    const cJSON *fig;
    size_t idx = 0;
    cJSON_ArrayForEach(fig, figs) {
        idx++;
        const char *wname = rd_json_str(fig, "workload");
        const cJSON *labels = cJSON_GetObjectItemCaseSensitive(fig, "labels");
        if (!wname || !rd_json_str(fig, "metric") || (labels && !cJSON_IsObject(labels)))
            return rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                               "figure %zu: expected 'workload' and 'metric' strings and a "
                               "'labels' object", idx);
        const struct wl *wl = find_wl(a, wname);
        if (!wl)
            continue; /* a workload we did not run: nothing to set beside it */
        size_t nmatch = 0;
        const struct cfg **m = NULL;
        if (wl && wl->ncfgs) {
            m = malloc(wl->ncfgs * sizeof *m);
            if (!m)
                return RD_ERR_NOMEM;
            for (size_t i = 0; i < wl->ncfgs; i++) {
                const struct cfg *c = &a->cfgs[wl->cfgs[i]];
                if (rd_cfg_has_labels(c, labels))
                    m[nmatch++] = c;
            }
            if (nmatch > 1)
                qsort(m, nmatch, sizeof *m, cmp_cfgp);
        }
        rd_status st = nmatch == 0 ? figure_entry(a, rep, doc, fig, file, NULL) : RD_OK;
        for (size_t i = 0; i < nmatch && !st; i++)
            st = figure_entry(a, rep, doc, fig, file, m[i]);
        free(m);
        RD_TRY(st);
    }
    return RD_OK;
}

rd_status rd_replication_judge(struct rd_analysis *a, struct rd_replication **out,
                               struct rd_diag *d)
{
    struct rd_replication *rep = calloc(1, sizeof *rep);
    *out = rep;
    if (!rep)
        return RD_ERR_NOMEM;
    const char *dir = a->o.published_dir;
    DIR *dh = opendir(dir);
    if (!dh)
        return rd_diag_set(d, RD_ERR_IO, dir, 0, 0, "cannot open published folder");
    size_t cap = 0;
    rd_status st = RD_OK;
    struct dirent *de;
    while ((de = readdir(dh)) && !st) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
            continue;
        if ((st = RD_ARRAY_GROW(rep->names, cap, rep->n + 1)))
            break;
        size_t plen = strlen(dir) + len + 2;
        rep->names[rep->n] = rd_arena_alloc(&a->strings, plen);
        if (!rep->names[rep->n]) {
            st = RD_ERR_NOMEM;
            break;
        }
        snprintf(rep->names[rep->n], plen, "%s/%s", dir, de->d_name);
        rep->n++;
    }
    closedir(dh);
    size_t n = rep->n;
    /* readdir order is the file system's: sort for stable output. */
    if (!st && n > 1)
        qsort(rep->names, n, sizeof *rep->names, cmp_str);
    rep->docs = st ? NULL : calloc(n ? n : 1, sizeof *rep->docs);
    rep->files = st ? NULL : calloc(n ? n : 1, sizeof *rep->files);
    if (!st && (!rep->docs || !rep->files))
        st = RD_ERR_NOMEM;
    for (size_t i = 0; i < n && !st; i++) {
        rep->files[i] = rep->names[i] + strlen(dir) + 1;
        st = read_study(rep->names[i], &rep->docs[i], d);
    }
    for (size_t i = 0; i < n && !st; i++)
        st = replicate_file(a, rep, rep->docs[i], rep->names[i], rep->files[i], d);
    if (!st)
        st = rd_claims_judge(a, rep->docs, (const char *const *)rep->names, rep->files, n,
                             &rep->claims, d);
    if (!st)
        st = rd_machines_claims_judge(a, rep->docs, rep->files, n, &rep->machine_claims);
    return st;
}

rd_status rd_replication_write(struct rd_analysis *a, const struct rd_replication *rep,
                               struct jw *w)
{
    jw_arr(w, RD_AK_REPLICATION, true);
    for (size_t i = 0; i < rep->nfigs; i++) {
        const struct figure *f = &rep->figs[i];
        write_entry(w, f->doc, f->fig, f->file, f->c, &f->x);
    }
    jw_end(w, ']');
    RD_TRY(rd_claims_write(&rep->claims, w));
    return rd_machines_claims_write(rep->machine_claims, w);
}

void rd_replication_free(struct rd_replication *rep)
{
    if (!rep)
        return;
    rd_claims_release(&rep->claims);
    rd_machines_free(rep->machine_claims);
    for (size_t i = 0; rep->docs && i < rep->n; i++)
        cJSON_Delete(rep->docs[i]);
    free(rep->docs);
    free(rep->files);
    free(rep->names);
    free(rep->figs);
    free(rep);
}
