/*
 * import - `rundown-collect import`: reads load-tool and hyperfine outputs
 * into run records and appends them to a store (or prints them).
 *
 * All files of one call are parsed, numbered and checked for runs the store
 * already holds (by the digest of their bytes, digests.h) before anything is
 * written, so a bad file or a run imported twice leaves the store exactly as
 * it was. The store's lock (store.h) is held from reading its run numbers
 * and digests to the append, so an import during a suite or a run never
 * takes a number another writer took.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "optable.h"
#include "digests.h"
#include "envinfo.h"
#include "importer.h"
#include "labels.h"
#include "runindex.h"
#include "rundown/array.h"
#include "rundown/cli.h"
#include "rundown/fsutil.h"
#include "rundown/store.h"
#include "rundown/strmap.h"

/* Tool outputs are small; this cap only stops a runaway input. */
#define IMPORT_MAX_BYTES ((size_t)1 << 30)

struct import_opts {
    const char *tool, *workload, *suite, *env, *phase, *output;
    long first_run;
    int verbose;
    bool allow_duplicate, quiet;
    struct rd_label_args labels;
    char envid[64];     /* -e resolved; "" without -e */
};

/* The input's name as records keep it: relative to the store's folder, so
 * that a store moved with its inputs still points at them. */
static rd_status source_name(const struct import_opts *o, const char *path, struct rd_buf *out,
                             struct rd_diag *d)
{
    if (strcmp(path, "-") == 0)
        return rd_buf_addstr(out, "<stdin>");
    if (!o->output || strcmp(o->output, "-") == 0)
        return rd_buf_addstr(out, path);
    char dir[4096];
    rd_path_dirname(o->output, dir, sizeof dir);
    return rd_path_relative(path, dir, out, d);
}

/* Reads, normalises and parses one file into set. */
static rd_status import_file(const struct import_opts *o, const char *path,
                             struct rd_recordset *set, struct rd_diag *d)
{
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    struct rd_buf raw = RD_BUF_INIT;
    struct rd_import_input in;
    rd_status s = rd_read_file(path, IMPORT_MAX_BYTES, &raw, d);
    if (!s)
        s = rd_import_normalise(&raw, name, &in, d);
    if (s) {
        rd_buf_release(&raw);
        return s;
    }
    const struct rd_importer *imp;
    if (o->tool) {
        imp = rd_importer_find(o->tool);
        /* -t must not read another tool's output as its own: wrk2's
         * parser takes a wrk report and stores it as wrk2. */
        struct rd_diag quiet;
        rd_diag_init(&quiet, name);
        const struct rd_importer *seen = rd_importer_detect(&in, &quiet);
        if (seen && seen != imp && seen->detect(&in) > imp->detect(&in)) {
            rd_buf_release(&raw);
            return rd_diag_set(d, RD_ERR_PARSE, name, 1, 1,
                               "expected output of %s (-t %s), but this reads as %s: drop -t, "
                               "or give -t %s", imp->name, imp->name, seen->description,
                               seen->name);
        }
    } else {
        imp = rd_importer_detect(&in, d);
        if (imp && o->verbose)
            rd_note("%s: detected %s (%s)", name, imp->name, imp->description);
    }
    if (!imp) {
        rd_buf_release(&raw);
        return RD_ERR_PARSE;
    }
    size_t before = set->len;
    rd_diag_init(d, name);
    s = imp->parse(&in, set, d);
    if (!s && set->len == before)
        s = rd_diag_set(d, RD_ERR_PARSE, name, 1, 1, "expected at least one run of %s",
                        imp->name);
    struct rd_buf shown = RD_BUF_INIT;
    if (!s)
        s = source_name(o, path, &shown, d);
    for (size_t i = before; i < set->len && !s; i++) {
        struct rd_record *r = &set->items[i];
        if (!r->tool)
            s = rd_record_set(r, &r->tool, imp->name);
        if (!s)
            s = rd_record_set_source(r, "file", shown.ptr);
        if (!s && !o->envid[0])
            s = rd_record_set_info(r, "env_unknown", "imported without -e: the machine and "
                                   "the versions are not recorded");
    }
    if (!s)
        s = rd_digests_set(&in, set, before);
    rd_buf_release(&shown);
    rd_buf_release(&raw);
    return s;
}

