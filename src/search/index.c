/* index.c: documents -> the files of the search index (folio-site(5),
 * SEARCH INDEX). One pass over the documents maps each word to its stem
 * and adds up, per document, the weighted count of each stem in its text
 * and whether it is in its title (how often), tags and series; a second
 * pass turns those into impacts (one byte each), which the client
 * multiplies by the stem's idf: BM25 of the text (headings and summary
 * weigh more than the body), plus BM25 of the title (short titles weigh
 * more), plus a bonus for a tag and for the series. The boosts are added
 * after the text's saturation, so that a word of the title outranks a
 * word repeated in the body. Each two words side by side in a heading are
 * a word too ("warp shuffles"). Words are then grouped into
 * shards by their first code points, a shard split by one more code point
 * while it is larger than SHARD_MAX. */
#include "search.h"

#include "pack.h"
#include "words.h"
#include "base/pool.h"

#include "read/content.h"
#include "base/index.h"
#include "output/output.h"
#include "model/site.h"
#include "tmpl/tmpl.h"
#include "base/hash.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Weights of the text's parts, in halves of an occurrence in the body. */
enum { W_BODY = 2, W_SUMMARY = 3, W_HEADING = 4 };
/* A stem's count in a document: its bits are in pack.h (TEXT_MAX ...). */
/* An impact's two high bits: the stem is in the document's title, a
 * heading, a tag or its series' name (STRONG), and in its title (TITLE); a
 * reader ranks the documents with more of a query's words there first. The
 * low six bits are its weight. */
#define IMPACT_STRONG 128u
#define IMPACT_TITLE 64u
/* The parts given to text(): the title, tags and series by their flags */
enum { F_TITLE = -1, F_TAG = -2, F_SERIES = -3 };
/* BM25's constants, and the boosts (at most, beside the text's k1 + 1). */
#define BM25_K1 1.2
#define BM25_B 0.75
#define BOOST_TITLE 2.5
#define BOOST_TAG 2.0
#define BOOST_SERIES 1.0
#define IMPACT_MAX ((BM25_K1 + 1) * (1 + BOOST_TITLE) + BOOST_TAG + BOOST_SERIES)
/* The impacts of a document's counts remembered at once (a power of two). */
#define IMPACT_MEMO 32
/* A shard is split while its bytes (before compression) are more. */
#define SHARD_MAX 12288
/* Documents per file of records. */
#define DOCS_PER_CHUNK 8

void search_varint(struct buf *b, uint64_t v)
{
	buf_reserve(b, 11);
	b->len = (size_t)((char *)varint_put((unsigned char *)b->p + b->len, v) - b->p);
	b->p[b->len] = 0;
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

size_t search_prefix_len(const char *w, size_t n, size_t k)
{
	size_t i = 0;
	while (i < n && k) {
		i++;
		while (i < n && ((unsigned char)w[i] & 0xc0) == 0x80)
			i++;
		k--;
	}
	return i;
}

/* ---- the dictionary: words and stems ---- */

struct entry {
	uint32_t off, len; /* in the dictionary's text */
	uint32_t stem;     /* a word's stem (with STEM_ONLY: a stem that is no word of the text) */
};
#define STEM_ONLY 0x80000000u

struct table {
	struct entry *e;
	size_t n, cap;
	struct index ix;
	struct buf text;
};

struct key {
	const char *p;
	size_t n;
};

static uint64_t entry_hash(const void *ctx, uint32_t v)
{
	const struct table *t = ctx;
	const struct entry *e = &t->e[v - 1];
	return search_word_hash(t->text.p + e->off, e->len);
}

static int entry_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct table *t = ctx;
	const struct entry *e = &t->e[v - 1];
	const struct key *k = key;
	return e->len == k->n && !memcmp(t->text.p + e->off, k->p, k->n);
}

/* table_find_h: the number of the entry w[0..n) of hash h
 * (search_word_hash: the tables' hashes stay in memory), made when new
 * (*made set). */
static uint32_t table_find_h(struct table *t, const char *w, size_t n, uint64_t h, int *made)
{
	struct key k = {w, n};
	uint32_t v = index_get(&t->ix, h, entry_eq, t, &k);
	*made = !v;
	if (v)
		return v - 1;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->e = xrealloc(t->e, t->cap * sizeof *t->e);
	}
	t->e[t->n] = (struct entry){(uint32_t)t->text.len, (uint32_t)n, 0};
	buf_append(&t->text, w, n);
	t->n++;
	index_add(&t->ix, h, (uint32_t)t->n, 1024, entry_hash, t);
	return (uint32_t)t->n - 1;
}

static uint32_t table_find(struct table *t, const char *w, size_t n, int *made)
{
	return table_find_h(t, w, n, search_word_hash(w, n), made);
}

static void table_fini(struct table *t)
{
	free(t->e);
	index_fini(&t->ix);
	buf_fini(&t->text);
}

/* ---- pass 1: the weighted counts of each document ---- */

struct indexer {
	struct table words, stems;
	struct search_stemmer *stemmer;
	/* this document's counts, by stem, and the stems it has */
	uint32_t *acc;
	size_t acc_cap;
	uint32_t *touched;
	size_t ntouched, touched_cap;
	uint32_t dl, tl; /* words of this document's text, and of its title */
	int weight;      /* of the text given now (W_*, or F_*) */
	/* the heading word before this one, for the pair of them (0: none) */
	char prev[SEARCH_WORD_MAX];
	size_t prev_len;
	/* the postings of this thread's document (pass 1 on several
	 * threads), or of every document in order: stem and count */
	uint32_t *pstem;
	uint32_t *pw;
	size_t np, pcap;
	size_t *dstart; /* by document: its first posting */
	/* by document: its postings' stems and counts (in pstem and pw, or
	 * in the arenas that pass 1 on several threads kept) */
	const uint32_t **dps, **dpw;
	struct arena **kept;
	size_t nkept;
	uint32_t *dlen, *tlen;
	/* pass 1 on several threads: the thread's dictionary, kept from one
	 * document to the next (words and stems are then numbered by the
	 * document, not in the tables above, which stay empty) */
	struct tdict *td;
};

/* A thread's dictionary of pass 1 on several threads: every word it has
 * met, with its stem, both numbered by the thread, and marked with the
 * last document they came in and their number there (words and stems in
 * the order they first came in it, as a table emptied for each document
 * would number them). A word is looked up once an occurrence, in this
 * one table: its stem, its number in the document and in the cache are
 * the word's own. */
struct tword {
	uint64_t h;          /* search_word_hash */
	uint32_t off, len;   /* in text */
	uint32_t stem;       /* the thread's stem number */
	uint32_t gen;        /* the last document it came in */
	uint32_t local;      /* its stem's number in that document */
	uint32_t tid;        /* its text's number in the cache + 1 (0: not looked up yet) */
};

struct tdict {
	struct tword *w;
	size_t nw, wcap;
	struct index ix; /* of w, by hash */
	struct buf text;
	struct table stems;     /* the stems' texts (their entries' stem: unused) */
	uint32_t *sgen, *sloc;  /* by stem: as a word's gen, and its number there */
	uint32_t *stid;         /* by stem: as a word's tid */
	size_t scap;
	uint32_t gen;
	/* the document's words and stems, in the order they came */
	uint32_t *dw, *ds;
	size_t ndw, nds, dwcap, dscap;
};

/* A word looked up: its bytes and hash. */
struct tkey {
	const char *p;
	size_t n;
	uint64_t h;
};

static uint64_t tword_hash(const void *ctx, uint32_t v)
{
	return ((const struct tdict *)ctx)->w[v - 1].h;
}

