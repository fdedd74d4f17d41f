// links: rd_collect
/*
 * test_slurm - what `rundown-collect slurm` reads from Slurm and writes:
 * time limits as sbatch reads them (the forms and the rounding of sbatch(1)
 * --time: "Acceptable time formats include "minutes", "minutes:seconds",
 * "hours:minutes:seconds", "days-hours", "days-hours:minutes" and
 * "days-hours:minutes:seconds""; seconds round up to a whole minute, as
 * Slurm's time_str2mins does), sinfo's lines, scontrol's config, sbatch
 * --parsable, the --array lists, DIR/slurm.json, and what the scripts must
 * hold.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm.h"

static void test_time(void **state)
{
    (void)state;
    /* Expected minutes by hand from the forms above. */
    static const struct { const char *s; long min; } ok[] = {
        {"90", 90},           {"1:30", 2},     /* 90 s rounds up to 2 min */
        {"1:00", 1},          {"1:30:00", 90}, {"0:0:1", 1},
        {"2-0", 2880},        {"1-12", 2160},  {"1-0:30", 1470},
        {"1-0:30:01", 1471},  {"UNLIMITED", -1}, {"infinite", -1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        long m = 0;
        assert_true(rd_slurm_parse_time(ok[i].s, &m));
        assert_int_equal(m, ok[i].min);
    }
    static const char *const bad[] = {"", "0", "0:00", "90min", "1:2:3:4", "-1", "1-",
                                      "a-1", "1:", ":5", "1-2-3", "1.5", "1234567"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long m;
        assert_false(rd_slurm_parse_time(bad[i], &m));
    }
}

static void test_sinfo(void **state)
{
    (void)state;
    const char *text = "batch* 3 1-00:00:00\nbatch 1 1-00:00:00\n\ngpu 2 infinite\nold 0 n/a";
    struct rd_slurm_partitions p;
    struct rd_diag d;
    rd_diag_init(&d, "sinfo");
    rd_slurm_partitions_init(&p);
    assert_int_equal(rd_slurm_parse_sinfo(text, strlen(text), &p, &d), RD_OK);
    assert_int_equal(p.len, 3);
    const struct rd_slurm_partition *def = rd_slurm_partition_find(&p, NULL);
    assert_non_null(def);
    assert_string_equal(def->name, "batch");
    assert_int_equal(def->nodes, 4);   /* 3 + 1: one line per node state */
    assert_int_equal(def->max_minutes, 1440);
    assert_int_equal(rd_slurm_partition_find(&p, "gpu")->max_minutes, -1);
    assert_int_equal(rd_slurm_partition_find(&p, "old")->nodes, 0);
    assert_null(rd_slurm_partition_find(&p, "cpu"));
    rd_slurm_partitions_release(&p);

    const char *bad = "batch* 3 1-00:00:00\nbatch* three 1:00:00\n";
    assert_int_equal(rd_slurm_parse_sinfo(bad, strlen(bad), &p, &d), RD_ERR_PARSE);
    assert_int_equal(d.line, 2);
    assert_non_null(strstr(d.msg, "expected 'PARTITION NODES TIMELIMIT'"));
    rd_slurm_partitions_release(&p);
}

static void test_answers(void **state)
{
    (void)state;
    const char *conf = "Configuration data as of 2026\nMaxArraySizeX = 3\nMaxArraySize            = 1001\n";
    long v = 0;
    assert_true(rd_slurm_config_number(conf, strlen(conf), "MaxArraySize", &v));
    assert_int_equal(v, 1001);
    assert_false(rd_slurm_config_number(conf, strlen(conf), "MaxJobCount", &v));
    char id[32];
    assert_true(rd_slurm_parse_job_id("12\n", 3, id, sizeof id));
    assert_string_equal(id, "12");
    assert_true(rd_slurm_parse_job_id("345;cluster\n", 12, id, sizeof id));
    assert_string_equal(id, "345");
    assert_false(rd_slurm_parse_job_id("sbatch: error\n", 14, id, sizeof id));
    assert_false(rd_slurm_parse_job_id("12x", 3, id, sizeof id));
    assert_int_equal(rd_slurm_shard_task("task12.node-3"), 12);
    assert_int_equal(rd_slurm_shard_task("task0.a"), 0);
    assert_int_equal(rd_slurm_shard_task("task3."), 0);
    assert_int_equal(rd_slurm_shard_task("task3"), 0);
    assert_int_equal(rd_slurm_shard_task("shard3.a"), 0);
}

static void test_array_spec(void **state)
{
    (void)state;
    bool want[9] = {false, true, true, true, false, true, false, true, true};
    struct rd_buf b = RD_BUF_INIT;
    assert_int_equal(rd_slurm_array_spec(want, 8, 2, &b), RD_OK);
    assert_string_equal(b.ptr, "1-3,5,7-8%2");
    rd_buf_reset(&b);
    bool one[3] = {false, false, true};
    assert_int_equal(rd_slurm_array_spec(one, 2, 0, &b), RD_OK);
    assert_string_equal(b.ptr, "2");
    rd_buf_release(&b);
}

