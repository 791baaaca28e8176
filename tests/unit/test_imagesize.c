/* test_imagesize.c: image kinds and sizes from hand-made headers of each
 * format, truncated and malformed variants, and every prefix of each. */
#include "harness.h"

#include "images/imagesize.h"

/* A whole 1x1 RGBA PNG. */
static const unsigned char PNG_1X1[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
    0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00,
    0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78,
    0x9c, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00,
    0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

/* A PNG header of 1920x1080 (the IHDR chunk, no more). */
static const unsigned char PNG_HD[] = {0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00,
                                       0x00, 0x0d, 'I',  'H',  'D',  'R',  0x00, 0x00, 0x07, 0x80,
                                       0x00, 0x00, 0x04, 0x38, 0x08, 0x02, 0x00, 0x00, 0x00};

/* GIF89a, logical screen 3x2, a global colour table of two entries, the
 * trailer. */
static const unsigned char GIF_3X2[] = {'G',  'I',  'F',  '8',  '9',  'a',  0x03, 0x00, 0x02, 0x00,
                                        0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x3b};

/* JPEG: SOI, APP0 (JFIF), COM, DHT (c4, which is no frame header), SOF0
 * of 100x50 (height 0x32, width 0x64), EOI. */
static const unsigned char JPEG_100X50[] = {
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 'J',  'F',  'I',  'F',  0x00, 0x01, 0x01, 0x00,
    0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x05, 'h',  'i',  '!',  0xff,
    0xc4, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x32, 0x00, 0x64,
    0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xd9};

/* Progressive (SOF2) 640x480 after fill bytes and a standalone RST0. */
static const unsigned char JPEG_SOF2[] = {0xff, 0xd8, 0xff, 0xd0, 0xff, 0xff, 0xff,
                                          0xc2, 0x00, 0x0b, 0x08, 0x01, 0xe0, 0x02,
                                          0x80, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9};

/* EXIF orientation 6 (turned 90 degrees), little-endian TIFF, then SOF0
 * 100x50: shown 50x100. */
static const unsigned char JPEG_EXIF_LE[] = {
    0xff, 0xd8, 0xff, 0xe1, 0x00, 0x22, 'E',  'x',  'i',  'f',  0x00, 0x00, 'I',  'I',
    0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 0x01, 0x00,
    0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b,
    0x08, 0x00, 0x32, 0x00, 0x64, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9};

/* The same with a big-endian TIFF and orientation 8; and orientation 3
 * (upside down: no swap). */
static const unsigned char JPEG_EXIF_BE[] = {
    0xff, 0xd8, 0xff, 0xe1, 0x00, 0x22, 'E',  'x',  'i',  'f',  0x00, 0x00, 'M',  'M',
    0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b,
    0x08, 0x00, 0x32, 0x00, 0x64, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9};
static const unsigned char JPEG_EXIF_3[] = {
    0xff, 0xd8, 0xff, 0xe1, 0x00, 0x22, 'E',  'x',  'i',  'f',  0x00, 0x00, 'M',  'M',
    0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b,
    0x08, 0x00, 0x32, 0x00, 0x64, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9};

/* EXIF whose IFD offset points past the segment: ignored (upright). */
static const unsigned char JPEG_EXIF_BAD[] = {0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10, 'E',  'x',  'i',
                                              'f',  0x00, 0x00, 'I',  'I',  0x2a, 0x00, 0xff, 0xff,
                                              0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x32,
                                              0x00, 0x64, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9};

/* Scan data (SOS) before any frame header; a frame of height 0 (the DNL
 * marker would give it); a segment length of 1. */
static const unsigned char JPEG_SOS_FIRST[] = {0xff, 0xd8, 0xff, 0xda, 0x00, 0x02,
                                               0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00,
                                               0x32, 0x00, 0x64, 0x01, 0x01, 0x11};
static const unsigned char JPEG_DNL[] = {0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00,
                                         0x00, 0x00, 0x64, 0x01, 0x01, 0x11, 0x00};
static const unsigned char JPEG_BADLEN[] = {0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0xff, 0xc0};
/* A segment that claims to run past the end. */
static const unsigned char JPEG_LONGSEG[] = {0xff, 0xd8, 0xff, 0xe0, 0xff, 0xf0, 0x00, 0x00};
/* Bytes where a marker should be. */
static const unsigned char JPEG_NOMARK[] = {0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02, 0x12,
                                            0x34, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00,
                                            0x32, 0x00, 0x64, 0x01, 0x01, 0x11, 0x00};

/* WebP, lossy: a key frame of 640x480 (the width's top bits are a scale,
 * masked off). */
static const unsigned char WEBP_VP8[] = {
    'R',  'I',  'F',  'F',  0x24, 0x00, 0x00, 0x00, 'W',  'E',  'B',  'P',  'V',  'P',
    '8',  ' ',  0x18, 0x00, 0x00, 0x00, 0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x80, 0xc2,
    0xe0, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
/* Lossless: 400x300 ((w-1) | (h-1) << 14 = 0x004ac18f). */
static const unsigned char WEBP_VP8L[] = {'R',  'I',  'F',  'F',  0x1a, 0x00, 0x00, 0x00, 'W',
                                          'E',  'B',  'P',  'V',  'P',  '8',  'L',  0x0d, 0x00,
                                          0x00, 0x00, 0x2f, 0x8f, 0xc1, 0x4a, 0x00, 0x00};
/* Extended: a canvas of 1920x1080 (24-bit w-1 and h-1). */
static const unsigned char WEBP_VP8X[] = {
    'R', 'I',  'F',  'F',  0x16, 0x00, 0x00, 0x00, 'W',  'E',  'B',  'P',  'V',  'P',  '8',
    'X', 0x0a, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x07, 0x00, 0x37, 0x04, 0x00};

static int size_of(const unsigned char *d, size_t n, int *w, int *h)
{
	*w = *h = -1;
	return image_size(d, n, w, h);
}

#define SIZE_EQ(arr, n, W, H)                                                                      \
	do {                                                                                       \
		int iw_, ih_;                                                                      \
		INT_EQ(size_of(arr, n, &iw_, &ih_), 1);                                            \
		INT_EQ(iw_, W);                                                                    \
		INT_EQ(ih_, H);                                                                    \
	} while (0)

#define NO_SIZE(arr, n)                                                                            \
	do {                                                                                       \
		int iw_, ih_;                                                                      \
		INT_EQ(size_of(arr, n, &iw_, &ih_), 0);                                            \
	} while (0)

static int svg(const char *text, int *w, int *h)
{
	return size_of((const unsigned char *)text, strlen(text), w, h);
}

#define SVG_EQ(text, W, H)                                                                         \
	do {                                                                                       \
		int iw_, ih_;                                                                      \
		INT_EQ(svg(text, &iw_, &ih_), 1);                                                  \
		INT_EQ(iw_, W);                                                                    \
		INT_EQ(ih_, H);                                                                    \
	} while (0)

#define SVG_NONE(text)                                                                             \
	do {                                                                                       \
		int iw_, ih_;                                                                      \
		INT_EQ(svg(text, &iw_, &ih_), 0);                                                  \
	} while (0)

static const char *kind(const void *d, size_t n)
{
	const char *k = image_kind(d, n);
	return k ? k : "(none)";
}

/* prefixes: every prefix of d gives no size or the whole file's size. */
static void prefixes(const unsigned char *d, size_t n)
{
	int w, h, pw, ph, bad = 0;
	int ok = image_size(d, n, &w, &h);
	for (size_t k = 0; k < n; k++) {
		if (image_size(d, k, &pw, &ph) && (!ok || pw != w || ph != h))
			bad++;
	}
	INT_EQ(bad, 0);
}

/* An AVIF's head, as libavif writes it: ftyp (avif), then meta (a full
 * box) holding hdlr and iprp/ipco/ispe: 640 x 360. */
static const unsigned char AVIF_640X360[] = {
    0, 0, 0, 28, 'f', 't', 'y', 'p', 'a', 'v', 'i', 'f', 0, 0, 0, 0, 'a', 'v', 'i', 'f', 'm', 'i', 'f', '1',
    'm', 'i', 'a', 'f',
    /* meta: 12 + hdlr 20 + iprp (8 + ipco (8 + ispe 20)) = 68 */
    0, 0, 0, 68, 'm', 'e', 't', 'a', 0, 0, 0, 0,
    0, 0, 0, 20, 'h', 'd', 'l', 'r', 0, 0, 0, 0, 0, 0, 0, 0, 'p', 'i', 'c', 't',
    0, 0, 0, 36, 'i', 'p', 'r', 'p',
    0, 0, 0, 28, 'i', 'p', 'c', 'o',
    0, 0, 0, 20, 'i', 's', 'p', 'e', 0, 0, 0, 0, 0, 0, 2, 128, 0, 0, 1, 104,
};

/* mutations: every byte of d set to each of a few values: no crash (the
 * sanitizers watch), and any size found is positive. */
static void mutations(const unsigned char *d, size_t n)
{
	unsigned char m[256];
	int bad = 0;
	if (n > sizeof m)
		n = sizeof m;
	static const unsigned char vals[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0xc0, 0xe1, 0xda};
	for (size_t i = 0; i < n; i++) {
		for (size_t v = 0; v < sizeof vals; v++) {
			int w = 0, h = 0;
			memcpy(m, d, n);
			m[i] = vals[v];
			if (image_size(m, n, &w, &h) && (w < 1 || h < 1))
				bad++;
		}
	}
	INT_EQ(bad, 0);
}

void test_imagesize(void)
{
	t_current = "imagesize";

	/* PNG */
	SIZE_EQ(PNG_1X1, sizeof PNG_1X1, 1, 1);
	SIZE_EQ(PNG_HD, sizeof PNG_HD, 1920, 1080);
	STR_EQ(kind(PNG_1X1, sizeof PNG_1X1), "png");
	NO_SIZE(PNG_HD, 23); /* the height cut */
	STR_EQ(kind(PNG_HD, 8), "png");
	STR_EQ(kind(PNG_HD, 7), "(none)");
	{
		unsigned char p[sizeof PNG_HD];
		memcpy(p, PNG_HD, sizeof p);
		memcpy(p + 12, "IDAT", 4); /* the first chunk must be IHDR */
		NO_SIZE(p, sizeof p);
		memcpy(p, PNG_HD, sizeof p);
		p[16] = p[17] = p[18] = p[19] = 0; /* width 0 */
		NO_SIZE(p, sizeof p);
		memcpy(p, PNG_HD, sizeof p);
		p[16] = 0x80; /* width 2^31 + ...: more than an int */
		NO_SIZE(p, sizeof p);
	}

	/* GIF */
	SIZE_EQ(GIF_3X2, sizeof GIF_3X2, 3, 2);
	STR_EQ(kind(GIF_3X2, sizeof GIF_3X2), "gif");
	NO_SIZE(GIF_3X2, 9);
	STR_EQ(kind("GIF87a", 6), "gif");
	STR_EQ(kind("GIF88a", 6), "(none)");
	{
		unsigned char g[sizeof GIF_3X2];
		memcpy(g, GIF_3X2, sizeof g);
		g[8] = 0; /* height 0 */
		NO_SIZE(g, sizeof g);
	}

	/* JPEG */
	SIZE_EQ(JPEG_100X50, sizeof JPEG_100X50, 100, 50);
	STR_EQ(kind(JPEG_100X50, sizeof JPEG_100X50), "jpeg");
	SIZE_EQ(JPEG_SOF2, sizeof JPEG_SOF2, 640, 480);
	SIZE_EQ(JPEG_EXIF_LE, sizeof JPEG_EXIF_LE, 50, 100);
	SIZE_EQ(JPEG_EXIF_BE, sizeof JPEG_EXIF_BE, 50, 100);
	SIZE_EQ(JPEG_EXIF_3, sizeof JPEG_EXIF_3, 100, 50);
	SIZE_EQ(JPEG_EXIF_BAD, sizeof JPEG_EXIF_BAD, 100, 50);
	NO_SIZE(JPEG_SOS_FIRST, sizeof JPEG_SOS_FIRST);
	NO_SIZE(JPEG_DNL, sizeof JPEG_DNL);
	NO_SIZE(JPEG_BADLEN, sizeof JPEG_BADLEN);
	NO_SIZE(JPEG_LONGSEG, sizeof JPEG_LONGSEG);
	NO_SIZE(JPEG_NOMARK, sizeof JPEG_NOMARK);
	NO_SIZE(JPEG_100X50, 40); /* cut in the frame header */
	NO_SIZE(JPEG_100X50, 3);
	STR_EQ(kind(JPEG_100X50, 3), "jpeg");
	STR_EQ(kind(JPEG_100X50, 2), "(none)");

	/* WebP */
	SIZE_EQ(WEBP_VP8, sizeof WEBP_VP8, 640, 480);
	SIZE_EQ(WEBP_VP8L, sizeof WEBP_VP8L, 400, 300);
	SIZE_EQ(WEBP_VP8X, sizeof WEBP_VP8X, 1920, 1080);
	STR_EQ(kind(WEBP_VP8L, sizeof WEBP_VP8L), "webp");
	STR_EQ(kind(WEBP_VP8L, 12), "webp");
	NO_SIZE(WEBP_VP8, 29);
	NO_SIZE(WEBP_VP8L, 24);
	NO_SIZE(WEBP_VP8X, 29);
	{
		unsigned char v[sizeof WEBP_VP8];
		memcpy(v, WEBP_VP8, sizeof v);
		v[20] |= 1; /* not a key frame */
		NO_SIZE(v, sizeof v);
		memcpy(v, WEBP_VP8, sizeof v);
		v[24] = 0x02; /* a bad start code */
		NO_SIZE(v, sizeof v);
		unsigned char l[sizeof WEBP_VP8L];
		memcpy(l, WEBP_VP8L, sizeof l);
		l[20] = 0x2e; /* a bad signature */
		NO_SIZE(l, sizeof l);
		memcpy(l, WEBP_VP8L, sizeof l);
		l[24] = 0x20; /* version 1 */
		NO_SIZE(l, sizeof l);
		unsigned char x[sizeof WEBP_VP8X];
		memcpy(x, WEBP_VP8X, sizeof x);
		memcpy(x + 12, "ALPH", 4); /* an unknown first chunk */
		NO_SIZE(x, sizeof x);
		STR_EQ(kind(x, sizeof x), "webp");
		memcpy(x, "RIFF\0\0\0\0WAVE", 12); /* RIFF, not WebP */
		STR_EQ(kind(x, sizeof x), "(none)");
		NO_SIZE(x, sizeof x);
	}

	/* SVG: width and height in px or plain numbers */
	SVG_EQ("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"80\"></svg>", 120,
	       80);
	SVG_EQ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- by hand -->\n"
	       "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"svg11.dtd\" [\n"
	       "  <!ENTITY x \"<svg width='1'>\">\n]>\n"
	       "<svg width=\"10px\" height='20px' viewBox=\"0 0 1 1\"/>",
	       10, 20);
	SVG_EQ("\xef\xbb\xbf  \n<svg\n\twidth = \" 12.5 \"\n\theight=\"7.4px\">", 13, 7);
	SVG_EQ("<svg width=\"1e2\" height=\"5E1\">", 100, 50);
	SVG_EQ("<svg width=120 height=80>", 120, 80); /* not XML, but plain */
	STR_EQ(kind("<svg/>", 6), "svg");
	STR_EQ(kind("<?xml version='1.0'?><svg>", 26), "svg");
	/* only a viewBox; white space and commas; negative origin */
	SVG_EQ("<svg viewBox=\"0 0 300 150\">", 300, 150);
	SVG_EQ("<svg viewBox=\"-10,-10, 200.4,100.6\">", 200, 101);
	/* units other than px: the viewBox, or nothing */
	SVG_EQ("<svg width=\"10em\" height=\"5em\" viewBox=\"0 0 40 20\">", 40, 20);
	SVG_EQ("<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 40 20\">", 40, 20);
	SVG_EQ("<svg width=\"2cm\" height=\"1cm\" viewBox=\"0 0 40 20\">", 40, 20);
	SVG_NONE("<svg width=\"10em\" height=\"5em\">");
	SVG_NONE("<svg width=\"100%\">");
	/* one absolute side: the other from the viewBox's aspect ratio */
	SVG_EQ("<svg width=\"200\" viewBox=\"0 0 100 50\">", 200, 100);
	SVG_EQ("<svg height=\"30px\" width=\"auto\" viewBox=\"0 0 100 50\">", 60, 30);
	SVG_NONE("<svg width=\"200\">");
	/* attributes that merely end in width are not width */
	SVG_EQ("<svg stroke-width=\"5\" data-height=\"9\" viewBox=\"0 0 7 8\">", 7, 8);
	/* bad numbers and viewBoxes */
	SVG_NONE("<svg width=\"0\" height=\"0\">");
	SVG_NONE("<svg width=\"-5\" height=\"5\">");
	SVG_NONE("<svg width=\"1e400\" height=\"5\">");
	SVG_NONE("<svg width=\"99999999999\" height=\"5\">");
	SVG_NONE("<svg width=\"0.2\" height=\"0.2\">");
	SVG_NONE("<svg width=\"5 px\" height=\"5\">");
	SVG_NONE("<svg width=\".\" height=\"5\">");
	SVG_NONE("<svg viewBox=\"0 0 100\">");
	SVG_NONE("<svg viewBox=\"0 0 0 10\">");
	SVG_NONE("<svg viewBox=\"0 0 10 10 10\">");
	SVG_NONE("<svg viewBox=\"a b c d\">");
	SVG_NONE("<svg>");
	/* truncated or malformed start tags */
	SVG_NONE("<svg width=\"10\" hei");
	SVG_NONE("<svg width=\"10\" height=\"20");
	SVG_NONE("<svg width=\"10\" height=");
	SVG_NONE("<svg =\"10\">");
	SVG_NONE("<svg width=\"10\" height=\"20\"");
	/* not SVG: another root, a name that only starts with svg, text */
	SVG_NONE("<html><svg width=\"1\" height=\"1\"></svg></html>");
	STR_EQ(kind("<svgx width='1'>", 16), "(none)");
	STR_EQ(kind("<html><svg>", 11), "(none)");
	STR_EQ(kind("<!-- never closed <svg>", 23), "(none)");
	STR_EQ(kind("<?xml", 5), "(none)");
	STR_EQ(kind("<svg", 4), "(none)");
	SVG_NONE("hello");

	/* garbage, nothing */
	NO_SIZE((const unsigned char *)"", 0);
	NO_SIZE(NULL, 0);
	STR_EQ(kind(NULL, 0), "(none)");
	STR_EQ(kind("\x00\x01\x02\x03garbage", 11), "(none)");
	NO_SIZE((const unsigned char *)"\x00\x01\x02\x03garbage", 11);

	/* AVIF */
	SIZE_EQ(AVIF_640X360, sizeof AVIF_640X360, 640, 360);
	STR_EQ(kind(AVIF_640X360, sizeof AVIF_640X360), "avif");
	NO_SIZE(AVIF_640X360, sizeof AVIF_640X360 - 1); /* the ispe box cut */
	{
		unsigned char p[sizeof AVIF_640X360];
		memcpy(p, AVIF_640X360, sizeof p);
		memcpy(p + 8, "heic", 4);
		memcpy(p + 16, "mif1", 4); /* no avif brand: another kind */
		STR_EQ(kind(p, sizeof p), "(none)");
		memcpy(p, AVIF_640X360, sizeof p);
		p[31] = 200; /* meta longer than the file */
		NO_SIZE(p, sizeof p);
		memcpy(p, AVIF_640X360, sizeof p);
		p[31] = 0; /* a box of size 0: to the end of the file */
		SIZE_EQ(p, sizeof p, 640, 360);
		memcpy(p, AVIF_640X360, sizeof p);
		p[83] = 7; /* a box of 7 bytes: smaller than its head */
		NO_SIZE(p, sizeof p);
		memcpy(p, AVIF_640X360, sizeof p);
		memset(p + 88, 0, 4); /* width 0 */
		NO_SIZE(p, sizeof p);
	}

	/* every prefix: no size, or the right one; mutated bytes: no crash */
	const struct {
		const unsigned char *d;
		size_t n;
	} all[] = {
	    {PNG_1X1, sizeof PNG_1X1},           {PNG_HD, sizeof PNG_HD},
	    {GIF_3X2, sizeof GIF_3X2},           {JPEG_100X50, sizeof JPEG_100X50},
	    {JPEG_SOF2, sizeof JPEG_SOF2},       {JPEG_EXIF_LE, sizeof JPEG_EXIF_LE},
	    {JPEG_EXIF_BE, sizeof JPEG_EXIF_BE}, {WEBP_VP8, sizeof WEBP_VP8},
	    {WEBP_VP8L, sizeof WEBP_VP8L},       {WEBP_VP8X, sizeof WEBP_VP8X},
	    {AVIF_640X360, sizeof AVIF_640X360},
	};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		prefixes(all[i].d, all[i].n);
		mutations(all[i].d, all[i].n);
	}
	const char *svg_doc = "<?xml version=\"1.0\"?><!-- c --><!DOCTYPE svg [<!ENTITY a \"b\">]>"
	                      "<svg width=\"10\" viewBox=\"0 0 20 5\">";
	prefixes((const unsigned char *)svg_doc, strlen(svg_doc));
	mutations((const unsigned char *)svg_doc, strlen(svg_doc));
}
