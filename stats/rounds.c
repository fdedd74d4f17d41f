/*
 * rounds.c - values by round and their within-round log ratios (see
 * rounds.h).
 */
#include <math.h>
#include <stdlib.h>

#include "rounds.h"

static int cmp_round(const void *x, const void *y)
{
    const struct rd_round_value *a = x, *b = y;
    if (a->round != b->round)
        return a->round < b->round ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

size_t rd_rounds_one_per_round(struct rd_round_value *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_round);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[m - 1].round != v[i].round)
            v[m++] = v[i];
    return m;
}

struct rd_moments rd_rounds_log_ratios(const struct rd_round_value *a, size_t na,
                                       const struct rd_round_value *b, size_t nb)
{
    /* the ratios' own logs mean nothing (and cost a log each) */
    struct rd_moments m = { .nonpositive = true };
    for (size_t i = 0, j = 0; i < na && j < nb;) {
        if (a[i].round < b[j].round) {
            i++;
        } else if (a[i].round > b[j].round) {
            j++;
        } else {
            rd_moments_add(&m, a[i].log - b[j].log);
            i++;
            j++;
        }
    }
    return m;
}

void rd_rounds_compare(const struct rd_round_value *a, size_t na, const struct rd_round_value *b,
                       size_t nb, double *mean_log, double *sd_log, double *n)
{
    struct rd_moments m = rd_rounds_log_ratios(a, na, b, nb);
    *n = (double)m.n;
    *mean_log = m.n ? m.mean : NAN;
    *sd_log = m.n >= 2 ? rd_moments_sd(&m) : NAN;
}
