/*
 * serverruns.c - server sessions of `http` (see serverruns.h).
 */
#include "serverruns.h"

#include <stdio.h>
#include <string.h>

/* The session's sink, counting the contended measured runs it stores. */
struct counting_sink {
    struct rd_session_sink sink;
    long contended;
};

static rd_status emit_counted(void *ctx, const struct rd_record *rec, struct rd_diag *d)
{
    struct counting_sink *c = ctx;
    if (rec->contended && rec->phase && strcmp(rec->phase, "measure") == 0)
        c->contended++;
    return rd_session_emit(&c->sink, rec, d);
}

/* 'runs' measured runs in one server session, or with fresh_server one
 * session per run; *contended gains those that came out contended. */
static rd_status sessions(struct rd_session *s, struct rd_session_config *cfg,
                          struct rd_http_spec *spec, long runs, bool fresh_server,
                          long *contended, struct rd_diag *d)
{
    /* No wait for a quiet machine holds the store's lock, so a writer
     * waiting up to --contention-wait does not keep the others from
     * appending: the first comes before the lock, and the runner lets the
     * lock go for each wait before a load run (rd_session_lend). */
    if (spec->guard)
        RD_TRY(rd_guard_wait(spec->guard, "next server session", d));
    spec->around_wait = spec->guard ? rd_session_lend : NULL;
    spec->around_ctx = s;
    /* Held for the whole server session: its runs are numbered up front. */
    RD_TRY(rd_session_lock(s, d));
    long first_run = cfg->next_run[RD_PHASE_MEASURE];
    long first_warm = cfg->next_run[RD_PHASE_WARMUP];
    char stem[1024], slug[512], cstem[RD_CONFIG_STEM_PREFIX + 32];
    rd_runner_slug(cfg->tmpl.workload, slug, sizeof slug);
    rd_runner_config_stem(&cfg->tmpl, cfg->id, cstem, sizeof cstem);
    spec->logs.stem = stem;
    struct counting_sink sink = {{s, cfg}, 0};
    long n = fresh_server ? runs : 1;
    rd_status st = RD_OK;
    for (long k = 0; k < n && !st; k++) {
        snprintf(stem, sizeof stem, "%s/%s-session-%ld", slug, cstem, first_run + k);
        rd_diag_init(d, NULL);
        struct rd_strays strays = {0};
        spec->strays = &strays;
        st = rd_runner_http_session(spec, &cfg->tmpl, first_warm + k * spec->warmups,
                                    first_run + k, fresh_server ? 1 : (int)runs,
                                    emit_counted, NULL, &sink, d);
        spec->strays = NULL;
        if (strays.count) {
            char note[600];
            rd_session_note(s, rd_strays_note(&strays, note, sizeof note));
        }
        if (st == RD_ERR_RUN_FAILED)
            st = RD_OK;  /* the failed runs are stored, and were reported */
    }
    /* The numbers are taken whether or not every run came to be stored. */
    cfg->next_run[RD_PHASE_WARMUP] = first_warm + n * spec->warmups;
    cfg->next_run[RD_PHASE_MEASURE] = first_run + (fresh_server ? n : runs);
    rd_session_unlock(s);
    *contended += sink.contended;
    return st;
}

rd_status rd_server_runs(struct rd_session *s, struct rd_session_config *cfg,
                         struct rd_http_spec *spec, long runs, bool fresh_server,
                         struct rd_redos *redos, struct rd_diag *d)
{
    long owed = 0;
    *redos = (struct rd_redos){0, false};
    rd_status st = sessions(s, cfg, spec, runs, fresh_server, &owed, d);
    /* As run does: a contended measured run is made again, in one more
     * session for all of them, until none is owed or the redos reach the
     * cap of as many as the runs asked for. */
    while (!st && owed > 0) {
        long now = owed;
        if (now > runs - redos->redone) {
            now = runs - redos->redone;
            redos->capped = true;
        }
        if (now <= 0)
            break;
        owed = 0;
        redos->redone += now;
        st = sessions(s, cfg, spec, now, fresh_server, &owed, d);
    }
    return st;
}