static void test_manifest(void **state)
{
    (void)state;
    struct rd_slurm_manifest m, back;
    memset(&m, 0, sizeof m);
    strcpy(m.suite, "naps");
    strcpy(m.suite_file, "/x/s.json");
    memset(m.suite_sha256, 'a', 64);
    m.tasks = 4;
    m.seed_given = true;
    m.seed = 9007199254740992ULL;  /* 2^53: the largest seed a suite takes */
    for (int i = 0; i < RD_SLURM_MAX_JOBS + 2; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", 100 + i);
        rd_slurm_manifest_add_job(&m, id);
    }
    assert_int_equal(m.njobs, RD_SLURM_MAX_JOBS);
    assert_string_equal(m.jobs[0], "102");  /* the two oldest forgotten */
    struct rd_buf b = RD_BUF_INIT;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_slurm_manifest_json(&m, &b), RD_OK);
    assert_int_equal(rd_slurm_manifest_parse(b.ptr, b.len, "slurm.json", &back, &d), RD_OK);
    assert_string_equal(back.suite, "naps");
    assert_string_equal(back.suite_sha256, m.suite_sha256);
    assert_int_equal(back.tasks, 4);
    assert_true(back.seed_given);
    assert_true(back.seed == m.seed);
    assert_int_equal(back.njobs, RD_SLURM_MAX_JOBS);
    assert_string_equal(back.jobs[RD_SLURM_MAX_JOBS - 1], "165");
    rd_buf_release(&b);
    static const char *const bad[] = {
        "{}",
        "{\"schema\":\"rundown.slurm/2\",\"suite\":\"a\",\"suite_file\":\"f\",\"suite_sha256\":"
        "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\"tasks\":1}",
        "{\"schema\":\"rundown.slurm/1\",\"suite\":\"a\",\"suite_file\":\"f\",\"suite_sha256\":"
        "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\"tasks\":0}",
        "{\"schema\":\"rundown.slurm/1\",\"suite\":\"a\",\"suite_file\":\"f\",\"suite_sha256\":"
        "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\"tasks\":1,"
        "\"jobs\":[\"12;x\"]}",
        "[1]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(rd_slurm_manifest_parse(bad[i], strlen(bad[i]), "slurm.json", &back, &d),
                         RD_ERR_PARSE);
}

static void test_scripts(void **state)
{
    (void)state;
    struct rd_slurm_job j = {
        .suite_name = "naps", .suite_path = "/home/o'neil/s.json",
        .suite_sha256 = "ab", .dir = "/scratch/100%/out", .tasks = 5, .throttle = 2,
        .partition = "short", .time = "30", .check = true,
        .collect = "/opt/rd/bin/rundown-collect", .analyze = "/opt/rd/bin/rundown-analyze",
        .render = "/opt/rd/bin/rundown-render",
    };
    struct rd_buf b = RD_BUF_INIT;
    assert_int_equal(rd_slurm_task_script(&j, &b), RD_OK);
    /* A quote in a value is closed, escaped and reopened for the shell;
     * '%' in an #SBATCH file name is Slurm's escape and doubled. */
    assert_non_null(strstr(b.ptr, "\nsuite='/home/o'\\''neil/s.json'\n"));
    assert_non_null(strstr(b.ptr, "\n#SBATCH --output=/scratch/100%%/out/slurm/task%a-%A.out\n"));
    assert_non_null(strstr(b.ptr, "\ndir='/scratch/100%/out'\n"));
    assert_non_null(strstr(b.ptr, "\n#SBATCH --array=1-5%2\n#SBATCH --exclusive\n"));
    assert_non_null(strstr(b.ptr, "\n#SBATCH --partition=short\n"));
    assert_non_null(strstr(b.ptr, "\n#SBATCH --time=30\n"));
    assert_non_null(strstr(b.ptr, "\"$collect\" check"));
    assert_null(strstr(b.ptr, "--seed"));
    assert_null(strstr(b.ptr, "--account"));
    rd_buf_reset(&b);
    j.check = false;
    j.seed_given = true;
    j.seed = 3;
    j.throttle = 0;
    assert_int_equal(rd_slurm_task_script(&j, &b), RD_OK);
    assert_null(strstr(b.ptr, "\"$collect\" check"));
    assert_non_null(strstr(b.ptr, " --seed 3 "));
    assert_non_null(strstr(b.ptr, "\n#SBATCH --array=1-5\n"));
    rd_buf_reset(&b);
    assert_int_equal(rd_slurm_merge_script(&j, &b), RD_OK);
    assert_non_null(strstr(b.ptr, "\"$dir\"/shards/task*/naps.jsonl"));
    assert_null(strstr(b.ptr, "--exclusive"));
    rd_buf_release(&b);

    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_slurm_check_path("/a/b-c_%/d", "DIR", &d), RD_OK);
    assert_int_equal(rd_slurm_check_path("/a/b c", "DIR", &d), RD_ERR_USAGE);
    assert_int_equal(rd_slurm_check_path("/a/\"c", "DIR", &d), RD_ERR_USAGE);
    assert_int_equal(rd_slurm_check_path("/a/\nc", "DIR", &d), RD_ERR_USAGE);
    assert_int_equal(rd_slurm_check_name("lab-1.x_y", "--account", &d), RD_OK);
    assert_int_equal(rd_slurm_check_name("a,b", "--partition", &d), RD_ERR_USAGE);
    assert_int_equal(rd_slurm_check_name("", "--partition", &d), RD_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time),        cmocka_unit_test(test_sinfo),
        cmocka_unit_test(test_answers),     cmocka_unit_test(test_array_spec),
        cmocka_unit_test(test_manifest),    cmocka_unit_test(test_scripts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
