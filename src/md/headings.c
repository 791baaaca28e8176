/* headings.c: the outline of a document (its headings, the <!--more-->
 * marker, the first paragraph with text), the headings' ids ({#id} or a
 * GitHub-style slug, made unique) and the table of contents. */
#include "internal.h"

#include <string.h>
#include <strings.h>

#include <utf8proc.h>

void md_slugify(struct buf *b, struct str text)
{
	const utf8proc_uint8_t *u = (const utf8proc_uint8_t *)text.p;
	size_t start = b->len, i = 0;
	int word = 0; /* the slug has a letter, digit or '_' */
	while (i < text.len) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate(u + i, (utf8proc_ssize_t)(text.len - i), &cp);
		if (k < 1) {
			i++; /* not UTF-8: dropped */
			continue;
		}
		i += (size_t)k;
		if (cp == ' ' || cp == '-') {
			buf_putc(b, '-');
			continue;
		}
		utf8proc_category_t cat = utf8proc_category(cp);
		/* GitHub keeps letters, marks, numbers and connector punctuation
		 * ('_' and its kin) */
		if ((cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_NO) ||
		    cat == UTF8PROC_CATEGORY_PC) {
			utf8proc_uint8_t enc[4];
			utf8proc_ssize_t m = utf8proc_encode_char(utf8proc_tolower(cp), enc);
			buf_append(b, enc, (size_t)m);
			word = 1;
		}
	}
	if (!word) {
		b->len = start;
		buf_puts(b, "section");
	}
}

struct md_heading {
	cmark_node *node;
	int level;
	struct str custom; /* the {#id} given, or {NULL, 0} */
	struct str base;   /* else the slug of its text, before unique_id */
	struct str id, text, html;
};

/* The ids of one document's headings, as github-slugger keeps them, with
 * its counters: an entry per id taken as it is (a custom id, or the first
 * heading of a slug) and per slug asked for again, which counts how often
 * (see unique_id). The numbered ids unique_id makes ("intro-1") get no
 * entry: "B-N" is taken once B's counter reaches N. So 262,144 headings "#
 * a" make one entry, not a map of 262,144 ids that each new one is looked
 * up in (a cache miss each: a tenth of such a build). Keys are the
 * arena's; each entry's value indexes its struct idinfo. */
struct idinfo {
	uint32_t first;    /* 1 + the index of the heading that took it as it is; 0: none */
	uint32_t count;    /* times asked for as a slug again */
	uint32_t numbered; /* an id "KEY-N" (N a number) was taken as it is */
};

struct idmap {
	struct map m;
	struct idinfo *info; /* malloc'd, by entry */
	size_t cap;
};

/* idmap_get: the information of key, or NULL. */
static struct idinfo *idmap_get(const struct idmap *ids, const char *key, size_t len)
{
	const struct map_entry *e = map_find(&ids->m, key, len);
	return e ? &ids->info[e->val.u] : NULL;
}

/* idmap_add: the information of key, made if need be (key must outlive
 * the map); a later add may move it. */
static struct idinfo *idmap_add(struct idmap *ids, const char *key, size_t len)
{
	int added;
	struct map_entry *e = map_put(&ids->m, key, len, &added);
	if (added) {
		if (ids->m.n > ids->cap) {
			ids->cap = ids->cap ? ids->cap * 2 : 64;
			ids->info = xrealloc(ids->info, ids->cap * sizeof *ids->info);
		}
		e->val.u = ids->m.n - 1;
		ids->info[e->val.u] = (struct idinfo){0, 0, 0};
	}
	return &ids->info[e->val.u];
}


/* numbered: key is "B-N", N a number as unique_id writes them (no leading
 * zero, 1 to 2^32-1): B's length in *blen, N in *num. */
static int numbered(const char *key, size_t len, size_t *blen, uint32_t *num)
{
	size_t d = len;
	while (d > 0 && key[d - 1] >= '0' && key[d - 1] <= '9')
		d--;
	if (d == len || d < 1 || key[d - 1] != '-' || key[d] == '0' || len - d > 10)
		return 0;
	uint64_t v = 0;
	for (size_t i = d; i < len; i++)
		v = v * 10 + (uint64_t)(key[i] - '0');
	if (v > UINT32_MAX)
		return 0;
	*blen = d - 1;
	*num = (uint32_t)v;
	return 1;
}

