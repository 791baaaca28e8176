/* test_site.c: the model: series order (posts list, series_order, date),
 * drafts and future posts, neighbours, totals, tags, categories, years,
 * related posts, the home page's lists, and the consistency errors. */
#include "harness.h"

#include "base/arena.h"
#include "base/buf.h"
#include "read/config.h"
#include "read/content.h"
#include "base/diag.h"
#include "model/site.h"
#include "model/parts.h"

#include <stdlib.h>
#include <string.h>

#define NOW 1790000000 /* 2026-09-21, as the golden tests use */

static struct arena *arena;
static struct buf cap;
static char *dir;
static struct config cfg;
static struct content c;
static struct site s;
static int built;
static struct related_cache *use_rc; /* the builds' related cache, or NULL */

static void new_site(void)
{
	if (dir) {
		t_rmtree(dir);
		free(dir);
	}
	dir = t_tmpdir();
}

/* post: writes content/posts/SLUG.md with the front matter lines fm. */
static void post(const char *slug, const char *fm)
{
	char rel[256], text[2048];
	snprintf(rel, sizeof rel, "content/posts/%s.md", slug);
	snprintf(text, sizeof text, "---\ntitle: \"Post %s\"\n%s---\nThe text of %s.\n", slug, fm, slug);
	t_write(dir, rel, text);
}

static void series(const char *slug, const char *fm)
{
	char rel[256], text[2048];
	snprintf(rel, sizeof rel, "content/series/%s.md", slug);
	snprintf(text, sizeof text, "---\ntitle: \"Series %s\"\ndescription: About %s\n%s---\nThe guide.\n", slug, slug,
		 fm);
	t_write(dir, rel, text);
}

/* build: loads the site in dir and computes the model; the error count.
 * The model stays in s until the next build. */
static int build_opts(int drafts, int future, int jobs)
{
	if (built)
		site_free(&s);
	built = 0;
	struct diag d;
	diag_init(&d, NULL);
	buf_reset(&cap);
	d.capture = &cap;
	int e = config_load(arena, &d, dir, NULL, &cfg);
	if (!e) {
		e += content_load(arena, &d, dir, &cfg, &c);
		struct build_opts o = {.drafts = drafts, .future = future, .now = NOW, .jobs = jobs, .max_related = 5,
					 .related_cache = use_rc};
		e += site_build(arena, &d, &cfg, &c, &o, &s);
		built = 1;
	}
	diag_fini(&d);
	return e;
}

static int build(void)
{
	return build_opts(0, 0, 2);
}

static const char *sv(struct str x)
{
	return arena_strndup(arena, x.p ? x.p : "", x.len);
}

/* find: the post (published or not) with this slug. */
static struct post *find(const char *slug)
{
	for (size_t i = 0; i < c.nposts; i++)
		if (str_eq_cstr(c.posts[i]->slug, slug))
			return c.posts[i];
	return NULL;
}

static struct series *find_series(const char *slug)
{
	for (size_t i = 0; i < s.nseries; i++)
		if (str_eq_cstr(s.series[i]->slug, slug))
			return s.series[i];
	return NULL;
}

/* order: the slugs of a series' published posts, "a b c". */
static const char *order(const char *series_slug)
{
	struct series *se = find_series(series_slug);
	if (!se)
		return "(no such series)";
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < se->nposts; i++)
		buf_printf(&b, "%s%.*s", i ? " " : "", STR_FMT(se->posts[i]->slug));
	const char *r = arena_strndup(arena, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
}

/* posts_of: the slugs of a list of posts. */
static const char *posts_of(struct post **v, size_t n)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%.*s", i ? " " : "", STR_FMT(v[i]->slug));
	const char *r = arena_strndup(arena, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
}

/* related_of: "slug (reason), ..." for a published post. */
static const char *related_of(const char *slug)
{
	struct post *p = find(slug);
	if (!p || p->index < 0)
		return "(not published)";
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < s.nrelated[p->index]; i++)
		buf_printf(&b, "%s%.*s (%s)", i ? ", " : "", STR_FMT(s.related[p->index][i].post->slug),
			   s.related[p->index][i].reason);
	const char *r = arena_strndup(arena, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
}

