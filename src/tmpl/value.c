/* value.c: the template engine's dynamic values: construction, maps and
 * lists, truth, comparison, text and JSON forms, and YAML conversion. */
#include "internal.h"

#include "formats/yaml.h"
#include "base/hash.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tval tv_undef(void)
{
	struct tval v = {.kind = TV_UNDEF};
	return v;
}

struct tval tv_none(void)
{
	struct tval v = {.kind = TV_NONE};
	return v;
}

struct tval tv_bool(int b)
{
	struct tval v = {.kind = TV_BOOL};
	v.u.b = b != 0;
	return v;
}

struct tval tv_int(int64_t i)
{
	struct tval v = {.kind = TV_INT};
	v.u.i = i;
	return v;
}

struct tval tv_float(double f)
{
	struct tval v = {.kind = TV_FLOAT};
	v.u.f = f;
	return v;
}

struct tval tv_str(struct str s)
{
	struct tval v = {.kind = TV_STR};
	v.u.s = s;
	return v;
}

struct tval tv_cstr(const char *s)
{
	return tv_str(str_from(s));
}

struct tval tv_safe(struct str s)
{
	struct tval v = tv_str(s);
	v.safe = 1;
	return v;
}

struct tval tv_list(struct tlist *l)
{
	struct tval v = {.kind = TV_LIST};
	v.u.list = l;
	return v;
}

struct tval tv_map(struct tmap *m)
{
	struct tval v = {.kind = TV_MAP};
	v.u.map = m;
	return v;
}

struct tval tv_obj(const struct tobj_class *cls, const void *self)
{
	struct tval v = {.kind = TV_OBJ};
	v.u.obj.cls = cls;
	v.u.obj.self = self;
	return v;
}

struct tlist *tlist_new(struct arena *a, size_t cap)
{
	struct tlist *l = arena_alloc(a, sizeof *l);
	if (cap) {
		l->items = arena_alloc(a, cap * sizeof *l->items);
		l->cap = cap;
	}
	return l;
}

void tlist_push(struct arena *a, struct tlist *l, struct tval v)
{
	if (l->len == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		l->items = arena_realloc(a, l->items, l->cap * sizeof *l->items, cap * sizeof *l->items);
		l->cap = cap;
	}
	l->items[l->len++] = v;
}

struct tmap *tmap_new(struct arena *a, size_t cap)
{
	struct tmap *m = arena_alloc(a, sizeof *m);
	if (cap) {
		m->keys = arena_alloc(a, cap * sizeof *m->keys);
		m->vals = arena_alloc(a, cap * sizeof *m->vals);
		m->cap = cap;
	}
	return m;
}

void tmap_freeze(struct tmap *m)
{
	m->frozen = 1;
}

static void freeze_at(const struct tval *v, int depth)
{
	if (depth > 64)
		return;
	if (v->kind == TV_MAP) {
		tmap_freeze(v->u.map);
		for (size_t i = 0; i < v->u.map->len; i++)
			freeze_at(&v->u.map->vals[i], depth + 1);
	} else if (v->kind == TV_LIST) {
		for (size_t i = 0; i < v->u.list->len; i++)
			freeze_at(&v->u.list->items[i], depth + 1);
	}
}

void tval_freeze(const struct tval *v)
{
	freeze_at(v, 0);
}

#define TMAP_LINEAR 8 /* below this many keys a scan beats hashing */

static void tmap_index_insert(struct tmap *m, size_t pos)
{
	index_place(&m->index, hash_bytes(m->keys[pos].p, m->keys[pos].len), (uint32_t)(pos + 1));
}

/* tmap_reindex: the index made anew, in the arena (maps are never freed
 * one by one), for as many keys as the map has room for: a map made for
 * 40 keys (a post's) is indexed once, not at 9, 17 and 33. */
static void tmap_reindex(struct arena *a, struct tmap *m)
{
	m->index.cap = index_size(m->cap > m->len ? m->cap : m->len, 16);
	m->index.slot = arena_alloc(a, m->index.cap * sizeof *m->index.slot);
	m->index.n = 0;
	for (size_t i = 0; i < m->len; i++)
		tmap_index_insert(m, i);
}

