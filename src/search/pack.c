/* pack.c: each document's counts (pack.h's struct counted) kept between
 * builds in .folio-cache/search.pack, so that a build counts only the
 * documents whose inputs changed.
 *
 * The file (a pack, cache.h): the head "folio-search 1\n" and the count
 * of its records, then records, each a kind (u32), the length of its
 * payload (u32), an XXH3 hash of the payload (u64), the payload, padded to
 * 8 bytes:
 *   DICT  texts of words and stems: their number, then each its length
 *         and bytes (LEB128 numbers); numbered on from the texts of the
 *         records before it
 *   DOC   a document's counts: its key (16 bytes), then numbers: words,
 *         postings, dl, tl, and 1 when the postings are in the order of
 *         the stems (posting k of stem k, as counting makes them); each
 *         word's text (its number), and its stem: 0 a new stem, the word's
 *         own text; 1 a new stem, its text's number after it; k + 2 the
 *         stem k; the postings' stems unless in order; their counts.
 * A build adds a DICT record of the texts it made and its new documents at
 * the end (a later DOC of a key replaces an earlier one); the file is
 * written anew, its texts only those its documents use, when a quarter of
 * its documents are of no more use. Every text is kept once: the pack
 * holds numbers, not the words of every document again.
 *
 * The file may be damaged or made by someone else: every number and
 * length is checked; a DOC whose hash or numbers are wrong is not taken
 * (its document is counted again); a damaged DICT ends the reading. */
#include "search.h"

#include "pack.h"

#include "cache/cache.h"
#include "base/index.h"
#include "base/hash.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PACK_MAGIC "folio-search 1\n"
#define REC_HEAD 16
enum { REC_DICT = 1, REC_DOC = 2 };
/* The longest text kept: a pair of heading words and its space (longer
 * ones in a file are damage). */
#define TEXT_LEN_MAX (2 * SEARCH_WORD_MAX + 1)
/* The bits of a count besides the text's, shifted down (TITLE_MASK,
 * IN_TAG, IN_SERIES). */
#define REST_MASK 0x3fu

struct text {
	const char *p;
	uint32_t len;
};

struct doc_entry {
	struct search_key key;
	const unsigned char *blob; /* the DOC payload */
	size_t len;
	uint64_t sum;              /* the file's hash of it (mapped) */
	unsigned char used, mapped, in_file, damaged;
};

struct search_cache {
	/* get reads entries and texts; put adds them */
	pthread_rwlock_t lock;
	uint64_t salt;
	struct doc_entry *e;
	size_t n, cap;
	struct index ix; /* of e, by key */
	/* the texts, by number: the file's, then those put made */
	struct text *texts;
	size_t ntexts, texts_cap;
	struct index tix; /* of texts[0..tix_n), made at the first put */
	size_t tix_n;
	struct arena *mem; /* the texts put made */
	struct buf put_buf; /* where put emits a payload (write-locked) */
	/* the file */
	char *path;
	void *map;
	size_t map_len;
	struct cache_pack pack;
	size_t file_texts, file_docs; /* texts and DOC records in the file */
	/* 0 while every text is known to be used by an entry put made, and
	 * every entry is one (no file read, no entry replaced or dropped, no
	 * put refused): the file is then written anew without reading its
	 * entries for their texts */
	int loose;
};

/* ---- numbers ---- */

static int get_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (*p == end)
			return -1;
		unsigned char c = *(*p)++;
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