static int tword_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct tdict *d = ctx;
	const struct tword *e = &d->w[v - 1];
	const struct tkey *k = key;
	/* both zero-padded: the word's (words.h), and the text's below */
	return e->h == k->h && e->len == k->n && search_word_eq_padded(d->text.p + e->off, k->p, k->n);
}

/* tdict_word: the thread's number of word w[0..n) of hash h, made the
 * first time with its stem (the word itself when stem is 0). */
static inline uint32_t tdict_word(struct tdict *d, struct search_stemmer *st, const char *w, size_t n, uint64_t h,
				  int stem)
{
	struct tkey k = {w, n, h};
	uint32_t v = index_get(&d->ix, h, tword_eq, d, &k);
	if (v)
		return v - 1;
	if (d->nw == d->wcap) {
		d->wcap = d->wcap ? 2 * d->wcap : 4096;
		d->w = xrealloc(d->w, d->wcap * sizeof *d->w);
	}
	size_t sl = n;
	const char *sp = stem ? search_stem(st, w, n, &sl) : w;
	int made;
	uint32_t si = table_find(&d->stems, sp, sl, &made);
	if (made && si >= d->scap) {
		size_t cap = d->scap ? 2 * d->scap : 4096;
		d->sgen = xrealloc(d->sgen, cap * sizeof *d->sgen);
		d->sloc = xrealloc(d->sloc, cap * sizeof *d->sloc);
		d->stid = xrealloc(d->stid, cap * sizeof *d->stid);
		memset(d->sgen + d->scap, 0, (cap - d->scap) * sizeof *d->sgen);
		memset(d->stid + d->scap, 0, (cap - d->scap) * sizeof *d->stid);
		d->scap = cap;
	}
	d->w[d->nw] = (struct tword){h, (uint32_t)d->text.len, (uint32_t)n, si, 0, 0, 0};
	/* zero-padded to a multiple of 8 bytes, as the words looked up are */
	static const char zeros[8];
	buf_append(&d->text, w, n);
	buf_append(&d->text, zeros, (8 - n % 8) % 8);
	d->nw++;
	index_add(&d->ix, h, (uint32_t)d->nw, 1 << 14, tword_hash, d);
	return (uint32_t)d->nw - 1;
}

static void tdict_fini(struct tdict *d)
{
	free(d->w);
	index_fini(&d->ix);
	buf_fini(&d->text);
	table_fini(&d->stems);
	free(d->sgen);
	free(d->sloc);
	free(d->stid);
	free(d->dw);
	free(d->ds);
}

static void acc_room(struct indexer *x, size_t si)
{
	if (si >= x->acc_cap) {
		size_t cap = x->acc_cap ? 2 * x->acc_cap : 4096;
		x->acc = xrealloc(x->acc, cap * sizeof *x->acc);
		memset(x->acc + x->acc_cap, 0, (cap - x->acc_cap) * sizeof *x->acc);
		x->acc_cap = cap;
	}
}

/* tdict_stem_of: stem_of on a thread: the number, in this document, of
 * the stem of w[0..n). */
static inline uint32_t tdict_stem_of(struct indexer *x, const char *w, size_t n, uint64_t h, int stem)
{
	struct tdict *d = x->td;
	uint32_t wi = tdict_word(d, x->stemmer, w, n, h, stem);
	struct tword *e = &d->w[wi];
	if (e->gen != d->gen) {
		/* the word's first time in this document */
		e->gen = d->gen;
		if (d->ndw == d->dwcap) {
			d->dwcap = d->dwcap ? 2 * d->dwcap : 1024;
			d->dw = xrealloc(d->dw, d->dwcap * sizeof *d->dw);
		}
		d->dw[d->ndw++] = wi;
		uint32_t si = e->stem;
		if (d->sgen[si] != d->gen) {
			d->sgen[si] = d->gen;
			if (d->nds == d->dscap) {
				d->dscap = d->dscap ? 2 * d->dscap : 1024;
				d->ds = xrealloc(d->ds, d->dscap * sizeof *d->ds);
			}
			d->sloc[si] = (uint32_t)d->nds;
			d->ds[d->nds++] = si;
			acc_room(x, d->nds);
		}
		e->local = d->sloc[si];
	}
	return e->local;
}

/* stem_of: the stem of word w[0..n) (the word itself when stem is 0: a
 * pair of heading words is not stemmed), its entry made the first time. */
static uint32_t stem_of(struct indexer *x, const char *w, size_t n, uint64_t h, int stem)
{
	if (x->td)
		return tdict_stem_of(x, w, n, h, stem);
	int made;
	uint32_t wi = table_find_h(&x->words, w, n, h, &made);
	if (made) {
		size_t sl = n;
		const char *s = w;
		if (stem) {
			s = search_stem(x->stemmer, w, n, &sl);
		}
		int smade;
		uint32_t si = table_find(&x->stems, s, sl, &smade);
		x->words.e[wi].stem = si;
		acc_room(x, si);
	}
	return x->words.e[wi].stem;
}

/* touch: stem si's count in this document, noted. */
static uint32_t *touch(struct indexer *x, uint32_t si)
{
	if (!x->acc[si]) {
		if (x->ntouched == x->touched_cap) {
			x->touched_cap = x->touched_cap ? 2 * x->touched_cap : 1024;
			x->touched = xrealloc(x->touched, x->touched_cap * sizeof *x->touched);
		}
		x->touched[x->ntouched++] = si;
	}
	return &x->acc[si];
}

/* pair: the two heading words prev and w[0..n), one after the other, as a
 * word of their own ("warp shuffle"): a reader finds a heading's words
 * side by side by it. */
static void pair(struct indexer *x, const char *w, size_t n)
{
	char b[2 * SEARCH_WORD_MAX + 1 + 8] __attribute__((aligned(8)));
	memcpy(b, x->prev, x->prev_len);
	b[x->prev_len] = ' ';
	memcpy(b + x->prev_len + 1, w, n);
	size_t bn = x->prev_len + 1 + n;
	memset(b + bn, 0, 8); /* the zeros a word has after it (words.h) */
	*touch(x, stem_of(x, b, bn, search_word_hash_padded(b, bn), 0)) |= IN_HEADING;
}

static void on_word(void *ctx, const char *w, size_t n, uint64_t h, enum search_field f)
{
	struct indexer *x = ctx;
	int wt = f == SEARCH_HEADING ? W_HEADING : x->weight;
	if (f != SEARCH_HEADING || n > SEARCH_WORD_MAX)
		x->prev_len = 0;
	else {
		if (x->prev_len)
			pair(x, w, n);
		memcpy(x->prev, w, n);
		x->prev_len = n;
	}
	if (!wt)
		return;
	uint32_t *a = touch(x, stem_of(x, w, n, h, 1));
	if (wt > 0) {
		if ((*a & TEXT_MAX) + (uint32_t)wt <= TEXT_MAX)
			*a += (uint32_t)wt;
		if (f == SEARCH_HEADING)
			*a |= IN_HEADING;
		x->dl++;
	} else if (wt == F_TITLE) {
		if ((*a & TITLE_MASK) != TITLE_MASK)
			*a += TITLE_ONE;
		x->tl++;
	} else {
		*a |= wt == F_TAG ? IN_TAG : IN_SERIES;
	}
}

static void text(struct indexer *x, struct str s, int weight)
{
	x->weight = weight;
	search_words_h(s.p, s.len, SEARCH_BODY, on_word, x);
}

