/* blocks.c: the passes over a parsed document that turn its blocks into
 * folio's HTML: highlighted code with options, typeset math, sized local
 * images and figures. They replace nodes by raw HTML nodes, so cmark still
 * renders the document in one pass. */
#include "internal.h"
#include "md/mdmem.h"

#include "md/codeblock.h"
#include "md/diagram.h"
#include "md/mermaid.h"
#include "md/qjs.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* node.h (an internal header of cmark-gfm, see markdown.c): a typeset formula's raw HTML
 * node refers to the one copy of its HTML (see typeset_ref) */
#include <cmark-gfm/node.h>

/* report: a message about the body's line:col to c->d (counted in
 * c->errors if an error). */
static void report(struct md_ctx *c, enum diag_level level, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void report(struct md_ctx *c, enum diag_level level, int line, int col, const char *fmt, ...)
{
	struct diag_loc loc = diag_src_at(&c->in, line, col);
	if (line <= 0)
		loc.line = 0;
	if (c->d) { /* md_render takes no collector in tests of the HTML alone */
		va_list ap;
		va_start(ap, fmt);
		diag_vreport(c->d, level, &loc, NULL, 0, fmt, ap);
		va_end(ap);
	}
	if (level == DIAG_ERROR)
		c->errors++;
}

/* replace: puts raw HTML (a block or an inline, as the node was) in place
 * of n, and frees n. html[len] is a NUL, as a buf's bytes end. */
static void replace(cmark_node *n, const char *html, size_t len, int block)
{
	cmark_node *h = cmark_node_new_with_mem(block ? CMARK_NODE_HTML_BLOCK : CMARK_NODE_HTML_INLINE,
	                                        mdmem_current());
	assert(html[len] == '\0');
	cmark_node_set_literal(h, html);
	cmark_node_insert_before(n, h);
	cmark_node_free(n);
}

static void esc(struct buf *b, const char *s, size_t n)
{
	buf_put_html(b, s, n);
}


/* raw_fits: takes n bytes of the document's HTML budget (MD_RAW_BUDGET);
 * 0, with one error for the document, when they do not fit. */
static int raw_fits(struct md_ctx *c, size_t n, int line, int col, const char *what)
{
	if (!c->raw_over && n <= c->raw_left) {
		c->raw_left -= n;
		return 1;
	}
	if (!c->raw_over)
		report(c, DIAG_ERROR, line, col,
		       "%s: the page's HTML would be larger than %zu MiB (see LIMITS in folio-site(5)); split the page",
		       what, MD_RAW_BUDGET >> 20);
	c->raw_over = 1;
	return 0;
}

/* ---- diagrams ---- */

/* thread_cpu_s: the CPU time this thread has taken (the diagrams' and
 * the formulas' budgets). */
static double thread_cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* diagram_col: the column in the file of byte column dcol of line dline
 * of the diagram src[0..len), fenced at body line fline, column fcol. The
 * body's line ends with the diagram's: cmark took off its start the
 * containers' markers and the fence's indentation, whatever they were;
 * else (a tab cmark expanded) the fence's column is the best guess. */
static int diagram_col(struct md_ctx *c, int fline, int fcol, const char *src, size_t len, int dline, int dcol)
{
	struct str d = {src, len}, b;
	for (int i = 1; i < dline && d.len; i++) { /* the diagram's line dline */
		const char *nl = memchr(d.p, '\n', d.len);
		d = nl ? (struct str){nl + 1, d.len - (size_t)(nl + 1 - d.p)} : (struct str){"", 0};
	}
	if (!md_source_line(c, fline + dline, &b.p, &b.len)) /* the body's line */
		return fcol - 1 + dcol;
	const char *nl = memchr(d.p, '\n', d.len);
	d.len = nl ? (size_t)(nl - d.p) : d.len;
	while (d.len && d.p[d.len - 1] == '\r')
		d.len--;
	while (b.len && b.p[b.len - 1] == '\r')
		b.len--;
	if (b.len >= d.len && memcmp(b.p + b.len - d.len, d.p, d.len) == 0)
		return (int)(b.len - d.len) + dcol;
	return fcol - 1 + dcol;
}

/* diagram: the ```pikchr or ```mermaid block n (lang), src[0..len) at
 * body line:col, drawn as an inline SVG in <figure class="diagram">, with
 * its title (o) as the caption and the drawing's accessible name (without
 * one, the language's word for a diagram). An error is reported at the
 * diagram's own line (pikchr's at the line and column it names, Mermaid's,
 * which name none, at the opening fence), and the page written all the
 * same (folio build --keep-going, folio serve) shows the source in a
 * visible box with the message as its title,
 * <pre class="diagram-error" title="pikchr: MSG">. A diagram that draws
 * nothing is dropped, with a warning. */
static void diagram(struct md_ctx *c, cmark_node *n, const struct code_opts *o, const char *src, size_t len,
		    int line, int col)
{
	const char *lang = str_eq_cstr(o->lang, "mermaid") ? "mermaid" : "pikchr";
	if (o->linenos || o->nhl || o->start != 1) {
		report(c, DIAG_ERROR, line, col,
		       "code block: a %s diagram takes no hl, linenos or start (hint: its one option is title=\"...\")",
		       lang);
		return;
	}
	double budget = c->o->diagram_seconds > 0 ? c->o->diagram_seconds : DIAGRAM_DOC_SECONDS;
	if (c->diagram_s > budget) {
		report(c, DIAG_ERROR, line, col,
		       "%s: the page's diagrams take longer than %g s to draw; the rest are not (split the page)",
		       lang, budget);
		c->diagram_over = 1;
		return;
	}
	struct buf svg, err, out;
	buf_init(&svg);
	buf_init(&err);
	buf_init(&out);
	int eline = 0, ecol = 0, rc;
	const char *untitled = c->o->labels[MD_LABEL_DIAGRAM];
	struct str name = o->title.len ? o->title : str_from(untitled ? untitled : DIAGRAM_UNTITLED);
	double t0 = thread_cpu_s();
	if (*lang == 'm') /* JavaScript: slower under sanitizers (qjs.h) */
		rc = mermaid_render(&svg, src, len, name, (budget - c->diagram_s) * qjs_time_scale(), &err);
	else
		rc = diagram_pikchr(&svg, src, len, name, &err, &eline, &ecol);
	c->diagram_s += thread_cpu_s() - t0;
	if (rc == 1) {
		report(c, DIAG_WARNING, line, col, "%s: the diagram draws nothing", lang);
		cmark_node_free(n);
	} else if (rc < 0) {
		if (eline > 0)
			report(c, DIAG_ERROR, line + eline, diagram_col(c, line, col, src, len, eline, ecol), "%s: %s",
			       lang, err.p);
		else
			report(c, DIAG_ERROR, line, col, "%s: %s", lang, err.p);
		buf_printf(&out, "<pre class=\"diagram-error\" title=\"%s: ", lang);
		esc(&out, err.p, err.len);
		buf_puts(&out, "\"><code>");
		buf_put_html_text(&out, src, len);
		buf_puts(&out, "</code></pre>\n");
	} else {
		buf_puts(&out, "<figure class=\"diagram\">");
		buf_put_str(&out, buf_str(&svg));
		if (o->title.len) {
			buf_puts(&out, "<figcaption>");
			esc(&out, o->title.p, o->title.len);
			buf_puts(&out, "</figcaption>");
		}
		buf_puts(&out, "</figure>\n");
	}
	if (out.len && raw_fits(c, out.len, line, col, "diagram"))
		replace(n, out.p, out.len, 1);
	buf_fini(&svg);
	buf_fini(&err);
	buf_fini(&out);
}

/* ---- code blocks ---- */

/* included: a block with file= given the file's code (md_include) in
 * *code and *clen; its own lines must be empty. 1; or 0 after an error
 * (*code then empty). */
static int included(struct md_ctx *c, struct code_opts *o, int line, int col, const char **code, size_t *clen,
		    const char **url)
{
	struct str own = str_trim((struct str){*code ? *code : "", *clen});
	struct str inc = {"", 0};
	*code = "";
	*clen = 0;
	if (own.len) {
		report(c, DIAG_ERROR, line, col,
		       "code block: file= takes the code from the file, so the block's own lines must be empty "
		       "(hint: remove them, or drop file=)");
		return 0;
	}
	if (md_include(c, o, line, col, &inc, url) < 0)
		return 0;
	*code = inc.p;
	*clen = inc.len;
	return 1;
}

/* code_caption: the <figure> and <figcaption> a code block opens when it
 * is a numbered listing (label: its label's index, else -1) or has a
 * title, appended to out; the title links to url when the included file
 * is published (file= with link; NULL: not). code_block closes the
 * figure. */
static void code_caption(struct md_ctx *c, struct buf *out, const struct code_opts *o, int label, const char *url)
{
	if (label >= 0)
		buf_printf(out, "<figure class=\"code listing\" id=\"%s\"><figcaption class=\"code-title\">",
		           c->out->labels[label].name.p);
	else if (o->title.len)
		buf_puts(out, "<figure class=\"code\"><figcaption class=\"code-title\">");
	else
		return;
	if (label >= 0) {
		md_xref_caption(c, out, label);
		if (o->title.len)
			buf_putc(out, ' ');
	}
	if (url && o->title.len) {
		buf_puts(out, "<a href=\"");
		esc(out, url, strlen(url));
		buf_puts(out, "\">");
	}
	esc(out, o->title.p, o->title.len);
	buf_puts(out, url && o->title.len ? "</a></figcaption>" : "</figcaption>");
}

static void code_block(struct md_ctx *c, cmark_node *n)
{
	const char *info = cmark_node_get_fence_info(n);
	const char *code = cmark_node_get_literal(n);
	size_t clen = code ? strlen(code) : 0;
	int line = cmark_node_get_start_line(n), col = cmark_node_get_start_column(n);
	struct code_opts o;
	struct buf err, hl, out;
	buf_init(&err);
	buf_init(&hl);
	buf_init(&out);
	memset(&o, 0, sizeof o);
	o.start = 1;
	/* The options are folio's only in braces: `cuda {hl="3"}`. Other words
	 * after the language (`ruby startline=3`) are left alone, as in
	 * CommonMark and GitHub. */
	int bad = 0;
	if (info && *info) {
		const char *brace = strchr(info, '{');
		struct str spec = str_from(info);
		if (!brace) {
			size_t k = 0;
			while (k < spec.len && spec.p[k] != ' ' && spec.p[k] != '\t')
				k++;
			spec.len = k;
		}
		if (code_opts_parse(c->a, spec, &o, &err)) {
			report(c, DIAG_ERROR, line, col, "code block: %s", err.p);
			bad = 1;
		}
	}
	const char *url = NULL; /* with file= and link: the file's address */
	if (!bad && o.file.len)
		bad = !included(c, &o, line, col, &code, &clen, &url);
	if (!bad && (str_eq_cstr(o.lang, "pikchr") || str_eq_cstr(o.lang, "mermaid"))) {
		diagram(c, n, &o, code ? code : "", clen, line, col);
		buf_fini(&err);
		return;
	}
	int highlighted = 0;
	/* not after an error: the page is not written, and 1 MB of code takes
	 * the highlighter a second */
	if (o.lang.len && c->o->highlight && !bad && c->hl_left > 0 &&
	    clen + MD_HL_BLOCK_COST > c->hl_left) {
		c->hl_left = 0;
		report(c, DIAG_WARNING, line, col,
		       "code block: not highlighted, nor are the ones after it: a page's code is "
		       "highlighted up to %zu KiB (see LIMITS in folio-site(5)); split the page, or "
		       "give big listings no language",
		       MD_HL_BUDGET >> 10);
	}
	if (o.lang.len && c->o->highlight && !bad && c->hl_left > 0) {
		c->hl_left -= clen + MD_HL_BLOCK_COST;
		if (c->o->highlight(&hl, o.lang.p, o.lang.len, code ? code : "", clen) == 0)
			highlighted = 1;
		else if (!c->o->hl_quiet_unknown && c->o->unknown && c->d) {
			struct diag_loc loc = diag_src_at(&c->in, line, col);
			if (line <= 0)
				loc.line = 0;
			md_unknown_add(c->o->unknown, o.lang.p, o.lang.len, &loc);
		} else if (!c->o->hl_quiet_unknown)
			report(c, DIAG_WARNING, line, col,
			       "unknown language '%.*s' in a code block: shown as plain text (see folio-site(5) for the languages)",
			       STR_FMT(o.lang));
	}
	if (!highlighted) {
		buf_reset(&hl);
		buf_put_html_text(&hl, code ? code : "", clen); /* as cmark escapes code */
	}
	int label = o.label.len ? md_xref_node(c, n) : -1; /* {#lst:name} (xref.c) */
	code_caption(c, &out, &o, label, url);
	/* without options, the same markup as cmark's: <pre><code class="language-x"> */
	buf_puts(&out, o.linenos ? "<pre class=\"linenos\"" : "<pre");
	if (c->o->code_ui) {
		/* a block that scrolls is reached with the keyboard; the theme shows its language */
		buf_puts(&out, " tabindex=\"0\"");
		if (o.lang.len) {
			buf_puts(&out, " data-lang=\"");
			esc(&out, o.lang.p, o.lang.len);
			buf_putc(&out, '"');
		}
	}
	buf_puts(&out, "><code");
	if (o.lang.len) {
		buf_puts(&out, " class=\"language-");
		esc(&out, o.lang.p, o.lang.len);
		buf_putc(&out, '"');
	}
	buf_putc(&out, '>');
	int fits = 1;
	if (o.linenos || o.nhl)
		fits = code_wrap_lines(&out, hl.p ? hl.p : "", hl.len, &o, c->raw_left) == 0;
	else
		buf_append(&out, hl.p ? hl.p : "", hl.len);
	buf_puts(&out, "</code></pre>");
	if (o.title.len || label >= 0)
		buf_puts(&out, "</figure>");
	buf_putc(&out, '\n');
	(void)highlighted;
	if (raw_fits(c, fits ? out.len : (size_t)-1, line, col, "code block"))
		replace(n, out.p, out.len, 1);
	buf_fini(&err);
	buf_fini(&hl);
	buf_fini(&out);
}

/* ---- math ---- */

/* The formulas a document typeset, by TeX (a map for each kind: inline,
 * display): a formula given again (a symbol used all through a post) is
 * neither typeset nor copied again, and its raw HTML nodes all refer to
 * the one copy, in the arena. Keys are the arena's copies. */
struct typeset_done {
	struct str html; /* or the error's message */
	int failed, pos; /* an error, at pos in tex (or -1) */
};

struct typeset_memo {
	struct map kind[2];       /* values: indices into done */
	struct typeset_done *done; /* malloc'd */
	size_t ndone, cap;
};

/* memo_add: tex (the arena's) typeset as display into what; returns it. */
static const struct typeset_done *memo_add(struct typeset_memo *m, struct map_entry *e, struct typeset_done what)
{
	if (m->ndone == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->done = xrealloc(m->done, m->cap * sizeof *m->done);
	}
	e->val.u = m->ndone;
	m->done[m->ndone] = what;
	return &m->done[m->ndone++];
}

/* typeset_ref: puts a raw HTML node that refers to html (which outlives the
 * tree) in place of formula n, and frees n. */
static void typeset_ref(cmark_node *n, struct str html)
{
	cmark_node *h = cmark_node_new_with_mem(CMARK_NODE_HTML_INLINE, mdmem_current());
	/* not owned (alloc 0): cmark neither frees it nor copies it, unless
	 * something asks for the literal as a C string */
	h->as.literal = (cmark_chunk){(unsigned char *)html.p, (bufsize_t)html.len, 0};
	cmark_node_insert_before(n, h);
	cmark_node_free(n);
}

/* formula_error: reports msg about formula n, at pos in its TeX (or -1). */
static void formula_error(struct md_ctx *c, cmark_node *n, int pos, const char *msg)
{
	int line, col;
	md_math_place(c, n, pos, &line, &col);
	report(c, DIAG_ERROR, line, col, "math: %s", msg);
}

/* formula_box: puts in place of failed formula n its TeX in a visible box
 * with the message as its title, <span class="math-error" title="MSG">TeX
 * </span> (display: also "display"), so that a page written all the same
 * (folio build --keep-going, folio serve) shows where and what is wrong. */
static void formula_box(struct md_ctx *c, cmark_node *n, const char *tex, size_t tex_len, int display,
			struct str msg)
{
	struct buf b;
	buf_init(&b);
	buf_puts(&b, display ? "<span class=\"math-error display\" title=\"math: "
			     : "<span class=\"math-error\" title=\"math: ");
	buf_put_html(&b, msg.p, msg.len);
	buf_puts(&b, "\">");
	buf_put_html_text(&b, tex, tex_len);
	buf_puts(&b, "</span>");
	if (!c->raw_over && b.len <= c->raw_left) { /* else left as the TeX it was */
		c->raw_left -= b.len;
		typeset_ref(n, (struct str){arena_strndup(c->a, b.p, b.len), b.len});
	}
	buf_fini(&b);
}

/* formula: typesets n; out and err are the caller's, reused from one
 * formula to the next (170,000 formulas: 340,000 mallocs less). */
static void formula(struct md_ctx *c, cmark_node *n, struct typeset_memo *memo, struct buf *out,
                    struct buf *err)
{
	struct str t = md_tex(n);
	const char *tex = t.p;
	size_t tex_len = t.len;
	int display = md_math_kind(n) == 2;
	struct map_entry *e = map_find(&memo->kind[display], tex, tex_len);
	const struct typeset_done *done = e ? &memo->done[e->val.u] : NULL;
	int line, col;
	if (done && done->failed) { /* a wrong formula given again: the same error, not typeset again */
		formula_error(c, n, done->pos, done->html.p);
		formula_box(c, n, tex, tex_len, display, done->html);
		return;
	}
	if (done) {
		if (done->html.len > c->raw_left) {
			md_math_where(n, &line, &col);
			raw_fits(c, done->html.len, line, col, "math");
			return;
		}
		c->raw_left -= done->html.len;
		typeset_ref(n, done->html);
		return;
	}
	if (c->o->typeset_seconds > 0 && c->math_s > c->o->typeset_seconds) {
		md_math_where(n, &line, &col);
		report(c, DIAG_ERROR, line, col,
		          "math: the page's formulas take longer than %g s to typeset; the rest are not (split the page)",
		          c->o->typeset_seconds);
		c->math_over = 1;
		return;
	}
	buf_reset(out);
	buf_reset(err);
	int pos = -1;
	buf_puts(out, display ? "<span class=\"math display\">" : "<span class=\"math inline\">");
	double t0 = c->o->typeset_seconds > 0 ? thread_cpu_s() : 0;
	int rc = c->o->typeset(c->o->typeset_ctx, tex, tex_len, display, out, err, &pos);
	if (c->o->typeset_seconds > 0)
		c->math_s += thread_cpu_s() - t0;
	if (rc == 0) {
		buf_puts(out, "</span>");
		md_math_where(n, &line, &col);
		if (!raw_fits(c, out->len, line, col, "math"))
			return;
		e = map_put(&memo->kind[display], arena_strndup(c->a, tex, tex_len), tex_len, NULL);
		done = memo_add(memo, e, (struct typeset_done){{arena_strndup(c->a, out->p, out->len), out->len}, 0, -1});
		typeset_ref(n, done->html);
	} else {
		struct str msg = err->p && err->len ? (struct str){err->p, err->len} : STR_LIT("cannot typeset this formula");
		e = map_put(&memo->kind[display], arena_strndup(c->a, tex, tex_len), tex_len, NULL);
		done = memo_add(memo, e, (struct typeset_done){{arena_strndup(c->a, msg.p, msg.len), msg.len}, 1, pos});
		formula_error(c, n, pos, done->html.p);
		formula_box(c, n, tex, tex_len, display, done->html);
	}
}

/* ---- images ---- */

/* alt_text: the text inside an image's brackets, markup dropped. */
static void alt_text(cmark_node *img, struct buf *b)
{
	cmark_iter *it = cmark_iter_new(img);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *k = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || k == img)
			continue;
		cmark_node_type t = cmark_node_get_type(k);
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE)
			buf_puts(b, cmark_node_get_literal(k));
		else if (md_math_kind(k)) { /* formulas in an alt text stay TeX */
			struct str tex = md_tex(k);
			buf_append(b, tex.p, tex.len);
		}
		else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			buf_putc(b, ' ');
	}
	cmark_iter_free(it);
}

