/* content.c: walks content/ and data/, splits front matter, and checks it. */
#include "read/content.h"
#include "cache/fmcache.h"
#include "cache/srccache.h"
#include "files/stamp.h"
#include "files/reader.h"

#include "base/index.h"
#include "base/pool.h"
#include "files/sitefile.h"
#include "base/slug.h"
#include "base/hash.h"

#include <dirent.h>
#include <pthread.h>
#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *difficulty_name(int d)
{
	switch (d) {
	case DIFF_BEGINNER: return "beginner";
	case DIFF_INTERMEDIATE: return "intermediate";
	case DIFF_ADVANCED: return "advanced";
	default: return "";
	}
}

/* Every page and feed of a post's tags shows the post's card with all its
 * tags, so a post's share of the site grows as the square of its tags: one
 * post with 5000 tags wrote 2 GB. Real posts have 2 to 5. */
#define POST_MAX_TAGS 32

static const char *const post_keys[] = {"title", "date", "updated", "summary", "category", "tags", "series",
	"series_order", "part", "difficulty", "draft", "slug", "aliases", "toc", "reading_time", "description",
	"image", "ignore_links", "math", "bibliography", "citation_style", "nocite", "sidenotes", NULL};
static const char *const series_keys[] = {"title", "description", "difficulty", "best_for", "audience",
	"recommended_start", "posts", "featured", "weight", "numbering", "ignore_links", "math", "number_by_part",
	NULL};
static const char *const page_keys[] = {"title", "description", "updated", "slug", "draft", "toc", "aliases",
	"template", "ignore_links", "math", "bibliography", "citation_style", "nocite", "sidenotes", NULL};

/* is_fence: whether line src[p..] is exactly `word` (---) followed by
 * optional spaces and the end of the line. Sets *next to the next line. */
static int is_fence(const char *src, size_t len, size_t p, const char *word, size_t *next)
{
	size_t n = strlen(word);
	if (p + n > len || memcmp(src + p, word, n) != 0)
		return 0;
	size_t i = p + n;
	while (i < len && (src[i] == ' ' || src[i] == '\t'))
		i++;
	if (i < len && src[i] == '\r')
		i++;
	if (i < len && src[i] != '\n')
		return 0;
	*next = i < len ? i + 1 : i;
	return 1;
}

int content_split(struct diag *d, const char *path, const char *src, size_t len, const char **fm, size_t *fm_len,
		  struct source *s)
{
	size_t p = 0, next;
	s->path = path;
	s->src = src;
	s->len = len;
	if (len >= 3 && (unsigned char)src[0] == 0xEF && (unsigned char)src[1] == 0xBB && (unsigned char)src[2] == 0xBF)
		p = 3; /* a byte order mark */
	if (!is_fence(src, len, p, "---", &next)) {
		s->body = src + p;
		s->body_len = len - p;
		s->body_line = 0;
		return 0;
	}
	size_t start = next;
	int line = 2;
	for (p = start; p < len; line++) {
		size_t nl;
		if (is_fence(src, len, p, "---", &nl) || is_fence(src, len, p, "...", &nl)) {
			*fm = src + start;
			*fm_len = p - start;
			s->body = src + nl;
			s->body_len = len - nl;
			s->body_line = line;
			return 1;
		}
		const char *e = memchr(src + p, '\n', len - p);
		p = e ? (size_t)(e - src) + 1 : len;
	}
	struct diag_loc loc = {path, src, len, 1, 1};
	diag_error(d, &loc, "front matter is never closed (hint: end it with a line '---' before the text)");
	return -1;
}

/* check_text: 0 if src[0..len) is UTF-8 text; else -1 after an error that
 * says what it is, and where the first byte that is not UTF-8 is. */
static int check_text(struct diag *d, const char *rel, const char *src, size_t len)
{
	const char *ext = strrchr(rel, '.'); /* the hint's new file: new.md, new.bib */
	if (!ext || strchr(ext, '/'))
		ext = ".md";
	const char *enc = text_encoding(src, len);
	if (enc) {
		struct diag_loc loc = {rel, NULL, 0, 0, 0};
		diag_error(d, &loc, "the file is %s text, and folio reads UTF-8 (hint: iconv -f %s -t UTF-8 %s > new%s, "
			   "then replace the file with new%s)", enc, enc, rel, ext, ext);
		return -1;
	}
	size_t bad = utf8_bad(src, len);
	if (bad == len)
		return 0;
	int line = 1;
	size_t bol = 0;
	for (size_t i = 0; i < bad; i++)
		if (src[i] == '\n') {
			line++;
			bol = i + 1;
		}
	int col = 1;
	for (size_t i = bol; i < bad; i++)
		col += ((unsigned char)src[i] & 0xC0) != 0x80;
	/* the excerpt stops before the bad byte: it is not text to show */
	struct diag_loc loc = {rel, src, bad, line, col};
	diag_error(d, &loc, "byte 0x%02X is not UTF-8 (hint: save the file as UTF-8; from Latin-1: iconv -f LATIN1 -t "
		   "UTF-8 %s > new%s)", (unsigned char)src[bad], rel, ext);
	return -1;
}

int content_check_text(struct diag *d, const char *rel, const char *src, size_t len)
{
	return check_text(d, rel, src, len);
}

/* How the files are read: the front matter trees of the last build (or
 * NULL), and (folio build) what is known of the files before reading them
 * (or NULL), with an index of its stamps by path; lazy: a file whose
 * record is that of its bytes now is not read (source.lazy). */
struct reading {
	struct fm_cache *fm;
	const struct content_known *kn;
	const struct index *stamps;
	int lazy;
};

static const char *stamp_path(const void *ctx, uint32_t v)
{
	return ((const struct stamp_list *)ctx)->e[v - 1].path;
}

/* known_record: the last build's record of rel, if the bytes it describes
 * are those the file had when this build stamped it; else NULL. */
static const struct src_record *known_record(const struct reading *rd, const char *rel)
{
	if (!rd || !rd->lazy || !rd->fm || !rd->kn || !rd->kn->stamps || !rd->kn->records || !rd->stamps)
		return NULL;
	const struct stamp_list *l = rd->kn->stamps;
	uint32_t v = index_get_str(rd->stamps, rel, stamp_path, l);
	const struct stamp_entry *e = v ? &l->e[v - 1] : NULL;
	if (!e || !e->content || !S_ISREG((mode_t)e->sig[0]))
		return NULL;
	const struct src_record *r = src_cache_get(rd->kn->records, rel);
	return r && r->content == e->content && (int64_t)r->len == e->sig[1] ? r : NULL;
}

/* load_lazy: s as the record r says the file is, its front matter from
 * the trees of the last build, without reading it; 0, or -1 (the tree is
 * not kept: the file is read). */
