/* links.c: the check of the built site's links: what each page holds
 * (its ids and links, recorded as it is rendered), and every internal
 * link, image and #fragment checked against the files and ids of the
 * build, each broken one reported where its text is (see links.h). */
#include "check/links.h"

#include "base/hash.h"
#include "base/index.h"
#include "base/map.h"

#include <ctype.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* ---- a set of strings (base/map.h; keys owned elsewhere), each with a
 * position ---- */

/* sset_put: adds k (kept as a pointer) with val; returns 1 if new. */
static int sset_put(struct map *s, const char *k, size_t len, size_t val)
{
	int added;
	struct map_entry *e = map_put(s, k, len, &added);
	if (added)
		e->val.u = val;
	return added;
}

/* sset_get: k's value, or (size_t)-1. */
static size_t sset_get(const struct map *s, const char *k, size_t len)
{
	const struct map_entry *e = map_find(s, k, len);
	return e ? (size_t)e->val.u : (size_t)-1;
}

/* ---- recording a page ---- */

struct recorder {
	struct buf out, tmp;
	struct index ix; /* offsets + 1 of the entries in out */
};

static uint64_t rec_hash(const void *ctx, uint32_t v)
{
	const char *e = ((const struct recorder *)ctx)->out.p + v - 1;
	return hash_bytes(e, strlen(e));
}

static int rec_eq(const void *ctx, uint32_t v, const void *key)
{
	const char *e = ((const struct recorder *)ctx)->out.p + v - 1;
	const struct str *k = key;
	return strlen(e) == k->len && !memcmp(e, k->p, k->len);
}

static int record_one(void *ctx, enum links_kind kind, const char *v, size_t n, size_t at)
{
	(void)at;
	struct recorder *r = ctx;
	buf_reset(&r->tmp);
	buf_putc(&r->tmp, kind == LINKS_ID ? 'i' : 'l');
	links_unescape(&r->tmp, v, n);
	if (kind == LINKS_URL && r->tmp.len == 1)
		return 0; /* href="": the page itself */
	if (memchr(r->tmp.p, '\0', r->tmp.len) || r->out.len + r->tmp.len + 1 >= UINT32_MAX)
		return 0; /* never a name of the site */
	struct str k = {r->tmp.p, r->tmp.len};
	uint64_t h = hash_bytes(k.p, k.len);
	if (index_get(&r->ix, h, rec_eq, r, &k))
		return 0;
	uint32_t off = (uint32_t)r->out.len + 1;
	buf_append(&r->out, r->tmp.p, r->tmp.len);
	buf_putc(&r->out, '\0');
	index_add(&r->ix, h, off, 256, rec_hash, r);
	return 0;
}

/* A thread's scratch for links_record, kept from page to page: a build
 * records thousands of pages on each render thread, and fresh buffers for
 * each (the whole page, when it comes in parts, and the table) cost a page
 * fault per 4 KiB touched. Freed when the thread ends. */
struct rec_scratch {
	struct buf all, out, tmp;
	struct index ix;
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *p)
{
	struct rec_scratch *sc = p;
	buf_fini(&sc->all);
	buf_fini(&sc->out);
	buf_fini(&sc->tmp);
	index_fini(&sc->ix);
	free(sc);
}

static void scratch_key_make(void)
{
	pthread_key_create(&scratch_key, scratch_free);
}

static struct rec_scratch *scratch(void)
{
	pthread_once(&scratch_once, scratch_key_make);
	struct rec_scratch *sc = pthread_getspecific(scratch_key);
	if (!sc) {
		sc = xcalloc(1, sizeof *sc);
		buf_init(&sc->all);
		buf_init(&sc->out);
		buf_init(&sc->tmp);
		pthread_setspecific(scratch_key, sc);
	}
	return sc;
}

/* SCRATCH_KEEP: the most bytes of a scratch buffer kept for the next page
 * (a 100 MB page's buffers are not held for the rest of the build). */
#define SCRATCH_KEEP ((size_t)8 << 20)

static void scratch_trim(struct buf *b)
{
	if (b->cap > SCRATCH_KEEP) {
		buf_fini(b);
		buf_init(b);
	}
}

char *links_record(const struct str *parts, size_t nparts, size_t *len)
{
	struct rec_scratch *sc = scratch();
	struct recorder r;
	memset(&r, 0, sizeof r);
	r.out = sc->out;
	r.tmp = sc->tmp;
	r.ix = sc->ix;
	buf_reset(&r.out);
	if (r.ix.cap)
		memset(r.ix.slot, 0, r.ix.cap * sizeof *r.ix.slot);
	r.ix.n = 0;
	if (nparts == 1) {
		links_scan(parts[0].p, parts[0].len, record_one, &r);
	} else {
		buf_reset(&sc->all);
		for (size_t i = 0; i < nparts; i++)
			buf_append(&sc->all, parts[i].p, parts[i].len);
		links_scan(sc->all.p ? sc->all.p : "", sc->all.len, record_one, &r);
		scratch_trim(&sc->all);
	}
	char *rec = NULL;
	*len = r.out.len;
	if (r.out.len) {
		rec = xmalloc(r.out.len);
		memcpy(rec, r.out.p, r.out.len);
	}
	sc->out = r.out;
	sc->tmp = r.tmp;
	scratch_trim(&sc->out);
	scratch_trim(&sc->tmp);
	if (r.ix.cap > 4096) /* a table of thousands of links is not cleared for each page after */
		index_fini(&r.ix);
	sc->ix = r.ix;
	return rec;
}

/* ---- the check ---- */

struct lpage {
	const char *out, *rec, *src, *src_text;
	size_t rec_len, src_len;
	const char *const *ignore;
	size_t nignore;
	struct map ids; /* the ids of rec, made when a link first asks */
	int has_ids;
	size_t shown, hidden; /* problems reported, and past the limit */
	size_t told;          /* problems reported (not notes), by the last run */
};

/* LINKS_SHOWN: the most problems told of one page; the rest are counted
 * (the 1,000th broken link of a page tells nothing the first ones did not,
 * and finding each one in the source costs a search of it). */
