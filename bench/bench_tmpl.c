/* bench_tmpl.c: renders a realistic post page (a 60-line template set with
 * inheritance, an include, a loop over 10 related posts and several filters)
 * many times, and prints renders per second. Usage: bench_tmpl DIR [N] */
#include "tmpl/tmpl.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct tmap *map(struct arena *a)
{
	return tmap_new(a, 8);
}

static void set(struct arena *a, struct tmap *m, const char *k, struct tval v)
{
	tmap_set_cstr(a, m, k, v);
}

static int add_file(struct tmpl_env *env, const char *dir, const char *name, struct diag *d)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	size_t len;
	char *src = read_file(path, &len);
	if (!src) {
		fprintf(stderr, "bench_tmpl: cannot read %s\n", path);
		return 1;
	}
	int errs = tmpl_env_add(env, name, path, src, len, d);
	free(src);
	return errs;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "bench/tmpl";
	long n = argc > 2 ? atol(argv[2]) : 100000;
	struct diag d;
	diag_init(&d, stderr);
	struct tmpl_env *env = tmpl_env_new();
	tmpl_env_set_base_url(env, "https://example.org/blog/");
	int errs = add_file(env, dir, "base.html", &d) + add_file(env, dir, "header.html", &d) +
		   add_file(env, dir, "post.html", &d);
	errs += tmpl_env_check(env, &d);
	if (errs)
		return 1;

	struct arena *a = arena_new();
	struct tmap *site = map(a), *author = map(a), *post = map(a), *series = map(a), *page = map(a);
	struct tlist *menu = tlist_new(a, 4), *tags = tlist_new(a, 4), *related = tlist_new(a, 10);
	set(a, author, "name", tv_cstr("Jae"));
	set(a, site, "title", tv_cstr("Jae's Tech Blog"));
	set(a, site, "description", tv_cstr("Systems writing for engineers who want the deeper model."));
	set(a, site, "language", tv_cstr("en"));
	set(a, site, "author", tv_map(author));
	const char *menu_items[][2] = {{"Home", "/"}, {"Series", "/series/"}, {"Archive", "/archive/"}, {"About", "/about/"}};
	for (int i = 0; i < 4; i++) {
		struct tmap *m = map(a);
		set(a, m, "label", tv_cstr(menu_items[i][0]));
		set(a, m, "url", tv_cstr(menu_items[i][1]));
		tlist_push(a, menu, tv_map(m));
	}
	set(a, site, "menu", tv_list(menu));
	set(a, page, "section", tv_cstr("/series/"));
	const char *tag_names[] = {"cuda", "gpu", "performance", "kernels"};
	for (int i = 0; i < 4; i++)
		tlist_push(a, tags, tv_cstr(tag_names[i]));
	set(a, post, "title", tv_cstr("GPU Systems 13 - Reduction Kernels in Depth"));
	set(a, post, "summary", tv_cstr("<p>Reductions look simple: add up an array. On a GPU they are a lesson in "
					"warps, shared memory, bank conflicts and the cost of synchronisation, and "
					"the fastest version looks nothing like the first.</p>"));
	set(a, post, "category", tv_cstr("GPU Architecture"));
	set(a, post, "date", tv_cstr("2025-03-14"));
	set(a, post, "updated", tv_cstr("2025-04-02"));
	set(a, post, "reading_time", tv_int(9));
	set(a, post, "tags", tv_list(tags));
	set(a, post, "content", tv_safe(STR_LIT("<p>A reduction combines many values into one.</p>"
						"<pre><code>__global__ void reduce(float *x) { }</code></pre>"
						"<p>We start from the naive kernel and improve it step by step.</p>")));
	set(a, series, "position", tv_int(13));
	set(a, series, "total", tv_int(21));
	set(a, series, "title", tv_cstr("GPU Systems"));
	set(a, series, "url", tv_cstr("/series/gpu-systems/"));
	struct tmap *prev = map(a), *next = map(a);
	set(a, prev, "title", tv_cstr("Warp Shuffle and Warp-Level Primitives"));
	set(a, prev, "url", tv_cstr("/posts/gpu-systems-12/"));
	set(a, next, "title", tv_cstr("Why Softmax Is Such a Good Kernel Exercise"));
	set(a, next, "url", tv_cstr("/posts/gpu-systems-14/"));
	set(a, series, "prev", tv_map(prev));
	set(a, series, "next", tv_map(next));
	set(a, post, "series", tv_map(series));
	for (int i = 0; i < 10; i++) {
		struct tmap *r = map(a);
		char *title = arena_alloc(a, 64), *url = arena_alloc(a, 64);
		snprintf(title, 64, "Related post number %d about <kernels> & warps", i + 1);
		snprintf(url, 64, "/posts/related-%d/", i + 1);
		set(a, r, "title", tv_cstr(title));
		set(a, r, "url", tv_cstr(url));
		set(a, r, "reason", tv_cstr(i < 4 ? "same series" : "shared tags"));
		set(a, r, "reading_time", tv_int(5 + i));
		set(a, r, "date", tv_cstr("2024-11-02"));
		tlist_push(a, related, tv_map(r));
	}
	struct tmap *vars = map(a);
	set(a, vars, "site", tv_map(site));
	set(a, vars, "post", tv_map(post));
	set(a, vars, "page", tv_map(page));
	set(a, vars, "related", tv_list(related));
	struct tval v = tv_map(vars);

	struct buf out;
	buf_init(&out);
	struct timespec t0, t1;
	size_t bytes = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++) {
		struct arena *scratch = arena_new();
		buf_reset(&out);
		if (tmpl_render(env, "post.html", &v, &out, scratch, &d))
			return 1;
		bytes += out.len;
		arena_free(scratch);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (getenv("BENCH_TMPL_SHOW")) /* to look at the page being rendered */
		fwrite(out.p, 1, out.len, stdout);
	printf("bench-tmpl: %ld renders of post.html (%zu bytes each) in %.2f s: %.0f renders/s, %.1f MB/s\n", n,
	       bytes / (size_t)(n ? n : 1), secs, (double)n / secs, (double)bytes / secs / 1e6);
	buf_fini(&out);
	arena_free(a);
	tmpl_env_free(env);
	diag_fini(&d);
	return 0;
}
