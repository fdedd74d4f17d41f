/*
 * comparesides.c - the sides of a comparison from the command line
 * (comparestores.h): --compare's operands, --compare-by's values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "comparestores.h"

/* NAME=STORE[,STORE...]: a name without '/' before the first '=', on an
 * operand that is not itself a file (a store may have '=' in its name). */
static bool is_group(const char *op)
{
    const char *eq = strchr(op, '=');
    return eq && eq != op && !memchr(op, '/', (size_t)(eq - op)) && access(op, F_OK) != 0;
}

static rd_status check_names(const char *const *names, size_t n, const char *what,
                             struct rd_diag *d)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0)
                return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "%s: two sides are named '%s'",
                                   what, names[i]);
    return RD_OK;
}

/* Splits s in place at each ','; fills out[0..) (room for strlen(s) / 2 + 1). */
static size_t split_commas(char *s, const char **out)
{
    size_t n = 0;
    out[n++] = s;
    for (char *p = s; *p; p++)
        if (*p == ',') {
            *p = '\0';
            out[n++] = p + 1;
        }
    return n;
}

static bool any_empty(const char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!*v[i])
            return true;
    return false;
}

/* A plain store's file name: the part of its path after the last '/'
 * (the path itself when that is empty: "dir/"). */
static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* What side i would be called by its file name: a group by its NAME. */
static const char *short_name(const struct rd_compare_sides *s, size_t i)
{
    return s->lists[i] ? s->groups[i].name : file_name(s->groups[i].name);
}

/* Names the plain stores (a group keeps its NAME): by file name when no
 * other side has it, else by the path as given (a/s.jsonl, b/s.jsonl),
 * and a path given again by the path and its count ("s.jsonl (2)"), so
 * every column head tells its side apart. Before this, two plain stores
 * were "old" and "new", which said nothing of which file was which. */
static rd_status name_stores(struct rd_compare_sides *s)
{
    const char **names = calloc(s->ngroups, sizeof *names);
    if (!names)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < s->ngroups; i++) {
        names[i] = s->groups[i].name;
        if (s->lists[i])
            continue;
        bool unique = true;
        for (size_t j = 0; j < s->ngroups && unique; j++)
            unique = j == i || strcmp(short_name(s, j), short_name(s, i)) != 0;
        if (unique)
            names[i] = file_name(s->groups[i].name);
    }
    rd_status st = RD_OK;
    for (size_t i = 0; i < s->ngroups && !st; i++) {
        size_t again = 0;
        for (size_t j = 0; j < i; j++)
            again += !s->lists[i] && !s->lists[j] &&
                     strcmp(s->groups[j].name, s->groups[i].name) == 0;
        if (!again)
            continue;
        if (asprintf(&s->text[i], "%s (%zu)", names[i], again + 1) < 0) {
            s->text[i] = NULL;
            st = RD_ERR_NOMEM;
        } else
            names[i] = s->text[i];
    }
    for (size_t i = 0; i < s->ngroups && !st; i++)
        s->groups[i].name = names[i];
    free(names);
    return st;
}

rd_status rd_compare_sides_parse(struct rd_compare_sides *s, const char *const *operands,
                                 size_t n, struct rd_diag *d)
{
    memset(s, 0, sizeof *s);
    if (n < 2)
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                           "--compare: expected two stores or more, the first the baseline, "
                           "got %zu", n);
    s->groups = calloc(n, sizeof *s->groups);
    s->text = calloc(n, sizeof *s->text);
    s->lists = calloc(n, sizeof *s->lists);
    const char **names = calloc(n, sizeof *names);
    rd_status st = s->groups && s->text && s->lists && names ? RD_OK : RD_ERR_NOMEM;
    for (size_t i = 0; i < n && !st; i++) {
        struct rd_compare_group *g = &s->groups[s->ngroups++];
        if (!is_group(operands[i])) {
            g->name = operands[i];
            g->stores = &operands[i];
            g->nstores = 1;
            continue;
        }
        size_t len = strlen(operands[i]);
        if (!(s->text[i] = strdup(operands[i])) ||
            !(s->lists[i] = calloc(len / 2 + 1, sizeof *s->lists[i]))) {
            st = RD_ERR_NOMEM;
            break;
        }
        char *eq = strchr(s->text[i], '=');
        *eq = '\0';
        g->name = s->text[i];
        g->nstores = split_commas(eq + 1, s->lists[i]);
        g->stores = s->lists[i];
        if (any_empty(g->stores, g->nstores))
            st = rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                             "--compare: expected NAME=STORE[,STORE...], got '%s'", operands[i]);
    }
    if (!st)
        st = name_stores(s);
    for (size_t i = 0; i < s->ngroups && !st; i++)
        names[i] = s->groups[i].name;
    if (!st)
        st = check_names(names, s->ngroups, "--compare", d);
    free(names);
    return st;
}

void rd_compare_sides_release(struct rd_compare_sides *s)
{
    for (size_t i = 0; s->text && i < s->ngroups; i++) {
        free(s->text[i]);
        free(s->lists[i]);
    }
    free(s->text);
    free(s->lists);
    free(s->groups);
    memset(s, 0, sizeof *s);
}

rd_status rd_compare_by_parse(struct rd_compare_by *b, const char *arg, struct rd_diag *d)
{
    memset(b, 0, sizeof *b);
    const char *eq = strchr(arg, '=');
    size_t len = strlen(arg);
    if (!eq || eq == arg || !strchr(eq, ','))
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                           "--compare-by: expected KEY=A,B[,C...], got '%s'", arg);
    if (!(b->key = strdup(arg)) || !(b->values = calloc(len / 2 + 1, sizeof *b->values)))
        return RD_ERR_NOMEM;
    b->key[eq - arg] = '\0';
    b->nvalues = split_commas(b->key + (eq - arg) + 1, b->values);
    if (any_empty(b->values, b->nvalues))
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                           "--compare-by: expected KEY=A,B[,C...], got '%s'", arg);
    for (size_t i = 0; i < b->nvalues; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(b->values[i], b->values[j]) == 0)
                return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                                   "--compare-by: the values must differ, got '%s'", arg);
    return RD_OK;
}

void rd_compare_by_release(struct rd_compare_by *b)
{
    free(b->key);
    free(b->values);
    memset(b, 0, sizeof *b);
}
