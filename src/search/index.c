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
	/* by word: the documents it is in (a kept index's: search_live),
	 * counted as each document is taken in when want_wdf */
	uint32_t *wdf;
	size_t wdf_cap;
	int want_wdf;
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
	if (r->np) { /* (a document of no word: no arrays yet) */
		memcpy(r->pstem, lx->pstem, r->np * sizeof *r->pstem);
		memcpy(r->pw, lx->pw, r->np * sizeof *r->pw);
	}
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

/* wdf_add: one more document has word w */
static void wdf_add(struct indexer *x, uint32_t w)
{
	if (w >= x->wdf_cap) {
		size_t cap = 2 * (size_t)w + 1024;
		x->wdf = xrealloc(x->wdf, cap * sizeof *x->wdf);
		memset(x->wdf + x->wdf_cap, 0, (cap - x->wdf_cap) * sizeof *x->wdf);
		x->wdf_cap = cap;
	}
	x->wdf[w]++;
}

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
		if (x->want_wdf)
			wdf_add(x, mw[0] - 1);
		map[r->wstem[i]] = x->words.e[mw[0] - 1].stem;
	}
	for (size_t i = 0; !r->tid && i < r->nwords; i++) {
		const uint32_t *w = &r->wtext[2 * i], s = r->wstem[i];
		int made;
		uint32_t wi = table_find(&x->words, r->text + w[0], w[1], &made);
		if (made)
			x->words.e[wi].stem = table_find(&x->stems, r->text + r->stext[2 * s], r->stext[2 * s + 1], &made);
		if (x->want_wdf)
			wdf_add(x, wi);
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

static void indexer_fini(struct indexer *x);

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
		indexer_fini(lx);
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
	/* by stem: its postings (in doc and q, or a kept index's own arrays
	 * once an edit changed them: search_live) and their number */
	uint32_t **sdoc;
	uint8_t **sq;
	uint32_t *sn;
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
	p->sdoc = xmalloc((ns + 1) * sizeof *p->sdoc);
	p->sq = xmalloc((ns + 1) * sizeof *p->sq);
	p->sn = xmalloc((ns + 1) * sizeof *p->sn);
	for (size_t s = 0; s < ns; s++) {
		p->sdoc[s] = p->doc + p->start[s];
		p->sq[s] = p->q + p->start[s];
		p->sn[s] = (uint32_t)(p->start[s + 1] - p->start[s]);
	}
}

static void postings_free(struct postings *p)
{
	free(p->start);
	free(p->doc);
	free(p->q);
	free(p->bytes);
	free(p->sdoc);
	free(p->sq);
	free(p->sn);
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
	const size_t *which; /* the files to make, by number (NULL: all) */
	struct made *out; /* by file: the shards', then the records' */
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
		uint32_t s = t->stems[k], n = p->sn[s];
		const uint32_t *doc = p->sdoc[s];
		o = varint_put(o, n);
		uint32_t prev = 0;
		for (size_t i = 0; i < n; i++) {
			o = varint_put(o, doc[i] - prev);
			prev = doc[i];
		}
		if (n)
			memcpy(o, p->sq[s], n);
		o += n;
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
		for (size_t k = s; k < e; k++) {
			size_t i = t->which ? t->which[k] : k;
			if (i < ncuts)
				shard_bytes(t, t->sh->cuts[i].lo, t->sh->cuts[i].hi, &b);
			else
				records_bytes(t, i - ncuts, &b);
			t->out[i] = made_of(&b);
		}
	return NULL;
}

/* make_some: the files which[0..nw) (all nf when which is NULL: by number,
 * sh's cuts' shards, then the records of docs, DOCS_PER_CHUNK a file),
 * made on up to jobs threads into out (by number). */
static void make_some(const struct sharding *sh, const struct search_doc *docs, size_t n, int jobs,
		      const size_t *which, size_t nw, struct made *out)
{
	size_t ns = sh->x->stems.n;
	int parts = jobs > 1 ? jobs : 1;
	if ((size_t)parts > nw / 32 + 1)
		parts = (int)(nw / 32 + 1);
	struct pool_queue q;
	pool_queue_init(&q, nw, 4);
	struct maker *t = xcalloc((size_t)parts, sizeof *t);
	for (int k = 0; k < parts; k++) {
		t[k].sh = sh;
		t[k].docs = docs;
		t[k].ndocs = n;
		t[k].q = &q;
		t[k].which = which;
		t[k].out = out;
		t[k].mark = xcalloc(ns + 1, sizeof *t[k].mark);
		t[k].local = xcalloc(ns + 1, sizeof *t[k].local);
		t[k].stems = xcalloc(ns + 1, sizeof *t[k].stems);
	}
	/* a thread that cannot start leaves its part to the others */
	pool_run(parts, make_files, t, sizeof *t, 1);
	pool_queue_fini(&q);
	for (int k = 0; k < parts; k++) {
		free(t[k].mark);
		free(t[k].local);
		free(t[k].stems);
	}
	free(t);
}

/* meta_files: index.json's shards (each key and its file's name) and
 * records (names: by file number, as make_some numbers them) into meta */
static void meta_files(const struct sharding *sh, const char *const *names, size_t nchunks, struct buf *meta)
{
	for (size_t i = 0; i < sh->ncuts; i++) {
		size_t n0;
		const char *w0 = word_text(sh->x, sh->order[sh->cuts[i].lo], &n0);
		buf_puts(meta, i ? "," : "");
		buf_put_json(meta, w0, sh->cuts[i].keylen, JSON_ESC_HTML);
		buf_printf(meta, ":\"%s\"", names[i]);
	}
	buf_puts(meta, "},\"records\":[");
	for (size_t c = 0; c < nchunks; c++)
		buf_printf(meta, "%s\"%s\"", c ? "," : "", names[sh->ncuts + c]);
	buf_putc(meta, ']');
}

