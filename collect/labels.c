/*
 * labels - parsing of -l KEY=VALUE arguments.
 */
#include <ctype.h>
#include <string.h>

#include "labels.h"

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
