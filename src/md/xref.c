/* xref.c: the cross-reference pass: the labels of a document's display
 * equations, figures, tables, listings and headings, numbered in document
 * order per kind, and the references to them (@eq:x, [@eq:a; @fig:b],
 * @SLUG#fig:x into another post, a link [](x.md#fig:x) with no text)
 * made placeholders. The numbers a reader sees depend on the series the
 * post is part of, and a reference into another post on that post: the
 * model fills both in once every document is rendered (md_xref_expand), so
 * a document rendered (or kept in the cache) once is right in every build.
 *
 * Ids that carry no cross-reference prefix (eq:, fig:, tbl:, lst:, sec:)
 * are not this pass's: "@vaswani2017" and "[@a; @b, p. 4]" are left as
 * they are, for the citation pass. The pass runs only when the body holds
 * '@', "{#" or "\label{" (a memchr and two memmem: cost). */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest bracket of references read, "[@eq:a; ...]", in bytes. */
#define XREF_BRACKET_MAX 4096

static const char *const PREFIX[MD_XREF_KINDS] = {"eq:", "fig:", "tbl:", "lst:", "sec:"};

int md_xref_kind_of(const char *name, size_t len, int *cap)
{
	if (cap)
		*cap = 0;
	for (int k = 0; k < MD_XREF_KINDS; k++) {
		size_t n = strlen(PREFIX[k]);
		if (len <= n || memcmp(name + 1, PREFIX[k] + 1, n - 1) != 0)
			continue;
		if (name[0] == PREFIX[k][0])
			return k;
		if (name[0] == PREFIX[k][0] - 'a' + 'A') {
			if (cap)
				*cap = 1;
			return k;
		}
	}
	return -1;
}

/* ---- placeholders ---- */

/* put_mark: the placeholder of label or reference i ('N' or 'R'). */
static void put_mark(struct buf *b, char what, size_t i)
{
	buf_printf(b, "%c%c%zu%c", MD_XREF_MARK, what, i, MD_XREF_MARK);
}

size_t md_xref_expand(struct buf *out, struct str s, int text, const struct md_xref_fill *f)
{
	size_t filled = 0, i = 0;
	while (i < s.len) {
		const char *m = memchr(s.p + i, MD_XREF_MARK, s.len - i);
		if (!m) {
			buf_append(out, s.p + i, s.len - i);
			break;
		}
		size_t at = (size_t)(m - s.p);
		buf_append(out, s.p + i, at - i);
		size_t j = at + 1, v = 0;
		char what = j < s.len ? s.p[j++] : 0;
		size_t digits = 0;
		while (j < s.len && s.p[j] >= '0' && s.p[j] <= '9' && digits < 18) {
			v = v * 10 + (size_t)(s.p[j++] - '0');
			digits++;
		}
		int whole = j < s.len && s.p[j] == MD_XREF_MARK && digits;
		if (whole && what == 'N' && v < f->nlabels) {
			f->number(f->ctx, out, v);
			filled++;
			i = j + 1;
		} else if (whole && what == 'R' && v < f->nxrefs) {
			f->ref(f->ctx, out, v, text);
			filled++;
			i = j + 1;
		} else if (j >= s.len && (what == 'N' || what == 'R' || !what)) {
			i = s.len; /* cut short at the end (a summary's cut): dropped */
		} else {
			buf_putc(out, *m); /* no placeholder: the byte as it was */
			i = at + 1;
		}
	}
	return filled;
}

/* ---- the document's labels ---- */

struct xstate {
	struct md_ctx *c;
	struct md_label *l;
	size_t nl, capl;
	struct md_xref *r;
	size_t nr, capr;
	struct map names; /* label name -> 1 + index */
	int refind; /* the outline's first paragraph became a figure or a caption, or went */
	cmark_node **dropped; /* paragraphs of an equation's label alone, out of the tree */
	size_t ndropped, capdropped;
	int count[MD_XREF_KINDS];
	struct buf tmp;
};

/* is_word: a byte of an id's word (letters, digits, '_'; any byte of a
 * multi-byte character). */
static int is_word(unsigned char b)
{
	return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b >= 0x80;
}

/* id_len: the length of the id at s[0..n): words joined by single '-',
 * '.', ':', '#' or '/' (so that a sentence's final '.' is not its). */
static size_t id_len(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		if (is_word((unsigned char)s[i]))
			i++;
		else if ((s[i] == '-' || s[i] == '.' || s[i] == ':' || s[i] == '#' || s[i] == '/') && i > 0 &&
		         i + 1 < n && is_word((unsigned char)s[i + 1]))
			i++;
		else
			break;
	}
	return i;
}

/* block_line: the start of the nearest block around n with a position. */
static void block_line(cmark_node *n, int *line, int *col)
{
	while (n && (!md_is_block(n) || cmark_node_get_start_line(n) <= 0))
		n = cmark_node_parent(n);
	*line = n ? cmark_node_get_start_line(n) : 1;
	*col = n ? cmark_node_get_start_column(n) : 1;
}