/* image_html: <img> for an image node, sized when local. 0, or -1 after an
 * error: then, in place of the image, its alt text (or its URL, without
 * one) in a visible box, <span class="image-error" title="MESSAGE">ALT
 * </span>, which a page written all the same (folio build --keep-going,
 * folio serve) shows; and no link to the missing file for the link check
 * to report a second time. */
static int image_html(struct md_ctx *c, cmark_node *img, int line, int col, int with_title, struct buf *out)
{
	const char *url = cmark_node_get_url(img);
	const char *title = cmark_node_get_title(img);
	struct buf alt;
	buf_init(&alt);
	alt_text(img, &alt);
	const struct md_image *sized = NULL;
	if (url && md_is_local(url) && c->o->static_dir) {
		const char *why = NULL;
		char *path = md_local_path(c, url, &why);
		struct buf msg;
		buf_init(&msg);
		if (!path) {
			buf_printf(&msg, "image '%s': %s", url, why);
		} else {
			const struct md_image *im = md_image_file(c, path);
			if (im->why)
				buf_printf(&msg, "image '%s': %s", url, im->why);
			else if (im->err == ENOENT || im->err == ENOTDIR)
				buf_printf(&msg, "image '%s' not found (%s)", url,
				           url[0] == '/' ? "looked in static/" : "looked beside the post");
			else if (im->err)
				buf_printf(&msg, "image '%s' cannot be read: %s", url, file_strerror(im->err));
			else
				sized = im;
		}
		if (msg.len) {
			report(c, DIAG_ERROR, line, col, "%s", msg.p);
			buf_puts(out, "<span class=\"image-error\" title=\"");
			esc(out, msg.p, msg.len);
			buf_puts(out, "\">");
			if (alt.len)
				esc(out, alt.p, alt.len);
			else
				esc(out, url, strlen(url));
			buf_puts(out, "</span>");
			buf_fini(&msg);
			buf_fini(&alt);
			return -1;
		}
		buf_fini(&msg);
	}
	struct md_picture pic;
	int in_picture = sized && md_picture_start(c, out, url, sized, MD_PICTURE_SIZES, &pic);
	buf_puts(out, "<img src=\"");
	esc(out, url ? url : "", url ? strlen(url) : 0);
	buf_puts(out, "\" alt=\"");
	esc(out, alt.p ? alt.p : "", alt.len);
	buf_putc(out, '"');
	if (in_picture)
		md_picture_img(out, url, &pic);
	if (with_title && title && *title) {
		buf_puts(out, " title=\"");
		esc(out, title, strlen(title));
		buf_putc(out, '"');
	}
	if (sized && sized->w && sized->h)
		buf_printf(out, " width=\"%d\" height=\"%d\"", sized->w, sized->h);
	buf_puts(out, md_img_loading(c));
	buf_putc(out, '>');
	if (in_picture)
		buf_puts(out, "</picture>");
	buf_fini(&alt);
	return 0;
}