static int load_lazy(struct arena *a, const struct reading *rd, const char *abs, const char *rel, struct source *s,
		     const struct src_record *r)
{
	struct ynode *fm = fm_cache_get(rd->fm, a, r->fm, 2, 1 + r->fm_lines,
					r->fm_len < INT_MAX ? (int)r->fm_len + 1 : INT_MAX);
	if (!fm || fm->kind != YNODE_MAP)
		return -1;
	s->path = rel;
	s->src = NULL;
	s->len = (size_t)r->len;
	s->body = NULL;
	s->body_len = (size_t)(r->len - r->body_off);
	s->body_line = r->body_line;
	s->fm = fm;
	s->body_hash = r->body_hash;
	s->link_hint = r->link_hint;
	s->content = r->content;
	s->fm_key_lo = r->fm.lo;
	s->fm_key_hi = r->fm.hi;
	s->fm_len = (size_t)r->fm_len;
	s->fm_lines = r->fm_lines;
	s->lazy = 1;
	s->abs = arena_strndup(a, abs, strlen(abs));
	s->arena = a;
	return 0;
}

/* load_source: reads a file and its front matter; NULL after an error. */
/* need_fm: the hint for a file without front matter: which keys it needs. */
static int load_source(struct arena *a, struct diag *d, const struct reading *rd, const char *abs, const char *rel,
		       struct source *s, const char *need_fm)
{
	struct fm_cache *fmc = rd ? rd->fm : NULL;
	const struct src_record *known = known_record(rd, rel);
	if (known && load_lazy(a, rd, abs, rel, s, known) == 0)
		return 0;
	/* the walk checked its links (site_check_link) */
	struct site_file f = {abs, rel, FOLIO_MAX_FILE, "split it into several files", SITE_READ_CHECKED};
	size_t len;
	uint64_t h = 0;
	/* folio build: a block of its own, freed once rendered (source_drop) */
	char *src = site_read(d, NULL, &f, rd && rd->kn ? NULL : a, &len, rd && rd->kn ? &h : NULL);
	if (!src)
		return -1;
	if (rd && rd->kn) {
		s->own = arena_own(a, src);
		s->arena = a;
	}
	if (check_text(d, rel, src, len))
		return -1;
	const char *fm = NULL;
	size_t fm_len = 0;
	int r = content_split(d, rel, src, len, &fm, &fm_len, s);
	if (r < 0)
		return -1;
	if (rd && rd->kn) { /* folio build: kept for the next one (srccache.h) */
		s->content = h;
		s->abs = arena_strndup(a, abs, strlen(abs));
	}
	size_t after;
	if (r == 0 && is_fence(src, len, 0, "+++", &after)) {
		struct diag_loc loc = {rel, src, len, 1, 1};
		diag_error(d, &loc, "TOML front matter ('+++') is not read: folio's front matter is YAML between "
			   "'---' lines (hint: write 'key: value' for each 'key = value'; 'folio import hugo' "
			   "converts a whole Hugo site)");
		return -1;
	}
	if (r == 0) {
		if (need_fm) {
			struct diag_loc loc = {rel, src, len, 1, 1};
			diag_error(d, &loc, "no front matter (hint: start the file with '---', then %s, then '---')", need_fm);
			return -1;
		}
		static struct ynode empty = {YNODE_MAP, 1, 1, {"", 0}, 0, 0, NULL, NULL};
		s->fm = &empty;
		s->content = 0; /* no front matter: no record */
		return 0;
	}
	/* the tree a build before made of the same text, or parsed now */
	struct fm_key key = {0, 0};
	int lines = 1;
	if (fmc) {
		for (const char *q = fm; (q = memchr(q, '\n', (size_t)(fm + fm_len - q))); q++)
			lines++;
		key = fm_cache_key(fm, fm_len, 1);
		s->fm = fm_cache_get(fmc, a, key, 2, 1 + lines, fm_len < INT_MAX ? (int)fm_len + 1 : INT_MAX);
		s->fm_key_lo = key.lo;
		s->fm_key_hi = key.hi;
		s->fm_len = fm_len;
		s->fm_lines = lines;
	}
	if (!s->fm) {
		s->fm = yaml_parse(a, d, rel, src, len, fm, fm_len, 1);
		if (!s->fm)
			return -1;
		if (fmc)
			fm_cache_put(fmc, key, s->fm);
	}
	if (s->fm->kind != YNODE_MAP) {
		struct diag_loc loc = {rel, src, len, s->fm->line, s->fm->col};
		diag_error(d, &loc, "front matter must be a map of keys (key: value), found %s", kind_a(s->fm));
		return -1;
	}
	return 0;
}

/* source_locks: the lock of a source's first read, by its address: the
 * documents' threads read their own sources, and reports of errors at a
 * source from several threads meet only at the same one. */
static pthread_mutex_t source_locks[16] = {
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
};

/* source_lock: the lock of s, by its address */
static pthread_mutex_t *source_lock(const struct source *s)
{
	return &source_locks[((uintptr_t)s >> 6) % 16];
}

