/* render.c: builds the template values of the model once (maps and lists
 * in the build's arena, shared by every page), lists the pages to write,
 * and renders them on worker threads. */
#include "render/render.h"

#include "base/map.h"
#include "base/pool.h"
#include "formats/schema.h"
#include "base/slug.h"
#include "read/theme.h"
#include "model/links.h"

#include <stdarg.h>

#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- values ---- */

struct model {
	struct arena *a;
	const struct site *s;
	const struct render_deps *deps; /* NULL: no ids */
	struct render_plan *plan;       /* where the values behind ids go */
	struct tval *post_vals; /* by post->index */
	struct tval *series_vals; /* by position in s->series */
	struct tval tags, categories, years, all_posts, all_series;
	struct tval *tag_vals, *category_vals, *year_vals;
};

static struct tval S(struct str s)
{
	return tv_str(s);
}

static struct tval C(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* vfmt: fmt's text, in a (a short one made on the stack first: most are
 * a URL or a key, and a model has tens of thousands of them). */
static struct str vfmt(struct arena *a, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static struct str vfmt(struct arena *a, const char *fmt, va_list ap)
{
	char small[256];
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n < 0)
		n = 0;
	char *p;
	if ((size_t)n < sizeof small) {
		p = arena_strndup(a, small, (size_t)n);
	} else {
		p = arena_alloc_raw(a, (size_t)n + 1);
		vsnprintf(p, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	return (struct str){p, (size_t)n};
}

static struct tval C(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct str v = vfmt(a, fmt, ap);
	va_end(ap);
	return tv_str(v);
}

static void set(struct arena *a, struct tmap *m, const char *k, struct tval v)
{
	tmap_set_cstr(a, m, k, v);
}

/* dep_of: the id of kind:name (0 without deps), and v noted as the value
 * behind it. */
static uint32_t dep_of(struct model *md, const char *kind, struct str name, struct tval v, int is_map)
{
	if (!md->deps)
		return 0;
	/* "kind:name", on the stack when it fits */
	char small[256], *k = small;
	size_t kl = strlen(kind), len = kl + 1 + name.len;
	if (len >= sizeof small)
		k = xmalloc(len + 1);
	memcpy(k, kind, kl);
	k[kl] = ':';
	if (name.len)
		memcpy(k + kl + 1, name.p, name.len);
	k[len] = '\0';
	uint32_t id = md->deps->id(md->deps->ctx, k, len, is_map ? TMPL_DEP_FIELDS + 1 : 1);
	if (k != small)
		free(k);
	struct render_plan *pl = md->plan;
	if (pl->nvals == pl->cap_vals) {
		size_t cap = pl->cap_vals ? pl->cap_vals * 2 : 1024;
		pl->vals = arena_realloc(md->a, pl->vals, pl->cap_vals * sizeof *pl->vals, cap * sizeof *pl->vals);
		pl->cap_vals = cap;
	}
	pl->vals[pl->nvals++] = (struct render_dep_val){id, is_map, v};
	return id;
}

/* mark: gives map m the id of kind:name. */
static void mark(struct model *md, struct tmap *m, const char *kind, struct str name)
{
	m->dep = dep_of(md, kind, name, tv_map(m), 1);
	/* unchanged while pages render: a post's card made once serves every
	 * page that shows it (tmpl_memo) */
	tmap_freeze(m);
}

/* global: a template global, with an id of its own. */
static void global(struct model *md, struct tmpl_env *env, const char *name, struct tval v)
{
	tmpl_env_set_global_dep(env, name, v, dep_of(md, "global", str_from(name), v, 0));
}

/* related_why: a word for the reason of a related post (site.c's English
 * text), for templates that show it in the site's language
 * (t["related_" ~ r.why]): series_prev, series_next, tags or recent. */
static const char *related_why(const char *reason)
{
	if (!strcmp(reason, "previous in the series"))
		return "series_prev";
	if (!strcmp(reason, "next in the series"))
		return "series_next";
	if (!strcmp(reason, "shared tags"))
		return "tags";
	return "recent";
}

static struct tval difficulty_val(int d)
{
	return d ? tv_cstr(difficulty_name(d)) : tv_none();
}

/* The keys of a post's map and of a heading's, in the order post_fields
 * and link_post, and toc_val set them: the maps of all posts, and of all
 * headings, share one array of them and its index (tmap_new_like), which
 * at 100,000 posts is a tenth of the model's memory. A key set out of
 * this order costs the map its own copy, never a wrong value. */
static const char *const post_keys[] = {
	"kind", "slug", "title", "url", "date", "year", "updated", "summary", "summary_html", "description",
	"image", "content", "has_more", "category", "tags", "reading_time", "words", "difficulty", "draft", "toc",
	"show_toc", "math", "model3d", "animation", "sidenotes", "notebook", "part", "source",
	/* link_post's */
	"series", "series_prev", "series_next", "series_total", "number", "series_window", "newer", "older",
	"related", "backlinks", NULL};
static const char *const toc_keys[] = {"level", "id", "text", "html", "children", NULL};
/* and of the maps of a related post, of a page's "page", and of a post's
 * page's variables (other pages' add their own keys after "page") */
static const char *const related_keys[] = {"post", "reason", "why", NULL};
static const char *const page_keys[] = {"kind", "url", "title", NULL};
static const char *const vars_keys[] = {"page", "post", NULL};

static struct tmap *shape_of(struct arena *a, const char *const *keys)
{
	size_t n = 0;
	while (keys[n])
		n++;
	struct tmap *m = tmap_new(a, n);
	for (size_t i = 0; i < n; i++)
		tmap_set(a, m, str_from(keys[i]), tv_none());
	return m;
}

static struct tval toc_val(struct arena *a, const struct tmap *shape, const struct md_toc *t, size_t n)
{
	struct tlist *l = tlist_new(a, n);
	for (size_t i = 0; i < n; i++) {
		struct tmap *m = tmap_new_like(a, shape);
		set(a, m, "level", tv_int(t[i].level));
		set(a, m, "id", S(t[i].id));
		set(a, m, "text", S(t[i].text));
		set(a, m, "html", tv_safe(t[i].html));
		set(a, m, "children", toc_val(a, shape, t[i].children, t[i].nchildren));
		tmap_freeze(m); /* the site's data, which templates only read */
		tlist_push(a, l, tv_map(m));
	}
	return tv_list(l);
}

static struct tval term_ref(struct arena *a, const char *base, struct str name, struct str slug)
{
	struct tmap *m = tmap_new(a, 3);
	set(a, m, "name", S(name));
	set(a, m, "slug", S(slug));
	set(a, m, "url", C(a, "/%s/%.*s/", base, STR_FMT(slug)));
	tmap_freeze(m);
	return tv_map(m);
}

/* term_refs: the short map of each of the n terms (a post's tags and
 * category), made once and shared by every post that has the term */
static struct tval *term_refs(struct arena *a, const struct term *t, size_t n, const char *base)
{
	struct tval *v = arena_alloc(a, (n + 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = term_ref(a, base, t[i].name, t[i].slug);
	return v;
}

/* post_list_in: the values of posts[0..n), a list in arena a (a thread's,
 * in link_posts); post_list: in the model's. */
static struct tval post_list_in(struct arena *a, const struct model *md, struct post *const *posts, size_t n)
{
	struct tlist *l = tlist_new(a, n);
	for (size_t i = 0; i < n; i++)
		tlist_push(a, l, md->post_vals[posts[i]->index]);
	return tv_list(l);
}

static struct tval post_list(struct model *md, struct post *const *posts, size_t n)
{
	return post_list_in(md->a, md, posts, n);
}

static struct tval post_ref(const struct model *md, const struct post *p)
{
	return p && p->index >= 0 ? md->post_vals[p->index] : tv_none();
}

/* ignored: whether the address v is one that the page's ignore_links
 * leaves unchecked (the link check matches them the same way) */
static int ignored(struct arena *a, const struct source *from, struct str v)
{
	const char *written = from->nignore_links ? arena_strndup(a, v.p, v.len) : NULL;
	for (size_t i = 0; i < from->nignore_links; i++)
		if (fnmatch(from->ignore_links[i], written, 0) == 0)
			return 1;
	return 0;
}

/* first_image: the address of the first image in a page's HTML (at url),
 * as a path from the site's root or a full URL, for its link previews; or
 * none. A figure's <img>, a model's or a video's still all count. */
static struct tval first_image(struct arena *a, struct str url, const struct md_doc *doc, const struct config *cfg,
			       const struct source *from)
{
	static const char tag[] = "<img src=\"";
	struct str html = doc->html;
	size_t at = doc->img_at;
	/* kept by the cache, whose file may be damaged: the tag must be there */
	if (at >= 2 && (at - 2 > html.len || html.len - (at - 2) < sizeof tag - 1 ||
			memcmp(html.p + at - 2, tag, sizeof tag - 1)))
		at = 0;
	if (!at)
		at = md_image_at(html);
	if (at < 2)
		return tv_none();
	const char *src = html.p + at - 2 + sizeof tag - 1, *end = memchr(src, '"', (size_t)(html.p + html.len - src));
	if (!end || end == src)
		return tv_none();
	struct str v = {src, (size_t)(end - src)};
	/* an image the page's ignore_links leaves unchecked (one missing in
	 * the blog it was imported from) makes no card: none rather than a
	 * card that leads nowhere */
	if (ignored(a, from, v))
		return tv_none();
	if (v.p[0] == '/') {
		/* the body's address is under the base path ("/blog/img/a.png"),
		 * which abs_url adds: the path from the site's root */
		const char *bp = links_base_path(a, cfg->base_url.p ? cfg->base_url.p : "", cfg->base_url.len);
		size_t bl = strlen(bp);
		if (bl > 1 && v.len > bl && !memcmp(v.p, bp, bl))
			v.p += bl - 1, v.len -= bl - 1;
		if (ignored(a, from, v))
			return tv_none();
		return C(a, "%.*s", STR_FMT(v));
	}
	if (memmem(v.p, v.len, "://", 3))
		return C(a, "%.*s", STR_FMT(v));
	/* beside the post, its dot segments resolved ("../img/a.png") */
	char *rel = arena_alloc_raw(a, url.len + v.len + 1);
	memcpy(rel, url.p, url.len);
	memcpy(rel + url.len, v.p, v.len);
	rel[url.len + v.len] = '\0';
	if (rel[0] != '/' || links_normalize(rel + 1) < 0)
		return tv_none();
	return C(a, "%s", rel);
}

/* changed: when post p last changed: its update, when later than its date */
static const struct fdate *changed(const struct post *p)
{
	return p->has_updated && p->updated.utc > p->date.utc ? &p->updated : &p->date;
}

/* newest: the latest change (changed) among posts[0..n), or NULL. */
static const struct fdate *newest(struct post *const *posts, size_t n)
{
	const struct fdate *best = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct fdate *f = changed(posts[i]);
		if (!best || f->utc > best->utc)
			best = f;
	}
	return best;
}

/* later: the later of two dates, either of which may be NULL */
static const struct fdate *later(const struct fdate *a, const struct fdate *b)
{
	return !a || (b && b->utc > a->utc) ? b : a;
}

/* date_val: a date as templates see it (ISO 8601), or none for NULL */
static struct tval date_val(const struct fdate *f)
{
	return f ? S(f->iso) : tv_none();
}

/* post_image: a post's image: as a path from the site's root or a full
 * URL: a relative one ("cover.jpg", a bundle's file) is beside the post. */
static struct tval post_image(struct arena *a, const struct post *p)
{
	struct str v = p->image;
	if (v.p[0] == '/' || memmem(v.p, v.len, "://", 3))
		return S(v);
	return C(a, "%.*s%.*s", STR_FMT(p->url), STR_FMT(v));
}

/* post_fields: post i's own fields in m (those of its neighbours are
 * link_posts'). */
static void post_fields(struct arena *a, const struct site *s, const struct render_plan *pl, size_t i,
			struct tmap *m)
{
	const struct post *p = s->posts[i];
	set(a, m, "kind", tv_cstr("post"));
	set(a, m, "slug", S(p->slug));
	set(a, m, "title", S(p->title));
	set(a, m, "url", S(p->url));
	set(a, m, "date", S(p->date.iso));
	set(a, m, "year", tv_int(p->date.year));
	set(a, m, "updated", p->has_updated ? S(p->updated.iso) : tv_none());
	if (p->summary.len) {
		set(a, m, "summary", S(p->summary));
		set(a, m, "summary_html", C(a, "%.*s", STR_FMT(p->summary)));
	} else {
		set(a, m, "summary", S(p->doc.summary_text));
		set(a, m, "summary_html", tv_safe(p->doc.summary_html));
	}
	/* summary_html of a front matter summary is text: escape when printed */
	set(a, m, "description", S(p->description.len ? p->description : p->summary.len ? p->summary : p->doc.summary_text));
	set(a, m, "image", p->image.len ? post_image(a, p) : first_image(a, p->url, &p->doc, s->cfg, &p->s));
	set(a, m, "content", tv_safe(p->doc.html));
	set(a, m, "has_more", tv_bool(p->doc.has_more));
	/* the terms as the site names them: one spelling of each */
	const struct post_terms *pt = &s->post_terms[i];
	set(a, m, "category", pt->category ? pl->category_refs[pt->category - s->categories] : tv_none());
	struct tlist *tags = tlist_new(a, pt->ntags);
	for (size_t k = 0; k < pt->ntags; k++)
		tlist_push(a, tags, pl->tag_refs[pt->tags[k] - s->tags]);
	set(a, m, "tags", tv_list(tags));
	set(a, m, "reading_time", tv_int(p->minutes));
	set(a, m, "words", tv_int((int64_t)p->doc.words));
	set(a, m, "difficulty", difficulty_val(p->difficulty ? p->difficulty : p->series ? p->series->difficulty : 0));
	set(a, m, "draft", tv_bool(p->draft));
	set(a, m, "toc", toc_val(a, pl->toc_shape, p->doc.toc, p->doc.ntoc));
	set(a, m, "show_toc", tv_bool(p->toc >= 0 ? p->toc : p->doc.nheadings >= 3));
	/* formulas typeset as MathML: the page loads the math font */
	set(a, m, "math", tv_bool(s->cfg->math && p->doc.math_spans > 0));
	set(a, m, "model3d", tv_bool(p->doc.has_model3d));
	set(a, m, "animation", tv_bool(p->doc.has_video));
	set(a, m, "sidenotes", tv_bool(p->doc.sidenotes > 0));
	set(a, m, "notebook", tv_bool(p->s.nb != NULL)); /* a .ipynb post */
	set(a, m, "part", tv_int(p->series ? p->part : 0)); /* the same as number */
	set(a, m, "source", tv_cstr(p->s.path));
}

/* Posts' own fields are made on the build's threads (each its own arena,
 * the calling thread the build's), a batch of posts at a time; the ids
 * (mark) are given after, in order, on the calling thread. */
struct post_maker {
	const struct site *s;
	const struct render_plan *pl;
	struct tval *vals;
	struct pool_queue *q;
	struct arena *a;
};

static void *make_posts(void *arg)
{
	struct post_maker *k = arg;
	size_t b, e;
	while (pool_take(k->q, &b, &e))
		for (size_t i = b; i < e; i++) {
			struct tmap *m = tmap_new_like(k->a, k->pl->post_shape);
			post_fields(k->a, k->s, k->pl, i, m);
			k->vals[i] = tv_map(m);
		}
	return NULL;
}

static void build_posts(struct model *md, int jobs)
{
	struct arena *a = md->a;
	const struct site *s = md->s;
	size_t n = s->nposts;
	md->post_vals = arena_alloc(a, (n + 1) * sizeof *md->post_vals);
	md->plan->tag_refs = term_refs(a, s->tags, s->ntags, "tags");
	md->plan->category_refs = term_refs(a, s->categories, s->ncategories, "categories");
	int t = jobs > 1 && n >= 256 ? jobs : 1;
	struct post_maker *k = xcalloc((size_t)t, sizeof *k);
	struct pool_queue q;
	pool_queue_init(&q, n, 64);
	for (int i = 0; i < t; i++)
		k[i] = (struct post_maker){s, md->plan, md->post_vals, &q, i ? arena_new() : a};
	pool_run(t, make_posts, k, sizeof *k, 0);
	for (int i = 1; i < t; i++)
		arena_adopt(a, k[i].a);
	pool_queue_fini(&q);
	free(k);
	for (size_t i = 0; i < n; i++)
		mark(md, md->post_vals[i].u.map, "post", s->posts[i]->slug);
	md->plan->post_vals = md->post_vals;
}

const struct render_dep_val *render_refresh_post(struct arena *a, const struct render_plan *plan, const struct site *s,
						 size_t i)
{
	if (!plan->post_vals || i >= s->nposts)
		return NULL;
	/* in place: every list and page that holds the map sees the new
	 * fields, and the map keeps its id */
	struct tmap *m = plan->post_vals[i].u.map;
	post_fields(a, s, plan, i, m);
	for (size_t k = 0; k < plan->nvals; k++)
		if (plan->vals[k].is_map && plan->vals[k].v.u.map == m)
			return &plan->vals[k];
	return NULL;
}

static void build_series_vals(struct model *md)
{
	struct arena *a = md->a;
	const struct site *s = md->s;
	md->series_vals = arena_alloc(a, (s->nseries + 1) * sizeof *md->series_vals);
	struct tlist *all = tlist_new(a, s->nseries);
	for (size_t i = 0; i < s->nseries; i++) {
		const struct series *se = s->series[i];
		struct tmap *m = tmap_new(a, 20);
		set(a, m, "kind", tv_cstr("series"));
		set(a, m, "slug", S(se->slug));
		set(a, m, "title", S(se->title));
		set(a, m, "description", S(se->description));
		set(a, m, "url", S(se->url));
		set(a, m, "feed_url", C(a, "%.*sfeed.xml", STR_FMT(se->url)));
		set(a, m, "difficulty", difficulty_val(se->difficulty));
		set(a, m, "best_for", se->best_for.len ? S(se->best_for) : tv_none());
		set(a, m, "audience", se->audience.len ? S(se->audience) : tv_none());
		set(a, m, "count", tv_int((int64_t)se->nposts));
		set(a, m, "total", tv_int(se->last_part));
		set(a, m, "minutes", tv_int(se->minutes));
		set(a, m, "start", post_ref(md, se->start));
		set(a, m, "guide", tv_safe(se->doc.html));
		set(a, m, "guide_summary", S(se->doc.summary_text));
		set(a, m, "posts", post_list(md, se->posts, se->nposts));
		set(a, m, "first_date", se->nposts ? S(se->posts[0]->date.iso) : tv_none());
		set(a, m, "last_date", se->nposts ? S(se->posts[se->nposts - 1]->date.iso) : tv_none());
		set(a, m, "updated", date_val(newest(se->posts, se->nposts)));
		set(a, m, "featured", tv_bool(se->featured));
		set(a, m, "numbering", tv_int(se->numbering));
		mark(md, m, "series", se->slug);
		md->series_vals[i] = tv_map(m);
		tlist_push(a, all, md->series_vals[i]);
	}
	md->all_series = tv_list(all);
}

/* series_index: the series of the site by pointer, sorted, so that each
 * post finds its own in log(series) (series_ref). */
struct series_at {
	const struct series *se;
	size_t i;
};

static int cmp_series_at(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)((const struct series_at *)x)->se, b = (uintptr_t)((const struct series_at *)y)->se;
	return a < b ? -1 : a > b;
}

static struct tval series_ref(const struct model *md, const struct series_at *by, const struct series *se)
{
	struct series_at key = {se, 0};
	const struct series_at *at = se ? bsearch(&key, by, md->s->nseries, sizeof *by, cmp_series_at) : NULL;
	return at ? md->series_vals[at->i] : tv_none();
}

/* series_window: the posts of p's series that its page lists: all of
 * them in a series of up to SERIES_LIST_ALL posts, else the
 * SERIES_WINDOW posts around p (fewer before it at the start, fewer after
 * it at the end). Listing every post of a long series on each of its pages
 * would make the series' pages grow with the square of its length. */
#define SERIES_LIST_ALL 25
#define SERIES_WINDOW 5
static struct tval series_window(struct arena *a, const struct model *md, const struct post *p)
{
	const struct series *se = p->series;
	if (!se)
		return tv_list(tlist_new(a, 0));
	size_t n = se->nposts, from = 0, to = n;
	if (n > SERIES_LIST_ALL && p->place > 0) {
		size_t at = (size_t)p->place - 1, half = SERIES_WINDOW / 2;
		from = at > half ? at - half : 0;
		if (from + SERIES_WINDOW > n)
			from = n - SERIES_WINDOW;
		to = from + SERIES_WINDOW;
	}
	return post_list_in(a, md, se->posts + from, to - from);
}

/* link_post: the fields of post i that point to other posts and series,
 * set once every value exists, in arena a (its thread's). */
static void link_post(struct arena *a, const struct model *md, const struct series_at *by, size_t i)
{
	const struct site *s = md->s;
	const struct post *p = s->posts[i];
	struct tmap *m = md->post_vals[i].u.map;
	set(a, m, "series", p->series ? series_ref(md, by, p->series) : tv_none());
	set(a, m, "series_prev", post_ref(md, p->series_prev));
	set(a, m, "series_next", post_ref(md, p->series_next));
	/* "Part N of M": N its number (parts.h), M the number of the series'
	 * last part, drafts and future posts included, so that neither changes
	 * when one is published */
	set(a, m, "series_total", tv_int(p->series ? p->series->last_part : 0));
	set(a, m, "number", tv_int(p->series ? p->part : 0));
	set(a, m, "series_window", series_window(a, md, p));
	set(a, m, "newer", post_ref(md, p->newer));
	set(a, m, "older", post_ref(md, p->older));
	struct tlist *rel = tlist_new(a, s->nrelated[i]);
	for (size_t k = 0; k < s->nrelated[i]; k++) {
		struct tmap *r = tmap_new_like(a, md->plan->related_shape);
		set(a, r, "post", post_ref(md, s->related[i][k].post));
		set(a, r, "reason", tv_cstr(s->related[i][k].reason));
		set(a, r, "why", tv_cstr(related_why(s->related[i][k].reason)));
		tmap_freeze(r);
		tlist_push(a, rel, tv_map(r));
	}
	set(a, m, "related", tv_list(rel));
	/* the posts whose bodies link to this one (site_rewrite_links) */
	set(a, m, "backlinks", s->backlinks ? post_list_in(a, md, s->backlinks[i], s->nbacklinks[i]) : tv_list(tlist_new(a, 0)));
}

struct post_linker {
	const struct model *md;
	const struct series_at *by;
	struct pool_queue *q;
	struct arena *a;
};

static void *link_some(void *arg)
{
	struct post_linker *k = arg;
	size_t b, e;
	while (pool_take(k->q, &b, &e))
		for (size_t i = b; i < e; i++)
			link_post(k->a, k->md, k->by, i);
	return NULL;
}

/* link_posts: link_post of every post, on the build's threads (each its
 * own arena, adopted by the model's after). */
static void link_posts(struct model *md, int jobs)
{
	const struct site *s = md->s;
	struct series_at *by = xcalloc(s->nseries + 1, sizeof *by);
	for (size_t i = 0; i < s->nseries; i++)
		by[i] = (struct series_at){s->series[i], i};
	qsort(by, s->nseries, sizeof *by, cmp_series_at);
	size_t n = s->nposts;
	int t = jobs > 1 && n >= 256 ? jobs : 1;
	struct post_linker *k = xcalloc((size_t)t, sizeof *k);
	struct pool_queue q;
	pool_queue_init(&q, n, 64);
	for (int i = 0; i < t; i++)
		k[i] = (struct post_linker){md, by, &q, i ? arena_new() : md->a};
	pool_run(t, link_some, k, sizeof *k, 0);
	for (int i = 1; i < t; i++)
		arena_adopt(md->a, k[i].a);
	pool_queue_fini(&q);
	free(k);
	free(by);
}

static struct tval terms_val(struct model *md, const struct term *t, size_t n, const char *base, int feeds,
			     struct tval **each, const char *kind)
{
	struct arena *a = md->a;
	struct tlist *l = tlist_new(a, n);
	*each = arena_alloc(a, (n + 1) * sizeof **each);
	for (size_t i = 0; i < n; i++) {
		struct tmap *m = tmap_new(a, 7);
		set(a, m, "name", S(t[i].name));
		set(a, m, "slug", S(t[i].slug));
		set(a, m, "url", C(a, "/%s/%.*s/", base, STR_FMT(t[i].slug)));
		set(a, m, "feed_url", feeds ? C(a, "/%s/%.*s/feed.xml", base, STR_FMT(t[i].slug)) : tv_none());
		set(a, m, "count", tv_int((int64_t)t[i].nposts));
		set(a, m, "updated", date_val(newest(t[i].posts, t[i].nposts)));
		set(a, m, "posts", post_list(md, t[i].posts, t[i].nposts));
		mark(md, m, kind, t[i].slug);
		(*each)[i] = tv_map(m);
		tlist_push(a, l, (*each)[i]);
	}
	return tv_list(l);
}

static void build_years_val(struct model *md)
{
	struct arena *a = md->a;
	const struct site *s = md->s;
	struct tlist *l = tlist_new(a, s->nyears);
	md->year_vals = arena_alloc(a, (s->nyears + 1) * sizeof *md->year_vals);
	for (size_t i = 0; i < s->nyears; i++) {
		struct tmap *m = tmap_new(a, 5);
		set(a, m, "year", tv_int(s->years[i].year));
		set(a, m, "url", C(a, "/archive/%d/", s->years[i].year));
		set(a, m, "count", tv_int((int64_t)s->years[i].nposts));
		set(a, m, "updated", date_val(newest(s->years[i].posts, s->years[i].nposts)));
		set(a, m, "posts", post_list(md, s->years[i].posts, s->years[i].nposts));
		char y[16];
		snprintf(y, sizeof y, "%d", s->years[i].year);
		mark(md, m, "year", str_from(y));
		md->year_vals[i] = tv_map(m);
		tlist_push(a, l, md->year_vals[i]);
	}
	md->years = tv_list(l);
}

static struct tval page_val(struct model *md, const struct page *pg)
{
	struct arena *a = md->a;
	struct tmap *m = tmap_new(a, 14);
	set(a, m, "kind", tv_cstr("page"));
	set(a, m, "slug", S(pg->slug));
	set(a, m, "title", S(pg->title));
	set(a, m, "description", S(pg->description.len ? pg->description : pg->doc.summary_text));
	set(a, m, "lead", pg->description.len ? S(pg->description) : tv_none());
	set(a, m, "url", S(pg->url));
	set(a, m, "updated", pg->has_updated ? S(pg->updated.iso) : tv_none());
	set(a, m, "content", tv_safe(pg->doc.html));
	set(a, m, "toc", toc_val(a, md->plan->toc_shape, pg->doc.toc, pg->doc.ntoc));
	set(a, m, "show_toc", tv_bool(pg->toc >= 0 ? pg->toc : pg->doc.nheadings >= 3));
	set(a, m, "math", tv_bool(md->s->cfg->math && pg->doc.math_spans > 0));
	set(a, m, "model3d", tv_bool(pg->doc.has_model3d));
	set(a, m, "animation", tv_bool(pg->doc.has_video));
	set(a, m, "sidenotes", tv_bool(pg->doc.sidenotes > 0));
	mark(md, m, "page", pg->slug);
	return tv_map(m);
}

static void set_globals(struct model *md, struct tmpl_env *env)
{
	struct arena *a = md->a;
	const struct site *s = md->s;
	const struct config *c = s->cfg;
	struct tmap *site = tmap_new(a, 32);
	set(a, site, "title", S(c->title));
	set(a, site, "tagline", S(c->tagline));
	set(a, site, "description", S(c->description));
	set(a, site, "base_url", S(c->base_url));
	set(a, site, "image", c->image.len ? S(c->image) : tv_none());
	set(a, site, "logo", c->logo.len ? S(c->logo) : tv_none());
	/* the theme's files under their fingerprinted names: site.asset["style.css"] */
	struct tmap *assets = tmap_new(a, 4);
	static const char *const files[] = THEME_ASSETS;
	for (size_t i = 0; files[i]; i++) {
		/* named by the reading stage (the site's copy, if any, is read
		 * there); without it, the theme's own */
		char name[THEME_ASSET_NAME_MAX];
		if (s->asset_names && s->asset_names[i])
			snprintf(name, sizeof name, "%s", s->asset_names[i]);
		else
			theme_asset_name(NULL, files[i], name);
		set(a, assets, files[i], C(a, "/%s", name));
	}
	tmap_freeze(assets);
	set(a, site, "asset", tv_map(assets));
	set(a, site, "stylesheet", *tmap_get(assets, STR_LIT("style.css")));
	set(a, site, "language", S(c->language));
	struct tmap *author = tmap_new(a, 3);
	set(a, author, "name", S(c->author_name));
	set(a, author, "url", S(c->author_url));
	set(a, author, "email", S(c->author_email));
	tmap_freeze(author);
	set(a, site, "author", tv_map(author));
	struct tlist *menu = tlist_new(a, c->nmenu);
	for (size_t i = 0; i < c->nmenu; i++) {
		struct tmap *m = tmap_new(a, 2);
		set(a, m, "label", S(c->menu[i].label));
		set(a, m, "url", S(c->menu[i].url));
		tmap_freeze(m);
		tlist_push(a, menu, tv_map(m));
	}
	set(a, site, "menu", tv_list(menu));
	set(a, site, "feeds", tv_bool(c->feeds));
	set(a, site, "feeds_full", tv_bool(c->feeds_full));
	set(a, site, "search", tv_bool(c->search));
	set(a, site, "posts_per_page", tv_int(c->posts_per_page));
	set(a, site, "post_count", tv_int((int64_t)s->nposts));
	set(a, site, "total_minutes", tv_int(s->total_minutes));
	/* the latest date or update of any post; never the clock */
	const struct fdate *all = newest(s->posts, s->nposts);
	set(a, site, "updated", all ? S(all->iso) : tv_cstr("1970-01-01T00:00:00+00:00"));
	/* the same of what the index pages list: a sitemap's lastmod */
	const struct fdate *ser = NULL, *tags = NULL, *cats = NULL;
	for (size_t i = 0; i < s->nseries; i++)
		ser = later(ser, newest(s->series[i]->posts, s->series[i]->nposts));
	for (size_t i = 0; i < s->ntags; i++)
		tags = later(tags, newest(s->tags[i].posts, s->tags[i].nposts));
	for (size_t i = 0; i < s->ncategories; i++)
		cats = later(cats, newest(s->categories[i].posts, s->categories[i].nposts));
	set(a, site, "series_updated", date_val(ser));
	set(a, site, "tags_updated", date_val(tags));
	set(a, site, "categories_updated", date_val(cats));
	set(a, site, "generator", tv_cstr("folio"));
	mark(md, site, "site", STR_LIT("site"));
	global(md, env, "site", tv_map(site));

	struct tmap *data = tmap_new(a, s->content->ndata);
	for (size_t i = 0; i < s->content->ndata; i++)
		tmap_set(a, data, s->content->data[i].name, tval_from_yaml(a, s->content->data[i].root));
	struct tval dv = tv_map(data);
	tval_freeze(&dv); /* the data files, which no page may change for another */
	global(md, env, "data", dv);
	/* the language's strings (theme.c): an id of their own, which the
	 * filters that write words (date's names, fill's plural forms) record */
	const struct tval *t = tmpl_env_global(env, "t");
	if (t) {
		struct tval tv = *t;
		tval_freeze(&tv);
		uint32_t id = dep_of(md, "global", STR_LIT("t"), tv, 0);
		tmpl_env_set_global_dep(env, "t", tv, id);
		tmpl_env_set_locale_dep(env, id);
	}

	global(md, env, "all_posts", md->all_posts);
	global(md, env, "all_series", md->all_series);
	struct tlist *feat = tlist_new(a, s->nfeatured);
	for (size_t i = 0; i < s->nfeatured; i++) {
		size_t k = 0;
		while (k < s->nseries && s->series[k] != s->featured[i])
			k++;
		tlist_push(a, feat, k < s->nseries ? md->series_vals[k] : tv_none());
	}
	global(md, env, "featured_series", tv_list(feat));
	struct tlist *best = tlist_new(a, s->nbest_of);
	for (size_t i = 0; i < s->nbest_of; i++) {
		struct tmap *m = tmap_new(a, 2);
		set(a, m, "post", post_ref(md, s->best_of[i].post));
		set(a, m, "note", s->best_of[i].note.len ? S(s->best_of[i].note) : tv_none());
		tmap_freeze(m);
		tlist_push(a, best, tv_map(m));
	}
	global(md, env, "best_of", tv_list(best));
	global(md, env, "start_here", s->start_here ? page_val(md, s->start_here) : tv_none());
	struct tlist *pages = tlist_new(a, s->npages);
	for (size_t i = 0; i < s->npages; i++)
		tlist_push(a, pages, page_val(md, s->pages[i]));
	global(md, env, "pages", tv_list(pages));
	global(md, env, "tags", md->tags);
	global(md, env, "categories", md->categories);
	global(md, env, "years", md->years);
}

/* ---- pages ---- */

struct jobs {
	struct render_job *v;
	size_t n, cap;
	struct map paths; /* every output path, so that none is written twice (the
	                   * keys: the jobs' paths, in the arena) */
	struct diag *d;
	const struct tmpl_env *env;
	int errors;
};

/* add_job: 0, or -1 when out is already taken by another page: the same
 * file, or a file where out needs a folder ("old" and "old/x.html", which
 * two aliases can ask for) or the other way round. j->paths holds each
 * file, and each folder with its '/' ("old/"). */
static int add_job(struct arena *a, struct jobs *j, const char *tmpl, const char *out, struct tmap *vars)
{
	struct str key = str_from(out);
	char dir[1024];
	int dl = snprintf(dir, sizeof dir, "%s/", out);
	if (map_find(&j->paths, key.p, key.len) || (dl > 0 && (size_t)dl < sizeof dir && map_find(&j->paths, dir, (size_t)dl)))
		return -1;
	for (const char *sl = strchr(out, '/'); sl; sl = strchr(sl + 1, '/'))
		if (map_find(&j->paths, out, (size_t)(sl - out)))
			return -1;
	map_put(&j->paths, key.p, key.len, NULL);
	for (const char *sl = strchr(out, '/'); sl; sl = strchr(sl + 1, '/'))
		map_put(&j->paths, out, (size_t)(sl - out + 1), NULL);
	if (j->n == j->cap) {
		size_t cap = j->cap ? j->cap * 2 : 256;
		j->v = arena_realloc(a, j->v, j->cap * sizeof *j->v, cap * sizeof *j->v);
		j->cap = cap;
	}
	j->v[j->n++] = (struct render_job){tmpl, out, tv_map(vars), NULL};
	return 0;
}

/* from_source: the last job is made from s (its links are looked for there). */
static void from_source(struct jobs *j, const struct source *s)
{
	j->v[j->n - 1].src = s;
}

static void job_error(struct jobs *j, const struct source *s, const struct ynode *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void job_error(struct jobs *j, const struct source *s, const struct ynode *at, const char *fmt, ...)
{
	/* a file that was not read (source.lazy): the collector asks the
	 * content for its text (diag_set_texts); rendering reads nothing */
	const char *text = s->lazy ? NULL : s->src;
	struct diag_loc loc = {s->path, text, text ? s->len : 0, at ? at->line : 1, at ? at->col : 1};
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(j->d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
	va_end(ap);
	j->errors++;
}


static const char *fmt(struct arena *a, const char *f, ...) __attribute__((format(printf, 2, 3)));
static const char *fmt(struct arena *a, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	struct str v = vfmt(a, f, ap);
	va_end(ap);
	return v.p;
}

static struct tmap *page_vars(const struct model *md, const char *kind, struct tval url, struct tval title)
{
	struct arena *a = md->a;
	struct tmap *vars = tmap_new_like(a, md->plan->vars_shape);
	struct tmap *page = tmap_new_like(a, md->plan->page_shape);
	set(a, page, "kind", tv_cstr(kind));
	set(a, page, "url", url);
	set(a, page, "title", title);
	set(a, vars, "page", tv_map(page));
	return vars;
}


/* paginate: jobs for a listing of posts split into pages: base_url/ then
 * base_url/page/N/ (page: folio.yml's paginate_path). */
static void paginate(struct model *md, struct jobs *j, const char *tmpl, const char *kind, const char *base,
		     struct tval title, struct post *const *posts, size_t n, size_t per, const char *key, struct tval item)
{
	struct arena *a = md->a;
	size_t pages = n ? (n + per - 1) / per : 1;
	for (size_t pg = 1; pg <= pages; pg++) {
		struct str pp = md->s->cfg->paginate_path;
		const char *url = pg == 1 ? base : fmt(a, "%s%.*s/%zu/", base, STR_FMT(pp), pg);
		struct tmap *vars = page_vars(md, kind, tv_cstr(url), title);
		struct tmap *pag = tmap_new(a, 8);
		size_t from = (pg - 1) * per, to = from + per < n ? from + per : n;
		set(a, pag, "items", post_list(md, posts + from, to - from));
		set(a, pag, "current", tv_int((int64_t)pg));
		set(a, pag, "total", tv_int((int64_t)pages));
		set(a, pag, "total_items", tv_int((int64_t)n));
		set(a, pag, "prev_url",
		    pg > 1 ? tv_cstr(pg == 2 ? base : fmt(a, "%s%.*s/%zu/", base, STR_FMT(pp), pg - 1)) : tv_none());
		set(a, pag, "next_url", pg < pages ? tv_cstr(fmt(a, "%s%.*s/%zu/", base, STR_FMT(pp), pg + 1)) : tv_none());
		set(a, pag, "first_url", tv_cstr(base));
		set(a, vars, "pagination", tv_map(pag));
		if (key)
			set(a, vars, key, item);
		add_job(a, j, tmpl, fmt(a, "%sindex.html", url + 1), vars);
	}
}

static void feed_job(struct model *md, struct jobs *j, const char *tmpl, const char *out, struct tval title,
		     struct tval url, struct tval self, struct post *const *posts, size_t n)
{
	struct arena *a = md->a;
	struct tmap *vars = page_vars(md, "feed", url, title);
	size_t max = n < 20 ? n : 20;
	struct tmap *feed = tmap_new(a, 6);
	set(a, feed, "title", title);
	set(a, feed, "url", url);
	set(a, feed, "self", self);
	set(a, feed, "posts", post_list(md, posts, max));
	/* the latest change among the entries: a date or an update */
	const struct fdate *latest = newest(posts, max);
	set(a, feed, "updated", latest ? S(latest->iso) : tv_cstr("1970-01-01T00:00:00+00:00"));
	set(a, vars, "feed", tv_map(feed));
	add_job(a, j, tmpl, out, vars);
}

/* also_out: the output path of feeds.also_at's path p (a placeholder, if
 * any, replaced by slug; a folder's index.xml), in a. */
static const char *also_out(struct arena *a, struct str p, const char *holder, struct str slug)
{
	struct buf b;
	buf_init(&b);
	const char *h = holder ? memmem(p.p, p.len, holder, strlen(holder)) : NULL;
	if (h) {
		buf_append(&b, p.p + 1, (size_t)(h - p.p - 1));
		buf_put_str(&b, slug);
		buf_append(&b, h + strlen(holder), (size_t)(p.p + p.len - h - strlen(holder)));
	} else {
		buf_append(&b, p.p + 1, p.len - 1);
	}
	if (b.len && b.p[b.len - 1] == '/')
		buf_puts(&b, "index.xml");
	const char *out = arena_strndup(a, b.p ? b.p : "", b.len);
	buf_fini(&b);
	return out;
}

/* feed_also: the feeds that feeds.also_at's path p names, the same bytes
 * as folio's own (their self link is folio's address): the site's, or
 * each tag's, series' or category's (categories have no feed of their
 * own: theirs names its old address). */
static void feed_also(struct model *md, struct jobs *j, struct str p)
{
	struct arena *a = md->a;
	const struct site *s = md->s;
	if (memmem(p.p, p.len, "{tag}", 5)) {
		for (size_t i = 0; i < s->ntags; i++) {
			const struct term *t = &s->tags[i];
			const char *base = fmt(a, "/tags/%.*s/", STR_FMT(t->slug));
			feed_job(md, j, "atom.xml", also_out(a, p, "{tag}", t->slug), S(t->name), tv_cstr(base),
				 C(a, "%sfeed.xml", base), t->posts, t->nposts);
		}
	} else if (memmem(p.p, p.len, "{category}", 10)) {
		for (size_t i = 0; i < s->ncategories; i++) {
			const struct term *t = &s->categories[i];
			const char *out = also_out(a, p, "{category}", t->slug);
			feed_job(md, j, "atom.xml", out, S(t->name), C(a, "/categories/%.*s/", STR_FMT(t->slug)),
				 C(a, "/%s", out), t->posts, t->nposts);
		}
	} else if (memmem(p.p, p.len, "{series}", 8)) {
		for (size_t i = 0; i < s->nseries; i++) {
			const struct series *se = s->series[i];
			feed_job(md, j, "atom.xml", also_out(a, p, "{series}", se->slug), S(se->title), S(se->url),
				 C(a, "%.*sfeed.xml", STR_FMT(se->url)), se->posts, se->nposts);
		}
	} else {
		feed_job(md, j, "atom.xml", also_out(a, p, NULL, (struct str){0}), S(s->cfg->title), tv_cstr("/"),
			 tv_cstr("/feed.xml"), s->posts, s->nposts);
	}
}

/* redirect_jobs: a redirect page at each old address of folio.yml's
 * redirects (after every other page: it never replaces one). */
static void redirect_jobs(struct model *md, struct jobs *j)
{
	struct arena *a = md->a;
	const struct config *c = md->s->cfg;
	for (size_t k = 0; k < c->nredirects; k++) {
		struct str from = c->redirect_from[k], to = c->redirect_to[k];
		struct tmap *rv = page_vars(md, "alias", S(from), S(to));
		set(a, rv, "target", S(to));
		const char *rel = from.p[from.len - 1] != '/' ? fmt(a, "%.*s", (int)from.len - 1, from.p + 1)
							    : fmt(a, "%.*sindex.html", (int)from.len - 1, from.p + 1);
		if (add_job(a, j, "alias.html", rel, rv)) {
			const struct ynode *at = c->redirect_at[k];
			struct diag_loc loc = {c->path, c->src, c->src_len, at->line, at->col};
			diag_report(j->d, DIAG_ERROR, &loc, NULL, 0,
				    "redirects: '%.*s' is the address of a page of the site (hint: a redirect is for an "
				    "address no page has)",
				    STR_FMT(from));
			j->errors++;
		}
	}
}

/* alias_jobs: a redirect page at each old URL of a post or page. */
static void alias_jobs(struct model *md, struct jobs *j, const struct source *s, struct str *aliases, size_t n,
		       struct str title, struct str target)
{
	struct arena *a = md->a;
	const struct ynode *list = schema_node(s->fm, "aliases");
	for (size_t k = 0; k < n; k++) {
		struct str al = aliases[k];
		struct tmap *rv = page_vars(md, "alias", S(al), S(title));
		set(a, rv, "target", S(target));
		/* "/old/" -> old/index.html, "/old.html" -> old.html */
		const char *rel = al.len > 1 && al.p[al.len - 1] != '/' ? fmt(a, "%.*s", (int)al.len - 1, al.p + 1)
									: fmt(a, "%.*sindex.html", (int)al.len - 1, al.p + 1);
		if (add_job(a, j, "alias.html", rel, rv))
			job_error(j, s, list && k < list->len ? list->items[k] : NULL,
				  "the alias '%.*s' is the address of another page", STR_FMT(al));
	}
}

/* word: the language's string `key` (theme.c's global t), or english when
 * there is none (a set without a language, in tests). For the titles of
 * the pages the theme names itself. */
static struct tval word(const struct tmpl_env *env, const char *key, const char *english)
{
	const struct tval *t = tmpl_env_global(env, "t");
	const struct tval *v = t && t->kind == TV_MAP ? tmap_get(t->u.map, str_from(key)) : NULL;
	return v && v->kind == TV_STR ? *v : tv_cstr(english);
}

static void list_jobs(struct model *md, struct jobs *j)
{
	struct arena *a = md->a;
	const struct site *s = md->s;
	const struct config *c = s->cfg;
	size_t per = (size_t)c->posts_per_page;
	paginate(md, j, "home.html", "home", "/", S(c->title), s->posts, s->nposts, per, NULL, tv_none());
	for (size_t i = 0; i < s->nposts; i++) {
		const struct post *p = s->posts[i];
		struct tmap *vars = page_vars(md, "post", S(p->url), S(p->title));
		set(a, vars, "post", md->post_vals[i]);
		if (!add_job(a, j, "post.html", fmt(a, "%.*sindex.html", (int)p->url.len - 1, p->url.p + 1), vars))
			from_source(j, &p->s);
	}
	struct tmap *sv = page_vars(md, "series_index", tv_cstr("/series/"), word(j->env, "series_heading", "Series"));
	add_job(a, j, "series_index.html", "series/index.html", sv);
	for (size_t i = 0; i < s->nseries; i++) {
		const struct series *se = s->series[i];
		struct tmap *vars = page_vars(md, "series", S(se->url), S(se->title));
		set(a, vars, "series", md->series_vals[i]);
		if (!add_job(a, j, "series.html", fmt(a, "series/%.*s/index.html", STR_FMT(se->slug)), vars))
			from_source(j, &se->s);
		if (c->feeds)
			feed_job(md, j, "atom.xml", fmt(a, "series/%.*s/feed.xml", STR_FMT(se->slug)), S(se->title), S(se->url),
				 C(a, "%.*sfeed.xml", STR_FMT(se->url)), se->posts, se->nposts);
	}
	struct tmap *tv = page_vars(md, "tags", tv_cstr("/tags/"), word(j->env, "tags_title", "Tags"));
	add_job(a, j, "tags.html", "tags/index.html", tv);
	for (size_t i = 0; i < s->ntags; i++) {
		const struct term *t = &s->tags[i];
		const char *base = fmt(a, "/tags/%.*s/", STR_FMT(t->slug));
		paginate(md, j, "tag.html", "tag", base, S(t->name), t->posts, t->nposts, per, "tag", md->tag_vals[i]);
		if (c->feeds)
			feed_job(md, j, "atom.xml", fmt(a, "%sfeed.xml", base + 1), S(t->name), tv_cstr(base),
				 C(a, "%sfeed.xml", base), t->posts, t->nposts);
	}
	struct tmap *cv = page_vars(md, "categories", tv_cstr("/categories/"), word(j->env, "categories_title", "Categories"));
	add_job(a, j, "categories.html", "categories/index.html", cv);
	for (size_t i = 0; i < s->ncategories; i++) {
		const struct term *t = &s->categories[i];
		const char *base = fmt(a, "/categories/%.*s/", STR_FMT(t->slug));
		paginate(md, j, "category.html", "category", base, S(t->name), t->posts, t->nposts, per, "category",
			 md->category_vals[i]);
	}
	/* every post as a card, newest first, then a year's: archive_per_page
	 * of them a page */
	size_t aper = (size_t)c->archive_per_page;
	paginate(md, j, "archive.html", "archive", "/archive/", word(j->env, "archive_title", "Archive"), s->posts,
		 s->nposts, aper, NULL, tv_none());
	for (size_t i = 0; i < s->nyears; i++)
		paginate(md, j, "year.html", "year", fmt(a, "/archive/%d/", s->years[i].year), C(a, "%d", s->years[i].year),
			 s->years[i].posts, s->years[i].nposts, aper, "year", md->year_vals[i]);
	for (size_t i = 0; i < s->npages; i++) {
		const struct page *pg = s->pages[i];
		struct tmap *vars = page_vars(md, "page", S(pg->url), S(pg->title));
		set(a, vars, "page_content", page_val(md, pg));
		set(a, vars, "doc", page_val(md, pg));
		const char *tmpl = pg->template_name.len ? arena_strndup(a, pg->template_name.p, pg->template_name.len) : "page.html";
		if (!tmpl_env_has(j->env, tmpl)) {
			job_error(j, &pg->s, schema_node(pg->s.fm, "template"),
				  "no template '%s' (neither the theme nor templates/ has it)", tmpl);
			continue;
		}
		if (!add_job(a, j, tmpl, fmt(a, "%.*s/index.html", STR_FMT(pg->slug)), vars))
			from_source(j, &pg->s);
	}
	if (c->feeds) {
		feed_job(md, j, "atom.xml", "feed.xml", S(c->title), tv_cstr("/"), tv_cstr("/feed.xml"), s->posts, s->nposts);
		feed_job(md, j, "feed.json", "feed.json", S(c->title), tv_cstr("/"), tv_cstr("/feed.json"), s->posts,
			 s->nposts);
		for (size_t i = 0; i < c->nfeeds_also; i++)
			feed_also(md, j, c->feeds_also[i]);
	}
	add_job(a, j, "sitemap.xml", "sitemap.xml", page_vars(md, "sitemap", tv_cstr("/sitemap.xml"), tv_cstr("Sitemap")));
	if (c->search)
		add_job(a, j, "search.html", "search/index.html",
			page_vars(md, "search", tv_cstr("/search/"), word(j->env, "search_title", "Search")));
	add_job(a, j, "robots.txt", "robots.txt", page_vars(md, "robots", tv_cstr("/robots.txt"), tv_cstr("robots")));
	add_job(a, j, "404.html", "404.html", page_vars(md, "404", tv_cstr("/404.html"), word(j->env, "not_found_title", "Page not found")));
	/* redirects last: an alias never replaces a real page */
	for (size_t i = 0; i < s->nposts; i++) {
		struct post *p = s->posts[i];
		alias_jobs(md, j, &p->s, p->aliases, p->naliases, p->title, p->url);
	}
	for (size_t i = 0; i < s->npages; i++) {
		struct page *pg = s->pages[i];
		alias_jobs(md, j, &pg->s, pg->aliases, pg->naliases, pg->title, pg->url);
	}
	redirect_jobs(md, j);
}

/* ---- rendering on threads ---- */

/* what the memo of a render's macro calls may hold: a card is about a
 * kilobyte, so 10,000 posts' cards in two forms fit */
#define RENDER_MEMO_BYTES ((size_t)48 << 20)

struct pool {
	const struct tmpl_env *env;
	struct diag *d;
	const struct render_plan *plan;
	const unsigned char *want;
	size_t dep_bits;
	render_page_fn sink;
	void *ctx;
	struct tmpl_memo *memo;  /* macro calls the pages share */
	struct pool_queue queue; /* the jobs not yet taken, one at a time */
	pthread_mutex_t lock;    /* for errors and rendered */
	int errors;
	size_t rendered;
};

/* split_page: the page tmpl_render_pieces made, as parts in order: out's
 * bytes cut at each piece's offset, and the pieces (room for 2n + 1 in
 * parts). Returns how many (at least one). */
static size_t split_page(const struct buf *out, const struct tmpl_pieces *ps, struct str *parts)
{
	const char *text = out->p ? out->p : "";
	size_t n = 0, from = 0;
	for (size_t k = 0; k < ps->n; k++) {
		size_t at = ps->v[k].at;
		if (at > from)
			parts[n++] = (struct str){text + from, at - from};
		parts[n++] = ps->v[k].s;
		from = at;
	}
	if (out->len > from || n == 0)
		parts[n++] = (struct str){text + from, out->len - from};
	return n;
}

static void *render_worker(void *arg)
{
	struct pool *p = arg;
	struct buf out;
	buf_init(&out);
	struct tmpl_pieces pieces = {NULL, 0, 0};
	struct str *parts = NULL;
	size_t cap_parts = 0;
	struct tmpl_deps rec;
	if (p->dep_bits)
		tmpl_deps_init(&rec, p->dep_bits);
	size_t mine = 0;
	size_t i, end;
	tmpl_memo_use(p->memo);
	while (!pool_cancelled() && pool_take(&p->queue, &i, &end)) {
		if (p->want && !p->want[i])
			continue;
		const struct render_job *j = &p->plan->jobs[i];
		struct arena *scratch = arena_new();
		buf_reset(&out);
		if (p->dep_bits) {
			tmpl_deps_clear(&rec);
			tmpl_deps_record(&rec);
		}
		int e = tmpl_render_pieces(p->env, j->tmpl, &j->vars, &out, &pieces, scratch, p->d);
		tmpl_deps_record(NULL);
		if (!e) {
			if (2 * pieces.n + 1 > cap_parts) {
				cap_parts = 2 * pieces.n + 1;
				parts = xrealloc(parts, cap_parts * sizeof *parts);
			}
			size_t n = split_page(&out, &pieces, parts);
			e = p->sink(p->ctx, i, parts, n, p->dep_bits ? &rec : NULL) ? 1 : 0;
		}
		arena_free(scratch);
		mine++;
		if (e) {
			pthread_mutex_lock(&p->lock);
			p->errors += e;
			pthread_mutex_unlock(&p->lock);
		}
	}
	tmpl_memo_use(NULL);
	pthread_mutex_lock(&p->lock);
	p->rendered += mine;
	pthread_mutex_unlock(&p->lock);
	if (p->dep_bits)
		tmpl_deps_fini(&rec);
	buf_fini(&out);
	free(pieces.v);
	free(parts);
	return NULL;
}

int render_pages(const struct render_plan *plan, const struct tmpl_env *env, struct diag *d,
		 const unsigned char *want, int jobs, size_t dep_bits, render_page_fn sink, void *ctx,
		 size_t *rendered)
{
	struct pool p;
	memset(&p, 0, sizeof p);
	p.env = env;
	p.d = d;
	p.plan = plan;
	p.want = want;
	p.dep_bits = dep_bits;
	p.sink = sink;
	p.ctx = ctx;
	pthread_mutex_init(&p.lock, NULL);
	size_t todo = plan->njobs;
	if (want) {
		todo = 0;
		for (size_t i = 0; i < plan->njobs; i++)
			todo += want[i] != 0;
	}
	/* a thread is worth starting for a few pages, not for one */
	int n = jobs > 0 ? jobs : 1;
	if ((size_t)n > todo / 4 + 1)
		n = (int)(todo / 4 + 1);
	pool_queue_init(&p.queue, plan->njobs, 1);
	/* the calls of macros the pages share (a post's card on its archive,
	 * tag, category and year pages), made once: the model stays as it is
	 * until the memo is freed */
	p.memo = tmpl_memo_new(RENDER_MEMO_BYTES);
	pool_run(n, render_worker, &p, 0, 0);
	if (getenv("FOLIO_TIMINGS")) {
		size_t kept, taken;
		tmpl_memo_counts(p.memo, &kept, &taken);
		fprintf(stderr, "folio: macro calls remembered: %zu kept (%.1f MB), %zu answered from them\n", kept,
			(double)tmpl_memo_bytes(p.memo) / (1 << 20), taken);
	}
	tmpl_memo_free(p.memo);
	pool_queue_fini(&p.queue);
	pthread_mutex_destroy(&p.lock);
	if (rendered)
		*rendered = p.rendered;
	return p.errors;
}

int render_plan(struct arena *a, struct diag *d, const struct site *s, struct tmpl_env *env,
		const struct render_deps *deps, int jobs, struct render_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	struct model md;
	memset(&md, 0, sizeof md);
	md.a = a;
	md.s = s;
	md.deps = deps;
	md.plan = plan;
	plan->post_shape = shape_of(a, post_keys);
	plan->toc_shape = shape_of(a, toc_keys);
	plan->related_shape = shape_of(a, related_keys);
	plan->page_shape = shape_of(a, page_keys);
	plan->vars_shape = shape_of(a, vars_keys);
	build_posts(&md, jobs);
	md.all_posts = post_list(&md, s->posts, s->nposts);
	build_series_vals(&md);
	link_posts(&md, jobs);
	md.tags = terms_val(&md, s->tags, s->ntags, "tags", s->cfg->feeds, &md.tag_vals, "tag");
	md.categories = terms_val(&md, s->categories, s->ncategories, "categories", 0, &md.category_vals, "category");
	build_years_val(&md);
	set_globals(&md, env);

	struct jobs j = {0};
	/* a post's page is two entries (its folder, its file), the posts'
	 * folder one for all */
	map_reserve(&j.paths, 2 * (s->nposts + s->npages) + 4096);
	j.d = d;
	j.env = env;
	list_jobs(&md, &j);
	map_fini(&j.paths);
	plan->jobs = j.v;
	plan->njobs = j.n;
	return j.errors;
}
