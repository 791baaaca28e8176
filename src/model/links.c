/* links.c: the links of the HTML folio writes: a tolerant scan, and the
 * rewriting of post bodies' links (see links.h); the check of the built
 * site's links is check/links.c. */
#include "model/links.h"

#include "base/index.h"
#include "base/hash.h"

#include <ctype.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- the scanner ---- */

/* The scanner reads every byte of every page a build writes (the check
 * records each page's links, the model each body's), so the bytes are
 * told apart by a table, and names by their length and a few bytes, not
 * by strncasecmp (is_space: ' ', \t, \n, \r, \f; the C locale's isalpha
 * and isalnum). */
enum {
	CH_SPACE = 1,  /* space, \t, \n, \r, \f */
	CH_ALPHA = 2,  /* A-Z a-z */
	CH_TAG = 4,    /* a tag name's: A-Z a-z 0-9 - : */
	CH_ANAME = 8,  /* ends an attribute's name: space = > / */
	CH_BARE = 16,  /* ends an unquoted value: space > */
	CH_GAP = 32,   /* between attributes: space / */
};

#define SP (CH_SPACE | CH_ANAME | CH_BARE | CH_GAP)
#define AL (CH_ALPHA | CH_TAG)
static const unsigned char ch[256] = {
	['\t'] = SP, ['\n'] = SP, ['\r'] = SP, ['\f'] = SP, [' '] = SP,
	['='] = CH_ANAME, ['/'] = CH_ANAME | CH_GAP, ['>'] = CH_ANAME | CH_BARE,
	['-'] = CH_TAG, [':'] = CH_TAG,
	['0'] = CH_TAG, ['1'] = CH_TAG, ['2'] = CH_TAG, ['3'] = CH_TAG, ['4'] = CH_TAG,
	['5'] = CH_TAG, ['6'] = CH_TAG, ['7'] = CH_TAG, ['8'] = CH_TAG, ['9'] = CH_TAG,
	['A'] = AL, ['B'] = AL, ['C'] = AL, ['D'] = AL, ['E'] = AL, ['F'] = AL, ['G'] = AL,
	['H'] = AL, ['I'] = AL, ['J'] = AL, ['K'] = AL, ['L'] = AL, ['M'] = AL, ['N'] = AL,
	['O'] = AL, ['P'] = AL, ['Q'] = AL, ['R'] = AL, ['S'] = AL, ['T'] = AL, ['U'] = AL,
	['V'] = AL, ['W'] = AL, ['X'] = AL, ['Y'] = AL, ['Z'] = AL,
	['a'] = AL, ['b'] = AL, ['c'] = AL, ['d'] = AL, ['e'] = AL, ['f'] = AL, ['g'] = AL,
	['h'] = AL, ['i'] = AL, ['j'] = AL, ['k'] = AL, ['l'] = AL, ['m'] = AL, ['n'] = AL,
	['o'] = AL, ['p'] = AL, ['q'] = AL, ['r'] = AL, ['s'] = AL, ['t'] = AL, ['u'] = AL,
	['v'] = AL, ['w'] = AL, ['x'] = AL, ['y'] = AL, ['z'] = AL,
};
#undef SP
#undef AL

#define CH(c, k) (ch[(unsigned char)(c)] & (k))

static int is_space(int c)
{
	return CH(c, CH_SPACE) != 0;
}

/* name_is: whether p[0..n) is want (lower case), ignoring ASCII case as
 * strncasecmp does in the C locale. */
static int name_is(const char *p, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + ('a' - 'A'));
		if (c != (unsigned char)want[i] || !want[i])
			return 0;
	}
	return want[n] == '\0';
}

/* find_ci: the first place of lit (lower case, starting with '<') in
 * h[from..n), ignoring case, or n. */
static size_t find_ci(const char *h, size_t from, size_t n, const char *lit)
{
	size_t m = strlen(lit);
	while (from < n) {
		const char *lt = memchr(h + from, lit[0], n - from);
		if (!lt)
			return n;
		size_t at = (size_t)(lt - h);
		if (n - at >= m && name_is(h + at, m, lit))
			return at;
		from = at + 1;
	}
	return n;
}

