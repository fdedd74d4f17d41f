// links: rd_render
/*
 * test_render_charts.c - what the means and latency charts are planned to
 * draw, before gnuplot: each row's interval (the verdict's log-scale
 * ratio interval times the best's mean; the best's own CI on the log
 * scale; open arrows where the verdict has no interval; a disqualified
 * config's reason), the value axis (the dots and finite interval ends
 * only), and the latency axis' tick labels thinned so none meets another.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "backends.h"
#include "chartgp.h"
#include "model.h"
#include "verdicts.h"

/* rps, higher is better: a is the best; b worse with an interval; c not
 * estimable (its own CI is absurd, as a Fieller one was: -1e5 .. 6e6);
 * d disqualified with a mean; e disqualified without one. */
static const char *DOC =
    "{\"schema\":\"rundown.analysis/1\",\"settings\":{\"alpha\":0.05},\"workloads\":["
    " {\"name\":\"w\",\"primary\":{\"metric\":\"rps\",\"better\":\"higher\"},\"configs\":["
    "  {\"id\":\"a\",\"metrics\":{\"rps\":{\"mean\":40000,\"ci_low\":38000,\"ci_high\":42000}}},"
    "  {\"id\":\"b\",\"metrics\":{\"rps\":{\"mean\":20000,\"ci_low\":19000,\"ci_high\":21000}}},"
    "  {\"id\":\"c\",\"metrics\":{\"rps\":{\"mean\":30000,\"ci_low\":-100000,\"ci_high\":6000000}}},"
    "  {\"id\":\"d\",\"metrics\":{\"rps\":{\"mean\":10000,\"ci_low\":9000,\"ci_high\":11000}}},"
    "  {\"id\":\"e\",\"metrics\":{\"rps\":{\"mean\":null}}}],"
    "  \"recommendation\":{\"best\":\"a\",\"recommended\":\"a\",\"margin\":0.05,"
    "   \"decision\":\"inconclusive\",\"verdicts\":["
    "    {\"config\":\"a\",\"verdict\":\"best\",\"ratio\":1},"
    "    {\"config\":\"b\",\"verdict\":\"worse\",\"ratio\":0.5,\"ratio_ci_low\":0.4,\"ratio_ci_high\":0.625},"
    "    {\"config\":\"c\",\"verdict\":\"inconclusive\",\"ratio\":0.75,\"ratio_ci_low\":null,"
    "     \"ratio_ci_high\":null,\"estimable\":false},"
    "    {\"config\":\"d\",\"verdict\":\"disqualified\",\"why\":\"latency p99 197.1 ms, above its limit 100.0 ms\"},"
    "    {\"config\":\"e\",\"verdict\":\"disqualified\",\"why\":\"5 of 5 runs failed\"}]}}]}";

static void means_rows(void **state)
{
    (void)state;
    struct rd_report r;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_report_parse(&r, DOC, strlen(DOC), "a.json", "a.json", &d), RD_OK);
    const struct rd_rworkload *w = &r.workloads[0];
    assert_int_equal(w->best, 0);
    struct rd_mrow m[5];
    struct rd_span sp = { NAN, NAN };
    for (size_t i = 0; i < 5; i++) {
        rd_means_row(w, i, 40000, &m[i]);
        rd_means_span(&sp, &m[i]);
    }
    /* The best: its CI's half-width 2000 on the log scale,
     * python3: 40000*math.exp(-0.05), 40000*math.exp(0.05)
     * = 38049.17698002856, 42050.84385504096 */
    assert_false(m[0].open);
    assert_true(fabs(m[0].lo - 38049.17698002856) < 1e-6);
    assert_true(fabs(m[0].hi - 42050.84385504096) < 1e-6);
    assert_null(m[0].note);
    /* b: the verdict's interval times the best's mean: 0.4 and 0.625 × 40000 */
    assert_true(fabs(m[1].lo - 16000) < 1e-9 && fabs(m[1].hi - 25000) < 1e-9);
    assert_false(m[1].open);
    /* c: not estimable, open both ways, its own CI not drawn */
    assert_true(m[2].open);
    assert_true(isnan(m[2].lo) && isnan(m[2].hi));
    assert_true(m[2].mean == 30000);
    /* d: its dot and its reason, no interval */
    assert_false(m[3].open);
    assert_true(isnan(m[3].lo) && isnan(m[3].hi) && m[3].mean == 10000);
    assert_string_equal(m[3].note, "latency p99 197.1 ms, above its limit 100.0 ms");
    /* e: no dot, its reason still in its row */
    assert_true(isnan(m[4].mean));
    assert_string_equal(m[4].note, "5 of 5 runs failed");
    /* The axis: the dots and finite ends only, 10000 .. 42050.84, with
     * zero, and 4 % past the top: 42050.84385504096 * 1.04 = 43732.877609...
     * (c's 6e6 is not in it). */
    assert_true(sp.lo == 10000);
    assert_true(fabs(sp.hi - 42050.84385504096) < 1e-6);
    double lo, hi;
    rd_gp_range_of(&sp, &lo, &hi);
    assert_true(lo == 0);
    assert_true(fabs(hi - 42050.84385504096 * 1.04) < 1e-6);
    rd_report_release(&r);
}