static void index_doc(struct indexer *x, const struct search_options *o, const struct search_doc *d)
{
	x->ntouched = 0;
	x->dl = x->tl = 0;
	x->prev_len = 0;
	text(x, d->title, F_TITLE);
	for (size_t i = 0; i < d->ntags; i++)
		text(x, d->tags[i], F_TAG);
	text(x, d->series, F_SERIES);
	text(x, d->summary, W_SUMMARY);
	/* without the body's text, its headings alone (weight 0: skipped) */
	x->weight = o->body ? W_BODY : 0;
	search_html_words_h(d->body_html.p, d->body_html.len, on_word, x);
	if (x->np + x->ntouched > x->pcap) {
		x->pcap = 2 * (x->np + x->ntouched) + 4096;
		x->pstem = xrealloc(x->pstem, x->pcap * sizeof *x->pstem);
		x->pw = xrealloc(x->pw, x->pcap * sizeof *x->pw);
	}
	for (size_t i = 0; i < x->ntouched; i++) {
		uint32_t si = x->touched[i];
		x->pstem[x->np] = si;
		x->pw[x->np++] = x->acc[si];
		x->acc[si] = 0;
	}
}

/* ---- pass 1 on several threads ----
 *
 * Each thread counts documents with a dictionary of its own, emptied for
 * each; a document's counts are kept as its words (in the order they
 * first came in it, each with its stem) and its postings by the number of
 * their stem among its own (pack.h's struct counted), or taken from the
 * cache of an earlier build (pack.c), which keeps them as they are. The
 * calling thread takes them in, in the documents' order, a batch at a
 * time: each word made in the build's dictionary as pass 1 on one thread
 * would have made it (its stem after it), so that every number, and so
 * every byte of the index, is the same. While it takes a batch in, the
 * other threads count the next one (two batches are held at most, each in
 * a slot of its own); while it waits for a batch, it counts too. */

#define COUNT_BATCH 512
#define COUNT_GRAIN 8 /* documents a thread takes at once */

/* What the threads of pass 1 share (under lock). */
struct pass1 {
	const struct search_options *o;
	const struct search_doc *docs;
	size_t n;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a batch counted, or one taken in */
	size_t next;         /* the next document to count */
	size_t taken;        /* batches taken in: batch taken + 2 waits for a slot */
	size_t done[2];      /* by slot: the documents of its batch counted */
	struct counted *out; /* by slot: COUNT_BATCH documents' counts */
};

struct counting {
	struct pass1 *p;
	struct arena *a[2]; /* by slot: the counts this thread made there */
	struct arena *keep; /* the postings of the counts it made, for pass 2 */
	size_t cached;      /* documents taken from the cache */
	struct indexer lx;  /* the thread's own, emptied for each document */
	struct indexer *x;  /* the calling thread's: the build's, which it takes them into */
	struct counting *all;
	int jobs;
};

/* hash_str: s, and its length first, so that no two lists of texts hash
 * alike. */
static void hash_str(struct hasher *h, struct str s)
{
	hasher_add_u64(h, s.len);
	hasher_add(h, s.p ? s.p : "", s.len);
}

struct search_key search_doc_key(uint64_t salt, const struct search_options *o, const struct search_doc *d)
{
	struct hasher h;
	hasher_begin(&h, salt);
	uint64_t head[5] = {SEARCH_COUNT_VERSION, (uint64_t)o->body, (uint64_t)o->stem, d->ntags, SEARCH_WORD_MAX};
	hasher_add(&h, head, sizeof head);
	hash_str(&h, o->language);
	hash_str(&h, d->title);
	for (size_t i = 0; i < d->ntags; i++)
		hash_str(&h, d->tags[i]);
	hash_str(&h, d->series);
	hash_str(&h, d->summary);
	/* the body by its hash: the Markdown cache knows it, and hashing
	 * every body again (80 MB at 10,000 posts) is most of a key's cost */
	uint64_t body[2] = {d->body_html.len, d->body_hash};
	if (!body[1])
		body[1] = hash_seeded(d->body_html.p ? d->body_html.p : "", d->body_html.len, d->body_html.len);
	hasher_add(&h, body, sizeof body);
	struct hash128 k = hasher_digest128(&h);
	return (struct search_key){k.lo, k.hi};
}

/* counted_td: counted_now of a thread's dictionary: with a cache, the
 * words' and stems' texts by their numbers there (looked up once a
 * thread, in the order the cache's put would number them), else the texts
 * themselves. */
static void counted_td(const struct indexer *lx, struct search_cache *cache, struct arena *a, struct arena *keep,
		       struct counted *r)
{
	struct tdict *d = lx->td;
	size_t nw = d->ndw, ns = d->nds;
	memset(r, 0, sizeof *r);
	r->nwords = (uint32_t)nw;
	r->nstems = (uint32_t)ns;
	r->np = (uint32_t)lx->np;
	r->dl = lx->dl;
	r->tl = lx->tl;
	uint32_t *v = arena_alloc_raw(a, (3 * nw + 2 * ns + 1) * sizeof *v);
	r->wstem = v;
	for (size_t k = 0; k < nw; k++)
		r->wstem[k] = d->w[d->dw[k]].local;
	if (cache) {
		uint32_t *tid = v + nw;
		r->tid = tid;
		size_t seen = 0;
		for (size_t k = 0; k < nw; k++) {
			struct tword *e = &d->w[d->dw[k]];
			if (!e->tid)
				e->tid = search_cache_text_id(cache, d->text.p + e->off, e->len) + 1;
			tid[k] = e->tid - 1;
			if (r->wstem[k] == seen) {
				uint32_t si = d->ds[seen++];
				if (!d->stid[si]) {
					const struct entry *se = &d->stems.e[si];
					d->stid[si] = search_cache_text_id(cache, d->stems.text.p + se->off, se->len) + 1;
				}
				tid[nw + r->wstem[k]] = d->stid[si] - 1;
			}
		}
	} else {
		size_t tw = 0, ts = 0;
		for (size_t k = 0; k < nw; k++)
			tw += d->w[d->dw[k]].len;
		for (size_t k = 0; k < ns; k++)
			ts += d->stems.e[d->ds[k]].len;
		r->text = arena_alloc_raw(a, tw + ts + 1);
		r->wtext = v + nw;
		r->stext = v + 3 * nw;
		size_t at = 0;
		for (size_t k = 0; k < nw; k++) {
			const struct tword *e = &d->w[d->dw[k]];
			memcpy(r->text + at, d->text.p + e->off, e->len);
			r->wtext[2 * k] = (uint32_t)at;
			r->wtext[2 * k + 1] = e->len;
			at += e->len;
		}
		for (size_t k = 0; k < ns; k++) {
			const struct entry *se = &d->stems.e[d->ds[k]];
			memcpy(r->text + at, d->stems.text.p + se->off, se->len);
			r->stext[2 * k] = (uint32_t)at;
			r->stext[2 * k + 1] = se->len;
			at += se->len;
		}
	}
	r->pstem = arena_alloc_raw(keep, (2 * (size_t)r->np + 1) * sizeof *v);
	r->pw = r->pstem + r->np;
	memcpy(r->pstem, lx->pstem, r->np * sizeof *r->pstem);
	memcpy(r->pw, lx->pw, r->np * sizeof *r->pw);
}

/* count_doc: document i counted (or taken from the cache) into r, in a. */
static void count_doc(struct counting *c, size_t i, struct counted *r, struct arena *a)
{
	const struct search_options *o = c->p->o;
	struct indexer *lx = &c->lx;
	struct search_key key;
	if (o->cache) {
		key = search_doc_key(search_cache_salt(o->cache), o, &c->p->docs[i]);
		if (search_cache_get(o->cache, &key, a, c->keep, r)) {
			c->cached++;
			return;
		}
	}
	lx->td->gen++;
	lx->td->ndw = lx->td->nds = 0;
	lx->np = 0;
	index_doc(lx, o, &c->p->docs[i]);
	counted_td(lx, o->cache, a, c->keep, r);
	if (o->cache)
		search_cache_put(o->cache, &key, r);
}

static size_t batch_len(const struct pass1 *p, size_t b)
{
	return p->n - b * COUNT_BATCH < COUNT_BATCH ? p->n - b * COUNT_BATCH : COUNT_BATCH;
}