/* srcset: "a.png 1x, b.png 2x": each URL. */
static int scan_srcset(const char *v, size_t n, size_t at, links_scan_fn fn, void *ctx)
{
	size_t i = 0;
	while (i < n) {
		while (i < n && (is_space((unsigned char)v[i]) || v[i] == ','))
			i++;
		size_t s = i;
		while (i < n && !is_space((unsigned char)v[i]))
			i++;
		size_t e = i;
		int ended = e > s && v[e - 1] == ',';
		while (e > s && v[e - 1] == ',')
			e--; /* all trailing commas, as a browser reads it */
		if (e > s) {
			int r = fn(ctx, LINKS_URL, v + s, e - s, at + s);
			if (r)
				return r;
		}
		if (!ended)
			while (i < n && v[i] != ',')
				i++; /* the descriptor */
	}
	return 0;
}

/* card_url: whether a <meta>'s property or name is one whose content is
 * a URL that a page's card shows (og:image, twitter:image...). */
static int card_url(const char *v, size_t n)
{
	static const char *const names[] = {"og:image", "og:image:url", "og:image:secure_url", "og:video", "og:audio",
					    "twitter:image", "twitter:image:src"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (name_is(v, n, names[i]))
			return 1;
	return 0;
}

/* What an attribute's name makes of its value. */
enum attr { A_OTHER, A_URL, A_SRCSET, A_ID, A_NAME, A_CONTENT, A_PROPERTY };

/* load_u16, load_u32, load_u64 (base/buf.h) compare bytes as numbers here
 * (whatever the byte order: both sides are loaded alike); with each byte's
 * 0x20 bit set, an ASCII letter of either case is its lower case and no
 * other byte is, so that (load(p) | 0x20..) == load("name") is name_is
 * for a name of letters. */

#define LO16 ((uint16_t)0x2020u)
#define LO32 ((uint32_t)0x20202020u)
#define LO64 ((uint64_t)0x2020202020202020u)

/* attr_of: the attribute named p[0..n): by its length first, so that the
 * many others (class, rel, type, title, data-*) cost a switch. */
static enum attr attr_of(const char *p, size_t n)
{
	switch (n) {
	case 2:
		return (load_u16(p) | LO16) == load_u16("id") ? A_ID : A_OTHER;
	case 3:
		return (load_u16(p) | LO16) == load_u16("sr") && (p[2] | 0x20) == 'c' ? A_URL : A_OTHER;
	case 4: {
		uint32_t v = load_u32(p) | LO32;
		return v == load_u32("href") ? A_URL : v == load_u32("name") ? A_NAME : A_OTHER;
	}
	case 6: {
		uint32_t v = load_u32(p) | LO32;
		uint16_t w = load_u16(p + 4) | LO16;
		return v == load_u32("post") && w == load_u16("er")   ? A_URL
		       : v == load_u32("srcs") && w == load_u16("et") ? A_SRCSET
							  : A_OTHER;
	}
	case 7:
		return (load_u32(p) | LO32) == load_u32("cont") && (load_u32(p + 3) | LO32) == load_u32("tent") ? A_CONTENT : A_OTHER;
	case 8:
		return (load_u64(p) | LO64) == load_u64("property") ? A_PROPERTY : A_OTHER;
	default:
		return A_OTHER;
	}
}

/* find_byte: the first c in h[i..n), or n. Most of what the scanner
 * looks for is a few bytes away (the next tag, a value's closing quote):
 * a 16-byte compare in line costs less than a call to memchr, which
 * takes over past 64 bytes. */
static inline size_t find_byte(const char *h, size_t i, size_t n, char c)
{
#if defined(__SSE2__)
	__m128i v = _mm_set1_epi8(c);
	for (int k = 0; k < 4 && i + 16 <= n; k++, i += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(h + i)), v));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	if (i + 16 > n) {
		while (i < n && h[i] != c)
			i++;
		return i;
	}
#endif
	const char *p = memchr(h + i, c, n - i);
	return p ? (size_t)(p - h) : n;
}

