/*
 * stage.h - all outputs of one render, committed together.
 *
 * Every output file is first written under a temporary name in the output
 * folder ("report.md.tmp.<pid>.<n>"); only when every back end has
 * succeeded are they renamed into place, one rename each. A render that
 * fails part-way leaves the previous report untouched and removes its
 * temporaries, so nobody ever opens half a report.
 */
#ifndef RD_RENDER_STAGE_H
#define RD_RENDER_STAGE_H

#include <stddef.h>

#include "rundown/status.h"

struct rd_stage_item {
    char *final;   /* dir/rel */
    char *tmp;     /* where the content is until commit */
    const char *rel;  /* points into final */
};

struct rd_stage {
    char *dir;
    struct rd_stage_item *items;
    size_t n, cap;
    unsigned counter;
    char suffix[32];  /* ".tmp.<pid>": the fixed suffix for chart files */
};

/** Starts an empty stage for output folder 'dir' (which must exist). */
rd_status rd_stage_init(struct rd_stage *s, const char *dir);

/**
 * Writes 'data' to a new temporary file for dir/rel and fsyncs it. 'rel'
 * is a name the render composed (sanitised), possibly with one folder
 * ("charts/x.dat"). 'suffix' (may be NULL for a unique one) fixes the
 * temporary name to dir/rel + suffix, for files that other temporaries
 * refer to by name (the chart script and its data). Fails with RD_ERR_IO
 * and a diag naming the file.
 */
rd_status rd_stage_write(struct rd_stage *s, const char *rel, const char *suffix,
                         const void *data, size_t len, struct rd_diag *d);

/**
 * Reserves a temporary path for dir/rel that another writer (libxlsxwriter,
 * gnuplot) fills; *tmp points into the stage. 'suffix' (may be NULL) fixes
 * the temporary name to dir/rel + suffix, for writers told the name in
 * advance.
 */
rd_status rd_stage_reserve(struct rd_stage *s, const char *rel, const char *suffix,
                           const char **tmp);

/** The temporary path holding dir/rel, or NULL when rel was not staged. */
const char *rd_stage_tmp(const struct rd_stage *s, const char *rel);

/** Renames every temporary into place (in staging order), then syncs the
 *  folders. On failure the rest are removed. */
rd_status rd_stage_commit(struct rd_stage *s, struct rd_diag *d);

/** Removes temporaries not committed and frees the stage. */
void rd_stage_release(struct rd_stage *s);

#endif
