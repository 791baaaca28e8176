/* variants.c: the resized copies of the site's JPEG and PNG images (see
 * variants.h). */
#include "variants/variants.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/hash.h"
#include "base/pool.h"
#include "cache/cache.h"
#include "files/reader.h"
#include "images/images.h"
#include "images/imagesize.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* An image noted while the static files were copied. */
struct vimage {
	char *rel;            /* its name in the output ("img/a.png") */
	char *path;           /* its file, or NULL: bytes holds it */
	unsigned char *bytes; /* malloc'd, or NULL */
	size_t len;
	int png;
	/* made by a worker: the copies, each its name and bytes (malloc'd) */
	struct vcopy {
		char *rel;
		unsigned char *bytes;
		size_t len;
	} copies[MD_PICTURE_MAX];
	uint64_t keys[MD_PICTURE_MAX]; /* their cache files' */
	int ncopies, nkeys;
	size_t made, cached;
	char *err; /* why no copies were made (malloc'd), or NULL */
};

struct variants {
	struct diag *d;
	const char *site_dir;
	struct variants_settings set;
	const struct output_sink *inner;
	struct output_sink sink;
	int read_only, cache_ok;
	struct vimage *v;
	size_t n, cap;
	struct pool_queue q; /* of the batch being made */
	size_t from;         /* its first image */
};

/* is_raster: whether rel names a JPEG or a PNG (by its extension; its
 * bytes say which, later). */
static int is_raster(const char *rel)
{
	const char *dot = strrchr(rel, '.');
	if (!dot || strchr(dot, '/'))
		return 0;
	return !strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg") || !strcasecmp(dot, ".png");
}

static struct vimage *note(struct variants *v, const char *rel)
{
	if (v->n && !strcmp(v->v[v->n - 1].rel, rel))
		return NULL; /* copy handed it back to write: noted already */
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		v->v = xrealloc(v->v, v->cap * sizeof *v->v);
	}
	struct vimage *im = &v->v[v->n++];
	memset(im, 0, sizeof *im);
	im->rel = xstrndup(rel, strlen(rel));
	return im;
}

static int sink_write(void *ctx, const char *rel, const void *data, size_t len)
{
	struct variants *v = ctx;
	struct vimage *im;
	if (is_raster(rel) && (im = note(v, rel))) {
		im->bytes = xmalloc(len ? len : 1);
		memcpy(im->bytes, data, len);
		im->len = len;
	}
	return v->inner->write(v->inner->ctx, rel, data, len);
}

static int sink_copy(void *ctx, const char *rel, const char *path, const struct stat *st)
{
	struct variants *v = ctx;
	struct vimage *im;
	if (is_raster(rel) && (im = note(v, rel)))
		im->path = xstrndup(path, strlen(path));
	return v->inner->copy ? v->inner->copy(v->inner->ctx, rel, path, st) : 1;
}

struct variants *variants_new(struct diag *d, const char *site_dir, const struct variants_settings *set,
			      const struct output_sink *inner, int read_only)
{
	struct variants *v = xcalloc(1, sizeof *v);
	v->d = d;
	v->site_dir = site_dir;
	v->set = *set;
	v->inner = inner;
	v->read_only = read_only;
	v->sink = (struct output_sink){sink_write, sink_copy, v};
	v->cache_ok = read_only || cache_open_dir(site_dir, CACHE_IMAGES) == 0;
	return v;
}

const struct output_sink *variants_sink(struct variants *v)
{
	return &v->sink;
}

/* How hard libwebp works on a copy (img_encode_opts' effort): a photograph's
 * lossy copy at method 2, a screenshot's lossless copy at preset 1. On the
 * bench's 40 images (make bench, BENCHMARKS.md) libwebp took 78% of a cold
 * build at its defaults (method 4, preset 6); at these, the build's user
 * CPU fell from 42.5 s to 23.2 s (Hugo 0.111.3: 85.9 s), for WebP copies
 * 6.8% larger (photographs, at the same quality) and 18% larger
 * (screenshots, still lossless). */
enum { VARIANT_WEBP_METHOD = 2, VARIANT_WEBP_LOSSLESS_PRESET = 1 };

/* copy_key: what a copy depends on besides the image's bytes: the copy's
 * width and format (fmt: "webp", "avif", or NULL: the image's own), its
 * quality, and the codec's version. */
