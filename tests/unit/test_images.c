/* test_images.c: the image codecs (src/images/images.h) on images made
 * here: round trips through each encoder and decoder, EXIF orientations,
 * CMYK JPEGs and every PNG layout (written with libjpeg and libpng
 * directly, as other tools write them), resizing, colour profiles,
 * determinism, animations, and bad inputs, each with its message. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>
#include <zlib.h>

#include "base/buf.h"
#include "base/pool.h"
#include "images/images.h"
#include "images/imagesize.h"

/* ---- helpers ---- */

/* gradient: a w x h image, red across, green down, blue and alpha
 * (255 unless alpha) mixed, so every pixel differs from its neighbours
 * smoothly. */
static struct img gradient(uint32_t w, uint32_t h, int alpha)
{
	struct img im = {.w = w, .h = h, .rgba = malloc((size_t)w * h * 4)};
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			unsigned char *p = im.rgba + ((size_t)y * w + x) * 4;
			p[0] = (unsigned char)(x * 255 / (w - 1));
			p[1] = (unsigned char)(y * 255 / (h - 1));
			p[2] = (unsigned char)((x + y) * 127 / (w + h - 2) + 64);
			p[3] = alpha ? (unsigned char)(255 - x * 200 / (w - 1)) : 255;
		}
	return im;
}

static struct img flat(uint32_t w, uint32_t h, unsigned r, unsigned g, unsigned b, unsigned a)
{
	struct img im = {.w = w, .h = h, .rgba = malloc((size_t)w * h * 4)};
	for (size_t i = 0; i < (size_t)w * h; i++) {
		im.rgba[i * 4] = (unsigned char)r;
		im.rgba[i * 4 + 1] = (unsigned char)g;
		im.rgba[i * 4 + 2] = (unsigned char)b;
		im.rgba[i * 4 + 3] = (unsigned char)a;
	}
	return im;
}

static const unsigned char *px(const struct img *im, uint32_t x, uint32_t y)
{
	return im->rgba + ((size_t)y * im->w + x) * 4;
}

/* near: whether pixel p is within tol of r, g, b, a in every channel. */
static int near(const unsigned char *p, int r, int g, int b, int a, int tol)
{
	return abs(p[0] - r) <= tol && abs(p[1] - g) <= tol && abs(p[2] - b) <= tol && abs(p[3] - a) <= tol;
}

/* diff: the largest and the mean difference of two images' channels. */
static void diff(const struct img *a, const struct img *b, int *max, double *mean)
{
	*max = 999;
	*mean = 999;
	if (a->w != b->w || a->h != b->h)
		return;
	size_t n = (size_t)a->w * a->h * 4;
	long sum = 0;
	int m = 0;
	for (size_t i = 0; i < n; i++) {
		int d = abs(a->rgba[i] - b->rgba[i]);
		sum += d;
		if (d > m)
			m = d;
	}
	*max = m;
	*mean = (double)sum / (double)n;
}

static int encode(const struct img *im, enum img_format f, int quality, int lossless, struct buf *out)
{
	struct img_encode_opts o = {f, quality, lossless, 0, 0};
	struct buf err;
	buf_init(&err);
	buf_reset(out);
	int r = img_encode(im, &o, out, &err);
	if (r != 0)
		fprintf(stderr, "  encode: %s\n", err.p);
	buf_fini(&err);
	return r;
}

/* decode_err: img_decode's message for p[0..n), or "(decoded)" (static
 * buffer). */
static const char *decode_err(const void *p, size_t n, const struct img_limits *lim)
{
	static char msg[512];
	struct img im;
	struct buf err;
	buf_init(&err);
	int r = img_decode(p, n, lim, &im, &err);
	snprintf(msg, sizeof msg, "%s", r == 0 ? "(decoded)" : err.p ? err.p : "(no message)");
	if (r == 0)
		img_free(&im);
	else if (im.rgba || im.w)
		snprintf(msg, sizeof msg, "(an error left an image)");
	buf_fini(&err);
	return msg;
}

static int decode(const struct buf *b, struct img *im)
{
	struct buf err;
	buf_init(&err);
	int r = img_decode((const unsigned char *)b->p, b->len, NULL, im, &err);
	if (r != 0)
		fprintf(stderr, "  decode: %s\n", err.p);
	buf_fini(&err);
	return r;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* has_chunk: whether the PNG b has a chunk named name (walking chunks). */
static int has_chunk(const struct buf *b, const char *name)
{
	for (size_t i = 8; i + 8 <= b->len; i += 12 + be32((const unsigned char *)b->p + i))
		if (memcmp(b->p + i + 4, name, 4) == 0)
			return 1;
	return 0;
}

/* jpeg_marker: whether the JPEG b has a segment with marker m before its
 * first scan. */
static int jpeg_marker(const struct buf *b, unsigned m)
{
	const unsigned char *p = (const unsigned char *)b->p;
	for (size_t i = 2; i + 4 <= b->len && p[i] == 0xff && p[i + 1] != 0xda; i += 2 + (p[i + 2] << 8 | p[i + 3]))
		if (p[i + 1] == m)
			return 1;
	return 0;
}

/* ---- JPEGs and PNGs written with the libraries directly ---- */

/* write_jpeg: w x h pixels of n components (3: RGB, 4: CMYK) at quality
 * 100 without subsampling, as colour space cs (JCS_YCbCr, JCS_CMYK or
 * JCS_YCCK), with or without an Adobe marker. malloc'd, *len. */
static unsigned char *write_jpeg(const unsigned char *pixels, unsigned w, unsigned h, int n, J_COLOR_SPACE cs,
                                 int adobe, unsigned long *len)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr e;
	unsigned char *out = NULL;
	c.err = jpeg_std_error(&e);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &out, len);
	c.image_width = w;
	c.image_height = h;
	c.input_components = n;
	c.in_color_space = n == 4 ? JCS_CMYK : JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_set_colorspace(&c, cs);
	jpeg_set_quality(&c, 100, TRUE);
	for (int i = 0; i < c.num_components; i++)
		c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
	c.write_Adobe_marker = adobe ? TRUE : FALSE;
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < h) {
		JSAMPROW row = (JSAMPROW)(pixels + (size_t)c.next_scanline * w * n);
		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	return out;
}

struct pngw {
	struct buf *out;
};

static void pngw_write(png_structp png, png_bytep d, size_t n)
{
	buf_append(((struct pngw *)png_get_io_ptr(png))->out, d, n);
}

static void pngw_flush(png_structp png)
{
	(void)png;
}

/* write_png: a PNG of the given layout into out; rows are w x h samples in
 * the PNG's own packing (rowbytes each). palette/trans may be NULL. */
