/*
 * stage.h - all outputs of one render, committed together.
 *
 * Every output file is first written into a fresh staging folder inside
 * the output folder ("DIR/.rundown-stage.XXXXXX/report.md", ".../charts/
 * x.svg"). Only when every back end has succeeded does the commit move the
 * report's entries (report.md, report.html, report.xlsx and the whole
 * charts/ folder) into place, each by one rename that swaps it with the
 * previous version (renameat2 RENAME_EXCHANGE), so the staging folder then
 * holds the previous report and is removed.
 *
 * The rule for a failure part-way (docs/render.md): a rename that fails
 * makes the commit undo the renames it already made, in reverse order, so
 * the output folder holds the previous report exactly as it was. Only if an
 * undo fails too (the file system refusing a rename it just made) is the
 * staging folder kept, renamed to DIR/rundown-previous.<pid>, and the
 * message names what it holds. SIGINT, SIGTERM and SIGHUP wait until the
 * commit is done; before it, they remove the staging folder (fsutil.h's
 * signal cleanup), and a staging folder left by a killed render (SIGKILL,
 * a crash) is removed by the next render into the same folder. A render
 * killed during its commit leaves some entries new and some old, and its
 * staging folder with a journal of the commit: the next render into the
 * folder finishes that commit first (the killed render's report whole),
 * then removes the folder.
 */
#ifndef RD_RENDER_STAGE_H
#define RD_RENDER_STAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

struct rd_stage_item {
    char *rel;     /* the name under the output folder ("charts/x.dat") */
    char *tmp;     /* where it is written: the staging folder + rel */
};

struct rd_stage {
    char *dir;     /* the output folder */
    char *path;    /* the staging folder, dir/.rundown-stage.XXXXXX */
    int lock_fd;   /* the staging folder, locked while this render lives */
    int cleanup;   /* its rd_cleanup entry */
    struct rd_stage_item *items;
    size_t n, cap;
    char **retired; /* entries of the output folder the commit removes */
    size_t nretired, rcap;
};

/**
 * Creates the staging folder in 'dir' (which must exist), first removing
 * those of renders that are no longer running. RD_ERR_IO with a message
 * naming the folder when it cannot be created.
 */
rd_status rd_stage_init(struct rd_stage *s, const char *dir, struct rd_diag *d);

/** Whether this render staged 'name' ("report.md") or anything under
 *  the folder 'name' ("charts"). */
bool rd_stage_has(const struct rd_stage *s, const char *name);

/**
 * Marks the entry 'name' of the output folder (a file or a folder this
 * render does not stage) to be removed by the commit, with the other
 * entries: it is moved into the staging folder (and so removed with it),
 * and put back when the commit is undone. An entry missing at the commit
 * is skipped. RD_ERR_NOMEM only.
 */
rd_status rd_stage_retire(struct rd_stage *s, const char *name);

/**
 * Writes 'data' to the staged file for dir/rel and fsyncs it. 'rel' is a
 * name the render composed (sanitised), possibly with one folder
 * ("charts/x.dat"), which is created in the staging folder. Fails with
 * RD_ERR_IO and a diag naming the file.
 */
rd_status rd_stage_write(struct rd_stage *s, const char *rel, const void *data, size_t len,
                         struct rd_diag *d);

/**
 * Reserves the staged path for dir/rel that another writer (libxlsxwriter,
 * gnuplot) fills; *tmp points into the stage.
 */
rd_status rd_stage_reserve(struct rd_stage *s, const char *rel, const char **tmp,
                           struct rd_diag *d);

/** The staged path holding dir/rel, or NULL when rel was not staged. */
const char *rd_stage_tmp(const struct rd_stage *s, const char *rel);

/**
 * Moves every staged entry into place as described above, then syncs the
 * folders and removes the previous versions. On failure the previous
 * report is back in place (or, if that failed too, kept and named in the
 * message); the new files are removed by rd_stage_release.
 */
rd_status rd_stage_commit(struct rd_stage *s, struct rd_diag *d);

/** Removes the staging folder (unless a failed undo keeps it) and frees the stage. */
void rd_stage_release(struct rd_stage *s);

/** One entry of a commit's journal: what a commit moves, written into the
 *  staging folder before its first rename, so that the next render into
 *  the folder can finish a commit killed part-way (stage.c). */
struct rd_stage_journal_entry {
    bool retire;                 /* moved out of the output folder */
    unsigned long long dev, ino; /* the new version's identity (not for retire) */
    char *name;                  /* one name in the output folder, no '/' */
};

/**
 * Reads a journal ("rundown-stage-commit 1", then one line per entry:
 * "swap DEVICE INODE NAME" or "retire NAME", each ending in a newline).
 * RD_ERR_PARSE with the line and what was expected; RD_ERR_NOMEM.
 */
rd_status rd_stage_journal_parse(const char *text, size_t len,
                                 struct rd_stage_journal_entry **out, size_t *n,
                                 struct rd_diag *d);

void rd_stage_journal_free(struct rd_stage_journal_entry *es, size_t n);

/** The name prefix of staging folders, for tests and documentation. */
#define RD_STAGE_PREFIX ".rundown-stage."

#endif
