/*
 * timedruns.c - interleaved timed runs of commands (see timedruns.h).
 */
#include "timedruns.h"

#include <stdio.h>
#include <string.h>

#include "runner.h"

/* "<workload>/<config stem>-<run>" (runner.h) as a log stem. */
static void log_stem(const struct rd_session_config *cfg, const struct rd_record *r,
                     char *out, size_t size)
{
    char slug[512], stem[RD_CONFIG_STEM_PREFIX + 32];
    rd_runner_slug(r->workload, slug, sizeof slug);
    rd_runner_config_stem(&cfg->tmpl, cfg->id, stem, sizeof stem);
    snprintf(out, size, "%s/%s-%s%ld", slug, stem,
             strcmp(r->phase, "warmup") == 0 ? "warmup-" : "", r->run);
}

/* One run of command c: numbered, reported, run, stored. */
static rd_status timed_run(struct rd_session *s, const struct rd_timed_spec *spec,
                           const struct rd_timed_command *c, enum rd_phase phase,
                           size_t step, struct rd_diag *d)
{
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    /* The store is held from numbering to storing, so no other writer
     * takes the number or the log names meanwhile. */
    rd_status st = r ? rd_session_lock(s, d) : RD_ERR_NOMEM;
    if (!st)
        st = rd_session_begin_run(s, c->config, phase, 0, r);
    if (!st) {
        char stem[1024];
        log_stem(c->config, r, stem, sizeof stem);
        rd_session_starting(s, step, c->config, r);
        struct rd_command_spec cs = {
            .argv = c->argv, .cpus = spec->cpus, .timeout_s = spec->timeout_s,
            .prepare = spec->prepare, .cleanup = spec->cleanup,
            .logs = {.dir = spec->log_dir, .stem = stem},
        };
        rd_diag_init(d, NULL);
        st = rd_runner_command(&cs, r, d);
    }
    if (!st)
        st = rd_session_store(s, c->config, r, d);
    rd_session_unlock(s);
    rd_recordset_release(&set);
    return st;
}

rd_status rd_timed_runs(struct rd_session *s, const struct rd_timed_spec *spec,
                        struct rd_diag *d)
{
    long rounds = spec->warmups + spec->runs;
    size_t step = 0;
    rd_session_plan_steps(s, (size_t)rounds * spec->ncmds);
    for (long round = 0; round < rounds; round++) {
        enum rd_phase phase = round < spec->warmups ? RD_PHASE_WARMUP : RD_PHASE_MEASURE;
        for (size_t k = 0; k < spec->ncmds; k++)
            RD_TRY(timed_run(s, spec, &spec->cmds[k], phase, step++, d));
    }
    return RD_OK;
}
