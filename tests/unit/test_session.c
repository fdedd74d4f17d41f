// links: rd_collect
/*
 * test_session - the session layer: facts on a template, run numbers that
 * continue a store's series per config and phase, storing (the file, the
 * counts, the reports), what has been collected so far (series, kept
 * records), and the runner's sink. The expected numbers are counted by
 * hand from the store text below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session.h"

/* A store holding: w rt=a measure 1 and 4, w rt=a warmup 2, w rt=b measure 1. */
static const char stored[] =
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},\"run\":1,"
    "\"metrics\":{\"wall_ms\":10}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},\"run\":4,"
    "\"metrics\":{\"wall_ms\":11}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"a\"},\"run\":2,"
    "\"phase\":\"warmup\",\"metrics\":{\"wall_ms\":12}}\n"
    "{\"schema\":\"rundown.run/1\",\"workload\":\"w\",\"config\":{\"rt\":\"b\"},\"run\":1,"
    "\"metrics\":{\"wall_ms\":13}}\n";

static char *store_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/rd_test_session_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    assert_non_null(f);
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

/* A template of workload w with label rt=VALUE. */
static struct rd_record *template_of(struct rd_recordset *set, const char *rt)
{
    struct rd_run_facts f;
    char label[32];
    rd_run_facts_init(&f);
    f.workload = "w";
    f.env = "";
    snprintf(label, sizeof label, "rt=%s", rt);
    assert_int_equal(rd_label_args_add(&f.labels, label), RD_OK);
    struct rd_record *r = rd_recordset_add(set);
    assert_non_null(r);
    assert_int_equal(rd_run_facts_apply(&f, r), RD_OK);
    assert_null(r->env);  /* an empty env is none */
    return r;
}

struct seen {
    int starting, stored;
    size_t last_step, steps;
    long last_run;
};

static void on_report(void *ctx, const struct rd_session_event *ev)
{
    struct seen *s = ctx;
    if (ev->kind == RD_SESSION_STARTING) {
        s->starting++;
        s->last_step = ev->step;
        s->steps = ev->steps;
    } else {
        s->stored++;
        s->last_run = ev->rec->run;
    }
}

/* A session on a fresh copy of 'stored', read, with a template set. */
struct fixture {
    char *path;
    struct rd_session s;
    struct rd_diag d;
    struct rd_recordset set;
};

static void fixture_open(struct fixture *f, struct seen *seen)
{
    f->path = store_file(stored);
    rd_recordset_init(&f->set);
    rd_session_init(&f->s, f->path);
    rd_diag_init(&f->d, f->path);
    if (seen) {
        rd_session_on_report(&f->s, on_report, seen);
        rd_session_keep_records(&f->s);
    }
    assert_int_equal(rd_session_read_store(&f->s, &f->d), RD_OK);
}

static void fixture_close(struct fixture *f)
{
    rd_session_release(&f->s);
    rd_recordset_release(&f->set);
    unlink(f->path);
}

static void test_numbering_after_the_store(void **state)
{
    (void)state;
    struct fixture f;
    fixture_open(&f, NULL);
    struct rd_session *s = &f.s;
    assert_true(s->to_file);
    struct rd_session_config *a, *b, *c;
    assert_int_equal(rd_session_add_config(s, template_of(&f.set, "a"), &a), RD_OK);
    assert_int_equal(rd_session_add_config(s, template_of(&f.set, "b"), &b), RD_OK);
    assert_int_equal(rd_session_add_config(s, template_of(&f.set, "c"), &c), RD_OK);
    assert_int_equal(a->index, 0);
    assert_int_equal(c->index, 2);
    assert_string_equal(a->id, "rt=a");
    assert_int_equal(a->next_run[RD_PHASE_MEASURE], 5);
    assert_int_equal(a->next_run[RD_PHASE_WARMUP], 3);
    assert_int_equal(b->next_run[RD_PHASE_MEASURE], 2);
    assert_int_equal(b->next_run[RD_PHASE_WARMUP], 1);
    assert_int_equal(c->next_run[RD_PHASE_MEASURE], 1);

    /* The next number is taken; a given one moves the next past it. */
    struct rd_record *r = rd_recordset_add(&f.set);
    assert_int_equal(rd_session_begin_run(s, a, RD_PHASE_MEASURE, 0, r), RD_OK);
    assert_int_equal(r->run, 5);
    assert_string_equal(r->phase, "measure");
    assert_string_equal(rd_record_label(r, "rt"), "a");
    r = rd_recordset_add(&f.set);
    assert_int_equal(rd_session_begin_run(s, c, RD_PHASE_WARMUP, 7, r), RD_OK);
    assert_int_equal(r->run, 7);
    assert_string_equal(r->phase, "warmup");
    assert_int_equal(c->next_run[RD_PHASE_WARMUP], 8);
    r = rd_recordset_add(&f.set);
    assert_int_equal(rd_session_begin_run(s, c, RD_PHASE_WARMUP, 2, r), RD_OK);
    assert_int_equal(c->next_run[RD_PHASE_WARMUP], 8);
    fixture_close(&f);
}

