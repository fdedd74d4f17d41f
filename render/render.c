/*
 * render - the driver: decides which back ends run, in which order, and
 * commits their files together.
 *
 * Order matters: charts first (the HTML inlines the SVGs gnuplot staged),
 * then Markdown (the HTML is made from it), HTML, xlsx, tex, csv; only
 * then the commit. Nothing is renamed into place unless everything succeeded.
 * The workbook, the slowest back end on a big analysis, is written while
 * a second thread writes tex and csv (papers_start/papers_finish): the
 * files and the error a render reports are those of the order above.
 */
#include "render.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends.h"
#include "rundown/array.h"
#include "rundown/fsutil.h"

rd_status rd_render_parse_formats(const char *list, unsigned *out, struct rd_diag *d)
{
    static const struct { const char *name; unsigned bit; } names[] = {
        { "md", RD_FMT_MD }, { "html", RD_FMT_HTML }, { "xlsx", RD_FMT_XLSX },
        { "tex", RD_FMT_TEX }, { "csv", RD_FMT_CSV }, { "charts", RD_FMT_CHARTS },
        { "charts-script", RD_FMT_CHARTS_SCRIPT }, { "png", RD_FMT_PNG },
        { "pdf", RD_FMT_PDF }, { "all", RD_FMT_ALL },
    };
    unsigned bits = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        bool found = false;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            if (strlen(names[i].name) == len && strncmp(names[i].name, p, len) == 0) {
                bits |= names[i].bit;
                found = true;
            }
        }
        if (!found) {
            char ex[80];
            rd_excerpt(p, len, 40, ex, sizeof ex);
            return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                               "expected formats md, html, xlsx, tex, csv, charts, pdf, png or charts-script, got '%s'", ex);
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    /* PNGs and PDFs are drawn by the same gnuplot run as the SVGs; with
     * charts-script they are only written into the script. */
    if ((bits & (RD_FMT_PNG | RD_FMT_PDF)) && !(bits & RD_FMT_CHARTS_SCRIPT))
        bits |= RD_FMT_CHARTS;
    *out = bits;
    return RD_OK;
}

/* The folders a render created, deepest last, so a failure can take
 * them away again. */
struct made {
    char **dirs;
    size_t n, cap;
};

static void made_release(struct made *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->dirs[i]);
    free(m->dirs);
    memset(m, 0, sizeof *m);
}

static void made_undo(struct made *m)
{
    for (size_t i = m->n; i-- > 0;)
        rmdir(m->dirs[i]);
    made_release(m);
}

/* mkdir -p that remembers each folder it had to create. A message names
 * the folder that could not be made in its text, since 'p' (the prefix
 * being made) is freed here. */
static rd_status make_dirs(struct made *m, const char *path, struct rd_diag *d)
{
    char *p = strdup(path);
    if (!p)
        return RD_ERR_NOMEM;
    size_t len = strlen(p);
    rd_status st = RD_OK;
    /* Each prefix ending before a '/', then the whole path. */
    for (size_t i = 1; i <= len && st == RD_OK; i++) {
        if (i < len && p[i] != '/')
            continue;
        char keep = p[i];
        p[i] = '\0';
        struct stat sb;
        if (stat(p, &sb) != 0 && errno == ENOENT) {
            if (mkdir(p, 0755) != 0) {
                /* EEXIST: a dangling symbolic link, or made meanwhile. */
                if (errno == EEXIST) {
                    p[i] = keep;
                    continue;
                }
                st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create folder '%s': %s", p,
                                 strerror(errno));
                if (d)
                    d->path = NULL;
                break;
            }
            bool room = RD_ARRAY_GROW(m->dirs, m->cap, m->n + 1) == RD_OK;
            char *copy = room ? strdup(p) : NULL;
            if (!copy) {
                rmdir(p);
                st = RD_ERR_NOMEM;
            } else {
                m->dirs[m->n++] = copy;
            }
        }
        p[i] = keep;
    }
    free(p);
    return st;
}