#define LINKS_SHOWN 50

struct links_check {
	const char *base;
	size_t base_len;
	char *origin; /* "https://example.org" of base_url (links_check_site), or NULL */
	size_t origin_len; /* its length (0: none) */
	int list_ignored; /* links_check_list_ignored */
	int note_level;   /* report() says a note (an ignored link listed) */
	enum links_mode mode;
	char **files;
	size_t nfiles, cap_files;
	struct map fileset;
	struct lpage *pages;
	size_t npages, cap_pages;
	struct map pageset; /* out -> page index */
	const struct links_text *texts;
	size_t ntexts;
	size_t checked;
	const char **urls; /* the page URLs, for "did you mean" */
	size_t nurls;
	struct map later; /* out of a page left out of this build -> its reason (in why) */
	char **why;
	size_t nwhy;
	const unsigned char *only; /* NULL, or the pages to check (links_check_only) */
	size_t reported;           /* by the last run */
	uint64_t *targets;         /* the hashes of the files the last run's links led to */
	size_t ntargets, cap_targets;
	links_source_fn source; /* the text of a source not given (links_check_sources) */
	void *source_ctx;
};

void links_check_sources(struct links_check *lc, links_source_fn fn, void *ctx)
{
	lc->source = fn;
	lc->source_ctx = ctx;
}

struct links_check *links_check_new(const char *base_path, enum links_mode mode)
{
	struct links_check *lc = xcalloc(1, sizeof *lc);
	lc->base = xstrndup(base_path ? base_path : "/", strlen(base_path ? base_path : "/"));
	lc->base_len = strlen(lc->base);
	lc->mode = mode;
	return lc;
}

void links_check_site(struct links_check *lc, const char *base_url, size_t len)
{
	const char *sep = len > 3 ? memmem(base_url, len, "://", 3) : NULL;
	if (!sep || !links_has_scheme(base_url, len))
		return;
	const char *host = sep + 3, *end = base_url + len;
	const char *slash = memchr(host, '/', (size_t)(end - host));
	size_t olen = (size_t)((slash ? slash : end) - base_url);
	if (olen == (size_t)(host - base_url))
		return;
	free(lc->origin);
	lc->origin = xstrndup(base_url, olen);
	lc->origin_len = olen;
}

void links_check_list_ignored(struct links_check *lc)
{
	lc->list_ignored = 1;
}

void links_check_free(struct links_check *lc)
{
	if (!lc)
		return;
	for (size_t i = 0; i < lc->nfiles; i++)
		free(lc->files[i]);
	free(lc->files);
	map_fini(&lc->fileset);
	for (size_t i = 0; i < lc->npages; i++) {
		map_fini(&lc->pages[i].ids);
	}
	free(lc->pages);
	map_fini(&lc->pageset);
	for (size_t i = 0; i < lc->nurls; i++)
		free((char *)lc->urls[i]);
	free(lc->urls);
	free((char *)lc->base);
	free(lc->origin);
	for (size_t i = 0; i < lc->nwhy * 2; i++)
		free(lc->why[i]);
	free(lc->why);
	map_fini(&lc->later);
	free(lc->targets);
	free(lc);
}

void links_check_later(struct links_check *lc, const char *out, const char *why)
{
	if (sset_get(&lc->later, out, strlen(out)) != (size_t)-1)
		return;
	lc->why = xrealloc(lc->why, (lc->nwhy + 1) * 2 * sizeof *lc->why);
	lc->why[lc->nwhy * 2] = xstrndup(out, strlen(out));
	lc->why[lc->nwhy * 2 + 1] = xstrndup(why, strlen(why));
	sset_put(&lc->later, lc->why[lc->nwhy * 2], strlen(out), lc->nwhy * 2 + 1);
	lc->nwhy++;
}

void links_check_file(struct links_check *lc, const char *out)
{
	if (sset_get(&lc->fileset, out, strlen(out)) != (size_t)-1)
		return;
	if (lc->nfiles == lc->cap_files) {
		lc->cap_files = lc->cap_files ? lc->cap_files * 2 : 1024;
		lc->files = xrealloc(lc->files, lc->cap_files * sizeof *lc->files);
	}
	char *k = xstrndup(out, strlen(out));
	lc->files[lc->nfiles++] = k;
	sset_put(&lc->fileset, k, strlen(k), lc->nfiles - 1);
}

void links_check_page(struct links_check *lc, const char *out, const char *rec, size_t rec_len, const char *src,
		      const char *src_text, size_t src_len, const char *const *ignore, size_t nignore)
{
	links_check_file(lc, out);
	if (lc->npages == lc->cap_pages) {
		lc->cap_pages = lc->cap_pages ? lc->cap_pages * 2 : 1024;
		lc->pages = xrealloc(lc->pages, lc->cap_pages * sizeof *lc->pages);
	}
	struct lpage *p = &lc->pages[lc->npages++];
	memset(p, 0, sizeof *p);
	p->out = lc->files[sset_get(&lc->fileset, out, strlen(out))];
	p->rec = rec;
	p->rec_len = rec ? rec_len : 0;
	p->src = src;
	p->src_text = src_text;
	p->src_len = src_len;
	p->ignore = ignore;
	p->nignore = nignore;
	sset_put(&lc->pageset, p->out, strlen(p->out), lc->npages - 1);
}

void links_check_repage(struct links_check *lc, size_t i, const char *rec, size_t rec_len, const char *src_text,
			size_t src_len)
{
	if (i >= lc->npages)
		return;
	struct lpage *p = &lc->pages[i];
	p->rec = rec;
	p->rec_len = rec ? rec_len : 0;
	p->src_text = src_text;
	p->src_len = src_len;
	map_fini(&p->ids);
	memset(&p->ids, 0, sizeof p->ids);
	p->has_ids = 0;
	p->shown = p->hidden = 0;
}

void links_check_texts(struct links_check *lc, const struct links_text *t, size_t n)
{
	lc->texts = t;
	lc->ntexts = n;
}

size_t links_check_count(const struct links_check *lc)
{
	return lc->checked;
}

