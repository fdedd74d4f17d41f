/*
 * template.h - a small logic-less template engine (a Mustache subset).
 *
 * Templates live in templates/ so a user can restyle a report without
 * recompiling (rundown-render --templates DIR). The data is a tree (tdata.h,
 * the "view" the back end builds), so templates can only place values,
 * repeat over lists and test for presence: every decision that needs
 * arithmetic is taken in C.
 *
 * Syntax:
 *   {{name}}  {{a.b}}  {{.}}    a value, escaped for the template's destination
 *   {{name|md}} {{name|html}} {{name|plain}}   escaped for another destination
 *   {{&name}}                   the value as is (only for text C composed)
 *   {{#name}}...{{/name}}       repeat for each item of a list, enter an
 *                               object, or include when true / non-empty
 *   {{^name}}...{{/name}}       include when missing, null, false, "" or []
 *   {{! comment }}
 * A section or comment tag alone on its line removes that whole line, so
 * list templates do not leave blank lines in Markdown tables.
 * Values: strings are escaped, numbers printed in shortest round-trip form,
 * null prints an em dash ("undefined", never a made-up number). A name that
 * resolves to nothing is an error naming the template, line and column.
 */
#ifndef RD_RENDER_TEMPLATE_H
#define RD_RENDER_TEMPLATE_H

#include "escape.h"
#include "rundown/buf.h"
#include "rundown/status.h"
#include "tdata.h"

struct rd_template;

/**
 * Compiles a template. 'name' is used in messages and must outlive the
 * template; 'esc' is the default escaping for {{name}}. Syntax errors
 * (unclosed or mismatched sections, bad tags, nesting deeper than 32) are
 * RD_ERR_PARSE with name:line:col. Caller frees *out with rd_template_free.
 */
rd_status rd_template_parse(const char *text, size_t len, const char *name,
                            enum rd_escape esc, struct rd_template **out,
                            struct rd_diag *d);

/**
 * Reads dir/file and compiles it (see rd_template_parse); 'esc' as there.
 * The diag path is the file's path. Caller frees with rd_template_free.
 */
rd_status rd_template_load(const char *dir, const char *file, enum rd_escape esc,
                           struct rd_template **out, struct rd_diag *d);

/**
 * Renders the template with 'data' as the outermost context, appending to
 * out. On error out may hold partial output, which the caller discards.
 */
rd_status rd_template_render(const struct rd_template *t, const struct rd_tval *data,
                             struct rd_buf *out, struct rd_diag *d);

/** Frees a template; NULL is fine. */
void rd_template_free(struct rd_template *t);

#endif
