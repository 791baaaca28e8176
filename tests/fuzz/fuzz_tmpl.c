/* fuzz_tmpl.c: libFuzzer target for the template engine: lexing, parsing,
 * linking a set (extends, include, import) and rendering with a fixed
 * model, as a build renders its pages.
 *
 * An input is the page template, "page.html", optionally followed by more
 * templates, each after a line "@@@ NAME" (the name that include, extends
 * and import use):
 *
 *   {% extends "base.html" %}{% block body %}{{ site.title }}{% endblock %}
 *   @@@ base.html
 *   <body>{% block body %}{% endblock %}</body>
 *
 * A part named "options" holds words instead: "strict=false" turns strict
 * undefined variables off. When the set has no syntax or link error, every
 * template is rendered, recording what it read (as folio serve does), and
 * rendered again as a build does, with its long strings ("big" in the
 * model: 64 KiB of HTML) left out as pieces: put back, they must give the
 * same bytes and the same errors.
 *
 * The caps are lower than a build's so that runaway loops end quickly: 1 MiB
 * of output, a nesting depth of 32, and (the fuzz build's -DTMPL_MAX_STEPS)
 * a million loop iterations and macro calls.
 *
 * With FUZZ_SHOW set in the environment, each render's output and the
 * diagnostics are printed. */
#include "fuzz.h"

#include "tmpl/tmpl.h"
#include "formats/yaml.h"

#define MAX_PARTS 8
#define DEP_BITS 256

/* The variables every render gets: typed YAML values, as data files and
 * front matter become. */
static const char model_yaml[] =
    "title: \"A <b>blog</b> & co\"\n"
    "n: 3\n"
    "f: 2.5\n"
    "neg: -7\n"
    "big: 9223372036854775807\n"
    "yes: true\n"
    "no: false\n"
    "none: null\n"
    "empty: \"\"\n"
    "list: [1, 2, 3, \"x\", null, 2.5, [4, 5], {k: v}]\n"
    "words: [b, a, c, B, \"\", é]\n"
    "html: \"<p>a & b</p>\"\n"
    "url: \"/posts/hello world/?q=1&r=2#frag\"\n"
    "date: \"2024-02-29T13:45:00+09:00\"\n"
    "day: 2023-12-31\n"
    "text: \"Ünïcode — text with  spaces\\tand\\nlines, 'quotes' \\\"and\\\" <tags>\"\n"
    "posts:\n"
    "  - {title: First, slug: first, date: 2024-01-02, tags: [c, cuda], words: 120, draft: false}\n"
    "  - {title: Second, slug: second, date: \"2024-03-04T05:06:07Z\", tags: [], words: 0}\n"
    "  - {title: \"<Third>\", slug: third, date: 2022-07-08, tags: [go], words: 99999}\n"
    "nested: {a: {b: {c: [{d: 1}, {d: 2}]}}}\n";

/* A host object, as the site model hands posts to templates. */
static const char *const obj_fields[] = {"title", "index", "tags", NULL};

static int obj_get(const void *self, struct str key, struct tval *out, struct arena *a)
{
	size_t i = (size_t)(uintptr_t)self;
	if (str_eq_cstr(key, "title")) {
		char tmp[32];
		int n = snprintf(tmp, sizeof tmp, "Post %zu", i);
		*out = tv_str((struct str){arena_strndup(a, tmp, (size_t)n), (size_t)n});
	} else if (str_eq_cstr(key, "index")) {
		*out = tv_int((int64_t)i);
	} else if (str_eq_cstr(key, "tags")) {
		*out = tv_cstr(i % 2 ? "odd" : "even");
	} else {
		return 0;
	}
	return 1;
}

static const struct tobj_class obj_class = {"post", obj_get, NULL, NULL, obj_fields};

static size_t seq_len(const void *self)
{
	(void)self;
	return 5;
}

