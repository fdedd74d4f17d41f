// links: rd_collect
/*
 * fuzz_slurm - what `rundown-collect slurm` reads: sinfo's lines, scontrol's
 * config, sbatch's job id, a time limit, a task folder's name and
 * DIR/slurm.json, all from the same bytes. Checked besides memory errors:
 * a manifest that parses writes JSON that parses back to the same values.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slurm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    struct rd_slurm_partitions p;
    rd_slurm_partitions_init(&p);
    if (rd_slurm_parse_sinfo(text, size, &p, &d) == RD_OK)
        rd_slurm_partition_find(&p, NULL);
    rd_slurm_partitions_release(&p);
    long v;
    rd_slurm_config_number(text, size, "MaxArraySize", &v);
    char id[32];
    rd_slurm_parse_job_id(text, size, id, sizeof id);
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    rd_slurm_parse_time(s, &v);
    rd_slurm_shard_task(s);
    rd_slurm_check_path(s, "DIR", &d);
    free(s);
    struct rd_slurm_manifest m, back;
    if (rd_slurm_manifest_parse(text, size, "slurm.json", &m, &d) == RD_OK) {
        struct rd_buf b = RD_BUF_INIT;
        if (rd_slurm_manifest_json(&m, &b) == RD_OK &&
            (rd_slurm_manifest_parse(b.ptr, b.len, "again", &back, &d) != RD_OK ||
             strcmp(back.suite, m.suite) != 0 || back.tasks != m.tasks ||
             back.seed != m.seed || back.njobs != m.njobs))
            abort();
        rd_buf_release(&b);
    }
    return 0;
}
