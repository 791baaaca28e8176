/* imagesize.c: image kinds and pixel sizes from file headers, the EXIF
 * orientation, WebP's chunks, and whether an image is animated. Every read
 * is checked against len: the input is whatever file an author dropped in. */
#include "images/internal.h"

#include <limits.h>
#include <string.h>

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static unsigned long be32(const unsigned char *p)
{
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 |
	       p[3];
}

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[1] << 8 | p[0];
}

static unsigned long le24(const unsigned char *p)
{
	return (unsigned long)p[2] << 16 | (unsigned long)p[1] << 8 | p[0];
}

static unsigned long le32(const unsigned char *p)
{
	return (unsigned long)p[3] << 24 | le24(p);
}

/* set: stores a size if both sides are in 1..INT_MAX. */
static int set(unsigned long w, unsigned long h, int *pw, int *ph)
{
	if (w < 1 || h < 1 || w > INT_MAX || h > INT_MAX)
		return 0;
	*pw = (int)w;
	*ph = (int)h;
	return 1;
}

/* ---- PNG, GIF, WebP: fixed offsets ---- */

static const unsigned char PNG_SIG[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

static int is_png(const unsigned char *d, size_t len)
{
	return len >= 8 && memcmp(d, PNG_SIG, 8) == 0;
}

static int png_size(const unsigned char *d, size_t len, int *w, int *h)
{
	/* signature, then the first chunk, which must be IHDR: length, type,
	 * width, height (big-endian) */
	if (len < 24 || memcmp(d + 12, "IHDR", 4) != 0)
		return 0;
	return set(be32(d + 16), be32(d + 20), w, h);
}

static int is_gif(const unsigned char *d, size_t len)
{
	return len >= 6 && (memcmp(d, "GIF87a", 6) == 0 || memcmp(d, "GIF89a", 6) == 0);
}

static int gif_size(const unsigned char *d, size_t len, int *w, int *h)
{
	if (len < 10)
		return 0;
	return set(le16(d + 6), le16(d + 8), w, h);
}

static int is_webp(const unsigned char *d, size_t len)
{
	return len >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0;
}

static int webp_size(const unsigned char *d, size_t len, int *w, int *h)
{
	/* The first chunk's fourcc is at 12, its size at 16, its data at 20. */
	if (len < 20)
		return 0;
	const unsigned char *c = d + 20;
	if (memcmp(d + 12, "VP8 ", 4) == 0) {
		/* a key frame: 3-byte frame tag (bit 0 clear), start code
		 * 9d 01 2a, then 14-bit width and height (2 bits of scale) */
		if (len < 30 || (c[0] & 1) || c[3] != 0x9d || c[4] != 0x01 || c[5] != 0x2a)
			return 0;
		return set(le16(c + 6) & 0x3fff, le16(c + 8) & 0x3fff, w, h);
	}
	if (memcmp(d + 12, "VP8L", 4) == 0) {
		/* signature 0x2f, then width-1 and height-1 in 14 bits each
		 * and a 3-bit version that must be 0 */
		if (len < 25 || c[0] != 0x2f)
			return 0;
		unsigned long bits = le32(c + 1);
		if (bits >> 29)
			return 0;
		return set((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1, w, h);
	}
	if (memcmp(d + 12, "VP8X", 4) == 0) {
		/* flags (1), reserved (3), canvas width-1 and height-1 (24
		 * bits each) */
		if (len < 30)
			return 0;
		return set(le24(c + 4) + 1, le24(c + 7) + 1, w, h);
	}
	return 0;
}

/* ---- JPEG: walk the segments up to the frame header ---- */

static int is_jpeg(const unsigned char *d, size_t len)
{
	return len >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff;
}

static int is_sof(unsigned m)
{
	/* SOF0..SOF15 but DHT (c4), JPG (c8) and DAC (cc) */
	return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc;
}

size_t image_tiff_orientation_at(const unsigned char *t, size_t tn)
{
	int le;
	if (tn < 8)
		return 0;
	if (t[0] == 'I' && t[1] == 'I')
		le = 1;
	else if (t[0] == 'M' && t[1] == 'M')
		le = 0;
	else
		return 0;
	unsigned long ifd = le ? le32(t + 4) : be32(t + 4);
	if (ifd > tn || tn - ifd < 2)
		return 0;
	unsigned count = le ? le16(t + ifd) : be16(t + ifd);
	size_t e = (size_t)ifd + 2;
	for (unsigned i = 0; i < count && tn - e >= 12; i++, e += 12) {
		unsigned tag = le ? le16(t + e) : be16(t + e);
		unsigned type = le ? le16(t + e + 2) : be16(t + e + 2);
		if (tag == 0x0112 && type == 3) /* SHORT: the value is inline */
			return e + 8;
	}
	return 0;
}

unsigned image_exif_orientation(const unsigned char *p, size_t n)
{
	if (n < 6 + 8 || memcmp(p, "Exif\0\0", 6) != 0)
		return 1;
	const unsigned char *t = p + 6; /* the TIFF header: offsets count from here */
	size_t at = image_tiff_orientation_at(t, n - 6);
	if (!at)
		return 1;
	return t[0] == 'I' ? le16(t + at) : be16(t + at);
}

static int jpeg_size(const unsigned char *d, size_t len, int *w, int *h)
{
	unsigned orientation = 1;
	int seen_exif = 0;
	size_t i = 2;
	/* Each turn moves past a marker and its length (or a standalone
	 * marker), so the walk ends within len bytes. */
	while (i < len) {
		if (d[i] != 0xff)
			return 0;
		while (i < len && d[i] == 0xff) /* fill bytes */
			i++;
		if (i >= len)
			return 0;
		unsigned m = d[i++];
		if (m == 0xd8 || (m >= 0xd0 && m <= 0xd7) || m == 0x01)
			continue; /* SOI, RSTn, TEM: no length */
		if (m == 0x00 || m == 0xd9 || m == 0xda)
			return 0; /* not a marker, EOI, or scan data before any frame */
		if (len - i < 2)
			return 0;
		size_t seg = be16(d + i);
		if (seg < 2)
			return 0;
		if (is_sof(m)) {
			/* length, precision, height, width */
			if (seg < 7 || len - i < 7)
				return 0;
			unsigned fh = be16(d + i + 3), fw = be16(d + i + 5);
			if (fh == 0) /* the height comes in a DNL marker after the scan */
				return 0;
			if (orientation >= 5 && orientation <= 8)
				return set(fh, fw, w, h);
			return set(fw, fh, w, h);
		}
		if (m == 0xe1 && !seen_exif) {
			size_t n = seg - 2 < len - i - 2 ? seg - 2 : len - i - 2;
			if (n >= 6 && memcmp(d + i + 2, "Exif\0\0", 6) == 0) {
				seen_exif = 1;
				orientation = image_exif_orientation(d + i + 2, n);
			}
		}
		i += seg;
	}
	return 0;
}

/* ---- SVG: the root element's attributes ---- */

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* skip_to: the offset just past the first occurrence of pat at or after i,
 * or len if there is none. */
static size_t skip_to(const unsigned char *d, size_t len, size_t i, const char *pat)
{
	size_t n = strlen(pat);
	for (; i + n <= len; i++)
		if (memcmp(d + i, pat, n) == 0)
			return i + n;
	return len;
}

/* svg_root: the offset just after "<svg" of the root element, past a BOM,
 * white space, an XML declaration, processing instructions, comments and a
 * doctype (with an internal subset); 0 if data is not an SVG document. */
static size_t svg_root(const unsigned char *d, size_t len)
{
	size_t i = 0;
	if (len >= 3 && d[0] == 0xef && d[1] == 0xbb && d[2] == 0xbf)
		i = 3;
	for (;;) {
		while (i < len && is_space(d[i]))
			i++;
		if (len - i < 2 || d[i] != '<')
			return 0;
		if (d[i + 1] == '?') {
			i = skip_to(d, len, i + 2, "?>");
		} else if (len - i >= 4 && memcmp(d + i, "<!--", 4) == 0) {
			i = skip_to(d, len, i + 4, "-->");
		} else if (d[i + 1] == '!') {
			/* <!DOCTYPE svg ... [ internal subset ] > */
			int depth = 0;
			for (i += 2; i < len && (d[i] != '>' || depth > 0); i++)
				depth += d[i] == '[' ? 1 : d[i] == ']' ? -1 : 0;
			if (i < len)
				i++;
		} else if (len - i >= 5 && memcmp(d + i, "<svg", 4) == 0 &&
		           (is_space(d[i + 4]) || d[i + 4] == '>' || d[i + 4] == '/')) {
			return i + 4;
		} else {
			return 0;
		}
	}
}

/* parse_num: a decimal number (sign, digits, fraction, exponent) at the
 * start of s[0..n); returns the bytes used (0: none) and sets *v. */
static size_t parse_num(const unsigned char *s, size_t n, double *v)
{
	size_t i = 0;
	int neg = 0, digits = 0;
	double x = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		x = x * 10 + (s[i] - '0');
	if (i < n && s[i] == '.') {
		double scale = 0.1;
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++, scale /= 10)
			x += (s[i] - '0') * scale;
	}
	if (!digits)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		int eneg = 0, e = 0, edigits = 0;
		if (j < n && (s[j] == '+' || s[j] == '-'))
			eneg = s[j++] == '-';
		for (; j < n && s[j] >= '0' && s[j] <= '9'; j++, edigits++)
			if (e < 1000)
				e = e * 10 + (s[j] - '0');
		if (edigits) { /* else "e" starts a unit, as in "2em" */
			i = j;
			for (int k = 0; k < e && x != 0 && x < 1e300; k++)
				x = eneg ? x / 10 : x * 10;
		}
	}
	*v = neg ? -x : x;
	return i;
}