static int tmap_eq(const void *ctx, uint32_t v, const void *key)
{
	return str_eq(((const struct tmap *)ctx)->keys[v - 1], *(const struct str *)key);
}

/* in_index: key's position in m's index, or -1 (a shared index holds the
 * shape's keys: those past m's own are not m's) */
static long in_index(const struct tmap *m, struct str key, uint64_t h)
{
	long at = (long)*index_slot(&m->index, h, tmap_eq, m, &key) - 1;
	return at < (long)m->len ? at : -1;
}

static long tmap_find(const struct tmap *m, struct str key)
{
	if (!m->index.cap) {
		for (size_t i = 0; i < m->len; i++)
			if (str_eq(m->keys[i], key))
				return (long)i;
		return -1;
	}
	return in_index(m, key, hash_bytes(key.p, key.len));
}

struct tmap *tmap_new_like(struct arena *a, const struct tmap *shape)
{
	struct tmap *m = tmap_new(a, 0);
	m->keys = shape->keys;
	m->index = shape->index;
	m->cap = shape->len;
	if (m->cap)
		m->vals = arena_alloc(a, m->cap * sizeof *m->vals);
	m->shared = 1;
	return m;
}

int tmap_shares_keys(const struct tmap *m)
{
	return m->shared;
}

/* tmap_unshare: m's own copy of its keys and index, in place of its shape's */
static void tmap_unshare(struct arena *a, struct tmap *m)
{
	struct str *keys = arena_alloc(a, (m->cap ? m->cap : 1) * sizeof *keys);
	if (m->len)
		memcpy(keys, m->keys, m->len * sizeof *keys);
	m->keys = keys;
	memset(&m->index, 0, sizeof m->index);
	m->shared = 0;
	if (m->len > TMAP_LINEAR)
		tmap_reindex(a, m);
}

void tmap_set(struct arena *a, struct tmap *m, struct str key, struct tval v)
{
	long at = tmap_find(m, key);
	if (at >= 0) {
		m->vals[at] = v;
		return;
	}
	if (m->shared) {
		if (m->len < m->cap && str_eq(m->keys[m->len], key)) {
			m->vals[m->len++] = v; /* the shape's next key */
			return;
		}
		tmap_unshare(a, m);
	}
	if (m->len == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 8;
		m->keys = arena_realloc(a, m->keys, m->cap * sizeof *m->keys, cap * sizeof *m->keys);
		m->vals = arena_realloc(a, m->vals, m->cap * sizeof *m->vals, cap * sizeof *m->vals);
		m->cap = cap;
	}
	m->keys[m->len] = key;
	m->vals[m->len] = v;
	m->len++;
	if (m->index.cap && m->len * 2 + 2 <= m->index.cap)
		tmap_index_insert(m, m->len - 1);
	else if (m->len > TMAP_LINEAR)
		tmap_reindex(a, m);
}

void tmap_set_cstr(struct arena *a, struct tmap *m, const char *key, struct tval v)
{
	tmap_set(a, m, str_from(key), v);
}

/* tmap_find_at: tmap_find with the key's hash made (h) and a guess of its
 * place (*hint, updated): the guess is checked first. */
static long tmap_find_at(const struct tmap *m, struct str key, uint64_t h, _Atomic uint32_t *hint)
{
	uint32_t g = atomic_load_explicit(hint, memory_order_relaxed);
	if (g < m->len && str_eq(m->keys[g], key))
		return (long)g;
	long at;
	if (!m->index.cap) {
		at = -1;
		for (size_t i = 0; i < m->len; i++)
			if (str_eq(m->keys[i], key)) {
				at = (long)i;
				break;
			}
	} else {
		at = in_index(m, key, h);
	}
	if (at >= 0)
		atomic_store_explicit(hint, (uint32_t)at, memory_order_relaxed);
	return at;
}

const struct tval *tmap_get_at(const struct tmap *m, struct str key, uint64_t h, _Atomic uint32_t *hint)
{
	long at = tmap_find_at(m, key, h, hint);
	tmap_touch_key(m, at);
	return at >= 0 ? &m->vals[at] : NULL;
}