/* where: the place of needle in the file, searched from n's block. */
static void where(struct md_ctx *c, cmark_node *n, const char *needle, size_t len, int *line, int *col)
{
	char buf[300];
	block_line(n, line, col);
	if (len >= sizeof buf)
		len = sizeof buf - 1;
	memcpy(buf, needle, len);
	buf[len] = 0;
	md_find_in_source(c, buf, line, col);
}

static void err(struct md_ctx *c, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void err(struct md_ctx *c, int line, int col, const char *fmt, ...)
{
	if (c->d) {
		struct diag_loc loc = diag_src_at(&c->in, line, col);
		va_list ap;
		va_start(ap, fmt);
		diag_vreport(c->d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
		va_end(ap);
	}
	c->errors++;
}

/* add_label: label name (kind) defined at line:col for node n (figures'
 * images and listings' code blocks are looked up by blocks.c); its index,
 * or -1 for a duplicate (an error). */
static int add_label(struct xstate *x, struct str name, int kind, cmark_node *n, int line, int col)
{
	struct md_ctx *c = x->c;
	char *key = arena_strndup(c->a, name.p, name.len);
	int added;
	struct map_entry *e = map_put(&x->names, key, name.len, &added);
	if (!added) {
		err(c, line, col, "duplicate label '%s' (first defined on line %d)", key,
		    x->l[e->val.u - 1].line + c->in.line_offset);
		return -1;
	}
	if (x->nl == x->capl) {
		x->capl = x->capl ? x->capl * 2 : 16;
		x->l = xrealloc(x->l, x->capl * sizeof *x->l);
	}
	x->l[x->nl] = (struct md_label){{key, name.len}, kind, kind == MD_XREF_SEC ? 0 : ++x->count[kind], {NULL, 0},
	                                line, col};
	e->val.u = ++x->nl;
	if (n) {
		cmark_node **k = arena_alloc(c->a, sizeof *k);
		*k = n;
		map_put(&c->xnodes, (const char *)k, sizeof *k, NULL)->val.u = x->nl;
	}
	return (int)x->nl - 1;
}

int md_xref_node(const struct md_ctx *c, cmark_node *n)
{
	if (!c->xnodes.n)
		return -1;
	struct map_entry *e = map_find(&c->xnodes, &n, sizeof n);
	return e ? (int)e->val.u - 1 : -1;
}

/* word: the theme's word for kind k ("Figure"). */
static const char *word(const struct md_ctx *c, int k)
{
	static const char *const en[] = {"Eq.", "Figure", "Table", "Listing"};
	const char *w = c->o->labels[MD_LABEL_XREF_EQ + k];
	return w ? w : en[k];
}

void md_xref_caption(const struct md_ctx *c, struct buf *out, int label)
{
	const struct md_label *l = &c->out->labels[label];
	buf_puts(out, "<span class=\"xref-label\">");
	buf_put_html(out, word(c, l->kind), strlen(word(c, l->kind)));
	buf_putc(out, ' ');
	put_mark(out, 'N', (size_t)label);
	buf_puts(out, ":</span>");
}

/* attr_name: s[0..n) (spaces around it aside) is "{#NAME}": NAME; else
 * {NULL, 0}. *end: the bytes of s it takes, from its start. */
static struct str attr_name(const char *s, size_t n, size_t *end)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (n - i < 4 || s[i] != '{' || s[i + 1] != '#')
		return (struct str){NULL, 0};
	size_t k = id_len(s + i + 2, n - i - 2);
	if (!k || i + 2 + k >= n || s[i + 2 + k] != '}')
		return (struct str){NULL, 0};
	*end = i + 3 + k;
	return (struct str){s + i + 2, k};
}

/* only_space: s[0..n) is white space. */
static int only_space(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!md_is_space((unsigned char)s[i]))
			return 0;
	return 1;
}

/* set_text: n's literal made s[0..len) (copied). */
static void set_text(struct xstate *x, cmark_node *n, const char *s, size_t len)
{
	buf_reset(&x->tmp);
	buf_append(&x->tmp, s, len);
	buf_putc(&x->tmp, 0);
	cmark_node_set_literal(n, x->tmp.p);
}

static cmark_node *html_node(struct md_ctx *c, int block, const char *html)
{
	cmark_node *h = cmark_node_new_with_mem(block ? CMARK_NODE_HTML_BLOCK : CMARK_NODE_HTML_INLINE, c->mem);
	cmark_node_set_literal(h, html);
	return h;
}

/* wrong_kind: a label of another kind than the item's (an error), or one
 * with no prefix of ours (left as the text it is: 0). */
static int wrong_kind(struct xstate *x, struct str name, int want, cmark_node *n, const char *item)
{
	int k = md_xref_kind_of(name.p, name.len, NULL);
	if (k < 0)
		return 0;
	if (k == want)
		return 0;
	int line, col;
	char needle[300];
	int nl = snprintf(needle, sizeof needle, "{#%.*s}", (int)(name.len > 250 ? 250 : name.len), name.p);
	where(x->c, n, needle, (size_t)nl, &line, &col);
	err(x->c, line, col, "label '%.*s' on %s (hint: its label starts with %s)", STR_FMT(name), item, PREFIX[want]);
	return 1;
}