/* svg_length: a width or height value that is a plain number of pixels
 * ("120", "120.5", " 120px "); 0 if it has another unit or none. */
static int svg_length(const unsigned char *s, size_t n, double *v)
{
	while (n && is_space(s[n - 1]))
		n--;
	while (n && is_space(*s))
		s++, n--;
	size_t k = parse_num(s, n, v);
	if (!k || *v <= 0)
		return 0;
	return k == n || (n - k == 2 && s[k] == 'p' && s[k + 1] == 'x');
}

/* svg_viewbox: the width and height of "min-x min-y width height" (white
 * space and/or commas between the numbers). */
static int svg_viewbox(const unsigned char *s, size_t n, double *vw, double *vh)
{
	double v[4];
	size_t i = 0;
	for (int k = 0; k < 4; k++) {
		while (i < n && (is_space(s[i]) || s[i] == ','))
			i++;
		size_t used = parse_num(s + i, n - i, &v[k]);
		if (!used)
			return 0;
		i += used;
	}
	while (i < n && is_space(s[i]))
		i++;
	if (i != n || v[2] <= 0 || v[3] <= 0)
		return 0;
	*vw = v[2];
	*vh = v[3];
	return 1;
}

static int set_rounded(double w, double h, int *pw, int *ph)
{
	if (!(w >= 0.5 && h >= 0.5 && w < INT_MAX && h < INT_MAX)) /* false for NaN too */
		return 0;
	return set((unsigned long)(w + 0.5), (unsigned long)(h + 0.5), pw, ph);
}

