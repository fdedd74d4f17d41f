/*
 * run - `rundown-collect run`: timed runs of one or more commands, the job
 * hyperfine does, stored as run records.
 *
 * This file reads the command line, labels each command's runs and prints;
 * the interleaved loop is timedruns.c and the store a session (session.h),
 * which appends and fsyncs each run the moment it ends, so an interrupt
 * loses at most the run in flight.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmdsplit.h"
#include "commands.h"
#include "envinfo.h"
#include "optable.h"
#include "options.h"
#include "proc.h"
#include "runner.h"
#include "rundown/fsutil.h"
#include "session.h"
#include "runwarn.h"
#include "runsummary.h"
#include "timedruns.h"
#include "rundown/buf.h"
#include "rundown/cli.h"

#define MAX_COMMANDS 64

struct run_cmd {
    char **argv;        /* what is spawned */
    char *text;         /* the command as written (parameters put in), for info */
    const char *name;   /* the 'command' label; NULL: only parameter labels */
    char **words;       /* its words with the parameters put in, or NULL */
    char *tmpl;         /* with parameters: the command before they are put in */
    size_t param;       /* its parameter combination (index into the scan) */
    size_t operand;     /* the operand (command as typed) it came from */
    char *shown;        /* with a scan: its name or text with the values put
                           in, as hyperfine names it; NULL: the name or text */
};

/* What the terminal calls command c: the progress line, the summary and
 * the warnings. */
static const char *shown(const struct run_cmd *c)
{
    return c->shown ? c->shown : c->name ? c->name : c->text;
}

/* -L VAR a,b,c or -P VAR MIN MAX [-D STEP]: one parameter of a scan. */
struct run_param {
    const char *var;
    char *values[256];
    size_t n;
};

#define MAX_PARAMS 4

struct run_opts {
    long runs, warmups, sample_ms, min_runs, max_runs;
    bool runs_given, ignore_failure, resume, quiet, show_output;
    const char *reference;  /* --reference CMD; NULL: the fastest */
    size_t ref_added;       /* 1: CMD is an operand of its own, the first */
    size_t ref_index;       /* the reference among the commands; MAX_COMMANDS: none */
    double timeout;
    const char *shell;  /* NULL: none (-N) */
    const char *output, *setup, *prepare, *conclude, *cleanup, *cpus, *log_dir, *env;
    const char *export_markdown, *export_json, *export_csv;
    char *names;
    const char *cmd_names[MAX_COMMANDS];
    size_t ncmd_names;
    struct run_param params[MAX_PARAMS];
    size_t nparams;
    const char *scan[3];  /* -P VAR MIN MAX until -D is known */
    const char *step;
    struct rd_run_facts facts;
    struct rd_contention_opts contention;
    struct rd_tool_speed_memory memory;
    char *memory_path;    /* the remembered best's file (malloc'd); NULL: none */
};

/* The value of each parameter in combination k (the first parameter
 * varies slowest). */
static void combination(const struct run_opts *o, size_t k, size_t *pick)
{
    for (size_t i = o->nparams; i-- > 0; k /= o->params[i].n)
        pick[i] = k % o->params[i].n;
}

