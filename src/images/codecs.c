/* codecs.c: the names and versions of the codecs images/ is built with
 * (img_codecs), which a cached copy's key holds: a new encoder may write
 * other bytes. */
#include "images/images.h"

#include <pthread.h>
#include <stdio.h>

#include <jconfig.h>
#include <png.h>
#include <webp/encode.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static char codecs[160];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void describe(void)
{
	int v = WebPGetEncoderVersion();
	snprintf(codecs, sizeof codecs,
		 "libjpeg-turbo " STR(LIBJPEG_TURBO_VERSION) ", libpng " PNG_LIBPNG_VER_STRING
		 ", libwebp %d.%d.%d, stb_image_resize2",
		 (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
}

const char *img_codecs(void)
{
	pthread_once(&once, describe);
	return codecs;
}