/* equation: display formula n, labelled by \label{eq:NAME} in it or
 * {#eq:NAME} after it (on its closing line: in its paragraph, or alone in
 * the next one), wrapped with its number. */
static void equation(struct xstate *x, cmark_node *n)
{
	struct md_ctx *c = x->c;
	struct str tex = md_tex(n), name = {NULL, 0};
	const char *lab = tex.len ? memmem(tex.p, tex.len, "\\label{", 7) : NULL;
	int line, col; /* the label's place: its \label's, else the formula's */
	md_math_where(n, &line, &col);
	cmark_node *drop = NULL, *para = cmark_node_parent(n);
	if (lab) {
		size_t at = (size_t)(lab - tex.p) + 7, k = id_len(tex.p + at, tex.len - at);
		if (k && at + k < tex.len && tex.p[at + k] == '}' &&
		    md_xref_kind_of(tex.p + at, k, NULL) == MD_XREF_EQ) {
			name = (struct str){arena_strndup(c->a, tex.p + at, k), k};
			md_math_place(c, n, (int)(lab - tex.p), &line, &col);
			/* TeX ignores spaces in math: \label{...} made them */
			memset(n->content.ptr + (lab - tex.p), ' ', k + 8);
		}
	}
	cmark_node *next = cmark_node_next(n);
	size_t end = 0;
	if (!name.p && next && cmark_node_get_type(next) == CMARK_NODE_TEXT) {
		struct str t = md_literal(next), nm = attr_name(t.p, t.len, &end);
		if (nm.p && !wrong_kind(x, nm, MD_XREF_EQ, n, "an equation") &&
		    md_xref_kind_of(nm.p, nm.len, NULL) == MD_XREF_EQ) {
			name = (struct str){arena_strndup(c->a, nm.p, nm.len), nm.len};
			set_text(x, next, t.p + end, t.len - end);
		}
	} else if (!name.p && !next && para && cmark_node_get_type(cmark_node_next(para)) == CMARK_NODE_PARAGRAPH) {
		cmark_node *p2 = cmark_node_next(para), *t = cmark_node_first_child(p2);
		if (t && t == cmark_node_last_child(p2) && cmark_node_get_type(t) == CMARK_NODE_TEXT) {
			struct str s = md_literal(t), nm = attr_name(s.p, s.len, &end);
			if (nm.p && only_space(s.p + end, s.len - end) && !wrong_kind(x, nm, MD_XREF_EQ, n, "an equation") &&
			    md_xref_kind_of(nm.p, nm.len, NULL) == MD_XREF_EQ) {
				name = (struct str){arena_strndup(c->a, nm.p, nm.len), nm.len};
				drop = p2;
			}
		}
	}
	if (!name.p)
		return;
	if (drop) {
		/* out of the tree now, freed after the labels: the walk's list
		 * still names it (a paragraph, for figure()) */
		x->refind |= drop == c->first_para;
		cmark_node_unlink(drop);
		if (x->ndropped == x->capdropped) {
			x->capdropped = x->capdropped ? x->capdropped * 2 : 8;
			x->dropped = xrealloc(x->dropped, x->capdropped * sizeof *x->dropped);
		}
		x->dropped[x->ndropped++] = drop;
	}
	int i = add_label(x, name, MD_XREF_EQ, NULL, line, col);
	if (i < 0)
		return;
	/* alone in its paragraph (white space aside): the paragraph is wrapped */
	int alone = 1;
	for (cmark_node *k = cmark_node_first_child(para); k && alone; k = cmark_node_next(k))
		if (k != n && !(cmark_node_get_type(k) == CMARK_NODE_SOFTBREAK ||
		                (cmark_node_get_type(k) == CMARK_NODE_TEXT && only_space(md_literal(k).p, md_literal(k).len))))
			alone = 0;
	buf_reset(&x->tmp);
	buf_printf(&x->tmp, alone ? "<div class=\"equation\" id=\"%s\">" : "<span class=\"equation\" id=\"%s\">", name.p);
	cmark_node_insert_before(alone ? para : n, html_node(c, alone, x->tmp.p));
	buf_reset(&x->tmp);
	buf_puts(&x->tmp, "<span class=\"equation-number\">(");
	put_mark(&x->tmp, 'N', (size_t)i);
	buf_puts(&x->tmp, alone ? ")</span></div>" : ")</span></span>");
	buf_putc(&x->tmp, 0);
	cmark_node_insert_after(alone ? para : n, html_node(c, alone, x->tmp.p));
}

/* figure: paragraph p holding an image and then "{#fig:NAME}" alone:
 * the label noted for blocks.c, which makes the figure. */
