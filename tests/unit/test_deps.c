/* test_deps.c: what a render records that it read (tmpl_deps_*): a map's
 * fields and the whole map, globals and templates (the page, its parent,
 * includes and imports), ids out of range, clearing, and recorders on two
 * threads at once. */
#include "harness.h"

#include "tmpl/tmpl.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct arena *arena;
static struct tmpl_env *env;
static struct buf errs;
static struct tval vars; /* m (dep 100: a, b, c), plain (no dep), edge (dep 997), big (dep 200, 70 keys) */

static void add(const char *name, const char *src)
{
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&errs);
	d.capture = &errs;
	char path[128];
	snprintf(path, sizeof path, "templates/%s", name);
	int n = tmpl_env_add(env, name, path, src, strlen(src), &d);
	diag_fini(&d);
	INT_EQ(n, 0);
	STR_EQ(t_msgs(&errs), "");
}

/* rec: renders name recording into a fresh recorder of 1000 ids; the ids
 * recorded, "101 102", or "error: ..." after a failed render; the output
 * in out. */
static struct buf out;

static const char *text_of(void)
{
	return out.p ? out.p : "";
}

static const char *rec(const char *name)
{
	static char ids[1024];
	struct tmpl_deps r;
	tmpl_deps_init(&r, 1000);
	struct arena *a = arena_new();
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&errs);
	buf_reset(&out);
	d.capture = &errs;
	tmpl_deps_record(&r);
	int e = tmpl_render(env, name, &vars, &out, a, &d);
	tmpl_deps_record(NULL);
	diag_fini(&d);
	arena_free(a);
	size_t n = 0;
	ids[0] = '\0';
	if (e) {
		snprintf(ids, sizeof ids, "error: %s", t_msgs(&errs));
	} else {
		for (size_t i = 0; i < r.n && n < sizeof ids - 16; i++)
			n += (size_t)snprintf(ids + n, sizeof ids - n, "%s%u", i ? " " : "", r.ids[i]);
	}
	tmpl_deps_fini(&r);
	return ids;
}

