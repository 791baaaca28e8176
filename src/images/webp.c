/* webp.c: WebP decoded and encoded through libwebp; the colour profile read
 * from the ICCP chunk, and written with libwebp's mux library. */
#include "images/internal.h"

#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include "base/arena.h"

/* wdec_status: libwebp's decoder status as a message. */
static void wdec_status(VP8StatusCode s, struct buf *err)
{
	switch (s) {
	case VP8_STATUS_NOT_ENOUGH_DATA: buf_puts(err, "truncated WebP data"); break;
	case VP8_STATUS_UNSUPPORTED_FEATURE: buf_puts(err, "an unsupported kind of WebP"); break;
	case VP8_STATUS_OUT_OF_MEMORY: buf_puts(err, "out of memory decoding the WebP"); break;
	default: buf_printf(err, "corrupt WebP data (libwebp: status %d)", (int)s); break;
	}
}

int img_webp_decode(const unsigned char *p, size_t n, const struct img_limits *lim, struct img *out,
                    struct buf *err)
{
	WebPDecoderConfig cfg;
	if (!WebPInitDecoderConfig(&cfg)) {
		buf_puts(err, "libwebp's decoder does not match its header");
		return -1;
	}
	VP8StatusCode s = WebPGetFeatures(p, n, &cfg.input);
	if (s != VP8_STATUS_OK) {
		wdec_status(s, err);
		return -1;
	}
	if (cfg.input.has_animation) {
		buf_puts(err, "an animated WebP: animations are passed through, not decoded");
		return -1;
	}
	if (img_budget((uint64_t)cfg.input.width, (uint64_t)cfg.input.height, lim, err) < 0)
		return -1;
	struct img im;
	img_alloc(&im, (uint32_t)cfg.input.width, (uint32_t)cfg.input.height);
	cfg.output.colorspace = MODE_RGBA;
	cfg.output.is_external_memory = 1;
	cfg.output.u.RGBA.rgba = im.rgba;
	cfg.output.u.RGBA.stride = (int)im.w * 4;
	cfg.output.u.RGBA.size = (size_t)im.w * im.h * 4;
	s = WebPDecode(p, n, &cfg);
	WebPFreeDecBuffer(&cfg.output); /* nothing of its own: the memory is im's */
	if (s != VP8_STATUS_OK) {
		img_free(&im);
		wdec_status(s, err);
		return -1;
	}
	size_t icc_len;
	const unsigned char *icc = image_riff_chunk(p, n, "ICCP", &icc_len);
	if (icc)
		img_keep_icc(&im, icc, icc_len);
	size_t exif_len;
	const unsigned char *exif = image_riff_chunk(p, n, "EXIF", &exif_len);
	if (exif)
		img_keep_exif(&im, exif, exif_len);
	*out = im;
	return 0;
}

/* wenc_config: the encoder's settings for o; 0, or -1 with a message. */
static int wenc_config(const struct img_encode_opts *o, WebPConfig *cfg, struct buf *err)
{
	if (!WebPConfigInit(cfg)) {
		buf_puts(err, "libwebp's encoder does not match its header");
		return -1;
	}
	if (o->lossless) {
		if (o->effort < 0 || o->effort > 9) {
			buf_printf(err, "lossless WebP effort %d: it is 1 to 9 (or 0, the default)", o->effort);
			return -1;
		}
		/* the preset sets the method and how hard to search (quality) */
		WebPConfigLosslessPreset(cfg, o->effort ? o->effort : 6);
	} else {
		if (o->effort < 0 || o->effort > 6) {
			buf_printf(err, "WebP effort %d: it is 1 to 6 (or 0, the default)", o->effort);
			return -1;
		}
		cfg->quality = (float)(o->quality ? o->quality : 80);
		cfg->method = o->effort ? o->effort : 4;
	}
	cfg->thread_level = 0; /* the build runs one image per thread */
	if (!WebPValidateConfig(cfg)) {
		buf_puts(err, "libwebp refused the encoder's settings");
		return -1;
	}
	return 0;
}

/* wenc_with_chunks: the WebP file w[0..n) with in's ICCP and EXIF chunks
 * (those it has), appended to out (a VP8X header made by the mux
 * library). */
static int wenc_with_chunks(const uint8_t *w, size_t n, const struct img *in, struct buf *out, struct buf *err)
{
	WebPMux *mux = WebPMuxNew();
	if (!mux)
		xoom();
	WebPData image = {w, n}, icc = {in->icc, in->icc_len}, exif = {in->exif, in->exif_len}, file = {NULL, 0};
	int ok = WebPMuxSetImage(mux, &image, 0) == WEBP_MUX_OK &&
	         (!in->icc || WebPMuxSetChunk(mux, "ICCP", &icc, 0) == WEBP_MUX_OK) &&
	         (!in->exif || WebPMuxSetChunk(mux, "EXIF", &exif, 0) == WEBP_MUX_OK) &&
	         WebPMuxAssemble(mux, &file) == WEBP_MUX_OK;
	if (ok)
		buf_append(out, file.bytes, file.size);
	else
		buf_puts(err, "libwebp's mux library could not add the colour profile or the metadata");
	WebPDataClear(&file);
	WebPMuxDelete(mux);
	return ok ? 0 : -1;
}

int img_webp_encode(const struct img *in, const struct img_encode_opts *o, struct buf *out, struct buf *err)
{
	if (in->w > WEBP_MAX_DIMENSION || in->h > WEBP_MAX_DIMENSION) {
		buf_printf(err, "the image is %u x %u pixels: a WebP is at most %d pixels a side", (unsigned)in->w,
		           (unsigned)in->h, WEBP_MAX_DIMENSION);
		return -1;
	}
	WebPConfig cfg;
	if (wenc_config(o, &cfg, err) < 0)
		return -1;
	WebPPicture pic;
	if (!WebPPictureInit(&pic)) {
		buf_puts(err, "libwebp's encoder does not match its header");
		return -1;
	}
	pic.width = (int)in->w;
	pic.height = (int)in->h;
	pic.use_argb = o->lossless != 0; /* lossy: straight to YUV */
	if (!WebPPictureImportRGBA(&pic, in->rgba, (int)in->w * 4))
		xoom();
	WebPMemoryWriter wr;
	WebPMemoryWriterInit(&wr);
	pic.writer = WebPMemoryWrite;
	pic.custom_ptr = &wr;
	int ok = WebPEncode(&cfg, &pic);
	int code = (int)pic.error_code;
	WebPPictureFree(&pic);
	int r = 0;
	if (!ok) {
		if (code == VP8_ENC_ERROR_OUT_OF_MEMORY || code == VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY)
			xoom();
		buf_printf(err, "libwebp could not encode the image (error %d)", code);
		r = -1;
	} else if (in->icc || in->exif) {
		r = wenc_with_chunks(wr.mem, wr.size, in, out, err);
	} else {
		buf_append(out, wr.mem, wr.size);
	}
	WebPMemoryWriterClear(&wr);
	return r;
}
