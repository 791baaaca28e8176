/* test_tmpl.c: the template engine's API: values, maps, objects, custom
 * filters, globals, repeated and concurrent renders. The language itself is
 * covered by the spec cases in tests/tmpl/. */
#include "harness.h"

#include "tmpl/tmpl.h"
#include "tmpl/internal.h" /* tval_text, tval_equal, tval_compare, TMPL_MAX_STEPS */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The diagnostics of the last add, check or render, without colour. */
static struct buf errs;

/* add: adds template name (path "templates/NAME") to env; returns the
 * number of syntax errors, their messages in errs. */
static int add(struct tmpl_env *env, const char *name, const char *src)
{
	struct diag d;
	char path[128];
	diag_init(&d, NULL);
	buf_reset(&errs);
	d.capture = &errs;
	snprintf(path, sizeof path, "templates/%s", name);
	int n = tmpl_env_add(env, name, path, src, strlen(src), &d);
	diag_fini(&d);
	return n;
}

static int check(struct tmpl_env *env)
{
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&errs);
	d.capture = &errs;
	int n = tmpl_env_check(env, &d);
	diag_fini(&d);
	return n;
}

/* render: renders name with vars; the output lands in out (reset first),
 * the diagnostics in errs. Returns the number of errors. */
static int render(const struct tmpl_env *env, const char *name, const struct tval *vars, struct buf *out)
{
	struct arena *a = arena_new();
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&errs);
	buf_reset(out);
	d.capture = &errs;
	int n = tmpl_render(env, name, vars, out, a, &d);
	diag_fini(&d);
	arena_free(a);
	return n;
}

static const char *text(const struct buf *b)
{
	return b->p ? b->p : "";
}

/* ---- values ---- */

static void test_values(void)
{
	struct arena *a = arena_new();
	struct buf b;
	buf_init(&b);

	struct tval vals[] = {tv_undef(), tv_none(), tv_bool(1), tv_int(-42), tv_float(0.5),
			      tv_cstr("a\"<"), tv_safe(STR_LIT("<b>"))};
	const char *texts[] = {"", "", "true", "-42", "0.5", "a\"<", "<b>"};
	const char *types[] = {"undefined", "none", "boolean", "integer", "float", "string", "string"};
	const int truth[] = {0, 0, 1, 1, 1, 1, 1};
	for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
		buf_reset(&b);
		INT_EQ(tval_to_text(&b, &vals[i], a, SIZE_MAX), 0);
		STR_EQ(text(&b), texts[i]);
		STR_EQ(tval_type_name(&vals[i]), types[i]);
		INT_EQ(tval_truthy(&vals[i]), truth[i]);
	}
	INT_EQ(tv_safe(STR_LIT("x")).safe, 1);
	INT_EQ(tv_str(STR_LIT("x")).safe, 0);
	INT_EQ(tval_truthy(&(struct tval){.kind = TV_STR}), 0); /* "" */
	INT_EQ(tval_truthy(&(struct tval){.kind = TV_FLOAT}), 0); /* 0.0 */

	/* floats print as Python prints them */
	const double fs[] = {3.0, 2.5, 1e16, 1e-5, 123456.789, -0.0, 1.0 / 3};
	const char *ftexts[] = {"3.0", "2.5", "1e+16", "1e-05", "123456.789", "-0.0", "0.3333333333333333"};
	for (size_t i = 0; i < sizeof fs / sizeof *fs; i++) {
		struct tval f = tv_float(fs[i]);
		buf_reset(&b);
		INT_EQ(tval_to_text(&b, &f, a, SIZE_MAX), 0);
		STR_EQ(text(&b), ftexts[i]);
	}

	/* lists grow past their capacity */
	struct tlist *l = tlist_new(a, 1);
	for (int i = 0; i < 100; i++)
		tlist_push(a, l, tv_int(i));
	INT_EQ(l->len, 100);
	INT_EQ(l->items[99].u.i, 99);
	struct tval lv = tv_list(l);
	INT_EQ(tval_truthy(&lv), 1);
	INT_EQ(tval_truthy(&(struct tval){.kind = TV_LIST, .u.list = tlist_new(a, 0)}), 0);

	/* JSON, plain and safe for HTML */
	struct tmap *m = tmap_new(a, 0);
	tmap_set_cstr(a, m, "s", tv_cstr("</script>&'\"\n"));
	tmap_set_cstr(a, m, "l", lv);
	tmap_set_cstr(a, m, "n", tv_none());
	l->len = 2;
	struct tval mv = tv_map(m);
	buf_reset(&b);
	INT_EQ(tval_to_json(&b, &mv, a, 0, SIZE_MAX), 0);
	STR_EQ(text(&b), "{\"s\":\"</script>&'\\\"\\n\",\"l\":[0,1],\"n\":null}");
	buf_reset(&b);
	INT_EQ(tval_to_json(&b, &mv, a, 1, SIZE_MAX), 0);
	STR_EQ(text(&b), "{\"s\":\"\\u003c/script\\u003e\\u0026\\u0027\\\"\\n\",\"l\":[0,1],\"n\":null}");
	/* the limit: exactly as long passes, a byte shorter does not */
	buf_reset(&b);
	INT_EQ(tval_to_json(&b, &lv, a, 0, 5), 0); /* [0,1] */
	STR_EQ(text(&b), "[0,1]");
	buf_reset(&b);
	INT_EQ(tval_to_json(&b, &lv, a, 0, 4), -1);
	buf_reset(&b);
	INT_EQ(tval_to_text(&b, &lv, a, 4), -1);
	struct str t;
	INT_EQ(tval_text(&lv, a, 4, &t), -1);
	INT_EQ(t.len, 0);
	INT_EQ(tval_text(&lv, a, 5, &t), 0);
	INT_EQ(t.len, 5);

	/* a list that holds one list twice, 60 times over: 2^60 leaves in
	 * 60 lists. Writing it stops at the limit, right after passing it;
	 * comparing it with a copy stops when the steps run out. */
	struct tval dag = tv_cstr("x"), dag2 = tv_cstr("x");
	for (int i = 0; i < 60; i++) {
		struct tlist *p = tlist_new(a, 2), *q = tlist_new(a, 2);
		tlist_push(a, p, dag);
		tlist_push(a, p, dag);
		tlist_push(a, q, dag2);
		tlist_push(a, q, dag2);
		dag = tv_list(p);
		dag2 = tv_list(q);
	}
	buf_reset(&b);
	INT_EQ(tval_to_json(&b, &dag, a, 0, 1000), -1);
	INT_EQ(b.len > 1000 && b.len < 1200, 1);
	long steps = 0;
	INT_EQ(tval_equal(&dag, &dag, a, &steps), 1); /* the same list: at once */
	INT_EQ(steps, 1);
	steps = TMPL_MAX_STEPS - 1000; /* (all of them would take a while under valgrind) */
	INT_EQ(tval_equal(&dag, &dag2, a, &steps), 0);
	INT_EQ(steps, TMPL_MAX_STEPS + 1);
	int ok;
	steps = TMPL_MAX_STEPS - 100;
	INT_EQ(tval_compare(&dag, &dag2, &ok, &steps), 0);
	INT_EQ(ok, 0);
	INT_EQ(steps, TMPL_MAX_STEPS + 1);
	/* strings cost a step per TMPL_STEP_BYTES bytes, as well */
	char *long_a = arena_alloc(a, 1601), *long_b = arena_alloc(a, 1601);
	memset(long_a, 'q', 1600);
	memset(long_b, 'q', 1600);
	struct tval sa = tv_str((struct str){long_a, 1600}), sb = tv_str((struct str){long_b, 1600});
	steps = 0;
	INT_EQ(tval_equal(&sa, &sb, a, &steps), 1);
	INT_EQ(steps, 1 + 1600 / TMPL_STEP_BYTES);
	steps = 0;
	INT_EQ(tval_compare(&sa, &sb, &ok, &steps) == 0 && ok, 1);
	INT_EQ(steps, 1 + 1600 / TMPL_STEP_BYTES);
	steps = 0;
	struct tval one = tv_int(1), two = tv_int(2);
	INT_EQ(tval_compare(&one, &two, &ok, &steps) < 0 && ok, 1);
	INT_EQ(steps, 1);

	buf_fini(&b);
	arena_free(a);
}

