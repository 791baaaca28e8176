/* build.c: one build from start to end, with one arena. */
#include "build.h"

#include "config.h"
#include "highlight.h"
#include "math.h"

/* Highlighting is in the binary when its grammars are (mk/highlight.mk
 * wires them in): until then these are weak and NULL, and code blocks are
 * plain escaped text. */
#pragma weak hl_render
#pragma weak hl_thread_cleanup
#include "content.h"
#include "output.h"
#include "render.h"
#include "site.h"
#include "tmpl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* forceescape: escapes even HTML that is marked safe (a post's content in
 * an Atom <content type="html">). */
static int f_forceescape(struct tmpl_call *c, const struct tval *in, const struct tval *args, struct tval *out)
{
	(void)args;
	struct arena *a = tmpl_call_arena(c);
	struct buf t, b;
	buf_init(&t);
	buf_init(&b);
	tval_to_text(&t, in, a);
	buf_put_html(&b, t.p ? t.p : "", t.len);
	buf_fini(&t);
	*out = tv_safe((struct str){arena_strndup(a, b.p ? b.p : "", b.len), b.len});
	buf_fini(&b);
	return 0;
}

static int typeset(void *ctx, const char *tex, size_t len, int display, struct buf *out, struct buf *err,
		   int *err_pos)
{
	return math_render(ctx, tex, len, display, out, err, err_pos);
}

/* open_math: the formula cache of the site, with folio.yml's macros. */
static struct math_cache *open_math(struct arena *a, const struct config *cfg, const char *site_dir)
{
	const struct ynode *m = cfg->math_macros;
	size_t n = m ? m->len : 0;
	struct math_macro *mac = arena_alloc(a, (n + 1) * sizeof *mac);
	for (size_t i = 0; i < n; i++) {
		mac[i].name = m->keys[i]->str;
		mac[i].expansion = m->items[i]->str;
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/.folio-cache", site_dir);
	return math_cache_open(dir, mac, n);
}

int build_site(const struct build_request *req, struct diag *d, struct build_result *res)
{
	double t0 = now_seconds();
	memset(res, 0, sizeof *res);
	struct arena *a = arena_new();
	int errors = 0;
	struct config cfg;
	errors += config_load(a, d, req->site_dir, req->base_url, &cfg);
	if (!cfg.root || cfg.root->kind != YNODE_MAP) {
		/* no settings to go on; with some wrong ones, the content is
		 * still checked so that every error is reported at once */
		arena_free(a);
		return errors;
	}
	struct content content;
	errors += content_load(a, d, req->site_dir, &cfg, &content);

	struct build_opts opts = {req->drafts, req->future, req->now, req->jobs, 5, NULL, NULL, NULL, NULL};
	char static_dir[4096];
	snprintf(static_dir, sizeof static_dir, "%s/static", req->site_dir);
	opts.static_dir = static_dir;
	if (cfg.highlight && hl_render)
		opts.highlight = hl_render;
	struct math_cache *mc = cfg.math ? open_math(a, &cfg, req->site_dir) : NULL;
	if (mc) {
		opts.typeset = typeset;
		opts.typeset_ctx = mc;
	}
	if (!opts.now) {
		const char *sde = getenv("SOURCE_DATE_EPOCH");
		opts.now = sde && *sde ? strtoll(sde, NULL, 10) : (int64_t)time(NULL);
	}
	if (opts.jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		opts.jobs = n > 0 ? (int)n : 1;
	}
	struct site site;
	errors += site_build(a, d, &cfg, &content, &opts, &site);

	struct tmpl_env *env = tmpl_env_new();
	tmpl_env_add_filter(env, "forceescape", f_forceescape, "");
	char *base = arena_strndup(a, cfg.base_url.p ? cfg.base_url.p : "", cfg.base_url.len);
	tmpl_env_set_base_url(env, base);
	errors += render_load_templates(env, d, req->site_dir);

	if (!errors) {
		char out_default[4096];
		const char *out = req->out_dir;
		if (!out) {
			snprintf(out_default, sizeof out_default, "%s/public", req->site_dir);
			out = out_default;
		}
		struct output *o = output_begin(d, out, req->site_dir);
		if (!o) {
			errors++;
		} else {
			errors += render_site(a, d, &site, env, o, req->site_dir, opts.jobs, &res->pages);
			res->files = output_count(o);
			if (errors)
				output_abort(o);
			else if (output_commit(o))
				errors++;
		}
	}
	res->posts = site.nposts;
	if (mc && math_cache_close(mc) != 0) {
		struct diag_loc loc = {".folio-cache", NULL, 0, 0, 0};
		diag_warning(d, &loc, "cannot save the formula cache (the next build typesets every formula again)");
	}
	math_thread_cleanup();
	if (hl_thread_cleanup)
		hl_thread_cleanup();
	tmpl_env_free(env);
	site_free(&site);
	arena_free(a);
	res->seconds = now_seconds() - t0;
	return errors;
}
