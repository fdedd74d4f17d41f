/*
 * write.c - the rundown.analysis/1 document: settings, environments,
 * inputs, then per workload its configs with each metric's descriptives,
 * the tests, the recommendation and the warnings, then the replication
 * section. Keys are written in a fixed order and numbers that are not
 * defined (NaN) as null, so the same stores give the same bytes.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfghelp.h"
#include "collection.h"
#include "compare.h"
#include "crossmachine.h"
#include "directions.h"
#include "embed.h"
#include "envs.h"
#include "jw.h"
#include "pairs.h"
#include "pool.h"
#include "replicate.h"
#include "sessions.h"
#include "stats.h"
#include "warnings.h"
#include "within.h"
#include "workload.h"
#include "rundown/analysis_keys.h"

static int cmp_env(const void *x, const void *y)
{
    const struct envref *a = x, *b = y;
    return strcmp(a->id, b->id);
}

/* A metric's statistics; 'better' is the direction the workload's
 * analysis uses for it (directions.c). */
static void write_summary(struct jw *w, const char *name, const struct prep *p,
                          const struct rd_analysis *a, enum rd_better better)
{
    struct rd_metric_def def;
    rd_metric_describe(name, &def);
    const struct rd_summary *s = &p->sum;
    jw_obj(w, name, true);
    jw_num(w, RD_AK_N, (double)p->n_used);
    jw_num(w, RD_AK_MEAN, s->mean);
    jw_num(w, RD_AK_SD, s->sd);
    jw_num(w, RD_AK_SE, s->se);
    jw_num(w, RD_AK_CI_LOW, s->ci_low);
    jw_num(w, RD_AK_CI_HIGH, s->ci_high);
    jw_num(w, RD_AK_MEDIAN, s->median);
    jw_num(w, RD_AK_MIN, s->min);
    jw_num(w, RD_AK_MAX, s->max);
    jw_num(w, RD_AK_Q1, s->q1);
    jw_num(w, RD_AK_Q3, s->q3);
    jw_num(w, RD_AK_P90, s->p90);
    jw_num(w, RD_AK_P95, s->p95);
    jw_num(w, RD_AK_P99, s->p99);
    jw_num(w, RD_AK_MAD, s->mad);
    jw_num(w, RD_AK_CV, s->cv);
    jw_num(w, RD_AK_GEOMEAN, s->geomean);
    jw_arr(w, RD_AK_OUTLIERS, false);
    for (size_t i = 0; i < p->noutl; i++)
        jw_num(w, NULL, (double)p->outl[i]);
    jw_end(w, ']');
    jw_arr(w, RD_AK_VALUES, false);
    jw_nums(w, p->all, p->n_all);
    jw_end(w, ']');
    jw_str(w, RD_AK_UNIT, def.unit);
    jw_str(w, RD_AK_BETTER, rd_better_name(better));
    if (a->o.exclude_outliers)
        jw_num(w, RD_AK_EXCLUDED, (double)(p->n_all - p->n_used));
    if (p->tested) {
        jw_num(w, RD_AK_MEDIAN_CI_LOW, p->med_lo);
        jw_num(w, RD_AK_MEDIAN_CI_HIGH, p->med_hi);
        jw_str(w, RD_AK_MEDIAN_CI_METHOD, p->med_method);
        /* The bootstrap's coverage is nominal; only the exact interval has one. */
        if (p->med_method && strcmp(p->med_method, "binomial") == 0)
            jw_num(w, RD_AK_MEDIAN_CI_LEVEL, p->med_level);
        jw_obj(w, RD_AK_TREND, false);
        jw_num(w, RD_AK_S, p->trend.s);
        jw_num(w, RD_AK_TAU, p->trend.tau);
        jw_num(w, RD_AK_P, p->trend.p);
        jw_end(w, '}');
        /* Only for runs from several sessions: one session's analysis
         * keeps its bytes. */
        if (p->sessions >= 2) {
            jw_num(w, RD_AK_SESSIONS, (double)p->sessions);
            jw_num(w, RD_AK_BETWEEN_SESSION_SHARE, p->between_share);
            jw_num(w, RD_AK_SE_DF, p->mean_df > 0 ? p->mean_df : NAN);
        }
    }
    jw_end(w, '}');
}

