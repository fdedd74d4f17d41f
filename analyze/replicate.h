/*
 * replicate.h - our measurements set against published summary figures
 * (replicate.c, --published): the "replication" members of the analysis.
 */
#ifndef RUNDOWN_ANALYZE_REPLICATE_H
#define RUNDOWN_ANALYZE_REPLICATE_H

#include "analysis_int.h"

struct jw;

/**
 * Reads every rundown.published/1 document of --published's folder (in
 * name order) and appends "replication":[...] (each published figure set
 * against our runs), then the studies' claims (claims.c) and the claims
 * across machines (crossmachine.c). RD_ERR_IO when the folder cannot be
 * opened; a document that cannot be read fails naming its file.
 */
rd_status rd_replication_write(struct rd_analysis *a, struct jw *w, struct rd_diag *d);

#endif
