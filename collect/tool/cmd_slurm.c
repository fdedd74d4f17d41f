/*
 * slurm - `rundown-collect slurm`: a suite as a Slurm job array.
 *
 * Order of work: read the command line; load the suite and plan it; read
 * what DIR already holds (DIR/slurm.json, the shards' stores); ask Slurm
 * (sinfo, scontrol) whether it would take the options; and only then
 * write the job scripts (collect/slurm.c) and, with --submit, run sbatch.
 * Everything Slurm would refuse is refused here first, with the reason,
 * so that nothing is queued that cannot run. This file reads the command
 * line, runs Slurm's commands and prints.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "optable.h"
#include "plan.h"
#include "proc.h"
#include "runindex.h"
#include "slurm.h"
#include "slurmdir.h"
#include "suite.h"
#include "rundown/cli.h"
#include "rundown/contract.h"
#include "rundown/fsutil.h"
#include "rundown/sha256.h"
#include "rundown/units.h"

/* Everything the command line says. */
struct slurm_args {
    const char *suite_file, *dir, *partition, *time, *account;
    unsigned tasks;             /* 0: not given */
    bool check, resume, submit, dry;
};

static int parse_args(int argc, char **argv, struct slurm_args *a)
{
    memset(a, 0, sizeof *a);
    a->check = true;
    int c;
    struct rd_opts p;
    rd_opts_begin(&p, &rd_collect_spec_slurm, argc, argv);
    while ((c = rd_opts_next(&p)) >= 0) {
        char *arg = rd_opts_arg(&p);
        switch (c) {
        case 'o': a->dir = arg; break;
        case CO_TASKS: {
            unsigned long long n;
            if (rd_parse_uint(arg, strlen(arg), &n) != RD_OK || n < 1 || n > 1000000)
                return rd_usage_error("expected --tasks N, a whole number >= 1, got '%s'",
                                      arg);
            a->tasks = (unsigned)n;
            break;
        }
        case CO_PARTITION: a->partition = arg; break;
        case CO_TIME: a->time = arg; break;
        case CO_ACCOUNT: a->account = arg; break;
        case CO_NO_CHECK: a->check = false; break;
        case CO_RESUME: a->resume = true; break;
        case CO_SUBMIT: a->submit = true; break;
        case CO_DRY_RUN: a->dry = true; break;
        }
    }
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p) == RD_EXIT_OK ? -1 : rd_opts_exit_code(&p);
    int next = rd_opts_index(&p);
    if (next + 1 != argc)
        return rd_usage_error("slurm needs exactly one SUITE.json");
    a->suite_file = argv[next];
    if (!a->dir)
        return rd_usage_error("slurm needs -o DIR: the folder of the collection");
    if (a->submit && a->dry)
        return rd_usage_error("--submit and --dry-run exclude each other");
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    long minutes;
    if (a->time && !rd_slurm_parse_time(a->time, &minutes))
        return rd_usage_error("expected --time as sbatch reads it (MINUTES, M:S, H:M:S, D-H, "
                              "D-H:M, D-H:M:S or UNLIMITED), got '%s'", a->time);
    if ((a->partition && rd_slurm_check_name(a->partition, "--partition", &d)) ||
        (a->account && rd_slurm_check_name(a->account, "--account", &d)))
        return rd_usage_error("%s", d.msg);
    return 0;
}

/* An absolute form of path (which may not exist yet), without "/./" or a
 * trailing '/'. False when it does not fit. */
static bool absolute_path(const char *path, char *out, size_t size)
{
    char cwd[PATH_MAX];
    if (realpath(path, out) && strlen(out) < size)
        return true;
    if (path[0] == '/')
        return snprintf(out, size, "%s", path) < (int)size;
    if (!getcwd(cwd, sizeof cwd))
        return false;
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    int n = snprintf(out, size, "%s/%s", cwd, path);
    if (n < 0 || (size_t)n >= size)
        return false;
    for (size_t len = strlen(out); len > 1 && out[len - 1] == '/';)
        out[--len] = '\0';
    return true;
}

/* The path of a rundown tool for the nodes: beside this program (an
 * installed tree), in its build-tree folder, or on PATH; else its name, for
 * the nodes' PATH. */
