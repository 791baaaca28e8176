/* stages.c: the stages every build runs, in order, into one arena:
 * config -> content -> Markdown -> model -> templates (stages_run), and
 * the static files handed to an output (stages_copy_static). A round
 * (round.c) plans, renders and writes what they give. */
#include "pipeline/stages.h"
#include "images/images.h"
#include "variants/variants.h"

#include "base/clock.h"
#include "base/hash.h"
#include "base/pool.h"
#include "base/map.h"
#include "files/reader.h"
#include "files/sitefile.h"
#include "cache/cache.h"
#include "md/highlight.h"
#include "md/math.h"
#include "md/mermaid.h"
#include "model/links.h"
#include "read/config.h"
#include "read/theme.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int typeset(void *ctx, const char *tex, size_t len, int display, struct buf *out, struct buf *err,
		   int *err_pos)
{
	return math_render(ctx, tex, len, display, out, err, err_pos);
}

/* open_math: the formula cache of the site, with folio.yml's macros, and
 * the formulas its file (cache/: CACHE_MATH, by the cache's key) kept
 * from earlier builds; a missing or damaged file: none. */
static struct math_cache *open_math(struct arena *a, const struct config *cfg, const char *site_dir)
{
	const struct ynode *m = cfg->math_macros;
	size_t n = m ? m->len : 0;
	struct math_macro *mac = arena_alloc(a, (n + 1) * sizeof *mac);
	for (size_t i = 0; i < n; i++) {
		mac[i].name = m->keys[i]->str;
		mac[i].expansion = m->items[i]->str;
	}
	struct math_cache *mc = math_cache_open(mac, n);
	if (cfg->math_mathjax)
		math_cache_mathjax(mc);
	char *path = cache_key_path(site_dir, CACHE_MATH, math_cache_key(mc));
	size_t len;
	char *bytes = cache_read(path, CACHE_MATH, &len);
	if (bytes)
		math_cache_load(mc, bytes, len);
	free(bytes);
	free(path);
	return mc;
}

/* save_math: the formula cache's file written if it changed (whole or not
 * at all), the files of other macros or versions deleted: 0, or -1 with
 * errno. */
static int save_math(const char *site_dir, struct math_cache *mc)
{
	struct buf b;
	buf_init(&b);
	int rc = 0;
	if (math_cache_save(mc, &b) && (rc = cache_open_dir(site_dir, CACHE_MATH)) == 0) {
		char *final = cache_key_path(site_dir, CACHE_MATH, math_cache_key(mc));
		rc = cache_write(final, b.p, b.len);
		int saved = errno;
		if (rc == 0) /* caches of other macros or versions will not be read again */
			cache_sweep(site_dir, CACHE_MATH, final);
		free(final);
		errno = saved;
	}
	buf_fini(&b);
	return rc;
}

/* ---- the stages every build runs: config, content, Markdown, model,
 * templates ---- */
/* udir_value: an argument's value as its type makes it for the template */
static struct tval udir_value(int type, const char *v)
{
	if (!v)
		return tv_none();
	switch (type) {
	case MD_UARG_INT:
		return tv_int(strtoll(v, NULL, 10));
	case MD_UARG_NUMBER:
		return tv_float(strtod(v, NULL));
	case MD_UARG_BOOL:
		return tv_bool(!strcmp(v, "true"));
	default:
		return tv_cstr(v);
	}
}

/* udir_render: a call of the site's directive: its template
 * (directives/NAME.html) with each argument by its name, content (the
 * body's HTML, printed as is), page (path: the document's file), site
 * (title, base_url, language) and, for a template of one of folio's
 * media, media (element, width, height, error: md_media). An md_udir_fn. */
