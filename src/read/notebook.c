/* notebook.c: a Jupyter notebook (nbformat 4) read and converted into the
 * Markdown folio renders, with the table of where each of its lines comes
 * from (notebook.h); its messages name the cell. */
#include "read/notebook.h"

#include "base/hash.h"
#include "formats/json.h"
#include "formats/schema.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* What converting one notebook keeps: the Markdown made so far, the
 * origin of each of its lines, the files held in memory. */
struct conv {
	struct arena *a;
	struct diag *d;
	const char *path, *src;
	size_t len;
	struct buf md;
	struct notebook_line *lines;
	size_t nlines, cap;
	int bol;                    /* md ends with a newline (or is empty) */
	struct notebook_line cur;   /* where what is written now comes from */
	struct md_asset *assets;
	size_t nassets, acap;
	int errors;
	const char *lang;           /* the kernel's language, for the fences ("": none) */
};

/* get: the value of key in map m, or NULL (m may be NULL or no map). */
static const struct ynode *get(const struct ynode *m, const char *key)
{
	return m && m->kind == YNODE_MAP ? schema_node(m, key) : NULL;
}

static int is_string(const struct ynode *n)
{
	return n && n->kind == YNODE_SCALAR && n->quoted;
}

/* cv_error: an error at node at (NULL: the file's start), the cell and
 * output being read named first. */
static void cv_error(struct conv *cv, const struct ynode *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cv_error(struct conv *cv, const struct ynode *at, const char *fmt, ...)
{
	struct buf m;
	buf_init(&m);
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&m, fmt, ap);
	va_end(ap);
	struct diag_loc loc = {cv->path, cv->src, cv->len, at ? at->line : 1, at ? at->col : 1};
	struct buf pre;
	buf_init(&pre);
	buf_puts(&pre, "");
	if (cv->cur.cell && cv->cur.kind)
		buf_printf(&pre, "cell %u (%s): ", cv->cur.cell, cv->cur.kind);
	else if (cv->cur.cell)
		buf_printf(&pre, "cell %u: ", cv->cur.cell);
	if (cv->cur.output)
		buf_printf(&pre, "output %u: ", cv->cur.output);
	diag_error(cv->d, &loc, "%s%s", pre.p, m.p);
	buf_fini(&pre);
	buf_fini(&m);
	cv->errors++;
}

/* put: appends s[0..n) to the Markdown; each line it starts comes from
 * cv->cur, at byte skip0 + its offset in s of cur's string when track
 * (else at the node itself). */
static void put(struct conv *cv, const char *s, size_t n, int track, size_t skip0)
{
	size_t i = 0;
	while (i < n) {
		if (cv->bol) {
			if (cv->nlines == cv->cap) {
				size_t cap = cv->cap ? 2 * cv->cap : 64;
				cv->lines = arena_realloc(cv->a, cv->lines, cv->cap * sizeof *cv->lines, cap * sizeof *cv->lines);
				cv->cap = cap;
			}
			struct notebook_line l = cv->cur;
			l.skip = track ? skip0 + i : NOTEBOOK_NO_SKIP;
			cv->lines[cv->nlines++] = l;
			cv->bol = 0;
		}
		const char *nl = memchr(s + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - s) + 1 : n;
		buf_append(&cv->md, s + i, e - i);
		cv->bol = nl != NULL;
		i = e;
	}
}

/* syn: folio's own Markdown (a fence, a wrapper), from the current node. */
static void syn(struct conv *cv, const char *s)
{
	put(cv, s, strlen(s), 0, 0);
}

static void end_line(struct conv *cv)
{
	if (!cv->bol)
		syn(cv, "\n");
}

/* text_of: the text of n, a string or a list of strings (nbformat's
 * "multiline string"), in *out (the arena's); -1 after an error naming
 * what (the key). */
static int text_of(struct conv *cv, const struct ynode *n, const char *what, struct str *out)
{
	if (is_string(n)) {
		*out = n->str;
		return 0;
	}
	if (!n || n->kind != YNODE_SEQ) {
		if (n)
			cv_error(cv, n, "'%s' must be a string or a list of strings, found %s", what, kind_a(n));
		return -1;
	}
	size_t len = 0;
	for (size_t i = 0; i < n->len; i++) {
		if (!is_string(n->items[i])) {
			cv_error(cv, n->items[i], "'%s' must be a string or a list of strings, found %s in the list",
				 what, kind_a(n->items[i]));
			return -1;
		}
		len += n->items[i]->str.len;
	}
	char *p = arena_alloc_raw(cv->a, len + 1);
	size_t at = 0;
	for (size_t i = 0; i < n->len; i++) {
		memcpy(p + at, n->items[i]->str.p, n->items[i]->str.len);
		at += n->items[i]->str.len;
	}
	p[at] = 0;
	*out = (struct str){p, len};
	return 0;
}