static void write_png(struct buf *out, unsigned w, unsigned h, int depth, int ctype, int interlace,
                      const unsigned char *rows, size_t rowbytes, const png_color *palette, int npal,
                      const unsigned char *trans, int ntrans, const png_color_16 *trans_color)
{
	struct pngw pw = {out};
	buf_reset(out);
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	png_set_write_fn(png, &pw, pngw_write, pngw_flush);
	png_set_IHDR(png, info, w, h, depth, ctype, interlace, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (palette)
		png_set_PLTE(png, info, palette, npal);
	if (trans || trans_color)
		png_set_tRNS(png, info, trans, ntrans, trans_color);
	png_text text = {PNG_TEXT_COMPRESSION_NONE, "Comment", "made by test_images", 19, 0, NULL, NULL};
	png_set_text(png, info, &text, 1);
	png_write_info(png, info);
	png_bytep *rp = malloc(h * sizeof *rp);
	for (unsigned y = 0; y < h; y++)
		rp[y] = (png_bytep)rows + y * rowbytes;
	png_write_image(png, rp); /* interlacing handled by libpng */
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	free(rp);
}

/* ---- the cases ---- */

static void round_trips(void)
{
	struct buf b;
	buf_init(&b);
	struct img src = gradient(64, 48, 0), srca = gradient(64, 48, 1), back;
	int max;
	double mean;

	/* PNG: exact, opaque and with alpha */
	OK(encode(&src, IMG_PNG, 0, 0, &b) == 0);
	OK(memcmp(b.p, "\x89PNG", 4) == 0);
	INT_EQ(b.p[25], 2); /* colour type RGB: no alpha channel for an opaque image */
	OK(!has_chunk(&b, "iCCP"));
	OK(decode(&b, &back) == 0);
	diff(&src, &back, &max, &mean);
	INT_EQ(max, 0);
	img_free(&back);
	OK(encode(&srca, IMG_PNG, 0, 0, &b) == 0);
	INT_EQ(b.p[25], 6); /* RGBA */
	OK(decode(&b, &back) == 0);
	diff(&srca, &back, &max, &mean);
	INT_EQ(max, 0);
	img_free(&back);

	/* JPEG: within the loss of quality 90 */
	OK(encode(&src, IMG_JPEG, 90, 0, &b) == 0);
	OK((unsigned char)b.p[0] == 0xff && (unsigned char)b.p[1] == 0xd8);
	OK(jpeg_marker(&b, 0xc2)); /* progressive */
	OK(decode(&b, &back) == 0);
	diff(&src, &back, &max, &mean);
	OK(max <= 24);
	OK(mean < 2.5);
	img_free(&back);

	/* WebP lossy (alpha kept), and lossless: exact */
	OK(encode(&srca, IMG_WEBP, 90, 0, &b) == 0);
	OK(memcmp(b.p, "RIFF", 4) == 0 && memcmp(b.p + 8, "WEBP", 4) == 0);
	OK(decode(&b, &back) == 0);
	diff(&srca, &back, &max, &mean);
	OK(max <= 40);
	OK(mean < 3);
	img_free(&back);
	OK(encode(&srca, IMG_WEBP, 0, 1, &b) == 0);
	OK(memcmp(b.p + 12, "VP8L", 4) == 0);
	OK(decode(&b, &back) == 0);
	diff(&srca, &back, &max, &mean);
	INT_EQ(max, 0);
	img_free(&back);

	/* quality matters: 20 is smaller than 95 */
	size_t small, large;
	OK(encode(&src, IMG_WEBP, 20, 0, &b) == 0);
	small = b.len;
	OK(encode(&src, IMG_WEBP, 95, 0, &b) == 0);
	large = b.len;
	OK(small < large);

	/* a gray image: one JPEG component, a gray PNG */
	struct img gray = flat(32, 16, 90, 90, 90, 255);
	OK(encode(&gray, IMG_JPEG, 80, 0, &b) == 0);
	{
		const unsigned char *p = (const unsigned char *)b.p;
		size_t i = 2;
		while (i + 4 < b.len && p[i + 1] != 0xc2)
			i += 2 + (p[i + 2] << 8 | p[i + 3]);
		OK(i + 9 < b.len && p[i + 9] == 1); /* SOF2's component count */
	}
	OK(decode(&b, &back) == 0);
	OK(near(px(&back, 5, 5), 90, 90, 90, 255, 2));
	img_free(&back);
	OK(encode(&gray, IMG_PNG, 0, 0, &b) == 0);
	INT_EQ(b.p[25], 0); /* gray */
	gray.rgba[3] = 7;
	OK(encode(&gray, IMG_PNG, 0, 0, &b) == 0);
	INT_EQ(b.p[25], 4); /* gray + alpha */
	OK(decode(&b, &back) == 0);
	OK(near(px(&back, 0, 0), 90, 90, 90, 7, 0));
	OK(near(px(&back, 1, 0), 90, 90, 90, 255, 0));
	img_free(&back);

	/* what cannot be: a JPEG with alpha, a quality of 101, an effort of 10 */
	struct buf err;
	buf_init(&err);
	struct img_encode_opts o = {IMG_JPEG, 80, 0, 0, 0};
	buf_reset(&b);
	INT_EQ(img_encode(&srca, &o, &b, &err), -1);
	STR_EQ(err.p, "the image has transparent pixels, which a JPEG cannot hold");
	INT_EQ(b.len, 0);
	buf_reset(&err);
	o = (struct img_encode_opts){IMG_WEBP, 101, 0, 0, 0};
	INT_EQ(img_encode(&src, &o, &b, &err), -1);
	STR_EQ(err.p, "quality 101: it is 1 to 100 (or 0, the default)");
	buf_reset(&err);
	o = (struct img_encode_opts){IMG_PNG, 0, 0, 10, 0};
	INT_EQ(img_encode(&src, &o, &b, &err), -1);
	STR_EQ(err.p, "PNG effort 10: it is 1 to 9 (or 0, the default)");
	buf_fini(&err);

	img_free(&gray);
	img_free(&src);
	img_free(&srca);
	buf_fini(&b);
}

/* exif_jpeg: jpeg with an APP1 segment of EXIF orientation o (big- or
 * little-endian TIFF) put after SOI, into out. */
static void exif_jpeg(const unsigned char *jpeg, size_t n, unsigned o, int le, struct buf *out)
{
	unsigned char app1[] = {0xff, 0xe1, 0x00, 0x22, 'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0x00, 0x2a, 0, 0, 0, 8,
	                        0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, (unsigned char)o, 0, 0, 0, 0, 0, 0};
	if (le) {
		unsigned char lel[] = {'I', 'I', 0x2a, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0,
		                       (unsigned char)o, 0, 0, 0, 0, 0};
		memcpy(app1 + 10, lel, sizeof lel);
	}
	buf_reset(out);
	buf_append(out, jpeg, 2);
	buf_append(out, app1, sizeof app1);
	buf_append(out, jpeg + 2, n - 2);
}

static void orientations(void)
{
	/* A 3 x 2 JPEG of six colours (written at quality 100 without
	 * subsampling, so that each pixel keeps its colour), cells
	 *   A B C
	 *   D E F */
	static const unsigned char cell[6][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255},
	                                         {255, 255, 0}, {0, 255, 255}, {255, 255, 255}};
	unsigned char rgb[18];
	for (int i = 0; i < 6; i++)
		memcpy(rgb + i * 3, cell[i], 3);
	unsigned long n;
	unsigned char *jpeg = write_jpeg(rgb, 3, 2, 3, JCS_YCbCr, 0, &n);
	/* Each orientation's upright picture, as EXIF defines them, rows
	 * of cell letters (A = 0). */
	static const char *upright[9] = {NULL,     "ABC/DEF", "CBA/FED", "FED/CBA", "DEF/ABC",
	                                 "AD/BE/CF", "DA/EB/FC", "FC/EB/DA", "CF/BE/AD"};
	struct buf b;
	buf_init(&b);
	int bad = 0;
	for (unsigned o = 1; o <= 8; o++) {
		for (int le = 0; le <= 1; le++) {
			exif_jpeg(jpeg, n, o, le, &b);
			struct img im;
			if (decode(&b, &im) != 0) {
				bad++;
				continue;
			}
			const char *u = upright[o];
			uint32_t w = (uint32_t)(strchr(u, '/') - u), h = (uint32_t)(strlen(u) + 1) / (w + 1);
			if (im.w != w || im.h != h) {
				fprintf(stderr, "  orientation %u: %ux%u, want %ux%u\n", o, im.w, im.h, w, h);
				bad++;
			} else {
				for (uint32_t y = 0; y < h; y++)
					for (uint32_t x = 0; x < w; x++) {
						const unsigned char *c = cell[u[y * (w + 1) + x] - 'A'];
						if (!near(px(&im, x, y), c[0], c[1], c[2], 255, 40)) {
							fprintf(stderr, "  orientation %u: pixel %u,%u is %d,%d,%d\n", o, x, y,
							        px(&im, x, y)[0], px(&im, x, y)[1], px(&im, x, y)[2]);
							bad++;
						}
					}
			}
			img_free(&im);
		}
	}
	INT_EQ(bad, 0);
	/* an orientation out of range (9) is upright */
	exif_jpeg(jpeg, n, 9, 0, &b);
	struct img im;
	OK(decode(&b, &im) == 0);
	OK(im.w == 3 && im.h == 2 && near(px(&im, 2, 0), 0, 0, 255, 255, 40));
	img_free(&im);
	/* re-encoding keeps no EXIF: the pixels are upright already */
	exif_jpeg(jpeg, n, 6, 0, &b);
	OK(decode(&b, &im) == 0);
	OK(encode(&im, IMG_JPEG, 90, 0, &b) == 0);
	OK(!jpeg_marker(&b, 0xe1));
	OK(encode(&im, IMG_PNG, 0, 0, &b) == 0);
	OK(!has_chunk(&b, "eXIf") && !has_chunk(&b, "tEXt"));
	img_free(&im);
	free(jpeg);
	buf_fini(&b);
}

