/*
 * html - report.html: the Markdown report through cmark-gfm (the only file
 * that uses it), wrapped in report.html.tmpl with a table of contents and
 * every chart inlined as SVG, so the file opens offline and loads nothing.
 *
 * cmark-gfm's safe mode would also drop the SVG we insert, so the tree is
 * sanitised here instead and rendered with CMARK_OPT_UNSAFE: raw HTML that
 * came from the Markdown becomes visible text, links other than in-page
 * anchors are neutralised, images other than our charts become their alt
 * text, and then the charts go in. Text from input never reaches the output
 * unescaped: in the Markdown it was escaped, and cmark escapes text again.
 */
#include "backends.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>

#include "escape.h"
#include "rundown/array.h"
#include "rundown/fsutil.h"
#include "template.h"

#define MAX_SVG_BYTES (16u << 20)

struct nodes {
    cmark_node **items;
    size_t n, cap;
};

static int nodes_add(struct nodes *l, cmark_node *n)
{
    if (RD_ARRAY_GROW(l->items, l->cap, l->n + 1) != RD_OK)
        return -1;
    l->items[l->n++] = n;
    return 0;
}

/* The plain text of a node's inline children (heading text, image alt). */
static rd_status node_text(cmark_node *node, struct rd_buf *out)
{
    rd_status st = RD_OK;
    cmark_iter *it = cmark_iter_new(node);
    cmark_event_type ev;
    while (st == RD_OK && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *cur = cmark_iter_get_node(it);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        cmark_node_type t = cmark_node_get_type(cur);
        if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_HTML_INLINE)
            st = rd_buf_addstr(out, cmark_node_get_literal(cur) ? cmark_node_get_literal(cur) : "");
        else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
            st = rd_buf_addch(out, ' ');
    }
    cmark_iter_free(it);
    return st;
}

/* "charts/<stem>.svg" (or .png, which templates written before the
 * Markdown used SVG still link) -> "charts/<stem>.svg" when the name is one
 * of ours. */
static bool chart_svg_name(const char *url, struct rd_buf *out)
{
    size_t n = strlen(url);
    if (strncmp(url, "charts/", 7) != 0 || n < 12 ||
        (strcmp(url + n - 4, ".png") != 0 && strcmp(url + n - 4, ".svg") != 0))
        return false;
    for (const char *p = url + 7; p < url + n - 4; p++)
        if (*p == '/' || (*p == '.' && p[1] == '.'))
            return false;
    rd_buf_reset(out);
    return rd_buf_add(out, url, n - 4) == RD_OK && rd_buf_addstr(out, ".svg") == RD_OK;
}

/* Appends 'from' with every 'pat' replaced by 'rep'. */
static rd_status replace_all(struct rd_buf *out, const char *from, size_t len,
                             const char *pat, const char *rep)
{
    size_t plen = strlen(pat);
    const char *p = from, *end = from + len;
    rd_status st = RD_OK;
    while (st == RD_OK && p < end) {
        const char *hit = memmem(p, (size_t)(end - p), pat, plen);
        if (!hit) {
            st = rd_buf_add(out, p, (size_t)(end - p));
            break;
        }
        st = rd_buf_add(out, p, (size_t)(hit - p));
        if (st == RD_OK)
            st = rd_buf_addstr(out, rep);
        p = hit + plen;
    }
    return st;
}

/*
 * Makes a gnuplot SVG fit for inlining: no XML prolog, no namespace URLs
 * (HTML knows svg and xlink:href), and ids made unique per chart, since
 * every gnuplot SVG defines the same ones. Refuses anything scriptable.
 */
