/* mathblock.c: display math in the tree: the blocks the parser found
 * ($$ ... $$, \[ ... \], blockext.c) and fenced code blocks whose info
 * string is "math" each become a paragraph that holds one display formula,
 * as "$$...$$" alone in a paragraph always was, so that the counts, the
 * summary and typesetting treat them the same; and the bracket sentinels
 * (MD_BSENT): put in the text before parsing, given back after.
 *
 * The sentinels are the one rewrite of the text before cmark parses it:
 * cmark's inline parser reads "\(" as an escaped "(" before any
 * extension is asked about the backslash, so a formula's \( and \) (and
 * \[ \] in running text) must reach it as something else. */
#include "internal.h"
#include "md/mdmem.h"

#include <string.h>

/* node.h (an internal header of cmark-gfm, see markdown.c): a formula's TeX is changed in its node. */
#include <cmark-gfm/buffer.h>
#include <cmark-gfm/node.h>

/* ---- the sentinels ---- */


/* skip_ws: past spaces, tabs and at most one newline. */
static size_t skip_ws(const char *t, size_t j, size_t len)
{
	int nl = 0;
	while (j < len && (t[j] == ' ' || t[j] == '\t' || (t[j] == '\n' && !nl++)))
		j++;
	return j;
}

/* dest_end: t[i] is the '(' of "](": the end of the link destination and
 * title that may follow (their escapes are theirs, not math), or i. */
static size_t dest_end(const char *t, size_t i, size_t len)
{
	size_t j = skip_ws(t, i + 1, len);
	if (j < len && t[j] == '<') {
		const char *gt = memchr(t + j, '>', len - j);
		if (!gt)
			return i;
		j = (size_t)(gt - t) + 1;
	} else {
		int depth = 0;
		for (; j < len; j++) {
			char b = t[j];
			if (b == '\\')
				j++;
			else if (b == '(')
				depth++;
			else if (b == ')' && depth-- == 0)
				return j;
			else if ((unsigned char)b <= ' ')
				break;
		}
	}
	j = skip_ws(t, j, len);
	if (j < len && (t[j] == '"' || t[j] == '\'' || t[j] == '(')) {
		char close = t[j] == '(' ? ')' : t[j];
		for (j++; j < len && t[j] != close; j++)
			if (t[j] == '\\')
				j++;
	}
	return j < len ? j : len;
}

size_t md_math_sentinels(const char *t, size_t len, struct buf *out)
{
	size_t n = 0, copied = 0, dest = 0; /* t[..dest) may be a link destination */
	for (size_t i = 0; i < len; i++) {
		if (t[i] == ']' && i + 1 < len && t[i + 1] == '(') {
			size_t e = dest_end(t, i + 1, len);
			if (e > dest)
				dest = e;
		} else if (t[i] == MD_BSENT) {
			buf_append(out, t + copied, i - copied);
			buf_putc(out, 0x1a);
			copied = i + 1;
		} else if (t[i] == '\\' && i + 1 < len) {
			char b = t[i + 1];
			if (i >= dest && (b == '(' || b == ')' || b == '[' || b == ']')) {
				buf_append(out, t + copied, i - copied);
				buf_putc(out, MD_BSENT);
				copied = i + 1;
				n++;
			}
			i++; /* the escaped byte */
		}
	}
	if (!n) {
		buf_reset(out);
		return 0;
	}
	buf_append(out, t + copied, len - copied);
	return n;
}

void md_unsentinel(struct buf *out, const char *s, size_t n)
{
	size_t copied = 0;
	for (const char *p; (p = memchr(s + copied, MD_BSENT, n - copied)) != NULL;) {
		buf_append(out, s + copied, (size_t)(p - s) - copied);
		buf_putc(out, '\\');
		copied = (size_t)(p - s) + 1;
	}
	buf_append(out, s + copied, n - copied);
}

void md_pass_sentinels(struct md_ctx *c)
{
	if (c->o->math && c->o->brackets && c->len && (c->nsent = md_math_sentinels(c->text, c->len, &c->senttext)) > 0) {
		c->text = c->senttext.p;
		c->len = c->senttext.len;
	}
}