static void setup(void)
{
	env = tmpl_env_new();
	struct tmap *top = tmap_new(arena, 8);
	struct tmap *m = tmap_new(arena, 4);
	tmap_set_cstr(arena, m, "a", tv_cstr("A"));
	tmap_set_cstr(arena, m, "b", tv_cstr("B"));
	tmap_set_cstr(arena, m, "c", tv_int(3));
	m->dep = 100;
	struct tmap *plain = tmap_new(arena, 2);
	tmap_set_cstr(arena, plain, "a", tv_cstr("plain A"));
	tmap_set_cstr(arena, plain, "b", tv_cstr("plain B"));
	struct tmap *edge = tmap_new(arena, 3);
	tmap_set_cstr(arena, edge, "x", tv_cstr("X"));
	tmap_set_cstr(arena, edge, "y", tv_cstr("Y"));
	tmap_set_cstr(arena, edge, "z", tv_cstr("Z"));
	edge->dep = 997; /* owns 997..1060, but only ids below 1000 count */
	struct tmap *big = tmap_new(arena, 8);
	for (int i = 0; i < 70; i++) {
		char k[16];
		snprintf(k, sizeof k, "k%d", i);
		tmap_set_cstr(arena, big, arena_strndup(arena, k, strlen(k)), tv_int(i));
	}
	big->dep = 200;
	struct tmap *far = tmap_new(arena, 1);
	tmap_set_cstr(arena, far, "a", tv_cstr("far"));
	far->dep = 5000;
	tmap_set_cstr(arena, top, "m", tv_map(m));
	tmap_set_cstr(arena, top, "plain", tv_map(plain));
	tmap_set_cstr(arena, top, "edge", tv_map(edge));
	tmap_set_cstr(arena, top, "big", tv_map(big));
	tmap_set_cstr(arena, top, "far", tv_map(far));
	vars = tv_map(top);

	/* globals: one with an id, one holding a map with ids, one without */
	tmpl_env_set_global_dep(env, "g", tv_cstr("G"), 7);
	struct tmap *gm = tmap_new(arena, 2);
	tmap_set_cstr(arena, gm, "title", tv_cstr("Site"));
	tmap_set_cstr(arena, gm, "url", tv_cstr("/"));
	gm->dep = 300;
	tmpl_env_set_global_dep(env, "site", tv_map(gm), 8);
	tmpl_env_set_global(env, "nodep", tv_cstr("N"));

	add("field.html", "{{ m.b }}");
	add("first.html", "{{ m.a }}");
	add("index.html", "{{ m['c'] }}");
	add("order.html", "{{ m.c }}{{ m.a }}");
	add("missing.html", "{{ m.zz is defined }}");
	add("in.html", "{{ 'b' in m }}|{{ 'zz' in m }}");
	add("for.html", "{% for k in m %}{{ k }}{% endfor %}");
	add("for2.html", "{% for k, v in m | items %}{{ k }}={{ v }};{% endfor %}");
	add("length.html", "{{ m | length }}");
	add("json.html", "{{ m | json }}");
	add("print.html", "{{ m }}");
	add("compare.html", "{{ m == plain }}");
	add("if.html", "{% if m %}yes{% endif %}");
	add("set.html", "{% set x = m %}{% if x %}{{ x.c }}{% endif %}");
	add("plain.html", "{{ plain.a }}{{ plain | length }}{% for k in plain %}{{ k }}{% endfor %}");
	add("edge.html", "{{ edge.x }}{{ edge.y }}{{ edge.z }}");
	add("far.html", "{{ far.a }}{{ far | length }}");
	add("big.html", "{{ big.k0 }} {{ big.k61 }} {{ big.k62 }}");
	add("big-past.html", "{{ big.k63 }} {{ big.k69 }}");
	add("many.html", "{{ m.b }}{{ m.b }}{% for i in range(50) %}{{ m.b }}{{ m['b'] }}{% endfor %}");
	add("globals.html", "{{ g }} {{ site.title }} {{ nodep }} {{ g }}");
	add("base.html", "<{% block body %}{% endblock %}>");
	add("child.html", "{% extends \"base.html\" %}{% block body %}{{ m.a }}{% endblock %}");
	add("inc.html", "[{{ m.c }}]");
	add("with-inc.html", "{% include \"inc.html\" %}{% include \"inc.html\" %}");
	add("macros.html", "{% macro shout(x) %}{{ x | upper }}!{% endmacro %}");
	add("with-import.html", "{% import \"macros.html\" as mac %}{{ mac.shout('hi') }}");
	add("from-import.html", "{% from \"macros.html\" import shout %}{{ shout('yo') }}");
	add("thread-a.html", "{{ m.a }}{{ edge.x }}");
	add("thread-b.html", "{{ m.c }}{{ big.k5 }}");
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&errs);
	d.capture = &errs;
	INT_EQ(tmpl_env_check(env, &d), 0);
	diag_fini(&d);
	STR_EQ(t_msgs(&errs), "");
}

static void test_maps(void)
{
	/* a field: the map's id + 1 + its position */
	STR_EQ(rec("field.html"), "102");
	STR_EQ(text_of(), "B");
	STR_EQ(rec("first.html"), "101");
	STR_EQ(rec("index.html"), "103");
	/* in the order first read */
	STR_EQ(rec("order.html"), "103 101");
	/* a key it does not have depends on all of it */
	STR_EQ(rec("missing.html"), "100");
	STR_EQ(text_of(), "false");
	STR_EQ(rec("in.html"), "102 100");
	STR_EQ(text_of(), "true|false");
	/* the whole map */
	STR_EQ(rec("for.html"), "100 101 102 103");
	STR_EQ(text_of(), "abc");
	STR_EQ(rec("for2.html"), "100");
	STR_EQ(text_of(), "a=A;b=B;c=3;");
	STR_EQ(rec("length.html"), "100");
	STR_EQ(text_of(), "3");
	STR_EQ(rec("json.html"), "100");
	STR_EQ(text_of(), "{\"a\":\"A\",\"b\":\"B\",\"c\":3}");
	STR_EQ(rec("print.html"), "100");
	STR_EQ(rec("compare.html"), "100");
	STR_EQ(text_of(), "false");
	/* its truth alone is not a read (a map with an id never changes it) */
	STR_EQ(rec("if.html"), "");
	STR_EQ(text_of(), "yes");
	STR_EQ(rec("set.html"), "103");
	STR_EQ(text_of(), "3");
	/* a map without an id records nothing */
	STR_EQ(rec("plain.html"), "");
	STR_EQ(text_of(), "plain A2ab");
	/* ids at or past nbits are ignored, the ones below are not */
	STR_EQ(rec("edge.html"), "998 999");
	STR_EQ(text_of(), "XYZ");
	STR_EQ(rec("far.html"), "");
	STR_EQ(text_of(), "far1");
	/* positions past TMPL_DEP_FIELDS - 1 record the map's own id */
	STR_EQ(rec("big.html"), "201 262 263");
	STR_EQ(text_of(), "0 61 62");
	STR_EQ(rec("big-past.html"), "200");
	STR_EQ(text_of(), "63 69");
	/* each id once, however often it is read */
	STR_EQ(rec("many.html"), "102");
}

