/* image.c: the local files a document names (images, and the files of
 * media directives): where they are (static/ for /x.png, the post's
 * bundle for x.png), refused when a link leads outside the site
 * (files/sitefile.h), sized from their first bytes (read by files/reader.h;
 * images/imagesize.h), each looked up once per document; and the place of an
 * image in the file. */
#include "internal.h"

#include "files/reader.h"
#include "files/sitefile.h"
#include "images/images.h"
#include "images/imagesize.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int md_is_local(const char *url)
{
	if (!*url || url[0] == '#' || (url[0] == '/' && url[1] == '/'))
		return 0;
	for (const char *p = url; *p && *p != '/'; p++)
		if (*p == ':')
			return 0; /* a scheme: http:, data:, mailto: */
	return 1;
}

/* MEM_DIR: the folder md_local_path names a document's file held in
 * memory (md_options.assets) under: no path of a real file starts so. */
#define MEM_DIR "\001mem"

/* mem_asset: the file held in memory named url, or NULL. */
static const struct md_asset *mem_asset(const struct md_options *o, const char *name)
{
	for (size_t i = 0; i < o->nassets; i++)
		if (!strcmp(o->assets[i].name, name))
			return &o->assets[i];
	return NULL;
}

char *md_local_path(const struct md_ctx *c, const char *url, const char **why)
{
	if (url[0] != '/' && c->o->nassets && mem_asset(c->o, url)) {
		struct buf m;
		buf_init(&m);
		buf_printf(&m, MEM_DIR "/%s", url);
		return buf_detach(&m, NULL);
	}
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

/* refused: why path, a file the document names, is not read: a link
 * (there or above it) leads outside the site, to nothing or round a
 * circle (malloc'd); NULL when it may be read. */
const char *md_site_real(struct md_ctx *c)
{
	if (c->o->site_real)
		return c->o->site_real;
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
	return c->site_real;
}

static char *refused(struct md_ctx *c, const char *path)
{
	const char *site = md_site_real(c);
	if (!site)
		return NULL;
	char to[PATH_MAX];
	struct buf b;
	buf_init(&b);
	switch (site_where(site, path, to, sizeof to)) {
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
	free(c->site_real);
	c->site_real = NULL;
	c->site_looked = 0;
	for (size_t i = 0; i < c->images.n; i++) {
		struct md_image *im = c->images.e[i].val.p;
		free(im->path);
		free(im->why);
		free(im);
	}
	map_fini(&c->images);
}

/* read_size: the size of the image in the file at path (its first 64 KiB
 * say), if it can be opened (im->err its errno else); whether it gets
 * resized copies: a JPEG, or a PNG that is no animation (img_animated: an APNG's acTL
 * chunk comes before its first IDAT, well inside the head). */
static void read_size(const struct md_options *o, struct md_image *im)
{
	unsigned char head[65536];
	long n;
	const struct md_asset *mem = NULL;
	if (!strncmp(im->path, MEM_DIR "/", sizeof MEM_DIR) && (mem = mem_asset(o, im->path + sizeof MEM_DIR))) {
		n = (long)(mem->len < sizeof head ? mem->len : sizeof head);
		memcpy(head, mem->data, (size_t)n);
	} else {
		n = site_read_head(im->path, head, sizeof head);
	}
	im->err = n < 0 ? errno : 0;
	if (n < 0 || !image_size(head, (size_t)n, &im->w, &im->h))
		return; /* unknown kinds are written without a size */
	const char *kind = image_kind(head, (size_t)n);
	im->resizable = kind && (!strcmp(kind, "jpeg") || !strcmp(kind, "png")) && !img_animated(head, (size_t)n);
}

int md_picture_widths(const struct md_options *o, int w, int *out, int *own)
{
	int n = 0;
	for (int i = 0; i < o->nimage_widths && i < MD_MAX_WIDTHS; i++)
		if (o->image_widths[i] < w)
			out[n++] = o->image_widths[i];
	*own = n;
	for (int f = 0; f < 2; f++) {
		if (!(f ? o->image_avif : o->image_webp))
			continue;
		for (int i = 0; i < *own; i++)
			out[n++] = out[i];
		out[n++] = w; /* and the whole image */
	}
	return n;
}

const char *md_picture_format(const struct md_options *o, int own, int i)
{
	if (i < own)
		return NULL;
	return o->image_webp && i < 2 * own + 1 ? "webp" : "avif";
}

void md_variant_name(struct buf *out, const char *url, size_t url_len, int width, const char *ext)
{
	size_t stem = url_len;
	for (size_t i = url_len; i > 0 && url[i - 1] != '/'; i--)
		if (url[i - 1] == '.') {
			stem = i - 1;
			break;
		}
	buf_append(out, url, stem);
	buf_printf(out, "-%dw.%s", width, ext);
}

const struct md_image *md_image_file(struct md_ctx *c, char *path)
{
	int added;
	struct map_entry *e = map_put(&c->images, path, strlen(path), &added);
	if (!added) {
		free(path);
		return e->val.p;
	}
	struct md_image *im = xcalloc(1, sizeof *im);
	im->path = path; /* the entry's key, which it owns */
	e->val.p = im;
	im->why = strncmp(path, MEM_DIR "/", sizeof MEM_DIR) ? refused(c, path) : NULL;
	if (!im->why)
		read_size(c->o, im);
	return im;
}


/* ---- a picture of resized copies ---- */

/* put_srcset: the srcset and sizes attributes of the copies of image url
 * at widths[0..n) in format ext, and the image itself at width self (0:
 * not listed). */
static void put_srcset(struct buf *out, const char *url, const int *widths, int n, const char *ext, int self,
                       const char *sizes)
{
	buf_puts(out, " srcset=\"");
	struct buf name;
	buf_init(&name);
	for (int i = 0; i < n; i++) {
		buf_reset(&name);
		md_variant_name(&name, url, strlen(url), widths[i], ext);
		buf_put_html(out, name.p, name.len);
		buf_printf(out, " %dw%s", widths[i], i + 1 < n || self ? ", " : "");
	}
	buf_fini(&name);
	if (self) {
		buf_put_html(out, url, strlen(url));
		buf_printf(out, " %dw", self);
	}
	buf_puts(out, "\" sizes=\"");
	buf_put_html(out, sizes, strlen(sizes));
	buf_putc(out, '"');
}

/* put_sources: the <source>s (opened by tag) of the copies of url in the
 * other formats than its own, widths[own..n): AVIF first (the smaller),
 * then WebP, which a browser takes in that order. */
static void put_sources(struct md_ctx *c, struct buf *out, const char *url, const int *widths, int n, int own,
                        const char *tag, const char *sizes)
{
	static const char *const order[] = {"avif", "webp"};
	for (int k = 0; k < 2; k++) {
		int first = -1, count = 0;
		for (int i = own; i < n; i++)
			if (!strcmp(md_picture_format(c->o, own, i), order[k]))
				first = first < 0 ? i : first, count++;
		if (!count)
			continue;
		buf_printf(out, "%s type=\"image/%s\"", tag, order[k]);
		put_srcset(out, url, widths + first, count, order[k], 0, sizes);
		buf_putc(out, '>');
	}
}

/* dark_name: the name of url's dark variant ("/img/a.png" ->
 * "/img/a.dark.png"), appended to out. */
static void dark_name(struct buf *out, const char *url)
{
	const char *dot = strrchr(url, '.');
	size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - url) : strlen(url);
	buf_append(out, url, stem);
	buf_puts(out, ".dark");
	buf_puts(out, url + stem);
}

/* dark_width: the width of the image's dark variant (a.dark.png beside
 * a.png: the picture for a dark page), when there is one that has resized
 * copies too; else 0. */
static int dark_width(struct md_ctx *c, const char *url)
{
	struct buf name;
	buf_init(&name);
	dark_name(&name, url);
	const char *why = NULL;
	char *path = md_local_path(c, name.p, &why);
	buf_fini(&name);
	if (!path)
		return 0;
	const struct md_image *im = md_image_file(c, path);
	return !im->why && !im->err && im->resizable ? im->w : 0;
}

/* dark_sources: the <source>s of url's dark variant (dark_w wide), for a
 * reader whose system is dark: its WebP copies, then its own. */
static void dark_sources(struct md_ctx *c, struct buf *out, const char *url, int dark_w, const char *sizes)
{
	struct buf name;
	buf_init(&name);
	dark_name(&name, url);
	int widths[MD_PICTURE_MAX], own = 0;
	int n = md_picture_widths(c->o, dark_w, widths, &own);
	put_sources(c, out, name.p, widths, n, own, "<source media=\"(prefers-color-scheme: dark)\"", sizes);
	const char *dot = strrchr(name.p, '.');
	buf_puts(out, "<source media=\"(prefers-color-scheme: dark)\"");
	put_srcset(out, name.p, widths, own, dot + 1, dark_w, sizes);
	buf_putc(out, '>');
	buf_fini(&name);
}

int md_picture_plan(struct md_ctx *c, const char *url, const struct md_image *im, const char *sizes,
                    struct md_picture *p)
{
	/* a query or a fragment: not the file's own address, whose copies'
	 * names are made from it */
	if (!im->resizable || im->w <= 0 || strchr(url, '?') || strchr(url, '#'))
		return 0;
	p->n = md_picture_widths(c->o, im->w, p->widths, &p->own);
	p->w = im->w;
	p->sizes = sizes;
	return p->n;
}

int md_picture_start(struct md_ctx *c, struct buf *out, const char *url, const struct md_image *im,
                     const char *sizes, struct md_picture *p)
{
	if (!md_picture_plan(c, url, im, sizes, p))
		return 0;
	buf_puts(out, "<picture>");
	int dark_w = dark_width(c, url);
	if (dark_w)
		dark_sources(c, out, url, dark_w, sizes);
	put_sources(c, out, url, p->widths, p->n, p->own, "<source", sizes);
	return 1;
}

void md_picture_img(struct buf *out, const char *url, const struct md_picture *p)
{
	if (!p->own)
		return;
	const char *dot = strrchr(url, '.');
	put_srcset(out, url, p->widths, p->own, dot && !strchr(dot, '/') ? dot + 1 : "", p->w, p->sizes);
}

const char *md_img_loading(struct md_ctx *c)
{
	/* the page's first image is likely its largest paint: fetched first */
	return c->imgs_written++ == 0 ? " fetchpriority=\"high\" decoding=\"async\"" : " loading=\"lazy\" decoding=\"async\"";
}