static int get_u32_long(const unsigned char **p, const unsigned char *end, uint64_t max, uint32_t *v)
{
	uint64_t x;
	if (get_varint(p, end, &x) || x > max)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* get_u32: a number of at most max; most numbers of a pack are of one
 * byte or two (texts' numbers past 127), read here. */
static inline int get_u32(const unsigned char **p, const unsigned char *end, uint64_t max, uint32_t *v)
{
	const unsigned char *q = *p;
	uint32_t x;
	if (end - q >= 2 && (q[0] < 0x80 || q[1] < 0x80)) {
		x = q[0] < 0x80 ? q[0] : (q[0] & 0x7fu) | (uint32_t)q[1] << 7;
		if (x > max)
			return -1;
		*p = q + 1 + (q[0] >> 7);
		*v = x;
		return 0;
	}
	return get_u32_long(p, end, max, v);
}

/* ---- a document's counts as numbers ---- */

/* A DOC payload read: the texts by their numbers in the cache. */
struct ids {
	struct search_key key;
	uint32_t nwords, nstems, np, dl, tl, in_order;
	uint32_t *wtext; /* per word: its text; then per stem: its text (stext) */
	uint32_t *wstem; /* per word: its stem */
	uint32_t *stext; /* per stem: its text */
	uint32_t *pstem, *pw; /* pstem: room for np, its numbers unless in order */
};

/* get_count: a count, as put_count wrote it. */
static inline int get_count(const unsigned char **p, const unsigned char *end, uint32_t *pw)
{
	uint64_t v;
	uint32_t rest = 0;
	if (get_varint(p, end, &v) || (v >> 2) > TEXT_MAX)
		return -1;
	if ((v & 1) && (get_u32(p, end, REST_MASK, &rest) || !rest))
		return -1;
	*pw = (uint32_t)(v >> 2) | (v & 2 ? IN_HEADING : 0) | rest << 20;
	return 0;
}

/* put_count: a count in one byte or two, mostly: the text's count, then a
 * bit for a heading and one for the rest (title, tag, series: a number of
 * their own after it); at o (room for 20 bytes), returns the end. */
static inline unsigned char *put_count(unsigned char *o, uint32_t pw)
{
	uint32_t rest = (pw >> 20) & REST_MASK;
	o = varint_put(o, (uint64_t)(pw & TEXT_MAX) << 2 | (pw & IN_HEADING ? 2 : 0) | (rest ? 1 : 0));
	if (rest)
		o = varint_put(o, rest);
	return o;
}

/* parse: the DOC payload p[0..len) into d, every number checked (texts
 * below ntexts): its postings in keep (with room for the stems of
 * postings in the order of the stems, which the payload leaves out), the
 * rest in a; 0, or -1. The stems' texts follow the words' (d->stext =
 * d->wtext + nwords). */
static int parse(const unsigned char *p, size_t len, size_t ntexts, struct arena *a, struct arena *keep,
		 struct ids *d)
{
	memset(d, 0, sizeof *d);
	if (len < 16)
		return -1;
	const unsigned char *end = p + len;
	d->key = (struct search_key){load_u64(p), load_u64(p + 8)};
	p += 16;
	/* each word and posting takes a byte at least */
	if (get_u32(&p, end, len, &d->nwords) || get_u32(&p, end, len, &d->np) ||
	    get_u32(&p, end, UINT32_MAX, &d->dl) || get_u32(&p, end, UINT32_MAX, &d->tl) ||
	    get_u32(&p, end, 1, &d->in_order) || (d->nwords && !ntexts))
		return -1;
	/* stems are at most words */
	uint32_t *v = arena_alloc_raw(a, (3 * (size_t)d->nwords + 1) * sizeof *v);
	d->wtext = v;
	d->stext = v + d->nwords;
	d->wstem = v + 2 * (size_t)d->nwords;
	d->pstem = arena_alloc_raw(keep, (2 * (size_t)d->np + 1) * sizeof *v);
	d->pw = d->pstem + d->np;
	for (uint32_t i = 0; i < d->nwords; i++) {
		uint32_t code;
		if (get_u32(&p, end, ntexts - 1, &d->wtext[i]) || get_u32(&p, end, (uint64_t)d->nstems + 1, &code))
			return -1;
		if (code >= 2) {
			d->wstem[i] = code - 2;
			continue;
		}
		if (code == 0)
			d->stext[d->nstems] = d->wtext[i];
		else if (get_u32(&p, end, ntexts - 1, &d->stext[d->nstems]))
			return -1;
		d->wstem[i] = d->nstems++;
	}
	if (d->in_order && d->np != d->nstems)
		return -1;
	for (uint32_t k = 0; k < d->np; k++) {
		if (!d->in_order && (d->nstems == 0 || get_u32(&p, end, d->nstems - 1, &d->pstem[k])))
			return -1;
		if (get_count(&p, end, &d->pw[k]))
			return -1;
	}
	return p == end ? 0 : -1;
}

/* emit: d as a DOC payload, its texts renumbered by map (NULL: as they
 * are), appended to b. The room it may take is reserved once, and every
 * number written straight into it (a put makes one payload a document). */
static void emit(struct buf *b, const struct ids *d, const uint32_t *map)
{
	/* at most: the key, 5 numbers, 3 a word, a stem and a count a posting */
	buf_reserve(b, sizeof d->key + 50 + 30 * (size_t)d->nwords + 30 * (size_t)d->np);
	unsigned char *o = (unsigned char *)b->p + b->len;
	memcpy(o, &d->key, sizeof d->key);
	o += sizeof d->key;
	o = varint_put(o, d->nwords);
	o = varint_put(o, d->np);
	o = varint_put(o, d->dl);
	o = varint_put(o, d->tl);
	o = varint_put(o, d->in_order);
	uint32_t seen = 0;
	for (uint32_t i = 0; i < d->nwords; i++) {
		uint32_t w = map ? map[d->wtext[i]] : d->wtext[i], s = d->wstem[i];
		o = varint_put(o, w);
		if (s < seen) {
			o = varint_put(o, (uint64_t)s + 2);
			continue;
		}
		uint32_t st = map ? map[d->stext[s]] : d->stext[s];
		*o++ = st == w ? 0 : 1;
		if (st != w)
			o = varint_put(o, st);
		seen++;
	}
	for (uint32_t k = 0; k < d->np; k++) {
		if (!d->in_order)
			o = varint_put(o, d->pstem[k]);
		o = put_count(o, d->pw[k]);
	}
	b->len = (size_t)((char *)o - b->p);
	b->p[b->len] = 0;
}

/* ---- the cache ---- */

static uint64_t entry_hash(const void *ctx, uint32_t v)
{
	return ((const struct search_cache *)ctx)->e[v - 1].key.lo;
}

static int entry_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct search_key *a = &((const struct search_cache *)ctx)->e[v - 1].key, *b = key;
	return a->lo == b->lo && a->hi == b->hi;
}

static uint64_t text_hash(const void *ctx, uint32_t v)
{
	const struct text *t = &((const struct search_cache *)ctx)->texts[v - 1];
	return hash_bytes(t->p, t->len);
}

static int text_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct text *t = &((const struct search_cache *)ctx)->texts[v - 1], *k = key;
	return t->len == k->len && !memcmp(t->p, k->p, k->len);
}

