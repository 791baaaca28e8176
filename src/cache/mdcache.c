/* mdcache.c: rendered documents, each serialised into one malloc'd block
 * that the build's md_doc points into, in an open-addressing table. */
#include "cache/mdcache.h"

#include "cache/cache.h"

#include "base/buf.h"
#include "base/hash.h"
#include "base/index.h"
#include "base/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct entry {
	struct md_key key;
	char *blob; /* NULL: a free slot */
	size_t len;
	uint64_t stamp;
	int reads_files;
	int used;   /* since the last sweep */
	int mapped;  /* the blob is in the file's mapping (not freed) */
	int in_file; /* the file holds this entry */
	int damaged; /* from the file, and not a whole blob: never returned */
	/* borrowed (md_cache_put with borrow): the HTML is not in the blob,
	 * whose header still gives its length, but where the build has it */
	const char *html;
};

struct md_cache {
	pthread_mutex_t lock;
	struct entry *slots; /* n of them (cap made), each with its blob */
	size_t cap, n, bytes;
	struct index ix;     /* their positions + 1, by key */
	char *path;       /* the pack file, or NULL */
	void *map;        /* its mapping */
	size_t map_len;
	/* the file as this cache last read or wrote it (its entries: those
	 * of no use now included) */
	struct cache_pack pack;
	/* md_cache_store_begin's thread */
	const char *site_dir;
	struct pool_task saver; /* md_cache_store_begin ... _end */
};

/* The pack file: "folio-md-pack 4\n" padded to 16 bytes, the number of
 * entries (u64), then each entry: key lo, key hi, stamp, reads_files,
 * length (u64 each) and the blob, padded to 8 bytes. An entry of a key
 * that comes again later is replaced by the later one. A build adds its
 * new entries at the end and then the count (those of no use stay, until
 * they are a quarter of the file and it is written anew): a build that
 * changed one document does not write the HTML of all of them again. */
#define PACK_MAGIC "folio-md-pack 4\n"
#define PACK_ENTRY 40

/* The fixed part at the start of a blob. */
struct header {
	uint64_t html, summary_html, summary_text; /* lengths */
	uint64_t ntoc, nheadings, words, code_words, images, cjk_chars, math_spans, sidenotes;
	int32_t has_more, has_model3d, has_video, link_hint;
	uint64_t html_hash, img_at; /* md_doc's */
	uint64_t nlabels, nxrefs;   /* cross-references, after the TOC (put_xrefs) */
	uint64_t deps; /* the length of md_doc's deps, after the cross-references */
};

struct md_cache *md_cache_new(void)
{
	struct md_cache *c = xcalloc(1, sizeof *c);
	pthread_mutex_init(&c->lock, NULL);
	return c;
}

void md_cache_free(struct md_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (!c->slots[i].mapped)
			free(c->slots[i].blob);
	free(c->slots);
	index_fini(&c->ix);
	if (c->map)
		munmap(c->map, c->map_len);
	free(c->path);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

uint64_t md_cache_body_hash(const char *body, size_t len)
{
	uint64_t h = hash_bytes(body, len);
	return h ? h : 1;
}

struct md_key md_cache_key(uint64_t salt, int kind, const char *path, size_t len, uint64_t body_hash, int body_line,
                           const char *asset_dir)
{
	struct hasher st;
	hasher_begin(&st, salt);
	/* lengths first, so that no two field lists hash alike */
	uint64_t head[6] = {(uint64_t)kind, (uint64_t)body_line, strlen(path), asset_dir ? strlen(asset_dir) + 1 : 0,
	                    len, body_hash};
	hasher_add(&st, head, sizeof head);
	hasher_add(&st, path, head[2]);
	if (asset_dir)
		hasher_add(&st, asset_dir, head[3] - 1);
	struct hash128 h = hasher_digest128(&st);
	return (struct md_key){h.lo, h.hi};
}

static int reads_files(const struct md_doc *d)
{
	return d->images || d->has_model3d || d->has_video;
}

/* find: the slot of k, or the free slot where it would go. Locked. */
static uint64_t slot_hash(const void *ctx, uint32_t v)
{
	return ((const struct md_cache *)ctx)->slots[v - 1].key.lo;
}

static int slot_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct md_key *a = &((const struct md_cache *)ctx)->slots[v - 1].key, *b = key;
	return a->lo == b->lo && a->hi == b->hi;
}

