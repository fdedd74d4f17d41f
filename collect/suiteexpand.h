/*
 * suiteexpand.h - a parsed suite's templates expanded for one config
 * (suiteexpand.c): placeholders, config ids, version commands, and what
 * the suite needs from this machine
 */
#ifndef RUNDOWN_SUITEEXPAND_H
#define RUNDOWN_SUITEEXPAND_H

#include <stdbool.h>
#include <stddef.h>

#include "suite.h"

/** The label value of config c of workload w for key k. */
const char *rd_suite_value(const struct rd_suite_workload *w, size_t c, size_t k);

/** Which template of a workload to expand. */
enum rd_suite_field { RD_FIELD_COMMAND, RD_FIELD_SERVER, RD_FIELD_LOAD, RD_FIELD_BACKGROUND };

/**
 * Expands one argv template for config c into a NULL-terminated argv in
 * 'arena' (with "shell": /bin/sh -c STRING). RD_ERR_PARSE on a bad
 * placeholder; d says which field and element.
 */
rd_status rd_suite_expand_argv(const struct rd_suite *s, size_t w, size_t c,
                               enum rd_suite_field f, struct rd_arena *arena, char ***argv,
                               struct rd_diag *d);

/** Expands a single string field (url, ready_url, cwd, env value). */
rd_status rd_suite_expand_string(const struct rd_suite *s, size_t w, size_t c,
                                 const char *tmpl, const char *what, struct rd_arena *arena,
                                 char **out, struct rd_diag *d);

/**
 * The suite as records show it: a shallow copy whose {root} is ".", so
 * that commands expanded from it read relative to the root (the folder
 * they run in unless a cwd says otherwise). Valid while s is.
 */
struct rd_suite rd_suite_shown(const struct rd_suite *s);

/**
 * Expands a runtime's or tool's version_cmd: {root} is its only
 * placeholder ({{ and }} are literal braces). NULL-terminated, in arena.
 */
char **rd_suite_version_argv(const struct rd_suite *s, const struct rd_strv *v,
                             struct rd_arena *arena);

/**
 * True when template t of a version_cmd uses no placeholder but {root};
 * otherwise an excerpt from the first other one goes to bad.
 */
bool rd_suite_version_template_ok(const char *t, char *bad, size_t size);

/**
 * Appends the config id of config c of w ("mechanism=worker,runtime=bun"),
 * the same bytes rd_record_config_id() writes for a record with its labels.
 */
rd_status rd_suite_config_id(const struct rd_suite_workload *w, size_t c, struct rd_buf *out);

/**
 * Checks what the suite needs from this machine: every program it would run
 * (commands, servers, load tools, version commands) exists, and no server
 * workload's port is in use. Only workloads with keep[w] true (all when
 * keep is NULL) are checked.
 */
rd_status rd_suite_check_system(const struct rd_suite *s, const bool *keep, struct rd_diag *d);

#endif
