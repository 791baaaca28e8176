/* sidenote.c: the sidenotes pass (md_options.sidenotes): each footnote
 * whose text is one paragraph of phrasing content is written a second
 * time, as <span class="sidenote">, right after its first reference that
 * stands in a paragraph; the theme floats it into the margin on wide
 * screens and hides it on narrow ones, where the footnotes at the end are
 * shown. The footnotes section's items that have a sidenote get
 * class="sidenoted" (and the section too when all of them have one), so
 * that the theme shows one copy of each note at any width and a screen
 * reader reads it once.
 *
 * It runs on the HTML cmark rendered, with the tree still whole: a note is
 * rendered from its nodes (as cmark renders them), and a reference is
 * found in the HTML by its own rendering, from where the last one was
 * found (refs come in the HTML in the order of the tree: linear). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* One footnote definition at the end of the tree. */
struct note {
	cmark_node *def;
	int phrasing;   /* its text is one paragraph of phrasing content */
	int placed;     /* a sidenote was written after one of its references */
	struct str ref; /* the placed reference's HTML (cmark's, in the arena) */
	size_t at;      /* the offset in the HTML right after it */
	cmark_node *ref_node;
};

/* is_formula: n is the raw HTML blocks.c put in place of an inline
 * formula (its MathML, which has no id). */
static int is_formula(cmark_node *n)
{
	static const char f[] = "<span class=\"math inline";
	struct str h = md_literal(n);
	return h.len >= sizeof f - 1 && !memcmp(h.p, f, sizeof f - 1);
}

/* note_phrasing: def holds one paragraph and, inside it, nothing a
 * sidenote (a <span> in a paragraph) cannot hold or must not hold twice:
 * no footnote reference (its id would come twice, and a note in a note
 * has no place in the margin), no image (its picture and loading), no raw
 * HTML but formulas (it may open blocks or carry ids). */
static int note_phrasing(cmark_node *def)
{
	cmark_node *p = cmark_node_first_child(def);
	if (!p || cmark_node_next(p) || cmark_node_get_type(p) != CMARK_NODE_PARAGRAPH)
		return 0;
	cmark_iter *it = cmark_iter_new(p);
	cmark_event_type ev;
	int ok = 1;
	while (ok && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (ev == CMARK_EVENT_ENTER && n != p &&
		    (md_is_block(n) || t == CMARK_NODE_FOOTNOTE_REFERENCE || t == CMARK_NODE_IMAGE ||
		     (t == CMARK_NODE_HTML_INLINE && !is_formula(n))))
			ok = 0;
	}
	cmark_iter_free(it);
	return ok;
}

/* ref_in_paragraph: the reference n stands in a paragraph's text, not in
 * a link (a sidenote's links cannot nest in one), a heading or a table
 * cell (no paragraph there). */
static int ref_in_paragraph(cmark_node *n)
{
	cmark_node *p = cmark_node_parent(n);
	while (p && !md_is_block(p)) {
		if (cmark_node_get_type(p) == CMARK_NODE_LINK)
			return 0;
		p = cmark_node_parent(p);
	}
	return p && cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH;
}

static int cmp_note(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)((const struct note *)x)->def, b = (uintptr_t)((const struct note *)y)->def;
	return a < b ? -1 : a > b;
}

/* render_node: cmark's HTML of n alone, into out. */
static void render_node(struct md_ctx *c, cmark_node *n, struct buf *out)
{
	char *h = cmark_render_html(n, c->options, NULL);
	buf_puts(out, h);
	c->mem->free(h);
}

/* place_refs: the first reference in a paragraph of each note that can
 * be a sidenote, found in html from *from on (the notes by pointer in
 * byp[0..n)); returns how many were placed. */
static size_t place_refs(struct md_ctx *c, struct str html, struct note *byp, size_t n, cmark_node *first_def)
{
	size_t from = 0, placed = 0;
	struct buf b;
	buf_init(&b);
	for (cmark_node *top = cmark_node_first_child(c->root); top && top != first_def; top = cmark_node_next(top)) {
		cmark_iter *it = cmark_iter_new(top);
		cmark_event_type ev;
		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *r = cmark_iter_get_node(it);
			if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(r) != CMARK_NODE_FOOTNOTE_REFERENCE)
				continue;
			struct note key = {.def = r->parent_footnote_def};
			struct note *nt = key.def ? bsearch(&key, byp, n, sizeof *byp, cmp_note) : NULL;
			if (!nt || !nt->phrasing || nt->placed || !ref_in_paragraph(r))
				continue;
			buf_reset(&b);
			render_node(c, r, &b);
			const char *at = b.len ? memmem(html.p + from, html.len - from, b.p, b.len) : NULL;
			if (!at)
				continue;
			nt->placed = 1;
			nt->ref = (struct str){arena_strndup(c->a, b.p, b.len), b.len};
			nt->ref_node = r;
			nt->at = from = (size_t)(at - html.p) + b.len;
			placed++;
		}
		cmark_iter_free(it);
	}
	buf_fini(&b);
	return placed;
}

/* put_sidenote: the sidenote of nt, into out: its number (the reference's,
 * for the eye: a screen reader has just read it) and its paragraph's
 * content. */
