/*
 * options - the options shared by subcommands (see options.h).
 */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include <unistd.h>

#include "optable.h"
#include "proc.h"
#include "speedmemory.h"
#include "rundown/cli.h"

void rd_tool_warn_losses(const char *name, const struct rd_record *rec)
{
    for (size_t i = 0; i < rec->info.len; i++) {
        const char *k = rec->info.items[i].key;
        size_t n = strlen(k);
        if (strcmp(k, "server_metrics_error") != 0 &&
            (n < 10 || strcmp(k + n - 10, "_log_error") != 0))
            continue;
        rd_warn("%s%s%s %s %ld: %s", name ? name : "", name ? " " : "", rec->workload,
                rec->phase, rec->run, rec->info.items[i].value);
    }
}

int rd_tool_fail(rd_status st, const struct rd_diag *d, const char *what)
{
    if (!rd_proc_interrupted)
        return rd_fail(st, d);
    rd_error("interrupted%s%s", what ? "; " : "", what ? what : "");
    return rd_proc_interrupt_exit_code();
}

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
    case CO_BETTER:
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

int rd_tool_contention_option(int c, const char *arg, struct rd_contention_opts *o)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status st;
    switch (c) {
    case CO_CONTENTION:
        st = rd_contention_parse_mode(arg, "--contention", &o->mode, &d);
        break;
    case CO_CONTENTION_THRESHOLD:
        st = rd_contention_parse_threshold(arg, "--contention-threshold", &o->threshold_pct, &d);
        break;
    case CO_CONTENTION_WAIT:
        st = rd_contention_parse_wait(arg, "--contention-wait", &o->wait_s, &d);
        break;
    case CO_MIN_SPEED:
        st = rd_contention_parse_min_speed(arg, "--min-speed", &o->min_speed_pct, &d);
        break;
    case CO_MIN_WAKEUP:
        st = rd_contention_parse_min_wakeup(arg, "--min-wakeup", &o->min_wakeup_pct, &d);
        break;
    default:
        return -1;
    }
    return st ? rd_usage_error("%s", d.msg) : RD_EXIT_OK;
}

int rd_tool_speed_memory_option(int c, const char *arg, struct rd_tool_speed_memory *m)
{
    switch (c) {
    case CO_CACHE_DIR:
        if (!*arg)
            return rd_usage_error("--cache-dir: expected a directory, got ''");
        m->cache_dir = arg;
        return RD_EXIT_OK;
    case CO_NO_SPEED_MEMORY: m->off = true; return RD_EXIT_OK;
    default: return -1;
    }
}

int rd_tool_speed_memory_path(const struct rd_tool_speed_memory *m, const char *also,
                              char **path)
{
    *path = NULL;
    if (m->off && (m->cache_dir || also))
        return rd_usage_error("--no-speed-memory: expected without --cache-dir%s%s",
                              also ? " and " : "", also ? also : "");
    *path = rd_speed_memory_path(m->cache_dir, m->off);
    return RD_EXIT_OK;
}

void rd_tool_guard_note(void *ctx, const char *line)
{
    const bool *quiet = ctx;
    if (quiet && *quiet)
        return;
    if (isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
    rd_note("%s", line);
}

void rd_tool_guard_remember(struct rd_guard *g)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (rd_guard_remember(g, &d))
        rd_warn("the remembered best CPU speed was not saved: %s", d.msg);
}

void rd_tool_guard_summary(const struct rd_guard *g)
{
    if (g->o.mode == RD_CONTENTION_OFF || g->runs == 0)
        return;
    long known = g->runs - g->unknown;
    if (known == 0) {
        rd_note("contention: unknown (/proc/stat cannot be read)");
        return;
    }
    char slow[480] = "";
    int o = 0;
    /* Which series: the store-reload chain is named when it set runs aside. */
    char store[128] = "";
    if (g->slow_store)
        snprintf(store, sizeof store, " by the multiply-add chain and %.0f %% by the "
                 "store-reload chain (%ld runs slow by it)", g->store_min, g->slow_store);
    if (g->slow)
        o = snprintf(slow, sizeof slow, "; %ld on CPUs below %g %% of their best speed, the "
                     "slowest at %.0f %%%s%s", g->slow, g->o.min_speed_pct, g->speed_min, store,
                     g->slow_by_memory ? ", against the best remembered from earlier checks "
                     "(after a change of hardware: rundown-collect check --forget-speed)" : "");
    if (g->slow_wakeup && o >= 0 && (size_t)o < sizeof slow)
        snprintf(slow + o, sizeof slow - (size_t)o, "; %ld with cross-CPU wake-ups below %g %% "
                 "of their best, the slowest at %.0f %%", g->slow_wakeup, g->o.min_wakeup_pct,
                 g->wake_min);
    rd_note("contention: %ld of %ld runs contended (others used %.1f %% of a CPU on average, "
            "at most %.1f %%%s); waited %.1f s for quiet%s", g->contended, known,
            g->others_sum / (double)known, g->others_max, slow, g->waited_s,
            g->gave_up ? ", and gave up waiting" : "");
}

void rd_tool_redo_note(long redone, bool capped, const char *unit)
{
    if (redone)
        rd_note("contention: %ld contended runs were run again%s%s%s", redone,
                capped ? "; stopped at the cap (as many redos as runs) for a " : "",
                capped ? unit : "",
                capped ? ", so it has fewer quiet runs than asked" : "");
}