/* next_id: the next "i" entry of a record from *r, or NULL. */
static const char *next_id(const char **r, const char *end)
{
	while (*r && *r < end) {
		const char *e = *r;
		*r += strlen(e) + 1;
		if (e[0] == 'i')
			return e;
	}
	return NULL;
}

int links_record_same_ids(const char *a, size_t alen, const char *b, size_t blen)
{
	const char *ae = a ? a + alen : NULL, *be = b ? b + blen : NULL;
	for (;;) {
		const char *x = next_id(&a, ae), *y = next_id(&b, be);
		if (!x || !y)
			return !x && !y;
		if (strcmp(x, y))
			return 0;
	}
}

void links_check_only(struct links_check *lc, const unsigned char *which)
{
	lc->only = which;
}

size_t links_check_reported(const struct links_check *lc)
{
	return lc->reported;
}

/* ---- the memo of a check: "folio-links 2\n" (16 bytes), the key, the
 * number of targets, the number of pages that reported, then the
 * targets' hashes, sorted, each once, then those of the pages' paths,
 * the same (the numbers as buf.h's load_u64 reads them) ---- */
#define MEMO_MAGIC "folio-links 2\n"
#define MEMO_HEAD 40

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* struct memo: a memo's parts, where they lie in its bytes */
struct memo {
	uint64_t key;
	size_t ntargets, nreported;
	const char *targets, *reported; /* 8 bytes each */
};

/* memo_parse: memo[0..len) into m; -1 when it is not a memo */
static int memo_parse(const char *memo, size_t len, struct memo *m)
{
	if (!memo || len < MEMO_HEAD || memcmp(memo, MEMO_MAGIC, strlen(MEMO_MAGIC)))
		return -1;
	uint64_t nt = load_u64(memo + 24), nr = load_u64(memo + 32), room = (len - MEMO_HEAD) / 8;
	if (nt > room || nr > room - nt || len != MEMO_HEAD + (nt + nr) * 8)
		return -1;
	*m = (struct memo){load_u64(memo + 16), (size_t)nt, (size_t)nr, memo + MEMO_HEAD, memo + MEMO_HEAD + nt * 8};
	return 0;
}

/* memo_has: whether the sorted hashes at v[0..n) hold h */
static int memo_has(const char *v, size_t n, uint64_t h)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t x = load_u64(v + mid * 8);
		if (x == h)
			return 1;
		if (x < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* sorted_once: v[0..n) sorted, each once; the count kept */
static size_t sorted_once(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_u64);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

/* merge_targets: the sorted t[0..n) (room for m's too) and the last memo's
 * targets m, sorted, each once: their count. A memo's are sorted: merged
 * (a patch's run adds a few to a site's); else sorted again. */
static size_t merge_targets(uint64_t *t, size_t n, const struct memo *m)
{
	size_t k = m->ntargets, i = n, j = k, at = n + k;
	int sorted = 1;
	for (size_t x = 1; x < k && sorted; x++)
		sorted = load_u64(m->targets + (x - 1) * 8) < load_u64(m->targets + x * 8);
	if (!sorted) {
		for (size_t x = 0; x < k; x++)
			t[n + x] = load_u64(m->targets + x * 8);
		return sorted_once(t, n + k);
	}
	/* from the end, into t's room: the larger of the two last */
	while (j > 0) {
		uint64_t b = load_u64(m->targets + (j - 1) * 8);
		if (i > 0 && t[i - 1] > b)
			t[--at] = t[--i];
		else if (i > 0 && t[i - 1] == b)
			t[--at] = t[--i], j--;
		else
			t[--at] = b, j--;
	}
	while (i > 0)
		t[--at] = t[--i];
	/* (a value in both is there once: the rest moved down) */
	if (at)
		memmove(t, t + at, (n + k - at) * sizeof *t);
	return n + k - at;
}

char *links_check_memo(const struct links_check *lc, uint64_t key, const char *last, size_t last_len, size_t *len)
{
	*len = 0;
	if (lc->mode == LINKS_OFF)
		return NULL;
	struct memo was = {0};
	if (lc->only && (memo_parse(last, last_len, &was) || was.key != key))
		return NULL; /* the other pages' targets are not known */
	/* the targets: this run's and, after a run on some pages, the last's */
	size_t nt = lc->ntargets + was.ntargets;
	uint64_t *t = xmalloc((nt + 1) * sizeof *t);
	if (lc->ntargets) /* (targets NULL before the first) */
		memcpy(t, lc->targets, lc->ntargets * sizeof *t);
	nt = merge_targets(t, sorted_once(t, lc->ntargets), &was);
	/* the pages that reported: this run's, and those the last run said
	 * that this one did not check */
	uint64_t *r = xmalloc((lc->npages + 1) * sizeof *r);
	size_t nr = 0;
	for (size_t i = 0; i < lc->npages; i++) {
		const struct lpage *p = &lc->pages[i];
		int checked = !lc->only || lc->only[i];
		if (checked ? p->told != 0 : was.nreported != 0) {
			uint64_t h = hash_bytes(p->out, strlen(p->out));
			if (checked || memo_has(was.reported, was.nreported, h))
				r[nr++] = h;
		}
	}
	nr = sorted_once(r, nr);
	struct buf b;
	buf_init(&b);
	char head[16] = {0};
	memcpy(head, MEMO_MAGIC, strlen(MEMO_MAGIC));
	buf_append(&b, head, sizeof head);
	buf_append(&b, &key, 8);
	uint64_t counts[2] = {nt, nr};
	buf_append(&b, counts, sizeof counts);
	buf_append(&b, t, nt * sizeof *t);
	buf_append(&b, r, nr * sizeof *r);
	free(t);
	free(r);
	*len = b.len;
	return b.p;
}

int links_check_memo_holds(const struct links_check *lc, uint64_t key, const char *memo, size_t len)
{
	struct memo m;
	if (memo_parse(memo, len, &m) || m.key != key)
		return 0;
	/* the build's files, as a sorted array of hashes to look the targets up in */
	uint64_t *files = xmalloc((lc->nfiles + 1) * sizeof *files);
	for (size_t i = 0; i < lc->nfiles; i++)
		files[i] = hash_bytes(lc->files[i], strlen(lc->files[i]));
	qsort(files, lc->nfiles, sizeof *files, cmp_u64);
	int holds = 1;
	for (size_t i = 0; i < m.ntargets && holds; i++) {
		uint64_t t = load_u64(m.targets + i * 8);
		holds = bsearch(&t, files, lc->nfiles, sizeof *files, cmp_u64) != NULL;
	}
	free(files);
	return holds;
}

size_t links_memo_told(const char *memo, size_t len, const char *const *outs, size_t n, unsigned char *which)
{
	struct memo m;
	size_t marked = 0;
	if (memo_parse(memo, len, &m) || !m.nreported)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!which[i] && memo_has(m.reported, m.nreported, hash_bytes(outs[i], strlen(outs[i])))) {
			which[i] = 1;
			marked++;
		}
	return marked;
}

