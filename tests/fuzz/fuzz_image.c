/* fuzz_image.c: libFuzzer target for image_size and image_kind, which read
 * the headers of a site's images (PNG, JPEG, GIF, WebP, SVG) to write
 * their width and height. An input is the file's bytes; as src/md/blocks.c
 * does, only its first 64 KiB are read. Besides crashes, the target checks
 * imagesize.h's promises: a size is at least 1x1, and a file whose size is
 * known has a known kind. */
#include "fuzz.h"

#include "images/imagesize.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		size = 65536;
	int w = 0, h = 0;
	const char *kind = image_kind(data, size);
	if (image_size(data, size, &w, &h)) {
		if (w < 1 || h < 1 || !kind) {
			fprintf(stderr, "image_size: %dx%d, kind %s\n", w, h, kind ? kind : "(none)");
			abort();
		}
	}
	return 0;
}
