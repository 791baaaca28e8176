/* jpeg.c: JPEG decoded and encoded through libjpeg-turbo, whose errors and
 * warnings come back as messages (never printed, never an exit). */
#include "images/internal.h"

#include <setjmp.h>
#include <stdio.h> /* jpeglib.h needs FILE */
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "base/arena.h"

/* The most scans a progressive JPEG may have: a real one has about ten;
 * thousands of tiny scans are a known way to make a small file take
 * minutes (libjpeg-turbo's own tools and fuzzers stop at 500 too). */
#define JPEG_MAX_SCANS 500

/* A libjpeg error manager that jumps back to the caller with a message. */
struct jfail {
	struct jpeg_error_mgr pub; /* first: libjpeg's err points here */
	jmp_buf jmp;
	struct buf *err;
	const struct img_limits *lim;
};

/* jfail_message: libjpeg's message for its current code, in err. */
static void jfail_libjpeg(j_common_ptr c, const char *what)
{
	struct jfail *f = (struct jfail *)(void *)c->err;
	char msg[JMSG_LENGTH_MAX];
	c->err->format_message(c, msg);
	buf_printf(f->err, "%s (libjpeg: %s)", what, msg);
}

/* jfail_exit: libjpeg's error_exit: the message, then back to the
 * setjmp of jpeg_decode_run or jpeg_encode_run. */
static void jfail_exit(j_common_ptr c)
{
	struct jfail *f = (struct jfail *)(void *)c->err;
	int code = c->err->msg_code;
	if (!c->is_decompressor) {
		jfail_libjpeg(c, "JPEG encoder error");
	} else if (code == JERR_BAD_PRECISION) {
		buf_printf(f->err, "a %d-bit JPEG: only 8-bit JPEGs can be decoded", c->err->msg_parm.i[0]);
	} else if (code == JERR_EMPTY_IMAGE) {
		j_decompress_ptr d = (j_decompress_ptr)c;
		if (img_budget(d->image_width, d->image_height, f->lim, f->err) == 0)
			jfail_libjpeg(c, "corrupt JPEG data");
	} else if (code == JERR_OUT_OF_MEMORY) {
		buf_puts(f->err, "out of memory decoding the JPEG");
	} else if (code == JERR_SOF_UNSUPPORTED || code == JERR_NOTIMPL || code == JERR_ARITH_NOTIMPL) {
		jfail_libjpeg(c, "an unsupported kind of JPEG");
	} else {
		jfail_libjpeg(c, "corrupt JPEG data");
	}
	longjmp(f->jmp, 1);
}

/* jfail_emit: libjpeg's emit_message. Trace messages (level >= 0) are
 * dropped; a warning that the data is truncated or its entropy-coded
 * data corrupt is an error (libjpeg would go on, filling the rest of the
 * image with gray); other warnings (extraneous bytes before a marker, a
 * bad ICC marker, an unknown JFIF revision) are kept quiet. */
static void jfail_emit(j_common_ptr c, int level)
{
	if (level >= 0)
		return;
	struct jfail *f = (struct jfail *)(void *)c->err;
	switch (c->err->msg_code) {
	case JWRN_JPEG_EOF:
		buf_puts(f->err, "truncated JPEG data");
		longjmp(f->jmp, 1);
	case JWRN_HIT_MARKER:
	case JWRN_HUFF_BAD_CODE:
#if JPEG_LIB_VERSION >= 70 || defined(C_ARITH_CODING_SUPPORTED) || defined(D_ARITH_CODING_SUPPORTED)
	case JWRN_ARITH_BAD_CODE: /* jerror.h names it only then */
#endif
	case JWRN_MUST_RESYNC:
	case JWRN_BOGUS_PROGRESSION:
	case JWRN_NOT_SEQUENTIAL:
		jfail_libjpeg(c, "corrupt JPEG data");
		longjmp(f->jmp, 1);
	default:
		c->err->num_warnings++;
	}
}