/* add_entry: e in the table; an entry of its key is replaced (its blob
 * freed unless mapped). */
static void add_entry(struct search_cache *c, const struct doc_entry *e)
{
	uint32_t v = index_get(&c->ix, e->key.lo, entry_eq, c, &e->key);
	if (v) {
		struct doc_entry *old = &c->e[v - 1];
		c->loose = 1;
		if (!old->mapped)
			free((void *)old->blob);
		*old = *e;
		return;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->e = xrealloc(c->e, c->cap * sizeof *c->e);
	}
	c->e[c->n++] = *e;
	index_add(&c->ix, e->key.lo, (uint32_t)c->n, 1024, entry_hash, c);
}

static void add_text(struct search_cache *c, const char *p, uint32_t len)
{
	if (c->ntexts == c->texts_cap) {
		c->texts_cap = c->texts_cap ? 2 * c->texts_cap : 4096;
		c->texts = xrealloc(c->texts, c->texts_cap * sizeof *c->texts);
	}
	c->texts[c->ntexts++] = (struct text){p, len};
}

/* text_id: the number of the text p[0..len), added if new. Write-locked. */
static uint32_t text_id(struct search_cache *c, const char *p, uint32_t len)
{
	for (; c->tix_n < c->ntexts; c->tix_n++) {
		const struct text *t = &c->texts[c->tix_n];
		index_add(&c->tix, hash_bytes(t->p, t->len), (uint32_t)c->tix_n + 1, 4096, text_hash, c);
	}
	struct text k = {p, len};
	uint64_t h = hash_bytes(p, len);
	uint32_t v = index_get(&c->tix, h, text_eq, c, &k);
	if (v)
		return v - 1;
	add_text(c, arena_strndup(c->mem, p, len), len);
	index_add(&c->tix, h, (uint32_t)c->ntexts, 4096, text_hash, c);
	c->tix_n = c->ntexts;
	return (uint32_t)c->ntexts - 1;
}

