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

/* {"title":"A|B <x> `c` '='","n":5,"none":null,"yes":true,"no":false,"empty":"",
 *  "rows":[{"name":"bun","sig":true,"cells":["1","#2"]},{"name":"-no","sig":false}],
 *  "tags":["a","b*",null,3],"env":{"cpu":{"model":"EPYC","cores":2},"os":"Linux"}} */
static void make_view(struct rd_tdata *t)
{
    rd_tdata_init(t);
    struct rd_tval *root = t->root;
    rd_tdata_string(t, root, "title", "A|B <x> `c` '='");
    rd_tdata_number(t, root, "n", 5);
    rd_tdata_string(t, root, "none", NULL);
    rd_tdata_bool(t, root, "yes", true);
    rd_tdata_bool(t, root, "no", false);
    rd_tdata_string(t, root, "empty", "");
    struct rd_tval *rows = rd_tdata_list(t, root, "rows");
    struct rd_tval *row = rd_tdata_object(t, rows, NULL);
    rd_tdata_string(t, row, "name", "bun");
    rd_tdata_bool(t, row, "sig", true);
    struct rd_tval *cells = rd_tdata_list(t, row, "cells");
    rd_tdata_string(t, cells, NULL, "1");
    rd_tdata_string(t, cells, NULL, "#2");
    row = rd_tdata_object(t, rows, NULL);
    rd_tdata_string(t, row, "name", "-no");
    rd_tdata_bool(t, row, "sig", false);
    struct rd_tval *tags = rd_tdata_list(t, root, "tags");
    rd_tdata_string(t, tags, NULL, "a");
    rd_tdata_string(t, tags, NULL, "b*");
    rd_tdata_string(t, tags, NULL, NULL);
    rd_tdata_number(t, tags, NULL, 3);
    struct rd_tval *env = rd_tdata_object(t, root, "env");
    struct rd_tval *cpu = rd_tdata_object(t, env, "cpu");
    rd_tdata_string(t, cpu, "model", "EPYC");
    rd_tdata_number(t, cpu, "cores", 2);
    rd_tdata_string(t, env, "os", "Linux");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    enum rd_escape esc = (enum rd_escape)(data[0] % 4);
    struct rd_tdata view;
    make_view(&view);
    if (view.failed) {
        rd_tdata_release(&view);
        return 0;
    }
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
        rd_template_render(t, view.root, &out, &d);
        rd_buf_release(&out);
        rd_template_free(t);
    }
    rd_tdata_release(&view);
    return 0;
}