/* Applies the command-line facts to every record. */
static rd_status apply_facts(const struct import_opts *o, struct rd_recordset *set,
                             struct rd_diag *d)
{
    rd_status s = RD_OK;
    for (size_t i = 0; i < set->len && !s; i++) {
        struct rd_record *r = &set->items[i];
        if (o->workload)
            s = rd_record_set(r, &r->workload, o->workload);
        if (!s && o->suite)
            s = rd_record_set(r, &r->suite, o->suite);
        if (!s && o->envid[0])
            s = rd_record_set(r, &r->env, o->envid);
        if (!s && o->phase)
            s = rd_record_set(r, &r->phase, o->phase);
        for (size_t k = 0; k < o->labels.len && !s; k++)
            s = rd_record_set_label(r, o->labels.keys[k], o->labels.values[k]);
        if (!s && !r->workload) {
            s = rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                            "a run needs a workload name: give -w WORKLOAD");
            d->path = NULL;
        }
        /* Refused before the store is touched (the append checks again). */
        if (!s)
            s = rd_record_validate(r, d);
    }
    return s;
}

/* Numbers the runs: from -r, or after those in the store (read under its
 * lock, which the caller holds). */
static rd_status number_runs(const struct import_opts *o, struct rd_recordset *set,
                             struct rd_diag *d)
{
    struct rd_run_index ix;
    rd_run_index_init(&ix);
    rd_status s = RD_OK;
    if (o->output && strcmp(o->output, "-") != 0 && o->first_run <= 0)
        s = rd_run_index_load(&ix, o->output, d);
    for (size_t i = 0; i < set->len && !s; i++) {
        struct rd_record *r = &set->items[i];
        if (o->first_run > 0)
            r->run = o->first_run + (long)i;
        else
            r->run = rd_run_index_max(&ix, r) + 1;
        s = rd_run_index_add(&ix, r);
    }
    rd_run_index_release(&ix);
    return s;
}

/*
 * Refuses a run whose digest the store (or an earlier file of this call)
 * holds, naming both places, unless --allow-duplicate: the same output
 * imported twice would count one run twice.
 */
static rd_status check_duplicates(const struct import_opts *o, const struct rd_recordset *set,
                                  const char *const *given, struct rd_diag *d)
{
    struct rd_digest_index ix;
    rd_digest_index_init(&ix);
    rd_status s = RD_OK;
    if (o->output && strcmp(o->output, "-") != 0)
        s = rd_digest_index_load(&ix, o->output, d);
    for (size_t i = 0; i < set->len && !s; i++) {
        const struct rd_record *r = &set->items[i];
        const char *where = rd_digest_index_find(&ix, rd_record_digest(r));
        if (where && !o->allow_duplicate) {
            s = rd_diag_set(d, RD_ERR_PARSE, given[i], r->source_line, 0,
                            "this run is already in %s; give --allow-duplicate to import "
                            "it again", where);
        } else if (!where) {
            s = rd_digest_index_note(&ix, r, "this import");
        }
    }
    rd_digest_index_release(&ix);
    return s;
}

/* "imported 5 runs of wrk from FILE into WORKLOAD (configs: a, b)" on
 * stderr for the runs [from, to) of one file: what a success did. */
static void say_imported(const struct rd_recordset *set, size_t from, size_t to,
                         const char *file)
{
    if (from == to) {
        rd_note("imported no run from %s", file);
        return;
    }
    const struct rd_record *r0 = &set->items[from];
    struct rd_buf configs = RD_BUF_INIT, id = RD_BUF_INIT;
    struct rd_strmap seen;
    rd_strmap_init(&seen);
    size_t nconfigs = 0;
    for (size_t i = from; i < to; i++) {
        rd_buf_reset(&id);
        int64_t *count;
        int added = 0;
        if (rd_record_config_id(&set->items[i], &id) ||
            rd_strmap_slotn(&seen, id.ptr, id.len, 0, &count, &added))
            break;
        if (added && nconfigs++ < 8)
            rd_buf_addf(&configs, "%s%.*s", nconfigs > 1 ? ", " : "",
                        id.len ? (int)id.len : 9, id.len ? id.ptr : "no labels");
    }
    rd_strmap_release(&seen);
    if (nconfigs > 8)
        rd_buf_addf(&configs, ", and %zu more", nconfigs - 8);
    rd_note("imported %zu run%s of %s from %s into %s (configs: %s)", to - from,
            to - from == 1 ? "" : "s", r0->tool ? r0->tool : "?", file, r0->workload,
            configs.len ? configs.ptr : "?");
    rd_buf_release(&configs);
    rd_buf_release(&id);
}

