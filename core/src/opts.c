/*
 * opts - the option tables of the front ends (see opts.h). Parsing is
 * getopt_long's; this file builds its tables from ours and words its
 * errors, so that every tool says them the same way.
 */
#include "rundown/opts.h"

#include <stdint.h>
#include <string.h>

#include "rundown/cli.h"
#include "rundown/status.h"

/* getopt_long's val for the long option at index i: past every letter,
 * so a short and a long spelling stay apart until rd_opts_next maps both
 * to the table's code. */
#define LONG_BASE 1000

static const struct rd_opt help_opt = {'h', 'h', "help", NULL, NULL, "this text", NULL};
static const struct rd_opt version_opt = {'V' + 256, 0, "version", NULL, NULL,
                                          "print the version", NULL};

static bool has_long(const struct rd_opt *opts, const char *name)
{
    for (const struct rd_opt *o = opts; o->code; o++)
        if (o->long_name && strcmp(o->long_name, name) == 0)
            return true;
    return false;
}

/* The option behind getopt's index i: the table's, then the implicit ones. */
static const struct rd_opt *nth(const struct rd_cmd_spec *spec, size_t i)
{
    size_t n = 0;
    for (const struct rd_opt *o = spec->opts; o->code; o++, n++)
        if (n == i)
            return o;
    if (!has_long(spec->opts, "help") && n++ == i)
        return &help_opt;
    if (!spec->command && !has_long(spec->opts, "version") && n == i)
        return &version_opt;
    return NULL;
}

int rd_opts_begin(struct rd_opts *p, const struct rd_cmd_spec *spec, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->spec = spec;
    p->argc = argc;
    p->argv = argv;
    rd_cli_set_command(spec->command);
    char *s = p->shortopts;
    *s++ = spec->order == RD_OPTS_STOP ? '+' : spec->order == RD_OPTS_IN_PLACE ? '-' : ':';
    if (spec->order != RD_OPTS_PERMUTE)
        *s++ = ':';
    size_t i = 0;
    for (const struct rd_opt *o; (o = nth(spec, i)); i++) {
        if (i == RD_OPTS_MAX)
            return -1;
        if (o->long_name)
            p->longopts[i] = (struct option){o->long_name,
                                             o->arg ? required_argument : no_argument, NULL,
                                             LONG_BASE + (int)i};
        else  /* a short-only entry: a name getopt can never match */
            p->longopts[i] = (struct option){"\x01", no_argument, NULL, LONG_BASE + (int)i};
        if (o->short_name) {
            *s++ = o->short_name;
            if (o->arg)
                *s++ = ':';
        }
    }
    *s = '\0';
    /* 0, not 1: glibc starts afresh and rereads the '+' or '-' above. */
    optind = 0;
    opterr = 0;
    return 0;
}

int rd_opts_index(const struct rd_opts *p)
{
    (void)p;
    return optind;
}

char *rd_opts_take(struct rd_opts *p)
{
    if (optind >= p->argc)
        return NULL;
    return p->argv[optind++];
}

static const struct rd_opt *by_short(const struct rd_cmd_spec *spec, int c)
{
    const struct rd_opt *o;
    for (size_t i = 0; (o = nth(spec, i)); i++)
        if (o->short_name == c)
            return o;
    return NULL;
}

const char *rd_opts_name(struct rd_opts *p)
{
    const struct rd_opt *o = p->cur;
    if (!o)
        return "";
    if (o->long_name)
        snprintf(p->name, sizeof p->name, "--%s", o->long_name);
    else
        snprintf(p->name, sizeof p->name, "-%c", o->short_name);
    return p->name;
}

/* The message for getopt's '?': an unknown option as typed, or a flag
 * given a value. */
