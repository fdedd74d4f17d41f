/*
 * labels.h - KEY=VALUE label arguments (-l) and metric directions
 * (--better NAME=lower|higher) shared by the subcommands.
 */
#ifndef RUNDOWN_LABELS_H
#define RUNDOWN_LABELS_H

#include <stddef.h>

#include "rundown/buf.h"
#include "rundown/status.h"

#define RD_MAX_LABEL_ARGS 64

struct rd_label_args {
    const char *keys[RD_MAX_LABEL_ARGS];
    const char *values[RD_MAX_LABEL_ARGS];
    size_t len;
};

void rd_label_args_init(struct rd_label_args *la);

/**
 * Splits "KEY=VALUE" in place (arg is modified) and appends it; a repeated
 * KEY replaces the earlier value. The key must be non-empty and made of
 * letters, digits, '_', '-' or '.'. RD_ERR_USAGE otherwise or when full.
 */
rd_status rd_label_args_add(struct rd_label_args *la, char *arg);

/**
 * Checks "NAME=lower" or "NAME=higher" (--better; arg is modified as by
 * rd_label_args_add) and appends it: NAME a metric name
 * (rd_metric_name_valid). RD_ERR_USAGE otherwise or when full.
 */
rd_status rd_better_args_add(struct rd_label_args *la, char *arg);

/**
 * Appends the directions as info.metric_better spells them:
 * "NAME=DIR,NAME=DIR" sorted by NAME (nothing when la is empty).
 */
rd_status rd_better_args_format(const struct rd_label_args *la, struct rd_buf *out);

#endif