/* count_some: the next few documents counted, if their batch has a slot:
 * 1; 0 when none can be now (*over: none is left). Called, and returns,
 * with p->lock held. */
static int count_some(struct counting *c, int *over)
{
	struct pass1 *p = c->p;
	size_t b = p->next / COUNT_BATCH, s = p->next, e = s + COUNT_GRAIN;
	*over = s >= p->n;
	if (*over || b >= p->taken + 2)
		return 0;
	e = e < b * COUNT_BATCH + batch_len(p, b) ? e : b * COUNT_BATCH + batch_len(p, b);
	p->next = e;
	struct arena *a = c->a[b % 2];
	pthread_mutex_unlock(&p->lock);
	for (size_t i = s; i < e; i++)
		count_doc(c, i, &p->out[(b % 2) * COUNT_BATCH + i % COUNT_BATCH], a);
	pthread_mutex_lock(&p->lock);
	p->done[b % 2] += e - s;
	if (p->done[b % 2] == batch_len(p, b))
		pthread_cond_broadcast(&p->cond);
	return 1;
}

static void take_all(struct counting *c);

/* count_docs: a thread of pass 1: counts until every document is; the
 * calling thread (the first) takes them in too. */
static void *count_docs(void *arg)
{
	struct counting *c = arg;
	if (c->x) {
		take_all(c);
		return NULL;
	}
	struct pass1 *p = c->p;
	pthread_mutex_lock(&p->lock);
	int over = 0;
	while (!over)
		if (!count_some(c, &over) && !over)
			pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* A build's memo of the cache's texts: by a text's number there, the
 * word and the stem of that text in x (+ 1; 0: not looked up yet), so that
 * counts taken from the cache are taken in without hashing their words. */
struct text_memo {
	uint32_t *v;
	size_t cap; /* texts */
};

/* take_in: a document's counts r added to x as index_doc adds them, the
 * stems of its postings renumbered in place through map (room for r's
 * stems). */
static void take_in(struct indexer *x, struct search_cache *cache, struct counted *r, uint32_t *map,
		    struct text_memo *m)
{
	for (size_t i = 0; r->tid && i < r->nwords; i++) {
		uint32_t *mw = &m->v[2 * (size_t)r->tid[i]];
		if (!mw[0]) {
			uint32_t len;
			const char *w = search_cache_text(cache, r->tid[i], &len);
			int made;
			uint32_t wi = table_find(&x->words, w, len, &made);
			if (made) {
				/* a word x has not: table_find would not find its stem either */
				uint32_t st = r->tid[r->nwords + r->wstem[i]], *ms = &m->v[2 * (size_t)st + 1];
				if (!*ms) {
					w = search_cache_text(cache, st, &len);
					*ms = table_find(&x->stems, w, len, &made) + 1;
				}
				x->words.e[wi].stem = *ms - 1;
			}
			mw[0] = wi + 1;
		}
		map[r->wstem[i]] = x->words.e[mw[0] - 1].stem;
	}
	for (size_t i = 0; !r->tid && i < r->nwords; i++) {
		const uint32_t *w = &r->wtext[2 * i], s = r->wstem[i];
		int made;
		uint32_t wi = table_find(&x->words, r->text + w[0], w[1], &made);
		if (made)
			x->words.e[wi].stem = table_find(&x->stems, r->text + r->stext[2 * s], r->stext[2 * s + 1], &made);
		map[s] = x->words.e[wi].stem;
	}
	for (size_t k = 0; k < r->np; k++)
		r->pstem[k] = map[r->in_order ? k : r->pstem[k]];
}

/* take_batch: batch b's counts (all made) taken into x; their postings
 * stay where they are. */
static void take_batch(struct counting *c, size_t b, uint32_t **map, size_t *map_cap, struct text_memo *tm)
{
	struct indexer *x = c->x;
	const struct search_options *o = c->p->o;
	struct counted *out = c->p->out + (b % 2) * COUNT_BATCH;
	size_t m = batch_len(c->p, b);
	for (size_t i = 0; i < m; i++)
		if (out[i].nstems + 1 > *map_cap) {
			*map_cap = 2 * (out[i].nstems + 1);
			*map = xrealloc(*map, *map_cap * sizeof **map);
		}
	/* each text number of the batch is below it */
	size_t nt = o->cache ? search_cache_texts(o->cache) : 0;
	if (nt > tm->cap) {
		size_t cap = nt + nt / 2 + 1024;
		tm->v = xrealloc(tm->v, 2 * cap * sizeof *tm->v);
		memset(tm->v + 2 * tm->cap, 0, 2 * (cap - tm->cap) * sizeof *tm->v);
		tm->cap = cap;
	}
	for (size_t i = 0, d = b * COUNT_BATCH; i < m; i++, d++) {
		x->dstart[d] = x->np;
		x->dlen[d] = out[i].dl;
		x->tlen[d] = out[i].tl;
		take_in(x, o->cache, &out[i], *map, tm);
		x->dps[d] = out[i].pstem;
		x->dpw[d] = out[i].pw;
		x->np += out[i].np;
	}
}

/* take_all: the calling thread's part of pass 1: each batch, in order,
 * waited for (counting while it waits), taken in, and its slot freed for
 * the batch two after it. */
static void take_all(struct counting *c)
{
	struct pass1 *p = c->p;
	uint32_t *map = NULL;
	size_t map_cap = 0;
	struct text_memo tm = {NULL, 0};
	for (size_t b = 0; b * COUNT_BATCH < p->n; b++) {
		pthread_mutex_lock(&p->lock);
		int over;
		while (p->done[b % 2] < batch_len(p, b))
			if (!count_some(c, &over))
				pthread_cond_wait(&p->cond, &p->lock);
		pthread_mutex_unlock(&p->lock);
		/* no thread writes a counted batch's slot */
		take_batch(c, b, &map, &map_cap, &tm);
		pthread_mutex_lock(&p->lock);
		for (int t = 0; t < c->jobs; t++) {
			arena_free(c->all[t].a[b % 2]);
			c->all[t].a[b % 2] = arena_new();
		}
		p->done[b % 2] = 0;
		p->taken = b + 1;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	free(map);
	free(tm.v);
}

/* count_on_threads: pass 1 on o->jobs threads (or this one); returns the
 * number of documents taken from the cache. */
static size_t count_on_threads(struct indexer *x, const struct search_options *o, const struct search_doc *docs,
			       size_t n)
{
	int jobs = o->jobs > 1 ? o->jobs : 1;
	size_t cached = 0;
	struct pass1 p = {o, docs, n, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, {0, 0}, NULL};
	p.out = xcalloc(2 * COUNT_BATCH, sizeof *p.out);
	struct counting *c = xcalloc((size_t)jobs, sizeof *c);
	struct tdict *td = xcalloc((size_t)jobs, sizeof *td);
	for (int t = 0; t < jobs; t++) {
		c[t].p = &p;
		c[t].a[0] = arena_new();
		c[t].a[1] = arena_new();
		c[t].keep = arena_new();
		buf_init(&c[t].lx.words.text);
		buf_init(&c[t].lx.stems.text);
		buf_init(&td[t].text);
		buf_init(&td[t].stems.text);
		c[t].lx.td = &td[t];
		c[t].lx.stemmer = o->stem ? search_stemmer_new(o->language.p, o->language.len) : NULL;
	}
	c[0].x = x;
	c[0].all = c;
	c[0].jobs = jobs;
	x->kept = xcalloc((size_t)jobs, sizeof *x->kept);
	/* a thread that cannot start leaves its part to the others (the
	 * calling thread counts what no other does) */
	pool_run(jobs, count_docs, c, sizeof *c, 1);
	for (int t = 0; t < jobs; t++) {
		struct indexer *lx = &c[t].lx;
		cached += c[t].cached;
		arena_free(c[t].a[0]);
		arena_free(c[t].a[1]);
		x->kept[x->nkept++] = c[t].keep; /* the postings, for pass 2 */
		search_stemmer_free(lx->stemmer);
		table_fini(&lx->words);
		table_fini(&lx->stems);
		free(lx->acc);
		free(lx->touched);
		free(lx->pstem);
		free(lx->pw);
		tdict_fini(&td[t]);
	}
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.cond);
	free(td);
	free(p.out);
	free(c);
	return cached;
}

/* ---- pass 2: the postings by stem, as impacts ---- */

struct postings {
	size_t *start;   /* by stem: first in doc/q; start[nstems] = all */
	uint32_t *doc;
	uint8_t *q;
	size_t *bytes;   /* by stem: its encoded size in a shard */
};

/* coarse: v on a scale of 16 steps an octave, so that an edit to one
 * document seldom moves the averages, and with them every impact of every
 * shard (the shards it has no word in stay the same files) */
static double coarse(double v)
{
	return exp2(round(log2(v) * 16) / 16);
}

/* Pass 2 on several threads, each a part of the documents (about as many
 * postings each): each counts its postings by stem, then writes them
 * where the counts of the parts before it say (a stem's postings stay in
 * the documents' order, as on one thread); then each sizes a part of the
 * stems. */
struct impacts {
	const struct indexer *x;
	struct postings *p;
	size_t d0, d1; /* its documents */
	size_t s0, s1; /* its stems */
	size_t *fill;  /* by stem: its postings (step 1), then where its next goes (step 2) */
	double avgdl, avgtl;
	int step;
};

/* impact: a posting's byte: BM25 of the text and of the title, the
 * boosts, the two high bits. A term whose count is 0 adds 0: left out. */
static uint8_t impact(uint32_t c, double norm, double tnorm)
{
	double tf = (c & TEXT_MAX) / 2.0, tt = (double)((c & TITLE_MASK) >> 20);
	double imp = tf > 0 ? tf * (BM25_K1 + 1) / (tf + norm) : 0;
	if (tt > 0)
		imp += BOOST_TITLE * tt * (BM25_K1 + 1) / (tt + tnorm);
	/* one at a time, as the sum of all four was made: the same rounding */
	imp += c & IN_TAG ? BOOST_TAG : 0;
	imp += c & IN_SERIES ? BOOST_SERIES : 0;
	int q = 1 + (int)(imp / IMPACT_MAX * 62.0);
	q = q > 63 ? 63 : q;
	if (c & (TITLE_MASK | IN_TAG | IN_SERIES | IN_HEADING))
		q |= (int)IMPACT_STRONG;
	if (c & TITLE_MASK)
		q |= (int)IMPACT_TITLE;
	return (uint8_t)q;
}

static void *impacts_run(void *arg)
{
	struct impacts *t = arg;
	const struct indexer *x = t->x;
	struct postings *p = t->p;
	if (t->step == 1) {
		for (size_t d = t->d0; d < t->d1; d++)
			for (size_t i = 0; i < x->dstart[d + 1] - x->dstart[d]; i++)
				t->fill[x->dps[d][i]]++;
	} else if (t->step == 2) {
		/* a document's counts are mostly a few values (a word once or
		 * twice in the body): each value's impact is kept for the
		 * document's next postings of it, by its low bits (the same
		 * count, the same byte, without its three divisions) */
		uint32_t seen[IMPACT_MEMO];
		uint8_t q[IMPACT_MEMO];
		for (size_t d = t->d0; d < t->d1; d++) {
			double norm = BM25_K1 * (1 - BM25_B + BM25_B * (double)x->dlen[d] / t->avgdl);
			double tnorm = BM25_K1 * (1 - BM25_B + BM25_B * (double)x->tlen[d] / t->avgtl);
			const uint32_t *ps = x->dps[d], *pw = x->dpw[d];
			memset(seen, 0xff, sizeof seen); /* no count has every bit */
			for (size_t i = 0; i < x->dstart[d + 1] - x->dstart[d]; i++) {
				size_t at = t->fill[ps[i]]++;
				uint32_t c = pw[i], k = (c ^ c >> 20) & (IMPACT_MEMO - 1);
				if (seen[k] != c) {
					seen[k] = c;
					q[k] = impact(c, norm, tnorm);
				}
				p->doc[at] = (uint32_t)d;
				p->q[at] = q[k];
			}
		}
	} else {
		for (size_t s = t->s0; s < t->s1; s++) {
			size_t n = p->start[s + 1] - p->start[s], b = varint_len(n) + n;
			uint32_t prev = 0;
			for (size_t i = p->start[s]; i < p->start[s + 1]; i++) {
				b += varint_len(p->doc[i] - prev);
				prev = p->doc[i];
			}
			p->bytes[s] = b;
		}
	}
	return NULL;
}

/* split: the first of k parts of [0, n) by the weights before it (*at:
 * the prefix sums, at[n] the total), as even as whole items allow (a few
 * parts: a look along at is enough). */
static size_t split(const size_t *at, size_t n, size_t k, size_t parts)
{
	size_t want = (size_t)((double)at[n] * (double)k / (double)parts), i = 0;
	while (k < parts && i < n && at[i] < want)
		i++;
	return k == parts ? n : i;
}

/* A part of pass 2 is worth a thread from this many postings. */
#define IMPACTS_PART 32768

static void make_postings(struct indexer *x, size_t ndocs, int jobs, struct postings *p)
{
	size_t ns = x->stems.n;
	size_t parts = jobs > 1 ? (size_t)jobs : 1;
	while (parts > 1 && x->np / parts < IMPACTS_PART)
		parts--;
	double total = 0, ttotal = 0;
	for (size_t d = 0; d < ndocs; d++) {
		total += x->dlen[d];
		ttotal += x->tlen[d];
	}
	struct impacts *t = xcalloc(parts, sizeof *t);
	for (size_t k = 0; k < parts; k++) {
		t[k].x = x;
		t[k].p = p;
		t[k].d0 = split(x->dstart, ndocs, k, parts);
		t[k].d1 = split(x->dstart, ndocs, k + 1, parts);
		t[k].fill = xcalloc(ns + 1, sizeof *t[k].fill);
		t[k].avgdl = coarse(ndocs && total > 0 ? total / (double)ndocs : 1);
		t[k].avgtl = coarse(ndocs && ttotal > 0 ? ttotal / (double)ndocs : 1);
		t[k].step = 1;
	}
	pool_run((int)parts, impacts_run, t, sizeof *t, 0);
	p->start = xcalloc(ns + 1, sizeof *p->start);
	for (size_t s = 0, at = 0; s < ns; s++) {
		for (size_t k = 0; k < parts; k++) {
			size_t v = t[k].fill[s];
			t[k].fill[s] = at;
			at += v;
		}
		p->start[s + 1] = at;
	}
	p->doc = xmalloc((x->np + 1) * sizeof *p->doc);
	p->q = xmalloc(x->np + 1);
	p->bytes = xcalloc(ns + 1, sizeof *p->bytes);
	for (size_t k = 0; k < parts; k++)
		t[k].step = 2;
	pool_run((int)parts, impacts_run, t, sizeof *t, 0);
	for (size_t k = 0; k < parts; k++) {
		t[k].s0 = split(p->start, ns, k, parts);
		t[k].s1 = split(p->start, ns, k + 1, parts);
		t[k].step = 3;
	}
	pool_run((int)parts, impacts_run, t, sizeof *t, 0);
	for (size_t k = 0; k < parts; k++)
		free(t[k].fill);
	free(t);
}

static void postings_free(struct postings *p)
{
	free(p->start);
	free(p->doc);
	free(p->q);
	free(p->bytes);
}

/* ---- the files ---- */

struct files {
	struct arena *a;
	struct search_file *v;
	size_t n, cap;
	struct index names; /* of v's paths: two files of the same bytes are one */
};

static const char *file_rel(const void *ctx, uint32_t v)
{
	return ((const struct files *)ctx)->v[v - 1].rel;
}

/* A file's bytes (malloc'd) and their hash, made on a thread. */
struct made {
	char *data;
	size_t len;
	uint64_t hash;
};

/* made_of: b's bytes and their hash (b is emptied). */
static struct made made_of(struct buf *b)
{
	struct made m;
	m.hash = hash_bytes(b->p ? b->p : "", b->len);
	m.data = buf_detach(b, &m.len);
	if (!m.data)
		m.data = xcalloc(1, 1);
	return m;
}

/* add_made: m's bytes (now f's arena's) as DIR/HASH.EXT; returns the
 * hash's hex digits (an arena string). */
static const char *add_made(struct files *f, const char *dir, const char *ext, struct made m)
{
	char hex[17];
	snprintf(hex, sizeof hex, "%016llx", (unsigned long long)m.hash);
	hex[12] = 0;
	arena_own(f->a, m.data);
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->v = xrealloc(f->v, f->cap * sizeof *f->v);
	}
	char rel[64];
	snprintf(rel, sizeof rel, "search/%s/%s.%s", dir, hex, ext);
	const char *name = arena_strndup(f->a, hex, strlen(hex));
	if (index_get_str(&f->names, rel, file_rel, f))
		return name; /* the same bytes as a file already made (two tags of the same posts) */
	f->v[f->n++] = (struct search_file){arena_strndup(f->a, rel, strlen(rel)), m.data, m.len};
	index_add_str(&f->names, f->v[f->n - 1].rel, (uint32_t)f->n, 64, file_rel, f);
	return name;
}