static void test_series_order(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	/* the series file's list decides */
	series("listed", "posts: [l-c, l-a, l-b]\nweight: 2\n");
	post("l-a", "date: 2026-01-01\nseries: listed\nreading_time: 3\n");
	post("l-b", "date: 2026-01-02\nseries: listed\nreading_time: 4\n");
	post("l-c", "date: 2026-01-03\nseries: listed\nseries_order: 1\nreading_time: 5\n");
	/* series_order decides, whatever the dates */
	series("ordered", "weight: 1\n");
	post("o-1", "date: 2026-03-03\nseries: ordered\nseries_order: 3\n");
	post("o-2", "date: 2026-03-02\nseries: ordered\nseries_order: 1\n");
	post("o-3", "date: 2026-03-01\nseries: ordered\nseries_order: 2\n");
	/* no order anywhere: oldest first */
	series("dated", "weight: 1\n");
	post("d-x", "date: 2026-04-03\nseries: dated\n");
	post("d-y", "date: 2026-04-01\nseries: dated\n");
	post("d-z", "date: 2026-04-02\nseries: dated\n");
	/* explicit positions first, then the rest by date */
	series("mixed", "weight: 1\nrecommended_start: m-mid\n");
	post("m-late", "date: 2026-05-09\nseries: mixed\nseries_order: 1\n");
	post("m-early", "date: 2026-05-01\nseries: mixed\n");
	post("m-mid", "date: 2026-05-05\nseries: mixed\nseries_order: 2\n");
	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap), "");
	STR_EQ(order("listed"), "l-c l-a l-b");
	STR_EQ(order("ordered"), "o-2 o-3 o-1");
	STR_EQ(order("dated"), "d-y d-z d-x");
	STR_EQ(order("mixed"), "m-late m-mid m-early");

	/* positions, neighbours (no wrap-around) and totals */
	struct post *lc = find("l-c"), *la = find("l-a"), *lb = find("l-b");
	INT_EQ(lc->part, 1);
	INT_EQ(la->part, 2);
	INT_EQ(lb->part, 3);
	OK(lc->series_prev == NULL);
	OK(lc->series_next == la);
	OK(la->series_prev == lc);
	OK(la->series_next == lb);
	OK(lb->series_prev == la);
	OK(lb->series_next == NULL);
	struct series *se = find_series("listed");
	OK(lc->series == se);
	INT_EQ(se->nposts, 3);
	INT_EQ(se->minutes, 12);
	OK(se->start == lc);
	STR_EQ(sv(se->url), "/series/listed/");
	OK(find_series("mixed")->start == find("m-mid"));
	OK(find_series("dated")->start == find("d-y"));

	/* series by weight, then title */
	INT_EQ(s.nseries, 4);
	STR_EQ(sv(s.series[0]->slug), "dated");
	STR_EQ(sv(s.series[1]->slug), "mixed");
	STR_EQ(sv(s.series[2]->slug), "ordered");
	STR_EQ(sv(s.series[3]->slug), "listed");
	/* not featured: none in the config, none marked */
	INT_EQ(s.nfeatured, 0);

	/* the same model on one thread */
	INT_EQ(build_opts(0, 0, 1), 0);
	STR_EQ(order("mixed"), "m-late m-mid m-early");
	INT_EQ(s.nposts, 12);
}

static void test_drafts_and_future(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\nbest_of: [d2, d1]\n");
	series("s", "");
	post("d1", "date: 2026-01-01\nseries: s\nseries_order: 1\nreading_time: 1\n");
	post("d2", "date: 2026-01-02\nseries: s\nseries_order: 2\ndraft: true\nreading_time: 2\n");
	post("d3", "date: 2026-01-03\nseries: s\nseries_order: 3\nreading_time: 4\n");
	post("d4", "date: 2027-01-04\nseries: s\nseries_order: 4\nreading_time: 8\n");
	/* one second after "now" is the future; "now" itself is not */
	post("now", "date: 2026-09-21T14:13:20Z\ntags: [t]\n");
	post("later", "date: 2026-09-21T14:13:21Z\ntags: [t]\n");
	t_write(dir, "content/pages/wip.md", "---\ntitle: WIP\ndraft: true\n---\n");

	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap), "");
	STR_EQ(posts_of(s.posts, s.nposts), "now d3 d1");
	STR_EQ(order("s"), "d1 d3");
	/* a draft keeps its number: d3 is part 3, the second published */
	INT_EQ(find("d1")->part, 1);
	INT_EQ(find("d3")->part, 3);
	INT_EQ(find("d3")->place, 2);
	INT_EQ(find_series("s")->last_part, 4);
	OK(find("d3")->series_prev == find("d1"));
	OK(find("d1")->series_next == find("d3"));
	OK(find("d3")->series_next == NULL);
	INT_EQ(find("d2")->index, -1);
	INT_EQ(find("d2")->part, 2);
	INT_EQ(find("d2")->place, 0);
	OK(find("d2")->series == NULL);
	INT_EQ(find("d4")->index, -1);
	INT_EQ(find_series("s")->nposts, 2);
	INT_EQ(find_series("s")->minutes, 5);
	INT_EQ(s.total_minutes, 5 + find("now")->minutes);
	/* a draft in best_of is left out, not an error */
	INT_EQ(s.nbest_of, 1);
	OK(s.nbest_of == 1 && s.best_of[0].post == find("d1"));
	INT_EQ(s.npages, 0);
	INT_EQ(s.ntags, 1);
	INT_EQ(s.ntags ? s.tags[0].nposts : 0, 1);

	INT_EQ(build_opts(1, 0, 2), 0);
	STR_EQ(posts_of(s.posts, s.nposts), "now d3 d2 d1");
	STR_EQ(order("s"), "d1 d2 d3");
	/* publishing the draft renumbers nothing */
	INT_EQ(find("d3")->part, 3);
	INT_EQ(find("d2")->part, 2);
	INT_EQ(find("d3")->place, 3);
	INT_EQ(find_series("s")->last_part, 4);
	INT_EQ(s.nbest_of, 2);
	INT_EQ(s.npages, 1);

	INT_EQ(build_opts(0, 1, 2), 0);
	STR_EQ(posts_of(s.posts, s.nposts), "d4 later now d3 d1");
	STR_EQ(order("s"), "d1 d3 d4");
	INT_EQ(find("d4")->part, 4);
	INT_EQ(find("d4")->place, 3);
	INT_EQ(find_series("s")->minutes, 13);

	INT_EQ(build_opts(1, 1, 2), 0);
	STR_EQ(order("s"), "d1 d2 d3 d4");
	INT_EQ(find("d4")->part, 4);
	OK(find("d4")->series_next == NULL);
	OK(find("d1")->series_prev == NULL);
	INT_EQ(s.nposts, 6);
}