unsigned char *notebook_base64(struct arena *a, const char *s, size_t n, size_t *len, size_t *bad)
{
	unsigned char *out = arena_alloc_raw(a, n / 4 * 3 + 3);
	size_t o = 0, k = 0;
	uint32_t acc = 0;
	int pad = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int v;
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
			continue;
		if (c == '=') {
			pad = 1;
			continue;
		}
		if (pad) { /* text after the padding */
			*bad = i;
			return NULL;
		}
		if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= 'a' && c <= 'z')
			v = c - 'a' + 26;
		else if (c >= '0' && c <= '9')
			v = c - '0' + 52;
		else if (c == '+')
			v = 62;
		else if (c == '/')
			v = 63;
		else {
			*bad = i;
			return NULL;
		}
		acc = acc << 6 | (uint32_t)v;
		if (++k == 4) {
			out[o++] = (unsigned char)(acc >> 16);
			out[o++] = (unsigned char)(acc >> 8);
			out[o++] = (unsigned char)acc;
			acc = 0;
			k = 0;
		}
	}
	if (k == 1) { /* six bits make no byte */
		*bad = n;
		return NULL;
	}
	if (k == 2) {
		out[o++] = (unsigned char)(acc >> 4);
	} else if (k == 3) {
		out[o++] = (unsigned char)(acc >> 10);
		out[o++] = (unsigned char)(acc >> 2);
	}
	*len = o;
	return out;
}

/* add_asset: a file held in memory, named NAME-HASH.EXT (the hash of its
 * bytes: a changed image is a new address, never a stale one in a
 * reader's cache); its name. */
static const char *add_asset(struct conv *cv, const char *name, const char *ext, const unsigned char *data,
			     size_t len)
{
	if (cv->nassets == cv->acap) {
		size_t cap = cv->acap ? 2 * cv->acap : 8;
		cv->assets = arena_realloc(cv->a, cv->assets, cv->acap * sizeof *cv->assets, cap * sizeof *cv->assets);
		cv->acap = cap;
	}
	char buf[160];
	snprintf(buf, sizeof buf, "%s-%08x.%s", name, (unsigned)(hash_bytes(data, len) & 0xFFFFFFFFu), ext);
	struct md_asset *m = &cv->assets[cv->nassets++];
	m->name = arena_strndup(cv->a, buf, strlen(buf));
	m->data = data;
	m->len = len;
	return m->name;
}

/* image_asset: the image of MIME type mime held by node n (base64 for
 * PNG and JPEG, text for SVG) as a file named after `name`; NULL after an
 * error. */
static const char *image_asset(struct conv *cv, const char *mime, const struct ynode *n, const char *name)
{
	struct str t;
	if (text_of(cv, n, mime, &t))
		return NULL;
	if (!strcmp(mime, "image/svg+xml"))
		return add_asset(cv, name, "svg", (const unsigned char *)t.p, t.len);
	size_t len = 0, bad = 0;
	unsigned char *b = notebook_base64(cv->a, t.p, t.len, &len, &bad);
	int png = !strcmp(mime, "image/png");
	if (!b) {
		if (bad < t.len)
			cv_error(cv, n, "'%s' is not base64: byte 0x%02X at offset %zu", mime, (unsigned char)t.p[bad], bad);
		else
			cv_error(cv, n, "'%s' is not base64: its length is cut short", mime);
		return NULL;
	}
	if (png ? len < 8 || memcmp(b, "\x89PNG\r\n\x1a\n", 8) : len < 3 || memcmp(b, "\xFF\xD8\xFF", 3)) {
		cv_error(cv, n, "'%s' is base64 of something that is not a %s image", mime, png ? "PNG" : "JPEG");
		return NULL;
	}
	return add_asset(cv, name, png ? "png" : "jpg", b, len);
}

/* put_pre: text as terminal text in a <pre> of class cls (one HTML block:
 * the escaped text holds no "</pre>"), its last newline dropped. */
