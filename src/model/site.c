/* site.c: the model: Markdown of every document (in parallel), then
 * ordering, series, terms, years, neighbours and related posts. Nothing
 * here is quadratic in posts, tags or series. */
#include "model/site.h"

#include "model/links.h"
#include "model/parts.h"
#include "model/xref.h"
#include "base/pool.h"
#include "base/slug.h"
#include "base/hash.h"
#include "base/map.h"
#include "files/reader.h"
#include "files/sitefile.h"

#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Markdown on worker threads ---- */

enum job_kind { JOB_POST, JOB_SERIES, JOB_PAGE };

struct md_job {
	enum job_kind kind;
	void *item;
	struct md_key key; /* with a cache */
};

/* SOURCES_TRIM: bytes of sources freed past which the memory is given
 * back to the system (malloc_trim) before the pages are rendered */
#define SOURCES_TRIM (8u << 20)

struct md_pool {
	const struct config *cfg;
	const struct build_opts *opts;
	struct md_options md; /* the same for every document but asset_dir */
	struct diag *d;
	struct md_job *jobs;
	size_t njobs;
	struct pool_queue queue; /* the jobs not yet taken */
	struct arena **arenas;
	/* the site folder's realpath, for deps_fresh (looked up on first use) */
	char *site_real;
	int site_looked;
	size_t dropped; /* bytes of sources freed once rendered (source_drop) */
};

struct worker_arg {
	struct md_pool *pool;
	int id;
};

/* job_parts: the source, result and asset folder of a job. */
static void job_parts(const struct md_job *j, struct source **s, struct md_doc **doc, const char **asset_dir)
{
	*asset_dir = NULL;
	switch (j->kind) {
	case JOB_POST:
		*s = &((struct post *)j->item)->s;
		*doc = &((struct post *)j->item)->doc;
		*asset_dir = ((struct post *)j->item)->bundle_dir;
		break;
	case JOB_SERIES:
		*s = &((struct series *)j->item)->s;
		*doc = &((struct series *)j->item)->doc;
		break;
	default:
		*s = &((struct page *)j->item)->s;
		*doc = &((struct page *)j->item)->doc;
	}
}

/* job_sidenotes: the job's document shows its footnotes as sidenotes too:
 * its front matter's sidenotes, else folio.yml's (a series guide: never). */
static int job_sidenotes(const struct config *cfg, const struct md_job *j, const struct source *s)
{
	if (j->kind == JOB_SERIES)
		return 0;
	return s->sidenotes ? s->sidenotes > 0 : cfg->sidenotes;
}

/* toc_hidden: the job's page does not show its table of contents. */
static int toc_hidden(const struct md_job *j)
{
	switch (j->kind) {
	case JOB_POST: return ((struct post *)j->item)->toc == 0;
	case JOB_SERIES: return 1; /* a series guide has no TOC */
	default: return ((struct page *)j->item)->toc == 0;
	}
}

static void job_done(struct md_pool *p, const struct md_job *j)
{
	if (j->kind == JOB_POST) {
		struct post *post = j->item;
		post->minutes = post->reading_time ? post->reading_time : md_reading_minutes(&post->doc, p->cfg->reading_speed);
	}
}

/* hint_of: source.link_hint (content.h) of a body whose md_marks are m. */
static int hint_of(uint32_t m)
{
	if (m & (MD_MARK_DOT_MD | MD_MARK_AT_SLASH | MD_MARK_AMP_HASH | MD_MARK_PERIOD))
		return 1;
	return m & (MD_MARK_POSTS | MD_MARK_DOTDOT) ? 3 : 2;
}

/* link_hint: source.link_hint of s's body. */
static int link_hint(const struct source *s)
{
	return s->body_len ? hint_of(md_marks(s->body, s->body_len)) : 2;
}

/* deps_fresh: whether every file doc's code blocks included (md_doc.deps)
 * still holds the bytes it was rendered with: read again (through
 * files/, inside the site), hashed and compared. Documents without file=
 * have no deps and pay nothing. */
static int deps_fresh(struct md_pool *p, const struct md_doc *doc)
{
	if (!p->site_looked) {
		p->site_looked = 1;
		const char *sd = p->opts->static_dir;
		size_t n = sd ? strlen(sd) : 0;
		if (n > 7) {
			char *dir = xstrndup(sd, n - 7);
			p->site_real = site_root(dir);
			free(dir);
		}
	}
	const char *at = doc->deps.p, *end = doc->deps.p + doc->deps.len;
	while (at < end) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		if (!nl || nl - at < 18 || (at[16] != ' ' && at[16] != '+'))
			return 0;
		char *path = xstrndup(at + 17, (size_t)(nl - at - 17));
		struct site_file f = {path, path, FOLIO_MAX_FILE, NULL, SITE_READ_QUIET};
		size_t len;
		uint64_t h = 0;
		char *text = site_read(NULL, p->site_real, &f, NULL, &len, &h);
		int read = text != NULL;
		free(text);
		free(path);
		char hex[17];
		snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
		if (!read || memcmp(hex, at, 16))
			return 0;
		at = nl + 1;
	}
	return 1;
}

/* cache_lookup: fills the job's document from the cache; 1 on a hit. */
static int cache_lookup(struct md_pool *p, struct arena *a, struct md_job *j)
{
	struct source *s;
	struct md_doc *doc;
	const char *asset_dir;
	job_parts(j, &s, &doc, &asset_dir);
	/* a file the content cache kept has its hash from an earlier build */
	if (!s->body_hash)
		s->body_hash = md_cache_body_hash(s->body, s->body_len);
	/* math: false renders another document from the same body */
	/* a document with a bibliography: its key has the .bib files' hash */
	uint64_t salt = s->bib_hash ? p->opts->md_salt ^ s->bib_hash : p->opts->md_salt;
	j->key = md_cache_key(salt, (int)j->kind | s->math_off << 4 | job_sidenotes(p->cfg, j, s) << 5, s->path,
			      s->body_len, s->body_hash,
			      s->body_line, asset_dir);
	if (!md_cache_get(p->opts->md_cache, &j->key, p->opts->files_stamp, a, doc))
		return 0;
	if (doc->deps.len && !deps_fresh(p, doc)) { /* an included file changed */
		md_cache_forget(p->opts->md_cache, &j->key);
		memset(doc, 0, sizeof *doc);
		return 0;
	}
	/* from the cache: the scan of every body is not made again */
	if (!s->link_hint)
		s->link_hint = doc->link_hint ? doc->link_hint : link_hint(s);
	/* kept while its TOC was hidden, and shown now: rendered again, for
	 * the warning that the TOC is cut */
	if (doc->nheadings > MD_TOC_MAX && !toc_hidden(j))
		return 0;
	p->dropped += source_drop(s);
	job_done(p, j);
	return 1;
}

/* job_options: the Markdown options of job j's document, from the
 * build's (base): its asset folder, TOC, math and sidenotes; *s and *doc its source
 * and result. */
static void job_options(const struct config *cfg, const struct md_options *base, const struct md_job *j,
			struct md_options *o, struct source **s, struct md_doc **doc)
{
	*o = *base;
	job_parts(j, s, doc, &o->asset_dir);
	o->toc_hidden = toc_hidden(j);
	if ((*s)->math_off)
		o->math = 0;
	o->bibs = (*s)->bibs;
	o->nbibs = (*s)->nbibs;
	o->cite_style = (*s)->bib_style;
	o->nocite = (*s)->nocite;
	o->nnocite = (*s)->nnocite;
	o->sidenotes = job_sidenotes(cfg, j, *s);
}

static void run_job(struct md_pool *p, struct arena *a, const struct md_job *j)
{
	struct md_options o;
	struct source *s;
	struct md_doc *doc;
	job_options(p->cfg, &p->md, j, &o, &s, &doc);
	struct md_cache *mc = p->opts->md_cache;
	unsigned long said = diag_thread_reports(), noted = md_unknown_thread_count();
	if (s->lazy && !source_text(a, p->d, s)) { /* not read, and now it cannot be */
		job_done(p, j);
		return;
	}
	if (s->nb)
		notebook_render(a, &o, p->d, s->nb, doc);
	else
		md_render(a, &o, p->d, s->path, s->src, s->len, s->body, s->body_len, s->body_line, doc);
	if (!s->link_hint) /* md_render has scanned the body for its markers */
		s->link_hint = s->nb ? link_hint(s) : hint_of(doc->marks);
	doc->link_hint = s->link_hint;
	/* a document with a warning or an error is rendered again next time,
	 * so that its messages are reported again */
	if (mc && diag_thread_reports() == said && md_unknown_thread_count() == noted)
		md_cache_put(mc, &j->key, p->opts->files_stamp, doc, p->opts->md_borrow);
	/* rendered: its text is read again only for a message; but the
	 * unknown languages of its code blocks are told after the last
	 * document, at a place in that text (md_unknown_report) */
	if (md_unknown_thread_count() == noted)
		__atomic_add_fetch(&p->dropped, source_drop(s), __ATOMIC_RELAXED);
	job_done(p, j);
}

static void *worker(void *arg)
{
	struct worker_arg *w = arg;
	struct md_pool *p = w->pool;
	size_t start, end;
	/* a build asked to stop renders no more documents (site_build
	 * then returns at once) */
	while (!pool_cancelled() && pool_take(&p->queue, &start, &end))
		for (size_t i = start; i < end; i++)
			run_job(p, p->arenas[w->id], &p->jobs[i]);
	return NULL;
}

/* md_options_of: the Markdown options of every document of a build (but
 * the asset folder, TOC and math of each). */