/* A map past the linear-scan size is hashed: every key must stay
 * reachable across the regrowths, and replacing keeps the order. */
static void test_big_map(void)
{
	struct arena *a = arena_new();
	struct tmap *m = tmap_new(a, 0);
	enum { N = 5000 };
	char key[32];
	for (int i = 0; i < N; i++) {
		int n = snprintf(key, sizeof key, "key-%d", i);
		tmap_set(a, m, (struct str){arena_strndup(a, key, (size_t)n), (size_t)n}, tv_int(i));
	}
	INT_EQ(m->len, N);
	int found = 0;
	for (int i = 0; i < N; i++) {
		snprintf(key, sizeof key, "key-%d", i);
		const struct tval *v = tmap_get(m, str_from(key));
		if (v && v->kind == TV_INT && v->u.i == i)
			found++;
	}
	INT_EQ(found, N);
	OK(tmap_get(m, STR_LIT("key-5000")) == NULL);
	OK(tmap_get(m, STR_LIT("")) == NULL);

	/* replace every third key: the length and the order stay */
	for (int i = 0; i < N; i += 3) {
		snprintf(key, sizeof key, "key-%d", i);
		tmap_set(a, m, str_from(arena_strndup(a, key, strlen(key))), tv_int(-i));
	}
	INT_EQ(m->len, N);
	INT_EQ(tmap_get(m, STR_LIT("key-3"))->u.i, -3);
	INT_EQ(tmap_get(m, STR_LIT("key-4"))->u.i, 4);
	OK(str_eq_cstr(m->keys[0], "key-0"));
	OK(str_eq_cstr(m->keys[N - 1], "key-4999"));

	/* a template sees the big map, in insertion order */
	struct tmpl_env *env = tmpl_env_new();
	OK(add(env, "m.html", "{{ m['key-4321'] }} {{ m | length }} {% for k in m %}{% if loop.index == 1001 %}{{ k }}{% endif %}{% endfor %}") == 0);
	struct tmap *vars = tmap_new(a, 1);
	tmap_set_cstr(a, vars, "m", tv_map(m));
	struct tval vv = tv_map(vars);
	struct buf out;
	buf_init(&out);
	INT_EQ(render(env, "m.html", &vv, &out), 0);
	STR_EQ(text(&out), "4321 5000 key-1000");
	buf_fini(&out);
	tmpl_env_free(env);
	arena_free(a);
}

/* ---- maps that share a shape's keys (tmap_new_like) ---- */

/* shaped_case: maps like a shape of n keys ("k0".."k{n-1}"): set in its
 * order they share its keys, are found only up to what they hold, and a
 * template reads them as it reads any map; a key out of order, or a new
 * one, gives the map its own keys, with every value kept */