static void tool_path(const char *self_dir, const char *tool, const char *build_dir,
                      char *out, size_t size)
{
    char try[PATH_MAX + 64];
    snprintf(try, sizeof try, "%s/%s", self_dir, tool);
    if (access(try, X_OK) == 0 && snprintf(out, size, "%s", try) < (int)size)
        return;
    snprintf(try, sizeof try, "%s/../%s/%s", self_dir, build_dir, tool);
    char real[PATH_MAX];
    if (access(try, X_OK) == 0 && realpath(try, real) &&
        snprintf(out, size, "%s", real) < (int)size)
        return;
    if (rd_which(tool, out, size))
        return;
    snprintf(out, size, "%s", tool);
}

/*
 * Runs a Slurm command and keeps its output in *out (the caller
 * releases it). Returns 0, or an exit code with the message printed (the
 * command's stderr with it) when it could not run or exited non-zero.
 */
static int slurm_run(char *const *argv, struct rd_proc *out)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (rd_proc_run_capture(out, argv, NULL, 60, 1 << 20, &d) != RD_OK)
        return rd_error("%s: %s", argv[0], d.msg), RD_EXIT_SYSTEM;
    int rc = rd_proc_exit_code(out);
    if (rc == 0 && !out->timed_out)
        return 0;
    char how[96];
    rd_proc_describe_exit(out, how, sizeof how);
    const struct rd_buf *err = &out->err.keep;
    rd_error("%s failed (%s)%s%.*s", argv[0], out->timed_out ? "timed out after 60 s" : how,
             err->len ? ": " : "", (int)(err->len && err->ptr[err->len - 1] == '\n'
                                         ? err->len - 1 : err->len), err->len ? err->ptr : "");
    rd_proc_release(out);
    return RD_EXIT_SYSTEM;
}

/* What Slurm says of the partition the jobs go to. */
struct slurm_site {
    bool known;           /* sinfo answered */
    char partition[128];  /* the partition the jobs go to ("" when unknown) */
    long nodes;           /* its nodes */
    long max_minutes;     /* its time limit, -1 none */
    long max_array;       /* MaxArraySize, 0 when unknown */
};

/* Asks sinfo (and scontrol) about the partition: refuses one that sinfo
 * does not list, a --time beyond its limit, --tasks beyond MaxArraySize.
 * Without sinfo on PATH nothing is known (site->known false). */
static int ask_site(const struct slurm_args *a, struct slurm_site *site)
{
    memset(site, 0, sizeof *site);
    char path[PATH_MAX];
    if (!rd_which("sinfo", path, sizeof path))
        return 0;
    struct rd_proc p;
    char *sinfo[] = {"sinfo", "--noheader", "--format=%P %D %l", NULL};
    int rc = slurm_run(sinfo, &p);
    if (rc)
        return rc;
    struct rd_slurm_partitions parts;
    rd_slurm_partitions_init(&parts);
    struct rd_diag d;
    rd_diag_init(&d, "sinfo");
    rd_status st = rd_slurm_parse_sinfo(p.out.keep.ptr ? p.out.keep.ptr : "", p.out.keep.len,
                                        &parts, &d);
    rd_proc_release(&p);
    if (st) {
        rd_slurm_partitions_release(&parts);
        return rd_fail(st, &d);
    }
    const struct rd_slurm_partition *part = rd_slurm_partition_find(&parts, a->partition);
    if (!part) {
        struct rd_buf names = RD_BUF_INIT;
        for (size_t i = 0; i < parts.len; i++)
            rd_buf_addf(&names, "%s%s", i ? ", " : "", parts.items[i].name);
        if (a->partition)
            rc = rd_usage_error("the partition '%s' is not one sinfo lists (%s)", a->partition,
                                names.len ? names.ptr : "none");
        else
            rc = rd_usage_error("sinfo lists no default partition (%s): give --partition",
                                names.len ? names.ptr : "none");
        rd_buf_release(&names);
        rd_slurm_partitions_release(&parts);
        return rc;
    }
    site->known = true;
    snprintf(site->partition, sizeof site->partition, "%s", part->name);
    site->nodes = part->nodes;
    site->max_minutes = part->max_minutes;
    rd_slurm_partitions_release(&parts);
    long minutes;
    if (a->time && rd_slurm_parse_time(a->time, &minutes) && site->max_minutes >= 0 &&
        (minutes < 0 || minutes > site->max_minutes))
        return rd_usage_error("--time %s is longer than the partition '%s' allows (%ld "
                              "minutes, sinfo): Slurm would never start the tasks",
                              a->time, site->partition, site->max_minutes);
    if (site->nodes < 1)
        return rd_usage_error("the partition '%s' has no nodes (sinfo)", site->partition);
    char *show[] = {"scontrol", "show", "config", NULL};
    if (rd_which("scontrol", path, sizeof path) && slurm_run(show, &p) == 0) {
        if (!rd_slurm_config_number(p.out.keep.ptr ? p.out.keep.ptr : "", p.out.keep.len,
                                    "MaxArraySize", &site->max_array))
            site->max_array = 0;
        rd_proc_release(&p);
    }
    return 0;
}