/* post_titled: post() with its title. */
static void post_titled(const char *slug, const char *title, const char *fm)
{
	char rel[256], text[2048];
	snprintf(rel, sizeof rel, "content/posts/%s.md", slug);
	snprintf(text, sizeof text, "---\ntitle: \"%s\"\n%s---\nThe text of %s.\n", title, fm, slug);
	t_write(dir, rel, text);
}

/* parts_of: "slug=part ..." of a series' published posts. */
static const char *parts_of(const char *series_slug)
{
	struct series *se = find_series(series_slug);
	if (!se)
		return "(no such series)";
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < se->nposts; i++)
		buf_printf(&b, "%s%.*s=%d", i ? " " : "", STR_FMT(se->posts[i]->slug), se->posts[i]->part);
	const char *r = arena_strndup(arena, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
}

/* A part's number: its place among all the parts, drafts included, from
 * the series' numbering; part: gives one, and those after it count on. */
static void test_parts(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	series("s", "posts: [a, b, c, d, e]\n");
	post("a", "date: 2026-01-01\nseries: s\n");
	post("b", "date: 2026-01-02\nseries: s\ndraft: true\n");
	/* part 3 was removed: the titles keep their numbers */
	post("c", "date: 2026-01-03\nseries: s\npart: 4\n");
	post("d", "date: 2026-01-04\nseries: s\n");
	post("e", "date: 2027-01-05\nseries: s\n");
	series("zero", "numbering: 0\n");
	post("z0", "date: 2026-02-01\nseries: zero\n");
	post("z1", "date: 2026-02-02\nseries: zero\n");
	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap), "");
	STR_EQ(parts_of("s"), "a=1 c=4 d=5");
	INT_EQ(find("b")->part, 2);
	INT_EQ(find("e")->part, 6);
	INT_EQ(find_series("s")->last_part, 6);
	STR_EQ(parts_of("zero"), "z0=0 z1=1");
	INT_EQ(find_series("zero")->last_part, 1);
	/* with drafts and the future: the same numbers */
	INT_EQ(build_opts(1, 1, 2), 0);
	STR_EQ(parts_of("s"), "a=1 b=2 c=4 d=5 e=6");
	INT_EQ(find("d")->place, 4);

	/* a number taken, a number going back, and invalid values */
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	series("s", "");
	post("a", "date: 2026-01-01\nseries: s\n");
	post("b", "date: 2026-01-02\nseries: s\npart: 5\n");
	post("c", "date: 2026-01-03\nseries: s\ndraft: true\n");
	post("d", "date: 2026-01-04\nseries: s\npart: 6\n");
	post("e", "date: 2026-01-05\nseries: s\npart: 2\n");
	post("f", "date: 2026-01-06\nseries: s\npart: -1\n");
	post("g", "date: 2026-01-07\nseries: s\npart: two\n");
	post("h", "date: 2026-01-08\npart: 3\n");
	OK(build() >= 5);
	STR_EQ(t_msgs(&cap),
	       "content/posts/f.md:5:7: error: 'part' must be between 0 and 100000, found -1\n"
	       "content/posts/g.md:5:7: error: 'part' must be an integer, found 'two'\n"
	       "content/posts/h.md:4:7: error: 'part' without 'series' (hint: add 'series: SLUG')\n"
	       "content/posts/d.md:5:7: error: part 6 of series 's' is also taken by content/posts/c.md (two posts "
	       "cannot share a number)\n"
	       "content/posts/e.md:5:7: error: part 2 of series 's' comes after part 6, content/posts/c.md (the "
	       "numbers must grow in the series' order)");
}