/* scaled_size: the size img_decode_scaled gives for min_w, or 0x0. */
static void scaled_size(const struct buf *b, uint32_t min_w, uint32_t *w, uint32_t *h, int *flat_ok)
{
	struct img im;
	struct buf err;
	buf_init(&err);
	*w = *h = 0;
	if (img_decode_scaled((const unsigned char *)b->p, b->len, NULL, min_w, &im, &err) == 0) {
		*w = im.w;
		*h = im.h;
		*flat_ok = 1;
		for (size_t i = 0; i < (size_t)im.w * im.h; i++)
			*flat_ok &= near(im.rgba + i * 4, 30, 140, 200, 255, 3);
		img_free(&im);
	}
	buf_fini(&err);
}

static void scaled(void)
{
	struct img src = flat(64, 48, 30, 140, 200, 255);
	struct buf b, o;
	buf_init(&b);
	buf_init(&o);
	OK(encode(&src, IMG_JPEG, 95, 0, &b) == 0);
	/* the smallest of 1, 1/2, 1/4, 1/8 still min_w wide */
	static const uint32_t cases[][3] = {{0, 64, 48}, {65, 64, 48}, {64, 64, 48}, {33, 64, 48}, {32, 32, 24},
	                                    {17, 32, 24}, {16, 16, 12}, {9, 16, 12}, {8, 8, 6}, {1, 8, 6}};
	int bad = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t w, h;
		int flat_ok = 0;
		scaled_size(&b, cases[i][0], &w, &h, &flat_ok);
		if (w != cases[i][1] || h != cases[i][2] || !flat_ok) {
			fprintf(stderr, "  min_w %u: %ux%u%s\n", cases[i][0], w, h, flat_ok ? "" : ", not the flat colour");
			bad++;
		}
	}
	INT_EQ(bad, 0);
	/* upright: a 64 x 48 JPEG turned by EXIF 6 is 48 wide */
	uint32_t w, h;
	int flat_ok;
	exif_jpeg((const unsigned char *)b.p, b.len, 6, 0, &o);
	scaled_size(&o, 12, &w, &h, &flat_ok);
	OK(w == 12 && h == 16);
	scaled_size(&o, 13, &w, &h, &flat_ok);
	OK(w == 24 && h == 32);
	/* heights round up: 100 x 75 at 1/4 is 25 x 19, which holds the
	 * 25-wide variant's 19 rows */
	img_free(&src);
	src = flat(100, 75, 30, 140, 200, 255);
	OK(encode(&src, IMG_JPEG, 95, 0, &b) == 0);
	scaled_size(&b, 25, &w, &h, &flat_ok);
	OK(w == 25 && h == 19);
	/* a PNG is decoded whole */
	OK(encode(&src, IMG_PNG, 0, 0, &b) == 0);
	scaled_size(&b, 10, &w, &h, &flat_ok);
	OK(w == 100 && h == 75 && flat_ok);
	img_free(&src);
	buf_fini(&b);
	buf_fini(&o);
}