static int seq_at(const void *self, size_t i, struct tval *out, struct arena *a)
{
	(void)self;
	(void)a;
	if (i >= 5)
		return 0;
	*out = tv_obj(&obj_class, (const void *)(uintptr_t)i);
	return 1;
}

static int seq_get(const void *self, struct str key, struct tval *out, struct arena *a)
{
	(void)self;
	(void)a;
	if (!str_eq_cstr(key, "count"))
		return 0;
	*out = tv_int(5);
	return 1;
}

static const struct tobj_class seq_class = {"post list", seq_get, seq_len, seq_at, NULL};

static struct arena *model_arena;
static struct tval vars;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	model_arena = arena_new();
	struct diag d;
	diag_init(&d, stderr);
	struct ynode *root = yaml_parse(model_arena, &d, "model.yml", model_yaml, sizeof model_yaml - 1,
					model_yaml, sizeof model_yaml - 1, 0);
	if (!root)
		fuzz_die("the model does not parse");
	diag_fini(&d);
	vars = tval_from_yaml(model_arena, root);
	if (vars.kind != TV_MAP)
		fuzz_die("the model is not a map");
	vars.u.map->dep = 1; /* renders record the fields they read */
	tmap_set_cstr(model_arena, vars.u.map, "content", tv_safe(STR_LIT("<p>safe <em>HTML</em></p>")));
	/* a post's HTML long enough to be a piece of its page, not a copy
	 * (tmpl_render_pieces) */
	size_t bign = TMPL_PIECE_MIN + 13;
	char *big = arena_alloc(model_arena, bign + 1);
	for (size_t i = 0; i < bign; i++)
		big[i] = "<p>long & post</p>\n"[i % 20];
	tmap_set_cstr(model_arena, vars.u.map, "big", tv_safe((struct str){big, bign}));
	tmap_set_cstr(model_arena, vars.u.map, "objs", tv_obj(&seq_class, NULL));
	tmap_set_cstr(model_arena, vars.u.map, "obj", tv_obj(&obj_class, (const void *)(uintptr_t)7));
	/* the host's data, as folio's model is: same_with_memo's calls are
	 * then taken for maps of it */
	tval_freeze(&vars);
	return 0;
}

/* same_with_memo: renders name twice with a memo of macro calls
 * (tmpl_memo: the second takes the calls the first made); a page that
 * rendered without errors into out, recording the ids in rec, must give
 * the same bytes and the same ids, in the same order, both times. (A
 * page that failed may pass: a call taken counts fewer steps of work.) */