static void write_config(struct wctx *x, struct jw *w, size_t i)
{
    const struct cfg *c = x->cs[i];
    struct rd_analysis *a = x->a;
    char disp[256];
    rd_cfg_display_name(c, disp, sizeof disp);
    jw_obj(w, NULL, true);
    jw_str(w, RD_AK_ID, c->id);
    jw_obj(w, RD_AK_LABELS, false);
    for (size_t l = 0; l < c->nlabels; l++)
        jw_str(w, c->labels[l].key, c->labels[l].value);
    jw_end(w, '}');
    jw_str(w, RD_AK_DISPLAY, disp);
    jw_str(w, RD_AK_ENV, c->env);
    jw_num(w, RD_AK_RUNS, (double)(c->ok_runs + c->failed + c->timeouts + c->contended_left_out));
    jw_num(w, RD_AK_FAILED_RUNS, (double)(c->failed + c->timeouts));
    jw_num(w, RD_AK_TIMEOUT_RUNS, (double)c->timeouts);
    jw_num(w, RD_AK_LOAD_ERROR_RUNS, (double)c->load_error_runs);
    jw_num(w, RD_AK_CONTENDED_RUNS, (double)c->contended);
    jw_num(w, RD_AK_CONTENTION_UNKNOWN_RUNS,
           rd_envs_check_quiet(a, c->env) ? 0 : (double)c->contention_unknown);
    jw_obj(w, RD_AK_METRICS, true);
    for (size_t m = 0; m < x->nmets && !w->st; m++) {
        uint32_t id = x->mets[m];
        const struct series *s = rd_cfg_find_series(c, id);
        if (!s)
            continue;
        size_t ti = SIZE_MAX;
        for (size_t t = 0; t < x->ntested; t++)
            if (x->tested[t] == id)
                ti = t;
        enum rd_better better = rd_wctx_metric_better(x, id);
        if (ti != SIZE_MAX) {
            write_summary(w, a->metrics[id], &x->preps[ti * x->k + i], a, better);
        } else {
            struct prep p;
            if (rd_prep_series(x, c, s, false, &p)) {
                w->st = RD_ERR_NOMEM;
                rd_prep_release(&p);
                break;
            }
            write_summary(w, a->metrics[id], &p, a, better);
            rd_prep_release(&p);
        }
    }
    jw_end(w, '}');
    if (a->o.baseline_key) {
        struct baseline_cmp bc;
        if (!rd_compare_baseline(x, i, &bc)) {
            jw_null(w, RD_AK_BASELINE);
        } else {
            jw_obj(w, RD_AK_BASELINE, true);
            jw_str(w, RD_AK_CONFIG, x->cs[bc.config]->id);
            jw_str(w, RD_AK_METRIC, a->metrics[x->primary]);
            jw_num(w, RD_AK_RATIO, bc.r.ratio);
            jw_num(w, RD_AK_RATIO_CI_LOW, bc.r.ci_low);
            jw_num(w, RD_AK_RATIO_CI_HIGH, bc.r.ci_high);
            jw_num(w, RD_AK_DIFF, bc.w.diff);
            jw_num(w, RD_AK_DIFF_CI_LOW, bc.w.ci_low);
            jw_num(w, RD_AK_DIFF_CI_HIGH, bc.w.ci_high);
            jw_num(w, RD_AK_WELCH_T, bc.w.t);
            jw_num(w, RD_AK_WELCH_DF, bc.w.df);
            jw_num(w, RD_AK_P, bc.w.p);
            jw_end(w, '}');
        }
    }
    jw_end(w, '}');
}

/* Writes item i of a long array (a config, a pair, a verdict row) to w. */
typedef void item_writer(struct wctx *x, struct jw *w, size_t i, const void *ctx);

/* Work done on this thread before it writes items too (the warnings). */
typedef rd_status meanwhile_fn(struct wctx *x);

/* A long array of a workload written by two threads (a->config_helper):
 * each takes the next piece of a->o.config_chunk items, writes it into a
 * buffer of its own, and appends it to the workload's text when every
 * piece before it is there, so the bytes are those of one thread and at
 * most two pieces are held. Before the configs, the main thread first
 * collects the warnings meanwhile (they read what the configs' writing
 * reads and write nothing it reads), then writes pieces too. */
struct pieces {
    struct wctx *x;
    struct wctx hx;            /* the helper's copy of x, with a scratch of its own
                                * (rd_prep_series sorts in x->scratch) */
    struct jw *w;              /* the workload's writer, inside the array */
    struct jw at;              /* w as it was there, for each piece's own writer */
    item_writer *item;
    const void *ctx;           /* item's */
    size_t nitems, n;          /* items, pieces */
    atomic_size_t next;        /* the next piece to take */
    atomic_bool failed;        /* stop taking pieces */
    pthread_mutex_t lock;      /* held for what follows, w and its spill */
    pthread_cond_t turn;       /* a piece was appended (or a thread failed) */
    size_t appended;           /* the pieces before it are in w's text */
};