uint64_t links_memo_key(const char *memo, size_t len)
{
	struct memo m;
	return memo_parse(memo, len, &m) ? 0 : m.key;
}

/* page_has_id: whether the page's record lists id (a set of them is made
 * at the first question, so that a page of 100k headings and a contents
 * list of links to them is checked in linear time). */
static int page_has_id(const struct lpage *cp, const char *id, size_t n)
{
	struct lpage *p = (struct lpage *)cp;
	if (!p->has_ids) {
		p->has_ids = 1;
		const char *r, *end = p->rec ? p->rec + p->rec_len : NULL; /* NULL + 0 is undefined */
		size_t nids = 0;
		for (r = p->rec; r && r < end; r += strlen(r) + 1)
			nids += r[0] == 'i';
		map_reserve(&p->ids, nids); /* sized once: most pages have a few ids */
		for (r = p->rec; r && r < end; r += strlen(r) + 1)
			if (r[0] == 'i')
				sset_put(&p->ids, r + 1, strlen(r + 1), 0);
	}
	return p->ids.n && sset_get(&p->ids, id, n) != (size_t)-1;
}

/* SHOWN_MAX: the most bytes of a URL a message shows ("…" after). */
#define SHOWN_MAX 200
#define SHOWN(s, n) (int)((n) > SHOWN_MAX ? SHOWN_MAX : (n)), (s), ((n) > SHOWN_MAX ? "…" : "")

/* url_of: the URL of out, for messages ("posts/x/index.html" ->
 * "/posts/x/"). */
static void url_of(struct buf *b, const char *out)
{
	size_t n = strlen(out);
	buf_putc(b, '/');
	if (n >= 10 && !strcmp(out + n - 10, "index.html") && (n == 10 || out[n - 11] == '/'))
		n -= 10; /* a folder's index, not myindex.html */
	buf_printf(b, "%.*s%s", SHOWN(out, n));
}

/* The outcome of resolving a link. */
enum verdict { V_OK, V_EXTERNAL, V_NO_FILE, V_NO_ID, V_OUT_OF_BASE, V_OUT_OF_SITE };

struct target {
	struct buf rel; /* the site-relative file */
	const struct lpage *page;
	const char *frag;
	size_t frag_len;
};

static enum verdict resolve(struct links_check *lc, const struct lpage *from, const char *u, size_t ul,
			    struct target *t)
{
	buf_reset(&t->rel);
	t->page = NULL;
	t->frag = NULL;
	t->frag_len = 0;
	size_t ol = lc->origin_len;
	if (ol && ul > ol && u[ol] == '/' && !strncasecmp(u, lc->origin, ol)) {
		/* the site's own address, written whole (an og:image): its path */
		u += ol;
		ul -= ol;
	}
	if (links_has_scheme(u, ul) || (ul >= 2 && u[0] == '/' && u[1] == '/'))
		return V_EXTERNAL;
	size_t pl = 0;
	while (pl < ul && u[pl] != '#' && u[pl] != '?')
		pl++;
	const char *hash = memchr(u, '#', ul);
	if (hash) {
		t->frag = hash + 1;
		t->frag_len = ul - (size_t)(hash + 1 - u);
	}
	if (pl == 0) {
		buf_puts(&t->rel, from->out);
	} else {
		struct buf raw;
		buf_init(&raw);
		if (u[0] == '/') {
			size_t bl = lc->base_len;
			if (!(pl >= bl && !memcmp(u, lc->base, bl)) && !(pl == bl - 1 && !memcmp(u, lc->base, pl))) {
				buf_fini(&raw);
				return V_OUT_OF_BASE;
			}
			size_t skip = pl >= bl ? bl : pl;
			links_pct_decode(&raw, u + skip, pl - skip);
		} else {
			const char *slash = strrchr(from->out, '/');
			if (slash)
				buf_append(&raw, from->out, (size_t)(slash - from->out) + 1);
			links_pct_decode(&raw, u, pl);
		}
		buf_putc(&raw, '\0');
		if (links_normalize(raw.p) != 0) {
			buf_fini(&raw);
			return V_OUT_OF_SITE;
		}
		buf_puts(&t->rel, raw.p);
		buf_fini(&raw);
		if (!t->rel.len || t->rel.p[t->rel.len - 1] == '/')
			buf_puts(&t->rel, "index.html");
	}
	buf_putc(&t->rel, '\0');
	t->rel.len--;
	size_t fi = sset_get(&lc->fileset, t->rel.p, t->rel.len);
	if (fi == (size_t)-1) {
		/* a folder: served as its index.html */
		size_t n = t->rel.len;
		buf_puts(&t->rel, "/index.html");
		fi = sset_get(&lc->fileset, t->rel.p, t->rel.len);
		if (fi == (size_t)-1) {
			t->rel.len = n;
			t->rel.p[n] = '\0';
			return V_NO_FILE;
		}
	}
	size_t pi = sset_get(&lc->pageset, t->rel.p, t->rel.len);
	t->page = pi == (size_t)-1 ? NULL : &lc->pages[pi];
	if (t->frag && t->frag_len && t->page && !(t->frag_len == 3 && !memcmp(t->frag, "top", 3))) {
		struct buf id;
		buf_init(&id);
		links_pct_decode(&id, t->frag, t->frag_len);
		int ok = page_has_id(t->page, id.p ? id.p : "", id.len);
		buf_fini(&id);
		if (!ok)
			return V_NO_ID;
	}
	return V_OK;
}

