/* fuzz_imgdecode.c: libFuzzer target for the image codecs (images.h): an
 * input is an image file as an author would drop it in. img_animated reads
 * it; img_decode decodes it under a budget of 4 megapixels (the build's is
 * 64: a smaller one keeps each run fast, and the same code refuses more),
 * for an input of odd length through img_decode_scaled (a JPEG shrunk by
 * libjpeg's scaled IDCT to no less than 16 pixels wide);
 * a decoded image is resized to half its size, encoded as WebP and as its
 * own format (a PNG with alpha stays PNG, an opaque one or a JPEG is also
 * written as JPEG), and each encoding is decoded again. Besides crashes,
 * leaks and hangs, the target checks the API's promises: a decoded image
 * is within the budget and has pixels, an error leaves no image and says
 * why, and what the encoders write decodes to the size they were given. */
#include "fuzz.h"

#include "base/buf.h"
#include "images/images.h"
#include "images/imagesize.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void fail(const char *what, const struct buf *err)
{
	fprintf(stderr, "%s%s%s\n", what, err && err->p ? ": " : "", err && err->p ? err->p : "");
	abort();
}

/* again: im encoded as f (at the fastest effort, its EXIF kept), decoded
 * back: it must give its size and its EXIF. A WebP is at most 16383 pixels a side: a wider image is
 * refused with that message. */
static void again(const struct img *im, enum img_format f, int lossless)
{
	struct img_encode_opts o = {f, 60, lossless, 1, 1};
	struct buf out, err;
	buf_init(&out);
	buf_init(&err);
	int too_wide = f == IMG_WEBP && (im->w > 16383 || im->h > 16383);
	if (img_encode(im, &o, &out, &err) != 0) {
		if (!too_wide || !strstr(err.p, "a WebP is at most 16383 pixels a side"))
			fail("an image the decoder made could not be encoded", &err);
		buf_fini(&err);
		return;
	}
	if (too_wide)
		fail("a WebP of more than 16383 pixels a side", NULL);
	struct img back;
	struct img_limits lim = {4000000, 0};
	if (img_decode((const unsigned char *)out.p, out.len, &lim, &back, &err) != 0)
		fail("what the encoder wrote does not decode", &err);
	if (back.w != im->w || back.h != im->h)
		fail("what the encoder wrote decodes to another size", NULL);
	if (back.exif_len != im->exif_len || (im->exif_len && memcmp(back.exif, im->exif, im->exif_len)))
		fail("the EXIF kept is not read back as it was", NULL);
	img_free(&back);
	buf_fini(&out);
	buf_fini(&err);
}

static int opaque(const struct img *im)
{
	for (size_t i = 3; i < (size_t)im->w * im->h * 4; i += 4)
		if (im->rgba[i] != 255)
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)img_animated(data, size);
	struct img_limits lim = {4000000, 0};
	struct img im;
	struct buf err;
	buf_init(&err);
	uint32_t min_w = size % 2 ? 16 : 0;
	if (img_decode_scaled(data, size, &lim, min_w, &im, &err) != 0) {
		if (im.rgba || im.icc || im.w || im.h)
			fail("img_decode failed but left an image", &err);
		if (!err.p || !err.len || memchr(err.p, '\n', err.len))
			fail("img_decode failed without a one-line message", &err);
		buf_fini(&err);
		return 0;
	}
	if (!im.rgba || im.w == 0 || im.h == 0 || (uint64_t)im.w * im.h > lim.max_pixels)
		fail("img_decode made an image out of its budget", NULL);
	if (!im.icc != !im.icc_len)
		fail("a profile without a length, or a length without a profile", NULL);
	struct img half;
	uint32_t w = im.w / 2 ? im.w / 2 : 1, h = im.h / 2 ? im.h / 2 : 1;
	if (img_resize(&im, w, h, &half, &err) != 0)
		fail("img_resize refused to halve", &err);
	if (half.w != w || half.h != h || half.icc_len != im.icc_len)
		fail("img_resize made another size, or lost the profile", NULL);
	const char *kind = image_kind(data, size);
	int png = kind && strcmp(kind, "png") == 0;
	again(&half, IMG_WEBP, png);
	if (png)
		again(&half, IMG_PNG, 0);
	if (opaque(&half))
		again(&half, IMG_JPEG, 0);
	if (strcmp(kind, "webp") == 0)
		again(&half, IMG_WEBP, 1);
	img_free(&half);
	img_free(&im);
	buf_fini(&err);
	return 0;
}