void site_image_rule(const struct config *cfg, struct md_options *o)
{
	o->image_widths = cfg->images ? cfg->image_widths : NULL;
	o->nimage_widths = cfg->images ? cfg->nimage_widths : 0;
	o->image_webp = cfg->images && cfg->images_webp;
	o->image_avif = cfg->images && cfg->images_avif;
}

static void md_options_of(const struct config *cfg, const struct build_opts *opts, struct md_options *o)
{
	memset(o, 0, sizeof *o);
	o->smart = cfg->smart_punctuation;
	o->math = cfg->math;
	o->no_dollars = !cfg->math_dollars;
	o->brackets = cfg->math_brackets;
	o->unsafe = 1;
	o->code_ui = 1;
	o->highlight = opts->highlight;
	o->hl_quiet_unknown = !cfg->highlight_warn_unknown;
	o->typeset = opts->typeset;
	o->typeset_ctx = opts->typeset_ctx;
	o->typeset_seconds = opts->typeset_seconds;
	o->static_dir = opts->static_dir;
	memcpy(o->labels, opts->md_labels, sizeof o->labels);
	o->udirs = opts->udirs;
	o->nudirs = opts->nudirs;
	o->udir_render = opts->udir_render;
	o->udir_ctx = opts->udir_ctx;
	site_image_rule(cfg, o);
}

static void render_markdown(struct site *site, struct diag *d, const struct build_opts *opts, struct content *c)
{
	struct md_pool p;
	memset(&p, 0, sizeof p);
	p.cfg = site->cfg;
	p.opts = opts;
	p.d = d;
	md_options_of(site->cfg, opts, &p.md);
	p.md.unknown = md_unknown_new();
	/* the site's realpath, made once here, not by each document */
	size_t sdn = p.md.static_dir ? strlen(p.md.static_dir) : 0;
	char *site_real = NULL;
	if (sdn > 7 && !strcmp(p.md.static_dir + sdn - 7, "/static")) {
		char *dir = xstrndup(p.md.static_dir, sdn - 7);
		p.md.site_real = site_real = site_root(dir);
		free(dir);
	}
	p.njobs = c->nposts + c->nseries + c->npages;
	p.jobs = xcalloc(p.njobs + 1, sizeof *p.jobs);
	size_t k = 0;
	for (size_t i = 0; i < c->nposts; i++)
		p.jobs[k++] = (struct md_job){JOB_POST, c->posts[i], {0, 0}};
	for (size_t i = 0; i < c->nseries; i++)
		p.jobs[k++] = (struct md_job){JOB_SERIES, c->series[i], {0, 0}};
	for (size_t i = 0; i < c->npages; i++)
		p.jobs[k++] = (struct md_job){JOB_PAGE, c->pages[i], {0, 0}};
	int n = opts->jobs > 0 ? opts->jobs : 1;
	site->worker_arenas = xcalloc((size_t)n, sizeof *site->worker_arenas);
	site->nworkers = n;
	for (int i = 0; i < n; i++)
		site->worker_arenas[i] = arena_new();
	if (opts->md_cache) {
		/* what the cache has, found on this thread; the rest is rendered.
		 * A few documents are rendered here too: this thread keeps its
		 * highlighters and KaTeX from one build of a session to the next,
		 * a new worker would load them again (tens of milliseconds). */
		size_t left = 0;
		for (size_t i = 0; i < p.njobs; i++)
			if (!cache_lookup(&p, site->worker_arenas[0], &p.jobs[i]))
				p.jobs[left++] = p.jobs[i];
		p.njobs = left;
		if (left <= 16)
			n = 1;
	}
	if ((size_t)n > p.njobs / 8 + 1)
		n = (int)(p.njobs / 8 + 1);
	/* jobs are taken in small batches: fewer lock round trips */
	pool_queue_init(&p.queue, p.njobs, 8);
	p.arenas = site->worker_arenas;
	struct worker_arg *args = xcalloc((size_t)n, sizeof *args);
	for (int i = 0; i < n; i++)
		args[i] = (struct worker_arg){&p, i};
	pool_run(n, worker, args, sizeof *args, 0);
	/* the sources freed are given back: the pages are rendered next, and
	 * their arenas take fresh chunks, which a freed source seldom fits
	 * (10,000 posts: 80 MB of Markdown, a peak 45 MB lower, for 10 ms) */
	if (p.dropped >= SOURCES_TRIM)
		malloc_trim(0);
	pool_queue_fini(&p.queue);
	free(args);
	free(p.jobs);
	free(p.site_real);
	md_unknown_report(p.md.unknown, d);
	md_unknown_free(p.md.unknown);
	free(site_real);
}

void site_free(struct site *s)
{
	for (int i = 0; i < s->nworkers; i++)
		arena_free(s->worker_arenas[i]);
	free(s->worker_arenas);
	s->worker_arenas = NULL;
	s->nworkers = 0;
	site_bibliographies_free(s);
	if (s->link_maps) {
		map_fini(&s->link_maps[0]);
		map_fini(&s->link_maps[1]);
		free(s->link_maps);
		s->link_maps = NULL;
	}
}

/* ---- helpers ---- */

static void err_at(struct diag *d, const struct source *s, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* src_loc: where node n of source s is (n NULL: its first line) */
static struct diag_loc src_loc(const struct source *s, const struct ynode *n)
{
	/* a file that was not read (source.lazy): the collector asks the
	 * content for its text (diag_set_texts) */
	const char *text = s->lazy ? NULL : s->src;
	return (struct diag_loc){s->path, text, text ? s->len : 0, n ? n->line : 1, n ? n->col : 1};
}

static void err_at(struct diag *d, const struct source *s, const struct ynode *n, const char *fmt, ...)
{
	struct diag_loc loc = src_loc(s, n);
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, DIAG_ERROR, &loc, NULL, 0, fmt, ap);
	va_end(ap);
}

/* slug_clash: the message (level) of a second file (s) whose slug clashes
 * with the first's (first), at its 'slug:' line (or its first line: a
 * slug from the file's name), with a note at the first one's, which says
 * what. */
static void slug_clash(struct diag *d, enum diag_level level, const struct source *s, const struct source *first,
		       const char *what, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void slug_clash(struct diag *d, enum diag_level level, const struct source *s, const struct source *first,
		       const char *what, const char *fmt, ...)
{
	struct diag_loc loc = src_loc(s, schema_node(s->fm, "slug"));
	struct diag_note note = {src_loc(first, schema_node(first->fm, "slug")), what};
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, level, &loc, &note, 1, fmt, ap);
	va_end(ap);
}

/* Maps of slugs and paths (base/map.h; keys in the arena, which outlives
 * each map): slug_put stores val under key unless it is there, and
 * returns the value stored under key (the old one if it was there);
 * slug_get the value under key, or NULL. */
static void *slug_put(struct map *m, struct str key, void *val)
{
	int added;
	struct map_entry *e = map_put(m, key.p, key.len, &added);
	if (added)
		e->val.p = val;
	return e->val.p;
}

static void *slug_get(const struct map *m, struct str key)
{
	return map_get(m, key.p, key.len);
}

/* suggest: the closest key of ix to word, for "did you mean" in an error of
 * file path; NULL when the file's errors are no longer shown (a series
 * listing 100,000 missing posts does not search the posts 100,000 times).
 * At most 4096 keys are looked at. */
static const char *suggest(struct arena *a, struct diag *d, const char *path, const struct map *m,
			   struct str word)
{
	if (diag_file_full(d, path))
		return NULL;
	struct diag_guess g;
	diag_guess_init(&g, word.p, word.len);
	for (size_t i = 0; i < m->n && i < 4096; i++)
		diag_guess_try(&g, m->e[i].key, m->e[i].len);
	size_t n;
	const char *best = diag_guess_best(&g, &n);
	return best ? arena_strndup(a, best, n) : NULL;
}

/* err_none: the error at `at` of source s for name, which names nothing of
 * m: "PREFIX'NAME'MID", the closest of m's keys as "(did you mean ...?)"
 * when there is one, then tail. */
static void err_none(struct arena *a, struct diag *d, const struct source *s, const struct ynode *at,
		     const char *prefix, struct str name, const char *mid, const struct map *m, const char *tail)
{
	const char *sug = suggest(a, d, s->path, m, name);
	err_at(d, s, at, "%s'%.*s'%s%s%s%s%s", prefix, STR_FMT(name), mid, sug ? " (did you mean '" : "", sug ? sug : "",
	       sug ? "'?)" : "", tail);
}

static int cmp_post_date(const void *x, const void *y)
{
	const struct post *a = *(struct post *const *)x, *b = *(struct post *const *)y;
	if (a->date.utc != b->date.utc)
		return a->date.utc > b->date.utc ? -1 : 1;
	return str_cmp(a->slug, b->slug); /* same instant: by slug, so the order is stable */
}

static int cmp_series(const void *x, const void *y)
{
	const struct series *a = *(struct series *const *)x, *b = *(struct series *const *)y;
	if (a->weight != b->weight)
		return a->weight < b->weight ? -1 : 1;
	int c = str_cmp(a->title, b->title);
	return c ? c : str_cmp(a->slug, b->slug);
}

static void term_add(struct arena *a, struct term *t, struct post *p)
{
	if (t->nposts == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4;
		t->posts = arena_realloc(a, t->posts, t->cap * sizeof *t->posts, cap * sizeof *t->posts);
		t->cap = cap;
	}
	t->posts[t->nposts++] = p;
}