/* ---- where a link is written ---- */

static int urlish(int c)
{
	return !(is_space(c) || c == '"' || c == '\'' || c == '(' || c == ')' || c == '<' || c == '>' ||
		 c == '[' || c == ']' || c == '{' || c == '}' || c == '|' || c == '`');
}

/* find_all: the offsets (at most max) in text where s stands as a whole
 * URL (not inside a longer one). Returns how many. */
static size_t find_all(const char *text, size_t len, const char *s, size_t n, size_t *at, size_t max)
{
	size_t k = 0, from = 0;
	if (!n || !text)
		return 0;
	while (k < max && from + n <= len) {
		const char *hit = memmem(text + from, len - from, s, n);
		if (!hit)
			break;
		size_t o = (size_t)(hit - text);
		int before = o == 0 || !urlish((unsigned char)text[o - 1]);
		int after = o + n == len || !urlish((unsigned char)text[o + n]);
		if (before && after)
			at[k++] = o;
		from = o + 1;
	}
	return k;
}

static void line_col(const char *text, size_t off, int *line, int *col)
{
	size_t l, ls;
	diag_line_col(text, off, &l, &ls);
	*line = (int)l + 1;
	*col = (int)(off - ls) + 1;
}

struct place {
	const char *path, *text;
	size_t len;
	size_t at[16];
	size_t n;
};

static const char *page_text(struct links_check *lc, const struct lpage *cp, size_t *len)
{
	struct lpage *p = (struct lpage *)cp;
	if (!p->src)
		return NULL;
	if (!p->src_text && lc->source) {
		/* a source this build did not read: the caller's reader */
		p->src_text = lc->source(lc->source_ctx, p->src, &p->src_len);
	}
	*len = p->src_len;
	return p->src_text;
}
/* last_segment: the last folder or file name of the path of u
 * ("/blog/posts/warps/#x" -> "warps"), for md_hits. */
static void last_segment(const char *u, size_t ul, const char **seg, size_t *n)
{
	size_t e = 0;
	while (e < ul && u[e] != '#' && u[e] != '?')
		e++;
	while (e > 0 && u[e - 1] == '/')
		e--;
	size_t b = e;
	while (b > 0 && u[b - 1] != '/')
		b--;
	*seg = u + b;
	*n = e - b;
}

/* md_stem: the name a Markdown link's file gives its page
 * ("@/posts/warps.md" and "../warps/index.md" -> "warps"). */
static void md_stem(const char *l, size_t ln, const char **stem, size_t *n)
{
	const char *md = memmem(l, ln, ".md", 3);
	size_t e = md ? (size_t)(md - l) : ln;
	if (e >= 5 && !memcmp(l + e - 5, "index", 5) && (e == 5 || l[e - 6] == '/')) {
		e = e > 5 ? e - 6 : 0; /* a bundle: its folder's name */
	}
	size_t b = e;
	while (b > 0 && l[b - 1] != '/')
		b--;
	*stem = l + b;
	*n = e - b;
}

/* md_hits: the offsets (at most max) in text of the .md and @/ links with
 * u's #fragment: a link folio rewrote (x.md#part) is found by its #part.
 * Those whose file has the name of u's page come first; when none has
 * (a front matter's slug), all of them. Returns how many. */
static size_t md_hits(const char *tx, size_t tl, const char *u, size_t ul, size_t *at, size_t max)
{
	const char *hash = memchr(u, '#', ul);
	if (!tx || !hash || hash == u || ul - (size_t)(hash - u) <= 1)
		return 0;
	const char *seg;
	size_t segn, k = 0, named = 0, from = 0;
	last_segment(u, (size_t)(hash - u), &seg, &segn);
	size_t fl = ul - (size_t)(hash - u);
	while (k < max && from + fl <= tl) {
		const char *hit = memmem(tx + from, tl - from, hash, fl);
		if (!hit)
			break;
		size_t o = (size_t)(hit - tx), e = o + fl;
		from = o + 1;
		if (e < tl && urlish((unsigned char)tx[e]))
			continue;
		size_t b = o;
		while (b > 0 && urlish((unsigned char)tx[b - 1]))
			b--;
		if (b + 3 > o || (memcmp(tx + b, "@/", 2) && !memmem(tx + b, o - b, ".md", 3)))
			continue;
		const char *stem;
		size_t sn;
		md_stem(tx + b, o - b, &stem, &sn);
		if (sn == segn && !memcmp(stem, seg, sn)) {
			memmove(at + named + 1, at + named, (k - named) * sizeof *at); /* the named ones first, in order */
			at[named++] = b;
		} else {
			at[k] = b;
		}
		k++;
	}
	return named ? named : k;
}

/* joined: whether a template string whose text so far ends at s (q its
 * quote) is joined to more: an expression follows in it ("/topics/{{ x }}")
 * or is joined to it ("/topics/" ~ x). */
static int joined(const char *s, size_t n, char q)
{
	if (n >= 2 && s[0] == '{' && (s[1] == '{' || s[1] == '%'))
		return 1;
	if (!n || s[0] != q)
		return 0;
	size_t i = 1;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < n && s[i] == '~';
}