static void figure(struct xstate *x, cmark_node *p)
{
	cmark_node *img = cmark_node_first_child(p);
	while (img && cmark_node_get_type(img) == CMARK_NODE_TEXT && only_space(md_literal(img).p, md_literal(img).len))
		img = cmark_node_next(img);
	cmark_node *t = img ? cmark_node_next(img) : NULL;
	if (!img || cmark_node_get_type(img) != CMARK_NODE_IMAGE || !t || cmark_node_get_type(t) != CMARK_NODE_TEXT ||
	    cmark_node_next(t))
		return;
	struct str s = md_literal(t);
	size_t end = 0;
	struct str nm = attr_name(s.p, s.len, &end);
	if (!nm.p || !only_space(s.p + end, s.len - end) || wrong_kind(x, nm, MD_XREF_FIG, p, "a figure") ||
	    md_xref_kind_of(nm.p, nm.len, NULL) != MD_XREF_FIG)
		return;
	int line = cmark_node_get_start_line(p), col = cmark_node_get_start_column(p);
	x->refind |= p == x->c->first_para;
	add_label(x, nm, MD_XREF_FIG, img, line, col); /* nm is t's: before t goes */
	cmark_node_free(t);
}

/* caption_name: paragraph p is a table's caption, ": Caption {#tbl:NAME}"
 * (or "Table: ..."): its label's name, the ": " taken from its start and
 * the label from its end; else {NULL, 0}, p untouched. */
static struct str caption_name(struct xstate *x, cmark_node *p)
{
	struct str none = {NULL, 0};
	cmark_node *first = cmark_node_first_child(p), *last = cmark_node_last_child(p);
	if (!p || cmark_node_get_type(p) != CMARK_NODE_PARAGRAPH || !first ||
	    cmark_node_get_type(first) != CMARK_NODE_TEXT || cmark_node_get_type(last) != CMARK_NODE_TEXT)
		return none;
	struct str f = md_literal(first);
	size_t skip = f.len >= 2 && f.p[0] == ':' && (f.p[1] == ' ' || f.p[1] == '\t') ? 2
	              : f.len >= 7 && (!memcmp(f.p, "Table: ", 7) || !memcmp(f.p, "table: ", 7)) ? 7
	                                                                                       : 0;
	if (!skip)
		return none;
	struct str l = md_literal(last);
	size_t e = l.len;
	while (e && md_is_space((unsigned char)l.p[e - 1]))
		e--;
	if (!e || l.p[e - 1] != '}')
		return none;
	const char *open = NULL;
	for (size_t k = e; k-- > 0;)
		if (l.p[k] == '{') {
			open = l.p + k;
			break;
		}
	size_t end = 0;
	struct str nm = open ? attr_name(open, (size_t)(l.p + e - open), &end) : none;
	if (!nm.p || md_xref_kind_of(nm.p, nm.len, NULL) != MD_XREF_TBL)
		return none;
	nm = (struct str){arena_strndup(x->c->a, nm.p, nm.len), nm.len};
	size_t keep = (size_t)(open - l.p);
	while (keep && md_is_space((unsigned char)l.p[keep - 1]))
		keep--;
	set_text(x, last, l.p, keep);
	f = md_literal(first); /* first may be last, cut above */
	skip = skip < f.len ? skip : f.len;
	set_text(x, first, f.p + skip, f.len - skip);
	return nm;
}

/* table: table t with a caption paragraph right after (or before) it
 * labelled {#tbl:NAME}: a <figure> of the caption and the table. */
static void table(struct xstate *x, cmark_node *t)
{
	struct md_ctx *c = x->c;
	cmark_node *cap = cmark_node_next(t);
	struct str nm = cap ? caption_name(x, cap) : (struct str){NULL, 0};
	if (!nm.p && (cap = cmark_node_previous(t)) != NULL)
		nm = caption_name(x, cap);
	if (!nm.p)
		return;
	x->refind |= cap == c->first_para;
	int i = add_label(x, nm, MD_XREF_TBL, NULL, cmark_node_get_start_line(cap), cmark_node_get_start_column(cap));
	if (i < 0)
		return;
	buf_reset(&x->tmp);
	buf_printf(&x->tmp, "<figure class=\"table\" id=\"%s\">\n<figcaption>", nm.p);
	cmark_node_insert_before(t, html_node(c, 1, x->tmp.p));
	cmark_node_insert_before(t, cap); /* moved: the caption's paragraph */
	buf_reset(&x->tmp);
	buf_puts(&x->tmp, "<span class=\"xref-label\">");
	buf_put_html(&x->tmp, word(c, MD_XREF_TBL), strlen(word(c, MD_XREF_TBL)));
	buf_putc(&x->tmp, ' ');
	put_mark(&x->tmp, 'N', (size_t)i);
	buf_puts(&x->tmp, ":</span> ");
	buf_putc(&x->tmp, 0);
	cmark_node_prepend_child(cap, html_node(c, 0, x->tmp.p));
	cmark_node_insert_before(t, html_node(c, 1, "</figcaption>"));
	cmark_node_insert_after(t, html_node(c, 1, "</figure>"));
}

