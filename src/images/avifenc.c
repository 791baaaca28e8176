/* avifenc.c: an image encoded as AVIF through libavif's functions that
 * avif.c loaded at run time. Compiled once per ABI of libavif, since the
 * structs folio fills (avifRGBImage, avifEncoder) differ between them and
 * the code does not: here for 1.x (libavif.so.16; mk/images.mk puts Debian
 * 13's avif.h first on this file's include path), and by avifenc15.c for
 * 0.11 (libavif.so.15, the system's avif.h). */
#include "images/internal.h"

#ifndef AVIF_ABI
#define AVIF_ABI 16
#endif

#include <avif/avif.h>

#if AVIF_ABI == 15 && !(AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR >= 9)
#error "AVIF_ABI 15 is built against libavif 0.9 to 0.11's avif.h"
#elif AVIF_ABI == 16 && AVIF_VERSION_MAJOR != 1
#error "AVIF_ABI 16 is built against libavif 1.x's avif.h"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define ENCODE CAT(img_avif_encode_, AVIF_ABI)

int ENCODE(const struct img_avif_fns *f, const struct img *in, int quality, struct buf *out, struct buf *err)
{
	avifImage *(*image_create)(uint32_t, uint32_t, uint32_t, avifPixelFormat) = (avifImage *(*)(uint32_t, uint32_t, uint32_t, avifPixelFormat))f->image_create;
	void (*image_destroy)(avifImage *) = (void (*)(avifImage *))f->image_destroy;
	void (*rgb_defaults)(avifRGBImage *, const avifImage *) = (void (*)(avifRGBImage *, const avifImage *))f->rgb_defaults;
	avifResult (*rgb_to_yuv)(avifImage *, const avifRGBImage *) = (avifResult (*)(avifImage *, const avifRGBImage *))f->rgb_to_yuv;
	avifEncoder *(*encoder_create)(void) = (avifEncoder *(*)(void))f->encoder_create;
	void (*encoder_destroy)(avifEncoder *) = (void (*)(avifEncoder *))f->encoder_destroy;
	avifResult (*encoder_write)(avifEncoder *, const avifImage *, avifRWData *) = (avifResult (*)(avifEncoder *, const avifImage *, avifRWData *))f->encoder_write;
	void (*data_free)(avifRWData *) = (void (*)(avifRWData *))f->data_free;
	const char *(*result_string)(avifResult) = (const char *(*)(avifResult))f->result_string;
#if AVIF_VERSION_MAJOR >= 1
	avifResult (*set_icc)(avifImage *, const uint8_t *, size_t) = (avifResult(*)(avifImage *, const uint8_t *, size_t))f->set_icc;
#else
	void (*set_icc)(avifImage *, const uint8_t *, size_t) = (void (*)(avifImage *, const uint8_t *, size_t))f->set_icc;
#endif

	avifImage *image = image_create(in->w, in->h, 8, AVIF_PIXEL_FORMAT_YUV420);
	avifEncoder *enc = encoder_create();
	avifRWData data = AVIF_DATA_EMPTY;
	avifResult r = image && enc ? AVIF_RESULT_OK : AVIF_RESULT_OUT_OF_MEMORY;
	if (r == AVIF_RESULT_OK) {
		image->yuvRange = AVIF_RANGE_FULL;
		avifRGBImage rgb;
		rgb_defaults(&rgb, image);
		rgb.format = AVIF_RGB_FORMAT_RGBA;
		rgb.depth = 8;
		rgb.pixels = in->rgba;
		rgb.rowBytes = in->w * 4;
		r = rgb_to_yuv(image, &rgb);
	}
	if (r == AVIF_RESULT_OK && in->icc_len) {
#if AVIF_VERSION_MAJOR >= 1
		r = set_icc(image, in->icc, in->icc_len);
#else
		set_icc(image, in->icc, in->icc_len);
#endif
	}
	if (r == AVIF_RESULT_OK && in->exif) {
#if AVIF_VERSION_MAJOR >= 1
		r = ((avifResult(*)(avifImage *, const uint8_t *, size_t))f->set_exif)(image, in->exif, in->exif_len);
#else
		((void (*)(avifImage *, const uint8_t *, size_t))f->set_exif)(image, in->exif, in->exif_len);
#endif
	}
	if (r == AVIF_RESULT_OK) {
		/* quality 1..100 as a quantizer, 63..0 (libavif 1.x's own
		 * mapping of its quality); alpha lossless, as in WebP */
		int qz = (100 - quality) * 63 / 100;
		enc->minQuantizer = enc->maxQuantizer = qz;
		enc->minQuantizerAlpha = enc->maxQuantizerAlpha = 0;
		enc->maxThreads = 1; /* the build's pool runs one image a thread */
		enc->speed = IMG_AVIF_SPEED;
		r = encoder_write(enc, image, &data);
	}
	int rc = 0;
	if (r == AVIF_RESULT_OK) {
		buf_append(out, data.data, data.size);
	} else {
		buf_printf(err, "AVIF: %s", result_string(r));
		rc = -1;
	}
	data_free(&data);
	if (enc)
		encoder_destroy(enc);
	if (image)
		image_destroy(image);
	return rc;
}