/* Appends a written piece to w in its turn; false once a piece failed. */
static bool append_piece(struct pieces *p, size_t c, struct rd_buf *b, rd_status st)
{
    struct jw *w = p->w;
    pthread_mutex_lock(&p->lock);
    while (p->appended != c && !atomic_load(&p->failed))
        pthread_cond_wait(&p->turn, &p->lock);
    if (!atomic_load(&p->failed)) {
        if (!st && w->b->len == 0) {
            /* Its text was just spilled: take the piece's storage instead
             * of copying a mebibyte into it. */
            struct rd_buf t = *w->b;
            w->b->ptr = b->ptr, w->b->len = b->len, w->b->cap = b->cap;
            b->ptr = t.ptr, b->len = 0, b->cap = t.cap;
        } else if (!st) {
            st = rd_buf_add(w->b, b->ptr, b->len);
        }
        if (st && !w->st)
            w->st = st;
        w->first[w->depth] = false;
        jw_spill(w);
        if (w->st)
            atomic_store(&p->failed, true);
        p->appended++;
    }
    pthread_cond_broadcast(&p->turn);
    pthread_mutex_unlock(&p->lock);
    return !atomic_load(&p->failed);
}

/* Writes and appends pieces until none is left; x is this thread's own. */
static void write_pieces(struct pieces *p, struct wctx *x)
{
    size_t chunk = x->a->o.config_chunk;
    struct rd_buf b = RD_BUF_INIT;
    while (!atomic_load(&p->failed)) {
        size_t c = atomic_fetch_add(&p->next, 1);
        if (c >= p->n)
            break;
        struct jw pw = p->at;
        pw.b = &b;
        pw.spill = NULL;
        pw.first[pw.depth] = c == 0;
        rd_buf_reset(&b);
        size_t end = (c + 1) * chunk < p->nitems ? (c + 1) * chunk : p->nitems;
        for (size_t i = c * chunk; i < end && !pw.st; i++)
            p->item(x, &pw, i, p->ctx);
        if (!append_piece(p, c, &b, pw.st))
            break;
    }
    rd_buf_release(&b);
}

static void *pieces_helper(void *arg)
{
    struct pieces *p = arg;
    write_pieces(p, &p->hx);
    free(p->hx.scratch);
    rd_stats_release_thread();
    return NULL;
}

/* Runs meanwhile (when not NULL) and writes items 0..n-1 into the open
 * array of w, a spill after each: on two threads when the pool allows it
 * and there are two pieces or more. Returns meanwhile's status; w's own
 * is w->st. */
static rd_status write_items(struct wctx *x, struct jw *w, size_t n, item_writer *item,
                             const void *ctx, meanwhile_fn *meanwhile)
{
    size_t chunk = x->a->o.config_chunk;
    struct pieces p = {.x = x, .w = w, .at = *w, .item = item, .ctx = ctx, .nitems = n};
    pthread_t tid;
    bool helped = x->a->config_helper && chunk && n > chunk &&
                  pthread_mutex_init(&p.lock, NULL) == 0;
    if (helped && pthread_cond_init(&p.turn, NULL) != 0) {
        pthread_mutex_destroy(&p.lock);
        helped = false;
    }
    if (helped) {
        p.n = (n + chunk - 1) / chunk;
        atomic_init(&p.next, 0);
        atomic_init(&p.failed, false);
        /* Copied before meanwhile changes x (the warnings, its arena). */
        p.hx = *x;
        p.hx.scratch = NULL;
        p.hx.scratch_cap = 0;
        if (pthread_create(&tid, NULL, pieces_helper, &p) != 0) {
            pthread_cond_destroy(&p.turn);
            pthread_mutex_destroy(&p.lock);
            helped = false;
        }
    }
    rd_status st = meanwhile ? meanwhile(x) : RD_OK;
    if (!helped) {
        for (size_t i = 0; i < n && !w->st && !st; i++) {
            item(x, w, i, ctx);
            jw_spill(w); /* 10^5 configs (3.6 KB each), pairs or rows are not held whole */
        }
        return st;
    }
    if (st) {
        /* Under the lock and told, as append_piece does: a helper waiting
         * for its turn must not wait for a piece this thread never takes. */
        pthread_mutex_lock(&p.lock);
        atomic_store(&p.failed, true);
        pthread_cond_broadcast(&p.turn);
        pthread_mutex_unlock(&p.lock);
    } else {
        write_pieces(&p, x);
    }
    pthread_join(tid, NULL);
    pthread_cond_destroy(&p.turn);
    pthread_mutex_destroy(&p.lock);
    return st;
}

static void config_item(struct wctx *x, struct jw *w, size_t i, const void *ctx)
{
    (void)ctx;
    write_config(x, w, i);
}

static rd_status collect_warnings(struct wctx *x)
{
    return rd_warnings_collect(x, &x->rc);
}

static void write_anova(struct jw *w, const char *key, const struct rd_anova *an)
{
    jw_obj(w, key, false);
    jw_num(w, RD_AK_F, an->f);
    jw_num(w, RD_AK_DF1, an->df1);
    jw_num(w, RD_AK_DF2, an->df2);
    jw_num(w, RD_AK_P, an->p);
    jw_end(w, '}');
}