/* the warning of a title whose own number is not its part's */
static void test_part_titles(void)
{
	struct str pre;
	int head;
	INT_EQ(parts_title_number(str_from("Series, Part 66: Topic"), &pre, &head), 66);
	INT_EQ(head, 0);
	INT_EQ(parts_title_number(str_from("Python Lecture part 1 - Philosophy"), &pre, &head), 1);
	INT_EQ(parts_title_number(str_from("GPU Systems 07 - Occupancy"), &pre, &head), 7);
	INT_EQ(head, 1);
	STR_EQ(sv(pre), "GPU Systems");
	INT_EQ(parts_title_number(str_from("MLOps 02: Data Pipelines"), &pre, &head), 2);
	INT_EQ(parts_title_number(str_from("12 \xe2\x80\x94 The Last"), &pre, &head), 12);
	STR_EQ(sv(pre), "");
	INT_EQ(parts_title_number(str_from("Counterpart 3 - not a part"), &pre, &head), 3);
	INT_EQ(head, 1);
	INT_EQ(parts_title_number(str_from("Part 1.5 and Part 2b"), &pre, &head), -1);
	INT_EQ(parts_title_number(str_from("2024: The Year"), &pre, &head), -1);
	INT_EQ(parts_title_number(str_from("CUDA12 - no space"), &pre, &head), -1);
	INT_EQ(parts_title_number(str_from("Top 10 tips"), &pre, &head), -1);
	INT_EQ(parts_title_number(str_from("Departures 4"), &pre, &head), -1);

	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	series("gpu", "numbering: 0\n");
	post_titled("g0", "GPU Systems 00 - Before", "date: 2026-01-01\nseries: gpu\n");
	post_titled("g1", "GPU Systems 02 - Roadmap", "date: 2026-01-02\nseries: gpu\n");
	post_titled("g2", "GPU Systems 02 - Threads", "date: 2026-01-03\nseries: gpu\ndraft: true\n");
	post_titled("g3", "Part 66", "date: 2026-01-04\nseries: gpu\n");
	/* a number that ends the head of one title only is no part number */
	post_titled("g4", "Python 3: What Changed", "date: 2026-01-05\nseries: gpu\n");
	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap),
	       "content/posts/g1.md:2:8: warning: the title says part 2, but this is part 1 of series 'gpu' (hint: give "
	       "'part: 2' if the title is right; see SERIES in folio-site(5))\n"
	       "content/posts/g3.md:2:8: warning: the title says part 66, but this is part 3 of series 'gpu' (hint: give "
	       "'part: 66' if the title is right; see SERIES in folio-site(5))");
	/* given its part, the title agrees, and the next counts on */
	post_titled("g3", "Part 66", "date: 2026-01-04\nseries: gpu\npart: 66\n");
	post_titled("g4", "Part 67", "date: 2026-01-05\nseries: gpu\n");
	post_titled("g1", "GPU Systems 01 - Roadmap", "date: 2026-01-02\nseries: gpu\n");
	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap), "");
	STR_EQ(parts_of("gpu"), "g0=0 g1=1 g3=66 g4=67");
}

static void test_terms_years(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	post("t1", "date: 2026-01-01\ntags: [CUDA, gpu]\ncategory: ml systems\nreading_time: 2\n");
	post("t2", "date: 2026-02-01\ntags: [cuda, \"C++\"]\ncategory: ML Systems\nreading_time: 3\n");
	post("t3", "date: 2026-03-01\ntags: [Cuda, Gpu, gpu]\nreading_time: 4\n");
	post("t4", "date: 2025-06-01\ntags: [\"+++\"]\ncategory: ML Systems\nreading_time: 5\n");
	post("t5", "date: 2026-03-01\ncategory: Compilers\nreading_time: 6\n"); /* same day as t3 */
	INT_EQ(build(), 0);
	/* spellings of one name in case: one term, a warning */
	STR_EQ(t_msgs(&cap),
	       "content/posts/t2.md:4:8: warning: tag 'cuda' is also written 'CUDA' (content/posts/t1.md), 'Cuda' "
	       "(content/posts/t3.md); all are shown as 'CUDA'\n"
	       "content/posts/t3.md:4:14: warning: tag 'Gpu' is also written 'gpu' (content/posts/t1.md); all are "
	       "shown as 'gpu'\n"
	       "content/posts/t1.md:5:11: warning: category 'ml systems' is also written 'ML Systems' "
	       "(content/posts/t4.md); all are shown as 'ML Systems'");
	/* newest first; the same instant: by slug */
	STR_EQ(posts_of(s.posts, s.nposts), "t3 t5 t2 t1 t4");
	INT_EQ(s.total_minutes, 20);
	for (size_t i = 0; i < s.nposts; i++)
		INT_EQ(s.posts[i]->index, i);
	OK(find("t3")->newer == NULL);
	OK(find("t3")->older == find("t5"));
	OK(find("t2")->newer == find("t5"));
	OK(find("t4")->older == NULL);
	STR_EQ(sv(find("t1")->url), "/posts/t1/");

	/* tags by slug; the name the spelling most posts write, of equals the
	 * first in byte order */
	INT_EQ(s.ntags, 4);
	if (s.ntags == 4) {
		STR_EQ(sv(s.tags[0].slug), "c-plus-plus");
		STR_EQ(sv(s.tags[0].name), "C++");
		STR_EQ(sv(s.tags[1].slug), "cuda");
		STR_EQ(sv(s.tags[1].name), "CUDA"); /* CUDA, cuda, Cuda: one post each */
		STR_EQ(posts_of(s.tags[1].posts, s.tags[1].nposts), "t3 t2 t1");
		STR_EQ(sv(s.tags[2].slug), "gpu");
		STR_EQ(sv(s.tags[2].name), "gpu"); /* two posts against one */
		/* t3 lists the tag twice and appears once */
		STR_EQ(posts_of(s.tags[2].posts, s.tags[2].nposts), "t3 t1");
		STR_EQ(sv(s.tags[3].slug), "plus-plus-plus");
		STR_EQ(sv(s.tags[3].name), "+++");
	}
	/* each post's terms as the site names them, each once */
	struct post_terms *pt = &s.post_terms[find("t3")->index];
	INT_EQ(pt->ntags, 2);
	if (pt->ntags == 2) {
		STR_EQ(sv(pt->tags[0]->name), "CUDA");
		STR_EQ(sv(pt->tags[1]->name), "gpu");
	}
	OK(pt->category == NULL);
	pt = &s.post_terms[find("t1")->index];
	OK(pt->category && str_eq_cstr(pt->category->name, "ML Systems"));
	INT_EQ(s.ncategories, 2);
	if (s.ncategories == 2) {
		STR_EQ(sv(s.categories[0].slug), "compilers");
		STR_EQ(sv(s.categories[1].slug), "ml-systems");
		STR_EQ(sv(s.categories[1].name), "ML Systems");
		STR_EQ(posts_of(s.categories[1].posts, s.categories[1].nposts), "t2 t1 t4");
	}
	INT_EQ(s.nyears, 2);
	if (s.nyears == 2) {
		INT_EQ(s.years[0].year, 2026);
		STR_EQ(posts_of(s.years[0].posts, s.years[0].nposts), "t3 t5 t2 t1");
		INT_EQ(s.years[1].year, 2025);
		STR_EQ(posts_of(s.years[1].posts, s.years[1].nposts), "t4");
	}

	/* the year is the local one: 05:00 on New Year's Day in Seoul is still
	 * the old year in UTC */
	new_site();
	t_write(dir, "folio.yml", "title: T\ntimezone: Asia/Seoul\n");
	post("new-year", "date: 2026-01-01 05:00\n");
	post("eve", "date: 2025-12-31T19:00:00Z\n"); /* an explicit offset keeps its own date */
	INT_EQ(build(), 0);
	INT_EQ(find("new-year")->date.utc, find("eve")->date.utc + 3600);
	INT_EQ(s.nyears, 2);
	if (s.nyears == 2) {
		INT_EQ(s.years[0].year, 2026);
		STR_EQ(posts_of(s.years[0].posts, s.years[0].nposts), "new-year");
		INT_EQ(s.years[1].year, 2025);
	}
}