static void same_with_memo(const struct tmpl_env *env, const char *name, const struct buf *out,
			   struct tmpl_deps *rec, struct arena *scratch, struct diag *d)
{
	size_t nids = rec->n;
	uint32_t *ids = malloc((nids + 1) * sizeof *ids);
	memcpy(ids, rec->ids, nids * sizeof *ids);
	struct tmpl_deps mine;
	tmpl_deps_init(&mine, DEP_BITS);
	struct tmpl_memo *mm = tmpl_memo_new((size_t)1 << 20);
	struct buf again;
	buf_init(&again);
	tmpl_memo_use(mm);
	for (int round = 0; round < 2; round++) {
		buf_reset(&again);
		tmpl_deps_clear(&mine);
		tmpl_deps_record(&mine);
		int e = tmpl_render(env, name, &vars, &again, scratch, d);
		if (e || again.len != out->len || memcmp(again.p ? again.p : "", out->p ? out->p : "", out->len) ||
		    mine.n != nids || (nids && memcmp(mine.ids, ids, nids * sizeof *ids)))
			abort();
	}
	tmpl_memo_use(NULL);
	tmpl_deps_record(rec);
	tmpl_memo_free(mm);
	tmpl_deps_fini(&mine);
	buf_fini(&again);
	free(ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[MAX_PARTS];
	size_t n = fuzz_split((const char *)data, size, "@@@ ", parts, MAX_PARTS);

	struct tmpl_env *env = tmpl_env_new();
	tmpl_env_set_limits(env, 1u << 20, 32);
	tmpl_env_set_base_url(env, "https://example.org/blog/");
	tmpl_env_set_global(env, "site_title", tv_cstr("Global <title>"));
	tmpl_env_set_global_dep(env, "build", tv_int(42), 100);

	struct diag d;
	struct buf cap, out, split, whole;
	struct tmpl_pieces pieces = {NULL, 0, 0};
	buf_init(&cap);
	buf_init(&out);
	buf_init(&split);
	buf_init(&whole);
	diag_init(&d, NULL);
	d.capture = &cap;

	int errors = 0;
	for (size_t i = 0; i < n; i++) {
		const struct fuzz_part *p = &parts[i];
		if (fuzz_name_is(p, "options")) {
			if (memmem(p->text, p->len, "strict=false", 12))
				tmpl_env_set_strict(env, 0);
			continue;
		}
		char name[128], path[160];
		if (i == 0)
			snprintf(name, sizeof name, "page.html");
		else
			snprintf(name, sizeof name, "%.*s", (int)(p->name_len < 100 ? p->name_len : 100), p->name);
		snprintf(path, sizeof path, "templates/%s", name);
		errors += tmpl_env_add(env, name, path, p->text, p->len, &d);
		tmpl_env_set_template_dep(env, name, 101 + (uint32_t)i);
	}
	tmpl_env_set_missing_dep(env, 120);
	errors += tmpl_env_check(env, &d);

	if (!errors) {
		struct tmpl_deps deps;
		tmpl_deps_init(&deps, DEP_BITS);
		tmpl_deps_record(&deps);
		struct arena *scratch = arena_new();
		for (size_t i = 0; i < tmpl_env_count(env); i++) {
			buf_reset(&out);
			int e = tmpl_render(env, tmpl_env_name(env, i), &vars, &out, scratch, &d);
			if (out.len > (1u << 20))
				abort(); /* the output cap holds */
			/* the same page with its long strings left out as pieces:
			 * put back, they give the same bytes and the same errors */
			buf_reset(&split);
			int e2 = tmpl_render_pieces(env, tmpl_env_name(env, i), &vars, &split, &pieces, scratch, &d);
			/* a page may be all pieces: split then holds no bytes,
			 * and no buffer (NULL, which no offset may be added to) */
			const char *sp = split.p ? split.p : "";
			size_t from = 0;
			buf_reset(&whole);
			for (size_t k = 0; k < pieces.n; k++) {
				if (pieces.v[k].at < from || pieces.v[k].at > split.len)
					abort();
				buf_append(&whole, sp + from, pieces.v[k].at - from);
				buf_append(&whole, pieces.v[k].s.p, pieces.v[k].s.len);
				from = pieces.v[k].at;
			}
			buf_append(&whole, sp + from, split.len - from);
			if (e != e2 ||
			    (!e && (whole.len != out.len || memcmp(whole.p ? whole.p : "", out.p ? out.p : "", out.len))))
				abort();
			if (whole.len > (1u << 20))
				abort();
			if (getenv("FUZZ_SHOW"))
				fprintf(stderr, "--- %s\n%.*s\n", tmpl_env_name(env, i), STR_FMT(buf_str(&out)));
			if (!e)
				same_with_memo(env, tmpl_env_name(env, i), &out, &deps, scratch, &d);
			tmpl_deps_clear(&deps);
		}
		tmpl_deps_record(NULL);
		arena_free(scratch);
		tmpl_deps_fini(&deps);
	}

	if (getenv("FUZZ_SHOW"))
		fprintf(stderr, "--- diagnostics\n%s\n", cap.p ? cap.p : "");
	diag_fini(&d);
	buf_fini(&cap);
	buf_fini(&out);
	buf_fini(&split);
	buf_fini(&whole);
	free(pieces.v);
	tmpl_env_free(env);
	return 0;
}