/* Pair i of the tests ctx (a struct tests). */
static void pair_item(struct wctx *x, struct jw *w, size_t i, const void *ctx)
{
    const struct pair *pr = &((const struct tests *)ctx)->pairs[i];
    jw_obj(w, NULL, true);
    jw_str(w, RD_AK_A, x->cs[pr->a]->id);
    jw_str(w, RD_AK_B, x->cs[pr->b]->id);
    jw_num(w, RD_AK_WELCH_T, pr->w.t);
    jw_num(w, RD_AK_WELCH_DF, pr->w.df);
    jw_num(w, RD_AK_P, pr->w.p);
    jw_num(w, RD_AK_P_HOLM, pr->p_holm);
    jw_num(w, RD_AK_P_BH, pr->p_bh);
    jw_num(w, RD_AK_MW_U, pr->mw.u);
    jw_num(w, RD_AK_MW_P, pr->mw.p);
    jw_str(w, RD_AK_MW_METHOD, isnan(pr->mw.p) ? NULL : pr->mw.exact ? "exact" : "asymptotic");
    jw_num(w, RD_AK_HEDGES_G, pr->g);
    jw_num(w, RD_AK_PROB_SUPERIORITY, pr->mw.a);
    jw_num(w, RD_AK_DIFF, pr->w.diff);
    jw_num(w, RD_AK_DIFF_CI_LOW, pr->w.ci_low);
    jw_num(w, RD_AK_DIFF_CI_HIGH, pr->w.ci_high);
    jw_num(w, RD_AK_RATIO, pr->r.ratio);
    jw_num(w, RD_AK_RATIO_CI_LOW, pr->r.ci_low);
    jw_num(w, RD_AK_RATIO_CI_HIGH, pr->r.ci_high);
    jw_end(w, '}');
}

static void write_tests(struct wctx *x, struct jw *w, const char *key, size_t ti)
{
    const struct tests *t = &x->tests[ti];
    jw_obj(w, key, true);
    jw_str(w, RD_AK_METRIC, x->a->metrics[t->metric]);
    jw_str(w, RD_AK_BETTER, rd_better_name(t->better));
    if (t->have_multi) {
        write_anova(w, RD_AK_ANOVA, &t->anova);
        write_anova(w, RD_AK_WELCH_ANOVA, &t->wanova);
        jw_obj(w, RD_AK_KRUSKAL, false);
        jw_num(w, RD_AK_H, t->kw.h);
        jw_num(w, RD_AK_DF, t->kw.df);
        jw_num(w, RD_AK_P, t->kw.p);
        jw_end(w, '}');
    } else {
        jw_null(w, RD_AK_ANOVA);
        jw_null(w, RD_AK_WELCH_ANOVA);
        jw_null(w, RD_AK_KRUSKAL);
    }
    jw_str(w, RD_AK_PAIRS_SCOPE, t->scope);
    jw_str(w, RD_AK_RATIO_METHOD, "fieller");
    jw_arr(w, RD_AK_PAIRS, true);
    write_items(x, w, t->npairs, pair_item, t, NULL);
    jw_end(w, ']');
    jw_end(w, '}');
}

/* A verdict row's key metric and whether it says why. */
struct verdict_rows {
    const struct key_verdicts *kv;
    bool with_why;
};

/* Row i of the verdicts ctx (a struct verdict_rows). */
static void verdict_item(struct wctx *x, struct jw *w, size_t i, const void *ctx)
{
    const struct verdict_rows *vr = ctx;
    const struct key_verdicts *kv = vr->kv;
    const struct rd_verdict_row *r = &kv->rows[i];
    jw_obj(w, NULL, false);
    jw_str(w, RD_AK_CONFIG, x->cs[i]->id);
    jw_str(w, RD_AK_VERDICT, rd_verdict_name(r->verdict));
    jw_num(w, RD_AK_RATIO, r->ratio);
    jw_num(w, RD_AK_RATIO_CI_LOW, r->ratio_ci_low);
    jw_num(w, RD_AK_RATIO_CI_HIGH, r->ratio_ci_high);
    jw_num(w, RD_AK_P_ADJ, kv->p_adj[i]);
    jw_num(w, RD_AK_RUNS_NEEDED,
           r->verdict == RD_VERDICT_INCONCLUSIVE && r->runs_needed > 0
               ? (double)r->runs_needed : NAN);
    if (r->beyond_margin < 0)
        jw_null(w, RD_AK_BEYOND_MARGIN);
    else
        jw_bool(w, RD_AK_BEYOND_MARGIN, r->beyond_margin == 1);
    jw_num(w, RD_AK_EQ_CI_LOW, r->eq_ci_low);
    jw_num(w, RD_AK_EQ_CI_HIGH, r->eq_ci_high);
    if (r->exact)
        jw_bool(w, RD_AK_EXACT, true);
    if (r->joint)
        jw_bool(w, RD_AK_JOINT, true);
    if (!r->estimable && r->verdict == RD_VERDICT_INCONCLUSIVE && !isnan(r->ratio))
        jw_bool(w, RD_AK_ESTIMABLE, false);
    if (r->elim_note || !isnan(r->elim_ci_low)) { /* eliminated by the race */
        jw_num(w, RD_AK_ELIM_CI_LOW, r->elim_ci_low);
        jw_num(w, RD_AK_ELIM_CI_HIGH, r->elim_ci_high);
        if (r->elim_note)
            jw_str(w, RD_AK_ELIM_CI_NOTE, r->elim_note);
        else
            jw_null(w, RD_AK_ELIM_CI_NOTE);
    }
    if (vr->with_why)
        jw_str(w, RD_AK_WHY, x->rc.why[i]);
    jw_end(w, '}');
}