static rd_status inline_svg(const char *path, unsigned k, const char *label,
                            struct rd_buf *out, struct rd_diag *d)
{
    struct rd_buf raw = RD_BUF_INIT, a = RD_BUF_INIT, b = RD_BUF_INIT;
    const struct rd_read_limits lim = { MAX_SVG_BYTES, RD_READ_REGULAR | RD_READ_TEXT, NULL };
    rd_status st = rd_read_input(path, &lim, &raw, d);
    if (st != RD_OK) {
        /* path is a staged temporary freed after this call: the message
         * must not point to it, so it is copied into the text. */
        char why[sizeof d->msg];
        snprintf(why, sizeof why, "%s", d ? d->msg : "");
        st = rd_diag_set(d, st, NULL, 0, 0, "chart %u: %.200s", k, why);
        if (d)
            d->path = NULL;
        goto done;
    }
    const char *svg = strstr(raw.ptr, "<svg");
    if (!svg || strstr(svg, "<script") || strstr(svg, "<foreignObject") ||
        strstr(svg, "href=\"http") || strstr(svg, "href='http")) {
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "chart %u is not a plain gnuplot SVG", k);
        goto done;
    }
    const char *tag_end = strchr(svg, '>');
    if (!tag_end) {
        st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "chart %u is not a plain gnuplot SVG", k);
        goto done;
    }
    /* Copy the start tag without its xmlns attributes. */
    st = rd_buf_addstr(&a, "<svg class=\"chart\" role=\"img\" aria-label=\"");
    if (st == RD_OK) st = rd_escape_html(&a, label);
    if (st == RD_OK) st = rd_buf_addch(&a, '"');
    for (const char *p = svg + 4; st == RD_OK && p < tag_end;) {
        while (p < tag_end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
            p++;
        const char *name = p;
        while (p < tag_end && *p != '=' && *p != ' ' && *p != '\n')
            p++;
        const char *name_end = p;
        const char *val = p, *val_end = p;
        if (p < tag_end && *p == '=') {
            const char *eq = p++;
            char q = *p;
            if (q == '"' || q == '\'') {
                const char *close = memchr(p + 1, q, (size_t)(tag_end - p - 1));
                val = eq;
                val_end = close ? close + 1 : tag_end;
                p = val_end;
            }
        }
        if (name_end == name)
            continue;
        if ((size_t)(name_end - name) >= 5 && strncmp(name, "xmlns", 5) == 0)
            continue;
        st = rd_buf_addch(&a, ' ');
        if (st == RD_OK) st = rd_buf_add(&a, name, (size_t)(name_end - name));
        if (st == RD_OK) st = rd_buf_add(&a, val, (size_t)(val_end - val));
    }
    if (st == RD_OK)
        st = rd_buf_addstr(&a, tag_end);
    char pre[32];
    snprintf(pre, sizeof pre, "c%u_gnuplot_", k);
    if (st == RD_OK) st = replace_all(&b, a.ptr, a.len, "gnuplot_", pre);
    rd_buf_reset(&a);
    snprintf(pre, sizeof pre, "c%u_gpPt", k);
    if (st == RD_OK) st = replace_all(&a, b.ptr, b.len, "gpPt", pre);
    snprintf(pre, sizeof pre, "c%u_gpDot", k);
    if (st == RD_OK) st = replace_all(out, a.ptr, a.len, "gpDot", pre);
done:
    rd_buf_release(&raw);
    rd_buf_release(&a);
    rd_buf_release(&b);
    return st;
}

struct heading {
    int level;
    char *text;
    char *slug;
};

static rd_status add_heading(struct heading **hs, size_t *n, size_t *cap, int level,
                             const char *text, struct rd_buf *tmp)
{
    RD_TRY(RD_ARRAY_GROW(*hs, *cap, *n + 1));
    rd_buf_reset(tmp);
    if (rd_slug(tmp, text) != RD_OK)
        return RD_ERR_NOMEM;
    /* GitHub's rule, so report.md's links work in both places. */
    if (rd_name_unique(tmp, 1, *hs, *n, sizeof **hs, offsetof(struct heading, slug)) != RD_OK)
        return RD_ERR_NOMEM;
    struct heading *h = &(*hs)[*n];
    h->level = level;
    h->text = strdup(text);
    h->slug = strdup(tmp->ptr);
    if (!h->text || !h->slug) {
        free(h->text);
        free(h->slug);
        return RD_ERR_NOMEM;
    }
    (*n)++;
    return RD_OK;
}

/* The markers report.md.tmpl writes as HTML comments (invisible in every
 * Markdown viewer): the next table becomes cards on a phone (titled by its
 * first column, or column N with "cards N"); the paragraph
 * after a details marker is the summary of a block closed by default, up
 * to the closing marker. Kept through sanitising only when they are exactly
 * these lines; text from input cannot make one, since cmark escapes it. */
#define MARK_CARDS "<!-- rundown:cards -->"
#define MARK_DETAILS "<!-- rundown:details -->"
#define MARK_END "<!-- rundown:/details -->"

/* "<!-- rundown:cards N -->": the cards' title is column N (1-9). */
#define MARK_CARDS_N "<!-- rundown:cards "

static bool is_cards_n(const char *p)
{
    size_t n = strlen(MARK_CARDS_N);
    return strncmp(p, MARK_CARDS_N, n) == 0 && p[n] >= '1' && p[n] <= '9' &&
           strncmp(p + n + 1, " -->\n", 5) == 0;
}