/* find: the entry of k, or NULL; with add, a new one (zeroed, its key
 * set) when there is none, which the caller fills. An entry stays where
 * it is until the next add or sweep. Locked. */
static struct entry *find(struct md_cache *c, const struct md_key *k, int add)
{
	uint32_t v = index_get(&c->ix, k->lo, slot_eq, c, k);
	if (v || !add)
		return v ? &c->slots[v - 1] : NULL;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->slots = xrealloc(c->slots, c->cap * sizeof *c->slots);
	}
	struct entry *e = &c->slots[c->n++];
	memset(e, 0, sizeof *e);
	e->key = *k;
	index_add(&c->ix, k->lo, (uint32_t)c->n, 1024, slot_hash, c);
	return e;
}

static void put_toc(struct buf *b, const struct md_toc *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t f[5] = {(uint64_t)t[i].level, t[i].nchildren, t[i].id.len, t[i].text.len, t[i].html.len};
		buf_append(b, f, sizeof f);
		buf_append(b, t[i].id.p, t[i].id.len);
		buf_append(b, t[i].text.p, t[i].text.len);
		buf_append(b, t[i].html.p, t[i].html.len);
		put_toc(b, t[i].children, t[i].nchildren);
	}
}

/* get_toc: n entries from *p, strings pointing into the blob. */
static struct md_toc *get_toc(struct arena *a, const char **p, size_t n)
{
	struct md_toc *t = arena_alloc(a, (n + 1) * sizeof *t);
	for (size_t i = 0; i < n; i++) {
		uint64_t f[5];
		memcpy(f, *p, sizeof f);
		*p += sizeof f;
		t[i].level = (int)f[0];
		t[i].nchildren = (size_t)f[1];
		t[i].id = (struct str){*p, (size_t)f[2]};
		*p += f[2];
		t[i].text = (struct str){*p, (size_t)f[3]};
		*p += f[3];
		t[i].html = (struct str){*p, (size_t)f[4]};
		*p += f[4];
		t[i].children = get_toc(a, p, t[i].nchildren);
	}
	return t;
}

/* put_xrefs: the document's labels and references, each as six numbers
 * (u64) and its two strings. */
static void put_xrefs(struct buf *b, const struct md_doc *doc)
{
	for (size_t i = 0; i < doc->nlabels; i++) {
		const struct md_label *l = &doc->labels[i];
		uint64_t f[6] = {(uint64_t)l->kind, (uint64_t)l->number, (uint64_t)l->line, (uint64_t)l->col, l->name.len,
				 l->text.len};
		buf_append(b, f, sizeof f);
		buf_append(b, l->name.p, l->name.len);
		buf_append(b, l->text.p, l->text.len);
	}
	for (size_t i = 0; i < doc->nxrefs; i++) {
		const struct md_xref *x = &doc->xrefs[i];
		uint64_t f[6] = {(uint64_t)(int64_t)x->label, (uint64_t)x->flags, (uint64_t)x->line, (uint64_t)x->col,
				 x->target.len, x->name.len};
		buf_append(b, f, sizeof f);
		buf_append(b, x->target.p, x->target.len);
		buf_append(b, x->name.p, x->name.len);
	}
}

/* get_xrefs: what put_xrefs wrote, from *p (strings into the blob; the
 * names NUL-terminated in the arena: blocks.c's ids are C strings). */