static void jfail_output(j_common_ptr c)
{
	(void)c; /* never to stderr */
}

static void jfail_init(struct jfail *f, struct buf *err, const struct img_limits *lim)
{
	jpeg_std_error(&f->pub);
	f->pub.error_exit = jfail_exit;
	f->pub.emit_message = jfail_emit;
	f->pub.output_message = jfail_output;
	f->err = err;
	f->lim = lim;
}

/* ---- decoding ---- */

/* What a decode holds, outside jpeg_decode_run so that nothing it
 * changes is lost to the longjmp of an error. */
struct jdec {
	struct jpeg_decompress_struct c;
	struct jfail fail;
	struct jpeg_progress_mgr progress;
	int created;
	const unsigned char *p;
	size_t n;
	struct img out;
	JOCTET *icc; /* malloc'd by jpeg_read_icc_profile */
	unsigned icc_len;
	unsigned orientation;
	int cmyk, inverted;
};

/* jdec_progress: libjpeg's progress monitor, which stops a progressive
 * JPEG of too many scans. */
static void jdec_progress(j_common_ptr c)
{
	j_decompress_ptr d = (j_decompress_ptr)c;
	if (d->input_scan_number > JPEG_MAX_SCANS) {
		struct jfail *f = (struct jfail *)(void *)c->err;
		buf_printf(f->err, "a JPEG of more than %d scans (corrupt, or made to be slow to decode)",
		           JPEG_MAX_SCANS);
		longjmp(f->jmp, 1);
	}
}

/* jdec_exif: the first Exif APP1 segment, or NULL. */
static jpeg_saved_marker_ptr jdec_exif(j_decompress_ptr c)
{
	for (jpeg_saved_marker_ptr m = c->marker_list; m; m = m->next)
		if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0)
			return m;
	return NULL;
}

/* jdec_orientation: the orientation of the first Exif APP1 segment. */
static unsigned jdec_orientation(j_decompress_ptr c)
{
	jpeg_saved_marker_ptr m = jdec_exif(c);
	return m ? image_exif_orientation(m->data, m->data_length) : 1;
}

/* jdec_cmyk_to_rgb: the CMYK (or, inverted, Adobe's inverted CMYK) that
 * libjpeg wrote into d->out, made RGBA in place, without a colour
 * management system: R = (1 - C)(1 - K), and so on. */
static void jdec_cmyk_to_rgb(struct jdec *d)
{
	unsigned char *px = d->out.rgba;
	size_t n = (size_t)d->out.w * d->out.h;
	for (size_t i = 0; i < n; i++, px += 4) {
		unsigned c = px[0], m = px[1], y = px[2], k = px[3];
		if (!d->inverted)
			c = 255 - c, m = 255 - m, y = 255 - y, k = 255 - k;
		px[0] = (unsigned char)((c * k + 127) / 255);
		px[1] = (unsigned char)((m * k + 127) / 255);
		px[2] = (unsigned char)((y * k + 127) / 255);
		px[3] = 255;
	}
}

/* jdec_scale: the 1/2, 1/4 or 1/8 of libjpeg's scaled IDCT at which the
 * image, upright, is still at least min_w pixels wide (exactly: w / d >=
 * min_w, so that the upright height at min_w's width fits as well), or
 * 1. */
static unsigned jdec_scale(j_decompress_ptr c, unsigned orientation, uint32_t min_w)
{
	unsigned w = orientation >= 5 && orientation <= 8 ? c->image_height : c->image_width;
	unsigned d = 1;
	while (min_w && d < 8 && (uint64_t)w >= (uint64_t)min_w * d * 2)
		d *= 2;
	return d;
}

