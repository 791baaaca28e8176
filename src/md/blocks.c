/* blocks.c: the passes over a parsed document that turn its blocks into
 * folio's HTML: highlighted code with options, typeset math, sized local
 * images and figures. They replace nodes by raw HTML nodes, so cmark still
 * renders the document in one pass. */
#include "internal.h"
#include "md/mdmem.h"

#include "md/codeblock.h"
#include "md/directive.h"
#include "md/imagesize.h"
#include "files/sitefile.h"
#include "base/hash.h"

#include <assert.h>
#include <cmark-gfm-extension_api.h>
/* node.h (an internal header Debian's libcmark-gfm-dev installs, like the
 * ones markdown.c uses): a typeset formula's raw HTML node refers to the
 * one copy of its HTML (see typeset_ref) */
#include <cmark-gfm/node.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

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

/* ---- code blocks ---- */

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
	if (o.title.len) {
		buf_puts(&out, "<figure class=\"code\"><figcaption class=\"code-title\">");
		esc(&out, o.title.p, o.title.len);
		buf_puts(&out, "</figcaption>");
	}
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
	if (o.title.len)
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

/* formula: typesets n; out and err are the caller's, reused from one
 * formula to the next (170,000 formulas: 340,000 mallocs less). */
/* The formulas a document typeset, by kind and TeX: a formula given again
 * (a symbol used all through a post) is neither typeset nor copied again,
 * and its raw HTML nodes all refer to the one copy, in the arena. */
struct typeset_memo {
	struct typeset_slot {
		uint64_t hash;
		const char *tex; /* NULL: a free slot */
		size_t tex_len;
		int display;
		struct str html; /* or the error's message */
		int failed, pos; /* an error, at pos in tex (or -1) */
	} *slots;
	size_t cap, n;
};

static struct typeset_slot *memo_find(struct typeset_memo *m, uint64_t h, const char *tex, size_t len,
                                      int display)
{
	size_t j = (size_t)h & (m->cap - 1);
	while (m->slots[j].tex) {
		struct typeset_slot *e = &m->slots[j];
		if (e->hash == h && e->display == display && e->tex_len == len && memcmp(e->tex, tex, len) == 0)
			break;
		j = (j + 1) & (m->cap - 1);
	}
	return &m->slots[j];
}

static void memo_grow(struct typeset_memo *m)
{
	struct typeset_memo g = {xcalloc(m->cap ? m->cap * 2 : 64, sizeof *g.slots), m->cap ? m->cap * 2 : 64, m->n};
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].tex)
			*memo_find(&g, m->slots[i].hash, m->slots[i].tex, m->slots[i].tex_len, m->slots[i].display) =
			    m->slots[i];
	free(m->slots);
	*m = g;
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