static void get_xrefs(struct arena *a, const char **p, struct md_doc *doc)
{
	doc->labels = doc->nlabels ? arena_alloc(a, doc->nlabels * sizeof *doc->labels) : NULL;
	for (size_t i = 0; i < doc->nlabels; i++) {
		uint64_t f[6];
		memcpy(f, *p, sizeof f);
		*p += sizeof f;
		struct md_label *l = &doc->labels[i];
		l->kind = (int)f[0];
		l->number = (int)f[1];
		l->line = (int)f[2];
		l->col = (int)f[3];
		l->name = (struct str){arena_strndup(a, *p, (size_t)f[4]), (size_t)f[4]};
		*p += f[4];
		l->text = (struct str){*p, (size_t)f[5]};
		*p += f[5];
	}
	doc->xrefs = doc->nxrefs ? arena_alloc(a, doc->nxrefs * sizeof *doc->xrefs) : NULL;
	for (size_t i = 0; i < doc->nxrefs; i++) {
		uint64_t f[6];
		memcpy(f, *p, sizeof f);
		*p += sizeof f;
		struct md_xref *x = &doc->xrefs[i];
		x->label = (int)(int64_t)f[0];
		x->flags = (int)f[1];
		x->line = (int)f[2];
		x->col = (int)f[3];
		x->target = (struct str){*p, (size_t)f[4]};
		*p += f[4];
		x->name = (struct str){*p, (size_t)f[5]};
		*p += f[5];
	}
}

/* xrefs_whole: whether n records of put_xrefs (labels: a kind each, and
 * references: a label below nlabels) lie within [*p, end). */
static int xrefs_whole(const char **p, const char *end, uint64_t n, int labels, uint64_t nlabels)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t f[6];
		if ((size_t)(end - *p) < sizeof f)
			return 0;
		memcpy(f, *p, sizeof f);
		*p += sizeof f;
		if (labels ? f[0] >= MD_XREF_KINDS : ((int64_t)f[0] < -1 || (int64_t)f[0] >= (int64_t)nlabels))
			return 0;
		for (int j = 4; j < 6; j++) {
			if (f[j] > (uint64_t)(end - *p))
				return 0;
			*p += f[j];
		}
	}
	return 1;
}

/* toc_whole: whether n entries of a table of contents (and their
 * children, depth levels down at most) lie within [*p, end); moves *p past
 * them. */
static int toc_whole(const char **p, const char *end, uint64_t n, int depth)
{
	if (n && depth > 6) /* headings have six levels */
		return 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t f[5];
		if ((size_t)(end - *p) < sizeof f)
			return 0;
		memcpy(f, *p, sizeof f);
		*p += sizeof f;
		if (f[0] < 1 || f[0] > 6)
			return 0;
		for (int j = 2; j < 5; j++) {
			if (f[j] > (uint64_t)(end - *p))
				return 0;
			*p += f[j];
		}
		if (!toc_whole(p, end, f[1], depth + 1))
			return 0;
	}
	return 1;
}

/* blob_whole: whether a blob read from the pack file is one md_cache_put
 * made: its strings (each with its NUL) and its table of contents within
 * its len bytes. The file may be damaged (a disk, an editor, another
 * program), and a length taken on trust would point md_cache_get's
 * strings anywhere. */
static int blob_whole(const char *blob, size_t len)
{
	struct header h;
	if (len < sizeof h)
		return 0;
	memcpy(&h, blob, sizeof h);
	const char *p = blob + sizeof h, *end = blob + len;
	const uint64_t strs[3] = {h.html, h.summary_html, h.summary_text};
	for (int i = 0; i < 3; i++) {
		if (strs[i] >= (uint64_t)(end - p) || p[strs[i]] != '\0')
			return 0;
		p += strs[i] + 1;
	}
	if (!toc_whole(&p, end, h.ntoc, 1) || !xrefs_whole(&p, end, h.nlabels, 1, 0) ||
	    !xrefs_whole(&p, end, h.nxrefs, 0, h.nlabels))
		return 0;
	return h.deps < (uint64_t)(end - p) && p[h.deps] == '\0';
}

