/* images.c: img_decode and img_encode, which hand each format to its codec,
 * and what the codecs share: the pixel budget, the EXIF orientation made
 * upright, the colour profile kept, the image's memory. */
#include "images/internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

int img_budget(uint64_t w, uint64_t h, const struct img_limits *lim, struct buf *err)
{
	uint64_t max = lim && lim->max_pixels ? lim->max_pixels : IMG_DEFAULT_MAX_PIXELS;
	if (w == 0 || h == 0) {
		buf_printf(err, "the image is %llu x %llu pixels (a corrupt header)", (unsigned long long)w,
		           (unsigned long long)h);
		return -1;
	}
	/* w and h are at most 2^32 each (every format's field is 32 bits or
	 * less), so the product does not overflow */
	if (w * h <= max)
		return 0;
	buf_printf(err, "the image is %llu x %llu pixels: more than the ", (unsigned long long)w,
	           (unsigned long long)h);
	if (max % 1000000 == 0)
		buf_printf(err, "%llu-megapixel limit", (unsigned long long)(max / 1000000));
	else
		buf_printf(err, "%llu-pixel limit", (unsigned long long)max);
	return -1;
}

void img_alloc(struct img *im, uint32_t w, uint32_t h)
{
	*im = (struct img){.w = w, .h = h, .rgba = xmalloc((size_t)w * h * 4)};
}

void img_keep_icc(struct img *im, const unsigned char *p, size_t n)
{
	/* the profile header is 128 bytes; the data colour space is at 16 */
	if (!p || n < 128 || memcmp(p + 16, "RGB ", 4) != 0)
		return;
	free(im->icc);
	im->icc = xmalloc(n);
	memcpy(im->icc, p, n);
	im->icc_len = n;
}

void img_keep_exif(struct img *im, const unsigned char *p, size_t n)
{
	if (p && n >= 6 && !memcmp(p, "Exif\0\0", 6))
		p += 6, n -= 6;
	if (!p || n < 8 || n > 65533 - 6 || !(!memcmp(p, "II*\0", 4) || !memcmp(p, "MM\0*", 4)))
		return;
	free(im->exif);
	im->exif = xmalloc(n);
	memcpy(im->exif, p, n);
	im->exif_len = n;
	size_t at = image_tiff_orientation_at(im->exif, n);
	if (at) { /* 1: upright, in either byte order */
		im->exif[at] = im->exif[0] == 'I';
		im->exif[at + 1] = im->exif[0] == 'M';
	}
}

int img_opaque(const struct img *im)
{
	size_t n = (size_t)im->w * im->h * 4;
	for (size_t i = 3; i < n; i += 4)
		if (im->rgba[i] != 255)
			return 0;
	return 1;
}

int img_gray(const struct img *im)
{
	size_t n = (size_t)im->w * im->h * 4;
	for (size_t i = 0; i < n; i += 4)
		if (im->rgba[i] != im->rgba[i + 1] || im->rgba[i] != im->rgba[i + 2])
			return 0;
	return 1;
}

void img_orient(struct img *im, unsigned o)
{
	if (o < 2 || o > 8)
		return;
	uint32_t w = im->w, h = im->h;
	uint32_t W = o >= 5 ? h : w, H = o >= 5 ? w : h; /* the upright size */
	const unsigned char *src = im->rgba;
	unsigned char *dst = xmalloc((size_t)w * h * 4);
	/* For each upright pixel (x, y), the stored one (sx, sy) it shows, as
	 * EXIF defines the values: 2 mirrored, 3 turned 180 degrees, 4
	 * flipped, 5 transposed, 6 to be turned 90 degrees clockwise, 7
	 * transversed, 8 to be turned 90 degrees counter-clockwise. */
	for (uint32_t y = 0; y < H; y++) {
		unsigned char *row = dst + (size_t)y * W * 4;
		for (uint32_t x = 0; x < W; x++) {
			uint32_t sx, sy;
			switch (o) {
			case 2: sx = w - 1 - x, sy = y; break;
			case 3: sx = w - 1 - x, sy = h - 1 - y; break;
			case 4: sx = x, sy = h - 1 - y; break;
			case 5: sx = y, sy = x; break;
			case 6: sx = y, sy = h - 1 - x; break;
			case 7: sx = w - 1 - y, sy = h - 1 - x; break;
			default: sx = w - 1 - y, sy = x; break; /* 8 */
			}
			memcpy(row + (size_t)x * 4, src + ((size_t)sy * w + sx) * 4, 4);
		}
	}
	free(im->rgba);
	im->rgba = dst;
	im->w = W;
	im->h = H;
}

