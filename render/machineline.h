/*
 * machineline.h - how quiet the machine was (machineline.c): one wording for
 * every back end
 */
#ifndef RD_RENDER_MACHINELINE_H
#define RD_RENDER_MACHINELINE_H

#include "model.h"

/**
 * How quiet the machine was over a workload's runs, the one wording every
 * back end uses: "machine: 0 of 120 runs contended; others used 0.8 % of a
 * CPU on average, at most 3.1 %", then steal, the wait for quiet and the
 * runs of unknown contention where there are any. Appends nothing when the
 * analysis says nothing of it. RD_ERR_NOMEM is the only failure.
 */
rd_status rd_machine_line(const struct rd_rworkload *w, struct rd_buf *out);

/**
 * The machine at the start of each collection, from the environments'
 * "Load average at start" and "Quiet at start" rows: "2.53 on 2 CPUs:
 * busy, quiet at start: no", one per environment with either, joined by
 * "; ". Appends nothing when no environment has them.
 */
rd_status rd_machine_start(const struct rd_report *r, struct rd_buf *out);

#endif
