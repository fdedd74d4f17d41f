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
/* The workloads measured on several machines set side by side, worked
 * out before the document is written (issue 27): the writer only writes
 * them. */
struct rd_machines;

/** The "machines" entries: per workload measured on several machines,
 *  every config's ratio to the reference on each machine and across. */
rd_status rd_machines_judge(const struct rd_analysis *a, struct rd_machines **out);
/** The "machine_claims" entries: every ratio claim of the n published
 *  documents docs (read from files[i]) on a workload measured on several
 *  machines, its a over its b on each machine and across them. */
rd_status rd_machines_claims_judge(const struct rd_analysis *a, struct cJSON *const *docs,
                                   const char *const *files, size_t n,
                                   struct rd_machines **out);
/** Appends "machines" (of rd_machines_judge) when a workload was
 *  measured on several machines; nothing otherwise (or for m NULL). */
rd_status rd_machines_write(const struct rd_machines *m, struct jw *w);
/** Appends "machine_claims" (of rd_machines_claims_judge), likewise. */
rd_status rd_machines_claims_write(const struct rd_machines *m, struct jw *w);
void rd_machines_free(struct rd_machines *m);

#endif