/* One spelling of a term, exactly as front matter writes it. */
struct spelling {
	struct str text;
	size_t uses;            /* the posts that write it */
	struct post *first;     /* the oldest of them */
	const struct ynode *at; /* where first writes it */
	struct post *last;      /* the last post counted */
	struct spelling *next;  /* the next spelling of the same name */
	struct tname *name;
};

/* A name: the spellings that differ in case and spacing only (term_key). A
 * term has one; a second is another name with the same URL, an error. */
struct tname {
	struct spelling *spellings, **tail;
	struct tname *next;
	size_t term; /* in build_terms' unsorted array */
};

/* term_at: where post p writes its k-th tag (or its category). */
static const struct ynode *term_at(const struct post *p, size_t k, int categories)
{
	const struct ynode *n = schema_node(p->s.fm, categories ? "category" : "tags");
	if (n && n->kind == YNODE_SEQ)
		return k < n->len ? n->items[k] : n;
	return n;
}

/* best_spelling: the name's spelling most posts write; of equals, the
 * first in byte order (so "CUDA" before "Cuda" before "cuda"). */
static struct spelling *best_spelling(const struct tname *nm)
{
	struct spelling *best = nm->spellings;
	for (struct spelling *sp = best->next; sp; sp = sp->next)
		if (sp->uses > best->uses || (sp->uses == best->uses && str_cmp(sp->text, best->text) < 0))
			best = sp;
	return best;
}

/* term_messages: the warning for a name written in several spellings, and
 * the error for names that share a term's URL. */
static void term_messages(struct diag *d, const struct term *t, const struct tname *names, int categories)
{
	const char *what = categories ? "category" : "tag";
	const char *base = categories ? "categories" : "tags";
	for (const struct tname *nm = names; nm; nm = nm->next) {
		if (nm != names) {
			const struct spelling *sp = nm->spellings, *other = names->spellings;
			err_at(d, &sp->first->s, sp->at,
			       "%s '%.*s' and %s '%.*s' (%s) would share the URL /%s/%.*s/ (hint: rename one of them; "
			       "see POSTS in folio-site(5))",
			       what, STR_FMT(sp->text), what, STR_FMT(other->text), other->first->s.path, base,
			       STR_FMT(t->slug));
		}
		if (!nm->spellings->next)
			continue;
		const struct spelling *best = best_spelling(nm), *here = nm->spellings;
		if (here == best)
			here = here->next;
		struct buf b;
		buf_init(&b);
		int k = 0;
		for (const struct spelling *sp = nm->spellings; sp; sp = sp->next)
			if (sp != here)
				buf_printf(&b, "%s'%.*s' (%s)", k++ ? ", " : "", STR_FMT(sp->text), sp->first->s.path);
		const char *text = here->first->s.lazy ? NULL : here->first->s.src; /* else diag_set_texts' */
		struct diag_loc loc = {here->first->s.path, text, text ? here->first->s.len : 0,
				       here->at ? here->at->line : 1, here->at ? here->at->col : 1};
		diag_report(d, DIAG_WARNING, &loc, NULL, 0, "%s '%.*s' is also written %.*s; all are shown as '%.*s'",
			    what, STR_FMT(here->text), (int)b.len, b.p ? b.p : "", STR_FMT(best->text));
		buf_fini(&b);
	}
}

struct term_order {
	struct str slug;
	size_t i;
};

static int cmp_term_order(const void *x, const void *y)
{
	const struct term_order *a = x, *b = y;
	return str_cmp(a->slug, b->slug);
}

static int cmp_year(const void *x, const void *y)
{
	const struct year *a = x, *b = y;
	return (a->year < b->year) - (a->year > b->year);
}

/* build_terms: groups published posts (newest first) by tag or category.
 * Messages name the oldest post that writes each spelling.
 * Spellings that differ in case and spacing only are one term, named by
 * the spelling most of its posts write (a warning lists the others); two
 * names with one URL (term_slug) are an error. Fills s->post_terms. */
static void build_terms(struct arena *a, struct diag *d, struct site *s, int categories)
{
	struct map by_text = MAP_INIT, by_key = MAP_INIT, by_slug = MAP_INIT;
	size_t guess = 16;
	for (size_t i = 0; i < s->nposts; i++)
		guess += categories ? 1 : s->posts[i]->ntags;
	map_reserve(&by_text, guess);
	map_reserve(&by_key, guess);
	map_reserve(&by_slug, guess);
	struct term *terms = arena_alloc(a, guess * sizeof *terms);
	struct tname **names = arena_alloc(a, guess * sizeof *names);
	struct tname ***names_tail = arena_alloc(a, guess * sizeof *names_tail);
	size_t n = 0;
	/* oldest first, so that the older of two spellings or names is the
	 * one the messages take as known; the lists are turned round after */
	for (size_t i = s->nposts; i-- > 0;) {
		struct post *p = s->posts[i];
		struct post_terms *pt = &s->post_terms[p->index];
		size_t cnt = categories ? (p->category.len ? 1 : 0) : p->ntags;
		if (!categories)
			pt->tags = arena_alloc(a, (cnt + 1) * sizeof *pt->tags);
		for (size_t k = 0; k < cnt; k++) {
			struct str text = categories ? p->category : p->tags[k];
			struct spelling *sp = slug_get(&by_text, text);
			if (!sp) {
				struct str key = term_key(a, text);
				struct tname *nm = slug_get(&by_key, key);
				if (!nm) {
					struct str slug = term_slug(a, text);
					struct term *t = slug_get(&by_slug, slug);
					if (!t) {
						t = &terms[n];
						t->slug = slug;
						names_tail[n] = &names[n];
						n++;
						slug_put(&by_slug, slug, t);
					}
					nm = arena_alloc(a, sizeof *nm);
					nm->term = (size_t)(t - terms);
					nm->tail = &nm->spellings;
					*names_tail[nm->term] = nm;
					names_tail[nm->term] = &nm->next;
					slug_put(&by_key, key, nm);
				}
				sp = arena_alloc(a, sizeof *sp);
				sp->text = text;
				sp->first = p;
				sp->at = term_at(p, k, categories);
				sp->name = nm;
				*nm->tail = sp;
				nm->tail = &sp->next;
				slug_put(&by_text, text, sp);
			}
			if (sp->last != p) {
				sp->uses++;
				sp->last = p;
			}
			struct term *t = &terms[sp->name->term];
			/* a post writing one term twice (in any spelling) appears once */
			if (t->nposts && t->posts[t->nposts - 1] == p)
				continue;
			term_add(a, t, p);
			if (categories)
				pt->category = t;
			else
				pt->tags[pt->ntags++] = t;
		}
	}
	/* sorted by slug; the posts' terms follow them */
	struct term_order *order = arena_alloc(a, (n + 1) * sizeof *order);
	size_t *at = arena_alloc(a, (n + 1) * sizeof *at);
	for (size_t i = 0; i < n; i++)
		order[i] = (struct term_order){terms[i].slug, i};
	qsort(order, n, sizeof *order, cmp_term_order);
	struct term *sorted = arena_alloc(a, (n + 1) * sizeof *sorted);
	for (size_t j = 0; j < n; j++) {
		struct term *t = &terms[order[j].i];
		for (size_t k = 0; k < t->nposts / 2; k++) {
			struct post *x = t->posts[k];
			t->posts[k] = t->posts[t->nposts - 1 - k];
			t->posts[t->nposts - 1 - k] = x;
		}
		sorted[j] = *t;
		at[order[j].i] = j;
		sorted[j].name = best_spelling(names[order[j].i])->text;
	}
	for (size_t i = 0; i < s->nposts; i++) {
		struct post_terms *pt = &s->post_terms[i];
		if (categories && pt->category)
			pt->category = &sorted[at[pt->category - terms]];
		for (size_t k = 0; !categories && k < pt->ntags; k++)
			pt->tags[k] = &sorted[at[pt->tags[k] - terms]];
	}
	for (size_t j = 0; j < n; j++)
		term_messages(d, &sorted[j], names[order[j].i], categories);
	map_fini(&by_text);
	map_fini(&by_key);
	map_fini(&by_slug);
	if (categories) {
		s->categories = sorted;
		s->ncategories = n;
	} else {
		s->tags = sorted;
		s->ntags = n;
	}
}

/* build_years: the posts of each local year, newest year first. Years come
 * from each post's own date while the list is ordered by instant, so posts
 * of one year need not be next to each other (offsets around New Year):
 * group by year, not by runs. */
static void build_years(struct arena *a, struct site *s)
{
	s->years = arena_alloc(a, (s->nposts + 1) * sizeof *s->years);
	size_t *cap = arena_alloc(a, (s->nposts + 1) * sizeof *cap);
	/* dates have four-digit years: a direct index from year to group */
	int *slot = arena_alloc(a, 10000 * sizeof *slot);
	for (size_t i = 0; i < s->nposts; i++) {
		struct post *p = s->posts[i];
		int yv = p->date.year >= 0 && p->date.year < 10000 ? p->date.year : 0;
		size_t y;
		if (slot[yv]) {
			y = (size_t)slot[yv] - 1;
		} else {
			y = s->nyears++;
			s->years[y].year = p->date.year;
			slot[yv] = (int)y + 1;
		}
		struct year *yr = &s->years[y];
		if (yr->nposts == cap[y]) {
			size_t nc = cap[y] ? cap[y] * 2 : 16;
			yr->posts = arena_realloc(a, yr->posts, cap[y] * sizeof *yr->posts, nc * sizeof *yr->posts);
			cap[y] = nc;
		}
		yr->posts[yr->nposts++] = p;
	}
	qsort(s->years, s->nyears, sizeof *s->years, cmp_year);
}

