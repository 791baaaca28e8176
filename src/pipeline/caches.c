/* caches.c: the caches a session keeps between its rounds (folio serve),
 * or reads from the last build and leaves for the next (folio build), in
 * .folio-cache (see driver.h). */
#include "pipeline/driver.h"

#include "cache/cache.h"
#include "cache/fmcache.h"
#include "cache/mdcache.h"
#include "cache/srccache.h"
#include "files/stamp.h"
#include "search/search.h"

#include <stdlib.h>
#include <string.h>

void caches_init(struct session_caches *c, unsigned keeps)
{
	memset(c, 0, sizeof *c);
	/* one round reads each file once */
	c->content = keeps & TARGET_ONE_ROUND ? NULL : content_cache_new();
	c->related = related_cache_new();
}

void caches_md_join(struct session_caches *c)
{
	pool_join(&c->md_opening);
	memset(&c->md_opening, 0, sizeof c->md_opening);
}

void caches_fini(struct session_caches *c, const char *site_dir, int committed)
{
	caches_md_join(c);
	if (c->md && committed)
		md_cache_store(c->md, site_dir); /* for the next build or server */
	md_cache_free(c->md);
	if (c->search && committed)
		search_cache_store(c->search, site_dir);
	search_cache_free(c->search);
	content_cache_free(c->content);
	related_cache_free(c->related);
	fm_cache_free(c->fm);
	src_cache_free(c->records);
	memset(c, 0, sizeof *c);
}

/* kept_read: the cache's file of kind k, read whole (within the
 * catalogue's bound), or NULL; kept_write: b made that file for the next
 * build, or the file removed when b is empty or cannot be written (the
 * next build then makes what it held anew). */
static char *kept_read(const char *site_dir, enum cache_kind k, size_t *len)
{
	char *path = cache_path(site_dir, k);
	char *text = cache_read(path, k, len);
	free(path);
	return text;
}

static void kept_write(const char *site_dir, enum cache_kind k, const struct buf *b)
{
	char *path = cache_path(site_dir, k);
	if (!b->len || cache_open_dir(site_dir, CACHE_ROOT) != 0 || cache_write(path, b->p, b->len) != 0)
		cache_remove(path);
	free(path);
}

/* ---- the Markdown cache: opened beside the stages ---- */

static struct md_cache *md_open_path(const char *site_dir)
{
	char *path = cache_path(site_dir, CACHE_MARKDOWN);
	struct md_cache *md = md_cache_open(path);
	free(path);
	return md;
}

static void *md_open(void *arg)
{
	struct session_caches *c = arg;
	c->md = md_open_path(c->site_dir);
	return NULL;
}

struct md_cache *caches_md(struct session_caches *c, const char *site_dir)
{
	caches_md_join(c);
	if (!c->md)
		c->md = md_open_path(site_dir);
	return c->md;
}

/* ---- the front matter, the records of the sources, the related posts ---- */

/* fm_open: the front matter trees of the last build, from the cache's
 * file (none if it is missing or not whole). */
static struct fm_cache *fm_open(const char *site_dir)
{
	struct fm_cache *fm = fm_cache_new(stamp_binary());
	size_t len;
	char *text = kept_read(site_dir, CACHE_FRONTMATTER, &len);
	if (text)
		(void)fm_cache_read(fm, text, len);
	free(text);
	return fm;
}

/* records_open: the last build's records of the content files, from the
 * cache's file (none if it is missing or not whole). */
static struct src_cache *records_open(const char *site_dir)
{
	struct src_cache *c = src_cache_new(stamp_binary());
	size_t len;
	char *text = kept_read(site_dir, CACHE_SOURCES, &len);
	if (text)
		(void)src_cache_read(c, text, len);
	free(text);
	return c;
}

