/*
 * wrkdone.h - the numbers of a wrk Lua done() script's JSON (wrkdone.c)
 */
#ifndef RUNDOWN_WRKDONE_H
#define RUNDOWN_WRKDONE_H

#include "rundown/record.h"
#include "rundown/status.h"

struct cJSON;

/**
 * Takes the numbers of a Lua done() script's JSON documented in
 * docs/formats.md (keys duration_us, requests, bytes, errors{},
 * latency_us{}, rps{}) into r, in place of the text values of the same
 * quantity, and notes info "script_output" when any was used. Unknown keys
 * are ignored; a script of another shape simply adds nothing.
 */
rd_status rd_wrk_apply_done_json(const struct cJSON *root, struct rd_record *r);

#endif