static void shaped_case(size_t n)
{
	struct arena *a = arena_new();
	struct tmap *shape = tmap_new(a, n);
	char key[32];
	for (size_t i = 0; i < n; i++) {
		int len = snprintf(key, sizeof key, "k%zu", i);
		tmap_set(a, shape, (struct str){arena_strndup(a, key, (size_t)len), (size_t)len}, tv_none());
	}
	/* half set, in order: shared, and the rest not found */
	struct tmap *m = tmap_new_like(a, shape);
	for (size_t i = 0; i < n / 2; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		tmap_set(a, m, str_from(key), tv_int((int64_t)i));
	}
	OK(tmap_shares_keys(m));
	INT_EQ(m->len, n / 2);
	snprintf(key, sizeof key, "k%zu", n / 2);
	OK(tmap_get(m, str_from(key)) == NULL);
	snprintf(key, sizeof key, "k%zu", n - 1);
	OK(tmap_get(m, str_from(key)) == NULL);
	INT_EQ(tmap_get(m, STR_LIT("k0"))->u.i, 0);
	/* a key set again keeps the shape */
	tmap_set(a, m, STR_LIT("k0"), tv_int(100));
	OK(tmap_shares_keys(m));
	INT_EQ(tmap_get(m, STR_LIT("k0"))->u.i, 100);
	/* the rest in order: still shared, every key found */
	for (size_t i = n / 2; i < n; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		tmap_set(a, m, str_from(key), tv_int((int64_t)i));
	}
	OK(tmap_shares_keys(m));
	INT_EQ(m->len, n);
	snprintf(key, sizeof key, "k%zu", n - 1);
	INT_EQ(tmap_get(m, str_from(key))->u.i, (long long)n - 1);
	/* a new key: the map's own keys, the shape as it was */
	tmap_set(a, m, STR_LIT("extra"), tv_int(-1));
	OK(!tmap_shares_keys(m));
	INT_EQ(m->len, n + 1);
	INT_EQ(tmap_get(m, STR_LIT("extra"))->u.i, -1);
	INT_EQ(tmap_get(m, STR_LIT("k0"))->u.i, 100);
	INT_EQ(shape->len, n);
	OK(tmap_get(shape, STR_LIT("extra")) == NULL);
	OK(m->keys != shape->keys);

	/* out of order: own keys at once, the values where they were set */
	struct tmap *o = tmap_new_like(a, shape);
	tmap_set(a, o, STR_LIT("k1"), tv_int(1));
	tmap_set(a, o, STR_LIT("k0"), tv_int(0));
	OK(!tmap_shares_keys(o));
	INT_EQ(o->len, 2);
	OK(str_eq_cstr(o->keys[0], "k1"));
	INT_EQ(tmap_get(o, STR_LIT("k1"))->u.i, 1);
	INT_EQ(tmap_get(o, STR_LIT("k0"))->u.i, 0);
	INT_EQ(shape->len, n);
	OK(str_eq_cstr(shape->keys[0], "k0"));

	/* two maps of the shape, read by one template (its lookups remember
	 * where a key was: a shorter map must not find what it lacks) */
	struct tmap *full = tmap_new_like(a, shape), *part = tmap_new_like(a, shape);
	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		tmap_set(a, full, str_from(arena_strndup(a, key, strlen(key))), tv_int((int64_t)i * 10));
		if (i < 2)
			tmap_set(a, part, str_from(arena_strndup(a, key, strlen(key))), tv_int((int64_t)i));
	}
	snprintf(key, sizeof key, "k%zu", n - 1);
	struct tlist *l = tlist_new(a, 3);
	tlist_push(a, l, tv_map(full));
	tlist_push(a, l, tv_map(part));
	tlist_push(a, l, tv_map(full));
	char src[160];
	snprintf(src, sizeof src, "{%% for m in ms %%}[{{ m.k1 }} {{ m.%s is defined }} {{ m | length }}]{%% endfor %%}", key);
	struct tmpl_env *env = tmpl_env_new();
	OK(add(env, "s.html", src) == 0);
	struct tmap *vars = tmap_new(a, 1);
	tmap_set_cstr(a, vars, "ms", tv_list(l));
	struct tval vv = tv_map(vars);
	struct buf out, want;
	buf_init(&out);
	buf_init(&want);
	buf_printf(&want, "[10 true %zu][1 false 2][10 true %zu]", n, n);
	INT_EQ(render(env, "s.html", &vv, &out), 0);
	STR_EQ(text(&out), text(&want));
	buf_fini(&out);
	buf_fini(&want);
	tmpl_env_free(env);
	arena_free(a);
}

static void test_shaped_maps(void)
{
	shaped_case(5);  /* below TMAP_LINEAR: keys scanned */
	shaped_case(40); /* a post's: keys indexed */
}

/* ---- objects ---- */

struct post {
	const char *title, *date;
	int words;
	const char *tags[4];
};

static const struct post posts_data[] = {
	{"Zebra <stripes>", "2024-03-01", 1200, {"animals", "b&w", NULL}},
	{"apple pie", "2023-11-20", 300, {"food", NULL}},
	{"Mango", "2024-01-15", 800, {NULL}},
};

static int tags_len_of(const struct post *p)
{
	int n = 0;
	while (n < 4 && p->tags[n])
		n++;
	return n;
}

static size_t tags_len(const void *self)
{
	return (size_t)tags_len_of(self);
}

static int tags_at(const void *self, size_t i, struct tval *out, struct arena *a)
{
	const struct post *p = self;
	(void)a;
	if (i >= (size_t)tags_len_of(p))
		return 0;
	*out = tv_cstr(p->tags[i]);
	return 1;
}

