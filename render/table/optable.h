/*
 * optable.h - the option table of rundown-render (rundown/opts.h).
 */
#ifndef RUNDOWN_RENDER_OPTABLE_H
#define RUNDOWN_RENDER_OPTABLE_H

#include "rundown/opts.h"

enum { RO_TEMPLATES = 256, RO_FORMATS, RO_GNUPLOT, RO_MAX_INPUT, RO_STRICT };

extern const struct rd_cmd_spec rd_render_spec;

#endif