/* listing: a fenced code block whose options hold {#lst:NAME ...}: the
 * label noted for blocks.c (code_opts_parse checks the rest). */
static void listing(struct xstate *x, cmark_node *n)
{
	struct str info = str_from(cmark_node_get_fence_info(n));
	const char *b = info.len ? memchr(info.p, '{', info.len) : NULL;
	if (!b)
		return;
	size_t i = (size_t)(b - info.p) + 1;
	while (i < info.len && (info.p[i] == ' ' || info.p[i] == '\t'))
		i++;
	if (i >= info.len || info.p[i] != '#')
		return;
	size_t k = id_len(info.p + i + 1, info.len - i - 1);
	if (md_xref_kind_of(info.p + i + 1, k, NULL) != MD_XREF_LST)
		return; /* code_opts_parse says what is wrong */
	add_label(x, (struct str){info.p + i + 1, k}, MD_XREF_LST, n, cmark_node_get_start_line(n),
	          cmark_node_get_start_column(n));
}

/* heading: a heading whose id is "sec:NAME" (from {#sec:NAME}). */
static void heading(struct xstate *x, cmark_node *h)
{
	const char *id = cmark_node_get_user_data(h);
	if (!id || strncmp(id, "sec:", 4) != 0 || !id[4])
		return;
	int i = add_label(x, str_from(id), MD_XREF_SEC, NULL, cmark_node_get_start_line(h), cmark_node_get_start_column(h));
	if (i < 0)
		return;
	struct buf t, f;
	buf_init(&t);
	buf_init(&f);
	md_plain_text(h, &t);
	md_fold_space(&f, t.p ? t.p : "", t.len);
	x->l[i].text = (struct str){arena_strndup(x->c->a, f.p ? f.p : "", f.len), f.len};
	buf_fini(&t);
	buf_fini(&f);
}

/* ---- references ---- */

/* The parts of one reference "@[SLUG#]PREFIX:NAME" at s[0..n). */
struct ref {
	size_t len;         /* bytes of "@id" */
	struct str target;  /* SLUG, or empty */
	struct str name;
	int cap;
};

/* parse_ref: s[0] == '@': the cross-reference there; 0 when it is none of
 * ours (a citation key, an e-mail's tail, a word). */
static int parse_ref(const char *s, size_t n, struct ref *r)
{
	r->len = 0; /* no id: the caller steps over the '@' alone */
	if (n < 2 || !is_word((unsigned char)s[1]))
		return 0;
	size_t k = id_len(s + 1, n - 1);
	const char *id = s + 1, *hash = memchr(id, '#', k);
	r->len = k + 1;
	r->target = (struct str){id, hash ? (size_t)(hash - id) : 0};
	r->name = hash ? (struct str){hash + 1, k - (size_t)(hash - id) - 1} : (struct str){id, k};
	return md_xref_kind_of(r->name.p, r->name.len, &r->cap) >= 0;
}

/* escaped: the file has a backslash before the '@' found at line:col (a
 * text "\@" is "@" once parsed, and the autolink extension joins it to
 * the text around it). */
static int escaped(const struct md_ctx *c, int line, int col)
{
	size_t l = (size_t)(line + c->in.line_offset);
	if (!c->lines || l < 1 || l > c->nlines || col < 2)
		return 0;
	size_t off = c->lines[l - 1] + (size_t)col - 1;
	return off < c->in.src_len && c->in.src[off] == '@' && c->in.src[off - 1] == '\\';
}

/* add_ref: reference r at node n, its placeholder appended to out; -1 (an
 * error, said) for an unknown label of this document, -2 when the '@' was
 * escaped (no reference). */
static int add_ref(struct xstate *x, cmark_node *n, const char *at, const struct ref *r, struct buf *out)
{
	struct md_ctx *c = x->c;
	int line, col;
	where(c, n, at, r->len, &line, &col);
	if (at[0] == '@' && escaped(c, line, col))
		return -2;
	int label = -1;
	struct str name = r->name;
	char lower[300];
	if (r->cap && name.len < sizeof lower) { /* @Eq:x names eq:x */
		memcpy(lower, name.p, name.len);
		lower[0] = (char)(lower[0] - 'A' + 'a');
		name = (struct str){lower, name.len};
	}
	if (!r->target.len) {
		struct map_entry *e = map_find(&x->names, name.p, name.len);
		if (!e && c->d && diag_file_full(c->d, c->in.path)) {
			err(c, line, col, "unknown label"); /* counted, not shown: no search */
			return -1;
		}
		if (!e) {
			struct diag_guess g;
			diag_guess_init(&g, name.p, name.len);
			for (size_t i = 0; i < x->nl; i++)
				diag_guess_try(&g, x->l[i].name.p, x->l[i].name.len);
			size_t bl;
			const char *best = diag_guess_best(&g, &bl);
			if (best)
				err(c, line, col, "unknown label '%.*s' (did you mean '%.*s'?)", STR_FMT(name), (int)bl, best);
			else
				err(c, line, col, "unknown label '%.*s' (hint: no %s label in this post; another post's is @SLUG#%.*s)",
				    STR_FMT(name), PREFIX[md_xref_kind_of(name.p, name.len, NULL)], STR_FMT(name));
			return -1;
		}
		label = (int)e->val.u - 1;
	}
	if (x->nr == x->capr) {
		x->capr = x->capr ? x->capr * 2 : 16;
		x->r = xrealloc(x->r, x->capr * sizeof *x->r);
	}
	x->r[x->nr] = (struct md_xref){{r->target.len ? arena_strndup(c->a, r->target.p, r->target.len) : "", r->target.len},
	                               {arena_strndup(c->a, name.p, name.len), name.len},
	                               label, r->cap ? MD_XREF_CAP : 0, line, col};
	put_mark(out, 'R', x->nr++);
	return 0;
}