/* The SHA-256 of the suite file as 64 hex digits. */
static rd_status file_sha256(const char *path, char hex[65], struct rd_diag *d)
{
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = rd_read_file(path, (size_t)64 << 20, &b, d);
    if (!st)
        rd_sha256_hex(b.ptr ? b.ptr : "", b.len, hex);
    rd_buf_release(&b);
    return st;
}

/* Reads DIR/slurm.json when there is one (*have). */
static rd_status read_manifest(const char *path, struct rd_slurm_manifest *m, bool *have,
                               struct rd_diag *d)
{
    struct stat sb;
    *have = stat(path, &sb) == 0;
    if (!*have)
        return RD_OK;
    struct rd_buf b = RD_BUF_INIT;
    rd_diag_init(d, path);
    rd_status st = rd_read_file(path, 1 << 20, &b, d);
    if (!st)
        st = rd_slurm_manifest_parse(b.ptr ? b.ptr : "", b.len, path, m, d);
    rd_buf_release(&b);
    return st;
}

/* Whether one of the manifest's jobs is still queued or running
 * (squeue lists it): a second submission would run the same shards twice
 * at once. Unknown (no squeue, an error) counts as not queued. */
static bool jobs_queued(const struct rd_slurm_manifest *m, char *which, size_t size)
{
    char path[PATH_MAX];
    if (!m->njobs || !rd_which("squeue", path, sizeof path))
        return false;
    struct rd_buf ids = RD_BUF_INIT;
    for (size_t i = 0; i < m->njobs; i++)
        rd_buf_addf(&ids, "%s%s", i ? "," : "", m->jobs[i]);
    char jobs[64 * 40];
    snprintf(jobs, sizeof jobs, "--jobs=%s", ids.ptr ? ids.ptr : "");
    rd_buf_release(&ids);
    char *argv[] = {"squeue", "--noheader", "--format=%A", jobs, NULL};
    struct rd_proc p;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (rd_proc_run_capture(&p, argv, NULL, 60, 65536, &d) != RD_OK)
        return false;
    bool queued = false;
    const struct rd_buf *o = &p.out.keep;
    if (rd_proc_exit_code(&p) == 0 && o->len)
        queued = rd_slurm_parse_job_id(o->ptr, o->len, which, size);
    rd_proc_release(&p);
    return queued;
}

/* Writes a file whole (temporary name, rename), mode 0755 for a script. */
static rd_status write_out(const char *path, const struct rd_buf *b, bool script,
                           struct rd_diag *d)
{
    RD_TRY(rd_write_file_atomic(path, b->ptr ? b->ptr : "", b->len, d));
    if (script && chmod(path, 0755) != 0)
        return rd_diag_set(d, RD_ERR_IO, path, 0, 0, "chmod: %s", strerror(errno));
    return RD_OK;
}

/* Submits a script with sbatch (the options before it): its job id to id. */
static int sbatch(char *const *opts, size_t nopts, const char *script, char *id, size_t size)
{
    char *argv[8] = {"sbatch", "--parsable"};
    size_t n = 2;
    for (size_t i = 0; i < nopts && n < 6; i++)
        argv[n++] = opts[i];
    argv[n++] = (char *)script;
    argv[n] = NULL;
    struct rd_proc p;
    int rc = slurm_run(argv, &p);
    if (rc)
        return rc;
    bool ok = rd_slurm_parse_job_id(p.out.keep.ptr ? p.out.keep.ptr : "", p.out.keep.len, id,
                                    size);
    rd_proc_release(&p);
    if (!ok)
        return rd_error("sbatch printed no job id for %s", script), RD_EXIT_SYSTEM;
    return 0;
}