int tval_attr_at(const struct tval *v, struct str key, uint64_t h, _Atomic uint32_t *hint, struct tval *out,
		 struct arena *a)
{
	if (v->kind == TV_MAP) {
		const struct tval *x = tmap_get_at(v->u.map, key, h, hint);
		if (!x)
			return 0;
		*out = *x;
		return 1;
	}
	return tval_attr(v, key, out, a);
}

const struct tval *tmap_get(const struct tmap *m, struct str key)
{
	long at = tmap_find(m, key);
	tmap_touch_key(m, at);
	return at >= 0 ? &m->vals[at] : NULL;
}

int tval_truthy(const struct tval *v)
{
	switch (v->kind) {
	case TV_UNDEF:
	case TV_NONE: return 0;
	case TV_BOOL: return v->u.b;
	case TV_INT: return v->u.i != 0;
	case TV_FLOAT: return v->u.f != 0.0;
	case TV_STR: return v->u.s.len != 0;
	case TV_LIST: return v->u.list->len != 0;
	/* not recorded: a map with an id always has the keys of its kind
	 * (render.c), so its truth never changes */
	case TV_MAP: return v->u.map->len != 0;
	case TV_OBJ: return v->u.obj.cls->len ? v->u.obj.cls->len(v->u.obj.self) != 0 : 1;
	default: return 1;
	}
}

const char *tval_type_name(const struct tval *v)
{
	switch (v->kind) {
	case TV_UNDEF: return "undefined";
	case TV_NONE: return "none";
	case TV_BOOL: return "boolean";
	case TV_INT: return "integer";
	case TV_FLOAT: return "float";
	case TV_STR: return "string";
	case TV_LIST: return "list";
	case TV_MAP: return "map";
	case TV_OBJ: return v->u.obj.cls->name;
	default: return "function";
	}
}

static void format_float(struct buf *b, double f)
{
	if (isnan(f)) {
		buf_puts(b, "nan");
		return;
	}
	if (isinf(f)) {
		buf_puts(b, f < 0 ? "-inf" : "inf");
		return;
	}
	/* The shortest digits that read back as the same double, laid out as
	 * Python's repr does: positional when the exponent is in [-4, 16),
	 * else scientific with at least two exponent digits (1e-05, 1e+16). */
	char tmp[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, f);
		if (strtod(tmp, NULL) == f)
			break;
	}
	char digits[24];
	size_t nd = 0;
	const char *p = tmp;
	if (*p == '-') {
		buf_putc(b, '-');
		p++;
	}
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && nd < sizeof digits - 1)
			digits[nd++] = *p;
	int exp = *p == 'e' ? atoi(p + 1) : 0;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (exp < -4 || exp >= 16) {
		buf_putc(b, digits[0]);
		if (nd > 1) {
			buf_putc(b, '.');
			buf_append(b, digits + 1, nd - 1);
		}
		buf_printf(b, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
		return;
	}
	if (exp < 0) {
		buf_puts(b, "0.");
		for (int i = -1; i > exp; i--)
			buf_putc(b, '0');
		buf_append(b, digits, nd);
		return;
	}
	/* exp >= 0: digits[0..exp] before the point (padded with zeros), the rest after */
	for (int i = 0; i <= exp; i++)
		buf_putc(b, (size_t)i < nd ? digits[i] : '0');
	buf_putc(b, '.');
	if ((size_t)exp + 1 < nd)
		buf_append(b, digits + exp + 1, nd - (size_t)exp - 1);
	else
		buf_putc(b, '0');
}

int tval_to_text(struct buf *b, const struct tval *v, struct arena *a, size_t limit)
{
	size_t start = b->len;
	switch (v->kind) {
	case TV_UNDEF: break;
	case TV_NONE: break; /* none prints as nothing, and joins as nothing */
	case TV_BOOL: buf_puts(b, v->u.b ? "true" : "false"); break;
	case TV_INT: buf_put_int(b, v->u.i, 1); break;
	case TV_FLOAT: format_float(b, v->u.f); break;
	case TV_STR: buf_put_str(b, v->u.s); break;
	case TV_FUNC: buf_puts(b, "<function>"); break;
	default: return tval_to_json(b, v, a, 0, limit);
	}
	return b->len - start > limit ? -1 : 0;
}