int md_cache_get(struct md_cache *c, const struct md_key *k, uint64_t files_stamp, struct arena *a,
                 struct md_doc *doc)
{
	pthread_mutex_lock(&c->lock);
	struct entry *e = find(c, k, 0);
	if (e && e->mapped && !e->damaged && !blob_whole(e->blob, e->len))
		e->damaged = 1; /* a miss; md_cache_put replaces it */
	if (!e || e->damaged || (e->reads_files && e->stamp != files_stamp)) {
		pthread_mutex_unlock(&c->lock);
		return 0;
	}
	e->used = 1;
	const char *blob = e->blob, *e_html = e->html;
	pthread_mutex_unlock(&c->lock);
	/* the blob is not freed before the next sweep, and never changes */
	struct header h;
	memcpy(&h, blob, sizeof h);
	const char *p = blob + sizeof h;
	memset(doc, 0, sizeof *doc);
	if (e_html) {
		doc->html = (struct str){e_html, (size_t)h.html};
	} else {
		doc->html = (struct str){p, (size_t)h.html};
		p += h.html + 1;
	}
	doc->summary_html = (struct str){p, (size_t)h.summary_html};
	p += h.summary_html + 1;
	doc->summary_text = (struct str){p, (size_t)h.summary_text};
	p += h.summary_text + 1;
	doc->ntoc = (size_t)h.ntoc;
	doc->toc = get_toc(a, &p, doc->ntoc);
	doc->nlabels = (size_t)h.nlabels;
	doc->nxrefs = (size_t)h.nxrefs;
	get_xrefs(a, &p, doc);
	doc->deps = (struct str){p, (size_t)h.deps};
	doc->nheadings = (size_t)h.nheadings;
	doc->words = (size_t)h.words;
	doc->code_words = (size_t)h.code_words;
	doc->images = (size_t)h.images;
	doc->cjk_chars = (size_t)h.cjk_chars;
	doc->math_spans = (size_t)h.math_spans;
	doc->sidenotes = (size_t)h.sidenotes;
	doc->has_more = h.has_more;
	doc->has_model3d = h.has_model3d;
	doc->has_video = h.has_video;
	doc->link_hint = h.link_hint;
	doc->html_hash = h.html_hash;
	doc->img_at = h.img_at <= h.html + 1 ? (size_t)h.img_at : 0; /* out of the HTML: looked for again */
	return 1;
}

void md_cache_put(struct md_cache *c, const struct md_key *k, uint64_t files_stamp, const struct md_doc *doc,
                  int borrow)
{
	struct buf b;
	buf_init(&b);
	struct header h;
	memset(&h, 0, sizeof h);
	h.html = doc->html.len;
	h.summary_html = doc->summary_html.len;
	h.summary_text = doc->summary_text.len;
	h.ntoc = doc->ntoc;
	h.nheadings = doc->nheadings;
	h.words = doc->words;
	h.code_words = doc->code_words;
	h.images = doc->images;
	h.cjk_chars = doc->cjk_chars;
	h.math_spans = doc->math_spans;
	h.sidenotes = doc->sidenotes;
	h.has_more = doc->has_more;
	h.has_model3d = doc->has_model3d;
	h.has_video = doc->has_video;
	h.link_hint = doc->link_hint;
	h.html_hash = doc->html_hash ? doc->html_hash : md_cache_html_hash(doc->html.p, doc->html.len);
	h.img_at = doc->img_at ? doc->img_at : md_image_at(doc->html);
	h.nlabels = doc->nlabels;
	h.nxrefs = doc->nxrefs;
	h.deps = doc->deps.len;
	/* room for the strings at once: a big page's HTML is not copied
	 * again and again as the buffer doubles */
	buf_reserve(&b, sizeof h + (borrow ? 0 : doc->html.len) + doc->summary_html.len + doc->summary_text.len +
				3 + doc->ntoc * 32);
	buf_append(&b, &h, sizeof h);
	/* each string NUL-terminated, as the renderer's are */
	if (!borrow) {
		buf_append(&b, doc->html.p, doc->html.len);
		buf_putc(&b, 0);
	}
	buf_append(&b, doc->summary_html.p, doc->summary_html.len);
	buf_putc(&b, 0);
	buf_append(&b, doc->summary_text.p, doc->summary_text.len);
	buf_putc(&b, 0);
	put_toc(&b, doc->toc, doc->ntoc);
	put_xrefs(&b, doc);
	buf_append(&b, doc->deps.p, doc->deps.len);
	buf_putc(&b, 0);
	size_t len;
	char *blob = buf_detach(&b, &len);

	pthread_mutex_lock(&c->lock);
	struct entry *e = find(c, k, 1);
	if (e->blob && !e->damaged && !(e->reads_files && e->stamp != files_stamp)) {
		/* the same document twice in one build: keep the first (a build
		 * may be pointing into it) */
		e->used = 1;
		pthread_mutex_unlock(&c->lock);
		free(blob);
		return;
	}
	if (e->blob) {
		/* stored with files as they were: md_cache_get missed it, so
		 * nothing of this build points into it */
		c->bytes -= e->len;
		if (!e->mapped)
			free(e->blob);
	}
	*e = (struct entry){*k, blob, len, files_stamp, reads_files(doc), 1, 0, 0, 0, borrow ? doc->html.p : NULL};
	c->bytes += len;
	pthread_mutex_unlock(&c->lock);
}