static double thread_cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* formula_error: reports msg about formula n (tex), at pos in it (or -1). */
static void formula_error(struct md_ctx *c, cmark_node *n, const char *tex, int display, int pos, const char *msg)
{
	int line, col;
	md_math_where(n, &line, &col);
	/* the formula's text starts after its $ or $$; on its first line
	 * the problem's column follows from the offset */
	if (col > 0) {
		col += display ? 2 : 1;
		if (pos >= 0 && !memchr(tex, '\n', (size_t)pos)) {
			col += pos;
		} else if (pos >= 0) {
			/* on a later line of the formula: count its lines; the
			 * column is the offset in that line (formulas spread over
			 * lines are rarely indented) */
			int last = -1;
			for (int i = 0; i < pos; i++)
				if (tex[i] == '\n') {
					line++;
					last = i;
				}
			col = pos - last;
		}
	}
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

static void formula(struct md_ctx *c, cmark_node *n, struct typeset_memo *memo, struct buf *out,
                    struct buf *err)
{
	const char *tex = cmark_node_get_string_content(n);
	size_t tex_len = strlen(tex);
	int display = md_math_kind(n) == 2;
	if ((memo->n + 1) * 2 > memo->cap)
		memo_grow(memo);
	uint64_t h = hash_keyed(tex, tex_len);
	struct typeset_slot *e = memo_find(memo, h, tex, tex_len, display);
	int line, col;
	if (e->tex && e->failed) { /* a wrong formula given again: the same error, not typeset again */
		formula_error(c, n, tex, display, e->pos, e->html.p);
		formula_box(c, n, tex, tex_len, display, e->html);
		return;
	}
	if (e->tex) {
		if (e->html.len > c->raw_left) {
			md_math_where(n, &line, &col);
			raw_fits(c, e->html.len, line, col, "math");
			return;
		}
		c->raw_left -= e->html.len;
		typeset_ref(n, e->html);
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
		*e = (struct typeset_slot){h, arena_strndup(c->a, tex, tex_len), tex_len, display,
		                           {arena_strndup(c->a, out->p, out->len), out->len}, 0, -1};
		memo->n++;
		typeset_ref(n, e->html);
	} else {
		struct str msg = err->p && err->len ? (struct str){err->p, err->len} : STR_LIT("cannot typeset this formula");
		*e = (struct typeset_slot){h, arena_strndup(c->a, tex, tex_len), tex_len, display,
		                           {arena_strndup(c->a, msg.p, msg.len), msg.len}, 1, pos};
		memo->n++;
		formula_error(c, n, tex, display, pos, e->html.p);
		formula_box(c, n, tex, tex_len, display, e->html);
	}
}

/* ---- images ---- */

static int is_local(const char *url)
{
	if (!*url || url[0] == '#' || (url[0] == '/' && url[1] == '/'))
		return 0;
	for (const char *p = url; *p && *p != '/'; p++)
		if (*p == ':')
			return 0; /* a scheme: http:, data:, mailto: */
	return 1;
}

/* local_path: the file of a local image URL (query and fragment dropped,
 * %XX decoded); NULL and *why when it cannot be looked up. Caller frees. */
static char *local_path(const struct md_ctx *c, const char *url, const char **why)
{
	const char *base = url[0] == '/' ? c->o->static_dir : c->o->asset_dir;
	if (!base) {
		*why = "a relative file needs the post to be a bundle (content/posts/SLUG/index.md with the file "
		       "beside it), or a path from static/ such as /img/x.png";
		return NULL;
	}
	struct buf p;
	buf_init(&p);
	buf_puts(&p, base);
	buf_putc(&p, '/');
	for (const char *s = url[0] == '/' ? url + 1 : url; *s && *s != '?' && *s != '#'; s++) {
		if (*s == '%' && s[1] && s[2]) {
			char hex[3] = {s[1], s[2], 0};
			char *end;
			long v = strtol(hex, &end, 16);
			if (!*end && v > 0) {
				buf_putc(&p, (int)v);
				s += 2;
				continue;
			}
		}
		buf_putc(&p, *s);
	}
	if (strstr(p.p, "/../") || strstr(p.p, "/./")) {
		buf_fini(&p);
		*why = "an image path must not contain '..'";
		return NULL;
	}
	return buf_detach(&p, NULL);
}

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
		else if (md_math_kind(k)) /* formulas in an alt text stay TeX */
			buf_puts(b, cmark_node_get_string_content(k));
		else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			buf_putc(b, ' ');
	}
	cmark_iter_free(it);
}

struct md_image {
	char *path; /* NULL: a free slot */
	int err;    /* 0: a file that could be read; else its errno */
	char *why;  /* set: a link outside the site, to nothing or in a circle (never read) */
	int w, h;
};

/* refused: why path, a file the document names, is not read: a link
 * (there or above it) leads outside the site, to nothing or round a
 * circle (malloc'd); NULL when it may be read. */
static char *refused(struct md_ctx *c, const char *path)
{
	if (!c->site_looked) {
		c->site_looked = 1;
		const char *sd = c->o->static_dir;
		size_t n = sd ? strlen(sd) : 0;
		if (n > 7 && !strcmp(sd + n - 7, "/static")) {
			char *dir = xstrndup(sd, n - 7);
			c->site_real = site_root(dir);
			free(dir);
		}
	}
	if (!c->site_real)
		return NULL;
	char to[PATH_MAX];
	struct buf b;
	buf_init(&b);
	switch (site_where(c->site_real, path, to, sizeof to)) {
	case SITE_OUTSIDE:
		buf_printf(&b, "symlink points outside the site (to %s) (hint: folio reads only files inside the site "
			   "folder: copy it into the site)", to);
		break;
	case SITE_LOOP:
		buf_puts(&b, "symlink in a circle of links, which leads to no file");
		break;
	case SITE_DANGLING:
		buf_printf(&b, "symlink to '%s', which does not exist", to);
		break;
	default:
		return NULL;
	}
	return buf_detach(&b, NULL);
}