static int jpeg_decode_run(struct jdec *d, const struct img_limits *lim, uint32_t min_w, struct buf *err)
{
	j_decompress_ptr c = &d->c;
	if (setjmp(d->fail.jmp))
		return -1;
	jpeg_create_decompress(c);
	d->created = 1;
	jpeg_mem_src(c, d->p, (unsigned long)d->n);
	jpeg_save_markers(c, JPEG_APP0 + 1, 0xffff); /* EXIF */
	jpeg_save_markers(c, JPEG_APP0 + 2, 0xffff); /* ICC */
	d->progress.progress_monitor = jdec_progress;
	c->progress = &d->progress;
	jpeg_read_header(c, TRUE);
	if (img_budget(c->image_width, c->image_height, lim, err) < 0)
		return -1;
	switch (c->jpeg_color_space) {
	case JCS_GRAYSCALE:
	case JCS_YCbCr:
	case JCS_RGB:
		c->out_color_space = JCS_EXT_RGBA; /* libjpeg-turbo writes alpha 255 */
		break;
	case JCS_CMYK:
	case JCS_YCCK:
		c->out_color_space = JCS_CMYK; /* from YCCK too */
		d->cmyk = 1;
		d->inverted = c->saw_Adobe_marker;
		break;
	default:
		buf_printf(err, "a JPEG of %d colour components that are neither gray, RGB nor CMYK",
		           c->num_components);
		return -1;
	}
	if (!jpeg_read_icc_profile(c, &d->icc, &d->icc_len))
		d->icc = NULL; /* none, or a broken one: the image is then sRGB */
	d->orientation = jdec_orientation(c);
	unsigned scale = jdec_scale(c, d->orientation, min_w);
	c->scale_num = 1;
	c->scale_denom = scale;
	jpeg_start_decompress(c);
	if (c->output_width != (c->image_width + scale - 1) / scale ||
	    c->output_height != (c->image_height + scale - 1) / scale || c->output_components != 4) {
		buf_puts(err, "libjpeg decoded another size than the header's");
		return -1;
	}
	img_alloc(&d->out, c->output_width, c->output_height);
	jpeg_saved_marker_ptr exif = jdec_exif(c); /* kept for a copy that asks for it */
	if (exif)
		img_keep_exif(&d->out, exif->data, exif->data_length);
	size_t stride = (size_t)c->output_width * 4;
	while (c->output_scanline < c->output_height) {
		JSAMPROW rows[16];
		JDIMENSION k = c->output_height - c->output_scanline;
		if (k > 16)
			k = 16;
		for (JDIMENSION i = 0; i < k; i++)
			rows[i] = d->out.rgba + (c->output_scanline + i) * stride;
		jpeg_read_scanlines(c, rows, k);
	}
	jpeg_finish_decompress(c); /* reads up to EOI: a file cut before it is truncated */
	return 0;
}

int img_jpeg_decode(const unsigned char *p, size_t n, const struct img_limits *lim, uint32_t min_w,
                    struct img *out, struct buf *err)
{
	struct jdec *d = xcalloc(1, sizeof *d);
	d->p = p;
	d->n = n;
	jfail_init(&d->fail, err, lim);
	d->c.err = &d->fail.pub;
	int r = jpeg_decode_run(d, lim, min_w, err);
	if (d->created)
		jpeg_destroy_decompress(&d->c);
	if (r == 0) {
		if (d->cmyk)
			jdec_cmyk_to_rgb(d); /* a CMYK profile is dropped by img_keep_icc */
		*out = d->out;
		img_keep_icc(out, d->icc, d->icc_len);
		img_orient(out, d->orientation);
	} else {
		img_free(&d->out);
	}
	free(d->icc);
	free(d);
	return r;
}

/* ---- encoding ---- */

/* A libjpeg destination that appends to a struct buf. */
struct jdest {
	struct jpeg_destination_mgr pub; /* first: libjpeg's dest points here */
	struct buf *out;
};

static void jdest_room(struct jdest *d)
{
	struct buf *b = d->out;
	buf_reserve(b, 65536);
	d->pub.next_output_byte = (JOCTET *)b->p + b->len;
	d->pub.free_in_buffer = b->cap - b->len - 1; /* the buf's NUL stays */
}