/* ---- series ---- */

struct member {
	struct post *post;
	int order; /* the position that decides the order */
};

static int cmp_member(const void *x, const void *y)
{
	const struct member *a = x, *b = y;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	/* no explicit order on either: oldest first */
	if (a->post->date.utc != b->post->date.utc)
		return a->post->date.utc < b->post->date.utc ? -1 : 1;
	return str_cmp(a->post->slug, b->post->slug);
}

/* The series being built: its members (drafts included: they keep their
 * place), and what the checks of its posts need. */
struct series_build {
	struct arena *a;
	struct diag *d;
	struct content *c;
	const struct map *posts_by_slug;
	struct map sx;           /* series by slug */
	struct series **claimed; /* by post: the series its front matter names */
	struct member *mem;
	size_t nmem;
	int errors;
};

/* series_claims: the series each post's front matter names (claimed),
 * and an error for one that names no series. */
static void series_claims(struct series_build *b)
{
	struct content *c = b->c;
	for (size_t i = 0; i < c->nposts; i++) {
		struct post *p = c->posts[i];
		if (!p->series_slug.len)
			continue;
		struct series *se = slug_get(&b->sx, p->series_slug);
		if (!se && content_series_failed(c, p->series_slug)) {
			b->errors++; /* its file's error is reported */
			continue;
		}
		if (!se) {
			const char *sug = suggest(b->a, b->d, p->s.path, &b->sx, p->series_slug);
			if (sug)
				err_at(b->d, &p->s, p->series_node, "unknown series '%.*s' (did you mean '%s'?)",
				       STR_FMT(p->series_slug), sug);
			else
				err_at(b->d, &p->s, p->series_node, "unknown series '%.*s' (series are the files in content/series/)",
				       STR_FMT(p->series_slug));
			b->errors++;
			continue;
		}
		b->claimed[i] = se;
	}
}

/* series_listed_post: post k of the series file's list, checked: it is
 * a post, listed once, of no other series, at the position its own
 * series_order says (if it says one). NULL after an error. */
static struct post *series_listed_post(struct series_build *b, struct series *se, size_t k, struct map *listed)
{
	struct diag *d = b->d;
	struct post *p = slug_get(b->posts_by_slug, se->post_slugs[k]);
	const struct ynode *at = se->posts_node->items[k];
	if (!p && content_failed(b->c, se->post_slugs[k]))
		return NULL; /* its file's error is reported */
	if (!p) {
		err_none(b->a, d, &se->s, at, "no post ", se->post_slugs[k], " for this series", b->posts_by_slug, "");
		return NULL;
	}
	if (slug_get(listed, p->slug)) {
		err_at(d, &se->s, at, "post '%.*s' is listed twice", STR_FMT(p->slug));
		return NULL;
	}
	slug_put(listed, p->slug, p);
	if (p->series_slug.len && slug_get(&b->sx, p->series_slug) && slug_get(&b->sx, p->series_slug) != se) {
		err_at(d, &se->s, at, "post '%.*s' belongs to series '%.*s' (its front matter says so)", STR_FMT(p->slug),
		       STR_FMT(p->series_slug));
		return NULL;
	}
	if (p->listed_in && p->listed_in != se) {
		err_at(d, &se->s, at, "post '%.*s' is already listed by series '%.*s' (a post belongs to one series)",
		       STR_FMT(p->slug), STR_FMT(p->listed_in->slug));
		return NULL;
	}
	p->listed_in = se;
	if (p->series_order && p->series_order != (int)k + 1) {
		err_at(d, &p->s, p->order_node,
		       "series_order %d disagrees with the series file, which lists this post at position %zu",
		       p->series_order, k + 1);
		b->errors++;
	}
	return p;
}

/* series_listed: the members of a series whose file lists its posts, in
 * that order; a post that names the series but is not listed is an
 * error. */
static void series_listed(struct series_build *b, struct series *se)
{
	struct map listed = MAP_INIT;
	map_reserve(&listed, se->npost_slugs);
	for (size_t k = 0; k < se->npost_slugs; k++) {
		struct post *p = series_listed_post(b, se, k, &listed);
		if (!p)
			b->errors++;
		else
			b->mem[b->nmem++] = (struct member){p, (int)k + 1};
	}
	for (size_t i = 0; i < b->c->nposts; i++) {
		struct post *p = b->c->posts[i];
		if (b->claimed[i] == se && !slug_get(&listed, p->slug)) {
			err_at(b->d, &p->s, p->series_node,
			       "this post names series '%.*s', whose 'posts' list does not include '%.*s'", STR_FMT(se->slug),
			       STR_FMT(p->slug));
			b->errors++;
		}
	}
	map_fini(&listed);
}

/* series_ordered: the members of a series whose file lists no posts: the
 * posts that name it, explicit positions first, then the rest by date;
 * two posts at one position are an error. */
static void series_ordered(struct series_build *b, struct series *se)
{
	for (size_t i = 0; i < b->c->nposts; i++) {
		if (b->claimed[i] != se)
			continue;
		struct post *p = b->c->posts[i];
		b->mem[b->nmem++] = (struct member){p, p->series_order ? p->series_order : 1 << 30};
	}
	qsort(b->mem, b->nmem, sizeof *b->mem, cmp_member);
	for (size_t k = 1; k < b->nmem; k++) {
		struct member *x = &b->mem[k - 1], *y = &b->mem[k];
		if (x->order == y->order && x->order != 1 << 30) {
			err_at(b->d, &y->post->s, y->post->order_node,
			       "position %d of series '%.*s' is also taken by %s (two posts cannot share a position)", y->order,
			       STR_FMT(se->slug), x->post->s.path);
			b->errors++;
		}
	}
}

/* series_start: the post a series recommends starting with (its first,
 * unless the file names another of its posts). */
static void series_start(struct series_build *b, struct series *se)
{
	se->start = se->nposts ? se->posts[0] : NULL;
	if (!se->recommended_start.len)
		return;
	struct post *p = slug_get(b->posts_by_slug, se->recommended_start);
	if (!p && content_failed(b->c, se->recommended_start)) {
		b->errors++; /* its file's error is reported */
	} else if (!p) {
		err_none(b->a, b->d, &se->s, se->recommended_node, "recommended_start names no post: ", se->recommended_start,
			 "", b->posts_by_slug, "");
		b->errors++;
	} else if (p->series != se) {
		if (p->index >= 0) {
			err_at(b->d, &se->s, se->recommended_node, "recommended_start '%.*s' is not a post of this series",
			       STR_FMT(se->recommended_start));
			b->errors++;
		}
	} else {
		se->start = p;
	}
}

/* series_number: the numbers of a series' members (parts.h), its
 * published members with their neighbours, its reading time and its
 * URL. */
static void series_number(struct series_build *b, struct series *se)
{
	struct post **all = arena_alloc(b->a, (b->nmem + 1) * sizeof *all);
	for (size_t k = 0; k < b->nmem; k++)
		all[k] = b->mem[k].post;
	b->errors += parts_number(b->d, se, all, b->nmem);
	se->posts = all; /* the published ones, in place: each is kept before it is overwritten */
	for (size_t k = 0; k < b->nmem; k++) {
		struct post *p = all[k];
		if (p->index < 0)
			continue; /* a draft or future post, not built */
		p->series = se;
		se->posts[se->nposts++] = p;
		p->place = (int)se->nposts;
		se->minutes += p->minutes;
	}
	for (size_t k = 0; k < se->nposts; k++) {
		se->posts[k]->series_prev = k ? se->posts[k - 1] : NULL;
		se->posts[k]->series_next = k + 1 < se->nposts ? se->posts[k + 1] : NULL;
	}
	series_start(b, se);
	char url[512];
	snprintf(url, sizeof url, "/series/%.*s/", STR_FMT(se->slug));
	se->url = str_from(arena_strndup(b->a, url, strlen(url)));
}

/* build_series: every series' posts, in order, numbered; the errors of
 * what the series files and the posts' front matter say of them. */
static int build_series(struct arena *a, struct diag *d, struct content *c, const struct map *posts_by_slug)
{
	struct series_build b = {a, d, c, posts_by_slug, MAP_INIT, NULL, NULL, 0, 0};
	map_reserve(&b.sx, c->nseries);
	for (size_t i = 0; i < c->nseries; i++)
		slug_put(&b.sx, c->series[i]->slug, c->series[i]);
	b.claimed = arena_alloc(a, (c->nposts + 1) * sizeof *b.claimed);
	series_claims(&b);
	for (size_t si = 0; si < c->nseries; si++) {
		struct series *se = c->series[si];
		size_t cap = se->npost_slugs;
		for (size_t i = 0; i < c->nposts; i++)
			if (b.claimed[i] == se)
				cap++;
		b.mem = arena_alloc(a, (cap + 1) * sizeof *b.mem);
		b.nmem = 0;
		if (se->post_slugs)
			series_listed(&b, se); /* the series file's list decides the order */
		else
			series_ordered(&b, se);
		series_number(&b, se);
	}
	map_fini(&b.sx);
	return b.errors;
}

/* ---- related posts ---- */

/* What related posts depend on, and what they were, by position in the
 * date order. */
struct related_cache {
	struct hash128 shape; /* {0, 0}: nothing kept */
	size_t n;
	int max;
	uint32_t *post;      /* n * max positions */
	unsigned char *why;  /* the reason of each, as an index into reasons */
	unsigned char *count; /* per post */
	int dirty;           /* made anew since read or written */
};