/* lone_image: the image that is alone in paragraph p (white space aside). */
static cmark_node *lone_image(cmark_node *p)
{
	cmark_node *img = NULL;
	for (cmark_node *k = cmark_node_first_child(p); k; k = cmark_node_next(k)) {
		cmark_node_type t = cmark_node_get_type(k);
		if (t == CMARK_NODE_IMAGE && !img)
			img = k;
		else if (t == CMARK_NODE_SOFTBREAK || (t == CMARK_NODE_TEXT && !str_trim(str_from(cmark_node_get_literal(k))).len))
			continue;
		else
			return NULL;
	}
	return img;
}

static void figure(struct md_ctx *c, cmark_node *para, cmark_node *img)
{
	int line = cmark_node_get_start_line(para), col = cmark_node_get_start_column(para);
	struct buf out;
	buf_init(&out);
	int label = md_xref_node(c, img); /* {#fig:name} (xref.c): an id and a number */
	if (label >= 0)
		buf_printf(&out, "<figure id=\"%s\">", c->out->labels[label].name.p);
	else
		buf_puts(&out, "<figure>");
	image_html(c, img, line, col, 0, &out);
	const char *title = cmark_node_get_title(img);
	buf_puts(&out, "<figcaption>");
	if (label >= 0) {
		md_xref_caption(c, &out, label);
		if (title && *title)
			buf_putc(&out, ' ');
	}
	esc(&out, title ? title : "", title ? strlen(title) : 0);
	buf_puts(&out, "</figcaption></figure>\n");
	replace(para, out.p, out.len, 1);
	buf_fini(&out);
}

