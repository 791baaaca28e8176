/* png.c: PNG decoded and encoded through libpng, whose errors come back as
 * messages (never printed) and whose warnings are dropped. */
#include "images/internal.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "base/arena.h"

/* What a decode or an encode holds, outside the function that calls
 * setjmp, so that nothing it changes is lost to the longjmp of an error. */
struct pctx {
	jmp_buf jmp;
	struct buf *err;
	png_structp png;
	png_infop info;
	/* decoding: the input and where the reading is */
	const unsigned char *p;
	size_t n, pos;
	int truncated;
	struct img out;
	png_bytep *rows;
	/* encoding: the output, and one row in the PNG's own layout */
	struct buf *dst;
	unsigned char *row;
};

static void pctx_error(png_structp png, png_const_charp msg)
{
	struct pctx *x = png_get_error_ptr(png);
	if (x->truncated)
		buf_puts(x->err, "truncated PNG data");
	else if (x->dst)
		buf_printf(x->err, "PNG encoder error (libpng: %s)", msg);
	else
		buf_printf(x->err, "corrupt PNG data (libpng: %s)", msg);
	longjmp(x->jmp, 1);
}

static void pctx_warning(png_structp png, png_const_charp msg)
{
	(void)png; /* never to stderr: a warning is about a chunk folio skips */
	(void)msg;
}

/* ---- decoding ---- */

static void pdec_read(png_structp png, png_bytep out, size_t len)
{
	struct pctx *x = png_get_io_ptr(png);
	if (x->n - x->pos < len) {
		x->truncated = 1;
		png_error(png, "truncated");
	}
	memcpy(out, x->p + x->pos, len);
	x->pos += len;
}

/* pdec_transforms: libpng told to hand every PNG over as 8-bit RGBA:
 * palette, gray and low depths expanded, tRNS made alpha, 16 bits scaled
 * (rounded, not cut), gray made RGB, opaque alpha added. No gamma
 * transform: the pixels stay as stored. */