static const char *const reasons[] = {"previous in the series", "next in the series", "shared tags", "recent"};

static void related_clear(struct related_cache *rc)
{
	free(rc->post);
	free(rc->why);
	free(rc->count);
	rc->post = NULL;
	rc->why = rc->count = NULL;
	rc->shape = (struct hash128){0, 0};
	rc->n = 0;
	rc->max = 0;
}

struct related_cache *related_cache_new(void)
{
	return xcalloc(1, sizeof(struct related_cache));
}

void related_cache_free(struct related_cache *rc)
{
	if (!rc)
		return;
	related_clear(rc);
	free(rc);
}

/* related_shape: a hash of everything build_related reads: each published
 * post's slug, date, tag slugs and series neighbours, in date order (128
 * bits: the lists are kept in .folio-cache between builds, and a shape
 * that two sites share would give one of them the other's lists). */
static void shape_u64(struct hasher *st, uint64_t v)
{
	hasher_add_u64(st, v);
}

static void shape_str(struct hasher *st, struct str v)
{
	shape_u64(st, v.len);
	hasher_add(st, v.p, v.len);
}

static struct hash128 related_shape(const struct site *s, int max)
{
	struct hasher st;
	hasher_begin(&st, 0);
	shape_u64(&st, (uint64_t)max);
	shape_u64(&st, s->nposts);
	for (size_t i = 0; i < s->nposts; i++) {
		const struct post *p = s->posts[i];
		shape_str(&st, p->slug);
		shape_u64(&st, (uint64_t)p->date.utc);
		const struct post_terms *pt = &s->post_terms[i];
		shape_u64(&st, pt->ntags);
		for (size_t t = 0; t < pt->ntags; t++)
			shape_str(&st, pt->tags[t]->slug);
		shape_u64(&st, (uint64_t)(p->series_prev ? p->series_prev->index + 1 : 0));
		shape_u64(&st, (uint64_t)(p->series_next ? p->series_next->index + 1 : 0));
	}
	struct hash128 h = hasher_digest128(&st);
	if (!h.lo && !h.hi)
		h.lo = 1;
	return h;
}

/* The lists as bytes (related_cache_write), read back by another folio
 * process: RELATED_MAGIC, a check of the byte order (u32), the max (u32),
 * the shape (low, high: u64), n (u64), then count[n], why[n * max] (bytes)
 * and post[n * max] (u32, padded to 4 before them), and last the XXH3 of
 * all the bytes before it (u64): a damaged file is made anew, never read
 * as another site's lists. */
#define RELATED_MAGIC "folio-related 1\n"
#define RELATED_HEAD (16 + 4 + 4 + 8 + 8 + 8)
#define RELATED_ORDER 0x01020304u

static size_t related_size(size_t n, size_t max)
{
	size_t at = RELATED_HEAD + n + n * max;
	return (at + 3) / 4 * 4 + 4 * n * max + 8;
}

void related_cache_write(struct related_cache *rc, struct buf *b)
{
	b->len = 0;
	if (!rc->shape.lo && !rc->shape.hi)
		return;
	size_t n = rc->n, max = (size_t)rc->max, total = related_size(n, max);
	buf_reserve(b, total);
	memset(b->p, 0, total);
	char *p = b->p;
	uint32_t order = RELATED_ORDER, m = (uint32_t)max;
	uint64_t head[3] = {rc->shape.lo, rc->shape.hi, n};
	memcpy(p, RELATED_MAGIC, 16);
	memcpy(p + 16, &order, 4);
	memcpy(p + 20, &m, 4);
	memcpy(p + 24, head, sizeof head);
	size_t at = RELATED_HEAD;
	memcpy(p + at, rc->count, n);
	at += n;
	for (size_t i = 0; i < n; i++) /* the unused places zero, not malloc's */
		for (size_t k = 0; k < max; k++)
			p[at + i * max + k] = k < rc->count[i] ? (char)rc->why[i * max + k] : 0;
	at = (at + n * max + 3) / 4 * 4;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < rc->count[i]; k++)
			memcpy(p + at + 4 * (i * max + k), &rc->post[i * max + k], 4);
	uint64_t sum = hash_bytes(p, total - 8);
	memcpy(p + total - 8, &sum, 8);
	b->len = total;
	rc->dirty = 0;
}

int related_cache_read(struct related_cache *rc, const void *bytes, size_t len)
{
	const char *p = bytes;
	related_clear(rc);
	rc->dirty = 0;
	uint32_t order, m;
	uint64_t head[3];
	if (len < RELATED_HEAD || memcmp(p, RELATED_MAGIC, 16))
		return -1;
	memcpy(&order, p + 16, 4);
	memcpy(&m, p + 20, 4);
	memcpy(head, p + 24, sizeof head);
	size_t max = m, n = (size_t)head[2];
	/* n bounded by the length first, so that the sizes cannot overflow */
	uint64_t sum;
	memcpy(&sum, p + len - 8, 8);
	if (order != RELATED_ORDER || max < 1 || max > 255 || head[2] > len || (!head[0] && !head[1]) ||
	    related_size(n, max) != len || hash_bytes(p, len - 8) != sum)
		return -1;
	const unsigned char *count = (const unsigned char *)p + RELATED_HEAD, *why = count + n;
	size_t posts_at = (RELATED_HEAD + n + n * max + 3) / 4 * 4;
	rc->post = xmalloc((n * max + 1) * sizeof *rc->post);
	rc->why = xmalloc(n * max + 1);
	rc->count = xmalloc(n + 1);
	memcpy(rc->count, count, n);
	memcpy(rc->why, why, n * max);
	memcpy(rc->post, p + posts_at, 4 * n * max);
	for (size_t i = 0; i < n; i++) {
		if (count[i] > max)
			goto bad;
		for (size_t k = 0; k < count[i]; k++)
			if (rc->post[i * max + k] >= n || rc->post[i * max + k] == i || rc->why[i * max + k] > 3)
				goto bad;
	}
	rc->shape = (struct hash128){head[0], head[1]};
	rc->n = n;
	rc->max = (int)max;
	return 0;
bad:
	related_clear(rc);
	return -1;
}

int related_cache_dirty(const struct related_cache *rc)
{
	return rc->dirty;
}

static unsigned char reason_index(const char *r)
{
	for (unsigned char i = 0; i < 4; i++)
		if (r == reasons[i])
			return i;
	return 3;
}

struct cand {
	struct post *post;
	int score;
	int64_t distance;
};

static int cmp_cand(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->distance != b->distance)
		return a->distance < b->distance ? -1 : 1;
	return a->post->index - b->post->index;
}

/* build_related: per post, the posts next to it in its series, then those
 * sharing the most tags (nearest in time first), then the nearest in time.
 * Each tag contributes only the RELATED_WINDOW posts around this one, so a
 * tag on every post costs O(window), not O(posts). */
#define RELATED_WINDOW 64

/* tag_indexes: each tag's posts as their indexes (by the tag's place in
 * s->tags), in one block to free: the search and the window of
 * build_related read these, not each post through its pointer. */
static uint32_t **tag_indexes(const struct site *s)
{
	size_t nidx = 0;
	for (size_t t = 0; t < s->ntags; t++)
		nidx += s->tags[t].nposts;
	uint32_t **tidx = xmalloc((s->ntags + 1) * sizeof *tidx + (nidx + 1) * sizeof **tidx);
	uint32_t *idx = (uint32_t *)(tidx + s->ntags + 1);
	for (size_t t = 0, at = 0; t < s->ntags; t++) {
		tidx[t] = idx + at;
		for (size_t j = 0; j < s->tags[t].nposts; j++)
			idx[at++] = (uint32_t)s->tags[t].posts[j]->index;
	}
	return tidx;
}