/* without_sentinels: s[0..n) without its sentinels, NUL-terminated in b
 * (the escapes they were); 0 when s has none (b untouched). */
static int without_sentinels(struct buf *b, const char *s, size_t n)
{
	if (!n || !memchr(s, MD_BSENT, n))
		return 0;
	buf_reset(b);
	for (size_t i = 0; i < n; i++)
		if (s[i] != MD_BSENT)
			buf_putc(b, s[i]);
	buf_putc(b, 0);
	return 1;
}

/* unsentinel_tree: gives back what md_math_sentinels took: in code, raw
 * HTML and TeX a sentinel is the backslash it was; in text, info strings,
 * a link's URL and title, the escape it was (nothing). */
static void unsentinel_tree(cmark_node *root)
{
	struct buf b;
	buf_init(&b);
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node *x = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(x);
		if (md_math_kind(x)) {
			for (bufsize_t i = 0; i < x->content.size; i++)
				if (x->content.ptr[i] == MD_BSENT)
					x->content.ptr[i] = '\\';
			continue;
		}
		const char *v;
		struct str l;
		if (t == CMARK_NODE_TEXT) {
			l = md_literal(x);
			if (without_sentinels(&b, l.p, l.len))
				cmark_node_set_literal(x, b.p);
		} else if (t == CMARK_NODE_CODE || t == CMARK_NODE_CODE_BLOCK || t == CMARK_NODE_HTML_BLOCK ||
		           t == CMARK_NODE_HTML_INLINE) {
			l = md_literal(x);
			if (!memchr(l.p, MD_BSENT, l.len))
				continue;
			buf_reset(&b);
			md_unsentinel(&b, l.p, l.len);
			buf_putc(&b, 0);
			cmark_node_set_literal(x, b.p);
			/* escapes count in an info string */
			if (t == CMARK_NODE_CODE_BLOCK && (v = cmark_node_get_fence_info(x)) &&
			    without_sentinels(&b, v, strlen(v)))
				cmark_node_set_fence_info(x, b.p);
		} else if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
			if ((v = cmark_node_get_url(x)) && without_sentinels(&b, v, strlen(v)))
				cmark_node_set_url(x, b.p);
			if ((v = cmark_node_get_title(x)) && without_sentinels(&b, v, strlen(v)))
				cmark_node_set_title(x, b.p);
		}
	}
	cmark_iter_free(it);
	buf_fini(&b);
}

/* has_math_fence: whether text may hold a fence "```math" or "~~~ math":
 * one search for "math", then a look behind each (four searches for the
 * four forms cost 1% of a 10,000-post build). */
static int has_math_fence(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while ((p = memmem(p, (size_t)(end - p), "math", 4)) != NULL) {
		const char *q = p;
		if (q > text && q[-1] == ' ')
			q--;
		if (q - text >= 3 && (q[-1] == '`' || q[-1] == '~') && q[-2] == q[-1] && q[-3] == q[-1])
			return 1;
		p += 4;
	}
	return 0;
}

/* ---- display math ---- */

/* math_para: a paragraph holding the display formula tex[0..n), at line:col. */
static cmark_node *math_para(struct md_ctx *c, const char *tex, size_t n, int line, int col)
{
	cmark_node *p = cmark_node_new_with_mem(CMARK_NODE_PARAGRAPH, c->mem);
	cmark_node_append_child(p, md_math_new(c->mem, c->ext, 1, tex, n, line, col));
	p->start_line = p->end_line = line;
	p->start_column = col;
	return p;
}

/* after_blocks: the text after a block's closing $$, parsed on its own
 * (on its line of the body, for positions), its blocks put before n.
 * The block hooks are off meanwhile: the text is one line, whose "$$"s
 * are formulas of its paragraph. */