uint32_t search_cache_text_id(struct search_cache *c, const char *p, uint32_t len)
{
	pthread_rwlock_wrlock(&c->lock);
	uint32_t id = text_id(c, p, len);
	pthread_rwlock_unlock(&c->lock);
	return id;
}

static struct search_cache *cache_new(uint64_t salt)
{
	struct search_cache *c = xcalloc(1, sizeof *c);
	pthread_rwlock_init(&c->lock, NULL);
	c->salt = salt;
	c->mem = arena_new();
	buf_init(&c->put_buf);
	return c;
}

void search_cache_free(struct search_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (!c->e[i].mapped)
			free((void *)c->e[i].blob);
	free(c->e);
	index_fini(&c->ix);
	free(c->texts);
	index_fini(&c->tix);
	arena_free(c->mem);
	buf_fini(&c->put_buf);
	if (c->map)
		munmap(c->map, c->map_len);
	free(c->path);
	pthread_rwlock_destroy(&c->lock);
	free(c);
}

uint64_t search_cache_salt(const struct search_cache *c)
{
	return c->salt;
}

size_t search_cache_count(const struct search_cache *c)
{
	return c->n;
}

/* read_dict: the texts of a DICT payload added; 0, or -1 (none added). */
static int read_dict(struct search_cache *c, const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;
	size_t before = c->ntexts;
	uint32_t n;
	if (get_u32(&p, end, len, &n))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t tl;
		if (get_u32(&p, end, TEXT_LEN_MAX, &tl) || tl > (size_t)(end - p)) {
			c->ntexts = before;
			return -1;
		}
		add_text(c, (const char *)p, tl);
		p += tl;
	}
	if (p != end) {
		c->ntexts = before;
		return -1;
	}
	return 0;
}

struct search_cache *search_cache_open(const char *path, uint64_t salt)
{
	struct search_cache *c = cache_new(salt);
	if (!path)
		return c;
	c->path = xstrndup(path, strlen(path));
	c->pack = (struct cache_pack){.path = c->path, .magic = PACK_MAGIC};
	size_t len;
	uint64_t count, i;
	void *map = cache_pack_map(&c->pack, &len, &count);
	if (!map)
		return c;
	const unsigned char *p = (const unsigned char *)map + CACHE_PACK_HEAD, *end = (const unsigned char *)map + len;
	for (i = 0; i < count; i++) {
		/* a cut or damaged file: what was read before stays */
		if ((size_t)(end - p) < REC_HEAD)
			break;
		uint32_t kind, plen;
		memcpy(&kind, p, 4);
		memcpy(&plen, p + 4, 4);
		uint64_t sum = load_u64(p + 8);
		p += REC_HEAD;
		if (plen > (size_t)(end - p))
			break;
		if (kind == REC_DICT) {
			/* the texts of every DOC after it: checked now */
			if (hash_bytes(p, plen) != sum || read_dict(c, p, plen))
				break;
		} else if (kind == REC_DOC && plen >= 16) {
			struct doc_entry e = {{load_u64(p), load_u64(p + 8)}, p, plen, sum, 0, 1, 1, 0};
			add_entry(c, &e);
			c->file_docs++;
		} else {
			break;
		}
		/* the last record's padding may be cut off */
		size_t padded = ((size_t)plen + 7) & ~(size_t)7;
		p += padded < (size_t)(end - p) ? padded : (size_t)(end - p);
	}
	c->map = map;
	c->map_len = len;
	c->loose = i > 0;
	c->file_texts = c->ntexts;
	c->pack.count = (size_t)i;
	c->pack.whole = i == count && p == end && (len & 7) == 0;
	return c;
}