/* add_file: b's bytes as DIR/HASH.EXT (b is emptied). */
static const char *add_file(struct files *f, const char *dir, const char *ext, struct buf *b)
{
	return add_made(f, dir, ext, made_of(b));
}

/* The shards: the words in order, grouped by prefix; each cut made on a
 * thread of its own. */
struct cut {
	size_t lo, hi, keylen; /* words order[lo..hi), their key's bytes */
};

struct sharding {
	struct indexer *x;
	struct postings *p;
	uint32_t *order; /* word numbers, sorted by their bytes */
	uint32_t *mark;  /* by stem: the shard that last counted it */
	uint32_t gen;
	struct cut *cuts;
	size_t ncuts, cuts_cap;
};

static const char *word_text(const struct indexer *x, uint32_t w, size_t *n)
{
	const struct entry *e = &x->words.e[w];
	*n = e->len;
	return x->words.text.p + e->off;
}

static int word_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct indexer *x = ctx;
	size_t na, nb;
	const char *a = word_text(x, *(const uint32_t *)pa, &na);
	const char *b = word_text(x, *(const uint32_t *)pb, &nb);
	int c = memcmp(a, b, na < nb ? na : nb);
	return c ? c : (na > nb) - (na < nb);
}

/* group_size: the bytes of a shard of the words order[lo..hi). */
static size_t group_size(struct sharding *sh, size_t lo, size_t hi)
{
	sh->gen++;
	size_t b = 4;
	for (size_t i = lo; i < hi; i++) {
		const struct entry *e = &sh->x->words.e[sh->order[i]];
		uint32_t st = e->stem & ~STEM_ONLY;
		b += e->len + 3;
		if (sh->mark[st] != sh->gen) {
			sh->mark[st] = sh->gen;
			b += sh->p->bytes[st];
		}
	}
	return b;
}

