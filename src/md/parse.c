/* parse.c: the parse pass: cmark-gfm parses the body into a tree, with
 * folio's extension (ext.c, its block hooks in blockext.c) and cmark-gfm's
 * own; and directive_scan, the directives of a text as that parse finds
 * them. */
#include "internal.h"
#include "md/mdmem.h"
#include "base/slug.h"

#include <stdlib.h>
#include <string.h>

/* parse_once: one parse of c->text into c->root, what the block hooks
 * find in c (the records of an earlier parse dropped). A parser of its
 * own per document: nothing is shared but cmark-gfm's extensions, which
 * are read-only after md_init. Not tagfilter: raw HTML passes through. */
static void parse_once(struct md_ctx *c)
{
	if (c->parser) { /* an earlier parse, redone (see md_pass_parse) */
		cmark_node_free(c->root);
		cmark_parser_free(c->parser);
	}
	c->ndlines = c->nmblocks = 0;
	c->html_ended = 0;
	buf_reset(&c->raw);
	c->open_at_end = (struct dblock){DBLOCK_NONE, 0};
	memset(&c->seen, 0, sizeof c->seen);
	c->parser = cmark_parser_new_with_mem(c->parse_options, c->mem);
	/* whether the text may hold an e-mail address (see ext.c) */
	md_ext_attach(c, c->parser, (c->marks & (MD_MARK_AT | MD_MARK_AMP_HASH | MD_MARK_COMMAT)) != 0);
	if (c->blocks)
		md_block_wrap(c);
	if (c->len)
		cmark_parser_feed(c->parser, c->text, c->len);
	/* the last line parsed now, as the parser would at its finish, to see
	 * which block is open at the end */
	if (c->len && c->text[c->len - 1] != '\n' && c->text[c->len - 1] != '\r')
		cmark_parser_feed(c->parser, "\n", 1);
	if (c->blocks)
		md_block_at_end(c);
	md_fence_at_end(c);
	c->root = cmark_parser_finish(c->parser);
	md_block_unwrap(c);
}

/* first_unclosed: the first display block of the parse whose closer never
 * came (its container, or the text, ended first), or NULL. */
static const struct md_mblock *first_unclosed(const struct md_ctx *c)
{
	for (size_t i = 0; i < c->nmblocks; i++)
		if (!c->mblocks[i].closed)
			return &c->mblocks[i];
	return NULL;
}

/* directives_fail: the parse's directive lines do not pair (an error): kept
 * for the directives pass to report, and the text parsed again without
 * directives, as it was before folio knew of them (their lines text). */
static void directives_fail(struct md_ctx *c)
{
	free(c->failed_dlines);
	c->failed_dlines = xmalloc((c->ndlines + 1) * sizeof *c->failed_dlines);
	memcpy(c->failed_dlines, c->dlines, c->ndlines * sizeof *c->dlines);
	c->nfailed_dlines = c->ndlines;
	c->failed_open = c->open_at_end;
	c->dirs_failed = 1;
	c->dirs_on = 0;
	c->blocks = c->math_on;
}

/* Every footnote, its definition as its references, opens with a '['
 * that the text has as itself (a bracket made by an escape or an entity
 * opens nothing). Without one, the parse is made without footnotes: the
 * tree is the same, less cmark_parser_finish's two walks of it that
 * number the references (1 MiB of emphasis: 8% of its build). The HTML is
 * rendered with the options as they are.
 *
 * What the block hooks found can send the parse round again (only for a
 * document with an error, each at most once or twice): display math whose
 * closer never comes is an error and stays the text it was, so the parse
 * is redone with display math opening only above it, as if it were not
 * there; and directive lines that do not pair are errors, so the parse is
 * redone without directives. */
void md_pass_parse(struct md_ctx *c)
{
	const struct md_options *o = c->o;
	c->options = CMARK_OPT_FOOTNOTES | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES;
	/* cmark-gfm's check of each line, only for a text that needs it (it
	 * changes nothing in valid UTF-8) */
	if (utf8_valid_prefix(c->text, c->len) != c->len)
		c->options |= CMARK_OPT_VALIDATE_UTF8;
	if (o->unsafe)
		c->options |= CMARK_OPT_UNSAFE;
	if (o->smart)
		c->options |= CMARK_OPT_SMART;
	c->parse_options = c->options;
	if (!(c->marks & MD_MARK_BRACKET))
		c->parse_options &= ~CMARK_OPT_FOOTNOTES;
	c->dirs_on = (c->marks & MD_MARK_FENCE) != 0; /* a directive may open there */
	c->math_on = o->math && c->len &&
	             ((!o->no_dollars && (c->marks & MD_MARK_DOLLARS)) ||
	              (c->nsent && memmem(c->text, c->len, "\x02[", 2)));
	c->blocks = c->dirs_on || c->math_on;
	c->ext = md_ext_new(c);
	for (;;) {
		parse_once(c);
		const struct md_mblock *b = first_unclosed(c);
		if (b && (!c->math_stop || b->line < c->math_stop)) {
			c->math_stop = b->line;
			c->unclosed_line = b->line;
			c->unclosed_col = b->col;
			c->unclosed_closer = b->closer;
			continue;
		}
		if (c->dirs_on) {
			c->ndirs = directive_pair(c->a, NULL, &c->in, c->dlines, c->ndlines, &c->open_at_end, &c->dirs);
			if (c->ndirs < 0) {
				directives_fail(c);
				continue;
			}
		}
		break;
	}
	if (c->fence_line && c->d) {
		struct diag_loc loc = diag_src_at(&c->in, c->fence_line, c->fence_col);
		int n = c->fence_len < 3 ? 3 : c->fence_len > 20 ? 20 : c->fence_len;
		diag_warning(c->d, &loc,
		             "code block never closed: everything after its fence is code (hint: end it with a line "
		             "'%.*s')",
		             n, c->fence_char == '~' ? "~~~~~~~~~~~~~~~~~~~~" : "````````````````````");
	}
}

void md_parse_free(struct md_ctx *c)
{
	/* the tree is not freed node by node: every node and buffer of it
	 * came from this document's mdmem, which mdmem_end releases at once
	 * (a walk of the whole tree, 50 ms for 1 MiB of table rows) */
	if (c->parser)
		cmark_parser_free(c->parser);
	c->parser = NULL;
	if (c->ext)
		md_ext_free(c->ext);
	c->ext = NULL;
	free(c->dlines);
	free(c->dnodes);
	free(c->failed_dlines);
	free(c->mblocks);
	free(c->tagged);
	buf_fini(&c->tex);
	buf_fini(&c->raw);
	buf_fini(&c->senttext);
}

long directive_scan(struct arena *a, struct diag *d, const char *path, const char *src, size_t src_len,
                    const char *text, size_t len, int line_offset, struct directive **out)
{
	md_init();
	struct md_options o = {.unsafe = 1};
	struct md_doc doc;
	memset(&doc, 0, sizeof doc);
	struct md_ctx c = {.a = a, .in = {path, src, src_len, line_offset}, .o = &o, .out = &doc, .text = text,
	                   .len = len, .marks = md_marks(text, len)};
	c.mem = mdmem_begin();
	md_pass_parse(&c);
	long n = c.dirs_failed ? directive_pair(a, d, &c.in, c.failed_dlines, c.nfailed_dlines, &c.failed_open, out)
	                       : c.dirs_on ? (long)c.ndirs : 0;
	if (!c.dirs_failed)
		*out = c.dirs_on ? c.dirs : NULL;
	md_parse_free(&c);
	mdmem_end();
	return n;
}
