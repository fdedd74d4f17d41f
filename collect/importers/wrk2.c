/*
 * wrk2 - the importer for giltene/wrk2's text report.
 *
 * wrk2 prints wrk's report (same format strings) plus thread calibration
 * lines and HdrHistogram blocks, so the parsing is wrk.c's family parser;
 * this file only decides when input is wrk2's rather than wrk's. wrk2 is
 * listed before wrk in the importer table, and claims a wrk-shaped input
 * only when it shows something wrk never prints.
 */
#include "wrkfamily.h"

static int detect_wrk2(const struct rd_import_input *in)
{
    int wrk2;
    int score = rd_wrk_family_detect(in, &wrk2);
    if (!wrk2)
        return score > 30 ? 30 : score;
    return score >= 60 ? 95 : score;
}

static rd_status parse_wrk2(const struct rd_import_input *in, struct rd_recordset *out,
                            struct rd_diag *d)
{
    return rd_wrk_family_parse(in, RD_WRK2, out, d);
}

static const char *const version_argv[] = { "wrk2", "-v", NULL };

const struct rd_importer rd_importer_wrk2 = {
    .name = "wrk2",
    .description = "wrk2 text report (calibration, HdrHistogram blocks, -U uncorrected)",
    .version_argv = version_argv,
    .load = true,
    .detect = detect_wrk2,
    .parse = parse_wrk2,
};
