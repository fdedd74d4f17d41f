/*
 * session.c - one collection session (see session.h).
 *
 * Every run is appended the moment it ends (rd_store_append_one fsyncs), so
 * an interrupt loses at most the run in flight; the index is updated only
 * once the record is in the store, so what the session says it holds is
 * what a reader of the store finds.
 */
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runner.h"
#include "rundown/array.h"
#include "rundown/store.h"

void rd_run_facts_init(struct rd_run_facts *f)
{
    memset(f, 0, sizeof *f);
    rd_label_args_init(&f->labels);
    rd_label_args_init(&f->better);
}

rd_status rd_run_facts_apply(const struct rd_run_facts *f, struct rd_record *r)
{
    if (f->workload)
        RD_TRY(rd_record_set(r, &r->workload, f->workload));
    if (f->suite)
        RD_TRY(rd_record_set(r, &r->suite, f->suite));
    if (f->env && f->env[0])
        RD_TRY(rd_record_set(r, &r->env, f->env));
    if (f->phase)
        RD_TRY(rd_record_set(r, &r->phase, f->phase));
    for (size_t k = 0; k < f->labels.len; k++)
        RD_TRY(rd_record_set_label(r, f->labels.keys[k], f->labels.values[k]));
    if (f->better.len == 0)
        return RD_OK;
    struct rd_buf b = RD_BUF_INIT;
    rd_status st = rd_better_args_format(&f->better, &b);
    if (!st)
        st = rd_record_set_info(r, "metric_better", b.ptr);
    rd_buf_release(&b);
    return st;
}

const char *rd_phase_name(enum rd_phase phase)
{
    return phase == RD_PHASE_WARMUP ? "warmup" : "measure";
}

static enum rd_phase phase_of(const struct rd_record *r)
{
    return r->phase && strcmp(r->phase, "warmup") == 0 ? RD_PHASE_WARMUP : RD_PHASE_MEASURE;
}

void rd_session_init(struct rd_session *s, const char *store)
{
    memset(s, 0, sizeof *s);
    s->store = store ? store : "-";
    s->to_file = strcmp(s->store, "-") != 0;
    rd_run_index_init(&s->ix);
    rd_arena_init(&s->arena);
    rd_recordset_init(&s->kept);
    rd_store_lock_init(&s->lock);
}

void rd_session_release(struct rd_session *s)
{
    rd_session_unlock(s);
    for (size_t i = 0; i < s->nconfigs; i++)
        free(s->configs[i]);
    free(s->configs);
    rd_run_index_release(&s->ix);
    rd_arena_release(&s->arena);
    rd_recordset_release(&s->kept);
    rd_session_init(s, s->store);
}

void rd_session_on_report(struct rd_session *s, rd_session_report_fn fn, void *ctx)
{
    s->report = fn;
    s->report_ctx = ctx;
}

void rd_session_keep_records(struct rd_session *s)
{
    s->keep = true;
}

static rd_status keep_copy(void *ctx, const struct rd_record *rec)
{
    struct rd_session *s = ctx;
    struct rd_record *r = rd_recordset_add(&s->kept);
    return r ? rd_record_copy(r, rec) : RD_ERR_NOMEM;
}

/* The key of cfg's series in 'phase'. */
static struct rd_run_key config_key(const struct rd_session_config *cfg, enum rd_phase phase)
{
    return (struct rd_run_key){cfg->tmpl.suite, cfg->tmpl.workload, cfg->id,
                               rd_phase_name(phase)};
}

/* Moves each config's next numbers past what the index holds. */
static void renumber_after_index(struct rd_session *s)
{
    for (size_t i = 0; i < s->nconfigs; i++) {
        struct rd_session_config *cfg = s->configs[i];
        for (int ph = RD_PHASE_WARMUP; ph <= RD_PHASE_MEASURE; ph++) {
            struct rd_run_key key = config_key(cfg, (enum rd_phase)ph);
            const struct rd_run_series *se = rd_run_index_series(&s->ix, &key);
            if (se && se->last + 1 > cfg->next_run[ph])
                cfg->next_run[ph] = se->last + 1;
        }
    }
}

/* Reads, under the lock, what the store holds past what the index holds. */
static rd_status catch_up(struct rd_session *s, struct rd_diag *d)
{
    long long size;
    RD_TRY(rd_store_lock_size(&s->lock, &size, d));
    if (size < s->read_to) {
        /* Cut back by something other than rundown: read it all anew (the
         * index only grows; kept records are read again). */
        s->read_to = 0;
        s->lines_read = 0;
        s->cut_tail = false;
        rd_recordset_release(&s->kept);
        rd_recordset_init(&s->kept);
    }
    if (size == s->read_to)
        return RD_OK;
    struct rd_store_reader r;
    RD_TRY(rd_store_open_range(&r, s->store, s->read_to, size, d));
    /* Lines are numbered as in the whole file. The newline that ended a
     * cut last line (another writer's repair) comes first and counts as
     * that line's end, not a line of its own. */
    r.line = s->lines_read - (s->cut_tail ? 1 : 0);
    struct rd_record rec;
    int got;
    rd_status st;
    while (!(st = rd_store_next(&r, &rec, &got, d)) && got) {
        if ((st = rd_run_index_add(&s->ix, &rec)) || (s->keep && (st = keep_copy(s, &rec))))
            break;
    }
    if (!st) {
        s->lines_read = r.line;
        s->read_to = size;
        s->cut_tail = r.unterminated;
    }
    rd_store_close(&r);
    if (!st)
        renumber_after_index(s);
    return st;
}

