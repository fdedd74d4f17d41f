/*
 * env - `rundown-collect env`: prints or writes the rundown.env/1 record of
 * this machine. With --suite, the versions are those of the suite's
 * runtimes and load tools; without, of the tools on PATH that rundown has an
 * importer for.
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "envinfo.h"
#include "importer.h"
#include "options.h"
#include "proc.h"
#include "suite.h"
#include "rundown/cli.h"
#include "rundown/fsutil.h"
#include "rundown/json.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: rundown-collect env [-o FILE] [--suite SUITE.json]\n"
        "\n"
        "Writes this machine's environment (" RD_ENV_SCHEMA ", see docs/environment.md):\n"
        "CPU, cores, memory, kernel, OS, governor and turbo where readable, load\n"
        "average, container hint, CPU affinity, and the versions of runtimes and\n"
        "load tools, found by running them (10 s timeout each).\n"
        "\n"
        "  -o, --output FILE     write FILE (default: standard output)\n"
        "  -s, --suite SUITE     the runtimes and load tools of this suite (default:\n"
        "                        the known load tools found on PATH)\n"
        "  -h, --help            this text\n");
}

int rd_cmd_env(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"suite", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL, *suite_path = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:s:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 's': suite_path = optarg; break;
        case 'h': usage(stdout); return RD_EXIT_OK;
        default: return rd_usage_error("invalid option");
        }
    }
    if (optind != argc)
        return rd_usage_error("env takes no arguments besides its options");

    struct rd_env_probe probes[64];
    size_t n = 0;
    struct rd_suite s;
    struct rd_diag d;
    struct rd_arena a;
    rd_arena_init(&a);
    memset(&s, 0, sizeof s);
    rd_arena_init(&s.arena);
    rd_diag_init(&d, suite_path);
    rd_status st = RD_OK;
    struct rd_suite shown;
    if (suite_path) {
        st = rd_suite_load(&s, suite_path, rd_suite_clock_seed(), &d);
        shown = rd_suite_shown(&s);
        for (size_t r = 0; !st && r < s.nruntimes && n < 64; r++)
            probes[n++] = (struct rd_env_probe){
                .kind = "runtime", .name = s.runtimes[r].name,
                .argv = rd_suite_version_argv(&s, &s.runtimes[r].version_cmd, &a), .cwd = s.root,
                .shown = rd_suite_version_argv(&shown, &s.runtimes[r].version_cmd, &a)};
        for (size_t w = 0; !st && w < s.nworkloads && n < 64; w++) {
            const struct rd_suite_workload *wl = &s.workloads[w];
            if (!wl->is_server)
                continue;
            char *prog = rd_arena_strdup(&a, wl->load.v[0]);
            const char *tool = wl->load_tool ? wl->load_tool : basename(prog);
            char *const *vargv = NULL, *const *vshown = NULL;
            for (size_t t = 0; t < s.ntools; t++)
                if (strcmp(s.tools[t].name, tool) == 0) {
                    vargv = rd_suite_version_argv(&s, &s.tools[t].version_cmd, &a);
                    vshown = rd_suite_version_argv(&shown, &s.tools[t].version_cmd, &a);
                }
            if (vargv || rd_env_tool_version_argv(tool))
                probes[n++] = (struct rd_env_probe){.kind = "tool", .name = tool, .argv = vargv,
                                                    .cwd = s.root, .shown = vshown};
        }
    } else {
        /* Every tool rundown reads, in the importer table's order. */
        char path[4096];
        size_t ntools;
        const struct rd_importer *const *tools = rd_importers(&ntools);
        for (size_t t = 0; t < ntools && n < 64; t++)
            if (rd_which(tools[t]->name, path, sizeof path))
                probes[n++] = (struct rd_env_probe){.kind = "tool", .name = tools[t]->name};
    }
    int exit_code = RD_EXIT_OK;
    cJSON *env = NULL;
    char id[64];
    /* Before the first probe starts, so that a signal stops it too. */
    rd_proc_catch_signals();
    if (!st)
        st = rd_env_capture(probes, n, NULL, &env, id, sizeof id, &d);
    struct rd_buf out = RD_BUF_INIT;
    if (!st)
        st = rd_json_write(env, &out, true);
    if (!st && output) {
        rd_diag_init(&d, output);
        st = rd_write_file_atomic(output, out.ptr, out.len, &d);
    } else if (!st) {
        fwrite(out.ptr, 1, out.len, stdout);
        if (fflush(stdout) != 0)
            st = rd_diag_set(&d, RD_ERR_IO, "<stdout>", 0, 0, "cannot write");
    }
    if (st)
        exit_code = rd_tool_fail(st, &d, NULL);
    rd_buf_release(&out);
    cJSON_Delete(env);
    rd_suite_release(&s);
    rd_arena_release(&a);
    return exit_code;
}
