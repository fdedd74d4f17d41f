/*
 * loadrate - a load run's counts and its error rate (see loadrate.h).
 *
 * The rate is computed here only, from a tally: collect's load judge
 * fills the tally from a tool's output, and rd_load_tally_of_record from
 * the counts a stored record of that tool holds, so a rate derived from
 * an old record is the one its importer would write today
 * (tests/unit/test_loadrate.c checks that on every sample).
 */
#include <math.h>
#include <string.h>

#include "rundown/loadrate.h"

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

static bool has_count(const struct rd_record *r, const char *metric)
{
    double v;
    return rd_record_metric(r, metric, &v) && !isnan(v);
}

/* The four socket-error counts of a record that stores them all (wrk's
 * kinds, which rundown's own records and bombardier use too). */
static void read_socket_errors(struct rd_load_tally *t, const struct rd_record *r)
{
    t->errors_connect = count_of(r, "errors_connect");
    t->errors_read = count_of(r, "errors_read");
    t->errors_write = count_of(r, "errors_write");
    t->errors_timeout = count_of(r, "errors_timeout");
}

void rd_load_tally_from_metrics(struct rd_load_tally *t, const struct rd_record *r,
                                unsigned in_requests)
{
    rd_load_tally_init(t);
    t->in_requests = in_requests;
    t->requests = count_of(r, "requests");
    read_socket_errors(t, r);
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

bool rd_load_none_completed(const struct rd_load_tally *t)
{
    return !isnan(t->requests) && !(t->requests > 0);
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

double rd_load_error_rate(const struct rd_load_tally *t)
{
    double failed = failed_requests(t);
    if (t->errors_unknown)
        return NAN;
    double attempted = !isnan(t->attempted) ? t->attempted
                                            : t->requests + failed_outside_requests(t);
    if (isnan(attempted))
        /* Completed requests not counted: none failed is a rate of 0
         * whatever their number, as long as some completed. */
        return failed == 0 && !rd_load_none_completed(t) && !t->stopped ? 0 : NAN;
    if (!(attempted > 0))
        return NAN;
    return failed >= attempted ? 1 : failed / attempted;
}

/* ---- a stored record's tally, tool by tool (docs/formats.md) ---- */

/* autocannon: errors - timeouts are connect errors (stored so), the
 * mismatched bodies are failed responses; the completed requests are
 * requests.total (JSON), else the text's 2xx + non-2xx responses, else
 * the text's exact "N requests in" are the attempts. The text footer's
 * rounded counts are info strings only: no exact rate then. */
static bool autocannon_tally(struct rd_load_tally *t, const struct rd_record *r)
{
    if (rd_record_info(r, "errors") || rd_record_info(r, "errors_timeout") ||
        rd_record_info(r, "mismatches"))
        return false;
    t->errors_connect = count_of(r, "errors_connect");
    t->errors_timeout = count_of(r, "errors_timeout");
    t->non_2xx = count_of(r, "non_2xx");
    rd_load_add_failed_responses(t, "mismatched responses", count_of(r, "mismatches"), NULL);
    double v;
    if (has_count(r, "status_2xx"))
        t->responses_2xx = count_of(r, "status_2xx");
    if (has_count(r, "requests")) {
        t->requests = count_of(r, "requests");
    } else {
        if (has_count(r, "status_2xx"))
            t->requests = count_of(r, "status_2xx") + t->non_2xx;
        else if (has_count(r, "requests_sent"))
            t->attempted = count_of(r, "requests_sent");
        if (!(rd_record_metric(r, "rps", &v) && v > 0))
            t->requests = 0;
    }
    return true;
}

/* bombardier: `requests` holds the others, which failed without a status
 * and are among the errors; errors of no known kind, and others beyond
 * the errors listed, are other errors. */
static bool bombardier_tally(struct rd_load_tally *t, const struct rd_record *r)
{
    if (!has_count(r, "requests"))
        return false;
    double others = count_of(r, "others"), errors = count_of(r, "errors");
    t->requests = count_of(r, "requests") - others;
    t->non_2xx = count_of(r, "non_2xx");
    t->responses_2xx = count_of(r, "status_2xx");
    read_socket_errors(t, r);
    double classified = t->errors_timeout + t->errors_connect + t->errors_read + t->errors_write;
    t->errors_other = (errors - classified) + (others > errors ? others - errors : 0);
    return true;
}

/* oha: the completed requests are the responses by status; requests cut
 * off at the deadline are neither failed nor attempted. */
static bool oha_tally(struct rd_load_tally *t, const struct rd_record *r)
{
    if (!has_count(r, "requests"))
        return false;
    double ok2xx = count_of(r, "status_2xx");
    t->non_2xx = count_of(r, "non_2xx");
    t->requests = ok2xx + t->non_2xx;
    t->responses_2xx = ok2xx;
    t->errors_timeout = count_of(r, "errors_timeout");
    t->errors_connect = count_of(r, "errors_connect");
    t->errors_other = count_of(r, "errors") - t->errors_timeout - t->errors_connect;
    return true;
}

/* k6: http_reqs (`requests`) are the attempts, the failed ones are
 * http_req_failed's passes (`requests_failed`). */
static bool k6_tally(struct rd_load_tally *t, const struct rd_record *r)
{
    double failed = count_of(r, "requests_failed");
    if (has_count(r, "requests")) {
        t->attempted = count_of(r, "requests");
        t->requests = t->attempted - failed;
    }
    rd_load_add_failed(t, "failed requests", failed, NULL);
    return true;
}

/* A record of no known load tool (none named, or one rundown has no
 * importer for) that holds the common counts: the judge's rule with
 * nothing known of the tool, every failed request outside the completed
 * ones. Without a request count and an error count it is no load run. */
static bool common_tally(struct rd_load_tally *t, const struct rd_record *r)
{
    static const char *const errors[] = { "errors_connect", "errors_read", "errors_write",
                                          "errors_timeout", "errors_other", "non_2xx" };
    bool counted = false;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        counted |= has_count(r, errors[i]);
    if (!counted || !has_count(r, "requests"))
        return false;
    rd_load_tally_from_metrics(t, r, 0);
    return true;
}

bool rd_load_tally_of_record(struct rd_load_tally *t, const struct rd_record *r)
{
    rd_load_tally_init(t);
    const char *tool = r->tool ? r->tool : "";
    /* Without a request count only autocannon's and k6's records have a
     * tally (below): every other record is turned away by one probe.
     * analyze asks this of every run that has no error_rate, nearly all
     * of them no load runs; the tool names and six error probes before it
     * were 3 % of the CPU of a first read of 10^6 runs. */
    if (!has_count(r, "requests") && strcmp(tool, "autocannon") != 0 &&
        strcmp(tool, "k6") != 0)
        return false;
    static const struct {
        const char *tool;
        unsigned in_requests;
    } common[] = {
        { "wrk", RD_LOAD_IN_REQUESTS_WRK },
        { "wrk2", RD_LOAD_IN_REQUESTS_WRK },
        { "ab", RD_LOAD_IN_REQUESTS_AB },
        { "hey", RD_LOAD_IN_REQUESTS_HEY },
    };
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++) {
        if (strcmp(tool, common[i].tool) != 0)
            continue;
        if (!has_count(r, "requests"))
            return false;
        rd_load_tally_from_metrics(t, r, common[i].in_requests);
        /* hey's csv leaves failed requests out: its records have no
         * errors_total. */
        t->errors_unknown = strcmp(tool, "hey") == 0 && !has_count(r, "errors_total");
        return true;
    }
    bool ok = strcmp(tool, "autocannon") == 0   ? autocannon_tally(t, r)
              : strcmp(tool, "bombardier") == 0 ? bombardier_tally(t, r)
              : strcmp(tool, "oha") == 0        ? oha_tally(t, r)
              : strcmp(tool, "k6") == 0         ? k6_tally(t, r)
                                                : common_tally(t, r);
    if (!ok)
        rd_load_tally_init(t);
    return ok;
}
