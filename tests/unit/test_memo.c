/* test_memo.c: macro calls remembered across renders (tmpl_memo, memo.c):
 * which calls are taken from the memo and which are made again, that a
 * call taken gives the text and records the ids the call made would, the
 * bound on its size, and that a frozen map cannot be changed. The spec
 * cases of tests/tmpl/ also run twice with a memo (test_tmpl_spec). */
#include "harness.h"

#include "tmpl/tmpl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct buf errs, out;

static void add(struct tmpl_env *env, const char *name, const char *src)
{
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&errs);
	d.capture = &errs;
	char path[128];
	snprintf(path, sizeof path, "templates/%s", name);
	INT_EQ(tmpl_env_add(env, name, path, src, strlen(src), &d), 0);
	diag_fini(&d);
	STR_EQ(t_msgs(&errs), "");
}

/* render: name with vars into out, errors into errs; with recorder r if
 * not NULL. Returns the number of errors. */
static int render(const struct tmpl_env *env, const char *name, const struct tval *vars, struct tmpl_deps *r)
{
	struct arena *a = arena_new();
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&errs);
	buf_reset(&out);
	d.capture = &errs;
	if (r)
		tmpl_deps_record(r);
	int n = tmpl_render(env, name, vars, &out, a, &d);
	tmpl_deps_record(NULL);
	diag_fini(&d);
	arena_free(a);
	return n;
}

static const char *text(void)
{
	return out.p ? out.p : "";
}

static struct tmap *post(struct arena *a, const char *title, uint32_t dep)
{
	struct tmap *m = tmap_new(a, 2);
	tmap_set_cstr(a, m, "title", tv_cstr(title));
	tmap_set_cstr(a, m, "n", tv_int(7));
	m->dep = dep;
	return m;
}

/* vars_of: {p: post, who: who} */
static struct tval vars_of(struct arena *a, struct tmap *p, const char *who)
{
	struct tmap *v = tmap_new(a, 2);
	tmap_set_cstr(a, v, "p", tv_map(p));
	tmap_set_cstr(a, v, "who", tv_cstr(who));
	return tv_map(v);
}

static const char *const MACROS = "{% macro card(p, h=\"h3\") -%}"
				  "<{{ h }}>{{ p.title | upper }}</{{ h }}>{{ meta(p) }}"
				  "{%- endmacro %}"
				  "{% macro meta(p) %} #{{ p.n }} {{ t.read }}{% endmacro %}"
				  "{% macro greet() %}hi {{ who }}{% endmacro %}"
				  "{% macro list(xs) %}{% for x in xs %}{{ x }}{% endfor %}{% endmacro %}"
				  "{% macro boom(p) %}{{ p.missing }}{% endmacro %}"
				  "{% macro inc() %}{% include \"part.html\" %}{% endmacro %}"
				  "{% macro shout(s) %}{{ s | loud }}{% endmacro %}";

static int f_loud(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *o)
{
	(void)c;
	(void)args;
	*o = *in;
	return 0;
}

static struct tmpl_env *env_new(struct arena *a)
{
	struct tmpl_env *env = tmpl_env_new();
	tmpl_env_add_filter(env, "loud", f_loud, "");
	struct tmap *t = tmap_new(a, 1);
	tmap_set_cstr(a, t, "read", tv_cstr("min"));
	tmpl_env_set_global_dep(env, "t", tv_map(t), 5);
	add(env, "m.html", MACROS);
	add(env, "part.html", "[part {{ who }}]");
	add(env, "card.html", "{% from \"m.html\" import card %}{{ card(p) }}|{{ card(p, \"h2\") }}|{{ card(p) }}");
	add(env, "greet.html", "{% from \"m.html\" import greet %}{{ greet() }}");
	add(env, "list.html", "{% from \"m.html\" import list %}{{ list([1, 2]) }}");
	add(env, "boom.html", "{% from \"m.html\" import boom %}{{ boom(p) }}");
	add(env, "inc.html", "{% from \"m.html\" import inc %}{{ inc() }}");
	add(env, "shout.html", "{% from \"m.html\" import shout %}{{ shout(\"a\") }}");
	add(env, "set.html", "{% set p.title = \"x\" %}{{ p.title }}");
	struct diag d;
	diag_init(&d, NULL);
	INT_EQ(tmpl_env_check(env, &d), 0);
	diag_fini(&d);
	return env;
}

/* ids: the ids r recorded, "5 101 102" */
static const char *ids(const struct tmpl_deps *r)
{
	static char s[512];
	size_t n = 0;
	s[0] = '\0';
	for (size_t i = 0; i < r->n && n < sizeof s - 16; i++)
		n += (size_t)snprintf(s + n, sizeof s - n, "%s%u", i ? " " : "", r->ids[i]);
	return s;
}

/* A card of a frozen map is made once and taken after; a different post,
 * a different argument, a different value of a name the body reads are
 * calls of their own. */