static int tags_get(const void *self, struct str key, struct tval *out, struct arena *a)
{
	(void)self, (void)key, (void)a, (void)out;
	return 0;
}

static const struct tobj_class tags_class = {"tag list", tags_get, tags_len, tags_at, NULL};

static const char *const post_fields[] = {"title", "date", "words", "tags", NULL};

/* post_get: fields computed on demand, as the site model does. */
static int post_get(const void *self, struct str key, struct tval *out, struct arena *a)
{
	const struct post *p = self;
	if (str_eq_cstr(key, "title"))
		*out = tv_cstr(p->title);
	else if (str_eq_cstr(key, "date"))
		*out = tv_cstr(p->date);
	else if (str_eq_cstr(key, "words"))
		*out = tv_int(p->words);
	else if (str_eq_cstr(key, "tags"))
		*out = tv_obj(&tags_class, p);
	else if (str_eq_cstr(key, "slug")) { /* not in fields: made in the scratch arena */
		char tmp[64];
		int n = snprintf(tmp, sizeof tmp, "post-%d", p->words);
		*out = tv_str((struct str){arena_strndup(a, tmp, (size_t)n), (size_t)n});
	} else
		return 0;
	return 1;
}

static const struct tobj_class post_class = {"post", post_get, NULL, NULL, post_fields};

static size_t posts_len(const void *self)
{
	(void)self;
	return sizeof posts_data / sizeof *posts_data;
}

static int posts_at(const void *self, size_t i, struct tval *out, struct arena *a)
{
	(void)self, (void)a;
	if (i >= posts_len(NULL))
		return 0;
	*out = tv_obj(&post_class, &posts_data[i]);
	return 1;
}

static int posts_get(const void *self, struct str key, struct tval *out, struct arena *a)
{
	(void)self, (void)a;
	if (str_eq_cstr(key, "count")) {
		*out = tv_int((int64_t)posts_len(NULL));
		return 1;
	}
	return 0;
}

static const struct tobj_class posts_class = {"post list", posts_get, posts_len, posts_at, NULL};

static const char *const site_fields[] = {"title", "posts", NULL};

static int site_get(const void *self, struct str key, struct tval *out, struct arena *a)
{
	(void)self, (void)a;
	if (str_eq_cstr(key, "title"))
		*out = tv_cstr("My blog");
	else if (str_eq_cstr(key, "posts"))
		*out = tv_obj(&posts_class, NULL);
	else
		return 0;
	return 1;
}

static const struct tobj_class site_class = {"site", site_get, NULL, NULL, site_fields};

static void test_objects(void)
{
	struct tmpl_env *env = tmpl_env_new();
	struct buf out;
	buf_init(&out);
	struct tval site = tv_obj(&site_class, NULL);

	static const struct {
		const char *src, *want;
	} cases[] = {
		{"{{ title }}: {{ posts | length }} {{ posts.count }}", "My blog: 3 3"},
		{"{% for p in posts %}[{{ loop.index }} {{ p.title }} {{ p.slug }} {{ p.tags | join(',') }}]{% endfor %}",
		 "[1 Zebra &lt;stripes&gt; post-1200 animals,b&amp;w][2 apple pie post-300 food][3 Mango post-800 ]"},
		{"{{ posts[0].title }}|{{ posts[-1].title }}|{{ posts.1.words }}|{{ (posts | first).date }}|{{ (posts | last).words }}",
		 "Zebra &lt;stripes&gt;|Mango|300|2024-03-01|800"},
		{"{% for p in posts | sort('title') %}{{ p.words }} {% endfor %}", "300 800 1200 "},
		{"{% for p in posts | sort(attribute='date', reverse=true) %}{{ p.date }} {% endfor %}",
		 "2024-03-01 2024-01-15 2023-11-20 "},
		{"{{ posts | map('words') | sum }} {{ posts | sum('words') }} {{ posts | where('words', 300) | map('title') | join }}",
		 "2300 2300 apple pie"},
		{"{% for p in posts if p.tags %}{{ p.title | upper }};{% endfor %}", "ZEBRA &lt;STRIPES&gt;;APPLE PIE;"},
		{"{% for k, v in posts[1] %}{{ k }}={{ v }};{% endfor %}", "title=apple pie;date=2023-11-20;words=300;tags=[&quot;food&quot;];"},
		{"{{ posts[1] | json }}", "{\"title\":\"apple pie\",\"date\":\"2023-11-20\",\"words\":300,\"tags\":[\"food\"]}"},
		{"{{ 'food' in posts[1].tags }} {{ 'title' in posts[1] }} {{ 'nope' in posts[1] }} {{ posts[2].tags | length }}",
		 "true true false 0"},
		{"{% for g in posts | group_by('date') %}{{ g.list | length }}{% endfor %} {{ posts | reverse | map('words') | join(',') }}",
		 "111 800,300,1200"},
		{"{{ posts is sequence }} {{ posts[0] is mapping }} {{ posts[0].nope is defined }}", "true true false"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		INT_EQ(add(env, "o.html", cases[i].src), 0);
		INT_EQ(render(env, "o.html", &site, &out), 0);
		STR_EQ(text(&out), cases[i].want);
		STR_EQ(text(&errs), "");
	}

	/* a missing field suggests one of the class's fields */
	INT_EQ(add(env, "o.html", "{{ posts[0].titel }}"), 0);
	INT_EQ(render(env, "o.html", &site, &out), 1);
	STR_EQ(text(&errs), "templates/o.html:1:13: error: post has no attribute 'titel' (did you mean 'title'?)\n"
			    " 1 | {{ posts[0].titel }}\n"
			    "   |             ^\n");
	/* an object that is not a sequence cannot be indexed by number */
	INT_EQ(add(env, "o.html", "{{ posts[0][1] }}"), 0);
	INT_EQ(render(env, "o.html", &site, &out), 1);
	STR_EQ(text(&errs), "templates/o.html:1:12: error: cannot index post with an integer\n"
			    " 1 | {{ posts[0][1] }}\n"
			    "   |            ^\n");

	buf_fini(&out);
	tmpl_env_free(env);
}

/* ---- custom filters, globals, overrides ---- */

/* shout(times=1, mark="!"): upper case plus marks; errors on a non-string. */
static int f_shout(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	if (in->kind != TV_STR) {
		tmpl_call_error(c, "needs a string, not %s", tval_type_name(in));
		return -1;
	}
	int64_t times = args[0].kind == TV_INT ? args[0].u.i : 1;
	struct str mark = args[1].kind == TV_STR ? args[1].u.s : STR_LIT("!");
	if (times < 0 || times > 10) {
		tmpl_call_error(c, "times must be 0 to 10");
		return -1;
	}
	struct arena *a = tmpl_call_arena(c);
	OK(tmpl_call_env(c) != NULL);
	size_t n = in->u.s.len + (size_t)times * mark.len;
	char *p = arena_alloc(a, n + 1);
	for (size_t i = 0; i < in->u.s.len; i++) {
		char ch = in->u.s.p[i];
		p[i] = ch >= 'a' && ch <= 'z' ? (char)(ch - 32) : ch;
	}
	for (int64_t k = 0; k < times; k++)
		memcpy(p + in->u.s.len + (size_t)k * mark.len, mark.p, mark.len);
	*out = tv_str((struct str){p, n});
	return 0;
}

/* A filter that fails without reporting gets a generic message. */
static int f_silent_fail(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)c, (void)in, (void)args, (void)out;
	return -1;
}