static void cmyk(void)
{
	/* 16 x 16 of four colours in CMYK: red (M Y), a gray (K 50%), black
	 * (K), white (nothing), in quadrants */
	static const unsigned char ink[4][4] = {{0, 255, 255, 0}, {0, 0, 0, 128}, {0, 0, 0, 255}, {0, 0, 0, 0}};
	static const int rgb[4][3] = {{255, 0, 0}, {127, 127, 127}, {0, 0, 0}, {255, 255, 255}};
	unsigned char plain[16 * 16 * 4], inverted[16 * 16 * 4];
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 16; x++) {
			int q = (y / 8) * 2 + x / 8;
			for (int k = 0; k < 4; k++) {
				plain[(y * 16 + x) * 4 + k] = ink[q][k];
				inverted[(y * 16 + x) * 4 + k] = (unsigned char)(255 - ink[q][k]);
			}
		}
	/* Adobe's applications write inverted CMYK and an Adobe marker;
	 * without the marker the values are plain; YCCK carries the marker */
	struct {
		const unsigned char *pixels;
		J_COLOR_SPACE cs;
		int adobe;
	} cases[] = {{inverted, JCS_CMYK, 1}, {plain, JCS_CMYK, 0}, {inverted, JCS_YCCK, 1}};
	int bad = 0;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		unsigned long n;
		unsigned char *jpeg = write_jpeg(cases[c].pixels, 16, 16, 4, cases[c].cs, cases[c].adobe, &n);
		struct img im;
		struct buf err;
		buf_init(&err);
		if (img_decode(jpeg, n, NULL, &im, &err) != 0) {
			fprintf(stderr, "  cmyk case %zu: %s\n", c, err.p);
			bad++;
		} else {
			for (int q = 0; q < 4; q++) {
				const unsigned char *p = px(&im, (uint32_t)(q % 2) * 8 + 4, (uint32_t)(q / 2) * 8 + 4);
				if (!near(p, rgb[q][0], rgb[q][1], rgb[q][2], 255, 3)) {
					fprintf(stderr, "  cmyk case %zu quadrant %d: %d,%d,%d,%d\n", c, q, p[0], p[1], p[2], p[3]);
					bad++;
				}
			}
			img_free(&im);
		}
		buf_fini(&err);
		free(jpeg);
	}
	INT_EQ(bad, 0);
}