/* id_taken: key is an id of the document already. */
static int id_taken(const struct idmap *m, const char *key, size_t len)
{
	const struct idinfo *s = idmap_get(m, key, len);
	if (s && s->first)
		return 1;
	size_t blen;
	uint32_t num;
	if (!numbered(key, len, &blen, &num))
		return 0;
	s = idmap_get(m, key, blen);
	return s && s->count >= num;
}

/* id_take: heading index takes key as it is. */
static void id_take(struct idmap *m, const char *key, size_t len, size_t index)
{
	size_t blen;
	uint32_t num;
	if (numbered(key, len, &blen, &num))
		idmap_add(m, key, blen)->numbered = 1;
	idmap_add(m, key, len)->first = (uint32_t)index + 1;
}

/* line_starts: indexes the lines of the text as cmark counts them (\n,
 * \r\n or \r end a line). Once per document, and only for an error. */
static void line_starts(struct md_ctx *c)
{
	if (c->text_lines)
		return;
	size_t cap = 64;
	c->text_lines = xmalloc(cap * sizeof *c->text_lines);
	c->text_lines[c->ntext_lines++] = 0;
	for (size_t i = 0; i < c->len; i++) {
		if (c->text[i] == '\r' && i + 1 < c->len && c->text[i + 1] == '\n')
			continue;
		if (c->text[i] != '\n' && c->text[i] != '\r')
			continue;
		if (c->ntext_lines == cap) {
			cap *= 2;
			c->text_lines = xrealloc(c->text_lines, cap * sizeof *c->text_lines);
		}
		c->text_lines[c->ntext_lines++] = i + 1;
	}
}

/* locate_custom_id: the position (in text) of "{#id}" in heading h's lines,
 * the last one: it is the trailing one. Falls back on the heading's start. */
static void locate_custom_id(struct md_ctx *r, cmark_node *h, struct str id, int *line, int *col)
{
	int first = cmark_node_get_start_line(h), last = cmark_node_get_end_line(h);
	*line = first;
	*col = cmark_node_get_start_column(h);
	line_starts(r);
	for (int l = last; l >= first && l >= 1; l--) {
		if ((size_t)l > r->ntext_lines)
			continue;
		size_t s = r->text_lines[l - 1];
		size_t e = (size_t)l < r->ntext_lines ? r->text_lines[l] : r->len;
		for (size_t k = e; k-- > s;) {
			if (r->text[k] == '{' && k + 3 + id.len <= e && r->text[k + 1] == '#' &&
			    memcmp(r->text + k + 2, id.p, id.len) == 0 &&
			    r->text[k + 2 + id.len] == '}') {
				*line = l;
				*col = (int)(k - s) + 1;
				return;
			}
		}
	}
}

/* take_custom_id: if heading h ends with "{#id}" (id: no space, no brace),
 * removes it (and the space before) from the heading and returns the id,
 * owned by the arena; else {NULL, 0}. */
static struct str take_custom_id(struct arena *a, cmark_node *h)
{
	struct str none = {NULL, 0};
	cmark_node *last = cmark_node_last_child(h);
	if (!last || cmark_node_get_type(last) != CMARK_NODE_TEXT)
		return none;
	struct str text = md_literal(last);
	const char *lit = text.p;
	size_t n = text.len;
	while (n && md_is_space((unsigned char)lit[n - 1]))
		n--;
	if (n < 4 || lit[n - 1] != '}')
		return none;
	size_t k = n - 1;
	while (k > 0 && lit[k - 1] != '{' && lit[k - 1] != '}' &&
	       !md_is_space((unsigned char)lit[k - 1]))
		k--;
	/* lit[k..n-1) is the candidate "#id" */
	if (k == 0 || lit[k - 1] != '{' || lit[k] != '#' || n - 1 - k < 2)
		return none;
	struct str id = {arena_strndup(a, lit + k + 1, n - 2 - k), n - 2 - k};
	size_t keep = k - 1;
	while (keep && md_is_space((unsigned char)lit[keep - 1]))
		keep--;
	if (keep) {
		char *rest = xstrndup(lit, keep);
		cmark_node_set_literal(last, rest);
		free(rest);
	} else {
		cmark_node_free(last); /* unlinks it */
		/* a line break left at the end of a setext heading goes too */
		while ((last = cmark_node_last_child(h)) &&
		       (cmark_node_get_type(last) == CMARK_NODE_SOFTBREAK ||
		        cmark_node_get_type(last) == CMARK_NODE_LINEBREAK))
			cmark_node_free(last);
	}
	return id;
}

