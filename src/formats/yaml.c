/* yaml.c: libyaml events -> folio's YAML tree, with positions and diagnostics. */
#include "formats/yaml.h"

#include "base/index.h"
#include "base/hash.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libyaml's header; the build uses -iquote src, so <yaml.h> is not ours. */
#include <yaml.h>

/* Maps with more keys than this look duplicates up in a hash table instead
 * of scanning the keys seen so far, so a 100,000-key map is not quadratic. */
#define DUP_SCAN_MAX 8

/* One collection being built. Its entries sit on the builder's shared stack
 * from base on (a map's as key, value, key, value, ...) until its end event
 * copies them into the arena. */
struct frame {
	struct ynode *node;
	size_t base;
	struct index keys; /* map: 1 + index of a key in the stack */
	int hashed; /* map: the keys so far are in hash */
};

/* Where libyaml's last mark was found in the text. libyaml counts
 * characters; diagnostics count bytes and lines end at '\n' only (libyaml
 * also breaks lines at a lone '\r', U+0085, U+2028 and U+2029), so marks are
 * mapped through the text. Events come in text order, so walking on from
 * the previous mark makes the mapping O(len) for a whole document. */
struct cursor {
	size_t index;      /* characters from the start of what libyaml reads */
	size_t byte;       /* the same position in text */
	size_t line;       /* '\n's in text before byte */
	size_t line_start; /* byte offset of that line's start */
};

struct builder {
	struct arena *a;
	struct diag *d;
	struct diag_src in; /* the file and where the YAML is in it */
	const char *text;
	size_t len;
	size_t skip; /* bytes of a UTF-8 BOM that libyaml is not given */
	struct cursor cur;
	struct ynode **stack;
	size_t nstack, capstack;
	struct frame frames[YAML_MAX_DEPTH];
	int depth;
	int errors;
	struct ynode *root;
};

static void oom(void)
{
	fputs("folio: out of memory\n", stderr);
	exit(1);
}

static int clamp_int(size_t v)
{
	return v > 1000000000 ? 1000000000 : (int)v;
}

/* loc_at_byte: the diagnostic location of text[byte], scanning from the start
 * (only used for errors, which end the parse or are rare). */
static struct diag_loc loc_at_byte(const struct builder *b, size_t byte)
{
	size_t line, start;
	if (byte > b->len)
		byte = b->len;
	diag_line_col(b->text, byte, &line, &start);
	return diag_src_at(&b->in, clamp_int(line) + 1, clamp_int(byte - start) + 1);
}

/* seek: moves the cursor to character index of libyaml's input. */
static void seek(struct builder *b, size_t index)
{
	struct cursor *c = &b->cur;
	if (index < c->index) {
		c->index = 0;
		c->byte = b->skip;
		c->line = c->line_start = 0;
	}
	while (c->index < index && c->byte < b->len) {
		unsigned char ch = (unsigned char)b->text[c->byte];
		size_t w = ch < 0xC0 ? 1 : ch < 0xE0 ? 2 : ch < 0xF0 ? 3 : 4;
		if (ch == '\n') {
			c->line++;
			c->line_start = c->byte + 1;
		}
		c->byte = w > b->len - c->byte ? b->len : c->byte + w;
		c->index++;
	}
}

static struct diag_loc loc_at_mark(struct builder *b, yaml_mark_t m)
{
	seek(b, m.index);
	return diag_src_at(&b->in, clamp_int(b->cur.line) + 1, clamp_int(b->cur.byte - b->cur.line_start) + 1);
}

struct ynode *ynode_new(struct arena *a, enum ynode_kind kind, struct diag_loc loc)
{
	struct ynode *n = arena_alloc(a, sizeof *n);
	n->kind = kind;
	n->line = loc.line;
	n->col = loc.col;
	return n;
}

static struct ynode *new_node(struct builder *b, enum ynode_kind kind, yaml_mark_t m)
{
	return ynode_new(b->a, kind, loc_at_mark(b, m));
}

