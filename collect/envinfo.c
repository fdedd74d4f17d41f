/*
 * envinfo.c - captures rundown.env/1: machine facts read from /proc, /sys
 * and uname, and the versions of runtimes and tools found by running them.
 *
 * Every fact that cannot be read is null rather than guessed (a container
 * often hides cpufreq; an ARM cpuinfo has no "model name"). Versions are
 * asked through proc.c with a timeout, so a hanging `--version` cannot stall
 * a collection.
 */
#include "envinfo.h"


#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "contention.h"
#include "importer.h"
#include "machinecheck.h"
#include "speedprobe.h"
#include "proc.h"
#include "runner.h"
#include "rundown/buf.h"
#include "rundown/fsutil.h"
#include "rundown/json.h"
#include "rundown/store.h"
#include "rundown/strmap.h"

const char *const *rd_env_tool_version_argv(const char *tool)
{
    const struct rd_importer *imp = rd_importer_find(tool);
    return imp ? imp->version_argv : NULL;
}

static int physical_cores(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return -1;
    char line[256];
    long phys = -1, pairs[1024][2];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        long v;
        if (sscanf(line, "physical id : %ld", &v) == 1)
            phys = v;
        else if (sscanf(line, "core id : %ld", &v) == 1 && phys >= 0) {
            int k;
            for (k = 0; k < n && !(pairs[k][0] == phys && pairs[k][1] == v); k++)
                ;
            if (k == n && n < 1024) {
                pairs[n][0] = phys;
                pairs[n][1] = v;
                n++;
            }
        }
    }
    fclose(f);
    return n > 0 ? n : -1;
}

static void affinity_list(char *out, size_t size)
{
    cpu_set_t set;
    out[0] = '\0';
    if (sched_getaffinity(0, sizeof set, &set) < 0)
        return;
    size_t o = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
            e++;
        int k = e > c ? snprintf(out + o, size - o, "%s%d-%d", o ? "," : "", c, e)
                      : snprintf(out + o, size - o, "%s%d", o ? "," : "", c);
        if (k < 0 || (size_t)k >= size - o)
            break;
        o += (size_t)k;
        c = e;
    }
}

/*
 * Runs one version command for at most timeout_s: the first non-empty
 * line of its stdout, else of its stderr, into out, or why there is none.
 * With strict, only an exit status of 0 and a line holding a digit count,
 * as when a form is tried on a program that may not know it.
 */
static bool run_version(char *const *argv, const char *cwd, double timeout_s, bool strict,
                        char *out, size_t size)
{
    struct rd_proc pr;
    struct rd_diag d;
    bool ok = false;
    rd_diag_init(&d, NULL);
    if (rd_proc_run_capture(&pr, argv, cwd, timeout_s, 65536, &d) != RD_OK) {
        snprintf(out, size, "%s", d.msg);
        return false;
    }
    const struct rd_buf *srcs[2] = {&pr.out.keep, &pr.err.keep};
    for (int s = 0; s < 2 && !ok; s++) {
        const char *t = srcs[s]->ptr, *end = t + srcs[s]->len;
        while (t < end && !ok) {
            const char *nl = memchr(t, '\n', (size_t)(end - t));
            const char *le = nl ? nl : end;
            const char *a = t, *b = le;
            while (a < b && (*a == ' ' || *a == '\t'))
                a++;
            while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
                b--;
            if (b > a) {
                snprintf(out, size, "%.*s", (int)(b - a), a);
                ok = true;
            }
            t = nl ? nl + 1 : end;
        }
    }
    if (ok && strict && (rd_proc_exit_code(&pr) != 0 || !strpbrk(out, "0123456789")))
        ok = false;
    if (pr.timed_out) {
        snprintf(out, size, "version command timed out after %g s", timeout_s);
        ok = false;
    } else if (!ok) {
        char ex[96];
        rd_proc_describe_exit(&pr, ex, sizeof ex);
        snprintf(out, size, "version command printed no version (%s)", ex);
    }
    rd_proc_release(&pr);
    return ok;
}

/* Appends argv joined by blanks. */
static void join_argv(struct rd_buf *b, const char *const *argv)
{
    for (size_t k = 0; argv && argv[k]; k++)
        rd_buf_addf(b, "%s%s", k ? " " : "", argv[k]);
}

/*
 * Asks p for its version: its own command, the importer table's for a
 * tool, or the usual forms tried in turn on its program (--version, -v,
 * version; 5 s each). The command that was asked (as p shows it) goes to
 * cmd, the version or why there is none to out.
 */