void md_images_free(struct md_ctx *c)
{
	free(c->bad_files);
	c->bad_files = NULL;
	c->nbad_files = 0;
	free(c->site_real);
	c->site_real = NULL;
	c->site_looked = 0;
	for (size_t i = 0; i < c->cap_images; i++) {
		free(c->images[i].path);
		free(c->images[i].why);
	}
	free(c->images);
	c->images = NULL;
	c->nimages = c->cap_images = 0;
}

/* image_file: what the file at path says of its size, read once per
 * document however often the image appears (40,000 times: 40,000 opens).
 * Takes path. */
static const struct md_image *image_file(struct md_ctx *c, char *path)
{
	if ((c->nimages + 1) * 2 > c->cap_images) {
		size_t cap = c->cap_images ? c->cap_images * 2 : 16;
		struct md_image *t = xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < c->cap_images; i++) {
			if (!c->images[i].path)
				continue;
			size_t j = hash_keyed(c->images[i].path, strlen(c->images[i].path)) & (cap - 1);
			while (t[j].path)
				j = (j + 1) & (cap - 1);
			t[j] = c->images[i];
		}
		free(c->images);
		c->images = t;
		c->cap_images = cap;
	}
	size_t j = hash_keyed(path, strlen(path)) & (c->cap_images - 1);
	while (c->images[j].path) {
		if (strcmp(c->images[j].path, path) == 0) {
			free(path);
			return &c->images[j];
		}
		j = (j + 1) & (c->cap_images - 1);
	}
	struct md_image *im = &c->images[j];
	im->path = path;
	im->w = im->h = 0;
	c->nimages++;
	im->why = refused(c, path);
	int fd = im->why ? -1 : open_regular(path);
	im->err = fd < 0 ? errno : 0;
	if (fd >= 0) {
		unsigned char head[65536];
		size_t n = 0;
		while (n < sizeof head) {
			ssize_t k = read(fd, head + n, sizeof head - n);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break;
			n += (size_t)k;
		}
		close(fd);
		image_size(head, n, &im->w, &im->h); /* unknown kinds are written without a size */
	}
	return im;
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
	int w = 0, h = 0;
	if (url && is_local(url) && c->o->static_dir) {
		const char *why = NULL;
		char *path = local_path(c, url, &why);
		struct buf msg;
		buf_init(&msg);
		if (!path) {
			buf_printf(&msg, "image '%s': %s", url, why);
		} else {
			const struct md_image *im = image_file(c, path);
			if (im->why) {
				buf_printf(&msg, "image '%s': %s", url, im->why);
			} else if (im->err == ENOENT || im->err == ENOTDIR) {
				buf_printf(&msg, "image '%s' not found (%s)", url,
				           url[0] == '/' ? "looked in static/" : "looked beside the post");
			} else if (im->err) {
				buf_printf(&msg, "image '%s' cannot be read: %s", url, file_strerror(im->err));
			} else {
				w = im->w;
				h = im->h;
			}
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
	buf_puts(out, "<img src=\"");
	esc(out, url ? url : "", url ? strlen(url) : 0);
	buf_puts(out, "\" alt=\"");
	esc(out, alt.p ? alt.p : "", alt.len);
	buf_putc(out, '"');
	if (with_title && title && *title) {
		buf_puts(out, " title=\"");
		esc(out, title, strlen(title));
		buf_putc(out, '"');
	}
	if (w && h)
		buf_printf(out, " width=\"%d\" height=\"%d\"", w, h);
	buf_puts(out, " loading=\"lazy\" decoding=\"async\">");
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
	buf_puts(&out, "<figure>");
	image_html(c, img, line, col, 0, &out);
	const char *title = cmark_node_get_title(img);
	buf_puts(&out, "<figcaption>");
	esc(&out, title, strlen(title));
	buf_puts(&out, "</figcaption></figure>\n");
	replace(para, out.p, out.len, 1);
	buf_fini(&out);
}

/* src_lines: indexes where the lines of c->in.src start, once per document. */
static void src_lines(struct md_ctx *c)
{
	if (c->lines)
		return;
	size_t cap = 64;
	c->lines = xmalloc(cap * sizeof *c->lines);
	c->lines[c->nlines++] = 0;
	c->find_left = 4 * c->in.src_len + ((size_t)1 << 20);
	for (const char *p = c->in.src, *end = c->in.src + c->in.src_len; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
		if (c->nlines == cap) {
			cap *= 2;
			c->lines = xrealloc(c->lines, cap * sizeof *c->lines);
		}
		c->lines[c->nlines++] = (size_t)(p - c->in.src) + 1;
	}
}

/* find_in_source: the place of needle in the file within 200 lines after
 * body line `line` (cmark gives no positions to inline nodes: an image's
 * place is found from its block's). The next search from the same block
 * starts after this hit, so that the images of one long paragraph are
 * found in one pass, not each from its top. Leaves line/col alone when
 * not found, or when the document's searches have read four times the
 * file: the images of a reference ("![a][r]", no "](" in the file)
 * would each search the whole long line again. */
static void find_in_source(struct md_ctx *c, const char *needle, int *line, int *col)
{
	if (!c->in.src || !needle || !*needle || *line <= 0)
		return;
	src_lines(c);
	size_t first = (size_t)(*line + c->in.line_offset); /* 1-based, in src */
	if (first > c->nlines)
		return;
	size_t from = c->lines[first - 1];
	if (c->find_block == *line && c->find_next > from)
		from = c->find_next;
	size_t last = first + 200; /* the hit's line, at most */
	size_t to = last < c->nlines ? c->lines[last] : c->in.src_len;
	if (from >= to || to - from > c->find_left)
		return;
	size_t nlen = strlen(needle);
	const char *hit = memmem(c->in.src + from, to - from, needle, nlen);
	c->find_left -= hit ? (size_t)(hit - (c->in.src + from)) + nlen : to - from;
	if (!hit)
		return;
	size_t off = (size_t)(hit - c->in.src);
	c->find_block = *line;
	c->find_next = off + 1;
	size_t lo = first - 1, hi = last < c->nlines ? last : c->nlines; /* the line: lines[l] <= off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line += (int)(lo - (first - 1));
	*col = (int)(off - c->lines[lo]) + 1;
}

static void image(struct md_ctx *c, cmark_node *img, int line, int col)
{
	char needle[1100];
	const char *u = cmark_node_get_url(img);
	snprintf(needle, sizeof needle, "](%s", u ? u : "");
	find_in_source(c, needle, &line, &col);
	if (col > 1)
		col += 2; /* at the address, after "](" */
	struct buf out;
	buf_init(&out);
	image_html(c, img, line, col, 1, &out);
	replace(img, out.p, out.len, 0);
	buf_fini(&out);
}

/* ---- the pass ---- */

struct todo {
	cmark_node *node, *block; /* block: the enclosing block, for a position */
	int kind;                 /* 1 code, 2 math, 3 figure, 4 image */
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
			if (img && title && *title) {
				kind = 3;
				skip = node; /* its image is the figure's */
			}
		} else if (t == CMARK_NODE_IMAGE && c->o->static_dir) {
			kind = 4; /* without a site (static_dir), cmark's own <img> */
			/* Its alt text is taken whole, and replacing the image frees
			 * what is inside: an image or a formula there ("![![a](b)](c)")
			 * must not be collected too. */
			skip = node;
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
	struct typeset_memo memo = {NULL, 0, 0};
	for (size_t i = 0; i < n && c->errors <= DIAG_MAX_FILE_ERRORS && !c->raw_over && !c->math_over; i++) {
		switch (v[i].kind) {
		case 1: code_block(c, v[i].node); break;
		case 2: formula(c, v[i].node, &memo, &mout, &merr); break;
		case 3: figure(c, v[i].node, lone_image(v[i].node)); break;
		default:
			image(c, v[i].node, cmark_node_get_start_line(v[i].block), cmark_node_get_start_column(v[i].block));
		}
	}
	buf_fini(&mout);
	buf_fini(&merr);
	free(memo.slots);
	free(v);
	return c->errors;
}

/* ---- directives ---- */

struct dir_kind {
	const char *name;
	const char *const *attrs; /* NULL-terminated */
	int body;                 /* takes a Markdown body */
	int label;                /* a callout's: its title's MD_LABEL_* */
};

static const char *const callout_attrs[] = {"title", NULL};
static const char *const video_attrs[] = {"src", "poster", "caption", "alt", "mode", "width", "height", NULL};
static const char *const model_attrs[] = {"src", "poster", "caption", "alt", "camera-orbit", "auto-rotate", "width",
	"height", NULL};
static const struct dir_kind dir_kinds[] = {
	{"note", callout_attrs, 1, MD_LABEL_NOTE},
	{"tip", callout_attrs, 1, MD_LABEL_TIP},
	{"warning", callout_attrs, 1, MD_LABEL_WARNING},
	{"video", video_attrs, 0, 0},
	{"animation", video_attrs, 0, 0},
	{"model3d", model_attrs, 0, 0},
	{NULL, NULL, 0, 0},
};

static const struct dir_kind *dir_kind(struct str name)
{
	for (const struct dir_kind *k = dir_kinds; k->name; k++)
		if (str_eq_cstr(name, k->name))
			return k;
	return NULL;
}

static struct str dattr_value(const struct directive *dir, const char *key)
{
	const struct dattr *at = directive_attr(dir, key);
	return at && !at->flag ? at->value : (struct str){NULL, 0};
}

/* check_file: a local file a directive names must exist. */
/* bad_file: the message of a file attribute found wrong, or NULL. */
static const char *bad_file(const struct md_ctx *c, const struct dattr *at)
{
	for (size_t i = 0; at && i < c->nbad_files; i++)
		if (c->bad_files[i].attr == at)
			return c->bad_files[i].msg;
	return NULL;
}

static void check_file(struct md_ctx *c, const struct directive *dir, const char *key)
{
	const struct dattr *at = directive_attr(dir, key);
	if (!at || at->flag || !c->o->static_dir)
		return;
	char *url = xstrndup(at->value.p, at->value.len);
	struct buf msg;
	buf_init(&msg);
	if (is_local(url)) {
		const char *why = NULL;
		char *path = local_path(c, url, &why);
		if (!path) {
			buf_printf(&msg, ":::%.*s %s '%s': %s", STR_FMT(dir->name), key, url, why);
		} else {
			char *no = refused(c, path);
			int fd = no ? -1 : open_regular(path);
			if (no) {
				buf_printf(&msg, ":::%.*s %s '%s': %s", STR_FMT(dir->name), key, url, no);
				free(no);
			} else if (fd >= 0) {
				close(fd);
			} else if (errno == ENOENT || errno == ENOTDIR) {
				buf_printf(&msg, ":::%.*s %s '%s' not found (%s)", STR_FMT(dir->name), key, url,
				           url[0] == '/' ? "looked in static/" : "looked beside the post");
			} else {
				buf_printf(&msg, ":::%.*s %s '%s' cannot be read: %s", STR_FMT(dir->name), key, url,
				           file_strerror(errno));
			}
			free(path);
		}
	}
	if (msg.len) {
		struct diag_loc loc = {c->in.path, c->in.src, c->in.src_len, at->line, at->col};
		if (c->d)
			diag_error(c->d, &loc, "%s", msg.p);
		c->errors++;
		c->bad_files = xrealloc(c->bad_files, (c->nbad_files + 1) * sizeof *c->bad_files);
		c->bad_files[c->nbad_files++] = (struct md_bad_file){at, arena_strndup(c->a, msg.p, msg.len)};
	}
	buf_fini(&msg);
	free(url);
}

int md_directives_check(struct md_ctx *c, const struct directive *dirs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct directive *dir = &dirs[i];
		struct diag_loc loc = {c->in.path, c->in.src, c->in.src_len, dir->line, dir->col};
		const struct dir_kind *k = dir_kind(dir->name);
		if (!k) {
			const char *names[8];
			int m = 0;
			for (const struct dir_kind *q = dir_kinds; q->name; q++)
				names[m++] = q->name;
			names[m] = NULL;
			const char *sug = diag_suggest(dir->name.p, dir->name.len, names);
			if (c->d) {
				if (sug)
					diag_error(c->d, &loc, "unknown directive ':::%.*s' (did you mean ':::%s'?)", STR_FMT(dir->name), sug);
				else
					diag_error(c->d, &loc, "unknown directive ':::%.*s' (folio has note, tip, warning, video, "
							       "animation and model3d)", STR_FMT(dir->name));
			}
			c->errors++;
			continue;
		}
		for (size_t j = 0; j < dir->nattrs; j++) {
			const struct dattr *at = &dir->attrs[j];
			int known = 0;
			for (size_t q = 0; k->attrs[q] && !known; q++)
				known = str_eq_cstr(at->key, k->attrs[q]);
			if (known)
				continue;
			const char *sug = diag_suggest(at->key.p, at->key.len, k->attrs);
			struct diag_loc al = {c->in.path, c->in.src, c->in.src_len, at->line, at->col};
			if (c->d)
				diag_error(c->d, &al, ":::%s has no attribute '%.*s'%s%s%s", k->name, STR_FMT(at->key),
					   sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
			c->errors++;
		}
		if (!k->body) {
			if (!directive_attr(dir, "src")) {
				if (c->d)
					diag_error(c->d, &loc, ":::%s needs src=\"FILE\"", k->name);
				c->errors++;
			}
			if (dir->close_line != dir->line + 1) {
				if (c->d)
					diag_error(c->d, &loc, ":::%s takes no body (close it on the next line with ':::'; "
							       "a caption goes in caption=\"...\")", k->name);
				c->errors++;
			}
			check_file(c, dir, "src");
			check_file(c, dir, "poster");
			if (!strcmp(k->name, "model3d") && !directive_attr(dir, "poster")) {
				/* the still is what readers without script, or before it loads, see */
				if (c->d)
					diag_error(c->d, &loc, ":::model3d needs poster=\"FILE\" (an image of the model, "
							       "shown until the model loads and without JavaScript)");
				c->errors++;
			}
		}
		struct str mode = dattr_value(dir, "mode");
		if (mode.len && !str_eq_cstr(mode, "video") && !str_eq_cstr(mode, "animation")) {
			const struct dattr *at = directive_attr(dir, "mode");
			struct diag_loc al = {c->in.path, c->in.src, c->in.src_len, at->line, at->col};
			if (c->d)
				diag_error(c->d, &al, "mode must be 'video' or 'animation', not '%.*s'", STR_FMT(mode));
			c->errors++;
		}
	}
	return c->errors;
}

static void put_attr(struct buf *out, const char *name, struct str v)
{
	if (!v.p)
		return;
	buf_printf(out, " %s=\"", name);
	esc(out, v.p, v.len);
	buf_putc(out, '"');
}

/* media_size: the width and height of the local image at url (an
 * attribute's value), for a figure the author gave no size: 0 when unknown. */
static void media_size(struct md_ctx *c, struct str url, int *w, int *h)
{
	*w = *h = 0;
	if (!url.p || !url.len || !c->o->static_dir)
		return;
	char *u = xstrndup(url.p, url.len);
	const char *why = NULL;
	char *path = is_local(u) ? local_path(c, u, &why) : NULL;
	free(u);
	if (!path)
		return;
	const struct md_image *im = image_file(c, path);
	if (!im->why && !im->err) {
		*w = im->w;
		*h = im->h;
	}
}

/* put_size: width and height, the author's or else the file's (still, the
 * image that sets the figure's shape), so the page keeps its place while
 * it loads. */
static void put_size(struct md_ctx *c, struct buf *out, struct str w, struct str h, struct str still)
{
	if (w.p || h.p) {
		put_attr(out, "width", w);
		put_attr(out, "height", h);
		return;
	}
	int iw, ih;
	media_size(c, still, &iw, &ih);
	if (iw && ih)
		buf_printf(out, " width=\"%d\" height=\"%d\"", iw, ih);
}

static int is_image_file(struct str src)
{
	static const char *const exts[] = {".gif", ".svg", ".webp", ".png", ".apng", ".avif", NULL};
	for (size_t i = 0; exts[i]; i++) {
		size_t n = strlen(exts[i]);
		if (src.len >= n && strncasecmp(src.p + src.len - n, exts[i], n) == 0)
			return 1;
	}
	return 0;
}

void md_directive_emit(struct buf *out, const struct directive *dir, int closing, void *ctx)
{
	struct md_ctx *c = ctx;
	const struct dir_kind *k = dir_kind(dir->name);
	if (!k) {
		buf_puts(out, closing ? "</div>" : "<div class=\"directive\">");
		return;
	}
	if (k->body) { /* a callout */
		if (closing) {
			buf_puts(out, "</aside>");
			return;
		}
		struct str title = dattr_value(dir, "title");
		buf_printf(out, "<aside class=\"callout callout-%s\" role=\"note\"><p class=\"callout-title\">", k->name);
		/* no title: the kind's name in the site's language */
		const char *words = c->o->labels[k->label];
		if (title.p)
			esc(out, title.p, title.len);
		else if (words)
			esc(out, words, strlen(words));
		else
			buf_putc(out, k->name[0] - 'a' + 'A'), buf_puts(out, k->name + 1);
		buf_puts(out, "</p>");
		return;
	}
	if (closing)
		return; /* the whole element is on the opening line */
	struct str src = dattr_value(dir, "src"), poster = dattr_value(dir, "poster");
	struct str caption = dattr_value(dir, "caption"), alt = dattr_value(dir, "alt");
	struct str w = dattr_value(dir, "width"), h = dattr_value(dir, "height");
	if (!alt.p)
		alt = caption;
	const char *bad = bad_file(c, directive_attr(dir, "src"));
	if (bad_file(c, directive_attr(dir, "poster")))
		poster = (struct str){NULL, 0}; /* reported: no link to it */
	if (bad) {
		/* reported: shown in place, for a page written all the same */
		buf_puts(out, "<figure class=\"media\"><span class=\"image-error\" title=\"");
		esc(out, bad, strlen(bad));
		buf_puts(out, "\">");
		if (alt.p)
			esc(out, alt.p, alt.len);
		else
			esc(out, src.p, src.len);
		buf_puts(out, "</span></figure>");
		return;
	}
	buf_printf(out, "<figure class=\"%s\">", !strcmp(k->name, "model3d") ? "model3d" : "media");
	if (!strcmp(k->name, "model3d")) {
		c->out->has_model3d = 1;
		buf_puts(out, "<model-viewer");
		put_attr(out, "src", src);
		put_attr(out, "poster", poster);
		put_attr(out, "alt", alt);
		put_attr(out, "camera-orbit", dattr_value(dir, "camera-orbit"));
		if (directive_attr(dir, "auto-rotate"))
			buf_puts(out, " auto-rotate");
		put_attr(out, "width", w);
		put_attr(out, "height", h);
		/* the still inside: shown as it is without script (an unknown
		 * element's content), model-viewer's own poster once it runs */
		buf_puts(out, " camera-controls touch-action=\"pan-y\" loading=\"lazy\" reveal=\"auto\"><img slot=\"poster\"");
		put_attr(out, "src", poster);
		put_attr(out, "alt", alt.p ? alt : (struct str){"", 0});
		put_size(c, out, w, h, poster);
		buf_puts(out, " decoding=\"async\"></model-viewer>");
	} else {
		int anim = !strcmp(k->name, "animation") || str_eq_cstr(dattr_value(dir, "mode"), "animation");
		if (anim && is_image_file(src)) {
			/* an animated image: the still poster for readers who prefer
			 * reduced motion, chosen by the browser, no script */
			buf_puts(out, "<picture>");
			if (poster.p) {
				buf_puts(out, "<source media=\"(prefers-reduced-motion: reduce)\"");
				put_attr(out, "srcset", poster);
				buf_putc(out, '>');
			}
			buf_puts(out, "<img");
			put_attr(out, "src", src);
			put_attr(out, "alt", alt.p ? alt : (struct str){"", 0});
			put_size(c, out, w, h, src);
			buf_puts(out, " loading=\"lazy\" decoding=\"async\"></picture>");
		} else {
			if (anim)
				c->out->has_video = 1; /* the page pauses it for reduced motion */
			buf_puts(out, anim ? "<video class=\"animation\" autoplay loop muted playsinline" : "<video controls preload=\"metadata\" playsinline");
			put_attr(out, "src", src);
			put_attr(out, "poster", poster);
			put_size(c, out, w, h, poster);
			put_attr(out, "aria-label", alt);
			buf_puts(out, "></video>");
		}
	}
	if (caption.p) {
		buf_puts(out, "<figcaption>");
		esc(out, caption.p, caption.len);
		buf_puts(out, "</figcaption>");
	}
	buf_puts(out, "</figure>");
}