static void test_filters_and_globals(void)
{
	struct tmpl_env *env = tmpl_env_new();
	struct buf out;
	buf_init(&out);
	tmpl_env_add_filter(env, "shout", f_shout, "times?,mark?");
	tmpl_env_add_filter(env, "broken", f_silent_fail, NULL);
	/* replacing a built-in filter */
	tmpl_env_add_filter(env, "upper", f_shout, "times?,mark?");

	struct arena *ga = arena_new(); /* the globals' memory outlives the env's use */
	struct tmap *site = tmap_new(ga, 2);
	tmap_set_cstr(ga, site, "title", tv_cstr("Blog & co"));
	tmpl_env_set_global(env, "site", tv_map(site));
	tmpl_env_set_global(env, "version", tv_cstr("1.0"));
	tmpl_env_set_global(env, "version", tv_cstr("2.0")); /* replaced */

	INT_EQ(add(env, "f.html", "{{ 'hi' | shout }} {{ 'hi' | shout(3, mark='?') }} {{ 'x' | upper(0) }} {{ site.title }} {{ version }}"), 0);
	INT_EQ(render(env, "f.html", NULL, &out), 0);
	STR_EQ(text(&out), "HI! HI??? X Blog &amp; co 2.0");

	/* the render's variables hide the globals */
	struct arena *a = arena_new();
	struct tmap *vars = tmap_new(a, 1);
	tmap_set_cstr(a, vars, "version", tv_cstr("local"));
	struct tval vv = tv_map(vars);
	INT_EQ(add(env, "g.html", "{{ version }} {{ site.title | length }}"), 0);
	INT_EQ(render(env, "g.html", &vv, &out), 0);
	STR_EQ(text(&out), "local 9");

	/* errors of custom filters carry the filter's name and position */
	INT_EQ(add(env, "e.html", "{{ 1 | shout }}\n{{ 'a' | shout(11) }}\n{{ 1 | broken }}"), 0);
	INT_EQ(render(env, "e.html", NULL, &out), 3);
	STR_EQ(text(&errs), "templates/e.html:1:8: error: shout: needs a string, not integer\n"
			    " 1 | {{ 1 | shout }}\n"
			    "   |        ^\n"
			    "templates/e.html:2:10: error: shout: times must be 0 to 10\n"
			    " 2 | {{ 'a' | shout(11) }}\n"
			    "   |          ^\n"
			    "templates/e.html:3:8: error: filter 'broken' failed\n"
			    " 3 | {{ 1 | broken }}\n"
			    "   |        ^\n");
	/* parameters are checked when the template is parsed */
	INT_EQ(add(env, "p.html", "{{ 'a' | shout(1, 2, 3) }}{{ 'a' | shout(tims=2) }}{{ 'a' | shoot }}"), 3);
	STR_EQ(text(&errs), "templates/p.html:1:10: error: filter 'shout' takes at most 2 arguments (3 given)\n"
			    " 1 | {{ 'a' | shout(1, 2, 3) }}{{ 'a' | shout(tims=2) }}{{ 'a' | shoot }}\n"
			    "   |          ^\n"
			    "templates/p.html:1:42: error: filter 'shout' has no parameter 'tims' (did you mean 'times'?)\n"
			    " 1 | {{ 'a' | shout(1, 2, 3) }}{{ 'a' | shout(tims=2) }}{{ 'a' | shoot }}\n"
			    "   |                                          ^\n"
			    "templates/p.html:1:61: error: unknown filter 'shoot' (did you mean 'shout'?)\n"
			    " 1 | {{ 'a' | shout(1, 2, 3) }}{{ 'a' | shout(tims=2) }}{{ 'a' | shoot }}\n"
			    "   |                                                             ^\n");
	/* a template with syntax errors does not render, and says so once */
	INT_EQ(render(env, "p.html", NULL, &out), 1);
	STR_EQ(text(&out), "");

	/* a template of the same name replaces the earlier one (a site's file
	 * overriding the theme's), also for those that include it */
	INT_EQ(add(env, "base.html", "theme[{% include 'part.html' %}]"), 0);
	INT_EQ(add(env, "part.html", "theme part"), 0);
	INT_EQ(add(env, "part.html", "site part"), 0);
	INT_EQ(check(env), 0);
	INT_EQ(render(env, "base.html", NULL, &out), 0);
	STR_EQ(text(&out), "theme[site part]");
	OK(tmpl_env_has(env, "part.html"));
	OK(!tmpl_env_has(env, "nope.html"));

	/* rendering a template that does not exist */
	INT_EQ(render(env, "nope.html", NULL, &out), 1);
	STR_EQ(text(&errs), "nope.html: error: template 'nope.html' not found\n");

	buf_fini(&out);
	tmpl_env_free(env);
	arena_free(a);
	arena_free(ga);
}

