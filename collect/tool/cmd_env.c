/*
 * env - `rundown-collect env`: prints or writes the rundown.env/1 record of
 * this machine. With --suite, the versions are those of the suite's
 * runtimes and load tools; without, of the tools on PATH that rundown has an
 * importer for.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "envinfo.h"
#include "importer.h"
#include "optable.h"
#include "options.h"
#include "proc.h"
#include "speedmemory.h"
#include "suite.h"
#include "suiteexpand.h"
#include "rundown/cli.h"
#include "rundown/fsutil.h"
#include "rundown/json.h"

#define MAX_PROBES 64

/* What to probe: the suite's runtimes, then the load tool of each server
 * workload that the suite's "tools" or the importer table knows how to
 * ask. shown is the suite as records show it ({root} as "."). */
static size_t suite_probes(const struct rd_suite *s, const struct rd_suite *shown,
                           struct rd_arena *a, struct rd_env_probe *probes)
{
    size_t n = 0;
    for (size_t r = 0; r < s->nruntimes && n < MAX_PROBES; r++)
        probes[n++] = (struct rd_env_probe){
            .kind = "runtime", .name = s->runtimes[r].name,
            .argv = rd_suite_version_argv(s, &s->runtimes[r].version_cmd, a), .cwd = s->root,
            .shown = rd_suite_version_argv(shown, &s->runtimes[r].version_cmd, a)};
    for (size_t w = 0; w < s->nworkloads && n < MAX_PROBES; w++) {
        const struct rd_suite_workload *wl = &s->workloads[w];
        if (!wl->is_server)
            continue;
        char *prog = rd_arena_strdup(a, wl->load.v[0]);
        const char *tool = wl->load_tool ? wl->load_tool : basename(prog);
        char *const *vargv = NULL, *const *vshown = NULL;
        for (size_t t = 0; t < s->ntools; t++)
            if (strcmp(s->tools[t].name, tool) == 0) {
                vargv = rd_suite_version_argv(s, &s->tools[t].version_cmd, a);
                vshown = rd_suite_version_argv(shown, &s->tools[t].version_cmd, a);
            }
        if (vargv || rd_env_tool_version_argv(tool))
            probes[n++] = (struct rd_env_probe){.kind = "tool", .name = tool, .argv = vargv,
                                                .cwd = s->root, .shown = vshown};
    }
    return n;
}

/* Without a suite: every tool rundown reads that is on PATH, in the
 * importer table's order. */
static size_t path_probes(struct rd_env_probe *probes)
{
    char path[4096];
    size_t ntools, n = 0;
    const struct rd_importer *const *tools = rd_importers(&ntools);
    for (size_t t = 0; t < ntools && n < MAX_PROBES; t++)
        if (rd_which(tools[t]->name, path, sizeof path))
            probes[n++] = (struct rd_env_probe){.kind = "tool", .name = tools[t]->name};
    return n;
}

/* The environment of the n probes, as JSON to output (a file, written
 * atomically) or to standard output. */
static rd_status write_env(const struct rd_env_probe *probes, size_t n, const char *output,
                           struct rd_diag *d)
{
    cJSON *env = NULL;
    char id[64];
    struct rd_buf out = RD_BUF_INIT;
    /* Its check judges by the remembered best (RUNDOWN_SPEED_MEMORY or the
     * cache folder's) and notes nothing: `env` measures nothing. */
    char *memory = rd_speed_memory_path(NULL, false);
    rd_status st = rd_env_capture(probes, n, NULL, memory, &env, id, sizeof id, d);
    free(memory);
    if (!st)
        st = rd_json_write(env, &out, true);
    if (!st && output) {
        rd_diag_init(d, output);
        st = rd_write_file_atomic(output, out.ptr, out.len, d);
    } else if (!st) {
        fwrite(out.ptr, 1, out.len, stdout);
        if (fflush(stdout) != 0)
            st = rd_diag_set(d, RD_ERR_IO, "<stdout>", 0, 0, "cannot write");
    }
    rd_buf_release(&out);
    cJSON_Delete(env);
    return st;
}

int rd_cmd_env(int argc, char **argv)
{
    const char *output = NULL, *suite_path = NULL;
    struct rd_opts p;
    int c;
    rd_opts_begin(&p, &rd_collect_spec_env, argc, argv);
    while ((c = rd_opts_next(&p)) >= 0)
        *(c == 'o' ? &output : &suite_path) = rd_opts_arg(&p);
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p);
    if (rd_opts_index(&p) != argc)
        return rd_usage_error("env takes no arguments besides its options");

    struct rd_env_probe probes[MAX_PROBES];
    size_t n = 0;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_arena a;
    rd_arena_init(&a);
    rd_suite_init(&s);
    rd_diag_init(&d, suite_path);
    rd_status st = RD_OK;
    if (suite_path) {
        st = rd_suite_load(&s, suite_path, rd_suite_clock_seed(), &d);
        struct rd_suite shown = rd_suite_shown(&s);
        if (!st)
            n = suite_probes(&s, &shown, &a, probes);
    } else {
        n = path_probes(probes);
    }
    /* Before the first probe starts, so that a signal stops it too. */
    rd_proc_catch_signals();
    if (!st)
        st = write_env(probes, n, output, &d);
    int exit_code = st ? rd_tool_fail(st, &d, NULL) : RD_EXIT_OK;
    rd_suite_release(&s);
    rd_arena_release(&a);
    return exit_code;
}
