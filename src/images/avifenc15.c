/* avifenc15.c: avifenc.c's encoder for libavif 0.11 (libavif.so.15),
 * compiled against the system's avif.h (Debian 12's libavif-dev). */
#define AVIF_ABI 15
#include "images/avifenc.c"