static void test_taken(void)
{
	struct arena *a = arena_new();
	struct tmpl_env *env = env_new(a);
	struct tmap *p1 = post(a, "one", 100), *p2 = post(a, "two", 200);
	tmap_freeze(p1);
	tmap_freeze(p2);
	struct tval v1 = vars_of(a, p1, "ann"), v2 = vars_of(a, p2, "bob");
	const char *want = "<h3>ONE</h3> #7 min|<h2>ONE</h2> #7 min|<h3>ONE</h3> #7 min";

	INT_EQ(render(env, "card.html", &v1, NULL), 0);
	STR_EQ(text(), want);
	struct tmpl_memo *mm = tmpl_memo_new(1 << 20);
	tmpl_memo_use(mm);
	INT_EQ(render(env, "card.html", &v1, NULL), 0);
	STR_EQ(text(), want);
	size_t held = tmpl_memo_bytes(mm);
	OK(held > 0); /* the two calls of card: h3 and h2 */
	INT_EQ(render(env, "card.html", &v1, NULL), 0);
	STR_EQ(text(), want);
	INT_EQ(tmpl_memo_bytes(mm), held); /* all taken */
	INT_EQ(render(env, "card.html", &v2, NULL), 0);
	STR_EQ(text(), "<h3>TWO</h3> #7 min|<h2>TWO</h2> #7 min|<h3>TWO</h3> #7 min");
	OK(tmpl_memo_bytes(mm) > held);

	/* a free name's value is part of the key */
	INT_EQ(render(env, "greet.html", &v1, NULL), 0);
	STR_EQ(text(), "hi ann");
	INT_EQ(render(env, "greet.html", &v2, NULL), 0);
	STR_EQ(text(), "hi bob");
	INT_EQ(render(env, "greet.html", &v1, NULL), 0);
	STR_EQ(text(), "hi ann");

	tmpl_memo_use(NULL);
	tmpl_memo_free(mm);
	tmpl_env_free(env);
	arena_free(a);
}

/* Calls that are never kept: a map that is not frozen, a list, a body
 * that includes or uses a host's filter, a call with an error (which the
 * next render reports again), a memo too small for anything. */
static void test_not_kept(void)
{
	struct arena *a = arena_new();
	struct tmpl_env *env = env_new(a);
	struct tmap *p = post(a, "one", 100);
	struct tval v = vars_of(a, p, "ann");
	struct tmpl_memo *mm = tmpl_memo_new(1 << 20);
	tmpl_memo_use(mm);
	INT_EQ(render(env, "card.html", &v, NULL), 0);
	STR_EQ(text(), "<h3>ONE</h3> #7 min|<h2>ONE</h2> #7 min|<h3>ONE</h3> #7 min");
	INT_EQ(render(env, "list.html", &v, NULL), 0);
	STR_EQ(text(), "12");
	INT_EQ(render(env, "inc.html", &v, NULL), 0);
	STR_EQ(text(), "[part ann]");
	INT_EQ(render(env, "shout.html", &v, NULL), 0);
	STR_EQ(text(), "a");
	INT_EQ(tmpl_memo_bytes(mm), 0);

	tmap_freeze(p);
	for (int i = 0; i < 2; i++) {
		INT_EQ(render(env, "boom.html", &v, NULL), 1);
		OK(t_has(t_msgs(&errs), "has no attribute 'missing'"));
	}
	INT_EQ(tmpl_memo_bytes(mm), 0);
	tmpl_memo_use(NULL);
	tmpl_memo_free(mm);

	mm = tmpl_memo_new(0);
	tmpl_memo_use(mm);
	for (int i = 0; i < 2; i++) {
		INT_EQ(render(env, "card.html", &v, NULL), 0);
		STR_EQ(text(), "<h3>ONE</h3> #7 min|<h2>ONE</h2> #7 min|<h3>ONE</h3> #7 min");
	}
	INT_EQ(tmpl_memo_bytes(mm), 0);
	tmpl_memo_use(NULL);
	tmpl_memo_free(mm);
	tmpl_env_free(env);
	arena_free(a);
}

/* A call taken records what the call made recorded, in the same order:
 * an incremental build sees the same dependencies either way. A call
 * made without a recorder is made again for a render that records. */
static void test_memo_deps(void)
{
	struct arena *a = arena_new();
	struct tmpl_env *env = env_new(a);
	struct tmap *p = post(a, "one", 100);
	tmap_freeze(p);
	struct tval v = vars_of(a, p, "ann");
	struct tmpl_deps r;
	tmpl_deps_init(&r, 1000);
	INT_EQ(render(env, "card.html", &v, &r), 0);
	char want[512];
	snprintf(want, sizeof want, "%s", ids(&r));
	OK(t_has(want, "5") && t_has(want, "101"));

	struct tmpl_memo *mm = tmpl_memo_new(1 << 20);
	tmpl_memo_use(mm);
	INT_EQ(render(env, "card.html", &v, NULL), 0); /* kept without ids */
	for (int i = 0; i < 3; i++) {
		tmpl_deps_clear(&r);
		INT_EQ(render(env, "card.html", &v, &r), 0);
		STR_EQ(ids(&r), want);
	}
	tmpl_memo_use(NULL);
	tmpl_memo_free(mm);
	tmpl_deps_fini(&r);
	tmpl_env_free(env);
	arena_free(a);
}

/* The host's frozen data cannot be changed by a template: the memo
 * compares it by identity, and other threads read it at once. */
static void test_frozen(void)
{
	struct arena *a = arena_new();
	struct tmpl_env *env = env_new(a);
	struct tmap *p = post(a, "one", 100);
	struct tval v = vars_of(a, p, "ann");
	INT_EQ(render(env, "set.html", &v, NULL), 0);
	STR_EQ(text(), "x");
	tmap_freeze(p);
	INT_EQ(render(env, "set.html", &v, NULL), 1);
	STR_EQ(t_msgs(&errs), "templates/set.html:1:4: error: 'set p.title' would change the site's data, which "
			      "templates only read (hint: {% set ns = namespace(title=...) %} holds a value of your "
			      "own)");
	tmpl_env_free(env);
	arena_free(a);
}

void test_memo(void)
{
	t_current = "memo";
	buf_init(&errs);
	buf_init(&out);
	test_taken();
	test_not_kept();
	test_memo_deps();
	test_frozen();
	buf_fini(&errs);
	buf_fini(&out);
}