int tval_text(const struct tval *v, struct arena *a, size_t limit, struct str *out)
{
	if (v->kind == TV_STR) {
		*out = v->u.s;
		return 0;
	}
	struct buf b;
	buf_init(&b);
	int over = tval_to_text(&b, v, a, limit);
	*out = over ? (struct str){"", 0} : (struct str){arena_strndup(a, b.p ? b.p : "", b.len), b.len};
	buf_fini(&b);
	return over;
}

/* json_string: s as a JSON string (base/buf.c's one escaper). */
static void json_string(struct buf *b, struct str s, int html_safe)
{
	buf_put_json(b, s.p, s.len, html_safe ? JSON_ESC_HTML : 0);
}

/* json_out: where JSON goes, and when to stop: values that share their
 * parts ([x, x] nested forty times) are small in memory but huge as text. */
struct json_out {
	struct buf *b;
	struct arena *a;
	int html_safe;
	size_t end; /* b->len past which writing stops */
	int over;
};

static void json_value(struct json_out *o, const struct tval *v, int depth)
{
	struct buf *b = o->b;
	struct arena *a = o->a;
	int html_safe = o->html_safe;
	if (o->over || b->len > o->end) {
		o->over = 1;
		return;
	}
	if (depth > 64) { /* a self-referencing object must not recurse forever */
		buf_puts(b, "null");
		return;
	}
	switch (v->kind) {
	case TV_UNDEF:
	case TV_NONE:
	case TV_FUNC: buf_puts(b, "null"); break;
	case TV_BOOL: buf_puts(b, v->u.b ? "true" : "false"); break;
	case TV_INT: buf_put_int(b, v->u.i, 1); break;
	case TV_FLOAT:
		if (isnan(v->u.f) || isinf(v->u.f))
			buf_puts(b, "null");
		else
			format_float(b, v->u.f);
		break;
	case TV_STR: json_string(b, v->u.s, html_safe); break;
	case TV_LIST:
		buf_putc(b, '[');
		for (size_t i = 0; i < v->u.list->len; i++) {
			if (i)
				buf_putc(b, ',');
			json_value(o, &v->u.list->items[i], depth + 1);
		}
		buf_putc(b, ']');
		break;
	case TV_MAP:
		tmap_touch(v->u.map);
		buf_putc(b, '{');
		for (size_t i = 0; i < v->u.map->len; i++) {
			if (i)
				buf_putc(b, ',');
			json_string(b, v->u.map->keys[i], html_safe);
			buf_putc(b, ':');
			json_value(o, &v->u.map->vals[i], depth + 1);
		}
		buf_putc(b, '}');
		break;
	case TV_OBJ: {
		const struct tobj_class *cls = v->u.obj.cls;
		if (cls->len && cls->at) {
			size_t n = cls->len(v->u.obj.self);
			buf_putc(b, '[');
			for (size_t i = 0; i < n; i++) {
				struct tval it;
				if (i)
					buf_putc(b, ',');
				if (!cls->at(v->u.obj.self, i, &it, a))
					it = tv_none();
				json_value(o, &it, depth + 1);
			}
			buf_putc(b, ']');
		} else {
			buf_putc(b, '{');
			for (size_t i = 0; cls->fields && cls->fields[i]; i++) {
				struct tval f;
				if (!cls->get(v->u.obj.self, str_from(cls->fields[i]), &f, a))
					f = tv_none();
				if (i)
					buf_putc(b, ',');
				json_string(b, str_from(cls->fields[i]), html_safe);
				buf_putc(b, ':');
				json_value(o, &f, depth + 1);
			}
			buf_putc(b, '}');
		}
		break;
	}
	}
}

int tval_to_json(struct buf *b, const struct tval *v, struct arena *a, int html_safe, size_t limit)
{
	struct json_out o = {b, a, html_safe, limit > SIZE_MAX - b->len ? SIZE_MAX : b->len + limit, 0};
	json_value(&o, v, 0);
	return o.over || b->len > o.end ? -1 : 0;
}