static bool is_marker(const char *literal)
{
    static const char *marks[] = { MARK_CARDS "\n", MARK_DETAILS "\n", MARK_END "\n" };
    for (size_t i = 0; literal && i < sizeof marks / sizeof marks[0]; i++)
        if (strcmp(literal, marks[i]) == 0)
            return true;
    return literal && is_cards_n(literal) && literal[strlen(MARK_CARDS_N) + 6] == '\0';
}

#define MAX_CARD_COLS 32

/* A cards table's header cells as plain text, for each cell's data-label
 * (which the phone stylesheet prints before the value). */
struct cards {
    bool on, in_head;
    char *labels[MAX_CARD_COLS];
    size_t n, col;
    size_t title;   /* the column that titles each card, 1-based */
};

static void cards_release(struct cards *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->labels[i]);
    memset(c, 0, sizeof *c);
}

/* The text of one cell from its start tag to "</th>", tags dropped. */
static char *cell_text(const char *p)
{
    const char *end = strstr(p, "</th>");
    const char *gt = strchr(p, '>');
    if (!end || !gt || gt > end)
        return strdup("");
    struct rd_buf b = RD_BUF_INIT;
    bool tag = false;
    for (const char *q = gt + 1; q < end; q++) {
        if (*q == '<')
            tag = true;
        else if (*q == '>')
            tag = false;
        else if (!tag && rd_buf_addch(&b, *q) != RD_OK)
            break;
    }
    char *s = rd_buf_detach(&b, NULL);
    return s ? s : strdup("");
}

/* Gives headings ids, wraps tables so wide ones scroll on a phone, and
 * turns the template's markers into <details> and card tables. */
static rd_status post_process(const char *html, const struct heading *hs, size_t nh,
                              struct rd_buf *out)
{
    size_t hi = 0;
    rd_status st = RD_OK;
    struct cards cards = { 0 };
    bool next_cards = false, summary = false;
    size_t next_title = 1;
    const char *p = html;
    while (st == RD_OK && *p) {
        const char *lt = strchr(p, '<');
        if (!lt) {
            st = rd_buf_addstr(out, p);
            break;
        }
        st = rd_buf_add(out, p, (size_t)(lt - p));
        if (st != RD_OK)
            break;
        /* Text was escaped by cmark, so a literal '<h2>' here is a tag. */
        if (lt[1] == 'h' && lt[2] >= '1' && lt[2] <= '6' && lt[3] == '>' && hi < nh) {
            st = rd_buf_addf(out, "<h%c id=\"", lt[2]);
            if (st == RD_OK) st = rd_escape_html(out, hs[hi].slug);
            if (st == RD_OK) st = rd_buf_addstr(out, "\">");
            hi++;
            p = lt + 4;
        } else if (strncmp(lt, MARK_CARDS "\n", strlen(MARK_CARDS) + 1) == 0) {
            next_cards = true;
            next_title = 1;
            p = lt + strlen(MARK_CARDS) + 1;
        } else if (is_cards_n(lt)) {
            next_cards = true;
            next_title = (size_t)(lt[strlen(MARK_CARDS_N)] - '0');
            p = lt + strlen(MARK_CARDS_N) + 6;
        } else if (strncmp(lt, MARK_DETAILS "\n", strlen(MARK_DETAILS) + 1) == 0) {
            st = rd_buf_addstr(out, "<details>\n");
            summary = true;
            p = lt + strlen(MARK_DETAILS) + 1;
        } else if (strncmp(lt, MARK_END "\n", strlen(MARK_END) + 1) == 0) {
            st = rd_buf_addstr(out, "</details>\n");
            p = lt + strlen(MARK_END) + 1;
        } else if (summary && strncmp(lt, "<p>", 3) == 0) {
            st = rd_buf_addstr(out, "<summary>");
            const char *end = strstr(lt, "</p>");
            if (st == RD_OK && end)
                st = rd_buf_add(out, lt + 3, (size_t)(end - lt - 3));
            if (st == RD_OK) st = rd_buf_addstr(out, "</summary>");
            summary = false;
            p = end ? end + 4 : lt + 3;
        } else if (strncmp(lt, "<table>", 7) == 0) {
            cards_release(&cards);
            cards.on = next_cards;
            cards.title = next_title;
            next_cards = summary = false;
            st = rd_buf_addstr(out, cards.on ? "<div class=\"table-wrap cards\"><table>"
                                             : "<div class=\"table-wrap\"><table>");
            p = lt + 7;
        } else if (strncmp(lt, "</table>", 8) == 0) {
            cards_release(&cards);
            st = rd_buf_addstr(out, "</table></div>");
            p = lt + 8;
        } else if (cards.on && strncmp(lt, "<thead>", 7) == 0) {
            cards.in_head = true;
            st = rd_buf_addch(out, '<');
            p = lt + 1;
        } else if (cards.on && strncmp(lt, "</thead>", 8) == 0) {
            cards.in_head = false;
            st = rd_buf_addch(out, '<');
            p = lt + 1;
        } else if (cards.on && cards.in_head && strncmp(lt, "<th", 3) == 0 &&
                   (lt[3] == '>' || lt[3] == ' ')) {
            if (cards.n < MAX_CARD_COLS && !(cards.labels[cards.n++] = cell_text(lt)))
                st = RD_ERR_NOMEM;
            if (st == RD_OK) st = rd_buf_addch(out, '<');
            p = lt + 1;
        } else if (cards.on && strncmp(lt, "<tr>", 4) == 0) {
            cards.col = 0;
            st = rd_buf_addch(out, '<');
            p = lt + 1;
        } else if (cards.on && strncmp(lt, "<td", 3) == 0 && (lt[3] == '>' || lt[3] == ' ')) {
            st = rd_buf_addstr(out, cards.col + 1 == cards.title ? "<td class=\"card-title\" data-label=\""
                                                                 : "<td data-label=\"");
            if (st == RD_OK && cards.col < cards.n)
                st = rd_buf_addstr(out, cards.labels[cards.col]);
            if (st == RD_OK) st = rd_buf_addch(out, '"');
            cards.col++;
            p = lt + 3;
        } else {
            st = rd_buf_addch(out, '<');
            p = lt + 1;
        }
    }
    cards_release(&cards);
    return st;
}