/* What the output folder already holds under a name this render replaces
 * must be of the kind the render writes: a FIFO named report.md would be
 * swapped away, and a folder named report.html could not be. Checked
 * before anything is made, so such a render fails at once. */
static rd_status check_outputs(const char *dir, unsigned f, bool charts, struct rd_diag *d)
{
    static const struct { unsigned bit; const char *name; } files[] = {
        { RD_FMT_MD, "report.md" }, { RD_FMT_HTML, "report.html" }, { RD_FMT_XLSX, "report.xlsx" },
    };
    struct rd_buf p = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (size_t i = 0; i < 4 && st == RD_OK; i++) {
        bool folder = i == 3;
        if (folder ? !charts : !(f & files[i].bit))
            continue;
        rd_buf_reset(&p);
        st = rd_buf_addf(&p, "%s/%s", dir, folder ? "charts" : files[i].name);
        struct stat sb;
        if (st == RD_OK && lstat(p.ptr, &sb) == 0 &&
            !(folder ? S_ISDIR(sb.st_mode) : S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode)))
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "'%s': expected %s, got %s", p.ptr,
                             folder ? "a folder" : "a regular file", rd_file_kind(sb.st_mode));
    }
    rd_buf_release(&p);
    return st;
}

/* The formats written beside the workbook (papers_start). */
#define PAPERS (RD_FMT_MD | RD_FMT_HTML | RD_FMT_TEX | RD_FMT_CSV)

/* Open files a render needs besides standard input, output and error,
 * measured as the lowest `ulimit -n` that renders tests/cases/render/
 * _data/analysis.json, less 3: charts 7 (gnuplot's pipes, the staging
 * folder's lock, the chart files), xlsx 3 (the workbook's zip), any other
 * format 1; the workbook with md, html, tex or csv 4, as they are written
 * at once (the charts are done before). */
static int fds_needed(unsigned f)
{
    if (f & (RD_FMT_CHARTS | RD_FMT_CHARTS_SCRIPT))
        return 7;
    if (f & RD_FMT_XLSX)
        return f & PAPERS ? 4 : 3;
    return 1;
}

/* md, html, tex and csv on a second thread while this one writes the
 * workbook. libxlsxwriter keeps every cell of a sheet until the workbook
 * is closed, then deflates the sheets: at 10^5 configs it takes longer
 * than the four others together, so on two cores they overlap. The
 * workbook stays on this thread, in the main malloc arena (its millions
 * of small cells cost a tenth more in a thread's arena); the others make
 * a few big buffers. The stage is the other thread's while it runs:
 * report.xlsx is reserved before it starts. The charts come before both:
 * the Markdown links the charts that were drawn. */
struct papers_job {
    const struct rd_report *r;
    const struct rd_chart_plan *plan; /* NULL: no charts in this render */
    const char *tdir;
    struct rd_stage *stage;
    unsigned formats;                 /* of PAPERS */
    struct rd_buf md, html;
    struct rd_diag d;
    rd_status st_before;              /* md and html: written before the workbook once */
    rd_status st;                     /* tex and csv: after it */
    pthread_t thread;
    bool started;
};

static rd_status papers_pages(struct papers_job *j)
{
    unsigned f = j->formats;
    rd_status st = RD_OK;
    if (f & (RD_FMT_MD | RD_FMT_HTML))
        st = rd_render_markdown(j->r, j->plan, j->tdir, &j->md, &j->d);
    if (st == RD_OK && (f & RD_FMT_MD))
        st = rd_stage_write(j->stage, "report.md", j->md.ptr, j->md.len, &j->d);
    if (st == RD_OK && (f & RD_FMT_HTML))
        st = rd_render_html(j->r, j->md.ptr, j->md.len, j->tdir, j->stage, &j->html, &j->d);
    if (st == RD_OK && (f & RD_FMT_HTML))
        st = rd_stage_write(j->stage, "report.html", j->html.ptr, j->html.len, &j->d);
    return st;
}

