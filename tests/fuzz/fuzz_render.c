// links: rd_render
/*
 * fuzz_render - an arbitrary analysis.json through the model, the chart
 * plan, the Markdown report and the HTML report (all in memory, no files,
 * no gnuplot).
 *
 * A rejected document is fine; an accepted one must render without a
 * crash, a leak or a read past the input, whatever is null, missing, of
 * the wrong type or hostile.
 */
#include <stdint.h>
#include <stdlib.h>

#include "backends.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    struct rd_report r;
    if (rd_report_parse(&r, (const char *)data, size, "fuzz", "fuzz", &d) == RD_OK) {
        struct rd_chart_plan plan;
        if (rd_chart_plan_make(&r, &plan) == RD_OK) {
            struct rd_buf md, html;
            rd_buf_init(&md, 1u << 24);
            rd_buf_init(&html, 1u << 25);
            const char *tdir = rd_render_default_templates();
            if (rd_render_markdown(&r, &plan, tdir, &md, &d) == RD_OK)
                rd_render_html(&r, md.ptr, md.len, tdir, NULL, &html, &d);
            rd_buf_release(&md);
            rd_buf_release(&html);
            rd_chart_plan_release(&plan);
        }
    }
    rd_report_release(&r);
    return 0;
}