static void node_error(struct builder *b, const struct ynode *n, const char *msg)
{
	struct diag_loc loc = {b->in.path, b->in.src, b->in.src_len, n->line, n->col};
	diag_error(b->d, &loc, "%s", msg);
	b->errors++;
}

static void push(struct builder *b, struct ynode *n)
{
	if (b->nstack == b->capstack) {
		b->capstack = b->capstack ? b->capstack * 2 : 64;
		b->stack = xrealloc(b->stack, b->capstack * sizeof *b->stack);
	}
	b->stack[b->nstack++] = n;
}

static uint64_t key_hash(const void *ctx, uint32_t v)
{
	struct str k = ((const struct builder *)ctx)->stack[v - 1]->str;
	return hash_keyed(k.p, k.len);
}

static int key_eq(const void *ctx, uint32_t v, const void *key)
{
	return str_eq(((const struct builder *)ctx)->stack[v - 1]->str, *(const struct str *)key);
}

/* hash_find_or_add: the stack index of a key equal to the one at stack[at],
 * or at itself after remembering it. */
static size_t hash_find_or_add(struct builder *b, struct frame *f, size_t at)
{
	struct str key = b->stack[at]->str;
	uint64_t h = hash_keyed(key.p, key.len);
	uint32_t v = index_get(&f->keys, h, key_eq, b, &key);
	if (v)
		return v - 1;
	index_add(&f->keys, h, (uint32_t)(at + 1), 64, key_hash, b);
	return at;
}

/* find_duplicate: the earlier key equal to the key at stack[at], or NULL. */
static struct ynode *find_duplicate(struct builder *b, struct frame *f, size_t at)
{
	size_t nkeys = (at - f->base) / 2;
	struct str key = b->stack[at]->str;
	if (nkeys < DUP_SCAN_MAX) {
		for (size_t i = f->base; i < at; i += 2) {
			struct ynode *k = b->stack[i];
			if (k->kind == YNODE_SCALAR && str_eq(k->str, key))
				return k;
		}
		return NULL;
	}
	if (!f->hashed) { /* first time over the limit: index the keys so far */
		f->hashed = 1;
		for (size_t i = f->base; i < at; i += 2)
			if (b->stack[i]->kind == YNODE_SCALAR)
				hash_find_or_add(b, f, i);
	}
	size_t i = hash_find_or_add(b, f, at);
	return i == at ? NULL : b->stack[i];
}

/* add: hands a finished node to the collection being built, or makes it the
 * root. Map keys are checked here, as they arrive, so that errors come out
 * in the order of the text. */
static void add(struct builder *b, struct ynode *n)
{
	if (b->depth == 0) {
		b->root = n;
		return;
	}
	struct frame *f = &b->frames[b->depth - 1];
	int is_key = f->node->kind == YNODE_MAP && (b->nstack - f->base) % 2 == 0;
	push(b, n);
	if (!is_key)
		return;
	if (n->kind != YNODE_SCALAR) {
		node_error(b, n,
		           n->kind == YNODE_SEQ ? "a map key must be text, not a list"
		                                : "a map key must be text, not a map");
		return;
	}
	struct ynode *first = find_duplicate(b, f, b->nstack - 1);
	if (first) {
		struct diag_loc loc = {b->in.path, b->in.src, b->in.src_len, n->line, n->col};
		diag_error(b->d, &loc, "duplicate key '%.*s' (first defined on line %d)",
		           STR_FMT(n->str), first->line);
		b->errors++;
	}
}

/* coll_open: starts a collection; 0 if that would nest too deep. The limit keeps
 * the tree (and every recursive walk over it later) shallow whatever the
 * input: "[[[[..." a hundred thousand times stops here at level 65. */
static int coll_open(struct builder *b, enum ynode_kind kind, yaml_mark_t m)
{
	if (b->depth == YAML_MAX_DEPTH) {
		struct diag_loc loc = loc_at_mark(b, m);
		diag_error(b->d, &loc, "YAML nested deeper than %d levels", YAML_MAX_DEPTH);
		b->errors++;
		return 0;
	}
	struct frame *f = &b->frames[b->depth++];
	f->node = new_node(b, kind, m);
	f->base = b->nstack;
	f->hashed = 0;
	if (f->keys.cap)
		memset(f->keys.slot, 0, f->keys.cap * sizeof *f->keys.slot);
	f->keys.n = 0;
	return 1;
}