static void probe_version(const struct rd_env_probe *p, char *out, size_t size, bool *ok,
                          struct rd_buf *cmd)
{
    char *const *argv = p->argv ? p->argv : (char *const *)rd_env_tool_version_argv(p->name);
    if (argv) {
        *ok = run_version(argv, p->cwd, 10, false, out, size);
        join_argv(cmd, (const char *const *)(p->shown ? p->shown : argv));
        return;
    }
    *ok = false;
    if (!p->program) {
        snprintf(out, size, "no known way to ask '%s' for its version", p->name);
        return;
    }
    static const char *const forms[] = {"--version", "-v", "version"};
    char why[512] = "";
    for (size_t i = 0; i < sizeof forms / sizeof forms[0] && !*ok; i++) {
        char *form_argv[] = {(char *)p->program, (char *)forms[i], NULL};
        *ok = run_version(form_argv, p->cwd, 5, true, out, size);
        if (*ok || i == 0) {
            rd_buf_reset(cmd);
            rd_buf_addf(cmd, "%s %s", p->shown ? p->shown[0] : p->program, forms[i]);
        }
        if (i == 0 && !*ok)
            snprintf(why, sizeof why, "%s", out);
    }
    if (!*ok)
        snprintf(out, size, "no version from --version, -v or version (--version: %s)", why);
}

/*
 * The env id's fingerprint: FNV-1a from a basis one digit short of FNV's
 * own (RD_FNV1A_BASIS), a slip of the first version that now defines every
 * env id already written; another basis would give each machine a new id
 * (and runs of one machine would stop pooling), so it stays.
 */
#define ENV_ID_BASIS 1469598103934665603ULL

static void hash_add(uint64_t *h, const char *s)
{
    if (s)
        *h = rd_hash_fnv1a_more(*h, s, strlen(s));
    *h = rd_hash_fnv1a_more(*h, "\x1f", 1); /* field separator: "ab"+"c" differs from "a"+"bc" */
}

