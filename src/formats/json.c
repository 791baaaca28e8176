/* json.c: JSON (cJSON) -> folio's YAML tree, with positions and diagnostics. */
#include "formats/json.h"

#include "base/index.h"
#include "base/slug.h"
#include "base/hash.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

/* Objects with more keys than this look duplicates up in a hash table
 * instead of scanning the keys before, so a 100,000-key object is not
 * quadratic (as yaml.c). */
#define DUP_SCAN_MAX 8

/* cJSON keeps where its last error was in a global, written by every parse
 * that fails; parses go one at a time so that threads never race on it. */
static pthread_mutex_t cjson_lock = PTHREAD_MUTEX_INITIALIZER;

/* cJSON gives values, not where they are. The builder walks cJSON's tree
 * in document order and, beside it, a scanner over the text that cJSON has
 * already accepted: it only skips white space, strings and the runs of
 * number and literal characters to find where each key and value starts,
 * and the text of numbers as written. */
struct builder {
	struct arena *a;
	struct diag *d;
	struct diag_src in;
	const char *text;
	size_t len;
	size_t pos; /* the scanner: the next byte of text */
	int errors;
	/* where the scanner's line is, kept as pos moves forward */
	size_t line, line_start, counted;
};

static int clamp_int(size_t v)
{
	return v > 1000000000 ? 1000000000 : (int)v;
}

/* loc_at: the diagnostic location of text[at]; from the last one when at is
 * further on (nodes come in text order), else from the start. */