/* One key metric's verdicts, a row per config in id order. */
static void write_verdicts(struct wctx *x, struct jw *w, const struct key_verdicts *kv,
                           bool with_why)
{
    struct verdict_rows vr = {kv, with_why};
    jw_arr(w, RD_AK_VERDICTS, true);
    write_items(x, w, x->k, verdict_item, &vr, NULL);
    jw_end(w, ']');
}

/* The family the verdicts of one key metric were made in. */
static void write_decision(const struct wctx *x, struct jw *w, const struct key_verdicts *kv)
{
    jw_str(w, RD_AK_DECISION, rd_decision_name(kv->res.decision));
    jw_num(w, RD_AK_FAMILY, (double)kv->res.family);
    /* The level the verdicts used, in every case: alpha_look is written
     * only with a planned maximum, and a raced workload's contenders are
     * judged below alpha without one too (rd_settle_final_alpha), so a
     * reader that takes alpha where alpha_look is absent states a level
     * the intervals were not computed at. */
    jw_num(w, RD_AK_VERDICT_ALPHA, rd_collection_level(x, x->a->o.alpha, kv->ti));
    jw_num(w, RD_AK_CRITICAL_VALUE, kv->res.crit);
    jw_num(w, RD_AK_CRITICAL_VALUE_EQ, kv->res.crit_eq);
    jw_num(w, RD_AK_DF, kv->res.df);
    jw_num(w, RD_AK_RUNS_NEEDED,
           kv->res.decision == RD_DECISION_INCONCLUSIVE && kv->runs_needed > 0
               ? (double)kv->runs_needed : NAN);
    jw_arr(w, RD_AK_CANDIDATES, false);
    if (kv->res.decision == RD_DECISION_INCONCLUSIVE)
        for (size_t i = 0; i < x->k; i++)
            if (kv->rows[i].verdict == RD_VERDICT_BEST ||
                kv->rows[i].verdict == RD_VERDICT_INCONCLUSIVE)
                jw_str(w, NULL, x->cs[i]->id);
    jw_end(w, ']');
}