static int svg_size(const unsigned char *d, size_t len, int *w, int *h)
{
	size_t i = svg_root(d, len);
	if (!i)
		return 0;
	struct {
		const unsigned char *p;
		size_t n;
	} width = {NULL, 0}, height = {NULL, 0}, viewbox = {NULL, 0};
	for (;;) { /* name="value" name='value' name=value name, up to > or /> */
		while (i < len && is_space(d[i]))
			i++;
		if (i >= len)
			return 0; /* truncated in the start tag */
		if (d[i] == '>' || d[i] == '/')
			break;
		size_t name = i;
		while (i < len && !is_space(d[i]) && d[i] != '=' && d[i] != '>' && d[i] != '/')
			i++;
		size_t name_len = i - name;
		if (!name_len)
			return 0; /* a stray '=' */
		while (i < len && is_space(d[i]))
			i++;
		const unsigned char *val = NULL;
		size_t val_len = 0;
		if (i < len && d[i] == '=') {
			i++;
			while (i < len && is_space(d[i]))
				i++;
			if (i >= len)
				return 0;
			if (d[i] == '"' || d[i] == '\'') {
				unsigned char q = d[i++];
				const unsigned char *end = memchr(d + i, q, len - i);
				if (!end)
					return 0;
				val = d + i;
				val_len = (size_t)(end - val);
				i = (size_t)(end - d) + 1;
			} else {
				val = d + i;
				while (i < len && !is_space(d[i]) && d[i] != '>')
					i++;
				val_len = (size_t)(d + i - val);
			}
		}
		if (!val)
			continue;
		if (name_len == 5 && memcmp(d + name, "width", 5) == 0)
			width.p = val, width.n = val_len;
		else if (name_len == 6 && memcmp(d + name, "height", 6) == 0)
			height.p = val, height.n = val_len;
		else if (name_len == 7 && memcmp(d + name, "viewBox", 7) == 0)
			viewbox.p = val, viewbox.n = val_len;
	}
	double aw = 0, ah = 0, vw = 0, vh = 0;
	int has_w = width.p && svg_length(width.p, width.n, &aw);
	int has_h = height.p && svg_length(height.p, height.n, &ah);
	int has_vb = viewbox.p && svg_viewbox(viewbox.p, viewbox.n, &vw, &vh);
	if (has_w && has_h)
		return set_rounded(aw, ah, w, h);
	if (!has_vb)
		return 0;
	/* As a browser sizes an <img> of it: one absolute side and the
	 * viewBox's aspect ratio give the other. */
	if (has_w)
		return set_rounded(aw, aw * vh / vw, w, h);
	if (has_h)
		return set_rounded(ah * vw / vh, ah, w, h);
	return set_rounded(vw, vh, w, h);
}