/* bracket: s[0] == '[' and "@" follows: when the bracket holds only
 * cross-references ("[@eq:a; @fig:b]"), their placeholders (", " between
 * them) appended to out and its length returned; 0 when it is not (a
 * citation's, or text); after an error (said), minus its length, or -1. */
static long bracket(struct xstate *x, cmark_node *n, const char *s, size_t len, struct buf *out)
{
	/* a list of references is short: no search of the whole text for
	 * its end at each "[@" (10,000 of them unclosed: quadratic) */
	const char *close = memchr(s, ']', len < XREF_BRACKET_MAX ? len : XREF_BRACKET_MAX);
	if (!close)
		return 0;
	size_t blen = (size_t)(close - s) + 1, i = 1;
	int mine = 0, theirs = 0;
	while (i < blen - 1) {
		while (i < blen - 1 && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
			i++;
		struct ref r;
		if (s[i] != '@')
			return 0;
		if (parse_ref(s + i, blen - 1 - i, &r))
			mine++;
		else if (r.len > 1 || is_word((unsigned char)s[i + 1]))
			theirs++;
		else
			return 0;
		i += r.len > 1 ? r.len : 1;
		if (i > blen - 1)
			i = blen - 1;
		const char *semi = memchr(s + i, ';', blen - 1 - i);
		if (mine && !semi) {
			while (i < blen - 1 && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
				i++;
			if (i < blen - 1)
				return 0; /* "[see @eq:a, p. 3]": no list of ours */
		}
		i = semi ? (size_t)(semi - s) + 1 : blen - 1;
	}
	if (!mine)
		return 0;
	if (theirs) {
		int line, col;
		where(x->c, n, s, blen, &line, &col);
		err(x->c, line, col,
		    "'%.*s' mixes cross-references and citations (hint: give each its own brackets: [@eq:a] [@smith2020])",
		    (int)(blen > 200 ? 200 : blen), s);
		return -(long)blen;
	}
	int first = 1;
	for (i = 1; i < blen - 1;) {
		while (i < blen - 1 && s[i] != '@')
			i++;
		if (i >= blen - 1)
			break;
		struct ref r;
		parse_ref(s + i, blen - 1 - i, &r);
		if (!first)
			buf_puts(out, ", ");
		first = 0;
		if (add_ref(x, n, s + i, &r, out) < 0)
			return -(long)blen;
		i += r.len;
		const char *semi = memchr(s + i, ';', blen - 1 - i);
		i = semi ? (size_t)(semi - s) + 1 : blen - 1;
	}
	return (long)blen;
}

/* text: the references in text node t made placeholders: the text before
 * each goes in a node of its own before t, the placeholder in raw HTML
 * after it; t keeps the rest. */
static void text(struct xstate *x, cmark_node *t)
{
	struct md_ctx *c = x->c;
	struct str lit = md_literal(t);
	/* t's literal changes below: a copy */
	char *s = xmalloc(lit.len + 1);
	memcpy(s, lit.p, lit.len);
	size_t len = lit.len, done = 0, i = 0;
	struct buf ph;
	buf_init(&ph);
	while (i < len) {
		const char *at = memchr(s + i, '@', len - i);
		if (!at)
			break;
		i = (size_t)(at - s);
		size_t from = i;
		long took = 0;
		buf_reset(&ph);
		/* "[@..." (spaces may follow the bracket) */
		size_t b = i;
		while (b > done && (s[b - 1] == ' ' || s[b - 1] == '\t'))
			b--;
		if (b > done && s[b - 1] == '[') {
			took = bracket(x, t, s + b - 1, len - b + 1, &ph);
			if (took > 0)
				from = b - 1;
		}
		struct ref r;
		int rc = 0;
		if (!took && (i == 0 || !is_word((unsigned char)s[i - 1])) && parse_ref(s + i, len - i, &r)) {
			rc = add_ref(x, t, s + i, &r, &ph);
			took = rc < 0 ? -1 : (long)r.len;
		}
		if (rc == -2) { /* "\@eq:x": the '@' in a text node of its own, as written */
			buf_puts(&ph, "@");
			took = 1;
		}
		if (took <= 0) {
			/* none of ours, or wrong (said): left as written; a
			 * bracket that was wrong is passed whole */
			i = took < -1 ? b - 1 + (size_t)-took : i + 1;
			continue;
		}
		if (from > done) {
			cmark_node *k = cmark_node_new_with_mem(CMARK_NODE_TEXT, c->mem);
			set_text(x, k, s + done, from - done);
			cmark_node_insert_before(t, k);
		}
		/* a text node: cmark's HTML escaping leaves a placeholder as it
		 * is, and the summary's plain text keeps it */
		cmark_node *k = cmark_node_new_with_mem(CMARK_NODE_TEXT, c->mem);
		set_text(x, k, ph.p, ph.len);
		cmark_node_insert_before(t, k);
		done = i = from + (size_t)took;
	}
	if (done)
		set_text(x, t, s + done, len - done);
	buf_fini(&ph);
	free(s);
}

/* join_texts: in container n, the runs of text nodes joined (cmark splits
 * text at '[', ']', ':', '{' ...): what a label or a reference is read
 * from is then one node. (With a '@' in the text the autolink extension
 * has joined them already, "\@" included: escaped() tells.) */
static void join_texts(struct xstate *x, cmark_node *n)
{
	for (cmark_node *k = cmark_node_first_child(n), *next; k; k = next) {
		next = cmark_node_next(k);
		if (cmark_node_get_type(k) != CMARK_NODE_TEXT || !next || cmark_node_get_type(next) != CMARK_NODE_TEXT)
			continue;
		buf_reset(&x->tmp);
		struct str l = md_literal(k);
		buf_append(&x->tmp, l.p, l.len);
		while (next && cmark_node_get_type(next) == CMARK_NODE_TEXT) {
			l = md_literal(next);
			buf_append(&x->tmp, l.p, l.len);
			cmark_node *gone = next;
			next = cmark_node_next(next);
			cmark_node_free(gone);
		}
		buf_putc(&x->tmp, 0);
		cmark_node_set_literal(k, x->tmp.p);
	}
}

/* inlines: the references in the text nodes of container n (which holds
 * a '@'). */
static void inlines(struct xstate *x, cmark_node *n)
{
	join_texts(x, n);
	for (cmark_node *k = cmark_node_first_child(n), *next; k; k = next) {
		next = cmark_node_next(k);
		if (cmark_node_get_type(k) == CMARK_NODE_TEXT && memchr(md_literal(k).p, '@', md_literal(k).len))
			text(x, k);
	}
}

/* md_link: link n, [](x.md#fig:a) or [@](x.md#fig:a), a reference to a
 * label of another post through its file: made a placeholder. */
static void md_link(struct xstate *x, cmark_node *n)
{
	const char *url = cmark_node_get_url(n);
	cmark_node *k = cmark_node_first_child(n);
	if (k && (k != cmark_node_last_child(n) || cmark_node_get_type(k) != CMARK_NODE_TEXT ||
	          md_literal(k).len != 1 || md_literal(k).p[0] != '@'))
		return;
	const char *hash = url ? strchr(url, '#') : NULL;
	const char *colon = url ? strchr(url, ':') : NULL;
	if (!hash || hash - url < 4 || memcmp(hash - 3, ".md", 3) != 0 || (colon && colon < hash) || url[0] == '/')
		return;
	struct ref r = {0, {url, (size_t)(hash - url)}, str_from(hash + 1), 0};
	if (md_xref_kind_of(r.name.p, r.name.len, &r.cap) < 0 || r.cap)
		return;
	struct buf ph;
	buf_init(&ph);
	char needle[300];
	int nl = snprintf(needle, sizeof needle, "](%s", url);
	r.len = (size_t)(nl < (int)sizeof needle ? nl : (int)sizeof needle - 1);
	add_ref(x, n, needle, &r, &ph);
	x->r[x->nr - 1].flags |= MD_XREF_BY_PATH;
	if (x->r[x->nr - 1].col > 1)
		x->r[x->nr - 1].col += 2; /* at the address, after "](" (as an image's) */
	cmark_node *t = cmark_node_new_with_mem(CMARK_NODE_TEXT, x->c->mem);
	set_text(x, t, ph.p ? ph.p : "", ph.len);
	cmark_node_insert_before(n, t);
	cmark_node_free(n);
	buf_fini(&ph);
}

/* refind_first_para: the summary's first paragraph with text found again
 * (headings.c found it before this pass), past labelled figures and
 * tables' captions, which are no prose. */
static void refind_first_para(struct xstate *x)
{
	struct md_ctx *c = x->c;
	c->first_para = NULL;
	struct buf t;
	buf_init(&t);
	for (cmark_node *n = cmark_node_first_child(c->root); n && n != c->more; n = cmark_node_next(n)) {
		if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH)
			continue;
		cmark_node *k = cmark_node_first_child(n);
		if (k && ((cmark_node_get_type(k) == CMARK_NODE_IMAGE && md_xref_node(c, k) >= 0) ||
		          (cmark_node_get_type(k) == CMARK_NODE_HTML_INLINE &&
		           !strncmp(md_literal(k).p, "<span class=\"xref-label\">", 25))))
			continue;
		buf_reset(&t);
		md_plain_text_max(n, &t, 4096);
		if (str_trim(buf_str(&t)).len) {
			c->first_para = n;
			break;
		}
	}
	buf_fini(&t);
}

/* ---- the pass ---- */

enum { C_MATH, C_PARA, C_TABLE, C_CODE, C_HEADING, C_TEXTS, C_LINK };

struct cand {
	cmark_node *n;
	int what;
};

/* texts_once: p, a node whose text holds a '@', is not a link's or an
 * image's (a link in a link is none) and was not seen before. */
static int texts_once(struct md_ctx *c, struct map *seen, cmark_node *p)
{
	for (cmark_node *q = p; q; q = cmark_node_parent(q))
		if (cmark_node_get_type(q) == CMARK_NODE_LINK || cmark_node_get_type(q) == CMARK_NODE_IMAGE)
			return 0;
	cmark_node **k = arena_alloc(c->a, sizeof *k);
	*k = p;
	int added;
	map_put(seen, (const char *)k, sizeof *k, &added);
	return added;
}

/* collect: the nodes the pass looks at, in document order (the tree is
 * changed only after the walk). */
static struct cand *collect(struct xstate *x, size_t *count)
{
	struct md_ctx *c = x->c;
	struct cand *v = NULL;
	size_t n = 0, cap = 0;
	cmark_iter *it = cmark_iter_new(c->root);
	cmark_event_type ev;
	struct map seen = MAP_INIT;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node *k = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(k);
		int what = -1;
		if (md_math_kind(k) == 2)
			what = C_MATH;
		else if (t == CMARK_NODE_PARAGRAPH) {
			/* its first child stays: the walk goes on there */
			join_texts(x, k);
			what = C_PARA;
		}
		else if (t == CMARK_NODE_CODE_BLOCK && k->as.code.fenced)
			what = C_CODE;
		else if (t == CMARK_NODE_HEADING)
			what = C_HEADING;
		else if (cmark_node_get_syntax_extension(k) == md_ext_table &&
		         !strcmp(cmark_node_get_type_string(k), "table"))
			what = C_TABLE;
		else if (t == CMARK_NODE_LINK && cmark_node_get_url(k) && strstr(cmark_node_get_url(k), ".md#"))
			what = C_LINK;
		else if (t == CMARK_NODE_TEXT && memchr(md_literal(k).p, '@', md_literal(k).len) &&
		         texts_once(c, &seen, cmark_node_parent(k))) {
			what = C_TEXTS;
			k = cmark_node_parent(k);
		}
		if (what < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			v = xrealloc(v, cap * sizeof *v);
		}
		v[n++] = (struct cand){k, what};
	}
	cmark_iter_free(it);
	map_fini(&seen);
	*count = n;
	return v;
}

