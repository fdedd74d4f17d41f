/*
 * opts.h - one option table per tool and subcommand, in the manner of
 * git's parse-options: each option is declared once (short and long name,
 * argument, help, default, group) and the parsing, --help, the option
 * errors and the man pages' OPTIONS sections all come from that table, so
 * they cannot disagree. Front ends only (it prints and sets getopt's
 * globals); libraries never call it.
 */
#ifndef RUNDOWN_OPTS_H
#define RUNDOWN_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/** One option. A table ends with an entry whose code is 0. */
struct rd_opt {
    int code;               /* what rd_opts_next returns for it (its letter, or >= 128) */
    char short_name;        /* '\0': long only */
    const char *long_name;  /* NULL: short only */
    const char *arg;        /* the value's name ("N"); NULL: takes no value */
    const char *def;        /* the default as shown ("10"); NULL: none to show */
    const char *help;       /* lines split by '\n'; NULL hides the option */
    const char *group;      /* starts a group in --help and the man page */
};

/** How operands mix with options. */
enum rd_opts_order {
    RD_OPTS_PERMUTE,        /* options anywhere, operands collected after */
    RD_OPTS_STOP,           /* the first operand ends the options (`run -- ls -l`) */
    RD_OPTS_IN_PLACE,       /* operands returned in place as RD_OPTS_OPERAND */
};

/** A tool's or a subcommand's command line. */
struct rd_cmd_spec {
    const char *tool;       /* "rundown-collect" */
    const char *command;    /* "run"; NULL for a tool without subcommands */
    const char *synopsis;   /* usage lines without the program, '\n' between them;
                             * one that starts with a blank continues the last */
    const char *about;      /* what --help says before the options */
    const char *epilog;     /* and after them (exit codes); may be NULL */
    enum rd_opts_order order;
    const struct rd_opt *opts;
    void (*more_help)(FILE *out);  /* --help's last part when it is not fixed; may be NULL */
    /* --help's default of option 'code' when it is known only at run time
     * (the man page shows rd_opt.def); NULL, or NULL for the others. */
    const char *(*default_now)(int code);
};

enum {
    RD_OPTS_END = -1,       /* no options left; rd_opts_index() is the first operand */
    RD_OPTS_EXIT = -2,      /* --help, --version or an error: return rd_opts_exit_code() */
    RD_OPTS_OPERAND = 1,    /* an operand, in place (RD_OPTS_IN_PLACE): rd_opts_arg() */
};

#define RD_OPTS_MAX 64

/** The state of one pass over argv. */
struct rd_opts {
    const struct rd_cmd_spec *spec;
    int argc;
    char **argv;
    struct option longopts[RD_OPTS_MAX + 1];
    char shortopts[3 * RD_OPTS_MAX + 4];
    const struct rd_opt *cur;   /* the option just returned */
    char *arg;                  /* its value, or the operand (in argv) */
    int exit_code;
    char name[80];              /* rd_opts_name's */
};

/**
 * Starts parsing argv (argv[0] is the tool or the subcommand's name) by
 * spec. Adds -h/--help, and --version for a tool without subcommands, when
 * the table has none. Also makes every usage error name spec's own --help
 * (rd_usage_error). Returns 0, or -1 when the table is too long (a bug).
 */
int rd_opts_begin(struct rd_opts *p, const struct rd_cmd_spec *spec, int argc, char **argv);

/**
 * The next option's code, RD_OPTS_OPERAND, RD_OPTS_END, or RD_OPTS_EXIT
 * after it printed --help (exit 0), the version (0), or one of the
 * messages that read the same in every tool (exit 2):
 *   unknown option '--foo'
 *   option '--runs' needs a value (N)
 *   option '--quiet' takes no value
 * each followed by "try 'rundown-collect run --help'".
 */
int rd_opts_next(struct rd_opts *p);

static inline char *rd_opts_arg(const struct rd_opts *p) { return p->arg; }
int rd_opts_index(const struct rd_opts *p);
static inline int rd_opts_exit_code(const struct rd_opts *p) { return p->exit_code; }

/**
 * The word after the option just returned, taken as a further value of it
 * (-P VAR MIN MAX takes three); NULL when there is none. Only for
 * RD_OPTS_STOP and RD_OPTS_IN_PLACE, where getopt does not reorder argv.
 */
char *rd_opts_take(struct rd_opts *p);

/** The option just returned as the user would write it: "--runs" or "-r". */
const char *rd_opts_name(struct rd_opts *p);

/** --help: usage, about, the options by group, the epilog. */
void rd_opts_help(const struct rd_cmd_spec *spec, FILE *out);

/**
 * The options as troff for a man page (-man macros): one .TP per option,
 * its help and its default, a .SS per group (.SS is given to 'heading'
 * first when not NULL, for a subcommand). 0, or -1 on a write error.
 */
int rd_opts_man(const struct rd_cmd_spec *spec, const char *heading, FILE *out);

/** Writes s for troff: '-' as \-, '\' as \e, a leading '.' or '\'' escaped. */
void rd_opts_troff_text(const char *s, FILE *out);

#endif
