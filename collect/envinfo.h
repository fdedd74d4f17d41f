/*
 * envinfo.h - the environment a collection ran in (rundown.env/1).
 *
 * The id is "env-" and 8 hex digits of a hash over the stable facts only
 * (CPU model, core count, memory, kernel, OS, architecture, container hint,
 * governor and turbo, and the versions of the runtimes and tools), so the
 * same machine with the same software always gets the same id, identical
 * machines of a CI matrix share one, and the load average or the time of
 * capture never change it. docs/environment.md lists every field.
 */
#ifndef RUNDOWN_ENVINFO_H
#define RUNDOWN_ENVINFO_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "rundown/analysis_keys.h"
#include "rundown/status.h"

/** A program whose version is recorded: a runtime (a benchmarked program)
 *  or a load tool. */
struct rd_env_probe {
    const char *kind;      /* "runtime" or "tool" */
    const char *name;      /* "node", "wrk": its key in the environment */
    char *const *argv;     /* the version command; NULL: the importer table's
                              for 'name', else the usual forms on 'program' */
    const char *cwd;       /* NULL: the current directory */
    const char *program;   /* asked '--version', then '-v', then 'version'
                              when there is no command (a program of `run`) */
    char *const *shown;    /* the command as the environment shows it
                              (relative to the root); NULL: as run */
};

/**
 * Captures the machine facts and runs each probe once per name (a command
 * 10 s at most; each form tried on a program 5 s, the first that exits 0
 * with a version-like line wins; a failing probe records its error
 * instead of a version). 'pinning' is a
 * free-form note ("server 0, load 1") or NULL. The pre-flight check
 * (unless RUNDOWN_CONTENTION is off) judges the CPUs' speed by the
 * remembered best in 'speed_memory' (rd_speed_memory_path; NULL: none)
 * and notes nothing in it: the collection's guard notes the collection
 * (rd_guard_remember). Fills *out (caller frees with cJSON_Delete) and
 * id (at least 16 bytes).
 */
rd_status rd_env_capture(const struct rd_env_probe *probes, size_t nprobes,
                         const char *pinning, const char *speed_memory, cJSON **out, char *id,
                         size_t idsize, struct rd_diag *d);

/** Room for the strings of a probe made by rd_env_probe_program(). */
struct rd_env_program {
    char program[4096];
    char name[256];
};

/**
 * A probe asking a benchmarked program for its version by the usual forms.
 * 'command' is argv[0] as typed, or with shell true a shell command line,
 * whose program is its first word other than `exec` and VAR=value
 * assignments. The probe's name is the program's file name ("bun" for
 * "node_modules/.bin/bun"); p borrows the strings of buf.
 */
void rd_env_probe_program(struct rd_env_probe *p, const char *kind, const char *command,
                          bool shell, struct rd_env_program *buf);

/** Records the folder the runs' commands and paths are relative to (an
 *  absolute path; not part of the id). */
void rd_env_set_root(cJSON *env, const char *root);

/**
 * Writes env as DIR/<id>.json unless that file exists (the first capture
 * of an environment is kept). When it exists and env holds a pre-flight
 * "check", the file takes this collection's check: "check" becomes it and
 * "checks" (every collection's check, each with its "captured_at") gains
 * it; the rest of the file stays. Writers take turns through the lock
 * file DIR/<id>.json.lock. The written or existing path goes to path.
 */
rd_status rd_env_write_once(const char *dir, const cJSON *env, const char *id,
                            char *path, size_t pathsize, struct rd_diag *d);

/** Where `run` and `http` put what they write besides the records. */
struct rd_outputs {
    bool to_file;          /* the store is a file, not standard output */
    const char *log_dir;   /* NULL: no logs; else logdir_buf or the option */
    char logdir_buf[4096];
    const char *log_shown; /* log_dir as records name it: relative to the
                              store's folder ("logs"); NULL: log_dir */
    char logshown_buf[4096];
    char envid[64];        /* "" when there is no environment */
};

/**
 * For a store file (not "-"): logs go to log_dir_opt or "logs" next to the
 * store (the folder is made now, so that its path relative to the store's
 * folder is known: log_shown), and unless env_opt gives an id the
 * environment is captured (with the probes, pinning note and
 * speed_memory, as rd_env_capture) and written
 * next to the store. For standard output: logs only with log_dir_opt, the
 * environment only with env_opt.
 */
rd_status rd_env_prepare_outputs(const char *store, const char *log_dir_opt,
                                 const char *env_opt, const struct rd_env_probe *probes,
                                 size_t nprobes, const char *pinning,
                                 const char *speed_memory, struct rd_outputs *out,
                                 struct rd_diag *d);

/**
 * The environment id that `import -e ARG` names. ARG is an environment
 * file's path when it holds a '/' or ends in ".json": a rundown.env/1
 * document with an id, copied next to a store file as <id>.json (unless
 * that exists). Otherwise ARG is an id, whose <id>.json must sit next to a
 * store file (with store "-" an id is taken as it is). id gets at least 64
 * bytes. RD_ERR_PARSE (exit 1) with d naming the file or the id.
 */
rd_status rd_env_resolve(const char *arg, const char *store, char *id, size_t idsize,
                         struct rd_diag *d);

/**
 * The version command of a tool rundown has an importer for (its entry in
 * the importer table), or NULL.
 */
const char *const *rd_env_tool_version_argv(const char *tool);

#endif