const char *source_text(struct arena *a, struct diag *d, const struct source *cs)
{
	if (!__atomic_load_n(&cs->lazy, __ATOMIC_ACQUIRE))
		return cs->src;
	/* a lazy source is filled in once, here, under its lock: its text is
	 * the only part of a source that changes after the content is read,
	 * and it is not there before (what every reader of a const source
	 * sees is the text or nothing) */
	struct source *s = (struct source *)cs;
	pthread_mutex_t *lock = source_lock(cs);
	pthread_mutex_lock(lock);
	if (!s->lazy) {
		pthread_mutex_unlock(lock);
		return s->src;
	}
	struct site_file f = {s->abs, s->path, FOLIO_MAX_FILE, "split it into several files", SITE_READ_CHECKED};
	size_t len;
	uint64_t h = 0;
	char *src = site_read(d, NULL, &f, a, &len, &h);
	if (src && (len != s->len || h != s->content)) {
		struct diag_loc loc = {s->path, NULL, 0, 0, 0};
		diag_error(d, &loc, "changed while the site was being built (build it again)");
		if (!a)
			free(src);
		src = NULL;
	} else if (src) {
		if (!a) { /* the arena the source was loaded in, shared by every source */
			static pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;
			pthread_mutex_lock(&own);
			arena_own(s->arena, src);
			pthread_mutex_unlock(&own);
		}
		s->src = src;
		s->body = src + (len - s->body_len);
		__atomic_store_n(&s->lazy, 0, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(lock);
	return src;
}

size_t source_drop(struct source *s)
{
	if (!s->own || !*s->own || s->lazy || !s->content || !s->abs || s->nb)
		return 0;
	pthread_mutex_t *lock = source_lock(s);
	pthread_mutex_lock(lock);
	free(*s->own);
	*s->own = NULL;
	s->own = NULL;
	s->src = s->body = NULL;
	__atomic_store_n(&s->lazy, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(lock);
	return s->len + 1;
}

static const char *src_path(const void *ctx, uint32_t v)
{
	return ((const struct content *)ctx)->srcs[v - 1]->path;
}

/* index_sources: c's sources by path (c->srcs, c->by_path), in a */
static void index_sources(struct arena *a, struct content *c)
{
	size_t n = c->nposts + c->nseries + c->npages, k = 0;
	c->srcs = arena_alloc(a, (n + 1) * sizeof *c->srcs);
	for (size_t i = 0; i < c->nposts; i++)
		c->srcs[k++] = &c->posts[i]->s;
	for (size_t i = 0; i < c->nseries; i++)
		c->srcs[k++] = &c->series[i]->s;
	for (size_t i = 0; i < c->npages; i++)
		c->srcs[k++] = &c->pages[i]->s;
	c->nsrcs = n;
	c->by_path.cap = index_size(n, 64);
	c->by_path.slot = arena_alloc(a, c->by_path.cap * sizeof *c->by_path.slot);
	for (size_t i = 0; i < n; i++)
		if (!index_get_str(&c->by_path, c->srcs[i]->path, src_path, c)) /* the first of a path */
			index_place(&c->by_path, hash_bytes(c->srcs[i]->path, strlen(c->srcs[i]->path)),
				    (uint32_t)(i + 1));
}

const struct source *content_source(const struct content *c, const char *path)
{
	if (c->by_path.cap && c->nsrcs == c->nposts + c->nseries + c->npages) {
		uint32_t v = index_get_str(&c->by_path, path, src_path, c);
		return v ? c->srcs[v - 1] : NULL;
	}
	for (size_t i = 0; i < c->nposts; i++)
		if (!strcmp(c->posts[i]->s.path, path))
			return &c->posts[i]->s;
	for (size_t i = 0; i < c->nseries; i++)
		if (!strcmp(c->series[i]->s.path, path))
			return &c->series[i]->s;
	for (size_t i = 0; i < c->npages; i++)
		if (!strcmp(c->pages[i]->s.path, path))
			return &c->pages[i]->s;
	return NULL;
}

const char *content_text(void *ctx, struct diag *d, const char *path, size_t *len)
{
	const struct source *s = content_source(ctx, path);
	const char *text = s ? source_text(NULL, d, s) : NULL;
	*len = text ? s->len : 0;
	return text;
}

static int read_difficulty(struct schema *s, const struct ynode *m, int *out)
{
	struct str v;
	if (schema_str(s, m, "difficulty", 0, &v) != 1)
		return 0;
	static const char *const names[] = {"beginner", "intermediate", "advanced", NULL};
	for (int i = 0; names[i]; i++) {
		if (v.len == strlen(names[i]) && strncasecmp(v.p, names[i], v.len) == 0) {
			*out = i + 1;
			return 1;
		}
	}
	schema_error(s, schema_node(m, "difficulty"), "'difficulty' must be beginner, intermediate or advanced, found '%.*s'",
		     STR_FMT(v));
	return -1;
}

static void read_slug(struct schema *s, const struct ynode *m, struct str *slug)
{
	struct str v;
	if (schema_str(s, m, "slug", 0, &v) == 1) {
		v = str_trim(v);
		if (!slug_valid(v))
			schema_error(s, schema_node(m, "slug"), "'slug' must be one URL path segment (no '/', spaces, '?', '#' or '%%')");
		else
			*slug = v;
	}
}

static void read_aliases(struct schema *s, const struct ynode *m, struct str **out, size_t *n)
{
	if (schema_str_list(s, m, "aliases", out, n) != 1)
		return;
	const struct ynode *list = schema_node(m, "aliases");
	for (size_t i = 0; i < *n; i++) {
		struct str a = (*out)[i];
		if (a.p[0] != '/' || memmem(a.p, a.len, "..", 2) || memchr(a.p, '\\', a.len))
			schema_error(s, list->items[i], "an alias must be a site path starting with '/' (e.g. /old/url/), without '..'");
	}
}

/* read_math: math: false turns the file's math off (math: true is the
 * site's setting, as it is without the key). */
static void read_math(struct schema *s, const struct ynode *m, struct source *src)
{
	int on = 1;
	if (schema_bool(s, m, "math", &on) == 1)
		src->math_off = !on;
}

/* read_cites: bibliography and citation_style (config_read_citations),
 * and nocite: the keys listed without a citation (a list, or "*"). */
static void read_cites(struct schema *s, const struct ynode *m, struct source *src)
{
	int style = -1;
	src->bib_node = NULL;
	config_read_citations(s, m, &src->bib_node, &style);
	src->cite_style = style + 1;
	const struct ynode *n = schema_node(m, "nocite");
	src->nocite_node = NULL;
	if (!n)
		return;
	int ok = (n->kind == YNODE_SCALAR && str_eq_cstr(n->str, "*")) || (n->kind == YNODE_SEQ && n->len);
	for (size_t i = 0; ok && n->kind == YNODE_SEQ && i < n->len; i++)
		ok = n->items[i]->kind == YNODE_SCALAR && n->items[i]->str.len;
	if (ok)
		src->nocite_node = n;
	else
		schema_error(s, n, "'nocite' must be a list of citation keys, or '*' for every entry, found %s", kind_a(n));
}

/* read_sidenotes: sidenotes: true or false, over folio.yml's. */
static void read_sidenotes(struct schema *s, const struct ynode *m, struct source *src)
{
	int on = 0;
	if (schema_bool(s, m, "sidenotes", &on) == 1)
		src->sidenotes = on ? 1 : -1;
}

/* read_ignore_links: ignore_links, the patterns of links not to check
 * (fnmatch), as C strings in a. */
static void read_ignore_links(struct arena *a, struct schema *s, const struct ynode *m, struct source *src)
{
	struct str *v = NULL;
	size_t n = 0;
	if (schema_str_list(s, m, "ignore_links", &v, &n) != 1 || !n)
		return;
	const char **out = arena_alloc(a, n * sizeof *out);
	for (size_t i = 0; i < n; i++)
		out[i] = arena_strndup(a, v[i].p, v[i].len);
	src->ignore_links = out;
	src->nignore_links = n;
}

/* push: appends item to a list of the build (in its arena a). */
static void push(struct arena *a, void ***list, size_t *n, void *item)
{
	if ((*n & (*n - 1)) == 0)
		*list = arena_realloc(a, *list, *n * sizeof **list, (*n ? 2 * *n : 1) * sizeof **list);
	(*list)[(*n)++] = item;
}

static int ends_with(const char *s, const char *suffix);
static int is_file(const char *path);

/* sidecar: the path of a notebook's front matter file (NAME.yml for
 * NAME.ipynb) in a. */
static char *sidecar(struct arena *a, const char *path)
{
	size_t n = strlen(path) - strlen(NOTEBOOK_EXT);
	char *p = arena_alloc_raw(a, n + 5);
	memcpy(p, path, n);
	memcpy(p + n, ".yml", 5);
	return p;
}

/* load_notebook: a notebook post's source s: the file read, its cells
 * made Markdown (notebook.h), its front matter the metadata's `folio`
 * map or the sidecar NAME.yml (one of them); *sc is where the front
 * matter's messages point. 0, or -1 after an error. */
static int load_notebook(struct arena *a, struct diag *d, const char *abs, const char *rel, struct source *s,
			 struct schema *sc)
{
	struct site_file f = {abs, rel, NOTEBOOK_MAX_FILE, "save its outputs smaller, or clear some", SITE_READ_CHECKED};
	size_t len;
	char *src = site_read(d, NULL, &f, a, &len, NULL);
	if (!src || check_text(d, rel, src, len))
		return -1;
	const struct notebook *nb = notebook_read(a, d, rel, src, len);
	if (!nb)
		return -1;
	s->path = rel;
	s->src = src;
	s->len = len;
	s->body = nb->md;
	s->body_len = nb->md_len;
	s->nb = nb;
	s->fm = nb->fm;
	sc->src = src;
	sc->src_len = len;
	if (nb->fm) { /* a missing key: at the metadata's map */
		sc->map_line = nb->fm->line;
		sc->map_col = nb->fm->col;
	}
	const char *side_abs = sidecar(a, abs), *side_rel = sidecar(a, rel);
	if (!is_file(side_abs)) {
		if (nb->fm)
			return 0;
		struct diag_loc loc = {rel, NULL, 0, 0, 0};
		diag_error(d, &loc, "no front matter (hint: give the notebook's metadata a 'folio' map with 'title' "
			   "and 'date', or write them in %s beside it)", strrchr(side_rel, '/') + 1);
		return -1;
	}
	struct site_file y = {side_abs, side_rel, FOLIO_MAX_FILE, "keep the front matter short", SITE_READ_CHECKED};
	char *ysrc = site_read(d, NULL, &y, a, &len, NULL);
	if (!ysrc || check_text(d, side_rel, ysrc, len))
		return -1;
	if (nb->fm) {
		struct diag_loc loc = {side_rel, ysrc, len, 1, 1};
		diag_error(d, &loc, "the front matter of %s is both here and in its metadata's 'folio' map (hint: keep "
			   "one of them)", strrchr(rel, '/') + 1);
		return -1;
	}
	const struct ynode *fm = yaml_parse(a, d, side_rel, ysrc, len, ysrc, len, 0);
	if (!fm)
		return -1;
	if (fm->kind != YNODE_MAP) {
		struct diag_loc loc = {side_rel, ysrc, len, fm->line, fm->col};
		diag_error(d, &loc, "front matter must be a map of keys (key: value), found %s", kind_a(fm));
		return -1;
	}
	s->fm = fm;
	*sc = (struct schema){a, d, side_rel, ysrc, len, 0, 1, 1};
	return 0;
}

/* load_post, load_series, load_page: one file, everything of it in a
 * (the build's arena, or a cached file's own). NULL after reporting. */
static struct post *load_post(struct arena *a, struct diag *d, const struct reading *rd, const struct config *cfg,
			      const char *abs,
			      const char *rel, struct str slug, const char *bundle)
{
	struct post *p = arena_alloc(a, sizeof *p);
	struct schema s = {a, d, rel, NULL, 0, 0, 1, 1};
	if (ends_with(rel, NOTEBOOK_EXT)) {
		if (load_notebook(a, d, abs, rel, &p->s, &s))
			return NULL;
	} else {
		if (load_source(a, d, rd, abs, rel, &p->s, "'title: ...' and 'date: YYYY-MM-DD'"))
			return NULL;
		s.src = p->s.src;
		s.src_len = p->s.len;
	}
	const struct ynode *m = p->s.fm;
	char *tz = arena_strndup(a, cfg->timezone.p, cfg->timezone.len);
	schema_check_keys(&s, m, post_keys, "front matter");
	schema_str(&s, m, "title", 1, &p->title);
	schema_date(&s, m, "date", 1, tz, &p->date);
	p->has_updated = schema_date(&s, m, "updated", 0, tz, &p->updated) == 1;
	schema_str(&s, m, "summary", 0, &p->summary);
	schema_str(&s, m, "category", 0, &p->category);
	p->category = str_trim(p->category);
	if (schema_str_list(&s, m, "tags", &p->tags, &p->ntags) == 1 && p->ntags > POST_MAX_TAGS)
		schema_error(&s, schema_node(m, "tags")->items[POST_MAX_TAGS],
			     "'tags' lists %zu tags; a post may have at most %d (hint: keep the few readers "
			     "browse by; see LIMITS in folio-site(5))",
			     p->ntags, POST_MAX_TAGS);
	if (schema_str(&s, m, "series", 0, &p->series_slug) == 1) {
		p->series_slug = str_trim(p->series_slug);
		p->series_node = schema_node(m, "series");
	}
	int64_t v;
	if (schema_int(&s, m, "series_order", 1, 100000, &v) == 1) {
		p->series_order = (int)v;
		p->order_node = schema_node(m, "series_order");
		if (!p->series_slug.len)
			schema_error(&s, p->order_node, "'series_order' without 'series' (hint: add 'series: SLUG')");
	}
	p->fm_part = -1;
	if (schema_int(&s, m, "part", 0, 100000, &v) == 1) {
		p->fm_part = (int)v;
		p->part_node = schema_node(m, "part");
		if (!p->series_slug.len)
			schema_error(&s, p->part_node, "'part' without 'series' (hint: add 'series: SLUG')");
	}
	p->title_node = schema_node(m, "title");
	read_difficulty(&s, m, &p->difficulty);
	schema_bool(&s, m, "draft", &p->draft);
	p->slug = slug;
	read_slug(&s, m, &p->slug);
	read_aliases(&s, m, &p->aliases, &p->naliases);
	read_ignore_links(a, &s, m, &p->s);
	read_math(&s, m, &p->s);
	read_cites(&s, m, &p->s);
	read_sidenotes(&s, m, &p->s);
	p->toc = -1;
	schema_bool(&s, m, "toc", &p->toc);
	if (schema_int(&s, m, "reading_time", 1, 10000, &v) == 1)
		p->reading_time = (int)v;
	schema_str(&s, m, "description", 0, &p->description);
	schema_str(&s, m, "image", 0, &p->image);
	p->bundle_dir = bundle;
	/* slugs once here: a session keeps them with the file */
	p->tag_slugs = arena_alloc(a, (p->ntags + 1) * sizeof *p->tag_slugs);
	for (size_t i = 0; i < p->ntags; i++) {
		p->tag_slugs[i] = slugify(a, p->tags[i]);
		if (!p->tag_slugs[i].len)
			p->tag_slugs[i] = STR_LIT("_");
	}
	if (p->category.len) {
		p->category_slug = slugify(a, p->category);
		if (!p->category_slug.len)
			p->category_slug = STR_LIT("_");
	}
	return s.errors ? NULL : p;
}

static struct series *load_series(struct arena *a, struct diag *d, const struct reading *rd, const char *abs,
				  const char *rel,
				  struct str slug)
{
	struct series *se = arena_alloc(a, sizeof *se);
	if (load_source(a, d, rd, abs, rel, &se->s, "'title: ...' and 'description: ...'"))
		return NULL;
	struct schema s = {a, d, rel, se->s.src, se->s.len, 0, 1, 1};
	const struct ynode *m = se->s.fm;
	se->slug = slug;
	schema_check_keys(&s, m, series_keys, "series");
	read_ignore_links(a, &s, m, &se->s);
	read_math(&s, m, &se->s);
	schema_str(&s, m, "title", 1, &se->title);
	schema_check_len(&s, schema_node(m, "title"), "a series' 'title'", SCHEMA_TEXT_MAX,
			 "every post of the series");
	schema_str(&s, m, "description", 1, &se->description);
	read_difficulty(&s, m, &se->difficulty);
	schema_str(&s, m, "best_for", 0, &se->best_for);
	schema_str(&s, m, "audience", 0, &se->audience);
	if (schema_str(&s, m, "recommended_start", 0, &se->recommended_start) == 1) {
		se->recommended_start = str_trim(se->recommended_start);
		se->recommended_node = schema_node(m, "recommended_start");
	}
	if (schema_str_list(&s, m, "posts", &se->post_slugs, &se->npost_slugs) == 1)
		se->posts_node = schema_node(m, "posts");
	schema_bool(&s, m, "featured", &se->featured);
	int64_t v;
	if (schema_int(&s, m, "weight", -100000, 100000, &v) == 1)
		se->weight = (int)v;
	se->numbering = 1;
	if (schema_int(&s, m, "numbering", 0, 1, &v) == 1)
		se->numbering = (int)v;
	schema_bool(&s, m, "number_by_part", &se->number_by_part);
	return s.errors ? NULL : se;
}

static struct page *load_page(struct arena *a, struct diag *d, const struct reading *rd, const struct config *cfg,
			      const char *abs, const char *rel, struct str slug)
{
	struct page *pg = arena_alloc(a, sizeof *pg);
	if (load_source(a, d, rd, abs, rel, &pg->s, "'title: ...'"))
		return NULL;
	struct schema s = {a, d, rel, pg->s.src, pg->s.len, 0, 1, 1};
	const struct ynode *m = pg->s.fm;
	pg->slug = slug;
	schema_check_keys(&s, m, page_keys, "page");
	schema_str(&s, m, "title", 1, &pg->title);
	schema_str(&s, m, "description", 0, &pg->description);
	char *tz = arena_strndup(a, cfg->timezone.p, cfg->timezone.len);
	pg->has_updated = schema_date(&s, m, "updated", 0, tz, &pg->updated) == 1;
	read_slug(&s, m, &pg->slug);
	schema_bool(&s, m, "draft", &pg->draft);
	pg->toc = -1;
	schema_bool(&s, m, "toc", &pg->toc);
	read_aliases(&s, m, &pg->aliases, &pg->naliases);
	read_ignore_links(a, &s, m, &pg->s);
	read_math(&s, m, &pg->s);
	read_cites(&s, m, &pg->s);
	read_sidenotes(&s, m, &pg->s);
	if (schema_str(&s, m, "template", 0, &pg->template_name) == 1) {
		struct str t = pg->template_name;
		if (!slug_valid(t) || t.len < 6 || memcmp(t.p + t.len - 5, ".html", 5) != 0)
			schema_error(&s, schema_node(m, "template"), "'template' must name a template file such as 'page.html'");
	}
	return s.errors ? NULL : pg;
}


static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}


enum kind { K_POST, K_SERIES, K_PAGE };

/* ---- the cache of a session: files kept parsed between builds ---- */

struct cached {
	char *rel;
	enum kind kind;
	struct arena *a; /* everything of the file */
	void *item;      /* struct post, series or page */
	struct stat sig; /* as stat(2) saw the file when it was read */
	int seen;        /* by the current load */
};

struct content_cache {
	struct cached *v;
	size_t n, cap;
	struct index index; /* position + 1, by path */
	uint64_t salt;   /* of the config the files were read with */
	struct arena **later; /* arenas of files read once (they said something) */
	size_t nlater;
};

struct content_cache *content_cache_new(void)
{
	return xcalloc(1, sizeof(struct content_cache));
}

static const char *cached_rel(const void *ctx, uint32_t v)
{
	return ((const struct content_cache *)ctx)->v[v - 1].rel;
}

static void cache_reindex(struct content_cache *cc)
{
	index_rebuild_str(&cc->index, cc->n, 64, cached_rel, cc);
}

static struct cached *cache_find(struct content_cache *cc, const char *rel)
{
	uint32_t v = index_get_str(&cc->index, rel, cached_rel, cc);
	return v ? &cc->v[v - 1] : NULL;
}

static void free_later(struct content_cache *cc)
{
	for (size_t i = 0; i < cc->nlater; i++)
		arena_free(cc->later[i]);
	free(cc->later);
	cc->later = NULL;
	cc->nlater = 0;
}

/* cache_sweep: drops the files the last load did not see (the build
 * before it, which may have used them, is over). */
static void cache_sweep(struct content_cache *cc, int all)
{
	size_t keep = 0;
	for (size_t i = 0; i < cc->n; i++) {
		if (all || !cc->v[i].seen) {
			arena_free(cc->v[i].a);
			free(cc->v[i].rel);
			continue;
		}
		cc->v[i].seen = 0;
		cc->v[keep++] = cc->v[i];
	}
	cc->n = keep;
	cache_reindex(cc);
}

void content_cache_free(struct content_cache *cc)
{
	if (!cc)
		return;
	cache_sweep(cc, 1);
	free_later(cc);
	free(cc->v);
	index_fini(&cc->index);
	free(cc);
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* reset: clears what the later stages computed into a reused item. */
static void reset(enum kind kind, void *item)
{
	if (kind == K_POST)
		memset(&((struct post *)item)->doc, 0, sizeof(struct post) - offsetof(struct post, doc));
	else if (kind == K_SERIES)
		memset(&((struct series *)item)->doc, 0, sizeof(struct series) - offsetof(struct series, doc));
	else
		memset(&((struct page *)item)->doc, 0, sizeof(struct page) - offsetof(struct page, doc));
}

struct walk {
	struct arena *a; /* the build's */
	struct diag *d;
	const struct config *cfg;
	struct content *c;
	struct content_cache *cc; /* or NULL */
	struct fm_cache *fm;      /* or NULL */
	struct reading rd;        /* fm, and what is known of the files (folio build) */
	const char *root;         /* the site folder's realpath (NULL: unknown) */
	struct task *tasks;
	size_t ntasks, cap;
};

/* A file to load: walk lists them (in path order), the cache gives back
 * those that did not change, threads read the others, and finish_task
 * appends each to the content in the listed order. */
struct task {
	enum kind kind;
	char *abs, *rel, *name, *bundle; /* bundle: the post's folder, or NULL */
	size_t sl;                       /* the slug's length in name */
	struct stat sig;
	int have_sig;
	struct cached *e; /* the cache's entry for rel, if any */
	int hit;          /* e holds the file as it is */
	struct arena *a;  /* the file's own arena (with a cache) */
	void *item;       /* the post, series or page read, or NULL */
	int said;         /* loading it reported something */
};

static void add_task(struct walk *w, enum kind kind, const char *abs, const char *rel, const char *name,
		     size_t sl, const char *bundle, const struct stat *known)
{
	if (w->ntasks == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 256;
		w->tasks = xrealloc(w->tasks, w->cap * sizeof *w->tasks);
	}
	struct task *t = &w->tasks[w->ntasks++];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->abs = xstrndup(abs, strlen(abs));
	t->rel = xstrndup(rel, strlen(rel));
	t->name = xstrndup(name, strlen(name));
	t->bundle = bundle ? xstrndup(bundle, strlen(bundle)) : NULL;
	t->sl = sl;
	if (known) {
		t->sig = *known;
		t->have_sig = 1;
	}
}

/* check_cache: whether the cache holds t's file as it is now. */
static void check_cache(struct walk *w, struct task *t)
{
	if (!t->have_sig)
		t->have_sig = stat(t->abs, &t->sig) == 0;
	if (!t->have_sig)
		return;
	t->e = cache_find(w->cc, t->rel);
	t->hit = t->e && t->e->kind == t->kind && same_file(&t->e->sig, &t->sig);
}

/* load_item: t's post, series or page, read by rd into a, its messages
 * to d; NULL after an error. */
static void *load_item(struct walk *w, const struct reading *rd, struct task *t, struct arena *a, struct diag *d,
		       const char *r, struct str slug)
{
	if (t->kind == K_POST)
		return load_post(a, d, rd, w->cfg, t->abs, r, slug,
				 t->bundle ? arena_strndup(a, t->bundle, strlen(t->bundle)) : NULL);
	if (t->kind == K_SERIES)
		return load_series(a, d, rd, t->abs, r, slug);
	return load_page(a, d, rd, w->cfg, t->abs, r, slug);
}

/* read_task: reads and checks t's file into a (thread-safe: the arena is
 * the file's or the thread's, and diag locks). */
static void read_task(struct walk *w, struct task *t, struct arena *a)
{
	unsigned long said = diag_thread_reports();
	t->a = a;
	struct str slug = {arena_strndup(a, t->name, t->sl), t->sl};
	const char *r = arena_strndup(a, t->rel, strlen(t->rel));
	if (utf8_valid_prefix(t->rel, strlen(t->rel)) != strlen(t->rel)) {
		/* shown with \xHH for the bytes that are not UTF-8 */
		struct buf path, base;
		buf_init(&path);
		buf_init(&base);
		utf8_show(&path, str_from(r));
		utf8_show(&base, str_from(t->bundle ? t->name : strrchr(t->rel, '/') + 1));
		struct diag_loc loc = {path.p, NULL, 0, 0, 0};
		diag_error(w->d, &loc, "%s name '%s' is not UTF-8 (rename it: the name makes the page's URL)",
			   t->bundle ? "folder" : "file", base.p);
		buf_fini(&path);
		buf_fini(&base);
	} else if (!slug_valid(slug)) {
		struct diag_loc loc = {r, NULL, 0, 0, 0};
		diag_error(w->d, &loc, "%s name '%s' cannot be a URL (rename it without spaces, '?', '#' or '%%')",
			   t->bundle ? "folder" : "file", t->bundle ? t->name : strrchr(t->rel, '/') + 1);
	} else if (w->rd.lazy) {
		/* a file not read, or read as a build before read it: quiet, in
		 * case it says something; then read again, to say it with its
		 * text */
		struct diag quiet;
		diag_init(&quiet, NULL);
		unsigned long before = diag_thread_reports();
		t->item = load_item(w, &w->rd, t, a, &quiet, r, slug);
		if (diag_thread_reports() != before)
			t->item = NULL;
		diag_fini(&quiet);
		if (!t->item) {
			struct reading rd = w->rd;
			rd.lazy = 0;
			said = diag_thread_reports();
			t->item = load_item(w, &rd, t, a, w->d, r, slug);
		}
	} else {
		t->item = load_item(w, &w->rd, t, a, w->d, r, slug);
	}
	t->said = diag_thread_reports() != said;
}

static void push_item(struct walk *w, enum kind kind, void *item)
{
	struct content *c = w->c;
	if (kind == K_POST)
		push(w->a, (void ***)&c->posts, &c->nposts, item);
	else if (kind == K_SERIES)
		push(w->a, (void ***)&c->series, &c->nseries, item);
	else
		push(w->a, (void ***)&c->pages, &c->npages, item);
}

static struct source *source_of(enum kind kind, void *item)
{
	return kind == K_POST ? &((struct post *)item)->s
	       : kind == K_SERIES ? &((struct series *)item)->s
				  : &((struct page *)item)->s;
}

/* finish_task: appends t's item to the content (a post file that failed
 * to its failed slugs) and, in a session, keeps the file in the cache. */
static void finish_task(struct walk *w, struct task *t)
{
	struct content *c = w->c;
	if (t->hit) {
		t->e->seen = 1;
		reset(t->kind, t->e->item);
		push_item(w, t->kind, t->e->item);
		return;
	}
	if (t->item) {
		push_item(w, t->kind, t->item);
		if (t->said) /* read again by the next build, to say it again */
			source_of(t->kind, t->item)->no_record = 1;
	} else if (t->kind != K_PAGE && slug_valid((struct str){t->name, t->sl})) {
		struct str *f = arena_alloc(w->a, sizeof *f);
		*f = (struct str){arena_strndup(w->a, t->name, t->sl), t->sl};
		if (t->kind == K_POST)
			push(w->a, (void ***)&c->failed, &c->nfailed, f);
		else
			push(w->a, (void ***)&c->failed_series, &c->nfailed_series, f);
	}
	if (!w->cc)
		return;
	struct content_cache *cc = w->cc;
	if (!t->item || t->said || ends_with(t->rel, NOTEBOOK_EXT)) {
		/* read again next time, so that its messages are reported again
		 * (a notebook: its sidecar may change alone); this build may
		 * still use it */
		cc->later = xrealloc(cc->later, (cc->nlater + 1) * sizeof *cc->later);
		cc->later[cc->nlater++] = t->a;
		return;
	}
	struct cached *e = t->e;
	if (e) { /* the file changed: its old version goes when this load ends */
		e->seen = 0;
		free(e->rel);
		e->rel = xstrndup("", 0); /* unreachable by name now */
	}
	if (cc->n == cc->cap) {
		cc->cap = cc->cap ? cc->cap * 2 : 256;
		cc->v = xrealloc(cc->v, cc->cap * sizeof *cc->v);
	}
	cc->v[cc->n++] = (struct cached){xstrndup(t->rel, strlen(t->rel)), t->kind, t->a, t->item, t->sig, 1};
	if (e)
		cache_reindex(cc); /* the old version's path changed */
	else
		index_add_str(&cc->index, t->rel, (uint32_t)cc->n, 64, cached_rel, cc);
}

struct reader {
	struct walk *w;
	struct arena *a; /* the thread's, without a cache */
	int first, step;
};

static void *read_some(void *arg)
{
	struct reader *r = arg;
	struct walk *w = r->w;
	for (size_t i = (size_t)r->first; i < w->ntasks; i += (size_t)r->step) {
		struct task *t = &w->tasks[i];
		if (!t->hit)
			read_task(w, t, w->cc ? arena_new() : r->a);
	}
	return NULL;
}

/* load_tasks: the listed files, read on up to `jobs` threads (a file each
 * in turn); the content is appended in the listed order, so it does not
 * depend on the threads. */
static void load_tasks(struct walk *w, int jobs)
{
	size_t todo = 0;
	for (size_t i = 0; i < w->ntasks; i++) {
		if (w->cc)
			check_cache(w, &w->tasks[i]);
		todo += !w->tasks[i].hit;
	}
	int n = jobs > 1 && todo >= 64 ? jobs : 1;
	if ((size_t)n > todo / 32 + 1)
		n = (int)(todo / 32 + 1);
	struct reader *rs = xcalloc((size_t)n, sizeof *rs);
	for (int i = 0; i < n; i++) {
		/* without a cache, each thread reads into an arena of its own,
		 * freed with the build's */
		rs[i] = (struct reader){w, w->a, i, n};
		if (i > 0 && !w->cc) {
			rs[i].a = arena_new();
			arena_adopt(w->a, rs[i].a);
		}
	}
	int started = pool_run(n, read_some, rs, sizeof *rs, 1);
	/* the shares of threads that could not start */
	for (size_t i = 0; started < n && i < w->ntasks; i++)
		if (!w->tasks[i].hit && !w->tasks[i].a)
			read_task(w, &w->tasks[i], w->cc ? arena_new() : w->a);
	free(rs);
	for (size_t i = 0; i < w->ntasks; i++) {
		struct task *t = &w->tasks[i];
		finish_task(w, t);
		free(t->abs);
		free(t->rel);
		free(t->name);
		free(t->bundle);
	}
	free(w->tasks);
	w->tasks = NULL;
	w->ntasks = w->cap = 0;
}

/* is_sidecar: name (in the sorted list names) is NAME.yml beside a
 * NAME.ipynb: that notebook's front matter. */
static int is_sidecar(char **names, size_t n, const char *name)
{
	size_t l = strlen(name);
	if (l < 5 || strcmp(name + l - 4, ".yml"))
		return 0;
	char nb[4096];
	snprintf(nb, sizeof nb, "%.*s" NOTEBOOK_EXT, (int)(l - 4), name);
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(names[mid], nb);
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void walk(struct walk *w, const char *site, const char *sub, enum kind kind)
{
	struct arena *a = w->a;
	struct diag *d = w->d;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/content/%s", site, sub);
	size_t n;
	if (site_where(w->root, dir, NULL, 0) != SITE_INSIDE)
		return; /* check_folders said why: never listed */
	char **names = site_list(dir, &n);
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		if (site_ignored(name))
			continue;
		char abs[8192], rel[4096];
		snprintf(abs, sizeof abs, "%s/%s", dir, name);
		snprintf(rel, sizeof rel, "content/%s/%s", sub, name);
		/* a file that readdir says is a regular one is neither a link nor
		 * a folder: no lstat and no stat (the reading's fstat sees it) */
		int plain = site_list_type(name) == DT_REG;
		if (!plain && site_check_link(d, w->root, abs, rel) != 0)
			continue; /* a link outside the site, to nothing, or in a circle: never read */
		struct stat st;
		int have = !plain && stat(abs, &st) == 0;
		if (kind == K_POST && have && S_ISDIR(st.st_mode)) {
			char idx[8192 + 16];
			snprintf(idx, sizeof idx, "%s/index.md", abs);
			snprintf(rel, sizeof rel, "content/%s/%s/index.md", sub, name);
			if (site_check_link(d, w->root, idx, rel) != 0)
				continue;
			if (!is_file(idx)) {
				struct diag_loc loc = {arena_strndup(a, rel, strlen(rel) - 9), NULL, 0, 0, 0};
				diag_warning(d, &loc, "a folder in content/posts without index.md is skipped");
				continue;
			}
			add_task(w, kind, idx, rel, name, strlen(name), abs, NULL);
			continue;
		}
		snprintf(rel, sizeof rel, "content/%s/%s", sub, name);
		if (kind == K_POST && ends_with(name, NOTEBOOK_EXT)) {
			add_task(w, kind, abs, rel, name, strlen(name) - strlen(NOTEBOOK_EXT), NULL, have ? &st : NULL);
			continue;
		}
		if (kind == K_POST && is_sidecar(names, n, name))
			continue; /* read with its notebook */
		if (!ends_with(name, ".md")) {
			struct diag_loc loc = {rel, NULL, 0, 0, 0};
			diag_warning(d, &loc, "not a Markdown file (.md); skipped");
			continue;
		}
		add_task(w, kind, abs, rel, name, strlen(name) - 3, NULL, have ? &st : NULL);
	}
	site_list_free(names, n);
}

static void load_data(struct arena *a, struct diag *d, const char *site, const char *site_real, struct content *c)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/data", site);
	size_t n;
	if (site_where(site_real, dir, NULL, 0) != SITE_INSIDE) {
		c->data = arena_alloc(a, sizeof *c->data);
		return; /* check_folders said why: never listed */
	}
	char **names = site_list(dir, &n);
	c->data = arena_alloc(a, (n + 1) * sizeof *c->data);
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		size_t ext = ends_with(name, ".yml") ? 4 : ends_with(name, ".yaml") ? 5 : 0;
		if (site_ignored(name) || !ext)
			continue;
		char abs[8192], rel[4096];
		snprintf(abs, sizeof abs, "%s/%s", dir, name);
		snprintf(rel, sizeof rel, "data/%s", name);
		const char *r = arena_strndup(a, rel, strlen(rel));
		if (site_check_link(d, site_real, abs, r) != 0)
			continue;
		struct site_file f = {abs, r, FOLIO_MAX_FILE, "split it into several data files", SITE_READ_CHECKED};
		size_t len;
		char *src = site_read(d, NULL, &f, a, &len, NULL);
		if (!src)
			continue;
		const struct ynode *root = yaml_parse(a, d, r, src, len, src, len, 0);
		if (!root)
			continue;
		struct data_file *df = &c->data[c->ndata++];
		df->name.len = strlen(name) - ext;
		df->name.p = arena_strndup(a, name, df->name.len);
		df->root = root;
	}
	site_list_free(names, n);
}

static int listed(struct str *const *list, size_t n, struct str slug)
{
	for (size_t i = 0; i < n; i++)
		if (str_eq(*list[i], slug))
			return 1;
	return 0;
}

int content_failed(const struct content *c, struct str slug)
{
	return listed(c->failed, c->nfailed, slug);
}

int content_series_failed(const struct content *c, struct str slug)
{
	return listed(c->failed_series, c->nfailed_series, slug);
}

/* The folders of a site (folio-site(5), THE SITE FOLDER), and what a
 * build without them leaves out. */
static const struct {
	const char *rel, *what;
} site_folders[] = {
	{"content", "posts, series and pages"}, {"content/posts", "posts"}, {"content/series", "series"},
	{"content/pages", "pages"},             {"data", "data files"},     {"static", "static files"},
	{"templates", "templates"},
};

/* check_folders: a folder of the site that is missing is an empty one,
 * but one that is there and cannot be read is an error: a link to
 * nothing (a drive not mounted), a file of that name, a folder folio may
 * not read. Built without it, the site would lose its pages or files and
 * replace the one that had them. Returns the number of errors; the
 * files that can be read are still read, so that all errors show. */
static int check_folders(struct diag *d, const char *site_dir, const char *root)
{
	int errors = 0, content_bad = 0;
	for (size_t i = 0; i < sizeof site_folders / sizeof *site_folders; i++) {
		const char *rel = site_folders[i].rel, *what = site_folders[i].what;
		if (content_bad && !strncmp(rel, "content/", 8))
			continue; /* content/ said it for them */
		int before = errors;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", site_dir, rel);
		struct stat ls, st;
		if (lstat(path, &ls) != 0)
			continue; /* missing: empty */
		struct diag_loc loc = {rel, NULL, 0, 0, 0};
		if (stat(path, &st) != 0) {
			int err = errno;
			char to[4096];
			ssize_t n = readlink(path, to, sizeof to - 1);
			to[n > 0 ? n : 0] = '\0';
			if (err == ELOOP)
				diag_error(d, &loc, "a link in a circle of links: the build would leave out the site's %s "
					   "(make it a link to a folder, or remove it)", what);
			else
				diag_error(d, &loc, "a link to '%s', which does not exist: the build would leave out the "
					   "site's %s (restore or mount what it points to, or remove the link)", to, what);
			errors++;
		} else if (!S_ISDIR(st.st_mode)) {
			diag_error(d, &loc, "not a folder: the build would leave out the site's %s (rename the file)",
				   what);
			errors++;
		} else if (site_check(d, root, path, rel) != 0) {
			errors++; /* a link to a folder outside the site: never listed */
		} else {
			size_t n;
			char **names = site_list(path, &n);
			if (!names) {
				diag_error(d, &loc, "cannot read the folder: %s", strerror(errno));
				errors++;
			}
			site_list_free(names, n);
		}
		if (i == 0)
			content_bad = errors > before;
	}
	return errors;
}

/* warn_unused_in: a warning for each file below dir (rel, under content/)
 * that folio does not read, at most 10 by name, then one for the rest. */
static void warn_unused_in(struct diag *d, const char *dir, const char *rel, size_t *named, size_t *more,
			   int depth)
{
	size_t n;
	char **names = site_list(dir, &n);
	for (size_t i = 0; i < n; i++) {
		if (site_ignored(names[i]))
			continue;
		char abs[8192], r[4096];
		snprintf(abs, sizeof abs, "%s/%s", dir, names[i]);
		snprintf(r, sizeof r, "%s/%s", rel, names[i]);
		struct stat st;
		if (lstat(abs, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (depth < 8)
				warn_unused_in(d, abs, r, named, more, depth + 1);
			continue;
		}
		if (*named >= 10) {
			++*more;
			continue;
		}
		++*named;
		struct diag_loc loc = {r, NULL, 0, 0, 0};
		diag_warning(d, &loc, "not used (posts go in content/posts/, series in content/series/, pages in "
			     "content/pages/)");
	}
	site_list_free(names, n);
}

/* check_unused: the files of content/ outside its three folders, and the
 * folders of the site that folio does not know, each named in one warning:
 * a post put in the wrong place is not left out in silence. */
static void check_unused(struct diag *d, const char *site_dir)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/content", site_dir);
	size_t n, named = 0, more = 0;
	char **names = site_list(dir, &n);
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		if (site_ignored(name) || !strcmp(name, "posts") || !strcmp(name, "series") || !strcmp(name, "pages"))
			continue;
		char abs[8192], rel[4096];
		snprintf(abs, sizeof abs, "%s/%s", dir, name);
		snprintf(rel, sizeof rel, "content/%s", name);
		struct stat st;
		if (lstat(abs, &st) == 0 && S_ISDIR(st.st_mode)) {
			warn_unused_in(d, abs, rel, &named, &more, 1);
		} else if (named < 10) {
			named++;
			struct diag_loc loc = {rel, NULL, 0, 0, 0};
			diag_warning(d, &loc, "not used (posts go in content/posts/, series in content/series/, pages "
				     "in content/pages/)");
		} else {
			more++;
		}
	}
	site_list_free(names, n);
	if (more) {
		struct diag_loc loc = {"content", NULL, 0, 0, 0};
		diag_warning(d, &loc, "and %zu more files not used, outside content/posts/, content/series/ and "
			     "content/pages/", more);
	}
	/* data/ holds YAML files only: another file, or a folder, is not read */
	snprintf(dir, sizeof dir, "%s/data", site_dir);
	struct stat dst;
	names = lstat(dir, &dst) == 0 && S_ISDIR(dst.st_mode) ? site_list(dir, &n) : (n = 0, NULL);
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		char abs[8192], rel[4096];
		snprintf(abs, sizeof abs, "%s/%s", dir, name);
		snprintf(rel, sizeof rel, "data/%s", name);
		struct stat st;
		int folder = lstat(abs, &st) == 0 && S_ISDIR(st.st_mode);
		if (site_ignored(name) || (!folder && (ends_with(name, ".yml") || ends_with(name, ".yaml"))))
			continue;
		struct diag_loc loc = {rel, NULL, 0, 0, 0};
		diag_warning(d, &loc, "not used (data files are data/NAME.yml, in YAML: %s)",
			     folder ? "folders in data/ are not read" : "convert it, or move it to static/ to publish it");
	}
	site_list_free(names, n);
	/* folders beside content/ whose names say they hold what folio reads
	 * elsewhere (other folders, such as a repository's scripts/, are the
	 * owner's business; output folders carry folio's marker) */
	names = site_list(site_dir, &n);
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		static const char *const known[] = {"content", "static", "templates", "data", "i18n", "public",
						    "node_modules", NULL};
		int k = 0;
		while (known[k] && strcmp(known[k], name))
			k++;
		if (known[k] || site_ignored(name))
			continue;
		char abs[8192], mark[8300];
		snprintf(abs, sizeof abs, "%s/%s", site_dir, name);
		snprintf(mark, sizeof mark, "%s/" OUTPUT_MARKER, abs);
		struct stat st;
		if (lstat(abs, &st) != 0 || !S_ISDIR(st.st_mode) || access(mark, F_OK) == 0)
			continue;
		const char *hint = !strcmp(name, "posts") || !strcmp(name, "_posts") ? " (posts go in content/posts/)"
				   : !strcmp(name, "series")                         ? " (series go in content/series/)"
				   : !strcmp(name, "pages")                          ? " (pages go in content/pages/)"
				   : !strcmp(name, "assets") || !strcmp(name, "images") || !strcmp(name, "img")
				       ? " (files to publish go in static/)"
				   : !strcmp(name, "layouts") || !strcmp(name, "_layouts") || !strcmp(name, "_includes")
				       ? " (templates go in templates/)"
				       : NULL;
		if (!hint)
			continue;
		char rel[4200];
		snprintf(rel, sizeof rel, "%s/", name);
		struct diag_loc loc = {rel, NULL, 0, 0, 0};
		diag_warning(d, &loc, "a folder folio does not read; not used%s", hint);
	}
	site_list_free(names, n);
}