static void write_recommendation(struct wctx *x, struct jw *w)
{
    const struct reco *rc = &x->rc;
    const struct rd_analysis *a = x->a;
    jw_obj(w, RD_AK_RECOMMENDATION, true);
    if (!rc->have) {
        jw_null(w, RD_AK_BEST);
        jw_arr(w, RD_AK_TIED, false);
        jw_end(w, ']');
        jw_null(w, RD_AK_RECOMMENDED);
        jw_null(w, RD_AK_REASON);
        jw_null(w, RD_AK_TIE_BREAKER);
        jw_str(w, RD_AK_DECISION, rd_decision_name(RD_DECISION_NO_DATA));
        jw_end(w, '}');
        return;
    }
    jw_str(w, RD_AK_BEST, rc->best != SIZE_MAX ? x->cs[rc->best]->id : NULL);
    jw_arr(w, RD_AK_TIED, false);
    for (size_t i = 0; i < rc->ntied; i++)
        jw_str(w, NULL, x->cs[rc->tied[i]]->id);
    jw_end(w, ']');
    jw_str(w, RD_AK_RECOMMENDED, rc->recommended != SIZE_MAX ? x->cs[rc->recommended]->id : NULL);
    jw_str(w, RD_AK_REASON, rc->reason);
    jw_str(w, RD_AK_TIE_BREAKER, rc->tie_metric >= 0 ? a->metrics[rc->tie_metric] : NULL);
    jw_str(w, RD_AK_METHOD, rd_pairs_wanted(x->w) ? "paired-log-ratio-range-mcb-tost"
                                                  : "log-ratio-range-mcb-tost");
    /* Only when set, so a workload without it keeps its bytes. */
    if (rd_pairs_wanted(x->w))
        jw_str(w, RD_AK_BLOCKS, "round");
    jw_num(w, RD_AK_MARGIN, rc->margin);
    jw_num(w, RD_AK_MAX_ERROR_RATE, rc->max_error_rate);
    jw_str(w, RD_AK_GUARDS, x->w->guards);
    /* The workload's sessions: each resumed collection is a look at the
     * data (methods.md §6a); absent for one, whose bytes stay as they were. */
    if (x->sess.n >= 2)
        jw_num(w, RD_AK_LOOKS, (double)x->sess.n);
    /* The level its verdicts spend at this look (looks.c), only when the
     * runs carry a planned maximum: without one it is alpha, and the
     * bytes of such an analysis stay as they were. A raced workload's
     * primary metric: its contenders' level (rd_settle_final_alpha). */
    if (x->looks.spend) {
        jw_num(w, RD_AK_ALPHA_LOOK, rd_collection_level(x, a->o.alpha, 0));
        jw_num(w, RD_AK_INFORMATION_FRACTION, x->looks.t);
        jw_num(w, RD_AK_INFORMATION_FRACTION_BEFORE, x->looks.t_prev);
    }
    write_decision(x, w, &rc->keys[0]);
    jw_obj(w, RD_AK_SETTLED_LABELS, false);
    for (size_t s = 0; s < rc->nsettled; s++)
        jw_str(w, rc->settled_keys[s], rc->settled_values[s]);
    jw_end(w, '}');
    jw_arr(w, RD_AK_OPEN_LABELS, false);
    for (size_t s = 0; s < rc->nopen; s++)
        jw_str(w, NULL, rc->open_keys[s]);
    jw_end(w, ']');
    write_verdicts(x, w, &rc->keys[0], true);
    if (rc->nkeys > 1) {
        jw_arr(w, RD_AK_KEY_METRICS, true);
        for (size_t m = 0; m < rc->nkeys; m++) {
            const struct key_verdicts *kv = &rc->keys[m];
            jw_obj(w, NULL, true);
            jw_str(w, RD_AK_METRIC, a->metrics[kv->metric]);
            jw_str(w, RD_AK_BETTER, rd_better_name(kv->better));
            jw_str(w, RD_AK_BEST, kv->res.best < x->k ? x->cs[kv->res.best]->id : NULL);
            jw_str(w, RD_AK_RECOMMENDED,
                   kv->recommended != SIZE_MAX ? x->cs[kv->recommended]->id : NULL);
            write_decision(x, w, kv);
            write_verdicts(x, w, kv, false);
            jw_end(w, '}');
        }
        jw_end(w, ']');
    }
    jw_end(w, '}');
}

/* The decisions per value of compare_within (within.c): the labels, and
 * per part its values, its configs and its own recommendation. */
static void write_within(struct wctx *x, struct jw *w)
{
    struct within *wi = x->within;
    if (!wi || !wi->nparts)
        return;
    jw_arr(w, RD_AK_COMPARE_WITHIN, false);
    for (size_t k = 0; k < wi->nkeys; k++)
        jw_str(w, NULL, wi->keys[k]);
    jw_end(w, ']');
    jw_str(w, RD_AK_COMPARE_WITHIN_FROM, wi->automatic ? "load_tools" : "setting");
    jw_arr(w, RD_AK_WITHIN, true);
    for (size_t p = 0; p < wi->nparts; p++) {
        struct within_part *part = &wi->parts[p];
        jw_obj(w, NULL, true);
        jw_obj(w, RD_AK_VALUES, false);
        for (size_t k = 0; k < wi->nkeys; k++)
            jw_str(w, wi->keys[k], part->values[k]);
        jw_end(w, '}');
        jw_arr(w, RD_AK_CONFIGS, false);
        for (size_t j = 0; j < part->n; j++)
            jw_str(w, NULL, part->sub.cs[j]->id);
        jw_end(w, ']');
        write_recommendation(&part->sub, w);
        jw_end(w, '}');
    }
    jw_end(w, ']');
}

/* Analyses workload wl and writes it as one member of an array to w: the
 * pool's per-workload writer (rd_workload_writer), on several threads. */