/* coll_close: copies the finished collection's entries into the arena. */
static void coll_close(struct builder *b)
{
	assert(b->depth > 0);
	struct frame *f = &b->frames[--b->depth];
	struct ynode *n = f->node;
	size_t count = b->nstack - f->base;
	/* Empty collections still get (empty) arrays, never NULL; the stack
	 * itself is NULL until the first entry. */
	struct ynode **from = count ? b->stack + f->base : NULL;
	if (n->kind == YNODE_SEQ) {
		n->len = count;
		n->items = arena_alloc(b->a, count * sizeof *n->items);
		if (count)
			memcpy(n->items, from, count * sizeof *n->items);
	} else {
		assert(count % 2 == 0);
		n->len = count / 2;
		n->keys = arena_alloc(b->a, n->len * sizeof *n->keys);
		n->items = arena_alloc(b->a, n->len * sizeof *n->items);
		for (size_t i = 0; i < n->len; i++) {
			n->keys[i] = from[2 * i];
			n->items[i] = from[2 * i + 1];
		}
	}
	b->nstack = f->base;
	add(b, n);
}

/* check_props: anchors and tags on a node. Aliases would let a small file
 * expand into a huge tree (the "billion laughs"), and folio's files need
 * none, so anchors are refused too. The only tags kept are those that mean
 * "a string": the non-specific "!" and "!!str". Returns 1 for those. */
static int check_props(struct builder *b, const yaml_event_t *e, const yaml_char_t *anchor,
                       const yaml_char_t *tag, int scalar)
{
	static const char core[] = "tag:yaml.org,2002:";
	struct diag_loc loc;
	if (anchor) {
		loc = loc_at_mark(b, e->start_mark);
		diag_error(b->d, &loc, "YAML aliases and anchors are not supported");
		b->errors++;
	}
	if (!tag)
		return 0;
	const char *t = (const char *)tag;
	if (scalar && (strcmp(t, "!") == 0 || strcmp(t, "tag:yaml.org,2002:str") == 0))
		return 1;
	loc = loc_at_mark(b, e->start_mark);
	if (strncmp(t, core, sizeof core - 1) == 0)
		diag_error(b->d, &loc, "YAML tag '!!%s' is not supported (hint: remove the tag)",
		           t + sizeof core - 1);
	else
		diag_error(b->d, &loc, "YAML tag '%s' is not supported (hint: remove the tag)", t);
	b->errors++;
	return 0;
}

/* colon_before: whether the line of text[byte] has ": " (or ':' then a tab)
 * before byte, i.e. the ':' at byte is a second one in "key: a: b". */
static int colon_before(const struct builder *b, size_t byte)
{
	size_t start = byte;
	while (start > 0 && b->text[start - 1] != '\n')
		start--;
	for (size_t i = start; i + 1 < byte; i++)
		if (b->text[i] == ':' && (b->text[i + 1] == ' ' || b->text[i + 1] == '\t'))
			return 1;
	return 0;
}

/* report_libyaml: turns the parser's error into a diagnostic at the most
 * useful of its two marks, keeping libyaml's wording and adding a hint for
 * the mistakes people make most in front matter. */