static void put_sidenote(struct md_ctx *c, const struct note *nt, struct buf *out)
{
	buf_puts(out, "<span class=\"sidenote\"><span class=\"sidenote-number\" aria-hidden=\"true\">");
	struct str num = md_literal(nt->ref_node);
	buf_put_html(out, num.p, num.len);
	buf_puts(out, "</span> ");
	cmark_node *p = cmark_node_first_child(nt->def);
	for (cmark_node *k = cmark_node_first_child(p); k; k = cmark_node_next(k))
		render_node(c, k, out);
	buf_puts(out, "</span>");
}

/* An insertion into the HTML at an offset: a sidenote, a text, or an
 * item's value="N". */
struct insert {
	size_t at;
	const struct note *note;
	const char *text;
	size_t value;
};

/* mark_items: the insertions that mark the footnotes section's items
 * (notes[0..n), in the order of the tree, which is the section's): a
 * placed note's gets class="sidenoted" (the theme hides it where the
 * sidenote shows), each later one its number as value="N" (the list
 * still counts right with items hidden), and the section class
 * "sidenoted" when every note is placed; appended to ins at *nins. The
 * items are taken in order; one that is not where it should be (raw HTML
 * that spells an item's id) stops the marking. */
static void mark_items(struct str html, size_t from, const struct note *notes, size_t n, size_t placed,
                       struct insert *ins, size_t *nins)
{
	static const char sec[] = "<section class=\"footnotes", item[] = "<li id=\"";
	const char *s = memmem(html.p + from, html.len - from, sec, sizeof sec - 1);
	if (!s)
		return;
	from = (size_t)(s - html.p) + sizeof sec - 1;
	if (placed == n)
		ins[(*nins)++] = (struct insert){from, NULL, " sidenoted", 0};
	int after = 0; /* an item was hidden before this one */
	for (size_t i = 0; i < n; i++) {
		const char *li = memmem(html.p + from, html.len - from, item, sizeof item - 1);
		if (!li)
			return;
		from = (size_t)(li - html.p) + 3; /* after "<li" */
		if (notes[i].placed) {
			/* the item's id is the reference's href without its '#' */
			const char *h = memmem(notes[i].ref.p, notes[i].ref.len, "href=\"#", 7);
			const char *q = h ? memchr(h + 7, '"', notes[i].ref.len - (size_t)(h + 7 - notes[i].ref.p)) : NULL;
			size_t idl = q ? (size_t)(q - h - 7) : 0;
			if (!q || (size_t)(html.p + html.len - li) < sizeof item - 1 + idl + 1 ||
			    memcmp(li + sizeof item - 1, h + 7, idl) || li[sizeof item - 1 + idl] != '"')
				return;
			ins[(*nins)++] = (struct insert){from, NULL, " class=\"sidenoted\"", 0};
			after = 1;
		} else if (after) {
			ins[(*nins)++] = (struct insert){from, NULL, NULL, i + 1};
		}
	}
}

void md_pass_sidenotes(struct md_ctx *c)
{
	if (!c->o->sidenotes || !(c->parse_options & CMARK_OPT_FOOTNOTES) || !c->root)
		return;
	/* cmark puts the definitions that are referred to at the end of the
	 * document, in the order of their first references */
	cmark_node *first_def = NULL;
	size_t n = 0;
	for (cmark_node *k = cmark_node_last_child(c->root);
	     k && cmark_node_get_type(k) == CMARK_NODE_FOOTNOTE_DEFINITION; k = cmark_node_previous(k)) {
		first_def = k;
		n++;
	}
	if (!n)
		return;
	struct note *notes = xcalloc(n, sizeof *notes), *byp = xcalloc(n, sizeof *byp);
	size_t i = 0;
	for (cmark_node *k = first_def; k; k = cmark_node_next(k), i++)
		notes[i] = (struct note){.def = k, .phrasing = note_phrasing(k)};
	memcpy(byp, notes, n * sizeof *notes);
	qsort(byp, n, sizeof *byp, cmp_note);
	struct str html = c->out->html;
	size_t placed = place_refs(c, html, byp, n, first_def);
	if (placed) {
		/* back in the order of the tree, which the HTML keeps */
		for (i = 0; i < n; i++)
			notes[i] = *(struct note *)bsearch(&notes[i], byp, n, sizeof *byp, cmp_note);
		struct insert *ins = xcalloc(2 * n + 1, sizeof *ins);
		size_t nins = 0, last = 0;
		for (i = 0; i < n; i++)
			if (notes[i].placed) {
				ins[nins++] = (struct insert){notes[i].at, &notes[i], NULL, 0};
				last = notes[i].at;
			}
		mark_items(html, last, notes, n, placed, ins, &nins);
		struct buf out;
		buf_init(&out);
		buf_reserve(&out, html.len + html.len / 4);
		size_t from = 0;
		for (size_t k = 0; k < nins; k++) {
			buf_append(&out, html.p + from, ins[k].at - from);
			if (ins[k].note)
				put_sidenote(c, ins[k].note, &out);
			else if (ins[k].text)
				buf_puts(&out, ins[k].text);
			else
				buf_printf(&out, " value=\"%zu\"", ins[k].value);
			from = ins[k].at;
		}
		buf_append(&out, html.p + from, html.len - from);
		c->out->html = (struct str){arena_strndup(c->a, out.p, out.len), out.len};
		c->out->img_at = md_image_at(c->out->html);
		c->out->sidenotes = placed;
		buf_fini(&out);
		free(ins);
	}
	free(notes);
	free(byp);
}