static void pdec_transforms(png_structp png, png_infop info)
{
	int ctype = png_get_color_type(png, info);
	png_set_expand(png);
	png_set_scale_16(png);
	png_set_gray_to_rgb(png);
	if (!(ctype & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
		png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
}

static int png_decode_run(struct pctx *x, const struct img_limits *lim)
{
	if (setjmp(x->jmp))
		return -1;
	x->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, x, pctx_error, pctx_warning);
	if (!x->png)
		xoom();
	x->info = png_create_info_struct(x->png);
	if (!x->info)
		xoom();
	png_set_read_fn(x->png, x, pdec_read);
	/* Every chunk but the image's own (IHDR, PLTE, tRNS, IDAT, IEND) and
	 * iCCP is skipped unread: text, EXIF and the like are dropped anyway,
	 * and a thousand compressed text chunks would be a memory bomb. */
	static const png_byte iccp[] = "iCCP", exif[] = "eXIf";
	png_set_keep_unknown_chunks(x->png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
	png_set_keep_unknown_chunks(x->png, PNG_HANDLE_CHUNK_AS_DEFAULT, iccp, 1);
	png_set_keep_unknown_chunks(x->png, PNG_HANDLE_CHUNK_AS_DEFAULT, exif, 1);
	png_read_info(x->png, x->info);
	png_uint_32 w = png_get_image_width(x->png, x->info), h = png_get_image_height(x->png, x->info);
	if (img_budget(w, h, lim, x->err) < 0)
		return -1;
	pdec_transforms(x->png, x->info);
	if (png_get_rowbytes(x->png, x->info) != (size_t)w * 4) {
		buf_puts(x->err, "libpng did not make the PNG's rows 8-bit RGBA");
		return -1;
	}
	img_alloc(&x->out, w, h);
	png_charp name;
	int compression;
	png_bytep profile;
	png_uint_32 profile_len;
	if (png_get_iCCP(x->png, x->info, &name, &compression, &profile, &profile_len))
		img_keep_icc(&x->out, profile, profile_len);
	png_bytep ex = NULL;
	png_uint_32 ex_len = 0;
	if (png_get_eXIf_1(x->png, x->info, &ex_len, &ex) && ex)
		img_keep_exif(&x->out, ex, ex_len);
	x->rows = xmalloc(h * sizeof *x->rows);
	for (png_uint_32 y = 0; y < h; y++)
		x->rows[y] = x->out.rgba + (size_t)y * w * 4;
	png_read_image(x->png, x->rows);
	png_read_end(x->png, NULL); /* the rest of IDAT, and IEND: a file cut before is truncated */
	return 0;
}

/* png_be32: the big-endian number at p. */
static uint32_t png_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int img_png_decode(const unsigned char *p, size_t n, const struct img_limits *lim, struct img *out,
                   struct buf *err)
{
	/* A zero side in IHDR: libpng would only say "Invalid IHDR data". */
	if (n >= 24 && memcmp(p + 12, "IHDR", 4) == 0 &&
	    img_budget(png_be32(p + 16), png_be32(p + 20), lim, err) < 0)
		return -1;
	struct pctx *x = xcalloc(1, sizeof *x);
	x->err = err;
	x->p = p;
	x->n = n;
	int r = png_decode_run(x, lim);
	if (x->png)
		png_destroy_read_struct(&x->png, x->info ? &x->info : NULL, NULL);
	if (r == 0)
		*out = x->out;
	else
		img_free(&x->out);
	free(x->rows);
	free(x);
	return r;
}

/* ---- encoding ---- */

static void penc_write(png_structp png, png_bytep data, size_t len)
{
	struct pctx *x = png_get_io_ptr(png);
	buf_append(x->dst, data, len);
}

static void penc_flush(png_structp png)
{
	(void)png;
}

/* penc_type: the smallest PNG colour type that holds in's pixels exactly.
 * Gray only without a profile: the profile is an RGB one, which a gray
 * PNG cannot carry. */
static int penc_type(const struct img *in)
{
	int opaque = img_opaque(in);
	if (!in->icc && img_gray(in))
		return opaque ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_GRAY_ALPHA;
	return opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
}

/* penc_row: the RGBA row src made ctype's layout in dst. */
static void penc_row(int ctype, const unsigned char *src, uint32_t w, unsigned char *dst)
{
	for (uint32_t x = 0; x < w; x++, src += 4) {
		switch (ctype) {
		case PNG_COLOR_TYPE_GRAY: *dst++ = src[0]; break;
		case PNG_COLOR_TYPE_GRAY_ALPHA: *dst++ = src[0], *dst++ = src[3]; break;
		case PNG_COLOR_TYPE_RGB: memcpy(dst, src, 3), dst += 3; break;
		default: memcpy(dst, src, 4), dst += 4; break;
		}
	}
}

static int png_encode_run(struct pctx *x, const struct img *in, int level)
{
	if (setjmp(x->jmp))
		return -1;
	x->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, x, pctx_error, pctx_warning);
	if (!x->png)
		xoom();
	x->info = png_create_info_struct(x->png);
	if (!x->info)
		xoom();
	png_set_write_fn(x->png, x, penc_write, penc_flush);
	/* a profile libpng finds wrong is left out, not an error */
	png_set_benign_errors(x->png, 1);
	png_set_compression_level(x->png, level);
	int ctype = penc_type(in);
	png_set_IHDR(x->png, x->info, in->w, in->h, 8, ctype, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
	             PNG_FILTER_TYPE_DEFAULT);
	if (in->icc)
		png_set_iCCP(x->png, x->info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, in->icc,
		             (png_uint_32)in->icc_len);
	if (in->exif)
		png_set_eXIf_1(x->png, x->info, (png_uint_32)in->exif_len, in->exif);
	png_write_info(x->png, x->info);
	x->row = xmalloc((size_t)in->w * 4);
	for (uint32_t y = 0; y < in->h; y++) {
		penc_row(ctype, in->rgba + (size_t)y * in->w * 4, in->w, x->row);
		png_write_row(x->png, x->row);
	}
	png_write_end(x->png, NULL);
	return 0;
}

int img_png_encode(const struct img *in, int level, struct buf *out, struct buf *err)
{
	size_t len = out->len;
	struct pctx *x = xcalloc(1, sizeof *x);
	x->err = err;
	x->dst = out;
	int r = png_encode_run(x, in, level);
	if (x->png)
		png_destroy_write_struct(&x->png, x->info ? &x->info : NULL);
	free(x->row);
	free(x);
	if (r < 0) {
		out->len = len;
		if (out->p)
			out->p[len] = '\0';
	}
	return r;
}
