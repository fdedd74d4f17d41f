/*
 * loadjudge - the one judge of a load run (see loadjudge.h).
 *
 * Two questions, each answered once: did the run fail (run_failed), and
 * what does the failure say (describe). A tool's own counts reach both
 * through the tally, never through a rule of its importer, so that "failed"
 * means the same for every tool and always comes with its reason.
 */
#include <math.h>
#include <string.h>

#include "loadjudge.h"
#include "rundown/buf.h"

void rd_load_tally_init(struct rd_load_tally *t)
{
    memset(t, 0, sizeof *t);
    t->requests = NAN;
    t->responses_2xx = NAN;
}

/* A count as the judge sums it: NaN ("not printed") and negatives are none. */
static double count_of(const struct rd_record *r, const char *metric)
{
    double v;
    return rd_record_metric(r, metric, &v) && v > 0 ? v : 0;
}

void rd_load_tally_from_metrics(struct rd_load_tally *t, const struct rd_record *r)
{
    rd_load_tally_init(t);
    t->requests = count_of(r, "requests");
    t->errors_connect = count_of(r, "errors_connect");
    t->errors_read = count_of(r, "errors_read");
    t->errors_write = count_of(r, "errors_write");
    t->errors_timeout = count_of(r, "errors_timeout");
    t->errors_other = count_of(r, "errors_other");
    t->non_2xx = count_of(r, "non_2xx");
}

static void add_term(struct rd_load_tally *t, struct rd_load_term *list, size_t *n,
                     const char *what, double count, const char *shown)
{
    if (*n == RD_LOAD_MAX_TERMS) {
        t->unnamed = true;
        return;
    }
    list[(*n)++] = (struct rd_load_term){ what, count, shown };
}

void rd_load_add_failed(struct rd_load_tally *t, const char *what, double count,
                        const char *shown)
{
    if (count > 0)
        add_term(t, t->failed, &t->nfailed, what, count, shown);
}

void rd_load_add_reason(struct rd_load_tally *t, const char *what, double count,
                        const char *shown)
{
    if (count > 0)
        add_term(t, t->reasons, &t->nreasons, what, count, shown);
}

void rd_load_add_fact(struct rd_load_tally *t, const char *what)
{
    add_term(t, t->reasons, &t->nreasons, what, NAN, NULL);
}

static double positive(double v)
{
    return v > 0 ? v : 0;
}

/* Every failed request the tally counts, whatever its kind. */
static double failed_requests(const struct rd_load_tally *t)
{
    double n = positive(t->errors_connect) + positive(t->errors_read) +
               positive(t->errors_write) + positive(t->errors_timeout) +
               positive(t->errors_other) + positive(t->non_2xx);
    for (size_t i = 0; i < t->nfailed; i++)
        n += positive(t->failed[i].count);
    return n;
}

/* Counted, and none: a tool that never got an answer has measured nothing. */
static bool none_completed(const struct rd_load_tally *t)
{
    return !isnan(t->requests) && !(t->requests > 0);
}

static bool no_2xx(const struct rd_load_tally *t)
{
    return !isnan(t->responses_2xx) && !(t->responses_2xx > 0);
}

/*
 * The rule. Any failed request fails the run: a tolerated error rate,
 * when it comes, replaces failed_requests(t) > 0 here and nowhere else.
 */
static bool run_failed(const struct rd_load_tally *t)
{
    return t->stopped || t->unnamed || t->nreasons > 0 || none_completed(t) || no_2xx(t) ||
           failed_requests(t) > 0;
}

/* "; what: count" (or "; what" for a fact) after what is there. */
static rd_status add_part(struct rd_buf *why, const struct rd_load_term *term)
{
    char num[32];
    if (why->len)
        RD_TRY(rd_buf_addstr(why, "; "));
    if (term->shown)
        return rd_buf_addf(why, "%s: %s", term->what, term->shown);
    if (isnan(term->count))
        return rd_buf_addstr(why, term->what);
    return rd_buf_addf(why, "%s: %s", term->what, rd_fmt_double(term->count, num));
}

/* The socket errors group: "socket errors: connect 2, timeout 10". */
static rd_status add_socket_errors(struct rd_buf *why, const struct rd_load_tally *t)
{
    const struct { const char *label; double count; } kinds[] = {
        { "connect", t->errors_connect }, { "read", t->errors_read },
        { "write", t->errors_write },     { "timeout", t->errors_timeout },
        { "other", t->errors_other },
    };
    bool any = false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        char num[32];
        if (!(kinds[i].count > 0))
            continue;
        RD_TRY(rd_buf_addf(why, "%s%s %s", any ? ", " : "socket errors: ", kinds[i].label,
                           rd_fmt_double(kinds[i].count, num)));
        any = true;
    }
    return RD_OK;
}

static rd_status describe(struct rd_buf *why, const struct rd_load_tally *t)
{
    if (t->stopped)
        return rd_buf_addstr(why, *t->stopped ? t->stopped
                                              : "the load tool stopped without a report");
    RD_TRY(add_socket_errors(why, t));
    if (t->non_2xx > 0) {
        struct rd_load_term term = { "non-2xx responses", t->non_2xx, NULL };
        RD_TRY(add_part(why, &term));
    }
    for (size_t i = 0; i < t->nfailed; i++)
        RD_TRY(add_part(why, &t->failed[i]));
    for (size_t i = 0; i < t->nreasons; i++)
        RD_TRY(add_part(why, &t->reasons[i]));
    if (t->unnamed) {
        struct rd_load_term term = { "more failures than one message names", NAN, NULL };
        RD_TRY(add_part(why, &term));
    }
    /* "No 2xx response" says nothing more when nothing completed at all. */
    const char *none = none_completed(t) ? "no completed requests"
                       : no_2xx(t)       ? "no 2xx responses"
                                         : NULL;
    if (none) {
        struct rd_load_term term = { none, NAN, NULL };
        RD_TRY(add_part(why, &term));
    }
    return RD_OK;
}

rd_status rd_load_judge(struct rd_record *r, const struct rd_load_tally *t)
{
    if (!run_failed(t))
        return rd_record_set(r, &r->status, "ok");
    struct rd_buf why = RD_BUF_INIT;
    rd_status s = describe(&why, t);
    if (!s)
        s = rd_record_set(r, &r->status, "failed");
    if (!s)
        s = rd_record_set_info(r, "failure", why.ptr);
    rd_buf_release(&why);
    return s;
}

rd_status rd_load_judge_metrics(struct rd_record *r)
{
    struct rd_load_tally t;
    rd_load_tally_from_metrics(&t, r);
    return rd_load_judge(r, &t);
}