/* What the session's reports need to print a run's name and progress. */
struct run_ui {
    const struct run_cmd *cmds;
    size_t ncmds;
    const char *workload;
    bool progress;      /* a progress line is shown on stderr */
    bool color;         /* NO_COLOR is unset or empty */
    long runs;          /* measured runs per command */
    struct rd_run_tally *tallies;  /* one per command */
    struct rd_run_watch *watches;  /* one per command, for the warnings */
    struct timespec start;
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* "node -e 1  [#####     ] 5/10  mean 41.2 ms  ETA 3 s": the command's
 * measured runs, the whole session's time left from its pace so far. */
static void progress_line(const struct run_ui *ui, const struct rd_session_event *ev,
                          const char *name)
{
    const struct rd_run_tally *t = &ui->tallies[ev->config->index];
    long done = ev->config->stored[RD_PHASE_MEASURE];
    int filled = ui->runs ? (int)(20 * done / ui->runs) : 0;
    char bar[21], mean[32] = "-", eta[32] = "";
    memset(bar, '#', (size_t)filled);
    memset(bar + filled, ' ', (size_t)(20 - filled));
    bar[20] = '\0';
    if (t->n)
        rd_format_ms(t->mean, mean, sizeof mean);
    if (ev->step > 0)
        snprintf(eta, sizeof eta, "  ETA %.0f s",
                 seconds_since(&ui->start) / (double)ev->step * (double)(ev->steps - ev->step));
    fprintf(stderr, "\r\033[K%s  %s[%s]%s %ld/%ld  mean %s%s%s", name,
            ui->color ? "\033[36m" : "", bar, ui->color ? "\033[0m" : "", done, ui->runs,
            mean, eta, strcmp(ev->rec->phase, "warmup") ? "" : "  (warmup)");
}

static char *join_argv(char **argv, int n)
{
    struct rd_buf b = RD_BUF_INIT;
    if (rd_argv_join(argv, (size_t)n, &b)) {
        rd_buf_release(&b);
        return NULL;
    }
    return rd_buf_detach(&b, NULL);
}

/*
 * Command rc from its operands: one command string (lists false), split
 * into words unless a shell runs it, or an argv list of n words. Its text
 * is what was typed, the label and the record's info say it so. An exit
 * code.
 */
static int command_from_operands(struct run_cmd *rc, char **words, int n, bool lists,
                                 const char *shell)
{
    rc->text = lists ? join_argv(words, n) : strdup(words[0]);
    if (!rc->text)
        return rd_fail(RD_ERR_NOMEM, NULL);
    if (shell) {
        rc->argv = calloc(4, sizeof *rc->argv);
        if (!rc->argv)
            return rd_fail(RD_ERR_NOMEM, NULL);
        rc->argv[0] = (char *)shell;
        rc->argv[1] = "-c";
        rc->argv[2] = rc->text;
        return RD_EXIT_OK;
    }
    if (lists) {
        rc->argv = calloc((size_t)n + 1, sizeof *rc->argv);
        if (!rc->argv)
            return rd_fail(RD_ERR_NOMEM, NULL);
        memcpy(rc->argv, words, (size_t)n * sizeof *words);
    } else {
        struct rd_diag d;
        rd_diag_init(&d, NULL);
        size_t nwords;
        rd_status st = rd_command_split(rc->text, &rc->argv, &nwords, &d);
        if (st == RD_ERR_USAGE)
            return rd_usage_error("in '%s': %s", rc->text, d.msg);
        if (st)
            return rd_fail(st, &d);
    }
    char path[4096];
    if (rd_which(rc->argv[0], path, sizeof path))
        return RD_EXIT_OK;
    if (lists && n == 1 && strpbrk(words[0], " \t"))
        return rd_usage_error("command not found: '%s' (after '--' each word is one "
                              "argument; without '--' each argument is a whole command)",
                              rc->argv[0]);
    return rd_usage_error("command not found: '%s'", rc->argv[0]);
}

/* s with each {VAR} of the scan replaced by the value 'pick' chooses for
 * it; NULL when out of memory. */
static char *substitute(const char *s, const struct run_opts *o, const size_t *pick)
{
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = RD_OK;
    while (*s && !st) {
        size_t i = o->nparams;
        if (*s == '{')
            for (i = 0; i < o->nparams; i++) {
                size_t len = strlen(o->params[i].var);
                if (strncmp(s + 1, o->params[i].var, len) == 0 && s[1 + len] == '}')
                    break;
            }
        if (i < o->nparams) {
            st = rd_buf_addstr(&b, o->params[i].values[pick[i]]);
            s += strlen(o->params[i].var) + 2;
        } else {
            st = rd_buf_addch(&b, *s++);
        }
    }
    if (st) {
        rd_buf_release(&b);
        return NULL;
    }
    return rd_buf_detach(&b, NULL);
}

/* The commands of the operands argv[i..j) for every combination of the
 * scan's values, the first parameter varying slowest: into cmds. */
static int expand_operands(struct run_cmd *cmds, size_t *ncmds, size_t operand, char **words,
                           int n, bool lists, const struct run_opts *o)
{
    size_t combos = 1, pick[MAX_PARAMS] = {0};
    for (size_t i = 0; i < o->nparams; i++)
        combos *= o->params[i].n;
    for (size_t k = 0; k < combos; k++) {
        if (*ncmds == MAX_COMMANDS)
            return rd_usage_error("at most %d commands (parameter values included)",
                                  MAX_COMMANDS);
        combination(o, k, pick);
        struct run_cmd *rc = &cmds[(*ncmds)++];
        memset(rc, 0, sizeof *rc);
        rc->param = k;
        rc->operand = operand;
        if (o->nparams) {
            if (!(rc->tmpl = lists ? join_argv(words, n) : strdup(words[0])))
                return rd_fail(RD_ERR_NOMEM, NULL);
            if (!(rc->words = calloc((size_t)n + 1, sizeof *rc->words)))
                return rd_fail(RD_ERR_NOMEM, NULL);
            for (int w = 0; w < n; w++)
                if (!(rc->words[w] = substitute(words[w], o, pick)))
                    return rd_fail(RD_ERR_NOMEM, NULL);
        }
        int rcode = command_from_operands(rc, rc->words ? rc->words : words, n, lists,
                                          o->shell);
        if (rcode)
            return rcode;
    }
    return RD_EXIT_OK;
}

static int parse_count(const char *arg, const char *what, long min, long *out)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (!*arg || *end || v < min || v > 1000000)
        return rd_usage_error("expected %s to be a whole number >= %ld, got '%s'", what, min, arg);
    *out = v;
    return 0;
}

static bool is_number(const char *s)
{
    char *end;
    strtod(s, &end);
    return *s && !*end;
}

/* -P VAR MIN MAX with the step of -D (default 1): the values MIN, MIN +
 * STEP, ... up to MAX, written with as many decimals as the widest of the
 * three. An exit code. */
