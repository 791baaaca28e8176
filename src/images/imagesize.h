/* imagesize.h: the kind and pixel size of an image from its bytes (PNG,
 * JPEG, GIF, WebP, SVG), without decoding it. */
#ifndef FOLIO_IMAGESIZE_H
#define FOLIO_IMAGESIZE_H

#include <stddef.h>

/* image_size: the pixel size of the image data[0..len), which is the whole
 * file or its first 64 KiB (enough for every header folio reads, unless a
 * JPEG has more metadata than that before its frame header):
 *  - PNG: the IHDR chunk;
 *  - GIF: the logical screen;
 *  - JPEG: the first SOFn frame header, other segments skipped; a 90-degree
 *    EXIF orientation (5 to 8, in an APP1 segment before the frame) swaps
 *    width and height, as browsers display the image turned;
 *  - WebP: the VP8 (lossy), VP8L (lossless) or VP8X (extended: the canvas)
 *    chunk;
 *  - AVIF: the first ispe (spatial extents) property of meta/iprp/ipco
 *    (an ftyp box with the avif or avis brand first);
 *  - SVG: the width and height attributes of the root <svg> element when
 *    they are plain numbers, with or without "px" (rounded to whole
 *    pixels); when only one of them is, the other follows from the
 *    viewBox's aspect ratio; when neither is (em, %, missing), the
 *    viewBox's width and height.
 * Returns 1 and sets *w and *h (both at least 1), or 0 if the kind is
 * unknown, the data is truncated or malformed, or the size cannot be
 * known (a JPEG whose height comes later in a DNL marker, an SVG with
 * neither usable attributes nor viewBox). Reads nothing outside data and
 * never allocates. */
int image_size(const unsigned char *data, size_t len, int *w, int *h);

/* image_kind: "png", "jpeg", "gif", "webp", "avif" or "svg" from the signature of
 * data[0..len) (for SVG: the root element, after any XML declaration,
 * comments and doctype), or NULL. A static string. The kind may be known
 * when the size is not (a truncated file). */
const char *image_kind(const unsigned char *data, size_t len);

#endif