/* entry_parse: parse of e into a, if its bytes are those the file's
 * hash says (a put's are as put made them). */
static int entry_parse(const struct search_cache *c, const struct doc_entry *e, struct arena *a, struct arena *keep,
		       struct ids *d)
{
	if (e->mapped && hash_bytes(e->blob, e->len) != e->sum)
		return -1;
	return parse(e->blob, e->len, c->ntexts, a, keep, d);
}

int search_cache_get(struct search_cache *c, const struct search_key *k, struct arena *a, struct arena *keep,
		     struct counted *r)
{
	pthread_rwlock_rdlock(&c->lock);
	uint32_t v = index_get(&c->ix, k->lo, entry_eq, c, k);
	struct doc_entry *e = v ? &c->e[v - 1] : NULL;
	struct ids d;
	int hit = e && !__atomic_load_n(&e->damaged, __ATOMIC_RELAXED) && entry_parse(c, e, a, keep, &d) == 0;
	if (hit) {
		/* the numbers as they are: no texts copied */
		*r = (struct counted){.wstem = d.wstem, .tid = d.wtext, .pstem = d.pstem, .pw = d.pw,
				      .nwords = d.nwords, .nstems = d.nstems, .np = d.np, .dl = d.dl, .tl = d.tl,
				      .in_order = d.in_order};
		__atomic_store_n(&e->used, 1, __ATOMIC_RELAXED);
	} else if (e) {
		__atomic_store_n(&e->damaged, 1, __ATOMIC_RELAXED); /* put replaces it */
	}
	pthread_rwlock_unlock(&c->lock);
	return hit;
}

const char *search_cache_text(struct search_cache *c, uint32_t id, uint32_t *len)
{
	pthread_rwlock_rdlock(&c->lock);
	const struct text *t = &c->texts[id];
	const char *p = t->p;
	*len = t->len;
	pthread_rwlock_unlock(&c->lock);
	return p;
}

size_t search_cache_texts(struct search_cache *c)
{
	pthread_rwlock_rdlock(&c->lock);
	size_t n = c->ntexts;
	pthread_rwlock_unlock(&c->lock);
	return n;
}

void search_cache_put(struct search_cache *c, const struct search_key *k, const struct counted *r)
{
	pthread_rwlock_wrlock(&c->lock);
	uint32_t v = index_get(&c->ix, k->lo, entry_eq, c, k);
	if (v && !c->e[v - 1].damaged) { /* the same document twice */
		c->e[v - 1].used = 1;
		pthread_rwlock_unlock(&c->lock);
		return;
	}
	struct ids d;
	memset(&d, 0, sizeof d);
	d.key = *k;
	d.nwords = r->nwords;
	d.nstems = r->nstems;
	d.np = r->np;
	d.dl = r->dl;
	d.tl = r->tl;
	uint32_t *ids = xmalloc((2 * (size_t)r->nwords + r->nstems + 1) * sizeof *ids);
	d.wtext = ids;
	d.wstem = ids + r->nwords;
	d.stext = ids + 2 * (size_t)r->nwords;
	/* what emit cannot say is not kept (counting never makes it): a stem
	 * first met after a later one, a stem of no word, a longer text,
	 * bits of a count that are none of pack.h's; counts with no texts
	 * (the cache's own: r->text and r->tid NULL) */
	int ok = r->text != NULL || r->tid != NULL || !r->nwords;
	uint32_t seen = 0;
	for (uint32_t i = 0; ok && r->tid && i < r->nwords; i++) {
		uint32_t s = r->wstem[i];
		if (s > seen || s >= r->nstems || r->tid[i] >= c->ntexts || r->tid[r->nwords + s] >= c->ntexts) {
			ok = 0;
			break;
		}
		d.wtext[i] = r->tid[i];
		d.wstem[i] = s;
		if (s == seen)
			d.stext[seen++] = r->tid[r->nwords + s];
	}
	for (uint32_t i = 0; ok && !r->tid && i < r->nwords; i++) {
		const uint32_t *w = &r->wtext[2 * i], s = r->wstem[i];
		if (w[1] > TEXT_LEN_MAX || s > seen || s >= r->nstems || r->stext[2 * s + 1] > TEXT_LEN_MAX) {
			ok = 0;
			break;
		}
		d.wtext[i] = text_id(c, r->text + w[0], w[1]);
		d.wstem[i] = s;
		if (s == seen)
			d.stext[seen++] = text_id(c, r->text + r->stext[2 * s], r->stext[2 * s + 1]);
	}
	ok = ok && seen == r->nstems;
	d.in_order = r->np == r->nstems;
	for (uint32_t i = 0; ok && i < r->np; i++) {
		uint32_t s = r->in_order ? i : r->pstem[i];
		if (s >= r->nstems || (r->pw[i] & ~(TEXT_MAX | TITLE_MASK | IN_TAG | IN_SERIES | IN_HEADING)))
			ok = 0;
		else if (s != i)
			d.in_order = 0;
	}
	if (ok) {
		d.pstem = r->pstem;
		d.pw = r->pw;
		/* emitted into the room reserved for the largest, kept at its
		 * own size */
		buf_reset(&c->put_buf);
		emit(&c->put_buf, &d, NULL);
		struct doc_entry e = {*k, NULL, c->put_buf.len, 0, 1, 0, 0, 0};
		e.blob = xmalloc(e.len + 1);
		memcpy((void *)e.blob, c->put_buf.p, e.len);
		add_entry(c, &e);
	} else {
		c->loose = 1; /* (its texts may have been made for it) */
	}
	free(ids);
	pthread_rwlock_unlock(&c->lock);
}

