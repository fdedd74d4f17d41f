/*
 * loadjudge.h - the one judge of a load run: "ok" or "failed", why, and
 * the run's error rate.
 *
 * Every importer of an HTTP load tool (wrk, wrk2, hey, ab, autocannon,
 * bombardier, oha, k6) ends each run here. It reads what its tool counted
 * into a struct rd_load_tally (rundown/loadrate.h, in core: the analysis
 * derives the error rate of old records with the same rule) and
 * rd_load_judge() sets the record's status, its metric error_rate, and
 * info saying what went wrong.
 *
 * A run that finished is a measurement: socket errors, timeouts and non-2xx
 * responses are counted, not disqualifying (the analysis judges an error
 * rate; collect only records). A run is "failed" only when no measurement
 * came out: the tool stopped without a report, a fact says a report is
 * missing, or no request completed. A failed run has info "failure"
 * ("socket errors: read 236; no completed requests"); an ok run with
 * errors has the same words in info "load_errors".
 *
 * error_rate is rd_load_error_rate() of the tally (loadrate.h). The rule
 * and its words live here only, so a run of any tool fails for the same
 * reasons, says so the same way, and has its error rate computed the same
 * way.
 */
#ifndef RUNDOWN_LOADJUDGE_H
#define RUNDOWN_LOADJUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/loadrate.h"
#include "rundown/record.h"
#include "rundown/status.h"

/**
 * Judges the run of r from t. Status "failed", with info "failure" saying
 * why, when the tool stopped without a report, a fact holds, or no request
 * completed; status "ok" otherwise, with info "load_errors" in the same
 * words when anything failed. The words read "socket errors: connect N,
 * read N, write N, timeout N, other N; non-2xx responses: N; <tool terms>;
 * <reasons>; no completed requests" (or "no 2xx responses"), naming only
 * what is there. Metric error_rate as above (null when it is unknown:
 * nothing attempted, or errors_unknown).
 */
rd_status rd_load_judge(struct rd_record *r, const struct rd_load_tally *t);

/** rd_load_tally_from_metrics() and rd_load_judge() in one call. */
rd_status rd_load_judge_metrics(struct rd_record *r, unsigned in_requests);

#endif
