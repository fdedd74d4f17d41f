/*
 * suiteexpand.c - the placeholders of a suite's templates ({runtime.cmd},
 * matrix labels, {root}, {port}, {url}, ...), expanded for one config, and
 * the check of what the expanded suite needs from this machine.
 *
 * Expansion is a pure function of (workload, config): the loader expands
 * every template of every config once to find bad placeholders, and the
 * runner expands again the one it runs. With "shell": true each value is
 * single-quoted for /bin/sh, so a label can never become shell syntax.
 */
#include "suite.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "httpprobe.h"
#include "proc.h"
#include "suiteexpand.h"
#include "rundown/buf.h"

struct subst {
    const struct rd_suite *s;
    const struct rd_suite_workload *w;
    size_t config;
    bool shell;
    int depth;
    bool no_url;  /* expanding the url itself */
};

static void sh_quote(struct rd_buf *out, const char *v)
{
    rd_buf_addch(out, '\'');
    for (; *v; v++) {
        if (*v == '\'')
            rd_buf_addstr(out, "'\\''");
        else
            rd_buf_addch(out, *v);
    }
    rd_buf_addch(out, '\'');
}

static const struct rd_suite_runtime *config_runtime(const struct rd_suite *s,
                                                     const struct rd_suite_workload *w,
                                                     size_t c)
{
    for (size_t k = 0; k < w->nkeys; k++) {
        if (strcmp(w->keys[k], "runtime") != 0)
            continue;
        const char *v = rd_suite_value(w, c, k);
        for (size_t r = 0; r < s->nruntimes; r++)
            if (strcmp(s->runtimes[r].name, v) == 0)
                return &s->runtimes[r];
    }
    return NULL;
}

static rd_status expand(const struct subst *x, const char *tmpl, const char *what,
                        struct rd_buf *out, struct rd_diag *d);

/* Appends the value of placeholder 'name' (quoted for the shell if asked). */
static rd_status lookup(const struct subst *x, const char *name, const char *what,
                        struct rd_buf *out, struct rd_diag *d)
{
    const struct rd_suite_workload *w = x->w;
    char num[32];
    const char *v = NULL;
    for (size_t k = 0; k < w->nkeys && !v; k++)
        if (strcmp(w->keys[k], name) == 0)
            v = rd_suite_value(w, x->config, k);
    if (!v && strcmp(name, "root") == 0)
        v = x->s->root;
    else if (!v && strcmp(name, "suite") == 0)
        v = x->s->name;
    else if (!v && strcmp(name, "workload") == 0)
        v = w->name;
    else if (!v && strcmp(name, "host") == 0 && w->host)
        v = w->host;
    else if (!v && strcmp(name, "port") == 0 && w->port > 0) {
        snprintf(num, sizeof num, "%d", w->port);
        v = num;
    }
    if (v) {
        if (x->shell)
            sh_quote(out, v);
        else
            rd_buf_addstr(out, v);
        return RD_OK;
    }
    if (strcmp(name, "url") == 0 && w->url && !x->no_url) {
        struct subst y = *x;
        y.no_url = true;
        y.shell = false;
        struct rd_buf u = RD_BUF_INIT;
        rd_status st = expand(&y, w->url, "url", &u, d);
        if (!st) {
            if (x->shell)
                sh_quote(out, u.ptr);
            else
                rd_buf_addstr(out, u.ptr);
        }
        rd_buf_release(&u);
        return st;
    }
    if (strcmp(name, "runtime.cmd") == 0 && x->depth == 0) {
        const struct rd_suite_runtime *rt = config_runtime(x->s, w, x->config);
        if (rt) {
            struct subst y = *x;
            y.depth = 1;
            y.shell = false;
            for (size_t i = 0; i < rt->cmd.n; i++) {
                struct rd_buf e = RD_BUF_INIT;
                rd_status st = expand(&y, rt->cmd.v[i], "runtime cmd", &e, d);
                if (!st) {
                    if (i)
                        rd_buf_addch(out, ' ');
                    if (x->shell)
                        sh_quote(out, e.ptr);
                    else
                        rd_buf_addstr(out, e.ptr);
                }
                rd_buf_release(&e);
                if (st)
                    return st;
            }
            return RD_OK;
        }
    }
    return rd_diag_set(d, RD_ERR_PARSE, x->s->path, 0, 0,
                       "workload '%s': unknown placeholder '{%s}' in %s", w->name, name, what);
}