static void png_layouts(void)
{
	struct buf b;
	buf_init(&b);
	struct img im;

	/* 16-bit RGB: each sample scaled to 8 bits, rounded */
	{
		unsigned char rows[2 * 2 * 6];
		static const unsigned short v[4][3] = {
		    {0xffff, 0, 0x8080}, {257 * 10, 257 * 200, 257 * 30}, {0x1234, 0x00ff, 0xff00}, {0, 0, 0}};
		for (int i = 0; i < 4; i++)
			for (int k = 0; k < 3; k++)
				rows[i * 6 + k * 2] = (unsigned char)(v[i][k] >> 8), rows[i * 6 + k * 2 + 1] = (unsigned char)v[i][k];
		write_png(&b, 2, 2, 16, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, rows, 12, NULL, 0, NULL, 0, NULL);
		OK(decode(&b, &im) == 0);
		OK(near(px(&im, 0, 0), 255, 0, 128, 255, 0));
		OK(near(px(&im, 1, 0), 10, 200, 30, 255, 0));
		OK(near(px(&im, 0, 1), 18, 1, 254, 255, 0));
		img_free(&im);
	}
	/* a palette with tRNS: alpha from it */
	{
		png_color pal[3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
		unsigned char trans[2] = {0, 128};
		unsigned char rows[3] = {0, 1, 2};
		write_png(&b, 3, 1, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, rows, 3, pal, 3, trans, 2, NULL);
		OK(decode(&b, &im) == 0);
		OK(im.w == 3 && im.h == 1);
		OK(near(px(&im, 0, 0), 255, 0, 0, 0, 0));
		OK(near(px(&im, 1, 0), 0, 255, 0, 128, 0));
		OK(near(px(&im, 2, 0), 0, 0, 255, 255, 0));
		img_free(&im);
	}
	/* a 2-bit palette: packed indices */
	{
		png_color pal[4] = {{1, 2, 3}, {40, 50, 60}, {70, 80, 90}, {200, 210, 220}};
		unsigned char rows[1] = {0x1b}; /* 0 1 2 3 */
		write_png(&b, 4, 1, 2, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, rows, 1, pal, 4, NULL, 0, NULL);
		OK(decode(&b, &im) == 0);
		OK(near(px(&im, 0, 0), 1, 2, 3, 255, 0) && near(px(&im, 3, 0), 200, 210, 220, 255, 0));
		img_free(&im);
	}
	/* gray 8-bit, gray 1-bit, gray with a tRNS key, gray + alpha 16-bit */
	{
		unsigned char rows[2] = {0, 77};
		write_png(&b, 2, 1, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, rows, 2, NULL, 0, NULL, 0, NULL);
		OK(decode(&b, &im) == 0);
		OK(near(px(&im, 1, 0), 77, 77, 77, 255, 0));
		img_free(&im);
		unsigned char bits[1] = {0x40}; /* 0 1 0 0 */
		write_png(&b, 4, 1, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, bits, 1, NULL, 0, NULL, 0, NULL);
		OK(decode(&b, &im) == 0);
		OK(near(px(&im, 0, 0), 0, 0, 0, 255, 0) && near(px(&im, 1, 0), 255, 255, 255, 255, 0));
		img_free(&im);
		png_color_16 key = {0, 0, 0, 0, 77};
		write_png(&b, 2, 1, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, rows, 2, NULL, 0, NULL, 0, &key);
		OK(decode(&b, &im) == 0);
		OK(near(px(&im, 0, 0), 0, 0, 0, 255, 0) && px(&im, 1, 0)[3] == 0);
		img_free(&im);
		unsigned char ga16[4] = {0x80, 0x80, 0x40, 0x40};
		write_png(&b, 1, 1, 16, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE, ga16, 4, NULL, 0, NULL, 0, NULL);
		OK(decode(&b, &im) == 0);
		OK(near(px(&im, 0, 0), 128, 128, 128, 64, 0));
		img_free(&im);
	}
	/* interlaced (Adam7) gives the same pixels as not */
	{
		struct img g = gradient(37, 23, 1), a;
		write_png(&b, 37, 23, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_ADAM7, g.rgba, 37 * 4, NULL, 0, NULL, 0, NULL);
		OK(b.p[28] == 1); /* IHDR's interlace method */
		OK(decode(&b, &a) == 0);
		int max;
		double mean;
		diff(&g, &a, &max, &mean);
		INT_EQ(max, 0);
		img_free(&a);
		img_free(&g);
	}
	buf_fini(&b);
}

static void resizing(void)
{
	struct img in = flat(400, 300, 200, 100, 50, 255), out;
	struct buf err;
	buf_init(&err);

	/* a flat colour stays exactly that colour */
	OK(img_resize(&in, 200, 150, &out, &err) == 0);
	OK(out.w == 200 && out.h == 150);
	int off = 0;
	for (size_t i = 0; i < (size_t)200 * 150; i++)
		off += !near(out.rgba + i * 4, 200, 100, 50, 255, 0);
	INT_EQ(off, 0);
	img_free(&out);

	/* a checkerboard of black and white pixels averages in linear light:
	 * half the light is sRGB 188, not 128 */
	for (uint32_t y = 0; y < 300; y++)
		for (uint32_t x = 0; x < 400; x++)
			memset(in.rgba + ((size_t)y * 400 + x) * 4, (x + y) % 2 ? 255 : 0, 3);
	OK(img_resize(&in, 200, 150, &out, &err) == 0);
	long sum = 0;
	int lo = 255, hi = 0;
	for (uint32_t y = 0; y < 150; y++)
		for (uint32_t x = 0; x < 200; x++) {
			int v = px(&out, x, y)[1];
			sum += v;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	double avg = (double)sum / (200.0 * 150.0);
	OK(avg > 185 && avg < 191);
	OK(lo >= 180 && hi <= 196);
	img_free(&out);

	/* alpha weighting: a transparent green beside opaque red leaves no
	 * green in the red */
	for (uint32_t y = 0; y < 300; y++)
		for (uint32_t x = 0; x < 400; x++) {
			unsigned char *p = in.rgba + ((size_t)y * 400 + x) * 4;
			p[0] = x < 200 ? 255 : 0;
			p[1] = x < 200 ? 0 : 255;
			p[2] = 0;
			p[3] = x < 200 ? 255 : 0;
		}
	OK(img_resize(&in, 100, 75, &out, &err) == 0);
	OK(near(px(&out, 49, 30), 255, 0, 0, px(&out, 49, 30)[3], 1)); /* the edge: red, partly transparent */
	OK(px(&out, 49, 30)[3] > 128);
	OK(px(&out, 60, 30)[3] == 0);
	img_free(&out);

	/* the same size is a copy; a profile is carried */
	in.icc = malloc(4);
	memcpy(in.icc, "abcd", 4);
	in.icc_len = 4;
	OK(img_resize(&in, 400, 300, &out, &err) == 0);
	OK(memcmp(out.rgba, in.rgba, (size_t)400 * 300 * 4) == 0);
	OK(out.icc_len == 4 && memcmp(out.icc, "abcd", 4) == 0);
	img_free(&out);
	OK(img_resize(&in, 123, 45, &out, &err) == 0);
	OK(out.icc_len == 4 && out.icc != in.icc);
	img_free(&out);

	/* never enlarged, never to nothing */
	INT_EQ(img_resize(&in, 401, 300, &out, &err), -1);
	STR_EQ(err.p, "the image is 400 x 300 pixels: it is never enlarged (to 401 x 300)");
	OK(out.rgba == NULL);
	buf_reset(&err);
	INT_EQ(img_resize(&in, 0, 10, &out, &err), -1);
	STR_EQ(err.p, "an image cannot be resized to 0 x 10 pixels");
	buf_fini(&err);
	img_free(&in);
}

/* icc_profile: a small ICC profile of colour space cs ("RGB " or "GRAY"):
 * the header, as libpng checks it, and one text tag of 200 pseudo-random
 * bytes (libpng refuses an iCCP chunk that compresses to less than about
 * 80 bytes), ICC_LEN bytes. */
#define ICC_LEN 352
static void icc_profile(unsigned char *p, const char *cs)
{
	memset(p, 0, ICC_LEN);
	p[2] = ICC_LEN >> 8; /* size */
	p[3] = ICC_LEN & 0xff;
	p[8] = 2; /* version 2.1 */
	p[9] = 0x10;
	memcpy(p + 12, "mntr", 4);
	memcpy(p + 16, cs, 4);
	memcpy(p + 20, "XYZ ", 4);
	memcpy(p + 36, "acsp", 4);
	/* the D50 illuminant: 0.9642, 1.0, 0.8249 as s15.16 */
	static const unsigned char d50[12] = {0, 0, 0xf6, 0xd6, 0, 1, 0, 0, 0, 0, 0xd3, 0x2d};
	memcpy(p + 68, d50, 12);
	p[131] = 1; /* one tag: cprt at 144, 208 bytes */
	memcpy(p + 132, "cprt", 4);
	p[139] = 144;
	p[143] = 208;
	memcpy(p + 144, "text", 4);
	unsigned s = 7;
	for (int i = 152; i < ICC_LEN; i++) {
		s = s * 1103515245u + 12345u;
		p[i] = (unsigned char)(s >> 24);
	}
}

static void profiles(void)
{
	unsigned char rgb[ICC_LEN], gray[ICC_LEN];
	icc_profile(rgb, "RGB ");
	icc_profile(gray, "GRAY");
	struct img src = gradient(40, 30, 0), back, small;
	src.icc = malloc(ICC_LEN);
	memcpy(src.icc, rgb, ICC_LEN);
	src.icc_len = ICC_LEN;
	struct buf b, err;
	buf_init(&b);
	buf_init(&err);
	static const enum img_format fmts[3] = {IMG_JPEG, IMG_PNG, IMG_WEBP};
	static const char *names[3] = {"JPEG", "PNG", "WebP"};
	for (int f = 0; f < 3; f++) {
		OK(encode(&src, fmts[f], 80, 0, &b) == 0);
		OK(decode(&b, &back) == 0);
		if (back.icc_len != ICC_LEN || memcmp(back.icc, rgb, ICC_LEN) != 0) {
			fprintf(stderr, "  %s: the profile came back as %zu bytes\n", names[f], back.icc_len);
			OK(0);
		} else {
			OK(1);
		}
		/* through a resize too */
		OK(img_resize(&back, 20, 15, &small, &err) == 0);
		OK(encode(&small, fmts[f], 80, 0, &b) == 0);
		img_free(&back);
		OK(decode(&b, &back) == 0);
		OK(back.icc_len == ICC_LEN && memcmp(back.icc, rgb, ICC_LEN) == 0);
		img_free(&back);
		img_free(&small);
	}
	/* the gray image is written in colour, to keep the RGB profile */
	struct img g = flat(8, 8, 50, 50, 50, 255);
	g.icc = malloc(ICC_LEN);
	memcpy(g.icc, rgb, ICC_LEN);
	g.icc_len = ICC_LEN;
	OK(encode(&g, IMG_PNG, 0, 0, &b) == 0);
	INT_EQ(b.p[25], 2);
	OK(has_chunk(&b, "iCCP"));
	img_free(&g);
	/* a gray profile (for other pixels than RGBA's) is dropped */
	unsigned long n;
	unsigned char pixels[8 * 8 * 3];
	memset(pixels, 99, sizeof pixels);
	{
		struct jpeg_compress_struct c;
		struct jpeg_error_mgr e;
		unsigned char *out = NULL;
		c.err = jpeg_std_error(&e);
		jpeg_create_compress(&c);
		jpeg_mem_dest(&c, &out, &n);
		c.image_width = c.image_height = 8;
		c.input_components = 3;
		c.in_color_space = JCS_RGB;
		jpeg_set_defaults(&c);
		jpeg_set_colorspace(&c, JCS_GRAYSCALE);
		jpeg_start_compress(&c, TRUE);
		jpeg_write_icc_profile(&c, gray, ICC_LEN);
		while (c.next_scanline < 8) {
			JSAMPROW row = pixels + c.next_scanline * 24;
			jpeg_write_scanlines(&c, &row, 1);
		}
		jpeg_finish_compress(&c);
		jpeg_destroy_compress(&c);
		INT_EQ(img_decode(out, n, NULL, &back, &err), 0);
		OK(back.icc == NULL && back.icc_len == 0);
		OK(near(px(&back, 3, 3), 99, 99, 99, 255, 1));
		img_free(&back);
		free(out);
	}
	img_free(&src);
	buf_fini(&b);
	buf_fini(&err);
}

static void determinism(void)
{
	struct img src = gradient(200, 120, 0), srca = gradient(200, 120, 1);
	/* noise, so that the encoders have choices to make */
	unsigned s = 1;
	for (size_t i = 0; i < (size_t)200 * 120 * 4; i++) {
		s = s * 1103515245u + 12345u;
		if (i % 4 != 3)
			src.rgba[i] = (unsigned char)(src.rgba[i] + (s >> 28)), srca.rgba[i] = src.rgba[i];
	}
	struct buf a, b, err;
	buf_init(&a);
	buf_init(&b);
	buf_init(&err);
	struct {
		const struct img *im;
		enum img_format f;
		int lossless;
	} cases[] = {{&src, IMG_JPEG, 0}, {&src, IMG_PNG, 0}, {&srca, IMG_PNG, 0},
	             {&src, IMG_WEBP, 0}, {&srca, IMG_WEBP, 0}, {&srca, IMG_WEBP, 1}};
	int same = 0;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct img r1, r2;
		OK(img_resize(cases[c].im, 77, 46, &r1, &err) == 0);
		OK(img_resize(cases[c].im, 77, 46, &r2, &err) == 0);
		OK(memcmp(r1.rgba, r2.rgba, (size_t)77 * 46 * 4) == 0);
		OK(encode(&r1, cases[c].f, 75, cases[c].lossless, &a) == 0);
		OK(encode(&r2, cases[c].f, 75, cases[c].lossless, &b) == 0);
		same += a.len == b.len && a.len > 0 && memcmp(a.p, b.p, a.len) == 0;
		img_free(&r1);
		img_free(&r2);
	}
	INT_EQ(same, (int)(sizeof cases / sizeof cases[0]));
	img_free(&src);
	img_free(&srca);
	buf_fini(&a);
	buf_fini(&b);
	buf_fini(&err);
}

/* One thread's work for threads(): the file decoded, resized, encoded as
 * WebP, JPEG and PNG, the three appended to out. */
struct thread_job {
	const struct buf *file;
	struct buf out;
	int failed;
};

static void *thread_work(void *arg)
{
	struct thread_job *j = arg;
	struct img im = {0}, small = {0};
	struct buf err;
	buf_init(&err);
	buf_init(&j->out);
	j->failed = img_decode_scaled((const unsigned char *)j->file->p, j->file->len, NULL, 100, &im, &err) != 0 ||
	            img_resize(&im, 100, 75, &small, &err) != 0;
	for (int f = IMG_JPEG; !j->failed && f <= IMG_WEBP; f++) {
		struct img_encode_opts o = {(enum img_format)f, 70, 0, 0, 0};
		j->failed = img_encode(&small, &o, &j->out, &err) != 0;
	}
	img_free(&small);
	img_free(&im);
	buf_fini(&err);
	return NULL;
}

/* threads: the codecs on four threads at once (as the build runs them)
 * make the bytes one thread makes: no state is shared between calls. */
static void threads(void)
{
	struct img src = gradient(320, 240, 0);
	unsigned s = 3;
	for (size_t i = 0; i < (size_t)320 * 240 * 4; i++) {
		s = s * 1103515245u + 12345u;
		if (i % 4 != 3)
			src.rgba[i] = (unsigned char)(src.rgba[i] ^ (s >> 29));
	}
	struct buf file;
	buf_init(&file);
	OK(encode(&src, IMG_JPEG, 90, 0, &file) == 0);
	struct thread_job one = {&file, {0}, 0}, four[4];
	thread_work(&one);
	OK(!one.failed && one.out.len > 0);
	for (int i = 0; i < 4; i++)
		four[i] = (struct thread_job){&file, {0}, 0};
	pool_run(4, thread_work, four, sizeof four[0], 0);
	int same = 0;
	for (int i = 0; i < 4; i++) {
		same += !four[i].failed && four[i].out.len == one.out.len && memcmp(four[i].out.p, one.out.p, one.out.len) == 0;
		buf_fini(&four[i].out);
	}
	INT_EQ(same, 4);
	buf_fini(&one.out);
	buf_fini(&file);
	img_free(&src);
}

/* png_chunk: appends a chunk (length, type, data, CRC) to b. */
static void png_chunk(struct buf *b, const char *type, const unsigned char *data, uint32_t n)
{
	unsigned char len[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16), (unsigned char)(n >> 8),
	                        (unsigned char)n};
	buf_append(b, len, 4);
	size_t start = b->len;
	buf_append(b, type, 4);
	if (n)
		buf_append(b, data, n);
	uint32_t crc = (uint32_t)crc32(0, (const unsigned char *)b->p + start, (unsigned)(n + 4));
	unsigned char c[4] = {(unsigned char)(crc >> 24), (unsigned char)(crc >> 16), (unsigned char)(crc >> 8),
	                      (unsigned char)crc};
	buf_append(b, c, 4);
}