/* toc_html: the inline HTML of heading h's content for the table of
 * contents: like the body's, but links give only their text (a TOC entry is
 * a link itself, and links do not nest), and images and footnote references
 * are left out. Formulas are typeset as in the body (MathML), or their TeX
 * if they cannot be. */
static void toc_html(const struct md_options *o, cmark_node *h, struct buf *b)
{
	struct buf ms, merr;
	buf_init(&ms);
	buf_init(&merr);
	cmark_iter *it = cmark_iter_new(h);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		int enter = ev == CMARK_EVENT_ENTER;
		if (n == h)
			continue;
		if (md_math_kind(n)) {
			if (enter) {
				struct str tex = md_tex(n);
				int display = md_math_kind(n) == 2, pos = -1;
				buf_puts(b, display ? "<span class=\"math display\">" : "<span class=\"math inline\">");
				/* typeset as in the body (where an error is reported) */
				buf_reset(&ms);
				if (o->typeset && o->typeset(o->typeset_ctx, tex.p, tex.len, display, &ms, &merr, &pos) == 0)
					buf_append(b, ms.p ? ms.p : "", ms.len);
				else
					buf_put_html_text(b, tex.p, tex.len);
				buf_puts(b, "</span>");
			}
			continue;
		}
		if (cmark_node_get_syntax_extension(n) == md_ext_strike) {
			buf_puts(b, enter ? "<del>" : "</del>");
			continue;
		}
		struct str lit;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
			lit = md_literal(n);
			buf_put_html_text(b, lit.p, lit.len);
			break;
		case CMARK_NODE_CODE:
			lit = md_literal(n);
			buf_puts(b, "<code>");
			buf_put_html_text(b, lit.p, lit.len);
			buf_puts(b, "</code>");
			break;
		case CMARK_NODE_HTML_INLINE:
			lit = md_literal(n);
			buf_append(b, lit.p, lit.len);
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK: buf_putc(b, ' '); break;
		case CMARK_NODE_EMPH: buf_puts(b, enter ? "<em>" : "</em>"); break;
		case CMARK_NODE_STRONG: buf_puts(b, enter ? "<strong>" : "</strong>"); break;
		case CMARK_NODE_IMAGE:
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			if (enter)
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			break;
		default: break;
		}
	}
	cmark_iter_free(it);
	buf_fini(&ms);
	buf_fini(&merr);
}

/* unique_id: GitHub's de-duplication (github-slugger): the first "intro"
 * stays, the next ones become "intro-1", "intro-2"..., skipping any id
 * already given. The base's counter makes it linear overall, and a
 * numbered id is looked up only if some heading took one of the base's
 * numbered ids as it is. */
static void unique_id(struct md_ctx *r, struct idmap *ids, struct buf *tmp, struct str base,
                      struct md_heading *hs, size_t index)
{
	if (!id_taken(ids, base.p, base.len)) {
		hs[index].id = base;
		id_take(ids, base.p, base.len, index);
		return;
	}
	struct idinfo *s = idmap_add(ids, base.p, base.len);
	char num[24];
	for (;;) {
		s->count++;
		int k = (int)sizeof num;
		for (uint32_t c = s->count; c; c /= 10)
			num[--k] = (char)('0' + c % 10);
		buf_reset(tmp);
		buf_append(tmp, base.p, base.len);
		buf_putc(tmp, '-');
		buf_append(tmp, num + k, sizeof num - (size_t)k);
		/* below the counter it was not taken as a number; as it is only
		 * if the base says some numbered id was */
		const struct idinfo *t = s->numbered ? idmap_get(ids, tmp->p, tmp->len) : NULL;
		if (!t || !t->first)
			break;
	}
	hs[index].id = (struct str){arena_strndup(r->a, tmp->p, tmp->len), tmp->len};
}

/* assign_ids: the ids of all headings. Custom ids first, so that they are
 * stable: a heading whose slug collides with a custom id given later still
 * gets a suffix, not the custom one. A custom id given twice is an error. */
