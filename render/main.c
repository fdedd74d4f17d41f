/*
 * rundown-render - turns an analysis.json into report.md, report.html,
 * report.xlsx, report.tex, CSV files and charts/ (DESIGN.md §5). Parses options, loads the
 * analysis, calls rd_render, prints what went wrong.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "optable.h"
#include "render.h"
#include "rundown/analysis_keys.h"
#include "rundown/cli.h"
#include "rundown/contract.h"
#include "rundown/fsutil.h"
#include "rundown/units.h"

/* A positive size: bytes, or a number with a unit (KiB, MiB, GiB, TiB;
 * KB, MB, GB count in 1024 too, as in core's sizes). */
static int parse_size(const char *s, size_t *out)
{
    unsigned long long n;
    double v;
    size_t len = strlen(s);
    if (rd_parse_uint(s, len, &n) == RD_OK)
        v = (double)n;
    else if (rd_parse_size_bytes(s, len, RD_SIZE_BINARY, &v) != RD_OK)
        return -1;
    if (!(v >= 1 && v <= (double)SIZE_MAX / 2))
        return -1;
    *out = (size_t)v;
    return 0;
}

/* The heap in transparent huge pages. At 10^5 configs the workbook is
 * millions of small cells (libxlsxwriter callocs each and links it into a
 * tree per row), 700 MiB of heap touched a 4 KiB page at a time: a tenth
 * of the CPU went to page faults and the walks of the cell trees to TLB
 * misses. glibc grows the heap from its top: with a top pad of 1 GiB it
 * reserves that once (address space only; a page counts when touched),
 * and madvise makes that reservation huge-page backed where the kernel
 * has them ("madvise" mode). glibc's own tunable (glibc.malloc.hugetlb)
 * does the same but is read from the environment at start. Nothing here
 * changes a byte of the output; where any step fails the heap stays as
 * it was. */
static void heap_in_huge_pages(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && defined(M_TOP_PAD)
    const size_t pad = (size_t)1 << 30;
    long page = sysconf(_SC_PAGESIZE);
    /* Under a limit on address space (ulimit -v) the reservation would
     * count whole: the heap stays as it was. */
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur != RLIM_INFINITY)
        return;
    if (page <= 0 || !mallopt(M_TOP_PAD, (int)pad))
        return;
    /* Setting the pad fixes glibc's mmap threshold at 128 KiB (it would
     * grow with the blocks freed): every block from there on would be
     * mapped, and zeroed by the kernel, anew each time. 32 MiB is the
     * most glibc's own rule grows it to. */
    (void)mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    /* The heap's first growth (nothing was allocated yet) takes the pad;
     * the block is under the mmap threshold, so it comes from the heap.
     * volatile: the compiler would drop a malloc that is only freed. */
    char *lo = sbrk(0);
    void *volatile p = malloc(64 * 1024);
    char *hi = sbrk(0);
    free(p);
    /* Later growth asks only for what it needs (the default pad), and the
     * reservation is never given back: trimming it would end its huge
     * pages (the kernel keeps them to the part of the heap advised). */
    (void)mallopt(M_TOP_PAD, 128 * 1024);
    if (lo == (char *)-1 || hi == (char *)-1 || hi - lo < (ptrdiff_t)(pad / 2))
        return;
    (void)mallopt(M_TRIM_THRESHOLD, INT_MAX);
    uintptr_t a = ((uintptr_t)lo + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    (void)madvise((void *)a, (size_t)((uintptr_t)hi - a), MADV_HUGEPAGE);
#endif
}

/* What a back end changed to fit its format (rd_render_opts.warn). */
static void warn(void *ctx, const char *msg)
{
    (void)ctx;
    rd_warn("%s", msg);
}

int main(int argc, char **argv)
{
    rd_cli_init("rundown-render");
    heap_in_huge_pages();
    /* SIGXFSZ is fatal here: libxlsxwriter and gnuplot do not check their
     * writes, so under a file-size limit they would stage a truncated
     * workbook or chart that looks whole. */
    rd_cleanup_on_signals(true, rd_cli_name());
    struct rd_render_opts o = { .md_stream = stdout };
    size_t max_input = RD_RENDER_MAX_INPUT;
    const char *formats = NULL;
    struct rd_opts p;
    rd_opts_begin(&p, &rd_render_spec, argc, argv);
    int c;
    while ((c = rd_opts_next(&p)) >= 0) {
        char *arg = rd_opts_arg(&p);
        switch (c) {
        case 'o': o.out_dir = arg; break;
        case RO_TEMPLATES: o.templates_dir = arg; break;
        case RO_FORMATS: formats = arg; break;
        case RO_GNUPLOT: o.gnuplot = arg; break;
        case RO_STRICT: o.strict = true; break;
        case RO_MAX_INPUT:
            if (parse_size(arg, &max_input) != 0)
                return rd_usage_error("--max-input: expected a size like 2GiB or 500000000, "
                                      "got '%s'", arg);
            break;
        }
    }
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p);
    int first = rd_opts_index(&p);
    if (first == argc)
        return rd_usage_error("expected an analysis file (analysis.json, or '-')");
    if (argc - first > 1)
        return rd_usage_error("expected one analysis file, got '%s' as well", argv[first + 1]);
    const char *input = argv[first];

    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (formats) {
        rd_status st = rd_render_parse_formats(formats, &o.formats, &d);
        if (st != RD_OK)
            return rd_usage_error("%s", d.msg);
    } else {
        o.formats = o.out_dir ? RD_FMT_ALL : RD_FMT_MD;
    }

    o.warn = warn;
    struct rd_report r = {0}; /* released even when never loaded */
    rd_status st = rd_contract_expect(input, RD_CONTRACT_ANALYSIS, &d);
    if (st == RD_OK)
        st = rd_report_load(&r, input, max_input, &d);
    if (st == RD_OK)
        st = rd_render(&r, &o, &d);
    int rc = st == RD_OK ? RD_EXIT_OK : st == RD_ERR_USAGE ? rd_usage_error("%s", d.msg)
                                                           : rd_fail(st, &d);
    rd_report_release(&r);
    return rc;
}