/* tags_of: "slug=Name (posts)" of every tag. */
static const char *tags_of(void)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < s.ntags; i++)
		buf_printf(&b, "%s%.*s=%.*s (%s)", i ? ", " : "", STR_FMT(s.tags[i].slug), STR_FMT(s.tags[i].name),
			   posts_of(s.tags[i].posts, s.tags[i].nposts));
	const char *r = arena_strndup(arena, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return r;
}

/* Names that slugify once merged (C, C++, C#) are terms of their own;
 * spellings in case and spacing are one term; names that still share a URL
 * are an error. */
static void test_term_names(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	post("c1", "date: 2026-01-01\ntags: [C, \"C++\", \"C#\"]\n");
	post("c2", "date: 2026-01-02\ntags: [\"C++\", \"F#\", .NET, \"R&D\"]\n");
	post("c3", "date: 2026-01-03\ntags:\n  - \"C#\"\n  - deep learning\n");
	post("c4", "date: 2026-01-04\ntags: [\"Deep  Learning\", deep learning, DEEP LEARNING]\n");
	post("c5", "date: 2026-01-05\ntags: [\"deep learning\"]\n");
	post("draft", "date: 2026-01-06\ndraft: true\ntags: [\"Deep Learning\", \"c--\"]\n"); /* not built */
	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap), "content/posts/c4.md:4:8: warning: tag 'Deep  Learning' is also written 'deep learning' "
			     "(content/posts/c3.md), 'DEEP LEARNING' (content/posts/c4.md); all are shown as 'deep learning'");
	STR_EQ(tags_of(), "c=C (c1), c-plus-plus=C++ (c2 c1), c-sharp=C# (c3 c1), deep-learning=deep learning (c5 c4 c3), "
			  "dotnet=.NET (c2), f-sharp=F# (c2), r-and-d=R&D (c2)");
	/* c4 writes one name three ways: it is listed once */
	struct post_terms *pt = &s.post_terms[find("c4")->index];
	INT_EQ(pt->ntags, 1);
	if (pt->ntags == 1)
		STR_EQ(sv(pt->tags[0]->slug), "deep-learning");

	/* the spelling most posts write wins; of equals, the first in byte
	 * order, whatever the order of the posts */
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	post("a", "date: 2026-01-01\ntags: [cuda]\ncategory: ml\n");
	post("b", "date: 2026-01-02\ntags: [Cuda]\ncategory: ML\n");
	post("c", "date: 2026-01-03\ntags: [CUDA]\ncategory: ML\n");
	INT_EQ(build(), 0);
	STR_EQ(tags_of(), "cuda=CUDA (c b a)");
	INT_EQ(s.ncategories, 1);
	if (s.ncategories == 1)
		STR_EQ(sv(s.categories[0].name), "ML");
	STR_EQ(t_msgs(&cap), "content/posts/a.md:4:8: warning: tag 'cuda' is also written 'Cuda' (content/posts/b.md), "
			     "'CUDA' (content/posts/c.md); all are shown as 'CUDA'\n"
			     "content/posts/a.md:5:11: warning: category 'ml' is also written 'ML' (content/posts/b.md); all "
			     "are shown as 'ML'");

	/* two names, one URL: an error at each later name (oldest first),
	 * naming the first and the oldest post that writes it ('A-B' is a
	 * spelling of 'a b', a hyphen between letters being spacing) */
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	post("x", "date: 2026-01-01\ntags: [\"a b\", C]\ncategory: R&D\n");
	post("y", "date: 2026-01-02\ntags: [ok, \"a/b\", \"C--\"]\ncategory: R and D\n");
	post("z", "date: 2026-01-03\ntags: [A-B]\n");
	INT_EQ(build(), 3);
	STR_EQ(t_msgs(&cap),
	       "content/posts/x.md:4:8: warning: tag 'a b' is also written 'A-B' (content/posts/z.md); all are shown "
	       "as 'A-B'\n"
	       "content/posts/y.md:4:12: error: tag 'a/b' and tag 'a b' (content/posts/x.md) would share the URL "
	       "/tags/a-b/ (hint: rename one of them; see POSTS in folio-site(5))\n"
	       "content/posts/y.md:4:19: error: tag 'C--' and tag 'C' (content/posts/x.md) would share the URL /tags/c/ "
	       "(hint: rename one of them; see POSTS in folio-site(5))\n"
	       "content/posts/y.md:5:11: error: category 'R and D' and category 'R&D' (content/posts/x.md) would share "
	       "the URL /categories/r-and-d/ (hint: rename one of them; see POSTS in folio-site(5))");
}

