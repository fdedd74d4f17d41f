/*
 * plan.h - the run plan of a suite: every run it asks for, in the order
 * they run (docs/suite.md, Order), and the filters --shard, --only and
 * --resume apply to it (plan.c).
 *
 * The plan is a pure function of the suite and its seed, so two machines
 * given the same file and seed number the runs identically (--shard relies
 * on it) and a resumed collection sees the same keys it stored before.
 */
#ifndef RUNDOWN_PLAN_H
#define RUNDOWN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "suite.h"
#include "rundown/status.h"

/* The most runs (warmups included) one suite may plan; at 2 ms per run, the
 * cost of starting `true` here, that is over five hours. */
#define RD_PLAN_MAX 10000000

/** The runs the plan of s holds: configs x (runs + warmups), warmups for
 * command workloads only, summed over the workloads (a double: a suite
 * being checked may ask for more than any integer holds). */
double rd_suite_planned_runs(const struct rd_suite *s);

struct rd_plan_item {
    size_t workload, config;
    bool warmup;      /* a warmup run of a command workload */
    long run;         /* 1-based, in execution order per config and phase */
    long measured_no; /* 0-based number among measured runs of the whole plan; -1 for warmups */
    long round;       /* a run made again in place of a contended one: the round (run
                         number) of the run it replaces, stored as info "round"; 0 none */
};

struct rd_plan {
    struct rd_plan_item *items;
    size_t len, cap;
    uint64_t seed;
};

/** An empty plan. */
void rd_plan_init(struct rd_plan *p);
/** Frees the items; the plan is left empty and usable. */
void rd_plan_release(struct rd_plan *p);

/** Makes dst (initialised, perhaps used before) a copy of src, reusing
 *  its room. RD_ERR_NOMEM leaves dst as it was. */
rd_status rd_plan_copy(struct rd_plan *dst, const struct rd_plan *src);

/** Expands the suite into its full, ordered plan (see docs/suite.md, Order). */
rd_status rd_plan_build(const struct rd_suite *s, struct rd_plan *p, struct rd_diag *d);

/**
 * Keeps the measured runs whose measured_no mod n == i-1, and the warmups of
 * every (workload, config) that keeps a measured run, in O(len log len).
 * RD_ERR_USAGE unless 1 <= i <= n; RD_ERR_NOMEM.
 */
rd_status rd_plan_shard(struct rd_plan *p, unsigned i, unsigned n);

/**
 * Keeps the items whose workload name or "workload/config-id" matches the
 * fnmatch(3) pattern.
 */
rd_status rd_plan_only(const struct rd_suite *s, struct rd_plan *p, const char *pattern);

struct rd_run_index;

/**
 * Drops the items whose key (suite, workload, config, phase, run) is in
 * the index: what --resume skips.
 */
rd_status rd_plan_drop_stored(const struct rd_suite *s, struct rd_plan *p,
                              const struct rd_run_index *ix);

/** Parses "I/N" with 1 <= I <= N. */
bool rd_shard_parse(const char *arg, unsigned *i, unsigned *n);

/** The next number of a xorshift64* generator (state must not be 0). */
uint64_t rd_xorshift64s(uint64_t *state);

#endif