static cJSON *str_or_null(const char *s)
{
    return s && *s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

rd_status rd_env_capture(const struct rd_env_probe *probes, size_t nprobes,
                         const char *pinning, const char *speed_memory, cJSON **out, char *id,
                         size_t idsize, struct rd_diag *d)
{
    cJSON *env = cJSON_CreateObject();
    if (!env)
        return rd_diag_set(d, RD_ERR_NOMEM, NULL, 0, 0, "out of memory");
    uint64_t h = ENV_ID_BASIS;
    char model[256] = "", gov[64] = "", turbo[16] = "", osname[256] = "", buf[256];
    char ts[32];
    struct utsname u;
    memset(&u, 0, sizeof u);
    uname(&u);

    rd_speed_cpu_model(NULL, model, sizeof model);
    long logical = sysconf(_SC_NPROCESSORS_ONLN);
    int physical = physical_cores();
    char mhz[32] = "";
    rd_file_field("/proc/cpuinfo", "cpu MHz", mhz, sizeof mhz);
    rd_file_line(NULL, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", gov, sizeof gov);
    if (rd_file_line(NULL, "/sys/devices/system/cpu/intel_pstate/no_turbo", buf, sizeof buf))
        snprintf(turbo, sizeof turbo, "%s", buf[0] == '1' ? "off" : "on");
    else if (rd_file_line(NULL, "/sys/devices/system/cpu/cpufreq/boost", buf, sizeof buf))
        snprintf(turbo, sizeof turbo, "%s", buf[0] == '1' ? "on" : "off");
    char memkb[64] = "";
    rd_file_field("/proc/meminfo", "MemTotal", memkb, sizeof memkb);
    if (!rd_file_field("/etc/os-release", "PRETTY_NAME", osname, sizeof osname))
        rd_file_field("/usr/lib/os-release", "PRETTY_NAME", osname, sizeof osname);
    const char *container = rd_machine_container_hint();
    char aff[256];
    affinity_list(aff, sizeof aff);
    double la[3] = {NAN, NAN, NAN};
    if (rd_file_line(NULL, "/proc/loadavg", buf, sizeof buf))
        sscanf(buf, "%lf %lf %lf", &la[0], &la[1], &la[2]);

    hash_add(&h, model);
    snprintf(buf, sizeof buf, "%ld/%d", logical, physical);
    hash_add(&h, buf);
    hash_add(&h, memkb);
    hash_add(&h, u.sysname);
    hash_add(&h, u.release);
    hash_add(&h, u.machine);
    hash_add(&h, osname);
    hash_add(&h, container);
    hash_add(&h, gov);
    hash_add(&h, turbo);

    cJSON_AddStringToObject(env, "schema", RD_ENV_SCHEMA);
    cJSON *idnode = cJSON_AddStringToObject(env, "id", "");
    rd_runner_timestamp(ts);
    cJSON_AddStringToObject(env, "captured_at", ts);
    cJSON_AddStringToObject(env, "rundown_version", RD_VERSION);
    cJSON *cpu = cJSON_AddObjectToObject(env, "cpu");
    cJSON_AddItemToObject(cpu, "model", str_or_null(model));
    cJSON_AddNumberToObject(cpu, "cores_logical", (double)logical);
    if (physical > 0)
        cJSON_AddNumberToObject(cpu, "cores_physical", physical);
    else
        cJSON_AddNullToObject(cpu, "cores_physical");
    double mhzv = mhz[0] ? strtod(mhz, NULL) : NAN;
    rd_json_add_num(cpu, "mhz", mhzv);
    cJSON_AddItemToObject(cpu, "governor", str_or_null(gov));
    cJSON_AddItemToObject(cpu, "turbo", str_or_null(turbo));
    rd_json_add_num(env, "memory_kib", memkb[0] ? strtod(memkb, NULL) : NAN);
    char kernel[600];
    snprintf(kernel, sizeof kernel, "%s %s", u.sysname, u.release);
    cJSON_AddStringToObject(env, "kernel", kernel);
    cJSON_AddItemToObject(env, "kernel_build", str_or_null(u.version));
    cJSON_AddItemToObject(env, "os", str_or_null(osname));
    cJSON_AddItemToObject(env, "arch", str_or_null(u.machine));
    cJSON_AddItemToObject(env, "container", str_or_null(container));
    cJSON *load = cJSON_AddArrayToObject(env, "load_avg");
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(load, isnan(la[i]) ? cJSON_CreateNull() : cJSON_CreateNumber(la[i]));
    cJSON_AddItemToObject(env, "affinity", str_or_null(aff));
    cJSON_AddItemToObject(env, "pinning", str_or_null(pinning));
    /* The pre-flight check at the start of the collection (not part of the
     * id: it says how the machine was, not what it is). Left out when the
     * guard is off, as in the tests, so an environment stays the same. It
     * judges by the remembered best and notes nothing: the collection is
     * one session, noted by its guard at its end. */
    struct rd_contention_opts co;
    rd_contention_defaults(&co);
    if (co.mode != RD_CONTENTION_OFF) {
        struct rd_machine_check chk;
        rd_machine_check_run(&chk, NULL, NULL, RD_CONTENTION_WINDOW_S, co.threshold_pct,
                             co.min_speed_pct, co.min_wakeup_pct, speed_memory,
                             RD_CHECK_MEMORY_JUDGE);
        cJSON *cj = rd_machine_check_json(&chk);
        if (cj)
            cJSON_AddItemToObject(env, "check", cj);
    }

    cJSON *rt = cJSON_AddObjectToObject(env, "runtimes");
    cJSON *tools = cJSON_AddObjectToObject(env, "tools");
    for (size_t i = 0; i < nprobes; i++) {
        const struct rd_env_probe *p = &probes[i];
        cJSON *dst = strcmp(p->kind, "runtime") == 0 ? rt : tools;
        if (cJSON_GetObjectItemCaseSensitive(dst, p->name))
            continue;
        char ver[512];
        bool ok;
        struct rd_buf cmd = RD_BUF_INIT;
        probe_version(p, ver, sizeof ver, &ok, &cmd);
        if (rd_proc_interrupted) {
            /* The probe was stopped: its "version" would be a lie. */
            rd_buf_release(&cmd);
            cJSON_Delete(env);
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "interrupted");
        }
        cJSON *o = cJSON_AddObjectToObject(dst, p->name);
        cJSON_AddItemToObject(o, "version", ok ? cJSON_CreateString(ver) : cJSON_CreateNull());
        if (!ok)
            cJSON_AddStringToObject(o, "error", ver);
        cJSON_AddStringToObject(o, "version_cmd", cmd.ptr ? cmd.ptr : "");
        rd_buf_release(&cmd);
        hash_add(&h, p->kind);
        hash_add(&h, p->name);
        hash_add(&h, ok ? ver : "?");
    }
    snprintf(id, idsize, "env-%08llx", (unsigned long long)(h >> 32 ^ (h & 0xffffffffULL)));
    cJSON_SetValuestring(idnode, id);
    *out = env;
    return RD_OK;
}

void rd_env_probe_program(struct rd_env_probe *p, const char *kind, const char *command,
                          bool shell, struct rd_env_program *buf)
{
    const char *w = command;
    size_t len = strlen(w);
    while (shell) {
        w += strspn(w, " \t");
        len = strcspn(w, " \t;&|");
        bool assignment = memchr(w, '=', len) && w[0] != '=';
        if (!(len == 4 && strncmp(w, "exec", 4) == 0) && !assignment)
            break;
        w += len;
    }
    snprintf(buf->program, sizeof buf->program, "%.*s", (int)len, w);
    const char *slash = strrchr(buf->program, '/');
    const char *base = slash ? slash + 1 : buf->program;
    size_t n = strlen(base) < sizeof buf->name ? strlen(base) : sizeof buf->name - 1;
    memcpy(buf->name, base, n);
    buf->name[n] = '\0';
    *p = (struct rd_env_probe){.kind = kind, .name = buf->name, .program = buf->program};
}

void rd_env_set_root(cJSON *env, const char *root)
{
    cJSON_DeleteItemFromObjectCaseSensitive(env, "root");
    cJSON_AddItemToObject(env, "root", str_or_null(root));
}

/* This capture's check, stamped with its time, for the list "checks". */
static cJSON *stamped_check(const cJSON *env)
{
    const cJSON *chk = cJSON_GetObjectItemCaseSensitive(env, "check");
    const char *at = rd_json_str(env, "captured_at");
    cJSON *c = chk ? cJSON_Duplicate(chk, true) : NULL;
    if (c && at && !cJSON_GetObjectItemCaseSensitive(c, "captured_at"))
        cJSON_AddStringToObject(c, "captured_at", at);
    return c;
}

/* Adds env's check to the environment 'have' (read from its file): "check"
 * becomes the latest collection's, and "checks" lists every collection's
 * in order (the first capture's check, from before the list existed, at
 * its head). false when nothing changed (the same check again, as an
 * import of the same --env file gives). */
static bool add_check(cJSON *have, const cJSON *env)
{
    cJSON *c = stamped_check(env);
    if (!c)
        return false;
    cJSON *list = cJSON_GetObjectItemCaseSensitive(have, "checks");
    if (!cJSON_IsArray(list)) {
        cJSON_DeleteItemFromObjectCaseSensitive(have, "checks");
        list = cJSON_AddArrayToObject(have, "checks");
        cJSON *first = list ? stamped_check(have) : NULL;
        if (first)
            cJSON_AddItemToArray(list, first);
    }
    const char *at = rd_json_str(c, "captured_at");
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        const char *eat = rd_json_str(e, "captured_at");
        if (at && eat && strcmp(at, eat) == 0) {
            cJSON_Delete(c);
            return false;
        }
    }
    if (!list || !cJSON_AddItemToArray(list, c)) {
        cJSON_Delete(c);
        return false;
    }
    cJSON *latest = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(env, "check"), true);
    if (latest)
        cJSON_ReplaceItemInObjectCaseSensitive(have, "check", latest);
    return true;
}

