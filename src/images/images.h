/* images.h: raster images decoded, resized and encoded, bytes in and bytes
 * out (no file I/O): JPEG, PNG and WebP decoded to 8-bit RGBA under a
 * pixel budget checked before decoding, resized in linear light, encoded
 * as WebP, JPEG or PNG without metadata; and whether a GIF, WebP or PNG is
 * animated (those are passed through, never decoded).
 *
 * Folder images/: the one place that knows image formats: kinds and sizes
 * from the first bytes (imagesize.h), the codecs (libjpeg-turbo, libpng,
 * libwebp) and the resampler (stb_image_resize2).
 * uses: base.
 *
 * Every function is reentrant (no global state): the build calls them on
 * its threads, one image per thread. Output is deterministic: the same
 * input and options give the same bytes, on every machine. */
#ifndef FOLIO_IMAGES_H
#define FOLIO_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* An image in memory: w * h pixels, 4 bytes each (R, G, B, A; 8 bits; not
 * premultiplied; sRGB or what icc says), rows top to bottom, upright.
 * rgba and icc are malloc'd and owned by the image (img_free). */
struct img {
	uint32_t w, h;
	unsigned char *rgba;
	/* the ICC colour profile of the pixels, an RGB one only (a profile
	 * that describes another colour space than the RGBA's is dropped),
	 * or NULL with icc_len 0 (sRGB) */
	unsigned char *icc;
	size_t icc_len;
	/* the EXIF metadata (camera, date, place) the file held, as a TIFF
	 * structure ("II*\0" or "MM\0*" first), its orientation made 1 (the
	 * pixels are upright), or NULL with exif_len 0; encoders write it only
	 * when asked (img_encode_opts' keep_metadata) */
	unsigned char *exif;
	size_t exif_len;
};

/* The budget of a decode, checked from the file's header before any pixel
 * is decoded: max_pixels (w * h; decoding takes about 4 bytes a pixel,
 * and a progressive JPEG up to 8 more) and max_bytes (the encoded file's
 * size). 0 in a field: its default. */
struct img_limits {
	uint64_t max_pixels;
	size_t max_bytes;
};
#define IMG_DEFAULT_MAX_PIXELS ((uint64_t)64000000) /* 64 megapixels */
#define IMG_DEFAULT_MAX_BYTES ((size_t)64 << 20)    /* 64 MiB */

/* img_decode: the JPEG, PNG or WebP image p[0..n) decoded into *out
 * (which the caller frees with img_free; on an error *out is empty):
 *  - JPEG (libjpeg-turbo, 8-bit): grayscale and YCbCr made RGB, CMYK and
 *    YCCK converted to RGB (naively: the inverted CMYK of Adobe's
 *    applications, which write an Adobe marker, is handled; a CMYK
 *    profile is dropped), the EXIF orientation (2 to 8) applied so that
 *    the pixels are upright, the ICC profile kept;
 *  - PNG (libpng): palette, gray and low bit depths expanded, 16 bits
 *    scaled to 8, tRNS made alpha, interlacing undone, the iCCP profile
 *    kept; gamma (gAMA, cHRM) is neither applied nor kept;
 *  - WebP (libwebp), a still image: its ICCP profile kept.
 * Every other chunk and segment (EXIF, XMP, text) is read past. lim may be
 * NULL (the defaults). Returns 0; or -1 with a one-line message appended
 * to err, e.g.
 *   truncated JPEG data
 *   the image is 100000 x 100000 pixels: more than the 64-megapixel limit
 *   the image is 0 x 16 pixels (a corrupt header)
 *   corrupt PNG data (libpng: IDAT: invalid distance too far back)
 *   a 12-bit JPEG: only 8-bit JPEGs can be decoded
 *   an animated WebP: animations are passed through, not decoded
 *   a GIF image: only JPEG, PNG and WebP images can be decoded
 * Neither libjpeg nor libpng ever prints or exits: their errors come back
 * here as messages. */
int img_decode(const unsigned char *p, size_t n, const struct img_limits *lim, struct img *out, struct buf *err);

/* img_decode_scaled: img_decode, but a JPEG is decoded at 1/2, 1/4 or 1/8
 * of its size, the smallest of those at which it is still, upright, at
 * least min_w pixels wide (w / scale >= min_w; the height follows, rounded
 * up): libjpeg-turbo's scaled IDCT, which reads every coefficient but
 * computes only what the smaller size needs, is cheaper than decoding
 * every pixel to resize them away (a 4000 x 3000 baseline photograph for
 * widths up to 1600, decoded at 2000 x 1500: 66 ms of CPU instead of 108,
 * and its three resizes 67 instead of 217). Its averaging is done in
 * sRGB, not linear light: a caller that wants img_resize to do all of the
 * filtering passes twice its largest width. Every width and height that
 * keeps the original's aspect ratio at min_w or less fits in the result.
 * min_w 0: the whole size. PNG and WebP are decoded whole. */