static void report_libyaml(struct builder *b, const yaml_parser_t *p)
{
	const char *problem = p->problem ? p->problem : "syntax error";
	const char *hint = NULL;
	struct diag_loc loc;
	char extra[96];
	struct diag_note opened = {{0}, NULL}; /* where a '[' or '{' left open is */

	if (p->error == YAML_MEMORY_ERROR)
		oom();
	b->errors++;
	if (p->error == YAML_READER_ERROR) {
		/* Offsets here are bytes, not characters: the text failed to
		 * decode. problem_value is the bad byte or code point. */
		size_t at = b->skip + p->problem_offset;
		if (strstr(problem, "trailing")) {
			/* libyaml points at the bad byte after the lead; the
			 * character starts at the lead. */
			while (at > b->skip && ((unsigned char)b->text[at - 1] & 0xC0) == 0x80)
				at--;
			if (at > b->skip && (unsigned char)b->text[at - 1] >= 0xC0)
				at--;
		}
		loc = loc_at_byte(b, at);
		if (strstr(problem, "UTF-8")) {
			hint = "save the file as UTF-8";
		} else if (p->problem_value >= 0) {
			snprintf(extra, sizeof extra, "remove the character U+%04X",
			         (unsigned)p->problem_value);
			hint = extra;
		}
		goto out;
	}

	yaml_mark_t m = p->problem_mark;
	seek(b, m.index);
	size_t byte = b->cur.byte;
	int at_tab = byte < b->len && b->text[byte] == '\t';
	/* At the end of the text, the caret under nothing says little; the
	 * context mark says what was left open (a quote, a '[', a key). */
	if (p->context && byte >= b->len)
		m = p->context_mark;

	if (at_tab || strstr(problem, "tab character")) {
		hint = "YAML does not allow tabs for indentation";
	} else if (strcmp(problem, "mapping values are not allowed in this context") == 0) {
		hint = colon_before(b, byte) ? "quote the value if it contains ': '"
		                             : "check the indentation";
	} else if (strcmp(problem, "could not find expected ':'") == 0) {
		/* The problem mark is past the line that lacks the ':'. */
		m = p->context_mark;
		hint = "write 'key: value', with a space after the ':'";
	} else if (strcmp(problem, "found character that cannot start any token") == 0) {
		hint = "quote the value";
	} else if (strcmp(problem, "found unknown escape character") == 0) {
		hint = "in double quotes write '\\\\' for a backslash, or use single quotes";
	} else if (strstr(problem, "end of stream") && p->context &&
	           strstr(p->context, "quoted scalar")) {
		hint = "the quoted value is not closed";
	} else if (strcmp(problem, "did not find expected key") == 0 ||
	           strcmp(problem, "did not find expected '-' indicator") == 0 ||
	           strcmp(problem, "block sequence entries are not allowed in this context") == 0) {
		hint = "check the indentation";
	} else if (byte >= b->len && p->context) {
		hint = "the text ends before this is closed";
	} else if (!strncmp(problem, "did not find expected ',' or ", 29) && p->context_mark.index < m.index) {
		/* a '[' or '{' never closed: libyaml finds out where the next
		 * key is, often lines later; say where it opened */
		seek(b, p->context_mark.index);
		char open = b->cur.byte < b->len ? b->text[b->cur.byte] : '[';
		open = open == '{' ? '{' : '[';
		opened.loc = loc_at_mark(b, p->context_mark);
		opened.msg = open == '[' ? "the '[' opened here" : "the '{' opened here";
		snprintf(extra, sizeof extra, "the '%c' on line %d is not closed: end the %s with '%c'", open,
			 opened.loc.line, open == '[' ? "list" : "map", open == '[' ? ']' : '}');
		hint = extra;
	}
	loc = loc_at_mark(b, m);
out:
	if (hint)
		diag_report(b->d, DIAG_ERROR, &loc, &opened, opened.msg ? 1 : 0, "YAML: %s (hint: %s)", problem, hint);
	else
		diag_error(b->d, &loc, "YAML: %s", problem);
}

/* run: feeds libyaml's events to the builder until the stream ends or an
 * error stops it. Returns 0 on a libyaml error or when parsing gave up. */