static rd_status toc_html(const struct heading *hs, size_t nh, struct rd_buf *out)
{
    rd_status st = rd_buf_addstr(out, "<ol>\n");
    for (size_t i = 0; i < nh && st == RD_OK; i++) {
        if (hs[i].level != 2)
            continue;
        st = rd_buf_addstr(out, "<li><a href=\"#");
        if (st == RD_OK) st = rd_escape_html(out, hs[i].slug);
        if (st == RD_OK) st = rd_buf_addstr(out, "\">");
        if (st == RD_OK) st = rd_escape_html(out, hs[i].text);
        if (st == RD_OK) st = rd_buf_addstr(out, "</a></li>\n");
    }
    return st == RD_OK ? rd_buf_addstr(out, "</ol>") : st;
}

static bool safe_link(const char *url)
{
    return url && url[0] == '#';
}

rd_status rd_render_html(const struct rd_report *r, const char *markdown, size_t len,
                         const char *tdir, const struct rd_stage *s,
                         struct rd_buf *out, struct rd_diag *d)
{
    struct rd_template *t = NULL;
    rd_status st = rd_template_load(tdir, "report.html.tmpl", RD_ESC_HTML, &t, d);
    if (st != RD_OK)
        return st;

    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (!parser || !table) {
        if (parser)
            cmark_parser_free(parser);
        rd_template_free(t);
        return parser ? rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cmark-gfm has no table extension")
                      : RD_ERR_NOMEM;
    }
    cmark_parser_attach_syntax_extension(parser, table);
    cmark_parser_feed(parser, markdown, len);
    cmark_node *doc = cmark_parser_finish(parser);

    struct nodes fix = { 0 };
    struct heading *hs = NULL;
    size_t nh = 0, hcap = 0;
    struct rd_buf tmp = RD_BUF_INIT, svgname = RD_BUF_INIT, chunk = RD_BUF_INIT;
    struct rd_buf html = RD_BUF_INIT, toc = RD_BUF_INIT;
    char *rendered = NULL;
    struct rd_tdata view;
    rd_tdata_init(&view);

    /* First collect, then change: the iterator must not see edits. */
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while (st == RD_OK && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        switch (cmark_node_get_type(n)) {
        case CMARK_NODE_HEADING:
            rd_buf_reset(&chunk);
            st = node_text(n, &chunk);
            if (st == RD_OK)
                st = add_heading(&hs, &nh, &hcap, cmark_node_get_heading_level(n), chunk.ptr, &tmp);
            break;
        case CMARK_NODE_HTML_BLOCK:
        case CMARK_NODE_HTML_INLINE:
        case CMARK_NODE_IMAGE:
            if (nodes_add(&fix, n) != 0)
                st = RD_ERR_NOMEM;
            break;
        case CMARK_NODE_LINK:
            if (!safe_link(cmark_node_get_url(n)))
                cmark_node_set_url(n, "#");
            break;
        default:
            break;
        }
    }
    cmark_iter_free(it);

