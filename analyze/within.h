/*
 * within.h - decisions per label value (within.c): compare_within
 */
#ifndef RUNDOWN_ANALYZE_WITHIN_H
#define RUNDOWN_ANALYZE_WITHIN_H

#include "wctx.h"

/* One value (of each compare_within label) and its configs, decided on
 * their own in 'sub' (its prepared values borrowed from the workload's). */
struct within_part {
    const char **values;      /* [nkeys]: the part's label values (NULL: lacks it) */
    size_t *pos;              /* [n]: its configs' positions in the workload */
    size_t n;
    struct wctx sub;
};

struct within {
    const char **keys;        /* the labels */
    size_t nkeys;
    bool automatic;           /* from the load tools, not compare_within */
    struct within_part *parts;
    size_t nparts;
    size_t *pos;              /* the parts' positions, one array */
};

/**
 * Checks every workload's compare_within names labels its configs have:
 * RD_ERR_USAGE naming the --set option, or RD_ERR_PARSE at the store and
 * line the setting was read from, saying which labels there are.
 */
rd_status rd_within_check(struct rd_analysis *a, struct rd_diag *d);

/**
 * When x's workload names compare_within (or its runs come from several
 * load tools and it names none), decides each value's configs on their
 * own into x->within, and makes x->rc the workload's answer from them:
 * each config's verdict from its part, the decision, the labels settled
 * in every part, one sentence naming every part's decision. Nothing
 * otherwise. x->rc must be decided. x->within is freed with x.
 */
rd_status rd_within_decide(struct wctx *x);
void rd_within_release(struct within *wi);

#endif