static int unknown(struct rd_opts *p, int before)
{
    const char *word = optind > before || optind >= p->argc ? p->argv[optind - 1]
                                                            : p->argv[optind];
    if (optopt >= LONG_BASE) {
        const struct rd_opt *o = nth(p->spec, (size_t)(optopt - LONG_BASE));
        return rd_usage_error("option '--%s' takes no value", o ? o->long_name : "?");
    }
    if (optopt && strncmp(word, "--", 2) != 0)
        return rd_usage_error("unknown option '-%c'", optopt);
    int len = (int)strcspn(word, "=");
    return rd_usage_error("unknown option '%.*s'", len, word);
}

int rd_opts_next(struct rd_opts *p)
{
    int before = optind ? optind : 1;
    int c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
    p->arg = optarg;
    p->cur = NULL;
    if (c == -1)
        return RD_OPTS_END;
    if (c == 1)
        return RD_OPTS_OPERAND;
    if (c == ':') {
        const struct rd_opt *o = optopt >= LONG_BASE
                                     ? nth(p->spec, (size_t)(optopt - LONG_BASE))
                                     : by_short(p->spec, optopt);
        if (o && optopt >= LONG_BASE)
            p->exit_code = rd_usage_error("option '--%s' needs a value (%s)", o->long_name,
                                          o->arg);
        else
            p->exit_code = rd_usage_error("option '-%c' needs a value (%s)", optopt,
                                          o ? o->arg : "?");
        return RD_OPTS_EXIT;
    }
    if (c == '?') {
        p->exit_code = unknown(p, before);
        return RD_OPTS_EXIT;
    }
    p->cur = c >= LONG_BASE ? nth(p->spec, (size_t)(c - LONG_BASE)) : by_short(p->spec, c);
    if (p->cur == &help_opt) {
        rd_opts_help(p->spec, stdout);
        p->exit_code = RD_EXIT_OK;
        return RD_OPTS_EXIT;
    }
    if (p->cur == &version_opt) {
        printf("%s %s\n", p->spec->tool, RD_VERSION);
        p->exit_code = RD_EXIT_OK;
        return RD_OPTS_EXIT;
    }
    return p->cur ? p->cur->code : RD_OPTS_END;
}

/* "  -r, --runs N" */
static int left_column(const struct rd_opt *o, char *out, size_t size)
{
    char arg[64] = "";
    if (o->arg)
        snprintf(arg, sizeof arg, " %s", o->arg);
    if (o->short_name && o->long_name)
        return snprintf(out, size, "  -%c, --%s%s", o->short_name, o->long_name, arg);
    if (o->short_name)
        return snprintf(out, size, "  -%c%s", o->short_name, arg);
    return snprintf(out, size, "      --%s%s", o->long_name, arg);
}

#define HELP_COLUMN 26

static void print_lines(FILE *out, const char *prefix, const char *text, const char *indent)
{
    const char *line = text;
    for (bool first = true; line; first = false) {
        const char *nl = strchr(line, '\n');
        int len = nl ? (int)(nl - line) : (int)strlen(line);
        fprintf(out, "%s%.*s\n", first ? prefix : indent, len, line);
        line = nl ? nl + 1 : NULL;
    }
}

