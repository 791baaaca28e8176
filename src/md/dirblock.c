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

/* udir_find: the site's directive named name, or NULL */
static const struct md_udir *udir_find(const struct md_options *o, struct str name)
{
	for (size_t i = 0; i < o->nudirs; i++)
		if (str_eq_cstr(name, o->udirs[i].name))
			return &o->udirs[i];
	return NULL;
}

static const char *const uarg_types[] = {"string", "int", "number", "bool"};

const char *md_uarg_type_name(int type)
{
	return type >= 0 && type < 4 ? uarg_types[type] : "?";
}

int md_is_builtin_directive(const char *name)
{
	return dir_kind((struct str){name, strlen(name)}) != NULL;
}

int md_uarg_valid(int t, const char *v, size_t n)
{
	char tmp[64];
	if (t == MD_UARG_STRING)
		return 1;
	if (t == MD_UARG_BOOL)
		return (n == 4 && !memcmp(v, "true", 4)) || (n == 5 && !memcmp(v, "false", 5));
	if (!n || n >= sizeof tmp)
		return 0;
	memcpy(tmp, v, n);
	tmp[n] = '\0';
	char *end;
	errno = 0;
	if (t == MD_UARG_INT)
		(void)strtoll(tmp, &end, 10);
	else
		(void)strtod(tmp, &end);
	return *end == '\0' && errno == 0;
}

/* form: how a call of dir is written, for messages: ":::", "::" or ":" */
static const char *form(const struct directive *dir)
{
	return dir->inl ? ":" : dir->leaf ? "::" : ":::";
}

/* udir_check: a call of the site's directive u: each attribute one of its
 * arguments with a value of its type, each required one given */
static void udir_check(struct md_ctx *c, const struct directive *dir, const struct md_udir *u)
{
	if (u->broken)
		return; /* its declaration's errors are told; no others from it */
	const char **names = xcalloc(u->nargs + 1, sizeof *names);
	for (size_t q = 0; q < u->nargs; q++)
		names[q] = u->args[q].name;
	for (size_t j = 0; j < dir->nattrs; j++) {
		const struct dattr *at = &dir->attrs[j];
		struct diag_loc al = {c->in.path, c->in.src, c->in.src_len, at->line, at->col};
		const struct md_uarg *arg = NULL;
		for (size_t q = 0; q < u->nargs && !arg; q++)
			if (str_eq_cstr(at->key, u->args[q].name))
				arg = &u->args[q];
		if (!arg) {
			const char *sug = diag_suggest(at->key.p, at->key.len, names);
			if (c->d)
				diag_error(c->d, &al, "%s%s has no argument '%.*s' (%s%s%s%s declares its arguments)",
					   form(dir), u->name, STR_FMT(at->key), sug ? "did you mean '" : "", sug ? sug : "",
					   sug ? "'? " : "", u->shown);
			c->errors++;
			continue;
		}
		int ok = at->flag ? arg->type == MD_UARG_BOOL : md_uarg_valid(arg->type, at->value.p, at->value.len);
		if (!ok) {
			if (c->d)
				diag_error(c->d, &al, "%s%s: %s must be %s %s, not %s%.*s%s", form(dir), u->name, arg->name,
					   arg->type == MD_UARG_INT ? "an" : "a", uarg_types[arg->type],
					   at->flag ? "a bare flag" : "'", at->flag ? 0 : (int)at->value.len,
					   at->flag ? "" : at->value.p, at->flag ? "" : "'");
			c->errors++;
		}
	}
	struct diag_loc loc = {c->in.path, c->in.src, c->in.src_len, dir->line, dir->col};
	for (size_t q = 0; q < u->nargs; q++)
		if (u->args[q].required && !directive_attr(dir, u->args[q].name)) {
			if (c->d)
				diag_error(c->d, &loc, "%s%s needs %s=\"...\" (%s, required by %s)", form(dir), u->name,
					   u->args[q].name,
					   uarg_types[u->args[q].type], u->shown);
			c->errors++;
		}
	free(names);
}

