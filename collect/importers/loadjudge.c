/*
 * loadjudge - the one judge of a load run (see loadjudge.h).
 *
 * Three questions, each answered once: did the run fail (run_failed), what
 * went wrong (describe), and how often a request failed (error_rate). A
 * tool's own counts reach all three through the tally, never through a
 * rule of its importer, so that "failed" and the error rate mean the same
 * for every tool and always come with their reason.
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
    t->attempted = NAN;
}

/* A count as the judge sums it: NaN ("not printed") and negatives are none. */
static double count_of(const struct rd_record *r, const char *metric)
{
    double v;
    return rd_record_metric(r, metric, &v) && v > 0 ? v : 0;
}

void rd_load_tally_from_metrics(struct rd_load_tally *t, const struct rd_record *r,
                                unsigned in_requests)
{
    rd_load_tally_init(t);
    t->in_requests = in_requests;
    t->requests = count_of(r, "requests");
    t->errors_connect = count_of(r, "errors_connect");
    t->errors_read = count_of(r, "errors_read");
    t->errors_write = count_of(r, "errors_write");
    t->errors_timeout = count_of(r, "errors_timeout");
    t->errors_other = count_of(r, "errors_other");
    t->non_2xx = count_of(r, "non_2xx");
}

static void add_term(struct rd_load_tally *t, struct rd_load_term *list, size_t *n,
                     struct rd_load_term term)
{
    if (*n == RD_LOAD_MAX_TERMS) {
        t->unnamed = true;
        t->unnamed_fatal |= term.fatal;
        return;
    }
    list[(*n)++] = term;
}

static struct rd_load_term term_of(const char *what, double count, const char *shown)
{
    return (struct rd_load_term){ .what = what, .count = count, .shown = shown };
}

void rd_load_add_failed(struct rd_load_tally *t, const char *what, double count,
                        const char *shown)
{
    if (count > 0)
        add_term(t, t->failed, &t->nfailed, term_of(what, count, shown));
}

void rd_load_add_failed_responses(struct rd_load_tally *t, const char *what, double count,
                                  const char *shown)
{
    struct rd_load_term term = term_of(what, count, shown);
    term.answered = true;
    if (count > 0)
        add_term(t, t->failed, &t->nfailed, term);
}

void rd_load_add_reason(struct rd_load_tally *t, const char *what, double count,
                        const char *shown)
{
    if (count > 0)
        add_term(t, t->reasons, &t->nreasons, term_of(what, count, shown));
}

void rd_load_add_fact(struct rd_load_tally *t, const char *what)
{
    struct rd_load_term term = term_of(what, NAN, NULL);
    term.fatal = true;
    add_term(t, t->reasons, &t->nreasons, term);
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

static bool any_fact(const struct rd_load_tally *t)
{
    for (size_t i = 0; i < t->nreasons; i++)
        if (t->reasons[i].fatal)
            return true;
    return t->unnamed_fatal;
}

/*
 * The rule: a run fails only when no measurement came out. Failed requests
 * are data (error_rate); the analysis decides what rate disqualifies.
 */
static bool run_failed(const struct rd_load_tally *t)
{
    return t->stopped || any_fact(t) || none_completed(t);
}

/* The failed requests the completed ones leave out: added to them, they
 * make the attempted requests. */
static double failed_outside_requests(const struct rd_load_tally *t)
{
    const struct { unsigned kind; double count; } kinds[] = {
        { RD_LOAD_IN_REQUESTS_CONNECT, t->errors_connect },
        { RD_LOAD_IN_REQUESTS_READ, t->errors_read },
        { RD_LOAD_IN_REQUESTS_WRITE, t->errors_write },
        { RD_LOAD_IN_REQUESTS_TIMEOUT, t->errors_timeout },
        { RD_LOAD_IN_REQUESTS_OTHER, t->errors_other },
    };
    double n = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!(t->in_requests & kinds[i].kind))
            n += positive(kinds[i].count);
    for (size_t i = 0; i < t->nfailed; i++)
        if (!t->failed[i].answered)
            n += positive(t->failed[i].count);
    return n;
}

/* Failed / attempted requests, at most 1; NaN when it cannot be known. */
static double error_rate(const struct rd_load_tally *t)
{
    double failed = failed_requests(t);
    if (t->errors_unknown)
        return NAN;
    double attempted = !isnan(t->attempted) ? t->attempted
                                            : t->requests + failed_outside_requests(t);
    if (isnan(attempted))
        /* Completed requests not counted: none failed is a rate of 0
         * whatever their number, as long as some completed. */
        return failed == 0 && !none_completed(t) && !t->stopped ? 0 : NAN;
    if (!(attempted > 0))
        return NAN;
    return failed >= attempted ? 1 : failed / attempted;
}

/* Rounded counts (the text footer's "2k") make the rate approximate. */
static rd_status note_rounded(struct rd_record *r, const struct rd_load_tally *t)
{
    struct rd_buf note = RD_BUF_INIT;
    rd_status s = RD_OK;
    for (size_t i = 0; i < t->nfailed && !s; i++)
        if (t->failed[i].shown)
            s = rd_buf_addf(&note, "%s%s %s", note.len ? ", " : "approximate: the tool "
                            "rounded ", t->failed[i].what, t->failed[i].shown);
    if (!s && note.len)
        s = rd_record_set_info(r, "error_rate_note", note.ptr);
    rd_buf_release(&note);
    return s;
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
        struct rd_load_term term = term_of("non-2xx responses", t->non_2xx, NULL);
        RD_TRY(add_part(why, &term));
    }
    for (size_t i = 0; i < t->nfailed; i++)
        RD_TRY(add_part(why, &t->failed[i]));
    for (size_t i = 0; i < t->nreasons; i++)
        RD_TRY(add_part(why, &t->reasons[i]));
    if (t->unnamed) {
        struct rd_load_term term = term_of("more failures than one message names", NAN, NULL);
        RD_TRY(add_part(why, &term));
    }
    /* "No 2xx response" says nothing more when nothing completed at all. */
    const char *none = none_completed(t) ? "no completed requests"
                       : no_2xx(t)       ? "no 2xx responses"
                                         : NULL;
    if (none) {
        struct rd_load_term term = term_of(none, NAN, NULL);
        RD_TRY(add_part(why, &term));
    }
    return RD_OK;
}

rd_status rd_load_judge(struct rd_record *r, const struct rd_load_tally *t)
{
    double rate = error_rate(t);
    RD_TRY(rd_record_set_metric(r, "error_rate", rate));
    if (!isnan(rate))
        RD_TRY(note_rounded(r, t));
    bool failed = run_failed(t);
    struct rd_buf why = RD_BUF_INIT;
    rd_status s = describe(&why, t);
    if (!s)
        s = rd_record_set(r, &r->status, failed ? "failed" : "ok");
    if (!s && (failed || why.len))
        s = rd_record_set_info(r, failed ? "failure" : "load_errors", why.ptr);
    rd_buf_release(&why);
    return s;
}

rd_status rd_load_judge_metrics(struct rd_record *r, unsigned in_requests)
{
    struct rd_load_tally t;
    rd_load_tally_from_metrics(&t, r, in_requests);
    return rd_load_judge(r, &t);
}
