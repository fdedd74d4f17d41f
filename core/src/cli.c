/*
 * cli - messages on stderr for the front ends. Only main() and the
 * subcommand entry points call these; libraries report through rd_diag.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rundown/cli.h"

static const char *progname = "rundown";
static const char *subcommand;

void rd_cli_init(const char *name)
{
    const char *slash = strrchr(name, '/');
    progname = slash ? slash + 1 : name;
}

const char *rd_cli_name(void)
{
    return progname;
}

void rd_cli_set_command(const char *command)
{
    subcommand = command;
}

__attribute__((format(printf, 2, 0)))
static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: %s", progname, prefix);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int rd_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
    return -1;
}

void rd_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("warning: ", fmt, ap);
    va_end(ap);
}

void rd_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
}

int rd_fail(rd_status s, const struct rd_diag *d)
{
    if (d && d->msg[0]) {
        char text[1024];
        rd_error("%s", rd_diag_format(d, text, sizeof text));
    } else {
        rd_error("%s", rd_strerror(s));
    }
    return rd_exit_code(s);
}

int rd_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
    fprintf(stderr, "try '%s%s%s --help'\n", progname, subcommand ? " " : "",
            subcommand ? subcommand : "");
    return RD_EXIT_USAGE;
}

bool rd_stderr_is_interactive(void)
{
    const char *no_color = getenv("NO_COLOR");
    return isatty(2) && !(no_color && no_color[0]);
}