static void put_pre(struct conv *cv, const char *cls, const char *s, size_t n)
{
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (!n)
		return;
	struct buf h;
	buf_init(&h);
	buf_printf(&h, "<pre class=\"nb-output %s\" tabindex=\"0\">", cls);
	ansi_to_html(&h, s, n);
	buf_puts(&h, "</pre>\n\n");
	end_line(cv);
	put(cv, h.p, h.len, 0, 0);
	buf_fini(&h);
}

/* overstrike: s with each line's text before its last carriage return
 * dropped, as a terminal shows a progress bar that rewrites its line. */
static struct str overstrike(struct arena *a, struct str s)
{
	if (!memchr(s.p, '\r', s.len))
		return s;
	char *o = arena_alloc_raw(a, s.len + 1);
	size_t n = 0, line = 0; /* line: where the line being copied starts in o */
	for (size_t i = 0; i < s.len; i++) {
		char c = s.p[i];
		if (c == '\r' && i + 1 < s.len && s.p[i + 1] == '\n')
			continue;
		if (c == '\r') {
			n = line;
			continue;
		}
		o[n++] = c;
		if (c == '\n')
			line = n;
	}
	o[n] = 0;
	return (struct str){o, n};
}

/* put_html: raw HTML as one HTML block: its blank lines (which would end
 * the block, and make the rest Markdown) written as empty comments. */
static void put_html(struct conv *cv, const char *cls, struct str t)
{
	struct buf h;
	buf_init(&h);
	buf_printf(&h, "<div class=\"nb-output %s\">\n", cls);
	size_t i = 0;
	while (i < t.len) {
		const char *nl = memchr(t.p + i, '\n', t.len - i);
		size_t e = nl ? (size_t)(nl - t.p) : t.len;
		size_t k = i;
		while (k < e && (t.p[k] == ' ' || t.p[k] == '\t' || t.p[k] == '\r'))
			k++;
		if (k == e)
			buf_puts(&h, "<!-- -->");
		else
			buf_append(&h, t.p + i, e - i);
		buf_putc(&h, '\n');
		i = e + 1;
	}
	buf_puts(&h, "</div>\n\n");
	end_line(cv);
	put(cv, h.p, h.len, 0, 0);
	buf_fini(&h);
}

/* put_latex: LaTeX output as display math: its own $$ or \[ \] taken off,
 * its blank lines dropped (they would end the formula). */
static void put_latex(struct conv *cv, struct str t)
{
	t = str_trim(t);
	if (t.len >= 4 && !memcmp(t.p, "$$", 2) && !memcmp(t.p + t.len - 2, "$$", 2))
		t = (struct str){t.p + 2, t.len - 4};
	else if (t.len >= 4 && !memcmp(t.p, "\\[", 2) && !memcmp(t.p + t.len - 2, "\\]", 2))
		t = (struct str){t.p + 2, t.len - 4};
	else if (t.len >= 2 && t.p[0] == '$' && t.p[t.len - 1] == '$')
		t = (struct str){t.p + 1, t.len - 2};
	t = str_trim(t);
	if (!t.len)
		return;
	end_line(cv);
	syn(cv, "<div class=\"nb-output nb-latex\">\n\n$$\n");
	size_t i = 0;
	while (i < t.len) {
		const char *nl = memchr(t.p + i, '\n', t.len - i);
		size_t e = nl ? (size_t)(nl - t.p) : t.len;
		struct str line = str_trim((struct str){t.p + i, e - i});
		if (line.len) {
			put(cv, t.p + i, e - i, 0, 0);
			syn(cv, "\n");
		}
		i = e + 1;
	}
	syn(cv, "$$\n\n</div>\n\n");
}

/* put_alt: appends to b the alt text of the image output out (data: its
 * data map): its metadata's "alt", else its text/plain unless that is a
 * Python repr ("<Figure size ...>"); at most 300 bytes, what Markdown
 * would read as syntax escaped, lines joined. */
static void put_alt(struct buf *b, const struct ynode *out, const struct ynode *data)
{
	struct str t = {"", 0};
	const struct ynode *m = get(get(out, "metadata"), "alt");
	if (is_string(m)) {
		t = m->str;
	} else {
		const struct ynode *plain = get(data, "text/plain");
		if (is_string(plain))
			t = plain->str;
		else if (plain && plain->kind == YNODE_SEQ && plain->len && is_string(plain->items[0]))
			t = plain->items[0]->str;
		t = str_trim(t);
		if (t.len && t.p[0] == '<' && t.p[t.len - 1] == '>')
			t = (struct str){"", 0};
	}
	for (size_t i = 0; i < t.len; i++) {
		char c = t.p[i];
		if (i >= 300 && ((unsigned char)c & 0xC0) != 0x80)
			break; /* at a character's start */
		if (c == '[' || c == ']' || c == '\\' || c == '*' || c == '_' || c == '`' || c == '<' || c == '&')
			buf_putc(b, '\\');
		buf_putc(b, c == '\n' || c == '\r' ? ' ' : c);
	}
}

