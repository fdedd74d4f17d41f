/*
 * replicate.h - our measurements set against published summary figures
 * (replicate.c, --published): the "replication" members of the analysis.
 */
#ifndef RUNDOWN_ANALYZE_REPLICATE_H
#define RUNDOWN_ANALYZE_REPLICATE_H

#include "analysis_int.h"

struct jw;

/* The published studies read and judged (opaque: replicate.c). */
struct rd_replication;

/**
 * Reads every rundown.published/1 document of --published's folder (in
 * name order) into *out, and works out before anything is written what
 * the analysis says of them: each published figure set against our runs,
 * and the studies' claims judged (claims.c). RD_ERR_IO when the folder
 * cannot be opened; a document or figure that cannot be read fails naming
 * its file. Free *out with rd_replication_free, also on failure.
 */
rd_status rd_replication_judge(struct rd_analysis *a, struct rd_replication **out,
                               struct rd_diag *d);

/**
 * Writes what rd_replication_judge worked out: "replication":[...], the
 * claims ("replication_claims", "replication_summary"), then the ratio
 * claims across machines ("machine_claims", judged by crossmachine.c's
 * rd_machines_claims_judge within rd_replication_judge).
 */
rd_status rd_replication_write(struct rd_analysis *a, const struct rd_replication *rep,
                               struct jw *w);

void rd_replication_free(struct rd_replication *rep);

#endif