static rd_status expand(const struct subst *x, const char *tmpl, const char *what,
                        struct rd_buf *out, struct rd_diag *d)
{
    for (const char *p = tmpl; *p;) {
        if (p[0] == '{' && p[1] == '{') {
            rd_buf_addch(out, '{');
            p += 2;
        } else if (p[0] == '}' && p[1] == '}') {
            rd_buf_addch(out, '}');
            p += 2;
        } else if (*p == '{') {
            const char *e = p + 1;
            while (isalnum((unsigned char)*e) || *e == '_' || *e == '-' || *e == '.')
                e++;
            if (*e != '}' || e == p + 1) {
                char ex[64];
                rd_excerpt(p, strlen(p), 20, ex, sizeof ex);
                return rd_diag_set(d, RD_ERR_PARSE, x->s->path, 0, 0,
                                   "workload '%s': expected a placeholder like {name} in %s, "
                                   "got '%s' (write {{ for a literal brace)",
                                   x->w->name, what, ex);
            }
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(e - p - 1), p + 1);
            RD_TRY(lookup(x, name, what, out, d));
            p = e + 1;
        } else {
            rd_buf_addch(out, *p++);
        }
    }
    return RD_OK;
}

const char *rd_suite_value(const struct rd_suite_workload *w, size_t c, size_t k)
{
    return w->configs[c * w->nkeys + k];
}

static const struct rd_strv *field_strv(const struct rd_suite_workload *w,
                                        enum rd_suite_field f, const char **name)
{
    switch (f) {
    case RD_FIELD_COMMAND: *name = "command"; return &w->command;
    case RD_FIELD_SERVER: *name = "server"; return &w->server;
    case RD_FIELD_LOAD: *name = "load"; return &w->load;
    case RD_FIELD_BACKGROUND: *name = "background"; return &w->background;
    }
    *name = "?";
    return NULL;
}

rd_status rd_suite_expand_argv(const struct rd_suite *s, size_t wi, size_t c,
                               enum rd_suite_field f, struct rd_arena *arena, char ***argv,
                               struct rd_diag *d)
{
    const struct rd_suite_workload *w = &s->workloads[wi];
    const char *fname;
    const struct rd_strv *t = field_strv(w, f, &fname);
    *argv = NULL;
    if (!t || !t->n)
        return RD_OK;
    struct subst x = {s, w, c, w->shell, 0, false};
    char what[64];
    if (w->shell) {
        struct rd_buf b = RD_BUF_INIT;
        rd_status st = RD_OK;
        for (size_t i = 0; i < t->n && !st; i++) {
            if (i)
                rd_buf_addch(&b, ' ');
            snprintf(what, sizeof what, "%s", fname);
            st = expand(&x, t->v[i], what, &b, d);
        }
        char **v = st ? NULL : rd_arena_alloc(arena, 4 * sizeof *v);
        if (!st && !v)
            st = RD_ERR_NOMEM;
        if (!st) {
            v[0] = rd_arena_strdup(arena, "/bin/sh");
            v[1] = rd_arena_strdup(arena, "-c");
            v[2] = rd_arena_strdup(arena, b.ptr);
            *argv = v;
        }
        rd_buf_release(&b);
        return st;
    }
    const struct rd_suite_runtime *rt = config_runtime(s, w, c);
    size_t cap = t->n + (rt ? rt->cmd.n : 0) * t->n + 1, n = 0;
    char **v = rd_arena_alloc(arena, cap * sizeof *v);
    if (!v)
        return RD_ERR_NOMEM;
    for (size_t i = 0; i < t->n; i++) {
        snprintf(what, sizeof what, "%s[%zu]", fname, i);
        if (strcmp(t->v[i], "{runtime.cmd}") == 0 && rt) {
            /* The whole element: one argument per element of cmd. */
            struct subst y = x;
            y.depth = 1;
            for (size_t k = 0; k < rt->cmd.n; k++) {
                struct rd_buf b = RD_BUF_INIT;
                rd_status st = expand(&y, rt->cmd.v[k], "runtime cmd", &b, d);
                if (!st)
                    v[n++] = rd_arena_strdup(arena, b.ptr);
                rd_buf_release(&b);
                if (st)
                    return st;
            }
            continue;
        }
        struct rd_buf b = RD_BUF_INIT;
        rd_status st = expand(&x, t->v[i], what, &b, d);
        if (!st)
            v[n++] = rd_arena_strdup(arena, b.ptr);
        rd_buf_release(&b);
        if (st)
            return st;
    }
    v[n] = NULL;
    *argv = v;
    return RD_OK;
}

rd_status rd_suite_expand_string(const struct rd_suite *s, size_t wi, size_t c,
                                 const char *tmpl, const char *what, struct rd_arena *arena,
                                 char **out, struct rd_diag *d)
{
    const struct rd_suite_workload *w = &s->workloads[wi];
    struct subst x = {s, w, c, false, 0, tmpl == w->url};
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = expand(&x, tmpl, what, &b, d);
    *out = st ? NULL : rd_arena_strdup(arena, b.ptr);
    rd_buf_release(&b);
    return st;
}

bool rd_suite_version_template_ok(const char *t, char *bad, size_t size)
{
    for (const char *p = t; *p; p++) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            p++;
            continue;
        }
        if (*p == '{') {
            if (strncmp(p, "{root}", 6) == 0) {
                p += 5;
                continue;
            }
            rd_excerpt(p, strlen(p), 20, bad, size);
            return false;
        }
    }
    return true;
}

struct rd_suite rd_suite_shown(const struct rd_suite *s)
{
    struct rd_suite shown = *s;
    shown.root = ".";
    return shown;
}