static rd_status write_env(const char *path, const cJSON *env, struct rd_diag *d)
{
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = rd_json_write(env, &b, true);
    if (!st)
        st = rd_write_file_atomic(path, b.ptr, b.len, d);
    rd_buf_release(&b);
    return st;
}

rd_status rd_env_write_once(const char *dir, const cJSON *env, const char *id,
                            char *path, size_t pathsize, struct rd_diag *d)
{
    rd_status st = rd_mkdir_p(dir, d);
    if (st)
        return st;
    snprintf(path, pathsize, "%s/%s.json", dir, id);
    /* Collections that start together take turns at the file, so neither
     * a first capture nor a check is lost to the other's write. */
    struct rd_buf lockpath = RD_BUF_INIT;
    struct rd_store_lock lock;
    rd_store_lock_init(&lock);
    st = rd_buf_addf(&lockpath, "%s.lock", path);
    if (!st)
        st = rd_store_lock(&lock, lockpath.ptr, RD_LOCK_WAIT | RD_LOCK_FILE, NULL, d);
    struct stat sb;
    if (!st && stat(path, &sb) != 0) {
        cJSON *first = cJSON_Duplicate(env, true);
        cJSON *c = first ? stamped_check(env) : NULL;
        if (c) {
            cJSON *list = cJSON_AddArrayToObject(first, "checks");
            if (!list || !cJSON_AddItemToArray(list, c))
                cJSON_Delete(c);
        }
        st = first ? write_env(path, first, d) : RD_ERR_NOMEM;
        cJSON_Delete(first);
    } else if (!st && cJSON_GetObjectItemCaseSensitive(env, "check")) {
        /* A file that is not an environment object (edited, cut) is kept
         * as it is, as before checks were added: the collection goes on. */
        cJSON *have = NULL;
        struct rd_diag ignored;
        rd_diag_init(&ignored, NULL);
        if (rd_json_parse_file(path, &have, &ignored) == RD_OK && cJSON_IsObject(have) &&
            add_check(have, env))
            st = write_env(path, have, d);
        cJSON_Delete(have);
    }
    rd_store_unlock(&lock);
    rd_buf_release(&lockpath);
    return st;
}

