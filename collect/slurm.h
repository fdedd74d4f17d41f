/*
 * slurm.h - a suite as a Slurm job array (`rundown-collect slurm`): the
 * job scripts, what DIR records of a collection (DIR/slurm.json), and the
 * answers of sinfo, scontrol and sbatch read back (slurm.c; what DIR/shards
 * holds is slurmdir.h).
 *
 * Nothing here runs a program or prints: the front end
 * (collect/tool/cmd_slurm.c) asks Slurm, hands the answers' text to the
 * parsers below, and writes what the script builders return. The layout
 * of DIR (docs/cluster.md):
 *
 *   DIR/slurm.json                   rundown.slurm/1: suite, file digest,
 *                                    tasks, seed, the jobs submitted
 *   DIR/slurm/tasks.sh, merge.sh     the job scripts; Slurm's output files
 *   DIR/shards/task<I>.<host>/       task I's store <suite>.jsonl, its
 *                                    env-<id>.json and logs/, on that host
 *   DIR/report/                      analysis.json and the report
 */
#ifndef RUNDOWN_SLURM_H
#define RUNDOWN_SLURM_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/analysis_keys.h"
#include "rundown/buf.h"
#include "rundown/status.h"

/** What the job scripts are made of. Strings are borrowed. */
struct rd_slurm_job {
    const char *suite_name;     /* the suite's name: its store is <name>.jsonl */
    const char *suite_path;     /* absolute path of SUITE.json */
    const char *suite_sha256;   /* its SHA-256, 64 hex digits: every task checks it */
    const char *dir;            /* absolute path of DIR */
    unsigned tasks;             /* array tasks = shards, >= 1 */
    unsigned throttle;          /* tasks running at once (%K); 0: no throttle */
    const char *partition;      /* NULL: the cluster's default */
    const char *time;           /* per task, as Slurm reads it; NULL: the partition's */
    const char *account;        /* NULL: the user's default */
    bool check;                 /* run `rundown-collect check` first */
    bool seed_given;            /* pass --seed to every task (order random) */
    unsigned long long seed;
    const char *collect, *analyze, *render;  /* the tools as the nodes find them */
};

/**
 * The array job's script: task I (SLURM_ARRAY_TASK_ID, 1..tasks) checks
 * the suite file's digest, runs `check` (with j->check), then `suite
 * --resume --shard I/N` into DIR/shards/task<I>.<host>, skipping the runs
 * an earlier attempt of task I stored on another host (--resume-from).
 * Appended to out.
 */
rd_status rd_slurm_task_script(const struct rd_slurm_job *j, struct rd_buf *out);

/** The merge job's script: analyze every shard's store, render the
 *  report into DIR/report. Appended to out. */
rd_status rd_slurm_merge_script(const struct rd_slurm_job *j, struct rd_buf *out);

/**
 * Refuses a path that a "#SBATCH" line cannot hold as it is: sbatch splits
 * those lines at blanks and reads quotes and backslashes, so a path with a
 * blank, a quote, a backslash or a control character is RD_ERR_USAGE with
 * d saying which ('what' names the path: "DIR").
 */
rd_status rd_slurm_check_path(const char *path, const char *what, struct rd_diag *d);

/**
 * Refuses a partition or account name Slurm would not take as one name
 * (empty, or other than letters, digits, '_', '-' and '.'): RD_ERR_USAGE,
 * naming the option ('what': "--partition").
 */
rd_status rd_slurm_check_name(const char *name, const char *what, struct rd_diag *d);

/**
 * Reads a time limit as sbatch --time does: "M", "M:S", "H:M:S", "D-H",
 * "D-H:M", "D-H:M:S", or "UNLIMITED" / "INFINITE" (any case). Minutes go to
 * *minutes, rounded up as Slurm rounds (seconds count as a whole minute);
 * -1 for no limit. False for anything else, and for 0 ("0" is no limit to
 * Slurm but reads as a mistake here).
 */
bool rd_slurm_parse_time(const char *s, long *minutes);

/** One partition as sinfo lists it. */
struct rd_slurm_partition {
    char name[128];
    long nodes;          /* summed over sinfo's lines of the partition */
    bool is_default;     /* sinfo marks it with '*' */
    long max_minutes;    /* its time limit; -1: none */
};

/** The partitions sinfo listed. */
struct rd_slurm_partitions {
    struct rd_slurm_partition *items;
    size_t len, cap;
};

void rd_slurm_partitions_init(struct rd_slurm_partitions *p);
void rd_slurm_partitions_release(struct rd_slurm_partitions *p);

/**
 * Reads the output of `sinfo --noheader --format='%P %D %l'`: a line per
 * partition and node state, "NAME[*] NODES TIMELIMIT" (TIMELIMIT "infinite"
 * or D-HH:MM:SS). Lines of one partition add up. RD_ERR_PARSE naming the
 * line when one is not of that form.
 */
rd_status rd_slurm_parse_sinfo(const char *text, size_t len, struct rd_slurm_partitions *out,
                               struct rd_diag *d);

/** The partition named name (NULL: the default one), or NULL. */
const struct rd_slurm_partition *rd_slurm_partition_find(const struct rd_slurm_partitions *p,
                                                         const char *name);

/**
 * The value of "KEY = VALUE" in the output of `scontrol show config`, as a
 * whole number: false when the key is absent or its value is not one.
 */
bool rd_slurm_config_number(const char *text, size_t len, const char *key, long *out);

/**
 * The job id that `sbatch --parsable` printed ("12" or "12;cluster"),
 * into id: false when the output is no such line.
 */
bool rd_slurm_parse_job_id(const char *text, size_t len, char *id, size_t size);

/** What DIR/slurm.json records. */
#define RD_SLURM_MAX_JOBS 64
struct rd_slurm_manifest {
    char suite[256];          /* the suite's name */
    char suite_file[4096];    /* the path it was planned from */
    char suite_sha256[65];
    unsigned tasks;
    bool seed_given;
    unsigned long long seed;
    char jobs[RD_SLURM_MAX_JOBS][32];  /* the last job ids submitted, oldest first */
    size_t njobs;
};

/**
 * Reads DIR/slurm.json's text. RD_ERR_PARSE with d naming path when it is
 * not a rundown.slurm/1 object with a suite, a digest and tasks >= 1.
 */
rd_status rd_slurm_manifest_parse(const char *text, size_t len, const char *path,
                                  struct rd_slurm_manifest *m, struct rd_diag *d);

/** Notes a submitted job's id (the oldest is forgotten past RD_SLURM_MAX_JOBS). */
void rd_slurm_manifest_add_job(struct rd_slurm_manifest *m, const char *id);

/** The manifest as JSON text (a line), appended to out. */
rd_status rd_slurm_manifest_json(const struct rd_slurm_manifest *m, struct rd_buf *out);

/**
 * The task that a folder of DIR/shards belongs to: "task<I>.<host>" gives
 * I (1-based); 0 when the name is not of that form.
 */
unsigned rd_slurm_shard_task(const char *folder);

/**
 * A list of task numbers for sbatch --array, ascending ("1-3,5,7-8"),
 * from want[1..n] (want[0] unused), followed by "%K" when throttle > 0.
 * Appended to out.
 */
rd_status rd_slurm_array_spec(const bool *want, unsigned n, unsigned throttle,
                              struct rd_buf *out);

#endif