struct tval tval_from_yaml(struct arena *a, const struct ynode *n)
{
	if (!n)
		return tv_none();
	switch (n->kind) {
	case YNODE_SEQ: {
		struct tlist *l = tlist_new(a, n->len);
		for (size_t i = 0; i < n->len; i++)
			tlist_push(a, l, tval_from_yaml(a, n->items[i]));
		return tv_list(l);
	}
	case YNODE_MAP: {
		struct tmap *m = tmap_new(a, n->len);
		for (size_t i = 0; i < n->len; i++)
			tmap_set(a, m, n->keys[i]->str, tval_from_yaml(a, n->items[i]));
		return tv_map(m);
	}
	default: {
		int b;
		int64_t i;
		double f;
		if (yaml_is_null(n))
			return tv_none();
		if (yaml_as_bool(n, &b))
			return tv_bool(b);
		if (yaml_as_int(n, &i))
			return tv_int(i);
		if (yaml_as_float(n, &f))
			return tv_float(f);
		return tv_str(n->str);
	}
	}
}

int tval_is_number(const struct tval *v)
{
	return v->kind == TV_INT || v->kind == TV_FLOAT;
}

double tval_as_double(const struct tval *v)
{
	return v->kind == TV_INT ? (double)v->u.i : v->kind == TV_FLOAT ? v->u.f : 0.0;
}

/* Lists built by a template can nest without bound ({% set ns.x = [ns.x] %}
 * in a loop); comparisons give up past this depth rather than recurse
 * off the stack. */
#define TVAL_MAX_NEST 64

static int equal_at(const struct tval *a, const struct tval *b, struct arena *ar, long *steps, int depth);

int tval_equal(const struct tval *a, const struct tval *b, struct arena *ar, long *steps)
{
	return equal_at(a, b, ar, steps, 0);
}

/* Every value looked at is a step: lists that hold the same list twice,
 * nested forty times, are 2^40 values to compare, though few in memory. */
static int equal_at(const struct tval *a, const struct tval *b, struct arena *ar, long *steps, int depth)
{
	if (depth > TVAL_MAX_NEST || ++*steps > TMPL_MAX_STEPS)
		return 0;
	if (tval_is_number(a) && tval_is_number(b)) {
		if (a->kind == TV_INT && b->kind == TV_INT)
			return a->u.i == b->u.i;
		return tval_as_double(a) == tval_as_double(b);
	}
	if ((a->kind == TV_NONE || a->kind == TV_UNDEF) && (b->kind == TV_NONE || b->kind == TV_UNDEF))
		return 1;
	if (a->kind != b->kind) {
		/* sequence objects compare with lists item by item */
		int64_t la = tval_length(a), lb = tval_length(b);
		int seq_a = a->kind == TV_LIST || (a->kind == TV_OBJ && a->u.obj.cls->at);
		int seq_b = b->kind == TV_LIST || (b->kind == TV_OBJ && b->u.obj.cls->at);
		if (!(seq_a && seq_b) || la != lb)
			return 0;
		for (int64_t i = 0; i < la; i++) {
			struct tval x, y;
			tval_item(a, (size_t)i, &x, ar);
			tval_item(b, (size_t)i, &y, ar);
			if (!equal_at(&x, &y, ar, steps, depth + 1))
				return 0;
		}
		return 1;
	}
	switch (a->kind) {
	case TV_BOOL: return a->u.b == b->u.b;
	case TV_STR:
		*steps += (long)(a->u.s.len / TMPL_STEP_BYTES);
		return str_eq(a->u.s, b->u.s);
	case TV_LIST:
		if (a->u.list == b->u.list) /* the same list (as Python's `is`) */
			return 1;
		if (a->u.list->len != b->u.list->len)
			return 0;
		for (size_t i = 0; i < a->u.list->len; i++)
			if (!equal_at(&a->u.list->items[i], &b->u.list->items[i], ar, steps, depth + 1))
				return 0;
		return 1;
	case TV_MAP:
		if (a->u.map == b->u.map)
			return 1;
		tmap_touch(a->u.map);
		tmap_touch(b->u.map);
		if (a->u.map->len != b->u.map->len)
			return 0;
		for (size_t i = 0; i < a->u.map->len; i++) {
			const struct tval *o = tmap_get(b->u.map, a->u.map->keys[i]);
			if (!o || !equal_at(&a->u.map->vals[i], o, ar, steps, depth + 1))
				return 0;
		}
		return 1;
	case TV_OBJ: return a->u.obj.self == b->u.obj.self && a->u.obj.cls == b->u.obj.cls;
	case TV_FUNC: return a->u.func == b->u.func;
	default: return 0;
	}
}

