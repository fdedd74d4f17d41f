/*
 * serverruns.c - server sessions of `http` (see serverruns.h).
 */
#include "serverruns.h"

#include <stdio.h>

rd_status rd_server_runs(struct rd_session *s, struct rd_session_config *cfg,
                         struct rd_http_spec *spec, long runs, bool fresh_server,
                         struct rd_diag *d)
{
    /* Held for the whole server session: its runs are numbered up front. */
    RD_TRY(rd_session_lock(s, d));
    long first_run = cfg->next_run[RD_PHASE_MEASURE];
    long first_warm = cfg->next_run[RD_PHASE_WARMUP];
    char stem[1024], slug[512], cstem[RD_CONFIG_STEM_PREFIX + 32];
    rd_runner_slug(cfg->tmpl.workload, slug, sizeof slug);
    rd_runner_config_stem(&cfg->tmpl, cfg->id, cstem, sizeof cstem);
    spec->logs.stem = stem;
    struct rd_session_sink sink = {s, cfg};
    long sessions = fresh_server ? runs : 1;
    rd_status st = RD_OK;
    for (long k = 0; k < sessions && !st; k++) {
        snprintf(stem, sizeof stem, "%s/%s-session-%ld", slug, cstem, first_run + k);
        rd_diag_init(d, NULL);
        struct rd_strays strays = {0};
        spec->strays = &strays;
        st = rd_runner_http_session(spec, &cfg->tmpl, first_warm + k * spec->warmups,
                                    first_run + k, fresh_server ? 1 : (int)runs,
                                    rd_session_emit, NULL, &sink, d);
        spec->strays = NULL;
        if (strays.count) {
            char note[600];
            rd_session_note(s, rd_strays_note(&strays, note, sizeof note));
        }
        if (st == RD_ERR_RUN_FAILED)
            st = RD_OK;  /* the failed runs are stored, and were reported */
    }
    /* The numbers are taken whether or not every run came to be stored. */
    cfg->next_run[RD_PHASE_WARMUP] = first_warm + sessions * spec->warmups;
    cfg->next_run[RD_PHASE_MEASURE] = first_run + (fresh_server ? sessions : runs);
    rd_session_unlock(s);
    return st;
}
