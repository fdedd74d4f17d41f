// links: rd_core
/*
 * test_opts - the option table (core/opts.c): the codes it returns for
 * short, long, abbreviated and bundled spellings, operands in each order,
 * the same three error messages in every tool, --help and the man page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rundown/cli.h"
#include "rundown/opts.h"
#include "rundown/status.h"

enum { T_TIMEOUT = 256, T_SHELL };

static const struct rd_opt opts[] = {
    {'r', 'r', "runs", "N", "10", "measured runs", "Runs"},
    {'q', 'q', "quiet", NULL, NULL, "no summary", NULL},
    {T_TIMEOUT, 0, "timeout", "SEC", NULL, "stop a run after SEC\nseconds", NULL},
    {T_SHELL, 0, "shell", NULL, NULL, "run with /bin/sh -c ± nothing", "Other"},
    {0, 0, NULL, NULL, NULL, NULL, NULL},
};

static const struct rd_cmd_spec spec = {
    .tool = "rundown-test",
    .command = "run",
    .synopsis = "[OPTIONS] CMD...",
    .about = "Runs.",
    .order = RD_OPTS_STOP,
    .opts = opts,
};

/* Parses a NULL-terminated word list; the codes into out, the count back. */
static int parse(const struct rd_cmd_spec *sp, char **argv, int *out, char **args, int *next)
{
    int argc = 0, n = 0, c;
    while (argv[argc])
        argc++;
    struct rd_opts p;
    assert_int_equal(rd_opts_begin(&p, sp, argc, argv), 0);
    while ((c = rd_opts_next(&p)) >= 0) {
        args[n] = rd_opts_arg(&p);
        out[n++] = c;
    }
    if (next)
        *next = c == RD_OPTS_END ? rd_opts_index(&p) : -1;
    if (c == RD_OPTS_EXIT)
        out[n++] = 1000 + rd_opts_exit_code(&p);
    return n;
}

static void test_spellings(void **state)
{
    (void)state;
    char *argv[] = {"run", "-r", "5", "--runs=6", "--tim", "2", "-qr7", "--shell", "ls", "-q",
                    NULL};
    int codes[16], next;
    char *args[16];
    int n = parse(&spec, argv, codes, args, &next);
    assert_int_equal(n, 6);
    assert_int_equal(codes[0], 'r');
    assert_string_equal(args[0], "5");
    assert_int_equal(codes[1], 'r');
    assert_string_equal(args[1], "6");
    assert_int_equal(codes[2], T_TIMEOUT);  /* an unambiguous abbreviation */
    assert_string_equal(args[2], "2");
    assert_int_equal(codes[3], 'q');
    assert_int_equal(codes[4], 'r');
    assert_string_equal(args[4], "7");
    assert_int_equal(codes[5], T_SHELL);
    /* RD_OPTS_STOP: the first operand ends the options; "-q" is the command's. */
    assert_int_equal(next, 8);
}

static void test_in_place(void **state)
{
    (void)state;
    struct rd_cmd_spec sp = spec;
    sp.order = RD_OPTS_IN_PLACE;
    char *argv[] = {"run", "a", "-q", "b", "--", "-r", NULL};
    int codes[16], next;
    char *args[16];
    int n = parse(&sp, argv, codes, args, &next);
    assert_int_equal(n, 3);
    assert_int_equal(codes[0], RD_OPTS_OPERAND);
    assert_string_equal(args[0], "a");
    assert_int_equal(codes[1], 'q');
    assert_int_equal(codes[2], RD_OPTS_OPERAND);
    assert_string_equal(args[2], "b");
    assert_string_equal(argv[next], "-r");  /* after "--" */
}

/* The messages of argv's parse, as stderr shows them. */
static void errors_of(char **argv, char *text, size_t size)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int codes[16];
    char *args[16];
    int n = parse(&spec, argv, codes, args, NULL);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_int_equal(codes[n - 1], 1000 + RD_EXIT_USAGE);
    rewind(tmp);
    size_t len = fread(text, 1, size - 1, tmp);
    text[len] = '\0';
    fclose(tmp);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        char *words[3];
        const char *message;
    } cases[] = {
        {{"run", "--bogus=3"}, "unknown option '--bogus'"},
        {{"run", "-qx"}, "unknown option '-x'"},
        {{"run", "--timeout"}, "option '--timeout' needs a value (SEC)"},
        {{"run", "-r"}, "option '-r' needs a value (N)"},
        {{"run", "--quiet=1"}, "option '--quiet' takes no value"},
    };
    rd_cli_init("rundown-test");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512], expected[512], *argv[3] = {cases[i].words[0], cases[i].words[1], NULL};
        errors_of(argv, text, sizeof text);
        snprintf(expected, sizeof expected, "rundown-test: %s\ntry 'rundown-test run --help'\n",
                 cases[i].message);
        assert_string_equal(text, expected);
    }
    rd_cli_set_command(NULL);
}

static char *written(void (*fn)(FILE *))
{
    static char text[4096];
    FILE *f = tmpfile();
    assert_non_null(f);
    fn(f);
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static void help(FILE *f) { rd_opts_help(&spec, f); }
static void man(FILE *f) { assert_int_equal(rd_opts_man(&spec, "run", f), 0); }

static void test_help(void **state)
{
    (void)state;
    assert_string_equal(written(help),
                        "usage: rundown-test run [OPTIONS] CMD...\n"
                        "\n"
                        "Runs.\n"
                        "\n"
                        "Runs:\n"
                        "  -r, --runs N            measured runs (default: 10)\n"
                        "  -q, --quiet             no summary\n"
                        "      --timeout SEC       stop a run after SEC\n"
                        "                          seconds\n"
                        "\n"
                        "Other:\n"
                        "      --shell             run with /bin/sh -c ± nothing\n"
                        "  -h, --help              this text\n");
}

static void test_man(void **state)
{
    (void)state;
    assert_string_equal(written(man),
                        ".SS \"run\"\n"
                        ".PP\n\\fIRuns\\fR\n"
                        ".TP\n\\fB\\-r\\fR, \\fB\\-\\-runs\\fR \\fIN\\fR\nmeasured runs (default: 10)\n"
                        ".TP\n\\fB\\-q\\fR, \\fB\\-\\-quiet\\fR\nno summary\n"
                        ".TP\n\\fB\\-\\-timeout\\fR \\fISEC\\fR\nstop a run after SEC seconds\n"
                        ".PP\n\\fIOther\\fR\n"
                        ".TP\n\\fB\\-\\-shell\\fR\nrun with /bin/sh \\-c \\[u00B1] nothing\n"
                        ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nthis text\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spellings), cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_errors), cmocka_unit_test(test_help), cmocka_unit_test(test_man),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