static void build_related(struct arena *a, struct site *s, int max, struct related_cache *rc)
{
	size_t n = s->nposts;
	s->related = arena_alloc(a, (n + 1) * sizeof *s->related);
	s->nrelated = arena_alloc(a, (n + 1) * sizeof *s->nrelated);
	if (max <= 0)
		return;
	if (max > 255)
		rc = NULL; /* counts are kept in bytes */
	struct hash128 shape = rc ? related_shape(s, max) : (struct hash128){0, 0};
	if (rc && rc->shape.lo == shape.lo && rc->shape.hi == shape.hi && rc->n == n && rc->max == max) {
		for (size_t i = 0; i < n; i++) {
			struct related *out = arena_alloc(a, (size_t)max * sizeof *out);
			for (size_t k = 0; k < rc->count[i]; k++) {
				size_t at = i * (size_t)max + k;
				out[k] = (struct related){s->posts[rc->post[at]], reasons[rc->why[at]]};
			}
			s->related[i] = out;
			s->nrelated[i] = rc->count[i];
		}
		return;
	}
	int *score = xcalloc(n + 1, sizeof *score);
	struct cand *cands = xmalloc(((2 * RELATED_WINDOW + 1) * 64 + 8 + (size_t)max) * sizeof *cands);
	uint32_t **tidx = tag_indexes(s);
	for (size_t i = 0; i < n; i++) {
		struct post *p = s->posts[i];
		struct related *out = arena_alloc(a, (size_t)max * sizeof *out);
		size_t k = 0;
		if (p->series_prev && k < (size_t)max)
			out[k++] = (struct related){p->series_prev, reasons[0]};
		if (p->series_next && k < (size_t)max)
			out[k++] = (struct related){p->series_next, reasons[1]};
		size_t nc = 0;
		const struct post_terms *pt = &s->post_terms[i];
		for (size_t t = 0; t < pt->ntags && t < 64; t++) {
			const struct term *tg = pt->tags[t];
			const uint32_t *ti = tidx[tg - s->tags];
			/* find p in the tag's date-sorted list by binary search on the index */
			size_t lo = 0, hi = tg->nposts;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if (ti[mid] < (uint32_t)p->index)
					lo = mid + 1;
				else
					hi = mid;
			}
			size_t from = lo > RELATED_WINDOW ? lo - RELATED_WINDOW : 0;
			size_t to = lo + RELATED_WINDOW + 1 < tg->nposts ? lo + RELATED_WINDOW + 1 : tg->nposts;
			for (size_t j = from; j < to; j++) {
				struct post *q = tg->posts[j];
				if (ti[j] == (uint32_t)p->index || q == p->series_prev || q == p->series_next)
					continue;
				if (score[ti[j]]++ == 0) {
					int64_t dist = q->date.utc - p->date.utc;
					cands[nc++] = (struct cand){q, 0, dist < 0 ? -dist : dist};
				}
			}
		}
		/* the best few by cmp_cand (a total order), kept sorted by
		 * insertion: sorting every candidate to keep `max` of them was
		 * most of a rebuild's model time */
		size_t want = (size_t)max - k, nbest = 0;
		struct cand *best = cands + nc;
		for (size_t j = 0; j < nc; j++) {
			cands[j].score = score[cands[j].post->index];
			score[cands[j].post->index] = 0;
			if (!want || (nbest == want && cmp_cand(&cands[j], &best[nbest - 1]) >= 0))
				continue;
			size_t at = nbest < want ? nbest++ : nbest - 1;
			while (at > 0 && cmp_cand(&cands[j], &best[at - 1]) < 0) {
				best[at] = best[at - 1];
				at--;
			}
			best[at] = cands[j];
		}
		for (size_t j = 0; j < nbest; j++)
			out[k++] = (struct related){best[j].post, reasons[2]};
		/* fill up with the nearest posts in time */
		for (size_t step = 1; k < (size_t)max && step < n; step++) {
			int added = 0;
			for (int side = -1; side <= 1 && k < (size_t)max; side += 2) {
				long j = (long)i + side * (long)step;
				if (j < 0 || (size_t)j >= n)
					continue;
				added = 1;
				struct post *q = s->posts[j];
				int dup = 0;
				for (size_t m = 0; m < k; m++)
					dup |= out[m].post == q;
				if (!dup)
					out[k++] = (struct related){q, reasons[3]};
			}
			if (!added)
				break;
		}
		s->related[i] = out;
		s->nrelated[i] = k;
	}
	free(score);
	free(tidx);
	free(cands);
	if (rc) {
		related_clear(rc);
		rc->dirty = 1;
		rc->post = xmalloc((n * (size_t)max + 1) * sizeof *rc->post);
		rc->why = xmalloc(n * (size_t)max + 1);
		rc->count = xmalloc(n + 1);
		for (size_t i = 0; i < n; i++) {
			rc->count[i] = (unsigned char)s->nrelated[i];
			for (size_t k = 0; k < s->nrelated[i]; k++) {
				rc->post[i * (size_t)max + k] = (uint32_t)s->related[i][k].post->index;
				rc->why[i * (size_t)max + k] = reason_index(s->related[i][k].reason);
			}
		}
		rc->shape = shape;
		rc->n = n;
		rc->max = max;
	}
}

/* ---- the whole model ---- */

const char *const site_reserved[] = {"posts", "series", "tags", "categories", "archive", "page", "feed.xml",
				     "feed.json", "sitemap.xml", "robots.txt", "404.html", "search", "index.html",
				     "style.css", "print.css", "enhance.js", "favicon.svg", NULL};

/* posts_case_clash: a warning at each post whose slug differs from an
 * earlier one's only in case (ASCII letters): on a file system that
 * ignores case (macOS, Windows) their two folders are one, and one page
 * replaces the other. Nothing to do, and no map, when no slug has a
 * capital letter. */
static void posts_case_clash(struct arena *a, struct diag *d, const struct content *c)
{
	size_t i = 0;
	for (; i < c->nposts; i++) {
		struct str sl = c->posts[i]->slug;
		size_t k = 0;
		while (k < sl.len && !(sl.p[k] >= 'A' && sl.p[k] <= 'Z'))
			k++;
		if (k < sl.len)
			break;
	}
	if (i == c->nposts)
		return;
	struct map folded = MAP_INIT;
	map_reserve(&folded, c->nposts);
	for (i = 0; i < c->nposts; i++) {
		struct post *p = c->posts[i];
		char *low = arena_strndup(a, p->slug.p, p->slug.len);
		for (size_t k = 0; k < p->slug.len; k++)
			if (low[k] >= 'A' && low[k] <= 'Z')
				low[k] = (char)(low[k] - 'A' + 'a');
		struct post *old = slug_put(&folded, (struct str){low, p->slug.len}, p);
		if (old != p && !str_eq(old->slug, p->slug))
			slug_clash(d, DIAG_WARNING, &p->s, &old->s, "the post with the other spelling",
				   "slug '%.*s' differs only in case from '%.*s' (%s): on a file system that ignores case "
				   "(macOS, Windows) their URLs are one folder, and one post replaces the other (hint: "
				   "rename one)",
				   STR_FMT(p->slug), STR_FMT(old->slug), old->s.path);
	}
	map_fini(&folded);
}

/* site_posts: the published posts (drafts and future posts left out, the
 * date of the first future one kept), newest first, with their
 * neighbours and URLs; by_slug every post by slug, a duplicate slug an
 * error (the first file by path wins the message). */
static void site_posts(struct arena *a, struct diag *d, const struct build_opts *opts, struct site *s,
		       struct map *by_slug)
{
	struct content *c = s->content;
	map_reserve(by_slug, c->nposts);
	for (size_t i = 0; i < c->nposts; i++) {
		struct post *p = c->posts[i];
		struct post *old = slug_put(by_slug, p->slug, p);
		if (old != p)
			slug_clash(d, DIAG_ERROR, &p->s, &old->s, "the post that has it first",
				       "duplicate slug '%.*s': %s has it too (URLs must be unique)", STR_FMT(p->slug),
				       old->s.path);
	}
	posts_case_clash(a, d, c);
	s->posts = arena_alloc(a, (c->nposts + 1) * sizeof *s->posts);
	for (size_t i = 0; i < c->nposts; i++) {
		struct post *p = c->posts[i];
		p->index = -1;
		if (p->draft && !opts->drafts)
			continue;
		if (p->date.utc > opts->now && !opts->future) {
			if (!s->next_future || p->date.utc < s->next_future)
				s->next_future = p->date.utc;
			continue;
		}
		s->posts[s->nposts++] = p;
	}
	qsort(s->posts, s->nposts, sizeof *s->posts, cmp_post_date);
	for (size_t i = 0; i < s->nposts; i++) {
		struct post *p = s->posts[i];
		p->index = (int)i;
		p->newer = i ? s->posts[i - 1] : NULL;
		p->older = i + 1 < s->nposts ? s->posts[i + 1] : NULL;
		char url[512];
		snprintf(url, sizeof url, "/posts/%.*s/", STR_FMT(p->slug));
		p->url = str_from(arena_strndup(a, url, strlen(url)));
		s->total_minutes += p->minutes;
	}
}

/* site_pages: the pages, unique slugs and none that takes a URL folio
 * needs, with their URLs; pages by slug. */
static void site_pages(struct arena *a, struct diag *d, const struct build_opts *opts, struct site *s,
		       struct map *pages)
{
	struct content *c = s->content;
	map_reserve(pages, c->npages);
	s->pages = arena_alloc(a, (c->npages + 1) * sizeof *s->pages);
	for (size_t i = 0; i < c->npages; i++) {
		struct page *pg = c->pages[i];
		int bad = 0;
		for (size_t k = 0; site_reserved[k]; k++)
			if (strcmp(site_reserved[k], "page") ? str_eq_cstr(pg->slug, site_reserved[k])
							     : str_eq(pg->slug, s->cfg->paginate_path)) {
				err_at(d, &pg->s, schema_node(pg->s.fm, "slug"),
				       "the page slug '%.*s' is taken by folio's own pages (rename the file or set 'slug')",
				       STR_FMT(pg->slug));
				bad = 1;
			}
		struct page *old = slug_put(pages, pg->slug, pg);
		if (old != pg) {
			slug_clash(d, DIAG_ERROR, &pg->s, &old->s, "the page that has it first",
				       "duplicate page slug '%.*s': %s has it too", STR_FMT(pg->slug), old->s.path);
			bad = 1;
		}
		char url[512];
		snprintf(url, sizeof url, "/%.*s/", STR_FMT(pg->slug));
		pg->url = str_from(arena_strndup(a, url, strlen(url)));
		if (!bad && (!pg->draft || opts->drafts))
			s->pages[s->npages++] = pg;
	}
}

/* cfg_at: a place in folio.yml, for err_at. */
static struct ynode cfg_at(int line, int col)
{
	struct ynode at = {0};
	at.line = line;
	at.col = col;
	return at;
}

/* site_home: what folio.yml names for the home page: its start_here page
 * (pages: by slug), its best_of posts and its featured series (else the
 * series that say they are featured). */
