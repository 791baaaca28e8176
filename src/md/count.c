/* count.c: the counting pass: words of prose and of code, images, CJK
 * characters and formulas (md_doc's counts), counted in the walk that
 * finds the blocks to make HTML (md_blocks), or on a task of its own
 * beside the rendering when the tree does not change; and reading time. */
#include "internal.h"
#include "md/mdmem.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <utf8proc.h>

/* byte_class: for wc_feed, 0 for a space, 3 for a letter or digit, 1 for
 * any other ASCII character, 4 for a byte of a multibyte character. */
#define BC(c)                                                                                          \
	((c) >= 0x80 ? 4                                                                               \
	 : (c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r' || (c) == '\f' || (c) == '\v' ? 0 \
	 : ((c) >= '0' && (c) <= '9') || ((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') ? 3 \
	                                                                                             : 1)
#define BC4(c) BC(c), BC((c) + 1), BC((c) + 2), BC((c) + 3)
#define BC16(c) BC4(c), BC4((c) + 4), BC4((c) + 8), BC4((c) + 12)
#define BC64(c) BC16(c), BC16((c) + 16), BC16((c) + 32), BC16((c) + 48)
static const unsigned char byte_class[256] = {BC64(0), BC64(64), BC64(128), BC64(192)};

struct wc {
	size_t words, cjk;
	int in_word, alnum;
	int prose; /* CJK characters are counted apart and break words */
};

static void wc_break(struct wc *w)
{
	if (w->in_word && w->alnum)
		w->words++;
	w->in_word = w->alnum = 0;
}

/* is_cjk: Han, Hiragana, Katakana and Hangul code points. */
static int is_cjk(int32_t c)
{
	return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0x2FDF) || c == 0x3005 ||
	       c == 0x3007 || (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3130 && c <= 0x318F) ||
	       (c >= 0x31F0 && c <= 0x31FF) || (c >= 0x3400 && c <= 0x4DBF) ||
	       (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA960 && c <= 0xA97F) ||
	       (c >= 0xAC00 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFAFF) ||
	       (c >= 0xFF66 && c <= 0xFF9F) || (c >= 0x1B000 && c <= 0x1B16F) ||
	       (c >= 0x20000 && c <= 0x3FFFF);
}

/* wc_feed: a word is a run of non-space characters holding at least one
 * letter or digit (so "—" or "*" alone is not one). In prose, CJK
 * characters are counted one by one and end words, and CJK punctuation
 * ends words too. */
#if defined(__SSE2__)
/* in_range: a mask of v's bytes within lo..hi (unsigned) */
static inline __m128i in_range(__m128i v, char lo, char hi)
{
	__m128i span = _mm_set1_epi8((char)(hi - lo));
	return _mm_cmpeq_epi8(_mm_max_epu8(_mm_sub_epi8(v, _mm_set1_epi8(lo)), span), span);
}

/* wc_ascii: counts w's words over the blocks of sixteen ASCII bytes at
 * the start of u[0..n); returns how many bytes it took. A block's bytes
 * become masks of spaces (S) and letters or digits (A), the others (P)
 * neither; a word is counted where it ends, as wc_break does. Each word
 * with a letter or digit has one first one: a bit of A whose last bit of
 * S or A before it is a space (or none since the block's start, where
 * the state says no letter yet); the runs of P after a space are crossed
 * by adding their first bit to P (the carry lands on the bit after the
 * run). The words ended in the block are those begun in it or before it,
 * less the one still open at its end. */
static size_t wc_ascii(struct wc *w, const unsigned char *u, size_t n)
{
	size_t i = 0;
	/* 0 between words, 1 in a word of no letter yet, 2 in one with one */
	unsigned st = !w->in_word ? 0 : w->alnum ? 2 : 1;
	size_t words = w->words;
	for (; n - i >= 16; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(u + i));
		if (_mm_movemask_epi8(v))
			break; /* a multibyte character: the byte loop */
		unsigned S = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), in_range(v, '\t', '\r')));
		unsigned A = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(in_range(v, '0', '9'), in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z')));
		unsigned P = ~(S | A) & 0xFFFF;
		unsigned start = (S << 1) | (st != 2);
		unsigned first = A & (start | ((P + (start & P)) & ~P));
		unsigned N = S | A, after;
		if (!N)
			after = st ? st : 1;
		else {
			int last = 31 - __builtin_clz(N);
			after = !(S >> last & 1) ? 2 : last == 15 ? 0 : 1;
		}
		words += (size_t)__builtin_popcount(first) + (st == 2) - (after == 2);
		st = after;
	}
	w->words = words;
	w->in_word = st != 0;
	w->alnum = st == 2;
	return i;
}
#endif

static int wc_bytewise; /* md_count_words' switch, for the tests */