static void test_globals_and_templates(void)
{
	STR_EQ(rec("globals.html"), "7 8 301");
	STR_EQ(text_of(), "G Site N G");
	/* template ids: the page, its parent, includes, imports */
	INT_EQ(tmpl_env_set_template_dep(env, "field.html", 11), 0);
	INT_EQ(tmpl_env_set_template_dep(env, "base.html", 12), 0);
	INT_EQ(tmpl_env_set_template_dep(env, "child.html", 13), 0);
	INT_EQ(tmpl_env_set_template_dep(env, "inc.html", 14), 0);
	INT_EQ(tmpl_env_set_template_dep(env, "with-inc.html", 15), 0);
	INT_EQ(tmpl_env_set_template_dep(env, "macros.html", 16), 0);
	INT_EQ(tmpl_env_set_template_dep(env, "no-such.html", 17), -1);
	STR_EQ(rec("field.html"), "11 102");
	STR_EQ(rec("child.html"), "13 12 101");
	STR_EQ(text_of(), "<A>");
	STR_EQ(rec("with-inc.html"), "15 14 103");
	STR_EQ(text_of(), "[3][3]");
	STR_EQ(rec("with-import.html"), "16");
	STR_EQ(text_of(), "HI!");
	STR_EQ(rec("from-import.html"), "16");
	STR_EQ(text_of(), "YO!");
	/* a template without an id records nothing of itself */
	STR_EQ(rec("first.html"), "101");
	/* template ids of 0 mean none */
	INT_EQ(tmpl_env_set_template_dep(env, "field.html", 0), 0);
	STR_EQ(rec("field.html"), "102");
}

static void test_recorder(void)
{
	struct tmpl_deps r;
	tmpl_deps_init(&r, 1000);
	INT_EQ(r.n, 0);
	struct arena *a = arena_new();
	struct diag d;
	diag_init(&d, NULL);

	/* renders add up in one recorder, each id once */
	tmpl_deps_record(&r);
	INT_EQ(tmpl_render(env, "first.html", &vars, &out, a, &d), 0);
	INT_EQ(tmpl_render(env, "order.html", &vars, &out, a, &d), 0);
	INT_EQ(tmpl_render(env, "first.html", &vars, &out, a, &d), 0);
	INT_EQ(r.n, 2);
	if (r.n == 2) {
		INT_EQ(r.ids[0], 101);
		INT_EQ(r.ids[1], 103);
	}
	/* tmpl_deps_touch: ids by hand; 0 and ids past nbits are not ids */
	tmpl_deps_touch(5);
	tmpl_deps_touch(0);
	tmpl_deps_touch(1000);
	tmpl_deps_touch(999);
	tmpl_deps_touch(5);
	INT_EQ(r.n, 4);
	if (r.n == 4) {
		INT_EQ(r.ids[2], 5);
		INT_EQ(r.ids[3], 999);
	}
	/* clear forgets everything: the same ids are recorded again */
	tmpl_deps_clear(&r);
	INT_EQ(r.n, 0);
	INT_EQ(tmpl_render(env, "order.html", &vars, &out, a, &d), 0);
	INT_EQ(r.n, 2);
	if (r.n == 2) {
		INT_EQ(r.ids[0], 103);
		INT_EQ(r.ids[1], 101);
	}
	tmpl_deps_touch(999);
	tmpl_deps_touch(5);
	INT_EQ(r.n, 4);
	tmpl_deps_clear(&r);
	/* not recording: nothing */
	tmpl_deps_record(NULL);
	INT_EQ(tmpl_render(env, "globals.html", &vars, &out, a, &d), 0);
	INT_EQ(tmpl_render(env, "with-inc.html", &vars, &out, a, &d), 0);
	tmpl_deps_touch(5);
	INT_EQ(r.n, 0);
	/* and again into it */
	tmpl_deps_record(&r);
	INT_EQ(tmpl_render(env, "field.html", &vars, &out, a, &d), 0);
	tmpl_deps_record(NULL);
	INT_EQ(r.n, 1);
	if (r.n == 1)
		INT_EQ(r.ids[0], 102);
	/* many ids: the list grows */
	tmpl_deps_clear(&r);
	tmpl_deps_record(&r);
	for (uint32_t id = 1; id < 1000; id++)
		tmpl_deps_touch(id);
	for (uint32_t id = 1; id < 1000; id += 7)
		tmpl_deps_touch(id);
	tmpl_deps_record(NULL);
	INT_EQ(r.n, 999);
	int inorder = 1;
	for (size_t i = 0; i < r.n; i++)
		inorder &= r.ids[i] == i + 1;
	OK(inorder);
	tmpl_deps_clear(&r);
	INT_EQ(r.n, 0);
	int clear = 1;
	for (size_t i = 0; i < 1000 / 64 + 1; i++)
		clear &= r.seen[i] == 0;
	OK(clear);
	diag_fini(&d);
	arena_free(a);
	tmpl_deps_fini(&r);
	OK(r.ids == NULL && r.seen == NULL && r.n == 0);
	/* a recorder of 64 ids: the last word's bits */
	tmpl_deps_init(&r, 64);
	tmpl_deps_record(&r);
	tmpl_deps_touch(63);
	tmpl_deps_touch(64);
	tmpl_deps_record(NULL);
	INT_EQ(r.n, 1);
	tmpl_deps_fini(&r);
}