static int udir_render(void *ctx, const struct md_udir_call *call, struct buf *out, struct buf *err)
{
	const struct udir_ctx *u = ctx;
	struct arena *a = arena_new();
	struct tmap *vars = tmap_new(a, call->dir->nargs + 3);
	for (size_t i = 0; i < call->dir->nargs; i++)
		tmap_set_cstr(a, vars, call->dir->args[i].name, udir_value(call->dir->args[i].type, call->values[i]));
	tmap_set_cstr(a, vars, "content", tv_safe(call->content));
	struct tmap *page = tmap_new(a, 1), *site = tmap_new(a, 3);
	tmap_set_cstr(a, page, "path", tv_cstr(call->doc_path ? call->doc_path : ""));
	tmap_set_cstr(a, site, "title", tv_str(u->cfg->title));
	tmap_set_cstr(a, site, "base_url", tv_str(u->cfg->base_url));
	tmap_set_cstr(a, site, "language", tv_str(u->cfg->language));
	tmap_set_cstr(a, vars, "page", tv_map(page));
	tmap_set_cstr(a, vars, "site", tv_map(site));
	if (call->media) { /* a template of one of folio's media: what folio draws */
		const struct md_media *m = call->media;
		struct tmap *media = tmap_new(a, 4);
		tmap_set_cstr(a, media, "element", tv_safe(m->element));
		tmap_set_cstr(a, media, "width", m->width ? tv_cstr(m->width) : tv_none());
		tmap_set_cstr(a, media, "height", m->height ? tv_cstr(m->height) : tv_none());
		tmap_set_cstr(a, media, "error", m->error ? tv_cstr(m->error) : tv_none());
		tmap_set_cstr(a, vars, "media", tv_map(media));
	}
	struct tval v = tv_map(vars);
	char name[600];
	snprintf(name, sizeof name, "directives/%s.html", call->dir->name);
	struct buf cap;
	buf_init(&cap);
	struct diag q;
	diag_init(&q, NULL);
	q.capture = &cap;
	int errors = tmpl_render(u->env, name, &v, out, a, &q);
	if (errors) {
		/* the template's first message, on one line, without its
		 * severity: reported at the call */
		const char *t = cap.p ? cap.p : "";
		size_t n = strcspn(t, "\n");
		const char *e = memmem(t, n, ": error: ", 9);
		if (e) {
			buf_append(err, t, (size_t)(e - t));
			buf_puts(err, ": ");
			buf_append(err, e + 9, n - (size_t)(e + 9 - t));
		} else {
			buf_append(err, t, n);
		}
	}
	diag_fini(&q);
	buf_fini(&cap);
	arena_free(a);
	return errors ? -1 : 0;
}

/* udir_salt: what the declarations are (names, arguments, types,
 * requirements, defaults), for the Markdown cache's salt: a document's
 * checks depend on them */
static uint64_t udir_salt(const struct md_udir *v, size_t n)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < n; i++) {
		buf_printf(&b, "%s\n", v[i].name);
		for (size_t k = 0; k < v[i].nargs; k++)
			buf_printf(&b, " %s %d %d %s\n", v[i].args[k].name, v[i].args[k].type, v[i].args[k].required,
				   v[i].args[k].def ? v[i].args[k].def : "\x01");
	}
	uint64_t h = n ? hash_bytes(b.p, b.len) : 0;
	buf_fini(&b);
	return h;
}

