// links: rd_collect
/*
 * fuzz_suite - rundown.suite/1 parsing, placeholder expansion of every
 * template of every config, and the planner (with a shard and a pattern),
 * on arbitrary bytes. Nothing is run: only rd_suite_parse and the pure
 * planning functions are called.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "plan.h"
#include "suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rd_suite s;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    /* The path only gives {root}: a folder that always exists. */
    if (rd_suite_parse(&s, (const char *)data, size, "/tmp/fuzz-suite.json", &d) == RD_OK) {
        struct rd_plan p;
        rd_plan_init(&p);
        /* A plan may hold RD_PLAN_MAX runs: keep it small. */
        if (rd_suite_planned_runs(&s) <= 100000 && rd_plan_build(&s, &p, &d) == RD_OK) {
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
            if (r)
                rd_suite_record(&s, w, 0, r);
            rd_recordset_release(&set);
        }
        for (size_t r = 0; r < s.nruntimes; r++)
            rd_suite_version_argv(&s, &s.runtimes[r].version_cmd, &a);
        rd_arena_release(&a);
    }
    rd_suite_release(&s);
    return 0;
}