int img_decode_scaled(const unsigned char *p, size_t n, const struct img_limits *lim, uint32_t min_w, struct img *out,
                      struct buf *err);

/* img_resize: in resized to exactly w x h into *out (a new image the
 * caller frees with img_free), with stb_image_resize2's Mitchell filter in
 * linear light (the pixels are taken as sRGB) and alpha weighting (the
 * colours of transparent pixels do not bleed into their neighbours); the
 * ICC profile is copied to out. Only shrinks: w and h must be 1..in->w and
 * 1..in->h (the same size is a copy). Returns 0, or -1 with a message
 * appended to err (upscaling, a zero size, out of memory). */
int img_resize(const struct img *in, uint32_t w, uint32_t h, struct img *out, struct buf *err);

enum img_format { IMG_JPEG = 1, IMG_PNG, IMG_WEBP, IMG_AVIF };

/* What img_encode makes. A zeroed struct but for format is the default. */
struct img_encode_opts {
	enum img_format format;
	/* 1..100, or 0 for the format's default (JPEG 82, WebP 80, AVIF 60);
	 * lossy formats only */
	int quality;
	/* WebP only: lossless (VP8L) instead of lossy, for images whose
	 * source was a PNG (screenshots, drawings) */
	int lossless;
	/* 0 for the default, else how hard to compress: PNG's zlib level
	 * 1..9 (default 6); WebP's method 1..6 (default 4; lossless: its
	 * preset 1..9, default 6); JPEG ignores it */
	int effort;
	/* the image's EXIF written too (JPEG APP1, PNG eXIf, WebP EXIF, AVIF
	 * Exif): off, metadata is stripped, GPS positions with the rest */
	int keep_metadata;
};

/* img_encode: in encoded as o->format, appended to out (the caller's):
 *  - WebP (libwebp): lossy at o->quality (alpha kept, losslessly), or
 *    lossless; single-threaded; at most 16383 pixels a side;
 *  - JPEG (libjpeg-turbo): progressive, o->quality, 4:2:0 chroma
 *    subsampling, optimised Huffman tables (a gray image without a profile
 *    is written as one gray component); at most 65500 pixels a side; an
 *    image with a pixel that is not opaque is refused;
 *  - AVIF (libavif, loaded at run time: img_avif_available): lossy at
 *    o->quality, 4:2:0, alpha lossless, single-threaded;
 *  - PNG (libpng): the smallest of gray, gray+alpha, RGB and RGBA that
 *    holds the pixels exactly (gray only without a profile, which is an
 *    RGB one), zlib at o->effort, not interlaced.
 * The ICC profile is written (WebP ICCP, JPEG APP2, PNG iCCP); nothing else
 * is, unless o->keep_metadata (then the EXIF too): no EXIF, GPS, XMP or
 * comment (re-encoding strips metadata). Returns
 * 0; or -1 with a message appended to err (out then holds what it held
 * before). */
int img_encode(const struct img *in, const struct img_encode_opts *o, struct buf *out, struct buf *err);

/* img_animated: whether p[0..n) is an animation: a GIF with more than one
 * image, a WebP with the animation flag (VP8X) or an ANIM chunk, a PNG
 * with an acTL chunk (APNG) before its image data. 0 for anything else,
 * truncated or not an image. Reads nothing outside p[0..n). */
int img_animated(const unsigned char *p, size_t n);

/* img_avif_available: NULL when AVIF can be encoded: libavif (1.x or
 * 0.11), with an AV1 encoder, was loaded (dlopen, once, thread-safe, on
 * first use); else why not, a sentence naming what to install.
 * img_avif_version: "libavif 1.2.1 (aom)", or NULL. */
const char *img_avif_available(void);
const char *img_avif_version(void);

/* img_free: frees im's pixels and profile; im is empty (all zero). NULL
 * and an empty image are fine. */
void img_free(struct img *im);

/* img_codecs: the codecs and their versions ("libjpeg-turbo 2.1.5, libpng
 * 1.6.39, libwebp 1.2.4, stb_image_resize2"), a static string: a cached
 * copy's key holds it (codecs.c). */
const char *img_codecs(void);

#endif