static void wc_feed(struct wc *w, const char *s, size_t n)
{
	const utf8proc_uint8_t *u = (const utf8proc_uint8_t *)s;
	size_t i = 0;
	while (i < n) {
		if (u[i] < 0x80) {
#if defined(__SSE2__)
			if (!wc_bytewise)
				i += wc_ascii(w, u + i, n - i);
			if (i == n)
				break;
#endif
			/* a run of ASCII, the common case, by table and without
			 * a branch per word (its end is not predictable): a
			 * space ends a word, counted if it had a letter or digit */
			size_t words = w->words;
			unsigned in = (unsigned)w->in_word, al = (unsigned)w->alnum;
			for (; i < n; i++) {
				unsigned k = byte_class[u[i]];
				if (k == 4)
					break;
				unsigned inside = k != 0;
				words += (inside ^ 1) & in & al;
				in = inside;
				al = (al | (k >> 1)) & inside;
			}
			w->words = words;
			w->in_word = (int)in;
			w->alnum = (int)al;
			continue;
		}
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate(u + i, (utf8proc_ssize_t)(n - i), &cp);
		if (k < 1) {
			w->in_word = 1;
			i++;
			continue;
		}
		i += (size_t)k;
		if (w->prose && is_cjk(cp)) {
			wc_break(w);
			w->cjk++;
			continue;
		}
		utf8proc_category_t cat = utf8proc_category(cp);
		if (cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
		    cat == UTF8PROC_CATEGORY_ZP || (w->prose && cp >= 0x3000 && cp <= 0x303F)) {
			wc_break(w);
		} else {
			w->in_word = 1;
			if (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_NO &&
			    !(cat >= UTF8PROC_CATEGORY_MN && cat <= UTF8PROC_CATEGORY_ME))
				w->alnum = 1;
		}
	}
}

size_t md_count_words(const char *s, size_t n, size_t piece, int bytewise)
{
	struct wc w = {0, 0, 0, 0, 0};
	wc_bytewise = bytewise;
	for (size_t i = 0; i < n;) {
		size_t k = piece && piece < n - i ? piece : n - i;
		while (i + k < n && ((unsigned char)s[i + k] & 0xC0) == 0x80)
			k++; /* text nodes hold whole characters */
		wc_feed(&w, s + i, k);
		i += k;
	}
	wc_break(&w);
	wc_bytewise = 0;
	return w.words;
}

static void sink_wc(void *ctx, const char *p, size_t n)
{
	if (p)
		wc_feed(ctx, p, n);
	else
		wc_break(ctx);
}

/* The counts of a document, made in md_blocks' walk (count_node), before
 * formulas become MathML: prose words (text, inline code and math, the
 * text of raw HTML; not image alt text), code words (code blocks but
 * diagrams), images (Markdown images, <img> tags and diagrams), CJK
 * characters and math spans. */
struct md_counter {
	struct wc prose, code;
	struct md_doc *out;
	cmark_node *root;
	cmark_node *skip; /* nothing inside it counts, until its exit */
	int unnest;       /* also unnest_one each node (not on a task of its own) */
};

/* unnest_strong: cmark-gfm's HTML renderer writes no tags for a strong
 * emphasis directly inside another ("****foo****" gives one <strong>, as
 * GitHub shows it), where CommonMark nests them. Each such inner strong
 * becomes a custom inline that writes its tags itself (the tree's other
 * readers take it as a plain inline container). A strong opens with "**"
 * or "__": without either in the text, there is nothing to walk. */
static void unnest_one(cmark_node *n)
{
	if (cmark_node_get_type(n) != CMARK_NODE_STRONG || cmark_node_get_type(cmark_node_parent(n)) != CMARK_NODE_STRONG)
		return;
	/* entered before its children: a strong inside it has a custom
	 * parent, and keeps its own tags */
	cmark_node_set_type(n, CMARK_NODE_CUSTOM_INLINE);
	cmark_node_set_on_enter(n, "<strong>");
	cmark_node_set_on_exit(n, "</strong>");
}

/* unnest_strong: unnest_one over the tree, in a walk of its own (the
 * count walk does it, unless it runs beside the rendering). */
static void unnest_strong(cmark_node *root, uint32_t marks)
{
	if (!(marks & (MD_MARK_STARS | MD_MARK_UNDERS)))
		return;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		if (ev == CMARK_EVENT_ENTER)
			unnest_one(cmark_iter_get_node(it));
	cmark_iter_free(it);
}

