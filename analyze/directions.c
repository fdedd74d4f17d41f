/*
 * directions.c - which way is better for a metric of one workload.
 *
 * A run's info.metric_better (collect's --better NAME=lower|higher, a
 * suite workload's "better") says it for the metrics it names, and that
 * decides over the metric's registry entry and its name's suffix
 * (docs/analysis.md, "Better directions"). The runs of a workload usually
 * repeat one text, so each distinct text is merged once. Two runs that
 * give one metric opposite directions leave it to the registry and
 * suffix rule, and warnings.c says so (better_conflict).
 */
#include <string.h>

#include "directions.h"
#include "wctx.h"
#include "rundown/array.h"

/* Merges one direction; a second, different one is a conflict. */
static rd_status merge_one(struct rd_analysis *a, struct wl *w, const char *metric,
                           size_t len, int better, bool conflict)
{
    for (size_t i = 0; i < w->ndirs; i++) {
        struct metric_dir *d = &w->dirs[i];
        if (strlen(d->metric) == len && memcmp(d->metric, metric, len) == 0) {
            d->conflict |= conflict || d->better != better;
            return RD_OK;
        }
    }
    RD_TRY(RD_ARRAY_GROW(w->dirs, w->capdirs, w->ndirs + 1));
    const char *name = rd_arena_strndup(&a->strings, metric, len);
    if (!name)
        return RD_ERR_NOMEM;
    w->dirs[w->ndirs++] = (struct metric_dir){name, better, conflict};
    return RD_OK;
}

rd_status rd_directions_note(struct rd_analysis *a, struct wl *w, const char *text)
{
    if (!text || !*text || (w->dirs_seen && strcmp(w->dirs_seen, text) == 0))
        return RD_OK;
    if (!(w->dirs_seen = rd_arena_strdup(&a->strings, text)))
        return RD_ERR_NOMEM;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        if (eq && eq > p) {
            char dir[16];
            size_t dlen = len - (size_t)(eq + 1 - p);
            int better = -1;
            if (dlen < sizeof dir) {
                memcpy(dir, eq + 1, dlen);
                dir[dlen] = '\0';
                better = rd_better_parse(dir);
            }
            /* A direction this version cannot read names nothing. */
            if (better == RD_BETTER_LOWER || better == RD_BETTER_HIGHER)
                RD_TRY(merge_one(a, w, p, (size_t)(eq - p), better, false));
        }
        p += len + (p[len] == ',');
    }
    return RD_OK;
}

rd_status rd_directions_merge(struct rd_analysis *a, struct wl *w, const struct wl *bw)
{
    for (size_t i = 0; i < bw->ndirs; i++)
        RD_TRY(merge_one(a, w, bw->dirs[i].metric, strlen(bw->dirs[i].metric),
                         bw->dirs[i].better, bw->dirs[i].conflict));
    return RD_OK;
}

const struct metric_dir *rd_wl_metric_dir(const struct rd_analysis *a, const struct wl *w,
                                          uint32_t m)
{
    const char *name = a->metrics[m];
    for (size_t i = 0; i < w->ndirs; i++)
        if (strcmp(w->dirs[i].metric, name) == 0)
            return &w->dirs[i];
    return NULL;
}

enum rd_better rd_wl_metric_better(const struct rd_analysis *a, const struct wl *w, uint32_t m)
{
    const struct metric_dir *d = rd_wl_metric_dir(a, w, m);
    if (d && !d->conflict)
        return (enum rd_better)d->better;
    struct rd_metric_def def;
    rd_metric_describe(a->metrics[m], &def);
    return def.better;
}

const struct metric_dir *rd_wctx_metric_dir(const struct wctx *x, uint32_t m)
{
    return rd_wl_metric_dir(x->a, x->w, m);
}

enum rd_better rd_wctx_metric_better(const struct wctx *x, uint32_t m)
{
    return rd_wl_metric_better(x->a, x->w, m);
}