/* ---- options ---- */

static void test_options(void)
{
	struct tmpl_env *env = tmpl_env_new();
	struct buf out;
	buf_init(&out);
	INT_EQ(add(env, "s.html", "[{{ nope }}]"), 0);
	INT_EQ(render(env, "s.html", NULL, &out), 1);
	tmpl_env_set_strict(env, 0);
	INT_EQ(render(env, "s.html", NULL, &out), 0);
	STR_EQ(text(&out), "[]");

	tmpl_env_set_base_url(env, "https://example.org/x/");
	INT_EQ(add(env, "u.html", "{{ 'a/' | abs_url }} {{ 'a/' | rel_url }}"), 0);
	INT_EQ(render(env, "u.html", NULL, &out), 0);
	STR_EQ(text(&out), "https://example.org/x/a/ /x/a/");
	tmpl_env_set_base_url(env, NULL);
	INT_EQ(render(env, "u.html", NULL, &out), 0);
	STR_EQ(text(&out), "/a/ /a/");

	/* the output cap leaves no partial page behind the error */
	tmpl_env_set_limits(env, 10, 100);
	INT_EQ(add(env, "big.html", "0123456789{{ 'x' }}"), 0);
	INT_EQ(render(env, "big.html", NULL, &out), 1);
	OK(out.len <= 10);
	tmpl_env_set_limits(env, 1000, 2);
	INT_EQ(add(env, "r.html", "{% macro m(n) %}{{ m(n) }}{% endmacro %}{{ m(1) }}"), 0);
	INT_EQ(render(env, "r.html", NULL, &out), 1);
	OK(strstr(text(&errs), "templates nested deeper than 2 levels") != NULL);

	/* invalid UTF-8 in the data: the case filters write U+FFFD, never a broken sequence */
	tmpl_env_set_limits(env, 1000, 100);
	struct arena *a = arena_new();
	struct tmap *vars = tmap_new(a, 1);
	tmap_set_cstr(a, vars, "s", tv_cstr("a\xFF\xC3z"));
	struct tval vv = tv_map(vars);
	INT_EQ(add(env, "x.html", "{{ s | upper }}|{{ s | length }}|{{ s | truncate(2) }}"), 0);
	INT_EQ(render(env, "x.html", &vv, &out), 0);
	STR_EQ(text(&out), "A\xEF\xBF\xBD\xEF\xBF\xBDZ|4|a\xFF\xE2\x80\xA6");
	arena_free(a);
	buf_fini(&out);
	tmpl_env_free(env);
}

/* ---- pieces: long strings left where they are ---- */

/* joined: the page that out and pieces describe, in one buffer */
static void joined(const struct buf *out, const struct tmpl_pieces *ps, struct buf *page)
{
	buf_reset(page);
	size_t from = 0;
	for (size_t k = 0; k < ps->n; k++) {
		OK(ps->v[k].at >= from && ps->v[k].at <= out->len);
		buf_append(page, text(out) + from, ps->v[k].at - from);
		buf_append(page, ps->v[k].s.p, ps->v[k].s.len);
		from = ps->v[k].at;
	}
	buf_append(page, text(out) + from, out->len - from);
}