static void *papers_run(void *arg)
{
    struct papers_job *j = arg;
    rd_status st = j->st_before = papers_pages(j);
    if (st == RD_OK && (j->formats & RD_FMT_TEX)) {
        struct rd_buf tex = RD_BUF_INIT;
        st = rd_render_tex(j->r, &tex);
        if (st == RD_OK)
            st = rd_stage_write(j->stage, "report.tex", tex.ptr, tex.len, &j->d);
        rd_buf_release(&tex);
    }
    if (st == RD_OK && (j->formats & RD_FMT_CSV))
        st = rd_render_csv(j->r, j->stage, &j->d);
    j->st = st;
    return NULL;
}

/* Starts md, html, tex and csv (those asked for) on their thread when the
 * workbook is written 'beside' them, else (or when no thread can be
 * started) runs them here. */
static void papers_start(struct papers_job *j, const struct rd_report *r,
                         const struct rd_chart_plan *plan, const char *tdir,
                         struct rd_stage *s, unsigned f, bool beside, const struct rd_diag *d)
{
    *j = (struct papers_job){ .r = r, .plan = plan, .tdir = tdir, .stage = s,
                              .formats = f & PAPERS, .md = RD_BUF_INIT, .html = RD_BUF_INIT };
    /* A message with no path keeps the caller's, as it did on d itself. */
    if (d)
        j->d = *d;
    else
        rd_diag_init(&j->d, NULL);
    j->started = beside && j->formats && pthread_create(&j->thread, NULL, papers_run, j) == 0;
    if (!j->started)
        papers_run(j);
}

/* Waits for the others, and says the error the order md, html, xlsx,
 * tex, csv met first: the workbook's 'st' after md's and html's, before
 * tex's and csv's, as when they were written one after another. */
static rd_status papers_finish(struct papers_job *j, rd_status st, struct rd_diag *d)
{
    if (j->started)
        pthread_join(j->thread, NULL);
    j->started = false;
    rd_buf_release(&j->md);
    rd_buf_release(&j->html);
    if (j->st_before != RD_OK) {
        if (d)
            *d = j->d;
        return j->st_before;
    }
    if (st != RD_OK || j->st == RD_OK)
        return st;
    if (d)
        *d = j->d;
    return j->st;
}

/* Every entry a render may write into its output folder. */
static const char *const report_entries[] = {
    "report.md", "report.html", "report.xlsx", "report.tex",
    "runs.csv", "summary.csv", "comparisons.csv", "charts",
};

/* The entries an earlier render left that this one does not write (an
 * earlier render with other formats, perhaps of another analysis): the
 * commit removes them with the rest, so the folder never mixes two
 * reports. Their names go to 'gone' ("report.html, summary.csv"). */
static rd_status retire_stale(struct rd_stage *stage, const char *dir, struct rd_buf *gone)
{
    struct rd_buf p = RD_BUF_INIT;
    rd_status st = RD_OK;
    for (size_t i = 0; i < sizeof report_entries / sizeof report_entries[0] && !st; i++) {
        const char *name = report_entries[i];
        struct stat sb;
        if (rd_stage_has(stage, name))
            continue;
        rd_buf_reset(&p);
        st = rd_buf_addf(&p, "%s/%s", dir, name);
        if (st || lstat(p.ptr, &sb) != 0)
            continue;
        st = rd_stage_retire(stage, name);
        if (!st)
            st = rd_buf_addf(gone, "%s%s%s", gone->len ? ", " : "", name,
                             S_ISDIR(sb.st_mode) ? "/" : "");
    }
    rd_buf_release(&p);
    return st;
}