/* shards_and_records: the shards of sh's cuts and the records of docs,
 * made on up to jobs threads, added to f in that order; the shards' keys
 * and the records' names into meta. The files' names, by number
 * (malloc'd; f's arena's strings). */
static const char **shards_and_records(struct sharding *sh, const struct search_doc *docs, size_t n, int jobs,
				       struct files *f, struct buf *meta)
{
	size_t nchunks = (n + DOCS_PER_CHUNK - 1) / DOCS_PER_CHUNK, nf = sh->ncuts + nchunks;
	struct made *out = xcalloc(nf + 1, sizeof *out);
	make_some(sh, docs, n, jobs, NULL, nf, out);
	const char **names = xcalloc(nf + 1, sizeof *names);
	for (size_t i = 0; i < nf; i++)
		names[i] = add_made(f, i < sh->ncuts ? "t" : "d", i < sh->ncuts ? "bin" : "json", out[i]);
	meta_files(sh, names, nchunks, meta);
	free(out);
	return names;
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
static size_t count_all(struct indexer *x, const struct search_options *o, const struct search_doc *docs, size_t n,
			int want_wdf)
{
	size_t ncached = 0;
	memset(x, 0, sizeof *x);
	x->want_wdf = want_wdf;
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
	if (o->cache || want_wdf || (o->jobs > 1 && n >= 2 * COUNT_BATCH))
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

/* cut_groups: the words sh->order[0..nw) (in the order of their bytes)
 * cut into the groups of a prefix (group). */
static void cut_groups(struct sharding *sh, size_t nw)
{
	const struct indexer *x = sh->x;
	sh->ncuts = 0;
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
	free(sh->mark);
	sh->mark = NULL;
}

/* cut_shards: sh's words in the order of their bytes, and cut */
static void cut_shards(struct sharding *sh)
{
	const struct indexer *x = sh->x;
	size_t nw = x->words.n;
	sh->order = xmalloc((nw + 1) * sizeof *sh->order);
	for (size_t i = 0; i < nw; i++)
		sh->order[i] = (uint32_t)i;
	qsort_r(sh->order, nw, sizeof *sh->order, word_cmp, (void *)x);
	cut_groups(sh, nw);
}

/* files_finish: meta as the index's entry point, search/index.json (it
 * keeps its name), last in f; f's files into out. */
static void files_finish(struct files *f, struct arena *a, struct buf *meta, struct search_index *out)
{
	size_t mlen;
	char *m = buf_detach(meta, &mlen);
	arena_own(a, m);
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->v = xrealloc(f->v, f->cap * sizeof *f->v);
	}
	f->v[f->n++] = (struct search_file){"search/index.json", m, mlen};
	out->files = arena_alloc(a, (f->n + 1) * sizeof *out->files);
	memcpy(out->files, f->v, f->n * sizeof *f->v);
	out->nfiles = f->n;
	free(f->v);
	index_fini(&f->names);
}

/* meta_begin, meta_end: index.json around its shards and records */
static void meta_begin(struct buf *meta, size_t n)
{
	buf_init(meta);
	buf_printf(meta, "{\"version\":2,\"docs\":%zu,\"chunk\":%d,\"shards\":{", n, DOCS_PER_CHUNK);
}

static void meta_end(struct buf *meta, struct files *f, const struct search_filter *series, size_t nseries,
		     const struct search_filter *tags, size_t ntags)
{
	filters_json(meta, f, "series", series, nseries);
	filters_json(meta, f, "tags", tags, ntags);
	buf_puts(meta, "}\n");
}

static void indexer_fini(struct indexer *x)
{
	table_fini(&x->words);
	table_fini(&x->stems);
	free(x->acc);
	free(x->touched);
	free(x->pstem);
	free(x->pw);
	for (size_t i = 0; i < x->nkept; i++)
		arena_free(x->kept[i]);
	free(x->kept);
	free(x->dps);
	free(x->dpw);
	free(x->dstart);
	free(x->dlen);
	free(x->tlen);
	free(x->wdf);
}

static struct search_live *live_new(const struct search_options *o, struct indexer *x, struct postings *p,
				    struct sharding *sh, const char *const *names, const struct search_doc *docs,
				    size_t n);
static void live_filters(struct search_live *L, char *filters, size_t len, struct buf *rels);

static void index_docs(struct arena *a, const struct search_options *o, const struct search_doc *docs, size_t n,
		       const struct search_filter *series, size_t nseries, const struct search_filter *tags,
		       size_t ntags, struct search_index *out, struct search_live **keep)
{
	memset(out, 0, sizeof *out);
	struct indexer x;
	out->ncached = count_all(&x, o, docs, n, keep != NULL);
	struct postings p;
	make_postings(&x, n, o->jobs, &p);
	/* the documents' postings are the stems' now */
	free(x.pstem);
	free(x.pw);
	for (size_t i = 0; i < x.nkept; i++)
		arena_free(x.kept[i]);
	free(x.kept);
	free(x.dps);
	free(x.dpw);
	x.pstem = x.pw = NULL;
	x.kept = NULL;
	x.nkept = 0;
	x.dps = x.dpw = NULL;

	struct files f;
	memset(&f, 0, sizeof f);
	f.a = a;
	struct sharding sh;
	memset(&sh, 0, sizeof sh);
	sh.x = &x;
	sh.p = &p;
	cut_shards(&sh);
	struct buf meta;
	meta_begin(&meta, n);
	const char **names = shards_and_records(&sh, docs, n, o->jobs, &f, &meta);
	size_t at = meta.len, f0 = f.n;
	meta_end(&meta, &f, series, nseries, tags, ntags);
	struct buf rels;
	buf_init(&rels);
	for (size_t i = f0; keep && i < f.n; i++)
		buf_append(&rels, f.v[i].rel, strlen(f.v[i].rel) + 1);
	char *filters = keep ? xstrndup(meta.p + at, meta.len - at) : NULL;
	size_t filters_len = meta.len - at;
	files_finish(&f, a, &meta, out);
	out->ndocs = n;
	out->nwords = x.words.n;
	out->nstems = x.stems.n;
	out->nshards = sh.ncuts;
	if (keep) {
		*keep = live_new(o, &x, &p, &sh, names, docs, n);
		live_filters(*keep, filters, filters_len, &rels);
	} else {
		buf_fini(&rels);
		free(sh.order);
		postings_free(&p);
		indexer_fini(&x);
	}
	free(sh.cuts);
	free(names);
}

void search_index_docs(struct arena *a, const struct search_options *o, const struct search_doc *docs, size_t n,
		       const struct search_filter *series, size_t nseries, const struct search_filter *tags,
		       size_t ntags, struct search_index *out)
{
	index_docs(a, o, docs, n, series, nseries, tags, ntags, out, NULL);
}

void search_index_docs_kept(struct arena *a, const struct search_options *o, const struct search_doc *docs,
			    size_t n, const struct search_filter *series, size_t nseries,
			    const struct search_filter *tags, size_t ntags, struct search_index *out,
			    struct search_live **keep)
{
	*keep = NULL;
	index_docs(a, o, docs, n, series, nseries, tags, ntags, out, keep);
}

/* ---- a session's index, patched after an edit (search_live) ----
 *
 * folio serve keeps what its index was made of: the words and stems, the
 * documents each word is in, the postings by stem, the words in the order
 * of their bytes, and the names of the files, each shard's by a
 * fingerprint of what it holds. An edit of a document counts it twice (as
 * it was, and as it is), changes the postings of the stems whose byte in
 * it changed and the words that came or went, cuts the words into shards
 * again (their sizes only), and makes only the files whose words, stems or
 * postings changed and the records of the documents edited; the others
 * keep their names, as an index made whole again would give them (the
 * same input, the same bytes). When the averages of the documents'
 * lengths move (they are coarse: seldom), every impact may: the index is
 * made whole. */

struct live_cut {
	uint64_t fp;
	char name[13];
};

struct search_live {
	struct search_options o; /* its cache: none (a document is counted alone) */
	struct indexer x;        /* words, stems, dlen, tlen, wdf */
	struct postings p;       /* sdoc, sq, sn, bytes (doc and q: where the views began) */
	uint32_t *scap;          /* by stem: the room of its own arrays (0: a view into p's) */
	uint64_t *sver;          /* by stem: a new number when its postings change */
	size_t nroom;            /* stems the arrays by stem have room for */
	uint64_t clock;
	uint8_t *inord;          /* by word: in order */
	size_t inord_cap;
	uint32_t *order;         /* the words of the shards, in the order of their bytes */
	size_t norder, order_cap;
	uint64_t total, ttotal;  /* the documents' lengths, of their text and of their titles */
	double avgdl, avgtl;     /* as make_postings made them */
	struct search_doc *docs; /* what was indexed (its texts: the caller's, which outlive it) */
	size_t ndocs;
	struct live_cut *cuts;   /* by fp */
	size_t ncuts;
	char (*chunks)[13];      /* by chunk of records: its file's name */
	size_t nchunks;
	/* the filters (index.json's end, and their files' paths, each after
	 * the other's NUL): a patch changes no post's tags or series */
	char *filters, *filter_rels;
	size_t filters_len, filter_rels_len;
	size_t patched;          /* documents patched in */
};

/* live_room: the arrays by stem and by word as long as the tables */
static void live_room(struct search_live *L)
{
	struct postings *p = &L->p;
	size_t ns = L->x.stems.n;
	if (ns > L->nroom) {
		size_t cap = 2 * ns + 64, old = L->nroom;
		p->bytes = xrealloc(p->bytes, cap * sizeof *p->bytes);
		p->sdoc = xrealloc(p->sdoc, cap * sizeof *p->sdoc);
		p->sq = xrealloc(p->sq, cap * sizeof *p->sq);
		p->sn = xrealloc(p->sn, cap * sizeof *p->sn);
		L->scap = xrealloc(L->scap, cap * sizeof *L->scap);
		L->sver = xrealloc(L->sver, cap * sizeof *L->sver);
		for (size_t s = old; s < cap; s++) {
			p->bytes[s] = 1;
			p->sdoc[s] = NULL;
			p->sq[s] = NULL;
			p->sn[s] = 0;
			L->scap[s] = 0;
			L->sver[s] = 0;
		}
		L->nroom = cap;
	}
	size_t nw = L->x.words.n;
	if (nw > L->x.wdf_cap) {
		size_t cap = 2 * nw + 64;
		L->x.wdf = xrealloc(L->x.wdf, cap * sizeof *L->x.wdf);
		memset(L->x.wdf + L->x.wdf_cap, 0, (cap - L->x.wdf_cap) * sizeof *L->x.wdf);
		L->x.wdf_cap = cap;
	}
	if (nw > L->inord_cap) {
		size_t cap = 2 * nw + 64;
		L->inord = xrealloc(L->inord, cap);
		memset(L->inord + L->inord_cap, 0, cap - L->inord_cap);
		L->inord_cap = cap;
	}
}

/* cut_fp: what shard c holds: its key's length, its words with their
 * stems, and the version of each stem's postings */
static uint64_t cut_fp(const struct search_live *L, const struct sharding *sh, const struct cut *c, uint32_t *mark,
		       uint32_t gen)
{
	struct hasher h;
	hasher_begin(&h, c->keylen);
	for (size_t i = c->lo; i < c->hi; i++) {
		uint32_t w = sh->order[i], st = L->x.words.e[w].stem;
		uint64_t v[2] = {w, st};
		hasher_add(&h, v, sizeof v);
		if (mark[st & ~STEM_ONLY] != gen) {
			mark[st & ~STEM_ONLY] = gen;
			hasher_add_u64(&h, L->sver[st & ~STEM_ONLY]);
		}
	}
	return hasher_digest(&h);
}

static int live_cut_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct live_cut *)a)->fp, y = ((const struct live_cut *)b)->fp;
	return (x > y) - (x < y);
}