static void site_home(struct arena *a, struct diag *d, const struct build_opts *opts, struct site *s,
		      const struct map *by_slug, const struct map *pages)
{
	const struct config *cfg = s->cfg;
	struct content *c = s->content;
	struct source cfg_src = {.path = cfg->path, .src = cfg->src, .len = cfg->src_len};
	if (cfg->start_here.slug.len) {
		struct ynode at = cfg_at(cfg->start_here.line, cfg->start_here.col);
		s->start_here = slug_get(pages, cfg->start_here.slug);
		if (s->start_here && s->start_here->draft && !opts->drafts) {
			err_at(d, &cfg_src, &at, "start_here names a draft page: '%.*s' (publish it, or build with --drafts)",
			       STR_FMT(cfg->start_here.slug));
		} else if (!s->start_here) {
			err_none(a, d, &cfg_src, &at, "start_here names no page: ", cfg->start_here.slug, "", pages,
				 " (pages are the files in content/pages/)");
		}
	}
	s->best_of = arena_alloc(a, (cfg->nbest_of + 1) * sizeof *s->best_of);
	for (size_t i = 0; i < cfg->nbest_of; i++) {
		const struct slug_ref *r = &cfg->best_of[i];
		struct post *p = slug_get(by_slug, r->slug);
		if (!p && content_failed(c, r->slug))
			continue; /* its file's error is reported */
		if (!p) {
			struct ynode at = cfg_at(r->line, r->col);
			err_none(a, d, &cfg_src, &at, "best_of names no post: ", r->slug, "", by_slug, "");
			continue;
		}
		if (p->index < 0)
			continue; /* a draft or future post: left out of this build */
		s->best_of[s->nbest_of++] = (struct best_pick){p, r->note};
	}
	s->featured = arena_alloc(a, (c->nseries + cfg->nfeatured_series + 1) * sizeof *s->featured);
	if (!cfg->nfeatured_series) {
		for (size_t i = 0; i < s->nseries; i++)
			if (s->series[i]->featured)
				s->featured[s->nfeatured++] = s->series[i];
		return;
	}
	struct map sx = MAP_INIT;
	map_reserve(&sx, c->nseries);
	for (size_t i = 0; i < c->nseries; i++)
		slug_put(&sx, c->series[i]->slug, c->series[i]);
	for (size_t i = 0; i < cfg->nfeatured_series; i++) {
		const struct slug_ref *r = &cfg->featured_series[i];
		struct series *se = slug_get(&sx, r->slug);
		if (!se && content_series_failed(c, r->slug))
			continue; /* its file's error is reported */
		if (!se) {
			struct ynode at = cfg_at(r->line, r->col);
			err_none(a, d, &cfg_src, &at, "featured_series names no series: ", r->slug, "", &sx, "");
			continue;
		}
		s->featured[s->nfeatured++] = se;
	}
	map_fini(&sx);
}

int site_build(struct arena *a, struct diag *d, const struct config *cfg, struct content *c,
	       const struct build_opts *opts, struct site *s)
{
	memset(s, 0, sizeof *s);
	s->cfg = cfg;
	s->content = c;
	int before = d->errors;
	site_bibliographies(a, d, s, c);
	render_markdown(s, d, opts, c);
	if (pool_cancelled())
		return d->errors - before + 1; /* documents are missing: the driver stops */
	struct map by_slug = MAP_INIT, pages = MAP_INIT;
	site_posts(a, d, opts, s, &by_slug);
	build_series(a, d, c, &by_slug);
	s->series = arena_alloc(a, (c->nseries + 1) * sizeof *s->series);
	for (size_t i = 0; i < c->nseries; i++)
		s->series[s->nseries++] = c->series[i];
	qsort(s->series, s->nseries, sizeof *s->series, cmp_series);

	s->post_terms = arena_alloc(a, (s->nposts + 1) * sizeof *s->post_terms);
	build_terms(a, d, s, 0);
	build_terms(a, d, s, 1);
	build_years(a, s);
	build_related(a, s, opts->max_related, opts->related_cache);
	site_pages(a, d, opts, s, &pages);
	site_home(a, d, opts, s, &by_slug, &pages);
	/* after every document is rendered and every series numbered */
	xref_resolve(a, d, s, &by_slug, opts->md_labels);
	map_fini(&by_slug);
	map_fini(&pages);
	return d->errors - before;
}

/* ---- the links of bodies made final: `.md` and `@/` links to the page they name,
 * root-relative URLs under a sub-path base_url ---- */

static const char *resolve_md(void *ctx, const char *path, size_t len)
{
	return slug_get(ctx, (struct str){path, len});
}

/* left_out_url: the URL a post of slug will have once it is published. */
static const char *left_out_url(struct arena *a, struct str slug)
{
	char *u = arena_alloc(a, slug.len + 9);
	snprintf(u, slug.len + 9, "/posts/%.*s/", STR_FMT(slug));
	return u;
}

/* ---- backlinks: which posts link to which, seen by the rewriting's scan ---- */

/* What the scan of one post's body collects: the published posts it links
 * to, each once. */
struct link_collect {
	const struct map *by_url; /* a published post by its URL ("/posts/x/") */
	const char *base_path;    /* "/" or the base URL's path ("/blog/") */
	struct str origin;        /* the base URL's scheme and host ("https://x.org"), or none */
	const struct post *from;
	uint32_t *last;           /* by post index: 1 + the index of the last post that linked to it */
	struct buf path, key;
	struct post **to;
	size_t nto, cap;
};

/* link_path: the site path of URL u[0..n) (query and fragment dropped)
 * seen in lc->from's body, relative to the site's root and normalized,
 * in lc->path; -1 when it is not a page of this site. */
static int link_path(struct link_collect *lc, const char *u, size_t n)
{
	size_t pl = 0;
	while (pl < n && u[pl] != '#' && u[pl] != '?')
		pl++;
	buf_reset(&lc->path);
	if (links_has_scheme(u, pl)) { /* the site's own absolute URL */
		size_t ol = lc->origin.len;
		if (!ol || pl < ol || strncasecmp(u, lc->origin.p, ol) || (pl > ol && u[ol] != '/'))
			return -1;
		u += ol;
		pl -= ol;
		if (!pl)
			u = "/", pl = 1;
	}
	if (pl >= 2 && u[0] == '/' && u[1] == '/')
		return -1;
	if (pl && u[0] == '/') {
		size_t bl = strlen(lc->base_path) - 1; /* its '/' is u's */
		if (bl && (pl < bl || memcmp(u, lc->base_path, bl)))
			return -1;
		links_pct_decode(&lc->path, u + bl + 1, pl - bl - 1);
	} else { /* relative to the post's own URL, a folder */
		buf_append(&lc->path, lc->from->url.p + 1, lc->from->url.len - 1);
		links_pct_decode(&lc->path, u, pl);
	}
	buf_putc(&lc->path, '\0');
	lc->path.len--;
	return links_normalize(lc->path.p);
}

/* link_seen: a links_seen_fn: a link of lc->from to a published post
 * other than itself, noted once. */
static void link_seen(void *ctx, const char *u, size_t n)
{
	struct link_collect *lc = ctx;
	if (link_path(lc, u, n) < 0)
		return;
	size_t len = strlen(lc->path.p);
	if (len >= 10 && !memcmp(lc->path.p + len - 10, "index.html", 10))
		len -= 10;
	buf_reset(&lc->key);
	buf_putc(&lc->key, '/');
	buf_append(&lc->key, lc->path.p, len);
	if (!len || lc->path.p[len - 1] != '/')
		buf_putc(&lc->key, '/');
	struct post *to = map_get(lc->by_url, lc->key.p, lc->key.len);
	if (!to || to == lc->from || lc->last[to->index] == (uint32_t)lc->from->index + 1)
		return;
	lc->last[to->index] = (uint32_t)lc->from->index + 1;
	if (lc->nto == lc->cap) {
		lc->cap = lc->cap ? 2 * lc->cap : 16;
		lc->to = xrealloc(lc->to, lc->cap * sizeof *lc->to);
	}
	lc->to[lc->nto++] = to;
}

/* link_collect_init: for the posts of s under base (NULL: "/"); the
 * caller fills in from before each scan; link_collect_fini frees it. */
static void link_collect_init(struct link_collect *lc, const struct site *s, const char *base, struct map *by_url)
{
	memset(lc, 0, sizeof *lc);
	if (!by_url->n) { /* (a patch's: filled already) */
		map_reserve(by_url, s->nposts + 1);
		for (size_t i = 0; i < s->nposts; i++)
			slug_put(by_url, s->posts[i]->url, s->posts[i]);
	}
	lc->by_url = by_url;
	lc->base_path = base ? base : "/";
	struct str b = s->cfg->base_url;
	const char *sep = b.len >= 3 ? memmem(b.p, b.len, "://", 3) : NULL;
	if (sep) {
		const char *host = sep + 3, *end = b.p + b.len, *slash = memchr(host, '/', (size_t)(end - host));
		lc->origin = (struct str){b.p, (size_t)((slash ? slash : end) - b.p)};
	}
	lc->last = xcalloc(s->nposts + 1, sizeof *lc->last);
	buf_init(&lc->path);
	buf_init(&lc->key);
}

static void link_collect_fini(struct link_collect *lc)
{
	free(lc->last);
	free(lc->to);
	buf_fini(&lc->path);
	buf_fini(&lc->key);
}

/* refers_out: whether doc has a cross-reference into another post. */
static int refers_out(const struct md_doc *doc)
{
	for (size_t i = 0; i < doc->nxrefs; i++)
		if (doc->xrefs[i].target.len)
			return 1;
	return 0;
}

/* rewrite_doc: doc's links made final; with lc (a post's, lc->from set),
 * the posts it links to collected into lc->to. */