void stages_run(struct stages *st, const struct stages_in *in, struct diag *d)
{
	const struct build_request *req = in->req;
	/* folio build: the files known unchanged are not read (content.h) */
	struct content_known known = {in->known, in->records};
	const struct content_known *kn = in->records ? &known : NULL;
	memset(st, 0, sizeof *st);
	st->t0 = clock_seconds();
	st->a = arena_new();
	struct arena *a = st->a;
	st->errors += config_load(a, d, req->site_dir, req->base_url, &st->cfg);
	if (st->cfg.images && st->cfg.images_avif) {
		/* AVIF needs a library folio loads when asked (images.h): its
		 * absence is said at the word that asked for it */
		const char *why = img_avif_available();
		if (why) {
			struct diag_loc loc = {st->cfg.path, st->cfg.src, st->cfg.src_len, st->cfg.avif_line,
			                       st->cfg.avif_col};
			diag_error(d, &loc, "images.formats: avif: %s", why);
			st->errors++;
		}
	}
	st->cfg_errors = st->errors;
	st->t_cfg = clock_seconds();
	if (!st->cfg.root || st->cfg.root->kind != YNODE_MAP) {
		/* no settings to go on; with some wrong ones, the content is
		 * still checked so that every error is reported at once */
		if (!st->errors)
			st->errors = 1;
		return;
	}
	struct build_opts *opts = &st->opts;
	opts->jobs = req->jobs;
	if (opts->jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		opts->jobs = n > 0 ? (int)n : 1;
	}
	st->errors += content_load_cached(a, d, req->site_dir, &st->cfg, &st->content, in->cc, in->fm, kn, opts->jobs);
	/* an excerpt of a file not read: read when a message needs it */
	st->d = d;
	diag_set_texts(d, content_text, &st->content);
	st->t_content = clock_seconds();

	opts->drafts = req->drafts;
	opts->future = req->future;
	opts->now = req->now;
	opts->max_related = 5;
	char *static_dir = arena_alloc(a, 4096);
	snprintf(static_dir, 4096, "%s/static", req->site_dir);
	opts->static_dir = static_dir;
	if (st->cfg.highlight)
		opts->highlight = hl_render;
	st->mc = st->cfg.math ? open_math(a, &st->cfg, req->site_dir) : NULL;
	if (st->mc && in->read_only)
		math_cache_read_only(st->mc); /* folio check writes nothing into the site */
	if (st->mc) {
		opts->typeset = typeset;
		opts->typeset_ctx = st->mc;
		opts->typeset_seconds = math_doc_seconds();
	}
	opts->now = clock_build_now(opts->now);
	/* the language first: the Markdown's heading links and callouts say
	 * their words in it */
	st->env = tmpl_env_new();
	st->errors += theme_load_language(st->env, a, d, req->site_dir, &st->cfg);
	theme_md_labels(st->env, a, opts->md_labels);
	/* the templates before the Markdown: the site's directives are
	 * rendered with theirs */
	char *base = arena_strndup(a, st->cfg.base_url.p ? st->cfg.base_url.p : "", st->cfg.base_url.len);
	tmpl_env_set_base_url(st->env, base);
	int tmpl_errors = theme_load_templates(st->env, d, req->site_dir);
	struct md_udir *udirs = NULL;
	size_t nudirs = 0;
	if (!tmpl_errors)
		tmpl_errors += theme_directives(st->env, a, d, req->site_dir, &udirs, &nudirs);
	st->errors += tmpl_errors;
	st->udir = (struct udir_ctx){st->env, &st->cfg};
	opts->udirs = udirs;
	opts->nudirs = nudirs;
	opts->udir_render = nudirs ? udir_render : NULL;
	opts->udir_ctx = &st->udir;
	if (in->prep)
		in->prep(in->prep_ctx, st, req->site_dir);
	opts->md_salt ^= udir_salt(udirs, nudirs);
	st->errors += site_build(a, d, &st->cfg, &st->content, opts, &st->site);
	if (pool_cancelled())
		return; /* the site is not whole: round_run stops */
	st->have_site = 1;
	/* the names of the theme's assets: their bytes, the site's copy when
	 * it has one (read here, not by rendering) */
	static const char *const assets[] = THEME_ASSETS;
	size_t nassets = 0;
	while (assets[nassets])
		nassets++;
	const char **names = arena_alloc(a, (nassets + 1) * sizeof *names);
	for (size_t i = 0; i < nassets; i++) {
		char name[THEME_ASSET_NAME_MAX];
		theme_asset_name(req->site_dir, assets[i], name);
		names[i] = arena_strndup(a, name, strlen(name));
	}
	names[nassets] = NULL;
	st->site.asset_names = names;
	st->base_path = links_base_path(a, st->cfg.base_url.p ? st->cfg.base_url.p : "", st->cfg.base_url.len);
	if (!st->errors || req->keep_going)
		site_rewrite_links(a, &st->site, st->base_path);
	st->t_site = clock_seconds();

	st->t_tmpl = clock_seconds();
}

/* theme_files_of: the theme's files to write around the site's static
 * ones (output_static): its static/ files (and its assets/, each only for
 * a site that uses it: model-viewer's script, a megabyte, with models; the
 * math font, 400 KB, with math) first, then its assets under the names
 * that change with their bytes (the site's copy when it has one, in
 * owned[i]: malloc'd). */