/* The work of the command once the arguments are read. */
struct slurm_work {
    struct slurm_args a;
    struct rd_suite s;
    struct rd_plan plan;
    struct rd_slurm_manifest m;
    bool have_manifest;
    struct slurm_site site;
    struct rd_run_index *ix;    /* [tasks + 1] with --resume */
    bool *want;                 /* [tasks + 1]: tasks to queue */
    size_t *left;
    char suite_path[PATH_MAX], dir[PATH_MAX], manifest[PATH_MAX + 32];
    char tasks_sh[PATH_MAX + 32], merge_sh[PATH_MAX + 32];
    char collect[PATH_MAX], analyze[PATH_MAX], render[PATH_MAX];
};

/* Loads and plans the suite, and checks it can be split into a.tasks. */
static int plan_suite(struct slurm_work *w)
{
    struct rd_diag d;
    rd_diag_init(&d, w->a.suite_file);
    rd_status st = rd_contract_expect(w->a.suite_file, RD_CONTRACT_SUITE, &d);
    if (!st) st = rd_suite_load(&w->s, w->a.suite_file, rd_suite_clock_seed(), &d);
    if (!st) st = rd_plan_build(&w->s, &w->plan, &d);
    if (st)
        return rd_fail(st, &d);
    if (!realpath(w->a.suite_file, w->suite_path))
        return rd_error("%s: %s", w->a.suite_file, strerror(errno)), RD_EXIT_SYSTEM;
    rd_diag_init(&d, w->suite_path);
    if (rd_slurm_check_path(w->suite_path, "SUITE.json", &d) == RD_OK)
        st = file_sha256(w->suite_path, w->m.suite_sha256, &d);
    else
        return rd_usage_error("%s", d.msg);
    return st ? rd_fail(st, &d) : 0;
}

/* The number of measured runs in the plan: the most tasks it can feed. */
static size_t measured_runs(const struct rd_plan *p)
{
    size_t n = 0;
    for (size_t k = 0; k < p->len; k++)
        n += !p->items[k].warmup;
    return n;
}

/* Reads DIR: refuses another suite's collection, a changed suite, a
 * fresh start over stored runs; with --resume, what each task stored. */
static int read_dir(struct slurm_work *w)
{
    struct rd_diag d;
    struct rd_slurm_manifest old;
    rd_diag_init(&d, w->manifest);
    if (read_manifest(w->manifest, &old, &w->have_manifest, &d))
        return rd_fail(RD_ERR_PARSE, &d);
    if (w->have_manifest && strcmp(old.suite, w->s.name) != 0)
        return rd_error("%s: DIR holds the shards of the suite '%s', not '%s': choose another "
                        "DIR", w->manifest, old.suite, w->s.name), RD_EXIT_INPUT;
    if (w->have_manifest && strcmp(old.suite_sha256, w->m.suite_sha256) != 0)
        return rd_error("%s: %s changed since this collection was planned from it (%s): its "
                        "shards would not fit together; choose another DIR",
                        w->manifest, w->suite_path, old.suite_file), RD_EXIT_INPUT;
    if (w->a.resume && !w->have_manifest)
        return rd_error("%s: no collection to resume in %s (no slurm.json)", w->manifest,
                        w->dir), RD_EXIT_INPUT;
    if (w->a.resume) {
        if (w->a.tasks && w->a.tasks != old.tasks)
            return rd_usage_error("--tasks %u: the collection in %s was split into %u tasks; "
                                  "resume it with those", w->a.tasks, w->dir, old.tasks);
        w->a.tasks = old.tasks;
        w->m.seed_given = old.seed_given;
        w->m.seed = old.seed;
    }
    if (w->have_manifest) {
        /* Its jobs, to refuse a second submission while they are queued. */
        memcpy(w->m.jobs, old.jobs, sizeof old.jobs);
        w->m.njobs = old.njobs;
    }
    size_t nstores;
    unsigned n = w->a.resume ? w->a.tasks : 0;
    if (w->a.resume) {
        w->ix = calloc((size_t)n + 1, sizeof *w->ix);
        if (!w->ix)
            return rd_fail(RD_ERR_NOMEM, NULL);
        for (unsigned t = 0; t <= n; t++)
            rd_run_index_init(&w->ix[t]);
    }
    rd_diag_init(&d, NULL);
    rd_status st = rd_slurm_shards_scan(w->dir, w->s.name, n, w->ix, &nstores, &d);
    if (st)
        return rd_fail(st, &d);
    if (!w->a.resume && nstores)
        return rd_error("%s holds runs of the suite '%s' already (%zu stores in %s/shards): "
                        "--resume queues only what is missing", w->dir, w->s.name, nstores,
                        w->dir), RD_EXIT_INPUT;
    return 0;
}