static void jdest_init(j_compress_ptr c)
{
	jdest_room((struct jdest *)(void *)c->dest);
}

/* jdest_empty: libjpeg's buffer is full: it all counts, and more room. */
static boolean jdest_empty(j_compress_ptr c)
{
	struct jdest *d = (struct jdest *)(void *)c->dest;
	d->out->len = d->out->cap - 1;
	jdest_room(d);
	return TRUE;
}

static void jdest_term(j_compress_ptr c)
{
	struct jdest *d = (struct jdest *)(void *)c->dest;
	d->out->len = (size_t)((char *)d->pub.next_output_byte - d->out->p);
	d->out->p[d->out->len] = '\0';
}

struct jenc {
	struct jpeg_compress_struct c;
	struct jfail fail;
	struct jdest dest;
	int created;
};

static int jpeg_encode_run(struct jenc *e, const struct img *in, int quality)
{
	j_compress_ptr c = &e->c;
	if (setjmp(e->fail.jmp))
		return -1;
	jpeg_create_compress(c);
	e->created = 1;
	e->dest.pub.init_destination = jdest_init;
	e->dest.pub.empty_output_buffer = jdest_empty;
	e->dest.pub.term_destination = jdest_term;
	c->dest = &e->dest.pub;
	c->image_width = in->w;
	c->image_height = in->h;
	c->input_components = 4;
	c->in_color_space = JCS_EXT_RGBA; /* the alpha byte is skipped */
	jpeg_set_defaults(c); /* YCbCr, 4:2:0, a JFIF marker (no metadata in it) */
	/* gray only without a profile: the profile is an RGB one, which a
	 * gray JPEG cannot carry */
	if (!in->icc && img_gray(in))
		jpeg_set_colorspace(c, JCS_GRAYSCALE);
	jpeg_set_quality(c, quality, TRUE);
	c->optimize_coding = TRUE;
	jpeg_simple_progression(c);
	jpeg_start_compress(c, TRUE);
	if (in->exif) { /* APP1 first, as cameras write it */
		JOCTET *app1 = xmalloc(6 + in->exif_len);
		memcpy(app1, "Exif\0\0", 6);
		memcpy(app1 + 6, in->exif, in->exif_len);
		jpeg_write_marker(c, JPEG_APP0 + 1, app1, (unsigned)(6 + in->exif_len));
		free(app1);
	}
	if (in->icc)
		jpeg_write_icc_profile(c, in->icc, (unsigned)in->icc_len);
	size_t stride = (size_t)in->w * 4;
	while (c->next_scanline < c->image_height) {
		JSAMPROW row = in->rgba + c->next_scanline * stride;
		jpeg_write_scanlines(c, &row, 1);
	}
	jpeg_finish_compress(c);
	return 0;
}

int img_jpeg_encode(const struct img *in, int quality, struct buf *out, struct buf *err)
{
	if (!img_opaque(in)) {
		buf_puts(err, "the image has transparent pixels, which a JPEG cannot hold");
		return -1;
	}
	if (in->w > JPEG_MAX_DIMENSION || in->h > JPEG_MAX_DIMENSION) {
		buf_printf(err, "the image is %u x %u pixels: a JPEG is at most %ld pixels a side", (unsigned)in->w,
		           (unsigned)in->h, (long)JPEG_MAX_DIMENSION);
		return -1;
	}
	size_t len = out->len;
	struct jenc *e = xcalloc(1, sizeof *e);
	jfail_init(&e->fail, err, NULL);
	e->c.err = &e->fail.pub;
	e->dest.out = out;
	int r = jpeg_encode_run(e, in, quality);
	if (e->created)
		jpeg_destroy_compress(&e->c);
	free(e);
	if (r < 0) {
		out->len = len;
		if (out->p)
			out->p[len] = '\0';
	}
	return r;
}
