/*
 * options - the options shared by subcommands (see options.h).
 */
#include "options.h"

#include "rundown/cli.h"

int rd_tool_fact_option(int c, char *arg, struct rd_run_facts *facts, const char **output)
{
    switch (c) {
    case 'w': facts->workload = arg; return RD_EXIT_OK;
    case 'l':
        if (rd_label_args_add(&facts->labels, arg) != RD_OK)
            return rd_usage_error("expected -l KEY=VALUE with a KEY of letters, digits, "
                                  "'_', '-' or '.', got '%s'", arg);
        return RD_EXIT_OK;
    case 's': facts->suite = arg; return RD_EXIT_OK;
    case 'b':
        if (rd_better_args_add(&facts->better, arg) != RD_OK)
            return rd_usage_error("expected --better NAME=lower or NAME=higher with a metric "
                                  "NAME of lower-case letters, digits and '_', got '%s'", arg);
        return RD_EXIT_OK;
    case 'o': *output = arg; return RD_EXIT_OK;
    default: return -1;
    }
}

void rd_tool_warn_metric_lines(const char *run, const struct rd_record *rec)
{
    const char *bad = rd_record_info(rec, "bad_metric_lines");
    const char *dropped = rd_record_info(rec, "dropped_metric_lines");
    if (bad)
        rd_warn("%s: bad metric lines: %s", run, bad);
    if (dropped)
        rd_warn("%s: metric lines dropped: %s", run, dropped);
}
