/*
 * contract.h - which of rundown's contracts a file is, told by its
 * "schema", so a tool handed the wrong one can say what to do instead of
 * failing to parse it ("out/analysis.json is an analysis: give it to
 * rundown-render").
 */
#ifndef RUNDOWN_CONTRACT_H
#define RUNDOWN_CONTRACT_H

#include "rundown/status.h"

enum rd_contract {
    RD_CONTRACT_UNKNOWN,   /* none of them, unreadable, or standard input */
    RD_CONTRACT_FOLDER,    /* a directory */
    RD_CONTRACT_STORE,     /* run records (rundown.run/1 JSONL) */
    RD_CONTRACT_ENV,       /* rundown.env/1 */
    RD_CONTRACT_SUITE,     /* rundown.suite/1 */
    RD_CONTRACT_ANALYSIS,  /* rundown.analysis/1 */
    RD_CONTRACT_PUBLISHED  /* rundown.published/1 */
};

/**
 * What path is: a folder, or the contract named by the first "schema" in
 * its first 64 KiB. "-" (standard input) is never read: UNKNOWN.
 */
enum rd_contract rd_contract_sniff(const char *path);

/**
 * RD_OK unless path is recognisably another contract than 'want' (a folder
 * or another schema): then RD_ERR_PARSE, d's message beginning with the
 * path and saying what it is and what to do with it (d->path is cleared). A file that is none of them is left to its
 * reader, whose errors are more precise.
 */
rd_status rd_contract_expect(const char *path, enum rd_contract want, struct rd_diag *d);

#endif