/* image: an image in running text made folio's <img>, its place in the
 * file found from its block's (cmark gives inlines no positions). */
static void image(struct md_ctx *c, cmark_node *img, int line, int col)
{
	char needle[1100];
	const char *u = cmark_node_get_url(img);
	snprintf(needle, sizeof needle, "](%s", u ? u : "");
	md_find_in_source(c, needle, &line, &col);
	if (col > 1)
		col += 2; /* at the address, after "](" */
	struct buf out;
	buf_init(&out);
	image_html(c, img, line, col, 1, &out);
	replace(img, out.p, out.len, 0);
	buf_fini(&out);
}

/* html_images: the <img> tags of a raw HTML node given their sizes and
 * copies (md_html_images). */
static void html_images(struct md_ctx *c, cmark_node *n)
{
	struct buf out;
	buf_init(&out);
	if (md_html_images(c, md_literal(n), &out) &&
	    raw_fits(c, out.len, cmark_node_get_start_line(n), cmark_node_get_start_column(n), "images")) {
		cmark_node_set_literal(n, out.p);
	}
	buf_fini(&out);
}

/* ---- the pass ---- */

struct todo {
	cmark_node *node, *block; /* block: the enclosing block, for a position */
	int kind;                 /* 1 code, 2 math, 3 figure, 4 image, 5 raw HTML with <img> */
};