static void count_node(void *ctx, cmark_node *n, cmark_event_type ev)
{
	struct md_counter *k = ctx;
	struct md_doc *out = k->out;
	if (k->unnest && ev == CMARK_EVENT_ENTER)
		unnest_one(n);
	if (k->skip) {
		if (n == k->skip && ev == CMARK_EVENT_EXIT)
			k->skip = NULL;
		return;
	}
	if (md_math_kind(n)) {
		if (ev == CMARK_EVENT_ENTER) {
			struct str tex = md_tex(n);
			out->math_spans++;
			wc_feed(&k->prose, tex.p, tex.len);
		}
		return;
	}
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_TEXT:
	case CMARK_NODE_CODE: {
		struct str lit = md_literal(n);
		wc_feed(&k->prose, lit.p, lit.len);
		break;
	}
	case CMARK_NODE_CODE_BLOCK: {
		if (md_is_diagram(n)) { /* a picture, which blocks.c draws */
			out->images++;
			wc_break(&k->prose);
			break;
		}
		struct str lit = md_literal(n);
		wc_feed(&k->code, lit.p, lit.len);
		wc_break(&k->code);
		wc_break(&k->prose);
		break;
	}
	case CMARK_NODE_HTML_BLOCK: {
		struct str h = md_literal(n);
		wc_break(&k->prose);
		md_html_text(h.p, h.len, sink_wc, &k->prose, &out->images);
		wc_break(&k->prose);
		break;
	}
	case CMARK_NODE_HTML_INLINE: {
		/* one tag: <img> counts, <br> ends a word, <sub> does not
		 * (H<sub>2</sub>O is one word) */
		struct str h = md_literal(n);
		md_html_text(h.p, h.len, sink_wc, &k->prose, &out->images);
		break;
	}
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK: wc_break(&k->prose); break;
	case CMARK_NODE_IMAGE:
		out->images++;
		wc_break(&k->prose);
		k->skip = n; /* alt text is not read */
		break;
	case CMARK_NODE_FOOTNOTE_REFERENCE:
		if (ev == CMARK_EVENT_ENTER)
			k->skip = n;
		break;
	default:
		if (md_is_block(n))
			wc_break(&k->prose);
		break;
	}
}

/* count_walk: the counts of a document (a struct md_counter) on a task
 * of its own; the iterator's memory is that thread's mdmem. */
static void *count_walk(void *arg)
{
	struct md_counter *k = arg;
	mdmem_begin();
	cmark_iter *it = cmark_iter_new(k->root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		count_node(k, cmark_iter_get_node(it), ev);
	cmark_iter_free(it);
	mdmem_end();
	return NULL;
}

void md_pass_blocks(struct md_ctx *c)
{
	struct md_counter *k = xcalloc(1, sizeof *k);
	k->prose.prose = 1;
	k->out = c->out;
	k->root = c->root;
	k->unnest = 1;
	c->count = k;
	/* A large document (one past mdmem's reserve threshold) that holds
	 * nothing md_blocks would change (no code block, no formula to
	 * typeset, no image: every image opens with "![" in the text) is
	 * counted on a task of its own while it renders: both only read the
	 * tree, and each of these walks takes a tenth of such a build. */
	const struct md_options *o = c->o;
	if (mdmem_large() && !c->has_code && !(o->math && o->typeset && (c->marks & MD_MARK_DOLLAR)) &&
	    !(c->marks & MD_MARK_IMAGE)) {
		unnest_strong(c->root, c->marks); /* before the tree is shared */
		k->unnest = 0;
		if (pool_spawn(&c->count_task, count_walk, k))
			return;
		k->unnest = 1;
	}
	c->errors += md_blocks(c, c->root, count_node, k);
}

void md_count_finish(struct md_ctx *c)
{
	struct md_counter *k = c->count;
	pool_join(&c->count_task);
	for (size_t i = 0; i < c->ninc_code; i++) { /* code from files (file=): the block's node had none */
		wc_feed(&k->code, c->inc_code[i].p, c->inc_code[i].len);
		wc_break(&k->code);
	}
	wc_break(&k->prose);
	k->out->words = k->prose.words;
	k->out->cjk_chars = k->prose.cjk;
	k->out->code_words = k->code.words;
}

void md_count_free(struct md_ctx *c)
{
	free(c->count);
	c->count = NULL;
}

/* md_reading_minutes: the weights: prose at wpm words a minute, code at a
 * third of that (code is read token by token, and a whitespace-separated
 * token of code holds several of them), 12 seconds for each image, CJK text
 * at 500 characters a minute. Rounded to the nearest minute, at least 1. */
int md_reading_minutes(const struct md_doc *doc, int wpm)
{
	if (wpm <= 0)
		wpm = 230;
	double seconds = (double)doc->words * 60.0 / wpm +
	                 (double)doc->code_words * 60.0 * 3.0 / wpm + (double)doc->images * 12.0 +
	                 (double)doc->cjk_chars * 60.0 / 500.0;
	double minutes = seconds / 60.0 + 0.5;
	if (minutes < 1.0)
		return 1;
	if (minutes > 1e6)
		return 1000000;
	return (int)minutes;
}
