/*
 * viewtext.h - the leaf every view calls (viewtext.c): escaped text and
 * metric links
 */
#ifndef RD_RENDER_VIEWTEXT_H
#define RD_RENDER_VIEWTEXT_H

#include <stdbool.h>

#include "view.h"

/**
 * Appends a metric as the report names it in Markdown: its registry label
 * as a link to the Method section's list of metrics, the key as the link's
 * title (a tooltip in the HTML), escaped for Markdown; and adds the metric
 * to that list. For {{&...}}: the text is already Markdown.
 */
void rd_view_metric(struct vb *v, const char *metric, bool inline_text);

/** Appends Markdown-escaped text (for composing {{&...}} values). */
void rd_view_text(struct vb *v, const char *s);

#endif