/* put_data: a display_data or execute_result output: its richest type
 * folio shows (images, then HTML, LaTeX, Markdown, plain text). */
static void put_data(struct conv *cv, const struct ynode *out, uint32_t cell, uint32_t k)
{
	const struct ynode *data = get(out, "data");
	if (!data)
		return;
	if (data->kind != YNODE_MAP) {
		cv_error(cv, data, "'data' must be a map of MIME types, found %s", kind_a(data));
		return;
	}
	static const char *const images[] = {"image/svg+xml", "image/png", "image/jpeg"};
	for (size_t i = 0; i < 3; i++) {
		const struct ynode *n = get(data, images[i]);
		if (!n)
			continue;
		char name[64];
		snprintf(name, sizeof name, "cell%u-%u", cell, k);
		const char *file = image_asset(cv, images[i], n, name);
		if (!file)
			return;
		struct buf b;
		buf_init(&b);
		buf_puts(&b, "<div class=\"nb-output nb-image\">\n\n![");
		put_alt(&b, out, data);
		buf_printf(&b, "](%s)\n\n</div>\n\n", file);
		end_line(cv);
		put(cv, b.p, b.len, 0, 0);
		buf_fini(&b);
		return;
	}
	struct str t;
	const struct ynode *n;
	if ((n = get(data, "text/html"))) {
		if (!text_of(cv, n, "text/html", &t))
			put_html(cv, "nb-html", t);
	} else if ((n = get(data, "text/latex"))) {
		cv->cur.node = n;
		if (!text_of(cv, n, "text/latex", &t))
			put_latex(cv, t);
	} else if ((n = get(data, "text/markdown"))) {
		if (!text_of(cv, n, "text/markdown", &t)) {
			end_line(cv);
			syn(cv, "<div class=\"nb-output nb-markdown\">\n\n");
			cv->cur.node = n;
			put(cv, t.p, t.len, is_string(n), 0);
			end_line(cv);
			syn(cv, "\n</div>\n\n");
		}
	} else if ((n = get(data, "text/plain"))) {
		if (!text_of(cv, n, "text/plain", &t))
			put_pre(cv, "nb-text", t.p, t.len);
	}
}

/* put_error: an error output: its traceback (ANSI colours to classes),
 * or its ename and evalue. */
static void put_error(struct conv *cv, const struct ynode *out)
{
	const struct ynode *tb = get(out, "traceback");
	struct buf t;
	buf_init(&t);
	if (tb && tb->kind == YNODE_SEQ && tb->len) {
		for (size_t i = 0; i < tb->len; i++) {
			if (!is_string(tb->items[i])) {
				cv_error(cv, tb->items[i], "'traceback' must be a list of strings, found %s in it",
					 kind_a(tb->items[i]));
				buf_fini(&t);
				return;
			}
			buf_put_str(&t, tb->items[i]->str);
			buf_putc(&t, '\n');
		}
	} else {
		const struct ynode *en = get(out, "ename"), *ev = get(out, "evalue");
		buf_printf(&t, "%s: %s", is_string(en) ? en->str.p : "Error", is_string(ev) ? ev->str.p : "");
	}
	put_pre(cv, "nb-error", t.p, t.len);
	buf_fini(&t);
}

/* put_outputs: a code cell's outputs; consecutive stream outputs of one
 * name are one block, as Jupyter shows them. */