/* Takes l on path, waiting in steps, so that a signal (blocked outside
 * rundown's waits, proc.h) ends the wait for a writer that may run for
 * hours. */
static rd_status wait_lock(struct rd_store_lock *l, const char *path, unsigned flags,
                           struct rd_diag *d)
{
    for (;;) {
        bool busy;
        rd_status st = rd_store_lock(l, path, flags, &busy, d);
        if (!st)
            return RD_OK;
        if (!busy)
            return st;
        if (rd_proc_interrupted)
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "interrupted");
        RD_TRY(rd_proc_poll(NULL, 0, 0.02, d));
    }
}

rd_status rd_session_lock(struct rd_session *s, struct rd_diag *d)
{
    if (!s->to_file || s->lock.fd >= 0)
        return RD_OK;
    /* Writers take turns run by run: a writer waits for the store holding
     * the gate "<store>.turn" and lets it go once it has the store. The
     * writer that just stored a run must pass the gate before it may lock
     * the store again, and a waiting writer holds it, so the store goes to
     * the one that waited (a ticket), not to whoever polls first after an
     * unlock, which the releasing writer, awake already, always won. */
    struct rd_buf gatepath = RD_BUF_INIT;
    RD_TRY(rd_buf_addf(&gatepath, "%s.turn", s->store));
    struct rd_store_lock gate;
    rd_store_lock_init(&gate);
    rd_status st = wait_lock(&gate, gatepath.ptr, RD_LOCK_FILE, d);
    if (!st)
        st = wait_lock(&s->lock, s->store, 0, d);
    rd_store_unlock(&gate);
    rd_buf_release(&gatepath);
    if (st)
        return st;
    st = catch_up(s, d);
    if (st)
        rd_session_unlock(s);
    return st;
}

void rd_session_unlock(struct rd_session *s)
{
    rd_store_unlock(&s->lock);
}

rd_status rd_session_lend(void *session, bool after, struct rd_diag *d)
{
    struct rd_session *s = session;
    if (!after) {
        s->lent = s->lock.fd >= 0;
        rd_session_unlock(s);
        return RD_OK;
    }
    if (!s->lent)
        return RD_OK;
    s->lent = false;
    return rd_session_lock(s, d);
}

rd_status rd_session_read_store(struct rd_session *s, struct rd_diag *d)
{
    if (!s->to_file)
        return RD_OK;
    if (s->lock.fd >= 0)
        return catch_up(s, d);
    struct stat st;
    if (stat(s->store, &st) != 0 && errno == ENOENT)
        return RD_OK;  /* nothing stored yet (its folder may not exist yet) */
    RD_TRY(rd_session_lock(s, d));
    rd_session_unlock(s);
    return RD_OK;
}

rd_status rd_session_add_config(struct rd_session *s, const struct rd_record *tmpl,
                                struct rd_session_config **out)
{
    RD_TRY(RD_ARRAY_GROW(s->configs, s->cap, s->nconfigs + 1));
    struct rd_session_config *cfg = calloc(1, sizeof *cfg);
    if (!cfg)
        return RD_ERR_NOMEM;
    cfg->index = s->nconfigs;
    rd_record_init(&cfg->tmpl, &s->arena);
    struct rd_buf id = RD_BUF_INIT;
    rd_status st = rd_record_copy(&cfg->tmpl, tmpl);
    if (!st)
        st = rd_record_config_id(&cfg->tmpl, &id);
    if (!st && !(cfg->id = rd_arena_strdup(&s->arena, id.ptr)))
        st = RD_ERR_NOMEM;
    rd_buf_release(&id);
    if (st) {
        free(cfg);
        return st;
    }
    for (int ph = RD_PHASE_WARMUP; ph <= RD_PHASE_MEASURE; ph++) {
        struct rd_run_key key = config_key(cfg, (enum rd_phase)ph);
        const struct rd_run_series *se = rd_run_index_series(&s->ix, &key);
        cfg->next_run[ph] = (se ? se->last : 0) + 1;
    }
    s->configs[s->nconfigs++] = cfg;
    *out = cfg;
    return RD_OK;
}

rd_status rd_session_begin_run(struct rd_session *s, struct rd_session_config *cfg,
                               enum rd_phase phase, long run, struct rd_record *rec)
{
    (void)s;
    RD_TRY(rd_record_copy(rec, &cfg->tmpl));
    RD_TRY(rd_record_set(rec, &rec->phase, rd_phase_name(phase)));
    rec->run = run > 0 ? run : cfg->next_run[phase];
    if (rec->run >= cfg->next_run[phase])
        cfg->next_run[phase] = rec->run + 1;
    return RD_OK;
}