/* png_header: a PNG signature and IHDR of w x h RGB into b. */
static void png_header(struct buf *b, uint32_t w, uint32_t h)
{
	unsigned char ihdr[13] = {(unsigned char)(w >> 24), (unsigned char)(w >> 16), (unsigned char)(w >> 8),
	                          (unsigned char)w,         (unsigned char)(h >> 24), (unsigned char)(h >> 16),
	                          (unsigned char)(h >> 8),  (unsigned char)h,         8, 2, 0, 0, 0};
	buf_reset(b);
	buf_append(b, "\x89PNG\r\n\x1a\n", 8);
	png_chunk(b, "IHDR", ihdr, 13);
}

static void bad_inputs(void)
{
	struct buf b;
	buf_init(&b);
	struct img src = gradient(40, 24, 0);

	STR_EQ(decode_err("", 0, NULL), "an empty file: not an image");
	STR_EQ(decode_err("hello, world", 12, NULL), "not a JPEG, PNG or WebP image (its first bytes are none of theirs)");
	STR_EQ(decode_err("GIF89a\x01\x00\x01\x00\x00\x00\x00;", 14, NULL),
	       "a GIF image: only JPEG, PNG and WebP images can be decoded");
	STR_EQ(decode_err("<svg width=\"3\" height=\"2\"/>", 27, NULL),
	       "an SVG image: only JPEG, PNG and WebP images can be decoded");

	/* every prefix of a JPEG and a PNG, one in 7: an error, never an
	 * image; past the headers, the truncation is said */
	static const enum img_format fmts[3] = {IMG_JPEG, IMG_PNG, IMG_WEBP};
	static const char *trunc[3] = {"truncated JPEG data", "truncated PNG data", "truncated WebP data"};
	for (int f = 0; f < 3; f++) {
		OK(encode(&src, fmts[f], 80, 0, &b) == 0);
		int decoded = 0, said = 0, cuts = 0;
		for (size_t k = 0; k < b.len; k += 7, cuts++) {
			const char *m = decode_err(b.p, k, NULL);
			decoded += strcmp(m, "(decoded)") == 0 || strcmp(m, "(an error left an image)") == 0;
			said += strcmp(m, trunc[f]) == 0;
		}
		INT_EQ(decoded, 0);
		OK(said >= cuts - 4); /* but for a few cuts in the signature */
	}

	/* corrupt data: a byte of a PNG's image data (its CRC fails), a
	 * JPEG's Huffman table */
	OK(encode(&src, IMG_PNG, 0, 0, &b) == 0);
	b.p[45] ^= 0x55; /* zlib finds it before the CRC check */
	STR_EQ(decode_err(b.p, b.len, NULL), "corrupt PNG data (libpng: IDAT: invalid code lengths set)");
	b.p[45] ^= 0x55;
	b.p[b.len - 13] ^= 1; /* the CRC of the last IDAT */
	STR_EQ(decode_err(b.p, b.len, NULL), "corrupt PNG data (libpng: IDAT: CRC error)");
	OK(encode(&src, IMG_JPEG, 80, 0, &b) == 0);
	{
		unsigned char *p = (unsigned char *)b.p;
		size_t i = 2;
		while (i + 4 < b.len && p[i + 1] != 0xc4)
			i += 2 + (p[i + 2] << 8 | p[i + 3]);
		memset(p + i + 5, 0xff, 16); /* the code counts: more codes than there can be */
		STR_EQ(decode_err(b.p, b.len, NULL), "corrupt JPEG data (libjpeg: Bogus Huffman table definition)");
	}

	/* headers claiming 100000 x 100000 pixels, with no pixels after
	 * them: refused from the header, before anything is allocated */
	png_header(&b, 100000, 100000);
	STR_EQ(decode_err(b.p, b.len, NULL), "the image is 100000 x 100000 pixels: more than the 64-megapixel limit");
	{
		/* a JPEG SOF0 of 65535 x 65535 (the most it can say), nothing after */
		static const unsigned char j[] = {0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0xff, 0xff, 0xff, 0xff, 0x03,
		                                  0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01};
		STR_EQ(decode_err(j, sizeof j, NULL), "the image is 65535 x 65535 pixels: more than the 64-megapixel limit");
		/* a WebP VP8X canvas of 16384 x 16384 */
		static const unsigned char w[] = {'R', 'I', 'F', 'F', 22, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'X',
		                                  10, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x3f, 0, 0xff, 0x3f, 0};
		STR_EQ(decode_err(w, sizeof w, NULL), "the image is 16384 x 16384 pixels: more than the 64-megapixel limit");
	}
	/* a budget of the caller's */
	OK(encode(&src, IMG_PNG, 0, 0, &b) == 0);
	struct img_limits lim = {500, 0};
	STR_EQ(decode_err(b.p, b.len, &lim), "the image is 40 x 24 pixels: more than the 500-pixel limit");
	lim = (struct img_limits){2000000, 0};
	STR_EQ(decode_err(b.p, b.len, &lim), "(decoded)");
	lim = (struct img_limits){0, 100};
	char want[100];
	snprintf(want, sizeof want, "the file is %zu bytes: more than the limit of 100 bytes", b.len);
	STR_EQ(decode_err(b.p, b.len, &lim), want);

	/* zero-size headers */
	png_header(&b, 0, 16);
	STR_EQ(decode_err(b.p, b.len, NULL), "the image is 0 x 16 pixels (a corrupt header)");
	{
		static const unsigned char j[] = {0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x00, 0x00, 0x10, 0x03,
		                                  0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xd9};
		STR_EQ(decode_err(j, sizeof j, NULL), "the image is 16 x 0 pixels (a corrupt header)");
	}
	/* a 12-bit JPEG (SOF1, precision 12) */
	{
		static const unsigned char j[] = {0xff, 0xd8, 0xff, 0xc1, 0x00, 0x0b, 0x0c, 0x00, 0x10, 0x00,
		                                  0x10, 0x01, 0x01, 0x11, 0x00, 0xff, 0xda, 0x00, 0x08, 0x01,
		                                  0x01, 0x00, 0x00, 0x3f, 0x00, 0xff, 0xd9};
		STR_EQ(decode_err(j, sizeof j, NULL), "a 12-bit JPEG: only 8-bit JPEGs can be decoded");
	}
	img_free(&src);
	buf_fini(&b);
}

