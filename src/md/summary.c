/* summary.c: a document's summary: the top-level blocks before its
 * <!--more--> marker, else its first paragraph with text; as text (cut to
 * SUMMARY_MAX code points) and as HTML. */
#include "internal.h"
#include "md/mdmem.h"

#include <stdlib.h>
#include <string.h>

#define SUMMARY_MAX    300 /* code points of summary_text, the "…" included */
/* bytes of text in a first paragraph past which summary_html is the cut
 * summary_text, not the paragraph's HTML (see summary) */
#define SUMMARY_HTML_MAX (64 * 1024)
#define SUMMARY_BACKUP 30  /* a cut backs up to a space at most this many code points */


/* code_points: how many UTF-8 sequences s[0..n) starts. */
static size_t code_points(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xC0) != 0x80;
	return k;
}

/* cut_summary: s (folded, valid UTF-8) cut to SUMMARY_MAX code points at
 * most: if longer, cut at the last space before the limit (unless that is
 * more than SUMMARY_BACKUP code points back, as in CJK text), never inside
 * a UTF-8 sequence, and "…" appended. Owned by the arena. */
static struct str cut_summary(struct arena *a, const char *s, size_t n)
{
	size_t cps = 0, i, lim = n;
	for (i = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xC0) == 0x80)
			continue;
		if (cps == SUMMARY_MAX - 1 && lim == n)
			lim = i; /* s[0..lim) holds SUMMARY_MAX - 1 code points */
		cps++;
	}
	if (cps <= SUMMARY_MAX)
		return (struct str){arena_strndup(a, s, n), n};
	size_t cut = lim;
	if (s[lim] != ' ') {
		size_t j = lim, back = 0;
		while (j > 0 && s[j - 1] != ' ' && back <= SUMMARY_BACKUP) {
			j--;
			back += ((unsigned char)s[j] & 0xC0) != 0x80;
		}
		if (j > 0 && s[j - 1] == ' ')
			cut = j - 1;
	}
	while (cut > 0 &&
	       (s[cut - 1] == ' ' || s[cut - 1] == ',' || s[cut - 1] == ';' || s[cut - 1] == ':'))
		cut--;
	char *p = arena_alloc(a, cut + sizeof "…");
	memcpy(p, s, cut);
	memcpy(p + cut, "…", sizeof "…");
	return (struct str){p, cut + sizeof "…" - 1};
}
/* summary: summary_html and summary_text from the top-level blocks before
 * the <!--more--> marker, else from the first paragraph that has text. Runs
 * after the body is rendered: it changes the tree, dropping footnote
 * references and citations' links (they point into the post's page) and the ids of headings
 * (a list page shows several summaries). */
void md_pass_summary(struct md_ctx *c)
{
	cmark_node *root = c->root, *more = c->more, *first_para = c->first_para;
	struct md_doc *out = c->out;
	cmark_node *from, *to; /* blocks [from, to) */
	if (more) {
		from = cmark_node_first_child(root);
		to = more;
	} else if (first_para && c->summary_len > SUMMARY_HTML_MAX) {
		/* A first paragraph of a whole book is no summary: its HTML is
		 * the cut text, not a second copy of the page (rendered again,
		 * and kept twice in the cache). */
		struct buf html;
		buf_init(&html);
		buf_puts(&html, "<p>");
		buf_put_html_text(&html, out->summary_text.p, out->summary_text.len);
		buf_puts(&html, "</p>\n");
		out->summary_html = (struct str){arena_strndup(c->a, html.p, html.len), html.len};
		buf_fini(&html);
		return;
	} else if (first_para) {
		from = first_para;
		to = cmark_node_next(first_para);
	} else {
		out->summary_html = out->summary_text = (struct str){"", 0};
		return;
	}
	cmark_node **drop = NULL;
	size_t ndrop = 0, cap = 0;
	for (cmark_node *b = from; b != to; b = cmark_node_next(b)) {
		cmark_iter *it = cmark_iter_new(b);
		cmark_event_type ev;
		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *n = cmark_iter_get_node(it);
			if (ev != CMARK_EVENT_ENTER)
				continue;
			if (cmark_node_get_type(n) == CMARK_NODE_HEADING)
				cmark_node_set_syntax_extension(n, NULL);
			if (cmark_node_get_type(n) == CMARK_NODE_FOOTNOTE_REFERENCE || md_is_citation(n)) {
				if (ndrop == cap) {
					cap = cap ? cap * 2 : 8;
					drop = xrealloc(drop, cap * sizeof *drop);
				}
				drop[ndrop++] = n;
			}
		}
		cmark_iter_free(it);
	}
	for (size_t i = 0; i < ndrop; i++) {
		/* a citation's link goes, its text stays (it points into the
		 * post's page, as a footnote's reference, which goes whole) */
		cmark_node *k;
		while (md_is_citation(drop[i]) && (k = cmark_node_first_child(drop[i])))
			cmark_node_insert_before(drop[i], k);
		cmark_node_free(drop[i]);
	}
	free(drop);

	struct buf html;
	buf_init(&html);
	for (cmark_node *b = from; b != to; b = cmark_node_next(b)) {
		char *h = cmark_render_html(b, c->options, NULL);
		buf_puts(&html, h);
		c->mem->free(h);
	}
	out->summary_html = (struct str){arena_strndup(c->a, html.p ? html.p : "", html.len), html.len};
	buf_fini(&html);
}

/* summary_text: the plain text of the summary's blocks, taken before the
 * block passes turn formulas into MathML (as text, a formula is its TeX). */
void md_pass_summary_text(struct md_ctx *c)
{
	cmark_node *root = c->root, *more = c->more, *first_para = c->first_para;
	struct md_doc *out = c->out;
	cmark_node *from = more ? cmark_node_first_child(root) : first_para;
	cmark_node *to = more ? more : first_para ? cmark_node_next(first_para) : NULL;
	struct buf text, folded;
	buf_init(&text);
	buf_init(&folded);
	/* the text's start is enough: whether it is longer than
	 * SUMMARY_HTML_MAX, and its first SUMMARY_MAX code points, unless
	 * folding spaces left fewer of them (then the whole text) */
	for (size_t max = SUMMARY_HTML_MAX;; max = SIZE_MAX) {
		buf_reset(&text);
		for (cmark_node *b = from; b && b != to && text.len <= max; b = cmark_node_next(b)) {
			md_plain_text_max(b, &text, max);
			buf_putc(&text, ' ');
		}
		md_fold_space(&folded, text.p ? text.p : "", text.len);
		if (text.len <= max || max == SIZE_MAX || code_points(folded.p, folded.len) > SUMMARY_MAX)
			break;
	}
	c->summary_len = text.len;
	out->summary_text = cut_summary(c->a, folded.p ? folded.p : "", folded.len);
	buf_fini(&text);
	buf_fini(&folded);
}