    /* Backwards, so nodes inside an image (raw HTML in its alt text) are
     * replaced before the image that contains them is freed. */
    for (size_t i = fix.n; i-- > 0 && st == RD_OK;) {
        cmark_node *n = fix.items[i];
        cmark_node_type type = cmark_node_get_type(n);
        cmark_node *repl = NULL;
        if (type == CMARK_NODE_HTML_BLOCK && is_marker(cmark_node_get_literal(n))) {
            continue;
        } else if (type == CMARK_NODE_HTML_BLOCK) {
            repl = cmark_node_new(CMARK_NODE_CODE_BLOCK);
            if (repl)
                cmark_node_set_literal(repl, cmark_node_get_literal(n));
        } else if (type == CMARK_NODE_HTML_INLINE) {
            repl = cmark_node_new(CMARK_NODE_TEXT);
            if (repl)
                cmark_node_set_literal(repl, cmark_node_get_literal(n));
        } else {
            const char *url = cmark_node_get_url(n);
            rd_buf_reset(&chunk);
            st = node_text(n, &chunk);
            const char *svg_tmp = NULL;
            if (st == RD_OK && url && s && chart_svg_name(url, &svgname))
                svg_tmp = rd_stage_tmp(s, svgname.ptr);
            if (st == RD_OK && svg_tmp) {
                rd_buf_reset(&tmp);
                cmark_node *parent = cmark_node_parent(n);
                bool alone = parent && cmark_node_get_type(parent) == CMARK_NODE_PARAGRAPH &&
                             cmark_node_first_child(parent) == n && cmark_node_last_child(parent) == n;
                st = rd_buf_addstr(&tmp, alone ? "<figure class=\"chart\">\n" : "<span class=\"chart\">");
                if (st == RD_OK)
                    st = inline_svg(svg_tmp, (unsigned)i + 1, chunk.ptr, &tmp, d);
                if (st == RD_OK && alone) {
                    st = rd_buf_addstr(&tmp, "<figcaption>");
                    if (st == RD_OK) st = rd_escape_html(&tmp, chunk.ptr);
                    if (st == RD_OK) st = rd_buf_addstr(&tmp, "</figcaption>\n</figure>\n");
                }
                if (st == RD_OK && !alone)
                    st = rd_buf_addstr(&tmp, "</span>");
                if (st == RD_OK) {
                    repl = cmark_node_new(alone ? CMARK_NODE_HTML_BLOCK : CMARK_NODE_HTML_INLINE);
                    if (repl)
                        cmark_node_set_literal(repl, tmp.ptr);
                    if (alone)
                        n = parent;
                }
            } else if (st == RD_OK) {
                /* Not one of our charts (or charts were not drawn): show
                 * the alt text, never fetch anything. */
                repl = cmark_node_new(CMARK_NODE_TEXT);
                if (repl)
                    cmark_node_set_literal(repl, chunk.ptr);
            }
        }
        if (st == RD_OK && !repl)
            st = RD_ERR_NOMEM;
        if (st == RD_OK) {
            cmark_node_replace(n, repl);
            cmark_node_free(n);
        }
    }

    if (st == RD_OK) {
        rendered = cmark_render_html(doc, CMARK_OPT_UNSAFE, cmark_parser_get_syntax_extensions(parser));
        if (!rendered)
            st = RD_ERR_NOMEM;
    }
    if (st == RD_OK)
        st = post_process(rendered, hs, nh, &html);
    if (st == RD_OK)
        st = toc_html(hs, nh, &toc);
    if (st == RD_OK) {
        rd_tdata_string(&view, view.root, "title", r->title);
        rd_tdata_string(&view, view.root, "generator", "rundown " RD_VERSION);
        rd_tdata_string(&view, view.root, "toc", toc.ptr ? toc.ptr : "");
        rd_tdata_string(&view, view.root, "body", html.ptr ? html.ptr : "");
        if (view.failed)
            st = RD_ERR_NOMEM;
    }
    if (st == RD_OK)
        st = rd_template_render(t, view.root, out, d);

    rd_tdata_release(&view);
    free(rendered);
    for (size_t i = 0; i < nh; i++) {
        free(hs[i].text);
        free(hs[i].slug);
    }
    free(hs);
    free(fix.items);
    rd_buf_release(&tmp);
    rd_buf_release(&svgname);
    rd_buf_release(&chunk);
    rd_buf_release(&html);
    rd_buf_release(&toc);
    cmark_node_free(doc);
    cmark_parser_free(parser);
    rd_template_free(t);
    return st;
}