int img_decode_scaled(const unsigned char *p, size_t n, const struct img_limits *lim, uint32_t min_w, struct img *out,
                      struct buf *err)
{
	*out = (struct img){0};
	size_t max = lim && lim->max_bytes ? lim->max_bytes : IMG_DEFAULT_MAX_BYTES;
	if (n > max) {
		buf_printf(err, "the file is %zu bytes: more than the limit of %zu bytes", n, max);
		return -1;
	}
	const char *kind = image_kind(p, n);
	int jpeg = kind && strcmp(kind, "jpeg") == 0, png = kind && strcmp(kind, "png") == 0,
	    webp = kind && strcmp(kind, "webp") == 0;
	if (!jpeg && !png && !webp) {
		if (kind)
			buf_printf(err, "a%s %s image: only JPEG, PNG and WebP images can be decoded",
			           strcmp(kind, "svg") && strcmp(kind, "avif") ? "" : "n",
			           strcmp(kind, "svg") == 0 ? "SVG" : strcmp(kind, "avif") == 0 ? "AVIF" : "GIF");
		else if (n == 0)
			buf_puts(err, "an empty file: not an image");
		else
			buf_puts(err, "not a JPEG, PNG or WebP image (its first bytes are none of theirs)");
		return -1;
	}
	/* The size the header gives, before any library sees the data (each
	 * decoder checks it again from what its library read). */
	int w, h;
	if (image_size(p, n, &w, &h) && img_budget((uint64_t)w, (uint64_t)h, lim, err) < 0)
		return -1;
	if (jpeg)
		return img_jpeg_decode(p, n, lim, min_w, out, err);
	if (png)
		return img_png_decode(p, n, lim, out, err);
	return img_webp_decode(p, n, lim, out, err);
}

int img_decode(const unsigned char *p, size_t n, const struct img_limits *lim, struct img *out, struct buf *err)
{
	return img_decode_scaled(p, n, lim, 0, out, err);
}

int img_encode(const struct img *in, const struct img_encode_opts *o, struct buf *out, struct buf *err)
{
	if (!in->rgba || in->w == 0 || in->h == 0) {
		buf_puts(err, "an empty image cannot be encoded");
		return -1;
	}
	if (o->quality < 0 || o->quality > 100) {
		buf_printf(err, "quality %d: it is 1 to 100 (or 0, the default)", o->quality);
		return -1;
	}
	struct img bare; /* the metadata not asked for: stripped */
	if (!o->keep_metadata && in->exif) {
		bare = *in;
		bare.exif = NULL;
		bare.exif_len = 0;
		in = &bare;
	}
	switch (o->format) {
	case IMG_JPEG:
		return img_jpeg_encode(in, o->quality ? o->quality : 82, out, err);
	case IMG_PNG:
		if (o->effort < 0 || o->effort > 9) {
			buf_printf(err, "PNG effort %d: it is 1 to 9 (or 0, the default)", o->effort);
			return -1;
		}
		return img_png_encode(in, o->effort ? o->effort : 6, out, err);
	case IMG_WEBP:
		return img_webp_encode(in, o, out, err);
	case IMG_AVIF:
		return img_avif_encode(in, o->quality ? o->quality : 60, out, err);
	}
	buf_printf(err, "unknown image format %d", (int)o->format);
	return -1;
}

void img_free(struct img *im)
{
	if (!im)
		return;
	free(im->rgba);
	free(im->icc);
	free(im->exif);
	*im = (struct img){0};
}