static void assign_ids(struct md_ctx *r, struct md_heading *hs, size_t n)
{
	struct idmap ids = {MAP_INIT, NULL, 0};
	struct buf tmp;
	buf_init(&tmp);
	for (size_t i = 0; i < n; i++) {
		if (!hs[i].custom.p)
			continue;
		hs[i].id = hs[i].custom;
		const struct idinfo *s = idmap_get(&ids, hs[i].custom.p, hs[i].custom.len);
		if (s && s->first) {
			int line, col, first_line, first_col;
			if (r->d && diag_file_full(r->d, r->in.path)) {
				/* counted, not shown: no search of the lines for
				 * the place (100,000 duplicates of one long heading) */
				line = cmark_node_get_start_line(hs[i].node);
				col = cmark_node_get_start_column(hs[i].node);
				first_line = cmark_node_get_start_line(hs[s->first - 1].node);
			} else {
				locate_custom_id(r, hs[i].node, hs[i].custom, &line, &col);
				locate_custom_id(r, hs[s->first - 1].node, hs[i].custom, &first_line,
				                 &first_col);
			}
			struct diag_loc loc = diag_src_at(&r->in, line, col);
			if (r->d)
				diag_error(r->d, &loc,
				           "duplicate heading id '%.*s' (first used on line %d)",
				           STR_FMT(hs[i].custom), first_line + r->in.line_offset);
			r->errors++;
		} else {
			id_take(&ids, hs[i].custom.p, hs[i].custom.len, i);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (hs[i].custom.p)
			continue;
		unique_id(r, &ids, &tmp, hs[i].base, hs, i);
	}
	map_fini(&ids.m);
	free(ids.info);
	buf_fini(&tmp);
}

/* build_toc: nests the headings: each is a child of the nearest heading
 * before it with a lower level, so levels that skip (## then ####) still
 * nest, and a heading above all earlier levels starts a new top entry. */
static struct md_toc *build_toc(struct arena *a, const struct md_heading *hs, size_t n, size_t *ntop)
{
	*ntop = 0;
	if (!n)
		return NULL;
	struct md_toc *flat = xcalloc(n, sizeof *flat);
	size_t *parent = xmalloc(n * sizeof *parent), *stack = xmalloc(n * sizeof *stack);
	size_t *fill = xcalloc(n, sizeof *fill);
	size_t sp = 0, top = 0, filled = 0;
	for (size_t i = 0; i < n; i++) {
		flat[i].level = hs[i].level;
		flat[i].id = hs[i].id;
		flat[i].text = hs[i].text;
		flat[i].html = hs[i].html;
		while (sp && flat[stack[sp - 1]].level >= hs[i].level)
			sp--;
		parent[i] = sp ? stack[sp - 1] : SIZE_MAX;
		if (sp)
			flat[stack[sp - 1]].nchildren++;
		else
			top++;
		stack[sp++] = i;
	}
	for (size_t i = 0; i < n; i++)
		if (flat[i].nchildren)
			flat[i].children =
			    arena_alloc(a, flat[i].nchildren * sizeof *flat[i].children);
	/* copies share the children arrays, filled as later entries arrive */
	struct md_toc *tops = arena_alloc(a, top * sizeof *tops);
	for (size_t i = 0; i < n; i++) {
		if (parent[i] == SIZE_MAX)
			tops[filled++] = flat[i];
		else
			flat[parent[i]].children[fill[parent[i]]++] = flat[i];
	}
	free(flat);
	free(parent);
	free(stack);
	free(fill);
	*ntop = top;
	return tops;
}

/* is_more: the HTML block is a <!--more--> marker (spaces and case aside). */
static int is_more(cmark_node *n)
{
	const char *h = cmark_node_get_literal(n);
	struct str s = str_trim(str_from(h));
	if (s.len < 7 || memcmp(s.p, "<!--", 4) != 0 || memcmp(s.p + s.len - 3, "-->", 3) != 0)
		return 0;
	struct str inner = str_trim((struct str){s.p + 4, s.len - 7});
	return inner.len == 4 && strncasecmp(inner.p, "more", 4) == 0;
}


/* add_heading: heading n in the outline. */
static void add_heading(struct md_ctx *c, size_t *cap, cmark_node *n)
{
	if (c->nh == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		c->hs = xrealloc(c->hs, *cap * sizeof *c->hs);
	}
	memset(&c->hs[c->nh], 0, sizeof c->hs[c->nh]);
	c->hs[c->nh].node = n;
	c->hs[c->nh].level = cmark_node_get_heading_level(n);
	c->nh++;
}

/* has_text: whether paragraph p has any text: its start says, unless that
 * is all spaces. */
static int has_text(cmark_node *p, struct buf *tmp)
{
	buf_reset(tmp);
	md_plain_text_max(p, tmp, 4096);
	if (!str_trim(buf_str(tmp)).len && tmp->len > 4096) {
		buf_reset(tmp);
		md_plain_text(p, tmp);
	}
	return str_trim(buf_str(tmp)).len > 0;
}

/* The headings, the <!--more--> marker, the first paragraph. Paragraphs,
 * headings and tables are not entered: their inlines do not matter here. */
void md_pass_outline(struct md_ctx *c)
{
	size_t cap = 0;
	struct buf tmp;
	buf_init(&tmp);
	cmark_iter *it = cmark_iter_new(c->root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		int top = cmark_node_parent(n) == c->root;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_HEADING:
			add_heading(c, &cap, n);
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			break;
		case CMARK_NODE_PARAGRAPH:
			if (top && !c->first_para && !c->more && has_text(n, &tmp))
				c->first_para = n;
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			break;
		case CMARK_NODE_HTML_BLOCK:
			if (top && !c->more && is_more(n))
				c->more = n;
			break;
		case CMARK_NODE_CODE_BLOCK: c->has_code = 1; break;
		default:
			/* a table holds no heading and no paragraph */
			if (cmark_node_get_syntax_extension(n) == md_ext_table)
				cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
			break;
		}
	}
	cmark_iter_free(it);
	buf_fini(&tmp);
	c->out->has_more = c->more != NULL;
}