static int compare_at(const struct tval *a, const struct tval *b, int *ok, long *steps, int depth);

int tval_compare(const struct tval *a, const struct tval *b, int *ok, long *steps)
{
	return compare_at(a, b, ok, steps, 0);
}

static int compare_at(const struct tval *a, const struct tval *b, int *ok, long *steps, int depth)
{
	*ok = depth <= TVAL_MAX_NEST && ++*steps <= TMPL_MAX_STEPS;
	if (!*ok)
		return 0;
	if (tval_is_number(a) && tval_is_number(b)) {
		if (a->kind == TV_INT && b->kind == TV_INT)
			return (a->u.i > b->u.i) - (a->u.i < b->u.i);
		double x = tval_as_double(a), y = tval_as_double(b);
		return (x > y) - (x < y);
	}
	if (a->kind == TV_STR && b->kind == TV_STR) {
		*steps += (long)(a->u.s.len / TMPL_STEP_BYTES);
		return str_cmp(a->u.s, b->u.s);
	}
	if (a->kind == TV_BOOL && b->kind == TV_BOOL)
		return a->u.b - b->u.b;
	if (a->kind == TV_LIST && b->kind == TV_LIST) {
		if (a->u.list == b->u.list)
			return 0;
		size_t n = a->u.list->len < b->u.list->len ? a->u.list->len : b->u.list->len;
		for (size_t i = 0; i < n; i++) {
			int c = compare_at(&a->u.list->items[i], &b->u.list->items[i], ok, steps, depth + 1);
			if (!*ok || c)
				return c;
		}
		return (a->u.list->len > b->u.list->len) - (a->u.list->len < b->u.list->len);
	}
	*ok = 0;
	return 0;
}

size_t utf8_len(const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];
	size_t need = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
	if (need > n)
		return 1;
	for (size_t i = 1; i < need; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			return 1;
	return need;
}

/* ascii8: the 8 bytes at p are all ASCII (one character each). */
static inline int ascii8(const char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return !(w & 0x8080808080808080ull);
}

size_t utf8_count(struct str s)
{
	size_t n = 0, i = 0;
	while (i < s.len) {
		if (s.len - i >= 8 && ascii8(s.p + i)) {
			i += 8;
			n += 8;
		} else {
			i += utf8_len(s.p + i, s.len - i);
			n++;
		}
	}
	return n;
}

size_t utf8_offset(struct str s, size_t k)
{
	size_t i = 0;
	while (k && i < s.len) {
		if (k >= 8 && s.len - i >= 8 && ascii8(s.p + i)) {
			i += 8;
			k -= 8;
		} else {
			i += utf8_len(s.p + i, s.len - i);
			k--;
		}
	}
	return i;
}

int64_t tval_length(const struct tval *v)
{
	switch (v->kind) {
	case TV_STR: return (int64_t)utf8_count(v->u.s);
	case TV_LIST: return (int64_t)v->u.list->len;
	case TV_MAP: tmap_touch(v->u.map); return (int64_t)v->u.map->len;
	case TV_OBJ:
		if (v->u.obj.cls->len)
			return (int64_t)v->u.obj.cls->len(v->u.obj.self);
		return -1;
	default: return -1;
	}
}

int tval_item(const struct tval *v, size_t i, struct tval *out, struct arena *a)
{
	if (v->kind == TV_LIST) {
		if (i >= v->u.list->len)
			return 0;
		*out = v->u.list->items[i];
		return 1;
	}
	if (v->kind == TV_OBJ && v->u.obj.cls->at && v->u.obj.cls->len) {
		if (i >= v->u.obj.cls->len(v->u.obj.self))
			return 0;
		return v->u.obj.cls->at(v->u.obj.self, i, out, a);
	}
	return 0;
}