static void theme_files_of(const char *site_dir, int models, int math, struct output_files *t, char **owned)
{
	struct output_file *first = xcalloc(theme_nfiles + 1, sizeof *first);
	size_t n = 0;
	for (size_t i = 0; i < theme_nfiles; i++)
		if (!strncmp(theme_files[i].name, "static/", 7))
			first[n++] = (struct output_file){theme_files[i].name + 7, theme_files[i].data, theme_files[i].len};
	for (size_t i = 0; i < theme_nfiles; i++) {
		const char *name = theme_files[i].name;
		if (strncmp(name, "assets/", 7))
			continue;
		if (!strncmp(name + 7, "model-viewer", 12) ? models : !strncmp(name + 7, "stix-two-math", 13) ? math : 1)
			first[n++] = (struct output_file){name, theme_files[i].data, theme_files[i].len};
	}
	static const char *const assets[] = THEME_ASSETS;
	size_t na = 0;
	while (assets[na])
		na++;
	struct output_file *last = xcalloc(na + 1, sizeof *last);
	for (size_t i = 0; i < na; i++) {
		char *name = xmalloc(THEME_ASSET_NAME_MAX);
		const char *data;
		size_t len;
		theme_asset(site_dir, assets[i], name, &data, &len, &owned[i]);
		last[i] = (struct output_file){name, data, len};
	}
	*t = (struct output_files){first, n, last, na};
}

/* copy_linked_doc: the files doc's code blocks link to that the build
 * copies (md_doc.deps' "HASH+PATH" lines) handed to sink at their place
 * in the site, each once (done: their site-relative names, malloc'd).
 * The number of errors. */
static int copy_linked_doc(struct diag *d, const char *root, const struct md_doc *doc, struct map *done,
			   const struct output_sink *sink)
{
	int errors = 0;
	const char *at = doc->deps.p, *end = doc->deps.p + doc->deps.len;
	for (const char *nl; at < end && (nl = memchr(at, '\n', (size_t)(end - at))); at = nl + 1) {
		if (nl - at < 18 || at[16] != '+')
			continue;
		char *path = xstrndup(at + 17, (size_t)(nl - at - 17)), real[PATH_MAX];
		size_t n = strlen(root);
		int added = 0;
		if (realpath(path, real) && !strncmp(real, root, n) && real[n] == '/') {
			char *rel = xstrndup(real + n + 1, strlen(real + n + 1));
			map_put(done, rel, strlen(rel), &added);
			if (!added)
				free(rel);
		}
		if (added) {
			const char *rel = done->e[done->n - 1].key;
			struct site_file f = {path, rel, FOLIO_MAX_FILE, NULL, 0};
			size_t len;
			char *text = site_read(d, root, &f, NULL, &len, NULL);
			if (!text || sink->write(sink->ctx, rel, text, len))
				errors++;
			free(text);
		}
		free(path);
	}
	return errors;
}

/* copy_notebook_files: the files of the notebook posts' outputs (held in
 * memory: notebook.h), beside each post's page as a bundle's are; the
 * number that could not be written. */
static int copy_notebook_files(const struct site *s, const struct output_sink *sink)
{
	int errors = 0;
	for (size_t i = 0; i < s->nposts; i++) {
		const struct notebook *nb = s->posts[i]->s.nb;
		for (size_t k = 0; nb && k < nb->nassets; k++) {
			char rel[1024];
			snprintf(rel, sizeof rel, "posts/%.*s/%s", STR_FMT(s->posts[i]->slug), nb->assets[k].name);
			if (sink->write(sink->ctx, rel, nb->assets[k].data, nb->assets[k].len))
				errors++;
		}
	}
	return errors;
}