static int scan_values(struct run_opts *o)
{
    const char *step = o->step ? o->step : "1";
    if (!is_number(o->scan[1]) || !is_number(o->scan[2]) || !is_number(step))
        return rd_usage_error("expected -P VAR MIN MAX with numbers, got '%s %s' (-D '%s')",
                              o->scan[1], o->scan[2], step);
    double lo = strtod(o->scan[1], NULL), hi = strtod(o->scan[2], NULL), d = strtod(step, NULL);
    if (!(d > 0) || hi < lo || (hi - lo) / d > 255)
        return rd_usage_error("-P %s %s %s: expected MIN <= MAX and at most 256 values of "
                              "step %s", o->scan[0], o->scan[1], o->scan[2], step);
    int decimals = 0;
    const char *nums[3] = {o->scan[1], o->scan[2], step};
    for (int i = 0; i < 3; i++) {
        const char *dot = strchr(nums[i], '.');
        if (dot && (int)strlen(dot + 1) > decimals)
            decimals = (int)strlen(dot + 1);
    }
    struct run_param *pm = &o->params[o->nparams++];
    pm->var = o->scan[0];
    /* Counted, not summed, so that 0.1 steps do not drift past MAX. */
    for (long k = 0; lo + (double)k * d <= hi + d * 1e-9; k++) {
        char v[64];
        snprintf(v, sizeof v, "%.*f", decimals, lo + (double)k * d);
        if (!(pm->values[pm->n++] = strdup(v)))
            return rd_fail(RD_ERR_NOMEM, NULL);
    }
    return RD_EXIT_OK;
}

/* -L VAR a,b,c: the list is split in place (it is argv's). */
static int list_values(struct run_opts *o, const char *var, char *list)
{
    if (!list)
        return rd_usage_error("-L %s needs its values: -L VAR a,b,c", var);
    if (o->nparams == MAX_PARAMS)
        return rd_usage_error("at most %d parameters", MAX_PARAMS);
    struct run_param *pm = &o->params[o->nparams++];
    pm->var = var;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (pm->n == 256)
            return rd_usage_error("-L %s: at most 256 values", var);
        if (!(pm->values[pm->n++] = strdup(tok)))
            return rd_fail(RD_ERR_NOMEM, NULL);
    }
    return pm->n ? RD_EXIT_OK : rd_usage_error("-L %s: no values in '%s'", var, list);
}

/* What the options moved by issue 29 still mean to those who typed them. */
static int moved_option(int c, const char *arg)
{
    if (c == CO_OLD_W)
        return rd_usage_error("-W is gone: the warmup runs are -w/--warmup N, as in hyperfine; "
                              "the workload is --workload NAME");
    if (c == 'w')
        return rd_usage_error("-w is --warmup, as in hyperfine, and takes a number, got '%s'; "
                              "the workload is --workload NAME", arg);
    return rd_usage_error("-n is --command-name, as in hyperfine, got the number '%s'; "
                          "the measured runs are -r/--runs N", arg);
}

/* The shell of -S/--shell: 'none', or a program on PATH. */
static int shell_option(struct run_opts *o, const char *arg)
{
    char path[4096];
    if (strcmp(arg, "none") == 0)
        o->shell = NULL;
    else if (rd_which(arg, path, sizeof path))
        o->shell = arg;
    else
        return rd_usage_error("expected -S/--shell SHELL, a shell like sh or bash (or none), "
                              "got '%s'", arg);
    return RD_EXIT_OK;
}

/* One option of run into *o; an exit code. */
static int run_option(struct run_opts *o, struct rd_opts *p, int c, char *arg)
{
    switch (c) {
    case 'w':
        return is_number(arg) ? parse_count(arg, "-w/--warmup", 0, &o->warmups)
                              : moved_option(c, arg);
    case 'r':
        o->runs_given = true;
        return parse_count(arg, "-r/--runs", 1, &o->runs);
    case 'm': return parse_count(arg, "-m/--min-runs", 1, &o->min_runs);
    case 'M': return parse_count(arg, "-M/--max-runs", 1, &o->max_runs);
    case 'n':
        if (is_number(arg) && strspn(arg, "0123456789") == strlen(arg))
            return moved_option(c, arg);
        if (o->ncmd_names == MAX_COMMANDS)
            return rd_usage_error("at most %d -n/--command-name", MAX_COMMANDS);
        o->cmd_names[o->ncmd_names++] = arg;
        return RD_EXIT_OK;
    case CO_OLD_W: return moved_option(c, arg);
    case 'L': return list_values(o, arg, rd_opts_take(p));
    case 'P':
        o->scan[0] = arg;
        o->scan[1] = rd_opts_take(p);
        o->scan[2] = o->scan[1] ? rd_opts_take(p) : NULL;
        return o->scan[2] ? RD_EXIT_OK
                          : rd_usage_error("-P %s needs MIN and MAX: -P VAR MIN MAX", arg);
    case 'D': o->step = arg; return RD_EXIT_OK;
    case 'N': o->shell = NULL; return RD_EXIT_OK;
    case 'S': return shell_option(o, arg);
    case 'i': o->ignore_failure = true; return RD_EXIT_OK;
    case CO_TIMEOUT: {
        char *end;
        o->timeout = strtod(arg, &end);
        if (!*arg || *end || !(o->timeout > 0))
            return rd_usage_error("expected --timeout SECONDS > 0, got '%s'", arg);
        return RD_EXIT_OK;
    }
    case 's': o->setup = arg; return RD_EXIT_OK;
    case 'p': o->prepare = arg; return RD_EXIT_OK;
    case 'C': o->conclude = arg; return RD_EXIT_OK;
    case 'c': o->cleanup = arg; return RD_EXIT_OK;
    case CO_CPUS: {
        unsigned char mask[128];
        if (!rd_cpulist_parse(arg, mask))
            return rd_usage_error("expected --cpus like 0 or 0-1,3, got '%s'", arg);
        o->cpus = arg;
        return RD_EXIT_OK;
    }
    case CO_SAMPLE:
        if (parse_count(arg, "--sample-interval", 0, &o->sample_ms))
            return RD_EXIT_USAGE;
        if (o->sample_ms == 0)
            o->sample_ms = -1;
        return RD_EXIT_OK;
    case CO_WORKLOAD: o->facts.workload = arg; return RD_EXIT_OK;
    case CO_SUITE: o->facts.suite = arg; return RD_EXIT_OK;
    case CO_RESUME: o->resume = true; return RD_EXIT_OK;
    case CO_LOG_DIR: o->log_dir = arg; return RD_EXIT_OK;
    case CO_ENV: o->env = arg; return RD_EXIT_OK;
    case CO_NAMES: o->names = arg; return RD_EXIT_OK;
    case 'q': o->quiet = true; return RD_EXIT_OK;
    case CO_SHOW_OUTPUT: o->show_output = true; return RD_EXIT_OK;
    case CO_REFERENCE: o->reference = arg; return RD_EXIT_OK;
    case CO_EXPORT_MD: o->export_markdown = arg; return RD_EXIT_OK;
    case CO_EXPORT_JSON: o->export_json = arg; return RD_EXIT_OK;
    case CO_EXPORT_CSV: o->export_csv = arg; return RD_EXIT_OK;
    default: {
        int took = rd_tool_fact_option(c, arg, &o->facts, &o->output);
        if (took < 0)
            took = rd_tool_contention_option(c, arg, &o->contention);
        if (took < 0)
            took = rd_tool_speed_memory_option(c, arg, &o->memory);
        return took > 0 ? took : RD_EXIT_OK;
    }
    }
}

