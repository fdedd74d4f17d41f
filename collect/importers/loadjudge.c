/*
 * loadjudge - the one judge of a load run (see loadjudge.h).
 *
 * Three questions, each answered once: did the run fail (run_failed), what
 * went wrong (describe), and how often a request failed (rd_load_error_rate,
 * in core: the analysis derives old records' rates with it). A
 * tool's own counts reach all three through the tally, never through a
 * rule of its importer, so that "failed" and the error rate mean the same
 * for every tool and always come with their reason.
 */
#include <math.h>
#include <string.h>

#include "loadjudge.h"
#include "rundown/buf.h"

static struct rd_load_term term_of(const char *what, double count, const char *shown)
{
    return (struct rd_load_term){ .what = what, .count = count, .shown = shown };
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
    return t->stopped || any_fact(t) || rd_load_none_completed(t);
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
    const char *none = rd_load_none_completed(t) ? "no completed requests"
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
    double rate = rd_load_error_rate(t);
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