static void after_blocks(struct md_ctx *c, const struct md_mblock *b, cmark_node *n)
{
	int blocks = c->blocks;
	c->blocks = 0;
	cmark_parser *p = cmark_parser_new_with_mem(c->parse_options, c->mem);
	md_ext_attach(c, p, memchr(b->after, '@', b->after_len) || memmem(b->after, b->after_len, "&#", 2) ||
	                        memmem(b->after, b->after_len, "&commat;", 8));
	cmark_parser_feed(p, b->after, b->after_len);
	cmark_node *root = cmark_parser_finish(p), *k;
	/* its lines count from the block's closing line (not by feeding as
	 * many newlines first: a line of a thousand "$$a $$" would be
	 * quadratic) */
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		if (ev == CMARK_EVENT_ENTER) {
			cmark_node *x = cmark_iter_get_node(it);
			x->start_line += b->after_line - 1;
			x->end_line += b->after_line - 1;
		}
	cmark_iter_free(it);
	while ((k = cmark_node_first_child(root)) != NULL)
		cmark_node_insert_before(n, k);
	cmark_parser_free(p);
	c->blocks = blocks;
}

static int is_math_fence(cmark_node *n)
{
	const char *info = cmark_node_get_fence_info(n);
	int flen, foff;
	char fch;
	if (!info || !cmark_node_get_fenced(n, &flen, &foff, &fch))
		return 0;
	while (*info == ' ' || *info == '\t')
		info++;
	return strncmp(info, "math", 4) == 0 && (!info[4] || info[4] == ' ' || info[4] == '\t');
}

/* math_fences: each fenced code block "```math" made a display formula
 * (its TeX after a line break, as "$$" then a line would give); not the
 * display blocks the parser found, which are fenced code blocks of the
 * extension's until they are made formulas below. Blocks that hold no
 * code block (paragraphs, headings, tables) are not entered. */
static void math_fences(struct md_ctx *c)
{
	cmark_node **v = NULL;
	size_t n = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(c->root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *x = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node_type t = cmark_node_get_type(x);
		if (t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING || cmark_node_get_syntax_extension(x) == md_ext_table)
			cmark_iter_reset(it, x, CMARK_EVENT_EXIT);
		else if (t == CMARK_NODE_CODE_BLOCK && cmark_node_get_syntax_extension(x) != c->ext && is_math_fence(x)) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				v = xrealloc(v, cap * sizeof *v);
			}
			v[n++] = x;
		}
	}
	cmark_iter_free(it);
	for (size_t i = 0; i < n; i++) {
		struct str lit = md_literal(v[i]);
		char *tex = xmalloc(lit.len + 1);
		tex[0] = '\n';
		memcpy(tex + 1, lit.p, lit.len);
		cmark_node_insert_before(v[i], math_para(c, tex, lit.len + 1, cmark_node_get_start_line(v[i]),
		                                         cmark_node_get_start_column(v[i])));
		free(tex);
		cmark_node_free(v[i]);
	}
	free(v);
}

void md_pass_math_blocks(struct md_ctx *c)
{
	if (c->unclosed_line) {
		struct diag_loc loc = diag_src_at(&c->in, c->unclosed_line, c->unclosed_col);
		if (c->d)
			diag_error(c->d, &loc, c->unclosed_closer == '$' ? "display math: no closing $$ below this one"
			                                                : "display math: no closing \\] below this one");
		c->errors++;
	}
	if (c->o->math && c->len && has_math_fence(c->text, c->len))
		math_fences(c);
	for (size_t i = 0; i < c->nmblocks; i++) {
		const struct md_mblock *b = &c->mblocks[i];
		cmark_node *n = b->ref->node;
		if (!n)
			continue; /* freed with a footnote no one refers to */
		cmark_node_insert_before(n, math_para(c, b->tex, b->tex_len, b->line, b->col));
		if (b->after_len)
			after_blocks(c, b, n);
		if (b->raw_len) {
			cmark_node *h = cmark_node_new_with_mem(CMARK_NODE_HTML_BLOCK, c->mem);
			cmark_node_set_literal(h, b->raw);
			cmark_node_insert_before(n, h);
		}
		cmark_node_free(n);
	}
	if (c->nsent)
		unsentinel_tree(c->root);
}