int content_load(struct arena *a, struct diag *d, const char *site_dir, const struct config *cfg, struct content *c)
{
	return content_load_cached(a, d, site_dir, cfg, c, NULL, NULL, NULL, 1);
}

int content_load_cached(struct arena *a, struct diag *d, const char *site_dir, const struct config *cfg,
			struct content *c, struct content_cache *cc, struct fm_cache *fm,
			const struct content_known *kn, int jobs)
{
	memset(c, 0, sizeof *c);
	int before = d->errors;
	if (cc) {
		/* files are read with the config (its time zone): a new one, new reads */
		uint64_t salt = hash_bytes(cfg->src ? cfg->src : "", cfg->src_len);
		if (salt != cc->salt) {
			cache_sweep(cc, 1);
			cc->salt = salt;
		}
		free_later(cc);
	}
	char *root = site_root(site_dir);
	check_folders(d, site_dir, root);
	check_unused(d, site_dir);
	struct index stamps = {0};
	if (kn && kn->stamps && kn->records && src_cache_count(kn->records))
		index_rebuild_str(&stamps, kn->stamps->n, 64, stamp_path, kn->stamps);
	struct walk w = {a, d, cfg, c, cc, fm, {fm, kn, &stamps, stamps.cap && fm && !cc}, root, NULL, 0, 0};
	walk(&w, site_dir, "posts", K_POST);
	walk(&w, site_dir, "series", K_SERIES);
	walk(&w, site_dir, "pages", K_PAGE);
	load_tasks(&w, jobs);
	index_sources(a, c);
	index_fini(&stamps);
	load_data(a, d, site_dir, root, c);
	free(root);
	if (cc)
		cache_sweep(cc, 0);
	return d->errors - before;
}
