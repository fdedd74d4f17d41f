// links: rd_collect
/*
 * test_cmdsplit - a command string split into words as sh splits it
 * (collect/cmdsplit.c). The expected words are what sh itself made of each
 * string: sh -c 'eval "set -- $1"; for w; do printf "<%s>" "$w"; done' sh STRING
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmdsplit.h"

/* Splits text and compares the words with want (NULL-terminated). */
static void expect_words(const char *text, const char *const *want)
{
    char **argv = NULL;
    size_t argc = 0;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_command_split(text, &argv, &argc, &d), RD_OK);
    size_t n = 0;
    while (want[n])
        n++;
    assert_int_equal(argc, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(argv[i], want[i]);
    assert_null(argv[n]);
    free(argv);
}

static void splits_as_sh_does(void **state)
{
    (void)state;
    expect_words("node -e 1", (const char *[]){"node", "-e", "1", NULL});
    expect_words("printf '[%s]' a 'b c' \"d\\\"e\" f\\ g ''",
                 (const char *[]){"printf", "[%s]", "a", "b c", "d\"e", "f g", "", NULL});
    expect_words("  a\tb  ", (const char *[]){"a", "b", NULL});
    expect_words("a\"b c\"d", (const char *[]){"ab cd", NULL});
    expect_words("\"a\\\\b\" 'x\\y'", (const char *[]){"a\\b", "x\\y", NULL});
    expect_words("a \\\nb", (const char *[]){"a", "b", NULL});
    expect_words("x\"\\$y\"", (const char *[]){"x$y", NULL});
}

static void expect_refused(const char *text, const char *msg_part)
{
    char **argv = NULL;
    size_t argc = 0;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_command_split(text, &argv, &argc, &d), RD_ERR_USAGE);
    assert_non_null(strstr(d.msg, msg_part));
}

static void refuses_what_needs_a_shell(void **state)
{
    (void)state;
    expect_refused("ls | wc", "'|'");
    expect_refused("echo $HOME", "'$'");
    expect_refused("echo \"$HOME\"", "'$'");
    expect_refused("a > b", "'>'");
    expect_refused("echo `date`", "'`'");
    expect_refused("echo 'open", "unclosed '");
    expect_refused("echo \"open", "unclosed \"");
    expect_refused("trailing\\", "backslash");
    expect_refused(" \t ", "empty");
    /* quoted, the same characters are plain text */
    expect_words("echo '|' \"a>b\" '$x'", (const char *[]){"echo", "|", "a>b", "$x", NULL});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(splits_as_sh_does),
        cmocka_unit_test(refuses_what_needs_a_shell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