void md_cache_forget(struct md_cache *c, const struct md_key *k)
{
	pthread_mutex_lock(&c->lock);
	struct entry *e = find(c, k, 0);
	if (e) {
		e->damaged = 1; /* as a damaged blob: a miss, that md_cache_put replaces */
		e->used = 0;
	}
	pthread_mutex_unlock(&c->lock);
}

void md_cache_sweep(struct md_cache *c)
{
	pthread_mutex_lock(&c->lock);
	size_t k = 0;
	c->bytes = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->slots[i];
		if (!e->used) {
			if (!e->mapped)
				free(e->blob);
			continue;
		}
		e->used = 0;
		c->bytes += e->len;
		c->slots[k++] = *e;
	}
	c->n = k;
	index_rebuild(&c->ix, c->n, 1024, slot_hash, c);
	pthread_mutex_unlock(&c->lock);
}
size_t md_cache_count(const struct md_cache *c)
{
	return c->n;
}

size_t md_cache_bytes(const struct md_cache *c)
{
	return c->bytes;
}

/* ---- the pack file ---- */

struct md_cache *md_cache_open(const char *path)
{
	struct md_cache *c = md_cache_new();
	c->path = xstrndup(path, strlen(path));
	c->pack = (struct cache_pack){.path = c->path, .magic = PACK_MAGIC};
	size_t len;
	uint64_t count, i;
	void *map = cache_pack_map(&c->pack, &len, &count);
	if (!map)
		return c;
	const char *p = (const char *)map + CACHE_PACK_HEAD, *end = (const char *)map + len;
	for (i = 0; i < count; i++) {
		/* a truncated or damaged file: what was read before stays */
		if ((size_t)(end - p) < PACK_ENTRY)
			break;
		struct md_key k = {load_u64(p), load_u64(p + 8)};
		uint64_t stamp = load_u64(p + 16), rf = load_u64(p + 24), bl = load_u64(p + 32);
		p += PACK_ENTRY;
		if (bl < sizeof(struct header) || bl > (uint64_t)(end - p))
			break;
		struct entry *e = find(c, &k, 1);
		if (e->blob) /* a later entry of the key replaces it */
			c->bytes -= e->len;
		*e = (struct entry){k, (char *)p, (size_t)bl, stamp, rf != 0, 0, 1, 1, 0, NULL};
		c->bytes += (size_t)bl;
		/* the last blob's padding may be cut off */
		uint64_t padded = (bl + 7) & ~(uint64_t)7;
		p += padded < (uint64_t)(end - p) ? padded : (uint64_t)(end - p);
	}
	c->map = map;
	c->map_len = len;
	c->pack.count = (size_t)i;
	c->pack.whole = i == count && p == end && (len & 7) == 0;
	return c;
}

