/*
 * labels - parsing of -l KEY=VALUE and --better NAME=DIRECTION arguments.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "labels.h"
#include "metricscan.h"

void rd_label_args_init(struct rd_label_args *la)
{
    la->len = 0;
}

rd_status rd_label_args_add(struct rd_label_args *la, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return RD_ERR_USAGE;
    for (char *p = arg; p < eq; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
            return RD_ERR_USAGE;
    *eq = '\0';
    for (size_t i = 0; i < la->len; i++) {
        if (strcmp(la->keys[i], arg) == 0) {
            la->values[i] = eq + 1;
            return RD_OK;
        }
    }
    if (la->len == RD_MAX_LABEL_ARGS)
        return RD_ERR_USAGE;
    la->keys[la->len] = arg;
    la->values[la->len] = eq + 1;
    la->len++;
    return RD_OK;
}

rd_status rd_better_args_add(struct rd_label_args *la, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq || !rd_metric_name_valid(arg, (size_t)(eq - arg)) ||
        (strcmp(eq + 1, "lower") != 0 && strcmp(eq + 1, "higher") != 0))
        return RD_ERR_USAGE;
    return rd_label_args_add(la, arg);
}

rd_status rd_better_args_format(const struct rd_label_args *la, struct rd_buf *out)
{
    bool done[RD_MAX_LABEL_ARGS] = {false};
    for (size_t k = 0; k < la->len; k++) {
        size_t next = SIZE_MAX;
        for (size_t i = 0; i < la->len; i++)
            if (!done[i] && (next == SIZE_MAX || strcmp(la->keys[i], la->keys[next]) < 0))
                next = i;
        done[next] = true;
        RD_TRY(rd_buf_addf(out, "%s%s=%s", k ? "," : "", la->keys[next], la->values[next]));
    }
    return RD_OK;
}