/* Settles the number of tasks and the throttle; refuses what Slurm or the
 * plan would not take. */
static int settle_tasks(struct slurm_work *w)
{
    size_t runs = measured_runs(&w->plan);
    bool adaptive = false;
    for (size_t k = 0; k < w->s.nworkloads; k++)
        adaptive = adaptive || w->s.workloads[k].settle;
    if (!w->a.tasks) {
        w->a.tasks = w->site.known && w->site.nodes > 0 ? (unsigned)w->site.nodes : 1;
        if (adaptive)
            w->a.tasks = 1;
        if (w->a.tasks > runs)
            w->a.tasks = runs ? (unsigned)runs : 1;
    }
    if (w->a.tasks > runs)
        return rd_usage_error("--tasks %u is more than the %zu measured runs the plan of '%s' "
                              "holds: a task would have nothing to run", w->a.tasks, runs,
                              w->s.name);
    if (adaptive && w->a.tasks > 1)
        return rd_usage_error("--tasks %u: the suite '%s' has workloads with \"until\": "
                              "\"settled\", which cannot be split (whether a config needs "
                              "another run depends on all of its runs); use --tasks 1",
                              w->a.tasks, w->s.name);
    if (w->site.max_array > 0 && w->a.tasks >= (unsigned long)w->site.max_array)
        return rd_usage_error("--tasks %u: the cluster's MaxArraySize is %ld (scontrol show "
                              "config), so an array's task numbers stop at %ld", w->a.tasks,
                              w->site.max_array, w->site.max_array - 1);
    /* Every task must plan the same runs: a random order gets one seed. */
    if (!w->a.resume && w->s.order == RD_ORDER_RANDOM) {
        w->m.seed_given = true;
        w->m.seed = w->s.seed;
    }
    return 0;
}

/* Fills the job description the scripts are written from. */
static void describe_job(struct slurm_work *w, struct rd_slurm_job *j)
{
    memset(j, 0, sizeof *j);
    j->suite_name = w->s.name;
    j->suite_path = w->suite_path;
    j->suite_sha256 = w->m.suite_sha256;
    j->dir = w->dir;
    j->tasks = w->a.tasks;
    j->throttle = w->site.known && w->site.nodes < (long)w->a.tasks ? (unsigned)w->site.nodes : 0;
    j->partition = w->a.partition;
    j->time = w->a.time;
    j->account = w->a.account;
    j->check = w->a.check;
    j->seed_given = w->m.seed_given;
    j->seed = w->m.seed;
    j->collect = w->collect;
    j->analyze = w->analyze;
    j->render = w->render;
}

/* The sbatch line of the array job: the whole array, or with --resume
 * the tasks that have runs left (on the command line, which overrides
 * the script's #SBATCH --array). NULL in opt when every task is done. */
static rd_status array_option(struct slurm_work *w, const struct rd_slurm_job *j,
                              struct rd_buf *opt, bool *any)
{
    *any = true;
    if (!w->a.resume)
        return RD_OK;
    *any = false;
    for (unsigned t = 1; t <= j->tasks; t++)
        *any = *any || w->want[t];
    if (!*any)
        return RD_OK;
    RD_TRY(rd_buf_addstr(opt, "--array="));
    unsigned queued = 0;
    for (unsigned t = 1; t <= j->tasks; t++)
        queued += w->want[t];
    return rd_slurm_array_spec(w->want, j->tasks, j->throttle && j->throttle < queued
                                                      ? j->throttle : 0, opt);
}