/* The headings: {#id}, the slug, the TOC's text and HTML, then ids; the
 * headings handed to the document's extension, which renders them with
 * their ids and anchors (ext.c). A heading of one text node (most are)
 * needs no walk for them. */
void md_pass_ids(struct md_ctx *c)
{
	struct buf tmp, folded, slug;
	buf_init(&tmp);
	buf_init(&folded);
	buf_init(&slug);
	for (size_t i = 0; i < c->nh; i++) {
		struct md_heading *hd = &c->hs[i];
		cmark_node *h = hd->node, *only = cmark_node_first_child(h);
		int plain = only == cmark_node_last_child(h) && (!only || cmark_node_get_type(only) == CMARK_NODE_TEXT);
		if (!plain)
			cmark_consolidate_text_nodes(h);
		hd->custom = take_custom_id(c->a, h);
		buf_reset(&tmp);
		if (!plain)
			md_plain_text(h, &tmp);
		else if ((only = cmark_node_first_child(h)) != NULL)
			buf_append(&tmp, md_literal(only).p, md_literal(only).len);
		if (!hd->custom.p) {
			buf_reset(&slug);
			md_slugify(&slug, str_trim(buf_str(&tmp)));
			hd->base = (struct str){arena_strndup(c->a, slug.p ? slug.p : "", slug.len), slug.len};
		}
		if (i < MD_TOC_MAX) { /* only the TOC's entries need these */
			md_fold_space(&folded, tmp.p ? tmp.p : "", tmp.len);
			hd->text = (struct str){arena_strndup(c->a, folded.p ? folded.p : "", folded.len), folded.len};
			buf_reset(&folded);
			toc_html(c->o, h, &folded);
			hd->html = (struct str){arena_strndup(c->a, folded.p ? folded.p : "", folded.len), folded.len};
		}
	}
	buf_fini(&tmp);
	buf_fini(&folded);
	buf_fini(&slug);
	assign_ids(c, c->hs, c->nh);
	for (size_t i = 0; i < c->nh; i++) {
		cmark_node_set_user_data(c->hs[i].node, (void *)c->hs[i].id.p);
		cmark_node_set_syntax_extension(c->hs[i].node, c->ext);
	}
	c->out->nheadings = c->nh;
}

/* A table of contents of MD_TOC_MAX headings at most, with a warning for
 * more when the page shows it. */
void md_pass_toc(struct md_ctx *c)
{
	size_t nh = c->nh;
	c->out->toc = build_toc(c->a, c->hs, nh < MD_TOC_MAX ? nh : MD_TOC_MAX, &c->out->ntoc);
	if (nh > MD_TOC_MAX && !c->o->toc_hidden && c->d) {
		struct diag_loc loc = {c->in.path, c->in.src, c->in.src_len,
		                       cmark_node_get_start_line(c->hs[MD_TOC_MAX].node) + c->in.line_offset, 1};
		diag_warning(c->d, &loc,
		             "table of contents: lists the page's first %d headings, not all %zu (see LIMITS in "
		             "folio-site(5)); split the page, or hide its contents with toc: false",
		             MD_TOC_MAX, nh);
	}
}

void md_outline_free(struct md_ctx *c)
{
	free(c->hs);
	c->hs = NULL;
	free(c->text_lines);
	c->text_lines = NULL;
}
