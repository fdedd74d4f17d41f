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
#include <stdio.h>
#include <stdlib.h>
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
    for (int i = 0; i < 3; i++)
        rd_run_tally_release(&t[i]);
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
    /* hyperfine's words for one run: no "± -", no range of one */
    assert_string_equal(b.ptr, "only\n  Time (abs ≡):      2.500 s    [User: -, System: -]\n");
    rd_buf_release(&b);
    /* Two commands of one run each: the ratio without an interval, as
     * hyperfine says it ('only' 2500 / 'quick' 1000 = 2.50) */
    struct rd_run_tally two[2] = {t};
    rd_run_tally_init(&two[1], "quick");
    rd_run_tally_add(&two[1], add_run(&set, "measure", "ok", 1000, false));
    assert_int_equal(rd_run_summary_compute(&s, two, 2), RD_OK);
    rd_buf_init(&b, 0);
    assert_int_equal(rd_run_summary_text(&s, &b), RD_OK);
    assert_non_null(strstr(b.ptr, "\nSummary (too few runs for an interval or a test)\n"
                                  "  quick ran 2.50× faster than only\n"));
    rd_buf_release(&b);
    rd_run_tally_release(&two[1]);
    rd_run_tally_release(&t);
    rd_recordset_release(&set);
}

/* A tally of the given times, all measured and ok. */
static void tally_of(struct rd_recordset *set, struct rd_run_tally *t, const char *name,
                     const double *ms, size_t n)
{
    rd_run_tally_init(t, name);
    for (size_t i = 0; i < n; i++)
        rd_run_tally_add(t, add_run(set, "measure", "ok", ms[i], false));
}

/* --reference: every command against the reference, not the fastest. */
static void test_reference(void **state)
{
    (void)state;
    struct rd_recordset set;
    rd_recordset_init(&set);
    static const double a[] = {50, 51, 49, 50}, b[] = {60, 61, 59, 62},
                        c[] = {100, 102, 98, 100}, d[] = {58, 62, 60, 61};
    struct rd_run_tally t[3];
    tally_of(&set, &t[0], "a", a, 4);
    tally_of(&set, &t[1], "b", b, 4);
    tally_of(&set, &t[2], "c", c, 4);
    struct rd_run_summary s;
    assert_int_equal(rd_run_summary_compute(&s, t, 3), RD_OK);
    assert_int_equal(rd_run_summary_reference(&s, 1), RD_OK);
    /* R (per x against r = b), with tests/unit/verdict_reference.R's crit()
     * and range_sf(): v = max(var(.)/mean(.)^2, expm1(var(log(.))))/n (its
     * rel_var); se = sqrt(v1 + v2); df = (v1+v2)^2/(v1^2/3 + v2^2/3),
     * floor, smallest of the two: 5; crit(3, 5) = 3.2539116982;
     * exp(log(ratio) -+ crit se).
     * a: 0.8264462810 (0.7910851201, 0.8633880704)
     * c: 1.6528925620 (1.5821702401, 1.7267761409)
     * p = range_sf(sqrt(2)|log(ratio)/se|, 3, 5): R's integrate() over the
     * range's density and s = chi_5/sqrt(5) (R's ptukey is off this far in
     * the tail): a 7.428653795e-05, c 6.125234089e-07 */
    assert_true(fabs(s.ref[0].ratio - 0.8264462810) < 1e-9);
    assert_true(fabs(s.ref[0].low - 0.7910851201) < 1e-6);
    assert_true(fabs(s.ref[0].high - 0.8633880704) < 1e-6);
    assert_true(fabs(s.ref[0].p - 7.428653795e-05) < 1e-11);
    assert_true(fabs(s.ref[2].low - 1.5821702401) < 1e-6);
    assert_true(fabs(s.ref[2].high - 1.7267761409) < 1e-6);
    assert_true(fabs(s.ref[2].p - 6.125234089e-07) < 1e-13);
    assert_false(s.ref[1].compared);
    struct rd_buf out = RD_BUF_INIT;
    assert_int_equal(rd_run_summary_text(&s, &out), RD_OK);
    /* 1/0.8264462810 = 1.21, 1/0.8633880704 = 1.158, 1/0.7910851201 = 1.264 */
    assert_non_null(strstr(out.ptr, "\nSummary (against the reference, b)\n"
                                    "  a ran 1.21× (1.16–1.26×) faster than b, p < 0.001\n"
                                    "  b ran 1.65× (1.58–1.73×) faster than c, p < 0.001\n"));
    rd_buf_release(&out);

    /* Two alike: R, the same v, k = 2, df floor 5: qt(0.975, 5) = 2.5705818356,
     * d/b 0.9958677686 (0.9513037179, 1.0425194329), p at k = 2 is 2 pt(-|t|, 5) = 0.8253645870 */
    rd_run_tally_release(&t[2]);
    tally_of(&set, &t[2], "d", d, 4);
    assert_int_equal(rd_run_summary_compute(&s, t + 1, 2), RD_OK);
    assert_int_equal(rd_run_summary_reference(&s, 0), RD_OK);
    assert_true(fabs(s.ref[1].low - 0.9513037179) < 1e-6);
    assert_true(fabs(s.ref[1].p - 0.8253645870) < 1e-6);
    rd_buf_init(&out, 0);
    assert_int_equal(rd_run_summary_text(&s, &out), RD_OK);
    assert_non_null(strstr(out.ptr, "  d and b: no significant difference, 1.00× "
                                    "(0.95–1.04×), p = 0.825\n"));
    rd_buf_release(&out);
    for (int i = 0; i < 3; i++)
        rd_run_tally_release(&t[i]);
    rd_recordset_release(&set);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* The keys of 'keys' appear in 'text' in this order, from 'from' on. */
static const char *in_order(const char *from, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *at = strstr(from, keys[i]);
        if (!at)
            fail_msg("'%s' missing after '%.40s'", keys[i], from);
        from = at + strlen(keys[i]);
    }
    return from;
}