int links_scan(const char *h, size_t n, links_scan_fn fn, void *ctx)
{
	size_t i = 0;
	while (i < n) {
		i = find_byte(h, i, n, '<');
		if (i >= n)
			return 0;
		if (i + 1 >= n || !CH(h[i + 1], CH_ALPHA)) {
			if (n - i >= 4 && h[i + 1] == '!' && h[i + 2] == '-' && h[i + 3] == '-') {
				const char *e = n - i - 4 >= 3 ? memmem(h + i + 4, n - i - 4, "-->", 3) : NULL;
				i = e ? (size_t)(e - h) + 3 : n;
				continue;
			}
			/* an end tag, a declaration or a lone '<': on to its '>' */
			if (i + 1 < n && (h[i + 1] == '/' || h[i + 1] == '!' || h[i + 1] == '?')) {
				size_t gt = find_byte(h, i, n, '>');
				i = gt < n ? gt + 1 : n;
			} else {
				i++;
			}
			continue;
		}
		size_t t = i + 1;
		while (t < n && CH(h[t], CH_TAG))
			t++;
		const char *tag = h + i + 1;
		size_t tag_len = t - i - 1;
		int is_a = tag_len == 1 && (tag[0] == 'a' || tag[0] == 'A');
		int is_meta = tag_len == 4 && name_is(tag, 4, "meta");
		const char *raw = tag_len == 6 && name_is(tag, 6, "script") ? "</script"
				  : tag_len == 5 && name_is(tag, 5, "style") ? "</style"
									       : NULL;
		/* a <meta> of a social card: its content is a URL (reported at
		 * the tag's end, whatever the order of the attributes) */
		int card = 0;
		size_t cs = 0, ce = 0;
		size_t j = t;
		for (;;) {
			while (j < n && CH(h[j], CH_GAP))
				j++;
			if (j >= n)
				return 0;
			if (h[j] == '>') {
				j++;
				if (card && ce > cs) {
					int r = fn(ctx, LINKS_URL, h + cs, ce - cs, cs);
					if (r)
						return r;
				}
				break;
			}
			size_t ns = j;
			while (j < n && !CH(h[j], CH_ANAME))
				j++;
			if (j == ns) {
				j++; /* a '=' with no name */
				continue;
			}
			const char *an = h + ns;
			size_t an_len = j - ns;
			while (j < n && CH(h[j], CH_SPACE))
				j++;
			if (j >= n || h[j] != '=')
				continue; /* no value */
			j++;
			while (j < n && CH(h[j], CH_SPACE))
				j++;
			size_t vs, ve;
			if (j < n && (h[j] == '"' || h[j] == '\'')) {
				vs = j + 1;
				ve = find_byte(h, vs, n, h[j]);
				j = ve < n ? ve + 1 : n;
			} else {
				vs = j;
				while (j < n && !CH(h[j], CH_BARE))
					j++;
				ve = j;
			}
			int r = 0;
			switch (attr_of(an, an_len)) {
			case A_URL:
				r = fn(ctx, LINKS_URL, h + vs, ve - vs, vs);
				break;
			case A_SRCSET:
				r = scan_srcset(h + vs, ve - vs, vs, fn, ctx);
				break;
			case A_ID:
				r = fn(ctx, LINKS_ID, h + vs, ve - vs, vs);
				break;
			case A_NAME:
				if (is_a)
					r = fn(ctx, LINKS_ID, h + vs, ve - vs, vs);
				else if (is_meta)
					card |= card_url(h + vs, ve - vs);
				break;
			case A_CONTENT:
				if (is_meta)
					cs = vs, ce = ve;
				break;
			case A_PROPERTY:
				if (is_meta)
					card |= card_url(h + vs, ve - vs);
				break;
			default:
				break;
			}
			if (r)
				return r;
		}
		i = raw ? find_ci(h, j, n, raw) : j;
	}
	return 0;
}

/* ---- text helpers ---- */