/* copy_linked: copy_linked_doc of every document of s. */
static int copy_linked(struct diag *d, const struct site *s, const char *site_dir, const struct output_sink *sink)
{
	struct map done = MAP_INIT;
	char *root = NULL;
	int errors = 0;
	size_t n = s->nposts + s->npages + s->nseries;
	for (size_t i = 0; i < n; i++) {
		const struct md_doc *doc = i < s->nposts		? &s->posts[i]->doc
					   : i < s->nposts + s->npages ? &s->pages[i - s->nposts]->doc
								       : &s->series[i - s->nposts - s->npages]->doc;
		if (!doc->deps.len || !memchr(doc->deps.p, '+', doc->deps.len))
			continue;
		if (!root && !(root = site_root(site_dir)))
			break;
		errors += copy_linked_doc(d, root, doc, &done, sink);
	}
	for (size_t i = 0; i < done.n; i++)
		free((void *)done.e[i].key);
	map_fini(&done);
	free(root);
	return errors;
}

/* stages_copy_static: the theme's static files, the site's and the bundles' (see
 * output_static), the files code blocks link to (copy_linked), with the
 * resized copies of their images (variants.h:
 * made on jobs threads, the image cache only read when read_only);
 * model-viewer's script only for a site with a model, the math font only
 * for a site with math. */
int stages_copy_static(struct diag *d, const struct site *s, const char *site_dir, const struct output_sink *sink,
		       int jobs, int read_only)
{
	int models = 0, math = 0;
	for (size_t i = 0; i < s->nposts; i++) {
		models |= s->posts[i]->doc.has_model3d;
		math |= s->cfg->math && s->posts[i]->doc.math_spans > 0;
	}
	for (size_t i = 0; i < s->npages; i++) {
		models |= s->pages[i]->doc.has_model3d;
		math |= s->cfg->math && s->pages[i]->doc.math_spans > 0;
	}
	struct output_bundle *b = xcalloc(s->nposts + 1, sizeof *b);
	size_t nb = 0;
	for (size_t i = 0; i < s->nposts; i++)
		if (s->posts[i]->bundle_dir)
			b[nb++] = (struct output_bundle){s->posts[i]->bundle_dir, s->posts[i]->slug};
	static const char *const assets[] = THEME_ASSETS;
	char *owned[sizeof assets / sizeof assets[0]] = {0};
	struct output_files t;
	theme_files_of(site_dir, models, math, &t, owned);
	struct md_options rule;
	memset(&rule, 0, sizeof rule);
	site_image_rule(s->cfg, &rule);
	struct variants_settings set = {&rule,          s->cfg->quality_webp,      s->cfg->quality_jpeg,
					s->cfg->quality_avif, s->cfg->images_metadata, jobs};
	struct variants *v = rule.nimage_widths ? variants_new(d, site_dir, &set, sink, read_only) : NULL;
	int errors = output_static(d, site_dir, &t, b, nb, v ? variants_sink(v) : sink);
	errors += copy_linked(d, s, site_dir, sink);
	errors += copy_notebook_files(s, v ? variants_sink(v) : sink);
	if (v)
		errors += variants_finish(v, NULL, NULL);
	variants_free(v);
	for (size_t i = 0; i < t.nlast; i++) {
		free((char *)t.last[i].name);
		free(owned[i]);
	}
	free((void *)t.first);
	free((void *)t.last);
	free(b);
	return errors;
}

void stages_told(struct stages *st)
{
	if (st->d)
		diag_set_texts(st->d, NULL, NULL);
	st->d = NULL;
}

/* stages_thread_cleanup: frees this thread's KaTeX, Mermaid and
 * highlighters. */
void stages_thread_cleanup(void)
{
	math_thread_cleanup();
	mermaid_thread_cleanup();
	hl_thread_cleanup();
}

/* stages_free: with keep_thread, this thread's KaTeX and highlighters stay
 * loaded for the next build (a session). */
void stages_free(struct stages *st, struct diag *d, int keep_thread)
{
	if (st->mc && save_math(st->cfg.site_dir, st->mc) != 0) {
		struct diag_loc loc = {CACHE_DIR, NULL, 0, 0, 0};
		diag_warning(d, &loc, "cannot save the formula cache (the next build typesets every formula again)");
	}
	math_cache_close(st->mc);
	stages_told(st); /* the content goes */
	if (!keep_thread)
		stages_thread_cleanup();
	if (st->env)
		tmpl_env_free(st->env);
	if (st->have_site)
		site_free(&st->site);
	arena_free(st->a);
}
