// links: rd_collect
/*
 * fuzz_procstat - the /proc readers of the contention guard
 * (collect/machineload.c) on arbitrary bytes: the "cpu" line of
 * /proc/stat, the "some" line of /proc/pressure/cpu, and a process's
 * /proc/PID/stat (comm with blanks and parentheses, fields missing) read
 * through a process table of a folder holding only that file. Checked
 * besides memory errors: busy and steal never exceed the total, a pressure
 * total is finite, and a process read keeps a NUL-terminated comm.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machineload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

/* The folder is made once per process and removed at its exit. */
static void remove_dir(void)
{
    char p[128];
    snprintf(p, sizeof p, "%s/7/stat", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/7", dir);
    rmdir(p);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    unsigned long long busy, steal, all;
    if (rd_machine_parse_stat(text, &busy, &steal, &all) && (busy > all || steal > all) &&
        busy < (1ULL << 62) && steal < (1ULL << 62) && all < (1ULL << 62))
        abort();
    double t;
    if (rd_machine_parse_pressure(text, &t) && !isfinite(t))
        abort();
    if (!dir[0]) {
        atexit(remove_dir);
        snprintf(dir, sizeof dir, "/tmp/rd-fuzz-procstat-%d", (int)getpid());
        mkdir(dir, 0700);
        char sub[96];
        snprintf(sub, sizeof sub, "%s/7", dir);
        mkdir(sub, 0700);
    }
    char path[128];
    snprintf(path, sizeof path, "%s/7/stat", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
        struct rd_proc_table tab = {0};
        if (rd_proc_table_read(dir, &tab))
            for (size_t i = 0; i < tab.n; i++)
                if (strnlen(tab.p[i].comm, sizeof tab.p[i].comm) == sizeof tab.p[i].comm)
                    abort();
        rd_proc_table_release(&tab);
    }
    free(text);
    return 0;
}