/* entry_html_len: the length of a borrowed entry's HTML, from its header. */
static size_t entry_html_len(const struct entry *e)
{
	struct header h;
	memcpy(&h, e->blob, sizeof h);
	return (size_t)h.html;
}

/* put_entry: entry e as the pack holds it, into b or written to fd
 * (large HTML written from where it is, not copied first). */
static int put_entry(int fd, struct buf *b, const struct entry *e)
{
	static const char pad[8];
	int rc = 0;
	size_t html = e->html ? entry_html_len(e) + 1 : 0, len = e->len + html;
	uint64_t f[5] = {e->key.lo, e->key.hi, e->stamp, (uint64_t)e->reads_files, len};
	buf_append(b, f, sizeof f);
	if (e->html) {
		/* the blob as put would have made it: the header, then the
		 * HTML (with its NUL), written from where the build has it */
		buf_append(b, e->blob, sizeof(struct header));
		rc = write_full(fd, b->p, b->len);
		if (rc == 0)
			rc = write_full(fd, e->html, html);
		buf_reset(b);
		buf_append(b, e->blob + sizeof(struct header), e->len - sizeof(struct header));
	} else if (e->len >= (1u << 16)) {
		rc = write_full(fd, b->p, b->len);
		if (rc == 0)
			rc = write_full(fd, e->blob, e->len);
		buf_reset(b);
	} else {
		buf_append(b, e->blob, e->len);
	}
	buf_append(b, pad, ((len + 7) & ~(size_t)7) - len);
	return rc == 0 ? cache_pack_flush(fd, b) : rc;
}

/* put_entries: the entries of the table (all, or those not in the file)
 * as the pack holds them (cache_pack_put_fn). */
static long put_entries(void *ctx, int fd, struct buf *b, int all)
{
	struct md_cache *c = ctx;
	long n = 0;
	for (size_t i = 0; i < c->n; i++)
		if (all || !c->slots[i].in_file) {
			if (put_entry(fd, b, &c->slots[i]) != 0)
				return -1;
			n++;
		}
	return n;
}

int md_cache_save(struct md_cache *c)
{
	if (!c->path)
		return 0;
	pthread_mutex_lock(&c->lock);
	/* what the table holds: after a sweep, what the last build used */
	size_t used = 0, used_in_file = 0;
	for (size_t i = 0; i < c->n; i++) {
		used++;
		used_in_file += c->slots[i].in_file;
	}
	size_t add = used - used_in_file, unused = c->pack.count - used_in_file;
	int rc = 0, anew;
	/* entries of no use are left in the file until they are a quarter
	 * of it */
	if (add || unused * 4 > c->pack.count + add || !c->pack.whole)
		rc = cache_pack_save(&c->pack, unused * 4 > c->pack.count + add, put_entries, c, &anew);
	if (rc == 0)
		for (size_t i = 0; i < c->n; i++)
			c->slots[i].in_file = 1;
	int saved = errno;
	pthread_mutex_unlock(&c->lock);
	errno = saved;
	return rc;
}

/* ---- stored beside a build ---- */

static int save_md(void *c)
{
	return md_cache_save(c);
}

uint64_t md_cache_html_hash(const char *p, size_t len)
{
	return hash_seeded(p, len, len);
}

void md_cache_store(struct md_cache *c, const char *site_dir)
{
	cache_store(site_dir, CACHE_MARKDOWN, save_md, c);
}

static void *store(void *arg)
{
	struct md_cache *c = arg;
	md_cache_sweep(c);
	md_cache_store(c, c->site_dir);
	return NULL;
}

void md_cache_store_begin(struct md_cache *c, const char *site_dir)
{
	c->site_dir = site_dir;
	(void)pool_spawn(&c->saver, store, c);
}

void md_cache_store_end(struct md_cache *c, int committed)
{
	if (committed)
		pool_finish(&c->saver); /* stored on this thread if it could not start */
	else
		pool_join(&c->saver);
	c->saver.state = 0;
}
