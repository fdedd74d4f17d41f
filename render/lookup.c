/*
 * lookup - the lookups every render file makes in the model: a config's
 * label and statistics by name, a config by id, a pair in either order.
 * Apart from derive.c (the driver that fills the model's derived fields),
 * so that the files derive calls can use them without a call cycle.
 */
#include "lookup.h"
#include "model.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

const struct rd_rstats rd_rstats_none = {
    .n = NAN, .mean = NAN, .sd = NAN, .se = NAN, .ci_low = NAN, .ci_high = NAN,
    .median = NAN, .min = NAN, .max = NAN, .q1 = NAN, .q3 = NAN, .p90 = NAN, .p95 = NAN,
    .p99 = NAN, .mad = NAN, .cv = NAN, .geomean = NAN,
};

const char *rd_better_words(enum rd_better b)
{
    switch (b) {
    case RD_BETTER_HIGHER: return "higher is better";
    case RD_BETTER_LOWER: return "lower is better";
    case RD_BETTER_NONE: break;
    }
    return "no better direction";
}

/* The first label named key: a repeated name means what a lookup in the
 * document finds. */
static const struct rd_kv *label_find(const struct rd_kv *labels, size_t n,
                                          const char *key)
{
    for (size_t i = 0; key && i < n; i++)
        if (strcmp(labels[i].key, key) == 0)
            return &labels[i];
    return NULL;
}

const char *rd_config_label(const struct rd_rconfig *c, const char *key)
{
    const struct rd_kv *l = label_find(c->labels, c->nlabels, key);
    return l ? l->value : NULL;
}

const struct rd_rstats *rd_config_stats(const struct rd_rconfig *c, const char *metric)
{
    for (size_t i = 0; metric && i < c->nmetrics; i++)
        if (strcmp(c->metrics[i].metric, metric) == 0)
            return &c->metrics[i];
    return NULL;
}

double rd_config_mean(const struct rd_rconfig *c, const char *metric)
{
    const struct rd_rstats *s = rd_config_stats(c, metric);
    return s ? s->mean : NAN;
}

double rd_config_rss_mib(const struct rd_rconfig *c)
{
    static const char *keys[] = { "max_rss_kib", "server_rss_peak_kib" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        double m = rd_config_mean(c, keys[i]);
        if (isfinite(m))
            return m / 1024;
    }
    return NAN;
}

const char *rd_other_role(const struct rd_rworkload *w)
{
    return w->best >= 0 && w->best != w->recommended && w->runner_up == w->best
        ? "best" : "runner-up";
}

int rd_workload_find(const struct rd_rworkload *w, const char *id)
{
    const int64_t *i = id ? rd_strmap_find(&w->config_ids, id) : NULL;
    return i ? (int)*i : -1;
}

void rd_pair_key(int i, int j, uint32_t key[2])
{
    key[0] = (uint32_t)(i < j ? i : j);
    key[1] = (uint32_t)(i < j ? j : i);
}

const char *rd_workload_config_name(const struct rd_rworkload *w, const char *id)
{
    int i = rd_workload_find(w, id);
    return i >= 0 ? w->configs[i].name : id;
}

const struct rd_rpair *rd_workload_pair(const struct rd_rworkload *w, const char *a,
                                        const char *b, bool *swapped)
{
    *swapped = false;
    int ia = rd_workload_find(w, a), ib = rd_workload_find(w, b);
    if (!w->tests || ia < 0 || ib < 0)
        return NULL;
    uint32_t key[2];
    rd_pair_key(ia, ib, key);
    const int64_t *at = rd_strmap_findn(&w->pair_index, (const char *)key, sizeof key);
    if (!at)
        return NULL;
    const struct rd_rpair *p = &w->tests->pairs[*at];
    *swapped = strcmp(p->a, a) != 0;
    return p;
}
