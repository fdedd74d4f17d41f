/*
 * optable.h - the option tables of rundown-collect and its subcommands
 * (rundown/opts.h): what each front end parses, what --help prints and
 * what the man page lists. Apart from the front ends so that the man page
 * generator links the tables alone.
 */
#ifndef RUNDOWN_COLLECT_OPTABLE_H
#define RUNDOWN_COLLECT_OPTABLE_H

#include "rundown/opts.h"

/* Codes of long options that have no letter of their own (rd_opt.code). */
enum {
    CO_TIMEOUT = 256, CO_SHELL, CO_PREPARE, CO_CLEANUP, CO_CPUS, CO_LOG_DIR, CO_ENV,
    CO_NAMES, CO_SAMPLE, CO_RESUME, CO_EXPORT_MD, CO_EXPORT_JSON, CO_EXPORT_CSV, CO_BETTER, CO_PHASE,
    CO_ALLOW_DUP, CO_SERVER, CO_URL, CO_READY_URL, CO_WARMUP_LOAD, CO_READY_TIMEOUT,
    CO_STOP_TIMEOUT, CO_SERVER_CPUS, CO_LOAD_CPUS, CO_BACKGROUND, CO_BACKGROUND_CPUS,
    CO_FRESH, CO_ONLY, CO_SHARD, CO_DRY_RUN, CO_BUDGET, CO_SEED, CO_RESUME_FROM, CO_TASKS,
    CO_PARTITION, CO_TIME, CO_ACCOUNT, CO_NO_CHECK, CO_SUBMIT, CO_WORKLOAD, CO_SUITE,
    CO_OLD_W, CO_CONTENTION, CO_CONTENTION_THRESHOLD, CO_CONTENTION_WAIT, CO_MIN_SPEED,
    CO_MIN_WAKEUP,
    CO_WINDOW, CO_JSON, CO_PROC_ROOT, CO_SYS_ROOT, CO_SHOW_OUTPUT, CO_REFERENCE,
    CO_CACHE_DIR, CO_NO_SPEED_MEMORY, CO_FORGET_SPEED,
};

extern const struct rd_cmd_spec rd_collect_spec_run, rd_collect_spec_import,
    rd_collect_spec_http, rd_collect_spec_suite, rd_collect_spec_slurm, rd_collect_spec_env,
    rd_collect_spec_check;

/** Every subcommand's table, in the order of the man page; *n is set. */
const struct rd_cmd_spec *const *rd_collect_specs(size_t *n);

#endif