void caches_open(struct session_caches *c, const char *site_dir, unsigned keeps)
{
	if ((keeps & TARGET_ONE_ROUND) && !c->fm)
		c->fm = fm_open(site_dir);
	if (!(keeps & TARGET_KEEPS_STATE))
		return;
	if (!c->records)
		c->records = records_open(site_dir);
	/* the Markdown cache's pack is opened (its entries found) while the
	 * content is read */
	if (!c->md && !c->md_opening.state) {
		c->site_dir = site_dir;
		(void)pool_spawn(&c->md_opening, md_open, c); /* if not: opened when it is needed */
	}
}

void caches_related(struct session_caches *c, const char *site_dir)
{
	if (c->related_read)
		return;
	/* the related posts of the last build, kept in the cache */
	c->related_read = 1;
	size_t len;
	char *text = kept_read(site_dir, CACHE_RELATED, &len);
	if (text)
		(void)related_cache_read(c->related, text, len); /* if not: made anew */
	free(text);
}

/* record_of: s's record for the next build into c, if it has one: read
 * (or not) without a message, its front matter and its body's hashes
 * known. */
static void record_of(struct src_cache *c, const struct source *s)
{
	if (!s->content || s->no_record || !s->body_hash || !s->link_hint || !(s->fm_key_lo | s->fm_key_hi))
		return;
	struct src_record r = {s->content,
			       s->len,
			       s->len - s->body_len,
			       s->body_hash,
			       {s->fm_key_lo, s->fm_key_hi},
			       s->fm_len,
			       s->body_line,
			       s->fm_lines,
			       s->link_hint};
	src_cache_put(c, s->path, &r);
}

/* records_save: the records of this build's content files, for the next
 * build, in the cache's file. */
static void records_save(const char *site_dir, const struct content *ct)
{
	struct src_cache *c = src_cache_new(stamp_binary());
	for (size_t i = 0; i < ct->nposts; i++)
		record_of(c, &ct->posts[i]->s);
	for (size_t i = 0; i < ct->nseries; i++)
		record_of(c, &ct->series[i]->s);
	for (size_t i = 0; i < ct->npages; i++)
		record_of(c, &ct->pages[i]->s);
	struct buf b;
	buf_init(&b);
	if (src_cache_count(c))
		src_cache_write(c, &b);
	kept_write(site_dir, CACHE_SOURCES, &b);
	buf_fini(&b);
	src_cache_free(c);
}

void caches_save(struct session_caches *c, const char *site_dir, const struct content *ct)
{
	struct buf b;
	buf_init(&b);
	if (related_cache_dirty(c->related)) { /* the related posts made anew */
		related_cache_write(c->related, &b);
		kept_write(site_dir, CACHE_RELATED, &b);
		buf_reset(&b);
	}
	if (c->fm && fm_cache_dirty(c->fm)) { /* the trees this build read or parsed */
		fm_cache_write(c->fm, &b);
		kept_write(site_dir, CACHE_FRONTMATTER, &b);
	}
	buf_fini(&b);
	if (c->records)
		records_save(site_dir, ct);
}

/* ---- the search index's counts ---- */

struct search_cache *caches_search(struct session_caches *c, const char *site_dir, int search)
{
	if (!search)
		return NULL;
	if (!c->search) {
		char *path = cache_path(site_dir, CACHE_SEARCH);
		c->search = search_cache_open(path, stamp_binary());
		free(path);
	}
	return c->search;
}

void caches_round_end(struct session_caches *c, const char *site_dir, unsigned keeps, int committed)
{
	if (!(keeps & TARGET_ONE_ROUND))
		return;
	if (c->md) {
		/* The cache refers to this build's HTML (md_borrow): it is stored
		 * (when the Markdown stage went without error), and freed, before
		 * the arena goes. */
		md_cache_store_end(c->md, committed);
		md_cache_free(c->md);
		c->md = NULL;
	}
	if (c->search) { /* folio check writes nothing there */
		if (committed && (keeps & TARGET_KEEPS_STATE)) {
			search_cache_sweep(c->search); /* what this build did not use goes */
			search_cache_store(c->search, site_dir);
		}
		search_cache_free(c->search);
		c->search = NULL;
	}
}