/* The options into o, and *next the first FILE: -1 to go on, else the
 * exit code (--help, a usage error, already printed). */
static int import_options(struct import_opts *o, int argc, char **argv, int *next)
{
    int c;
    struct rd_opts p;
    rd_opts_begin(&p, &rd_collect_spec_import, argc, argv);
    while ((c = rd_opts_next(&p)) >= 0) {
        char *arg = rd_opts_arg(&p);
        switch (c) {
        case 't':
            if (!rd_importer_find(arg))
                return rd_usage_error("unknown tool '%s' (--help lists the formats)", arg);
            o->tool = arg;
            break;
        case 'v': o->verbose = 1; break;
        case 'w': o->workload = arg; break;
        case 'l':
            if (rd_label_args_add(&o->labels, arg) != RD_OK)
                return rd_usage_error("expected -l KEY=VALUE with a KEY of letters, digits, "
                                      "'_', '-' or '.', got '%s'", arg);
            break;
        case 's': o->suite = arg; break;
        case 'e': o->env = arg; break;
        case CO_PHASE:
            if (strcmp(arg, "measure") && strcmp(arg, "warmup"))
                return rd_usage_error("expected --phase measure or warmup, got '%s'", arg);
            o->phase = arg;
            break;
        case 'r': {
            char *end;
            o->first_run = strtol(arg, &end, 10);
            if (*end || o->first_run <= 0)
                return rd_usage_error("expected -r with a run number >= 1, got '%s'", arg);
            break;
        }
        case 'o': o->output = arg; break;
        case CO_ALLOW_DUP: o->allow_duplicate = true; break;
        case 'q': o->quiet = true; break;
        }
    }
    if (c == RD_OPTS_EXIT)
        return rd_opts_exit_code(&p);
    *next = rd_opts_index(&p);
    if (*next >= argc)
        return rd_usage_error("import needs at least one FILE ('-' for standard input)");
    return -1;
}

/* Reads argv[next..] and stores their runs together (all or none). */
static int import_files(struct import_opts *o, int argc, char **argv, int next)
{
    struct rd_recordset set;
    struct rd_diag d;
    rd_recordset_init(&set);
    rd_diag_init(&d, NULL);
    rd_status s = o->env ? rd_env_resolve(o->env, o->output, o->envid, sizeof o->envid, &d) : RD_OK;
    /* given[i]: the input of run i as the command line named it. */
    const char **given = NULL;
    size_t ngiven = 0, gcap = 0;
    size_t *ends = calloc((size_t)argc, sizeof *ends);   /* set.len after argv[i] */
    if (!ends)
        s = RD_ERR_NOMEM;
    for (int i = next; i < argc && !s; i++) {
        s = import_file(o, argv[i], &set, &d);
        ends[i] = set.len;
        if (!s && RD_ARRAY_GROW(given, gcap, set.len))
            s = RD_ERR_NOMEM;
        while (!s && ngiven < set.len)
            given[ngiven++] = strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i];
    }
    bool to_file = o->output && strcmp(o->output, "-") != 0;
    struct rd_store_lock lock;
    rd_store_lock_init(&lock);
    if (!s)
        s = apply_facts(o, &set, &d);
    if (!s && to_file)
        s = rd_store_lock(&lock, o->output, RD_LOCK_WAIT, NULL, &d);
    if (!s)
        s = number_runs(o, &set, &d);
    if (!s)
        s = check_duplicates(o, &set, given, &d);
    free(given);
    if (!s && to_file) {
        struct rd_buf lines = RD_BUF_INIT;
        s = rd_store_format(set.items, set.len, &lines, &d);
        if (!s)
            s = rd_store_lock_append(&lock, lines.ptr, lines.len, NULL, &d);
        rd_buf_release(&lines);
    } else if (!s) {
        s = rd_store_append("-", &set, &d);
    }
    rd_store_unlock(&lock);
    int rc = s ? rd_fail(s, &d) : RD_EXIT_OK;
    for (int i = next; i < argc && !s && !o->quiet; i++)
        say_imported(&set, i > next ? ends[i - 1] : 0, ends[i], argv[i]);
    free(ends);
    rd_recordset_release(&set);
    return rc;
}

int rd_cmd_import(int argc, char **argv)
{
    struct import_opts o = {0};
    rd_label_args_init(&o.labels);
    int next = argc, rc = import_options(&o, argc, argv, &next);
    return rc >= 0 ? rc : import_files(&o, argc, argv, next);
}