static uint64_t copy_key(const struct variants *v, uint64_t bytes_hash, int width, const char *fmt, int png)
{
	struct hasher h;
	hasher_begin(&h, 0);
	static const char tag[] = "folio-variant 1";
	hasher_add(&h, tag, sizeof tag);
	hasher_add_cstr(&h, img_codecs()); /* the codecs and their versions */
	hasher_add_u64(&h, bytes_hash);
	int webp = fmt && !strcmp(fmt, "webp"), avif = fmt && !strcmp(fmt, "avif");
	int k[6] = {width, webp, webp ? v->set.quality_webp : avif ? v->set.quality_avif : png ? 0 : v->set.quality_jpeg,
		    png, v->set.keep_metadata, webp ? (png ? VARIANT_WEBP_LOSSLESS_PRESET : VARIANT_WEBP_METHOD) : 0};
	hasher_add(&h, k, sizeof k);
	if (avif) /* the library the system has: its version, and its encoder */
		hasher_add_cstr(&h, img_avif_version() ? img_avif_version() : "");
	uint64_t key = hasher_digest(&h);
	return key ? key : 1;
}

/* from_cache: the copy of key, read from the cache into c: 1, else 0.
 * A file whose head does not say an image width wide (damaged, or not
 * folio's) is not used: the copy is made again. */
static int from_cache(const struct variants *v, uint64_t key, int width, struct vcopy *c)
{
	if (!v->cache_ok)
		return 0;
	char *path = cache_key_path(v->site_dir, CACHE_IMAGES, key);
	size_t len;
	char *bytes = cache_read(path, CACHE_IMAGES, &len);
	free(path);
	int w = 0, h = 0;
	if (!bytes || !image_size((const unsigned char *)bytes, len, &w, &h) || w != width) {
		free(bytes);
		return 0;
	}
	c->bytes = (unsigned char *)bytes;
	c->len = len;
	return 1;
}

static void to_cache(const struct variants *v, uint64_t key, const struct vcopy *c)
{
	if (!v->cache_ok || v->read_only)
		return;
	char *path = cache_key_path(v->site_dir, CACHE_IMAGES, key);
	cache_write(path, c->bytes, c->len); /* a copy that could not be kept is made again */
	free(path);
}

/* encode: the copy of decoded image src at width (scaled from src's
 * size) in format fmt ("webp", "avif", or NULL: the image's own), into c.
 * 0, or -1 with err. */
static int encode(const struct variants *v, const struct img *src, int width, const char *fmt, int png,
		  struct vcopy *c, struct buf *err)
{
	struct img small;
	const struct img *from = src;
	if ((uint32_t)width < src->w) {
		uint32_t h = (uint32_t)(((uint64_t)src->h * (uint32_t)width + src->w / 2) / src->w);
		if (img_resize(src, (uint32_t)width, h ? h : 1, &small, err))
			return -1;
		from = &small;
	}
	int webp = fmt && !strcmp(fmt, "webp"), avif = fmt && !strcmp(fmt, "avif");
	struct img_encode_opts o = {webp ? IMG_WEBP : avif ? IMG_AVIF : png ? IMG_PNG : IMG_JPEG,
				    webp ? v->set.quality_webp : avif ? v->set.quality_avif : v->set.quality_jpeg,
				    webp && png, webp ? (png ? VARIANT_WEBP_LOSSLESS_PRESET : VARIANT_WEBP_METHOD) : 0,
				    v->set.keep_metadata};
	struct buf out;
	buf_init(&out);
	int rc = img_encode(from, &o, &out, err);
	if (from == &small)
		img_free(&small);
	if (rc) {
		buf_fini(&out);
		return -1;
	}
	c->len = out.len;
	c->bytes = (unsigned char *)buf_detach(&out, NULL);
	return 0;
}

/* make: the copies of im (in a worker): each from the cache, else from
 * the image decoded once. */