/* Years follow the local date, posts the instant: with posts written in
 * different offsets around New Year, the two orders disagree, and each
 * year must still appear once. */
static void test_years_mixed_offsets(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	post("a", "date: 2026-01-01T00:30:00+09:00\n"); /* 2025-12-31T15:30Z, year 2026 */
	post("b", "date: 2025-12-31T20:00:00Z\n");      /* year 2025 */
	post("c", "date: 2026-01-01T06:00:00+09:00\n"); /* 2025-12-31T21:00Z, year 2026 */
	INT_EQ(build(), 0);
	STR_EQ(posts_of(s.posts, s.nposts), "c b a");
	INT_EQ(s.nyears, 2);
	for (size_t i = 0; i + 1 < s.nyears; i++)
		OK(s.years[i].year > s.years[i + 1].year);
	size_t total = 0;
	for (size_t i = 0; i < s.nyears; i++)
		total += s.years[i].nposts;
	INT_EQ(total, 3);
}

static void test_related(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	series("s", "");
	post("r1", "date: 2026-01-01\nseries: s\nseries_order: 1\ntags: [a]\n");
	post("r2", "date: 2026-01-10\nseries: s\nseries_order: 2\ntags: [a, b]\n");
	post("r3", "date: 2026-01-20\nseries: s\nseries_order: 3\ntags: [a]\n");
	post("x1", "date: 2026-01-11\ntags: [a, b]\n");
	post("x2", "date: 2026-01-12\ntags: [B]\n");
	post("x3", "date: 2026-06-01\n");
	post("x4", "date: 2025-01-01\n");
	INT_EQ(build(), 0);
	STR_EQ(related_of("r2"), "r1 (previous in the series), r3 (next in the series), x1 (shared tags), "
				 "x2 (shared tags), x4 (recent)");
	STR_EQ(related_of("x1"), "r2 (shared tags), x2 (shared tags), r3 (shared tags), r1 (shared tags), x3 (recent)");
	STR_EQ(related_of("x3"), "r3 (recent), x2 (recent), x1 (recent), r2 (recent), r1 (recent)");
	STR_EQ(related_of("r1"), "r2 (next in the series), x1 (shared tags), r3 (shared tags), x4 (recent), "
				 "x2 (recent)");
	STR_EQ(related_of("x4"), "r1 (recent), r2 (recent), x1 (recent), x2 (recent), r3 (recent)");
}

/* all_related: related_of of every post, one per line. */
static const char *all_related(void)
{
	static const char *const slugs[] = {"r1", "r2", "r3", "x1", "x2", "x3", "x4"};
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < sizeof slugs / sizeof *slugs; i++)
		buf_printf(&b, "%s: %s\n", slugs[i], related_of(slugs[i]));
	const char *r = arena_strndup(arena, b.p, b.len);
	buf_fini(&b);
	return r;
}

/* The related posts kept between processes: written, read back into a
 * new cache, reused while nothing they depend on changes, made anew when
 * it does, and a damaged copy refused. */
static void test_related_kept(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	series("s", "");
	post("r1", "date: 2026-01-01\nseries: s\nseries_order: 1\ntags: [a]\n");
	post("r2", "date: 2026-01-10\nseries: s\nseries_order: 2\ntags: [a, b]\n");
	post("r3", "date: 2026-01-20\nseries: s\nseries_order: 3\ntags: [a]\n");
	post("x1", "date: 2026-01-11\ntags: [a, b]\n");
	post("x2", "date: 2026-01-12\ntags: [B]\n");
	post("x3", "date: 2026-06-01\n");
	post("x4", "date: 2025-01-01\n");
	INT_EQ(build(), 0);
	const char *fresh = all_related();

	struct related_cache *rc = related_cache_new();
	struct buf bytes;
	buf_init(&bytes);
	related_cache_write(rc, &bytes);
	INT_EQ(bytes.len, 0); /* nothing kept yet: nothing written */
	use_rc = rc;
	INT_EQ(build(), 0);
	OK(related_cache_dirty(rc));
	STR_EQ(all_related(), fresh);
	related_cache_write(rc, &bytes);
	OK(bytes.len > 0);
	OK(!related_cache_dirty(rc));
	related_cache_free(rc);

	/* another process: the lists read back, and used as they are */
	rc = use_rc = related_cache_new();
	INT_EQ(related_cache_read(rc, bytes.p, bytes.len), 0);
	OK(!related_cache_dirty(rc));
	INT_EQ(build(), 0);
	OK(!related_cache_dirty(rc)); /* reused, not made */
	STR_EQ(all_related(), fresh);

	/* every byte matters: one changed, or the file cut, and it is refused
	 * (the lists are then made anew, as they were) */
	int refused = 0;
	for (size_t i = 0; i < bytes.len; i++) {
		bytes.p[i] ^= 0x10;
		refused += related_cache_read(rc, bytes.p, bytes.len) != 0;
		bytes.p[i] ^= 0x10;
	}
	INT_EQ(refused, bytes.len);
	for (size_t n = 0; n < bytes.len; n += 7)
		OK(related_cache_read(rc, bytes.p, n) != 0);
	INT_EQ(build(), 0);
	OK(related_cache_dirty(rc));
	STR_EQ(all_related(), fresh);

	/* a tag changed: the kept lists no longer fit, and are made anew */
	INT_EQ(related_cache_read(rc, bytes.p, bytes.len), 0);
	post("x4", "date: 2025-01-01\ntags: [b]\n");
	INT_EQ(build(), 0);
	OK(related_cache_dirty(rc));
	const char *changed = all_related();
	OK(strcmp(changed, fresh) != 0);
	use_rc = NULL;
	INT_EQ(build(), 0);
	STR_EQ(all_related(), changed);
	related_cache_free(rc);
	buf_fini(&bytes);
}