int tval_attr(const struct tval *v, struct str key, struct tval *out, struct arena *a)
{
	if (v->kind == TV_MAP) {
		const struct tval *x = tmap_get(v->u.map, key);
		if (!x)
			return 0;
		*out = *x;
		return 1;
	}
	if (v->kind == TV_OBJ)
		return v->u.obj.cls->get(v->u.obj.self, key, out, a);
	return 0;
}

int tval_as_list(const struct tval *v, struct arena *a, struct tlist **out)
{
	switch (v->kind) {
	case TV_LIST: *out = v->u.list; return 1;
	case TV_MAP: {
		tmap_touch(v->u.map);
		struct tlist *l = tlist_new(a, v->u.map->len);
		for (size_t i = 0; i < v->u.map->len; i++)
			tlist_push(a, l, tv_str(v->u.map->keys[i]));
		*out = l;
		return 1;
	}
	case TV_STR: {
		struct tlist *l = tlist_new(a, v->u.s.len);
		for (size_t i = 0; i < v->u.s.len;) {
			size_t n = utf8_len(v->u.s.p + i, v->u.s.len - i);
			struct str c = {v->u.s.p + i, n};
			tlist_push(a, l, tv_str(c));
			i += n;
		}
		*out = l;
		return 1;
	}
	case TV_OBJ: {
		const struct tobj_class *cls = v->u.obj.cls;
		if (cls->len && cls->at) {
			size_t n = cls->len(v->u.obj.self);
			struct tlist *l = tlist_new(a, n);
			for (size_t i = 0; i < n; i++) {
				struct tval it;
				if (!cls->at(v->u.obj.self, i, &it, a))
					it = tv_none();
				tlist_push(a, l, it);
			}
			*out = l;
			return 1;
		}
		if (cls->fields) {
			struct tlist *l = tlist_new(a, 8);
			for (size_t i = 0; cls->fields[i]; i++)
				tlist_push(a, l, tv_cstr(cls->fields[i]));
			*out = l;
			return 1;
		}
		return 0;
	}
	default: return 0;
	}
}

/* ---- dependency recording ---- */

_Thread_local struct tmpl_deps *tmpl_deps_current;

void tmpl_deps_init(struct tmpl_deps *r, size_t nbits)
{
	memset(r, 0, sizeof *r);
	r->nbits = nbits;
	r->seen = xcalloc(nbits / 64 + 1, sizeof *r->seen);
}

void tmpl_deps_fini(struct tmpl_deps *r)
{
	free(r->seen);
	free(r->ids);
	free(r->cids);
	memset(r, 0, sizeof *r);
}

void tmpl_deps_clear(struct tmpl_deps *r)
{
	for (size_t i = 0; i < r->n; i++)
		r->seen[r->ids[i] / 64] &= ~((uint64_t)1 << (r->ids[i] % 64));
	r->n = 0;
}

void tmpl_deps_add(struct tmpl_deps *r, uint32_t id)
{
	if (id >= r->nbits)
		return;
	if (r->cdepth) {
		if (r->cn == r->ccap) {
			r->ccap = r->ccap ? r->ccap * 2 : 64;
			r->cids = xrealloc(r->cids, r->ccap * sizeof *r->cids);
		}
		r->cids[r->cn++] = id;
	}
	uint64_t bit = (uint64_t)1 << (id % 64);
	if (r->seen[id / 64] & bit)
		return;
	r->seen[id / 64] |= bit;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->ids = xrealloc(r->ids, r->cap * sizeof *r->ids);
	}
	r->ids[r->n++] = id;
}

size_t tmpl_deps_capture_begin(struct tmpl_deps *r)
{
	r->cdepth++;
	return r->cn;
}

const uint32_t *tmpl_deps_capture_end(struct tmpl_deps *r, size_t mark, size_t *n)
{
	*n = r->cn - mark;
	const uint32_t *ids = r->cids ? r->cids + mark : NULL;
	/* the ids stay readable until the next id recorded */
	if (--r->cdepth == 0)
		r->cn = 0;
	return ids;
}

void tmpl_deps_record(struct tmpl_deps *r)
{
	tmpl_deps_current = r;
}

void tmpl_deps_touch(uint32_t id)
{
	if (id && tmpl_deps_current)
		tmpl_deps_add(tmpl_deps_current, id);
}