static void test_pieces(void)
{
	struct tmpl_env *env = tmpl_env_new();
	struct arena *a = arena_new();
	size_t n = TMPL_PIECE_MIN + 5;
	char *big = arena_alloc(a, n + 1);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	big[n] = '\0';
	struct tmap *vars = tmap_new(a, 4);
	tmap_set_cstr(a, vars, "big", tv_safe((struct str){big, n}));
	tmap_set_cstr(a, vars, "small", tv_safe(STR_LIT("<b>")));
	tmap_set_cstr(a, vars, "text", tv_str((struct str){big, n}));
	struct tval vv = tv_map(vars);
	INT_EQ(add(env, "base.html", "<html>{% block body %}{% endblock %}</html>"), 0);
	INT_EQ(add(env, "p.html",
		   "{% extends 'base.html' %}{% block body %}<main>{{ big | safe }}{{ small }}{{ big }}</main>"
		   "{% set cap %}[{{ big }}]{% endset %}{{ cap | length }}{{ text }}{% endblock %}"),
	       0);
	INT_EQ(check(env), 0);
	struct buf want, out, page;
	buf_init(&want);
	buf_init(&out);
	buf_init(&page);
	INT_EQ(render(env, "p.html", &vv, &want), 0);
	struct tmpl_pieces ps = {NULL, 0, 0};
	struct diag d;
	diag_init(&d, NULL);
	struct arena *scratch = arena_new();
	INT_EQ(tmpl_render_pieces(env, "p.html", &vv, &out, &ps, scratch, &d), 0);
	/* the two prints of big as it is are pieces, not copies; the capture
	 * (whose length is printed) and the escaped text are copied */
	INT_EQ(ps.n, 2);
	OK(ps.v[0].s.p == big && ps.v[0].s.len == n && ps.v[1].s.p == big);
	INT_EQ(ps.v[0].at, strlen("<html><main>"));
	INT_EQ(ps.v[1].at, strlen("<html><main><b>"));
	INT_EQ(out.len + 2 * n, want.len);
	joined(&out, &ps, &page);
	OK(page.len == want.len && memcmp(page.p, want.p, want.len) == 0);
	/* a second render empties the list first; without pieces, nothing
	 * is left out */
	buf_reset(&out);
	INT_EQ(tmpl_render_pieces(env, "p.html", &vv, &out, &ps, scratch, &d), 0);
	INT_EQ(ps.n, 2);
	buf_reset(&out);
	INT_EQ(tmpl_render_pieces(env, "p.html", &vv, &out, NULL, scratch, &d), 0);
	OK(out.len == want.len && memcmp(out.p, want.p, want.len) == 0);

	/* the output cap counts the pieces' bytes */
	tmpl_env_set_limits(env, 2 * n, 100);
	INT_EQ(add(env, "three.html", "{{ big | safe }}{{ big | safe }}{{ big | safe }}"), 0);
	buf_reset(&out);
	buf_reset(&errs);
	d.capture = &errs;
	INT_EQ(tmpl_render_pieces(env, "three.html", &vv, &out, &ps, scratch, &d), 1);
	INT_EQ(ps.n, 2);
	OK(strstr(text(&errs), "output") != NULL);
	diag_fini(&d);
	free(ps.v);
	arena_free(scratch);
	buf_fini(&want);
	buf_fini(&out);
	buf_fini(&page);
	arena_free(a);
	tmpl_env_free(env);
}

/* ---- repeated and concurrent renders ---- */

static const char *const page_src[] = {
	"{% extends 'base.html' %}{% block body %}{% for p in posts %}{{ card(p) }}{% endfor %}{% endblock %}",
	"{% extends 'base.html' %}{% block body %}{{ posts | map('title') | join(', ') }} {{ posts | sum('words') }}{% endblock %}",
	"{% extends 'base.html' %}{% block body %}{% for g in posts | group_by('date') %}{{ g.grouper | date('%B %Y') }} {% endfor %}{% endblock %}",
	"{% include 'nav.html' %}{% for i in range(50) %}{{ i is even and '.' or ',' }}{% endfor %}{{ posts | json }}",
};

static struct tmpl_env *pages_env(void)
{
	struct tmpl_env *env = tmpl_env_new();
	OK(add(env, "base.html", "{% import 'macros.html' as m %}<title>{{ title }}</title>{% block body %}{% endblock %}{% include 'nav.html' %}") == 0);
	OK(add(env, "macros.html", "{% macro card(p) %}<article>{{ p.title }}</article>{% endmacro %}") == 0);
	OK(add(env, "nav.html", "<nav>{% for p in posts %}{{ loop.index }}{% endfor %}</nav>") == 0);
	/* the pages use the macro of base.html's import through their own import */
	for (int i = 0; i < 4; i++) {
		char name[32];
		snprintf(name, sizeof name, "page%d.html", i);
		struct buf src;
		buf_init(&src);
		buf_puts(&src, i == 0 ? "{% from 'macros.html' import card %}" : "");
		buf_puts(&src, page_src[i]);
		OK(add(env, name, src.p) == 0);
		buf_fini(&src);
	}
	OK(check(env) == 0);
	return env;
}

static void test_repeat(void)
{
	struct tmpl_env *env = pages_env();
	struct tval site = tv_obj(&site_class, NULL);
	struct arena *a = arena_new();
	struct buf out, first;
	buf_init(&out);
	buf_init(&first);
	struct diag d;
	diag_init(&d, NULL);
	int errors = 0, same = 0;
	for (int i = 0; i < 10000; i++) {
		buf_reset(&out);
		errors += tmpl_render(env, "page0.html", &site, &out, a, &d);
		if (i == 0)
			buf_put_str(&first, buf_str(&out));
		else
			same += out.len == first.len && memcmp(out.p, first.p, out.len) == 0;
		if (i % 500 == 499) { /* as a build would between pages */
			arena_free(a);
			a = arena_new();
		}
	}
	INT_EQ(errors, 0);
	INT_EQ(same, 9999);
	STR_EQ(text(&first), "<title>My blog</title><article>Zebra &lt;stripes&gt;</article><article>apple pie</article>"
			     "<article>Mango</article><nav>123</nav>");
	diag_fini(&d);
	buf_fini(&out);
	buf_fini(&first);
	arena_free(a);
	tmpl_env_free(env);
}

struct job {
	const struct tmpl_env *env;
	int page;
	int rounds;
	const char *want; /* the single-threaded render */
	int mismatches, errors;
};

/* render_pages: one thread's work: its own buf, arena and diag. */
static void *render_pages(void *arg)
{
	struct job *j = arg;
	struct tval site = tv_obj(&site_class, NULL);
	char name[32];
	snprintf(name, sizeof name, "page%d.html", j->page);
	struct diag d;
	diag_init(&d, NULL);
	struct buf out;
	buf_init(&out);
	for (int i = 0; i < j->rounds; i++) {
		struct arena *a = arena_new();
		buf_reset(&out);
		j->errors += tmpl_render(j->env, name, &site, &out, a, &d);
		if (strcmp(text(&out), j->want) != 0)
			j->mismatches++;
		arena_free(a);
	}
	buf_fini(&out);
	diag_fini(&d);
	return NULL;
}