void search_cache_sweep(struct search_cache *c)
{
	pthread_rwlock_wrlock(&c->lock);
	size_t m = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct doc_entry *e = &c->e[i];
		if (e->used && !e->damaged) {
			e->used = 0;
			c->e[m++] = *e;
		} else if (!e->mapped) {
			free((void *)e->blob);
		}
	}
	c->loose |= m < c->n;
	c->n = m;
	index_rebuild(&c->ix, m, 1024, entry_hash, c);
	pthread_rwlock_unlock(&c->lock);
}

/* ---- the file ---- */

/* put_record: a record of kind with payload p[0..len) into b (written to
 * fd as it fills). */
static int put_record(int fd, struct buf *b, uint32_t kind, const void *p, size_t len)
{
	static const char pad[8];
	if (len > UINT32_MAX) {
		errno = EFBIG;
		return -1;
	}
	uint32_t head[2] = {kind, (uint32_t)len};
	uint64_t sum = hash_bytes(p, len);
	buf_append(b, head, sizeof head);
	buf_append(b, &sum, sizeof sum);
	buf_append(b, p, len);
	buf_append(b, pad, ((len + 7) & ~(size_t)7) - len);
	return cache_pack_flush(fd, b);
}

/* put_dict: the texts order[0..n) as a DICT record. */
static int put_dict(struct search_cache *c, int fd, struct buf *b, const uint32_t *order, size_t from, size_t n)
{
	struct buf d;
	buf_init(&d);
	search_varint(&d, n);
	for (size_t i = 0; i < n; i++) {
		const struct text *t = &c->texts[order ? order[i] : from + i];
		search_varint(&d, t->len);
		buf_append(&d, t->p, t->len);
	}
	int rc = put_record(fd, b, REC_DICT, d.p, d.len);
	buf_fini(&d);
	return rc;
}

/* put_new: the texts and documents the file has not, at its end. */
static long put_new(struct search_cache *c, int fd, struct buf *b)
{
	long n = 0;
	if (c->ntexts > c->file_texts) {
		if (put_dict(c, fd, b, NULL, c->file_texts, c->ntexts - c->file_texts))
			return -1;
		n++;
	}
	for (size_t i = 0; i < c->n; i++)
		if (!c->e[i].in_file) {
			if (put_record(fd, b, REC_DOC, c->e[i].blob, c->e[i].len))
				return -1;
			n++;
		}
	return n;
}

/* put_all: the file anew: the texts its documents use, renumbered in the
 * order they first come, then the documents (each read twice: for the
 * texts, then to be written, not all held at once); when every text is
 * known to be used (c->loose 0: a first save, mostly), the texts and the
 * documents as they are, none read. */