/* ---- two threads recording at once ---- */

struct rec_thread {
	const char *tmpl;
	uint32_t want[2]; /* the two ids its template reads */
	pthread_barrier_t *start;
	int errors, wrong;
};

static void *rec_run(void *arg)
{
	struct rec_thread *t = arg;
	struct arena *a = arena_new();
	struct buf b;
	buf_init(&b);
	struct diag d;
	diag_init(&d, NULL);
	struct tmpl_deps r;
	tmpl_deps_init(&r, 1000);
	pthread_barrier_wait(t->start);
	tmpl_deps_record(&r);
	for (int i = 0; i < 3000; i++) {
		buf_reset(&b);
		tmpl_deps_clear(&r);
		t->errors += tmpl_render(env, t->tmpl, &vars, &b, a, &d);
		t->wrong += r.n != 2 || r.ids[0] != t->want[0] || r.ids[1] != t->want[1];
	}
	tmpl_deps_record(NULL);
	tmpl_deps_clear(&r);
	t->errors += tmpl_render(env, "globals.html", &vars, &b, a, &d);
	t->wrong += r.n != 0;
	tmpl_deps_fini(&r);
	diag_fini(&d);
	buf_fini(&b);
	arena_free(a);
	return NULL;
}

static void test_threads(void)
{
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, 3);
	struct rec_thread ta = {"thread-a.html", {101, 998}, &start, 0, 0};
	struct rec_thread tb = {"thread-b.html", {103, 206}, &start, 0, 0};
	pthread_t pa, pb;
	pthread_create(&pa, NULL, rec_run, &ta);
	pthread_create(&pb, NULL, rec_run, &tb);
	/* this thread records too, meanwhile, and sees none of theirs */
	struct tmpl_deps mine;
	tmpl_deps_init(&mine, 1000);
	pthread_barrier_wait(&start);
	tmpl_deps_record(&mine);
	struct arena *a = arena_new();
	struct diag d;
	diag_init(&d, NULL);
	int errors = 0, wrong = 0;
	for (int i = 0; i < 3000; i++) {
		buf_reset(&out);
		errors += tmpl_render(env, "field.html", &vars, &out, a, &d);
		wrong += mine.n != 1 || mine.ids[0] != 102;
	}
	tmpl_deps_record(NULL);
	diag_fini(&d);
	arena_free(a);
	pthread_join(pa, NULL);
	pthread_join(pb, NULL);
	pthread_barrier_destroy(&start);
	INT_EQ(errors, 0);
	INT_EQ(wrong, 0);
	INT_EQ(ta.errors, 0);
	INT_EQ(ta.wrong, 0);
	INT_EQ(tb.errors, 0);
	INT_EQ(tb.wrong, 0);
	tmpl_deps_fini(&mine);
}

void test_deps(void)
{
	t_current = "deps";
	arena = arena_new();
	buf_init(&errs);
	buf_init(&out);
	setup();
	test_maps();
	test_globals_and_templates();
	test_recorder();
	test_threads();
	tmpl_env_free(env);
	env = NULL;
	buf_fini(&out);
	buf_fini(&errs);
	arena_free(arena);
	arena = NULL;
}