/* live_cuts: the fingerprints of sh's cuts, by number (malloc'd) */
static uint64_t *live_cuts(const struct search_live *L, const struct sharding *sh)
{
	uint64_t *fp = xcalloc(sh->ncuts + 1, sizeof *fp);
	uint32_t *mark = xcalloc(L->x.stems.n + 1, sizeof *mark);
	for (size_t i = 0; i < sh->ncuts; i++)
		fp[i] = cut_fp(L, sh, &sh->cuts[i], mark, (uint32_t)i + 1);
	free(mark);
	return fp;
}

/* live_keep_cuts: the names of sh's cuts kept by their fingerprints */
static void live_keep_cuts(struct search_live *L, const struct sharding *sh, const uint64_t *fp,
			   const char *const *names)
{
	/* (names may be the old cuts' own) */
	struct live_cut *cuts = xcalloc(sh->ncuts + 1, sizeof *cuts);
	for (size_t i = 0; i < sh->ncuts; i++) {
		cuts[i].fp = fp[i];
		snprintf(cuts[i].name, sizeof cuts[i].name, "%s", names[i]);
	}
	qsort(cuts, sh->ncuts, sizeof *cuts, live_cut_cmp);
	free(L->cuts);
	L->cuts = cuts;
	L->ncuts = sh->ncuts;
}