static void animations(void)
{
	/* GIFs: one image, then two (each a 1x1 image descriptor, no local
	 * colours, LZW size 2, one data block) */
	struct buf b;
	buf_init(&b);
	static const unsigned char image[] = {0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0};
	static const unsigned char gce[] = {0x21, 0xf9, 4, 0, 10, 0, 0, 0};
	buf_append(&b, "GIF89a\x01\x00\x01\x00\x80\x00\x00", 13);
	buf_append(&b, "\0\0\0\xff\xff\xff", 6);
	buf_append(&b, gce, sizeof gce);
	buf_append(&b, image, sizeof image);
	size_t one = b.len;
	buf_append(&b, gce, sizeof gce);
	buf_append(&b, image, sizeof image);
	buf_putc(&b, 0x3b);
	INT_EQ(img_animated((const unsigned char *)b.p, one), 0);
	INT_EQ(img_animated((const unsigned char *)b.p, b.len), 1);
	INT_EQ(img_animated((const unsigned char *)b.p, one + 3), 0); /* cut in the second image's descriptor */

	/* APNG: acTL before IDAT */
	png_header(&b, 1, 1);
	size_t plain = b.len;
	static const unsigned char actl[8] = {0, 0, 0, 2, 0, 0, 0, 0};
	png_chunk(&b, "acTL", actl, 8);
	INT_EQ(img_animated((const unsigned char *)b.p, plain), 0);
	INT_EQ(img_animated((const unsigned char *)b.p, b.len), 1);
	png_header(&b, 1, 1);
	png_chunk(&b, "IDAT", actl, 8);
	png_chunk(&b, "acTL", actl, 8); /* after the image: not an APNG */
	INT_EQ(img_animated((const unsigned char *)b.p, b.len), 0);

	/* WebP: VP8X with the animation flag; an ANIM chunk; a still one */
	static const unsigned char vp8x[] = {'R', 'I', 'F', 'F', 22, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'X',
	                                     10, 0, 0, 0, 0x02, 0, 0, 0, 9, 0, 0, 9, 0, 0};
	INT_EQ(img_animated(vp8x, sizeof vp8x), 1);
	unsigned char still[sizeof vp8x];
	memcpy(still, vp8x, sizeof still);
	still[20] = 0x10; /* alpha only */
	INT_EQ(img_animated(still, sizeof still), 0);
	buf_reset(&b);
	buf_append(&b, still, sizeof still);
	buf_append(&b, "ANIM\x06\0\0\0\0\0\0\0\0\0", 14);
	INT_EQ(img_animated((const unsigned char *)b.p, b.len), 1);
	STR_EQ(decode_err(vp8x, sizeof vp8x, NULL), "an animated WebP: animations are passed through, not decoded");

	/* neither: a JPEG, nothing */
	INT_EQ(img_animated((const unsigned char *)"\xff\xd8\xff", 3), 0);
	INT_EQ(img_animated(NULL, 0), 0);
	buf_fini(&b);
}