static void rewrite_doc(struct arena *a, struct md_doc *doc, const struct source *s, const char *base, struct map *m,
                        struct link_collect *lc)
{
	/* a body that may link to a post says so in its link hint: the HTML
	 * of the others is not read (it may lie in the Markdown cache's file,
	 * not yet in memory); a reference into another post (@slug#fig:x,
	 * made a link by model/xref.c, so in memory) is a link too */
	if (lc && s->link_hint == 2 && !refers_out(doc))
		lc = NULL;
	/* nothing to change: not scanned again at each build of a session */
	if (!lc && s->link_hint != 1 && (!base || !strcmp(base, "/")))
		return;
	const char *src = s->path;
	struct str was = doc->html;
	doc->html = links_rewrite_seen(a, doc->html, src, base, resolve_md, m, lc ? link_seen : NULL, lc);
	if (doc->html.p != was.p || doc->html.len != was.len) {
		doc->html_hash = 0;
		doc->img_at = 0;
	}
	doc->summary_html = links_rewrite(a, doc->summary_html, src, base, resolve_md, m);
}

/* post_links: rewrite_doc of post p, its links to posts into *to (in a)
 * and *nto. */
static void post_links(struct arena *a, struct post *p, struct md_doc *doc, const struct source *src,
                       const char *base, struct map *m, struct link_collect *lc, struct post ***to, size_t *nto)
{
	lc->from = p;
	lc->nto = 0;
	rewrite_doc(a, doc, src, base, m, lc);
	*nto = lc->nto;
	*to = arena_alloc(a, (lc->nto + 1) * sizeof **to);
	if (lc->nto)
		memcpy(*to, lc->to, lc->nto * sizeof **to);
}

/* build_backlinks: each post's backlinks from every post's links_to,
 * newest linking post first. */
static void build_backlinks(struct arena *a, struct site *s)
{
	s->backlinks = arena_alloc(a, (s->nposts + 1) * sizeof *s->backlinks);
	s->nbacklinks = arena_alloc(a, (s->nposts + 1) * sizeof *s->nbacklinks);
	size_t *count = xcalloc(s->nposts + 1, sizeof *count);
	for (size_t i = 0; i < s->nposts; i++)
		for (size_t k = 0; k < s->nlinks_to[i]; k++)
			count[s->links_to[i][k]->index]++;
	for (size_t i = 0; i < s->nposts; i++)
		s->backlinks[i] = arena_alloc(a, (count[i] + 1) * sizeof **s->backlinks);
	for (size_t i = 0; i < s->nposts; i++) /* s->posts: newest first */
		for (size_t k = 0; k < s->nlinks_to[i]; k++) {
			size_t t = (size_t)s->links_to[i][k]->index;
			s->backlinks[t][s->nbacklinks[t]++] = s->posts[i];
		}
	free(count);
}

/* url_index: the URL of each document's page by its source's path, for
 * links_rewrite. */
static void url_index(struct arena *a, const struct site *s, struct map *mp)
{
	struct map m = MAP_INIT;
	map_reserve(&m, s->nposts + s->nseries + s->npages + s->content->nposts + 1);
	for (size_t i = 0; i < s->nposts; i++)
		slug_put(&m, str_from(s->posts[i]->s.path), (void *)s->posts[i]->url.p);
	for (size_t i = 0; i < s->nseries; i++)
		slug_put(&m, str_from(s->series[i]->s.path), (void *)s->series[i]->url.p);
	for (size_t i = 0; i < s->npages; i++)
		slug_put(&m, str_from(s->pages[i]->s.path), (void *)s->pages[i]->url.p);
	/* a link to a post this build leaves out goes where it will be */
	for (size_t i = 0; i < s->content->nposts; i++) {
		const struct post *p = s->content->posts[i];
		if (p->index < 0)
			slug_put(&m, str_from(p->s.path), (void *)left_out_url(a, p->slug));
	}
	*mp = m;
}

void site_rewrite_links(struct arena *a, struct site *s, const char *base)
{
	struct map m = MAP_INIT, by_url = MAP_INIT;
	url_index(a, s, &m);
	struct link_collect lc;
	link_collect_init(&lc, s, base, &by_url);
	s->links_to = arena_alloc(a, (s->nposts + 1) * sizeof *s->links_to);
	s->nlinks_to = arena_alloc(a, (s->nposts + 1) * sizeof *s->nlinks_to);
	for (size_t i = 0; i < s->nposts; i++)
		post_links(a, s->posts[i], &s->posts[i]->doc, &s->posts[i]->s, base, &m, &lc, &s->links_to[i],
		           &s->nlinks_to[i]);
	for (size_t i = 0; i < s->nseries; i++)
		rewrite_doc(a, &s->series[i]->doc, &s->series[i]->s, base, &m, NULL);
	for (size_t i = 0; i < s->npages; i++)
		rewrite_doc(a, &s->pages[i]->doc, &s->pages[i]->s, base, &m, NULL);
	build_backlinks(a, s);
	link_collect_fini(&lc);
	if (s->link_maps) {
		map_fini(&s->link_maps[0]);
		map_fini(&s->link_maps[1]);
	} else {
		s->link_maps = xcalloc(2, sizeof *s->link_maps);
	}
	s->link_maps[0] = m;
	s->link_maps[1] = by_url;
}

static int cmp_post_ptr(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t) * (struct post *const *)x, b = (uintptr_t) * (struct post *const *)y;
	return a < b ? -1 : a > b;
}

/* same_posts: x[0..nx) and y[0..ny) are the same set of posts (each holds
 * a post once), in any order. */
static int same_posts(struct post *const *x, size_t nx, struct post *const *y, size_t ny)
{
	if (nx != ny)
		return 0;
	struct post **sx = xcalloc(2 * nx + 1, sizeof *sx), **sy = sx + nx;
	if (nx) {
		memcpy(sx, x, nx * sizeof *x);
		memcpy(sy, y, nx * sizeof *y);
	}
	qsort(sx, nx, sizeof *sx, cmp_post_ptr);
	qsort(sy, nx, sizeof *sy, cmp_post_ptr);
	int same = !nx || !memcmp(sx, sy, nx * sizeof *sx);
	free(sx);
	return same;
}

/* ---- a post's text edited, in a session ---- */

int site_patch_post(struct arena *a, struct site *s, const struct build_opts *opts, size_t i, const char *text,
		    size_t len, const char *base)
{
	struct post *p = s->posts[i];
	struct source *src = &p->s;
	if (src->nb || text_encoding(text, len) || utf8_bad(text, len) != len)
		return 1; /* a notebook: the whole round reads it again */
	/* the front matter, byte for byte as it was: then every value read
	 * from it is too */
	size_t fm_end = (size_t)(src->body - src->src);
	if (src->body < src->src || fm_end > len || memcmp(text, src->src, fm_end))
		return 1;
	struct source ns = *src;
	const char *fm = NULL;
	size_t fm_len = 0;
	/* what is wrong is said by the whole build, not here (the collector
	 * would not say it twice) */
	struct diag quiet;
	diag_init(&quiet, NULL);
	int split = content_split(&quiet, src->path, text, len, &fm, &fm_len, &ns);
	if (split < 0 || ns.body != text + fm_end || ns.body_line != src->body_line) {
		diag_fini(&quiet);
		return 1;
	}
	ns.body_hash = 0;
	ns.link_hint = link_hint(&ns);
	ns.html_hash = 0;
	/* the options of the post's job (its front matter is the same) */
	struct md_options common, o;
	md_options_of(s->cfg, opts, &common);
	struct md_job job = {JOB_POST, p, {0, 0}};
	struct source *js;
	struct md_doc *jd;
	job_options(s->cfg, &common, &job, &o, &js, &jd);
	unsigned long said = diag_thread_reports(), noted = md_unknown_thread_count();
	struct md_unknown *unknown = md_unknown_new();
	o.unknown = unknown;
	struct md_doc doc;
	memset(&doc, 0, sizeof doc);
	md_render(a, &o, &quiet, ns.path, ns.src, ns.len, ns.body, ns.body_len, ns.body_line, &doc);
	doc.link_hint = ns.link_hint;
	int silent = diag_thread_reports() == said && md_unknown_thread_count() == noted;
	md_unknown_free(unknown);
	diag_fini(&quiet);
	/* a message: the whole build reports it (and the site's totals, the
	 * model-viewer script, the math font and the links a base path
	 * changes are the whole build's too) */
	int minutes = p->reading_time ? p->reading_time : md_reading_minutes(&doc, s->cfg->reading_speed);
	/* cross-references: other posts may show this one's labels, and
	 * its own need every post's (model/xref.c): the whole round */
	if (!silent || minutes != p->minutes || doc.has_model3d != p->doc.has_model3d ||
	    (doc.math_spans > 0) != (p->doc.math_spans > 0) || doc.nlabels || doc.nxrefs || p->doc.nlabels ||
	    p->doc.nxrefs || !s->links_to || !s->link_maps)
		return 1;
	/* its links made final, and the posts it links to: others' backlinks
	 * change with them, and are the whole build's */
	/* (the maps of site_rewrite_links: a patch changes no path or URL) */
	struct link_collect lc;
	link_collect_init(&lc, s, base, &s->link_maps[1]);
	struct post **to;
	size_t nto;
	post_links(a, p, &doc, &ns, base, &s->link_maps[0], &lc, &to, &nto);
	link_collect_fini(&lc);
	if (!same_posts(to, nto, s->links_to[i], s->nlinks_to[i]))
		return 1;
	*src = ns;
	p->doc = doc;
	s->links_to[i] = to;
	return 0;
}