/* A best whose mean is not clearly above zero (half-width 120 of 100) is
 * open too; a negative mean keeps its CI as given (no log scale). */
static void means_best_open(void **state)
{
    (void)state;
    static const char *doc =
        "{\"schema\":\"rundown.analysis/1\",\"workloads\":["
        " {\"name\":\"w\",\"primary\":{\"metric\":\"wall_ms\",\"better\":\"lower\"},\"configs\":["
        "  {\"id\":\"a\",\"metrics\":{\"wall_ms\":{\"mean\":100,\"ci_low\":-20,\"ci_high\":220}}},"
        "  {\"id\":\"b\",\"metrics\":{\"wall_ms\":{\"mean\":-5,\"ci_low\":-7,\"ci_high\":-3}}}],"
        "  \"recommendation\":{\"best\":\"a\",\"verdicts\":[{\"config\":\"a\",\"verdict\":\"best\"},"
        "   {\"config\":\"b\",\"verdict\":\"equivalent\"}]}}]}";
    struct rd_report r;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_report_parse(&r, doc, strlen(doc), "a.json", "a.json", &d), RD_OK);
    struct rd_mrow m;
    rd_means_row(&r.workloads[0], 0, 100, &m);
    assert_true(m.open);
    assert_true(isnan(m.lo));
    rd_means_row(&r.workloads[0], 1, 100, &m);
    assert_false(m.open);
    assert_true(m.lo == -7 && m.hi == -3);
    rd_report_release(&r);
}

/* Labels never meet. ab's percentiles on the chart's log axis: x = 1/(1-p),
 * max a decade past p99, the axis x0/1.3 .. max*1.3, 448 px wide
 * (0.56 of 800). Centres in px, python3:
 *   xs=[1/(1-p/100) for p in (50,66,75,80,90,95,98,99)]; xs.append(xs[-1]*10)
 *   lo,hi=xs[0]/1.3,xs[-1]*1.3
 *   [(log(x)-log(lo))/(log(hi)-log(lo))*448 for x in xs]
 *   = 17.4, 43.1, 63.5, 78.4, 124.4, 170.5, 231.4, 277.5, 430.6
 * Each label is 3 characters of 13 px × 0.6 = 23.4 px; two centres need
 * 23.4 + a 7.8 px gap = 31.2 px: p66 (25.7 from p50) and p80 (14.9 from
 * p75) give way, the rest are shown. */
static void ticks_ab(void **state)
{
    (void)state;
    const double ps[] = { 50, 66, 75, 80, 90, 95, 98, 99 };
    const char *texts[] = { "p50", "p66", "p75", "p80", "p90", "p95", "p98", "p99", "max" };
    double xs[9];
    for (size_t k = 0; k < 8; k++)
        xs[k] = 1 / (1 - ps[k] / 100);
    xs[8] = xs[7] * 10;
    bool show[9];
    size_t n = rd_gp_thin_ticks(xs, texts, 9, xs[0] / 1.3, xs[8] * 1.3, true, 448, show);
    const bool want[9] = { true, false, true, false, true, true, true, true, true };
    assert_int_equal(n, 7);
    for (size_t k = 0; k < 9; k++)
        assert_int_equal(show[k], want[k]);
}

/* The last label (max) stays; the one before it gives way. Linear axis
 * 0..12 over 120 px: centres 0, 100, 110; "b" (7.8 px) and "max" (23.4 px)
 * need 3.9 + 11.7 + 7.8 = 23.4 px, they are 10 apart. */
static void ticks_last_stays(void **state)
{
    (void)state;
    const double xs[] = { 0, 10, 11 };
    const char *texts[] = { "a", "b", "max" };
    bool show[3];
    assert_int_equal(rd_gp_thin_ticks(xs, texts, 3, 0, 12, false, 120, show), 2);
    assert_true(show[0]);
    assert_false(show[1]);
    assert_true(show[2]);
    /* Far apart, all stay. */
    assert_int_equal(rd_gp_thin_ticks(xs, texts, 3, 0, 12, false, 2000, show), 3);
}

/* Paired within rounds (blocks "round"): b's dot is the best's mean
 * times its verdict ratio (0.9 * 100 = 90, not its own mean 80), its bar
 * the paired interval times it (0.85 * 100 .. 0.95 * 100), and the best
 * a dot without a bar (its own CI 90..110 is not what the verdict read).
 * c, eliminated by the race, has no verdict interval: its bar is the
 * interval on all its runs (eliminated_ci_*), and its table text says
 * why when there is none (d: open arrows, as a row not estimable, never
 * its own CI). Unpaired, the same document keeps b's own
 * mean as the dot and the best's CI on the log scale. */
