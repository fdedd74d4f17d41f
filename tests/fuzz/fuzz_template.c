// links: rd_render
/*
 * fuzz_template - compiles an arbitrary template and renders it against a
 * fixed view with lists, objects, nulls and hostile strings.
 *
 * The first byte picks the default escaping (md, html, plain, raw); the rest
 * is the template. Errors are fine; crashes, leaks, reads past the input and
 * unbounded output are not (the output buffer is capped).
 */
#include <stdint.h>
#include <stdlib.h>

#include "template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *VIEW =
    "{\"title\":\"A|B <x> `c` '='\",\"n\":5,\"none\":null,\"yes\":true,\"no\":false,\"empty\":\"\","
    "\"rows\":[{\"name\":\"bun\",\"sig\":true,\"cells\":[\"1\",\"#2\"]},{\"name\":\"-no\",\"sig\":false}],"
    "\"env\":{\"os\":\"Linux\",\"cpu\":{\"model\":\"EPYC\"}},\"tags\":[\"a\",\"b*\",null,3]}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    enum rd_escape esc = (enum rd_escape)(data[0] % 4);
    cJSON *view = cJSON_Parse(VIEW);
    if (!view)
        return 0;
    struct rd_template *t = NULL;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    if (rd_template_parse((const char *)data + 1, size - 1, "fuzz", esc, &t, &d) == RD_OK) {
        struct rd_buf out;
        /* Sections over a list repeat their body; 32 levels over 4 items
         * could be 4^32 copies, so the cap, not the input, bounds the work.
         * 64 KiB still makes the cap trip (the cap path is what matters);
         * 4 MiB made an execution cost up to a millisecond of copying. */
        rd_buf_init(&out, 1u << 16);
        rd_template_render(t, view, &out, &d);
        rd_buf_release(&out);
        rd_template_free(t);
    }
    cJSON_Delete(view);
    return 0;
}