static void put_outputs(struct conv *cv, const struct ynode *outs, uint32_t cell)
{
	if (outs->kind != YNODE_SEQ) {
		cv_error(cv, outs, "'outputs' must be a list, found %s", kind_a(outs));
		return;
	}
	for (size_t k = 0; k < outs->len; k++) {
		const struct ynode *o = outs->items[k];
		cv->cur.output = (uint32_t)k + 1;
		cv->cur.node = o;
		if (o->kind != YNODE_MAP) {
			cv_error(cv, o, "an output is a JSON object, found %s", kind_a(o));
			continue;
		}
		const struct ynode *type = get(o, "output_type");
		if (!is_string(type)) {
			cv_error(cv, o, "no 'output_type' (hint: stream, display_data, execute_result or error)");
			continue;
		}
		const char *ty = type->str.p;
		if (!strcmp(ty, "stream")) {
			const struct ynode *name = get(o, "name");
			const char *nm = is_string(name) && !strcmp(name->str.p, "stderr") ? "stderr" : "stdout";
			struct buf all;
			buf_init(&all);
			size_t last = k;
			for (size_t j = k; j < outs->len; j++) {
				const struct ynode *oj = outs->items[j], *tj = get(oj, "output_type"), *nj = get(oj, "name");
				const char *nmj = is_string(nj) && !strcmp(nj->str.p, "stderr") ? "stderr" : "stdout";
				if (!is_string(tj) || strcmp(tj->str.p, "stream") || strcmp(nmj, nm))
					break;
				cv->cur.output = (uint32_t)j + 1;
				struct str t;
				if (!text_of(cv, get(oj, "text"), "text", &t))
					buf_put_str(&all, t);
				last = j;
			}
			cv->cur.output = (uint32_t)k + 1;
			struct str shown = overstrike(cv->a, (struct str){all.p ? all.p : "", all.len});
			put_pre(cv, !strcmp(nm, "stderr") ? "nb-stream nb-stderr" : "nb-stream nb-stdout", shown.p,
				shown.len);
			buf_fini(&all);
			k = last;
		} else if (!strcmp(ty, "error")) {
			put_error(cv, o);
		} else if (!strcmp(ty, "display_data") || !strcmp(ty, "execute_result")) {
			put_data(cv, o, cell, (uint32_t)k + 1);
		} else {
			cv_error(cv, type, "unknown output_type '%s' (hint: stream, display_data, execute_result or error)",
				 ty);
		}
	}
	cv->cur.output = 0;
}

/* fence_len: the backticks of a fence around t: one more than its
 * longest run, at least three. */
