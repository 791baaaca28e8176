/* htmlimg.c: the <img> tags an author writes in raw HTML given what a
 * Markdown image gets: the local file's width and height, the <picture>
 * of its resized copies, and the loading attributes. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* An attribute of a tag, as written: its name, and its value (p NULL:
 * none, as in "<img ismap>"); whole: the bytes of the attribute. */
struct hattr {
	struct str name, value, whole;
};

enum { HTMLIMG_MAX_ATTRS = 32 };

static int name_byte(unsigned char ch)
{
	return ch > ' ' && ch != '>' && ch != '/' && ch != '=' && ch != '"' && ch != '\'' && ch != '<';
}

static const char *skip_space(const char *p, const char *e)
{
	while (p < e && md_is_space((unsigned char)*p))
		p++;
	return p;
}

/* parse_attrs: the attributes of the tag whose name ends at p, up to its
 * '>', into at[] (at most HTMLIMG_MAX_ATTRS: more, and the tag is left
 * as written); returns how many, *end after the '>'; -1 when the tag does
 * not end, or holds too many. */
static int parse_attrs(const char *p, const char *e, struct hattr *at, const char **end)
{
	int n = 0;
	for (;;) {
		p = skip_space(p, e);
		if (p < e && *p == '/' && p + 1 < e && p[1] == '>')
			p++;
		if (p >= e)
			return -1;
		if (*p == '>') {
			*end = p + 1;
			return n;
		}
		const char *name = p;
		while (p < e && name_byte((unsigned char)*p))
			p++;
		if (p == name || n == HTMLIMG_MAX_ATTRS)
			return -1;
		struct hattr *a = &at[n++];
		a->name = (struct str){name, (size_t)(p - name)};
		a->value = (struct str){NULL, 0};
		const char *q = skip_space(p, e);
		if (q < e && *q == '=') {
			q = skip_space(q + 1, e);
			if (q < e && (*q == '"' || *q == '\'')) {
				const char *close = memchr(q + 1, *q, (size_t)(e - q - 1));
				if (!close)
					return -1;
				a->value = (struct str){q + 1, (size_t)(close - q - 1)};
				p = close + 1;
			} else {
				const char *v = q;
				while (q < e && !md_is_space((unsigned char)*q) && *q != '>')
					q++;
				a->value = (struct str){v, (size_t)(q - v)};
				p = q;
			}
		}
		a->whole = (struct str){name, (size_t)(p - name)};
	}
}

static const struct hattr *find(const struct hattr *at, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (at[i].name.len == strlen(name) && !strncasecmp(at[i].name.p, name, at[i].name.len))
			return &at[i];
	return NULL;
}

/* digits: v's value when it is a plain number of pixels ("640"); else 0. */
static int digits(const struct hattr *a)
{
	if (!a || !a->value.p || !a->value.len || a->value.len > 5)
		return 0;
	int v = 0;
	for (size_t i = 0; i < a->value.len; i++) {
		if (a->value.p[i] < '0' || a->value.p[i] > '9')
			return 0;
		v = v * 10 + (a->value.p[i] - '0');
	}
	return v;
}

/* local_image: the sized local image an <img>'s src names, or NULL: not
 * local, not found (the link check says so), not an image, or an address
 * written with a character reference or a quote (left as written). */
static const struct md_image *local_image(struct md_ctx *c, const struct hattr *src, char **url)
{
	if (!src || !src->value.p || !src->value.len || memchr(src->value.p, '&', src->value.len) ||
	    memchr(src->value.p, '"', src->value.len))
		return NULL;
	*url = xstrndup(src->value.p, src->value.len);
	const char *why = NULL;
	char *path = md_is_local(*url) ? md_local_path(c, *url, &why) : NULL;
	const struct md_image *im = path ? md_image_file(c, path) : NULL;
	if (im && !im->why && !im->err && im->w > 0 && im->h > 0)
		return im;
	free(*url);
	*url = NULL;
	return NULL;
}

/* one_img: the <img> tag with attributes at[0..n) written anew to out:
 * in a <picture> of its copies when it has some, its src first (as
 * md_image_at looks for it), the author's other attributes as written,
 * then what it lacks: its size, its loading. 0 when it is left as it is
 * (written nothing): a srcset of the author's, or no sized local file. */