static void test_home_lists(void)
{
	new_site();
	t_write(dir, "folio.yml",
		"title: T\n"
		"start_here: start\n"
		"best_of:\n"
		"  - b\n"
		"  - post: a\n"
		"    note: \"Read this first.\"\n"
		"featured_series: [two, one]\n");
	post("a", "date: 2026-01-01\n");
	post("b", "date: 2026-01-02\n");
	series("one", "featured: true\n");
	series("two", "");
	series("three", "featured: true\n");
	t_write(dir, "content/pages/start.md", "---\ntitle: Start here\n---\nRead in order.\n");
	t_write(dir, "content/pages/about.md", "---\ntitle: About\nslug: about-me\n---\n");
	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap), "");
	OK(s.start_here != NULL && str_eq_cstr(s.start_here->slug, "start"));
	INT_EQ(s.nbest_of, 2);
	if (s.nbest_of == 2) {
		OK(s.best_of[0].post == find("b"));
		INT_EQ(s.best_of[0].note.len, 0);
		OK(s.best_of[1].post == find("a"));
		STR_EQ(sv(s.best_of[1].note), "Read this first.");
	}
	/* featured_series in its own order, whatever the files say */
	INT_EQ(s.nfeatured, 2);
	if (s.nfeatured == 2) {
		STR_EQ(sv(s.featured[0]->slug), "two");
		STR_EQ(sv(s.featured[1]->slug), "one");
	}
	INT_EQ(s.npages, 2);
	if (s.npages == 2) {
		STR_EQ(sv(s.pages[0]->url), "/about-me/");
		STR_EQ(sv(s.pages[1]->url), "/start/");
	}
	/* an empty series: no posts, no start */
	OK(find_series("one")->nposts == 0 && find_series("one")->start == NULL);

	/* without featured_series: the series marked featured, by weight then title */
	t_write(dir, "folio.yml", "title: T\n");
	series("three", "featured: true\nweight: -1\n");
	INT_EQ(build(), 0);
	INT_EQ(s.nfeatured, 2);
	if (s.nfeatured == 2) {
		STR_EQ(sv(s.featured[0]->slug), "three");
		STR_EQ(sv(s.featured[1]->slug), "one");
	}
	OK(s.start_here == NULL);
	INT_EQ(s.nbest_of, 0);
}

/* a series file with an error is not reported again as unknown by each of
 * its posts, nor by featured_series */
static void test_failed_series(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\nfeatured_series: [broken]\n");
	series("broken", "weight: heavy\n");
	post("p-one", "date: 2026-01-01\nseries: broken\n");
	post("p-two", "date: 2026-01-02\nseries: broken\n");
	post("p-typo", "date: 2026-01-03\nseries: brokn\n");
	OK(build() >= 1);
	STR_EQ(t_msgs(&cap),
	       "content/series/broken.md:4:9: error: 'weight' must be an integer, found 'heavy'\n"
	       "content/posts/p-typo.md:4:9: error: unknown series 'brokn' (series are the files in content/series/)");
}