static void test_store_counts_and_reports(void **state)
{
    (void)state;
    struct fixture f;
    struct seen seen = {0};
    fixture_open(&f, &seen);
    struct rd_session *s = &f.s;
    assert_int_equal(rd_session_records(s)->len, 4);
    struct rd_session_config *b;
    assert_int_equal(rd_session_add_config(s, template_of(&f.set, "b"), &b), RD_OK);
    rd_session_plan_steps(s, 2);
    for (size_t step = 0; step < 2; step++) {
        struct rd_record *r = rd_recordset_add(&f.set);
        assert_int_equal(rd_session_begin_run(s, b, RD_PHASE_MEASURE, 0, r), RD_OK);
        rd_session_starting(s, step, b, r);
        assert_int_equal(rd_record_set_metric(r, "wall_ms", 20.0 + (double)step), RD_OK);
        if (step == 1)
            assert_int_equal(rd_record_set(r, &r->status, "failed"), RD_OK);
        assert_int_equal(rd_session_store(s, b, r, &f.d), RD_OK);
    }
    assert_int_equal(seen.starting, 2);
    assert_int_equal(seen.stored, 2);
    assert_int_equal(seen.last_step, 1);
    assert_int_equal(seen.steps, 2);
    assert_int_equal(seen.last_run, 3);
    assert_int_equal(s->stored, 2);
    assert_int_equal(s->failed, 1);
    assert_int_equal(b->stored[RD_PHASE_MEASURE], 2);
    assert_int_equal(b->stored[RD_PHASE_WARMUP], 0);
    assert_int_equal(b->failed, 1);
    assert_int_equal(count_lines(f.path), 6);

    /* What has been collected: the store's run 1 and this session's 2, 3. */
    struct rd_run_key key = {NULL, "w", "rt=b", "measure"};
    const struct rd_run_series *se = rd_session_series(s, &key);
    assert_non_null(se);
    assert_int_equal(se->count, 3);
    assert_int_equal(se->last, 3);
    assert_true(rd_session_holds(s, &key, 2));
    const struct rd_recordset *kept = rd_session_records(s);
    assert_int_equal(kept->len, 6);
    double v;
    assert_true(rd_record_metric(&kept->items[5], "wall_ms", &v));
    assert_true(v == 21.0);
    assert_string_equal(kept->items[5].status, "failed");
    fixture_close(&f);
}

static void test_sink(void **state)
{
    (void)state;
    struct fixture f;
    fixture_open(&f, NULL);
    struct rd_session *s = &f.s;
    struct rd_session_config *a;
    assert_int_equal(rd_session_add_config(s, template_of(&f.set, "a"), &a), RD_OK);
    struct rd_session_sink sink = {s, a};
    /* Warmup 2 of rt=a is stored, warmup 1 is not. */
    assert_true(rd_session_warmup_stored(&sink, 2));
    assert_false(rd_session_warmup_stored(&sink, 1));
    struct rd_record *r = rd_recordset_add(&f.set);
    assert_int_equal(rd_session_begin_run(s, a, RD_PHASE_WARMUP, 1, r), RD_OK);
    assert_int_equal(rd_record_set_metric(r, "wall_ms", 1.0), RD_OK);
    assert_int_equal(rd_session_emit(&sink, r, &f.d), RD_OK);
    assert_true(rd_session_warmup_stored(&sink, 1));
    assert_int_equal(a->stored[RD_PHASE_WARMUP], 1);
    assert_int_equal(count_lines(f.path), 5);
    fixture_close(&f);
}

static void test_bad_store(void **state)
{
    (void)state;
    char *path = store_file("{\"schema\":\"rundown.run/1\"\n");
    struct rd_session s;
    struct rd_diag d;
    rd_session_init(&s, path);
    rd_diag_init(&d, path);
    assert_int_equal(rd_session_read_store(&s, &d), RD_ERR_PARSE);
    assert_int_equal(d.line, 1);
    rd_session_release(&s);
    unlink(path);
    /* Standard output holds nothing to read. */
    rd_session_init(&s, NULL);
    assert_false(s.to_file);
    assert_string_equal(s.store, "-");
    assert_int_equal(rd_session_read_store(&s, &d), RD_OK);
    rd_session_release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbering_after_the_store),
        cmocka_unit_test(test_store_counts_and_reports),
        cmocka_unit_test(test_sink),
        cmocka_unit_test(test_bad_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
