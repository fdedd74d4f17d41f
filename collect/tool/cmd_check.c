/*
 * check - `rundown-collect check`: whether the machine is quiet enough to
 * measure on, each finding with what to do about it (machinecheck.h).
 * Exit 0 quiet, 1 not, so scripts and `make bench` can gate on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "contention.h"
#include "machinecheck.h"
#include "optable.h"
#include "options.h"
#include "rundown/cli.h"

int rd_cmd_check(int argc, char **argv)
{
    struct rd_contention_opts o;
    rd_contention_defaults(&o);
    double window = 1;
    bool json = false;
    const char *proc = NULL, *sys = NULL;
    struct rd_tool_speed_memory mem = {0};
    bool forget = false;
    struct rd_opts p;
    int c, took;
    rd_opts_begin(&p, &rd_collect_spec_check, argc, argv);
    while ((c = rd_opts_next(&p)) >= 0) {
        const char *arg = rd_opts_arg(&p);
        if ((took = rd_tool_contention_option(c, arg, &o)) >= 0 ||
            (took = rd_tool_speed_memory_option(c, arg, &mem)) >= 0) {
            if (took)
                return took;
            continue;
        }
        struct rd_diag d;
        switch (c) {
        case CO_WINDOW:
            rd_diag_init(&d, NULL);
            if (rd_contention_parse_wait(arg, "--window", &window, &d) || window < 0.05 ||
                window > 600)
                return rd_usage_error("expected --window SEC from 0.05 to 600, got '%s'", arg);
            break;
        case CO_JSON: json = true; break;
        case CO_PROC_ROOT: proc = arg; break;
        case CO_SYS_ROOT: sys = arg; break;
        case CO_FORGET_SPEED: forget = true; break;
        }
    }
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p);
    int first = rd_opts_index(&p);
    if (first < argc)
        return rd_usage_error("check takes no operands, got '%s'", argv[first]);
    char *memory;
    if ((took = rd_tool_speed_memory_path(&mem, forget ? "--forget-speed" : NULL, &memory)))
        return took;
    struct rd_machine_check chk;
    rd_machine_check_run(&chk, proc, sys, window, o.threshold_pct, o.min_speed_pct,
                         o.min_wakeup_pct, memory,
                         forget ? RD_CHECK_MEMORY_FORGET : RD_CHECK_MEMORY_NOTE);
    free(memory);
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
