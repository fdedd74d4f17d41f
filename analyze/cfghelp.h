/*
 * cfghelp.h - helpers on configs and directions (cfghelp.c), apart from the
 * driver, workload.c, which compare.c, recommend.c and warnings.c call
 */
#ifndef RUNDOWN_ANALYZE_CFGHELP_H
#define RUNDOWN_ANALYZE_CFGHELP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis_int.h"
#include "rundown/metrics.h"

struct wctx;

/** Does some config of the workload hold metric id (-1: no)? */
bool rd_wctx_has_metric(const struct wctx *x, int64_t id);
/** Is mean u better than mean v under direction b? A NaN is never better. */
bool rd_better_than(double u, double v, enum rd_better b);
/** Does c carry the --baseline label? */
bool rd_cfg_is_baseline(const struct rd_analysis *a, const struct cfg *c);
/** "bun / worker / workers=4": c's name as the report gives it
 *  (rd_fmt_config_name: runtime, mechanism, then the other keys; a number
 *  with its key), "(no labels)" without labels; cut to fit 'size'. */
void rd_cfg_display_name(const struct cfg *c, char *out, size_t size);

#endif
