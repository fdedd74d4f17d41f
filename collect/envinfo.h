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

/** A program whose version is recorded: a runtime or a load tool. */
struct rd_env_probe {
    const char *kind;      /* "runtime" or "tool" */
    const char *name;      /* "node", "wrk" */
    char *const *argv;     /* the version command; NULL: the built-in one for 'name' */
    const char *cwd;       /* NULL: the current directory */
};

/**
 * Captures the machine facts and runs each probe (10 s timeout each; a
 * failing probe records its error instead of a version). 'pinning' is a
 * free-form note ("server 0, load 1") or NULL. Fills *out (caller frees with
 * cJSON_Delete) and id (at least 16 bytes).
 */
rd_status rd_env_capture(const struct rd_env_probe *probes, size_t nprobes,
                         const char *pinning, cJSON **out, char *id, size_t idsize,
                         struct rd_diag *d);

/**
 * Writes env as DIR/<id>.json unless that file exists (the first capture
 * of an environment is kept). The written or existing path goes to path.
 */
rd_status rd_env_write_once(const char *dir, const cJSON *env, const char *id,
                            char *path, size_t pathsize, struct rd_diag *d);

/** Where `run` and `http` put what they write besides the records. */
struct rd_outputs {
    bool to_file;          /* the store is a file, not standard output */
    const char *log_dir;   /* NULL: no logs; else logdir_buf or the option */
    char logdir_buf[4096];
    char envid[64];        /* "" when there is no environment */
};

/**
 * For a store file (not "-"): logs go to log_dir_opt or "logs" next to the
 * store, and unless env_opt gives an id the environment is captured (with
 * the probes and pinning note) and written next to the store. For standard
 * output: logs only with log_dir_opt, the environment only with env_opt.
 */
rd_status rd_env_prepare_outputs(const char *store, const char *log_dir_opt,
                                 const char *env_opt, const struct rd_env_probe *probes,
                                 size_t nprobes, const char *pinning, struct rd_outputs *out,
                                 struct rd_diag *d);

/**
 * The version command of a tool rundown has an importer for (its entry in
 * the importer table), or NULL.
 */
const char *const *rd_env_tool_version_argv(const char *tool);

#endif
