/*
 * timedruns.c - interleaved timed runs of commands (see timedruns.h).
 */
#include "timedruns.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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
                           size_t step, bool *contended, struct rd_diag *d)
{
    struct rd_recordset set;
    rd_recordset_init(&set);
    struct rd_record *r = rd_recordset_add(&set);
    *contended = false;
    rd_status st = r ? RD_OK : RD_ERR_NOMEM;
    /* The wait for a quiet machine comes before the store's lock: a writer
     * that waits up to --contention-wait must not keep the others from
     * appending meanwhile. The run's number is not known yet (another
     * writer may take the next one while this one waits). */
    if (!st && spec->guard)
        st = rd_guard_wait(spec->guard, phase == RD_PHASE_WARMUP ? "next warmup run"
                                                                 : "next measure run", d);
    /* The store is held from numbering to storing, so no other writer
     * takes the number or the log names meanwhile. */
    if (!st)
        st = rd_session_lock(s, d);
    /* --resume counts again under the lock: another writer topping up the
     * same store may have stored the runs this one planned. */
    if (!st && spec->top_up && phase == RD_PHASE_MEASURE &&
        rd_session_config_count(s, c->config, RD_PHASE_MEASURE) >= spec->runs) {
        rd_session_unlock(s);
        rd_recordset_release(&set);
        return RD_OK;
    }
    if (!st)
        st = rd_session_begin_run(s, c->config, phase, 0, r);
    if (!st)
        rd_session_starting(s, step, c->config, r);
    if (!st) {
        char stem[1024];
        log_stem(c->config, r, stem, sizeof stem);
        struct rd_command_spec cs = {
            .argv = c->argv, .cpus = spec->cpus, .timeout_s = spec->timeout_s,
            .sample_ms = spec->sample_ms,
            .prepare = spec->prepare, .cleanup = spec->cleanup,
            .logs = {.dir = spec->log_dir, .stem = stem, .shown = spec->log_shown},
            .guard = spec->guard, .show_output = spec->show_output,
        };
        rd_diag_init(d, NULL);
        st = rd_runner_command(&cs, r, d);
        /* hyperfine's -i: the exit code is kept, the run counts. A run that
         * timed out or never started (127) still fails. */
        if (!st && spec->ignore_failure && strcmp(r->status, "failed") == 0 &&
            r->has_exit_code && r->exit_code > 0 && r->exit_code != 127)
            st = rd_record_set(r, &r->status, "ok");
        *contended = r->contended;
    }
    if (!st)
        st = rd_session_store(s, c->config, r, d);
    rd_session_unlock(s);
    rd_recordset_release(&set);
    return st;
}

/* The measured runs command k still needs. */
static long runs_to_do(const struct rd_session *s, const struct rd_timed_spec *spec, size_t k)
{
    if (!spec->top_up)
        return spec->runs;
    long have = rd_session_config_count(s, spec->cmds[k].config, RD_PHASE_MEASURE);
    return have < spec->runs ? spec->runs - have : 0;
}

rd_status rd_timed_runs(struct rd_session *s, struct rd_timed_spec *spec,
                        struct rd_diag *d)
{
    /* Planned once, before any run adds to the store; timed_run counts
     * again before each measured run of --resume. */
    long *todo = calloc(2 * (spec->ncmds + 1), sizeof *todo), most = 0;
    if (!todo)
        return RD_ERR_NOMEM;
    long *redos = todo + spec->ncmds + 1; /* owed, then done, per command */
    size_t steps = 0, step = 0;
    for (size_t k = 0; k < spec->ncmds; k++) {
        todo[k] = runs_to_do(s, spec, k);
        most = todo[k] > most ? todo[k] : most;
        steps += (size_t)(todo[k] + (todo[k] ? spec->warmups : 0));
    }
    rd_session_plan_steps(s, steps);
    rd_status st = RD_OK;
    long owed = 0;
    spec->redone = spec->capped = 0;
    for (long round = 0; round < spec->warmups + most && !st; round++) {
        bool warm = round < spec->warmups;
        enum rd_phase phase = warm ? RD_PHASE_WARMUP : RD_PHASE_MEASURE;
        for (size_t k = 0; k < spec->ncmds && !st; k++) {
            bool contended;
            if (todo[k] > (warm ? 0 : round - spec->warmups)) {
                st = timed_run(s, spec, &spec->cmds[k], phase, step++, &contended, d);
                if (!st && !warm && contended)
                    redos[k]++, owed++;
            }
        }
    }
    /* The redos: one per contended measured run, the cap counted over
     * the redos themselves coming out contended too. */
    long *done = calloc(spec->ncmds + 1, sizeof *done);
    if (!done)
        st = st ? st : RD_ERR_NOMEM;
    while (!st && owed > 0) {
        steps += (size_t)owed;
        rd_session_plan_steps(s, steps);
        owed = 0;
        for (size_t k = 0; k < spec->ncmds && !st; k++) {
            long now = redos[k];
            redos[k] = 0;
            for (long i = 0; i < now && !st; i++) {
                if (done[k] >= spec->runs) {
                    spec->capped++;
                    break;
                }
                bool contended;
                done[k]++;
                spec->redone++;
                st = timed_run(s, spec, &spec->cmds[k], RD_PHASE_MEASURE, step++, &contended, d);
                if (!st && contended)
                    redos[k]++, owed++;
            }
        }
    }
    free(done);
    free(todo);
    return st;
}