static int one_img(struct md_ctx *c, struct buf *out, const struct hattr *at, int n)
{
	if (find(at, n, "srcset") || find(at, n, "slot"))
		return 0;
	char *url = NULL;
	const struct md_image *im = local_image(c, find(at, n, "src"), &url);
	if (!im)
		return 0;
	const struct hattr *aw = find(at, n, "width"), *ah = find(at, n, "height");
	/* a width of the author's in pixels: the picture is no wider */
	char sizes[160];
	int pw = digits(aw);
	if (pw)
		snprintf(sizes, sizeof sizes, "(min-width: 49rem) min(%dpx, 46rem), min(%dpx, calc(100vw - 2.5rem))", pw,
		         pw);
	struct md_picture pic;
	int in_picture = md_picture_start(c, out, url, im, pw ? sizes : MD_PICTURE_SIZES, &pic);
	buf_puts(out, "<img src=\"");
	buf_puts(out, url);
	buf_putc(out, '"');
	for (int i = 0; i < n; i++)
		if (!(at[i].name.len == 3 && !strncasecmp(at[i].name.p, "src", 3))) {
			buf_putc(out, ' ');
			buf_append(out, at[i].whole.p, at[i].whole.len);
		}
	if (in_picture)
		md_picture_img(out, url, &pic);
	if (!aw && !ah)
		buf_printf(out, " width=\"%d\" height=\"%d\"", im->w, im->h);
	else if (pw && !ah) /* the height that keeps the shape, so the page does not move */
		buf_printf(out, " height=\"%d\"", (int)((long long)im->h * pw / im->w));
	const char *load = md_img_loading(c);
	if (!find(at, n, "loading") && !find(at, n, "fetchpriority") && !find(at, n, "decoding"))
		buf_puts(out, load);
	buf_putc(out, '>');
	if (in_picture)
		buf_puts(out, "</picture>");
	free(url);
	return 1;
}

/* find_ci: the first needle (lower case) in p[0..n), in any case; NULL. */
static const char *find_ci(const char *p, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (!strncasecmp(p + i, needle, k))
			return p + i;
	return NULL;
}

/* tag_is: the tag at p ('<' at p[0]) is named name (then a space, '/' or '>'). */
static int tag_is(const char *p, const char *e, const char *name)
{
	size_t n = strlen(name);
	return (size_t)(e - p) > n + 1 && !strncasecmp(p + 1, name, n) &&
	       (md_is_space((unsigned char)p[n + 1]) || p[n + 1] == '>' || p[n + 1] == '/');
}

int md_has_img(struct str html)
{
	for (const char *p = html.p, *e = html.p + html.len; (p = memchr(p, '<', (size_t)(e - p))); p++)
		if (tag_is(p, e, "img") || tag_is(p, e, "picture") || tag_is(p, e, "/picture"))
			return 1;
	return 0;
}

int md_html_images(struct md_ctx *c, struct str html, struct buf *out)
{
	const char *p = html.p, *e = html.p + html.len, *copied = p;
	int changed = 0;
	struct hattr at[HTMLIMG_MAX_ATTRS];
	struct buf tag;
	buf_init(&tag);
	if (c->in_picture) { /* an author's <picture> that an earlier node opened */
		const char *close = find_ci(p, html.len, "</picture");
		if (!close)
			return 0;
		c->in_picture = 0;
		p = close;
	}
	while ((p = memchr(p, '<', (size_t)(e - p)))) {
		if (e - p >= 4 && !memcmp(p, "<!--", 4)) { /* a comment: passed over whole */
			const char *end = memmem(p + 4, (size_t)(e - p - 4), "-->", 3);
			if (!end)
				break;
			p = end + 3;
			continue;
		}
		/* what an author put in a <picture>, a script or a style is theirs */
		static const char *const theirs[] = {"picture", "script", "style", "textarea", NULL};
		int skipped = 0;
		for (size_t k = 0; theirs[k] && !skipped; k++)
			if (tag_is(p, e, theirs[k])) {
				char close[16];
				snprintf(close, sizeof close, "</%s", theirs[k]);
				const char *end = find_ci(p, (size_t)(e - p), close);
				p = end ? end + strlen(close) : e;
				/* an inline <picture>: its <img> is a node of its own */
				c->in_picture = !end && k == 0;
				skipped = 1;
			}
		if (skipped)
			continue;
		const char *end;
		int n;
		if (!tag_is(p, e, "img") || (n = parse_attrs(p + 4, e, at, &end)) < 0) {
			p++;
			continue;
		}
		buf_reset(&tag);
		if (one_img(c, &tag, at, n)) {
			buf_append(out, copied, (size_t)(p - copied));
			buf_append(out, tag.p, tag.len);
			copied = end;
			changed = 1;
		} else {
			c->imgs_written++; /* an image all the same: the next is not the first */
		}
		p = end;
	}
	buf_fini(&tag);
	if (changed)
		buf_append(out, copied, (size_t)(e - copied));
	return changed;
}