/* ---- AVIF (ISO base media file format: boxes) ---- */

/* box_find: the first box of type within d[from..to) (a box: a 32-bit
 * size, its type, and what it holds; size 1: a 64-bit size follows; 0:
 * to the end), its contents in [*in, *end); 0 when there is none or a box
 * does not fit. */
static int box_find(const unsigned char *d, size_t from, size_t to, const char *type, size_t *in, size_t *end)
{
	size_t i = from;
	while (to - i >= 8) {
		unsigned long long size = be32(d + i);
		size_t head = 8;
		if (size == 1) {
			if (to - i < 16)
				return 0;
			size = (unsigned long long)be32(d + i + 8) << 32 | be32(d + i + 12);
			head = 16;
		} else if (size == 0) {
			size = to - i;
		}
		if (size < head || size > to - i)
			return 0;
		if (!memcmp(d + i + 4, type, 4)) {
			*in = i + head;
			*end = i + (size_t)size;
			return 1;
		}
		i += (size_t)size;
	}
	return 0;
}

/* is_avif: an ftyp box first whose major or a compatible brand is AVIF's
 * (avif: a still; avis: a sequence). */
static int is_avif(const unsigned char *d, size_t len)
{
	if (len < 16 || memcmp(d + 4, "ftyp", 4))
		return 0;
	size_t size = be32(d);
	if (size < 16 || size > len)
		size = len < 64 ? len : 64;
	for (size_t i = 8; i + 4 <= size; i += 4)
		if (i != 12 && (!memcmp(d + i, "avif", 4) || !memcmp(d + i, "avis", 4))) /* 12: the minor version */
			return 1;
	return 0;
}

/* avif_size: the first ispe (image spatial extents) property, in
 * meta/iprp/ipco: a full box (version and flags), then width and height. */
static int avif_size(const unsigned char *d, size_t len, int *w, int *h)
{
	size_t a, b, c, e, f, g, p, q;
	if (!box_find(d, 0, len, "meta", &a, &b) || b - a < 4 || !box_find(d, a + 4, b, "iprp", &c, &e) ||
	    !box_find(d, c, e, "ipco", &f, &g) || !box_find(d, f, g, "ispe", &p, &q) || q - p < 12)
		return 0;
	return set(be32(d + p + 4), be32(d + p + 8), w, h);
}

/* ---- public ---- */

const char *image_kind(const unsigned char *data, size_t len)
{
	if (!data)
		return NULL;
	if (is_png(data, len))
		return "png";
	if (is_jpeg(data, len))
		return "jpeg";
	if (is_gif(data, len))
		return "gif";
	if (is_webp(data, len))
		return "webp";
	if (is_avif(data, len))
		return "avif";
	if (svg_root(data, len))
		return "svg";
	return NULL;
}