char **rd_suite_version_argv(const struct rd_suite *s, const struct rd_strv *v,
                             struct rd_arena *arena)
{
    char **out = rd_arena_alloc(arena, (v->n + 1) * sizeof *out);
    for (size_t i = 0; out && i < v->n; i++) {
        struct rd_buf b = RD_BUF_INIT;
        for (const char *p = v->v[i]; *p;) {
            if (strncmp(p, "{root}", 6) == 0) {
                rd_buf_addstr(&b, s->root);
                p += 6;
            } else if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
                rd_buf_addch(&b, *p);
                p += 2;
            } else {
                rd_buf_addch(&b, *p++);
            }
        }
        out[i] = rd_arena_strdup(arena, b.ptr);
        rd_buf_release(&b);
        out[i + 1] = NULL;
    }
    return out;
}


rd_status rd_suite_config_id(const struct rd_suite_workload *w, size_t c, struct rd_buf *out)
{
    size_t *order = malloc((w->nkeys ? w->nkeys : 1) * sizeof *order);
    if (!order)
        return RD_ERR_NOMEM;
    /* The order a record keeps its labels in (strcmp of the keys); an
     * insertion sort, as a matrix has a handful of keys. */
    for (size_t k = 0; k < w->nkeys; k++) {
        size_t j = k;
        for (; j > 0 && strcmp(w->keys[order[j - 1]], w->keys[k]) > 0; j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    rd_status s = RD_OK;
    for (size_t i = 0; i < w->nkeys && !s; i++) {
        size_t k = order[i];
        if (i)
            s = rd_buf_addch(out, ',');
        if (!s)
            s = rd_buf_addstr(out, w->keys[k]);
        if (!s)
            s = rd_buf_addch(out, '=');
        if (!s)
            s = rd_buf_addstr(out, rd_suite_value(w, c, k));
    }
    free(order);
    return s;
}

static rd_status check_prog(const struct rd_suite *s, const struct rd_suite_workload *w,
                            char **argv, const char *cwd, const char *what, struct rd_diag *d)
{
    char found[PATH_MAX * 2];
    if (!argv || !argv[0] || w->shell)
        return RD_OK;
    const char *prog = argv[0];
    char joined[PATH_MAX * 2];
    if (strchr(prog, '/') && prog[0] != '/' && cwd) {
        /* posix_spawn changes directory before exec: relative to cwd. */
        snprintf(joined, sizeof joined, "%s/%s", cwd, prog);
        prog = joined;
    }
    /* The shipped suites' runtimes are npm packages that `make deps` puts
     * under the workloads' node_modules; `make report` does not. */
    bool npm = strstr(argv[0], "/node_modules/") || strncmp(argv[0], "node_modules/", 13) == 0;
    const char *hint = npm                               ? ": run make deps to install it"
                       : strchr(argv[0], '/')            ? ""
                                                         : " on PATH";
    if (!rd_which(prog, found, sizeof found))
        return rd_diag_set(d, RD_ERR_PARSE, s->path, 0, 0,
                           "workload '%s': program '%s' of %s not found%s", w->name, argv[0],
                           what, hint);
    return RD_OK;
}

rd_status rd_suite_check_system(const struct rd_suite *s, const bool *keep, struct rd_diag *d)
{
    struct rd_arena tmp;
    rd_arena_init(&tmp);
    rd_status st = RD_OK;
    static const char *const names[] = {"command", "server", "load", "background"};
    for (size_t wi = 0; wi < s->nworkloads && !st; wi++) {
        if (keep && !keep[wi])
            continue;
        const struct rd_suite_workload *w = &s->workloads[wi];
        for (size_t c = 0; c < w->nconfigs && !st; c++) {
            char *cwd = NULL;
            st = rd_suite_expand_string(s, wi, c, w->cwd, "cwd", &tmp, &cwd, d);
            for (int f = RD_FIELD_COMMAND; f <= RD_FIELD_BACKGROUND && !st; f++) {
                char **argv;
                st = rd_suite_expand_argv(s, wi, c, (enum rd_suite_field)f, &tmp, &argv, d);
                if (!st)
                    st = check_prog(s, w, argv, cwd, names[f], d);
            }
            if (!st && cwd && access(cwd, X_OK) != 0)
                st = rd_diag_set(d, RD_ERR_PARSE, s->path, 0, 0,
                                 "workload '%s': working folder '%s' does not exist", w->name, cwd);
            rd_arena_reset(&tmp);
        }
        int port_state = !st && w->is_server ? rd_port_check(w->host, w->port) : 0;
        if (port_state) {
            char why[160];
            st = rd_diag_set(d, RD_ERR_IO, s->path, 0, 0, "workload '%s': %s%s", w->name,
                             rd_port_problem(port_state, w->port, why, sizeof why),
                             port_state == RD_PORT_IN_USE
                                 ? " (a server left from an interrupted run?)" : "");
        }
    }
    rd_arena_release(&tmp);
    return st;
}
