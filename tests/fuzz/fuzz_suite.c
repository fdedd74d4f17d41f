// links: rd_collect
/*
 * fuzz_suite - rundown.suite/1 parsing, placeholder expansion of every
 * template of every config, and the planner (with a shard, a pattern and
 * the resume filter, against an index holding the first planned run), on
 * arbitrary bytes. Nothing is run: only rd_suite_parse and the pure
 * planning functions are called. Checked besides memory errors: the config
 * id of a config is the one a record of it carries, and the resume filter
 * drops the stored run (and any other whose labels join to the same id).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "runindex.h"
#include "suite.h"
#include "suiteexpand.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rd_suite s;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    /* The path only gives {root}: a folder that always exists. */
    if (rd_suite_parse(&s, (const char *)data, size, "/tmp/fuzz-suite.json", 1, &d) == RD_OK) {
        struct rd_plan p;
        rd_plan_init(&p);
        /* A plan may hold RD_PLAN_MAX runs: keep it small. */
        if (rd_suite_planned_runs(&s) <= 100000 && rd_plan_build(&s, &p, &d) == RD_OK) {
            struct rd_run_index ix;
            rd_run_index_init(&ix);
            struct rd_buf id = RD_BUF_INIT;
            if (p.len && rd_suite_config_id(&s.workloads[p.items[0].workload],
                                            p.items[0].config, &id) == RD_OK) {
                const struct rd_plan_item *it = &p.items[0];
                struct rd_run_key key = {s.name, s.workloads[it->workload].name, id.ptr,
                                         it->warmup ? "warmup" : "measure"};
                size_t before = p.len;
                if (rd_run_index_note(&ix, &key, it->run) == RD_OK &&
                    rd_plan_drop_stored(&s, &p, &ix) == RD_OK && p.len >= before)
                    abort();
            }
            rd_buf_release(&id);
            rd_run_index_release(&ix);
            rd_plan_shard(&p, 1, 2);
            rd_plan_only(&s, &p, "*a*");
        }
        rd_plan_release(&p);
        struct rd_arena a;
        rd_arena_init(&a);
        for (size_t w = 0; w < s.nworkloads; w++) {
            struct rd_recordset set;
            rd_recordset_init(&set);
            struct rd_record *r = rd_recordset_add(&set);
            struct rd_buf mine = RD_BUF_INIT, theirs = RD_BUF_INIT;
            if (r && rd_suite_record(&s, w, 0, r) == RD_OK &&
                rd_record_config_id(r, &theirs) == RD_OK &&
                rd_suite_config_id(&s.workloads[w], 0, &mine) == RD_OK &&
                strcmp(mine.ptr, theirs.ptr) != 0)
                abort();
            rd_buf_release(&mine);
            rd_buf_release(&theirs);
            rd_recordset_release(&set);
        }
        for (size_t r = 0; r < s.nruntimes; r++)
            rd_suite_version_argv(&s, &s.runtimes[r].version_cmd, &a);
        rd_arena_release(&a);
    }
    rd_suite_release(&s);
    return 0;
}