static long put_all(struct search_cache *c, int fd, struct buf *b)
{
	uint32_t *map = NULL;  /* new number + 1 */
	uint32_t *order = NULL;
	size_t nt = c->ntexts;
	struct ids d;
	struct arena *a = arena_new();
	if (c->loose) {
		map = xcalloc(c->ntexts + 1, sizeof *map);
		order = xmalloc((c->ntexts + 1) * sizeof *order);
		nt = 0;
		for (size_t i = 0; i < c->n; i++) {
			/* a damaged entry (a put's never is) is left out */
			if (entry_parse(c, &c->e[i], a, a, &d) == 0)
				for (uint32_t k = 0; k < d.nwords + d.nstems; k++) {
					uint32_t t = d.wtext[k]; /* the stems' after the words' */
					if (!map[t]) {
						order[nt] = t;
						map[t] = (uint32_t)++nt;
					}
				}
			arena_free(a);
			a = arena_new();
		}
		int same = nt == c->ntexts; /* the texts keep their numbers */
		for (size_t t = 0; t < c->ntexts; t++) {
			map[t] -= map[t] ? 1 : 0;
			same = same && map[t] == t;
		}
		if (same) {
			free(map);
			free(order);
			map = order = NULL;
		}
	}
	long n = put_dict(c, fd, b, order, 0, nt) ? -1 : 1;
	struct buf e;
	buf_init(&e);
	for (size_t i = 0; n >= 0 && i < c->n; i++) {
		if (!map && !c->e[i].mapped) {
			/* a put's entry, as emit made it: the same bytes again */
			n = put_record(fd, b, REC_DOC, c->e[i].blob, c->e[i].len) ? -1 : n + 1;
			continue;
		}
		if (entry_parse(c, &c->e[i], a, a, &d) == 0) {
			buf_reset(&e);
			emit(&e, &d, map);
			n = put_record(fd, b, REC_DOC, e.p, e.len) ? -1 : n + 1;
		}
		arena_free(a);
		a = arena_new();
	}
	arena_free(a);
	buf_fini(&e);
	free(order);
	free(map);
	return n;
}

static long put_entries(void *ctx, int fd, struct buf *b, int all)
{
	struct search_cache *c = ctx;
	return all ? put_all(c, fd, b) : put_new(c, fd, b);
}

int search_cache_save(struct search_cache *c)
{
	if (!c->path)
		return 0;
	pthread_rwlock_wrlock(&c->lock);
	size_t in_file = 0;
	for (size_t i = 0; i < c->n; i++)
		in_file += c->e[i].in_file;
	size_t add = c->n - in_file, unused = c->file_docs - in_file;
	/* documents of no more use are left in the file until they are a
	 * quarter of it */
	int stale = unused * 4 > c->file_docs + add, rc = 0, anew = 0;
	if (add || stale || !c->pack.whole)
		rc = cache_pack_save(&c->pack, stale, put_entries, c, &anew);
	int saved = errno;
	if (rc == 0) {
		for (size_t i = 0; i < c->n; i++)
			c->e[i].in_file = 1;
		c->file_docs = anew ? c->n : c->file_docs + add;
		c->file_texts = c->ntexts;
		/* the file's texts are numbered anew, not as here: a later save
		 * writes it anew again */
		if (anew)
			c->pack.whole = 0;
	}
	pthread_rwlock_unlock(&c->lock);
	errno = saved;
	return rc;
}

static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int save_counts(void *c)
{
	/* FOLIO_TIMINGS: its cost beside the index's (search_output) */
	double t0 = cpu_ms();
	int rc = search_cache_save(c);
	if (getenv("FOLIO_TIMINGS"))
		fprintf(stderr, "folio: search counts kept: %.1f ms of CPU (the process's), %zu documents\n", cpu_ms() - t0,
			((struct search_cache *)c)->n);
	return rc;
}

void search_cache_store(struct search_cache *c, const char *site_dir)
{
	cache_store(site_dir, CACHE_SEARCH, save_counts, c);
}