static struct diag_loc loc_at(struct builder *b, size_t at)
{
	if (at > b->len)
		at = b->len;
	if (at < b->counted) {
		b->counted = b->line = b->line_start = 0;
	}
	for (const char *p = b->text + b->counted, *end = b->text + at;
	     (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
		b->line++;
		b->line_start = (size_t)(p - b->text) + 1;
	}
	b->counted = at;
	return diag_src_at(&b->in, clamp_int(b->line) + 1, clamp_int(at - b->line_start) + 1);
}

static struct ynode *new_node(struct builder *b, enum ynode_kind kind, size_t at)
{
	return ynode_new(b->a, kind, loc_at(b, at));
}

static struct ynode *new_scalar(struct builder *b, size_t at, const char *s, size_t n, int quoted)
{
	struct ynode *y = new_node(b, YNODE_SCALAR, at);
	y->str.p = arena_strndup(b->a, s, n);
	y->str.len = n;
	y->quoted = quoted;
	return y;
}

/* cJSON's white space: every byte up to ' ' (JSON's own is four of them). */
static void skip_ws(struct builder *b)
{
	while (b->pos < b->len && (unsigned char)b->text[b->pos] <= ' ')
		b->pos++;
}

/* skip_string: past the string at pos (its '"'), escapes and all. */
static void skip_string(struct builder *b)
{
	size_t p = b->pos + 1;
	while (p < b->len && b->text[p] != '"')
		p += b->text[p] == '\\' ? 2 : 1;
	b->pos = p < b->len ? p + 1 : b->len;
}

/* skip_token: past a number's or a literal's run of characters. */
static size_t skip_token(struct builder *b)
{
	size_t start = b->pos;
	while (b->pos < b->len &&
	       (isalnum((unsigned char)b->text[b->pos]) || b->text[b->pos] == '+' ||
	        b->text[b->pos] == '-' || b->text[b->pos] == '.'))
		b->pos++;
	return b->pos - start;
}

/* skip_char: past c after white space, if it is there. */
static void skip_char(struct builder *b, char c)
{
	skip_ws(b);
	if (b->pos < b->len && b->text[b->pos] == c)
		b->pos++;
}

static uint64_t key_hash(const void *ctx, uint32_t v)
{
	struct str k = ((struct ynode *const *)ctx)[v - 1]->str;
	return hash_keyed(k.p, k.len);
}

static int key_eq(const void *ctx, uint32_t v, const void *key)
{
	return str_eq(((struct ynode *const *)ctx)[v - 1]->str, *(const struct str *)key);
}

/* check_duplicates: reports each key of m that an earlier key equals. */
static void check_duplicates(struct builder *b, const struct ynode *m)
{
	struct index ix = {0};
	for (size_t i = 0; i < m->len; i++) {
		const struct ynode *k = m->keys[i], *first = NULL;
		if (m->len <= DUP_SCAN_MAX) {
			for (size_t j = 0; j < i && !first; j++)
				if (str_eq(m->keys[j]->str, k->str))
					first = m->keys[j];
		} else {
			uint64_t h = hash_keyed(k->str.p, k->str.len);
			uint32_t v = index_get(&ix, h, key_eq, m->keys, &k->str);
			if (v)
				first = m->keys[v - 1];
			else
				index_add(&ix, h, (uint32_t)(i + 1), 64, key_hash, m->keys);
		}
		if (first) {
			struct diag_loc loc = {b->in.path, b->in.src, b->in.src_len, k->line,
			                       k->col};
			diag_error(b->d, &loc, "duplicate key '%.*s' (first defined on line %d)",
			           STR_FMT(k->str), first->line);
			b->errors++;
		}
	}
	index_fini(&ix);
}

/* walk: the tree of item, whose text starts at the scanner's position (after
 * white space), inside depth collections; the scanner ends past it. NULL
 * after reporting a collection nested deeper than YAML_MAX_DEPTH (which
 * keeps every later walk of the tree shallow, as yaml_parse does). */
static struct ynode *walk(struct builder *b, const cJSON *item, int depth)
{
	skip_ws(b);
	size_t at = b->pos;
	if (cJSON_IsString(item)) {
		skip_string(b);
		return new_scalar(b, at, item->valuestring, strlen(item->valuestring), 1);
	}
	if (!cJSON_IsArray(item) && !cJSON_IsObject(item)) {
		/* numbers, true, false, null: their text as written */
		size_t n = skip_token(b);
		return new_scalar(b, at, b->text + at, n, 0);
	}
	if (depth == YAML_MAX_DEPTH) {
		struct diag_loc loc = loc_at(b, at);
		diag_error(b->d, &loc, "JSON nested deeper than %d levels", YAML_MAX_DEPTH);
		b->errors++;
		return NULL;
	}
	int is_map = cJSON_IsObject(item);
	struct ynode *n = new_node(b, is_map ? YNODE_MAP : YNODE_SEQ, at);
	b->pos++; /* '{' or '[' */
	for (const cJSON *c = item->child; c; c = c->next)
		n->len++;
	n->items = arena_alloc(b->a, n->len * sizeof *n->items);
	if (is_map)
		n->keys = arena_alloc(b->a, n->len * sizeof *n->keys);
	size_t i = 0;
	for (const cJSON *c = item->child; c; c = c->next, i++) {
		if (is_map) {
			skip_ws(b);
			size_t kat = b->pos;
			skip_string(b);
			n->keys[i] = new_scalar(b, kat, c->string, strlen(c->string), 1);
			skip_char(b, ':');
		}
		if (!(n->items[i] = walk(b, c, depth + 1)))
			return NULL;
		skip_char(b, ',');
	}
	skip_char(b, is_map ? '}' : ']');
	if (is_map)
		check_duplicates(b, n);
	return n;
}

/* prev_char: the last byte before text[at] that is not white space, or 0. */
static char prev_char(const struct builder *b, size_t at)
{
	while (at > 0 && (unsigned char)b->text[at - 1] <= ' ')
		at--;
	return at > 0 ? b->text[at - 1] : 0;
}

/* What the text holds open at a byte: the brackets (where the innermost
 * YAML_MAX_DEPTH + 1 are) and a string not yet closed. Found by skipping
 * strings as the scanner does; the text need not be valid. */
struct open_state {
	size_t open[YAML_MAX_DEPTH + 1];
	int depth;
	size_t deep;   /* the first bracket past YAML_MAX_DEPTH, or (size_t)-1 */
	size_t string; /* where an unclosed string starts, or (size_t)-1 */
};

static void open_at(const struct builder *b, size_t end, struct open_state *st)
{
	st->depth = 0;
	st->deep = st->string = (size_t)-1;
	for (size_t p = 0; p < end && p < b->len; p++) {
		char c = b->text[p];
		if (c == '"') {
			size_t q = p + 1;
			while (q < end && q < b->len && b->text[q] != '"')
				q += b->text[q] == '\\' ? 2 : 1;
			if (q >= end || q >= b->len) {
				st->string = p;
				return;
			}
			p = q;
		} else if (c == '{' || c == '[') {
			if (st->depth == YAML_MAX_DEPTH) {
				st->deep = p;
				return;
			}
			st->open[st->depth++] = p;
		} else if ((c == '}' || c == ']') && st->depth > 0) {
			st->depth--;
		}
	}
}

/* report_syntax: cJSON's error, at the byte where it stopped. cJSON says
 * nothing but where (at a string it could not read, one byte past its
 * start; at the end of the text, on the last byte): the message says what
 * is there, and the hint the likely mistake, from what is open there and
 * the bytes around it. */
static void report_syntax(struct builder *b, size_t at)
{
	struct open_state st;
	struct diag_loc loc, open_loc;
	open_at(b, at, &st);
	if (st.deep != (size_t)-1) {
		loc = loc_at(b, st.deep);
		diag_error(b->d, &loc, "JSON nested deeper than %d levels", YAML_MAX_DEPTH);
		return;
	}
	if (at < b->len && (b->text[at] == '}' || b->text[at] == ']') && st.string == (size_t)-1 &&
	    st.depth > 0 && b->text[st.open[st.depth - 1]] != (b->text[at] == '}' ? '{' : '[')) {
		open_loc = loc_at(b, st.open[st.depth - 1]);
		loc = loc_at(b, at);
		diag_error(b->d, &loc,
		           "JSON: syntax error at '%c' (hint: the '%c' on line %d is not closed)",
		           b->text[at], b->text[st.open[st.depth - 1]], open_loc.line);
		return;
	}
	if (at + 1 >= b->len) { /* the end: what is left open? */
		open_at(b, b->len, &st);
		if (st.deep != (size_t)-1) {
			loc = loc_at(b, st.deep);
			diag_error(b->d, &loc, "JSON nested deeper than %d levels", YAML_MAX_DEPTH);
			return;
		}
		if (st.string != (size_t)-1) {
			loc = loc_at(b, st.string);
			diag_error(
			    b->d, &loc,
			    "JSON: this string is not closed (hint: a '\"' is missing at its end)");
			return;
		}
		if (st.depth > 0) {
			/* just after the last thing written */
			size_t end = b->len;
			while (end > 0 && (unsigned char)b->text[end - 1] <= ' ')
				end--;
			open_loc = loc_at(b, st.open[st.depth - 1]);
			loc = loc_at(b, end);
			diag_error(b->d, &loc,
			           "JSON: unexpected end of text (hint: the '%c' on line %d is not "
			           "closed)",
			           b->text[st.open[st.depth - 1]], open_loc.line);
			return;
		}
	}
	if (st.string != (size_t)-1 && st.string + 1 == at) {
		/* a string cJSON could not read: not closed on its line, or
		 * broken by a control character */
		loc = loc_at(b, st.string);
		diag_error(b->d, &loc,
		           "JSON: this string is not closed (hint: a '\"' is missing at its end)");
		return;
	}
	char c = b->text[at];
	const char *hint = NULL;
	if (at > 0 && st.depth > 0 && b->text[st.open[st.depth - 1]] == '{' &&
	    (prev_char(b, at - 1) == '{' || prev_char(b, at - 1) == ',') &&
	    b->text[at - 1] != '"') {
		/* a key cJSON wanted as a string: it points one past */
		at--;
		c = b->text[at];
		hint = c == '\''              ? "JSON strings and keys take double quotes"
		       : c == '/' || c == '#' ? "JSON has no comments"
		       : c == '}'             ? "remove the comma before it"
		                              : "write keys in double quotes: {\"key\": value}";
	} else if (c == '\'') {
		hint = "JSON strings and keys take double quotes";
	} else if (c == '/' || c == '#') {
		hint = "JSON has no comments";
	} else if ((c == '}' || c == ']') && prev_char(b, at) == ',') {
		hint = "remove the comma before it";
	} else if (c == '"' || c == '{' || c == '[') {
		hint = "a ',' is missing before it";
	} else if (c == '\\' || (unsigned char)c < ' ') {
		hint = "in a string write \\\\ \\\" \\n \\t or \\uXXXX, not other escapes or "
		       "control characters";
	} else if (c == '=') {
		hint = "write \"key\": value";
	} else if (isalpha((unsigned char)c) && at > 0 && isdigit((unsigned char)b->text[at - 1])) {
		hint = "write numbers as 12, -3.5 or 1e6, or text in double quotes";
	} else if (isalpha((unsigned char)c)) {
		hint = "write text in double quotes; true, false and null are lower case";
	}
	loc = loc_at(b, at);
	if ((unsigned char)c >= ' ' && (unsigned char)c < 0x7F) {
		if (hint)
			diag_error(b->d, &loc, "JSON: syntax error at '%c' (hint: %s)", c, hint);
		else
			diag_error(b->d, &loc, "JSON: syntax error at '%c'", c);
	} else if (hint) {
		diag_error(b->d, &loc, "JSON: syntax error (hint: %s)", hint);
	} else {
		diag_error(b->d, &loc, "JSON: syntax error");
	}
}

struct ynode *json_parse(struct arena *a, struct diag *d, const char *path, const char *src,
                         size_t src_len, const char *text, size_t len, int line_offset)
{
	struct builder b = {.a = a, .d = d, .in = {path, src, src_len, line_offset}, .text = text ? text : "",
			    .len = text ? len : 0};

	size_t ok_bytes = utf8_valid_prefix(b.text, b.len);
	if (ok_bytes < b.len) {
		struct diag_loc loc = loc_at(&b, ok_bytes);
		diag_error(d, &loc, "JSON: invalid UTF-8 (hint: save the file as UTF-8)");
		return NULL;
	}
	/* cJSON skips a BOM; so does the scanner */
	if (b.len >= 3 && memcmp(b.text, "\xEF\xBB\xBF", 3) == 0)
		b.pos = 3;
	skip_ws(&b);
	if (b.pos == b.len) { /* no value: an empty map, as an empty YAML file */
		struct ynode *r = arena_alloc(a, sizeof *r);
		r->kind = YNODE_MAP;
		r->line = 1 + line_offset;
		r->col = 1;
		return r;
	}

	/* cJSON reads a C string's worth at places: a terminated copy keeps
	 * its reads inside memory that is ours whatever the text. */
	char *copy = xmalloc(b.len + 1);
	memcpy(copy, b.text, b.len);
	copy[b.len] = '\0';
	const char *end = NULL;
	pthread_mutex_lock(&cjson_lock);
	cJSON *root = cJSON_ParseWithLengthOpts(copy, b.len, &end, 0);
	pthread_mutex_unlock(&cjson_lock);
	size_t stop = end && end >= copy && end <= copy + b.len ? (size_t)(end - copy) : 0;
	free(copy);
	if (!root) {
		report_syntax(&b, stop);
		return NULL;
	}

	struct ynode *r = walk(&b, root, 0);
	cJSON_Delete(root);
	if (r) {
		/* one value: after it, white space only */
		size_t after = stop;
		while (after < b.len && byte_in(" \t\r\n", b.text[after]))
			after++;
		if (after < b.len) {
			struct diag_loc loc = loc_at(&b, after);
			diag_error(d, &loc,
			           "JSON: text after the value (hint: a JSON file holds one value; "
			           "put the items in one object or array)");
			b.errors++;
		}
	}
	return r && !b.errors ? r : NULL;
}
