/*
 * crossmachine.h - claims across machines (crossmachine.c): one ratio per workload
 * measured on several machines, and the published claims about it
 */
#ifndef RUNDOWN_ANALYZE_CROSSMACHINE_H
#define RUNDOWN_ANALYZE_CROSSMACHINE_H

#include <stddef.h>

#include "analysis_int.h"

struct cJSON;
struct jw;

/** Names the first machine of every workload measured on several
 *  machines NAME@ENV, like the others (once, before anything is written). */
rd_status rd_machines_settle(struct rd_analysis *a);
/** Appends the "machines" member when a workload was measured on several
 *  machines; nothing otherwise. */
rd_status rd_machines_write(struct rd_analysis *a, struct jw *w);
/** Appends "machine_claims": every ratio claim of the n published
 *  documents docs (read from files[i]) on a workload measured on several
 *  machines, its a over its b on each machine and across them, shaped as
 *  a "machines" entry; nothing when no workload was measured on several. */
rd_status rd_machines_claims_write(struct rd_analysis *a, struct jw *w, struct cJSON *const *docs,
                                   const char *const *files, size_t n);

#endif