static size_t fence_len(struct str t)
{
	size_t best = 0, run = 0;
	for (size_t i = 0; i < t.len; i++) {
		run = t.p[i] == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best >= 3 ? best + 1 : 3;
}

/* attachment_for: the file an "attachment:NAME" at s[0..n) (after the
 * prefix) names in the cell's attachments a (the longest name that
 * matches), its length in *used; NULL when none. */
static const char *attachment_for(struct conv *cv, const struct ynode *a, uint32_t cell, const char *s, size_t n,
				  size_t *used)
{
	const struct ynode *best = NULL;
	size_t bi = 0;
	for (size_t i = 0; i < a->len; i++) {
		struct str k = a->keys[i]->str;
		if (k.len <= n && !memcmp(s, k.p, k.len) && (!best || k.len > best->str.len)) {
			best = a->keys[i];
			bi = i;
		}
	}
	if (!best)
		return NULL;
	*used = best->str.len;
	const struct ynode *bundle = a->items[bi];
	static const char *const images[] = {"image/svg+xml", "image/png", "image/jpeg"};
	for (size_t i = 0; i < 3; i++) {
		const struct ynode *v = get(bundle, images[i]);
		if (!v)
			continue;
		char name[64];
		snprintf(name, sizeof name, "cell%u-attachment%zu", cell, bi + 1);
		return image_asset(cv, images[i], v, name);
	}
	return NULL;
}

/* put_source: a cell's source, each of its strings tracked (so that a
 * message points at the string and the column), an "attachment:NAME"
 * replaced by the attachment's file. */
static void put_source(struct conv *cv, const struct ynode *src, const struct ynode *att, uint32_t cell)
{
	size_t n = src->kind == YNODE_SEQ ? src->len : 1;
	for (size_t i = 0; i < n; i++) {
		const struct ynode *s = src->kind == YNODE_SEQ ? src->items[i] : src;
		cv->cur.node = s;
		const char *p = s->str.p;
		size_t len = s->str.len, at = 0;
		const char *hit;
		while (att && att->kind == YNODE_MAP &&
		       (hit = memmem(p + at, len - at, "attachment:", 11)) != NULL) {
			size_t off = (size_t)(hit - p), used = 0;
			const char *file = attachment_for(cv, att, cell, hit + 11, len - off - 11, &used);
			if (!file) {
				put(cv, p + at, off + 11 - at, 1, at);
				at = off + 11;
				continue;
			}
			put(cv, p + at, off - at, 1, at);
			put(cv, file, strlen(file), 1, off);
			at = off + 11 + used;
		}
		put(cv, p + at, len - at, 1, at);
	}
}

/* check_source: a cell's source is a string or a list of strings. */
static int check_source(struct conv *cv, const struct ynode *cell, const struct ynode **src)
{
	*src = get(cell, "source");
	if (!*src) {
		cv_error(cv, cell, "no 'source' (hint: the cell's text, a string or a list of strings)");
		return -1;
	}
	struct str t;
	return text_of(cv, *src, "source", &t);
}

/* put_code: a code cell: its source as a fence in the kernel's language,
 * its execution count, its outputs, in one <div>. */
static void put_code(struct conv *cv, const struct ynode *cell, const struct ynode *src, uint32_t i)
{
	struct str code;
	text_of(cv, src, "source", &code);
	const struct ynode *outs = get(cell, "outputs");
	int has_code = str_trim(code).len > 0;
	if (!has_code && (!outs || (outs->kind == YNODE_SEQ && !outs->len)))
		return;
	end_line(cv);
	syn(cv, "<div class=\"nb-cell nb-code\">\n");
	const struct ynode *count = get(cell, "execution_count");
	int64_t c;
	if (count && !count->quoted && yaml_as_int(count, &c) && c >= 0) {
		char p[64];
		snprintf(p, sizeof p, "<div class=\"nb-prompt\">[%lld]:</div>\n", (long long)c);
		syn(cv, p);
	}
	syn(cv, "\n");
	if (has_code) {
		char fence[64];
		size_t fl = fence_len(code);
		if (fl > 40)
			fl = 40; /* past it, tildes would be needed: a code cell of 40 backticks is not one */
		memset(fence, '`', fl);
		snprintf(fence + fl, sizeof fence - fl, "%s\n", cv->lang);
		syn(cv, fence);
		put_source(cv, src, NULL, i);
		cv->cur.node = cell;
		end_line(cv);
		fence[fl] = 0;
		syn(cv, fence);
		syn(cv, "\n\n");
	}
	if (outs)
		put_outputs(cv, outs, i);
	cv->cur.node = cell;
	end_line(cv);
	syn(cv, "</div>\n\n");
}

/* put_cell: cell i (1-based) of the notebook. */
static void put_cell(struct conv *cv, const struct ynode *cell, uint32_t i)
{
	cv->cur = (struct notebook_line){i, 0, NULL, cell, 0};
	if (cell->kind != YNODE_MAP) {
		cv_error(cv, cell, "a cell is a JSON object, found %s", kind_a(cell));
		return;
	}
	const struct ynode *type = get(cell, "cell_type");
	if (!is_string(type)) {
		cv_error(cv, type ? type : cell, "no 'cell_type' (hint: markdown, code or raw)");
		return;
	}
	static const char *const kinds[] = {"markdown", "code", "raw"};
	for (size_t k = 0; k < 3; k++)
		if (!strcmp(type->str.p, kinds[k]))
			cv->cur.kind = kinds[k];
	if (!cv->cur.kind) {
		cv_error(cv, type, "unknown cell_type '%s' (hint: markdown, code or raw)", type->str.p);
		return;
	}
	const struct ynode *src;
	if (check_source(cv, cell, &src))
		return;
	end_line(cv);
	if (cv->md.len)
		syn(cv, "\n");
	if (cv->cur.kind == kinds[1]) {
		put_code(cv, cell, src, i);
		return;
	}
	if (cv->cur.kind == kinds[2]) {
		/* a raw cell is shown only when it says it is HTML or Markdown */
		const struct ynode *m = get(cell, "metadata");
		const struct ynode *f = get(m, "raw_mimetype");
		if (!f)
			f = get(m, "format");
		struct str t;
		text_of(cv, src, "source", &t);
		if (is_string(f) && !strcmp(f->str.p, "text/html"))
			put_html(cv, "nb-raw", t);
		else if (is_string(f) && !strcmp(f->str.p, "text/markdown"))
			put_source(cv, src, NULL, i);
		return;
	}
	put_source(cv, src, get(cell, "attachments"), i);
	cv->cur.node = cell;
	end_line(cv);
}

/* kernel_lang: the language of the code cells, from the kernel's spec or
 * the language info: lower case, only what a fence's info may hold. */
static const char *kernel_lang(struct arena *a, const struct ynode *meta)
{
	const struct ynode *l = get(get(meta, "kernelspec"), "language");
	if (!is_string(l))
		l = get(get(meta, "language_info"), "name");
	if (!is_string(l))
		return "";
	char buf[32];
	size_t n = 0;
	for (size_t i = 0; i < l->str.len && n < sizeof buf - 1; i++) {
		char c = l->str.p[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '#' || c == '_' || c == '-')
			buf[n++] = c;
	}
	return arena_strndup(a, buf, n);
}

/* check_format: the notebook is nbformat 4 (any minor version). */
static int check_format(struct conv *cv, const struct ynode *root)
{
	const struct ynode *f = get(root, "nbformat");
	int64_t v;
	if (!f) {
		cv_error(cv, root, "not a Jupyter notebook: no 'nbformat' (hint: folio reads notebooks of nbformat 4, "
			 "as Jupyter saves them)");
		return -1;
	}
	if (f->quoted || !yaml_as_int(f, &v)) {
		cv_error(cv, f, "'nbformat' must be a number, found %s", kind_a(f));
		return -1;
	}
	if (v < 4) {
		cv_error(cv, f, "nbformat %lld is not read: folio reads nbformat 4 (hint: convert it with 'jupyter "
			 "nbconvert --to notebook --nbformat 4 --inplace %s')", (long long)v, strrchr(cv->path, '/') ?
			 strrchr(cv->path, '/') + 1 : cv->path);
		return -1;
	}
	if (v > 4) {
		cv_error(cv, f, "nbformat %lld is newer than folio reads (4)", (long long)v);
		return -1;
	}
	return 0;
}

struct notebook *notebook_read(struct arena *a, struct diag *d, const char *path, const char *src, size_t len)
{
	const struct ynode *root = json_parse(a, d, path, src, len, src, len, 0);
	if (!root)
		return NULL;
	struct conv cv = {.a = a, .d = d, .path = path, .src = src, .len = len, .bol = 1};
	buf_init(&cv.md);
	if (root->kind != YNODE_MAP) {
		cv_error(&cv, root, "a notebook is a JSON object with 'cells', 'metadata' and 'nbformat', found %s",
			 kind_a(root));
		return NULL;
	}
	if (check_format(&cv, root))
		return NULL;
	const struct ynode *meta = get(root, "metadata");
	const struct ynode *fm = get(meta, "folio");
	if (fm && fm->kind != YNODE_MAP) {
		cv_error(&cv, fm, "the metadata's 'folio' must be a map of front matter keys, found %s", kind_a(fm));
		return NULL;
	}
	const struct ynode *cells = get(root, "cells");
	if (!cells || cells->kind != YNODE_SEQ) {
		cv_error(&cv, cells ? cells : root, "no 'cells' list (hint: a notebook of nbformat 4 has its cells in "
			 "a list 'cells')");
		return NULL;
	}
	cv.lang = kernel_lang(a, meta);
	for (size_t i = 0; i < cells->len; i++)
		put_cell(&cv, cells->items[i], (uint32_t)i + 1);
	if (cv.errors) {
		buf_fini(&cv.md);
		return NULL;
	}
	struct notebook *nb = arena_alloc(a, sizeof *nb);
	nb->path = path;
	nb->src = src;
	nb->src_len = len;
	nb->fm = fm;
	nb->fm_node = meta;
	nb->md = arena_strndup(a, cv.md.p ? cv.md.p : "", cv.md.len);
	nb->md_len = cv.md.len;
	nb->lines = cv.lines;
	nb->nlines = cv.nlines;
	nb->assets = cv.assets;
	nb->nassets = cv.nassets;
	size_t n = 1;
	for (const char *p = src; (p = memchr(p, '\n', (size_t)(src + len - p))); p++)
		n++;
	nb->starts = arena_alloc_raw(a, n * sizeof *nb->starts);
	nb->starts[nb->nstarts++] = 0;
	for (const char *p = src; (p = memchr(p, '\n', (size_t)(src + len - p))); p++)
		nb->starts[nb->nstarts++] = (size_t)(p - src) + 1;
	buf_fini(&cv.md);
	return nb;
}

/* ---- messages about the Markdown, moved to the notebook ---- */

/* offset_of: the byte offset of line and col (1-based) in nb's text. */
static size_t offset_of(const struct notebook *nb, int line, int col)
{
	if (line < 1 || (size_t)line > nb->nstarts)
		return nb->src_len;
	size_t at = nb->starts[line - 1] + (col > 0 ? (size_t)col - 1 : 0);
	return at < nb->src_len ? at : nb->src_len;
}

/* line_of: the line (0-based) of byte at of nb's text, and where it starts. */
static void line_of(const struct notebook *nb, size_t at, size_t *line, size_t *start)
{
	size_t lo = 0, hi = nb->nstarts; /* starts[lo] <= at < starts[hi] */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (nb->starts[mid] <= at)
			lo = mid;
		else
			hi = mid;
	}
	*line = lo;
	*start = nb->starts[lo];
}