static rd_status workload_write(struct rd_analysis *a, const uint32_t *by_name, struct wl *wl,
                                struct jw *w)
{
    struct wctx x;
    rd_status st = rd_wctx_analyse(&x, a, by_name, wl);
    if (!st && x.ntested)
        st = rd_within_decide(&x);
    if (st)
        goto out;
    jw_obj(w, NULL, true);
    jw_str(w, RD_AK_NAME, wl->name);
    if (wl->base) {
        jw_str(w, RD_AK_BASE_WORKLOAD, wl->base);
        jw_str(w, RD_AK_MACHINE, wl->machine);
    }
    jw_str(w, RD_AK_CLASS, wl->class_);
    jw_obj(w, RD_AK_PRIMARY, false);
    jw_str(w, RD_AK_METRIC, x.have_primary ? a->metrics[x.primary] : NULL);
    jw_str(w, RD_AK_BETTER, rd_better_name(x.better));
    if (x.have_primary) {
        struct rd_metric_def def;
        rd_metric_describe(a->metrics[x.primary], &def);
        jw_str(w, RD_AK_UNIT, def.unit);
        jw_str(w, RD_AK_DISPLAY, def.display);
    }
    jw_end(w, '}');
    size_t env_unknown = 0;
    for (size_t i = 0; i < x.k; i++)
        env_unknown += x.cs[i]->env_unknown;
    if (env_unknown > 0)
        jw_num(w, RD_AK_ENV_UNKNOWN_RUNS, (double)env_unknown);
    /* How quiet the machine was over the workload's runs. */
    size_t runs = 0, contended = 0, unknown = 0;
    struct mfig others = {0, 0, NAN}, steal = {0, 0, NAN};
    double waited = 0, smin = NAN, wmin = NAN;
    size_t sn = 0, slow = 0, wn = 0, slow_wakeup = 0;
    for (size_t i = 0; i < x.k; i++) {
        const struct cfg *c = x.cs[i];
        runs += c->ok_runs + c->failed + c->timeouts + c->contended_left_out;
        contended += c->contended;
        unknown += rd_envs_check_quiet(a, c->env) ? 0 : c->contention_unknown;
        waited += c->waited_s;
        mfig_merge(&others, &c->others);
        mfig_merge(&steal, &c->steal);
        if (c->speed_n)
            smin = sn ? fmin(smin, c->speed_min) : c->speed_min;
        sn += c->speed_n;
        slow += c->slow_cpu;
        if (c->wake_n)
            wmin = wn ? fmin(wmin, c->wake_min) : c->wake_min;
        wn += c->wake_n;
        slow_wakeup += c->slow_wakeup;
    }
    jw_obj(w, RD_AK_CONTENTION, false);
    jw_num(w, RD_AK_RUNS, (double)runs);
    jw_num(w, RD_AK_CONTENDED_RUNS, (double)contended);
    jw_num(w, RD_AK_CONTENTION_UNKNOWN_RUNS, (double)unknown);
    jw_num(w, RD_AK_OTHERS_CPU_PCT_MEAN, others.n ? others.sum / (double)others.n : NAN);
    jw_num(w, RD_AK_OTHERS_CPU_PCT_MAX, others.max);
    jw_num(w, RD_AK_WAITED_S, waited);
    /* Hypervisor steal, only where a run measured it (added after the
     * keys above: analyses of stores without it stay as they were). */
    if (steal.n) {
        jw_num(w, RD_AK_STEAL_PCT_MEAN, steal.sum / (double)steal.n);
        jw_num(w, RD_AK_STEAL_PCT_MAX, steal.max);
    }
    if (sn) { /* runs collected with the CPU speed probe (docs/methods.md §6d) */
        jw_num(w, RD_AK_SPEED_PCT_MIN, smin);
        jw_num(w, RD_AK_SLOW_CPU_RUNS, (double)slow);
    }
    if (wn) { /* runs collected with the cross-CPU wake-up probe (§6d) */
        jw_num(w, RD_AK_WAKEUP_PCT_MIN, wmin);
        jw_num(w, RD_AK_SLOW_WAKEUP_RUNS, (double)slow_wakeup);
    }
    jw_end(w, '}');
    if (a->o.baseline_key) {
        jw_arr(w, RD_AK_BASELINE, false);
        for (size_t i = 0; i < x.k; i++)
            if (rd_cfg_is_baseline(a, x.cs[i]))
                jw_str(w, NULL, x.cs[i]->id);
        jw_end(w, ']');
    }
    jw_arr(w, RD_AK_CONFIGS, true);
    /* The warnings are collected here, after the workload's head is
     * written (they write nothing), so that a second thread can write
     * configs meanwhile. */
    st = write_items(&x, w, x.k, config_item, NULL, collect_warnings);
    if (st)
        goto out;
    jw_end(w, ']');
    if (x.ntested) {
        write_tests(&x, w, RD_AK_TESTS, 0);
        if (a->o.all_metrics) {
            jw_obj(w, RD_AK_TESTS_BY_METRIC, true);
            for (size_t ti = 0; ti < x.ntested; ti++)
                write_tests(&x, w, a->metrics[x.tested[ti]], ti);
            jw_end(w, '}');
        }
    } else {
        jw_null(w, RD_AK_TESTS);
    }
    write_recommendation(&x, w);
    write_within(&x, w);
    rd_collection_write(&x, w);
    rd_warnings_write(&x, w);
    jw_end(w, '}');
    st = w->st;
out:
    rd_within_release(x.within);
    rd_wctx_release(&x);
    return st;
}

/* The environments by id, each the object read with the store that named
 * it (ingest.c), or only its id when it had no file. */