static struct search_live *live_new(const struct search_options *o, struct indexer *x, struct postings *p,
				    struct sharding *sh, const char *const *names, const struct search_doc *docs,
				    size_t n)
{
	struct search_live *L = xcalloc(1, sizeof *L);
	L->o = *o;
	L->o.cache = NULL;
	L->x = *x;
	L->x.stemmer = NULL; /* (freed by count_all) */
	L->x.want_wdf = 0;
	L->p = *p;
	L->order = sh->order;
	L->norder = L->order_cap = x->words.n;
	L->ndocs = n;
	for (size_t d = 0; d < n; d++) {
		L->total += x->dlen[d];
		L->ttotal += x->tlen[d];
	}
	L->avgdl = coarse(n && L->total > 0 ? (double)L->total / (double)n : 1);
	L->avgtl = coarse(n && L->ttotal > 0 ? (double)L->ttotal / (double)n : 1);
	L->docs = xcalloc(n + 1, sizeof *L->docs);
	if (n)
		memcpy(L->docs, docs, n * sizeof *docs);
	L->nroom = x->stems.n;
	L->scap = xcalloc(L->nroom + 1, sizeof *L->scap);
	L->sver = xcalloc(L->nroom + 1, sizeof *L->sver);
	live_room(L);
	if (x->words.n)
		memset(L->inord, 1, x->words.n);
	uint64_t *fp = live_cuts(L, sh);
	live_keep_cuts(L, sh, fp, names);
	free(fp);
	L->nchunks = (n + DOCS_PER_CHUNK - 1) / DOCS_PER_CHUNK;
	L->chunks = xcalloc(L->nchunks + 1, sizeof *L->chunks);
	for (size_t c = 0; c < L->nchunks; c++)
		snprintf(L->chunks[c], sizeof L->chunks[c], "%s", names[sh->ncuts + c]);
	return L;
}

/* live_filters: the end of index.json made whole (filters, taken) and
 * the paths of the filters' files (rels, emptied) */
static void live_filters(struct search_live *L, char *filters, size_t len, struct buf *rels)
{
	L->filters = filters;
	L->filters_len = len;
	L->filter_rels = buf_detach(rels, &L->filter_rels_len);
}

void search_live_free(struct search_live *L)
{
	if (!L)
		return;
	for (size_t s = 0; s < L->x.stems.n; s++)
		if (L->scap[s]) {
			free(L->p.sdoc[s]);
			free(L->p.sq[s]);
		}
	postings_free(&L->p);
	indexer_fini(&L->x);
	free(L->scap);
	free(L->sver);
	free(L->inord);
	free(L->order);
	free(L->docs);
	free(L->cuts);
	free(L->chunks);
	free(L->filters);
	free(L->filter_rels);
	free(L);
}

size_t search_live_patched(const struct search_live *L)
{
	return L ? L->patched : 0;
}

/* ---- the patch of one document ---- */

/* What an edit touched: the words whose place in the shards may change. */
struct live_edit {
	uint32_t *w;
	size_t nw, cap;
};

static void edit_word(struct live_edit *ed, uint32_t w)
{
	if (ed->nw == ed->cap) {
		ed->cap = ed->cap ? 2 * ed->cap : 256;
		ed->w = xrealloc(ed->w, ed->cap * sizeof *ed->w);
	}
	ed->w[ed->nw++] = w;
}