static unsigned hex4(const char *p)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v = v << 4 | (unsigned)(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
						: c >= 'A' && c <= 'F' ? c - 'A' + 10 : 0);
	}
	return v;
}

/* string_byte: the offset in src of byte `want` of the text of the JSON
 * string whose '"' is at q (the escape that makes it, when that byte is
 * inside one; the closing quote when the text is shorter). */
static size_t string_byte(const char *src, size_t len, size_t q, size_t want)
{
	size_t p = q + 1;
	while (want > 0 && p < len && src[p] != '"') {
		size_t raw = 1, dec = 1;
		if (src[p] == '\\' && p + 1 < len) {
			raw = 2;
			if (src[p + 1] == 'u' && p + 6 <= len) {
				unsigned v = hex4(src + p + 2);
				raw = 6;
				dec = v < 0x80 ? 1 : v < 0x800 ? 2 : 3;
				if (v >= 0xD800 && v < 0xDC00 && p + 12 <= len && src[p + 6] == '\\' && src[p + 7] == 'u') {
					raw = 12;
					dec = 4;
				}
			}
		}
		if (dec > want)
			break;
		want -= dec;
		p += raw;
	}
	return p;
}

struct notebook_place notebook_place(const struct notebook *nb, int line, int col)
{
	struct notebook_place pl = {1, 1, 0, 0, NULL};
	if (!nb->nlines)
		return pl;
	size_t i = line < 1 ? 0 : (size_t)line - 1;
	if (i >= nb->nlines)
		i = nb->nlines - 1;
	const struct notebook_line *l = &nb->lines[i];
	pl.cell = l->cell;
	pl.output = l->output;
	pl.kind = l->kind;
	pl.line = l->node->line;
	pl.col = l->node->col;
	if (l->skip == NOTEBOOK_NO_SKIP || !is_string(l->node))
		return pl;
	size_t q = offset_of(nb, l->node->line, l->node->col);
	if (q >= nb->src_len || nb->src[q] != '"')
		return pl;
	size_t at = string_byte(nb->src, nb->src_len, q, l->skip + (size_t)(col > 1 ? col - 1 : 0));
	size_t ln, ls;
	line_of(nb, at, &ln, &ls);
	pl.line = (int)ln + 1;
	pl.col = (int)(at - ls) + 1;
	return pl;
}