static void make(const struct variants *v, struct vimage *im)
{
	if (!im->bytes) {
		struct site_file f = {im->path, im->rel, (size_t)256 << 20, "resize it first, or turn images off", 0};
		im->bytes = (unsigned char *)site_read(NULL, NULL, &f, NULL, &im->len, NULL);
		if (!im->bytes) {
			im->err = xstrndup(strerror(errno), strlen(strerror(errno)));
			return;
		}
	}
	/* as md/ decides from the same bytes: a still JPEG or PNG of known
	 * size (its width as shown: the EXIF orientation applied) */
	const char *kind = image_kind(im->bytes, im->len);
	int w, h;
	if (!kind || (strcmp(kind, "jpeg") && strcmp(kind, "png")) || !image_size(im->bytes, im->len, &w, &h) ||
	    img_animated(im->bytes, im->len))
		return; /* passed through as it is */
	struct buf err;
	buf_init(&err);
	im->png = !strcmp(kind, "png");
	int widths[MD_PICTURE_MAX], own;
	int n = md_picture_widths(v->set.rule, w, widths, &own);
	uint64_t bh = hash_bytes(im->bytes, im->len);
	struct img src = {0};
	int decoded = 0;
	for (int i = 0; i < n && !err.len; i++) {
		const char *fmt = md_picture_format(v->set.rule, own, i);
		struct vcopy *c = &im->copies[im->ncopies];
		uint64_t key = copy_key(v, bh, widths[i], fmt, im->png);
		im->keys[im->nkeys++] = key;
		struct buf name;
		buf_init(&name);
		md_variant_name(&name, im->rel, strlen(im->rel), widths[i], fmt ? fmt : strrchr(im->rel, '.') + 1);
		c->rel = buf_detach(&name, NULL);
		if (from_cache(v, key, widths[i], c)) {
			im->cached++;
			im->ncopies++;
			continue;
		}
		if (!decoded) {
			/* images.h's budget: 64 megapixels, a file of 64 MiB */
			if (img_decode(im->bytes, im->len, NULL, &src, &err))
				break;
			decoded = 1;
		}
		if (encode(v, &src, widths[i], fmt, im->png, c, &err))
			break;
		to_cache(v, key, c);
		im->made++;
		im->ncopies++;
	}
	if (err.len) {
		free(im->copies[im->ncopies].rel);
		im->copies[im->ncopies].rel = NULL;
		im->err = buf_detach(&err, NULL);
	}
	buf_fini(&err);
	if (decoded)
		img_free(&src);
}

static void *worker(void *arg)
{
	struct variants *v = arg;
	size_t a, b;
	while (pool_take(&v->q, &a, &b))
		for (size_t i = a; i < b; i++)
			make(v, &v->v[v->from + i]);
	return NULL;
}

/* hand: im's copies to the inner sink, and its bytes freed; 1 after an
 * error (said). */
static int hand(struct variants *v, struct vimage *im, size_t *made, size_t *cached)
{
	int errors = 0;
	if (im->err) {
		diag_error(v->d, &(struct diag_loc){im->path ? im->path : im->rel, NULL, 0, 0, 0},
			   "image: %s (its resized copies are not made; hint: open it in an image editor and save it "
			   "again, or leave it out of the pages)",
			   im->err);
		errors++;
	}
	for (int k = 0; k < im->ncopies; k++) {
		if (v->inner->write(v->inner->ctx, im->copies[k].rel, im->copies[k].bytes, im->copies[k].len))
			errors++;
		free(im->copies[k].rel);
		free(im->copies[k].bytes);
	}
	im->ncopies = 0;
	*made += im->made;
	*cached += im->cached;
	free(im->bytes);
	im->bytes = NULL;
	return errors;
}

int variants_finish(struct variants *v, size_t *made, size_t *cached)
{
	size_t m = 0, c = 0, nk = 0;
	int errors = 0;
	uint64_t *keys = xmalloc((v->n * MD_PICTURE_MAX + 1) * sizeof *keys);
	/* a batch at a time: the bytes of at most that many images held */
	const size_t batch = 64;
	for (v->from = 0; v->from < v->n; v->from += batch) {
		size_t nb = v->n - v->from < batch ? v->n - v->from : batch;
		pool_queue_init(&v->q, nb, 1);
		int threads = v->set.jobs < 1 ? 1 : v->set.jobs;
		pool_run(threads < (int)nb ? threads : (int)nb, worker, v, 0, 0);
		pool_queue_fini(&v->q);
		for (size_t i = 0; i < nb; i++) {
			struct vimage *im = &v->v[v->from + i];
			memcpy(keys + nk, im->keys, (size_t)im->nkeys * sizeof *keys);
			nk += (size_t)im->nkeys;
			errors += hand(v, im, &m, &c);
		}
	}
	/* the copies of images no longer there (or of old settings) go: a
	 * build that made every copy knows all there are */
	if (!errors && v->cache_ok && !v->read_only)
		cache_sweep_keys(v->site_dir, CACHE_IMAGES, keys, nk);
	free(keys);
	if (made)
		*made = m;
	if (cached)
		*cached = c;
	return errors;
}

void variants_free(struct variants *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		free(v->v[i].rel);
		free(v->v[i].path);
		free(v->v[i].bytes);
		free(v->v[i].err);
		for (int k = 0; k < v->v[i].ncopies; k++) {
			free(v->v[i].copies[k].rel);
			free(v->v[i].copies[k].bytes);
		}
	}
	free(v->v);
	free(v);
}