static int run(struct builder *b, yaml_parser_t *p)
{
	int docs = 0;
	for (;;) {
		yaml_event_t e;
		struct ynode *n;
		struct diag_loc loc;
		int go_on = 1;

		if (!yaml_parser_parse(p, &e)) {
			report_libyaml(b, p);
			return 0;
		}
		switch (e.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (docs++ > 0) {
				loc = loc_at_mark(b, e.start_mark);
				diag_error(b->d, &loc,
				           "only one YAML document is allowed "
				           "(hint: a '---' line starts a new one)");
				b->errors++;
				go_on = 0;
			}
			break;
		case YAML_ALIAS_EVENT:
			loc = loc_at_mark(b, e.start_mark);
			diag_error(b->d, &loc, "YAML aliases and anchors are not supported");
			b->errors++;
			/* An empty stand-in keeps the map's keys and values paired,
			 * so parsing goes on to find further errors. */
			n = new_node(b, YNODE_SCALAR, e.start_mark);
			n->str.p = "";
			add(b, n);
			break;
		case YAML_SCALAR_EVENT:
			n = new_node(b, YNODE_SCALAR, e.start_mark);
			n->quoted = e.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
			if (check_props(b, &e, e.data.scalar.anchor, e.data.scalar.tag, 1))
				n->quoted = 1;
			n->str.len = e.data.scalar.length;
			n->str.p = arena_strndup(b->a, (const char *)e.data.scalar.value,
			                         e.data.scalar.length);
			add(b, n);
			break;
		case YAML_SEQUENCE_START_EVENT:
			check_props(b, &e, e.data.sequence_start.anchor, e.data.sequence_start.tag,
			            0);
			go_on = coll_open(b, YNODE_SEQ, e.start_mark);
			break;
		case YAML_MAPPING_START_EVENT:
			check_props(b, &e, e.data.mapping_start.anchor, e.data.mapping_start.tag,
			            0);
			go_on = coll_open(b, YNODE_MAP, e.start_mark);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: coll_close(b); break;
		case YAML_STREAM_END_EVENT: go_on = -1; break;
		default: /* stream start, document end */ break;
		}
		yaml_event_delete(&e);
		if (go_on <= 0)
			return go_on < 0;
	}
}

struct ynode *yaml_parse(struct arena *a, struct diag *d, const char *path, const char *src,
                         size_t src_len, const char *text, size_t len, int line_offset)
{
	struct builder b;
	yaml_parser_t p;

	memset(&b, 0, sizeof b);
	b.a = a;
	b.d = d;
	b.in = (struct diag_src){path, src, src_len, line_offset};
	b.text = text ? text : "";
	b.len = text ? len : 0;
	/* libyaml would skip a BOM without counting it in its marks, or (with
	 * the encoding forced, as below) count it as a column; dropping it here
	 * keeps marks and bytes in step. UTF-8 is forced so that a UTF-16 file
	 * is an error rather than text whose marks no longer match bytes. */
	if (b.len >= 3 && memcmp(b.text, "\xEF\xBB\xBF", 3) == 0)
		b.skip = 3;
	b.cur.byte = b.skip;

	if (!yaml_parser_initialize(&p))
		oom();
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	yaml_parser_set_input_string(&p, (const unsigned char *)b.text + b.skip, b.len - b.skip);
	int ok = run(&b, &p);
	yaml_parser_delete(&p);

	for (int i = 0; i < YAML_MAX_DEPTH; i++)
		index_fini(&b.frames[i].keys);
	free(b.stack);
	if (!ok || b.errors)
		return NULL;

	/* No document, or one that is empty ("---" alone), is an empty map: a
	 * file of comments has no keys. */
	struct ynode *r = b.root;
	if (!r || (r->kind == YNODE_SCALAR && !r->quoted && r->str.len == 0)) {
		r = arena_alloc(a, sizeof *r);
		r->kind = YNODE_MAP;
		r->line = 1 + line_offset;
		r->col = 1;
	}
	return r;
}

struct ynode *yaml_map_get(const struct ynode *m, const char *key)
{
	if (!m || m->kind != YNODE_MAP)
		return NULL;
	size_t n = strlen(key);
	for (size_t i = 0; i < m->len; i++) {
		struct str k = m->keys[i]->str;
		if (k.len == n && memcmp(k.p, key, n) == 0)
			return m->items[i];
	}
	return NULL;
}

static int is_plain(const struct ynode *n)
{
	return n && n->kind == YNODE_SCALAR && !n->quoted;
}

/* matches: whether the scalar's text is one of the NULL-terminated words. */
static int matches(const struct ynode *n, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (str_eq_cstr(n->str, words[i]))
			return 1;
	return 0;
}