static void add_cut(struct sharding *sh, size_t lo, size_t hi, size_t keylen)
{
	if (sh->ncuts == sh->cuts_cap) {
		sh->cuts_cap = sh->cuts_cap ? 2 * sh->cuts_cap : 256;
		sh->cuts = xrealloc(sh->cuts, sh->cuts_cap * sizeof *sh->cuts);
	}
	sh->cuts[sh->ncuts++] = (struct cut){lo, hi, keylen};
}

/* group: the words order[lo..hi), which share their first k code points,
 * as one shard, or split by the next code point. */
static void group(struct sharding *sh, size_t lo, size_t hi, size_t k)
{
	size_t n0;
	const char *w0 = word_text(sh->x, sh->order[lo], &n0);
	size_t keylen = search_prefix_len(w0, n0, k);
	if (group_size(sh, lo, hi) <= SHARD_MAX) {
		add_cut(sh, lo, hi, keylen);
		return;
	}
	/* the word that is the prefix itself sorts first, and stays here */
	size_t i = lo;
	if (n0 == keylen) {
		add_cut(sh, lo, lo + 1, keylen);
		i++;
	}
	while (i < hi) {
		size_t n;
		const char *w = word_text(sh->x, sh->order[i], &n);
		size_t kl = search_prefix_len(w, n, k + 1);
		size_t j = i + 1;
		for (; j < hi; j++) {
			size_t m;
			const char *v = word_text(sh->x, sh->order[j], &m);
			if (m < kl || memcmp(v, w, kl))
				break;
		}
		group(sh, i, j, k + 1);
		i = j;
	}
}

/* A thread making files: the shards of the cuts, then the records,
 * DOCS_PER_CHUNK documents to a file; with its own marks of stems. */
struct maker {
	const struct sharding *sh;
	const struct search_doc *docs;
	size_t ndocs;
	struct pool_queue *q;
	struct made *out; /* by file: the shards', then the records' */
	struct arena *a;  /* the thread's own */
	uint32_t *mark;   /* by stem: the shard that last counted it, */
	uint32_t *local;  /* and its number there */
	uint32_t *stems;  /* a shard's stems */
	uint32_t gen;
};

/* shard_bytes: the shard of the words order[lo..hi) into b. */
static void shard_bytes(struct maker *t, size_t lo, size_t hi, struct buf *b)
{
	const struct indexer *x = t->sh->x;
	const struct postings *p = t->sh->p;
	const uint32_t *order = t->sh->order;
	t->gen++;
	size_t ns = 0, room = 32;
	for (size_t i = lo; i < hi; i++) {
		const struct entry *e = &x->words.e[order[i]];
		uint32_t s = e->stem & ~STEM_ONLY;
		room += e->len + 30;
		if (t->mark[s] != t->gen) {
			t->mark[s] = t->gen;
			t->local[s] = (uint32_t)ns;
			t->stems[ns++] = s;
			room += p->bytes[s];
		}
	}
	/* every byte written below is counted in room: p->bytes a stem's
	 * postings, 30 a word's three numbers */
	buf_reserve(b, room);
	unsigned char *o = (unsigned char *)b->p + b->len;
	o = varint_put(o, ns);
	for (size_t k = 0; k < ns; k++) {
		uint32_t s = t->stems[k];
		o = varint_put(o, p->start[s + 1] - p->start[s]);
		uint32_t prev = 0;
		for (size_t i = p->start[s]; i < p->start[s + 1]; i++) {
			o = varint_put(o, p->doc[i] - prev);
			prev = p->doc[i];
		}
		memcpy(o, p->q + p->start[s], p->start[s + 1] - p->start[s]);
		o += p->start[s + 1] - p->start[s];
	}
	o = varint_put(o, hi - lo);
	const char *last = "";
	size_t lastn = 0;
	for (size_t i = lo; i < hi; i++) {
		size_t n;
		const char *w = word_text(x, order[i], &n);
		size_t c = 0;
		while (c < n && c < lastn && w[c] == last[c])
			c++;
		o = varint_put(o, c);
		o = varint_put(o, n - c);
		memcpy(o, w + c, n - c);
		o += n - c;
		uint32_t st = x->words.e[order[i]].stem;
		o = varint_put(o, (uint64_t)t->local[st & ~STEM_ONLY] << 1 | (st & STEM_ONLY ? 1 : 0));
		last = w;
		lastn = n;
	}
	b->len = (size_t)((char *)o - b->p);
	b->p[b->len] = 0;
}