void rd_opts_help(const struct rd_cmd_spec *spec, FILE *out)
{
    char prog[128];
    snprintf(prog, sizeof prog, "%s%s%s", spec->tool, spec->command ? " " : "",
             spec->command ? spec->command : "");
    /* A synopsis line that starts with a blank continues the one before. */
    const char *line = spec->synopsis;
    for (bool first = true; line; first = false) {
        const char *nl = strchr(line, '\n');
        int len = nl ? (int)(nl - line) : (int)strlen(line);
        if (*line == ' ')
            fprintf(out, "       %*s%.*s\n", (int)strlen(prog), "", len, line);
        else
            fprintf(out, "%s%s %.*s\n", first ? "usage: " : "       ", prog, len, line);
        line = nl ? nl + 1 : NULL;
    }
    if (spec->about) {
        fputc('\n', out);
        print_lines(out, "", spec->about, "");
    }
    const struct rd_opt *o;
    bool blank = false;
    for (size_t i = 0; (o = nth(spec, i)); i++) {
        if (!o->help)
            continue;
        if (o->group)
            fprintf(out, "\n%s:\n", o->group);
        else if (!blank)
            fputc('\n', out);
        blank = true;
        char left[128];
        int n = left_column(o, left, sizeof left);
        /* The default after the help's last line, or on a line of its own
         * when that would pass the 80th column. */
        const char *now = spec->default_now ? spec->default_now(o->code) : NULL;
        const char *def = now ? now : o->def;
        const char *last = strrchr(o->help, '\n');
        size_t room = 80 - HELP_COLUMN, used = strlen(last ? last + 1 : o->help);
        bool own_line = def && used + strlen(def) + 12 > room;
        char help[4096];
        snprintf(help, sizeof help, "%s%s%s%s", o->help,
                 !def ? "" : own_line ? "\n(default: " : " (default: ", def ? def : "",
                 def ? ")" : "");
        char indent[HELP_COLUMN + 1];
        memset(indent, ' ', HELP_COLUMN);
        indent[HELP_COLUMN] = '\0';
        if (n >= HELP_COLUMN - 1) {
            fprintf(out, "%s\n", left);
            print_lines(out, indent, help, indent);
        } else {
            fprintf(out, "%-*s", HELP_COLUMN, left);
            print_lines(out, "", help, indent);
        }
    }
    if (spec->epilog) {
        fputc('\n', out);
        print_lines(out, "", spec->epilog, "");
    }
    if (spec->more_help)
        spec->more_help(out);
}

/* The code point of the UTF-8 sequence at s and its length; 0 when bad. */
static uint32_t utf8_next(const unsigned char *s, int *len)
{
    int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (!n)
        return *len = 1, 0;
    uint32_t cp = s[0] & (0x3f >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return *len = 1, 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    *len = n;
    return cp;
}

void rd_opts_troff_text(const char *s, FILE *out)
{
    /* A line must not start a request. */
    if (*s == '.' || *s == '\'')
        fputs("\\&", out);
    for (const unsigned char *c = (const unsigned char *)s; *c;) {
        if (*c == '\\') {
            fputs("\\e", out);
        } else if (*c == '-') {
            fputs("\\-", out);
        } else if (*c == '\n') {
            fputc(' ', out);
        } else if (*c >= 0x80) {
            /* groff reads Latin-1 unless preconv runs first: name the
             * character instead, so that man and groff -man agree. */
            int len;
            uint32_t cp = utf8_next(c, &len);
            if (cp)
                fprintf(out, "\\[u%04X]", (unsigned)cp);
            c += len;
            continue;
        } else {
            fputc(*c, out);
        }
        c++;
    }
}

int rd_opts_man(const struct rd_cmd_spec *spec, const char *heading, FILE *out)
{
    if (heading) {
        fputs(".SS \"", out);
        rd_opts_troff_text(heading, out);
        fputs("\"\n", out);
    }
    const struct rd_opt *o;
    for (size_t i = 0; (o = nth(spec, i)); i++) {
        if (!o->help)
            continue;
        if (o->group) {
            fputs(heading ? ".PP\n\\fI" : ".SS \"", out);
            rd_opts_troff_text(o->group, out);
            fputs(heading ? "\\fR\n" : "\"\n", out);
        }
        fputs(".TP\n", out);
        if (o->short_name)
            fprintf(out, "\\fB\\-%c\\fR%s", o->short_name, o->long_name ? ", " : "");
        if (o->long_name) {
            fputs("\\fB\\-\\-", out);
            rd_opts_troff_text(o->long_name, out);
            fputs("\\fR", out);
        }
        if (o->arg) {
            fputs(" \\fI", out);
            rd_opts_troff_text(o->arg, out);
            fputs("\\fR", out);
        }
        fputc('\n', out);
        rd_opts_troff_text(o->help, out);
        if (o->def) {
            fputs(" (default: ", out);
            rd_opts_troff_text(o->def, out);
            fputc(')', out);
        }
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}