/* avif: libavif, loaded at run time (deps.sh installs it), encodes a
 * picture whose head says its size; the same pixels give the same bytes;
 * a library that is not there is a message. */
static void avif(void)
{
	const char *why = img_avif_available();
	STR_EQ(why ? why : "(available)", "(available)");
	if (why)
		return;
	OK(img_avif_version() && !strncmp(img_avif_version(), "libavif ", 8));
	struct img src = gradient(64, 48, 1);
	struct buf out, again, err;
	buf_init(&out);
	buf_init(&again);
	buf_init(&err);
	struct img_encode_opts o = {IMG_AVIF, 60, 0, 0, 0};
	INT_EQ(img_encode(&src, &o, &out, &err), 0);
	STR_EQ(err.p ? err.p : "", "");
	STR_EQ(image_kind((const unsigned char *)out.p, out.len), "avif");
	int w = 0, h = 0;
	INT_EQ(image_size((const unsigned char *)out.p, out.len, &w, &h), 1);
	INT_EQ(w, 64);
	INT_EQ(h, 48);
	INT_EQ(img_encode(&src, &o, &again, &err), 0);
	OK(out.len == again.len && !memcmp(out.p, again.p, out.len));
	/* it is no format folio decodes: said so */
	struct img back;
	INT_EQ(img_decode((const unsigned char *)out.p, out.len, NULL, &back, &err), -1);
	STR_EQ(err.p, "an AVIF image: only JPEG, PNG and WebP images can be decoded");
	/* a lower quality, fewer bytes */
	buf_reset(&again);
	o.quality = 10;
	INT_EQ(img_encode(&src, &o, &again, &err), 0);
	OK(again.len < out.len);
	img_free(&src);
	buf_fini(&out);
	buf_fini(&again);
	buf_fini(&err);
}

/* metadata: a photograph's EXIF (here orientation 6, a quarter turn) is
 * dropped from its copies unless asked; kept, it says upright (the pixels
 * were turned), in each format that holds EXIF, and is read back the same
 * from each. */
static void metadata(void)
{
	unsigned char rgb[8 * 4 * 3];
	for (size_t i = 0; i < sizeof rgb; i++)
		rgb[i] = (unsigned char)(i * 7);
	unsigned long n;
	unsigned char *jpeg = write_jpeg(rgb, 8, 4, 3, JCS_YCbCr, 0, &n);
	struct buf b, out, err;
	buf_init(&b);
	buf_init(&out);
	buf_init(&err);
	exif_jpeg(jpeg, n, 6, 0, &b);
	struct img im;
	INT_EQ(decode(&b, &im), 0);
	INT_EQ(im.w, 4); /* turned upright */
	INT_EQ(im.exif_len, 26);
	OK(im.exif && !memcmp(im.exif, "MM\0*", 4));
	/* its orientation now 1 (the value's bytes, big-endian, at 18) */
	OK(im.exif && im.exif[18] == 0 && im.exif[19] == 1);
	static const enum img_format fmts[] = {IMG_JPEG, IMG_PNG, IMG_WEBP};
	for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++) {
		struct img_encode_opts o = {fmts[f], 80, 0, 0, 0};
		buf_reset(&out);
		INT_EQ(img_encode(&im, &o, &out, &err), 0);
		OK(!memmem(out.p, out.len, "MM\0*", 4)); /* stripped */
		o.keep_metadata = 1;
		buf_reset(&out);
		INT_EQ(img_encode(&im, &o, &out, &err), 0);
		OK(memmem(out.p, out.len, im.exif, im.exif_len) != NULL);
		struct img back;
		INT_EQ(decode(&out, &back), 0);
		OK(back.exif_len == im.exif_len && back.exif && !memcmp(back.exif, im.exif, im.exif_len));
		INT_EQ(back.w, 4); /* and it is not turned a second time */
		img_free(&back);
	}
	/* a resized copy keeps it too */
	struct img small;
	INT_EQ(img_resize(&im, 2, 4, &small, &err), 0);
	OK(small.exif_len == im.exif_len && !memcmp(small.exif, im.exif, im.exif_len));
	img_free(&small);
	img_free(&im);
	free(jpeg);
	buf_fini(&b);
	buf_fini(&out);
	buf_fini(&err);
}

void test_images(void)
{
	t_current = "images";
	round_trips();
	orientations();
	scaled();
	cmyk();
	png_layouts();
	resizing();
	profiles();
	determinism();
	threads();
	bad_inputs();
	animations();
	avif();
	metadata();
}