/* unknown_directive: the error of a name that is neither folio's nor the
 * site's, with the nearest of both */
static void unknown_directive(struct md_ctx *c, const struct directive *dir)
{
	struct diag_loc loc = {c->in.path, c->in.src, c->in.src_len, dir->line, dir->col};
	size_t nk = 0;
	while (dir_kinds[nk].name)
		nk++;
	const char **names = xcalloc(nk + c->o->nudirs + 1, sizeof *names);
	for (size_t q = 0; q < nk; q++)
		names[q] = dir_kinds[q].name;
	for (size_t q = 0; q < c->o->nudirs; q++)
		names[nk + q] = c->o->udirs[q].name;
	const char *sug = diag_suggest(dir->name.p, dir->name.len, names);
	const char *f = form(dir);
	if (c->d) {
		if (sug)
			diag_error(c->d, &loc, "unknown directive '%s%.*s' (did you mean '%s%s'?)", f, STR_FMT(dir->name), f,
				   sug);
		else
			diag_error(c->d, &loc,
				   "unknown directive '%s%.*s' (folio has note, tip, warning, video, animation and "
				   "model3d; a site adds its own as templates/directives/NAME.html)",
				   f, STR_FMT(dir->name));
	}
	c->errors++;
	free(names);
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
		/* a site's template of a name replaces folio's directive */
		const struct md_udir *u = udir_find(c->o, dir->name);
		const struct dir_kind *k = u ? NULL : dir_kind(dir->name);
		if (u) {
			udir_check(c, dir, u);
			const struct dir_kind *own = dir_kind(dir->name);
			if (own && !own->body) { /* a medium's template: its files are checked as folio's */
				check_file(c, dir, "src");
				check_file(c, dir, "poster");
			}
			continue;
		}
		if (!k) {
			unknown_directive(c, dir);
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
			if (!dir->leaf && dir->close_line != dir->line + 1) {
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

/* media_element: the element of medium dir (kind k) into out: a <video>,
 * an animated image's <picture> or a <model-viewer>, sized; NULL, else the
 * reason its file was refused (reported), its span in out instead. */
static const char *media_element(struct md_ctx *c, struct buf *out, const struct dir_kind *k,
                                 const struct directive *dir)
{
	struct str src = dattr_value(dir, "src"), poster = dattr_value(dir, "poster");
	struct str alt = dattr_value(dir, "alt");
	if (!alt.p)
		alt = dattr_value(dir, "caption");
	const char *bad = bad_file(c, directive_attr(dir, "src"));
	if (bad_file(c, directive_attr(dir, "poster")))
		poster = (struct str){NULL, 0}; /* reported: no link to it */
	if (bad) {
		/* reported: shown in place, for a page written all the same */
		buf_puts(out, "<span class=\"image-error\" title=\"");
		esc(out, bad, strlen(bad));
		buf_puts(out, "\">");
		if (alt.p)
			esc(out, alt.p, alt.len);
		else
			esc(out, src.p, src.len);
		buf_puts(out, "</span>");
		return bad;
	}
	if (!strcmp(k->name, "model3d"))
		model_html(c, out, dir, src, poster, alt);
	else
		video_html(c, out, k, dir, src, poster, alt);
	return NULL;
}

/* media_dim: a medium's width or height as its element has it: the
 * author's, else its still's (the poster; an animated image itself), in
 * the arena; NULL when unknown. */
static const char *media_dim(struct md_ctx *c, const struct dir_kind *k, const struct directive *dir, int height)
{
	struct str w = dattr_value(dir, "width"), h = dattr_value(dir, "height");
	if (w.p || h.p) {
		struct str v = height ? h : w;
		return v.p ? arena_strndup(c->a, v.p, v.len) : NULL;
	}
	struct str src = dattr_value(dir, "src"), still = dattr_value(dir, "poster");
	int anim = !strcmp(k->name, "animation") || str_eq_cstr(dattr_value(dir, "mode"), "animation");
	if (anim && is_image_file(src))
		still = src;
	if (bad_file(c, directive_attr(dir, still.p == src.p ? "src" : "poster")))
		return NULL;
	int iw, ih;
	media_size(c, still, &iw, &ih);
	if (!iw || !ih)
		return NULL;
	char n[16];
	snprintf(n, sizeof n, "%d", height ? ih : iw);
	return arena_strndup(c->a, n, strlen(n));
}

/* media_note: for a site's template of a medium, what folio draws of it
 * (md_udir_call.media), kept by the directive's index. */
static void media_note(struct md_ctx *c, const struct dir_kind *k, const struct directive *dir)
{
	if (!c->media) {
		c->media = arena_alloc(c->a, (size_t)c->ndirs * sizeof *c->media);
		memset(c->media, 0, (size_t)c->ndirs * sizeof *c->media);
		c->nmedia = c->ndirs;
	}
	struct md_media *m = &c->media[dir - c->dirs];
	struct buf el;
	buf_init(&el);
	const char *bad = media_element(c, &el, k, dir);
	m->element = (struct str){arena_strndup(c->a, el.p ? el.p : "", el.len), el.len};
	m->error = bad;
	m->width = bad ? NULL : media_dim(c, k, dir, 0);
	m->height = bad ? NULL : media_dim(c, k, dir, 1);
	buf_fini(&el);
}

/* directive_html: the HTML of a directive's opening or closing line: a
 * callout's tags, or a medium whole on its opening line. */
static void directive_html(struct md_ctx *c, struct buf *out, const struct directive *dir, int closing)
{
	const struct dir_kind *k = dir_kind(dir->name);
	if (udir_find(c->o, dir->name)) {
		if (k && !k->body && !closing)
			media_note(c, k, dir);
		/* a marker md_udirs_fill replaces, with the body between */
		buf_printf(out, "<!--%sfolio-udir %ld-->", closing ? "/" : "", (long)(dir - c->dirs));
		c->udir_calls = 1;
		return;
	}
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
	struct buf el;
	buf_init(&el);
	const char *bad = media_element(c, &el, k, dir);
	buf_printf(out, "<figure class=\"%s\">", !bad && !strcmp(k->name, "model3d") ? "model3d" : "media");
	buf_append(out, el.p ? el.p : "", el.len);
	buf_fini(&el);
	struct str caption = dattr_value(dir, "caption");
	if (!bad && caption.p) {
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
		const struct directive *dir = &c->dirs[c->dlines[i].dir];
		directive_html(c, &h, dir, c->dlines[i].closing);
		if (dir->leaf)
			directive_html(c, &h, dir, 1); /* opened and closed on its line */
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

/* ---- inline directives of the site's own: ":name[content]{attrs}" ---- */

static int name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-';
}

/* new_node: a node of type with text, in the document's allocator */
/* made_here: the user data of the text nodes the inline pass makes (a
 * call's content, the text after it), which it reads in turn */
static const char made_here = 0;

static cmark_node *new_node(struct md_ctx *c, cmark_node_type type, const char *text, size_t n)
{
	cmark_node *x = cmark_node_new_with_mem(type, c->mem);
	char *t = xstrndup(text, n);
	cmark_node_set_literal(x, t);
	free(t);
	if (type == CMARK_NODE_TEXT)
		cmark_node_set_user_data(x, (void *)&made_here);
	return x;
}

/* inline_place: where the next call ":name[" of t's paragraph is in the
 * file: its line and column into dir, and the column just after its
 * ']' when a '{' follows (0: none) */
static int inline_place(struct md_ctx *c, cmark_node *t, const char *name, size_t nlen, struct directive *dir,
			const char **attrs, size_t *attrs_len)
{
	*attrs = NULL;
	*attrs_len = 0;
	cmark_node *para = cmark_node_parent(t);
	while (para && (cmark_node_get_type(para) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE)
		para = cmark_node_parent(para); /* the block it is in */
	const char *src = c->in.src ? c->in.src : c->text;
	size_t len = c->in.src ? c->in.src_len : c->len;
	int off_lines = c->in.src ? c->in.line_offset : 0;
	/* a cursor that only goes forward, the calls being in the order of
	 * the text: linear in the document, whatever the number of calls */
	if (para != c->inl_para) {
		c->inl_para = para;
		int line = (para ? cmark_node_get_start_line(para) : 1) + off_lines;
		if (line < c->inl_line) { /* a footnote's, which cmark moves to the end */
			c->inl_at = 0;
			c->inl_line = 1;
		}
		for (; c->inl_line < line && c->inl_at < len; c->inl_at++)
			c->inl_line += src[c->inl_at] == '\n';
	}
	size_t at = c->inl_at;
	for (; at + nlen + 2 <= len; at++)
		if (src[at] == ':' && !memcmp(src + at + 1, name, nlen) && src[at + 1 + nlen] == '[')
			break;
	dir->line = 1;
	dir->col = 1;
	if (at + nlen + 2 > len)
		return 0;
	for (; c->inl_at < at; c->inl_at++)
		c->inl_line += src[c->inl_at] == '\n';
	c->inl_at = at + 1; /* past its ':', on the same line */
	size_t ls = at;
	while (ls && src[ls - 1] != '\n')
		ls--;
	dir->line = c->inl_line;
	dir->col = (int)(at - ls) + 1;
	int depth = 0;
	for (size_t i = at + 1 + nlen + 1; i < len && src[i] != '\n'; i++) {
		if (src[i] == '[')
			depth++;
		else if (src[i] == ']' && depth-- == 0) {
			if (i + 1 >= len || src[i + 1] != '{')
				return 0;
			/* the attributes as written (the text node's have smart
			 * quotes when the site has them) */
			const char *e = memchr(src + i + 2, '\n', len - i - 2);
			*attrs = src + i + 2;
			*attrs_len = e ? (size_t)(e - *attrs) : len - i - 2;
			return (int)(i + 1 - ls) + 2;
		}
	}
	return 0;
}

/* add_dir: a directive of the document made by hand (an inline one), its
 * index */
static long add_dir(struct md_ctx *c, const struct directive *dir)
{
	if (c->ndirs >= c->cap_dirs) {
		/* doubled (in the arena: a copy each time would keep n^2/2 of
		 * them, 14 GB for 20,000 calls) */
		long cap = c->ndirs < 8 ? 16 : c->ndirs * 2;
		struct directive *v = arena_alloc(c->a, (size_t)cap * sizeof *v);
		if (c->ndirs)
			memcpy(v, c->dirs, (size_t)c->ndirs * sizeof *v);
		c->dirs = v;
		c->cap_dirs = cap;
	}
	c->dirs[c->ndirs] = *dir;
	return c->ndirs++;
}

/* inline_attrs: the attributes of an inline call of u, "{...}" at
 * cl.p[*after] (the text node's; asrc[0..alen): the same as written,
 * when known), into dir; *after moved past them. 0, or -1 after an
 * error */
static int inline_attrs(struct md_ctx *c, const struct md_udir *u, struct directive *dir, struct str cl, size_t *after,
			const char *asrc, size_t alen, int attr_col)
{
	size_t end, err_at;
	struct buf msg;
	buf_init(&msg);
	char *copy = asrc ? arena_strndup(c->a, asrc, alen) : arena_strndup(c->a, cl.p + (*after) + 1, cl.len - (*after) - 1);
	size_t clen = asrc ? alen : cl.len - (*after) - 1;
	long na = dattr_parse(c->a, copy, clen, '}', &end, &dir->attrs, &msg, &err_at);
	if (na < 0) {
		struct diag_loc loc = {c->in.path, c->in.src, c->in.src_len, dir->line, dir->col};
		if (c->d)
			diag_error(c->d, &loc, ":%s[...]: %s", u->name, msg.p ? msg.p : "bad attributes");
		c->errors++;
		buf_fini(&msg);
		return -1;
	}
	buf_fini(&msg);
	dir->nattrs = (size_t)na;
	for (size_t i = 0; i < dir->nattrs; i++) {
		dir->attrs[i].line = dir->line;
		dir->attrs[i].col += attr_col ? attr_col - 1 : dir->col - 1;
	}
	if (asrc) {
		/* where the attributes end in the text node: past as many
		 * '}' as their quoted values hold */
		size_t m = 0;
		char q = 0;
		for (size_t i = 0; i < end; i++) {
			if (q && copy[i] == '\\')
				i++;
			else if (q && copy[i] == q)
				q = 0;
			else if (!q && (copy[i] == '"' || copy[i] == '\''))
				q = copy[i];
			else if (q && copy[i] == '}')
				m++;
		}
		size_t j = (*after) + 1;
		for (; j < cl.len; j++)
			if (cl.p[j] == '}' && m-- == 0)
				break;
		(*after) = j + 1;
	} else {
		(*after) += end + 2;
	}
	return 0;
}

/* inline_call: the call that begins at byte k (its ':') of text node t,
 * whose name is the site's directive u: its "]" sought in t and the text
 * nodes after it (the content between may hold other inlines), its
 * attributes right after; the call made two markers around its content.
 * Sets *made when the call was made (else there is no call there). */
static void inline_call(struct md_ctx *c, cmark_node *t, size_t k, size_t nlen, const struct md_udir *u,
			       int *made)
{
	*made = 0;
	struct str lit = md_literal(t);
	size_t open_at = k + 1 + nlen; /* the '[' */
	cmark_node *close = NULL;
	size_t close_at = 0;
	int depth = 0;
	for (cmark_node *n = t; n && !close && c->inl_left; n = cmark_node_next(n)) {
		if (cmark_node_get_type(n) != CMARK_NODE_TEXT)
			continue;
		struct str l = md_literal(n);
		size_t i = n == t ? open_at + 1 : 0, from = i;
		for (; i < l.len && !close; i++) {
			if (l.p[i] == '[')
				depth++;
			else if (l.p[i] == ']' && depth-- == 0)
				close = n, close_at = i;
		}
		/* what the searches read, a budget for the document: calls
		 * nested a thousand deep, or a thousand "[" never closed, each
		 * read the rest of the paragraph */
		c->inl_left -= i - from < c->inl_left ? i - from : c->inl_left;
	}
	if (!close)
		return;
	struct str cl = md_literal(close);
	size_t after = close_at + 1;
	struct directive dir;
	memset(&dir, 0, sizeof dir);
	dir.name = (struct str){u->name, strlen(u->name)};
	const char *asrc;
	size_t alen;
	int attr_col = inline_place(c, t, u->name, nlen, &dir, &asrc, &alen);
	dir.inl = 1;
	dir.parent = -1;
	if (after < cl.len && cl.p[after] == '{' && inline_attrs(c, u, &dir, cl, &after, asrc, alen, attr_col))
		return;
	long idx = add_dir(c, &dir);
	*made = 1;
	udir_check(c, &c->dirs[idx], u);
	c->udir_calls = 1;
	char m[48];
	/* the text after the call, the closing marker, the content's end */
	char *rest = xstrndup(cl.p + (after < cl.len ? after : cl.len), after < cl.len ? cl.len - after : 0);
	char *inner_end = xstrndup(cl.p, close_at);
	char *inner_start = close == t ? NULL : xstrndup(lit.p + open_at + 1, lit.len - open_at - 1);
	char *before = xstrndup(lit.p, k);
	/* the content of a call within one node, copied before t changes */
	char *inner = close == t ? xstrndup(lit.p + open_at + 1, close_at - open_at - 1) : NULL;
	int ml = snprintf(m, sizeof m, "<!--/folio-udir %ld-->", idx);
	cmark_node *cm = new_node(c, CMARK_NODE_HTML_INLINE, m, (size_t)ml);
	if (close == t) {
		/* one node: before, marker, content, marker, rest */
		cmark_node_set_literal(t, before);
		ml = snprintf(m, sizeof m, "<!--folio-udir %ld-->", idx);
		cmark_node *om = new_node(c, CMARK_NODE_HTML_INLINE, m, (size_t)ml);
		cmark_node_insert_after(t, om);
		cmark_node *in = new_node(c, CMARK_NODE_TEXT, inner, strlen(inner));
		cmark_node_insert_after(om, in);
		cmark_node_insert_after(in, cm);
	} else {
		cmark_node_set_literal(close, inner_end);
		cmark_node_insert_after(close, cm);
		cmark_node_set_literal(t, before);
		ml = snprintf(m, sizeof m, "<!--folio-udir %ld-->", idx);
		cmark_node *om = new_node(c, CMARK_NODE_HTML_INLINE, m, (size_t)ml);
		cmark_node_insert_after(t, om);
		cmark_node_insert_after(om, new_node(c, CMARK_NODE_TEXT, inner_start, strlen(inner_start)));
	}
	if (*rest) {
		cmark_node_insert_after(cm, new_node(c, CMARK_NODE_TEXT, rest, strlen(rest)));
	}
	free(rest);
	free(inner_end);
	free(inner_start);
	free(inner);
	free(before);
}

/* inline_calls: the first call in text node t, made (t is then the text
 * before it) */
static void inline_calls(struct md_ctx *c, cmark_node *t)
{
	struct str l = md_literal(t);
	int made = 0;
	for (size_t k = 0; k + 2 < l.len && !made; k++) {
		if (l.p[k] != ':' || (k && name_char(l.p[k - 1])) ||
		    !((l.p[k + 1] >= 'a' && l.p[k + 1] <= 'z') || (l.p[k + 1] >= 'A' && l.p[k + 1] <= 'Z')))
			continue;
		size_t e = k + 1;
		while (e < l.len && name_char(l.p[e]))
			e++;
		if (e >= l.len || l.p[e] != '[')
			continue;
		const struct md_udir *u = udir_find(c->o, (struct str){l.p + k + 1, e - k - 1});
		if (!u)
			continue; /* ":word[" of another kind: text */
		inline_call(c, t, k, e - k - 1, u, &made);
	}
}

/* inline_text: the calls in text node t, then in the text nodes after it
 * that calls made (their content and the text after them: calls in a
 * call's content are made too), up to the next text node of the parse's */
static void inline_text(struct md_ctx *c, cmark_node *t)
{
	for (cmark_node *n = t; n && c->inl_left; n = cmark_node_next(n)) {
		if (cmark_node_get_type(n) != CMARK_NODE_TEXT)
			continue;
		if (n != t && cmark_node_get_user_data(n) != &made_here)
			break;
		inline_calls(c, n);
	}
	if (!c->inl_left && !c->inl_warned) {
		c->inl_warned = 1;
		int line = cmark_node_get_start_line(c->inl_para ? c->inl_para : c->root);
		struct diag_loc loc = diag_src_at(&c->in, line > 0 ? line : 1, 0);
		if (c->d)
			diag_warning(c->d, &loc, "inline directives: their brackets take too long to match (calls nested "
						 "hundreds deep, or '[' never closed); the calls from here on are text "
						 "(hint: close each call's '[' with its ']')");
	}
}

/* md_pass_inline_directives: the site's inline directives in the text
 * (none without a directive of the site's own) */
void md_pass_inline_directives(struct md_ctx *c)
{
	if (!c->o->nudirs || !c->root || c->dirs_failed || c->ndirs < 0 || !memchr(c->text, '[', c->len))
		return;
	c->inl_para = NULL;
	c->inl_at = 0;
	c->inl_line = 1;
	c->inl_left = 8 * c->len + ((size_t)1 << 20);
	c->inl_warned = 0;
	cmark_node **texts = NULL;
	size_t n = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(c->root);
	for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
		cmark_node *x = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(x) != CMARK_NODE_TEXT || !memchr(md_literal(x).p, ':', md_literal(x).len))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			texts = xrealloc(texts, cap * sizeof *texts);
		}
		texts[n++] = x;
	}
	cmark_iter_free(it);
	for (size_t i = 0; i < n; i++)
		inline_text(c, texts[i]);
	free(texts);
}

/* udir_values: the call's value of each of u's arguments (or its default),
 * NUL-terminated copies in the arena; NULL for one neither given nor
 * defaulted */
static const char *const *udir_values(struct md_ctx *c, const struct directive *dir, const struct md_udir *u)
{
	const char **v = arena_alloc(c->a, (u->nargs + 1) * sizeof *v);
	for (size_t q = 0; q < u->nargs; q++) {
		const struct dattr *at = directive_attr(dir, u->args[q].name);
		if (at && at->flag)
			v[q] = "true";
		else if (at)
			v[q] = arena_strndup(c->a, at->value.p, at->value.len);
		else
			v[q] = u->args[q].def;
	}
	v[u->nargs] = NULL;
	return v;
}

/* only_prefixes: s holds nothing but white space and the empty comments
 * directive lines begin with (an empty body) */
static int only_prefixes(struct str s)
{
	static const char pre[] = DIRECTIVE_HTML_PREFIX;
	for (size_t i = 0; i < s.len;) {
		if (s.p[i] == ' ' || s.p[i] == '\t' || s.p[i] == '\n' || s.p[i] == '\r')
			i++;
		else if (s.len - i >= sizeof pre - 1 && !memcmp(s.p + i, pre, sizeof pre - 1))
			i += sizeof pre - 1;
		else
			return 0;
	}
	return 1;
}

/* udir_call: directive i's template's HTML for its content (the HTML
 * between its markers, already filled), appended to h in place of
 * h[from..): the line breaks the template begins and ends with (after
 * its declaration, at the end of its file) are not the call's, so an
 * inline call stays on its line. out and err: the caller's scratch. */
static void udir_call(struct md_ctx *c, long i, struct buf *h, size_t from, struct buf *out, struct buf *err)
{
	const struct directive *dir = &c->dirs[i];
	const struct md_udir *u = udir_find(c->o, dir->name);
	/* the empty comments the lines begin with (DIRECTIVE_HTML_PREFIX)
	 * stay where they are, as folio's own directives leave them: a
	 * template of one of those draws the same bytes */
	struct md_udir_call call = {u, udir_values(c, dir, u), {h->p ? h->p + from : "", h->len - from}, c->in.path,
	                            i < c->nmedia && c->media[i].element.p ? &c->media[i] : NULL};
	/* a medium's (which takes no body): its closing line's comment stays
	 * after the template's HTML, where folio's own leaves it */
	size_t keep = 0;
	if (call.media && only_prefixes(call.content)) {
		keep = call.content.len;
		call.content = (struct str){"", 0};
	}
	buf_reset(out);
	buf_reset(err);
	if (c->o->udir_render(c->o->udir_ctx, &call, out, err)) {
		struct diag_loc loc = {c->in.path, c->in.src, c->in.src_len, dir->line, dir->col};
		if (c->d)
			diag_error(c->d, &loc, "%s%s: %s", form(dir), u->name, err->len ? err->p : "its template failed");
		c->errors++;
		buf_reset(out);
	}
	const char *o = out->p ? out->p : "";
	size_t ol = out->len;
	while (ol && (o[ol - 1] == '\n' || o[ol - 1] == '\r'))
		ol--;
	while (ol && (*o == '\n' || *o == '\r'))
		o++, ol--;
	/* h[from..) becomes the template's HTML, then what is kept (the
	 * comment, copied aside first: it is h's own bytes) */
	char *kept = keep ? xmalloc(keep) : NULL;
	if (keep)
		memcpy(kept, h->p + h->len - keep, keep);
	h->len = from;
	buf_append(h, o, ol);
	if (keep)
		buf_append(h, kept, keep);
	free(kept);
}

/* marker_at: whether h[i..n) starts a marker "<!--folio-udir N-->" (*close
 * 0) or "<!--/folio-udir N-->" (1) of a directive of the document: its
 * length, N in *idx; else 0 */
static size_t marker_at(const struct md_ctx *c, const char *h, size_t i, size_t n, int *close, long *idx)
{
	size_t j = i + 4;
	*close = j < n && h[j] == '/';
	j += (size_t)*close;
	if (n - j < 11 || memcmp(h + j, "folio-udir ", 11))
		return 0;
	j += 11;
	long v = 0;
	size_t d = j;
	while (j < n && h[j] >= '0' && h[j] <= '9' && j - d < 12)
		v = v * 10 + (h[j++] - '0');
	if (j == d || n - j < 3 || memcmp(h + j, "-->", 3) || v >= c->ndirs)
		return 0;
	*idx = v;
	return j + 3 - i;
}

/* fill: html with every call's markers replaced, in the arena, in one
 * pass: a call's content is what its markers enclose once the calls
 * inside it are filled (so a call is filled after the calls in it); with
 * note, each template used noted in the document's deps. A marker
 * without its partner (a directive inside a part cmark dropped) is
 * dropped. */
static struct str fill(struct md_ctx *c, struct str html, int note)
{
	struct buf h, out, err;
	buf_init(&h);
	buf_init(&out);
	buf_init(&err);
	struct frame {
		long i;
		size_t at;
	} *stack = NULL;
	size_t depth = 0, cap = 0;
	const struct md_udir *noted[64];
	size_t nnoted = 0, copied = 0;
	for (size_t i = 0; i + 4 < html.len;) {
		const char *lt = memmem(html.p + i, html.len - i, "<!--", 4);
		if (!lt)
			break;
		i = (size_t)(lt - html.p);
		int close;
		long idx;
		size_t m = marker_at(c, html.p, i, html.len, &close, &idx);
		if (!m) {
			i += 4;
			continue;
		}
		buf_append(&h, html.p + copied, i - copied);
		copied = i += m;
		if (!close) {
			if (depth == cap) {
				cap = cap ? cap * 2 : 16;
				stack = xrealloc(stack, cap * sizeof *stack);
			}
			stack[depth++] = (struct frame){idx, h.len};
			continue;
		}
		size_t f = depth;
		while (f && stack[f - 1].i != idx)
			f--;
		if (!f)
			continue; /* a close without its open */
		depth = f - 1; /* the ones opened inside and not closed: dropped */
		udir_call(c, idx, &h, stack[depth].at, &out, &err);
		const struct md_udir *u = udir_find(c->o, c->dirs[idx].name);
		int seen = !note;
		for (size_t q = 0; q < nnoted && !seen; q++)
			seen = noted[q] == u;
		if (seen)
			continue;
		if (nnoted < sizeof noted / sizeof *noted)
			noted[nnoted++] = u;
		/* an input of the document: its template (model/site.c reads
		 * it again to know whether the cached HTML still holds) */
		if (!c->deps)
			c->deps = xcalloc(1, sizeof *c->deps);
		buf_printf(c->deps, "%016llx %s\n", (unsigned long long)u->hash, u->path);
	}
	buf_append(&h, html.p + copied, html.len - copied);
	free(stack);
	struct str r = {arena_strndup(c->a, h.p ? h.p : "", h.len), h.len};
	buf_fini(&h);
	buf_fini(&out);
	buf_fini(&err);
	return r;
}

void md_udirs_fill(struct md_ctx *c)
{
	if (!c->o->udir_render)
		return;
	c->out->html = fill(c, c->out->html, 1);
}

void md_udirs_fill_summary(struct md_ctx *c)
{
	/* the summary is the first paragraph's HTML again: its calls too
	 * (their errors were told once: the collector drops the same
	 * message at the same place) */
	if (c->o->udir_render && c->out->summary_html.len &&
	    memmem(c->out->summary_html.p, c->out->summary_html.len, "<!--folio-udir ", 15))
		c->out->summary_html = fill(c, c->out->summary_html, 0);
}

void md_directives_free(struct md_ctx *c)
{
	free(c->bad_files);
	c->bad_files = NULL;
	c->nbad_files = 0;
}