rd_status rd_render(const struct rd_report *r, const struct rd_render_opts *o,
                    struct rd_diag *d)
{
    struct rd_buf gone = RD_BUF_INIT;
    const char *tdir = o->templates_dir ? o->templates_dir : rd_render_default_templates();
    unsigned f = o->formats;
    bool charts = f & (RD_FMT_CHARTS | RD_FMT_CHARTS_SCRIPT);
    struct rd_chart_plan plan = { 0 };
    struct rd_buf md = RD_BUF_INIT;
    rd_status st = RD_OK;

    if (!o->out_dir) {
        if (f & ~RD_FMT_MD)
            return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                               "html, xlsx, tex, csv and charts need an output folder (-o DIR)");
        st = rd_render_markdown(r, NULL, tdir, &md, d);
        if (st == RD_OK && fwrite(md.ptr, 1, md.len, o->md_stream) != md.len)
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot write the report to standard output");
        rd_buf_release(&md);
        return st;
    }

    struct rd_stage stage;
    struct made made = { 0 };
    /* Said before anything is made, so the output folder stays as it was. */
    st = rd_fds_check(fds_needed(f), "render", "these formats", "ask for fewer formats", d);
    if (st == RD_OK)
        st = check_outputs(o->out_dir, f, charts, d);
    if (st == RD_OK)
        st = make_dirs(&made, o->out_dir, d);
    if (st != RD_OK) {
        made_undo(&made);
        return st;
    }
    st = rd_stage_init(&stage, o->out_dir, d);
    if (st == RD_OK && charts)
        st = rd_chart_plan_make(r, &plan);
    if (st == RD_OK && charts)
        st = rd_render_charts(r, &plan, &stage, (f & RD_FMT_CHARTS) != 0,
                              f & (RD_FMT_PNG | RD_FMT_PDF), o, d);
    /* The workbook here, the others beside it (papers_start). The
     * Markdown links the SVGs only when charts are part of this render;
     * a link to an image that will not exist helps nobody. */
    const char *xlsx_tmp = NULL;
    if (st == RD_OK && (f & RD_FMT_XLSX))
        st = rd_stage_reserve(&stage, "report.xlsx", &xlsx_tmp, d);
    if (st == RD_OK && (f & PAPERS)) {
        struct papers_job papers;
        papers_start(&papers, r, charts ? &plan : NULL, tdir, &stage, f, xlsx_tmp != NULL, d);
        /* Without the thread they ran first: a failed md or html leaves
         * the workbook unwritten, as when it came after them. */
        bool go = xlsx_tmp && (papers.started || papers.st_before == RD_OK);
        rd_status xst = go ? rd_render_xlsx(r, o, xlsx_tmp, d) : RD_OK;
        st = papers_finish(&papers, xst, d);
    } else if (st == RD_OK && xlsx_tmp) {
        st = rd_render_xlsx(r, o, xlsx_tmp, d);
    }
    if (st == RD_OK)
        st = retire_stale(&stage, o->out_dir, &gone);
    if (st == RD_OK)
        st = rd_stage_commit(&stage, d);
    rd_stage_release(&stage);
    if (st == RD_OK && gone.len && o->warn) {
        struct rd_buf msg = RD_BUF_INIT;
        if (rd_buf_addf(&msg, "removed from '%s' what an earlier render with other formats "
                        "left there, so it holds one report: %s", o->out_dir, gone.ptr) == RD_OK)
            o->warn(o->warn_ctx, msg.ptr);
        rd_buf_release(&msg);
    }
    rd_buf_release(&gone);
    /* A failed render leaves the output folder as it was: the folder it
     * created goes too (rmdir only removes it when empty, and the staging
     * folder is gone by now). */
    if (st != RD_OK)
        made_undo(&made);
    made_release(&made);
    /* --strict: the report is written, but a chart left out fails it. */
    for (size_t i = 0; st == RD_OK && o->strict && i < plan.n; i++)
        if (plan.items[i].left_out)
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "chart '%s' left out (--strict): %s",
                             plan.items[i].stem, plan.items[i].left_out);
    rd_chart_plan_release(&plan);
    rd_buf_release(&md);
    return st;
}