/* The options' consequences for each other, once all are read. */
static int settle_options(struct run_opts *o)
{
    if (o->runs_given && (o->min_runs || o->max_runs))
        return rd_usage_error("-r/--runs cannot go with -m/--min-runs or -M/--max-runs");
    if (o->min_runs && o->max_runs && o->min_runs > o->max_runs)
        return rd_usage_error("-m/--min-runs %ld is above -M/--max-runs %ld", o->min_runs,
                              o->max_runs);
    if (o->min_runs && o->runs < o->min_runs)
        o->runs = o->min_runs;
    if (o->max_runs && o->runs > o->max_runs)
        o->runs = o->max_runs;
    if (o->names) {
        if (o->ncmd_names)
            return rd_usage_error("-n/--command-name and --names exclude each other");
        char *save = NULL;
        for (char *tok = strtok_r(o->names, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            if (o->ncmd_names < MAX_COMMANDS)
                o->cmd_names[o->ncmd_names++] = tok;
            else
                return rd_usage_error("--names gives more names than there are commands");
    }
    if (o->reference && (o->scan[0] || o->nparams))
        return rd_usage_error("--reference cannot go with -L/-P: a scan's values are compared "
                              "with each other (rundown-analyze --compare-by VAR=A,B,...)");
    if (o->step && !o->scan[0])
        return rd_usage_error("-D/--parameter-step-size needs -P/--parameter-scan");
    if (o->scan[0] && o->nparams == MAX_PARAMS)
        return rd_usage_error("at most %d parameters", MAX_PARAMS);
    int rc = rd_tool_speed_memory_path(&o->memory, NULL, &o->memory_path);
    if (rc)
        return rc;
    if (o->scan[0])
        return scan_values(o);
    return RD_EXIT_OK;
}

/*
 * Reads the options into *o and gathers the operands into *ops (*nops of
 * them; the caller frees the array, not the words): as in hyperfine,
 * options may come after the commands ('CMD' --export-json F), up to a
 * '--', after which every word is a command's (*lists: argv lists
 * separated by '--'). -1 to go on, else an exit code.
 */
static int parse_run_args(int argc, char **argv, struct run_opts *o, char ***ops, int *nops,
                          bool *lists)
{
    struct rd_opts p;
    int c, rc;
    rd_opts_begin(&p, &rd_collect_spec_run, argc, argv);
    if (!(*ops = malloc((size_t)argc * sizeof **ops)))
        return rd_fail(RD_ERR_NOMEM, NULL);
    *nops = 0;
    const char *last_arg = NULL;
    while ((c = rd_opts_next(&p)) >= 0) {
        if (c == RD_OPTS_OPERAND) {
            (*ops)[(*nops)++] = rd_opts_arg(&p);
            last_arg = NULL;
            continue;
        }
        last_arg = rd_opts_arg(&p);
        if ((rc = run_option(o, &p, c, rd_opts_arg(&p))))
            return rc;
    }
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p);
    if ((rc = settle_options(o)))
        return rc;
    /* Any '--' makes the operands after it argv lists, for exact
     * arguments; before it each operand is a whole command, as hyperfine
     * users type it. A '--' that was an option's argument is none. */
    int next = rd_opts_index(&p);
    *lists = next > 1 && argv[next - 1] != last_arg && strcmp(argv[next - 1], "--") == 0;
    if (*lists && *nops)
        return rd_usage_error("'%s' before '--': after a '--' every command is its words "
                              "('-- CMD ARG... -- CMD2 ARG...'); put them all after it, or "
                              "quote each command and drop the '--'", (*ops)[0]);
    for (int i = next; i < argc; i++)
        (*ops)[(*nops)++] = argv[i];
    if (*nops == 0)
        return rd_usage_error("run needs a command: rundown-collect run [OPTIONS] 'CMD ARG...'");
    if (o->resume && (!o->output || strcmp(o->output, "-") == 0))
        return rd_usage_error("--resume needs -o STORE: the runs to top up are counted there");
    for (int i = 0; i < *nops; i++)
        *lists = *lists || strcmp((*ops)[i], "--") == 0;
    return -1;
}

/* The 'command' label of each command: -n NAME in order, --names, or the
 * text, so that runs of different commands never share a config by
 * accident; with a parameter scan the text before the parameters are put
 * in. None for a single command whose config -l or a scan's parameter
 * labels name already. An exit code. */
static int name_commands(struct run_cmd *cmds, size_t ncmds, size_t noperands,
                         struct run_opts *o)
{
    /* With a scan, one name per command as typed names all its values; a
     * --reference run as a command of its own (the first) is named by its
     * text. */
    size_t skip = o->ref_added;
    /* hyperfine's rule for -n: fewer names than commands name the first
     * ones, the rest go by their text; more are refused. --names names
     * them all. */
    bool per_operand = o->ncmd_names == noperands - skip ||
                       (!o->names && o->ncmd_names < noperands - skip);
    if (o->ncmd_names && !per_operand && o->ncmd_names != ncmds - skip)
        return rd_usage_error("%s gives %s names than there are commands",
                              o->names ? "--names" : "-n/--command-name",
                              o->ncmd_names < noperands - skip ? "fewer" : "more");
    for (size_t k = 0; k < ncmds; k++) {
        size_t at = k < skip ? 0 : per_operand ? cmds[k].operand - skip : k - skip;
        cmds[k].name = k < skip ? cmds[k].text
                       : at < o->ncmd_names ? o->cmd_names[at]
                       : o->nparams ? (noperands > 1 || o->ncmd_names ? cmds[k].tmpl : NULL)
                       : ncmds > 1 || !o->facts.labels.len ? cmds[k].text : NULL;
    }
    /* A scan's values are one config each: the terminal names each by its
     * values put in ('sleep 0.05'), as hyperfine does, never all alike. */
    for (size_t k = 0; k < ncmds && o->nparams; k++) {
        size_t pick[MAX_PARAMS];
        combination(o, cmds[k].param, pick);
        if (!(cmds[k].shown = cmds[k].name ? substitute(cmds[k].name, o, pick)
                                           : strdup(cmds[k].text)))
            return rd_fail(RD_ERR_NOMEM, NULL);
        if (cmds[k].name && strcmp(cmds[k].shown, cmds[k].name) == 0) {
            /* a name without {VAR}: the values after it, 'first (d=0.5)' */
            struct rd_buf b = RD_BUF_INIT;
            rd_status st = rd_buf_addstr(&b, cmds[k].name);
            for (size_t i = 0; i < o->nparams && !st; i++)
                st = rd_buf_addf(&b, "%s%s=%s", i ? ", " : " (", o->params[i].var,
                                 o->params[i].values[pick[i]]);
            if (!st)
                st = rd_buf_addch(&b, ')');
            free(cmds[k].shown);
            if (st || !(cmds[k].shown = rd_buf_detach(&b, NULL))) {
                rd_buf_release(&b);
                return rd_fail(RD_ERR_NOMEM, NULL);
            }
        }
    }
    return RD_EXIT_OK;
}

/* The commands from the operands argv[first..argc). An exit code. */
static int build_commands(int argc, char **argv, int first, bool lists, struct run_opts *o,
                          struct run_cmd *cmds, size_t *ncmds)
{
    size_t noperands = 0;
    for (int i = first; i < argc;) {
        int j = lists ? i : i + 1;
        while (lists && j < argc && strcmp(argv[j], "--") != 0)
            j++;
        if (j == i)
            return rd_usage_error("empty command between '--' separators");
        int rc = expand_operands(cmds, ncmds, noperands, argv + i, j - i, lists, o);
        if (rc)
            return rc;
        noperands++;
        i = lists && j < argc ? j + 1 : j;
    }
    return name_commands(cmds, *ncmds, noperands, o);
}

static void free_commands(struct run_cmd *cmds, size_t ncmds)
{
    for (size_t k = 0; k < ncmds; k++) {
        free(cmds[k].argv);
        free(cmds[k].text);
        free(cmds[k].tmpl);
        free(cmds[k].shown);
        for (size_t w = 0; cmds[k].words && cmds[k].words[w]; w++)
            free(cmds[k].words[w]);
        free(cmds[k].words);
    }
}

/* --reference CMD: the command it names (its text or its name), else CMD
 * run as one more command, the first, as hyperfine runs it. Sets
 * o->ref_index; an exit code. */
static int find_reference(int argc, char **argv, int first, bool lists, struct run_opts *o,
                          struct run_cmd *cmds, size_t *ncmds)
{
    for (size_t k = 0; k < *ncmds; k++)
        if (strcmp(cmds[k].text, o->reference) == 0 ||
            (cmds[k].name && strcmp(cmds[k].name, o->reference) == 0)) {
            o->ref_index = k;
            return RD_EXIT_OK;
        }
    if (lists)
        return rd_usage_error("--reference '%s' is none of the commands: after '--' it must "
                              "name one (its words as typed, or its -n name)", o->reference);
    char **args = malloc((size_t)(argc - first + 1) * sizeof *args);
    if (!args)
        return rd_fail(RD_ERR_NOMEM, NULL);
    args[0] = (char *)o->reference;
    memcpy(args + 1, argv + first, (size_t)(argc - first) * sizeof *args);
    free_commands(cmds, *ncmds);
    *ncmds = 0;
    o->ref_added = 1;
    o->ref_index = 0;
    int rc = build_commands(argc - first + 1, args, 0, false, o, cmds, ncmds);
    free(args);
    return rc;
}

/* The workload: --workload, else the program's name as typed (the first
 * word, under a shell too). */
static void workload_name(const struct run_opts *o, const struct run_cmd *c0, char *out,
                          size_t size)
{
    if (o->facts.workload) {
        snprintf(out, size, "%s", o->facts.workload);
        return;
    }
    char first[256];
    if (o->shell)
        snprintf(first, sizeof first, "%.*s", (int)strcspn(c0->text, " \t"), c0->text);
    else
        snprintf(first, sizeof first, "%s", c0->argv[0]);
    snprintf(out, size, "%s", basename(first));
}

/* Runs each command's --setup or --cleanup (sh -c), with its parameters
 * put in; false after printing why one failed. */
static bool run_once(const char *what, const char *cmd, const struct run_opts *o,
                     const struct run_cmd *cmds, size_t ncmds)
{
    for (size_t k = 0; cmd && k < ncmds; k++) {
        size_t pick[MAX_PARAMS];
        combination(o, cmds[k].param, pick);
        char *text = substitute(cmd, o, pick);
        char *sh[] = {"/bin/sh", "-c", text, NULL};
        struct rd_proc proc;
        struct rd_diag d;
        rd_diag_init(&d, NULL);
        rd_status st = text ? rd_proc_run_capture(&proc, sh, NULL, 0, 4096, &d) : RD_ERR_NOMEM;
        int code = st ? -1 : rd_proc_exit_code(&proc);
        if (!st)
            rd_proc_release(&proc);
        if (st || code != 0) {
            rd_error("the %s command '%s' %s%d", what, text ? text : cmd,
                     st ? "could not run: " : "exited with status ", st ? (int)st : code);
            free(text);
            return false;
        }
        free(text);
    }
    return true;
}

/* The progress line before each run; a warning after each run that failed
 * or lost metric lines (malformed, or past the cap on names). */
static void report(void *vui, const struct rd_session_event *ev)
{
    const struct run_ui *ui = vui;
    const struct rd_record *r = ev->rec;
    if (ev->kind == RD_SESSION_NOTE) {
        rd_warn("%s", ev->note);
        return;
    }
    const struct run_cmd *rc = &ui->cmds[ev->config->index];
    const char *name = ui->ncmds > 1 && rc->name ? shown(rc) : ui->workload;
    if (ev->kind == RD_SESSION_STARTING) {
        if (ui->progress && r)
            progress_line(ui, ev, shown(rc));
        return;
    }
    /* A time that cannot be kept fails the JSON and CSV exports only. */
    (void)rd_run_tally_add(&ui->tallies[ev->config->index], r);
    (void)rd_run_watch_add(&ui->watches[ev->config->index], r);
    if (strcmp(r->status, "ok") != 0) {
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_warn("%s %s %ld: %s: %s", name, r->phase, r->run, r->status,
                rd_record_info(r, "error") ? rd_record_info(r, "error") : "");
    }
    if (rd_record_info(r, "bad_metric_lines") || rd_record_info(r, "dropped_metric_lines")) {
        char run[400];
        snprintf(run, sizeof run, "%s %s %ld", name, r->phase, r->run);
        if (ui->progress)
            fputs("\r\033[K", stderr);
        rd_tool_warn_metric_lines(run, r);
    }
    if (ui->progress)
        fputs("\r\033[K", stderr);
    rd_tool_warn_losses(ui->ncmds > 1 ? rc->name : NULL, r);
}

/* The template of command rc's runs: the facts, its label, its text. */
static rd_status add_command_config(struct rd_session *s, const struct run_opts *o,
                                    const struct run_cmd *rc, struct rd_session_config **cfg)
{
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    rd_status st = r ? rd_run_facts_apply(&o->facts, r) : RD_ERR_NOMEM;
    if (!st && rc->name) st = rd_record_set_label(r, "command", rc->name);
    size_t pick[MAX_PARAMS];
    combination(o, rc->param, pick);
    for (size_t i = 0; i < o->nparams && !st; i++)
        st = rd_record_set_label(r, o->params[i].var, o->params[i].values[pick[i]]);
    if (!st) st = rd_record_set_info(r, "command", rc->text);
    if (!st && o->cpus) st = rd_record_set_info(r, "cpus", o->cpus);
    if (!st && o->ignore_failure) st = rd_record_set_info(r, "ignore_failure", "true");
    if (!st) st = rd_session_add_config(s, r, cfg);
    rd_recordset_release(&set);
    return st;
}

/* The summary and its exports once every run is done; an exit code
 * (exit_code, unless an export fails). */
static int finish(const struct run_opts *o, const struct rd_run_tally *tallies, size_t n,
                  int exit_code)
{
    struct rd_run_summary sum;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status st = rd_run_summary_compute(&sum, tallies, n);
    if (!st && o->ref_index < n)
        st = rd_run_summary_reference(&sum, o->ref_index);
    if (st)
        return rd_fail(st, &d);
    if (!o->quiet) {
        FILE *out = o->output && strcmp(o->output, "-") ? stdout : stderr;
        struct rd_buf text = RD_BUF_INIT;
        st = rd_run_summary_text(&sum, &text);
        if (!st)
            fputs(text.ptr, out);
        rd_buf_release(&text);
        if (st)
            return rd_fail(st, &d);
        /* A summary lost to a full disk or a closed pipe is an output that
         * failed, as a failed --export-json is. */
        if (fflush(out) != 0 || ferror(out)) {
            int e = errno;
            return rd_fail(rd_diag_set(&d, RD_ERR_IO, NULL, 0, 0,
                                       "could not write the summary to %s: %s",
                                       out == stdout ? "standard output" : "standard error",
                                       strerror(e ? e : EIO)),
                           &d);
        }
    }
    if (o->export_markdown && (st = rd_run_summary_export_markdown(&sum, o->export_markdown, &d)))
        return rd_fail(st, &d);
    if (o->export_json && (st = rd_run_summary_export_json(&sum, o->export_json, &d)))
        return rd_fail(st, &d);
    if (o->export_csv && (st = rd_run_summary_export_csv(&sum, o->export_csv, &d)))
        return rd_fail(st, &d);
    return exit_code;
}

/* The environment file and the log folder, with the version of every
 * program measured (asked once per program), once enough descriptors are
 * known to be free. An exit code on failure, else -1. */
static int prepare_outputs(struct run_opts *o, const struct rd_session *session,
                           const struct run_cmd *cmds, size_t ncmds, struct rd_outputs *outs)
{
    struct rd_env_probe probes[MAX_COMMANDS];
    struct rd_env_program *programs = calloc(ncmds, sizeof *programs);
    if (!programs)
        return rd_fail(RD_ERR_NOMEM, NULL);
    for (size_t k = 0; k < ncmds; k++)
        rd_env_probe_program(&probes[k], "runtime", o->shell ? cmds[k].text : cmds[k].argv[0],
                             o->shell != NULL, &programs[k]);
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    /* Refused before the environment file or a log is made. */
    rd_status st = rd_fds_check(RD_RUN_FDS, "collect", "runs", NULL, &d);
    if (!st) {
        /* Before any child starts (a version probe, --prepare), so that a
         * signal stops it too. */
        rd_proc_catch_signals();
        st = rd_env_prepare_outputs(session->store, o->log_dir, o->env, probes, ncmds, o->cpus,
                                    o->memory_path, outs, &d);
    }
    free(programs);
    if (st)
        return rd_tool_fail(st, &d, NULL);
    o->facts.env = outs->envid;
    return -1;
}

/* The session's configs, one per command, whose runs are numbered after
 * those the store already holds for the same key. */
static rd_status add_configs(struct rd_session *session, const struct run_opts *o,
                             const struct run_cmd *cmds, size_t ncmds,
                             struct rd_timed_command *timed, struct rd_diag *d)
{
    rd_status st = rd_session_read_store(session, d);
    for (size_t k = 0; k < ncmds && !st; k++) {
        timed[k].argv = cmds[k].argv;
        st = add_command_config(session, o, &cmds[k], &timed[k].config);
    }
    return st;
}

/* The exit code of runs that ended with st: interrupted, failed, a failed
 * --cleanup, nothing to do (--resume), else the summary, its exports and
 * the warnings about the runs. */
static int conclude(const struct run_opts *o, const struct rd_session *session, rd_status st,
                    struct rd_diag *d, const struct run_ui *ui)
{
    if (st && rd_proc_interrupted) {
        rd_error("interrupted; %ld finished runs are stored", session->stored);
        return rd_proc_interrupt_exit_code();
    }
    if (st)
        return rd_fail(st, d);
    if (!run_once("cleanup", o->cleanup, o, ui->cmds, ui->ncmds))
        return RD_EXIT_RUN_FAILED;
    if (o->resume && session->stored == 0) {
        /* Not a summary of no runs ("no run ended ok"): there was nothing to run. */
        rd_note("nothing to do: %ld runs already stored in %s (%ld per command)",
                o->runs * (long)ui->ncmds, o->output, o->runs);
        return RD_EXIT_OK;
    }
    int rc = finish(o, ui->tallies, ui->ncmds, session->failed ? RD_EXIT_RUN_FAILED : RD_EXIT_OK);
    struct rd_run_warn_ctx wc = {.warmups = o->warmups, .shell = o->shell != NULL,
                                 .ignore_failure = o->ignore_failure};
    for (size_t k = 0; k < ui->ncmds && !o->quiet; k++)
        rd_run_watch_warn(&ui->watches[k], &wc);
    return rc;
}

/* The outputs (environment, logs) and the session's configs, then
 * --setup, the interleaved runs, and their end. An exit code. */
static int measure(struct run_opts *o, struct rd_session *session, struct run_cmd *cmds,
                   size_t ncmds, const char *workload)
{
    struct rd_outputs outs;
    int rc = prepare_outputs(o, session, cmds, ncmds, &outs);
    if (rc >= 0)
        return rc;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    struct rd_timed_command timed[MAX_COMMANDS];
    rd_status st = add_configs(session, o, cmds, ncmds, timed, &d);
    if (st)
        return rd_tool_fail(st, &d, NULL);

    struct rd_run_tally tallies[MAX_COMMANDS];
    struct rd_run_watch watches[MAX_COMMANDS];
    for (size_t k = 0; k < ncmds; k++) {
        rd_run_tally_init(&tallies[k], shown(&cmds[k]));
        rd_run_watch_init(&watches[k], shown(&cmds[k]));
        /* hyperfine's "parameters" of the exports */
        size_t pick[MAX_PARAMS];
        combination(o, cmds[k].param, pick);
        for (size_t i = 0; i < o->nparams && i < RD_RUN_TALLY_PARAMS; i++) {
            tallies[k].param_var[i] = o->params[i].var;
            tallies[k].param_value[i] = o->params[i].values[pick[i]];
        }
        tallies[k].nparams = o->nparams < RD_RUN_TALLY_PARAMS ? o->nparams : RD_RUN_TALLY_PARAMS;
    }
    const char *no_color = getenv("NO_COLOR");
    struct run_ui ui = {
        .cmds = cmds, .ncmds = ncmds, .workload = workload, .progress = !o->quiet && !o->show_output && isatty(STDERR_FILENO),
        .color = !no_color || !*no_color, .runs = o->runs, .tallies = tallies,
        .watches = watches,
    };
    clock_gettime(CLOCK_MONOTONIC, &ui.start);
    rd_session_on_report(session, report, &ui);
    struct rd_guard guard;
    rd_guard_init(&guard, &o->contention, NULL);
    rd_guard_use_speed_memory(&guard, o->memory_path);
    rd_guard_on_note(&guard, rd_tool_guard_note, &o->quiet);
    struct rd_timed_spec spec = {
        .cmds = timed, .ncmds = ncmds, .warmups = o->warmups, .runs = o->runs,
        .timeout_s = o->timeout, .prepare = o->prepare, .cleanup = o->conclude,
        .cpus = o->cpus, .sample_ms = (int)o->sample_ms, .top_up = o->resume,
        .log_dir = outs.log_dir, .log_shown = outs.log_shown,
        .ignore_failure = o->ignore_failure, .show_output = o->show_output,
        .guard = o->contention.mode == RD_CONTENTION_OFF ? NULL : &guard,
    };
    if (!run_once("setup", o->setup, o, cmds, ncmds)) {
        rc = RD_EXIT_RUN_FAILED;
    } else {
        st = rd_timed_runs(session, &spec, &d);
        if (ui.progress)
            fputs("\r\033[K", stderr);
        if (spec.guard)
            rd_tool_guard_remember(&guard);
        if (!o->quiet && spec.guard) {
            rd_tool_guard_summary(&guard);
            rd_tool_redo_note(spec.redone, spec.capped, "command");
        }
        rc = conclude(o, session, st, &d, &ui);
    }
    for (size_t k = 0; k < ncmds; k++) {
        rd_run_watch_release(&watches[k]);
        rd_run_tally_release(&tallies[k]);
    }
    return rc;
}

int rd_cmd_run(int argc, char **argv)
{
    struct run_opts o = {.runs = 10, .ref_index = MAX_COMMANDS};
    rd_run_facts_init(&o.facts);
    rd_contention_defaults(&o.contention);
    int nops = 0, exit_code;
    char **ops = NULL;
    bool lists = false;
    if ((exit_code = parse_run_args(argc, argv, &o, &ops, &nops, &lists)) >= 0)
        goto free_params;
    struct run_cmd cmds[MAX_COMMANDS];
    size_t ncmds = 0;
    struct rd_session session;
    rd_session_init(&session, o.output);
    exit_code = build_commands(nops, ops, 0, lists, &o, cmds, &ncmds);
    if (!exit_code && o.reference)
        exit_code = find_reference(nops, ops, 0, lists, &o, cmds, &ncmds);
    char workload[256];
    if (!exit_code) {
        /* --workload NAME is kept whole, as import -w keeps it: a cut name
         * would merge two workloads that share their first bytes. */
        if (!o.facts.workload) {
            workload_name(&o, &cmds[0], workload, sizeof workload);
            o.facts.workload = workload;
        }
        exit_code = measure(&o, &session, cmds, ncmds, o.facts.workload);
    }
    free_commands(cmds, ncmds);
    rd_session_release(&session);
free_params:
    free(ops);
    free(o.memory_path);
    for (size_t i = 0; i < o.nparams; i++)
        for (size_t v = 0; v < o.params[i].n; v++)
            free(o.params[i].values[v]);
    return exit_code;
}