rd_status rd_env_resolve(const char *arg, const char *store, char *id, size_t idsize,
                         struct rd_diag *d)
{
    bool to_file = store && strcmp(store, "-") != 0;
    char dir[4096], path[4096];
    rd_path_dirname(to_file ? store : ".", dir, sizeof dir);
    size_t len = strlen(arg);
    if (!strchr(arg, '/') && !(len > 5 && strcmp(arg + len - 5, ".json") == 0)) {
        snprintf(id, idsize, "%s", arg);
        struct rd_buf want = RD_BUF_INIT;
        struct stat sb;
        rd_status st = rd_buf_addf(&want, "%s/%s.json", dir, arg);
        if (!st && to_file && stat(want.ptr, &sb) != 0)
            st = rd_diag_set(d, RD_ERR_PARSE, NULL, 0, 0,
                             "no environment '%s' next to %s (expected %s); give -e the "
                             "environment file's path, e.g. one 'rundown-collect env -o "
                             "FILE' wrote", arg, store, want.ptr);
        rd_buf_release(&want);
        return st;
    }
    cJSON *env = NULL;
    RD_TRY(rd_json_parse_file(arg, &env, d));
    const char *schema = rd_json_str(env, "schema"), *eid = rd_json_str(env, "id");
    rd_status st = RD_OK;
    if (!schema || strcmp(schema, RD_ENV_SCHEMA) != 0 || !eid || !*eid ||
        strcspn(eid, "/\\") != strlen(eid) || strlen(eid) >= idsize)
        st = rd_diag_set(d, RD_ERR_PARSE, arg, 0, 0,
                         "expected an environment (" RD_ENV_SCHEMA ") with an id");
    if (!st) {
        snprintf(id, idsize, "%s", eid);
        if (to_file)
            st = rd_env_write_once(dir, env, id, path, sizeof path, d);
    }
    cJSON_Delete(env);
    return st;
}

rd_status rd_env_prepare_outputs(const char *store, const char *log_dir_opt,
                                 const char *env_opt, const struct rd_env_probe *probes,
                                 size_t nprobes, const char *pinning,
                                 const char *speed_memory, struct rd_outputs *out,
                                 struct rd_diag *d)
{
    char dirbuf[4096];
    memset(out, 0, sizeof *out);
    out->to_file = strcmp(store, "-") != 0;
    snprintf(dirbuf, sizeof dirbuf, "%s", store);
    const char *dir = dirname(dirbuf);
    out->log_dir = log_dir_opt;
    if (!log_dir_opt && out->to_file) {
        /* "logs", not "./logs": the paths go into records as written. */
        if (strcmp(dir, ".") == 0)
            snprintf(out->logdir_buf, sizeof out->logdir_buf, "logs");
        else
            snprintf(out->logdir_buf, sizeof out->logdir_buf, "%s/logs", dir);
        out->log_dir = out->logdir_buf;
    }
    if (out->to_file && out->log_dir) {
        struct rd_buf rel = RD_BUF_INIT;
        rd_status st = rd_mkdir_p(out->log_dir, d);
        if (!st)
            st = rd_path_relative(out->log_dir, dir, &rel, d);
        if (!st) {
            snprintf(out->logshown_buf, sizeof out->logshown_buf, "%s", rel.ptr);
            out->log_shown = out->logshown_buf;
        }
        rd_buf_release(&rel);
        RD_TRY(st);
    }
    if (env_opt) {
        snprintf(out->envid, sizeof out->envid, "%s", env_opt);
        return RD_OK;
    }
    if (!out->to_file)
        return RD_OK;
    cJSON *env = NULL;
    char path[4096];
    rd_status st = rd_env_capture(probes, nprobes, pinning, speed_memory, &env, out->envid,
                                  sizeof out->envid, d);
    char cwd[4096];
    if (!st)
        rd_env_set_root(env, getcwd(cwd, sizeof cwd));
    if (!st)
        st = rd_env_write_once(dir, env, out->envid, path, sizeof path, d);
    cJSON_Delete(env);
    return st;
}
