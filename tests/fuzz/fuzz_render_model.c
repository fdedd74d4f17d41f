// links: rd_render
/*
 * fuzz_render_model - the renderer's reader alone: an arbitrary
 * analysis.json through rd_report_parse (JSON, UTF-8, the typed model, what
 * derive.c works out, and the lookups the back ends make), without the Markdown, HTML and chart stages that make
 * fuzz_render a hundred times slower per input.
 *
 * A rejected document is fine; an accepted one must build its model
 * without a crash, a leak or a read past the input. Every input is read a
 * second time with every big array read an element at a time
 * (RUNDOWN_RENDER_DEFER_BYTES=0, rundown/json_lazy.h), and a third time
 * with the arrays from 64 bytes on cut out (a shorter element is parsed
 * without a scan): the same status, message and number of workloads and
 * configs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "lookup.h"
#include "model.h"
#include "rundown/numfmt.h"
#include "verdicts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The configs of every workload, or ~0 when the parse failed. */
static size_t configs_of(const struct rd_report *r, rd_status st)
{
    size_t n = r->nworkloads;
    for (size_t i = 0; i < r->nworkloads; i++)
        n += r->workloads[i].nconfigs << 16;
    return st == RD_OK ? n : ~(size_t)0;
}

/* The input read with the arrays from 'defer' bytes on cut out agrees
 * with the whole read. */
static void same_in_parts(const uint8_t *data, size_t size, rd_status st, const struct rd_diag *d,
                          size_t configs, const char *defer)
{
    struct rd_report r;
    struct rd_diag d2;
    rd_diag_init(&d2, NULL);
    setenv("RUNDOWN_RENDER_DEFER_BYTES", defer, 1);
    rd_status st2 = rd_report_parse(&r, (const char *)data, size, "fuzz", "fuzz", &d2);
    unsetenv("RUNDOWN_RENDER_DEFER_BYTES");
    if (st2 != st || strcmp(d->msg, d2.msg) != 0 || d->line != d2.line ||
        configs_of(&r, st2) != configs)
        abort();
    rd_report_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rd_report r;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    rd_status st = rd_report_parse(&r, (const char *)data, size, "fuzz", "fuzz", &d);
    same_in_parts(data, size, st, &d, configs_of(&r, st), "0");
    /* Elements under 64 bytes are parsed without a scan (parse_short). */
    same_in_parts(data, size, st, &d, configs_of(&r, st), "64");
    if (st == RD_OK) {
        /* The lookups the stages make on every workload and config. */
        struct rd_buf b = RD_BUF_INIT;
        for (size_t i = 0; i < r.nworkloads; i++) {
            const struct rd_rworkload *w = &r.workloads[i];
            for (size_t j = 0; j < w->nconfigs; j++)
                (void)rd_config_rss_mib(&w->configs[j]);
            bool swapped;
            if (w->recommended >= 0 && w->runner_up >= 0)
                (void)rd_workload_pair(w, w->configs[w->recommended].id,
                                       w->configs[w->runner_up].id, &swapped);
            rd_buf_reset(&b);
            rd_tied_text(w, &b);
            /* The verdict lookups every back end makes. */
            rd_buf_reset(&b);
            rd_decision_text(w, &b);
            (void)rd_workload_nearest(w);
            (void)rd_workload_categorical(w);
        }
        for (size_t i = 0; i < r.nreplication; i++)
            rd_fmt_config_name(&b, r.replication[i].labels, r.replication[i].nlabels);
        rd_buf_release(&b);
    }
    rd_report_release(&r);
    return 0;
}
