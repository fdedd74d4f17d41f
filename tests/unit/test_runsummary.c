// links: rd_collect
/*
 * test_runsummary - the end summary of `rundown-collect run` on runs whose
 * times are given, not measured (a fake clock): the tally leaves out what
 * the report leaves out, and the text and verdict follow from the numbers
 * alone. tests/sh/run_summary.sh checks the real command around it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "runsummary.h"

static struct rd_record *add_run(struct rd_recordset *set, const char *phase,
                                 const char *status, double wall_ms, bool contended)
{
    struct rd_record *r = rd_recordset_add(set);
    assert_non_null(r);
    assert_int_equal(rd_record_set(r, &r->phase, phase), RD_OK);
    assert_int_equal(rd_record_set(r, &r->status, status), RD_OK);
    assert_int_equal(rd_record_set_metric(r, "wall_ms", wall_ms), RD_OK);
    r->contended = contended;
    return r;
}

static void test_summary(void **state)
{
    (void)state;
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_run_tally t[3];
    rd_run_tally_init(&t[0], "fast");
    rd_run_tally_init(&t[1], "slow");
    rd_run_tally_init(&t[2], "broken");
    static const double fast[] = {50, 51, 49, 50}, slow[] = {250, 252, 248, 250};
    for (int i = 0; i < 4; i++) {
        rd_run_tally_add(&t[0], add_run(&set, "measure", "ok", fast[i], false));
        rd_run_tally_add(&t[1], add_run(&set, "measure", "ok", slow[i], false));
    }
    /* Left out: a warmup, a failed run, a contended run. */
    rd_run_tally_add(&t[0], add_run(&set, "warmup", "ok", 900, false));
    rd_run_tally_add(&t[0], add_run(&set, "measure", "failed", 900, false));
    rd_run_tally_add(&t[1], add_run(&set, "measure", "ok", 900, true));
    rd_run_tally_add(&t[2], add_run(&set, "measure", "failed", 1, false));

    assert_int_equal(t[0].n, 4);
    assert_int_equal(t[1].n, 4);
    assert_int_equal(t[2].n, 0);
    /* R: sd(c(50,51,49,50)) = 0.8164966; sd(c(250,252,248,250)) = 1.632993 */
    assert_true(fabs(t[0].mean - 50) < 1e-12 && fabs(t[1].mean - 250) < 1e-12);
    assert_true(fabs(rd_run_tally_sd(&t[0]) - 0.8164966) < 1e-7);
    assert_true(fabs(rd_run_tally_sd(&t[1]) - 1.632993) < 1e-6);
    assert_true(isnan(rd_run_tally_sd(&t[2])));

    struct rd_run_summary s;
    assert_int_equal(rd_run_summary_compute(&s, t, 3), RD_OK);
    assert_true(s.compared);
    assert_int_equal(s.res.best, 0);
    assert_int_equal(s.rows[1].verdict, RD_VERDICT_WORSE);
    assert_true(fabs(s.rows[1].ratio - 5.0) < 1e-12);  /* 250 / 50 */
    /* R: t.test(c(250,252,248,250), c(50,51,49,50))$p.value = 4.475283e-10;
     * adjusted for one comparison it stays under 0.001. */
    assert_true(s.p[1] < 0.001);

    struct rd_buf b = RD_BUF_INIT;
    assert_int_equal(rd_run_summary_text(&s, &b), RD_OK);
    /* 0.8164966 ms is 816.5 µs; the user and system times are unknown. */
    assert_non_null(strstr(b.ptr, "fast\n  Time (mean ± σ):   50.00 ms ± 816.5 µs    "
                                  "[User: -, System: -]\n"
                                  "  Range (min … max): 49.00 ms … 51.00 ms    4 runs\n"));
    assert_non_null(strstr(b.ptr, "\nslow\n  Time (mean ± σ):   250.0 ms ± 1.63 ms"));
    assert_non_null(strstr(b.ptr, "\nbroken\n  no run ended ok\n"));
    assert_non_null(strstr(b.ptr, "\nSummary\n  fast ran 5.00× ("));
    assert_non_null(strstr(b.ptr, "×) faster than slow, p < 0.001\n"));
    assert_null(strstr(b.ptr, "than broken"));
    rd_buf_release(&b);
    rd_recordset_release(&set);
}

/* One command alone: its block, no comparison. */
static void test_one_command(void **state)
{
    (void)state;
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_run_tally t;
    rd_run_tally_init(&t, "only");
    rd_run_tally_add(&t, add_run(&set, "measure", "ok", 2500, false));
    struct rd_run_summary s;
    assert_int_equal(rd_run_summary_compute(&s, &t, 1), RD_OK);
    assert_false(s.compared);
    struct rd_buf b = RD_BUF_INIT;
    assert_int_equal(rd_run_summary_text(&s, &b), RD_OK);
    assert_string_equal(b.ptr, "only\n  Time (mean ± σ):   2.500 s ± -    [User: -, System: -]\n"
                               "  Range (min … max): 2.500 s … 2.500 s    1 run\n");
    rd_buf_release(&b);
    rd_recordset_release(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_one_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