static int cmp_offset(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* locate: where the link u of page p is written: its source first (the
 * .md and @/ links folio rewrote to u, and u itself, each place once, in
 * order), then the other texts. The forms searched: u, and u without the
 * base path. */
static int locate(struct links_check *lc, const struct lpage *p, const char *u, size_t ul,
		  struct place *pl)
{
	const char *forms[2] = {u, NULL};
	size_t flen[2] = {ul, 0};
	size_t bl = strlen(lc->base);
	if (bl > 1 && ul >= bl && !memcmp(u, lc->base, bl)) {
		forms[1] = u + bl - 1;
		flen[1] = ul - bl + 1;
	}
	const size_t max = sizeof pl->at / sizeof *pl->at;
	size_t tl = 0;
	const char *tx = page_text(lc, p, &tl);
	for (size_t c = 0; c <= lc->ntexts; c++) {
		const char *path = c == 0 ? p->src : lc->texts[c - 1].path;
		const char *text = c == 0 ? tx : lc->texts[c - 1].text;
		size_t len = c == 0 ? tl : lc->texts[c - 1].len;
		if (!path || !text)
			continue;
		pl->n = c == 0 ? md_hits(text, len, u, ul, pl->at, max) : 0;
		for (int f = 0; f < 2 && pl->n < max; f++)
			if (forms[f])
				pl->n += find_all(text, len, forms[f], flen[f], pl->at + pl->n, max - pl->n);
		if (pl->n) {
			qsort(pl->at, pl->n, sizeof *pl->at, cmp_offset);
			size_t k = 1;
			for (size_t i = 1; i < pl->n; i++)
				if (pl->at[i] != pl->at[k - 1])
					pl->at[k++] = pl->at[i];
			pl->n = k;
			pl->path = path;
			pl->text = text;
			pl->len = len;
			return 1;
		}
	}
	/* a link a template puts together ("/topics/" ~ post.slug ~ "/", or
	 * href="/topics/{{ post.slug }}/"): its longest leading folders that a
	 * template writes as the start of a string joined to more, when they
	 * stand in a few places only */
	const char *pu = forms[1] ? forms[1] : forms[0];
	size_t pn = forms[1] ? flen[1] : flen[0];
	size_t end = 0;
	while (end < pn && pu[end] != '#' && pu[end] != '?')
		end++;
	for (size_t k = end; k-- > 1;) {
		if (pu[0] != '/' || pu[k] != '/')
			continue; /* "/x/" at least: "/" alone says nothing */
		for (size_t c = 1; c <= lc->ntexts; c++) {
			const struct links_text *t = &lc->texts[c - 1];
			if (!t->path || !t->text || strncmp(t->path, "templates/", 10))
				continue;
			pl->n = 0;
			for (size_t from = 1; from + k + 1 <= t->len;) {
				const char *hit = memmem(t->text + from, t->len - from, pu, k + 1);
				if (!hit)
					break;
				size_t o = (size_t)(hit - t->text);
				from = o + 1;
				if ((t->text[o - 1] != '"' && t->text[o - 1] != '\'') ||
				    !joined(t->text + o + k + 1, t->len - o - k - 1, t->text[o - 1]))
					continue;
				if (pl->n == max) {
					pl->n = max + 1; /* too common to point at */
					break;
				}
				pl->at[pl->n++] = o;
			}
			if (pl->n && pl->n <= max) {
				pl->path = t->path;
				pl->text = t->text;
				pl->len = t->len;
				return 1;
			}
		}
	}
	pl->n = 0;
	return 0;
}

static void report(struct links_check *lc, struct diag *d, const struct lpage *p, const char *u,
		   size_t ul, const char *msg)
{
	struct place pl;
	memset(&pl, 0, sizeof pl);
	enum diag_level lv = lc->note_level ? DIAG_NOTE : lc->mode == LINKS_WARN ? DIAG_WARNING : DIAG_ERROR;
	struct lpage *mp = (struct lpage *)p;
	if (!lc->note_level) {
		lc->reported++;
		mp->told++;
	}
	if (mp->shown >= LINKS_SHOWN) {
		mp->hidden++;
		return;
	}
	mp->shown++;
	if (locate(lc, p, u, ul, &pl)) {
		for (size_t i = 0; i < pl.n; i++) {
			struct diag_loc loc = {pl.path, pl.text, pl.len, 0, 0};
			line_col(pl.text, pl.at[i], &loc.line, &loc.col);
			diag_report(d, lv, &loc, NULL, 0, "%s", msg);
		}
		return;
	}
	struct buf pu;
	buf_init(&pu);
	url_of(&pu, p->out);
	buf_putc(&pu, '\0');
	struct diag_loc loc = {p->src ? p->src : p->out, NULL, 0, 0, 0};
	diag_report(d, lv, &loc, NULL, 0, "%s (on the page %s)", msg, pu.p);
	buf_fini(&pu);
}

/* suggest_url: a page URL close to want (its site path), into b. */
static int suggest_url(struct links_check *lc, const char *want, struct buf *b)
{
	if (!lc->urls) {
		lc->urls = xcalloc(lc->npages + 1, sizeof *lc->urls);
		for (size_t i = 0; i < lc->npages; i++) {
			struct buf t;
			buf_init(&t);
			url_of(&t, lc->pages[i].out);
			buf_putc(&t, '\0');
			lc->urls[lc->nurls++] = buf_detach(&t, NULL);
		}
	}
	struct buf w;
	buf_init(&w);
	url_of(&w, want);
	struct diag_guess g;
	diag_guess_init(&g, w.p, w.len);
	for (size_t i = 0; i < lc->nurls; i++)
		diag_guess_try(&g, lc->urls[i], strlen(lc->urls[i]));
	size_t n = 0;
	const char *best = diag_guess_best(&g, &n);
	buf_fini(&w);
	if (!best)
		return 0;
	buf_append(b, lc->base, strlen(lc->base) - 1);
	buf_append(b, best, n);
	return 1;
}

static int suggest_id(const struct lpage *p, const char *id, size_t n, struct buf *b)
{
	struct diag_guess g;
	diag_guess_init(&g, id, n);
	const char *r = p->rec, *end = p->rec ? p->rec + p->rec_len : NULL; /* NULL + 0 is undefined */
	while (r && r < end) {
		size_t l = strlen(r);
		if (r[0] == 'i')
			diag_guess_try(&g, r + 1, l - 1);
		r += l + 1;
	}
	size_t bn = 0;
	const char *best = diag_guess_best(&g, &bn);
	if (best)
		buf_append(b, best, bn);
	return best != NULL;
}

/* add_target: the file rel[0..n) is one a link led to */
static void add_target(struct links_check *lc, const char *rel, size_t n)
{
	if (lc->ntargets == lc->cap_targets) {
		lc->cap_targets = lc->cap_targets ? lc->cap_targets * 2 : 1024;
		lc->targets = xrealloc(lc->targets, lc->cap_targets * sizeof *lc->targets);
	}
	lc->targets[lc->ntargets++] = hash_bytes(rel, n);
}

/* A run of the check: the target of the link at hand, the root-relative
 * URLs found good (keys in the records), the message being made, and the
 * counts. */
struct run {
	struct links_check *lc;
	struct diag *d;
	struct target t;
	struct map good;
	struct buf msg, hint;
	size_t broken, hints;
};

/* later_of: the reason (an index into lc->why) why the target of a link
 * to no file is a page this build leaves out, or (size_t)-1; a folder
 * ("/posts/draft") by its index.html. */
static size_t later_of(struct links_check *lc, struct target *t)
{
	size_t later = sset_get(&lc->later, t->rel.p, t->rel.len);
	if (later != (size_t)-1)
		return later;
	size_t n = t->rel.len;
	buf_puts(&t->rel, "/index.html");
	later = sset_get(&lc->later, t->rel.p, t->rel.len);
	if (later == (size_t)-1) {
		t->rel.len = n;
		t->rel.p[n] = '\0';
	}
	return later;
}

/* no_file: the message of a link u (sl bytes) to no file of the site. */
static void no_file(struct run *k, const struct lpage *p, const char *u, size_t sl, int want_hint)
{
	struct buf *msg = &k->msg;
	if (sl >= 2 && u[0] == '@' && u[1] == '/') {
		buf_printf(msg, "broken link '%.*s%s': no post, page or series content/%.*s%s", SHOWN(u, sl),
			   SHOWN(u + 2, sl - 2));
		return;
	}
	if (p->src && links_is_md_link(u, sl)) {
		struct buf mp;
		buf_init(&mp);
		const char *slash = strrchr(p->src, '/');
		if (slash)
			buf_append(&mp, p->src, (size_t)(slash - p->src) + 1);
		size_t pl = 0;
		while (pl < sl && u[pl] != '#' && u[pl] != '?')
			pl++;
		links_pct_decode(&mp, u, pl);
		buf_putc(&mp, '\0');
		if (links_normalize(mp.p) == 0)
			buf_printf(msg, "broken link '%.*s%s': no post, page or series %.*s%s", SHOWN(u, sl),
				   SHOWN(mp.p, strlen(mp.p)));
		else
			buf_printf(msg, "broken link '%.*s%s': it climbs out of the site", SHOWN(u, sl));
		buf_fini(&mp);
		return;
	}
	buf_printf(msg, "broken link '%.*s%s': the site has no page or file ", SHOWN(u, sl));
	url_of(msg, k->t.rel.p);
	if (want_hint && suggest_url(k->lc, k->t.rel.p, &k->hint))
		buf_printf(msg, " (did you mean '%.*s'?)", (int)k->hint.len, k->hint.p);
}

/* broken_message: the message of a broken link u (sl bytes, as written)
 * of page p, by its verdict v, in k->msg. */
static void broken_message(struct run *k, const struct lpage *p, enum verdict v, const char *u, size_t sl)
{
	int want_hint = k->hints < 200;
	buf_reset(&k->msg);
	buf_reset(&k->hint);
	switch (v) {
	case V_NO_FILE:
		no_file(k, p, u, sl, want_hint);
		break;
	case V_NO_ID:
		buf_printf(&k->msg, "broken link '%.*s%s': ", SHOWN(u, sl));
		if (k->t.page == p)
			buf_puts(&k->msg, "this page");
		else
			url_of(&k->msg, k->t.page->out);
		buf_printf(&k->msg, " has no element with id '%.*s%s'", SHOWN(k->t.frag, k->t.frag_len));
		if (want_hint && suggest_id(k->t.page, k->t.frag, k->t.frag_len, &k->hint))
			buf_printf(&k->msg, " (did you mean '#%.*s'?)", (int)k->hint.len, k->hint.p);
		break;
	case V_OUT_OF_BASE:
		buf_printf(&k->msg,
			   "broken link '%.*s%s': the site is served under %s (in a template, write the URL with '| "
			   "rel_url')",
			   SHOWN(u, sl), k->lc->base);
		break;
	case V_OUT_OF_SITE:
		buf_printf(&k->msg, "broken link '%.*s%s': it climbs out of the site", SHOWN(u, sl));
		break;
	default:
		break;
	}
	k->hints += want_hint;
	buf_putc(&k->msg, '\0');
}

/* check_link: the link u (ul bytes) of page p, against the build;
 * reported when it is broken or leads to a page left out. */
static void check_link(struct run *k, const struct lpage *p, const char *u, size_t ul)
{
	struct links_check *lc = k->lc;
	/* a root-relative URL means the same on every page: once found good,
	 * it is good everywhere (the links of a theme's header, footer and
	 * cards repeat on thousands of pages); so does one into the site's
	 * own address written whole (its feeds, a card's image) */
	size_t ol = lc->origin_len;
	const char *path = ol && ul > ol && u[ol] == '/' && !strncasecmp(u, lc->origin, ol) ? u + ol : u;
	size_t pathl = ul - (size_t)(path - u);
	int rooted = pathl >= 1 && path[0] == '/' && !(pathl >= 2 && path[1] == '/');
	if (rooted && sset_get(&k->good, u, ul) != (size_t)-1) {
		lc->checked++;
		return;
	}
	enum verdict v = resolve(lc, p, u, ul, &k->t);
	if (v == V_EXTERNAL)
		return;
	lc->checked++;
	if (v == V_OK) {
		if (rooted)
			sset_put(&k->good, u, ul, 0);
		add_target(lc, k->t.rel.p, k->t.rel.len);
		return;
	}
	/* shown as written: without the base path folio put in front */
	const char *full = u;
	size_t bl = strlen(lc->base);
	if (v != V_OUT_OF_BASE && bl > 1 && ul >= bl && !memcmp(u, lc->base, bl))
		u += bl - 1;
	/* the site's own address written whole (a card's og:image made from
	 * the post's first image): its path, as the pattern for the image
	 * names it */
	const char *own = NULL;
	if (ol && strlen(full) > ol && full[ol] == '/' && !strncasecmp(full, lc->origin, ol)) {
		own = full + ol;
		if (bl > 1 && strlen(own) >= bl && !memcmp(own, lc->base, bl))
			own += bl - 1;
	}
	/* ignore_links patterns are written for the link as written, and
	 * match it with the base path too */
	for (size_t i = 0; i < p->nignore; i++)
		if (fnmatch(p->ignore[i], u, 0) == 0 || (u != full && fnmatch(p->ignore[i], full, 0) == 0) ||
		    (own && fnmatch(p->ignore[i], own, 0) == 0)) {
			if (lc->list_ignored) {
				/* folio check --ignored: said as a note, the build goes on */
				broken_message(k, p, v, u, strlen(u));
				buf_putc(&k->msg, '\0');
				char *why = xstrndup(k->msg.p, strlen(k->msg.p));
				buf_reset(&k->msg);
				buf_printf(&k->msg, "not checked (ignore_links has '%s'): %s", p->ignore[i], why);
				buf_putc(&k->msg, '\0');
				free(why);
				lc->note_level = 1;
				report(lc, k->d, p, full, ul, k->msg.p);
				lc->note_level = 0;
			}
			return;
		}
	size_t sl = strlen(u);
	size_t later = v == V_NO_FILE ? later_of(lc, &k->t) : (size_t)-1;
	if (later != (size_t)-1) {
		/* a draft or a post of the future: dead until it is out */
		buf_reset(&k->msg);
		buf_printf(&k->msg, "link '%.*s%s' leads to ", SHOWN(u, sl));
		url_of(&k->msg, k->t.rel.p);
		buf_printf(&k->msg, ", which this build leaves out (%s): the link is dead until it is published",
			   lc->why[later]);
		buf_putc(&k->msg, '\0');
		enum links_mode m = lc->mode;
		lc->mode = LINKS_WARN;
		report(lc, k->d, p, full, ul, k->msg.p);
		lc->mode = m;
		return;
	}
	k->broken++;
	broken_message(k, p, v, u, sl);
	report(lc, k->d, p, full, ul, k->msg.p);
}

size_t links_check_run(struct links_check *lc, struct diag *d)
{
	lc->checked = 0;
	lc->reported = 0;
	lc->ntargets = 0;
	if (lc->mode == LINKS_OFF)
		return 0;
	struct run k;
	memset(&k, 0, sizeof k);
	k.lc = lc;
	k.d = d;
	buf_init(&k.t.rel);
	buf_init(&k.msg);
	buf_init(&k.hint);
	for (size_t i = 0; i < lc->npages; i++) {
		struct lpage *p = &lc->pages[i];
		if (lc->only && !lc->only[i])
			continue;
		p->shown = p->hidden = p->told = 0; /* (a page checked twice: folio serve's patch) */
		const char *r = p->rec, *end = p->rec ? p->rec + p->rec_len : NULL; /* NULL + 0 is undefined */
		for (size_t l; r && r < end; r += l + 1) {
			l = strlen(r);
			if (r[0] == 'l')
				check_link(&k, p, r + 1, l - 1);
		}
		if (p->hidden) {
			struct buf pu;
			buf_init(&pu);
			url_of(&pu, p->out);
			buf_putc(&pu, '\0');
			struct diag_loc loc = {p->src ? p->src : p->out, NULL, 0, 0, 0};
			diag_report(d, DIAG_NOTE, &loc, NULL, 0, "%zu more link problems on the page %s were not shown",
				    p->hidden, pu.p);
			buf_fini(&pu);
		}
	}
	buf_fini(&k.t.rel);
	buf_fini(&k.msg);
	buf_fini(&k.hint);
	map_fini(&k.good);
	return lc->mode == LINKS_ERROR ? k.broken : 0;
}

void links_check_external(struct links_check *lc, const char *self, links_external_fn fn,
			  void *ctx)
{
	size_t self_len = self ? strlen(self) : 0;
	if (self_len && self[self_len - 1] == '/')
		self_len--; /* https://example.org/blog matches too */
	if (self_len && strncmp(self, "http://", 7) && strncmp(self, "https://", 8))
		self_len = 0;
	struct map seen = {0};
	struct buf keys;
	buf_init(&keys);
	char **owned = NULL;
	size_t nowned = 0, cap = 0;
	for (size_t i = 0; i < lc->npages; i++) {
		const struct lpage *p = &lc->pages[i];
		if (lc->only && !lc->only[i])
			continue;
		const char *r = p->rec, *end = p->rec ? p->rec + p->rec_len : NULL; /* NULL + 0 is undefined */
		for (; r && r < end; r += strlen(r) + 1) {
			const char *u = r + 1;
			if (r[0] != 'l' || (strncmp(u, "http://", 7) && strncmp(u, "https://", 8)))
				continue;
			if (self_len && !strncasecmp(u, self, self_len) &&
			    (u[self_len] == '\0' || u[self_len] == '/' || u[self_len] == '#' || u[self_len] == '?'))
				continue;
			struct place pl;
			memset(&pl, 0, sizeof pl);
			int found = locate(lc, p, u, strlen(u), &pl);
			size_t n = found ? pl.n : 1;
			for (size_t k = 0; k < n; k++) {
				int line = 0, col = 0;
				const char *path = found ? pl.path : (p->src ? p->src : p->out);
				if (found)
					line_col(pl.text, pl.at[k], &line, &col);
				buf_reset(&keys);
				buf_printf(&keys, "%s\n%s\n%d\n%d", u, path, line, col);
				char *key = xstrndup(keys.p, keys.len);
				if (!sset_put(&seen, key, keys.len, 0)) {
					free(key);
					continue;
				}
				if (nowned == cap) {
					cap = cap ? cap * 2 : 256;
					owned = xrealloc(owned, cap * sizeof *owned);
				}
				owned[nowned++] = key;
				fn(ctx, u, path, line, col);
			}
		}
	}
	for (size_t i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	map_fini(&seen);
	buf_fini(&keys);
}