int yaml_is_null(const struct ynode *n)
{
	static const char *const words[] = {"", "~", "null", "Null", "NULL", NULL};
	return is_plain(n) && matches(n, words);
}

int yaml_as_bool(const struct ynode *n, int *out)
{
	/* YAML 1.2 core schema: not YAML 1.1's yes/no/on/off, which turn the
	 * country code "NO" into false. */
	static const char *const yes[] = {"true", "True", "TRUE", NULL};
	static const char *const no[] = {"false", "False", "FALSE", NULL};
	if (!is_plain(n))
		return 0;
	if (matches(n, yes))
		*out = 1;
	else if (matches(n, no))
		*out = 0;
	else
		return 0;
	return 1;
}

static int digit_value(char c, int base)
{
	int v;
	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < base ? v : -1;
}

int yaml_as_int(const struct ynode *n, int64_t *out)
{
	if (!is_plain(n))
		return 0;
	const char *s = n->str.p, *end = s + n->str.len;
	int base = 10, neg = 0;
	/* Core schema: [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+ (no sign on
	 * the last two). */
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
		base = s[1] == 'x' ? 16 : 8;
		s += 2;
	} else if (s < end && (*s == '-' || *s == '+')) {
		neg = *s == '-';
		s++;
	}
	if (s == end)
		return 0;
	/* Accumulate as a negative number, whose range is the larger, so that
	 * INT64_MIN parses and one past INT64_MAX does not. */
	int64_t v = 0;
	for (; s < end; s++) {
		int dv = digit_value(*s, base);
		if (dv < 0)
			return 0;
		if (v < (INT64_MIN + dv) / base)
			return 0;
		v = v * base - dv;
	}
	if (!neg) {
		if (v == INT64_MIN)
			return 0;
		v = -v;
	}
	*out = v;
	return 1;
}

/* is_float_syntax: s matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
static int is_float_syntax(const char *s, const char *end)
{
	size_t digits = 0;
	if (s < end && (*s == '-' || *s == '+'))
		s++;
	for (; s < end && *s >= '0' && *s <= '9'; s++)
		digits++;
	if (s < end && *s == '.') {
		s++;
		for (; s < end && *s >= '0' && *s <= '9'; s++)
			digits++;
	}
	if (!digits)
		return 0;
	if (s < end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < end && (*s == '-' || *s == '+'))
			s++;
		if (s == end || *s < '0' || *s > '9')
			return 0;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	return s == end;
}

int yaml_as_float(const struct ynode *n, double *out)
{
	static const char *const infs[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", NULL};
	static const char *const ninf[] = {"-.inf", "-.Inf", "-.INF", NULL};
	static const char *const nans[] = {".nan", ".NaN", ".NAN", NULL};
	if (!is_plain(n))
		return 0;
	if (matches(n, infs)) {
		*out = HUGE_VAL;
		return 1;
	}
	if (matches(n, ninf)) {
		*out = -HUGE_VAL;
		return 1;
	}
	if (matches(n, nans)) {
		*out = NAN;
		return 1;
	}
	if (!is_float_syntax(n->str.p, n->str.p + n->str.len))
		return 0;
	/* The syntax check above is the grammar; strtod only converts (a
	 * too-large exponent gives an infinity, as the schema's float would).
	 * str.p is NUL-terminated in the arena. */
	char *endp;
	double v = strtod(n->str.p, &endp);
	if (endp != n->str.p + n->str.len)
		return 0; /* a locale whose decimal point is not '.' */
	*out = v;
	return 1;
}

const char *yaml_kind_name(const struct ynode *n)
{
	int b;
	int64_t i;
	double f;
	assert(n);
	if (n->kind == YNODE_SEQ)
		return "list";
	if (n->kind == YNODE_MAP)
		return "map";
	if (yaml_is_null(n))
		return "null";
	if (yaml_as_bool(n, &b))
		return "boolean";
	if (yaml_as_int(n, &i))
		return "integer";
	if (yaml_as_float(n, &f))
		return "float";
	return "string";
}
