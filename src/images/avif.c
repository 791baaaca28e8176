/* avif.c: AVIF through libavif, loaded at run time (dlopen), never linked:
 * a site that asks for no AVIF needs no libavif, and one that does uses the
 * system's, of either ABI (libavif.so.16, 1.x; libavif.so.15, 0.11), whose
 * structs avifenc.c is compiled against, once for each. */
#include "images/internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	pthread_once_t once;
	int abi; /* 15 or 16; 0: not loaded */
	struct img_avif_fns f;
	char why[256];     /* when not loaded: why */
	char version[64];  /* "libavif 1.2.1 (aom)" */
} avif = {PTHREAD_ONCE_INIT, 0, {0}, "", ""};

/* sym: lib's function name into *fp (a generic function pointer); 0, or
 * -1 when it lacks it. */
static int sym(void *lib, const char *name, img_avif_fn *fp)
{
	void *p = dlsym(lib, name);
	if (!p)
		return -1;
	memcpy(fp, &p, sizeof p); /* POSIX: a function's address as dlsym gives it */
	return 0;
}

/* CHOOSE_ENCODER (avifCodecFlags' AVIF_CODEC_FLAG_CAN_ENCODE, 1 << 1 in
 * both ABIs) and AUTO (AVIF_CODEC_CHOICE_AUTO, 0): avifCodecName's
 * arguments, the same in both. */
enum { AVIF_CAN_ENCODE = 1 << 1, AVIF_AUTO = 0 };

static void load(void)
{
	/* FOLIO_LIBAVIF: a libavif of one's own (a path), in place of the
	 * system's */
	const char *own = getenv("FOLIO_LIBAVIF");
	const char *const libs[] = {own && *own ? own : "libavif.so.16", own && *own ? NULL : "libavif.so.15"};
	void *lib = NULL;
	for (size_t i = 0; i < 2 && libs[i] && !lib; i++)
		lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		if (own && *own)
			snprintf(avif.why, sizeof avif.why, "FOLIO_LIBAVIF names no library that loads (%s)", dlerror());
		else
			snprintf(avif.why, sizeof avif.why,
			         "AVIF needs libavif (libavif.so.16 or .so.15), which folio loads when asked for, "
			         "and this system has none (hint: on Debian, apt-get install libavif16, or "
			         "libavif15 on Debian 12; or leave avif out of images.formats)");
		return;
	}
	img_avif_fn version = NULL, codec_name = NULL;
	int abi = 0;
	struct img_avif_fns *f = &avif.f;
	if (sym(lib, "avifVersion", &version) || sym(lib, "avifCodecName", &codec_name) ||
	    sym(lib, "avifImageCreate", &f->image_create) || sym(lib, "avifImageDestroy", &f->image_destroy) ||
	    sym(lib, "avifRGBImageSetDefaults", &f->rgb_defaults) || sym(lib, "avifImageRGBToYUV", &f->rgb_to_yuv) ||
	    sym(lib, "avifEncoderCreate", &f->encoder_create) || sym(lib, "avifEncoderDestroy", &f->encoder_destroy) ||
	    sym(lib, "avifEncoderWrite", &f->encoder_write) || sym(lib, "avifRWDataFree", &f->data_free) ||
	    sym(lib, "avifResultToString", &f->result_string) || sym(lib, "avifImageSetProfileICC", &f->set_icc) ||
	    sym(lib, "avifImageSetMetadataExif", &f->set_exif)) {
		snprintf(avif.why, sizeof avif.why, "libavif lacks a function folio uses (%s)", dlerror());
		dlclose(lib);
		return;
	}
	/* the ABI from the version: 1.x is libavif.so.16's; 0.9 to 0.11 have
	 * the structs of libavif.so.15 (0.11) */
	const char *v = ((const char *(*)(void))version)();
	int major = -1, minor = -1;
	if (v)
		sscanf(v, "%d.%d", &major, &minor);
	abi = major == 1 ? 16 : major == 0 && minor >= 9 && minor <= 11 ? 15 : 0;
	if (!abi) {
		snprintf(avif.why, sizeof avif.why, "libavif %s: folio knows the structs of 0.9 to 0.11 and 1.x only",
		         v ? v : "?");
		dlclose(lib);
		return;
	}
	const char *codec = ((const char *(*)(int, int))codec_name)(AVIF_AUTO, AVIF_CAN_ENCODE);
	if (!codec) {
		snprintf(avif.why, sizeof avif.why,
		         "libavif %s has no AV1 encoder (it was built with decoders only): AVIF needs one, such as aom",
		         v ? v : "?");
		dlclose(lib);
		return;
	}
	/* its version is part of a copy's key: another encoder, other bytes */
	snprintf(avif.version, sizeof avif.version, "libavif %s (%s)", v ? v : "?", codec);
	avif.abi = abi; /* the library stays loaded for the process */
}

const char *img_avif_available(void)
{
	pthread_once(&avif.once, load);
	return avif.abi ? NULL : avif.why;
}

const char *img_avif_version(void)
{
	pthread_once(&avif.once, load);
	return avif.abi ? avif.version : NULL;
}

int img_avif_encode(const struct img *in, int quality, struct buf *out, struct buf *err)
{
	const char *why = img_avif_available();
	if (why) {
		buf_puts(err, why);
		return -1;
	}
	return avif.abi == 16 ? img_avif_encode_16(&avif.f, in, quality, out, err)
	                      : img_avif_encode_15(&avif.f, in, quality, out, err);
}