/* table_get: the number of entry w[0..n) + 1, or 0 when t has none */
static uint32_t table_get(const struct table *t, const char *w, size_t n)
{
	struct key k = {w, n};
	return index_get(&t->ix, search_word_hash(w, n), entry_eq, t, &k);
}

/* count_one: d counted alone, without a cache, into t */
static void count_one(const struct search_options *o, const struct search_doc *d, struct indexer *t)
{
	struct search_options one = *o;
	one.cache = NULL;
	one.jobs = 1;
	count_all(t, &one, d, 1, 0);
}

static uint32_t live_stem(struct search_live *L, const struct table *from, uint32_t s)
{
	const struct entry *e = &from->e[s];
	int made;
	uint32_t v = table_find(&L->x.stems, from->text.p + e->off, e->len, &made);
	if (made)
		live_room(L);
	return v;
}

/* live_words: the documents of each word of N (the document as it is)
 * and O (as it was) counted again; 0, or 1 when a word of O is not known */
static int live_words(struct search_live *L, const struct indexer *O, const struct indexer *N,
		      struct live_edit *ed)
{
	for (size_t k = 0; k < N->words.n; k++) {
		const struct entry *e = &N->words.e[k];
		if (e->stem & STEM_ONLY)
			continue;
		uint32_t st = live_stem(L, &N->stems, e->stem);
		int made;
		uint32_t w = table_find(&L->x.words, N->words.text.p + e->off, e->len, &made);
		live_room(L);
		if (!L->x.wdf[w]) /* a word of a document again: its own stem */
			L->x.words.e[w].stem = st;
		L->x.wdf[w]++;
		edit_word(ed, w);
	}
	for (size_t k = 0; k < O->words.n; k++) {
		const struct entry *e = &O->words.e[k];
		if (e->stem & STEM_ONLY)
			continue;
		uint32_t w = table_get(&L->x.words, O->words.text.p + e->off, e->len);
		if (!w || !L->x.wdf[w - 1])
			return 1;
		L->x.wdf[w - 1]--;
		edit_word(ed, w - 1);
	}
	return 0;
}

/* stem_bytes: a stem's postings' bytes in a shard (as impacts_run) */
static size_t stem_bytes(const uint32_t *doc, uint32_t n)
{
	size_t b = varint_len(n) + n;
	uint32_t prev = 0;
	for (uint32_t i = 0; i < n; i++) {
		b += varint_len(doc[i] - prev);
		prev = doc[i];
	}
	return b;
}

/* live_own: stem s's postings in arrays of its own, with room for need */
static void live_own(struct search_live *L, uint32_t s, size_t need)
{
	struct postings *p = &L->p;
	if (L->scap[s] >= need)
		return;
	size_t cap = need + need / 2 + 8;
	uint32_t *doc = xmalloc(cap * sizeof *doc);
	uint8_t *q = xmalloc(cap);
	if (p->sn[s]) {
		memcpy(doc, p->sdoc[s], p->sn[s] * sizeof *doc);
		memcpy(q, p->sq[s], p->sn[s]);
	}
	if (L->scap[s]) {
		free(p->sdoc[s]);
		free(p->sq[s]);
	}
	p->sdoc[s] = doc;
	p->sq[s] = q;
	L->scap[s] = (uint32_t)cap;
}

/* live_posting: document d's posting of stem s made q (has: 1), or taken
 * away (has: 0); 0, or 1 when it was not there to take away */
