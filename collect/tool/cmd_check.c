/*
 * check - `rundown-collect check`: whether the machine is quiet enough to
 * measure on, each finding with what to do about it (machinecheck.h).
 * Exit 0 quiet, 1 not, so scripts and `make bench` can gate on it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "contention.h"
#include "machinecheck.h"
#include "options.h"
#include "rundown/cli.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: rundown-collect check [--contention-threshold PCT] [--window SEC] [--json]\n"
        "\n"
        "Looks at this machine as a benchmark needs it: the CPUs and whether rundown\n"
        "is pinned, the load average against the CPU count, the CPU other processes\n"
        "use now (over a short window) and the busiest of them, steal and CPU\n"
        "pressure, the frequency governor and turbo, ASLR, swap and memory\n"
        "pressure, thermal throttling, and whether this is a container or a VM.\n"
        "Each finding that calls for it says what to do.\n"
        "\n"
        "  --contention-threshold PCT  other processes' CPU, in percent of one CPU,\n"
        "                        above which the machine is busy (default 25)\n"
        "  --window SEC          how long to watch the load (default 1)\n"
        "  --json                the check as JSON (the environment's \"check\")\n"
        "  -h, --help            this text\n"
        "\n"
        "Exit codes: 0 quiet, 1 busy (other processes, steal or CPU pressure above\n"
        "the threshold), 2 usage.\n");
}

int rd_cmd_check(int argc, char **argv)
{
    enum { O_WINDOW = 0x400, O_JSON, O_PROC, O_SYS };
    static const struct option longopts[] = {
        RD_TOOL_CONTENTION_OPTIONS,
        {"window", required_argument, NULL, O_WINDOW},
        {"json", no_argument, NULL, O_JSON},
        /* for tests: read these instead of /proc and /sys */
        {"proc-root", required_argument, NULL, O_PROC},
        {"sys-root", required_argument, NULL, O_SYS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    double window = 1;
    bool json = false;
    const char *proc = NULL, *sys = NULL;
    int c, took;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if ((took = rd_tool_contention_option(c, optarg, &o)) >= 0) {
            if (took)
                return took;
            continue;
        }
        struct rd_diag d;
        switch (c) {
        case O_WINDOW:
            rd_diag_init(&d, NULL);
            if (rd_contention_parse_wait(optarg, "--window", &window, &d) || window < 0.05 ||
                window > 600)
                return rd_usage_error("expected --window SEC from 0.05 to 600, got '%s'", optarg);
            break;
        case O_JSON: json = true; break;
        case O_PROC: proc = optarg; break;
        case O_SYS: sys = optarg; break;
        case 'h': usage(stdout); return RD_EXIT_OK;
        default: return rd_usage_error("invalid option");
        }
    }
    if (optind < argc)
        return rd_usage_error("check takes no operands, got '%s'", argv[optind]);
    struct rd_machine_check chk;
    rd_machine_check_run(&chk, proc, sys, window, o.threshold_pct);
    if (json) {
        cJSON *j = rd_machine_check_json(&chk);
        char *text = j ? cJSON_Print(j) : NULL;
        cJSON_Delete(j);
        if (!text)
            return rd_fail(RD_ERR_NOMEM, NULL);
        printf("%s\n", text);
        free(text);
    } else {
        static const char *const tag[] = {"ok    ", "advice", "BUSY  "};
        for (int i = 0; i < chk.nf; i++) {
            printf("%s  %-9s %s\n", tag[chk.f[i].level], chk.f[i].what, chk.f[i].text);
            if (chk.f[i].advice[0])
                printf("        %-9s -> %s\n", "", chk.f[i].advice);
        }
        printf("%s\n", chk.quiet ? "quiet: fit to measure on"
                                 : "busy: runs taken now would be contended");
    }
    return chk.quiet ? RD_EXIT_OK : 1;
}