int md_blocks(struct md_ctx *c, cmark_node *root, md_visit_fn visit, void *visit_ctx)
{
	/* collect first: nodes are replaced, which an iterator must not see */
	struct todo *v = NULL;
	size_t n = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	cmark_node *block = root;
	/* the walk enters everything, for visit; what is inside skip is not
	 * collected, until skip's exit */
	cmark_node *skip = NULL;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		if (visit)
			visit(visit_ctx, node, ev);
		if (skip) {
			if (node == skip && ev == CMARK_EVENT_EXIT)
				skip = NULL;
			continue;
		}
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node_type t = cmark_node_get_type(node);
		int kind = 0;
		if (t == CMARK_NODE_CODE_BLOCK)
			kind = 1;
		else if (md_math_kind(node) && c->o->typeset)
			kind = 2;
		else if (t == CMARK_NODE_PARAGRAPH) {
			block = node;
			cmark_node *img = lone_image(node);
			const char *title = img ? cmark_node_get_title(img) : NULL;
			if (img && ((title && *title) || md_xref_node(c, img) >= 0)) {
				kind = 3;
				skip = node; /* its image is the figure's */
			}
		} else if (t == CMARK_NODE_IMAGE && c->o->static_dir) {
			kind = 4; /* without a site (static_dir), cmark's own <img> */
			/* Its alt text is taken whole, and replacing the image frees
			 * what is inside: an image or a formula there ("![![a](b)](c)")
			 * must not be collected too. */
			skip = node;
		} else if ((t == CMARK_NODE_HTML_BLOCK || t == CMARK_NODE_HTML_INLINE) && c->o->static_dir &&
		           !cmark_node_get_syntax_extension(node) && md_has_img(md_literal(node))) {
			kind = 5; /* the author's own <img> tags */
		} else if (cmark_node_first_child(node) && t != CMARK_NODE_LINK && t != CMARK_NODE_EMPH &&
			 t != CMARK_NODE_STRONG)
			block = node;
		if (!kind)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xrealloc(v, cap * sizeof *v);
		}
		v[n++] = (struct todo){node, block, kind};
	}
	cmark_iter_free(it);
	/* Past the errors a file may print, the rest is not worth typesetting:
	 * the page is not written, and 100,000 formulas KaTeX rejects would
	 * take it half a minute. */
	struct buf mout, merr;
	buf_init(&mout);
	buf_init(&merr);
	struct typeset_memo memo;
	memset(&memo, 0, sizeof memo);
	for (size_t i = 0; i < n && c->errors <= DIAG_MAX_FILE_ERRORS && !c->raw_over && !c->math_over && !c->diagram_over;
	     i++) {
		switch (v[i].kind) {
		case 1: code_block(c, v[i].node); break;
		case 2: formula(c, v[i].node, &memo, &mout, &merr); break;
		case 3: figure(c, v[i].node, lone_image(v[i].node)); break;
		case 5: html_images(c, v[i].node); break;
		default:
			image(c, v[i].node, cmark_node_get_start_line(v[i].block), cmark_node_get_start_column(v[i].block));
		}
	}
	buf_fini(&mout);
	buf_fini(&merr);
	map_fini(&memo.kind[0]);
	map_fini(&memo.kind[1]);
	free(memo.done);
	free(v);
	return c->errors;
}