static int live_posting(struct search_live *L, uint32_t s, uint32_t d, int has, uint8_t q, struct live_edit *ed)
{
	struct postings *p = &L->p;
	uint32_t n = p->sn[s], lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (p->sdoc[s][mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	int here = lo < n && p->sdoc[s][lo] == d;
	if (!here && !has)
		return 1;
	if (here && has && p->sq[s][lo] == q)
		return 0;
	live_own(L, s, (size_t)n + 1);
	if (here && has) {
		p->sq[s][lo] = q;
	} else if (has) {
		memmove(p->sdoc[s] + lo + 1, p->sdoc[s] + lo, (n - lo) * sizeof *p->sdoc[s]);
		memmove(p->sq[s] + lo + 1, p->sq[s] + lo, n - lo);
		p->sdoc[s][lo] = d;
		p->sq[s][lo] = q;
		p->sn[s]++;
	} else {
		memmove(p->sdoc[s] + lo, p->sdoc[s] + lo + 1, (n - lo - 1) * sizeof *p->sdoc[s]);
		memmove(p->sq[s] + lo, p->sq[s] + lo + 1, n - lo - 1);
		p->sn[s]--;
	}
	L->sver[s] = ++L->clock;
	p->bytes[s] = stem_bytes(p->sdoc[s], p->sn[s]);
	if (!n || !p->sn[s]) { /* a stem came or went: so does the word of its text, if no document has it */
		const struct entry *e = &L->x.stems.e[s];
		int made;
		uint32_t w = table_find(&L->x.words, L->x.stems.text.p + e->off, e->len, &made);
		live_room(L);
		edit_word(ed, w);
	}
	return 0;
}

/* A stem of the edit: its number, and its new count's byte (has 0: none) */
struct live_p {
	uint32_t s;
	int has;
	uint8_t q;
};

static int live_p_cmp(const void *a, const void *b)
{
	const struct live_p *x = a, *y = b;
	if (x->s != y->s)
		return (x->s > y->s) - (x->s < y->s);
	return y->has - x->has;
}

/* live_postings: document d's postings made N's, from O's; 0, or 1 when
 * they were not what the index held */
static int live_postings(struct search_live *L, uint32_t d, const struct indexer *O, const struct indexer *N,
			 struct live_edit *ed)
{
	size_t nn = N->dstart[1], no = O->dstart[1], k = 0;
	struct live_p *v = xcalloc(nn + no + 1, sizeof *v);
	double norm = BM25_K1 * (1 - BM25_B + BM25_B * (double)N->dlen[0] / L->avgdl);
	double tnorm = BM25_K1 * (1 - BM25_B + BM25_B * (double)N->tlen[0] / L->avgtl);
	for (size_t i = 0; i < nn; i++)
		v[k++] = (struct live_p){live_stem(L, &N->stems, N->dps[0][i]), 1,
					 impact(N->dpw[0][i], norm, tnorm)};
	for (size_t i = 0; i < no; i++) {
		const struct entry *e = &O->stems.e[O->dps[0][i]];
		uint32_t s = table_get(&L->x.stems, O->stems.text.p + e->off, e->len);
		if (!s) {
			free(v);
			return 1;
		}
		v[k++] = (struct live_p){s - 1, 0, 0};
	}
	qsort(v, k, sizeof *v, live_p_cmp);
	int bad = 0;
	for (size_t i = 0; i < k && !bad; i++)
		if (!i || v[i].s != v[i - 1].s)
			bad = live_posting(L, v[i].s, d, v[i].has, v[i].q, ed);
	free(v);
	return bad;
}

/* live_apply: document d counted as it was (O) and as it is (N) patched
 * in; 0, or 1 when the index held something else (L is then of no more
 * use) */
static int live_apply(struct search_live *L, size_t d, const struct indexer *O, const struct indexer *N,
		      struct live_edit *ed)
{
	if (O->dlen[0] != L->x.dlen[d] || O->tlen[0] != L->x.tlen[d])
		return 1;
	L->total = L->total - O->dlen[0] + N->dlen[0];
	L->ttotal = L->ttotal - O->tlen[0] + N->tlen[0];
	L->x.dlen[d] = N->dlen[0];
	L->x.tlen[d] = N->tlen[0];
	return live_words(L, O, N, ed) || live_postings(L, (uint32_t)d, O, N, ed);
}

/* live_docs: the documents changed[0..n), as they were (L->docs) and as
 * they are (docs), patched in; 0, or 1 when the index must be made whole
 * (L is then of no more use): the averages of the lengths of all of them
 * moved, or the index held something else */
static int live_docs(struct search_live *L, const struct search_doc *docs, const size_t *changed, size_t n,
		     struct live_edit *ed)
{
	struct indexer *O = xcalloc(2 * n + 1, sizeof *O), *N = O + n;
	uint64_t total = L->total, ttotal = L->ttotal;
	for (size_t i = 0; i < n; i++) {
		count_one(&L->o, &L->docs[changed[i]], &O[i]);
		count_one(&L->o, &docs[changed[i]], &N[i]);
		total = total - O[i].dlen[0] + N[i].dlen[0];
		ttotal = ttotal - O[i].tlen[0] + N[i].tlen[0];
	}
	double nd = (double)L->ndocs;
	int whole = coarse(total > 0 ? (double)total / nd : 1) != L->avgdl ||
		    coarse(ttotal > 0 ? (double)ttotal / nd : 1) != L->avgtl; /* every impact may change */
	for (size_t i = 0; i < n && !whole; i++) {
		whole = live_apply(L, changed[i], &O[i], &N[i], ed);
		L->docs[changed[i]] = docs[changed[i]];
	}
	for (size_t i = 0; i < n; i++) {
		indexer_fini(&O[i]);
		indexer_fini(&N[i]);
	}
	free(O);
	return whole;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* order_at: where word w is, or goes, in L's order */
static size_t order_at(const struct search_live *L, uint32_t w)
{
	size_t lo = 0, hi = L->norder;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (word_cmp(&L->order[mid], &w, (void *)&L->x) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* live_place: each word the edit touched in the shards or not, as a whole
 * index would have it: a word of a document; else, a stem's text while
 * the stem has postings (STEM_ONLY); else none */
static void live_place(struct search_live *L, struct live_edit *ed)
{
	if (ed->nw)
		qsort(ed->w, ed->nw, sizeof *ed->w, u32_cmp);
	for (size_t i = 0; i < ed->nw; i++) {
		uint32_t w = ed->w[i];
		if (i && w == ed->w[i - 1])
			continue;
		struct entry *e = &L->x.words.e[w];
		int in = L->x.wdf[w] > 0;
		if (!in) {
			uint32_t s = table_get(&L->x.stems, L->x.words.text.p + e->off, e->len);
			in = s && L->p.sn[s - 1] > 0;
			if (in)
				e->stem = (s - 1) | STEM_ONLY;
		}
		if (in == L->inord[w])
			continue;
		size_t at = order_at(L, w);
		if (in) {
			if (L->norder == L->order_cap) {
				L->order_cap = 2 * L->order_cap + 64;
				L->order = xrealloc(L->order, L->order_cap * sizeof *L->order);
			}
			memmove(L->order + at + 1, L->order + at, (L->norder - at) * sizeof *L->order);
			L->order[at] = w;
			L->norder++;
		} else {
			memmove(L->order + at, L->order + at + 1, (L->norder - at - 1) * sizeof *L->order);
			L->norder--;
		}
		L->inord[w] = (uint8_t)in;
	}
}

/* same_doc: a and b are the same texts (the same bytes, where they are) */
static int same_doc(const struct search_doc *a, const struct search_doc *b)
{
	const struct str *x[] = {&a->url, &a->title, &a->date, &a->series, &a->excerpt, &a->summary, &a->body_html};
	const struct str *y[] = {&b->url, &b->title, &b->date, &b->series, &b->excerpt, &b->summary, &b->body_html};
	for (size_t i = 0; i < sizeof x / sizeof *x; i++)
		if (x[i]->p != y[i]->p || x[i]->len != y[i]->len)
			return 0;
	return a->tags == b->tags && a->ntags == b->ntags && a->body_hash == b->body_hash;
}

/* LIVE_MAX: documents an edit may change before the index is made whole */
#define LIVE_MAX 64

/* live_named: a file of the last index, kept by its name (no bytes: the
 * output has it) */
static void live_rel(struct files *f, const char *rel);

static void live_named(struct files *f, const char *dir, const char *ext, const char *name)
{
	char rel[64];
	snprintf(rel, sizeof rel, "search/%s/%s.%s", dir, name, ext);
	live_rel(f, rel);
}

static void live_rel(struct files *f, const char *rel)
{
	if (index_get_str(&f->names, rel, file_rel, f))
		return;
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->v = xrealloc(f->v, f->cap * sizeof *f->v);
	}
	f->v[f->n++] = (struct search_file){arena_strndup(f->a, rel, strlen(rel)), NULL, 0};
	index_add_str(&f->names, f->v[f->n - 1].rel, (uint32_t)f->n, 64, file_rel, f);
}

/* live_files: the files of L's index once patched: those of a cut whose
 * fingerprint is new, and of a chunk a document of changed[] is in, made;
 * the others named */
static void live_files(struct search_live *L, struct arena *a, const struct search_doc *docs, const size_t *changed,
		       size_t nchanged, struct search_index *out)
{
	struct sharding sh;
	memset(&sh, 0, sizeof sh);
	sh.x = &L->x;
	sh.p = &L->p;
	sh.order = L->order;
	cut_groups(&sh, L->norder);
	uint64_t *fp = live_cuts(L, &sh);
	size_t nf = sh.ncuts + L->nchunks, nw = 0;
	size_t *which = xcalloc(nf + 1, sizeof *which);
	const char **names = xcalloc(nf + 1, sizeof *names);
	for (size_t i = 0; i < sh.ncuts; i++) {
		struct live_cut k = {fp[i], ""}, *old = bsearch(&k, L->cuts, L->ncuts, sizeof k, live_cut_cmp);
		if (old)
			names[i] = old->name;
		else
			which[nw++] = i;
	}
	for (size_t i = 0; i < nchanged; i++) {
		size_t c = changed[i] / DOCS_PER_CHUNK;
		if (!names[sh.ncuts + c]) {
			names[sh.ncuts + c] = "";
			which[nw++] = sh.ncuts + c;
		}
	}
	for (size_t c = 0; c < L->nchunks; c++)
		if (!names[sh.ncuts + c])
			names[sh.ncuts + c] = L->chunks[c];
	struct made *made = xcalloc(nf + 1, sizeof *made);
	make_some(&sh, docs, L->ndocs, L->o.jobs, which, nw, made);
	struct files f;
	memset(&f, 0, sizeof f);
	f.a = a;
	unsigned char *fresh = xcalloc(nf + 1, 1);
	for (size_t k = 0; k < nw; k++)
		fresh[which[k]] = 1;
	for (size_t i = 0; i < nf; i++) {
		const char *dir = i < sh.ncuts ? "t" : "d", *ext = i < sh.ncuts ? "bin" : "json";
		if (fresh[i])
			names[i] = add_made(&f, dir, ext, made[i]);
		else
			live_named(&f, dir, ext, names[i]);
	}
	struct buf meta;
	meta_begin(&meta, L->ndocs);
	meta_files(&sh, names, L->nchunks, &meta);
	/* the filters of the index made whole: the same posts */
	buf_append(&meta, L->filters, L->filters_len);
	for (size_t at = 0; at < L->filter_rels_len; at += strlen(L->filter_rels + at) + 1)
		live_rel(&f, L->filter_rels + at);
	files_finish(&f, a, &meta, out);
	for (size_t c = 0; c < L->nchunks; c++)
		if (names[sh.ncuts + c] != L->chunks[c])
			snprintf(L->chunks[c], sizeof L->chunks[c], "%s", names[sh.ncuts + c]);
	live_keep_cuts(L, &sh, fp, names);
	out->ndocs = L->ndocs;
	out->nwords = L->norder;
	out->nstems = L->x.stems.n;
	out->nshards = sh.ncuts;
	free(fresh);
	free(made);
	free(names);
	free(which);
	free(fp);
	free(sh.cuts);
}

int search_live_update(struct search_live *L, struct arena *a, const struct search_options *o,
		       const struct search_doc *docs, size_t n, struct search_index *out)
{
	memset(out, 0, sizeof *out);
	if (n != L->ndocs || o->body != L->o.body || o->pages != L->o.pages || o->stem != L->o.stem ||
	    o->language.len != L->o.language.len || memcmp(o->language.p, L->o.language.p, o->language.len))
		return 1;
	size_t changed[LIVE_MAX], nchanged = 0;
	for (size_t d = 0; d < n; d++)
		if (!same_doc(&L->docs[d], &docs[d])) {
			if (nchanged == LIVE_MAX)
				return 1;
			changed[nchanged++] = d;
		}
	struct live_edit ed = {NULL, 0, 0};
	if (live_docs(L, docs, changed, nchanged, &ed)) {
		free(ed.w);
		return 1;
	}
	live_place(L, &ed);
	free(ed.w);
	live_files(L, a, docs, changed, nchanged, out);
	L->patched += nchanged;
	return 0;
}

/* ---- the site's documents ---- */

static struct str rel_url(struct str u)
{
	if (u.len && u.p[0] == '/')
		return (struct str){u.p + 1, u.len - 1};
	return u;
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
	size_t sorted = 1;
	while (sorted < m && v[sorted - 1] < v[sorted])
		sorted++;
	if (sorted < m) /* (a tag's posts are in the site's order, mostly) */
		qsort(v, m, sizeof *v, u32_cmp);
	return (struct search_filter){name, v, m};
}

/* The site's documents and filters, as search_index_docs takes them. */
struct site_docs {
	struct search_doc *docs;
	size_t n;
	struct search_filter *series, *tags;
	size_t nseries, ntags;
};

static void site_docs(struct arena *a, const struct site *s, const struct search_options *o, int filters,
		      struct site_docs *sd)
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
	for (size_t i = 0; filters && i < s->nseries; i++)
		sf[i] = filter_of(a, s, s->series[i]->title, s->series[i]->posts, s->series[i]->nposts);
	struct search_filter *tf = xcalloc(s->ntags + 1, sizeof *tf);
	for (size_t i = 0; filters && i < s->ntags; i++)
		tf[i] = filter_of(a, s, s->tags[i].name, s->tags[i].posts, s->tags[i].nposts);
	*sd = (struct site_docs){docs, n, sf, tf, s->nseries, s->ntags};
}

static void site_docs_free(struct site_docs *sd)
{
	free(sd->docs);
	free(sd->series);
	free(sd->tags);
}

void search_index_site(struct arena *a, const struct site *s, const struct search_options *o,
		       struct search_index *out)
{
	struct site_docs sd;
	site_docs(a, s, o, 1, &sd);
	search_index_docs(a, o, sd.docs, sd.n, sd.series, sd.nseries, sd.tags, sd.ntags, out);
	site_docs_free(&sd);
}

/* index_site: the site's index, patched into *live when it holds one and
 * the patch goes (*patched set), else made whole (and kept in *live when
 * live is not NULL); a patch's files, and the lists of filters, made in
 * *tmp (a new arena, freed once they are written), the others in a */
static void index_site(struct arena *a, const struct site *s, const struct search_options *o,
		       struct search_live **live, struct arena **tmp, int *patched, struct search_index *ix)
{
	*patched = 0;
	*tmp = live && *live ? arena_new() : NULL;
	struct site_docs sd;
	/* (a patch keeps the filters of the index it patches) */
	site_docs(*tmp ? *tmp : a, s, o, !*tmp, &sd);
	if (live && *live) {
		if (!search_live_update(*live, *tmp, o, sd.docs, sd.n, ix))
			*patched = 1;
		else {
			search_live_free(*live);
			*live = NULL;
			site_docs_free(&sd);
			site_docs(*tmp, s, o, 1, &sd);
		}
	}
	if (!*patched && live)
		search_index_docs_kept(a, o, sd.docs, sd.n, sd.series, sd.nseries, sd.tags, sd.ntags, ix, live);
	else if (!*patched)
		search_index_docs(a, o, sd.docs, sd.n, sd.series, sd.nseries, sd.tags, sd.ntags, ix);
	site_docs_free(&sd);
}

static double ms_since(const struct timespec *t0, clockid_t clk)
{
	struct timespec t1;
	clock_gettime(clk, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* write_index: ix's files handed to sink, each not kept by reuse written
 * (a patch's file without bytes must be kept: 1 when one is not); the
 * errors counted into *errors */
static int write_index(const struct search_index *ix, search_reuse_fn reuse, void *reuse_ctx,
		       const struct output_sink *sink, int *errors)
{
	for (size_t i = 0; i < ix->nfiles; i++) {
		const struct search_file *f = &ix->files[i];
		/* the entry point is always written: its name is not its hash */
		if (reuse && i + 1 < ix->nfiles && reuse(reuse_ctx, f->rel) == 0)
			continue;
		if (!f->data)
			return 1;
		if (sink->write(sink->ctx, f->rel, f->data, f->len))
			(*errors)++;
	}
	return 0;
}

int search_output(struct arena *a, const struct site *s, int jobs, struct search_cache *cache, search_reuse_fn reuse,
		  void *reuse_ctx, const struct output_sink *sink, struct search_live **live, int *patched)
{
	const struct config *c = s->cfg;
	int dummy;
	patched = patched ? patched : &dummy;
	*patched = 0;
	if (!c->search)
		return 0;
	struct search_options o = {c->search_body, c->search_pages, c->search_stem, c->language, jobs, cache};
	struct search_index ix;
	struct timespec t0, w0;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	clock_gettime(CLOCK_MONOTONIC, &w0);
	struct arena *tmp;
	index_site(a, s, &o, live, &tmp, patched, &ix);
	if (getenv("FOLIO_TIMINGS"))
		fprintf(stderr,
			"folio: search index: %.1f ms of CPU (the process's), %.1f ms wall, %zu documents (%zu %s), "
			"%zu words, %zu stems, %zu shards\n",
			ms_since(&t0, CLOCK_PROCESS_CPUTIME_ID), ms_since(&w0, CLOCK_MONOTONIC), ix.ndocs,
			*patched ? search_live_patched(*live) : ix.ncached,
			*patched ? "patched in this session" : "counted before", ix.nwords, ix.nstems, ix.nshards);
	int errors = 0;
	if (write_index(&ix, reuse, reuse_ctx, sink, &errors)) {
		/* a file the patch kept is not in the output: the index whole */
		search_live_free(*live);
		*live = NULL;
		arena_free(tmp);
		index_site(a, s, &o, live, &tmp, patched, &ix);
		(void)write_index(&ix, reuse, reuse_ctx, sink, &errors);
	}
	arena_free(tmp);
	return errors;
}