static void test_series_errors(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	series("gpu", "");
	series("listed", "posts: [p-a, p-a, nope, p-other, p-disagree]\nrecommended_start: p-outsider\n");
	series("other", "recommended_start: p-othr\n");
	post("p-typo", "date: 2026-01-01\nseries: gpuu\n");
	post("p-zzz", "date: 2026-01-01\nseries: zzzzzz\n");
	post("p-first", "date: 2026-01-01\nseries: gpu\nseries_order: 1\n");
	post("p-second", "date: 2026-01-02\nseries: gpu\nseries_order: 1\n");
	post("p-a", "date: 2026-01-03\nseries: listed\n");
	post("p-other", "date: 2026-01-04\nseries: other\n");
	post("p-disagree", "date: 2026-01-05\nseries: listed\nseries_order: 2\n");
	post("p-unlisted", "date: 2026-01-06\nseries: listed\n");
	post("p-outsider", "date: 2026-01-07\n");
	INT_EQ(build(), 10);
	STR_EQ(t_msgs(&cap),
	       "content/posts/p-typo.md:4:9: error: unknown series 'gpuu' (did you mean 'gpu'?)\n"
	       "content/posts/p-zzz.md:4:9: error: unknown series 'zzzzzz' (series are the files in content/series/)\n"
	       "content/posts/p-second.md:5:15: error: position 1 of series 'gpu' is also taken by "
	       "content/posts/p-first.md (two posts cannot share a position)\n"
	       "content/series/listed.md:4:14: error: post 'p-a' is listed twice\n"
	       "content/series/listed.md:4:19: error: no post 'nope' for this series\n"
	       "content/series/listed.md:4:25: error: post 'p-other' belongs to series 'other' (its front matter says "
	       "so)\n"
	       "content/posts/p-disagree.md:5:15: error: series_order 2 disagrees with the series file, which lists "
	       "this post at position 5\n"
	       "content/posts/p-unlisted.md:4:9: error: this post names series 'listed', whose 'posts' list does not "
	       "include 'p-unlisted'\n"
	       "content/series/listed.md:5:20: error: recommended_start 'p-outsider' is not a post of this series\n"
	       "content/series/other.md:4:20: error: recommended_start names no post: 'p-othr' (did you mean "
	       "'p-other'?)");
}

static void test_site_errors(void)
{
	new_site();
	t_write(dir, "folio.yml",
		"title: T\n"
		"start_here: strat\n"
		"best_of: [hello, nothing-like-it]\n"
		"featured_series: [gpus]\n");
	series("gpu", "");
	post("hello", "date: 2026-01-01\n");
	post("other", "date: 2026-01-02\nslug: hello\n");
	t_write(dir, "content/pages/start.md", "---\ntitle: S\n---\n");
	t_write(dir, "content/pages/tags.md", "---\ntitle: Tags\n---\n");
	t_write(dir, "content/pages/a.md", "---\ntitle: A\nslug: start\n---\n");
	t_write(dir, "content/pages/b.md", "---\ntitle: B\nslug: feed.xml\n---\n");
	INT_EQ(build(), 7);
	STR_EQ(t_msgs(&cap),
	       "content/posts/other.md:4:7: error: duplicate slug 'hello': content/posts/hello.md has it too (URLs "
	       "must be unique)\n"
	       "content/posts/hello.md:1:1: note: the post that has it first\n"
	       "content/pages/b.md:3:7: error: the page slug 'feed.xml' is taken by folio's own pages (rename the file "
	       "or set 'slug')\n"
	       "content/pages/start.md:1:1: error: duplicate page slug 'start': content/pages/a.md has it too\n"
	       "content/pages/a.md:3:7: note: the page that has it first\n"
	       "content/pages/tags.md:1:1: error: the page slug 'tags' is taken by folio's own pages (rename the file "
	       "or set 'slug')\n"
	       "folio.yml:2:13: error: start_here names no page: 'strat' (did you mean 'start'?) (pages are the files "
	       "in content/pages/)\n"
	       "folio.yml:3:18: error: best_of names no post: 'nothing-like-it'\n"
	       "folio.yml:4:19: error: featured_series names no series: 'gpus' (did you mean 'gpu'?)");
}

/* slugs that differ only in case: a warning at each later one, with a
 * note at the first; the site is built (each URL is its own folder here) */
static void test_site_case(void)
{
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	post("Hello", "date: 2026-01-01\n");
	post("hello", "date: 2026-01-02\n");
	post("other", "date: 2026-01-03\nslug: HELLO\n");
	post("plain", "date: 2026-01-04\n");
	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap),
	       "content/posts/hello.md:1:1: warning: slug 'hello' differs only in case from 'Hello' "
	       "(content/posts/Hello.md): on a file system that ignores case (macOS, Windows) their URLs are one "
	       "folder, and one post replaces the other (hint: rename one)\n"
	       "content/posts/Hello.md:1:1: note: the post with the other spelling\n"
	       "content/posts/other.md:4:7: warning: slug 'HELLO' differs only in case from 'Hello' "
	       "(content/posts/Hello.md): on a file system that ignores case (macOS, Windows) their URLs are one "
	       "folder, and one post replaces the other (hint: rename one)\n"
	       "content/posts/Hello.md:1:1: note: the post with the other spelling");
	INT_EQ((int)s.nposts, 4);
	/* a capital letter alone is no clash */
	new_site();
	t_write(dir, "folio.yml", "title: T\n");
	post("Hello", "date: 2026-01-01\n");
	post("plain", "date: 2026-01-02\nslug: Plain-Too\n");
	INT_EQ(build(), 0);
	STR_EQ(t_msgs(&cap), "");
}

void test_site(void)
{
	t_current = "site";
	arena = arena_new();
	buf_init(&cap);
	test_series_order();
	test_drafts_and_future();
	test_parts();
	test_part_titles();
	test_terms_years();
	test_term_names();
	test_years_mixed_offsets();
	test_related();
	test_related_kept();
	test_home_lists();
	test_series_errors();
	test_failed_series();
	test_site_errors();
	test_site_case();
	if (built)
		site_free(&s);
	built = 0;
	t_rmtree(dir);
	free(dir);
	dir = NULL;
	buf_fini(&cap);
	arena_free(arena);
	arena = NULL;
}