void md_pass_xref(struct md_ctx *c)
{
	if (!(c->marks & (MD_MARK_AT | MD_MARK_BRACE_HASH | MD_MARK_LABEL)))
		return;
	struct xstate x;
	memset(&x, 0, sizeof x);
	x.c = c;
	x.names = (struct map)MAP_INIT;
	buf_init(&x.tmp);
	size_t n;
	struct cand *v = collect(&x, &n);
	/* the labels first (a reference may come before its label), in
	 * document order: their numbers */
	for (size_t i = 0; i < n; i++) {
		switch (v[i].what) {
		case C_MATH: equation(&x, v[i].n); break;
		case C_PARA: figure(&x, v[i].n); break;
		case C_TABLE: table(&x, v[i].n); break;
		case C_CODE: listing(&x, v[i].n); break;
		case C_HEADING: heading(&x, v[i].n); break;
		default: break;
		}
	}
	for (size_t i = 0; i < x.ndropped; i++)
		cmark_node_free(x.dropped[i]);
	free(x.dropped);
	if (x.refind)
		refind_first_para(&x);
	/* what blocks.c and the references read */
	c->out->labels = x.nl ? arena_alloc(c->a, x.nl * sizeof *x.l) : NULL;
	if (x.nl)
		memcpy(c->out->labels, x.l, x.nl * sizeof *x.l);
	c->out->nlabels = x.nl;
	for (size_t i = 0; i < n; i++) {
		if (v[i].what == C_TEXTS)
			inlines(&x, v[i].n);
		else if (v[i].what == C_LINK)
			md_link(&x, v[i].n);
	}
	if (x.nr) {
		c->out->xrefs = arena_alloc(c->a, x.nr * sizeof *x.r);
		memcpy(c->out->xrefs, x.r, x.nr * sizeof *x.r);
		c->out->nxrefs = x.nr;
	}
	free(v);
	free(x.l);
	free(x.r);
	map_fini(&x.names);
	buf_fini(&x.tmp);
}

void md_xref_free(struct md_ctx *c)
{
	map_fini(&c->xnodes);
}