int image_size(const unsigned char *data, size_t len, int *w, int *h)
{
	if (!data)
		return 0;
	if (is_png(data, len))
		return png_size(data, len, w, h);
	if (is_jpeg(data, len))
		return jpeg_size(data, len, w, h);
	if (is_gif(data, len))
		return gif_size(data, len, w, h);
	if (is_webp(data, len))
		return webp_size(data, len, w, h);
	if (is_avif(data, len))
		return avif_size(data, len, w, h);
	return svg_size(data, len, w, h);
}

/* ---- animations and chunks ---- */

const unsigned char *image_riff_chunk(const unsigned char *p, size_t n, const char *fourcc, size_t *len)
{
	if (!is_webp(p, n))
		return NULL;
	/* Each chunk: fourcc, size (little-endian), data padded to an even
	 * length. The walk ends within n: each turn moves 8 bytes or more. */
	size_t i = 12;
	while (n - i >= 8) {
		unsigned long size = le32(p + i + 4);
		size_t data = i + 8;
		size_t avail = n - data;
		if (memcmp(p + i, fourcc, 4) == 0) {
			*len = size < avail ? (size_t)size : avail;
			return p + data;
		}
		if (size >= avail)
			return NULL;
		i = data + (size_t)size + (size & 1);
		if (i > n)
			return NULL;
	}
	return NULL;
}

/* gif_skip_blocks: the offset past the data sub-blocks that start at i
 * (each a length byte and its bytes, up to a zero length), or 0 if they
 * run past len. */
static size_t gif_skip_blocks(const unsigned char *d, size_t len, size_t i)
{
	while (i < len) {
		unsigned k = d[i++];
		if (k == 0)
			return i;
		if (len - i < k)
			return 0;
		i += k;
	}
	return 0;
}

/* gif_animated: whether the GIF has a second image descriptor. */
static int gif_animated(const unsigned char *d, size_t len)
{
	if (len < 13)
		return 0;
	size_t i = 13;
	if (d[10] & 0x80) /* the global colour table */
		i += (size_t)3 << ((d[10] & 7) + 1);
	int images = 0;
	while (i < len) {
		unsigned c = d[i++];
		if (c == 0x21) { /* an extension: its label, then sub-blocks */
			if (i >= len || !(i = gif_skip_blocks(d, len, i + 1)))
				return 0;
		} else if (c == 0x2c) { /* an image: descriptor, colours, LZW size, data */
			if (++images > 1)
				return 1;
			if (len - i < 9)
				return 0;
			unsigned flags = d[i + 8];
			i += 9;
			if (flags & 0x80)
				i += (size_t)3 << ((flags & 7) + 1);
			if (i >= len || !(i = gif_skip_blocks(d, len, i + 1)))
				return 0;
		} else {
			return 0; /* the trailer (0x3b), or not a GIF block */
		}
	}
	return 0;
}

/* png_animated: whether an acTL chunk comes before the first IDAT. */
static int png_animated(const unsigned char *d, size_t len)
{
	size_t i = 8;
	while (len - i >= 8) {
		unsigned long size = be32(d + i);
		if (memcmp(d + i + 4, "acTL", 4) == 0)
			return 1;
		if (memcmp(d + i + 4, "IDAT", 4) == 0 || size > len - i - 8 || len - i - 8 - size < 4)
			return 0;
		i += 8 + (size_t)size + 4; /* length, type, data, CRC */
	}
	return 0;
}

/* webp_animated: the VP8X chunk's animation flag, or an ANIM chunk. */
static int webp_animated(const unsigned char *d, size_t len)
{
	size_t n;
	const unsigned char *x = image_riff_chunk(d, len, "VP8X", &n);
	if (x && n >= 1 && (x[0] & 0x02))
		return 1;
	return image_riff_chunk(d, len, "ANIM", &n) != NULL;
}

int img_animated(const unsigned char *p, size_t n)
{
	if (!p)
		return 0;
	if (is_gif(p, n))
		return gif_animated(p, n);
	if (is_webp(p, n))
		return webp_animated(p, n);
	if (is_png(p, n))
		return png_animated(p, n);
	return 0;
}