static void test_threads(void)
{
	struct tmpl_env *env = pages_env();
	struct tval site = tv_obj(&site_class, NULL);
	struct buf want[4];
	struct job jobs[4];
	for (int i = 0; i < 4; i++) {
		char name[32];
		snprintf(name, sizeof name, "page%d.html", i);
		buf_init(&want[i]);
		INT_EQ(render(env, name, &site, &want[i]), 0);
		jobs[i] = (struct job){env, i, 300, text(&want[i]), 0, 0};
	}
	STR_EQ(text(&want[1]), "<title>My blog</title>Zebra &lt;stripes&gt;, apple pie, Mango 2300<nav>123</nav>");
	STR_EQ(text(&want[2]), "<title>My blog</title>March 2024 November 2023 January 2024 <nav>123</nav>");
	pthread_t th[4];
	for (int i = 0; i < 4; i++)
		OK(pthread_create(&th[i], NULL, render_pages, &jobs[i]) == 0);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 4; i++) {
		INT_EQ(jobs[i].errors, 0);
		INT_EQ(jobs[i].mismatches, 0);
		buf_fini(&want[i]);
	}
	tmpl_env_free(env);
}

/* Renders that fail, at every stage, must free what they took: the asan
 * build runs with leak detection. */
static void test_error_paths(void)
{
	struct tmpl_env *env = tmpl_env_new();
	struct buf out;
	buf_init(&out);
	static const char *const bad[] = {
		"{% macro m() %}{{ nope }}{% endmacro %}{{ m() }}{% set x %}{{ nope2 }}{% endset %}",
		"{% macro m(n) %}{% set b %}{{ m(n) }}{% endset %}{{ b }}{% endmacro %}{{ m(1) }}",
		"{% for i in range(100) %}{% set s %}{{ 'x' * 100 }}{% endset %}{{ s }}{% endfor %}",
		"{{ [1, 'a'] | sort }}{{ 'x' | date }}{{ none | join }}{{ 1 // 0 }}",
		"{% include 'missing.html' ignore missing %}{% include name %}",
		"{{ unclosed",
		"{% for x in y %}",
		"{% if %}{% elif %}{% else %}{% endif %}{{ a | nofilter(1, b=2) }}{% endblock %}",
		"{% extends 'p.html' %}{% block a %}{{ super() }}{{ super() }}{% endblock %}",
	};
	/* a render stops at its 101st error (the ones after would not be
	 * shown): the same error in each of 1000 iterations */
	INT_EQ(add(env, "errloop.html", "{% for i in range(1000) %}[{{ i }}]{{ nope }}{% endfor %}"), 0);
	INT_EQ(render(env, "errloop.html", NULL, &out), DIAG_MAX_FILE_ERRORS + 1);
	OK(strstr(text(&out), "[100]") != NULL);
	OK(strstr(text(&out), "[101]") == NULL);
	INT_EQ(add(env, "p.html", "{% block a %}{{ 1 / 0 }}{% endblock %}"), 0);
	/* text that is not UTF-8 would go to pages as it is */
	INT_EQ(add(env, "u.html", "ok\n\xc3\xa9 {{ x }} \xff"), 1);
	STR_EQ(text(&errs), "templates/u.html:2:11: error: not UTF-8: byte 0xFF here (hint: save the file as UTF-8)\n"
			    " 2 | \xc3\xa9 {{ x }} \xff\n"
			    "   |           ^\n");
	OK(render(env, "u.html", NULL, &out) > 0);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char name[16];
		snprintf(name, sizeof name, "bad%zu.html", i);
		int syntax = add(env, name, bad[i]);
		tmpl_env_set_limits(env, 2000, 10);
		int n = render(env, name, NULL, &out);
		OK(syntax > 0 || n > 0);
	}
	buf_fini(&out);
	tmpl_env_free(env);
}

/* urlencode encodes a NUL byte in a string and in a map's keys and
 * values alike (the map form let it through: strchr found the end of its
 * list of bytes kept) */
static void test_urlencode_nul(void)
{
	struct tmpl_env *env = tmpl_env_new();
	struct arena *ga = arena_new();
	struct tmap *m = tmap_new(ga, 1);
	tmap_set(ga, m, (struct str){"k\0", 2}, tv_str((struct str){"a\0b", 3}));
	tmpl_env_set_global(env, "m", tv_map(m));
	tmpl_env_set_global(env, "s", tv_str((struct str){"a\0b/", 4}));
	struct buf out;
	buf_init(&out);
	INT_EQ(add(env, "u.html", "{{ m | urlencode }} {{ s | urlencode }}"), 0);
	INT_EQ(render(env, "u.html", NULL, &out), 0);
	INT_EQ(out.len, strlen("k%00=a%00b a%00b/"));
	OK(out.p && out.len == 17 && !memcmp(out.p, "k%00=a%00b a%00b/", 17));
	buf_fini(&out);
	tmpl_env_free(env);
	arena_free(ga);
}

void test_tmpl(void)
{
	t_current = "tmpl";
	buf_init(&errs);
	test_values();
	test_big_map();
	test_shaped_maps();
	test_objects();
	test_filters_and_globals();
	test_options();
	test_pieces();
	test_repeat();
	test_threads();
	test_error_paths();
	test_urlencode_nul();
	buf_fini(&errs);
}
