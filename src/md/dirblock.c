/* dirblock.c: the directives pass: each directive folio has (note, tip,
 * warning: callouts with a Markdown body; video, animation, model3d:
 * media), its attributes and files checked, and each of its lines, a
 * one-line raw HTML block the parser made (blockext.c), given its HTML:
 * the line's indentation, DIRECTIVE_HTML_PREFIX and the directive's
 * opening or closing tags, so that the body between them stays the
 * Markdown cmark parsed, and the tags nest as the lines do. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void esc(struct buf *b, const char *s, size_t n)
{
	buf_put_html(b, s, n);
}


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

/* bad_file: the message of a file attribute found wrong, or NULL. */
static const char *bad_file(const struct md_ctx *c, const struct dattr *at)
{
	for (size_t i = 0; at && i < c->nbad_files; i++)
		if (c->bad_files[i].attr == at)
			return c->bad_files[i].msg;
	return NULL;
}

/* check_file: a local file a directive names must exist. */
static void check_file(struct md_ctx *c, const struct directive *dir, const char *key)
{
	const struct dattr *at = directive_attr(dir, key);
	if (!at || at->flag || !c->o->static_dir)
		return;
	char *url = xstrndup(at->value.p, at->value.len);
	struct buf msg;
	buf_init(&msg);
	if (md_is_local(url)) {
		const char *why = NULL;
		char *path = md_local_path(c, url, &why);
		if (!path) {
			buf_printf(&msg, ":::%.*s %s '%s': %s", STR_FMT(dir->name), key, url, why);
		} else {
			/* looked up as an image is (once per document): a still's
			 * size serves the figure too */
			const struct md_image *im = md_image_file(c, path);
			if (im->why)
				buf_printf(&msg, ":::%.*s %s '%s': %s", STR_FMT(dir->name), key, url, im->why);
			else if (im->err == ENOENT || im->err == ENOTDIR)
				buf_printf(&msg, ":::%.*s %s '%s' not found (%s)", STR_FMT(dir->name), key, url,
				           url[0] == '/' ? "looked in static/" : "looked beside the post");
			else if (im->err)
				buf_printf(&msg, ":::%.*s %s '%s' cannot be read: %s", STR_FMT(dir->name), key, url,
				           file_strerror(im->err));
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

/* directives_check: every directive must be one folio has, with its
 * attributes, and the files it names must exist. */
static void directives_check(struct md_ctx *c, const struct directive *dirs, size_t n)
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
}

static void put_attr(struct buf *out, const char *name, struct str v)
{
	if (!v.p)
		return;
	buf_printf(out, " %s=\"", name);
	esc(out, v.p, v.len);
	buf_putc(out, '"');
}

/* media_file: the local image or medium at url (an attribute's value),
 * when it could be read; else NULL. */
static const struct md_image *media_file(struct md_ctx *c, struct str url)
{
	if (!url.p || !url.len || !c->o->static_dir)
		return NULL;
	char *u = xstrndup(url.p, url.len);
	const char *why = NULL;
	char *path = md_is_local(u) ? md_local_path(c, u, &why) : NULL;
	free(u);
	if (!path)
		return NULL;
	const struct md_image *im = md_image_file(c, path);
	return im->why || im->err ? NULL : im;
}

/* media_size: the width and height of the local image at url, for a
 * figure the author gave no size: 0 when unknown. */
static void media_size(struct md_ctx *c, struct str url, int *w, int *h)
{
	const struct md_image *im = media_file(c, url);
	*w = im ? im->w : 0;
	*h = im ? im->h : 0;
}

/* still_srcset: the srcset and sizes of a still's resized copies in its
 * own format (a model's or an animation's poster), when it has some. */
static void still_srcset(struct md_ctx *c, struct buf *out, struct str still)
{
	const struct md_image *im = media_file(c, still);
	if (!im)
		return;
	char *u = xstrndup(still.p, still.len);
	struct md_picture pic;
	if (md_picture_plan(c, u, im, MD_PICTURE_SIZES, &pic))
		md_picture_img(out, u, &pic);
	free(u);
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

/* callout_html: a callout's opening or closing tags. */
static void callout_html(struct md_ctx *c, struct buf *out, const struct dir_kind *k, const struct directive *dir,
                         int closing)
{
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
}

/* model_html: a 3D model, <model-viewer> with its still inside. */
static void model_html(struct md_ctx *c, struct buf *out, const struct directive *dir, struct str src,
                       struct str poster, struct str alt)
{
	struct str w = dattr_value(dir, "width"), h = dattr_value(dir, "height");
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
	still_srcset(c, out, poster);
	put_size(c, out, w, h, poster);
	buf_puts(out, " decoding=\"async\"></model-viewer>");
}

/* video_html: a video, or an animation (an animated image, or a video
 * that plays by itself). */
static void video_html(struct md_ctx *c, struct buf *out, const struct dir_kind *k, const struct directive *dir,
                       struct str src, struct str poster, struct str alt)
{
	struct str w = dattr_value(dir, "width"), h = dattr_value(dir, "height");
	int anim = !strcmp(k->name, "animation") || str_eq_cstr(dattr_value(dir, "mode"), "animation");
	if (anim && is_image_file(src)) {
		/* an animated image: the still poster for readers who prefer
		 * reduced motion, chosen by the browser, no script */
		buf_puts(out, "<picture>");
		if (poster.p) {
			buf_puts(out, "<source media=\"(prefers-reduced-motion: reduce)\"");
			struct buf set;
			buf_init(&set);
			still_srcset(c, &set, poster);
			if (set.len)
				buf_append(out, set.p, set.len);
			else
				put_attr(out, "srcset", poster);
			buf_fini(&set);
			buf_putc(out, '>');
		}
		buf_puts(out, "<img");
		put_attr(out, "src", src);
		put_attr(out, "alt", alt.p ? alt : (struct str){"", 0});
		put_size(c, out, w, h, src);
		buf_puts(out, " loading=\"lazy\" decoding=\"async\"></picture>");
		return;
	}
	if (anim)
		c->out->has_video = 1; /* the page pauses it for reduced motion */
	buf_puts(out, anim ? "<video class=\"animation\" autoplay loop muted playsinline"
	                   : "<video controls preload=\"metadata\" playsinline");
	put_attr(out, "src", src);
	put_attr(out, "poster", poster);
	put_size(c, out, w, h, poster);
	put_attr(out, "aria-label", alt);
	buf_puts(out, "></video>");
}

/* directive_html: the HTML of a directive's opening or closing line: a
 * callout's tags, or a medium whole on its opening line. */
static void directive_html(struct md_ctx *c, struct buf *out, const struct directive *dir, int closing)
{
	const struct dir_kind *k = dir_kind(dir->name);
	if (!k) {
		buf_puts(out, closing ? "</div>" : "<div class=\"directive\">");
		return;
	}
	if (k->body) {
		callout_html(c, out, k, dir, closing);
		return;
	}
	if (closing)
		return; /* the whole element is on the opening line */
	struct str src = dattr_value(dir, "src"), poster = dattr_value(dir, "poster");
	struct str caption = dattr_value(dir, "caption"), alt = dattr_value(dir, "alt");
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
	if (!strcmp(k->name, "model3d"))
		model_html(c, out, dir, src, poster, alt);
	else
		video_html(c, out, k, dir, src, poster, alt);
	if (caption.p) {
		buf_puts(out, "<figcaption>");
		esc(out, caption.p, caption.len);
		buf_puts(out, "</figcaption>");
	}
	buf_puts(out, "</figure>");
}

/* Directives whose lines do not pair were found by the parse, which was
 * then made again without them (parse.c): their errors are reported here,
 * in their place among the document's messages, and their lines stay
 * text. Otherwise each line, a raw HTML block of its own, becomes its
 * indentation (as the block has it, after its containers' prefixes),
 * DIRECTIVE_HTML_PREFIX, its directive's HTML and the line's end, and
 * the raw HTML lines the block took after it stay as they were. */
void md_pass_directives(struct md_ctx *c)
{
	if (c->dirs_failed) {
		struct directive *dirs;
		directive_pair(c->a, c->d, &c->in, c->failed_dlines, c->nfailed_dlines, &c->failed_open, &dirs);
		c->errors++;
		return;
	}
	if (!c->ndlines)
		return;
	directives_check(c, c->dirs, (size_t)c->ndirs);
	struct buf h;
	buf_init(&h);
	for (size_t i = 0; i < c->ndlines; i++) {
		cmark_node *n = c->dnodes[i]->node;
		if (!n)
			continue; /* freed with a footnote no one refers to */
		struct str lit = md_literal(n);
		size_t indent = 0;
		while (indent < lit.len && lit.p[indent] == ' ')
			indent++;
		buf_reset(&h);
		buf_append(&h, lit.p, indent);
		buf_puts(&h, DIRECTIVE_HTML_PREFIX);
		directive_html(c, &h, &c->dirs[c->dlines[i].dir], c->dlines[i].closing);
		/* the raw HTML lines it took after it (blockext.c) */
		const char *nl = memchr(lit.p, '\n', lit.len);
		if (nl)
			buf_append(&h, nl, lit.len - (size_t)(nl - lit.p));
		else
			buf_putc(&h, '\n');
		cmark_node_set_literal(n, h.p);
		cmark_node_set_syntax_extension(n, NULL);
		cmark_node_set_user_data_free_func(n, NULL);
		cmark_node_set_user_data(n, NULL);
	}
	buf_fini(&h);
}

void md_directives_free(struct md_ctx *c)
{
	free(c->bad_files);
	c->bad_files = NULL;
	c->nbad_files = 0;
}
