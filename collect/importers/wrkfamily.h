/*
 * wrkfamily.h - the report parser shared by the wrk and wrk2 importers
 * (wrk.c; the numbers of a done() script's JSON are wrkdone.h).
 *
 * wrk2 prints every line wrk prints (the same format strings), plus thread
 * calibration lines and HdrHistogram blocks. One parser reads both, so a fix
 * to the common part cannot reach one importer and miss the other.
 */
#ifndef RUNDOWN_WRKFAMILY_H
#define RUNDOWN_WRKFAMILY_H

#include "importer.h"

enum rd_wrk_flavour { RD_WRK, RD_WRK2 };

/**
 * Appends one record per report ("Running ... test @ URL" up to
 * "Transfer/sec:" and any script output after it) found in 'in', with tool
 * set to "wrk" or "wrk2". Lines before the first report are ignored (a shell
 * prompt, `wrk -v`, Lua init() output). On malformed or truncated input
 * fills d with path:line:col and returns RD_ERR_PARSE.
 */
rd_status rd_wrk_family_parse(const struct rd_import_input *in, enum rd_wrk_flavour fl,
                              struct rd_recordset *out, struct rd_diag *d);

/**
 * Scores how much 'in' looks like a wrk-family report, and sets *wrk2_marks
 * when something only wrk2 prints was seen (calibration lines, HdrHistogram
 * blocks, a NaN mean that wrk's guards make impossible). 0..100.
 */
int rd_wrk_family_detect(const struct rd_import_input *in, int *wrk2_marks);

#endif