static void means_paired_and_eliminated(void **state)
{
    (void)state;
    static const char *head =
        "{\"schema\":\"rundown.analysis/1\",\"workloads\":["
        " {\"name\":\"w\",\"primary\":{\"metric\":\"rps\",\"better\":\"higher\"},\"configs\":["
        "  {\"id\":\"a\",\"metrics\":{\"rps\":{\"mean\":100,\"ci_low\":90,\"ci_high\":110}}},"
        "  {\"id\":\"b\",\"metrics\":{\"rps\":{\"mean\":80,\"ci_low\":60,\"ci_high\":100}}},"
        "  {\"id\":\"c\",\"metrics\":{\"rps\":{\"mean\":40,\"ci_low\":38,\"ci_high\":42}}},"
        "  {\"id\":\"d\",\"metrics\":{\"rps\":{\"mean\":30,\"ci_low\":-10,\"ci_high\":70}}}],"
        "  \"recommendation\":{\"best\":\"a\",";
    static const char *tail =
        "\"margin\":0.05,\"decision\":\"clear\",\"verdicts\":["
        "   {\"config\":\"a\",\"verdict\":\"best\",\"ratio\":1},"
        "   {\"config\":\"b\",\"verdict\":\"worse\",\"ratio\":0.9,\"ratio_ci_low\":0.85,"
        "    \"ratio_ci_high\":0.95},"
        "   {\"config\":\"c\",\"verdict\":\"worse\",\"ratio\":0.4,\"ratio_ci_low\":null,"
        "    \"ratio_ci_high\":null,\"eliminated_ci_low\":0.35,\"eliminated_ci_high\":0.45,"
        "    \"eliminated_ci_note\":null},"
        "   {\"config\":\"d\",\"verdict\":\"worse\",\"ratio\":0.3,\"eliminated_ci_low\":null,"
        "    \"eliminated_ci_high\":null,\"eliminated_ci_note\":\"no interval: why\"}]}}]}";
    char doc[2048];
    for (int paired = 1; paired >= 0; paired--) {
        snprintf(doc, sizeof doc, "%s%s%s", head, paired ? "\"blocks\":\"round\"," : "", tail);
        struct rd_report r;
        struct rd_diag d;
        rd_diag_init(&d, NULL);
        assert_int_equal(rd_report_parse(&r, doc, strlen(doc), "a.json", "a.json", &d), RD_OK);
        const struct rd_rworkload *w = &r.workloads[0];
        assert_int_equal(rd_means_paired(w), paired);
        struct rd_mrow m[4];
        for (size_t i = 0; i < 4; i++)
            rd_means_row(w, i, 100, &m[i]);
        if (paired) {
            assert_true(isnan(m[0].lo) && isnan(m[0].hi) && !m[0].open);
            assert_float_equal(m[1].mean, 90, 1e-12);
        } else {
            /* 100 exp(+-10 / 100) */
            assert_float_equal(m[0].lo, 100 * exp(-0.1), 1e-9);
            assert_float_equal(m[1].mean, 80, 1e-12);
        }
        assert_float_equal(m[1].lo, 85, 1e-9);
        assert_float_equal(m[1].hi, 95, 1e-9);
        assert_float_equal(m[2].lo, 35, 1e-9);
        assert_float_equal(m[2].hi, 45, 1e-9);
        assert_true(isnan(m[3].lo) && isnan(m[3].hi) && m[3].open); /* not its own CI */
        /* the table's words */
        struct rd_buf b = RD_BUF_INIT;
        const struct rd_rverdict *vc = rd_config_verdict(w, 2), *vd = rd_config_verdict(w, 3);
        assert_int_equal(rd_verdict_ratio_text(w, vc, NULL, &b), RD_OK);
        assert_non_null(strstr(b.ptr, "(2.22–2.86×)")); /* 1 / 0.45, 1 / 0.35 */
        rd_buf_reset(&b);
        assert_int_equal(rd_verdict_ratio_text(w, vd, NULL, &b), RD_OK);
        assert_non_null(strstr(b.ptr, "; no interval: why"));
        char phrase[64];
        assert_non_null(strstr(rd_config_verdict_phrase(w, vc, phrase, sizeof phrase),
                               ", eliminated by the race"));
        rd_buf_release(&b);
        rd_report_release(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(means_rows),
        cmocka_unit_test(means_best_open),
        cmocka_unit_test(means_paired_and_eliminated),
        cmocka_unit_test(ticks_ab),
        cmocka_unit_test(ticks_last_stays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