static int write_scripts(struct slurm_work *w, const struct rd_slurm_job *j, bool keep_existing)
{
    struct rd_buf tasks = RD_BUF_INIT, merge = RD_BUF_INIT;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    char folder[PATH_MAX + 16];
    snprintf(folder, sizeof folder, "%s/slurm", w->dir);
    rd_status st = rd_slurm_task_script(j, &tasks);
    if (!st) st = rd_slurm_merge_script(j, &merge);
    if (!st && !w->a.dry) st = rd_mkdir_p(folder, &d);
    struct stat sb;
    if (!st && !w->a.dry && !(keep_existing && stat(w->tasks_sh, &sb) == 0))
        st = write_out(w->tasks_sh, &tasks, true, &d);
    if (!st && !w->a.dry && !(keep_existing && stat(w->merge_sh, &sb) == 0))
        st = write_out(w->merge_sh, &merge, true, &d);
    if (!st && w->a.dry)
        printf("# %s\n%s\n# %s\n%s\n", w->tasks_sh, tasks.ptr, w->merge_sh, merge.ptr);
    rd_buf_release(&tasks);
    rd_buf_release(&merge);
    return st ? rd_fail(st, &d) : 0;
}

static int save_manifest(struct slurm_work *w)
{
    struct rd_buf b = RD_BUF_INIT;
    struct rd_diag d;
    rd_diag_init(&d, w->manifest);
    rd_status st = rd_slurm_manifest_json(&w->m, &b);
    if (!st) st = write_out(w->manifest, &b, false, &d);
    rd_buf_release(&b);
    return st ? rd_fail(st, &d) : 0;
}

/* Submits (or prints) the array job and the merge job after it. */
static int queue_jobs(struct slurm_work *w, const struct rd_slurm_job *j)
{
    struct rd_buf opt = RD_BUF_INIT;
    bool any;
    int rc = 0;
    if (array_option(w, j, &opt, &any))
        return rd_buf_release(&opt), rd_fail(RD_ERR_NOMEM, NULL);
    if (w->a.resume) {
        size_t left = 0;
        for (unsigned t = 1; t <= j->tasks; t++)
            left += w->left[t];
        if (any)
            rd_note("resume: %zu runs left, in tasks %s of %u", left, opt.ptr + 8, j->tasks);
        else
            rd_note("resume: every task's runs are stored; only the merge is queued");
    }
    if (!w->a.submit) {
        const char *indent = w->a.dry ? "" : "  ";
        printf("%s\n", w->a.dry ? "# the sbatch lines" : "submit with:");
        if (any)
            printf("%sjobid=$(sbatch --parsable %s%s%s)\n", indent, opt.len ? opt.ptr : "",
                   opt.len ? " " : "", w->tasks_sh);
        else
            printf("%ssbatch %s\n", indent, w->merge_sh);
        if (any)
            printf("%ssbatch --dependency=afterok:$jobid --kill-on-invalid-dep=yes %s\n",
                   indent, w->merge_sh);
        rd_buf_release(&opt);
        return 0;
    }
    char array_id[32] = "", merge_id[32];
    char *opts[2] = {opt.ptr};
    if (any && (rc = sbatch(opts, opt.len ? 1 : 0, w->tasks_sh, array_id, sizeof array_id)))
        goto out;
    if (any)
        rd_slurm_manifest_add_job(&w->m, array_id);
    char dep[64];
    snprintf(dep, sizeof dep, "--dependency=afterok:%s", array_id);
    /* A task that fails makes afterok impossible: the merge job is then
     * cancelled instead of waiting in the queue for ever. */
    char *mopts[2] = {dep, "--kill-on-invalid-dep=yes"};
    rc = sbatch(mopts, any ? 2 : 0, w->merge_sh, merge_id, sizeof merge_id);
    if (!rc)
        rd_slurm_manifest_add_job(&w->m, merge_id);
    int saved = save_manifest(w);
    rc = rc ? rc : saved;
    if (rc)
        goto out;
    if (any)
        printf("submitted: array job %s (%s), merge job %s after it; the report goes to "
               "%s/report\n", array_id, opt.len ? opt.ptr + 8 : "every task", merge_id, w->dir);
    else
        printf("submitted: merge job %s; the report goes to %s/report\n", merge_id, w->dir);
out:
    rd_buf_release(&opt);
    return rc;
}