/* records_bytes: the records of chunk c of the documents into b. */
static void records_bytes(struct maker *t, size_t c, struct buf *b)
{
	buf_putc(b, '[');
	for (size_t d = c * DOCS_PER_CHUNK; d < t->ndocs && d < (c + 1) * DOCS_PER_CHUNK; d++) {
		const struct search_doc *doc = &t->docs[d];
		buf_puts(b, d % DOCS_PER_CHUNK ? ",[" : "[");
		const struct str fields[] = {doc->url, doc->title, doc->date, doc->series, doc->excerpt};
		for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
			if (k)
				buf_putc(b, ',');
			buf_put_json(b, fields[k].p, fields[k].len, JSON_ESC_HTML);
		}
		buf_putc(b, ']');
	}
	buf_puts(b, "]\n");
}

static void *make_files(void *arg)
{
	struct maker *t = arg;
	size_t s, e, ncuts = t->sh->ncuts;
	struct buf b;
	buf_init(&b);
	while (pool_take(t->q, &s, &e))
		for (size_t i = s; i < e; i++) {
			if (i < ncuts)
				shard_bytes(t, t->sh->cuts[i].lo, t->sh->cuts[i].hi, &b);
			else
				records_bytes(t, i - ncuts, &b);
			t->out[i] = made_of(&b);
		}
	return NULL;
}

/* shards_and_records: the shards of sh's cuts and the records of docs,
 * made on up to jobs threads, added to f in that order; the shards' keys
 * and the records' names into meta. */
static void shards_and_records(struct sharding *sh, const struct search_doc *docs, size_t n, int jobs,
			       struct files *f, struct buf *meta)
{
	size_t ns = sh->x->stems.n, nchunks = (n + DOCS_PER_CHUNK - 1) / DOCS_PER_CHUNK, nf = sh->ncuts + nchunks;
	int parts = jobs > 1 ? jobs : 1;
	if ((size_t)parts > nf / 32 + 1)
		parts = (int)(nf / 32 + 1);
	struct pool_queue q;
	pool_queue_init(&q, nf, 4);
	struct made *out = xcalloc(nf + 1, sizeof *out);
	struct maker *t = xcalloc((size_t)parts, sizeof *t);
	for (int k = 0; k < parts; k++) {
		t[k].sh = sh;
		t[k].docs = docs;
		t[k].ndocs = n;
		t[k].q = &q;
		t[k].out = out;
		t[k].a = arena_new();
		t[k].mark = xcalloc(ns + 1, sizeof *t[k].mark);
		t[k].local = xcalloc(ns + 1, sizeof *t[k].local);
		t[k].stems = xcalloc(ns + 1, sizeof *t[k].stems);
	}
	/* a thread that cannot start leaves its part to the others */
	pool_run(parts, make_files, t, sizeof *t, 1);
	pool_queue_fini(&q);
	for (size_t i = 0; i < sh->ncuts; i++) {
		const char *hash = add_made(f, "t", "bin", out[i]);
		size_t n0;
		const char *w0 = word_text(sh->x, sh->order[sh->cuts[i].lo], &n0);
		buf_puts(meta, i ? "," : "");
		buf_put_json(meta, w0, sh->cuts[i].keylen, JSON_ESC_HTML);
		buf_printf(meta, ":\"%s\"", hash);
	}
	buf_puts(meta, "},\"records\":[");
	for (size_t c = 0; c < nchunks; c++)
		buf_printf(meta, "%s\"%s\"", c ? "," : "", add_made(f, "d", "json", out[sh->ncuts + c]));
	buf_putc(meta, ']');
	for (int k = 0; k < parts; k++) {
		arena_free(t[k].a);
		free(t[k].mark);
		free(t[k].local);
		free(t[k].stems);
	}
	free(t);
	free(out);
}

static void filters_json(struct buf *meta, struct files *f, const char *key, const struct search_filter *v, size_t n)
{
	buf_printf(meta, ",\"%s\":[", key);
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < n; i++) {
		search_varint(&b, v[i].ndocs);
		uint32_t prev = 0;
		for (size_t k = 0; k < v[i].ndocs; k++) {
			search_varint(&b, v[i].docs[k] - prev);
			prev = v[i].docs[k];
		}
		const char *hash = add_file(f, "f", "bin", &b);
		buf_puts(meta, i ? ",[" : "[");
		buf_put_json(meta, v[i].name.p, v[i].name.len, JSON_ESC_HTML);
		buf_printf(meta, ",\"%s\",%zu]", hash, v[i].ndocs);
	}
	buf_fini(&b);
	buf_putc(meta, ']');
}

/* count_all: x made for docs: each document's words counted (on threads,
 * or kept in the cache, when o asks), then each stem that is no word
 * added to the words. The number of documents whose counts the cache
 * gave. */
static size_t count_all(struct indexer *x, const struct search_options *o, const struct search_doc *docs, size_t n)
{
	size_t ncached = 0;
	memset(x, 0, sizeof *x);
	buf_init(&x->words.text);
	buf_init(&x->stems.text);
	x->stemmer = o->stem ? search_stemmer_new(o->language.p, o->language.len) : NULL;
	x->dstart = xcalloc(n + 1, sizeof *x->dstart);
	x->dlen = xcalloc(n + 1, sizeof *x->dlen);
	x->tlen = xcalloc(n + 1, sizeof *x->tlen);
	x->dps = xcalloc(n + 1, sizeof *x->dps);
	x->dpw = xcalloc(n + 1, sizeof *x->dpw);
	/* with a cache, the counts of each document are kept as the threads
	 * make them, on one thread too */
	if (o->cache || (o->jobs > 1 && n >= 2 * COUNT_BATCH))
		ncached = count_on_threads(x, o, docs, n);
	else
		for (size_t d = 0; d < n; d++) {
			x->dstart[d] = x->np;
			index_doc(x, o, &docs[d]);
			x->dlen[d] = x->dl;
			x->tlen[d] = x->tl;
		}
	x->dstart[n] = x->np;
	for (size_t d = 0; !x->kept && d < n; d++) { /* (no posting at all: no arrays, and no offset into NULL) */
		x->dps[d] = x->pstem ? x->pstem + x->dstart[d] : NULL;
		x->dpw[d] = x->pw ? x->pw + x->dstart[d] : NULL;
	}
	search_stemmer_free(x->stemmer);
	/* each stem that is no word is a word of the shards too, so that the
	 * client finds "spill" in "spilled" without a stemmer of its own */
	for (size_t i = 0; i < x->stems.n; i++) {
		int made;
		uint32_t w = table_find(&x->words, x->stems.text.p + x->stems.e[i].off, x->stems.e[i].len, &made);
		if (made)
			x->words.e[w].stem = (uint32_t)i | STEM_ONLY;
	}
	return ncached;
}

/* cut_shards: sh's words in the order of their bytes, and cut into the
 * groups of a prefix (group). */
static void cut_shards(struct sharding *sh)
{
	const struct indexer *x = sh->x;
	size_t nw = x->words.n;
	sh->order = xmalloc((nw + 1) * sizeof *sh->order);
	for (size_t i = 0; i < nw; i++)
		sh->order[i] = (uint32_t)i;
	qsort_r(sh->order, nw, sizeof *sh->order, word_cmp, (void *)x);
	sh->mark = xcalloc(x->stems.n + 1, sizeof *sh->mark);
	for (size_t i = 0; i < nw;) {
		size_t n0;
		const char *w = word_text(x, sh->order[i], &n0);
		size_t kl = search_prefix_len(w, n0, 1);
		size_t j = i + 1;
		for (; j < nw; j++) {
			size_t m;
			const char *v = word_text(x, sh->order[j], &m);
			if (m < kl || memcmp(v, w, kl))
				break;
		}
		group(sh, i, j, 1);
		i = j;
	}
}

