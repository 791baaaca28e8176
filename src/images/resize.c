/* resize.c: img_resize, on stb_image_resize2 (whose implementation stbir.c
 * compiles).
 *
 * Why stb_image_resize2 rather than a resampler of folio's own: it is one
 * public-domain header that Debian packages (libstb-dev), so it is pinned
 * and updated like every other library; it resizes in linear light from
 * and to sRGB bytes (averaging sRGB values darkens edges and fine detail),
 * weights colours by alpha (no dark or coloured fringes around transparent
 * areas), has proper filters (Mitchell, Catmull-Rom, B-spline) with correct
 * support when shrinking, and SSE2/AVX code paths whose results are the same
 * bytes on every machine (it promises determinism without FMA contraction,
 * which mk/images.mk turns off for stbir.c). A separable filter of that quality, with
 * sRGB tables, alpha weighting and SIMD, is some thousands of lines to
 * write and to get right. */
#include "images/internal.h"

#include <limits.h>
#include <string.h>

#include "base/arena.h"

#include <stb/stb_image_resize2.h>

int img_resize(const struct img *in, uint32_t w, uint32_t h, struct img *out, struct buf *err)
{
	*out = (struct img){0};
	if (!in->rgba || in->w == 0 || in->h == 0) {
		buf_puts(err, "an empty image cannot be resized");
		return -1;
	}
	if (w == 0 || h == 0) {
		buf_printf(err, "an image cannot be resized to %u x %u pixels", (unsigned)w, (unsigned)h);
		return -1;
	}
	if (w > in->w || h > in->h) {
		buf_printf(err, "the image is %u x %u pixels: it is never enlarged (to %u x %u)", (unsigned)in->w,
		           (unsigned)in->h, (unsigned)w, (unsigned)h);
		return -1;
	}
	/* stb takes sizes and strides as int */
	if (in->w > INT_MAX / 4 || in->h > INT_MAX) {
		buf_printf(err, "the image is %u x %u pixels: too large to resize", (unsigned)in->w, (unsigned)in->h);
		return -1;
	}
	img_alloc(out, w, h);
	if (w == in->w && h == in->h) {
		memcpy(out->rgba, in->rgba, (size_t)w * h * 4);
	} else {
		/* Opaque pixels need no alpha weighting: the same result, twice
		 * as fast. The filter is named, not stb's default, so that an
		 * update of stb that changes its default changes no output. */
		STBIR_RESIZE r;
		stbir_resize_init(&r, in->rgba, (int)in->w, (int)in->h, 0, out->rgba, (int)w, (int)h, 0,
		                  img_opaque(in) ? STBIR_RGBA_NO_AW : STBIR_RGBA, STBIR_TYPE_UINT8_SRGB);
		stbir_set_filters(&r, STBIR_FILTER_MITCHELL, STBIR_FILTER_MITCHELL);
		stbir_set_edgemodes(&r, STBIR_EDGE_CLAMP, STBIR_EDGE_CLAMP);
		if (!stbir_resize_extended(&r)) {
			img_free(out);
			buf_printf(err, "stb_image_resize2 could not resize %u x %u pixels to %u x %u", (unsigned)in->w,
			           (unsigned)in->h, (unsigned)w, (unsigned)h);
			return -1;
		}
	}
	if (in->exif) {
		out->exif = xmalloc(in->exif_len);
		memcpy(out->exif, in->exif, in->exif_len);
		out->exif_len = in->exif_len;
	}
	if (in->icc) {
		out->icc = xmalloc(in->icc_len);
		memcpy(out->icc, in->icc, in->icc_len);
		out->icc_len = in->icc_len;
	}
	return 0;
}