static int run(struct slurm_work *w)
{
    int rc;
    if ((rc = plan_suite(w)))
        return rc;
    if (!absolute_path(w->a.dir, w->dir, sizeof w->dir))
        return rd_usage_error("-o %s: the path is too long", w->a.dir);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (rd_slurm_check_path(w->dir, "DIR", &d))
        return rd_usage_error("%s", d.msg);
    snprintf(w->manifest, sizeof w->manifest, "%s/slurm.json", w->dir);
    snprintf(w->tasks_sh, sizeof w->tasks_sh, "%s/slurm/tasks.sh", w->dir);
    snprintf(w->merge_sh, sizeof w->merge_sh, "%s/slurm/merge.sh", w->dir);
    snprintf(w->m.suite, sizeof w->m.suite, "%s", w->s.name);
    snprintf(w->m.suite_file, sizeof w->m.suite_file, "%s", w->suite_path);
    if ((rc = read_dir(w)))
        return rc;
    char path[PATH_MAX];
    if (w->a.submit && !rd_which("sbatch", path, sizeof path))
        return rd_error("sbatch not found on PATH: Slurm's commands come with the package "
                        "slurm-client (Debian: apt-get install slurm-client)"), RD_EXIT_SYSTEM;
    if ((rc = ask_site(&w->a, &w->site)))
        return rc;
    if (w->a.submit && !w->site.known)
        return rd_error("sinfo not found on PATH (package slurm-client): the partition "
                        "cannot be checked before submission"), RD_EXIT_SYSTEM;
    if (!w->site.known)
        rd_note("sinfo not found: the partition, its time limit and its nodes are not checked");
    if ((rc = settle_tasks(w)))
        return rc;
    w->m.tasks = w->a.tasks;
    char which[32];
    if (w->a.submit && jobs_queued(&w->m, which, sizeof which))
        return rd_error("job %s of this collection is still queued or running (squeue): "
                        "wait for it to end, or scancel it, before submitting again", which),
               RD_EXIT_INPUT;
    if (w->a.resume) {
        w->want = calloc((size_t)w->a.tasks + 1, sizeof *w->want);
        w->left = calloc((size_t)w->a.tasks + 1, sizeof *w->left);
        if (!w->want || !w->left ||
            rd_slurm_tasks_left(&w->s, &w->plan, w->a.tasks, w->ix, w->want, w->left))
            return rd_fail(RD_ERR_NOMEM, NULL);
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    snprintf(w->collect, sizeof w->collect, "%s", n > 0 ? self : "rundown-collect");
    char *self_dir = dirname(self);
    tool_path(self_dir, "rundown-analyze", "analyze", w->analyze, sizeof w->analyze);
    tool_path(self_dir, "rundown-render", "render", w->render, sizeof w->render);
    struct rd_slurm_job j;
    describe_job(w, &j);
    if ((rc = write_scripts(w, &j, w->a.resume)))
        return rc;
    if (!w->a.dry && !w->a.resume && (rc = save_manifest(w)))
        return rc;
    return queue_jobs(w, &j);
}

int rd_cmd_slurm(int argc, char **argv)
{
    struct slurm_work *w = calloc(1, sizeof *w);
    if (!w)
        return rd_fail(RD_ERR_NOMEM, NULL);
    int rc = parse_args(argc, argv, &w->a);
    if (rc)
        return free(w), rc < 0 ? RD_EXIT_OK : rc;
    rd_suite_init(&w->s);
    rd_plan_init(&w->plan);
    rd_proc_catch_signals();
    rc = run(w);
    if (w->ix)
        for (unsigned t = 0; t <= w->a.tasks; t++)
            rd_run_index_release(&w->ix[t]);
    free(w->ix);
    free(w->want);
    free(w->left);
    rd_plan_release(&w->plan);
    rd_suite_release(&w->s);
    free(w);
    return rc;
}