/* relay_map: a message's place in the Markdown moved into the notebook. */
static void relay_map(void *ctx, struct diag_loc *loc, struct buf *prefix)
{
	const struct notebook *nb = ctx;
	if (!loc->path || strcmp(loc->path, nb->path) || (loc->src && loc->src != nb->md))
		return;
	loc->src = nb->src;
	loc->src_len = nb->src_len;
	if (loc->line <= 0)
		return;
	struct notebook_place pl = notebook_place(nb, loc->line, loc->col);
	loc->line = pl.line;
	loc->col = pl.col;
	if (pl.cell)
		buf_printf(prefix, "cell %u (%s): ", pl.cell, pl.kind ? pl.kind : "?");
	if (pl.output)
		buf_printf(prefix, "output %u: ", pl.output);
}

int notebook_render(struct arena *a, const struct md_options *o, struct diag *d, const struct notebook *nb,
		    struct md_doc *out)
{
	struct md_options no = *o;
	no.assets = nb->assets;
	no.nassets = nb->nassets;
	if (!d)
		return md_render(a, &no, NULL, nb->path, nb->md, nb->md_len, nb->md, nb->md_len, 0, out);
	/* an unknown kernel language: one warning, at its first cell, told
	 * through the relay (the build's collector would place it in the
	 * Markdown) */
	struct md_unknown *u = md_unknown_new();
	no.unknown = u;
	struct diag relay;
	diag_init(&relay, NULL);
	diag_relay(&relay, d, relay_map, (void *)nb);
	int r = md_render(a, &no, &relay, nb->path, nb->md, nb->md_len, nb->md, nb->md_len, 0, out);
	md_unknown_report(u, &relay);
	md_unknown_free(u);
	diag_fini(&relay);
	return r;
}