static void put_utf8(struct buf *b, unsigned long c)
{
	unsigned char u[4];
	if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		c = 0xFFFD;
	if (c < 0x80) {
		buf_putc(b, (int)c);
	} else if (c < 0x800) {
		u[0] = (unsigned char)(0xC0 | (c >> 6));
		u[1] = (unsigned char)(0x80 | (c & 0x3F));
		buf_append(b, u, 2);
	} else if (c < 0x10000) {
		u[0] = (unsigned char)(0xE0 | (c >> 12));
		u[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
		u[2] = (unsigned char)(0x80 | (c & 0x3F));
		buf_append(b, u, 3);
	} else {
		u[0] = (unsigned char)(0xF0 | (c >> 18));
		u[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
		u[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
		u[3] = (unsigned char)(0x80 | (c & 0x3F));
		buf_append(b, u, 4);
	}
}

void links_unescape(struct buf *out, const char *v, size_t n)
{
	static const struct {
		const char *name;
		char c;
	} named[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
	size_t i = 0;
	while (i < n) {
		const char *amp = memchr(v + i, '&', n - i);
		size_t run = amp ? (size_t)(amp - v) - i : n - i;
		buf_append(out, v + i, run);
		i += run;
		if (i >= n)
			break;
		i++; /* the '&' */
		int done = 0;
		if (i < n && v[i] == '#') {
			size_t k = i + 1;
			int hex = k < n && (v[k] == 'x' || v[k] == 'X');
			k += hex;
			unsigned long c = 0;
			size_t digits = 0;
			while (k < n && digits < 8 && (hex ? isxdigit((unsigned char)v[k]) : isdigit((unsigned char)v[k]))) {
				int dv = isdigit((unsigned char)v[k]) ? v[k] - '0' : (tolower((unsigned char)v[k]) - 'a' + 10);
				c = c * (hex ? 16 : 10) + (unsigned long)dv;
				k++;
				digits++;
			}
			if (digits && k < n && v[k] == ';') {
				put_utf8(out, c);
				i = k + 1;
				done = 1;
			}
		} else {
			for (size_t e = 0; e < sizeof named / sizeof *named; e++) {
				size_t l = strlen(named[e].name);
				if (n - i >= l && !memcmp(v + i, named[e].name, l)) {
					buf_putc(out, named[e].c);
					i += l;
					done = 1;
					break;
				}
			}
		}
		if (!done)
			buf_putc(out, '&');
	}
}

/* has_scheme: "http:", "mailto:", "data:" ... */
int links_has_scheme(const char *u, size_t n)
{
	if (!n || !isalpha((unsigned char)u[0]))
		return 0;
	for (size_t i = 1; i < n; i++) {
		if (u[i] == ':')
			return 1;
		if (!isalnum((unsigned char)u[i]) && u[i] != '+' && u[i] != '-' && u[i] != '.')
			return 0;
	}
	return 0;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* pct_decode: %XX decoded, into out (NUL-terminated there too). */
void links_pct_decode(struct buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int h1, h2;
		if (s[i] == '%' && i + 2 < n && (h1 = hexval((unsigned char)s[i + 1])) >= 0 &&
		    (h2 = hexval((unsigned char)s[i + 2])) >= 0) {
			buf_putc(out, h1 * 16 + h2);
			i += 2;
		} else {
			buf_putc(out, s[i]);
		}
	}
}

const char *links_base_path(struct arena *a, const char *u, size_t n)
{
	const char *p = u, *end = u + n;
	const char *sep = n >= 3 ? memmem(u, n, "://", 3) : NULL;
	if (sep)
		p = sep + 3;
	else if (!n || u[0] != '/')
		return "/";
	const char *slash = memchr(p, '/', (size_t)(end - p));
	/* a '/' of the query or the fragment is none of the path's */
	for (const char *c = p; slash && c < slash; c++)
		if (*c == '?' || *c == '#')
			slash = NULL;
	if (!slash)
		return "/";
	size_t len = (size_t)(end - slash);
	const char *q = memchr(slash, '?', len);
	if (!q)
		q = memchr(slash, '#', len);
	if (q)
		len = (size_t)(q - slash);
	int slash_end = len && slash[len - 1] == '/';
	char *r = arena_alloc(a, len + 2);
	memcpy(r, slash, len);
	if (!slash_end)
		r[len++] = '/';
	r[len] = '\0';
	return r;
}

/* normalize: the site-relative path rel ("a/./b/../c") with its dot
 * segments resolved, in place; -1 if it climbs out of the site. A
 * trailing slash stays. */
int links_normalize(char *rel)
{
	char *w = rel;
	const char *r = rel;
	while (*r) {
		const char *e = strchr(r, '/');
		size_t n = e ? (size_t)(e - r) : strlen(r);
		if (n == 1 && r[0] == '.') {
			/* nothing */
		} else if (n == 2 && r[0] == '.' && r[1] == '.') {
			if (w == rel)
				return -1;
			w--; /* the '/' after the last segment */
			while (w > rel && w[-1] != '/')
				w--;
		} else if (n == 0) {
			/* "a//b": an empty segment */
		} else {
			memmove(w, r, n);
			w += n;
			if (e)
				*w++ = '/';
		}
		if (!e)
			break;
		r = e + 1;
	}
	*w = '\0';
	return 0;
}

/* is_md_link: a relative link to a Markdown file ("../x.md#part"). */
int links_is_md_link(const char *u, size_t ul)
{
	size_t pl = 0;
	while (pl < ul && u[pl] != '#' && u[pl] != '?')
		pl++;
	return pl >= 3 && !memcmp(u + pl - 3, ".md", 3) && !links_has_scheme(u, ul) && u[0] != '/' && u[0] != '#' &&
	       u[0] != '@';
}

/* ---- rewriting ---- */

struct rewrite {
	struct str html;
	const char *src_path, *base;
	int need_base;
	links_resolve_fn resolve;
	void *ctx;
	links_seen_fn seen;
	void *seen_ctx;
	struct buf out, tmp, path;
	size_t from; /* html copied to out up to here */
	int changed;
};

static void replace(struct rewrite *w, size_t at, size_t len, const char *with, size_t with_len)
{
	buf_append(&w->out, w->html.p + w->from, at - w->from);
	buf_put_html(&w->out, with, with_len);
	w->from = at + len;
	w->changed = 1;
}

static int rewrite_one(void *ctx, enum links_kind kind, const char *v, size_t n, size_t at)
{
	struct rewrite *w = ctx;
	if (kind != LINKS_URL)
		return 0;
	/* most URLs have no character reference: read where they stand */
	const char *u = v;
	size_t ul = n;
	if (memchr(v, '&', n)) {
		buf_reset(&w->tmp);
		links_unescape(&w->tmp, v, n);
		u = w->tmp.p ? w->tmp.p : "";
		ul = w->tmp.len;
	}
	size_t pl = 0;
	while (pl < ul && u[pl] != '#' && u[pl] != '?')
		pl++;
	int at_form = ul >= 2 && u[0] == '@' && u[1] == '/';
	int md = links_is_md_link(u, ul);
	if (at_form || md) {
		buf_reset(&w->path);
		if (at_form) {
			buf_puts(&w->path, "content/");
			links_pct_decode(&w->path, u + 2, pl - 2);
		} else {
			const char *slash = w->src_path ? strrchr(w->src_path, '/') : NULL;
			if (slash)
				buf_append(&w->path, w->src_path, (size_t)(slash - w->src_path) + 1);
			links_pct_decode(&w->path, u, pl);
		}
		buf_putc(&w->path, '\0');
		const char *url = links_normalize(w->path.p) == 0 ? w->resolve(w->ctx, w->path.p, strlen(w->path.p)) : NULL;
		if (url) {
			struct buf nv;
			buf_init(&nv);
			buf_append(&nv, w->base, strlen(w->base) - 1);
			buf_puts(&nv, url);
			buf_append(&nv, u + pl, ul - pl);
			replace(w, at, n, nv.p, nv.len);
			if (w->seen)
				w->seen(w->seen_ctx, nv.p, nv.len);
			buf_fini(&nv);
		} else if (w->seen) {
			w->seen(w->seen_ctx, u, ul);
		}
		return 0;
	}
	if (w->need_base && ul >= 1 && u[0] == '/' && (ul < 2 || u[1] != '/')) {
		struct buf nv;
		buf_init(&nv);
		buf_append(&nv, w->base, strlen(w->base) - 1);
		buf_append(&nv, u, ul);
		replace(w, at, n, nv.p, nv.len);
		if (w->seen)
			w->seen(w->seen_ctx, nv.p, nv.len);
		buf_fini(&nv);
	} else if (w->seen) {
		w->seen(w->seen_ctx, u, ul);
	}
	return 0;
}

struct str links_rewrite(struct arena *a, struct str html, const char *src_path, const char *base_path,
			 links_resolve_fn resolve, void *ctx)
{
	return links_rewrite_seen(a, html, src_path, base_path, resolve, ctx, NULL, NULL);
}

struct str links_rewrite_seen(struct arena *a, struct str html, const char *src_path, const char *base_path,
			      links_resolve_fn resolve, void *ctx, links_seen_fn seen, void *seen_ctx)
{
	if (!html.len)
		return html;
	int need_base = base_path && strcmp(base_path, "/") != 0;
	if (!need_base && !seen && !memmem(html.p, html.len, ".md", 3) && !memmem(html.p, html.len, "@/", 2))
		return html;
	struct rewrite w;
	memset(&w, 0, sizeof w);
	w.html = html;
	w.src_path = src_path;
	w.base = base_path ? base_path : "/";
	w.need_base = need_base;
	w.resolve = resolve;
	w.ctx = ctx;
	w.seen = seen;
	w.seen_ctx = seen_ctx;
	buf_init(&w.out);
	buf_init(&w.tmp);
	buf_init(&w.path);
	links_scan(html.p, html.len, rewrite_one, &w);
	struct str r = html;
	if (w.changed) {
		buf_append(&w.out, html.p + w.from, html.len - w.from);
		char *p = arena_alloc(a, w.out.len + 1);
		memcpy(p, w.out.p, w.out.len);
		p[w.out.len] = '\0';
		r = (struct str){p, w.out.len};
	}
	buf_fini(&w.out);
	buf_fini(&w.tmp);
	buf_fini(&w.path);
	return r;
}