void rd_session_plan_steps(struct rd_session *s, size_t steps)
{
    s->steps = steps;
}

static void report(struct rd_session *s, enum rd_session_event_kind kind,
                   const struct rd_session_config *cfg, const struct rd_record *rec)
{
    if (!s->report)
        return;
    struct rd_session_event ev = {kind, s->step, s->steps, cfg, rec, NULL};
    s->report(s->report_ctx, &ev);
}

void rd_session_note(struct rd_session *s, const char *text)
{
    if (!s->report)
        return;
    struct rd_session_event ev = {RD_SESSION_NOTE, s->step, s->steps, NULL, NULL, text};
    s->report(s->report_ctx, &ev);
}

void rd_session_starting(struct rd_session *s, size_t step,
                         const struct rd_session_config *cfg, const struct rd_record *rec)
{
    s->step = step;
    report(s, RD_SESSION_STARTING, cfg, rec);
}

/* Appends rec under the lock, as the next free number of its series when
 * its own is taken. *stored gets what was appended (rec or tmp's copy). */
static rd_status append_locked(struct rd_session *s, const struct rd_record *rec,
                               struct rd_recordset *tmp, const struct rd_record **stored,
                               struct rd_diag *d)
{
    *stored = rec;
    if (rd_run_index_has(&s->ix, rec)) {
        struct rd_record *r = rd_recordset_add(tmp);
        if (!r)
            return RD_ERR_NOMEM;
        RD_TRY(rd_record_copy(r, rec));
        r->run = rd_run_index_max(&s->ix, rec) + 1;
        *stored = r;
    }
    struct rd_buf buf = RD_BUF_INIT;
    long long end;
    rd_status st = rd_store_format(*stored, 1, &buf, d);
    if (!st)
        st = rd_store_lock_append(&s->lock, buf.ptr, buf.len, &end, d);
    rd_buf_release(&buf);
    if (!st) {
        s->read_to = end;
        s->lines_read++;
        s->cut_tail = false;
    }
    return st;
}

/* Notes, counts and reports a run that is in the store now. */
static rd_status store_noted(struct rd_session *s, struct rd_session_config *cfg,
                             const struct rd_record *rec)
{
    RD_TRY(rd_run_index_add(&s->ix, rec));
    if (s->keep)
        RD_TRY(keep_copy(s, rec));
    bool ok = rec->status && strcmp(rec->status, "ok") == 0;
    s->stored++;
    s->failed += !ok;
    if (cfg) {
        cfg->stored[phase_of(rec)]++;
        cfg->failed += !ok;
        if (rec->run >= cfg->next_run[phase_of(rec)])
            cfg->next_run[phase_of(rec)] = rec->run + 1;
    }
    report(s, RD_SESSION_STORED, cfg, rec);
    return RD_OK;
}

rd_status rd_session_store(struct rd_session *s, struct rd_session_config *cfg,
                           const struct rd_record *rec, struct rd_diag *d)
{
    struct rd_recordset tmp;
    rd_recordset_init(&tmp);
    rd_status st = RD_OK;
    if (!s->to_file) {
        st = rd_store_append_one(s->store, rec, d);
        fflush(stdout);
    } else {
        bool took = s->lock.fd < 0;
        st = took ? rd_session_lock(s, d) : RD_OK;
        if (!st)
            st = append_locked(s, rec, &tmp, &rec, d);
        if (took)
            rd_session_unlock(s);
    }
    if (!st)
        st = store_noted(s, cfg, rec);
    rd_recordset_release(&tmp);
    return st;
}

bool rd_session_holds(const struct rd_session *s, const struct rd_run_key *key, long run)
{
    return rd_run_index_contains(&s->ix, key, run);
}

long rd_session_config_count(const struct rd_session *s, const struct rd_session_config *cfg,
                             enum rd_phase phase)
{
    struct rd_run_key key = config_key(cfg, phase);
    const struct rd_run_series *se = rd_run_index_series(&s->ix, &key);
    return se ? se->count : 0;
}

const struct rd_run_series *rd_session_series(const struct rd_session *s,
                                              const struct rd_run_key *key)
{
    return rd_run_index_series(&s->ix, key);
}

const struct rd_recordset *rd_session_records(const struct rd_session *s)
{
    return &s->kept;
}

rd_status rd_session_emit(void *vsink, const struct rd_record *rec, struct rd_diag *d)
{
    struct rd_session_sink *sink = vsink;
    return rd_session_store(sink->session, sink->config, rec, d);
}

bool rd_session_warmup_stored(void *vsink, long run)
{
    struct rd_session_sink *sink = vsink;
    struct rd_run_key key = config_key(sink->config, RD_PHASE_WARMUP);
    return rd_session_holds(sink->session, &key, run);
}