/* The exports in hyperfine's layouts, on given times: hyperfine 1.15's
 * keys in its order, seconds, null stddev of one run (JSON) and 0 (CSV),
 * a scan's parameters, the exit codes -i keeps. */
static void test_exports(void **state)
{
    (void)state;
    struct rd_recordset set;
    rd_recordset_init(&set);
    static const double a[] = {50, 51, 49, 50}, b[] = {60, 61, 59, 62};
    struct rd_run_tally t[3];
    tally_of(&set, &t[0], "a", a, 4);
    tally_of(&set, &t[1], "b", b, 4);
    rd_run_tally_init(&t[2], "c, \"q\"");
    struct rd_record *r = add_run(&set, "measure", "ok", 2500, false);
    r->exit_code = 3, r->has_exit_code = true;  /* -i: stored ok */
    assert_int_equal(rd_run_tally_add(&t[2], r), RD_OK);
    for (int i = 0; i < 3; i++) {
        t[i].param_var[0] = "x";
        t[i].param_value[0] = i == 1 ? "2" : "1";
        t[i].nparams = 1;
    }
    /* R: median(c(50,51,49,50)) = 50, median(c(60,61,59,62)) = 60.5 */
    assert_true(rd_run_tally_median(&t[0]) == 50);
    assert_true(rd_run_tally_median(&t[1]) == 60.5);
    struct rd_run_summary s;
    assert_int_equal(rd_run_summary_compute(&s, t, 3), RD_OK);
    char dir[] = "/tmp/test_runsummary.XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    struct rd_diag d;
    rd_diag_init(&d, NULL);

    snprintf(path, sizeof path, "%s/h.json", dir);
    assert_int_equal(rd_run_summary_export_json(&s, path, &d), RD_OK);
    const char *text = slurp(path);
    /* R: print(sd(c(50,51,49,50)) / 1000, digits = 17) = 0.00081649658092772606,
     * sd(c(60,61,59,62)) / 1000 = 0.0012909944487358056 */
    static const char *const first[] = {
        "{\n  \"results\": [\n    {\n      \"command\": \"a\"", "\"mean\": 0.05,",
        "\"stddev\": 0.000816496", "\"median\": 0.05,", "\"user\": null,",
        "\"system\": null,", "\"min\": 0.049,", "\"max\": 0.051,",
        "\"times\": [\n        0.05,\n        0.051,\n        0.049,\n        0.05\n      ],",
        "\"exit_codes\": [\n        0,\n        0,\n        0,\n        0\n      ],",
        "\"parameters\": {\n        \"x\": \"1\"\n      }\n    },"};
    const char *rest = in_order(text, first, sizeof first / sizeof *first);
    static const char *const second[] = {"\"command\": \"b\"", "\"median\": 0.0605,",
                                         "\"x\": \"2\""};
    rest = in_order(rest, second, sizeof second / sizeof *second);
    static const char *const third[] = {
        "\"command\": \"c, \\\"q\\\"\"", "\"mean\": 2.5,", "\"stddev\": null,",
        "\"median\": 2.5,", "\"times\": [\n        2.5\n      ],",
        "\"exit_codes\": [\n        3\n      ],", "\n    }\n  ]\n}\n"};
    rest = in_order(rest, third, sizeof third / sizeof *third);
    assert_string_equal(rest, "");

    snprintf(path, sizeof path, "%s/h.csv", dir);
    assert_int_equal(rd_run_summary_export_csv(&s, path, &d), RD_OK);
    text = slurp(path);
    assert_string_equal(text, "command,mean,stddev,median,user,system,min,max,parameter_x\n"
                              "a,0.05,0.0008164965809277261,0.05,0,0,0.049,0.051,1\n"
                              "b,0.0605,0.0012909944487358056,0.0605,0,0,0.059,0.062,2\n"
                              "\"c, \"\"q\"\"\",2.5,0,2.5,0,0,2.5,2.5,1\n");

    snprintf(path, sizeof path, "%s/h.md", dir);
    assert_int_equal(rd_run_summary_export_markdown(&s, path, &d), RD_OK);
    text = slurp(path);
    /* one run: no ± (hyperfine's "| `c` | 2500.0 | 2500.0 | 2500.0 |") */
    assert_non_null(strstr(text, "| `c, \"q\"` | 2500.00 | 2500.00 | 2500.00 | - |\n"));
    assert_non_null(strstr(text, "| `a` | 50.00 ± 0.82 | 49.00 | 51.00 | 1.00 |\n"));

    /* A failed write leaves no file: the path is a folder. */
    assert_int_not_equal(rd_run_summary_export_json(&s, dir, &d), RD_OK);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    assert_int_equal(system(cmd), 0);
    for (int i = 0; i < 3; i++)
        rd_run_tally_release(&t[i]);
    rd_recordset_release(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_one_command),
        cmocka_unit_test(test_reference),
        cmocka_unit_test(test_exports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
