/* stbir.c: stb_image_resize2's implementation, compiled once for resize.c
 * (its header is the documentation). It is not folio's code: mk/images.mk
 * compiles this file without UBSan in the sanitizer flavours, as the
 * grammars are, since stb computes table pointers out of bounds on
 * purpose (the lookups themselves stay inside, which ASan checks). */
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#include <stb/stb_image_resize2.h>