static void write_envs(struct rd_analysis *a, struct jw *w)
{
    if (a->nenvs > 1)
        qsort(a->envs, a->nenvs, sizeof *a->envs, cmp_env);
    jw_arr(w, RD_AK_ENVIRONMENTS, true);
    for (size_t i = 0; i < a->nenvs; i++) {
        const struct envref *e = &a->envs[i];
        if (e->json) {
            jw_raw(w, NULL, e->json, e->json_len);
        } else {
            jw_obj(w, NULL, false);
            jw_str(w, RD_AK_ID, e->id);
            jw_end(w, '}');
        }
    }
    jw_end(w, ']');
}

/* The document into out; with a sink, out is handed to it whenever it
 * has grown past a mebibyte between workloads (pool.c), and the rest
 * stays in out. */
/* The document, from what the passes before it worked out (rep: the
 * published studies judged, NULL without --published). */
static rd_status write_body(struct rd_analysis *a, const struct rd_replication *rep,
                            const struct rd_machines *machines, struct rd_buf *out,
                            const struct rd_analysis_sink *sink, struct rd_diag *d)
{
    struct jw w;
    jw_init(&w, out);
    const struct rd_analyze_opts *o = &a->o;
    jw_obj(&w, NULL, true);
    jw_str(&w, RD_AK_SCHEMA, RD_ANALYSIS_SCHEMA);
    if (o->title)
        jw_str(&w, RD_AK_TITLE, o->title);
    jw_obj(&w, RD_AK_SETTINGS, true);
    jw_num(&w, RD_AK_ALPHA, o->alpha);
    jw_num(&w, RD_AK_CONFIDENCE, o->confidence);
    jw_num(&w, RD_AK_MARGIN, o->margin);
    jw_num(&w, RD_AK_MAX_ERROR_RATE, o->max_error_rate);
    jw_num(&w, RD_AK_BOOTSTRAP, (double)o->bootstrap);
    jw_num(&w, RD_AK_SEED, (double)o->seed);
    jw_str(&w, RD_AK_METRIC, o->metric);
    jw_bool(&w, RD_AK_ALL_METRICS, o->all_metrics);
    jw_bool(&w, RD_AK_EXCLUDE_OUTLIERS, o->exclude_outliers);
    jw_bool(&w, RD_AK_POOL_ENVS, o->pool_envs);
    if (o->baseline_key) {
        jw_obj(&w, RD_AK_BASELINE, false);
        jw_str(&w, o->baseline_key, o->baseline_val);
        jw_end(&w, '}');
    } else {
        jw_null(&w, RD_AK_BASELINE);
    }
    jw_str(&w, RD_AK_QUANTILES, "hyndman-fan-7");
    jw_str(&w, RD_AK_RATIO_CI, "fieller");
    jw_str(&w, RD_AK_ADJUST, "holm");
    jw_end(&w, '}');
    write_envs(a, &w);
    jw_arr(&w, RD_AK_INPUTS, true);
    for (size_t i = 0; i < a->ninputs; i++)
        jw_str(&w, NULL, a->inputs[i]);
    jw_end(&w, ']');

    jw_arr(&w, RD_AK_WORKLOADS, true);
    RD_TRY(rd_workloads_write(a, &w, workload_write, sink, d));
    jw_end(&w, ']');
    RD_TRY(rd_machines_write(machines, &w));
    if (rep)
        RD_TRY(rd_replication_write(a, rep, &w));
    RD_TRY(rd_embed_write(a, &w, d));
    jw_end(&w, '}');
    return w.st;
}

/* Replication and claims are worked out before the document is written
 * (issue 27): the writer only writes them. */
static rd_status write_document(struct rd_analysis *a, struct rd_buf *out,
                                const struct rd_analysis_sink *sink, struct rd_diag *d)
{
    RD_TRY(rd_machines_settle(a));
    RD_TRY(rd_pauses_find(a));
    RD_TRY(rd_analysis_apply_settings(a, d));
    RD_TRY(rd_pairs_check(a, d));
    RD_TRY(rd_within_check(a, d));
    struct rd_replication *rep = NULL;
    struct rd_machines *machines = NULL;
    rd_status st = a->o.published_dir ? rd_replication_judge(a, &rep, d) : RD_OK;
    if (!st)
        st = rd_machines_judge(a, &machines);
    if (!st)
        st = write_body(a, rep, machines, out, sink, d);
    rd_machines_free(machines);
    rd_replication_free(rep);
    return st;
}

rd_status rd_analysis_write(struct rd_analysis *a, struct rd_buf *out, struct rd_diag *d)
{
    return write_document(a, out, NULL, d);
}

rd_status rd_analysis_write_to(struct rd_analysis *a, const struct rd_analysis_sink *sink,
                               struct rd_diag *d)
{
    struct rd_buf rest = RD_BUF_INIT;
    rd_status st = write_document(a, &rest, sink, d);
    if (!st && rest.len)
        st = sink->write(sink->ctx, rest.ptr, rest.len, d);
    rd_buf_release(&rest);
    return st;
}
