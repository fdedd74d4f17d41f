/*
 * envs.h - the environments the runs name (envs.c): noted as ingest reads
 * the stores, loaded from the stores' folders
 */
#ifndef RUNDOWN_ANALYZE_ENVS_H
#define RUNDOWN_ANALYZE_ENVS_H

#include <stdbool.h>

#include "analysis_int.h"

/** The interned copy of environment id 'env' (*interned), noted with the
 *  folder of the store at 'path' the first time it is named. */
rd_status rd_envs_note(struct rd_analysis *a, const char *env, const char *path,
                       const char **interned);
/** Loads the environments first named by the store just read, in the
 *  order it named them; a file that is no environment object is
 *  RD_ERR_PARSE naming it. */
rd_status rd_envs_load_new(struct rd_analysis *a, struct rd_diag *d);

/** Whether environment 'env' (an id, may be NULL) says its check found the
 *  machine quiet: runs of unknown contention in it are then taken as quiet
 *  (imports with `import --env FILE`, docs/methods.md §6c). */
bool rd_envs_check_quiet(const struct rd_analysis *a, const char *env);

#endif
