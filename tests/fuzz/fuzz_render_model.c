// links: rd_render
/*
 * fuzz_render_model - the renderer's reader alone: an arbitrary
 * analysis.json through rd_report_parse (JSON, UTF-8, the model and its
 * lookups), without the Markdown, HTML and chart stages that make
 * fuzz_render a hundred times slower per input.
 *
 * A rejected document is fine; an accepted one must build its model
 * without a crash, a leak or a read past the input.
 */
#include <stdint.h>
#include <stdlib.h>

#include "model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rd_report r;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (rd_report_parse(&r, (const char *)data, size, "fuzz", "fuzz", &d) == RD_OK) {
        /* The lookups the stages make on every config. */
        for (size_t i = 0; i < r.nworkloads; i++) {
            const struct rd_rworkload *w = &r.workloads[i];
            for (size_t j = 0; j < w->nconfigs; j++)
                (void)rd_config_rss_mib(&w->configs[j]);
        }
    }
    rd_report_release(&r);
    return 0;
}
