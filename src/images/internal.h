/* internal.h: what the files of images/ share; not for other folders
 * (they use images.h and imagesize.h).
 *
 * The files, each using only those below it:
 *   images.c     img_decode and img_encode (by format), the budget, the
 *                orientation, img_free
 *   jpeg.c       JPEG through libjpeg-turbo
 *   png.c        PNG through libpng
 *   webp.c       WebP through libwebp (and its mux library, for ICCP)
 *   resize.c     img_resize: stb_image_resize2
 *   imagesize.c  headers read by hand: kinds, sizes, the EXIF
 *                orientation, RIFF chunks, img_animated */
#ifndef FOLIO_IMAGES_INTERNAL_H
#define FOLIO_IMAGES_INTERNAL_H

#include "images/images.h"
#include "images/imagesize.h"

/* img_budget: 0 if w x h pixels fit the limits lim (defaults applied);
 * else -1 with the message (a zero side, or over the pixel limit) appended
 * to err. */
int img_budget(uint64_t w, uint64_t h, const struct img_limits *lim, struct buf *err);

/* img_alloc: im made a w x h image (rgba malloc'd, uninitialised; no
 * profile). Ends folio when out of memory, as every allocation does
 * (xmalloc): the budget was checked before. */
void img_alloc(struct img *im, uint32_t w, uint32_t h);

/* img_keep_icc: im->icc set to a copy of p[0..n) if it is an ICC profile
 * of the RGB colour space (its header says 'RGB '): another would
 * describe other pixels than the RGBA ones. */
void img_keep_icc(struct img *im, const unsigned char *p, size_t n);

/* img_opaque: whether every pixel of im has alpha 255. img_gray: whether
 * every pixel has R = G = B. */
int img_opaque(const struct img *im);
int img_gray(const struct img *im);

/* img_orient: im's pixels turned by the EXIF orientation o (2 to 8; 1 or
 * any other value leaves them), so that they are upright; 5 to 8 swap w
 * and h. */
void img_orient(struct img *im, unsigned o);

/* The codecs. *_decode: p[0..n) (of its kind) into out, which is empty on
 * an error; 0 or -1 with a message appended to err (a JPEG as shrunk as
 * img_decode_scaled allows for min_w). *_encode: appended to out; 0 or -1
 * with a message appended to err (out unchanged). */
int img_jpeg_decode(const unsigned char *p, size_t n, const struct img_limits *lim, uint32_t min_w,
                    struct img *out, struct buf *err);
int img_jpeg_encode(const struct img *in, int quality, struct buf *out, struct buf *err);
int img_png_decode(const unsigned char *p, size_t n, const struct img_limits *lim, struct img *out,
                   struct buf *err);
int img_png_encode(const struct img *in, int level, struct buf *out, struct buf *err);
int img_webp_decode(const unsigned char *p, size_t n, const struct img_limits *lim, struct img *out,
                    struct buf *err);
int img_webp_encode(const struct img *in, const struct img_encode_opts *o, struct buf *out, struct buf *err);

/* image_exif_orientation: the Orientation tag (0x0112) of IFD0 in the data
 * p[0..n) of an APP1 segment ("Exif\0\0" and a TIFF header), or 1 (upright)
 * if there is none or the data is malformed. */
unsigned image_exif_orientation(const unsigned char *p, size_t n);
/* image_tiff_orientation_at: where the value of the Orientation tag of
 * IFD0 is in the TIFF structure t[0..tn) (EXIF without its "Exif\0\0"):
 * its two bytes, in the structure's byte order; 0 when it has none or is
 * malformed. */
size_t image_tiff_orientation_at(const unsigned char *t, size_t tn);

/* img_keep_exif: im keeps a copy of the EXIF TIFF structure p[0..n) (a
 * "Exif\0\0" before it is skipped), its orientation made 1, as img_orient
 * made the pixels upright; nothing when it is not one, or longer than a
 * JPEG's APP1 segment holds (64 KiB). */
void img_keep_exif(struct img *im, const unsigned char *p, size_t n);

/* image_riff_chunk: the data of the first chunk named fourcc in the WebP
 * file p[0..n) (RIFF, its chunks after "WEBP"), clipped to the file's end
 * (*len set), or NULL. */
const unsigned char *image_riff_chunk(const unsigned char *p, size_t n, const char *fourcc, size_t *len);

/* ---- avif.c and avifenc.c: AVIF through libavif, loaded at run time ---- */

/* A function of libavif as dlsym finds it, called through its own type
 * (avifenc.c casts it back). */
typedef void (*img_avif_fn)(void);
/* The functions avifenc.c calls, the same names in both ABIs. */
struct img_avif_fns {
	img_avif_fn image_create, image_destroy, rgb_defaults, rgb_to_yuv, encoder_create, encoder_destroy,
	    encoder_write, data_free, result_string, set_icc, set_exif;
};
/* libavif's speed, 0 (slowest, smallest) to 10. AVIF is the slowest copy
 * to make by far: the four copies of a 2000 x 1500 JPEG took 12.5 s of
 * CPU at libavif's default (6, with aom), 8.3 s at 7 and 1.6 s at 8, whose
 * files were 36% larger than 6's (and still 25% smaller than WebP's). */
#define IMG_AVIF_SPEED 8
/* img_avif_encode_15, _16: in encoded as AVIF at quality 1..100 (4:2:0,
 * full range, alpha lossless, the ICC profile kept), appended to out,
 * through f (libavif of that ABI); 0, or -1 with libavif's message. */
int img_avif_encode_15(const struct img_avif_fns *f, const struct img *in, int quality, struct buf *out,
                       struct buf *err);
int img_avif_encode_16(const struct img_avif_fns *f, const struct img *in, int quality, struct buf *out,
                       struct buf *err);
/* img_avif_encode: in as AVIF through the libavif loaded (img_avif_available);
 * 0, or -1 with a message. */
int img_avif_encode(const struct img *in, int quality, struct buf *out, struct buf *err);

#endif