void search_index_docs(struct arena *a, const struct search_options *o, const struct search_doc *docs, size_t n,
		       const struct search_filter *series, size_t nseries, const struct search_filter *tags,
		       size_t ntags, struct search_index *out)
{
	memset(out, 0, sizeof *out);
	struct indexer x;
	out->ncached = count_all(&x, o, docs, n);
	struct postings p;
	make_postings(&x, n, o->jobs, &p);
	free(x.pstem);
	free(x.pw);
	for (size_t i = 0; i < x.nkept; i++)
		arena_free(x.kept[i]);
	free(x.kept);
	free(x.dps);
	free(x.dpw);

	struct files f;
	memset(&f, 0, sizeof f);
	f.a = a;
	struct sharding sh;
	memset(&sh, 0, sizeof sh);
	sh.x = &x;
	sh.p = &p;
	cut_shards(&sh);
	struct buf meta;
	buf_init(&meta);
	buf_printf(&meta, "{\"version\":2,\"docs\":%zu,\"chunk\":%d,\"shards\":{", n, DOCS_PER_CHUNK);
	shards_and_records(&sh, docs, n, o->jobs, &f, &meta);
	filters_json(&meta, &f, "series", series, nseries);
	filters_json(&meta, &f, "tags", tags, ntags);
	buf_puts(&meta, "}\n");
	/* the entry point keeps its name: search/index.json */
	size_t mlen;
	char *m = buf_detach(&meta, &mlen);
	arena_own(a, m);
	if (f.n == f.cap) {
		f.cap = f.cap ? 2 * f.cap : 64;
		f.v = xrealloc(f.v, f.cap * sizeof *f.v);
	}
	f.v[f.n++] = (struct search_file){"search/index.json", m, mlen};

	out->files = arena_alloc(a, (f.n + 1) * sizeof *out->files);
	memcpy(out->files, f.v, f.n * sizeof *f.v);
	out->nfiles = f.n;
	out->ndocs = n;
	out->nwords = x.words.n;
	out->nstems = x.stems.n;
	out->nshards = sh.ncuts;
	free(f.v);
	index_fini(&f.names);
	free(sh.order);
	free(sh.mark);
	free(sh.cuts);
	postings_free(&p);
	table_fini(&x.words);
	table_fini(&x.stems);
	free(x.acc);
	free(x.touched);
	free(x.dstart);
	free(x.dlen);
	free(x.tlen);
}

/* ---- the site's documents ---- */

static struct str rel_url(struct str u)
{
	if (u.len && u.p[0] == '/')
		return (struct str){u.p + 1, u.len - 1};
	return u;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* filter_of: the filter of a series or tag: its published posts' numbers,
 * in order. */
static struct search_filter filter_of(struct arena *a, const struct site *s, struct str name, struct post *const *p,
				      size_t n)
{
	uint32_t *v = arena_alloc(a, (n + 1) * sizeof *v);
	size_t m = 0;
	for (size_t j = 0; j < n; j++)
		if (p[j]->index >= 0 && (size_t)p[j]->index < s->nposts)
			v[m++] = (uint32_t)p[j]->index;
	qsort(v, m, sizeof *v, u32_cmp);
	return (struct search_filter){name, v, m};
}

void search_index_site(struct arena *a, const struct site *s, const struct search_options *o,
		       struct search_index *out)
{
	size_t n = s->nposts + s->nseries + (o->pages ? s->npages : 0);
	struct search_doc *docs = xcalloc(n + 1, sizeof *docs);
	size_t k = 0;
	for (size_t i = 0; i < s->nposts; i++) {
		const struct post *p = s->posts[i];
		struct search_doc *d = &docs[k++];
		d->url = rel_url(p->url);
		d->title = p->title;
		d->date = (struct str){p->date.iso.p, p->date.iso.len < 10 ? p->date.iso.len : 10};
		d->series = p->series ? p->series->title : (struct str){"", 0};
		d->summary = p->summary;
		d->excerpt = p->summary.len ? p->summary : p->doc.summary_text;
		d->tags = p->tags;
		d->ntags = p->ntags;
		d->body_html = p->doc.html;
		d->body_hash = p->doc.html_hash;
	}
	for (size_t i = 0; i < s->nseries; i++) {
		const struct series *se = s->series[i];
		struct search_doc *d = &docs[k++];
		d->url = rel_url(se->url);
		d->title = se->title;
		/* the guide is the page of its series: the name is its series
		 * and its tag too, so that the name finds it first */
		d->series = se->title;
		d->tags = &se->title;
		d->ntags = 1;
		d->summary = se->description;
		d->excerpt = se->description.len ? se->description : se->doc.summary_text;
		d->body_html = se->doc.html;
		d->body_hash = se->doc.html_hash;
	}
	for (size_t i = 0; o->pages && i < s->npages; i++) {
		const struct page *pg = s->pages[i];
		struct search_doc *d = &docs[k++];
		d->url = rel_url(pg->url);
		d->title = pg->title;
		d->summary = pg->description;
		d->excerpt = pg->description.len ? pg->description : pg->doc.summary_text;
		d->body_html = pg->doc.html;
		d->body_hash = pg->doc.html_hash;
	}
	/* the filters: a post's number is its place in s->posts */
	struct search_filter *sf = xcalloc(s->nseries + 1, sizeof *sf);
	for (size_t i = 0; i < s->nseries; i++)
		sf[i] = filter_of(a, s, s->series[i]->title, s->series[i]->posts, s->series[i]->nposts);
	struct search_filter *tf = xcalloc(s->ntags + 1, sizeof *tf);
	for (size_t i = 0; i < s->ntags; i++)
		tf[i] = filter_of(a, s, s->tags[i].name, s->tags[i].posts, s->tags[i].nposts);
	search_index_docs(a, o, docs, n, sf, s->nseries, tf, s->ntags, out);
	free(docs);
	free(sf);
	free(tf);
}

int search_output(struct arena *a, const struct site *s, int jobs, struct search_cache *cache, search_reuse_fn reuse,
		  void *reuse_ctx, const struct output_sink *sink)
{
	const struct config *c = s->cfg;
	if (!c->search)
		return 0;
	struct search_options o = {c->search_body, c->search_pages, c->search_stem, c->language, jobs, cache};
	struct search_index ix;
	struct timespec t0, t1, w0, w1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	clock_gettime(CLOCK_MONOTONIC, &w0);
	search_index_site(a, s, &o, &ix);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	clock_gettime(CLOCK_MONOTONIC, &w1);
	if (getenv("FOLIO_TIMINGS"))
		fprintf(stderr,
			"folio: search index: %.1f ms of CPU (the process's), %.1f ms wall, %zu documents (%zu counted "
			"before), %zu words, %zu stems, %zu shards\n",
			((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6),
			((double)(w1.tv_sec - w0.tv_sec) * 1e3 + (double)(w1.tv_nsec - w0.tv_nsec) / 1e6), ix.ndocs,
			ix.ncached, ix.nwords, ix.nstems, ix.nshards);
	int errors = 0;
	for (size_t i = 0; i < ix.nfiles; i++) {
		const struct search_file *f = &ix.files[i];
		/* the entry point is always written: its name is not its hash */
		if (reuse && i + 1 < ix.nfiles && reuse(reuse_ctx, f->rel) == 0)
			continue;
		if (sink->write(sink->ctx, f->rel, f->data, f->len))
			errors++;
	}
	return errors;
}
