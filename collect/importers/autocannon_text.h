/*
 * autocannon_text.h - autocannon's text report read (autocannon_text.c), for
 * autocannon.c's table entry
 */
#ifndef RUNDOWN_AUTOCANNON_TEXT_H
#define RUNDOWN_AUTOCANNON_TEXT_H

#include "importer.h"

/**
 * Reads the text report (colour codes are dropped first; positions in
 * messages then refer to the uncoloured text) into one record per run.
 */
rd_status rd_autocannon_parse_text(const struct rd_import_input *in, struct rd_recordset *out,
                                   struct rd_diag *d);

#endif
